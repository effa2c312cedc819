"""The master workbook: round trip, schema errors with cell references, valid hand edits."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from refassist.errors import MasterWorkbookError
from refassist.store.game import Game
from refassist.workbook.master import read_master


def _edit(path: Path, sheet: str, cell: str, value: object) -> None:
    wb = openpyxl.load_workbook(path)
    wb[sheet][cell] = value
    wb.save(path)


def _find(path: Path, sheet: str, column_header: str, predicate) -> str:
    """The cell (e.g. 'C5') of the first row whose column value satisfies predicate."""
    ws = openpyxl.load_workbook(path)[sheet]
    headers = [c.value for c in ws[1]]
    col = headers.index(column_header) + 1
    for row in range(2, ws.max_row + 1):
        if predicate(ws.cell(row, col).value):
            return ws.cell(row, col).coordinate
    raise AssertionError(f"no row in {sheet} matches")


def test_round_trip_gives_an_identical_state(small_game: Game) -> None:
    state = small_game.load_state()
    copy = small_game.path / "copy.xlsx"
    from refassist.workbook.master import write_master

    write_master(copy, small_game.ruleset, state)
    again = read_master(copy, small_game.ruleset)
    assert json.dumps(small_game.ruleset.to_json(again), sort_keys=True) == json.dumps(
        small_game.ruleset.to_json(state), sort_keys=True
    )
    assert copy.read_bytes()[:2] == b"PK"


def test_sheets_have_frozen_headers_and_widths(small_game: Game) -> None:
    wb = openpyxl.load_workbook(small_game.master_path)
    for title in (
        "Settings",
        "Players",
        "Systems",
        "Squadrons",
        "Hyperspace",
        "Facilities",
        "Diplomacy",
        "Messages",
        "Events",
        "Dice",
    ):
        ws = wb[title]
        assert ws.freeze_panes == "A2", title
        assert ws["A1"].font.bold, title
    assert wb["Systems"].column_dimensions["B"].width >= 10


@pytest.mark.parametrize(
    ("sheet", "header", "value", "message"),
    [
        ("Systems", "Hex", "9999", "is not a hex of the sector"),
        ("Systems", "Owner", "Mallory", "is not a player of this game"),
        ("Squadrons", "F", -3, "is below the minimum of 0"),
        ("Squadrons", "Owner", "Nobody", "is not a player of this game"),
        ("Players", "Stockpile", "lots", "is not a whole number"),
        ("Systems", "Class", "Q", "is not one of A, B, C, D, E, X"),
    ],
)
def test_broken_hand_edit_is_reported_with_its_cell(
    small_game: Game, sheet: str, header: str, value: object, message: str
) -> None:
    path = small_game.master_path
    cell = _find(path, sheet, header, lambda v: v not in (None, ""))
    _edit(path, sheet, cell, value)
    before = path.read_bytes()
    with pytest.raises(MasterWorkbookError) as info:
        small_game.load_state()
    problems = info.value.problems
    assert any(p.sheet == sheet and p.cell == cell and message in p.message for p in problems), [
        str(p) for p in problems
    ]
    assert f"{sheet}!{cell}" in str(info.value)
    assert path.read_bytes() == before


def test_duplicated_system_is_reported(small_game: Game) -> None:
    path = small_game.master_path
    wb = openpyxl.load_workbook(path)
    ws = wb["Systems"]
    ws.append([c.value for c in ws[2]])
    wb.save(path)
    with pytest.raises(MasterWorkbookError, match="duplicates row 2"):
        small_game.load_state()


def test_missing_sheet_and_column_are_reported(small_game: Game) -> None:
    path = small_game.master_path
    wb = openpyxl.load_workbook(path)
    del wb["Facilities"]
    wb["Players"]["C1"] = "Points"
    wb.save(path)
    with pytest.raises(MasterWorkbookError) as info:
        small_game.load_state()
    text = str(info.value)
    assert "Facilities: sheet is missing" in text
    assert "column 'Stockpile' is missing" in text


def test_valid_hand_edit_is_honoured(small_game: Game) -> None:
    path = small_game.master_path
    cell = _find(path, "Players", "Player", lambda v: v == "Bob")
    row = cell[1:]
    ws_headers = [c.value for c in openpyxl.load_workbook(path)["Players"][1]]
    col = openpyxl.utils.get_column_letter(ws_headers.index("Stockpile") + 1)
    _edit(path, "Players", f"{col}{row}", 23)
    state = small_game.load_state()
    assert state.player("Bob").stockpile == 23


def test_columns_may_be_reordered_and_notes_added(small_game: Game) -> None:
    path = small_game.master_path
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    ws.insert_cols(1)
    ws["A1"] = "Referee's notes"
    ws["A2"] = "pays late"
    wb.save(path)
    state = small_game.load_state()
    assert len(state.players) == 3


def test_user_text_stays_text(small_game: Game) -> None:
    state = small_game.load_state()
    state.systems[0].name = '=HYPERLINK("http://evil.example","x")'
    state.systems[1].name = "http://evil.example/"
    small_game.save_state(state)
    wb = openpyxl.load_workbook(small_game.master_path)
    ws = wb["Systems"]
    cells = [c for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    formula = [c for c in cells if c.value.startswith("=HYPERLINK")]
    assert formula and all(c.data_type == "s" for c in formula)
    assert all(c.hyperlink is None for c in cells)
    assert small_game.load_state().systems[0].name.startswith("=HYPERLINK")


def test_about_sheet_documents_every_table(small_game: Game) -> None:
    wb = openpyxl.load_workbook(small_game.master_path)
    assert wb.sheetnames[0] == "About"
    text = " ".join(str(c.value) for row in wb["About"].iter_rows() for c in row if c.value)
    for title in ("Systems", "Squadrons", "Hyperspace", "Dice"):
        assert title in text


def test_declared_references_are_checked_by_the_engine() -> None:
    """`Column.refers`: a stray value is pinned to its cell with the declared words; an empty
    optional cell, an extra allowed value and a code in another case pass."""
    from refassist.errors import CellProblem
    from refassist.rulesets.base import Column, Reference, Row, Table
    from refassist.workbook.master import check_references

    people = Table("people", "People", (Column("name", "Name"),))
    owner = Reference("people", "name", "is not a person", "use one of: {choices}", also=("*",))
    place = Reference("places", "code", "is not a place", "write a place", ignore_case=True)
    things = Table(
        "things",
        "Things",
        (
            Column("owner", "Owner", "text", required=False, refers=owner),
            Column("place", "Place", refers=place),
        ),
    )
    places = Table("places", "Places", (Column("code", "Code"),))

    def row(table: str, number: int, **values: str) -> Row:
        refs = {name: f"{chr(65 + i)}{number}" for i, name in enumerate(values)}
        return Row(table, number, dict(values), refs)

    rows = {
        "people": [row("people", 2, name="Ann"), row("people", 3, name="Bob")],
        "places": [row("places", 2, code="SOL")],
        "things": [
            row("things", 2, owner="Ann", place="sol"),
            row("things", 3, owner="", place="SOL"),
            row("things", 4, owner="*", place="SOL"),
            row("things", 5, owner="Zed", place="TAU"),
        ],
    }
    problems: list[CellProblem] = []
    check_references((people, places, things), rows, problems)
    assert [(p.sheet, p.cell, p.found, p.message, p.fix) for p in problems] == [
        ("Things", "A5", "Zed", "is not a person", "use one of: *, Ann, Bob"),
        ("Things", "B5", "TAU", "is not a place", "write a place"),
    ]


def test_a_row_is_made_from_the_attributes_its_columns_name() -> None:
    """`Table.row_of`: each column from the attribute of its name, in the columns' order,
    unless given; a column the object does not have is an error, not an empty cell."""
    from types import SimpleNamespace

    from refassist.rulesets.base import Column, Table

    table = Table("t", "T", (Column("a", "A", "int"), Column("b", "B", "str")))
    item = SimpleNamespace(b=["x", "y"], a=1, other="not a column")
    assert table.row_of(item, b="x, y") == {"a": 1, "b": "x, y"}
    assert list(table.row_of(item)) == ["a", "b"]
    with pytest.raises(AttributeError):
        table.row_of(SimpleNamespace(a=1))
