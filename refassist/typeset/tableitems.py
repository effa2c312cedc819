"""Tables set with Pango: a ``table.compact`` or ``table.contents`` row by row, and the
cover's ``.standing`` row of big values over their labels.

Why a module of its own: a table is the one block whose width is shared out before anything
is set - each column measured at its natural and its least width, then sized as CSS's
automatic table layout sizes it (`shared_widths`) - and whose rows carry their own rules;
none of that is needed to set running words, so it is kept apart from them.
"""

from __future__ import annotations

from typing import Any

import cairocffi

from refassist.drawings.drawing import parse_color
from refassist.typeset.flowhtml import (
    LINE_HEIGHT,
    MONO,
    MUTED,
    STANDING,
    TABLE_MARGINS,
    TABLES,
    Node,
    Unsupported,
    collapse,
    inline_markup,
    span,
)
from refassist.typeset.itemlist import ItemList, elements
from refassist.typeset.laidout import laid_out
from refassist.typeset.pageitems import Item


def table(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
    """A ``table.compact`` or ``table.contents``: columns sized like CSS's automatic
    table layout (each its widest line, spare width shared in proportion), one item per
    row; ``.num`` cells aligned right, a ``.total`` row bold under a dark rule; a compact
    table's rows ruled under, a contents table's not."""
    kinds = [name for name in node.classes if name in TABLES]
    if len(kinds) != 1 or len(node.classes) != 1:
        raise Unsupported("a table of another kind")
    size, head_size, pad_x, pad_y, ruled = TABLES[kinds[0]]
    rows: list[tuple[bool, list[tuple[str, bool, str]]]] = []
    for tr in elements(node, "a table"):
        if tr.tag != "tr":
            raise Unsupported("a table row of another kind")
        total = "total" in tr.classes
        cells = []
        for cell in elements(tr, "a table row"):
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
            text = laid_out(markup, None, z)
            natural[i] = max(natural[i], text.width + 2 * pad_x)
            words = laid_out(markup, 0.0, z, words_only=True)
            least[i] = max(least[i], words.width + 2 * pad_x)
    widths = shared_widths(natural, width, least)
    first_index = len(out.items)
    for number, (_, cells) in enumerate(rows):
        sizes = [head_size if heading else size for _, heading, _ in cells]
        texts = [
            laid_out(m, w - 2 * pad_x, z, align=align)
            for (m, _, align), w, z in zip(cells, widths, sizes, strict=True)
        ]
        head = cells[0][1]
        dark = head or (number + 1 < len(rows) and rows[number + 1][0])
        rule = (0.7 if dark else 0.3) if ruled else 0.0
        lines = max(len(t.lines) * z for t, z in zip(texts, sizes, strict=True))
        height = 2 * pad_y + lines * LINE_HEIGHT + rule

        def draw(
            cr: cairocffi.Context,
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
                    text.show_line(line, cx + pad_x, y + offset, cr)
                    y += step
                cx += w
            if rule:
                cr.set_source_rgb(*parse_color("#333333" if dark else "#cccccc"))
                cr.set_line_width(rule)
                cr.move_to(px, py + height - rule / 2)
                cr.line_to(px + sum(widths), py + height - rule / 2)
                cr.stroke()

        out.add(Item(height, draw, x, keep_with_next=head, group=0))
    out.margins(first_index, *TABLE_MARGINS)


def shared_widths(
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


def standing(out: ItemList, node: Node, x: float, width: float, group: int) -> None:
    """The cover's ``.standing``: a row of cells as wide as the page, each a big value
    over its label, centred, between two rules (a CSS table of one row)."""
    margin, border, color, pad_y, pad_x = STANDING
    cells = []
    for cell in elements(node, "a standing row"):
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
            laid_out(span(value, size=15, bold=True), None, 15).width,
            laid_out(label, None, 9).width,
        )
        + 2 * pad_x
        for value, label in cells
    ]
    if sum(natural) > width:
        raise Unsupported("a standing row wider than the page")
    widths = shared_widths(natural, width)
    laid = []
    inner = 0.0
    for (value, label), w in zip(cells, widths, strict=True):
        top = laid_out(span(value, size=15, bold=True), w - 2 * pad_x, 15, align="center")
        bottom = laid_out(label, w - 2 * pad_x, 9, align="center") if label else None
        height = (len(top.lines) if value else 0) * 15 * LINE_HEIGHT
        height += len(bottom.lines) * 9 * LINE_HEIGHT if bottom else 0.0
        laid.append((top if value else None, bottom, w))
        inner = max(inner, height)
    total = 2 * border + 2 * pad_y + inner
    # A line of small letters in a 9 pt block sits on the block's baseline (CSS's strut),
    # lower than if it were centred in the line on its own.
    strut = laid_out("x", None, 9).lines[0]
    below = (9 * LINE_HEIGHT - strut.height) / 2 + strut.baseline - strut.top

    def draw(cr: cairocffi.Context, px: float, py: float) -> None:
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
                    text.show_line(line, cx + pad_x, y + offset, cr)
                    y += step
            cx += w
        cr.set_source_rgb(*parse_color(color))
        cr.set_line_width(border)
        for edge in (py + border / 2, py + total - border / 2):
            cr.move_to(px, edge)
            cr.line_to(px + width, edge)
        cr.stroke()

    out.add(Item(total, draw, x, margin, margin, group=group or out.new_group()))
