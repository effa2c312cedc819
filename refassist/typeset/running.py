"""The running heads of a report's pages, drawn with cairo and stamped like the maps.

Every page but the cover carries the game and period (top left) and the reader (top right);
every page carries the refassist that wrote it (bottom left) and "page N of M" (bottom right).
As CSS margin boxes WeasyPrint laid out four small boxes on each page, which measured about a
tenth of a player's report (docs/benchmarks.md, issue 21); drawn here they cost a few
milliseconds and look the same: the same font, size, colour and place, with real text that
pypdf and pdfminer extract (they follow the stamp's form XObject, as they do for the maps).

The words still come from the template: `templates/base/layout.html` writes them into hidden
``running-*`` elements, so a game's template override and the reader's language decide them.
The page margins are read from the laid-out pages, so a game's stylesheet may change them; a
stylesheet that sets margin boxes of its own keeps them, and then none are drawn here.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import cairocffi as cairo

from refassist.typeset.pdfappend import PdfPages, Stamp
from refassist.typeset.render import PX_TO_PT

#: The hidden elements of `templates/base/layout.html` that hold the words.
CLASSES = ("running-title", "running-reader", "running-generated", "running-folio")
#: The page number and count in the folio's words (``page {page} of {pages}``).
PAGE, PAGES = "{page}", "{pages}"
FONT = "DejaVu Sans"
#: (size in points, grey) of the heads and of the generator line, as the stylesheet had them.
HEAD = (7.5, 0x55 / 255)
GENERATOR = (7.0, 0x77 / 255)
#: Least room between the title and the reader; a longer title is cut with an ellipsis.
GAP_PT = 8.0


@dataclass(frozen=True)
class RunningWords:
    """What the heads say, as the template wrote it."""

    title: str
    reader: str
    generated: str
    folio: str

    def page(self, number: int, count: int) -> str:
        return self.folio.replace(PAGE, str(number)).replace(PAGES, str(count))


@dataclass(frozen=True)
class PageFrame:
    """One laid-out page: its size and margins in points, and whether it is a cover (a page
    named ``cover`` in the stylesheet, which has no top heads)."""

    width: float
    height: float
    top: float
    right: float
    bottom: float
    left: float
    cover: bool


class _Collector(HTMLParser):
    """The text of the first element of each running class (they hold nothing but text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str] = {}
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        self._open = next((c for c in CLASSES if c in classes and c not in self.found), None)
        if self._open is not None:
            self.found[self._open] = ""

    def handle_endtag(self, tag: str) -> None:
        self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self.found[self._open] += data


def running_words(html: str) -> RunningWords | None:
    """The heads' words from the rendered HTML; None when the template has none of them (an
    override of the layout that drops the heads)."""
    collector = _Collector()
    # The elements stand at the top of the body: read up to the end of the last one rather
    # than the whole report (the whole of it where a template writes them otherwise).
    starts = [html.find(f'class="{name}"') for name in CLASSES]
    end = html.find(">", html.find("</", max(starts))) if min(starts) >= 0 else -1
    collector.feed(html[: end + 1] if end >= 0 else html)
    collector.close()
    found = {k: " ".join(v.split()) for k, v in collector.found.items()}
    if not any(found.values()):
        return None
    return RunningWords(
        found.get("running-title", ""),
        found.get("running-reader", ""),
        found.get("running-generated", ""),
        found.get("running-folio", ""),
    )


def page_frames(document: Any) -> list[PageFrame] | None:
    """Each page's frame from a laid-out WeasyPrint document; None when the stylesheet gives
    the pages margin boxes of their own (then WeasyPrint draws those heads)."""
    from weasyprint.formatting_structure.boxes import MarginBox

    frames = []
    for page in document.pages:
        box = page._page_box
        if any(isinstance(child, MarginBox) for child in box.children):
            return None
        frames.append(
            PageFrame(
                width=page.width * PX_TO_PT,
                height=page.height * PX_TO_PT,
                top=box.margin_top * PX_TO_PT,
                right=box.margin_right * PX_TO_PT,
                bottom=box.margin_bottom * PX_TO_PT,
                left=box.margin_left * PX_TO_PT,
                cover=box.page_type.name == "cover",
            )
        )
    return frames


def heads_pdf(
    words: RunningWords, frames: Sequence[PageFrame], pages: Sequence[int] | None = None
) -> bytes:
    """One PDF page per report page (or per index of ``pages``), each with that page's
    heads (`draw_heads`)."""
    out = io.BytesIO()
    surface = cairo.PDFSurface(out, frames[0].width, frames[0].height)
    try:
        for index in range(len(frames)) if pages is None else pages:
            surface.set_size(frames[index].width, frames[index].height)
            ctx = cairo.Context(surface)
            draw_heads(ctx, words, frames, index)
            ctx.show_page()
    finally:
        surface.finish()
    return out.getvalue()


def draw_heads(
    ctx: cairo.Context, words: RunningWords, frames: Sequence[PageFrame], index: int
) -> None:
    """The heads of page ``index`` (from 0) on ``ctx``, where the margin boxes put them: the
    text's line centred in the margin, left and right on the page's content edges."""
    frame = frames[index]
    ctx.save()
    ctx.select_font_face(FONT)
    if not frame.cover:
        _heads_line(ctx, frame, frame.top / 2, words.title, words.reader, HEAD, HEAD)
    middle = frame.height - frame.bottom / 2
    folio = words.page(index + 1, len(frames))
    _heads_line(ctx, frame, middle, words.generated, folio, GENERATOR, HEAD)
    ctx.restore()


def _heads_line(
    ctx: cairo.Context,
    frame: PageFrame,
    middle: float,
    left: str,
    right: str,
    left_style: tuple[float, float],
    right_style: tuple[float, float],
) -> None:
    """``left`` at the left content edge and ``right`` ending at the right one, each line
    centred on ``middle``; the left text is cut short rather than run into the right one."""
    room = frame.width - frame.left - frame.right
    right_width = _width(ctx, right, right_style[0]) if right else 0.0
    if right:
        _show(ctx, right, frame.width - frame.right - right_width, middle, right_style)
    if left:
        limit = room - right_width - (GAP_PT if right else 0.0)
        _show(ctx, _fitted(ctx, left, left_style[0], limit), frame.left, middle, left_style)


def _width(ctx: cairo.Context, text: str, size: float) -> float:
    ctx.set_font_size(size)
    return float(ctx.text_extents(text)[4])


def _fitted(ctx: cairo.Context, text: str, size: float, limit: float) -> str:
    """``text``, or as much of it as fits in ``limit`` points followed by an ellipsis."""
    if _width(ctx, text, size) <= limit:
        return text
    while text and _width(ctx, text + "…", size) > limit:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


def _show(
    ctx: cairo.Context, text: str, x: float, middle: float, style: tuple[float, float]
) -> None:
    size, grey = style
    ctx.set_font_size(size)
    ascent, descent = ctx.font_extents()[:2]
    ctx.set_source_rgb(grey, grey, grey)
    # The line box centred on ``middle``: its baseline half the ascent-descent difference below.
    ctx.move_to(x, middle + (ascent - descent) / 2)
    ctx.show_text(text)


def running_stamps(document: Any, html: str) -> list[Stamp]:
    """Stamps that draw the heads on every page of ``document`` (none when the template has
    no running words or the stylesheet draws its own)."""
    frames = page_frames(document)
    words = running_words(html) if frames else None
    if words is None or not frames:
        return []
    source = PdfPages(heads_pdf(words, frames))
    return [Stamp(i, source, i, 0.0, 0.0) for i in range(len(frames))]
