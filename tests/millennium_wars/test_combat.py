"""Attacks resolved with fixed dice on small boards set up by hand, each figure computed from
the seed's tables: odds and every shift, every combat result, retreats (asked for, by default,
through zones of control, into nothing), advances, overstacking and political points."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.millennium_wars.board import Board
from refassist.rulesets.millennium_wars.combat import (
    Attack,
    CombatError,
    Conditions,
    Defence,
    Line,
    overstacking,
    resolve_attack,
)
from refassist.rulesets.millennium_wars.crt import CRTS

from .situations import blue, board, red


def attack(b: Board, crt: str, die: list[int], *ids: str, **kw: object):
    a = Attack(list(ids) or ["A"], "0203", crt, **kw)  # type: ignore[arg-type]
    return resolve_attack(b, a, "Blue", CRTS, Dice.scripted(die))


def test_odds_are_rounded_down_and_the_column_read() -> None:
    # 6 to 3 is 2/1; the Raid CRT at 2/1 with a 5: DR.
    b = board(blue("A", "0202"), red("D", "0203"))
    got = attack(b, "raid", [5])
    assert (got.odds.label, got.die, got.result, got.crt) == ("2/1", 5, "DR", "Raid")
    assert not got.reconstructed
    # 7 to 3 is 2.33, still 2/1; 5 to 3 is 1.67, 1.5/1.
    assert attack(board(blue("A", "0202", 7), red("D", "0203")), "raid", [3]).odds.label == "2/1"
    assert attack(board(blue("A", "0202", 5), red("D", "0203")), "raid", [3]).odds.label == "1.5/1"


def test_a_reconstructed_assault_row_is_marked() -> None:
    got = attack(board(blue("A", "0202"), red("D", "0203")), "assault", [4])
    assert (got.result, got.reconstructed) == ("DR", True)
    assert "(reconstructed row)" in got.lines[0]


def test_the_defender_eliminated_and_the_attacker_advancing() -> None:
    """Air-Land at 2/1 with a 6: DE.  The high-tech attacker advances; a non-NATO unit
    eliminated gives Blue 1 point of the Political Index."""
    b = board(blue("A", "0202", kind="high-tech strike force"), red("D", "0203"))
    got = attack(b, "air-land", [6], advance=["A"])
    assert got.result == "DE" and [u.id for u in got.eliminated] == ["D"]
    assert b.unit("A").hex == "0203" and got.political == {"Blue": 1}
    # A NATO unit eliminated gives 2.
    b = board(blue("A", "0202", kind="high-tech strike force"), red("D", "0203", nato=True))
    assert attack(b, "air-land", [6]).political == {"Blue": 2}
    assert b.unit("A").hex == "0202"  # not named to advance: it stays


def test_a_defender_retreats_the_way_asked_or_away_from_the_enemy() -> None:
    # Raid at 2/1, a 5: DR.  Asked: to 0304.
    b = board(blue("A", "0202"), red("D", "0203"))
    attack(b, "raid", [5], advance=["A"])
    assert b.unit("D").hex == "0104"  # by default (see below), no path asked
    assert b.unit("A").hex == "0203"
    # The default: out of A's zone of control (0103 and 0303 are in it), then as far from A as
    # may be (0204, 0104 and 0304 are all 2 away), then the lowest id: 0104.
    b = board(blue("A", "0202"), red("D", "0203"))
    got = resolve_attack(
        b,
        Attack(["A"], "0203", "raid"),
        "Blue",
        CRTS,
        Dice.scripted([5]),
        defence=Defence(retreat={"D": ["0304"]}),
    )
    assert b.unit("D").hex == "0304" and "D retreats to 0304" in got.lines
    assert not b.unit("D").disrupted


def test_disrupted_defenders_retreat_two_hexes() -> None:
    # Assault at 2/1, a 6: DD.  D is disrupted and goes two hexes: 0104, then 0105 (out of
    # every zone of control, 3 from A).
    b = board(blue("A", "0202"), red("D", "0203"))
    got = attack(b, "assault", [6])
    assert got.result == "DD" and b.unit("D").disrupted and b.unit("D").hex == "0105"


def test_a_retreat_through_an_enemy_zone_of_control() -> None:
    """A unit asked to retreat into an enemy's zone of control is disrupted; one already
    disrupted is eliminated."""
    b = board(blue("A", "0202"), blue("Z", "0305", 2), red("D", "0203"))
    got = resolve_attack(
        b,
        Attack(["A"], "0203", "raid"),
        "Blue",
        CRTS,
        Dice.scripted([5]),
        defence=Defence(retreat={"D": ["0304"]}),  # next to Z at 0305
    )
    assert b.unit("D").disrupted and "D is disrupted retreating through 0304" in got.lines
    b = board(blue("A", "0202"), blue("Z", "0305", 2), red("D", "0203", disrupted=True))
    got = resolve_attack(
        b,
        Attack(["A"], "0203", "raid"),
        "Blue",
        CRTS,
        Dice.scripted([5]),
        defence=Defence(retreat={"D": ["0304"]}),
    )
    assert b.unit("D") is None and got.political == {"Blue": 1}


def test_nowhere_to_retreat_eliminates() -> None:
    # D at 0101 in the corner: its neighbours 0102 and 0201 hold Blue units.
    b = board(blue("A", "0102"), blue("B", "0201"), red("D", "0101"))
    got = resolve_attack(b, Attack(["A", "B"], "0101", "raid"), "Blue", CRTS, Dice.scripted([5]))
    # 12 to 3 is 4/1; Raid row 5 at 4/1: D1, not a retreat.  With a 2: DR.
    assert got.result == "D1"
    b = board(blue("A", "0102"), blue("B", "0201"), red("D", "0101"))
    got = resolve_attack(b, Attack(["A", "B"], "0101", "raid"), "Blue", CRTS, Dice.scripted([2]))
    assert got.result == "DR" and b.unit("D") is None
    assert "D has nowhere to retreat from 0101" in got.lines


def test_attacker_results_and_the_defenders_advance() -> None:
    # Assault at 2/1, a 1: AD: A disrupted, retreats two hexes; the defender may advance.
    b = board(blue("A", "0202"), red("D", "0203"))
    got = resolve_attack(
        b,
        Attack(["A"], "0203", "assault"),
        "Blue",
        CRTS,
        Dice.scripted([1]),
        defence=Defence(advance=["D"]),
    )
    assert got.result == "AD" and b.unit("A").disrupted
    assert b.unit("D").hex == "0202"  # advanced into the hex A left
    # 1 to 4 (1/4), Air-Land with a 1: AE.
    b = board(blue("A", "0202", 1, kind="high-tech strike force"), red("D", "0203", 4))
    got = attack(b, "air-land", [1])
    assert got.result == "AE" and b.unit("A") is None and got.political == {"Red": 1}


def test_ambushes_and_attrition_hurt_the_chosen_unit() -> None:
    # Raid at 2/1 (12 to 6), a 1: A1.  The attacker chooses B; B is disrupted.
    b = board(blue("A", "0202"), blue("B", "0303"), red("D", "0203", 6))
    got = attack(b, "raid", [1], "A", "B", ambush="B")
    assert got.result == "A1" and b.unit("B").disrupted and not b.unit("A").disrupted
    # Without a choice: the weakest combat-effective unit.
    b = board(blue("A", "0202", 8), blue("B", "0303", 4), red("D", "0203", 6))
    attack(b, "raid", [1], "A", "B")
    assert b.unit("B").disrupted and not b.unit("A").disrupted
    # Assault at 2/1, a 3: BB, both sides hurt; again, and the disrupted are eliminated.
    b = board(blue("A", "0202"), red("D", "0203"))
    assert attack(b, "assault", [3]).result == "BB"
    assert b.unit("A").disrupted and b.unit("D").disrupted
    got = resolve_attack(
        b,
        Attack(["A"], "0203", "assault"),
        "Blue",
        CRTS,
        Dice.scripted([3]),
        disrupted_attack=True,
    )
    assert {u.id for u in got.eliminated} == {"A", "D"}


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        # forest -1; a town on it -1 (the stronger, not both).
        ({"terrain": {"0203": "forest"}}, ["-1 forest"]),
        ({"terrain": {"0203": "forest"}, "places": {"0203": "city"}}, ["-2 city"]),
        ({"terrain": {"0203": "desert"}}, ["+1 desert"]),
        ({"terrain": {"0203": "desert"}, "places": {"0203": "town"}}, ["-1 town"]),
        ({"rivers": {("0202", "0203")}}, ["-2 river"]),
    ],
)
def test_terrain_and_river_shifts(setup: dict, expected: list[str]) -> None:
    b = board(blue("A", "0202"), red("D", "0203"), **setup)
    got = attack(b, "assault", [3])
    assert [f"{s.amount:+d} {s.reason}" for s in got.odds.shifts] == expected


def test_a_river_helps_only_if_every_attacker_crosses_it() -> None:
    b = board(blue("A", "0202"), blue("B", "0303"), red("D", "0203"), rivers={("0202", "0203")})
    assert attack(b, "assault", [3], "A", "B").odds.shifts == ()


def test_a_raid_on_foot_ignores_the_terrain() -> None:
    b = board(
        blue("A", "0202", 6, kind="light infantry"),
        red("D", "0203"),
        terrain={"0203": "forest"},
        rivers={("0202", "0203")},
    )
    assert attack(b, "raid", [3]).odds.shifts == ()
    # Mechanized, the same raid has both.
    b = board(
        blue("A", "0202"), red("D", "0203"), terrain={"0203": "forest"}, rivers={("0202", "0203")}
    )
    assert attack(b, "raid", [3]).odds.total_shift == -3


def test_air_supply_nato_naval_intensive_and_political_shifts() -> None:
    b = board(
        blue("A", "0202", nato=True),
        blue("B", "0303"),
        blue("HQ", "0101", 0, kind="headquarters", support=3),
        blue("F", "0204", 3, kind="naval task force"),
        red("D", "0203", 6),
        terrain={"0204": "sea"},
    )
    got = resolve_attack(
        b,
        Attack(["A", "B"], "0203", "assault", political_points=2, intensive=True),
        "Blue",
        CRTS,
        Dice.scripted([3]),
        Conditions(air="Blue", supply={"A": "partial", "D": "out"}),
        Defence(political_points=1),
    )
    assert [f"{s.amount:+d} {s.reason}" for s in got.odds.shifts] == [
        "-1 attacker out of supply",
        "+2 defender out of supply",
        "+1 air superiority",
        "-1 NATO and non-NATO attacking together",
        "+1 naval support",
        "+2 intensive assault",
        "+1 political points",
        "-1 defender's political points",
    ]
    # 12 to 6 is 2/1 (5), +4: 6/1 (9); Assault with a 3: DD.
    assert (got.odds.label, got.result) == ("6/1", "DD")
    assert b.unit("HQ").disrupted and "HQ is disrupted by the intensive assault" in got.lines
    # The seed's "One per Unit": the column costs a point for each unit taking part.
    assert got.spent == {"Blue": 2, "Red": 1}


def test_a_defender_in_a_town_or_city_gains_political_points_when_attacked() -> None:
    b = board(blue("A", "0202"), red("D", "0203"), places={"0203": "city"})
    assert attack(b, "assault", [5]).political == {"Red": 2}  # an Assault: 2; DR, no loss
    b = board(blue("A", "0202"), red("D", "0203"), places={"0203": "town"})
    assert attack(b, "raid", [4]).political == {"Red": 1}


def test_overstacking_after_a_retreat_disrupts_the_hex() -> None:
    b = board(
        red("D1", "0104"), red("D2", "0104"), red("D3", "0104"), blue("A", "0202"), red("D", "0203")
    )
    resolve_attack(
        b,
        Attack(["A"], "0203", "raid"),
        "Blue",
        CRTS,
        Dice.scripted([5]),
        defence=Defence(retreat={"D": ["0104"]}),
    )
    lines = overstacking(b, ["0104"])
    assert lines == [Line("Red's units in 0104 are overstacked and disrupted", "Red", ("0104",))]
    assert all(u.disrupted for u in b.land_at("0104"))


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        (Attack(["A"], "0203", "blitz"), "not a CRT"),
        (Attack(["A"], "0205", "raid"), "no enemy land unit in 0205"),
        (Attack(["X"], "0203", "raid"), "X is not one of your units"),
        (Attack(["D"], "0203", "raid"), "D is not one of your units"),
        (Attack(["FAR"], "0203", "raid"), "FAR is not a land unit next to 0203"),
        (Attack(["A", "A"], "0203", "raid"), "A is named twice"),
        (Attack([], "0203", "raid"), "names no attacking unit"),
        (Attack(["A"], "0203", "air-land"), "at least half the attack strength High-Tech"),
        (Attack(["A"], "0203", "assault", intensive=True), "needs a combat-effective headquarters"),
    ],
)
def test_attacks_that_cannot_be_made(declared: Attack, message: str) -> None:
    b = board(
        blue("A", "0202"),
        blue("FAR", "0606"),
        blue("TIRED", "0303", disrupted=True),
        red("D", "0203"),
    )
    with pytest.raises(CombatError, match=message):
        resolve_attack(b, declared, "Blue", CRTS, Dice.scripted([3]))


def test_an_ops_complete_unit_does_not_attack() -> None:
    b = board(blue("A", "0202", ops_complete=True), red("D", "0203"))
    with pytest.raises(CombatError, match="A is Ops Complete"):
        resolve_attack(b, Attack(["A"], "0203", "raid"), "Blue", CRTS, Dice.scripted([3]))
