"""The state of a Full Thrust campaign: the map, the commanders, their ships, facilities and
stocks, the week, and what happened.

Plain dataclasses, copied before a week is resolved (the resolution is a pure function of
state, orders and dice).  Where a ship is: ``place`` names the system or wormhole it is at
(empty while it is in jump space, which only happens inside a week); ``inches`` is its
distance from the planet there (30 to 300 after an emergence, 0 when landed).  Fuel is kept
as parsecs of jump left in the tank: every ship burns a twentieth of its tankage a parsec, so
a full tank is 20 parsecs whatever its size (tugs and tenders treble both figures), and the
tankage itself matters only for refuelling others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base import Event
from .designs import FULL_TANK_PARSECS, Design
from .grid import Square

SYSTEM = "system"
WORMHOLE = "wormhole"


@dataclass
class System:
    """A place a ship may jump to: a planetary system (with a planet of ``value`` if it has
    one worth having, 0 if not) or a wormhole."""

    name: str
    square: Square
    kind: str = SYSTEM
    value: int = 0
    home: bool = False  # a commander may start here
    owner: str = ""  # a commander, or "" (neutral or empty)
    belt: str = ""  # "", rich, poor
    belt_worked_out: bool = False
    ancient_site: bool = False
    #: Points of indigenous ships defending a neutral planet (100 x Value by the seed).
    indigenous: int = 0
    port: str = ""  # "", starport, spaceport
    stocks: int = 0  # production points stored at the planet

    @property
    def planet(self) -> bool:
        return self.kind == SYSTEM and self.value > 0


@dataclass
class Ship:
    id: str
    design: str
    owner: str
    place: str
    fuel: int = FULL_TANK_PARSECS
    damage: int = 0  # damage boxes lost
    crack: bool = False
    battles: int = 0  # battles survived
    drive: str = "ok"  # ok, disabled, destroyed
    landed: bool = False
    inches: int = 30
    bearing: int = 6
    cargo: int = 0  # production points in the hold
    fleet: str = ""  # ships of one fleet slave their drives together


@dataclass
class Facility:
    """An orbital facility (the ports are on the planet: `System.port`)."""

    id: str
    kind: str  # shipyard, omp, station
    owner: str
    place: str


@dataclass
class Commander:
    name: str
    email: str
    code: str = ""  # the prefix of its ships' ids (ANN-3)
    home: str = ""
    points: int = 0  # unspent production points held centrally (the starting 5000 until spent)
    spies: int = 5
    master_spies: int = 1
    eliminated: bool = False


@dataclass
class State:
    game_name: str
    game_id: str
    week: int
    commanders: list[Commander]
    systems: dict[str, System]
    obstacles: set[Square]
    designs: dict[str, Design]
    ships: list[Ship] = field(default_factory=list)
    facilities: list[Facility] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    dice: list[Any] = field(default_factory=list)
    finished: str = ""
    columns: int = 0
    rows: int = 0
    map_title: str = ""
    map_source: str = ""

    def ship(self, ship_id: str) -> Ship | None:
        return next((s for s in self.ships if s.id == ship_id), None)

    def design_of(self, ship: Ship) -> Design:
        return self.designs[ship.design]

    def commander(self, name: str) -> Commander | None:
        return next((c for c in self.commanders if c.name == name), None)


__all__ = ["SYSTEM", "WORMHOLE", "Commander", "Facility", "Ship", "State", "System"]
