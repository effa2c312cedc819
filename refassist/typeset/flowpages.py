"""A chapter set with Pango: its blocks as items one line or row tall, then pages.

Each block of the chapter's tree (`refassist.typeset.flowhtml`) becomes items: a line of a
paragraph, a row of a table or of dice, each with the margins CSS would give it and the
frames (battle boxes, the rule beside a note) it sits in.  `Chapter` places them top to
bottom on pages the size of a report page's text area, as WeasyPrint would: margins
collapsing, a page broken before what does not fit, events kept whole, headings kept with
what follows, two lines at least on each side of a break; then it draws them on a cairo PDF
surface, the frames sliced at page ends.
"""

from __future__ import annotations

import dataclasses
import html
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cairocffi

from refassist.drawings.drawing import parse_color
from refassist.typeset.flowhtml import (
    ALERT,
    BATTLE,
    BLOCK,
    BODY_TOP,
    BREAK,
    CHIP,
    COVER_H1_TOP,
    EVENT_MARGIN,
    FOLLOW_TOP,
    LEGEND,
    LEGEND_ITEM,
    LINE_HEIGHT,
    LIST,
    LISTING,
    MAP_TITLE_BOTTOM,
    MESSAGE,
    MM,
    MONO,
    MUTED,
    NO_LIGATURES,
    NOTATION,
    NOTE,
    PAGE_BREAK,
    PARAGRAPHS,
    SANS,
    STANDING,
    STYLES,
    SVG_BOXES,
    TABLE_MARGINS,
    TABLES,
    TEXT,
    Block,
    Node,
    Unsupported,
    collapse,
    inline_markup,
    map_box_size,
    span,
)
from refassist.typeset.pango import Text
from refassist.typeset.svgdraw import Picture, picture

#: A4 in points, and report.css's page margins (top, right, bottom, left).
PAGE = (210 * MM, 297 * MM)
MARGINS = (13 * MM, 10 * MM, 14 * MM, 10 * MM)
#: The text area of a report page: what a chapter's pages are the size of.
PAGE_WIDTH = PAGE[0] - MARGINS[1] - MARGINS[3]
PAGE_HEIGHT = PAGE[1] - MARGINS[0] - MARGINS[2]
#: DejaVu Sans's x-height in ems (1120 of 2048 units): ``vertical-align: middle`` centres a
#: legend's swatch half of it above the baseline.
_X_HEIGHT = 1120 / 2048
#: What may stick out at a page's foot: a table row's lower half-border (collapsed borders
#: are shared between rows, and WeasyPrint lets the last row's half reach past the page).
_SLACK = 0.2


# --- Layout: a chapter as a list of items, then pages ---------------------------------------


@dataclass
class Item:
    """Something placed on a page: ``height`` points tall, drawn by ``draw(x, y)``."""

    height: float
    draw: Callable[[float, float], None]
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


def _elements(node: Node, where: str) -> list[Node]:
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


def _plain(node: Node | str) -> str:
    """The characters ``node`` puts in a listing."""
    if isinstance(node, str):
        return node
    return "".join(_plain(child) for child in node.children)


def _bold_runs(children: list[Node | str]) -> list[tuple[int, int, int]]:
    """Each ``<b>`` of a listing as (line, column, characters): where its rule goes."""
    runs = []
    before = ""
    for child in children:
        words = _plain(child)
        if isinstance(child, Node) and child.tag == "b":
            if "\n" in words or any(not isinstance(c, str) for c in child.children):
                raise Unsupported("bold words over several lines of a listing, or styled")
            runs.append((before.count("\n"), len(before) - before.rfind("\n") - 1, len(words)))
        before += words
    return runs


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


#: Texts laid out in this process, by what decides their layout (markup with its font,
#: size and colour; width; alignment; wrapping).  A report's words recur (a table's numbers
#: and headings, each measured for its column and set in it; the same headings, names and
#: labels in every reader's report): a third of a player's texts are laid out twice in the
#: same report and half of the next report's were laid out in the one before.  A `Text` is
#: drawn on whatever context it is given (`Text.show_line`), so the one laid out first
#: serves every chapter; the oldest go beyond `LAID_OUT_MOST` (a few kilobytes each).
_LAID_OUT: dict[tuple[str, float | None, str, bool], Text] = {}
LAID_OUT_MOST = 4096
_MEASURING: list[cairocffi.Context] = []


def _measuring() -> cairocffi.Context:
    """What every text is laid out on: one context a process, on a PDF surface that writes
    nowhere (its fonts and options are a chapter's; a chapter's own surface, drawn only for
    its own PDF, would be kept alive by the texts and write to a closed buffer at exit)."""
    if not _MEASURING:
        _MEASURING.append(cairocffi.Context(cairocffi.PDFSurface(None, PAGE_WIDTH, PAGE_HEIGHT)))
    return _MEASURING[0]


class Chapter:
    """The pages of one chapter, set on a cairo PDF surface of `PAGE_WIDTH` by
    `PAGE_HEIGHT` points; ``classes`` are its section's (a cover's and a map page's rules
    differ a little: ``.cover h1``, ``.map-page h2``)."""

    def __init__(self, root: Node, *, classes: tuple[str, ...] = ("chapter",)) -> None:
        self.cover = "cover" in classes
        #: The section's ``id`` (a PDF anchor), set by `refassist.typeset.flow`.
        self.anchor: str | None = None
        self.map_page = "map-page" in classes
        self.holes: list[Hole] = []
        self.buffer = io.BytesIO()
        self.surface = cairocffi.PDFSurface(self.buffer, PAGE_WIDTH, PAGE_HEIGHT)
        #: What the chapter's own PDF is drawn on (`pdf`); its texts are laid out on
        #: `_measuring`'s context.
        self.context = cairocffi.Context(self.surface)
        #: What the items draw on while a page is drawn: ``context`` or a report's page
        #: (`draw_page`).
        self.pen = self.context
        self._placed: list[list[tuple[Item, float]]] = []
        #: Each page's slices of frames: (frame, top, bottom, opens here, closes here).
        self._slices: dict[int, list[tuple[Frame, float, float, bool, bool]]] = {}
        self._drawn = False
        self.items: list[Item] = []
        self.bookmarks: list[tuple[int, float, int, str]] = []  # page, y, level, label
        self._groups = 0
        self._frames: list[Frame] = []
        self._headings: dict[int, tuple[int, str]] = {}
        self._blocks(root.children, 0.0, PAGE_WIDTH)
        self.heights: list[float] = []
        self._paginate()

    # Building items

    def _text(
        self,
        markup: str,
        width: float | None,
        size: float,
        font: str = SANS,
        align: str = "left",
        color: str = TEXT,
        *,
        words_only: bool = False,
    ) -> Text:
        markup = self._markup(markup, size, font, color)
        key = (markup, width, align, words_only)
        text = _LAID_OUT.get(key)
        if text is None:
            if len(_LAID_OUT) >= LAID_OUT_MOST:
                del _LAID_OUT[next(iter(_LAID_OUT))]  # the oldest
            text = Text(_measuring(), markup, width, align, words_only=words_only)
            _LAID_OUT[key] = text
        return text

    @staticmethod
    def _markup(markup: str, size: float, font: str, color: str = TEXT) -> str:
        # No ligatures: cairo would write "fl" as one character, and a search for "fleet" in
        # the PDF's text (a player's, the fog-of-war audit's) would miss it.  No hyphen where
        # a word longer than the line is broken (a hash, a long name): CSS adds none there.
        return span(
            markup,
            size=size,
            font_family=font,
            foreground=color,
            font_features=NO_LIGATURES,
            insert_hyphens="false",
        )

    def _lines(
        self, text: Text, size: float, x: float, width: float, style: Block, group: int = 0
    ) -> None:
        """One item per line of ``text`` (CSS's line height: the font size times
        ``style.line_height``, the glyphs centred in it).  A paragraph of fewer than four lines
        stays whole; a longer one leaves at least two lines on each side of a page break
        (CSS's orphans and widows)."""
        step = size * style.line_height
        n = len(text.lines)
        if n < 4:
            group = group or self._new_group()
        for i, line in enumerate(text.lines):
            above = style.padding_top if i == 0 else 0.0
            offset = above + (step - line.height) / 2 + line.baseline - line.top

            def draw(px: float, py: float, line: Any = line, offset: float = offset) -> None:
                text.show_line(line, px, py + offset, self.pen)

            last = i == n - 1
            self._add(
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

            def ruled(px: float, py: float) -> None:
                inner(px, py)
                self._rule(px, py + item.height - style.border_bottom / 2, width, style)

            item.draw = ruled

    def _rule(self, x: float, y: float, width: float, style: Block) -> None:
        cr = self.pen
        cr.set_source_rgb(*parse_color(style.border_color))
        cr.set_line_width(style.border_bottom)
        cr.move_to(x, y)
        cr.line_to(x + width, y)
        cr.stroke()

    def _new_group(self) -> int:
        self._groups += 1
        return self._groups

    def _add(self, item: Item) -> None:
        item.frames = tuple(self._frames)
        self.items.append(item)

    def _blocks(self, children: list[Node | str], x: float, width: float, group: int = 0) -> None:
        """Block children in order; runs of inline content become anonymous paragraphs."""
        run: list[Node | str] = []
        for child in [*children, None]:
            if child is None or (isinstance(child, Node) and child.tag in BLOCK):
                markup = collapse("".join(inline_markup(c) for c in run))
                run = []
                if markup:
                    text = self._text(markup, width, 9)
                    self._lines(text, 9, x, width, STYLES["div"], group)
                if child is not None:
                    assert isinstance(child, Node)
                    self._block(child, x, width, group)
            elif isinstance(child, Node) and child.tag in ("td", "th"):
                raise Unsupported(f"<{child.tag}> outside a table row")
            else:
                run.append(child)

    def _block(self, node: Node, x: float, width: float, group: int) -> None:
        if node.attrs.get("style") == PAGE_BREAK:
            start = len(self.items)
            self._block(Node(node.tag, node.classes, node.children), x, width, group)
            if len(self.items) > start:
                self.items[start].page_break = True
            return
        classes = set(node.classes)
        if node.tag in ("h1", "h2", "h3", "h4"):
            style = STYLES[node.tag]
            if "spaced" in classes:
                style = dataclasses.replace(style, margin_top=6 * MM)
            if node.tag == "h1" and self.cover:
                style = dataclasses.replace(style, margin_top=COVER_H1_TOP)
            if node.tag == "h2" and self.map_page:
                style = dataclasses.replace(style, margin_bottom=MAP_TITLE_BOTTOM)
            if node.tag == "h4" and any(not f.left_only for f in self._frames):
                # report.css: `.battle h4 { margin-top: 0 }`.
                style = Block(0, style.margin_bottom, style.size, True, keep_with_next=True)
            markup = collapse("".join(inline_markup(c) for c in node.children))
            label = collapse(re.sub(r"<[^>]*>", "", markup))
            first = len(self.items)
            text = self._text(f"<b>{markup}</b>", width, style.size)
            self._lines(text, style.size, x, width, style)
            # Every heading is in the outline, as WeasyPrint's stylesheet for HTML puts it.
            self._headings[first] = (int(node.tag[1]), html.unescape(label))
            return
        if node.tag == "table":
            self._table(node, x, width, group)
            return
        if node.tag == "section":
            start = len(self.items)
            self._blocks(node.children, x, width, group)
            if "follow" in classes:
                self._margins(start, FOLLOW_TOP, 0.0)
            return
        if node.tag == "pre":
            self._pre(node, x, width, group)
            return
        if node.tag == "ul":
            self._list(node, x, width, group)
            return
        if node.tag not in ("div", "p"):
            raise Unsupported(f"<{node.tag}> as a block")
        if "notation" in classes or "lines" in classes:
            self._notation(node, x, width, group)
        elif "rolls" in classes:
            self._chips(node, x, width, group)
        elif "battle" in classes:
            self._framed(node, x, width, BATTLE, left_only=False, group=group)
        elif "note" in classes:
            self._framed(node, x, width, NOTE, left_only=True, group=group)
        elif "map-box" in classes:
            self._hole(node, x, width)
        elif classes & SVG_BOXES.keys():
            self._drawing(node, x, width, SVG_BOXES[next(iter(classes & SVG_BOXES.keys()))])
        elif "legend" in classes and node.tag == "div":
            self._legend(node, x, width, group)
        elif "message" in classes:
            # Kept whole on a page (``break-inside: avoid``), like an event.
            self._framed(node, x, width, MESSAGE, left_only=False, group=group or self._new_group())
        elif "body" in classes:
            self._body(node, x, width, group)
        elif "alert" in classes:
            # Bold throughout (``.alert``): its words as one bold run.
            bold = Node(node.tag, (), [Node("b", (), node.children)])
            self._framed(bold, x, width, ALERT, left_only=False, group=group)
        elif "standing" in classes:
            self._standing(node, x, width, group)
        elif "event" in classes:
            start = len(self.items)
            self._blocks(node.children, x, width, group or self._new_group())
            self._margins(start, 0.0, EVENT_MARGIN)
        elif node.tag == "p" or classes & {"muted", "game"}:
            style, color = STYLES[node.tag], TEXT
            for name in node.classes:
                if name in PARAGRAPHS:
                    style, color = PARAGRAPHS[name]
            if "muted" in classes:
                color = MUTED
            markup = collapse("".join(inline_markup(c) for c in node.children))
            if markup:
                text = self._text(markup, width, style.size, color=color)
                self._lines(text, style.size, x, width, style, group)
        else:
            self._blocks(node.children, x, width, group)

    def _hole(self, node: Node, x: float, width: float) -> None:
        """A map box: empty room of its own size, centred (``margin: 0 auto``), where the
        map is stamped later (`holes`)."""
        if node.children or self._frames:
            raise Unsupported("a map box with content or in a frame")
        box_width, box_height = map_box_size(node)
        left = x + max(0.0, (width - box_width) / 2)
        hole = (node.attrs["data-map"], box_width)
        self._add(Item(box_height, lambda px, py: None, left, hole=hole))

    def _list(self, node: Node, x: float, width: float, group: int) -> None:
        """A bulleted list (``ul``) of items of running words: each item's lines indented,
        the bullet outside them on the first line's baseline (``list-style-position:
        outside``), the list's margins collapsing with its neighbours'."""
        margin, indent, bullet = LIST
        marker = self._text(html.escape(bullet), None, 9)
        # The marker's width with its space: Pango leaves a trailing space out of a width.
        lead = self._text(f"{html.escape(bullet)}x", None, 9).width
        lead -= self._text("x", None, 9).width
        start = len(self.items)
        for item in _elements(node, "a list"):
            if item.tag != "li" or item.classes:
                raise Unsupported("a list with something other than its items")
            markup = collapse("".join(inline_markup(c) for c in item.children))
            if not markup:
                raise Unsupported("an empty list item")
            text = self._text(markup, width - indent, 9)
            first = len(self.items)
            self._lines(text, 9, x + indent, width - indent, STYLES["div"], group)
            line = text.lines[0]
            offset = (9 * LINE_HEIGHT - line.height) / 2 + line.baseline - line.top
            inner = self.items[first].draw

            def draw(px: float, py: float, inner: Any = inner, offset: float = offset) -> None:
                # The bullet first: a reader of the PDF's text meets it before the words.
                marker.show_line(marker.lines[0], px - lead, py + offset, self.pen)
                inner(px, py)

            self.items[first].draw = draw
        self._margins(start, margin, margin)

    def _drawing(
        self, node: Node, x: float, width: float, box: tuple[float | None, float | None]
    ) -> None:
        """A box of one SVG drawing (a board, a map of places): the drawing at its own size
        in the box, the box centred (``margin: 0 auto``) and as tall as its rule says or as
        the drawing."""
        found = _elements(node, "a drawing's box")
        if len(found) != 1 or found[0].tag != "svg" or self._frames:
            raise Unsupported("a drawing's box without one <svg>, or in a frame")
        svg = found[0]
        box_width, box_height = box
        stretch = box_width is None
        box_width = width if box_width is None else box_width
        drawn = picture(svg.attrs["source"], box_width, stretch)
        left = x + max(0.0, (width - box_width) / 2)
        height = box_height if box_height is not None else drawn.height
        self._add(Item(height, lambda px, py: drawn.draw(self.pen, px, py), left))

    def _legend(self, node: Node, x: float, width: float, group: int) -> None:
        """A map's legend (``.legend``): items of a swatch and its words side by side
        (``inline-block``, never broken inside), as many on a line as fit.  Each swatch is
        centred on the words' x-height (``vertical-align: middle``), so a line is as tall as
        its tallest item, with the item's margin below it."""
        top, size, line_height = LEGEND
        right, below, gap = LEGEND_ITEM
        # CSS's strut of the legend's font: ascent and descent with half the leading each.
        probe = self._text("x", None, size)
        (metrics,) = probe.lines
        leading = (size * line_height - metrics.height) / 2
        strut = (metrics.baseline + leading, metrics.height - metrics.baseline + leading)
        half_x = size * _X_HEIGHT / 2
        entries: list[tuple[Picture | None, Text, float, float, float]] = []
        for item in _elements(node, "a legend"):
            if item.tag != "span" or item.classes != ("item",):
                raise Unsupported("a legend with something other than its items")
            drawings = [c for c in item.children if isinstance(c, Node) and c.tag == "svg"]
            words = [c for c in item.children if not (isinstance(c, Node) and c.tag == "svg")]
            if len(drawings) > 1 or (drawings and item.children[0] is not drawings[0]):
                raise Unsupported("a legend item whose swatch is not first")
            swatch = picture(drawings[0].attrs["source"]) if drawings else None
            markup = collapse("".join(inline_markup(c) for c in words))
            label = self._text(markup, None, size)
            # The item's own line box: its strut and the swatch centred on the x-height.
            above, under = strut
            if swatch is not None:
                above = max(above, half_x + swatch.height / 2)
                under = max(under, swatch.height / 2 - half_x)
            shift = swatch.width + gap if swatch is not None else 0.0
            entries.append((swatch, label, shift + label.width, above, under + below))
        rows: list[list[tuple[Picture | None, Text, float, float, float]]] = [[]]
        used = 0.0
        for entry in entries:
            if rows[-1] and used + entry[2] + right > width:
                rows.append([])
                used = 0.0
            rows[-1].append(entry)
            used += entry[2] + right
        rows = [row for row in rows if row]
        # Lines kept together as a paragraph's are (fewer than four: whole).
        kept = group or (self._new_group() if len(rows) < 4 else 0)
        for number, row in enumerate(rows):
            above = max([strut[0], *(e[3] for e in row)])
            height = above + max([strut[1], *(e[4] for e in row)])

            def draw(px: float, py: float, row: Any = row, baseline: float = above) -> None:
                left = px
                for swatch, label, item_width, _, _ in row:
                    shift = 0.0
                    if swatch is not None:
                        swatch.draw(self.pen, left, py + baseline - half_x - swatch.height / 2)
                        shift = swatch.width + gap
                    if label.lines:
                        label.show_line(label.lines[0], left + shift, py + baseline, self.pen)
                    left += item_width + right

            self._add(
                Item(
                    height,
                    draw,
                    x,
                    top if number == 0 else 0.0,
                    keep_with_next=len(rows) >= 4 and number in (0, len(rows) - 2),
                    group=kept,
                )
            )

    def _body(self, node: Node, x: float, width: float, group: int) -> None:
        """A message's ``.body``: the sender's text with its spaces and line breaks kept
        (``pre-wrap``), wrapped at the width, inside a word too when it is longer."""
        if any(not isinstance(child, str) for child in node.children):
            raise Unsupported("elements in a message body")
        words = "".join(str(child) for child in node.children)
        # A final line break ends the last line; it starts no other (Pango would).
        words = words[:-1] if words.endswith("\n") else words
        if not words:
            return
        text = self._text(html.escape(words, quote=False), width, 9)
        self._lines(text, 9, x, width, Block(margin_top=BODY_TOP), group)

    def _margins(self, start: int, top: float, bottom: float) -> None:
        """Give the items from ``start`` a block's margins, collapsing with theirs: with the
        first and last item's, or with a frame's when the item sits in a frame the block
        holds (a frame's border keeps the margin outside it)."""
        if start >= len(self.items):
            return
        depth = len(self._frames)
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

    def _framed(
        self,
        node: Node,
        x: float,
        width: float,
        rules: tuple[Any, ...],
        *,
        left_only: bool,
        group: int,
    ) -> None:
        margin_top, margin_bottom, line, color, pad_x, pad_y = rules
        frame = Frame(
            x,
            width,
            line,
            color,
            pad_top=(0.0 if left_only else line) + pad_y,
            pad_bottom=(0.0 if left_only else line) + pad_y,
            left_only=left_only,
            margin_top=margin_top,
            margin_bottom=margin_bottom,
        )
        inset = line + pad_x
        self._frames.append(frame)
        try:
            self._blocks(
                node.children, x + inset, width - inset - (0 if left_only else inset), group
            )
        finally:
            self._frames.pop()

    def _pre(self, node: Node, x: float, width: float, group: int) -> None:
        """A monospace listing (``pre.listing``): its own line breaks, and also wrapped at
        the width for ``.events``; its bold words (a header line, a total) ruled under."""
        classes = set(node.classes)
        if "listing" not in classes:
            raise Unsupported("a <pre> that is not a listing")
        size, line_height, top, bottom, rule = LISTING
        children = list(node.children)
        # HTML drops a line break right after <pre>, and the one before </pre> ends the last
        # line without starting another.
        if children and isinstance(children[0], str) and children[0].startswith("\n"):
            children[0] = children[0][1:]
        if children and isinstance(children[-1], str) and children[-1].endswith("\n"):
            children[-1] = children[-1][:-1]
        # `.events` listings wrap their long lines and rule nothing under bold words.
        wrap = "events" in classes
        ruled = [] if wrap else _bold_runs(children)
        markup = "".join(inline_markup(c, listing=True) for c in children).replace(BREAK, "\n")
        if not markup:
            return
        text = self._text(markup, width if wrap else None, size, MONO)
        style = Block(top, bottom, size, line_height=line_height)
        start = len(self.items)
        self._lines(text, size, x, width, style, group)
        if not ruled:
            return
        # `pre.listing b` is ruled under its inline box (as tall as the font size, centred in
        # the line), across its words and spaces: Pango leaves trailing spaces out of a
        # line's width, so a listing's letters (monospace) are measured instead.
        under = (size * line_height - size) / 2 + size + rule / 2
        advance = self._text("0" * 100, None, size, MONO).width / 100
        for line, column, length in ruled:
            item = self.items[start + line]
            inner = item.draw

            def draw(
                px: float,
                py: float,
                inner: Callable[[float, float], None] = inner,
                column: int = column,
                length: int = length,
            ) -> None:
                inner(px, py)
                self._rule(
                    px + column * advance, py + under, length * advance, Block(border_bottom=rule)
                )

            item.draw = draw

    def _notation(self, node: Node, x: float, width: float, group: int) -> None:
        """``div.notation.lines``: each child a line of notation (monospace, spaces kept),
        with a light rule under it; the white space between them is kept too, as CSS's
        ``pre-wrap`` keeps it."""
        if set(node.classes) != {"notation", "lines"}:
            raise Unsupported("notation without lines")
        size, pad, rule, color = NOTATION
        plain = Block(size=size)
        ruled = Block(
            size=size, border_bottom=rule, border_color=color, padding_bottom=pad, padding_top=pad
        )
        for child in node.children:
            if isinstance(child, str):
                # An anonymous block of preserved white space: a line per line break, and none
                # after a final one (Pango would start one there; CSS does not).
                kept = child[:-1] if child.endswith("\n") else child
                text = self._text(html.escape(kept, quote=False), width, size, MONO)
                self._lines(text, size, x, width, plain, group)
                continue
            if child.tag != "div" or child.classes not in ((), ("muted",)):
                raise Unsupported("a notation line of another kind")
            markup = "".join(inline_markup(c) for c in child.children).replace(BREAK, "\n")
            if child.classes:
                markup = span(markup, foreground=MUTED)
            text = self._text(markup, width, size, MONO)
            self._lines(text, size, x, width, ruled, group)

    def _chips(self, node: Node, x: float, width: float, group: int) -> None:
        """The dice of a battle (``.rolls``): bordered chips, wrapped in rows."""
        size = CHIP["size"]
        step = size * LINE_HEIGHT
        chips = []
        for child in _elements(node, "dice"):
            if child.tag != "span":
                raise Unsupported(f"<{child.tag}> among dice")
            kill = "kill" in child.classes
            markup = collapse("".join(inline_markup(c) for c in child.children))
            text = self._text(span(markup, bold=kill), 10_000, size, MONO)
            border = 0.9 if kill else 0.3
            outer = max(CHIP["min"], text.width) + 2 * CHIP["pad"] + 2 * border
            chips.append((text, border, outer, "#111111" if kill else "#bbbbbb"))
        rows: list[list[Any]] = [[]]
        used = 0.0
        for chip in chips:
            # A chip fits with its right margin (CSS counts the margin box on the line).
            if rows[-1] and used + chip[2] + CHIP["gap"] > width:
                rows.append([])
                used = 0.0
            rows[-1].append(chip)
            used += chip[2] + CHIP["gap"]
        # Rows of dice break between pages like lines of text: a few stay together, more
        # leave two on each side of a break.
        rows = [row for row in rows if row]
        if len(rows) < 4:
            group = group or self._new_group()
        for number, row in enumerate(rows):
            height = step + 2 * max(chip[1] for chip in row) + CHIP["below"]

            def draw(px: float, py: float, row: Any = row) -> None:
                cx = px
                for text, border, outer, color in row:
                    cr = self.pen
                    cr.set_source_rgb(*parse_color(color))
                    cr.set_line_width(border)
                    cr.rectangle(cx + border / 2, py + border / 2, outer - border, step + border)
                    cr.stroke()
                    line = text.lines[0]
                    offset = (step - line.height) / 2 + line.baseline - line.top
                    text.show_line(line, cx + border + CHIP["pad"], py + border + offset, self.pen)
                    cx += outer + CHIP["gap"]

            keep = len(rows) >= 4 and number in (0, len(rows) - 2)
            self._add(Item(height, draw, x, keep_with_next=keep, group=group))

    def _table(self, node: Node, x: float, width: float, group: int) -> None:
        """A ``table.compact`` or ``table.contents``: columns sized like CSS's automatic
        table layout (each its widest line, spare width shared in proportion), one item per
        row; ``.num`` cells aligned right, a ``.total`` row bold under a dark rule; a compact
        table's rows ruled under, a contents table's not."""
        kinds = [name for name in node.classes if name in TABLES]
        if len(kinds) != 1 or len(node.classes) != 1:
            raise Unsupported("a table of another kind")
        size, head_size, pad_x, pad_y, ruled = TABLES[kinds[0]]
        rows: list[tuple[bool, list[tuple[str, bool, str]]]] = []
        for tr in _elements(node, "a table"):
            if tr.tag != "tr":
                raise Unsupported("a table row of another kind")
            total = "total" in tr.classes
            cells = []
            for cell in _elements(tr, "a table row"):
                if cell.tag not in ("td", "th"):
                    raise Unsupported("a table cell of another kind")
                markup = collapse("".join(inline_markup(c) for c in cell.children))
                if "mono" in cell.classes:
                    markup = span(markup, size=8, font_family=MONO)
                if "muted" in cell.classes:
                    markup = span(markup, foreground=MUTED)
                if cell.tag == "th" or total:
                    markup = f"<b>{markup}</b>"
                align = "right" if "num" in cell.classes else "left"
                cells.append((markup, cell.tag == "th", align))
            rows.append((total, cells))
        columns = max((len(cells) for _, cells in rows), default=0)
        if not columns or any(len(cells) != columns for _, cells in rows):
            raise Unsupported("a table with uneven rows")
        if not ruled and any(total or cells[0][1] for total, cells in rows):
            raise Unsupported("a header or total row in a table without rules")
        natural = [0.0] * columns
        least = [0.0] * columns
        for _, cells in rows:
            for i, (markup, heading, _) in enumerate(cells):
                z = head_size if heading else size
                text = self._text(markup, None, z)
                natural[i] = max(natural[i], text.width + 2 * pad_x)
                words = self._text(markup, 0.0, z, words_only=True)
                least[i] = max(least[i], words.width + 2 * pad_x)
        widths = self._shared(natural, width, least)
        first_index = len(self.items)
        for number, (_, cells) in enumerate(rows):
            sizes = [head_size if heading else size for _, heading, _ in cells]
            texts = [
                self._text(m, w - 2 * pad_x, z, align=align)
                for (m, _, align), w, z in zip(cells, widths, sizes, strict=True)
            ]
            head = cells[0][1]
            dark = head or (number + 1 < len(rows) and rows[number + 1][0])
            rule = (0.7 if dark else 0.3) if ruled else 0.0
            lines = max(len(t.lines) * z for t, z in zip(texts, sizes, strict=True))
            height = 2 * pad_y + lines * LINE_HEIGHT + rule

            def draw(
                px: float,
                py: float,
                texts: Any = texts,
                sizes: Any = sizes,
                rule: float = rule,
                dark: bool = dark,
                height: float = height,
            ) -> None:
                cx = px
                for text, w, z in zip(texts, widths, sizes, strict=True):
                    y = py + pad_y
                    step = z * LINE_HEIGHT
                    for line in text.lines:
                        offset = (step - line.height) / 2 + line.baseline - line.top
                        text.show_line(line, cx + pad_x, y + offset, self.pen)
                        y += step
                    cx += w
                if rule:
                    cr = self.pen
                    cr.set_source_rgb(*parse_color("#333333" if dark else "#cccccc"))
                    cr.set_line_width(rule)
                    cr.move_to(px, py + height - rule / 2)
                    cr.line_to(px + sum(widths), py + height - rule / 2)
                    cr.stroke()

            self._add(Item(height, draw, x, keep_with_next=head, group=0))
        self._margins(first_index, *TABLE_MARGINS)

    @staticmethod
    def _shared(
        natural: list[float], width: float, least: list[float] | None = None
    ) -> list[float]:
        """Column widths of a table as wide as ``width`` whose columns want ``natural`` and
        need ``least`` (their longest words), as CSS's automatic layout gives them: the
        spare width shared in proportion; short of room, each column between its least and
        its natural width in the same proportion (no word broken while the words fit)."""
        whole = sum(natural)
        if least is None or whole <= width:
            return [w * width / whole for w in natural] if whole else natural
        floor = sum(least)
        if floor >= width or whole <= floor:
            return least
        share = (width - floor) / (whole - floor)
        return [low + (high - low) * share for low, high in zip(least, natural, strict=True)]

    def _standing(self, node: Node, x: float, width: float, group: int) -> None:
        """The cover's ``.standing``: a row of cells as wide as the page, each a big value
        over its label, centred, between two rules (a CSS table of one row)."""
        margin, border, color, pad_y, pad_x = STANDING
        cells = []
        for cell in _elements(node, "a standing row"):
            if cell.tag != "div" or cell.classes:
                raise Unsupported("a standing cell of another kind")
            value, label = "", ""
            for part in cell.children:
                if isinstance(part, str):
                    if part.strip():
                        raise Unsupported("text in a standing cell")
                elif part.tag == "span" and part.classes == ("value",):
                    value = collapse("".join(inline_markup(c) for c in part.children))
                elif part.tag == "span" and part.classes == ("label",) and not label:
                    label = collapse(inline_markup(part))
                else:
                    raise Unsupported("a standing cell of another kind")
            cells.append((value, label))
        if not cells:
            raise Unsupported("an empty standing row")
        # The value is a block of its own (15 pt); the label an inline run in the cell's
        # own line (9 pt), so its line is a 9 pt line however small its letters.
        natural = [
            max(
                self._text(span(value, size=15, bold=True), None, 15).width,
                self._text(label, None, 9).width,
            )
            + 2 * pad_x
            for value, label in cells
        ]
        if sum(natural) > width:
            raise Unsupported("a standing row wider than the page")
        widths = self._shared(natural, width)
        laid = []
        inner = 0.0
        for (value, label), w in zip(cells, widths, strict=True):
            top = self._text(span(value, size=15, bold=True), w - 2 * pad_x, 15, align="center")
            bottom = self._text(label, w - 2 * pad_x, 9, align="center") if label else None
            height = (len(top.lines) if value else 0) * 15 * LINE_HEIGHT
            height += len(bottom.lines) * 9 * LINE_HEIGHT if bottom else 0.0
            laid.append((top if value else None, bottom, w))
            inner = max(inner, height)
        total = 2 * border + 2 * pad_y + inner
        # A line of small letters in a 9 pt block sits on the block's baseline (CSS's strut),
        # lower than if it were centred in the line on its own.
        strut = self._text("x", None, 9).lines[0]
        below = (9 * LINE_HEIGHT - strut.height) / 2 + strut.baseline - strut.top

        def draw(px: float, py: float) -> None:
            cx = px
            for top, bottom, w in laid:
                y = py + border + pad_y
                for text, size in ((top, 15.0), (bottom, 9.0)):
                    if text is None:
                        continue
                    step = size * LINE_HEIGHT
                    for line in text.lines:
                        offset = (step - line.height) / 2 + line.baseline - line.top
                        if text is bottom:
                            offset = max(offset, below)
                        text.show_line(line, cx + pad_x, y + offset, self.pen)
                        y += step
                cx += w
            cr = self.pen
            cr.set_source_rgb(*parse_color(color))
            cr.set_line_width(border)
            for edge in (py + border / 2, py + total - border / 2):
                cr.move_to(px, edge)
                cr.line_to(px + width, edge)
            cr.stroke()

        self._add(Item(total, draw, x, margin, margin, group=group or self._new_group()))

    # Pages

    def _paginate(self) -> None:
        """Place every item: top to bottom, margins collapsing as CSS's do (not through a
        frame's border or padding), a page broken before an item that does not fit, before a
        group that would fit on a page of its own, and before a heading whose next item would
        not follow it; margins at the top of a page are dropped."""
        items = self.items
        placed: list[list[tuple[Item, float]]] = [[]]
        spans: list[tuple[int, Frame, float, float, bool]] = []  # page, frame, top, bottom, closes
        starts: dict[int, float] = {}
        open_frames: list[Frame] = []
        y = pending = 0.0
        for i, item in enumerate(items):
            frames = list(item.frames)
            common = 0
            while (
                common < min(len(open_frames), len(frames))
                and open_frames[common] is frames[common]
            ):
                common += 1
            for frame in reversed(open_frames[common:]):
                y += pending + frame.pad_bottom
                spans.append((len(placed) - 1, frame, starts.pop(id(frame)), y, True))
                pending = frame.margin_bottom
            opening = frames[common:]
            # The space before the item: the first margin collapses with the one pending;
            # inside an opening frame, its padding keeps the next margin apart.
            pieces = [max(pending, opening[0].margin_top if opening else item.margin_top)]
            for n, frame in enumerate(opening):
                pieces.append(frame.pad_top)
                pieces.append(
                    opening[n + 1].margin_top if n + 1 < len(opening) else item.margin_top
                )
            starts_group = item.group == 0 or i == 0 or items[i - 1].group != item.group
            wanted = self._kept(i) if starts_group or item.keep_with_next else item.height
            before = sum(pieces)
            if y > 0 and (
                item.page_break
                or (
                    y + before + wanted > PAGE_HEIGHT + _SLACK
                    and (
                        wanted <= PAGE_HEIGHT - before + pieces[0]
                        or y + before + item.height > PAGE_HEIGHT + _SLACK
                    )
                )
            ):
                for frame in open_frames[:common]:
                    spans.append((len(placed) - 1, frame, starts[id(frame)], y, False))
                    starts[id(frame)] = 0.0
                placed.append([])
                self.heights.append(y)
                y, pieces[0] = 0.0, 0.0
            y += pieces[0]
            for n, frame in enumerate(opening):
                starts[id(frame)] = y
                y += pieces[1 + 2 * n] + pieces[2 + 2 * n]
            open_frames = frames
            placed[-1].append((item, y))
            if item.hole is not None:
                key, box_width = item.hole
                self.holes.append(Hole(key, len(placed) - 1, item.x, y, box_width, item.height))
            if i in self._headings:
                level, label = self._headings[i]
                self.bookmarks.append((len(placed) - 1, y, level, label))
            y += item.height
            pending = item.margin_bottom
        for frame in reversed(open_frames):
            y += pending + frame.pad_bottom
            spans.append((len(placed) - 1, frame, starts.pop(id(frame)), y, True))
            pending = frame.margin_bottom
        self.heights.append(y)
        self._placed, self._slices = placed, _slices(spans)

    def _kept(self, start: int) -> float:
        """Height from item ``start`` to the end of its group and of what it keeps with."""
        items = self.items
        total = items[start].height
        k = start
        while k + 1 < len(items) and (
            items[k].keep_with_next
            or (items[start].group and items[k + 1].group == items[start].group)
        ):
            k += 1
            total += max(items[k - 1].margin_bottom, items[k].margin_top) + items[k].height
            if total > PAGE_HEIGHT:
                break
        return total

    def draw_page(self, number: int, context: cairocffi.Context) -> None:
        """Draw page ``number`` on ``context``, its top left corner at the context's origin:
        a report put together on one surface draws each set page in place
        (`refassist.typeset.flowdoc`), without a PDF of its own to stamp."""
        self.pen = context
        try:
            for frame, top, bottom, opens, closes in self._slices.get(number, []):
                self._frame(frame, top, bottom, opens, closes)
            for item, top in self._placed[number]:
                item.draw(item.x, top)
        finally:
            self.pen = self.context

    def _frame(self, frame: Frame, top: float, bottom: float, opens: bool, closes: bool) -> None:
        cr = self.pen
        cr.set_source_rgb(*parse_color(frame.color))
        cr.set_line_width(frame.line)
        half = frame.line / 2
        left, right = frame.x + half, frame.x + frame.width - half
        cr.move_to(left, top)
        cr.line_to(left, bottom)
        if not frame.left_only:
            cr.move_to(right, top)
            cr.line_to(right, bottom)
            if opens:
                cr.move_to(frame.x, top + half)
                cr.line_to(frame.x + frame.width, top + half)
            if closes:
                cr.move_to(frame.x, bottom - half)
                cr.line_to(frame.x + frame.width, bottom - half)
        cr.stroke()

    def pdf(self) -> bytes:
        """The chapter's pages as PDF bytes (drawn the first time they are asked for: a
        report put together without WeasyPrint draws the pages in place instead)."""
        if not self._drawn:
            self._drawn = True
            for number in range(len(self._placed)):
                if number:
                    self.context.show_page()
                self.draw_page(number, self.context)
            self.surface.finish()
        return self.buffer.getvalue()


def _slices(
    spans: list[tuple[int, Frame, float, float, bool]],
) -> dict[int, list[tuple[Frame, float, float, bool, bool]]]:
    """Each page's slices of frames from the spans placed (page, frame, top, bottom, closes):
    a frame opens on the page of its first slice."""
    seen: set[int] = set()
    by_page: dict[int, list[tuple[Frame, float, float, bool, bool]]] = {}
    for page, frame, top, bottom, closes in spans:
        opens = id(frame) not in seen
        seen.add(id(frame))
        by_page.setdefault(page, []).append((frame, top, bottom, opens, closes))
    return by_page
