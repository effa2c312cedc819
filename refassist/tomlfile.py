"""Reading a TOML file a referee wrote (a map, a scenario): hostile input like any other.

Too big, not UTF-8, not TOML: each is a `SetupError` naming the file and what is wrong, never
a traceback; games then check what the file says, entry by entry.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import SetupError

#: Largest file read (a map or a scenario is a few kilobytes; anything bigger is a mistake).
MAX_TOML_BYTES = 1_000_000


def read_toml(path: Path, what: str, limit: int = MAX_TOML_BYTES) -> dict[str, Any]:
    """The TOML document at ``path``; ``what`` names it in messages (``map file``)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SetupError(f"cannot read {what} {path}: {exc.strerror}") from exc
    if size > limit:
        most = f"{limit // 1_000_000} MB" if limit % 1_000_000 == 0 else f"{limit:,} bytes"
        raise SetupError(f"{what} {path} is {size:,} bytes; a {what} is at most {most}")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise SetupError(f"{what} {path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"{what} {path} is not valid TOML: {exc}") from None


__all__ = ["MAX_TOML_BYTES", "read_toml"]
