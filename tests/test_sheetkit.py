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


def test_a_reader_reads_the_lines_that_hold_anything_in_sheet_order(tmp_path: Path) -> None:
    """`SheetReader.lines`: a blank row is no order; a formula is a problem on its cell and
    reads as empty, so a row holding only that is left out with the problem kept."""
    import openpyxl

    from refassist.workbook.sheetio import META_FORMAT, META_SHEET, open_turn_sheet
    from refassist.workbook.sheetkit import SheetReader

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Orders"
    ws["B10"], ws["C10"] = "scrap", "CA1"
    ws["C12"] = "DD2"  # a units cell without its kind: still a line
    ws["B13"] = "=1+1"  # a formula alone
    ws["B14"] = "repair"
    ws["D14"] = "out of the columns read"
    meta = wb.create_sheet(META_SHEET)
    meta.append(["format", META_FORMAT])
    meta.append(["ruleset", "test"])
    path = tmp_path / "lines.xlsx"
    wb.save(path)
    reader = SheetReader(open_turn_sheet(path), "Orders")
    lines = list(reader.lines(10, 6, "BC"))
    assert lines == [
        (["B10", "C10"], ["scrap", "CA1"]),
        (["B12", "C12"], ["", "DD2"]),
        (["B14", "C14"], ["repair", ""]),
    ]
    assert [p.cell for p in reader.problems] == ["B13"]
    assert list(reader.lines(16, 0, "BC")) == []
