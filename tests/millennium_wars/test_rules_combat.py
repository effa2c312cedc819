"""The retreat rule and the combat lines where mutation testing of combat.py found them
untested (issue 51): which retreat the rule picks (zones of control before stacking, stacking
to the last unit a hex holds, a glacier's one unit, airmobile units choosing as if no zone of
control were there, a board with no enemy land unit), an airmobile unit flying out of a hex
it could not leave on foot, the defaults of the public retreat functions, and who reads the
lines a retreat writes.  Every attack is resolved with fixed dice; each case is set so that
the reading it checks, and no later tie-break, decides it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from refassist.dice import Dice
from refassist.rulesets.millennium_wars.board import Board
from refassist.rulesets.millennium_wars.combat import (
    Attack,
    Conditions,
    Defence,
    Line,
    Outcome,
    best_retreat,
    resolve_attack,
    retreat_paths,
)
from refassist.rulesets.millennium_wars.crt import CRTS

from .situations import blue, board, red


def fight(
    b: Board,
    attack: Attack,
    die: int,
    conditions: Conditions | None = None,
    defence: Defence | None = None,
    **kw: object,
) -> Outcome:
    """Blue's attack with one scripted die."""
    return resolve_attack(
        b,
        attack,
        "Blue",
        CRTS,
        Dice.scripted([die]),
        conditions,
        defence,
        **kw,  # type: ignore[arg-type]
    )


# -- an airmobile unit flies out of a corner it could not leave on foot ---------------------------


def cornered(kind: str) -> Board:
    """Red's D in the corner 0101; its only neighbours 0102 and 0201 hold Blue's attackers.
    On foot it has no retreat at all; by air it passes over either attacker."""
    return board(blue("A", "0102"), blue("B", "0201"), red("D", "0101", kind=kind))


def test_an_airmobile_unit_retreats_by_the_rule_over_the_attackers() -> None:
    """12 to 3 is 4/1; Raid with a 6: DD, two hexes.  No path written, so the rule chooses,
    and it must let the airborne unit fly: over 0102 or 0201 to 0103, 0202, 0301 or 0302, all
    one hex from an attacker, on plain, in no one's home: the lowest ids, 0102 then 0103.  It
    ends next to A (a zone of control) unhurt beyond the DD itself."""
    b = cornered("airborne infantry")
    got = fight(b, Attack(["A", "B"], "0101", "raid"), 6)
    assert got.result == "DD" and got.eliminated == []
    d = b.unit("D")
    assert d is not None and d.hex == "0103" and d.disrupted
    assert got.retreat_ends == ["0103"]
    assert Line("D retreats to 0103", "Red", ("0103",), "D retreats") in got.told
    assert "zone of control" not in " ".join(got.lines)


def test_an_airmobile_unit_that_may_not_fly_has_nowhere_to_go_from_the_corner() -> None:
    """The same DD in bad weather (no airmobile movement): on foot D has no retreat and is
    eliminated, Blue gaining one point."""
    b = cornered("airborne infantry")
    got = fight(b, Attack(["A", "B"], "0101", "raid"), 6, Conditions(bad_weather=True))
    assert got.result == "DD" and [u.id for u in got.eliminated] == ["D"]
    assert got.political == {"Blue": 1} and got.retreat_ends == []


def test_the_public_retreat_functions_default_to_a_retreat_on_foot() -> None:
    """`retreat_paths` and `best_retreat` are asked for a flight only by name: by default even
    an airborne unit retreats on the ground, and from the corner it has no way out."""
    b = cornered("airborne infantry")
    d = b.unit("D")
    assert d is not None
    assert retreat_paths(b, d, 2) == []
    assert best_retreat(b, d, 2, {}) == ()
    flights = retreat_paths(b, d, 2, by_air=True)
    assert sorted(flights) == [
        ("0102", "0103"),
        ("0102", "0202"),
        ("0201", "0202"),
        ("0201", "0301"),
        ("0201", "0302"),
    ]
    assert best_retreat(b, d, 2, {}, by_air=True) == ("0102", "0103")


# -- the rule's order: zones of control, then stacking, then distance -----------------------------


def crowded(kind: str) -> Board:
    """Blue's A at 0202 attacks Red's D at 0203.  D may go one hex to 0103 or 0303 (both in
    A's zone of control, room to spare) or 0104 (free of it, but three Red units already
    there: D would overstack); 0204 and 0304 are sea."""
    return board(
        blue("A", "0202"),
        red("D", "0203", kind=kind),
        red("R1", "0104"),
        red("R2", "0104"),
        red("R3", "0104"),
        terrain={"0204": "sea", "0304": "sea"},
    )


@pytest.mark.parametrize(
    ("kind", "conditions", "end", "hurt"),
    [
        # On the ground the zone of control comes first: D overstacks at 0104 rather than be
        # disrupted at 0103 (the overstack is the end of the phase's business).
        ("mechanized infantry", Conditions(), "0104", False),
        # An airmobile unit pays nothing for a zone of control, so it does not weigh one: it
        # goes where it fits, 0103 (before 0303), unhurt.
        ("airborne infantry", Conditions(), "0103", False),
        # Under Blue's air dominance it may not fly, and chooses as a unit on foot.
        ("airborne infantry", Conditions(dominance="Blue"), "0104", False),
    ],
)
def test_zones_of_control_weigh_before_stacking_except_for_a_flight(
    kind: str, conditions: Conditions, end: str, hurt: bool
) -> None:
    """6 to 3 is 2/1; Raid with a 5: DR, one hex, no path written."""
    b = crowded(kind)
    got = fight(b, Attack(["A"], "0203", "raid"), 5, conditions)
    d = b.unit("D")
    assert got.result == "DR" and d is not None
    assert (d.hex, d.disrupted) == (end, hurt)
    assert got.retreat_ends == [end]


def test_a_hex_with_room_for_exactly_one_more_unit_fits() -> None:
    """DR (Raid 2/1, a 5) from 0203; A at 0202.  0104, 0204 and 0304 are out of A's zone of
    control and two hexes from it; 0104 already holds two Red units, and D makes three, the
    limit: it fits, so the lowest id, 0104, is chosen."""
    b = board(blue("A", "0202"), red("D", "0203"), red("R1", "0104"), red("R2", "0104"))
    got = fight(b, Attack(["A"], "0203", "raid"), 5)
    d = b.unit("D")
    assert got.result == "DR" and d is not None and d.hex == "0104"
    assert len(b.land_at("0104", "Red")) == 3 and not b.overstacked("0104", "Red")


def test_a_glacier_holding_one_unit_has_no_room_for_a_retreat() -> None:
    """DR (Raid 2/1, a 5) from 0203.  0104 is a glacier ("Maximum Stacking is one Land Unit
    per Hex") with a Red unit on it: D, on foot and so able to enter it, would overstack there
    and goes to 0204 instead (two hexes from A, like 0104 and 0304)."""
    b = board(
        blue("A", "0202"),
        red("D", "0203", kind="light infantry"),
        red("G", "0104", kind="light infantry"),
        terrain={"0104": "glacier"},
    )
    got = fight(b, Attack(["A"], "0203", "raid"), 5)
    d = b.unit("D")
    assert got.result == "DR" and d is not None and d.hex == "0204"
    # Without G the glacier has room, and its lower id wins.
    b = board(
        blue("A", "0202"),
        red("D", "0203", kind="light infantry"),
        terrain={"0104": "glacier"},
    )
    fight(b, Attack(["A"], "0203", "raid"), 5)
    assert b.unit("D").hex == "0104"  # type: ignore[union-attr]


def test_the_rule_still_chooses_with_no_enemy_land_unit_on_the_board() -> None:
    """A board with no enemy land unit (a player's view where none is seen, a naval task force
    alone): no distance to weigh, so home country then the lowest id decide; nothing fails."""
    b = board(
        blue("F", "0204", 3, kind="naval task force"),
        red("D", "0203"),
        terrain={"0204": "sea"},
    )
    d = b.unit("D")
    assert d is not None
    assert best_retreat(b, d, 1, {}) == ("0103",)
    assert best_retreat(b, d, 1, {"0304": "Red", "0103": "Blue"}) == ("0304",)


# -- who reads the lines a retreat writes ---------------------------------------------------------


def test_a_written_retreat_that_cannot_be_followed_is_told_to_its_owner_alone() -> None:
    """DR (Raid 2/1, a 5): Red wrote D's retreat into A's own hex.  Red reads why the rule
    moved D; Blue learns nothing of what Red had written, even seeing every hex."""
    b = board(blue("A", "0202"), red("D", "0203"))
    got = fight(b, Attack(["A"], "0203", "raid"), 5, defence=Defence(retreat={"D": ["0202"]}))
    line = Line("D's retreat 0202 cannot be followed: it retreats by the rule", "Red")
    assert line in got.told
    everything = set(b.grid.hexes())
    assert line.read_by("Red", set()) == line.text
    assert line.read_by("Blue", everything) == ""
    assert b.unit("D").hex == "0104"  # type: ignore[union-attr]


def test_nowhere_to_retreat_names_the_hex_only_to_who_sees_it() -> None:
    """DR (Raid 4/1, a 2) on D cornered at 0101 on foot: eliminated.  The line names its hex
    to Red and to a Blue that sees 0101; a Blue that does not reads only that D had nowhere
    to retreat."""
    b = cornered("mechanized infantry")
    got = fight(b, Attack(["A", "B"], "0101", "raid"), 2)
    assert got.result == "DR" and [u.id for u in got.eliminated] == ["D"]
    line = Line("D has nowhere to retreat from 0101", "Red", ("0101",), "D has nowhere to retreat")
    assert line in got.told
    told = next(t for t in got.told if t.text.startswith("D has nowhere"))
    assert told.read_by("Red", set()) == "D has nowhere to retreat from 0101"
    assert told.read_by("Blue", {"0101"}) == "D has nowhere to retreat from 0101"
    assert told.read_by("Blue", {"0102"}) == "D has nowhere to retreat"


# -- political points: the shortfall under the per-point house rule -------------------------------


def test_a_side_short_of_points_per_point_is_told_what_it_asked() -> None:
    """``political_shift = "per_point"``: Blue asks two columns with two attackers and has
    1.5 points: it gets one column (+1), pays one point, and reads what it had of what it
    asked (Red reads nothing).  12 to 3 is 4/1, +1: 5/1."""
    b = board(blue("A", "0202"), blue("B", "0303"), red("D", "0203"))
    got = fight(
        b,
        Attack(["A", "B"], "0203", "raid", political_points=2),
        3,
        political="per_point",
        points={"Blue": Fraction(3, 2), "Red": Fraction(0)},
    )
    short = Line("Blue had only 1 of the 2 political points asked", "Blue")
    assert short in got.told and short.read_by("Red", set(b.grid.hexes())) == ""
    assert [(s.amount, s.reason, s.cost) for s in got.odds.shifts] == [(1, "political points", 1)]
    assert got.odds.label == "5/1" and got.spent == {"Blue": 1}
