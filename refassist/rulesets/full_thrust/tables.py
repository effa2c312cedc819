"""Full Thrust campaign state <-> master workbook tables, with the checks only the game knows.

The referee keeps the campaign in this workbook and edits it by hand (a design's figures, a
ship's damage after a battle, a planet changing hands); the engine checks each cell against
its column and the references between tables, this module what else the game needs: squares
inside the grid, a ship's design and place known, fuel within a full tank.
"""

from __future__ import annotations

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
    flag,
    optional,
    plain,
    whole,
)
from .designs import FULL_TANK_PARSECS, KINDS, SIZES, Design
from .economy import PLANET_ITEMS, SHIP_ITEMS, holdings_text, parse_holdings
from .grid import parse_square, square_code
from .mapfile import BELTS, PORTS
from .state import SYSTEM, WORMHOLE, Battle, Commander, Facility, InBattle, Ship, State, System

#: The week's events; the dice's own turn is twice the week (one more for its battles step).
EVENTS_TABLE, DICE_TABLE = history_tables(
    "Week",
    "Dice turn",
    "the dice's turn: twice the week, one more for the week's battles step",
)

DRIVES = ("ok", "disabled", "destroyed")
FACILITY_KINDS = ("shipyard", "omp", "station", "starport", "spaceport")


_LIST_HELP = "research fields, separated by commas"
#: A commander's columns that hold lists, written comma-separated in one cell.
COMMANDER_LISTS = ("discoveries", "developed", "half_cost", "allies")


def _split(text: Any) -> list[str]:
    return [part.strip() for part in str(text or "").split(",") if part.strip()]


def _commander(fix: str = "write a commander's name, or leave it empty") -> Reference:
    return Reference("commanders", "name", "is not a commander of this game", fix)


def _place(fix: str = "write the name of a system or wormhole") -> Reference:
    return Reference("systems", "name", "is not a system or wormhole of the map", fix)


SETTINGS = Table(
    "settings",
    "Settings",
    (
        Column("game_id", "Game id", "str", help="identifies the game on sheets; do not change"),
        Column("game_name", "Game name", "str", help="shown on sheets and reports"),
        whole("week", "Week", "the week whose orders are awaited (0: the set-up)"),
        optional("finished", "Game over", "empty while it goes on", kind="text"),
        optional("map_title", "Map", "the map's title (reports)", kind="text"),
        optional("map_source", "Map file", "the map's file at set-up", kind="text"),
        whole("columns", "Columns", "the grid's width in parsecs", 2, maximum=99),
        whole("rows", "Rows", "the grid's height in parsecs", 2, maximum=99),
    ),
    help="One row: the game, the week awaited and the grid.",
)

COMMANDERS = Table(
    "commanders",
    "Commanders",
    (
        Column("name", "Commander", "str", help="as in game.toml"),
        optional("email", "E-mail", kind="text"),
        Column("code", "Ship prefix", "str", help="the start of its ships' ids (ANN-3)"),
        Column("home", "Home system", "str", refers=_place()),
        whole("points", "Points", "starting points not yet spent (the set-up only)"),
        whole("spies", "Spies", "spies left (at most 5)", maximum=5),
        whole("master_spies", "Master spies", "master spies left (at most 1)", maximum=1),
        flag("eliminated", "Out", "yes once the commander is out of the game"),
        optional("discoveries", "Discoveries", _LIST_HELP, kind="text"),
        optional("developed", "Developed", _LIST_HELP, kind="text"),
        optional(
            "half_cost",
            "Half cost",
            "discovered fields it develops at half cost (a library, a rival's home "
            "planet taken, captured technology), separated by commas",
            kind="text",
            added_later=True,
        ),
        optional(
            "allies",
            "Allies",
            "commanders it declares allied (an alliance holds when both declare it)",
            kind="text",
        ),
    ),
    key=("name",),
    help="One row per commander.",
)

SYSTEMS = Table(
    "systems",
    "Systems",
    (
        Column("name", "Name", "str"),
        Column("square", "Square", "str", help="column and row, XXYY (0304)"),
        Column("kind", "Kind", "str", choices=(SYSTEM, WORMHOLE)),
        whole("value", "Value", "the planet's Value (production 50 x Value a week); 0: none"),
        flag("home", "Home", "a commander may start here"),
        optional("owner", "Owner", refers=_commander()),
        optional("belt", "Belt", choices=BELTS),
        flag("belt_worked_out", "Worked out", "the belt is exhausted for good"),
        flag("ancient_site", "Ancient site", "a site not yet explored"),
        whole("indigenous", "Indigenous", "points of native ships defending a neutral planet"),
        optional("port", "Port", choices=PORTS),
        optional(
            "defences",
            "Defences",
            "ground defences bought, e.g. 4 x fortification, 4 x ground weapons, 2 x silo, "
            "1 x Standard squadron",
            kind="text",
            added_later=True,
        ),
    ),
    key=("name",),
    help="Every place a ship may jump to, with its planet and its owner.",
)

OBSTACLES = Table(
    "obstacles",
    "Obstacles",
    (Column("square", "Square", "str", help="a square no jump line may cross (XXYY)"),),
    key=("square",),
    help="One row per obstacle square.",
)

DESIGNS = Table(
    "designs",
    "Designs",
    (
        Column("name", "Design", "str"),
        whole("mass", "Mass", "MASS", 1),
        whole("cost", "Cost", "points", 1),
        Column("size", "Size", "str", choices=tuple(SIZES)),
        Column("kind", "Type", "str", choices=KINDS),
        whole("boxes", "Damage boxes", "hull boxes", 1),
        whole("hold", "Hold", "MASS of hold (50 production points each)"),
        flag("ftl", "FTL", "has an FTL drive"),
        flag("streamlined", "Streamlined", "may land"),
        whole("fire_control", "Fire control", "fire-control units (scan rolls)"),
        whole("ortillery", "Ortillery", "ortillery systems (invasions)"),
    ),
    key=("name",),
    help="The design list commanders buy from; edit the figures, add your own designs.",
)

SHIPS = Table(
    "ships",
    "Ships",
    (
        Column("id", "Ship", "str"),
        Column(
            "design",
            "Design",
            "str",
            refers=Reference("designs", "name", "is not a design", "write a design's name"),
        ),
        Column("owner", "Owner", "str", refers=_commander("write a commander's name")),
        Column("place", "Place", "str", refers=_place()),
        whole("fuel", "Fuel", "parsecs of jump left in the tanks", maximum=FULL_TANK_PARSECS),
        whole("damage", "Damage", "damage boxes lost"),
        flag("crack", "Crack", "a crack ship"),
        whole("battles", "Battles", "battles survived"),
        Column("drive", "FTL drive", "str", choices=DRIVES),
        flag("landed", "Landed", "on the planet's surface"),
        whole("inches", "Inches", "distance from the planet (emergence)", maximum=300),
        whole("bearing", "Bearing", "emergence bearing, 1-12", 1, maximum=12),
        whole("cargo", "Cargo", "production points in the hold"),
        optional("fleet", "Fleet", "its fleet (slaved drives)", kind="text"),
        whole("ready_week", "Ready", "under construction until this week (0: in service)"),
        whole("ready_at", "Drive ready", "hour of the week its drive has recharged (0: ready)"),
        flag("needs_refit", "Needs refit", "a captured warship not yet refitted for its captor"),
        whole(
            "scrapping",
            "Scrapping",
            "hours of scrapping work left (0: not being scrapped)",
            required=False,
            added_later=True,
        ),
        whole(
            "item",
            "Item",
            "worth of an ancient site's item aboard, in production points",
            required=False,
            added_later=True,
        ),
        optional(
            "stores",
            "Stores",
            "bought beyond its design, e.g. 1 x Repair Facility, 2 x Standard squadron, 6 x mine",
            kind="text",
            added_later=True,
        ),
    ),
    key=("id",),
    help="One row per ship.",
)

STOCKS = Table(
    "stocks",
    "Stocks",
    (
        Column("place", "Place", "str", refers=_place()),
        Column("owner", "Owner", "str", refers=_commander("write a commander's name")),
        whole("points", "Points", "production points stored there"),
    ),
    key=("place", "owner"),
    help="Production points stored at a place, by commander (cargo waiting to be shipped).",
)

BATTLES = Table(
    "battles",
    "Battles",
    (
        Column("id", "Battle", "str"),
        whole("week", "Week", "the week it was fought in", 1),
        Column("place", "Place", "str", refers=_place()),
        whole("hour", "Hour", "hours into the week when it began (31 = 3.1)", maximum=100),
        optional(
            "invasion",
            "Invasion by",
            "the invader, for a war against a neutral planet",
            kind="text",
        ),
    ),
    key=("id",),
    help="Battles waiting for the referee's result from the tabletop.",
)

BATTLE_SHIPS = Table(
    "battle_ships",
    "Battle ships",
    (
        Column(
            "battle",
            "Battle",
            "str",
            refers=Reference("battles", "id", "is not a battle", "write a battle's id"),
        ),
        Column("ship", "Ship", "str"),
        Column("owner", "Side", "str"),
        Column("design", "Design", "str"),
        whole("arrives", "Arrives", "the tabletop turn it arrives on (0: at the start)"),
        whole("inches", "Inches", "emergence distance from the planet", maximum=400),
        whole("bearing", "Bearing", "emergence bearing, 1-12", 1, maximum=12),
        whole("deviation", "Deviation", "inches its emergence deviated (0: none)"),
        whole("deviation_bearing", "Deviation bearing", "1-12; 0: none", maximum=12),
        whole("damage", "Damage", "damage boxes lost before the battle"),
        whole("cargo", "Cargo", "production points in its hold"),
        flag("crack", "Crack", "a crack ship"),
        optional(
            "fittings",
            "Fittings",
            "what it had bought beyond its design (a planet: its ground defences)",
            kind="text",
            added_later=True,
        ),
    ),
    key=("battle", "ship"),
    help="The ships of each battle waiting, as the battle sheet shows them.",
)

FACILITIES = Table(
    "facilities",
    "Facilities",
    (
        Column("id", "Facility", "str"),
        Column("kind", "Kind", "str", choices=FACILITY_KINDS),
        Column("owner", "Owner", "str", refers=_commander("write a commander's name")),
        Column("place", "Place", "str", refers=_place()),
        whole("ready_week", "Ready", "being built until this week (0: working)"),
        optional("towed_by", "Towed by", "the tug that has it in tow", kind="text"),
        whole("active_from", "Working from", "hour of this week it came to work where it is"),
    ),
    key=("id",),
    help="Orbital facilities (shipyards, mining platforms, space stations), and ports being built.",
)

SCHEMA: tuple[Table, ...] = (
    SETTINGS,
    COMMANDERS,
    SYSTEMS,
    OBSTACLES,
    DESIGNS,
    SHIPS,
    FACILITIES,
    STOCKS,
    BATTLES,
    BATTLE_SHIPS,
    EVENTS_TABLE,
    DICE_TABLE,
)


def _holdings(
    check: RowProblems, table: Table, r: Row, column: str, allowed: tuple[str, ...]
) -> dict[str, int]:
    """A cell of items bought (``2 x silo, 1 x Standard squadron``); a master from before the
    column reads as none."""
    try:
        return parse_holdings(r.get(column) or "", allowed)
    except ValueError as exc:
        check.add(table, r, column, str(exc), "write COUNT x ITEM, separated by commas")
        return {}


def to_tables(state: State) -> dict[str, list[dict[str, Any]]]:
    return {
        "settings": [SETTINGS.row_of(state)],
        "commanders": [
            as_row(c) | {k: ", ".join(getattr(c, k)) for k in COMMANDER_LISTS}
            for c in state.commanders
        ],
        "systems": [
            as_row(s) | {"square": square_code(s.square), "defences": holdings_text(s.defences)}
            for s in state.systems.values()
        ],
        "obstacles": [{"square": square_code(q)} for q in sorted(state.obstacles)],
        "designs": [as_row(d) for d in state.designs.values()],
        "ships": [as_row(s) | {"stores": holdings_text(s.stores)} for s in state.ships],
        "facilities": [as_row(f) for f in state.facilities],
        "stocks": [
            {"place": place, "owner": owner, "points": points}
            for (place, owner), points in sorted(state.stocks.items())
        ],
        "battles": [{k: v for k, v in as_row(b).items() if k != "ships"} for b in state.battles],
        "battle_ships": [
            {"battle": b.id} | as_row(ship) for b in state.battles for ship in b.ships
        ],
        "events": events_to_rows(state.events),
        "dice": rolls_to_rows(state.dice),
    }


def from_tables(tables: Mapping[str, Sequence[Row]], problems: list[CellProblem]) -> State | None:
    check = RowProblems(problems)
    s = check.one_row(SETTINGS, list(tables.get("settings", [])))
    if s is None:
        return None
    columns, rows = s["columns"], s["rows"]

    def square_of(table: Table, r: Row) -> tuple[int, int] | None:
        try:
            square = parse_square(str(r["square"]))
        except ValueError as exc:
            check.add(table, r, "square", str(exc), "write the square as XXYY")
            return None
        if square[0] > columns or square[1] > rows:
            check.add(
                table,
                r,
                "square",
                f"is outside the {columns} x {rows} grid",
                "correct the square, or the grid's size on the Settings sheet",
            )
        return square

    systems: dict[str, System] = {}
    for r in tables.get("systems", []):
        square = square_of(SYSTEMS, r)
        if square is not None:
            defences = _holdings(check, SYSTEMS, r, "defences", PLANET_ITEMS)
            systems[r["name"]] = r.to(System, square=square, defences=defences)
    obstacles = set()
    for r in tables.get("obstacles", []):
        square = square_of(OBSTACLES, r)
        if square is None:
            continue
        if any(sys.square == square for sys in systems.values()):
            check.add(OBSTACLES, r, "square", "is a system's square", "remove the obstacle")
        obstacles.add(square)
    designs = {r["name"]: r.to(Design) for r in tables.get("designs", [])}
    ships = []
    for r in tables.get("ships", []):
        design = designs.get(r["design"])
        if design is not None and r["cargo"] > design.cargo_spaces:
            check.add(
                SHIPS,
                r,
                "cargo",
                f"is more than the hold of a {design.name} takes ({design.cargo_spaces})",
                "lower the cargo",
            )
        if design is not None and r["damage"] > design.boxes:
            check.add(
                SHIPS,
                r,
                "damage",
                f"is more than the {design.boxes} damage boxes of a {design.name}",
                "lower the damage, or delete the row of a destroyed ship",
            )
        if r["landed"] and design is not None and not design.streamlined:
            check.add(SHIPS, r, "landed", "only streamlined ships land", "write no")
        ships.append(r.to(Ship, stores=_holdings(check, SHIPS, r, "stores", SHIP_ITEMS)))
    battles = [r.to(Battle) for r in tables.get("battles", [])]
    by_id = {b.id: b for b in battles}
    for r in tables.get("battle_ships", []):
        by_id[r["battle"]].ships.append(r.to(InBattle))
    lists = COMMANDER_LISTS
    state = s.to(
        State,
        commanders=[
            r.to(Commander, **{k: _split(r[k]) for k in lists})
            for r in tables.get("commanders", [])
        ],
        stocks={(r["place"], r["owner"]): r["points"] for r in tables.get("stocks", [])},
        battles=battles,
        systems=systems,
        obstacles=obstacles,
        designs=designs,
        ships=ships,
        facilities=[r.to(Facility) for r in tables.get("facilities", [])],
    )
    state.events = rows_to_events(tables.get("events", []))
    state.dice = rows_to_rolls(tables.get("dice", []))
    return state


def to_json(state: State) -> dict[str, Any]:
    """The whole state as JSON-ready data (docs/json-export.md)."""
    data = plain(state)
    data["systems"] = [plain(s) | {"square": square_code(s.square)} for s in state.systems.values()]
    data["obstacles"] = [square_code(q) for q in sorted(state.obstacles)]
    data["designs"] = [plain(d) for d in state.designs.values()]
    data["stocks"] = [
        {"place": place, "owner": owner, "points": points}
        for (place, owner), points in sorted(state.stocks.items())
    ]
    data.update(history_json(state.events, state.dice))
    return data


__all__ = ["SCHEMA", "from_tables", "to_json", "to_tables"]
