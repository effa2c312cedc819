"""The Imperium 3rd Millennium turn sheet: writing it, reading it back, filling it in.

One side, one turn.  The "Orders" sheet holds everything a player types, in the order the turn
is played: the title block (the side's figures and this turn's victory thresholds), the
administrative segment (Imperial Appeal, construction, terraforming, outpost upgrades), the
four action segments (up to six activation lines each: the most an initiative roll allows),
the standing battle orders of each fleet, the close-out orders and a message to the referee.
The "Your forces" sheet is read-only: the side's unit list with costs (the cost formulas look
costs up there), its fleets with their units, its planets with their boxes, and what is under
construction - the ids a player needs to write orders.

Input cells are pale yellow and unlocked, the rest is locked (protection without a password:
it guards against slips; the tool trusts nothing but the input cells anyway).  Columns with a
fixed vocabulary have dropdowns and every column an input message.  The hidden ``_meta`` sheet
carries the game id, the player, the step (``str(state.turn)``, the engine's step key), the
token that `refassist.store.turnsheets.verify_identity` checks, and the side's own fleet names (so
that a fleet a referee named ``Home`` is found when the player types ``home``; the enemy's
names are never written into a sheet the enemy cannot see).

Every cell is fixed by the constants below so ``docs/imperium-turn-sheet.md`` can cite them
and `fill_sheet` can type into them.  Writing uses xlsxwriter with every automatic conversion
off; reading goes through `refassist.workbook.sheetio`, which refuses anything that is not a
genuine, harmless ``.xlsx`` before openpyxl sees it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ...errors import InvalidOrder, NotATurnSheet, UsageError
from ...text.message_text import MessageBudget, escaped
from ...text.words import counted
from ...workbook.sheetio import TurnSheetFile
from ...workbook.sheetkit import SheetReader, SheetStyles, cell_rc, check_room
from ...workbook.sheetpage import Listing, Page, typing_into
from ...workbook.sheetreads import read_remembered
from ...workbook.turnbook import check_layout, meta_names, meta_number, turn_workbook
from ..base import SheetRead
from .orders import (
    APPEALS,
    CLOSE_OUT_KINDS,
    FIGHTER_TARGETS,
    PRIORITIES,
    REINFORCEMENT_CAPITALS,
    RETREATS,
    STANCES,
    Activation,
    Arrival,
    BattleOrders,
    Build,
    CloseOutOrder,
    Orders,
    PlanetDefence,
    PlanetOrder,
    standing_orders,
)
from .parse import (
    MAX_LINE_LENGTH,
    actions_text,
    normalise,
    parse_actions,
    parse_code,
    parse_count,
    parse_name,
    parse_units,
    split_list,
)
from .rules import complete
from .state import State
from .units import IMPERIAL, IMPERIAL_RESTRICTED, NAMES, TERRAN, UNIT_TABLES, counters_available
from .view import PlayerView
from .visibility import player_view

RULESET_NAME = "imperium-3m"
#: Bumped whenever a cell below moves; a sheet of another layout is refused, not misread.
FORMAT_VERSION = "2"
#: Layout versions this refassist reads (version 1 had no arrivals block).
READABLE_VERSIONS = ("1", "2")

# -- layout: every cell a player or a script may write ----------------------------------------
ORDERS_SHEET = "Orders"
FORCES_SHEET = "Your forces"

#: Title block (read-only).
GAME_CELL = "B3"
SIDE_CELL = "B4"
PLAYER_CELL = "B5"
TURN_CELL = "B6"
DEADLINE_CELL = "B7"
RESOURCES_CELL = "F3"
INCOME_CELL = "F4"
GLORY_CELL = "F5"
VICTORY_CELL = "F6"
PERMISSIONS_CELL = "F7"

#: Administrative segment.
APPEAL_CELL = "C11"
#: What the Appeal cell says instead when there is no Appeal to choose (a locked note): the
#: reader passes over these words rather than asking whether the cell is locked, which neither
#: a sheet saved as ``.ods`` nor one re-saved by Google Sheets says.
NO_APPEAL_TERRAN = "Imperial sheet only"
NO_APPEAL_PEACE = "no Appeals in peacetime"
NO_APPEAL_PROHIBITED = "further Appeals prohibited"
BUILD_HEADER_ROW = 13
BUILD_FIRST_ROW = 14
BUILD_ROWS = 10
BUILD_CODE_COL = "B"
BUILD_COUNT_COL = "C"
BUILD_WORLD_COL = "D"
BUILD_COST_COL = "E"
BUILD_TOTAL_CELL = f"E{BUILD_FIRST_ROW + BUILD_ROWS}"
PROJECT_HEADER_ROW = 26
PROJECT_FIRST_ROW = 27
PROJECT_ROWS = 3
TERRAFORM_COL = "B"
UPGRADE_COL = "D"

#: Standing orders (the choices the seed gives a player), beside the construction lines:
#: label in column F, the player's choice in column G; blank = the default.
STANDING_LABEL_COL = "F"
UPKEEP_CELL = "G14"
FORCES_WORLD_CELL = "G15"
CRISIS_CELL = "G16"
REINFORCEMENT_CELL = "G17"
#: The upkeep bill close-out will ask for (beside the construction lines, below the standing
#: orders): label in column F, figure in column G.
UPKEEP_TITLE_ROW = 19
UPKEEP_LOCAL_CELL = "G20"
UPKEEP_SHIPS_CELL = "G21"
UPKEEP_GROUND_CELL = "G22"
UPKEEP_LEFT_CELL = "G23"
#: Planet defence (beside the projects): planet, what its fighters attack, placement.
DEFENCE_PLANET_COL = "E"
DEFENCE_FIGHTERS_COL = "F"
DEFENCE_PLACEMENT_COL = "G"
DEFENCE_ROWS = PROJECT_ROWS

#: Action segments: segment s has a title row, a header row and `ACTIVATION_ROWS` lines.
SEGMENTS = 4
ACTIVATION_ROWS = 6
ACT_SECTION_ROW = 31
ACT_FIRST_BLOCK_ROW = 32
ACT_BLOCK_HEIGHT = ACTIVATION_ROWS + 2
ACT_ORDER_COL = "B"
ACT_SYSTEM_COL = "C"
ACT_ACTIONS_COL = "D"

#: Battle orders: one line per fleet (the side's fleets are pre-filled).
BATTLE_SECTION_ROW = 65
BATTLE_HEADER_ROW = 66
BATTLE_FIRST_ROW = 67
BATTLE_ROWS = 20
BATTLE_FLEET_COL = "B"
BATTLE_STANCE_COL = "C"
BATTLE_PRIORITY_COL = "D"
BATTLE_BREAK_COL = "E"
BATTLE_RETREAT_COL = "F"
BATTLE_STEALTH_COL = "G"
BOMBARD_CELL = "D87"
#: The battle-orders columns above, in order (fleet, stance, priority, break off, retreat,
#: stealth).
BATTLE_COLUMNS = "BCDEFG"

#: Close-out: kind and unit ids.
CLOSE_SECTION_ROW = 89
CLOSE_HEADER_ROW = 90
CLOSE_FIRST_ROW = 91
CLOSE_ROWS = 10
CLOSE_KIND_COL = "B"
CLOSE_UNITS_COL = "C"

#: Message to the referee (B103:G108 merged).
MESSAGE_SECTION_ROW = 102
MESSAGE_CELL = "B103"
MESSAGE_LAST_ROW = 108
#: Arrivals: the units due from the turn record track at the start of this turn, one per row
#: (B their counter id, pre-filled), where each goes: D the World, E the fleet it joins or
#: forms (ships) or rides in (troops, PD, fighters, Outposts).  Below the message so the
#: layout of version 1 stays as it was.
ARRIVAL_SECTION_ROW = 110
ARRIVAL_HEADER_ROW = 111
ARRIVAL_FIRST_ROW = 112
ARRIVAL_ROWS = 12
ARRIVAL_UNIT_COL = "B"
ARRIVAL_WORLD_COL = "D"
ARRIVAL_FLEET_COL = "E"
PRINT_LAST_ROW = ARRIVAL_FIRST_ROW + ARRIVAL_ROWS - 1

#: "Your forces": the unit list at fixed rows (the cost formulas look it up).
UNIT_HEADER_ROW = 3
UNIT_FIRST_ROW = 4

MAX_MESSAGE_LENGTH = 2000
#: Cost of one terraforming or upgrade instalment (seed: 10 resources each turn).
INSTALMENT = 10

_COLUMN_WIDTHS = {"A": 9, "B": 15, "C": 13, "D": 16, "E": 15, "F": 21, "G": 26}

STANCE_WORDS = {
    "CLOSE": "close",
    "STAND OFF": "stand off",
    "STANDOFF": "stand off",
    "STAND-OFF": "stand off",
    "HOLD": "hold",
}
#: A yes/no cell's words, what a wrong word is not, and how to mend it (`SheetReader.choice`).
_YES_NO = ({"YES": True, "NO": False}, "yes or no", "Choose yes or no.")
PRIORITY_WORDS = {
    "CAPITAL": "capital",
    "CAPITAL SHIPS": "capital",
    "CARRIER": "carrier",
    "CARRIERS": "carrier",
    "TRANSPORT": "transport",
    "TRANSPORTS": "transport",
    "CHEAPEST": "cheapest",
    "CHEAPEST FIRST": "cheapest",
}
#: The battle-orders cells' words, each with what a wrong word is not and how to mend it.
_STANCE = (STANCE_WORDS, "a stance", "Choose close, stand off or hold.")
_PRIORITY = (
    PRIORITY_WORDS,
    "a target priority",
    "Choose capital, carrier, transport or cheapest.",
)
_BREAK_OFF = (
    {"1": 1, "2": 2, "3": 3},
    "a round to break off after",
    "Choose 1, 2 or 3, or leave it blank to fight all three rounds.",
)
_RETREAT = (
    {w.upper(): w for w in RETREATS},
    "a way to retreat",
    "Choose back or home, or leave it blank for the referee's default.",
)
_FIGHTERS = (
    {w.upper(): w for w in FIGHTER_TARGETS},
    "what fighters may attack",
    "Choose transports or fighters.",
)
_BOMBARD = (
    {"PD": "PD", "F": "F"},
    "a bombardment priority",
    "Choose PD or F, or leave it blank (PD).",
)
CLOSE_OUT_WORDS = {
    "SCRAP": "scrap",
    "REPAIR": "repair",
    "GROUND REPAIR": "ground repair",
    "GROUND-REPAIR": "ground repair",
    "GROUNDREPAIR": "ground repair",
    "AUGMENT": "augment",
    "AUGMENTATION": "augment",
}


def segment_rows(segment: int) -> list[int]:
    """The sheet rows of the activation lines of action segment ``segment`` (1-4)."""
    first = ACT_FIRST_BLOCK_ROW + (segment - 1) * ACT_BLOCK_HEIGHT + 2
    return list(range(first, first + ACTIVATION_ROWS))


def where(ref: str) -> str:
    """``Orders!D34``: the form every order's ``cell`` takes."""
    return f"{ORDERS_SHEET}!{ref}"


# --------------------------------------------------------------------------------------------
# What the sheet shows
# --------------------------------------------------------------------------------------------


def buildable(state: State, side: str, *, with_appeal: bool = False) -> list[str]:
    """Unit codes the side may order built now: its unit list without the Terran BB before a
    Terran B has been destroyed and the Imperial restricted ships without an Appeal's
    permission (``with_appeal``: with them, as this turn's Appeal may grant it before
    construction)."""
    s = state.sides[side]
    out = []
    for code in UNIT_TABLES[side]:
        if side == TERRAN and code == "BB" and not s.bb_unlocked:
            continue
        if (
            side == IMPERIAL
            and code in IMPERIAL_RESTRICTED
            and not (code in s.permissions or "ALL" in s.permissions or with_appeal)
        ):
            continue
        out.append(code)
    return out


def turn_label(state: State) -> str:
    if state.war_turn:
        return f"Turn {state.turn} (war {state.war}, turn {state.war_turn})"
    return f"Turn {state.turn} (peace, {counted(state.peace_left, 'turn')} to the next war)"


def victory_text(state: State) -> str:
    from .report import victory_thresholds

    limits = victory_thresholds(state.war_turn)
    if limits is None:
        return "peace: no victory check"
    text = f"Terran at {limits[0]} or less, Imperial at {limits[1]} or more"
    if state.war_turn >= 10:
        text += "; 5 is a truce"
    return text


def permissions_text(state: State, side: str) -> str:
    s = state.sides[side]
    if side == TERRAN:
        return "BB may be built" if s.bb_unlocked else "no BB until a Terran B is destroyed"
    parts = []
    if "ALL" in s.permissions:
        parts.append("all ships permitted")
    else:
        allowed = [c for c in IMPERIAL_RESTRICTED if c in s.permissions]
        parts.append(("permitted: " + " ".join(allowed)) if allowed else "no CR/CA/B1/B2/BB")
    if s.appeals_prohibited:
        parts.append("Appeals prohibited")
    return "; ".join(parts)


def fleet_lines(state: State, side: str) -> list[str]:
    """``T1 at SOL (Sol): B1 CA1 DD1 | carrying RT3``, one line per own fleet (the report's
    `report.fleet_rows`)."""
    from .report import fleet_rows

    names = {code: s.name for code, s in state.map.systems.items()}
    own = [f for f in state.fleets if f.side == side]
    return [
        f"{r['name']} at {r['system']} ({r['where']}): {r['ships']}"
        + (f" | carrying {r['cargo']}" if r["cargo"] else "")
        for r in fleet_rows(own, state.units, names)
    ]


def planet_lines(view: PlayerView) -> dict[str, list[str]]:
    """The side's planets as its forces sheet lists them, from what it may know (its view):

    ``own``: its Worlds and Outposts that are not disputed, with their boxes;
    ``disputed``: disputed planets it holds or stands on, under neither side's own, with both
    sides' units (a disputed planet is fought hex by hex, so both see its surface);
    ``elsewhere``: its units standing on other planets;
    ``every``: every planet of the map with its code, the sheet's notation.
    """
    from .report import unit_text

    groups: dict[str, list[str]] = {"own": [], "disputed": [], "elsewhere": [], "every": []}
    planets = sorted(view.planets.values(), key=lambda p: (p.system, p.code))
    for p in planets:
        mine = [u for u in view.units if u.planet == p.code]
        theirs = [u for u in view.enemy_units if u.planet == p.code]
        listing = view.planet_listing(p)
        head = f"{p.code} {p.name} ({p.system}) {p.type}, {p.hexes} hexes"
        if listing == "disputed":
            units = [f"yours: {', '.join(unit_text(u) for u in mine) or 'none'}"]
            if theirs or p.box_known:
                units.append(f"enemy: {', '.join(unit_text(u) for u in theirs) or 'none'}")
            groups["disputed"].append(f"{head}, {p.owner} {p.marker} DISPUTED: {'; '.join(units)}")
        elif listing == "own":
            flags = ""
            if p.terraform_paid:
                flags += f" terraforming {counted(p.terraform_paid, 'turn')} paid"
            if p.upgrade_paid:
                flags += f" upgrade {p.upgrade_paid} of 4 paid"
            content = ", ".join(unit_text(u) for u in mine) or "empty box"
            groups["own"].append(f"{head} {p.marker}{flags}: {content}")
        elif listing == "elsewhere":
            held = f", {p.owner} {p.marker}" if p.owner and p.marker else ""
            groups["elsewhere"].append(f"{head}{held}: {', '.join(unit_text(u) for u in mine)}")
        held = f" - {p.owner} {p.marker}" if p.owner and p.marker else ""
        groups["every"].append(
            f"{p.code} {p.name} ({p.system}) {p.type}, {p.hexes} hexes{held}"
            + (" (disputed)" if p.disputed else "")
        )
    return groups


def queue_lines(state: State, side: str) -> list[str]:
    return [
        f"{q.code} ({NAMES.get(q.code, q.code)}) due turn {q.due}"
        + (f", asked for {q.world}" if q.world else "")
        for q in sorted(state.queue, key=lambda q: (q.due, q.code))
        if q.side == side
    ]


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


class _Styles(SheetStyles):
    """The shared formats (`SheetStyles`) and this sheet's own."""

    def __init__(self, wb: Any) -> None:
        super().__init__(wb)
        base = self.base
        self.subsection = wb.add_format(
            {**base, "bold": True, "bg_color": "#B4C6E7", "font_color": "#1F3864"}
        )
        self.input_wrap = wb.add_format(
            {**self.input_base, "num_format": "@", "text_wrap": True, "valign": "top"}
        )
        self.warning = wb.add_format({"bg_color": "#FFC7CE", "font_color": "#9C0006"})
        self.locked_value = wb.add_format(
            {**base, "italic": True, "bg_color": "#EDEDED", "border": 1, "font_color": "#808080"}
        )


def _write_header(page: Page, state: State, player: str, side: str, deadline: str) -> None:
    from .admin import expected_income

    ws, st = page.ws, page.st
    s = state.sides[side]
    ws.merge_range("A1:G1", "IMPERIUM 3RD MILLENNIUM - TURN SHEET", st.title)
    ws.set_row(0, 26)
    ws.merge_range("A2:G2", f"{side} orders for {turn_label(state)}", st.subtitle)
    for label_ref, label, ref, value in (
        ("A3", "Game", GAME_CELL, state.game_name),
        ("A4", "Side", SIDE_CELL, side),
        ("A5", "Player", PLAYER_CELL, player),
        ("A6", "Turn", TURN_CELL, turn_label(state)),
        ("A7", "Deadline", DEADLINE_CELL, deadline),
    ):
        page.labelled(label_ref, label, ref, value, span=2)
    for ref, label, value in (
        (RESOURCES_CELL, "Stockpile", s.resources),
        (INCOME_CELL, "Expected income", expected_income(state, side)),
        (GLORY_CELL, "Glory index", state.glory),
        (VICTORY_CELL, "Victory at", victory_text(state)),
        (PERMISSIONS_CELL, "Construction", permissions_text(state, side)),
    ):
        page.labelled(f"{chr(ord(ref[0]) - 1)}{ref[1:]}", label, ref, value, span=1)
    page.note(
        "A8:G9",
        "Fill in the yellow cells only; everything else is locked. Unit ids, fleets and planets "
        "are listed on the sheet 'Your forces'. Notation and examples: in each column's input "
        "message and in the turn-sheet guide. Send the sheet back as .xlsx or .ods before the "
        "deadline.",
    )


def _write_admin(page: Page, state: State, side: str, peace: bool) -> None:
    ws, st = page.ws, page.st
    page.section(10, "ADMINISTRATIVE SEGMENT - Appeal, construction, terraforming, upgrades")
    r, c = cell_rc(APPEAL_CELL)
    ws.merge_range(r, 0, r, 1, "Imperial Appeal", st.label)
    s = state.sides[side]
    appeal_possible = side == IMPERIAL and not peace and not s.appeals_prohibited
    if appeal_possible:
        ws.write_blank(r, c, None, st.input_text)
        page.choose(
            APPEAL_CELL,
            "Imperial Appeal",
            "Blank: no Appeal. 2D6 on the column chosen. Forces: ships (4-6) or building "
            "permissions (8 CR/CA, 9 B1, 10 B2, 11 BB, 12 all), usable by this turn's "
            "construction. Finances: 10 resources (7) or budget +1..+5 (8-12).",
            [a for a in APPEALS if a],
        )
    else:
        why = (
            NO_APPEAL_TERRAN
            if side == TERRAN
            else (NO_APPEAL_PEACE if peace else NO_APPEAL_PROHIBITED)
        )
        ws.write_string(r, c, why, st.locked_value)
    ws.merge_range(r, 3, r, 6, "", st.note)
    factor = 2 if peace else 1
    page.headers(
        BUILD_HEADER_ROW,
        ("#", "Unit", "Count", "World / fleet", "Cost", "Standing order", "Your choice"),
    )
    if peace:
        ws.write_string(BUILD_HEADER_ROW - 1, 5, "peace: costs x2", st.header)
    units_last = UNIT_FIRST_ROW + len(UNIT_TABLES[side]) - 1
    lookup = f"'{FORCES_SHEET}'!$A${UNIT_FIRST_ROW}:$C${units_last}"
    for row in page.numbered(BUILD_FIRST_ROW, BUILD_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_number)
        page.blank(f"D{row}", st.input_text)
        formula = (
            f'=IF(B{row}="","",IFERROR(IF(C{row}="",1,C{row})*{factor}*'
            f'VLOOKUP(B{row},{lookup},3,FALSE),"?"))'
        )
        ws.write_formula(row - 1, 4, formula, st.cost, "")
    first, last = BUILD_FIRST_ROW, BUILD_FIRST_ROW + BUILD_ROWS - 1
    tr, tc = cell_rc(BUILD_TOTAL_CELL)
    ws.merge_range(
        tr, 1, tr, 3, "Total (for your convenience; the referee recomputes it)", st.label
    )
    ws.write_formula(tr, tc, f"=SUM(E{first}:E{last})", st.total, 0)
    page.ask(
        f"B{first}:B{last}",
        "Unit",
        "The unit code to build (costs and build times on 'Your forces'). Paid in full now, "
        "arrives after its build time."
        + (
            " CR, CA, B1, B2, BB without a permission: built only if this turn's Appeal "
            "(Forces) grants it."
            if appeal_possible
            else ""
        ),
        buildable(state, side, with_appeal=appeal_possible),
    )
    page.whole_number(f"C{first}:C{last}", "Count", "How many of this unit (blank = 1).", 1, 99)
    worlds = sorted(
        p.code for p in state.map.planets.values() if p.owner == side and p.marker == "World"
    )
    page.ask(
        f"D{first}:D{last}",
        "World or fleet",
        "Optional: the World (planet code) where the unit should arrive, or your fleet at a "
        "World whose empty transports (or carriers) it should arrive aboard. New units go one "
        "per World until every World has one, so the wish may not be granted.",
        worlds,
    )
    _write_standing(page, state, side)
    page.headers(
        PROJECT_HEADER_ROW,
        (
            "#",
            "Terraform planet",
            "",
            "Upgrade outpost",
            "Defend planet",
            "Its fighters attack",
            "Placement (unit hex, ...)",
        ),
    )
    for row in page.numbered(PROJECT_FIRST_ROW, PROJECT_ROWS):
        for col in "BDEFG":
            page.blank(f"{col}{row}", st.input_text)
    _write_defence(page, state, side)
    first, last = PROJECT_FIRST_ROW, PROJECT_FIRST_ROW + PROJECT_ROWS - 1
    candidates = sorted(
        p.code
        for p in state.map.planets.values()
        if p.type in ("N1", "N2") and p.owner == side and p.marker == "Outpost"
    )
    page.ask(
        f"B{first}:B{last}",
        "Terraform",
        f"An N1 (10 turns) or N2 (8 turns) planet with your connected Outpost: {INSTALMENT} "
        "resources this turn towards making it type A.",
        candidates,
    )
    outposts = sorted(
        p.code
        for p in state.map.planets.values()
        if p.owner == side and p.marker == "Outpost" and p.klass == "A"
    )
    page.ask(
        f"D{first}:D{last}",
        "Upgrade",
        f"Peacetime only: your Outpost on a type A planet; {INSTALMENT} resources this turn, "
        "four turns make it a World.",
        outposts,
    )


def _write_standing(page: Page, state: State, side: str) -> None:
    """The standing orders: the choices the seed leaves to a player, blank = the default."""
    ws, st = page.ws, page.st
    imperial = side == IMPERIAL
    rows: list[tuple[str, str, str, str, list[str] | None]] = [
        (
            UPKEEP_CELL,
            "Upkeep from stockpile",
            "Maintenance from the stockpile",
            "yes (blank): ship maintenance that your Worlds and Outposts in the system do not "
            "cover is paid from your stockpile where the rules allow; no: never, and those "
            "ships roll for damage instead.",
            ["yes", "no"],
        ),
    ]
    if imperial:
        homes = sorted(p.code for p in state.map.planets.values() if p.home == IMPERIAL)
        rows += [
            (
                FORCES_WORLD_CELL,
                "Forces arrive at",
                "Intervention forces",
                "The Imperial home world (planet code) where Intervention, Appeal and "
                "Mandated Offensive forces arrive together, if you still hold it. Blank: the "
                "one nearest the Terrans.",
                homes or None,
            ),
            (
                CRISIS_CELL,
                "Crisis: give up",
                "Frontier Crisis",
                "Ships (ids, in order) to remove first if a Frontier Crisis strikes this turn; "
                "the roll's remaining points are taken as usual (cheapest, away from the "
                "enemy). Blank: all as usual.",
                None,
            ),
            (
                REINFORCEMENT_CELL,
                "Reinforcement capital",
                "Imperial Reinforcements",
                "The capital ship you want among Imperial Reinforcements (at most one arrives), "
                "e.g. B1; 'none' for light ships only. Blank: CA, or the next with a free "
                "counter.",
                ["none", *REINFORCEMENT_CAPITALS],
            ),
        ]
    for ref, label, title, message, source in rows:
        r, c = cell_rc(ref)
        ws.write_string(r, c - 1, label, st.label)
        ws.write_blank(r, c, None, st.input_text)
        page.ask(ref, title, message, source)


def _write_upkeep(page: Page, state: State, side: str, rules: Mapping[str, Any]) -> None:
    """The maintenance bill beside the builds, so a player spends knowing what close-out
    will take: what the local Worlds and Outposts pay, what the stockpile must pay for ships
    and for troops and PD, and (a formula, live as the builds are typed) what is left."""
    from .admin import expected_income
    from .closeout import upkeep_bill

    ws, st = page.ws, page.st
    bill = upkeep_bill(state, side, rules)
    r = UPKEEP_TITLE_ROW - 1
    ws.merge_range(r, 5, r, 6, "Upkeep at close-out (forces as they stand)", st.header)
    first, last = PROJECT_FIRST_ROW, PROJECT_FIRST_ROW + PROJECT_ROWS - 1
    left = (
        f"={RESOURCES_CELL}+{INCOME_CELL}-{BUILD_TOTAL_CELL}-{UPKEEP_SHIPS_CELL}"
        f"-{UPKEEP_GROUND_CELL}-{INSTALMENT}*(COUNTA(B{first}:B{last})+COUNTA(D{first}:D{last}))"
    )
    left_now = state.sides[side].resources + expected_income(state, side) - bill.ships - bill.ground
    for ref, label, value in (
        (UPKEEP_LOCAL_CELL, "Ships, paid locally", bill.local),
        (UPKEEP_SHIPS_CELL, "Ships, from stockpile", bill.ships),
        (UPKEEP_GROUND_CELL, "Troops and PD", bill.ground),
    ):
        rr, cc = cell_rc(ref)
        ws.write_string(rr, cc - 1, label, st.label)
        page.value(ref, value, st.ref)
    rr, cc = cell_rc(UPKEEP_LEFT_CELL)
    ws.write_string(rr, cc - 1, "Left after all", st.label)
    ws.write_formula(rr, cc, left, st.total, left_now)
    ws.conditional_format(
        UPKEEP_LEFT_CELL,
        {"type": "cell", "criteria": "<", "value": 0, "format": st.warning},
    )
    note = (
        "Close-out's maintenance for your forces where they stand now: local = paid by your "
        "Worlds/Outposts in the ships' systems, the rest from the stockpile. Left after all = "
        "stockpile + income - builds - projects - upkeep; below 0, units roll for damage."
    )
    page.ask(f"{UPKEEP_LOCAL_CELL}:{UPKEEP_LEFT_CELL}", "Upkeep", note)


def _write_defence(page: Page, state: State, side: str) -> None:
    first, last = PROJECT_FIRST_ROW, PROJECT_FIRST_ROW + DEFENCE_ROWS - 1
    own = sorted(p.code for p in state.map.planets.values() if p.owner == side)
    page.ask(
        f"{DEFENCE_PLANET_COL}{first}:{DEFENCE_PLANET_COL}{last}",
        "Defend planet",
        "A planet of yours: your orders for its defence if the enemy attacks it this turn.",
        own,
    )
    page.choose(
        f"{DEFENCE_FIGHTERS_COL}{first}:{DEFENCE_FIGHTERS_COL}{last}",
        "Fighters attack",
        "What your fighters on the planet fire at when enemy units land: transports (blank; "
        "attack transports first) or fighters.",
        FIGHTER_TARGETS,
    )
    page.ask(
        f"{DEFENCE_PLACEMENT_COL}{first}:{DEFENCE_PLACEMENT_COL}{last}",
        "Placement",
        "Where your units stand on the planetary map when a battle starts: unit and hex, e.g. "
        "PD1 2, F3 4 (at most 5 in a hex). Units not named are spread evenly.",
    )


def _write_activations(page: Page, state: State) -> None:
    ws, st = page.ws, page.st
    page.section(
        ACT_SECTION_ROW,
        f"ACTION SEGMENTS - at most {ACTIVATION_ROWS} activations each (your initiative roll "
        "is your allowance)",
    )
    systems = page.lists.add(sorted(state.map.systems))
    for segment in range(1, SEGMENTS + 1):
        title_row = ACT_FIRST_BLOCK_ROW + (segment - 1) * ACT_BLOCK_HEIGHT
        ws.merge_range(
            title_row - 1, 0, title_row - 1, 6, f"Action segment {segment}", st.subsection
        )
        page.headers(title_row + 1, ("#", "Order", "System"))
        ws.merge_range(
            title_row,
            3,
            title_row,
            6,
            "Actions (separate several with ;)   e.g.  T1 > TAU > PRO ; T1 split T4 DD1",
            st.header,
        )
        rows = page.numbered(segment_rows(segment)[0], ACTIVATION_ROWS)
        for row in rows:
            page.value(f"B{row}", row - rows[0] + 1, st.input_number)
            page.blank(f"C{row}", st.input_text)
            page.blank(f"D{row}", st.input_text, through=f"G{row}")
        first, last = rows[0], rows[-1]
        page.ask(
            f"B{first}:B{last}",
            "Order",
            "The order in which you want your activations of this segment carried out "
            "(1 first). Pre-filled; change it to reorder lines.",
        )
        page.ask(
            f"C{first}:C{last}",
            "System",
            "The system you activate (where your fleet is when its turn comes). Blank only for "
            "a line that says pass.",
            systems,
        )
        page.ask(
            f"D{first}:D{last}",
            "Actions",
            "T1 > TAU > PRO  |  T1 attack PRO4 auto (or 1,1,3)  |  T1 load RT2 PD1 from SOL1  |  "
            "T1 unload RT2 to ACB  |  T1 split T4 DD1 DD2  |  T1 join T2  |  T1 evacuate PRO4  |"
            "  pass. Several on one line: separate with ;",
        )


def _write_battle(page: Page, state: State, side: str) -> None:
    ws, st = page.ws, page.st
    page.section(
        BATTLE_SECTION_ROW,
        "BATTLE ORDERS - standing orders of each fleet for every space battle (kept until changed)",
    )
    page.headers(
        BATTLE_HEADER_ROW,
        ("#", "Fleet", "Stance", "Target priority", "Break off after", "Retreat", "Stealth"),
    )
    fleets = sorted((f for f in state.fleets if f.side == side), key=lambda f: f.name)
    own = [f.name for f in fleets]
    for i, row in enumerate(page.numbered(BATTLE_FIRST_ROW, BATTLE_ROWS)):
        # Battle orders are standing orders: each fleet's row is pre-filled with the orders
        # it fought under last turn, to change or keep.
        values = [""] * 6
        if i < len(fleets):
            b = standing_orders(own[i], fleets[i].standing)
            values = [
                own[i],
                b.stance if b.stance != "close" else "",
                b.priority if b.priority != "capital" else "",
                str(b.break_off) if b.break_off else "",
                b.retreat,
                "" if b.stealth else "no",
            ]
        for col, value in zip(BATTLE_COLUMNS, values, strict=True):
            page.value(f"{col}{row}", value, st.input_text)
    first, last = BATTLE_FIRST_ROW, BATTLE_FIRST_ROW + BATTLE_ROWS - 1
    page.ask(
        f"B{first}:B{last}",
        "Fleet",
        "Your fleet (pre-filled), or a fleet you create by a split this turn.",
        own,
    )
    page.choose(
        f"C{first}:C{last}",
        "Stance",
        "close: move to range 0; stand off: keep at range 2-3; hold: stay where you are. "
        "Blank = close.",
        STANCES,
    )
    page.choose(
        f"D{first}:D{last}",
        "Target priority",
        "Which enemy ships your fleet fires at first: capital ships, carriers, transports or "
        "the cheapest. Blank = capital.",
        PRIORITIES,
    )
    page.choose(
        f"E{first}:E{last}",
        "Break off",
        "Withdraw after this round (1, 2 or 3). Blank = fight all three rounds.",
        ["1", "2", "3"],
    )
    page.choose(
        f"{BATTLE_RETREAT_COL}{first}:{BATTLE_RETREAT_COL}{last}",
        "Retreat",
        "If this fleet loses a space battle: back (the way it came) or home (to a system "
        "closer to your home world). Blank = the referee's default.",
        RETREATS,
    )
    page.choose(
        f"{BATTLE_STEALTH_COL}{first}:{BATTLE_STEALTH_COL}{last}",
        "Stealth",
        "A fleet of scouts only: yes (blank) tries to enter enemy systems unseen (2D6, 10 or "
        "less); no enters openly.",
        ["yes", "no"],
    )
    r, c = cell_rc(BOMBARD_CELL)
    ws.merge_range(r, 0, r, 2, "Bombardment: hit first (PD or F; blank = PD)", st.label)
    ws.write_blank(r, c, None, st.input_text)
    page.choose(
        BOMBARD_CELL,
        "Bombardment priority",
        "When your fleets bombard a planet, hits go first to planetary defence (PD) or to "
        "fighters (F).",
        ["PD", "F"],
    )


def _write_close_out(page: Page) -> None:
    st = page.st
    page.section(
        CLOSE_SECTION_ROW, "CLOSE-OUT - after maintenance: scrap, repair, ground repair, augment"
    )
    page.headers(CLOSE_HEADER_ROW, ("#", "Kind"))
    page.ws.merge_range(
        CLOSE_HEADER_ROW - 1, 2, CLOSE_HEADER_ROW - 1, 6, "Unit ids (e.g. CA1 DD3)", st.header
    )
    for row in page.numbered(CLOSE_FIRST_ROW, CLOSE_ROWS):
        page.blank(f"B{row}", st.input_text)
        page.blank(f"C{row}", st.input_text, through=f"G{row}")
    first, last = CLOSE_FIRST_ROW, CLOSE_FIRST_ROW + CLOSE_ROWS - 1
    page.choose(
        f"B{first}:B{last}",
        "Kind",
        "scrap: damaged ship at a World/Outpost (monitors any time), half its maintenance back; "
        "repair: damaged ship at a World/Outpost or with an AR; ground repair: reduced troops "
        "or PD on your World/Outpost; augment: two reduced F or M into one.",
        CLOSE_OUT_KINDS,
    )
    page.ask(
        f"C{first}:C{last}",
        "Units",
        "The unit ids, separated by spaces or commas (augment: exactly two).",
    )


def _write_arrivals(
    page: Page,
    state: State,
    side: str,
    rules: Mapping[str, Any],
) -> None:
    """The units due this turn with where the usual placement puts them, pre-filled to keep
    or change: the seed places reinforcements in the administrative segment, so they can be
    given orders on this sheet under their counter ids and fleet names."""
    from .admin import arrival_plan, arrivals_due

    ws, st = page.ws, page.st
    page.section(
        ARRIVAL_SECTION_ROW,
        "ARRIVALS - units due this turn from the turn record track: where each is placed",
    )
    page.headers(ARRIVAL_HEADER_ROW, ("#", "Unit", "Type", "World", "Fleet"))
    ws.merge_range(ARRIVAL_HEADER_ROW - 1, 5, ARRIVAL_HEADER_ROW - 1, 6, "From", st.header)
    due = arrivals_due(state, side)[:ARRIVAL_ROWS]
    plan = arrival_plan(state, side, rules)
    for i, row in enumerate(page.numbered(ARRIVAL_FIRST_ROW, ARRIVAL_ROWS)):
        if i < len(due):
            q = due[i]
            world, fleet = plan.get(q.unit_id, ("", ""))
            page.value(f"B{row}", q.unit_id, st.locked_value)
            page.value(f"C{row}", f"{q.code} {NAMES.get(q.code, q.code)}", st.locked_value)
            page.value(f"D{row}", world, st.input_text)
            page.value(f"E{row}", fleet, st.input_text)
            ws.merge_range(row - 1, 5, row - 1, 6, q.source or "built", st.locked_value)
        elif i or due:
            for col in "BCDE":
                page.blank(f"{col}{row}", st.locked_value)
            page.blank(f"F{row}", st.locked_value, through=f"G{row}")
    if not due:
        page.note(f"C{ARRIVAL_FIRST_ROW}:G{ARRIVAL_FIRST_ROW}", "Nothing is due this turn.")
        return
    first, last = ARRIVAL_FIRST_ROW, ARRIVAL_FIRST_ROW + min(len(due), ARRIVAL_ROWS) - 1
    worlds = sorted(
        p.code
        for p in state.map.planets.values()
        if p.owner == side and p.marker == "World" and not p.disputed
    )
    page.ask(
        f"{ARRIVAL_WORLD_COL}{first}:{ARRIVAL_WORLD_COL}{last}",
        "World",
        "The World where this unit is placed (pre-filled: the usual choice). A second unit "
        "goes to a World only when each of your Worlds has one this turn.",
        worlds,
    )
    page.ask(
        f"{ARRIVAL_FLEET_COL}{first}:{ARRIVAL_FLEET_COL}{last}",
        "Fleet",
        "A ship joins this fleet of yours at the World, or forms a new fleet of this name. "
        "Troops, PD, fighters, Outposts ride in this fleet's empty transports (blank: on the "
        "planet). Orders below may use the unit and fleet.",
    )


def _write_message(page: Page) -> None:
    ws, st = page.ws, page.st
    page.section(MESSAGE_SECTION_ROW, "MESSAGE TO THE REFEREE")
    r, c = cell_rc(MESSAGE_CELL)
    ws.merge_range(r, c, MESSAGE_LAST_ROW - 1, 6, "", st.input_wrap)
    ws.write_string(r, 0, "Message", st.label)
    page.ask(
        MESSAGE_CELL,
        "Message",
        f"Free text to the referee, at most {MAX_MESSAGE_LENGTH} characters.",
    )


def _write_forces(
    ws: Any, st: _Styles, state: State, view: PlayerView, player: str, side: str
) -> int:
    """The read-only reference sheet; returns the number of rows used (for the print area).
    What it says of planets comes from the side's view (`visibility.player_view`)."""
    for col, width in enumerate((8, 20, 8, 8, 34, 12)):
        ws.set_column(col, col, width)
    title = f"{state.game_name} - {side} ({player}) - {turn_label(state)}"
    page = Listing(ws, st, title, span=5)
    headers = ("Code", "Unit", "Cost", "Turns", "B T D CM F M", "Counters")
    for c, text in enumerate(headers):
        ws.write_string(UNIT_HEADER_ROW - 1, c, text, st.header)
    for i, (code, t) in enumerate(UNIT_TABLES[side].items()):
        row0 = UNIT_FIRST_ROW - 1 + i
        in_play = sum(1 for u in state.units if u.side == side and u.code == code)
        queued = sum(1 for q in state.queue if q.side == side and q.code == code)
        factors = (
            "troops (strength full-reduced)"
            if code in ("RT", "JT")
            else f"B{t.beam} T{t.torpedo} D{t.defence} CM{t.cm} F{t.fighters} M{t.maintenance}"
        )
        counters = (
            "-" if code == "OP" else f"{in_play + queued} of {counters_available(side, code)}"
        )
        for c, value in enumerate((code, t.name, t.cost, t.build, factors, counters)):
            if isinstance(value, int):
                ws.write_number(row0, c, value, st.ref)
            else:
                ws.write_string(row0, c, value, st.ref)
    page.rows = UNIT_FIRST_ROW + len(UNIT_TABLES[side]) + 1
    block = page.block
    block("YOUR FLEETS (name at system: ships | carried units)", fleet_lines(state, side), "(none)")
    planets = planet_lines(view)
    block(
        "YOUR PLANETS (code name system type hexes marker: units in the box)",
        planets["own"],
        "(none)",
    )
    if planets["disputed"]:
        block(
            "DISPUTED PLANETS (neither side's until the fight ends: who holds the marker, "
            "both sides' units)",
            planets["disputed"],
            "(none)",
        )
    if planets["elsewhere"]:
        block("YOUR UNITS ON OTHER PLANETS", planets["elsewhere"], "(none)")
    block("UNDER CONSTRUCTION (turn record track)", queue_lines(state, side), "Nothing.")
    routes = [
        f"{r.a} - {r.b}" + (f" ({r.length})" if r.length != 1 else "") for r in state.map.routes
    ]
    block(
        "JUMP ROUTES (system - system (length, if not 1))",
        [", ".join(routes[i : i + 8]) for i in range(0, len(routes), 8)],
        "(none)",
    )
    block(
        "EVERY PLANET (the code to write on the sheet, name, system, type, hexes, marker "
        "as far as you know it)",
        planets["every"],
        "(none)",
    )
    return page.rows


def _meta(state: State, player: str, side: str, token: str) -> list[tuple[str, str]]:
    own = sorted(f.name for f in state.fleets if f.side == side)
    return [
        ("format_version", FORMAT_VERSION),
        ("ruleset", RULESET_NAME),
        ("game_id", state.game_id),
        ("game_name", state.game_name),
        ("player", player),
        ("side", side),
        ("step", str(state.turn)),
        ("turn", str(state.turn)),
        ("kind", "orders"),
        ("token", token),
        ("fleets", json.dumps(own, ensure_ascii=False)),
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
    """Write ``player``'s turn sheet for ``state.turn`` to ``path`` (atomically)."""
    try:
        side = state.side_of(player)
    except KeyError:
        raise UsageError(f"{player!r} is not a player of {state.game_name}") from None
    rules = complete(house_rules)
    peace = state.at_peace()
    with turn_workbook(
        path,
        title=f"{state.game_name} - turn {state.turn} - {player}",
        subject="Imperium 3rd Millennium turn sheet",
        pages=(ORDERS_SHEET, FORCES_SHEET),
        widths=_COLUMN_WIDTHS,
    ) as book:
        ws, forces = book.pages
        st = _Styles(book.wb)
        page = Page(ws, st, book.lists)
        _write_header(page, state, player, side, deadline)
        _write_admin(page, state, side, peace)
        _write_upkeep(page, state, side, rules)
        _write_activations(page, state)
        _write_battle(page, state, side)
        _write_close_out(page)
        _write_message(page)
        _write_arrivals(page, state, side, rules)
        forces_rows = _write_forces(
            forces, st, state, player_view(state, player, rules), player, side
        )
        ws.set_h_pagebreaks([ACT_SECTION_ROW - 1, BATTLE_SECTION_ROW - 1])
        book.finish(
            footer=f"{state.game_name} - {side} - turn {state.turn}",
            print_areas=(f"A1:G{PRINT_LAST_ROW}", f"A1:F{max(1, forces_rows)}"),
            meta=_meta(state, player, side, token),
        )


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


#: The notes of the Appeal cell as the reader reads text (upper case, plain spaces).
_NO_APPEAL_NOTES = frozenset(
    normalise(note) for note in (NO_APPEAL_TERRAN, NO_APPEAL_PEACE, NO_APPEAL_PROHIBITED)
)


class _Reader(SheetReader):
    """Reads the input cells of one opened sheet into `Orders`, collecting problems."""

    def __init__(self, sheet: TurnSheetFile, orders: Orders, fleets: list[str]) -> None:
        super().__init__(sheet, ORDERS_SHEET, normalise)
        self.orders = orders
        #: Upper-cased fleet name -> the name as the game spells it.
        self.fleets = {name.upper(): name for name in fleets}

    def fleet(self, name: str) -> str:
        return self.fleets.get(name, name)

    # -- sections ---------------------------------------------------------------------------
    def appeal(self) -> None:
        if self.orders.side != IMPERIAL:
            return
        text = self.text(APPEAL_CELL)
        if not text or text in _NO_APPEAL_NOTES:
            return  # blank, or the note "no Appeals in peacetime" etc.: not an input
        for choice in APPEALS:
            if choice and text == choice.upper():
                self.orders.appeal = choice
                self.orders.appeal_cell = where(APPEAL_CELL)
                return
        self.error(
            APPEAL_CELL,
            text,
            f"{text!r} is not an Appeal column",
            "Choose Forces or Finances, or leave the cell blank for no Appeal.",
        )

    def builds(self) -> None:
        for refs, texts in self.lines(BUILD_FIRST_ROW, BUILD_ROWS, "BCD"):
            (code_ref, count_ref, world_ref), (code, count_t, world) = refs, texts
            found = " ".join(t for t in (count_t, code, world) if t)
            if not code:
                self.error(
                    code_ref, found, "this construction line names no unit", "Choose a unit code."
                )
                continue
            code = code.split(" ")[0]
            if code == "OUTPOST":
                code = "OP"
            try:
                count = parse_count(count_t, cell=count_ref) if count_t else 1
                if world in self.fleets:
                    world = self.fleets[world]  # arrive aboard this fleet
                elif world:
                    world = parse_code(world, "planet code", "SOL1", line=found, cell=world_ref)
            except InvalidOrder as exc:
                self.invalid(exc, exc.cell or code_ref)
                continue
            self.orders.builds.append(
                Build(
                    code,
                    count,
                    world,
                    cell=where(code_ref),
                    cells=(where(code_ref), where(count_ref), where(world_ref)),
                )
            )

    def projects(self) -> None:
        for col, target in (
            (TERRAFORM_COL, self.orders.terraform),
            (UPGRADE_COL, self.orders.upgrades),
        ):
            for i in range(PROJECT_ROWS):
                ref = f"{col}{PROJECT_FIRST_ROW + i}"
                text = self.text(ref)
                if not text:
                    continue
                planet = self.attempt(
                    ref, parse_code, text, "planet code", "ERI1", line=text, cell=ref
                )
                if planet is not None:
                    target.append(PlanetOrder(planet, cell=where(ref)))

    def standing(self) -> None:
        """The standing orders beside the construction lines (blank = the default)."""
        o = self.orders
        cells: list[tuple[str, str, Callable[[str, str], Any]]] = [
            (UPKEEP_CELL, "stockpile_upkeep", lambda ref, t: self.choice(ref, t, *_YES_NO))
        ]
        if o.side == IMPERIAL:
            cells += [
                (FORCES_WORLD_CELL, "forces_world", self._world),
                (CRISIS_CELL, "crisis_ships", self._give_up),
                (REINFORCEMENT_CELL, "reinforcement_capital", self._capital),
            ]
        for ref, name, read in cells:
            text = self.text(ref)
            value = read(ref, text) if text else None
            if value is not None:
                setattr(o, name, value)
                o.standing_cells[name] = where(ref)

    def _world(self, ref: str, text: str) -> str | None:
        return self.attempt(ref, parse_code, text, "planet code", "DIN1", line=text, cell=ref)

    def _give_up(self, ref: str, text: str) -> list[str] | None:
        return self.attempt(ref, parse_units, split_list(text), line=text, cell=ref, verb="give up")

    def _capital(self, ref: str, text: str) -> str | None:
        return self.choice(
            ref,
            text,
            {"NONE": "none", **{c: c for c in REINFORCEMENT_CAPITALS}},
            "a capital ship that Imperial Reinforcements may bring",
            f"Choose one of {', '.join(REINFORCEMENT_CAPITALS)}, or none.",
        )

    def defences(self) -> None:
        """Planet defence lines: planet, what its fighters attack, where its units stand."""
        columns = (DEFENCE_PLANET_COL, DEFENCE_FIGHTERS_COL, DEFENCE_PLACEMENT_COL)
        for refs, texts in self.lines(PROJECT_FIRST_ROW, DEFENCE_ROWS, columns):
            (p_ref, f_ref, pl_ref), (planet, fighters, placement) = refs, texts
            found = " ".join(t for t in (planet, fighters, placement) if t)
            if not planet:
                self.error(
                    p_ref, found, "this defence line names no planet", "Type the planet code."
                )
                continue
            code = self.attempt(
                p_ref, parse_code, planet, "planet code", "SOL1", line=found, cell=p_ref
            )
            if code is None:
                continue
            defence = PlanetDefence(code, cell=where(p_ref))
            if fighters:
                target = self.choice(f_ref, fighters, *_FIGHTERS)
                if target is None:
                    continue
                defence.fighters_attack = target
            if placement:
                placed = _placement(placement)
                if placed is None:
                    self.error(
                        pl_ref,
                        placement,
                        "the placement is not a list of units and hexes",
                        "Write each unit and its hex, e.g. PD1 2, F3 4.",
                    )
                    continue
                defence.placement = placed
            self.orders.defences.append(defence)

    def activations(self) -> None:
        columns = (ACT_ORDER_COL, ACT_SYSTEM_COL, ACT_ACTIONS_COL)
        for segment in range(1, SEGMENTS + 1):
            found: list[tuple[int, int, Activation]] = []
            used: dict[int, str] = {}
            for i, row in enumerate(segment_rows(segment)):
                order_ref, system_ref, actions_ref = (f"{c}{row}" for c in columns)
                system = self.text(system_ref)
                raw = self.raw(actions_ref)
                if not system and not raw:
                    continue
                order_t = self.text(order_ref)
                order = i + 1
                if order_t:
                    order = self.attempt(
                        order_ref, parse_count, order_t, cell=order_ref, what="position"
                    )
                    if order is None:
                        continue
                if not raw:
                    self.error(
                        actions_ref,
                        system,
                        f"the activation at {system} says nothing to do",
                        "Write the actions (e.g. T1 > TAU), or 'pass'.",
                    )
                    continue
                try:
                    actions = parse_actions(raw, cell=actions_ref)
                except InvalidOrder as exc:
                    self.invalid(exc, actions_ref)
                    self.orders.unreadable.append(
                        Activation(
                            segment, order, system.upper(), [], cell=where(actions_ref), text=raw
                        )
                    )
                    continue
                if not system and actions[0].kind != "pass":
                    self.error(
                        system_ref,
                        raw,
                        "no system is given for this activation",
                        "Choose the system where the acting fleet will be.",
                    )
                    continue
                if system:
                    system = self.attempt(
                        system_ref,
                        parse_code,
                        system,
                        "system code",
                        "SOL",
                        line=system,
                        cell=system_ref,
                    )
                    if system is None:
                        continue
                if order in used:
                    self.error(
                        order_ref,
                        str(order),
                        f"two activations of segment {segment} have the order {order} "
                        f"(the other is {used[order]})",
                        "Give each line of a segment its own order number.",
                    )
                    continue
                used[order] = f"{ORDERS_SHEET}!{actions_ref}"
                for a in actions:
                    a.fleet = self.fleet(a.fleet) if a.fleet else ""
                    if a.kind == "join":
                        a.target = self.fleet(a.target)
                cell, text = where(actions_ref), actions_text(actions)
                found.append((order, row, Activation(segment, order, system, actions, cell, text)))
            self.orders.activations.extend(a for _, _, a in sorted(found, key=lambda t: t[:2]))

    def battle(self) -> None:
        for refs, texts in self.lines(BATTLE_FIRST_ROW, BATTLE_ROWS, BATTLE_COLUMNS):
            f_ref, s_ref, p_ref, b_ref, r_ref, st_ref = refs
            fleet, stance, priority, brk, retreat, stealth = texts
            if not any(texts[1:]):
                continue  # a fleet's name alone (the sheet lists each): its standing orders stand
            found = " ".join(t for t in (fleet, stance, priority, brk, retreat, stealth) if t)
            if not fleet:
                self.error(
                    f_ref,
                    found,
                    "these battle orders name no fleet",
                    "Type the fleet's name in column B.",
                )
                continue
            name = self.attempt(f_ref, parse_name, fleet, "fleet name", line=fleet, cell=f_ref)
            if name is None:
                continue
            orders = BattleOrders(self.fleet(name), cell=where(f_ref))
            # Each cell given is read in turn; the first wrong one leaves the row out.
            for ref, text, attr, words in (
                (s_ref, stance, "stance", _STANCE),
                (p_ref, priority, "priority", _PRIORITY),
                (b_ref, "" if brk == "0" else brk, "break_off", _BREAK_OFF),
                (r_ref, retreat, "retreat", _RETREAT),
                (st_ref, stealth, "stealth", _YES_NO),
            ):
                value = self.choice(ref, text, *words) if text else ""
                if value is None:
                    break
                if text:
                    setattr(orders, attr, value)
            else:
                self.orders.battle_orders.append(orders)
        text = self.text(BOMBARD_CELL)
        if text and self.choice(BOMBARD_CELL, text, *_BOMBARD) is not None:
            self.orders.bombard_priority = text
            self.orders.bombard_priority_cell = where(BOMBARD_CELL)

    def close_out(self) -> None:
        columns = (CLOSE_KIND_COL, CLOSE_UNITS_COL)
        for (k_ref, u_ref), (kind, units_t) in self.lines(CLOSE_FIRST_ROW, CLOSE_ROWS, columns):
            if self.refused(u_ref):
                continue
            found = " ".join(t for t in (kind, units_t) if t)
            if kind not in CLOSE_OUT_WORDS:
                self.error(
                    k_ref,
                    found,
                    "no close-out kind is given"
                    if not kind
                    else f"{kind!r} is not a close-out kind",
                    "Choose scrap, repair, ground repair or augment.",
                )
                continue
            if len(units_t) > MAX_LINE_LENGTH:
                self.error(
                    u_ref,
                    units_t,
                    f"the unit list is {len(units_t):,} characters long "
                    f"(at most {MAX_LINE_LENGTH} characters a line)",
                    "Name each unit once; use another line for more units.",
                )
                continue
            units = self.attempt(
                u_ref, parse_units, split_list(units_t), line=found, cell=u_ref, verb=kind.lower()
            )
            if units is not None:
                self.orders.close_out.append(
                    CloseOutOrder(CLOSE_OUT_WORDS[kind], units, cell=where(k_ref))
                )

    def arrivals(self) -> None:
        columns = (ARRIVAL_UNIT_COL, ARRIVAL_WORLD_COL, ARRIVAL_FLEET_COL)
        for refs, texts in self.lines(ARRIVAL_FIRST_ROW, ARRIVAL_ROWS, columns):
            (u_ref, w_ref, f_ref), (unit, world, fleet) = refs, texts
            if not unit:
                self.error(
                    w_ref if world else f_ref,
                    world or fleet,
                    "this arrivals row names no unit",
                    "Fill in only the rows of the units listed.",
                )
                continue
            try:
                unit = parse_name(unit, "unit id", line=unit, cell=u_ref)
                if world:
                    world = parse_code(world, "World code", "SOL1", line=world, cell=w_ref)
                if fleet:
                    fleet = parse_name(fleet, "fleet name", line=fleet, cell=f_ref)
            except InvalidOrder as exc:
                self.invalid(exc, exc.cell or w_ref)
                continue
            self.orders.arrivals.append(
                Arrival(unit, world, self.fleet(fleet) if fleet else "", cell=where(w_ref))
            )

    def message(self) -> None:
        raw = self.raw(MESSAGE_CELL)
        body = escaped(raw).strip()
        if len(body) > MAX_MESSAGE_LENGTH:
            self.error(
                MESSAGE_CELL,
                body[:80] + "...",
                f"the message is {len(body)} characters long",
                f"Shorten it to at most {MAX_MESSAGE_LENGTH} characters.",
            )
            return
        shaped = MessageBudget().shape(raw)
        if shaped.cuts:
            self.error(
                MESSAGE_CELL,
                body[:80],
                "the message was shortened for its reader: " + "; ".join(shaped.cuts),
                "Say it in fewer lines; what is shown here is what the other side receives.",
                "warning",
            )
        self.orders.message = shaped.text


def read_opened(sheet: TurnSheetFile) -> SheetRead:
    """Orders and reading problems from an already opened (checked) turn sheet."""
    check_layout(sheet, RULESET_NAME, "Imperium 3rd Millennium", READABLE_VERSIONS)
    turn = meta_number(sheet, "turn", 1, 100_000)
    player = sheet.meta.get("player", "")
    side = sheet.meta.get("side", "")
    if not player or side not in (TERRAN, IMPERIAL):
        raise NotATurnSheet(
            f"{sheet.name}: the sheet names no player or side; use the sheet you were sent"
        )
    sheet.sheet(ORDERS_SHEET)
    orders = Orders(player=player, side=side, turn=turn)
    reader = _Reader(sheet, orders, meta_names(sheet, "fleets"))
    reader.appeal()
    reader.builds()
    reader.standing()
    reader.projects()
    reader.defences()
    reader.activations()
    reader.battle()
    reader.close_out()
    reader.message()
    reader.arrivals()
    return SheetRead(orders=orders, problems=reader.problems, meta=dict(sheet.meta))


def _placement(text: str) -> dict[str, int] | None:
    """``PD1 2, F3 4`` -> {"PD1": 2, "F3": 4}; None when it is not pairs of unit and hex."""
    words = text.replace(",", " ").replace(":", " ").replace("=", " ").split()
    if not words or len(words) % 2:
        return None
    placed: dict[str, int] = {}
    for unit, hex_ in zip(words[::2], words[1::2], strict=True):
        if not unit[:1].isalpha() or not hex_.isdigit() or not 1 <= int(hex_) <= 99:
            return None
        placed[unit] = int(hex_)
    return placed


def read_sheet(path: Path, opened: TurnSheetFile | None = None) -> SheetRead:
    """Read a turn sheet a player sent: its orders, reading problems and meta data.

    Raises `NotATurnSheet` for anything that is not a usable Imperium turn sheet.
    ``opened`` is the file already opened and checked by the caller (the engine's
    `check_sheet` opens it once to prove its identity).  The same bytes read again are
    answered from memory (`sheetreads`).
    """
    return read_remembered(Path(path), opened, read_opened)


# --------------------------------------------------------------------------------------------
# Filling in (computer players, tests, scripts) and the orders as text
# --------------------------------------------------------------------------------------------


def fill_sheet(path: Path, orders: Orders) -> None:
    """Type ``orders`` into the input cells of the sheet at ``path``, as a player would
    (`typing_into`).  Battle orders go on the line pre-filled with their fleet, or on the
    first free line (a fleet created by a split)."""
    check_room("construction lines", len(orders.builds), BUILD_ROWS)
    check_room("terraforming lines", len(orders.terraform), PROJECT_ROWS)
    check_room("upgrade lines", len(orders.upgrades), PROJECT_ROWS)
    check_room("close-out lines", len(orders.close_out), CLOSE_ROWS)
    check_room("planet defence lines", len(orders.defences), DEFENCE_ROWS)
    for segment in range(1, SEGMENTS + 1):
        lines = orders.activations_in(segment)
        check_room(f"activations in segment {segment}", len(lines), ACTIVATION_ROWS)
    with typing_into(path, ORDERS_SHEET) as (put, ws):
        if orders.appeal:
            put(APPEAL_CELL, orders.appeal)
        for row, b in enumerate(orders.builds, start=BUILD_FIRST_ROW):
            put(f"{BUILD_CODE_COL}{row}", b.code)
            put(f"{BUILD_COUNT_COL}{row}", b.count)
            if b.world:
                put(f"{BUILD_WORLD_COL}{row}", b.world)
        for col, planets in ((TERRAFORM_COL, orders.terraform), (UPGRADE_COL, orders.upgrades)):
            for row, p in enumerate(planets, start=PROJECT_FIRST_ROW):
                put(f"{col}{row}", p.planet)
        for ref, value in (
            (UPKEEP_CELL, "" if orders.stockpile_upkeep else "no"),
            (FORCES_WORLD_CELL, orders.forces_world),
            (CRISIS_CELL, " ".join(orders.crisis_ships)),
            (REINFORCEMENT_CELL, orders.reinforcement_capital),
            (
                BOMBARD_CELL,
                "" if orders.bombard_priority in ("", "PD") else orders.bombard_priority,
            ),
            (MESSAGE_CELL, orders.message),
        ):
            if value:
                put(ref, value)
        for row, d in enumerate(orders.defences, start=PROJECT_FIRST_ROW):
            put(f"{DEFENCE_PLANET_COL}{row}", d.planet)
            put(f"{DEFENCE_FIGHTERS_COL}{row}", d.fighters_attack)
            if d.placement:
                text = ", ".join(f"{u} {h}" for u, h in d.placement.items())
                put(f"{DEFENCE_PLACEMENT_COL}{row}", text)
        for segment in range(1, SEGMENTS + 1):
            lines = orders.activations_in(segment)
            for i, (a, row) in enumerate(zip(lines, segment_rows(segment), strict=False)):
                put(f"{ACT_ORDER_COL}{row}", i + 1)
                put(f"{ACT_SYSTEM_COL}{row}", a.system)
                put(f"{ACT_ACTIONS_COL}{row}", actions_text(a.actions))
        rows = [BATTLE_FIRST_ROW + i for i in range(BATTLE_ROWS)]
        by_fleet = {str(ws[f"{BATTLE_FLEET_COL}{r}"].value or ""): r for r in rows}
        free = [r for r in rows if not ws[f"{BATTLE_FLEET_COL}{r}"].value]
        for b in orders.battle_orders:
            row = by_fleet.get(b.fleet)
            if row is None:
                if not free:
                    raise UsageError(
                        f"battle orders for {len(orders.battle_orders)} fleets do not fit on "
                        f"the sheet, which has {BATTLE_ROWS} rows for them"
                    )
                row = free.pop(0)
                put(f"{BATTLE_FLEET_COL}{row}", b.fleet)
            # The whole line, defaults as blanks: the sheet comes pre-filled with the fleet's
            # standing orders, which these orders replace.
            put(f"{BATTLE_STANCE_COL}{row}", b.stance)
            put(f"{BATTLE_PRIORITY_COL}{row}", b.priority)
            put(f"{BATTLE_BREAK_COL}{row}", str(b.break_off) if b.break_off else None)
            put(f"{BATTLE_RETREAT_COL}{row}", b.retreat or None)
            put(f"{BATTLE_STEALTH_COL}{row}", None if b.stealth else "no")
        for row, c in enumerate(orders.close_out, start=CLOSE_FIRST_ROW):
            put(f"{CLOSE_KIND_COL}{row}", c.kind)
            put(f"{CLOSE_UNITS_COL}{row}", " ".join(c.units))
        arrivals = {
            str(ws[f"{ARRIVAL_UNIT_COL}{r}"].value or ""): r
            for r in range(ARRIVAL_FIRST_ROW, ARRIVAL_FIRST_ROW + ARRIVAL_ROWS)
        }
        for a in orders.arrivals:
            if a.unit not in arrivals:
                raise UsageError(f"{a.unit} is not listed among the arrivals of this sheet")
            if a.world:
                put(f"{ARRIVAL_WORLD_COL}{arrivals[a.unit]}", a.world)
            if a.fleet:
                put(f"{ARRIVAL_FLEET_COL}{arrivals[a.unit]}", a.fleet)


def orders_text(orders: Orders) -> list[str]:
    """The orders as the referee understood them, one line each, in the game's notation."""
    lines: list[str] = []
    if orders.appeal:
        lines.append(f"Imperial Appeal: {orders.appeal}")
    for b in orders.builds:
        where_to = f" at {b.world}" if b.world else ""
        lines.append(f"Build {b.count} x {b.code} ({NAMES.get(b.code, b.code)}){where_to}")
    lines.extend(f"Terraform {p.planet}" for p in orders.terraform)
    lines.extend(f"Upgrade the Outpost on {p.planet}" for p in orders.upgrades)
    for a in orders.arrivals:
        parts = [f"at {a.world}" if a.world else "at the usual World"]
        if a.fleet:
            parts.append(f"fleet {a.fleet}")
        lines.append(f"Arrival {a.unit}: {', '.join(parts)}")
    for segment in range(1, SEGMENTS + 1):
        for a in orders.activations_in(segment):
            at = f" at {a.system}" if a.system else ""
            lines.append(f"Segment {segment}, activation {a.order}{at}: {actions_text(a.actions)}")
    if not orders.stockpile_upkeep:
        lines.append("Standing order: no maintenance from the stockpile")
    if orders.forces_world:
        lines.append(f"Standing order: Intervention forces arrive at {orders.forces_world}")
    if orders.crisis_ships:
        lines.append(
            f"Standing order: in a Frontier Crisis give up {' '.join(orders.crisis_ships)}"
        )
    if orders.reinforcement_capital:
        lines.append(
            f"Standing order: Imperial Reinforcements capital ship {orders.reinforcement_capital}"
        )
    for d in orders.defences:
        placed = ", ".join(f"{u} in hex {h}" for u, h in d.placement.items())
        lines.append(
            f"Defence of {d.planet}: fighters attack {d.fighters_attack} first"
            + (f"; {placed}" if placed else "")
        )
    for b in orders.battle_orders:
        brk = f", break off after round {b.break_off}" if b.break_off else ""
        brk += f", retreat {b.retreat}" if b.retreat else ""
        brk += "" if b.stealth else ", no stealth"
        lines.append(f"Battle orders {b.fleet}: {b.stance}, {b.priority} first{brk}")
    if orders.bombard_priority != "PD":
        lines.append(f"Bombardment hits {orders.bombard_priority} first")
    lines.extend(f"Close-out: {c.kind} {' '.join(c.units)}" for c in orders.close_out)
    if orders.message:
        lines.append(f"Message to the referee: {orders.message}")
    return lines or ["No orders."]
