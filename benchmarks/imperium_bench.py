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

from pathlib import Path
from typing import Any

from benchmarks.measure import peak_rss_mb
from benchmarks.stepwise import STAGES, as_commands, play_step, sampled
from refassist.demo import create_demo_game


def run(turns: int, seed: int, work: Path, samples: int = 0) -> dict[str, Any]:
    """Play ``turns`` turns; per-turn seconds of each stage, memory, and what the war did."""
    game = create_demo_game(work / "war", 2, seed, ruleset="imperium-3m")
    parts: dict[str, list[float]] = {name: [] for name in STAGES}
    battles: list[int] = []
    pages: list[int] = []
    labels: list[str] = []
    commands: list[dict[str, float]] = []
    chosen = sampled(turns, samples) if samples > 0 else set()
    for index in range(turns):
        if index in chosen:
            commands.append(as_commands(game, seed, work))
        outcome, run, seconds = play_step(game, seed)
        for name in STAGES:
            parts[name].append(seconds[name])
        battles.append(sum(1 for e in outcome.events if e.kind == "battle"))
        pages.extend(r.pages for r in run.reports)
        labels.append(outcome.label)
        if outcome.finished:
            break
    final = game.load_state()
    return {
        "turns": len(labels),
        "parts": parts,
        "commands": commands,
        "battles": battles,
        "pages": pages,
        "peak_mb": peak_rss_mb(),
        "results": list(final.results),
        "last": labels[-1] if labels else "",
    }
