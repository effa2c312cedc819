"""Reading an Imperium map file and a scenario file (TOML; format in docs/imperium-map.md).

A referee's own map is hostile input like any other file a person writes: every problem is
collected with the entry it concerns (``system 3 (Tau Ceti): planet TAU2: hexes must be ...``)
and reported together as one `SetupError`, so a referee fixes the file in one pass.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from ...errors import SetupError
from ..tomlfile import read_toml
from .state import MARKERS, PLANET_TYPES, GameMap, Planet, Route, System
from .units import SIDES, UNIT_TABLES

MAX_SYSTEMS = 500
#: Most resources a side may start with (more is a typo, and the workbook keeps whole numbers).
MAX_RESOURCES = 100_000
#: A fleet name as the turn sheet reads it (`parse.NAME`, at most 12 characters).
FLEET_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,11}$")


def default_map_text() -> str:
    return resources.files(__package__).joinpath("data/frontier.toml").read_text("utf-8")


def default_scenario_text() -> str:
    return resources.files(__package__).joinpath("data/scenario.toml").read_text("utf-8")


def load_map(path: Path | None = None) -> GameMap:
    """The map in ``path``, or the default map shipped with the tool."""
    if path is None:
        return parse_map(tomllib.loads(default_map_text()), "default map")
    game_map = parse_map(read_toml(Path(path), "map file"), str(path))
    # Only the file's name is kept: the state (and the golden game) must not depend on the
    # folder the referee kept the map in.
    game_map.source = Path(path).name
    return game_map


def _code(value: Any) -> str | None:
    if isinstance(value, str) and value.isascii() and value.isalnum() and 1 <= len(value) <= 8:
        return value.upper()
    return None


def parse_map(data: dict[str, Any], source: str) -> GameMap:
    """Build a `GameMap` from parsed TOML, or raise `SetupError` listing every problem."""
    problems: list[str] = []
    systems: dict[str, System] = {}
    planets: dict[str, Planet] = {}
    entries = data.get("system", [])
    deep = data.get("deep", [])
    if not isinstance(entries, list) or not entries:
        problems.append("the map has no [[system]] entries")
        entries = []
    if not isinstance(deep, list):
        problems.append("[[deep]] must be a list of tables")
        deep = []
    if len(entries) + len(deep) > MAX_SYSTEMS:
        raise SetupError(f"{source}: more than {MAX_SYSTEMS} systems")
    for n, entry in enumerate([*entries, *deep], 1):
        is_deep = n > len(entries)
        label = f"{'deep' if is_deep else 'system'} {n if not is_deep else n - len(entries)}"
        if not isinstance(entry, dict):
            problems.append(f"{label} is not a table")
            continue
        code = _code(entry.get("code"))
        name = entry.get("name")
        label += f" ({name or entry.get('code')})"
        if code is None:
            problems.append(f"{label}: code must be 1-8 letters or digits")
            continue
        if code in systems:
            problems.append(f"{label}: code {code} is used twice")
            continue
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            problems.append(f"{label}: name must be text of 1-40 characters")
            name = code
        x, y = entry.get("x"), entry.get("y")
        if not all(
            isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 100 for v in (x, y)
        ):
            problems.append(f"{label}: x and y must be numbers from 0 to 100")
            x, y = 0, 0
        system = System(code, name.strip(), float(x), float(y), deep=is_deep)
        systems[code] = system
        raw_planets = entry.get("planets", [])
        if is_deep and raw_planets:
            problems.append(f"{label}: a deep-space hex has no planets")
            raw_planets = []
        if not isinstance(raw_planets, list):
            problems.append(f"{label}: planets must be a list")
            raw_planets = []
        for p in raw_planets:
            planet = _planet(p, code, label, problems)
            if planet is None:
                continue
            if planet.code in planets or planet.code in systems:
                problems.append(f"{label}: planet code {planet.code} is used twice")
                continue
            planets[planet.code] = planet
            system.planets.append(planet.code)
    routes: list[Route] = []
    raw_routes = data.get("route", [])
    if not isinstance(raw_routes, list):
        problems.append("[[route]] must be a list of tables")
        raw_routes = []
    for n, entry in enumerate(raw_routes, 1):
        between = entry.get("between") if isinstance(entry, dict) else None
        length = entry.get("length", 1) if isinstance(entry, dict) else 1
        label = f"route {n}"
        if not isinstance(between, list) or len(between) != 2:
            problems.append(f"{label}: between must name two systems")
            continue
        a, b = (_code(v) for v in between)
        if a not in systems or b not in systems:
            problems.append(f"{label}: {between} names a system that is not on the map")
            continue
        if a == b:
            problems.append(f"{label}: a route joins two different systems")
            continue
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= 5:
            problems.append(f"{label}: length must be a whole number from 1 to 5")
            continue
        if any({r.a, r.b} == {a, b} for r in routes):
            problems.append(f"{label}: {a}-{b} is listed twice")
            continue
        routes.append(Route(a, b, length))
    homes = {side: [p for p in planets.values() if p.home == side] for side in SIDES}
    for side in SIDES:
        if not homes[side]:
            problems.append(f'no planet is marked home = "{side}"')
    if problems:
        raise SetupError(f"{source}: " + "; ".join(problems))
    title = data.get("title") if isinstance(data.get("title"), str) else "Imperium map"
    return GameMap(title=title[:80], systems=systems, planets=planets, routes=routes, source=source)


def _planet(p: Any, system: str, label: str, problems: list[str]) -> Planet | None:
    if not isinstance(p, dict):
        problems.append(f"{label}: a planet is not a table")
        return None
    code = _code(p.get("code"))
    if code is None:
        problems.append(f"{label}: planet code must be 1-8 letters or digits")
        return None
    where = f"{label}: planet {code}"
    ok = True
    name = p.get("name", code)
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        problems.append(f"{where}: name must be text of 1-40 characters")
        ok = False
    ptype = p.get("type")
    if ptype not in PLANET_TYPES:
        problems.append(f"{where}: type must be one of {', '.join(PLANET_TYPES)}")
        ok = False
    hexes = p.get("hexes")
    if not isinstance(hexes, int) or isinstance(hexes, bool) or not 1 <= hexes <= 40:
        problems.append(f"{where}: hexes must be a whole number from 1 to 40")
        ok = False
    owner = p.get("owner", "")
    marker = p.get("marker", "")
    home = p.get("home", "")
    if owner not in ("", *SIDES) or home not in ("", *SIDES):
        problems.append(f"{where}: owner and home must be Terran or Imperial")
        ok = False
    if marker not in MARKERS:
        problems.append(f"{where}: marker must be World or Outpost")
        ok = False
    if bool(owner) != bool(marker):
        problems.append(f"{where}: give both owner and marker, or neither")
        ok = False
    if marker == "World" and isinstance(ptype, str) and not ptype.startswith("A"):
        problems.append(f"{where}: a World needs a type A planet")
        ok = False
    if home and (owner != home or marker != "World"):
        problems.append(f"{where}: a home world must be a World of its side")
        ok = False
    if not ok:
        return None
    return Planet(
        code=code,
        name=name.strip(),
        system=system,
        type=ptype,
        hexes=hexes,
        owner=owner,
        marker=marker,
        original_type=ptype,
        home=home,
    )


def load_scenario(path: Path | None, game_map: GameMap) -> dict[str, Any]:
    """Starting resources and forces per side, checked against ``game_map``."""
    if path is None:
        data = tomllib.loads(default_scenario_text())
        source = "default scenario"
    else:
        data = read_toml(Path(path), "scenario file")
        source = str(path)
    problems: list[str] = []
    for side in SIDES:
        block = data.get(side)
        if not isinstance(block, dict):
            problems.append(f"no [{side}] table")
            continue
        res = block.get("resources", 0)
        if not isinstance(res, int) or isinstance(res, bool) or not 0 <= res <= MAX_RESOURCES:
            problems.append(f"[{side}] resources must be a whole number from 0 to {MAX_RESOURCES}")
        for f in block.get("fleets", []):
            system = _code(f.get("system")) if isinstance(f, dict) else None
            if system not in game_map.systems:
                problems.append(f"[{side}] fleet {f!r}: system not on the map")
                continue
            name = f.get("name")
            if name is not None and not (isinstance(name, str) and FLEET_NAME.match(name)):
                problems.append(
                    f"[{side}] fleet name {name!r}: a letter, then letters, digits, - or _ "
                    "(at most 12 characters), as players write it on their sheets"
                )
            for code in f.get("units", []):
                if code not in UNIT_TABLES[side]:
                    problems.append(f"[{side}] fleet {f.get('name')}: no {code!r} in the list")
        for g in block.get("ground", []):
            planet = _code(g.get("planet")) if isinstance(g, dict) else None
            if planet not in game_map.planets:
                problems.append(f"[{side}] ground {g!r}: planet not on the map")
                continue
            owner = game_map.planets[planet].owner
            if owner and owner != side:
                problems.append(f"[{side}] ground at {planet}: the planet is the {owner} side's")
            for code in g.get("units", []):
                if code not in UNIT_TABLES[side]:
                    problems.append(f"[{side}] ground at {planet}: no {code!r} in the list")
    if problems:
        raise SetupError(f"{source}: " + "; ".join(problems))
    return data
