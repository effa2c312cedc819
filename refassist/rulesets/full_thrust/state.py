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
#: The owner of a neutral planet's defenders in a battle.
NATIVES = "natives"


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
    #: The planet's ground defences bought (`economy.PLANET_ITEMS`): item -> count, e.g.
    #: fortification spaces, ground weapon spaces, missile silos, fighter squadrons by type.
    defences: dict[str, int] = field(default_factory=dict)

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
    ready_week: int = 0  # under construction until this week begins (0: in service)
    #: The hour of this week when its FTL drive has recharged (0: ready; a ship that arrived
    #: late last week carries the rest of its day over).
    ready_at: int = 0
    #: A captured warship its captor cannot use until a capture refit (a week at a yard able
    #: to build it, 10% of its cost); captured merchants are used at once.
    needs_refit: bool = False
    #: Hours of scrapping work left (0: not being scrapped): a ship whose scrapping runs past
    #: the week stays at the yard, takes no orders, and is scrapped when the work is done.
    scrapping: int = 0
    #: The worth in production points of an ancient site's item aboard (0: none): any ship
    #: carries it; it becomes points at a planet of its commander's, and is lost or captured
    #: with the ship.
    item: int = 0

    #: What was bought for the ship beyond its design (`economy.SHIP_ITEMS`): item -> count,
    #: e.g. a carrier's new fighter squadrons, reloads carried, a Repair Facility.
    stores: dict[str, int] = field(default_factory=dict)

    def in_service(self, week: int) -> bool:
        """Whether it serves in ``week``: one finished last week enters service as the week
        begins (its resolution starts with that), so the week's sheet and checker already
        count it although the state still notes when it was finished."""
        return self.ready_week <= week


@dataclass
class Facility:
    """An orbital facility (the ports are on the planet: `System.port`)."""

    id: str
    kind: str  # shipyard, omp, station; starport, spaceport while being built
    owner: str
    place: str
    ready_week: int = 0  # under construction until this week begins (0: working)
    towed_by: str = ""  # the tug that has it in tow (it works only where it is released)
    #: The hour of this week it came to work where it is (a mining platform mines pro rata).
    active_from: int = 0

    def working(self, week: int) -> bool:
        """Whether it works in ``week`` (one laid down last week is complete as it begins)."""
        return self.ready_week <= week


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
    discoveries: list[str] = field(default_factory=list)  # fields it may develop
    developed: list[str] = field(default_factory=list)  # fields it has
    #: Discovered fields it develops at half cost (an ancient library's find; the technology
    #: of a rival whose home planet it took; captured technology, entered by the referee).
    half_cost: list[str] = field(default_factory=list)
    allies: list[str] = field(default_factory=list)  # commanders it declares itself allied to


@dataclass
class InBattle:
    """A ship (or the natives' fleet) as it came to a battle: what the battle sheet shows."""

    ship: str
    owner: str  # a commander, or NATIVES
    design: str
    arrives: int = 0  # the tabletop turn it arrives on (1 hour = 1 turn after the start)
    inches: int = 30
    bearing: int = 6
    #: How far (inches) and on what bearing its emergence deviated (0: it was there already).
    deviation: int = 0
    deviation_bearing: int = 0
    damage: int = 0
    cargo: int = 0
    crack: bool = False
    #: What it had bought beyond its design when it came (`economy.holdings_text`): a ship's
    #: squadrons, reloads and Repair Facility, a planet's fortifications, weapons, silos and
    #: squadrons.
    fittings: str = ""


@dataclass
class BattleResult:
    """What the referee entered after the tabletop (the battle sheet's result part, read like
    a commander's orders): the ships destroyed, the damage boxes each survivor lost in the
    battle, who captured which, and who holds the system afterwards ("" for no change)."""

    battle: str
    destroyed: list[str] = field(default_factory=list)
    damage: dict[str, int] = field(default_factory=dict)
    captured: dict[str, str] = field(default_factory=dict)  # ship -> captor
    holder: str = ""
    notes: str = ""
    cell: str = ""
    cells: dict[str, str] = field(default_factory=dict)  # ship -> its result row's cell
    #: Ships that jumped away from the battle (the seed's disengagement), ship -> the place
    #: they withdrew to; the others stay where the battle was.
    withdrew: dict[str, str] = field(default_factory=dict)
    withdrew_cells: dict[str, str] = field(default_factory=dict)  # ship -> its cell


@dataclass
class Battle:
    id: str  # B3-1: the first battle of week 3
    week: int
    place: str
    hour: int
    ships: list[InBattle] = field(default_factory=list)
    invasion: str = ""  # the invading commander, for a war against a neutral planet

    @property
    def sides(self) -> list[str]:
        return sorted({s.owner for s in self.ships})


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
    #: Production points stored at a place for a commander: (place, commander) -> points.
    stocks: dict[tuple[str, str], int] = field(default_factory=dict)
    #: Battles of the week waiting for the referee's result (empty between weeks).
    battles: list[Battle] = field(default_factory=list)
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

    def yards(self, owner: str) -> set[str]:
        """The places where ``owner`` has a shipyard working this week."""
        return {
            f.place
            for f in self.facilities
            if f.owner == owner and f.kind == "shipyard" and f.place and f.working(self.week)
        }

    def stock(self, place: str, owner: str) -> int:
        return self.stocks.get((place, owner), 0)

    def add_stock(self, place: str, owner: str, points: int) -> None:
        """Add (or, negative, take) production points at ``place`` for ``owner``."""
        left = self.stock(place, owner) + points
        if left < 0:
            raise ValueError(f"{owner} has {self.stock(place, owner)} points at {place}")
        if left:
            self.stocks[(place, owner)] = left
        else:
            self.stocks.pop((place, owner), None)

    def allied(self, a: str, b: str) -> bool:
        """Two commanders are allies when each has declared the other."""
        ca, cb = self.commander(a), self.commander(b)
        return ca is not None and cb is not None and b in ca.allies and a in cb.allies


def event(
    state: State, phase: str, place: str, kind: str, text: str, who: list[str], **data: Any
) -> Event:
    """Something that happened this week, told to ``who`` (the commanders concerned) only."""
    return Event(state.week, phase, place, kind, text, tuple(who), tuple(who), data)


__all__ = [
    "NATIVES",
    "SYSTEM",
    "WORMHOLE",
    "Battle",
    "BattleResult",
    "Commander",
    "Facility",
    "InBattle",
    "Ship",
    "State",
    "System",
    "event",
]
