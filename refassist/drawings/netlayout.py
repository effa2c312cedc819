"""Where the labels of a node-and-link map go, so that none covers another.

A place's label block (its name, then its marks and lines: the ships there, on a referee's
map a dozen of them) hung under the place whatever was there, so a crowded corner of the map
printed ship lists over the neighbours' names ("Lysse 0407" cut to "407"), and the battle
mark of one place sat on the label of the next.  Here every block is measured in the font
the drawing uses (cairo's metrics of DejaVu Sans Condensed) and tried at positions around its
place (under it first, then above, beside, at the corners); the first that stays on the page
and clear of every other label, place symbol, battle mark and grid number wins, and one that
crosses no link is preferred.  When no position fits, the block is shortened, its last lines
summed up as "+ N more", until one does.

`layout` is what `netdraw.network_svg` draws, and what the tests measure.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cairocffi as cairo

from refassist.drawings.mapdraw import clip_segment
from refassist.drawings.netmap import NetNode

#: The measuring font: the first family the drawing names (`netdraw.FONT`).
MEASURE_FAMILY = "DejaVu Sans Condensed"
#: Font sizes and line spacing of a label block: the name, then its other lines.
NAME_SIZE = 12.5
LINE_SIZE = 10.0
LINE_STEP = 11.5
#: Ascent and descent of DejaVu, as fractions of the font size.
ASCENT = 0.77
DESCENT = 0.24
#: Room left around a block, and between a place's symbol and its block.
PAD = 1.5
GAP = 3.0
#: Radius of the battle mark, drawn at the upper right of its place.
STAR_R = 9.0
#: What crossing a link costs a position (preferences are worth 1 each): a label over a jump
#: line is legible (it has a light background) but worse than one beside it.
CROSSING_COST = 6.0


@dataclass(frozen=True)
class Box:
    """A rectangle in drawing units: left, top, right, bottom."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box) -> bool:
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def meets_circle(self, x: float, y: float, r: float) -> bool:
        """Whether the box reaches into the circle at (x, y) of radius ``r``."""
        nx, ny = min(max(x, self.x0), self.x1), min(max(y, self.y0), self.y1)
        return (nx - x) ** 2 + (ny - y) ** 2 < r * r

    def inside(self, width: float, height: float) -> bool:
        return self.x0 >= 0 and self.y0 >= 0 and self.x1 <= width and self.y1 <= height

    def crosses(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether the segment a-b passes through the box (the sector map's route clipping)."""
        return clip_segment(a, b, (self.x0, self.y0, self.x1, self.y1)) is not None


@dataclass(frozen=True)
class LabelLine:
    """One line of a label block: its text and colour; the first is the place's name."""

    text: str
    colour: str
    name: bool = False


@dataclass(frozen=True)
class PlacedLabel:
    """A label block where it is drawn: its lines, the x of their anchor (``start``,
    ``middle`` or ``end``), each line's baseline, and the box it covers."""

    code: str
    lines: tuple[LabelLine, ...]
    anchor: str
    x: float
    baselines: tuple[float, ...]
    box: Box
    #: Lines left out to make it fit (summed up in its last line).
    dropped: int = 0


@dataclass(frozen=True)
class MapLayout:
    """Every label and battle mark of a map, and what they were kept clear of."""

    labels: dict[str, PlacedLabel]
    stars: dict[str, tuple[float, float]]
    #: Each place's symbol as a circle: x, y and the radius it reaches.
    symbols: dict[str, tuple[float, float, float]]
    #: Fixed things labels keep clear of besides symbols and stars: grid numbers, link labels.
    fixed: tuple[Box, ...]


@functools.lru_cache(maxsize=1)
def _context() -> cairo.Context:
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 1, 1)
    ctx = cairo.Context(surface)
    options = cairo.FontOptions()
    options.set_hint_metrics(cairo.HINT_METRICS_OFF)
    options.set_hint_style(cairo.HINT_STYLE_NONE)
    ctx.set_font_options(options)
    return ctx


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """The advance of ``text`` at ``size`` in the drawing's font."""
    ctx = _context()
    weight = cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL
    ctx.select_font_face(MEASURE_FAMILY, cairo.FONT_SLANT_NORMAL, weight)
    ctx.set_font_size(size)
    return float(ctx.text_extents(text)[4])


def _size(line: LabelLine) -> float:
    return NAME_SIZE if line.name else LINE_SIZE


def block_size(lines: Sequence[LabelLine]) -> tuple[float, float]:
    """Width and height of a label block, padding included."""
    width = max(text_width(line.text, _size(line), line.name) for line in lines)
    height = ASCENT * _size(lines[0]) + LINE_STEP * (len(lines) - 1) + DESCENT * _size(lines[-1])
    return width + 2 * PAD, height + 2 * PAD


def star_centre(x: float, y: float, r: float) -> tuple[float, float]:
    """Where a place's battle mark is drawn: touching its symbol at the upper right."""
    return x + r + 2, y - r - 2


def star_box(centre: tuple[float, float]) -> Box:
    cx, cy = centre
    return Box(cx - STAR_R, cy - STAR_R, cx + STAR_R, cy + STAR_R)


def _candidates(
    x: float, y: float, r: float, width: float, height: float
) -> list[tuple[str, float, float]]:
    """Positions for a block around a place of radius ``r``, best first: (anchor, x of the
    anchor, top of the block)."""
    below, above = y + r + GAP, y - r - GAP - height
    right, left = x + r + GAP, x - r - GAP
    corner = r * 0.7
    near = [
        ("middle", x, below),
        ("middle", x, above),
        ("start", right, y - height / 2),
        ("end", left, y - height / 2),
        ("start", x + corner, y + corner + GAP),
        ("end", x - corner, y + corner + GAP),
        ("start", right, y - r),
        ("end", left, y - r),
        ("start", x + corner, y - corner - GAP - height),
        ("end", x - corner, y - corner - GAP - height),
        ("start", right, y + r - height),
        ("end", left, y + r - height),
        ("start", x - width / 4, below),
        ("end", x + width / 4, below),
        ("start", x - width / 4, above),
        ("end", x + width / 4, above),
    ]
    # Then a little further out, still plainly the place's own (a line's height away).
    far = [(a, ax, top + (LINE_STEP if top > y else -LINE_STEP)) for a, ax, top in near[:2]]
    far += [(a, ax + (LINE_STEP if a == "start" else -LINE_STEP), top) for a, ax, top in near[2:4]]
    return near + far


def _box(anchor: str, ax: float, top: float, width: float, height: float) -> Box:
    left = {"start": ax - PAD, "middle": ax - width / 2, "end": ax - width + PAD}[anchor]
    return Box(left, top, left + width, top + height)


def _shortened(lines: list[LabelLine], keep: int, colour: str) -> list[LabelLine]:
    """The name and ``keep`` of its other lines, the rest summed up as "+ N more"."""
    rest = len(lines) - 1 - keep
    if rest <= 0:
        return lines
    return [*lines[: keep + 1], LabelLine(f"+ {rest} more", colour)]


def place_labels(
    blocks: dict[str, list[LabelLine]],
    points: dict[str, tuple[float, float, float]],
    obstacles: Sequence[Box],
    circles: Sequence[tuple[float, float, float]],
    segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
    page: tuple[float, float],
    colours: dict[str, str],
) -> dict[str, PlacedLabel]:
    """A position for every block (``points``: each place's x, y and symbol radius), clear of
    the ``obstacles`` and ``circles`` (the places' symbols, with a margin), of each other and
    of the page's edge, preferring those that cross no segment; the most crowded blocks are
    placed first."""
    order = sorted(blocks, key=lambda code: (-len(blocks[code]), points[code][1], code))
    placed: dict[str, PlacedLabel] = {}
    for _ in range(ROUNDS):
        placed, failed = _place_in_order(
            order, blocks, points, obstacles, circles, segments, page, colours
        )
        if not failed:
            break
        # Those that found no room go first next time: a crowded list gives way to them.
        order = failed + [code for code in order if code not in failed]
    return placed


#: How many times the labels are placed again, those that found no room first.
ROUNDS = 6


def _place_in_order(
    order: Sequence[str],
    blocks: dict[str, list[LabelLine]],
    points: dict[str, tuple[float, float, float]],
    obstacles: Sequence[Box],
    circles: Sequence[tuple[float, float, float]],
    segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
    page: tuple[float, float],
    colours: dict[str, str],
) -> tuple[dict[str, PlacedLabel], list[str]]:
    """One greedy pass in ``order``: the labels, and those that found no clear position (put
    where they meet the least)."""
    placed: dict[str, PlacedLabel] = {}
    failed: list[str] = []
    taken: list[Box] = list(obstacles)
    for code in order:
        x, y, r = points[code]
        full = blocks[code]
        choice: PlacedLabel | None = None
        fallback: tuple[float, PlacedLabel] | None = None
        for keep in range(len(full) - 1, -1, -1):
            lines = _shortened(full, keep, colours[code])
            width, height = block_size(lines)
            best: tuple[float, PlacedLabel] | None = None
            for rank, (anchor, ax, top) in enumerate(_candidates(x, y, r, width, height)):
                box = _box(anchor, ax, top, width, height)
                first = top + PAD + ASCENT * _size(lines[0])
                label = PlacedLabel(
                    code,
                    tuple(lines),
                    anchor,
                    ax,
                    tuple(first + LINE_STEP * i for i in range(len(lines))),
                    box,
                    0 if lines is full else len(full) - 1 - keep,
                )
                clash = sum(
                    (min(box.x1, o.x1) - max(box.x0, o.x0))
                    * (min(box.y1, o.y1) - max(box.y0, o.y0))
                    for o in taken
                    if box.overlaps(o)
                )
                clash += sum(1e3 for cx, cy, cr in circles if box.meets_circle(cx, cy, cr))
                if not box.inside(*page):
                    clash += 1e6
                if clash:
                    if fallback is None or clash < fallback[0]:
                        fallback = (clash, label)
                    continue
                cost = rank + CROSSING_COST * sum(1 for a, b in segments if box.crosses(a, b))
                if best is None or cost < best[0]:
                    best = (cost, label)
            if best is not None:
                choice = best[1]
                break
        if choice is None:
            assert fallback is not None
            choice = fallback[1]
            failed.append(code)
        placed[code] = choice
        taken.append(choice.box)
    return placed, failed


def node_radius(node: NetNode, base: float) -> float:
    """The radius a place's symbol reaches: a home's outer ring, a small open-space diamond."""
    if node.kind == "open":
        return base * 0.7
    return base + 4 if node.kind == "home" else base


__all__ = [
    "Box",
    "LabelLine",
    "MapLayout",
    "PlacedLabel",
    "block_size",
    "node_radius",
    "place_labels",
    "star_box",
    "star_centre",
    "text_width",
]
