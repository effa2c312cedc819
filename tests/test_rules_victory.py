"""Elimination and victory (section 1.2): last survivor, or more than half of the systems."""

from __future__ import annotations

import pytest

from refassist.errors import GameError
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
