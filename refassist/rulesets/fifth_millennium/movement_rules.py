"""Movement rules both the order checker and the resolution need, in one place.

The checker (`validate.py`) tells a player before the deadline whether a move will work; the
resolution (`movement.py`) carries it out.  If the two computed ranges, arrival years or what a
departure may take differently, a player could be told "accepted" and then lose the order, so
both import these functions instead of writing their own.

Rules implemented (section 4 and Appendix B of the rules, and the digest):

* a journey takes ``ceil(distance / speed)`` years; speed is 2 when every squadron of the fleet
  is Fast, else 1; probes always move 1 hex a year;
* the longest journey is the ``jump_range`` house rule (4), or ``enhanced_jump_range`` (7) once a
  player reaches TL3 (Enhanced Drive); probes have no limit;
* a fleet may end its journey in a hex with a star system, or at one of its owner's Deep Space
  Refueling Stations (one bought last turn counts: it is complete before any fleet ordered now
  can arrive);
* what may leave a hex: the owner's squadrons there (those bought last production phase are
  usable from this turn's departures phase) plus the owner's flights arriving there this year
  (they may leave again at once unless they fight, which only the resolution can know).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...geometry.hexmap import distance
from .orders import Move
from .rules import complete
from .state import Fleet, Player, State

#: Hexes a year: normal drives, and fleets made only of Fast squadrons.
NORMAL_SPEED = 1
FAST_SPEED = 2
#: Tech level that brings Enhanced Drive (longer journeys).
ENHANCED_DRIVE_TL = 3


def speed(fleet: Fleet | None, *, probe: bool = False) -> int:
    """Hexes a year: 2 when every squadron is Fast (Appendix B), else 1; probes move 1."""
    if probe or fleet is None:
        return NORMAL_SPEED
    return FAST_SPEED if fleet.all_fast else NORMAL_SPEED


def journey_years(hexes: int, fleet: Fleet | None = None, *, probe: bool = False) -> int:
    """Years a journey of ``hexes`` takes: ``ceil(hexes / speed)`` (at least 1 for a real move)."""
    if hexes <= 0:
        return 0
    step = speed(fleet, probe=probe)
    return -(-hexes // step)


def arrival_year(
    year: int, origin: str, destination: str, fleet: Fleet | None = None, *, probe: bool = False
) -> int:
    """The year a fleet (or probe) leaving ``origin`` in ``year`` arrives at ``destination``."""
    return year + journey_years(distance(origin, destination), fleet, probe=probe)


def move_arrival(move: Move) -> int:
    """The year a move (or a probe's launch) arrives by the rules, whatever the player wrote."""
    fleet = None if move.probe else move.fleet
    return arrival_year(move.year, move.origin, move.destination, fleet, probe=move.probe)


def best_range(player: Player | None, rules: Mapping[str, Any]) -> int:
    """Longest journey a player's squadrons can make: 4, or 7 from TL3 (house rules)."""
    if player is not None and player.tech_level >= ENHANCED_DRIVE_TL:
        return int(complete(rules)["enhanced_jump_range"])
    return int(complete(rules)["jump_range"])


def max_departures(rules: Mapping[str, Any]) -> int:
    """Most fleet departures a player may make in one turn (probes do not count)."""
    return int(complete(rules)["max_departures"])


def has_station(state: State, player: str, hex_: str) -> bool:
    """True when ``player`` owns a Deep Space Refueling Station at ``hex_`` (built or building)."""
    return any(f.hex == hex_ and f.owner == player and f.kind == "DSRS" for f in state.facilities)


def can_arrive_at(state: State, player: str, hex_: str) -> bool:
    """A fleet must emerge at a star system or at its owner's refueling station (section 4.1)."""
    return state.system(hex_) is not None or has_station(state, player, hex_)


def arriving_at(state: State, player: str, hex_: str, year: int) -> Fleet:
    """Squadrons of ``player`` in flights arriving at ``hex_`` in ``year`` (probes excluded)."""
    total = Fleet()
    for flight in state.flights:
        if (
            flight.owner == player
            and flight.destination == hex_
            and flight.arrival == year
            and not flight.probe
        ):
            total = total + flight.fleet
    return total


def present_at(state: State, player: str, hex_: str) -> Fleet:
    """Squadrons (and carried munitions) of ``player`` at ``hex_``, ready or finished building.

    Monitors and probes are not part of a fleet designation and are not included.
    """
    total = Fleet()
    for force in state.forces:
        if force.owner == player and force.hex == hex_:
            total = total + force.fleet
    return total


def available_to_depart(state: State, player: str, hex_: str, year: int) -> Fleet:
    """What ``player`` may send away from ``hex_`` in the departures phase of ``year``.

    Squadrons present (including those bought last production phase) plus the player's own
    flights arriving there this year.  Battles may reduce this; the resolution cancels and
    reports an order that no longer fits, the checker can only judge the best case.
    """
    return present_at(state, player, hex_) + arriving_at(state, player, hex_, year)


def probes_at(state: State, player: str, hex_: str) -> int:
    """Probe swarms of ``player`` waiting to launch at ``hex_``."""
    return sum(f.P for f in state.forces if f.owner == player and f.hex == hex_)


def monitors_at(state: State, player: str, hex_: str) -> int:
    """Monitor squadrons of ``player`` at ``hex_`` (they never move)."""
    return sum(f.M for f in state.forces if f.owner == player and f.hex == hex_)
