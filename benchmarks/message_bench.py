"""Benchmark 6: the worst one player's messages can do to everyone else's report.

A 3-player Fifth Millennium game is played one turn twice from the same state: once with a
one-line greeting from Ann, once with the flood the sheet allows (every message row to every
player, each 2000 characters of nearly nothing but new lines; before the messages were bounded
this made a 6-page report 317 pages long).  Measured: the pages of Bob's report, the time of
the report step (every player's PDF and the referee's), and what the flood delivered.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import openpyxl

from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.fifth_millennium import sheet as layout
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets
from refassist.turns import resolve_game

#: The most hostile message the sheet accepts: 2000 characters, nearly all new lines.
FLOOD = (("spam\n" + "\n" * 60) * 32)[:2000]


def _play(folder: Path, texts: list[str], seed: int) -> dict[str, Any]:
    players = [PlayerSetup(n, f"{n.lower()}@example.com") for n in ("Ann", "Bob", "Cleo")]
    game = Game.create(
        folder,
        find_ruleset("fifth-millennium"),
        players,
        seed=seed,
        generate_seed=42,
        assign_homeworlds=True,
    )
    write_sheets(game, game.load_state())
    sheet = game.outbox("5001") / sheet_filename("Ann")
    filled = folder.parent / f"{folder.name}-Ann.xlsx"
    shutil.copyfile(sheet, filled)
    wb = openpyxl.load_workbook(filled)
    for i, text in enumerate(texts):
        wb["Orders"][f"{layout.MSG_TO_COL}{layout.MSG_FIRST_ROW + i}"] = "*"
        wb["Orders"][f"{layout.MSG_TEXT_COL}{layout.MSG_FIRST_ROW + i}"] = text
    wb.save(filled)
    intake(game, [filled])
    resolve_game(game, force=True)
    started = time.perf_counter()
    run = write_reports(game, jobs=1)
    seconds = time.perf_counter() - started
    bob = next(r for r in run.reports if r.reader == "Bob")
    delivered = [m.text for m in game.load_state().messages if m.sender == "Ann"]
    return {
        "seconds": seconds,
        "pages": bob.pages,
        "chars_sent": sum(len(t) for t in texts),
        "lines_delivered": sum(t.count("\n") + 1 for t in delivered),
    }


def run(work: Path, seed: int) -> dict[str, Any]:
    quiet = _play(work / "quiet", ["Greetings from Ann."], seed)
    flood = _play(work / "flood", [FLOOD] * layout.MSG_ROWS, seed)
    return {"quiet": quiet, "flood": flood, "rows": layout.MSG_ROWS}
