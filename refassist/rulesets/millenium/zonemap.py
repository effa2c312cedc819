"""The strategic map drawn for one reader as SVG: zones, their five sectors, the systems in the
colour of their level, and the fleets as counters with their level.

Drawn per reader, since what is on it depends on what the reader knows (who holds the planets
of a system whose card it has not seen is left blank).  Every text is escaped; the page is laid
out by the engine's ``svg_map_page`` (templates/base/netmap.html).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from .charts import Tables
from .geometry import Position, StrategicMap, zone_name
from .state import ALIEN, EMPIRE

#: A zone's width and height: taller than wide, so that a map of 6 x 5 zones fills the report's
#: map box (190 x 215 mm) instead of its top two thirds.
ZONE = 90
ZONE_HIGH = 120
MARGIN = 34
INNER = 48
SIDE_COLOURS = {ALIEN: "#3f9b45", EMPIRE: "#e6b800", "": "#9e9e9e"}
#: Every counter is edged dark inside a white halo: the side colours alone vanish on the
#: systems of their own hue (green on level 4, yellow on level 5), the edge and halo do not on
#: any level's colour (tests/millenium/test_pages.py computes the contrast).
COUNTER_EDGE = "#111111"
COUNTER_HALO = "#ffffff"
#: How a system's level colour is laid on the map (over the paper, `PAPER`).
SYSTEM_OPACITY = 0.55
PAPER = "#fbfbf7"
#: Where in a zone a sector's counters go (from the zone's top-left corner).
SECTOR_SPOT = {
    "N": (ZONE / 2, 14),
    "S": (ZONE / 2, ZONE_HIGH - 14),
    "W": (12, ZONE_HIGH / 2),
    "E": (ZONE - 12, ZONE_HIGH / 2),
    "C": (ZONE / 2, ZONE_HIGH / 2 + 6),
}


@dataclass(frozen=True)
class Counter:
    """A fleet counter as the reader sees it: its side, letter and where it stands."""

    side: str
    letter: str
    position: Position


@dataclass(frozen=True)
class SystemMark:
    """A system as the reader knows it: ``holders`` one entry per planet (a side or ""), or
    None when its card is hidden from the reader."""

    letter: str
    name: str
    holders: tuple[str, ...] | None


def _xy(game_map: StrategicMap, pos: Position) -> tuple[float, float]:
    c, r = pos.zone
    dx, dy = SECTOR_SPOT[pos.sector]
    return MARGIN + (c - 1) * ZONE + dx, MARGIN + (r - 1) * ZONE_HIGH + dy


def draw(
    game_map: StrategicMap,
    tables: Tables,
    systems: Sequence[SystemMark],
    counters: Sequence[Counter],
) -> str:
    """The map as one ``<svg>`` element."""
    width = game_map.columns * ZONE + 2 * MARGIN
    height = game_map.rows * ZONE_HIGH + 2 * MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" font-family="DejaVu Sans, sans-serif">'
    ]
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="{PAPER}"/>')
    pad, pad_y = (ZONE - INNER) / 2, (ZONE_HIGH - INNER) / 2
    for c, r in game_map.zones():
        x, y = MARGIN + (c - 1) * ZONE, MARGIN + (r - 1) * ZONE_HIGH
        ix, iy = x + pad, y + pad_y
        out.append(
            f'<rect x="{x}" y="{y}" width="{ZONE}" height="{ZONE_HIGH}" fill="none" '
            'stroke="#5b6b7b" stroke-width="1.2"/>'
        )
        for (ax, ay), (bx, by) in (
            ((x, y), (ix, iy)),
            ((x + ZONE, y), (ix + INNER, iy)),
            ((x, y + ZONE_HIGH), (ix, iy + INNER)),
            ((x + ZONE, y + ZONE_HIGH), (ix + INNER, iy + INNER)),
        ):
            out.append(
                f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#b8c2cc" '
                'stroke-width="0.6"/>'
            )
        out.append(
            f'<rect x="{ix}" y="{iy}" width="{INNER}" height="{INNER}" fill="none" '
            'stroke="#b8c2cc" stroke-width="0.6"/>'
        )
        out.append(
            f'<text x="{x + 3}" y="{y + 9}" font-size="7" fill="#5b6b7b">{zone_name((c, r))}</text>'
        )
    for mark in systems:
        placed = game_map.systems[mark.letter]
        c, r = placed.zone
        ix, iy = MARGIN + (c - 1) * ZONE + pad, MARGIN + (r - 1) * ZONE_HIGH + pad_y
        colour = tables.level_rgb[placed.level - 1]
        out.append(
            f'<rect class="system" x="{ix}" y="{iy}" width="{INNER}" height="{INNER}" '
            f'fill="{colour}" fill-opacity="{SYSTEM_OPACITY}" stroke="#333" stroke-width="0.8"/>'
        )
        out.append(
            f'<text x="{ix + INNER / 2}" y="{iy + 13}" font-size="12" font-weight="bold" '
            f'text-anchor="middle">{escape(mark.letter)}</text>'
        )
        out.append(
            f'<text x="{ix + INNER / 2}" y="{iy + 20}" font-size="5.5" text-anchor="middle">'
            f"{escape(mark.name[:12])}</text>"
        )
        for n, holder in enumerate(mark.holders or ()):
            out.append(
                f'<circle cx="{ix + 6 + n * 9}" cy="{iy + INNER - 5}" r="3" '
                f'fill="{SIDE_COLOURS.get(holder, "#9e9e9e")}" stroke="#333" stroke-width="0.5"/>'
            )
    placed_at: dict[tuple[int, int, str], int] = {}
    for counter in counters:
        pos = counter.position
        # A fleet waiting outside is drawn in the margin, beside the zone it faces.
        cx, cy = _xy(game_map, pos) if game_map.on_map(pos.zone) else _beyond(game_map, pos)
        key = (*counter.position.zone, counter.position.sector)
        n = placed_at.get(key, 0)
        placed_at[key] = n + 1
        # Fleets sharing a sector stand side by side, three a row.
        fx = cx + (0, 20, -20)[n % 3]
        fy = cy + (n // 3) * 15
        colour = SIDE_COLOURS.get(counter.side, "#9e9e9e")
        level_colour = tables.level_rgb[counter.position.level - 1]
        box = f'x="{fx - 9}" y="{fy - 6.5}" width="18" height="13" rx="2"'
        out.append(
            f'<rect class="halo" {box} fill="none" stroke="{COUNTER_HALO}" stroke-width="3.4"/>'
        )
        out.append(
            f'<rect class="counter" {box} fill="{colour}" stroke="{COUNTER_EDGE}" '
            'stroke-width="1.2"/>'
        )
        out.append(
            f'<text x="{fx - 3}" y="{fy + 3.3}" font-size="9" font-weight="bold" '
            f'text-anchor="middle">{escape(counter.letter)}</text>'
        )
        out.append(
            f'<circle cx="{fx + 5}" cy="{fy}" r="4" fill="{level_colour}" stroke="{COUNTER_EDGE}" '
            'stroke-width="0.5"/>'
        )
        out.append(
            f'<text x="{fx + 5}" y="{fy + 2.2}" font-size="6" text-anchor="middle">'
            f"{counter.position.level}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def _beyond(game_map: StrategicMap, pos: Position) -> tuple[float, float]:
    """Where a counter waiting outside the map is drawn: in the margin beside its zone."""
    inside, way = game_map.exit_zone(pos.zone)
    x, y = _xy(game_map, Position(inside, "C", pos.level))
    below_centre = SECTOR_SPOT["C"][1] - ZONE_HIGH / 2  # the inner spot's drop
    shift = {
        "N": (0, -SECTOR_SPOT["C"][1] - MARGIN / 2),
        "S": (0, ZONE_HIGH - SECTOR_SPOT["C"][1] + MARGIN / 2),
        "W": (-ZONE / 2 - MARGIN / 2, -below_centre),
        "E": (ZONE / 2 + MARGIN / 2, -below_centre),
    }
    dx, dy = shift[way]
    return x + dx, y + dy


def legend(
    tables: Tables,
    names: dict[str, str],
    level_label: Callable[[int, str], str],
    english: bool = False,
) -> list[dict[str, str]]:
    """The legend's items: each level's colour (its name in English for ``english``), then
    each side's counter colour.  ``level_label`` words a level and its colour in the reader's
    language, the catalog's typography included (French sets a space before the colon)."""
    items = []
    colours = tables.level_english if english else tables.level_colours
    for n, (colour, name) in enumerate(zip(tables.level_rgb, colours, strict=True), 1):
        swatch = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="14" height="10">'
            f'<rect width="14" height="10" fill="{colour}" stroke="#333" stroke-width="0.6"/></svg>'
        )
        items.append({"svg": swatch, "label": level_label(n, name)})
    for side, label in names.items():
        swatch = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="14" height="10">'
            f'<rect x="1" y="1" width="12" height="8" rx="1.5" fill="{SIDE_COLOURS[side]}" '
            f'stroke="{COUNTER_EDGE}" stroke-width="1.2"/></svg>'
        )
        items.append({"svg": swatch, "label": label})
    return items
