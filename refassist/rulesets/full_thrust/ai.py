"""Computer commanders, for the demo and the tests, and the demo's stand-in for the tabletop.

A computer commander plays a plain, readable strategy from its own view: at the set-up it buys
merchants and a battle group; each week its merchants bring the points stored at its other
planets home, its battle group invades the nearest neutral planet it can reach, or when none
is left goes for the nearest rival planet it outweighs (half the time), and otherwise guards
home; its yard lays down a warship when home can pay.  It is deterministic for a seed.

Where a battle would go to the table, the demo settles it with a stand-in that is NOT a Full
Thrust battle: each side's strength (cost of its ships, less their damage) times 1D6; the
weaker side loses half its ships (the cheapest first, rounded up) and every survivor on both
sides loses a box; the weaker side's survivors withdraw home (or to its nearest planet within
a jump), so the forces do not meet again next week.  The result says so in its notes, which
every report prints.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...dice import player_rng
from .grid import blocked_by, distance
from .orders import FleetOrder, Orders, Purchase, ResearchOrder, Timeline
from .parse import parse_activity
from .rules import complete
from .setup import SETUP_WEEK
from .state import NATIVES, Battle, BattleResult, Ship, State

STAND_IN = "Stand-in result of the demo (strength x 1D6), not a Full Thrust battle"
STRIKE_FLEET = "Strike"


def computer_orders(
    state: State, player: str, seed: int, rules: Mapping[str, Any] | None = None
) -> Any:
    """The orders of computer commander ``player`` (or the stand-in result of a battle)."""
    merged = complete(rules)
    battle = next((b for b in state.battles if b.id == player), None)
    if battle is not None:
        return stand_in_result(state, battle, player_rng(seed, player, state.week), merged)
    rng = player_rng(seed, player, state.week)
    if state.week == SETUP_WEEK:
        return _set_up(state, player, rng)
    return _week(state, player, merged, rng)


def _set_up(state: State, player: str, rng: random.Random) -> Orders:
    commander = state.commander(player)
    assert commander is not None
    designs = state.designs
    orders = Orders(player, SETUP_WEEK)
    points = commander.points
    wanted = [("Packet merchant", 2), ("Drayman bulk merchant", 1)]
    warships = [d for d in designs.values() if d.kind == "warship" and d.ftl]
    for name, count in wanted:
        if name in designs and designs[name].cost * count <= points:
            orders.purchases.append(Purchase(name, count))
            points -= designs[name].cost * count
    rng.shuffle(warships)
    for design in sorted(warships, key=lambda d: -d.cost)[:3]:
        count = min(4, (points // 2) // design.cost)
        if count:
            orders.purchases.append(Purchase(design.name, count))
            points -= design.cost * count
    return orders


def _orders_accepted(
    state: State, player: str, timeline: Timeline, rules: Mapping[str, Any]
) -> bool:
    """Whether the checker accepts ``timeline`` alone: a computer commander sends nothing it
    would refuse from a human one."""
    from .validate import validate_orders  # the checker imports the week, which is heavier

    trial = Orders(player, state.week, timelines=[timeline])
    return not [p for p in validate_orders(state, player, trial, rules) if p.severity == "error"]


def _reach(state: State, a: str, b: str, rules: Mapping[str, Any]) -> int | None:
    here, there = state.systems[a], state.systems[b]
    parsecs = distance(here.square, there.square, rules)
    if parsecs > 10 or blocked_by(here.square, there.square, state.obstacles) is not None:
        return None
    return parsecs


def _rival_target(
    state: State, player: str, home: str, strength: int, rules: Mapping[str, Any]
) -> str | None:
    """The nearest planet of a commander not allied to ``player`` in one jump from home whose
    ground defences (100 points a Value, as the stand-in counts them) the group outweighs
    twice over; None if there is none.  Planets are on everyone's map: nothing hidden is used."""
    found = sorted(
        (p, s.name)
        for s in state.systems.values()
        if s.planet
        and s.owner
        and s.owner != player
        and not state.allied(player, s.owner)
        and strength >= 2 * 100 * s.value
        for p in [_reach(state, home, s.name, rules)]
        if p is not None
    )
    return found[0][1] if found else None


def _week(state: State, player: str, rules: Mapping[str, Any], rng: random.Random) -> Orders:
    commander = state.commander(player)
    assert commander is not None
    orders = Orders(player, state.week)
    home = commander.home
    mine = [
        s for s in state.ships if s.owner == player and s.in_service(state.week) and not s.scrapping
    ]
    ships = [s for s in mine if s.drive == "ok" and not s.needs_refit]
    yards = state.yards(player)
    for s in mine:
        if s.needs_refit and s.place in yards and not s.landed:
            orders.timelines.append(Timeline(s.id, [parse_activity("refit")]))
    merchants = [s for s in ships if state.designs[s.design].merchant]
    warships = [s for s in ships if state.designs[s.design].kind == "warship"]
    planets = [s.name for s in state.systems.values() if s.owner == player and s.name != home]

    def lines(*texts: str) -> list[Any]:
        return [parse_activity(t) for t in texts]

    # Merchants bring the points of an outlying planet home (or wait at home for one).
    for n, m in enumerate(sorted(merchants, key=lambda s: s.id)):
        steps = [] if m.landed else ["land"]
        if m.place == home:
            target = planets[n % len(planets)] if planets else ""
            if not target or _reach(state, home, target, rules) is None:
                continue
            steps += ["unload all"] if m.cargo else []
            steps += ["refuel"] if m.fuel < 20 else []
            steps += ["lift", f"jump {target}", "land", "load all"]
        else:
            parsecs = _reach(state, m.place, home, rules)
            if parsecs is None:
                continue
            steps += ["load all"] + (["refuel"] if m.fuel < parsecs else [])
            steps += ["lift", f"jump {home}", "land", "unload all"]
        orders.timelines.append(Timeline(m.id, lines(*steps)))
    # The battle group invades the nearest neutral planet it can reach, or guards home.
    group = [s for s in warships if s.place == home and s.fuel >= 10]
    if group:
        targets = sorted(
            (p, s.name)
            for s in state.systems.values()
            if s.planet and not s.owner
            for p in [_reach(state, home, s.name, rules)]
            if p is not None
        )
        strength = sum(state.designs[s.design].cost for s in group)
        choice = next(
            (name for p, name in targets if state.systems[name].indigenous <= strength), None
        )
        rival = _rival_target(state, player, home, strength, rules)
        if choice is not None and rng.random() < 0.8:
            orders.fleets.append(FleetOrder(STRIKE_FLEET, [s.id for s in group]))
            orders.timelines.append(Timeline(STRIKE_FLEET, lines(f"jump {choice}", "invade")))
        elif choice is None and rival is not None and rng.random() < 0.5:
            # Nothing neutral left in reach: half the time it goes for a rival's planet.
            orders.fleets.append(FleetOrder(STRIKE_FLEET, [s.id for s in group]))
            orders.timelines.append(Timeline(STRIKE_FLEET, lines(f"jump {rival}", "guard")))
        else:
            for s in group:
                orders.timelines.append(Timeline(s.id, lines("guard")))
    for s in warships:
        parsecs = _reach(state, s.place, home, rules) if s.place != home else None
        if parsecs is None or s.fuel >= 20:
            continue
        # Home on the fuel aboard, or after refuelling here; a ship that can do neither (dry
        # at a planet without a port of its own) guards where it is rather than send orders
        # the checker refuses week after week.
        for plan in ([f"jump {home}", "guard"], ["refuel", f"jump {home}", "guard"], ["guard"]):
            if _orders_accepted(state, player, Timeline(s.id, lines(*plan)), rules):
                orders.timelines.append(Timeline(s.id, lines(*plan)))
                break
    # The yard lays down a warship when home can pay for it and keep a reserve.
    stock = state.stock(home, player)
    affordable = [
        d for d in state.designs.values() if d.kind == "warship" and d.cost * 2 <= stock and d.ftl
    ]
    if affordable and home in state.yards(player):
        design = max(affordable, key=lambda d: d.cost)
        orders.purchases.append(Purchase(design.name, 1, home))
    if stock >= 400 and rng.random() < 0.5:
        orders.research = ResearchOrder(rolls=1)
    # In the order of the sheet's blocks: ships by id, then fleets.
    fleets = {f.name for f in orders.fleets}
    orders.timelines.sort(key=lambda t: (t.unit in fleets, t.unit))
    return orders


def _retreat(state: State, ship: Ship, here: str, rules: Mapping[str, Any]) -> str:
    """Where a loser's ship withdraws: its commander's home, else its nearest planet, within
    one jump it can make (working drive, fuel); "" when there is none (it stays)."""
    design = state.designs.get(ship.design)
    commander = state.commander(ship.owner)
    if design is None or not design.ftl or ship.drive != "ok" or commander is None:
        return ""
    mine = sorted(
        (name != commander.home, p, name)
        for name, system in state.systems.items()
        if system.planet and system.owner == ship.owner and name != here
        for p in [_reach(state, here, name, rules)]
        if p is not None and p <= ship.fuel
    )
    return mine[0][2] if mine else ""


def stand_in_result(
    state: State, battle: Battle, rng: random.Random, rules: Mapping[str, Any] | None = None
) -> BattleResult:
    """The demo's stand-in for the tabletop (module docstring): labelled as such."""
    rules = complete(rules)
    strength: dict[str, float] = {}
    for s in battle.ships:
        design = state.designs.get(s.design)
        if s.owner == NATIVES and design is None:  # a battle written before natives' ships
            system = state.systems[battle.place]
            strength[NATIVES] = strength.get(NATIVES, 0) + system.indigenous
            continue
        if design is None:
            if s.ship.endswith("ground defences"):  # a planet's own: 100 points a Value
                value = state.systems[battle.place].value
                strength[s.owner] = strength.get(s.owner, 0) + 100 * value
            continue
        left = (design.boxes - s.damage) / design.boxes
        strength[s.owner] = strength.get(s.owner, 0) + design.cost * left
    rolls = {side: rng.randint(1, 6) for side in sorted(strength)}
    scores = {side: strength[side] * rolls[side] for side in strength}
    winner = max(sorted(scores), key=lambda side: scores[side])
    result = BattleResult(battle.id, notes=STAND_IN)
    for side in sorted(scores):
        ships = [s for s in battle.ships if s.owner == side and s.owner != NATIVES]
        if side != winner:
            ships.sort(
                key=lambda s: state.designs[s.design].cost if s.design in state.designs else 0
            )
            lost = ships[: (len(ships) + 1) // 2]
            result.destroyed += [s.ship for s in lost]
            ships = ships[len(lost) :]
        for s in ships:
            design = state.designs.get(s.design)
            if design is not None and s.damage + 1 < design.boxes:
                result.damage[s.ship] = 1
    system = state.systems[battle.place]
    if system.planet and winner != NATIVES and (battle.invasion == winner or system.owner):
        result.holder = winner
    # The loser's survivors jump away home (or to its nearest planet within a jump), so
    # that the two forces are not left facing each other for next week.
    for s in battle.ships:
        if s.owner in (winner, NATIVES) or s.ship in result.destroyed:
            continue
        ship = state.ship(s.ship)
        if ship is not None:
            place = _retreat(state, ship, battle.place, rules)
            if place:
                result.withdrew[s.ship] = place
    # In the order of the battle sheet's rows, as the referee would enter them.
    order = {s.ship: n for n, s in enumerate(battle.ships)}
    result.destroyed.sort(key=order.__getitem__)
    result.damage = dict(sorted(result.damage.items(), key=lambda item: order[item[0]]))
    rolled = ", ".join(f"{side} {strength[side]:.0f} x {rolls[side]}" for side in sorted(rolls))
    result.notes = f"{STAND_IN}: {rolled}"
    return result


__all__ = ["STAND_IN", "computer_orders", "stand_in_result"]
