"""Moves on hand-set boards: movement points by terrain, rivers and lines of communication,
speed in bad weather, zones of control, enemy hexes, reserves in a reaction, Ops Complete."""

from __future__ import annotations

from refassist.rulesets.millennium_wars.movement import Move, _a, check_move, make_moves, speed_of

from .situations import blue, board, red


def moved(b, uid: str, *path: str, side: str = "Blue", **kw):  # type: ignore[no-untyped-def]
    return check_move(b, Move(uid, list(path)), side, **kw)


def test_plain_costs_one_a_hex() -> None:
    got = moved(board(blue("A", "0101")), "A", "0201", "0301", "0401")
    assert got.ok and (got.spent, got.end) == (3, "0401")


def test_forest_rivers_and_the_speed_limit() -> None:
    b = board(blue("A", "0101"), terrain={"0102": "forest", "0103": "forest"})
    # Forest costs an armor unit 3: 0102, 0103 are 6 of its 6; one more plain hex is 7.
    assert moved(b, "A", "0102", "0103").spent == 6
    got = moved(b, "A", "0102", "0103", "0104")
    assert got.problems == ["the move costs 7 movement points by 0104; A's speed is 6"]
    # On foot the forest costs 2.
    foot = board(blue("I", "0101", kind="light infantry", speed=4), terrain={"0102": "forest"})
    assert moved(foot, "I", "0102", "0103").spent == 3
    # A river hexside adds 1.
    river = board(blue("A", "0101"), rivers={("0101", "0201")})
    assert moved(river, "A", "0201").spent == 2


def test_lines_of_communication() -> None:
    road = [["0101", "0201", "0301", "0401", "0501"]]
    b = board(
        blue("I", "0101", kind="light infantry", speed=2),
        locs=road,
        terrain={"0201": "forest", "0301": "forest"},
        rivers={("0301", "0401")},
    )
    # Half a point a hex along the road, whatever the terrain, and no river penalty where the
    # road crosses: 0201, 0301, 0401, 0501 cost 2.
    assert moved(b, "I", "0201", "0301", "0401", "0501").spent == 2
    # Off the road the forest costs 2 again: 0201 (road, 1/2) then 0202 (forest? no: plain,
    # 1): 1.5.
    got = moved(b, "I", "0201", "0202")
    assert got.ok and got.spent == 1.5
    got = moved(b, "I", "0201", "0301", "0401", "0501", "0601")
    # 0601 is past the road's end: plain, 1 more, 3 in all.
    assert got.problems == ["the move costs 3 movement points by 0601; I's speed is 2"]
    got = moved(b, "I", "0201", "0301", "0401", "0501", "0502")
    assert got.problems == ["the move costs 3 movement points by 0502; I's speed is 2"]
    half = board(blue("I", "0101", kind="light infantry", speed=1), locs=road)
    got = moved(half, "I", "0201", "0301", "0401")
    assert got.problems == ["the move costs 1.5 movement points by 0401; I's speed is 1"]


def test_prohibited_terrain_enemy_hexes_and_the_map_edge() -> None:
    b = board(blue("A", "0101"), red("R", "0301"), terrain={"0102": "mountain"})
    assert moved(b, "A", "0102").problems == ["0102 is mountain, where an armor unit may not go"]
    assert moved(board(blue("A", "0101"), red("R", "0201")), "A", "0201").problems == [
        "0201 is held by the enemy"
    ]
    assert moved(b, "A", "0202").problems == ["0202 is not next to 0101"]
    assert moved(b, "A", "0100").problems == ["0100 is not on the map"]
    assert moved(b, "X", "0201").problems == ["X is not one of your units on the map"]
    assert moved(b, "R", "0401").problems == ["R is not one of your units on the map"]


def test_a_zone_of_control_ends_the_move() -> None:
    # Red at 0303 controls 0302, 0304, 0202, 0203, 0402, 0403.
    b = board(blue("A", "0101"), red("R", "0303"))
    assert moved(b, "A", "0201", "0202").ok  # the move ends in the zone: fine
    got = moved(b, "A", "0201", "0202", "0203")
    assert got.problems == [
        "0202 is in an enemy zone of control: the move ends there (0203 cannot follow)"
    ]
    # A unit may always leave a zone of control.
    b = board(blue("A", "0202"), red("R", "0303"))
    assert moved(b, "A", "0102", "0101").ok
    # Without the house rule, zones of control do not stop a move.
    assert moved(
        board(blue("A", "0101"), red("R", "0303")), "A", "0201", "0202", "0203", zoc_stop=False
    ).ok


def test_bad_weather_takes_a_point_of_speed() -> None:
    b = board(blue("A", "0101"))
    path = ("0201", "0301", "0401", "0501", "0601", "0602")
    assert moved(b, "A", *path).ok
    got = moved(b, "A", *path, bad_weather=True)
    assert got.problems == [
        "the move costs 6 movement points by 0602; A's speed is 5 (bad weather)"
    ]


def test_reserves_in_a_reaction_ops_complete_and_one_move_an_impulse() -> None:
    b = board(
        blue("A", "0101"), blue("R", "0601", reserve=True), blue("O", "0606", ops_complete=True)
    )
    assert moved(b, "A", "0201", reaction=True).problems == [
        "A is not a reserve unit: only reserves move in a reaction"
    ]
    assert moved(b, "R", "0501", reaction=True).ok
    assert moved(b, "O", "0605").problems == [
        "O is Ops Complete: it moved or fought in an earlier impulse"
    ]
    done = make_moves(b, [Move("A", ["0201"]), Move("A", ["0301"])], "Blue")
    assert done[0].ok and done[1].problems[0] == "A moves once an impulse"
    assert b.unit("A").hex == "0201"


def test_a_naval_task_force_keeps_to_the_sea() -> None:
    sea = {h: "sea" for h in ("0101", "0201", "0301")}
    b = board(blue("F", "0101", kind="naval task force"), terrain=sea)
    assert moved(b, "F", "0201", "0301").spent == 2
    assert moved(b, "F", "0102").problems == ["0102 is plain, where a naval task force may not go"]


def test_at_resolve_time_a_move_that_meets_an_enemy_stops_where_the_rules_stop_it() -> None:
    """A player moves with what the sheet showed; an enemy it could not see stops the move
    (it is not cancelled): at the zone of control it enters, or before the enemy's hex."""
    b = board(blue("A", "0101"), red("R", "0303"))
    (got,) = make_moves(b, [Move("A", ["0201", "0202", "0203", "0204"])], "Blue")
    assert got.stopped.startswith("0202 is in an enemy zone of control")
    assert b.unit("A").hex == "0202"
    b = board(blue("A", "0101"), red("R", "0301"), red("Q", "0305"))
    (got,) = make_moves(b, [Move("A", ["0201", "0301", "0401"])], "Blue", zoc_stop=False)
    assert got.stopped == "0301 is held by the enemy" and b.unit("A").hex == "0201"
    # Anything else still cancels the whole move.
    b = board(blue("A", "0101"), terrain={"0201": "mountain"})
    (got,) = make_moves(b, [Move("A", ["0201"])], "Blue")
    assert not got.stopped and b.unit("A").hex == "0101"


# -- edges mutation testing found unguarded -------------------------------------------------------


def test_bad_weather_never_takes_a_unit_below_one_point() -> None:
    assert (speed_of(2, True), speed_of(1, True), speed_of(0, True)) == (1, 1, 0)
    assert speed_of(2, False) == 2


def test_a_move_that_names_no_hex_says_so() -> None:
    assert moved(board(blue("A", "0101")), "A").problems == ["A's move names no hex"]


def test_an_a_or_an_before_the_units_type() -> None:
    assert _a("infantry") == "an infantry" and _a("mechanized") == "a mechanized"


def test_moves_carried_out_in_fair_weather_by_default_and_in_bad_weather_when_told() -> None:
    path = ["0201", "0301", "0401", "0501", "0601", "0602"]
    fair = board(blue("A", "0101"))
    assert [m.ok for m in make_moves(fair, [Move("A", path)], "Blue")] == [True]
    assert fair.unit("A").hex == "0602"
    bad = board(blue("A", "0101"))
    (got,) = make_moves(bad, [Move("A", path)], "Blue", bad_weather=True)
    assert got.problems == [
        "the move costs 6 movement points by 0602; A's speed is 5 (bad weather)"
    ]
    assert bad.unit("A").hex == "0101"


def test_a_second_move_in_an_impulse_is_named_first_among_its_problems() -> None:
    b = board(blue("A", "0101"))
    done = make_moves(b, [Move("A", ["0201"]), Move("A", ["0501"])], "Blue")
    assert done[1].problems == ["A moves once an impulse", "0501 is not next to 0201"]
    assert b.unit("A").hex == "0201"
