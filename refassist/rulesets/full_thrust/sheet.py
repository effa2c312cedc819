"""The Full Thrust campaign's sheets: the set-up sheet, the weekly order sheet, and the battle
sheet the referee fills in after the tabletop.

The weekly sheet keeps what has a fixed size on its first page ("Orders": fleets,
construction, research, espionage, allies, a message), so every cell there can be cited in
docs/rules/full-thrust-campaign.md; the timelines, one block per ship (and a few blocks for
fleets), are on the second page ("Timelines"), where their number moves nothing else; what the
commander holds, and the map and the other commanders' ships as it knows them, are listed on
the third ("Your forces").  Everything a commander's sheet says comes from its `player_view`,
as its report does.  A timeline line is typed in three
cells (at, activity, details) or whole in the activity cell: ``at 3.1 jump Brenn 60" b4``.

The battle sheet lists both sides' ships as they came to the battle (damage, cargo, crack,
the turn they arrive on, emergence point and deviation) for the table, and has the result part
the referee fills in: per ship destroyed, damage boxes lost, captured by; the system's holder.
It is filed like a commander's sheet (``refassist intake GAME FILE``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...errors import InvalidOrder, NotATurnSheet, UsageError
from ...text.i18n import Words
from ...text.message_text import MessageBudget, escaped
from ...text.words import counted
from ...workbook.sheetio import TurnSheetFile
from ...workbook.sheetkit import SheetReader, SheetStyles, cell_rc, check_room
from ...workbook.sheetpage import Listing, Page, typing_into
from ...workbook.sheetreads import read_remembered
from ...workbook.turnbook import check_layout, meta_names, meta_number, turn_workbook
from ..base import SheetRead
from .charts import RESEARCH_FIELDS
from .clock import time_text
from .economy import FACILITIES, ITEMS, SPY_COST, holdings_text, item_cost
from .orders import SUBJECTS, FleetOrder, Mission, Orders, Purchase, ResearchOrder, Timeline
from .parse import activity_text, parse_activity
from .rules import complete
from .setup import SETUP_WEEK
from .state import NATIVES, Battle, BattleResult, Ship, State
from .timeline import KINDS
from .view import PlaceView, PlayerView
from .visibility import player_view

RULESET_NAME = "full-thrust-campaign"
GAME_TITLE = "Full Thrust campaign"
FORMAT_VERSION = "1"

ORDERS_SHEET = "Orders"
TIMELINES_SHEET = "Timelines"
FORCES_SHEET = "Your forces"
SETUP_SHEET = "Set-up"
DESIGNS_SHEET = "Designs"
BATTLE_SHEET = "Battle"

GAME_CELL, PLAYER_CELL, WEEK_CELL, DEADLINE_CELL = "B3", "B4", "B5", "B6"
HOME_POINTS_CELL, ALL_POINTS_CELL, SPIES_CELL = "F3", "F4", "F5"

FLEET_SECTION_ROW, FLEET_FIRST_ROW, FLEET_ROWS = 10, 12, 6
BUILD_SECTION_ROW, BUILD_FIRST_ROW, BUILD_ROWS = 19, 21, 8
RESEARCH_SECTION_ROW, RESEARCH_ROW = 30, 32
SPY_SECTION_ROW, SPY_FIRST_ROW, SPY_ROWS = 34, 36, 5
ALLIES_CELL = "C42"
MESSAGE_SECTION_ROW, MESSAGE_CELL, MESSAGE_LAST_ROW = 44, "B45", 50
ORDERS_PRINT_LAST_ROW = MESSAGE_LAST_ROW

#: The timelines page: blocks of a header row and ACTIVITY_ROWS lines, a blank row between.
FIRST_BLOCK_ROW = 5
ACTIVITY_ROWS = 8
BLOCK_HEIGHT = ACTIVITY_ROWS + 2
FLEET_BLOCKS = 3

SETUP_FIRST_ROW, SETUP_ROWS = 12, 12

#: The battle sheet: a row per ship from BATTLE_FIRST_ROW; the result columns.
BATTLE_FIRST_ROW = 12
DESTROYED_COL, LOST_COL, CAPTOR_COL, WITHDREW_COL = "I", "J", "K", "L"
BATTLE_HOLDER_CELL = "C9"
BATTLE_NOTES_CELL = "G9"

MAX_MESSAGE_LENGTH = 2000
MAX_COUNT = 99
_COLUMN_WIDTHS = {"A": 8, "B": 14, "C": 14, "D": 16, "E": 14, "F": 16, "G": 22}
_BATTLE_WIDTHS = {
    "A": 12,
    "B": 10,
    "C": 22,
    "D": 9,
    "E": 8,
    "F": 7,
    "G": 8,
    "H": 22,
    "I": 11,
    "J": 10,
    "K": 13,
    "L": 13,
}
YES = ("yes", "y", "x", "destroyed", "true", "1")


def block_row(block: int) -> int:
    """The header row of timeline block ``block`` (0-based) on the Timelines page."""
    return FIRST_BLOCK_ROW + block * BLOCK_HEIGHT


def _ships_in_service(view: PlayerView) -> list[Ship]:
    """The ships the week's timelines may order: those already in service and those that
    enter service as the week begins."""
    return [s for s in view.ships if s.in_service(view.week)]


def _battle(state: State, name: str) -> Battle | None:
    return next((b for b in state.battles if b.id == name), None)


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def _header(page: Page, title: str, subtitle: str, rows: list[tuple[str, str, Any]]) -> None:
    ws, st = page.ws, page.st
    ws.merge_range(0, 0, 0, page.width, title, st.title)
    ws.set_row(0, 26)
    ws.merge_range(1, 0, 1, page.width, subtitle, st.subtitle)
    for n, (label, ref, value) in enumerate(rows):
        page.labelled(f"A{n + 3}", label, ref, value, span=1)


def _figures(page: Page, figures: list[tuple[str, str, Any]]) -> None:
    for ref, label, value in figures:
        r, c = cell_rc(ref)
        page.ws.merge_range(r, c - 2, r, c - 1, label, page.st.label)
        page.value(ref, value, page.st.value)


def write_sheet(
    state: State,
    player: str,
    path: Path,
    *,
    token: str,
    deadline: str,
    house_rules: Mapping[str, Any] | None = None,
) -> None:
    """Write the sheet the current step asks of ``player`` (a commander, or a battle the
    referee settles) to ``path`` (atomically).

    A commander's sheet is written from its `player_view` alone, as its report is: what the
    sheet lists of the map and of other commanders is what the report shows, and nothing the
    fog of war hides can reach it.  The battle sheet is the referee's, from the whole state."""
    rules = complete(house_rules)
    battle = _battle(state, player)
    if battle is not None:
        _write_battle(state, battle, path, token, deadline)
    elif state.commander(player) is None:
        raise UsageError(f"{player!r} is not a commander of {state.game_name}")
    elif state.week == SETUP_WEEK:
        _write_setup(player_view(state, player, rules), path, token, deadline)
    else:
        _write_orders(player_view(state, player, rules), path, token, deadline, rules)


def _meta(
    game: tuple[str, str, int], player: str, token: str, kind: str, **more: str
) -> list[tuple[str, str]]:
    """The sheet's hidden metadata; ``game`` is the game's id, name and week."""
    game_id, game_name, week = game
    step = str(week) + ("-battles" if kind == "battle" else "")
    return [
        ("format_version", FORMAT_VERSION),
        ("ruleset", RULESET_NAME),
        ("game_id", game_id),
        ("game_name", game_name),
        ("player", player),
        ("step", step),
        ("week", str(week)),
        ("kind", kind),
        ("token", token),
        *more.items(),
    ]


def _write_orders(
    view: PlayerView,
    path: Path,
    token: str,
    deadline: str,
    rules: Mapping[str, Any] | None = None,
) -> None:
    commander = view.commander
    player = commander.name
    ships = _ships_in_service(view)
    with turn_workbook(
        path,
        title=f"{view.game_name} - week {view.week} - {player}",
        subject=f"{GAME_TITLE} order sheet",
        pages=(ORDERS_SHEET, TIMELINES_SHEET, FORCES_SHEET),
        widths=_COLUMN_WIDTHS,
    ) as book:
        orders_ws, timelines_ws, forces_ws = book.pages
        st = SheetStyles(book.wb)
        page = Page(orders_ws, st, book.lists)
        _header(
            page,
            "FULL THRUST CAMPAIGN - ORDERS",
            f"Week {view.week}: orders for every ship and fleet, in decimal time (day.hour)",
            [
                ("Game", GAME_CELL, view.game_name),
                ("Commander", PLAYER_CELL, player),
                ("Week", WEEK_CELL, view.week),
                ("Deadline", DEADLINE_CELL, deadline),
            ],
        )
        total = sum(view.stocks.values())
        _figures(
            page,
            [
                (
                    HOME_POINTS_CELL,
                    f"Points at {commander.home}",
                    view.stocks.get(commander.home, 0),
                ),
                (ALL_POINTS_CELL, "Points everywhere", total),
                (SPIES_CELL, "Spies / masters", f"{commander.spies} / {commander.master_spies}"),
            ],
        )
        page.note(
            "A7:G8",
            "Fill in the yellow cells only. Each ship's week goes on the sheet 'Timelines', a "
            "line per activity; ships, stocks and the map are on 'Your forces'. Send the sheet "
            "back as .xlsx or .ods before the deadline.",
        )
        _write_fleets(page, ships)
        _write_construction(page, view)
        _write_research(page, commander)
        _write_espionage(page, view)
        r, _ = cell_rc(ALLIES_CELL)
        orders_ws.merge_range(r, 0, r, 1, "Allied with", st.label)
        page.blank(ALLIES_CELL, st.input_text, through=f"G{r + 1}")
        page.ask(
            ALLIES_CELL,
            "Allies",
            "Commanders you are allied with this week, separated by commas. An alliance holds "
            "when both name each other; allies' ships do not fight.",
        )
        page.section(MESSAGE_SECTION_ROW, "MESSAGE TO THE REFEREE")
        r, c = cell_rc(MESSAGE_CELL)
        orders_ws.merge_range(r, c, MESSAGE_LAST_ROW - 1, page.width, "", st.input_text)
        page.ask(MESSAGE_CELL, "Message", f"Free text, at most {MAX_MESSAGE_LENGTH} characters.")
        blocks = _write_timelines(Page(timelines_ws, st, book.lists), view, ships)
        forces_rows = _write_forces(forces_ws, st, view, rules)
        book.finish(
            footer=f"{view.game_name} - {player} - week {view.week}",
            print_areas=(
                f"A1:G{ORDERS_PRINT_LAST_ROW}",
                f"A1:G{block_row(blocks)}",
                f"A1:A{max(1, forces_rows)}",
            ),
            meta=_meta(
                (view.game_id, view.game_name, view.week),
                player,
                token,
                "orders",
                blocks=str(blocks),
                ships=json.dumps([s.id for s in ships]),
            ),
        )


def _write_fleets(page: Page, ships: list[Ship]) -> None:
    st = page.st
    page.section(
        FLEET_SECTION_ROW,
        "FLEETS - ships that slave their drives together this week (one timeline, one jump roll)",
    )
    page.headers(FLEET_SECTION_ROW + 1, ("#", "Fleet name"))
    row0 = FLEET_SECTION_ROW
    page.ws.merge_range(row0, 2, row0, 6, "Ships (ids, e.g. ANN-1 ANN-4)", page.st.header)
    for row in page.numbered(FLEET_FIRST_ROW, FLEET_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_text, through=f"G{row}")
    last = FLEET_FIRST_ROW + FLEET_ROWS - 1
    page.ask(
        f"B{FLEET_FIRST_ROW}:B{last}",
        "Fleet",
        "A name for the fleet; give its timeline in a fleet block on 'Timelines'.",
    )
    page.ask(
        f"C{FLEET_FIRST_ROW}:C{last}",
        "Ships",
        "Your ships in it, all at one place: their ids separated by spaces. "
        + ("Yours: " + " ".join(s.id for s in ships))[:150],
    )


def _write_construction(page: Page, view: PlayerView) -> None:
    st = page.st
    page.section(
        BUILD_SECTION_ROW,
        "CONSTRUCTION - ships laid down at your yards (in service next week), spies hired",
    )
    page.headers(BUILD_SECTION_ROW + 1, ("#", "Design", "Count", "Where (yard)"))
    for row in page.numbered(BUILD_FIRST_ROW, BUILD_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_number)
        page.blank(f"D{row}", st.input_text)
    last = BUILD_FIRST_ROW + BUILD_ROWS - 1
    page.ask(
        f"B{BUILD_FIRST_ROW}:B{last}",
        "Design",
        "A design; a facility (shipyard 500, omp 500, station, starport 1000, spaceport 500); "
        "spy 250 / master spy 500; for a planet: fortification 5 a space, ground weapons, "
        "silo, squadrons; for a ship (its id under Where): squadrons, reloads, Repair "
        "Facility 50. Prices on 'Your forces'.",
        [*view.designs, *FACILITIES, *SPY_COST, *ITEMS],
        strict=True,
    )
    page.whole_number(f"C{BUILD_FIRST_ROW}:C{last}", "Count", "How many (blank = 1).", 1, MAX_COUNT)
    player = view.commander.name
    yards = sorted(
        view.yards | {p.name for p in view.places if p.owner == player and p.port == "starport"}
    )
    page.ask(
        f"D{BUILD_FIRST_ROW}:D{last}",
        "Where",
        "The place of your shipyard (any design) or starport (streamlined only), the planet "
        "for its defences, or the ship's id for its stores; paid from the points stored there. "
        "Blank: your home.",
        yards,
    )


def _write_research(page: Page, commander: Any) -> None:
    st = page.st
    page.section(RESEARCH_SECTION_ROW, "RESEARCH AND DEVELOPMENT - paid at home")
    page.headers(RESEARCH_SECTION_ROW + 1, ("", "Research rolls", "Aimed at", "Develop", "Points"))
    row = RESEARCH_ROW
    for col, fmt in (("B", st.input_number), ("C", st.input_text), ("D", st.input_text)):
        page.blank(f"{col}{row}", fmt)
    page.blank(f"E{row}", st.input_number)
    fields = [f"{n} {name}" for n, (name, _) in sorted(RESEARCH_FIELDS.items())]
    page.whole_number(f"B{row}", "Research rolls", "Rolls on the Research Table, 100 each.", 1, 20)
    page.ask(
        f"C{row}",
        "Aimed at",
        "Optional: the field you aim at, declared before the roll (a roll within one of it "
        "succeeds, anything else finds nothing).",
        fields,
        strict=True,
    )
    page.ask(
        f"D{row}",
        "Develop",
        "A field you have discovered, to develop with the points at the right.",
        commander.discoveries,
    )
    page.whole_number(
        f"E{row}", "Points", "Points spent developing it (1% per 10, by its cost).", 1, 100_000
    )


def _write_espionage(page: Page, view: PlayerView) -> None:
    st = page.st
    page.section(SPY_SECTION_ROW, "ESPIONAGE - counter-espionage is rolled first")
    page.headers(SPY_SECTION_ROW + 1, ("#", "Spies", "Master spies", "Target", "Subject", "Points"))
    for row in page.numbered(SPY_FIRST_ROW, SPY_ROWS):
        for col, fmt in (("B", st.input_number), ("C", st.input_number), ("D", st.input_text)):
            page.blank(f"{col}{row}", fmt)
        page.blank(f"E{row}", st.input_text)
        page.blank(f"F{row}", st.input_number)
    first, last = SPY_FIRST_ROW, SPY_FIRST_ROW + SPY_ROWS - 1
    page.whole_number(f"B{first}:B{last}", "Spies", "10% each.", 0, 5)
    page.whole_number(f"C{first}:C{last}", "Master spies", "15% each.", 0, 1)
    page.ask(
        f"D{first}:D{last}",
        "Target",
        "The commander spied on (for counter-espionage: blank, your own spies guard you).",
        list(view.rivals),
    )
    page.choose(
        f"E{first}:E{last}",
        "Subject",
        "fleet: where its ships are, their fuel; research: what it found; industry: its "
        "stocks and holds (chance doubled); counter-espionage: catch spies sent against you.",
        SUBJECTS,
    )
    page.whole_number(
        f"F{first}:F{last}", "Points", "+1% per 10 points, at most doubling the chance.", 0, 10_000
    )


def _write_timelines(page: Page, view: PlayerView, ships: list[Ship]) -> int:
    ws, st = page.ws, page.st
    player = view.commander.name
    for col, width in _COLUMN_WIDTHS.items():
        c = ord(col) - 65
        ws.set_column(c, c, width)
    ws.merge_range(0, 0, 0, 6, f"TIMELINES - {player} - week {view.week}", st.title)
    page.note(
        "A2:G3",
        "One block per ship; a fleet's block takes the fleet's name. A line per activity, in "
        "order (the list in each Activity cell; details in its input message); a time (day.hour) "
        'only to wait for it. E.g. load 200 | jump Brenn 60" b4 | at 5.1 land.',
    )
    page.headers(FIRST_BLOCK_ROW - 1, ("#", "At (D.H)", "Activity"))
    ws.merge_range(
        FIRST_BLOCK_ROW - 2,
        3,
        FIRST_BLOCK_ROW - 2,
        6,
        "Details (target, amount, until ...)",
        st.header,
    )
    units = [(s.id, _ship_line(view, s)) for s in ships] + [("", "")] * FLEET_BLOCKS
    activities = [k for k in KINDS]
    for n, (unit, line) in enumerate(units):
        top = block_row(n)
        ws.write_string(top - 1, 0, "Fleet" if not unit else "Ship", st.label)
        if unit:
            page.value(f"B{top}", unit, st.value)
            ws.merge_range(top - 1, 2, top - 1, 6, line, st.note)
        else:
            page.blank(f"B{top}", st.input_text)
            ws.merge_range(top - 1, 2, top - 1, 6, "A fleet of yours (its name)", st.note)
            page.ask(f"B{top}", "Fleet", "The name of a fleet formed on the Orders page.")
        rows = page.numbered(top + 1, ACTIVITY_ROWS)
        for row in rows:
            page.blank(f"B{row}", st.input_text)
            page.blank(f"C{row}", st.input_text)
            page.blank(f"D{row}", st.input_text, through=f"G{row}")
        first, last = rows[0], rows[-1]
        page.ask(
            f"B{first}:B{last}",
            "At",
            "Optional: the time (day.hour, e.g. 3.1) the activity is to start, not before.",
        )
        page.ask(
            f"C{first}:C{last}",
            "Activity",
            'What the ship does next; or the whole line here, e.g. jump Brenn 60" b4.',
            activities,
        )
        page.ask(
            f"D{first}:D{last}",
            "Details",
            'jump: TARGET [60"] [b4] [from 25"]; load/unload/sell: points or all (unload 200 '
            "to Bob gives them to Bob at his planet); wait/guard: until D.H; refuel: from SHIP; "
            "tow, demolish: FACILITY (demolish alone: the ship).",
        )
    return len(units)


def _ship_line(view: PlayerView, ship: Ship) -> str:
    """One of the commander's own ships: everything it knows of it."""
    design = view.designs.get(ship.design)
    hold = f", cargo {ship.cargo}/{design.cargo_spaces}" if design and design.hold else ""
    where = "landed on" if ship.landed else "at"
    drive = "" if ship.drive == "ok" else f", FTL drive {ship.drive}"
    ready = f", drive ready at {time_text(ship.ready_at)}" if ship.ready_at else ""
    item = f", an ancient item worth {ship.item} aboard" if ship.item else ""
    if ship.scrapping:
        # It takes no orders: its block's lines are refused until the work is done.
        ready = f", being scrapped ({ship.scrapping} hours left; no orders)"
    return f"{ship.design} {where} {ship.place}, fuel {ship.fuel}{hold}{drive}{item}{ready}"


def _write_forces(
    ws: Any, st: SheetStyles, view: PlayerView, rules: Mapping[str, Any] | None = None
) -> int:
    """The page 'Your forces': the commander's own ledger, then the map and the other
    commanders' ships as its report shows them (`view.PlaceView.features`,
    `PlayerView.ships_at`), and the design list."""
    player = view.commander.name
    ws.set_column(0, 0, 110)
    page = Listing(ws, st, f"{view.game_name} - {player} - week {view.week}")
    page.block(
        "YOUR SHIPS (id design - place - fuel - cargo - damage)",
        [
            f"{s.id} {_ship_line(view, s)}, damage {s.damage}"
            + (
                f" (in service week {s.ready_week})"
                if not s.in_service(view.week)
                else " (enters service this week)"
                if s.ready_week
                else ""
            )
            + (" - crack" if s.crack else "")
            + (f" - {holdings_text(s.stores)}" if s.stores else "")
            for s in view.ships
        ],
        "You have no ships.",
    )
    page.block(
        "YOUR STOCKS (production points stored)",
        [f"{place}: {points}" for place, points in view.stocks.items()],
        "(none)",
    )
    page.block(
        "YOUR FACILITIES AND PLANETS",
        [f"{f.id}: {f.kind} at {f.place}" for f in view.facilities]
        + [
            f"{p.name} ({p.value}){' ' + p.port if p.port else ''}"
            + (f" - {holdings_text(p.defences)}" if p.defences else "")
            for p in view.places
            if p.owner == player
        ],
        "(none)",
    )
    commander = view.commander
    page.block(
        "RESEARCH (discovered; developed)",
        [f"discovered {f}" for f in commander.discoveries]
        + [f"developed {f}" for f in commander.developed],
        "Nothing yet.",
    )
    page.block(
        "THE MAP AS YOU KNOW IT (name square - Value - holder - belt, site, port - ships there; "
        "holders and ports only where you have a ship or a planet)",
        [_place_line(view, p) for p in view.places],
        "(none)",
    )
    page.block(
        "OTHER COMMANDERS' SHIPS YOU SEE (id owner - design - place)",
        [f"{s.tag} {s.design} {'landed on' if s.landed else 'at'} {s.place}" for s in view.seen],
        "(none in sight)",
    )
    page.block(
        "DESIGNS (name mass cost size type hold FTL streamlined boxes fire control ortillery)",
        [_design_line(d) for d in view.designs.values()],
        "(none)",
    )
    prices = complete(rules)
    page.block(
        "ITEMS ON THE CONSTRUCTION LINES (points each; Where: a planet of yours, or a ship's id)",
        [", ".join(f"{item} {item_cost(item, prices)}" for item in ITEMS)],
        "(none)",
    )
    return page.rows


def _place_line(view: PlayerView, p: PlaceView) -> str:
    """A place of the map as the commander's report shows it on its map page."""
    value, *extra = p.features()
    ships = view.ships_at(p.name)
    parts = [p.label, value, p.holder, *extra]
    if ships:
        parts.append(f"ships: {', '.join(ships)}")
    return " - ".join(part for part in parts if part)


def _design_line(d: Any) -> str:
    """A design and every figure a commander buys it for, fire control and ortillery too
    (they decide scans on the table and the support of an invasion)."""
    words = Words()
    fire = words.counted_as(d.fire_control, "fire-control unit", "fire-control units")
    ortillery = words.counted_as(d.ortillery, "ortillery system", "ortillery systems")
    return (
        f"{d.name}: mass {d.mass}, cost {d.cost}, {d.size}, {d.kind}, hold {d.hold}"
        f"{', FTL' if d.ftl else ''}{', streamlined' if d.streamlined else ''}, {d.boxes} boxes"
        f", {fire}, {ortillery}"
    )


def _write_setup(view: PlayerView, path: Path, token: str, deadline: str) -> None:
    commander = view.commander
    player = commander.name
    with turn_workbook(
        path,
        title=f"{view.game_name} - set-up - {player}",
        subject=f"{GAME_TITLE} set-up sheet",
        pages=(SETUP_SHEET, DESIGNS_SHEET),
        widths=_COLUMN_WIDTHS,
    ) as book:
        ws, designs_ws = book.pages
        st = SheetStyles(book.wb)
        page = Page(ws, st, book.lists)
        _header(
            page,
            "FULL THRUST CAMPAIGN - SET-UP",
            f"Buy your starting fleet with {commander.points} points; it starts at "
            f"{commander.home}",
            [
                ("Game", GAME_CELL, view.game_name),
                ("Commander", PLAYER_CELL, player),
                ("Home", WEEK_CELL, commander.home),
                ("Deadline", DEADLINE_CELL, deadline),
            ],
        )
        _figures(page, [(HOME_POINTS_CELL, "Points to spend", commander.points)])
        page.note(
            "A7:G9",
            "Choose designs and counts. Ships start fully armed and fuelled at your home with "
            "empty holds; points not spent are stored there as production points. A few "
            "merchants are advisable. The designs and their figures are on 'Designs'.",
        )
        page.section(SETUP_FIRST_ROW - 1, "YOUR STARTING FLEET")
        page.headers(SETUP_FIRST_ROW, ("#", "Design", "", "", "Count"))
        rows = page.numbered(SETUP_FIRST_ROW + 1, SETUP_ROWS)
        for row in rows:
            page.blank(f"B{row}", st.input_text, through=f"D{row}")
            page.blank(f"E{row}", st.input_number)
        page.ask(
            f"B{rows[0]}:B{rows[-1]}",
            "Design",
            "A design from the list.",
            view.designs,
            strict=True,
        )
        page.whole_number(f"E{rows[0]}:E{rows[-1]}", "Count", "How many.", 1, MAX_COUNT)
        listing = Listing(designs_ws, st, "DESIGNS")
        designs_ws.set_column(0, 0, 100)
        listing.block(
            "name: mass, cost, size, type, hold (MASS; 50 points each), FTL, streamlined, "
            "boxes, fire control, ortillery",
            [_design_line(d) for d in view.designs.values()],
            "(none)",
        )
        book.finish(
            footer=f"{view.game_name} - {player} - set-up",
            print_areas=(f"A1:G{rows[-1]}", f"A1:A{listing.rows}"),
            meta=_meta((view.game_id, view.game_name, view.week), player, token, "setup"),
        )


def _write_battle(state: State, battle: Battle, path: Path, token: str, deadline: str) -> None:
    system = state.systems[battle.place]
    with turn_workbook(
        path,
        title=f"{state.game_name} - battle {battle.id} at {battle.place}",
        subject=f"{GAME_TITLE} battle sheet",
        pages=(BATTLE_SHEET,),
        widths=_BATTLE_WIDTHS,
    ) as book:
        (ws,) = book.pages
        st = SheetStyles(book.wb)
        page = Page(ws, st, book.lists, width=10)
        _header(
            page,
            f"FULL THRUST CAMPAIGN - BATTLE {battle.id}",
            f"At {battle.place}, week {battle.week}, from {time_text(battle.hour)}; "
            f"one tabletop turn is one hour. Fight it on the table, then fill in the yellow cells.",
            [
                ("Game", GAME_CELL, state.game_name),
                ("Battle", PLAYER_CELL, battle.id),
                ("Place", WEEK_CELL, battle.place),
                ("Deadline", DEADLINE_CELL, deadline),
            ],
        )
        notes = table_notes(state, battle)
        page.note("E3:K7", " ".join(notes))
        ws.merge_range(8, 0, 8, 1, "System held by", st.label)
        page.blank(BATTLE_HOLDER_CELL, st.input_text, through="D9")
        sides = battle.sides
        page.ask(
            BATTLE_HOLDER_CELL,
            "Held by",
            "Who holds the system after the battle (blank: as before"
            + (f", {system.owner}" if system.owner else "")
            + ")."
            + (
                " A neutral planet goes only to its invader."
                if system.planet and not system.owner
                else ""
            ),
            sides,
            strict=True,
        )
        ws.merge_range(8, 4, 8, 5, "Referee's notes", st.label)
        page.blank(BATTLE_NOTES_CELL, st.input_text, through="K9")
        page.ask(BATTLE_NOTES_CELL, "Notes", "Anything the reports should say of the battle.")
        page.section(BATTLE_FIRST_ROW - 1, "THE FORCES AS THEY CAME - AND THE RESULT (yellow)")
        page.headers(
            BATTLE_FIRST_ROW,
            (
                "Ship",
                "Side",
                "Design",
                "Boxes lost",
                "Cargo",
                "Crack",
                "Turn in",
                "Emergence (deviation)",
                "Destroyed",
                "Boxes lost now",
                "Captured by",
                "Withdrew to",
            ),
        )
        rows = range(BATTLE_FIRST_ROW + 1, BATTLE_FIRST_ROW + 1 + len(battle.ships))
        for row, s in zip(rows, battle.ships, strict=True):
            design = state.designs.get(s.design)
            boxes = f"{s.damage}/{design.boxes}" if design else "-"
            emergence = (
                "landed"
                if s.inches == 0
                else f'{s.inches}" b{s.bearing}'
                + (f' ({s.deviation}" b{s.deviation_bearing})' if s.deviation else "")
            )
            for col, value in zip(
                "ABCDEFGH",
                (
                    s.ship,
                    s.owner,
                    f"{s.design} ({s.fittings})" if s.fittings else s.design,
                    boxes,
                    s.cargo,
                    "yes" if s.crack else "",
                    s.arrives,
                    emergence,
                ),
                strict=True,
            ):
                page.value(f"{col}{row}", value, st.ref)
            for col in (DESTROYED_COL, LOST_COL, CAPTOR_COL, WITHDREW_COL):
                page.blank(f"{col}{row}", st.input_text)
        last = rows[-1] if rows else BATTLE_FIRST_ROW
        page.ask(
            f"{DESTROYED_COL}{rows[0]}:{DESTROYED_COL}{last}",
            "Destroyed",
            "yes for a ship destroyed in the battle.",
            ("yes",),
            inline=True,
        )
        page.whole_number(
            f"{LOST_COL}{rows[0]}:{LOST_COL}{last}",
            "Boxes lost",
            "Damage boxes the ship lost in this battle (a merchant loses as much of its cargo).",
            0,
            1000,
        )
        page.ask(
            f"{CAPTOR_COL}{rows[0]}:{CAPTOR_COL}{last}",
            "Captured by",
            "The side that captured the ship, if one did.",
            [side for side in sides if side != NATIVES],
        )
        page.ask(
            f"{WITHDREW_COL}{rows[0]}:{WITHDREW_COL}{last}",
            "Withdrew to",
            "The place the ship jumped away to, within one jump (blank: it stayed here).",
            sorted(name for name in state.systems if name != battle.place),
        )
        book.finish(
            footer=f"{state.game_name} - battle {battle.id}",
            print_areas=(f"A1:L{last}",),
            landscape=True,
            meta=_meta(
                (state.game_id, state.game_name, state.week),
                battle.id,
                token,
                "battle",
                ships=json.dumps([s.ship for s in battle.ships]),
                sides=json.dumps(sides),
            ),
        )


def table_notes(state: State, battle: Battle) -> list[str]:
    """What the tabletop needs beyond the ships (the seed's notes for battles): on the battle
    sheet and on the referee's printable battle page alike."""
    system = state.systems[battle.place]
    notes = []
    if system.planet:
        notes.append(f"{system.name} has a planet of Value {system.value}.")
    if system.port:
        sensors = "superior" if system.port == "starport" else "enhanced"
        units = Words().counted_as(
            max(1, system.value // 2), "fire-control unit", "fire-control units"
        )
        notes.append(f"Its {system.port} counts as {sensors} sensors with {units}.")
    if system.owner and system.owner in battle.sides and system.home:
        notes.append(f"{system.owner} defends a home system: its ramming is automatic.")
    if battle.invasion:
        natives = [state.designs.get(s.design) for s in battle.ships if s.owner == NATIVES]
        boxes = sum(d.boxes for d in natives if d is not None)
        notes.append(
            f"{battle.invasion} invades: the natives' {len(natives)} ships (book designs, "
            f"{system.indigenous} points) break, and the planet surrenders, at 50% of their "
            f"{boxes} damage boxes."
        )
    notes.append("Scans are limited by fire-control units; stacked screens count three levels.")
    designs = [state.designs.get(s.design) for s in battle.ships]
    if any(d is not None and d.kind == "carrier" for d in designs):
        notes.append(
            "A carrier may take on up to twice its own fighters orphaned by the loss of "
            "theirs, but then cannot launch."
        )
    pods = [
        c.name
        for c in state.commanders
        if c.name in battle.sides and "Boarding Pods" in c.developed
    ]
    if pods:
        notes.append(
            f'Boarding pods ({", ".join(pods)}): range 9", at most 3" a turn of velocity '
            "difference, the target's bearing within 3; a pod's mass is 10% of the ship's "
            "(rounded up), its cost 3 x its mass."
        )
    return notes


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


class _Reader(SheetReader):
    """Reads the input cells of one opened sheet, collecting problems."""

    def __init__(self, sheet: TurnSheetFile, page: str) -> None:
        super().__init__(sheet, page)

    def count(self, ref: str, what: str, default: int = 0, highest: int = 100_000) -> int:
        text = self.raw(ref)
        if not text:
            return default
        if not (text.isascii() and text.isdigit()):
            self.error(
                ref,
                text,
                f"the {what} is not a whole number",
                f"Type a whole number, e.g. {min(highest, 2)}.",
            )
            return default
        if len(text) > 12 or int(text) > highest:
            self.error(
                ref,
                text,
                f"the {what} is too large: at most {highest:,}",
                f"Type a whole number from 0 to {highest:,}.",
            )
            return default
        return int(text)

    def _fleet_block(self, top: int) -> bool:
        """Whether the block at row ``top`` is one for a fleet (its name typed by the
        commander), not a ship's (its id written by the tool)."""
        return self.sheet.sheet(self.name)[f"A{top}"].value == "Fleet"

    def timelines(self, orders: Orders, blocks: int) -> None:
        for n in range(blocks):
            top = block_row(n)
            unit = self.text(f"B{top}")
            lines = []
            tried = False
            for row in range(top + 1, top + 1 + ACTIVITY_ROWS):
                parts = [self.text(f"{c}{row}") for c in "BCD"]
                if not any(parts):
                    continue
                tried = True
                at, kind, details = parts
                text = " ".join(p for p in (f"at {at}" if at else "", kind, details) if p)
                try:
                    read = parse_activity(text, cell=f"C{row}")
                except InvalidOrder as exc:
                    self.invalid(exc, f"C{row}")
                    continue
                lines.append(replace(read, cell=f"{TIMELINES_SHEET}!C{row}"))
            if not lines:
                if unit and not tried and self._fleet_block(top):
                    # A fleet named with nothing under it would be dropped without a word:
                    # the commander meant something by writing the name.
                    self.error(
                        f"B{top}",
                        unit,
                        "this fleet block has no activity, so the fleet has no timeline",
                        "Write its activities on the lines below, or clear the name.",
                        severity="warning",
                    )
                continue
            if not unit:
                self.error(
                    f"B{top}",
                    lines[0].text,
                    "this fleet block names no fleet",
                    "Write the fleet's name, as on the Orders page.",
                )
                continue
            orders.timelines.append(Timeline(unit, lines, cell=f"{TIMELINES_SHEET}!B{top}"))


def read_opened(sheet: TurnSheetFile) -> SheetRead:
    check_layout(sheet, RULESET_NAME, GAME_TITLE, (FORMAT_VERSION,))
    week = meta_number(sheet, "week", 0, 100_000)
    kind = sheet.meta.get("kind", "")
    player = sheet.meta.get("player", "")
    if not player or kind not in ("orders", "setup", "battle"):
        raise NotATurnSheet(f"{sheet.name}: the sheet's kind or player is damaged")
    if kind == "battle":
        return _read_battle(sheet, player)
    if kind == "setup":
        return _read_setup(sheet, player)
    return _read_orders(sheet, player, week)


def _read_setup(sheet: TurnSheetFile, player: str) -> SheetRead:
    sheet.sheet(SETUP_SHEET)
    reader = _Reader(sheet, SETUP_SHEET)
    orders = Orders(player, SETUP_WEEK)
    for row in range(SETUP_FIRST_ROW + 1, SETUP_FIRST_ROW + 1 + SETUP_ROWS):
        design = reader.raw(f"B{row}")
        count = reader.count(f"E{row}", "count", 1 if design else 0, MAX_COUNT)
        if design:
            orders.purchases.append(Purchase(design, count, cell=f"{SETUP_SHEET}!B{row}"))
        elif reader.raw(f"E{row}"):
            reader.error(f"B{row}", str(count), "a count without a design", "Choose the design.")
    return SheetRead(orders=orders, problems=reader.problems, meta=dict(sheet.meta))


def _read_orders(sheet: TurnSheetFile, player: str, week: int) -> SheetRead:
    sheet.sheet(ORDERS_SHEET)
    orders = Orders(player, week)
    reader = _Reader(sheet, ORDERS_SHEET)
    for row in range(FLEET_FIRST_ROW, FLEET_FIRST_ROW + FLEET_ROWS):
        name, ships = reader.raw(f"B{row}"), reader.raw(f"C{row}")
        if name or ships:
            ids = ships.replace(",", " ").split()
            orders.fleets.append(FleetOrder(name, ids, cell=f"{ORDERS_SHEET}!B{row}"))
    for row in range(BUILD_FIRST_ROW, BUILD_FIRST_ROW + BUILD_ROWS):
        design = reader.raw(f"B{row}")
        count = reader.count(f"C{row}", "count", 1, MAX_COUNT)
        place = reader.raw(f"D{row}")
        if design:
            orders.purchases.append(Purchase(design, count, place, cell=f"{ORDERS_SHEET}!B{row}"))
    row = RESEARCH_ROW
    rolls = reader.count(f"B{row}", "number of research rolls", 0, 20)
    aim_text, develop = reader.raw(f"C{row}"), reader.raw(f"D{row}")
    points = reader.count(f"E{row}", "points", 0)
    aim = 0
    if aim_text:
        number = aim_text.split()[0]
        if number.isdigit() and int(number) in RESEARCH_FIELDS:
            aim = int(number)
        else:
            reader.error(
                f"C{row}", aim_text, "is not a field of the Research Table", "Choose from the list."
            )
    if rolls or develop or points:
        orders.research = ResearchOrder(rolls, aim, develop, points, cell=f"{ORDERS_SHEET}!B{row}")
    for row in range(SPY_FIRST_ROW, SPY_FIRST_ROW + SPY_ROWS):
        spies = reader.count(f"B{row}", "number of spies", 0, 5)
        masters = reader.count(f"C{row}", "number of master spies", 0, 1)
        target, subject = reader.raw(f"D{row}"), reader.raw(f"E{row}").lower()
        spent = reader.count(f"F{row}", "points", 0, 10_000)
        if not (spies or masters or target or subject):
            continue
        if subject not in SUBJECTS:
            reader.error(
                f"E{row}", subject, "is not a subject of espionage", "Choose from the list."
            )
            continue
        if subject == "counter-espionage":
            target = player
        orders.missions.append(
            Mission(spies, masters, target, subject, spent, cell=f"{ORDERS_SHEET}!B{row}")
        )
    allies = reader.raw(ALLIES_CELL)
    orders.allies = [a.strip() for a in allies.split(",") if a.strip()]
    orders.allies_cell = f"{ORDERS_SHEET}!{ALLIES_CELL}" if allies else ""
    message = escaped(reader.raw(MESSAGE_CELL)).strip()
    if len(message) > MAX_MESSAGE_LENGTH:
        reader.error(
            MESSAGE_CELL,
            message[:80],
            f"the message is {len(message)} characters long",
            f"Shorten it to {MAX_MESSAGE_LENGTH}.",
        )
    else:
        orders.message = MessageBudget().shape(reader.raw(MESSAGE_CELL)).text
    sheet.sheet(TIMELINES_SHEET)
    timelines = _Reader(sheet, TIMELINES_SHEET)
    blocks = meta_number(sheet, "blocks", 0, 10_000)
    timelines.timelines(orders, blocks)
    return SheetRead(
        orders=orders, problems=reader.problems + timelines.problems, meta=dict(sheet.meta)
    )


def _read_battle(sheet: TurnSheetFile, battle: str) -> SheetRead:
    sheet.sheet(BATTLE_SHEET)
    reader = _Reader(sheet, BATTLE_SHEET)
    ships = meta_names(sheet, "ships")
    result = BattleResult(battle, cell=f"{BATTLE_SHEET}!{BATTLE_HOLDER_CELL}")
    result.holder = reader.raw(BATTLE_HOLDER_CELL)
    result.notes = escaped(reader.raw(BATTLE_NOTES_CELL))[:MAX_MESSAGE_LENGTH]
    for n, ship in enumerate(ships):
        row = BATTLE_FIRST_ROW + 1 + n
        result.cells[ship] = f"{BATTLE_SHEET}!{DESTROYED_COL}{row}"
        destroyed = reader.raw(f"{DESTROYED_COL}{row}").lower()
        if destroyed and destroyed not in YES and destroyed not in ("no", "n"):
            reader.error(
                f"{DESTROYED_COL}{row}",
                destroyed,
                "is not yes or no",
                "Write yes, or leave it blank.",
            )
        if destroyed in YES:
            result.destroyed.append(ship)
        lost = reader.count(f"{LOST_COL}{row}", "number of boxes lost", 0, 1000)
        if lost:
            result.damage[ship] = lost
        captor = reader.raw(f"{CAPTOR_COL}{row}")
        if captor:
            result.captured[ship] = captor
        # Sheets written before the column have nothing there: every ship stayed.
        withdrew = reader.raw(f"{WITHDREW_COL}{row}")
        if withdrew:
            result.withdrew[ship] = withdrew
            result.withdrew_cells[ship] = f"{BATTLE_SHEET}!{WITHDREW_COL}{row}"
    return SheetRead(orders=result, problems=reader.problems, meta=dict(sheet.meta))


def read_sheet(path: Path, opened: TurnSheetFile | None = None) -> SheetRead:
    """Read a sheet a commander (or the referee, for a battle) sent; `NotATurnSheet` for
    anything that is not a usable sheet of this game.  The same bytes read again are answered
    from memory (`sheetreads`)."""
    return read_remembered(Path(path), opened, read_opened)


# --------------------------------------------------------------------------------------------
# Filling in (computer commanders, the demo's stand-in results, tests) and the orders as text
# --------------------------------------------------------------------------------------------


def fill_sheet(path: Path, orders: Any) -> None:
    """Type ``orders`` (or a battle's result) into the sheet at ``path`` as a player would."""
    if isinstance(orders, BattleResult):
        _fill_battle(path, orders)
    elif orders.week == SETUP_WEEK:
        check_room("designs", len(orders.purchases), SETUP_ROWS)
        with typing_into(path, SETUP_SHEET) as (put, _):
            for row, p in enumerate(orders.purchases, start=SETUP_FIRST_ROW + 1):
                put(f"B{row}", p.design)
                put(f"E{row}", p.count)
    else:
        _fill_orders(path, orders)


def _fill_orders(path: Path, orders: Orders) -> None:
    check_room("fleets", len(orders.fleets), FLEET_ROWS)
    check_room("construction lines", len(orders.purchases), BUILD_ROWS)
    check_room("missions", len(orders.missions), SPY_ROWS)
    with typing_into(path, ORDERS_SHEET) as (put, ws):
        for row, f in enumerate(orders.fleets, start=FLEET_FIRST_ROW):
            put(f"B{row}", f.name)
            put(f"C{row}", " ".join(f.ships))
        for row, p in enumerate(orders.purchases, start=BUILD_FIRST_ROW):
            put(f"B{row}", p.design)
            put(f"C{row}", p.count)
            if p.place:
                put(f"D{row}", p.place)
        r = orders.research
        if r is not None:
            row = RESEARCH_ROW
            for col, value in (("B", r.rolls), ("E", r.points)):
                if value:
                    put(f"{col}{row}", value)
            if r.aim:
                put(f"C{row}", f"{r.aim} {RESEARCH_FIELDS[r.aim][0]}")
            if r.develop:
                put(f"D{row}", r.develop)
        for row, m in enumerate(orders.missions, start=SPY_FIRST_ROW):
            put(f"B{row}", m.spies)
            put(f"C{row}", m.master_spies)
            if m.subject != "counter-espionage":
                put(f"D{row}", m.target)
            put(f"E{row}", m.subject)
            if m.points:
                put(f"F{row}", m.points)
        if orders.allies:
            put(ALLIES_CELL, ", ".join(orders.allies))
        if orders.message:
            put(MESSAGE_CELL, orders.message)
        timelines = ws.parent[TIMELINES_SHEET]
        ships: dict[str, int] = {}
        free: list[int] = []
        n = 0
        while timelines[f"A{block_row(n)}"].value in ("Ship", "Fleet"):
            if timelines[f"A{block_row(n)}"].value == "Ship":
                ships[str(timelines[f"B{block_row(n)}"].value)] = n
            else:
                free.append(n)
            n += 1
        blocks = ships
        for t in orders.timelines:
            check_room(f"activities of {t.unit}", len(t.activities), ACTIVITY_ROWS)
            block = blocks.get(t.unit)
            if block is None:
                if not free:
                    raise UsageError(f"no free block on the sheet for the timeline of {t.unit}")
                block = free.pop(0)
                timelines[f"B{block_row(block)}"].value = t.unit
                timelines[f"B{block_row(block)}"].data_type = "s"
            for row, a in enumerate(t.activities, start=block_row(block) + 1):
                cell = timelines[f"C{row}"]
                cell.value = activity_text(a)
                cell.data_type = "s"


def _fill_battle(path: Path, result: BattleResult) -> None:
    with typing_into(path, BATTLE_SHEET) as (put, ws):
        rows = {}
        row = BATTLE_FIRST_ROW + 1
        while ws[f"A{row}"].value:
            rows[str(ws[f"A{row}"].value)] = row
            row += 1
        for ship in result.destroyed:
            put(f"{DESTROYED_COL}{rows[ship]}", "yes")
        for ship, lost in result.damage.items():
            put(f"{LOST_COL}{rows[ship]}", lost)
        for ship, captor in result.captured.items():
            put(f"{CAPTOR_COL}{rows[ship]}", captor)
        for ship, place in result.withdrew.items():
            put(f"{WITHDREW_COL}{rows[ship]}", place)
        if result.holder:
            put(BATTLE_HOLDER_CELL, result.holder)
        if result.notes:
            put(BATTLE_NOTES_CELL, result.notes)


def orders_text(orders: Any) -> list[str]:
    """The orders (or a battle's result) as the referee understood them, a line each."""
    if isinstance(orders, BattleResult):
        lines = [f"{ship} destroyed" for ship in orders.destroyed]
        lines += [
            f"{ship} loses {counted(lost, 'damage box', 'damage boxes')}"
            for ship, lost in orders.damage.items()
        ]
        lines += [f"{ship} captured by {who}" for ship, who in orders.captured.items()]
        lines += [f"{ship} withdrew to {place}" for ship, place in orders.withdrew.items()]
        if orders.holder:
            lines.append(f"{orders.holder} holds the system")
        return lines or ["No losses."]
    lines = [
        f"Buy {p.count} x {p.design}" + (f" at {p.place}" if p.place else "")
        for p in orders.purchases
    ]
    lines += [f"Fleet {f.name}: {' '.join(f.ships)}" for f in orders.fleets]
    for t in orders.timelines:
        lines.append(f"{t.unit}: " + "; ".join(activity_text(a) for a in t.activities))
    r = orders.research
    if r is not None:
        if r.rolls:
            aim = f" aimed at {RESEARCH_FIELDS[r.aim][0]}" if r.aim else ""
            lines.append(f"Research: {r.rolls} roll(s){aim}")
        if r.develop:
            lines.append(f"Develop {r.develop} with {r.points} points")
    for m in orders.missions:
        who = "" if m.subject == "counter-espionage" else f" on {m.target}"
        lines.append(
            f"Espionage{who}: {m.subject}, {m.spies} spies, {m.master_spies} master, "
            f"{m.points} points"
        )
    if orders.allies:
        lines.append(f"Allied with {', '.join(orders.allies)}")
    if orders.message:
        lines.append(f"Message to the referee: {orders.message}")
    return lines or ["No orders."]


__all__ = [
    "BATTLE_SHEET",
    "ORDERS_SHEET",
    "TIMELINES_SHEET",
    "block_row",
    "fill_sheet",
    "orders_text",
    "read_sheet",
    "write_sheet",
]
