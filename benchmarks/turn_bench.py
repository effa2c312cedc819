"""Benchmark 1: a whole turn as the referee runs it, with 12 players on a real sector.

One run takes a fresh copy of the prepared game (`scenario.turn_game`: 12 human players on the
Solomani Rim, some turns in, the mailbox of their filled-in sheets beside it) and does the
referee's Saturday night and Sunday morning twice:

* **as commands** (what the referee feels): ``refassist intake GAME orders.mbox``, then
  ``refassist resolve GAME``, then ``refassist report GAME --mail``, each its own process,
  timed from start to exit, with the peak memory the kernel reports for it (its report
  workers included);
* **in one process** through the library, with the work inside each command timed by
  stage: reading and checking sheets, the rules, writing the master, the next sheets, the
  PDFs, the mail.  Sheets read a second time in the same process come from the parsed-sheet
  memory (`sheetreads.SHEET_READS`), as in ``refassist demo``.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from benchmarks.measure import Stopwatch, peak_rss_mb, run_command

#: The three commands of a turn, with their arguments after the game folder.
COMMANDS = (
    ("intake", ("{mbox}",)),
    ("resolve", ()),
    ("report", ("--mail",)),
)


def commands(prepared: Path, work: Path, mbox: Path) -> dict[str, Any]:
    """The turn as three commands on a fresh copy of the game."""
    game = work / "cli"
    shutil.copytree(prepared, game)
    out: dict[str, Any] = {}
    for name, extra in COMMANDS:
        out[name] = run_command(name, [str(game), *(a.format(mbox=mbox) for a in extra)])
    out["total"] = sum(v["seconds"] for v in out.values())
    # What this turn wrote (the prepared game holds last turn's reports too).
    out["pdfs"] = len(_new(prepared, game, "outbox/*/*.pdf"))
    out["emails"] = len(_new(prepared, game, "outbox/*/mail/*.eml"))
    return out


def _new(prepared: Path, game: Path, pattern: str) -> list[Path]:
    """Files matching ``pattern`` in ``game`` that its copy source ``prepared`` did not have."""
    return [p for p in game.glob(pattern) if not (prepared / p.relative_to(game)).exists()]


def in_process(prepared: Path, work: Path, mbox: Path) -> dict[str, Any]:
    """The same turn through the library in this process, timed stage by stage."""
    from refassist import turns
    from refassist.intake.inbox import intake
    from refassist.report import game_reports
    from refassist.store.game import Game
    from refassist.turns import resolve_game
    from refassist.workbook import sheetio

    folder = work / "lib"
    shutil.copytree(prepared, folder)
    game = Game.open(folder)
    ruleset = game.ruleset
    watch = Stopwatch()
    stages: dict[str, dict[str, float]] = {}

    def stage(name: str) -> dict[str, float]:
        watch.totals.clear()
        watch.counts.clear()
        stages[name] = {}
        return stages[name]

    # What is timed inside the commands: wrapped for this run only (this is a child process).
    ruleset.read_sheet = watch.wrap("read sheets (parse)", ruleset.read_sheet)  # type: ignore[method-assign]
    ruleset.validate = watch.wrap("check orders", ruleset.validate)  # type: ignore[method-assign]
    ruleset.resolve = watch.wrap("rules", ruleset.resolve)  # type: ignore[method-assign]
    # The sheets as a whole: after the first, they are written in other processes.
    turns.write_sheets = watch.wrap("next sheets", turns.write_sheets)  # type: ignore[assignment]
    game.save_state = watch.wrap("write master", game.save_state)  # type: ignore[method-assign]
    # `turnsheets.open_genuine` takes the opener from `sheetio` when it is called.
    sheetio.open_turn_sheet = watch.wrap("open sheets (identity)", sheetio.open_turn_sheet)  # type: ignore[assignment]
    game_reports.gather_input = watch.wrap("orders as understood", game_reports.gather_input)  # type: ignore[assignment]
    game_reports._prewarm = watch.wrap("shared base maps", game_reports._prewarm)  # type: ignore[assignment]
    game_reports.render_jobs = watch.wrap("PDFs (2 processes)", game_reports.render_jobs)  # type: ignore[assignment]
    game_reports.build_mailings = watch.wrap("e-mails", game_reports.build_mailings)  # type: ignore[assignment]

    for name, call in (
        ("intake", lambda: intake(game, [mbox])),
        ("resolve", lambda: resolve_game(game, force=True)),
        ("report", lambda: game_reports.write_reports(game, mail=True)),
    ):
        parts = stage(name)
        started = time.perf_counter()
        result = call()
        parts["total"] = time.perf_counter() - started
        parts.update(watch.totals)
        if name == "resolve":
            parts["battles"] = float(sum(1 for e in result.events if e.kind == "battle"))
    stages["peak_mb"] = {"total": peak_rss_mb()}
    return stages
