"""The state of a game of Millenium: the two sides, their fleets, the systems' planets and the
secrets the referee keeps (the cards dealt, the imperial planet, the conquest programme).

What is secret is kept apart from what is public so that `visibility` can hand each side only
what the rules let it know: each system's card (``SystemState.loyalty``) and ``imperial``
are the Empire's (and the referee's);
``programme`` is the Extraterrestrial's; ``revealed`` is the set of systems whose card the
Extraterrestrial has seen (for good, rule VII B).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ...dice import Roll
from ..base import Event
from .charts import SHIP_TYPES
from .geometry import Position, StrategicMap
from .orders import Purchase
from .tactical import TacticalOrders

EMPIRE = "empire"
ALIEN = "extraterrestre"
SIDES = (ALIEN, EMPIRE)  # the Extraterrestrial plays turn 1, then they alternate
LAST_TURN = 20


def other(side: str) -> str:
    return EMPIRE if side == ALIEN else ALIEN


def mover(turn: int) -> str:
    """Whose game turn ``turn`` is: the Extraterrestrial's odd turns, the Empire's even ones."""
    return ALIEN if turn % 2 == 1 else EMPIRE


@dataclass
class Ship:
    """One ship of a fleet.  ``interceptors``: a porte-intercepteur's interceptors aboard."""

    kind: str
    damaged: bool = False
    interceptors: int = 0

    def __post_init__(self) -> None:
        if self.kind not in SHIP_TYPES:
            raise ValueError(f"{self.kind!r} is not a ship type")


@dataclass
class Fleet:
    """A fleet counter.  ``where``: ``map`` (at ``position``), ``reserve`` (not yet in play or
    rebuilt), ``waiting`` (off the map after a scattered jump, ``wait`` turns still to stay),
    ``destroyed`` (every ship lost; may be rebuilt as a reserve)."""

    side: str
    letter: str
    ships: list[Ship] = field(default_factory=list)
    where: str = "reserve"
    position: Position | None = None
    wait: int = 0

    def count(self, kind: str) -> int:
        return sum(1 for s in self.ships if s.kind == kind)

    @property
    def on_map(self) -> bool:
        return self.where == "map" and self.position is not None

    def has_colonisers(self) -> bool:
        return any(s.kind == "colonisation" for s in self.ships)


@dataclass
class Planet:
    """A planet of a system.  ``holder``: the side holding it (empty: no one);
    ``colonised``: the side that colonised it (a holder without a colonisation ship at the
    conquest has not); ``automatic``: one of the Empire's starting planets, conquered and
    colonised by the rules until the Extraterrestrial tries to take it (house rule
    ``attempt_breaks_automatic``) or takes a planet of its system."""

    system: str
    number: int
    holder: str = ""
    colonised: str = ""
    loyalty: int = 0
    bases: int = 0
    automatic: bool = False
    #: The Extraterrestrial held it colonised at the end of at least one game turn (victory).
    alien_colonised_turns: int = 0
    #: The Empire took it back from the Extraterrestrial (victory: -1, or -2 recolonised).
    retaken: bool = False

    @property
    def name(self) -> str:
        return f"{self.system}{self.number}"


@dataclass
class SystemState:
    letter: str
    loyalty: int  # the card's loyalty to the Empire
    planets: list[Planet] = field(default_factory=list)


@dataclass
class TableBattle:
    """A battle of the mover's tactical phase left for the referee's table (house rule
    ``battles = "referee"``): where it is fought, the planet attacked ("" for fleets against
    fleets) and the side attacking.  Its id (``B5-1``: the first of game turn 5) names its
    result sheet."""

    id: str
    position: Position
    planet: str
    attacker: str


@dataclass
class HeldTurn:
    """The rest of the mover's turn while its battles wait for the table: the battles, in
    the order they are fought, the fleets that moved (no free repairs for them) and the
    purchases the sheet ordered (production comes after the tactical phase)."""

    side: str
    battles: list[TableBattle] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    purchases: list[Purchase] = field(default_factory=list)


@dataclass
class State:
    game_id: str
    game_name: str
    map: StrategicMap
    players: dict[str, str]  # side -> player name
    turn: int = 0  # 0: set-up sheets awaited
    systems: dict[str, SystemState] = field(default_factory=dict)
    fleets: list[Fleet] = field(default_factory=list)
    imperial: str = ""  # the imperial planet, e.g. "G1" (secret until the rules reveal it)
    programme: list[str] = field(default_factory=list)  # the Extraterrestrial's (secret)
    revealed: set[str] = field(default_factory=set)  # cards the Extraterrestrial has seen
    imperial_revealed: bool = False
    points: dict[str, dict[str, int]] = field(default_factory=dict)  # side -> system -> points
    #: Each side's standing tactical orders, from its latest sheet (a battle on the other
    #: side's turn is fought with them).
    tactics: dict[str, TacticalOrders] = field(default_factory=dict)
    #: The mover's turn stopped for battles fought on the table (None: no battle waits).
    held: HeldTurn | None = None
    finished: str = ""
    winner: str = ""
    events: list[Event] = field(default_factory=list)
    dice: list[Roll] = field(default_factory=list)

    # -- lookups ------------------------------------------------------------------------------
    def side_of(self, player: str) -> str:
        for side, name in self.players.items():
            if name == player:
                return side
        raise KeyError(player)

    def fleet(self, side: str, letter: str) -> Fleet | None:
        for f in self.fleets:
            if f.side == side and f.letter == letter:
                return f
        return None

    def fleets_at(self, pos: Position, side: str | None = None) -> list[Fleet]:
        return [
            f
            for f in self.fleets
            if f.on_map and f.position == pos and (side is None or f.side == side)
        ]

    def planet(self, name: str) -> Planet | None:
        s = self.systems.get(name[:1].upper())
        if s is None or not name[1:].isdigit():
            return None
        n = int(name[1:])
        return s.planets[n - 1] if 1 <= n <= len(s.planets) else None

    def all_planets(self) -> list[Planet]:
        return [p for s in self.systems.values() for p in s.planets]

    def total_points(self, side: str) -> int:
        return sum(self.points.get(side, {}).values())

    def copy(self) -> State:
        return copy.deepcopy(self)


#: What the set-up's dice may draw that the rules keep secret (`Dice.draws_secret`): the
#: seed of a step that drew one is withheld until `secret_public` says it is public.
CARDS = "the cards dealt to the systems"
IMPERIAL = "the imperial planet"
PROGRAMME = "the conquest programme"


def secret_public(state: State, secret: str) -> bool:
    """Whether a secret the dice drew is public now: the deal once the Extraterrestrial has
    seen every card, the imperial planet once revealed (rule VII B); the programme only at
    the end (the engine publishes every seed then)."""
    if secret == CARDS:
        return set(state.systems) <= state.revealed
    if secret == IMPERIAL:
        return state.imperial_revealed
    return False
