"""The state of a Fifth Millennium game as plain data.

Everything a turn needs lives here and nowhere else: the master workbook is this state written
as tables (`tables.py`), the JSON export is this state as dicts, and `resolve` turns one `State`
into the next without side effects.  Lists are kept sorted by their keys (hex, owner, ...) so
that two states with the same content compare, export and write identically.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..base import Event

#: First year of play; turn n is year 5000 + n.  Year 5000 is the homeworld set-up step.
BASE_YEAR = 5000
FIRST_YEAR = 5001
SETUP_YEAR = 5000

#: Resource classes from best to worst; a class drops one step per change of hands from the 3rd.
RESOURCE_CLASSES = ("A", "B", "C", "D", "E", "X")
CLASS_INCOME = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1, "X": 0}

#: Squadron fields of a fleet designation, in notation order.  ``K`` (KKM points) and ``SF``
#: (SFBA levels, our extension) are carried munitions, not squadrons.
SQUADRON_FIELDS = ("F", "S", "A", "Fs", "Ms")
FLEET_FIELDS = ("F", "S", "A", "Fs", "Ms", "K", "SF")

#: Facility kinds (``Facility.kind``).  GL/OPC/MINE carry a count; the rest are 0/1 per hex.
FACILITY_KINDS = ("GL", "OPC", "MINE", "DOCK", "CC", "CF", "DEPOT", "DSRS")
FACILITY_NAMES = {
    "GL": "Genetics Lab",
    "OPC": "Orbital Production Centre",
    "MINE": "Minefield",
    "DOCK": "Spacedock",
    "CC": "Control Centre",
    "CF": "Construction Facility",
    "DEPOT": "Depot",
    "DSRS": "Deep Space Refueling Station",
}

RELATION_KINDS = ("treaty", "trade")


@dataclass(frozen=True, order=True)
class Fleet:
    """A fleet designation ``F# S# A#(Fs# Ms# K#)`` plus SFBA levels (``SF#``).

    F Fleet, S Strike, A Assault, Fs Fast, Ms Minesweeper squadrons; K KKM points; SF SFBA
    levels.  Immutable, so it can be used as a value in orders and events.
    """

    F: int = 0
    S: int = 0
    A: int = 0
    Fs: int = 0
    Ms: int = 0
    K: int = 0
    SF: int = 0

    @property
    def squadrons(self) -> int:
        """Number of squadrons (KKM points and SFBA levels are not squadrons)."""
        return self.F + self.S + self.A + self.Fs + self.Ms

    def is_empty(self) -> bool:
        return all(getattr(self, f) == 0 for f in FLEET_FIELDS)

    @property
    def all_fast(self) -> bool:
        """True when every squadron is Fast (the fleet then moves 2 hexes a turn)."""
        return self.Fs > 0 and self.F == self.S == self.A == self.Ms == 0

    def __add__(self, other: Fleet) -> Fleet:
        return Fleet(**{f: getattr(self, f) + getattr(other, f) for f in FLEET_FIELDS})

    def __sub__(self, other: Fleet) -> Fleet:
        return Fleet(**{f: getattr(self, f) - getattr(other, f) for f in FLEET_FIELDS})

    def covers(self, other: Fleet) -> bool:
        """True when this fleet has at least as many of every field as ``other``."""
        return all(getattr(self, f) >= getattr(other, f) for f in FLEET_FIELDS)

    def as_dict(self) -> dict[str, int]:
        return {f: getattr(self, f) for f in FLEET_FIELDS}


@dataclass
class System:
    """A star system of the map and what the game has done to it.

    ``original_class`` and the ``map_*`` flags are the printed map's data (public knowledge,
    shown for systems a player has never seen, and unchanged by captures or fusion bombing);
    ``original_class`` is the class on the map at the start (facilities "not shown on the
    original game map" are the ones a capture can destroy); ``changes`` counts changes of
    hands (the first occupation of an unowned system counts, a homeworld's set-up does not).
    """

    hex: str
    name: str
    original_class: str
    resource_class: str
    naval_base: bool = False
    scout_base: bool = False
    hipop: bool = False
    owner: str = ""
    changes: int = 0
    map_naval_base: bool = False
    map_scout_base: bool = False
    map_hipop: bool = False


@dataclass
class Force:
    """Squadrons one owner has at one hex (in a system or at its refueling station).

    ``building`` marks items bought in the last production phase: they exist but do not fight
    in this turn's conflict phase and can be captured or destroyed with their world; they join
    the ready force after conflict.  Monitors (``M``) and probes waiting to launch (``P``) are
    kept beside the fleet because they are not part of a fleet designation.  An empty owner
    means squadrons of a world that declared independence, which surrender to the first force
    to arrive.
    """

    hex: str
    owner: str
    fleet: Fleet = field(default_factory=Fleet)
    M: int = 0
    P: int = 0
    building: bool = False

    def is_empty(self) -> bool:
        return self.fleet.is_empty() and self.M == 0 and self.P == 0


@dataclass
class Facility:
    """A facility at a hex: Genetics Labs, OPCs, minefield points, spacedock, control centre,
    construction facility, depot, or a deep space refueling station (the only one allowed in a
    hex without a system)."""

    hex: str
    owner: str
    kind: str
    count: int = 1
    building: bool = False


@dataclass
class Flight:
    """A fleet or probe in hyperspace, from departure to arrival year.

    Never shown to anyone but its owner.  ``probe`` flights carry no squadrons.
    """

    id: str
    owner: str
    origin: str
    destination: str
    departed: int
    arrival: int
    fleet: Fleet = field(default_factory=Fleet)
    probe: bool = False


@dataclass
class Player:
    """A player's empire-wide figures.

    ``homeworld_lost`` is the year the homeworld fell (0 while held); ``eliminated`` the year
    the player dropped out (0 while playing); ``stockpile_at`` the hex where unspent points are
    kept (the homeworld unless a construction facility or depot was named).
    """

    name: str
    homeworld: str = ""
    stockpile: int = 0
    tech_level: int = 1
    income_last: int = 0
    homeworld_lost: int = 0
    eliminated: int = 0
    stockpile_at: str = ""
    computer: bool = False


@dataclass
class Relation:
    """A treaty or a trade agreement in force between two players (``a`` < ``b``)."""

    kind: str
    a: str
    b: str
    since: int


@dataclass
class Proposal:
    """A treaty or trade agreement one player proposed and the other has not yet answered."""

    kind: str
    proposer: str
    to: str
    year: int


@dataclass
class Message:
    """A message between players, delivered through the referee in the next report."""

    year: int
    sender: str
    recipient: str
    text: str


@dataclass
class Sighting:
    """What a player last saw of a system, shown shaded on the map once out of sight."""

    player: str
    hex: str
    year: int
    resource_class: str
    naval_base: bool
    scout_base: bool
    hipop: bool
    owner: str
    forces: str = ""


@dataclass
class State:
    """The whole game at the start of turn ``year`` (orders for ``year`` are awaited).

    ``events`` and ``dice`` hold what happened in the turn that produced this state (the
    previous year), for the reports; older history lives in the archive.
    """

    game_id: str
    game_name: str
    year: int
    systems: list[System] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    forces: list[Force] = field(default_factory=list)
    facilities: list[Facility] = field(default_factory=list)
    flights: list[Flight] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    sightings: list[Sighting] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    dice: list[Any] = field(default_factory=list)
    subsector_names: dict[str, str] = field(default_factory=dict)
    sector_name: str = ""
    finished: str = ""

    # -- look-ups (linear scans are fine at referee scale; resolve builds indexes) ----------
    def system(self, hex_: str) -> System | None:
        for s in self.systems:
            if s.hex == hex_:
                return s
        return None

    def player(self, name: str) -> Player | None:
        for p in self.players:
            if p.name == name:
                return p
        return None

    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

    def active_players(self) -> list[str]:
        return [p.name for p in self.players if not p.eliminated]

    def forces_at(self, hex_: str) -> list[Force]:
        return [f for f in self.forces if f.hex == hex_]

    def facilities_at(self, hex_: str) -> list[Facility]:
        return [f for f in self.facilities if f.hex == hex_]

    def copy(self) -> State:
        """A deep copy (resolve works on a copy so the input state is never changed)."""
        return copy_state(self)

    def normalise(self) -> None:
        """Sort every list by its key so equal states write and export identically."""
        self.systems.sort(key=lambda s: s.hex)
        self.forces.sort(key=lambda f: (f.hex, f.owner, f.building))
        self.facilities.sort(key=lambda f: (f.hex, f.owner, f.kind, f.building))
        self.flights.sort(key=lambda f: (f.arrival, f.id))
        self.relations.sort(key=lambda r: (r.kind, r.a, r.b))
        self.proposals.sort(key=lambda p: (p.kind, p.proposer, p.to))
        self.sightings.sort(key=lambda s: (s.player, s.hex))


def copy_state(state: State) -> State:
    """Deep copy of a state; events are immutable and shared."""
    return State(
        game_id=state.game_id,
        game_name=state.game_name,
        year=state.year,
        systems=[dataclasses.replace(s) for s in state.systems],
        players=[dataclasses.replace(p) for p in state.players],
        forces=[dataclasses.replace(f) for f in state.forces],
        facilities=[dataclasses.replace(f) for f in state.facilities],
        flights=[dataclasses.replace(f) for f in state.flights],
        relations=[dataclasses.replace(r) for r in state.relations],
        proposals=[dataclasses.replace(p) for p in state.proposals],
        messages=[dataclasses.replace(m) for m in state.messages],
        sightings=[dataclasses.replace(s) for s in state.sightings],
        events=list(state.events),
        dice=list(state.dice),
        subsector_names=dict(state.subsector_names),
        sector_name=state.sector_name,
        finished=state.finished,
    )
