"""The journal that makes resolve and rollback all-or-nothing, even under ``kill -9``.

A resolve changes several things: it archives the old turn, replaces ``master.xlsx`` and writes
the next turn's sheets.  Each file is replaced atomically (`refassist.atomic`), but a process
killed between two of them would leave half of each turn.  So before changing anything, the
operation writes ``.refassist-journal.json`` naming what it is about to do and the SHA-256 of
the master before and after; the new master is first written in full beside the old one
(``.master-next.xlsx``).  The one instant that decides is the rename of that file over
``master.xlsx``:

* killed before it: ``master.xlsx`` is still the old one (its hash says so); recovery
  (`refassist.store.recovery`) moves the half-written archive aside and the turn is resolved again;
* killed after it: ``master.xlsx`` is the new one; recovery writes the next turn's sheets that
  may be missing, and the resolve is complete.

A rollback is journalled the same way and always finished forward.  Recovery runs (under the
game lock, `refassist.store.recovery.working`) at the start of every command that writes;
`pending` lets ``status``, which only reads, say that an interrupted command will be finished.
The master is whole at every instant, so every command that only reads works in between.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from refassist.atomic import write_text
from refassist.errors import GameError
from refassist.store.aside import ASIDE_DIR, stamp, unused

JOURNAL_NAME = ".refassist-journal.json"
#: The new master of a resolve, complete on disk before it replaces ``master.xlsx``.
STAGED_MASTER_NAME = ".master-next.xlsx"


def sha256_file(path: Path) -> str:
    """SHA-256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def replace_file(source: Path, target: Path) -> None:
    """Rename ``source`` over ``target`` (atomic on one file system) and flush the folder."""
    os.replace(source, target)
    with contextlib.suppress(OSError):
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@dataclass(frozen=True)
class Entry:
    """What an unfinished operation recorded before it started changing the game folder."""

    op: str
    step: str
    data: dict[str, Any]

    @property
    def started(self) -> str:
        return str(self.data.get("started", ""))


def path_of(folder: Path) -> Path:
    return Path(folder) / JOURNAL_NAME


def begin(folder: Path, op: str, step: str, **data: Any) -> None:
    """Record an operation about to change the game folder (atomically, before any change)."""
    record = {
        "op": op,
        "step": step,
        "started": datetime.now(UTC).replace(microsecond=0).isoformat(),
        **data,
    }
    write_text(path_of(folder), json.dumps(record, indent=2, ensure_ascii=False) + "\n")


def finish(folder: Path) -> None:
    """The operation is complete: forget it."""
    with contextlib.suppress(FileNotFoundError):
        path_of(folder).unlink()


def pending(folder: Path) -> Entry | None:
    """The unfinished operation of a game folder, if a command was interrupted."""
    path = path_of(folder)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise GameError(f"{path} cannot be read ({exc.strerror or exc})") from exc
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("op"), str):
        raise GameError(
            f"{path} is damaged; an interrupted refassist command left it. Compare master.xlsx "
            "with the newest folder in archive/, then delete the file"
        )
    return Entry(str(data["op"]), str(data.get("step", "")), data)


def describe(entry: Entry) -> str:
    """One line for ``status``: what was interrupted and what the next command will do."""
    what = {"resolve": "resolve", "rollback": "rollback"}.get(entry.op, entry.op)
    return (
        f"a {what} of {entry.step} started {entry.started} was interrupted; the next "
        "refassist resolve, rollback, intake, sheets or verify finishes or undoes it"
    )


def clean_temporaries(folder: Path) -> None:
    """Remove the temporary files of atomic writes a killed process left in ``folder``."""
    if not folder.is_dir():
        return
    for child in folder.iterdir():
        name = child.name
        if name.startswith(".") and name.endswith(".tmp") and child.is_file():
            with contextlib.suppress(OSError):
                child.unlink()


def set_aside(game_path: Path, folder: Path, label: str, now: datetime | None = None) -> Path:
    """Move ``folder`` (an archive) to ``rolled-back/<time>-<label>/<name>``; never delete."""
    aside = unused(game_path / ASIDE_DIR / f"{stamp(now)}-{label}") / folder.name
    aside.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(folder), str(aside))
    return aside
