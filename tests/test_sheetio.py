"""Opening what a player sent: real format from the bytes, and refusals of hostile files.

Small hostile files built here; a later issue builds a large corpus.  Every refusal is a
`NotATurnSheet` (exit code 2) with one sentence saying what the file is and what to do.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest

from refassist.errors import NotATurnSheet
from refassist.rulesets.fifth_millennium.sheet import read_sheet, write_sheet
from refassist.rulesets.fifth_millennium.state import State
from refassist.workbook import sheetio
from refassist.workbook.sheetio import (
    check_container,
    load_workbook_bytes,
    open_turn_sheet,
    read_checked_bytes,
    sniff,
)

OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@pytest.fixture
def good(tmp_path: Path, small_game) -> Path:  # type: ignore[no-untyped-def]
    state: State = small_game.load_state()
    path = tmp_path / "good.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="soon")
    return path


def rezip(source: Path, target: Path, change: dict[str, bytes | None]) -> Path:
    """Copy a workbook's zip, replacing (bytes) or removing (None) members."""
    with zipfile.ZipFile(source) as zf:
        parts = {name: zf.read(name) for name in zf.namelist()}
    for name, data in change.items():
        if data is None:
            parts.pop(name, None)
        else:
            parts[name] = data
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return target


def odf_bytes(mimetype: str) -> bytes:
    """A bare OpenDocument package of the given type (a spreadsheet is opened: see
    test_ods.py; any other kind is refused by what it is)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), mimetype)
        zf.writestr("content.xml", "<office:document-content/>")
        zf.writestr("META-INF/manifest.xml", "<manifest/>")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("orders.xlsx", OLE2 + b"\x00" * 600, "old-style Excel 97-2003 workbook (.xls)"),
        (
            "orders.xlsx",
            odf_bytes("application/vnd.oasis.opendocument.text"),
            "OpenDocument file that is not a spreadsheet",
        ),
        ("orders.xlsx", b"turn,fleet\n5001,F10 S3 A1\n", "text or CSV file"),
        ("orders.xlsx", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "PDF document"),
        ("orders.xlsx", b"", "empty"),
        ("orders.xlsx", b"<html><body>orders</body></html>", "web page"),
        ("orders.xlsx", OLE2 + "EncryptionInfo".encode("utf-16-le"), "password"),
        ("orders.xlsx", bytes(range(256)) * 20, "not a spreadsheet"),
    ],
)
def test_renamed_files_are_refused_with_what_they_are(
    tmp_path: Path, name: str, data: bytes, words: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(NotATurnSheet) as info:
        read_checked_bytes(path)
    message = str(info.value)
    assert words in message
    assert message.startswith(name)
    assert info.value.exit_code == 2


def test_format_comes_from_the_bytes_not_the_name(tmp_path: Path, good: Path) -> None:
    renamed = tmp_path / "orders.csv"
    renamed.write_bytes(good.read_bytes())
    assert sniff(renamed.read_bytes()).kind == "xlsx"
    assert open_turn_sheet(renamed).meta["player"] == "Ann"


def test_truncated_workbook(tmp_path: Path, good: Path) -> None:
    data = good.read_bytes()
    path = tmp_path / "cut.xlsx"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(NotATurnSheet, match="damaged"):
        read_sheet(path)


def test_corrupt_member_is_refused_not_crashed(tmp_path: Path, good: Path) -> None:
    data = bytearray(good.read_bytes())
    # Flip bytes in the middle of the compressed data of some member.
    for i in range(len(data) // 3, len(data) // 3 + 40):
        data[i] ^= 0x5A
    path = tmp_path / "flipped.xlsx"
    path.write_bytes(bytes(data))
    with pytest.raises(NotATurnSheet):
        read_sheet(path)


def test_macro_workbook_is_refused_whatever_its_name(tmp_path: Path, good: Path) -> None:
    with zipfile.ZipFile(good) as zf:
        types = zf.read("[Content_Types].xml").decode()
    types = types.replace(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
        "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
    )
    path = rezip(
        good,
        tmp_path / "innocent.xlsx",
        {"xl/vbaProject.bin": OLE2 + b"\x00" * 512, "[Content_Types].xml": types.encode()},
    )
    assert sniff(path.read_bytes()).kind == "xlsm"
    with pytest.raises(NotATurnSheet, match="macro-enabled"):
        read_sheet(path)


def test_vba_part_alone_is_refused(tmp_path: Path, good: Path) -> None:
    path = rezip(good, tmp_path / "x.xlsx", {"xl/vbaProject.bin": b"\x00" * 64})
    with pytest.raises(NotATurnSheet, match="macro"):
        check_container(path.read_bytes(), path.name)


def _entity_bomb(good: Path, target: Path) -> Path:
    with zipfile.ZipFile(good) as zf:
        xml = zf.read("xl/worksheets/sheet1.xml").decode()
    head, sep, rest = xml.partition("?>")
    bomb = (
        '<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>'
    )
    return rezip(good, target, {"xl/worksheets/sheet1.xml": (head + sep + bomb + rest).encode()})


def test_entity_bomb_is_refused_before_parsing(tmp_path: Path, good: Path) -> None:
    path = _entity_bomb(good, tmp_path / "bomb.xlsx")
    with pytest.raises(NotATurnSheet, match="document type declarations"):
        read_sheet(path)


def test_entities_are_refused_by_the_parser_too(tmp_path: Path, good: Path) -> None:
    # Second line of defence: even without the container check, defusedxml refuses.
    path = _entity_bomb(good, tmp_path / "bomb.xlsx")
    with pytest.raises(NotATurnSheet, match="entity"):
        load_workbook_bytes(path.read_bytes(), path.name)


def test_zip_bomb_by_declared_size(tmp_path: Path, good: Path) -> None:
    huge = b"\x00" * (sheetio.MAX_MEMBER_BYTES + 1024)
    path = rezip(good, tmp_path / "big.xlsx", {"xl/media/image1.png": huge})
    assert path.stat().st_size < 1024 * 1024  # small on disk
    with pytest.raises(NotATurnSheet, match="unpacks to"):
        read_sheet(path)


def test_zip_bomb_by_ratio(tmp_path: Path, good: Path) -> None:
    dense = b"A" * (2 * sheetio.RATIO_FLOOR)
    path = rezip(good, tmp_path / "ratio.xlsx", {"xl/media/image1.png": dense})
    with pytest.raises(NotATurnSheet, match="zip bomb"):
        read_sheet(path)


def test_too_many_members(tmp_path: Path, good: Path) -> None:
    extra: dict[str, bytes | None] = {
        f"xl/junk/part{i}.txt": b"x" for i in range(sheetio.MAX_MEMBERS + 1)
    }
    path = rezip(good, tmp_path / "many.xlsx", extra)
    with pytest.raises(NotATurnSheet, match="parts"):
        read_sheet(path)


def test_oversized_file_is_refused_without_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.xlsx"
    with path.open("wb") as fh:
        fh.truncate(sheetio.MAX_FILE_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(NotATurnSheet, match="far larger than a turn sheet"):
        read_checked_bytes(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(NotATurnSheet, match="does not exist"):
        read_checked_bytes(tmp_path / "nope.xlsx")
    with pytest.raises(NotATurnSheet, match="not a file"):
        read_checked_bytes(tmp_path)


def test_meta_sheet_merely_hidden_is_accepted(tmp_path: Path, good: Path) -> None:
    wb = openpyxl.load_workbook(good)
    wb["_meta"].sheet_state = "hidden"  # what LibreOffice does to a very hidden sheet
    path = tmp_path / "lo.xlsx"
    wb.save(path)
    assert open_turn_sheet(path).meta["player"] == "Ann"


def test_workbook_without_meta_is_not_a_turn_sheet(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "my orders: 5001 - F10 - 2710 - 2712"
    path = tmp_path / "own.xlsx"
    wb.save(path)
    with pytest.raises(NotATurnSheet, match="not a refassist turn sheet"):
        open_turn_sheet(path)


def test_meta_sheet_of_something_else(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    meta = wb.create_sheet("_meta")
    meta["A1"], meta["B1"] = "format", "other-tool"
    path = tmp_path / "other.xlsx"
    wb.save(path)
    with pytest.raises(NotATurnSheet, match="does not describe"):
        open_turn_sheet(path)


def test_a_genuine_sheet_opens(good: Path) -> None:
    opened = open_turn_sheet(good)
    assert opened.meta["format"] == sheetio.META_FORMAT
    assert opened.sheet("Orders")["B11"].value == 5001
    assert opened.input_value("Orders", "B11").problem is None
    with pytest.raises(NotATurnSheet, match="no sheet named"):
        opened.sheet("Nope")


def test_damaged_copies_of_a_sheet_only_raise_our_error(tmp_path: Path, good: Path) -> None:
    """Byte flips anywhere in a genuine sheet: read, or refused; never another exception."""
    import contextlib
    import random

    from refassist.errors import RefassistError

    data = good.read_bytes()
    rng = random.Random(1234)
    for n in range(200):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        path = tmp_path / f"damaged-{n}.xlsx"
        path.write_bytes(bytes(damaged))
        with contextlib.suppress(RefassistError):
            read_sheet(path)


def _cells(workbook: openpyxl.Workbook) -> dict[tuple[str, str], tuple[object, ...]]:
    """Every cell's type, value and protection (all a reader looks at), sheet by sheet."""
    out: dict[tuple[str, str], tuple[object, ...]] = {}
    for ws in workbook.worksheets:
        for (row, col), cell in ws._cells.items():
            p = cell.protection
            out[(ws.title, f"{row},{col}")] = (
                type(cell).__name__,
                cell.value,
                None if p is None else (p.locked, p.hidden),
            )
    return out


def test_a_sheet_opened_to_be_read_is_openpyxls_own_but_for_merged_borders(
    tmp_path: Path, good: Path
) -> None:
    """Opening a sheet skips copying merged ranges' borders (40% of the load); every
    cell, merged cell, value and protection is as openpyxl's full load has it, for both games'
    sheets, and the reading of the sheet is the same."""
    from refassist.dice import Dice
    from refassist.rulesets.base import NewGame, PlayerSetup
    from refassist.rulesets.imperium_3m.setup import new_game
    from refassist.rulesets.imperium_3m.sheet import write_sheet as imperial_sheet

    players = (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com"))
    imperium = new_game(NewGame("Test", "id", players, {}), Dice(seed=1), {})
    empire = tmp_path / "Empire.xlsx"
    imperial_sheet(imperium, "Empire", empire, token="t", deadline="soon")
    for path in (good, empire):
        data = path.read_bytes()
        opened = open_turn_sheet(path)
        full = load_workbook_bytes(data, path.name)
        sheetio.meta_of(full, path.name)  # reads (so makes) the same meta cells as opening
        merged = sum(len(ws.merged_cells.ranges) for ws in full.worksheets)
        assert merged > 20  # the sheets merge their titles, labels and message boxes
        assert _cells(opened.workbook) == _cells(full)
    assert read_sheet(good, open_turn_sheet(good)) == read_sheet(good)


def test_the_plain_merge_load_leaves_openpyxl_as_it_was(
    tmp_path: Path, good: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openpyxl.worksheet.merge import MergedCellRange

    original, borders = MergedCellRange.format, MergedCellRange._get_borders
    open_turn_sheet(good)
    assert MergedCellRange.format is original
    assert MergedCellRange._get_borders is borders
    broken = rezip(good, tmp_path / "broken.xlsx", {"xl/worksheets/sheet1.xml": b"<not xml"})
    with pytest.raises(NotATurnSheet):
        load_workbook_bytes(broken.read_bytes(), broken.name, merged_borders=False)
    assert MergedCellRange.format is original
    assert MergedCellRange._get_borders is borders
    # A workbook loaded to be saved (an annotated copy) gets openpyxl's own merged ranges.
    calls: list[int] = []

    def counting(mcr: MergedCellRange) -> None:
        calls.append(1)
        original(mcr)

    monkeypatch.setattr(MergedCellRange, "format", counting)
    load_workbook_bytes(good.read_bytes(), good.name)
    assert len(calls) > 20
    calls.clear()
    load_workbook_bytes(good.read_bytes(), good.name, merged_borders=False)
    assert calls == []
    assert MergedCellRange.format is counting
