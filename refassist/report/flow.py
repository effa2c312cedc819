"""A report chapter of running text set with Pango, page by page, instead of WeasyPrint.

Why: WeasyPrint spends most of a player's report laying out the "What happened" chapter, a
few hundred small blocks of text (its box model in Python); Pango breaks the same lines in C
in a tenth of the time.  A template marks such a chapter ``<section ... data-flow="NAME">``;
`render_report` (fast path) cuts it out of the HTML, sets it here on cairo PDF pages the width
of the page's text, puts in its place one empty box per page (`placeholder_html`), lets
WeasyPrint lay out the rest, and stamps the pages into the boxes like the maps.  The text
stays real text (the fog-of-war audit reads it), the chapter's headings stay in the PDF's
outline (the boxes carry ``bookmark-label``).

The chapter's HTML stays the template's: this module reads a small subset of HTML and mirrors
the rules of ``templates/base/report.css`` that apply to it (`_STYLES`, in points).  Anything
outside the subset (another element, class or attribute, an inline style) raises
`Unsupported`, and the chapter is left to WeasyPrint as before: a referee's template override
is never wrong here, only slower.  A game folder that overrides ``report.css`` is not set here
at all (`render_report` checks), since its rules would not be mirrored.
"""

from __future__ import annotations

import dataclasses
import html
import io
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import cairocffi
from pypdf import PdfReader

from .pango import Text
from .pango import available as pango_available
from .stamp import Stamp

MM = 72 / 25.4

#: The text area of an A4 page with report.css's margins (13 mm top, 14 bottom, 10 sides).
PAGE_WIDTH = 190 * MM
PAGE_HEIGHT = 270 * MM
#: What may stick out at a page's foot: a table row's lower half-border (collapsed borders
#: are shared between rows, and WeasyPrint lets the last row's half reach past the page).
_SLACK = 0.2


class Unsupported(Exception):
    """The chapter uses HTML this module does not set: WeasyPrint lays it out."""


# --- HTML to a small tree -------------------------------------------------------------------


@dataclass
class Node:
    tag: str
    classes: tuple[str, ...] = ()
    children: list[Node | str] = field(default_factory=list)


_VOID = {"br"}
_BLOCK = {"section", "div", "p", "h2", "h3", "h4", "table", "tr", "pre"}
_INLINE = {"span", "b", "br", "small", "i"}
#: Classes each element may carry (report.css's rules for them are mirrored below).
_CLASSES: dict[str, set[str]] = {
    "section": {"chapter", "follow"},
    "h2": {"spaced"},
    "div": {"event", "battle", "note", "muted", "rolls", "notation", "lines"},
    "pre": {"listing", "events"},
    "p": {"muted", "note"},
    "span": {"kind", "where", "mono", "muted", "kill"},
    "table": {"compact"},
    "tr": {"total"},
    "td": {"mono", "num"},
    "th": {"num"},
}
_ATTRIBUTES = {"class", "data-flow"}


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _BLOCK | _INLINE | {"td", "th"}:
            raise Unsupported(f"<{tag}>")
        classes: tuple[str, ...] = ()
        for name, value in attrs:
            if name not in _ATTRIBUTES:
                raise Unsupported(f"<{tag} {name}>")
            if name == "class":
                classes = tuple((value or "").split())
                if any(c not in _CLASSES.get(tag, set()) for c in classes):
                    raise Unsupported(f"<{tag} class={value!r}>")
        node = Node(tag, classes)
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if self.stack[-1].tag != tag:
            raise Unsupported(f"</{tag}> does not close <{self.stack[-1].tag}>")
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(chapter: str) -> Node:
    """The chapter's HTML as a tree, or `Unsupported`."""
    parser = _Parser()
    parser.feed(chapter)
    parser.close()
    if len(parser.stack) != 1:
        raise Unsupported(f"<{parser.stack[-1].tag}> is not closed")
    return parser.root


# --- report.css, mirrored -------------------------------------------------------------------

SANS = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
TEXT = "#111111"
MUTED = "#555555"


@dataclass(frozen=True)
class Block:
    """Vertical box rules of one kind of block, in points (CSS's margin, border, padding)."""

    margin_top: float = 0.0
    margin_bottom: float = 0.0
    size: float = 9.0
    bold: bool = False
    border_bottom: float = 0.0
    border_color: str = "#333333"
    padding_bottom: float = 0.0
    keep_with_next: bool = False
    padding_top: float = 0.0
    line_height: float = 1.3


_STYLES = {
    "h2": Block(0, 2.5 * MM, 13, True, 0.6, "#333333", 0.8 * MM, keep_with_next=True),
    "h3": Block(4 * MM, 1.5 * MM, 10.5, True, keep_with_next=True),
    "h4": Block(2.5 * MM, 1 * MM, 9.5, True, keep_with_next=True),
    "p": Block(0, 1.5 * MM),
    "div": Block(),
}
LINE_HEIGHT = 1.3
_NO_LIGATURES = "liga=0, clig=0"
EVENT_MARGIN = 2.2 * MM
NOTE = (1 * MM, 2 * MM, 2.0, "#888888", 2.5 * MM, 0.5 * MM)  # margins, rule, colour, pads
BATTLE = (1 * MM, 3 * MM, 0.6, "#999999", 2 * MM, 1.5 * MM)  # margins, border, colour, pads
CELL_PAD_X, CELL_PAD_Y, CELL_SIZE = 1.2 * MM, 0.2 * MM, 7.5
TABLE_MARGINS = (1 * MM, 2.5 * MM)
LISTING = (7.5, 1.35, 1 * MM, 2.5 * MM, 0.6)  # size, line height, margins, header rule
NOTATION = (8.0, 0.35 * MM, 0.3, "#dddddd")  # size, padding, rule, colour of each line
CHIP = {"size": 7.5, "min": 15 * MM, "pad": 0.6 * MM, "gap": 1 * MM, "below": 0.4 * MM}


def _span(text: str, *, size: float | None = None, bold: bool = False, **attrs: str) -> str:
    parts = [f'{k}="{v}"' for k, v in attrs.items()]
    if size is not None:
        parts.append(f'size="{round(size * 1024)}"')
    if bold:
        parts.append('weight="bold"')
    return f"<span {' '.join(parts)}>{text}</span>" if parts else text


def _inline(node: Node | str, upper: bool = False) -> str:
    """Pango markup for inline content (HTML's white space collapsed later)."""
    if isinstance(node, str):
        return html.escape(node.upper() if upper else node, quote=False)
    if node.tag == "br":
        return _BREAK
    if node.tag not in _INLINE:
        raise Unsupported(f"<{node.tag}> inside a line")
    classes = set(node.classes)
    inner = "".join(_inline(c, upper or "kind" in classes) for c in node.children)
    if node.tag == "b" or "where" in classes:
        return _span(inner, bold=True)
    if "kind" in classes:
        return _span(inner, size=7, foreground=MUTED, letter_spacing=str(round(0.3 * 1024)))
    if "mono" in classes:
        return _span(inner, size=8, font_family=MONO)
    if "muted" in classes:
        return _span(inner, foreground=MUTED)
    if node.tag == "small":
        return _span(inner, size=8.5, foreground=MUTED, weight="normal")
    if node.tag == "i":  # only in listings: `pre.listing i`
        return _span(inner, foreground=MUTED)
    return inner


_SPACES = re.compile(r"[ \t\r\n\f]+")
#: A ``<br>`` until white space is collapsed (a source line break is only a space).
_BREAK = "\u2028"


def _collapse(markup: str) -> str:
    """HTML's white-space rule: runs of spaces are one, none at a line's start or end."""
    lines = [part.strip(" ") for part in _SPACES.sub(" ", markup).split(_BREAK)]
    return "\n".join(lines).strip("\n")


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


def _rgb(color: str) -> tuple[float, float, float]:
    return tuple(int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


class Chapter:
    """The pages of one chapter, set on a cairo PDF surface of `PAGE_WIDTH` by
    `PAGE_HEIGHT` points."""

    def __init__(self, root: Node) -> None:
        self.buffer = io.BytesIO()
        self.surface = cairocffi.PDFSurface(self.buffer, PAGE_WIDTH, PAGE_HEIGHT)
        self.context = cairocffi.Context(self.surface)
        self.items: list[Item] = []
        self.bookmarks: list[tuple[int, float, int, str]] = []  # page, y, level, label
        self._groups = 0
        self._frames: list[Frame] = []
        self._headings: dict[int, tuple[int, str]] = {}
        self._blocks(root.children, 0.0, PAGE_WIDTH)
        self.heights: list[float] = []
        self._paginate()

    # Building items

    def _text(self, markup: str, width: float | None, size: float, font: str = SANS) -> Text:
        return Text(self.context, self._markup(markup, size, font), width)

    @staticmethod
    def _markup(markup: str, size: float, font: str) -> str:
        # No ligatures: cairo would write "fl" as one character, and a search for "fleet" in
        # the PDF's text (a player's, the fog-of-war audit's) would miss it.
        return _span(
            markup, size=size, font_family=font, foreground=TEXT, font_features=_NO_LIGATURES
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
                text.show_line(line, px, py + offset)

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
        cr = self.context
        cr.set_source_rgb(*_rgb(style.border_color))
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
            if child is None or (isinstance(child, Node) and child.tag in _BLOCK):
                markup = _collapse("".join(_inline(c) for c in run))
                run = []
                if markup:
                    text = self._text(markup, width, 9)
                    self._lines(text, 9, x, width, _STYLES["div"], group)
                if child is not None:
                    assert isinstance(child, Node)
                    self._block(child, x, width, group)
            elif isinstance(child, Node) and child.tag in ("td", "th"):
                raise Unsupported(f"<{child.tag}> outside a table row")
            else:
                run.append(child)

    def _block(self, node: Node, x: float, width: float, group: int) -> None:
        classes = set(node.classes)
        if node.tag in ("h2", "h3", "h4"):
            style = _STYLES[node.tag]
            if "spaced" in classes:
                style = dataclasses.replace(style, margin_top=6 * MM)
            if node.tag == "h4" and any(not f.left_only for f in self._frames):
                # report.css: `.battle h4 { margin-top: 0 }`.
                style = Block(0, style.margin_bottom, style.size, True, keep_with_next=True)
            markup = _collapse("".join(_inline(c) for c in node.children))
            label = _collapse(re.sub(r"<[^>]*>", "", markup))
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
            self._blocks(node.children, x, width, group)
            return
        if node.tag == "pre":
            self._pre(node, x, width, group)
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
        elif "event" in classes:
            start = len(self.items)
            self._blocks(node.children, x, width, group or self._new_group())
            self._margins(start, 0.0, EVENT_MARGIN)
        elif node.tag == "p" or "muted" in classes:
            markup = _collapse("".join(_inline(c) for c in node.children))
            if markup:
                if "muted" in classes:
                    markup = _span(markup, foreground=MUTED)
                text = self._text(markup, width, 9)
                self._lines(text, 9, x, width, _STYLES[node.tag], group)
        else:
            self._blocks(node.children, x, width, group)

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
        the width for ``.events``; a first ``<b>`` line is the header, ruled under its words."""
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
        header = ""
        if children and isinstance(children[0], Node) and children[0].tag == "b":
            header = "".join(c for c in children[0].children if isinstance(c, str))
            if len(children[0].children) != 1 or "\n" in header:
                raise Unsupported("a listing header of another shape")
        markup = "".join(_inline(c) for c in children).replace(_BREAK, "\n")
        if not markup:
            return
        wrap = "events" in classes
        text = self._text(markup, width if wrap else None, size, MONO)
        style = Block(top, bottom, size, line_height=line_height)
        start = len(self.items)
        self._lines(text, size, x, width, style, group)
        if header and not wrap:
            item = self.items[start]
            inner = item.draw
            # Under the inline box, whose height is the font size (CSS), centred in the line.
            under = (size * line_height - size) / 2 + size + rule / 2
            ruled = Block(border_bottom=rule)
            # The rule runs under the header's trailing spaces too, as under an inline box;
            # Pango leaves them out of a line's width, so measure as many letters instead
            # (a listing is monospace).
            across = self._text(html.escape(header.replace(" ", "0")), None, size, MONO).width

            def draw(px: float, py: float) -> None:
                inner(px, py)
                self._rule(px, py + under, across, ruled)

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
            if child.tag != "div" or child.classes:
                raise Unsupported("a notation line of another kind")
            markup = "".join(_inline(c) for c in child.children).replace(_BREAK, "\n")
            text = self._text(markup, width, size, MONO)
            self._lines(text, size, x, width, ruled, group)

    def _chips(self, node: Node, x: float, width: float, group: int) -> None:
        """The dice of a battle (``.rolls``): bordered chips, wrapped in rows."""
        size = CHIP["size"]
        step = size * LINE_HEIGHT
        chips = []
        for child in node.children:
            if isinstance(child, str):
                if child.strip():
                    raise Unsupported("text between dice")
                continue
            if child.tag != "span":
                raise Unsupported(f"<{child.tag}> among dice")
            kill = "kill" in child.classes
            markup = _collapse("".join(_inline(c) for c in child.children))
            text = self._text(_span(markup, bold=kill), 10_000, size, MONO)
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
                    cr = self.context
                    cr.set_source_rgb(*_rgb(color))
                    cr.set_line_width(border)
                    cr.rectangle(cx + border / 2, py + border / 2, outer - border, step + border)
                    cr.stroke()
                    line = text.lines[0]
                    offset = (step - line.height) / 2 + line.baseline - line.top
                    text.show_line(line, cx + border + CHIP["pad"], py + border + offset)
                    cx += outer + CHIP["gap"]

            keep = len(rows) >= 4 and number in (0, len(rows) - 2)
            self._add(Item(height, draw, x, keep_with_next=keep, group=group))

    def _table(self, node: Node, x: float, width: float, group: int) -> None:
        """A ``table.compact``: columns sized like CSS's automatic table layout (each its
        widest line, spare width shared in proportion), one item per row; ``.num`` cells
        aligned right, a ``.total`` row bold under a dark rule."""
        if "compact" not in node.classes:
            raise Unsupported("a table that is not .compact")
        rows: list[tuple[bool, list[tuple[str, bool, str]]]] = []
        for tr in node.children:
            if isinstance(tr, str):
                if tr.strip():
                    raise Unsupported("text in a table")
                continue
            if tr.tag != "tr":
                raise Unsupported("a table row of another kind")
            total = "total" in tr.classes
            cells = []
            for cell in tr.children:
                if isinstance(cell, str):
                    if cell.strip():
                        raise Unsupported("text in a table row")
                    continue
                if cell.tag not in ("td", "th"):
                    raise Unsupported("a table cell of another kind")
                markup = _collapse("".join(_inline(c) for c in cell.children))
                if "mono" in cell.classes:
                    markup = _span(markup, size=8, font_family=MONO)
                if cell.tag == "th" or total:
                    markup = f"<b>{markup}</b>"
                align = "right" if "num" in cell.classes else "left"
                cells.append((markup, cell.tag == "th", align))
            rows.append((total, cells))
        columns = max((len(cells) for _, cells in rows), default=0)
        if not columns or any(len(cells) != columns for _, cells in rows):
            raise Unsupported("a table with uneven rows")
        natural = [0.0] * columns
        for _, cells in rows:
            for i, (markup, _, _) in enumerate(cells):
                text = self._text(markup, None, CELL_SIZE)
                natural[i] = max(natural[i], text.width + 2 * CELL_PAD_X)
        whole = sum(natural)
        widths = [w * width / whole for w in natural] if whole else natural
        step = CELL_SIZE * LINE_HEIGHT
        first_index = len(self.items)
        for number, (_, cells) in enumerate(rows):
            texts = [
                Text(self.context, self._markup(m, CELL_SIZE, SANS), w - 2 * CELL_PAD_X, align)
                for (m, _, align), w in zip(cells, widths, strict=True)
            ]
            head = cells[0][1]
            dark = head or (number + 1 < len(rows) and rows[number + 1][0])
            rule = 0.7 if dark else 0.3
            height = 2 * CELL_PAD_Y + max(len(t.lines) for t in texts) * step + rule

            def draw(
                px: float,
                py: float,
                texts: Any = texts,
                rule: float = rule,
                dark: bool = dark,
                height: float = height,
            ) -> None:
                cx = px
                for text, w in zip(texts, widths, strict=True):
                    y = py + CELL_PAD_Y
                    for line in text.lines:
                        offset = (step - line.height) / 2 + line.baseline - line.top
                        text.show_line(line, cx + CELL_PAD_X, y + offset)
                        y += step
                    cx += w
                cr = self.context
                cr.set_source_rgb(*_rgb("#333333" if dark else "#cccccc"))
                cr.set_line_width(rule)
                cr.move_to(px, py + height - rule / 2)
                cr.line_to(px + sum(widths), py + height - rule / 2)
                cr.stroke()

            self._add(Item(height, draw, x, keep_with_next=head, group=0))
        self._margins(first_index, *TABLE_MARGINS)

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
            if (
                y > 0
                and y + before + wanted > PAGE_HEIGHT + _SLACK
                and (
                    wanted <= PAGE_HEIGHT - before + pieces[0]
                    or y + before + item.height > PAGE_HEIGHT + _SLACK
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
        self._draw(placed, spans)

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

    def _draw(
        self,
        placed: list[list[tuple[Item, float]]],
        spans: list[tuple[int, Frame, float, float, bool]],
    ) -> None:
        seen: set[int] = set()
        by_page: dict[int, list[tuple[Frame, float, float, bool, bool]]] = {}
        for page, frame, top, bottom, closes in spans:
            opens = id(frame) not in seen
            seen.add(id(frame))
            by_page.setdefault(page, []).append((frame, top, bottom, opens, closes))
        for number, page_items in enumerate(placed):
            if number:
                self.context.show_page()
            for frame, top, bottom, opens, closes in by_page.get(number, []):
                self._frame(frame, top, bottom, opens, closes)
            for item, top in page_items:
                item.draw(item.x, top)
        self.surface.finish()

    def _frame(self, frame: Frame, top: float, bottom: float, opens: bool, closes: bool) -> None:
        cr = self.context
        cr.set_source_rgb(*_rgb(frame.color))
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
        """The chapter's pages as PDF bytes."""
        return self.buffer.getvalue()


# --- In the report -------------------------------------------------------------------------

#: Box keys of set chapters start so (map boxes are keyed by map page).
KEY = "flow:"
_SECTION = re.compile(r"<section\b[^>]*\bdata-flow=\"[^\"]*\"[^>]*>")


def usable(dirs: Sequence[Path]) -> bool:
    """Whether chapters may be set here: Pango opens, and no folder before the project's
    overrides the stylesheet or the layout this module mirrors."""
    overridden = any(
        (Path(d) / "base" / name).is_file()
        for d in dirs[:-1]
        for name in ("report.css", "layout.html")
    )
    return not overridden and pango_available()


def find_chapters(document: str) -> Iterator[tuple[int, int, int]]:
    """(start, end of the opening tag, end) of each ``<section data-flow=...>``."""
    for match in _SECTION.finditer(document):
        depth, position = 1, match.end()
        while depth:
            opening = document.find("<section", position)
            closing = document.find("</section>", position)
            if closing < 0:
                return
            if 0 <= opening < closing:
                depth, position = depth + 1, opening + len("<section")
            else:
                depth, position = depth - 1, closing + len("</section>")
        yield match.start(), match.end(), position


def set_chapters(document: str) -> tuple[str, dict[str, bytes]]:
    """The report's HTML with each chapter marked ``data-flow`` that this module can set
    replaced by its page boxes, and each set chapter's pages (PDF) by box key prefix.  A
    chapter that does not start a page (``.follow``) or uses HTML outside the subset is left
    in the HTML as it was."""
    parts: list[str] = []
    pages: dict[str, bytes] = {}
    done = 0
    for number, (start, inner, end) in enumerate(find_chapters(document)):
        opening = document[start:inner]
        classes = re.search(r'class="([^"]*)"', opening)
        names = classes.group(1).split() if classes else []
        if "chapter" not in names or "follow" in names:
            continue
        try:
            chapter = Chapter(parse(document[inner : end - len("</section>")]))
        except Unsupported:
            continue
        key = f"{KEY}{number}"
        parts += [document[done:start], placeholder_html(key, chapter, opening)]
        pages[key] = chapter.pdf()
        done = end
    parts.append(document[done:])
    return "".join(parts), pages


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def placeholder_html(key: str, chapter: Chapter, section_tag: str) -> str:
    """What stands in the HTML for a set chapter: the section (same classes, so the same
    page break before it), one box per page of the height used, and the headings as
    bookmarks (empty boxes that carry ``bookmark-label``)."""
    parts = [re.sub(r'\s*data-flow="[^"]*"', "", section_tag)]
    count = len(chapter.heights)
    for number, height in enumerate(chapter.heights):
        after = "page" if number < count - 1 else "auto"
        marks = "".join(
            '<div style="{}"></div>'.format(
                html.escape(
                    f"position: absolute; top: {y:.2f}pt; left: 0; width: 1pt; height: 1pt; "
                    f"bookmark-level: {level}; bookmark-label: {_css_string(label)}"
                )
            )
            for page, y, level, label in chapter.bookmarks
            if page == number
        )
        parts.append(
            f'<div data-map="{key}:{number}" style="position: relative; margin: 0; '
            f'height: {max(height, 1):.2f}pt; break-after: {after}; break-inside: avoid">'
            f"{marks}</div>"
        )
    parts.append("</section>")
    return "".join(parts)


def chapter_stamps(pages: dict[str, bytes], boxes: Sequence[Any]) -> list[Stamp]:
    """Stamps that paint each set chapter's pages into their boxes (`render.map_boxes`)."""
    readers = {key: PdfReader(io.BytesIO(pdf)) for key, pdf in pages.items()}
    stamps = []
    for box in boxes:
        key, _, number = box.key.rpartition(":")
        if key in readers:
            stamps.append(Stamp(box.page, readers[key], int(number), box.x, box.y))
    return stamps
