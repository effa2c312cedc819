"""What a side may know: its own units, the enemy units next to them or in its home country
(the ``see_home`` house rule, on by default), and every enemy unit while information or air
superiority lets it examine them.  A side's view is a copy of the state without the enemy
units it may not see, nor the enemy's pending attacks (but those on its own units, as
`attacked` tells them: house rule ``attacks_told``), moves, standing defence, arrived
reinforcements or eliminated units, nor the events it was not told; the objectives it shows
are held as the side last saw them.  Reports and sheets are written from the view only.

`sight` is the same rule asked of a hex rather than of a unit: the resolution asks it when it
decides what an event may tell the enemy of a unit (where a defender retreated, which stack
was overstacked), so an event never places a unit where its enemy could not see it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import Secret
from .attacked import pending_told
from .combat import Defence
from .rules import complete
from .state import State


@dataclass(frozen=True)
class Sight:
    """The hexes a side sees into now (``everything`` while it may examine every enemy unit).
    ``hex in sight`` is the question every caller asks."""

    hexes: frozenset[str]
    everything: bool = False

    def __contains__(self, hex_: object) -> bool:
        return self.everything or hex_ in self.hexes


def sight(state: State, side: str, rules: Mapping[str, Any] | None = None) -> Sight:
    """The hexes ``side`` sees into now: those of its units and next to them, its home
    country (``see_home``), or every hex while information or air superiority lets it
    examine the enemy."""
    if side in state.sees_all:
        return Sight(frozenset(), everything=True)
    grid = state.scenario.grid
    near: set[str] = set()
    for unit in state.units:
        if unit.side == side and unit.hex:
            near.add(unit.hex)
            near.update(grid.neighbours(unit.hex))
    if complete(rules)["see_home"]:
        near.update(h for h, owner in state.scenario.countries.items() if owner == side)
    return Sight(frozenset(near))


def seen_enemies(state: State, side: str, rules: Mapping[str, Any] | None = None) -> set[str]:
    """The ids of the enemy units ``side`` can see now."""
    seen = sight(state, side, rules)
    return {u.id for u in state.units if u.side != side and u.hex and u.hex in seen}


def side_view(state: State, side: str, rules: Mapping[str, Any] | None = None) -> State:
    """The state as ``side`` may know it."""
    seen = seen_enemies(state, side, rules)
    view = copy.deepcopy(state)
    view.units = [u for u in view.units if u.side == side or u.id in seen]
    player = view.side(side).player
    view.events = [e for e in view.events if e.visible(player)]
    view.earlier = [e for e in view.earlier if e.visible(player)]
    if view.phasing.name != side:
        # The attacks on its units, without what the attacker keeps to himself (`attacked`),
        # and not whether the enemy means this impulse to be its last.
        view.pending, view.moved = pending_told(state, side, rules), []
        view.last_impulse = False
    view.lost = [u for u in view.lost if u.side == side]
    view.placing = [u for u in view.placing if u.side == side]
    # The enemy's standing defence (fast play) is its plan for our attacks, as secret as its
    # declared attacks; which of its reinforcements it has placed or bought is its own.
    # Which enemy units are held in reserve, and the reserves it has named for our coming
    # turn, are its plans too (`resolve._reserves_named` tells them to their owner alone).
    for other in view.sides:
        if other.name != side:
            other.standing = Defence()
            other.reserves_named = None
    for unit in view.units:
        if unit.side != side:
            unit.reserve = False
    mine = {due.unit.id for due in view.scenario.reinforcements if due.unit.side == side}
    view.arrived = [uid for uid in view.arrived if uid in mine]
    knows = view.known.get(side, {})
    view.held = {h: knows.get(h, "") for h in view.scenario.objectives}
    view.known = {side: dict(view.held)}
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
    by its id, unless an event told to the side named it (a combat it fought); an objective
    taken since the side last saw it, with its new holder (the sheets' "held by")."""
    side = state.side_of(player)
    if side is None:
        raise KeyError(f"{player!r} commands no side")
    seen = seen_enemies(state, side.name, rules)
    told = {m.group(0) for e in state.events if e.visible(player) for m in UNIT_ID.finditer(e.text)}
    out = [
        Secret.phrase(u.id, f"the enemy unit {u.id}, out of sight")
        for u in state.units
        if u.side != side.name and u.id not in seen and u.id not in told
    ]
    # The enemy's guerrillas still to place: how many rose is public, their ids are not.
    out += [
        Secret.phrase(u.id, f"the enemy guerrilla {u.id}, still to place")
        for u in state.placing
        if u.side != side.name and u.id not in told
    ]
    believed = state.known.get(side.name, {})
    for hex_, holder in state.held.items():
        if holder and believed.get(hex_, holder) != holder:
            out.append(
                Secret(
                    rf"(?<![\w-]){re.escape(hex_)}(?![\w-])[^\n]{{0,80}}held by "
                    rf"{re.escape(holder)}(?![\w-])",
                    f"that {holder} now holds the objective {hex_}, out of sight",
                )
            )
    return out


#: A unit's id as texts write it (``N-1AR``): the side's letter, a dash, the counter.
UNIT_ID = re.compile(r"(?<![\w-])[A-Z]+-[A-Z0-9]+(?![\w-])")

__all__ = ["Sight", "hidden_from", "player_view", "seen_enemies", "side_view", "sight"]
