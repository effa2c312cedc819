"""Nothing a player writes can make a report load or embed a file: escaping, then the fetcher.

Two walls, each tested on its own: player text is escaped by the templates (so markup in a
message is shown as text and never reaches WeasyPrint as an element), and every URL the
renderer would load goes through `SafeFetcher`, which allows only ``data:`` URIs and files
inside the template folders (tested with a hostile template override, where escaping cannot
help).
"""

from __future__ import annotations

import base64
import io
import os
import re
import zlib
from pathlib import Path

import pytest
from pypdf import PdfReader
from weasyprint.urls import URLFetcherResponse

from refassist.drawings.drawing import Drawing, Text
from refassist.drawings.svgmap import to_svg
from refassist.report.game_reports import write_reports
from refassist.rulesets.fifth_millennium.state import Message
from refassist.typeset.fetcher import RefusedURL, SafeFetcher
from refassist.typeset.render import ReportError, environment, template_dirs
from tests.test_report_content import RESOLVED, pdf_pages, report_game

PASSWD = Path("/etc/passwd")
HOSTILE = (
    '<img src="file:///etc/passwd"> '
    '<a rel="attachment" href="file:///etc/passwd">passwd</a> '
    '<link rel="attachment" href="/etc/passwd">'
)
#: A 1x1 PNG, for the allowed cases.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)


def _all_stream_bytes(reader: PdfReader) -> bytes:
    """Every stream of the PDF, decoded: whatever was embedded would show up here."""
    out = []
    for num in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(num)
        if hasattr(obj, "get_data"):
            try:
                out.append(obj.get_data())
            except Exception:
                out.append(getattr(obj, "_data", b""))
    return b"\n".join(out)


def _embedded(reader: PdfReader) -> tuple[list[str], int, int]:
    """Names of embedded files, number of file-attachment annotations and of distinct images
    (WeasyPrint shares one resource dictionary between pages, so images are counted once)."""
    files = list(reader.attachments)
    annotations = 0
    images: set[object] = set()
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            if annot.get_object().get("/Subtype") == "/FileAttachment":
                annotations += 1
        for image in page.images:
            ref = image.indirect_reference
            images.add((ref.idnum, ref.generation) if ref is not None else image.name)
    return files, annotations, len(images)


def _secret_line() -> bytes:
    """A line of /etc/passwd long enough to be recognised anywhere.  The file is on every
    system these tests run on (the templates try to reach it by that name); were it missing,
    the tests fail here rather than pass without having protected anything."""
    assert PASSWD.is_file(), f"{PASSWD} is the file these tests protect; it must exist"
    line = next(line for line in PASSWD.read_text().splitlines() if line.count(":") >= 6)
    return line.encode()


def test_markup_in_a_message_is_shown_as_text_and_loads_nothing(tmp_path: Path) -> None:
    game, state = report_game(tmp_path / "game")
    state.messages.append(Message(RESOLVED, "Bob", "Ann", f"Look at this: {HOSTILE}"))
    game.save_state(state)
    run = write_reports(game, players=["Ann"], jobs=1, sheets=False)
    (report,) = run.reports
    # Escaped: nothing was even asked of the fetcher.
    assert report.refused == []
    text = " ".join(pdf_pages(report.path))
    assert 'Look at this: <img src="file:///etc/passwd">' in text
    assert '<a rel="attachment" href="file:///etc/passwd">passwd</a>' in text
    reader = PdfReader(report.path)
    assert _embedded(reader) == ([], 0, 0)
    assert _secret_line() not in _all_stream_bytes(reader)
    assert _secret_line() not in report.path.read_bytes()


HOSTILE_LAYOUT = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{ title }}</title>
<link rel="stylesheet" href="http://127.0.0.1:9/evil.css">
<link rel="stylesheet" href="../../../../../../../etc/passwd">
<link rel="attachment" href="file:///etc/passwd">
<style>{% include "base/report.css" %}</style></head>
<body>
<img src="file:///etc/passwd">
<img src="http://127.0.0.1:9/tracker.png">
<img src="../../../../../../../../etc/passwd">
<img src="escape.png">
<img src="logo.png">
<img src="data:image/png;base64,PNGDATA">
<a rel="attachment" href="file:///etc/passwd">passwd</a>
{% block body %}{% endblock %}
</body></html>
"""


def test_hostile_template_override_is_stopped_by_the_fetcher(tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    override = game.path / "templates" / "base"
    override.mkdir(parents=True)
    (override / "layout.html").write_text(
        HOSTILE_LAYOUT.replace("PNGDATA", base64.b64encode(PNG).decode()), encoding="utf-8"
    )
    # A symlink planted inside the template folder that points outside it.
    os.symlink(PASSWD, game.path / "templates" / "escape.png")
    (game.path / "templates" / "logo.png").write_bytes(PNG)
    run = write_reports(game, players=["Ann"], jobs=1, sheets=False)
    (report,) = run.reports
    refused = set(report.refused)
    assert "file:///etc/passwd" in refused
    assert "http://127.0.0.1:9/evil.css" in refused
    assert "http://127.0.0.1:9/tracker.png" in refused
    assert any(u.endswith("/escape.png") for u in refused)
    assert sum(1 for u in refused if u.startswith("file:") and u.endswith("/etc/passwd")) >= 1
    assert not any(u.endswith("/logo.png") for u in refused)
    reader = PdfReader(report.path)
    files, annotations, images = _embedded(reader)
    assert files == [] and annotations == 0
    # The two allowed images (the game's own logo.png and the data: URI) are the only ones.
    assert images == 2
    assert _secret_line() not in _all_stream_bytes(reader)


def test_fetcher_allows_data_uris_and_template_files(tmp_path: Path) -> None:
    root = tmp_path / "templates"
    root.mkdir()
    (root / "style.css").write_text("p { color: red }", encoding="utf-8")
    fetcher = SafeFetcher([root])
    response = fetcher.fetch((root / "style.css").as_uri())
    assert isinstance(response, URLFetcherResponse)
    assert response.read() == b"p { color: red }"
    assert response.content_type == "text/css"
    data = fetcher.fetch("data:text/plain;base64," + base64.b64encode(b"hello").decode())
    assert data.read() == b"hello"
    assert fetcher.refused == []


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://127.0.0.1:9/x.png",
        "https://example.com/font.woff",
        "ftp://example.com/x",
        "file://otherhost/templates/style.css",
        "TEMPLATES/../secret.txt",
        "TEMPLATES/sub/../../secret.txt",
        "TEMPLATES/link-out.txt",
        "TEMPLATES/missing.css",
        "TEMPLATES",
    ],
)
def test_fetcher_refuses_everything_else(tmp_path: Path, url: str) -> None:
    root = tmp_path / "templates"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    os.symlink(tmp_path / "secret.txt", root / "link-out.txt")
    fetcher = SafeFetcher([root])
    url = url.replace("TEMPLATES", root.as_uri())
    with pytest.raises(RefusedURL):
        fetcher.fetch(url)
    assert fetcher.refused == [url]


def test_templates_escape_player_text() -> None:
    env = environment(template_dirs(None))
    assert env.from_string("{{ x }}").render(x='<b>"&') == "&lt;b&gt;&#34;&amp;"
    drawing = Drawing(10, 10, [Text(1, 1, '<script>alert("x")</script> & co', 5)])
    svg = to_svg(drawing)
    assert "<script>" not in svg
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co" in svg


def test_system_names_with_markup_are_escaped(tmp_path: Path) -> None:
    game, state = report_game(tmp_path / "game")
    ann = state.player("Ann")
    assert ann is not None
    home = state.system(ann.homeworld)
    assert home is not None
    home.name = '<img src="file:///etc/passwd">Home'
    game.save_state(state)
    run = write_reports(game, players=["Ann"], jobs=1, sheets=False)
    (report,) = run.reports
    assert report.refused == []
    text = " ".join(pdf_pages(report.path))
    assert f'{ann.homeworld} <img src="file:///etc/passwd">' in text
    assert _embedded(PdfReader(report.path)) == ([], 0, 0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_broken_template_override_is_one_clear_error(tmp_path: Path, jobs: int) -> None:
    """In one process, and from a worker of two (every report rendered in the pool)."""
    game, _ = report_game(tmp_path / "game")
    override = game.path / "templates" / "fifth-millennium"
    override.mkdir(parents=True)
    (override / "player.html").write_text("{% block body %}{{ oops(}}{% endblock %}", "utf-8")
    players = ["Ann"] if jobs == 1 else None
    with pytest.raises(ReportError, match=r"player.html, line 1: .*fix the template"):
        write_reports(game, players=players, jobs=jobs, sheets=False)


def test_uncompressed_pdf_text_has_no_passwd_either(tmp_path: Path) -> None:
    """Belt and braces for the message test: inflate every Flate stream in the raw file."""
    game, state = report_game(tmp_path / "game")
    state.messages.append(Message(RESOLVED, "Bob", "Ann", HOSTILE))
    game.save_state(state)
    (report,) = write_reports(game, players=["Ann"], jobs=1, sheets=False).reports
    raw = report.path.read_bytes()
    inflated = []
    for match in re.finditer(rb"stream\r?\n", raw):
        try:
            inflated.append(zlib.decompressobj().decompress(raw[match.end() :]))
        except zlib.error:
            continue
    assert inflated, "the PDF has compressed streams to inspect"
    assert all(_secret_line() not in chunk for chunk in inflated)
    assert io.BytesIO(raw).read(5) == b"%PDF-"
