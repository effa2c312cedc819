"""The administrative segment: Imperial Intervention, Imperial Appeal, production,
reinforcements placement, construction (with terraforming and outpost upgrades).

The seed's order is kept because each step feeds the next: an Intervention can cancel ships in
production or cut this turn's income, an Appeal can grant a budget increase that production
pays at once, income is known before anything is bought, and units due from the turn record
track are placed before new construction is queued behind them.

Placement follows one rule everywhere (`place_ship`, `place_ground`): ships join the side's
fleet at the system (a new fleet ``T<n>``/``I<n>`` if it has none there; monitors keep to a
fleet of monitors because they never move), ground units stand on the World's planet when its
type allows them and its box has room, otherwise they go aboard free transport (or carrier)
space of a fleet of the side there.  Decisions are recorded in the game's rules notes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...dice import Dice
from ...text.words import counted
from .context import EVERYONE, TurnContext
from .orders import REINFORCEMENT_CAPITALS, Arrival, Orders
from .paths import connected, distances_from
from .setup import new_unit, reserve_counter, reserved_unit
from .state import ALLOWED_ON, Fleet, Planet, Queued, State, Unit, load_of
from .units import (
    IMPERIAL,
    IMPERIAL_RESTRICTED,
    SIDES,
    TERRAN,
    UNIT_TABLES,
    counters_available,
)

PHASE = "administration"

#: Imperial Intervention results (2D6) by name, for events and tests.
INTERVENTION = {
    2: "Imperial Succession",
    3: "Frontier Crisis",
    4: "Imperial Visit",
    5: "Recentralization",
    6: "Economic Depression",
    7: "No Event",
    8: "Economic Boom",
    9: "Mandated Offensive",
    10: "Token Reinforcements",
    11: "Imperial Reinforcements",
    12: "Peace Talks",
}
#: Mandated Offensive forces by die roll (7 only with the Imperial Visit's +1).
MANDATE_FORCES: dict[int, tuple[str, ...]] = {
    1: ("CA", "CA"),
    2: ("B1", "CA", "CA"),
    3: ("B1", "B1", "CA", "CA"),
    4: ("B1", "B2", "CA", "CA"),
    5: ("B2", "B2", "CA", "CR"),
    6: ("BB", "BB", "CA", "CA", "CR"),
    7: ("BB", "BB", "CA", "CA", "CR", "CR", "AT", "JT"),
}
#: Imperial Reinforcements (result 11): the one capital ship, in order of preference, and the
#: light ships that fill the remaining points, in order of preference.
REINFORCEMENT_LIGHTS = ("DD", "CL", "SC")
#: Imperial Appeal, Forces column: 2D6 -> result.  ``prohibit``, a tuple of unit codes (forces),
#: ``grant`` 10 resources, ``budget`` n, ``permit`` codes, or None (no result).
APPEAL_FORCES: dict[int, tuple[str, object]] = {
    2: ("prohibit", None),
    3: ("prohibit", None),
    4: ("forces", ("CL", "DD")),
    5: ("forces", ("CR",)),
    6: ("forces", ("CA",)),
    7: ("none", None),
    8: ("permit", ("CR", "CA")),
    9: ("permit", ("B1",)),
    10: ("permit", ("B2",)),
    11: ("permit", ("BB",)),
    12: ("permit", ("ALL",)),
}


def permitting_rolls(code: str) -> list[int]:
    """The 2D6 rolls of the Appeal's Forces column that permit building ``code``."""
    return [
        roll
        for roll, (kind, codes) in sorted(APPEAL_FORCES.items())
        if kind == "permit" and isinstance(codes, tuple) and (code in codes or "ALL" in codes)
    ]


APPEAL_FINANCES: dict[int, tuple[str, object]] = {
    2: ("prohibit", None),
    3: ("prohibit", None),
    4: ("prohibit", None),
    5: ("none", None),
    6: ("none", None),
    7: ("grant", 10),
    8: ("budget", 1),
    9: ("budget", 2),
    10: ("budget", 3),
    11: ("budget", 4),
    12: ("budget", 5),
}
#: Turns of payments (10 resources each) that complete terraforming, by planet type.
TERRAFORM_TURNS = {"N1": 10, "N2": 8}
UPGRADE_TURNS = 4
INSTALMENT = 10
#: Origins of forces the end of a war takes back.
GRANTED_ORIGINS = ("intervention", "appeal", "mandate")


# -- shared look-ups (used by close-out and glory too) ---------------------------------------------


def is_friendly(planet: Planet, side: str, marker: str = "") -> bool:
    """Whether ``planet`` is a World/Outpost of ``side`` that is not disputed (a disputed
    planet gives neither income, maintenance nor a place to repair)."""
    if planet.owner != side or not planet.marker or planet.disputed:
        return False
    return not marker or planet.marker == marker


def friendly_planets(state: State, side: str, system: str, marker: str = "") -> list[Planet]:
    return [p for p in state.map.planets_in(system) if is_friendly(p, side, marker)]


def unit_system(state: State, unit: Unit) -> str:
    """The system a unit is in (its fleet's, or its planet's)."""
    if unit.fleet:
        fleet = state.fleet(unit.fleet)
        return fleet.system if fleet else ""
    if unit.planet:
        return state.map.planets[unit.planet].system
    return ""


def sides_present(state: State, system: str) -> list[str]:
    """Sides with a unit (in a fleet or on a planet) at ``system``: who sees what happens
    there."""
    found = {u.side for u in state.units if unit_system(state, u) == system}
    return [s for s in SIDES if s in found]


def remove_units(state: State, units: Iterable[Unit]) -> None:
    """Take units off the map; fleets left empty are dissolved."""
    gone = {id(u) for u in units}
    state.units = [u for u in state.units if id(u) not in gone]
    used = {u.fleet for u in state.units if u.fleet}
    state.fleets = [f for f in state.fleets if f.name in used]


def counters_free(state: State, side: str, code: str) -> int:
    """Counters of ``code`` neither in play nor reserved on the turn record track."""
    in_play = sum(1 for u in state.units if u.side == side and u.code == code)
    queued = sum(1 for q in state.queue if q.side == side and q.code == code)
    return counters_available(side, code) - in_play - queued


# -- placing units -------------------------------------------------------------------------------


def new_fleet_name(state: State, side: str) -> str:
    """``T<n>``/``I<n>`` with the lowest number no fleet uses."""
    used = {f.name for f in state.fleets}
    n = 1
    while f"{side[0]}{n}" in used:
        n += 1
    return f"{side[0]}{n}"


def place_ship(state: State, unit: Unit, system: str) -> Fleet:
    """Put a ship into the side's fleet at ``system`` (the lowest-named one; monitors only
    into a fleet of monitors, since they never move), or into a new fleet there."""
    monitor = unit.code == "M"
    for fleet in sorted(state.fleets_at(system, unit.side), key=lambda f: f.name):
        codes = {u.code for u in state.units_in_fleet(fleet.name)}
        if not codes:
            continue
        if (codes == {"M"}) == monitor:
            break
    else:
        fleet = Fleet(name=new_fleet_name(state, unit.side), side=unit.side, system=system)
        state.fleets.append(fleet)
    unit.fleet, unit.planet, unit.hex = fleet.name, "", 0
    if unit not in state.units:
        state.units.append(unit)
    return fleet


def carry_room(ctx: TurnContext, fleet: Fleet, code: str) -> int:
    """Free places for a unit of ``code`` aboard ``fleet`` (`state.Load`): a fighter takes a
    carrier's place first, then a transport's."""
    load = load_of(ctx.state.units_in_fleet(fleet.name), ctx.rules)
    if code == "F":
        return max(0, load.hangar - load.fighters) + max(0, load.free_holds)
    return load.free_holds


def place_ground(ctx: TurnContext, unit: Unit, planet: Planet) -> str:
    """Stand a ground unit on ``planet`` if its type allows it and its box has room, else put
    it aboard a fleet of the side in that system with room; returns where it went ("" when
    nowhere, and the unit is then not added)."""
    state = ctx.state
    allowed = unit.code in ALLOWED_ON.get(planet.klass, ())
    if allowed and state.box_room(planet.code) > 0:
        unit.planet, unit.fleet, unit.hex = planet.code, "", 0
        if unit not in state.units:
            state.units.append(unit)
        return planet.name
    for fleet in sorted(state.fleets_at(planet.system, unit.side), key=lambda f: f.name):
        if carry_room(ctx, fleet, unit.code) > 0:
            unit.fleet, unit.planet, unit.hex = fleet.name, "", 0
            if unit not in state.units:
                state.units.append(unit)
            return f"aboard {fleet.name}"
    return ""


def place_unit(ctx: TurnContext, unit: Unit, planet: Planet) -> str:
    """Place a new unit at ``planet``'s system (ships) or on/over the planet (ground).  A
    monitor stands in a planetary box (`State.monitor_box`), so it needs room there."""
    if unit.code == "M":
        box = ctx.state.monitor_box(unit.side, planet.system)
        if box is not None and ctx.state.box_room(box.code) <= 0:
            return ""
    if unit.is_ship:
        return f"fleet {place_ship(ctx.state, unit, planet.system).name}"
    return place_ground(ctx, unit, planet)


def force_home_world(state: State, wanted: str = "") -> Planet | None:
    """Where Intervention and Appeal forces arrive together ("on any one home world"): the
    Imperial home world ``wanted`` by the Imperial standing order if the Empire still holds it,
    else the one nearest to the Terrans' fleets and planets by jump routes; ties by code."""
    homes = sorted(
        (p for p in state.map.planets.values() if p.home == IMPERIAL and is_friendly(p, IMPERIAL)),
        key=lambda p: p.code,
    )
    if not homes:
        return None
    chosen = [p for p in homes if wanted and p.code == wanted]
    if chosen:
        return chosen[0]
    targets = {unit_system(state, u) for u in state.units if u.side == TERRAN}
    targets |= {p.system for p in state.map.planets.values() if p.owner == TERRAN}
    targets.discard("")
    dist = distances_from(state, sorted(targets)) if targets else {}
    return min(homes, key=lambda p: (dist.get(p.system, 10**6), p.code))


def receive_forces(ctx: TurnContext, codes: Iterable[str], origin: str, why: str) -> None:
    """Imperial forces from an Intervention or Appeal: created if counters are free (those on
    the turn record track are reserved) and placed together at one home world; jump troops
    ride in an attack transport that arrives with them."""
    state = ctx.state
    wanted = ctx.orders[IMPERIAL].forces_world
    home = force_home_world(state, wanted)
    imperial = state.sides[IMPERIAL]
    placed: list[str] = []
    missing: list[str] = []
    units: list[Unit] = []
    for code in codes:
        free = home is not None and counters_free(state, IMPERIAL, code) > 0
        unit = new_unit(state, IMPERIAL, code, ctx.dice) if free else None
        if unit is None or home is None:
            missing.append(code)
            continue
        unit.origin = origin
        if unit.is_ship:
            place_ship(state, unit, home.system)  # type: ignore[union-attr]
        else:
            carrier = next(
                (
                    state.fleet(u.fleet)
                    for u in units
                    if u.code == "AT" and state.fleet(u.fleet) is not None
                ),
                None,
            )
            if carrier is not None and carry_room(ctx, carrier, code) > 0:
                unit.fleet = carrier.name
                state.units.append(unit)
            elif not place_ground(ctx, unit, home):  # type: ignore[arg-type]
                missing.append(code)
                continue
        units.append(unit)
        placed.append(unit.id)
        imperial.granted.append(code)
    where = home.name if home is not None else "no Imperial home world"
    text = f"{why}: " + (", ".join(placed) + f" arrive at {where}" if placed else "no forces")
    if wanted and home is not None and home.code != wanted:
        text += f" ({wanted}, asked for, is not an Imperial home world the Empire holds)"
    if missing:
        reason = "no Imperial home world is held" if home is None else "no counter or room left"
        text += f"; not received ({reason}): {', '.join(missing)}"
    ctx.emit(
        PHASE,
        home.system if home is not None else "",
        "forces",
        text,
        players=(IMPERIAL,),
        visible_to=EVERYONE,
        data={"origin": origin, "units": placed, "missing": missing},
    )


# -- Imperial Intervention -----------------------------------------------------------------------


def intervention(ctx: TurnContext) -> bool:
    """Roll on the Imperial Intervention table (war turns only).  Returns True on an Economic
    Boom (production adds 10 this turn)."""
    state = ctx.state
    dice = ctx.dice.nd6(2, "Imperial Intervention")
    roll = sum(dice)
    name = INTERVENTION[roll]
    _news(
        ctx,
        "intervention",
        f"Imperial Intervention: {roll} - {name}",
        data={"roll": roll, "result": name},
        dice=ctx.last_rolls(2),
    )
    imperial = state.sides[IMPERIAL]
    if roll == 2:
        die = ctx.dice.d6("Imperial Succession: civil war on 1-2")
        civil_war = die <= 2
        if civil_war:
            imperial.initiative_modifier = -1
        _news(
            ctx,
            "intervention",
            f"Imperial Succession: {die} - "
            + (
                "Civil War, -1 to every Imperial initiative roll this turn"
                if civil_war
                else "an orderly succession, no effect"
            ),
            data={"roll": die, "civil_war": civil_war},
            dice=ctx.last_rolls(1),
        )
    elif roll == 3:
        frontier_crisis(ctx)
    elif roll == 4:
        imperial.visit = True
        _news(
            ctx,
            "intervention",
            "Imperial Visit: glory gains are doubled and losses tripled this turn",
        )
        mandated_offensive(ctx, bonus=1)
    elif roll == 5:
        recentralization(ctx)
    elif roll == 6:
        imperial.depression = 3
        _news(
            ctx,
            "intervention",
            "Economic Depression: Imperial income -10 (not below 1) this turn and the next two",
        )
    elif roll == 8:
        cancelled = imperial.depression > 0
        imperial.depression = 0
        _news(
            ctx,
            "intervention",
            "Economic Boom: Imperial income +10 this turn"
            + ("; the Depression is over" if cancelled else ""),
        )
        return True
    elif roll == 9:
        mandated_offensive(ctx, bonus=0)
    elif roll == 10:
        receive_forces(ctx, ("DD", "CL"), "intervention", "Token Reinforcements")
    elif roll == 11:
        imperial_reinforcements(ctx)
    elif roll == 12:
        state.peace_talks = True
        ctx.emit(
            PHASE,
            "",
            "intervention",
            "Peace Talks: this turn no attacks and no moves into systems holding enemy units",
            players=SIDES,
        )
    return False


def frontier_crisis(ctx: TurnContext) -> None:
    """Remove 1D6 points of Imperial ships (capital ships 2 points) to the turn record track,
    due three turns ahead.  Chosen cheapest first, ships away from enemy units before ships
    facing them and transports/carriers with cargo last, and a capital only when two points
    remain; monitors stay (they are fixed defences).  What a fleet left without ships carried
    goes onto the track with it."""
    state = ctx.state
    points = ctx.dice.d6("Frontier Crisis: ships recalled")
    rolled = ctx.last_rolls(1)

    def weight(u: Unit) -> int:
        return 2 if ctx.unit_type(u.side, u.code).kind == "capital" else 1

    def key(u: Unit) -> tuple[int, int, int, str]:
        system = unit_system(state, u)
        facing = 1 if TERRAN in sides_present(state, system) else 0
        kind = ctx.unit_type(u.side, u.code)
        cargo = {c.code for c in state.units_in_fleet(u.fleet) if not c.is_ship}
        carrying = (u.code in ("TR", "AT") and bool(cargo - {"F"})) or (
            kind.fighters > 0 and "F" in cargo
        )
        return (facing, 1 if carrying else 0, kind.cost, u.id)

    ships = sorted(
        (u for u in state.units if u.side == IMPERIAL and u.fleet and u.is_ship),
        key=key,
    )
    ships = [u for u in ships if u.code != "M"]
    # "The Imperial player ... immediately remove that number of ships": the ships the
    # standing order names go first, in its order; the usual choice fills up the rest.
    first = [u for name in ctx.orders[IMPERIAL].crisis_ships for u in ships if u.id == name]
    ships = first + [u for u in ships if u not in first]
    left = points
    chosen: list[Unit] = []
    for u in ships:
        if left <= 0:
            break
        if weight(u) <= left:
            chosen.append(u)
            left -= weight(u)
    fleets = {u.fleet for u in chosen}
    leftover: list[Unit] = []
    for name in sorted(fleets):
        rest = [u for u in state.units_in_fleet(name) if u not in chosen]
        if not any(u.is_ship for u in rest):
            leftover.extend(rest)
    due = state.turn + 3
    for u in chosen + leftover:
        state.queue.append(Queued(IMPERIAL, u.code, due, source="frontier", origin=u.origin))
    remove_units(state, chosen + leftover)
    ids = [u.id for u in chosen]
    _news(
        ctx,
        "intervention",
        f"Frontier Crisis: {counted(points, 'point')} of ships recalled to the frontier "
        f"until turn {due}: "
        + (", ".join(ids) if ids else "none")
        + (f" (with {', '.join(u.id for u in leftover)} aboard)" if leftover else ""),
        data={"roll": points, "removed": ids, "carried": [u.id for u in leftover], "due": due},
        dice=rolled,
    )


def mandated_offensive(ctx: TurnContext, bonus: int) -> None:
    """1D6 (+1 on an Imperial Visit) on the forces table; the forces stay while the glory
    index, from the turn after they arrive, is above the index at their arrival (noted here;
    checked by `glory.mandate_check`)."""
    die = ctx.dice.d6("Mandated Offensive forces")
    roll = min(7, die + bonus)
    imperial = ctx.state.sides[IMPERIAL]
    imperial.mandate_turn = ctx.state.turn
    imperial.mandate_glory = ctx.state.glory
    rolled = ctx.last_rolls(1)
    each_turn = ctx.rules["mandate_mark"] == "each-turn"
    _news(
        ctx,
        "intervention",
        f"Mandated Offensive: {die}{f' +{bonus}' if bonus else ''}; its forces stay only while "
        + (
            "the glory index rises each turn from next turn on"
            if each_turn
            else f"the glory index, from next turn on, is above {ctx.state.glory}, "
            "its value as they arrive"
        ),
        data={"roll": die, "bonus": bonus, "forces": list(MANDATE_FORCES[roll])},
        dice=rolled,
    )
    receive_forces(ctx, MANDATE_FORCES[roll], "mandate", f"Mandated Offensive ({roll})")


def recentralization(ctx: TurnContext) -> None:
    """Permissions revoked; B1, B2 and BB under construction cancelled, half their cost back."""
    state = ctx.state
    imperial = state.sides[IMPERIAL]
    revoked = list(imperial.permissions)
    imperial.permissions = []
    cancelled = [
        q
        for q in state.queue
        if q.side == IMPERIAL and q.source == "built" and q.code in ("B1", "B2", "BB")
    ]
    refund = sum(q.paid // 2 for q in cancelled)
    state.queue = [q for q in state.queue if q not in cancelled]
    imperial.resources += refund
    _news(
        ctx,
        "intervention",
        "Recentralization: production permissions revoked"
        + (f" ({', '.join(revoked)})" if revoked else "")
        + (
            f"; cancelled {', '.join(q.code for q in cancelled)}, {refund} resources returned"
            if cancelled
            else ""
        ),
        data={"revoked": revoked, "cancelled": [q.code for q in cancelled], "refund": refund},
    )


def imperial_reinforcements(ctx: TurnContext) -> None:
    """1D6 points of ships, capitals counting two and at most one capital: the mix is one CA
    (or the next capital with a free counter) when two or more points are rolled, and the
    rest in DDs (then CLs, SCs when DDs run out)."""
    state = ctx.state
    points = ctx.dice.d6("Imperial Reinforcements: ships")
    codes: list[str] = []
    reserved: dict[str, int] = {}

    def free(code: str) -> bool:
        return counters_free(state, IMPERIAL, code) - reserved.get(code, 0) > 0

    left = points
    wanted = ctx.orders[IMPERIAL].reinforcement_capital
    if left >= 2 and wanted != "none":
        # "No more than one capital ship may arrive": the one the standing order asks for if
        # a counter is free, else the usual list.
        choices = ([wanted] if wanted else []) + list(REINFORCEMENT_CAPITALS)
        capital = next((c for c in choices if c in REINFORCEMENT_CAPITALS and free(c)), "")
        if capital:
            codes.append(capital)
            reserved[capital] = 1
            left -= 2
    while left > 0:
        light = next((c for c in REINFORCEMENT_LIGHTS if free(c)), "")
        if not light:
            break
        codes.append(light)
        reserved[light] = reserved.get(light, 0) + 1
        left -= 1
    _news(
        ctx,
        "intervention",
        f"Imperial Reinforcements: {counted(points, 'point')} of ships",
        data={"roll": points, "ships": codes},
        dice=ctx.last_rolls(1),
    )
    receive_forces(ctx, codes, "intervention", "Imperial Reinforcements")


# -- Imperial Appeal -----------------------------------------------------------------------------


def appeal(ctx: TurnContext) -> None:
    """2D6 on the column the Imperial sheet asked for, unless appeals are prohibited."""
    orders = ctx.orders[IMPERIAL]
    column = orders.appeal
    if not column:
        return
    imperial = ctx.state.sides[IMPERIAL]
    why = ""
    if column not in ("Forces", "Finances"):
        why = f"{column!r} is not an Appeal column (Forces or Finances)"
    elif ctx.state.at_peace():
        why = "there are no Appeals in peacetime"
    elif imperial.appeals_prohibited:
        why = "further Appeals are prohibited for the rest of this war"
    if why:
        ctx.tell(
            IMPERIAL,
            PHASE,
            "",
            "skipped",
            f"Imperial Appeal ({column}, {orders.appeal_cell or 'sheet'}) not made: {why}",
        )
        return
    table = APPEAL_FORCES if column == "Forces" else APPEAL_FINANCES
    dice = ctx.dice.nd6(2, f"Imperial Appeal ({column})")
    roll = sum(dice)
    kind, value = table[roll]
    rolled = ctx.last_rolls(2)
    if kind == "prohibit":
        imperial.appeals_prohibited = True
        text = "Further Appeals Prohibited (for the rest of this war)"
    elif kind == "none":
        text = "no result"
    elif kind == "grant":
        imperial.resources += int(value)  # type: ignore[call-overload]
        text = f"a one-time grant of {value} resources"
    elif kind == "budget":
        imperial.budget_bonus += int(value)  # type: ignore[call-overload]
        text = f"budget increased by {value} a turn (now +{imperial.budget_bonus})"
    elif kind == "permit":
        codes = tuple(value)  # type: ignore[call-overload]
        for code in codes:
            if code not in imperial.permissions:
                imperial.permissions.append(code)
        text = (
            "all ships may be produced"
            if codes == ("ALL",)
            else f"{'/'.join(codes)} production permitted"
        )
    else:
        text = f"forces: {', '.join(value)}"  # type: ignore[arg-type]
    _news(
        ctx,
        "appeal",
        f"Imperial Appeal ({column}): {roll} - {text}",
        data={"column": column, "roll": roll, "result": kind},
        dice=rolled,
    )
    if kind == "forces":
        receive_forces(ctx, value, "appeal", f"Imperial Appeal ({roll})")  # type: ignore[arg-type]


# -- production ----------------------------------------------------------------------------------


def expected_income(state: State, side: str) -> int:
    """The income the side can expect at the next Production step, before this turn's
    Intervention and Appeal: the production step's own figure (`admin.income`), so the sheet,
    the report and the resolution never disagree (disputed planets pay nothing, Sol pays 10
    while a Terran home World is held, a Depression cuts 10)."""
    total, _lines = income(TurnContext(state=state, dice=Dice.scripted([]), rules={}), side)
    return total


def income(ctx: TurnContext, side: str, boom: bool = False) -> tuple[int, list[tuple[str, int]]]:
    """A side's income this turn and its lines.  Disputed planets count for nobody; Terran
    Sol pays 10 while a Terran home World is held (its home worlds do not count again)."""
    state = ctx.state
    lines: list[tuple[str, int]] = []
    owned = [p for p in state.map.planets.values() if is_friendly(p, side)]
    worlds = [p for p in owned if p.marker == "World"]
    outposts = [p for p in owned if p.marker == "Outpost"]
    if side == IMPERIAL:
        lines.append(("regional budget", 10))
        bonus = state.sides[side].budget_bonus
        if bonus:
            lines.append(("Appeal budget increases", bonus))
        for p in worlds:
            lines.append((f"World {p.name}", 1))
    else:
        if any(p.home == TERRAN for p in worlds):
            lines.append(("Sol", 10))
        for p in worlds:
            if p.home == TERRAN:
                continue
            linked = connected(state, side, p.system)
            lines.append(
                (f"World {p.name}" + ("" if linked else " (unconnected)"), 8 if linked else 6)
            )
    for p in outposts:
        if connected(state, side, p.system):
            lines.append((f"Outpost {p.name}", 1))
    total = sum(v for _, v in lines)
    side_state = state.sides[side]
    if side == IMPERIAL and boom:
        lines.append(("Economic Boom", 10))
        total += 10
    if side == IMPERIAL and side_state.depression > 0:
        cut = min(10, max(0, total - 1))
        lines.append(("Economic Depression", -cut))
        total -= cut
    return total, lines


def production(ctx: TurnContext, boom: bool) -> None:
    for side in SIDES:
        total, lines = income(ctx, side, boom)
        s = ctx.state.sides[side]
        s.resources += total
        ctx.tell(
            side,
            PHASE,
            "",
            "production",
            f"{side} income {total}: "
            + ", ".join(f"{label} {value:+d}" for label, value in lines)
            + f"; stockpile now {s.resources}",
            data={"income": total, "lines": lines, "stockpile": s.resources},
        )


# -- reinforcements ------------------------------------------------------------------------------


def side_worlds(state: State, side: str) -> list[Planet]:
    return sorted(
        (p for p in state.map.planets.values() if is_friendly(p, side, "World")),
        key=lambda p: (0 if p.home == side else 1, p.code),
    )


def reinforcements(ctx: TurnContext) -> None:
    """Units due on the turn record track arrive at the side's Worlds, one per World before
    any World gets a second; a unit that cannot be placed now waits for next turn."""
    state = ctx.state
    due = [q for q in state.queue if q.due <= state.turn]
    state.queue = [q for q in state.queue if q.due > state.turn]

    # Units the sheet places at a World come first, so the one-per-World rule honours the
    # player's placement before spreading the rest.
    due.sort(key=lambda q: 0 if (a := _arrival_of(ctx, q)) is not None and a.world else 1)
    counts: dict[str, dict[str, int]] = {side: {} for side in SIDES}
    for q in due:
        worlds = side_worlds(state, q.side)
        if not worlds:
            _wait(ctx, q, "the side holds no World")
            continue
        placed_at = counts[q.side]
        least = min(placed_at.get(p.code, 0) for p in worlds)
        options = [p for p in worlds if placed_at.get(p.code, 0) == least]
        # The sheet's arrivals block places the unit (World, fleet); a build line's World or
        # fleet is the wish otherwise.  "Fighters, jump/regular troops, planetary defense
        # systems or Outposts may enter the game loaded on any previously empty transports":
        # a fleet named takes the unit aboard at the World where it stands.
        arrival = _arrival_of(ctx, q)
        wanted = arrival.world if arrival is not None and arrival.world else q.world
        fleet_name = arrival.fleet if arrival is not None and arrival.fleet else ""
        if not fleet_name and q.world not in state.map.planets:
            fleet_name = q.world
        aboard = _fleet_named(state, q.side, fleet_name)
        if aboard is not None and wanted not in state.map.planets:
            wanted = next((p.code for p in worlds if p.system == aboard.system), wanted)
        options.sort(key=lambda p: 0 if p.code == wanted else 1)
        if wanted and options[0].code != wanted:
            ctx.tell(
                q.side,
                PHASE,
                "",
                "reinforcement",
                f"{q.unit_id or q.code} could not be placed at {wanted} as asked: a World "
                "still without a new unit this turn comes first (or it is not a World of "
                "yours)",
            )
        unit = reserved_unit(state, q.side, q.code, q.unit_id) if q.unit_id else None
        unit = unit or new_unit(state, q.side, q.code, ctx.dice)
        if unit is None:
            ctx.tell(
                q.side,
                PHASE,
                "",
                "reinforcement",
                f"{q.code} due from the turn record track is lost: every {q.code} counter is "
                "in play",
            )
            continue
        unit.origin = q.origin
        where = ""
        for planet in options:
            where = ""
            if (
                aboard is not None
                and planet.system == aboard.system
                and not unit.is_ship
                and carry_room(ctx, aboard, unit.code) > 0
            ):
                unit.fleet, unit.planet, unit.hex = aboard.name, "", 0
                state.units.append(unit)
                where = f"aboard {aboard.name}, as asked"
            elif fleet_name and unit.is_ship:
                where = _join_or_form(ctx, unit, planet, fleet_name)
            if not where:
                where = place_unit(ctx, unit, planet)
            if where:
                placed_at[planet.code] = placed_at.get(planet.code, 0) + 1
                ctx.tell(
                    q.side,
                    PHASE,
                    planet.system,
                    "reinforcement",
                    f"{q.side} {unit.id} arrives at {planet.name} ({where})",
                    data={"unit": unit.id, "planet": planet.code, "source": q.source},
                )
                break
        if not where:
            _wait(ctx, q, "no World in turn for a unit has room for it on the planet or aboard")


def arrivals_due(state: State, side: str) -> list[Queued]:
    """The side's turn-record-track entries placed at the start of this turn with a counter
    reserved for them: the units its sheet lists as arrivals and may give orders."""
    return [q for q in state.queue if q.side == side and q.due <= state.turn and q.unit_id]


def _arrival_of(ctx: TurnContext, q: Queued) -> Arrival | None:
    """Where the side's sheet places this arriving unit, if it says."""
    return ctx.orders[q.side].arrival_for(q.unit_id) if q.unit_id else None


def arrival_plan(
    state: State, side: str, rules: Mapping[str, Any], arrivals: Sequence[Arrival] = ()
) -> dict[str, tuple[str, str]]:
    """Where each of ``side``'s units due at the start of ``state.turn`` will be placed:
    unit id -> (the World's code, the fleet it joins, forms or rides in, or "" when it stands
    on the planet), by the placement rule itself run on a copy of the state.  A forecast for
    the sheet and the checker: this turn's Intervention or Appeal may place forces first."""
    sheet = Orders(state.player_of(side), side, state.turn, arrivals=list(arrivals))
    ctx = TurnContext.start(state, {sheet.player: sheet}, Dice(seed=0), rules)
    ctx.state.queue = [q for q in ctx.state.queue if q.side == side]
    reinforcements(ctx)
    plan: dict[str, tuple[str, str]] = {}
    for event in ctx.events:
        uid = event.data.get("unit") if event.kind == "reinforcement" else None
        unit = ctx.state.unit(side, uid) if uid else None
        if unit is not None:
            plan[unit.id] = (str(event.data.get("planet", "")), unit.fleet)
    return plan


def _join_or_form(ctx: TurnContext, unit: Unit, planet: Planet, name: str) -> str:
    """A new ship joins the side's fleet ``name`` at the World's system, or forms a new fleet
    of that name when no fleet has it; "" when neither can be (the usual placement then)."""
    state = ctx.state
    if unit.code == "M":
        box = state.monitor_box(unit.side, planet.system)
        if box is not None and state.box_room(box.code) <= 0:
            return ""
    fleet = _fleet_named(state, unit.side, name)
    if fleet is not None and fleet.system == planet.system:
        unit.fleet, unit.planet, unit.hex = fleet.name, "", 0
        state.units.append(unit)
        return f"joins fleet {fleet.name}, as asked"
    if fleet is None and not any(f.name.upper() == name.upper() for f in state.fleets):
        state.fleets.append(Fleet(name=name, side=unit.side, system=planet.system))
        unit.fleet, unit.planet, unit.hex = name, "", 0
        state.units.append(unit)
        return f"forms fleet {name}, as asked"
    return ""


def _fleet_named(state: State, side: str, name: str) -> Fleet | None:
    """The side's fleet called ``name`` (any case), if a build line named a fleet."""
    if not name or name in state.map.planets:
        return None
    return next(
        (f for f in state.fleets if f.side == side and f.name.upper() == name.upper()), None
    )


def _wait(ctx: TurnContext, q: Queued, why: str) -> None:
    q.due = ctx.state.turn + 1
    ctx.state.queue.append(q)
    ctx.tell(
        q.side,
        PHASE,
        "",
        "reinforcement",
        f"{q.code} stays on the turn record track until next turn: {why}",
    )


# -- construction, terraforming, upgrades --------------------------------------------------------


def build_cost(ctx: TurnContext, side: str, code: str) -> int:
    """Build cost, doubled in peacetime."""
    cost = ctx.unit_type(side, code).cost
    return cost * 2 if ctx.state.at_peace() else cost


def construction(ctx: TurnContext) -> None:
    """Each build line in sheet order: paid in full and queued, or skipped with the reason."""
    state = ctx.state
    for side in SIDES:
        s = state.sides[side]
        for build in ctx.orders[side].builds:
            for _ in range(max(0, build.count)):
                why = _build_refusal(ctx, side, build.code)
                if why:
                    ctx.tell(
                        side,
                        PHASE,
                        "",
                        "skipped",
                        f"Build {build.code} ({build.cell or 'sheet'}) not carried out: {why}",
                        data={"code": build.code, "cell": build.cell},
                    )
                    break
                cost = build_cost(ctx, side, build.code)
                s.resources -= cost
                due = state.turn + ctx.unit_type(side, build.code).build
                state.queue.append(
                    Queued(side, build.code, due, source="built", paid=cost, world=build.world)
                )
                ctx.tell(
                    side,
                    PHASE,
                    "",
                    "construction",
                    f"{side} builds {build.code} for {cost}, due turn {due}; stockpile "
                    f"{s.resources}",
                    data={"code": build.code, "cost": cost, "due": due},
                )


def _build_refusal(ctx: TurnContext, side: str, code: str) -> str:
    s = ctx.state.sides[side]
    if code not in UNIT_TABLES[side]:
        return f"the {side} unit list has no {code}"
    if side == TERRAN and code == "BB" and not s.bb_unlocked:
        return "Terrans may build a BB only after a Terran B has been destroyed"
    if (
        side == IMPERIAL
        and code in IMPERIAL_RESTRICTED
        and not (code in s.permissions or "ALL" in s.permissions)
    ):
        return f"building {code} needs permission from an Imperial Appeal"
    if counters_free(ctx.state, side, code) <= 0:
        return f"every {code} counter is in play or under construction"
    cost = build_cost(ctx, side, code)
    if cost > s.resources:
        return f"it costs {cost} and only {s.resources} resources are left"
    return ""


def terraforming(ctx: TurnContext) -> None:
    """10 resources a turn on an N1 (10 turns) or N2 (8 turns) planet with a connected
    friendly Outpost; on completion the planet becomes A1 and remembers its type."""
    state = ctx.state
    for side in SIDES:
        s = state.sides[side]
        done: set[str] = set()
        for order in ctx.orders[side].terraform:
            planet = state.map.planets.get(order.planet)
            why = ""
            if planet is None:
                why = f"there is no planet {order.planet}"
            elif planet.code in done:
                why = "it is already being paid for this turn"
            elif planet.type not in TERRAFORM_TURNS:
                why = f"{planet.name} is type {planet.type}; only N1 and N2 can be terraformed"
            elif not is_friendly(planet, side, "Outpost"):
                why = f"{planet.name} holds no Outpost of yours (or it is disputed)"
            elif not connected(state, side, planet.system):
                why = f"{planet.name}'s Outpost is not connected to your home worlds"
            elif s.resources < INSTALMENT:
                why = f"it costs {INSTALMENT} and only {s.resources} resources are left"
            if why or planet is None:
                _skip(ctx, side, f"Terraforming {order.planet} ({order.cell or 'sheet'})", why)
                continue
            done.add(planet.code)
            s.resources -= INSTALMENT
            if planet.terraform_side != side:
                planet.terraform_side = side
            planet.terraform_paid += 1
            need = TERRAFORM_TURNS[planet.type]
            text = f"{planet.name} terraforming paid {planet.terraform_paid} of {need} turns"
            if planet.terraform_paid >= need:
                planet.original_type = planet.type
                planet.type = "A1"
                planet.terraform_paid = 0
                planet.terraform_side = ""
                text = f"{planet.name} is terraformed: now type A1 (was {planet.original_type})"
            ctx.tell(
                side,
                PHASE,
                planet.system,
                "terraform",
                text,
                data={"planet": planet.code, "paid": planet.terraform_paid},
            )


def upgrades(ctx: TurnContext) -> None:
    """Peacetime only: 10 resources a turn for four turns turn an Outpost on a type A planet
    into a World."""
    state = ctx.state
    for side in SIDES:
        s = state.sides[side]
        done: set[str] = set()
        for order in ctx.orders[side].upgrades:
            planet = state.map.planets.get(order.planet)
            why = ""
            if not state.at_peace():
                why = "Outposts are upgraded only in peacetime"
            elif planet is None:
                why = f"there is no planet {order.planet}"
            elif planet.code in done:
                why = "it is already being paid for this turn"
            elif not is_friendly(planet, side, "Outpost"):
                why = f"{planet.name} holds no Outpost of yours"
            elif planet.klass != "A":
                why = f"{planet.name} is type {planet.type}; only type A planets take Worlds"
            elif s.resources < INSTALMENT:
                why = f"it costs {INSTALMENT} and only {s.resources} resources are left"
            if why or planet is None:
                _skip(ctx, side, f"Upgrade {order.planet} ({order.cell or 'sheet'})", why)
                continue
            done.add(planet.code)
            s.resources -= INSTALMENT
            planet.upgrade_paid += 1
            text = f"{planet.name} upgrade paid {planet.upgrade_paid} of {UPGRADE_TURNS} turns"
            if planet.upgrade_paid >= UPGRADE_TURNS:
                planet.marker = "World"
                planet.upgrade_paid = 0
                text = f"{planet.name}'s Outpost is now a World"
            ctx.tell(side, PHASE, planet.system, "upgrade", text, data={"planet": planet.code})


def _news(ctx: TurnContext, kind: str, text: str, **details: Any) -> None:
    """An administrative event of the Empire's, told to both sides: the seed's Intervention and
    Appeal tables are rolled in the open."""
    ctx.emit(PHASE, "", kind, text, players=(IMPERIAL,), **details)


def _skip(ctx: TurnContext, side: str, what: str, why: str) -> None:
    ctx.tell(side, PHASE, "", "skipped", f"{what} not carried out: {why}")


# -- the segment ---------------------------------------------------------------------------------


def administrative_segment(ctx: TurnContext) -> None:
    """Intervention, Appeal, production, reinforcements, construction, in the seed's order.
    In peacetime there is neither Intervention nor Appeal."""
    boom = False
    if not ctx.state.at_peace():
        boom = intervention(ctx)
    appeal(ctx)
    production(ctx, boom)
    reinforcements(ctx)
    construction(ctx)
    terraforming(ctx)
    upgrades(ctx)
    reserve_counters(ctx)


def reserve_counters(ctx: TurnContext) -> None:
    """Give every unit on the turn record track the counter it will be (troops drawn now, at
    random), so the sheet of the turn it arrives can name it in orders."""
    for q in ctx.state.queue:
        if not q.unit_id:
            q.unit_id = reserve_counter(ctx.state, q.side, q.code, ctx.dice)


__all__ = [
    "administrative_segment",
    "force_home_world",
    "income",
    "is_friendly",
    "place_ship",
    "remove_units",
    "sides_present",
    "unit_system",
]
