"""Sheets and reports that no longer match the game are moved aside, never sent or deleted.

After `rollback`, the outbox folders of the undone turns describe a future that no longer
exists; after a hand edit of ``master.xlsx``, the current step's sheets and reports show what
the master no longer holds.  Real files: a played game, its PDFs and sheets, the master edited
with openpyxl as a referee does in a spreadsheet, the CLI's output.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
from click.testing import CliRunner
from pypdf import PdfReader

from refassist.cli import main
from refassist.report.game_reports import write_reports
from refassist.store.game import Game
from refassist.store.outbox import RECORD_NAME, stale_files
from refassist.store.turnsheets import write_sheets
from refassist.turns import resolve_game
from tests.conftest import three_player_game


def _played(tmp_path: Path, turns: int) -> Game:
    """A three-player game resolved ``turns`` times, with every turn's reports written."""
    game = three_player_game(tmp_path / "game")
    write_sheets(game, game.load_state())
    for _ in range(turns):
        resolve_game(game, force=True)
        write_reports(game, jobs=1, mail=True)
    return game


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _edit_stockpile(master: Path, player: str, value: int) -> None:
    wb = openpyxl.load_workbook(master)
    ws = wb["Players"]
    headers = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        if row[headers.index("Player")].value == player:
            row[headers.index("Stockpile")].value = value
    wb.save(master)


def test_rollback_moves_the_undone_turns_outbox_aside(tmp_path: Path) -> None:
    game = _played(tmp_path, 2)
    later = game.outbox("5003")
    sent = sorted(p.name for p in later.iterdir() if p.is_file() and p.name != RECORD_NAME)
    assert "Ann.pdf" in sent and "Ann.xlsx" in sent
    kept = sorted(p.name for p in game.outbox("5002").iterdir())

    text = _cli("rollback", str(game.path), "--to", "5002")

    assert "moved the sheets and reports of the undone turns to" in text
    assert not later.exists()
    [aside] = list((game.path / "rolled-back").iterdir())
    moved = aside / "outbox" / "5003"
    assert sorted(p.name for p in moved.iterdir() if p.is_file()) == sent
    assert (moved / "mail").is_dir()
    # The restored step's own sheets, reports and replies were made from the restored master.
    assert sorted(p.name for p in game.outbox("5002").iterdir()) == kept
    assert stale_files(game, game.load_state()) == []
    assert "Stale" not in _cli("status", str(game.path))
    write_reports(game, jobs=1)
    index = (game.path / "archive" / "index.html").read_text(encoding="utf-8")
    assert "outbox/5003" not in index


def test_a_hand_edit_makes_status_name_what_to_regenerate(tmp_path: Path) -> None:
    game = _played(tmp_path, 1)
    folder = game.outbox("5002")
    before = (folder / "Bob.pdf").read_bytes()

    # Saved again unchanged (a spreadsheet program rewrites the bytes): nothing is stale.
    wb = openpyxl.load_workbook(game.master_path)
    wb.save(game.master_path)
    assert "Stale" not in _cli("status", str(game.path))

    _edit_stockpile(game.master_path, "Bob", 99)
    status = " ".join(_cli("status", str(game.path)).split())
    assert "Stale: outbox/5002 was written before master.xlsx was changed" in status
    assert f"refassist sheets {game.path}" in status
    assert f"refassist report {game.path}" in status
    assert "Ann.xlsx, Bob.xlsx, Cleo.xlsx" in status
    assert (folder / "Bob.pdf").read_bytes() == before  # status only reads

    text = _cli("report", str(game.path), "--quiet", "--mail")

    assert "stale files from the outbox moved to" in text
    [aside] = list((game.path / "rolled-back").iterdir())
    old = aside / "outbox" / "5002"
    assert (old / "Bob.pdf").read_bytes() == before
    assert (old / "Bob.xlsx").is_file() and (old / "mail").is_dir()
    assert (folder / "Bob.pdf").read_bytes() != before
    assert (folder / "Bob.xlsx").is_file()  # written again from the edited master
    assert (folder / "replies").exists() or not (old / "replies").exists()
    assert "Stale" not in _cli("status", str(game.path))
    assert (folder / RECORD_NAME).is_file()


def test_the_hand_change_shows_in_the_next_ledger(tmp_path: Path) -> None:
    """The referee gives Bob 99 points by hand: his next report's ledger says where the
    difference came from, so his numbers add up from one report to the next."""
    game = _played(tmp_path, 1)
    closing = game.load_state().player("Bob").stockpile
    _edit_stockpile(game.master_path, "Bob", 99)
    resolve_game(game, force=True)
    run = write_reports(game, jobs=1)
    bob = next(r.path for r in run.reports if r.reader == "Bob")
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(bob).pages)
    assert (
        f"Stockpile: {closing} at the end of last turn, {99 - closing:+d} referee's adjustment, "
        "99 before production" in text
    )


def test_sheets_alone_are_regenerated_by_the_sheets_command(tmp_path: Path) -> None:
    game = _played(tmp_path, 1)
    _edit_stockpile(game.master_path, "Ann", 77)
    text = _cli("sheets", str(game.path))
    assert "stale turn sheets moved to" in text
    assert (game.outbox("5002") / "Ann.xlsx").is_file()
    [aside] = list((game.path / "rolled-back").iterdir())
    assert sorted(p.name for p in (aside / "outbox" / "5002").iterdir()) == [
        "Ann.xlsx",
        "Bob.xlsx",
        "Cleo.xlsx",
    ]
    # The reports are stale still, and status says which command replaces them.
    status = " ".join(_cli("status", str(game.path)).split())
    assert f"regenerate the reports and mail: refassist report {game.path}" in status
    assert "turn sheets (" not in status
