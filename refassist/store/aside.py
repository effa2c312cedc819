"""Where things are set aside instead of deleted: ``rolled-back/<time>/`` in the game folder.

A rollback moves the undone turns' archives there, an interrupted resolve its half-written
archive, and the outbox its stale sheets and reports (`refassist.store.outbox`).  Nothing a referee
may want back is ever deleted.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

#: Where set-aside archives go (beside ``archive/``, whose every folder is a turn).
ASIDE_DIR = "rolled-back"


def stamp(now: datetime | None = None) -> str:
    """A UTC time as used in folder names: ``20261129T091500Z``."""
    return (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def unused(folder: Path) -> Path:
    """``folder``, or ``folder-2``, ``folder-3``... if it exists (two set-asides in a second)."""
    candidate, n = folder, 1
    while candidate.exists():
        n += 1
        candidate = folder.with_name(f"{folder.name}-{n}")
    return candidate
