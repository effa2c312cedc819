"""Battles fought on the referee's table (house rule ``battles = "referee"``, the digest's
option): which battles a mover's tactical phase opens, the ships that came to each, and a
result sheet's losses written back to the fleets.

The turn stops after the strategic phase (`resolve`): the battles wait in ``State.held`` with
the rest of the mover's turn (repairs, purchases), a step ``<turn>-batailles`` asks for a
result sheet per battle (`battlesheet`), and the step that reads them finishes the turn.  These
functions are the parts the sheet, its checker and the resolution share, so the ships a sheet
lists are the ships the result is applied to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .charts import INTERCEPTORS_PER_CARRIER, Tables
from .geometry import Position
from .orders import BattleResult, PlanetResult, ShipResult
from .state import Fleet, Ship, State, TableBattle, other
from .tactical import Battle, TacticalOrders, set_up


def at_place(pos: Position, across_levels: bool) -> Callable[[Fleet], bool]:
    """Whether a fleet stands where a battle at ``pos`` is fought: the same sector and level,
    or with ``fight_across_levels`` the same sector whatever its level."""
    if across_levels:
        return lambda f: (
            f.position is not None
            and f.position.zone == pos.zone
            and f.position.sector == pos.sector
        )
    return lambda f: f.position == pos


def battle_fleets(
    state: State, pos: Position, attacker: str, across_levels: bool
) -> tuple[list[Fleet], list[Fleet]]:
    """The attacker's fleets and the defender's at a battle's place, in the state's order."""
    here = at_place(pos, across_levels)
    mine = [f for f in state.fleets if f.on_map and f.side == attacker and here(f)]
    theirs = [f for f in state.fleets if f.on_map and f.side == other(attacker) and here(f)]
    return mine, theirs


def place_key(pos: Position, across_levels: bool) -> object:
    """What makes two battles' places the same: the position, or with
    ``fight_across_levels`` the sector whatever the level (its fleets fight once)."""
    return (pos.zone, pos.sector) if across_levels else pos


def opened(
    state: State, side: str, attacks: Sequence[tuple[Position, str]], across_levels: bool
) -> list[tuple[Position, str]]:
    """The battles of ``side``'s tactical phase, in the order they are fought: the planets it
    attacks, as its sheet wrote them, then every other place where its fleets meet enemy
    fleets (rule VIII A), each place once, as `resolve` fights them automatically."""
    out = [
        (pos, planet)
        for pos, planet in attacks
        if battle_fleets(state, pos, side, across_levels)[0]
    ]
    fought = {place_key(pos, across_levels) for pos, _ in out}
    for pos in sorted(
        {f.position for f in state.fleets if f.on_map and f.side == side and f.position}
    ):
        mine, theirs = battle_fleets(state, pos, side, across_levels)
        if mine and theirs and place_key(pos, across_levels) not in fought:
            fought.add(place_key(pos, across_levels))
            out.append((pos, ""))
    return out


@dataclass(frozen=True)
class InBattle:
    """A ship as it came to a battle: a row of the battle sheet."""

    side: str
    fleet: str
    index: int
    ship: Ship


def ships_in(state: State, battle: TableBattle, across_levels: bool) -> list[InBattle]:
    """Every ship at the battle, the attacker's fleets first, each fleet's ships in order."""
    mine, theirs = battle_fleets(state, battle.position, battle.attacker, across_levels)
    return [InBattle(f.side, f.letter, n, s) for f in mine + theirs for n, s in enumerate(f.ships)]


def apply_losses(
    state: State, battle: TableBattle, result: BattleResult, across: bool
) -> list[Fleet]:
    """Write the ships' fates back to their fleets; the fleets left with no ship (now marked
    destroyed).  A row naming no ship of the battle is passed over (the checker refused it)."""
    rows = {(r.side, r.fleet, r.index): r for r in result.ships}
    lost: list[Fleet] = []
    mine, theirs = battle_fleets(state, battle.position, battle.attacker, across)
    for fleet in mine + theirs:
        keep: list[Ship] = []
        for index, ship in enumerate(fleet.ships):
            row = rows.get((fleet.side, fleet.letter, index))
            if row is None or row.kind != ship.kind:
                keep.append(ship)
                continue
            if row.fate == "destroyed":
                continue
            if row.fate == "damaged":
                ship.damaged = True
            if ship.kind == "porte_intercepteur" and row.interceptors is not None:
                ship.interceptors = max(0, min(INTERCEPTORS_PER_CARRIER, row.interceptors))
            keep.append(ship)
        fleet.ships = keep
        if not keep:
            fleet.where, fleet.position = "destroyed", None
            lost.append(fleet)
    return lost


def hex_battle(
    state: State,
    tables: Tables,
    rules: Mapping[str, Any],
    pos: Position,
    attacker: str,
    planet: str,
) -> tuple[Battle, dict[str, TacticalOrders], list[Fleet], list[Fleet]]:
    """The battle at ``pos`` set up on the hex map (rule VIII A) from the fleets there and each
    side's standing tactical orders, ready for `tactical.fight`; with the fleets that fight."""
    mine, theirs = battle_fleets(state, pos, attacker, rules["fight_across_levels"])
    enemy = other(attacker)
    planets: list[tuple[str, str, int]] = []
    if planet:
        planets = [(p.name, p.holder or enemy, p.bases) for p in state.systems[planet[0]].planets]
    orders = {
        attacker: state.tactics.get(attacker, TacticalOrders()),
        enemy: state.tactics.get(enemy, TacticalOrders()),
    }
    battle = set_up(
        tables,
        attacker,
        enemy,
        [(f.letter, f.ships) for f in mine],
        [(f.letter, f.ships) for f in theirs],
        planets,
        planet,
        orders,
    )
    return battle, orders, mine, theirs


def result_of(fought: Battle, battle: TableBattle, step: str, notes: str) -> BattleResult:
    """A battle fought by the printed procedure, written as a result sheet would give it (the
    computer's stand-in for the referee's table): applied by `apply_losses` and the planet's
    outcome, it leaves the fleets as the automatic battle does."""
    result = BattleResult(battle.id, step, "", rounds=fought.round, notes=notes)
    # The sheet's order: the attacker's ships first (`ships_in`), each side's fleets in order.
    for p in sorted(fought.pieces, key=lambda p: p.side != fought.attacker):
        if p.index < 0 or p.kind in ("base", "intercepteur"):
            continue
        fate = "destroyed" if p.destroyed else "damaged" if p.damaged else ""
        aboard = None
        if p.kind == "porte_intercepteur":
            aboard = sum(1 for i in fought.pieces if i.carrier == p.key and not i.destroyed)
        if fate or aboard is not None:  # a ship as it came has no entry, as on the sheet
            result.ships.append(ShipResult(p.side, p.fleet, p.index, p.kind, fate, "", aboard))
    if battle.planet:
        left = fought.bases_left if fought.conquered else len(fought.bases_of(battle.planet))
        result.planet.append(PlanetResult(battle.planet, left, fought.conquered, ""))
    result.left = tuple(side for side in (fought.attacker, fought.defender) if side in fought.left)
    return result


__all__ = [
    "InBattle",
    "apply_losses",
    "at_place",
    "battle_fleets",
    "hex_battle",
    "opened",
    "place_key",
    "result_of",
    "ships_in",
]
