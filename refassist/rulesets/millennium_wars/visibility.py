"""What a side may know: its own units, the enemy units next to them or in its home country
(the ``see_home`` house rule, on by default), and every enemy unit while information or air
superiority lets it examine them.  A side's view is a copy of the state without the enemy
units it may not see, nor the enemy's pending attacks, moves or eliminated units, nor the
events it was not told; reports and sheets are written from the view only.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ...hexmap import HexGrid
from .rules import complete
from .state import State


def seen_enemies(state: State, side: str, rules: Mapping[str, Any] | None = None) -> set[str]:
    """The ids of the enemy units ``side`` can see now."""
    rules = complete(rules)
    enemies = [u for u in state.units if u.side != side and u.hex]
    if side in state.sees_all:
        return {u.id for u in enemies}
    grid = HexGrid(state.scenario.columns, state.scenario.rows)
    near: set[str] = set()
    for unit in state.units:
        if unit.side == side and unit.hex:
            near.add(unit.hex)
            near.update(grid.neighbours(unit.hex))
    home = bool(rules["see_home"])
    countries = state.scenario.countries
    return {u.id for u in enemies if u.hex in near or (home and countries.get(u.hex) == side)}


def side_view(state: State, side: str, rules: Mapping[str, Any] | None = None) -> State:
    """The state as ``side`` may know it."""
    seen = seen_enemies(state, side, rules)
    view = copy.deepcopy(state)
    view.units = [u for u in view.units if u.side == side or u.id in seen]
    player = view.side(side).player
    view.events = [e for e in view.events if e.visible(player)]
    if view.phasing.name != side:
        view.pending, view.moved = [], []
    view.lost = [u for u in view.lost if u.side == side]
    view.dice = []
    view.viewer = side
    return view


def player_view(state: State, player: str, rules: Mapping[str, Any] | None = None) -> State:
    """The state as ``player`` may know it (the engine's `Ruleset.player_view`): the view of
    the side the player commands."""
    side = state.side_of(player)
    if side is None:
        raise KeyError(f"{player!r} commands no side")
    return side_view(state, side.name, rules)


__all__ = ["player_view", "seen_enemies", "side_view"]
