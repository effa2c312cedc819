"""Benchmark: a Full Thrust campaign with 8 computer commanders on the shipped map, week by
week through the referee's whole path.

Each step, timed stage by stage: the sheets (written, the computer's orders typed in), the
intake (opened, checked, filed), the resolution (the week's timelines in time order, the
economy; or a battles step's results, here the demo's stand-in for the tabletop) and the
reports (eight commanders' PDFs and the referee's, each with its grid map page).  A week that
opens battles is followed by its battles step, counted with the week.  Seeded: every run plays
the same campaign.  Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from benchmarks.measure import peak_rss_mb
from refassist.demo import computer_sheets, create_demo_game
from refassist.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.turns import resolve_game

STAGES = ("sheets", "intake", "resolve", "reports")
COMMANDERS = 8


def run(steps: int, seed: int, work: Path) -> dict[str, Any]:
    """Play ``steps`` steps (the set-up, weeks and battles steps); seconds of each stage per
    step, which steps were weeks, memory, and what the campaign did."""
    game = create_demo_game(work / "campaign", COMMANDERS, seed, ruleset="full-thrust-campaign")
    parts: dict[str, list[float]] = {name: [] for name in STAGES}
    keys: list[str] = []
    battles = 0
    pages: list[int] = []
    for _ in range(steps):
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
        for name, seconds in zip(STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            parts[name].append(seconds)
        keys.append(outcome.step)
        battles += len(getattr(outcome.state, "battles", []))
        pages.extend(r.pages for r in reports.reports)
        if outcome.finished:
            break
    return {
        "steps": keys,
        "parts": parts,
        "battles": battles,
        "pages": pages,
        "ships": len(game.load_state().ships),
        "peak_mb": peak_rss_mb(),
    }
