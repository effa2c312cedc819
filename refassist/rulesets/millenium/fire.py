"""One shot on TAB 2 (rule VIII D): the weapon's attack factor by range against the target's
protection, the die modifiers a-g, and the result.

Kept apart from the battle so a referee (and a test) can settle a single disputed shot:
`shot_modifier` and `resolve_shot` are the whole of the firing rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .charts import Tables


def shot_modifier(
    *,
    reduced: bool,
    damaged: bool,
    destroyed: bool,
    weapon: str,
    counter: str,
    laser_targets: int,
    both_systems_targets: int,
    rules: Mapping[str, Any],
    offensive: bool = True,
) -> tuple[int, list[str]]:
    """The die modifier of one shot and the letters of the rules that make it:

    a/b/c the firer is under a temporary reduction, damaged or destroyed this round: -1, once
    however many apply, and only in offensive fire (``offensive``): the seed says "en tir
    offensif" for each, so a damaged ship fires back in the defensive phase at full strength;
    d a missile at a target with counter-measures X -1, Y -2; e lasers at
    several targets -1; f both weapon systems at several targets -2 (``double_system_targets``:
    the rules text says several, TAB 2's heading three); g one target: nothing.
    """
    total, why = 0, []
    if offensive and (reduced or damaged or destroyed):
        total -= 1
        why.append("a" if reduced else "b" if damaged else "c")
    if weapon == "missile" and counter:
        total -= 1 if counter == "X" else 2
        why.append(f"d{counter}")
    if both_systems_targets >= rules["double_system_targets"]:
        total -= 2
        why.append("f")
    elif laser_targets >= 2 and weapon == "laser":
        total -= 1
        why.append("e")
    return total, why


@dataclass(frozen=True)
class Shot:
    """A shot as it was resolved, for the battle log and the reports."""

    round: int
    phase: str  # "defensive" or "offensive"
    firer: str
    target: str
    weapon: str
    distance: int
    attack: int
    defence: int
    column: str
    die: int
    modifier: int
    why: tuple[str, ...]
    result: str


def resolve_shot(
    tables: Tables,
    *,
    weapon: str,
    distance: int,
    protection: int,
    die: int,
    modifier: int,
    target_kind: str,
) -> tuple[int, str, str]:
    """(attack factor, column label, result) for a shot: missiles do nothing to interceptors
    (rule VIII D), and a shot beyond the weapon's last range does nothing either."""
    attack = tables.attack_points(weapon, distance)
    if weapon == "missile" and target_kind == "intercepteur":
        return attack, "-", "R"
    column = tables.combat_column(attack, protection)
    label = tables.combat_labels[column] if column is not None else "-"
    return attack, label, tables.combat_result(column, die + modifier)
