"""Strategic movement and hyperspace (rule VII A), with the shipped map and tables and fixed
dice; every figure counted by hand."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.millenium.geometry import Position
from refassist.rulesets.millenium.strategic import (
    check_path,
    hyperspace,
    jump_problem,
    stack_problem,
)

from .situations import MAP, TABLES


def pos(text: str) -> Position:
    found = MAP.parse_position(text)
    assert found is not None, text
    return found


def test_positions_read_in_either_language_and_by_system_letter() -> None:
    assert pos("23N4") == Position((2, 3), "N", 4)
    assert pos("23-O-4") == Position((2, 3), "W", 4)  # ouest
    assert pos("23 I 4") == Position((2, 3), "C", 4)  # intérieur
    assert pos("N") == Position((3, 3), "C", 4)  # system N: zone 33, level 4
    assert MAP.parse_position("23N8") is None  # seven levels
    assert MAP.parse_position("23Q4") is None


def test_sectors_touch_without_diagonals() -> None:
    assert set(MAP.neighbours(pos("23N4"))) == {pos("23C4"), pos("22S4")}
    assert set(MAP.neighbours(pos("23C4"))) == {pos("23N4"), pos("23E4"), pos("23S4"), pos("23W4")}
    assert MAP.step_cost(pos("23N4"), pos("23E4")) is None  # a diagonal
    assert MAP.step_cost(pos("23E4"), pos("33W4")) == 1
    assert MAP.step_cost(pos("23N4"), pos("23N3")) == 2  # a level, in place
    assert MAP.step_cost(pos("23N4"), pos("23N2")) is None  # one level a step


def test_a_normal_move_costs_a_point_a_sector_and_two_a_level() -> None:
    # 23W4 -> 23C4 -> 23E4 -> 33W4: 3 points; on to 33C4 (4) and down to level 3 (6): too far.
    ok = check_path(MAP, pos("23W4"), [pos("23C4"), pos("23E4"), pos("33W4")])
    assert ok.ok and ok.cost == 3
    far = check_path(
        MAP, pos("23W4"), [pos("23C4"), pos("23E4"), pos("33W4"), pos("33C4"), pos("33C3")]
    )
    assert far.cost == 6 and far.problems == ["the move costs 6 points; a fleet has 5"]
    diagonal = check_path(MAP, pos("23N4"), [pos("23E4")])
    assert "not one step" in diagonal.problems[0]


def test_landing_costs_two_more_and_only_at_a_system_on_its_level() -> None:
    # System N is zone 33 at level 4: 33N4 -> 33C4 (1) + landing (2) = 3.
    land = check_path(MAP, pos("33N4"), [pos("33C4")], landing=True)
    assert land.ok and land.cost == 3
    wrong_level = check_path(MAP, pos("33N5"), [pos("33C5")], landing=True)
    assert "inner sector at its level" in wrong_level.problems[0]
    # 4 sectors + landing = 6: too far.
    long = check_path(
        MAP, pos("23W4"), [pos("23C4"), pos("23E4"), pos("33W4"), pos("33C4")], landing=True
    )
    assert long.cost == 6 and not long.ok


def test_a_fleet_waiting_outside_steps_on_but_none_steps_off() -> None:
    entering = check_path(MAP, Position((0, 3), "E", 4), [pos("13W4"), pos("13C4")])
    assert entering.ok and entering.cost == 2
    leaving = check_path(MAP, pos("13W4"), [Position((0, 3), "E", 4)])
    assert leaving.problems == ["03E4 is off the map"]


def test_stacking_two_fleets_hold_seven_ships_at_most() -> None:
    assert stack_problem([7]) == ""  # one large fleet alone
    assert stack_problem([4, 3]) == ""
    assert "at most 7" in stack_problem([4, 4])


def test_a_jump_covers_six_zones_counting_levels() -> None:
    assert "at least 6" in jump_problem(MAP, TABLES, pos("11C4"), (2, 2), 4)
    assert jump_problem(MAP, TABLES, pos("11C4"), (3, 3), 6) == ""  # 2 + 2 + 2 levels = 6
    assert "on the map" in jump_problem(MAP, TABLES, pos("11C4"), (7, 3), 4)


def test_a_short_jump_without_deviation_rolls_only_the_arrival_sector() -> None:
    # 11C4 to zone 33 level 6: 6 zones, row [0 0 0 0 1 1]; die 3 -> no deviation, no DR roll;
    # SA die 5 = LB, the sheet's choice S.
    dice = Dice.scripted([3, 5])
    jump = hyperspace(MAP, TABLES, pos("11C4"), (3, 3), 6, dice, free_sector="S")
    assert (jump.zones, jump.deviation, jump.direction_die) == (6, 0, None)
    assert jump.arrival == pos("33S6")
    assert [r.result for r in dice.log] == [3, 5]


def test_a_deviation_off_the_map_waits_outside_the_zone_it_left() -> None:
    # 11W4 to zone 65 level 4: 5 + 4 = 9 zones, row [0 0 0 1 1 2]; die 6 -> 2 zones; DR die 2
    # -> E: zone 85, two zones beyond the east edge -> waits 1 turn outside zone 65.
    dice = Dice.scripted([6, 2])
    jump = hyperspace(MAP, TABLES, pos("11W4"), (6, 5), 4, dice)
    assert (jump.zones, jump.deviation, jump.direction) == (9, 2, "E")
    assert (jump.off_map_by, jump.wait) == (2, 1)
    assert jump.arrival == Position((7, 5), "W", 4)
    assert len(dice.log) == 2  # no arrival sector off the map


def test_three_zones_off_waits_two_turns() -> None:
    # From the maximum distance (a reserve) to zone 61: row [1 1 2 2 3 3]; die 5 -> 3; DR 1 = N.
    jump = hyperspace(MAP, TABLES, pos("11C4"), (6, 1), 4, Dice.scripted([5, 1]), maximum=True)
    assert (jump.deviation, jump.direction, jump.off_map_by, jump.wait) == (3, "N", 3, 2)
    assert jump.arrival == Position((6, 0), "S", 4)


def test_free_direction_and_sector_default_toward_the_middle() -> None:
    # Maximum row die 1 -> 1 zone; DR die 5 = LB with no choice: from zone 11 the middle
    # (3.5, 3) is 2.5 columns east and 2 rows south -> E, zone 21; SA die 6 = LB -> the
    # sector facing the middle from zone 21 (1.5 east, 2 south): S.
    jump = hyperspace(MAP, TABLES, pos("65C4"), (1, 1), 4, Dice.scripted([1, 5, 6]), maximum=True)
    assert (jump.direction, jump.arrival) == ("E", pos("21S4"))
    chosen = hyperspace(
        MAP,
        TABLES,
        pos("65C4"),
        (1, 1),
        4,
        Dice.scripted([1, 5, 6]),
        maximum=True,
        free_direction="S",
        free_sector="W",
    )
    assert chosen.arrival == pos("12W4")


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_a_row_of_equal_values_needs_no_die(die: int) -> None:
    from refassist.rulesets.millenium.charts import DEFAULT_TABLES, tables_from_data
    from refassist.rulesets.tomlfile import read_toml

    data = read_toml(DEFAULT_TABLES, "tables")
    data["deviation"]["rows"][0]["values"] = [0] * 6
    tables = tables_from_data(data)
    dice = Dice.scripted([die])
    jump = hyperspace(MAP, tables, pos("11C4"), (3, 3), 6, dice)
    assert jump.deviation == 0 and jump.deviation_die is None
    assert jump.arrival_die == die and len(dice.log) == 1


def test_what_a_refused_move_or_jump_says_names_its_figures() -> None:
    wrong_level = check_path(MAP, pos("33N5"), [pos("33C5")], landing=True)
    assert wrong_level.problems == [
        "a landing is made in a system's inner sector at its level; 33C5 is not one"
    ]
    assert stack_problem([4, 4]) == (
        "2 fleets with 8 ships in one sector; fleets together hold at most 7"
    )
    # 11C4 to zone 22 on its level: one column and one row, 2 zones.
    assert jump_problem(MAP, TABLES, pos("11C4"), (2, 2), 4) == (
        "a jump covers at least 6 zones (each level counts as one); this one covers 2"
    )


@pytest.mark.parametrize(("level", "allowed"), [(0, False), (1, True), (7, True), (8, False)])
def test_a_jump_lands_on_one_of_the_seven_levels(level: int, allowed: bool) -> None:
    # 11C4 to zone 44: 3 + 3 = 6 zones before the levels; levels 1-7 exist.
    problem = jump_problem(MAP, TABLES, pos("11C4"), (4, 4), level)
    assert problem == ("" if allowed else "levels run from 1 to 7")


def test_a_jump_records_where_it_was_aimed_from_and_to() -> None:
    dice = Dice.scripted([6, 2])
    jump = hyperspace(MAP, TABLES, pos("11W4"), (6, 5), 4, dice)
    assert (jump.origin, jump.target, jump.level, jump.maximum) == (pos("11W4"), (6, 5), 4, False)
    reserve = hyperspace(MAP, TABLES, pos("11C4"), (6, 1), 4, Dice.scripted([5, 1]), maximum=True)
    assert reserve.maximum is True


def test_the_way_toward_the_middle_from_the_east_half() -> None:
    # Zone 43 on the 6 x 5 map: the middle (3.5, 3) is half a column west and on its row, so
    # a free deviation (DR die 5 = LB, no choice) goes west: 1 zone from zone 43 is zone 33;
    # then the arrival sector, SA die 1 = N.
    jump = hyperspace(MAP, TABLES, pos("11C1"), (4, 3), 7, Dice.scripted([1, 5, 1]), maximum=True)
    assert (jump.deviation, jump.direction, jump.arrival) == (1, "W", pos("33N7"))
