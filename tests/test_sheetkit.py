"""The cell-reference and message helpers every turn sheet uses."""

from __future__ import annotations

from pathlib import Path

from refassist.workbook.sheetkit import cell_col, cell_rc, cell_row, split_message


def test_cell_references_for_xlsxwriter() -> None:
    assert (cell_row("B14"), cell_col("B14")) == (14, "B")
    assert cell_rc("A1") == (0, 0)
    assert cell_rc("B14") == (13, 1)
    assert cell_rc("AA3") == (2, 26)


def test_parser_messages_split_into_what_and_fix() -> None:
    assert split_message("no such fleet; use the names listed") == (
        "no such fleet",
        "Use the names listed.",
    )
    assert split_message("just a message") == ("just a message", "")


def test_dropdown_lists_go_one_per_column_each_value_once(tmp_path: Path) -> None:
    import openpyxl
    import xlsxwriter

    from refassist.workbook.sheetkit import DropdownLists

    path = tmp_path / "lists.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    lists = DropdownLists(wb.add_worksheet("Lists"), "Lists")
    assert lists.add(["DD", "CA", "DD"]) == "='Lists'!$A$1:$A$2"
    assert lists.add([]) is None
    assert lists.add(["SOL"]) == "='Lists'!$B$1:$B$1"
    wb.close()
    ws = openpyxl.load_workbook(path)["Lists"]
    assert [c.value for c in ws["A"]] == ["DD", "CA"] and ws["B1"].value == "SOL"
