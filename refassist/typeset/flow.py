"""Chapters of a report set with Pango, page by page, instead of WeasyPrint.

Why: WeasyPrint lays out a page of text box by box in Python; most of a report's time went to
its chapters of running text (what happened, forces, known systems), a few hundred small
blocks each.  Pango breaks the same lines in C in a fraction of the time.  A template marks
such a chapter ``<section class="chapter" data-flow="NAME">``; `render_report` (fast path)
calls `set_chapters`, which cuts each one out of the HTML, sets it on cairo PDF pages the size
of a page's text area (`refassist.typeset.flowpages`), and puts in its place one empty box per
page (`page_boxes_html`); WeasyPrint lays out the rest, and `chapter_stamps` paints the pages
into the boxes as the maps are painted.  The text stays real text (the fog-of-war audit reads
it), and every heading stays in the PDF's outline (the boxes carry ``bookmark-label``).  The
cover (``section.cover``) and the map pages (``section.map-page``, whose empty map box becomes
a `pageitems.Hole` placed by `hole_boxes`) are marked and set the same way, and the ``follow``
chapters right after a set chapter go with it; when nothing else is left, `flowdoc` puts the
report together without WeasyPrint.

The chapter's HTML stays the template's: `refassist.typeset.flowhtml` reads the subset of HTML
the project's templates use and mirrors the rules of ``templates/base/report.css`` for it.
Anything outside the subset (another element, class or attribute, an inline style) raises
`Unsupported`, and the chapter is left to WeasyPrint as before: a referee's template override
is never wrong here, only slower.  A game folder that overrides ``report.css`` or the layout
is not set here at all (`usable`), since its rules would not be mirrored.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from refassist.typeset.flowhtml import MM, Node, Unsupported, parse
from refassist.typeset.flowpages import Chapter
from refassist.typeset.pageitems import PAGE_HEIGHT, PAGE_WIDTH
from refassist.typeset.pango import available as pango_available
from refassist.typeset.pdfappend import PdfPages, Stamp
from refassist.typeset.render import MapBox

__all__ = [
    "KEY",
    "MM",
    "PAGE_HEIGHT",
    "PAGE_WIDTH",
    "Chapter",
    "Unsupported",
    "chapter_stamps",
    "find_chapters",
    "page_boxes_html",
    "pango_available",
    "parse",
    "set_chapters",
    "usable",
]

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


def _section_end(document: str, position: int) -> int:
    """The end of the section whose opening tag ends at ``position`` (-1 if unclosed)."""
    depth = 1
    while depth:
        opening = document.find("<section", position)
        closing = document.find("</section>", position)
        if closing < 0:
            return -1
        if 0 <= opening < closing:
            depth, position = depth + 1, opening + len("<section")
        else:
            depth, position = depth - 1, closing + len("</section>")
    return position


def find_chapters(document: str) -> Iterator[tuple[int, int, int]]:
    """(start, end of the opening tag, end) of each ``<section data-flow=...>``."""
    for match in _SECTION.finditer(document):
        end = _section_end(document, match.end())
        if end < 0:
            return
        yield match.start(), match.end(), end


_FOLLOW = re.compile(r'\s*<section class="chapter follow">')


def _follows(document: str, end: int) -> list[tuple[int, int]]:
    """(end of the opening tag, end) of each ``section.chapter.follow`` straight after
    ``end``: what continues on a chapter's last page."""
    found = []
    while match := _FOLLOW.match(document, end):
        close = _section_end(document, match.end())
        if close < 0:
            break
        found.append((match.end(), close))
        end = close
    return found


def _inner(document: str, inner: int, end: int) -> str:
    return document[inner : end - len("</section>")]


def _set(document: str, inner: int, end: int, classes: tuple[str, ...]) -> tuple[Chapter, int]:
    """The chapter of the section at ``inner`` with the ``follow`` sections after it, and
    where the last of them ends; without them when one of them is outside the subset."""
    root = parse(_inner(document, inner, end))
    follows = _follows(document, end)
    try:
        for start, close in follows:
            followed = parse(_inner(document, start, close))
            root.children.append(Node("section", ("chapter", "follow"), followed.children))
        return Chapter(root, classes=classes), (follows[-1][1] if follows else end)
    except Unsupported:
        if not follows:
            raise
    return Chapter(parse(_inner(document, inner, end)), classes=classes), end


def set_chapters(document: str) -> tuple[str, dict[str, Chapter]]:
    """The report's HTML with each chapter marked ``data-flow`` that this module can set
    replaced by its page boxes, and each set chapter by box key prefix.  The
    ``follow`` chapters right after a set chapter are set with it, on from its last page; a
    chapter that uses HTML outside the subset is left in the HTML as it was (and so are its
    ``follow`` chapters when one of them does)."""
    parts: list[str] = []
    pages: dict[str, Chapter] = {}
    done = 0
    for number, (start, inner, end) in enumerate(find_chapters(document)):
        if start < done:
            continue
        opening = document[start:inner]
        classes = re.search(r'class="([^"]*)"', opening)
        names = classes.group(1).split() if classes else []
        if not {"chapter", "cover", "map-page", "standings-page"} & set(names) or "follow" in names:
            continue
        try:
            chapter, end = _set(document, inner, end, tuple(names))
        except Unsupported:
            continue
        anchor = re.search(r'\bid="([^"]*)"', opening)
        chapter.anchor = html.unescape(anchor.group(1)) if anchor else None
        key = f"{KEY}{number}"
        parts += [document[done:start], page_boxes_html(key, chapter, opening)]
        pages[key] = chapter
        done = end
    parts.append(document[done:])
    return "".join(parts), pages


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def page_boxes_html(key: str, chapter: Chapter, section_tag: str) -> str:
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


def chapter_stamps(pages: dict[str, Chapter], boxes: Sequence[MapBox]) -> list[Stamp]:
    """Stamps that paint each set chapter's pages into their boxes (`render.map_boxes`)."""
    readers = {key: PdfPages(chapter.pdf()) for key, chapter in pages.items()}
    stamps = []
    for box in boxes:
        key, _, number = box.key.rpartition(":")
        if key in readers:
            stamps.append(Stamp(box.page, readers[key], int(number), box.x, box.y))
    return stamps


def hole_boxes(pages: dict[str, Chapter], boxes: Sequence[MapBox]) -> list[MapBox]:
    """The map boxes inside set chapters (map pages), placed on the report's pages: each
    where its chapter page's box was laid out."""
    found = []
    for box in boxes:
        key, _, number = box.key.rpartition(":")
        chapter = pages.get(key)
        if chapter is None:
            continue
        for hole in chapter.holes:
            if hole.page == int(number):
                x, y = box.x + hole.x, box.y + hole.y
                found.append(MapBox(box.page, hole.key, x, y, hole.width, hole.height))
    return found
