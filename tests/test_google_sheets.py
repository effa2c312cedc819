"""A turn sheet opened in Google Sheets and downloaded back as ``.xlsx`` reads as the sheet it
was, in every game.

Some players fill in their sheet in Google Sheets and download it as ``.xlsx``: a new package
written by Google, without cell protection, with no very hidden sheet, padded to a thousand
rows (`tests.googlesheets` says what it keeps and what it loses, and tries both sides of what
may vary).  Each game's computer players' filled-in sheets go through it: the same orders,
problems and hidden data, a genuine sheet of its game, filed by the intake; a problem stays
pinned to its cell.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from refassist.intake.inbox import intake
from refassist.rulesets import RULESETS
from refassist.rulesets.base import Ruleset
from refassist.store.game import Game
from refassist.store.turnsheets import check_sheet
from refassist.workbook.sheetio import open_turn_sheet

from .computer_sheets import FilledGame, filled_game, spoiled_copy
from .googlesheets import GRID_ROWS, Export, as_google_download

EXPORTS = {
    "shared-strings": Export(),
    "inline-strings-decimal-numbers-meta-unhidden": Export(
        inline_strings=True, decimal_numbers=True, meta_state="visible"
    ),
}


@pytest.fixture(scope="module", params=RULESETS, ids=lambda r: r.name)
def filled(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> FilledGame:
    ruleset: Ruleset = request.param
    return filled_game(tmp_path_factory.mktemp(ruleset.name), ruleset)


def downloads(filled: FilledGame, folder: Path, export: Export) -> dict[str, Path]:
    """Every player's sheet as Google Sheets' download of it."""
    folder.mkdir(parents=True, exist_ok=True)
    return {p: as_google_download(s, folder / s.name, export) for p, s in filled.sheets.items()}


@pytest.mark.parametrize("export", list(EXPORTS.values()), ids=list(EXPORTS))
def test_a_google_download_reads_as_the_sheet_it_was(
    filled: FilledGame, tmp_path: Path, export: Export
) -> None:
    ruleset, game = filled.ruleset, filled.game
    for player, google in downloads(filled, tmp_path / "google", export).items():
        expected, got = ruleset.read_sheet(filled.sheets[player]), ruleset.read_sheet(google)
        assert got.orders == expected.orders, player
        assert got.problems == expected.problems == [], player
        assert got.meta == expected.meta

        # What the download changed, as the reader sees it.
        opened = open_turn_sheet(google).workbook
        assert opened["_meta"].sheet_state == export.meta_state
        page = opened.worksheets[0]
        assert page.max_row >= GRID_ROWS
        assert all(c.protection.locked for row in page.iter_rows() for c in row)

        result = check_sheet(google, game)
        assert result.meta["player"] == player and not result.wrong_step
        assert result.errors == [], [str(p) for p in result.errors]


def test_the_intake_files_google_downloads(filled: FilledGame, tmp_path: Path) -> None:
    shutil.copytree(filled.game.path, tmp_path / "game")
    game = Game.open(tmp_path / "game")
    sheets = downloads(filled, tmp_path / "google", Export(inline_strings=True))
    report = intake(game, list(sheets.values()))
    assert [(o.status, o.player) for o in report.outcomes] == [("accepted", p) for p in sheets]
    for player, sheet in sheets.items():
        assert (
            game.inbox(filled.step) / "accepted" / sheet.name
        ).read_bytes() == sheet.read_bytes()
        assert check_sheet(sheet, game).orders == check_sheet(filled.sheets[player], game).orders


def test_a_problem_in_a_google_download_is_pinned_to_the_same_cell(
    filled: FilledGame, tmp_path: Path
) -> None:
    spoiled = tmp_path / "spoiled.xlsx"
    cells = spoiled_copy(filled, spoiled)
    google = as_google_download(spoiled, tmp_path / "google.xlsx", Export(decimal_numbers=True))
    expected, got = check_sheet(spoiled, filled.game), check_sheet(google, filled.game)
    assert got.problems == expected.problems
    assert [p for p in got.errors if p.places() & cells]
    assert openpyxl.load_workbook(google).sheetnames == openpyxl.load_workbook(spoiled).sheetnames
