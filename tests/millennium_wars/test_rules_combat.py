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
    CombatError,
    Conditions,
    Defence,
    Line,
    Outcome,
    best_retreat,
    check_attack,
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


# -- the results, unit by unit --------------------------------------------------------------------


def test_d1_hurts_the_defenders_chosen_unit_else_the_weakest() -> None:
    """12 to 3 is 4/1; Raid with a 4: D1.  Red's choice D2 is disrupted; with no choice, or
    one naming a unit not in the fight, the weakest combat-effective unit, D1; when every
    defender is disrupted already, the weakest is eliminated."""
    for choice, hurt in (("D2", "D2"), ("", "D1"), ("A", "D1"), ("X", "D1")):
        b = board(blue("A", "0202", 12), red("D1", "0203", 1), red("D2", "0203", 2))
        got = fight(b, Attack(["A"], "0203", "raid"), 4, defence=Defence(ambush=choice))
        assert got.result == "D1", choice
        assert [u.id for u in b.units if u.disrupted] == [hurt], choice
        assert Line(f"{hurt} is disrupted") in got.told
    b = board(
        blue("A", "0202", 12),
        red("D1", "0203", 1, disrupted=True),
        red("D2", "0203", 2, disrupted=True),
    )
    got = fight(b, Attack(["A"], "0203", "raid"), 4)
    assert [u.id for u in got.eliminated] == ["D1"] and got.political == {"Blue": 1}
    assert b.unit("D2") is not None


def test_a1_on_disrupted_attackers_eliminates_the_weakest_unless_one_is_named() -> None:
    """10 to 5 is 2/1; Raid with a 1: A1.  Both attackers are disrupted: with no choice the
    weaker, B, is eliminated (Red gains one point); Blue may name A instead."""
    for choice, lost in (("", "B"), ("A", "A")):
        b = board(
            blue("A", "0202", 6, disrupted=True),
            blue("B", "0303", 4, disrupted=True),
            red("D", "0203", 5),
        )
        got = fight(b, Attack(["A", "B"], "0203", "raid", ambush=choice), 1)
        assert got.result == "A1"
        assert [u.id for u in got.eliminated] == [lost] and got.political == {"Red": 1}
        assert not b.unit("D").disrupted  # type: ignore[union-attr]


def test_b1_hurts_every_defender_and_one_attacker() -> None:
    """15 to 3 is 5/1; Assault with a 1: B1.  Both defenders are disrupted, and of the
    attackers only B, whom Blue names."""
    b = board(
        blue("A", "0202", 10),
        blue("B", "0303", 5),
        red("D1", "0203", 1),
        red("D2", "0203", 2),
    )
    got = fight(b, Attack(["A", "B"], "0203", "assault", ambush="B"), 1)
    assert got.result == "B1"
    assert sorted(u.id for u in b.units if u.disrupted) == ["B", "D1", "D2"]


def test_attackers_retreat_one_hex_on_ar_and_two_on_ad() -> None:
    """Raid 2/1 (6 to 3): a 2 is AR; Raid 1/1 (3 to 3): a 1 is AD.  A retreats from 0202 by
    the rule: one hex to 0102 (0102, 0201 and 0302 are out of D's zone of control and two from
    it: the lowest id), or, disrupted, two hexes to 0101 (three from D, out of every zone of
    control, before 0301 and 0401 by id)."""
    b = board(blue("A", "0202", 6), red("D", "0203", 3))
    got = fight(b, Attack(["A"], "0203", "raid"), 2)
    a = b.unit("A")
    assert got.result == "AR" and a is not None and not a.disrupted
    assert a.hex == "0102" and got.retreat_ends == ["0102"]
    b = board(blue("A", "0202", 3), red("D", "0203", 3))
    got = fight(b, Attack(["A"], "0203", "raid"), 1)
    a = b.unit("A")
    assert got.result == "AD" and a is not None and a.disrupted
    assert a.hex == "0101" and got.retreat_ends == ["0101"]
    assert Line("A retreats to 0101", "Blue", ("0101",), "A retreats") in got.told


def test_the_defender_advances_into_the_first_hex_the_attackers_left() -> None:
    """9 to 3 is 3/1; Raid with a 1: AR.  A (at 0202) and B (at 0303) retreat, but C, which
    did not attack, stays in 0202: the first hex left empty is 0303, and D advances there."""
    b = board(
        blue("A", "0202", 6),
        blue("C", "0202", 1),
        blue("B", "0303", 3),
        red("D", "0203", 3),
    )
    got = fight(b, Attack(["A", "B"], "0203", "raid"), 1, defence=Defence(advance=["*"]))
    assert got.result == "AR"
    assert b.unit("D").hex == "0303"  # type: ignore[union-attr]
    assert Line("D advances into 0303", "Red", ("0303",)) in got.told


def test_after_ae_the_defender_advances_into_the_first_attackers_hex() -> None:
    """2 to 8 is 1/4; Air-Land with a 1: AE.  Both attackers are eliminated (Red gains a
    point for each); D, named to advance, goes to 0202, the first attacker's hex."""
    b = board(
        blue("A", "0202", 1, kind="high-tech strike force"),
        blue("B", "0303", 1, kind="high-tech strike force"),
        red("D", "0203", 8),
    )
    got = fight(b, Attack(["A", "B"], "0203", "air-land"), 1, defence=Defence(advance=["D"]))
    assert got.result == "AE" and [u.id for u in got.eliminated] == ["A", "B"]
    assert got.political == {"Red": 2}
    assert b.unit("D").hex == "0202"  # type: ignore[union-attr]


def test_every_attacker_that_may_advances_on_a_star() -> None:
    """12 to 2 is 6/1, -2 for the mountain: 4/1; Assault with a 6: DE.  Asked ``*``, the
    light infantry advances onto the mountain; the mechanized A may not enter it and stays."""
    b = board(
        blue("A", "0202", 10),
        blue("B", "0303", 2, kind="light infantry"),
        red("D", "0203", 2),
        terrain={"0203": "mountain"},
    )
    got = fight(b, Attack(["A", "B"], "0203", "assault", advance=["*"]), 6)
    assert (got.odds.label, got.result) == ("4/1", "DE")
    assert (b.unit("A").hex, b.unit("B").hex) == ("0202", "0203")  # type: ignore[union-attr]
    assert got.lines == [
        "Blue attacks 0203 (Assault): 12 to 2: 6/1, -2 mountain: 4/1; die 6: DE"
        " (reconstructed row)",
        "D is eliminated",
        "B advances into 0203",
    ]


def test_the_intensive_assaults_headquarters_is_named_only_to_who_sees_it() -> None:
    """The disrupted headquarters' line names it and its hex to Blue, and to Red only while
    Red sees 0101."""
    b = board(
        blue("A", "0202"),
        blue("HQ", "0101", 0, kind="headquarters", support=3),
        red("D", "0203"),
    )
    got = fight(b, Attack(["A"], "0203", "assault", intensive=True), 3)
    line = Line(
        "HQ is disrupted by the intensive assault",
        "Blue",
        ("0101",),
        "an attacking headquarters is disrupted by the intensive assault",
    )
    assert line in got.told and b.unit("HQ").disrupted  # type: ignore[union-attr]


def test_one_political_point_buys_the_column_per_unit() -> None:
    """The seed's "One per Unit": any number of points asked buys one column, one point
    included.  6 to 3 is 2/1, +1: 3/1; Blue pays its one unit's point."""
    b = board(blue("A", "0202"), red("D", "0203"))
    got = fight(b, Attack(["A"], "0203", "raid", political_points=1), 3)
    assert [(s.amount, s.reason, s.cost) for s in got.odds.shifts] == [(1, "political points", 1)]
    assert got.odds.label == "3/1" and got.spent == {"Blue": 1}


def test_a_disrupted_unit_attacks_unless_told_otherwise() -> None:
    """`check_attack` by default follows the seed's "Disrupted Attacking units": a disrupted
    unit may attack; only the house rule's ``disrupted_attack=False`` refuses it."""
    b = board(blue("A", "0202", disrupted=True), red("D", "0203"))
    a = b.unit("A")
    assert check_attack(b, Attack(["A"], "0203", "raid"), "Blue", CRTS) == [a]
    with pytest.raises(CombatError, match="A is disrupted and cannot attack"):
        check_attack(b, Attack(["A"], "0203", "raid"), "Blue", CRTS, disrupted_attack=False)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("0204", "no combat is possible in 0204"),  # sea: no combat at all
        ("0909", "no combat is possible in 0909"),  # off the map
        ("0303", "there is no enemy land unit in 0303 to attack"),  # Blue's own unit
    ],
)
def test_an_attack_on_the_sea_off_the_map_or_on_its_own_side_is_refused(
    target: str, message: str
) -> None:
    """The player is told why, in these words."""
    b = board(blue("A", "0203"), blue("B", "0303"), red("D", "0202"), terrain={"0204": "sea"})
    with pytest.raises(CombatError) as caught:
        check_attack(b, Attack(["A"], target, "raid"), "Blue", CRTS)
    assert str(caught.value) == message
