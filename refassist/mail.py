"""E-mail out: building ``.eml`` files with attachments and sending them over SMTP.

Replies to players (intake) and report mailings share these helpers.  Messages are built with
the standard library's ``email`` package in its modern policy, so headers are encoded
correctly whatever the player's name, and written as ``.eml`` files a referee can open, check
and send from their own mail program, or sent directly with ``--smtp HOST:PORT``.
"""

from __future__ import annotations

import mimetypes
import smtplib
from collections.abc import Iterable, Sequence
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from pathlib import Path

from .atomic import write_bytes
from .errors import UsageError

XLSX_TYPE = ("application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def build_message(
    *,
    sender: str,
    to: str,
    subject: str,
    body: str,
    attachments: Sequence[Path] = (),
    to_name: str = "",
    sender_name: str = "Referee",
) -> EmailMessage:
    """A plain-text message with files attached (type guessed from the name)."""
    msg = EmailMessage()
    msg["From"] = formataddr((sender_name, sender))
    msg["To"] = formataddr((to_name, to)) if to_name else to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=sender.split("@")[-1] or "refassist.invalid")
    msg.set_content(body)
    for path in attachments:
        path = Path(path)
        if path.suffix.lower() == ".xlsx":
            maintype, subtype = XLSX_TYPE
        else:
            guessed, _ = mimetypes.guess_type(path.name)
            maintype, subtype = (guessed or "application/octet-stream").split("/", 1)
        msg.add_attachment(
            path.read_bytes(), maintype=maintype, subtype=subtype, filename=path.name
        )
    return msg


def write_eml(path: Path, message: EmailMessage) -> None:
    """Write a message as an ``.eml`` file, atomically."""
    write_bytes(Path(path), bytes(message))


def parse_smtp_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` from the command line."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise UsageError(f"--smtp {text!r} must be HOST:PORT, e.g. 127.0.0.1:1025")
    return host, int(port)


def send_messages(server: str, messages: Iterable[EmailMessage], timeout: float = 30.0) -> int:
    """Send messages through one SMTP connection; returns how many were sent."""
    host, port = parse_smtp_address(server)
    sent = 0
    try:
        with smtplib.SMTP(host, port, timeout=timeout) as smtp:
            for message in messages:
                smtp.send_message(message)
                sent += 1
    except (OSError, smtplib.SMTPException) as exc:
        raise UsageError(f"cannot send mail through {server}: {exc} ({sent} sent before)") from exc
    return sent
