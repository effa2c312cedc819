"""Fifth Millennium state <-> master workbook tables, with the cross-table checks.

The engine checks each cell's type and the references the tables declare (an owner is a
player: `Column.refers`); this module declares the tables and checks what only the game
knows: that hexes are on the map, facility kinds exist, squadrons sit where they can be.
Every problem carries the cell of the row at fault, so a referee's hand edit that breaks the
game is caught before any turn uses it, while a valid edit (moving a fleet, fixing a
stockpile) is simply honoured.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import CellProblem
from ...geometry.hexmap import SECTOR, SUBSECTOR_LETTERS
from ...workbook.history import (
    DICE_TABLE,
    EVENTS_TABLE,
    events_to_rows,
    history_json,
    rolls_to_rows,
    rows_to_events,
    rows_to_rolls,
)
from ..base import Column, Reference, Row, RowProblems, Table, as_row, flag, optional, plain
from .state import (
    FACILITY_KINDS,
    FLEET_FIELDS,
    RELATION_KINDS,
    RESOURCE_CLASSES,
    Facility,
    Fleet,
    Flight,
    Force,
    Message,
    Player,
    Proposal,
    Relation,
    Sighting,
    State,
    System,
)


def _n(name: str, header: str, help_: str = "") -> Column:
    return Column(name, header, "int", minimum=0, width=6, help=help_)


_FLEET_COLUMNS = (
    _n("F", "F", "Fleet squadrons"),
    _n("S", "S", "Strike squadrons"),
    _n("A", "A", "Assault squadrons"),
    _n("Fs", "Fs", "Fast squadrons"),
    _n("Ms", "Ms", "Minesweeper squadrons"),
    _n("K", "K", "KKM points carried"),
    _n("SF", "SF", "SFBA levels carried"),
)

SETTINGS = Table(
    "settings",
    "Settings",
    (
        Column(
            "game_id", "Game id", "str", help="identifies the game on turn sheets; do not change"
        ),
        Column("game_name", "Game name", "str", help="shown on sheets and reports"),
        Column(
            "year",
            "Year",
            "int",
            minimum=5000,
            maximum=9999,
            help="the year whose orders are awaited (turn n = 5000 + n; 5000 = set-up)",
        ),
        optional("sector_name", "Sector", "the map's name", kind="text"),
        optional(
            "finished",
            "Game over",
            "empty while the game goes on; else who won and why",
            kind="text",
        ),
    ),
    help="One row: the game and the year whose orders are awaited.",
)

SUBSECTORS = Table(
    "subsectors",
    "Subsectors",
    (
        Column("letter", "Subsector", "str", choices=tuple(SUBSECTOR_LETTERS), width=10),
        optional("name", "Name", kind="text", width=24),
    ),
    key=("letter",),
    help="Subsector names for reports and maps.",
)

PLAYERS = Table(
    "players",
    "Players",
    (
        Column("name", "Player", "str", width=18, help="as in game.toml"),
        optional("homeworld", "Homeworld", "hex XXYY; empty until set-up", kind="text"),
        Column("stockpile", "Stockpile", "int", minimum=0, help="unspent resource points"),
        Column("tech_level", "TL", "int", minimum=1, maximum=3, help="technology level 1-3"),
        Column(
            "income_last", "Income last turn", "int", minimum=0, help="resource points produced"
        ),
        Column("homeworld_lost", "Homeworld lost in", "int", minimum=0, help="year, 0 while held"),
        Column("eliminated", "Eliminated in", "int", minimum=0, help="year, 0 while playing"),
        optional(
            "stockpile_at",
            "Stockpile at",
            "hex where unspent points are kept; empty = homeworld",
            kind="text",
        ),
        flag("computer", "Computer player", "orders written by the tool"),
    ),
    key=("name",),
    help="One row per player. E-mail addresses are in game.toml.",
)


def _player(fix: str = "write a player's name", also: tuple[str, ...] = ()) -> Reference:
    """The column names a player of the Players sheet (checked by the engine)."""
    return Reference("players", "name", "is not a player of this game", fix, also)


SYSTEMS = Table(
    "systems",
    "Systems",
    (
        Column("hex", "Hex", "hex", width=7),
        optional("name", "Name", "system name", kind="text", width=18),
        Column(
            "original_class",
            "Map class",
            "str",
            choices=RESOURCE_CLASSES,
            help="resource class on the original map",
        ),
        Column(
            "resource_class",
            "Class",
            "str",
            choices=RESOURCE_CLASSES,
            help="current resource class",
        ),
        flag("naval_base", "Naval base", "+1 income; defends its owner"),
        flag("scout_base", "Scout base", "+1 income"),
        flag("hipop", "HiPop", "high population: +1 income"),
        optional(
            "owner",
            "Owner",
            "player name; empty = unowned",
            kind="text",
            refers=_player("use one of: {choices}, or leave empty"),
        ),
        Column("changes", "Changes of hands", "int", minimum=0),
        flag(
            "map_naval_base", "Map naval base", "naval base on the printed map (public knowledge)"
        ),
        flag(
            "map_scout_base", "Map scout base", "scout base on the printed map (public knowledge)"
        ),
        flag("map_hipop", "Map HiPop", "HiPop on the printed map (public knowledge)"),
    ),
    key=("hex",),
    help="Every star system on the map.",
)

SQUADRONS = Table(
    "forces",
    "Squadrons",
    (
        Column("hex", "Hex", "hex", width=7),
        optional(
            "owner",
            "Owner",
            "empty = squadrons of an independent world",
            kind="text",
            refers=_player(
                "write a player's name, or leave empty for an independent world's squadrons"
            ),
        ),
        *_FLEET_COLUMNS,
        _n("M", "M", "Monitor squadrons"),
        _n("P", "Probes", "Probes waiting to launch"),
        flag(
            "building",
            "Under construction",
            "bought last production phase: does not fight this turn",
        ),
    ),
    key=("hex", "owner", "building"),
    help="Squadrons present in systems (not in hyperspace), one row per owner and hex.",
)

FLIGHTS = Table(
    "flights",
    "Hyperspace",
    (
        Column("id", "Flight", "str", width=16, help="unique id: year-player-number"),
        Column("owner", "Owner", "str", help="player name", refers=_player()),
        Column("origin", "From", "hex", help="departure hex"),
        Column("destination", "To", "hex", help="destination hex"),
        Column("departed", "Departed", "int", minimum=5001, maximum=9999, help="year of departure"),
        Column("arrival", "Arrives", "int", minimum=5002, maximum=9999, help="year of arrival"),
        flag("probe", "Probe", "a probe swarm (no squadrons)"),
        *_FLEET_COLUMNS,
    ),
    key=("id",),
    help="Fleets and probes in hyperspace; never shown to anyone but their owner.",
)

FACILITIES = Table(
    "facilities",
    "Facilities",
    (
        Column("hex", "Hex", "hex", width=7),
        Column("owner", "Owner", "str", refers=_player()),
        Column(
            "kind",
            "Kind",
            "str",
            choices=FACILITY_KINDS,
            help="GL, OPC, MINE (points), DOCK, CC, CF, DEPOT, DSRS",
        ),
        Column("count", "Count", "int", minimum=1),
        flag("building", "Under construction"),
    ),
    key=("hex", "owner", "kind", "building"),
    help="Facilities: labs, OPCs, minefields, spacedocks, control and construction facilities, "
    "depots, refueling stations.",
)

DIPLOMACY = Table(
    "diplomacy",
    "Diplomacy",
    (
        Column("kind", "Kind", "str", choices=RELATION_KINDS),
        Column("a", "Player", "str", help="for a proposal: who proposed", refers=_player()),
        Column("b", "With", "str", refers=_player()),
        Column("status", "Status", "str", choices=("in force", "proposed", "end proposed")),
        Column("since", "Since", "int", minimum=5000, maximum=9999),
    ),
    key=("kind", "a", "b", "status"),
    help="Treaties and trade agreements in force, proposals awaiting an answer, and requests to "
    "end a trade agreement (end proposed) awaiting the other side.",
)

MESSAGES = Table(
    "messages",
    "Messages",
    (
        Column("year", "Year", "int", minimum=5000, maximum=9999),
        Column("sender", "From", "str", refers=_player()),
        Column(
            "recipient",
            "To",
            "str",
            help="player name, or * for everyone",
            refers=_player("write a player's name or * for everyone", also=("*",)),
        ),
        Column("text", "Message", "text", width=70),
    ),
    help="Messages sent through the referee (delivered in the recipients' next report).",
)

SIGHTINGS = Table(
    "sightings",
    "Last seen",
    (
        Column("player", "Player", "str", refers=_player()),
        Column("hex", "Hex", "hex", width=7),
        Column("year", "Seen in", "int", minimum=5000, maximum=9999),
        Column("resource_class", "Class", "str", choices=RESOURCE_CLASSES),
        flag("naval_base", "Naval base"),
        flag("scout_base", "Scout base"),
        flag("hipop", "HiPop"),
        optional("owner", "Owner", kind="text"),
        optional("forces", "Forces seen", kind="text", width=40),
    ),
    key=("player", "hex"),
    help="What each player last saw of each system (shaded on maps once out of sight).",
)

SCHEMA: tuple[Table, ...] = (
    SETTINGS,
    PLAYERS,
    SYSTEMS,
    SQUADRONS,
    FLIGHTS,
    FACILITIES,
    DIPLOMACY,
    MESSAGES,
    SIGHTINGS,
    SUBSECTORS,
    EVENTS_TABLE,
    DICE_TABLE,
)


def _fleet_of(row: Row) -> Fleet:
    return Fleet(**{f: row[f] for f in FLEET_FIELDS})


def to_tables(state: State) -> dict[str, list[dict[str, Any]]]:
    """The state as rows of each table."""
    relations = [
        {"kind": r.kind, "a": r.a, "b": r.b, "status": "in force", "since": r.since}
        for r in state.relations
    ] + [
        {
            "kind": p.kind.removeprefix("end "),
            "a": p.proposer,
            "b": p.to,
            "status": "end proposed" if p.kind.startswith("end ") else "proposed",
            "since": p.year,
        }
        for p in state.proposals
    ]
    return {
        "settings": [SETTINGS.row_of(state)],
        "subsectors": [{"letter": k, "name": v} for k, v in sorted(state.subsector_names.items())],
        "players": [as_row(p) for p in state.players],
        "systems": [as_row(s) for s in state.systems],
        "forces": [SQUADRONS.row_of(f, **f.fleet.as_dict()) for f in state.forces],
        "flights": [FLIGHTS.row_of(f, **f.fleet.as_dict()) for f in state.flights],
        "facilities": [as_row(f) for f in state.facilities],
        "diplomacy": relations,
        "messages": [as_row(m) for m in state.messages],
        "sightings": [as_row(s) for s in state.sightings],
        "events": events_to_rows(state.events),
        "dice": rolls_to_rows(state.dice),
    }


def from_tables(tables: Mapping[str, Sequence[Row]], problems: list[CellProblem]) -> State | None:
    """Build a `State` from checked rows, appending cross-table problems."""
    check = RowProblems(problems)
    s = check.one_row(SETTINGS, list(tables.get("settings", [])))
    if s is None:
        return None
    state = s.to(State)
    state.subsector_names = {
        r["letter"]: r["name"] for r in tables.get("subsectors", []) if r["name"]
    }

    for r in tables.get("systems", []):
        if not SECTOR.contains(r["hex"]):
            check.add(
                SYSTEMS, r, "hex", "is not a hex of the sector (0101-3240)", "correct the hex"
            )
        state.systems.append(r.to(System))
    system_hexes = {sys.hex for sys in state.systems}

    for r in tables.get("players", []):
        for column in ("homeworld", "stockpile_at"):
            value = str(r[column]).strip()
            if value and (not value.isdigit() or value.zfill(4) not in system_hexes):
                check.add(
                    PLAYERS,
                    r,
                    column,
                    "is not the hex of a system on the map",
                    "write the system's hex XXYY, or leave empty",
                )
        if state.year > 5000 and not str(r["homeworld"]).strip() and not r["eliminated"]:
            check.add(
                PLAYERS,
                r,
                "homeworld",
                "is empty after the set-up year",
                "write the player's homeworld hex",
            )
        hexes = {c: str(r[c]).strip() for c in ("homeworld", "stockpile_at")}
        state.players.append(r.to(Player, **{c: h.zfill(4) if h else "" for c, h in hexes.items()}))

    stations = set()
    for r in tables.get("facilities", []):
        if r["kind"] == "DSRS":
            if r["hex"] in system_hexes:
                check.add(
                    FACILITIES,
                    r,
                    "hex",
                    "a refueling station must be in a hex without a system",
                    "move it to an empty hex",
                )
            elif not SECTOR.contains(r["hex"]):
                check.add(FACILITIES, r, "hex", "is not a hex of the sector", "correct the hex")
            stations.add((r["hex"], r["owner"]))
        elif r["hex"] not in system_hexes:
            check.add(FACILITIES, r, "hex", "is not the hex of a system", "correct the hex")
        if r["kind"] in ("GL", "OPC") and r["count"] > 5:
            check.add(FACILITIES, r, "count", "no more than 5 per system", "lower the count to 5")
        state.facilities.append(r.to(Facility))

    for r in tables.get("forces", []):
        stranded = (  # squadrons left in empty space when their station was lost
            r["owner"] and not r["M"] and not r["building"] and SECTOR.contains(r["hex"])
        )
        if r["hex"] not in system_hexes and (r["hex"], r["owner"]) not in stations and not stranded:
            check.add(
                SQUADRONS,
                r,
                "hex",
                "is neither a system nor one of the owner's refueling stations (only a "
                "player's ready squadrons may wait in an empty hex)",
                "correct the hex",
            )
        state.forces.append(r.to(Force, fleet=_fleet_of(r)))

    for r in tables.get("flights", []):
        for column in ("origin", "destination"):
            if not SECTOR.contains(r[column]):
                check.add(FLIGHTS, r, column, "is not a hex of the sector", "correct the hex")
        if r["arrival"] <= r["departed"]:
            check.add(FLIGHTS, r, "arrival", "must be after the departure year", "correct the year")
        state.flights.append(r.to(Flight, fleet=_fleet_of(r)))

    for r in tables.get("diplomacy", []):
        if r["a"] == r["b"]:
            check.add(
                DIPLOMACY, r, "b", "a player cannot make an agreement with itself", "fix the names"
            )
        if r["status"] == "in force":
            a, b = sorted((r["a"], r["b"]))
            state.relations.append(Relation(kind=r["kind"], a=a, b=b, since=r["since"]))
        else:
            kind = ("end " if r["status"] == "end proposed" else "") + r["kind"]
            state.proposals.append(Proposal(kind=kind, proposer=r["a"], to=r["b"], year=r["since"]))

    state.messages = [r.to(Message) for r in tables.get("messages", [])]

    for r in tables.get("sightings", []):
        if r["hex"] not in system_hexes:
            check.add(SIGHTINGS, r, "hex", "is not the hex of a system", "correct the hex")
        state.sightings.append(r.to(Sighting))

    state.events = rows_to_events(tables.get("events", []))
    state.dice = rows_to_rolls(tables.get("dice", []))
    state.normalise()
    return state


def to_json(state: State) -> dict[str, Any]:
    """The whole state as JSON-ready data; see docs/json-export.md."""
    data = plain(state)
    data.update(history_json(state.events, state.dice))
    return data
