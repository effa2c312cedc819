"""The week in time order: every ship's timeline run together, hour by hour, until forces meet.

Each ship or fleet (a `Mover`) has its plan from `timeline.run`; here the plans are carried
out in the order of the clock, because what one ship does changes what another finds: stocks
loaded before another ship arrives, a hasty jump that fails and leaves a ship where an enemy
comes, forces that meet.  Readings (docs/rules/full-thrust-campaign.md):

* An activity takes effect when it ends (cargo is aboard once loading is done); a jump leaves
  when it starts and arrives when it ends.  Ships are somewhere from the hour they arrive
  until the hour they leave, so a ship that leaves at 3.1 and an enemy that arrives at 3.1
  do not meet, and two enemies that arrive at the same hour do.
* Forces meet when ships of commanders who are not allies are at one place at one time:
  the tool opens a battle there and every ship present joins it, whatever its orders; their
  timelines stop there for the week.  Ships that arrive later in the week join it as they
  arrive, on the tabletop turn of their hour (an hour is a turn of starship combat).  The
  natives of a neutral planet fight only when invaded.
* Reserve ships of a commander in a battle jump to it at once when it is within a jump (fuel,
  range and no obstacle), arriving after the hours of travel, hastily if their drive has not
  recharged.  A ship that is recalled for its homeworld is the referee's call: he moves it in
  the master workbook.
* Deviation is rolled for a ship that emerges into a battle, for the battle sheet; elsewhere
  where exactly a ship emerges changes nothing the campaign tracks.
* A fleet (slaved drives) rolls once for a hasty jump, with a merchant's +1 if it has one and
  a crack ship's -1 only if every ship is crack, and shares the result.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...dice import Dice
from ..base import Event
from . import charts, economy
from .clock import time_text
from .designs import FULL_TANK_PARSECS, MAX_JUMP
from .grid import blocked_by, distance
from .state import NATIVES, Battle, Facility, InBattle, Ship, State, event
from .timeline import ALL, RECHARGE_HOURS, Activity, Leg, Plan, Works, builds


@dataclass
class Mover:
    """One ship, or the ships of a fleet, with its plan for the week."""

    name: str
    owner: str
    ships: list[Ship]
    plan: Plan
    activities: list[Activity]
    place: str
    ready_at: int = 0
    stopped: bool = False  # in a battle, or stranded: the rest of its week is void
    reserve: bool = False
    #: What it did, as it happened (``1.0-1.5 jump A to B, 5 parsecs``), and its jumps.
    ran: list[str] = field(default_factory=list)
    jumps: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Week:
    """What the week's travel did: its events, the battles it opened."""

    events: list[Event] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    #: Mining platforms' work before a tow this week: (facility id, place, hours), mined pro
    #: rata by the economy with the hours after their release.
    worked: list[tuple[str, str, int]] = field(default_factory=list)


#: What happens first within one hour: activities end, then ships leave, then ships arrive
#: (a ship is at a place from its arrival up to, not including, its departure).
ENDS, STARTS, ARRIVALS = 0, 1, 2


class _Clock:
    """The week's events in time order; within an hour by `ENDS`, `STARTS`, `ARRIVALS`, then
    in the order scheduled (movers come by commander and ship, so a week replays the same)."""

    def __init__(self) -> None:
        self.queue: list[tuple[int, int, int, Callable[[int], None]]] = []
        self.seq = 0

    def at(self, hour: int, rank: int, action: Callable[[int], None]) -> None:
        self.seq += 1
        heapq.heappush(self.queue, (hour, rank, self.seq, action))

    def run(self) -> None:
        while self.queue:
            hour, _, _, action = heapq.heappop(self.queue)
            action(hour)


def run_week(
    state: State,
    movers: list[Mover],
    dice: Dice,
    rules: Mapping[str, Any],
    merchant_of: Callable[[Ship], bool],
) -> Week:
    """Carry out every mover's plan in time order on ``state`` (changed in place)."""
    week = Week()
    clock = _Clock()
    present: dict[str, list[Mover]] = {}
    open_battle: dict[str, Battle] = {}
    designs = state.designs

    def note(kind: str, place: str, text: str, owners: list[str], **data: Any) -> None:
        week.events.append(event(state, "travel", place, kind, text, sorted(set(owners)), **data))

    def arrive(m: Mover, place: str) -> None:
        m.place = place
        present.setdefault(place, []).append(m)

    def leave(m: Mover) -> None:
        if m in present.get(m.place, []):
            present[m.place].remove(m)

    def holder_of(place: str) -> str:
        """The commander whose planet is at ``place`` (its ground defences are a force)."""
        system = state.systems.get(place)
        return system.owner if system is not None and system.planet else ""

    def enemies_at(place: str) -> bool:
        owners = {m.owner for m in present.get(place, [])}
        if holder_of(place):
            owners.add(holder_of(place))
        return any(not state.allied(a, b) for a in owners for b in owners if a < b)

    def in_battle(m: Mover, battle: Battle, hour: int, emerged: Activity | None) -> None:
        m.stopped = True
        for ship in m.ships:
            dev = None
            if emerged is not None:
                with dice.at(phase="travel", location=battle.place):
                    dev = charts.deviation(dice, rules, ship.id)
            battle.ships.append(
                InBattle(
                    ship=ship.id,
                    owner=ship.owner,
                    design=ship.design,
                    arrives=hour - battle.hour,
                    inches=ship.inches,
                    bearing=ship.bearing,
                    deviation=dev.inches if dev else 0,
                    deviation_bearing=dev.bearing if dev else 0,
                    damage=ship.damage,
                    cargo=ship.cargo,
                    crack=ship.crack,
                    fittings=economy.holdings_text(ship.stores),
                )
            )

    def contact(place: str, hour: int, newcomer: Mover | None, emerged: Activity | None) -> None:
        """Forces at ``place`` at ``hour``: open a battle, or join the one open there."""
        battle = open_battle.get(place)
        if battle is not None and newcomer is not None and not newcomer.stopped:
            in_battle(newcomer, battle, hour, emerged)
            note(
                "battle_joined",
                place,
                f"{newcomer.name} ({newcomer.owner}) arrives at the battle of {place} at "
                f"{time_text(hour)}, on turn {hour - battle.hour}",
                battle.sides,
                battle=battle.id,
            )
            return
        if battle is not None or not enemies_at(place):
            return
        battle = Battle(f"B{state.week}-{len(week.battles) + 1}", state.week, place, hour)
        week.battles.append(battle)
        open_battle[place] = battle
        holder = holder_of(place)
        system = state.systems[place]
        if holder and (
            system.defences or not any(m.owner == holder for m in present.get(place, []))
        ):
            # A rival's planet with none of its ships there: its ground defences fight alone;
            # defences bought (fortifications, weapons, silos, squadrons) fight with its ships.
            battle.ships.append(
                InBattle(
                    ship=f"{place} ground defences",
                    owner=holder,
                    design=f"planet of Value {system.value}, {system.port or 'no port'}",
                    inches=0,
                    fittings=economy.holdings_text(system.defences),
                )
            )
        for m in list(present.get(place, [])):
            in_battle(m, battle, hour, emerged if m is newcomer else None)
        sides = battle.sides
        note(
            "battle_opened",
            place,
            f"Forces of {', '.join(sides)} meet at {place} at {time_text(hour)}: a battle for "
            "the tabletop",
            sides,
            battle=battle.id,
        )
        for side in sides:
            for m in movers:
                if m.owner == side and m.reserve and not m.stopped and m.place != place:
                    send_reserve(m, battle, hour)

    def send_reserve(m: Mover, battle: Battle, hour: int) -> None:
        here, there = state.systems.get(m.place), state.systems[battle.place]
        if here is None or any(s.drive != "ok" or s.landed for s in m.ships):
            return
        parsecs = distance(here.square, there.square, rules)
        fuel = min(s.fuel for s in m.ships)
        if parsecs > MAX_JUMP or parsecs > fuel:
            return
        if blocked_by(here.square, there.square, state.obstacles) is not None:
            return
        order = Activity("jump", battle.place)
        if hour < m.ready_at and not hasty(m, hour, None):
            return
        leave(m)
        for s in m.ships:
            s.fuel -= parsecs
        note(
            "reserve_sent",
            m.place,
            f"Reserve {m.name} jumps from {m.place} to the battle of {battle.place}",
            [m.owner],
            battle=battle.id,
        )
        m.reserve = False
        m.place = ""

        def reached(at: int) -> None:
            for s in m.ships:
                s.place, s.inches, s.bearing = battle.place, order.inches, order.bearing
                s.ready_at = at + RECHARGE_HOURS
            arrive(m, battle.place)
            contact(battle.place, at, m, order)

        clock.at(hour + parsecs, ARRIVALS, reached)

    def hasty(m: Mover, hour: int, jump_from: int | None) -> bool:
        """Roll the Hasty Jump table for ``m``; True when it may go on."""
        ships = m.ships
        with dice.at(phase="travel", location=m.place):
            roll = charts.hasty_jump(
                dice,
                rules,
                crack=all(s.crack for s in ships),
                merchant=any(merchant_of(s) for s in ships),
                inches=jump_from,
                ship=m.name,
            )
        owners = [m.owner]
        note(
            "hasty_jump",
            m.place,
            f"{m.name} makes a hasty jump from {m.place} at {time_text(hour)}: rolled "
            f"{roll.roll}, total {roll.total}, {roll.result}",
            owners,
            roll=roll.roll,
            total=roll.total,
            result=roll.result,
            modifiers=[list(x) for x in roll.modifiers],
        )
        if roll.result == "fine":
            return True
        m.stopped = True
        if roll.result == "destroyed":
            leave(m)
            for s in ships:
                state.ships.remove(s)
            return False
        for s in ships:
            s.drive = "disabled" if roll.result == "drive disabled" else "destroyed"
        return False

    def next_leg(m: Mover, done: int) -> None:
        """Schedule the first of ``m``'s legs after the ``done`` first: each leg starts only
        once the one before it has ended, so a ship arrives before it does anything more."""
        for k in range(done, len(m.plan.legs)):
            leg = m.plan.legs[k]
            if leg.activity >= 0 and leg.kind not in ("idle", "wait", "guard"):
                clock.at(leg.start, STARTS, lambda at, k=k: start_leg(m, k, at))
                return

    def start_leg(m: Mover, k: int, hour: int) -> None:
        if m.stopped:
            return
        leg = m.plan.legs[k]
        a = m.activities[leg.activity]
        if leg.kind == "jump":
            fuel = min(s.fuel for s in m.ships)
            if fuel < leg.parsecs:
                # Planned on a full tank from a refuel, which another ship's tanks cut short.
                m.stopped = True
                note(
                    "jump_void",
                    m.place,
                    f"{m.name} cannot jump from {m.place} to {leg.destination} at "
                    f"{time_text(hour)}: fuel for {fuel} parsecs, {leg.parsecs} needed; it "
                    "stays there for the rest of the week",
                    [m.owner],
                )
                return
            if leg.hasty and not hasty(m, hour, a.jump_from):
                return
            origin = m.place
            leave(m)
            for s in m.ships:
                s.fuel -= leg.parsecs
                s.landed = False
            m.place = ""

            def landed(at: int) -> None:
                m.ran.append(
                    f"{time_text(hour)}-{time_text(at)} jump {origin} to {leg.destination}, "
                    f"{leg.parsecs} parsecs" + (" (hasty)" if leg.hasty else "")
                )
                m.jumps.append((origin, leg.destination))
                end_jump(m, leg, a, at)
                next_leg(m, k + 1)

            clock.at(leg.end, ARRIVALS, landed)
        elif leg.kind == "invade":
            invade(m, hour)
            next_leg(m, k + 1)
        else:
            if leg.kind == "tow":
                for f in state.facilities:
                    if f.id == a.target and f.owner == m.owner and f.place == m.place:
                        stopping(f, hour)

            def done(at: int) -> None:
                if m.stopped:
                    return
                m.ran.append(f"{time_text(hour)}-{time_text(at)} {a.text or a.kind} at {m.place}")
                end_leg(m, leg, a, at)
                next_leg(m, k + 1)

            clock.at(leg.end, ENDS, done)

    def stopping(f: Facility, hour: int) -> None:
        """A platform stops working when its tow begins (the seed: inactive while moved, it
        may function before and after): the hours it worked are mined pro rata."""
        if f.kind == "omp" and not f.towed_by and hour > f.active_from:
            week.worked.append((f.id, f.place, hour - f.active_from))
        f.active_from = hour

    def end_jump(m: Mover, leg: Leg, a: Activity, hour: int) -> None:
        for s in m.ships:
            s.place, s.inches, s.bearing = leg.destination, a.inches, a.bearing
            for f in state.facilities:
                if f.towed_by == s.id:
                    f.place = leg.destination
        m.ready_at = hour + RECHARGE_HOURS
        for s in m.ships:
            s.ready_at = m.ready_at
        arrive(m, leg.destination)
        hand_over(m, leg.destination)
        contact(leg.destination, hour, m, a)

    def end_leg(m: Mover, leg: Leg, a: Activity, hour: int) -> None:
        if m.stopped:
            return
        ship = m.ships[0]
        place = m.place
        if leg.kind == "land":
            for s in m.ships:
                s.landed, s.inches = True, 0
        elif leg.kind == "lift":
            for s in m.ships:
                s.landed, s.inches = False, 40
        elif leg.kind == "refuel" and a.target:
            refuel_from(m, a.target, place, hour)
        elif leg.kind == "refuel":
            for s in m.ships:
                s.fuel = FULL_TANK_PARSECS
        elif leg.kind == "load":
            stock = state.stock(place, m.owner)
            room = economy.hold_room(designs[ship.design], ship) - ship.cargo
            wanted = room if a.amount == ALL else min(a.amount, room)
            taken = min(wanted, stock)
            state.add_stock(place, m.owner, -taken)
            ship.cargo += taken
            if taken < wanted:
                note(
                    "load_short",
                    place,
                    f"{ship.id} loaded {taken} of {wanted} production points at {place} "
                    f"(only {stock} were there)",
                    [m.owner],
                )
        elif leg.kind == "unload" and a.target:
            give(m, ship, a, place)
        elif leg.kind == "unload":
            amount = ship.cargo if a.amount == ALL else min(a.amount, ship.cargo)
            ship.cargo -= amount
            state.add_stock(place, m.owner, amount)
        elif leg.kind == "sell":
            sell(m, ship, a.amount, place)
        elif leg.kind == "explore":
            explore(m, ship, place)
        elif leg.kind == "tow":
            for f in state.facilities:
                if f.id == a.target and f.owner == m.owner and f.place == place:
                    f.towed_by = ship.id
                    note("towed", place, f"{ship.id} takes {f.id} in tow at {place}", [m.owner])
        elif leg.kind == "release":
            for f in state.facilities:
                if f.towed_by == ship.id:
                    f.towed_by, f.place, f.active_from = "", place, hour
                    note("released", place, f"{ship.id} releases {f.id} at {place}", [m.owner])
        elif leg.kind == "repair":
            repair(m, ship, place)
        elif leg.kind == "scrap" and leg.left:
            ship.scrapping = leg.left
            m.stopped = True
            note(
                "scrapping",
                place,
                f"{ship.id} is being scrapped at {place}: the work carries on next week "
                f"({leg.left} hours left)",
                [m.owner],
                left=leg.left,
            )
        elif leg.kind == "scrap":
            scrap(m, ship, place)
        elif leg.kind == "refit" and a.target:
            refit_to(m, ship, a.target, place)
        elif leg.kind == "refit":
            refit(m, ship, place)
        elif leg.kind == "demolish":
            demolish(m, a.target, place)

    def needs(giver: Mover, hour: int) -> int:
        """The parsecs of jump still on ``giver``'s own timeline after ``hour``: fuel it keeps
        (with the house rule's reserve) when another ship refuels from it."""
        if giver.stopped:
            return int(rules["tanker_reserve"])
        later = sum(
            leg.parsecs for leg in giver.plan.legs if leg.kind == "jump" and leg.start >= hour
        )
        return later + int(rules["tanker_reserve"])

    def refuel_from(m: Mover, source: str, place: str, hour: int) -> None:
        """Fuel moves from ship to ship: the giver's fuel units (25% of its mass, trebled for
        tugs and tenders; the state keeps parsecs, a twentieth of the tankage each) go into the
        receivers' tanks as far as they go, never below what the giver itself still needs."""
        givers = [
            (other, s)
            for other in present.get(place, [])
            if other.owner == m.owner and other is not m
            for s in other.ships
            if source in (other.name, s.id) and s not in m.ships
        ]
        if not givers:
            note(
                "refuel_failed",
                place,
                f"{m.name} could not refuel at {place}: {source} was not there",
                [m.owner],
            )
            return
        got = []
        for s in m.ships:
            tank = designs[s.design].tankage
            for other, giver in givers:
                gtank = designs[giver.design].tankage
                spare = (giver.fuel - needs(other, hour)) * gtank // FULL_TANK_PARSECS
                wanted = -(-(FULL_TANK_PARSECS - s.fuel) * tank // FULL_TANK_PARSECS)
                units = max(0, min(spare, wanted))
                if not units:
                    continue
                # ``wanted`` is rounded up, so the units wanted always fill the tank.
                giver.fuel -= -(-units * FULL_TANK_PARSECS // gtank)
                s.fuel += min(FULL_TANK_PARSECS - s.fuel, units * FULL_TANK_PARSECS // tank)
            got.append(f"{s.id} {s.fuel}")
        note(
            "refuelled",
            place,
            f"{m.name} refuels from {source} at {place}: fuel for "
            + ", ".join(got)
            + " parsecs; "
            + ", ".join(f"{g.id} keeps {g.fuel}" for _, g in givers),
            [m.owner],
        )

    def hand_over(m: Mover, place: str) -> None:
        """An ancient site's item aboard becomes production points at a planet of the ship's
        commander's (its interface craft take it down), stored there."""
        system = state.systems.get(place)
        if system is None or not system.planet or system.owner != m.owner:
            return
        for s in m.ships:
            if s.item:
                state.add_stock(place, m.owner, s.item)
                note(
                    "item_delivered",
                    place,
                    f"{s.id} brings the ancient item to {place}: {s.item} production points "
                    "stored there",
                    [m.owner],
                    points=s.item,
                )
                s.item = 0

    def give(m: Mover, ship: Ship, a: Activity, place: str) -> None:
        """Points given to another commander (the seed: points "may be traded, sold, given"),
        delivered into his stock at his planet; refused if the planet changed hands."""
        if holder_of(place) != a.target:
            note(
                "gift_refused",
                place,
                f"{ship.id} could not deliver points to {a.target} at {place}: it is not "
                f"{a.target}'s planet now; they stay aboard",
                [m.owner],
            )
            return
        amount = ship.cargo if a.amount == ALL else min(a.amount, ship.cargo)
        ship.cargo -= amount
        state.add_stock(place, a.target, amount)
        note(
            "gift",
            place,
            f"{ship.id} of {m.owner} delivers {amount} production points to {a.target} at {place}",
            [m.owner, a.target],
            points=amount,
        )

    def evacuation(m: Mover, place: str, facility: bool) -> str:
        """Who takes the crew off (the seed: interface craft at an inhabited planet, else a
        friendly ship in contact for a turn: ours, one there since the week began), or ""."""
        system = state.systems.get(place)
        if system is not None and system.planet:
            return f"interface craft from {place}'s planet"
        for other in present.get(place, []):
            if (
                other.owner == m.owner
                and (facility or other is not m)
                and not other.jumps
                and started.get(other.name) == place
            ):
                return other.name
        return ""

    def demolish(m: Mover, target: str, place: str) -> None:
        """Demolition charges: certain when the crew can be taken off, otherwise they go off
        only on a 6 on 1D6 (+1 for a crack ship)."""
        facility = next((f for f in state.facilities if f.id == target), None) if target else None
        if target and (facility is None or facility.place != place or facility.owner != m.owner):
            note(
                "demolition_void",
                place,
                f"{m.name} found no facility {target} of {m.owner}'s at {place} to demolish",
                [m.owner],
            )
            return
        what = target or " and ".join(s.id for s in m.ships)
        crew = evacuation(m, place, facility is not None)
        if not crew:
            crack = facility is None and all(s.crack for s in m.ships)
            with dice.at(phase="travel", location=place):
                roll = dice.d6(f"demolition of {what} at {place}")
            if roll + (1 if crack else 0) < 6:
                note(
                    "demolition_failed",
                    place,
                    f"the demolition charges of {what} at {place} did not go off (rolled "
                    f"{roll}{' +1 crack' if crack else ''}; a 6 is needed when the crew "
                    "cannot be taken off)",
                    [m.owner],
                )
                return
        how = f"the crew taken off by {crew}" if crew else "the charges set off by its crew"
        if facility is not None:
            state.facilities.remove(facility)
        else:
            m.stopped = True
            leave(m)
            for ship in m.ships:
                state.ships.remove(ship)
        verb = "are" if facility is None and len(m.ships) > 1 else "is"
        note("demolished", place, f"{what} {verb} demolished at {place} ({how})", [m.owner])

    def paid(m: Mover, place: str, cost: int, kind: str, what: str) -> bool:
        """Take ``cost`` from the points stored at ``place``; if they are not there, nothing
        is done and the commander is told (``kind``: the event's)."""
        there = state.stock(place, m.owner)
        if there < cost:
            note(
                kind,
                place,
                f"{what} at {place} was not paid: it costs {cost} and {there} points are there",
                [m.owner],
            )
            return False
        state.add_stock(place, m.owner, -cost)
        return True

    def repair(m: Mover, ship: Ship, place: str) -> None:
        """Damage boxes at the repair share of the ship's cost; a disabled FTL drive at the
        repair share of the drive's (house rule ``drive_cost_percent``); a destroyed one,
        only where the ship could be built, at twice the drive's cost (new systems cost
        double).  All paid together when the work ends, or nothing is done."""
        design = designs[ship.design]
        percent = int(rules["repair_cost_percent"])
        drive = design.cost * int(rules["drive_cost_percent"])
        cost = -(-design.cost * ship.damage * percent // (100 * design.boxes))
        work = [f"{ship.damage} boxes"] if ship.damage else []
        fixed = ship.drive
        if ship.drive == "disabled":
            cost += -(-drive * percent // 10_000)
            work.append("its disabled FTL drive")
            fixed = "ok"
        elif ship.drive == "destroyed" and builds(Works.of(state, m.owner, rules), place, design):
            cost += -(-2 * drive // 100)
            work.append("a new FTL drive")
            fixed = "ok"
        if not paid(m, place, cost, "repair_unpaid", f"{ship.id}'s repair"):
            return
        note(
            "repaired",
            place,
            f"{ship.id} is repaired at {place}: {' and '.join(work)} for {cost} points",
            [m.owner],
            cost=cost,
        )
        ship.damage = 0
        ship.drive = fixed

    def refit(m: Mover, ship: Ship, place: str) -> None:
        cost = -(-designs[ship.design].cost // 10)
        if not paid(m, place, cost, "refit_unpaid", f"{ship.id}'s capture refit"):
            return
        ship.needs_refit = False
        note(
            "refitted",
            place,
            f"{ship.id} is refitted for {m.owner} at {place} ({cost} points, 10% of its cost)",
            [m.owner],
            cost=cost,
        )

    def refit_to(m: Mover, ship: Ship, target: str, place: str) -> None:
        """L159-165: new systems cost double, nothing is refunded.  The design list holds no
        systems, so (our reading) what is new is priced as the difference in cost, doubled,
        and never less than the house rule's share of the new design's cost for the work."""
        old, new = designs[ship.design], designs[target]
        floor = -(-new.cost * int(rules["refit_floor_percent"]) // 100)
        cost = max(2 * (new.cost - old.cost), floor)
        if not paid(m, place, cost, "refit_unpaid", f"{ship.id}'s refit to a {new.name}"):
            return
        ship.design = new.name
        note(
            "refitted",
            place,
            f"{ship.id} is refitted at {place} from a {old.name} to a {new.name} ({cost} points)",
            [m.owner],
            cost=cost,
        )

    def scrap(m: Mover, ship: Ship, place: str) -> None:
        value = designs[ship.design].cost // 4
        m.stopped = True
        leave(m)
        state.ships.remove(ship)
        state.add_stock(place, m.owner, value)
        note(
            "scrapped",
            place,
            f"{ship.id} is scrapped at {place}: {value} points (25% of its cost) stored there",
            [m.owner],
            points=value,
        )

    def sell(m: Mover, ship: Ship, amount: int, place: str) -> None:
        system = state.systems[place]
        if system.owner == m.owner or not system.planet:
            note(
                "sale_refused",
                place,
                f"{ship.id} cannot sell at {place}: goods are sold at another's planet",
                [m.owner],
            )
            return
        amount = ship.cargo if amount == ALL else min(amount, ship.cargo)
        with dice.at(phase="travel", location=place):
            got = charts.sale(dice, amount, m.owner)
        ship.cargo -= amount
        room = economy.hold_room(designs[ship.design], ship) - ship.cargo
        aboard = min(room, got.points)
        ship.cargo += aboard
        if got.points > aboard:
            state.add_stock(place, m.owner, got.points - aboard)
        note(
            "sale",
            place,
            f"{ship.id} sells {amount} production points at {place}: 1D6 {got.roll}, "
            f"{got.percent}%, {got.points} points of goods",
            [m.owner],
            roll=got.roll,
            percent=got.percent,
            points=got.points,
        )
        if system.owner:
            # A sale at another commander's planet is a trade between two commanders.
            with dice.at(phase="travel", location=place):
                week.events.append(economy.trade_buyer(state, dice, place, m.owner, amount))

    def explore(m: Mover, ship: Ship, place: str) -> None:
        system = state.systems[place]
        if not system.ancient_site:
            note("site_gone", place, f"The ancient site at {place} was explored already", [m.owner])
            return
        system.ancient_site = False
        with dice.at(phase="travel", location=place):
            find = charts.ancient_site(dice, rules, ship=ship.id)
        commander = state.commander(m.owner)
        text = f"{ship.id} explores the ancient site at {place}: {find.result}"
        if find.result == "trap":
            m.stopped = True
            leave(m)
            state.ships.remove(ship)
            m.ships.remove(ship)
            text += f"; {ship.id} is destroyed"
        elif find.result == "item":
            ship.item += find.points
            text += f" worth {find.points} production points, carried aboard {ship.id}"
        elif find.research is not None and commander is not None:
            found = find.research.field
            if found and found not in commander.discoveries + commander.developed:
                commander.discoveries.append(found)
            text += f"; research roll {find.research.roll}: {found or 'nothing'}"
            if find.result == "library" and found and found in commander.discoveries:
                if found not in commander.half_cost:
                    commander.half_cost.append(found)
                text += ", to be developed at half cost"
        note("ancient_site", place, text, [m.owner], rolls=list(find.rolls), result=find.result)
        hand_over(m, place)

    def invade(m: Mover, hour: int) -> None:
        place = m.place
        system = state.systems[place]
        if system.owner and system.planet and system.owner != m.owner:
            # Planned without knowing the holder (out of sight when the sheet was checked):
            # found held on arrival, and told so (an invasion is of a neutral planet).
            note(
                "invasion",
                place,
                f"{place} is held by {system.owner}: {m.owner}'s invasion is not made",
                [m.owner],
                result="held",
            )
            return
        if system.owner or not system.planet or place in open_battle:
            return
        strength = sum(designs[s.design].cost for s in m.ships)
        ortillery = sum(designs[s.design].ortillery for s in m.ships)
        with dice.at(phase="travel", location=place):
            got = charts.invasion(dice, rules, strength=strength, ortillery=ortillery, where=place)
        # The natives' fleet ship by ship, of the design list's fighting designs (L129-130);
        # a planet whose natives have no ship (indigenous 0) has nothing to make war with.
        natives = economy.native_fleet(designs, system.indigenous)
        unarmed = got.result == "war" and not natives
        note(
            "invasion",
            place,
            f"{m.owner} invades {place} with {strength} points: 1D6 {got.roll}, total "
            f"{got.total}: {got.result}"
            + ("; the natives have no ships to fight with and surrender" if unarmed else ""),
            [m.owner],
            roll=got.roll,
            total=got.total,
            result="surrender" if unarmed else got.result,
        )
        if got.result == "surrender" or unarmed:
            system.owner = m.owner
            system.indigenous = 0
            return
        battle = Battle(
            f"B{state.week}-{len(week.battles) + 1}", state.week, place, hour, invasion=m.owner
        )
        week.battles.append(battle)
        open_battle[place] = battle
        for n, native in enumerate(natives, 1):
            battle.ships.append(
                InBattle(ship=economy.native_ship_id(place, n), owner=NATIVES, design=native.name)
            )
        for other in list(present.get(place, [])):
            in_battle(other, battle, hour, None)

    # -- the week ----------------------------------------------------------------------------
    for m in movers:
        arrive(m, m.place)
    started = {m.name: m.place for m in movers}
    for m in movers:
        hand_over(m, m.place)
    for place in sorted(present):
        contact(place, 0, None, None)
    for m in movers:
        next_leg(m, 0)
    clock.run()
    for m in movers:
        if m.ran or m.stopped:
            lines = m.ran + (["stopped there for the week"] if m.stopped and m.ships else [])
            note(
                "timeline",
                m.place,
                f"{m.name}'s week: " + ("; ".join(m.ran) or "no activity"),
                [m.owner],
                unit=m.name,
                ships=[s.id for s in m.ships],
                lines=lines,
                jumps=[list(j) for j in m.jumps],
            )
    state.battles = week.battles
    return week


__all__ = ["Mover", "Week", "run_week"]
