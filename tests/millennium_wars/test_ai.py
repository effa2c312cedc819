"""Computer sides play the training scenario to its end through the resolution: their orders
pass the rules (nothing cancelled), they fight, and the same seed plays the same game."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.millennium_wars.ai import computer_orders
from refassist.rulesets.millennium_wars.orders import Orders
from refassist.rulesets.millennium_wars.resolve import resolve_turn
from refassist.rulesets.millennium_wars.state import State

from .test_resolve import start


def play(seed: int) -> tuple[State, list[str]]:
    state = start()
    kinds: list[str] = []
    for n in range(80):
        if state.finished:
            break
        orders: dict[str, Orders] = {p: computer_orders(state, p, seed) for p in ("Ann", "Bob")}
        state = resolve_turn(state, orders, Dice(seed=seed * 1000 + n), {}).state
        kinds += [e.kind for e in state.events]
    return state, kinds


def test_computer_sides_play_the_training_scenario_to_its_end() -> None:
    attacks = 0
    for seed in (1, 2, 3):
        state, kinds = play(seed)
        assert state.finished.startswith("The game ends")
        assert "order_cancelled" not in kinds  # (an attack may be void: fog of war)
        assert kinds.count("attack") >= 3 and "information_warfare" in kinds
        attacks += kinds.count("attack")
    assert attacks >= 15


def test_the_same_seed_plays_the_same_game() -> None:
    assert play(4)[0].finished == play(4)[0].finished
    first, _ = play(4)
    again, _ = play(4)
    assert [(u.id, u.hex, u.disrupted) for u in first.units] == [
        (u.id, u.hex, u.disrupted) for u in again.units
    ]


def test_a_computer_side_answers_the_ceasefire_by_the_objectives() -> None:
    from refassist.rulesets.millennium_wars.sequence import Point

    state = start()
    state.point = Point(2, ceasefire=True)
    assert computer_orders(state, "Ann", 1).ceasefire == "accept"  # 7 to 7: a tie
    state.held["0503"] = "Sarkand"
    assert computer_orders(state, "Ann", 1).ceasefire == "accept"  # neither side saw it
    for side in ("Northland", "Sarkand"):
        state.known[side]["0503"] = "Sarkand"
    assert computer_orders(state, "Ann", 1).ceasefire == "refuse"  # Northland 5 to 9
    assert computer_orders(state, "Bob", 1).ceasefire == "accept"
