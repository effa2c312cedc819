"""The HTML a chapter set with Pango may hold, and the rules of ``report.css`` it gets.

`refassist.typeset.flow` sets chapters of a report with Pango instead of WeasyPrint; this module
reads a chapter's HTML into a small tree (`parse`), refusing anything outside the subset the
project's templates use (`Unsupported`: the chapter is then WeasyPrint's, as before), and
holds the rules of ``templates/base/report.css`` that apply to that subset, in points, with
the Pango markup of inline content (`inline_markup`).  A change to those rules in
``report.css`` is a change here too: `tests/test_report_flow.py` compares every game's reports
with WeasyPrint's to catch a drift.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from refassist.drawings.drawing import MM_TO_PT as MM


class Unsupported(Exception):
    """The chapter uses HTML this module does not set: WeasyPrint lays it out."""


# --- HTML to a small tree -------------------------------------------------------------------


@dataclass
class Node:
    tag: str
    classes: tuple[str, ...] = ()
    children: list[Node | str] = field(default_factory=list)
    #: Attributes other than ``class``: a map box's key and size, or a block's
    #: `PAGE_BREAK` style.
    attrs: dict[str, str] = field(default_factory=dict)


_VOID = {"br"}
BLOCK = {"section", "div", "p", "h1", "h2", "h3", "h4", "table", "tr", "pre", "ul", "li"}
INLINE = {"span", "b", "br", "small", "i"}
#: Classes each element may carry (report.css's rules for them are mirrored below).
_CLASSES: dict[str, set[str]] = {
    "section": {
        "chapter",
        "follow",
        "cover",
        "map-page",
        "net-page",
        "board-page",
        "standings-page",
    },
    "h2": {"spaced"},
    "div": {
        "event",
        "battle",
        "note",
        "muted",
        "rolls",
        "notation",
        "lines",
        "game",
        "alert",
        "standing",
        "message",
        "body",
        "map-box",
        "net-box",
        "board-box",
        "legend",
        "chart",
    },
    "pre": {"listing", "events"},
    "p": {"muted", "note", "deadline", "dice", "legend"},
    "span": {"kind", "where", "mono", "muted", "kill", "value", "label", "item", "badge"},
    "table": {"compact", "contents", "listing"},
    "tr": {"total"},
    "ul": {"events"},
    "td": {"mono", "num", "muted"},
    "th": {"num"},
}
_ATTRIBUTES = {"class", "data-flow"}
#: A map box (`templates/base/maps.html`): the map's key and the box's size, nothing else.
_MAP_BOX = re.compile(r"\s*width:\s*([0-9.]+)mm;\s*height:\s*([0-9.]+)mm;?\s*")
#: The one style a block may carry besides a map box's: a page break before it (a battle's
#: page printed for the table).
PAGE_BREAK = "break-before: page"


class _Parser(HTMLParser):
    """The tree of a chapter; an ``<svg>`` drawing inside it is kept whole, as its source
    text (a node ``svg`` whose ``source`` attribute it is), for `refassist.typeset.svgdraw`."""

    def __init__(self, drawings: list[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.stack = [self.root]
        #: The sources of the drawings left out of the text fed (`_drawings_out`), in order;
        #: each stands in the text as an empty ``<svg></svg>``.
        self.drawings = drawings

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            # `_drawings_out` replaced each drawing with an empty <svg></svg>.  Its start tag
            # opens no node; the drawing's node is added when its end tag comes (below).
            return
        if tag not in BLOCK | INLINE | {"td", "th"}:
            raise Unsupported(f"<{tag}>")
        classes: tuple[str, ...] = ()
        extra: dict[str, str] = {}
        for name, value in attrs:
            if name == "class":
                classes = tuple((value or "").split())
                if any(c not in _CLASSES.get(tag, set()) for c in classes):
                    raise Unsupported(f"<{tag} class={value!r}>")
            elif name in ("data-map", "style") and tag == "div":
                extra[name] = value or ""
            elif name not in _ATTRIBUTES:
                raise Unsupported(f"<{tag} {name}>")
        if (
            extra
            and extra != {"style": PAGE_BREAK}
            and (
                classes != ("map-box",)
                or set(extra) != {"data-map", "style"}
                or not _MAP_BOX.fullmatch(extra["style"])
            )
        ):
            raise Unsupported(f"<{tag}> with attributes {sorted(extra)}")
        node = Node(tag, classes, attrs=extra)
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            # The end of an empty <svg></svg> left by `_drawings_out`: the drawing cut out
            # here becomes a node.  Drawings were cut out in the order the text has them, so
            # the first one still waiting is this one.
            self.stack[-1].children.append(Node("svg", attrs={"source": self.drawings.pop(0)}))
            return
        if tag in _VOID:
            return
        if self.stack[-1].tag != tag:
            raise Unsupported(f"</{tag}> does not close <{self.stack[-1].tag}>")
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def map_box_size(node: Node) -> tuple[float, float]:
    """A map box's width and height in points (its style, checked by `parse`)."""
    found = _MAP_BOX.fullmatch(node.attrs["style"])
    assert found is not None
    return float(found.group(1)) * MM, float(found.group(2)) * MM


_SVG_TAG = re.compile(r"<svg\b|</svg\s*>", re.IGNORECASE)


def _drawings_out(chapter: str) -> tuple[str, list[str]]:
    """The chapter with each drawing (``<svg>`` to its ``</svg>``) left out, ``<svg></svg>``
    in its place, and the drawings' sources in order.  Why: the HTML parser read every tag
    of a board (40 KB of SVG, a tenth of a small report's setting) only to skip it.  The
    drawing modules escape their words, so ``<svg`` in a drawing is always a tag."""
    parts: list[str] = []
    drawings: list[str] = []
    at = start = depth = 0
    for tag in _SVG_TAG.finditer(chapter):
        if tag.group()[1] != "/":
            start = tag.start() if depth == 0 else start
            depth += 1
            continue
        depth -= 1
        if depth < 0:
            raise Unsupported("</svg> closes nothing")
        if depth == 0:
            parts += [chapter[at:start], "<svg></svg>"]
            drawings.append(chapter[start : tag.end()])
            at = tag.end()
    if depth:
        raise Unsupported("<svg> is not closed")
    return "".join(parts) + chapter[at:], drawings


def parse(chapter: str) -> Node:
    """The chapter's HTML as a tree, or `Unsupported`."""
    text, drawings = _drawings_out(chapter)
    parser = _Parser(drawings)
    parser.feed(text)
    parser.close()
    if len(parser.stack) != 1:
        raise Unsupported(f"<{parser.stack[-1].tag}> is not closed")
    return parser.root


# --- report.css, mirrored -------------------------------------------------------------------

SANS = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
TEXT = "#111111"
MUTED = "#555555"
#: ``.badge``'s shading (report.css), and the no-break space that keeps it on one line.
BADGE = "#e4e4e4"
NBSP = "\u00a0"
#: A markup tag (kept whole) or a space between words (made a no-break space in a badge).
_SPACE_OUTSIDE_TAGS = re.compile(r"(<[^>]*>)| ")


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


STYLES = {
    "h1": Block(0, 2 * MM, 20, True, keep_with_next=True),
    "h2": Block(0, 2.5 * MM, 13, True, 0.6, "#333333", 0.8 * MM, keep_with_next=True),
    "h3": Block(4 * MM, 1.5 * MM, 10.5, True, keep_with_next=True),
    "h4": Block(2.5 * MM, 1 * MM, 9.5, True, keep_with_next=True),
    "p": Block(0, 1.5 * MM),
    "div": Block(),
}
LINE_HEIGHT = 1.3
NO_LIGATURES = "liga=0, clig=0"
EVENT_MARGIN = 2.2 * MM
NOTE = (1 * MM, 2 * MM, 2.0, "#888888", 2.5 * MM, 0.5 * MM)  # margins, rule, colour, pads
BATTLE = (1 * MM, 3 * MM, 0.6, "#999999", 2 * MM, 1.5 * MM)  # margins, border, colour, pads
TABLE_MARGINS = (1 * MM, 2.5 * MM)
LISTING = (7.5, 1.35, 1 * MM, 2.5 * MM, 0.6)  # size, line height, margins, header rule
NOTATION = (8.0, 0.35 * MM, 0.3, "#dddddd")  # size, padding, rule, colour of each line
#: The cover (``.cover``): its h1's margin above; the paragraphs by class: margins, size, colour.
COVER_H1_TOP = 14 * MM
PARAGRAPHS = {
    "game": (Block(size=12), "#333333"),
    "deadline": (Block(3 * MM, 3 * MM, 11), TEXT),
    "dice": (Block(0, 1.5 * MM, 8.5), MUTED),
    # ``p.legend``: a map's note under its legend.
    "legend": (Block(1.5 * MM, 1.5 * MM, 7, line_height=1.2), TEXT),
}
MESSAGE = (0.0, 2 * MM, 0.5, "#bbbbbb", 2 * MM, 1.5 * MM)  # margins, border, colour, pads
#: Boxes of one SVG drawing (``.net-box``, ``.board-box``, the standings page's ``.chart``):
#: their width and height; None for the drawing's own height, or for the width of the page
#: with the drawing stretched to it (``.standings-page svg { width: 100%; height: auto }``).
SVG_BOXES = {"net-box": (190 * MM, 215 * MM), "board-box": (190 * MM, None), "chart": (None, None)}
#: ``.legend``: margin above, font size, line height; an ``.item``'s right and bottom margins
#: and the space after its swatch.
LEGEND = (1.5 * MM, 7.0, 1.2)
LEGEND_ITEM = (3 * MM, 0.8 * MM, 1 * MM)
#: A ``ul`` as browsers style it (report.css has no rule for lists): 1em above and below,
#: its items 40 px in, each marked with a bullet and a space before its first line.
LIST = (9.0, 30.0, "\u2022 ")
#: ``.map-page h2``: the space under a map page's title.
MAP_TITLE_BOTTOM = 1.5 * MM
#: ``section.chapter.follow``: the space above a chapter that goes on on the same page.
FOLLOW_TOP = 6 * MM
#: A message's ``.body``: its words as the player wrote them (``pre-wrap``), 1 mm below.
BODY_TOP = 1 * MM
ALERT = (2 * MM, 3 * MM, 1.0, "#b01c2e", 3 * MM, 2 * MM)  # margins, border, colour, pads
#: ``.standing``: margins, top and bottom border, cell padding (vertical, horizontal).
STANDING = (6 * MM, 1.0, "#333333", 2 * MM, 1 * MM)
#: Tables by class: font size of a cell and of a heading cell, cell padding (horizontal,
#: vertical), rule under each row.  A ``table.listing`` has no rules of its own: CSS's
#: tables (``th`` 8 pt, ``td`` the page's 9 pt).
TABLES = {
    "compact": (7.5, 7.5, 1.2 * MM, 0.2 * MM, True),
    "contents": (9.0, 9.0, 1 * MM, 0.4 * MM, False),
    "listing": (9.0, 8.0, 1.5 * MM, 0.5 * MM, True),
}
CHIP = {"size": 7.5, "min": 15 * MM, "pad": 0.6 * MM, "gap": 1 * MM, "below": 0.4 * MM}


def span(text: str, *, size: float | None = None, bold: bool = False, **attrs: str) -> str:
    parts = [f'{k}="{v}"' for k, v in attrs.items()]
    if size is not None:
        parts.append(f'size="{round(size * 1024)}"')
    if bold:
        parts.append('weight="bold"')
    return f"<span {' '.join(parts)}>{text}</span>" if parts else text


def inline_markup(node: Node | str, upper: bool = False, listing: bool = False) -> str:
    """Pango markup for inline content (HTML's white space collapsed later); ``listing``
    inside a ``pre.listing``, where report.css sets ``<i>`` grey and upright."""
    if isinstance(node, str):
        return html.escape(node.upper() if upper else node, quote=False)
    if node.tag == "br":
        return BREAK
    if node.tag not in INLINE:
        raise Unsupported(f"<{node.tag}> inside a line")
    classes = set(node.classes)
    inner = "".join(inline_markup(c, upper or "kind" in classes, listing) for c in node.children)
    if node.tag == "b" or "where" in classes:
        return span(inner, bold=True)
    if "kind" in classes:
        return span(inner, size=7, foreground=MUTED, letter_spacing=str(round(0.3 * 1024)))
    if "mono" in classes:
        return span(inner, size=8, font_family=MONO)
    if "muted" in classes:
        return span(inner, foreground=MUTED)
    if node.tag == "small":
        return span(inner, size=8.5, foreground=MUTED, weight="normal")
    if "badge" in classes:
        # report.css's inline-block tag: kept on one line (no-break spaces), shaded, with a
        # space's padding each side.
        kept = _SPACE_OUTSIDE_TAGS.sub(lambda m: m.group(1) or NBSP, inner)
        return span(NBSP + kept + NBSP, size=7, background=BADGE)
    if "value" in classes:
        return span(inner, size=15, bold=True)
    if "label" in classes:
        return span(inner, size=7.5, foreground="#444444")
    if node.tag == "i":
        return span(inner, foreground=MUTED) if listing else span(inner, style="italic")
    return inner


_SPACES = re.compile(r"[ \t\r\n\f]+")
#: A ``<br>`` until white space is collapsed (a source line break is only a space).
BREAK = "\u2028"


def collapse(markup: str) -> str:
    """HTML's white-space rule: runs of spaces are one, none at a line's start or end."""
    lines = [part.strip(" ") for part in _SPACES.sub(" ", markup).split(BREAK)]
    return "\n".join(lines).strip("\n")
