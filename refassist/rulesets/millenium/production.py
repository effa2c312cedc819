"""Production points (rule IX): scored by both sides at the end of every game turn, recorded
per system, spent from any system on ships.

The Empire's schedule counts game turns (turn 1 is the Extraterrestrial's first): nothing at
the end of turn 1, loyalty-6 systems at the end of turn 2, 5-6 at turn 3, 4-6 from turn 4.  A
system produces for a side that holds a planet there which it has colonised (the Empire's
starting planets count as colonised until the Extraterrestrial tries to take them or takes a
planet of the system); loyalty is the planet's, so a planet the Empire retook at loyalty 4
produces as a 4.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .state import ALIEN, EMPIRE, State


def empire_threshold(turn: int) -> int | None:
    """The least loyalty that produces for the Empire at the end of ``turn`` (None: nothing)."""
    if turn <= 1:
        return None
    return {2: 6, 3: 5}.get(turn, 4)


def turn_production(state: State, turn: int) -> dict[str, dict[str, int]]:
    """Points each side scores at the end of game turn ``turn``, by system."""
    out: dict[str, dict[str, int]] = {ALIEN: {}, EMPIRE: {}}
    threshold = empire_threshold(turn)
    for letter, system in state.systems.items():
        if any(p.holder == ALIEN and p.colonised == ALIEN for p in system.planets):
            out[ALIEN][letter] = 1
        if threshold is not None and any(
            p.holder == EMPIRE and p.colonised == EMPIRE and p.loyalty >= threshold
            for p in system.planets
        ):
            out[EMPIRE][letter] = 1
    return out


def score_production(state: State, turn: int) -> dict[str, dict[str, int]]:
    """Add the turn's points to the sides' banked points; the points scored, by side."""
    scored = turn_production(state, turn)
    for side, by_system in scored.items():
        bank = state.points.setdefault(side, {})
        for letter, n in by_system.items():
            bank[letter] = bank.get(letter, 0) + n
    return scored


def spend(state: State, side: str, cost: int, order: list[str] | None = None) -> bool:
    """Take ``cost`` points from ``side``'s systems (the player's order of systems, then by
    letter); False, and nothing taken, if the side has too few."""
    bank = state.points.setdefault(side, {})
    if sum(bank.values()) < cost:
        return False
    sources = [s for s in (order or []) if bank.get(s)] + sorted(bank)
    left = cost
    for letter in sources:
        take = min(bank.get(letter, 0), left)
        if take:
            bank[letter] -= take
            left -= take
        if not left:
            break
    for letter in [k for k, v in bank.items() if v == 0]:
        del bank[letter]
    return True


def lose_points_with(state: State, side: str, letter: str, rules: Mapping[str, Any]) -> int:
    """Under ``points_lost_with_system``: the points ``side`` banked in ``letter`` go when the
    opponent takes a planet there.  The points lost."""
    if not rules["points_lost_with_system"]:
        return 0
    return state.points.get(side, {}).pop(letter, 0)
