"""The campaign map's geometry: a square grid of parsecs, distances by squares crossed, and
the obstacles that make a jump impossible.

The seed measures "from point to point": the straight line between the two places, where
"each square, or part of a square crossed, no matter how small, increases the distance by one
parsec", and "should the straight line cross any obstacle the trip is impossible".  We read
it as the line between the centres of the two squares: every square whose inside the line
passes through counts once.  A line that passes exactly through the corner where four squares
meet crosses only the two it goes between (the other two it touches at a point, which is no
part of them); so a diagonal of three squares is three parsecs, a straight run of five is five.
The start square does not count (the line leaves it) unless the house rule
``distance_counts_start`` says so; the end square does (the line enters it).

Squares are written ``XXYY`` (column, row, from 01), as on the Traveller maps referees of the
other games know; `square_code` and `parse_square` convert.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any

#: A square of the grid: (column, row), both from 1.
Square = tuple[int, int]

_CODE = re.compile(r"^\s*(\d{2})(\d{2})\s*$")


def parse_square(text: str) -> Square:
    """``0304`` -> (3, 4); ValueError for anything else."""
    match = _CODE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a square (four digits, column then row: 0304)")
    column, row = int(match.group(1)), int(match.group(2))
    if not column or not row:
        raise ValueError(f"{text!r} is not a square (columns and rows count from 01)")
    return column, row


def square_code(square: Square) -> str:
    """(3, 4) -> ``0304``."""
    return f"{square[0]:02d}{square[1]:02d}"


def squares_crossed(start: Square, end: Square) -> list[Square]:
    """The squares the line from ``start``'s centre to ``end``'s passes through, in order,
    both ends included.  Exact (fractions): a line through a corner steps diagonally."""
    (x, y), (x1, y1) = start, end
    steps_x, steps_y = abs(x1 - x), abs(y1 - y)
    sx = 1 if x1 > x else -1
    sy = 1 if y1 > y else -1
    done_x = done_y = 0
    squares = [start]
    while (x, y) != (x1, y1):
        # The line leaves its current column at t = (2i+1) / (2 * steps), likewise its row.
        tx = Fraction(2 * done_x + 1, 2 * steps_x) if done_x < steps_x else None
        ty = Fraction(2 * done_y + 1, 2 * steps_y) if done_y < steps_y else None
        if ty is None or (tx is not None and tx <= ty):
            x += sx
            done_x += 1
        if tx is None or (ty is not None and ty <= tx):
            y += sy
            done_y += 1
        squares.append((x, y))
    return squares


def distance(start: Square, end: Square, rules: Mapping[str, Any]) -> int:
    """Parsecs from ``start`` to ``end``: the squares the line enters (and the start square
    too under ``distance_counts_start``)."""
    if start == end:
        return 0
    entered = len(squares_crossed(start, end)) - 1
    return entered + (1 if rules["distance_counts_start"] else 0)


def blocked_by(start: Square, end: Square, obstacles: Collection[Square]) -> Square | None:
    """The first obstacle square the line crosses, or None when the way is clear.  The two
    ends are places a ship may be (systems, wormholes), never obstacles of their own jump."""
    for square in squares_crossed(start, end)[1:-1]:
        if square in obstacles:
            return square
    return None


__all__ = ["Square", "blocked_by", "distance", "parse_square", "square_code", "squares_crossed"]
