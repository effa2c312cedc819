"""Conquest (rule VII B), production (rule IX) and the end (rule X) with fixed dice; the
figures counted by hand from the seed and the shipped tables (TAB 2 surrender columns 1/2 1/1
2/1 3/1 4/1 5/1 6/1, surrendering up to 0 1 2 3 4 5 5)."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.millenium.conquest import (
    backed,
    cards_shown,
    colonise,
    fleet_points,
    imperial_taken,
    surrender_demand,
    take_planet,
)
from refassist.rulesets.millenium.production import score_production, spend, turn_production
from refassist.rulesets.millenium.rules import complete
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, Fleet
from refassist.rulesets.millenium.victory import mark_turn_end, outcome, programme_score

from .situations import MAP, TABLES, dealt, ships


def alien_fleet(*kinds: str, at: str = "N") -> Fleet:
    return Fleet(ALIEN, "K", ships(*kinds), where="map", position=MAP.parse_position(at))


def test_fleet_points_are_the_ships_values() -> None:
    # vaisseau 4 + vaisseau 4 + corvette 1 = 9
    assert fleet_points(TABLES, [alien_fleet("vaisseau", "vaisseau", "corvette")]) == 9


@pytest.mark.parametrize(
    ("points", "loyalty", "die", "surrendered", "column"),
    [
        (9, 2, 4, True, "4/1"),  # 4.5 rounds down to 4/1: surrenders on 1-4
        (9, 2, 5, False, "4/1"),
        (5, 3, 1, True, "1/1"),  # 1.67 -> 1/1: only a 1
        (5, 3, 2, False, "1/1"),
        (2, 3, 6, False, "1/2"),  # 0.67 -> 1/2: never
        (18, 3, 5, True, "6/1"),
        (18, 3, 6, False, "6/1"),
    ],
)
def test_surrender_demand_on_tab_2(
    points: int, loyalty: int, die: int, surrendered: bool, column: str
) -> None:
    state = dealt(M=(loyalty, 1))
    planet = state.systems["M"].planets[0]
    dice = Dice.scripted([die])
    demand = surrender_demand(TABLES, planet, points, dice, backed=False)
    assert (demand.surrendered, demand.column, demand.die) == (surrendered, column, die)


def test_demands_without_a_die() -> None:
    state = dealt(M=(3, 1), N=(0, 1), O=(5, 1))
    none = Dice.scripted([])
    below = surrender_demand(TABLES, state.systems["M"].planets[0], 1, none, backed=False)
    assert (below.surrendered, below.why) == (False, "below the table")  # 1:3 < 1/2
    assert surrender_demand(
        TABLES, state.systems["N"].planets[0], 1, none, backed=False
    ).surrendered
    loyal = surrender_demand(TABLES, state.systems["O"].planets[0], 40, none, backed=False)
    assert (loyal.surrendered, loyal.why) == (False, "loyalty 5 always refuses")
    defended = surrender_demand(TABLES, state.systems["M"].planets[0], 40, none, backed=True)
    assert not defended.surrendered
    assert none.log == []


def test_a_planet_is_backed_by_its_holders_fleet_at_its_planets() -> None:
    rules = complete()
    state = dealt(N=(3, 1))  # N: zone 33, level 4
    planet = state.systems["N"].planets[0]
    guard = Fleet(EMPIRE, "A", ships("corvette"), where="map", position=MAP.parse_position("33C4"))
    state.fleets = [guard]
    assert backed(state, planet, rules)
    guard.position = MAP.parse_position("33C5")  # another level
    assert not backed(state, planet, rules)
    assert backed(state, planet, complete({"fight_across_levels": True}))
    guard.position = MAP.parse_position("33N4")  # an outer sector
    assert not backed(state, planet, rules)


def test_cards_shown_on_the_way_or_only_where_the_move_ends() -> None:
    path = [MAP.parse_position(p) for p in ("23E4", "33W4", "33C4", "33E4", "43W4")]
    assert cards_shown(MAP, path, complete()) == ["M", "N", "O"]
    assert cards_shown(MAP, path, complete({"reveal_on_pass": False})) == ["O"]


def test_conquest_loyalty_is_the_bases_left_and_the_empire_hold_ends() -> None:
    state = dealt(G=(6, 2))
    g1, g2 = state.systems["G"].planets
    assert (g1.holder, g1.colonised, g1.bases, g2.automatic) == (EMPIRE, EMPIRE, 6, True)
    take_planet(state, g1, ALIEN, colonise=True, bases_left=2)
    assert (g1.holder, g1.colonised, g1.loyalty, g1.bases) == (ALIEN, ALIEN, 2, 2)
    assert (g2.holder, g2.colonised, g2.automatic) == (EMPIRE, "", False)
    # The Empire retakes G1 with one base left: a loyalty-6 card comes back at 4.
    take_planet(state, g1, EMPIRE, colonise=False, bases_left=1)
    assert (g1.holder, g1.colonised, g1.loyalty, g1.bases, g1.retaken) == (EMPIRE, "", 4, 4, True)
    assert colonise(g1, EMPIRE) and g1.colonised == EMPIRE
    assert not colonise(g1, EMPIRE)  # already


def test_retaken_with_four_bases_left_keeps_the_cards_loyalty_and_low_cards_return() -> None:
    state = dealt(G=(6, 1), M=(2, 1))
    g1, m1 = state.systems["G"].planets[0], state.systems["M"].planets[0]
    take_planet(state, g1, ALIEN, colonise=True, bases_left=5)
    take_planet(state, g1, EMPIRE, colonise=True, bases_left=4)
    assert g1.loyalty == 6
    take_planet(state, m1, ALIEN, colonise=False, bases_left=2)
    assert (m1.colonised, m1.loyalty) == ("", 2)
    take_planet(state, m1, EMPIRE, colonise=True, bases_left=0)
    assert m1.loyalty == 2


def test_the_imperial_planet_wins_at_once_with_or_without_a_coloniser() -> None:
    state = dealt(G=(6, 1))
    state.imperial = "G1"
    g1 = state.systems["G"].planets[0]
    take_planet(state, g1, ALIEN, colonise=False, bases_left=0)
    assert imperial_taken(state, g1, False, complete())
    assert not imperial_taken(state, g1, False, complete({"imperial_needs_coloniser": True}))
    assert imperial_taken(state, g1, True, complete({"imperial_needs_coloniser": True}))


def test_production_by_the_empire_schedule_and_alien_colonies() -> None:
    # Shipped cards in map order: A-C 6 (A has 2 planets), D-F 5, G-L 4, M-N 3, ...
    state = dealt()
    loyalty = {k: s.loyalty for k, s in state.systems.items()}
    assert [loyalty[k] for k in "ABCDEFGHILMN"] == [6, 6, 6, 5, 5, 5, 4, 4, 4, 4, 3, 3]
    assert turn_production(state, 1)[EMPIRE] == {}
    assert sorted(turn_production(state, 2)[EMPIRE]) == ["A", "B", "C"]
    assert sorted(turn_production(state, 3)[EMPIRE]) == list("ABCDEF")
    assert sorted(turn_production(state, 4)[EMPIRE]) == list("ABCDEFGHIL")
    # The Extraterrestrial takes A1 (A has two planets) with a coloniser: A produces for it,
    # and no longer for the Empire until A2 is colonised again.
    take_planet(state, state.systems["A"].planets[0], ALIEN, colonise=True, bases_left=3)
    assert "A" not in turn_production(state, 4)[EMPIRE]
    assert turn_production(state, 4)[ALIEN] == {"A": 1}
    colonise(state.systems["A"].planets[1], EMPIRE)
    scored = score_production(state, 4)
    assert scored[EMPIRE]["A"] == 1 and scored[ALIEN] == {"A": 1}  # both at once
    assert state.points[ALIEN] == {"A": 1} and state.total_points(EMPIRE) == 10


def test_points_are_spent_from_any_system() -> None:
    state = dealt()
    state.points[EMPIRE] = {"A": 2, "B": 3, "C": 1}
    assert not spend(state, EMPIRE, 7)
    assert state.points[EMPIRE] == {"A": 2, "B": 3, "C": 1}
    assert spend(state, EMPIRE, 4, ["B"])
    assert state.points[EMPIRE] == {"A": 1, "C": 1}


def test_the_programme_scored_after_the_last_turn() -> None:
    state = dealt(M=(2, 1), N=(3, 1), O=(1, 1), P=(2, 1))
    state.programme = ["M", "N", "O", "P"]
    for letter in "MOP":
        take_planet(state, state.systems[letter].planets[0], ALIEN, colonise=True, bases_left=2)
    mark_turn_end(state)
    # O retaken only, P retaken and recolonised; N never conquered.
    take_planet(state, state.systems["O"].planets[0], EMPIRE, colonise=False, bases_left=0)
    take_planet(state, state.systems["P"].planets[0], EMPIRE, colonise=True, bases_left=0)
    score, lines = programme_score(state, complete())
    assert [(line.system, line.points) for line in lines] == [
        ("M", 1),
        ("N", -2),
        ("O", 0),
        ("P", -1),
    ]
    assert score == -2 and outcome(score, complete()) == EMPIRE
    score, lines = programme_score(state, complete({"retaken_replaces": True}))
    assert [line.points for line in lines] == [1, -2, -1, -2] and score == -4


def test_a_zero_score_by_the_house_rule() -> None:
    assert outcome(0, complete()) == EMPIRE
    assert outcome(0, complete({"zero_score": "draw"})) == "draw"
    assert outcome(1, complete()) == ALIEN


def test_spending_the_whole_bank_and_naming_systems_with_no_points() -> None:
    state = dealt()
    state.points[ALIEN] = {"A": 3, "B": 1}
    assert spend(state, ALIEN, 4, ["Z", "B"])  # Z has none: skipped; B first, then A
    assert state.points[ALIEN] == {}
    assert not spend(state, ALIEN, 1)


def test_banked_points_lost_with_the_system_by_the_house_rule() -> None:
    from refassist.rulesets.millenium.production import lose_points_with

    state = dealt()
    state.points[EMPIRE] = {"A": 3, "B": 2}
    assert lose_points_with(state, EMPIRE, "A", complete()) == 0
    assert state.points[EMPIRE] == {"A": 3, "B": 2}
    assert lose_points_with(state, EMPIRE, "A", complete({"points_lost_with_system": True})) == 3
    assert state.points[EMPIRE] == {"B": 2}
    assert lose_points_with(state, EMPIRE, "C", complete({"points_lost_with_system": True})) == 0


def test_a_system_still_held_by_a_colonised_planet_scores_its_plus_one() -> None:
    # A has two planets: both conquered and colonised; the Empire retakes A1 only.
    state = dealt()
    state.programme = ["A"]
    a1, a2 = state.systems["A"].planets
    take_planet(state, a1, ALIEN, colonise=True, bases_left=1)
    take_planet(state, a2, ALIEN, colonise=True, bases_left=1)
    mark_turn_end(state)
    take_planet(state, a1, EMPIRE, colonise=True, bases_left=0)
    score, lines = programme_score(state, complete())
    assert (score, lines[0].why) == (1, "conquered and colonised")
    # A2 lost too, not recolonised: +1 and -1; the house rule's reading: -1 alone.
    take_planet(state, a2, EMPIRE, colonise=False, bases_left=0)
    _, lines = programme_score(state, complete())
    assert (lines[0].points, lines[0].why) == (
        -1,
        "conquered and colonised (+1), retaken and recolonised by the Empire (-2)",
    )
    _, lines = programme_score(state, complete({"retaken_replaces": True}))
    assert (lines[0].points, lines[0].why) == (-2, "retaken and recolonised by the Empire")


def test_a_programme_system_retaken_only() -> None:
    state = dealt()
    state.programme = ["M"]
    m1 = state.systems["M"].planets[0]
    take_planet(state, m1, ALIEN, colonise=True, bases_left=1)
    mark_turn_end(state)
    take_planet(state, m1, EMPIRE, colonise=False, bases_left=0)
    _, lines = programme_score(state, complete())
    assert lines[0].why == "conquered and colonised (+1), retaken by the Empire (-1)"
    _, lines = programme_score(state, complete({"retaken_replaces": True}))
    assert (lines[0].system, lines[0].points, lines[0].why) == ("M", -1, "retaken by the Empire")


def test_a_demand_records_what_it_was_decided_on_and_loyalty_4_always_refuses() -> None:
    state = dealt(M=(2, 1), H=(4, 1))
    demand = surrender_demand(
        TABLES, state.systems["M"].planets[0], 9, Dice.scripted([2]), backed=False
    )
    assert (demand.planet, demand.points, demand.loyalty, demand.column, demand.die) == (
        "M1",
        9,
        2,
        "4/1",
        2,
    )
    assert demand.surrendered and str(demand.why) == "surrenders (orange dot)"
    below = surrender_demand(
        TABLES, state.systems["M"].planets[0], 0, Dice.scripted([]), backed=False
    )
    assert (below.planet, below.points, below.loyalty, below.column) == ("M1", 0, 2, "-")
    four = surrender_demand(
        TABLES, state.systems["H"].planets[0], 99, Dice.scripted([]), backed=False
    )
    assert (four.planet, four.surrendered, str(four.why)) == (
        "H1",
        False,
        "loyalty 4 always refuses",
    )
    guarded = surrender_demand(
        TABLES, state.systems["M"].planets[0], 9, Dice.scripted([]), backed=True
    )
    assert (guarded.planet, guarded.surrendered) == ("M1", False)
    free = surrender_demand(
        TABLES, dealt(X=(0, 1)).systems["X"].planets[0], 1, Dice.scripted([]), backed=False
    )
    assert (free.planet, free.surrendered) == ("X1", True)


def test_the_notes_of_a_retake_and_an_empire_occupation_is_not_a_retake() -> None:
    state = dealt(G=(6, 1), H=(4, 1), X=(0, 1))
    g1, h1, x1 = (state.systems[k].planets[0] for k in "GHX")
    take_planet(state, g1, ALIEN, colonise=True, bases_left=4)
    notes = [str(n) for n in take_planet(state, g1, EMPIRE, colonise=False, bases_left=4)]
    assert g1.loyalty == 6 and not any("returns to the Empire" in n for n in notes)
    take_planet(state, h1, ALIEN, colonise=True, bases_left=3)
    notes = [str(n) for n in take_planet(state, h1, EMPIRE, colonise=False, bases_left=3)]
    assert h1.loyalty == 4 and notes[0] == "H1 returns to the Empire at loyalty 4 (3 bases left)"
    notes = [str(n) for n in take_planet(state, x1, EMPIRE, colonise=True, bases_left=0)]
    assert (x1.holder, x1.loyalty, x1.retaken) == (EMPIRE, 0, False)
    assert notes == ["X1 taken by the Empire and colonised; loyalty 0"]


def test_a_planet_held_but_not_colonised_does_not_keep_the_system() -> None:
    # A1 colonised by the Extraterrestrial for a turn, then retaken; A2 taken without a
    # colonisation ship: the system is not held conquered and colonised at the end.
    state = dealt()
    state.programme = ["A"]
    a1, a2 = state.systems["A"].planets
    take_planet(state, a1, ALIEN, colonise=True, bases_left=1)
    mark_turn_end(state)
    take_planet(state, a1, EMPIRE, colonise=False, bases_left=0)
    take_planet(state, a2, ALIEN, colonise=False, bases_left=2)
    score, lines = programme_score(state, complete())
    assert (score, lines[0].why) == (0, "conquered and colonised (+1), retaken by the Empire (-1)")
