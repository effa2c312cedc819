"""A chapter's items as they are made: the list, the frames open around them, the groups
kept on one page, and the steps every kind of block shares.

Why a module of its own: each kind of block is turned into items by its own builder
(`blockitems` for headings, paragraphs and boxes, `lineitems` for lists, listings, dice and
legends, `tableitems` for tables), and all of them add to one list in one way - an item takes
the frames open when it is made, a paragraph's lines keep together as CSS's orphans and
widows say, a block's margins collapse with its first and last item's.  That shared part is
`ItemList`; the builders take one and know nothing of each other.
"""

from __future__ import annotations

from typing import Any

import cairocffi

from refassist.typeset.flowhtml import Block, Node, Unsupported
from refassist.typeset.pagedraw import draw_rule
from refassist.typeset.pageitems import Frame, Item
from refassist.typeset.pango import Text


class ItemList:
    """The items of one chapter being made, top to bottom.  ``cover`` and ``map_page`` are
    its section's kinds (a cover's and a map page's rules differ a little: ``.cover h1``,
    ``.map-page h2``)."""

    def __init__(self, *, cover: bool = False, map_page: bool = False) -> None:
        self.cover = cover
        self.map_page = map_page
        self.items: list[Item] = []
        #: The frames open now (battle boxes, notes), outermost first.
        self.frames: list[Frame] = []
        #: The outline's entry (level, label) of the item that starts each heading.
        self.headings: dict[int, tuple[int, str]] = {}
        self._groups = 0

    def new_group(self) -> int:
        """A group number no item has yet: items given it stay on one page if they fit."""
        self._groups += 1
        return self._groups

    def add(self, item: Item) -> None:
        """``item`` last, inside the frames open now."""
        item.frames = tuple(self.frames)
        self.items.append(item)

    def lines(
        self, text: Text, size: float, x: float, width: float, style: Block, group: int = 0
    ) -> None:
        """One item per line of ``text`` (CSS's line height: the font size times
        ``style.line_height``, the glyphs centred in it).  A paragraph of fewer than four lines
        stays whole; a longer one leaves at least two lines on each side of a page break
        (CSS's orphans and widows)."""
        step = size * style.line_height
        n = len(text.lines)
        if n < 4:
            group = group or self.new_group()
        for i, line in enumerate(text.lines):
            above = style.padding_top if i == 0 else 0.0
            offset = above + (step - line.height) / 2 + line.baseline - line.top

            def draw(
                cr: cairocffi.Context,
                px: float,
                py: float,
                line: Any = line,
                offset: float = offset,
            ) -> None:
                text.show_line(line, px, py + offset, cr)

            last = i == n - 1
            self.add(
                Item(
                    above + step + ((style.padding_bottom + style.border_bottom) if last else 0.0),
                    draw,
                    x,
                    style.margin_top if i == 0 else 0.0,
                    style.margin_bottom if last else 0.0,
                    keep_with_next=style.keep_with_next or (n >= 4 and i in (0, n - 2)),
                    group=group,
                )
            )
        if style.border_bottom and n:
            item = self.items[-1]
            inner = item.draw

            def ruled(cr: cairocffi.Context, px: float, py: float) -> None:
                inner(cr, px, py)
                draw_rule(cr, px, py + item.height - style.border_bottom / 2, width, style)

            item.draw = ruled

    def margins(self, start: int, top: float, bottom: float) -> None:
        """Give the items from ``start`` a block's margins, collapsing with theirs: with the
        first and last item's, or with a frame's when the item sits in a frame the block
        holds (a frame's border keeps the margin outside it)."""
        if start >= len(self.items):
            return
        depth = len(self.frames)
        first, last = self.items[start], self.items[-1]
        if len(first.frames) > depth:
            frame = first.frames[depth]
            frame.margin_top = max(frame.margin_top, top)
        else:
            first.margin_top = max(first.margin_top, top)
        if len(last.frames) > depth:
            frame = last.frames[depth]
            frame.margin_bottom = max(frame.margin_bottom, bottom)
        else:
            last.margin_bottom = max(last.margin_bottom, bottom)


def elements(node: Node, where: str) -> list[Node]:
    """The elements among ``node``'s children; white space between them is nothing, other
    text is `Unsupported` (it would sit between dice or table cells)."""
    found = []
    for child in node.children:
        if isinstance(child, str):
            if child.strip():
                raise Unsupported(f"text in {where}")
        else:
            found.append(child)
    return found
