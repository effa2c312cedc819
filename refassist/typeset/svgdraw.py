"""The engine's own SVG drawings on a report's cairo page: boards, maps of places, legend
swatches, the referee's standings chart.

Why: a report's board or network page was the one page WeasyPrint still laid out, and it spent
most of a small report's time there (parsing the inline SVG as HTML, then drawing it).  Set
with the rest of its page (`refassist.typeset.flowpages`), the same SVG is drawn here straight
onto the page's cairo surface, recorded once and replayed: the part of SVG the drawing modules
write by `refassist.typeset.svgpaint` (several times faster), anything else by CairoSVG (a
library of WeasyPrint's authors, on the cairo the maps use already), and the words by Pango
in their place among the shapes.  CairoSVG alone draws a text letter by letter and leaves its
spaces out, so a reader who copies "Alpha Centauri" from the PDF would get "AlphaCentauri" and
a search for the name would miss it; Pango writes each text as one run with its spaces.

Only what `refassist.drawings.boarddraw`, `netdraw`, `refassist.archive.chart` and the rulesets'
own maps write is drawn: an ``<svg>`` with its size in mm, px or a percentage of the box (and a
``viewBox``, or pixels for user units), shapes, and ``<text>`` elements of plain words placed
by ``x``, ``y``, ``dy``, ``text-anchor`` and at most a rotation.  Anything else raises
`Unsupported`, and the page is WeasyPrint's as before.
"""

from __future__ import annotations

import functools
import re
from typing import Any
from xml.etree.ElementTree import Element

import cairocffi
from defusedxml.ElementTree import fromstring

from refassist.drawings.drawing import MM_TO_PT as MM
from refassist.typeset.flowhtml import Unsupported
from refassist.typeset.svgpaint import NS as _NS
from refassist.typeset.svgpaint import ROTATE as _ROTATE
from refassist.typeset.svgpaint import TEXT as _TEXT_ATTRIBUTES
from refassist.typeset.svgpaint import TEXT_FILL as _COLOUR
from refassist.typeset.svgpaint import NotPainted, draw_text, paint

#: CSS pixels in a point: SVG user units without a unit are pixels (96 to the inch).
_PX = 0.75
_LENGTH = re.compile(r"([0-9.]+)(mm|px|%|)")


@functools.cache
def _recording() -> Any:
    """CairoSVG's surface drawing into a cairo recording surface instead of a file, so the
    drawing is replayed as vectors onto each page that shows it (CairoSVG's documented way to
    change the target is to override ``_create_surface``), and its words set by Pango in
    their place among the shapes (a counter's words under the counter stacked on it stay
    covered).  Made when a drawing first needs CairoSVG: the engine's own drawings are
    painted without it (`svgpaint`), and importing it took 0.05-0.07 s of every report run."""
    from cairosvg.surface import PDFSurface

    class Recording(PDFSurface):
        def _create_surface(self, width: float, height: float) -> tuple[object, float, float]:
            extents = (0, 0, width, height)
            surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, extents)
            return surface, width, height

        def draw(self, node: Any) -> None:
            if node.tag == "text":
                draw_text(self.context, node, node.text or "")
            else:
                super().draw(node)

    return Recording


def _length(value: str | None, box: float | None) -> float | None:
    """An ``<svg>`` width or height in points; ``box`` is what 100% is (None: refused)."""
    if value is None:
        return None
    found = _LENGTH.fullmatch(value.strip())
    if found is None:
        raise Unsupported(f"an SVG length {value!r}")
    number, unit = float(found.group(1)), found.group(2)
    if unit == "mm":
        return number * MM
    if unit == "%":
        if box is None:
            raise Unsupported("an SVG sized in percent outside a box")
        return number / 100 * box
    return number * _PX


class Picture:
    """One SVG drawing, ready to be drawn any number of times at its size in points: its own
    (a percentage is of ``box_width``), or ``box_width`` wide in its proportions (``stretch``)."""

    def __init__(self, svg: str, box_width: float | None = None, stretch: bool = False) -> None:
        try:
            root = fromstring(svg)
        except Exception as exc:  # defusedxml refuses entities; ElementTree bad markup
            raise Unsupported(f"an SVG drawing that does not parse ({exc})") from None
        if root.tag != f"{_NS}svg":
            raise Unsupported("a drawing that is not <svg>")
        width = _length(root.get("width"), box_width)
        height = _length(root.get("height"), None)
        if stretch and box_width is not None and width and height:
            # CSS ``width: 100%; height: auto``: the box's width, the drawing's proportions.
            width, height = box_width, box_width * height / width
        if width is None:
            raise Unsupported("an SVG drawing without a width")
        try:
            view = [float(v) for v in (root.get("viewBox") or "").replace(",", " ").split()]
        except ValueError:
            view = []
        if not view and height is not None:
            view = [0.0, 0.0, width / _PX, height / _PX]  # user units are pixels
        if len(view) != 4 or view[2] <= 0 or view[3] <= 0:
            raise Unsupported("an SVG drawing without a viewBox")
        if height is None:
            height = width * view[3] / view[2]
        self.width, self.height = width, height
        for node in root.iter(f"{_NS}text"):
            _check_text(node)
        try:
            self._drawing = paint(root, width, height, view)
        except NotPainted:
            from cairosvg.parser import Tree

            drawn = _recording()(
                Tree(bytestring=svg.encode("utf-8")),
                None,
                96,
                output_width=width / _PX,
                output_height=height / _PX,
            )
            self._drawing = drawn.cairo

    def draw(self, context: cairocffi.Context, x: float, y: float) -> None:
        """Draw the picture with its top left corner at (``x``, ``y``) points."""
        context.save()
        context.set_source_surface(self._drawing, x, y)
        context.paint()
        context.restore()


def _check_text(node: Element) -> None:
    """A text element as the drawing modules write it: plain words, placed by attributes
    this module draws (anything else: `Unsupported`)."""
    if len(node) or set(node.attrib) - _TEXT_ATTRIBUTES:
        raise Unsupported("SVG text with attributes or elements this module does not draw")
    anchor = node.get("text-anchor", "start")
    fill = node.get("fill", "#000000")
    if anchor not in ("start", "middle", "end") or not _COLOUR.fullmatch(fill):
        raise Unsupported(f"SVG text anchored {anchor!r}, filled {fill!r}")
    if "transform" in node.attrib and not _ROTATE.fullmatch(node.get("transform", "")):
        raise Unsupported(f"SVG text transformed by {node.get('transform')!r}")
    for name in ("x", "y", "dy", "font-size"):
        try:
            float(node.get(name, "0"))
        except ValueError:
            raise Unsupported(f"SVG text with {name}={node.get(name)!r}") from None


@functools.lru_cache(maxsize=64)
def picture(svg: str, box_width: float | None = None, stretch: bool = False) -> Picture:
    """The `Picture` of ``svg``, from a small cache: legend swatches repeat in every report
    of a turn."""
    return Picture(svg, box_width, stretch)


__all__ = ["Picture", "picture"]
