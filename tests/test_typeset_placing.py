"""A chapter's parts on their own (issue 54): items placed on pages without any HTML
(`refassist.typeset.placing`), and a placed page drawn on whatever context it is given
(`refassist.typeset.pagedraw`), frames under the items they hold.

`Chapter` (`refassist.typeset.flowpages`) puts these together; `tests/test_report_flow.py`
checks the whole against WeasyPrint.  Here each part is held to what it promises with items
of known sizes, so a change to where pages break shows up in numbers one can work out.
"""

from __future__ import annotations

import cairocffi
import pytest

from refassist.typeset.pagedraw import draw_page
from refassist.typeset.pageitems import PAGE_HEIGHT, Frame, Hole, Item
from refassist.typeset.placing import paginate


def _item(height: float, **rest: object) -> Item:
    return Item(height, lambda cr, x, y: None, **rest)  # type: ignore[arg-type]


def _tops(items: list[Item]) -> list[list[float]]:
    return [[top for _, top in page] for page in paginate(items, {}).pages]


def test_an_item_that_does_not_fit_starts_a_page() -> None:
    placed = paginate([_item(PAGE_HEIGHT - 10), _item(20)], {})
    assert [[top for _, top in page] for page in placed.pages] == [[0.0], [0.0]]
    assert placed.heights == [PAGE_HEIGHT - 10, 20]


def test_margins_collapse_and_none_is_kept_at_a_pages_top() -> None:
    """5 below and 8 above make 8 between; the 6 above an item that starts a page goes."""
    items = [
        _item(10, margin_bottom=5),
        _item(10, margin_top=8, margin_bottom=3),
        _item(PAGE_HEIGHT - 1, margin_top=6),
    ]
    assert _tops(items) == [[0.0, 18.0], [0.0]]


def test_a_group_that_fits_on_a_page_moves_whole() -> None:
    """Three lines of one paragraph (a group) do not leave one behind at a page's foot."""
    items = [_item(PAGE_HEIGHT - 150), *(_item(100, group=1) for _ in range(3))]
    assert _tops(items) == [[0.0], [0.0, 100.0, 200.0]]


def test_a_heading_goes_with_what_follows_it() -> None:
    items = [_item(PAGE_HEIGHT - 30), _item(20, keep_with_next=True), _item(20)]
    assert _tops(items) == [[0.0], [0.0, 20.0]]


def test_a_frame_is_sliced_where_the_page_breaks() -> None:
    """A box around two tall items: its top edge on the first page, its bottom edge on the
    second, its padding above the first item and below the last."""
    frame = Frame(0.0, 100.0, 1.0, "#000000", pad_top=2.0, pad_bottom=3.0)
    tall = 0.6 * PAGE_HEIGHT
    items = [_item(tall), _item(tall)]
    for item in items:
        item.frames = (frame,)
    placed = paginate(items, {})
    assert [[top for _, top in page] for page in placed.pages] == [[2.0], [0.0]]
    assert placed.slices == {
        0: [(frame, 0.0, pytest.approx(2.0 + tall), True, False)],
        1: [(frame, 0.0, pytest.approx(tall + 3.0), False, True)],
    }


def test_headings_and_map_holes_are_found_where_they_were_placed() -> None:
    items = [_item(PAGE_HEIGHT - 5), _item(12, margin_top=4), _item(80, x=7.0, hole=("map", 90))]
    placed = paginate(items, {1: (2, "Battles")})
    assert placed.bookmarks == [(1, 0.0, 2, "Battles")]
    assert placed.holes == [Hole("map", 1, 7.0, 12.0, 90, 80)]


def test_a_page_is_drawn_on_the_context_given_frames_under_items() -> None:
    """Each item draws on the context it is handed, at its x and top; the frame is drawn
    first, so an item painting over the frame's edge covers it."""
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, 60, 40)
    context = cairocffi.Context(surface)
    context.set_source_rgb(1, 1, 1)
    context.paint()
    calls: list[tuple[object, float, float]] = []

    def cover(cr: cairocffi.Context, x: float, y: float) -> None:
        calls.append((cr, x, y))
        cr.set_source_rgb(1, 0, 0)
        cr.rectangle(x, y, 20, 10)
        cr.fill()

    frame = Frame(4.0, 40.0, 4.0, "#0000ff", pad_top=4.0, pad_bottom=4.0)
    item = Item(10.0, cover, x=2.0, frames=(frame,))
    placed = paginate([item], {})
    draw_page(placed, 0, context)
    surface.flush()
    assert calls == [(context, 2.0, 4.0)]

    def pixel(x: int, y: int) -> tuple[int, int, int]:
        data = bytes(surface.get_data())
        offset = y * surface.get_stride() + x * 4
        blue, green, red = data[offset], data[offset + 1], data[offset + 2]
        return red, green, blue

    assert pixel(5, 8) == (255, 0, 0)  # the frame's left side, under the item
    assert pixel(5, 16) == (0, 0, 255)  # the frame's left side below the item
