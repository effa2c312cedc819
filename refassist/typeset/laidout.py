"""Texts laid out with Pango for a chapter, each once a process.

Why a module of its own: every builder of a chapter's items (`blockitems`, `lineitems`,
`tableitems`) measures and sets its words here, with the same font features, and what was
laid out for one chapter serves the next (`_LAID_OUT`): the cache outlives any chapter, so
it belongs to none.
"""

from __future__ import annotations

import cairocffi

from refassist.typeset.flowhtml import NO_LIGATURES, SANS, TEXT, span
from refassist.typeset.pageitems import PAGE_HEIGHT, PAGE_WIDTH
from refassist.typeset.pango import Text

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


def laid_out(
    markup: str,
    width: float | None,
    size: float,
    font: str = SANS,
    align: str = "left",
    color: str = TEXT,
    *,
    words_only: bool = False,
) -> Text:
    """``markup`` set in ``font`` at ``size`` points and ``color``, wrapped at ``width``
    (None: one line per line break), aligned; ``words_only`` breaks lines only between
    words (a table column's least width).  Laid out once a process (`_LAID_OUT`)."""
    markup = _markup(markup, size, font, color)
    key = (markup, width, align, words_only)
    text = _LAID_OUT.get(key)
    if text is None:
        if len(_LAID_OUT) >= LAID_OUT_MOST:
            del _LAID_OUT[next(iter(_LAID_OUT))]  # the oldest
        text = Text(_measuring(), markup, width, align, words_only=words_only)
        _LAID_OUT[key] = text
    return text


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
