"""Annotated copies: problem cells marked and commented, a Problems sheet, still a turn sheet."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from refassist.errors import CellProblem
from refassist.rulesets.fifth_millennium import sheet as layout
from refassist.rulesets.fifth_millennium.sheet import read_sheet
from refassist.store.game import Game
from refassist.store.turnsheets import check_sheet, write_sheets
from refassist.workbook.annotate import ERROR_FILL, PROBLEMS_SHEET, WARNING_FILL, annotate


@pytest.fixture
def filled(small_game: Game, tmp_path: Path) -> Path:
    """Ann's sheet with a move to an empty hex, a bad fleet, a message to nobody."""
    state = small_game.load_state()
    [sheet] = write_sheets(small_game, state, ["Ann"])
    hw = state.player("Ann").homeworld  # type: ignore[union-attr]
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    empty = next(h for h in ("0101", "0102", "0201", "3240", "3239") if state.system(h) is None)
    ws["C11"], ws["D11"], ws["E11"] = "F2", hw, empty
    ws["C12"], ws["D12"], ws["E12"] = "F2 Q9", hw, hw
    ws[f"B{layout.MSG_FIRST_ROW}"] = "Zed"
    ws[f"C{layout.MSG_FIRST_ROW}"] = "hello?"
    path = tmp_path / "Ann-sent.xlsx"
    wb.save(path)
    return path


def test_problem_cells_are_marked_and_commented(
    small_game: Game, filled: Path, tmp_path: Path
) -> None:
    result = check_sheet(filled, small_game)
    assert len(result.errors) == 3
    problems = [
        *result.problems,
        CellProblem("Orders", "C30", "", "just a warning", "ok", "warning"),
    ]
    out = annotate(filled, problems, tmp_path / "Ann-annotated.xlsx")
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames[0] == PROBLEMS_SHEET
    assert wb.active.title == PROBLEMS_SHEET
    ws = wb["Orders"]
    for p in result.problems:
        cell = ws[p.cell]
        assert cell.fill.fgColor.rgb == ERROR_FILL, p.cell
        assert cell.comment is not None and p.message in cell.comment.text
        assert cell.comment.author == "refassist"
    assert ws["C30"].fill.fgColor.rgb == WARNING_FILL
    listed = list(wb[PROBLEMS_SHEET].iter_rows(min_row=2, max_col=6, values_only=True))
    assert len(listed) == 4
    assert [row[0] for row in listed] == ["error", "error", "error", "warning"]
    assert {row[2] for row in listed} == {p.cell for p in problems}
    # The original is untouched.
    assert openpyxl.load_workbook(filled)["Orders"]["C12"].comment is None


def test_annotated_copy_is_still_the_players_turn_sheet(
    small_game: Game, filled: Path, tmp_path: Path
) -> None:
    result = check_sheet(filled, small_game)
    out = annotate(filled, result.problems, tmp_path / "annotated.xlsx")
    before, after = read_sheet(filled), read_sheet(out)
    assert after.orders == before.orders
    assert after.problems == before.problems
    assert after.meta == before.meta
    wb = openpyxl.load_workbook(out)
    assert wb["_meta"].sheet_state == "veryHidden"
    assert wb["Orders"].protection.sheet
    assert check_sheet(out, small_game).problems == result.problems


def test_fixing_and_annotating_again_restores_the_cells(
    small_game: Game, filled: Path, tmp_path: Path
) -> None:
    result = check_sheet(filled, small_game)
    first = annotate(filled, result.problems, tmp_path / "first.xlsx")
    original_fill = openpyxl.load_workbook(filled)["Orders"]["C12"].fill.fgColor.rgb
    # The player fixes row 12 and the message, then sends the annotated copy back.
    wb = openpyxl.load_workbook(first)
    ws = wb["Orders"]
    ws["C12"] = "F1"
    ws["E12"] = ws["E11"].value
    ws[f"B{layout.MSG_FIRST_ROW}"] = "Bob"
    wb.save(first)
    again = check_sheet(first, small_game)
    assert [p.cell for p in again.errors] == ["E11", "E12"]
    second = annotate(first, again.problems, tmp_path / "second.xlsx")
    wb = openpyxl.load_workbook(second)
    ws = wb["Orders"]
    assert ws["C12"].fill.fgColor.rgb == original_fill
    assert ws["C12"].comment is None
    assert ws[f"B{layout.MSG_FIRST_ROW}"].comment is None
    assert ws["E12"].fill.fgColor.rgb == ERROR_FILL  # the destination typed on row 12
    assert wb.sheetnames.count(PROBLEMS_SHEET) == 1
    assert wb[PROBLEMS_SHEET].max_row == 3
    # With nothing left to report, every mark goes away.
    third = annotate(second, [], tmp_path / "third.xlsx")
    ws = openpyxl.load_workbook(third)["Orders"]
    assert ws["E12"].fill.fgColor.rgb == ws["E13"].fill.fgColor.rgb
    assert ws["E12"].comment is None


def test_problem_inside_a_merged_cell_marks_the_merge(
    small_game: Game, filled: Path, tmp_path: Path
) -> None:
    problem = CellProblem("Orders", f"E{layout.MSG_FIRST_ROW}", "x", "inside the merge", "fix")
    out = annotate(filled, [problem], tmp_path / "merged.xlsx")
    cell = openpyxl.load_workbook(out)["Orders"][f"C{layout.MSG_FIRST_ROW}"]
    assert cell.comment is not None and "inside the merge" in cell.comment.text


def test_problems_without_a_cell_are_listed_only(
    small_game: Game, filled: Path, tmp_path: Path
) -> None:
    problems = [
        CellProblem("Ann.xlsx", "", "5000", "this is the sheet for an earlier turn", "use 5001"),
        CellProblem("Nowhere", "A1", "", "a sheet that does not exist", ""),
    ]
    out = annotate(filled, problems, tmp_path / "listed.xlsx")
    rows = list(
        openpyxl.load_workbook(out)[PROBLEMS_SHEET].iter_rows(
            min_row=2, max_col=5, values_only=True
        )
    )
    assert [r[4] for r in rows] == [p.message for p in problems]


def test_found_text_that_looks_like_a_formula_stays_text(
    small_game: Game, filled: Path, tmp_path: Path
) -> None:
    problem = CellProblem("Orders", "C11", '=HYPERLINK("http://x")', "bad", "fix")
    out = annotate(filled, [problem], tmp_path / "text.xlsx")
    cell = openpyxl.load_workbook(out)[PROBLEMS_SHEET]["D2"]
    assert cell.data_type == "s" and cell.value.startswith("=HYPERLINK")
