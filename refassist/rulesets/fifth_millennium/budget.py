"""A player's spending budget for the year: the stockpile plus the income the player would
collect if no system changed hands.

Both the sheet (the figure printed beside the purchase lines) and the checker (the budget
warning) use it, so it lives apart from either: the sheet must not import the checker.
"""

from __future__ import annotations

from collections import defaultdict

from ...hexmap import SECTOR
from .state import CLASS_INCOME, State


def projected_income(state: State, player: str) -> int:
    """Income ``player`` would collect this turn if no system changed hands in the battles.

    Class, bases, HiPop, labs and OPCs of every owned system, plus 10 for each complete
    subsector.  A player whose homeworld has fallen gains nothing unless it holds a
    Construction Facility or Depot (section 7.0).
    """
    p = state.player(player)
    if p is None:
        return 0
    if p.homeworld_lost and not any(
        f.owner == player and f.kind in ("CF", "DEPOT") and not f.building for f in state.facilities
    ):
        return 0
    owned = {s.hex: s for s in state.systems if s.owner == player}
    total = sum(
        CLASS_INCOME.get(s.resource_class, 0) + s.naval_base + s.scout_base + s.hipop
        for s in owned.values()
    )
    total += sum(
        f.count
        for f in state.facilities
        if f.owner == player and f.kind in ("GL", "OPC") and not f.building and f.hex in owned
    )
    by_subsector: dict[str, list[str]] = defaultdict(list)
    for s in state.systems:
        by_subsector[SECTOR.subsector(s.hex)].append(s.owner)
    total += 10 * sum(1 for owners in by_subsector.values() if all(o == player for o in owners))
    return total


def points_available(state: State, player: str) -> int:
    """The budget a player is warned against: stockpile plus this turn's projected income."""
    p = state.player(player)
    return (p.stockpile if p else 0) + projected_income(state, player)
