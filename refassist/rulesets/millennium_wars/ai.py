"""Computer sides, for the demo and the tests: a plain, readable strategy from the side's own
view, deterministic for a seed.

In its impulses a computer side sends its cybercadres against the enemy's (taking the Index
when it wins), buys the reinforcements its points pay for when they are bought (the house rule
``reinforcements``), moves each combat unit toward the nearest objective it does not hold (or, with
none left, the nearest enemy unit it sees) as far as its speed and the zones of control let
it, then attacks every enemy hex its units border where it has at least 3 to 2, on the
Air-Land Battle CRT when its High-Tech strength allows, the Assault CRT at 3/1 or better, the
Raid CRT otherwise, advancing with everything.  Its headquarters stay where they are.  It
declares an impulse its last of the player turn when it has nothing to do in it, or when every
unit that could still move or attack is busy in it (so no sheet is sent for impulses it would
leave empty).  It makes no reserve moves, and it accepts a ceasefire when it leads or ties on
objectives.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ...dice import player_rng
from ...geometry.hexmap import distance
from .board import Board
from .combat import Attack
from .movement import Move
from .orders import InformationAttack, Orders, Purchase
from .resolve import board_of
from .rules import complete
from .state import State
from .supply import available_reinforcements, price
from .units import Unit
from .visibility import side_view


def computer_orders(
    state: State, player: str, seed: int, rules: Mapping[str, Any] | None = None
) -> Orders:
    rules = complete(rules)
    side = state.side_of(player)
    point = state.point
    orders = Orders(player, point.key)
    if side is None:
        return orders
    view = side_view(state, side.name, rules)
    rng = player_rng(seed, player, point.dice_turn)
    if point.ceasefire:
        mine = sum(p for h, p in view.scenario.objectives.items() if view.held[h] == side.name)
        theirs = sum(
            p for h, p in view.scenario.objectives.items() if view.held[h] not in ("", side.name)
        )
        orders.ceasefire = "accept" if mine >= theirs else "refuse"
        return orders
    if point.reaction or view.phasing.name != side.name:
        return orders
    board = board_of(view, rules)
    if point.impulse == 1:
        cyber = [
            u.id
            for u in board.units
            if u.side == side.name and u.kind.information_warfare and not u.disrupted
        ]
        if cyber and view.scenario.iw_attacks:
            orders.information.append(InformationAttack(cyber, "index"))
        if rules["reinforcements"] == "bought":
            orders.purchases = _reinforcements(view, side.name)
    orders.moves = _moves(view, board, side.name, rules, rng)
    orders.attacks = _attacks(board, side.name)
    orders.last = _nothing_left(board, side.name, orders)
    return orders


def _nothing_left(board: Board, side: str, orders: Orders) -> bool:
    """Whether this impulse should be the side's last: it orders nothing, or no unit of its
    is left free for a later impulse (every combat unit is Ops Complete or busy now)."""
    if not orders.moves and not orders.attacks:
        return True
    busy = {m.unit for m in orders.moves} | {u for a in orders.attacks for u in a.attackers}
    return not any(
        u.side == side
        and u.hex
        and not u.ops_complete
        and u.id not in busy
        and not u.kind.logistics
        and not u.kind.information_warfare
        and (u.speed or u.attack)
        for u in board.units
    )


def _reinforcements(view: State, side: str) -> list[Purchase]:
    """Every reinforcement available that the side's points pay for, in the schedule's order,
    each at its scheduled hex."""
    points = view.side(side).political_points
    bought = []
    for unit in available_reinforcements(view, side):
        paid = price(view, view.side(side), unit, replacement=False)
        if paid.points is not None and paid.points <= points:
            bought.append(Purchase("reinforcement", unit.id))
            points -= paid.points
    return bought


def _moves(
    view: State, board: Board, side: str, rules: Mapping[str, Any], rng: random.Random
) -> list[Move]:
    wanted = [h for h in view.scenario.objectives if view.held[h] != side]
    enemies = [u.hex for u in board.units if u.side != side and u.hex]
    targets = wanted or enemies
    if not targets:
        return []
    moves = []
    movers = [
        u
        for u in board.units
        if u.side == side
        and not u.ops_complete
        and not u.kind.logistics
        and not u.kind.information_warfare
        and u.speed
    ]
    rng.shuffle(movers)
    for unit in sorted(movers, key=lambda u: u.id):
        path = _best_path(board, unit, targets, view.bad_weather, bool(rules["zoc_stop"]))
        if path:
            moves.append(Move(unit.id, path))
            unit.hex = path[-1]  # later units plan around it (stacking)
    return moves


def _best_path(
    board: Board, unit: Unit, targets: list[str], bad_weather: bool, zoc_stop: bool
) -> list[str]:
    """The path within the unit's speed that ends nearest a target (then the cheapest)."""
    speed = max(1, unit.speed - 1) if bad_weather else unit.speed
    start = unit.hex
    best: dict[str, Fraction] = {start: Fraction(0)}
    came: dict[str, str] = {}
    queue: list[tuple[Fraction, str]] = [(Fraction(0), start)]
    while queue:
        spent, at = heapq.heappop(queue)
        if spent > best.get(at, spent):
            continue
        if at != start and zoc_stop and board.in_enemy_zoc(at, unit.side):
            continue  # a move ends on entering a zone of control
        for nxt in board.grid.neighbours(at):
            cost = board.step_cost(unit, at, nxt)
            if cost is None or board.enemy_in(nxt, unit.side):
                continue
            total = spent + cost
            if total <= speed and total < best.get(nxt, Fraction(10**6)):
                best[nxt] = total
                came[nxt] = at
                heapq.heappush(queue, (total, nxt))

    def room(h: str) -> bool:
        return h == start or len(board.land_at(h, unit.side)) < board.limit(h)

    def score(h: str) -> tuple[int, Fraction, str]:
        return (min(distance(h, t) for t in targets), best[h], h)

    end = min((h for h in best if room(h)), key=score)
    if end == start or score(end)[0] >= score(start)[0]:
        return []
    path = [end]
    while came[path[-1]] != start:
        path.append(came[path[-1]])
    return path[::-1]


def _attacks(board: Board, side: str) -> list[Attack]:
    attacks = []
    busy: set[str] = set()
    targets = sorted({u.hex for u in board.units if u.side != side and u.hex and not u.kind.naval})
    for hex_ in targets:
        if not board.terrain_of(hex_).combat:
            continue
        mine = [
            u
            for n in board.grid.neighbours(hex_)
            for u in board.land_at(n, side)
            if not u.disrupted
            and not u.ops_complete
            and u.id not in busy
            and u.attack
            and not u.kind.logistics
        ]
        held = board.land_at(hex_)
        defence = sum(u.defence for u in held if u.side != side)
        strength = sum(u.attack for u in mine)
        if not mine or 2 * strength < 3 * max(defence, 1):
            continue
        high = sum(u.attack for u in mine if u.kind.high_tech)
        crt = (
            "air-land" if 2 * high >= strength else "assault" if strength >= 3 * defence else "raid"
        )
        attacks.append(Attack([u.id for u in mine], hex_, crt, advance=[u.id for u in mine]))
        busy.update(u.id for u in mine)
    return attacks


__all__ = ["computer_orders"]
