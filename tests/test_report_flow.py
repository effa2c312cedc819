"""Chapters of running text set with Pango (`refassist.typeset.flow`) instead of WeasyPrint: the
same words in the same order and places, the same outline, page breaks that keep events whole,
player text kept as text, and WeasyPrint again for anything outside the subset."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import jinja2
import pdfplumber
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from refassist.archive.chart import standings_svg
from refassist.drawings.boarddraw import board_pages
from refassist.drawings.netdraw import network_pages
from refassist.report import build
from refassist.report.build import RenderSettings, render_report
from refassist.report.game_reports import gather_input
from refassist.rulesets import RULESETS, find_ruleset
from refassist.rulesets.base import ReportInput
from refassist.typeset import flow, pango
from refassist.typeset.fetcher import SafeFetcher
from refassist.typeset.flowhtml import PAGE_BREAK, inline_markup
from refassist.typeset.render import layout, project_templates, template_dirs
from tests.conftest import in_new_interpreter
from tests.golden_game import play_states
from tests.test_report_content import report_game

#: Tops of text lines between the running heads and feet (13 mm and 14 mm margins of A4).
HEAD, FOOT = 36.0, 800.0

# PangoCairo is installed by scripts/test: these tests run everywhere CI does, never skipped.


def _ann_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, set_by_pango: bool) -> bytes:
    game, state = report_game(tmp_path / ("pango" if set_by_pango else "weasy") / "game")
    info = gather_input(game, state, ["Ann"])
    content = game.ruleset.report_content(state, "Ann", info)
    settings = RenderSettings(tuple(template_dirs(game.path)), game.ruleset.report_map(state))
    chapters: list[str] = []
    real = flow.set_chapters

    def counted(document: str) -> tuple[str, dict[str, flow.Chapter]]:
        html, pages = real(document)
        chapters.extend(pages)
        return html, pages

    monkeypatch.setattr(flow, "set_chapters", counted)
    monkeypatch.setattr(flow, "usable", lambda dirs: set_by_pango)
    # A fixed time in the running footer: the two renders compared may straddle a minute.
    common = {**build.common_context(info), "generated": "2026-01-01 12:00 UTC"}
    pdf, refused = render_report(content, common, settings)
    assert refused == []
    # The cover, the map pages (the sector and each subsector Ann sees into) and the three
    # chapters that start a page.
    maps = 1 + len(content.overlay.subsectors) if content.overlay is not None else 0
    assert maps >= 2
    assert len(chapters) == (1 + maps + 3 if set_by_pango else 0)
    return pdf


def ann_without_pypdf(game: Path) -> str:
    """Code for a new interpreter, which has imported nothing yet: the small report game in
    ``game``, Ann's report's content and settings, and pypdf barred from then on (the tests'
    own modules import it, so any import of it fails rather than being looked for)."""
    return (
        "import sys\n"
        "from pathlib import Path\n"
        "from refassist.report import build\n"
        "from refassist.report.game_reports import gather_input\n"
        "from refassist.typeset.render import template_dirs\n"
        "from tests.test_report_content import report_game\n"
        f"game, state = report_game(Path({str(game)!r}))\n"
        "info = gather_input(game, state, ['Ann'])\n"
        "content = game.ruleset.report_content(state, 'Ann', info)\n"
        "sys.modules['pypdf'] = None\n"
        "dirs = tuple(template_dirs(game.path))\n"
        "settings = build.RenderSettings(dirs, game.ruleset.report_map(state))\n"
    )


def test_a_report_set_with_pango_never_imports_weasyprint(tmp_path: Path) -> None:
    """Importing WeasyPrint takes about 0.7 s, most of a small game's `refassist report`, whose
    reports are all set with Pango: it is imported only for a report it lays out (checked in
    a new interpreter, which has imported nothing yet).  Nor is pypdf (0.1 s): the maps are
    appended to cairo's file (`pdfappend`)."""
    code = ann_without_pypdf(tmp_path / "game") + (
        "pdf, refused = build.render_report(content, build.common_context(info), settings)\n"
        "print(len(pdf) > 10_000, refused, 'weasyprint' in sys.modules)\n"
    )
    done = in_new_interpreter(code)
    assert done.stdout.split() == ["True", "[]", "False"], done.stderr[-2000:]


def _letters(text: str) -> str:
    """A line's letters without its spaces: WeasyPrint leaves the space between two inline
    elements (``<b>From Bob</b> <span>to Ann</span>``) out of its PDF's text, and a PDF
    reader then reads "Bobto"; Pango writes the space."""
    return "".join(text.split())


def _lines(pdf: bytes) -> list[tuple[int, float, float, str]]:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return [
            (n, round(line["top"], 1), round(line["x0"], 1), line["text"])
            for n, page in enumerate(document.pages)
            for line in page.extract_text_lines()
        ]


def _outline(pdf: bytes) -> list[tuple[str, int]]:
    reader = PdfReader(io.BytesIO(pdf))
    found: list[tuple[str, int]] = []

    def walk(items: list) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                found.append((item.title, reader.get_destination_page_number(item)))

    walk(reader.outline)
    return found


def test_the_events_chapter_reads_and_sits_as_weasyprint_set_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    weasy = _ann_report(tmp_path, monkeypatch, set_by_pango=False)
    pango = _ann_report(tmp_path, monkeypatch, set_by_pango=True)
    a, b = _lines(weasy), _lines(pango)
    assert [_letters(line[3]) for line in a] == [_letters(line[3]) for line in b]
    chapter = next(line[0] for line in a if line[3].startswith("What happened in"))
    # On the chapter's first page, every line within a point of where WeasyPrint put it.
    on_page = [(x, y) for x, y in zip(a, b, strict=True) if x[0] == chapter]
    assert len(on_page) > 5
    for x, y in on_page:
        assert y[0] == chapter
        assert abs(x[1] - y[1]) <= 1.0 and abs(x[2] - y[2]) <= 1.0, (x, y)
    # So does every line of the cover.
    cover = [(x, y) for x, y in zip(a, b, strict=True) if x[0] == 0]
    assert len(cover) > 10
    for x, y in cover:
        assert y[0] == 0 and abs(x[1] - y[1]) <= 1.0 and abs(x[2] - y[2]) <= 1.0, (x, y)
    assert _outline(weasy) == _outline(pango)
    assert any(title.startswith("What happened in") for title, _ in _outline(pango))


def test_map_pages_set_here_keep_their_maps_where_weasyprint_put_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A map page (``section.map-page``: its title and the empty map box) set with Pango: each
    map is stamped on the same page at the same place as in WeasyPrint's layout, and the
    page keeps its PDF anchor."""
    found: dict[bool, list[tuple[int, str, float, float, float, float]]] = {}
    real = build.map_stamps
    for by_pango in (False, True):

        def record(public, overlay, boxes, base, by_pango: bool = by_pango):  # type: ignore[no-untyped-def]
            found[by_pango] = [
                (b.page, b.key, round(b.x, 1), round(b.y, 1), round(b.width, 1), round(b.height, 1))
                for b in boxes
            ]
            return real(public, overlay, boxes, base)

        monkeypatch.setattr(build, "map_stamps", record)
        pdf = _ann_report(tmp_path / str(by_pango), monkeypatch, set_by_pango=by_pango)
        assert "map" in PdfReader(io.BytesIO(pdf)).named_destinations
    assert len(found[True]) >= 2  # the sector and at least one subsector
    assert found[True] == found[False]


def test_a_report_put_together_here_draws_its_pages_in_place_with_each_font_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without WeasyPrint, the set pages and the running heads are drawn on the report's own
    pages: a page without a map paints no stamped page, and every page's words use the same
    embedded fonts (a chapter stamped as a page of its own PDF brought its own copy of every
    font it used).  Only the maps are stamped, into their boxes, with the heads over them."""
    pdf = _ann_report(tmp_path, monkeypatch, set_by_pango=True)
    reader = PdfReader(io.BytesIO(pdf))
    fonts: dict[str, set[int]] = {}
    stamped = []
    for number, page in enumerate(reader.pages):
        resources = page["/Resources"]
        xobjects = resources.get("/XObject", {})
        if xobjects:
            stamped.append(number)
        for ref in resources.get("/Font", {}).values():
            name = str(ref.get_object()["/BaseFont"]).split("+")[-1]
            fonts.setdefault(name, set()).add(ref.idnum)
    # The map pages (the sector and each subsector Ann sees into, consecutive after the
    # cover) carry their maps and heads; no other page paints one.
    assert len(stamped) >= 2 and stamped == list(range(1, 1 + len(stamped)))
    assert "map" in reader.named_destinations
    assert {"DejaVuSans", "DejaVuSans-Bold"} <= set(fonts)
    assert all(len(objects) == 1 for objects in fonts.values()), fonts
    text = reader.pages[stamped[0]].extract_text()
    assert "Ann" in text and "page" in text.lower()


def _weasyprint(section: str) -> bytes:
    """``section`` laid out by WeasyPrint alone with report.css, as a report page."""
    css = (project_templates() / "base" / "report.css").read_text()
    dirs = [project_templates()]
    document = f"<html><head><style>{css}</style></head><body>{section}</body></html>"
    return bytes(layout(document, dirs[0], SafeFetcher(dirs)).write_pdf())


def _text_lines(pdf: bytes, dx: float, dy: float) -> list[tuple[float, float, str]]:
    """The first page's lines of text (top, left, words), moved by (-dx, -dy), top to bottom."""
    with pdfplumber.open(io.BytesIO(pdf)) as opened:
        found = opened.pages[0].extract_text_lines()
    return sorted((line["top"] - dy, line["x0"] - dx, line["text"]) for line in found)


def _events(count: int, text: str = "Fleet {n} arrived.") -> str:
    rows = "".join(
        f'<div class="event"><span class="kind">arrival</span> <span class="where">{n:04d} '
        f"Somewhere</span><div>{text.format(n=n)}</div></div>"
        for n in range(count)
    )
    return (
        '<section class="chapter" data-flow="events"><h2>What happened</h2>'
        f'<h3>Arrivals</h3>{rows}<h3>Afterwards</h3><p class="muted">Nothing else.</p>'
        "</section>"
    )


def _chapter(section: str) -> flow.Chapter:
    start, inner, end = next(flow.find_chapters(section))
    classes = re.search(r'class="([^"]*)"', section[start:inner])
    return flow.Chapter(
        flow.parse(section[inner : end - len("</section>")]),
        classes=tuple(classes.group(1).split()) if classes else ("chapter",),
    )


def test_a_long_chapter_breaks_between_events_and_its_headings_stay_in_the_outline() -> None:
    chapter = _chapter(_events(150))
    assert len(chapter.heights) >= 3
    assert all(0 < h <= flow.PAGE_HEIGHT for h in chapter.heights)
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as pdf:
        pages = [page.extract_text() for page in pdf.pages]
    assert len(pages) == len(chapter.heights)
    for n in range(150):
        # Each event's two lines on one page: never split.
        holding = [i for i, text in enumerate(pages) if f"{n:04d} Somewhere" in text]
        assert len(holding) == 1
        assert f"Fleet {n} arrived." in pages[holding[0]]
    labels = [(level, label) for _, _, level, label in chapter.bookmarks]
    assert labels == [(2, "What happened"), (3, "Arrivals"), (3, "Afterwards")]
    assert chapter.bookmarks[-1][0] == len(pages) - 1
    # The last box is as tall as what it holds, so the next section may follow on its page.
    html, found = flow.set_chapters(_events(150))
    boxes = re.findall(r'data-map="(flow:0:\d+)" style="[^"]*height: ([\d.]+)pt', html)
    assert [key for key, _ in boxes] == [f"flow:0:{i}" for i in range(len(pages))]
    assert float(boxes[-1][1]) == pytest.approx(chapter.heights[-1], abs=0.01)
    assert list(found) == ["flow:0"]


def test_a_block_marked_to_break_before_starts_a_page() -> None:
    """The Full Thrust referee's battles for the table, a page each (``style="break-before:
    page"``, the one style a block may carry), are set with Pango: the first right after
    the chapter's heading, each other at the top of a page of its own."""
    battles = "".join(
        f'<div class="event battle"{"" if n == 0 else f" style={PAGE_BREAK!r}"}>'
        f'<span class="kind">battle B{n}</span> <span class="where">Place {n}</span>'
        f"<div>Waiting for the result from the tabletop.</div></div>"
        for n in range(3)
    )
    chapter = _chapter(
        f'<section class="chapter" data-flow="chapter"><h2>Battles</h2>{battles}</section>'
    )
    assert len(chapter.heights) == 3
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as pdf:
        pages = [page.extract_text() for page in pdf.pages]
    assert pages[0].startswith("Battles\nBATTLE B0 Place 0")
    assert [page.split("\n")[0] for page in pages[1:]] == ["BATTLE B1 Place 1", "BATTLE B2 Place 2"]
    # Any other style still leaves the chapter to WeasyPrint.
    with pytest.raises(flow.Unsupported):
        flow.parse('<div class="event battle" style="break-before: always">x</div>')


def test_player_text_stays_text() -> None:
    hostile = (
        "&lt;/span&gt;&lt;span size=&quot;900000&quot;&gt;big &amp; bold&lt;b&gt; "
        "&#x3C;i&#x3E; Ünïcødé ✓"
    )
    chapter = _chapter(_events(2, text=hostile))
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as pdf:
        text = pdf.pages[0].extract_text()
        sizes = {round(c["size"], 1) for c in pdf.pages[0].chars}
    assert '</span><span size="900000">big & bold<b> <i> Ünïcødé ✓' in text
    assert max(sizes) <= 13.0
    # No ligature glyphs: "fl" stays two letters for every PDF reader's search.
    plain = PdfReader(io.BytesIO(_chapter(_events(1, "the fleet fled")).pdf())).pages[0]
    assert "the fleet fled" in plain.extract_text()


@pytest.mark.parametrize(
    "inner",
    [
        "<ol><li>a numbered list</li></ol>",
        '<p style="color: red">styled</p>',
        '<div class="unknown">a class report.css does not know here</div>',
        '<p><img src="x.png"></p>',
        "<table><tr><td>not compact</td></tr></table>",
        '<div class="event"><span class="kind">open',
        "<p>an <u>underlined</u> word</p>",
        '<div class="standing"><div>a cell without value or label</div></div>',
        '<div class="standing"><div><span class="value">1</span></div>text between</div>',
        '<table class="contents"><tr><th>a header row, unruled</th></tr></table>',
        '<table class="compact contents"><tr><td>two kinds</td></tr></table>',
        '<div class="map-box" data-map="sector" style="width: 10mm; height: 10mm; color: red">'
        "</div>",
        '<div class="map-box" data-map="sector" style="width: 10mm; height: 10mm">a</div>',
        '<div class="map-box" style="width: 10mm; height: 10mm"></div>',
        '<div data-map="sector" style="width: 10mm; height: 10mm"></div>',
        '<div class="rolls"><span>1 vs 5-6 miss</span> and text between <span>6</span></div>',
        '<table class="compact"><tr><td>a</td>text in a row</tr></table>',
        '<pre class="listing"><b>Head\nover two lines</b>\n</pre>',
        '<pre class="listing"><b>Head <i>styled</i></b>\n</pre>',
    ],
)
def test_html_outside_the_subset_is_left_to_weasyprint(inner: str) -> None:
    document = f'<body><section class="chapter" data-flow="x">{inner}</section></body>'
    assert flow.set_chapters(document) == (document, {})


def test_a_chapter_that_follows_on_a_page_is_left_to_weasyprint() -> None:
    document = _events(3).replace('class="chapter"', 'class="chapter follow"')
    assert flow.set_chapters(document) == (document, {})


MESSAGES = (
    '<h2>Messages received</h2><div class="message"><b>From Bob</b> <span class="muted">to Ann,'
    ' 5021</span><div class="body">Hello   Ann,\n  we should talk.\n'
    + "A long line of words that goes on past the width of the page " * 2
    + "\nAWordWithoutAnySpace"
    + "X" * 120
    + '</div></div><div class="message"><b>From Cleo</b> <span class="muted">to Ann, 5021'
    '</span><div class="body">Short.\n</div></div>'
    '<h2>Orders</h2><h4>Ann</h4><div class="notation lines"><div>5001 - F1</div>'
    '<div class="muted">no orders on the sheet</div></div><p class="muted">no sheet</p>'
)


def test_follow_chapters_go_on_from_the_last_page_of_the_chapter_before_them() -> None:
    """``section.chapter.follow`` after a set chapter is set with it, 6 mm below it: messages
    in their boxes with the sender's spaces and line breaks, a long word broken without a
    hyphen, muted notation lines; every line where WeasyPrint puts it."""
    document = (
        '<section class="chapter" data-flow="x"><h2>Chapter</h2><p>One line.</p>'
        '<pre class="listing"><b>A    B</b>\nx    y\n</pre></section>\n  '
        f'<section class="chapter follow">{MESSAGES}</section>'
    )
    html, pages = flow.set_chapters(document)
    assert "follow" not in html and list(pages) == ["flow:0"]
    theirs = _text_lines(_weasyprint(document), 10 * flow.MM, 13 * flow.MM)
    ours = _text_lines(pages["flow:0"].pdf(), 0, 0)
    # WeasyPrint leaves the space after "From Bob" out of the PDF's text; it is here.
    assert [t.replace(" ", "") for *_, t in ours] == [t.replace(" ", "") for *_, t in theirs]
    for a, b in zip(theirs, ours, strict=True):
        assert abs(a[0] - b[0]) <= 1.0 and abs(a[1] - b[1]) <= 1.0, (a, b)
    texts = [t for *_, t in ours]
    assert "we should talk." in texts and "Messages received" in texts
    assert not any(t.endswith(("-", "\u2010")) for t in texts)
    indent = {t: x for _, x, t in ours}
    assert indent["we should talk."] - indent["Hello Ann,"] > 4  # two spaces kept


def test_a_message_is_never_split_between_pages() -> None:
    messages = "".join(
        f'<div class="message"><b>From P{n}</b> to Ann, 5021<div class="body">'
        f"first line of {n}\nsecond line\nlast line of {n}</div></div>"
        for n in range(60)
    )
    chapter = _chapter(
        f'<section class="chapter" data-flow="m"><h2>Messages</h2>{messages}</section>'
    )
    assert len(chapter.heights) > 1
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as pdf:
        pages = [page.extract_text() for page in pdf.pages]
    for n in range(60):
        where = [i for i, text in enumerate(pages) if f"From P{n} " in text]
        assert where and f"last line of {n}" in pages[where[0]], n


def test_a_follow_chapter_outside_the_subset_leaves_the_chapter_before_it_set_alone() -> None:
    follow = '<section class="chapter follow"><h2>Odd</h2><ol><li>a list</li></ol></section>'
    document = _events(2) + follow
    html, pages = flow.set_chapters(document)
    assert list(pages) == ["flow:0"] and html.endswith(follow)


def test_a_game_overriding_the_stylesheet_keeps_weasyprint(tmp_path: Path) -> None:
    project = project_templates()
    assert flow.usable([project])
    (tmp_path / "base").mkdir()
    assert flow.usable([tmp_path, project])
    (tmp_path / "base" / "report.css").write_text("html { font-size: 14pt; }")
    assert not flow.usable([tmp_path, project])


def test_a_battle_box_split_over_pages_keeps_every_line_in_order() -> None:
    rounds = "".join(
        f"<h4>Round {n}</h4><p>Combat values: Ann {n}, Bob 1.</p>"
        f'<div class="rolls"><span>Ann Fast: {n % 6 + 1} vs 5-6 miss</span>'
        f'<span class="kill">Bob Fleet: 6 vs 5-6 KILL</span></div>'
        for n in range(1, 60)
    )
    battle = (
        '<div class="battle"><h4>Battle at 0101 Home</h4><p>A long battle.</p>'
        '<table class="compact"><tr><th>Side</th><th>Forces</th></tr>'
        '<tr><td>Ann</td><td class="mono">F3 S0 A0</td></tr></table>'
        f"{rounds}</div>"
    )
    chapter = _chapter(f'<section class="chapter" data-flow="e"><h2>War</h2>{battle}</section>')
    assert len(chapter.heights) >= 2
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as pdf:
        words = " ".join(page.extract_text() for page in pdf.pages)
    found = [int(m) for m in re.findall(r"Round (\d+)", words)]
    assert found == list(range(1, 60))
    assert words.count("KILL") == 59


def _words(pdf: bytes) -> str:
    """The letters of the pages' text in order, without the running heads (pages may break
    elsewhere) and spaces (`_letters`)."""
    return "".join(_letters(line[3]) for line in _lines(pdf) if HEAD < line[1] < FOOT)


def _same_words(weasy: bytes, pango: bytes) -> bool:
    """The same letters in the same order; or, where a drawing's words overlap (a stack of
    counters on a board: their letters a hundredth of a point apart), the same lines of the
    same letters, which a PDF reader may take in either order within the line."""
    if _words(weasy) == _words(pango):
        return True
    a, b = ([line for line in _lines(pdf) if HEAD < line[1] < FOOT] for pdf in (weasy, pango))
    return len(a) == len(b) and all(
        x[0] == y[0] and sorted(_letters(x[3])) == sorted(_letters(y[3]))
        for x, y in zip(a, b, strict=True)
    )


@pytest.mark.parametrize("name", [ruleset.name for ruleset in RULESETS])
def test_every_games_reports_read_the_same_with_their_chapters_set_by_pango(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game's golden game, half-way: every reader's report (the referee's too) has the
    same words and outline with its chapters set here as with WeasyPrint alone, and on the
    first page of each set chapter the lines sit where WeasyPrint put them."""
    ruleset = find_ruleset(name)
    states = list(play_states(name))
    step, state = states[len(states) // 2]
    readers = [*ruleset.players(state), None]
    info = ReportInput(step=step, deadline="next Sunday", house_rules=ruleset.default_house_rules())
    public = ruleset.report_map(state)
    settings = RenderSettings(tuple(template_dirs(None)), public)
    common = build.common_context(info)
    set_chapters = 0
    real = flow.set_chapters

    def counted(document: str) -> tuple[str, dict[str, flow.Chapter]]:
        nonlocal set_chapters
        html, pages = real(document)
        set_chapters += len(pages)
        return html, pages

    monkeypatch.setattr(flow, "set_chapters", counted)
    for reader in readers:
        content = ruleset.report_content(state, reader, info, public)
        monkeypatch.setattr(flow, "usable", lambda dirs: False)
        weasy, _ = render_report(content, common, settings)
        monkeypatch.setattr(flow, "usable", lambda dirs: True)
        pango, _ = render_report(content, common, settings)
        assert _same_words(weasy, pango), reader
        # Every part of every report is in the subset: WeasyPrint lays none of it out.
        assert PdfReader(io.BytesIO(pango)).metadata.producer == "refassist (Pango, cairo)", reader
        assert [t for t, _ in _outline(weasy)] == [t for t, _ in _outline(pango)], reader
        a, b = _lines(weasy), _lines(pango)
        for title, page in _outline(pango):
            if page != next((p for t, p in _outline(weasy) if t == title), None):
                continue
            here_a = [line for line in a if line[0] == page]
            here_b = [line for line in b if line[0] == page]
            if [_letters(line[3]) for line in here_a] != [_letters(line[3]) for line in here_b]:
                continue
            for x, y in zip(here_a, here_b, strict=True):
                assert abs(x[1] - y[1]) <= 1.0 and abs(x[2] - y[2]) <= 1.0, (reader, x, y)
    # Every game but one whose templates mark no chapter has chapters set.
    marked = any(
        "data-flow" in path.read_text() for path in (project_templates() / name).glob("*.html")
    )
    assert (set_chapters > 0) == marked


def _both_ways(section: str) -> tuple[list[dict], list[dict], flow.Chapter]:
    """Words of ``section`` laid out by WeasyPrint in a report page (made relative to the page's
    text area) and as set here, and the chapter set here."""
    weasy = _weasyprint(section)
    chapter = _chapter(section)
    with pdfplumber.open(io.BytesIO(weasy)) as pdf:
        a = [
            {**w, "top": w["top"] - 13 * flow.MM, "x0": w["x0"] - 10 * flow.MM}
            for w in pdf.pages[0].extract_words()
        ]
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as pdf:
        b = pdf.pages[0].extract_words(extra_attrs=["fontname"])
    return a, b, chapter


@pytest.mark.parametrize(
    "body",
    [
        # A ledger: numbers aligned right, a total row in bold under a dark rule.
        '<table class="compact"><tr><th>Income</th><th class="num">Points</th></tr>'
        '<tr><td>0101 Home: class A</td><td class="num">5</td></tr>'
        '<tr><td>0102 Far: class C</td><td class="num">13</td></tr>'
        '<tr class="total"><td>Income</td><td class="num">18</td></tr></table>'
        '<p class="note">Income was blocked by a blockade.</p><p>After.</p>',
        # A listing with its header, and one that wraps.
        '<pre class="listing"><b>Where      Fleet    Also</b>\n0101 Home  F3 S0    naval base\n'
        "0102 Far   F1       -\n</pre>"
        '<pre class="listing events"><b>arrival</b> 0101: '
        + "a long line of words " * 12
        + "\n  <i>told to: Ann</i>\n</pre>",
        # A bulleted list: items indented, the bullet outside on the first line, a long item
        # wrapped under its first word.
        '<h3>Moves</h3><ul class="events"><li>Fleet A jumps to <b>C4</b> now.</li><li>'
        + "A long line of what happened, "
        + "and so on " * 14
        + "</li></ul><p>After the list.</p>",
        # A plain table (``table.listing``): headings 8 pt over cells of 9 pt, and columns
        # too wide together shrunk towards their longest words, none broken inside.
        '<table class="listing"><tr><th>Round</th><th>Fire</th><th>Attack:defence</th>'
        "<th>Modifier</th><th>Result</th></tr><tr><td>1</td><td>defensive</td>"
        "<td>12:4 (3)</td><td>+1 (ambush at close range by the escorts)</td><td>destroyed"
        "</td></tr><tr><td>2</td><td>offensive</td><td>9:9 (1)</td><td>0</td><td>"
        + "no effect on the target whatsoever " * 3
        + "</td></tr></table><p>After the table.</p>",
        # Notation lines, white space kept.
        '<h3>Your systems <small>2</small></h3><div class="notation lines">\n'
        "<div>0101 Home A N  G0 O0 - F3 - 7  + Bob F1</div><div>0102 Far C - 3</div>\n  </div>"
        '<p class="muted">None.</p>',
    ],
)
def test_blocks_sit_where_weasyprint_puts_them(body: str) -> None:
    section = f'<section class="chapter" data-flow="t"><h2>Chapter</h2>{body}</section>'
    a, b, _ = _both_ways(section)
    assert [w["text"] for w in a] == [w["text"] for w in b]
    for x, y in zip(a, b, strict=True):
        assert abs(x["top"] - y["top"]) <= 1.0 and abs(x["x0"] - y["x0"]) <= 1.0, (x, y)
    bold = {w["text"] for w in b if "Bold" in w.get("fontname", "")}
    assert {"Income", "18"} <= bold or "Income" not in {w["text"] for w in b}


COVER = """
  <div class="game">Solomani 5022 · Fifth Millennium · Solomani Rim</div>
  <h1>Turn report for Ann</h1>
  <p class="deadline">Year <b>5021</b> resolved. Orders for <b>5022</b> due by next Sunday.</p>
  <div class="alert">Your homeworld Terra was lost in 5020.</div>
  <div class="standing">
    <div><span class="value">12</span><span class="label">systems</span></div>
    <div><span class="value">45</span><span class="label">income last turn</span></div>
    <div><span class="value">TL3</span><span class="label">tech level</span></div>
    <div><span class="value">4</span><span class="label">fleets in flight (+1 probes)</span></div>
    <div><span class="value">12/56</span><span class="label">for victory (of 110)</span></div>
  </div>
  <p><b>Standing:</b> 12 systems, income 45, TL3; 12 of the 56 systems needed for victory.</p>
  <h3>In this report</h3>
  <table class="contents">
    <tr><td>Maps</td><td>the sector and 3 subsector pages</td></tr>
    <tr><td>What happened</td><td>14 events, 2 messages</td></tr>
  </table>
  <p class="muted dice"><b>Dice of 5021:</b> rolled from the seed <b>abcdef0123456789</b>, whose
  SHA-256 is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, the commitment
  published before the deadline. To check a seed: <i>printf %s SEED | sha256sum</i> must print
  the commitment.</p>
"""


def test_a_cover_sits_where_weasyprint_puts_it() -> None:
    """The cover (``section.cover``): the game line, the title 14 mm down, the deadline, an
    alert box, the standing row (values over labels, centred in their cells, between two
    rules), a contents table and the dice note with its italic command, line by line within a
    point of WeasyPrint's."""
    section = f'<section class="cover" style="page: cover" data-flow="cover">{COVER}</section>'
    weasy = _weasyprint(section)
    chapter = _chapter(section)

    def ours_rules(pdf: bytes) -> list[float]:
        """Middles of the page-wide rules drawn here (the alert's and the standing row's)."""
        with pdfplumber.open(io.BytesIO(pdf)) as document:
            page = document.pages[0]
            found = {
                round((r["top"] + r["bottom"]) / 2, 1)
                for r in page.lines + page.rects + page.curves
                if r["x1"] - r["x0"] > 500 and r["bottom"] - r["top"] < 2
            }
        return sorted(found)

    def theirs_rules(pdf: bytes) -> list[float]:
        """WeasyPrint fills a box's border as the difference of its outer and inner
        rectangles: the top and bottom rules lie between the two."""
        with pdfplumber.open(io.BytesIO(pdf)) as document:
            boxes = sorted({(r["top"], r["bottom"]) for r in document.pages[0].rects})
        found = set()
        for top, bottom in boxes:
            inner = [(t, b) for t, b in boxes if top < t and b < bottom]
            if inner:
                t, b = min(inner)
                found |= {round((top + t) / 2 - 13 * flow.MM, 1)}
                found |= {round((b + bottom) / 2 - 13 * flow.MM, 1)}
        return sorted(found)

    theirs = _text_lines(weasy, 10 * flow.MM, 13 * flow.MM)
    ours = _text_lines(chapter.pdf(), 0, 0)
    assert [t for _, _, t in ours] == [t for _, _, t in theirs]
    for a, b in zip(theirs, ours, strict=True):
        assert abs(a[0] - b[0]) <= 1.0 and abs(a[1] - b[1]) <= 1.0, (a, b)
    assert any(t == "Turn report for Ann" and top > 14 * flow.MM for top, _, t in ours)
    assert len(ours_rules(chapter.pdf())) == 4
    assert ours_rules(chapter.pdf()) == pytest.approx(theirs_rules(weasy), abs=0.3)
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as document:
        words = document.pages[0].extract_words(extra_attrs=["fontname"])
    italic = {w["text"] for w in words if "Oblique" in w["fontname"]}
    assert italic == {"printf", "%s", "SEED", "|", "sha256sum"}
    assert [title for *_, title in chapter.bookmarks] == ["Turn report for Ann", "In this report"]


def test_a_listing_header_is_ruled_under_its_words_and_spaces_as_weasyprint_rules_it() -> None:
    section = (
        '<section class="chapter" data-flow="t"><pre class="listing"><b>Where      Fleet     '
        "</b>\n0101 Home  F3\n</pre></section>"
    )
    chapter = _chapter(section)

    def rule(pdf: bytes, dx: float, dy: float) -> tuple[float, float, float]:
        """Left, right and bottom of the one rule drawn (WeasyPrint fills a border as the
        difference of two rectangles: the lower bottom is the rule's)."""
        with pdfplumber.open(io.BytesIO(pdf)) as document:
            page = document.pages[0]
            found = {
                (round(r["x0"] - dx, 1), round(r["x1"] - dx, 1), round(r["bottom"] - dy, 1))
                for r in page.lines + page.rects + page.curves
                if r["top"] > dy
            }
        assert {(left, right) for left, right, _ in found} == {min(found)[:2]}, found
        return max(found, key=lambda r: r[2])

    weasy = _weasyprint(section)
    ours = rule(chapter.pdf(), 0, 0)
    theirs = rule(weasy, 10 * flow.MM, 13 * flow.MM)
    assert ours == pytest.approx(theirs, abs=0.3)
    assert ours[1] - ours[0] > 20 * 4.5  # the 21 letters and spaces of the header


def test_bold_words_inside_a_listing_are_ruled_under_as_weasyprint_rules_them() -> None:
    """A ledger: a total line, a header half-way down and a bold number inside the last
    line, each ruled under its own letters (``pre.listing b``), where WeasyPrint rules them."""
    section = (
        '<section class="chapter" data-flow="t"><pre class="listing">0101 Home: class A      5\n'
        "<b>Income                   18</b>\n<b>Purchase  Where  Qty</b>\nFleet     0101     2\n"
        "Stockpile: 3 before production, <b>21</b> after.</pre></section>"
    )

    def rules(pdf: bytes, dx: float, dy: float) -> list[tuple[float, float, float]]:
        """Left, right and bottom of each rule (WeasyPrint fills a border as the difference
        of two rectangles: the lower bottom is the rule's; ours is a line 0.6 pt wide)."""
        found: dict[tuple[float, float], float] = {}
        with pdfplumber.open(io.BytesIO(pdf)) as document:
            page = document.pages[0]
            for r in page.lines + page.rects + page.curves:
                if r["top"] > dy:
                    key = (round(r["x0"] - dx, 1), round(r["x1"] - dx, 1))
                    bottom = r["bottom"] - dy + (0.3 if r in page.lines else 0.0)
                    found[key] = max(found.get(key, 0.0), bottom)
        return sorted((left, right, bottom) for (left, right), bottom in found.items())

    ours = rules(_chapter(section).pdf(), 0, 0)
    theirs = rules(_weasyprint(section), 10 * flow.MM, 13 * flow.MM)
    assert len(ours) == 3
    for a, b in zip(ours, theirs, strict=True):
        assert a == pytest.approx(b, abs=0.3)
    with pdfplumber.open(io.BytesIO(_chapter(section).pdf())) as document:
        bold = [c["text"] for c in document.pages[0].chars if "Bold" in c["fontname"]]
    assert _letters("".join(bold)) == "Income18PurchaseWhereQty21"


def test_headings_with_quotes_keep_their_words_in_the_outline() -> None:
    title = 'Bob\'s "Fleet" & <Co> \\ 5021'
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    section = f'<section class="chapter" data-flow="t"><h2>{escaped}</h2><p>Text.</p></section>'
    html, pages = flow.set_chapters(f"<html><body>{section}</body></html>")
    assert pages
    dirs = [project_templates()]
    pdf = layout(html, dirs[0], SafeFetcher(dirs)).write_pdf()
    assert _outline(pdf) == [(title, 0)]


def test_without_pangocairo_every_chapter_is_weasyprints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A machine whose PangoCairo cannot be opened writes the same report, all by WeasyPrint."""
    assert flow.pango_available()
    monkeypatch.setattr(pango, "_libraries", lambda: None)
    assert not flow.pango_available()
    assert not flow.usable([project_templates()])
    game, state = report_game(tmp_path / "game")
    info = gather_input(game, state, ["Ann"])
    content = game.ruleset.report_content(state, "Ann", info)
    settings = RenderSettings(tuple(template_dirs(game.path)), game.ruleset.report_map(state))
    monkeypatch.setattr(flow, "set_chapters", lambda document: pytest.fail("set without Pango"))
    pdf, refused = render_report(content, build.common_context(info), settings)
    assert refused == []
    assert any(line[3].startswith("What happened in") for line in _lines(pdf))


# --- Pages of one SVG drawing: boards and maps of places ------------------------------------


def _drawing_page(page: dict[str, object], kind: str) -> str:
    """The map page ``templates/base/netmap.html`` makes of ``page``."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(project_templates()), autoescape=True)
    macro = env.from_string(
        '{% from "base/netmap.html" import svg_map_page %}{{ svg_map_page(page, kind) }}'
    )
    return macro.render(page=page, kind=kind)


def _chars(pdf: bytes, dx: float = 0.0, dy: float = 0.0) -> list[tuple[str, float, float]]:
    """The first page's letters (no spaces) and where they start, moved by (-dx, -dy)."""
    with pdfplumber.open(io.BytesIO(pdf)) as opened:
        chars = opened.pages[0].chars
    return [(c["text"], c["x0"] - dx, c["top"] - dy) for c in chars if c["text"].strip()]


def _letters_where_weasyprint_put_them(section: str, chapter: flow.Chapter, least: int) -> None:
    """Every letter of the chapter set here (more than ``least``) where WeasyPrint put the
    same letter, to half a point, one for one."""
    weasy = _chars(_weasyprint(section), 10 * flow.MM, 13 * flow.MM)
    here = _chars(chapter.pdf())
    assert len(here) == len(weasy) > least
    unmatched = list(weasy)
    for letter, x, y in here:
        match = next(
            (
                c
                for c in unmatched
                if c[0] == letter and abs(c[1] - x) <= 0.5 and abs(c[2] - y) <= 0.5
            ),
            None,
        )
        assert match is not None, (letter, x, y)
        unmatched.remove(match)


def _board_page() -> str:
    from tests.test_boardmap import board

    wide = board(cols=12, rows=8, notes=("Enemy units are shown only where you see them.",))
    return _drawing_page(board_pages(wide)[0], "board")


def _network_page() -> str:
    from tests.test_netmap import sample

    return _drawing_page(network_pages(sample())[0], "net")


@pytest.mark.parametrize("page", [_board_page, _network_page], ids=["board", "network"])
def test_a_drawing_page_sits_where_weasyprint_puts_it(page: Callable[[], str]) -> None:
    """A board or a map of places, its legend (items side by side, wrapping as CSS wraps
    them, swatches centred on the words) and notes: every letter set here where WeasyPrint
    put it, to half a point, the drawing's words among them."""
    section = page()
    chapter = _chapter(section)
    assert len(chapter.heights) == 1
    _letters_where_weasyprint_put_them(section, chapter, 100)


def test_the_standings_chart_is_set_at_the_pages_width_as_weasyprint_sets_it() -> None:
    """The referee's last page: the chart stretched to the page's width (``width: 100%;
    height: auto``), its slanted turn labels and its legend's names where WeasyPrint put
    every letter, a player's name escaped."""
    names = ["Ann", "Bob", "Cleo <&>", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo"]
    points = [(str(5000 + i), {n: (i * k) % 13 for k, n in enumerate(names)}) for i in range(12)]
    svg = standings_svg(points, "systems held", title="")
    section = (
        '<section class="standings-page" data-flow="chart"><h2>Standings over the game</h2>'
        f'<div class="chart">{svg}</div></section>'
    )
    chapter = _chapter(section)
    drawing = chapter.items[-1]
    assert drawing.height == pytest.approx(flow.PAGE_WIDTH * 344 / 760)
    _letters_where_weasyprint_put_them(section, chapter, 150)
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as pdf:
        assert "Cleo <&>: 9" in pdf.pages[0].extract_text()


def test_drawn_words_keep_their_spaces_and_stay_escaped() -> None:
    """A drawing's words are one run of text each with its spaces (a reader copying "Far
    Reach" gets it, and a search finds it), and a hostile name is only words."""
    from tests.test_netmap import HOSTILE, sample

    section = _drawing_page(network_pages(sample(HOSTILE))[0], "net")
    with pdfplumber.open(io.BytesIO(_chapter(section).pdf())) as pdf:
        text = pdf.pages[0].extract_text()
    assert "Far Reach" in text and "Red League (R)" in text
    assert HOSTILE in text


def test_a_drawings_shapes_and_words_are_painted_in_their_order() -> None:
    """Words drawn before a shape are under it (the stacked counter covers the one below):
    the page is painted in the drawing's order, not shapes first and words over them."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20">'
        '<text x="2" y="12" font-size="10" fill="#000000">HIDDEN</text>'
        '<rect x="0" y="0" width="40" height="20" fill="#ff0000"/></svg>'
    )
    section = _drawing_page({"title": "T", "svg": svg, "legend": [], "notes": []}, "board")
    chapter = _chapter(section)
    page = pdfium.PdfDocument(chapter.pdf())[0]
    image = page.render(scale=2).to_pil().convert("RGB")
    # Where the word is (the drawing's box, below the title), every pixel is the red.
    y = next(y for item, y in _placed(chapter) if item is chapter.items[-1])
    colours = image.crop((4, round((y + 1) * 2), 100, round((y + 15) * 2))).getcolors()
    assert [colour for _, colour in colours] == [(255, 0, 0)], colours
    with pdfplumber.open(io.BytesIO(chapter.pdf())) as pdf:
        assert "HIDDEN" in pdf.pages[0].extract_text()


@pytest.mark.parametrize(
    "svg",
    [
        # Text with an element inside it, or an attribute this module does not draw.
        '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
        '<text x="1" y="5">a <tspan>b</tspan></text></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
        '<text x="1" y="5" transform="rotate(30)">a</text></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
        '<text x="1" y="5" fill="url(#p)">a</text></svg>',
        # No size, or sized in a unit not read here.
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" '
        'height="5"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="2in" height="1in" viewBox="0 0 10 10">'
        "</svg>",
        # Not SVG, or not well formed.
        '<svg width="10mm" height="10mm" viewBox="0 0 10 10"><rect width="5" height="5"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
        "<rect></svg>",
    ],
)
def test_drawings_outside_the_subset_are_left_to_weasyprint(svg: str) -> None:
    document = (
        '<body><section class="map-page board-page" data-flow="map"><h2>T</h2>'
        f'<div class="board-box">{svg}</div></section></body>'
    )
    assert flow.set_chapters(document) == (document, {})


def _placed(chapter: flow.Chapter) -> list[tuple[object, float]]:
    """Each item of a one-page chapter and its top, as the chapter placed them."""
    y, pending, found = 0.0, 0.0, []
    for item in chapter.items:
        y += max(pending, item.margin_top)
        found.append((item, y))
        y += item.height
        pending = item.margin_bottom
    return found


class _Forgetful(dict):  # type: ignore[type-arg]
    """A `laidout._LAID_OUT` that keeps nothing: every text laid out where it is set."""

    def __setitem__(self, key: object, value: object) -> None:
        pass


def test_texts_laid_out_for_earlier_reports_set_the_same_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's report with every text laid out anew, and again after Ann's and his own were
    set (so all his texts come from `laidout._LAID_OUT`, laid out on the measuring context
    for other chapters): the same words at the same places and the same pixels."""
    from refassist.typeset import laidout

    game, state = report_game(tmp_path / "game")
    info = gather_input(game, state, ["Ann", "Bob"])
    settings = RenderSettings(tuple(template_dirs(game.path)), game.ruleset.report_map(state))
    common = {**build.common_context(info), "generated": "2026-01-01 12:00 UTC"}

    def bob() -> bytes:
        content = game.ruleset.report_content(state, "Bob", info)
        return render_report(content, common, settings)[0]

    with monkeypatch.context() as patched:
        patched.setattr(laidout, "_LAID_OUT", _Forgetful())
        alone = bob()
    laidout._LAID_OUT.clear()
    bob()
    ann = game.ruleset.report_content(state, "Ann", info)
    render_report(ann, common, settings)
    laid_out = len(laidout._LAID_OUT)
    again = bob()
    assert len(laidout._LAID_OUT) == laid_out  # nothing new to lay out for Bob
    assert _lines(again) == _lines(alone)
    with pdfium.PdfDocument(alone) as one, pdfium.PdfDocument(again) as other:
        assert len(one) == len(other) >= 5
        for a, b in zip(one, other, strict=True):
            assert a.render(scale=0.5).to_pil().tobytes() == b.render(scale=0.5).to_pil().tobytes()


def test_a_text_is_laid_out_again_for_another_width_alignment_or_wrapping() -> None:
    """What `laidout._LAID_OUT` keeps a text by: the same words at another width, aligned
    otherwise or wrapped otherwise are another layout."""
    from refassist.typeset.laidout import laid_out

    words = "the fleet of the Imperator withdrew " * 4
    assert len(laid_out(words, 100, 9).lines) > len(laid_out(words, 300, 9).lines)
    assert laid_out("7", 80, 9, align="right").lines[0].left > 70
    assert laid_out("7", 80, 9).lines[0].left == 0
    long_word = "ArcturusBetelgeuseCanopus"
    assert len(laid_out(long_word, 30, 9).lines) > 1  # broken inside the word
    assert len(laid_out(long_word, 30, 9, words_only=True).lines) == 1


def test_the_referees_cover_with_badges_is_set_with_pango(tmp_path: Path) -> None:
    """A computer player's and an eliminated player's badges (report.css's shaded tags) are
    set with Pango: the Fifth Millennium referee's cover, which every game with a computer
    player or a player out has, sent the whole report to WeasyPrint (0.7 s of importing it,
    and its layout)."""
    game, state = report_game(tmp_path / "game")
    info = gather_input(game, state, state.player_names())
    content = game.ruleset.report_content(state, None, info)
    summary = content.context["summary"]
    summary[0]["computer"] = True
    summary[1]["eliminated"] = 5003
    settings = RenderSettings(tuple(template_dirs(game.path)), game.ruleset.report_map(state))
    pdf, refused = render_report(content, build.common_context(info), settings)
    assert refused == []
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.metadata.producer == "refassist (Pango, cairo)"
    # The badge's shading has a no-break space's padding each side (words split as ever).
    cover = " ".join(reader.pages[0].extract_text().split())
    assert f"{summary[0]['name']} computer" in cover
    assert "eliminated 5003" in cover


def test_a_badge_stays_on_one_line_and_its_markup_whole() -> None:
    """A badge's words are joined by no-break spaces (report.css's ``inline-block``), the
    spaces inside a tag within it left as they are, so Pango still reads the markup."""
    node = flow.parse('<p>Ann <span class="badge">out <b>since 5020</b></span></p>')
    markup = "".join(inline_markup(c) for c in node.children[0].children)
    assert markup == (
        'Ann <span background="#e4e4e4" size="7168">\xa0out\xa0'
        '<span weight="bold">since\xa05020</span>\xa0</span>'
    )
