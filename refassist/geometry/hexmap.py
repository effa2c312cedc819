"""Traveller hex geometry: hex ids, distance, neighbours, ranges and subsectors.

A Traveller sector is 32 columns x 40 rows of flat-topped hexes; a hex id is ``XXYY`` (column,
row, both from 01).  Columns are vertical and the *even* columns sit half a hex lower than the
odd ones (Traveller Map convention, see ``shared/sectors/FORMAT.md``), so 0101 touches 0102 and
0201 but not 0202, and the neighbours of 1827 are 1826, 1828, 1727, 1728, 1927 and 1928.

Hex ids are kept as four-character strings everywhere in the game state because that is what
referees and players read and type; this module converts to cube coordinates only to measure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

SUBSECTOR_LETTERS = "ABCDEFGHIJKLMNOP"

_HEX_TEXT = re.compile(r"^\s*(\d{3,4})\s*$")


def parse_hex(value: object) -> str:
    """Normalise what a person typed for a hex into ``XXYY``.

    Accepts ``"0510"``, ``"510"``, the number ``510`` and ``510.0`` (a spreadsheet's idea of a
    number).  Raises ``ValueError`` for anything else; range checks are the grid's job.
    """
    if isinstance(value, bool):
        raise ValueError(f"not a hex: {value!r}")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"not a hex: {value!r}")
        value = int(value)
    if isinstance(value, int):
        if not 0 <= value <= 9999:
            raise ValueError(f"not a hex: {value!r}")
        return f"{value:04d}"
    if isinstance(value, str):
        m = _HEX_TEXT.match(value)
        if m:
            return m.group(1).zfill(4)
    raise ValueError(f"not a hex: {value!r}")


#: ``"00"`` to ``"99"``: a hex id's halves.
_TWO_DIGITS = [f"{n:02d}" for n in range(100)]


def hex_id(col: int, row: int) -> str:
    """The ``XXYY`` id of a column and row."""
    return f"{col:02d}{row:02d}"


@lru_cache(maxsize=16)
def _every_hex(cols: int, rows: int) -> tuple[str, ...]:
    return tuple(hex_id(col, row) for col in range(1, cols + 1) for row in range(1, rows + 1))


@lru_cache(maxsize=8192)
def col_row(hex_: str) -> tuple[int, int]:
    """Column and row of an ``XXYY`` id (no range check)."""
    if len(hex_) != 4 or not hex_.isdigit():
        raise ValueError(f"not a hex id: {hex_!r}")
    return int(hex_[:2]), int(hex_[2:])


def _cube(col: int, row: int) -> tuple[int, int, int]:
    # Column 1 is "odd" in Traveller numbering; with c0 = col - 1 it is even and unshifted.
    c0 = col - 1
    x = c0
    z = row - (c0 - (c0 & 1)) // 2
    return x, -x - z, z


def distance(a: str, b: str) -> int:
    """Jump distance in hexes between two hex ids (the length of the most direct route)."""
    ax, ay, az = _cube(*col_row(a))
    bx, by, bz = _cube(*col_row(b))
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def subsector_letter(hex_: str) -> str:
    """The subsector letter A-P of a hex in a 32x40 sector."""
    col, row = col_row(hex_)
    return SUBSECTOR_LETTERS[((row - 1) // 10) * 4 + (col - 1) // 8]


@dataclass(frozen=True)
class HexGrid:
    """A rectangular grid of hexes; the Traveller sector is the default 32 x 40."""

    cols: int = 32
    rows: int = 40

    def contains(self, hex_: str) -> bool:
        """True when the id names a hex on this grid."""
        try:
            col, row = col_row(hex_)
        except ValueError:
            return False
        return 1 <= col <= self.cols and 1 <= row <= self.rows

    def hexes(self) -> Iterator[str]:
        """Every hex id on the grid, column by column (made once a grid size: a report's
        map shading and sight walk the whole sector for every reader)."""
        return iter(_every_hex(self.cols, self.rows))

    def neighbours(self, hex_: str) -> list[str]:
        """The (up to six) adjacent hexes that lie on the grid."""
        col, row = col_row(hex_)
        if col % 2 == 0:  # even columns are half a hex lower
            deltas = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)]
        else:
            deltas = [(0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)]
        out = []
        for dc, dr in deltas:
            c, r = col + dc, row + dr
            if 1 <= c <= self.cols and 1 <= r <= self.rows:
                out.append(hex_id(c, r))
        return out

    def hexside(self, a: str, b: str) -> tuple[str, str]:
        """The hexside between two adjacent hexes, the same whichever side it is named from
        (the lower id first); ValueError if the hexes do not touch or are off the grid."""
        if not (self.contains(a) and self.contains(b)) or b not in self.neighbours(a):
            raise ValueError(f"{a} and {b} are not adjacent hexes, so they share no hexside")
        return (a, b) if a < b else (b, a)

    def within(self, hex_: str, radius: int) -> list[str]:
        """Every hex on the grid at distance <= radius (the hex itself included), column by
        column.  Worked out on the numbers (`distance` reads two ids each time), each
        column's rows as one range: sight and ranges ask for thousands of these a turn."""
        col, row = col_row(hex_)
        _, y0, z0 = _cube(col, row)
        out = []
        for c in range(max(1, col - radius), min(self.cols, col + radius) + 1):
            x = c - 1
            shift = (x - (x & 1)) // 2
            # In cube coordinates a hex of this column is within reach when |z - z0| and
            # |y - y0| = |-x - z - y0| are both at most the radius: one range of z, so of rows.
            low = max(z0 - radius, -x - y0 - radius) + shift
            high = min(z0 + radius, -x - y0 + radius) + shift
            column = f"{c:02d}"
            for r in range(max(1, low), min(self.rows, high) + 1):
                out.append(column + _TWO_DIGITS[r] if r < 100 else hex_id(c, r))
        return out

    def subsector(self, hex_: str) -> str:
        """Subsector letter (A-P) of a hex; only meaningful on the 32 x 40 sector grid."""
        return subsector_letter(hex_)

    def subsector_hexes(self, letter: str) -> list[str]:
        """Every hex of one subsector, column by column."""
        index = SUBSECTOR_LETTERS.index(letter.upper())
        col0 = (index % 4) * 8 + 1
        row0 = (index // 4) * 10 + 1
        return [hex_id(c, r) for c in range(col0, col0 + 8) for r in range(row0, row0 + 10)]


SECTOR = HexGrid()
