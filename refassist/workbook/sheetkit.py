"""The pieces every ruleset's turn sheet is made of: cell references, problem messages, the
hidden sheet of dropdown lists, the formats, the reader of input cells, and typing orders in.

Each game lays out its own sheet (`refassist/rulesets/<game>/sheet.py`), but all of them
address cells by ``B14``-style references for both writers (xlsxwriter wants 0-based row and
column numbers) and readers (openpyxl takes the reference), and all of them turn a parser's
``what is wrong; how to fix`` message into the two halves a `CellProblem` holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from ..errors import CellProblem, InvalidOrder, UsageError
from .celltext import cell_text, excerpt
from .celltext import normalise as normalise_text
from .master import column_letter
from .sheetio import TurnSheetFile

T = TypeVar("T")


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


_CELL_REF = re.compile(r"^[A-Z]{1,3}[0-9]{1,7}$")


def shift_cell(ref: str, columns: int) -> str:
    """``B14`` moved ``columns`` to the right (``shift_cell("B14", 2) == "D14"``): the cell of
    each part of a row typed one part per column.  Anything but a reference comes back as
    it is."""
    if not _CELL_REF.match(ref):
        return ref
    row, col = cell_rc(ref)
    return f"{column_letter(col + columns)}{row + 1}"


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


def check_room(what: str, count: int, rows: int) -> None:
    """Refuse to fill in more lines of ``what`` than the sheet has rows for."""
    if count > rows:
        raise UsageError(f"{count} {what} do not fit on the sheet, which has {rows} rows for them")


def typist(ws: Any) -> Callable[[str, Any], None]:
    """A ``put(ref, value)`` that types into an openpyxl sheet as a player would: text stays
    text even when it starts with ``=`` (no formula is ever made)."""

    def put(ref: str, value: Any) -> None:
        cell = ws[ref]
        cell.value = value
        if isinstance(value, str):
            cell.data_type = "s"

    return put


class SheetStyles:
    """The formats every game's turn sheet is written with, made once per workbook: the same
    title, headings, notes and pale yellow input cells in every game, so players of several
    games find their way at once.  A game adds its own formats in a subclass."""

    def __init__(self, wb: Any) -> None:
        base = {"font_name": "Calibri", "font_size": 10, "valign": "vcenter"}
        self.base = base
        self.title = wb.add_format(
            {**base, "bold": True, "font_size": 16, "font_color": "#1F3864", "align": "left"}
        )
        self.subtitle = wb.add_format({**base, "italic": True, "font_color": "#44546A"})
        self.label = wb.add_format({**base, "bold": True, "align": "left"})
        self.value = wb.add_format(
            {**base, "align": "left", "bottom": 1, "bottom_color": "#A6A6A6"}
        )
        self.section = wb.add_format(
            {**base, "bold": True, "font_size": 11, "font_color": "#FFFFFF", "bg_color": "#1F3864"}
        )
        self.header = wb.add_format(
            {
                **base,
                "bold": True,
                "bg_color": "#D9E1F2",
                "border": 1,
                "border_color": "#8EA9DB",
                "text_wrap": True,
            }
        )
        self.note = wb.add_format(
            {**base, "italic": True, "font_color": "#595959", "text_wrap": True, "valign": "top"}
        )
        self.rownum = wb.add_format({**base, "font_color": "#808080", "align": "center"})
        self.line = wb.add_format({**base, "font_name": "Consolas", "font_size": 9})
        self.input_base = {
            **base,
            "bg_color": "#FFF2CC",
            "border": 1,
            "border_color": "#BF9000",
            "locked": False,
        }
        self.input_text = wb.add_format({**self.input_base, "num_format": "@"})
        self.input_number = wb.add_format({**self.input_base, "num_format": "0", "align": "center"})
        self.cost = wb.add_format(
            {**base, "align": "right", "border": 1, "border_color": "#D9D9D9"}
        )
        self.total = wb.add_format({**base, "bold": True, "align": "right", "top": 1})
        self.ref = wb.add_format({**base, "border": 1, "border_color": "#D9D9D9"})


class SheetReader:
    """Reads the input cells of one sheet of an opened turn sheet, collecting problems.

    A game's reader subclasses it with one method per section of its sheet; the cell access,
    the clean-up of what was typed and the pinning of problems are the same in every game.
    ``normalise`` is the game's reading of text (`celltext.normalise` or its own on top)."""

    def __init__(
        self, sheet: TurnSheetFile, name: str, normalise: Callable[..., str] = normalise_text
    ) -> None:
        self.sheet = sheet
        self.name = name
        self.normalise = normalise
        self.problems: list[CellProblem] = []

    def value(self, ref: str) -> Any:
        """The cell's value, with a formula or a hostile value recorded as a problem."""
        got = self.sheet.input_value(self.name, ref)
        if got.problem is not None:
            self.problems.append(got.problem)
        return got.value

    def refused(self, ref: str) -> bool:
        """Whether the cell already has an error (a formula, an error value, text too long):
        a line built on it is left out rather than given a second, misleading problem."""
        return any(p.cell == ref and p.severity == "error" for p in self.problems)

    def raw(self, ref: str) -> str:
        """The cell as text, trimmed (`celltext.cell_text`); "" and a problem if unreadable."""
        try:
            return cell_text(self.value(ref), cell=ref)
        except InvalidOrder as exc:
            self.invalid(exc, ref)
            return ""

    def text(self, ref: str) -> str:
        """The cell as the game's parser reads it; "" and a problem if it cannot be."""
        raw = self.raw(ref)
        try:
            return self.normalise(raw, cell=ref, found=raw)
        except InvalidOrder as exc:
            self.invalid(exc, ref)
            return ""

    def line(self, row: int, columns: Iterable[str]) -> tuple[list[str], list[str]]:
        """The references of ``columns`` in ``row`` and their `text`, for a row of orders
        typed one part per column."""
        refs = [f"{column}{row}" for column in columns]
        return refs, [self.text(ref) for ref in refs]

    def lines(
        self, first: int, count: int, columns: Iterable[str]
    ) -> Iterator[tuple[list[str], list[str]]]:
        """`line` for each of ``count`` rows from ``first`` that holds anything (a blank row
        of an order section is no order), read in sheet order."""
        columns = tuple(columns)
        for row in range(first, first + count):
            refs, texts = self.line(row, columns)
            if any(texts):
                yield refs, texts

    def parsed(self, ref: str, read: Callable[..., Any], *args: Any) -> Any:
        """The cell read by the game's parser, ``read(*args, text, ref)``; None for an empty
        cell or one the parser refused (the problem recorded on the cell)."""
        text = self.raw(ref)
        if not text:
            return None
        try:
            return read(*args, text, ref)
        except InvalidOrder as exc:
            self.invalid(exc, ref)
            return None

    def attempt(self, ref: str, read: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """``read(*args, **kwargs)``, a parser of what a line's cells hold; None when it
        refuses, its refusal pinned to the cell it names or to ``ref``.  The caller leaves the
        line out then, so one bad cell gives one problem and nothing half read."""
        try:
            return read(*args, **kwargs)
        except InvalidOrder as exc:
            self.invalid(exc, ref)
            return None

    def choice(self, ref: str, text: str, words: Mapping[str, T], what: str, fix: str) -> T | None:
        """``text`` (as `text` reads it) taken as one of ``words``, a word -> its meaning;
        None and the problem "'X' is not <what>" on ``ref`` when it is none of them."""
        if text in words:
            return words[text]
        self.error(ref, text, f"{excerpt(text)!r} is not {what}", fix)
        return None

    def invalid(self, exc: InvalidOrder, ref: str) -> None:
        """A parser's refusal, pinned to its own cell or to ``ref``."""
        message, fix = split_message(str(exc))
        found = excerpt(exc.text)
        self.problems.append(CellProblem(self.name, exc.cell or ref, found, message, fix))

    def error(self, ref: str, found: str, message: str, fix: str, severity: str = "error") -> None:
        self.problems.append(CellProblem(self.name, ref, excerpt(found), message, fix, severity))
