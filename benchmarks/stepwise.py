"""One step of a computer game through the referee's whole path, timed stage by stage: the
sheets (written, the computer's orders typed in), the intake, the resolution and the reports.
The per-game benchmarks (`imperium_bench`, `campaign_bench`) play their games with it."""

from __future__ import annotations

import time
from typing import Any

from refassist.demo import computer_sheets
from refassist.game import Game
from refassist.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.turns import resolve_game

STAGES = ("sheets", "intake", "resolve", "reports")


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


def play_steps(game: Game, steps: int, seed: int) -> tuple[dict[str, Any], list[Any]]:
    """Play up to ``steps`` steps (fewer if the game ends): the figures every per-game
    benchmark reports (``steps``, each stage's seconds per step in ``parts``, report
    ``pages``) and each step's outcome, for what the game itself counts."""
    parts: dict[str, list[float]] = {name: [] for name in STAGES}
    keys: list[str] = []
    pages: list[int] = []
    outcomes = []
    for _ in range(steps):
        outcome, reports, seconds = play_step(game, seed)
        for name in STAGES:
            parts[name].append(seconds[name])
        keys.append(outcome.step)
        pages.extend(r.pages for r in reports.reports)
        outcomes.append(outcome)
        if outcome.finished:
            break
    return {"steps": keys, "parts": parts, "pages": pages}, outcomes
