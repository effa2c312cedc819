"""What a side may know: its own units, the enemy units next to them or in its home country
(the ``see_home`` house rule, on by default), and every enemy unit while information or air
superiority lets it examine them.  A side's view is a copy of the state without the enemy
units it may not see, nor the enemy's pending attacks, moves or eliminated units, nor the
events it was not told; reports and sheets are written from the view only.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from ...hexmap import HexGrid
from ..base import Secret
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


def hidden_from(state: State, player: str, rules: Mapping[str, Any] | None = None) -> list[Secret]:
    """What the rules hide from ``player``'s side, as a page would tell it (the engine's
    audit of what players receive, `Ruleset.hidden_from`): every enemy unit it cannot see,
    by its id, unless an event told to the side named it (a combat it fought)."""
    side = state.side_of(player)
    if side is None:
        raise KeyError(f"{player!r} commands no side")
    seen = seen_enemies(state, side.name, rules)
    told = {m.group(0) for e in state.events if e.visible(player) for m in UNIT_ID.finditer(e.text)}
    return [
        Secret.phrase(u.id, f"the enemy unit {u.id}, out of sight")
        for u in state.units
        if u.side != side.name and u.id not in seen and u.id not in told
    ]


#: A unit's id as texts write it (``N-1AR``): the side's letter, a dash, the counter.
UNIT_ID = re.compile(r"(?<![\w-])[A-Z]+-[A-Z0-9]+(?![\w-])")

__all__ = ["hidden_from", "player_view", "seen_enemies", "side_view"]
