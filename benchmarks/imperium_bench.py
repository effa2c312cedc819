"""Benchmark: an Imperium 3rd Millennium war, turn by turn through the referee's whole path.

Each turn, timed stage by stage, is what a referee's week does with two sides:

1. sheets: each side's turn sheet written, the computer player's orders decided and typed in
   (`demo.computer_sheets`);
2. intake: both sheets opened, checked and filed (`inbox.intake`);
3. resolve: archive, the rules (admin, four action segments with battles, close-out, glory),
   the master written, the next sheets (`turns.resolve_game`);
4. reports: both sides' PDFs and the referee's (`write_reports`, map pages of systems and
   routes drawn per reader).

The game and its dice are seeded, so every run plays the same war (and, over 30 turns, the
peace after it and the next war).  Speed is measured here, never asserted in tests.
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


def run(turns: int, seed: int, work: Path) -> dict[str, Any]:
    """Play ``turns`` turns; per-turn seconds of each stage, memory, and what the war did."""
    game = create_demo_game(work / "war", 2, seed, ruleset="imperium-3m")
    parts: dict[str, list[float]] = {name: [] for name in STAGES}
    battles: list[int] = []
    pages: list[int] = []
    labels: list[str] = []
    for _ in range(turns):
        t0 = time.perf_counter()
        state = game.load_state()
        filled = computer_sheets(game, state, seed)
        t1 = time.perf_counter()
        intake(game, filled)
        t2 = time.perf_counter()
        outcome = resolve_game(game, force=True)
        t3 = time.perf_counter()
        run = write_reports(game, state=outcome.state)
        t4 = time.perf_counter()
        for name, seconds in zip(STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            parts[name].append(seconds)
        battles.append(sum(1 for e in outcome.events if e.kind == "battle"))
        pages.extend(r.pages for r in run.reports)
        labels.append(outcome.label)
        if outcome.finished:
            break
    final = game.load_state()
    return {
        "turns": len(labels),
        "parts": parts,
        "battles": battles,
        "pages": pages,
        "peak_mb": peak_rss_mb(),
        "results": list(final.results),
        "last": labels[-1] if labels else "",
    }
