"""A step's deadline when the calendar is behind, and whether a step's sheets ever went out.

``game.toml`` counts deadlines from the first one (``[schedule] first_deadline`` plus
``days_per_turn`` a step).  A game created with a deadline weeks ago, or left for a while, has
every counted deadline in the past: each ``resolve`` would find its deadline gone and play a
turn with nobody's orders, turn after turn.  Two rules stop that:

* a new step's deadline is never in the past: when resolve writes the sheets of a step whose
  counted deadline has gone, the deadline becomes ``days_per_turn`` days from then (at least
  one), kept in ``outbox/<step>/.deadline.json`` so every sheet, report and reply says the same,
  and the referee is told (`settle_deadline`);  an explicit ``[schedule.deadlines]`` entry is
  the referee's word and is never moved;
* a step whose sheets never went out (no mail for it sent by ``refassist send``, no sheet or
  mail received for it) is not resolved at its deadline without ``--now``
  (`turns.sheets_went_out`): nobody could have answered.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from refassist.atomic import read_record, write_text

if TYPE_CHECKING:
    from refassist.store.game import Game

#: The record of a step's deadline moved because the calendar was behind.
MOVED_DEADLINE = ".deadline.json"


def moved_deadline(outbox: Path) -> datetime | None:
    """The deadline recorded in the step's outbox folder ``outbox`` (local time, as in
    ``game.toml``), or None."""
    path = outbox / MOVED_DEADLINE
    if not path.is_file():
        return None
    data = read_record(path, "delete it to fall back on the deadline game.toml counts")
    try:
        return datetime.fromisoformat(str(data["deadline"]))
    except (KeyError, TypeError, ValueError):
        return None


def settle_deadline(game: Game, step: str, when: datetime | None = None) -> str:
    """Move ``step``'s counted deadline to ``days_per_turn`` days (at least one) after
    ``when`` (now) if it is already past then, recording it; what the referee is told ("" when
    the deadline stands).  An explicit deadline of ``game.toml`` is left alone, but the
    referee is told when it is past."""
    now = (when or datetime.now(UTC)).astimezone().replace(tzinfo=None)
    deadline = game.deadline(step)
    if deadline is None or deadline > now:
        return ""
    if step in game.config.deadlines:
        return (
            f"the deadline of {step} set in game.toml, {game.deadline_text(step)}, is already "
            "past: set a later one in [schedule.deadlines] before the sheets go out"
        )
    was = game.deadline_text(step)
    days = max(game.config.days_per_turn, 1)
    moved = (now + timedelta(days=days)).replace(second=0, microsecond=0)
    folder = game.outbox(step)
    folder.mkdir(parents=True, exist_ok=True)
    record = {"deadline": moved.isoformat(), "counted": deadline.isoformat()}
    write_text(folder / MOVED_DEADLINE, json.dumps(record, indent=2) + "\n")
    return (
        f"the calendar is behind: {step}'s deadline, {was}, had passed, so it is "
        f"{game.deadline_text(step)}, {days} days from now (on its sheets and reports)"
    )
