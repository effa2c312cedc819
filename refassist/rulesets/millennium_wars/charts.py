"""The game's dice tables: random events (d66), air superiority, information warfare and
recovery, each rolled through the logged `Dice` so every result can be replayed.

Each function rolls and reads its table and returns what was rolled and what it means; what
the result then does to the game (the Political Index, C4I levels, disruption) is applied by
the resolution, which also records the event.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...dice import Dice

# -- random events (d66) ------------------------------------------------------------------------

#: The Random Events Table by d66 (two dice read as tens and units).
EVENTS: tuple[tuple[int, int, str], ...] = (
    (11, 12, "ceasefire"),
    (13, 13, "first rally"),
    (14, 14, "first protests"),
    (15, 15, "second rally"),
    (16, 16, "second protests"),
    (21, 22, "first guerrillas"),
    (23, 24, "second guerrillas"),
    (25, 26, "variable politics"),
    (31, 33, "world opinion"),
    (34, 36, "bad weather"),
    (41, 43, "scenario event 1"),
    (44, 46, "scenario event 2"),
    (51, 53, "scenario event 3"),
    (54, 66, "no event"),
)


@dataclass(frozen=True)
class Rolled:
    """A table read: the dice (as rolled) and the result's name."""

    dice: tuple[int, ...]
    result: str

    @property
    def total(self) -> int:
        return sum(self.dice)


def d66(dice: Dice, purpose: str) -> int:
    """Two dice read as tens and units (11-66)."""
    tens = dice.d6(f"{purpose} (tens)")
    units = dice.d6(f"{purpose} (units)")
    return tens * 10 + units


def random_event(dice: Dice) -> Rolled:
    roll = d66(dice, "random event")
    name = next(n for low, high, n in EVENTS if low <= roll <= high)
    return Rolled((roll // 10, roll % 10), name)


def event_of(roll: int) -> str:
    """The event of a d66 roll (11-66)."""
    if not (11 <= roll <= 66 and 1 <= roll % 10 <= 6):
        raise ValueError(f"{roll} is not a d66 roll")
    return next(n for low, high, n in EVENTS if low <= roll <= high)


# -- air superiority ----------------------------------------------------------------------------


def air_result(total: int) -> str:
    """The Air Superiority Table for a modified roll."""
    if total <= 0:
        return "second dominance"
    if total <= 2:
        return "second superiority"
    if total <= 4:
        return "parity"
    if total <= 6:
        return "first superiority"
    return "first dominance"


def air_defended(total: int, first_defence: int, second_defence: int) -> int:
    """The Air Superiority total after both sides' Air Defense levels (the house rule
    ``air_defence = "deny"``, ours: the seed prices the levels and gives them no effect).
    Each level of a side takes one off the enemy's side of the roll, never past parity: the
    First Player's levels raise a total of 2 or less toward 3, the Second Player's lower a
    total of 5 or more toward 4.  Air defence denies the enemy the air; it never wins it."""
    if total <= 2:
        return min(total + first_defence, 3)
    if total >= 5:
        return max(total - second_defence, 4)
    return total


def air_superiority(dice: Dice, modifier: int) -> Rolled:
    """1D6 + the scenario's modifier."""
    roll = dice.d6("air superiority")
    return Rolled((roll,), air_result(roll + modifier))


# -- information warfare ------------------------------------------------------------------------

#: Columns of the Information Warfare Table: the differential -1 or less ... +5 or more.
IW_COLUMNS = ("-1", "0", "+1", "+2", "+3", "+4", "+5")
IW_TABLE: tuple[tuple[str, ...], ...] = (
    ("FB", "FB", "FB", "FB", "FB", "FB", "FB"),
    ("CM", "CM", "CM", "CM", "CM", "CM", "FB"),
    ("CM", "NE", "NE", "NE", "NE", "IS1", "IS1"),
    ("NE", "NE", "IS1", "IS1", "IS1", "IS1", "IS2"),
    ("NE", "IS1", "IS1", "IS1", "IS2", "IS2", "IS2"),
    ("IS1", "IS1", "IS1", "IS2", "ID", "ID", "ID"),
)


def iw_column(differential: int) -> int:
    """The column of an information warfare differential (attacking IW strength minus the
    defending, our reading of the seed's undefined "differential")."""
    return min(max(differential, -1), 5) + 1


def iw_result(differential: int, die: int) -> str:
    return IW_TABLE[die - 1][iw_column(differential)]


def information_warfare(dice: Dice, differential: int) -> Rolled:
    roll = dice.d6("information warfare")
    return Rolled((roll,), iw_result(differential, roll))


# -- recovery -----------------------------------------------------------------------------------


def recovery_modifier(in_enemy_zoc: bool, terrain: str) -> int:
    """+1 outside an enemy zone of control, -1 in desert or glacier."""
    return (0 if in_enemy_zoc else 1) - (1 if terrain in ("desert", "glacier") else 0)


def recovers(dice: Dice, unit: str, in_enemy_zoc: bool, terrain: str) -> tuple[int, bool]:
    """A disrupted unit's recovery roll: 4 or more (modified) and it is combat effective."""
    roll = dice.d6(f"recovery, {unit}")
    return roll, roll + recovery_modifier(in_enemy_zoc, terrain) >= 4


__all__ = [
    "EVENTS",
    "IW_COLUMNS",
    "IW_TABLE",
    "Rolled",
    "air_defended",
    "air_result",
    "air_superiority",
    "d66",
    "event_of",
    "information_warfare",
    "iw_column",
    "iw_result",
    "random_event",
    "recovers",
    "recovery_modifier",
]
