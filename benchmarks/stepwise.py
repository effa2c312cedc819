"""One step of a computer game through the referee's whole path, timed stage by stage: the
sheets (written, the computer's orders typed in), the intake, the resolution and the reports.
The per-game benchmarks (`imperium_bench`, `campaign_bench`) play their games with it.

Some steps are also played as the referee plays them (`as_commands`): on a copy of the game,
``refassist intake``, ``refassist resolve`` and ``refassist report --mail``, each its own
process, as the 12-player turn is measured (`turn_bench`).  In one long process the rules run
warm while each report stage forks fresh workers; the commands start every stage cold, as a
referee's week does."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from benchmarks.measure import run_command
from refassist.demo import computer_sheets
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.store.game import Game
from refassist.turns import resolve_game

STAGES = ("sheets", "intake", "resolve", "reports")
#: The referee's commands of a step, with their arguments after the game folder.
COMMANDS = (("intake", ()), ("resolve", ("--now",)), ("report", ("--mail", "-q")))


def sampled(steps: int, samples: int) -> set[int]:
    """Which of ``steps`` steps (0-based) are also played as commands: ``samples`` of them,
    spread through the game (the middle of each equal stretch)."""
    every = max(1, steps // max(1, samples))
    return {i for i in range(steps) if i % every == every // 2}


def as_commands(game: Game, seed: int, work: Path) -> dict[str, float]:
    """The game's current step played on a copy as the referee's three commands, each its own
    process: each command's wall seconds.  The game itself is left as it was."""
    copy = work / "as-commands"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(game.path, copy)
    mine = Game.open(copy)
    filled = [str(path) for path in computer_sheets(mine, mine.load_state(), seed)]
    seconds = {
        name: run_command(name, [str(copy), *(filled if name == "intake" else ()), *extra])[
            "seconds"
        ]
        for name, extra in COMMANDS
    }
    shutil.rmtree(copy)
    return seconds


def play_step(game: Game, seed: int) -> tuple[Any, Any, dict[str, float]]:
    """Play the game's current step; its outcome, the reports written and each stage's
    seconds."""
    t0 = time.perf_counter()
    state = game.load_state()
    filled = computer_sheets(game, state, seed)
    t1 = time.perf_counter()
    intake(game, filled)
    t2 = time.perf_counter()
    outcome = resolve_game(game, force=True)
    t3 = time.perf_counter()
    reports = write_reports(game, state=outcome.state)
    t4 = time.perf_counter()
    seconds = dict(zip(STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True))
    return outcome, reports, seconds


def play_steps(
    game: Game, steps: int, seed: int, *, samples: int = 0, work: Path | None = None
) -> tuple[dict[str, Any], list[Any]]:
    """Play up to ``steps`` steps (fewer if the game ends): the figures every per-game
    benchmark reports (``steps``, each stage's seconds per step in ``parts``, report
    ``pages``, and ``commands``: ``samples`` steps also played as commands in ``work``) and
    each step's outcome, for what the game itself counts."""
    parts: dict[str, list[float]] = {name: [] for name in STAGES}
    keys: list[str] = []
    pages: list[int] = []
    commands: list[dict[str, float]] = []
    outcomes = []
    chosen = sampled(steps, samples) if work is not None and samples > 0 else set()
    for index in range(steps):
        if work is not None and index in chosen:
            commands.append(as_commands(game, seed, work))
        outcome, reports, seconds = play_step(game, seed)
        for name in STAGES:
            parts[name].append(seconds[name])
        keys.append(outcome.step)
        pages.extend(r.pages for r in reports.reports)
        outcomes.append(outcome)
        if outcome.finished:
            break
    return {"steps": keys, "parts": parts, "pages": pages, "commands": commands}, outcomes
