"""The right words in a refusal (issue 53): too large is not "not a whole number", a problem
sits on the cell of what is wrong, a token is named as typed, and a fleet named with nothing
under it is not dropped without a word.  Real sheets written by the games' writers, typed
into with openpyxl as a player's spreadsheet would."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from refassist.errors import InvalidOrder
from refassist.rulesets.fifth_millennium.parse import parse_fleet, parse_move_line
from refassist.rulesets.full_thrust.sheet import SETUP_SHEET, block_row, read_sheet, write_sheet
from tests.full_thrust.situations import seed_map, ship
from tests.millennium_wars.test_sheet import RULESET as WARS
from tests.millennium_wars.test_sheet import start as wars_start
from tests.millennium_wars.test_sheet import type_cells
from tests.millennium_wars.test_sheet import written as wars_written


def _type(path: Path, sheet: str, cells: dict[str, object]) -> None:
    book = openpyxl.load_workbook(path)
    for ref, value in cells.items():
        book[sheet][ref] = value
    book.save(path)


def test_full_thrust_says_a_count_of_1000_is_too_large(tmp_path: Path) -> None:
    state = seed_map(week=0)
    path = tmp_path / "setup.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="Friday")
    from refassist.rulesets.full_thrust.sheet import SETUP_FIRST_ROW

    row = SETUP_FIRST_ROW + 1
    _type(path, SETUP_SHEET, {f"B{row}": "Packet merchant", f"E{row}": "1000"})
    problems = read_sheet(path).problems
    assert [(p.cell, p.severity) for p in problems] == [(f"E{row}", "error")]
    assert "not a whole number" not in problems[0].message
    assert "too large: at most 99" in problems[0].message
    _type(path, SETUP_SHEET, {f"E{row}": "two"})
    assert "not a whole number" in read_sheet(path).problems[0].message


def test_millennium_wars_says_99_political_points_is_out_of_range(tmp_path: Path) -> None:
    path = wars_written(wars_start(), "Ann", tmp_path)
    type_cells(path, {"B43": "N-1AR", "C43": "0905", "D43": "assault", "E43": "99"})
    problems = [p for p in WARS.read_sheet(path).problems if p.cell == "E43"]
    assert len(problems) == 1
    assert "not a whole number" not in problems[0].message
    assert "out of range: at most 12" in problems[0].message
    assert problems[0].fix == "Type 0 to 12."


@pytest.mark.parametrize(
    ("typed", "named", "unnamed"),
    [
        ("F-3", "'F-3' is not a number of squadrons", "F needs a number"),
        ("G10", "'G10': 'G' is not a squadron type", "'G' is not"),
        ("F10 S-2", "'S-2' is not a number of squadrons", "S needs a number"),
    ],
)
def test_fifth_millennium_names_the_token_as_typed(typed: str, named: str, unnamed: str) -> None:
    with pytest.raises(InvalidOrder) as fleet:
        parse_fleet(typed, cell="C5")
    assert named in str(fleet.value) and not str(fleet.value).startswith(unnamed)
    with pytest.raises(InvalidOrder) as move:
        parse_move_line(f"5001 - {typed} - 2710 - 2712", year_default=5001, cell="C5")
    assert named in str(move.value)
    # A letter standing alone is still the letter's own problem.
    with pytest.raises(InvalidOrder, match="F needs a number after it"):
        parse_move_line("5001 - F - 2710 - 2712", year_default=5001, cell="C5")


def test_full_thrust_warns_of_a_fleet_named_with_no_activity(tmp_path: Path) -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A")
    path = tmp_path / "week.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="Friday")
    fleet_top = block_row(1)  # the first fleet block, after the one ship's
    _type(path, "Timelines", {f"B{fleet_top}": "Red fleet"})
    problems = read_sheet(path).problems
    assert [(p.sheet, p.cell, p.severity) for p in problems] == [
        ("Timelines", f"B{fleet_top}", "warning")
    ]
    assert "no activity" in problems[0].message and problems[0].found == "Red fleet"
    # A ship's block with nothing under it is a ship without orders: no word.
    assert not [p for p in problems if p.cell == f"B{block_row(0)}"]
