"""The master workbook writer: data rows spliced into xlsxwriter's package (`bulkrows`).

The rows must read back exactly as xlsxwriter's own cells would (python-calamine, openpyxl
and LibreOffice), the sheets must keep what xlsxwriter gives them (header comments, the text
format of hex columns, frozen header, filter), and the rows remembered from the last write
must never leak into the next one.
"""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from python_calamine import CalamineWorkbook

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import NewGame
from refassist.rulesets.fifth_millennium.state import Message
from refassist.workbook.bulkrows import MAX_TEXT, SheetRows, escape_text, splice, string_cell
from refassist.workbook.master import read_master, write_master
from tests.conftest import players
from tests.libreoffice import through_libreoffice

FM = find_ruleset("fifth-millennium")
RULES = FM.default_house_rules()

#: Text that tests every escaping rule of a cell.
AWKWARD = [
    "plain",
    "  leading and trailing  ",
    "a & b < c > d \"quoted\" 'single'",
    "control \x01 \x07 \x1f characters",
    "_x0041_ looks like an escape",
    "line\nbreak\tand tab",
    "\r\n",
    "é€ 😀 漢字",
    '=HYPERLINK("http://evil.example","x")',
    "x" * (MAX_TEXT + 10),
    "😀" * (MAX_TEXT // 2 + 5),
]


def _played(turns: int = 6):
    setup = NewGame(
        game_name="Writer",
        game_id="writer",
        players=tuple(players(4)),
        house_rules=RULES,
        generate_seed=3,
        assign_homeworlds=True,
    )
    state = FM.new_game(setup, Dice.for_turn(1, 0))
    for _ in range(turns):
        orders = {p: FM.computer_orders(state, p, 1, RULES) for p in state.active_players()}
        state = FM.resolve(state, orders, Dice.for_turn(1, state.year), RULES).state
    return state


def _calamine_column(data: bytes, sheet: str, column: int) -> list[object]:
    rows = CalamineWorkbook.from_filelike(io.BytesIO(data)).get_sheet_by_name(sheet).to_python()
    return [row[column] if column < len(row) else "" for row in rows]


def test_spliced_cells_read_as_xlsxwriter_cells() -> None:
    """The same strings written by xlsxwriter itself and spliced in read back the same."""
    reference = io.BytesIO()
    book = xlsxwriter.Workbook(reference, {"in_memory": True})
    sheet = book.add_worksheet("S")
    sheet.write_string(0, 0, "header")
    for r, text in enumerate(AWKWARD, start=1):
        sheet.write_string(r, 0, text)
    book.close()
    package = io.BytesIO()
    book = xlsxwriter.Workbook(package, {"in_memory": True})
    book.add_worksheet("S").write_string(0, 0, "header")
    book.close()
    rows = "".join(
        f'<row r="{r}">{string_cell(f"A{r}", text)}</row>'
        for r, text in enumerate(AWKWARD, start=2)
    )
    spliced = splice(
        package.getvalue(), {"xl/worksheets/sheet1.xml": SheetRows(rows, f"A1:A{len(AWKWARD) + 1}")}
    )
    assert _calamine_column(spliced, "S", 0) == _calamine_column(reference.getvalue(), "S", 0)
    assert escape_text("a_x0041_b") == "a_x005F_x0041_b"


def test_the_master_reads_back_as_the_state_written(tmp_path: Path) -> None:
    state = _played()
    state.messages.append(Message(state.year - 1, "Ann", "*", AWKWARD[3] + AWKWARD[4]))
    path = tmp_path / "master.xlsx"
    write_master(path, FM, state, title="Writer")
    assert FM.to_json(read_master(path, FM)) == FM.to_json(state)


def test_rows_remembered_from_the_last_write_never_leak(tmp_path: Path) -> None:
    """Write A, then B, then A again: each file holds exactly its own state."""
    first = _played(3)
    second = _played(6)
    for n, state in enumerate((first, second, first, second)):
        path = tmp_path / f"master-{n}.xlsx"
        write_master(path, FM, state)
        assert FM.to_json(read_master(path, FM)) == FM.to_json(state)


def test_the_sheets_keep_their_formats_comments_and_filters(tmp_path: Path) -> None:
    state = _played(3)
    path = tmp_path / "master.xlsx"
    write_master(path, FM, state)
    book = openpyxl.load_workbook(path)
    squadrons = book["Squadrons"]
    assert squadrons.freeze_panes == "A2"
    assert squadrons.auto_filter.ref == f"A1:L{len(state.forces) + 1}"
    assert squadrons["A2"].value == state.forces[0].hex
    assert squadrons["A2"].number_format == "@"  # a referee typing 0101 keeps the zero
    assert squadrons["B1"].comment is not None
    assert squadrons["C2"].value == state.forces[0].fleet.F  # a number, not text
    systems = book["Systems"]
    assert systems.max_row == len(state.systems) + 1
    assert systems["E2"].value in ("yes", "no")


@pytest.mark.libreoffice
def test_libreoffice_opens_and_saves_the_master_unchanged(tmp_path: Path) -> None:
    state = _played(4)
    path = tmp_path / "master.xlsx"
    write_master(path, FM, state)
    out = through_libreoffice(path, tmp_path)
    assert FM.to_json(read_master(out, FM)) == FM.to_json(state)
