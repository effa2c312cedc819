"""Sending what waits in the outbox, once: reports' mail and the intake's replies.

``report --mail`` writes ``outbox/<step>/mail/<player>.eml``, the intake writes
``outbox/<step>/replies/*.eml`` and ``refassist watch`` its reminders and the referee's mail in
``outbox/<step>/watch/*.eml``; `send_waiting` sends them through the referee's SMTP server
(`mailserver.ServerURL`, with TLS and login) and records each message sent in
``outbox/<step>/.sent.json`` (file, its SHA-256, recipients, time, server) the moment the
server has taken it, written atomically.  So:

* nothing goes twice: a file recorded as sent is not sent again, and a file changed since it
  was sent (a report written again after a correction) waits for the referee's ``--resend``;
* a failure midway (a dropped connection, a full disk) loses nothing: what was sent is
  recorded, the rest is still waiting, and the same command sends the rest;
* a recipient the server refuses is reported and left waiting; the other messages go.

A message from the placeholder address (``referee@example.invalid``) is never sent: players
could not answer it.  The one window left is a crash between the server's "250 OK" and the
record's rename, which can send that one message again: SMTP has no way to ask a server whether
it already took a message.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import smtplib
import ssl
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any

from refassist.atomic import read_record, write_text
from refassist.config import PLACEHOLDER_REFEREE_EMAIL, GameConfig
from refassist.errors import UsageError
from refassist.mail.mailserver import ServerURL, password_for, tls_context, tls_failure
from refassist.mail.messages import parse_message_bytes
from refassist.store.aside import ASIDE_DIR, stamp, unused
from refassist.store.game import Game
from refassist.store.inbox_index import Index
from refassist.store.recovery import working
from refassist.store.turnsheets import sheet_filename

SENT_RECORD = ".sent.json"
#: The outbox sub-folders whose ``.eml`` files are sent.
MAIL_FOLDERS = ("mail", "replies", "watch")

Progress = Callable[[int, int, str], None]
#: The prefix of a player's reminder in ``outbox/<step>/watch/`` (`watch.notices`).
REMINDER_PREFIX = "watch/reminder-"


def require_referee_address(config: GameConfig) -> None:
    """Refuse to send from the placeholder address: players' replies would go nowhere."""
    if not config.referee_email or config.referee_email == PLACEHOLDER_REFEREE_EMAIL:
        raise UsageError(
            "game.toml has no referee address to send from ([game] referee_email is "
            f"{config.referee_email or 'empty'}); set it to your own address (refassist new "
            "takes --referee-email) and write the mail again"
        )


def configured_ca_file(game: Game) -> Path | None:
    """``[mail] ca_file`` of ``game.toml`` (relative to the game folder), or None."""
    name = game.config.mail.ca_file
    return (game.path / Path(name).expanduser()) if name else None


# -- the record ------------------------------------------------------------------------------


def _record_path(folder: Path) -> Path:
    return folder / SENT_RECORD


def read_sent(folder: Path) -> dict[str, dict[str, Any]]:
    """``outbox/<step>/.sent.json``: file (relative to the step folder) -> what was sent."""
    path = _record_path(folder)
    if not path.is_file():
        return {}
    data = read_record(
        path,
        "it records which mail was sent, so nothing is sent until it is restored from a "
        "backup (or deleted, if you know what was sent)",
    )
    files = data.get("files", {}) if isinstance(data, dict) else {}
    return dict(files) if isinstance(files, dict) else {}


def _write_sent(folder: Path, files: dict[str, dict[str, Any]]) -> None:
    text = json.dumps({"files": files}, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_text(_record_path(folder), text)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- what waits ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outgoing:
    """One ``.eml`` of the outbox and whether it is due."""

    path: Path
    name: str  # relative to the step folder: mail/Ann.eml, replies/Ann-....eml
    recipients: tuple[str, ...]
    #: "" when due; else why it is not sent ("sent 2026-11-25T10:00:00+00:00", ...).
    held: str = ""


def outgoing(game: Game, step: str, resend: Iterable[str] = ()) -> list[Outgoing]:
    """Every ``.eml`` of ``outbox/<step>/mail`` and ``/replies``, oldest first, each with why it
    is held back if it is: already sent, changed since it was sent (unless named in
    ``resend``, by file name or player: a player's report mail and intake replies), or from
    the placeholder address."""
    folder = game.outbox(step)
    sent = read_sent(folder)
    again = {name.lower() for name in resend}
    out = []
    for sub in MAIL_FOLDERS:
        if not (folder / sub).is_dir():
            continue
        files = sorted((folder / sub).glob("*.eml"), key=lambda p: (p.stat().st_mtime, p.name))
        for path in files:
            name = f"{sub}/{path.name}"
            data = path.read_bytes()
            message = parse_message_bytes(data)
            recipients = tuple(
                addr for _, addr in getaddresses(message.get_all("To", []) or []) if addr
            )
            held = ""
            record = sent.get(name)
            wanted_again = {path.name.lower(), path.stem.lower(), name.lower()} & again
            if sub == "replies" and _players_of(game, recipients) & again:
                wanted_again = {path.stem.lower()}  # an intake reply, to the player named
            if record is not None and not wanted_again:
                if record.get("sha256") == _sha(data):
                    held = f"sent {record.get('sent', '')}"
                else:
                    held = (
                        f"written again since it was sent on {record.get('sent', '')}; "
                        f"--resend {path.stem} sends it again"
                    )
            elif parseaddr(str(message.get("From", "")))[1] == PLACEHOLDER_REFEREE_EMAIL:
                held = (
                    f"written from the placeholder address {PLACEHOLDER_REFEREE_EMAIL}; set "
                    "[game] referee_email in game.toml and write it again"
                )
            elif not recipients:
                held = "it has no recipient"
            out.append(Outgoing(path, name, recipients, held))
    return out


def _players_of(game: Game, recipients: Iterable[str]) -> set[str]:
    """The players (lower case) whose addresses ``recipients`` are: an intake reply goes to
    the address the sheet came from, one of its player's."""
    found = (game.config.player_for_address(address) for address in recipients)
    return {player.name.lower() for player in found if player is not None}


# -- sending ---------------------------------------------------------------------------------


@dataclass
class SendResult:
    """What one run sent, what the server refused, and what still waits."""

    server: str
    sent: list[Outgoing] = field(default_factory=list)
    refused: list[tuple[Outgoing, str]] = field(default_factory=list)
    held: list[Outgoing] = field(default_factory=list)
    dry_run: bool = False
    #: Reminders set aside, no longer true (`set_aside_stale_reminders`).
    set_aside: list[str] = field(default_factory=list)


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def connect(
    server: ServerURL, *, ca_file: Path | str | None = None, timeout: float = 30.0
) -> smtplib.SMTP:
    """An SMTP connection, encrypted and logged in as the URL says (a bare ``HOST:PORT`` relay:
    neither).  Every failure is a `UsageError` saying what to check; never the password."""
    context = tls_context(ca_file) if server.scheme != "relay" else None
    password = password_for(server) if server.user else ""
    try:
        if server.implicit_tls:
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                server.host, server.port, timeout=timeout, context=context
            )
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=timeout)
        try:
            smtp.ehlo()
            if server.starttls:
                if not smtp.has_extn("starttls"):
                    raise UsageError(
                        f"{server.host}:{server.port} does not offer STARTTLS; use smtps:// "
                        "(port 465) if the server has it, or ask your provider for the "
                        "submission server's address"
                    )
                smtp.starttls(context=context)
                smtp.ehlo()
            if server.user:
                smtp.login(server.user, password)
        except BaseException:
            smtp.close()
            raise
    except smtplib.SMTPAuthenticationError as exc:
        raise UsageError(
            f"{server.host} refused the login of {server.user} ({exc.smtp_code} "
            f"{_text(exc.smtp_error)}); check the password (docs/mail.md)"
        ) from None
    except ssl.SSLError as exc:
        raise UsageError(f"cannot send mail: {tls_failure(server, exc)}") from None
    except (OSError, smtplib.SMTPException) as exc:
        raise UsageError(f"cannot send mail through {server}: {exc}") from None
    return smtp


def stale_reminders(game: Game, step: str, now: datetime) -> list[Path]:
    """The unsent reminders of ``step`` that are no longer true at ``now``: the step's deadline
    has passed, or the player reminded has an accepted sheet since.  A reminder is decided
    before it is sent (`watch.notices`); between the two, a round may stop or the referee may
    run ``send`` days later, and a player must not be told to send what they sent."""
    folder = game.outbox(step)
    if not (folder / "watch").is_dir():
        return []
    sent = read_sent(folder)
    deadline = game.deadline(step)
    past = deadline is not None and now >= deadline.astimezone()
    accepted = set(Index.of(game, step).accepted)
    of_file = {
        f"{REMINDER_PREFIX}{sheet_filename(p.name)[:-5]}.eml": p.name for p in game.config.players
    }
    out = []
    for path in sorted((folder / "watch").glob("reminder-*.eml")):
        name = f"watch/{path.name}"
        if name in sent:
            continue
        if past or of_file.get(name) in accepted:
            out.append(path)
    return out


def set_aside_stale_reminders(game: Game, step: str, now: datetime) -> list[str]:
    """Move each of `stale_reminders` to ``rolled-back/<time>/outbox/<step>/watch/`` (never
    deleted, as `outbox.set_aside_stale` does with stale reports); returns their names.  The
    caller holds the game lock."""
    stale = stale_reminders(game, step, now)
    if not stale:
        return []
    aside = unused(game.path / ASIDE_DIR / stamp(now)) / "outbox" / step / "watch"
    aside.mkdir(parents=True)
    for path in stale:
        shutil.move(str(path), str(aside / path.name))
    return [f"watch/{path.name}" for path in stale]


def send_waiting(
    game: Game,
    step: str,
    server: ServerURL,
    *,
    only: Iterable[Path] | None = None,
    resend: Iterable[str] = (),
    ca_file: Path | str | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
    timeout: float = 30.0,
    now: datetime | None = None,
) -> SendResult:
    """Send what waits in ``outbox/<step>/`` (or only the files in ``only``) through
    ``server``, recording each message as the server takes it.  Holds the game's lock, so two
    runs cannot send the same message.  A dropped connection raises a `UsageError` after the
    record of what went is saved; refused recipients are in the result.  A reminder no longer
    true at ``now`` (the clock's time unless given) is set aside first, never sent
    (`set_aside_stale_reminders`; a dry run only leaves it out)."""
    ca_file = ca_file or configured_ca_file(game)
    result = SendResult(str(server), dry_run=dry_run)
    now = now or datetime.now(UTC)
    with working(game):
        if dry_run:
            stale = set(stale_reminders(game, step, now))
        else:
            result.set_aside = set_aside_stale_reminders(game, step, now)
            stale = set()
        items = [item for item in outgoing(game, step, resend) if item.path not in stale]
        if only is not None:
            wanted = {Path(p).resolve() for p in only}
            items = [item for item in items if item.path.resolve() in wanted]
        due = [item for item in items if not item.held]
        result.held = [item for item in items if item.held]
        if dry_run or not due:
            result.sent = due if dry_run else []
            return result
        require_referee_address(game.config)
        folder = game.outbox(step)
        record = read_sent(folder)
        smtp = connect(server, ca_file=ca_file, timeout=timeout)
        try:
            for number, item in enumerate(due):
                if progress is not None:
                    progress(number, len(due), item.name)
                data = item.path.read_bytes()
                message = parse_message_bytes(data)
                assert isinstance(message, EmailMessage)
                try:
                    smtp.send_message(message)
                except smtplib.SMTPRecipientsRefused as exc:
                    why = "; ".join(
                        f"{addr}: {code} {_text(text)}"
                        for addr, (code, text) in exc.recipients.items()
                    )
                    result.refused.append((item, why))
                    continue
                except (OSError, smtplib.SMTPException) as exc:
                    waiting = len(due) - len(result.sent) - len(result.refused)
                    raise UsageError(
                        f"sending through {server} stopped at {item.name} ({exc}); "
                        f"{len(result.sent)} sent and recorded, {waiting} still waiting: run "
                        "the same command again to send the rest"
                    ) from None
                record[item.name] = {
                    "sha256": _sha(data),
                    "sent": datetime.now(UTC).replace(microsecond=0).isoformat(),
                    "to": list(item.recipients),
                    "server": str(server),
                    "message_id": str(message.get("Message-ID", "")),
                }
                _write_sent(folder, record)
                result.sent.append(item)
            if progress is not None:
                progress(len(due), len(due), "")
        finally:
            try:
                smtp.quit()
            except (OSError, smtplib.SMTPException):
                smtp.close()
    return result
