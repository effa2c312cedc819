"""Close-out: maintenance, then the close-out orders (scrapping, repair, ground repair,
augmentation), in the seed's order.

Maintenance is paid before anything else because its dice decide what is damaged, and only
damaged ships may be scrapped or repaired afterwards.  Money is short more often than not, so
the order of payment is fixed and repeatable: ships first, dearest (by build cost) first, each
ship paid from its own system's local allowance (20 per friendly World, 6 per friendly
Outpost, disputed planets nothing) and the difference from the stockpile when a path of jump
routes free of enemy fleets leads to a friendly World (any World: `paths.reaches_a_world`);
then ground forces, 1 each from the stockpile.  Fighters count as ships here (the
unit list gives them a maintenance number of 2).  In peacetime every cost is doubled; the local
allowances are not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...text.words import counted
from .admin import friendly_planets, is_friendly, remove_units, unit_system
from .context import TurnContext
from .paths import reaches_a_world
from .rules import complete
from .state import State, Unit
from .units import SIDES, UnitType, unit_type

PHASE = "close-out"
#: Local maintenance allowance per friendly World and Outpost in the ship's system.
LOCAL_ALLOWANCE = {"World": 20, "Outpost": 6}
GROUND_UPKEEP = ("PD", "RT", "JT")
ORDER_SEQUENCE = ("scrap", "repair", "ground repair", "augment")


def _peace_factor(state: State) -> int:
    """Every upkeep cost is doubled in peacetime (the local allowances are not)."""
    return 2 if state.at_peace() else 1


def _ground_upkeep(state: State, side: str) -> list[Unit]:
    """The side's troops and PD, each paying its upkeep from the stockpile, in id order."""
    return sorted(
        (u for u in state.units if u.side == side and u.code in GROUND_UPKEEP), key=lambda u: u.id
    )


#: The unit kinds that pay a maintenance number each turn: ships, and fighters.
UPKEEP_KINDS = ("capital", "light", "aux", "monitor", "fighter")


def has_repair_ship(ctx: TurnContext, side: str, system: str) -> bool:
    return any(
        u.code == "AR" and u.side == side and u.fleet and unit_system(ctx.state, u) == system
        for u in ctx.state.units
    )


def _deep(state: State, system: str) -> bool:
    found = state.map.systems.get(system)
    return found is None or found.deep


def _hit(ctx: TurnContext, unit: Unit, system: str, what: str) -> None:
    """A unit failed its upkeep roll: damaged/reduced (or, under the house rule, destroyed when
    it already was)."""
    if unit.damaged and ctx.rules["unmaintained_damaged_destroyed"]:
        remove_units(ctx.state, [unit])
        outcome = "destroyed (it was already damaged)"
    elif unit.damaged:
        outcome = "already damaged: no further effect"
    else:
        unit.damaged = True
        outcome = "damaged" if what == "ship" else "reduced"
    ctx.tell(
        unit.side,
        PHASE,
        system,
        "maintenance",
        f"{unit.side} {unit.id} unmaintained: {outcome}",
        data={"unit": unit.id, "outcome": outcome},
        dice=ctx.last_rolls(1),
    )


@dataclass(frozen=True)
class ShipPayments:
    """How close-out pays a side's ships, dearest first: ``local`` from the Worlds and
    Outposts of each ship's own system, ``stockpile`` the rest, and the ships left ``unpaid``
    (with their systems) that roll for damage."""

    local: int
    stockpile: int
    unpaid: tuple[tuple[Unit, str], ...]


def ship_payments(
    state: State, side: str, rules: Mapping[str, Any], resources: int, from_stockpile: bool
) -> ShipPayments:
    """The ship maintenance close-out takes, with ``resources`` in the stockpile; it changes
    nothing, so the sheet can show the bill before the turn (`upkeep_bill`) and close-out
    can pay it (`maintain_ships`) by one reckoning."""
    factor = _peace_factor(state)
    bb_upkeep = int(complete(rules)["imperial_bb_maintenance"])

    def kind(u: Unit) -> UnitType:
        return unit_type(u.side, u.code, bb_upkeep)

    local: dict[str, int] = {}
    ships = [u for u in state.units if u.side == side and kind(u).kind in UPKEEP_KINDS]
    ships.sort(key=lambda u: (-kind(u).cost, u.id))
    paid_local = paid_stock = 0
    left = resources
    unpaid: list[tuple[Unit, str]] = []
    for unit in ships:
        system = unit_system(state, unit)
        if system not in local:
            local[system] = sum(
                LOCAL_ALLOWANCE[p.marker] for p in friendly_planets(state, side, system)
            )
        need = kind(unit).maintenance * factor
        from_local = min(need, local[system])
        rest = need - from_local
        if rest and (
            not from_stockpile
            or rest > left
            or _deep(state, system)
            or not reaches_a_world(state, side, system)
        ):
            unpaid.append((unit, system))
            continue
        local[system] -= from_local
        left -= rest
        paid_local += from_local
        paid_stock += rest
    return ShipPayments(paid_local, paid_stock, tuple(unpaid))


@dataclass(frozen=True)
class UpkeepBill:
    """What close-out will ask of a side for its forces where they stand now: ship
    maintenance ``local`` (covered by the ships' own systems) and ``ships`` (from the
    stockpile), ``ground`` upkeep (troops and PD, from the stockpile), and the ships that
    ``cut_off`` from the stockpile (deep space, no route to a World) roll whatever is paid."""

    local: int
    ships: int
    ground: int
    cut_off: int

    @property
    def stockpile(self) -> int:
        """All the stockpile must hold at close-out to pay everything it can pay."""
        return self.ships + self.ground


def upkeep_bill(state: State, side: str, rules: Mapping[str, Any]) -> UpkeepBill:
    """The bill for ``side``'s forces as they stand (they move and fight before close-out,
    and this turn's builds arrive later, so it is a forecast, shown beside the builds)."""
    ships = ship_payments(state, side, rules, resources=10**9, from_stockpile=True)
    ground = len(_ground_upkeep(state, side)) * _peace_factor(state)
    return UpkeepBill(ships.local, ships.stockpile, ground, len(ships.unpaid))


def maintain_ships(ctx: TurnContext, side: str) -> None:
    state = ctx.state
    s = state.sides[side]
    # "The owner may expend Resources from his stockpile": a standing order may decline.
    from_stockpile = ctx.orders[side].stockpile_upkeep
    paid = ship_payments(state, side, ctx.rules, s.resources, from_stockpile)
    s.resources -= paid.stockpile
    paid_local, paid_stock, unpaid = paid.local, paid.stockpile, paid.unpaid
    ctx.tell(
        side,
        PHASE,
        "",
        "maintenance",
        f"{side} ship maintenance: {paid_local} from local Worlds/Outposts, {paid_stock} from "
        f"the stockpile ({s.resources} left"
        + ("" if from_stockpile else "; your standing order: nothing from the stockpile")
        + f"); {counted(len(unpaid), 'ship')} unmaintained",
        data={"local": paid_local, "stockpile": paid_stock, "unpaid": [u.id for u, _ in unpaid]},
    )
    for unit, system in unpaid:
        m = ctx.unit_type(side, unit.code).maintenance
        helped = bool(friendly_planets(state, side, system)) or has_repair_ship(ctx, side, system)
        with ctx.dice.at(location=system):
            die = ctx.dice.d6(f"maintenance {unit.id} (damaged on {m} or less)")
        if die + (1 if helped else 0) <= m:
            _hit(ctx, unit, system, "ship")


def maintain_ground(ctx: TurnContext, side: str) -> None:
    state = ctx.state
    s = state.sides[side]
    cost = _peace_factor(state)
    ground = _ground_upkeep(state, side)
    unpaid = []
    for unit in ground:
        if s.resources >= cost:
            s.resources -= cost
        else:
            unpaid.append(unit)
    if ground:
        ctx.tell(
            side,
            PHASE,
            "",
            "maintenance",
            f"{side} ground forces: {len(ground) - len(unpaid)} maintained, {len(unpaid)} not",
            data={"unpaid": [u.id for u in unpaid]},
        )
    for unit in unpaid:
        system = unit_system(state, unit)
        on_world = bool(unit.planet) and is_friendly(state.map.planets[unit.planet], side, "World")
        with ctx.dice.at(location=system):
            die = ctx.dice.d6(f"upkeep {unit.id} (reduced on 2 or less)")
        if die + (1 if on_world else 0) <= 2:
            _hit(ctx, unit, system, "ground")


# -- close-out orders ----------------------------------------------------------------------------


def _refuse(ctx: TurnContext, side: str, kind: str, cell: str, ids: list[str], why: str) -> None:
    ctx.tell(
        side,
        PHASE,
        "",
        "skipped",
        f"{kind.capitalize()} {' '.join(ids)} ({cell or 'sheet'}) not carried out: {why}",
    )


def scrap(ctx: TurnContext, side: str, unit: Unit) -> str:
    """Damaged ships (monitors even undamaged) at a friendly World/Outpost: removed, half the
    maintenance number (rounded down) back to the stockpile."""
    state = ctx.state
    system = unit_system(state, unit)
    if not unit.is_ship or not unit.fleet:
        return f"{unit.id} is not a ship"
    if not unit.damaged and unit.code != "M":
        return f"{unit.id} is not damaged (only monitors may be scrapped undamaged)"
    if not friendly_planets(state, side, system):
        return f"{unit.id} is not at a World or Outpost of yours"
    back = ctx.unit_type(side, unit.code).maintenance // 2
    remove_units(state, [unit])
    state.sides[side].resources += back
    ctx.tell(
        side,
        PHASE,
        system,
        "scrap",
        f"{side} scraps {unit.id}: {back} resources back",
        data={"unit": unit.id, "refund": back},
    )
    return ""


def repair(ctx: TurnContext, side: str, unit: Unit) -> str:
    """A damaged ship at a friendly World/Outpost or in a fleet with an AR: full maintenance
    (doubled in peacetime) from the stockpile, not in deep space."""
    state = ctx.state
    system = unit_system(state, unit)
    if not unit.is_ship or not unit.fleet:
        return f"{unit.id} is not a ship"
    if not unit.damaged:
        return f"{unit.id} is not damaged"
    if _deep(ctx.state, system):
        return "ships in deep space may not be repaired"
    with_ar = any(u.code == "AR" for u in state.units_in_fleet(unit.fleet) if u is not unit)
    if not friendly_planets(state, side, system) and not with_ar:
        return f"{unit.id} is neither at a World or Outpost of yours nor in a fleet with an AR"
    cost = ctx.unit_type(side, unit.code).maintenance * _peace_factor(ctx.state)
    return _repaired(ctx, side, unit, cost, system, f"{side} repairs {unit.id} for {cost}")


def ground_repair(ctx: TurnContext, side: str, unit: Unit) -> str:
    """A reduced PD/RT/JT standing on a friendly World/Outpost that is not disputed: half its
    build cost (rounded up; doubled in peacetime)."""
    state = ctx.state
    if unit.code not in GROUND_UPKEEP:
        return f"{unit.id} is not a PD, RT or JT"
    if not unit.damaged:
        return f"{unit.id} is not reduced"
    if not unit.planet:
        return f"{unit.id} is aboard a transport"
    planet = state.map.planets[unit.planet]
    if not is_friendly(planet, side):
        return f"{planet.name} is not a World or Outpost of yours (or it is disputed)"
    cost = -(-ctx.unit_type(side, unit.code).cost // 2) * _peace_factor(ctx.state)
    text = f"{side} restores {unit.id} on {planet.name} for {cost}"
    return _repaired(ctx, side, unit, cost, planet.system, text)


def _repaired(ctx: TurnContext, side: str, unit: Unit, cost: int, where: str, text: str) -> str:
    """Pay ``cost`` from the stockpile and restore ``unit`` (a repair of either kind); the
    reason it cannot be paid, else ""."""
    s = ctx.state.sides[side]
    if cost > s.resources:
        return f"it costs {cost} and only {s.resources} resources are left"
    s.resources -= cost
    unit.damaged = False
    ctx.tell(side, PHASE, where, "repair", text, data={"unit": unit.id, "cost": cost})
    return ""


def augment(ctx: TurnContext, side: str, units: list[Unit]) -> str:
    """Two reduced fighters (or monitors) in the same place become one undamaged unit: the
    first named is restored, the second removed."""
    if len(units) != 2:
        return "augmentation combines exactly two units"
    first, second = units
    if first is second:
        return "name two different units"
    if first.code != second.code or first.code not in ("F", "M"):
        return "only two fighters or two monitors may be combined"
    if not (first.damaged and second.damaged):
        return "both units must be reduced"
    state = ctx.state
    place = (first.fleet, first.planet) if first.code == "F" else (unit_system(state, first),)
    other = (second.fleet, second.planet) if first.code == "F" else (unit_system(state, second),)
    if place != other:
        return "the two units must be in the same place"
    remove_units(state, [second])
    first.damaged = False
    system = unit_system(state, first)
    ctx.tell(
        side,
        PHASE,
        system,
        "augment",
        f"{side} combines {first.id} and {second.id} into one full-strength {first.id}",
        data={"kept": first.id, "removed": second.id},
    )
    return ""


def close_out_orders(ctx: TurnContext, side: str) -> None:
    """The side's close-out orders, all scrapping first, then repair, ground repair and
    augmentation (the seed's order), each in sheet order."""
    orders = ctx.orders[side].close_out
    for kind in ORDER_SEQUENCE:
        for order in (o for o in orders if o.kind == kind):
            # A unit named twice in one line is acted on once: scrapping it twice must not pay
            # twice, nor may a unit be augmented with itself.
            ids = list(dict.fromkeys(order.units))
            found = [ctx.state.unit(side, uid) for uid in ids]
            missing = [uid for uid, u in zip(ids, found, strict=True) if u is None]
            if missing:
                _refuse(ctx, side, kind, order.cell, ids, f"no unit {missing[0]}")
                continue
            units = [u for u in found if u is not None]
            if kind == "augment":
                why = augment(ctx, side, units)
                if why:
                    _refuse(ctx, side, kind, order.cell, order.units, why)
                continue
            act = {"scrap": scrap, "repair": repair, "ground repair": ground_repair}[kind]
            for unit in units:
                why = act(ctx, side, unit)
                if why:
                    _refuse(ctx, side, kind, order.cell, [unit.id], why)


def close_out(ctx: TurnContext) -> None:
    """Maintenance for both sides, then each side's close-out orders."""
    for side in SIDES:
        maintain_ships(ctx, side)
        maintain_ground(ctx, side)
    for side in SIDES:
        close_out_orders(ctx, side)
