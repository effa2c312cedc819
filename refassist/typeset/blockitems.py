"""A chapter's HTML turned into items, block by block: headings, paragraphs, sections,
events, the frames of battles, notes, messages and alerts, a message's body, map holes and
drawings; lists, listings, notation, dice and legends go to `lineitems`, tables and the
cover's standing row to `tableitems`.

Why a module of its own: this is where report.css's rules meet the templates' HTML - which
class gets which margins, frame or font (the values are `refassist.typeset.flowhtml`'s) -
and where anything outside the subset is refused (`Unsupported`: the chapter is left to
WeasyPrint).  It decides what the items are; `placing` decides where they go.
"""

from __future__ import annotations

import dataclasses
import html
import re
from typing import Any

from refassist.typeset import lineitems, tableitems
from refassist.typeset.flowhtml import (
    ALERT,
    BATTLE,
    BLOCK,
    BODY_TOP,
    COVER_H1_TOP,
    EVENT_MARGIN,
    FOLLOW_TOP,
    MAP_TITLE_BOTTOM,
    MESSAGE,
    MM,
    MUTED,
    NOTE,
    PAGE_BREAK,
    PARAGRAPHS,
    STYLES,
    SVG_BOXES,
    TEXT,
    Block,
    Node,
    Unsupported,
    collapse,
    inline_markup,
    map_box_size,
)
from refassist.typeset.itemlist import ItemList, elements
from refassist.typeset.laidout import laid_out
from refassist.typeset.pageitems import Frame, Item
from refassist.typeset.svgdraw import picture


def blocks(
    out: ItemList, children: list[Node | str], x: float, width: float, group: int = 0
) -> None:
    """Block children in order; runs of inline content become anonymous paragraphs."""
    run: list[Node | str] = []
    for child in [*children, None]:
        if child is None or (isinstance(child, Node) and child.tag in BLOCK):
            markup = collapse("".join(inline_markup(c) for c in run))
            run = []
            if markup:
                text = laid_out(markup, width, 9)
                out.lines(text, 9, x, width, STYLES["div"], group)
            if child is not None:
                assert isinstance(child, Node)
                _block(out, child, x, width, group)
        elif isinstance(child, Node) and child.tag in ("td", "th"):
            raise Unsupported(f"<{child.tag}> outside a table row")
        else:
            run.append(child)


def _block(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
    """One block element by its tag and classes, as report.css sets it."""
    if node.attrs.get("style") == PAGE_BREAK:
        start = len(out.items)
        _block(out, Node(node.tag, node.classes, node.children), x, width, group)
        if len(out.items) > start:
            out.items[start].page_break = True
        return
    classes = set(node.classes)
    if node.tag in ("h1", "h2", "h3", "h4"):
        style = STYLES[node.tag]
        if "spaced" in classes:
            style = dataclasses.replace(style, margin_top=6 * MM)
        if node.tag == "h1" and out.cover:
            style = dataclasses.replace(style, margin_top=COVER_H1_TOP)
        if node.tag == "h2" and out.map_page:
            style = dataclasses.replace(style, margin_bottom=MAP_TITLE_BOTTOM)
        if node.tag == "h4" and any(not f.left_only for f in out.frames):
            # report.css: `.battle h4 { margin-top: 0 }`.
            style = Block(0, style.margin_bottom, style.size, True, keep_with_next=True)
        markup = collapse("".join(inline_markup(c) for c in node.children))
        label = collapse(re.sub(r"<[^>]*>", "", markup))
        first = len(out.items)
        text = laid_out(f"<b>{markup}</b>", width, style.size)
        out.lines(text, style.size, x, width, style)
        # Every heading is in the outline, as WeasyPrint's stylesheet for HTML puts it.
        out.headings[first] = (int(node.tag[1]), html.unescape(label))
        return
    if node.tag == "table":
        tableitems.table(out, node, x, width, group)
        return
    if node.tag == "section":
        start = len(out.items)
        blocks(out, node.children, x, width, group)
        if "follow" in classes:
            out.margins(start, FOLLOW_TOP, 0.0)
        return
    if node.tag == "pre":
        lineitems.listing(out, node, x, width, group)
        return
    if node.tag == "ul":
        lineitems.bulleted_list(out, node, x, width, group)
        return
    if node.tag not in ("div", "p"):
        raise Unsupported(f"<{node.tag}> as a block")
    if "notation" in classes or "lines" in classes:
        lineitems.notation(out, node, x, width, group)
    elif "rolls" in classes:
        lineitems.dice(out, node, x, width, group)
    elif "battle" in classes:
        _framed(out, node, x, width, BATTLE, left_only=False, group=group)
    elif "note" in classes:
        _framed(out, node, x, width, NOTE, left_only=True, group=group)
    elif "map-box" in classes:
        _map_hole(out, node, x, width)
    elif classes & SVG_BOXES.keys():
        _drawing(out, node, x, width, SVG_BOXES[next(iter(classes & SVG_BOXES.keys()))])
    elif "legend" in classes and node.tag == "div":
        lineitems.legend(out, node, x, width, group)
    elif "message" in classes:
        # Kept whole on a page (``break-inside: avoid``), like an event.
        _framed(out, node, x, width, MESSAGE, left_only=False, group=group or out.new_group())
    elif "body" in classes:
        _message_body(out, node, x, width, group)
    elif "alert" in classes:
        # Bold throughout (``.alert``): its words as one bold run.
        bold = Node(node.tag, (), [Node("b", (), node.children)])
        _framed(out, bold, x, width, ALERT, left_only=False, group=group)
    elif "standing" in classes:
        tableitems.standing(out, node, x, width, group)
    elif "event" in classes:
        start = len(out.items)
        blocks(out, node.children, x, width, group or out.new_group())
        out.margins(start, 0.0, EVENT_MARGIN)
    elif node.tag == "p" or classes & {"muted", "game"}:
        style, color = STYLES[node.tag], TEXT
        for name in node.classes:
            if name in PARAGRAPHS:
                style, color = PARAGRAPHS[name]
        if "muted" in classes:
            color = MUTED
        markup = collapse("".join(inline_markup(c) for c in node.children))
        if markup:
            text = laid_out(markup, width, style.size, color=color)
            out.lines(text, style.size, x, width, style, group)
    else:
        blocks(out, node.children, x, width, group)


def _map_hole(out: ItemList, node: Node, x: float, width: float) -> None:
    """A map box: empty room of its own size, centred (``margin: 0 auto``), where the
    map is stamped later (`holes`)."""
    if node.children or out.frames:
        raise Unsupported("a map box with content or in a frame")
    box_width, box_height = map_box_size(node)
    left = x + max(0.0, (width - box_width) / 2)
    hole = (node.attrs["data-map"], box_width)
    out.add(Item(box_height, lambda cr, px, py: None, left, hole=hole))


def _drawing(
    out: ItemList, node: Node, x: float, width: float, box: tuple[float | None, float | None]
) -> None:
    """A box of one SVG drawing (a board, a map of places): the drawing at its own size
    in the box, the box centred (``margin: 0 auto``) and as tall as its rule says or as
    the drawing."""
    found = elements(node, "a drawing's box")
    if len(found) != 1 or found[0].tag != "svg" or out.frames:
        raise Unsupported("a drawing's box without one <svg>, or in a frame")
    svg = found[0]
    box_width, box_height = box
    stretch = box_width is None
    box_width = width if box_width is None else box_width
    drawn = picture(svg.attrs["source"], box_width, stretch)
    left = x + max(0.0, (width - box_width) / 2)
    height = box_height if box_height is not None else drawn.height
    out.add(Item(height, lambda cr, px, py: drawn.draw(cr, px, py), left))


def _message_body(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
    """A message's ``.body``: the sender's text with its spaces and line breaks kept
    (``pre-wrap``), wrapped at the width, inside a word too when it is longer."""
    if any(not isinstance(child, str) for child in node.children):
        raise Unsupported("elements in a message body")
    words = "".join(str(child) for child in node.children)
    # A final line break ends the last line; it starts no other (Pango would).
    words = words[:-1] if words.endswith("\n") else words
    if not words:
        return
    text = laid_out(html.escape(words, quote=False), width, 9)
    out.lines(text, 9, x, width, Block(margin_top=BODY_TOP), group)


def _framed(
    out: ItemList,
    node: Node,
    x: float,
    width: float,
    rules: tuple[Any, ...],
    *,
    left_only: bool,
    group: int,
) -> None:
    """A block in a frame (``rules``: margins, line, colour, padding): a box around it, or
    a rule on its left only; its content set inside the line and padding."""
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
    out.frames.append(frame)
    try:
        blocks(out, node.children, x + inset, width - inset - (0 if left_only else inset), group)
    finally:
        out.frames.pop()
