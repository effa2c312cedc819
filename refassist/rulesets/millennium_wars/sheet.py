"""Millennium Wars' sheets: the phasing player's impulse sheet, the other player's reaction
sheet, and the answer to the UN's demand for a ceasefire.

Every sheet has three pages: "Orders", where every section keeps its rows whatever the
exchange (so each cell can be cited in docs/rules/millennium-wars.md and a player finds the
moves in the same place all game); "Situation", what the side knows: on a reaction sheet the
attacks on its units first (`attacked`), its units, the enemy units it sees, its eliminated
units, the objectives, the reinforcements due and what it was told of the game turn so far,
every exchange of it; and "Board", the map around its units as a grid of cells with the
terrain, combat tables and shifts to plan with (`planning`).  Sections that do not belong to
the exchange (purchases after the first impulse, attacks on a reaction sheet) are written
locked, with a note saying why.

Notation (one thing a cell, `parse`): a move is a unit and the hexes it enters, in order; an
attack names its units, the hex, the CRT, political points, intensive combat, the retreats
and advances the attacker asks and the unit it picks on A1/B1; a defence, the same for the
units attacked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...errors import InvalidOrder, NotATurnSheet, UsageError
from ...text.message_text import MessageBudget
from ...text.words import counted
from ...workbook.sheetio import TurnSheetFile
from ...workbook.sheetkit import SheetReader, SheetStyles, cell_rc, check_room
from ...workbook.sheetpage import Listing, Page, typing_into
from ...workbook.sheetreads import read_remembered
from ...workbook.turnbook import check_layout, meta_number, turn_workbook
from ..base import SheetRead
from .attacked import attack_lines
from .combat import Attack, Defence
from .movement import Move
from .orders import CEASEFIRE_CELL, IW_CHOICES, InformationAttack, Orders, Purchase
from .parse import (
    CRT_NAMES,
    parse_advance,
    parse_crt,
    parse_path,
    parse_retreats,
    parse_units,
)
from .planning import board_print_column, turn_so_far, write_board_page
from .rules import complete
from .state import State, exchange_words, unit_line
from .supply import available_reinforcements, price
from .units import Unit
from .visibility import side_view

RULESET_NAME = "millennium-wars"
GAME_TITLE = "Millennium Wars"
FORMAT_VERSION = "1"

ORDERS_SHEET = "Orders"
SITUATION_SHEET = "Situation"
BOARD_SHEET = "Board"

GAME_CELL, SIDE_CELL, STEP_CELL, DEADLINE_CELL = "B3", "B4", "B5", "B6"
INDEX_CELL, POINTS_CELL, C4I_CELL, AIR_CELL = "G3", "G4", "G5", "G6"
#: On an impulse sheet: "yes" declares no further impulse this player turn (the later
#: impulses' exchanges are skipped).
LAST_CELL = "C9"
#: On an impulse sheet: the units held in reserve for the enemy's coming player turn (ids, or
#: "none"), under the moves.
RESERVES_CELL = "C40"
#: What may be typed in RESERVES_CELL for no reserves at all.
NO_RESERVES = ("none", "no", "-")

#: The column of an attack line where its political points are typed.
POINTS_COLUMN = "E"
BUY_SECTION_ROW, BUY_FIRST_ROW, BUY_ROWS = 10, 12, 4
IW_SECTION_ROW, IW_FIRST_ROW, IW_ROWS = 17, 19, 2
MOVE_SECTION_ROW, MOVE_FIRST_ROW, MOVE_ROWS = 22, 24, 16
ATTACK_SECTION_ROW, ATTACK_FIRST_ROW, ATTACK_ROWS = 41, 43, 8
DEFENCE_SECTION_ROW = 52
RETREAT_CELL, ADVANCE_CELL, AMBUSH_CELL, DEFENCE_POINTS_CELL = "C53", "C54", "C55", "C56"
MESSAGE_SECTION_ROW, MESSAGE_CELL, MESSAGE_LAST_ROW = 58, "B59", 62

MAX_MESSAGE_LENGTH = 2000
MAX_POINTS = 12
#: "guerrilla" places, free, a paramilitary unit a random event raised (offered only then).
BUY_KINDS = ("reinforcement", "replacement", "air defence", "guerrilla")
YES = ("yes", "y", "x", "true", "1", "intensive")
LAST_YES = ("yes", "y", "x", "true", "1")
_WIDTHS = {"A": 10, "B": 16, "C": 10, "D": 11, "E": 9, "F": 9, "G": 26, "H": 14, "I": 10}
_LAST_COLUMN = 8  # I


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def write_sheet(
    state: State,
    player: str,
    path: Path,
    *,
    token: str,
    deadline: str,
    house_rules: Mapping[str, Any] | None = None,
) -> None:
    """Write the sheet the current exchange asks of ``player`` to ``path`` (atomically)."""
    rules = complete(house_rules)
    side = state.side_of(player)
    if side is None:
        raise UsageError(f"{player!r} commands no side of {state.game_name}")
    view = side_view(state, side.name, rules)
    point = state.point
    if point.ceasefire:
        kind = "ceasefire"
    elif point.reaction:
        kind = "reaction"
    else:
        kind = "impulse"
    if kind != "ceasefire" and (state.reacting if point.reaction else state.phasing) is not side:
        raise UsageError(f"{point.key} is not {side.name}'s exchange to order")
    fast = bool(rules["fast_play"])
    with turn_workbook(
        path,
        title=f"{state.game_name} - {point.key} - {player}",
        subject=f"{GAME_TITLE} {kind} sheet",
        pages=(ORDERS_SHEET, SITUATION_SHEET, BOARD_SHEET),
        widths=_WIDTHS,
    ) as book:
        orders_ws, situation_ws, board_ws = book.pages
        st = SheetStyles(book.wb)
        page = Page(orders_ws, st, book.lists, width=_LAST_COLUMN)
        _header(page, view, side.name, player, kind, deadline)
        if kind == "ceasefire":
            _write_ceasefire(page)
            last = 12
        else:
            first = kind == "impulse" and point.impulse == 1
            mine = [u for u in view.units if u.side == side.name]
            if kind == "impulse":
                _write_last(page)
            _write_purchases(page, view, side.name, first, rules["reinforcements"] == "bought")
            theirs = sorted(u.id for u in view.units if u.side != side.name)
            _write_information(page, mine, theirs, first)
            _write_moves(page, mine, reaction=kind == "reaction")
            _write_reserves(page, kind == "impulse" and not fast, fast)
            _write_attacks(page, view, side.name, kind == "impulse")
            _write_defence(page, mine, kind == "reaction" or fast, fast)
            page.section(MESSAGE_SECTION_ROW, "MESSAGE TO THE REFEREE")
            r, c = cell_rc(MESSAGE_CELL)
            orders_ws.merge_range(r, c, MESSAGE_LAST_ROW - 1, page.width, "", st.input_text)
            page.ask(
                MESSAGE_CELL, "Message", f"Free text, at most {MAX_MESSAGE_LENGTH} characters."
            )
            last = MESSAGE_LAST_ROW
        rows = _write_situation(situation_ws, st, view, side.name, rules)
        board_rows = write_board_page(board_ws, book.wb, st, view, side.name, rules)
        book.finish(
            footer=f"{state.game_name} - {side.name} ({player}) - {point.key}",
            print_areas=(
                f"A1:I{last}",
                f"A1:A{max(1, rows)}",
                f"A1:{board_print_column(view, side.name)}{board_rows}",
            ),
            meta=[
                ("format_version", FORMAT_VERSION),
                ("ruleset", RULESET_NAME),
                ("game_id", state.game_id),
                ("game_name", state.game_name),
                ("player", player),
                ("step", point.key),
                ("turn", str(point.turn)),
                ("impulse", str(point.impulse)),
                ("kind", kind),
                ("fast_play", "yes" if fast else "no"),
                ("token", token),
            ],
            landscape=True,
        )


def _header(page: Page, view: State, side: str, player: str, kind: str, deadline: str) -> None:
    ws, st = page.ws, page.st
    titles = {
        "impulse": "MILLENNIUM WARS - IMPULSE",
        "reaction": "MILLENNIUM WARS - REACTION",
        "ceasefire": "MILLENNIUM WARS - CEASEFIRE",
    }
    ws.merge_range(0, 0, 0, page.width, titles[kind], st.title)
    ws.set_row(0, 26)
    ws.merge_range(1, 0, 1, page.width, exchange_words(view), st.subtitle)
    mine = view.side(side)
    for n, (label, ref, value) in enumerate(
        (
            ("Game", GAME_CELL, view.game_name),
            ("Side", SIDE_CELL, f"{side} ({player})"),
            ("Exchange", STEP_CELL, view.point.key),
            ("Deadline", DEADLINE_CELL, deadline),
        )
    ):
        page.labelled(f"A{n + 3}", label, ref, value, span=2)
    air = view.air or "no one (parity)"
    for ref, label, value in (
        (INDEX_CELL, "Political Index", view.political_index),
        (POINTS_CELL, "Political points", str(mine.political_points)),
        (C4I_CELL, "C4I / Air Defense", f"{mine.c4i} / {mine.air_defence}"),
        (AIR_CELL, "Air superiority", f"{air}" + (", bad weather" if view.bad_weather else "")),
    ):
        r, c = cell_rc(ref)
        ws.merge_range(r, c - 2, r, c - 1, label, st.label)
        ws.merge_range(r, c, r, c + 2, "", st.value)
        page.value(ref, value, st.value)
    text = {
        "impulse": "Fill in the yellow cells only: moves as the hexes entered, in order; attacks "
        "on enemy hexes next to where your units stand after their moves. 'Situation' lists "
        "your units and the enemy units you see. Send the sheet back as .xlsx or .ods before "
        "the deadline.",
        "reaction": "Your reaction: move reserve units, and say how the units attacked this "
        "impulse retreat and advance. 'Situation' lists what you see after the enemy's moves.",
        "ceasefire": "The UN demands a ceasefire. Answer accept or refuse; the other side "
        "answers in secret. Both accept: the game ends. One refuses: the Political Index "
        "moves 20 toward the side that complied.",
    }[kind]
    page.note("A7:I8", text + f" Random event this turn: {view.event or 'none'}.")


def _write_last(page: Page) -> None:
    """The declaration that this is the player's last impulse of the player turn: the
    exchanges of its later impulses are then skipped instead of sent for nothing."""
    r, c = cell_rc(LAST_CELL)
    page.ws.merge_range(r, 0, r, c - 1, "Last impulse this turn?", page.st.label)
    page.blank(LAST_CELL, page.st.input_text)
    page.ask(
        LAST_CELL,
        "Last impulse",
        "yes: you take no further impulse this player turn, and no sheet is sent for them.",
        ("yes", "no"),
        inline=True,
    )
    page.note(
        f"D{r + 1}:I{r + 1}",
        "yes: this is your last impulse this player turn (blank or no: you get the next one "
        "if you qualify).",
    )


def _locked(page: Page, row: int, text: str) -> None:
    page.note(f"B{row}:I{row}", text)


def _write_ceasefire(page: Page) -> None:
    page.section(10, "YOUR ANSWER TO THE UN")
    r, c = cell_rc(CEASEFIRE_CELL)
    page.ws.merge_range(r, 0, r, c - 1, "Comply with the ceasefire?", page.st.label)
    page.blank(CEASEFIRE_CELL, page.st.input_text)
    page.ask(CEASEFIRE_CELL, "Ceasefire", "accept or refuse (blank: refuse)", ("accept", "refuse"))


def _write_purchases(page: Page, view: State, side: str, first: bool, bought: bool) -> None:
    page.section(
        BUY_SECTION_ROW,
        "PURCHASES - political points for replacements and Air Defense (first impulse only)",
    )
    page.headers(BUY_SECTION_ROW + 1, ("#", "Buy", "Unit", "Hex"))
    if not first:
        _locked(page, BUY_FIRST_ROW, "Purchases are made in the first impulse of a player turn.")
        return
    st = page.st
    for row in page.numbered(BUY_FIRST_ROW, BUY_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_text)
        page.blank(f"D{row}", st.input_text)
    last = BUY_FIRST_ROW + BUY_ROWS - 1
    guerrillas = [u.id for u in view.placing if u.side == side]
    kinds = tuple(
        k
        for k in BUY_KINDS
        if (k != "reinforcement" or bought) and (k != "guerrilla" or guerrillas)
    )
    page.ask(
        f"B{BUY_FIRST_ROW}:B{last}",
        "Buy",
        ("reinforcement (one available, see 'Situation'), " if bought else "")
        + "replacement (an eliminated unit back, in a free hex of your country) or air defence "
        "(+1 level). This turn's prices are on 'Situation'."
        + (
            " guerrilla: place one of your guerrillas, free, in a hex of your country without "
            "an enemy unit (those you do not place, the rule places)."
            if guerrillas
            else ""
        ),
        kinds,
        strict=True,
    )
    units = [u.id for u in view.lost if u.side == side] + guerrillas
    if bought:
        units += [u.id for u in available_reinforcements(view, side)]
    page.ask(
        f"C{BUY_FIRST_ROW}:C{last}",
        "Unit",
        "The unit to bring in. " + ("Yours: " + " ".join(units) if units else "(none)"),
        units,
    )
    page.ask(
        f"D{BUY_FIRST_ROW}:D{last}",
        "Hex",
        "Where it comes in (a free hex of your country), e.g. 0204; a reinforcement may leave "
        "it blank for its scheduled hex.",
    )


def _write_information(page: Page, mine: Sequence[Unit], seen: Sequence[str], first: bool) -> None:
    page.section(IW_SECTION_ROW, "INFORMATION WARFARE - cybercadres (first impulse only)")
    page.headers(IW_SECTION_ROW + 1, ("#", "Cybercadres", "If it wins", "Targets"))
    if not first:
        _locked(page, IW_FIRST_ROW, "Information warfare is in the first impulse only.")
        return
    st = page.st
    for row in page.numbered(IW_FIRST_ROW, IW_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_text)
        page.blank(f"D{row}", st.input_text, through=f"G{row}")
    last = IW_FIRST_ROW + IW_ROWS - 1
    cyber = [u.id for u in mine if u.kind.information_warfare]
    page.ask(
        f"B{IW_FIRST_ROW}:B{last}",
        "Cybercadres",
        "Your cybercadres in the attack, ids separated by spaces. "
        + ("Yours: " + " ".join(cyber) if cyber else "You have none."),
    )
    page.ask(
        f"C{IW_FIRST_ROW}:C{last}",
        "If it wins",
        "What you take on a result that lets you choose: index, see, disrupt, disrupt-iw, c4i.",
        IW_CHOICES,
        strict=True,
    )
    page.ask(
        f"D{IW_FIRST_ROW}:D{last}",
        "Targets",
        "Enemy units to disrupt, if you choose it: units you see, ids separated by spaces. "
        + ("In sight: " + " ".join(seen) if seen else "You see none."),
    )


def _write_moves(page: Page, mine: Sequence[Unit], *, reaction: bool) -> None:
    st = page.st
    title = (
        "RESERVE MOVES - your reserve units only"
        if reaction
        else "MOVES - each unit once, the hexes it enters in order"
    )
    page.section(MOVE_SECTION_ROW, title)
    page.headers(MOVE_SECTION_ROW + 1, ("#", "Unit"))
    r = MOVE_SECTION_ROW
    page.ws.merge_range(r, 2, r, page.width, "Hexes entered (e.g. 0504 0604 0704)", st.header)
    for row in page.numbered(MOVE_FIRST_ROW, MOVE_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_text, through=f"I{row}")
    last = MOVE_FIRST_ROW + MOVE_ROWS - 1
    movers = [u.id for u in mine if (u.reserve or not reaction) and not u.ops_complete]
    page.ask(
        f"B{MOVE_FIRST_ROW}:B{last}",
        "Unit",
        "A unit of yours that may move"
        + (" (reserve units only)" if reaction else "")
        + ". Ops Complete units do not move.",
        movers,
    )
    page.ask(
        f"C{MOVE_FIRST_ROW}:C{last}",
        "Path",
        "The hexes entered, in order, separated by spaces. A move stops in the first enemy "
        "zone of control it enters.",
    )


def _write_reserves(page: Page, open_: bool, fast: bool) -> None:
    """The units the player holds back as reserves for the enemy's coming player turn (the
    seed's reaction phases move "any reserve units" and never say how a unit becomes one:
    ours, docs/rules/millennium-wars.md)."""
    st = page.st
    r, c = cell_rc(RESERVES_CELL)
    page.ws.merge_range(r, 0, r, c - 1, "Reserves for the enemy's turn", st.label)
    if not open_:
        why = (
            "No reserve moves in fast play."
            if fast
            else "You name your reserves on your own impulse sheets."
        )
        page.ws.merge_range(r, c, r, page.width, why, st.note)
        return
    page.blank(RESERVES_CELL, st.input_text, through=f"I{r + 1}")
    page.ask(
        RESERVES_CELL,
        "Reserves",
        "Units you hold back to move in the enemy's reactions, ids separated by spaces, or "
        "none. When your player turn ends those not Ops Complete become your reserves, your "
        "other units not. Blank: no change ('Situation' marks your reserves now).",
    )


def _write_attacks(page: Page, view: State, side: str, phasing: bool) -> None:
    st = page.st
    page.section(
        ATTACK_SECTION_ROW, "ATTACKS - fought in this order after your moves and any reaction"
    )
    page.headers(
        ATTACK_SECTION_ROW + 1,
        (
            "#",
            "Attacking units",
            "Hex",
            "CRT",
            "Political points",
            "Intensive",
            "Retreats asked (UNIT: HEX HEX; ...)",
            "Advance",
            "Ambush pick",
        ),
    )
    if not phasing:
        _locked(page, ATTACK_FIRST_ROW, "The reacting side makes no attacks.")
        return
    for row in page.numbered(ATTACK_FIRST_ROW, ATTACK_ROWS):
        for col in "BCDFGHI":
            page.blank(f"{col}{row}", st.input_text)
        page.blank(f"E{row}", st.input_number)
    last = ATTACK_FIRST_ROW + ATTACK_ROWS - 1

    def rows(col: str) -> str:
        return f"{col}{ATTACK_FIRST_ROW}:{col}{last}"

    page.ask(rows("B"), "Attackers", "Your units next to the hex, ids separated by spaces.")
    seen = sorted({u.hex for u in view.units if u.side != side and u.hex})
    page.ask(
        rows("C"),
        "Hex",
        "The enemy hex attacked (every enemy land unit in it). A hex you cannot see into yet "
        "may be named if your moves bring the attackers next to it: void if no enemy is there.",
        seen,
    )
    page.ask(
        rows("D"),
        "CRT",
        "raid, assault or air-land (Air-Land Battle: at least half the strength High-Tech).",
        sorted(set(CRT_NAMES.values())),
        strict=True,
    )
    page.whole_number(
        rows("E"), "Political points", "Spent for a shift in your favour.", 0, MAX_POINTS
    )
    page.ask(rows("F"), "Intensive", "yes for intensive combat.", ("yes", "no"), inline=True)
    page.ask(rows("G"), "Retreats", "If your units must retreat: UNIT: HEX HEX; UNIT: HEX.")
    page.ask(rows("H"), "Advance", "all, none, or the ids of the units that advance.")
    page.ask(rows("I"), "Ambush pick", "The unit of yours that takes an A1 or B1 result.")


def _write_defence(page: Page, mine: Sequence[Unit], open_: bool, fast: bool) -> None:
    st = page.st
    if fast:
        title = (
            "STANDING DEFENCE (fast play) - when the enemy attacks your units, until your "
            "next sheet"
        )
    else:
        title = "DEFENCE - when the units attacked this impulse must retreat or may advance"
    page.section(DEFENCE_SECTION_ROW, title)
    labels = (
        (RETREAT_CELL, "Retreats", "UNIT: HEX HEX; UNIT: HEX, the path each unit retreats by."),
        (ADVANCE_CELL, "Advance", "all, none, or the ids of your units that advance."),
        (AMBUSH_CELL, "Ambush pick", "The unit of yours that takes a D1 result."),
        (DEFENCE_POINTS_CELL, "Political points", "Spent on each defence for a shift."),
    )
    for ref, label, help_ in labels:
        r, c = cell_rc(ref)
        page.ws.merge_range(r, 0, r, c - 1, label, st.label)
        if not open_:
            page.ws.merge_range(r, c, r, page.width, "", st.value)
            continue
        fmt = st.input_number if ref == DEFENCE_POINTS_CELL else st.input_text
        page.blank(ref, fmt, through=f"I{r + 1}")
        if ref == DEFENCE_POINTS_CELL:
            page.whole_number(ref, label, help_, 0, MAX_POINTS)
        else:
            page.ask(ref, label, help_, [u.id for u in mine] if ref == AMBUSH_CELL else None)
    if not open_:
        r, _ = cell_rc(RETREAT_CELL)
        page.ws.write_string(r, 2, "On your reaction sheet.", st.note)


def _write_situation(
    ws: Any, st: SheetStyles, view: State, side: str, rules: Mapping[str, Any]
) -> int:
    bought = rules["reinforcements"] == "bought"
    ws.set_column(0, 0, 110)
    listing = Listing(ws, st, f"Situation of {side} - {view.point.key}")
    if view.point.reaction and view.reacting.name == side:
        # First, for the retreats and the reserve moves written on the Orders page.
        listing.block(
            "Attacks on your units, fought after your reaction (their retreats: Orders "
            f"{RETREAT_CELL})",
            attack_lines(view, rules),
            "No attack on your units." if rules["attacks_told"] else "Not told (house rule).",
        )
    mine = sorted((u for u in view.units if u.side == side), key=lambda u: u.id)
    theirs = sorted((u for u in view.units if u.side != side), key=lambda u: u.id)
    listing.block("Your units (attack-defence-speed)", [unit_line(u, view) for u in mine], "(none)")
    listing.block("Enemy units you see", [unit_line(u, view) for u in theirs], "(none in sight)")
    listing.block(
        "Your eliminated units (a replacement brings one back)",
        [unit_line(u, view) for u in view.lost if u.side == side],
        "(none)",
    )
    objectives = []
    for hex_, points in sorted(view.scenario.objectives.items()):
        place = view.scenario.places.get(hex_)
        name = f" {place.name} ({place.kind})" if place else ""
        held = view.held.get(hex_) or "no one"
        objectives.append(f"{hex_}{name}: {counted(points, 'point')}, held by {held}")
    listing.block(
        "Objectives (each holder as you last saw it at the end of a game turn)",
        objectives,
        "(none)",
    )
    due = [
        f"turn {r.turn}: {r.unit.id} {r.unit.type} at {r.unit.hex or 'your country'}"
        for r in view.scenario.reinforcements
        if r.unit.side == side and r.unit.id not in view.arrived
    ]
    listing.block("Your reinforcements due", due, "(none)")
    listing.block(
        "Prices this turn (political points; this turn's rally or protests included)",
        _prices(view, side, bought),
        "Nothing to buy.",
    )
    listing.block(
        "This game turn so far (what you were told, every exchange in order; a game turn's "
        "first sheet begins with the end of the last)",
        turn_so_far(view),
        "Nothing yet.",
    )
    return listing.rows


def _prices(view: State, side: str, bought: bool) -> list[str]:
    mine = view.side(side)

    def shown(unit: Unit | None, replacement: bool) -> str:
        paid = price(view, mine, unit, replacement=replacement)
        return "not available" if paid.points is None else str(paid.points)

    lines = [f"air defence +1: {shown(None, False)}"]
    lines += [
        f"replacement {u.id} ({u.type} {u.size}): {shown(u, True)}"
        for u in view.lost
        if u.side == side
    ]
    if bought:
        lines += [
            f"reinforcement {u.id} ({u.type} {u.size}): {shown(u, False)}"
            for u in available_reinforcements(view, side)
        ]
    return lines


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


class _Reader(SheetReader):
    """Reads the Orders page's input cells, each through its parser, collecting problems."""

    def number(self, ref: str, what: str) -> int:
        text = self.raw(ref)
        if not text:
            return 0
        if not (text.isascii() and text.isdigit()):
            self.error(ref, text, f"the {what} is not a whole number", "Type 0 to 12.")
            return 0
        if len(text) > 6 or int(text) > MAX_POINTS:
            self.error(
                ref,
                text,
                f"the {what} is out of range: at most {MAX_POINTS}",
                f"Type 0 to {MAX_POINTS}.",
            )
            return 0
        return int(text)

    def choice(self, ref: str, choices: Sequence[str], what: str) -> str:
        text = self.raw(ref).lower()
        if text and text not in choices:
            self.error(ref, text, f"is not {what}", f"Choose one of {', '.join(choices)}.")
            return ""
        return text

    def defence(self) -> Defence:
        return Defence(
            retreat=self.parsed(RETREAT_CELL, parse_retreats) or {},
            advance=self.parsed(ADVANCE_CELL, _advance_ids) or [],
            ambush=(self.parsed(AMBUSH_CELL, _one_unit) or ""),
            political_points=self.number(DEFENCE_POINTS_CELL, "number of political points"),
        )


def _advance_ids(text: str, cell: str) -> list[str]:
    """Advance as the combat reads it: ``all`` is every unit (``*``), ``none`` none."""
    found = parse_advance(text, cell)
    return ["*"] if found is None else found


def _one_hex(text: str, cell: str) -> str:
    hexes = parse_path(text, cell)
    if len(hexes) != 1:
        raise InvalidOrder("name one hex, e.g. 0204", text, cell)
    return hexes[0]


def _one_unit(text: str, cell: str) -> str:
    ids = parse_units(text, cell)
    if len(ids) != 1:
        raise InvalidOrder("name one unit", text, cell)
    return ids[0]


def read_opened(sheet: TurnSheetFile) -> SheetRead:
    check_layout(sheet, RULESET_NAME, GAME_TITLE, (FORMAT_VERSION,))
    meta_number(sheet, "turn", 1, 999)
    impulse = meta_number(sheet, "impulse", 1, 3)
    kind, player, step = (sheet.meta.get(k, "") for k in ("kind", "player", "step"))
    if not player or not step or kind not in ("impulse", "reaction", "ceasefire"):
        raise NotATurnSheet(f"{sheet.name}: the sheet's kind, player or exchange is damaged")
    sheet.sheet(ORDERS_SHEET)
    reader = _Reader(sheet, ORDERS_SHEET)
    orders = Orders(player, step)
    if kind == "ceasefire":
        orders.ceasefire = reader.choice(CEASEFIRE_CELL, ("accept", "refuse"), "an answer")
        orders.ceasefire = orders.ceasefire or "refuse"
        return SheetRead(orders=orders, problems=reader.problems, meta=dict(sheet.meta))
    fast = sheet.meta.get("fast_play") == "yes"
    if kind == "impulse" and impulse == 1:
        _read_first_impulse(reader, orders)
    if kind == "impulse":
        said = reader.choice(LAST_CELL, (*LAST_YES, "no", "n", "false", "0"), "yes or no")
        orders.last = said in LAST_YES
    for row in range(MOVE_FIRST_ROW, MOVE_FIRST_ROW + MOVE_ROWS):
        unit = reader.parsed(f"B{row}", _one_unit)
        path = reader.parsed(f"C{row}", parse_path)
        if unit and path:
            orders.moves.append(Move(unit, path, cell=f"{ORDERS_SHEET}!B{row}"))
        elif (unit or path) and not (reader.refused(f"B{row}") or reader.refused(f"C{row}")):
            missing = "path" if unit else "unit"
            reader.error(
                f"B{row}",
                unit or " ".join(path or ()),
                f"a move without its {missing}",
                "Fill in both the unit and the hexes it enters.",
            )
    if kind == "impulse":
        _read_attacks(reader, orders)
        if not fast:
            orders.reserves = _read_reserves(reader)
    if kind == "reaction" or fast:
        orders.defence = reader.defence()
    message = reader.raw(MESSAGE_CELL)
    if len(message) > MAX_MESSAGE_LENGTH:
        reader.error(
            MESSAGE_CELL,
            message[:80],
            f"the message is {len(message)} characters long",
            f"Shorten it to {MAX_MESSAGE_LENGTH}.",
        )
    elif message:
        orders.message = MessageBudget().shape(message).text
    return SheetRead(orders=orders, problems=reader.problems, meta=dict(sheet.meta))


def _read_reserves(reader: _Reader) -> list[str] | None:
    """The reserves named: None for a blank cell (no naming), [] for "none"."""
    text = reader.raw(RESERVES_CELL)
    if not text:
        return None
    if text.lower() in NO_RESERVES:
        return []
    found = reader.parsed(RESERVES_CELL, parse_units)
    return None if found is None else list(found)


def _read_first_impulse(reader: _Reader, orders: Orders) -> None:
    for row in range(BUY_FIRST_ROW, BUY_FIRST_ROW + BUY_ROWS):
        kind = reader.choice(f"B{row}", BUY_KINDS, "a purchase")
        unit = reader.parsed(f"C{row}", _one_unit) or ""
        hex_ = reader.parsed(f"D{row}", _one_hex) or ""
        if kind:
            orders.purchases.append(Purchase(kind, unit, hex_, cell=f"{ORDERS_SHEET}!B{row}"))
        elif unit or hex_:
            reader.error(
                f"B{row}",
                unit or hex_,
                "a unit or hex without a purchase",
                "Choose replacement or air defence.",
            )
    for row in range(IW_FIRST_ROW, IW_FIRST_ROW + IW_ROWS):
        units = reader.parsed(f"B{row}", parse_units)
        choice = reader.choice(f"C{row}", IW_CHOICES, "a choice of information warfare")
        targets = reader.parsed(f"D{row}", parse_units) or []
        if units:
            orders.information.append(
                InformationAttack(units, choice or "index", targets, cell=f"{ORDERS_SHEET}!B{row}")
            )
        elif targets or choice:
            reader.error(
                f"B{row}",
                choice or " ".join(targets),
                "no cybercadre is named",
                "Name your cybercadres in the attack.",
            )


def _read_attacks(reader: _Reader, orders: Orders) -> None:
    for row in range(ATTACK_FIRST_ROW, ATTACK_FIRST_ROW + ATTACK_ROWS):
        cells = [f"{col}{row}" for col in "BCDEFGHI"]
        if not any(reader.raw(ref) for ref in cells):
            continue
        attackers = reader.parsed(f"B{row}", parse_units)
        hex_ = reader.parsed(f"C{row}", _one_hex)
        crt = reader.parsed(f"D{row}", parse_crt)
        points = reader.number(f"E{row}", "number of political points")
        intensive = reader.raw(f"F{row}").lower() in YES
        retreat = reader.parsed(f"G{row}", parse_retreats) or {}
        advance = reader.parsed(f"H{row}", _advance_ids) or []
        ambush = reader.parsed(f"I{row}", _one_unit) or ""
        if any(reader.refused(ref) for ref in cells):
            continue
        for ref, value, what in (
            (f"B{row}", attackers, "attacking units"),
            (f"C{row}", hex_, "hex"),
            (f"D{row}", crt, "combat results table"),
        ):
            if not value:
                reader.error(ref, "", f"the attack names no {what}", f"Fill in the {what}.")
        if attackers and hex_ and crt:
            orders.attacks.append(
                Attack(
                    attackers,
                    hex_,
                    crt,
                    points,
                    intensive,
                    retreat,
                    advance,
                    ambush,
                    cell=f"{ORDERS_SHEET}!B{row}",
                )
            )


def read_sheet(path: Path, opened: TurnSheetFile | None = None) -> SheetRead:
    """Read a sheet a player sent; `NotATurnSheet` for anything that is not a usable sheet of
    this game.  The same bytes read again are answered from memory (`sheetreads`)."""
    return read_remembered(Path(path), opened, read_opened)


# --------------------------------------------------------------------------------------------
# Filling in (computer sides, tests) and the orders as text
# --------------------------------------------------------------------------------------------


def _advance_text(advance: Sequence[str]) -> str:
    return "all" if list(advance) == ["*"] else " ".join(advance) or "none"


def _retreat_text(retreat: Mapping[str, Sequence[str]]) -> str:
    return "; ".join(f"{u}: {' '.join(p)}" for u, p in retreat.items())


def fill_sheet(path: Path, orders: Orders) -> None:
    """Type ``orders`` into the sheet at ``path`` as a player would."""
    check_room("purchases", len(orders.purchases), BUY_ROWS)
    check_room("information warfare attacks", len(orders.information), IW_ROWS)
    check_room("moves", len(orders.moves), MOVE_ROWS)
    check_room("attacks", len(orders.attacks), ATTACK_ROWS)
    with typing_into(path, ORDERS_SHEET) as (put, _):
        if orders.ceasefire and orders.step.endswith("ceasefire"):
            put(CEASEFIRE_CELL, orders.ceasefire)
            return
        for row, p in enumerate(orders.purchases, start=BUY_FIRST_ROW):
            put(f"B{row}", p.kind)
            for col, value in (("C", p.unit), ("D", p.hex)):
                if value:
                    put(f"{col}{row}", value)
        for row, a in enumerate(orders.information, start=IW_FIRST_ROW):
            put(f"B{row}", " ".join(a.units))
            put(f"C{row}", a.choice)
            if a.targets:
                put(f"D{row}", " ".join(a.targets))
        for row, m in enumerate(orders.moves, start=MOVE_FIRST_ROW):
            put(f"B{row}", m.unit)
            put(f"C{row}", " ".join(m.path))
        for row, at in enumerate(orders.attacks, start=ATTACK_FIRST_ROW):
            put(f"B{row}", " ".join(at.attackers))
            put(f"C{row}", at.hex)
            put(f"D{row}", at.crt)
            if at.political_points:
                put(f"E{row}", at.political_points)
            if at.intensive:
                put(f"F{row}", "yes")
            if at.retreat:
                put(f"G{row}", _retreat_text(at.retreat))
            if at.advance:
                put(f"H{row}", _advance_text(at.advance))
            if at.ambush:
                put(f"I{row}", at.ambush)
        d = orders.defence
        for ref, value in (
            (RETREAT_CELL, _retreat_text(d.retreat)),
            (ADVANCE_CELL, _advance_text(d.advance) if d.advance else ""),
            (AMBUSH_CELL, d.ambush),
            (DEFENCE_POINTS_CELL, d.political_points),
        ):
            if value:
                put(ref, value)
        if orders.last:
            put(LAST_CELL, "yes")
        if orders.reserves is not None:
            put(RESERVES_CELL, " ".join(orders.reserves) or "none")
        if orders.message:
            put(MESSAGE_CELL, orders.message)


def orders_text(orders: Orders) -> list[str]:
    """The orders as the referee understood them, a line each."""
    if orders.step.endswith("ceasefire"):
        return [f"The ceasefire: {orders.ceasefire or 'refuse'}"]
    lines = [
        f"Buy {p.kind}" + (f": {p.unit}" if p.unit else "") + (f" at {p.hex}" if p.hex else "")
        for p in orders.purchases
    ]
    lines += [
        f"Information warfare with {' '.join(a.units)} (if it wins: {a.choice}"
        + (f" {' '.join(a.targets)}" if a.targets else "")
        + ")"
        for a in orders.information
    ]
    lines += [f"{m.unit} moves {' '.join(m.path)}" for m in orders.moves]
    for a in orders.attacks:
        extras = [
            f"{a.political_points} political points" if a.political_points else "",
            "intensive" if a.intensive else "",
            f"retreats {_retreat_text(a.retreat)}" if a.retreat else "",
            f"advance {_advance_text(a.advance)}" if a.advance else "",
            f"ambush pick {a.ambush}" if a.ambush else "",
        ]
        more = ", ".join(e for e in extras if e)
        lines.append(
            f"{' '.join(a.attackers)} attack {a.hex} on the {a.crt} CRT"
            + (f" ({more})" if more else "")
        )
    if orders.last:
        lines.append("No further impulse this player turn")
    if orders.reserves is not None:
        held = " ".join(orders.reserves) or "none"
        lines.append(f"Reserves for the enemy's turn: {held}")
    d = orders.defence
    if d != Defence():
        parts = [
            f"retreats {_retreat_text(d.retreat)}" if d.retreat else "",
            f"advance {_advance_text(d.advance)}" if d.advance else "",
            f"ambush pick {d.ambush}" if d.ambush else "",
            f"{d.political_points} political points" if d.political_points else "",
        ]
        lines.append("Defence: " + ", ".join(p for p in parts if p))
    return lines or ["No orders."]


__all__ = [
    "fill_sheet",
    "orders_text",
    "read_sheet",
    "write_sheet",
]
