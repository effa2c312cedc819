"""Benchmark: Millennium Wars' training scenario between two computer sides, exchange by
exchange through the referee's whole path.

Each exchange (an impulse sheet, its reaction sheet, a ceasefire's answers), timed stage by
stage: the sheet written and typed in, the intake, the resolution (moves, the impulse's combat
after its reaction) and the reports (both sides' and the referee's, each with its hex board
page).  Seeded: every run plays the same war.  Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.measure import peak_rss_mb
from benchmarks.stepwise import play_steps
from refassist.demo import create_demo_game


def run(steps: int, seed: int, work: Path, samples: int = 0) -> dict[str, Any]:
    """Play ``steps`` exchanges (or to the end of the game); seconds of each stage per
    exchange, memory, and what the war did."""
    game = create_demo_game(work / "war", 2, seed, ruleset="millennium-wars")
    figures, outcomes = play_steps(game, steps, seed, samples=samples, work=work)
    return figures | {
        "attacks": sum(1 for o in outcomes for e in o.state.events if e.kind == "attack"),
        "finished": game.ruleset.game_over(game.load_state()),
        "peak_mb": peak_rss_mb(),
    }
