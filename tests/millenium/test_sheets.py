"""Millenium's sheets written in French and in English, filled in as a player would, read
back (also after LibreOffice), with the notation of either language and hostile cells
refused on their cell."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from refassist.rulesets.millenium import sheet
from refassist.rulesets.millenium.ai import computer_orders
from refassist.rulesets.millenium.setup import new_state
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, State, mover
from refassist.text.i18n import speaking_to
from tests.libreoffice import through_libreoffice

from .situations import MAP, TABLES
from .test_secrets import PLAYERS, play

PACKAGE = "refassist.rulesets.millenium"


@pytest.fixture(scope="module")
def states() -> list[State]:
    """The Empire's set-up, the Extraterrestrial's, then game turns 1 and 2."""
    return [new_state("g", "Orion", MAP, PLAYERS, TABLES.fleets), *play(5)[:3]]


def _mover(state: State) -> str:
    side = (EMPIRE if not state.systems else ALIEN) if state.turn == 0 else mover(state.turn)
    return PLAYERS[side]


def _written(state: State, path: Path, language: str) -> None:
    with speaking_to(language, PACKAGE):
        sheet.write_sheet(state, _mover(state), path, token="t", deadline="jeu. 26 nov. 2026 21:00")


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("step", [0, 1, 2, 3])
def test_every_sheet_reads_back_what_was_typed(
    states: list[State], tmp_path: Path, step: int, language: str
) -> None:
    state = states[step]
    path = tmp_path / "sheet.xlsx"
    _written(state, path, language)
    orders = computer_orders(state, _mover(state), 5)
    sheet.fill_sheet(path, orders)
    read = sheet.read_sheet(path)
    assert read.problems == []
    # As the sheet's reader reads them: the computer typed in his language's words and sector
    # letters (a French reader's O), and what it typed is echoed as typed.
    with speaking_to(language, PACKAGE):
        assert sheet.orders_text(read.orders) == sheet.orders_text(orders)
    assert read.meta["language"] == language


def test_a_french_sheet_speaks_french_and_an_english_one_english(
    states: list[State], tmp_path: Path
) -> None:
    for language, tab, title, fleets, situation in (
        ("fr", "Ordres", "MILLENIUM - ORDRES", "FLOTTES - une ligne par flotte", "Vos flottes"),
        ("en", "Orders", "MILLENIUM - ORDERS", "FLEETS - one line per fleet", "Your fleets"),
    ):
        path = tmp_path / f"{language}.xlsx"
        _written(states[2], path, language)
        book = openpyxl.load_workbook(path)
        orders, seen = book[tab], book["Situation"]
        assert orders["A1"].value == title
        assert orders[f"A{sheet.FLEET_SECTION_ROW}"].value == fleets
        assert situation in [c.value for c in seen["A"]]
        assert "Page &P" in orders.oddFooter.right.text
    french = openpyxl.load_workbook(tmp_path / "fr.xlsx")["Ordres"]
    assert french["A2"].value == "Tour de jeu 1 sur 20"
    assert french.oddFooter.right.text == "Page &P sur &N"


def test_set_up_sheets_say_what_each_side_may_know(states: list[State], tmp_path: Path) -> None:
    empire, alien = tmp_path / "empire.xlsx", tmp_path / "alien.xlsx"
    _written(states[0], empire, "fr")
    _written(states[1], alien, "fr")
    empire_text = " ".join(
        str(c.value)
        for row in openpyxl.load_workbook(empire)["Situation"].iter_rows()
        for c in row
        if c.value
    )
    alien_text = " ".join(
        str(c.value)
        for row in openpyxl.load_workbook(alien)["Situation"].iter_rows()
        for c in row
        if c.value
    )
    assert "fiche 1\u00a0: fidélité 6" in empire_text  # the cards to deal
    assert "fiche non vue" in alien_text and "fidélité" not in alien_text.replace(
        "fiche non vue", ""
    )
    assert states[1].imperial not in alien_text.split()


def test_the_notation_reads_in_either_language(states: list[State], tmp_path: Path) -> None:
    path = tmp_path / "sheet.xlsx"
    _written(states[2], path, "en")
    book = openpyxl.load_workbook(path)
    ws = book["Orders"]
    r = sheet.FLEET_FIRST_ROW
    ws[f"B{r}"], ws[f"C{r}"], ws[f"D{r}"] = "K", "Mouvement", "23O4 23I4"
    ws[f"B{r + 1}"], ws[f"C{r + 1}"], ws[f"D{r + 1}"] = "ω", "jump", "33 6"
    ws[f"G{r + 1}"], ws[f"H{r + 1}"] = "O", "libre"
    r = sheet.BUY_FIRST_ROW
    ws[f"B{r}"], ws[f"C{r}"], ws[f"D{r}"] = "δ", "Frégates", "2"
    book.save(path)
    read = sheet.read_sheet(path)
    assert read.problems == []
    move, jump = read.orders.moves
    assert [str(p) for p in move.path] == ["23W4", "23C4"]
    assert (jump.zone, jump.level, jump.free_direction, jump.free_sector) == ((3, 3), 6, "W", "LB")
    assert read.orders.purchases[0].kind == "fregate" and read.orders.purchases[0].count == 2


def test_problems_are_pinned_to_their_cells_in_the_readers_language(
    states: list[State], tmp_path: Path
) -> None:
    path = tmp_path / "sheet.xlsx"
    _written(states[2], path, "fr")
    book = openpyxl.load_workbook(path)
    ws = book["Ordres"]
    r = sheet.FLEET_FIRST_ROW
    ws[f"B{r}"], ws[f"C{r}"], ws[f"D{r}"] = "K", "voler", "23N4"
    ws[f"B{r + 1}"], ws[f"C{r + 1}"], ws[f"D{r + 1}"] = "δ", "mouvement", "23Q4"
    ws[f"B{r + 2}"], ws[f"C{r + 2}"], ws[f"D{r + 2}"] = "κ", "mouvement", '=HYPERLINK("http://x")'
    book.save(path)
    with speaking_to("fr", PACKAGE):
        read = sheet.read_sheet(path)
    cells = {p.cell: p.message for p in read.problems}
    assert f"C{r}" in cells and "n'est pas un ordre" in cells[f"C{r}"]
    assert f"D{r + 1}" in cells and "n'est pas une position" in cells[f"D{r + 1}"]
    assert f"D{r + 2}" in cells  # a formula is never read as an order
    assert read.orders.moves == []


@pytest.mark.libreoffice
def test_a_sheet_survives_libreoffice(states: list[State], tmp_path: Path) -> None:
    for step in (0, 2):
        state = states[step]
        path = tmp_path / f"sheet{step}.xlsx"
        _written(state, path, "fr")
        orders = computer_orders(state, _mover(state), 5)
        sheet.fill_sheet(path, orders)
        converted = through_libreoffice(path, tmp_path / f"lo{step}")
        read = sheet.read_sheet(converted)
        assert read.problems == []
        with speaking_to("fr", PACKAGE):  # as a French reader reads them (O for ouest)
            assert sheet.orders_text(read.orders) == sheet.orders_text(orders)
