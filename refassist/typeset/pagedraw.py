"""A placed chapter page drawn on cairo: the frames' slices first, then the items.

Why a module of its own: drawing is the last step of setting a chapter and the only one that
touches a cairo context; it reads where `placing` put things and asks each item to draw
itself, so the same page is drawn on the chapter's own PDF or in place on a report's page
(`refassist.typeset.flowdoc`).  The rules and frames that items and boxes share are drawn
here too, so a border is stroked one way everywhere.
"""

from __future__ import annotations

import cairocffi

from refassist.drawings.drawing import parse_color
from refassist.typeset.flowhtml import Block
from refassist.typeset.pageitems import Frame
from refassist.typeset.placing import Placement


def draw_page(placement: Placement, number: int, cr: cairocffi.Context) -> None:
    """Page ``number`` of a placed chapter on ``cr``, its top left corner at the context's
    origin: the frames (battle boxes, note rules) under the items they hold."""
    for frame, top, bottom, opens, closes in placement.slices.get(number, []):
        draw_frame(cr, frame, top, bottom, opens, closes)
    for item, top in placement.pages[number]:
        item.draw(cr, item.x, top)


def draw_frame(
    cr: cairocffi.Context, frame: Frame, top: float, bottom: float, opens: bool, closes: bool
) -> None:
    """One page's slice of ``frame``: its sides from ``top`` to ``bottom``, its top edge on
    the page where it opens and its bottom edge where it closes (a rule beside a note has
    only its left side)."""
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


def draw_rule(cr: cairocffi.Context, x: float, y: float, width: float, style: Block) -> None:
    """A horizontal rule ``width`` long from (x, y), as thick and coloured as ``style``'s
    bottom border: under a heading, a notation line, a listing's bold words."""
    cr.set_source_rgb(*parse_color(style.border_color))
    cr.set_line_width(style.border_bottom)
    cr.move_to(x, y)
    cr.line_to(x + width, y)
    cr.stroke()
