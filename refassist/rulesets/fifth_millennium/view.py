"""What one Fifth Millennium player may know: the data a report or sheet is allowed to show.

The visibility rules (`visibility.player_view`) build a `PlayerView`; reports and sheets read
only from it, never from the full `State`, so a report cannot leak what the rules hide.

What is public: the printed star map (every system's hex, name, original resource class, bases
and HiPop, as on the Traveller map the game uses) and the list of players.  What the fog hides:
owners, squadrons, facilities, current class and bases (after captures or fusion bombing), and
everything in hyperspace that is not the player's own.  A system in sight shows its current
details; one seen before shows what was seen and when; one never seen shows the map only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base import Event
from .state import Facility, Fleet, Flight, Force, Message, Relation


@dataclass(frozen=True, slots=True)
class ForceSeen:
    """Squadrons of one owner seen at a system (monitors and probes included)."""

    owner: str
    fleet: Fleet
    M: int = 0
    P: int = 0
    building: bool = False


@dataclass(slots=True)
class SystemView:
    """A system as one player knows it.

    ``status`` is ``"in sight"`` (details are current), ``"seen"`` (details as of
    ``seen_year``) or ``"map"`` (never seen: only the printed map's data, ``owner`` empty).
    """

    hex: str
    name: str
    resource_class: str
    naval_base: bool
    scout_base: bool
    hipop: bool
    status: str
    seen_year: int = 0
    owner: str = ""
    forces: list[ForceSeen] = field(default_factory=list)
    gl: int = 0
    opc: int = 0
    mines: int = 0
    spacedock: bool = False
    facilities: list[str] = field(default_factory=list)
    forces_text: str = ""


@dataclass
class PlayerView:
    """Everything one player may be told at the start of ``year``."""

    player: str
    year: int
    tech_level: int
    stockpile: int
    income_last: int
    homeworld: str
    homeworld_lost: int
    eliminated: int
    best_range: int
    in_sight: frozenset[str]
    systems: list[SystemView]
    own_forces: list[Force]
    own_flights: list[Flight]
    own_facilities: list[Facility]
    relations: list[Relation]
    proposals_received: list[str]
    messages: list[Message]
    events: list[Event]
    players: list[str]
    finished: str = ""
    #: The game's name, for the report's title.
    game_name: str = ""

    def system(self, hex_: str) -> SystemView | None:
        for s in self.systems:
            if s.hex == hex_:
                return s
        return None

    @property
    def owned(self) -> list[SystemView]:
        return [s for s in self.systems if s.owner == self.player and s.status == "in sight"]
