"""``refassist check`` through the real command line: exit codes 0, 1 and 2, JSON, annotation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.geometry.hexmap import distance
from refassist.rulesets.fifth_millennium import sheet as layout
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets


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


def test_every_independent_problem_in_one_pass_each_at_its_cell(
    small_game: Game, sheet: Path
) -> None:
    """Issue 15: not one round at a time; each problem at the cell holding the wrong value; a
    problem that follows from another (range from a departure with no squadrons) folded in."""
    state = small_game.load_state()
    home = state.player("Ann").homeworld
    systems = sorted(state.systems, key=lambda s: (distance(home, s.hex), s.hex))
    near = next(s.hex for s in systems if distance(home, s.hex) == 2)
    far = next(s.hex for s in systems if 6 <= distance(home, s.hex) <= 8)
    empty = next(
        s.hex
        for s in systems
        if distance(home, s.hex) > 10 and not any(f.hex == s.hex for f in state.forces)
    )
    beyond = next(s.hex for s in systems if distance(empty, s.hex) >= 8)
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    ws["C11"], ws["D11"], ws["E11"], ws["F11"] = "F1", home, near, str(state.year + 5)
    ws["C12"], ws["D12"], ws["E12"] = "F1", home, far
    ws["C13"], ws["D13"], ws["E13"] = "F1", empty, beyond
    r = layout.PROD_FIRST_ROW
    ws[f"B{r}"], ws[f"C{r}"], ws[f"D{r}"] = home, "Death Star", 1
    ws[f"B{r + 1}"], ws[f"C{r + 1}"], ws[f"D{r + 1}"] = home, "F", 1000
    wb.save(sheet)

    code, out, _ = run("check", str(sheet), "--game", str(small_game.path), "--json")

    assert code == 1
    problems = [p for p in json.loads(out)["problems"] if p["severity"] == "error"]
    by_cell = {p["cell"]: p["message"] for p in problems}
    assert sorted(by_cell) == sorted(["F11", "E12", "D13", f"C{r}", f"D{r + 1}"]), by_cell
    assert f"arrives in {state.year + 2}, not {state.year + 5}" in by_cell["F11"]
    assert f"{far} is out of range" in by_cell["E12"]
    assert "hexes and your squadrons jump at most 4" in by_cell["E12"]
    assert f"you have no squadrons at {empty}" in by_cell["D13"]
    assert (
        "'Death Star' is not a purchase option" in by_cell[f"C{r}"]
        or "Death Star" in by_cell[f"C{r}"]
    )
    assert "1000 is out of range" in by_cell[f"D{r + 1}"]


def test_the_game_may_come_first_as_in_the_other_commands(small_game: Game, sheet: Path) -> None:
    code, out, err = run("check", str(small_game.path), str(sheet))
    assert code == 0, err
    assert "Ann's sheet for 5001" in out and "accepted" in out
    assert "Only the notation was checked" not in out
    code, _, err = run("check", str(small_game.path), str(sheet), "--game", str(small_game.path))
    assert code != 0 and "the game is named twice" in err
    code, _, err = run("check", str(sheet), str(small_game.path))
    assert code != 0 and "is a folder, not a sheet" in err
