"""The production phase (section 6, Appendix A and B): income, trade, upkeep, purchases.

For each player still in the game, in game order:

1. Income from every owned system: its resource class (A 5 ... X 0), +1 naval base, +1 scout
   base, +1 HiPop, +1 per Genetics Lab and per Orbital Production Centre, and +10 for each
   subsector of which the player owns every system.  A player whose homeworld has fallen gains
   nothing (trade included) unless it holds a Construction Facility or a Depot (section 7.0).
2. Technology: the turn's income unlocks TL2 and TL3 at the house-rule thresholds.
3. Trade (`trade`), and the forfeits of agreements broken by war, paid from the
   aggressor's income of the turn (house rule ``war_forfeit``: or its whole budget).
4. Refueling station upkeep: 1 point per squadron that refuelled there this turn, paid before
   anything is bought; a station whose upkeep cannot be paid is lost (App. B), the squadrons
   waiting at it stay in the empty hex (house rule ``station_loss``: or are lost with it).
5. Purchases in sheet order while the budget lasts: a line that costs more than what is left
   buys as many as can be paid for; the rest of it, and (house rule
   ``purchases_after_shortfall`` = "cancelled") every later line, is cancelled and reported.
   Each line is checked again against the state after the battles (the world may have fallen).
6. What is left is stockpiled, at the homeworld or at a named Construction Facility or Depot.

Everything bought is under construction until after next turn's battles (`context.
complete_construction`): it does not fight, and falls with its world.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...geometry.hexmap import SECTOR, distance, parse_hex
from ...text.words import counted
from .budget import income_blocked, income_lines
from .context import (
    TurnContext,
    add_facility,
    add_force,
    facility_count,
    find_force,
    take_force,
)
from .items import Item, find_item, placement
from .movement import cancel
from .movement_rules import best_range
from .orders import Orders, Purchase
from .rules import complete
from .state import FACILITY_KINDS, Fleet, State
from .trade import TradeResult, multiplier_text, roll_all

PHASE = "production"
#: Facility kinds of Appendix A's "either a control centre and/or a construction facility, or
#: a depot, but not both" (the backup seats of government).
SEATS = ("CC", "CF", "DEPOT")
SEAT_NAMES = {"CC": "Control Centre", "CF": "Construction Facility", "DEPOT": "Depot"}


# -- purchases ------------------------------------------------------------------------------------


def purchase_problem(
    state: State,
    player: str,
    item: Item | None,
    location: str,
    rules: Mapping[str, Any],
    tech_level: int | None = None,
) -> str:
    """Why a purchase cannot be placed (empty when it can); quantity and cost are not judged.

    ``tech_level``: the level the sheet was written at (the start of the turn); a level this
    turn's income unlocks is for next turn's sheet, as the report and the checker say."""
    p = state.player(player)
    assert p is not None
    if item is None:
        return "there is no such item"
    level = p.tech_level if tech_level is None else tech_level
    if item.tech_level > level:
        return f"{item.name} needs technology level {item.tech_level}; you have {level}"
    if not SECTOR.contains(location):
        return f"{location} is not a hex of the sector"
    system = state.system(location)
    if item.placement == "deep":
        if system is not None:
            return "a refueling station must be in a hex without a star system"
        if facility_count(state, location, player, "DSRS", include_building=True):
            return f"you already have a refueling station at {location}"
        reach = best_range(p, rules)
        if not any(distance(location, s.hex) <= reach for s in state.systems if s.owner == player):
            return f"{location} is more than {reach} hexes from every world you own"
        return ""
    if system is None and facility_count(state, location, player, "DSRS"):
        return station_problem(state, player, item, location, rules)
    if system is None or system.owner != player:
        return f"you do not own a system at {location}"
    if placement(item, rules) in ("ftl", "upgrade") and not (
        system.resource_class == "A" or facility_count(state, location, player, "DOCK")
    ):
        return (
            f"{item.name} can only be built at a class A world or one with a spacedock; "
            f"{location} is class {system.resource_class}"
        )
    if item.placement == "monitor" and system.resource_class not in ("A", "B", "C"):
        return f"monitors may only be built at class A, B or C worlds; {location} is class " + (
            system.resource_class
        )
    if item.becomes in SEATS:
        return seat_problem(state, player, item.becomes, location, rules)
    return ""


#: Facilities that improve a world's production, so they need a world to stand on.
WORLD_ONLY = ("GL", "OPC")


def station_problem(
    state: State, player: str, item: Item, location: str, rules: Mapping[str, Any]
) -> str:
    """6.2: "You cannot build items in systems you do not own (exception, deep space hexes
    with refueling centres)": at one's own finished refueling station an item may be built
    unless it needs a world (a Genetics Lab, an Orbital Production Centre, a monitor) or, for
    squadrons and upgrades, a spacedock is missing (as at a world that is not class A)."""
    if item.becomes in WORLD_ONLY or item.placement == "monitor":
        return f"{item.name} needs a world; {location} is deep space (your refueling station)"
    if placement(item, rules) in ("ftl", "upgrade") and not facility_count(
        state, location, player, "DOCK"
    ):
        return (
            f"{item.name} can only be built at a class A world or one with a spacedock; "
            f"{location} is your refueling station in deep space, without a spacedock"
        )
    if item.becomes in SEATS:
        return seat_problem(state, player, item.becomes, location, rules)
    return ""


def seat_problem(
    state: State, player: str, kind: str, location: str, rules: Mapping[str, Any]
) -> str:
    """A Control Centre and/or Construction Facility, or a Depot, not both (Appendix A).

    House rule ``seat_exclusivity`` (shared with the order checker): ``empire`` (default)
    applies this to the whole empire and allows one of each; ``system`` applies it per system.
    """
    per_empire = complete(rules)["seat_exclusivity"] == "empire"
    kinds = {
        f.kind
        for f in state.facilities
        if f.owner == player and f.kind in SEATS and (per_empire or f.hex == location)
    }
    region = "your empire" if per_empire else location
    if (kind == "DEPOT" and kinds & {"CC", "CF"}) or (kind != "DEPOT" and "DEPOT" in kinds):
        return (
            f"{region} may have a Control Centre and/or a Construction Facility, or a Depot, "
            "but not both"
        )
    if per_empire and kind in kinds:
        return f"you already have a {SEAT_NAMES[kind]}; an empire has only one"
    return ""


def _limit_left(state: State, player: str, item: Item, location: str) -> int | None:
    """How many more of a limited item fit at ``location`` (None when unlimited)."""
    if not item.limit or item.becomes not in FACILITY_KINDS:
        return None
    have = facility_count(state, location, player, item.becomes, include_building=True)
    return max(0, item.limit - have)


def build(state: State, player: str, item: Item, location: str, quantity: int) -> None:
    """Put ``quantity`` of an item under construction at ``location``."""
    what = item.becomes
    if item.placement == "upgrade":
        take_force(state, location, player, Fleet(F=quantity))
        add_force(state, location, player, Fleet(**{what: quantity}), building=True)
    elif what in FACILITY_KINDS:
        add_facility(state, location, player, what, quantity, building=True)
    elif what == "M":
        add_force(state, location, player, M=quantity, building=True)
    elif what == "P":
        add_force(state, location, player, P=quantity, building=True)
    else:
        add_force(state, location, player, Fleet(**{what: quantity}), building=True)


def _purchase_text(purchase: Purchase) -> str:
    return purchase.text or f"{purchase.quantity} x {purchase.item} at {purchase.location}"


# -- the phase ------------------------------------------------------------------------------------


def hand_adjustments(state: State, previous: Sequence[Any]) -> dict[str, tuple[int, int]]:
    """Stockpiles that differ from what the last turn's production left (``previous`` is that
    turn's events, kept in the master): the referee changed them by hand between turns.
    Player -> (the closing stockpile, the change)."""
    out: dict[str, tuple[int, int]] = {}
    for event in previous:
        if getattr(event, "kind", "") != "production" or len(event.players) != 1:
            continue
        closing = event.data.get("stockpile_after")
        p = state.player(event.players[0])
        if p is None or not isinstance(closing, int) or isinstance(closing, bool):
            continue
        if p.stockpile != closing:
            out[p.name] = (closing, p.stockpile - closing)
    return out


def production(ctx: TurnContext, orders: Mapping[str, Orders]) -> None:
    """Phase 4 for every player still in the game."""
    state = ctx.state
    trades = roll_all(ctx)
    payments = war_payments(ctx, trades)
    ctx.tech_at_start = {p.name: p.tech_level for p in state.players}
    for player in state.active_players():
        player_production(ctx, player, orders.get(player), trades, payments)


def _one_sided_war(ctx: TurnContext, aggressor: str, victim: str) -> bool:
    return (aggressor, victim) in ctx.wars and (victim, aggressor) not in ctx.wars


def _ordinary_trade(ctx: TurnContext, player: str, trades: list[TradeResult]) -> int:
    """What ``player`` gains this turn from its agreements that no war broke.

    A broken agreement is left out: its aggressor gains nothing from it, and what its victim
    gains is the payment being decided alongside this one, so counting it could promise the
    victim points its aggressor never receives."""
    if income_blocked(ctx.state, player):
        return 0
    return sum(t.points[player] for t in trades if player in (t.a, t.b) and not t.broken)


def forfeit_means(ctx: TurnContext, aggressor: str, trades: list[TradeResult]) -> int:
    """What an aggressor's war forfeits (6.31a) are paid from this turn.

    "Taken directly from the agressor's production total": by default (house rule
    ``war_forfeit = "production"``) the production total is the turn's income, the resource
    points its systems and subsector bonuses yield (6.0 "the resource points are totalled"),
    not the stockpile kept from earlier turns nor trade (6.3 calls that "resources (trade)",
    apart from production); nothing when the homeworld has fallen and the income is blocked.
    ``"whole-budget"`` (the earlier reading) pays from the stockpile, the income and the
    trade of agreements no war broke.  Never below 0."""
    state = ctx.state
    p = state.player(aggressor)
    if p is None:
        return 0
    blocked = bool(income_blocked(state, aggressor))
    income = 0 if blocked else sum(points for _, points in income_lines(state, aggressor))
    if ctx.rules["war_forfeit"] == "production":
        return income
    return max(0, p.stockpile + income + _ordinary_trade(ctx, aggressor, trades))


def share_out(means: int, owed: Mapping[str, int]) -> dict[str, int]:
    """Share ``means`` points among victims owed ``owed``: each in full when they fit, else pro
    rata by what each is owed (largest remainder method).

    6.31a gives no order among several victims of one aggressor, and any order (by name, by
    sheet line) would favour one of them for no reason of the rules.  Each victim first gets
    the whole points of its exact share ``means * owed / total``; the few points left go one
    each to the largest fractions, equal fractions in name order, so a referee can check the
    split by hand and every run gives the same one.  Nobody gets more than it is owed."""
    total = sum(owed.values())
    if total <= means:
        return dict(owed)
    shares = {victim: means * amount // total for victim, amount in owed.items()}
    left = means - sum(shares.values())
    by_fraction = sorted(owed, key=lambda victim: (-(means * owed[victim] % total), victim))
    for victim in by_fraction[:left]:
        shares[victim] += 1
    return shares


def war_payments(ctx: TurnContext, trades: list[TradeResult]) -> dict[tuple[str, str], int]:
    """6.31a: the victim of a declaration of war gains its trade of the turn "taken directly
    from the aggressor's production total" (never negative, nothing while the victim's own
    income is blocked).  The aggressor pays out of `forfeit_means`; several victims share it
    (`share_out`) when it cannot pay them all.  ``(aggressor, victim)`` -> points paid, the
    one figure both sides' ledgers use, so the victim gains exactly what the aggressor pays."""
    state = ctx.state
    owed: dict[str, dict[str, int]] = {}
    for t in trades:
        if not t.broken:
            continue
        for aggressor, victim in ((t.a, t.b), (t.b, t.a)):
            if _one_sided_war(ctx, aggressor, victim):
                # What the victim "would be entitled to normally": nothing while its own
                # income is blocked (a fallen homeworld), never a negative amount.
                entitled = 0 if income_blocked(state, victim) else max(0, t.points[victim])
                owed.setdefault(aggressor, {})[victim] = entitled
    payments: dict[tuple[str, str], int] = {}
    for aggressor, debts in sorted(owed.items()):
        shares = share_out(forfeit_means(ctx, aggressor, trades), debts)
        for victim, paid in sorted(shares.items()):
            payments[(aggressor, victim)] = paid
    return payments


def _trade_lines(
    ctx: TurnContext,
    player: str,
    trades: list[TradeResult],
    blocked: bool,
    payments: Mapping[tuple[str, str], int],
) -> tuple[list[tuple[str, int]], int]:
    """Trade gained (and war forfeits paid) by ``player``; emits the trade events."""
    lines: list[tuple[str, int]] = []
    forfeit = 0
    for t in trades:
        if player not in (t.a, t.b):
            continue
        partner = t.b if player == t.a else t.a
        gained = t.points[player]
        note = ""
        if t.broken and (player, partner) in ctx.wars:
            note = f"forfeited to {partner} (you went to war)"
            forfeit += payments.get((player, partner), 0)
            gained = 0
        elif t.broken and _one_sided_war(ctx, partner, player) and not blocked:
            # 6.31a: the victim's trade comes out of the aggressor's production, so the
            # victim gains what the aggressor could pay, and never a negative amount.
            gained = payments.get((partner, player), 0)
            note = f"paid by {partner}, who went to war"
            if gained < max(0, t.points[player]):
                note += f"; {partner} could pay only {gained} of {t.points[player]}"
        elif blocked:
            note = "no income while your homeworld is lost"
            gained = 0
        lines.append((f"trade with {partner}" + (f" ({note})" if note else ""), gained))
        ctx.emit(
            PHASE,
            "",
            "trade",
            f"Trade with {partner}: rolled {t.dice[0]}+{t.dice[1]}"
            + (f" +{t.modifier} for tech levels" if t.modifier else "")
            + f", row {t.row} ({multiplier_text(t.row)}"
            + (f" {t.extra_die}" if t.extra_die else "")
            + f"): {gained} points"
            + (f", {note}" if note else "")
            + ".",
            players=(player, partner),
            visible_to=(player,),
            data={
                "partner": partner,
                "roll": list(t.dice),
                "modifier": t.modifier,
                "table_row": t.row,
                "multiplier": multiplier_text(t.row),
                "extra_die": t.extra_die,
                "points": gained,
                "broken": t.broken,
            },
            dice=t.seqs,
        )
    return lines, forfeit


def player_production(
    ctx: TurnContext,
    player: str,
    orders: Orders | None,
    trades: list[TradeResult],
    payments: Mapping[tuple[str, str], int] | None = None,
) -> None:
    """Income, technology, trade, upkeep, purchases and stockpile of one player."""
    state = ctx.state
    p = state.player(player)
    assert p is not None
    blocked = income_blocked(state, player)
    income = [] if blocked else income_lines(state, player)
    income_total = sum(points for _, points in income)
    _tech_level(ctx, player, income_total)
    trade_lines, forfeit = _trade_lines(ctx, player, trades, bool(blocked), payments or {})
    stockpile_before = p.stockpile
    budget = p.stockpile + income_total + sum(points for _, points in trade_lines)
    if forfeit:
        # Exactly what the victims were credited (`war_payments`): never more than this
        # budget, as `forfeit_means` counts only points that are in it (the stockpile is
        # never negative, nor is any trade line).
        budget -= forfeit
        trade_lines.append(("taken by the victims of your declarations of war", -forfeit))
    upkeep = _upkeep(ctx, player, budget)
    budget -= sum(points for _, points in upkeep)
    ledger = []
    if orders is not None:
        budget = _purchases(ctx, player, orders, budget, ledger)
        _stockpile_site(ctx, player, orders)
    p.stockpile = budget
    p.income_last = income_total
    ctx.tell(
        player,
        PHASE,
        "",
        "production",
        f"Production: income {income_total}, trade "
        f"{sum(points for _, points in trade_lines)}, spent "
        f"{sum(line['cost'] for line in ledger if line['status'] == 'bought')}, "
        f"stockpile {budget}.",
        data={
            "income": [list(line) for line in income],
            "income_total": income_total,
            "trade": [list(line) for line in trade_lines],
            "purchases": ledger,
            "upkeep": [list(line) for line in upkeep],
            "stockpile_before": stockpile_before,
            "stockpile_after": budget,
            **_adjustment_data(ctx, player),
            "income_blocked": blocked,
        },
    )


def _adjustment_data(ctx: TurnContext, player: str) -> dict[str, int]:
    """The referee's hand change to the stockpile since last turn, for the ledger."""
    if player not in ctx.adjustments:
        return {}
    closing, change = ctx.adjustments[player]
    return {"stockpile_last_turn": closing, "referee_adjustment": change}


def _tech_level(ctx: TurnContext, player: str, income: int) -> None:
    p = ctx.state.player(player)
    assert p is not None
    new = p.tech_level
    if income >= int(ctx.rules["tl3_income"]):
        new = max(new, 3)
    elif income >= int(ctx.rules["tl2_income"]):
        new = max(new, 2)
    if new == p.tech_level:
        return
    ctx.tell(
        player,
        PHASE,
        "",
        "tech_level",
        f"Your income of {income} points unlocked technology level {new}: its items may be "
        "bought from next turn's sheet.",
        data={"from": p.tech_level, "to": new, "income": income},
    )
    p.tech_level = new


def _upkeep(ctx: TurnContext, player: str, budget: int) -> list[tuple[str, int]]:
    """Pay each station's refueling charge in hex order; lose the ones that cannot be paid."""
    state = ctx.state
    lines: list[tuple[str, int]] = []
    stations = sorted(
        f.hex for f in state.facilities if f.owner == player and f.kind == "DSRS" and not f.building
    )
    for hex_ in stations:
        squadrons = ctx.refuelled.get((hex_, player), 0)
        if not squadrons:
            continue
        if squadrons <= budget:
            budget -= squadrons
            lines.append((f"refueling at {hex_}: {squadrons} squadrons", squadrons))
            continue
        state.facilities[:] = [
            f
            for f in state.facilities
            if not (f.hex == hex_ and f.owner == player and f.kind == "DSRS")
        ]
        stranded = find_force(state, hex_, player)
        waiting = stranded.fleet.squadrons if stranded is not None else 0
        lost = 0
        reason = f"the refueling charge of {squadrons} points could not be paid from {budget}"
        if ctx.rules["station_loss"] == "squadrons-lost":
            lost = waiting
            state.forces[:] = [f for f in state.forces if not (f.hex == hex_ and f.owner == player)]
            if lost:
                reason += (
                    f"; the {counted(lost, 'squadron')} waiting there had no fuel and were lost"
                )
        elif waiting:
            reason += (
                f"; the {counted(waiting, 'squadron')} waiting there stay in the empty hex and "
                "may still depart"
            )
        ctx.tell(
            player,
            PHASE,
            hex_,
            "station_lost",
            f"Your refueling station at {hex_} was lost: {reason}.",
            data={
                "hex": hex_,
                "upkeep": squadrons,
                "reason": reason,
                "squadrons_lost": lost,
                "squadrons_stranded": waiting - lost,
            },
        )
    return lines


def _purchases(
    ctx: TurnContext, player: str, orders: Orders, budget: int, ledger: list[dict[str, Any]]
) -> int:
    state = ctx.state
    stop_after_shortfall = ctx.rules["purchases_after_shortfall"] == "cancelled"
    short = False
    for purchase in orders.purchases:
        item = find_item(purchase.item)
        try:
            location = parse_hex(purchase.location)
        except ValueError:
            location = str(purchase.location)
        entry: dict[str, Any] = {
            "item": item.code if item else purchase.item,
            "name": item.name if item else purchase.item,
            "location": location,
            "quantity": purchase.quantity,
            "cost": 0,
            "status": "bought",
            "cell": purchase.cell,
        }
        if short and stop_after_shortfall:
            _cancel_purchase(
                ctx, player, purchase, entry, "the budget ran out on an earlier line", ledger
            )
            continue
        if location in _captured_from(ctx, player) and item is not None:
            lost = _points_lost(ctx, item, purchase.quantity, budget)
            if lost is not None:
                budget -= lost
                reason = (
                    f"{location} was captured this turn: the production points are lost (6.2)"
                    if lost
                    else f"{location} was captured this turn"
                )
                _cancel_purchase(ctx, player, purchase, entry, reason, ledger)
                ledger[-1] |= {"status": "lost", "cost": lost}
                continue
        reason = purchase_problem(
            state, player, item, location, ctx.rules, ctx.tech_at_start.get(player)
        )
        if not reason and purchase.quantity < 1:
            reason = "the quantity must be at least 1"
        if reason:
            _cancel_purchase(ctx, player, purchase, entry, reason, ledger)
            continue
        assert item is not None
        quantity = purchase.quantity
        left = _limit_left(state, player, item, location)
        limit_note = ""
        if left is not None and quantity > left:
            limit_note = f"only {left} more fit at {location} (limit {item.limit})"
            quantity = left
        if item.placement == "upgrade":
            ready = find_force(state, location, player)
            spare = ready.fleet.F if ready is not None else 0
            if quantity > spare:
                limit_note = f"only {spare} Fleet squadrons are ready at {location} to upgrade"
                quantity = spare
        affordable = min(quantity, budget // item.cost)
        if affordable:
            build(state, player, item, location, affordable)
            budget -= affordable * item.cost
            ledger.append(entry | {"quantity": affordable, "cost": affordable * item.cost})
        rest = purchase.quantity - affordable
        if rest:
            if affordable < quantity:
                short = True
                reason = (
                    f"{quantity - affordable} x {item.name} would cost "
                    f"{(quantity - affordable) * item.cost} points and only {budget} are left"
                )
                if limit_note:
                    reason = f"{limit_note}; {reason}"
            else:
                reason = limit_note
            _cancel_purchase(ctx, player, purchase, entry | {"quantity": rest}, reason, ledger)
    return budget


def _captured_from(ctx: TurnContext, player: str) -> set[str]:
    """Hexes taken from ``player`` in this turn's conflict phase."""
    return {
        str(e.data.get("hex"))
        for e in ctx.events
        if e.kind == "capture" and e.data.get("from") == player
    }


def _points_lost(ctx: TurnContext, item: Item, quantity: int, budget: int) -> int | None:
    """6.2: "In the event of a world where production is scheduled being captured by an
    enemy, the production points are lost to the defeated player": the line's cost (as much
    as the budget holds) is spent for nothing.  None under the house rule
    ``production_at_captured_world = "refunded"`` (the line is simply cancelled)."""
    if ctx.rules["production_at_captured_world"] == "refunded":
        return None
    return max(0, min(item.cost * max(0, quantity), budget))


def _cancel_purchase(
    ctx: TurnContext,
    player: str,
    purchase: Purchase,
    entry: dict[str, Any],
    reason: str,
    ledger: list[dict[str, Any]],
) -> None:
    item = find_item(purchase.item)
    cost = (item.cost if item else 0) * entry["quantity"]
    ledger.append(entry | {"status": "cancelled", "cost": cost, "reason": reason})
    ctx.tell(
        player,
        PHASE,
        entry["location"],
        "purchase_cancelled",
        f"Purchase {_purchase_text(purchase)!r} cancelled"
        + (
            f" ({entry['quantity']} of {purchase.quantity})"
            if entry["quantity"] != purchase.quantity
            else ""
        )
        + f": {reason}.",
        data={
            "item": entry["item"],
            "location": entry["location"],
            "quantity": entry["quantity"],
            "cost": cost,
            "reason": reason,
            "cell": purchase.cell,
        },
    )


def _stockpile_site(ctx: TurnContext, player: str, orders: Orders) -> None:
    """Unspent points may be kept at one of the player's Construction Facilities or Depots."""
    if not orders.stockpile_at:
        return
    state = ctx.state
    p = state.player(player)
    assert p is not None
    try:
        hex_ = parse_hex(orders.stockpile_at)
    except ValueError:
        hex_ = orders.stockpile_at
    if hex_ == p.homeworld and not p.homeworld_lost:
        p.stockpile_at = ""
        return
    if any(
        f.hex == hex_ and f.owner == player and f.kind in ("CF", "DEPOT") and not f.building
        for f in state.facilities
    ):
        p.stockpile_at = hex_
        return
    cancel(
        ctx,
        PHASE,
        player,
        f"stockpile at {orders.stockpile_at}",
        "",
        f"you have no finished Construction Facility or Depot at {hex_}",
    )
