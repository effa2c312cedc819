"""The attacks declared on a side's units, as that side is told them before it reacts.

By mail the attacks of an impulse are declared on the phasing sheet, before the other player
writes his reaction, and the retreats he wants for his units are written on the reaction sheet
before the combat.  At the table a defender sees the attacks made and chooses each retreat
knowing the result; by mail he must at least know what he writes his retreats for.  So the
reacting side is told (house rule ``attacks_told``, on by default) each attack on its units:
the hex, its units in it, the enemy units attacking and the hexes they attack from, the table
declared, and the odds as it can reckon them from the board (strengths, terrain, river, air,
naval support, NATO and non-NATO together).  It is not told what the attacker keeps to
himself until the combat: political points spent for a shift, an intensive assault, the
retreats and advances he asks, the unit he picks on A1 or B1.

`told_attack` is what `visibility.side_view` keeps of a declared attack in the defender's
view; `attacks_on` reads the attacks back from a view, with the odds, for the sheet and the
report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .board import Board
from .combat import Attack, CombatError, Defence, check_attack, defenders, shifts
from .crt import CRTS, odds
from .rules import complete
from .state import State
from .supply import combat_conditions


def told_attack(attack: Attack) -> Attack:
    """A declared attack as its defender may know it before the combat: the units, the hex
    and the table, without the attacker's political points, intensive assault, retreats,
    advances, ambush pick or sheet cell."""
    return Attack(list(attack.attackers), attack.hex, attack.crt)


@dataclass(frozen=True)
class AttackOnUs:
    """One attack on the reader's units, as a sheet or report tells it."""

    hex: str
    crt: str
    defenders: tuple[str, ...]
    #: Each attacking unit and the hex it attacks from.
    attackers: tuple[tuple[str, str], ...]
    odds: str

    @property
    def text(self) -> str:
        """``0905 (S-3) attacked on the raid CRT by N-1AR from 0804, N-HT from 0805; odds
        as you can reckon them 11 to 4: 2/1``."""
        by = ", ".join(f"{uid} from {hex_}" for uid, hex_ in self.attackers)
        return (
            f"{self.hex} ({' '.join(self.defenders)}) attacked on the {self.crt} CRT by {by}; "
            f"odds as you can reckon them {self.odds}"
        )


def attacks_on(view: State, rules: Mapping[str, Any] | None = None) -> list[AttackOnUs]:
    """The attacks waiting in ``view`` (a side's view) on that side's units, in the order
    they will be fought, each with the odds reckoned from the view alone: an attacking unit
    the side does not see (there is none while attacks need a unit next to the hex) is left
    out of the names and of the strength alike."""
    rules = complete(rules)
    side = view.viewer
    if not side or view.phasing.name == side:
        return []
    board = Board.of(view.scenario, view.units, int(rules["stacking"]))
    found = []
    for declared in view.pending:
        attack = told_attack(declared)
        held = [u for u in defenders(board, attack, view.phasing.name) if u.side == side]
        units = [u for uid in attack.attackers if (u := board.unit(uid)) and u.side != side]
        units = [u for u in units if u.hex]
        if not held or not units:
            continue
        conditions = combat_conditions(view, board)
        moved = shifts(board, attack, units, held, view.phasing.name, conditions, Defence())
        reckoned = odds(
            sum(u.attack for u in units),
            sum(u.defence for u in held),
            moved,
            limits_after_shifts=rules["odds_limits"] == "after_shifts",
        )
        found.append(
            AttackOnUs(
                attack.hex,
                attack.crt,
                tuple(u.id for u in held),
                tuple((u.id, u.hex) for u in units),
                reckoned.describe(),
            )
        )
    return found


#: What the odds told leave out, said once under the attacks.
LEFT_OUT = (
    "The odds leave out what the attacker keeps to himself until the combat (political "
    "points, an intensive assault) and your own political points for the defence."
)


def attack_lines(view: State, rules: Mapping[str, Any] | None = None) -> list[str]:
    """`attacks_on` as lines of text, with what the odds leave out said once."""
    found = attacks_on(view, rules)
    return [a.text for a in found] + [LEFT_OUT] if found else []


def fightable(state: State, rules: Mapping[str, Any] | None = None) -> list[Attack]:
    """The attacks declared this impulse that can be fought as the board stands after the
    phasing moves (`combat.check_attack`: the attackers next to the hex, not Ops Complete, an
    enemy land unit there...).  Only these are told to the defender and call for a reaction
    sheet: one that cannot be fought is void and stays its attacker's plan.  (An attack made
    possible only by an earlier attack's advance is fought, without having been told.)"""
    rules = complete(rules)
    board = Board.of(state.scenario, state.units, int(rules["stacking"]))
    conditions = combat_conditions(state, board)
    crts = {**CRTS, "assault": state.scenario.assault}
    found = []
    for attack in state.pending:
        try:
            check_attack(
                board,
                attack,
                state.phasing.name,
                crts,
                disrupted_attack=bool(rules["disrupted_attack"]),
                conditions=conditions,
                political=str(rules["political_shift"]),
            )
        except CombatError:
            continue
        found.append(attack)
    return found


def pending_told(state: State, side: str, rules: Mapping[str, Any] | None = None) -> list[Attack]:
    """What ``side``'s view keeps of the attacks declared by the other side: the attacks on
    hexes that hold its land units that can be fought (`fightable`), each as `told_attack`
    (none under ``attacks_told = false``, nor while it is the phasing side's own)."""
    if state.phasing.name == side or not complete(rules)["attacks_told"]:
        return []
    mine = {u.hex for u in state.units if u.side == side and u.hex and not u.kind.naval}
    return [told_attack(a) for a in fightable(state, rules) if a.hex in mine]


__all__ = [
    "LEFT_OUT",
    "AttackOnUs",
    "attack_lines",
    "attacks_on",
    "fightable",
    "pending_told",
    "told_attack",
]
