"""The checker: every problem of a commander's sheet (or of a battle's result) that can be
judged before the week is played, each pinned to its cell.

A timeline is run here exactly as the week will run it (`resolve.movers_of`, the same
`timeline.run`), so what the checker calls impossible is what the resolution would skip, and
its warnings (a hasty jump, a hold that may hold less after a sale) are the risks the
commander takes.  What only the week can tell (stocks another ship takes first, enemies met)
is left to it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from ...errors import CellProblem
from ..checking import OrderChecker
from .charts import RESEARCH_FIELDS
from .designs import MAX_JUMP, Design
from .economy import (
    FACILITIES,
    GROUND_WEAPONS,
    PORTS,
    SILO,
    SPY_COST,
    START_SPIES,
    item_cost,
    item_named,
    item_refusal,
)
from .grid import blocked_by, distance
from .orders import Orders, Purchase
from .resolve import movers_of
from .rules import complete
from .setup import SETUP_WEEK
from .state import NATIVES, Battle, BattleResult, State

#: A fleet's name: short and plain, since it heads a timeline block and every report's lines.
MAX_FLEET_NAME = 20
FLEET_NAME = re.compile(rf"[^\W_](?:[\w' -]{{0,{MAX_FLEET_NAME - 1}}})")


#: How to put right an item refused (`_Checker.item`).
ITEM_FIX = (
    "Check the limits: a planet's squadrons and silos up to its Value with a port; a carrier's "
    "squadrons at your yard, station or port; reloads at your space station, or aboard a "
    "merchant of the fleet train."
)
ITEM_FIXES = {
    GROUND_WEAPONS: "Build fortification spaces first (5 points a space), or a port.",
    SILO: "Buy no more than the planet's Value, at a planet with a starport or spaceport.",
}


class _Checker(OrderChecker):
    def __init__(self, state: State, player: str) -> None:
        super().__init__()
        self.state = state
        self.player = player
        #: The state with the items of the lines checked so far bought (made when needed).
        self.bought: State | None = None

    def design_of(self, p: Purchase) -> Design | None:
        """The design a purchase names, or None with the error on its cell."""
        design = self.state.designs.get(p.design)
        if design is None:
            self.error(
                p.cell, p.design, f"there is no design {p.design!r}", "Choose one from the list."
            )
        return design

    def setup(self, orders: Orders) -> None:
        commander = self.state.commander(self.player)
        assert commander is not None
        spent = 0
        for p in orders.purchases:
            design = self.design_of(p)
            if design is None:
                continue
            spent += design.cost * p.count
            if spent > commander.points:
                self.error(
                    p.cell,
                    f"{p.count} x {p.design}",
                    f"the fleet so far costs {spent} points; you have {commander.points}",
                    "Buy fewer ships; ships beyond the points are not bought.",
                )
        if not orders.purchases:
            self.warn("Set-up!B13", "", "no ships are bought", "Choose your starting fleet.")

    def fleets(self, orders: Orders) -> None:
        ships = {s.id: s for s in self.state.ships if s.owner == self.player}
        seen: set[str] = set()
        names: set[str] = set()
        for f in orders.fleets:
            if not f.name:
                self.error(f.cell, " ".join(f.ships), "the fleet has no name", "Name it.")
                continue
            if not FLEET_NAME.fullmatch(f.name):
                self.error(
                    f.cell,
                    f.name,
                    f"a fleet's name is 1 to {MAX_FLEET_NAME} letters, digits, spaces or dashes",
                    "Give it a short name, such as Red or Task Force 2.",
                )
                continue
            if not f.ships:
                self.error(f.cell, f.name, f"fleet {f.name} has no ships", "List its ships.")
            if f.name in ships or f.name.lower() in names:
                self.error(f.cell, f.name, f"the name {f.name} is taken", "Choose another name.")
            names.add(f.name.lower())
            places = set()
            for ship_id in f.ships:
                ship = ships.get(ship_id)
                if ship is None:
                    self.error(
                        f.cell,
                        ship_id,
                        f"{ship_id} is not one of your ships",
                        "Use the ids on 'Your forces'.",
                    )
                elif not ship.in_service(self.state.week):
                    self.error(
                        f.cell,
                        ship_id,
                        f"{ship_id} is still being built",
                        "Leave it out this week.",
                    )
                elif ship.scrapping:
                    self.error(
                        f.cell,
                        ship_id,
                        f"{ship_id} is being scrapped at {ship.place}",
                        "Leave it out: it takes no orders until the work is done.",
                    )
                elif ship_id in seen:
                    self.error(f.cell, ship_id, f"{ship_id} is in two fleets", "Put it in one.")
                else:
                    places.add((ship.place, ship.landed))
                seen.add(ship_id)
            if len(places) > 1:
                self.error(
                    f.cell,
                    " ".join(f.ships),
                    "the ships of a fleet must be at one place (and all landed or all not)",
                    "Form the fleet where its ships are together.",
                )
        units = {t.unit for t in orders.timelines}
        for f in orders.fleets:
            if f.name and f.name not in units:
                self.warn(
                    f.cell,
                    f.name,
                    f"fleet {f.name} has no timeline",
                    "Give it one on 'Timelines', or it waits where it is.",
                )

    def timelines(self, orders: Orders, rules: Mapping[str, Any]) -> None:
        fleet_ships = {s for f in orders.fleets for s in f.ships}
        known = {
            s.id
            for s in self.state.ships
            if s.owner == self.player and s.in_service(self.state.week)
        }
        fleets = {f.name for f in orders.fleets}
        scrapping = {s.id: s for s in self.state.ships if s.owner == self.player and s.scrapping}
        seen: set[str] = set()
        for t in orders.timelines:
            if t.unit in seen:
                self.error(t.cell, t.unit, f"{t.unit} has two timelines", "Keep one.")
            seen.add(t.unit)
            if t.unit not in known and t.unit not in fleets:
                self.error(
                    t.cell,
                    t.unit,
                    f"{t.unit} is not one of your ships in service nor a fleet of this sheet",
                    "Use the ids on 'Your forces', or form the fleet on the Orders page.",
                )
            elif scrapping.get(t.unit) and t.activities:
                self.error(
                    t.cell,
                    t.unit,
                    f"{t.unit} is being scrapped at {scrapping[t.unit].place} "
                    f"({scrapping[t.unit].scrapping} hours of work left): it takes no orders",
                    "Take its lines out; its points are released when the scrapping is done.",
                )
            elif t.unit in fleet_ships:
                self.error(
                    t.cell,
                    t.unit,
                    f"{t.unit} is in a fleet this week; the fleet's timeline moves it",
                    "Give the timeline to the fleet.",
                )
        for m in movers_of(self.state, {self.player: orders}, rules):
            if m.owner != self.player:
                continue
            for trouble in m.plan.troubles:
                a = m.activities[trouble.activity]
                add = self.error if trouble.severity == "error" else self.warn
                add(a.cell, a.text or a.kind, trouble.message, trouble.fix)
            if m.plan.errors:
                continue
            fuel = min(s.fuel for s in m.ships)
            for leg in m.plan.legs:
                if leg.kind == "jump" and leg.destination:
                    fuel -= leg.parsecs
                    if fuel < 10 and fuel + leg.parsecs >= 10:
                        a = m.activities[leg.activity]
                        self.warn(
                            a.cell,
                            a.text,
                            f"after this jump {m.name} has fuel for {fuel} parsecs",
                            "Plan a refuel before the next long jump.",
                        )

    def purchases(self, orders: Orders, rules: Mapping[str, Any]) -> None:
        commander = self.state.commander(self.player)
        assert commander is not None
        for p in orders.purchases:
            if p.design in SPY_COST:
                field = "spies" if p.design == "spy" else "master_spies"
                if getattr(commander, field) + p.count > START_SPIES[p.design]:
                    self.error(
                        p.cell,
                        f"{p.count} x {p.design}",
                        f"you may never have more than {START_SPIES[p.design]} ({p.design})",
                        "Hire only to replace what was lost.",
                    )
                continue
            place = p.place or commander.home
            item = item_named(p.design)
            if item:
                self.item(p, item, place, rules)
                continue
            if p.design in FACILITIES:
                self.facility(p, place)
                continue
            design = self.design_of(p)
            if design is None:
                continue
            system = self.state.systems.get(place)
            yard = place in self.state.yards(self.player)
            port = system is not None and system.owner == self.player and system.port == "starport"
            if not yard and not (port and design.streamlined):
                self.error(
                    p.cell,
                    f"{p.design} at {place}",
                    f"{place} has no shipyard of yours"
                    + (
                        ""
                        if design.streamlined or not port
                        else "; its starport builds only streamlined ships"
                    ),
                    "Build it at one of your yards.",
                )
                continue
            cost = design.cost * p.count
            stock = self.state.stock(place, self.player)
            if cost > stock:
                self.warn(
                    p.cell,
                    f"{p.count} x {p.design}",
                    f"they cost {cost} and {stock} points are stored at {place} now",
                    "Ship points there this week, or build fewer: ships that cannot be paid "
                    "are not laid down.",
                )

    def item(self, p: Purchase, item: str, where: str, rules: Mapping[str, Any]) -> None:
        """An item the seed prices (fortifications, weapons, silos, squadrons, reloads, the
        Repair Facility): refused by the week's own judge (`economy.item_refusal`), and a
        warning when the points are not stored where it is paid."""
        what = f"{p.count} x {item} for {where}"
        # The lines are judged in order against what the lines above have bought, as the
        # week buys them (fortification spaces, then the weapons they house).
        if self.bought is None:
            self.bought = copy.deepcopy(self.state)
        why = item_refusal(self.bought, self.player, item, p.count, where, rules)
        if why:
            self.error(p.cell, what, why, ITEM_FIXES.get(item, ITEM_FIX))
            return
        ship = self.bought.ship(where)
        held = ship.stores if ship is not None else self.bought.systems[where].defences
        held[item] = held.get(item, 0) + p.count
        place = ship.place if ship is not None else where
        cost = item_cost(item, rules) * p.count
        stock = self.state.stock(place, self.player)
        if cost > stock:
            self.warn(
                p.cell,
                what,
                f"they cost {cost} and {stock} points are stored at {place} now",
                "Ship points there this week, or buy fewer: what cannot be paid is not bought.",
            )

    def facility(self, p: Any, place: str) -> None:
        system = self.state.systems.get(place)
        mine = [f for f in self.state.facilities if f.owner == self.player and f.place == place]
        yard = place in self.state.yards(self.player)
        if p.design in PORTS:
            if system is None or system.owner != self.player or not system.planet:
                self.error(
                    p.cell,
                    f"{p.design} at {place}",
                    f"{place} is not a planet of yours",
                    "Build ports on your planets.",
                )
            elif system.port or any(f.kind in PORTS for f in mine):
                self.error(
                    p.cell,
                    f"{p.design} at {place}",
                    f"{place} has a port already",
                    "One port per planet.",
                )
        elif not yard and not (
            p.design == "shipyard"
            and system is not None
            and system.owner == self.player
            and system.port == "starport"
        ):
            self.error(
                p.cell,
                f"{p.design} at {place}",
                f"{place} has no shipyard of yours to build a {p.design}",
                "Build it at one of your yards.",
            )

    def research(self, orders: Orders) -> None:
        r = orders.research
        commander = self.state.commander(self.player)
        if r is None or commander is None:
            return
        if r.develop and r.develop not in commander.discoveries:
            self.error(
                r.cell,
                r.develop,
                f"you have not discovered {r.develop}",
                "Develop a field you have discovered.",
            )
        if r.develop and r.develop not in {name for name, _ in RESEARCH_FIELDS.values()}:
            self.error(
                r.cell, r.develop, f"{r.develop!r} is not a research field", "Choose from the list."
            )
        cost = 100 * r.rolls + (r.points if r.develop else 0)
        home = self.state.stock(commander.home, self.player)
        if cost > home:
            self.warn(
                r.cell,
                f"{cost} points",
                f"research costs {cost} and {home} points are at {commander.home}",
                "Spend less, or ship points home.",
            )

    def espionage(self, orders: Orders) -> None:
        commander = self.state.commander(self.player)
        assert commander is not None
        spies, masters = commander.spies, commander.master_spies
        for m in orders.missions:
            if m.subject != "counter-espionage" and self.state.commander(m.target) is None:
                self.error(
                    m.cell, m.target, f"{m.target!r} is not a commander", "Choose from the list."
                )
                continue
            if m.target == self.player and m.subject != "counter-espionage":
                self.error(m.cell, m.target, "you cannot spy on yourself", "Choose a rival.")
                continue
            if not (m.spies or m.master_spies):
                self.error(m.cell, m.subject, "the mission has no spies", "Send at least one spy.")
                continue
            spies -= m.spies
            masters -= m.master_spies
            if spies < 0 or masters < 0:
                self.error(
                    m.cell,
                    f"{m.spies} + {m.master_spies}",
                    f"you have {commander.spies} spies and {commander.master_spies} master "
                    "spy in all",
                    "Send only the spies you have.",
                )
                continue
            base = 10 * m.spies + 15 * m.master_spies
            if m.points // 10 > base:
                self.warn(
                    m.cell,
                    str(m.points),
                    f"points beyond {10 * base} add nothing (the chance at most doubles)",
                    "Spend less.",
                )

    def allies(self, orders: Orders) -> None:
        for name in orders.allies:
            if self.state.commander(name) is None or name == self.player:
                self.error(
                    orders.allies_cell,
                    name,
                    f"{name!r} is not another commander",
                    "Write the names of other commanders.",
                )


def validate_orders(
    state: State, player: str, orders: Any, rules: Mapping[str, Any]
) -> list[CellProblem]:
    """Every problem of ``player``'s sheet that can be judged now."""
    if isinstance(orders, BattleResult):
        return validate_result(state, orders, rules)
    if state.commander(player) is None:
        return [
            CellProblem(
                "Orders",
                "",
                player,
                f"{player!r} is not a commander of this game",
                "Use the sheet you were sent.",
            )
        ]
    check = _Checker(state, player)
    if state.week == SETUP_WEEK:
        check.setup(orders)
        return check.problems
    check.fleets(orders)
    check.timelines(orders, rules)
    check.purchases(orders, rules)
    check.research(orders)
    check.espionage(orders)
    check.allies(orders)
    return check.problems


def validate_result(
    state: State, result: BattleResult, rules: Mapping[str, Any] | None = None
) -> list[CellProblem]:
    """A battle's result against the forces that fought: no ship destroyed that was not
    there, no damage beyond a ship's boxes, captors and holder among the sides, a neutral
    planet held only by its invader, withdrawals within a jump the ship could make."""
    rules = complete(rules)
    check = OrderChecker()
    check.sheet = "Battle"
    battle = next((b for b in state.battles if b.id == result.battle), None)
    if battle is None:
        check.error(
            result.cell,
            result.battle,
            f"there is no battle {result.battle} waiting",
            "Use the battle sheet the tool wrote.",
        )
        return check.problems
    fought = {s.ship: s for s in battle.ships}
    sides = battle.sides

    def at(ship: str) -> str:
        return result.cells.get(ship, result.cell)

    for ship in result.destroyed:
        if ship not in fought:
            check.error(
                at(ship), ship, f"{ship} was not in this battle", "Mark only ships of the battle."
            )
    for ship, lost in result.damage.items():
        entry = fought.get(ship)
        if entry is None:
            check.error(
                at(ship), ship, f"{ship} was not in this battle", "Mark only ships of the battle."
            )
            continue
        if ship in result.destroyed:
            check.warn(
                at(ship),
                ship,
                f"{ship} is destroyed; its boxes lost do not matter",
                "Leave the boxes blank.",
            )
            continue
        design = state.designs.get(entry.design)
        if design is not None and entry.damage + lost >= design.boxes:
            check.error(
                at(ship),
                f"{ship} {lost}",
                f"{ship} has {design.boxes - entry.damage} damage boxes left; losing {lost} "
                "destroys it",
                "Mark it destroyed, or correct the boxes.",
            )
    for ship, captor in result.captured.items():
        entry = fought.get(ship)
        if entry is None:
            check.error(
                at(ship), ship, f"{ship} was not in this battle", "Mark only ships of the battle."
            )
        elif ship in result.destroyed:
            check.error(
                at(ship), ship, f"{ship} is marked both destroyed and captured", "Choose one."
            )
        elif captor not in sides or captor in (NATIVES, entry.owner):
            check.error(
                at(ship),
                captor,
                f"{captor!r} cannot capture {ship}",
                "Choose one of the other sides: "
                + ", ".join(s for s in sides if s not in (NATIVES, entry.owner))
                + ".",
            )
    if result.holder and result.holder not in sides:
        check.error(
            result.cell,
            result.holder,
            f"{result.holder!r} did not fight here",
            f"Choose one of {', '.join(sides)}, or leave it blank.",
        )
    system = state.systems[battle.place]
    if (
        result.holder in sides
        and result.holder != NATIVES
        and system.planet
        and not system.owner
        and battle.invasion != result.holder
    ):
        check.error(
            result.cell,
            result.holder,
            f"{battle.place} is a neutral planet and {result.holder} did not invade it: a "
            "neutral planet changes hands only by invasion",
            "Leave it blank; the commander may invade it next week.",
        )
    for ship, place in result.withdrew.items():
        _withdrawal(check, state, battle, result, ship, place, rules)
    return check.problems


def _withdrawal(
    check: OrderChecker,
    state: State,
    battle: Battle,
    result: BattleResult,
    ship_id: str,
    place: str,
    rules: Mapping[str, Any],
) -> None:
    """A ship that jumped away from the battle (the seed's disengagement) went to a place in
    one jump it could make: a working drive, in range, no obstacle, the fuel for it."""
    cell = result.withdrew_cells.get(ship_id, result.cells.get(ship_id, result.cell))
    ship = state.ship(ship_id)
    if ship_id not in {s.ship for s in battle.ships}:
        check.error(cell, ship_id, f"{ship_id} was not in this battle", "Mark only its ships.")
        return
    if ship is None:
        check.error(cell, place, f"{ship_id} cannot jump away", "Leave 'Withdrew to' blank for it.")
        return
    if ship_id in result.destroyed or ship_id in result.captured:
        check.error(
            cell,
            place,
            f"{ship_id} is marked destroyed or captured; it did not withdraw",
            "Leave 'Withdrew to' blank, or correct the other columns.",
        )
        return
    design = state.designs[ship.design]
    here, there = state.systems.get(battle.place), state.systems.get(place)
    if there is None or here is None:
        check.error(cell, place, f"there is no system called {place!r}", "Name one on the map.")
        return
    if there.name == here.name:
        check.error(
            cell,
            place,
            f"{ship_id} is at {place} already",
            "Leave 'Withdrew to' blank for a ship that stayed.",
        )
        return
    if not design.ftl or ship.drive != "ok":
        check.error(
            cell,
            place,
            f"{ship_id} has no working FTL drive to jump away with",
            "Leave it blank: the ship stayed.",
        )
        return
    parsecs = distance(here.square, there.square, rules)
    if parsecs > MAX_JUMP or blocked_by(here.square, there.square, state.obstacles) is not None:
        check.error(
            cell,
            place,
            f"{place} is not within one jump of {battle.place} ({parsecs} parsecs, at most "
            f"{MAX_JUMP}, no obstacle)",
            "Name a place within one jump.",
        )
    elif parsecs > ship.fuel:
        check.error(
            cell,
            place,
            f"{ship_id} has fuel for {ship.fuel} parsecs; {place} is {parsecs} away",
            "Name a nearer place, or leave it blank.",
        )


__all__ = ["validate_orders", "validate_result"]
