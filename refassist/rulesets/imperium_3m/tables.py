"""Imperium 3rd Millennium state <-> master workbook tables, with the cross-table checks.

The engine checks each cell against its column (`refassist.workbook.master`); this module
declares the sheets and checks what only the game knows: that a unit's fleet exists and is its
side's, that a planet's system is on the map, that a side never has more counters of a kind
than the unit list gives it.  The referee edits this workbook by hand (moving a fleet, fixing
a treasury, giving a planet to the other side), so every problem names the cell at fault and
a valid edit is simply honoured.

The map is in the workbook too (Systems, Planets, Routes): planets change type, owner and
marker during a war, and a referee who corrects a route length should not have to touch a
separate map file.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import CellProblem
from ...workbook.history import (
    events_to_rows,
    history_json,
    history_tables,
    rolls_to_rows,
    rows_to_events,
    rows_to_rolls,
)
from ..base import (
    Column,
    Reference,
    Row,
    RowProblems,
    Table,
    as_row,
    fields_of,
    flag,
    optional,
    whole,
)
from .orders import standing_orders, standing_text
from .state import (
    ALLOWED_ON,
    MARKERS,
    PLANET_TYPES,
    Fleet,
    GameMap,
    Planet,
    Queued,
    Route,
    SideState,
    State,
    System,
    Unit,
)
from .units import GROUND_KINDS, KIND_OF, SIDES, TROOP_COUNTERS, UNIT_TABLES, counters_available

#: Imperium counts turns: the events and dice sheets head their turn column so.
EVENTS_TABLE, DICE_TABLE = history_tables("Turn")

WAR_RESULTS = (*SIDES, "truce")
SIDE_OR_EMPTY = ("", *SIDES)


SETTINGS = Table(
    "settings",
    "Settings",
    (
        Column(
            "game_id", "Game id", "str", help="identifies the game on turn sheets; do not change"
        ),
        Column("game_name", "Game name", "str", help="shown on sheets and reports"),
        whole("turn", "Turn", "the turn whose orders are awaited, counting every turn played", 1),
        whole("war", "War", "which war of the campaign (1 = the First Interstellar War)", 1),
        whole(
            "war_turn",
            "War turn",
            "turn within the current war (1-10; the victory schedule uses it); 0 in peace",
            maximum=10,
        ),
        whole("peace_left", "Peace turns left", "peacetime turns still to play before next war"),
        whole("glory", "Glory index", "0-10; higher favours the Empire", maximum=10),
        flag("peace_talks", "Peace talks", "Intervention 12 this turn: no attacks"),
        flag("campaign", "Campaign", "yes: wars follow one another; no: one war only"),
        optional(
            "results",
            "Wars won",
            "results of the wars so far, in order: Terran, Imperial or truce, separated by commas",
            kind="text",
        ),
        optional(
            "finished",
            "Game over",
            "empty while the game goes on; else who won and why",
            kind="text",
        ),
        optional("map_title", "Map", "the map's title (reports)", kind="text"),
        optional(
            "map_source",
            "Map file",
            "where the map came from at set-up (for the record)",
            kind="text",
        ),
    ),
    help="One row: the game, the turn awaited, the war calendar and the glory index.",
)

SIDES_TABLE = Table(
    "sides",
    "Sides",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column("player", "Player", "str", help="as in game.toml (a team is one player)"),
        whole("resources", "Resources", "unspent resources in the stockpile"),
        whole("budget_bonus", "Budget bonus", "permanent income increase won by Appeals"),
        whole("depression", "Depression turns", "turns of Economic Depression still to come"),
        optional(
            "permissions",
            "Permissions",
            "Imperial: ship codes an Appeal permitted (CR, CA, B1, B2, BB) or ALL, "
            "separated by commas",
            kind="text",
        ),
        flag("appeals_prohibited", "Appeals prohibited", "Imperial: no further Appeals"),
        flag("bb_unlocked", "BB allowed", "Terran: a B was destroyed, so BBs may be built"),
        whole(
            "initiative_modifier",
            "Initiative modifier",
            "added to the side's initiative rolls this turn (Civil War: -1)",
            None,
        ),
        whole(
            "mandate_glory",
            "Mandate glory",
            "Mandated Offensive in force: the glory index when its forces arrived; 0 = none",
        ),
        flag("visit", "Imperial Visit", "this turn: glory gains doubled, losses tripled"),
        whole(
            "mandate_turn",
            "Mandate turn",
            "turn the latest Mandated Offensive forces arrived; 0 = no mandate in force",
        ),
        optional(
            "granted",
            "Granted units",
            "unit codes received this war from Interventions and Appeals (removed at the "
            "war's end), separated by commas",
            kind="text",
        ),
    ),
    key=("side",),
    help="One row per side: treasury, permissions and standing effects.",
)


def _system(fix: str) -> Reference:
    """The column holds a system's code from the Systems sheet (checked by the engine)."""
    return Reference(
        "systems", "code", "is not a system on the Systems sheet", fix, ignore_case=True
    )


SYSTEMS = Table(
    "systems",
    "Systems",
    (
        Column("code", "System", "str", width=8, help="code used on turn sheets (1-8 letters)"),
        Column("name", "Name", "str", width=22),
        Column("x", "Map x", "str", width=7, help="position across the printed map, 0-100"),
        Column("y", "Map y", "str", width=7, help="position down the printed map, 0-100"),
        flag("deep", "Deep space", "an open-space hex (no planets; ships move one hex)"),
    ),
    key=("code",),
    help="Every star system and deep-space hex of the map.",
)

PLANETS = Table(
    "planets",
    "Planets",
    (
        Column("code", "Planet", "str", width=8, help="code used on turn sheets"),
        Column("name", "Name", "str", width=22),
        Column(
            "system",
            "System",
            "str",
            width=8,
            help="code of its system (Systems sheet)",
            refers=_system("write the code of the planet's system"),
        ),
        Column("type", "Type", "str", choices=PLANET_TYPES, help="current type"),
        Column(
            "original_type",
            "Original type",
            "str",
            choices=PLANET_TYPES,
            help="type before terraforming (a bombarded terraformed planet reverts to it)",
        ),
        whole("hexes", "Hexes", "hexes of its planetary map (box holds five units a hex)", 1),
        optional("owner", "Owner", choices=SIDE_OR_EMPTY),
        optional(
            "marker", "Marker", "World or Outpost of the owner; empty for none", choices=MARKERS
        ),
        flag("disputed", "Disputed", "both sides have troops on it after a landing"),
        optional(
            "home",
            "Home world of",
            "Sol 1/Sol 2 for Terrans; Dingir 1, Gashidda 1, Ishkur 1 for Imperials",
            choices=SIDE_OR_EMPTY,
        ),
        whole("terraform_paid", "Terraform paid", "resources committed to terraforming so far"),
        optional("terraform_side", "Terraformed by", choices=SIDE_OR_EMPTY),
        whole("upgrade_paid", "Upgrade turns paid", "peacetime Outpost-to-World turns paid (of 4)"),
    ),
    key=("code",),
    help="Every planet, its type, and the World or Outpost marker on it.",
)

ROUTES = Table(
    "routes",
    "Routes",
    (
        Column("a", "From", "str", width=8, help="system code", refers=_system("fix the code")),
        Column(
            "b",
            "To",
            "str",
            width=8,
            help="system code (routes run both ways)",
            refers=_system("fix the code"),
        ),
        whole("length", "Length", "movement points to use it (1-5)", 1, maximum=5),
    ),
    key=("a", "b"),
    help="Jump routes (and links into and out of deep space).",
)

FLEETS = Table(
    "fleets",
    "Fleets",
    (
        Column("name", "Fleet", "str", width=10, help="unique name, e.g. T1 or I3"),
        Column("side", "Side", "str", choices=SIDES),
        Column(
            "system",
            "System",
            "str",
            width=8,
            help="where it is (system code)",
            refers=_system("write a system code"),
        ),
        optional(
            "came_from",
            "Came from",
            "the system it entered from this turn (retreats go back there)",
            refers=_system("write a system code, or leave empty"),
        ),
        optional(
            "standing",
            "Battle orders",
            "standing battle orders carried to the next sheet, e.g. 'stance=stand off; "
            "priority=transport; break_off=1; retreat=home; stealth=no' (empty = defaults)",
            kind="text",
            width=28,
            added_later=True,
        ),
    ),
    key=("name",),
    help="Fleets at systems; their ships and cargo are on the Units sheet.",
)

UNITS = Table(
    "units",
    "Units",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column("id", "Counter", "str", width=8, help="unique within the side: DD3, RT2, PD1"),
        Column("code", "Type", "str", width=6, help="unit-list code: BB, CA, DD, F, PD, RT..."),
        flag("damaged", "Damaged", "flipped to its damaged (ships) or reduced (ground) side"),
        optional(
            "fleet",
            "Fleet",
            "the fleet it is in or carried by; empty when it stands on a planet",
            refers=Reference(
                "fleets", "name", "is not a fleet on the Fleets sheet", "write an existing fleet"
            ),
        ),
        optional(
            "planet",
            "Planet",
            "the planet it stands on (ground units only); empty when in a fleet",
            refers=Reference(
                "planets",
                "code",
                "is not a planet on the Planets sheet",
                "write a planet code",
                ignore_case=True,
            ),
        ),
        whole(
            "hex",
            "Hex",
            "0 = planetary box; 1..n = hex of the planetary map during a planetary battle",
        ),
        whole("strength", "Strength", "troops: full strength of the counter (e.g. 6 of 6-2)"),
        whole("reduced_strength", "Reduced", "troops: reduced strength (e.g. 2 of 6-2)"),
        optional(
            "origin",
            "Origin",
            "Intervention or Appeal forces (removed at the end of the war); else empty",
        ),
    ),
    key=("side", "id"),
    help="Every counter in play: ships in fleets, ground units in fleets or on planets.",
)

QUEUE = Table(
    "queue",
    "Turn track",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column("code", "Type", "str", width=6),
        whole("due", "Arrives turn", "the turn at whose start it is placed", 1),
        Column(
            "source",
            "Source",
            "str",
            help="built, or where reinforcements come from (Frontier Crisis, Intervention...)",
        ),
        whole("paid", "Paid", "resources spent (half returns if Recentralisation cancels it)"),
        optional("world", "World asked for", "a planet code, a fleet to arrive aboard, or empty"),
        optional(
            "origin",
            "Origin",
            "Intervention or Appeal forces keep this mark when they arrive; else empty",
        ),
        optional(
            "unit_id",
            "Counter",
            "the counter it will be (e.g. CA2), reserved so orders can name it; empty: "
            "decided when it arrives",
            added_later=True,
        ),
    ),
    help="The turn record track: units under construction and reinforcements to come.",
)

REVEALED = Table(
    "revealed",
    "Revealed",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column("system", "System", "str", width=8),
    ),
    key=("side", "system"),
    help="Systems whose enemy planetary boxes a side saw this turn (battle or stealth scout).",
)

SCHEMA: tuple[Table, ...] = (
    SETTINGS,
    SIDES_TABLE,
    FLEETS,
    UNITS,
    QUEUE,
    PLANETS,
    SYSTEMS,
    ROUTES,
    REVEALED,
    EVENTS_TABLE,
    DICE_TABLE,
)


def _split(text: str) -> list[str]:
    return [part.strip() for part in str(text).split(",") if part.strip()]


def _num(value: float) -> str:
    """A map coordinate as the referee reads it: ``8``, ``12.5``."""
    return f"{value:g}"


def to_tables(state: State) -> dict[str, list[dict[str, Any]]]:
    """The state as rows of each table."""
    return {
        "settings": [
            SETTINGS.row_of(
                state,
                results=", ".join(state.results),
                map_title=state.map.title,
                map_source=state.map.source,
            )
        ],
        "sides": [
            SIDES_TABLE.row_of(
                s, permissions=", ".join(s.permissions), granted=", ".join(s.granted)
            )
            for s in state.sides.values()
        ],
        "systems": [
            SYSTEMS.row_of(s, x=_num(s.x), y=_num(s.y)) for s in state.map.systems.values()
        ],
        "planets": [as_row(p) for p in state.map.planets.values()],
        "routes": [{"a": r.a, "b": r.b, "length": r.length} for r in state.map.routes],
        "fleets": [as_row(f) for f in state.fleets],
        "units": [as_row(u) for u in state.units],
        "queue": [as_row(q) for q in state.queue],
        "revealed": [
            {"side": side, "system": code}
            for side, codes in state.revealed.items()
            for code in codes
        ],
        "events": events_to_rows(state.events),
        "dice": rolls_to_rows(state.dice),
    }


def from_tables(tables: Mapping[str, Sequence[Row]], problems: list[CellProblem]) -> State | None:
    """Build a `State` from checked rows, appending cross-table problems (None if any)."""
    check = RowProblems(problems)
    s = check.one_row(SETTINGS, list(tables.get("settings", [])))
    game_map = _map_of(tables, s, check)
    sides = _sides_of(tables, check)
    if s is None or sides is None:
        return None
    for result in _split(s["results"]):
        if result not in WAR_RESULTS:
            check.add(
                SETTINGS,
                s,
                "results",
                f"{result!r} is not a war result",
                "write Terran, Imperial or truce for each war, separated by commas",
            )
    if s["war_turn"] == 0 and s["peace_left"] == 0 and not s["finished"]:
        check.add(
            SETTINGS,
            s,
            "war_turn",
            "war turn 0 means peace, but no peace turns are left",
            "set the war turn (1-10) or the peace turns left",
        )
    fleets = _fleets_of(tables, game_map, check)
    units = _units_of(tables, game_map, fleets, check)
    queue = _queue_of(tables, game_map, check)
    revealed: dict[str, list[str]] = {}
    for r in tables.get("revealed", []):
        if r["system"] not in game_map.systems:
            check.add(REVEALED, r, "system", "is not a system on the map", "write a system code")
        revealed.setdefault(r["side"], []).append(r["system"])
    if check.count:
        return None
    return s.to(
        State,
        map=game_map,
        sides=sides,
        units=units,
        fleets=list(fleets.values()),
        queue=queue,
        revealed=revealed,
        results=_split(s["results"]),
        events=rows_to_events(tables.get("events", [])),
        dice=rows_to_rolls(tables.get("dice", [])),
    )


def _coordinate(row: Row, column: str, check: RowProblems) -> float:
    try:
        value = float(str(row[column]).strip())
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100:
        check.add(
            SYSTEMS, row, column, "is not a number from 0 to 100", "write the map position 0-100"
        )
        return 0.0
    return value


def _map_of(
    tables: Mapping[str, Sequence[Row]], settings: Row | None, check: RowProblems
) -> GameMap:
    systems: dict[str, System] = {}
    for r in tables.get("systems", []):
        code = str(r["code"]).upper()
        if not (code.isascii() and code.isalnum() and len(code) <= 8):
            check.add(SYSTEMS, r, "code", "must be 1-8 letters or digits", "shorten the code")
        x, y = _coordinate(r, "x", check), _coordinate(r, "y", check)
        systems[code] = r.to(System, code=code, x=x, y=y)
    planets: dict[str, Planet] = {}
    for r in tables.get("planets", []):
        code = str(r["code"]).upper()
        system = systems.get(str(r["system"]).upper())
        if system is not None and system.deep:
            check.add(
                PLANETS, r, "system", "is a deep-space hex, which has no planets", "fix the system"
            )
        if code in systems:
            check.add(PLANETS, r, "code", "is also a system's code", "give the planet its own code")
        if bool(r["owner"]) != bool(r["marker"]):
            check.add(
                PLANETS,
                r,
                "marker",
                "owner and marker go together",
                "give both the owner and its World/Outpost marker, or neither",
            )
        if r["marker"] == "World" and not r["type"].startswith("A"):
            check.add(PLANETS, r, "marker", "a World needs a type A planet", "make it an Outpost")
        if r["terraform_paid"] and not r["terraform_side"]:
            check.add(
                PLANETS,
                r,
                "terraform_side",
                "resources are committed to terraforming but no side is named",
                "write the terraforming side, or set the paid resources to 0",
            )
        planets[code] = r.to(Planet, code=code, system=system.code if system else str(r["system"]))
        if system is not None:
            system.planets.append(code)
    routes: list[Route] = []
    seen: dict[frozenset[str], Row] = {}
    for r in tables.get("routes", []):
        a, b = str(r["a"]).upper(), str(r["b"]).upper()
        if a == b:
            check.add(ROUTES, r, "b", "a route joins two different systems", "fix the codes")
        pair = frozenset((a, b))
        if pair in seen and a != b:
            check.add(
                ROUTES,
                r,
                "a",
                f"the same route as row {seen[pair].number} (routes run both ways)",
                "delete one of the two rows",
            )
        seen[pair] = r
        routes.append(r.to(Route, a=a, b=b))
    title = settings["map_title"] if settings else ""
    source = settings["map_source"] if settings else ""
    return GameMap(
        title=title or "Imperium map",
        systems=systems,
        planets=planets,
        routes=routes,
        source=source,
    )


def _sides_of(
    tables: Mapping[str, Sequence[Row]], check: RowProblems
) -> dict[str, SideState] | None:
    rows = {r["side"]: r for r in tables.get("sides", [])}
    missing = [side for side in SIDES if side not in rows]
    if missing:
        check.problems.append(
            CellProblem(
                SIDES_TABLE.title,
                "A2",
                "",
                f"no row for the {' and '.join(missing)} side",
                "keep one row per side: Terran and Imperial",
            )
        )
        return None
    players: dict[str, Row] = {}
    sides: dict[str, SideState] = {}
    for side in SIDES:
        r = rows[side]
        if r["player"] in players:
            check.add(
                SIDES_TABLE,
                r,
                "player",
                "plays both sides",
                "each side has its own player (a team is one player name)",
            )
        players[r["player"]] = r
        permissions = _split(r["permissions"])
        for code in permissions:
            if code != "ALL" and code not in UNIT_TABLES[side]:
                check.add(
                    SIDES_TABLE,
                    r,
                    "permissions",
                    f"{code!r} is not a unit of the {side} list",
                    "write unit codes (CR, CA, B1, B2, BB) or ALL, separated by commas",
                )
        granted = [code.upper() for code in _split(r["granted"])]
        sides[side] = r.to(SideState, permissions=permissions, granted=granted)
    return sides


def _fleets_of(
    tables: Mapping[str, Sequence[Row]], game_map: GameMap, check: RowProblems
) -> dict[str, Fleet]:
    fleets: dict[str, Fleet] = {}
    for r in tables.get("fleets", []):
        system = str(r["system"]).upper()
        came = str(r["came_from"]).upper()
        standing = str(r.get("standing") or "")
        try:
            standing = standing_text(standing_orders(r["name"], standing))
        except ValueError as exc:
            check.add(FLEETS, r, "standing", str(exc), "correct it, or leave it empty")
        fleets[r["name"]] = r.to(Fleet, system=system, came_from=came, standing=standing)
    return fleets


def _units_of(
    tables: Mapping[str, Sequence[Row]],
    game_map: GameMap,
    fleets: Mapping[str, Fleet],
    check: RowProblems,
) -> list[Unit]:
    units: list[Unit] = []
    counts: Counter[tuple[str, str]] = Counter()
    last_row: dict[tuple[str, str], Row] = {}
    for r in tables.get("units", []):
        side, code = r["side"], str(r["code"]).upper()
        known = code in UNIT_TABLES[side]
        if not known:
            check.add(
                UNITS,
                r,
                "code",
                f"is not a unit of the {side} unit list",
                f"use one of: {', '.join(UNIT_TABLES[side])}",
            )
        kind = KIND_OF.get(code, "")
        fleet = fleets.get(r["fleet"]) if r["fleet"] else None
        planet = game_map.planets.get(str(r["planet"]).upper()) if r["planet"] else None
        if fleet is not None and fleet.side != side:
            check.add(
                UNITS,
                r,
                "fleet",
                f"is a {fleet.side} fleet, but this is a {side} unit",
                "put the unit in one of its own side's fleets",
            )
        if r["fleet"] and r["planet"]:
            check.add(
                UNITS,
                r,
                "planet",
                "a unit is either in a fleet or on a planet, not both",
                "clear the fleet or the planet",
            )
        elif not r["fleet"] and not r["planet"]:
            check.add(
                UNITS,
                r,
                "fleet",
                "the unit is nowhere",
                "write the fleet it is in, or the planet it stands on",
            )
        if known and r["planet"] and kind not in GROUND_KINDS:
            check.add(
                UNITS,
                r,
                "planet",
                "ships are in fleets, never on planets",
                "put the ship in a fleet (monitors too)",
            )
        if (
            known
            and planet is not None
            and kind in ("fighter", "pd", "troop")
            and code not in ALLOWED_ON[planet.klass]
        ):
            check.add(
                UNITS,
                r,
                "planet",
                f"{code} may not stand on a type {planet.type} planet",
                f"type {planet.klass} planets take {', '.join(ALLOWED_ON[planet.klass])}",
            )
        if planet is not None and r["hex"] > planet.hexes:
            check.add(
                UNITS,
                r,
                "hex",
                f"{planet.name} has {planet.hexes} hexes",
                f"write 0 (planetary box) or 1-{planet.hexes}",
            )
        if code in ("RT", "JT") and known:
            _check_troop(r, side, code, check)
        counts[(side, code)] += 1
        last_row[(side, code)] = r
        units.append(r.to(Unit, code=code, planet=planet.code if planet else str(r["planet"])))
    for (side, code), n in sorted(counts.items()):
        if code in UNIT_TABLES[side] and n > counters_available(side, code):
            check.add(
                UNITS,
                last_row[(side, code)],
                "code",
                f"the {side} side has {n} {code} units but owns only "
                f"{counters_available(side, code)} counters",
                "remove units of this type",
            )
    return units


def _check_troop(r: Row, side: str, code: str, check: RowProblems) -> None:
    """A troop counter's id names one counter of the mix (``RT3``) and its strengths are that
    counter's: the referee may not invent a 9-strength regiment by hand."""
    mix = TROOP_COUNTERS[side][code]
    number = str(r["id"])[len(code) :]
    if (
        not str(r["id"]).startswith(code)
        or not number.isdigit()
        or not 1 <= int(number) <= len(mix)
    ):
        check.add(
            UNITS,
            r,
            "id",
            f"is not one of the {side} {code} counters",
            f"write {code}1 to {code}{len(mix)}",
        )
        return
    full, reduced = mix[int(number) - 1]
    if (r["strength"], r["reduced_strength"]) != (full, reduced):
        check.add(
            UNITS,
            r,
            "strength",
            f"counter {r['id']} is {full}-{reduced}",
            f"write strength {full} and reduced {reduced}",
        )


def _queue_of(
    tables: Mapping[str, Sequence[Row]], game_map: GameMap, check: RowProblems
) -> list[Queued]:
    queue: list[Queued] = []
    for r in tables.get("queue", []):
        code = str(r["code"]).upper()
        if code not in UNIT_TABLES[r["side"]]:
            check.add(
                QUEUE,
                r,
                "code",
                f"is not a unit of the {r['side']} unit list",
                f"use one of: {', '.join(UNIT_TABLES[r['side']])}",
            )
        world = str(r["world"]).strip()
        if world.upper() in game_map.planets:
            world = world.upper()
        elif world and not world.replace("-", "").replace("_", "").isalnum():
            check.add(
                QUEUE,
                r,
                "world",
                "is neither a planet on the Planets sheet nor a fleet name",
                "write a planet code, or the fleet the unit should arrive aboard",
            )
        queue.append(r.to(Queued, code=code, world=world, unit_id=_counter_of(r, code, check)))
    return queue


def _counter_of(r: Row, code: str, check: RowProblems) -> str:
    """A reserved counter id: the unit code followed by its number (``CA2``, ``B2-1``)."""
    unit_id = str(r.get("unit_id") or "").strip().upper()
    if unit_id and not re.fullmatch(rf"{re.escape(code)}-?\d+", unit_id):
        check.add(
            QUEUE,
            r,
            "unit_id",
            f"is not a {code} counter id (the code and a number, e.g. {code}3)",
            "correct it, or leave it empty to decide the counter when it arrives",
        )
        return ""
    return unit_id


def to_json(state: State) -> dict[str, Any]:
    """The whole state as JSON-ready data; see docs/json-export.md (Imperium section).

    Passed through JSON once so that tuples inside event data come out as lists: the export
    then equals what a reader of the written file gets (the golden game compares the two)."""
    data = {
        "ruleset": "imperium-3m",
        **fields_of(
            state, "game_name game_id turn war war_turn peace_left glory peace_talks campaign"
        ),
        "results": list(state.results),
        "finished": state.finished,
        "sides": {k: dataclasses.asdict(v) for k, v in state.sides.items()},
        "map": {
            "title": state.map.title,
            "source": state.map.source,
            "systems": [dataclasses.asdict(s) for s in state.map.systems.values()],
            "planets": [as_row(p) for p in state.map.planets.values()],
            "routes": [dataclasses.asdict(r) for r in state.map.routes],
        },
        "fleets": [as_row(f) for f in state.fleets],
        "units": [as_row(u) for u in state.units],
        "queue": [as_row(q) for q in state.queue],
        "revealed": {k: list(v) for k, v in state.revealed.items()},
        **history_json(state.events, state.dice),
    }
    return json.loads(json.dumps(data, ensure_ascii=False))


__all__ = ["SCHEMA", "from_tables", "to_json", "to_tables"]
