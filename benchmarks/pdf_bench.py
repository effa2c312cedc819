"""Benchmark 4: a player's PDF report, the fast path against the naive single-pass render.

On the turn benchmark's game just after its turn is resolved (12 players on the Solomani Rim,
the turn's battles in every report), in one process and alternating report by report:

* naive: the whole report, maps included as inline SVG, laid out by WeasyPrint in one pass
  (`RenderSettings(fast=False)`, the render the report engine started from);
* fast: WeasyPrint for the text pages with empty map boxes, the maps drawn by cairo and
  stamped with pypdf (what ``refassist report`` does); the shared base maps are drawn afresh
  in each run and their cost is shared among the run's reports, so "turn share" is the
  honest cost of a report within a turn.

The method is the report engineer's (``benchmarks/report_bench.py``), on a bigger game.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from refassist.intake.inbox import intake
from refassist.report import build
from refassist.report.build import CACHE_DIR
from refassist.report.game_reports import gather_input
from refassist.report.maps import MM_TO_PT, BaseMaps, map_pages
from refassist.store.game import Game
from refassist.turns import resolve_game
from refassist.typeset.render import template_dirs


def run(prepared: Path, work: Path, mbox: Path, players: int) -> dict[str, Any]:
    folder = work / "reports"
    shutil.copytree(prepared, folder)
    game = Game.open(folder)
    intake(game, [mbox])
    resolve_game(game, force=True)
    state = game.load_state()
    readers = state.player_names()[:players]
    info = gather_input(game, state, state.player_names())
    public = game.ruleset.report_map(state)
    dirs = tuple(template_dirs(game.path))
    common = build.common_context(info)
    contents = [game.ruleset.report_content(state, p, info) for p in readers]
    naive = build.RenderSettings(dirs, public, None, fast=False)
    fast = build.RenderSettings(dirs, public, None, fast=True)
    # The first report of this fresh process: what `refassist report` pays before its first
    # PDF (imports, fonts, compiled templates), with the shared base maps from the game's
    # cache as last turn's reports left them (`run.py` prepares the game so).  Then, apart,
    # what drawing those base pages costs in a game's first reports (no cache yet).
    started = time.perf_counter()
    build.render_report(contents[0], common, fast, BaseMaps(public, folder / CACHE_DIR))
    first = time.perf_counter() - started
    started = time.perf_counter()
    drawn = BaseMaps(public)
    for box in map_pages(public, contents[0].overlay):
        width, height = box["width_mm"] * MM_TO_PT, box["height_mm"] * MM_TO_PT
        drawn.get(box["key"], width, height, contents[0].overlay.owners)
    first_base = time.perf_counter() - started
    # Warm the naive path too, as in a real run.
    build.render_report(contents[0], common, naive)
    naive_each: list[float] = []
    fast_each: list[float] = []
    pages: list[int] = []
    # No cache on disk: the shared base maps are drawn in this run, inside its first fast
    # report, so the sum of the fast reports is their whole cost within a turn.
    base = BaseMaps(public)
    fast_total = 0.0
    for content in contents:
        started = time.perf_counter()
        pdf, _ = build.render_report(content, common, fast, base)
        fast_each.append(time.perf_counter() - started)
        fast_total += fast_each[-1]
        pages.append(build._page_count(pdf))
        started = time.perf_counter()
        build.render_report(content, common, naive)
        naive_each.append(time.perf_counter() - started)
    return {
        "first": first,
        "first_base": first_base,
        "naive": naive_each,
        "fast": fast_each,
        "turn_share": fast_total / len(contents),
        "pages": pages,
        "year": state.year - 1,
    }
