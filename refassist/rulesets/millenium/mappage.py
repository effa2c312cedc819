"""The sheet's map page: the strategic map and TAB 1, what a side plans its set-up and its
moves with on the sheet itself (the Empire places its six fleets before it has ever had a
report, so before this page it placed them blind).

The map is drawn in cells, three by three a zone: the zone's name at the top left, the outer
sectors N, E, S and W around the inner sector, which holds the zone's system (its letter and
level, filled with the level's colour as on the report's map).  Each sector cell lists the
fleets the side knows there with their level: its own as ``δ4``, the other side's as
``[K4]``.  Fleets waiting beyond an edge are listed under the map with the sector they enter
at.  TAB 1 follows: each ship type's starting number, most in one fleet, most in play at once
and cost, and each fleet's capacity.  Every line is plain text in cells, in the reader's
language; the page is locked like the Situation page and never read back.
"""

from __future__ import annotations

from typing import Any

from ...text.i18n import current
from ...text.words import N_
from . import parse
from .charts import SHIP_TYPES, Tables
from .geometry import Position, StrategicMap, zone_name
from .names import SHIP_LABELS
from .visibility import SideView

#: The first sheet row (0-based) of the grid, and the widths of a zone's three columns.
GRID_ROW = 3
ZONE_WIDTHS = (5.5, 11, 5.5)
#: Where each sector sits in its zone's 3 x 3 block (row, column).
SECTOR_CELL = {"N": (0, 1), "W": (1, 0), "C": (1, 1), "E": (1, 2), "S": (2, 1)}
#: The outer sectors' letters as the reader writes them (O for W in French).
SECTOR_LETTERS = {"N": N_("N"), "E": N_("E"), "S": N_("S"), "W": N_("W")}
#: How strongly a system's level colour fills its cell (as the report's map lays it).
TINT = 0.55


def _tint(colour: str) -> str:
    """``colour`` laid at `TINT` over white: black text stays readable on every level."""
    mixed = [round(TINT * int(colour[i : i + 2], 16) + (1 - TINT) * 255) for i in (1, 3, 5)]
    return "#" + "".join(f"{c:02X}" for c in mixed)


class _Formats:
    """The grid's cell formats, made once each: a zone's border sides and a fill."""

    def __init__(self, wb: Any) -> None:
        self.wb = wb
        self.made: dict[tuple[Any, ...], Any] = {}

    def cell(
        self,
        r: int,
        c: int,
        fill: str = "",
        bold: bool = False,
        small: bool = False,
        faint: bool = False,
    ) -> Any:
        key = (r, c, fill, bold, small, faint)
        if key not in self.made:
            spec: dict[str, Any] = {
                "font_name": "Calibri",
                "font_size": 7 if small else 9,
                "align": "center",
                "valign": "vcenter",
                "text_wrap": True,
                "bold": bold,
            }
            if small:
                spec.update({"align": "left", "valign": "top", "font_color": "#595959"})
            if faint:
                spec.update({"font_color": "#A6A6A6"})
            if fill:
                spec.update({"bg_color": fill, "border": 1, "border_color": "#333333"})
            for side, edge in (("top", r == 0), ("bottom", r == 2), ("left", c == 0)):
                if edge:
                    spec[side] = 2
            if c == 2:
                spec["right"] = 2
            self.made[key] = self.wb.add_format(spec)
        return self.made[key]


def _fleet_marks(view: SideView) -> tuple[dict[Position, list[str]], list[str]]:
    """The fleets by map sector (at any level: the mark says the level), and the lines for
    those waiting beyond an edge."""
    w = current()
    by_place: dict[Position, list[str]] = {}
    waiting: list[str] = []
    known = [(f.letter, f.position, True) for f in view.fleets if f.position is not None]
    known += [(f.letter, f.position, False) for f in view.others if f.position is not None]
    for letter, pos, own in known:
        mark = f"{letter}{pos.level}" if own else f"[{letter}{pos.level}]"
        if view.map.on_map(pos.zone):
            by_place.setdefault(Position(pos.zone, pos.sector, 0), []).append(mark)
            continue
        entry = view.map.entry_point(pos)
        line = (
            w("{fleet} at {place}, enters at {entry}", fleet=mark, place=pos, entry=entry)
            if entry is not None
            else f"{mark} {pos}"
        )
        waiting.append(parse.in_language(line, w.language))
    return by_place, waiting


def write_map_page(ws: Any, wb: Any, st: Any, view: SideView, tables: Tables) -> tuple[int, int]:
    """Draw the map page on ``ws``; the last row and column (0-based) of its print area."""
    w = current()
    game_map: StrategicMap = view.map
    formats = _Formats(wb)
    last_col = 3 * game_map.columns - 1
    for zc in range(game_map.columns):
        for n, width in enumerate(ZONE_WIDTHS):
            ws.set_column(3 * zc + n, 3 * zc + n, width)
    ws.merge_range(
        0,
        0,
        0,
        last_col,
        w.gettext("THE STRATEGIC MAP - zones, sectors, systems' levels"),
        st.title,
    )
    ws.set_row(0, 24)
    ws.merge_range(
        1,
        0,
        1,
        last_col,
        w.gettext(
            "Each zone: its name at the top left, its outer sectors N, E, S and W around the "
            "inner sector, where its system stands (its letter and level, in the level's "
            "colour). δ4: your fleet δ at level 4; [K4]: the other side's fleet K at level 4."
        ),
        st.note,
    )
    ws.set_row(1, 30)
    by_place, waiting = _fleet_marks(view)
    levels = w.gettext("level")
    for c, r in game_map.zones():
        top, left = GRID_ROW + 3 * (r - 1), 3 * (c - 1)
        system = game_map.system_in((c, r))
        for dr in range(3):
            for dc in range(3):
                ws.write_blank(top + dr, left + dc, None, formats.cell(dr, dc))
        ws.write_string(top, left, zone_name((c, r)), formats.cell(0, 0, small=True))
        for sector, (dr, dc) in SECTOR_CELL.items():
            marks = " ".join(by_place.get(Position((c, r), sector, 0), []))
            if sector == "C" and system is not None:
                head = f"{system.letter} · {levels} {system.level}"
                fill = _tint(tables.level_rgb[system.level - 1])
                text = f"{head}\n{marks}" if marks else head
                ws.write_string(
                    top + dr, left + dc, text, formats.cell(dr, dc, fill=fill, bold=True)
                )
            elif marks:
                ws.write_string(top + dr, left + dc, marks, formats.cell(dr, dc))
            elif sector != "C":  # an empty sector shows its letter, in the reader's notation
                shown = w.gettext(SECTOR_LETTERS[sector])
                ws.write_string(top + dr, left + dc, shown, formats.cell(dr, dc, faint=True))
    for row in range(GRID_ROW, GRID_ROW + 3 * game_map.rows):
        ws.set_row(row, 34 if (row - GRID_ROW) % 3 == 1 else 20)
    row = GRID_ROW + 3 * game_map.rows + 1
    colours = tables.level_english if w.language == "en" else tables.level_colours
    for n, (rgb, name) in enumerate(zip(tables.level_rgb, colours, strict=True), 1):
        cell = formats.cell(1, 1, fill=_tint(rgb), bold=True)
        at, col = row + (n - 1) // 4, 4 * ((n - 1) % 4)
        ws.merge_range(at, col, at, col + 3, w("level {n}: {colour}", n=n, colour=name), cell)
    row += 3
    if waiting:
        ws.merge_range(
            row,
            0,
            row,
            last_col,
            w("Waiting beyond the edges: {fleets}", fleets="; ".join(waiting)),
            st.note,
        )
        row += 2
    return _tab1(ws, st, tables, row, last_col), last_col


def _tab1(ws: Any, st: Any, tables: Tables, row: int, last_col: int) -> int:
    """TAB 1 under the map: the ships' limits and costs, the fleets' capacities; the last row."""
    w = current()
    ws.merge_range(
        row, 0, row, last_col, w.gettext("TAB 1 - the ships and fleets you play with"), st.section
    )
    row += 1
    heads = (
        w.gettext("Ship"),
        w.gettext("Starting (at most)"),
        w.gettext("Most in one fleet"),
        w.gettext("Most in play"),
        w.gettext("Cost"),
    )
    spans = ((0, 4), (5, 7), (8, 10), (11, 13), (14, 15))
    for (a, b), text in zip(spans, heads, strict=True):
        ws.merge_range(row, a, row, b, text, st.header)
    ws.set_row(row, 26)
    for kind in SHIP_TYPES:
        row += 1
        ship = tables.ships[kind]
        values = (
            w.gettext(SHIP_LABELS[kind]),
            ship.starting,
            ship.per_fleet,
            ship.in_play,
            ship.cost,
        )
        for (a, b), value in zip(spans, values, strict=True):
            ws.merge_range(row, a, row, b, value, st.value)
    row += 2
    capacities = ", ".join(f"{letter} {n}" for letter, n in tables.fleets.items())
    ws.merge_range(
        row,
        0,
        row,
        last_col,
        w("Fleets and the most ships each holds: {fleets}", fleets=capacities),
        st.label,
    )
    return row
