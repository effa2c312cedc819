"""A player's income, item by item, and the budget the sheet and the checker show.

Income is counted in one place (section 6.1: class, bases, HiPop, labs and OPCs of every
owned system, 10 for each complete subsector; nothing at all once the homeworld has fallen
without a Construction Facility or Depot, section 7.0): production collects it, trade is
judged on it, the sheet prints it beside each system and the purchase lines, and the checker
warns against it.  It lives apart from all of them: the sheet imports neither the checker
nor the production phase.
"""

from __future__ import annotations

from ...geometry.hexcache import subsector_of
from ...geometry.hexmap import SUBSECTOR_LETTERS
from ...text.words import counted
from .context import facility_count
from .state import CLASS_INCOME, State, System

#: Extra production for holding every system of a subsector (section 6.1).
SUBSECTOR_BONUS = 10


def system_income_lines(state: State, s: System) -> list[tuple[str, int]]:
    """What system ``s`` yields its owner, as (label, points): class, bases, HiPop, labs, OPCs."""
    where = f"{s.hex} {s.name}"
    lines: list[tuple[str, int]] = []
    if CLASS_INCOME.get(s.resource_class, 0):
        lines.append((f"{where}: class {s.resource_class}", CLASS_INCOME[s.resource_class]))
    for on, label in (
        (s.naval_base, "naval base"),
        (s.scout_base, "scout base"),
        (s.hipop, "HiPop"),
    ):
        if on:
            lines.append((f"{where}: {label}", 1))
    for kind, label in (("GL", "Genetics Lab"), ("OPC", "Orbital Production Centre")):
        n = facility_count(state, s.hex, s.owner, kind)
        if n:
            lines.append((f"{where}: {counted(n, label)}", n))
    return lines


def system_income(state: State, hex_: str) -> int:
    """Resource points the system at ``hex_`` yields its owner (0 where there is none)."""
    s = state.system(hex_)
    return sum(points for _, points in system_income_lines(state, s)) if s is not None else 0


def income_lines(state: State, player: str) -> list[tuple[str, int]]:
    """Every source of the player's income this phase, as (label, points)."""
    lines = [
        line for s in state.systems if s.owner == player for line in system_income_lines(state, s)
    ]
    for letter in subsector_bonus(state, player):
        name = state.subsector_names.get(letter, "")
        label = f"subsector {letter}" + (f" ({name})" if name else "") + " complete"
        lines.append((label, SUBSECTOR_BONUS))
    return lines


def subsector_bonus(state: State, player: str) -> list[str]:
    """Letters of the subsectors where ``player`` owns every system (and there is one)."""
    by_letter: dict[str, list[str]] = {}
    for s in state.systems:
        by_letter.setdefault(subsector_of(s.hex), []).append(s.owner)
    return [
        letter
        for letter in SUBSECTOR_LETTERS
        if by_letter.get(letter) and all(owner == player for owner in by_letter[letter])
    ]


def income_blocked(state: State, player: str) -> str:
    """Why a player gains nothing this turn (empty when it does)."""
    p = state.player(player)
    assert p is not None
    if not p.homeworld_lost:
        return ""
    if any(
        f.owner == player and f.kind in ("CF", "DEPOT") and not f.building for f in state.facilities
    ):
        return ""
    return (
        f"your homeworld {p.homeworld} fell in {p.homeworld_lost} and you hold no Construction "
        "Facility or Depot, so no new resource points can be gained"
    )


def projected_income(state: State, player: str) -> int:
    """Income ``player`` would collect this turn if no system changed hands in the battles."""
    if state.player(player) is None or income_blocked(state, player):
        return 0
    return sum(points for _, points in income_lines(state, player))


def points_available(state: State, player: str) -> int:
    """The budget a player is warned against: stockpile plus this turn's projected income."""
    p = state.player(player)
    return (p.stockpile if p else 0) + projected_income(state, player)
