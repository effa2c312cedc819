"""Benchmark: player reports, naive single-pass render against the fast path, same content.

    .venv/bin/python benchmarks/report_bench.py [--turns 12] [--players 6] [--runs 3]
                                                [--game FOLDER] [--jobs 2]

Plays a demo game (computer players, generated sector; or reuses ``--game``), then renders
every player's report of its current turn, several times, in one process:

* naive: the whole report, maps included as inline SVG, laid out by WeasyPrint in one pass;
* fast: WeasyPrint for the text pages with empty map boxes, cairo for the maps, pypdf to
  stamp them; the shared base maps are drawn afresh in every run (no cache), and their cost
  is spread over the players of the run, so "per player" is the honest share of a turn;
* fast, N processes: the same through `render_jobs` with ``--jobs`` worker processes
  (wall-clock time of the run divided by the number of players).

Prints medians and min-max over the runs, per player report, and the speed-up.  Speed is
measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from refassist.demo import run_demo  # noqa: E402
from refassist.report import build  # noqa: E402
from refassist.report.game_reports import gather_input  # noqa: E402
from refassist.report.maps import BaseMaps  # noqa: E402
from refassist.store.game import Game  # noqa: E402
from refassist.typeset.render import template_dirs  # noqa: E402


def _stats(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", type=Path, help="reuse this game folder instead of a demo")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        if args.game:
            game = Game.open(args.game)
        else:
            started = time.perf_counter()
            game = run_demo(Path(tmp) / "demo", players=args.players, turns=args.turns, seed=1).game
            print(f"demo game: {args.turns} turns in {time.perf_counter() - started:.0f} s")
        state = game.load_state()
        players = state.player_names()
        info = gather_input(game, state, players)
        public = game.ruleset.report_map(state)
        dirs = tuple(template_dirs(game.path))
        common = build.common_context(info)
        contents = [game.ruleset.report_content(state, p, info) for p in players]
        naive = build.RenderSettings(dirs, public, None, fast=False)
        fast = build.RenderSettings(dirs, public, None, fast=True)
        pages = []

        # Warm up both paths once (imports, fonts, compiled templates), as in a real run.
        build.render_report(contents[0], common, naive)
        build.render_report(contents[0], common, fast, BaseMaps(public))

        naive_each: list[float] = []
        fast_each: list[float] = []
        fast_share: list[float] = []
        parallel_share: list[float] = []
        for _ in range(args.runs):
            for content in contents:
                t = time.perf_counter()
                pdf, _ = build.render_report(content, common, naive)
                naive_each.append(time.perf_counter() - t)
            run_started = time.perf_counter()
            base = BaseMaps(public)  # no cache: the shared maps are drawn in this run
            for content in contents:
                t = time.perf_counter()
                pdf, _ = build.render_report(content, common, fast, base)
                fast_each.append(time.perf_counter() - t)
                pages.append(build._page_count(pdf))
            fast_share.append((time.perf_counter() - run_started) / len(contents))
            if args.jobs > 1:
                build._WORKER_BASE.clear()
                jobs = [
                    build.Job(p, c, Path(tmp) / f"{p}.pdf")
                    for p, c in zip(players, contents, strict=True)
                ]
                t = time.perf_counter()
                build.render_jobs(jobs, common, fast, workers=args.jobs)
                parallel_share.append((time.perf_counter() - t) / len(contents))

    print()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )
    print(
        f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(
        f"content: {len(players)} players, year {state.year}, "
        f"{min(pages)}-{max(pages)} pages per report, {args.runs} runs"
    )
    print()
    print("| render | per player report, median (min-max) |")
    print("|---|---|")
    print(f"| naive single pass (inline SVG maps) | {_stats(naive_each)} |")
    print(f"| fast, one report alone | {_stats(fast_each)} |")
    print(f"| fast, turn share incl. shared base maps | {_stats(fast_share)} |")
    if parallel_share:
        print(f"| fast, {args.jobs} processes, turn share | {_stats(parallel_share)} |")
    ratio = statistics.median(naive_each) / statistics.median(fast_share)
    print()
    print(f"speed-up (naive / fast turn share, medians): {ratio:.1f}x")


if __name__ == "__main__":
    main()
