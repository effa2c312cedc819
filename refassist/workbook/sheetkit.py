"""Small pieces every ruleset's turn sheet uses: cell references, problem messages, and the
hidden sheet of dropdown lists.

Each game lays out its own sheet (`refassist/rulesets/<game>/sheet.py`), but all of them
address cells by ``B14``-style references for both writers (xlsxwriter wants 0-based row and
column numbers) and readers (openpyxl takes the reference), and all of them turn a parser's
``what is wrong; how to fix`` message into the two halves a `CellProblem` holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .master import column_letter


def cell_row(ref: str) -> int:
    """The 1-based row of ``B14`` (14)."""
    return int("".join(ch for ch in ref if ch.isdigit()))


def cell_col(ref: str) -> str:
    """The column letters of ``B14`` (``B``)."""
    return "".join(ch for ch in ref if ch.isalpha())


def cell_rc(ref: str) -> tuple[int, int]:
    """0-based (row, column) for xlsxwriter from ``B14`` ((13, 1))."""
    col = 0
    for ch in cell_col(ref).upper():
        col = col * 26 + ord(ch) - 64
    return cell_row(ref) - 1, col - 1


def split_message(text: str) -> tuple[str, str]:
    """A parser's message ``what is wrong; how to fix`` as (message, fix), the fix starting
    with a capital and ending with a full stop (``("", "")`` halves stay empty)."""
    head, sep, tail = text.partition("; ")
    if not sep:
        return text, ""
    tail = tail.strip()
    return head, (tail[:1].upper() + tail[1:]).rstrip(".") + "."


class DropdownLists:
    """The hidden sheet that holds a turn sheet's dropdown lists, one column per list.

    Excel's data validation takes a list either inline (at most 255 characters) or as a range;
    unit lists, system codes and fleet names outgrow the inline form, so every list goes in a
    column of this sheet and the dropdown refers to its range.
    """

    def __init__(self, ws: Any, sheet_name: str) -> None:
        self.ws = ws
        self.sheet_name = sheet_name
        self.column = 0

    def add(self, values: Iterable[str]) -> str | None:
        """Write a list (each value once, in order) and return the formula of its range, or
        None for an empty list (no dropdown)."""
        items = list(dict.fromkeys(values))
        if not items:
            return None
        col = self.column
        self.column += 1
        for r, value in enumerate(items):
            self.ws.write_string(r, col, value)
        letter = column_letter(col)
        return f"='{self.sheet_name}'!${letter}$1:${letter}${len(items)}"
