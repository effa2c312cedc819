"""The shapes every game writes its turn sheet with (`refassist.workbook.sheetpage`), written
to a real .xlsx and read back with openpyxl as the readers and LibreOffice see it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from refassist.workbook.sheetkit import SheetStyles
from refassist.workbook.sheetpage import Listing, Page, typing_into
from refassist.workbook.turnbook import turn_workbook


def _write(path: Path, body: Any) -> None:
    with turn_workbook(
        path, title="t", subject="s", pages=("Orders", "Yours"), widths={"A": 9}
    ) as book:
        st = SheetStyles(book.wb)
        body(Page(book.pages[0], st, book.lists), Listing(book.pages[1], st, "Mine", span=2))
        book.finish(footer="f", print_areas=("A1:G20", "A1:C20"), meta=[("k", "v")])


def _validations(ws: Any) -> dict[str, Any]:
    return {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}


def test_questions_dropdowns_and_numbers_read_back(tmp_path: Path) -> None:
    path = tmp_path / "page.xlsx"

    def body(page: Page, listing: Listing) -> None:
        page.section(2, "MOVES")
        page.headers(3, ("#", "Fleet"))
        assert list(page.numbered(4, 3)) == [4, 5, 6]
        page.ask("B4:B6", "Fleet", "Your fleet.", ["T1", "T2", "T1"], strict=True)
        page.ask("C4:C6", "Stance", "How it fights.", ("close", "hold"), inline=True)
        page.ask("D4:D6", "Where", "A hex.", [])  # nothing to choose: the message only
        shared = page.lists.add(["SOL", "TAU"])
        assert shared is not None
        page.ask("E4", "System", "A system.", shared)
        page.ask("E5", "System", "A system.", shared)
        page.whole_number("F4:F6", "Count", "How many.", 1, 99)
        page.value("G4", 7, page.st.input_number)
        page.value("G5", "=1+1", page.st.input_text)
        page.value("G6", "", page.st.input_text)
        page.labelled("A8", "Game", "B8", "Alpha", span=2)
        page.blank("C9", page.st.input_text, through="G9")
        page.note("A10:G11", "A note.")

    _write(path, body)
    wb = openpyxl.load_workbook(path)
    ws = wb["Orders"]
    assert ws["A2"].value == "MOVES" and "A2:G2" in {str(m) for m in ws.merged_cells.ranges}
    assert [ws[f"A{r}"].value for r in (4, 5, 6)] == [1, 2, 3]
    dv = _validations(ws)
    assert dv["B4:B6"].type == "list" and dv["B4:B6"].errorStyle in (None, "stop")
    assert dv["B4:B6"].formula1 == "'Lists'!$A$1:$A$2"
    assert [c.value for c in wb["Lists"]["A"]] == ["T1", "T2"]
    assert dv["C4:C6"].formula1 == '"close,hold"' and dv["C4:C6"].errorStyle == "warning"
    assert dv["D4:D6"].type is None and dv["D4:D6"].prompt == "A hex."
    assert dv["E4"].formula1 == dv["E5"].formula1 == "'Lists'!$B$1:$B$2"
    assert (dv["F4:F6"].type, dv["F4:F6"].formula1, dv["F4:F6"].formula2) == ("whole", "1", "99")
    assert dv["F4:F6"].error == "Type a whole number from 1 to 99."
    assert ws["G4"].value == 7 and ws["G5"].value == "=1+1" and ws["G5"].data_type == "s"
    assert ws["G6"].value is None and ws["G6"].protection.locked is False
    assert (ws["A8"].value, ws["B8"].value) == ("Game", "Alpha")
    assert {"B8:D8", "C9:G9", "A10:G11"} <= {str(m) for m in ws.merged_cells.ranges}


def test_listing_blocks_and_their_length(tmp_path: Path) -> None:
    path = tmp_path / "listing.xlsx"
    rows: list[int] = []

    def body(page: Page, listing: Listing) -> None:
        listing.block("FLEETS", ["T1 at SOL", "T2 at TAU"], "None.")
        listing.block("PLANETS", [], "You hold no planet.")
        rows.append(listing.rows)

    _write(path, body)
    ws = openpyxl.load_workbook(path)["Yours"]
    column = [ws.cell(r, 1).value for r in range(1, rows[0] + 1)]
    assert column == [
        "Mine", None, "FLEETS", "T1 at SOL", "T2 at TAU", None,
        "PLANETS", "You hold no planet.", None,
    ]  # fmt: skip
    assert "A3:C3" in {str(m) for m in ws.merged_cells.ranges}


def test_typing_into_saves_only_when_all_went_well(tmp_path: Path) -> None:
    path = tmp_path / "typed.xlsx"

    def body(page: Page, listing: Listing) -> None:
        page.blank("B4", page.st.input_text)

    _write(path, body)
    before = path.read_bytes()
    with pytest.raises(RuntimeError), typing_into(path, "Orders") as (put, _):
        put("B4", "half typed")
        raise RuntimeError("the player gave up")
    assert path.read_bytes() == before
    with typing_into(path, "Orders") as (put, ws):
        put("B4", "=HYPERLINK(1)")
        assert ws["B4"].value == "=HYPERLINK(1)"
    cell = openpyxl.load_workbook(path)["Orders"]["B4"]
    assert cell.value == "=HYPERLINK(1)" and cell.data_type == "s"
    assert openpyxl.load_workbook(path)["Orders"].protection.sheet
    assert [p.name for p in tmp_path.iterdir()] == ["typed.xlsx"]
