"""What a chapter set with Pango is made of: items one line or row tall, the frames they sit
in, the room left for a map, and the page they are placed on.

Why a module of its own: the parts of `refassist.typeset.flowpages.Chapter` pass these to
one another - the builders (`blockitems`, `lineitems`, `tableitems`) make items, `placing`
puts them on pages, `pagedraw` draws them - and none of them should need another's code to
know what an item is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cairocffi

from refassist.typeset.flowhtml import MM

#: A4 in points, and report.css's page margins (top, right, bottom, left).
PAGE = (210 * MM, 297 * MM)
MARGINS = (13 * MM, 10 * MM, 14 * MM, 10 * MM)
#: The text area of a report page: what a chapter's pages are the size of.
PAGE_WIDTH = PAGE[0] - MARGINS[1] - MARGINS[3]
PAGE_HEIGHT = PAGE[1] - MARGINS[0] - MARGINS[2]

#: How an item is drawn: on a cairo context (the chapter's own PDF, or a report's page), its
#: top left corner at (x, y).
Draw = Callable[[cairocffi.Context, float, float], None]


@dataclass
class Item:
    """Something placed on a page: ``height`` points tall, drawn by ``draw(cr, x, y)``."""

    height: float
    draw: Draw
    x: float = 0.0
    margin_top: float = 0.0
    margin_bottom: float = 0.0
    keep_with_next: bool = False
    #: Items with the same group stay on one page when the group fits on one.
    group: int = 0
    #: Frames (battle boxes, note rules) this item sits in, innermost last.
    frames: tuple[Frame, ...] = ()
    #: For the room left for a map: its key and width (`Hole`).
    hole: tuple[str, float] | None = None
    #: Starts a page (CSS ``break-before: page``) unless it is the chapter's first.
    page_break: bool = False


@dataclass(eq=False)
class Frame:
    """A border drawn around (or a rule beside) the items inside it, sliced at page ends."""

    x: float
    width: float
    line: float
    color: str
    pad_top: float
    pad_bottom: float
    left_only: bool = False
    margin_top: float = 0.0
    margin_bottom: float = 0.0


@dataclass(frozen=True)
class Hole:
    """Room left for a map (``div.map-box``): its key, the chapter page it is on and its box
    on that page in points from the text area's top left corner."""

    key: str
    page: int
    x: float
    y: float
    width: float
    height: float
