"""What one commander of the Full Thrust campaign may know: the data its report and its turn
sheet are allowed to show.

`visibility.player_view` builds a `PlayerView`; the commander's report (`report.player_content`)
and its sheet (`sheet.write_sheet`) read only from it, never from the full `State`, so neither
can show what the fog of war hides, and both show the same.

What the records leave out is what sight does not reveal.  A rival's ship seen is its id, its
owner, its design (the hull is what is seen) and where it is, landed or not; its fuel and cargo
are what the seed leaves to espionage (L138: intelligence on a merchant subject), and its
damage, crew (crack) and drive are learned on the tabletop by scanning (L99), so a `SeenShip`
has no such fields, and a rival's ship in a battle waiting for the table carries no
`Condition`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import Event
from .grid import Square, square_code
from .state import SYSTEM, WORMHOLE, Commander, Facility, Ship


@dataclass(frozen=True)
class PlaceView:
    """A place of the map as the commander knows it.  The map's own data (square, Value,
    belt, site, home) is public; who holds it and its port are known only ``in_sight`` (the
    commander has a ship or a planet there), as is a belt being worked out."""

    name: str
    square: Square
    kind: str
    value: int
    belt: str  # the map's belt: "", rich, poor
    worked_out: bool  # known: only in sight
    ancient_site: bool
    home: bool
    owner: str  # known: "" when neutral or not in sight
    port: str  # known: "" when none or not in sight
    in_sight: bool
    #: The ground defences bought for it (`economy.PLANET_ITEMS`): known for its own planets
    #: only (a rival's are found out on the tabletop).
    defences: Mapping[str, int] = field(default_factory=dict)

    @property
    def planet(self) -> bool:
        """Whether there is a planet to hold (a wormhole or an empty system has none)."""
        return self.kind == SYSTEM and self.value > 0

    @property
    def holder(self) -> str:
        """Who holds the planet, in words: its owner, neutral, or not known ("" for a place
        without a planet)."""
        if not self.planet:
            return ""
        if not self.in_sight:
            return "holder not known (not in sight)"
        return self.owner or "neutral"

    def features(self) -> tuple[str, ...]:
        """What the map marks at the place, in words: the report's map page prints these under
        its name and the sheet's map block lists them, so the two say the same."""
        found = [WORMHOLE if self.kind == WORMHOLE else f"Value {self.value}"]
        if self.belt:
            found.append(f"{self.belt} belt" + (" (worked out)" if self.worked_out else ""))
        if self.ancient_site:
            found.append("ancient site")
        if self.port:
            found.append(self.port)
        return tuple(found)

    @property
    def label(self) -> str:
        """Its name and square, as the map prints them (``Brenn 0605``)."""
        return f"{self.name} {square_code(self.square)}"


@dataclass(frozen=True)
class SeenShip:
    """Another commander's ship at a place in sight, as the commander's ships see it."""

    id: str
    owner: str
    design: str
    place: str
    landed: bool

    @property
    def tag(self) -> str:
        """How the map and the sheet name it beside a place: its id and owner."""
        return f"{self.id} ({self.owner})"


@dataclass(frozen=True)
class Condition:
    """What a ship brought to a battle beyond its hull: known for the commander's own ships
    (and to the referee), found out on the table for the others."""

    damage: int
    cargo: int
    crack: bool


@dataclass(frozen=True)
class ShipInBattle:
    """A ship (or a planet's defenders) in a battle waiting for the table: where and when it
    comes on the table, which both sides see; ``condition`` None when it is a rival's."""

    ship: str
    owner: str
    design: str
    arrives: int
    inches: int
    bearing: int
    deviation: int
    deviation_bearing: int
    condition: Condition | None


@dataclass(frozen=True)
class BattleView:
    """A battle waiting for the table, as one of its sides (or the referee) knows it."""

    id: str
    week: int
    place: str
    hour: int
    invasion: str
    ships: tuple[ShipInBattle, ...]

    @property
    def sides(self) -> list[str]:
        return sorted({s.owner for s in self.ships})


@dataclass
class PlayerView:
    """Everything one commander may know at the start of the week it orders."""

    commander: Commander
    game_name: str
    game_id: str
    week: int
    columns: int
    rows: int
    map_title: str
    places: list[PlaceView]
    obstacles: list[Square]
    ships: list[Ship]  # its own, those on the slip included
    facilities: list[Facility]  # its own
    yards: frozenset[str]  # places of its shipyards working this week
    stocks: dict[str, int]  # its own, by place
    seen: list[SeenShip]
    battles: list[BattleView]  # battles of its own waiting for the table
    rivals: tuple[str, ...]  # the other commanders' names (the players are public)
    events: list[Event] = field(default_factory=list)
    designs: dict[str, Any] = field(default_factory=dict)  # the design list (public)
    finished: str = ""

    def ships_at(self, place: str) -> list[str]:
        """The ships it knows at ``place``: its own by id, others with their owner; what the
        report's map page prints beside a place and the sheet's map block lists."""
        own = [s.id for s in self.ships if s.place == place]
        return own + [s.tag for s in self.seen if s.place == place]


__all__ = [
    "BattleView",
    "Condition",
    "PlaceView",
    "PlayerView",
    "SeenShip",
    "ShipInBattle",
]
