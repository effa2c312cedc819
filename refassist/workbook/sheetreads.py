"""What each turn sheet read as, remembered by its bytes, for every game.

A turn's sheet is read by the intake and again by resolve (the master may have changed since):
twice openpyxl's load, about 0.1 s a sheet, most of it formatting merged cells.  What a sheet
says depends only on its bytes and the reader of its game, so the answer is remembered by their
SHA-256 and a second read of the same bytes in the same process is answered from memory, as a
copy the caller may change.  A sheet that is refused is not remembered: refusing it again costs
what it cost the first time.  (The reports read the orders as understood from the archive's
manifest, not the sheets.)
"""

from __future__ import annotations

import copy
import hashlib
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .sheetio import MAX_FILE_BYTES, TurnSheetFile, open_turn_sheet

ReadT = TypeVar("ReadT")


class SheetReads:
    """The last `SIZE` sheets read, by their reader and the SHA-256 of their bytes."""

    SIZE = 256

    def __init__(self) -> None:
        self._reads: OrderedDict[tuple[str, str], object] = OrderedDict()

    def get(self, key: tuple[str, str]) -> object | None:
        """A copy of what the sheet with these bytes read as, if it was read before."""
        found = self._reads.get(key)
        if found is None:
            return None
        self._reads.move_to_end(key)
        return copy.deepcopy(found)

    def put(self, key: tuple[str, str], read: object) -> None:
        self._reads[key] = copy.deepcopy(read)
        self._reads.move_to_end(key)
        while len(self._reads) > self.SIZE:
            self._reads.popitem(last=False)

    def clear(self) -> None:
        self._reads.clear()


SHEET_READS = SheetReads()


def read_remembered(
    path: Path, opened: TurnSheetFile | None, reader: Callable[[TurnSheetFile], ReadT]
) -> ReadT:
    """``reader`` applied to the sheet at ``path`` (or to ``opened``, the same file already
    opened and checked by the caller), or its remembered answer for the same bytes."""
    digest = hashlib.sha256(opened.data).hexdigest() if opened is not None else _digest_of(path)
    name = f"{reader.__module__}.{reader.__qualname__}"
    if digest is not None:
        known = SHEET_READS.get((name, digest))
        if known is not None:
            return known  # type: ignore[return-value]
    sheet = opened if opened is not None else open_turn_sheet(Path(path))
    result = reader(sheet)
    SHEET_READS.put((name, hashlib.sha256(sheet.data).hexdigest()), result)
    return result


def _digest_of(path: Path) -> str | None:
    """SHA-256 of a file small enough to be a turn sheet (None if it cannot be read or is too
    large: the checked opening then says why)."""
    try:
        # Only a regular file: a FIFO or a device would block or never end; the checked
        # opening refuses those with a clear message.
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
