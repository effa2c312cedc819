"""The checker of a Millennium Wars sheet: every order run against the rules on the player's
own view of the board, in sheet order, each problem pinned to its cell.

Moves are tried one after the other on a copy of the view, so that an attack is checked from
where the units will stand; a move that the checker cannot confirm because the player cannot
see what stops it is confirmed at resolve time (where the rules stop it).  Attacks are checked
as the combat will check them (`combat.check_attack`); a unit attacks once an impulse; the
units named to retreat or advance must be among the attackers.  The units an information
warfare attack names to disrupt must be enemy units the side sees: one out of sight is refused
in the same words as an id that is no unit, so a player learns nothing by guessing.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ...errors import CellProblem
from ..checking import OrderChecker
from .combat import CombatError, Defence, check_attack
from .crt import CRTS
from .movement import make_moves
from .orders import CEASEFIRE_CELL, IW_CHOICES, Orders
from .resolve import board_of
from .rules import complete
from .sheet import POINTS_COLUMN
from .state import State
from .supply import bought_unit
from .visibility import side_view


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
                    f"{a.choice!r} is not a choice",
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
    for hex_ in sorted({u.hex for u in board.units if u.side == side.name and u.hex}):
        if board.overstacked(hex_, side.name):
            check.warn(
                orders.moves[0].cell if orders.moves else "B2",
                hex_,
                f"{hex_} would hold {len(board.land_at(hex_, side.name))} land units, more than "
                f"{board.limit(hex_)}: they would all be disrupted after the combat",
                "Move a unit elsewhere.",
            )
    if reacting:
        for attack in orders.attacks:
            check.error(attack.cell, attack.hex, "a reaction makes no attacks", "Take it out.")
        return check.problems
    crts = {**CRTS, "assault": view.scenario.assault}
    attacking: set[str] = set()
    left = view.side(side.name).political_points
    for attack in orders.attacks:
        if attack.political_points > left:
            check.warn(
                points_cell(attack.cell),
                str(attack.political_points),
                f"{side.name} has {left} political points left for this attack; it will "
                f"spend what it has",
                "Ask fewer political points.",
            )
        left = max(left - attack.political_points, Fraction(0))
        try:
            units = check_attack(
                board,
                attack,
                side.name,
                crts,
                disrupted_attack=bool(rules["disrupted_attack"]),
            )
        except CombatError as exc:
            check.error(attack.cell, " ".join(attack.attackers), str(exc), "Change the attack.")
            continue
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


__all__ = ["known_ids", "points_cell", "validate_orders", "with_state_ids"]
