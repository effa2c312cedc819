"""The strategic map (rule VII A and our reading of the lost fig. 1, docs/rules/millenium.md):
where a fleet stands, what touches what, where a fleet scattered off the map waits, and what a
referee's map file is refused for.  The shipped map is 6 columns x 5 rows; every figure is
counted by hand."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from refassist.errors import SetupError
from refassist.rulesets.millenium.geometry import (
    DEFAULT_MAP,
    Card,
    Position,
    load_map,
    map_from_data,
)
from refassist.rulesets.tomlfile import read_toml

from .situations import MAP, at

SHIPPED: dict[str, Any] = read_toml(DEFAULT_MAP, "map file")


def data(**changes: Any) -> dict[str, Any]:
    """The shipped map file's data with some keys changed (``None`` removes a key)."""
    out = copy.deepcopy(SHIPPED)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def with_system(which: str, **entry: Any) -> list[dict[str, Any]]:
    """The shipped systems with one system's entry changed (``None`` removes a key)."""
    systems = copy.deepcopy(SHIPPED["systems"])
    for s in systems:
        if s["letter"] == which:
            for key, value in entry.items():
                if value is None:
                    s.pop(key, None)
                else:
                    s[key] = value
    return systems


def refusal(raw: dict[str, Any]) -> str:
    with pytest.raises(SetupError) as caught:
        map_from_data(raw, "map file orion.toml")
    return str(caught.value)


# -- where a fleet stands -------------------------------------------------------------------------
def test_the_shipped_map_has_thirty_zones_row_by_row_and_its_edges() -> None:
    zones = MAP.zones()
    assert len(zones) == 30 and zones[5:7] == [(6, 1), (1, 2)]  # row 1, then row 2
    assert zones[-1] == (6, 5)
    inside, outside = [(1, 1), (6, 5), (1, 5), (6, 1)], [(0, 3), (7, 3), (3, 0), (3, 6)]
    assert all(MAP.on_map(z) for z in inside) and not any(MAP.on_map(z) for z in outside)


def test_a_system_is_at_its_zones_inner_sector_on_its_own_level_only() -> None:
    """System N lies in zone 33 at level 4 (the shipped map)."""
    n = MAP.systems["N"]
    assert MAP.system_in((3, 3)) is n and MAP.system_in((2, 2)) is None  # zone 22: no system
    assert MAP.system_at(at("33C4")) is n
    assert MAP.system_at(at("33C5")) is None  # another level
    assert MAP.system_at(at("33N4")) is None  # an outer sector
    assert MAP.system_at(at("22C4")) is None
    assert str(n.position) == "33C4" and str(at("33C4").at_level(7)) == "33C7"


def test_a_position_is_read_in_either_language_in_any_case() -> None:
    assert MAP.parse_position(" 23-o-1 ") == Position((2, 3), "W", 1)
    assert MAP.parse_position("23i7") == Position((2, 3), "C", 7)
    assert MAP.parse_position("x") == MAP.systems["X"].position
    assert MAP.parse_position("23N0") is None  # levels 1 to 7
    assert MAP.parse_position("23N") is None
    assert MAP.parse_position("") is None


def test_a_level_costs_two_in_place_and_a_sector_one() -> None:
    assert MAP.step_cost(at("23C4"), at("23C5")) == 2
    assert MAP.step_cost(at("23C4"), at("23C3")) == 2
    assert MAP.step_cost(at("23C4"), at("23N5")) is None  # a level and a sector at once
    assert MAP.step_cost(at("23C4"), at("33C5")) is None
    assert MAP.step_cost(at("23S4"), at("24N4")) == 1
    assert MAP.step_cost(at("23S4"), at("24N5")) is None  # the next zone on another level
    assert MAP.step_cost(at("23C4"), at("23C4")) is None  # no step at all
    assert set(MAP.neighbours(at("23W4"))) == {at("23C4"), at("13E4")}


# -- the edges -------------------------------------------------------------------------------
def test_every_place_beyond_an_edge_faces_the_map() -> None:
    """6 columns x 5 rows: 6 places above, 6 below, 5 left, 5 right, all at the level asked."""
    edges = MAP.edge_positions(4)
    assert len(edges) == 22 and len(set(edges)) == 22
    for place in ("10S4", "60S4", "16N4", "66N4", "01E4", "05E4", "71W4", "75W4"):
        assert at(place) in edges, place
    assert {p.level for p in MAP.edge_positions(2)} == {2}
    assert MAP.edge_positions()[0] == at("10S4")  # level 4 by default
    assert all(MAP.entry_point(p) is not None for p in edges)


@pytest.mark.parametrize(
    ("zone", "beyond"),
    [((3, 3), 0), ((0, 3), 1), ((7, 3), 1), ((3, 0), 1), ((3, 6), 1), ((9, 3), 3), ((0, 0), 2)],
)
def test_how_far_a_zone_lies_beyond_the_map(zone: tuple[int, int], beyond: int) -> None:
    assert MAP.outside_by(zone) == beyond


@pytest.mark.parametrize(
    ("zone", "left_by", "way", "waits"),
    [
        ((3, -1), (3, 1), "N", "30S5"),  # above: rows count downwards
        ((4, 8), (4, 5), "S", "46N5"),
        ((-2, 2), (1, 2), "W", "02E5"),
        ((9, 4), (6, 4), "E", "74W5"),
        ((0, 0), (1, 1), "N", "10S5"),  # a corner: above first
        ((8, 7), (6, 5), "S", "66N5"),
        ((-1, 1), (1, 1), "W", "01E5"),  # beside the top row, not above it
        ((7, 5), (6, 5), "E", "75W5"),  # beside the bottom row, not below it
    ],
)
def test_a_fleet_scattered_off_the_map_waits_beside_the_zone_it_left_by(
    zone: tuple[int, int], left_by: tuple[int, int], way: str, waits: str
) -> None:
    assert MAP.exit_zone(zone) == (left_by, way)
    assert MAP.waiting_place(zone, 5) == at(waits)
    assert MAP.entry_point(at(waits)) is not None


def test_zones_travelled_count_columns_rows_and_levels() -> None:
    assert MAP.zones_travelled(at("11C1"), (6, 5), 7) == 5 + 4 + 6
    assert MAP.zones_travelled(at("65C7"), (1, 1), 1) == 15  # the other way round too


# -- a referee's map file -------------------------------------------------------------------------
def test_the_shipped_map_read_from_its_file() -> None:
    shipped = load_map()
    assert (shipped.title, shipped.columns, shipped.rows) == ("La Marche d'Orion", 6, 5)
    assert shipped.source == "map.toml" and shipped.cards_reconstructed
    assert list(shipped.systems) == sorted(shipped.systems) and len(shipped.systems) == 24
    assert shipped.systems["B"].name == "Bételgeuse" and shipped.systems["B"].level == 5
    assert shipped.cards[0] == Card(6, 2) and shipped.cards[-1] == Card(0, 1)


def test_a_referee_map_file_is_named_as_its_source(tmp_path: Path) -> None:
    mine = tmp_path / "orion.toml"
    mine.write_text(DEFAULT_MAP.read_text(encoding="utf-8").replace("Marche", "Route"), "utf-8")
    loaded = load_map(mine)
    assert loaded.source == "orion.toml" and loaded.title == "La Route d'Orion"


def test_a_referee_map_file_refused_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "orion.toml"
    bad.write_text(DEFAULT_MAP.read_text(encoding="utf-8").replace("columns = 6", "columns = 1"))
    with pytest.raises(SetupError) as caught:
        load_map(bad)
    assert str(caught.value) == (
        "map file orion.toml: columns and rows must be whole numbers from 2 to 9 (zone names "
        "are two digits)"
    )
    with pytest.raises(SetupError) as caught:
        map_from_data(data(columns=1))
    assert str(caught.value).startswith("map file: columns and rows")


def test_what_a_map_file_may_leave_out_or_write_long() -> None:
    shipped = map_from_data(data(title=None, reconstructed_cards=None))
    assert shipped.title == "Millenium" and not shipped.cards_reconstructed
    assert shipped.source == ""
    long = map_from_data(data(title="T" * 70, systems=with_system("A", name="N" * 40)))
    assert long.title == "T" * 60 and long.systems["A"].name == "N" * 30
    unnamed = map_from_data(data(systems=with_system("A", name=None)))
    blank = map_from_data(data(systems=with_system("A", name="   ")))
    assert unnamed.systems["A"].name == blank.systems["A"].name == "A"
    lower = map_from_data(data(systems=with_system("A", letter=" a ")))
    assert lower.systems["A"].zone == (1, 1)


def test_a_map_of_two_to_nine_columns_and_rows() -> None:
    """Zone names are two digits: 2 to 9 columns and rows.  A 9 x 9 map holds the shipped
    systems; a 2 x 9 one is read too, but its 18 zones cannot hold 24 systems (each refused
    system names the map's size)."""
    assert (map_from_data(data(columns=9, rows=9)).columns, MAP.rows) == (9, 5)
    narrow = refusal(data(columns=2, rows=9))
    assert "columns and rows" not in narrow
    assert "system C: zone '41' is not on the 2 x 9 map" in narrow
    flat = refusal(data(columns=9, rows=2))
    assert "columns and rows" not in flat and "system L: zone '13' is not on the 9 x 2 map" in flat


@pytest.mark.parametrize(("columns", "rows"), [(1, 5), (10, 5), (6, 1), (6, 10), ("6", 5)])
def test_a_map_outside_two_to_nine_columns_or_rows_is_refused(columns: Any, rows: Any) -> None:
    assert refusal(data(columns=columns, rows=rows)) == (
        "map file orion.toml: columns and rows must be whole numbers from 2 to 9 (zone names "
        "are two digits)"
    )


def test_every_problem_of_a_system_is_named_in_one_message() -> None:
    systems = copy.deepcopy(SHIPPED["systems"])
    systems[0]["level"] = 0  # A
    systems[1]["level"] = 8  # B
    systems[2]["level"] = True  # C: not a number
    systems[3]["zone"] = "71"  # D: beyond 6 columns
    systems[4]["zone"] = "11"  # E: A's zone
    systems[5]["letter"] = "J"  # F: no J printed
    systems.append({"letter": "G", "zone": "22", "level": 1})
    systems.append("H")
    systems.append({"zone": "22", "level": 1})
    assert refusal(data(systems=systems)) == (
        "map file orion.toml: "
        "system A: level must be 1 to 7; "
        "system B: level must be 1 to 7; "
        "system C: level must be 1 to 7; "
        "system D: zone '71' is not on the 6 x 5 map; "
        "system E: zone 11 already holds system A; "
        "system 6: letter 'J' is not one of the 24 printed letters; "
        "system G is listed twice; "
        "system 26 is not a table; "
        "system 27: letter '' is not one of the 24 printed letters; "
        "the map needs all 24 systems; missing D F"
    )


@pytest.mark.parametrize("zone", ["1", "123", "ab", "01", "16", "70"])
def test_a_zone_is_two_digits_on_the_map(zone: Any) -> None:
    text = refusal(data(systems=with_system("N", zone=zone)))
    assert f"system N: zone {zone!r} is not on the 6 x 5 map" in text
    assert text.endswith("missing N")


def test_a_zone_written_as_a_number_and_levels_one_and_seven_are_read() -> None:
    assert map_from_data(data(systems=with_system("N", zone=33))).systems["N"].zone == (3, 3)
    assert map_from_data(data(systems=with_system("A", level=7))).systems["A"].level == 7
    assert map_from_data(data(systems=with_system("A", level=1))).systems["A"].level == 1


def test_systems_not_a_list_and_no_cards() -> None:
    text = refusal(data(systems={"A": 1}, cards=None))
    assert text.startswith("map file orion.toml: systems must be a list; the map needs all 24 ")
    assert text.endswith("; the map needs 24 identification cards, not 0")
    assert refusal(data(cards="none")) == (
        "map file orion.toml: the map needs 24 identification cards, not 0"
    )


def test_every_problem_of_a_card_is_named() -> None:
    cards = copy.deepcopy(SHIPPED["cards"])
    cards[3] = {"loyalty": 7, "planets": 1}
    cards[4] = {"loyalty": -1, "planets": 1}
    cards[5] = {"loyalty": 5, "planets": 0}
    cards[6] = {"loyalty": 4, "planets": 3}
    cards[7] = {"loyalty": "4", "planets": 1}
    cards[8] = {"loyalty": 4, "planets": 1.0}
    cards[9] = 4
    assert refusal(data(cards=cards)) == (
        "map file orion.toml: "
        "card 4: loyalty must be 0 to 6; "
        "card 5: loyalty must be 0 to 6; "
        "card 6: planets must be 1 or 2 (the battle map has two pieces); "
        "card 7: planets must be 1 or 2 (the battle map has two pieces); "
        "card 8: loyalty must be 0 to 6; "
        "card 9: planets must be 1 or 2 (the battle map has two pieces); "
        "card 10: loyalty must be 0 to 6; "
        "the map needs 24 identification cards, not 17"
    )


def test_cards_of_loyalty_zero_to_six_and_one_or_two_planets() -> None:
    cards = copy.deepcopy(SHIPPED["cards"])
    cards[3] = {"loyalty": 0, "planets": 1}
    cards[4] = {"loyalty": 1, "planets": 2}
    read = map_from_data(data(cards=cards))
    assert read.cards[3] == Card(0, 1) and read.cards[4] == Card(1, 2)


@pytest.mark.parametrize("sixes", [2, 4])
def test_exactly_three_cards_are_of_loyalty_six(sixes: int) -> None:
    """The seed keeps that three cards are of loyalty 6 (one holds the imperial planet)."""
    cards = copy.deepcopy(SHIPPED["cards"])
    if sixes == 2:
        cards[0] = {"loyalty": 5, "planets": 2}
    else:
        cards[3] = {"loyalty": 6, "planets": 2}
    assert refusal(data(cards=cards)) == (
        "map file orion.toml: exactly three cards are of loyalty 6 (the imperial planet is in "
        "one of them)"
    )


def test_twenty_five_cards_are_one_too_many() -> None:
    cards = [*copy.deepcopy(SHIPPED["cards"]), {"loyalty": 0, "planets": 1}]
    assert refusal(data(cards=cards)).endswith("the map needs 24 identification cards, not 25")


def test_with_its_size_refused_a_map_reads_its_zones_on_the_largest_map() -> None:
    """Columns and rows refused, the zones are still read, on a 9 x 9 map (the largest
    two-digit names allow), so each other problem is named in the same message."""
    text = refusal(data(columns="six", systems=with_system("N", zone="00")))
    assert text == (
        "map file orion.toml: columns and rows must be whole numbers from 2 to 9 (zone names "
        "are two digits); system N: zone '00' is not on the 9 x 9 map; the map needs all 24 "
        "systems; missing N"
    )
