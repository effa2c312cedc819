"""Conformance: every registered ruleset plays whole turns through the engine.

For each game in `refassist.rulesets.RULESETS` and a few seeds, computer players play a few
turns exactly the way a referee's week goes: the engine writes every sheet, each computer
player decides and types its orders into a copy, the sheet is read back and checked, the intake
files it, the turn is resolved and the reports are rendered.  A new game package is picked up
with no change here; if any step of its wiring is wrong (a sheet that does not read back what
was typed, a master workbook that does not reload to the same state, a report without the
reader's name), this fails for that game alone.

Marked ``slow`` (a few PDFs per turn); CI runs slow tests too.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from refassist.game import Game
from refassist.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import RULESETS
from refassist.rulesets.base import Ruleset
from refassist.turn_seed import turn_of
from refassist.turns import resolve_game
from refassist.turnsheets import write_sheets

SEEDS = (1, 2, 3)
TURNS = 3

pytestmark = pytest.mark.slow


def new_computer_game(folder: Path, ruleset: Ruleset, seed: int) -> Game:
    """A game of the ruleset's fewest computer players, on a generated map if the game makes
    maps and on its default map otherwise."""
    players = ruleset.demo_players(max(ruleset.min_players, 2))
    return Game.create(
        folder,
        ruleset,
        players,
        name=f"Conformance {seed}",
        seed=seed,
        generate_seed=seed if ruleset.generates_maps else None,
        assign_homeworlds=True,
        secret=f"conformance-{seed}",
    )


def as_json(ruleset: Ruleset, state: object) -> str:
    """The state as `refassist export` prints it: equal text is equal state (a tuple in the
    resolved state and the list it reads back as are the same JSON)."""
    return json.dumps(ruleset.to_json(state), sort_keys=True, ensure_ascii=False)


def pdf_text(path: Path) -> tuple[int, str]:
    """Pages and text of a rendered report."""
    reader = PdfReader(str(path))
    return len(reader.pages), "\n".join(page.extract_text() or "" for page in reader.pages)


def play_one_turn(game: Game, seed: int, work: Path) -> bool:
    """One turn through the engine with every check; True when the game has ended."""
    ruleset = game.ruleset
    rules = game.config.house_rules
    state = game.load_state()
    step = game.step(state)
    with game.lock():
        sheets = write_sheets(game, state)
    assert [p.stem for p in sheets] == [p for p in step.expects], "one sheet per player"

    filled = []
    for player, sheet in zip(step.expects, sheets, strict=True):
        decided = ruleset.computer_orders(state, player, seed, rules)
        typed = work / step.key / sheet.name
        typed.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sheet, typed)
        ruleset.fill_sheet(typed, decided)
        read = ruleset.read_sheet(typed)
        errors = [p for p in read.problems if p.severity == "error"]
        assert not errors, f"{player}'s typed sheet does not read: {[str(p) for p in errors]}"
        assert ruleset.orders_text(read.orders) == ruleset.orders_text(decided), (
            f"{player}'s sheet reads back other orders than were typed"
        )
        problems = ruleset.validate(state, player, read.orders, rules)
        errors = [p for p in problems if p.severity == "error"]
        assert not errors, f"{player}'s computer orders are refused: {[str(p) for p in errors]}"
        filled.append(typed)

    filed = intake(game, filled)
    assert filed.count("accepted") == len(filled), [o.status for o in filed.outcomes]

    outcome = resolve_game(game, force=True)
    assert outcome.step == step.key and sorted(outcome.with_orders) == sorted(step.expects)
    after = game.load_state()
    assert as_json(ruleset, after) == as_json(ruleset, outcome.state), "master does not reload"
    next_step = game.step(after)
    assert turn_of(game, next_step) > turn_of(game, step), "the turn number did not advance"

    run = write_reports(game, state=outcome.state, jobs=1)
    readers = {r.reader: r.path for r in run.reports}
    for player in ruleset.players(outcome.state):
        assert player in readers, f"no report for {player}"
        pages, text = pdf_text(readers[player])
        assert pages > 0 and player in text, f"{player}'s report does not name its reader"
    return bool(outcome.finished)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_computer_players_play_turns_through_the_engine(
    ruleset: Ruleset, seed: int, tmp_path: Path
) -> None:
    game = new_computer_game(tmp_path / "game", ruleset, seed)
    played = 0
    for _ in range(TURNS):
        played += 1
        if play_one_turn(game, seed, tmp_path / "computer"):
            break
    assert played >= 1
    assert len(list((game.path / "archive").glob("*/manifest.json"))) == played
