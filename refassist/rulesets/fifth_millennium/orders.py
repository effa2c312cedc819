"""A Fifth Millennium player's orders for one turn, as read from a turn sheet.

Every order remembers the sheet cell it came from and the text found there, so that any
problem, at check time or during resolution (a purchase cancelled for lack of points), can be
reported where the player wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .state import Fleet

#: Diplomacy actions a sheet may carry.
DIPLOMACY_ACTIONS = (
    "propose treaty",
    "end treaty",
    "propose trade",
    "end trade",
    "declare war",
)
#: The order that lets a player's SFBA levels bomb a system this turn (App. B: a fleet
#: equipped with them "can bomb"); written in the diplomacy block with the hex.
BOMB_ACTION = "fusion bomb"


#: The parts of a movement row, in column order (Turn, Fleet, Departure, Destination, Arrival).
MOVE_PARTS = ("year", "fleet", "origin", "destination", "arrival")
#: The parts of a production row, in column order.
PURCHASE_PARTS = ("location", "item", "quantity")


@dataclass(frozen=True)
class Move:
    """``Turn - Fleet - Departure - Destination - Arrival``; a probe has ``probe=True``.

    ``arrival`` is None when the player left it out (the tool computes it).
    """

    year: int
    fleet: Fleet
    origin: str
    destination: str
    arrival: int | None = None
    probe: bool = False
    cell: str = ""
    text: str = ""
    #: The cell of each part (`MOVE_PARTS` order) when the row was typed one part per column,
    #: so a problem points at the value that is wrong (the arrival year's cell, say).
    cells: tuple[str, ...] = field(default=(), compare=False)

    def cell_of(self, part: str) -> str:
        """The cell holding ``part`` (``year``, ``fleet``, ``origin``, ``destination``,
        ``arrival``): its column's cell, or the one cell the whole line was typed into."""
        return self.cells[MOVE_PARTS.index(part)] if self.cells else self.cell


@dataclass(frozen=True)
class Purchase:
    """One line of the production list: where, what (an item code), how many."""

    location: str
    item: str
    quantity: int
    cell: str = ""
    text: str = ""
    #: The cells of location, item and quantity (`PURCHASE_PARTS` order), when known.
    cells: tuple[str, ...] = field(default=(), compare=False)

    def cell_of(self, part: str) -> str:
        """The cell holding ``part`` (``location``, ``item``, ``quantity``)."""
        return self.cells[PURCHASE_PARTS.index(part)] if self.cells else self.cell


@dataclass(frozen=True)
class Diplomacy:
    """A treaty or trade proposal or ending, or a declaration of war, towards one player."""

    action: str
    other: str
    cell: str = ""


@dataclass(frozen=True)
class Bombing:
    """``fusion bomb`` at a hex: the player's SFBA levels there may bomb it this turn."""

    hex: str
    cell: str = ""
    text: str = ""
    cells: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class MessageOrder:
    """A message to another player (or ``*`` for every player), delivered by the referee."""

    to: str
    text: str
    cell: str = ""


@dataclass
class Orders:
    """Everything one player ordered for one year, in sheet order."""

    player: str
    year: int
    moves: list[Move] = field(default_factory=list)
    purchases: list[Purchase] = field(default_factory=list)
    diplomacy: list[Diplomacy] = field(default_factory=list)
    bombing: list[Bombing] = field(default_factory=list)
    messages: list[MessageOrder] = field(default_factory=list)
    homeworld: str = ""
    homeworld_cell: str = ""
    stockpile_at: str = ""
