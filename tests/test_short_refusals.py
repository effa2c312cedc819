"""Refusals short and right (issue 53): a long cell is quoted by a line at most, and a real
sheet with long texts is no "zip bomb" while a real bomb still is.

Real sheets written by the games' writers, typed into with openpyxl as a player's program
would, read back by the games' readers.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest

from refassist.errors import NotATurnSheet
from refassist.rulesets.millenium import sheet as mil_sheet
from refassist.text.i18n import speaking_to
from refassist.workbook.sheetio import open_turn_sheet
from tests.millennium_wars.test_sheet import RULESET as WARS
from tests.millennium_wars.test_sheet import start as wars_start
from tests.millennium_wars.test_sheet import written as wars_written

#: The most of a cell a message quotes (`celltext.QUOTE_CHARS`).
QUOTE_CHARS = 60
#: A cell as long as a sheet takes (`limits.MAX_INPUT_TEXT` is 10,000), of one line.
LONG = "Z" * 9_900


def _fill(path: Path, sheet: str, rows: range, columns: str, text: str) -> int:
    """Type ``text`` (with the cell's name, so no two are alike) into every empty cell of
    ``rows`` x ``columns``; how many cells were typed into."""
    book = openpyxl.load_workbook(path)
    ws = book[sheet]
    typed = 0
    for row in rows:
        for column in columns:
            cell = ws[f"{column}{row}"]
            if cell.value is None and type(cell).__name__ == "Cell":
                cell.value = text + f"{column}{row}"
                typed += 1
    book.save(path)
    return typed


def test_excerpt_keeps_one_line_of_sixty_characters() -> None:
    from refassist.workbook.celltext import excerpt

    assert excerpt("0504 99x") == "0504 99x"
    assert excerpt("x" * 100) == "x" * (QUOTE_CHARS - 1) + "\u2026"
    assert len(excerpt("x" * 100)) == QUOTE_CHARS
    assert excerpt("first line\nsecond line") == "first line\u2026"
    assert excerpt("") == ""


def _assert_short(problems: list, cells: int) -> None:
    assert problems, "the long cells were read without a word"
    for problem in problems:
        shown = problem.shown()
        assert len(shown) < 400, shown[:200]
        assert "Z" * QUOTE_CHARS not in shown
    # A reply quoting each cell whole would be 10,000 characters a cell.
    assert sum(len(p.shown()) for p in problems) < 400 * cells


def test_millennium_wars_quotes_a_long_cell_by_one_short_line(tmp_path: Path) -> None:
    path = wars_written(wars_start(), "Ann", tmp_path)
    cells = _fill(path, "Orders", range(10, 61), "BCDEFGH", LONG)
    read = WARS.read_sheet(path)
    _assert_short(list(read.problems), cells)
    assert any("\u2026" in p.message for p in read.problems)


def test_millenium_quotes_a_long_cell_by_one_short_line(tmp_path: Path) -> None:
    from tests.millenium.test_sheets import _written
    from tests.millenium.test_sheets import states as states_fixture

    state = states_fixture.__wrapped__()[2]  # type: ignore[attr-defined]
    path = tmp_path / "sheet.xlsx"
    _written(state, path, "en")
    first = mil_sheet.FLEET_FIRST_ROW
    cells = _fill(path, "Orders", range(first, first + 12), "BCDE", LONG)
    with speaking_to("en", "refassist.rulesets.millenium"):
        read = mil_sheet.read_sheet(path)
    _assert_short(list(read.problems), cells)
    assert any("\u2026" in p.message for p in read.problems)


def test_a_real_sheet_with_long_texts_in_many_cells_is_no_zip_bomb(tmp_path: Path) -> None:
    path = wars_written(wars_start(), "Ann", tmp_path)
    cells = _fill(path, "Orders", range(10, 61), "BCDEFGH", LONG)
    assert cells > 100
    with zipfile.ZipFile(path) as zf:
        biggest = max(zf.infolist(), key=lambda i: i.file_size)
    assert biggest.file_size > 100 * biggest.compress_size  # it packs as well as a bomb
    open_turn_sheet(path)  # no refusal
    read = WARS.read_sheet(path)
    assert {p.sheet for p in read.problems} == {"Orders"}  # refused for its real problems


def _with_part(source: Path, target: Path, name: str, data: bytes) -> None:
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
        for info in zin.infolist():
            if info.filename != name:
                zout.writestr(info, zin.read(info.filename), zipfile.ZIP_DEFLATED)
        zout.writestr(name, data, zipfile.ZIP_DEFLATED)


@pytest.mark.parametrize(
    ("part", "data", "said"),
    [
        # A worksheet padded to 20 MB of blanks: far past what a sheet's XML reaches.
        (
            "xl/worksheets/sheet1.xml",
            b"<worksheet>" + b" " * (20 * 1024 * 1024) + b"</worksheet>",
            "unpacks to 20 MB from",
        ),
        # A picture of 2 MB of zeros.
        ("xl/media/image9.png", bytes(2 * 1024 * 1024), "unpacks to 2 MB from"),
    ],
)
def test_a_real_bomb_is_still_refused_and_the_limit_named(
    tmp_path: Path, part: str, data: bytes, said: str
) -> None:
    sheet = wars_written(wars_start(), "Ann", tmp_path)
    bomb = tmp_path / "bomb.xlsx"
    _with_part(sheet, bomb, part, data)
    with pytest.raises(NotATurnSheet) as refused:
        open_turn_sheet(bomb)
    text = str(refused.value)
    assert "zip bomb" in text
    assert said in text
    assert "more than 100 times its packed size" in text
