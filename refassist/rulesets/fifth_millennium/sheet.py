"""The Fifth Millennium turn sheet: writing it, reading it back, filling it in like a player.

The sheet is meant to feel like the printed order sheet of the rules: a title block, the
player's figures, clear sections for fleet movements, production, diplomacy and messages, and
the player's systems in the game's own notation.  Input cells are pale yellow and unlocked;
everything else is locked (sheet protection without a password: it guards against slips, not
against a determined player, and the tool never trusts anything but the input cells anyway).
Values that come from a list have a dropdown and an input message; the print layout is A4,
one page wide.  A very hidden ``_meta`` sheet carries the game id, the player, the year, a
per-player per-turn token and the format version, so a sheet sent for the wrong player or turn
is recognised.

Every cell is fixed by the constants below so that ``docs/turn-sheet.md`` can cite them and
scripts can fill a sheet; the variable-length read-only lists (your systems, fleets in
hyperspace, systems in sight) live on the second sheet, "Your empire", where their length
moves nothing a player types into.

Writing uses xlsxwriter with every automatic conversion off (a player's name such as
``=cmd|...`` stays text); reading goes through `refassist.workbook.sheetio`, which refuses
anything that is not a genuine, harmless ``.xlsx`` before openpyxl sees it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...errors import InvalidOrder, NotATurnSheet, UsageError
from ...geometry.hexmap import subsector_letter
from ...text.message_text import MessageBudget, escaped
from ...workbook.sheetio import (
    TurnSheetFile,
)
from ...workbook.sheetkit import SheetReader, SheetStyles, cell_rc, check_room
from ...workbook.sheetpage import Listing, Page, typing_into
from ...workbook.sheetreads import read_remembered
from ...workbook.turnbook import check_layout, meta_names, meta_number, turn_workbook
from ..base import SheetRead, fields_of
from .budget import points_available, system_income
from .items import ITEMS, find_item, item_label, items_for_tech, placement
from .movement_rules import best_range, max_departures, move_arrival
from .notation import fleet_text, flight_text, move_text, system_text
from .orders import (
    BOMB_ACTION,
    DIPLOMACY_ACTIONS,
    Bombing,
    Diplomacy,
    MessageOrder,
    Move,
    Orders,
    Purchase,
)
from .parse import cell_text, move_cells_blank, normalise, parse_count, parse_hex_text, parse_move
from .rules import complete
from .state import FACILITY_NAMES, SETUP_YEAR, Fleet, State

RULESET_NAME = "fifth-millennium"
#: Bumped whenever a cell below moves; a sheet of another version is refused, not misread.
FORMAT_VERSION = "1"


# -- layout: every cell a player or a script may write --------------------------------------
ORDERS_SHEET = "Orders"
EMPIRE_SHEET = "Your empire"

#: Header cells (read-only).
GAME_CELL = "B3"
PLAYER_CELL = "B4"
YEAR_CELL = "B5"
DEADLINE_CELL = "B6"
STOCKPILE_CELL = "F3"
INCOME_CELL = "F4"
TL_CELL = "F5"
RANGE_CELL = "F6"

#: Fleet movements: one row per departure or probe; columns Turn, Fleet, Departure,
#: Destination, Arrival.  The Turn cell is pre-filled with the year.
MOVE_HEADER_ROW = 10
MOVE_FIRST_ROW = 11
MOVE_ROWS = 16
MOVE_COLUMNS = ("B", "C", "D", "E", "F")

#: The most one production line may order (docs/turn-sheet.md; the sheet's validation says so).
MAX_QUANTITY = 999
#: Production list: Location, Item, Quantity, Cost (a formula the tool never reads).
PROD_HEADER_ROW = 29
PROD_FIRST_ROW = 30
PROD_ROWS = 20
PROD_LOCATION_COL = "B"
PROD_ITEM_COL = "C"
PROD_QUANTITY_COL = "D"
PROD_COST_COL = "E"
PROD_TOTAL_CELL = "E50"
PROD_AVAILABLE_CELL = "E51"
STOCKPILE_AT_CELL = "E52"

#: Diplomacy: Action (dropdown), Player (dropdown).
DIPLO_HEADER_ROW = 55
DIPLO_FIRST_ROW = 56
DIPLO_ROWS = 8
DIPLO_ACTION_COL = "B"
DIPLO_PLAYER_COL = "C"

#: Messages: To (dropdown of players or *), text in C:G (merged).
MSG_HEADER_ROW = 66
MSG_FIRST_ROW = 67
MSG_ROWS = 10
MSG_TO_COL = "B"
MSG_TEXT_COL = "C"

#: Reference block of purchase options (read-only; the cost formulas look items up here).
REF_HEADER_ROW = 79
REF_FIRST_ROW = 80
REF_LAST_ROW = REF_FIRST_ROW + len(ITEMS) - 1
PRINT_LAST_ROW = REF_LAST_ROW + 2

#: Set-up sheet (year 5000): the homeworld hex.
HOMEWORLD_CELL = "C11"
SETUP_PRINT_LAST_ROW = 20

#: Longest message text read; longer is an error (reports have to print it).
MAX_MESSAGE_LENGTH = 2000

_COLUMN_WIDTHS = {"A": 9, "B": 16, "C": 34, "D": 12, "E": 12, "F": 10, "G": 28}

#: Words a player may write for a diplomacy action (lower case, single spaces).
ACTION_SYNONYMS = {
    "propose treaty": "propose treaty",
    "treaty": "propose treaty",
    "offer treaty": "propose treaty",
    "accept treaty": "propose treaty",
    "propose a treaty": "propose treaty",
    "end treaty": "end treaty",
    "cancel treaty": "end treaty",
    "break treaty": "end treaty",
    "propose trade": "propose trade",
    "trade": "propose trade",
    "offer trade": "propose trade",
    "accept trade": "propose trade",
    "propose trade agreement": "propose trade",
    "end trade": "end trade",
    "cancel trade": "end trade",
    "end trade agreement": "end trade",
    "declare war": "declare war",
    "war": "declare war",
    "declare war on": "declare war",
    "fusion bomb": BOMB_ACTION,
    "bomb": BOMB_ACTION,
    "fusion bombing": BOMB_ACTION,
    "sfba": BOMB_ACTION,
}
EVERYONE = ("*", "all", "everyone", "all players")

PLACEMENT_TEXT = {
    "ftl": "class A world or spacedock",
    "upgrade": "your Fleet sq., class A/dock",
    "monitor": "class A, B or C world",
    "system": "any system you own",
    "deep": "empty hex in range",
}


def move_row_cells(row: int) -> list[str]:
    """The five cells of a movement row (Turn, Fleet, Departure, Destination, Arrival)."""
    return [f"{c}{row}" for c in MOVE_COLUMNS]


# --------------------------------------------------------------------------------------------
# What the sheet shows
# --------------------------------------------------------------------------------------------


def own_system_lines(state: State, player: str) -> list[str]:
    """The player's systems in the notation of section 2.3, one line each, by hex."""
    lines = []
    for s in sorted(state.systems, key=lambda s: s.hex):
        if s.owner != player:
            continue
        ready = [f for f in state.forces if f.hex == s.hex and f.owner == player and not f.building]
        fleet = Fleet()
        monitors = 0
        for force in ready:
            fleet = fleet + force.fleet
            monitors += force.M
        mine = [
            f for f in state.facilities if f.hex == s.hex and f.owner == player and not f.building
        ]
        lines.append(
            system_text(
                s.hex,
                s.name,
                s.resource_class,
                **fields_of(s, "naval_base scout_base hipop"),
                spacedock=any(f.kind == "DOCK" for f in mine),
                gl=sum(f.count for f in mine if f.kind == "GL"),
                opc=sum(f.count for f in mine if f.kind == "OPC"),
                mines=sum(f.count for f in mine if f.kind == "MINE"),
                monitors=monitors,
                fleet=fleet,
                income=system_income(state, s.hex),
            )
        )
    return lines


def _building_lines(state: State, player: str) -> list[str]:
    out = []
    for force in state.forces:
        if force.owner == player and force.building:
            extra = (f" M{force.M}" if force.M else "") + (f" Probes {force.P}" if force.P else "")
            out.append(f"{force.hex}: {fleet_text(force.fleet)}{extra}")
    for f in state.facilities:
        if f.owner == player and f.building:
            count = f" x{f.count}" if f.kind in ("GL", "OPC", "MINE") else ""
            out.append(f"{f.hex}: {FACILITY_NAMES.get(f.kind, f.kind)}{count}")
    return out


def _elsewhere_lines(state: State, player: str) -> list[str]:
    """Ready squadrons and probes of the player at hexes it does not own."""
    out = []
    for force in state.forces:
        if force.owner != player or force.building:
            continue
        system = state.system(force.hex)
        owned = system is not None and system.owner == player
        if owned and not force.P:
            continue
        parts = []
        if not owned and not force.fleet.is_empty():
            parts.append(fleet_text(force.fleet))
        if force.P:
            parts.append(f"{force.P} probe swarm{'s' if force.P != 1 else ''} ready to launch")
        if not owned and force.M:
            parts.append(f"M{force.M}")
        if parts:
            where = system.name if system is not None else "deep space"
            out.append(f"{force.hex} ({where}): " + ", ".join(parts))
    return out


def _facility_lines(state: State, player: str) -> list[str]:
    kinds = ("CC", "CF", "DEPOT", "DSRS")
    return [
        f"{f.hex}: {FACILITY_NAMES[f.kind]}"
        for f in state.facilities
        if f.owner == player and f.kind in kinds and not f.building
    ]


def _flight_lines(state: State, player: str) -> list[str]:
    own = sorted((f for f in state.flights if f.owner == player), key=lambda f: (f.arrival, f.id))
    return [flight_text(f) for f in own]


def _relation_lines(state: State, player: str) -> list[str]:
    out = []
    for r in state.relations:
        if player in (r.a, r.b):
            other = r.b if r.a == player else r.a
            what = "Treaty" if r.kind == "treaty" else "Trade agreement"
            out.append(f"{what} with {other} since {r.since}")
    for p in state.proposals:
        what = "a treaty" if p.kind == "treaty" else "a trade agreement"
        if p.to == player:
            out.append(f"{p.proposer} proposes {what} (answer with 'propose' to accept)")
        elif p.proposer == player:
            out.append(f"You proposed {what} to {p.to}; no answer yet")
    return out


def _bases(s: Any) -> str:
    """`` N S Hi``: a system's naval and scout bases and HiPop, as the map marks them."""
    marks = (("N", s.naval_base), ("S", s.scout_base), ("Hi", s.hipop))
    return "".join(f" {code}" for code, on in marks if on)


def _sight_lines(state: State, player: str, rules: Mapping[str, Any]) -> list[str]:
    """Systems the player sees (fog of war from `visibility.player_view`), not its own."""
    from .visibility import player_view

    view = player_view(state, player, rules)
    out = []
    for s in view.systems:
        if s.status != "in sight" or s.owner == player:
            continue
        bases = _bases(s)
        owner = s.owner or "unowned"
        forces = f" - {s.forces_text}" if s.forces_text else ""
        name = s.name.upper() if s.hipop else s.name
        out.append(f"{s.hex} {name} {s.resource_class}{bases} - {owner}{forces}")
    return out


def _other_players(state: State, player: str) -> list[str]:
    return [p.name for p in state.players if p.name != player and not p.eliminated]


def _departure_hexes(state: State, player: str) -> list[str]:
    hexes = {f.hex for f in state.forces if f.owner == player and (not f.fleet.is_empty() or f.P)}
    hexes.update(
        f.destination for f in state.flights if f.owner == player and f.arrival == state.year
    )
    return sorted(hexes)


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


class _Styles(SheetStyles):
    """The shared formats (`SheetStyles`) and this sheet's own."""

    def __init__(self, wb: Any) -> None:
        super().__init__(wb)
        base = self.base
        self.number = wb.add_format(
            {**base, "align": "right", "bottom": 1, "bottom_color": "#A6A6A6"}
        )
        self.plain = wb.add_format(base)
        self.input_wrap = wb.add_format({**self.input_base, "num_format": "@", "text_wrap": True})
        self.ref_off = wb.add_format(
            {**base, "border": 1, "border_color": "#D9D9D9", "font_color": "#A6A6A6"}
        )
        self.locked_value = wb.add_format(
            {**base, "bold": True, "bg_color": "#E2EFDA", "border": 1, "num_format": "@"}
        )


def _write_header(
    page: Page, state: State, player: str, deadline: str, setup: bool, rules: dict[str, Any]
) -> None:
    ws, st = page.ws, page.st
    p = state.player(player)
    ws.merge_range("A1:G1", "FIFTH MILLENNIUM - TURN SHEET", st.title)
    ws.set_row(0, 26)
    sub = (
        "Set-up: choose your homeworld"
        if setup
        else f"Orders for the year {state.year} (turn {state.year - SETUP_YEAR})"
    )
    ws.merge_range("A2:G2", f"Fleet battles for control of the stars - {sub}", st.subtitle)
    for label_ref, label, ref, value in (
        ("A3", "Game", GAME_CELL, state.game_name),
        ("A4", "Player", PLAYER_CELL, player),
        ("A5", "Year", YEAR_CELL, state.year),
        ("A6", "Deadline", DEADLINE_CELL, deadline),
    ):
        page.labelled(label_ref, label, ref, value, span=1)
    if not setup and p is not None:
        for ref, label, value in (
            (STOCKPILE_CELL, "Stockpile", p.stockpile),
            (INCOME_CELL, "Income last turn", p.income_last),
            (TL_CELL, "Tech level", p.tech_level),
            (RANGE_CELL, "Best range (hexes)", best_range(p, rules)),
        ):
            r, c = cell_rc(ref)
            ws.merge_range(r, c - 2, r, c - 1, label, st.label)
            ws.write_number(r, c, value, st.number)
    page.note(
        "A7:G8",
        "Fill in the yellow cells only; everything else is locked. Send the sheet back as .xlsx "
        "or .ods before the deadline. Your systems, fleets in hyperspace and the systems you can "
        "see are on the sheet 'Your empire'.",
    )


def _write_moves(page: Page, state: State, player: str, rules: dict[str, Any]) -> None:
    st = page.st
    limit = max_departures(rules)
    page.section(
        MOVE_HEADER_ROW - 1,
        f"FLEET MOVEMENTS - at most {limit} departures a turn; probes do not count",
    )
    page.headers(
        MOVE_HEADER_ROW,
        (
            "#",
            "Turn",
            "Fleet  F# S# A#(Fs# Ms# K#)  or  Probe",
            "Departure",
            "Destination",
            "Arrival",
            "",
        ),
    )
    for row in page.numbered(MOVE_FIRST_ROW, MOVE_ROWS):
        page.value(f"B{row}", state.year, st.input_number)
        for col in "CDE":
            page.blank(f"{col}{row}", st.input_text)
        page.blank(f"F{row}", st.input_number)
    first, last = MOVE_FIRST_ROW, MOVE_FIRST_ROW + MOVE_ROWS - 1
    page.ask(
        f"B{first}:B{last}",
        "Turn",
        f"The year of departure ({state.year}), pre-filled. You may also type the whole move "
        f"here: {state.year} - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - {state.year + 2}",
    )
    page.ask(
        f"C{first}:C{last}",
        "Fleet",
        "Squadrons that leave: F10 S3 A1(Fs0 Ms2 K0) (F fleet, S strike, A assault, Fs fast, "
        "Ms minesweeper, K KKM points, SF fusion bomb levels), or Probe. Monitors never move.",
    )
    page.ask(
        f"D{first}:D{last}",
        "Departure hex",
        "The hex the fleet leaves, e.g. 2710. The list shows where you have squadrons.",
        _departure_hexes(state, player),
    )
    page.ask(
        f"E{first}:E{last}",
        "Destination hex",
        "A hex with a star system (or your refueling station), at most the best range away.",
    )
    page.ask(
        f"F{first}:F{last}",
        "Arrival year",
        "Departure year + distance (hexes / 2 for all-Fast fleets, rounded up). Leave blank "
        "and the referee's tool computes it.",
    )


def _write_production(page: Page, state: State, player: str) -> None:
    ws, st = page.ws, page.st
    p = state.player(player)
    tl = p.tech_level if p else 1
    page.section(
        PROD_HEADER_ROW - 1, "PRODUCTION - what to buy, where (bought items are ready next turn)"
    )
    page.headers(PROD_HEADER_ROW, ("#", "Location (hex)", "Item", "Quantity", "Cost", "", ""))
    ref_range_label = f"$B${REF_FIRST_ROW}:$E${REF_LAST_ROW}"
    ref_range_code = f"$A${REF_FIRST_ROW}:$E${REF_LAST_ROW}"
    for row in page.numbered(PROD_FIRST_ROW, PROD_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_text)
        page.blank(f"D{row}", st.input_number)
        formula = (
            f'=IF(OR(C{row}="",D{row}=""),"",IFERROR(D{row}*VLOOKUP(C{row},{ref_range_label},4,'
            f'FALSE),IFERROR(D{row}*VLOOKUP(C{row},{ref_range_code},5,FALSE),"?")))'
        )
        ws.write_formula(row - 1, 4, formula, st.cost, "")
    first, last = PROD_FIRST_ROW, PROD_FIRST_ROW + PROD_ROWS - 1
    page.ask(
        f"B{first}:B{last}",
        "Location",
        "The hex where the item is built: a system you own (a refueling station: an empty "
        "hex within range of your worlds).",
        sorted(s.hex for s in state.systems if s.owner == player),
    )
    page.ask(
        f"C{first}:C{last}",
        "Item",
        "Choose an item your tech level allows (the code, e.g. GL, may be typed instead). "
        "Costs and where each may be built are listed below.",
        (item_label(item) for item in items_for_tech(tl)),
    )
    page.whole_number(
        f"D{first}:D{last}", "Quantity", "How many (a whole number from 1).", 1, MAX_QUANTITY
    )
    tr, tc = cell_rc(PROD_TOTAL_CELL)
    ws.merge_range(tr, 1, tr, 3, "Total cost (the referee's tool recomputes it)", st.label)
    ws.write_formula(tr, tc, f"=SUM(E{first}:E{last})", st.total, 0)
    ar = cell_rc(PROD_AVAILABLE_CELL)[0] + 1
    page.note(
        f"B{ar}:D{ar}",
        "Points expected: stockpile + this turn's income if no world "
        "is lost (income is only known after battles)",
    )
    ws.set_row(ar - 1, 26)
    page.value(PROD_AVAILABLE_CELL, points_available(state, player), st.number)
    sr, _ = cell_rc(STOCKPILE_AT_CELL)
    ws.merge_range(sr, 1, sr, 3, "Keep unspent points at (hex; blank = homeworld)", st.label)
    page.blank(STOCKPILE_AT_CELL, st.input_text)
    page.ask(
        STOCKPILE_AT_CELL,
        "Stockpile",
        "Leave blank to keep unspent points at your homeworld, or give the hex of your "
        "Construction Facility or Depot.",
    )


def _write_diplomacy(page: Page, state: State, player: str) -> None:
    page.section(
        DIPLO_HEADER_ROW - 1,
        "DIPLOMACY - treaties and trade agreements need both players; fusion bombing orders",
    )
    page.headers(DIPLO_HEADER_ROW, ("#", "Action", "Player (or hex to bomb)", "", "", "", ""))
    for row in page.numbered(DIPLO_FIRST_ROW, DIPLO_ROWS):
        page.blank(f"B{row}", page.st.input_text)
        page.blank(f"C{row}", page.st.input_text)
    first, last = DIPLO_FIRST_ROW, DIPLO_FIRST_ROW + DIPLO_ROWS - 1
    page.ask(
        f"B{first}:B{last}",
        "Action",
        "Propose or end a treaty or a trade agreement, or declare war. To accept a proposal, "
        "propose the same thing back. 'fusion bomb' with a hex in column C lets your SFBA "
        "levels there bomb it this turn.",
        (*DIPLOMACY_ACTIONS, BOMB_ACTION),
        strict=True,
    )
    page.ask(
        f"C{first}:C{last}",
        "Player or hex",
        "The other player; for 'fusion bomb', the hex of the system to bomb.",
        _other_players(state, player),
    )


def _write_messages(page: Page, state: State, player: str) -> None:
    st = page.st
    page.section(MSG_HEADER_ROW - 1, "MESSAGES - delivered by the referee with the next report")
    page.headers(MSG_HEADER_ROW, ("#", "To"))
    page.ws.merge_range(MSG_HEADER_ROW - 1, 2, MSG_HEADER_ROW - 1, 6, "Message", st.header)
    for row in page.numbered(MSG_FIRST_ROW, MSG_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_wrap, through=f"G{row}")
    first, last = MSG_FIRST_ROW, MSG_FIRST_ROW + MSG_ROWS - 1
    page.ask(
        f"B{first}:B{last}",
        "To",
        "A player's name, or * for every player.",
        ["*", *_other_players(state, player)],
        strict=True,
    )
    page.ask(f"C{first}:C{last}", "Message", f"Free text, at most {MAX_MESSAGE_LENGTH} characters.")


def _write_reference(page: Page, state: State, player: str, rules: dict[str, Any]) -> None:
    ws, st = page.ws, page.st
    p = state.player(player)
    tl = p.tech_level if p else 1
    page.section(REF_HEADER_ROW - 1, "PURCHASE OPTIONS (Appendix A and B)")
    page.headers(REF_HEADER_ROW, ("Code", "Item", "", "", "Cost", "TL", "Where"))
    ordered = sorted(ITEMS, key=lambda item: (item.tech_level > tl, item.tech_level))
    for i, item in enumerate(ordered):
        row0 = REF_FIRST_ROW - 1 + i
        fmt = st.ref if item.tech_level <= tl else st.ref_off
        ws.write_string(row0, 0, item.code, fmt)
        ws.merge_range(row0, 1, row0, 3, "", fmt)
        ws.write_string(row0, 1, item_label(item), fmt)
        ws.write_number(row0, 4, item.cost, fmt)
        ws.write_string(row0, 5, f"TL{item.tech_level}", fmt)
        site = placement(item, rules)
        where = PLACEMENT_TEXT.get(site, site)
        if item.limit:
            where += f"; max {item.limit}"
        ws.write_string(row0, 6, where, fmt)


def _write_setup(page: Page, state: State, player: str, rules: dict[str, Any]) -> None:
    ws, st = page.ws, page.st
    p = state.player(player)
    page.section(9, "HOMEWORLD")
    distance = int(rules["homeworld_min_distance"])
    page.note(
        "A10:G10",
        f"Choose a class A system at least {distance} hexes from every other homeworld. You "
        "start there with 15 Fleet squadrons. The class A systems are listed on 'Your empire'.",
    )
    ws.set_row(9, 30)
    r, c = cell_rc(HOMEWORLD_CELL)
    ws.merge_range(r, 0, r, 1, "Homeworld (hex)", st.label)
    if p is not None and p.homeworld:
        ws.write_string(r, c, p.homeworld, st.locked_value)
        page.note(
            f"A{r + 3}:G{r + 3}",
            "The referee has already set your homeworld; there is nothing to choose.",
        )
        return
    page.blank(HOMEWORLD_CELL, st.input_text)
    page.ask(
        HOMEWORLD_CELL,
        "Homeworld",
        "The hex of a class A system, e.g. 1827.",
        (s.hex for s in sorted(state.systems, key=lambda s: s.hex) if s.resource_class == "A"),
    )


def _class_a_line(state: State, s: Any) -> str:
    bases = _bases(s)
    name = s.name.upper() if s.hipop else s.name
    sub = subsector_letter(s.hex)
    sub_name = state.subsector_names.get(sub, "")
    return (
        f"{s.hex} {name} A{bases} - subsector {sub}{' ' + sub_name if sub_name else ''}"
        f" - {system_income(state, s.hex)} RP"
    )


def _write_empire(
    ws: Any, st: _Styles, state: State, player: str, setup: bool, rules: Mapping[str, Any]
) -> int:
    """Write the read-only lists; returns the number of rows used (for the print area)."""
    ws.set_column(0, 0, 100)
    page = Listing(ws, st, f"{state.game_name} - {player} - {state.year}")
    if setup:
        page.block(
            "CLASS A SYSTEMS (possible homeworlds)",
            [
                _class_a_line(state, s)
                for s in sorted(state.systems, key=lambda s: s.hex)
                if s.resource_class == "A"
            ],
            "No class A system on this map.",
        )
        return page.rows
    for title, lines, empty in (
        (
            "YOUR SYSTEMS  (hex name class N S Hi G# O# Mi# M# - fleet - resource points)",
            own_system_lines(state, player),
            "You own no system.",
        ),
        ("UNDER CONSTRUCTION (ready next turn)", _building_lines(state, player), "Nothing."),
        (
            "YOUR FACILITIES (control centre, construction facility, depot, refueling stations)",
            _facility_lines(state, player),
            "(none)",
        ),
        ("YOUR SQUADRONS AND PROBES ELSEWHERE", _elsewhere_lines(state, player), "(none)"),
        (
            "YOUR FLEETS IN HYPERSPACE (turn - fleet - from - to - arrival)",
            _flight_lines(state, player),
            "(none)",
        ),
        ("TREATIES, TRADE AGREEMENTS AND PROPOSALS", _relation_lines(state, player), "(none)"),
        (
            "OTHER SYSTEMS IN SIGHT (hex name class bases - owner - squadrons)",
            _sight_lines(state, player, rules),
            "(none)",
        ),
    ):
        page.block(title, lines, empty)
    return page.rows


def _meta(state: State, player: str, token: str, setup: bool) -> list[tuple[str, str]]:
    return [
        ("format_version", FORMAT_VERSION),
        ("ruleset", RULESET_NAME),
        ("game_id", state.game_id),
        ("game_name", state.game_name),
        ("player", player),
        ("step", str(state.year)),
        ("year", str(state.year)),
        ("kind", "setup" if setup else "orders"),
        ("token", token),
        ("players", json.dumps(state.player_names(), ensure_ascii=False)),
    ]


def write_sheet(
    state: State,
    player: str,
    path: Path,
    *,
    token: str,
    deadline: str,
    house_rules: Mapping[str, Any] | None = None,
) -> None:
    """Write ``player``'s turn sheet for ``state.year`` to ``path`` (atomically)."""
    if state.player(player) is None:
        raise UsageError(f"{player!r} is not a player of {state.game_name}")
    rules = complete(house_rules)
    setup = state.year == SETUP_YEAR
    with turn_workbook(
        path,
        title=f"{state.game_name} - turn sheet {state.year} - {player}",
        subject="Fifth Millennium turn sheet",
        pages=(ORDERS_SHEET, EMPIRE_SHEET),
        widths=_COLUMN_WIDTHS,
    ) as book:
        ws, empire = book.pages
        st = _Styles(book.wb)
        page = Page(ws, st, book.lists)
        _write_header(page, state, player, deadline, setup, rules)
        if setup:
            _write_setup(page, state, player, rules)
            last_row = SETUP_PRINT_LAST_ROW
        else:
            _write_moves(page, state, player, rules)
            _write_production(page, state, player)
            _write_diplomacy(page, state, player)
            _write_messages(page, state, player)
            _write_reference(page, state, player, rules)
            last_row = PRINT_LAST_ROW
            ws.set_h_pagebreaks([REF_HEADER_ROW - 2])
        empire_rows = _write_empire(empire, st, state, player, setup, rules)
        book.finish(
            footer=f"{state.game_name} - {player} - {state.year}",
            print_areas=(f"A1:G{last_row}", f"A1:A{max(1, empire_rows)}"),
            meta=_meta(state, player, token, setup),
        )


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def _canonical_player(text: str, players: list[str]) -> str:
    lowered = text.casefold()
    for name in players:
        if name.casefold() == lowered:
            return name
    return text


class _Reader(SheetReader):
    """Reads the input cells of one opened sheet into `Orders`, collecting problems."""

    def __init__(self, sheet: TurnSheetFile, orders: Orders, players: list[str]) -> None:
        super().__init__(sheet, ORDERS_SHEET, normalise)
        self.orders = orders
        self.players = players

    # -- sections ---------------------------------------------------------------------------
    def moves(self) -> None:
        for i in range(MOVE_ROWS):
            row = MOVE_FIRST_ROW + i
            refs = move_row_cells(row)
            values = [self.value(ref) for ref in refs]
            if move_cells_blank(values):
                continue
            move = self.attempt(
                refs[0], parse_move, values, year_default=self.orders.year, cell=refs[0]
            )
            if move is not None:
                self.orders.moves.append(move)

    def purchases(self) -> None:
        for i in range(PROD_ROWS):
            row = PROD_FIRST_ROW + i
            loc_ref, item_ref, qty_ref = (
                f"{PROD_LOCATION_COL}{row}",
                f"{PROD_ITEM_COL}{row}",
                f"{PROD_QUANTITY_COL}{row}",
            )
            raw = [self.value(loc_ref), self.value(item_ref), self.value(qty_ref)]
            if all(v is None or (isinstance(v, str) and not v.strip()) for v in raw):
                continue
            try:
                texts = [
                    cell_text(v, cell=ref)
                    for v, ref in zip(raw, (loc_ref, item_ref, qty_ref), strict=True)
                ]
            except InvalidOrder as exc:
                self.invalid(exc, loc_ref)
                continue
            found = " - ".join(t for t in texts if t)
            loc_t, item_t, qty_t = texts
            if not item_t:
                self.error(
                    item_ref,
                    found,
                    "no item is given on this production line",
                    "Choose an item from the list in column C.",
                )
                continue
            item_norm = self.attempt(item_ref, normalise, item_t, cell=item_ref, found=item_t)
            if item_norm is None:
                continue
            item = find_item(item_norm)
            if item is None:
                self.error(
                    item_ref,
                    item_t,
                    f"{item_t!r} is not a purchase option",
                    "Choose an item from the list, or type its code (e.g. GL, OPC, F).",
                )
                continue
            if not loc_t:
                self.error(
                    loc_ref,
                    found,
                    f"no location is given for {item.name}",
                    "Type the hex where it is built, e.g. 1827.",
                )
                continue
            try:
                location = parse_hex_text(loc_t, cell=loc_ref, what="location")
                if qty_t:
                    quantity = parse_count(qty_t, cell=qty_ref, maximum=MAX_QUANTITY)
                else:
                    quantity = 1
                    self.error(
                        qty_ref,
                        found,
                        "no quantity is given; it was read as 1",
                        "Type the quantity if you want more than one.",
                        "warning",
                    )
            except InvalidOrder as exc:
                self.invalid(exc, loc_ref)
                continue
            self.orders.purchases.append(
                Purchase(
                    location,
                    item.code,
                    quantity,
                    cell=loc_ref,
                    text=found,
                    cells=(loc_ref, item_ref, qty_ref),
                )
            )
        text = self.text(STOCKPILE_AT_CELL)
        at = text and self.attempt(STOCKPILE_AT_CELL, parse_hex_text, text, cell=STOCKPILE_AT_CELL)
        if at:
            self.orders.stockpile_at = at

    def diplomacy(self) -> None:
        columns = (DIPLO_ACTION_COL, DIPLO_PLAYER_COL)
        for (a_ref, p_ref), (action_t, other_t) in self.lines(DIPLO_FIRST_ROW, DIPLO_ROWS, columns):
            found = " - ".join(t for t in (action_t, other_t) if t)
            action = ACTION_SYNONYMS.get(" ".join(action_t.lower().split()))
            if action is None:
                self.error(
                    a_ref,
                    action_t or found,
                    "no diplomacy action given"
                    if not action_t
                    else f"{action_t!r} is not a diplomacy action",
                    "Choose one of: " + ", ".join(DIPLOMACY_ACTIONS) + ".",
                )
                continue
            if action == BOMB_ACTION:
                self.bombing(other_t, found, a_ref, p_ref)
                continue
            if not other_t:
                self.error(
                    p_ref,
                    found,
                    f"'{action}' needs the other player's name",
                    "Choose the player from the list in column C.",
                )
                continue
            self.orders.diplomacy.append(
                Diplomacy(action, _canonical_player(other_t, self.players), cell=a_ref)
            )

    def bombing(self, hex_text: str, found: str, a_ref: str, p_ref: str) -> None:
        """A ``fusion bomb`` line: the hex of the system the player's SFBA levels may bomb."""
        if not hex_text:
            self.error(
                p_ref,
                found,
                f"'{BOMB_ACTION}' needs the hex of the system to bomb",
                "Write the hex in column C, e.g. 2712.",
            )
            return
        hex_ = self.attempt(p_ref, parse_hex_text, hex_text, cell=p_ref)
        if hex_ is not None:
            self.orders.bombing.append(
                Bombing(hex_, cell=a_ref, text=f"{BOMB_ACTION} - {hex_}", cells=(a_ref, p_ref))
            )

    def messages(self) -> None:
        budget = MessageBudget()  # what this sender may put in front of each reader
        for i in range(MSG_ROWS):
            row = MSG_FIRST_ROW + i
            to_ref, text_ref = f"{MSG_TO_COL}{row}", f"{MSG_TEXT_COL}{row}"
            to_t = self.text(to_ref)
            try:
                raw = cell_text(self.value(text_ref), cell=text_ref)
            except InvalidOrder as exc:
                self.invalid(exc, text_ref)
                continue
            body = escaped(raw).strip()
            if not to_t and not body:
                continue
            if not body:
                self.error(text_ref, to_t, "the message is empty", "Type the message in column C.")
                continue
            if not to_t:
                self.error(
                    to_ref,
                    body[:80],
                    "the message has no recipient",
                    "Choose a player, or * for every player, in column B.",
                )
                continue
            if len(body) > MAX_MESSAGE_LENGTH:
                self.error(
                    text_ref,
                    body[:80] + "...",
                    f"the message is {len(body)} characters long",
                    f"Shorten it to at most {MAX_MESSAGE_LENGTH} characters or split it.",
                )
                continue
            to = "*" if to_t.lower() in EVERYONE else _canonical_player(to_t, self.players)
            shaped = budget.shape(raw)
            if shaped.cuts:
                self.error(
                    text_ref,
                    body[:80],
                    "the message was shortened for its readers: " + "; ".join(shaped.cuts),
                    "Say it in fewer lines; what is shown here is what they receive.",
                    "warning",
                )
            if not shaped.text:
                continue
            self.orders.messages.append(MessageOrder(to, shaped.text, cell=to_ref))

    def homeworld(self) -> None:
        text = self.text(HOMEWORLD_CELL)
        if not text:
            return
        hex_ = self.attempt(
            HOMEWORLD_CELL, parse_hex_text, text, cell=HOMEWORLD_CELL, what="homeworld hex"
        )
        if hex_ is not None:
            self.orders.homeworld, self.orders.homeworld_cell = hex_, HOMEWORLD_CELL


def read_opened(sheet: TurnSheetFile) -> SheetRead:
    """Orders and reading problems from an already opened (checked) turn sheet."""
    check_layout(sheet, RULESET_NAME, "Fifth Millennium", (FORMAT_VERSION,))
    year = meta_number(sheet, "year", SETUP_YEAR, 9999)
    player = sheet.meta.get("player", "")
    if not player:
        raise NotATurnSheet(f"{sheet.name}: the sheet names no player; use the sheet you were sent")
    sheet.sheet(ORDERS_SHEET)
    orders = Orders(player=player, year=year)
    reader = _Reader(sheet, orders, meta_names(sheet, "players"))
    if year == SETUP_YEAR:
        reader.homeworld()
    else:
        reader.moves()
        reader.purchases()
        reader.diplomacy()
        reader.messages()
    return SheetRead(orders=orders, problems=reader.problems, meta=dict(sheet.meta))


def read_sheet(path: Path, opened: TurnSheetFile | None = None) -> SheetRead:
    """Read a turn sheet a player sent: its orders, reading problems and meta data.

    Raises `NotATurnSheet` for anything that is not a usable Fifth Millennium turn sheet.
    ``opened`` is the file already opened by the caller (its bytes are the ones checked and
    read).  The same bytes read again are answered from memory (`sheetreads`).
    """
    return read_remembered(Path(path), opened, read_opened)


# --------------------------------------------------------------------------------------------
# Filling in (computer players, tests, scripts) and the orders as text
# --------------------------------------------------------------------------------------------


def fill_sheet(path: Path, orders: Orders) -> None:
    """Type ``orders`` into the input cells of the sheet at ``path``, as a player would
    (`typing_into`): moves one part per column, purchases with the dropdown label."""
    if orders.year != SETUP_YEAR:
        check_room("moves", len(orders.moves), MOVE_ROWS)
        check_room("purchases", len(orders.purchases), PROD_ROWS)
        check_room(
            "diplomacy and bombing orders", len(orders.diplomacy) + len(orders.bombing), DIPLO_ROWS
        )
        check_room("messages", len(orders.messages), MSG_ROWS)
    with typing_into(path, ORDERS_SHEET) as (put, _):
        if orders.year == SETUP_YEAR:
            if orders.homeworld:
                put(HOMEWORLD_CELL, orders.homeworld)
            return
        for row, move in enumerate(orders.moves, start=MOVE_FIRST_ROW):
            parts = (move.year, "Probe" if move.probe else fleet_text(move.fleet))
            parts += (move.origin, move.destination, move.arrival)
            for ref, value in zip(move_row_cells(row), parts, strict=True):
                put(ref, value)
        for row, purchase in enumerate(orders.purchases, start=PROD_FIRST_ROW):
            item = find_item(purchase.item)
            put(f"{PROD_LOCATION_COL}{row}", purchase.location)
            put(f"{PROD_ITEM_COL}{row}", item_label(item) if item else purchase.item)
            put(f"{PROD_QUANTITY_COL}{row}", purchase.quantity)
        if orders.stockpile_at:
            put(STOCKPILE_AT_CELL, orders.stockpile_at)
        lines = [(d.action, d.other) for d in orders.diplomacy]
        lines += [(BOMB_ACTION, b.hex) for b in orders.bombing]
        for row, (action, other) in enumerate(lines, start=DIPLO_FIRST_ROW):
            put(f"{DIPLO_ACTION_COL}{row}", action)
            put(f"{DIPLO_PLAYER_COL}{row}", other)
        for row, m in enumerate(orders.messages, start=MSG_FIRST_ROW):
            put(f"{MSG_TO_COL}{row}", m.to)
            put(f"{MSG_TEXT_COL}{row}", m.text)


def move_line(move: Move) -> str:
    """A move in the notation with its arrival year (computed when the player left it out)."""
    arrival = move_arrival(move) if move.arrival is None else move.arrival
    return move_text(
        move.year, None if move.probe else move.fleet, move.origin, move.destination, arrival
    )


def orders_text(orders: Orders) -> list[str]:
    """The orders as the referee understood them, one line each, in the game's notation."""
    lines: list[str] = []
    if orders.homeworld:
        lines.append(f"Homeworld: {orders.homeworld}")
    lines.extend(move_line(m) for m in orders.moves)
    for p in orders.purchases:
        item = find_item(p.item)
        name = item.name if item else p.item
        cost = f", cost {item.cost * p.quantity}" if item else ""
        lines.append(f"Build {p.quantity} x {p.item} ({name}) at {p.location}{cost}")
    if orders.stockpile_at:
        lines.append(f"Keep unspent points at {orders.stockpile_at}")
    for d in orders.diplomacy:
        verb = d.action[0].upper() + d.action[1:]
        joiner = " on " if d.action == "declare war" else " with "
        lines.append(f"{verb}{joiner}{d.other}")
    for b in orders.bombing:
        lines.append(f"Fusion bomb {b.hex} (SFBA levels there may bomb it)")
    for m in orders.messages:
        who = "every player" if m.to == "*" else m.to
        lines.append(f"Message to {who}: {m.text}")
    if not lines:
        lines.append("No orders.")
    return lines
