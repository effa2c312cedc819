"""What a side's sheet orders: set-up (turn 0) or a game turn's moves, reserve entries,
purchases and standing tactical orders.

Every order keeps the cell it was read from (``Orders!C14``) so a problem found by the checker,
or at resolve time, is pinned to it and the order alone is cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import Position, Zone
from .tactical import TacticalOrders


def row_cells(cell: str, columns: str) -> tuple[str, ...]:
    """Every cell of an order's line (``Orders!B12`` -> ``Orders!B12`` ... ``Orders!H12``): a
    problem the checker pins to any of them cancels the order (`turns.order_cells`)."""
    sheet, _, ref = cell.rpartition("!")
    row = ref.lstrip("ABCDEFGHIJ")
    prefix = f"{sheet}!" if sheet else ""
    return tuple(f"{prefix}{c}{row}" for c in columns) if row else (cell,)


@dataclass(frozen=True)
class FleetMove:
    """One fleet's strategic order.  ``kind``: ``move`` (normal movement through ``path``),
    ``jump`` (hyperspace to ``zone`` at ``level``), ``enter`` (a fleet waiting outside, or on
    turn 1 the Extraterrestrial's fleets, stepping on by normal movement through ``path``).
    ``land``: the planet it lands on at the end (occupation, surrender, colonisation, or the
    landing after a refusal that starts a battle when ``attack`` is set)."""

    fleet: str
    kind: str
    cell: str
    path: tuple[Position, ...] = ()
    zone: Zone | None = None
    level: int = 0
    free_direction: str = ""
    free_sector: str = ""
    land: str = ""
    attack: bool = False

    @property
    def cells(self) -> tuple[str, ...]:
        return row_cells(self.cell, "BCDEFGH")


@dataclass(frozen=True)
class ReserveEntry:
    """A reserve fleet (or rebuilt one, or replacement ships) entering by hyperspace from the
    maximum distance toward ``zone`` at ``level`` (rule VI)."""

    fleet: str
    zone: Zone
    level: int
    cell: str
    free_direction: str = ""
    free_sector: str = ""

    @property
    def cells(self) -> tuple[str, ...]:
        return row_cells(self.cell, "BCDEFGH")


@dataclass(frozen=True)
class Purchase:
    """Ships bought with production points for a fleet (rule IX): they wait in its reserve
    and enter by the reserve rules."""

    fleet: str
    kind: str
    count: int
    cell: str
    spend_from: tuple[str, ...] = ()

    @property
    def cells(self) -> tuple[str, ...]:
        return row_cells(self.cell, "BCDE")


@dataclass(frozen=True)
class FleetSetup:
    """A fleet composed at set-up: ship counts by type and where it starts (the Empire on the
    map; the Extraterrestrial beyond an edge, entering at level 4 on turn 1)."""

    fleet: str
    ships: dict[str, int]
    start: Position | None
    cell: str

    @property
    def cells(self) -> tuple[str, ...]:
        """The line's cells: a problem pinned to its start (H) drops the line too."""
        return row_cells(self.cell, "BCDEFGH")


@dataclass
class Orders:
    """A side's orders for one step.  A set-up sheet's choices (``is_setup``) are fields of
    their own, each with its cell, so the engine can cancel one alone (`turns.drop_orders_at`:
    a list item with its ``cell``, or a choice with its ``<name>_cell``): the Empire's card for
    each system (by number in the card list) and imperial planet, the Extraterrestrial's
    conquest programme (at least 18 systems), and each side's six fleets."""

    side: str
    step: str
    moves: list[FleetMove] = field(default_factory=list)
    entries: list[ReserveEntry] = field(default_factory=list)
    purchases: list[Purchase] = field(default_factory=list)
    tactics: TacticalOrders = field(default_factory=TacticalOrders)
    message: str = ""
    is_setup: bool = False
    cards: dict[str, int] = field(default_factory=dict)
    card_cells: dict[str, str] = field(default_factory=dict)
    imperial: str = ""
    imperial_cell: str = ""
    programme: list[str] = field(default_factory=list)
    programme_cell: str = ""
    fleets: list[FleetSetup] = field(default_factory=list)
    #: The letters the player typed for the sectors W and C when he wrote the French O and I
    #: (``{"W": "O"}``): the orders as understood and the checker's problems show positions
    #: as he typed them (`parse.as_typed`).
    sectors_typed: dict[str, str] = field(default_factory=dict)


#: What became of a ship in a battle fought on the table ("": as it came, damage kept).
FATES = ("", "damaged", "destroyed")


@dataclass(frozen=True)
class ShipResult:
    """One ship's row of a battle sheet as the referee filled it in: the ship (its side,
    fleet and place in the fleet, as the sheet listed it), its fate, and for a
    porte-intercepteur the interceptors back aboard (None: as many as before)."""

    side: str
    fleet: str
    index: int
    kind: str
    fate: str
    cell: str
    interceptors: int | None = None


@dataclass(frozen=True)
class PlanetResult:
    """The planet attacked, after the battle: the bases left and whether it was conquered
    (taken by the last base's destruction or a surrender during the battle)."""

    planet: str
    bases_left: int
    conquered: bool
    cell: str

    @property
    def cells(self) -> tuple[str, ...]:
        return row_cells(self.cell, "BCDE")


@dataclass
class BattleResult:
    """A battle fought on the table, as the referee entered it on its sheet (house rule
    ``battles = "referee"``): read like a side's orders, so a row the checker refuses is
    dropped alone (that ship, or the planet, stays as it came to the battle).  ``left``: the
    sides whose ships left the battle by hyperspace (none, one, or in a planet's battle
    both: the defender's fleets first, then the attacker's)."""

    battle: str
    step: str
    cell: str
    ships: list[ShipResult] = field(default_factory=list)
    planet: list[PlanetResult] = field(default_factory=list)
    left: tuple[str, ...] = ()
    left_cell: str = ""
    rounds: int = 0
    notes: str = ""


def no_orders(side: str, step: str, tactics: TacticalOrders | None = None) -> Orders:
    """The orders of a side that sent none: its fleets stand, its standing orders
    (``tactics``, the side's latest) hold."""
    return Orders(side, step, tactics=tactics or TacticalOrders())
