"""A chapter set with Pango: its blocks as items one line or row tall, then pages.

Each block of the chapter's tree (`refassist.typeset.flowhtml`) becomes items: a line of a
paragraph, a row of a table or of dice, each with the margins CSS would give it and the
frames (battle boxes, the rule beside a note) it sits in.  `Chapter` places them top to
bottom on pages the size of a report page's text area, as WeasyPrint would: margins
collapsing, a page broken before what does not fit, events kept whole, headings kept with
what follows, two lines at least on each side of a break; then it draws them on a cairo PDF
surface, the frames sliced at page ends.

`Chapter` only puts the parts together, each a module of its own:

* `pageitems` - what an item, a frame and a map hole are, and the page's size;
* `blockitems` (with `itemlist`, `lineitems`, `tableitems`) - the HTML made into items;
  `laidout` - their words laid out with Pango, once a process;
* `placing` - the items placed on pages;
* `pagedraw` - a placed page drawn: frames, then items.
"""

from __future__ import annotations

import io

import cairocffi

from refassist.typeset.blockitems import blocks
from refassist.typeset.flowhtml import Node
from refassist.typeset.itemlist import ItemList
from refassist.typeset.pagedraw import draw_page
from refassist.typeset.pageitems import (
    MARGINS,
    PAGE,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    Frame,
    Hole,
    Item,
)
from refassist.typeset.placing import paginate

__all__ = ["MARGINS", "PAGE", "PAGE_HEIGHT", "PAGE_WIDTH", "Chapter", "Frame", "Hole", "Item"]


class Chapter:
    """The pages of one chapter, set on a cairo PDF surface of `PAGE_WIDTH` by
    `PAGE_HEIGHT` points; ``classes`` are its section's (a cover's and a map page's rules
    differ a little: ``.cover h1``, ``.map-page h2``)."""

    def __init__(self, root: Node, *, classes: tuple[str, ...] = ("chapter",)) -> None:
        self.cover = "cover" in classes
        #: The section's ``id`` (a PDF anchor), set by `refassist.typeset.flow`.
        self.anchor: str | None = None
        self.map_page = "map-page" in classes
        self.buffer = io.BytesIO()
        self.surface = cairocffi.PDFSurface(self.buffer, PAGE_WIDTH, PAGE_HEIGHT)
        #: What the chapter's own PDF is drawn on (`pdf`); its texts are laid out on
        #: `refassist.typeset.laidout`'s measuring context.
        self.context = cairocffi.Context(self.surface)
        self._drawn = False
        made = ItemList(cover=self.cover, map_page=self.map_page)
        blocks(made, root.children, 0.0, PAGE_WIDTH)
        self.items: list[Item] = made.items
        self._placement = paginate(made.items, made.headings)
        #: Each page's height used, the map holes and the outline's (page, y, level, label).
        self.heights: list[float] = self._placement.heights
        self.holes: list[Hole] = self._placement.holes
        self.bookmarks: list[tuple[int, float, int, str]] = self._placement.bookmarks

    def draw_page(self, number: int, context: cairocffi.Context) -> None:
        """Draw page ``number`` on ``context``, its top left corner at the context's origin:
        a report put together on one surface draws each set page in place
        (`refassist.typeset.flowdoc`), without a PDF of its own to stamp."""
        draw_page(self._placement, number, context)

    def pdf(self) -> bytes:
        """The chapter's pages as PDF bytes (drawn the first time they are asked for: a
        report put together without WeasyPrint draws the pages in place instead)."""
        if not self._drawn:
            self._drawn = True
            for number in range(len(self._placement.pages)):
                if number:
                    self.context.show_page()
                self.draw_page(number, self.context)
            self.surface.finish()
        return self.buffer.getvalue()
