"""A French player's intake reply gives the reason of a refusal in French (issue 53): real
.eml files from the player's address, filed by the intake, the reply read back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets
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
    assert "est la feuille de tour de Bob" in text
    assert "each player sends their own sheet" not in text
    annes = tmp_path / "Anne.xlsx"
    shutil.copy(french_game.outbox("5001") / "Anne.xlsx", annes)
    english = _reply(french_game, tmp_path, "bob@example.com", "Anne.xlsx", annes.read_bytes())
    assert "is Anne's turn sheet" in english and "each player sends their own sheet" in english
