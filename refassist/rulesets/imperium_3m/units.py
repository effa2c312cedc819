"""The unit list of Imperium 3rd Millennium: each side's counters and their factors.

The seed prints the list as pairs of lines (Terran first, Imperial indented below); here each
side has its own table, so a rule asks ``unit_type(side, code)`` and never has to know which
line of the pair applies.  Missing entries ("No Equivalent") are simply absent from a side's
table, which is how the checker refuses an Imperial TB or a Terran B1.

Troop counters (RT, JT) have a strength at full and reduced strength and a counter mix;
`TROOP_COUNTERS` lists each side's counters in the order they are numbered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .rules import complete

TERRAN = "Terran"
IMPERIAL = "Imperial"
SIDES = (TERRAN, IMPERIAL)

#: Unit kinds.  ``capital`` and ``light`` are warships; ``aux`` are non-warships (AR, AT, TR);
#: ``monitor`` never leaves its system; ``fighter``, ``pd``, ``troop`` and ``outpost`` are
#: carried by ships or stand on planets.
KINDS = ("capital", "light", "aux", "monitor", "fighter", "pd", "troop", "outpost")
SHIP_KINDS = ("capital", "light", "aux", "monitor")
GROUND_KINDS = ("fighter", "pd", "troop", "outpost")


@dataclass(frozen=True)
class UnitType:
    """One line of the unit list.

    ``beam``/``torpedo`` are fire factors, ``defence`` the hits that damage, ``cm`` the
    counter-measure dice, ``fighters`` how many fighters it carries (CV, and the Terran BB's F1),
    ``maintenance`` its maintenance number (also the resources a turn to maintain it),
    ``counters`` how many the side owns at most, ``cost``/``build`` resources and turns.
    """

    code: str
    side: str
    kind: str
    name: str
    beam: int = 0
    torpedo: int = 0
    defence: int = 1
    cm: int = 0
    fighters: int = 0
    maintenance: int = 0
    counters: int = 0
    cost: int = 0
    build: int = 1

    @property
    def is_ship(self) -> bool:
        return self.kind in SHIP_KINDS

    @property
    def is_warship(self) -> bool:
        return self.kind in ("capital", "light", "monitor")


NAMES = {
    "BB": "Dreadnought",
    "B": "Battleship",
    "B1": "Battleship",
    "B2": "Old Battleship",
    "CV": "Carrier",
    "CA": "Heavy Cruiser",
    "CS": "Strike Cruiser",
    "CR": "Cruiser",
    "CL": "Light Cruiser",
    "DD": "Destroyer",
    "TB": "Torpedo Boat",
    "SC": "Scout Ship",
    "AR": "Repair Ship",
    "AT": "Attack Transport",
    "TR": "Transport",
    "M": "Monitor",
    "F": "Fighters",
    "PD": "Planetary Defence",
    "RT": "Regular Troops",
    "JT": "Jump Troops",
    "OP": "Outpost",
}

KIND_OF = {
    "BB": "capital",
    "B": "capital",
    "B1": "capital",
    "B2": "capital",
    "CV": "capital",
    "CA": "capital",
    "CS": "capital",
    "CR": "capital",
    "CL": "light",
    "DD": "light",
    "TB": "light",
    "SC": "light",
    "AR": "aux",
    "AT": "aux",
    "TR": "aux",
    "M": "monitor",
    "F": "fighter",
    "PD": "pd",
    "RT": "troop",
    "JT": "troop",
    "OP": "outpost",
}

# code: beam, torpedo, defence, cm, fighters, maintenance, counters, cost, build
_TERRAN = {
    "BB": (9, 8, 3, 4, 1, 4, 5, 24, 3),
    "B": (8, 7, 3, 3, 0, 5, 6, 20, 3),
    "CV": (0, 2, 2, 3, 3, 3, 4, 10, 2),
    "CA": (5, 5, 2, 3, 0, 3, 4, 15, 2),
    "CS": (2, 6, 2, 3, 0, 3, 5, 13, 2),
    "CL": (4, 2, 1, 3, 0, 3, 6, 8, 1),
    "DD": (2, 1, 1, 2, 0, 2, 12, 5, 1),
    "TB": (0, 5, 1, 1, 0, 2, 10, 6, 1),
    "SC": (1, 0, 1, 1, 0, 1, 9, 2, 1),
    "AR": (0, 1, 1, 1, 0, 2, 1, 6, 2),
    "AT": (0, 2, 2, 2, 0, 2, 4, 6, 2),
    "TR": (0, 0, 1, 0, 0, 1, 8, 2, 1),
    "M": (6, 4, 3, 4, 0, 3, 5, 8, 1),
    "F": (0, 2, 1, 2, 0, 2, 21, 2, 1),
    "PD": (3, 0, 2, 0, 0, 1, 8, 10, 1),
    "RT": (0, 0, 0, 0, 0, 1, 8, 2, 1),
    "JT": (0, 0, 0, 0, 0, 1, 5, 4, 1),
    "OP": (0, 0, 0, 0, 0, 0, 99, 4, 1),
}
# The Imperial BB prints no M; `imperial_bb_maintenance` (house rule, default 4) fills it in.
_IMPERIAL = {
    "BB": (7, 9, 3, 4, 0, 4, 4, 23, 3),
    "B2": (5, 8, 3, 3, 0, 5, 4, 19, 3),
    "B1": (4, 7, 2, 2, 0, 5, 3, 16, 3),
    "CV": (0, 2, 2, 3, 2, 3, 4, 10, 2),
    "CA": (5, 6, 2, 3, 0, 4, 5, 15, 2),
    "CS": (2, 6, 2, 3, 0, 3, 5, 13, 2),
    "CR": (4, 5, 2, 2, 0, 3, 5, 13, 2),
    "CL": (2, 3, 1, 2, 0, 2, 7, 8, 1),
    "DD": (1, 2, 1, 2, 0, 2, 13, 5, 1),
    "SC": (1, 0, 1, 1, 0, 1, 10, 2, 1),
    "AR": (0, 1, 1, 0, 0, 2, 1, 6, 2),
    "AT": (0, 2, 2, 2, 0, 2, 5, 6, 2),
    "TR": (0, 0, 1, 0, 0, 1, 8, 2, 1),
    "M": (4, 6, 3, 4, 0, 3, 5, 8, 1),
    "F": (0, 2, 1, 2, 0, 2, 21, 2, 1),
    "PD": (3, 0, 2, 0, 0, 1, 8, 10, 1),
    "RT": (0, 0, 0, 0, 0, 1, 8, 2, 1),
    "JT": (0, 0, 0, 0, 0, 1, 5, 4, 1),
    "OP": (0, 0, 0, 0, 0, 0, 99, 4, 1),
}

#: Troop counters per side and code: (full strength, reduced strength) for each counter, in
#: counter order (``RT1`` is the first).  From the seed's mix, e.g. ``6-2 x1; 5-2 x2``.
TROOP_COUNTERS: dict[str, dict[str, tuple[tuple[int, int], ...]]] = {
    TERRAN: {
        "RT": ((6, 2),) + ((5, 2),) * 2 + ((4, 2),) * 2 + ((3, 2),) * 2 + ((2, 2),),
        "JT": ((6, 2),) + ((5, 2),) * 2 + ((4, 2),) * 2,
    },
    IMPERIAL: {
        "RT": ((6, 2),) + ((5, 2),) * 3 + ((4, 2),) * 3 + ((3, 2),),
        "JT": ((6, 2),) + ((5, 2),) * 2 + ((4, 2),) * 2,
    },
}

#: Ships the Imperial side may build only with permission from an Appeal.
IMPERIAL_RESTRICTED = ("CR", "CA", "B1", "B2", "BB")


def _table(side: str, rows: dict[str, tuple[int, ...]]) -> dict[str, UnitType]:
    table = {}
    for code, (b, t, d, cm, f, m, n, c, bt) in rows.items():
        table[code] = UnitType(code, side, KIND_OF[code], NAMES[code], b, t, d, cm, f, m, n, c, bt)
    return table


UNIT_TABLES: dict[str, dict[str, UnitType]] = {
    TERRAN: _table(TERRAN, _TERRAN),
    IMPERIAL: _table(IMPERIAL, _IMPERIAL),
}


def unit_type(side: str, code: str, imperial_bb_maintenance: int = 4) -> UnitType:
    """The line of ``side``'s unit list for ``code`` (KeyError when the side has none)."""
    found = UNIT_TABLES[side][code]
    if side == IMPERIAL and code == "BB" and found.maintenance != imperial_bb_maintenance:
        from dataclasses import replace

        return replace(found, maintenance=imperial_bb_maintenance)
    return found


def counters_available(side: str, code: str) -> int:
    """How many counters of ``code`` the side owns (troops: the size of the counter mix)."""
    if code in ("RT", "JT"):
        return len(TROOP_COUNTERS[side][code])
    return UNIT_TABLES[side][code].counters


#: Movement points a ship has each action segment, by kind (damaged ships one less; monitors
#: never move).  The rules, the checker and the computer players all read this one table.
MOVEMENT_POINTS = {"light": 5, "capital": 4, "aux": 3}


def fleet_speed(ships: Iterable[tuple[str, bool]]) -> int:
    """Movement points of a fleet from its ships' kinds and damage: its slowest ship's (light
    5, capital 4, non-warships 3, damaged ships one less); 0 when it holds a monitor or no
    ship at all, since neither can move.  The rules, the checker and the computer players
    all ask this."""
    points: list[int] = []
    for kind, damaged in ships:
        if kind not in MOVEMENT_POINTS:
            return 0
        points.append(MOVEMENT_POINTS[kind] - (1 if damaged else 0))
    return min(points, default=0)


def cargo_room(code: str, rules: Mapping[str, Any]) -> int:
    """Troops, PD and outposts one ship of ``code`` carries: a transport (TR) or attack
    transport (AT) by the house rules ``tr_capacity``/``at_capacity``, any other ship none."""
    if code == "TR":
        return int(complete(rules)["tr_capacity"])
    if code == "AT":
        return int(complete(rules)["at_capacity"])
    return 0


def other_side(side: str) -> str:
    return IMPERIAL if side == TERRAN else TERRAN
