"""Elimination and victory (section 1.2): last survivor, or more than half of the systems."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.errors import GameError
from refassist.rulesets.fifth_millennium.context import TurnContext
from refassist.rulesets.fifth_millennium.rules import complete
from refassist.rulesets.fifth_millennium.state import Proposal, State
from refassist.rulesets.fifth_millennium.victory import (
    check_victory,
    eliminate,
    leader,
    still_in_game,
)
from tests.fm_states import YEAR, events, flight, force, one, orders, resolve, state, system


def test_the_last_surviving_player_wins_and_the_game_ends() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob")],
        forces=[force("1010", "Ann", F=1), force("1012", "Bob", F=1)],
        flights=[flight("Ann", "1010", "1012", F=3)],
    )
    r = resolve(s, dice=[1])
    eliminated = one(r, "eliminated")
    assert eliminated.data == {"player": "Bob"} and eliminated.visible_to == ("*",)
    assert r.state.player("Bob").eliminated == YEAR
    victory = one(r, "victory")
    assert victory.data["winner"] == "Ann" and victory.visible_to == ("*",)
    assert r.state.finished.startswith("Ann won in 5003")
    with pytest.raises(GameError, match="the game is over"):
        resolve(r.state)


def test_owning_more_than_half_of_the_systems_wins() -> None:
    def run(owned: int):
        systems = [system(f"10{n:02d}", "C", "Ann" if n <= owned else "") for n in range(1, 10)]
        systems.append(system("2520", "A", "Bob"))
        forces = [force(f"10{n:02d}", "Ann", F=1) for n in range(1, owned + 1)]
        return resolve(state(systems, forces=[*forces, force("2520", "Bob", F=1)], filler=False))

    assert run(5).state.finished == ""  # 5 of 10 is half, not more than half
    won = run(6)
    assert one(won, "victory").data == {
        "winner": "Ann",
        "reason": "owns 6 of the 10 systems, more than half",
        "systems": 6,
        "total": 10,
    }


def test_a_fleet_in_hyperspace_keeps_its_player_in_the_game() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Cleo"), system("1014")],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1012", "Cleo", F=1)],
        flights=[
            flight("Bob", "1010", "1014", arrival=YEAR + 2, F=1),
            flight("Cleo", "1012", "1010", arrival=YEAR + 3, probe=True),
        ],
    )
    r = resolve(s)
    assert r.state.player("Bob").eliminated == 0
    assert events(r, "eliminated") == []


def test_orders_of_an_eliminated_player_are_ignored_and_its_probes_vanish() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Cleo"), system("1014")],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1012", "Cleo", F=1)],
        flights=[flight("Bob", "1010", "1014", arrival=YEAR + 2, probe=True)],
    )
    r = resolve(s)
    assert r.state.player("Bob").eliminated == YEAR
    assert r.state.flights == []
    later = resolve(r.state, [orders("Bob", YEAR + 1)])
    assert one(later, "order_ignored").visible_to == ()


# -- the end-of-turn rules one at a time (each pins a rule a changed line would break) ---------


def _ctx(s: State) -> TurnContext:
    return TurnContext(state=s, dice=Dice.scripted([]), rules=complete(), year=YEAR)


def test_a_player_is_in_the_game_while_it_owns_a_system_or_has_a_squadron() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("1014")],
        players=("Ann", "Bob", "Cleo", "Dan"),
        forces=[force("1014", "Cleo", F=1), force("1016", "Dan")],  # Dan's force is empty
    )
    ctx = _ctx(s)
    assert still_in_game(ctx, "Ann")  # a world and no squadron
    assert still_in_game(ctx, "Cleo")  # squadrons and no world
    assert not still_in_game(ctx, "Dan")  # an empty force is nothing
    s.flights.append(flight("Dan", "1010", "1014", arrival=YEAR + 1, probe=True))
    assert not still_in_game(ctx, "Dan")  # a probe in flight is not a squadron


def test_elimination_clears_only_the_eliminated_players_agreements_and_proposals() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1012", "Cleo", F=1)],
        relations=[("treaty", "Ann", "Cleo"), ("trade", "Ann", "Bob")],
    )
    s.proposals += [Proposal("trade", "Cleo", "Ann", YEAR), Proposal("treaty", "Bob", "Ann", YEAR)]
    ctx = _ctx(s)
    eliminate(ctx)
    assert [(r.kind, r.a, r.b) for r in s.relations] == [("treaty", "Ann", "Cleo")]
    assert [(p.proposer, p.to) for p in s.proposals] == [("Cleo", "Ann")]
    (event,) = ctx.events
    assert (event.kind, event.location, event.players) == ("eliminated", "", ("Bob",))
    assert s.player("Bob").eliminated == YEAR and not s.player("Ann").eliminated


def test_when_nobody_survives_the_game_ends_without_a_winner() -> None:
    s = state([system("1010", "A")], players=("Ann", "Bob"))
    for p in s.players:
        p.eliminated = YEAR
    ctx = _ctx(s)
    check_victory(ctx)
    assert s.finished == f"No player survived {YEAR}; the game ends without a winner."
    (event,) = ctx.events
    assert event.kind == "victory" and event.location == "" and event.visible_to == ("*",)
    assert (event.phase, event.text) == ("end", s.finished)
    assert event.data == {"winner": "", "reason": "no survivor", "systems": 0, "total": 11}


def test_the_last_survivor_wins_with_its_reason_and_is_told() -> None:
    s = state([system("1010", "A", "Ann"), system("1012")], players=("Ann", "Bob"))
    s.player("Bob").eliminated = YEAR
    ctx = _ctx(s)
    check_victory(ctx)
    assert s.finished == f"Ann won in {YEAR}: last surviving player."
    (event,) = ctx.events
    assert (event.location, event.players) == ("", ("Ann",))
    assert event.data == {
        "winner": "Ann",
        "reason": "last surviving player",
        "systems": 1,
        "total": 12,
    }
    check_victory(ctx)  # a finished game is not decided again
    assert len(ctx.events) == 1


def test_two_players_with_no_majority_go_on() -> None:
    s = state([system("1010", "A", "Ann"), system("1012", "C", "Bob")])
    ctx = _ctx(s)
    check_victory(ctx)
    assert s.finished == "" and ctx.events == []


def test_the_leader_owns_most_systems_and_ties_go_by_name() -> None:
    assert leader([]) == ("", 0)
    assert leader(["", ""]) == ("", 0)
    assert leader(["Bob", "Ann", "", "Bob"]) == ("Bob", 2)
    assert leader(["Bob", "Ann"]) == ("Ann", 1)
    assert leader(["Cleo", "Bob", "Cleo", "Bob", "Ann"]) == ("Bob", 2)


def test_a_game_bounded_by_the_referee_ends_after_its_last_year() -> None:
    """House rule ``last_year``: after that year's turn the empire owning the most systems
    wins (Ann, 3 against Bob's 2); with as many each, both share the victory; a year before
    the last, the game goes on; 0 (the rules) never ends it so."""

    def run(ann: int, bob: int, last_year: int):
        systems = [system(f"10{n:02d}", "C", "Ann") for n in range(1, ann + 1)]
        systems += [system(f"20{n:02d}", "C", "Bob") for n in range(1, bob + 1)]
        systems += [system(f"30{n:02d}", "C") for n in range(1, 6)]
        forces = [force(s.hex, s.owner, F=1) for s in systems if s.owner]
        return resolve(state(systems, forces=forces, filler=False), last_year=last_year)

    won = run(3, 2, YEAR)
    assert won.state.finished == (
        f"Ann won in {YEAR}: the most systems (3 of 10) when the last year, {YEAR}, ended."
    )
    event = one(won, "victory")
    assert (event.players, event.visible_to) == (("Ann",), ("*",))
    assert event.data == {
        "winner": "Ann",
        "winners": ["Ann"],
        "reason": "last year",
        "systems": 3,
        "total": 10,
    }
    shared = run(2, 2, YEAR)
    assert shared.state.finished == (
        f"Ann and Bob share the victory in {YEAR}: the most systems (2 of 9) when the last "
        f"year, {YEAR}, ended."
    )
    assert one(shared, "victory").data["winner"] == ""
    assert run(3, 2, YEAR + 1).state.finished == ""
    assert run(3, 2, 0).state.finished == ""
