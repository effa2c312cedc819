"""Blocks set as rows of lines with something beside the words: a bulleted list's bullets, a
listing's rules under bold words, lines of notation, rows of dice, a legend's swatches.

Why a module of its own: each of these is a CSS idiom the report templates use in one place
(``ul``, ``pre.listing``, ``div.notation.lines``, ``.rolls``, ``.legend``) whose rows break
between pages like a paragraph's lines; each builder here reads its block's HTML, checks it
is what the templates write (else `Unsupported`, and WeasyPrint sets the chapter) and adds
its rows to an `ItemList` with how each is drawn.
"""

from __future__ import annotations

import html
from typing import Any

import cairocffi

from refassist.drawings.drawing import parse_color
from refassist.typeset.flowhtml import (
    BREAK,
    CHIP,
    LEGEND,
    LEGEND_ITEM,
    LINE_HEIGHT,
    LIST,
    LISTING,
    MONO,
    MUTED,
    NOTATION,
    STYLES,
    Block,
    Node,
    Unsupported,
    collapse,
    inline_markup,
    span,
)
from refassist.typeset.itemlist import ItemList, elements
from refassist.typeset.laidout import laid_out
from refassist.typeset.pagedraw import draw_rule
from refassist.typeset.pageitems import Draw, Item
from refassist.typeset.pango import Text
from refassist.typeset.svgdraw import Picture, picture

#: DejaVu Sans's x-height in ems (1120 of 2048 units): ``vertical-align: middle`` centres a
#: legend's swatch half of it above the baseline.
_X_HEIGHT = 1120 / 2048


def bulleted_list(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
    """A bulleted list (``ul``) of items of running words: each item's lines indented,
    the bullet outside them on the first line's baseline (``list-style-position:
    outside``), the list's margins collapsing with its neighbours'."""
    margin, indent, bullet = LIST
    marker = laid_out(html.escape(bullet), None, 9)
    # The marker's width with its space: Pango leaves a trailing space out of a width.
    lead = laid_out(f"{html.escape(bullet)}x", None, 9).width
    lead -= laid_out("x", None, 9).width
    start = len(out.items)
    for item in elements(node, "a list"):
        if item.tag != "li" or item.classes:
            raise Unsupported("a list with something other than its items")
        markup = collapse("".join(inline_markup(c) for c in item.children))
        if not markup:
            raise Unsupported("an empty list item")
        text = laid_out(markup, width - indent, 9)
        first = len(out.items)
        out.lines(text, 9, x + indent, width - indent, STYLES["div"], group)
        line = text.lines[0]
        offset = (9 * LINE_HEIGHT - line.height) / 2 + line.baseline - line.top
        inner = out.items[first].draw

        def draw(
            cr: cairocffi.Context, px: float, py: float, inner: Any = inner, offset: float = offset
        ) -> None:
            # The bullet first: a reader of the PDF's text meets it before the words.
            marker.show_line(marker.lines[0], px - lead, py + offset, cr)
            inner(cr, px, py)

        out.items[first].draw = draw
    out.margins(start, margin, margin)


def legend(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
    """A map's legend (``.legend``): items of a swatch and its words side by side
    (``inline-block``, never broken inside), as many on a line as fit.  Each swatch is
    centred on the words' x-height (``vertical-align: middle``), so a line is as tall as
    its tallest item, with the item's margin below it."""
    top, size, line_height = LEGEND
    right, below, gap = LEGEND_ITEM
    # CSS's strut of the legend's font: ascent and descent with half the leading each.
    probe = laid_out("x", None, size)
    (metrics,) = probe.lines
    leading = (size * line_height - metrics.height) / 2
    strut = (metrics.baseline + leading, metrics.height - metrics.baseline + leading)
    half_x = size * _X_HEIGHT / 2
    entries: list[tuple[Picture | None, Text, float, float, float]] = []
    for item in elements(node, "a legend"):
        if item.tag != "span" or item.classes != ("item",):
            raise Unsupported("a legend with something other than its items")
        drawings = [c for c in item.children if isinstance(c, Node) and c.tag == "svg"]
        words = [c for c in item.children if not (isinstance(c, Node) and c.tag == "svg")]
        if len(drawings) > 1 or (drawings and item.children[0] is not drawings[0]):
            raise Unsupported("a legend item whose swatch is not first")
        swatch = picture(drawings[0].attrs["source"]) if drawings else None
        markup = collapse("".join(inline_markup(c) for c in words))
        label = laid_out(markup, None, size)
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
    kept = group or (out.new_group() if len(rows) < 4 else 0)
    for number, row in enumerate(rows):
        above = max([strut[0], *(e[3] for e in row)])
        height = above + max([strut[1], *(e[4] for e in row)])

        def draw(
            cr: cairocffi.Context, px: float, py: float, row: Any = row, baseline: float = above
        ) -> None:
            left = px
            for swatch, label, item_width, _, _ in row:
                shift = 0.0
                if swatch is not None:
                    swatch.draw(cr, left, py + baseline - half_x - swatch.height / 2)
                    shift = swatch.width + gap
                if label.lines:
                    label.show_line(label.lines[0], left + shift, py + baseline, cr)
                left += item_width + right

        out.add(
            Item(
                height,
                draw,
                x,
                top if number == 0 else 0.0,
                keep_with_next=len(rows) >= 4 and number in (0, len(rows) - 2),
                group=kept,
            )
        )


def listing(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
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
    text = laid_out(markup, width if wrap else None, size, MONO)
    style = Block(top, bottom, size, line_height=line_height)
    start = len(out.items)
    out.lines(text, size, x, width, style, group)
    if not ruled:
        return
    # `pre.listing b` is ruled under its inline box (as tall as the font size, centred in
    # the line), across its words and spaces: Pango leaves trailing spaces out of a
    # line's width, so a listing's letters (monospace) are measured instead.
    under = (size * line_height - size) / 2 + size + rule / 2
    advance = laid_out("0" * 100, None, size, MONO).width / 100
    for line, column, length in ruled:
        item = out.items[start + line]
        inner = item.draw

        def draw(
            cr: cairocffi.Context,
            px: float,
            py: float,
            inner: Draw = inner,
            column: int = column,
            length: int = length,
        ) -> None:
            inner(cr, px, py)
            draw_rule(
                cr, px + column * advance, py + under, length * advance, Block(border_bottom=rule)
            )

        item.draw = draw


def notation(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
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
            text = laid_out(html.escape(kept, quote=False), width, size, MONO)
            out.lines(text, size, x, width, plain, group)
            continue
        if child.tag != "div" or child.classes not in ((), ("muted",)):
            raise Unsupported("a notation line of another kind")
        markup = "".join(inline_markup(c) for c in child.children).replace(BREAK, "\n")
        if child.classes:
            markup = span(markup, foreground=MUTED)
        text = laid_out(markup, width, size, MONO)
        out.lines(text, size, x, width, ruled, group)


def dice(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
    """The dice of a battle (``.rolls``): bordered chips, wrapped in rows."""
    size = CHIP["size"]
    step = size * LINE_HEIGHT
    chips = []
    for child in elements(node, "dice"):
        if child.tag != "span":
            raise Unsupported(f"<{child.tag}> among dice")
        kill = "kill" in child.classes
        markup = collapse("".join(inline_markup(c) for c in child.children))
        text = laid_out(span(markup, bold=kill), 10_000, size, MONO)
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
        group = group or out.new_group()
    for number, row in enumerate(rows):
        height = step + 2 * max(chip[1] for chip in row) + CHIP["below"]

        def draw(cr: cairocffi.Context, px: float, py: float, row: Any = row) -> None:
            cx = px
            for text, border, outer, color in row:
                cr.set_source_rgb(*parse_color(color))
                cr.set_line_width(border)
                cr.rectangle(cx + border / 2, py + border / 2, outer - border, step + border)
                cr.stroke()
                line = text.lines[0]
                offset = (step - line.height) / 2 + line.baseline - line.top
                text.show_line(line, cx + border + CHIP["pad"], py + border + offset, cr)
                cx += outer + CHIP["gap"]

        keep = len(rows) >= 4 and number in (0, len(rows) - 2)
        out.add(Item(height, draw, x, keep_with_next=keep, group=group))


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
