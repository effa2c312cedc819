"""What `refassist watch` did, as the referee reads it: ``GAME/watch/log.jsonl``.

One JSON object a line: ``at`` (watch's clock: the round's time), ``step``, ``what``
(``fetched``, ``replied``, ``reminded``, ``asked``, ``resolved``, ``reports``, ``sent``,
``waiting``, ``retry``, ``error``, ``recovered``, ``started``, ``stopped``), ``text`` (one
sentence) and ``id``.  It is appended to, a whole line in one write, not replaced: the
records below are the memory (written with `refassist.atomic`), the log only tells of them.

Most lines are not written as things happen but found afterwards in the records that are
the truth (`Reconciler`): the inbox index (what was filed), each step's ``.sent.json`` (what
the server took), watch's own files in ``outbox/<step>/watch/``.  A line is added for each
of them whose ``id`` the log does not hold yet.  So a watch killed between sending a mail and
writing its line writes the line at its next round, and never twice: the log cannot say less
than was done, nor say it twice.  Only what has no record of its own (a retry, an error, a
start and a stop) is written as it happens.

Records older than the log (what the referee did by hand before watch started) are left out:
the first line, ``started``, carries the wall-clock time the log began (``since``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: The game's watch folder (its log, its lock) and the log's name in it.
WATCH_FOLDER = "watch"
LOG_NAME = "log.jsonl"


def log_path(game_path: Path) -> Path:
    return game_path / WATCH_FOLDER / LOG_NAME


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


def read_log(game_path: Path) -> list[dict[str, Any]]:
    """Every whole line of the log, oldest first (a line cut short by a kill is skipped)."""
    path = log_path(game_path)
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            out.append(item)
    return out


@dataclass
class WatchLog:
    """The log of one game, its ids held in memory for the rounds of one process."""

    game_path: Path
    ids: set[str] = field(default_factory=set)
    since: str = ""
    #: Where each new line is also shown, as `timeline` shows it (the terminal, the journal).
    echo: Callable[[str], None] | None = None
    #: The log was begun by this process (its first line, ``started``, just written).
    fresh: bool = False
    #: Lines this process added (the archive page is written again when it grows).
    lines: int = 0

    @classmethod
    def open(cls, game_path: Path, now: datetime) -> WatchLog:
        """The game's log; a new one begins with ``started`` and the wall-clock time."""
        log = cls(game_path)
        lines = read_log(game_path)
        log.ids = {str(item.get("id", "")) for item in lines if item.get("id")}
        for item in lines:
            if item.get("since"):
                log.since = str(item["since"])
                break
        if not log.since:
            log.since = iso(datetime.now(UTC))
            log.add(now, "", "started", "watch began keeping this log", since=log.since)
            log.fresh = True
        return log

    def add(self, now: datetime, step: str, what: str, text: str, **more: Any) -> None:
        """Append one line (a whole line in one write, after a newline if a killed run left
        the last line cut short)."""
        ident = str(more.get("id", ""))
        if ident and ident in self.ids:
            return
        item = {"at": iso(now), "step": step, "what": what, "text": text, **more}
        line = json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n"
        path = log_path(self.game_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            if os.fstat(fd).st_size and not _ends_with_newline(path):
                line = "\n" + line
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        self.lines += 1
        if ident:
            self.ids.add(ident)
        if self.echo is not None:
            self.echo(shown_line(item))

    def known(self, ident: str) -> bool:
        return ident in self.ids


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


def timeline(game_path: Path) -> Iterator[str]:
    """The log as the referee reads it (``refassist watch --status``): one line each, the
    round's time in UTC, the step, what, and the sentence."""
    for item in read_log(game_path):
        yield shown_line(item)


def shown_line(item: dict[str, Any]) -> str:
    """One line of the log as the referee reads it."""
    at = str(item.get("at", ""))[:16].replace("T", " ")
    step, what = str(item.get("step", "")), str(item.get("what", ""))
    return f"{at}  {step:8}  {what:9} {item.get('text', '')}"
