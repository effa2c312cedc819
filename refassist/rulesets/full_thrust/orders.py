"""A commander's orders for one week (or for the set-up), as read from the sheet.

Each order keeps the cell it was read from (``Orders!C14``), so the checker pins its problems
there and the engine can cancel exactly that order when it fails at resolve time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .timeline import Activity

#: What espionage may be aimed at (the seed's list is lost; ours in docs/rules).
SUBJECTS = ("fleet", "research", "industry", "counter-espionage")


@dataclass
class Timeline:
    """The week of one ship, or of a fleet whose ships slave their drives together."""

    unit: str  # a ship id or a fleet name
    activities: list[Activity]
    cell: str = ""


@dataclass
class FleetOrder:
    """Ships that form a fleet this week: one timeline, one jump roll, one fate."""

    name: str
    ships: list[str]
    cell: str = ""


@dataclass
class Purchase:
    """Ships bought: at the set-up with the starting points, later built at a yard."""

    design: str
    count: int
    place: str = ""  # the shipyard or starport system (set-up: the home system)
    cell: str = ""


@dataclass
class Mission:
    spies: int
    master_spies: int
    target: str  # a commander
    subject: str  # one of SUBJECTS
    points: int = 0  # production points spent to raise the chance
    cell: str = ""


@dataclass
class ResearchOrder:
    rolls: int = 0  # theoretical research rolls at 100 points each
    aim: int = 0  # the field aimed at (1-19), 0 for none
    develop: str = ""  # a field discovered, to develop
    points: int = 0  # production points spent on developing it
    cell: str = ""


@dataclass
class Orders:
    commander: str
    week: int
    timelines: list[Timeline] = field(default_factory=list)
    fleets: list[FleetOrder] = field(default_factory=list)
    purchases: list[Purchase] = field(default_factory=list)
    missions: list[Mission] = field(default_factory=list)
    research: ResearchOrder | None = None
    #: Commanders it declares itself allied to this week (an alliance holds when both do).
    allies: list[str] = field(default_factory=list)
    allies_cell: str = ""
    message: str = ""


def no_orders(commander: str, week: int) -> Orders:
    """The orders of a commander who sent nothing: every ship keeps where it is."""
    return Orders(commander, week)


__all__ = [
    "SUBJECTS",
    "FleetOrder",
    "Mission",
    "Orders",
    "Purchase",
    "ResearchOrder",
    "Timeline",
    "no_orders",
]
