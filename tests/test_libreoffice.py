"""A sheet that went through LibreOffice Calc must read identically.

Players fill sheets in LibreOffice, which rewrites the whole file when it saves: styles,
shared strings, numbers typed into text cells, and the very hidden meta sheet (which becomes
merely hidden).  These tests convert real sheets with ``soffice --headless --convert-to xlsx``
(a private profile per call, so they run in parallel) and compare what the reader gets.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from refassist.rulesets.fifth_millennium.orders import (
    Diplomacy,
    MessageOrder,
    Move,
    Orders,
    Purchase,
)
from refassist.rulesets.fifth_millennium.sheet import fill_sheet, read_sheet
from refassist.rulesets.fifth_millennium.state import Fleet
from refassist.store.game import Game
from refassist.store.turnsheets import check_sheet, write_sheets
from refassist.workbook.annotate import annotate

from .libreoffice import through_libreoffice

pytestmark = pytest.mark.libreoffice


def _orders(state, hw: str, near: str) -> Orders:  # type: ignore[no-untyped-def]
    return Orders(
        "Ann",
        state.year,
        moves=[
            Move(state.year, Fleet(F=4, S=0, A=0), hw, near),
            Move(state.year, Fleet(), hw, "0101", probe=True),
        ],
        purchases=[Purchase(hw, "GL", 2), Purchase(hw, "F", 1)],
        diplomacy=[Diplomacy("propose treaty", "Bob")],
        messages=[MessageOrder("*", "Ça va? — greetings, 5001")],
        stockpile_at=hw,
    )


def test_filled_sheet_reads_identically_after_libreoffice(small_game: Game, tmp_path: Path) -> None:
    state = small_game.load_state()
    [generated] = write_sheets(small_game, state, ["Ann"])
    sheet = tmp_path / "Ann.xlsx"
    shutil.copy(generated, sheet)
    hw = state.player("Ann").homeworld  # type: ignore[union-attr]
    from refassist.geometry.hexmap import distance

    near = min((s.hex for s in state.systems if s.hex != hw), key=lambda h: distance(hw, h))
    fill_sheet(sheet, _orders(state, hw, near))
    # And some typing a player would do by hand, odd spellings included.
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    ws["B13"] = f"{state.year} – f1s0a0 — {hw} - {near}"
    ws["C14"], ws["D14"], ws["E14"] = "F1", int(hw), int(near)
    wb.save(sheet)

    before = read_sheet(sheet)
    converted = through_libreoffice(sheet, tmp_path)
    after = read_sheet(converted)
    assert after.orders == before.orders
    assert after.problems == before.problems == []
    assert after.meta == before.meta
    assert openpyxl.load_workbook(converted)["_meta"].sheet_state == "hidden"
    # The converted sheet is still this player's genuine sheet for this turn.
    result = check_sheet(converted, small_game)
    assert result.meta["player"] == "Ann" and not result.wrong_step


def test_annotated_copy_survives_libreoffice(small_game: Game, tmp_path: Path) -> None:
    state = small_game.load_state()
    [generated] = write_sheets(small_game, state, ["Ann"])
    sheet = tmp_path / "Ann.xlsx"
    shutil.copy(generated, sheet)
    wb = openpyxl.load_workbook(sheet)
    wb["Orders"]["B11"] = f"{state.year} - F99 - 0101 - 0102"
    wb.save(sheet)
    result = check_sheet(sheet, small_game)
    assert result.errors
    annotated = annotate(sheet, result.problems, tmp_path / "Ann-annotated.xlsx")
    converted = through_libreoffice(annotated, tmp_path)
    again = check_sheet(converted, small_game)
    assert again.orders == result.orders
    assert again.problems == result.problems
    wb = openpyxl.load_workbook(converted)
    assert "Problems" in wb.sheetnames
    assert wb["Orders"]["B11"].comment is not None
    pdf = through_libreoffice(annotated, tmp_path, "pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
