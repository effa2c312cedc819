"""The SVG the engine writes, painted straight with cairo: the fast way of `svgdraw`.

Why: CairoSVG draws any SVG, so for each element it copies the inherited attributes, matches
the drawing's style sheet, parses every length, colour and URL in their general forms and
looks for markers.  A board of 96 hexes and its counters (about 600 elements) took it 0.1 s
in a warm process and 0.16 s in a report's fresh worker, most of a small game's report.  The
drawing modules (`refassist.drawings.boarddraw`, `netdraw`, `refassist.archive.chart`, the
rulesets' own maps) write a small, fixed part of SVG: the shapes below with their paint in
attributes, absolute ``M L H V Q`` paths, pattern fills of ``userSpaceOnUse`` tiles, and titles
(tooltips, not drawn).  That part is painted here, element by element in the drawing's order,
with SVG's defaults (black fill, no stroke, width 1, butt caps, miter joins at 4, nonzero
fill, ``xMidYMid meet``).

Anything else (another element or attribute, a relative path, a named colour) raises
`NotPainted` before anything is drawn, and `svgdraw` lets CairoSVG draw the picture as
before, so a new drawing module is never drawn wrong, only slower.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping
from typing import Any
from xml.etree.ElementTree import Element

import cairocffi

from refassist.typeset.flowhtml import NO_LIGATURES, span
from refassist.typeset.pango import Text

NS = "{http://www.w3.org/2000/svg}"
#: The one transform a text may have (the standings chart's slanted labels).
ROTATE = re.compile(r"rotate\(\s*(-?[0-9.]+)[\s,]+(-?[0-9.]+)[\s,]+(-?[0-9.]+)\s*\)")
#: No ligatures (a search for "fleet" finds it), and no kerning: each letter where the
#: drawing's earlier renderer (WeasyPrint's SVG, letter by letter) put it.
_FEATURES = f"{NO_LIGATURES}, kern=0"

_PAINT = {
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
}
#: Each shape's own attributes, besides its paint.
_SHAPES = {
    "rect": {"x", "y", "width", "height", "rx", "ry"},
    "circle": {"cx", "cy", "r"},
    "ellipse": {"cx", "cy", "rx", "ry"},
    "line": {"x1", "y1", "x2", "y2"},
    "polygon": {"points"},
    "polyline": {"points"},
    "path": {"d"},
}
#: A text element as the drawing modules write it: these attributes, then words only.
TEXT = {
    "x",
    "y",
    "dy",
    "font-size",
    "font-family",
    "text-anchor",
    "fill",
    "font-weight",
    "font-style",
    "transform",
}
#: What the root ``<svg>`` may carry; its paint and font are inherited by its elements.
_ROOT = {"width", "height", "viewBox", "font-family", "class", "role", "aria-label"} | _PAINT
_PATTERN = {"id", "patternUnits", "width", "height"}
#: A text's colour as Pango reads it: hex, or a colour's name.
TEXT_FILL = re.compile(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-z]+")
_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_NUMBER = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_PATH = re.compile(r"([MLHVQ])|(-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)|[\s,]+")
_CAPS = {
    "butt": cairocffi.LINE_CAP_BUTT,
    "round": cairocffi.LINE_CAP_ROUND,
    "square": cairocffi.LINE_CAP_SQUARE,
}
_JOINS = {
    "miter": cairocffi.LINE_JOIN_MITER,
    "round": cairocffi.LINE_JOIN_ROUND,
    "bevel": cairocffi.LINE_JOIN_BEVEL,
}


class NotPainted(Exception):
    """The drawing has something this module does not paint (CairoSVG draws it instead)."""


def paint(root: Element, width: float, height: float, view: list[float]) -> Any:
    """The drawing ``root`` (an ``<svg>``) on a cairo recording surface of ``width`` by
    ``height`` points, its ``view`` box (x, y, width, height) fitted in (``xMidYMid
    meet``).  Raises `NotPainted` (and draws nothing) for anything outside the part of SVG
    the drawing modules write."""
    if set(root.attrib) - _ROOT:
        raise NotPainted(f"<svg> with {sorted(set(root.attrib) - _ROOT)}")
    inherited = {k: v for k, v in root.attrib.items() if k in _PAINT or k == "font-family"}
    patterns: dict[str, Element] = {}
    items: list[tuple[str, Element]] = []
    for node in root:
        tag = _tag(node)
        if tag == "defs":
            for pattern in node:
                _check_pattern(pattern)
                patterns[pattern.get("id", "")] = pattern
        elif tag == "pattern":
            _check_pattern(pattern := node)
            patterns[pattern.get("id", "")] = pattern
        elif tag != "title":
            _check(node, tag, patterns)
            items.append((tag, node))
    surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, width, height))
    context = cairocffi.Context(surface)
    # The viewport clips what overflows it (SVG's overflow: hidden); a recording surface's
    # own bounds are whole points, so a half-point edge would show half a stroke more.
    context.rectangle(0, 0, width, height)
    context.clip()
    vx, vy, vw, vh = view
    scale = min(width / vw, height / vh)
    context.translate((width - vw * scale) / 2 - vx * scale, (height - vh * scale) / 2 - vy * scale)
    context.scale(scale, scale)
    context.set_miter_limit(4)
    tiles = {name: _tile(pattern, inherited) for name, pattern in patterns.items()}
    for tag, node in items:
        _draw(context, tag, node, inherited, tiles)
    return surface


def _tag(node: Element) -> str:
    tag = str(node.tag)
    if not tag.startswith(NS):
        raise NotPainted(f"an element {tag!r} outside SVG")
    return tag[len(NS) :]


def _check_pattern(node: Element) -> None:
    """A pattern as the drawing modules write it: a tile in the drawing's units."""
    if _tag(node) != "pattern" or set(node.attrib) - _PATTERN:
        raise NotPainted("a pattern other than a userSpaceOnUse tile")
    if node.get("patternUnits") != "userSpaceOnUse" or not node.get("id"):
        raise NotPainted("a pattern other than a userSpaceOnUse tile")
    for child in node:
        _check(child, _tag(child), {})


def _check(node: Element, tag: str, patterns: Mapping[str, Element]) -> None:
    """Refuse what `_draw` would not draw as SVG does, before anything is drawn."""
    if tag == "text":
        if len(node) or set(node.attrib) - TEXT:
            raise NotPainted("a text with elements or other attributes")
        transform = node.get("transform")
        if transform is not None and not ROTATE.fullmatch(transform):
            raise NotPainted(f"a text transformed by {transform!r}")
        if not TEXT_FILL.fullmatch(node.get("fill", "#000")):
            raise NotPainted(f"a text filled with {node.get('fill')!r}")
        return
    if tag not in _SHAPES or set(node.attrib) - _SHAPES[tag] - _PAINT:
        raise NotPainted(f"a <{tag}> this module does not draw")
    if any(_tag(child) != "title" for child in node):  # a title is a tooltip, not drawn
        raise NotPainted(f"a <{tag}> with elements in it")
    for name in ("fill", "stroke"):
        value = node.get(name)
        if value is None or value == "none" or _HEX.fullmatch(value):
            continue
        if name == "fill" and value.startswith("url(#") and value[5:-1] in patterns:
            continue
        raise NotPainted(f"a paint {value!r}")
    if node.get("stroke-linecap", "butt") not in _CAPS:
        raise NotPainted("a line cap")
    if node.get("stroke-linejoin", "miter") not in _JOINS:
        raise NotPainted("a line join")
    if tag == "path" and _PATH.sub("", node.get("d", "")).strip():
        raise NotPainted("a path with commands other than M L H V Q")


def _tile(pattern: Element, inherited: Mapping[str, str]) -> Any:
    """A pattern's tile as a repeating cairo pattern, in the drawing's units."""
    w, h = float(pattern.get("width", "0")), float(pattern.get("height", "0"))
    surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, w, h))
    context = cairocffi.Context(surface)
    context.set_miter_limit(4)
    for child in pattern:
        _draw(context, _tag(child), child, inherited, {})
    tile = cairocffi.SurfacePattern(surface)
    tile.set_extend(cairocffi.EXTEND_REPEAT)
    return tile


def _draw(
    context: Any,
    tag: str,
    node: Element,
    inherited: Mapping[str, str],
    tiles: Mapping[str, Any],
) -> None:
    attrs = {**inherited, **node.attrib}
    if tag == "text":
        draw_text(context, attrs, node.text or "")
        return
    _outline(context, tag, attrs)
    fill = attrs.get("fill", "#000000")
    if tag != "line" and fill != "none":
        opacity = float(attrs.get("fill-opacity", "1"))
        if fill.startswith("url(#"):
            # A tile's opacity as a mask: the tile is a pattern, not a colour.
            context.set_source(tiles[fill[5:-1]])
            context.save()
            context.clip_preserve()
            context.paint_with_alpha(opacity)
            context.restore()
        else:
            _colour(context, fill, opacity)
            context.fill_preserve()
    stroke = attrs.get("stroke", "none")
    if stroke != "none":
        _colour(context, stroke, 1.0)
        context.set_line_width(float(attrs.get("stroke-width", "1")))
        context.set_line_cap(_CAPS[attrs.get("stroke-linecap", "butt")])
        context.set_line_join(_JOINS[attrs.get("stroke-linejoin", "miter")])
        dashes = [float(v) for v in _NUMBER.findall(attrs.get("stroke-dasharray", ""))]
        context.set_dash(dashes if any(dashes) else [])
        context.stroke()
    context.new_path()


def _colour(context: Any, value: str, opacity: float) -> None:
    digits = value[1:]
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    context.set_source_rgba(r, g, b, opacity)


def _numbers(text: str) -> list[float]:
    return [float(v) for v in _NUMBER.findall(text)]


def _outline(context: Any, tag: str, a: Mapping[str, str]) -> None:
    """The shape's outline as the current path, in the drawing's units."""
    context.new_path()
    if tag == "rect":
        x, y = float(a.get("x", "0")), float(a.get("y", "0"))
        w, h = float(a.get("width", "0")), float(a.get("height", "0"))
        rx = float(a.get("rx", a.get("ry", "0")))
        ry = float(a.get("ry", a.get("rx", "0")))
        rx, ry = min(rx, w / 2), min(ry, h / 2)
        if w <= 0 or h <= 0:
            return
        if rx <= 0 or ry <= 0:
            context.rectangle(x, y, w, h)
            return
        _ellipse_arc(context, x + w - rx, y + ry, rx, ry, -math.pi / 2, 0)
        _ellipse_arc(context, x + w - rx, y + h - ry, rx, ry, 0, math.pi / 2)
        _ellipse_arc(context, x + rx, y + h - ry, rx, ry, math.pi / 2, math.pi)
        _ellipse_arc(context, x + rx, y + ry, rx, ry, math.pi, 3 * math.pi / 2)
        context.close_path()
    elif tag == "circle":
        r = float(a.get("r", "0"))
        if r > 0:
            context.arc(float(a.get("cx", "0")), float(a.get("cy", "0")), r, 0, 2 * math.pi)
            context.close_path()
    elif tag == "ellipse":
        rx, ry = float(a.get("rx", "0")), float(a.get("ry", "0"))
        if rx > 0 and ry > 0:
            cx, cy = float(a.get("cx", "0")), float(a.get("cy", "0"))
            _ellipse_arc(context, cx, cy, rx, ry, 0, 2 * math.pi)
            context.close_path()
    elif tag == "line":
        context.move_to(float(a.get("x1", "0")), float(a.get("y1", "0")))
        context.line_to(float(a.get("x2", "0")), float(a.get("y2", "0")))
    elif tag in ("polygon", "polyline"):
        values = _numbers(a.get("points", ""))
        points = list(zip(values[::2], values[1::2], strict=False))
        if points:
            context.move_to(*points[0])
            for point in points[1:]:
                context.line_to(*point)
            if tag == "polygon":
                context.close_path()
    else:
        _path(context, a.get("d", ""))


def _ellipse_arc(
    context: Any, cx: float, cy: float, rx: float, ry: float, start: float, end: float
) -> None:
    context.save()
    context.translate(cx, cy)
    context.scale(rx, ry)
    context.arc(0, 0, 1, start, end)
    context.restore()


def _path(context: Any, d: str) -> None:
    """``M x y L x y H x V y Q cx cy x y`` (absolute, the command repeated by more numbers).
    cairo draws cubic curves only: a quadratic one is the cubic whose control points are two
    thirds of the way from each end to its control point."""
    command, numbers = "", list[float]()
    x = y = 0.0
    for match in _PATH.finditer(d):
        if match.group(1):
            command, numbers = match.group(1), []
            continue
        if match.group(2) is None:
            continue
        numbers.append(float(match.group(2)))
        if command in ("H", "V"):
            x, y = (numbers[0], y) if command == "H" else (x, numbers[0])
            context.line_to(x, y)
            numbers = []
        elif command == "Q":
            if len(numbers) == 4:
                cx, cy, ex, ey = numbers
                context.curve_to(
                    x + 2 * (cx - x) / 3,
                    y + 2 * (cy - y) / 3,
                    ex + 2 * (cx - ex) / 3,
                    ey + 2 * (cy - ey) / 3,
                    ex,
                    ey,
                )
                x, y, numbers = ex, ey, []
        elif len(numbers) == 2:
            x, y = numbers
            (context.move_to if command == "M" else context.line_to)(x, y)
            command = "L" if command == "M" else command
            numbers = []


def draw_text(context: Any, attrs: Any, words: str) -> None:
    """One ``<text>``'s words set by Pango on ``context`` (in the drawing's units), placed
    and anchored as the drawing says; ``attrs`` its attributes with those it inherits."""
    if not words.strip():
        return
    markup = span(
        html.escape(words, quote=False),
        size=float(attrs.get("font-size", "16")),
        bold=attrs.get("font-weight") == "bold",
        font_family=_families(attrs.get("font-family")),
        foreground=attrs.get("fill", "#000000"),
        font_features=_FEATURES,
        **({"style": "italic"} if attrs.get("font-style") == "italic" else {}),
    )
    text = Text(context, markup, None)
    if not text.lines:
        return
    line = text.lines[0]
    anchor = attrs.get("text-anchor", "start")
    shift = {"start": 0.0, "middle": line.width / 2, "end": line.width}[anchor]
    x = float(attrs.get("x", "0")) - shift
    y = float(attrs.get("y", "0")) + float(attrs.get("dy", "0"))
    turned = ROTATE.fullmatch(attrs.get("transform", ""))
    context.save()
    if turned:
        angle, cx, cy = (float(v) for v in turned.groups())
        context.translate(cx, cy)
        context.rotate(math.radians(angle))
        context.translate(-cx, -cy)
    text.show_line(line, x, y)
    context.restore()


def _families(value: str | None) -> str:
    """The drawing's ``font-family`` list as Pango takes it (no quotes)."""
    names = [name.strip().strip("'\"") for name in (value or "").split(",")]
    return html.escape(",".join(name for name in names if name) or "DejaVu Sans")


__all__ = ["NS", "ROTATE", "TEXT", "TEXT_FILL", "NotPainted", "draw_text", "paint"]
