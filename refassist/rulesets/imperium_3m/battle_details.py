"""A space battle's details as the master workbook keeps them: in one cell.

The whole record of a long battle (every unit's position each round, every shot's dice) can
outgrow a workbook cell (Excel holds 32,767 characters).  It is shortened losing the least a
report needs (`workbook.history.shortened`): first the positions and the list of dice numbers
(the event's ``dice`` keeps those), then each shot's dice (its hits stay), then the shots
themselves; damage, losses and the result always stay, and every roll remains in the dice
sheet.  Not a rule: what is kept of a battle, never how it goes.
"""

from __future__ import annotations

from typing import Any

from ...workbook.history import shortened

#: Most characters of a battle's details, with room to spare for the JSON quoting.
MAX_BATTLE_CHARS = 30_000


def _without_positions(data: dict[str, Any]) -> None:
    data.pop("dice", None)
    for r in data["rounds"]:
        r.pop("positions", None)


def _shot_dice_counted(data: dict[str, Any]) -> None:
    _without_positions(data)
    for r in data["rounds"]:
        for shot in r.get("shots", []):
            shot["dice"] = [len(shot.get("dice", []))]
            shot["dice_counted"] = True
        for cm in r.get("counter_measures", []):
            cm["dice"] = []


def _without_shots(data: dict[str, Any]) -> None:
    _without_positions(data)
    for r in data["rounds"]:
        r["shots"] = []
        r["counter_measures"] = []
        r["moves"] = []


def fit_battle_data(data: dict[str, Any]) -> dict[str, Any]:
    """Battle details small enough for one workbook cell (see the module's note)."""
    ways = (
        ("positions", _without_positions),
        ("shot dice (see the dice sheet)", _shot_dice_counted),
        ("shots (see the dice sheet)", _without_shots),
    )
    return shortened(data, ways, limit=MAX_BATTLE_CHARS)
