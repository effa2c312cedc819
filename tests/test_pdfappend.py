"""Stamps appended to a cairo PDF (`refassist.typeset.pdfappend`): read by pypdf, PDFium and
poppler as pypdf's own stamping reads, nothing cairo wrote moved, each copied object once,
and anything not shaped as cairo writes refused, so the report is stamped by pypdf."""

from __future__ import annotations

import io
import logging
import re
import shutil
import subprocess
from pathlib import Path

import cairocffi
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader, PdfWriter

from refassist.report import build
from refassist.report.build import RenderSettings, render_report
from refassist.report.game_reports import gather_input
from refassist.typeset import flowdoc
from refassist.typeset.pdfappend import NotCairos, PdfPages, Stamp, append_stamps
from refassist.typeset.pdfinfo import page_count
from refassist.typeset.render import template_dirs
from refassist.typeset.stamp import stamp_pdf
from tests.conftest import in_new_interpreter
from tests.test_report_content import report_game
from tests.test_report_flow import ann_without_pypdf


def _cairo(
    *pages: tuple[str, tuple[float, float, float]], size: tuple[int, int] = (595, 842)
) -> bytes:
    """A cairo PDF of pages each with a word and a coloured square."""
    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, *size)
    context = cairocffi.Context(surface)
    for word, colour in pages:
        context.set_source_rgb(*colour)
        context.rectangle(20, 20, 60, 60)
        context.fill()
        context.select_font_face("DejaVu Sans")
        context.set_font_size(14)
        context.move_to(20, 110)
        context.show_text(word)
        context.show_page()
    surface.finish()
    return out.getvalue()


def _report_and_stamps() -> tuple[bytes, list[Stamp]]:
    report = _cairo(("Cover", (0.9, 0.9, 0.9)), ("Mapping", (0.8, 0.9, 1.0)))
    maps = PdfPages(_cairo(("Deneb", (1, 0, 0)), ("Vega", (0, 0, 1)), size=(300, 200)))
    heads = PdfPages(_cairo(("Turn 3", (0, 1, 0)), size=(595, 842)))
    stamps = [
        Stamp(1, maps, 0, 40.0, 300.0),
        Stamp(1, maps, 1, 300.0, 500.0),
        Stamp(1, heads, 0, 0.0, 0.0),
    ]
    return report, stamps


def _pixels(pdf: bytes) -> list[bytes]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [page.render(scale=0.5).to_pil().convert("RGB").tobytes() for page in document]
    finally:
        document.close()


def test_appended_stamps_read_and_look_as_pypdfs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    report, stamps = _report_and_stamps()
    appended = append_stamps(report, stamps)
    assert appended.startswith(report)  # nothing cairo wrote moved
    with caplog.at_level(logging.WARNING):
        reader = PdfReader(io.BytesIO(appended), strict=True)
        texts = [page.extract_text() for page in reader.pages]
    assert caplog.records == []  # pypdf found nothing to mend
    assert page_count(appended) == len(reader.pages) == 2
    assert "Cover" in texts[0] and "Deneb" not in texts[0]
    assert all(word in texts[1] for word in ("Mapping", "Deneb", "Vega", "Turn 3"))
    by_pypdf = stamp_pdf(report, stamps)
    assert texts == [page.extract_text() for page in PdfReader(io.BytesIO(by_pypdf)).pages]
    assert _pixels(appended) == _pixels(by_pypdf)
    if shutil.which("pdftoppm"):  # poppler, as installed by scripts/test
        path = tmp_path / "stamped.pdf"
        path.write_bytes(appended)
        done = subprocess.run(
            ["pdftoppm", "-r", "20", "-png", str(path), str(tmp_path / "page")],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0 and not done.stderr, done.stderr


def test_the_stamps_sit_where_they_were_asked() -> None:
    """A red square 40 points from the page's left and 300 from its top, drawn at (20, 20)
    on its source page: at (60, 320) on the report's page."""
    report, stamps = _report_and_stamps()
    document = pdfium.PdfDocument(append_stamps(report, stamps[:1]))
    try:
        image = document[1].render(scale=1).to_pil().convert("RGB")
    finally:
        document.close()
    assert image.getpixel((90, 350)) == (255, 0, 0)
    assert image.getpixel((90, 60)) != (255, 0, 0)


def test_what_two_stamps_share_is_copied_once() -> None:
    """Both map pages use one font: the update carries one copy of it, and the source's
    page objects (and its page tree) are not copied at all."""
    report, stamps = _report_and_stamps()
    update = append_stamps(report, stamps[:2])[len(report) :]
    assert update.count(b"/FontFile2") == 1
    assert b"/Type /Page" not in update.replace(b"/Type /Page % 2", b"")
    # The stamped page is written again, with its content between a save and a restore.
    assert re.search(rb"/Contents \[ \d+ 0 R \d+ 0 R \d+ 0 R \]", update)


def _not_cairos() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _damaged_box() -> bytes:
    """A cairo page whose media box holds a word where a number was (same length)."""
    pdf = _cairo(("x", (0, 0, 0)), size=(300, 200))
    assert pdf.count(b"/MediaBox [ 0 0 300 200 ]") == 1
    return pdf.replace(b"/MediaBox [ 0 0 300 200 ]", b"/MediaBox [ 0 0 3x0 200 ]")


@pytest.mark.parametrize(
    "report, source",
    [
        (b"", _cairo(("x", (0, 0, 0)))),
        (_cairo(("x", (0, 0, 0)))[:-60], _cairo(("x", (0, 0, 0)))),
        (_not_cairos(), _cairo(("x", (0, 0, 0)))),
        (_cairo(("x", (0, 0, 0))), _not_cairos()),
        (_cairo(("x", (0, 0, 0))), _damaged_box()),
    ],
    ids=["empty", "cut", "pypdfs-report", "pypdfs-source", "damaged-box"],
)
def test_a_file_not_shaped_as_cairos_is_refused(report: bytes, source: bytes) -> None:
    with pytest.raises(NotCairos):
        append_stamps(report, [Stamp(0, PdfPages(source), 0, 0.0, 0.0)])


def _ann(tmp_path: Path) -> bytes:
    game, state = report_game(tmp_path / "game")
    info = gather_input(game, state, ["Ann"])
    content = game.ruleset.report_content(state, "Ann", info)
    settings = RenderSettings(tuple(template_dirs(game.path)), game.ruleset.report_map(state))
    common = {**build.common_context(info), "generated": "2026-01-01 12:00 UTC"}
    pdf, refused = render_report(content, common, settings)
    assert refused == []
    return pdf


def test_a_report_stamped_by_appending_reads_and_looks_as_one_stamped_by_pypdf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's report (four map pages) put together with its maps and heads appended, and
    again with `append_stamps` refusing, so that pypdf stamps it: the same words on every
    page, the same pixels, the same outline; only the producer says which did it."""
    appended = _ann(tmp_path / "a")
    refused: list[int] = []

    def refuse(pdf: bytes, stamps: list[Stamp]) -> bytes:
        refused.append(len(stamps))
        raise NotCairos("as if cairo had written something else")

    monkeypatch.setattr(flowdoc, "append_stamps", refuse)
    by_pypdf = _ann(tmp_path / "b")
    assert refused and refused[0] >= 12  # 4 map pages: 3 layers and the heads each
    one, other = PdfReader(io.BytesIO(appended)), PdfReader(io.BytesIO(by_pypdf))
    assert [p.extract_text() for p in one.pages] == [p.extract_text() for p in other.pages]
    assert [o.title for o in one.outline if not isinstance(o, list)] == [
        o.title for o in other.outline if not isinstance(o, list)
    ]
    assert one.metadata is not None and other.metadata is not None
    assert one.metadata.producer == "refassist (Pango, cairo)"
    assert other.metadata.producer == "refassist (Pango, cairo, pypdf)"
    assert one.metadata.title == other.metadata.title
    assert one.trailer["/Root"]["/Lang"] == other.trailer["/Root"]["/Lang"]
    first, second = _pixels(appended), _pixels(by_pypdf)
    assert len(first) == len(second) >= 5
    assert first == second
    assert len(appended) < len(by_pypdf) * 1.05


def test_pixels_differ_when_a_stamp_moves() -> None:
    """The pixel comparison above can fail: a map stamped a point lower is seen."""
    report, stamps = _report_and_stamps()
    moved = [Stamp(s.page, s.source, s.source_page, s.x, s.y + 1) for s in stamps]
    assert _pixels(append_stamps(report, stamps)) != _pixels(append_stamps(report, moved))


def test_a_report_worker_writes_and_counts_its_report_without_pypdf(tmp_path: Path) -> None:
    """What a report process does for one report (`build._render_to_file`: render, write,
    count the pages) with pypdf made impossible to import: importing it took a fifth of a
    second of each worker, and parsing each report to count its pages 15 ms."""
    code = ann_without_pypdf(tmp_path / "game") + (
        f"path = Path({str(tmp_path / 'Ann.pdf')!r})\n"
        "done = build._render_to_file('Ann', content, build.common_context(info), settings, path)\n"
        "print(done.pages)\n"
    )
    done = in_new_interpreter(code)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) == len(PdfReader(tmp_path / "Ann.pdf").pages) >= 5
