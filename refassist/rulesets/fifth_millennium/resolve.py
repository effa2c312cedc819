"""One Fifth Millennium turn: state + orders + dice -> next state and its events.

`resolve_turn` never changes its input: it works on ``state.copy()`` and returns a
`Resolution`, so a turn can be re-run from the archive and give the same state (the lifecycle
tests compare the JSON exports).  The phases run in the rules' order (section 3.0), with the
orders' diplomacy first and civil unrest between departures and production:

    orders      messages delivered, treaties/trade proposed, ended, war declared
    arrivals    flights due this year emerge; probes report
    conflict    battles, captures, class drops, fallen homeworlds, surrenders
    departures  moves in sheet order
    unrest      civil unrest and declarations of independence
    production  income, technology, trade, upkeep, purchases, stockpile
    end         players eliminated, victory

The set-up year (5000) places the homeworlds chosen on the set-up sheets instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dice import Dice
from ...errors import GameError
from ...geometry.hexmap import distance, parse_hex
from ..base import Resolution
from . import conflict, diplomacy, movement, production, unrest, victory
from .context import TurnContext
from .orders import Orders
from .setup import assign_homeworlds, place_homeworld
from .state import SETUP_YEAR, State
from .visibility import update_sightings

PHASE_ORDERS = "orders"
PHASE_SETUP = "setup"


def resolve_turn(
    state: State, orders: Mapping[str, Orders], dice: Dice, rules: Mapping[str, Any]
) -> Resolution:
    """Resolve ``state.year`` with the players' ``orders`` (received order) and ``dice``."""
    if state.finished:
        raise GameError(f"the game is over ({state.finished}); there is no turn to resolve")
    previous = list(state.events)
    ctx = TurnContext(state=state.copy(), dice=dice, rules=rules, year=state.year)
    valid = _usable_orders(ctx, orders)
    ctx.adjustments = production.hand_adjustments(state, previous)
    if ctx.year == SETUP_YEAR:
        setup_turn(ctx, valid)
    else:
        play_turn(ctx, valid, previous)
    work = ctx.state
    update_sightings(work, ctx.year, ctx.rules)
    work.year += 1
    work.events = list(ctx.events)
    work.dice = list(dice.log)
    work.normalise()
    return Resolution(state=work, events=list(ctx.events), summary=summary(ctx))


def _usable_orders(ctx: TurnContext, orders: Mapping[str, Orders]) -> dict[str, Orders]:
    """Orders of players still in the game, keeping the received order; others are noted for
    the referee only."""
    out: dict[str, Orders] = {}
    active = set(ctx.state.active_players())
    for player, player_orders in orders.items():
        if player in active:
            out[player] = player_orders
        else:
            ctx.emit(
                PHASE_ORDERS,
                "",
                "order_ignored",
                f"Orders from {player!r} were ignored: not a player still in the game.",
                data={"player": player},
            )
    return out


def play_turn(ctx: TurnContext, orders: dict[str, Orders], previous: list[Any]) -> None:
    """The phases of a normal turn, in order."""
    for player in ctx.state.active_players():
        if player not in orders:
            ctx.tell(
                player,
                PHASE_ORDERS,
                "",
                "no_orders",
                f"No orders were received from you for {ctx.year}: your fleets stayed where "
                "they were and nothing was bought.",
            )
    diplomacy.deliver_messages(ctx, orders)
    diplomacy.apply_diplomacy(ctx, orders)
    ctx.bomb_orders = {(b.hex, p) for p, o in orders.items() for b in o.bombing}
    movement.arrivals(ctx)
    conflict.resolve_conflicts(ctx)
    movement.departures(ctx, orders)
    unrest.civil_unrest(ctx, previous)
    production.production(ctx, orders)
    victory.eliminate(ctx)
    victory.check_victory(ctx)


def setup_turn(ctx: TurnContext, orders: dict[str, Orders]) -> None:
    """Year 5000: place the homeworlds chosen on the set-up sheets.

    Each choice must be a class A system at least ``homeworld_min_distance`` from every other
    homeworld.  House rule ``homeworld_conflicts``: with "earlier-sheet" the sheets are taken
    in the order they were received and a later choice too close to an earlier one is refused;
    with "referee" every choice in conflict is refused.  Refused or missing choices are
    assigned by the tool (`setup.assign_homeworlds`, a logged die roll).  Players whose
    homeworld was fixed when the game was created keep it.
    """
    state = ctx.state
    min_distance = int(ctx.rules["homeworld_min_distance"])
    fixed = {p.name: p.homeworld for p in state.players if p.homeworld}
    wanted: list[tuple[str, str, str]] = []
    for player, player_orders in orders.items():
        if player in fixed or not player_orders.homeworld:
            continue
        text = player_orders.homeworld
        try:
            hex_ = parse_hex(text)
        except ValueError:
            _refuse(ctx, player, text, player_orders.homeworld_cell, "it is not a hex id")
            continue
        system = state.system(hex_)
        if system is None:
            _refuse(ctx, player, text, player_orders.homeworld_cell, "no star system is there")
            continue
        if system.resource_class != "A":
            _refuse(
                ctx,
                player,
                text,
                player_orders.homeworld_cell,
                f"{hex_} {system.name} is class {system.resource_class}, not class A",
            )
            continue
        if any(distance(hex_, h) < min_distance for h in fixed.values()):
            _refuse(ctx, player, text, player_orders.homeworld_cell, _too_close(min_distance))
            continue
        wanted.append((player, hex_, player_orders.homeworld_cell))
    chosen = dict(fixed)
    if ctx.rules["homeworld_conflicts"] == "referee":
        clashing = {
            p
            for p, h, _ in wanted
            for q, g, _ in wanted
            if p != q and distance(h, g) < min_distance
        }
        for player, hex_, cell in wanted:
            if player in clashing:
                _refuse(ctx, player, hex_, cell, _too_close(min_distance))
            else:
                chosen[player] = hex_
    else:
        for player, hex_, cell in wanted:
            if any(distance(hex_, h) < min_distance for h in chosen.values()):
                _refuse(ctx, player, hex_, cell, _too_close(min_distance))
            else:
                chosen[player] = hex_
    missing = [p.name for p in state.players if p.name not in chosen]
    mark = ctx.dice_mark()
    assigned = assign_homeworlds(state, chosen, missing, min_distance, ctx.dice) if missing else {}
    seqs = ctx.dice_since(mark)
    squadrons = int(ctx.rules["start_squadrons"])
    for player in state.player_names():
        if player in fixed:
            continue
        hex_ = chosen.get(player) or assigned[player]
        place_homeworld(state, player, hex_, squadrons)
        system = state.system(hex_)
        assert system is not None
        how = "assigned by the referee's dice" if player in assigned else "as you chose"
        ctx.tell(
            player,
            PHASE_SETUP,
            hex_,
            "homeworld",
            f"Your homeworld is {hex_} {system.name} ({how}), with {squadrons} Fleet squadrons.",
            data={"player": player, "hex": hex_, "assigned": player in assigned},
            dice=seqs if player in assigned else (),
        )


def _too_close(min_distance: int) -> str:
    return f"it is within {min_distance - 1} hexes of another player's homeworld"


def _refuse(ctx: TurnContext, player: str, text: str, cell: str, reason: str) -> None:
    movement.cancel(ctx, PHASE_SETUP, player, f"homeworld {text}", cell, reason)


def summary(ctx: TurnContext) -> str:
    """One line for the referee: battles, captures, leader."""
    battles = sum(1 for e in ctx.events if e.kind == "battle")
    captures = sum(1 for e in ctx.events if e.kind == "capture" and e.data.get("from"))
    occupied = sum(1 for e in ctx.events if e.kind == "capture" and not e.data.get("from"))
    name, count = victory.leader([s.owner for s in ctx.state.systems])
    text = (
        f"{battles} battle{'s' if battles != 1 else ''}, "
        f"{captures} capture{'s' if captures != 1 else ''}, {occupied} newly occupied"
    )
    if name:
        text += f"; leader {name} with {count} system{'s' if count != 1 else ''}"
    if ctx.state.finished:
        text += f"; {ctx.state.finished}"
    return text
