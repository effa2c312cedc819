"""A report whose every section is set with Pango, put together without WeasyPrint.

Why: once the cover, the map pages and the chapters are set here (`refassist.typeset.flow`),
what WeasyPrint had left to do was to lay out a page of empty boxes per set page, and that
still took some 20% of a player's report (its fixed cost: the HTML, the stylesheet's
cascade, a page object per page; docs/benchmarks.md, issue 21).  When nothing else is left in
the body (`whole`), the report is put together here: on one cairo surface of A4 pages each
set page is drawn at the text area's corner, then the running heads
(`refassist.typeset.running`; last, so that a page's text reads from its title, as in
WeasyPrint's layout); the maps are stamped in their holes (before the heads of their pages),
and the PDF gets what WeasyPrint gave it: the outline of every heading and the map page's
named destination (written by cairo), the title, creator and language (`pdfinfo`).  The
stamps are appended to cairo's file (`pdfappend`); pypdf stamps only a file that is not
shaped as cairo writes (never seen; the way is kept so that a change in cairo costs speed,
not the report).

The pages are those of ``templates/base/report.css`` (A4, margins 13, 10, 14 and 10 mm):
`refassist.typeset.flow.usable` holds only for the project's own stylesheet and layout.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable, Sequence
from typing import Any

import cairocffi

from refassist.typeset.flow import hole_boxes
from refassist.typeset.flowhtml import parse
from refassist.typeset.flowpages import Chapter
from refassist.typeset.pageitems import MARGINS, PAGE, PAGE_HEIGHT, PAGE_WIDTH
from refassist.typeset.pdfappend import NotCairos, PdfPages, Stamp, append_stamps
from refassist.typeset.pdfinfo import with_info
from refassist.typeset.render import MapBox
from refassist.typeset.running import PageFrame, RunningWords, draw_heads, heads_pdf, running_words

_RUNNING = re.compile(r'<div class="running-[a-z]+"(?: hidden)?>[^<]*</div>')
_BOXES = re.compile(
    r'<section\b[^>]*>(?:<div data-map="flow:[^"]*" style="[^"]*">'
    r'(?:<div style="[^"]*"></div>)*</div>)+</section>'
)


#: A little of every font a report sets (regular, bold, italic, monospace, a drawing's
#: condensed face), a drawing (with a dashed line: cairo's dashes are the one C type a
#: drawing's first call had cffi parse) and a map box, for `warm`.
_WARM_UP = (
    "<h2>Warm <small>up</small></h2><p>Words <b>bold</b> <i>italic</i></p>"
    '<pre class="listing"><b>Head</b>\nrow</pre><div class="board-box">'
    '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10" '
    "font-family=\"'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif\"><rect width=\"5\" "
    'height="5" fill="#cccccc"/><line x1="0" y1="9" x2="9" y2="9" stroke="#111111" '
    'stroke-dasharray="2 1"/><text x="1" y="8" font-size="4" font-weight="bold">W</text>'
    '</svg></div><div class="map-box" data-map="warm" style="width: 10mm; height: 10mm"></div>'
)
_WARM_DOCUMENT = (
    '<html lang="en"><head><title>Warm</title></head><body><div class="running-title">Warm'
    '</div><div class="running-folio">up</div></body></html>'
)


#: Whether `warm` has run in this process (a list, so no ``global`` is needed to mark it).
_WARMED: list[bool] = []


def warm() -> None:
    """Put a one-page report together (words in every font, a drawing, a map stamped, the
    running heads) before the reports are shared among forked processes.  Each worker then
    finds what a first report sets up done already: the fonts found and loaded (fontconfig,
    Pango's font map), cffi's C declarations parsed.  A fresh worker's first small report
    took 0.45-0.87 s against 0.07-0.3 s once warm (profiled, docs/benchmarks.md).  Once a
    process: what it sets up stays (27 ms a report stage of a game played in one process,
    the demo's, saved)."""
    if _WARMED:
        return
    chapter = Chapter(parse(_WARM_UP), classes=("chapter", "map-page"))
    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, 10, 10)
    cairocffi.Context(surface).show_page()
    surface.finish()
    drawing = PdfPages(out.getvalue())
    compose(
        _WARM_DOCUMENT,
        {"warm": chapter},
        lambda holes: [Stamp(h.page, drawing, 0, h.x, h.y) for h in holes],
    )
    _WARMED.append(True)


def whole(document: str) -> bool:
    """Whether everything in the report's body was set with Pango (`flow.set_chapters` left
    only page boxes and the hidden running words)."""
    body = re.search(r"<body>(.*)</body>", document, re.S)
    if body is None:
        return False
    return not _BOXES.sub("", _RUNNING.sub("", body.group(1))).strip()


def compose(
    document: str,
    chapters: dict[str, Chapter],
    map_stamps: Callable[[list[MapBox]], list[Stamp]],
) -> bytes | None:
    """The report as PDF bytes from its set sections (in document order), or None when the
    template has no running words to draw (then WeasyPrint lays the report out).
    ``map_stamps`` makes the stamps of the map boxes it is given."""
    words = running_words(document)
    if words is None:
        return None
    top, _, _, left = MARGINS
    frames: list[PageFrame] = []
    # Each set page in a box at the text area's corner, as WeasyPrint would have laid out
    # the page boxes `flow.page_boxes_html` wrote.
    boxes: list[MapBox] = []
    for key, chapter in chapters.items():
        for number, height in enumerate(chapter.heights):
            boxes.append(MapBox(len(frames), f"{key}:{number}", left, top, PAGE_WIDTH, height))
            frames.append(PageFrame(*PAGE, *MARGINS, cover=chapter.cover))
    holes = hole_boxes(chapters, boxes)
    stamps = map_stamps(holes) if holes else []
    # The heads go over the maps, so a page with a map gets them stamped after it.
    later = sorted({s.page for s in stamps})
    if later:
        heads = PdfPages(heads_pdf(words, frames, later))
        stamps += [Stamp(page, heads, n, 0.0, 0.0) for n, page in enumerate(later)]

    pages = _pages(chapters, words, frames, set(later))
    info, language = _metadata(document)
    if not stamps:
        return with_info(pages, info, language)
    try:
        return with_info(append_stamps(pages, stamps), info, language)
    except NotCairos:
        return _stamped_by_pypdf(pages, stamps, info, language)


def _stamped_by_pypdf(
    pages: bytes, stamps: list[Stamp], info: dict[str, str], language: str | None
) -> bytes:
    """The stamps painted by pypdf, which reads any PDF (and rewrites it whole)."""
    from pypdf import PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    from refassist.typeset.stamp import stamp_pdf

    info["Producer"] = "refassist (Pango, cairo, pypdf)"

    def finish(writer: PdfWriter) -> None:
        writer.add_metadata({f"/{name}": value for name, value in info.items()})
        if language:
            writer._root_object[NameObject("/Lang")] = TextStringObject(language)

    return stamp_pdf(pages, stamps, finish=finish)


def _pages(
    chapters: dict[str, Chapter], words: RunningWords, frames: list[PageFrame], later: set[int]
) -> bytes:
    """The report's pages on one cairo surface: each set page drawn at the text area's
    corner and cut to it (as a stamped page was, by its box), then the running heads
    (`running.draw_heads`) but on the pages in ``later``.  Drawn in place rather than each
    chapter's PDF stamped: the stamps' copies of every chapter's fonts and resources were
    most of the time it took to put a small report together (docs/benchmarks.md)."""
    top, _, _, left = MARGINS
    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, *PAGE)
    context = cairocffi.Context(surface)
    index = 0
    firsts: list[int] = []
    for chapter in chapters.values():
        firsts.append(index)
        for number in range(len(chapter.heights)):
            if number == 0 and chapter.anchor:
                # The map page's named destination (`MAP_ANCHOR`), as WeasyPrint's id made it.
                name = chapter.anchor.replace("\\", "\\\\").replace("'", "\\'")
                context.tag_begin(cairocffi.TAG_DEST, f"name='{name}' x=0 y=0")
                context.tag_end(cairocffi.TAG_DEST)
            context.save()
            context.translate(left, top)
            context.rectangle(0, 0, PAGE_WIDTH, PAGE_HEIGHT)
            context.clip()
            chapter.draw_page(number, context)
            context.restore()
            if index not in later:
                draw_heads(context, words, frames, index)
            context.show_page()
            index += 1
    _outline(surface, list(chapters.values()), firsts)
    surface.finish()
    return out.getvalue()


def _outline(surface: Any, chapters: Sequence[Chapter], firsts: Sequence[int]) -> None:
    """Every heading in the outline, nested by level (h1 over h2 ...), as WeasyPrint nests
    its ``bookmark-level``s; each opens its page at the heading."""
    top, _, _, left = MARGINS
    parents: list[tuple[int, int]] = []
    for chapter, first in zip(chapters, firsts, strict=True):
        for page, y, level, label in chapter.bookmarks:
            while parents and parents[-1][0] >= level:
                parents.pop()
            item = surface.add_outline(
                parents[-1][1] if parents else cairocffi.PDF_OUTLINE_ROOT,
                label,
                f"page={first + page + 1} pos=[{left:.2f} {top + y:.2f}]",
                cairocffi.PDF_OUTLINE_FLAG_OPEN,
            )
            parents.append((level, item))


def _metadata(document: str) -> tuple[dict[str, str], str | None]:
    """The title and the generator of the HTML's head, and its language."""
    title = re.search(r"<title>(.*?)</title>", document, re.S)
    creator = re.search(r'<meta name="generator" content="([^"]*)">', document)
    info = {"Producer": "refassist (Pango, cairo)"}
    if title:
        info["Title"] = html.unescape(title.group(1).strip())
    if creator:
        info["Creator"] = html.unescape(creator.group(1))
    language = re.search(r'<html lang="([^"]*)">', document)
    return info, html.unescape(language.group(1)) if language else None
