"""The turn as a whole: what `resolve.resolve_turn` does around the rule modules."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.imperium_3m.resolve import resolve_turn
from refassist.rulesets.imperium_3m.setup import new_game


def test_the_way_a_fleet_came_is_forgotten_at_the_start_of_a_turn() -> None:
    players = (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com"))
    state = new_game(NewGame("T", "id", players, {}), Dice(seed=1), {})
    state.fleet("T2").came_from = "SOL"  # moved in some turns ago
    after = resolve_turn(state, {}, Dice(seed=2), {}).state
    assert after.fleet("T2").came_from == ""
    assert state.fleet("T2").came_from == "SOL"  # the input state is not changed
    assert after.dice and after.dice[0].seq == 1  # the turn's dice log is kept
