"""What the rule modules share while one turn is resolved: the working state and the bookkeeping.

`resolve.resolve_turn` copies the state once and hands every phase a `TurnContext`; the phase
functions (`movement`, `conflict`, `production`, ...) change the copy and append events here.
Keeping the turn's memory in one object (who fought where, which wars broke which agreements,
which squadrons refuelled at a station) is what lets each area live in its own module without
the modules calling each other in circles.

It also holds the helpers every phase needs for squadrons: forces are kept one per
``(hex, owner, building)`` as in the master workbook, so adding and taking squadrons always
goes through `add_force`/`take_force`, which merge and tidy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...dice import Dice
from ..base import Event
from ..turnlog import TurnLog
from .rules import complete
from .state import Facility, Fleet, Force, State


@dataclass
class TurnContext(TurnLog):
    """The working copy of the state, the dice, the rules and what happened so far this turn
    (its events and dice marks recorded as every game's are, `TurnLog`)."""

    state: State
    dice: Dice
    rules: Mapping[str, Any]
    year: int
    events: list[Event] = field(default_factory=list)
    #: ``(hex, player)`` pairs whose squadrons took part in a battle this turn.
    fought: set[tuple[str, str]] = field(default_factory=set)
    #: Fleets that emerged this turn: hex -> player -> squadrons that arrived.
    arrivals: dict[str, dict[str, Fleet]] = field(default_factory=dict)
    #: ``(aggressor, victim)`` pairs whose trade agreement was broken by war this turn.
    wars: set[tuple[str, str]] = field(default_factory=set)
    #: Trade agreements broken by war this turn, as sorted pairs (their last production).
    broken_trade: set[tuple[str, str]] = field(default_factory=set)
    #: Squadrons refuelled at a station this turn: ``(hex, owner)`` -> squadrons.
    refuelled: dict[tuple[str, str], int] = field(default_factory=dict)
    #: Stockpiles the referee changed by hand since the last turn's production closed them:
    #: player -> (the closing stockpile, the change).  The ledger shows the change, so the
    #: player's numbers add up from one report to the next.
    adjustments: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Technology levels before this turn's income raised any (purchases are judged by them).
    tech_at_start: dict[str, int] = field(default_factory=dict)
    #: ``(hex, player)``: the player ordered its SFBA levels at ``hex`` to bomb this turn.
    bomb_orders: set[tuple[str, str]] = field(default_factory=set)
    _sight: dict[str, frozenset[str]] | None = None
    #: Sight by what it depends on (`visibility.sight_of_players`), for this turn's map.
    _sight_memo: dict[Any, frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Every rule present, whoever made the context: the modules read ctx.rules[key].
        self.rules = complete(self.rules)

    @property
    def event_turn(self) -> int:
        return self.year

    # -- sight ----------------------------------------------------------------------------------
    def refresh_sight(self) -> None:
        """Forget the cached sight of every player (call after ownership changes)."""
        self._sight = None

    def sight(self, player: str) -> frozenset[str]:
        """Hexes ``player`` sees now (cached until `refresh_sight`)."""
        if self._sight is None:
            from .visibility import sight_of_players

            self._sight = sight_of_players(
                self.state, self.state.active_players(), self.rules, self._sight_memo
            )
        return self._sight.get(player, frozenset())

    def viewers(self, hex_: str) -> set[str]:
        """Active players who see ``hex_`` now."""
        return {p for p in self.state.active_players() if hex_ in self.sight(p)}

    # -- players --------------------------------------------------------------------------------
    def has_treaty(self, a: str, b: str) -> bool:
        return has_relation(self.state, "treaty", a, b)


def has_relation(state: State, kind: str, a: str, b: str) -> bool:
    """True when ``a`` and ``b`` have an agreement of ``kind`` in force."""
    x, y = sorted((a, b))
    return any(r.kind == kind and r.b == y for r in state.relations_of(x))


def at_peace(state: State, a: str, b: str) -> bool:
    """True when ``a`` and ``b`` must not fight: a treaty or a trade agreement is in place
    (5.0: a battle ensues "unless there is already a treaty or agreement in place")."""
    return has_relation(state, "treaty", a, b) or has_relation(state, "trade", a, b)


# -- squadrons ----------------------------------------------------------------------------------


def find_force(state: State, hex_: str, owner: str, *, building: bool = False) -> Force | None:
    return state.force(hex_, owner, building)


def add_force(
    state: State,
    hex_: str,
    owner: str,
    fleet: Fleet | None = None,
    *,
    M: int = 0,
    P: int = 0,
    building: bool = False,
) -> Force:
    """Add squadrons to the owner's force at a hex (one force per hex, owner and building)."""
    force = find_force(state, hex_, owner, building=building)
    if force is None:
        force = Force(hex=hex_, owner=owner, building=building)
        state.forces.append(force)
    if fleet is not None:
        force.fleet = force.fleet + fleet
    force.M += M
    force.P += P
    return force


def take_force(state: State, hex_: str, owner: str, fleet: Fleet) -> None:
    """Remove ``fleet`` from the owner's ready force at ``hex_`` (the caller checked it)."""
    force = find_force(state, hex_, owner)
    if force is None or not force.fleet.covers(fleet):
        raise ValueError(f"{owner} has not {fleet} at {hex_}")
    force.fleet = force.fleet - fleet
    drop_empty_forces(state, hex_)


def ready_fleet(state: State, hex_: str, owner: str) -> Fleet:
    """The owner's ready squadrons (and munitions) at a hex."""
    force = find_force(state, hex_, owner)
    return force.fleet if force is not None else Fleet()


def drop_empty_forces(state: State, hex_: str | None = None) -> None:
    """Remove the forces left with nothing (a system is held while its owner has a force
    there, so an empty one must not linger).

    With ``hex_``, only the forces at that hex are looked at: the callers that pass it
    (`take_force`, the battle's write-back) have just emptied forces there, and no rule leaves
    an empty force elsewhere between two such calls (a probe launch that empties a force is
    followed by a full pass at the end of the player's departures).  Scanning every force after
    every departure and battle was a quarter of a 64-player turn.
    """
    if hex_ is None:
        if any(f.is_empty() for f in state.forces):
            state.forces[:] = [f for f in state.forces if not f.is_empty()]
        return
    for force in [f for f in state.forces_at(hex_) if f.is_empty()]:
        state.forces.remove(force)


def complete_construction(state: State) -> None:
    """Items bought last production phase are finished: merge them into the ready forces."""
    building = [f for f in state.forces if f.building]
    state.forces[:] = [f for f in state.forces if not f.building]
    for force in building:
        add_force(state, force.hex, force.owner, force.fleet, M=force.M, P=force.P)
    finished = [f for f in state.facilities if f.building]
    state.facilities[:] = [f for f in state.facilities if not f.building]
    for facility in finished:
        add_facility(state, facility.hex, facility.owner, facility.kind, facility.count)


def add_facility(
    state: State, hex_: str, owner: str, kind: str, count: int = 1, *, building: bool = False
) -> None:
    """Add to a facility (GL, OPC and minefield points add up; others stay at 1)."""
    for facility in state.facilities_at(hex_):
        if facility.owner == owner and facility.kind == kind and facility.building == building:
            facility.count += count
            return
    state.facilities.append(
        Facility(hex=hex_, owner=owner, kind=kind, count=count, building=building)
    )


def facility_count(
    state: State, hex_: str, owner: str | None, kind: str, *, include_building: bool = False
) -> int:
    """How many of a facility kind are at a hex (any owner when ``owner`` is None)."""
    return sum(
        f.count
        for f in state.facilities_at(hex_)
        if f.kind == kind
        and (owner is None or f.owner == owner)
        and (include_building or not f.building)
    )
