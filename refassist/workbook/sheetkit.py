"""Small pieces every ruleset's turn sheet uses: cell references and problem messages.

Each game lays out its own sheet (`refassist/rulesets/<game>/sheet.py`), but all of them
address cells by ``B14``-style references for both writers (xlsxwriter wants 0-based row and
column numbers) and readers (openpyxl takes the reference), and all of them turn a parser's
``what is wrong; how to fix`` message into the two halves a `CellProblem` holds.
"""

from __future__ import annotations


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
