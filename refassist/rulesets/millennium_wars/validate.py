"""The checker of a Millennium Wars sheet: every order run against the rules on the player's
own view of the board, in sheet order, each problem pinned to its cell.

Moves are tried one after the other on a copy of the view, so that an attack is checked from
where the units will stand; a move that the checker cannot confirm because the player cannot
see what stops it is confirmed at resolve time (where the rules stop it).  Attacks are checked
as the combat will check them (`combat.check_attack`), with one exception: a hex the player
cannot see into before his moves may hold an enemy his moves find, so an attack on it is
accepted with a note when its units will stand next to it (the combat, fought after the moves
and the reaction, finds the defenders or declares the attack void); a unit attacks once an
impulse; the
units named to retreat or advance must be among the attackers.  The units an information
warfare attack names to disrupt must be enemy units the side sees: one out of sight is refused
in the same words as an id that is no unit, so a player learns nothing by guessing.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ...errors import CellProblem
from ...text.words import counted
from ...workbook.celltext import excerpt
from ..checking import OrderChecker
from .board import Board
from .combat import (
    Attack,
    CombatError,
    Conditions,
    Defence,
    check_attack,
    defenders,
    path_works,
)
from .crt import CRT, CRTS
from .movement import make_moves
from .orders import CEASEFIRE_CELL, IW_CHOICES, Orders, Purchase
from .politics import points_text
from .resolve import board_of
from .rules import complete
from .sheet import ORDERS_SHEET, POINTS_COLUMN, RESERVES_CELL, RETREAT_CELL
from .state import State
from .supply import bought_unit, combat_conditions
from .units import Unit
from .visibility import Sight, side_view, sight


def points_cell(cell: str) -> str:
    """The political points cell of the attack line whose first cell is ``cell``
    (``Orders!B43`` -> ``Orders!E43``): a warning about the points belongs on the cell the
    player typed them in.  An order not read from a sheet keeps its own cell."""
    sheet, bang, ref = cell.rpartition("!")
    if not _ATTACK_REF.match(ref):
        return cell
    return f"{sheet}{bang}{POINTS_COLUMN}{ref[1:]}"


_ATTACK_REF = re.compile(r"^B\d+$")


def known_ids(state: State, side: str, rules: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Every unit id ``side`` may name, by its case-folded spelling: its own units on the
    map, eliminated or due as reinforcements, and the enemy units it sees.  Asked of the
    side's view, so that an id of an enemy unit out of sight is never recognised (its case
    set right would tell the player it exists)."""
    view = side_view(state, side, rules)
    due = [r.unit for r in view.scenario.reinforcements if r.unit.side == side]
    return {u.id.casefold(): u.id for u in [*view.units, *view.lost, *due]}


def with_state_ids(
    state: State, player: str, orders: Orders, rules: Mapping[str, Any] | None = None
) -> Orders:
    """``orders`` with every unit id spelled as the state spells it: ids are read without
    regard to case, as `parse.parse_units` promises (``n-1ar`` is ``N-1AR``).  An id the side
    does not know is left as typed, for the checker to refuse."""
    side = state.side_of(player)
    if side is None or state.point.ceasefire:
        return orders
    ids = known_ids(state, side.name, rules)

    def one(uid: str) -> str:
        return ids.get(uid.casefold(), uid)

    def many(uids: list[str]) -> list[str]:
        return [uid if uid == "*" else one(uid) for uid in uids]

    def retreats(paths: Mapping[str, list[str]]) -> dict[str, list[str]]:
        return {one(uid): list(path) for uid, path in paths.items()}

    def defence(d: Defence) -> Defence:
        return replace(
            d,
            retreat=retreats(d.retreat),
            advance=many(d.advance),
            ambush=one(d.ambush) if d.ambush else "",
        )

    return replace(
        orders,
        moves=[replace(m, unit=one(m.unit)) for m in orders.moves],
        attacks=[
            replace(
                a,
                attackers=many(a.attackers),
                retreat=retreats(a.retreat),
                advance=many(a.advance),
                ambush=one(a.ambush) if a.ambush else "",
            )
            for a in orders.attacks
        ],
        purchases=[replace(p, unit=one(p.unit) if p.unit else "") for p in orders.purchases],
        information=[
            replace(i, units=many(i.units), targets=many(i.targets)) for i in orders.information
        ],
        defence=defence(orders.defence),
        reserves=None if orders.reserves is None else many(orders.reserves),
    )


def validate_orders(
    state: State, player: str, orders: Orders, rules: Mapping[str, Any]
) -> list[CellProblem]:
    rules = complete(rules)
    orders = with_state_ids(state, player, orders, rules)
    check = OrderChecker()
    side = state.side_of(player)
    if side is None:
        check.error("B2", player, f"{player} commands no side of this game", "Use your own sheet.")
        return check.problems
    point = state.point
    if point.ceasefire:
        if orders.ceasefire not in ("accept", "refuse"):
            check.error(
                CEASEFIRE_CELL,
                orders.ceasefire,
                "the answer to the UN must be accept or refuse",
                "Choose accept or refuse.",
            )
        return check.problems
    phasing = state.phasing.name == side.name and not point.reaction
    reacting = state.reacting.name == side.name and point.reaction
    if not (phasing or reacting):
        check.error(
            "B2",
            point.key,
            f"this exchange ({point.key}) is not {side.name}'s to order",
            "Wait for your sheet.",
        )
        return check.problems
    view = copy.deepcopy(side_view(state, side.name, rules))
    board = board_of(view, rules)
    if phasing and point.impulse != 1:
        for p in orders.purchases:
            check.error(
                p.cell, p.kind, "purchases are made in the first impulse only", "Take it out."
            )
        for a in orders.information:
            check.error(
                a.cell,
                " ".join(a.units),
                "information warfare is in the first impulse only",
                "Take it out.",
            )
    if phasing and point.impulse == 1:
        bought = rules["reinforcements"] == "bought"
        seen = {u.id for u in view.units if u.side != side.name}
        for p in orders.purchases:
            if p.kind == "guerrilla":
                _check_guerrilla(check, view, board, side.name, p)
                continue
            _, problem = bought_unit(view, view.side(side.name), p, bought)
            if problem:
                check.error(p.cell, p.unit or p.kind, problem, "Change the purchase.")
        for a in orders.information[: max(0, view.scenario.iw_attacks)]:
            for uid in a.units:
                unit = board.unit(uid)
                if unit is None or unit.side != side.name or not unit.kind.information_warfare:
                    check.error(
                        a.cell,
                        uid,
                        f"{uid} is not a cybercadre of yours",
                        "Name your cybercadres (information warfare units).",
                    )
                elif unit.disrupted:
                    check.error(a.cell, uid, f"{uid} is disrupted", "Leave it out.")
            if a.choice not in IW_CHOICES:
                check.error(
                    a.cell,
                    a.choice,
                    f"{excerpt(a.choice)!r} is not a choice",
                    f"Choose one of {', '.join(IW_CHOICES)}.",
                )
            if a.choice == "disrupt":
                # Asked of the view: an enemy unit out of sight and an id that is no unit at
                # all get the same answer, so the checker confirms no guess.
                for uid in a.targets:
                    if uid not in seen:
                        check.error(
                            a.cell,
                            uid,
                            f"{uid} is not an enemy unit you see",
                            "Name enemy units listed under 'Enemy units you see' on the "
                            "Situation page.",
                        )
        for a in orders.information[max(0, view.scenario.iw_attacks) :]:
            check.error(
                a.cell,
                " ".join(a.units),
                f"only {view.scenario.iw_attacks} information warfare attack(s) a player turn",
                "Take it out.",
            )
    # What the player saw when writing the sheet, before his moves show him more.
    seen_before = sight(view, side.name, rules)
    # Tried in order on the view, as the resolution makes them: a move that stops short
    # leaves its unit where it stops, for the attacks checked after.
    done = make_moves(
        board,
        orders.moves,
        side.name,
        reaction=reacting,
        bad_weather=view.bad_weather,
        zoc_stop=bool(rules["zoc_stop"]),
    )
    for move, got in zip(orders.moves, done, strict=True):
        if not got.ok:
            check.error(move.cell, " ".join(move.path), got.problems[0], "Change the path.")
    conditions = combat_conditions(view, board)
    _check_retreats(
        check,
        board,
        orders.defence.retreat,
        side.name,
        conditions,
        f"{ORDERS_SHEET}!{RETREAT_CELL}",
    )
    if reacting:
        for attack in orders.attacks:
            check.error(attack.cell, attack.hex, "a reaction makes no attacks", "Take it out.")
        if orders.reserves is not None:
            check.error(
                f"{ORDERS_SHEET}!{RESERVES_CELL}",
                " ".join(orders.reserves) or "none",
                "reserves are named on your own impulse sheets, not on a reaction sheet",
                "Take them out.",
            )
        return check.problems
    _check_reserves(check, view, side.name, orders)
    crts = {**CRTS, "assault": view.scenario.assault}
    attacking: set[str] = set()
    left = view.side(side.name).political_points
    political = str(rules["political_shift"])
    for attack in orders.attacks:
        disrupted_attack = bool(rules["disrupted_attack"])
        try:
            if _hidden(board, attack, side.name, seen_before):
                enemy = next(s.name for s in view.sides if s.name != side.name)
                units = _check_hidden(
                    board,
                    attack,
                    side.name,
                    enemy,
                    crts,
                    disrupted_attack=disrupted_attack,
                    conditions=conditions,
                    political=political,
                )
                check.warn(
                    attack.cell,
                    attack.hex,
                    f"you cannot see into {attack.hex} yet: the attack is made if your moves "
                    "find enemy land units there, and is void (you will be told) if none is "
                    "there when the combat is fought",
                    "Keep it if you expect the enemy there.",
                )
            else:
                units = check_attack(
                    board,
                    attack,
                    side.name,
                    crts,
                    disrupted_attack=disrupted_attack,
                    conditions=conditions,
                    political=political,
                )
        except CombatError as exc:
            check.error(attack.cell, " ".join(attack.attackers), str(exc), "Change the attack.")
            continue
        left = _check_points(check, attack, units, side.name, left, political)
        _check_retreats(check, board, attack.retreat, side.name, conditions, attack.cell)
        ids = {u.id for u in units}
        for unit in units:
            if unit.id in attacking:
                check.error(
                    attack.cell,
                    unit.id,
                    f"{unit.id} attacks once an impulse",
                    "Leave it out of one attack.",
                )
        attacking |= ids
        for uid in [*attack.retreat, *attack.advance]:
            if uid != "*" and uid not in ids:
                check.error(
                    attack.cell,
                    uid,
                    f"{uid} is not one of this attack's units",
                    "Name only the attacking units.",
                )
    return check.problems


def _check_reserves(check: OrderChecker, view: State, side: str, orders: Orders) -> None:
    """The reserves named: units of the side on the map; a unit that moves or attacks this
    impulse, or already did this player turn, will be Ops Complete when the player turn ends
    and is then no reserve (a warning: the player may mean it for a later naming)."""
    if not orders.reserves:
        return
    cell = f"{ORDERS_SHEET}!{RESERVES_CELL}"
    mine = {u.id: u for u in view.units if u.side == side and u.hex}
    acting = {m.unit for m in orders.moves} | {uid for a in orders.attacks for uid in a.attackers}
    for uid in orders.reserves:
        unit = mine.get(uid)
        if unit is None:
            check.error(
                cell,
                uid,
                f"{uid} is not one of your units on the map",
                "Name your own units listed on the Situation page.",
            )
        elif uid in acting:
            check.warn(
                cell,
                uid,
                f"{uid} moves or attacks this impulse: it will be Ops Complete and cannot be a "
                "reserve",
                "Leave it out, or keep it back.",
            )
        elif unit.ops_complete:
            check.warn(
                cell,
                uid,
                f"{uid} is Ops Complete (it moved or attacked this player turn) and cannot be a "
                "reserve",
                "Leave it out.",
            )


def _check_points(
    check: OrderChecker,
    attack: Attack,
    units: Sequence[Unit],
    side: str,
    left: Fraction,
    political: str,
) -> Fraction:
    """Warn of a political points shift the side cannot pay or may not buy; the points left
    after it."""
    if not attack.political_points:
        return left
    if political == "off":
        check.warn(
            points_cell(attack.cell),
            str(attack.political_points),
            "political points buy no shifts in this game (the house rule political_shift)",
            "Leave the political points out.",
        )
        return left
    cost = len(units) if political == "per_unit" else min(attack.political_points, len(units))
    if cost > left:
        check.warn(
            points_cell(attack.cell),
            str(attack.political_points),
            f"the shift costs {counted(cost, 'political point')} (one a unit taking part) and "
            f"{side} has {points_text(left)} left for this attack: it will not be taken",
            "Leave the political points out, or attack with fewer units.",
        )
        return left
    return left - cost


def _check_retreats(
    check: OrderChecker,
    board: Board,
    retreats: Mapping[str, Sequence[str]],
    side: str,
    conditions: Conditions,
    cell: str,
) -> None:
    """Warn of a retreat written in advance that cannot work as the player sees the board (a
    hex not next to the last, terrain the unit may not enter, an enemy unit it sees there):
    the rule would retreat the unit its own way."""
    for uid, path in retreats.items():
        unit = board.unit(uid)
        if unit is None or unit.side != side or not path:
            continue
        by_air = unit.kind.airmobile and conditions.airmobile(side)
        # A one-hex retreat takes the first hex, a two-hex one both: each start must work.
        for length in range(1, min(len(path), 2) + 1):
            if not path_works(board, unit, unit.hex, path[:length], by_air):
                check.warn(
                    cell,
                    f"{uid}: {' '.join(path)}",
                    f"{uid}'s retreat {' '.join(path[:length])} cannot work from {unit.hex} as "
                    "you see the board (hexes next to each other, free of enemy units, terrain "
                    "it may enter): the rule would choose its retreat",
                    "Write adjacent hexes it may enter, away from the enemy.",
                )
                break


def _check_guerrilla(
    check: OrderChecker, view: State, board: Board, side: str, purchase: Purchase
) -> None:
    """A guerrilla placed on the sheet: one of the side's waiting guerrillas, at a hex of its
    home country without an enemy unit it sees."""
    waiting = [u for u in view.placing if u.side == side]
    unit = next((u for u in waiting if u.id.lower() == purchase.unit.lower()), None)
    if unit is None and not purchase.unit:
        unit = waiting[0] if waiting else None
    if unit is None:
        check.error(
            purchase.cell,
            purchase.unit or purchase.kind,
            "no guerrilla of yours waits to be placed"
            + (f" under that id (waiting: {' '.join(u.id for u in waiting)})" if waiting else ""),
            "Take the line out.",
        )
        return
    if (
        not purchase.hex
        or view.scenario.countries.get(purchase.hex) != side
        or not board.can_enter(unit, purchase.hex)
        or board.enemy_in(purchase.hex, side)
    ):
        check.warn(
            purchase.cell,
            purchase.hex or unit.id,
            f"{unit.id} goes in a hex of {side}'s country without an enemy unit; otherwise the "
            "rule places it",
            "Write a hex of your country.",
        )


def _hidden(board: Board, attack: Attack, side: str, seen_before: Sight) -> bool:
    """Whether the attack's hex may hold enemy units the player could not see when writing
    the sheet: a hex of the map where combat is possible, out of his sight before his moves,
    with no enemy land unit in his view."""
    return (
        board.grid.contains(attack.hex)
        and board.terrain_of(attack.hex).combat
        and attack.hex not in seen_before
        and not defenders(board, attack, side)
    )


def _check_hidden(
    board: Board,
    attack: Attack,
    side: str,
    enemy: str,
    crts: Mapping[str, CRT],
    **checks: Any,
) -> list[Unit]:
    """`check_attack` for a hex the player cannot see into: everything but the defenders is
    checked (the attackers next to the hex after his moves, the CRT, the points), as if an
    enemy unit stood there; the combat judges the defenders.  ``checks``: `check_attack`'s own."""
    stand_in = Unit("?", enemy, "light infantry", hex=attack.hex)
    board.units.append(stand_in)
    try:
        return check_attack(board, attack, side, crts, **checks)
    finally:
        board.units.remove(stand_in)


__all__ = ["known_ids", "points_cell", "validate_orders", "with_state_ids"]
