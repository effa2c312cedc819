"""Chapters of running text set with Pango (`refassist.report.flow`) instead of WeasyPrint: the
same words in the same order and places, the same outline, page breaks that keep events whole,
player text kept as text, and WeasyPrint again for anything outside the subset."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from refassist.report import build, flow
from refassist.report.build import RenderSettings, render_report
from refassist.report.game_reports import gather_input
from refassist.report.render import project_templates, template_dirs
from tests.test_report_content import report_game

pytestmark = pytest.mark.skipif(not flow.pango_available(), reason="PangoCairo is missing")


def _ann_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, set_by_pango: bool) -> bytes:
    game, state = report_game(tmp_path / ("pango" if set_by_pango else "weasy") / "game")
    info = gather_input(game, state, ["Ann"])
    content = game.ruleset.report_content(state, "Ann", info)
    settings = RenderSettings(tuple(template_dirs(game.path)), game.ruleset.report_map(state))
    chapters: list[str] = []
    real = flow.set_chapters

    def counted(document: str) -> tuple[str, dict[str, bytes]]:
        html, pages = real(document)
        chapters.extend(pages)
        return html, pages

    monkeypatch.setattr(flow, "set_chapters", counted)
    monkeypatch.setattr(flow, "usable", lambda dirs: set_by_pango)
    pdf, refused = render_report(content, build.common_context(info), settings)
    assert refused == []
    assert len(chapters) == (1 if set_by_pango else 0)
    return pdf


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
    assert [line[3] for line in a] == [line[3] for line in b]
    chapter = next(line[0] for line in a if line[3].startswith("What happened in"))
    # On the chapter's first page, every line within a point of where WeasyPrint put it.
    on_page = [(x, y) for x, y in zip(a, b, strict=True) if x[0] == chapter]
    assert len(on_page) > 5
    for x, y in on_page:
        assert y[0] == chapter
        assert abs(x[1] - y[1]) <= 1.0 and abs(x[2] - y[2]) <= 1.0, (x, y)
    assert _outline(weasy) == _outline(pango)
    assert any(title.startswith("What happened in") for title, _ in _outline(pango))


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
    _start, inner, end = next(flow.find_chapters(section))
    return flow.Chapter(flow.parse(section[inner : end - len("</section>")]))


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
        "<ul><li>a list</li></ul>",
        '<p style="color: red">styled</p>',
        '<div class="unknown">a class report.css does not know here</div>',
        '<p><img src="x.png"></p>',
        "<table><tr><td>not compact</td></tr></table>",
        '<div class="event"><span class="kind">open',
    ],
)
def test_html_outside_the_subset_is_left_to_weasyprint(inner: str) -> None:
    document = f'<body><section class="chapter" data-flow="x">{inner}</section></body>'
    assert flow.set_chapters(document) == (document, {})


def test_a_chapter_that_follows_on_a_page_is_left_to_weasyprint() -> None:
    document = _events(3).replace('class="chapter"', 'class="chapter follow"')
    assert flow.set_chapters(document) == (document, {})


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
