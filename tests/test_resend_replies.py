"""An intake reply sent again by the player's name, and `status` that speaks of a player's
own sheets only (issue 53).  Real .eml files filed by the intake, sent through a real SMTP
relay on 127.0.0.1, the command line as the referee types it."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from aiosmtpd.controller import Controller
from click.testing import CliRunner

from refassist.cli import main
from refassist.intake.inbox import intake, status
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets
from tests.mailservers import SmtpInbox, free_port
from tests.test_intake import DEADLINE, ON_TIME, filled_sheet, make_mail, write_eml

#: After the first sheets, before the deadline.
LATER = datetime(2030, 1, 3, 12, 0, tzinfo=UTC)


def _game(tmp_path: Path) -> Game:
    names = ["Ann", "Ann-Marie", "Bob"]
    game = Game.create(
        tmp_path / "game",
        find_ruleset("fifth-millennium"),
        [PlayerSetup(n, f"{n.lower()}@example.com") for n in names],
        seed=5,
        generate_seed=42,
        assign_homeworlds=True,
        first_deadline=DEADLINE,
        referee_email="ref@pbm.example.org",
    )
    write_sheets(game, game.load_state())
    return game


def _mail(
    game: Game, tmp_path: Path, sender: str, sheet: Path, name: str, when: datetime = ON_TIME
) -> None:
    mail = make_mail(sender, [(sheet.name, sheet.read_bytes())], when=when)
    intake(game, [write_eml(tmp_path / f"{name}.eml", mail)])


def test_resend_by_a_players_name_sends_their_intake_replies_again(tmp_path: Path) -> None:
    game = _game(tmp_path)
    for player in ("Ann", "Ann-Marie"):
        sheet = filled_sheet(game, player, tmp_path, name=f"{player}.xlsx")
        _mail(game, tmp_path, f"{player.lower()}@example.com", sheet, player)
    replies = sorted(p.name for p in (game.outbox("5001") / "replies").glob("*.eml"))
    assert len(replies) == 2, replies
    inbox = SmtpInbox()
    relay = Controller(inbox, hostname="127.0.0.1", port=free_port())
    relay.start()
    try:
        send = ["send", str(game.path), "--smtp", f"127.0.0.1:{relay.port}"]
        first = CliRunner().invoke(main, send)
        assert first.exit_code == 0, first.output
        assert "2 sent" in first.output
        again = CliRunner().invoke(main, [*send, "--resend", "Ann"])
    finally:
        relay.stop()
    assert again.exit_code == 0, again.output
    assert "1 sent through" in again.output, again.output
    recipients = [r for _, rcpts, _ in inbox.received for r in rcpts]
    assert recipients.count("ann@example.com") == 2
    assert recipients.count("ann-marie@example.com") == 1  # not Ann's, though named "Ann-..."


def test_status_speaks_of_a_players_own_later_sheets_only(tmp_path: Path) -> None:
    game = _game(tmp_path)
    ann = filled_sheet(game, "Ann", tmp_path, name="Ann.xlsx")
    _mail(game, tmp_path, "ann@example.com", ann, "ann")
    # Ann forwards Bob's sheet from her own address: refused, and the reply goes to her.
    bobs = tmp_path / "Bob.xlsx"
    shutil.copy(game.outbox("5001") / "Bob.xlsx", bobs)
    _mail(game, tmp_path, "ann@example.com", bobs, "fwd", when=LATER)
    rows = {row.player: row for row in status(game).players}
    assert rows["Ann"].state == "accepted"
    assert "a later sheet had problems" not in rows["Ann"].detail
    # Her own later sheet with problems is still named.
    bad = filled_sheet(game, "Ann", tmp_path, bad=True, name="Ann-again.xlsx")
    _mail(game, tmp_path, "ann@example.com", bad, "ann-bad", when=LATER)
    detail = {row.player: row for row in status(game).players}["Ann"].detail
    assert "a later sheet had problems (Ann-again.xlsx)" in detail
