"""The first impulse's business: reinforcements due, purchases with political points, and
information warfare.

Readings recorded in docs/rules/millennium-wars.md: the scenario's reinforcements arrive free
on their turn at their hex, or, if an enemy holds it or it is full, at the nearest hex of
their home country that is free and not full; a replacement brings an eliminated unit back
combat effective at a hex of its home country free of enemies; prices as `politics.cost`,
with this turn's rally or protests.  Information warfare: the differential is the attacking
cybercadres' attack strength less the defence strength of the enemy's combat-effective
cybercadres; an ID result is worth an IS2 where a number is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...dice import Dice
from ...hexmap import distance
from . import charts
from .board import Board
from .orders import InformationAttack, Purchase
from .politics import cost, price_class, shifted
from .state import SideState, State
from .units import Unit


def place_reinforcements(state: State, board: Board, side: SideState) -> list[str]:
    """Put the reinforcements due to ``side`` this turn on the map; what happened."""
    lines = []
    for due in state.scenario.reinforcements:
        unit = due.unit
        if due.turn > state.point.turn or unit.side != side.name or unit.id in state.arrived:
            continue
        where = _free_hex(state, board, unit, unit.hex)
        state.arrived.append(unit.id)
        if not where:
            lines.append(f"{unit.id} cannot arrive: no free hex in {side.name}'s country")
            continue
        arrived = replace(unit, hex=where)
        state.units.append(arrived)
        lines.append(
            f"{unit.id} arrives at {where}"
            + ("" if where == unit.hex else f" ({unit.hex} is not free)")
        )
    return lines


def _free_hex(state: State, board: Board, unit: Unit, wanted: str) -> str:
    def free(h: str) -> bool:
        return (
            board.can_enter(unit, h)
            and not board.enemy_in(h, unit.side)
            and len(board.land_at(h, unit.side)) < board.limit(h)
        )

    if wanted and free(wanted):
        return wanted
    home = [h for h, owner in state.scenario.countries.items() if owner == unit.side and free(h)]
    if not home:
        return ""
    return min(home, key=lambda h: (distance(h, wanted) if wanted else 0, h))


def buy(state: State, board: Board, side: SideState, purchases: Sequence[Purchase]) -> list[str]:
    """Spend political points on replacements and air defence, in the sheet's order."""
    first = side.name == state.scenario.first
    rally = state.event == ("first rally" if first else "second rally")
    protests = state.event == ("first protests" if first else "second protests")
    lines = []
    for purchase in purchases:
        if purchase.kind == "air defence":
            price = cost("air defence", side.nato, False, rally=rally, protests=protests)
            what = "an Air Defense level"
            lost = None
        else:
            lost = next(
                (
                    u
                    for u in state.lost
                    if u.id.lower() == purchase.unit.lower() and u.side == side.name
                ),
                None,
            )
            if lost is None:
                lines.append(
                    f"no replacement for {purchase.unit}: it is not one of "
                    f"{side.name}'s eliminated units"
                )
                continue
            price = cost(
                price_class(lost.type, lost.size), side.nato, True, rally=rally, protests=protests
            )
            what = f"{lost.id} as a replacement"
        if price.points is None:
            lines.append(f"{what} cannot be bought ({price.line} has no price for {side.name})")
            continue
        if price.points > side.political_points:
            lines.append(
                f"{what} costs {price.points} political points; {side.name} has "
                f"{side.political_points}"
            )
            continue
        if lost is not None:
            where = purchase.hex
            if (
                state.scenario.countries.get(where) != side.name
                or not board.can_enter(lost, where)
                or board.enemy_in(where, side.name)
            ):
                lines.append(
                    f"{lost.id} cannot come back at {where or 'no hex'}: name a free "
                    f"hex of {side.name}'s country"
                )
                continue
            back = replace(lost, hex=where, disrupted=False, ops_complete=False)
            state.lost.remove(lost)
            state.units.append(back)
        else:
            side.air_defence += 1
        side.political_points -= price.points
        lines.append(f"{side.name} buys {what} for {price.points} political points")
    return lines


def information_warfare(
    state: State, board: Board, side: SideState, attacks: Sequence[InformationAttack], dice: Dice
) -> list[str]:
    """The player turn's information warfare attacks (at most the scenario's number)."""
    enemy = state.second if side is state.first else state.first
    lines = []
    for n, attack in enumerate(attacks):
        if n >= state.scenario.iw_attacks:
            lines.append(
                f"only {state.scenario.iw_attacks} information warfare attack(s) a "
                "player turn; the rest are not made"
            )
            break
        units = [board.unit(u) for u in attack.units]
        mine = [
            u
            for u in units
            if u is not None
            and u.side == side.name
            and u.kind.information_warfare
            and not u.disrupted
        ]
        if not mine or len(mine) != len(units):
            lines.append(
                "an information warfare attack needs combat-effective cybercadres "
                f"of {side.name}'s: {' '.join(attack.units)} are not"
            )
            continue
        theirs = [
            u
            for u in board.units
            if u.side == enemy.name and u.kind.information_warfare and not u.disrupted
        ]
        differential = sum(u.attack for u in mine) - sum(u.defence for u in theirs)
        with dice.at(phase="information warfare", location=""):
            rolled = charts.information_warfare(dice, differential)
        result = rolled.result
        line = f"information warfare, differential {differential:+d}, 1D6 {rolled.total}: {result}"
        if result == "CM":
            for u in mine:
                u.disrupted = True
            line += f"; {', '.join(u.id for u in mine)} disrupted"
        elif result == "FB":
            with dice.at(phase="information warfare", location=""):
                die = dice.d6("feedback")
            state.political_index = shifted(state.political_index, die, enemy is state.first)
            line += f"; the Index moves {die} toward {enemy.name}"
        elif result.startswith(("IS", "ID")):
            line += "; " + _superiority(state, board, side, enemy, attack, result, theirs, dice)
        lines.append(line)
    return lines


def _superiority(
    state: State,
    board: Board,
    side: SideState,
    enemy: SideState,
    attack: InformationAttack,
    result: str,
    theirs: list[Unit],
    dice: Dice,
) -> str:
    number = int(result[2:]) if result.startswith("IS") else 2
    choice = attack.choice
    if choice == "c4i" and result == "ID":
        enemy.c4i = max(0, enemy.c4i - 1)
        return f"{enemy.name}'s C4I falls to {enemy.c4i}"
    if choice == "see":
        if side.name not in state.sees_all:
            state.sees_all.append(side.name)
        return f"{side.name} sees every enemy unit for the rest of the game turn"
    if choice == "disrupt":
        hit: list[str] = []
        for uid in attack.targets:
            unit = board.unit(uid)
            if (
                unit is not None
                and unit.side == enemy.name
                and not unit.disrupted
                and len(hit) < number
            ):
                unit.disrupted = True
                hit.append(unit.id)
        return "disrupted: " + (", ".join(hit) or "none (no combat-effective enemy unit named)")
    if choice == "disrupt-iw":
        for u in theirs:
            u.disrupted = True
        return "the defending cybercadres are disrupted"
    with dice.at(phase="information warfare", location=""):
        die = dice.d6("information superiority")
    state.political_index = shifted(state.political_index, die * number, side is state.first)
    return f"the Index moves {die} x {number} toward {side.name}"


__all__ = ["buy", "information_warfare", "place_reinforcements"]
