"""The state of an Imperium 3rd Millennium game as plain data.

The whole war lives here: the map (systems, planets, jump routes, deep space), both sides'
treasuries and permissions, every unit where it stands, the turn record track, the glory
index and the war/peace calendar.  `resolve.resolve_turn` turns one `State` into the next
without side effects; the master workbook is this state as tables (`tables.py`).

Where a unit is: a ship is in a `Fleet` (``Unit.fleet``); a fighter, troop, PD or outpost is
either carried in a fleet (``fleet`` set) or stands on a planet (``planet`` set, ``hex`` 0 in
the planetary box, 1..n on the planetary map during a planetary battle).  Monitors are ships
in a fleet that never moves; for space battles they fight with the ships of their system, and
since the seed places them "in a planetary box" they take room in the box of their side's
World (else Outpost) in the system (`State.monitor_box`, `State.box_load`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ...dice import Roll
from ..base import Event
from .units import (
    IMPERIAL,
    KIND_OF,
    SIDES,
    TERRAN,
    UnitType,
    cargo_room,
    other_side,
    unit_type,
)

#: Turns of one war; the victory schedule runs out at turn 10.
WAR_TURNS = 10
#: Glory index bounds and the value a war starts at.
GLORY_START = 5

PLANET_TYPES = ("A1", "A2", "A3", "N1", "N2", "N3", "N4", "X1")
#: Which ground units may stand on each planet class (first letter of the type).
ALLOWED_ON = {"A": ("RT", "JT", "PD", "F"), "N": ("JT", "PD", "F"), "X": ("JT", "F")}
MARKERS = ("", "World", "Outpost")


@dataclass
class Planet:
    """A planet of the map and what stands on it.

    ``type`` is its current type (terraforming changes an N1/N2 to A1 and remembers
    ``original_type``); ``marker`` is ``World``, ``Outpost`` or empty, held by ``owner``;
    ``disputed`` is True while both sides have troops on it after a landing.
    """

    code: str
    name: str
    system: str
    type: str
    hexes: int
    owner: str = ""
    marker: str = ""
    disputed: bool = False
    original_type: str = ""
    #: Terraforming: resources committed so far (10 per turn) and by whom.
    terraform_paid: int = 0
    terraform_side: str = ""
    #: Outpost upgrade to World in peacetime: turns paid so far (10 resources each).
    upgrade_paid: int = 0
    #: Home world of a side (Sol 1/Sol 2 for Terrans; Dingir 1, Gashidda 1, Ishkur 1).
    home: str = ""

    @property
    def klass(self) -> str:
        """``A``, ``N`` or ``X``."""
        return self.type[0]

    @property
    def capacity(self) -> int:
        """Most units its planetary box holds: five per hex of its planetary map."""
        return 5 * self.hexes


@dataclass
class System:
    """A star system (or, with ``deep`` set, an open-space hex) on the map."""

    code: str
    name: str
    x: float
    y: float
    deep: bool = False
    planets: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Route:
    """A jump route between two systems; ``length`` is its cost in movement points."""

    a: str
    b: str
    length: int = 1

    def other(self, code: str) -> str:
        return self.b if code == self.a else self.a


@dataclass
class GameMap:
    """The map: systems by code, planets by code, routes."""

    title: str
    systems: dict[str, System]
    planets: dict[str, Planet]
    routes: list[Route]
    source: str = ""

    def neighbours(self, code: str) -> list[tuple[str, int]]:
        """Systems one jump route away, with the route's length, sorted by code."""
        found = [(r.other(code), r.length) for r in self.routes if code in (r.a, r.b)]
        return sorted(found)

    def route(self, a: str, b: str) -> Route | None:
        for r in self.routes:
            if {r.a, r.b} == {a, b}:
                return r
        return None

    def planets_in(self, system: str) -> list[Planet]:
        return [self.planets[p] for p in self.systems[system].planets]


@dataclass
class Unit:
    """One counter.  ``id`` is unique within its side (``DD3``, ``RT2``, ``OP1``).

    ``strength`` is a troop counter's full strength (its reduced strength is in
    `units.TROOP_COUNTERS`); ``damaged`` means flipped to the damaged/reduced side.
    ``origin`` records forces that came from an Intervention or Appeal (removed at the end of
    the war) and ``mandate`` the Mandated Offensive they belong to.
    """

    id: str
    side: str
    code: str
    damaged: bool = False
    fleet: str = ""
    planet: str = ""
    hex: int = 0
    strength: int = 0
    reduced_strength: int = 0
    origin: str = ""

    def type(self, imperial_bb_maintenance: int = 4) -> UnitType:
        return unit_type(self.side, self.code, imperial_bb_maintenance)

    @property
    def is_ship(self) -> bool:
        """A ship (carried fighters, troops, PD and outposts are not)."""
        return self.type().is_ship

    @property
    def troop_strength(self) -> int:
        return self.reduced_strength if self.damaged else self.strength


@dataclass
class Fleet:
    """A named fleet (``T1``, ``I3``, or a name its player chose) at a system or deep-space
    hex.  Its ships and carried units are the `Unit`s whose ``fleet`` is this name."""

    name: str
    side: str
    system: str
    #: The system it came from this turn (retreats go back there).
    came_from: str = ""
    #: Its battle orders, carried to the next sheet and used when no sheet gives new ones
    #: (`orders.standing_text`; empty = the defaults).
    standing: str = ""


@dataclass
class Queued:
    """A unit on the turn record track: arrives at the start of turn ``due``."""

    side: str
    code: str
    due: int
    source: str = "built"
    #: Resources spent on it (half comes back if Recentralisation cancels it).
    paid: int = 0
    #: A World code the player asked for (placement still follows the one-per-World rule).
    world: str = ""
    #: The arriving unit's ``Unit.origin`` (Frontier Crisis keeps Intervention forces marked).
    origin: str = ""
    #: The counter it will be (``CA2``, ``RT5``), reserved when it went on the track, so the
    #: sheet of its turn can name it in orders; empty in an older game (decided on arrival).
    unit_id: str = ""


@dataclass
class SideState:
    """One side's treasury, permissions and standing effects."""

    side: str
    player: str
    resources: int = 0
    #: Permanent budget increase from Appeals (+1..+5 each).
    budget_bonus: int = 0
    #: Turns of Economic Depression still to come.
    depression: int = 0
    #: Imperial: unit codes an Appeal permitted (``ALL`` for every ship).
    permissions: list[str] = field(default_factory=list)
    appeals_prohibited: bool = False
    #: Terran: a B has been destroyed, so BBs may be built.
    bb_unlocked: bool = False
    #: Imperial: initiative modifier this turn (Civil War: -1).
    initiative_modifier: int = 0
    #: Mandated Offensive / Imperial Visit in force: the glory index at the turn the forces
    #: arrived (0 = none); their forces stay while glory is above it (house rule ``mandate_mark``).
    mandate_glory: int = 0
    #: Imperial Visit this turn: glory gains doubled, losses tripled.
    visit: bool = False
    #: Turn the latest Mandated Offensive forces arrived (0 = no mandate in force).
    mandate_turn: int = 0
    #: Codes of every unit received this war from an Intervention or Appeal (the end of the
    #: war removes them, or the next-largest ship for each one no longer in play).
    granted: list[str] = field(default_factory=list)


@dataclass
class State:
    """A whole game.  ``turn`` counts every turn played; ``war_turn`` is the turn within the
    current war (1..10) or 0 in peace; ``peace_left`` the peacetime turns still to play."""

    game_name: str
    game_id: str
    map: GameMap
    sides: dict[str, SideState]
    units: list[Unit] = field(default_factory=list)
    fleets: list[Fleet] = field(default_factory=list)
    queue: list[Queued] = field(default_factory=list)
    turn: int = 1
    war: int = 1
    war_turn: int = 1
    peace_left: int = 0
    glory: int = GLORY_START
    #: Peace Talks this turn (Intervention 12): no attacks, no moves into enemy systems.
    peace_talks: bool = False
    #: Systems each side has seen into this turn (after a battle or a stealth scout):
    #: side -> system codes whose planetary boxes it may see.
    revealed: dict[str, list[str]] = field(default_factory=dict)
    #: Wars won so far, in order ("Terran", "Imperial" or "truce").
    results: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    #: Every die rolled in the last resolved turn (the master's Dice sheet; the referee's
    #: report and a disputed battle are checked against it).
    dice: list[Roll] = field(default_factory=list)
    finished: str = ""
    #: Whether this is a campaign (inter-war sequence) or a single war.
    campaign: bool = True

    # -- look-ups ------------------------------------------------------------------------------
    def side_of(self, player: str) -> str:
        for side, s in self.sides.items():
            if s.player == player:
                return side
        raise KeyError(player)

    def player_of(self, side: str) -> str:
        return self.sides[side].player

    def player_names(self) -> list[str]:
        return [self.sides[s].player for s in SIDES]

    def fleet(self, name: str) -> Fleet | None:
        for f in self.fleets:
            if f.name == name:
                return f
        return None

    def units_in_fleet(self, name: str) -> list[Unit]:
        return [u for u in self.units if u.fleet == name]

    def units_on(self, planet: str) -> list[Unit]:
        return [u for u in self.units if u.planet == planet]

    def monitor_box(self, side: str, system: str) -> Planet | None:
        """The planetary box ``side``'s monitors at ``system`` stand in ("Monitors are placed
        in a planetary box"): its World there, else its Outpost, the lower code first; None
        when the side holds no planet there (they then take no box's room)."""
        own = [p for p in self.map.planets_in(system) if p.owner == side and p.marker]
        own.sort(key=lambda p: (p.marker != "World", p.code))
        return own[0] if own else None

    def box_monitors(self, planet: str) -> int:
        """The owner's monitors in the system when ``planet``'s box is where they stand
        (`monitor_box`); they take its room."""
        p = self.map.planets[planet]
        if not p.owner or self.monitor_box(p.owner, p.system) is not p:
            return 0
        fleets = {f.name for f in self.fleets_at(p.system, p.owner)}
        return sum(1 for u in self.units if u.code == "M" and u.fleet in fleets)

    def box_load(self, planet: str) -> int:
        """Units in ``planet``'s box: those standing on it and `box_monitors`."""
        return len(self.units_on(planet)) + self.box_monitors(planet)

    def box_room(self, planet: str) -> int:
        """Free places in ``planet``'s box (five per hex of its planetary map)."""
        return self.map.planets[planet].capacity - self.box_load(planet)

    def fleets_at(self, system: str, side: str | None = None) -> list[Fleet]:
        return [f for f in self.fleets if f.system == system and (side is None or f.side == side)]

    def unit(self, side: str, unit_id: str) -> Unit | None:
        for u in self.units:
            if u.side == side and u.id == unit_id:
                return u
        return None

    def at_peace(self) -> bool:
        return self.war_turn == 0

    def next_unit_id(self, side: str, code: str) -> str:
        """The lowest free counter id for ``code`` (``DD1``, ``DD2``...).

        A code ending in a digit gets a dash (``B2-1``), so the first Old Battleship does not
        read as the 21st Battleship."""
        used = {u.id for u in self.units if u.side == side}
        used |= {q.unit_id for q in self.queue if q.side == side and q.unit_id}
        sep = "-" if code[-1].isdigit() else ""
        n = 1
        while f"{code}{sep}{n}" in used:
            n += 1
        return f"{code}{sep}{n}"

    def copy(self) -> State:
        return copy.deepcopy(self)

    def enemy(self, side: str) -> str:
        return other_side(side)


class Load(NamedTuple):
    """What a fleet carries and has room for (`load_of`): transports' places (``holds``,
    house-rule capacities) take troops, PD and outposts, carriers' (``hangar``: CV, the Terran
    BB's F1) fighters, and fighters beyond the hangar take transport places (the seed lets
    fighters enter "loaded on any previously empty transports" and land "from attack
    transports").  The checker, movement, splits and reinforcement placement count by it;
    `space_battle.cargo_of` hands out the same places ship by ship."""

    holds: int
    hangar: int
    cargo: int  # troops, PD and outposts aboard
    fighters: int

    @property
    def overflow(self) -> int:
        return max(0, self.fighters - self.hangar)

    @property
    def free_holds(self) -> int:
        """Transport places left; negative when the fleet carries more than it can."""
        return self.holds - self.cargo - self.overflow


def load_of(units: Iterable[Unit], rules: Mapping[str, Any]) -> Load:
    """The `Load` of a fleet made of ``units``."""
    holds = hangar = cargo = fighters = 0
    for u in units:
        holds += cargo_room(u.code, rules)
        hangar += u.type().fighters
        cargo += KIND_OF[u.code] in ("troop", "pd", "outpost")
        fighters += u.code == "F"
    return Load(holds, hangar, cargo, fighters)


__all__ = [
    "IMPERIAL",
    "TERRAN",
    "Fleet",
    "GameMap",
    "Planet",
    "Queued",
    "Route",
    "SideState",
    "State",
    "System",
    "Unit",
]
