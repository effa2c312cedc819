"""``refassist report``: files written, options, errors as one line, the archive index."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from refassist import __version__
from refassist.cli import main
from tests.test_report_content import YEAR, report_game


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_report_writes_every_pdf_sheet_and_the_index(runner: CliRunner, tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    result = runner.invoke(main, ["report", str(game.path), "--quiet"])
    assert result.exit_code == 0, result.output
    folder = game.outbox(str(YEAR))
    for name in ("Ann", "Bob", "Cleo", "referee"):
        path = folder / f"{name}.pdf"
        assert f"{path} (" in result.output
        assert len(PdfReader(path).pages) >= 3
    for name in ("Ann", "Bob", "Cleo"):
        assert f"{folder / (name + '.xlsx')} (turn sheet for {name})" in result.output
    assert f"archive index: {game.path / 'archive' / 'index.html'}" in result.output
    assert not (folder / "mail").exists()


def test_every_report_names_the_refassist_that_wrote_it(runner: CliRunner, tmp_path: Path) -> None:
    """The PDF's Creator field and every page's footer name the version (a report a player
    forwards can be traced to the program that made it); pages after the cover carry the
    game and the reader in their running header."""
    game, _ = report_game(tmp_path / "game")
    assert runner.invoke(main, ["report", str(game.path), "--quiet"]).exit_code == 0
    reader = PdfReader(game.outbox(str(YEAR)) / "Ann.pdf")
    assert reader.metadata is not None
    assert reader.metadata.creator == f"refassist {__version__}"
    pages = [page.extract_text() for page in reader.pages]
    assert all(f"refassist {__version__} · " in text for text in pages)
    assert all(f"{game.config.name} · {YEAR}" in text and "Ann" in text for text in pages[1:])


def test_progress_bar_output(runner: CliRunner, tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    result = runner.invoke(main, ["report", str(game.path), "--player", "Bob"])
    assert result.exit_code == 0, result.output
    assert "reports" in result.output and "1/1" in result.output


def test_player_option_limits_the_run(runner: CliRunner, tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    result = runner.invoke(
        main, ["report", str(game.path), "-q", "--player", "ann", "--player", "Cleo"]
    )
    assert result.exit_code == 0, result.output
    folder = game.outbox(str(YEAR))
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["Ann.pdf", "Cleo.pdf"]


def test_unknown_player_is_one_line(runner: CliRunner, tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    result = runner.invoke(main, ["report", str(game.path), "--player", "Zed"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == ["error: there is no player 'Zed' in game; players are Ann, Bob, Cleo"]


def test_bad_smtp_address_is_refused_before_any_work(runner: CliRunner, tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    result = runner.invoke(main, ["report", str(game.path), "--smtp", "localhost"])
    assert result.exit_code == 2
    assert "--smtp 'localhost' is not a server URL; e.g. smtps://" in result.output
    assert not list(game.outbox(str(YEAR)).glob("*.pdf"))


def test_not_a_game_folder(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = runner.invoke(main, ["report", str(tmp_path / "empty")])
    assert result.exit_code == 1
    assert result.output.startswith("error: ") and "game.toml" in result.output
    assert "Traceback" not in result.output


def test_help_has_examples(runner: CliRunner) -> None:
    result = runner.invoke(main, ["report", "--help"])
    assert result.exit_code == 0
    for option in ("--player", "--mail", "--smtp", "--jobs"):
        assert option in result.output
    assert "Examples:" in result.output and "refassist report mygame --mail" in result.output


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.links.extend(v for k, v in attrs if k == "href" and v)


def test_archive_index_links_every_turns_files(runner: CliRunner, tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    assert runner.invoke(main, ["report", str(game.path), "-q"]).exit_code == 0
    index = game.path / "archive" / "index.html"
    html = index.read_text(encoding="utf-8")
    parser = _Links()
    parser.feed(html)
    targets = {(index.parent / link).resolve() for link in parser.links}
    folder = game.outbox(str(YEAR))
    for name in ("Ann.pdf", "Bob.pdf", "Cleo.pdf", "referee.pdf", "Ann.xlsx"):
        assert (folder / name).resolve() in targets
    archived = game.archive("5002") / "sheets" / "Ann.xlsx"
    assert archived.resolve() in targets
    assert all(t.exists() for t in targets)
    # Which turn's results and which turn's orders each row's files are for.
    assert f"results of {YEAR - 1}:" in html and f"orders for {YEAR}:" in html
    title = PdfReader(folder / "Ann.pdf").metadata.title
    assert title == f"{game.config.name}: Ann, results of {YEAR - 1}, orders for {YEAR}"
    assert "<td><b>orders for 5003</b></td>" in html and "<td><b>orders for 5002</b></td>" in html
    assert "<script" not in html


def test_two_processes_write_the_same_reports(runner: CliRunner, tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    folder = game.outbox(str(YEAR))
    assert runner.invoke(main, ["report", str(game.path), "-q", "--jobs", "1"]).exit_code == 0
    serial = {
        p.name: [page.extract_text() for page in PdfReader(p).pages] for p in folder.glob("*.pdf")
    }
    # The shared base maps were drawn once and cached for the next run.
    cached = sorted((game.path / ".cache" / "maps").glob("base-*.pdf"))
    assert cached
    result = runner.invoke(main, ["report", str(game.path), "-q", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    parallel = {
        p.name: [page.extract_text() for page in PdfReader(p).pages] for p in folder.glob("*.pdf")
    }
    assert sorted(serial) == ["Ann.pdf", "Bob.pdf", "Cleo.pdf", "referee.pdf"]
    # Same pages, same text (the "generated" time in the footer may differ by a minute).
    strip = lambda pages: [re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "", t) for t in pages]  # noqa: E731
    assert {k: strip(v) for k, v in parallel.items()} == {k: strip(v) for k, v in serial.items()}
    assert sorted((game.path / ".cache" / "maps").glob("base-*.pdf")) == cached


def test_the_base_maps_drawn_from_a_read_state_serve_a_kept_one(tmp_path: Path) -> None:
    """A state read from master.xlsx is kept (`statestore`) for the next command, which
    takes it equal but sharing its strings differently: it must find the base maps drawn
    from the read one (they were keyed by the public map's pickle, which differed, and the
    report stage after each resolve drew them again: 1.3 s for twelve players)."""
    from refassist.report import build
    from refassist.report.game_reports import write_reports

    game, _ = report_game(tmp_path / "game")
    maps = game.path / ".cache" / "maps"
    shutil.rmtree(game.path / ".cache" / "states")  # the state before the scenario's
    read = game.load_state()  # read from the workbook, and kept
    assert len(list((game.path / ".cache" / "states").iterdir())) == 1
    write_reports(game, jobs=1, state=read)
    cached = sorted(maps.glob("base-*.pdf"))
    assert cached
    build._WORKER_BASE.clear()  # the next command is another process
    write_reports(game, jobs=1)  # the kept state
    assert sorted(maps.glob("base-*.pdf")) == cached
