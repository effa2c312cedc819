"""The state of a game of Millennium Wars: the scenario it is played on, where the sequence of
play stands, both sides' levels and points, the Political Index, the units, and what happened.

Plain dataclasses, copied before an exchange is resolved (the resolution is a pure function of
state, orders and dice).  The scenario's map is read from the game's own copy of its scenario
file; what changes in play is here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from ...errors import SetupError
from ..base import Event, PlayerSetup
from .combat import Attack, Defence
from .scenario import Scenario
from .sequence import Point
from .units import Unit


@dataclass
class SideState:
    """One side as play goes on, and the player who commands it."""

    name: str
    player: str
    email: str
    nato: bool
    c4i: int
    c4i_start: int  # C4I recovery raises a level reduced below it by one a player turn
    air_defence: int
    political_points: Fraction = Fraction(0)
    #: Fast play: the defence this side wrote on its last phasing sheet, which stands for
    #: every attack on its units until its next one.
    standing: Defence = field(default_factory=Defence)
    #: The units this side's latest impulse sheet of its player turn named as reserves for
    #: the enemy's coming player turn (None: none named yet; []: "none"), applied when the
    #: player turn ends (`resolve._reserves_named`).
    reserves_named: list[str] | None = None


@dataclass
class State:
    game_name: str
    game_id: str
    scenario: Scenario
    point: Point
    political_index: int
    sides: list[SideState]
    units: list[Unit]
    #: This game turn: the random event, the side with air superiority or dominance ("" for
    #: parity) and which, and bad weather.
    event: str = ""
    air: str = ""
    air_level: str = "parity"
    bad_weather: bool = False
    #: Objective hexes and the side that last held each ("" none yet).
    held: dict[str, str] = field(default_factory=dict)
    #: By side: each objective's holder as that side last saw it (`held` where it saw a unit
    #: standing at the end of a game turn, the start's holders otherwise), which is what its
    #: reports and sheets show: a holder that changed out of its sight is not its to know.
    known: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Between an impulse sheet and its reaction: the attacks declared, the units that moved.
    pending: list[Attack] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    #: The phasing player declared on an impulse sheet of this player turn that he takes no
    #: further impulse: its later impulses are skipped (reset when the player turn ends).
    last_impulse: bool = False
    #: Units eliminated so far (a replacement brings one back), and the sides that see every
    #: enemy unit for the rest of this game turn (information or air superiority).
    lost: list[Unit] = field(default_factory=list)
    sees_all: list[str] = field(default_factory=list)
    #: Reinforcements of the scenario already placed.
    arrived: list[str] = field(default_factory=list)
    #: Guerrillas raised by a random event, waiting for their owner's next first impulse
    #: (no hex yet; the referee may place them by giving them one on the master workbook).
    placing: list[Unit] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    #: The events of this game turn's exchanges before the last (its events are `events`):
    #: what a sheet's "this game turn so far" tells, each side what it was told.
    earlier: list[Event] = field(default_factory=list)
    dice: list[Any] = field(default_factory=list)
    finished: str = ""
    #: In a side's view (`visibility.side_view`): the side whose view it is; "" in the state.
    viewer: str = ""

    def side(self, name: str) -> SideState:
        return next(s for s in self.sides if s.name == name)

    def side_of(self, player: str) -> SideState | None:
        return next((s for s in self.sides if s.player == player), None)

    @property
    def first(self) -> SideState:
        return self.side(self.scenario.first)

    @property
    def second(self) -> SideState:
        return next(s for s in self.sides if s.name != self.scenario.first)

    @property
    def phasing(self) -> SideState:
        """The side whose player turn it is."""
        return self.first if self.point.player_turn == 1 else self.second

    @property
    def reacting(self) -> SideState:
        return self.second if self.point.player_turn == 1 else self.first

    def unit(self, uid: str) -> Unit | None:
        return next((u for u in self.units if u.id == uid), None)


def assign_sides(
    scenario: Scenario, players: Sequence[PlayerSetup]
) -> list[tuple[str, PlayerSetup]]:
    """Which player commands which side: the side named in the players file (its
    ``homeworld`` column), else the sides in the scenario's order."""
    if len(players) != 2:
        raise SetupError(
            f"Millennium Wars is played by 2 players; the players file has {len(players)}"
        )
    names = [s.name for s in scenario.sides]
    asked = [p.homeworld.strip() for p in players]
    for p, side in zip(players, asked, strict=True):
        if side and side not in names:
            raise SetupError(
                f"{p.name} asks for the side {side!r}; the scenario's sides are "
                f"{' and '.join(names)}"
            )
    if asked[0] and asked[0] == asked[1]:
        raise SetupError(f"both players ask for {asked[0]}")
    if asked[0] or asked[1]:
        known = asked[0] or next(n for n in names if n != asked[1])
        other = next(n for n in names if n != known)
        return [(known, players[0]), (other, players[1])]
    return [(names[0], players[0]), (names[1], players[1])]


def new_state(
    scenario: Scenario, players: Sequence[PlayerSetup], game_name: str, game_id: str
) -> State:
    """The state before the first exchange: the scenario's units in place, its levels."""
    sides = []
    for name, player in assign_sides(scenario, players):
        side = scenario.side(name)
        sides.append(
            SideState(
                name,
                player.name,
                player.email,
                side.nato,
                side.c4i,
                side.c4i,
                side.air_defence,
            )
        )
    units = [replace(u) for u in scenario.units]
    # An objective starts held by the side whose unit stands in it, or whose country it is in.
    held = {}
    for hex_ in scenario.objectives:
        there = [u.side for u in units if u.hex == hex_ and not u.kind.naval]
        held[hex_] = there[0] if there else scenario.countries.get(hex_, "")
    return State(
        game_name,
        game_id,
        scenario,
        Point(1),
        scenario.political_index,
        sides,
        units,
        held=held,
        # The start is the scenario's, which both players read: both know every holder.
        known={side.name: dict(held) for side in sides},
    )


def exchange_words(state: State) -> str:
    """The exchange in words: whose sheet, which impulse of which game turn."""
    point = state.point
    if state.finished:
        return "The game is over"
    if point.ceasefire:
        return f"Turn {point.turn}: the UN demands a ceasefire"
    which = f"Turn {point.turn}, {state.phasing.name}'s player turn, impulse {point.impulse}"
    return f"{which}: {state.reacting.name}'s reaction" if point.reaction else which


def unit_line(unit: Unit, state: State) -> str:
    """A unit as the sheets and reports list it: id, type and size, strengths, where."""
    place = state.scenario.places.get(unit.hex)
    where = f"{unit.hex} {place.name}" if place else unit.hex or "eliminated"
    marks = [
        m
        for m, on in (
            ("disrupted", unit.disrupted),
            ("ops complete", unit.ops_complete),
            ("reserve", unit.reserve),
        )
        if on
    ]
    size = unit.symbol if unit.size != "cadre" else "cadre"
    return (
        f"{unit.id:<8} {unit.type} {size}  {unit.attack}-{unit.defence}-{unit.speed}  at {where}"
        + (f"  ({', '.join(marks)})" if marks else "")
    )


__all__ = ["SideState", "State", "assign_sides", "exchange_words", "new_state", "unit_line"]
