"""Conflict resolution (section 5, 5.1, Appendix B), with scripted dice.

The defeated side rolls one die per unit in the order Strike, Fast, Fleet, Assault, Monitor,
naval base (players in name order); in a tie both sides roll, defender first.  Each test lists
its dice in that order.
"""

from __future__ import annotations

import json
from collections import Counter

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.fifth_millennium.conflict import (
    PRECEDENCE,
    Side,
    apply_kills,
    change_hands,
)
from refassist.rulesets.fifth_millennium.context import TurnContext
from refassist.rulesets.fifth_millennium.orders import Bombing
from refassist.rulesets.fifth_millennium.resolve import resolve_turn
from refassist.rulesets.fifth_millennium.rules import complete
from refassist.rulesets.fifth_millennium.state import Fleet
from refassist.workbook.master import read_master, write_master
from tests.fm_states import (
    YEAR,
    count,
    diplo,
    events,
    facility,
    fleet_at,
    flight,
    force,
    force_at,
    one,
    orders,
    resolve,
    state,
    system,
)


def _attack(defender_forces, attacker_fleet, *, extra_systems=(), players=("Ann", "Bob"), **kw):
    """Bob holds 1012 (his homeworld unless told otherwise); Ann's fleet arrives from 1010."""
    systems = [system("1010", "A", "Ann"), kw.pop("target", system("1012", "C", "Bob"))]
    systems += list(extra_systems)
    return state(
        systems,
        players=players,
        forces=[force("1010", "Ann", F=1), *defender_forces],
        flights=[flight("Ann", "1010", "1012", **attacker_fleet)],
        homeworlds=kw.pop("homeworlds", {"Ann": "1010", "Bob": "1012"}),
        **kw,
    )


def test_higher_cv_wins_and_the_defeated_kills_apply_in_precedence_order() -> None:
    s = _attack(
        [force("1012", "Bob", F=3, S=1)],
        {"F": 4},
        extra_systems=[system("1014", "C", "Cleo"), system("2520", "C", "Dev")],
        players=("Ann", "Bob", "Cleo", "Dev"),
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1014", "Dev": "2520"},
    )
    r = resolve(s, dice=[5, 1, 6, 2])  # Ann's four Fleet squadrons roll 5-6 to kill: 2 kills
    battle = one(r, "battle")
    first = battle.data["rounds"][0]
    assert first["cv"] == {"Ann": 4, "Bob": 5}
    assert [x["target"] for x in first["rolls"]] == ["5-6"] * 4
    assert first["kills"] == [
        {"player": "Bob", "unit": "S", "count": 1},
        {"player": "Bob", "unit": "F", "count": 1},
    ]
    assert fleet_at(r.state, "1012", "Bob") == Fleet(F=2)
    assert fleet_at(r.state, "1012", "Ann") == Fleet()
    assert battle.data["outcome"]["held"] is True
    # the battle's dice are the turn's rolls 1-4; Cleo (2 hexes away) sees it, Dev does not
    assert battle.dice == (1, 2, 3, 4)
    assert [d.result for d in r.state.dice] == [5, 1, 6, 2]
    assert battle.visible_to == ("Ann", "Bob", "Cleo")


def test_kill_table_of_every_unit_and_the_naval_base_rolls_for_its_owner() -> None:
    target = system("1012", "C", "Bob", naval_base=True)
    s = _attack([force("1012", "Bob", S=1, Fs=1, F=1, A=1, M=1)], {"S": 5}, target=target)
    # Bob (CV 2+1+1+1+2 +2 for the base = 9) loses to Ann's five Strikes (CV 10); his six
    # units each roll a 4: Strike (4-6) kills, Fast and Fleet (5-6) miss, Assault (6) misses,
    # Monitor (3-6) and naval base (4-6) kill.
    r = resolve(s, dice=[4, 4, 4, 4, 4, 4])
    rolls = one(r, "battle").data["rounds"][0]["rolls"]
    assert [(x["unit"], x["target"], x["kill"]) for x in rolls] == [
        ("S", "4-6", True),
        ("Fs", "5-6", False),
        ("F", "5-6", False),
        ("A", "6", False),
        ("M", "3-6", True),
        ("NB", "4-6", True),
    ]
    assert fleet_at(r.state, "1012", "Ann") == Fleet(S=2)
    assert r.state.system("1012").owner == "Ann"
    assert r.state.system("1012").naval_base  # a naval base is never destroyed by squadrons


def test_kill_precedence_strike_fast_fleet_assault_monitor() -> None:
    s = _attack([force("1012", "Bob", S=1, Fs=1, F=1, A=1, M=1)], {"F": 5})
    # Bob (CV 7) beats Ann (CV 5); four of her five kill rolls hit
    r = resolve(s, dice=[6, 6, 6, 6, 1])
    kills = one(r, "battle").data["rounds"][0]["kills"]
    assert [k["unit"] for k in kills] == ["S", "Fs", "F", "A"]
    assert force_at(r.state, "1012", "Bob").M == 1
    side = Side(players=("Ann",), units={"Ann": Counter(S=1, Fs=1, F=1, A=1, M=1, Ms=1)})
    hit, left = apply_kills(side, 7, PRECEDENCE)
    assert [h["unit"] for h in hit] == ["S", "Fs", "F", "A", "M"]
    assert left == 2 and side.units["Ann"]["Ms"] == 1  # minesweepers are not in the table


def test_equal_cv_fights_rounds_of_mutual_kills_applied_together() -> None:
    s = _attack([force("1012", "Bob", F=2)], {"F": 2})
    # round 1 (2-2): Bob rolls 5,1 and Ann 6,1 before either applies: one loss each;
    # round 2 (1-1): both miss; round 3 (1-1): both kill: 0-0, the defender holds.
    r = resolve(s, dice=[5, 1, 6, 1, 1, 1, 5, 5])
    rounds = one(r, "battle").data["rounds"]
    assert [x["attrition"] for x in rounds] == [True, True, True, False]
    assert rounds[0]["kills"] == [
        {"player": "Ann", "unit": "F", "count": 1},
        {"player": "Bob", "unit": "F", "count": 1},
    ]
    assert "defender holds" in rounds[-1]["note"]
    assert r.state.system("1012").owner == "Bob"


def test_a_tie_broken_by_attrition_then_ends_like_any_battle() -> None:
    s = _attack([force("1012", "Bob", F=2)], {"F": 2})
    # round 1: Bob kills one (5), Ann none; round 2: Bob 2 against 1 wins, Ann's last rolls 6
    r = resolve(s, dice=[5, 1, 1, 1, 6])
    rounds = one(r, "battle").data["rounds"]
    assert [x["attrition"] for x in rounds] == [True, False]
    assert rounds[1]["victor"] == "Bob"
    assert fleet_at(r.state, "1012", "Bob") == Fleet(F=1)


def test_both_sides_at_zero_cv_the_defender_holds() -> None:
    s = _attack(
        [],
        {"Ms": 1},
        target=system("1012", "C", "Bob"),
        facilities=[facility("1012", "Bob", "GL")],
        homeworlds={"Ann": "1010", "Bob": "1011"},
        extra_systems=[system("1011", "A", "Bob")],
    )
    s.forces.append(force("1011", "Bob", F=1))
    r = resolve(s)
    assert r.state.system("1012").owner == "Bob"
    assert fleet_at(r.state, "1012", "Ann") == Fleet()
    assert "zero CV" in one(r, "battle").data["rounds"][0]["note"]


def test_a_system_held_only_by_facilities_falls_without_dice() -> None:
    s = _attack(
        [],
        {"F": 2},
        facilities=[facility("1012", "Bob", "GL", 2)],
        homeworlds={"Ann": "1010", "Bob": "1011"},
        extra_systems=[system("1011", "A", "Bob")],
    )
    s.forces.append(force("1011", "Bob", F=1))
    r = resolve(s)
    capture = one(r, "capture")
    assert (capture.data["from"], capture.data["to"]) == ("Bob", "Ann")
    assert capture.data["destroyed"] == ["Genetics Lab x2"]  # no Assault squadron
    assert r.state.dice == []


def test_a_surviving_assault_squadron_captures_facilities_and_items_under_construction() -> None:
    def run(fleet, dice):
        s = _attack(
            [force("1012", "Bob", F=1), force("1012", "Bob", F=2, building=True)],
            fleet,
            target=system("1012", "A", "Bob"),
            facilities=[
                facility("1012", "Bob", "GL", 2),
                facility("1012", "Bob", "OPC"),
                facility("1012", "Bob", "DOCK"),
                facility("1012", "Bob", "GL", 1, building=True),
            ],
        )
        return resolve(s, dice=dice)

    taken = run({"F": 3, "A": 1}, [1])
    assert count(taken.state, "1012", "Ann", "GL") == 3
    assert count(taken.state, "1012", "Ann", "OPC") == 1
    assert count(taken.state, "1012", "Ann", "DOCK") == 1
    assert fleet_at(taken.state, "1012", "Ann") == Fleet(F=5, A=1)  # the F2 being built, too
    assert count(taken.state, "1012", "Bob", "GL") == 0
    razed = run({"F": 4}, [1])
    assert [f for f in razed.state.facilities if f.hex == "1012"] == []
    assert fleet_at(razed.state, "1012", "Ann") == Fleet(F=4)
    assert "2 Fleet (under construction)" in one(razed, "capture").data["destroyed"]


def test_kills_strike_fleet_squadrons_before_the_assault_squadron() -> None:
    s = _attack(
        [force("1012", "Bob", F=1)],
        {"F": 1, "A": 1},
        facilities=[facility("1012", "Bob", "OPC", 2)],
    )
    r = resolve(s, dice=[5])  # Bob's kill takes Ann's Fleet squadron; the Assault survives
    assert fleet_at(r.state, "1012", "Ann") == Fleet(A=1)
    assert count(r.state, "1012", "Ann", "OPC") == 2


def test_minesweepers_of_the_defeated_are_captured_only_by_a_surviving_assault() -> None:
    with_assault = resolve(_attack([force("1012", "Bob", F=1, Ms=2)], {"F": 3, "A": 1}), dice=[1])
    assert fleet_at(with_assault.state, "1012", "Ann") == Fleet(F=3, A=1, Ms=2)
    without = resolve(_attack([force("1012", "Bob", F=1, Ms=2)], {"F": 3}), dice=[1])
    assert fleet_at(without.state, "1012", "Ann") == Fleet(F=3)
    assert "2 Minesweeper squadrons" in one(without, "battle").data["outcome"]["destroyed"]
    # the defender captures the intruder's sweepers the same way
    held = resolve(_attack([force("1012", "Bob", F=5, A=1)], {"F": 1, "Ms": 1}), dice=[1])
    assert fleet_at(held.state, "1012", "Bob") == Fleet(F=5, A=1, Ms=1)


def test_a_naval_base_alone_defends_its_owner() -> None:
    target = system("1012", "C", "Bob", naval_base=True)
    held = resolve(_attack([], {"F": 1}, target=target), dice=[1])
    assert one(held, "battle").data["rounds"][0]["cv"] == {"Ann": 1, "Bob": 2}
    assert held.state.system("1012").owner == "Bob"
    fallen = resolve(_attack([], {"F": 3}, target=target), dice=[4])  # the base kills one
    assert fleet_at(fallen.state, "1012", "Ann") == Fleet(F=2)
    assert fallen.state.system("1012").owner == "Ann"


def test_an_unowned_naval_base_does_not_fight_the_first_occupier() -> None:
    s = _attack([], {"F": 1}, target=system("1012", "C", naval_base=True), homeworlds={})
    s.player("Ann").homeworld = "1010"
    r = resolve(s)
    assert events(r, "battle") == []
    assert r.state.system("1012").owner == "Ann"


def test_a_naval_base_is_never_killed_in_attrition() -> None:
    target = system("1012", "C", "Bob", naval_base=True)
    s = _attack([force("1012", "Bob", F=1)], {"S": 1, "F": 1}, target=target)
    # round 1 at 3-3: Bob's F rolls 5 (kill) and base 1; Ann's S rolls 4, F 5 (two kills, but
    # only Bob's Fleet squadron can be hit). Round 2: the base (2) beats Ann's F (1); it rolls 6.
    r = resolve(s, dice=[5, 1, 4, 5, 6])
    assert r.state.system("1012").owner == "Bob"
    assert r.state.system("1012").naval_base
    assert fleet_at(r.state, "1012", "Bob") == Fleet()


def test_step0_sweepers_mines_and_kkms_then_the_battle() -> None:
    s = _attack(
        [force("1012", "Bob", F=2)],
        {"F": 3, "Ms": 2, "K": 3},
        facilities=[
            facility("1012", "Bob", "MINE", 5),
            facility("1012", "Bob", "OPC"),
            facility("1012", "Bob", "GL"),
        ],
    )
    dice = [1, 1]  # two sweepers clear 2 of the 5 mines
    dice += [4, 6, 1]  # three mines left: two kills, both on the sweepers first
    dice += [5, 5, 5]  # three KKM kills: the OPC, the lab, then a Fleet squadron
    dice += [1]  # Bob's last Fleet squadron, defeated, misses
    r = resolve(s, dice=dice)
    step0 = one(r, "battle").data["step0"]
    assert [x["kind"] for x in step0] == ["sweep", "mines", "kkm"]
    assert (step0[0]["minefield_before"], step0[0]["minefield_after"]) == (5, 3)
    assert step0[1]["kills"] == [{"player": "Ann", "unit": "Ms", "count": 2}]
    assert step0[1]["minefield_after"] == 1
    assert [(k["unit"], k["count"]) for k in step0[2]["kills"]] == [
        ("OPC", 1),
        ("GL", 1),
        ("F", 1),
    ]
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=3)  # KKMs are spent
    assert "Minefield x1" in one(r, "capture").data["destroyed"]


def test_a_minefield_swept_below_zero_goes_straight_to_the_battle() -> None:
    """Step 0b: "If the minefield is reduced below zero, go immediately to Step 1": the
    sweeper's 6 takes a 2-point minefield below zero, so Ann's KKM does not fire; the battle
    follows (Bob's F1, defeated, rolls one kill die: a 1, no kill)."""
    s = _attack(
        [force("1012", "Bob", F=1)],
        {"F": 2, "Ms": 1, "K": 1},
        facilities=[facility("1012", "Bob", "MINE", 2)],
    )
    r = resolve(s, dice=[6, 1])
    step0 = one(r, "battle").data["step0"]
    assert [x["kind"] for x in step0] == ["sweep"]
    assert r.state.system("1012").owner == "Ann"


def test_house_rule_kkms_fire_even_when_the_minefield_is_swept_away() -> None:
    s = _attack(
        [force("1012", "Bob", F=1)],
        {"F": 2, "Ms": 1, "K": 1},
        facilities=[facility("1012", "Bob", "MINE", 2)],
    )
    r = resolve(s, dice=[6, 4], swept_minefield="kkm-fire")  # the KKM kills Bob's squadron
    kinds = [x["kind"] for x in one(r, "battle").data["step0"]]
    assert kinds == ["sweep", "kkm"]
    assert r.state.system("1012").owner == "Ann"


def test_swept_to_exactly_zero_the_kkms_still_fire() -> None:
    s = _attack(
        [force("1012", "Bob", F=1)],
        {"F": 2, "Ms": 1, "K": 1},
        facilities=[facility("1012", "Bob", "MINE", 2)],
    )
    r = resolve(s, dice=[2, 4])  # 2 against 2 points: zero, not below; the KKM kills
    assert [x["kind"] for x in one(r, "battle").data["step0"]] == ["sweep", "kkm"]


def _mined_attack():
    """Ann's F2 (no minesweeper) arrives at Bob's 1012, held by his F2 behind a 5-point
    minefield."""
    return _attack(
        [force("1012", "Bob", F=2)],
        {"F": 2},
        facilities=[facility("1012", "Bob", "MINE", 5)],
    )


def test_a_minefield_loses_a_point_per_hit_on_a_squadron_not_per_kill() -> None:
    """App. B: "Each hit on a squadron reduces the minefield's effectiveness by one point".
    The five points roll 4, 5, 6, 1, 6: four kills, but Ann brought only two squadrons, so
    two kills hit and two strike nothing.  The minefield loses 2 points (5 -> 3).  The battle
    follows: Ann has CV 0 against Bob's 2 and nothing left to roll; Bob holds."""
    r = resolve(_mined_attack(), dice=[4, 5, 6, 1, 6])
    [mines] = one(r, "battle").data["step0"]
    assert mines["kind"] == "mines"
    assert [x["kill"] for x in mines["rolls"]] == [True, True, True, False, True]
    assert mines["kills"] == [{"player": "Ann", "unit": "F", "count": 2}]
    assert (mines["minefield_before"], mines["minefield_after"]) == (5, 3)
    assert count(r.state, "1012", "Bob", "MINE") == 3
    assert fleet_at(r.state, "1012", "Ann") == Fleet()
    assert fleet_at(r.state, "1012", "Bob") == Fleet(F=2)
    assert r.state.system("1012").owner == "Bob"


def test_house_rule_every_kill_uses_up_a_mine_whether_it_strikes_or_not() -> None:
    """minefield_wear = every-kill, 5.0 step 0e: "Each kill achieved reduces the minefield by
    a point".  The same dice: four kills (4, 5, 6 and 6), two of them hitting Ann's squadrons;
    the minefield loses all four points (5 -> 1)."""
    r = resolve(_mined_attack(), dice=[4, 5, 6, 1, 6], minefield_wear="every-kill")
    [mines] = one(r, "battle").data["step0"]
    assert mines["kills"] == [{"player": "Ann", "unit": "F", "count": 2}]
    assert (mines["minefield_before"], mines["minefield_after"]) == (5, 1)
    assert count(r.state, "1012", "Bob", "MINE") == 1
    assert fleet_at(r.state, "1012", "Ann") == Fleet()


def test_when_every_kill_strikes_both_readings_use_up_the_same_points() -> None:
    """Ann's F3 Ms2 against the 5-point minefield: the sweepers roll 1 and 1 (3 points left),
    the points roll 4, 6, 1: two kills, both on the minesweepers (struck first), so both
    readings leave 1 point.  No KKM; the battle: Ann's F3 (CV 3) beats Bob's F2 (CV 2), whose
    two Fleet squadrons roll 1 and 1, no kill."""
    s = _attack(
        [force("1012", "Bob", F=2)],
        {"F": 3, "Ms": 2},
        facilities=[facility("1012", "Bob", "MINE", 5)],
    )
    for rules in ({}, {"minefield_wear": "every-kill"}):
        r = resolve(s, dice=[1, 1, 4, 6, 1, 1, 1], **rules)
        sweep, mines = one(r, "battle").data["step0"]
        assert (sweep["minefield_before"], sweep["minefield_after"]) == (5, 3)
        assert mines["kills"] == [{"player": "Ann", "unit": "Ms", "count": 2}]
        assert mines["minefield_after"] == 1
        assert r.state.system("1012").owner == "Ann"


def test_a_partners_minefield_wears_by_hits_or_by_every_kill() -> None:
    """App. B's minefield attacks a treaty partner's arriving squadrons too.  Ann's F1 arrives
    at her partner Bob's 1012 (3-point minefield): the points roll 4, 4, 4, three kills; one
    hits her Fleet squadron.  By hits the minefield keeps 3 - 1 = 2 points; by every kill it
    loses all three and is gone."""

    def run(**rules):
        s = _attack(
            [force("1012", "Bob", F=1)],
            {"F": 1},
            facilities=[facility("1012", "Bob", "MINE", 3)],
            relations=[("treaty", "Ann", "Bob")],
        )
        return resolve(s, dice=[4, 4, 4], **rules)

    hits = run()
    assert one(hits, "minefield").data["lost"] == {"F": 1}
    assert one(hits, "minefield").data["step0"][0]["minefield_after"] == 2
    assert count(hits.state, "1012", "Bob", "MINE") == 2
    kills = run(minefield_wear="every-kill")
    assert one(kills, "minefield").data["step0"][0]["minefield_after"] == 0
    assert count(kills.state, "1012", "Bob", "MINE") == 0
    assert fleet_at(kills.state, "1012", "Ann") == Fleet()
    assert events(kills, "battle") == []


def test_three_players_arriving_together_strongest_holds_and_fights_strongest_first() -> None:
    def run(order: str, dice):
        s = state(
            [
                system("1012"),
                system("1010", "A", "Ann"),
                system("1014", "A", "Bob"),
                system("1016", "A", "Cleo"),
            ],
            players=("Ann", "Bob", "Cleo"),
            forces=[
                force(h, p, F=1) for h, p in (("1010", "Ann"), ("1014", "Bob"), ("1016", "Cleo"))
            ],
            flights=[
                flight("Ann", "1010", "1012", F=5),
                flight("Bob", "1014", "1012", F=3),
                flight("Cleo", "1016", "1012", F=1),
            ],
        )
        return resolve(s, dice=dice, battle_order=order)

    strongest = run("strongest-first", [1, 1, 1, 1])
    battles = [
        (e.data["sides"][0]["player"], e.data["sides"][1]["player"])
        for e in events(strongest, "battle")
    ]
    assert battles == [("Ann", "Bob"), ("Ann", "Cleo")]
    assert strongest.state.system("1012").owner == "Ann"
    weakest = run("weakest-first", [1, 1, 1, 1])
    battles = [
        (e.data["sides"][0]["player"], e.data["sides"][1]["player"])
        for e in events(weakest, "battle")
    ]
    assert battles == [("Ann", "Cleo"), ("Ann", "Bob")]


def test_the_winner_of_one_battle_holds_the_system_against_the_next_side() -> None:
    s = _attack(
        [force("1012", "Bob", F=1)],
        {"F": 4},
        players=("Ann", "Bob", "Cleo"),
        extra_systems=[system("1015", "A", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1015"},
    )
    s.forces.append(force("1015", "Cleo", F=1))
    s.flights.append(flight("Cleo", "1015", "1012", F=2))
    r = resolve(s, dice=[1, 1, 1])
    battles = events(r, "battle")
    assert [e.data["sides"][0]["player"] for e in battles] == ["Bob", "Ann"]
    assert [e.data["sides"][1]["player"] for e in battles] == ["Ann", "Cleo"]
    assert r.state.system("1012").owner == "Ann"


def test_treaty_partners_do_not_fight_and_fight_on_one_side_against_others() -> None:
    s = _attack(
        [force("1012", "Bob", F=2)],
        {"F": 3},
        relations=[("treaty", "Ann", "Bob")],
    )
    peace = resolve(s)
    assert events(peace, "battle") == []
    assert peace.state.system("1012").owner == "Bob"
    assert fleet_at(peace.state, "1012", "Ann") == Fleet(F=3)

    s = _attack(
        [force("1012", "Bob", F=2)],
        {"F": 3},
        players=("Ann", "Bob", "Cleo"),
        relations=[("treaty", "Ann", "Bob")],
        extra_systems=[system("1015", "A", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1015"},
    )
    s.forces.append(force("1015", "Cleo", F=1))
    s.flights.append(flight("Cleo", "1015", "1012", F=4))
    r = resolve(s, dice=[1, 1, 1, 1])  # Cleo's four squadrons, defeated by CV 5
    battle = one(r, "battle")
    assert battle.data["rounds"][0]["cv"] == {"Ann": 5, "Bob": 5, "Cleo": 4}
    assert {x["player"]: x["role"] for x in battle.data["sides"]} == {
        "Ann": "defender",
        "Bob": "defender",
        "Cleo": "attacker",
    }


def test_items_under_construction_do_not_fight() -> None:
    s = _attack([force("1012", "Bob", F=1), force("1012", "Bob", F=5, building=True)], {"F": 2})
    r = resolve(s, dice=[1])
    assert one(r, "battle").data["rounds"][0]["cv"]["Bob"] == 1
    assert r.state.system("1012").owner == "Ann"


def test_the_third_change_of_hands_drops_the_resource_class() -> None:
    second = resolve(
        _attack(
            [force("1012", "Bob", F=1)], {"F": 3}, target=system("1012", "A", "Bob", changes=1)
        ),
        dice=[1],
    )
    assert second.state.system("1012").resource_class == "A"
    third = resolve(
        _attack(
            [force("1012", "Bob", F=1)], {"F": 3}, target=system("1012", "A", "Bob", changes=2)
        ),
        dice=[1],
    )
    assert (third.state.system("1012").changes, third.state.system("1012").resource_class) == (
        3,
        "B",
    )
    assert one(third, "class_drop").data == {
        "hex": "1012",
        "from_class": "A",
        "to_class": "B",
        "changes": 3,
    }


def test_a_class_a_world_taken_seven_times_is_class_x() -> None:
    s = state([system("1012", "A"), system("1010", "A", "Ann"), system("1020", "A", "Bob")])
    ctx = TurnContext(state=s, dice=Dice.scripted([]), rules=complete(), year=YEAR)
    seen = []
    owner = ""
    for n in range(7):
        new = "Ann" if n % 2 == 0 else "Bob"
        change_hands(ctx, "1012", owner, new, "conflict")
        owner = new
        seen.append(s.system("1012").resource_class)
    assert seen == ["A", "A", "B", "C", "D", "E", "X"]


def test_first_occupation_of_an_unowned_system_counts_as_a_change() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012")],
        forces=[force("1010", "Ann", F=1)],
        flights=[flight("Ann", "1010", "1012", F=1)],
    )
    r = resolve(s)
    assert r.state.system("1012").changes == 1
    assert r.state.system("1010").changes == 0  # the homeworld's set-up is not a change


def test_fusion_bombing_reduces_the_system_and_everyone_hears_the_subsector() -> None:
    target = system("1012", "B", "Bob", naval_base=True, scout_base=True, hipop=True)
    s = _attack(
        [force("1012", "Bob", F=4)],
        {"F": 3, "SF": 2},
        target=target,
        players=("Ann", "Bob", "Dev"),
        extra_systems=[system("2520", "C", "Dev")],
        homeworlds={"Ann": "1010", "Bob": "1012", "Dev": "2520"},
    )
    s.subsector_names["F"] = "Fomalhaut"
    # CV 3 is at least half of 6 (4 + base): the bombs fall first (HiPop, then the base);
    # Bob's 4 then beats Ann's 3 and her squadrons roll 1, 1, 1.
    r = resolve(s, [orders("Ann", bombing=[Bombing("1012")])], dice=[1, 1, 1])
    sys_ = r.state.system("1012")
    assert (sys_.hipop, sys_.naval_base, sys_.scout_base, sys_.resource_class) == (
        False,
        False,
        True,
        "B",
    )
    public, detail = events(r, "fusion_attack")
    assert public.visible_to == ("*",)
    assert public.data == {"subsector": "F", "subsector_name": "Fomalhaut"}
    assert "1012" not in public.text + public.location and "Ann" not in public.text
    assert "Dev" not in detail.visible_to and detail.data["reduced"] == ["HiPop", "naval base"]
    assert one(r, "battle").data["rounds"][0]["cv"] == {"Ann": 3, "Bob": 4}


def test_fusion_bombing_needs_the_order_unless_the_house_rule_makes_it_automatic() -> None:
    """App. B: a fleet with SFBA levels "can bomb": without a 'fusion bomb' line for the hex
    the levels stay carried (and are lost with Ann's beaten fleet); with the house rule
    fusion_bombing = automatic they fall as before."""

    def run(order_list, **rules):
        target = system("1012", "B", "Bob", naval_base=True, hipop=True)
        s = _attack([force("1012", "Bob", F=4)], {"F": 3, "SF": 1}, target=target)
        return resolve(s, order_list, dice=[1, 1, 1], **rules)

    quiet = run([])
    assert events(quiet, "fusion_attack") == [] and quiet.state.system("1012").hipop
    elsewhere = run([orders("Ann", bombing=[Bombing("1014")])])
    assert events(elsewhere, "fusion_attack") == []
    automatic = run([], fusion_bombing="automatic")
    assert not automatic.state.system("1012").hipop
    assert events(automatic, "fusion_attack")[1].data["by"] == ["Ann"]


def test_fusion_bombing_needs_half_the_defenders_cv() -> None:
    target = system("1012", "B", "Bob", naval_base=True, hipop=True)
    r = resolve(_attack([force("1012", "Bob", F=4)], {"F": 2, "SF": 1}, target=target), dice=[1, 1])
    assert events(r, "fusion_attack") == []
    assert r.state.system("1012").hipop


def test_independent_squadrons_surrender_to_the_first_force_to_arrive() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012")],
        forces=[force("1010", "Ann", F=1), force("1012", "", F=3, M=1)],
        flights=[flight("Ann", "1010", "1012", F=1)],
    )
    r = resolve(s)
    assert events(r, "battle") == []
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=4)
    assert force_at(r.state, "1012", "Ann").M == 1
    assert one(r, "surrender").data["to"] == "Ann"


def test_a_fallen_homeworld_passes_its_stockpile_to_the_occupier() -> None:
    s = _attack([force("1012", "Bob", F=1)], {"F": 3})
    s.player("Bob").stockpile = 9
    r = resolve(s, dice=[1])
    lost = one(r, "homeworld_lost")
    assert lost.data["stockpile_transferred"] == 9 and lost.data["by"] == "Ann"
    bob = r.state.player("Bob")
    assert bob.homeworld_lost == YEAR and bob.stockpile == 0
    ann_ledger = next(e for e in events(r, "production") if e.players == ("Ann",))
    assert ann_ledger.data["stockpile_before"] == 9


def test_a_huge_battle_still_fits_one_cell_of_the_master_workbook(tmp_path) -> None:
    fm = find_ruleset("fifth-millennium")
    s = _attack([force("1012", "Bob", F=3000)], {"F": 7000})
    r = resolve_turn(s, {}, Dice.for_turn(1, YEAR), {})
    battle = one(r, "battle")
    assert battle.data["rolls_grouped"] == "dice"
    (rolls,) = battle.data["rounds"][0]["rolls"]
    assert (rolls["player"], rolls["unit"], rolls["count"]) == ("Bob", "F", 3000)
    assert rolls["kills"] == sum(1 for d in rolls["dice"] if d >= 5)
    assert len(json.dumps(battle.data)) <= 30_000
    assert len(battle.dice) == 3000  # every die is still in the Dice sheet
    write_master(tmp_path / "master.xlsx", fm, r.state)
    assert fm.to_json(read_master(tmp_path / "master.xlsx", fm)) == fm.to_json(r.state)


def test_both_sides_wiped_out_says_so_and_the_system_stands_empty() -> None:
    """Bob's 1012 (not his homeworld, nothing built there) and Ann's attackers destroy each
    other: Bob did not "leave" it; it was lost in the battle, and with no victor left there
    nobody holds it (docs/rules/fifth-millennium.md)."""
    s = _attack(
        [force("1012", "Bob", F=2)],
        {"F": 2},
        extra_systems=[system("2520", "A", "Bob")],
        homeworlds={"Ann": "1010", "Bob": "2520"},
    )
    r = resolve(s, dice=[5, 1, 6, 1, 1, 1, 5, 5])  # as above: 0-0 after the third round
    assert r.state.system("1012").owner == ""
    lost = one(r, "abandoned")
    assert lost.visible_to == ("Bob",) and lost.data["destroyed"] is True
    assert "destroyed your forces there and the attackers' too" in lost.text
    assert "You left" not in lost.text


def test_kkm_kills_strike_every_facility_before_squadrons() -> None:
    """5.0 "KKM attacks are applied against facilities first": Bob's spacedock at 1012 takes
    the first KKM kill, his Fleet squadron the second; under the house rule labs-and-opcs
    only labs and OPCs come before squadrons."""

    def run(dice, **rules):
        s = _attack(
            [force("1012", "Bob", F=2)],
            {"F": 4, "K": 2},
            facilities=[facility("1012", "Bob", "DOCK")],
        )
        return resolve(s, dice=dice, **rules)

    kills = one(run([5, 6, 1]), "battle").data["step0"][0]["kills"]  # Bob's last F misses
    assert [(k["unit"], k["count"]) for k in kills] == [("DOCK", 1), ("F", 1)]
    narrow = one(run([5, 6], kkm_targets="labs-and-opcs"), "battle").data["step0"][0]["kills"]
    assert [(k["unit"], k["count"]) for k in narrow] == [("F", 2)]


def test_a_battle_needs_a_fleet_to_emerge_not_a_treaty_to_end() -> None:
    """5.0: combat occurs "if a fleet emerges in a system where native forces ... exist".
    Ann ends her treaty with Bob while both stand at 1012: nobody arrived, so no battle that
    turn (house rule battles_start = standing-together fights at once)."""

    def run(**rules):
        s = state(
            [system("1010", "A", "Ann"), system("1012", "C", "Bob")],
            forces=[
                force("1010", "Ann", F=1),
                force("1012", "Bob", F=2),
                force("1012", "Ann", F=3),
            ],
            relations=[("treaty", "Ann", "Bob")],
            homeworlds={"Ann": "1010", "Bob": "1012"},
        )
        dice = [1, 1] if rules else []  # Bob's two squadrons, defeated by CV 3
        return resolve(s, [orders("Ann", diplomacy=[diplo("end treaty", "Bob")])], dice, **rules)

    quiet = run()
    assert events(quiet, "battle") == []
    assert fleet_at(quiet.state, "1012", "Ann") == Fleet(F=3)
    assert quiet.state.system("1012").owner == "Bob"
    fight_now = run(battles_start="standing-together")
    assert one(fight_now, "battle").data["outcome"]["victor"] == "Ann"


def test_an_arrival_fights_every_enemy_it_meets_but_not_the_quiet_ones_beside_them() -> None:
    """Ann arrives at Bob's 1012, where Cleo (no treaty with Bob, none with Ann) already
    stands: Ann fights Bob, then Cleo; had only a peaceful partner arrived, Bob and Cleo would
    have gone on standing together."""
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("1015", "A", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=1),
            force("1012", "Bob", F=1),
            force("1012", "Cleo", F=1),
            force("1015", "Cleo", F=1),
        ],
        flights=[flight("Ann", "1010", "1012", F=4)],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1015"},
    )
    r = resolve(s, dice=[1, 1])  # Bob's squadron, then Cleo's, defeated
    assert [[x["player"] for x in e.data["sides"]] for e in events(r, "battle")] == [
        ["Bob", "Ann"],
        ["Ann", "Cleo"],
    ]
    s2 = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("1015", "A", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1012", "Bob", F=1), force("1012", "Cleo", F=1)],
        flights=[flight("Ann", "1010", "1012", F=4)],
        relations=[("treaty", "Ann", "Bob"), ("treaty", "Ann", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1015"},
    )
    calm = resolve(s2)
    assert events(calm, "battle") == []
    assert fleet_at(calm.state, "1012", "Cleo") == Fleet(F=1)


def test_a_treaty_binds_its_two_signatories_not_their_partners() -> None:
    """5.0: no battle "if there is already a treaty or agreement in place between the
    players".  Ann's partner Cleo is also Bob's partner, but Ann and Bob have no treaty: Ann
    attacks Bob at 1012 and Cleo, at peace with both, stays out of it.  Under the house rule
    treaty_sides = chains all three are one side and nobody fights."""

    def run(**rules):
        s = _attack(
            [force("1012", "Bob", F=2), force("1012", "Cleo", F=5)],
            {"F": 3},
            players=("Ann", "Bob", "Cleo"),
            relations=[("treaty", "Ann", "Cleo"), ("treaty", "Bob", "Cleo")],
            extra_systems=[system("1015", "A", "Cleo")],
            homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1015"},
        )
        return resolve(s, dice=rules.pop("dice", []), **rules)

    r = run(dice=[1, 1])  # Bob's two squadrons, defeated by CV 3
    battle = one(r, "battle")
    assert {x["player"]: x["role"] for x in battle.data["sides"]} == {
        "Bob": "defender",
        "Ann": "attacker",
    }
    assert battle.data["rounds"][0]["cv"] == {"Ann": 3, "Bob": 2}
    assert fleet_at(r.state, "1012", "Cleo") == Fleet(F=5)
    assert fleet_at(r.state, "1012", "Bob") == Fleet()
    chained = run(treaty_sides="chains")
    assert events(chained, "battle") == []
    assert fleet_at(chained.state, "1012", "Bob") == Fleet(F=2)


def test_a_minefield_attacks_a_partners_arriving_squadrons_too() -> None:
    """App. B: "A minefield will attack all squadrons entering a system bar the producing
    players'".  Ann, Bob's treaty partner, arrives at his 1012 with F3 Ms1 beside his F1: her
    sweeper rolls 1 (3 points left), the points roll 4, 1, 6: two kills, the minesweeper
    first, then a Fleet squadron; no battle.  House rule minefield_targets = enemies: no
    attack."""

    def run(dice, **rules):
        s = _attack(
            [force("1012", "Bob", F=1)],
            {"F": 3, "Ms": 1},
            facilities=[facility("1012", "Bob", "MINE", 4)],
            relations=[("treaty", "Ann", "Bob")],
        )
        return resolve(s, dice=dice, **rules)

    r = run([1, 4, 1, 6])
    assert events(r, "battle") == []
    mined = one(r, "minefield")
    assert mined.data["lost"] == {"F": 1, "Ms": 1}
    assert mined.visible_to == ("Ann", "Bob")
    assert "1 Minesweeper, 1 Fleet destroyed" in mined.text
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=2)
    assert count(r.state, "1012", "Bob", "MINE") == 1
    assert fleet_at(r.state, "1012", "Bob") == Fleet(F=1)
    spared = run([], minefield_targets="enemies")
    assert events(spared, "minefield") == []
    assert fleet_at(spared.state, "1012", "Ann") == Fleet(F=3, Ms=1)


def test_an_abandoned_systems_naval_base_defends_against_all_but_the_first_occupier() -> None:
    """5.1: "you do not need to defeat the defensive forces of a naval base if you are the
    first player to occupy the system".  1012 has been held before (one change of hands) and
    stands empty: its base (CV 2) beats Ann's single squadron, which rolls 1 (a base is never
    struck); three squadrons beat it, and it rolls 4, killing one.  A system never held is
    occupied free, and so is any unowned one under unowned_naval_base = never-fights."""

    def run(squadrons, dice, changes=1, **rules):
        s = state(
            [system("1010", "A", "Ann"), system("1012", "B", naval_base=True, changes=changes)],
            forces=[force("1010", "Ann", F=1)],
            flights=[flight("Ann", "1010", "1012", F=squadrons)],
        )
        return resolve(s, dice=dice, **rules)

    held = run(1, [1])
    battle = one(held, "battle")
    assert battle.players == ("Ann",) and battle.visible_to == ("Ann",)
    assert battle.data["rounds"][0]["cv"] == {"Ann": 1, "the system's naval base": 2}
    assert "the system's naval base held the system" in battle.text
    assert held.state.system("1012").owner == "" and held.state.system("1012").naval_base
    assert fleet_at(held.state, "1012", "Ann") == Fleet()
    taken = run(3, [4])
    assert "the naval base now serves whoever holds the system" in one(taken, "battle").text
    assert taken.state.system("1012").owner == "Ann"
    assert fleet_at(taken.state, "1012", "Ann") == Fleet(F=2)
    for free in (run(1, [], changes=0), run(1, [], unowned_naval_base="never-fights")):
        assert events(free, "battle") == []
        assert free.state.system("1012").owner == "Ann"
