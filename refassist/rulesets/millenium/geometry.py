"""The strategic map: zones of five sectors on seven levels, and where a fleet may go.

The printed map is lost (fig. 1); the rules give its shape: zones, each with four outer sectors
and one inner sector where a system's planets lie, and levels that count in movement.  Our
reading, recorded in docs/rules/millenium.md:

- zones stand on a grid of columns x rows, named ``23`` (column 2, row 3, rows downwards);
- inside a zone the inner sector C touches the four outer sectors N, E, S, W, which do not touch
  each other (a step from N to E would be a diagonal, which the rules forbid);
- across zones, N touches the S sector of the zone above and E the W sector of the zone to the
  right;
- a fleet stands on one level (1-7) wherever it is; a level changed costs 2 points in place;
- a system lies in its zone's inner sector at its own level: a fleet at that sector and level
  is at the system.

Off the map (a jump scattered it, or a fleet waits to enter), a fleet stands in the imaginary
zone beyond the edge, in the sector that touches the map: ``03E4`` is outside zone ``13``,
one step from its W sector.  Zone numbers 0 and columns/rows + 1 are these outside zones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import SetupError
from ..tomlfile import read_toml

DEFAULT_MAP = Path(__file__).parent / "data" / "map.toml"

SECTORS = ("N", "E", "S", "W", "C")
OUTER = ("N", "E", "S", "W")
#: French letters a player may type: O (ouest) for W, I (intérieur) for C.
SECTOR_WORDS = {"N": "N", "E": "E", "S": "S", "W": "W", "O": "W", "C": "C", "I": "C"}
#: Zone steps of each direction (column, row): rows count downwards.
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
SYSTEM_LETTERS = tuple("ABCDEFGHILMNOPQRSTUVWXYZ")
#: Points of normal movement a turn; a sector costs 1, a level 2, a landing 2 (rule VII).
MOVE_POINTS = 5
SECTOR_COST = 1
LEVEL_COST = 2
LANDING_COST = 2
LEVELS = 7

Zone = tuple[int, int]
_POSITION = re.compile(r"^\s*(\d)(\d)\s*-?\s*([NESWOCI])\s*-?\s*(\d)\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Position:
    """Where a fleet stands: a zone, a sector of it and a level."""

    zone: Zone
    sector: str
    level: int

    def __str__(self) -> str:
        return f"{self.zone[0]}{self.zone[1]}{self.sector}{self.level}"

    def at_level(self, level: int) -> Position:
        return Position(self.zone, self.sector, level)


def zone_name(zone: Zone) -> str:
    return f"{zone[0]}{zone[1]}"


@dataclass(frozen=True)
class MapSystem:
    letter: str
    zone: Zone
    level: int
    name: str

    @property
    def position(self) -> Position:
        """The inner sector of its zone at its level: where a fleet stands to conquer it."""
        return Position(self.zone, "C", self.level)


@dataclass(frozen=True)
class Card:
    """An identification card: the system's loyalty to the Empire and its planets."""

    loyalty: int
    planets: int


@dataclass(frozen=True)
class StrategicMap:
    title: str
    columns: int
    rows: int
    systems: dict[str, MapSystem]
    cards: tuple[Card, ...]
    cards_reconstructed: bool
    source: str = ""

    # -- where things are -----------------------------------------------------------------
    def on_map(self, zone: Zone) -> bool:
        return 1 <= zone[0] <= self.columns and 1 <= zone[1] <= self.rows

    def zones(self) -> list[Zone]:
        return [(c, r) for r in range(1, self.rows + 1) for c in range(1, self.columns + 1)]

    def system_in(self, zone: Zone) -> MapSystem | None:
        for s in self.systems.values():
            if s.zone == zone:
                return s
        return None

    def system_at(self, pos: Position) -> MapSystem | None:
        """The system whose planets a fleet at ``pos`` stands at (inner sector, its level)."""
        s = self.system_in(pos.zone)
        return s if s is not None and pos.sector == "C" and pos.level == s.level else None

    def parse_position(self, text: str) -> Position | None:
        """``23N4`` (zone 23, sector N, level 4), ``23-O-4`` in French, or a system's letter
        for its inner sector at its level; None if it is neither."""
        raw = str(text).strip().upper()
        if raw in self.systems:
            return self.systems[raw].position
        m = _POSITION.match(raw)
        if not m:
            return None
        zone = (int(m.group(1)), int(m.group(2)))
        level = int(m.group(4))
        if not 1 <= level <= LEVELS:
            return None
        return Position(zone, SECTOR_WORDS[m.group(3).upper()], level)

    # -- steps ----------------------------------------------------------------------------
    def neighbours(self, pos: Position) -> list[Position]:
        """The sectors one step away on the same level (no diagonals)."""
        if pos.sector == "C":
            return [Position(pos.zone, s, pos.level) for s in OUTER]
        dc, dr = STEP[pos.sector]
        beyond = (pos.zone[0] + dc, pos.zone[1] + dr)
        return [
            Position(pos.zone, "C", pos.level),
            Position(beyond, OPPOSITE[pos.sector], pos.level),
        ]

    def entry_point(self, pos: Position) -> Position | None:
        """For a fleet waiting beyond an edge at ``pos``: the map's sector its entry steps on
        first (``03E4`` enters at ``13W4``), which its player writes first on the line; None
        for a position on the map, or one touching no sector of it."""
        if self.on_map(pos.zone):
            return None
        return next((n for n in self.neighbours(pos) if self.on_map(n.zone)), None)

    def step_cost(self, a: Position, b: Position) -> int | None:
        """Points a single step from ``a`` to ``b`` costs: 1 to an adjacent sector, 2 a level
        up or down in place; None if it is not one step."""
        if a.zone == b.zone and a.sector == b.sector and abs(a.level - b.level) == 1:
            return LEVEL_COST
        if a.level == b.level and b in self.neighbours(a):
            return SECTOR_COST
        return None

    def edge_positions(self, level: int = 4) -> list[Position]:
        """Every place beyond an edge from which a fleet enters by normal movement: the
        outside zone's sector touching the map."""
        out = []
        for c in range(1, self.columns + 1):
            out.append(Position((c, 0), "S", level))
            out.append(Position((c, self.rows + 1), "N", level))
        for r in range(1, self.rows + 1):
            out.append(Position((0, r), "E", level))
            out.append(Position((self.columns + 1, r), "W", level))
        return out

    # -- hyperspace ---------------------------------------------------------------------
    def zones_travelled(self, start: Position, zone: Zone, level: int) -> int:
        """Zones counted for a jump: zone to zone without diagonals, each level one more."""
        return (
            abs(start.zone[0] - zone[0]) + abs(start.zone[1] - zone[1]) + abs(start.level - level)
        )

    def outside_by(self, zone: Zone) -> int:
        """How many zones ``zone`` lies beyond the map (0 on it)."""
        c, r = zone
        dc = max(1 - c, c - self.columns, 0)
        dr = max(1 - r, r - self.rows, 0)
        return dc + dr

    def exit_zone(self, zone: Zone) -> tuple[Zone, str]:
        """For a zone off the map: the zone of the map a fleet left by and the direction it
        went (where it waits, just outside that zone)."""
        c = min(max(zone[0], 1), self.columns)
        r = min(max(zone[1], 1), self.rows)
        if zone[1] < 1:
            direction = "N"
        elif zone[1] > self.rows:
            direction = "S"
        elif zone[0] < 1:
            direction = "W"
        else:
            direction = "E"
        return (c, r), direction

    def waiting_place(self, zone: Zone, level: int) -> Position:
        """Where a fleet scattered to ``zone`` off the map waits: outside the zone it left by,
        in the sector facing the map (from which normal movement re-enters)."""
        inside, direction = self.exit_zone(zone)
        dc, dr = STEP[direction]
        return Position((inside[0] + dc, inside[1] + dr), OPPOSITE[direction], level)


def _zone(text: Any, columns: int, rows: int) -> Zone | None:
    raw = str(text).strip()
    if len(raw) != 2 or not raw.isdigit():
        return None
    zone = (int(raw[0]), int(raw[1]))
    return zone if 1 <= zone[0] <= columns and 1 <= zone[1] <= rows else None


def map_from_data(data: dict[str, Any], what: str = "map file") -> StrategicMap:
    """A `StrategicMap` from a parsed map file; a `SetupError` naming every problem."""
    problems: list[str] = []
    columns, rows = data.get("columns"), data.get("rows")
    if not (
        isinstance(columns, int) and isinstance(rows, int) and 2 <= columns <= 9 and 2 <= rows <= 9
    ):
        problems.append(
            "columns and rows must be whole numbers from 2 to 9 (zone names are two digits)"
        )
        columns, rows = 9, 9
    systems: dict[str, MapSystem] = {}
    used: dict[Zone, str] = {}
    entries = data.get("systems")
    if not isinstance(entries, list):
        problems.append("systems must be a list")
        entries = []
    for i, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            problems.append(f"system {i} is not a table")
            continue
        letter = str(entry.get("letter", "")).strip().upper()
        if letter not in SYSTEM_LETTERS:
            problems.append(f"system {i}: letter {letter!r} is not one of the 24 printed letters")
            continue
        if letter in systems:
            problems.append(f"system {letter} is listed twice")
        zone = _zone(entry.get("zone"), columns, rows)
        if zone is None:
            problems.append(
                f"system {letter}: zone {entry.get('zone')!r} is not on the {columns} x {rows} map"
            )
            continue
        if zone in used:
            problems.append(
                f"system {letter}: zone {zone_name(zone)} already holds system {used[zone]}"
            )
        used[zone] = letter
        level = entry.get("level")
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= LEVELS:
            problems.append(f"system {letter}: level must be 1 to {LEVELS}")
            level = 1
        name = str(entry.get("name", letter)).strip()[:30] or letter
        systems[letter] = MapSystem(letter, zone, level, name)
    missing = [x for x in SYSTEM_LETTERS if x not in systems]
    if missing:
        problems.append(f"the map needs all 24 systems; missing {' '.join(missing)}")
    cards: list[Card] = []
    for i, c in enumerate(data.get("cards", []) if isinstance(data.get("cards"), list) else [], 1):
        loyalty = c.get("loyalty") if isinstance(c, dict) else None
        planets = c.get("planets") if isinstance(c, dict) else None
        if not isinstance(loyalty, int) or not 0 <= loyalty <= 6:
            problems.append(f"card {i}: loyalty must be 0 to 6")
            continue
        if not isinstance(planets, int) or not 1 <= planets <= 2:
            problems.append(f"card {i}: planets must be 1 or 2 (the battle map has two pieces)")
            continue
        cards.append(Card(loyalty, planets))
    if len(cards) != len(SYSTEM_LETTERS):
        problems.append(f"the map needs 24 identification cards, not {len(cards)}")
    elif sum(1 for c in cards if c.loyalty == 6) != 3:
        problems.append(
            "exactly three cards are of loyalty 6 (the imperial planet is in one of them)"
        )
    if problems:
        raise SetupError(f"{what}: " + "; ".join(problems))
    return StrategicMap(
        title=str(data.get("title", "Millenium"))[:60],
        columns=columns,
        rows=rows,
        systems=dict(sorted(systems.items())),
        cards=tuple(cards),
        cards_reconstructed=bool(data.get("reconstructed_cards", False)),
    )


def load_map(path: Path | None = None) -> StrategicMap:
    """The map in ``path`` (the shipped one by default)."""
    target = path or DEFAULT_MAP
    loaded = map_from_data(read_toml(target, "map file"), f"map file {target.name}")
    return StrategicMap(**{**loaded.__dict__, "source": str(target.name)})
