"""Hex maps as display lists: the shared printed map and one reader's overlay.

A map page is three layers, drawn in this order:

1. ``under`` (per reader): out-of-sight shading and owner fills (tint + hatching);
2. ``base`` (shared): hex grid, subsector borders and names, hex ids, worlds, class letters,
   naval bases (star) and scout bases (triangle), HiPop names in capitals;
3. ``over`` (per reader): owner tags, "last seen" years, details, routes, battle marks.

The base is the same for every reader of a turn (it shows only the printed map), so the fast
path draws it once and stamps it on every player's page; the reader's layers are small.

Geometry follows `refassist.geometry.hexmap`: columns of flat-topped hexes, even columns half a hex
lower.  A frame is a rectangle of hexes (the whole sector, or one subsector) fitted into a box
of the page, keeping the hexes regular.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from refassist.drawings.drawing import Circle, Drawing, Hatch, Path, Point, Text
from refassist.drawings.mapmodel import HexNote, MapOverlay, MapOwner, Route, SectorMap

SQRT3 = math.sqrt(3.0)

#: Owner styles: (fill tint, hatch colour, hatch kind).  Colours from ColorBrewer's Paired and
#: Dark2 sets; the hatch kinds differ between neighbours in the list so that owners stay apart
#: in black and white even when the colours do not.
OWNER_STYLES: tuple[tuple[str, str, str], ...] = (
    ("#c6dbef", "#1f5fa8", "/"),
    ("#fdd0a2", "#c45a00", "\\"),
    ("#c7e9c0", "#1e7b34", "-"),
    ("#f4c2c2", "#b01c2e", "|"),
    ("#dadaeb", "#54278f", "x"),
    ("#f6e8a6", "#8a6d00", "."),
    ("#c7eae5", "#01665e", "+"),
    ("#f1c6e4", "#a3177a", "o"),
    ("#d9d9d9", "#333333", "/"),
    ("#fee391", "#995200", "\\"),
    ("#b9e3d1", "#006d4f", "|"),
    ("#e0c9b8", "#6b3b1f", "-"),
)

GRID = "#8c8c8c"
BORDER = "#202020"
SHADE = "#d4d4d4"
INK = "#111111"
SOFT = "#555555"
BATTLE = "#c8102e"


def owner_style(style: int) -> tuple[str, str, str]:
    return OWNER_STYLES[style % len(OWNER_STYLES)]


def owner_hatch(owner: MapOwner, spacing: float) -> Hatch:
    """The fill of an owner's hexes (and of its legend swatch)."""
    tint, ink, kind = owner_style(owner.style)
    return Hatch(kind, ink, tint, spacing=spacing, width=min(0.6, max(0.35, spacing / 9)))


@dataclass(frozen=True)
class Frame:
    """A rectangle of hexes fitted into a ``width`` x ``height`` box (points).

    ``col0``/``row0`` is the top-left hex, ``cols``/``rows`` the extent; ``r`` is the hex
    radius (centre to corner) chosen so that the whole rectangle fits, and ``ox``/``oy``
    centre it in the box.
    """

    col0: int
    row0: int
    cols: int
    rows: int
    width: float
    height: float
    r: float
    ox: float
    oy: float

    @classmethod
    def fit(cls, col0: int, row0: int, cols: int, rows: int, width: float, height: float) -> Frame:
        # Width of n columns: 1.5 R per column + 0.5 R; height: sqrt3 R per row + half a hex
        # for the shifted columns (or none for a single unshifted column).
        shift = 0.5 if cols > 1 or col0 % 2 == 0 else 0.0
        r = min(width / (1.5 * cols + 0.5), height / (SQRT3 * (rows + shift)))
        used_w = r * (1.5 * cols + 0.5)
        used_h = r * SQRT3 * (rows + shift)
        return cls(
            col0, row0, cols, rows, width, height, r, (width - used_w) / 2, (height - used_h) / 2
        )

    def contains(self, hex_: str) -> bool:
        col, row = int(hex_[:2]), int(hex_[2:])
        return self.col0 <= col < self.col0 + self.cols and self.row0 <= row < self.row0 + self.rows

    def hexes(self) -> list[str]:
        return [
            f"{c:02d}{r:02d}"
            for c in range(self.col0, self.col0 + self.cols)
            for r in range(self.row0, self.row0 + self.rows)
        ]

    def center(self, hex_: str) -> Point:
        col, row = int(hex_[:2]), int(hex_[2:])
        x = self.ox + self.r + (col - self.col0) * 1.5 * self.r
        y = self.oy + SQRT3 * self.r * ((row - self.row0) + 0.5 + (0.5 if col % 2 == 0 else 0.0))
        return x, y

    def corners(self, hex_: str) -> tuple[Point, ...]:
        """Corners from the right one, clockwise on the page (y grows downwards)."""
        return _corner_table(self)[hex_]

    def _corners_of(self, hex_: str) -> tuple[Point, ...]:
        x, y = self.center(hex_)
        r, h = self.r, SQRT3 / 2 * self.r
        return (
            (x + r, y),
            (x + r / 2, y + h),
            (x - r / 2, y + h),
            (x - r, y),
            (x - r / 2, y - h),
            (x + r / 2, y - h),
        )

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The rectangle the frame's hexes cover: left, top, right, bottom."""
        shift = 0.5 if self.cols > 1 or self.col0 % 2 == 0 else 0.0
        return (
            self.ox,
            self.oy,
            self.ox + self.r * (1.5 * self.cols + 0.5),
            self.oy + self.r * SQRT3 * (self.rows + shift),
        )

    @property
    def detailed(self) -> bool:
        """Large hexes (subsector pages) have room for details under the name."""
        return self.r >= 24


@lru_cache(maxsize=64)
def _corner_table(frame: Frame) -> dict[str, tuple[Point, ...]]:
    """Every hex's corners in a frame, computed once: a map page asks for them thousands of
    times (grid, shading, fills) and frames repeat across the readers of a turn."""
    return {h: frame._corners_of(h) for h in frame.hexes()}


def _neighbour_edges(col: int, row: int) -> list[tuple[int, int, int, int]]:
    """(corner a, corner b, neighbour col, neighbour row) for the six edges of a hex."""
    even = col % 2 == 0
    up, down = (0, 1) if even else (-1, 0)
    return [
        (0, 1, col + 1, row + down),  # lower right
        (1, 2, col, row + 1),  # bottom
        (2, 3, col - 1, row + down),  # lower left
        (3, 4, col - 1, row + up),  # upper left
        (4, 5, col, row - 1),  # top
        (5, 0, col + 1, row + up),  # upper right
    ]


# --------------------------------------------------------------------------------------------
# The shared base layer
# --------------------------------------------------------------------------------------------


def star(x: float, y: float, r: float) -> tuple[Point, ...]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.42
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return tuple(pts)


def triangle(x: float, y: float, r: float) -> tuple[Point, ...]:
    return ((x, y - r), (x + r * 0.9, y + r * 0.6), (x - r * 0.9, y + r * 0.6))


def draw_base(sector: SectorMap, frame: Frame, *, subsector_titles: bool = True) -> Drawing:
    """The printed map inside a frame: identical for every reader."""
    d = Drawing(frame.width, frame.height)
    r = frame.r
    hexes = frame.hexes()
    # Subsector names as large pale lettering under everything else.
    if subsector_titles and frame.cols > sector.subsector_cols:
        for letter in sector.subsectors:
            col0, row0, cols, rows = sector.subsector_bounds(letter)
            if not (frame.contains(f"{col0:02d}{row0:02d}")):
                continue
            a = frame.center(f"{col0:02d}{row0:02d}")
            b = frame.center(f"{col0 + cols - 1:02d}{row0 + rows - 1:02d}")
            cx, cy = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            d.add(Text(cx, cy - r * 0.9, letter, r * 3.2, bold=True, color="#b4b4b4", opacity=0.45))
            d.add(
                Text(
                    cx,
                    cy + r * 1.2,
                    sector.subsector_name(letter),
                    r * 1.05,
                    bold=True,
                    color="#a0a0a0",
                    opacity=0.45,
                )
            )
    # The grid: every hex outline as one path.
    d.add(
        Path(
            tuple((frame.corners(h), True) for h in hexes), stroke=GRID, width=max(0.25, r * 0.025)
        )
    )
    # Subsector borders (edges between hexes of two subsectors) and the frame's outline.
    inner: list[tuple[tuple[Point, ...], bool]] = []
    outer: list[tuple[tuple[Point, ...], bool]] = []
    for h in hexes:
        col, row = int(h[:2]), int(h[2:])
        corners = frame.corners(h)
        for first, second, nc, nr in _neighbour_edges(col, row):
            n = f"{nc:02d}{nr:02d}"
            seg = ((corners[first], corners[second]), False)
            if not (1 <= nc <= sector.cols and 1 <= nr <= sector.rows) or not frame.contains(n):
                outer.append(seg)
            elif sector.subsector_of(n) != sector.subsector_of(h) and n > h:
                inner.append(seg)
    if inner:
        d.add(Path(tuple(inner), stroke=BORDER, width=max(0.8, r * 0.08)))
    d.add(Path(tuple(outer), stroke=BORDER, width=max(1.0, r * 0.1)))
    # Hex ids.
    id_size = max(2.6, r * (0.2 if frame.detailed else 0.27))
    for h in hexes:
        x, y = frame.center(h)
        d.add(Text(x, y - r * 0.62, h, id_size, color=SOFT))
    # Worlds.  Slots in a hex: id at the top, naval base upper left, scout base upper right,
    # class letter, world dot, name at the bottom; the reader's layer uses the slots right
    # (owner tag) and left (year last seen) of the dot, so the layers never overlap.
    detailed = frame.detailed
    for w in sector.worlds:
        if not frame.contains(w.hex):
            continue
        x, y = frame.center(w.hex)
        code_y = y - r * (0.28 if detailed else 0.2)
        d.add(
            Text(
                x, code_y, w.code, r * (0.3 if detailed else 0.36), bold=True, color=INK, halo=True
            )
        )
        dot_y = y - r * (0.08 if detailed else -0.06)
        d.add(Circle(x, dot_y, r * (0.09 if detailed else 0.12), fill=INK))
        mark_y = code_y - r * (0.1 if detailed else 0.12)
        if w.naval:
            d.add(Path(((star(x - r * 0.45, mark_y, r * 0.15), True),), fill=INK))
        if w.scout:
            d.add(Path(((triangle(x + r * 0.45, mark_y + r * 0.02, r * 0.12), True),), fill=INK))
        name = w.name.upper() if w.capitals else w.name
        name_y = y + r * (0.2 if detailed else 0.5)
        name_size = r * (0.19 if detailed else 0.29)
        d.add(
            Text(
                x,
                name_y,
                _fit(name, 2 * r * 0.95, name_size),
                name_size,
                bold=w.capitals,
                color=INK,
                halo=True,
            )
        )
    return d


def _fit(text: str, width: float, size: float) -> str:
    """Shorten a name that cannot fit its hex (condensed font: about 0.5 em per letter)."""
    most = max(4, int(width / (size * 0.5)))
    return text if len(text) <= most else text[: most - 1] + "."


# --------------------------------------------------------------------------------------------
# A reader's layers
# --------------------------------------------------------------------------------------------


def draw_under(sector: SectorMap, overlay: MapOverlay, frame: Frame) -> Drawing:
    """Shading of what is out of sight, and owner fills of what is in sight."""
    d = Drawing(frame.width, frame.height)
    shaded = [h for h in frame.hexes() if h in overlay.shaded]
    if shaded:
        d.add(Path(tuple((frame.corners(h), True) for h in shaded), fill=SHADE))
    by_owner: dict[str, list[str]] = {}
    for note in overlay.notes:
        if note.owner and note.current and frame.contains(note.hex):
            by_owner.setdefault(note.owner, []).append(note.hex)
    spacing = min(6.0, max(2.4, frame.r * 0.32))
    for owner in overlay.owners:
        hexes = by_owner.get(owner.name)
        if hexes:
            d.add(
                Path(
                    tuple((_inset(frame, h, 0.9), True) for h in sorted(hexes)),
                    fill=owner_hatch(owner, spacing),
                )
            )
    for route in overlay.routes:
        _route_line(d, frame, route)
    return d


def _inset(frame: Frame, hex_: str, k: float) -> tuple[Point, ...]:
    x, y = frame.center(hex_)
    return tuple((x + (px - x) * k, y + (py - y) * k) for px, py in frame.corners(hex_))


def draw_over(sector: SectorMap, overlay: MapOverlay, frame: Frame) -> Drawing:
    """Owner tags, last-seen years, details, routes and battle marks."""
    d = Drawing(frame.width, frame.height)
    r = frame.r
    detailed = frame.detailed
    owners = {o.name: o for o in overlay.owners}
    for note in overlay.notes:
        if frame.contains(note.hex):
            _note(d, frame, note, owners.get(note.owner), detailed)
    for route in overlay.routes:
        _route_head(d, frame, route)
    for hex_ in overlay.battles:
        if frame.contains(hex_):
            # A bold ring round the whole system: clear in black and white, hides no label.
            x, y = frame.center(hex_)
            d.add(Circle(x, y, r * 0.8, stroke=BATTLE, width=max(1.0, r * 0.1)))
    for hex_, text in overlay.marks:
        if frame.contains(hex_):
            x, y = frame.center(hex_)
            d.add(Text(x, y + r * 0.82, text, max(2.6, r * 0.2), bold=True, color=BATTLE, box=True))
    return d


def _note(d: Drawing, frame: Frame, note: HexNote, owner: MapOwner | None, detailed: bool) -> None:
    r = frame.r
    x, y = frame.center(note.hex)
    dot_y = y - r * (0.08 if detailed else -0.06)
    if note.code:
        # The class has changed since the map was printed: the current one beside the printed.
        code_y = y - r * (0.28 if detailed else 0.2)
        size = r * (0.24 if detailed else 0.3)
        d.add(
            Text(
                x + r * 0.16,
                code_y,
                f"→{note.code}",
                size,
                anchor="start",
                bold=True,
                color=BATTLE,
                box=True,
            )
        )
    tag_size = max(2.6, r * (0.2 if detailed else 0.26))
    if owner is not None:
        tag = owner.tag if note.current else owner.tag + "?"
        _, ink, _ = owner_style(owner.style)
        d.add(
            Text(
                x + r * 0.22,
                dot_y + tag_size * 0.35,
                tag,
                tag_size,
                anchor="start",
                bold=True,
                italic=not note.current,
                color=ink if note.current else SOFT,
                box=True,
            )
        )
    if not note.current and note.seen_year:
        size = max(2.4, r * (0.17 if detailed else 0.22))
        if detailed:
            d.add(Text(x, y + r * 0.4, f"seen {note.seen_year}", size, italic=True, color=SOFT))
        else:
            d.add(
                Text(
                    x - r * 0.22,
                    dot_y + size * 0.35,
                    str(note.seen_year),
                    size,
                    anchor="end",
                    italic=True,
                    color=SOFT,
                )
            )
    if detailed and note.lines:
        size = max(4.0, r * 0.15)
        y0 = y + r * (0.42 if note.current else 0.58)
        for i, line in enumerate(note.lines[:3]):
            d.add(
                Text(
                    x,
                    y0 + i * size * 1.15,
                    _fit(line, 1.6 * r, size),
                    size,
                    color=INK if note.current else SOFT,
                )
            )


def _route_geometry(frame: Frame, route: Route) -> tuple[Point, Point, float, float] | None:
    """Start and tip of a route's arrow (clear of the two worlds) and its direction."""
    if not (frame.contains(route.origin) or frame.contains(route.destination)):
        return None
    r = frame.r
    (ax, ay), (bx, by) = frame.center(route.origin), frame.center(route.destination)
    length = math.hypot(bx - ax, by - ay)
    if length < 1e-6:
        return None
    ux, uy = (bx - ax) / length, (by - ay) / length
    start = (ax + ux * r * 0.35, ay + uy * r * 0.35)
    tip = (bx - ux * r * 0.35, by - uy * r * 0.35)
    return start, tip, ux, uy


def clip_segment(
    a: Point, b: Point, box: tuple[float, float, float, float]
) -> tuple[Point, Point] | None:
    """The part of segment a-b inside the box (Liang-Barsky), or None: a route to a hex off
    a subsector page is drawn up to the page's edge, never across the legend."""
    x0, y0, x1, y1 = box
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (a[0] + t0 * dx, a[1] + t0 * dy), (a[0] + t1 * dx, a[1] + t1 * dy)


ROUTE = "#1a1a1a"


def _route_line(d: Drawing, frame: Frame, route: Route) -> None:
    """The shaft of a route, drawn under the printed map so names stay readable across it."""
    geometry = _route_geometry(frame, route)
    if geometry is None:
        return
    visible = clip_segment(geometry[0], geometry[1], frame.bounds)
    if visible is None:
        return
    width = max(0.8, frame.r * 0.07)
    dash = (width * 2, width * 2) if route.probe else ()
    d.add(Path(((visible, False),), stroke=ROUTE, width=width, dash=dash))


def _route_head(d: Drawing, frame: Frame, route: Route) -> None:
    """The arrowhead and the label (arrival year) when the destination is on the page, on
    top, beside the middle of the part of the shaft that is on the page."""
    geometry = _route_geometry(frame, route)
    if geometry is None:
        return
    start, tip, ux, uy = geometry
    visible = clip_segment(start, tip, frame.bounds)
    if visible is None:
        return
    r = frame.r
    if frame.contains(route.destination):
        head = max(2.5, r * 0.28)
        left = (tip[0] - ux * head - uy * head * 0.5, tip[1] - uy * head + ux * head * 0.5)
        right = (tip[0] - ux * head + uy * head * 0.5, tip[1] - uy * head - ux * head * 0.5)
        d.add(Path((((tip, left, right), True),), fill=ROUTE))
    # A route leaving the page is labelled on the page of its destination (and on the sector
    # map), not here, where all of a homeworld's departures would pile up at its edge.
    if route.label and frame.contains(route.destination):
        size = max(2.8, r * (0.2 if frame.detailed else 0.26))
        # Halfway, pushed off the shaft to its upper side.
        nx, ny = uy, -ux
        if ny > 0:
            nx, ny = -nx, -ny
        (sx, sy), (tx, ty) = visible
        mx = (sx + tx) / 2 + nx * size * 0.9
        my = (sy + ty) / 2 + ny * size * 0.9 + size * 0.35
        d.add(Text(mx, my, route.label, size, bold=True, halo=True))


def subsector_frame(sector: SectorMap, letter: str, width: float, height: float) -> Frame:
    col0, row0, cols, rows = sector.subsector_bounds(letter)
    return Frame.fit(col0, row0, cols, rows, width, height)


def sector_frame(sector: SectorMap, width: float, height: float) -> Frame:
    return Frame.fit(1, 1, sector.cols, sector.rows, width, height)


# --------------------------------------------------------------------------------------------
# The legend (shared: the player list is public)
# --------------------------------------------------------------------------------------------

LEGEND_ROW = 13.0
LEGEND_TEXT = 7.0


def _label_width(text: str, size: float, bold: bool = False) -> float:
    """Estimated advance of a label in the condensed map font (both backends use the same
    estimate, so the legend is laid out identically)."""
    return len(text) * size * (0.55 if bold else 0.5)


def legend_items(owners: tuple[MapOwner, ...]) -> list[tuple[str, str]]:
    """(kind, label) of each legend entry, owners first."""
    items = [
        ("owner:" + o.name, o.name if o.tag == o.name else f"{o.tag} = {o.name}") for o in owners
    ]
    items += [
        ("naval", "naval base"),
        ("scout", "scout base"),
        ("world", "world (class letter above, HiPop name in CAPITALS)"),
        ("battle", "battle this turn"),
        ("route", "fleet in hyperspace (arrival year)"),
        ("probe", "probe in flight"),
        ("changed", "class changed since the map was printed"),
    ]
    items.append(("shaded", "shaded: out of sight (year last seen, ? = owner then)"))
    return items


def _legend_rows(items: list[tuple[str, str]], width: float) -> list[list[tuple[str, str, float]]]:
    rows: list[list[tuple[str, str, float]]] = [[]]
    x = 0.0
    for kind, label in items:
        w = 22 + _label_width(label, LEGEND_TEXT, kind.startswith("owner:")) + 10
        if x + w > width and rows[-1]:
            rows.append([])
            x = 0.0
        rows[-1].append((kind, label, w))
        x += w
    return rows


def legend_height(owners: tuple[MapOwner, ...], width: float) -> float:
    return len(_legend_rows(legend_items(owners), width)) * LEGEND_ROW + 4


def draw_legend(owners: tuple[MapOwner, ...], top: float, width: float, into: Drawing) -> None:
    """The legend below a map: owner swatches with their tags, then the symbols."""
    by_name = {o.name: o for o in owners}
    y = top + 4
    for row in _legend_rows(legend_items(owners), width):
        x = 0.0
        for kind, label, w in row:
            cy = y + LEGEND_ROW / 2
            _swatch(into, kind, x, cy, by_name)
            into.add(
                Text(
                    x + 22,
                    cy + LEGEND_TEXT * 0.35,
                    label,
                    LEGEND_TEXT,
                    anchor="start",
                    bold=kind.startswith("owner:"),
                    color=INK,
                )
            )
            x += w
        y += LEGEND_ROW


def _swatch(d: Drawing, kind: str, x: float, cy: float, owners: dict[str, MapOwner]) -> None:
    box = (((x + 1, cy - 5), (x + 19, cy - 5), (x + 19, cy + 5), (x + 1, cy + 5)), True)
    if kind.startswith("owner:"):
        d.add(Path((box,), fill=owner_hatch(owners[kind[6:]], 3.2), stroke=SOFT, width=0.4))
    elif kind == "naval":
        d.add(Path(((star(x + 10, cy, 5), True),), fill=INK))
    elif kind == "scout":
        d.add(Path(((triangle(x + 10, cy + 1, 4.5), True),), fill=INK))
    elif kind == "world":
        d.add(Circle(x + 10, cy, 2.2, fill=INK))
    elif kind == "battle":
        d.add(Circle(x + 10, cy, 2.0, fill=INK))
        d.add(Circle(x + 10, cy, 5.0, stroke=BATTLE, width=1.4))
    elif kind in ("route", "probe"):
        dash = (2.0, 2.0) if kind == "probe" else ()
        d.add(Path(((((x + 1, cy), (x + 15, cy)), False),), stroke="#1a1a1a", width=1, dash=dash))
        d.add(
            Path(((((x + 19, cy), (x + 14, cy - 2.5), (x + 14, cy + 2.5)), True),), fill="#1a1a1a")
        )
    elif kind == "changed":
        d.add(Text(x + 10, cy + 2.8, "→C", 8, bold=True, color=BATTLE))
    elif kind == "shaded":
        d.add(Path((box,), fill=SHADE, stroke=SOFT, width=0.4))
        d.add(Text(x + 10, cy + 2.2, "5004", 6, italic=True, color=SOFT))


@dataclass(frozen=True)
class PageLayout:
    """A map box split into the map frame and the legend band below it."""

    frame: Frame
    legend_top: float


def page_layout(
    sector: SectorMap, key: str, owners: tuple[MapOwner, ...], width: float, height: float
) -> PageLayout:
    band = legend_height(owners, width)
    map_h = max(height - band, height * 0.5)
    if key == "sector":
        frame = sector_frame(sector, width, map_h)
    else:
        frame = subsector_frame(sector, key.removeprefix("subsector-"), width, map_h)
    frame = Frame(
        frame.col0, frame.row0, frame.cols, frame.rows, width, height, frame.r, frame.ox, frame.oy
    )
    return PageLayout(frame, map_h)


def draw_base_page(
    sector: SectorMap, key: str, owners: tuple[MapOwner, ...], width: float, height: float
) -> Drawing:
    """The shared layer of a map page: the printed map and the legend (the same for every
    reader: the player list is public, and the legend explains the players' shading too)."""
    layout_ = page_layout(sector, key, owners, width, height)
    d = draw_base(sector, layout_.frame)
    draw_legend(owners, layout_.legend_top, width, d)
    return d
