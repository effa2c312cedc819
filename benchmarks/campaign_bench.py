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

from pathlib import Path
from typing import Any

from benchmarks.measure import peak_rss_mb
from benchmarks.stepwise import play_steps
from refassist.demo import create_demo_game

COMMANDERS = 8


def run(steps: int, seed: int, work: Path, samples: int = 0) -> dict[str, Any]:
    """Play ``steps`` steps (the set-up, weeks and battles steps); seconds of each stage per
    step, which steps were weeks, memory, and what the campaign did."""
    game = create_demo_game(work / "campaign", COMMANDERS, seed, ruleset="full-thrust-campaign")
    figures, outcomes = play_steps(game, steps, seed, samples=samples, work=work)
    return figures | {
        "battles": sum(len(getattr(o.state, "battles", [])) for o in outcomes),
        "ships": len(game.load_state().ships),
        "peak_mb": peak_rss_mb(),
    }
