"""The week's economy: production, mining, construction, research and espionage.

Production points are cargo: they lie at a place, for a commander (`State.stocks`), until a
ship carries them elsewhere.  Readings (docs/rules/full-thrust-campaign.md):

* Each planet a commander owns produces 50 x its Value at the start of the week, stored at
  the planet; neutral planets' production is not tracked (trade prices stand for it).
* Ships are paid for at the yard (or starport) that builds them, from the points stored there,
  and are in service at the start of next week; a starport builds only streamlined ships, a
  shipyard any.  Spies, research and development are paid at the commander's home planet.
* An Orbital Mining Platform at a belt produces into the stocks at the belt's place.
* Espionage: the seed's list of missions is lost.  Ours: spies watch a rival's fleet (where
  its ships are, and their fuel), its research (what it has found and developed) or its
  industry (its stocks and the points aboard its ships, a non-military subject: the chance
  doubles), or stay home on counter-espionage.  Counter-
  espionage is rolled first, against each mission aimed at its commander; a mission caught
  loses its spies.  The chance is 10% a spy and 15% a master spy, +1% per 10 points spent, at
  most double; 1D100 at or under it succeeds.  Spies on research steal a field to develop.
* Research aimed at a field is declared to every commander before the roll.
* Ground defences, squadrons, reloads and the Repair Facility are bought on the construction
  lines (`item_refusal` judges them for the checker and the week alike).
* A neutral planet's natives are ships of the design list (`native_fleet`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...dice import Dice
from ..base import Event
from . import charts
from .designs import CARGO_PER_MASS, Design
from .orders import Mission, Orders, Purchase, ResearchOrder
from .state import Facility, Ship, State, event

PRODUCTION_PER_VALUE = 50
SPY_COST = {"spy": 250, "master spy": 500}
#: Facilities bought on the construction lines and what they cost (the seed's table; a space
#: station's cost is the house rule ``station_cost``).  Orbital ones are built at a shipyard
#: (a starport builds shipyards too); a port on a planet of the commander's, one per planet.
FACILITY_COST = {"shipyard": 500, "omp": 500, "starport": 1000, "spaceport": 500}
ORBITAL = ("shipyard", "omp", "station")
PORTS = ("starport", "spaceport")
FACILITIES = (*ORBITAL, *PORTS)
START_SPIES = {"spy": 5, "master spy": 1}
RESEARCH_ROLL_COST = 100


#: The design kinds a native fleet is built from (the seed's "basic 'book' designs": the
#: design list's fighting ships, not its merchants, tugs or tenders).
NATIVE_KINDS = ("warship", "carrier")


def native_fleet(designs: Mapping[str, Design], points: int) -> list[Design]:
    """The ships of a neutral planet's indigenous fleet worth ``points`` (L129-130): the
    dearest fighting design of the list the points left can pay for, again and again, until
    none fits (ties by name).  No die: the fleet follows from the points, so the battle sheet,
    the master workbook and a later invasion agree, and a fleet that lost ships is the same
    rule applied to the points left (the choice of the others does not change)."""
    book = sorted(
        (d for d in designs.values() if d.kind in NATIVE_KINDS and d.cost > 0),
        key=lambda d: (-d.cost, d.name),
    )
    fleet: list[Design] = []
    left = points
    for design in book:
        while design.cost <= left:
            fleet.append(design)
            left -= design.cost
    return fleet


def native_ship_id(place: str, n: int) -> str:
    """A native ship's name on the battle sheet: ``Brenn native 2``."""
    return f"{place} native {n}"


# -- the items the seed prices beyond ships and facilities -------------------------------------

FORTIFICATION = "fortification"
GROUND_WEAPONS = "ground weapons"
SILO = "silo"
REPAIR_FACILITY = "Repair Facility"
#: L142: "The cost is 5 points per space of weapons to be fitted".
FORTIFICATION_COST = 5
#: L158: "This costs 50 points and has a MASS of 10".
REPAIR_FACILITY_COST = 50
REPAIR_FACILITY_MASS = 10
#: Fighter types: the cost of a new squadron (L174-193) and of one replacement fighter
#: (L229-247), the seed's tables.
FIGHTER_TYPES: dict[str, tuple[int, int]] = {
    "Standard": (18, 3),
    "Torpedo": (36, 6),
    "Fast": (30, 5),
    "Heavy": (30, 5),
    "Interceptor": (18, 3),
    "Attack": (24, 4),
    "Long-range": (30, 5),
    "Fast Torpedo": (48, 8),
    "Fast Heavy": (42, 7),
    "Fast Interceptor": (30, 5),
    "Fast Attack": (36, 6),
    "Fast Long-range": (42, 7),
    "Heavy Torpedo": (48, 8),
    "Heavy Interceptor": (30, 5),
    "Heavy Attack": (36, 6),
    "Long-range Heavy": (42, 7),
    "Long-range Torpedo": (48, 8),
    "Long-range Interceptor": (30, 5),
    "Long-range Attack": (36, 6),
}
#: The research field each word of a fighter type needs developed (the Research Table's
#: fighters): a Fast Torpedo squadron needs both Fast Fighters and Torpedo Fighters.
FIGHTER_FIELDS = {
    "Fast": "Fast Fighters",
    "Heavy": "Heavy Fighters",
    "Long-range": "Long Range Fighters",
    "Torpedo": "Torpedo Fighters",
    "Interceptor": "Interceptors",
    "Attack": "Attack Fighters",
}
#: Ordnance reloads (L220-228): cost, cargo spaces one takes in a hold (half its MASS, L215:
#: a missile's 1 is 25 spaces, a mine's 1/2 is 12.5, rounded up), the field it needs.
ORDNANCE: dict[str, tuple[int, int, str]] = {
    "nuclear missile": (4, 25, ""),
    "needle missile": (4, 25, "Needle Missile"),
    "EMP missile": (4, 25, "EMP Missile"),
    "mine": (3, 13, ""),
    "submunition pack": (3, 13, ""),
    "scatterpack": (4, 13, ""),
}
#: A fighter carried in a hold takes 1/2 MASS, 25 cargo spaces (L216).
FIGHTER_CARGO = 25
SQUADRONS = {f"{kind} squadron": cost for kind, (cost, _) in FIGHTER_TYPES.items()}
FIGHTERS = {f"{kind} fighter": cost for kind, (_, cost) in FIGHTER_TYPES.items()}
#: What a planet of the commander's may be given, and what a ship may.
PLANET_ITEMS = (FORTIFICATION, GROUND_WEAPONS, SILO, *SQUADRONS)
SHIP_ITEMS = (REPAIR_FACILITY, *SQUADRONS, *ORDNANCE, *FIGHTERS)
ITEMS = (FORTIFICATION, GROUND_WEAPONS, SILO, REPAIR_FACILITY, *SQUADRONS, *ORDNANCE, *FIGHTERS)
_ITEM_NAMES = {item.lower(): item for item in ITEMS}


def item_named(text: str) -> str:
    """The item ``text`` names (any case, extra spaces), or "" for none."""
    return _ITEM_NAMES.get(" ".join(text.split()).lower(), "")


def item_cost(item: str, rules: Mapping[str, Any]) -> int:
    """One item's price: the seed's tables; a space of ground weapons and a silo at the house
    rules' "normal cost" (the design list holds no weapon systems to price them by)."""
    if item == FORTIFICATION:
        return FORTIFICATION_COST
    if item == GROUND_WEAPONS:
        return int(rules["weapon_space_cost"])
    if item == SILO:
        return int(rules["silo_cost"])
    if item == REPAIR_FACILITY:
        return REPAIR_FACILITY_COST
    if item in SQUADRONS:
        return SQUADRONS[item]
    if item in FIGHTERS:
        return FIGHTERS[item]
    return ORDNANCE[item][0]


def fields_needed(item: str) -> list[str]:
    """The research fields an item needs developed (L270: no use of what is not understood)."""
    if item in ORDNANCE:
        return [ORDNANCE[item][2]] if ORDNANCE[item][2] else []
    kind = item.rsplit(" ", 1)[0] if item in SQUADRONS or item in FIGHTERS else ""
    return [FIGHTER_FIELDS[word] for word in kind.split() if word in FIGHTER_FIELDS]


def stores_space(stores: Mapping[str, int]) -> int:
    """Cargo spaces what a merchant of the fleet train carries takes from its hold: reloads
    at half their MASS, fighters 25 each, a Repair Facility its 10 MASS (500)."""
    space = 0
    for item, count in stores.items():
        if item == REPAIR_FACILITY:
            space += count * REPAIR_FACILITY_MASS * CARGO_PER_MASS
        elif item in ORDNANCE:
            space += count * ORDNANCE[item][1]
        elif item in FIGHTERS:
            space += count * FIGHTER_CARGO
    return space


def hold_room(design: Design, ship: Ship) -> int:
    """Production points a ship's hold takes: a merchant's is less what its stores fill."""
    taken = stores_space(ship.stores) if design.merchant else 0
    return max(0, design.cargo_spaces - taken)


def squadrons(held: Mapping[str, int]) -> int:
    """Fighter squadrons of every type among ``held``."""
    return sum(count for item, count in held.items() if item in SQUADRONS)


def holdings_text(held: Mapping[str, int]) -> str:
    """``{"mine": 6, "Standard squadron": 2}`` as ``2 x Standard squadron, 6 x mine`` (items
    in the order of `ITEMS`): the workbook's cell, the battle sheet's and the reports' line."""
    return ", ".join(f"{held[item]} x {item}" for item in ITEMS if held.get(item))


def parse_holdings(text: str, allowed: tuple[str, ...]) -> dict[str, int]:
    """The reverse of `holdings_text`; `ValueError` saying what is wrong."""
    held: dict[str, int] = {}
    for part in (p.strip() for p in str(text or "").split(",")):
        if not part:
            continue
        count, sep, name = part.partition(" x ")
        if not sep:
            count, name = "1", part
        item = item_named(name)
        if item not in allowed or not count.strip().isdigit():
            raise ValueError(
                f"{part!r} is not COUNT x ITEM with an item of: {', '.join(allowed[:4])}..."
            )
        held[item] = held.get(item, 0) + int(count)
    return held


def item_refusal(
    state: State, owner: str, item: str, count: int, where: str, rules: Mapping[str, Any]
) -> str:
    """Why ``count`` x ``item`` for ``where`` (a planet, or a ship's id) cannot be bought by
    ``owner`` now, or "" if it can: the seed's limits (L142-149, L158, L173, L219), judged the
    same by the checker and by the week."""
    commander = state.commander(owner)
    if commander is None:
        return f"{owner} is not a commander"
    missing = [f for f in fields_needed(item) if f not in commander.developed]
    if missing:
        return f"{item} needs {' and '.join(missing)} developed"
    where = where or commander.home
    ship = state.ship(where)
    if ship is not None and ship.owner == owner:
        if item not in SHIP_ITEMS:
            return f"a {item} is built on a planet of yours, not on a ship"
        return _ship_refusal(state, owner, item, count, ship, rules)
    system = state.systems.get(where)
    if system is None:
        return f"{where} is neither a place nor a ship of {owner}'s"
    if item not in PLANET_ITEMS:
        return f"a {item} is for a ship: write the ship's id under Where"
    if system.owner != owner or not system.planet:
        return f"{where} is not a planet of {owner}'s"
    have = system.defences
    if item == GROUND_WEAPONS and not system.port:
        free = have.get(FORTIFICATION, 0) - have.get(GROUND_WEAPONS, 0)
        if count > free:
            return (
                f"{where} has no port: weapons need fortification spaces to house them, and "
                f"{max(0, free)} are free"
            )
    if item == SILO or item in SQUADRONS:
        what = "missile silos" if item == SILO else "fighter squadrons"
        if not system.port:
            need = "fire control for its missiles" if item == SILO else "its fighter squadrons"
            return f"{where} has no starport or spaceport to support {need}"
        held = have.get(SILO, 0) if item == SILO else squadrons(have)
        if held + count > system.value:
            return (
                f"{where} (Value {system.value}) may have at most {system.value} {what}; "
                f"it has {held}"
            )
    return ""


def _ship_refusal(
    state: State, owner: str, item: str, count: int, ship: Ship, rules: Mapping[str, Any]
) -> str:
    design = state.designs[ship.design]
    if ship.ready_week:
        return f"{ship.id} is still being built"
    place = ship.place
    system = state.systems.get(place)
    port = system.port if system is not None and system.owner == owner else ""
    yard = place in state.yards(owner)
    station = any(
        f.owner == owner and f.kind == "station" and f.place == place and f.working(state.week)
        for f in state.facilities
    )
    room = hold_room(design, ship) - ship.cargo
    if item == REPAIR_FACILITY:
        if ship.stores.get(REPAIR_FACILITY) or count > 1:
            return f"{ship.id} takes one Repair Facility, a permanent fitting"
        if not (yard or (port == "starport" and design.streamlined)):
            return f"{place} has no yard of {owner}'s able to build a {design.name} to fit it"
        need = REPAIR_FACILITY_MASS * CARGO_PER_MASS
        if design.merchant and room < need:
            return (
                f"{ship.id}'s hold has room for {room} cargo spaces and a Repair Facility takes "
                f"{need} (MASS {REPAIR_FACILITY_MASS})"
            )
        if not design.merchant and design.mass <= REPAIR_FACILITY_MASS:
            return f"a {design.name} (MASS {design.mass}) is too small for a Repair Facility"
        return ""
    if not (yard or station or port) and (item in SQUADRONS or design.merchant):
        return f"{place} has no shipyard, space station or port of {owner}'s to supply it"
    if item in SQUADRONS:
        if design.kind != "carrier":
            return "new fighter squadrons are for carriers (or a planet of yours with a port)"
        most = design.mass // int(rules["carrier_mass_per_squadron"])
        held = squadrons(ship.stores)
        if held + count > most:
            return f"{ship.id} takes at most {most} squadrons bought for it; it has {held}"
        return ""
    if design.merchant:
        per = ORDNANCE[item][1] if item in ORDNANCE else FIGHTER_CARGO
        if count * per > room:
            return f"{ship.id}'s hold has room for {room} cargo spaces and they take {count * per}"
        return ""
    if not station:
        return (
            f"{ship.id} is reloaded only at a space station of {owner}'s (a merchant of the "
            "fleet train carries reloads anywhere)"
        )
    if item in FIGHTERS and design.kind != "carrier":
        return f"a {design.name} has no hangar for fighters"
    return ""


def buy_item(
    state: State, owner: str, purchase: Purchase, item: str, rules: Mapping[str, Any]
) -> list[Event]:
    """Items bought on a construction line: judged by `item_refusal`, paid from the points
    stored where they go (the planet, or where the ship is), and theirs at once.  Bought
    after the week's travel, they are in no battle of this week: in place from next week."""
    commander = state.commander(owner)
    assert commander is not None
    where = purchase.place or commander.home
    why = item_refusal(state, owner, item, purchase.count, where, rules)
    ship = state.ship(where)
    target = ship if ship is not None and ship.owner == owner else None
    place = target.place if target is not None else where
    cost = item_cost(item, rules) * purchase.count
    if not why and not _pay(state, place, owner, cost):
        why = f"it costs {cost} and {state.stock(place, owner)} points are stored at {place}"
    if why:
        return [_cancelled(state, owner, place, purchase, why)]
    held = target.stores if target is not None else state.systems[where].defences
    held[item] = held.get(item, 0) + purchase.count
    return [
        event(
            state,
            "economy",
            place,
            "item_bought",
            f"{owner} buys {purchase.count} x {item} for {where} ({cost} points)",
            [owner],
            item=item,
            count=purchase.count,
            cost=cost,
        )
    ]


def produce(state: State) -> list[Event]:
    """Every owned planet's 50 x Value into its stocks."""
    events = []
    for system in state.systems.values():
        if system.owner and system.planet:
            points = PRODUCTION_PER_VALUE * system.value
            state.add_stock(system.name, system.owner, points)
            events.append(
                event(
                    state,
                    "production",
                    system.name,
                    "production",
                    f"{system.name} produces {points} production points for {system.owner}",
                    [system.owner],
                    points=points,
                )
            )
    return events


def mine(
    state: State,
    dice: Dice,
    rules: Mapping[str, Any],
    before: Sequence[tuple[str, str, int]] = (),
) -> list[Event]:
    """Each mining platform at a belt not worked out rolls its week on the mining table, pro
    rata for the hours it worked there: ``before`` holds the work of platforms before a tow
    this week (id, place, hours), rolled first; then each rolls where it is, from the hour
    it came to work there, unless it is still in tow."""
    events = []
    stretches = [(fid, place, hours) for fid, place, hours in before]
    stretches += [(f.id, f.place, 100 - f.active_from) for f in state.facilities if not f.towed_by]
    by_id = {f.id: f for f in state.facilities}
    for fid, place, hours in stretches:
        f = by_id[fid]
        system = state.systems.get(place)
        if f.kind != "omp" or f.ready_week or hours <= 0:
            continue  # a platform works only where it is released, once built
        if system is None or not system.belt or system.belt_worked_out:
            continue
        with dice.at(phase="economy", location=place):
            week = charts.mining(dice, rules, belt=system.belt, hours=hours, where=place)
        if week.points:
            state.add_stock(place, f.owner, week.points)
        if week.result == "exhausted":
            system.belt_worked_out = True
        events.append(
            event(
                state,
                "economy",
                place,
                "mining",
                f"{f.id} mines the {system.belt} belt at {place}: 3D6 {week.total} "
                f"({week.result}), {week.points} production points",
                [f.owner],
                dice=list(week.dice),
                result=week.result,
                points=week.points,
            )
        )
    return events


def _pay(state: State, place: str, owner: str, cost: int) -> bool:
    if state.stock(place, owner) < cost:
        return False
    state.add_stock(place, owner, -cost)
    return True


def trade_buyer(state: State, dice: Dice, place: str, seller: str, amount: int) -> Event:
    """The buyer's side of a trade between two commanders (L46: "If two Commanders are
    trading they both roll separately on the table"): a sale at another commander's planet
    (``sell N`` there) is a trade with that planet's holder.  The seller rolls for what his
    goods fetch, as at a neutral planet; the holder rolls separately on the same table for
    what the ``amount`` points of goods he takes in are worth to him, stored at the planet.
    Neither side pays the other from its stocks: each registers its own profit or loss, as
    the table does for a neutral planet's market.  Told to the holder alone, as the seller's
    roll is told to the seller alone; both learn the trade was made."""
    buyer = state.systems[place].owner
    got = charts.sale(dice, amount, buyer)
    state.add_stock(place, buyer, got.points)
    return event(
        state,
        "travel",
        place,
        "trade",
        f"{buyer} takes in {amount} production points of {seller}'s goods at {place}: 1D6 "
        f"{got.roll}, {got.percent}%, {got.points} points stored there",
        [buyer],
        roll=got.roll,
        percent=got.percent,
        points=got.points,
        seller=seller,
    )


def complete_facilities(state: State) -> list[Event]:
    """Facilities laid down last week start working; a port becomes the planet's."""
    events = []
    for f in list(state.facilities):
        if not f.ready_week or f.ready_week > state.week:
            continue
        f.ready_week = 0
        if f.kind in PORTS:
            state.facilities.remove(f)
            state.systems[f.place].port = f.kind
        events.append(
            event(
                state,
                "economy",
                f.place,
                "facility_completed",
                f"{f.owner}'s {f.kind} at {f.place} is complete",
                [f.owner],
            )
        )
    return events


def build_facility(
    state: State, owner: str, purchase: Purchase, rules: Mapping[str, Any], numbers: dict[str, int]
) -> list[Event]:
    """A facility laid down this week at ``purchase.place``: an orbital one at a shipyard of
    the commander's (a shipyard at its starport too), a port on a planet of its own without
    one; paid from the points stored there; working next week."""
    commander = state.commander(owner)
    assert commander is not None
    kind = purchase.design
    place = purchase.place or commander.home
    system = state.systems.get(place)
    yard = place in state.yards(owner)
    starport = system is not None and system.owner == owner and system.port == "starport"
    why = ""
    if kind in ORBITAL and not (yard or (kind == "shipyard" and starport)):
        why = f"{place} has no shipyard of {owner}" + (
            " (a starport builds shipyards only)" if starport else ""
        )
    elif kind in PORTS and (system is None or system.owner != owner or not system.planet):
        why = f"{place} is not a planet of {owner}'s"
    elif kind in PORTS and (
        system.port or any(f.place == place and f.kind in PORTS for f in state.facilities)
    ):
        why = f"{place} has a port already (one per planet)"
    cost = int(rules["station_cost"]) if kind == "station" else FACILITY_COST[kind]
    if not why and not _pay(state, place, owner, cost):
        why = f"it costs {cost} and {state.stock(place, owner)} points are stored at {place}"
    if why:
        return [_cancelled(state, owner, place, purchase, why)]
    numbers[kind] = numbers.get(kind, 0) + 1
    taken = {f.id for f in state.facilities}
    n = 1
    while f"{commander.code}-{kind.upper()}{n}" in taken:
        n += 1
    fid = f"{commander.code}-{kind.upper()}{n}"
    state.facilities.append(Facility(fid, kind, owner, place, ready_week=state.week + 1))
    return [
        event(
            state,
            "economy",
            place,
            "facility_ordered",
            f"{owner} builds {fid}, a {kind}, at {place} ({cost} points; working next week)",
            [owner],
            facility=fid,
            cost=cost,
        )
    ]


def build(
    state: State,
    owner: str,
    purchase: Purchase,
    numbers: dict[str, int],
    rules: Mapping[str, Any] | None = None,
) -> list[Event]:
    """Ships, facilities or spies bought this week: paid where they are built, ready next
    week."""
    commander = state.commander(owner)
    if commander is None:
        return []
    item = item_named(purchase.design)
    if item:
        assert rules is not None
        return buy_item(state, owner, purchase, item, rules)
    if purchase.design in FACILITIES:
        assert rules is not None
        events = []
        for _ in range(purchase.count):
            events += build_facility(state, owner, purchase, rules, numbers)
        return events
    events = []
    if purchase.design in SPY_COST:
        kind = purchase.design
        field = "spies" if kind == "spy" else "master_spies"
        for _ in range(purchase.count):
            if getattr(commander, field) >= START_SPIES[kind]:
                break
            if not _pay(state, commander.home, owner, SPY_COST[kind]):
                break
            setattr(commander, field, getattr(commander, field) + 1)
            events.append(
                event(
                    state,
                    "economy",
                    commander.home,
                    "spy_hired",
                    f"{owner} hires a {kind}",
                    [owner],
                )
            )
        return events
    design = state.designs.get(purchase.design)
    place = purchase.place or commander.home
    system = state.systems.get(place)
    yard = place in state.yards(owner)
    starport = system is not None and system.owner == owner and system.port == "starport"
    why = ""
    if design is None:
        why = f"there is no design {purchase.design!r}"
    elif not yard and not (starport and design.streamlined):
        why = f"{place} has no shipyard of {owner}" + (
            "" if design.streamlined else " (a starport builds only streamlined ships)"
        )
    if why:
        return [_cancelled(state, owner, place, purchase, why)]
    assert design is not None
    for n in range(purchase.count):
        if not _pay(state, place, owner, design.cost):
            events.append(
                _cancelled(
                    state,
                    owner,
                    place,
                    purchase,
                    f"only {n} of {purchase.count} could be paid for with the points at {place}",
                )
            )
            break
        ship_id = next_ship_id(state, commander.code, numbers)
        state.ships.append(Ship(ship_id, design.name, owner, place, ready_week=state.week + 1))
        events.append(
            event(
                state,
                "economy",
                place,
                "ship_ordered",
                f"{owner} lays down {ship_id}, a {design.name}, at {place} ({design.cost} points; "
                "in service next week)",
                [owner],
                ship=ship_id,
                cost=design.cost,
            )
        )
    return events


def _cancelled(state: State, owner: str, place: str, purchase: Purchase, why: str) -> Event:
    return event(
        state,
        "economy",
        place,
        "order_cancelled",
        f"{owner}'s order for {purchase.count} x {purchase.design}: {why}",
        [owner],
        order=f"{purchase.count} x {purchase.design}",
        cell=purchase.cell,
        reason=why,
    )


def next_ship_id(state: State, code: str, numbers: dict[str, int]) -> str:
    """The next free id with the commander's prefix (ANN-7)."""
    if code not in numbers:
        taken = [
            int(s.id.rsplit("-", 1)[1])
            for s in state.ships
            if s.id.startswith(f"{code}-") and s.id.rsplit("-", 1)[1].isdigit()
        ]
        numbers[code] = max(taken, default=0)
    numbers[code] += 1
    return f"{code}-{numbers[code]}"


def research(
    state: State, owner: str, order: ResearchOrder, dice: Dice, rules: Mapping[str, Any]
) -> list[Event]:
    """Theoretical research rolls, then development of a field discovered."""
    commander = state.commander(owner)
    if commander is None:
        return []
    home = commander.home
    events = []
    if order.aim and order.rolls:
        events.append(aim_declared(state, owner, order.aim))
    for _ in range(order.rolls):
        if not _pay(state, home, owner, RESEARCH_ROLL_COST):
            events.append(
                event(
                    state,
                    "research",
                    home,
                    "research_unpaid",
                    f"{owner} cannot pay for a research roll at {home}",
                    [owner],
                )
            )
            break
        with dice.at(phase="research", location=home):
            got = charts.research(dice, rules, aimed_at=order.aim, who=owner)
        if (
            got.field
            and got.field not in commander.discoveries
            and got.field not in commander.developed
        ):
            commander.discoveries.append(got.field)
        aim = f" aimed at {charts.RESEARCH_FIELDS[order.aim][0]}" if order.aim else ""
        events.append(
            event(
                state,
                "research",
                home,
                "research",
                f"{owner}'s research{aim}: 1D20 {got.roll}, {got.field or 'nothing found'}",
                [owner],
                roll=got.roll,
                field=got.field,
            )
        )
    if order.develop and order.points:
        events += develop(state, owner, order, dice, rules)
    return events


def aim_declared(state: State, owner: str, aim: int) -> Event:
    """L249: "You must publicly specify the object of your research before rolling": told to
    every commander, before the roll.  No place is named (a commander's home is the referee's
    map, but the line must not pair a place with its holder for rivals who do not see it)."""
    field = charts.RESEARCH_FIELDS[aim][0]
    return Event(
        state.week,
        "research",
        "",
        "research_aim",
        f"{owner} aims research at {field} (field {aim} of the Research Table)",
        (owner,),
        ("*",),
        {"aim": aim, "field": field},
    )


def develop(
    state: State, owner: str, order: ResearchOrder, dice: Dice, rules: Mapping[str, Any]
) -> list[Event]:
    commander = state.commander(owner)
    assert commander is not None
    factors = {name: factor for name, factor in charts.RESEARCH_FIELDS.values()}
    home = commander.home
    if order.develop not in commander.discoveries or order.develop not in factors:
        return [
            event(
                state,
                "research",
                home,
                "development_refused",
                f"{owner} has not discovered {order.develop}",
                [owner],
            )
        ]
    if not _pay(state, home, owner, order.points):
        return [
            event(
                state,
                "research",
                home,
                "research_unpaid",
                f"{owner} cannot pay {order.points} points for development at {home}",
                [owner],
            )
        ]
    # Half cost: every point spent does the work of two.
    half = order.develop in commander.half_cost
    worth = order.points * 2 if half else order.points
    chance = charts.development_chance(worth, factors[order.develop], rules)
    with dice.at(phase="research", location=home):
        dice.draws_secret(charts.PRIVATE_ROLLS)
        roll = dice.roll(100, f"development of {order.develop}, {owner}")
    done = roll <= chance
    if done:
        commander.discoveries.remove(order.develop)
        commander.developed.append(order.develop)
        if half:
            commander.half_cost.remove(order.develop)
    return [
        event(
            state,
            "research",
            home,
            "development",
            f"{owner} develops {order.develop}"
            + (" at half cost" if half else "")
            + f": {chance}% chance, 1D100 {roll}: "
            + ("developed" if done else "not yet"),
            [owner],
            chance=chance,
            roll=roll,
            done=done,
        )
    ]


def mission_chance(m: Mission) -> int:
    base = 10 * m.spies + 15 * m.master_spies
    chance = base + min(m.points // 10, base)
    return chance * 2 if m.subject == "industry" else chance


def espionage(state: State, orders: Mapping[str, Orders], dice: Dice) -> list[Event]:
    """Every commander's missions: counter-espionage first, then the rest."""
    events: list[Event] = []
    missions: list[tuple[str, Mission]] = []
    for owner in sorted(orders):
        commander = state.commander(owner)
        if commander is None:
            continue
        spies, masters = commander.spies, commander.master_spies
        for m in orders[owner].missions:
            if m.spies > spies or m.master_spies > masters:
                events.append(
                    event(
                        state,
                        "espionage",
                        commander.home,
                        "order_cancelled",
                        f"{owner} has no spies left for a mission against {m.target}",
                        [owner],
                        order=f"mission {m.subject}",
                        cell=m.cell,
                        reason="not enough spies",
                    )
                )
                continue
            if m.points and not _pay(state, commander.home, owner, m.points):
                m = Mission(m.spies, m.master_spies, m.target, m.subject, 0, m.cell)
            spies -= m.spies
            masters -= m.master_spies
            missions.append((owner, m))
    counters = {owner: m for owner, m in missions if m.subject == "counter-espionage"}
    for owner, m in missions:
        if m.subject == "counter-espionage":
            continue
        commander = state.commander(owner)
        assert commander is not None
        guard = counters.get(m.target)
        if guard is not None:
            with dice.at(phase="espionage", location=m.target):
                dice.draws_secret(charts.PRIVATE_ROLLS)
                roll = dice.roll(100, f"counter-espionage of {m.target} against {owner}")
            if roll <= mission_chance(guard):
                commander.spies -= m.spies
                commander.master_spies -= m.master_spies
                events.append(
                    event(
                        state,
                        "espionage",
                        m.target,
                        "spies_caught",
                        f"{m.target}'s counter-espionage catches {owner}'s spies (1D100 {roll})",
                        [owner, m.target],
                        roll=roll,
                    )
                )
                continue
        chance = mission_chance(m)
        with dice.at(phase="espionage", location=m.target):
            dice.draws_secret(charts.PRIVATE_ROLLS)
            roll = dice.roll(100, f"espionage of {owner} on {m.target}")
        found = _intelligence(state, m) if roll <= chance else []
        text = f"{owner}'s spies on {m.target}'s {m.subject}: {chance}% chance, 1D100 {roll}: " + (
            "success" if roll <= chance else "nothing learned"
        )
        secret = ""
        if roll <= chance and m.subject == "research":
            with dice.at(phase="espionage", location=m.target):
                secret = _secret_gained(state, owner, m.target, dice)
            if secret:
                text += f"; the secret of {secret} is stolen: it may be developed"
        events.append(
            event(
                state,
                "espionage",
                m.target,
                "espionage",
                text,
                [owner],
                chance=chance,
                roll=roll,
                found=found,
                secret=secret,
            )
        )
    return events


def _secret_gained(state: State, owner: str, target: str, dice: Dice) -> str:
    """L248: development proceeds only from a discovery "or a secret gained by Industrial
    Espionage or trade".  Our reading: a successful mission on a rival's research steals one
    field the rival has developed or discovered that the spy's commander has neither
    discovered nor developed; it becomes a discovery of the spy's commander.  Which one, when
    there are several, is a die among them in the order of the Research Table (logged, and
    told to the spy's commander alone).  Nothing to steal: nothing is gained."""
    spy, rival = state.commander(owner), state.commander(target)
    if spy is None or rival is None:
        return ""
    order = [name for name, _ in charts.RESEARCH_FIELDS.values()]
    known = set(rival.developed) | set(rival.discoveries)
    lacking = [f for f in order if f in known and f not in spy.discoveries + spy.developed]
    if not lacking:
        return ""
    pick = (
        dice.choice_index(len(lacking), f"secret stolen by {owner} from {target}")
        if len(lacking) > 1
        else 0
    )
    spy.discoveries.append(lacking[pick])
    return lacking[pick]


def _intelligence(state: State, m: Mission) -> list[str]:
    """What a successful mission learns: what sight does not show.  Fleet (a military
    subject): where each ship is and its fuel; research (scientific): the fields found and
    developed; industry (the seed's merchant subject, L138): the production points stored at
    each place and those aboard its ships, which are cargo."""
    target = state.commander(m.target)
    if target is None:
        return []
    ships = [s for s in state.ships if s.owner == target.name]
    if m.subject == "fleet":
        return [f"{s.id} {s.design} at {s.place}, fuel for {s.fuel} parsecs" for s in ships]
    if m.subject == "research":
        return [f"discovered {f}" for f in target.discoveries] + [
            f"developed {f}" for f in target.developed
        ]
    stored = [
        f"{points} production points at {place}"
        for (place, owner), points in sorted(state.stocks.items())
        if owner == target.name
    ]
    return stored + [
        f"{s.cargo} production points aboard {s.id} at {s.place}" for s in ships if s.cargo
    ]


__all__ = [
    "ITEMS",
    "NATIVE_KINDS",
    "PLANET_ITEMS",
    "SHIP_ITEMS",
    "aim_declared",
    "build",
    "buy_item",
    "espionage",
    "hold_room",
    "holdings_text",
    "item_cost",
    "item_named",
    "item_refusal",
    "mine",
    "mission_chance",
    "native_fleet",
    "native_ship_id",
    "next_ship_id",
    "parse_holdings",
    "produce",
    "research",
    "trade_buyer",
]
