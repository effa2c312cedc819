"""The battle sheet: a battle fought on the referee's table (house rule ``battles =
"referee"``), its forces listed as they came and a result part the referee fills in and files
like a player's sheet (docs/architecture.md, "Steps that wait for the referee").

One page, "Bataille" for a French referee and "Battle" for an English one (its cells do not
change with the language, and the reader finds either tab): the planet attacked with its bases
(D12 the bases left, E12 conquered oui/non or yes/no), who left the battle by hyperspace (C14),
the rounds fought (C15), notes (C16), then a row per ship from row 20, each with its fate (F:
endommagé / détruit or damaged / destroyed, empty for as it came) and a porte-intercepteur's
interceptors back aboard (G).  The drop-downs offer the sheet's language's words; the reader
reads both.  The rows are those of `tablebattles.ships_in`; the sheet's meta carries them, so
the reader needs no state and the checker holds them to the state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...errors import NotATurnSheet
from ...text.i18n import current
from ...text.message_text import MessageBudget
from ...text.words import N_
from ...workbook.sheetio import META_SHEET, TurnSheetFile
from ...workbook.sheetkit import SheetReader, SheetStyles
from ...workbook.sheetpage import Page, typing_into
from ...workbook.turnbook import turn_workbook
from ..base import SheetRead
from . import parse
from .charts import INTERCEPTORS_PER_CARRIER, SHIP_TYPES
from .names import SHIP_DAMAGED_NUMBERED, SHIP_LABELS, SHIP_LOST_NUMBERED, SIDE_LABELS
from .orders import BattleResult, PlanetResult, ShipResult
from .resolve import step_key
from .rules import complete
from .state import ALIEN, EMPIRE, SIDES, State, TableBattle, other
from .tablebattles import ships_in

BATTLE_SHEET = "Battle"
#: The page's name by the referee's language; the reader finds either.
BATTLE_TABS = {"fr": "Bataille", "en": BATTLE_SHEET}
KIND = "battle"
_WIDTHS = {"A": 11, "B": 16, "C": 10, "D": 22, "E": 18, "F": 14, "G": 22, "H": 8, "I": 8}
_LAST_COLUMN = 8
GAME_CELL, BATTLE_CELL, STEP_CELL, DEADLINE_CELL = "B3", "B4", "B5", "B6"
PLANET_ROW = 12
BASES_CELL, CONQUERED_CELL = "D12", "E12"
LEFT_CELL, ROUNDS_CELL, NOTES_CELL = "C14", "C15", "C16"
SHIP_FIRST_ROW = 20
FATE_COLUMN, INTERCEPTOR_COLUMN = "F", "G"
MAX_NOTES = 500

#: A ship's fate as the referee types it, in either language ("" as it came).
FATE_WORDS = {
    "": "",
    "intact": "",
    "indemne": "",
    "endommage": "damaged",
    "endommagee": "damaged",
    "damaged": "damaged",
    "d": "damaged",
    "detruit": "destroyed",
    "detruite": "destroyed",
    "destroyed": "destroyed",
    "x": "destroyed",
}
#: The words a battle sheet offers and the computer's stand-in types, by the sheet's language:
#: a ship's fate, yes and no, and who left the battle.
BATTLE_NOTATION = {
    "fr": {
        "": "",
        "damaged": "endommagé",
        "destroyed": "détruit",
        "yes": "oui",
        "no": "non",
        "nobody": "personne",
        EMPIRE: "Empire",
        ALIEN: "Extraterrestre",
        "both": "les deux",
    },
    "en": {
        "": "",
        "damaged": "damaged",
        "destroyed": "destroyed",
        "yes": "yes",
        "no": "no",
        "nobody": "nobody",
        EMPIRE: "Empire",
        ALIEN: "Extraterrestrial",
        "both": "both",
    },
}
#: Who left the battle by hyperspace, in either language.
LEFT_WORDS = {
    "": "",
    "personne": "",
    "aucun": "",
    "nobody": "",
    "none": "",
    "empire": EMPIRE,
    "l'empire": EMPIRE,
    "the empire": EMPIRE,
    "extraterrestre": ALIEN,
    "l'extraterrestre": ALIEN,
    "extraterrestrial": ALIEN,
    "the extraterrestrial": ALIEN,
    "les deux": "both",
    "both": "both",
}


def battle_tab(language: str) -> str:
    """The battle page's name for a referee reading ``language`` (French unless English)."""
    return BATTLE_TABS["en" if language == "en" else "fr"]


def battle_notation(language: str) -> dict[str, str]:
    """The words a battle sheet in ``language`` offers (French unless English)."""
    return BATTLE_NOTATION["en" if language == "en" else "fr"]


def _tab_of(names: list[str]) -> str:
    """The battle page of a sheet with these tabs, in either language."""
    return next((t for t in BATTLE_TABS.values() if t in names), BATTLE_SHEET)


def battle_of(state: State, name: str) -> TableBattle | None:
    """The battle waiting for the table that ``name`` names, if any."""
    if state.held is None:
        return None
    return next((b for b in state.held.battles if b.id == name), None)


def write_battle_sheet(
    state: State,
    battle: TableBattle,
    path: Path,
    *,
    token: str,
    deadline: str,
    house_rules: Mapping[str, Any] | None = None,
) -> None:
    """Write the battle's sheet for the referee (atomically), in the game's language."""
    rules = complete(house_rules)
    w = current()
    ships = ships_in(state, battle, rules["fight_across_levels"])
    planet = state.planet(battle.planet) if battle.planet else None
    key = step_key(state)
    where = battle.planet or str(battle.position)
    with turn_workbook(
        path,
        title=f"{state.game_name} - {battle.id}",
        subject=w.gettext("Millenium battle sheet"),
        pages=(battle_tab(w.language),),
        widths=_WIDTHS,
    ) as book:
        (ws,) = book.pages
        st = SheetStyles(book.wb)
        page = Page(ws, st, book.lists, width=_LAST_COLUMN)
        ws.merge_range(
            0, 0, 0, _LAST_COLUMN, w("MILLENIUM - BATTLE {battle}", battle=battle.id), st.title
        )
        ws.set_row(0, 26)
        ws.merge_range(
            1,
            0,
            1,
            _LAST_COLUMN,
            w(
                "Game turn {turn}: {attacker} attacks at {place} ({position})",
                turn=state.turn,
                attacker=w.gettext(SIDE_LABELS[battle.attacker]),
                place=where,
                position=parse.in_language(str(battle.position), w.language),
            ),
            st.subtitle,
        )
        for n, (label, ref, value) in enumerate(
            (
                (w.gettext("Game"), GAME_CELL, state.game_name),
                (w.gettext("Battle"), BATTLE_CELL, battle.id),
                (w.gettext("Step"), STEP_CELL, key),
                (w.gettext("Deadline"), DEADLINE_CELL, deadline),
            )
        ):
            page.labelled(f"A{n + 3}", label, ref, value, span=2)
        page.note(
            "A7:I8",
            w.gettext(
                "Fight the battle on the hex map by the printed procedure (rule VIII), then "
                "enter its result: the bases left and whether the planet was conquered, who "
                "left by hyperspace, and each ship's fate (empty: as it came). Yellow cells only."
            ),
        )
        _write_outcome(page, battle, planet.bases if planet else 0)
        _write_ships(page, ships)
        last = SHIP_FIRST_ROW + max(1, len(ships)) - 1
        book.finish(
            footer=f"{state.game_name} - {battle.id}",
            print_areas=(f"A1:I{last}",),
            meta=[
                ("format_version", "1"),
                ("ruleset", "millenium"),
                ("game_id", state.game_id),
                ("game_name", state.game_name),
                ("player", battle.id),
                ("step", key),
                ("turn", str(state.turn)),
                ("kind", KIND),
                ("language", w.language),
                ("attacker", battle.attacker),
                ("planet", battle.planet),
                ("bases", str(planet.bases if planet else 0)),
                (
                    "ships",
                    json.dumps([[s.side, s.fleet, s.index, s.ship.kind] for s in ships]),
                ),
                ("token", token),
            ],
        )


def _write_outcome(page: Page, battle: TableBattle, bases: int) -> None:
    w = current()
    offered = battle_notation(w.language)
    st = page.st
    page.section(10, w.gettext("THE PLANET, AND WHO LEFT"))
    page.headers(
        11,
        (
            "",
            w.gettext("Planet"),
            w.gettext("Bases before"),
            w.gettext("Bases left"),
            w.gettext("Conquered"),
        ),
    )
    if battle.planet:
        page.value(f"B{PLANET_ROW}", battle.planet, st.value)
        page.value(f"C{PLANET_ROW}", bases, st.value)
        page.blank(BASES_CELL, st.input_number)
        page.blank(CONQUERED_CELL, st.input_text)
        page.whole_number(
            BASES_CELL,
            w.gettext("Bases left"),
            w.gettext("The planet's bases still standing (its loyalty if not conquered)."),
            0,
            bases,
        )
        page.ask(
            CONQUERED_CELL,
            w.gettext("Conquered"),
            w("{yes}: the last base fell or the planet surrendered.", yes=offered["yes"]),
            (offered["yes"], offered["no"]),
        )
    else:
        page.value(f"B{PLANET_ROW}", w.gettext("none: fleets against fleets"), st.value)
    for row, label in (
        (14, w.gettext("Left the battle")),
        (15, w.gettext("Rounds fought")),
        (16, w.gettext("Notes")),
    ):
        page.ws.merge_range(row - 1, 0, row - 1, 1, label, st.label)
    page.blank(LEFT_CELL, st.input_text, through="D14")
    page.ask(
        LEFT_CELL,
        w.gettext("Left the battle"),
        w.gettext("The side whose ships left by hyperspace after the battle."),
        tuple(offered[k] for k in ("nobody", EMPIRE, ALIEN, "both")),
    )
    page.blank(ROUNDS_CELL, st.input_number)
    page.whole_number(ROUNDS_CELL, w.gettext("Rounds fought"), w.gettext("For the reports."), 0, 99)
    page.blank(NOTES_CELL, st.input_text, through="I16")
    page.ask(NOTES_CELL, w.gettext("Notes"), w.gettext("What the reports should say of it."))


def _write_ships(page: Page, ships: list[Any]) -> None:
    w = current()
    offered = battle_notation(w.language)
    st = page.st
    page.section(SHIP_FIRST_ROW - 2, w.gettext("SHIPS - one row per ship as it came"))
    page.headers(
        SHIP_FIRST_ROW - 1,
        (
            "#",
            w.gettext("Side"),
            w.gettext("Fleet"),
            w.gettext("Ship"),
            w.gettext("Before"),
            w.gettext("Fate"),
            w.gettext("Interceptors left"),
        ),
    )
    for row, s in zip(page.numbered(SHIP_FIRST_ROW, len(ships)), ships, strict=True):
        page.value(f"B{row}", w.gettext(SIDE_LABELS[s.side]), st.value)
        page.value(f"C{row}", s.fleet, st.value)
        page.value(f"D{row}", w.gettext(SHIP_LABELS[s.ship.kind]), st.value)
        before = w.gettext("damaged") if s.ship.damaged else w.gettext("intact")
        if s.ship.kind == "porte_intercepteur":
            n = s.ship.interceptors
            before += ", " + w.ngettext("{n} interceptor", "{n} interceptors", n).format(n=n)
        page.value(f"E{row}", before, st.value)
        page.blank(f"{FATE_COLUMN}{row}", st.input_text)
        if s.ship.kind == "porte_intercepteur":
            page.blank(f"{INTERCEPTOR_COLUMN}{row}", st.input_number)
    if ships:
        last = SHIP_FIRST_ROW + len(ships) - 1
        page.ask(
            f"F{SHIP_FIRST_ROW}:F{last}",
            w.gettext("Fate"),
            w(
                "{damaged} (one damage) or {destroyed}; empty: as it came.",
                damaged=offered["damaged"],
                destroyed=offered["destroyed"],
            ),
            ("", offered["damaged"], offered["destroyed"]),
        )
        page.whole_number(
            f"G{SHIP_FIRST_ROW}:G{last}",
            w.gettext("Interceptors left"),
            w.gettext("A carrier's interceptors back aboard; empty: as before."),
            0,
            INTERCEPTORS_PER_CARRIER,
        )


# -- reading -------------------------------------------------------------------------------
def _cell(ref: str, tab: str = BATTLE_SHEET) -> str:
    return f"{tab}!{ref}"


def read_battle(sheet: TurnSheetFile) -> SheetRead:
    """The result part of a battle sheet, as the referee filled it in."""
    meta = sheet.meta
    battle, step, attacker = meta.get("player", ""), meta.get("step", ""), meta.get("attacker")
    try:
        rows = [
            (str(side), str(fleet), int(index), str(kind))
            for side, fleet, index, kind in json.loads(meta.get("ships", ""))
        ]
        bases = int(meta.get("bases", ""))
    except (ValueError, TypeError):
        rows, bases = [], -1
    if (
        not battle
        or not step
        or attacker not in SIDES
        or bases < 0
        or any(side not in SIDES or kind not in SHIP_TYPES for side, _, _, kind in rows)
    ):
        raise NotATurnSheet(f"{sheet.name}: the battle sheet's hidden data is damaged")
    tab = _tab_of(list(sheet.workbook.sheetnames))
    sheet.sheet(tab)
    reader = SheetReader(sheet, tab)
    w = current()
    result = BattleResult(battle, step, _cell(BATTLE_CELL, tab), left_cell=_cell(LEFT_CELL, tab))
    planet = meta.get("planet", "")
    if planet:
        left = reader.parsed(BASES_CELL, lambda t, c: parse.count(t, c, bases))
        conquered = reader.parsed(CONQUERED_CELL, parse.yes_no)
        if reader.raw(BASES_CELL) or conquered:
            result.planet.append(
                PlanetResult(
                    planet,
                    bases if left is None else left,
                    bool(conquered),
                    _cell(f"B{PLANET_ROW}", tab),
                )
            )
    who = reader.parsed(LEFT_CELL, lambda t, c: parse.word(t, LEFT_WORDS, N_("a side"), c))
    if who:
        result.left = (attacker, other(attacker)) if who == "both" else (who,)
    result.rounds = reader.parsed(ROUNDS_CELL, lambda t, c: parse.count(t, c, 99)) or 0
    notes = reader.raw(NOTES_CELL)
    if len(notes) > MAX_NOTES:
        reader.error(
            NOTES_CELL,
            notes[:80],
            w("the notes are {n} characters long", n=len(notes)),
            w("Shorten them to {n}.", n=MAX_NOTES),
        )
    elif notes:
        result.notes = MessageBudget().shape(notes).text
    for n, (side, fleet, index, kind) in enumerate(rows):
        row = SHIP_FIRST_ROW + n
        fate = reader.parsed(
            f"{FATE_COLUMN}{row}",
            lambda t, c: parse.word(t, FATE_WORDS, N_("a ship's fate"), c),
        )
        aboard = reader.parsed(
            f"{INTERCEPTOR_COLUMN}{row}",
            lambda t, c: parse.count(t, c, INTERCEPTORS_PER_CARRIER),
        )
        if not fate and aboard is None:
            continue
        result.ships.append(
            ShipResult(
                side, fleet, index, kind, fate or "", _cell(f"{FATE_COLUMN}{row}", tab), aboard
            )
        )
    return SheetRead(orders=result, problems=reader.problems, meta=dict(meta))


def _fate(text: str, cell: str) -> str:
    return parse.word(text, FATE_WORDS, N_("a ship's fate"), cell)


# -- filling in (the computer's stand-in, tests) and the result as text ----------------------
def fill_battle(path: Path, result: BattleResult) -> None:
    """Type ``result`` into the battle sheet at ``path`` as the referee would, in the words of
    the sheet's language (its tab says which)."""
    import openpyxl  # here: only the computer's stand-in and the tests fill sheets in

    book = openpyxl.load_workbook(path, read_only=True)
    tab = _tab_of(list(book.sheetnames))
    book.close()
    offered = battle_notation("en" if tab == BATTLE_TABS["en"] else "fr")
    left = {(): "nobody", (EMPIRE,): EMPIRE, (ALIEN,): ALIEN}.get(tuple(result.left), "both")
    with typing_into(path, tab) as (put, ws):
        for outcome in result.planet:
            put(BASES_CELL, outcome.bases_left)
            put(CONQUERED_CELL, offered["yes"] if outcome.conquered else offered["no"])
        put(LEFT_CELL, offered[left])
        if result.rounds:
            put(ROUNDS_CELL, result.rounds)
        if result.notes:
            put(NOTES_CELL, result.notes)
        listed = _listed_rows(ws)
        for r in result.ships:
            row = listed.get((r.side, r.fleet, r.index))
            if row is None:
                continue
            if r.fate:
                put(f"{FATE_COLUMN}{row}", offered[r.fate])
            if r.interceptors is not None:
                put(f"{INTERCEPTOR_COLUMN}{row}", r.interceptors)


def _listed_rows(ws: Any) -> dict[tuple[str, str, int], int]:
    """Each listed ship's row, from the meta sheet the writer left in the workbook."""
    meta = ws.parent[META_SHEET] if META_SHEET in ws.parent.sheetnames else None
    ships: list[Any] = []
    if meta is not None:
        for key, value in meta.iter_rows(values_only=True, max_col=2):
            if key == "ships":
                ships = json.loads(str(value))
    return {(s, f, int(i)): SHIP_FIRST_ROW + n for n, (s, f, i, _k) in enumerate(ships)}


def result_text(result: BattleResult) -> list[str]:
    """The result as the referee's tool understood it, a line each, in the reader's language."""
    w = current()
    lines = [w("Battle {battle}", battle=result.battle)]
    for p in result.planet:
        n = p.bases_left
        lines.append(
            w.ngettext(
                "{planet} conquered, {n} base left", "{planet} conquered, {n} bases left", n
            ).format(planet=p.planet, n=n)
            if p.conquered
            else w.ngettext(
                "{planet} holds with {n} base", "{planet} holds with {n} bases", n
            ).format(planet=p.planet, n=n)
        )
    fates = {"damaged": SHIP_DAMAGED_NUMBERED, "destroyed": SHIP_LOST_NUMBERED}
    for r in result.ships:
        if r.fate in fates and r.kind in fates[r.fate]:
            text = w(fates[r.fate][r.kind], fleet=r.fleet, n=r.index + 1)
        else:
            text = w(
                "{fleet}: {ship} #{n}",
                fleet=r.fleet,
                ship=w.gettext(SHIP_LABELS.get(r.kind, r.kind)),
                n=r.index + 1,
            )
        if r.interceptors is not None:
            k = r.interceptors
            text += ", " + w.ngettext(
                "{n} interceptor aboard", "{n} interceptors aboard", k
            ).format(n=k)
        lines.append(text)
    for side in result.left:
        lines.append(w("{side} left the battle", side=w.gettext(SIDE_LABELS[side])))
    if result.rounds:
        lines.append(w.ngettext("{n} round", "{n} rounds", result.rounds).format(n=result.rounds))
    return lines


__all__ = [
    "BATTLE_SHEET",
    "BATTLE_TABS",
    "battle_of",
    "battle_tab",
    "fill_battle",
    "read_battle",
    "result_text",
    "write_battle_sheet",
]
