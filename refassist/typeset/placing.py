"""A chapter's items placed on pages, as WeasyPrint would place their blocks.

Why a module of its own: where a page breaks is the part of setting a chapter that decides
most and draws nothing - margins collapsing, frames sliced at page ends, groups and headings
kept with what follows - and it reads only the items' sizes and flags (`pageitems`), never
the HTML or the words they came from.  `paginate` is a function of the items alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refassist.typeset.pageitems import PAGE_HEIGHT, Frame, Hole, Item

#: What may stick out at a page's foot: a table row's lower half-border (collapsed borders
#: are shared between rows, and WeasyPrint lets the last row's half reach past the page).
_SLACK = 0.2

#: A frame's slice on one page: (frame, top, bottom, opens here, closes here).
Slice = tuple[Frame, float, float, bool, bool]


@dataclass
class Placement:
    """Where a chapter's items went: each page's items with their tops, each page's slices
    of frames, each page's height used, the map holes and the outline's entries."""

    pages: list[list[tuple[Item, float]]] = field(default_factory=list)
    slices: dict[int, list[Slice]] = field(default_factory=dict)
    heights: list[float] = field(default_factory=list)
    holes: list[Hole] = field(default_factory=list)
    #: (page, y, level, label) of each heading.
    bookmarks: list[tuple[int, float, int, str]] = field(default_factory=list)


def paginate(items: list[Item], headings: dict[int, tuple[int, str]]) -> Placement:
    """Place every item: top to bottom, margins collapsing as CSS's do (not through a
    frame's border or padding), a page broken before an item that does not fit, before a
    group that would fit on a page of its own, and before a heading whose next item would
    not follow it; margins at the top of a page are dropped.  ``headings`` gives the outline
    entry (level, label) of the items that start a heading, by index."""
    done = Placement()
    placed: list[list[tuple[Item, float]]] = [[]]
    spans: list[tuple[int, Frame, float, float, bool]] = []  # page, frame, top, bottom, closes
    starts: dict[int, float] = {}
    open_frames: list[Frame] = []
    y = pending = 0.0
    for i, item in enumerate(items):
        frames = list(item.frames)
        common = 0
        while common < min(len(open_frames), len(frames)) and open_frames[common] is frames[common]:
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
            pieces.append(opening[n + 1].margin_top if n + 1 < len(opening) else item.margin_top)
        starts_group = item.group == 0 or i == 0 or items[i - 1].group != item.group
        wanted = _kept(items, i) if starts_group or item.keep_with_next else item.height
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
            done.heights.append(y)
            y, pieces[0] = 0.0, 0.0
        y += pieces[0]
        for n, frame in enumerate(opening):
            starts[id(frame)] = y
            y += pieces[1 + 2 * n] + pieces[2 + 2 * n]
        open_frames = frames
        placed[-1].append((item, y))
        if item.hole is not None:
            key, box_width = item.hole
            done.holes.append(Hole(key, len(placed) - 1, item.x, y, box_width, item.height))
        if i in headings:
            level, label = headings[i]
            done.bookmarks.append((len(placed) - 1, y, level, label))
        y += item.height
        pending = item.margin_bottom
    for frame in reversed(open_frames):
        y += pending + frame.pad_bottom
        spans.append((len(placed) - 1, frame, starts.pop(id(frame)), y, True))
        pending = frame.margin_bottom
    done.heights.append(y)
    done.pages, done.slices = placed, _slices(spans)
    return done


def _kept(items: list[Item], start: int) -> float:
    """Height from item ``start`` to the end of its group and of what it keeps with."""
    total = items[start].height
    k = start
    while k + 1 < len(items) and (
        items[k].keep_with_next or (items[start].group and items[k + 1].group == items[start].group)
    ):
        k += 1
        total += max(items[k - 1].margin_bottom, items[k].margin_top) + items[k].height
        if total > PAGE_HEIGHT:
            break
    return total


def _slices(spans: list[tuple[int, Frame, float, float, bool]]) -> dict[int, list[Slice]]:
    """Each page's slices of frames from the spans placed (page, frame, top, bottom, closes):
    a frame opens on the page of its first slice."""
    seen: set[int] = set()
    by_page: dict[int, list[Slice]] = {}
    for page, frame, top, bottom, closes in spans:
        opens = id(frame) not in seen
        seen.add(id(frame))
        by_page.setdefault(page, []).append((frame, top, bottom, opens, closes))
    return by_page
