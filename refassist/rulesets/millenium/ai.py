"""The computer players: a set-up and a plain plan for each side, deterministic for a seed.

They play the demo, the conformance test and the golden game, so they read only what their
side may know: the Extraterrestrial never looks at an unrevealed card, the imperial planet or
the Empire's fleet compositions; the Empire never at the programme.  Their play is simple:
the Extraterrestrial goes for the nearest system of its programme (jumping when it is far),
demands and attacks with fleets that carry a colonisation ship; the Empire guards its
loyalty-6 systems, meets fleets that come into its systems, retakes what it lost, and buys
ships for its reserves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...dice import Dice, player_rng
from ...text.words import N_
from .battlesheet import battle_of
from .charts import Tables, tables_for
from .geometry import Position
from .orders import BattleResult, FleetMove, FleetSetup, Orders, Purchase, ReserveEntry
from .resolve import composed, purchase_problem, step_key
from .rules import complete
from .setup import DEFAULT_FLEETS
from .state import ALIEN, EMPIRE, Fleet, Ship, State, TableBattle, mover
from .strategic import MOVE_POINTS, affordable, cheapest_path, jump_problem, stack_problem
from .tablebattles import hex_battle, result_of
from .tactical import TacticalOrders, fight

#: What a battle's result filled in by the computer says of itself (the demo's stand-in for
#: the referee's table; the reports show it with the battle).
STAND_IN = N_("fought by the computer by the printed procedure, from the standing orders")


def computer_orders(
    state: State, player: str, seed: int, rules: Mapping[str, Any] | None = None
) -> Orders | BattleResult:
    """A computer side's orders, or for a battle waiting for the referee's table the result
    of fighting it by the printed procedure (the same as the automatic battles; its own
    dice, from the seed)."""
    rules = complete(rules)
    battle = battle_of(state, player)
    if battle is not None:
        return _table_result(state, battle, seed, rules)
    side = state.side_of(player)
    key = step_key(state)
    rng = player_rng(seed, player, state.turn)
    tables = tables_for(rules)
    if state.turn == 0:
        return _setup(state, side, key, rng)
    orders = Orders(side, key, tactics=_tactics(side))
    if mover(state.turn) != side:
        return orders
    if side == ALIEN:
        _alien_moves(state, orders, tables, rng)
    else:
        _empire_moves(state, orders, tables)
    orders.moves = _within_stacking(state, side, orders.moves)
    _entries(state, side, orders, rng)
    _purchases(state, side, orders, tables)
    return orders


def _within_stacking(state: State, side: str, moves: list[FleetMove]) -> list[FleetMove]:
    """The moves cut short, in sheet order, where their end would put more than seven ships
    of the side's fleets together (the checker refuses such a line): the longest start of
    the path that keeps the limit, else no move (a landing or attack at the end is dropped
    with the steps it needed)."""
    where = {f.letter: f.position for f in state.fleets if f.side == side and f.ships}
    ships = {f.letter: len(f.ships) for f in state.fleets if f.side == side and f.ships}
    out = []
    for m in moves:
        if m.kind == "jump" or not m.path:
            out.append(m)
            continue
        for cut in range(len(m.path), 0, -1):
            end = m.path[cut - 1]
            crowd = [ships[x] for x, at in where.items() if at == end and x != m.fleet]
            if not stack_problem([*crowd, ships.get(m.fleet, 0)]):
                if cut < len(m.path):
                    m = FleetMove(m.fleet, m.kind, m.cell, m.path[:cut])
                where[m.fleet] = end
                out.append(m)
                break
    return out


def _table_result(
    state: State, battle: TableBattle, seed: int, rules: Mapping[str, Any]
) -> BattleResult:
    tables = tables_for(rules)
    fought, orders, _mine, _theirs = hex_battle(
        state.copy(), tables, rules, battle.position, battle.attacker, battle.planet
    )
    rng = player_rng(seed, battle.id, state.turn)
    dice = Dice(seed=rng.randrange(2**63), turn=state.turn)
    fight(fought, tables, orders, dice, rules)
    return result_of(fought, battle, step_key(state), STAND_IN)


def _tactics(side: str) -> TacticalOrders:
    if side == ALIEN:
        return TacticalOrders(stance="close", priority="bases", leave="losing", edge="W")
    return TacticalOrders(stance="close", priority="ships", leave="losing", edge="E")


def _setup(state: State, side: str, key: str, rng: random.Random) -> Orders:
    game_map = state.map
    letters = list(game_map.systems)
    fleets = DEFAULT_FLEETS
    if side == EMPIRE:
        numbers = list(range(1, len(game_map.cards) + 1))
        rng.shuffle(numbers)
        cards = dict(zip(letters, numbers, strict=True))
        sixes = [x for x in letters if game_map.cards[cards[x] - 1].loyalty == 6]
        imperial = f"{rng.choice(sixes)}1"
        guard = sorted(letters, key=lambda x: -game_map.cards[cards[x] - 1].loyalty)
        setups = [
            FleetSetup(letter, ships, game_map.systems[guard[i]].position, "")
            for i, (letter, ships) in enumerate(fleets.items())
        ]
        return Orders(side, key, is_setup=True, cards=cards, imperial=imperial, fleets=setups)
    if state.systems:  # the placement, once the Empire's fleets stand
        edges = game_map.edge_positions(4)
        rng.shuffle(edges)
        places = [FleetSetup(f.letter, {}, edges[i], "") for i, f in enumerate(composed(state))]
        return Orders(side, key, is_setup=True, fleets=places)
    programme = rng.sample(letters, 18)
    setups = [FleetSetup(letter, ships, None, "") for letter, ships in fleets.items()]
    return Orders(side, key, is_setup=True, programme=sorted(programme), fleets=setups)


def _go(state: State, fleet: Fleet, goal: Position, land: str, attack: bool) -> FleetMove | None:
    """A normal move toward ``goal``, landing there when the points allow it."""
    assert fleet.position is not None
    path = cheapest_path(state.map, fleet.position, goal)
    if path is None:
        return None
    budget = MOVE_POINTS - (2 if land and not attack else 0)
    steps = affordable(state.map, fleet.position, path, budget)
    reached = (steps[-1] if steps else fleet.position) == goal
    if not steps and not (reached and land):
        return None
    kind = "move" if fleet.where == "map" else "enter"
    return FleetMove(
        fleet.letter,
        kind,
        "",
        tuple(steps),
        land=land if reached else "",
        attack=attack and reached,
    )


def _alien_moves(state: State, orders: Orders, tables: Tables, rng: random.Random) -> None:
    """Each fleet goes for the programme system it can best take: near, of low loyalty where
    the card is known, not guarded by an Empire fleet it cannot beat; a fleet with a
    colonisation ship lands and attacks, one without takes planets for a coloniser to follow."""
    claimed: set[str] = set()
    for fleet in sorted(state.fleets, key=lambda f: (not f.has_colonisers(), f.letter)):
        if fleet.side != ALIEN or not fleet.ships or fleet.position is None:
            continue
        if fleet.where not in ("map", "waiting") or (fleet.where == "waiting" and fleet.wait):
            continue
        here = fleet.position
        strength = sum(tables.ships[s.kind].value for s in fleet.ships)
        scored = [
            (_alien_cost(state, x, here, strength, fleet.has_colonisers()), x)
            for x in (state.programme or list(state.map.systems))
            if x not in claimed
        ]
        scored = [c for c in scored if c[0] is not None]
        if not scored:
            continue
        _, target = min(scored)
        claimed.add(target)
        goal = state.map.systems[target].position
        distance = state.map.zones_travelled(here, goal.zone, goal.level)
        far = distance >= tables.minimum_jump + 2
        if (
            fleet.where == "map"
            and far
            and not jump_problem(state.map, tables, here, goal.zone, goal.level)
        ):
            orders.moves.append(
                FleetMove(fleet.letter, "jump", "", zone=goal.zone, level=goal.level)
            )
            continue
        planet = _planet_to_take(state, target, ALIEN, fleet.has_colonisers())
        attack = bool(planet) and state.turn > 1
        move = _go(state, fleet, goal, planet, attack)
        if move is not None:
            orders.moves.append(move)


def _alien_cost(
    state: State, letter: str, here: Position, strength: int, coloniser: bool
) -> float | None:
    """How little a programme system would cost this fleet (None: not worth trying): the
    zones to it, plus its loyalty if the card was shown (4 and more only for a strong fleet),
    3 for an unknown card, and never a system an Empire fleet guards when the fleet is small."""
    system = state.map.systems[letter]
    if not _planet_to_take(state, letter, ALIEN, coloniser):
        return None
    cost = float(state.map.zones_travelled(here, system.zone, system.level))
    if letter in state.revealed:
        loyalty = max(p.loyalty for p in state.systems[letter].planets)
        if loyalty >= 4 and strength < 3 * loyalty:
            return None
        cost += loyalty
    else:
        cost += 3
    guarded = any(
        f.side == EMPIRE and f.on_map and f.position == system.position for f in state.fleets
    )
    if guarded and strength < 10:
        return None
    return cost


def _planet_to_take(state: State, letter: str, side: str, coloniser: bool) -> str:
    """The planet of ``letter`` the side would take next: one it does not hold, or with a
    colonisation ship one it holds without having colonised it."""
    for p in state.systems[letter].planets:
        if p.holder != side or (coloniser and p.colonised != side):
            return p.name
    return ""


def _empire_moves(state: State, orders: Orders, tables: Tables) -> None:
    lost = [p for p in state.all_planets() if p.holder != EMPIRE and p.holder]
    threatened = [
        s.letter
        for s in state.map.systems.values()
        if any(
            f.side == ALIEN and f.on_map and f.position is not None and f.position.zone == s.zone
            for f in state.fleets
        )
        and any(p.holder == EMPIRE for p in state.systems[s.letter].planets)
    ]
    goals = [(state.systems[x].loyalty, x) for x in threatened]
    goals += [(0, p.system) for p in lost]
    used: set[str] = set()
    for fleet in sorted(state.fleets, key=lambda f: (-len(f.ships), f.letter)):
        if fleet.side != EMPIRE or not fleet.on_map or fleet.position is None or not fleet.ships:
            continue
        choices = [g for g in sorted(goals, reverse=True) if g[1] not in used]
        if not choices:
            continue
        letter = choices[0][1]
        used.add(letter)
        goal = state.map.systems[letter].position
        planet = next((p.name for p in state.systems[letter].planets if p.holder == ALIEN), "")
        move = _go(state, fleet, goal, planet, bool(planet))
        if move is not None:
            orders.moves.append(move)


def _entries(state: State, side: str, orders: Orders, rng: random.Random) -> None:
    """Reserves with ships (and fleets waiting outside) enter toward a system of interest."""
    own = [
        s
        for s in state.map.systems.values()
        if any(p.holder == side for p in state.systems[s.letter].planets)
    ]
    targets = own or list(state.map.systems.values())
    for fleet in state.fleets:
        if fleet.side != side or not fleet.ships:
            continue
        ready = (fleet.where == "reserve" and state.turn >= 2) or (
            fleet.where == "waiting" and fleet.wait == 0 and state.turn > 1
        )
        moving = any(m.fleet == fleet.letter for m in orders.moves)
        if ready and not moving:
            target = rng.choice(targets)
            orders.entries.append(ReserveEntry(fleet.letter, target.zone, target.level, ""))


def _purchases(state: State, side: str, orders: Orders, tables: Tables) -> None:
    """Buy ships for fleets off the map, cheapest useful first, while points last (tried on
    a copy of the state, so each purchase counts toward the next one's limits)."""
    trial = state.copy()
    points = trial.total_points(side)
    for letter in tables.fleets:
        fleet = trial.fleet(side, letter)
        if fleet is None or fleet.on_map:
            continue
        for kind in ("fregate", "corvette", "colonisation"):
            cost = tables.ships[kind].cost
            buy = Purchase(letter, kind, 1, "")
            while points >= cost and not purchase_problem(trial, tables, side, buy):
                orders.purchases.append(buy)
                points -= cost
                fleet.ships.append(Ship(kind))
