"""Report mailings: one ``.eml`` per player with the PDF and the next sheet, and SMTP sending
to a real server (aiosmtpd) listening on 127.0.0.1 for the length of the test (a plain relay
here; TLS, login and the record of what was sent: test_mail_sending.py)."""

from __future__ import annotations

import email
import socket
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from pypdf import PdfReader

from refassist.errors import UsageError
from refassist.report.game_reports import write_reports
from refassist.text.i18n import words_for
from tests.test_mail_sending import with_referee
from tests.test_report_content import YEAR, report_game

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _attachments(message: EmailMessage) -> dict[str, tuple[str, bytes]]:
    return {
        part.get_filename(): (part.get_content_type(), part.get_payload(decode=True))
        for part in message.iter_attachments()
    }


def test_mail_writes_one_eml_per_player_with_pdf_and_sheet(tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    run = write_reports(game, jobs=1, mail=True)
    folder = game.outbox(str(YEAR)) / "mail"
    assert sorted(p.name for p in folder.iterdir()) == ["Ann.eml", "Bob.eml", "Cleo.eml"]
    for player in ("Ann", "Bob", "Cleo"):
        raw = (folder / f"{player}.eml").read_bytes()
        message = email.message_from_bytes(raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        assert message["To"] == f"{player} <{player.lower()}@example.com>"
        assert message["From"] == f"Referee of game <{game.config.referee_email}>"
        # The steps by name (an archive without a manifest names the resolved one by its key).
        assert f"results of {YEAR - 1}, sheet for Year {YEAR} ({player})" in message["Subject"]
        body = message.get_body(("plain",))
        assert (
            body is not None
            and words_for().orders_due(game.deadline_text(str(YEAR))) in body.get_content()
        )
        files = _attachments(message)
        assert set(files) == {f"{player}.pdf", f"{player}.xlsx"}
        assert files[f"{player}.pdf"][0] == "application/pdf"
        assert files[f"{player}.pdf"][1] == (game.outbox(str(YEAR)) / f"{player}.pdf").read_bytes()
        assert files[f"{player}.xlsx"][0] == XLSX
        assert files[f"{player}.xlsx"][1][:2] == b"PK"
    # Nobody gets the referee's report.
    assert all("referee.pdf" not in _attachments(m.message) for m in run.mailings)


class _Inbox:
    """aiosmtpd handler keeping every message it is given."""

    def __init__(self) -> None:
        self.received: list[tuple[str, list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp_server():  # type: ignore[no-untyped-def]
    inbox = _Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield inbox, f"127.0.0.1:{controller.port}"
    finally:
        controller.stop()


def test_smtp_sends_every_message(tmp_path: Path, smtp_server) -> None:  # type: ignore[no-untyped-def]
    inbox, address = smtp_server
    game, _ = report_game(tmp_path / "game")
    game = with_referee(game)  # nothing is sent from the placeholder address
    run = write_reports(game, jobs=1, smtp=address)
    assert run.sent == 3
    assert sorted(rcpt[0] for _, rcpt, _ in inbox.received) == [
        "ann@example.com",
        "bob@example.com",
        "cleo@example.com",
    ]
    for sender, rcpt, content in inbox.received:
        assert sender == game.config.referee_email
        message = email.message_from_bytes(content, policy=policy.default)
        player = rcpt[0].split("@")[0].capitalize()
        files = _attachments(message)
        assert set(files) == {f"{player}.pdf", f"{player}.xlsx"}
        pdf = tmp_path / f"{player}-received.pdf"
        pdf.write_bytes(files[f"{player}.pdf"][1])
        assert f"Turn report for {player}" in PdfReader(pdf).pages[0].extract_text()


def test_smtp_failure_is_one_clear_error(tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    game = with_referee(game)
    port = _free_port()  # nothing listens there
    with pytest.raises(UsageError, match=rf"cannot send mail through 127.0.0.1:{port}"):
        write_reports(game, jobs=1, smtp=f"127.0.0.1:{port}")
    # The messages were written before sending failed, so the referee can send them by hand.
    assert len(list((game.outbox(str(YEAR)) / "mail").glob("*.eml"))) == 3


def test_a_mail_with_no_sheet_says_nothing_is_due() -> None:
    """After a step that waits for the referee (battles at the table) a player's report goes
    out without a sheet: the mail must not ask for orders or name a sheet."""
    from refassist.report.mailing import report_body, report_subject

    body = report_body("Marches", "Ann", "4-battles", "Fri 27 Nov 2026 18:00", None, "4")
    assert "No sheet is due from you for 4-battles" in body and "Orders" not in body
    assert report_subject("Marches", "Ann", "4-battles", "4", with_sheet=False) == (
        "Marches: results of 4 (Ann)"
    )
    assert "sheet for 5" in report_subject("Marches", "Ann", "5", "4")


def test_a_written_message_is_what_the_email_package_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`write_eml` puts each attachment's base64 in place itself (the ``email`` package writes
    it a line at a time, 60 ms a report): the file must be the package's own, byte for byte,
    whatever the attachment's size."""
    import random

    from refassist.mail import messages as mail

    monkeypatch.setattr(
        mail, "formatdate", lambda localtime=False: "Thu, 26 Nov 2026 12:00:00 -0000"
    )
    monkeypatch.setattr(mail, "make_msgid", lambda domain="": "<1@example.org>")
    files = []
    for name, size in (("Ann.pdf", 1_000_003), ("Ann.xlsx", 57 * 3), ("empty.pdf", 0)):
        path = tmp_path / name
        path.write_bytes(random.Random(size).randbytes(size))
        files.append(path)
    fields: dict[str, Any] = dict(
        sender="referee@example.org",
        to="ann@example.com",
        to_name="Ann Ó'Brien",
        subject="Game: results of 5021, sheet for 5022 (Ann)",
        body="Your report and sheet are attached.\n",
    )
    random.seed(7)  # the MIME boundary
    mail.write_eml(tmp_path / "package.eml", mail.build_message(**fields, attachments=files))
    random.seed(7)
    mail.write_eml(tmp_path / "ours.eml", mail.build_message(**fields), files)
    ours = (tmp_path / "ours.eml").read_bytes()
    assert ours == (tmp_path / "package.eml").read_bytes()
    message = email.message_from_bytes(ours, policy=policy.default)
    assert isinstance(message, EmailMessage)
    got = _attachments(message)
    assert [got[p.name][1] for p in files] == [p.read_bytes() for p in files]
