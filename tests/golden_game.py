"""The golden games: a small game of each ruleset played by computer players, turn by turn.

`tests/test_golden.py` plays them and compares every turn's state (the JSON export) with the
files checked in under ``tests/golden/<ruleset>/``; `scripts/regenerate_golden.py` writes those
files again when a rule change is intended.  Every ruleset in the registry has one, described by
``golden.toml`` in its folder (players, seed, turns, and the map, and scenario if any, kept
beside its states, so a change to the sector generator or to a shipped map cannot move a golden
game); nothing here names a game.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from refassist.dice import Dice
from refassist.rulesets import RULESETS, find_ruleset
from refassist.rulesets.base import NewGame, PlayerSetup

ROOT = Path(__file__).parent / "golden"

#: Every golden game: ruleset name -> folder of its recorded states, one per registered game.
GOLDEN_DIRS = {ruleset.name: ROOT / ruleset.name for ruleset in RULESETS}


def description(ruleset: str) -> dict[str, Any]:
    """The ruleset's ``golden.toml``."""
    return tomllib.loads((GOLDEN_DIRS[ruleset] / "golden.toml").read_text(encoding="utf-8"))


def turns(ruleset: str) -> int:
    return int(description(ruleset)["turns"])


def golden_path(step: str | int, ruleset: str) -> Path:
    return GOLDEN_DIRS[ruleset] / f"{step}.json"


def dumps(data: dict[str, Any]) -> str:
    """Stable, compact text for a state: sorted keys, one top-level key or list item a line,
    so a diff shows which system, force or event changed."""

    def one(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    keys = sorted(data)
    for n, key in enumerate(keys):
        end = "," if n < len(keys) - 1 else ""
        value = data[key]
        if isinstance(value, list) and value:
            lines.append(f"{one(key)}:[")
            lines.extend(
                one(item) + ("," if i < len(value) - 1 else "") for i, item in enumerate(value)
            )
            lines.append(f"]{end}")
        else:
            lines.append(f"{one(key)}:{one(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def play(ruleset_name: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (step resolved, JSON export of the state after it) for every golden turn."""
    ruleset = find_ruleset(ruleset_name)
    for step, state in play_states(ruleset_name):
        yield step, ruleset.to_json(state)


def play_states(ruleset_name: str) -> Iterator[tuple[str, Any]]:
    """Yield (step resolved, the state after it) for every golden turn."""
    ruleset = find_ruleset(ruleset_name)
    game = description(ruleset_name)
    folder = GOLDEN_DIRS[ruleset_name]
    rules = ruleset.default_house_rules()
    seed = int(game["seed"])
    setup = NewGame(
        game_name="Golden",
        game_id="golden",
        players=tuple(
            PlayerSetup(p, f"{p.lower()}@example.com", computer=True) for p in game["players"]
        ),
        house_rules=rules,
        map_file=folder / game["map"] if "map" in game else None,
        scenario_file=folder / game["scenario"] if "scenario" in game else None,
        assign_homeworlds=bool(game.get("assign_homeworlds", False)),
    )
    # Sheets filled in by hand, kept beside the states (``[entered]`` in golden.toml: the name a
    # step expects -> the file), stand in for the computer's orders: a referee's entry for a
    # step that waits for the referee, say.
    entered = {
        name: ruleset.read_sheet(folder / file).orders
        for name, file in game.get("entered", {}).items()
    }
    state = ruleset.new_game(setup, Dice.for_turn(seed, 0))
    for _ in range(int(game["turns"])):
        step = ruleset.current_step(state)
        turn = step.dice_turn if step.dice_turn is not None else int(step.key)
        orders = {
            p: entered[p] if p in entered else ruleset.computer_orders(state, p, seed, rules)
            for p in step.expects
        }
        state = ruleset.resolve(state, orders, Dice.for_turn(seed, turn), rules).state
        yield step.key, state
        if ruleset.game_over(state):
            break
