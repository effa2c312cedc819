"""``refassist sheets``, ``intake`` and ``status`` through the real command line."""

from __future__ import annotations

import shutil
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.fifth_millennium import sheet as layout
from refassist.store.game import Game
from refassist.store.inbox_index import accepted_sheets


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def game(tmp_path: Path) -> Game:
    players = [PlayerSetup(n, f"{n.lower()}@example.com") for n in ("Ann", "Bob", "Cleo")]
    return Game.create(
        tmp_path / "g",
        find_ruleset("fifth-millennium"),
        players,
        seed=3,
        generate_seed=42,
        assign_homeworlds=True,
        first_deadline=datetime(2030, 1, 5, 21, 0),
    )


def filled(game: Game, player: str, tmp_path: Path) -> Path:
    path = tmp_path / f"{player}.xlsx"
    shutil.copy(game.outbox("5001") / f"{player}.xlsx", path)
    wb = openpyxl.load_workbook(path)
    wb["Orders"][f"B{layout.MSG_FIRST_ROW}"] = "*"
    wb["Orders"][f"C{layout.MSG_FIRST_ROW}"] = f"{player} says hello"
    wb.save(path)
    return path


def test_sheets_writes_one_per_player(game: Game) -> None:
    code, out, err = run("sheets", str(game.path))
    assert code == 0, err
    assert "3 turn sheets for Year 5001" in out
    for name in ("Ann", "Bob", "Cleo"):
        assert (game.outbox("5001") / f"{name}.xlsx").is_file()
    code, out, _ = run("sheets", str(game.path), "--player", "Bob")
    assert code == 0 and "1 turn sheet" in out
    code, _, err = run("sheets", str(game.path), "--player", "Zed")
    assert code == 2 and "Zed is not expected" in err


def test_intake_and_status_round_trip(game: Game, tmp_path: Path) -> None:
    run("sheets", str(game.path))
    msg = EmailMessage()
    msg["From"] = "Bob <bob@example.com>"
    msg["To"] = "referee@example.com"
    msg["Subject"] = "turn 1"
    msg["Date"] = format_datetime(datetime(2030, 1, 2, 10, 0).astimezone())
    msg.set_content("attached")
    msg.add_attachment(
        filled(game, "Bob", tmp_path).read_bytes(),
        maintype="application",
        subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        filename="Bob.xlsx",
    )
    eml = tmp_path / "bob.eml"
    eml.write_bytes(bytes(msg))
    ann = filled(game, "Ann", tmp_path)
    code, out, err = run("intake", str(game.path), str(ann), str(eml))
    assert code == 0, err
    assert "Intake for 5001: 2 items" in out
    assert "accepted   Ann" in out and "accepted   Bob" in out
    assert "Summary: 2 accepted" in out
    assert set(accepted_sheets(game, "5001")) == {"Ann", "Bob"}
    code, out, _ = run("status", str(game.path))
    assert code == 0
    assert "Ann     accepted" in out and "Cleo    missing" in out
    assert "Waiting for: Cleo" in out


def test_intake_accept_late(game: Game, tmp_path: Path) -> None:
    run("sheets", str(game.path))
    sheet = filled(game, "Cleo", tmp_path)
    late = datetime(2030, 1, 9, 12, 0).timestamp()
    import os

    os.utime(sheet, (late, late))
    code, out, _ = run("intake", str(game.path), str(sheet))
    assert code == 0 and "late" in out
    code, out, _ = run("status", str(game.path))
    assert "Cleo    late" in out
    # Names match as everywhere in the CLI: case and spaces do not matter.
    code, out, err = run("intake", str(game.path), "--accept-late", "--player", " cleo ")
    assert code == 0, err
    assert "Late sheets accepted for 5001: Cleo" in out
    assert set(accepted_sheets(game, "5001")) == {"Cleo"}
    code, out, err = run("intake", str(game.path), "--accept-late", "--player", "CLEO")
    assert code == 0, err
    assert "Cleo: already accepted for 5001 (no late sheet waits)" in out
    code, _, err = run("intake", str(game.path), "--accept-late", "--player", "Zed")
    assert code == 2 and "there is no player 'Zed'" in err


def test_intake_usage_errors(game: Game, tmp_path: Path) -> None:
    code, _, err = run("intake", str(game.path))
    assert code == 2 and "give the files" in err
    code, _, err = run("intake", str(game.path), str(tmp_path / "missing.eml"))
    assert code == 2 and "does not exist" in err
    folder = tmp_path / "not-a-maildir"
    folder.mkdir()
    (folder / "notes.txt").write_text("no sheet here")
    code, _, err = run("intake", str(game.path), str(folder))
    assert code == 2 and "a folder with no sheet" in err and "nor a Maildir" in err


def test_intake_takes_a_plain_folder_of_sheets(game: Game, tmp_path: Path) -> None:
    """Issue 50: the README says intake takes a folder; a plain one (not a Maildir) is read
    as if each sheet and mail file in it had been named, and nothing else in it is."""
    run("sheets", str(game.path))
    folder = tmp_path / "received"
    folder.mkdir()
    shutil.move(filled(game, "Ann", tmp_path), folder / "Ann.xlsx")
    msg = EmailMessage()
    msg["From"] = "Bob <bob@example.com>"
    msg["To"] = "referee@example.com"
    msg["Subject"] = "turn 1"
    msg["Date"] = format_datetime(datetime(2030, 1, 2, 10, 0).astimezone())
    msg.set_content("attached")
    msg.add_attachment(
        filled(game, "Bob", tmp_path).read_bytes(),
        maintype="application",
        subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        filename="Bob.xlsx",
    )
    (folder / "bob.eml").write_bytes(bytes(msg))
    # What the office programs leave beside an open sheet, a note and a sub-folder: not read.
    (folder / ".~lock.Ann.xlsx#").write_text("lock")
    (folder / "~$Ann.xlsx").write_bytes(b"owner")
    (folder / "notes.txt").write_text("Cleo is late")
    (folder / "old").mkdir()
    shutil.copy(filled(game, "Cleo", tmp_path), folder / "old" / "Cleo.xlsx")
    code, out, err = run("intake", str(game.path), str(folder))
    assert code == 0, err
    assert "Intake for 5001: 2 items" in out
    assert "accepted   Ann" in out and "accepted   Bob" in out
    assert set(accepted_sheets(game, "5001")) == {"Ann", "Bob"}


@pytest.mark.parametrize("command", ["sheets", "intake", "status"])
def test_every_command_has_help_with_an_example(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0 and "Example:" in out
