"""Intake straight from an IMAP folder on a real Dovecot server (127.0.0.1, a throw-away
configuration and a self-signed certificate; `tests.mailservers`): filed as a saved mailbox
would be, marked once filed, a second run a no-op, a killed run neither loses nor duplicates."""

from __future__ import annotations

import imaplib
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from refassist.cli import main
from refassist.intake.imap_intake import FILED_KEYWORD, ImapFolder
from refassist.store.game import Game
from refassist.store.inbox_index import accepted_sheets
from tests.mailservers import PASSWORD, ImapServer, dovecot_binary, imap_server, smtp_server
from tests.test_intake import filled_sheet, make_mail
from tests.test_intake import game as game
from tests.test_mail_sending import REFEREE, with_referee

pytestmark = pytest.mark.skipif(
    dovecot_binary() is None and not os.environ.get("CI_REQUIRE_MAILSERVERS"),
    reason="dovecot-imapd is not installed (scripts/test installs it)",
)


# Dovecot keeps an APPEND's arrival time only when it is not in the future: past times here.
EARLIER = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
ON_TIME = datetime(2025, 1, 2, 12, 0, tzinfo=UTC)
LATE = datetime(2025, 1, 7, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def dovecot() -> Iterator[ImapServer]:
    with imap_server() as server:
        yield server


@pytest.fixture
def folder(dovecot: ImapServer) -> str:
    """A folder of its own for each test."""
    name = f"Turns-{uuid.uuid4().hex[:8]}"
    client = dovecot.client()
    assert client.create(name)[0] == "OK"
    client.logout()
    return name


def deliver(server: ImapServer, folder: str, msg: EmailMessage, arrived: datetime) -> None:
    """Put a message in the folder as the server received it at ``arrived``."""
    client = server.client()
    status, _ = client.append(folder, None, imaplib.Time2Internaldate(arrived), bytes(msg))
    assert status == "OK"
    client.logout()


def flags(server: ImapServer, folder: str) -> dict[int, str]:
    """Each message's flags, by UID."""
    client = server.client()
    client.select(folder, readonly=True)
    _, data = client.uid("FETCH", "1:*", "(UID FLAGS)")
    client.logout()
    out = {}
    for line in data:
        if isinstance(line, bytes):
            text = line.decode()
            uid = int(text.split("UID ")[1].split()[0].rstrip(")"))
            out[uid] = text.split("FLAGS (")[1].split(")")[0]
    return out


def intake_cli(game: Game, *args: str, password: str = PASSWORD) -> Result:
    return CliRunner().invoke(
        main,
        ["intake", str(game.path), *args],
        env={"REFASSIST_IMAP_PASSWORD": password, "REFASSIST_SMTP_PASSWORD": PASSWORD},
    )


def index_entries(game: Game) -> list[dict]:
    return json.loads((game.inbox("5001") / "index.json").read_text())["entries"]


def week_of_mail(game: Game, server: ImapServer, folder: str, tmp_path: Path) -> None:
    """Ann's good sheet, Bob's sheet with a problem, a stranger's message."""
    ann = filled_sheet(game, "Ann", tmp_path)
    bob = filled_sheet(game, "Bob", tmp_path, bad=True)
    deliver(server, folder, make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())]), EARLIER)
    deliver(server, folder, make_mail("bob@example.com", [("Bob.xlsx", bob.read_bytes())]), ON_TIME)
    deliver(server, folder, make_mail("spam@example.net", [], subject="offer"), ON_TIME)


def test_imap_intake_files_marks_and_a_second_run_takes_nothing(
    game: Game,
    dovecot: ImapServer,
    folder: str,
    tmp_path: Path,
) -> None:
    week_of_mail(game, dovecot, folder, tmp_path)
    url = dovecot.url(folder)
    result = intake_cli(game, "--imap", url, "--ca-file", str(dovecot.ca_file))
    assert result.exit_code == 1, result.output  # Bob's problems and the stranger
    assert "accepted   Ann" in result.output
    assert "problems   Bob" in result.output
    assert "spam@example.net, who is not a player" in result.output
    assert set(accepted_sheets(game, "5001")) == {"Ann"}
    entries = index_entries(game)
    assert [e["source"]["kind"] for e in entries] == ["imap", "imap", "imap"]
    assert entries[0]["source"]["path"].startswith(f"imaps://referee@127.0.0.1:{dovecot.tls_port}")
    assert entries[0]["received"] == EARLIER.isoformat()
    # Each message is flagged as filed and left unread, as the referee's mail program had it.
    marks = flags(dovecot, folder)
    assert sorted(marks) == [1, 2, 3]
    assert all(FILED_KEYWORD in f and "\\Seen" not in f for f in marks.values())
    # Replies are written (Ann, Bob) for --send or `refassist send`.
    assert len(list((game.outbox("5001") / "replies").glob("*.eml"))) == 2

    again = intake_cli(game, "--imap", url, "--ca-file", str(dovecot.ca_file))
    assert again.exit_code == 0, again.output
    assert "Intake for 5001: 0 items" in again.output
    assert len(index_entries(game)) == 3


def test_lateness_is_judged_by_the_servers_arrival_time(
    game: Game,
    dovecot: ImapServer,
    folder: str,
    tmp_path: Path,
) -> None:
    # The deadline is 2025-01-05 21:00; the player's own Date: header says the mail was
    # written on time, but the server received it two days late.
    path = game.path / "game.toml"
    text = path.read_text()
    path.write_text(text.replace("first_deadline = 2030-01-05", "first_deadline = 2025-01-05"))
    game = Game.open(game.path)
    ann = filled_sheet(game, "Ann", tmp_path)
    deliver(
        dovecot,
        folder,
        make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())], when=ON_TIME),
        LATE,
    )
    result = intake_cli(game, "--imap", dovecot.url(folder), "--ca-file", str(dovecot.ca_file))
    assert result.exit_code == 0, result.output
    assert "late       Ann" in result.output
    assert index_entries(game)[0]["received"] == LATE.isoformat()


KILLER = """
import os, signal, sys
from refassist.store.game import Game
from refassist.intake.imap_intake import ImapFolder, intake_imap
from refassist.mail.mailserver import parse_server

def mark_filed(self, uid):  # the process dies after filing the second message, before marking
    if uid == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    original(self, uid)

original = ImapFolder.mark_filed
ImapFolder.mark_filed = mark_filed
game = Game.open(sys.argv[1])
intake_imap(game, parse_server(sys.argv[2], "imap", "--imap"), ca_file=sys.argv[3])
"""


def test_an_intake_killed_midway_neither_loses_nor_duplicates(
    game: Game,
    dovecot: ImapServer,
    folder: str,
    tmp_path: Path,
) -> None:
    week_of_mail(game, dovecot, folder, tmp_path)
    url = dovecot.url(folder)
    killed = subprocess.run(
        [sys.executable, "-c", KILLER, str(game.path), url, str(dovecot.ca_file)],
        env={**os.environ, "REFASSIST_IMAP_PASSWORD": PASSWORD},
        capture_output=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert killed.returncode == -9, killed.stderr.decode()
    marks = flags(dovecot, folder)
    assert FILED_KEYWORD in marks[1] and FILED_KEYWORD not in marks[2]
    assert len(index_entries(game)) == 2  # Ann's and Bob's filed; the stranger's not yet

    rerun = intake_cli(game, "--imap", url, "--ca-file", str(dovecot.ca_file))
    assert "1 message filed by an earlier run that stopped before marking" in rerun.output
    entries = index_entries(game)
    assert [e["source"]["path"].rsplit(":", 1)[1] for e in entries] == ["1", "2", "3"]
    assert [e["status"] for e in entries] == ["accepted", "problems", "refused"]
    assert all(FILED_KEYWORD in f for f in flags(dovecot, folder).values())


@pytest.mark.parametrize("move", [True, False], ids=["MOVE", "COPY-then-UID-EXPUNGE"])
def test_filed_mail_can_be_moved_to_a_folder_instead(
    game: Game,
    dovecot: ImapServer,
    folder: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    move: bool,
) -> None:
    if not move:  # a server without MOVE (RFC 6851) but with UIDPLUS: copy, delete, expunge
        select = ImapFolder._select

        def without_move(self: ImapFolder) -> None:
            self.capabilities.discard("MOVE")
            select(self)

        monkeypatch.setattr(ImapFolder, "_select", without_move)
    filed = f"{folder}-filed"
    client = dovecot.client()
    client.create(filed)
    client.logout()
    game = with_referee(game, imap=dovecot.url(folder), filed_folder=filed)
    week_of_mail(game, dovecot, folder, tmp_path)
    result = intake_cli(game, "--imap", "--ca-file", str(dovecot.ca_file))
    assert "accepted   Ann" in result.output, result.output
    assert "problems   Bob" in result.output
    assert flags(dovecot, folder) == {}
    assert len(flags(dovecot, filed)) == 3


def test_dry_run_lists_and_changes_nothing(
    game: Game,
    dovecot: ImapServer,
    folder: str,
    tmp_path: Path,
) -> None:
    week_of_mail(game, dovecot, folder, tmp_path)
    result = intake_cli(
        game, "--imap", dovecot.url(folder), "--ca-file", str(dovecot.ca_file), "--dry-run"
    )
    assert result.exit_code == 0, result.output
    assert "3 messages waiting in imaps://referee@127.0.0.1" in result.output
    assert f"{EARLIER.isoformat()}  ann@example.com  orders" in result.output
    assert all(FILED_KEYWORD not in f for f in flags(dovecot, folder).values())
    assert not (game.inbox("5001") / "index.json").exists()


def test_starttls_wrong_password_and_untrusted_certificate(
    game: Game,
    dovecot: ImapServer,
    folder: str,
) -> None:
    plain = dovecot.url(folder, implicit_tls=False)
    ok = intake_cli(game, "--imap", plain, "--ca-file", str(dovecot.ca_file))
    assert ok.exit_code == 0, ok.output
    assert "Intake for 5001: 0 items" in ok.output
    wrong = intake_cli(
        game, "--imap", plain, "--ca-file", str(dovecot.ca_file), password="wrong-pass-42"
    )
    assert wrong.exit_code == 2
    assert "127.0.0.1 refused the login of referee" in wrong.output
    assert "wrong-pass-42" not in wrong.output and PASSWORD not in wrong.output
    untrusted = intake_cli(game, "--imap", dovecot.url(folder))
    assert untrusted.exit_code == 2
    assert "certificate of 127.0.0.1 is not trusted" in untrusted.output
    missing = intake_cli(
        game, "--imap", dovecot.url("NoSuchFolder"), "--ca-file", str(dovecot.ca_file)
    )
    assert missing.exit_code == 2 and "has no folder 'NoSuchFolder'" in missing.output


def test_intake_send_answers_at_once(
    game: Game,
    dovecot: ImapServer,
    folder: str,
    tmp_path: Path,
) -> None:
    with smtp_server(tmp_path / "smtp") as smtp:
        game = with_referee(game, smtp=smtp.url())
        week_of_mail(game, dovecot, folder, tmp_path)
        # One CA file for both test servers' certificates, as a self-hosting referee has.
        both = tmp_path / "both.pem"
        both.write_text(dovecot.ca_file.read_text() + smtp.ca_file.read_text())
        result = intake_cli(game, "--imap", dovecot.url(folder), "--ca-file", str(both), "--send")
        assert "Replies:" in result.output, result.output
        assert "2 sent through smtp://referee@127.0.0.1" in result.output
        to = sorted(r for _, rcpts, _ in smtp.inbox.received for r in rcpts)
        assert to == ["ann@example.com", "bob@example.com"]
        assert all(sender == REFEREE for sender, _, _ in smtp.inbox.received)
