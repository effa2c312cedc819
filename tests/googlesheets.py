"""A turn sheet as Google Sheets gives it back: opened there and downloaded as ``.xlsx``.

Google Sheets imports the ``.xlsx`` into its own model and writes a new package on download,
so nothing of xlsxwriter's file survives but what the model keeps.  Without Google at hand in a
test, this module rewrites a sheet's package the way that export differs from the original,
and each difference that could matter to the reader is a choice, so the tests try both sides
of what we cannot rule out:

* the sheet names and their order are kept, values and formulas (with their last computed
  value) too, and merged ranges;
* cell protection is gone: no ``<protection>`` in the styles and no ``<sheetProtection>``, so
  every cell reads as locked (openpyxl's default): no reader may ask which cells are input;
* Google has no very hidden sheet: the meta sheet comes back ``hidden``, or visible when the
  player unhid it in Google (``meta_state``);
* text goes into the shared-strings part, or inline in the cells (``inline_strings``);
* whole numbers may come back written as ``5001.0`` (``decimal_numbers``: openpyxl then reads
  a float);
* every sheet is padded to 1,000 rows of empty styled cells (Google's default grid), with its
  own default row height and column width;
* no document properties, data validations, comments or print setup.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import openpyxl
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel

#: Rows every exported sheet has at least (Google Sheets' default grid).
GRID_ROWS = 1000

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"


@dataclass(frozen=True)
class Export:
    """The choices of one download (see the module's docstring)."""

    inline_strings: bool = False
    decimal_numbers: bool = False
    meta_state: str = "hidden"  # or "visible"


def as_google_download(source: Path, target: Path, export: Export = Export()) -> Path:
    """Write ``source`` (an ``.xlsx``) to ``target`` as Google Sheets' download of it."""
    formulas = openpyxl.load_workbook(source)
    values = openpyxl.load_workbook(source, data_only=True)
    strings: list[str] = []
    sheets = [_sheet_xml(ws, values[ws.title], export, strings) for ws in formulas.worksheets]
    states = [_state(ws.sheet_state, export) for ws in formulas.worksheets]
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", _content_types(len(sheets), bool(strings)))
        zf.writestr("_rels/.rels", _root_rels())
        zf.writestr("xl/workbook.xml", _workbook_xml(formulas.sheetnames, states))
        zf.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(len(sheets), bool(strings)))
        zf.writestr("xl/styles.xml", STYLES)
        if strings:
            zf.writestr("xl/sharedStrings.xml", _shared_strings(strings))
        for number, xml in enumerate(sheets, start=1):
            zf.writestr(f"xl/worksheets/sheet{number}.xml", xml)
    return target


def _state(state: str, export: Export) -> str:
    """Google keeps a hidden sheet hidden and has no very hidden one; the meta sheet's state
    is the export's choice."""
    if state == "visible":
        return "visible"
    return export.meta_state


def _sheet_xml(ws: Any, computed: Any, export: Export, strings: list[str]) -> str:
    width = max(ws.max_column, 1)
    rows = []
    for row in range(1, max(ws.max_row, GRID_ROWS) + 1):
        cells = "".join(
            _cell_xml(ws.cell(row, col), computed.cell(row, col), export, strings)
            for col in range(1, width + 1)
        )
        rows.append(f'<row r="{row}">{cells}</row>')
    columns = "".join(
        f'<col min="{c}" max="{c}" customWidth="1" width="{_width(ws, c)}"/>'
        for c in range(1, width + 1)
    )
    merges = [str(r) for r in ws.merged_cells.ranges]
    merged = (
        f'<mergeCells count="{len(merges)}">'
        + "".join(f'<mergeCell ref="{m}"/>' for m in merges)
        + "</mergeCells>"
        if merges
        else ""
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="{MAIN}" '
        f'xmlns:r="{RELS}"><sheetPr><outlinePr summaryBelow="0" summaryRight="0"/></sheetPr>'
        '<sheetViews><sheetView workbookViewId="0"/></sheetViews>'
        '<sheetFormatPr customHeight="1" defaultColWidth="14.43" defaultRowHeight="15.75"/>'
        f"<cols>{columns}</cols><sheetData>{''.join(rows)}</sheetData>{merged}</worksheet>"
    )


def _width(ws: Any, column: int) -> float:
    found = ws.column_dimensions[get_column_letter(column)].width
    return round(float(found or 14.43), 2)


def _cell_xml(cell: Any, computed: Any, export: Export, strings: list[str]) -> str:
    """One cell, styled like every cell of Google's grid; a formula keeps its last value."""
    ref = cell.coordinate
    value = cell.value
    if value is None or type(cell).__name__ == "MergedCell":
        return f'<c r="{ref}" s="1"/>'
    if cell.data_type == "f":
        formula = escape(str(value)[1:])
        result = computed.value
        if isinstance(result, str):
            return f'<c r="{ref}" s="1" t="str"><f>{formula}</f><v>{escape(result)}</v></c>'
        shown = "" if result is None else f"<v>{_number(result, export)}</v>"
        return f'<c r="{ref}" s="1"><f>{formula}</f>{shown}</c>'
    if cell.data_type == "e":
        return f'<c r="{ref}" s="1" t="e"><v>{escape(str(value))}</v></c>'
    if isinstance(value, bool):
        return f'<c r="{ref}" s="1" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, datetime | date | time):
        return f'<c r="{ref}" s="2"><v>{to_excel(value)}</v></c>'
    if isinstance(value, int | float):
        return f'<c r="{ref}" s="1"><v>{_number(value, export)}</v></c>'
    text = escape(str(value))
    if export.inline_strings:
        return f'<c r="{ref}" s="1" t="inlineStr"><is><t xml:space="preserve">{text}</t></is></c>'
    strings.append(str(value))
    return f'<c r="{ref}" s="1" t="s"><v>{len(strings) - 1}</v></c>'


def _number(value: Any, export: Export) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if export.decimal_numbers and float(value).is_integer():
        return f"{float(value):.1f}"
    return repr(value) if isinstance(value, float) else str(value)


def _workbook_xml(names: list[str], states: list[str]) -> str:
    sheets = "".join(
        f'<sheet name="{escape(name, {chr(34): "&quot;"})}" sheetId="{n}" r:id="rId{n + 2}"'
        + ("" if state == "visible" else f' state="{state}"')
        + "/>"
        for n, (name, state) in enumerate(zip(names, states, strict=True), start=1)
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="{MAIN}" '
        f'xmlns:r="{RELS}"><workbookPr/><sheets>{sheets}</sheets><definedNames/><calcPr/>'
        "</workbook>"
    )


def _workbook_rels(count: int, shared: bool) -> str:
    ns = RELS
    links = [f'<Relationship Id="rId1" Type="{ns}/styles" Target="styles.xml"/>']
    if shared:
        links.append(
            f'<Relationship Id="rId2" Type="{ns}/sharedStrings" Target="sharedStrings.xml"/>'
        )
    links += [
        f'<Relationship Id="rId{n + 2}" Type="{ns}/worksheet" Target="worksheets/sheet{n}.xml"/>'
        for n in range(1, count + 1)
    ]
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<Relationships xmlns="{PACKAGE_RELS}">{"".join(links)}</Relationships>'
    )


def _root_rels() -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<Relationships xmlns="{PACKAGE_RELS}"><Relationship Id="rId1" '
        f'Type="{RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    )


def _content_types(count: int, shared: bool) -> str:
    base = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    overrides = [
        f'<Override PartName="/xl/workbook.xml" ContentType="{base}.sheet.main+xml"/>',
        f'<Override PartName="/xl/styles.xml" ContentType="{base}.styles+xml"/>',
    ]
    if shared:
        overrides.append(
            f'<Override PartName="/xl/sharedStrings.xml" ContentType="{base}.sharedStrings+xml"/>'
        )
    overrides += [
        f'<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="{SHEET_TYPE}"/>'
        for n in range(1, count + 1)
    ]
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="{TYPES}">'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/>' + "".join(overrides) + "</Types>"
    )


def _shared_strings(strings: list[str]) -> str:
    items = "".join(f'<si><t xml:space="preserve">{escape(s)}</t></si>' for s in strings)
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="{MAIN}" '
        f'count="{len(strings)}" uniqueCount="{len(strings)}">{items}</sst>'
    )


#: Google's styles part, as far as a reader cares: fonts, fills, borders and three formats (a
#: default, the grid's cell style, a date), none of them with protection.
STYLES = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="{MAIN}">'
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
    '<fonts count="1"><font><sz val="10.0"/><color rgb="FF000000"/><name val="Arial"/>'
    '<scheme val="minor"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="lightGray"/></fill></fills>'
    '<borders count="1"><border/></borders>'
    '<cellStyleXfs count="1"><xf borderId="0" fillId="0" fontId="0" numFmtId="0" '
    'applyAlignment="1" applyFont="1"/></cellStyleXfs>'
    '<cellXfs count="3"><xf borderId="0" fillId="0" fontId="0" numFmtId="0" xfId="0" '
    'applyAlignment="1" applyFont="1"><alignment readingOrder="0" shrinkToFit="0" '
    'vertical="bottom" wrapText="0"/></xf><xf borderId="0" fillId="0" fontId="0" numFmtId="0" '
    'xfId="0" applyAlignment="1" applyFont="1"><alignment readingOrder="0" vertical="bottom"/>'
    '</xf><xf borderId="0" fillId="0" fontId="0" numFmtId="164" xfId="0" applyNumberFormat="1"/>'
    '</cellXfs><cellStyles count="1"><cellStyle xfId="0" name="Normal" builtinId="0"/>'
    '</cellStyles><dxfs count="0"/></styleSheet>'
)
