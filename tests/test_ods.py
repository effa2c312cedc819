"""A turn sheet saved by LibreOffice in its own format (``.ods``) is read as the ``.xlsx`` it
came from, in every game.

Most players fill in their sheets in LibreOffice Calc, whose default format is ``.ods``.  For
each game, the computer players' filled-in sheets (and a copy with a spoiled order and one
with a formula) are converted by real LibreOffice (``soffice --headless --convert-to ods``,
one run per game, shared by the module), then read, checked, taken in and resolved the way
the ``.xlsx`` is; and a real ``.ods`` made hostile (macros, a DTD, bombs, monsters) is refused
in one sentence.  python-calamine, which reads ``.ods`` too, checks the values independently.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from python_calamine import CalamineWorkbook, SheetVisibleEnum

from refassist.cli import main
from refassist.errors import NotATurnSheet
from refassist.intake.inbox import intake
from refassist.report.game_reports import gather_input
from refassist.rulesets import RULESETS
from refassist.rulesets.base import Ruleset
from refassist.store.game import Game
from refassist.store.inbox_index import Index
from refassist.store.turnsheets import check_sheet
from refassist.turns import replay_step, resolve_game, state_after
from refassist.workbook.annotate import annotate
from refassist.workbook.sheetio import load_workbook_bytes, open_turn_sheet

from .computer_sheets import FilledGame, filled_game, formula_copy, spoiled_copy
from .libreoffice import all_through_libreoffice

pytestmark = pytest.mark.libreoffice

ODS_TYPE = "application/vnd.oasis.opendocument.spreadsheet"


@dataclass(frozen=True)
class Converted:
    """A game's filled-in sheets and the same files as LibreOffice saved them in ``.ods``."""

    filled: FilledGame
    ods: dict[str, Path]  # each player's sheet
    spoiled: Path  # the first player's sheet with its first order spoiled (.xlsx)
    spoiled_ods: Path
    spoiled_cells: set[str]
    formula_ods: Path  # the first player's sheet with a formula in its first order's cell
    formula_cell: str
    formula: str

    @property
    def ruleset(self) -> Ruleset:
        return self.filled.ruleset

    @property
    def first(self) -> str:
        return next(iter(self.filled.sheets))


@pytest.fixture(scope="module", params=RULESETS, ids=lambda r: r.name)
def converted(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Converted:
    ruleset: Ruleset = request.param
    folder = tmp_path_factory.mktemp(ruleset.name)
    filled = filled_game(folder, ruleset)
    work = folder / "changed"
    work.mkdir()
    spoiled, formula = work / "spoiled.xlsx", work / "formula.xlsx"
    cells = spoiled_copy(filled, spoiled)
    cell, typed = formula_copy(filled, formula)
    sources = [*filled.sheets.values(), spoiled, formula]
    *sheets, spoiled_ods, formula_ods = all_through_libreoffice(sources, folder / "lo", "ods")
    ods = dict(zip(filled.sheets, sheets, strict=True))
    return Converted(filled, ods, spoiled, spoiled_ods, cells, formula_ods, cell, typed)


def game_copy(converted: Converted, folder: Path) -> Game:
    """A copy of the game folder, for a test that takes sheets in or resolves."""
    shutil.copytree(converted.filled.game.path, folder)
    return Game.open(folder)


def state_json(ruleset: Ruleset, state: Any) -> str:
    return json.dumps(ruleset.to_json(state), sort_keys=True, ensure_ascii=False)


# -- reading ------------------------------------------------------------------------------------


def test_the_ods_reads_as_the_xlsx_it_came_from(converted: Converted) -> None:
    ruleset = converted.ruleset
    said = []
    for player, xlsx in converted.filled.sheets.items():
        ods = converted.ods[player]
        assert ods.read_bytes()[:2] == b"PK" and b"opendocument.spreadsheet" in ods.read_bytes()
        expected, got = ruleset.read_sheet(xlsx), ruleset.read_sheet(ods)
        assert got.orders == expected.orders, player
        assert got.problems == expected.problems == [], player
        assert got.meta == expected.meta
        said += ruleset.orders_text(got.orders)
    assert said, "the computer players gave no orders: nothing was compared"


def test_the_sheets_hidden_sheets_and_values_are_those_calamine_reads(
    converted: Converted,
) -> None:
    """python-calamine, an independent reader of ``.ods``, sees the same sheets in the same
    order, the same hidden ones, and the same value in every cell (a formula's computed one)."""
    for ods in converted.ods.values():
        ours = load_workbook_bytes(ods.read_bytes(), ods.name, data_only=True)
        with CalamineWorkbook.from_path(str(ods)) as theirs:
            listed = [
                (m.name, m.visible == SheetVisibleEnum.Visible) for m in theirs.sheets_metadata
            ]
            assert listed == [(ws.title, ws.sheet_state == "visible") for ws in ours.worksheets]
            for ws in ours.worksheets:
                rows = theirs.get_sheet_by_name(ws.title).to_python(skip_empty_area=False)
                assert _values(ws) == _calamine_values(rows), ws.title


def _values(ws: Any) -> dict[tuple[int, int], Any]:
    return {
        (c.row, c.column): c.value
        for row in ws.iter_rows()
        for c in row
        if c.value is not None and c.value != ""
    }


def _calamine_values(rows: list[list[Any]]) -> dict[tuple[int, int], Any]:
    """Calamine's cells as openpyxl's: empty cells left out, whole numbers whole."""
    out = {}
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            if value == "":
                continue
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            out[(r, c)] = value
    return out


def test_the_meta_sheet_is_hidden_and_names_the_player(converted: Converted) -> None:
    for player, ods in converted.ods.items():
        opened = open_turn_sheet(ods)
        assert opened.workbook["_meta"].sheet_state == "hidden"
        assert opened.meta["player"] == player
        assert opened.meta["step"] == converted.filled.step


# -- identity and checking ----------------------------------------------------------------------


def test_the_ods_is_a_genuine_sheet_of_its_game(converted: Converted) -> None:
    game = converted.filled.game
    for player, ods in converted.ods.items():
        result = check_sheet(ods, game)
        assert result.meta["player"] == player and not result.wrong_step
        assert result.errors == [], [str(p) for p in result.errors]
        assert result.orders == check_sheet(converted.filled.sheets[player], game).orders
    ods = converted.ods[converted.first]
    answer = CliRunner().invoke(main, ["check", str(ods), "--game", str(game.path)])
    assert answer.exit_code == 0, answer.output
    assert "accepted" in answer.stdout


def test_a_problem_in_an_ods_is_pinned_to_the_same_cell(
    converted: Converted, tmp_path: Path
) -> None:
    game = converted.filled.game
    from_xlsx = check_sheet(converted.spoiled, game)
    from_ods = check_sheet(converted.spoiled_ods, game)
    assert from_ods.problems == from_xlsx.problems
    assert [p for p in from_ods.errors if p.places() & converted.spoiled_cells]
    assert from_ods.orders == from_xlsx.orders

    # The annotated copy is an .xlsx that marks the same cells and is still the turn sheet.
    marked = annotate(converted.spoiled_ods, from_ods.problems, tmp_path / "marked.xlsx")
    workbook = openpyxl.load_workbook(marked)
    assert workbook.sheetnames[0] == "Problems"
    for problem in from_ods.errors:
        assert workbook[problem.sheet][problem.cell].comment is not None
    again = check_sheet(marked, game)
    assert again.problems == from_ods.problems and again.meta == from_ods.meta

    answer = CliRunner().invoke(
        main,
        ["check", str(converted.spoiled_ods), "--game", str(game.path), "--annotate", str(marked)],
    )
    assert answer.exit_code == 1
    assert "an .xlsx of the .ods's contents" in answer.stdout
    refused = CliRunner().invoke(
        main, ["check", str(converted.spoiled_ods), "--annotate", str(tmp_path / "marked.ods")]
    )
    assert refused.exit_code == 2 and "name it .xlsx" in refused.stderr


def test_a_formula_in_an_ods_is_read_by_its_value_with_a_warning(converted: Converted) -> None:
    """As in an .xlsx: the formula LibreOffice calculated is read as its value, and the
    player is warned on the cell that the referee reads the value, not the formula."""
    ruleset = converted.ruleset
    got = ruleset.read_sheet(converted.formula_ods)
    assert got.orders == ruleset.read_sheet(converted.filled.sheets[converted.first]).orders
    [warning] = got.problems
    sheet, _, cell = converted.formula_cell.partition("!")
    assert (warning.sheet, warning.cell, warning.severity) == (sheet, cell, "warning")
    assert "formula" in warning.message and warning.found == converted.formula


# -- intake and resolve ---------------------------------------------------------------------------


def test_the_intake_files_the_ods_and_the_turn_resolves_as_with_the_xlsx(
    converted: Converted, tmp_path: Path
) -> None:
    ruleset, step = converted.ruleset, converted.filled.step
    with_xlsx = game_copy(converted, tmp_path / "xlsx")
    with_ods = game_copy(converted, tmp_path / "ods")
    assert intake(with_xlsx, list(converted.filled.sheets.values())).count("accepted") == len(
        converted.ods
    )
    report = intake(with_ods, list(converted.ods.values()))
    assert [(o.status, o.player) for o in report.outcomes] == [
        ("accepted", p) for p in converted.ods
    ]
    accepted = Index.of(with_ods, step).accepted
    assert {p: info["file"] for p, info in accepted.items()} == {
        p: f"accepted/{ods.name}" for p, ods in converted.ods.items()
    }

    expected = resolve_game(with_xlsx, force=True).state
    got = resolve_game(with_ods, force=True).state
    assert state_json(ruleset, got) == state_json(ruleset, expected)
    archived = sorted(p.name for p in (with_ods.archive(step) / "sheets").iterdir())
    assert archived == sorted(ods.name for ods in converted.ods.values())
    assert replay_step(with_ods, step) == state_after(with_ods, step)
    # The reports say the same of each player's sheet and orders.
    players = list(converted.ods)
    reported, reported_xlsx = (
        gather_input(with_ods, got, players),
        gather_input(with_xlsx, expected, players),
    )
    assert reported.sheets == reported_xlsx.sheets == {p: "accepted" for p in players}
    assert reported.orders == reported_xlsx.orders


def test_an_ods_with_a_problem_gets_a_marked_xlsx_by_reply(
    converted: Converted, tmp_path: Path
) -> None:
    game = game_copy(converted, tmp_path / "game")
    mail = message(game, converted.first, converted.spoiled_ods.read_bytes(), "orders.ods")
    [outcome] = intake(game, [write(tmp_path / "spoiled.eml", mail)]).outcomes
    assert outcome.status == "problems" and outcome.reply is not None
    reply = read_message(outcome.reply)
    [attached] = list(reply.iter_attachments())
    assert attached.get_filename().endswith("-annotated.xlsx")
    assert "OpenDocument" in reply.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    marked = tmp_path / "marked.xlsx"
    marked.write_bytes(attached.get_content())
    assert check_sheet(marked, game).problems == check_sheet(converted.spoiled_ods, game).problems


@pytest.mark.parametrize(
    ("how", "content_type"),
    [("attached", ODS_TYPE), ("typed as a zip", "application/zip"), ("zipped", "")],
)
def test_an_ods_sent_by_mail_is_read(
    converted: Converted, tmp_path: Path, how: str, content_type: str
) -> None:
    """Attached with its own type, typed as a zip by the player's mail program (an .ods is a
    zip), or put in a zip by the player."""
    game = game_copy(converted, tmp_path / "game")
    player = converted.first
    data, name = converted.ods[player].read_bytes(), converted.ods[player].name
    if how == "zipped":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(name, data)
        data, name, content_type = buffer.getvalue(), "orders.zip", "application/zip"
    mail = message(game, player, data, name, content_type)
    [outcome] = intake(game, [write(tmp_path / "turn.eml", mail)]).outcomes
    assert (outcome.status, outcome.player) == ("accepted", player), outcome.summary
    assert (game.inbox(converted.filled.step) / "accepted" / converted.ods[player].name).is_file()


def message(game: Game, player: str, data: bytes, name: str, content_type: str = ODS_TYPE) -> bytes:
    msg = EmailMessage()
    config = game.config.player(player)
    assert config is not None
    msg["From"] = config.email
    msg["To"] = "referee@example.invalid"
    msg["Subject"] = "my orders"
    msg["Date"] = "Fri, 02 Jan 2026 10:00:00 +0000"
    msg["Message-ID"] = f"<{player}-{len(data)}@example.com>"
    msg.set_content("my orders, from LibreOffice")
    maintype, subtype = content_type.split("/")
    msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return bytes(msg)


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def read_message(path: Path) -> EmailMessage:
    from email import policy
    from email.parser import BytesParser

    parsed = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert isinstance(parsed, EmailMessage)
    return parsed


# -- hostile .ods -------------------------------------------------------------------------------


def rewrite(
    data: bytes,
    content: Callable[[str], str] | None = None,
    add: dict[str, bytes] | None = None,
    manifest: Callable[[str], str] | None = None,
) -> bytes:
    """A copy of an ``.ods`` with ``content.xml`` or the manifest changed and parts added (the
    ``mimetype`` stays first and stored, as LibreOffice writes it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            part = source.read(info)
            if info.filename == "content.xml" and content is not None:
                part = content(part.decode("utf-8")).encode("utf-8")
            if info.filename == "META-INF/manifest.xml" and manifest is not None:
                part = manifest(part.decode("utf-8")).encode("utf-8")
            method = zipfile.ZIP_STORED if info.filename == "mimetype" else zipfile.ZIP_DEFLATED
            target.writestr(info.filename, part, compress_type=method)
        for name, part in (add or {}).items():
            target.writestr(name, part, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def before_first_row(row: str) -> Callable[[str], str]:
    """``content.xml`` with ``row`` inserted before the first row of the first sheet."""
    return lambda xml: xml.replace("<table:table-row", row + "<table:table-row", 1)


TEXT_CELL = '<table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell>'
MANIFEST_END = "</manifest:manifest>"


def with_entries(*paths: str) -> Callable[[str], str]:
    entries = "".join(
        f'<manifest:file-entry manifest:full-path="{p}" manifest:media-type="text/xml"/>'
        for p in paths
    )
    return lambda xml: xml.replace(MANIFEST_END, entries + MANIFEST_END)


ON_LOAD = (
    '<office:scripts><office:event-listeners><script:event-listener script:language="ooo:script" '
    'script:event-name="dom:load" xlink:href="vnd.sun.star.script:Standard.Module1.Main?'
    'language=Basic&amp;location=document" xlink:type="simple"/></office:event-listeners>'
    "</office:scripts>"
)
LAUGHS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE office:document-content [<!ENTITY a0 "ha">'
    + "".join(f'<!ENTITY a{i} "&a{i - 1};&a{i - 1};&a{i - 1};&a{i - 1};">' for i in range(1, 12))
    + "]>"
)

#: name -> (the change to a genuine .ods, words the one-sentence refusal holds).
HOSTILE: dict[str, tuple[Callable[[bytes], bytes], tuple[str, ...]]] = {
    "basic-macro": (
        lambda d: rewrite(
            d,
            add={"Basic/Standard/Module1.xml": b"<module/>", "Basic/script-lc.xml": b"<x/>"},
            manifest=with_entries("Basic/Standard/Module1.xml"),
        ),
        ("macros", "never opens"),
    ),
    "macro-run-on-opening": (
        lambda d: rewrite(d, content=lambda x: x.replace("<office:scripts/>", ON_LOAD)),
        ("macros",),
    ),
    "script-in-the-manifest-only": (
        lambda d: rewrite(d, manifest=with_entries("Scripts/python/run.py")),
        ("macros",),
    ),
    "embedded-object": (
        lambda d: rewrite(d, add={"Object 1/content.xml": b"<x/>"}),
        ("embedded objects",),
    ),
    "password": (
        lambda d: rewrite(
            d,
            manifest=lambda x: x.replace(
                MANIFEST_END, "<manifest:encryption-data/>" + MANIFEST_END
            ),
        ),
        ("password",),
    ),
    "billion-laughs": (
        lambda d: rewrite(
            d,
            content=lambda x: LAUGHS + x.split("?>", 1)[1].replace("<text:p>", "<text:p>&a11;", 1),
        ),
        ("document type declarations",),
    ),
    "zip-bomb": (
        lambda d: rewrite(d, add={"Pictures/bomb.png": bytes(30 * 1024 * 1024)}),
        ("unpacks to 30 MB",),
    ),
    "compression-ratio": (
        lambda d: rewrite(d, add={"Pictures/dense.png": bytes(2 * 1024 * 1024)}),
        ("zip bomb",),
    ),
    "million-rows": (
        lambda d: rewrite(
            d,
            content=before_first_row(
                f'<table:table-row table:number-rows-repeated="1000000">{TEXT_CELL}'
                "</table:table-row>"
            ),
        ),
        ("row 1,000,000",),
    ),
    "ten-thousand-rows": (
        lambda d: rewrite(
            d,
            content=before_first_row(
                f'<table:table-row table:number-rows-repeated="10000">{TEXT_CELL}</table:table-row>'
            ),
        ),
        ("rows in one worksheet",),
    ),
    "every-column-of-200-rows": (
        lambda d: rewrite(
            d,
            content=before_first_row(
                '<table:table-row table:number-rows-repeated="200">'
                + TEXT_CELL.replace(">", ' table:number-columns-repeated="16384">', 1)
                + "</table:table-row>"
            ),
        ),
        ("cells in one worksheet",),
    ),
    "a-cell-in-row-200000": (
        lambda d: rewrite(
            d,
            content=before_first_row(
                '<table:table-row table:number-rows-repeated="199999"><table:table-cell/>'
                f"</table:table-row><table:table-row>{TEXT_CELL}</table:table-row>"
            ),
        ),
        ("row 200,000",),
    ),
    "beyond-the-last-column": (
        lambda d: rewrite(
            d,
            content=before_first_row(
                '<table:table-row><table:table-cell table:number-columns-repeated="16384"/>'
                f"{TEXT_CELL}</table:table-row>"
            ),
        ),
        ("beyond the last column",),
    ),
    "a-cell-of-a-billion-spaces": (
        lambda d: rewrite(
            d,
            content=before_first_row(
                '<table:table-row><table:table-cell office:value-type="string"><text:p>'
                + '<text:s text:c="999999999"/>' * 3
                + "</text:p></table:table-cell></table:table-row>"
            ),
        ),
        ("characters",),
    ),
    "a-table-in-a-table": (
        lambda d: rewrite(
            d,
            content=before_first_row(
                '<table:table-row><table:table-cell><table:table table:name="inner"/>'
                "</table:table-cell></table:table-row>"
            ),
        ),
        ("table inside a table",),
    ),
    "two-sheets-of-one-name": (
        lambda d: rewrite(
            d,
            content=lambda x: re.sub(
                r'(<table:table table:name=")[^"]*(".*?<table:table table:name=")([^"]*)"',
                r'\1\3\2\3"',
                x,
                count=1,
                flags=re.S,
            ),
        ),
        ("two worksheets are named",),
    ),
    # A date with a time zone: openpyxl cannot write it back, so the annotated copy crashed
    # the intake; no spreadsheet program writes one.
    "date-with-a-time-zone": (
        lambda d: rewrite(
            d,
            content=before_first_row(
                '<table:table-row><table:table-cell office:value-type="date" '
                'office:date-value="2026-01-01T00:00:00Z"/></table:table-row>'
            ),
        ),
        ("time zone",),
    ),
    "not-a-number": (
        lambda d: rewrite(
            d,
            content=lambda x: re.sub(r'office:value="[^"]*"', 'office:value="12abc"', x, count=1),
        ),
        ("not a number",),
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_ods_is_refused_in_one_sentence(
    converted: Converted, tmp_path: Path, case: str
) -> None:
    change, words = HOSTILE[case]
    genuine = converted.ods[converted.first]
    path = tmp_path / genuine.name
    path.write_bytes(change(genuine.read_bytes()))
    started = time.monotonic()
    with pytest.raises(NotATurnSheet) as refused:
        check_sheet(path, converted.filled.game)
    assert time.monotonic() - started < 10
    message = str(refused.value)
    assert message.startswith(path.name) and "\n" not in message
    for word in words:
        assert word in message, message


def test_a_formula_without_a_value_or_with_an_error_is_an_error_on_its_cell(
    converted: Converted, tmp_path: Path
) -> None:
    """What an .xlsx answers: nothing can be read from the cell."""
    sheet, _, cell = converted.formula_cell.partition("!")
    data = converted.formula_ods.read_bytes()
    written = converted.formula.replace("&", "&amp;").replace('"', "&quot;")
    formula = re.compile(
        '<table:table-cell ([^>]*?table:formula="of:' + re.escape(written) + '")[^>]*>.*?'
        "</table:table-cell>"
    )

    def never_calculated(xml: str) -> str:
        changed, found = formula.subn(r"<table:table-cell \1/>", xml, count=1)
        assert found == 1
        return changed

    def an_error(xml: str) -> str:
        changed, found = formula.subn(
            r'<table:table-cell \1 office:value-type="string" office:string-value="" '
            r'calcext:value-type="error"><text:p>#N/A</text:p></table:table-cell>',
            xml,
            count=1,
        )
        assert found == 1
        return changed

    for change, words in ((never_calculated, "no computed value"), (an_error, "error #N/A")):
        path = tmp_path / "formula.ods"
        path.write_bytes(rewrite(data, content=change))
        problems = converted.ruleset.read_sheet(path).problems
        on_the_cell = [p for p in problems if (p.sheet, p.cell) == (sheet, cell)]
        assert {p.severity for p in on_the_cell} == {"error"}
        assert any(words in p.message for p in on_the_cell), [p.message for p in problems]
        assert on_the_cell == problems  # nothing else of the sheet changed
