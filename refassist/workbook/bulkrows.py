"""Table rows written straight into the worksheet XML of a workbook xlsxwriter made.

xlsxwriter spends about 5 microseconds on every cell: a chain of Python calls that checks the
cell, files it in a table, and later turns the table into XML.  The master workbook of a
64-player game holds 50,000-100,000 cells and is written every turn, which made writing it the
slowest part of resolving a turn.  So the master is written in two parts:

* xlsxwriter writes everything with a shape: the About sheet, each table's header row with its
  comments and formats, column widths and formats, frozen panes and the filter range;
* this module writes the data rows, as XML text built in one pass, and splices them into each
  worksheet of the package xlsxwriter produced (and corrects its ``<dimension>``).

Cells are what xlsxwriter would write for ``write_string``/``write_number``: strings escaped the
same way (``&<>``, control characters as ``_xHHHH_`` and a literal ``_xHHHH_`` protected as
``_x005F_xHHHH_``, ``xml:space="preserve"`` for leading or trailing white space, cut at
Excel's 32,767 characters), but stored as inline strings (``t="inlineStr"``) rather than in the
shared string table, which spreadsheet programs and python-calamine read the same way.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass

#: Excel's longest cell text, in UTF-16 code units.
MAX_TEXT = 32767

#: Placeholder for a cell's style index, replaced once xlsxwriter has numbered its formats.
STYLE_MARK = "\x00"

_ESCAPED_ESCAPE = re.compile("(_x[0-9a-fA-F]{4}_)")
_CONTROL = re.compile(r"([\x00-\x08\x0b-\x1f])")
_DIMENSION = re.compile(r"<dimension ref=\"[^\"]*\"/>")
_XML_SPECIAL = re.compile("[&<>_\x00-\x08\x0b-\x1f]")


def _utf16_len(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _truncate(text: str) -> str:
    """``text`` cut to Excel's limit, as xlsxwriter cuts it (never inside a surrogate pair)."""
    if len(text) <= MAX_TEXT // 2 or _utf16_len(text) <= MAX_TEXT:
        return text
    units = 0
    for i, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > MAX_TEXT:
            return text[:i]
    return text


def escape_text(text: str) -> str:
    """Cell text as XML character data, the way xlsxwriter escapes a shared string."""
    text = _truncate(text)
    if not _XML_SPECIAL.search(text):
        return text
    text = _ESCAPED_ESCAPE.sub(r"_x005F\1", text)
    text = _CONTROL.sub(lambda m: f"_x{ord(m.group(1)):04X}_", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def string_cell(ref: str, text: str, styled: bool = False) -> str:
    """An inline string cell.  A ``styled`` cell (a hex id, kept as text) is marked with
    `STYLE_MARK`, which `splice` replaces by the text format's index once xlsxwriter has
    numbered its formats."""
    style = f' s="{STYLE_MARK}"' if styled else ""
    body = escape_text(text)
    space = ' xml:space="preserve"' if body[:1].isspace() or body[-1:].isspace() else ""
    return f'<c r="{ref}"{style} t="inlineStr"><is><t{space}>{body}</t></is></c>'


def number_cell(ref: str, value: int) -> str:
    return f'<c r="{ref}"><v>{value}</v></c>'


@dataclass
class SheetRows:
    """Rows to add to one worksheet: their XML, the style index for `STYLE_MARK`, and the
    sheet's new ``<dimension>`` range."""

    rows_xml: str
    dimension: str
    style: int = 0


def splice(package: bytes, sheets: Mapping[str, SheetRows], compresslevel: int = 6) -> bytes:
    """``package`` (an xlsx file as bytes) with each named worksheet's rows appended after its
    existing ones (the header row) and its dimension corrected."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(package)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=compresslevel) as target,
    ):
        for info in source.infolist():
            data = source.read(info)
            rows = sheets.get(info.filename)
            if rows is not None and rows.rows_xml:
                text = data.decode("utf-8")
                head, end, tail = text.partition("</sheetData>")
                if not end:
                    raise ValueError(f"{info.filename} has no </sheetData> to add rows to")
                body = rows.rows_xml.replace(STYLE_MARK, str(rows.style))
                text = _DIMENSION.sub(f'<dimension ref="{rows.dimension}"/>', head, count=1)
                data = (text + body + end + tail).encode("utf-8")
            entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = info.external_attr
            target.writestr(entry, data, compresslevel=compresslevel)
    return out.getvalue()
