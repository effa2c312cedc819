"""The scenario file: the map, both orders of battle and everything the seed leaves to its lost
"Mission Book" (format in docs/rules/millennium-wars.md).

A referee writes it by hand, so it is hostile input: every problem is collected with the line
it is on (``scenario.toml line 41 (units 3, hex): 1309 is off the 12 x 8 map``) and reported
together as one `SetupError`, so the file is fixed in one pass.  Without a file the game is
played on the shipped training scenario, ``data/training.toml``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

from ...errors import SetupError
from ...geometry.hexmap import HexGrid, hex_id, parse_hex
from ..tomlfile import TomlLines, read_toml
from .crt import ASSAULT, CRT
from .terrain import TERRAIN, Terrain, with_overrides
from .units import SIZES, UNIT_TYPES, Unit

#: One letter a hex on the map's terrain grid.
TERRAIN_LETTERS = {
    ".": "plain",
    "d": "desert",
    "r": "rough",
    "m": "mountain",
    "f": "forest",
    "s": "swamp",
    "g": "glacier",
    "l": "lake",
    "~": "sea",
}
PLACE_KINDS = ("city", "town", "facility")
MAX_SIDE = 60  # hex ids have two digits a coordinate; a scenario map is far smaller
MAX_UNITS = 400
MAX_TURNS = 60
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 '\-]{0,23}$")
UNIT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9\-/]{0,11}$")


@dataclass
class Side:
    name: str
    letter: str  # its home country's letter on the countries grid
    nato: bool = False
    c4i: int = 0
    air_defence: int = 0
    political_points: int = 0  # political points each game turn
    #: The hexes its units trace supply to (ours: the seed prints supply shifts and no rule);
    #: none listed: every hex of its home country.
    supply: list[str] = field(default_factory=list)


@dataclass
class Place:
    hex: str
    name: str
    kind: str  # city, town, facility


@dataclass
class Reinforcement:
    turn: int
    unit: Unit


@dataclass
class SpecialEvent:
    number: int  # 1-3, rolled on the Random Events Table
    text: str
    political_index: int = 0  # shift toward the first player (negative: the second)


@dataclass
class Scenario:
    """Everything a game of Millennium Wars starts from."""

    title: str
    turns: int
    first: str  # the First Player's side
    political_index: int
    sides: list[Side]
    columns: int
    rows: int
    terrain: dict[str, str]  # hex -> terrain name
    countries: dict[str, str]  # hex -> side name ("" none)
    rivers: set[tuple[str, str]]
    borders: set[tuple[str, str]]
    locs: list[list[str]]
    places: dict[str, Place]
    units: list[Unit]
    reinforcements: list[Reinforcement] = field(default_factory=list)
    events: dict[int, SpecialEvent] = field(default_factory=dict)
    objectives: dict[str, int] = field(default_factory=dict)  # hex -> victory points
    air_modifier: int = 0
    iw_attacks: int = 1
    terrain_table: dict[str, Terrain] = field(default_factory=lambda: dict(TERRAIN))
    assault: CRT = ASSAULT
    source: str = ""
    #: The file's text, kept whole on the master workbook's Scenario sheet.
    text: str = ""

    @property
    def grid(self) -> HexGrid:
        return HexGrid(self.columns, self.rows)

    def side(self, name: str) -> Side:
        return next(s for s in self.sides if s.name == name)


def default_scenario_text() -> str:
    return resources.files(__package__).joinpath("data/training.toml").read_text("utf-8")


def load_scenario(path: Path | None = None) -> Scenario:
    """The scenario in ``path``, or the shipped training scenario."""
    if path is None:
        text = default_scenario_text()
        found = parse_scenario(tomllib.loads(text), text, "training scenario")
        found.source = "training.toml"
        return found
    path = Path(path)
    data = read_toml(path, "scenario file")
    found = parse_scenario(data, path.read_text(encoding="utf-8"), path.name)
    found.source = path.name  # only the name: a state must not depend on the referee's folders
    return found


class _Problems:
    """Problems of a scenario, each with its line."""

    def __init__(self, text: str, name: str) -> None:
        self.where = TomlLines(text)
        self.name = name
        self.items: list[tuple[int, str]] = []

    def add(self, path: tuple[object, ...], message: str, line: int = 0) -> None:
        at = line or self.where.line(*path)
        label = " ".join(str(p + 1) if isinstance(p, int) else str(p) for p in path)
        self.items.append((at, f"line {at} ({label}): {message}" if at else f"{label}: {message}"))

    def raise_if_any(self) -> None:
        if self.items:
            lines = "\n  ".join(text for _, text in sorted(self.items, key=lambda i: i[0]))
            raise SetupError(f"{self.name} has {len(self.items)} problem(s):\n  {lines}")


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def parse_scenario(data: dict[str, Any], text: str, name: str) -> Scenario:
    """Check and read a scenario document (``text`` is its source, for line numbers)."""
    bad = _Problems(text, name)
    head = data.get("scenario", {})
    if not isinstance(head, dict):
        raise SetupError(f"{name}: [scenario] must be a table")

    def get(
        table: dict[str, Any],
        path: tuple[object, ...],
        key: str,
        check: Callable[[Any], bool],
        what: str,
        default: Any = None,
    ) -> Any:
        value = table.get(key, default)
        if value is None or not check(value):
            bad.add((*path, key), f"{key} must be {what}")
            return default
        return value

    title = get(
        head,
        ("scenario",),
        "title",
        lambda v: isinstance(v, str) and 0 < len(v) <= 80,
        "a title of at most 80 characters",
        "",
    )
    turns = get(
        head,
        ("scenario",),
        "turns",
        lambda v: _whole(v, 1, MAX_TURNS),
        f"a number of game turns, 1-{MAX_TURNS}",
        1,
    )
    index = get(
        head,
        ("scenario",),
        "political_index",
        lambda v: _whole(v, 0, 100),
        "the starting Political Index, 0-100",
        50,
    )
    air = get(
        head,
        ("scenario",),
        "air_modifier",
        lambda v: _whole(v, -6, 6),
        "a whole number from -6 to 6",
        0,
    )
    iw = get(
        head,
        ("scenario",),
        "iw_attacks",
        lambda v: _whole(v, 0, 10),
        "the information warfare attacks a player turn, 0-10",
        1,
    )

    sides = _sides(data, bad, get)
    names = [s.name for s in sides]
    first = head.get("first", "")
    if first not in names:
        bad.add(("scenario", "first"), f"first must name a side ({' or '.join(names)})")

    grid_data = data.get("map", {})
    if not isinstance(grid_data, dict):
        raise SetupError(f"{name}: [map] must be a table")
    columns = get(
        grid_data,
        ("map",),
        "columns",
        lambda v: _whole(v, 2, MAX_SIDE),
        f"the map's width in hexes, 2-{MAX_SIDE}",
        2,
    )
    rows = get(
        grid_data,
        ("map",),
        "rows",
        lambda v: _whole(v, 2, MAX_SIDE),
        f"the map's height in hexes, 2-{MAX_SIDE}",
        2,
    )
    grid = HexGrid(columns, rows)
    terrain = _grid_text(grid_data, "terrain", columns, rows, bad, TERRAIN_LETTERS)
    letters = {s.letter: s.name for s in sides}
    countries = _grid_text(grid_data, "countries", columns, rows, bad, {".": "", **letters})

    def hexside(path: tuple[object, ...], value: Any) -> tuple[str, str] | None:
        parts = str(value).split("/") if isinstance(value, str) else []
        try:
            a, b = (parse_hex(p) for p in parts) if len(parts) == 2 else ("", "")
            return grid.hexside(a, b)
        except ValueError:
            bad.add(path, f"{value!r} is not a hexside: write two adjacent hexes, 0503/0504")
            return None

    rivers = {
        side
        for i, v in enumerate(_list(grid_data, "rivers", bad))
        if (side := hexside(("map", "rivers"), v)) is not None
    }
    borders = {
        grid.hexside(a, b)
        for a in grid.hexes()
        for b in grid.neighbours(a)
        if countries.get(a, "") != countries.get(b, "")
    }

    def on_map(path: tuple[object, ...], value: Any) -> str:
        try:
            found = parse_hex(value)
        except ValueError:
            bad.add(path, f"{value!r} is not a hex (write XXYY, e.g. 0503)")
            return ""
        if not grid.contains(found):
            bad.add(path, f"{found} is off the {columns} x {rows} map")
            return ""
        return found

    locs: list[list[str]] = []
    for i, path_ in enumerate(_list(grid_data, "locs", bad)):
        if not isinstance(path_, list) or len(path_) < 2:
            bad.add(("map", "locs"), f"line of communication {i + 1} must list 2 hexes or more")
            continue
        hexes = [on_map(("map", "locs"), h) for h in path_]
        if all(hexes):
            for a, b in pairwise(hexes):
                if b not in grid.neighbours(a):
                    bad.add(
                        ("map", "locs"),
                        f"line of communication {i + 1}: {a} and {b} are not adjacent",
                    )
            locs.append(hexes)

    places: dict[str, Place] = {}
    for i, entry in enumerate(_tables(grid_data, "places", bad, ("map", "places"))):
        path: tuple[object, ...] = ("map", "places", i)
        where = on_map((*path, "hex"), entry.get("hex"))
        place_name = entry.get("name", "")
        kind = entry.get("kind", "")
        if not isinstance(place_name, str) or not NAME.match(place_name):
            bad.add((*path, "name"), "a place's name is 1-24 letters, digits, spaces or dashes")
        if kind not in PLACE_KINDS:
            bad.add((*path, "kind"), f"kind must be one of {', '.join(PLACE_KINDS)}")
        if where and where in places:
            bad.add((*path, "hex"), f"{where} already holds {places[where].name}")
        elif where and terrain.get(where) == "sea":
            bad.add((*path, "hex"), f"{where} is sea")
        elif where:
            places[where] = Place(where, str(place_name), str(kind))

    for i, side in enumerate(sides):
        side.supply = [h for v in side.supply if (h := on_map(("sides", i, "supply"), v))]

    overrides = grid_data.get("terrain_table", {})
    table = dict(TERRAIN)
    if not isinstance(overrides, dict):
        bad.add(("map", "terrain_table"), "terrain_table must be a table of terrains")
    else:
        try:
            table = with_overrides(overrides)
        except ValueError as exc:
            bad.add(("map", "terrain_table"), str(exc))

    units = [
        u
        for i, entry in enumerate(_tables(data, "units", bad, ("units",)))
        if (u := _unit(entry, ("units", i), bad, names, sides, on_map, terrain, table)) is not None
    ]
    if len(units) > MAX_UNITS:
        bad.add(("units",), f"{len(units)} units; a scenario has at most {MAX_UNITS}")
    seen: set[str] = set()
    for i, u in enumerate(units):
        if u.id in seen:
            bad.add(("units", i, "id"), f"two units are called {u.id}")
        seen.add(u.id)
    reinforcements = []
    for i, entry in enumerate(_tables(data, "reinforcements", bad, ("reinforcements",))):
        path = ("reinforcements", i)
        turn: Any = entry.get("turn")
        if not _whole(turn, 1, turns):
            bad.add((*path, "turn"), f"turn must be a game turn of the scenario, 1-{turns}")
            continue
        unit = _unit(entry, path, bad, names, sides, on_map, terrain, table)
        if unit is not None:
            if unit.id in seen:
                bad.add((*path, "id"), f"two units are called {unit.id}")
            seen.add(unit.id)
            reinforcements.append(Reinforcement(int(turn), unit))

    events: dict[int, SpecialEvent] = {}
    for i, entry in enumerate(_tables(data, "events", bad, ("events",))):
        path = ("events", i)
        number: Any = entry.get("number")
        words = entry.get("text", "")
        shift = entry.get("political_index", 0)
        if not _whole(number, 1, 3) or number in events:
            bad.add((*path, "number"), "number must be 1, 2 or 3, each once")
            continue
        if not isinstance(words, str) or not 0 < len(words) <= 500:
            bad.add((*path, "text"), "text must say what happens, at most 500 characters")
            continue
        if not _whole(shift, -100, 100):
            bad.add((*path, "political_index"), "political_index must be -100 to 100")
            continue
        events[int(number)] = SpecialEvent(int(number), words, int(shift))

    objectives: dict[str, int] = {}
    victory = data.get("victory", {})
    wanted = victory.get("objectives", {}) if isinstance(victory, dict) else None
    if not isinstance(wanted, dict):
        bad.add(("victory",), "[victory] objectives must be a table of hex = points")
    else:
        for key, points in wanted.items():
            where = on_map(("victory", "objectives"), key)
            if where and not _whole(points, 1, 100):
                bad.add(("victory", "objectives"), f"{key}: points must be 1-100")
            elif where:
                objectives[where] = points

    assault = ASSAULT
    replaced = data.get("assault_crt", {})
    if isinstance(replaced, dict) and replaced:
        try:
            rows_ = {int(k): v for k, v in replaced.items()}
            if not all(isinstance(v, list) for v in rows_.values()):
                raise ValueError("each row is a list of 10 results")
            assault = ASSAULT.with_rows(rows_)
        except ValueError as exc:
            bad.add(("assault_crt",), f"the Assault CRT's rows: {exc}")
    elif replaced:
        bad.add(("assault_crt",), "[assault_crt] must be a table of rows")

    bad.raise_if_any()
    return Scenario(
        title=title,
        turns=turns,
        first=first,
        political_index=index,
        sides=sides,
        columns=columns,
        rows=rows,
        terrain=terrain,
        countries=countries,
        rivers=rivers,
        borders=borders,
        locs=locs,
        places=places,
        units=units,
        reinforcements=reinforcements,
        events=events,
        objectives=objectives,
        air_modifier=air,
        iw_attacks=iw,
        terrain_table=table,
        assault=assault,
        text=text,
    )


def _list(table: dict[str, Any], key: str, bad: _Problems) -> list[Any]:
    value = table.get(key, [])
    if not isinstance(value, list):
        bad.add(("map", key), f"{key} must be a list")
        return []
    return value


def _tables(
    data: dict[str, Any], key: str, bad: _Problems, path: tuple[object, ...]
) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        bad.add(path, f"{key} must be written as [[{'.'.join(map(str, path))}]] blocks")
        return []
    return value


def _sides(data: dict[str, Any], bad: _Problems, get: Any) -> list[Side]:
    sides = []
    for i, entry in enumerate(_tables(data, "sides", bad, ("sides",))):
        path = ("sides", i)
        name = entry.get("name", "")
        letter = entry.get("country", "")
        if not isinstance(name, str) or not NAME.match(name):
            bad.add((*path, "name"), "a side's name is 1-24 letters, digits, spaces or dashes")
            continue
        if not (isinstance(letter, str) and len(letter) == 1 and letter.isalpha()):
            bad.add(
                (*path, "country"),
                "country must be the one letter of its home country on the countries map",
            )
            continue
        nato = entry.get("nato", False)
        if not isinstance(nato, bool):
            bad.add((*path, "nato"), "nato must be true or false")
        c4i = get(entry, path, "c4i", lambda v: _whole(v, 0, 3), "a C4I level, 0-3", 0)
        defence = get(
            entry, path, "air_defence", lambda v: _whole(v, 0, 5), "an Air Defense level, 0-5", 0
        )
        points = get(
            entry,
            path,
            "political_points",
            lambda v: _whole(v, 0, 50),
            "political points a game turn, 0-50",
            0,
        )
        sources = entry.get("supply", [])
        if not isinstance(sources, list):
            bad.add((*path, "supply"), 'supply must be a list of hexes, e.g. ["0101", "0102"]')
            sources = []
        sides.append(Side(name, letter, bool(nato), c4i, defence, points, list(sources)))
    if len(sides) == 2 and sides[0].name == sides[1].name:
        bad.add(
            ("sides", 1, "name"), "a scenario has two [[sides]] with different names and letters"
        )
    elif len(sides) == 2 and sides[0].letter == sides[1].letter:
        bad.add(
            ("sides", 1, "country"), "a scenario has two [[sides]] with different names and letters"
        )
    elif len(sides) != 2:
        bad.add(("sides", 0), "a scenario has two [[sides]] with different names and letters")
    return sides


def _grid_text(
    table: dict[str, Any],
    key: str,
    columns: int,
    rows: int,
    bad: _Problems,
    letters: dict[str, str],
) -> dict[str, str]:
    """A map drawn as text, one line a row and one letter a column, read into hex -> value."""
    text = table.get(key)
    first = bad.where.line("map", key)
    if not isinstance(text, str):
        bad.add(("map", key), f"{key} must be a multi-line string, one line a row of hexes")
        return {}
    lines = [line.strip() for line in text.strip("\n").splitlines()]
    found: dict[str, str] = {}
    if len(lines) != rows:
        bad.add(("map", key), f"{key} has {len(lines)} lines for a map of {rows} rows")
    for r, line in enumerate(lines[:rows], start=1):
        at = first + r if first else 0
        if len(line) != columns:
            bad.add(("map", key), f"row {r} of {key} has {len(line)} hexes, not {columns}", at)
            continue
        for c, letter in enumerate(line, start=1):
            if letter not in letters:
                shown = ", ".join(f"{k} {v or 'none'}" for k, v in letters.items())
                bad.add(
                    ("map", key),
                    f"row {r}, column {c} of {key}: {letter!r} is not one of {shown}",
                    at,
                )
                continue
            found[hex_id(c, r)] = letters[letter]
    return found


def _unit(
    entry: dict[str, Any],
    path: tuple[object, ...],
    bad: _Problems,
    sides: list[str],
    side_list: list[Side],
    on_map: Callable[[tuple[object, ...], Any], str],
    terrain: dict[str, str],
    table: dict[str, Terrain],
) -> Unit | None:
    count = len(bad.items)
    uid, side, kind = entry.get("id", ""), entry.get("side", ""), entry.get("type", "")
    if not isinstance(uid, str) or not UNIT_ID.match(uid):
        bad.add((*path, "id"), "a unit's id is 1-12 letters, digits, dashes or slashes")
    if side not in sides:
        bad.add((*path, "side"), f"side must be {' or '.join(sides)}")
    if kind not in UNIT_TYPES:
        bad.add((*path, "type"), f"{kind!r} is not a unit type ({', '.join(UNIT_TYPES)})")
    size = entry.get("size", "division")
    if size not in SIZES:
        bad.add((*path, "size"), f"size must be one of {', '.join(SIZES)}")
    strength: Any = entry.get("strength")
    attack: Any = entry.get("attack", strength)
    defence: Any = entry.get("defence", strength)
    for key, value in (("attack", attack), ("defence", defence)):
        if not _whole(value, 0, 99):
            bad.add((*path, key), f"{key} (or strength) must be a combat strength, 0-99")
    speed = entry.get("speed", 0)
    if not _whole(speed, 0, 30):
        bad.add((*path, "speed"), "speed must be movement points, 0-30")
    support = entry.get("support", 0)
    if not _whole(support, 0, 10):
        bad.add((*path, "support"), "support must be a support radius in hexes, 0-10")
    reserve = entry.get("reserve", False)
    if not isinstance(reserve, bool):
        bad.add((*path, "reserve"), "reserve must be true or false")
    default_nato = next((s.nato for s in side_list if s.name == side), False)
    nato = entry.get("nato", default_nato)
    if not isinstance(nato, bool):
        bad.add((*path, "nato"), "nato must be true or false")
    where = on_map((*path, "hex"), entry.get("hex"))
    if where and kind in UNIT_TYPES:
        ground = terrain.get(where, "plain")
        naval = UNIT_TYPES[kind].naval
        if naval != (ground == "sea"):
            bad.add(
                (*path, "hex"),
                f"{where} is {ground}: a naval task force starts at sea, other units on land",
            )
        elif not naval and table[ground].cost(UNIT_TYPES[kind].mechanized) is None:
            bad.add((*path, "hex"), f"{where} is {ground}, where a {kind} unit may not go")
    if len(bad.items) > count:
        return None
    return Unit(
        id=uid,
        side=side,
        type=kind,
        size=size,
        nato=nato,
        attack=int(attack),
        defence=int(defence),
        speed=speed,
        hex=where,
        support=support,
        reserve=reserve,
    )


__all__ = [
    "PLACE_KINDS",
    "TERRAIN_LETTERS",
    "Place",
    "Reinforcement",
    "Scenario",
    "Side",
    "SpecialEvent",
    "default_scenario_text",
    "load_scenario",
    "parse_scenario",
]
