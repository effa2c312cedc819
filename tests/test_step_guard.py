"""The engine's guard on every step: the master workbook a step would leave is read back as the
next command reads it before it replaces the old one, so no step can commit a game that
`status`, `report`, `resolve` and `sheets` then refuse (issue 52: a one-sided die written
to the Dice sheet locked a game for good)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.store.game import Game
from refassist.turns import resolve_game
from tests.conftest import three_player_game


def _with_a_one_sided_die(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the game's rules write a die of one side into the Dice sheet (the broken random
    deal's fault), as any ruleset's bug could write a value its column refuses."""
    ruleset = game.ruleset
    honest = ruleset.to_tables

    def broken(state: Any) -> dict[str, list[dict[str, Any]]]:
        tables = dict(honest(state))
        roll = {"seq": 1, "turn": 1, "phase": "", "location": "", "purpose": "a card"}
        tables["dice"] = [{**roll, "sides": 1, "result": 1}]
        return tables

    monkeypatch.setattr(ruleset, "to_tables", broken)


def test_a_step_that_would_leave_an_unreadable_master_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = three_player_game(tmp_path / "game")
    step = game.step(game.load_state())
    before = game.master_path.read_bytes()
    _with_a_one_sided_die(game, monkeypatch)
    result = CliRunner().invoke(main, ["resolve", str(game.path), "--now"])
    assert result.exit_code == 1, result.output
    # The error names the step and the cell at fault, and says nothing was changed.
    assert f"{step.label} was not resolved" in result.output
    assert "Dice!F2: Sides is below the minimum of 2" in result.output
    assert "Nothing was changed" in result.output
    # The old master is in place, no archive, no staged master or journal left behind.
    assert game.master_path.read_bytes() == before
    assert not game.archive(step.key).exists()
    from refassist.store import journal

    assert not (game.path / journal.STAGED_MASTER_NAME).exists()
    assert journal.pending(game.path) is None
    # The game goes on: the next command reads it, and the same step resolves once fixed.
    monkeypatch.undo()
    status = CliRunner().invoke(main, ["status", str(game.path)])
    assert status.exit_code == 0, status.output
    outcome = resolve_game(game, force=True)
    assert outcome.step == step.key and game.archive(step.key).is_dir()
