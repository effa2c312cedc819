"""Writing a turn sheet's pages in the terms players read them: sections, numbered input lines,
a question (input message and dropdown) on a range of cells, labelled values, read-only listings;
and typing orders into a written sheet as a player would.

Every game's `sheet.py` lays out its own page, but writes it with these few shapes, so that a
new game's sheet is its cells and words, and so that every game's sheet asks the same way: a
title and a message on each input range, a dropdown where the choices are known (strict where
nothing else can be read, a warning where the referee's tool checks what was typed), whole
numbers held to their range by Excel before the tool sees them.

Rows are 1-based and cells are ``B14``-style references, as a player and the readers see them;
the translation to xlsxwriter's 0-based numbers happens here only.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..atomic import atomic_path
from ..text.i18n import current
from ..text.words import N_
from .sheetkit import DropdownLists, SheetStyles, cell_rc, typist

#: Excel's limits on a data validation's texts.
TITLE_LIMIT = 32
MESSAGE_LIMIT = 255

NOT_IN_LIST_STRICT = N_("Choose a value from the list.")
NOT_IN_LIST_LOOSE = N_(
    "This is not in the list. Keep it only if you are sure; the referee's tool will check it."
)


def _span(cells: str) -> tuple[int, int, int, int]:
    """``B11:B26`` (or one cell ``B11``) as xlsxwriter's (first row, first column, last row,
    last column)."""
    first, _, last = cells.partition(":")
    r1, c1 = cell_rc(first)
    r2, c2 = cell_rc(last or first)
    return r1, c1, r2, c2


class Page:
    """A visible page of a turn sheet being written, with the workbook's formats (``st``) and
    its hidden dropdown lists.  ``width`` is the page's last column (0-based): sections and
    notes span the page."""

    def __init__(self, ws: Any, st: SheetStyles, lists: DropdownLists, width: int = 6) -> None:
        self.ws = ws
        self.st = st
        self.lists = lists
        self.width = width

    def section(self, row: int, text: str) -> None:
        """A section's title bar across the page."""
        self.ws.merge_range(row - 1, 0, row - 1, self.width, text, self.st.section)

    def note(self, cells: str, text: str) -> None:
        """A note (wrapped, grey italics) over the merged ``cells``."""
        self.ws.merge_range(*_span(cells), text, self.st.note)

    def headers(self, row: int, texts: Sequence[str]) -> None:
        """Column headings from column A; an empty heading still gets the heading format."""
        for c, text in enumerate(texts):
            self.ws.write_string(row - 1, c, text, self.st.header)

    def value(self, ref: str, value: Any, fmt: Any) -> None:
        """A number as a number, anything else as text (never a formula); nothing (None or
        "") as an empty cell that keeps ``fmt``."""
        r, c = cell_rc(ref)
        if value is None or value == "":
            self.ws.write_blank(r, c, None, fmt)
        elif isinstance(value, int) and not isinstance(value, bool):
            self.ws.write_number(r, c, value, fmt)
        else:
            self.ws.write_string(r, c, str(value), fmt)

    def labelled(self, label_ref: str, label: str, ref: str, value: Any, span: int = 0) -> None:
        """A bold label and its value, the value's cell merged ``span`` columns further."""
        r, c = cell_rc(label_ref)
        self.ws.write_string(r, c, label, self.st.label)
        r, c = cell_rc(ref)
        if span:
            self.ws.merge_range(r, c, r, c + span, "", self.st.value)
        self.value(ref, value, self.st.value)

    def numbered(self, first: int, count: int) -> range:
        """Number ``count`` lines from row ``first`` in column A; their rows."""
        for i in range(count):
            self.ws.write_number(first - 1 + i, 0, i + 1, self.st.rownum)
        return range(first, first + count)

    def blank(self, ref: str, fmt: Any, through: str = "") -> None:
        """An empty cell (or the merged ``ref:through``) in ``fmt``, an input cell's look."""
        r, c = cell_rc(ref)
        if through:
            r2, c2 = cell_rc(through)
            self.ws.merge_range(r, c, r2, c2, "", fmt)
        else:
            self.ws.write_blank(r, c, None, fmt)

    def ask(
        self,
        cells: str,
        title: str,
        message: str,
        choices: Iterable[str] | str | None = None,
        *,
        strict: bool = False,
        inline: bool = False,
    ) -> None:
        """The input message over ``cells``, with a dropdown of ``choices`` when there are
        any: kept on the lists sheet (``inline``: in the validation itself, for a short fixed
        list; a string: a list's range from `DropdownLists.add`, shared by several ranges).
        ``strict`` refuses anything else; otherwise Excel warns and the referee's tool
        decides."""
        options: dict[str, Any] = {
            "input_title": title[:TITLE_LIMIT],
            "input_message": message[:MESSAGE_LIMIT],
        }
        source: str | list[str] | None
        if isinstance(choices, str):
            source = choices
        else:
            values = list(choices or ())
            source = values if inline else self.lists.add(values)
        if not source:
            options["validate"] = "any"
        else:
            w = current()
            options.update(
                validate="list",
                source=source,
                error_title=w.gettext("Not in the list")[:TITLE_LIMIT],
                error_message=w.gettext(NOT_IN_LIST_STRICT if strict else NOT_IN_LIST_LOOSE),
                error_type="stop" if strict else "warning",
            )
        self.ws.data_validation(*_span(cells), options)

    def choose(self, cells: str, title: str, message: str, choices: Iterable[str]) -> None:
        """`ask` with a short fixed list kept in the validation itself that nothing else may
        be typed over (a stance, a yes/no): the most common dropdown of a turn sheet."""
        self.ask(cells, title, message, choices, strict=True, inline=True)

    def whole_number(self, cells: str, title: str, message: str, lowest: int, highest: int) -> None:
        """Only whole numbers from ``lowest`` to ``highest`` may be typed in ``cells``."""
        self.ws.data_validation(
            *_span(cells),
            {
                "validate": "integer",
                "criteria": "between",
                "minimum": lowest,
                "maximum": highest,
                "input_title": title[:TITLE_LIMIT],
                "input_message": message[:MESSAGE_LIMIT],
                "error_title": current().gettext("Whole number")[:TITLE_LIMIT],
                "error_message": current()
                .gettext("Type a whole number from {lowest} to {highest}.")
                .format(lowest=lowest, highest=highest),
            },
        )


class Listing:
    """A read-only page of lines under titles (what the player holds, sees, has under way):
    the page's title in its first row, then blocks; ``rows`` is how far it went (the print
    area), ``span`` the last column a block's title bar covers (0: its own cell only)."""

    def __init__(self, ws: Any, st: SheetStyles, title: str, span: int = 0) -> None:
        self.ws = ws
        self.st = st
        self.span = span
        ws.write_string(0, 0, title, st.title)
        self.rows = 2

    def line(self, text: str, fmt: Any = None) -> None:
        self.ws.write_string(self.rows, 0, text, fmt if fmt is not None else self.st.line)
        self.rows += 1

    def block(self, title: str, lines: Sequence[str], empty: str) -> None:
        """A titled block of lines, or ``empty`` as a note when there are none; a blank line
        after it."""
        if self.span:
            self.ws.merge_range(self.rows, 0, self.rows, self.span, title, self.st.section)
            self.rows += 1
        else:
            self.line(title, self.st.section)
        for text in lines:
            self.line(text)
        if not lines:
            self.line(empty, self.st.note)
        self.rows += 1


@contextlib.contextmanager
def typing_into(path: Path, sheet: str) -> Iterator[tuple[Callable[[str, Any], None], Any]]:
    """Type into ``sheet`` of the turn sheet at ``path`` as a player would (`typist`: text
    stays text), then save it in place atomically with openpyxl, as a spreadsheet program
    would: protection, dropdowns and the hidden sheets are kept.  Yields ``(put, worksheet)``;
    nothing is saved if the body raises."""
    path = Path(path)
    import openpyxl  # here: writing a sheet (most commands' only use of this module) needs none

    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    yield typist(ws), ws
    with atomic_path(path) as tmp:
        wb.save(tmp)
