"""The state of a Fifth Millennium game as plain data.

Everything a turn needs lives here and nowhere else: the master workbook is this state written
as tables (`tables.py`), the JSON export is this state as dicts, and `resolve` turns one `State`
into the next without side effects.  Lists are kept sorted by their keys (hex, owner, ...) so
that two states with the same content compare, export and write identically.
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field
from typing import Any

from ..base import Event, fields_of
from .tracked import HexList, KeyedList, NameList, PlayerList, RelationList

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

#: Names of squadrons, munitions, monitors and a naval base in battle (dice and events).
BATTLE_NAMES = {
    "S": "Strike",
    "Fs": "Fast",
    "F": "Fleet",
    "A": "Assault",
    "M": "Monitor",
    "Ms": "Minesweeper",
    "NB": "Naval Base",
    "K": "KKM",
    "SF": "SFBA",
}

RELATION_KINDS = ("treaty", "trade")


@dataclass(frozen=True, order=True, slots=True)
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

    # The arithmetic below spells out the seven fields instead of looping over FLEET_FIELDS:
    # fleets are added and compared millions of times in a 64-player game.
    @property
    def squadrons(self) -> int:
        """Number of squadrons (KKM points and SFBA levels are not squadrons)."""
        return self.F + self.S + self.A + self.Fs + self.Ms

    def is_empty(self) -> bool:
        return not (self.F or self.S or self.A or self.Fs or self.Ms or self.K or self.SF)

    @property
    def all_fast(self) -> bool:
        """True when every squadron is Fast (the fleet then moves 2 hexes a turn)."""
        return self.Fs > 0 and self.F == self.S == self.A == self.Ms == 0

    def __add__(self, other: Fleet) -> Fleet:
        return Fleet(
            self.F + other.F,
            self.S + other.S,
            self.A + other.A,
            self.Fs + other.Fs,
            self.Ms + other.Ms,
            self.K + other.K,
            self.SF + other.SF,
        )

    def __sub__(self, other: Fleet) -> Fleet:
        return Fleet(
            self.F - other.F,
            self.S - other.S,
            self.A - other.A,
            self.Fs - other.Fs,
            self.Ms - other.Ms,
            self.K - other.K,
            self.SF - other.SF,
        )

    def covers(self, other: Fleet) -> bool:
        """True when this fleet has at least as many of every field as ``other``."""
        return (
            self.F >= other.F
            and self.S >= other.S
            and self.A >= other.A
            and self.Fs >= other.Fs
            and self.Ms >= other.Ms
            and self.K >= other.K
            and self.SF >= other.SF
        )

    def as_dict(self) -> dict[str, int]:
        return {f: getattr(self, f) for f in FLEET_FIELDS}


@dataclass(slots=True)
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


@dataclass(slots=True)
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
        return self.M == 0 and self.P == 0 and self.fleet.is_empty()


@dataclass(slots=True)
class Facility:
    """A facility at a hex: Genetics Labs, OPCs, minefield points, spacedock, control centre,
    construction facility, depot, or a deep space refueling station (the only one allowed in a
    hex without a system)."""

    hex: str
    owner: str
    kind: str
    count: int = 1
    building: bool = False

    @property
    def text(self) -> str:
        """As events and reports name it: ``Genetics Lab x2``, ``Depot (under construction)``."""
        count = f" x{self.count}" if self.kind in ("GL", "OPC", "MINE") else ""
        name = FACILITY_NAMES.get(self.kind, self.kind) + count
        return name + (" (under construction)" if self.building else "")


@dataclass(slots=True)
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


@dataclass(slots=True)
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


@dataclass(slots=True)
class Relation:
    """A treaty or a trade agreement in force between two players (``a`` < ``b``)."""

    kind: str
    a: str
    b: str
    since: int


@dataclass(slots=True)
class Proposal:
    """A treaty or trade agreement one player proposed and the other has not yet answered."""

    kind: str
    proposer: str
    to: str
    year: int


@dataclass(slots=True)
class Message:
    """A message between players, delivered through the referee in the next report."""

    year: int
    sender: str
    recipient: str
    text: str


@dataclass(slots=True)
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

    # -- look-ups ----------------------------------------------------------------------------
    # Systems, players, squadrons, facilities, agreements and last-seen records are kept in
    # `KeyedList`s (see `tracked.py`), which index their items by key and drop the index on
    # any change of the list: every look-up answers what a scan of the list would.
    def system(self, hex_: str) -> System | None:
        found = _at(self.systems, hex_)
        return found[0] if found else None

    def player(self, name: str) -> Player | None:
        found = _at(self.players, name)
        return found[0] if found else None

    def system_hexes(self) -> frozenset[str]:
        """The hexes of every system on the map."""
        return frozenset(s.hex for s in self.systems)

    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

    def active_players(self) -> list[str]:
        return [p.name for p in self.players if not p.eliminated]

    def forces_at(self, hex_: str) -> list[Force]:
        return list(_at(self.forces, hex_))

    def facilities_at(self, hex_: str) -> list[Facility]:
        return list(_at(self.facilities, hex_))

    def force(self, hex_: str, owner: str, building: bool = False) -> Force | None:
        """The force of ``owner`` at ``hex_`` (ready, or under construction), if any."""
        for force in _at(self.forces, hex_):
            if force.owner == owner and force.building == building:
                return force
        return None

    def relations_of(self, a: str) -> list[Relation]:
        """The agreements whose first player (alphabetically) is ``a``, in list order."""
        if isinstance(self.relations, RelationList):
            return list(self.relations.at(a))
        return [r for r in self.relations if r.a == a]  # unpickled from before

    def sightings_of(self, player: str) -> list[Sighting]:
        """What ``player`` saw of systems, in list order."""
        if isinstance(self.sightings, PlayerList):
            return list(self.sightings.at(player))
        return [s for s in self.sightings if s.player == player]

    # Squadrons and facilities are kept in `HexList`s, which know what stands at each hex, and
    # the last-seen records in a `PlayerList` (see `tracked.py`); any list assigned to them is
    # turned into one.
    def __setattr__(self, name: str, value: Any) -> None:
        kind = _KEYED.get(name)
        if kind is not None and not isinstance(value, kind):
            value = kind(value)
        object.__setattr__(self, name, value)

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


#: State lists kept as `KeyedList`s.
_KEYED: dict[str, type[KeyedList]] = {
    "systems": HexList,
    "players": NameList,
    "forces": HexList,
    "facilities": HexList,
    "sightings": PlayerList,
    "relations": RelationList,
}


def _at(items: list[Any], value: str) -> list[Any]:
    if isinstance(items, KeyedList):
        return items.at(value)
    # A state unpickled from before the lists were keyed: scan (the key of forces, facilities
    # and systems is the hex, of players the name).
    return [item for item in items if getattr(item, "hex", getattr(item, "name", None)) == value]


def _copier(cls: type) -> Any:
    """A function copying an item of ``cls`` field by field (what `dataclasses.replace` does,
    without its checks: a 64-player state has tens of thousands of items)."""
    get = operator.attrgetter(*(f.name for f in dataclasses.fields(cls)))
    return lambda item: cls(*get(item))


_COPY_SYSTEM = _copier(System)
_COPY_PLAYER = _copier(Player)
_COPY_FORCE = _copier(Force)
_COPY_FACILITY = _copier(Facility)
_COPY_FLIGHT = _copier(Flight)
_COPY_RELATION = _copier(Relation)
_COPY_PROPOSAL = _copier(Proposal)
_COPY_MESSAGE = _copier(Message)
_COPY_SIGHTING = _copier(Sighting)


def copy_state(state: State) -> State:
    """Deep copy of a state; events are immutable and shared."""
    return State(
        **fields_of(state, "game_id game_name year sector_name finished"),
        systems=[_COPY_SYSTEM(s) for s in state.systems],
        players=[_COPY_PLAYER(p) for p in state.players],
        forces=[_COPY_FORCE(f) for f in state.forces],
        facilities=[_COPY_FACILITY(f) for f in state.facilities],
        flights=[_COPY_FLIGHT(f) for f in state.flights],
        relations=[_COPY_RELATION(r) for r in state.relations],
        proposals=[_COPY_PROPOSAL(p) for p in state.proposals],
        messages=[_COPY_MESSAGE(m) for m in state.messages],
        sightings=[_COPY_SIGHTING(s) for s in state.sightings],
        events=list(state.events),
        dice=list(state.dice),
        subsector_names=dict(state.subsector_names),
    )
