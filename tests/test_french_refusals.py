"""A French player's intake reply gives the reason of a refusal in French (issue 53): real
.eml files from the player's address, filed by the intake, the reply read back."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets
from tests.test_intake import DEADLINE, make_mail, reply_text, write_eml


@pytest.fixture
def french_game(tmp_path: Path) -> Game:
    players = [
        PlayerSetup("Anne", "anne@example.com", language="fr"),
        PlayerSetup("Bob", "bob@example.com"),
        PlayerSetup("Cleo", "cleo@example.com"),
    ]
    game = Game.create(
        tmp_path / "game",
        find_ruleset("fifth-millennium"),
        players,
        seed=5,
        generate_seed=42,
        assign_homeworlds=True,
        first_deadline=DEADLINE,
    )
    write_sheets(game, game.load_state())
    return game


def _reply(game: Game, tmp_path: Path, sender: str, name: str, data: bytes) -> str:
    mail = write_eml(tmp_path / f"{name}.eml", make_mail(sender, [(name, data)]))
    report = intake(game, [mail])
    [outcome] = report.outcomes
    assert outcome.status == "refused", outcome.summary
    assert outcome.reply is not None
    return " ".join(reply_text(outcome.reply).split())


@pytest.mark.parametrize(
    ("data", "french", "english"),
    [
        (b"PK\x03\x04 not really a zip", "est abîmé ou incomplet", "is damaged or incomplete"),
        (b"", "est vide (0 octet)", "is empty (0 bytes)"),
    ],
)
def test_a_damaged_or_empty_file_is_refused_in_french(
    french_game: Game, tmp_path: Path, data: bytes, french: str, english: str
) -> None:
    text = _reply(french_game, tmp_path, "anne@example.com", "Anne.xlsx", data)
    assert french in text
    assert english not in text
    assert "Bonjour Anne" in text or "Anne" in text


def test_someone_elses_sheet_is_refused_in_french_and_in_english(
    french_game: Game, tmp_path: Path
) -> None:
    bobs = tmp_path / "Bob.xlsx"
    shutil.copy(french_game.outbox("5001") / "Bob.xlsx", bobs)
    text = _reply(french_game, tmp_path, "anne@example.com", "Bob.xlsx", bobs.read_bytes())
    assert "est la feuille d'ordres de Bob" in text
    assert "each player sends their own sheet" not in text
    annes = tmp_path / "Anne.xlsx"
    shutil.copy(french_game.outbox("5001") / "Anne.xlsx", annes)
    english = _reply(french_game, tmp_path, "bob@example.com", "Anne.xlsx", annes.read_bytes())
    assert "is Anne's turn sheet" in english and "each player sends their own sheet" in english


# -- the last refusals that were English only, on a French Millenium game -------------------


@pytest.fixture
def millenium_game(tmp_path: Path) -> Game:
    """A Millenium game, French by default: Ivo reads French, Vera English."""
    players = [
        PlayerSetup("Ivo", "ivo@example.org", "empire"),
        PlayerSetup("Vera", "vera@example.org", "extraterrestre", language="en"),
    ]
    game = Game.create(tmp_path / "orion", find_ruleset("millenium"), players, seed=5)
    write_sheets(game, game.load_state())
    return game


def _ivos_sheet(game: Game) -> Path:
    step = game.step(game.load_state()).key
    return game.outbox(step) / sheet_filename("Ivo")


def _with_part(sheet: Path, part: str, content: bytes) -> bytes:
    """The sheet's bytes with one part of its zip container replaced."""
    out = io.BytesIO()
    with zipfile.ZipFile(sheet) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for info in source.infolist():
            zf.writestr(info, content if info.filename == part else source.read(info))
    return out.getvalue()


def _plain_workbook(sheets: int) -> bytes:
    book = openpyxl.Workbook()
    for n in range(1, sheets):
        book.create_sheet(f"S{n}")
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _workbook_xml(sheet: Path) -> bytes:
    with zipfile.ZipFile(sheet) as zf:
        return zf.read("xl/workbook.xml")


@pytest.mark.parametrize(
    ("make", "french", "english"),
    [
        (
            lambda sheet: _plain_workbook(51),
            "Ivo.xlsx a 51 feuilles de calcul (une feuille d'ordres en a 4, la limite est 50), "
            "bien plus qu'une feuille d'ordres ; envoyez la feuille d'ordres que vous avez reçue",
            "far more than a turn sheet",
        ),
        (
            lambda sheet: _with_part(
                sheet,
                "xl/workbook.xml",
                b'<?xml version="1.0"?><!DOCTYPE workbook [<!ENTITY a "aaaa">]>'
                + _workbook_xml(sheet).split(b"?>", 1)[1],
            ),
            "Ivo.xlsx contient des déclarations de type de document XML (partie "
            "xl/workbook.xml), qu'aucun tableur n'écrit et qui peuvent cacher des attaques",
            "document type declarations",
        ),
        (
            lambda sheet: _with_part(sheet, "xl/workbook.xml", b"<workbook><sheets><sheet"),
            "Ivo.xlsx n'a pas pu être lu comme classeur Excel (",
            "could not be read as an Excel workbook",
        ),
        (
            lambda sheet: _plain_workbook(1),
            "Ivo.xlsx est un classeur mais pas une feuille d'ordres refassist (il n'a pas "
            "d'onglet ",
            "is a workbook but not a refassist turn sheet",
        ),
    ],
    ids=["too-many-worksheets", "dtd", "not-excel", "not-a-turn-sheet"],
)
def test_a_french_millenium_player_reads_the_refusal_in_french(
    millenium_game: Game, tmp_path: Path, make: Any, french: str, english: str
) -> None:
    data = make(_ivos_sheet(millenium_game))
    text = _reply(millenium_game, tmp_path, "ivo@example.org", "Ivo.xlsx", data)
    assert french in text, text
    assert english not in text, text
    # The same file from an English player is refused in English.
    vera = _reply(millenium_game, tmp_path, "vera@example.org", "Ivo.xlsx", data)
    assert english in vera, vera


def test_a_french_player_reads_in_french_that_a_huge_attachment_was_not_kept(
    millenium_game: Game, tmp_path: Path
) -> None:
    huge = b"PK\x03\x04" + bytes(21 * 1024 * 1024)
    mail = write_eml(
        tmp_path / "huge.eml",
        make_mail("ivo@example.org", [("Ivo.xlsx", huge)]),
    )
    [outcome] = intake(millenium_game, [mail]).outcomes
    assert outcome.reply is not None, outcome.summary
    text = " ".join(reply_text(outcome.reply).split())
    assert "le message ne contient aucune feuille d'ordres en pièce jointe" in text, text
    assert (
        "la pièce jointe Ivo.xlsx fait 21 MB, bien plus qu'une feuille d'ordres ; elle n'a pas "
        "été gardée"
    ) in text, text
    assert "far more than a turn sheet" not in text and "no turn sheet attached" not in text


def test_a_french_player_reads_in_french_what_was_not_read_in_his_zip(
    millenium_game: Game, tmp_path: Path
) -> None:
    """The notes on what a zip carried (a file that is no sheet, an encrypted sheet) reach a
    French player in French, as the notes on a mail's own attachments do."""
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("carte.png", b"\x89PNG not a sheet")
        archive.writestr("Ivo.xlsx", b"PK pretend")
    data = bytearray(packed.getvalue())
    # Mark the sheet's entry encrypted (general purpose flag bit 0) in the central directory,
    # which is what zipfile reads back.
    central = data.rfind(b"PK\x01\x02")
    while central >= 0:
        name_len = int.from_bytes(data[central + 28 : central + 30], "little")
        if data[central + 46 : central + 46 + name_len] == b"Ivo.xlsx":
            data[central + 8] |= 0x1
        central = data.rfind(b"PK\x01\x02", 0, central)
    mail = write_eml(
        tmp_path / "zipped.eml",
        make_mail("ivo@example.org", [("ordres.zip", bytes(data))]),
    )
    [outcome] = intake(millenium_game, [mail]).outcomes
    assert outcome.reply is not None, outcome.summary
    text = " ".join(reply_text(outcome.reply).split())
    assert "Ivo.xlsx dans ordres.zip est chiffré ; envoyez la feuille sans mot de passe" in text
    assert "dans ordres.zip, pas une feuille d'ordres, non lu : carte.png" in text, text
    assert "encrypted" not in text and "not read" not in text, text
