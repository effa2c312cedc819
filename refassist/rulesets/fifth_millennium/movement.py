"""Interstellar movement (section 4, Appendix B): arrivals, probes, departures.

Phase 1 (arrivals) takes every flight due this year out of hyperspace: fleets join their owner's
squadrons at the destination, probes report what they find and may be detected (1 in 6 per
enemy squadron), and a flight that can no longer end its journey legally (its refueling station
is gone, its drive was never able to reach, the hex is off the map) is lost, as section 4.1 says
of fleets that overrun their drives.  Phase 3 (departures) carries out each player's moves in
sheet order, checking again what the checker could only judge before the battles: squadrons
that fought this turn may not leave, and what remains at the origin must cover the fleet.

The journey arithmetic (speed, years, best range, where a fleet may end) lives in
`movement_rules`, shared with the order checker so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...geometry.hexmap import SECTOR, distance
from .conflict import settle_ownership
from .context import (
    TurnContext,
    add_force,
    drop_empty_forces,
    find_force,
    ready_fleet,
    take_force,
)
from .movement_rules import best_range, can_arrive_at, journey_years, max_departures
from .notation import fleet_text, move_text
from .orders import Move, Orders
from .state import Fleet, Flight
from .visibility import force_text, record_sighting, sighting_of, visible_facilities

PHASE_ARRIVALS = "arrivals"
PHASE_DEPARTURES = "departures"

#: A probe is detected by a squadron rolling this or more on one die ("1 in 6").
PROBE_DETECTION_ROLL = 6


# -- arrivals -------------------------------------------------------------------------------------


def flight_problem(ctx: TurnContext, flight: Flight) -> str:
    """Why a fleet cannot end its journey (empty when it can)."""
    state = ctx.state
    owner = state.player(flight.owner)
    if owner is None or owner.eliminated:
        return "its owner is out of the game"
    if not SECTOR.contains(flight.destination):
        return "travel off the map is not possible"
    if not can_arrive_at(state, flight.owner, flight.destination):
        return (
            f"{flight.destination} holds no star system and no refueling station of yours, "
            "so the fleet could not emerge"
        )
    reach = best_range(owner, ctx.rules)
    if distance(flight.origin, flight.destination) > reach:
        return f"the journey was longer than {reach} hexes and the drives overloaded"
    return ""


def arrivals(ctx: TurnContext) -> None:
    """Phase 1: every flight due this year (or overdue) leaves hyperspace."""
    state = ctx.state
    due = sorted((f for f in state.flights if f.arrival <= ctx.year), key=lambda f: f.id)
    state.flights[:] = [f for f in state.flights if f.arrival > ctx.year]
    ctx.refresh_sight()
    for flight in due:
        if flight.probe:
            probe_arrival(ctx, flight)
            continue
        reason = flight_problem(ctx, flight)
        if reason:
            ctx.tell(
                flight.owner,
                PHASE_ARRIVALS,
                flight.destination,
                "flight_lost",
                f"Your fleet {fleet_text(flight.fleet)} from {flight.origin} to "
                f"{flight.destination} was lost: {reason}.",
                data={"flight": flight.id, "reason": reason, "fleet": flight.fleet.as_dict()},
            )
            continue
        add_force(state, flight.destination, flight.owner, flight.fleet)
        here = ctx.arrivals.setdefault(flight.destination, {})
        here[flight.owner] = here.get(flight.owner, Fleet()) + flight.fleet
        system = state.system(flight.destination)
        if system is None:  # a refueling station in deep space
            key = (flight.destination, flight.owner)
            ctx.refuelled[key] = ctx.refuelled.get(key, 0) + flight.fleet.squadrons
            onlookers: set[str] = set()
            where = f"the refueling station at {flight.destination}"
        else:
            onlookers = ctx.viewers(flight.destination) - {flight.owner}
            where = f"{flight.destination} {system.name}"
        text = f"{flight.owner}'s fleet {fleet_text(flight.fleet)} arrived at {where}."
        ctx.tell(
            flight.owner,
            PHASE_ARRIVALS,
            flight.destination,
            "arrival",
            text,
            data={
                "owner": flight.owner,
                "fleet": flight.fleet.as_dict(),
                "origin": flight.origin,
                "flight": flight.id,
            },
        )
        if onlookers:  # they see the fleet emerge, not where it came from
            ctx.emit(
                PHASE_ARRIVALS,
                flight.destination,
                "arrival",
                text,
                players=(flight.owner,),
                visible_to=onlookers,
                data={"owner": flight.owner, "fleet": flight.fleet.as_dict()},
            )


def probe_arrival(ctx: TurnContext, flight: Flight) -> None:
    """A probe reports the destination's contents to its owner, then self-destructs.

    Each squadron (monitors included) of every other player present, treaty partners apart,
    rolls one die; a 6 detects the probe and tells that player who sent it.  A player stops
    rolling at its first detection (the answer cannot change).
    """
    state = ctx.state
    hex_ = flight.destination
    owner = flight.owner
    system = state.system(hex_)
    if system is None:
        ctx.tell(
            owner,
            PHASE_ARRIVALS,
            hex_,
            "probe_report",
            f"Your probe reached {hex_}: empty space, nothing to report.",
            data={"hex": hex_, "owner": "", "forces": [], "class": "", "facilities": []},
        )
        return
    forces = sorted(state.forces_at(hex_), key=lambda f: (f.owner, f.building))
    ctx.tell(
        owner,
        PHASE_ARRIVALS,
        hex_,
        "probe_report",
        f"Your probe reached {hex_} {system.name}: class {system.resource_class}, "
        f"owner {system.owner or 'none'}; "
        + ("; ".join(force_text(f) for f in forces) or "no squadrons")
        + ".",
        data={
            "hex": hex_,
            "name": system.name,
            "owner": system.owner,
            "forces": [force_text(f) for f in forces],
            "class": system.resource_class,
            "naval_base": system.naval_base,
            "scout_base": system.scout_base,
            "hipop": system.hipop,
            "facilities": visible_facilities(state, hex_, owner),
        },
    )
    record_sighting(state, sighting_of(state, owner, hex_, ctx.year))
    watchers: dict[str, int] = {}
    for force in forces:
        if force.owner in ("", owner) or force.building or ctx.has_treaty(force.owner, owner):
            continue
        watchers[force.owner] = watchers.get(force.owner, 0) + force.fleet.squadrons + force.M
    with ctx.dice.at(phase=PHASE_ARRIVALS, location=hex_):
        for player in sorted(watchers):
            mark = ctx.dice_mark()
            rolls = []
            for n in range(1, watchers[player] + 1):
                die = ctx.dice.d6(f"probe detection, {player} squadron {n}")
                rolls.append(die)
                if die >= PROBE_DETECTION_ROLL:
                    break
            if rolls and rolls[-1] >= PROBE_DETECTION_ROLL:
                ctx.emit(
                    PHASE_ARRIVALS,
                    hex_,
                    "probe_detected",
                    f"Your squadrons at {hex_} {system.name} detected a probe sent by {owner}.",
                    players=(player, owner),
                    visible_to=(player,),
                    data={"probe_owner": owner, "rolls": rolls, "hex": hex_},
                    dice=ctx.dice_since(mark),
                )


# -- departures -----------------------------------------------------------------------------------


def cancel(ctx: TurnContext, phase: str, player: str, text: str, cell: str, reason: str) -> None:
    """Report an order that could not be carried out (to its player only)."""
    ctx.tell(
        player,
        phase,
        "",
        "order_cancelled",
        f"Your order {text!r} was cancelled: {reason}.",
        data={"order": text, "cell": cell, "reason": reason},
    )


def _move_text(move: Move) -> str:
    if move.text:
        return move.text
    return move_text(
        move.year, None if move.probe else move.fleet, move.origin, move.destination, move.arrival
    )


def departure_problem(ctx: TurnContext, player: str, move: Move, departures_so_far: int) -> str:
    """Why a move cannot depart now (empty when it can)."""
    state = ctx.state
    p = state.player(player)
    assert p is not None
    if move.year != ctx.year:
        return f"it is written for year {move.year}, but this is year {ctx.year}"
    for hex_ in (move.origin, move.destination):
        if not SECTOR.contains(hex_):
            return f"{hex_} is not a hex of the sector (travel off the map is not possible)"
    if move.origin == move.destination:
        return "the departure and destination hexes are the same"
    if move.probe:  # probes go anywhere on the map, at any distance
        force = find_force(state, move.origin, player)
        if force is None or force.P < 1:
            return f"you have no probe ready at {move.origin}"
        return ""
    if not can_arrive_at(state, player, move.destination):
        return f"{move.destination} holds no star system and no refueling station of yours"
    if departures_so_far >= max_departures(ctx.rules):
        return f"no more than {max_departures(ctx.rules)} departures may be made in a turn"
    if move.fleet.squadrons < 1:
        return "a fleet must carry at least one squadron"
    arrived_here = bool(ctx.arrivals.get(move.origin, {}).get(player))
    if (move.origin, player) in ctx.fought and (
        arrived_here or ctx.rules["fought_may_depart"] != "defenders"
    ):
        return f"squadrons that fought a battle at {move.origin} this turn cannot depart"
    reach = best_range(p, ctx.rules)
    if distance(move.origin, move.destination) > reach:
        return f"the journey is longer than the {reach} hexes your drives allow"
    have = ready_fleet(state, move.origin, player)
    if not have.covers(move.fleet):
        return (
            f"you have {fleet_text(have)} at {move.origin} now, which does not cover "
            f"{fleet_text(move.fleet)}"
        )
    return ""


def flight_id(ctx: TurnContext, player: str, number: int) -> str:
    """``5003-02-1``: year, the player's place in the game, and the move's number."""
    index = ctx.state.player_names().index(player) + 1
    return f"{ctx.year}-{index:02d}-{number}"


def departures(ctx: TurnContext, orders: Mapping[str, Orders]) -> None:
    """Phase 3: each player's moves in sheet order (players in game order)."""
    state = ctx.state
    origins: set[str] = set()
    for player in state.active_players():
        player_orders = orders.get(player)
        if player_orders is None:
            continue
        made = 0
        number = 0
        for move in player_orders.moves:
            text = _move_text(move)
            reason = departure_problem(ctx, player, move, made)
            if reason:
                cancel(ctx, PHASE_DEPARTURES, player, text, move.cell, reason)
                continue
            number += 1
            d = distance(move.origin, move.destination)
            if move.probe:
                force = find_force(state, move.origin, player)
                assert force is not None
                force.P -= 1
                fleet = Fleet()
                arrival = ctx.year + journey_years(d, probe=True)
            else:
                made += 1
                take_force(state, move.origin, player, move.fleet)
                fleet = move.fleet
                arrival = ctx.year + journey_years(d, move.fleet)
            flight = Flight(
                id=flight_id(ctx, player, number),
                owner=player,
                origin=move.origin,
                destination=move.destination,
                departed=ctx.year,
                arrival=arrival,
                fleet=fleet,
                probe=move.probe,
            )
            state.flights.append(flight)
            origins.add(move.origin)
            what = "probe" if move.probe else f"fleet {fleet_text(fleet)}"
            ctx.tell(
                player,
                PHASE_DEPARTURES,
                move.origin,
                "departure",
                f"Your {what} left {move.origin} for {move.destination}, arriving in {arrival}.",
                data={
                    "flight": flight.id,
                    "fleet": fleet.as_dict(),
                    "origin": move.origin,
                    "destination": move.destination,
                    "arrival": arrival,
                    "probe": move.probe,
                },
            )
        drop_empty_forces(state)
    for hex_ in sorted(origins):
        settle_ownership(ctx, hex_, PHASE_DEPARTURES)
    ctx.refresh_sight()


__all__ = [
    "arrivals",
    "departure_problem",
    "departures",
    "flight_problem",
    "probe_arrival",
]
