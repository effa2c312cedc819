"""Imperium master workbook: state -> workbook -> state, and every cross-table problem with
the cell it is in."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from refassist.dice import Dice, Roll
from refassist.errors import MasterWorkbookError
from refassist.rulesets.base import Event, NewGame, PlayerSetup
from refassist.rulesets.imperium_3m import RULESET
from refassist.rulesets.imperium_3m.setup import new_game
from refassist.rulesets.imperium_3m.state import Queued, State, Unit
from refassist.rulesets.imperium_3m.tables import SCHEMA, to_tables
from refassist.workbook.master import column_letter, master_bytes, read_master, write_master

Rows = dict[str, list[dict[str, Any]]]


def start() -> State:
    players = (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com"))
    return new_game(NewGame("Test", "id", players, {}), Dice(seed=1), {})


def busy_state() -> State:
    """A state in the middle of a war: damage, a disputed planet, the turn track, reveals."""
    state = start()
    state.turn, state.war_turn, state.glory = 4, 4, 6
    state.results = ["truce"]
    state.peace_talks = True
    terran = state.sides["Terran"]
    terran.resources, terran.bb_unlocked, terran.depression = 37, True, 2
    imperial = state.sides["Imperial"]
    imperial.permissions, imperial.budget_bonus, imperial.appeals_prohibited = ["CR", "CA"], 3, True
    imperial.initiative_modifier, imperial.mandate_glory, imperial.visit = -1, 5, True
    imperial.mandate_turn, imperial.granted = 3, ["CA", "B1"]
    next(u for u in state.units if u.code == "CA").damaged = True
    rt = next(u for u in state.units if u.code == "RT" and u.planet)
    rt.damaged, rt.hex = True, 2
    tau = state.map.planets["TAU2"]
    tau.owner, tau.marker, tau.disputed = "Imperial", "Outpost", True
    eri = state.map.planets["ERI1"]
    eri.type, eri.terraform_paid, eri.terraform_side = "A1", 100, "Terran"
    state.map.planets["KIS1"].upgrade_paid = 2
    state.units.append(
        Unit(
            id="JT5",
            side="Imperial",
            code="JT",
            planet="TAU2",
            hex=1,
            strength=4,
            reduced_strength=2,
            origin="Intervention",
        )
    )
    state.fleets[0].came_from = "ACE"
    state.fleets[0].standing = "stance=stand off; priority=transport; break_off=1; stealth=no"
    state.queue = [
        Queued("Terran", "CA", 6, "built", 15, "SOL1", unit_id="CA3"),
        Queued("Imperial", "DD", 5, "Frontier Crisis", origin="Intervention"),
    ]
    state.revealed = {"Terran": ["TAU", "NIP"], "Imperial": ["SOL"]}
    state.events = [
        Event(
            4,
            "action 1",
            "TAU",
            "battle",
            "Battle at Tau Ceti",
            ("Terra", "Empire"),
            ("Empire", "Terra"),
            {"rounds": [{"initiative": [3, 5]}]},
            (1, 2),
        ),
    ]
    state.dice = [
        Roll(1, 4, "action 1", "TAU", "initiative Terran", 6, 3),
        Roll(2, 4, "action 1", "TAU", "initiative Imperial", 6, 5),
    ]
    return state


@pytest.mark.parametrize("make", [start, busy_state], ids=["start", "mid-war"])
def test_round_trip_gives_the_same_state(tmp_path: Path, make: Callable[[], State]) -> None:
    state = make()
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    again = read_master(path, RULESET)
    assert again == state
    assert json.dumps(RULESET.to_json(again), sort_keys=True) == json.dumps(
        RULESET.to_json(state), sort_keys=True
    )


def test_to_json_holds_the_whole_state() -> None:
    data = json.loads(json.dumps(RULESET.to_json(busy_state())))
    assert data["ruleset"] == "imperium-3m"
    assert data["glory"] == 6 and data["war_turn"] == 4
    assert data["sides"]["Imperial"]["permissions"] == ["CR", "CA"]
    assert {p["code"]: p["disputed"] for p in data["map"]["planets"]}["TAU2"] is True
    assert data["revealed"] == {"Terran": ["TAU", "NIP"], "Imperial": ["SOL"]}
    assert data["queue"][0]["world"] == "SOL1" and data["queue"][1]["origin"] == "Intervention"
    assert data["events"][0]["data"] == {"rounds": [{"initiative": [3, 5]}]}
    assert data["dice"][1]["result"] == 5


def test_headers_and_help_are_there_for_the_referee() -> None:
    for table in SCHEMA:
        assert table.help, table.name
        headers = [c.header for c in table.columns]
        assert len(set(headers)) == len(headers), table.name
    units = next(t for t in SCHEMA if t.name == "units")
    assert units.column("fleet").help and units.column("hex").help


# -- cross-table problems -----------------------------------------------------------------------


def _cell(table: str, column: str, index: int) -> str:
    """The cell of row ``index`` (0-based, under the header) in ``column`` of ``table``."""
    t = next(t for t in SCHEMA if t.name == table)
    position = [c.name for c in t.columns].index(column)
    return f"{column_letter(position)}{index + 2}"


def _problems(tmp_path: Path, edit: Callable[[Rows], None]) -> list[tuple[str, str, str]]:
    tables = to_tables(start())
    edit(tables)
    path = tmp_path / "edited.xlsx"
    path.write_bytes(master_bytes(RULESET, tables))
    with pytest.raises(MasterWorkbookError) as caught:
        read_master(path, RULESET)
    return [(p.sheet, p.cell, p.message) for p in caught.value.problems]


def _index(rows: list[dict[str, Any]], **match: Any) -> int:
    return next(i for i, r in enumerate(rows) if all(r[k] == v for k, v in match.items()))


def test_a_valid_hand_edit_is_honoured(tmp_path: Path) -> None:
    tables = to_tables(start())
    tables["fleets"][_index(tables["fleets"], name="T3")]["system"] = "WOL"
    tables["sides"][0]["resources"] = 99
    path = tmp_path / "edited.xlsx"
    path.write_bytes(master_bytes(RULESET, tables))
    state = read_master(path, RULESET)
    assert state.fleet("T3").system == "WOL"
    assert state.sides["Terran"].resources == 99


def test_unit_in_an_unknown_fleet(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["units"][3]["fleet"] = "T9"

    assert _problems(tmp_path, edit) == [
        ("Units", _cell("units", "fleet", 3), "is not a fleet on the Fleets sheet")
    ]


def test_unit_in_the_other_sides_fleet(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["units"][0]["fleet"] = "I1"

    found = _problems(tmp_path, edit)
    assert found == [
        ("Units", _cell("units", "fleet", 0), "is a Imperial fleet, but this is a Terran unit")
    ]


def test_planet_in_an_unknown_system(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["planets"][_index(t["planets"], code="TAU2")]["system"] = "XXX"

    i = _index(to_tables(start())["planets"], code="TAU2")
    assert _problems(tmp_path, edit) == [
        ("Planets", _cell("planets", "system", i), "is not a system on the Systems sheet")
    ]


def test_unit_code_not_in_its_sides_list(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["units"][0]["code"] = "B1"  # a Terran has no B1

    (sheet, cell, message), *_ = _problems(tmp_path, edit)
    assert (sheet, cell) == ("Units", _cell("units", "code", 0))
    assert message == "is not a unit of the Terran unit list"


def test_two_units_with_one_id(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["units"][1]["id"] = t["units"][0]["id"]

    found = _problems(tmp_path, edit)
    assert len(found) == 1
    sheet, cell, message = found[0]
    assert (sheet, cell) == ("Units", _cell("units", "side", 1))
    assert message.startswith("duplicates row 2")


def test_fleet_at_an_unknown_system(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["fleets"][1]["system"] = "NOWHERE"

    assert _problems(tmp_path, edit) == [
        ("Fleets", _cell("fleets", "system", 1), "is not a system on the Systems sheet")
    ]


def test_more_counters_than_the_side_owns(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        # The Terran side owns one repair ship (AR x1); two are one too many.
        for n in (1, 2):
            t["units"].append({**t["units"][0], "id": f"AR{n}", "code": "AR"})

    found = _problems(tmp_path, edit)
    last = len(to_tables(start())["units"]) + 1
    assert found == [
        (
            "Units",
            _cell("units", "code", last),
            "the Terran side has 2 AR units but owns only 1 counters",
        )
    ]


def test_unit_nowhere_or_in_two_places(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["units"][0]["fleet"] = ""
        t["units"][1]["planet"] = "SOL1"

    found = _problems(tmp_path, edit)
    assert ("Units", _cell("units", "fleet", 0), "the unit is nowhere") in found
    assert (
        "Units",
        _cell("units", "planet", 1),
        "a unit is either in a fleet or on a planet, not both",
    ) in found


def test_ship_on_a_planet_and_troops_on_a_barren_world(tmp_path: Path) -> None:
    tables = to_tables(start())
    ship = _index(tables["units"], side="Terran", code="CA")
    rt = _index(tables["units"], side="Terran", planet="SOL1", code="RT")

    def edit(t: Rows) -> None:
        t["units"][ship].update(fleet="", planet="SOL1")
        t["units"][rt]["planet"] = "SOL3"  # an X1 planet: jump troops and fighters only

    found = _problems(tmp_path, edit)
    assert ("Units", _cell("units", "planet", ship), "ships are in fleets, never on planets") in (
        found
    )
    assert ("Units", _cell("units", "planet", rt), "RT may not stand on a type X1 planet") in found


def test_troop_counter_strength_must_match_its_counter(tmp_path: Path) -> None:
    tables = to_tables(start())
    rt = _index(tables["units"], side="Terran", code="RT")

    def edit(t: Rows) -> None:
        t["units"][rt]["strength"] = 9

    (found,) = _problems(tmp_path, edit)
    assert found[:2] == ("Units", _cell("units", "strength", rt))
    assert found[2].startswith(f"counter {tables['units'][rt]['id']} is ")


def test_hex_beyond_the_planetary_map(tmp_path: Path) -> None:
    tables = to_tables(start())
    i = _index(tables["units"], planet="SOL2", code="PD")

    def edit(t: Rows) -> None:
        t["units"][i]["hex"] = 6  # Sol 2 has five hexes

    assert _problems(tmp_path, edit) == [("Units", _cell("units", "hex", i), "Sol 2 has 5 hexes")]


def test_routes_queue_revealed_and_map_positions(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["routes"][0]["b"] = "ZZZ"
        t["routes"].append({"a": t["routes"][1]["b"], "b": t["routes"][1]["a"], "length": 2})
        t["queue"].append(
            {"side": "Imperial", "code": "TB", "due": 3, "source": "built", "paid": 6, "world": ""}
        )
        t["revealed"].append({"side": "Terran", "system": "MARS"})
        t["systems"][0]["x"] = "far left"

    found = _problems(tmp_path, edit)
    n_routes = len(to_tables(start())["routes"])
    assert set(found) == {
        ("Routes", _cell("routes", "b", 0), "is not a system on the Systems sheet"),
        (
            "Routes",
            _cell("routes", "a", n_routes),
            "the same route as row 3 (routes run both ways)",
        ),
        ("Turn track", _cell("queue", "code", 0), "is not a unit of the Imperial unit list"),
        ("Revealed", _cell("revealed", "system", 0), "is not a system on the map"),
        ("Systems", _cell("systems", "x", 0), "is not a number from 0 to 100"),
    }


def test_planet_marker_rules(tmp_path: Path) -> None:
    tables = to_tables(start())
    tau = _index(tables["planets"], code="TAU2")
    wol = _index(tables["planets"], code="WOL1")

    def edit(t: Rows) -> None:
        t["planets"][tau]["owner"] = "Terran"  # an owner without a marker
        t["planets"][wol].update(owner="Imperial", marker="World")  # a World on an X1 planet

    found = _problems(tmp_path, edit)
    assert set(found) == {
        ("Planets", _cell("planets", "marker", tau), "owner and marker go together"),
        ("Planets", _cell("planets", "marker", wol), "a World needs a type A planet"),
    }


def test_sides_and_settings(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        t["sides"][1]["player"] = t["sides"][0]["player"]
        t["settings"][0]["results"] = "Terran, draw"

    found = _problems(tmp_path, edit)
    assert set(found) == {
        ("Sides", _cell("sides", "player", 1), "plays both sides"),
        ("Settings", _cell("settings", "results", 0), "'draw' is not a war result"),
    }


def test_a_missing_side_row(tmp_path: Path) -> None:
    def edit(t: Rows) -> None:
        del t["sides"][1]

    assert _problems(tmp_path, edit) == [("Sides", "A2", "no row for the Imperial side")]


def test_every_field_of_the_state_has_a_column() -> None:
    """A field added to the state without a column would be lost at the next save: the round
    trip above only notices it when the field holds a non-default value, this always does."""
    import dataclasses

    from refassist.rulesets.imperium_3m import state as st

    columns = {t.name: {c.name for c in t.columns} for t in SCHEMA}
    covered = {
        st.SideState: columns["sides"],
        st.Unit: columns["units"],
        st.Fleet: columns["fleets"],
        st.Queued: columns["queue"],
        st.System: columns["systems"] | {"planets"},
        st.Planet: columns["planets"],
        st.Route: columns["routes"],
        st.GameMap: {"title", "systems", "planets", "routes", "source"},
        st.State: columns["settings"]
        | {"map", "sides", "units", "fleets", "queue", "revealed", "events", "dice"},
    }
    for cls, names in covered.items():
        missing = {f.name for f in dataclasses.fields(cls)} - names
        assert not missing, f"{cls.__name__}: {missing}"


def test_a_fleets_standing_orders_are_checked_when_edited_by_hand(tmp_path: Path) -> None:
    def edit(tables: Rows) -> None:
        tables["fleets"][0]["standing"] = "stance=charge"

    ((sheet, cell, message),) = _problems(tmp_path, edit)
    assert (sheet, cell) == ("Fleets", _cell("fleets", "standing", 0))
    assert "cannot read 'stance=charge'" in message


def test_a_master_workbook_from_before_the_added_columns_still_reads(tmp_path: Path) -> None:
    """A game under way when refassist added the fleets' battle orders and the track's
    counters: its workbook has no such columns and reads as if they were empty; a column
    that was always there, deleted by hand, is still an error."""
    import openpyxl

    state = busy_state()
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    wb = openpyxl.load_workbook(path)
    for sheet, header in (("Fleets", "Battle orders"), ("Turn track", "Counter")):
        ws = wb[sheet]
        column = next(c.column for c in ws[1] if c.value == header)
        ws.delete_cols(column)
    wb.save(path)
    older = read_master(path, RULESET)
    assert [f.standing for f in older.fleets] == [""] * len(state.fleets)
    assert older.fleets[0].came_from == "ACE" and older.queue[0].world == "SOL1"
    wb = openpyxl.load_workbook(path)
    ws = wb["Fleets"]
    ws.delete_cols(next(c.column for c in ws[1] if c.value == "System"))
    wb.save(path)
    with pytest.raises(MasterWorkbookError, match="'System' is missing"):
        read_master(path, RULESET)


def test_a_reserved_counter_is_checked_when_edited_by_hand(tmp_path: Path) -> None:
    def edit(tables: Rows) -> None:
        tables["queue"].append(
            {
                "side": "Terran",
                "code": "CA",
                "due": 3,
                "source": "built",
                "paid": 15,
                "world": "",
                "origin": "",
                "unit_id": "DD7",
            }
        )

    ((sheet, cell, message),) = _problems(tmp_path, edit)
    assert (sheet, cell) == ("Turn track", _cell("queue", "unit_id", 0))
    assert message == "is not a CA counter id (the code and a number, e.g. CA3)"
