"""Millenium's sheets, in the reader's language (`i18n.current`, French by default): the
Empire's set-up sheet, the Extraterrestrial's set-up sheet (its programme and fleets, written at
the same step) and its placement sheet, and the mover's turn sheet.

Each has two pages: "Ordres" / "Orders" with the input cells at fixed rows (cited in
docs/rules/millenium.md), and "Situation", what the side knows (its fleets and their ships, the
other side's fleets where they stand, the systems as far as their cards are known, its points,
its secrets).  The page names and the cells do not change with the language: a sheet is read
the same whatever language it was written in, and the notation is read in either.

The reader needs the map's size and where the systems are to read a position written as a
system's letter; the sheet carries them in its meta.  The checker (`validate`) then holds every
order to the real map and state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from xlsxwriter.utility import xl_col_to_name

from ...errors import NotATurnSheet, UsageError
from ...text.i18n import again, current
from ...text.message_text import MessageBudget
from ...text.words import N_
from ...workbook.sheetio import TurnSheetFile
from ...workbook.sheetkit import SheetReader, SheetStyles, cell_rc, check_room
from ...workbook.sheetpage import Listing, Page, typing_into
from ...workbook.sheetreads import read_remembered
from ...workbook.turnbook import check_layout, meta_number, turn_workbook
from ..base import SheetRead
from . import parse
from .battlesheet import battle_of, fill_battle, read_battle, result_text, write_battle_sheet
from .charts import SHIP_TYPES, load_tables, tables_for
from .geometry import SYSTEM_LETTERS, MapSystem, Position, StrategicMap, zone_name
from .mappage import write_map_page
from .names import SHIP_LABELS, SIDE_LABELS, ship_list, ships_counted
from .orders import BattleResult, FleetMove, FleetSetup, Orders, Purchase, ReserveEntry
from .resolve import step_key
from .rules import complete
from .state import ALIEN, EMPIRE, State, mover
from .tactical import TacticalOrders
from .visibility import SideView, player_view

RULESET_NAME = "millenium"
FORMAT_VERSION = "1"
ORDERS_SHEET = "Orders"
SITUATION_SHEET = "Situation"
#: Column A holds the header's labels ("Date limite") as well as the line numbers.
_WIDTHS = {"A": 11, "B": 12, "C": 13, "D": 24, "E": 11, "F": 12, "G": 13, "H": 11, "I": 12}
_LAST_COLUMN = 8  # I
#: The Situation page's one column, in characters: about an A4 page's printable width, so the
#: page prints whole (its lines are in column A; a print area of column A at its default width
#: cut every line after a dozen characters).  Longer lines wrap inside it.
SITUATION_WIDTH = 100

GAME_CELL, SIDE_CELL, STEP_CELL, DEADLINE_CELL = "B3", "B4", "B5", "B6"
POINTS_CELL = "G3"

#: The turn sheet.
FLEET_SECTION_ROW = 10
FLEET_FIRST_ROW = 12
FLEET_ROWS = 12
#: The note under the fleet lines: their order matters for stacking.
STACKING_NOTE_ROW = 24
BUY_SECTION_ROW = 25
BUY_FIRST_ROW = 27
BUY_ROWS = 6
#: Set-up sheets: a line per system (the Empire's card number, or the Extraterrestrial's "oui"
#: for its programme), the imperial planet, the six fleets.
SYSTEM_SECTION_ROW = 10
SYSTEM_FIRST_ROW = 12
SYSTEM_ROWS = 24
IMPERIAL_CELL = "C37"
SETUP_FLEET_SECTION_ROW = 39
SETUP_FLEET_FIRST_ROW = 41
SETUP_FLEET_ROWS = 6
#: Standing tactical orders and the message, at their rows on each kind of sheet.
TACTICS_ROW = {"turn": 35, "setup": 49}
MESSAGE_ROW = {"turn": 43, "setup": 57}
MESSAGE_LINES = 5
MAX_MESSAGE_LENGTH = 2000
#: Each standing tactical order: its field, its label, the words the reader reads, and the
#: values its drop-down offers (the game's own, written in the sheet's language, `NOTATION`).
TACTIC_FIELDS = (
    ("stance", N_("Stance"), parse.STANCE_WORDS, ("close", "stand off")),
    (
        "priority",
        N_("Targets first"),
        parse.PRIORITY_WORDS,
        ("bases", "ships", "capital", "nearest"),
    ),
    ("fire", N_("Fire"), parse.FIRE_WORDS, ("focus", "spread")),
    ("leave", N_("Leave the battle"), parse.LEAVE_WORDS, ("never", "compulsory", "losing")),
    ("edge", N_("Entry edge"), parse.DIRECTION_WORDS, ("N", "E", "S", "W")),
)
#: The words a sheet writes in its drop-downs and pre-filled cells, in its reader's language and
#: with the accents a French reader expects ("à distance", "entrée"): the game's values (orders,
#: standing tactical orders, yes and no, the ways) and the word each is written as.  The reader
#: reads either language, with or without the accents (`parse`), so a sheet typed in English
#: comes back in English and one typed in French in French.
NOTATION = {
    "fr": {
        "move": "mouvement",
        "jump": "saut",
        "enter": "entrée",
        "reserve": "réserve",
        "yes": "oui",
        "no": "non",
        "close": "au contact",
        "stand off": "à distance",
        "bases": "bases",
        "ships": "navires",
        "capital": "vaisseaux",
        "nearest": "le plus proche",
        "focus": "concentré",
        "spread": "réparti",
        "never": "jamais",
        "compulsory": "après 3 tours",
        "losing": "si perdant",
        "N": "N",
        "E": "E",
        "S": "S",
        "W": "O",
    },
    "en": {
        "move": "move",
        "jump": "jump",
        "enter": "enter",
        "reserve": "reserve",
        "yes": "yes",
        "no": "no",
        "close": "close",
        "stand off": "stand off",
        "bases": "bases",
        "ships": "ships",
        "capital": "capital ships",
        "nearest": "nearest",
        "focus": "focus",
        "spread": "spread",
        "never": "never",
        "compulsory": "after 3 rounds",
        "losing": "when losing",
        "N": "N",
        "E": "E",
        "S": "S",
        "W": "W",
    },
}
#: The tab with the input cells, by the sheet's language ("Ordres" for a French reader); the
#: reader finds either, so a sheet is read whatever language it was written in.
ORDERS_TABS = {"fr": "Ordres", "en": "Orders"}


def notation(language: str) -> dict[str, str]:
    """The words a sheet in ``language`` writes (French unless English: the game's own)."""
    return NOTATION["en" if language == "en" else "fr"]


def orders_tab(language: str) -> str:
    """The input tab's name for a reader of ``language``."""
    return ORDERS_TABS["en" if language == "en" else "fr"]


#: The standing tactical orders' values as a reader reads them.
TACTIC_SHOWN = {
    "close": N_("close in"),
    "stand off": N_("stand off"),
    "bases": N_("bases"),
    "ships": N_("ships"),
    "capital": N_("capital ships"),
    "nearest": N_("the nearest"),
    "focus": N_("focused"),
    "spread": N_("spread"),
    "never": N_("never"),
    "compulsory": N_("after the compulsory rounds"),
    "losing": N_("when losing"),
    "W": N_("W"),
}
ORDER_VALUES = ("move", "jump", "enter", "reserve")


def _kind(state: State, side: str) -> str:
    """The sheet ``side`` fills in the step awaited: at set-up the Empire's, the
    Extraterrestrial's programme and compositions (written at the same time, rule III), then
    the Extraterrestrial's placement once the Empire's fleets stand; then turn sheets."""
    if state.turn == 0 and not state.systems:
        return "setup-empire" if side == EMPIRE else "setup-alien"
    if state.turn == 0:
        return "placement-alien"
    return "turn"


def _map_meta(game_map: StrategicMap) -> str:
    return json.dumps(
        {
            "columns": game_map.columns,
            "rows": game_map.rows,
            "systems": {s.letter: [zone_name(s.zone), s.level] for s in game_map.systems.values()},
        }
    )


def write_sheet(
    state: State,
    player: str,
    path: Path,
    *,
    token: str,
    deadline: str,
    house_rules: Mapping[str, Any] | None = None,
) -> None:
    """Write the sheet the step awaited asks of ``player`` (atomically), in the language the
    engine set for the reader (`i18n.speaking_to`); for a battle waiting for the referee's
    table, its battle sheet (`battlesheet`)."""
    rules = complete(house_rules)
    battle = battle_of(state, player)
    if battle is not None:
        write_battle_sheet(state, battle, path, token=token, deadline=deadline, house_rules=rules)
        return
    w = current()
    try:
        side = state.side_of(player)
    except KeyError:
        raise UsageError(f"{player!r} plays no side of {state.game_name}") from None
    kind = _kind(state, side)
    expected = (
        (EMPIRE, ALIEN)
        if kind in ("setup-empire", "setup-alien")
        else (ALIEN,)
        if kind == "placement-alien"
        else (mover(state.turn),)
    )
    if side not in expected:
        raise UsageError(f"{step_key(state)} is not {side}'s step to order")
    view = player_view(state, player, rules)
    key = step_key(state)
    with turn_workbook(
        path,
        title=f"{state.game_name} - {key} - {player}",
        subject=w.gettext("Millenium turn sheet"),
        pages=(orders_tab(w.language), SITUATION_SHEET, w.gettext("Map")),
        widths=_WIDTHS,
    ) as book:
        orders_ws, situation_ws, map_ws = book.pages
        st = _Styles(book.wb)
        page = Page(orders_ws, st, book.lists, width=_LAST_COLUMN)
        _header(page, view, kind, deadline)
        if kind == "turn":
            _write_fleet_orders(page, view)
            _write_purchases(page, view)
            block = "turn"
        else:
            _write_setup(page, view, kind, rules)
            block = "setup"
        _write_tactics(page, TACTICS_ROW[block], state.tactics.get(side, TacticalOrders()))
        last = _write_message(page, MESSAGE_ROW[block])
        rows = _write_situation(situation_ws, st, view, kind, rules)
        map_rows, map_cols = write_map_page(map_ws, book.wb, st, view, tables_for(rules))
        book.finish(
            footer=f"{state.game_name} - {w.gettext(SIDE_LABELS[side])} ({player}) - {key}",
            print_areas=(
                f"A1:I{last}",
                f"A1:A{max(1, rows)}",
                f"A1:{xl_col_to_name(map_cols)}{map_rows + 1}",
            ),
            meta=[
                ("format_version", FORMAT_VERSION),
                ("ruleset", RULESET_NAME),
                ("game_id", state.game_id),
                ("game_name", state.game_name),
                ("player", player),
                ("side", side),
                ("step", key),
                ("turn", str(state.turn)),
                ("kind", kind),
                ("language", w.language),
                ("map", _map_meta(state.map)),
                ("token", token),
            ],
        )


def _header(page: Page, view: SideView, kind: str, deadline: str) -> None:
    w = current()
    ws, st = page.ws, page.st
    title = {
        "setup-empire": w.gettext("MILLENIUM - THE EMPIRE'S SET-UP"),
        "setup-alien": w.gettext("MILLENIUM - THE EXTRATERRESTRIAL'S SET-UP"),
        "placement-alien": w.gettext("MILLENIUM - THE EXTRATERRESTRIAL'S PLACEMENT"),
        "turn": w.gettext("MILLENIUM - ORDERS"),
    }[kind]
    ws.merge_range(0, 0, 0, page.width, title, st.title)
    ws.set_row(0, 26)
    turn = w("Game turn {turn} of 20", turn=view.turn) if view.turn else w.gettext("Set-up")
    ws.merge_range(1, 0, 1, page.width, turn, st.subtitle)
    for n, (label, ref, value) in enumerate(
        (
            (w.gettext("Game"), GAME_CELL, view.game_name),
            (w.gettext("Side"), SIDE_CELL, f"{w.gettext(SIDE_LABELS[view.side])} ({view.player})"),
            (w.gettext("Step"), STEP_CELL, _step_name(kind, view.turn)),
            (w.gettext("Deadline"), DEADLINE_CELL, deadline),
        )
    ):
        page.labelled(f"A{n + 3}", label, ref, value, span=2)
    r, c = cell_rc(POINTS_CELL)
    ws.merge_range(r, c - 2, r, c - 1, w.gettext("Production points"), st.label)
    page.value(POINTS_CELL, sum(view.points.values()), st.value)
    text = {
        "setup-empire": w.gettext(
            "Deal one card to each system (the card numbers are on 'Situation'), name the "
            "imperial planet (a planet of a loyalty-6 system, e.g. G1), compose six fleets "
            "within TAB 1's limits and place them on the map (e.g. 23N4, or a system's letter)."
        ),
        "setup-alien": w.gettext(
            "Mark the systems of your conquest programme (at least 18) and compose six fleets "
            "within TAB 1's limits. You place them beyond the edges on your next sheet, once "
            "the Empire has placed its own."
        ),
        "placement-alien": w.gettext(
            "Choose where each of your fleets waits beyond an edge (the places are on "
            "'Situation'); they enter the map at level 4 by normal movement on turn 1."
        ),
        "turn": w.gettext(
            "One line per fleet: move (the sectors entered, e.g. 23C4 23E4 33W4; a level "
            "changed in place, 23E3), jump (a zone and level at least 6 zones away, e.g. 33 6), "
            "enter (a fleet waiting outside, by normal movement) or reserve (a reserve entering "
            "by hyperspace). Fill in the yellow cells only."
        ),
    }[kind]
    page.note("A7:I8", text)


def _step_name(kind: str, turn: int) -> str:
    """The step as the header names it: a set-up by whose it is ("mise en place de
    l'Empire"), the Extraterrestrial's placement, a game turn by its number."""
    w = current()
    if kind == "setup-empire":
        return w.gettext("set-up of the Empire")
    if kind == "setup-alien":
        return w.gettext("set-up of the Extraterrestrial")
    if kind == "placement-alien":
        return w.gettext("placement of the Extraterrestrial")
    return str(turn)


def _write_fleet_orders(page: Page, view: SideView) -> None:
    w = current()
    said_words = notation(w.language)
    st = page.st
    page.section(FLEET_SECTION_ROW, w.gettext("FLEETS - one line per fleet"))
    headers = (
        "#",
        w.gettext("Fleet"),
        w.gettext("Order"),
        w.gettext("Path or destination"),
        w.gettext("Land on"),
        w.gettext("Attack"),
        w.gettext("If free: way"),
        w.gettext("If free: sector"),
    )
    page.headers(FLEET_SECTION_ROW + 1, headers)
    for row in page.numbered(FLEET_FIRST_ROW, FLEET_ROWS):
        for col in "BCDEFGH":
            page.blank(f"{col}{row}", st.input_text)
    last = FLEET_FIRST_ROW + FLEET_ROWS - 1
    # The turn carries the lines out in order, each move's stacking counted against where
    # the side's other fleets stand after the lines above it: the order can cancel a move.
    page.note(
        f"A{STACKING_NOTE_ROW}:I{STACKING_NOTE_ROW}",
        w.gettext(
            "The lines are carried out from top to bottom, and each move's stacking (at most 7 "
            "ships of your fleets together in a sector and level) is counted where your fleets "
            "stand after the lines above it: write a fleet leaving a sector before one entering "
            "it. A move that would break the limit is cancelled and its fleet stays."
        ),
    )
    page.ws.set_row(STACKING_NOTE_ROW - 1, 38)
    letters = [f.letter for f in view.fleets if f.ships]
    page.ask(
        f"B{FLEET_FIRST_ROW}:B{last}", w.gettext("Fleet"), w.gettext("One of your fleets."), letters
    )
    page.ask(
        f"C{FLEET_FIRST_ROW}:C{last}",
        w.gettext("Order"),
        w.gettext("move, jump (by hyperspace), enter (from outside), reserve."),
        [said_words[v] for v in ORDER_VALUES],
    )
    page.ask(
        f"D{FLEET_FIRST_ROW}:D{last}",
        w.gettext("Path or destination"),
        w.gettext(
            "A move: the sectors entered in order (23C4 23E4). A jump or reserve: zone and "
            "level (33 6)."
        ),
    )
    page.ask(
        f"E{FLEET_FIRST_ROW}:E{last}",
        w.gettext("Land on"),
        w.gettext("A planet to take or colonise at the end of the move (e.g. N1): 2 more points."),
    )
    page.ask(
        f"F{FLEET_FIRST_ROW}:F{last}",
        w.gettext("Attack"),
        w.gettext("yes: attack the planet if it refuses."),
        (said_words["yes"], said_words["no"]),
    )
    page.ask(
        f"G{FLEET_FIRST_ROW}:H{last}",
        w.gettext("If free (LB)"),
        w.gettext(
            "Your choice when a rose says LB: a way (N, E, S, W) for the deviation, a sector "
            "for the arrival."
        ),
        [said_words[v] for v in ("N", "E", "S", "W")],
    )


def _write_purchases(page: Page, view: SideView) -> None:
    w = current()
    st = page.st
    page.section(BUY_SECTION_ROW, w.gettext("PURCHASES - ships for your fleets (TAB 1 costs)"))
    page.headers(
        BUY_SECTION_ROW + 1,
        ("#", w.gettext("Fleet"), w.gettext("Ship"), w.gettext("Number"), w.gettext("Points from")),
    )
    for row in page.numbered(BUY_FIRST_ROW, BUY_ROWS):
        for col in "BCDE":
            page.blank(f"{col}{row}", st.input_text)
    last = BUY_FIRST_ROW + BUY_ROWS - 1
    page.ask(
        f"B{BUY_FIRST_ROW}:B{last}",
        w.gettext("Fleet"),
        w.gettext("The fleet the ships are for."),
        list(load_tables().fleets),
    )
    page.ask(
        f"C{BUY_FIRST_ROW}:C{last}",
        w.gettext("Ship"),
        w.gettext("The ship type."),
        [w.gettext(SHIP_LABELS[k]) for k in SHIP_TYPES],
    )
    page.whole_number(
        f"D{BUY_FIRST_ROW}:D{last}", w.gettext("Number"), w.gettext("How many."), 1, 9
    )
    page.ask(
        f"E{BUY_FIRST_ROW}:E{last}",
        w.gettext("Points from"),
        w.gettext("Systems to take the points from first (letters); empty: any."),
    )


def _write_setup(page: Page, view: SideView, kind: str, rules: Mapping[str, Any]) -> None:
    w = current()
    st = page.st
    if kind == "placement-alien":
        _write_placement(page, view)
        return
    empire = kind == "setup-empire"
    title = (
        w.gettext("CARDS - the card dealt to each system")
        if empire
        else w.gettext("CONQUEST PROGRAMME - yes for each system (at least 18)")
    )
    page.section(SYSTEM_SECTION_ROW, title)
    page.headers(
        SYSTEM_SECTION_ROW + 1,
        ("#", w.gettext("System"), w.gettext("Card") if empire else w.gettext("Programme")),
    )
    rows = page.numbered(SYSTEM_FIRST_ROW, SYSTEM_ROWS)
    for row, system in zip(rows, view.map.systems.values(), strict=False):
        page.value(f"B{row}", f"{system.letter} {system.name}", st.value)
        page.blank(f"C{row}", st.input_text)
    last = SYSTEM_FIRST_ROW + SYSTEM_ROWS - 1
    if empire:
        if rules["cards_dealt"] == "random":
            page.note(
                f"D{SYSTEM_FIRST_ROW}:I{SYSTEM_FIRST_ROW + 1}",
                w.gettext("House rule: the cards are dealt at random; leave these cells empty."),
            )
        page.whole_number(
            f"C{SYSTEM_FIRST_ROW}:C{last}",
            w.gettext("Card"),
            w.gettext("The number of the card this system gets (each card once)."),
            1,
            len(view.map.cards),
        )
        r, c = cell_rc(IMPERIAL_CELL)
        page.ws.merge_range(r, 0, r, c - 1, w.gettext("Imperial planet"), st.label)
        page.blank(IMPERIAL_CELL, st.input_text)
        page.ask(
            IMPERIAL_CELL,
            w.gettext("Imperial planet"),
            w.gettext("A planet of a loyalty-6 system, e.g. G1."),
        )
    else:
        page.ask(
            f"C{SYSTEM_FIRST_ROW}:C{last}",
            w.gettext("Programme"),
            w.gettext("yes to put the system in your programme."),
            (notation(w.language)["yes"], notation(w.language)["no"]),
        )
    _fleet_table_head(
        page, w.gettext("FLEETS - six fleets, their ships and where they start"), start=empire
    )
    for row in page.numbered(SETUP_FLEET_FIRST_ROW, SETUP_FLEET_ROWS):
        page.blank(f"B{row}", st.input_text)
        for col in "CDEFG":
            page.blank(f"{col}{row}", st.input_number)
        if empire:
            page.blank(f"H{row}", st.input_text, through=f"I{row}")
    last = SETUP_FLEET_FIRST_ROW + SETUP_FLEET_ROWS - 1
    page.ask(
        f"B{SETUP_FLEET_FIRST_ROW}:B{last}",
        w.gettext("Fleet"),
        w.gettext("A fleet letter (TAB 1)."),
        list(load_tables().fleets),
    )
    page.whole_number(
        f"C{SETUP_FLEET_FIRST_ROW}:G{last}",
        w.gettext("Ships"),
        w.gettext("How many of this type (TAB 1's limits)."),
        0,
        7,
    )
    if empire:
        page.ask(
            f"H{SETUP_FLEET_FIRST_ROW}:H{last}",
            w.gettext("Start"),
            w.gettext("Where it starts on the map: a position (23N4) or a system's letter."),
        )


def _fleet_table_head(page: Page, title: str, *, start: bool) -> None:
    """The head of a set-up sheet's fleet table (letter, one column per ship type, and where
    the fleet starts when the sheet asks or shows it): the Empire's set-up, the
    Extraterrestrial's set-up and its placement sheet share one layout so a player finds each
    fleet on the same row from one sheet to the next."""
    w = current()
    page.section(SETUP_FLEET_SECTION_ROW, title)
    headers = (
        "#",
        w.gettext("Fleet"),
        *[w.gettext(SHIP_LABELS[k]) for k in SHIP_TYPES],
        *((w.gettext("Start"),) if start else ()),
    )
    page.headers(SETUP_FLEET_SECTION_ROW + 1, headers)
    page.ws.set_row(SETUP_FLEET_SECTION_ROW, 26)  # ship names wrap on two lines


def _write_placement(page: Page, view: SideView) -> None:
    """The Extraterrestrial's placement sheet: its programme and fleets as its set-up sheet
    fixed them (shown, not asked), and beside each fleet the place beyond an edge it waits
    at (rule III: placed after the Empire's fleets, composed before)."""
    w = current()
    st = page.st
    page.section(
        SYSTEM_SECTION_ROW, w.gettext("CONQUEST PROGRAMME - as your set-up sheet wrote it")
    )
    page.headers(SYSTEM_SECTION_ROW + 1, ("#", w.gettext("System"), w.gettext("Programme")))
    for row, system in zip(
        page.numbered(SYSTEM_FIRST_ROW, SYSTEM_ROWS), view.map.systems.values(), strict=False
    ):
        page.value(f"B{row}", f"{system.letter} {system.name}", st.value)
        page.value(f"C{row}", w.gettext("yes") if system.letter in view.programme else "", st.value)
    _fleet_table_head(page, w.gettext("FLEETS - where each waits beyond an edge"), start=True)
    fleets = [f for f in view.fleets if f.ships and f.where == "reserve"]
    for row, fleet in zip(
        page.numbered(SETUP_FLEET_FIRST_ROW, SETUP_FLEET_ROWS), fleets, strict=False
    ):
        page.value(f"B{row}", fleet.letter, st.value)
        kinds = [s.kind for s in fleet.ships]
        for kind, col in zip(SHIP_TYPES, "CDEFG", strict=True):
            page.value(f"{col}{row}", kinds.count(kind) or "", st.value)
        page.blank(f"H{row}", st.input_text, through=f"I{row}")
    last = SETUP_FLEET_FIRST_ROW + SETUP_FLEET_ROWS - 1
    page.ask(
        f"H{SETUP_FLEET_FIRST_ROW}:H{last}",
        w.gettext("Start"),
        w.gettext("Where it waits beyond an edge: one of the places on 'Situation' (e.g. 03E4)."),
        [parse.in_language(str(p), w.language) for p in view.map.edge_positions(4)],
    )


def _write_tactics(page: Page, row: int, standing: TacticalOrders) -> None:
    w = current()
    st = page.st
    page.section(row, w.gettext("STANDING TACTICAL ORDERS - how your fleets fight"))
    shown = notation(w.language)
    for n, (field, label, _words, values) in enumerate(TACTIC_FIELDS, start=1):
        ref = f"D{row + n}"
        page.ws.merge_range(row + n - 1, 1, row + n - 1, 2, w.gettext(label), st.label)
        value = str(getattr(standing, field))
        page.value(ref, shown.get(value, value), st.input_text)
        page.ask(
            ref,
            w.gettext(label),
            w.gettext("Kept for every battle until a later sheet changes it."),
            [shown[v] for v in values],
        )
    ref = f"D{row + len(TACTIC_FIELDS) + 1}"
    page.ws.merge_range(
        row + len(TACTIC_FIELDS),
        1,
        row + len(TACTIC_FIELDS),
        2,
        w.gettext("Launch interceptors"),
        st.label,
    )
    page.value(ref, shown["yes"] if standing.interceptors else shown["no"], st.input_text)
    page.ask(
        ref, w.gettext("Launch interceptors"), w.gettext("yes or no."), (shown["yes"], shown["no"])
    )


def _tactic_cells(row: int) -> dict[str, str]:
    cells = {field: f"D{row + n}" for n, (field, *_rest) in enumerate(TACTIC_FIELDS, start=1)}
    cells["interceptors"] = f"D{row + len(TACTIC_FIELDS) + 1}"
    return cells


def _write_message(page: Page, row: int) -> int:
    w = current()
    page.section(row, w.gettext("MESSAGE TO THE REFEREE"))
    page.ws.merge_range(row, 1, row + MESSAGE_LINES - 1, page.width, "", page.st.input_text)
    page.ask(
        f"B{row + 1}",
        w.gettext("Message"),
        w("Free text, at most {n} characters.", n=MAX_MESSAGE_LENGTH),
    )
    return row + MESSAGE_LINES


def _write_situation(
    ws: Any, st: _Styles, view: SideView, kind: str, rules: Mapping[str, Any]
) -> int:
    w = current()
    page = _SituationListing(ws, st, w.gettext("Situation"))
    where = {
        "map": w.gettext("on the map"),
        "reserve": w.gettext("in reserve"),
        "waiting": w.gettext("waiting outside"),
        "destroyed": w.gettext("destroyed"),
    }
    page.block(
        w.gettext("Your fleets"),
        [
            w(
                "{fleet}: {where} - {ships}",
                fleet=f.letter,
                where=_place(where[f.where], f.position, view.map),
                ships=ship_list([s.kind for s in f.ships], w),
            )
            + (" (" + _damaged(sum(s.damaged for s in f.ships)) + ")" if damaged else "")
            for f in view.fleets
            if f.ships or f.where != "reserve"
            for damaged in [any(s.damaged for s in f.ships)]
        ],
        w.gettext("No fleet in play yet."),
    )
    page.block(
        w.gettext("The other side's fleets"),
        [
            w(
                "{fleet}: {where}",
                fleet=f.letter,
                where=_place(where.get(f.where, f.where), f.position, view.map),
            )
            for f in view.others
        ],
        w.gettext("None seen."),
    )
    lines = []
    for s in view.systems.values():
        placed: MapSystem = view.map.systems[s.letter]
        known = (
            w("loyalty {n}", n=s.loyalty) if s.loyalty is not None else w.gettext("card not seen")
        )
        planets = ""
        if s.planets is not None:
            planets = " - " + ", ".join(f"{p.name} {_holder(p.holder)}" for p in s.planets)
        where_text = w(
            "zone {zone}, level {level}", zone=zone_name(placed.zone), level=placed.level
        )
        lines.append(
            w(
                "{letter} {name}: {where}, {known}",
                letter=s.letter,
                name=s.name,
                where=where_text,
                known=known,
            )
            + planets
        )
    page.block(w.gettext("Systems"), lines, "")
    if kind == "setup-empire":
        page.block(
            w.gettext("The cards to deal"),
            [
                w(
                    "card {n}: loyalty {loyalty}, {planets}",
                    n=n,
                    loyalty=c.loyalty,
                    planets=w.ngettext("{n} planet", "{n} planets", c.planets).format(n=c.planets),
                )
                for n, c in enumerate(view.map.cards, 1)
            ],
            "",
        )
    if kind == "placement-alien":
        page.block(
            w.gettext("Places beyond the edges"),
            [" ".join(str(p) for p in view.map.edge_positions(4))],
            "",
        )
    secrets = []
    if view.programme:
        secrets.append(w("Your conquest programme: {systems}", systems=" ".join(view.programme)))
    if view.imperial:
        secrets.append(w("The imperial planet: {planet}", planet=view.imperial))
    if view.points:
        secrets.append(
            w(
                "Production points by system: {points}",
                points=", ".join(f"{k} {v}" for k, v in sorted(view.points.items())),
            )
        )
    page.block(w.gettext("Your secrets"), secrets, w.gettext("Nothing yet."))
    page.block(
        w.gettext("What you were told"),
        [again(e.text, w, e.data.get("say")) for e in view.events],
        w.gettext("Nothing."),
    )
    return page.rows


def _damaged(n: int) -> str:
    """``2 damaged``: how many ships of a fleet are damaged, by the catalog's plural forms."""
    return current().ngettext("{n} damaged", "{n} damaged", n).format(n=n)


def _place(where: str, position: Position | None, game_map: StrategicMap) -> str:
    """Where a fleet stands as a line shows it: a fleet waiting beyond an edge says the
    sector of the map it enters at, the first step its player writes."""
    entry = game_map.entry_point(position) if position is not None else None
    if entry is None:
        return f"{where} {position or ''}".strip()
    return current()(
        "{where} {place}, enters at {entry}", where=where, place=position, entry=entry
    ).strip()


class _SituationListing(Listing):
    """The Situation page: one column as wide as the printed page, its lines wrapping in it
    (Excel and LibreOffice size a wrapped row's height when they open the sheet)."""

    def __init__(self, ws: Any, st: _Styles, title: str) -> None:
        super().__init__(ws, st, title)
        ws.set_column(0, 0, SITUATION_WIDTH)
        self.wrapped = st.wrapped_line

    def line(self, text: str, fmt: Any = None) -> None:
        """A line with its positions in the reader's sector letters (a French reader's O)."""
        text = parse.in_language(text, current().language)
        super().line(text, fmt if fmt is not None else self.wrapped)


class _Styles(SheetStyles):
    """The common formats, and the Situation page's wrapping line."""

    def __init__(self, wb: Any) -> None:
        super().__init__(wb)
        self.wrapped_line = wb.add_format(
            {**self.base, "font_name": "Consolas", "font_size": 9, "text_wrap": True}
        )


def _holder(side: str) -> str:
    w = current()
    return {ALIEN: w.gettext("(Extraterrestrial)"), EMPIRE: w.gettext("(Empire)")}.get(
        side, w.gettext("(free)")
    )


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def _meta_map(sheet: TurnSheetFile) -> StrategicMap:
    """The map's shape as the sheet carries it (enough to read positions)."""
    try:
        data = json.loads(sheet.meta.get("map", ""))
        systems = {
            str(k): MapSystem(str(k), (int(v[0][0]), int(v[0][1])), int(v[1]), str(k))
            for k, v in data["systems"].items()
        }
        return StrategicMap("", int(data["columns"]), int(data["rows"]), systems, (), False)
    except (ValueError, KeyError, TypeError, IndexError):
        raise NotATurnSheet(
            f"{sheet.name}: the sheet's map is damaged; use the sheet you were sent"
        ) from None


def _cell(reader: SheetReader, ref: str) -> str:
    """A cell of the input tab, named as the sheet names it ("Ordres!B12", "Orders!B12")."""
    return f"{reader.name}!{ref}"


def _orders_tab(names: list[str]) -> str:
    """The input tab of a sheet with these tabs: either language's (or the one it lacks, for
    the refusal to name)."""
    return next((t for t in ORDERS_TABS.values() if t in names), ORDERS_SHEET)


def read_opened(sheet: TurnSheetFile) -> SheetRead:
    check_layout(sheet, RULESET_NAME, "Millenium", (FORMAT_VERSION,))
    meta_number(sheet, "turn", 0, 99)
    kind, player, step, side = (sheet.meta.get(k, "") for k in ("kind", "player", "step", "side"))
    if kind == "battle":
        return read_battle(sheet)
    if (
        not player
        or not step
        or kind not in ("setup-empire", "setup-alien", "placement-alien", "turn")
        or side not in (ALIEN, EMPIRE)
    ):
        raise NotATurnSheet(f"{sheet.name}: the sheet's kind, player or step is damaged")
    game_map = _meta_map(sheet)
    tab = _orders_tab(list(sheet.workbook.sheetnames))
    sheet.sheet(tab)
    reader = SheetReader(sheet, tab)
    orders = Orders(side, step)
    if kind == "turn":
        _read_fleet_orders(reader, orders, game_map)
        _read_purchases(reader, orders)
        block = "turn"
    else:
        _read_setup(reader, kind, game_map, orders)
        block = "setup"
    orders.tactics = _read_tactics(reader, TACTICS_ROW[block])
    message = reader.raw(f"B{MESSAGE_ROW[block] + 1}")
    if len(message) > MAX_MESSAGE_LENGTH:
        reader.error(
            f"B{MESSAGE_ROW[block] + 1}",
            message[:80],
            current().gettext("the message is {n} characters long").format(n=len(message)),
            current().gettext("Shorten it to {n}.").format(n=MAX_MESSAGE_LENGTH),
        )
    elif message:
        orders.message = MessageBudget().shape(message).text
    return SheetRead(orders=orders, problems=reader.problems, meta=dict(sheet.meta))


def _read_fleet_orders(reader: SheetReader, orders: Orders, game_map: StrategicMap) -> None:
    w = current()
    for row in range(FLEET_FIRST_ROW, FLEET_FIRST_ROW + FLEET_ROWS):
        cells = [f"{c}{row}" for c in "BCDEFGH"]
        if not any(reader.raw(c) for c in cells):
            continue
        letter = parse.fleet_letter(reader.raw(f"B{row}"))
        order = _order_word(reader, f"C{row}")
        target = reader.raw(f"D{row}")
        orders.sectors_typed.update(parse.sectors_typed(target))
        land = reader.raw(f"E{row}").upper()
        attack = bool(reader.parsed(f"F{row}", parse.yes_no))
        way = (
            reader.parsed(
                f"G{row}",
                lambda t, c: parse.word(t, parse.DIRECTION_WORDS, N_("a way (N, E, S, W)"), c),
            )
            or ""
        )
        sector = (
            reader.parsed(
                f"H{row}",
                lambda t, c: parse.word(t, parse.DIRECTION_WORDS, N_("a sector (N, E, S, W)"), c),
            )
            or ""
        )
        if any(reader.refused(c) for c in cells):
            continue
        if not letter or not order:
            reader.error(
                f"B{row}",
                letter or order or "",
                w.gettext("a line needs a fleet and an order"),
                w.gettext("Fill in the fleet and the order, or clear the line."),
            )
            continue
        if order in ("jump", "reserve"):
            found = reader.parsed(f"D{row}", parse.destination, game_map)
            if found is None:
                if not target:
                    reader.error(
                        f"D{row}",
                        "",
                        w.gettext("a jump needs its destination"),
                        w.gettext("Write the zone and the level, e.g. 33 6."),
                    )
                continue
            zone, level = found
            if order == "jump":
                orders.moves.append(
                    FleetMove(
                        letter,
                        "jump",
                        _cell(reader, f"B{row}"),
                        zone=zone,
                        level=level,
                        free_direction=way,
                        free_sector=sector,
                    )
                )
            else:
                orders.entries.append(
                    ReserveEntry(letter, zone, level, _cell(reader, f"B{row}"), way, sector)
                )
            continue
        steps = reader.parsed(f"D{row}", parse.path, game_map) or ()
        if reader.refused(f"D{row}"):
            continue
        orders.moves.append(
            FleetMove(
                letter, order, _cell(reader, f"B{row}"), tuple(steps), land=land, attack=attack
            )
        )


def _order_word(reader: SheetReader, ref: str) -> str:
    return (
        reader.parsed(
            ref,
            lambda t, c: parse.word(
                t, parse.ORDER_WORDS, N_("an order (move, jump, enter, reserve)"), c
            ),
        )
        or ""
    )


def _read_purchases(reader: SheetReader, orders: Orders) -> None:
    w = current()
    for row in range(BUY_FIRST_ROW, BUY_FIRST_ROW + BUY_ROWS):
        cells = [f"{c}{row}" for c in "BCDE"]
        if not any(reader.raw(c) for c in cells):
            continue
        letter = parse.fleet_letter(reader.raw(f"B{row}"))
        kind = (
            reader.parsed(
                f"C{row}", lambda t, c: parse.word(t, parse.SHIP_WORDS, N_("a ship type"), c)
            )
            or ""
        )
        number = reader.parsed(f"D{row}", parse.count) or 0
        sources = tuple(reader.raw(f"E{row}").upper().replace(",", " ").split())
        if any(reader.refused(c) for c in cells):
            continue
        if not letter or not kind or not number:
            reader.error(
                f"B{row}",
                letter,
                w.gettext("a purchase needs a fleet, a ship type and a number"),
                w.gettext("Fill in all three, or clear the line."),
            )
            continue
        orders.purchases.append(Purchase(letter, kind, number, _cell(reader, f"B{row}"), sources))


def _read_setup(reader: SheetReader, kind: str, game_map: StrategicMap, setup: Orders) -> None:
    """A set-up sheet's choices into ``setup`` (its orders)."""
    w = current()
    setup.is_setup = True
    if kind == "placement-alien":
        _read_placement(reader, game_map, setup)
        return
    letters = list(game_map.systems)
    for row, letter in zip(
        range(SYSTEM_FIRST_ROW, SYSTEM_FIRST_ROW + SYSTEM_ROWS), letters, strict=False
    ):
        ref = f"C{row}"
        if kind == "setup-empire":
            number = reader.parsed(ref, lambda t, c: parse.count(t, c, 24))
            if number:
                setup.cards[letter] = number
                setup.card_cells[letter] = _cell(reader, ref)
        elif reader.parsed(ref, parse.yes_no):
            setup.programme.append(letter)
            setup.programme_cell = setup.programme_cell or _cell(reader, ref)
    if kind == "setup-empire":
        setup.imperial = reader.raw(IMPERIAL_CELL).upper()
        setup.imperial_cell = _cell(reader, IMPERIAL_CELL)
    for row in range(SETUP_FLEET_FIRST_ROW, SETUP_FLEET_FIRST_ROW + SETUP_FLEET_ROWS):
        letter = parse.fleet_letter(reader.raw(f"B{row}"))
        counts = {
            k: reader.parsed(f"{col}{row}", parse.count) or 0
            for k, col in zip(SHIP_TYPES, "CDEFG", strict=True)
        }
        start = (
            reader.parsed(f"H{row}", parse.position, game_map) if kind == "setup-empire" else None
        )
        if kind == "setup-empire":
            setup.sectors_typed.update(parse.sectors_typed(reader.raw(f"H{row}")))
        if not letter and not any(counts.values()) and start is None:
            continue
        if not letter:
            reader.error(
                f"B{row}",
                "",
                w.gettext("a fleet line needs the fleet's letter"),
                w.gettext("Write the letter, or clear the line."),
            )
            continue
        setup.fleets.append(
            FleetSetup(
                letter, {k: n for k, n in counts.items() if n}, start, _cell(reader, f"B{row}")
            )
        )


def _read_placement(reader: SheetReader, game_map: StrategicMap, setup: Orders) -> None:
    """The Extraterrestrial's placement: each fleet's place beyond an edge (its ships were
    fixed by the set-up sheet; the counts shown beside it are not read)."""
    for row in range(SETUP_FLEET_FIRST_ROW, SETUP_FLEET_FIRST_ROW + SETUP_FLEET_ROWS):
        letter = reader.raw(f"B{row}")
        start = reader.parsed(f"H{row}", parse.position, game_map)
        if letter and start is not None:
            setup.fleets.append(FleetSetup(letter, {}, start, _cell(reader, f"B{row}")))


def _read_tactics(reader: SheetReader, row: int) -> TacticalOrders:
    cells = _tactic_cells(row)
    values: dict[str, Any] = {}
    for field, label, words, _choices in TACTIC_FIELDS:
        found = reader.parsed(
            cells[field], lambda t, c, words=words, label=label: parse.word(t, words, label, c)
        )
        if found:
            values[field] = "W" if found == "W" else found
    interceptors = reader.parsed(cells["interceptors"], parse.yes_no)
    if interceptors is not None and reader.raw(cells["interceptors"]):
        values["interceptors"] = interceptors
    if values.get("edge") == "LB":
        values.pop("edge")
    return TacticalOrders(**values)


def read_sheet(path: Path, opened: TurnSheetFile | None = None) -> SheetRead:
    """Read a sheet a player sent; `NotATurnSheet` for anything that is not a usable sheet of
    this game.  The same bytes read again are answered from memory (`sheetreads`)."""
    return read_remembered(Path(path), opened, read_opened)


# --------------------------------------------------------------------------------------------
# Filling in (computer sides, tests) and the orders as text
# --------------------------------------------------------------------------------------------


def fill_sheet(path: Path, orders: Orders | BattleResult) -> None:
    """Type ``orders`` into the sheet at ``path`` as a player would, in the words and sector
    letters of the sheet's language (its input tab says which), as its drop-downs offer them:
    a computer side's sheet reads like its reader's, and its orders come back in his words;
    a battle's result as the referee would."""
    if isinstance(orders, BattleResult):
        fill_battle(path, orders)
        return
    check_room("fleet orders", len(orders.moves) + len(orders.entries), FLEET_ROWS)
    check_room("purchases", len(orders.purchases), BUY_ROWS)
    import openpyxl  # here: only the computer sides and the tests fill sheets in

    book = openpyxl.load_workbook(path, read_only=True)
    tab = _orders_tab(list(book.sheetnames))
    book.close()
    language = "en" if tab == ORDERS_TABS["en"] else "fr"
    typed = notation(language)
    with typing_into(path, tab) as (put, _):
        block = "setup" if orders.is_setup else "turn"
        if orders.is_setup:
            _fill_setup(put, orders, language)
        rows = iter(range(FLEET_FIRST_ROW, FLEET_FIRST_ROW + FLEET_ROWS))
        for m in orders.moves:
            row = next(rows)
            put(f"B{row}", m.fleet)
            put(f"C{row}", typed[m.kind])
            if m.kind == "jump" and m.zone is not None:
                put(f"D{row}", f"{zone_name(m.zone)} {m.level}")
            elif m.path:
                put(f"D{row}", parse.in_language(" ".join(str(p) for p in m.path), language))
            if m.land:
                put(f"E{row}", m.land)
            if m.attack:
                put(f"F{row}", typed["yes"])
            if m.free_direction:
                put(f"G{row}", typed.get(m.free_direction, m.free_direction))
            if m.free_sector:
                put(f"H{row}", typed.get(m.free_sector, m.free_sector))
        for e in orders.entries:
            row = next(rows)
            put(f"B{row}", e.fleet)
            put(f"C{row}", typed["reserve"])
            put(f"D{row}", f"{zone_name(e.zone)} {e.level}")
        for row, p in enumerate(orders.purchases, start=BUY_FIRST_ROW):
            put(f"B{row}", p.fleet)
            put(f"C{row}", p.kind.replace("_", "-"))
            put(f"D{row}", p.count)
            if p.spend_from:
                put(f"E{row}", " ".join(p.spend_from))
        cells = _tactic_cells(TACTICS_ROW[block])
        for field, *_rest in TACTIC_FIELDS:
            value = str(getattr(orders.tactics, field))
            put(cells[field], typed.get(value, value))
        put(cells["interceptors"], typed["yes"] if orders.tactics.interceptors else typed["no"])
        if orders.message:
            put(f"B{MESSAGE_ROW[block] + 1}", orders.message)


def _fill_setup(put: Any, setup: Orders, language: str) -> None:
    for row, letter in zip(
        range(SYSTEM_FIRST_ROW, SYSTEM_FIRST_ROW + SYSTEM_ROWS), SYSTEM_LETTERS, strict=True
    ):
        if letter in setup.cards:
            put(f"C{row}", setup.cards[letter])
        elif letter in setup.programme:
            put(f"C{row}", notation(language)["yes"])
    if setup.imperial:
        put(IMPERIAL_CELL, setup.imperial)
    for row, f in zip(
        range(SETUP_FLEET_FIRST_ROW, SETUP_FLEET_FIRST_ROW + SETUP_FLEET_ROWS),
        setup.fleets,
        strict=False,
    ):
        put(f"B{row}", f.fleet)
        for kind, col in zip(SHIP_TYPES, "CDEFG", strict=True):
            if f.ships.get(kind):
                put(f"{col}{row}", f.ships[kind])
        if f.start is not None:
            put(f"H{row}", parse.in_language(str(f.start), language))


def orders_text(orders: Orders | BattleResult) -> list[str]:
    """The orders as the referee understood them, a line each, in the reader's language."""
    if isinstance(orders, BattleResult):
        return result_text(orders)
    w = current()
    lines: list[str] = []
    if orders.is_setup:
        s = orders
        if s.cards:
            lines.append(
                w("Cards: {cards}", cards=" ".join(f"{k}={v}" for k, v in s.cards.items()))
            )
        if s.imperial:
            lines.append(w("Imperial planet: {planet}", planet=s.imperial))
        if s.programme:
            lines.append(w("Programme: {systems}", systems=" ".join(s.programme)))
        for f in s.fleets:
            ships = ship_list([k for k, n in f.ships.items() for _ in range(n)])
            if not f.ships:  # the Extraterrestrial's placement: its ships are already fixed
                lines.append(w("Fleet {fleet} waits at {start}", fleet=f.fleet, start=f.start))
            elif f.start is None:  # the Extraterrestrial's compositions, placed later
                lines.append(w("Fleet {fleet}: {ships}", fleet=f.fleet, ships=ships))
            else:
                lines.append(
                    w(
                        "Fleet {fleet}: {ships}, starting at {start}",
                        fleet=f.fleet,
                        ships=ships,
                        start=str(f.start),
                    )
                )
    for m in orders.moves:
        if m.kind == "jump":
            lines.append(
                w(
                    "{fleet} jumps to zone {zone} level {level}",
                    fleet=m.fleet,
                    zone=zone_name(m.zone or (0, 0)),
                    level=m.level,
                )
            )
        else:
            text = w(
                "{fleet} moves {path}", fleet=m.fleet, path=" ".join(str(p) for p in m.path) or "-"
            )
            if m.land:
                text += " " + (
                    w("and lands on {planet}, attacking if it refuses", planet=m.land)
                    if m.attack
                    else w("and lands on {planet}", planet=m.land)
                )
            lines.append(text)
    for e in orders.entries:
        lines.append(
            w(
                "{fleet} enters from reserve toward zone {zone} level {level}",
                fleet=e.fleet,
                zone=zone_name(e.zone),
                level=e.level,
            )
        )
    for p in orders.purchases:
        lines.append(
            w(
                "Buy {ships} for fleet {fleet}",
                ships=ships_counted(p.kind, p.count, w),
                fleet=p.fleet,
            )
        )
    lines = [parse.in_language(line, w.language, orders.sectors_typed) for line in lines]
    t = orders.tactics
    if t == TacticalOrders():  # the standing orders as the sheet pre-fills them: nothing new
        return lines or [w.gettext("No orders.")]
    shown = {k: w.gettext(v) for k, v in TACTIC_SHOWN.items()}
    lines.append(
        w(
            "Tactics: {stance}, {priority} first, fire {fire}, leave the battle: {leave}, "
            "enter by {edge}",
            stance=shown.get(t.stance, t.stance),
            priority=shown.get(t.priority, t.priority),
            fire=shown.get(t.fire, t.fire),
            leave=shown.get(t.leave, t.leave),
            edge=shown.get(t.edge, t.edge),
        )
    )
    return lines


__all__ = ["fill_sheet", "orders_text", "read_sheet", "write_sheet"]
