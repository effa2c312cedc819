"""Drawing a `HexBoard` (terrain hexes, hexsides, roads, places and counters) as SVG.

A board has a few hundred hexes at most, so like the node-and-link maps it is inline SVG that
WeasyPrint renders in the report's own pass: no stamping, and the map's text (hex numbers,
place names, unit ids) stays real text in the PDF.

The board must read in black-and-white print: each terrain carries a printed mark, rivers are
heavier than borders and borders dashed, each side's counters have its tint and its tag, and a
disrupted counter is struck through.  Counters are NATO-style: the size over the box, the
type symbol in it, the strength under it.  Names come from scenario files and so every text is
XML-escaped; nothing in the SVG refers to anything outside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from refassist.drawings.boardmap import BoardCounter, BoardPlace, HexBoard
from refassist.drawings.mapdraw import BATTLE, INK, OWNER_STYLES
from refassist.geometry.hexmap import col_row

#: Drawing box in SVG units (4 a millimetre): the width of an A4 page inside its margins; the
#: height follows the board, up to a page.
WIDTH = 760.0
MAX_HEIGHT = 860.0
MARGIN = 14.0
FONT = "'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif"
RIVER = "#1f6fb5"
ROAD = "#7a4a1d"
GRID = "#8c8c8c"
ROOT3 = math.sqrt(3.0)
#: Counters drawn in one hex, side by side two to a row so that none hides another (a
#: disrupted unit under a fresh one is seen); more are counted on a badge.
MAX_STACK = 4
#: A counter's size in hex radii: two side by side fit a hex's middle; its words are at
#: least `TEXT` radii high, 6 points printed when a 12-column board fills an A4 page's width.
COUNTER_W, COUNTER_H, TEXT = 0.8, 0.74, 0.22


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _e(text: object) -> str:
    return escape(str(text), quote=True)


@dataclass(frozen=True)
class _Frame:
    """Hex ids to SVG units: the radius of a hex and the drawing's size."""

    r: float
    width: float
    height: float

    @classmethod
    def fit(cls, cols: int, rows: int) -> _Frame:
        across = 1.5 * (cols - 1) + 2.0
        down = ROOT3 * (rows + (0.5 if cols > 1 else 0.0))
        r = min((WIDTH - 2 * MARGIN) / across, (MAX_HEIGHT - 2 * MARGIN) / down)
        return cls(r, WIDTH, down * r + 2 * MARGIN)

    def centre(self, hex_: str) -> tuple[float, float]:
        col, row = col_row(hex_)
        x = MARGIN + self.r + 1.5 * self.r * (col - 1)
        y = MARGIN + ROOT3 * self.r * (row - 0.5) + (ROOT3 * self.r / 2 if col % 2 == 0 else 0)
        return x, y

    def corners(self, x: float, y: float) -> str:
        r = self.r
        return " ".join(
            f"{_n(x + r * math.cos(math.radians(a)))},{_n(y + r * math.sin(math.radians(a)))}"
            for a in range(0, 360, 60)
        )

    def hexside(self, a: str, b: str) -> tuple[float, float, float, float]:
        (x1, y1), (x2, y2) = self.centre(a), self.centre(b)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        px, py = -(y2 - y1) / length, (x2 - x1) / length
        half = self.r / 2
        return mx - px * half, my - py * half, mx + px * half, my + py * half


def board_svg(board: HexBoard) -> str:
    """The whole board as one ``<svg>`` element."""
    frame = _Frame.fit(board.cols, board.rows)
    r = frame.r
    fills = {t.key: t for t in board.terrains}
    default = board.terrains[0] if board.terrains else None
    body: list[str] = []
    for col in range(1, board.cols + 1):
        for row in range(1, board.rows + 1):
            hex_ = f"{col:02d}{row:02d}"
            x, y = frame.centre(hex_)
            terrain = fills.get(board.terrain.get(hex_, ""), default)
            fill = _e(terrain.fill) if terrain else "#ffffff"
            body.append(
                f'<polygon points="{frame.corners(x, y)}" fill="{fill}" stroke="{GRID}" '
                f'stroke-width="0.8"/>'
                f'<text x="{_n(x)}" y="{_n(y - 0.66 * r)}" font-size="{_n(0.2 * r)}" '
                f'text-anchor="middle" fill="#555">{hex_}</text>'
            )
            if terrain and terrain.mark:
                body.append(
                    f'<text x="{_n(x - 0.62 * r)}" y="{_n(y + 0.5 * r)}" '
                    f'font-size="{_n(0.24 * r)}" fill="#444" text-anchor="middle">'
                    f"{_e(terrain.mark)}</text>"
                )
    for hex_, sides in sorted(board.zones.items()):
        body.append(_zones(board, sides, frame, hex_))
    for edge in board.edges:
        x1, y1, x2, y2 = frame.hexside(edge.a, edge.b)
        style = (
            f'stroke="{RIVER}" stroke-width="{_n(0.16 * r)}" stroke-linecap="round"'
            if edge.kind == "river"
            else f'stroke="{INK}" stroke-width="{_n(0.07 * r)}" stroke-dasharray="5 3"'
        )
        body.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" {style}/>')
    for road in board.roads:
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in map(frame.centre, road))
        body.append(
            f'<polyline points="{points}" fill="none" stroke="{ROAD}" '
            f'stroke-width="{_n(0.09 * r)}" stroke-linejoin="round"/>'
        )
    for place in board.places:
        body.append(_place(place, frame.centre(place.hex), r))
    stacks: dict[str, list[BoardCounter]] = {}
    for counter in board.counters:
        stacks.setdefault(counter.hex, []).append(counter)
    for hex_, stack in stacks.items():
        body.append(_stack(board, stack, frame.centre(hex_), r))
    for hex_ in board.battles:
        x, y = frame.centre(hex_)
        body.append(_burst(x + 0.84 * r, y - 0.05 * r, 0.15 * r))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="190mm" '
        f'height="{_n(frame.height / 4)}mm" viewBox="0 0 {_n(frame.width)} '
        f'{_n(frame.height)}" font-family="{_e(FONT)}">{"".join(body)}</svg>'
    )


def _zones(board: HexBoard, sides: Sequence[str], frame: _Frame, hex_: str) -> str:
    """The bands of the zones of control over ``hex_``: a dashed hexagon inside its edge in
    each side's ink, the first side's outermost (so two zones over a hex both show)."""
    x, y = frame.centre(hex_)
    out = []
    for n, name in enumerate(sides):
        side = board.side(name)
        _, ink, _ = OWNER_STYLES[(side.style if side else 8) % len(OWNER_STYLES)]
        corners = _Frame(frame.r * (0.9 - 0.09 * n), 0.0, 0.0).corners(x, y)
        out.append(
            f'<polygon points="{corners}" fill="none" stroke="{ink}" '
            f'stroke-width="{_n(0.05 * frame.r)}" stroke-dasharray="4 2"/>'
        )
    return "".join(out)


def _place(place: BoardPlace, at: tuple[float, float], r: float) -> str:
    x, y = at
    # The mark in the hex's upper left, clear of the counters in its middle.
    sx, y = x - 0.5 * r, y - 0.55 * r
    s = 0.1 * r
    if place.kind == "city":
        mark = f'<rect x="{_n(sx - s)}" y="{_n(y - s)}" width="{_n(2 * s)}" height="{_n(2 * s)}" '
        mark += f'fill="{INK}"/>'
    elif place.kind == "town":
        mark = f'<circle cx="{_n(sx)}" cy="{_n(y)}" r="{_n(s)}" fill="{INK}"/>'
    else:
        mark = (
            f'<polygon points="{_n(sx)},{_n(y - s * 1.2)} {_n(sx + s * 1.1)},{_n(y + s)} '
            f'{_n(sx - s * 1.1)},{_n(y + s)}" fill="#ffffff" stroke="{INK}" stroke-width="1"/>'
        )
    weight = "bold" if place.kind == "city" else "normal"
    out = [
        mark,
        f'<text x="{_n(x)}" y="{_n(at[1] + 0.8 * r)}" font-size="{_n(TEXT * r)}" '
        f'font-weight="{weight}" text-anchor="middle" fill="{INK}">{_e(place.name)}</text>',
    ]
    if place.points:
        out.append(_star(x + 0.5 * r, y, 0.16 * r))
        out.append(
            f'<text x="{_n(x + 0.5 * r)}" y="{_n(y + 0.07 * r)}" font-size="{_n(0.18 * r)}" '
            f'font-weight="bold" text-anchor="middle" fill="{INK}">{place.points}</text>'
        )
    return "".join(out)


def _star(x: float, y: float, r: float, text: str = "") -> str:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.radians(-90 + 36 * i)
        points.append(f"{_n(x + radius * math.cos(angle))},{_n(y + radius * math.sin(angle))}")
    out = f'<polygon points="{" ".join(points)}" fill="#ffd84d" stroke="{INK}" stroke-width="0.8"/>'
    if text:
        out += (
            f'<text x="{_n(x)}" y="{_n(y + r * 1.6)}" font-size="{_n(r * 0.9)}" '
            f'font-weight="bold" text-anchor="middle" fill="{INK}">{_e(text)}</text>'
        )
    return out


def _burst(x: float, y: float, r: float) -> str:
    points = []
    for i in range(16):
        radius = r if i % 2 == 0 else r * 0.5
        angle = math.radians(22.5 * i)
        points.append(f"{_n(x + radius * math.cos(angle))},{_n(y + radius * math.sin(angle))}")
    return (
        f'<polygon points="{" ".join(points)}" fill="#ffffff" stroke="{BATTLE}" '
        'stroke-width="1.6"/>'
    )


def stack_boxes(count: int, x: float, y: float, r: float) -> list[tuple[float, float]]:
    """The top-left corners of the counters of a stack of ``count`` (at most `MAX_STACK`) in
    the hex centred at (x, y): one in the middle, two side by side, three or four two to a
    row.  No counter covers another."""
    w, h, gap = COUNTER_W * r, COUNTER_H * r, 0.04 * r
    if count <= 1:
        return [(x - w / 2, y - h / 2)]
    lefts = (x - w - gap / 2, x + gap / 2)
    if count == 2:
        return [(left, y - h / 2) for left in lefts]
    tops = (y - h - gap / 2, y + gap / 2)
    return [(lefts[n % 2], tops[n // 2]) for n in range(min(count, MAX_STACK))]


def _stack(
    board: HexBoard, stack: Sequence[BoardCounter], at: tuple[float, float], r: float
) -> str:
    x, y = at
    w, h = COUNTER_W * r, COUNTER_H * r
    shown = list(stack[:MAX_STACK])
    boxes = stack_boxes(len(shown), x, y, r)
    out = [_counter(board, c, bx, by, w, h, r) for c, (bx, by) in zip(shown, boxes, strict=True)]
    if len(stack) > len(shown):
        bx, by = x + w, y - h
        out.append(
            f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="{_n(0.16 * r)}" fill="{INK}"/>'
            f'<text x="{_n(bx)}" y="{_n(by + 0.08 * r)}" font-size="{_n(TEXT * r)}" '
            f'font-weight="bold" text-anchor="middle" fill="#ffffff">'
            f"+{len(stack) - len(shown)}</text>"
        )
    return "".join(out)


def _fitted(text: str, size: float, width: float) -> float:
    """``size``, or less for a text too long for ``width`` (DejaVu Sans Condensed's letters
    are about 0.56 of the size wide): a long id keeps inside its counter."""
    return min(size, width / max(0.56 * len(text), 1.0))


def _counter(
    board: HexBoard, c: BoardCounter, x: float, y: float, w: float, h: float, r: float
) -> str:
    """A counter: the type symbol and the size mark on its top line, the strength, then
    the id, each at least `TEXT` radii high (shrunk only to keep a long text inside)."""
    side = board.side(c.side)
    tint, ink, _ = OWNER_STYLES[(side.style if side else 8) % len(OWNER_STYLES)]
    size = TEXT * r
    out = [
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(w * 0.06)}" '
        f'fill="{tint}" stroke="{ink}" stroke-width="1.2"/>',
    ]
    bx, by, bw, bh = x + w * 0.06, y + h * 0.06, w * 0.42, h * 0.3
    out.append(
        f'<rect x="{_n(bx)}" y="{_n(by)}" width="{_n(bw)}" height="{_n(bh)}" fill="#ffffff" '
        f'stroke="{INK}" stroke-width="0.9"/>'
    )
    out.append(_symbol(c.symbol, bx, by, bw, bh))
    inner = w * 0.92
    out.append(
        f'<text x="{_n(x + w * 0.68)}" y="{_n(y + h * 0.3)}" '
        f'font-size="{_n(_fitted(c.size, size, w * 0.5))}" font-weight="bold" '
        f'text-anchor="middle" fill="{INK}">{_e(c.size)}</text>'
        f'<text x="{_n(x + w / 2)}" y="{_n(y + h * 0.63)}" '
        f'font-size="{_n(_fitted(c.strength, size * 1.05, inner))}" font-weight="bold" '
        f'text-anchor="middle" fill="{INK}">{_e(c.strength)}</text>'
        f'<text x="{_n(x + w / 2)}" y="{_n(y + h * 0.92)}" '
        f'font-size="{_n(_fitted(c.label, size, inner))}" '
        f'text-anchor="middle" fill="{INK}">{_e(c.label)}</text>'
    )
    if c.spent:
        s = w * 0.16
        out.append(
            f'<polygon points="{_n(x + w - s)},{_n(y)} {_n(x + w)},{_n(y)} {_n(x + w)},'
            f'{_n(y + s)}" fill="{INK}"/>'
        )
    if c.disrupted:
        out.append(
            f'<line x1="{_n(x)}" y1="{_n(y + h)}" x2="{_n(x + w)}" y2="{_n(y)}" '
            f'stroke="{BATTLE}" stroke-width="{_n(w * 0.07)}"/>'
        )
    return "".join(out)


def _symbol(kind: str, x: float, y: float, w: float, h: float) -> str:
    """The NATO-style type symbol inside the box at (x, y, w, h)."""
    line = f'stroke="{INK}" stroke-width="0.9" fill="none"'
    cross = (
        f'<path d="M{_n(x)} {_n(y)}L{_n(x + w)} {_n(y + h)}M{_n(x)} {_n(y + h)}'
        f'L{_n(x + w)} {_n(y)}" {line}/>'
    )
    oval = (
        f'<ellipse cx="{_n(x + w / 2)}" cy="{_n(y + h / 2)}" rx="{_n(w * 0.34)}" '
        f'ry="{_n(h * 0.3)}" {line}/>'
    )

    def wings(base: float) -> str:
        """Two arcs side by side standing on ``base``: a parachute's canopy."""
        xs = [_n(x + w * (0.32 + 0.09 * i)) for i in range(5)]
        top, foot = _n(base - h * 0.3), _n(base)
        return (
            f'<path d="M{xs[0]} {foot}Q{xs[1]} {top} {xs[2]} {foot}Q{xs[3]} {top} {xs[4]} '
            f'{foot}" {line}/>'
        )

    drawn = {
        "infantry": cross,
        "armour": oval,
        "mechanized": cross + oval,
        "cavalry": f'<path d="M{_n(x)} {_n(y + h)}L{_n(x + w)} {_n(y)}" {line}/>',
        "airborne": cross + wings(y + h),
        "air assault": cross + wings(y + h * 0.35),
    }
    if kind in drawn:
        return drawn[kind]
    short = {
        "marine": "MAR",
        "special forces": "SF",
        "headquarters": "HQ",
        "information": "IW",
        "political": "PN",
        "naval": "TF",
        "militia": "MIL",
    }.get(kind, kind[:3].upper())
    return (
        f'<text x="{_n(x + w / 2)}" y="{_n(y + h * 0.82)}" font-size="{_n(h * 0.8)}" '
        f'font-weight="bold" text-anchor="middle" fill="{INK}">{_e(short)}</text>'
    )


_SWATCH = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="7mm" height="6mm" viewBox="0 0 28 24" '
    f'font-family="{_e(FONT)}">'
)
_BOX = f'<rect x="4" y="2" width="20" height="20" fill="#fff" stroke="{INK}"/>'


def _line(colour: str, width: float, dash: str = "") -> str:
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<line x1="2" y1="12" x2="26" y2="12" stroke="{colour}" stroke-width="{_n(width)}"'
        f"{dashed}/>"
    )


def legend(board: HexBoard) -> list[dict[str, str]]:
    """The legend: a small SVG swatch and a label (escaped by the template) for each terrain
    the board uses, each side, and each kind of mark present."""
    every = (f"{c:02d}{r:02d}" for c in range(1, board.cols + 1) for r in range(1, board.rows + 1))
    first = board.terrains[0].key if board.terrains else ""
    used = {board.terrain.get(h, first) for h in every}
    hexagon = " ".join(
        f"{_n(14 + 11 * math.cos(math.radians(a)))},{_n(12 + 11 * math.sin(math.radians(a)))}"
        for a in range(0, 360, 60)
    )
    shown: list[tuple[str, str]] = []
    for terrain in board.terrains:
        if terrain.key not in used:
            continue
        mark = (
            f'<text x="14" y="16" font-size="9" text-anchor="middle" fill="#444">'
            f"{_e(terrain.mark)}</text>"
            if terrain.mark
            else ""
        )
        shown.append(
            (
                f'<polygon points="{hexagon}" fill="{_e(terrain.fill)}" stroke="{GRID}"/>{mark}',
                terrain.label,
            )
        )
    for side in board.sides:
        tint, ink, _ = OWNER_STYLES[side.style % len(OWNER_STYLES)]
        box = f'<rect x="4" y="2" width="20" height="20" fill="{tint}" stroke="{ink}"/>'
        shown.append((box, f"{side.name} ({side.tag})"))
    kinds = {p.kind for p in board.places}
    marks: list[tuple[bool, str, str]] = [
        ("city" in kinds, f'<rect x="10" y="8" width="8" height="8" fill="{INK}"/>', "city"),
        ("town" in kinds, f'<circle cx="14" cy="12" r="4" fill="{INK}"/>', "town"),
        (
            bool(kinds - {"city", "town", "objective"}),
            f'<polygon points="14,6 19,17 9,17" fill="#fff" stroke="{INK}"/>',
            "facility",
        ),
        (any(p.points for p in board.places), _star(14, 11, 9), "objective (its points)"),
        (any(e.kind == "river" for e in board.edges), _line(RIVER, 4), "river (hexside)"),
        (any(e.kind != "river" for e in board.edges), _line(INK, 2, "5 3"), "border (hexside)"),
        (bool(board.roads), _line(ROAD, 3), "road (line of communication)"),
        (
            any(c.disrupted for c in board.counters),
            _BOX + f'<line x1="4" y1="22" x2="24" y2="2" stroke="{BATTLE}" stroke-width="2"/>',
            "disrupted",
        ),
        (
            any(c.spent for c in board.counters),
            _BOX + f'<polygon points="18,2 24,2 24,8" fill="{INK}"/>',
            "has acted this turn",
        ),
        (bool(board.battles), _burst(14, 12, 10), "combat this exchange"),
    ]
    for side in board.sides:
        if any(side.name in sides for sides in board.zones.values()):
            _, ink, _ = OWNER_STYLES[side.style % len(OWNER_STYLES)]
            band = (
                f'<polygon points="{hexagon}" fill="none" stroke="{ink}" stroke-width="2" '
                'stroke-dasharray="4 2"/>'
            )
            marks.append((True, band, f"zone of control of {side.name}"))
    shown += [(svg, label) for present, svg, label in marks if present]
    return [{"svg": _SWATCH + svg + "</svg>", "label": label} for svg, label in shown]


def board_pages(board: HexBoard | None) -> list[dict[str, object]]:
    """What the report templates lay out for a hex board: one page with its legend
    (``templates/base/boardmap.html``); empty when the ruleset gave no board."""
    if board is None:
        return []
    return [
        {
            "title": board.title,
            "subtitle": board.subtitle,
            "svg": board_svg(board),
            "legend": legend(board),
            "notes": list(board.notes),
        }
    ]


__all__ = ["board_pages", "board_svg", "legend"]
