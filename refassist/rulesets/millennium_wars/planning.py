"""The sheet's "Board" page: what a player plans his moves and attacks with, on paper or on
screen, without the referee's PDF open beside it.

The board around his units is drawn as a grid of cells, one merged pair of cells a hex, each
map column a sheet column and the even columns half a hex (one cell) lower, so that the six
cells touching a hex's cell are its six neighbours, as on the map.  A hex's cell gives its id,
terrain and home country, the place and objective in it, the units in it (his, and the enemy
units he sees), the zones of control over it and the rivers and roads through it; its fill
is its terrain's colour and an enemy zone of control draws its border red.  Only the side's
view is drawn (`visibility.side_view`): enemy units out of sight, and the zones of control
they would cast, are not there.

Below the grid: the Terrain Effects Table as the scenario has it, the three combat results
tables and the column shifts with those of this turn said, so that the odds of an attack can
be reckoned on the sheet.  Every line is plain text in cells, readable in Excel and
LibreOffice alike; the page is locked like the Situation page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlsxwriter.utility import xl_col_to_name

from ...geometry.hexmap import col_row
from ..base import Event
from .board import Board
from .combat import PLACE_SHIFT, SUPPLY_SHIFT
from .crt import COLUMNS, CRTS, RESULTS
from .report import TERRAINS
from .rules import complete
from .state import State

#: A board larger than this is drawn around the side's units only (`board_box`).
MAX_COLUMNS, MAX_ROWS = 16, 20
#: Hexes drawn around the side's units when the board is cropped.
MARGIN = 3
#: The sheet row of the grid's first hex, and the width of a map column in characters.
GRID_ROW, HEX_WIDTH = 3, 19
FILLS = {t.key: t.fill for t in TERRAINS}


def board_box(view: State, side: str) -> tuple[int, int, int, int]:
    """The columns and rows drawn (first and last of each): the whole map when it fits a
    printed page, else the box around the side's units with `MARGIN` hexes more."""
    scenario = view.scenario
    if scenario.columns <= MAX_COLUMNS and scenario.rows <= MAX_ROWS:
        return 1, scenario.columns, 1, scenario.rows
    places = [col_row(u.hex) for u in view.units if u.side == side and u.hex]
    if not places:
        return 1, min(scenario.columns, MAX_COLUMNS), 1, min(scenario.rows, MAX_ROWS)
    cols = [c for c, _ in places]
    rows = [r for _, r in places]
    return (
        max(1, min(cols) - MARGIN),
        min(scenario.columns, max(cols) + MARGIN),
        max(1, min(rows) - MARGIN),
        min(scenario.rows, max(rows) + MARGIN),
    )


def direction(a: str, b: str) -> str:
    """Which way the adjacent hex ``b`` lies from ``a`` (N, NE, SE, S, SW, NW) on the
    flat-topped grid, even columns half a hex lower."""
    (ca, ra), (cb, rb) = col_row(a), col_row(b)
    if ca == cb:
        return "N" if rb < ra else "S"
    upper = rb == ra - 1 if ca % 2 else rb == ra
    east = cb > ca
    return ("NE" if east else "NW") if upper else ("SE" if east else "SW")


def board_print_column(view: State, side: str) -> str:
    """The last sheet column of the Board page's print area (the grid or the tables,
    whichever is wider)."""
    first, last, _, _ = board_box(view, side)
    return xl_col_to_name(max(last - first, 10))


def hex_lines(view: State, board: Board, side: str, hex_: str) -> list[str]:
    """What the cell of ``hex_`` says, a line each (see the module's doc)."""
    scenario = view.scenario
    terrain = scenario.terrain.get(hex_, "plain")
    country = scenario.countries.get(hex_, "")
    lines = [f"{hex_} {terrain}" + (f" ({country})" if country else "")]
    place = scenario.places.get(hex_)
    points = scenario.objectives.get(hex_, 0)
    if place or points:
        words = f"{place.name} {place.kind}" if place else ""
        if points:
            held = view.held.get(hex_) or "no one"
            words += f" *{points} ({held})"
        lines.append(words.strip())
    mine = [u for u in board.at(hex_) if u.side == side]
    theirs = [u for u in board.at(hex_) if u.side != side]
    for label, units in (("yours", mine), ("ENEMY", theirs)):
        if units:
            ids = " ".join(u.id + ("(d)" if u.disrupted else "") for u in units)
            lines.append(f"{label}: {ids}")
    zoc = []
    if board.in_enemy_zoc(hex_, side):
        zoc.append("ENEMY ZOC")
    if any(
        u.side == side and not u.kind.naval
        for n in board.grid.neighbours(hex_)
        for u in board.at(n)
    ):
        zoc.append("your ZOC")
    rivers = [
        direction(hex_, n) for n in board.grid.neighbours(hex_) if board.river_between(hex_, n)
    ]
    road = any(hex_ in loc for loc in scenario.locs)
    extras = zoc + ([f"river {' '.join(rivers)}"] if rivers else []) + (["road"] if road else [])
    if extras:
        lines.append(", ".join(extras))
    return lines


def write_board_page(
    ws: Any, wb: Any, st: Any, view: State, side: str, rules: Mapping[str, Any]
) -> int:
    """Draw the Board page of ``side``'s sheet from its view; the number of rows written."""
    first_col, last_col, first_row, last_row = board_box(view, side)
    board = Board.of(view.scenario, view.units, int(rules["stacking"]))
    width = last_col - first_col + 1
    ws.set_column(0, max(width - 1, 8), HEX_WIDTH)
    ws.merge_range(0, 0, 0, max(width - 1, 8), f"The board as {side} sees it", st.title)
    ws.set_row(0, 24)
    cropped = (first_col, last_col, first_row, last_row) != (
        1,
        view.scenario.columns,
        1,
        view.scenario.rows,
    )
    note = (
        "One hex a pair of cells; even columns half a hex lower, so the cells touching a hex "
        "are its neighbours. yours/ENEMY: the units there (d: disrupted); *N (holder): an "
        "objective worth N points, held as you last saw it; ENEMY ZOC (red border): next to "
        "an enemy unit you see; river: the hexsides with a river."
        + (" Only the hexes around your units are drawn." if cropped else "")
    )
    ws.merge_range(1, 0, 1, max(width - 1, 8), note, st.note)
    ws.set_row(1, 42)
    formats: dict[tuple[str, bool], Any] = {}

    def cell_format(terrain: str, enemy_zoc: bool) -> Any:
        key = (terrain, enemy_zoc)
        if key not in formats:
            spec: dict[str, Any] = {
                **st.base,
                "font_size": 8,
                "text_wrap": True,
                "valign": "top",
                "bg_color": FILLS.get(terrain, "#FFFFFF"),
                "border": 5 if enemy_zoc else 1,
                "border_color": "#C00000" if enemy_zoc else "#808080",
            }
            formats[key] = wb.add_format(spec)
        return formats[key]

    last = GRID_ROW
    for row in range(GRID_ROW, GRID_ROW + 2 * (last_row - first_row + 1) + 1):
        ws.set_row(row, 30)
    for col in range(first_col, last_col + 1):
        for row in range(first_row, last_row + 1):
            hex_ = f"{col:02d}{row:02d}"
            top = GRID_ROW + 2 * (row - first_row) + (1 if col % 2 == 0 else 0)
            x = col - first_col
            text = "\n".join(hex_lines(view, board, side, hex_))
            terrain = view.scenario.terrain.get(hex_, "plain")
            fmt = cell_format(terrain, board.in_enemy_zoc(hex_, side))
            ws.merge_range(top, x, top + 1, x, text, fmt)
            last = max(last, top + 2)
    return _tables(ws, st, view, side, last + 1, rules)


def _block(ws: Any, st: Any, row: int, title: str, lines: Sequence[str]) -> int:
    ws.merge_range(row, 0, row, 8, title, st.section)
    row += 1
    for text in lines:
        ws.merge_range(row, 0, row, 8, text, st.line)
        row += 1
    return row + 1


def _table(
    ws: Any, st: Any, row: int, title: str, head: Sequence[str], body: Sequence[Sequence[str]]
) -> int:
    ws.merge_range(row, 0, row, max(len(head) - 1, 8), title, st.section)
    row += 1
    for c, text in enumerate(head):
        ws.write_string(row, c, text, st.header)
    row += 1
    for line in body:
        for c, text in enumerate(line):
            if text:
                ws.write_string(row, c, text, st.ref)
            else:
                ws.write_blank(row, c, None, st.ref)
        row += 1
    return row + 1


def _mp(value: Any) -> str:
    return "prohibited" if value is None else str(value)


def _tables(ws: Any, st: Any, view: State, side: str, row: int, rules: Mapping[str, Any]) -> int:
    table = view.scenario.terrain_table
    row = _table(
        ws,
        st,
        row,
        "TERRAIN EFFECTS (movement points to enter; the defender's column shift)",
        ("Terrain", "Mechanized", "Non-mech.", "Shift", "Stacking"),
        [
            (
                t.name,
                _mp(t.mechanized),
                _mp(t.non_mechanized),
                f"{t.shift:+d}" if t.combat else "no combat",
                str(t.stacking) if t.stacking is not None else "",
            )
            for t in table.values()
        ],
    )
    row = _block(
        ws,
        st,
        row,
        "HEXSIDES, ROADS AND PLACES",
        [
            "river hexside: +1 movement point to cross; -2 when every attacker attacks across "
            "a river",
            "road (line of communication): 1/2 movement point a hex along it, for every unit; "
            "no river cost where the road crosses",
            "a place gives its shift when better for the defender than its terrain's: "
            + ", ".join(f"{k} {v:+d}" for k, v in PLACE_SHIFT.items()),
        ],
    )
    crts = {**CRTS, "assault": view.scenario.assault}
    for key, crt in crts.items():
        body = [
            (str(die) + (" *" if die in crt.reconstructed else ""), *crt.rows[die - 1])
            for die in range(1, 7)
        ]
        title = f"{crt.name.upper()} CRT ({key} on the Orders page)"
        if crt.condition:
            title += f": {crt.condition}"
        if crt.reconstructed:
            title += "; * our reconstruction of a lost row"
        row = _table(ws, st, row, title, ("Die", *COLUMNS), body)
    row = _block(ws, st, row, "COMBAT RESULTS", [f"{k}: {v}" for k, v in RESULTS.items()])
    return _block(ws, st, row, "COLUMN SHIFTS (+ for the attacker)", shift_lines(view, side, rules))


#: Where a player writes political points for a shift: the attack line's column, the defence's
#: cell (sheet.py's POINTS_COLUMN and DEFENCE_POINTS_CELL, which import this module).
POINTS_WHERE = "attack: Orders column E; defence: Orders C56"


def shift_lines(view: State, side: str, rules: Mapping[str, Any] | None = None) -> list[str]:
    """The shifts an attack may get, with this turn's air said for ``side`` and the political
    points shift as the house rule ``political_shift`` has it."""
    political = str(complete(rules)["political_shift"])
    if political == "off":
        points = "political points: no shift in this game (house rule)"
    elif political == "per_point":
        points = f"political points: one column a point, at most one a unit ({POINTS_WHERE})"
    else:
        points = (
            "political points: one column for the side that asks, costing one point for each "
            f"of its units taking part ({POINTS_WHERE})"
        )
    if view.air == side:
        air = f"this turn: +1 on your attacks, -1 on the enemy's ({side} holds the air)"
    elif view.air:
        air = f"this turn: -1 on your attacks, +1 on the enemy's ({view.air} holds the air)"
    else:
        air = "this turn: none (parity)"
    return [
        "odds: attack strength to defence strength, rounded down to a column (1/4 ... 6/1)",
        "terrain or place of the hex attacked: as the table above (none on a raid where at "
        "least half the attack strength is non-mechanized)",
        "river: -2 when every attacking unit attacks across one",
        f"air superiority: +1 for the side holding it; {air}",
        "supply: "
        + ", ".join(
            f"attacker {k} {-v:+d}, defender {k} {v:+d}" for k, v in SUPPLY_SHIFT.items() if v
        ),
        "NATO and non-NATO units attacking together: -1",
        "naval support next to the hex attacked: +1 the attacker's, -1 the defender's",
        "intensive assault (a headquarters in support range, disrupted by it): +2",
        points,
    ]


def turn_so_far(view: State) -> list[str]:
    """Every event of this game turn the side was told, exchange after exchange: the earlier
    exchanges' (`State.earlier`) and the whole of the last one, which on a game turn's first
    sheet also holds the end of the game turn before (its last combat, recovery, the
    administrative segment): the sheet is the only place a player reads them before writing
    his next orders."""
    turn = view.point.turn
    seen: list[Event] = [*(e for e in view.earlier if e.turn == turn), *view.events]
    return [e.text for e in seen]


__all__ = [
    "board_box",
    "direction",
    "hex_lines",
    "shift_lines",
    "turn_so_far",
    "write_board_page",
]
