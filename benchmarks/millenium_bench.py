"""Benchmark: a whole game of Millenium between the two computer sides, step by step through
the referee's whole path: both set-ups, then the twenty game turns.

Each step timed stage by stage: the mover's sheet written (in French) and typed in, the
intake, the resolution (moves, jumps, conquests, battles on the hex map) and the reports (both
sides' and the referee's, each with the strategic map drawn for its reader).  Seeded: every
run plays the same game.  Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.measure import peak_rss_mb
from benchmarks.stepwise import play_steps
from refassist.demo import create_demo_game


def run(steps: int, seed: int, work: Path, samples: int = 0) -> dict[str, Any]:
    """Play ``steps`` steps (or to the end of the game); seconds of each stage per step,
    memory, and what the game did."""
    game = create_demo_game(work / "millenium", 2, seed, ruleset="millenium")
    figures, outcomes = play_steps(game, steps, seed, samples=samples, work=work)
    return figures | {
        "battles": sum(1 for o in outcomes for e in o.state.events if e.kind == "battle"),
        "finished": game.ruleset.game_over(game.load_state()),
        "peak_mb": peak_rss_mb(),
    }
