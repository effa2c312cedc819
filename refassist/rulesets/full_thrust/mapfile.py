"""Reading a campaign map (TOML; format in docs/rules/full-thrust-campaign.md).

The referee's map is hostile input like any other file a person writes: every problem is
collected with the entry it concerns (``system 3 (Brenn): square 2105 is outside the 20 x 14
grid``) and reported together as one `SetupError`, so a referee fixes the file in one pass.
Without a file the game is played on the shipped map, ``data/kell.toml``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ...errors import SetupError
from ..tomlfile import read_toml
from .grid import Square, parse_square, square_code
from .state import SYSTEM, WORMHOLE, System

MAX_PLACES = 400
MAX_SIDE = 99  # squares are written with two digits a coordinate
BELTS = ("", "rich", "poor")
PORTS = ("", "starport", "spaceport")
MAX_VALUE = 20
#: A place's name as sheets and reports write it.
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 '\-]{0,23}$")


@dataclass
class CampaignMap:
    title: str
    columns: int
    rows: int
    systems: dict[str, System]
    obstacles: set[Square]
    source: str = ""


def default_map_text() -> str:
    return resources.files(__package__).joinpath("data/kell.toml").read_text("utf-8")


def load_map(path: Path | None = None) -> CampaignMap:
    """The map in ``path``, or the shipped map."""
    if path is None:
        found = parse_map(tomllib.loads(default_map_text()), "default map")
        found.source = "kell.toml"
        return found
    found = parse_map(read_toml(Path(path), "map file"), str(path))
    # Only the file's name is kept: a state must not depend on the referee's folders.
    found.source = Path(path).name
    return found


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def parse_map(data: dict[str, Any], source: str) -> CampaignMap:
    """Check and convert a map document; `SetupError` listing every problem."""
    problems: list[str] = []
    title = data.get("title", "")
    if not isinstance(title, str) or not title.strip() or len(title) > 80:
        problems.append("title: give the map a name of at most 80 characters")
        title = "Map"
    columns, rows = data.get("columns"), data.get("rows")
    if not _whole(columns, 2, MAX_SIDE) or not _whole(rows, 2, MAX_SIDE):
        raise SetupError(
            f"{source}: columns and rows must be whole numbers from 2 to {MAX_SIDE} "
            f"(found {columns!r} and {rows!r})"
        )
    assert isinstance(columns, int) and isinstance(rows, int)

    def inside(text: Any, where: str) -> Square | None:
        try:
            square = parse_square(str(text))
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            return None
        if square[0] > columns or square[1] > rows:
            problems.append(
                f"{where}: square {square_code(square)} is outside the {columns} x {rows} grid"
            )
            return None
        return square

    systems: dict[str, System] = {}
    taken: dict[Square, str] = {}
    entries = [(SYSTEM, e) for e in _entries(data, "system", problems)]
    entries += [(WORMHOLE, e) for e in _entries(data, "wormhole", problems)]
    if len(entries) > MAX_PLACES:
        raise SetupError(f"{source}: {len(entries)} places; a map has at most {MAX_PLACES}")
    for n, (kind, entry) in enumerate(entries, 1):
        name = entry.get("name")
        where = f"{kind} {n}" + (f" ({name})" if isinstance(name, str) else "")
        if not isinstance(name, str) or not NAME.match(name):
            problems.append(
                f"{where}: name must start with a letter and be at most 24 letters, digits, "
                "spaces, ' or -"
            )
            continue
        if name.lower() in (s.lower() for s in systems):
            problems.append(f"{where}: the name {name} is used twice")
            continue
        square = inside(entry.get("square"), where)
        if square is None:
            continue
        if square in taken:
            problems.append(f"{where}: square {square_code(square)} is {taken[square]}'s already")
            continue
        taken[square] = name
        known = {"name", "square"} | (
            {"value", "home", "belt", "site", "port", "indigenous"} if kind == SYSTEM else set()
        )
        for key in sorted(set(entry) - known):
            problems.append(f"{where}: unknown key {key!r} (known: {', '.join(sorted(known))})")
        value = entry.get("value", 0)
        if not _whole(value, 0, MAX_VALUE):
            problems.append(f"{where}: value must be a whole number from 0 to {MAX_VALUE}")
            value = 0
        belt, port = entry.get("belt", ""), entry.get("port", "")
        if belt not in BELTS:
            problems.append(f"{where}: belt must be rich or poor (or left out)")
            belt = ""
        if port not in PORTS:
            problems.append(f"{where}: port must be starport or spaceport (or left out)")
            port = ""
        home, site = entry.get("home", False), entry.get("site", False)
        if not isinstance(home, bool) or not isinstance(site, bool):
            problems.append(f"{where}: home and site are true or false")
            home = site = False
        if home and not value:
            problems.append(f"{where}: a home system needs a planet (a value from 1)")
        indigenous = entry.get("indigenous", 100 * value)
        if not _whole(indigenous, 0, 100_000):
            problems.append(f"{where}: indigenous must be a whole number of points")
            indigenous = 0
        systems[name] = System(
            name,
            square,
            kind=kind,
            value=value,
            home=home,
            belt=belt,
            ancient_site=site,
            indigenous=indigenous,
            port="starport" if home and not port else port,
        )
    obstacles: set[Square] = set()
    raw = data.get("obstacles", [])
    if not isinstance(raw, list):
        problems.append('obstacles: a list of squares or rectangles, e.g. ["0705:0706"]')
        raw = []
    for text in raw:
        where = f"obstacle {text!r}"
        first, _, last = str(text).partition(":")
        a = inside(first, where)
        b = inside(last, where) if last else a
        if a is None or b is None:
            continue
        for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
            for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
                if (x, y) in taken:
                    problems.append(f"{where}: covers {taken[(x, y)]} at {square_code((x, y))}")
                obstacles.add((x, y))
    if not systems and not problems:
        problems.append("the map has no systems")
    if problems:
        listed = "\n  ".join(problems)
        raise SetupError(f"{source} has {len(problems)} problem(s):\n  {listed}")
    return CampaignMap(title.strip(), columns, rows, systems, obstacles)


def _entries(data: dict[str, Any], key: str, problems: list[str]) -> list[dict[str, Any]]:
    found = data.get(key, [])
    if not isinstance(found, list) or not all(isinstance(e, dict) for e in found):
        problems.append(f"{key}: write each as a [[{key}]] table")
        return []
    return found


__all__ = ["CampaignMap", "default_map_text", "load_map", "parse_map"]
