"""The master workbook: the whole game state as one sheet per table, checked on load.

The referee keeps this file, reads it in Excel and may edit it by hand.  Writing goes through
xlsxwriter (fast, and with ``strings_to_formulas``/``strings_to_urls`` off, so a player's text
such as ``=HYPERLINK(...)`` stays text) into a temporary file renamed over the old one.  Reading
goes through python-calamine (values only, ten times faster than openpyxl on large sheets) and
checks every cell against the ruleset's schema; any problem is reported with its sheet and cell
and nothing is loaded, so a broken hand edit can never reach a turn.

Columns are found by their header text, not their position, so a referee may reorder or add
columns of notes; unknown columns are ignored.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from python_calamine import CalamineWorkbook

from ..atomic import write_bytes
from ..errors import CellProblem, MasterWorkbookError
from ..geometry.hexmap import parse_hex
from ..rulesets.base import Column, Row, Ruleset, Table
from .bulkrows import SheetRows, splice, string_cell
from .printing import set_print_layout

#: Options that keep every string a string (no formulas, no hyperlinks, no number guessing).
SAFE_XLSXWRITER_OPTIONS = {
    "strings_to_formulas": False,
    "strings_to_urls": False,
    "strings_to_numbers": False,
}

ABOUT_SHEET = "About"
MAX_WIDTH = 60


def column_letter(index: int) -> str:
    """Spreadsheet column letters for a 0-based index (0 -> A, 26 -> AA)."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def cell_ref(row0: int, col0: int) -> str:
    """``B5`` from 0-based row and column."""
    return f"{column_letter(col0)}{row0 + 1}"


# -- writing ---------------------------------------------------------------------------------


def _display(value: Any, column: Column) -> Any:
    if column.kind == "json":
        return (
            json.dumps(value, sort_keys=True, ensure_ascii=False) if value not in ("", None) else ""
        )
    return value


def write_master(path: Path, ruleset: Ruleset, state: Any, title: str = "") -> None:
    """Write ``state`` as the master workbook at ``path``, atomically."""
    write_bytes(Path(path), master_bytes(ruleset, ruleset.to_tables(state), title))


def master_bytes(
    ruleset: Ruleset, tables: Mapping[str, Sequence[Mapping[str, Any]]], title: str = ""
) -> bytes:
    """The master workbook of ``tables`` as the bytes of an ``.xlsx`` file.

    xlsxwriter writes the About sheet and each table's header, comments, column formats and
    widths, frozen header and filter; the data rows are spliced in as XML (`bulkrows`), which
    is ten times faster than xlsxwriter's cell-by-cell path on a big game.
    """
    # Imported here: most commands only read the master (calamine), and xlsxwriter's import
    # is a tenth of a second of a `refassist report`.
    import xlsxwriter

    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {**SAFE_XLSXWRITER_OPTIONS, "in_memory": True})
    pending: dict[str, tuple[str, str]] = {}
    try:
        game = title or ruleset.title
        _write_about(workbook, ruleset, game)
        header_fmt = workbook.add_format(
            {"bold": True, "bg_color": "#DDE4EE", "border": 1, "text_wrap": True}
        )
        text_fmt = workbook.add_format({"num_format": "@"})
        for number, table in enumerate(ruleset.schema(), start=2):
            rows = tables.get(table.name, [])
            pending[f"xl/worksheets/sheet{number}.xml"] = _write_table(
                workbook, table, rows, header_fmt, text_fmt, game
            )
    finally:
        workbook.close()
    style = int(text_fmt.xf_index or 0)
    sheets = {
        name: SheetRows(rows_xml, dimension, style)
        for name, (rows_xml, dimension) in pending.items()
    }
    # Deflate level 1: a quarter larger than the default 6, at a third of the time (the master
    # is written every turn; see docs/benchmarks.md).
    return splice(buffer.getvalue(), sheets, compresslevel=1)


ABOUT_HEADING = "refassist master workbook"
#: The About sheet's explanation column: wide enough to read, narrow enough to print.
ABOUT_TEXT_WIDTH = 80


def _write_about(workbook: Any, ruleset: Ruleset, title: str) -> None:
    sheet = workbook.add_worksheet(ABOUT_SHEET)
    bold = workbook.add_format({"bold": True, "valign": "top"})
    top = workbook.add_format({"valign": "top"})
    wrap = workbook.add_format({"text_wrap": True, "valign": "top"})
    # Column A holds the heading, the table titles and the column headers: as wide as the
    # longest of them (bold text needs a little more), so none is cut off on screen or paper.
    labels = [ABOUT_HEADING]
    for table in ruleset.schema():
        labels += [table.title, *("  " + col.header for col in table.columns)]
    first = min(MAX_WIDTH, max(len(text) for text in labels) * 1.1 + 2)
    sheet.set_column(0, 0, first)
    sheet.set_column(1, 1, ABOUT_TEXT_WIDTH)

    def explain(row: int, text: str) -> None:
        # Rows are as tall as their wrapped text needs: neither Excel nor LibreOffice grows a
        # row written without a height reliably, and a cut explanation misleads.
        sheet.write_string(row, 1, text, wrap)
        lines = -(-len(text) // int(ABOUT_TEXT_WIDTH * 0.95))
        if lines > 1:
            sheet.set_row(row, 15 * lines)

    sheet.write_string(0, 0, ABOUT_HEADING, bold)
    explain(0, title)
    explain(
        1,
        "This workbook is the game's source of truth. You may edit any sheet by hand; "
        "refassist checks every cell when it loads the file and names the cell of any problem. "
        "Keep the header rows; columns are found by their header text.",
    )
    row = 3
    for table in ruleset.schema():
        sheet.write_string(row, 0, table.title, bold)
        explain(row, table.help)
        row += 1
        for col in table.columns:
            need = "required" if col.required else "optional"
            detail = (
                f"{col.help} ({_kind_text(col)}, {need})"
                if col.help
                else f"{_kind_text(col)}, {need}"
            )
            sheet.write_string(row, 0, "  " + col.header, top)
            explain(row, detail)
            row += 1
        row += 1
    set_print_layout(sheet, title, [first, ABOUT_TEXT_WIDTH], header_rows=0, last_row=row)


def _kind_text(col: Column) -> str:
    if col.choices:
        return "one of " + ", ".join(col.choices)
    if col.kind == "int":
        lo = "" if col.minimum is None else f" >= {col.minimum}"
        hi = "" if col.maximum is None else f" <= {col.maximum}"
        return "whole number" + (lo + ("," if lo and hi else "") + hi if (lo or hi) else "")
    return {
        "str": "text",
        "text": "free text",
        "bool": "yes or no",
        "hex": "hex id XXYY",
        "json": "JSON",
    }.get(col.kind, col.kind)


def _write_table(
    workbook: Any,
    table: Table,
    rows: Sequence[Mapping[str, Any]],
    header_fmt: Any,
    text_fmt: Any,
    game: str,
) -> tuple[str, str]:
    """Write the table's sheet without its data rows; return the rows as worksheet XML and the
    sheet's cell range (`master_bytes` splices them in)."""
    sheet = workbook.add_worksheet(table.title)
    columns = table.columns
    letters = [column_letter(c) for c in range(len(columns))]
    widths = [len(col.header) + 2 for col in columns]
    for c, col in enumerate(columns):
        sheet.write_string(0, c, col.header, header_fmt)
        if col.help:
            sheet.write_comment(0, c, col.help, {"x_scale": 2, "y_scale": 1.2})
    spec = [(col.name, letters[c], col.kind, col) for c, col in enumerate(columns)]
    cacheable = all(col.kind != "json" for col in columns)
    earlier = _ROW_CACHE.get(table.name, {}) if cacheable else {}
    kept: dict[tuple[Any, ...], tuple[str, tuple[int, ...]]] = {}
    cells: dict[tuple[str, Any], tuple[str, int]] = {}
    out: list[str] = []
    for r, values in enumerate(rows, start=2):
        if cacheable:
            key = tuple(values.items())
            found = kept.get(key) or earlier.get(key)
            if found is None:
                found = _row_cells(spec, values, cells)
            kept[key] = found
        else:
            found = _row_cells(spec, values, cells)
            _widen(widths, found[1])
        out.append(f'<row r="{r}">{found[0].replace(ROW_MARK, str(r))}</row>')
    if cacheable:
        _ROW_CACHE[table.name] = kept
        for _, lengths in kept.values():  # the widths depend only on the distinct rows
            _widen(widths, lengths)
    final = [col.width or widths[c] for c, col in enumerate(columns)]
    for c, col in enumerate(columns):
        sheet.set_column(c, c, final[c], text_fmt if col.kind == "hex" else None)
    sheet.freeze_panes(1, 0)
    set_print_layout(sheet, game, final, last_row=len(rows))
    if rows:
        sheet.autofilter(0, 0, len(rows), len(columns) - 1)
    return "".join(out), f"A1:{letters[-1]}{len(rows) + 1}"


#: Stands for the row number in a row's cells, so that a row can be reused at another place.
ROW_MARK = "\x01"

#: The cells of the rows written last time, per table: most rows of a master (systems, the
#: last-seen table, fleets) come back unchanged next turn, and building a row's cells is
#: most of the cost of writing it.  Only the last write's rows are kept.
_ROW_CACHE: dict[str, dict[tuple[Any, ...], tuple[str, tuple[int, ...]]]] = {}


def _widen(widths: list[int], lengths: tuple[int, ...]) -> None:
    for c, text_len in enumerate(lengths):
        if text_len + 2 > widths[c]:
            widths[c] = max(widths[c], min(MAX_WIDTH, text_len + 2))


def _row_cells(
    spec: Sequence[tuple[str, str, str, Column]],
    values: Mapping[str, Any],
    known: dict[tuple[str, Any], tuple[str, int]],
) -> tuple[str, tuple[int, ...]]:
    """One row's cells as XML (`ROW_MARK` for the row number) and each cell's text length
    (for the column widths; 0 for an empty cell).  ``known`` remembers each cell made in this
    table by column and value: names, classes, years and yes/no come back row after row."""
    cells: list[str] = []
    lengths: list[int] = []
    for name, letter, kind, col in spec:
        value = values.get(name, "")
        if kind == "json":
            value = _display(value, col)
        if value is None or value == "":
            lengths.append(0)
            continue
        key = (letter, value) if kind != "bool" else (letter, bool(value))
        made = known.get(key) if type(value) is not float else None
        if made is None:
            made = _cell(f"{letter}{ROW_MARK}", kind, value)
            if type(value) is not float:
                known[key] = made
        cells.append(made[0])
        lengths.append(made[1])
    return "".join(cells), tuple(lengths)


def _cell(ref: str, kind: str, value: Any) -> tuple[str, int]:
    """A cell's XML and its text length, as xlsxwriter's ``write_number``/``write_string``
    would write the value of a column of this kind."""
    if kind == "int":
        return f'<c r="{ref}"><v>{int(value):.16G}</v></c>', len(str(value))
    if kind == "bool":
        return string_cell(ref, "yes" if value else "no"), 3
    text = str(value)
    return string_cell(ref, text, styled=kind == "hex"), len(text)


# -- reading ---------------------------------------------------------------------------------


def _norm_header(text: Any) -> str:
    return " ".join(str(text).split()).lower()


def _convert(value: Any, col: Column) -> tuple[Any, str | None]:
    """Convert a cell value to the column's kind; return (value, problem or None)."""
    empty = value is None or (isinstance(value, str) and value.strip() == "")
    if empty:
        if col.required and col.kind not in ("bool", "text"):
            return None, "is empty but required"
        return {"int": 0, "bool": False, "json": {}}.get(col.kind, ""), None
    if col.kind == "int":
        if isinstance(value, bool):
            return None, "is not a whole number"
        if isinstance(value, float):
            if not value.is_integer():
                return None, "is not a whole number"
            value = int(value)
        elif isinstance(value, str):
            text = value.strip()
            if not (text.lstrip("-").isdigit()):
                return None, "is not a whole number"
            value = int(text)
        elif not isinstance(value, int):
            return None, "is not a whole number"
        if col.minimum is not None and value < col.minimum:
            return None, f"is below the minimum of {col.minimum}"
        if col.maximum is not None and value > col.maximum:
            return None, f"is above the maximum of {col.maximum}"
        return value, None
    if col.kind == "bool":
        if isinstance(value, bool):
            return value, None
        if isinstance(value, int | float):
            if value in (0, 1):
                return bool(value), None
            return None, "is not yes or no"
        text = str(value).strip().lower()
        if text in ("yes", "y", "true", "x", "1"):
            return True, None
        if text in ("no", "n", "false", "0", "-"):
            return False, None
        return None, "is not yes or no"
    if col.kind == "hex":
        try:
            return parse_hex(value), None
        except ValueError:
            return None, "is not a hex id (four digits XXYY)"
    if col.kind == "json":
        try:
            return json.loads(str(value)), None
        except ValueError:
            return None, "is not valid JSON"
    # str / text
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip() if col.kind == "str" else str(value)
    if col.choices is not None:
        for choice in col.choices:
            if text.lower() == choice.lower():
                return choice, None
        return None, "is not one of " + ", ".join(col.choices)
    return text, None


def _expected(col: Column) -> str:
    return f"expected {_kind_text(col)}"


def read_tables(
    path: Path, tables: Sequence[Table], data: bytes | None = None
) -> tuple[dict[str, list[Row]], list[CellProblem]]:
    """Read and type-check every table of a master workbook (``data``: its bytes, read
    already by the caller, who keeps what they hold).

    Returns the rows of each table (with cell references) and the problems found; a sheet or
    column that is missing is a problem, not an exception.
    """
    path = Path(path)
    try:
        if data is None:
            workbook = CalamineWorkbook.from_path(str(path))
        else:
            workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
    except Exception as exc:  # calamine raises its own error types for damaged files
        raise MasterWorkbookError(f"cannot read the master workbook {path}: {exc}") from exc
    names = {name.strip().lower(): name for name in workbook.sheet_names}
    problems: list[CellProblem] = []
    result: dict[str, list[Row]] = {}
    for table in tables:
        sheet_name = names.get(table.title.lower())
        if sheet_name is None and table.since:
            # A sheet added to the game after masters were written: an older master has
            # none, and reads as an empty one.
            result[table.name] = []
            continue
        if sheet_name is None:
            problems.append(
                CellProblem(
                    table.title, "", "", "sheet is missing", f"add a sheet named {table.title!r}"
                )
            )
            result[table.name] = []
            continue
        cells = workbook.get_sheet_by_name(sheet_name).to_python(skip_empty_area=False)
        result[table.name] = _read_rows(table, cells, problems)
    return result, problems


def _read_rows(table: Table, data: list[list[Any]], problems: list[CellProblem]) -> list[Row]:
    if not data:
        problems.append(
            CellProblem(table.title, "A1", "", "the header row is missing", "restore it")
        )
        return []
    header = [_norm_header(h) for h in data[0]]
    positions: dict[str, int] = {}
    for col in table.columns:
        found = [
            header.index(h) for h in map(_norm_header, (col.header, *col.formerly)) if h in header
        ]
        if found:
            positions[col.name] = found[0]
        elif col.added_later and not col.required:
            positions[col.name] = -1  # a workbook older than the column: read as empty
        else:
            problems.append(
                CellProblem(
                    table.title,
                    "1:1",
                    "",
                    f"column {col.header!r} is missing from the header row",
                    "restore the header",
                )
            )
    if len(positions) < len(table.columns):
        return []
    rows: list[Row] = []
    # Each column's letters once a table, not once a cell (a master has tens of thousands).
    letters = {col.name: column_letter(max(positions[col.name], 0)) for col in table.columns}
    for r, raw in enumerate(data[1:], start=1):
        if all(v is None or (isinstance(v, str) and not v.strip()) for v in raw):
            continue
        values: dict[str, Any] = {}
        refs: dict[str, str] = {}
        ok = True
        number = str(r + 1)
        for col in table.columns:
            c = positions[col.name]
            raw_value = raw[c] if 0 <= c < len(raw) else None
            ref = letters[col.name] + number
            refs[col.name] = ref
            value, problem = _convert(raw_value, col)
            if problem:
                ok = False
                problems.append(
                    CellProblem(
                        table.title,
                        ref,
                        "" if raw_value is None else str(raw_value),
                        f"{col.header} {problem}",
                        _expected(col),
                    )
                )
            values[col.name] = value
        if ok:
            rows.append(Row(table=table.name, number=r + 1, values=values, refs=refs))
    _check_keys(table, rows, problems)
    return rows


def _check_keys(table: Table, rows: list[Row], problems: list[CellProblem]) -> None:
    if not table.key:
        return
    seen: dict[tuple[Any, ...], Row] = {}
    for row in rows:
        key = tuple(row.values[k] for k in table.key)
        if key in seen:
            first = seen[key]
            key_names = ", ".join(table.column(k).header for k in table.key)
            problems.append(
                CellProblem(
                    table.title,
                    row.ref(table.key[0]),
                    " / ".join(map(str, key)),
                    f"duplicates row {first.number} ({key_names} must be unique)",
                    "merge the two rows or delete one",
                )
            )
        else:
            seen[key] = row


def check_references(
    schema: Sequence[Table], rows: Mapping[str, Sequence[Row]], problems: list[CellProblem]
) -> None:
    """Every value of a column that `Column.refers` to another table is one of that table's
    values (an empty cell of a column that is not required aside)."""
    for table in schema:
        for col in table.columns:
            ref = col.refers
            if ref is None:
                continue
            fold = str.upper if ref.ignore_case else str
            allowed = {str(r.get(ref.column, "")) for r in rows.get(ref.table, [])}
            allowed |= set(ref.also)
            choices = ", ".join(sorted(allowed - {""}))
            folded = {fold(a) for a in allowed}
            for row in rows.get(table.name, []):
                value = row.get(col.name)
                if (value in ("", None) and not col.required) or fold(str(value)) in folded:
                    continue
                problems.append(
                    CellProblem(
                        table.title,
                        row.ref(col.name),
                        "" if value is None else str(value),
                        ref.message,
                        ref.fix.format(choices=choices),
                    )
                )


def read_master(path: Path, ruleset: Ruleset, data: bytes | None = None) -> Any:
    """Load and check the master workbook (``data``: its bytes, when the caller has read
    them); `MasterWorkbookError` lists every problem.

    The engine checks the types, the keys and the declared references between tables; the
    ruleset then builds its state, adding the problems only it can see (a hex off its map)."""
    schema = ruleset.schema()
    rows, problems = read_tables(path, schema, data)
    state = None
    if not problems:
        check_references(schema, rows, problems)
        state = ruleset.from_tables(rows, problems)
    if problems:
        count = len(problems)
        raise MasterWorkbookError(
            f"the master workbook {Path(path).name} has {count} problem{'s' if count > 1 else ''}; "
            "nothing was changed",
            problems,
        )
    return state
