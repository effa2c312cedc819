"""The running heads of report pages, drawn by refassist (`refassist.typeset.running`) instead of
WeasyPrint's margin boxes: the same words in the same places, on real PDFs read back."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pdfplumber
from click.testing import CliRunner

from refassist import __version__
from refassist.cli import main
from refassist.report.build import RenderSettings, render_report
from refassist.typeset.render import project_templates
from refassist.typeset.running import PageFrame, RunningWords, heads_pdf, running_words
from tests.millenium.test_report import _content as millenium_content
from tests.test_report_content import YEAR, report_game

MM = 72 / 25.4
A4 = (595.276, 841.89)
#: Where WeasyPrint's margin boxes put the heads (measured on a report before the change):
#: text on the 10 mm side margins, each line centred in the 13 mm top and 14 mm bottom margins,
#: so the glyph boxes (pdfplumber's top and bottom) are these.
TOP_LINE = (15.29, 22.79)
BOTTOM_LINE = (818.91, 826.41)
GENERATOR_LINE = (819.12, 826.12)


def _margin_words(path: Path) -> list[list[dict]]:
    with pdfplumber.open(path) as pdf:
        return [
            [w for w in page.extract_words() if w["top"] < 13 * MM or w["top"] > A4[1] - 14 * MM]
            for page in pdf.pages
        ]


def _report(tmp_path: Path, css: str | None = None) -> tuple[Path, str]:
    game, _ = report_game(tmp_path / "game")
    if css is not None:
        (game.path / "templates" / "base").mkdir(parents=True)
        (game.path / "templates" / "base" / "report.css").write_text(css)
    result = CliRunner().invoke(main, ["report", str(game.path), "--quiet", "--player", "Ann"])
    assert result.exit_code == 0, result.output
    return game.outbox(str(YEAR)) / "Ann.pdf", game.config.name


def _near(value: float, expected: float) -> bool:
    return abs(value - expected) < 0.5


def test_every_page_has_its_heads_where_the_margin_boxes_had_them(tmp_path: Path) -> None:
    path, name = _report(tmp_path)
    pages = _margin_words(path)
    count = len(pages)
    assert count >= 3
    for number, words in enumerate(pages, 1):
        top = [w for w in words if w["top"] < 13 * MM]
        bottom = [w for w in words if w["top"] > A4[1] - 14 * MM]
        # The cover has no top heads; every other page names the game and period, and Ann.
        if number == 1:
            assert top == []
        else:
            text = " ".join(w["text"] for w in top)
            assert text == f"{name} · {YEAR} Ann", text
            assert _near(top[0]["x0"], 10 * MM) and _near(top[-1]["x1"], A4[0] - 10 * MM)
            assert all(_near(w["top"], TOP_LINE[0]) for w in top)
            assert all(_near(w["bottom"], TOP_LINE[1]) for w in top)
        folio = [w for w in bottom if w["x0"] > A4[0] / 2]
        assert all(_near(w["bottom"], BOTTOM_LINE[1]) for w in folio)
        assert " ".join(w["text"] for w in folio) == f"page {number} of {count}"
        assert _near(folio[-1]["x1"], A4[0] - 10 * MM)
        generator = [w for w in bottom if w["x0"] < A4[0] / 2]
        assert all(_near(w["bottom"], GENERATOR_LINE[1]) for w in generator)
        assert " ".join(w["text"] for w in generator).startswith(f"refassist {__version__} · ")
        assert _near(generator[0]["x0"], 10 * MM)


def test_a_stylesheet_with_margin_boxes_of_its_own_keeps_them(tmp_path: Path) -> None:
    """A game's report.css that sets its own heads gets those, and refassist draws none."""
    css = (project_templates() / "base" / "report.css").read_text()
    css += '\n@page { @top-center { content: "House rules edition"; } }\n'
    path, _ = _report(tmp_path, css)
    text = [" ".join(w["text"] for w in words) for words in _margin_words(path)]
    assert all("House rules edition" in t for t in text)
    assert not any("page 1 of" in t or "Ann" in t for t in text)


def test_a_stylesheet_copied_before_the_heads_were_drawn_still_works(tmp_path: Path) -> None:
    """A game's report.css copied from an earlier refassist: its margin boxes and string-set
    rules give the heads, once a page, and the folio's words never show in the text."""
    project = project_templates() / "base"
    css = (
        (project / "report.css")
        .read_text()
        .replace(
            ".running-title, .running-reader, .running-generated, .running-folio "
            "{ display: none; }",
            "",
        )
    )
    path, name = _report(tmp_path, css + (project / "running.css").read_text())
    pages = [" ".join(w["text"] for w in words) for words in _margin_words(path)]
    for number, text in enumerate(pages, 1):
        assert text.count(f"page {number} of {len(pages)}") == 1, text
    assert all(text.count(f"{name} · {YEAR}") == 1 for text in pages[1:])
    with pdfplumber.open(path) as pdf:
        assert not any("{page}" in (page.extract_text() or "") for page in pdf.pages)


def test_a_long_title_is_cut_short_of_the_reader() -> None:
    words = RunningWords(
        "A very long game name " * 12, "Reader", "refassist", "page {page} of {pages}"
    )
    frame = PageFrame(*A4, top=13 * MM, right=10 * MM, bottom=14 * MM, left=10 * MM, cover=False)
    with pdfplumber.open(io.BytesIO(heads_pdf(words, [frame, frame]))) as pdf:
        assert len(pdf.pages) == 2
        top = [w for w in pdf.pages[1].extract_words() if w["top"] < 13 * MM]
        bottom = " ".join(w["text"] for w in pdf.pages[1].extract_words() if w["top"] > 800)
    reader = next(w for w in top if w["text"] == "Reader")
    title = [w for w in top if w is not reader]
    assert title[-1]["text"].endswith("…")
    assert max(w["x1"] for w in title) < reader["x0"] - 6
    assert bottom == "refassist page 2 of 2"


def test_the_words_are_the_templates_unescaped() -> None:
    html = (
        '<div class="running-title">Sol &amp; Co · 5003</div><div class="running-reader">'
        '&lt;Zed&gt;</div><div class="running-generated">refassist 1 ·  now</div>'
        '<div class="running-folio">Seite {page} von {pages}</div><p>body</p>'
    )
    words = running_words(html)
    assert words == RunningWords(
        "Sol & Co · 5003", "<Zed>", "refassist 1 · now", "Seite {page} von {pages}"
    )
    assert words.page(3, 12) == "Seite 3 von 12"
    assert running_words("<p>no heads in this layout</p>") is None


def test_a_french_report_says_page_sur() -> None:
    """The folio is translated with the reader's language (Millenium's players read French)."""
    settings = RenderSettings((project_templates(),), None)
    content = dataclasses.replace(
        millenium_content("1"), language="fr", package="refassist.rulesets.millenium"
    )
    pdf, _ = render_report(
        content,
        {
            "generated": "maintenant",
            "refassist_version": __version__,
            "step": "1",
            "dice_disclosure": {},
            "orders_due": "-",
        },
        settings,
    )
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        count = len(doc.pages)
        last = " ".join(w["text"] for w in doc.pages[-1].extract_words() if w["top"] > 800)
    assert f"page {count} sur {count}" in last


def test_the_naive_render_keeps_its_heads_in_css(tmp_path: Path) -> None:
    """The naive single-pass render (the benchmark's yardstick) lays its heads out as margin
    boxes (`templates/base/running.css`) and stamps none: the same words, once a page."""
    from refassist.report.game_reports import gather_input
    from refassist.typeset.render import template_dirs

    game, state = report_game(tmp_path / "game")
    info = gather_input(game, state, state.player_names())
    public = game.ruleset.report_map(state)
    content = game.ruleset.report_content(state, "Ann", info, public)
    settings = RenderSettings(tuple(template_dirs(game.path)), public, None, fast=False)
    common = {
        "generated": "now",
        "refassist_version": __version__,
        "step": str(YEAR),
        "dice_disclosure": {},
        "orders_due": "-",
    }
    pdf, _ = render_report(content, common, settings)
    path = tmp_path / "naive.pdf"
    path.write_bytes(pdf)
    pages = [" ".join(w["text"] for w in words) for words in _margin_words(path)]
    for number, text in enumerate(pages, 1):
        assert text.count(f"page {number} of {len(pages)}") == 1, text
        assert text.count(f"refassist {__version__} · now") == 1
        assert text.count(" Ann") == (0 if number == 1 else 1)
