"""A game of any ruleset whose players' sheets are filled in with computer orders, as a player
would type them: what the tests of other spreadsheet programs' files (LibreOffice's ``.ods``,
Google Sheets' download) start from, so that every game is covered without naming one."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import openpyxl

from refassist.rulesets.base import Ruleset
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets

from .test_conformance import first_order

SEED = 5


@dataclass(frozen=True)
class FilledGame:
    """A new game, the step it waits for, and each expected player's filled-in sheet."""

    game: Game
    step: str
    sheets: dict[str, Path]

    @property
    def ruleset(self) -> Ruleset:
        return self.game.ruleset


def filled_game(folder: Path, ruleset: Ruleset, seed: int = SEED) -> FilledGame:
    """The fewest computer players the game allows (two at least) on its default or a
    generated map, each sheet of the first step typed into by its player's computer orders
    (copies in ``folder/filled/``; the game is in ``folder/game``)."""
    game = Game.create(
        folder / "game",
        ruleset,
        ruleset.demo_players(max(ruleset.min_players, 2)),
        name="Other programs",
        seed=seed,
        generate_seed=seed if ruleset.generates_maps else None,
        assign_homeworlds=True,
    )
    state = game.load_state()
    step = game.step(state)
    with game.lock():
        written = {p.stem: p for p in write_sheets(game, state)}
    filled = folder / "filled"
    filled.mkdir(parents=True, exist_ok=True)
    sheets = {}
    for player in step.expects:
        target = filled / written[player].name
        shutil.copyfile(written[player], target)
        ruleset.fill_sheet(
            target, ruleset.computer_orders(state, player, seed, game.config.house_rules)
        )
        sheets[player] = target
    return FilledGame(game, step.key, sheets)


def spoiled_copy(filled: FilledGame, target: Path) -> set[str]:
    """A copy of the first player's sheet with its first order's cells overwritten by
    nonsense (saved by openpyxl, as a player's program would save it); the cells spoiled."""
    first = next(iter(filled.sheets.values()))
    _order, cells = first_order(filled.ruleset.read_sheet(first).orders)
    workbook = openpyxl.load_workbook(first)
    for cell in cells:
        sheet, _, ref = cell.rpartition("!")
        (workbook[sheet] if sheet else workbook.worksheets[0])[ref] = "§§ nonsense"
    workbook.save(target)
    return cells


def formula_copy(filled: FilledGame, target: Path) -> tuple[str, str]:
    """A copy of the first player's sheet with its first order's first cell typed as a
    formula giving the same value (``="F2 S0"``), never calculated: LibreOffice calculates it
    when it opens the copy.  The cell (``Sheet!A1``) and the formula."""
    first = next(iter(filled.sheets.values()))
    _order, cells = first_order(filled.ruleset.read_sheet(first).orders)
    cell = sorted(cells)[0]
    workbook = openpyxl.load_workbook(first)
    sheet, _, ref = cell.rpartition("!")
    ws = workbook[sheet] if sheet else workbook.worksheets[0]
    value = ws[ref].value
    formula = '="' + value.replace('"', '""') + '"' if isinstance(value, str) else f"={value}"
    ws[ref] = formula
    workbook.save(target)
    return f"{ws.title}!{ref}", formula
