"""``refassist check`` through the real command line: exit codes 0, 1 and 2, JSON, annotation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.game import Game
from refassist.rulesets.fifth_millennium import sheet as layout
from refassist.turnsheets import write_sheets


@pytest.fixture
def sheet(small_game: Game, tmp_path: Path) -> Path:
    [path] = write_sheets(small_game, small_game.load_state(), ["Ann"])
    copy = tmp_path / "Ann.xlsx"
    shutil.copy(path, copy)
    return copy


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_accepted_sheet_exits_0(small_game: Game, sheet: Path) -> None:
    wb = openpyxl.load_workbook(sheet)
    wb["Orders"][f"B{layout.MSG_FIRST_ROW}"] = "Bob"
    wb["Orders"][f"C{layout.MSG_FIRST_ROW}"] = "Shall we talk?"
    wb.save(sheet)
    code, out, err = run("check", str(sheet), "--game", str(small_game.path))
    assert code == 0, err
    assert "Ann's sheet for 5001" in out and "accepted" in out
    assert "Message to Bob: Shall we talk?" in out


def test_problems_exit_1_and_name_the_cell(small_game: Game, sheet: Path) -> None:
    wb = openpyxl.load_workbook(sheet)
    wb["Orders"]["B11"] = "5001 - F99 - 0101 - 0102 - 5001"
    wb.save(sheet)
    code, out, _ = run("check", str(sheet), "--game", str(small_game.path))
    assert code == 1
    assert "Orders!B11" in out and "ERROR" in out


def test_without_game_only_the_notation_is_checked(sheet: Path) -> None:
    wb = openpyxl.load_workbook(sheet)
    wb["Orders"]["B11"] = "5001 - F99 - 0101 - 0102"  # impossible, but well written
    wb["Orders"]["C12"] = "F1 Z3"  # not the notation
    wb["Orders"]["D12"], wb["Orders"]["E12"] = "0101", "0102"
    wb.save(sheet)
    code, out, _ = run("check", str(sheet))
    assert code == 1
    assert "Orders!C12" in out and "Orders!B11" not in out
    said = " ".join(out.split())
    assert (
        "Only the notation was checked: not whose sheet it is, nor the turn, nor the rules" in said
    )
    assert "--game GAME" in said
    code, out, _ = run("check", str(sheet), "--json")
    assert json.loads(out)["checked"] == "notation"


def test_with_game_the_notation_notice_is_not_given(small_game: Game, sheet: Path) -> None:
    _, out, _ = run("check", str(sheet), "--game", str(small_game.path))
    assert "Only the notation was checked" not in out
    _, out, _ = run("check", str(sheet), "--game", str(small_game.path), "--json")
    assert json.loads(out)["checked"] == "game"


def test_not_a_turn_sheet_exits_2(tmp_path: Path) -> None:
    bogus = tmp_path / "orders.xlsx"
    bogus.write_text("turn,fleet\n5001,F10\n")
    code, out, err = run("check", str(bogus))
    assert code == 2
    assert "text or CSV file" in err and "Traceback" not in err + out


def test_json_output(small_game: Game, sheet: Path, tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(sheet)
    wb["Orders"]["C11"], wb["Orders"]["D11"], wb["Orders"]["E11"] = "F1", "0101", "0102"
    wb.save(sheet)
    code, out, _ = run("check", str(sheet), "--game", str(small_game.path), "--json")
    data = json.loads(out)
    assert code == 1 == data["exit_code"]
    assert data["player"] == "Ann" and data["step"] == "5001" and data["status"] == "problems"
    assert data["orders"][0].startswith("5001 - F1 S0 A0(Fs0 Ms0 K0) - 0101 - 0102")
    assert {"sheet", "cell", "found", "message", "fix", "severity"} <= set(data["problems"][0])
    bogus = tmp_path / "x.xlsx"
    bogus.write_bytes(b"")
    code, out, _ = run("check", str(bogus), "--json")
    assert code == 2
    assert json.loads(out)["status"] == "refused"


def test_annotate_option_writes_the_marked_copy(
    small_game: Game, sheet: Path, tmp_path: Path
) -> None:
    wb = openpyxl.load_workbook(sheet)
    wb["Orders"]["C11"], wb["Orders"]["D11"], wb["Orders"]["E11"] = "F1", "0101", "0102"
    wb.save(sheet)
    out_path = tmp_path / "checked.xlsx"
    code, out, _ = run(
        "check", str(sheet), "--game", str(small_game.path), "--annotate", str(out_path)
    )
    assert code == 1
    assert "Annotated copy" in out
    assert openpyxl.load_workbook(out_path).sheetnames[0] == "Problems"
    code, _, err = run("check", str(sheet), "--annotate", str(sheet))
    assert code == 2 and "new file" in err


def test_sheet_of_another_game_exits_2(small_game: Game, sheet: Path, tmp_path: Path, fm) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import players

    other = Game.create(
        tmp_path / "other", fm, players(3), seed=99, generate_seed=42, assign_homeworlds=True
    )
    code, _, err = run("check", str(sheet), "--game", str(other.path))
    assert code == 2 and "belongs to another game" in err


def test_help_has_an_example() -> None:
    code, out, _ = run("check", "--help")
    assert code == 0 and "Example:" in out and "refassist check" in out
