"""Atomic file writes: a temporary file in the same folder, flushed to disk, then renamed
(and the game's JSON records read back, `read_record`).

A referee's game runs for months; a crash, a full disk or a ``kill -9`` in the middle of a write
must leave either the old file or the new one, never half of each.  ``os.replace`` is atomic on
POSIX when source and target are on one file system, which is why the temporary file lives in
the target's own folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import GameError


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target`` atomically.

    The caller writes the whole file to the yielded path (any library that wants a file name,
    such as xlsxwriter, can do so).  If the block raises, the temporary file is removed and
    ``target`` is untouched.  Disk-full and permission errors become a `GameError` naming the
    file, so the CLI can say what happened instead of printing a traceback.
    """
    target = Path(target)
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise GameError(f"cannot write {target}: {exc.strerror or exc}") from exc
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        _fsync_dir(folder)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise GameError(
            f"cannot write {target}: {exc.strerror or exc}; nothing was changed"
        ) from exc
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes(target: Path, data: bytes) -> None:
    """Atomically replace ``target`` with ``data``."""
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def write_text(target: Path, text: str) -> None:
    """Atomically replace ``target`` with UTF-8 ``text``."""
    write_bytes(target, text.encode("utf-8"))


def refresh_text(target: Path, text: str) -> bool:
    """`write_text`, unless ``target`` holds ``text`` already (then it is left untouched:
    no temporary file, no flush to disk); whether it was written.  For pages written again
    on every run of which most have not changed: the archive site's page of each turn."""
    data = text.encode("utf-8")
    try:
        if target.stat().st_size == len(data) and target.read_bytes() == data:
            return False
    except OSError:
        pass
    write_bytes(target, data)
    return True


def read_record(path: Path, advice: str) -> Any:
    """A JSON record of the game's (an index, a manifest, what was sent), read back; one that
    cannot be read is a `GameError` naming it, why, and ``advice``: what the referee does."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise GameError(f"{path} cannot be read ({exc}); {advice}") from exc
