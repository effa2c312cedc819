"""Drawing display lists straight to PDF with cairo: the fast path for map pages.

WeasyPrint lays out an SVG map node by node in Python (a 32 x 40 sector with its labels takes
about 4 s on a 2-core machine); cairo draws the same primitives in C in a few tens of
milliseconds, embeds a subset of the DejaVu font with a ToUnicode map (so the hex ids and
names stay searchable and extractable) and writes a PDF page per drawing, which
`refassist.typeset.stamp` then places on the report's pages.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import cairocffi as cairo

from refassist.drawings.drawing import MAP_FONT, Circle, Drawing, Hatch, Path, Text, parse_color

#: A bounding box: x1, y1, x2, y2.
Box = tuple[float, float, float, float]


def drawings_to_pdf(pages: Sequence[Drawing]) -> bytes:
    """One PDF page per drawing, each the drawing's size."""
    if not pages:
        raise ValueError("no drawings to write")
    out = io.BytesIO()
    surface = cairo.PDFSurface(out, pages[0].width, pages[0].height)
    try:
        for i, drawing in enumerate(pages):
            if i:
                surface.set_size(drawing.width, drawing.height)
            ctx = cairo.Context(surface)
            draw(ctx, drawing)
            ctx.show_page()
    finally:
        surface.finish()
    return out.getvalue()


def draw(ctx: cairo.Context, drawing: Drawing) -> None:
    """Draw every primitive of a drawing on a cairo context, in order."""
    ctx.set_line_join(cairo.LINE_JOIN_ROUND)
    ctx.set_line_cap(cairo.LINE_CAP_ROUND)
    fonts: dict[tuple[bool, bool], cairo.FontFace] = {}
    for item in drawing.items:
        if isinstance(item, Path):
            _path(ctx, item)
        elif isinstance(item, Text):
            _text(ctx, item, fonts)
        elif isinstance(item, Circle):
            _circle(ctx, item)


def _set_color(ctx: cairo.Context, color: str, opacity: float = 1.0) -> None:
    r, g, b = parse_color(color)
    if opacity < 1.0:
        ctx.set_source_rgba(r, g, b, opacity)
    else:
        ctx.set_source_rgb(r, g, b)


def _trace(ctx: cairo.Context, item: Path) -> None:
    ctx.new_path()
    for points, closed in item.subpaths:
        x, y = points[0]
        ctx.move_to(x, y)
        for x, y in points[1:]:
            ctx.line_to(x, y)
        if closed:
            ctx.close_path()


def _path(ctx: cairo.Context, item: Path) -> None:
    if item.fill is not None:
        _trace(ctx, item)
        if isinstance(item.fill, Hatch):
            _hatch(ctx, item.fill, _pieces(item))
        else:
            _set_color(ctx, item.fill, item.opacity)
            ctx.fill()
    if item.stroke is not None:
        _trace(ctx, item)
        _set_color(ctx, item.stroke, item.opacity)
        ctx.set_line_width(item.width)
        ctx.set_dash(list(item.dash))
        ctx.stroke()
        ctx.set_dash([])


def _hatch(ctx: cairo.Context, hatch: Hatch, pieces: Sequence[Box]) -> None:
    """Fill the current path with the tint, then clip to it and draw the hatching.

    The marks sit on a lattice laid from the path's extents (so neighbouring hexes line up),
    but only the marks that can touch one of the path's pieces are drawn: an owner's worlds
    scattered over a sector span the whole page, and hatching that whole rectangle under the
    clip put tens of thousands of rings (and over a second of writing) into one map page for a
    few hexes.  What is dropped was wholly clipped away, so the page looks the same.
    """
    x1, y1, x2, y2 = ctx.fill_extents()
    ctx.save()
    ctx.clip_preserve()
    _set_color(ctx, hatch.background)
    ctx.fill()
    _set_color(ctx, hatch.color)
    ctx.set_line_width(hatch.width)
    s = hatch.spacing
    pad = hatch.width
    ctx.new_path()
    kinds = {"x": "/\\", "+": "-|"}.get(hatch.kind, hatch.kind)
    if kinds in (".", "o"):
        rad = hatch.width * (1.6 if kinds == "." else 1.8)
        x0, y0 = x1 - x1 % s, y1 - y1 % s
        for row, col in _dots(pieces, x0, y0, s, rad + pad):
            x = x0 + col * s + (s / 2 if row % 2 else 0)
            y = y0 + row * s
            ctx.move_to(x + rad, y)
            ctx.arc(x, y, rad, 0, 2 * math.pi)
        if kinds == ".":
            ctx.fill()
        else:
            ctx.stroke()
        ctx.restore()
        return
    for kind in kinds:
        if kind == "-":
            y0 = y1 - y1 % s
            for k in _lattice([(b[1], b[3]) for b in pieces], y0, s, pad):
                ctx.move_to(x1, y0 + k * s)
                ctx.line_to(x2, y0 + k * s)
        elif kind == "|":
            x0 = x1 - x1 % s
            for k in _lattice([(b[0], b[2]) for b in pieces], x0, s, pad):
                ctx.move_to(x0 + k * s, y1)
                ctx.line_to(x0 + k * s, y2)
        elif kind in "/\\":
            h = y2 - y1
            sign = 1 if kind == "/" else -1
            # Lines x + sign*y = c on a global lattice so neighbouring hexes line up.
            step = s * math.sqrt(2)
            lo = x1 + min(sign * y1, sign * y2) - h
            c0 = lo - lo % step
            spans = [
                (bx1 + min(sign * by1, sign * by2), bx2 + max(sign * by1, sign * by2))
                for bx1, by1, bx2, by2 in pieces
            ]
            for k in _lattice(spans, c0, step, pad * math.sqrt(2)):
                c = c0 + k * step
                ctx.move_to(c - sign * y1, y1)
                ctx.line_to(c - sign * y2, y2)
    ctx.stroke()
    ctx.restore()


def _pieces(item: Path) -> list[Box]:
    """Each subpath's bounding box (x1, y1, x2, y2)."""
    boxes = []
    for points, _closed in item.subpaths:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def _lattice(
    spans: Sequence[tuple[float, float]], origin: float, step: float, pad: float
) -> list[int]:
    """Indices k (ascending) of the lattice origin + k*step that fall within a span (padded)."""
    ks: set[int] = set()
    for lo, hi in spans:
        first = max(0, math.ceil((lo - pad - origin) / step))
        ks.update(range(first, math.floor((hi + pad - origin) / step) + 1))
    return sorted(ks)


def _dots(
    pieces: Sequence[Box], x0: float, y0: float, s: float, pad: float
) -> list[tuple[int, int]]:
    """(row, column) of the dots of a staggered lattice that reach into a piece."""
    cells: set[tuple[int, int]] = set()
    for bx1, by1, bx2, by2 in pieces:
        for row in _lattice([(by1, by2)], y0, s, pad):
            shift = s / 2 if row % 2 else 0
            for col in _lattice([(bx1, bx2)], x0 + shift, s, pad):
                cells.add((row, col))
    return sorted(cells)


def _circle(ctx: cairo.Context, item: Circle) -> None:
    ctx.new_path()
    ctx.arc(item.x, item.y, item.r, 0, 2 * math.pi)
    if item.fill is not None:
        _set_color(ctx, item.fill)
        if item.stroke is not None:
            ctx.fill_preserve()
        else:
            ctx.fill()
    if item.stroke is not None:
        _set_color(ctx, item.stroke)
        ctx.set_line_width(item.width)
        ctx.stroke()


def _font(
    ctx: cairo.Context, bold: bool, italic: bool, fonts: dict[tuple[bool, bool], cairo.FontFace]
) -> None:
    key = (bold, italic)
    face = fonts.get(key)
    if face is None:
        face = cairo.ToyFontFace(
            MAP_FONT,
            cairo.FONT_SLANT_ITALIC if italic else cairo.FONT_SLANT_NORMAL,
            cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL,
        )
        fonts[key] = face
    ctx.set_font_face(face)


def _text(ctx: cairo.Context, item: Text, fonts: dict[tuple[bool, bool], cairo.FontFace]) -> None:
    if not item.text:
        return
    _font(ctx, item.bold, item.italic, fonts)
    ctx.set_font_size(item.size)
    advance = ctx.text_extents(item.text)[4]
    if item.anchor == "middle":
        x = item.x - advance / 2
    elif item.anchor == "end":
        x = item.x - advance
    else:
        x = item.x
    if item.box:
        pad = item.size * 0.18
        ctx.rectangle(x - pad, item.y - item.size * 0.8, advance + 2 * pad, item.size * 1.0)
        ctx.set_source_rgb(1, 1, 1)
        ctx.fill()
    if item.halo:
        ctx.move_to(x, item.y)
        ctx.text_path(item.text)
        ctx.set_source_rgb(1, 1, 1)
        ctx.set_line_width(item.size * 0.22)
        ctx.stroke()
    _set_color(ctx, item.color, item.opacity)
    ctx.move_to(x, item.y)
    ctx.show_text(item.text)
