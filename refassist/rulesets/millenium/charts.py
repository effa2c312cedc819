"""Millenium's tables (TAB 1, TAB 2, TAB 3) read from a data file, and the lookups on them.

The seed kept the fleet table and a few fragments; everything else is our reconstruction,
shipped in ``data/tables.toml`` and marked there table by table.  A referee with the printed
game writes the printed values into a copy and names it in ``game.toml`` (house rule
``tables``); `load_tables` checks such a file whole and names every problem, since a table
that silently reads wrong would spoil every battle after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ...errors import SetupError
from ..tomlfile import read_toml

DEFAULT_TABLES = Path(__file__).parent / "data" / "tables.toml"

#: Ship types in TAB 1's order, by the key the data file and the sheets use.
SHIP_TYPES = ("corvette", "fregate", "vaisseau", "porte_intercepteur", "colonisation")
#: Pieces of the tactical map that are not built with points.
OTHER_PIECES = ("intercepteur", "base")
COMBAT_RESULTS = ("R", "RT", "D", "X")
DIRECTIONS = ("N", "E", "S", "W")
FREE = "LB"
#: Interceptors aboard each porte-intercepteur (rule VIII C).
INTERCEPTORS_PER_CARRIER = 6


@dataclass(frozen=True)
class ShipClass:
    """TAB 1's legend row and TAB 2's characteristics of one type."""

    key: str
    starting: int
    per_fleet: int
    in_play: int
    cost: int
    value: int
    lasers: int
    missiles: int
    laser_protection: int
    missile_protection: int
    counter: str
    move: int

    def counter_measure(self, damaged: bool) -> str:
        """``X``, ``Y`` or ``""``: the first letter intact, the second damaged (one letter
        serves both; ``-`` is none)."""
        code = self.counter
        letter = code[1] if damaged and len(code) > 1 else code[0]
        return "" if letter == "-" else letter


@dataclass(frozen=True)
class Tables:
    """Every table of the game, and which of them are reconstructions."""

    title: str
    ships: dict[str, ShipClass]
    fleets: dict[str, int]
    laser: tuple[int, ...]
    missile: tuple[int, ...]
    combat_columns: tuple[Fraction, ...]
    combat_labels: tuple[str, ...]
    combat_rows: tuple[tuple[str, ...], ...]
    surrender_columns: tuple[Fraction, ...]
    surrender_labels: tuple[str, ...]
    surrenders_up_to: tuple[int, ...]
    level_colours: tuple[str, ...]
    level_english: tuple[str, ...]
    level_rgb: tuple[str, ...]
    deviation: tuple[tuple[int, tuple[int, ...]], ...]
    deviation_maximum: tuple[int, ...]
    direction_rose: tuple[str, ...]
    arrival_rose: tuple[str, ...]
    reconstructed: frozenset[str]

    @property
    def levels(self) -> int:
        return len(self.level_colours)

    def attack_points(self, weapon: str, distance: int) -> int:
        """A weapon's attack factor at ``distance`` hexes (0 beyond its last range)."""
        row = self.laser if weapon == "laser" else self.missile
        return row[distance - 1] if 1 <= distance <= len(row) else 0

    def combat_column(self, attack: int, defence: int) -> int | None:
        """The combat table's column for attack against defence, the ratio rounded in the
        defender's favour (down to the nearest printed column); None below the first."""
        if attack <= 0:
            return None
        return _column(Fraction(attack, max(defence, 1)), self.combat_columns)

    def combat_result(self, column: int | None, die: int) -> str:
        """R, RT, D or X for a column and a modified die (0 or less reads the first row)."""
        if column is None:
            return "R"
        return self.combat_rows[max(0, min(die, 6))][column]

    def surrender_column(self, points: int, loyalty: int) -> int | None:
        return _column(Fraction(points, max(loyalty, 1)), self.surrender_columns)

    def surrenders(self, column: int | None, die: int) -> bool:
        return column is not None and die <= self.surrenders_up_to[column]

    def deviation_row(self, zones: int, maximum: bool) -> tuple[int, ...]:
        """TAB 3's row for a jump of ``zones`` (or from the maximum distance)."""
        if maximum:
            return self.deviation_maximum
        row = self.deviation[0][1]
        for start, values in self.deviation:
            if zones >= start:
                row = values
        return row

    @property
    def minimum_jump(self) -> int:
        return self.deviation[0][0]


def _column(ratio: Fraction, columns: tuple[Fraction, ...]) -> int | None:
    found = None
    for i, at in enumerate(columns):
        if ratio >= at:
            found = i
    return found


def _ratio(label: Any, where: str, problems: list[str]) -> Fraction:
    try:
        a, b = str(label).split("/")
        return Fraction(Fraction(a.strip()), Fraction(b.strip()))
    except (ValueError, ZeroDivisionError):
        problems.append(f"{where}: {label!r} is not a ratio such as 2/1")
        return Fraction(0)


def _ints(
    value: Any, where: str, problems: list[str], length: int | None = None
) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        problems.append(f"{where} must be a list of whole numbers")
        return tuple([0] * (length or 0))
    if length is not None and len(value) != length:
        problems.append(f"{where} must have {length} numbers, not {len(value)}")
        return tuple((list(value) + [0] * length)[:length])
    return tuple(value)


def _words(
    value: Any, where: str, allowed: tuple[str, ...], length: int, problems: list[str]
) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != length:
        problems.append(f"{where} must be a list of {length} entries")
        return tuple([allowed[0]] * length)
    words = tuple(str(v).strip().upper() for v in value)
    for w in words:
        if w not in allowed:
            problems.append(f"{where}: {w!r} is not one of {', '.join(allowed)}")
    return words


def tables_from_data(data: dict[str, Any], what: str = "tables file") -> Tables:
    """`Tables` from the parsed data file; a `SetupError` listing every problem."""
    problems: list[str] = []

    def section(name: str) -> dict[str, Any]:
        value = data.get(name)
        if not isinstance(value, dict):
            problems.append(f"[{name}] is missing")
            return {}
        return value

    reconstructed = frozenset(
        name
        for name, value in data.items()
        if isinstance(value, dict) and value.get("reconstructed")
    )
    legend, specs = section("ships"), section("characteristics")
    ships: dict[str, ShipClass] = {}
    for key in (*SHIP_TYPES, *OTHER_PIECES):
        row = _ints(legend.get(key, [0, 0, 0, 0]), f"[ships] {key}", problems, 4)
        spec = specs.get(key)
        if not isinstance(spec, dict):
            problems.append(f"[characteristics] has no {key}")
            spec = {}
        numbers = {}
        for field in (
            "value",
            "lasers",
            "missiles",
            "laser_protection",
            "missile_protection",
            "move",
        ):
            v = spec.get(field, 0)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                problems.append(f"[characteristics] {key}.{field} must be a whole number >= 0")
                v = 0
            numbers[field] = v
        counter = str(spec.get("counter", "-")).strip().upper() or "-"
        if not (1 <= len(counter) <= 2 and set(counter) <= {"X", "Y", "-"}):
            problems.append(f"[characteristics] {key}.counter must be X, Y, - or two of them")
            counter = "-"
        starting, per_fleet, in_play, cost = row
        ships[key] = ShipClass(
            key,
            starting,
            per_fleet,
            in_play,
            cost,
            counter=counter,
            value=numbers["value"],
            lasers=numbers["lasers"],
            missiles=numbers["missiles"],
            laser_protection=numbers["laser_protection"],
            missile_protection=numbers["missile_protection"],
            move=numbers["move"],
        )
    fleets_data = section("fleets")
    fleets = {
        str(k): v
        for k, v in fleets_data.items()
        if k not in ("reconstructed", "source") and isinstance(v, int) and v > 0
    }
    if len(fleets) != len([k for k in fleets_data if k not in ("reconstructed", "source")]):
        problems.append("[fleets] capacities must be whole numbers above 0")
    attack = section("attack")
    combat = section("combat")
    labels = tuple(str(c) for c in combat.get("columns", []))
    columns = tuple(_ratio(c, "[combat] columns", problems) for c in labels)
    rows_data = combat.get("rows", [])
    if not isinstance(rows_data, list) or len(rows_data) != 7:
        problems.append("[combat] rows must be 7 rows: die 0 or less, then 1 to 6")
        rows_data = [["R"] * len(labels)] * 7
    rows = tuple(
        _words(r, f"[combat] row {i}", COMBAT_RESULTS, len(labels), problems)
        for i, r in enumerate(rows_data)
    )
    surrender = section("surrender")
    s_labels = tuple(str(c) for c in surrender.get("columns", []))
    levels = section("levels")
    colours = tuple(str(c) for c in levels.get("colours", []))
    if not 2 <= len(colours) <= 12:
        problems.append("[levels] colours must name 2 to 12 levels")
    deviation = section("deviation")
    dev_rows = []
    for i, r in enumerate(deviation.get("rows", [])):
        start = r.get("from") if isinstance(r, dict) else None
        if not isinstance(start, int) or start < 1:
            problems.append(f"[deviation] row {i + 1} needs from = a number of zones")
            continue
        dev_rows.append((start, _ints(r.get("values"), f"[deviation] row {i + 1}", problems, 6)))
    if not dev_rows:
        problems.append("[deviation] needs at least one row")
        dev_rows = [(6, (0,) * 6)]
    roses = section("roses")
    tables = Tables(
        title=str(data.get("title", "")),
        ships=ships,
        fleets=fleets,
        laser=_ints(attack.get("laser"), "[attack] laser", problems),
        missile=_ints(attack.get("missile"), "[attack] missile", problems),
        combat_columns=columns,
        combat_labels=labels,
        combat_rows=rows,
        surrender_columns=tuple(_ratio(c, "[surrender] columns", problems) for c in s_labels),
        surrender_labels=s_labels,
        surrenders_up_to=_ints(
            surrender.get("surrenders_up_to"),
            "[surrender] surrenders_up_to",
            problems,
            len(s_labels),
        ),
        level_colours=colours,
        level_english=tuple(str(c) for c in levels.get("english", colours)),
        level_rgb=tuple(str(c) for c in levels.get("rgb", ["#888888"] * len(colours))),
        deviation=tuple(sorted(dev_rows)),
        deviation_maximum=_ints(deviation.get("maximum"), "[deviation] maximum", problems, 6),
        direction_rose=_words(
            roses.get("direction"), "[roses] direction", (*DIRECTIONS, FREE), 6, problems
        ),
        arrival_rose=_words(
            roses.get("arrival"), "[roses] arrival", (*DIRECTIONS, FREE), 6, problems
        ),
        reconstructed=reconstructed,
    )
    if len(tables.level_english) != len(colours) or len(tables.level_rgb) != len(colours):
        problems.append("[levels] english and rgb must name as many levels as colours")
    if list(columns) != sorted(columns) or list(tables.surrender_columns) != sorted(
        tables.surrender_columns
    ):
        problems.append("table columns must run from the lowest ratio to the highest")
    if problems:
        raise SetupError(f"{what}: " + "; ".join(problems))
    return tables


_LOADED: dict[Path, Tables] = {}


def load_tables(path: Path | None = None) -> Tables:
    """The tables in ``path`` (the shipped ones by default), read once per process."""
    target = (path or DEFAULT_TABLES).resolve()
    if target not in _LOADED:
        _LOADED[target] = tables_from_data(
            read_toml(target, "tables file"), f"tables file {target.name}"
        )
    return _LOADED[target]


def tables_for(rules: Mapping[str, Any]) -> Tables:
    """The tables a game plays with: the referee's file (house rule ``tables``, a path absolute
    or relative to the folder refassist runs from) or the shipped ones."""
    path = str(rules.get("tables") or "")
    return load_tables(Path(path) if path else None)
