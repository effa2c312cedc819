"""Benchmark: how the report stage's memory and time grow with the number of players.

Issue 21 asks that the report stage's peak memory grow at most linearly with the players.
Games of 3, 6, 12 and 24 players on the Solomani Rim are played the same number of turns as
the turn benchmark's (`scenario.turn_game`, then last week's reports written, so the printed
map's drawing is in each game's cache); a run times ``refassist report GAME --mail`` on a
fresh copy of each, with the peak memory the kernel reports for it (its report workers
included, as in the turn benchmark).  The games are made by the first run and kept for the
others.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from benchmarks.measure import run_command
from benchmarks.scenario import turn_game

#: The player counts measured (the turn benchmark's 12 among them).
COUNTS = (3, 6, 12, 24)


def _prepared(work: Path, sector: Path, players: int, turns: int, seed: int) -> Path:
    """The game of ``players`` players as last week left it, made once for every run."""
    folder = work / "players" / str(players)
    if not (folder / "game.toml").is_file():
        from refassist.report.game_reports import write_reports

        shutil.rmtree(folder, ignore_errors=True)
        write_reports(turn_game(folder, sector, players, turns, seed))
    return folder


def run(
    work: Path, run_dir: Path, sector: Path, turns: int, seed: int, counts: tuple[int, ...]
) -> dict[str, Any]:
    """For each player count (``reports``, keyed by the count): the report command's seconds
    and peak memory (MB)."""
    out: dict[str, Any] = {}
    for players in counts:
        prepared = _prepared(work, sector, players, turns, seed)
        game = run_dir / f"report-{players}"
        shutil.copytree(prepared, game)
        out[str(players)] = run_command("report", [str(game), "--mail"])
        shutil.rmtree(game)
    return {"reports": out}
