"""A turn sheet read twice in one process is parsed once (`sheetreads.SHEET_READS`).

The intake, resolve and the reports each read a turn's sheets; what a sheet says depends only
on its bytes, so the second reading of the same bytes is answered from memory.  These tests
show that it gives the same answer, a copy that cannot be changed behind the cache's back,
that changed bytes are read afresh, and that refused files are refused every time.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from refassist.errors import NotATurnSheet
from refassist.rulesets.fifth_millennium import sheet as fm_sheet
from refassist.rulesets.fifth_millennium.ai import computer_orders
from refassist.rulesets.fifth_millennium.orders import MessageOrder
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets
from refassist.workbook import sheetreads


@pytest.fixture
def filled(small_game: Game) -> Path:
    state = small_game.load_state()
    path = write_sheets(small_game, state)[0]
    orders = computer_orders(state, state.player_names()[0], 1, small_game.config.house_rules)
    fm_sheet.fill_sheet(path, orders)
    return path


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every checked opening of a sheet (openpyxl's load), by path."""
    calls: list[Path] = []
    real = sheetreads.open_turn_sheet

    def counting(path: Path, **kwargs: object):  # type: ignore[no-untyped-def]
        calls.append(Path(path))
        return real(path, **kwargs)

    monkeypatch.setattr(sheetreads, "open_turn_sheet", counting)
    sheetreads.SHEET_READS.clear()
    return calls


def test_the_same_bytes_are_parsed_once(filled: Path, opened: list[Path], tmp_path: Path) -> None:
    first = fm_sheet.read_sheet(filled)
    copy = tmp_path / "elsewhere.xlsx"
    shutil.copyfile(filled, copy)
    again = fm_sheet.read_sheet(filled)
    moved = fm_sheet.read_sheet(copy)  # the archive's copy of the same sheet
    assert opened == [filled]
    assert first == again == moved
    assert first.orders.moves or first.orders.purchases


def test_the_answer_is_a_copy(filled: Path, opened: list[Path]) -> None:
    first = fm_sheet.read_sheet(filled)
    first.orders.moves.clear()
    first.problems.append("changed by a caller")  # type: ignore[arg-type]
    again = fm_sheet.read_sheet(filled)
    assert again.orders.moves and "changed by a caller" not in again.problems
    assert len(opened) == 1


def test_changed_bytes_are_read_afresh(filled: Path, opened: list[Path]) -> None:
    before = fm_sheet.read_sheet(filled)
    orders = before.orders
    orders.messages.append(MessageOrder("*", "A corrected sheet: peace to all."))
    fm_sheet.fill_sheet(filled, orders)  # a corrected sheet, saved over the old one
    after = fm_sheet.read_sheet(filled)
    assert len(opened) == 2
    assert after.orders.messages[-1].text == "A corrected sheet: peace to all."


def test_a_refused_file_is_refused_every_time(tmp_path: Path, opened: list[Path]) -> None:
    bogus = tmp_path / "orders.xlsx"
    bogus.write_text("name,orders\nAnn,attack\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(NotATurnSheet):
            fm_sheet.read_sheet(bogus)
    assert opened == [bogus, bogus]
