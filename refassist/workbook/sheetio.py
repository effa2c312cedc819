"""Opening a file a player sent, safely, for every ruleset.

A turn sheet arrives from outside: renamed, re-saved by another program, damaged in transit, or
built to hurt.  Before any spreadsheet library sees it this module

* reads the real format from the bytes, not the name, and refuses anything but an ``.xlsx``
  workbook or an OpenDocument spreadsheet (``.ods``, LibreOffice's own format) with one
  sentence saying what the file is and what to do (an ``.xls`` from old Excel, a CSV, a PDF
  print, an empty attachment, a password-protected workbook);
* checks the zip container's declared sizes (Python's ``zipfile`` never inflates a member
  beyond its declared size, so the declaration is a real bound) and refuses zip bombs, absurd
  compression ratios, files with thousands of members and two members of the same name (one
  program would read one, another the other);
* counts, before openpyxl builds an object per cell, the worksheets, and each worksheet's rows
  and cells and the last row it uses: a million cells cost seconds and hundreds of MB;
* refuses macro-enabled workbooks whatever their extension (openpyxl would open one renamed
  ``.xlsx`` without a word), Excel 4.0 macro sheets, embedded OLE objects and ActiveX
  controls, an ``.ods`` carrying LibreOffice Basic, scripts or macros bound to events, and XML
  with a document type declaration (entity expansion attacks; defusedxml would also raise,
  this makes the refusal explicit and early);
* then loads an ``.xlsx`` with openpyxl, or reads an ``.ods`` into the same openpyxl workbook
  (`odsread`, which holds its rows and cells to the same limits while it reads them), and
  turns any failure into the same kind of refusal.

Everything refused raises `NotATurnSheet` (exit code 2).  Reading input cells goes through
`TurnSheetFile.input_value`, which deals with formulas and error values: a formula typed into
an input cell is read as its last computed value when that value is plain text or a number,
with a warning naming the cell (the player sees one thing, the referee must read the same
thing); a formula without a computed value, or an error value such as ``#REF!``, is an error on
that cell; an ``.ods`` gets the same answers.  The limits are the constants of `limits`;
``docs/security.md`` lists every threat and the test that shows its defence.
"""

from __future__ import annotations

import contextlib
import io
import re
import struct
import threading
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import CellProblem, NotATurnSheet
from ..text.i18n import Said, said
from .limits import (
    MAX_FILE_BYTES,
    MAX_INPUT_TEXT,
    MAX_MEMBER_BYTES,
    MAX_MEMBERS,
    MAX_RATIO,
    MAX_ROW_INDEX,
    MAX_SHEET_CELLS,
    MAX_SHEET_ROWS,
    MAX_SHEETS,
    MAX_TOTAL_BYTES,
    MAX_XML_PART_BYTES,
    RATIO_FLOOR,
    far_row,
    too_big,
)

# openpyxl (and the numpy it brings, a third of a second) is imported by the first workbook
# opened: a command that names sheets but opens none (a report, a resolve taking the intake's
# reads) never loads it.
if TYPE_CHECKING:
    from openpyxl.workbook.workbook import Workbook
    from openpyxl.worksheet.merge import MergedCellRange
    from openpyxl.worksheet.worksheet import Worksheet

#: Name of the hidden sheet that carries a turn sheet's identity.
META_SHEET = "_meta"
#: Value of ``format`` in the meta sheet of every refassist turn sheet.
META_FORMAT = "refassist-turn-sheet"

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: What a turn sheet may be: the kinds of `sniff` that are opened, the rest is refused.
TURN_SHEET_KINDS = frozenset({"xlsx", "ods"})


@dataclass(frozen=True)
class Sniffed:
    """What a file really is: a short kind (``xlsx``, ``ods``, ...) and a phrase for messages."""

    kind: str
    description: str


#: What Python's zipfile raises on damaged or hostile containers.  BadZipFile is only the
#: first: a crafted header also gives struct.error or OverflowError, a damaged stream
#: zlib.error or EOFError, an encrypted member RuntimeError, an unsupported compression
#: method or zip version NotImplementedError, a missing member KeyError and a bad size
#: ValueError.  The helpers that peek into a player's zip catch these and refuse the file.
_ZIP_ERRORS = (
    zipfile.BadZipFile,
    struct.error,
    OverflowError,
    zlib.error,
    EOFError,
    RuntimeError,
    NotImplementedError,
    KeyError,
    ValueError,
)


def _zip_names(data: bytes) -> list[str] | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return zf.namelist()
    except _ZIP_ERRORS:
        return None


def _zip_member(data: bytes, name: str, limit: int = 4096) -> bytes:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf, zf.open(name) as fh:
            return fh.read(limit)
    except _ZIP_ERRORS:
        return b""


def _looks_like_text(data: bytes) -> bool:
    sample = data[:4096]
    if b"\x00" in sample:
        return sample.startswith((b"\xff\xfe", b"\xfe\xff"))
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError:
        text = sample.decode("latin-1")
    printable = sum(1 for ch in text if ch.isprintable() or ch in "\r\n\t")
    return printable >= 0.95 * max(1, len(text))


def sniff(data: bytes) -> Sniffed:
    """The real format of a file from its first bytes (and, for zips, its member names)."""
    if not data:
        return Sniffed("empty", "an empty file")
    if data.startswith(_OLE2):
        if "EncryptionInfo".encode("utf-16-le") in data[: 1 << 20] or b"EncryptionInfo" in data:
            return Sniffed("encrypted", "a password-protected workbook")
        return Sniffed("xls", "an old-style Excel 97-2003 workbook (.xls)")
    if data.startswith(b"%PDF"):
        return Sniffed("pdf", "a PDF document")
    if data.startswith(b"PK"):
        names = _zip_names(data)
        if names is None:
            return Sniffed("damaged", "a damaged or truncated zip file")
        lowered = {n.lower() for n in names}
        if "mimetype" in lowered:
            mimetype = _zip_member(data, "mimetype", 200)
            if b"opendocument.spreadsheet" in mimetype:
                return Sniffed("ods", "an OpenDocument spreadsheet (.ods)")
            return Sniffed("odf", "an OpenDocument file that is not a spreadsheet")
        if "xl/workbook.bin" in lowered:
            return Sniffed("xlsb", "an Excel binary workbook (.xlsb)")
        if "xl/workbook.xml" in lowered and "[content_types].xml" in lowered:
            types = _zip_member(data, "[Content_Types].xml", 1 << 16).lower()
            if "xl/vbaproject.bin" in lowered or b"macroenabled" in types:
                return Sniffed("xlsm", "a macro-enabled workbook")
            return Sniffed("xlsx", "an Excel workbook (.xlsx)")
        if "word/document.xml" in lowered:
            return Sniffed("docx", "a Word document")
        return Sniffed("zip", "a zip archive that is not a workbook")
    stripped = data.lstrip()[:64].lower()
    if stripped.startswith((b"<!doctype html", b"<html", b"<?xml", b"<")):
        return Sniffed("markup", "a web page or XML file")
    if data.startswith((b"{\\rtf",)):
        return Sniffed("rtf", "a rich text document")
    if _looks_like_text(data):
        return Sniffed("text", "a text or CSV file")
    return Sniffed("unknown", "not a spreadsheet (its content matches no known format)")


def _refusal(name: str, sniffed: Sniffed) -> NotATurnSheet:
    """The refusal of a file that is not a turn sheet refassist opens, said (`said`) so that
    the intake's reply gives it in the player's language."""
    if sniffed.kind == "xlsm":
        return NotATurnSheet(
            said(
                "{name} is a macro-enabled workbook, which refassist never opens; save it as a "
                "plain Excel workbook (.xlsx, without macros) and send it again",
                name=name,
            )
        )
    if sniffed.kind == "ods-macro":
        return NotATurnSheet(
            said(
                "{name} carries macros or scripts (LibreOffice Basic, or a macro bound to an "
                "event), which refassist never opens; save a copy without them (the turn sheet "
                "alone, as .ods or .xlsx) and send it again",
                name=name,
            )
        )
    if sniffed.kind == "embedded":
        return NotATurnSheet(
            said(
                "{name} carries embedded objects or controls (OLE objects, ActiveX), which "
                "refassist never opens; save a copy without them (a plain .xlsx or .ods of the "
                "turn sheet) and send it again",
                name=name,
            )
        )
    if sniffed.kind == "encrypted":
        return NotATurnSheet(
            said(
                "{name} is protected with a password, so it cannot be read; remove the password "
                "(save without one) and send it again",
                name=name,
            )
        )
    if sniffed.kind == "empty":
        return NotATurnSheet(
            said(
                "{name} is empty (0 bytes); attach the turn sheet itself and send it again",
                name=name,
            )
        )
    if sniffed.kind == "damaged":
        return NotATurnSheet(
            said(
                "{name} is damaged or incomplete (its zip container cannot be read); save the "
                "sheet again as .xlsx or .ods and send it again",
                name=name,
            )
        )
    return NotATurnSheet(
        said(
            "{name} is {what}, not an .xlsx or .ods turn sheet; open it in your spreadsheet "
            "program, save it as an Excel workbook (.xlsx) or an OpenDocument spreadsheet "
            "(.ods) and send it again",
            name=name,
            what=sniffed.description,
        )
    )


#: Parts that hold code or embedded programs; refassist never opens a workbook carrying them.
_MACRO_PARTS = ("vbaproject", "xl/macrosheets/", "xl/dialogsheets/", "vbadata")
_EMBEDDED_PARTS = ("xl/embeddings/", "xl/activex/")
_MACRO_TYPES = (b"macroenabled", b"vbaproject", b"macrosheet", b"ms-excel.intlmacrosheet")
_EMBEDDED_TYPES = (b"activex", b"oleobject")
_DTD_MARKERS = (
    b"<!DOCTYPE",
    b"<!ENTITY",
    "<!DOCTYPE".encode("utf-16-le"),
    "<!DOCTYPE".encode("utf-16-be"),
    "<!ENTITY".encode("utf-16-le"),
    "<!ENTITY".encode("utf-16-be"),
)
_ROW_RE = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?row\b([^>]*)>")
_CELL_RE = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c\b([^>]*)>")
_ROW_INDEX_RE = re.compile(rb"\br=\"(\d{1,12})\"")
_CELL_ROW_RE = re.compile(rb"\br=\"\$?[A-Za-z]{1,3}\$?(\d{1,12})\"")
_SHEET_ENTRY_RE = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?sheet\b")
_MERGE_RE = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?mergeCell\b([^>]*)>")
_RANGE_RE = re.compile(
    rb"\bref=\"\$?([A-Za-z]{1,3})\$?(\d{1,12}):\$?([A-Za-z]{1,3})\$?(\d{1,12})\""
)
#: Parts read as XML: each is held to `MAX_XML_PART_BYTES` and refused with a DTD.
_XML_PARTS = (".xml", ".rels", ".vml", ".rdf")
#: In an ``.ods``: folders of LibreOffice Basic and of other scripts, and of embedded objects
#: (an OLE object or a chart is stored as ``Object 1/``; its picture in ``ObjectReplacements``).
_ODS_MACRO_FOLDERS = ("basic/", "scripts/")
_ODS_EMBEDDED_FOLDERS = ("object ", "objectreplacements/")
#: In any XML part of an ``.ods`` (whatever namespace prefix it uses): a script element, a
#: macro bound to an event (of the document, a sheet or a form control), an attribute linking
#: to a macro, and embedded objects, applets and plugins.  Only markup is matched: text a
#: player typed is escaped in XML, so typing these words in a cell is no refusal.
_ODS_MACRO_RE = re.compile(
    rb"<(?:[A-Za-z_][\w.-]*:)?(?:script|event-listener)\b"
    rb"|=\s*[\"']\s*(?:vnd\.sun\.star\.script|macro):",
    re.IGNORECASE,
)
_ODS_EMBEDDED_RE = re.compile(
    rb"<(?:[A-Za-z_][\w.-]*:)?(?:object|object-ole|applet|plugin)\b", re.IGNORECASE
)


def _size(count: int) -> str:
    """A byte count as a refusal says it: ``20 MB``, ``20 kB``, ``300 bytes``."""
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):.0f} MB"
    if count >= 1024:
        return f"{count / 1024:.0f} kB"
    return f"{count} bytes"


def _check_parts(name: str, infos: list[zipfile.ZipInfo]) -> None:
    """Member count, duplicate names, declared sizes, ratios, code and embedded objects."""
    if len(infos) > MAX_MEMBERS:
        raise NotATurnSheet(
            said(
                "{name} has {count} parts (a turn sheet has about 15, the limit is {limit}); "
                "send the turn sheet you were given",
                name=name,
                count=len(infos),
                limit=MAX_MEMBERS,
            )
        )
    seen: set[str] = set()
    total = 0
    for info in infos:
        lowered = info.filename.lower()
        if lowered in seen:
            # Excel treats part names case-insensitively and takes one copy, a zip reader may
            # take the other: the player would see one sheet and the referee read another.
            raise NotATurnSheet(
                said(
                    "{name} holds two parts with the same name ({part}), so different programs "
                    "would read different orders from it; save the sheet again as .xlsx or .ods "
                    "and send it again",
                    name=name,
                    part=info.filename,
                )
            )
        seen.add(lowered)
        total += info.file_size
        if info.file_size > MAX_MEMBER_BYTES:
            raise too_big(
                name,
                said(
                    "holds a part ({part}) that unpacks to {size}",
                    part=info.filename,
                    size=f"{info.file_size // (1024 * 1024)} MB",
                ),
            )
        xml = lowered.endswith(_XML_PARTS)
        # A sheet's own XML squeezes as well as a bomb's (a long text typed in many cells
        # packs a thousand times over): within its size limit, an XML part's ratio is no sign
        # of a bomb.  Past it, or in a picture past `RATIO_FLOOR`, it is one.
        floor = MAX_XML_PART_BYTES if xml else RATIO_FLOOR
        if info.file_size > floor and info.file_size > MAX_RATIO * max(1, info.compress_size):
            raise NotATurnSheet(
                said(
                    "{name} holds a part ({part}) that unpacks to {size} from {packed}, more "
                    "than {ratio} times its packed size past {floor} (a zip bomb); send the "
                    "turn sheet you were given",
                    name=name,
                    part=info.filename,
                    size=_size(info.file_size),
                    packed=_size(info.compress_size),
                    ratio=MAX_RATIO,
                    floor=_size(floor),
                )
            )
        if xml and info.file_size > MAX_XML_PART_BYTES:
            raise too_big(
                name,
                said(
                    "holds a part ({part}) of {size} of XML (the limit is {limit})",
                    part=info.filename,
                    size=f"{info.file_size / (1024 * 1024):.0f} MB",
                    limit=f"{MAX_XML_PART_BYTES // (1024 * 1024)} MB",
                ),
            )
        if any(marker in lowered for marker in _MACRO_PARTS):
            raise _refusal(name, Sniffed("xlsm", ""))
        if lowered.startswith(_EMBEDDED_PARTS):
            raise _refusal(name, Sniffed("embedded", ""))
    if total > MAX_TOTAL_BYTES:
        raise too_big(
            name,
            said(
                "unpacks to {size} (limit {limit})",
                size=f"{total // (1024 * 1024)} MB",
                limit=f"{MAX_TOTAL_BYTES // (1024 * 1024)} MB",
            ),
        )


def _check_sheet_xml(name: str, part: str, content: bytes) -> None:
    """Refuse a worksheet with more rows or cells than any turn sheet, before it is parsed."""
    rows = _ROW_RE.findall(content)
    if len(rows) > MAX_SHEET_ROWS:
        raise too_big(
            name,
            said(
                "has {count} rows in one worksheet ({part}; a turn sheet has about 100, the "
                "limit is {limit})",
                count=f"{len(rows):,}",
                part=part,
                limit=f"{MAX_SHEET_ROWS:,}",
            ),
        )
    cells = _CELL_RE.findall(content)
    if len(cells) > MAX_SHEET_CELLS:
        raise too_big(
            name,
            said(
                "has {count} cells in one worksheet ({part}; the limit is {limit})",
                count=f"{len(cells):,}",
                part=part,
                limit=f"{MAX_SHEET_CELLS:,}",
            ),
        )
    last = 0
    for attrs in rows:
        found = _ROW_INDEX_RE.search(attrs)
        if found:
            last = max(last, int(found.group(1)))
    for attrs in cells:
        found = _CELL_ROW_RE.search(attrs)
        if found:
            last = max(last, int(found.group(1)))
    if last > MAX_ROW_INDEX:
        raise far_row(name, last, part)
    merged = _merged_area(content)
    if merged > MAX_SHEET_CELLS:
        raise too_big(
            name,
            said(
                "merges {count} cells in one worksheet ({part}; the limit is {limit})",
                count=f"{merged:,}",
                part=part,
                limit=f"{MAX_SHEET_CELLS:,}",
            ),
        )


def _merged_area(content: bytes) -> int:
    """How many cells a worksheet's merged ranges cover: openpyxl makes an object for each
    (one range over every column of 100,000 rows took 30 s and 1.7 GB), and an ``.ods``
    is held to the same bound (`odsread`)."""
    total = 0
    for attrs in _MERGE_RE.findall(content):
        found = _RANGE_RE.search(attrs)
        if found is None:
            continue
        first_col, first_row, last_col, last_row = found.groups()
        rows = abs(int(last_row) - int(first_row)) + 1
        columns = abs(_column_number(last_col) - _column_number(first_col)) + 1
        total += rows * columns
    return total


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + letter - ord("A") + 1
    return number


def check_container(data: bytes, name: str) -> None:
    """Refuse a workbook whose zip container is oversized, a bomb, or carries code or DTDs.

    Everything here reads only declared sizes and parts bounded by them (Python's zipfile never
    inflates a member past its declared size), so a hostile file costs at most
    `MAX_TOTAL_BYTES` of reading before it is refused.  An ``.ods`` gets the same checks of
    its container, and its own for code (`_check_ods_part`).
    """
    ods = sniff(data).kind == "ods"
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except _ZIP_ERRORS:
        raise _refusal(name, Sniffed("damaged", "")) from None
    with zf:
        try:
            infos = zf.infolist()
        except _ZIP_ERRORS:
            raise _refusal(name, Sniffed("damaged", "")) from None
        _check_parts(name, infos)
        if ods:
            _check_ods_names(name, infos)
        for info in infos:
            lowered = info.filename.lower()
            if not lowered.endswith(_XML_PARTS):
                continue
            content = _xml_part(zf, info, name)
            if ods:
                _check_ods_part(name, info.filename, content)
            else:
                _check_xlsx_part(name, info.filename, content)


def _xml_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> bytes:
    """One XML part's bytes (bounded by its declared size), refused if it holds a DTD."""
    try:
        content = zf.read(info)
    except _ZIP_ERRORS as exc:
        raise NotATurnSheet(
            said(
                "{name} is damaged (part {part} cannot be unpacked: {detail}); save the sheet "
                "again as .xlsx or .ods and send it again",
                name=name,
                part=info.filename,
                detail=exc,
            )
        ) from None
    if any(marker in content for marker in _DTD_MARKERS):
        raise NotATurnSheet(
            said(
                "{name} contains XML document type declarations (part {part}), which "
                "spreadsheet programs never write and which can hide attacks; send the turn "
                "sheet you were given",
                name=name,
                part=info.filename,
            )
        )
    return content


def _check_xlsx_part(name: str, part: str, content: bytes) -> None:
    """An ``.xlsx`` part: macro or embedded content types, too many worksheets, and each
    worksheet's rows and cells (`_check_sheet_xml`)."""
    lowered = part.lower()
    if lowered == "[content_types].xml":
        types = content.lower()
        if any(marker in types for marker in _MACRO_TYPES):
            raise _refusal(name, Sniffed("xlsm", ""))
        if any(marker in types for marker in _EMBEDDED_TYPES):
            raise _refusal(name, Sniffed("embedded", ""))
    elif lowered == "xl/workbook.xml":
        sheets = len(_SHEET_ENTRY_RE.findall(content))
        if sheets > MAX_SHEETS:
            raise too_big(
                name,
                said(
                    "has {count} worksheets (a turn sheet has 4, the limit is {limit})",
                    count=sheets,
                    limit=MAX_SHEETS,
                ),
            )
    elif lowered.startswith("xl/worksheets/"):
        _check_sheet_xml(name, part, content)


def _check_ods_names(name: str, infos: list[zipfile.ZipInfo]) -> None:
    """An ``.ods`` with a folder of macros or scripts, or of embedded objects, is refused by
    the names of its parts, whatever its manifest says."""
    for info in infos:
        lowered = info.filename.lower()
        if lowered.startswith(_ODS_MACRO_FOLDERS):
            raise _refusal(name, Sniffed("ods-macro", ""))
        if lowered.startswith(_ODS_EMBEDDED_FOLDERS):
            raise _refusal(name, Sniffed("embedded", ""))


def _check_ods_part(name: str, part: str, content: bytes) -> None:
    """An ``.ods`` part: a manifest naming encrypted parts, scripts or Basic libraries, and
    any part holding a script, a macro bound to an event or an embedded object.  The rows and
    cells are counted while they are read (`odsread`)."""
    if part.lower() == "meta-inf/manifest.xml":
        manifest = content.lower()
        if b"encryption-data" in manifest:
            raise _refusal(name, Sniffed("encrypted", ""))
        if re.search(rb'full-path="/?(?:basic|scripts)/', manifest):
            raise _refusal(name, Sniffed("ods-macro", ""))
    if _ODS_MACRO_RE.search(content):
        raise _refusal(name, Sniffed("ods-macro", ""))
    if _ODS_EMBEDDED_RE.search(content):
        raise _refusal(name, Sniffed("embedded", ""))


def read_checked_bytes(path: Path) -> bytes:
    """The bytes of a file that passed the format and container checks (else `NotATurnSheet`)."""
    path = Path(path)
    name = path.name
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise NotATurnSheet(f"{path} does not exist; check the file name") from None
    except OSError as exc:
        raise NotATurnSheet(f"{path} cannot be read: {exc.strerror or exc}") from None
    if not path.is_file():
        raise NotATurnSheet(f"{path} is not a file")
    if size > MAX_FILE_BYTES:
        raise NotATurnSheet(
            said(
                "{name} is {size}, far larger than a turn sheet (limit {limit}); send the turn "
                "sheet you were given",
                name=name,
                size=f"{size // (1024 * 1024)} MB",
                limit=f"{MAX_FILE_BYTES // (1024 * 1024)} MB",
            )
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise NotATurnSheet(f"{path} cannot be read: {exc.strerror or exc}") from None
    sniffed = sniff(data)
    if sniffed.kind not in TURN_SHEET_KINDS:
        raise _refusal(name, sniffed)
    check_container(data, name)
    return data


def load_workbook_bytes(
    data: bytes, name: str, *, data_only: bool = False, merged_borders: bool = True
) -> Workbook:
    """openpyxl on checked bytes; any failure of the library on hostile input is a refusal.

    Catching every exception is deliberate here: the input is hostile and openpyxl can fail in
    many ways (KeyError for a missing part, ValueError for a bad attribute, defusedxml's
    errors for entities); whatever the cause, the answer to the player is the same.

    ``merged_borders=False`` is for a workbook that is only read, never saved: see
    `_plain_merges`.  An ``.ods`` is read into the same kind of workbook (`odsread`); its
    merged ranges never carry borders.
    """
    if sniff(data).kind == "ods":
        return _ods_workbook(data, name, data_only=data_only)
    import openpyxl

    try:
        with _LOADING, contextlib.nullcontext() if merged_borders else _plain_merges():
            return openpyxl.load_workbook(
                io.BytesIO(data), data_only=data_only, keep_vba=False, keep_links=False
            )
    except MemoryError:
        raise NotATurnSheet(_too_large(name)) from None
    except Exception as exc:
        kind = type(exc).__name__
        if any(_is_entity_error(e) for e in _chain(exc)):
            raise NotATurnSheet(
                said(
                    "{name} contains XML entity declarations, which spreadsheet programs "
                    "never write and which can hide attacks; send the turn sheet you were "
                    "given",
                    name=name,
                )
            ) from None
        detail = " ".join(str(exc).split())
        detail = detail if len(detail) <= 120 else detail[:117] + "..."
        raise NotATurnSheet(
            said(
                "{name} could not be read as an Excel workbook ({kind}: {detail}); open it in "
                "your spreadsheet program, save it as an Excel workbook (.xlsx) or an "
                "OpenDocument spreadsheet (.ods) and send it again",
                name=name,
                kind=kind,
                detail=detail,
            )
        ) from None


def _too_large(name: str) -> Said:
    """The refusal of a file whose reading ran out of memory."""
    return said("{name} is too large to read; send the turn sheet you were given", name=name)


def _ods_workbook(data: bytes, name: str, *, data_only: bool) -> Workbook:
    """An ``.ods`` read into an openpyxl workbook; `odsread` refuses what it cannot read, and
    running out of memory is a refusal too."""
    from .odsread import ods_workbook

    try:
        return ods_workbook(data, name, data_only=data_only)
    except MemoryError:
        raise NotATurnSheet(_too_large(name)) from None


#: Loads are one at a time while `_plain_merges` may change openpyxl's class for one.
_LOADING = threading.Lock()


@contextlib.contextmanager
def _plain_merges() -> Iterator[None]:
    """Load merged ranges without working out the borders of their cells.

    As it loads a merged range, openpyxl adds the bottom-right cell's border to the top-left
    cell's, gives each edge cell the range's border and each cell the range's protection,
    every one a style object built, compared and hashed into the workbook's lists: 40% of
    opening a turn sheet.  A sheet that is only read needs the merged cells (so that what
    hides under a merge reads as empty, as the player sees it) and their protection, never
    their borders; a workbook that is saved (an annotated copy) is loaded with them.  Each
    cell takes the top-left cell's protection by its index in the workbook's list, which is
    what assigning an equal copy of it came to.  Opening the twelve sheets of a 12-player
    turn: 0.49-0.55 s with only the edge cells' borders left out (the top-left cell's still
    summed), 0.38-0.42 s with neither.
    """
    from openpyxl.styles.cell_style import StyleArray
    from openpyxl.worksheet.merge import MergedCell, MergedCellRange

    borders, original = MergedCellRange._get_borders, MergedCellRange.format

    def top_left(mcr: MergedCellRange) -> None:
        found = mcr.ws._cells.get((mcr.min_row, mcr.min_col))
        mcr.start_cell = found or mcr.ws.cell(row=mcr.min_row, column=mcr.min_col)

    def cells_and_protection(mcr: MergedCellRange) -> None:
        ws = mcr.ws
        style = mcr.start_cell._style
        protection = style.protectionId if style else 0
        for row, col in mcr.cells:
            cell = ws._cells.get((row, col))
            if cell is None:
                cell = ws._cells[(row, col)] = MergedCell(ws, row=row, column=col)
            if not cell._style:
                cell._style = StyleArray()
            cell._style.protectionId = protection

    MergedCellRange._get_borders = top_left
    MergedCellRange.format = cells_and_protection
    try:
        yield
    finally:
        MergedCellRange._get_borders, MergedCellRange.format = borders, original


def _chain(exc: BaseException) -> list[BaseException]:
    """An exception and the ones it was raised from (openpyxl wraps parser errors)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _is_entity_error(exc: BaseException) -> bool:
    name = type(exc).__name__
    return "Entit" in name or "DTD" in name or type(exc).__module__.startswith("defusedxml")


def open_workbook(path: Path, *, data_only: bool = False) -> Workbook:
    """A player's workbook opened safely with openpyxl (formulas as written by default); an
    ``.ods`` read into the same kind of workbook, so that its annotated copy is an ``.xlsx``."""
    data = read_checked_bytes(Path(path))
    return load_workbook_bytes(data, Path(path).name, data_only=data_only)


def meta_of(workbook: Workbook, name: str, meta_sheet: str = META_SHEET) -> dict[str, str]:
    """The key/value pairs of the meta sheet (columns A and B), very hidden or merely hidden.

    LibreOffice turns a very hidden sheet into a hidden one when it saves, so either state is
    accepted; a visible meta sheet (someone unhid it) is read too, because the token, not the
    sheet's visibility, is what proves a sheet's identity.
    """
    if meta_sheet not in workbook.sheetnames:
        raise NotATurnSheet(
            said(
                "{name} is a workbook but not a refassist turn sheet (it has no {sheet} "
                "sheet); fill in the turn sheet you were sent and send that back",
                name=name,
                sheet=meta_sheet,
            )
        )
    ws = workbook[meta_sheet]
    meta: dict[str, str] = {}
    for row in ws.iter_rows(min_row=1, max_row=200, min_col=1, max_col=2, values_only=True):
        key, value = (*row, None, None)[:2]
        if key is None:
            continue
        key_text = str(key).strip().lower()
        if not key_text or len(key_text) > 40:
            continue
        if value is None:
            value_text = ""
        elif isinstance(value, float) and value.is_integer():
            value_text = str(int(value))
        else:
            value_text = str(value).strip()
        meta[key_text] = value_text[:500]
    if meta.get("format") != META_FORMAT:
        raise NotATurnSheet(
            said(
                "{name} has a {sheet} sheet but it does not describe a refassist turn sheet; "
                "fill in the turn sheet you were sent and send that back",
                name=name,
                sheet=meta_sheet,
            )
        )
    if not meta.get("ruleset"):
        raise NotATurnSheet(
            said(
                "{name}: the {sheet} sheet names no game rules; use the sheet you were sent",
                name=name,
                sheet=meta_sheet,
            )
        )
    return meta


@dataclass
class InputValue:
    """A value read from an input cell, with a problem if the cell held a formula."""

    value: Any
    problem: CellProblem | None = None


@dataclass
class TurnSheetFile:
    """A player's turn sheet, opened safely: the workbook, its meta data and its input cells.

    Read only: its workbooks are loaded without the borders of merged cells (`_plain_merges`)
    and must never be saved; an annotated copy loads the file again (`open_workbook`)."""

    path: Path
    workbook: Workbook
    meta: dict[str, str]
    #: The file's bytes as checked and opened (readers key their memory on their SHA-256).
    data: bytes = field(repr=False)
    _cached: Workbook | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.path.name

    def sheet(self, title: str) -> Worksheet:
        """A worksheet by title; a turn sheet without it is refused."""
        if title not in self.workbook.sheetnames:
            raise NotATurnSheet(
                said(
                    "{name} has no sheet named {title}; it is not a complete turn sheet (fill "
                    "in the sheet you were sent without removing its sheets)",
                    name=self.name,
                    title=repr(title),
                )
            )
        from openpyxl.worksheet.worksheet import Worksheet

        ws = self.workbook[title]
        if not isinstance(ws, Worksheet):
            raise NotATurnSheet(
                said(
                    "{name}: {title} is a chart, not a worksheet",
                    name=self.name,
                    title=repr(title),
                )
            )
        return ws

    def _cached_workbook(self) -> Workbook:
        if self._cached is None:
            self._cached = load_workbook_bytes(
                self.data, self.name, data_only=True, merged_borders=False
            )
        return self._cached

    def input_value(self, title: str, ref: str) -> InputValue:
        """The value of an input cell as the player sees it.

        Plain values are returned as they are.  A formula is read through its last computed
        value if that is text or a number (warning: the referee reads what the player saw), and
        is an error otherwise (nothing to read).  A spreadsheet error value (``#REF!``,
        ``#DIV/0!``...), typed or computed, is an error: it is never read as text.
        """
        cell = self.sheet(title)[ref]
        value = cell.value

        def flagged(found: Any, message: str, fix: str, cached: Any = None) -> InputValue:
            """The cell with its problem: an error with nothing read, or (``cached``) a
            warning with the value read."""
            severity = "error" if cached is None else "warning"
            problem = CellProblem(
                sheet=title,
                cell=ref,
                found=str(found)[:80],
                message=message,
                fix=fix,
                severity=severity,
            )
            return InputValue(cached, problem)

        if cell.data_type == "e":
            return flagged(
                value,
                f"this input cell holds the spreadsheet error value {value}",
                "Type the value itself; the error came from a formula or a paste.",
            )
        if cell.data_type != "f" and not _is_formula_object(value):
            if isinstance(value, str) and len(value) > MAX_INPUT_TEXT:
                return flagged(
                    value,
                    f"this input cell is {len(value):,} characters long; a cell of a turn "
                    f"sheet holds at most {MAX_INPUT_TEXT:,}",
                    "Shorten it; put the rest on another line or in a message.",
                )
            return InputValue(value)
        formula = value if isinstance(value, str) else getattr(value, "text", "") or "formula"
        computed = self._cached_workbook()[title][ref]
        cached = computed.value
        instead = "Type the value itself instead of a formula."
        if computed.data_type == "e":
            return flagged(
                formula,
                f"this input cell holds a formula whose value is the spreadsheet error "
                f"{cached}, so nothing can be read from it",
                instead,
            )
        if isinstance(cached, bool) or not isinstance(
            cached, str | int | float | datetime | date | time
        ):
            return flagged(
                formula,
                "this input cell holds a formula with no computed value, so nothing can be "
                "read from it",
                instead,
            )
        return flagged(
            formula,
            f"this input cell holds a formula; its last computed value {cached!r} was read",
            "Type the value itself instead of a formula, so that what you see is what the "
            "referee reads.",
            cached=cached,
        )


def _is_formula_object(value: Any) -> bool:
    return type(value).__name__ in ("ArrayFormula", "DataTableFormula")


def open_turn_sheet(path: Path, *, meta_sheet: str = META_SHEET) -> TurnSheetFile:
    """Check and open a turn sheet and read its meta sheet; `NotATurnSheet` if unusable."""
    path = Path(path)
    data = read_checked_bytes(path)
    workbook = load_workbook_bytes(data, path.name, merged_borders=False)
    meta = meta_of(workbook, path.name, meta_sheet)
    return TurnSheetFile(path=path, workbook=workbook, meta=meta, data=data)
