"""Reading a TOML file a referee wrote (a map, a scenario): hostile input like any other.

Too big, not UTF-8, not TOML: each is a `SetupError` naming the file and what is wrong, never
a traceback; games then check what the file says, entry by entry.
"""

from __future__ import annotations

import re
import stat
import tomllib
from pathlib import Path
from typing import Any

from refassist.errors import SetupError

#: Largest file read (a map or a scenario is a few kilobytes; anything bigger is a mistake).
MAX_TOML_BYTES = 1_000_000


def read_toml(path: Path, what: str, limit: int = MAX_TOML_BYTES) -> dict[str, Any]:
    """The TOML document at ``path``; ``what`` names it in messages (``map file``).  Only a
    regular file is read: a FIFO or a device would block or never end."""
    try:
        found = path.stat()
    except OSError as exc:
        raise SetupError(f"cannot read {what} {path}: {exc.strerror}") from exc
    if not stat.S_ISREG(found.st_mode):
        raise SetupError(f"{what} {path} is not a regular file")
    size = found.st_size
    if size > limit:
        most = f"{limit // 1_000_000} MB" if limit % 1_000_000 == 0 else f"{limit:,} bytes"
        raise SetupError(f"{what} {path} is {size:,} bytes; a {what} is at most {most}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SetupError(f"{what} {path} is not UTF-8 text") from None
    except OSError as exc:  # unreadable (permissions), or gone since the stat
        raise SetupError(f"cannot read {what} {path}: {exc.strerror}") from exc
    return parse_toml(text, f"{what} {path}")


def parse_toml(text: str, what: str) -> dict[str, Any]:
    """``text`` as a TOML document; a `SetupError` naming ``what`` if it is not one.  Arrays
    nested thousands deep exhaust Python's recursion in the parser: refused as well, since no
    map or scenario needs more than a few levels."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"{what} is not valid TOML: {exc}") from None
    except RecursionError:
        raise SetupError(f"{what} is nested too deeply to be a map or scenario") from None


_ARRAY_HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_.\- ]+?)\s*\]\]")
_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\- ]+?)\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


class TomlLines:
    """Where things are in a TOML text, so that a problem found in the parsed document can be
    pinned to its line: ``line("units", 2, "hex")`` is the line of ``hex = ...`` in the third
    ``[[units]]`` block (or that block's header if the key is missing); ``line("map",
    "terrain")`` a key of a plain table.  0 when nothing matches.  Keys inside multi-line
    strings are not keys; inline tables are not looked into."""

    def __init__(self, text: str) -> None:
        self.lines: dict[tuple[object, ...], int] = {}
        counts: dict[str, int] = {}
        where: tuple[object, ...] = ()
        in_string = False
        for number, line in enumerate(text.splitlines(), start=1):
            if in_string:
                in_string = line.count('"""') % 2 == 0
                continue
            array = _ARRAY_HEADER.match(line)
            plain = None if array else _HEADER.match(line)
            if array:
                name = array.group(1).strip()
                index = counts.get(name, 0)
                counts[name] = index + 1
                where = (*name.split("."), index)
                self.lines.setdefault(where, number)
            elif plain:
                where = tuple(plain.group(1).strip().split("."))
                self.lines.setdefault(where, number)
            else:
                key = _KEY.match(line)
                if key:
                    self.lines.setdefault((*where, key.group(1)), number)
            if line.count('"""') % 2 == 1:
                in_string = True

    def line(self, *path: object) -> int:
        """The line of ``path`` or of the nearest enclosing table found; 0 if none."""
        for end in range(len(path), 0, -1):
            found = self.lines.get(tuple(path[:end]))
            if found:
                return found
        return 0


__all__ = [
    "MAX_TOML_BYTES",
    "TomlLines",
    "parse_toml",
    "read_toml",
]
