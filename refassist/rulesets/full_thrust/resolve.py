"""Resolving a step of the campaign: the set-up, a week, or the battles a week left for the
referee.

A week runs in this order: ships finished last week enter service; alliances declared by both
sides hold; planets produce; every timeline runs in time order (`travel`), which opens the
battles; platforms mine; yards lay down the ships ordered; research and espionage.  If battles
were opened the week waits for the referee: the next step's sheets are the battle sheets, and
resolving that step applies the results entered, rolls for crack ships and ends the week.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ...dice import Dice
from ...text.words import counted
from ..base import Event, Resolution
from . import charts, economy
from .designs import Design
from .grid import distance
from .orders import Orders, no_orders
from .setup import SETUP_WEEK
from .state import NATIVES, Battle, BattleResult, InBattle, Ship, State, event
from .timeline import Activity, Position, run
from .travel import Mover, run_week
from .visibility import known_holders

WEEK_HOURS = 100


def resolve_turn(
    state: State, orders: Mapping[str, Any], dice: Dice, rules: Mapping[str, Any]
) -> Resolution:
    """The next state: a pure function of ``state``, ``orders`` and ``dice``."""
    state = copy.deepcopy(state)
    state.events = []
    if state.battles:
        events = finish_battles(state, orders, dice, rules)
        summary = f"Week {state.week - 1}: the battles' results are in"
    elif state.week == SETUP_WEEK:
        events = set_up(state, orders)
        summary = "The commanders have bought their fleets"
    else:
        events = run_a_week(state, orders, dice, rules)
        summary = (
            f"Week {state.week}: {len(state.battles)} battle(s) wait for the referee"
            if state.battles
            else f"Week {state.week - 1} resolved"
        )
    state.events = events
    state.dice = list(dice.log)
    return Resolution(state, events, summary)


def set_up(state: State, orders: Mapping[str, Orders]) -> list[Event]:
    """Each commander's starting fleet, bought with its starting points at its home; what is
    not spent is stocked there."""
    events: list[Event] = []
    numbers: dict[str, int] = {}
    for c in state.commanders:
        bought = orders.get(c.name, no_orders(c.name, SETUP_WEEK)).purchases
        for p in bought:
            design = state.designs.get(p.design)
            if design is None:
                continue
            for n in range(p.count):
                if c.points < design.cost:
                    events.append(
                        event(
                            state,
                            "set-up",
                            c.home,
                            "order_cancelled",
                            f"{c.name} could buy only {n} of {p.count} x {design.name} "
                            f"with the points left",
                            [c.name],
                            order=f"{p.count} x {design.name}",
                            cell=p.cell,
                            reason="not enough points",
                        )
                    )
                    break
                c.points -= design.cost
                ship_id = economy.next_ship_id(state, c.code, numbers)
                state.ships.append(Ship(ship_id, design.name, c.name, c.home))
        fleet = [s for s in state.ships if s.owner == c.name]
        if c.points:
            state.add_stock(c.home, c.name, c.points)
        events.append(
            event(
                state,
                "set-up",
                c.home,
                "fleet_bought",
                f"{c.name} starts at {c.home} with {len(fleet)} ship(s); "
                f"{c.points} points left are stocked at {c.home}",
                [c.name],
                ships=[s.id for s in fleet],
                left=c.points,
            )
        )
        c.points = 0
    state.week = 1
    return events


def movers_of(state: State, orders: Mapping[str, Orders], rules: Mapping[str, Any]) -> list[Mover]:
    """Every ship in service as a mover: in the fleets and timelines ordered, or idle."""
    movers: list[Mover] = []
    taken: set[str] = set()
    # Plans are judged by what each commander knows (`timeline.run`): the checker runs these
    # same plans, and what it refuses is what the week skips.
    known = {c.name: known_holders(state, c.name) for c in state.commanders}
    stations = {
        c.name: frozenset(
            f.place for f in state.facilities if f.owner == c.name and f.kind == "station"
        )
        for c in state.commanders
    }
    for c in state.commanders:
        mine = orders.get(c.name, no_orders(c.name, state.week))
        ready = {s.id: s for s in state.ships if s.owner == c.name and s.in_service(state.week)}
        fleets = {}
        # A ship being scrapped since last week goes on being scrapped, whatever its orders.
        scrapping = {i for i, s in ready.items() if s.scrapping}
        for f in mine.fleets:
            ships = [ready[i] for i in f.ships if i in ready and i not in taken | scrapping]
            if ships and all(
                s.place == ships[0].place and s.landed == ships[0].landed for s in ships
            ):
                fleets[f.name] = ships
                taken.update(s.id for s in ships)
        timelines = {t.unit: t.activities for t in mine.timelines}
        units: list[tuple[str, list[Ship]]] = list(fleets.items())
        units += [(s.id, [s]) for s in ready.values() if s.id not in taken]
        for name, ships in units:
            activities = timelines.get(name, [])
            if name in scrapping:
                activities = [Activity("scrap", text="scrap (carried on)")]
            design = _unit_design(state, ships)
            start = Position(
                place=ships[0].place,
                fuel=min(s.fuel for s in ships),
                cargo=ships[0].cargo if len(ships) == 1 else 0,
                landed=ships[0].landed,
                inches=ships[0].inches,
                ready_at=max(s.ready_at for s in ships),
                drive=next(
                    (d for d in ("destroyed", "disabled") if any(s.drive == d for s in ships)),
                    "ok",
                ),
                scrapping=ships[0].scrapping if len(ships) == 1 else 0,
                damage=ships[0].damage if len(ships) == 1 else 0,
                captured=any(s.needs_refit for s in ships),
                towing=next((f.id for f in state.facilities if f.towed_by == ships[0].id), ""),
            )
            plan = run(
                state,
                c.name,
                design,
                start,
                activities,
                rules,
                stations=stations[c.name],
                holders=known[c.name],
            )
            movers.append(
                Mover(
                    name,
                    c.name,
                    ships,
                    plan,
                    list(activities),
                    ships[0].place,
                    ready_at=start.ready_at,
                    reserve=plan.reserve,
                )
            )
    return movers


def _unit_design(state: State, ships: list[Ship]) -> Design:
    designs = [state.designs[s.design] for s in ships]
    if len(designs) == 1:
        return designs[0]
    first = designs[0]
    return Design(
        name=f"fleet of {len(ships)}",
        mass=max(d.mass for d in designs),
        cost=sum(d.cost for d in designs),
        size=first.size,
        kind="merchant" if all(d.merchant for d in designs) else "warship",
        boxes=sum(d.boxes for d in designs),
        hold=0,
        ftl=all(d.ftl for d in designs),
        streamlined=all(d.streamlined for d in designs),
    )


def run_a_week(
    state: State, orders: Mapping[str, Orders], dice: Dice, rules: Mapping[str, Any]
) -> list[Event]:
    events: list[Event] = []
    for s in state.ships:
        if s.ready_week and s.ready_week <= state.week:
            s.ready_week = 0
            events.append(
                event(
                    state,
                    "economy",
                    s.place,
                    "ship_completed",
                    f"{s.id}, a {s.design}, enters service at {s.place}",
                    [s.owner],
                )
            )
    events += economy.complete_facilities(state)
    for c in state.commanders:
        if c.name in orders:
            c.allies = [a for a in orders[c.name].allies if a != c.name]
    events += economy.produce(state)
    movers = movers_of(state, orders, rules)
    week = run_week(state, movers, dice, rules, lambda s: state.designs[s.design].merchant)
    events += week.events
    events += economy.mine(state, dice, rules, before=week.worked)
    numbers: dict[str, int] = {}
    for c in state.commanders:
        mine = orders.get(c.name)
        if mine is None:
            continue
        for p in mine.purchases:
            events += economy.build(state, c.name, p, numbers, rules)
        if mine.research is not None:
            events += economy.research(state, c.name, mine.research, dice, rules)
    events += economy.espionage(state, orders, dice)
    if not state.battles:
        events += end_week(state, rules)
    return events


def finish_battles(
    state: State, results: Mapping[str, Any], dice: Dice, rules: Mapping[str, Any]
) -> list[Event]:
    """Apply each battle's result as the referee entered it, roll for crack ships, end the week.

    What the table showed (ships destroyed, boxes lost, captures, who holds the planet) is
    told to every side; what happens to a commander's own after it (its ships that become
    crack, the technologies it may develop at half cost from a home planet taken) only to it,
    in a ``battle_aftermath`` event: a rival learns a crew's quality on the table, not from
    the report."""
    events: list[Event] = []
    for battle in state.battles:
        result = results.get(battle.id)
        sides = [s for s in battle.sides if s != NATIVES]
        if not isinstance(result, BattleResult):
            events.append(
                event(
                    state,
                    "battles",
                    battle.place,
                    "battle_unresolved",
                    f"No result was entered for the battle at {battle.place}; "
                    "every ship is left as it was",
                    sides,
                    battle=battle.id,
                )
            )
            continue
        lines = []
        private: dict[str, list[str]] = {}
        for entry in battle.ships:
            ship = state.ship(entry.ship)
            if entry.owner == NATIVES:
                lines += _natives_lost(state, battle, entry, result)
                continue
            if ship is None:
                continue
            design = state.designs[ship.design]
            if entry.ship in result.destroyed:
                state.ships.remove(ship)
                lines.append(f"{ship.id} destroyed")
                continue
            lost = result.damage.get(entry.ship, 0)
            if lost:
                if design.merchant and design.boxes:
                    ship.cargo -= ship.cargo * lost // design.boxes
                ship.damage = min(design.boxes, ship.damage + lost)
                lines.append(f"{ship.id} loses {counted(lost, 'damage box', 'damage boxes')}")
            captor = result.captured.get(entry.ship)
            if captor:
                ship.owner = captor
                ship.fleet = ""
                ship.scrapping = 0  # the captor's to scrap again, at a yard of its own
                ship.needs_refit = not design.merchant
                lines.append(
                    f"{ship.id} captured by {captor}"
                    + (" (a capture refit before it can be used)" if ship.needs_refit else "")
                )
            if not captor and entry.ship in result.withdrew:
                lines.append(withdraw(state, ship, result.withdrew[entry.ship], rules))
            with dice.at(phase="battles", location=battle.place):
                crack = charts.becomes_crack(dice, rules, survived=ship.battles, ship=ship.id)
            ship.battles += 1
            if crack and not ship.crack:
                ship.crack = True
                private.setdefault(ship.owner, []).append(f"{ship.id} becomes a crack ship")
        system = state.systems[battle.place]
        if (
            result.holder
            and system.planet
            and not system.owner
            and battle.invasion != result.holder
        ):
            # A neutral planet changes hands only by invasion (its natives' surrender, or
            # their defeat in the war that follows): a fight between rivals there gives it
            # to no one.
            lines.append(f"{battle.place} stays neutral: {result.holder} did not invade it")
        elif result.holder and system.planet and result.holder != NATIVES:
            if system.owner != result.holder:
                lines.append(f"{result.holder} takes {battle.place}")
                gained = _home_taken(state, battle.place, system.owner, result.holder)
                if gained:
                    private.setdefault(result.holder, []).extend(gained)
            system.owner = result.holder
            if battle.invasion == result.holder:
                system.indigenous = 0
        events.append(
            event(
                state,
                "battles",
                battle.place,
                "battle_result",
                f"The battle at {battle.place}: " + ("; ".join(lines) or "no losses"),
                sides,
                battle=battle.id,
                lines=lines,
                notes=result.notes,
            )
        )
        for owner, told in sorted(private.items()):
            events.append(
                event(
                    state,
                    "battles",
                    battle.place,
                    "battle_aftermath",
                    f"After the battle at {battle.place}: " + "; ".join(told),
                    [owner],
                    battle=battle.id,
                    lines=told,
                )
            )
    state.battles = []
    return events + end_week(state, rules)


def withdraw(state: State, ship: Ship, place: str, rules: Mapping[str, Any]) -> str:
    """The seed's disengagement: a ship that jumped away from the battle is at ``place``
    when the week ends (the referee rolled any hasty jump on the table), its fuel spent for
    the jump and its drive recharged by the week's turn.  The line for the battle's report."""
    here, there = state.systems[ship.place], state.systems[place]
    parsecs = distance(here.square, there.square, rules)
    ship.fuel = max(0, ship.fuel - parsecs)
    ship.place, ship.landed, ship.inches, ship.bearing = place, False, 30, 6
    ship.scrapping = 0  # it left the yard: the scrapping stops
    for f in state.facilities:
        if f.towed_by == ship.id:
            f.place = place
    return f"{ship.id} withdraws to {place}"


def _natives_lost(state: State, battle: Battle, entry: InBattle, result: BattleResult) -> list[str]:
    """A native ship destroyed (or captured: natives never change sides, and the ship is the
    referee's to hand over in the master workbook) leaves the planet's fleet: its cost comes
    off the indigenous points, so the survivors guard the planet (L132) and the fleet rebuilt
    from the points left is the same ships (`economy.native_fleet`)."""
    if entry.ship not in result.destroyed and entry.ship not in result.captured:
        return []
    design = state.designs.get(entry.design)
    system = state.systems[battle.place]
    if design is not None:
        system.indigenous = max(0, system.indigenous - design.cost)
    captor = result.captured.get(entry.ship, "")
    how = "destroyed" if entry.ship in result.destroyed else f"taken by {captor}"
    return [f"{entry.ship} ({entry.design}) {how}"]


def _home_taken(state: State, place: str, loser: str, captor: str) -> list[str]:
    """L275: taking a rival's home planet lets the captor research the technologies of his
    that it lacks for half cost (our reading: they count as discovered, developed at half
    cost).  The lines say what was gained."""
    rival, taker = state.commander(loser), state.commander(captor)
    if rival is None or taker is None or rival.home != place:
        return []
    gained = [f for f in rival.developed if f not in taker.developed + taker.discoveries]
    for found in gained:
        taker.discoveries.append(found)
    for found in rival.developed:
        if found in taker.discoveries and found not in taker.half_cost:
            taker.half_cost.append(found)
    half = [f for f in rival.developed if f in taker.half_cost]
    if not half:
        return []
    return [f"{captor} may develop {', '.join(half)} at half cost ({loser}'s home planet taken)"]


def end_week(state: State, rules: Mapping[str, Any]) -> list[Event]:
    """Drives carry their recharge over; the week advances; a bounded campaign may end."""
    for s in state.ships:
        s.ready_at = max(0, s.ready_at - WEEK_HOURS)
    for f in state.facilities:
        f.active_from = 0
    ended = state.week
    state.week += 1
    last = int(rules["last_week"])
    if last and ended >= last:
        held: dict[str, int] = {}
        for system in state.systems.values():
            if system.owner and system.planet:
                held[system.owner] = held.get(system.owner, 0) + system.value
        best = max(held.values(), default=0)
        winners = sorted(name for name, value in held.items() if value == best)
        state.finished = (
            f"The campaign ended after week {ended}: {' and '.join(winners)} "
            f"{'hold' if len(winners) > 1 else 'holds'} planets of total Value {best}"
        )
        return [Event(ended, "end", "", "campaign_over", state.finished, (), ("*",), {})]
    return []


__all__ = ["end_week", "finish_battles", "movers_of", "resolve_turn", "run_a_week", "set_up"]
