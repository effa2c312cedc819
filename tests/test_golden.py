"""The golden game: every turn of a 10-turn computer game must come out exactly as recorded.

Every registered game has one: the recorded states are in
``tests/golden/<ruleset>/<step>.json`` (the JSON export after resolving that step), played as
``golden.toml`` beside them says; `tests/golden_game.py` plays the game.  Any change to a rule,
to the computer players or to an event's wording changes a state and fails this test, turn by
turn.  When the change is intended, write the files again
and read their diff before committing:

    .venv/bin/python scripts/regenerate_golden.py
    git diff --stat tests/golden
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests import golden_game


def _first_difference(expected: Any, actual: Any, path: str = "") -> str:
    """The first place two JSON values differ, as a readable path."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if expected.get(key) != actual.get(key):
                return _first_difference(expected.get(key), actual.get(key), f"{path}.{key}")
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (a, b) in enumerate(zip(expected, actual, strict=False)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
        if len(expected) != len(actual):
            return f"{path}: {len(expected)} items recorded, {len(actual)} now"
    return f"{path}: recorded {expected!r}, now {actual!r}"


def test_every_registered_game_has_a_golden_game() -> None:
    for ruleset, folder in golden_game.GOLDEN_DIRS.items():
        assert (folder / "golden.toml").is_file(), f"{ruleset} has no golden game; see {folder}"


@pytest.mark.parametrize("ruleset", sorted(golden_game.GOLDEN_DIRS))
def test_the_golden_game_is_played_exactly_as_recorded(ruleset: str) -> None:
    recorded = sorted(golden_game.GOLDEN_DIRS[ruleset].glob("*.json"))
    assert len(recorded) == golden_game.turns(ruleset), (
        f"run scripts/regenerate_golden.py {ruleset}"
    )
    played = 0
    for year, state in golden_game.play(ruleset):
        path = golden_game.golden_path(year, ruleset)
        expected = json.loads(path.read_text(encoding="utf-8"))
        assert state == expected, (
            f"year {year} differs from {path.name} at "
            f"{_first_difference(expected, json.loads(golden_game.dumps(state)))}; if the rule "
            "change is intended, run scripts/regenerate_golden.py and review the diff"
        )
        played += 1
    assert played == golden_game.turns(ruleset)


@pytest.mark.parametrize("ruleset", sorted(golden_game.GOLDEN_DIRS))
def test_the_golden_files_are_written_in_their_stable_form(ruleset: str) -> None:
    for path in sorted(golden_game.GOLDEN_DIRS[ruleset].glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert golden_game.dumps(json.loads(text)) == text, path.name
