"""An OpenDocument spreadsheet (``.ods``) a player sent, read as the workbook its ``.xlsx`` gives.

LibreOffice saves in its own format unless told otherwise, and most of our players fill in
their sheets there.  A sheet saved as ``.ods`` is read here into an openpyxl workbook built in
memory: the same sheets in the same order, hidden where LibreOffice hides them, every value in
the cell where the ``.xlsx`` has it, the merged ranges, and each formula as an ``.xlsx`` holds
it (the formula in the workbook of formulas, its last computed value in the workbook of
values).  So `sheetio.TurnSheetFile`, every game's reader and checker and the identity check
work on it unchanged, and a formula or an error value gets the same answer as in an ``.xlsx``.

What is read is ``content.xml``'s cells and, for the annotated copy only, its column widths:
not styles, protection, validations or print setup.  No reader may depend on them: a sheet's
meaning is its values and its token (an ``.xlsx`` re-saved by Google Sheets loses cell
protection too).

Why not python-calamine, which reads ``.ods`` too: it gives values only, not which cells hold
a formula (a formula must be a warning, or an error when it has no computed value), not error
values, not merged ranges for ``.ods``, and every number as a float.  One streaming pass over
``content.xml`` gives all of it, and counts repeated rows and cells before anything is
expanded: LibreOffice writes a million empty rows as one element, and a hostile file can do
the same with a row full of text, which must be refused from its count, never built.

The container was checked before (`sheetio.check_container`: sizes, DTDs, macros, embedded
objects).  Everything refused here raises `NotATurnSheet` with one sentence.
"""

from __future__ import annotations

import io
import re
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any
from xml.etree.ElementTree import Element

from ..errors import NotATurnSheet
from ..text.i18n import said
from .limits import (
    MAX_COLUMN,
    MAX_ROW_INDEX,
    MAX_SHEET_CELLS,
    MAX_SHEET_ROWS,
    MAX_SHEETS,
    MAX_XML_PART_BYTES,
    far_row,
    too_big,
)

if TYPE_CHECKING:
    from openpyxl.workbook.workbook import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

#: The ``mimetype`` member of an OpenDocument spreadsheet.
ODS_MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"

_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_CALCEXT = "{urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0}"

_CELL = _TABLE + "table-cell"
_COVERED = _TABLE + "covered-table-cell"
_ROW = _TABLE + "table-row"
_SHEET = _TABLE + "table"
_SPREADSHEET = _OFFICE + "spreadsheet"
_COLUMN = _TABLE + "table-column"
_STYLE_ELEMENT = _STYLE + "style"
#: Inside a paragraph: what stands for characters, and what is not the cell's text at all
#: (a comment, a footnote, a drawing anchored in the text).
_SPACE, _TAB, _BREAK = _TEXT + "s", _TEXT + "tab", _TEXT + "line-break"
_NOT_TEXT = (_OFFICE + "annotation", _TEXT + "note")

#: The longest text one cell may unfold to (``<text:s text:c="N"/>`` is N spaces): the XML part
#: is bounded, what it describes must be too.
_MAX_CELL_TEXT = MAX_XML_PART_BYTES
#: Column widths kept for the annotated copy (a turn sheet uses a handful of columns).
_WIDTH_COLUMNS = 64

CellValue = str | int | float | bool | datetime | time | timedelta


@dataclass(frozen=True)
class OdsCell:
    """One cell that holds something: the value it shows (a formula's last computed value, None
    when it has none), the formula as an ``.xlsx`` writes it, and whether the value is a
    spreadsheet error (``#DIV/0!``)."""

    value: CellValue | None
    formula: str = ""
    error: bool = False


@dataclass
class OdsSheet:
    """One worksheet: its name, whether it is hidden, its cells by (row, column) from 0, its
    merged ranges (first row, first column, last row, last column) and column widths."""

    name: str
    hidden: bool
    cells: dict[tuple[int, int], OdsCell] = field(default_factory=dict)
    merges: list[tuple[int, int, int, int]] = field(default_factory=list)
    widths: dict[int, float] = field(default_factory=dict)


def ods_workbook(data: bytes, name: str, *, data_only: bool = False) -> Workbook:
    """The ``.ods`` in ``data`` as an openpyxl workbook: formulas as formulas, or (``data_only``)
    every formula's last computed value, as openpyxl loads an ``.xlsx``."""
    return build_workbook(read_sheets(data, name), name, data_only=data_only)


# -- reading content.xml ------------------------------------------------------------------------


def read_sheets(data: bytes, name: str) -> list[OdsSheet]:
    """Every worksheet of the ``.ods`` in ``data``, read and counted (`NotATurnSheet` when it
    cannot be read or holds far more than a turn sheet)."""
    content = _content_xml(data, name)
    reader = _ContentReader(name)
    try:
        for event, element in _events(content):
            reader.handle(event, element)
    except NotATurnSheet:
        raise
    except RecursionError:
        raise _unreadable(name, said("its XML is nested too deeply")) from None
    except Exception as exc:  # the XML parser on hostile bytes: any failure is a refusal
        detail = " ".join(str(exc).split())[:120]
        raise _unreadable(name, f"{type(exc).__name__}: {detail}") from None
    if not reader.sheets:
        raise _unreadable(name, said("it holds no worksheet"))
    return reader.sheets


def _content_xml(data: bytes, name: str) -> bytes:
    """The ``content.xml`` part, where an ``.ods`` keeps every worksheet."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return zf.read("content.xml")
    except KeyError:
        raise _unreadable(name, said("it has no content.xml")) from None
    except Exception as exc:  # zipfile on a damaged container
        raise _unreadable(name, f"content.xml cannot be unpacked: {exc}") from None


def _events(content: bytes) -> Iterator[tuple[str, Element]]:
    """Start and end events of ``content.xml``, from a parser that refuses DTDs and entities
    (the container check refused them already; this makes it hold for any caller)."""
    from defusedxml.ElementTree import iterparse

    yield from iterparse(
        io.BytesIO(content), events=("start", "end"), forbid_dtd=True, forbid_entities=True
    )


def _unreadable(name: str, why: str) -> NotATurnSheet:
    return NotATurnSheet(
        said(
            "{name} could not be read as an OpenDocument spreadsheet ({why}); open it in your "
            "spreadsheet program, save it again (.ods or .xlsx) and send it again",
            name=name,
            why=why,
        )
    )


@dataclass
class _Entry:
    """A cell element of the row being read: its first column, how many columns it repeats
    over, what it holds (None: nothing) and the range it merges (columns, rows)."""

    column: int
    repeat: int
    cell: OdsCell | None
    span: tuple[int, int]


class _ContentReader:
    """The state of one pass over ``content.xml``: the sheets so far and the row being read.

    A row's cells are collected until the row ends, then counted with the row's repetition
    against the limits, and only then expanded into the sheet."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sheets: list[OdsSheet] = []
        self.hidden_styles: set[str] = set()
        self.column_widths: dict[str, float] = {}
        self.sheet: OdsSheet | None = None
        self.row = 0  # the next row of the sheet, from 0
        self.rows_used = 0
        self.cells_used = 0
        self.merged_area = 0
        self.column = 0  # the next column of the row, or of the column definitions
        self.row_repeat = 0  # 0: not inside a row
        self.entries: list[_Entry] = []
        self.parents: list[str] = []  # the open elements, outermost first
        self.ignored = 0  # depth of tables that are no worksheet

    def handle(self, event: str, element: Element) -> None:
        """One parser event: tables and rows on their start (their attributes), cells and
        styles on their end (their content)."""
        tag = element.tag
        if event == "start":
            self.parents.append(tag)
            if tag == _SHEET:
                self.start_table(element)
            elif tag == _ROW and self.sheet is not None:
                self.row_repeat = self.count(element, "number-rows-repeated")
                self.column, self.entries = 0, []
            elif tag == _COLUMN and self.sheet is not None:
                self.define_columns(element)
            return
        self.parents.pop()
        if tag in (_CELL, _COVERED) and self.row_repeat:
            self.add_cell(element, covered=tag == _COVERED)
        elif tag == _ROW and self.sheet is not None:
            self.end_row()
            element.clear()
        elif tag == _SHEET:
            if self.ignored:
                self.ignored -= 1
            else:
                self.sheet = None
            element.clear()
        elif tag == _STYLE_ELEMENT:
            self.remember_style(element)

    def count(self, element: Element, attribute: str) -> int:
        """A repetition or span attribute (1 when absent), refused when it is not a number."""
        raw = element.get(_TABLE + attribute)
        if raw is None:
            return 1
        if not raw.isdigit() or len(raw) > 9 or int(raw) < 1:
            raise _unreadable(self.name, f"{attribute} {raw[:20]!r} is not a count")
        return int(raw)

    def remember_style(self, element: Element) -> None:
        """The table styles that hide a sheet, and the column styles' widths."""
        family, style = element.get(_STYLE + "family"), element.get(_STYLE + "name", "")
        if family == "table":
            props = element.find(_STYLE + "table-properties")
            if props is not None and props.get(_TABLE + "display") == "false":
                self.hidden_styles.add(style)
        elif family == "table-column":
            props = element.find(_STYLE + "table-column-properties")
            width = None if props is None else _characters(props.get(_STYLE + "column-width", ""))
            if width is not None:
                self.column_widths[style] = width

    def start_table(self, element: Element) -> None:
        """A worksheet, when the table is one of the spreadsheet's; a table elsewhere (the
        cache of a DDE link) is no worksheet and is passed over, one in a worksheet refused."""
        if self.sheet is not None:
            raise _unreadable(self.name, said("it has a table inside a table"))
        if self.ignored or self.parents[-2:-1] != [_SPREADSHEET]:
            self.ignored += 1
            return
        self.start_sheet(element)

    def start_sheet(self, element: Element) -> None:
        if len(self.sheets) >= MAX_SHEETS:
            raise too_big(
                self.name,
                said(
                    "has more than {limit} worksheets (a turn sheet has 4, the limit is {limit})",
                    limit=MAX_SHEETS,
                ),
            )
        title = element.get(_TABLE + "name", "")
        if title.casefold() in {s.name.casefold() for s in self.sheets}:
            raise _unreadable(
                self.name, said("two worksheets are named {title}", title=repr(title[:40]))
            )
        style = element.get(_TABLE + "style-name", "")
        self.sheet = OdsSheet(title, hidden=style in self.hidden_styles)
        self.sheets.append(self.sheet)
        self.row = self.rows_used = self.cells_used = self.merged_area = 0
        self.column, self.row_repeat = 0, 0

    def define_columns(self, element: Element) -> None:
        """Column widths, for the annotated copy (the first `_WIDTH_COLUMNS` columns)."""
        assert self.sheet is not None
        repeat = self.count(element, "number-columns-repeated")
        width = self.column_widths.get(element.get(_TABLE + "style-name", ""))
        if width is not None:
            for column in range(self.column, min(self.column + repeat, _WIDTH_COLUMNS)):
                self.sheet.widths[column] = width
        self.column += repeat

    def add_cell(self, element: Element, *, covered: bool) -> None:
        """A cell of the row being read; a covered cell (hidden under a merge) reads as empty,
        as the player sees it and as openpyxl reads a merged cell of an ``.xlsx``."""
        repeat = self.count(element, "number-columns-repeated")
        cell = None if covered else _cell(element, self.name)
        span = (1, 1)
        if not covered:
            span = (
                self.count(element, "number-columns-spanned"),
                self.count(element, "number-rows-spanned"),
            )
        if cell is not None or span != (1, 1):
            self.entries.append(_Entry(self.column, repeat, cell, span))
        self.column += repeat
        element.clear()

    def end_row(self) -> None:
        """Count the row's cells times its repetition against the limits, then expand it."""
        assert self.sheet is not None
        repeat, entries = self.row_repeat, self.entries
        self.row_repeat, self.entries = 0, []
        if entries:
            self.check_row(repeat, entries)
            for offset in range(repeat):
                for entry in entries:
                    self.expand(self.row + offset, entry)
        self.row += repeat

    def check_row(self, repeat: int, entries: list[_Entry]) -> None:
        """Refuse the row before it is expanded if it takes the sheet past a limit."""
        assert self.sheet is not None
        part = f"content.xml, sheet {self.sheet.name[:40]!r}"
        last_row = self.row + repeat + max(e.span[1] for e in entries) - 1
        last_column = max(e.column + e.repeat + e.span[0] - 1 for e in entries)
        if last_row > MAX_ROW_INDEX:
            raise far_row(self.name, last_row, part)
        if last_column > MAX_COLUMN:
            raise _unreadable(
                self.name, said("it has a cell beyond the last column ({part})", part=part)
            )
        self.rows_used += repeat if any(e.cell is not None for e in entries) else 0
        self.cells_used += repeat * sum(e.repeat for e in entries if e.cell is not None)
        self.merged_area += repeat * sum(
            e.repeat * e.span[0] * e.span[1] for e in entries if e.span != (1, 1)
        )
        if self.rows_used > MAX_SHEET_ROWS:
            raise too_big(
                self.name,
                said(
                    "has more than {limit} rows in one worksheet ({part}; a turn sheet has "
                    "about 100, the limit is {limit})",
                    part=part,
                    limit=f"{MAX_SHEET_ROWS:,}",
                ),
            )
        if max(self.cells_used, self.merged_area) > MAX_SHEET_CELLS:
            raise too_big(
                self.name,
                said(
                    "has more than {limit} cells in one worksheet ({part}; the limit is {limit})",
                    part=part,
                    limit=f"{MAX_SHEET_CELLS:,}",
                ),
            )

    def expand(self, row: int, entry: _Entry) -> None:
        assert self.sheet is not None
        for column in range(entry.column, entry.column + entry.repeat):
            if entry.cell is not None:
                self.sheet.cells[(row, column)] = entry.cell
            if entry.span != (1, 1):
                columns, rows = entry.span
                self.sheet.merges.append((row, column, row + rows - 1, column + columns - 1))


# -- one cell -------------------------------------------------------------------------------------


def _cell(element: Element, name: str) -> OdsCell | None:
    """What a cell element holds, as openpyxl reads the same cell of an ``.xlsx``; None when
    it holds nothing."""
    formula = element.get(_TABLE + "formula")
    shown = _paragraphs(element, name)
    kind = element.get(_OFFICE + "value-type")
    if element.get(_CALCEXT + "value-type") == "error":
        value: CellValue | None = shown or "#VALUE!"
        return OdsCell(value, _excel_formula(formula) if formula else "", error=True)
    if kind is None or kind == "void":
        value = shown if shown is not None and formula is None and kind is None else None
    elif kind == "string":
        given = element.get(_OFFICE + "string-value")
        # A formula's result is its string-value; typed text is what the paragraphs show.
        value = given if formula is not None and given is not None else (shown or "")
    else:
        value = _typed(element, kind, name)
    if formula is not None:
        return OdsCell(value, _excel_formula(formula))
    if value is None or value == "":
        return None
    return OdsCell(value)


def _typed(element: Element, kind: str, name: str) -> CellValue | None:
    """A number, date, time or truth value from the attribute ODF keeps it in."""
    if kind in ("float", "percentage", "currency"):
        raw = element.get(_OFFICE + "value")
        return None if raw is None else _number(raw, name)
    if kind == "date":
        raw = element.get(_OFFICE + "date-value")
        return None if raw is None else _date(raw, name)
    if kind == "time":
        raw = element.get(_OFFICE + "time-value")
        return None if raw is None else _duration(raw, name)
    if kind == "boolean":
        return element.get(_OFFICE + "boolean-value", "").strip().lower() == "true"
    raise _unreadable(name, f"a cell has the unknown value type {kind[:20]!r}")


_INTEGER = re.compile(r"[+-]?\d{1,20}")
_DECIMAL = re.compile(r"[+-]?(?:\d{1,400}\.?\d{0,400}|\.\d{1,400})(?:[eE][+-]?\d{1,4})?")


def _number(raw: str, name: str) -> int | float:
    """A number as openpyxl reads the same digits in an ``.xlsx``: whole when written without
    a point or an exponent, else a float; anything else makes the file unreadable."""
    text = raw.strip()
    if _INTEGER.fullmatch(text):
        return int(text)
    if _DECIMAL.fullmatch(text):
        return float(text)
    raise _unreadable(name, f"a cell holds {text[:20]!r}, which is not a number")


def _date(raw: str, name: str) -> datetime:
    """A date or date and time (openpyxl gives a datetime for either).  A spreadsheet's dates
    have no time zone, and LibreOffice never writes one: a date with an offset (``...Z``,
    ``+02:00``) is refused, as the workbook could not be written back (the annotated copy)."""
    try:
        found = datetime.fromisoformat(raw.strip())
    except ValueError:
        raise _unreadable(name, f"a cell holds {raw[:30]!r}, which is not a date") from None
    if found.tzinfo is not None:
        raise _unreadable(name, f"a cell holds {raw[:30]!r}, a date with a time zone")
    return found


_DURATION = re.compile(
    r"(-)?P(?:(\d{1,6})D)?T?(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9}(?:\.\d{1,9})?)S)?"
)


def _duration(raw: str, name: str) -> time | timedelta:
    """A time of day (``PT10H30M00S``), or a duration when it is not one."""
    found = _DURATION.fullmatch(raw.strip())
    if found is None or not any(found.groups()[1:]):
        raise _unreadable(name, f"a cell holds {raw[:30]!r}, which is not a time")
    sign, days, hours, minutes, seconds = found.groups()
    length = timedelta(
        days=int(days or 0),
        hours=int(hours or 0),
        minutes=int(minutes or 0),
        seconds=float(seconds or 0),
    )
    if sign or length >= timedelta(days=1):
        return -length if sign else length
    return (datetime.min + length).time()


def _paragraphs(cell: Element, name: str) -> str | None:
    """The text a cell shows: its paragraphs, one per line (None when it has none)."""
    paragraphs = [p for p in cell if p.tag == _TEXT + "p"]
    if not paragraphs:
        return None
    text = "\n".join(_paragraph_text(p) for p in paragraphs)
    if len(text) > _MAX_CELL_TEXT:
        raise too_big(name, said("has a cell of {count} characters", count=f"{len(text):,}"))
    return text


def _paragraph_text(paragraph: Element) -> str:
    """A paragraph's text with its spaces, tabs and line breaks, spans and links flattened,
    comments left out; walked without recursion (a hostile file nests spans deep)."""
    out = [paragraph.text or ""]
    length = len(out[0])
    stack = [(paragraph, iter(paragraph))]
    while stack:
        parent, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:
                out.append(parent.tail or "")
            continue
        if child.tag == _SPACE:
            raw = child.get(_TEXT + "c", "1")
            piece = " " * (min(int(raw), _MAX_CELL_TEXT + 1) if raw.isdigit() else 1)
        elif child.tag == _TAB:
            piece = "\t"
        elif child.tag == _BREAK:
            piece = "\n"
        elif child.tag in _NOT_TEXT:
            piece = ""
        else:
            out.append(child.text or "")
            stack.append((child, iter(child)))
            continue
        out.extend((piece, child.tail or ""))
        length += len(piece)
        if length > _MAX_CELL_TEXT:
            break  # `_paragraphs` refuses the cell
    return "".join(out)


_FORMULA_PREFIX = re.compile(r"[A-Za-z][\w.-]{0,20}:(?==)")
_REFERENCE = re.compile(r"\[([^\[\]]{1,300})\]")


def _excel_formula(raw: str) -> str:
    """An ODF formula written as an ``.xlsx`` writes it, for messages: ``of:=SUM([.B9:.C9])``
    becomes ``=SUM(B9:C9)``, ``[$Lists.A1]`` ``Lists!A1``, and ``;`` between arguments ``,``
    (text in quotes is left alone)."""
    text = _FORMULA_PREFIX.sub("", raw, count=1)
    if not text.startswith("="):
        text = "=" + text
    pieces = text.split('"')
    for index in range(0, len(pieces), 2):  # outside quotes
        pieces[index] = _REFERENCE.sub(_reference, pieces[index]).replace(";", ",")
    return '"'.join(pieces)


def _reference(found: re.Match[str]) -> str:
    parts = []
    for part in found.group(1).split(":"):
        sheet, dot, cell = part.rpartition(".")
        sheet = sheet.lstrip("$")
        parts.append(f"{sheet}!{cell}" if dot and sheet else cell if dot else part)
    return ":".join(parts)


_LENGTH = re.compile(r"(\d{1,6}(?:\.\d{1,9})?)(in|cm|mm|pt|pc|px)")
_PER_INCH = {"in": 1.0, "cm": 2.54, "mm": 25.4, "pt": 72.0, "pc": 6.0, "px": 96.0}


def _characters(length: str) -> float | None:
    """A column width (``0.9445in``) in the characters an ``.xlsx`` measures widths in (about
    7 pixels each, plus 5 of padding, at 96 pixels an inch)."""
    found = _LENGTH.fullmatch(length.strip())
    if found is None:
        return None
    inches = float(found.group(1)) / _PER_INCH[found.group(2)]
    return round(max(0.0, (inches * 96 - 5) / 7), 2)


# -- the workbook ------------------------------------------------------------------------------


def build_workbook(sheets: list[OdsSheet], name: str, *, data_only: bool = False) -> Workbook:
    """An openpyxl workbook holding ``sheets`` as openpyxl loads the same sheet's ``.xlsx``."""
    from openpyxl import Workbook

    workbook = Workbook()
    workbook.remove(workbook.active)
    for sheet in sheets:
        ws = _new_sheet(workbook, sheet.name, name)
        if sheet.hidden:
            ws.sheet_state = "hidden"
        for (row, column), cell in sheet.cells.items():
            _put(ws, row + 1, column + 1, cell, data_only)
        for first_row, first_column, last_row, last_column in sheet.merges:
            ws.merge_cells(
                start_row=first_row + 1,
                start_column=first_column + 1,
                end_row=last_row + 1,
                end_column=last_column + 1,
            )
        for column, width in sheet.widths.items():
            ws.column_dimensions[_letter(column)].width = width
    visible = [i for i, s in enumerate(sheets) if not s.hidden]
    workbook.active = visible[0] if visible else 0
    return workbook


def _new_sheet(workbook: Workbook, title: str, name: str) -> Worksheet:
    """A worksheet named as in the ``.ods``; a name no spreadsheet program writes is refused
    (openpyxl would change it, and a renamed sheet is not the sheet the player filled in)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns of titles over 31 characters
            ws = workbook.create_sheet(title)
    except ValueError:
        raise _unreadable(name, f"a worksheet is named {title[:40]!r}") from None
    if ws.title != title:
        raise _unreadable(name, f"a worksheet is named {title[:40]!r}")
    return ws


def _put(ws: Worksheet, row: int, column: int, cell: OdsCell, data_only: bool) -> None:
    """Write one cell with the value and type openpyxl would have loaded from an ``.xlsx``."""
    target: Any = ws.cell(row=row, column=column)
    if cell.formula and not data_only:
        target.value = cell.formula
        return
    if cell.value is None:
        return
    if cell.error or isinstance(cell.value, str):
        # Set as loaded, not through openpyxl's setter, which would make text that starts
        # with "=" a formula and text such as "#REF!" an error value.
        target._value = str(cell.value)
        target.data_type = "e" if cell.error else "s"
        return
    target.value = cell.value


def _letter(column: int) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(column + 1))
