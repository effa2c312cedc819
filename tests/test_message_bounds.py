"""What one player's messages may cost everyone else's report, and how they are shown.

Ten messages of mostly blank lines once made a 6-page report 317 pages long.  Real sheets,
intake replies, resolution and PDFs read back with pypdf.
"""

from __future__ import annotations

import email
import shutil
from email import policy
from pathlib import Path

import openpyxl
from pypdf import PdfReader

from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.rulesets.fifth_millennium import sheet as layout
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets
from refassist.text.message_text import (
    MAX_LINES_PER_MESSAGE,
    MAX_LINES_PER_SENDER,
    MessageBudget,
    escaped,
)
from refassist.turns import resolve_game
from tests.conftest import players

#: A message as hostile as the sheet allows: 2000 characters, nearly all new lines.
FLOOD = (("spam\n" + "\n" * 60) * 32)[:2000]


def test_blank_runs_fold_and_long_messages_are_cut() -> None:
    budget = MessageBudget()
    shaped = budget.shape("Hello\n\n\n\n\nBob")
    assert shaped.text == "Hello\n\nBob"
    assert shaped.cuts == ["3 blank lines in a row were removed"]
    long = budget.shape("\n".join(f"line {n}" for n in range(100)))
    assert long.text.count("\n") + 1 == MAX_LINES_PER_MESSAGE
    assert f"only the first {MAX_LINES_PER_MESSAGE} of its 100 printed lines" in long.cuts[0]
    # The sender's allowance is shared by every message of the turn.
    rest = budget.shape("\n".join(f"more {n}" for n in range(100)))
    left = MAX_LINES_PER_SENDER - 3 - MAX_LINES_PER_MESSAGE
    assert rest.text.count("\n") + 1 == left
    assert f"{left} were left" in rest.cuts[0]
    assert budget.shape("anything").text == ""


def test_a_long_line_counts_the_lines_it_wraps_to() -> None:
    shaped = MessageBudget().shape("x" * 5000)
    assert len(shaped.text) == MAX_LINES_PER_MESSAGE * 100


def test_invisible_and_direction_characters_are_shown_escaped_not_removed() -> None:
    assert escaped("pay \u202e001 stnioP") == "pay \\u202e001 stnioP"
    assert escaped("a\u200bb\tc\nd") == "a\\u200bb\tc\nd"
    assert MessageBudget().shape("hi \u2066there\u2069").text == "hi \\u2066there\\u2069"


def _game(tmp_path: Path, name: str) -> Game:
    game = Game.create(
        tmp_path / name,
        find_ruleset("fifth-millennium"),
        players(3),
        seed=11,
        generate_seed=42,
        assign_homeworlds=True,
    )
    write_sheets(game, game.load_state())
    return game


def _send(game: Game, tmp_path: Path, texts: list[str]) -> Path:
    """Ann fills the message rows and files the sheet; returns the reply she gets."""
    sheet = game.outbox("5001") / sheet_filename("Ann")
    filled = tmp_path / "mail" / game.path.name / sheet.name
    filled.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(sheet, filled)
    wb = openpyxl.load_workbook(filled)
    ws = wb["Orders"]
    for i, text in enumerate(texts):
        ws[f"{layout.MSG_TO_COL}{layout.MSG_FIRST_ROW + i}"] = "*"
        ws[f"{layout.MSG_TEXT_COL}{layout.MSG_FIRST_ROW + i}"] = text
    wb.save(filled)
    report = intake(game, [filled])
    [outcome] = report.outcomes
    assert outcome.status == "accepted", outcome.summary
    assert outcome.reply is not None
    return outcome.reply


def _pages_and_text(game: Game, reader: str) -> tuple[int, str]:
    resolve_game(game, force=True)
    run = write_reports(game, jobs=1)
    pdf = next(r.path for r in run.reports if r.reader == reader)
    pages = PdfReader(pdf).pages
    return len(pages), " ".join(page.extract_text() for page in pages)


def test_a_flood_of_messages_costs_the_readers_at_most_a_few_pages(tmp_path: Path) -> None:
    quiet = _game(tmp_path, "quiet")
    _send(quiet, tmp_path, ["Greetings from Ann."])
    quiet_pages, _ = _pages_and_text(quiet, "Bob")

    loud = _game(tmp_path, "loud")
    reply = _send(loud, tmp_path, [FLOOD] * layout.MSG_ROWS)
    loud_pages, text = _pages_and_text(loud, "Bob")

    assert loud_pages <= quiet_pages + 2, (quiet_pages, loud_pages)
    assert text.count("spam") <= MAX_LINES_PER_SENDER
    body = email.message_from_bytes(reply.read_bytes(), policy=policy.default)
    said = " ".join(body.get_body(preferencelist=("plain",)).get_content().split())
    assert "the message was shortened for its readers" in said
    assert "blank lines in a row were removed" in said
    assert f"all your messages of a turn print at most {MAX_LINES_PER_SENDER} lines" in said


def test_a_direction_override_reaches_the_reader_escaped(tmp_path: Path) -> None:
    game = _game(tmp_path, "bidi")
    _send(game, tmp_path, ["I will pay you \u202e001\u202c points"])
    _, text = _pages_and_text(game, "Bob")
    assert "\\u202e001\\u202c" in text.replace("\n", "")
