"""Taking turn mail straight from the referee's IMAP folder.

`ImapFolder` logs in (implicit TLS or STARTTLS, the certificate checked), selects the folder of
a `mailserver.ServerURL` and lists the messages not yet filed; `mail_batches` turns each into
the same items a saved mailbox gives (`inbox.expand_sources`), so the checks, duplicates and
replies are the intake's own, with the server's arrival time (``INTERNALDATE``) as the time
received, which is what lateness is judged by.

A message is marked only after everything it carried is filed and the inbox index saved:
flagged with the keyword ``$RefassistFiled`` (the referee's mail program shows it; it stays in
the folder, read or unread as it was, since the body is fetched with ``BODY.PEEK``) or moved to
``[mail] filed_folder``.  A second run lists only what is not marked.  A crash between the
index and the mark leaves a message filed but unmarked: the index records each message's
``UIDVALIDITY:UID``, so the next run marks it without filing it again.
"""

from __future__ import annotations

import contextlib
import functools
import imaplib
import re
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from refassist.errors import UsageError
from refassist.intake.inbox import Batch, IntakeReport, Progress, file_batches, items_of_mail
from refassist.mail.mailserver import ServerURL, password_for, tls_context, tls_failure
from refassist.mail.messages import MAX_MESSAGE_BYTES, IncomingMail, incoming_from_bytes
from refassist.store.game import Game

#: The keyword a filed message is flagged with (IMAP keywords are the folder's own flags).
FILED_KEYWORD = "$RefassistFiled"

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
_DATE = re.compile(rb'INTERNALDATE "([^"]+)"')


def _quote(name: str) -> str:
    """A folder name as an IMAP quoted string (spaces, quotes and backslashes escaped)."""
    if not name.isascii():
        raise UsageError(
            f"the IMAP folder {name!r} has letters beyond ASCII; rename it, or file turn mail "
            "into a folder with a plain name"
        )
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _words(data: object) -> str:
    """An IMAP server's answer as one line of text."""
    if isinstance(data, (list, tuple)):
        return " ".join(_words(item) for item in data if item is not None)
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return str(data)


def internal_date(text: str) -> datetime | None:
    """``25-Nov-2026 09:54:04 +0000`` (the server's arrival time) as an aware datetime."""
    try:
        return datetime.strptime(text.strip(), "%d-%b-%Y %H:%M:%S %z")
    except ValueError:
        return None


@dataclass(frozen=True)
class Listed:
    """A message waiting in the folder: its UID, size and arrival time."""

    uid: int
    size: int
    arrived: datetime | None


class ImapFolder:
    """One logged-in connection to the turn-mail folder, opened read-write."""

    def __init__(
        self,
        server: ServerURL,
        *,
        ca_file: Path | str | None = None,
        filed_folder: str = "",
        timeout: float = 60.0,
    ) -> None:
        self.server = server
        self.ca_file = ca_file
        self.filed_folder = filed_folder
        self.timeout = timeout
        self.client: imaplib.IMAP4 | None = None
        self.uidvalidity = ""
        self.keywords = False
        self.capabilities: set[str] = set()

    # -- connecting ---------------------------------------------------------------------------
    def __enter__(self) -> ImapFolder:
        server = self.server
        context = tls_context(self.ca_file)
        password = password_for(server)
        try:
            if server.implicit_tls:
                client: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                    server.host, server.port, ssl_context=context, timeout=self.timeout
                )
            else:
                client = imaplib.IMAP4(server.host, server.port, timeout=self.timeout)
                if "STARTTLS" not in client.capabilities:
                    client.shutdown()
                    raise UsageError(
                        f"{server.host}:{server.port} does not offer STARTTLS; use imaps:// "
                        "(port 993) if the server has it"
                    )
                client.starttls(ssl_context=context)
        except ssl.SSLError as exc:
            raise UsageError(f"cannot read mail: {tls_failure(server, exc)}") from None
        except (OSError, imaplib.IMAP4.error) as exc:
            raise UsageError(f"cannot reach {server}: {exc}") from None
        self.client = client
        try:
            try:
                client.login(server.user, password)
            except imaplib.IMAP4.error as exc:
                raise UsageError(
                    f"{server.host} refused the login of {server.user} ({_words(exc.args)}); "
                    "check the password (docs/mail.md)"
                ) from None
            # What the server offers after login (often more than before it).
            _, data = client.capability()
            self.capabilities = set(_words(data).upper().split())
            self._select()
        except BaseException:
            self.close()
            raise
        return self

    def _select(self) -> None:
        client = self._client()
        folder = self.server.folder
        status, data = client.select(_quote(folder))
        if status != "OK":
            _, listing = client.list()
            names = [_words(line).rsplit(" ", 1)[-1].strip('"') for line in listing or [] if line]
            raise UsageError(
                f"{self.server.host} has no folder {folder!r} ({_words(data)}); its folders: "
                + ", ".join(names)
            )
        validity = client.response("UIDVALIDITY")[1]
        self.uidvalidity = _words(validity) if validity and validity[0] else "0"
        flags = _words(client.response("PERMANENTFLAGS")[1])
        self.keywords = "\\*" in flags
        if self.filed_folder:
            _quote(self.filed_folder)
            if not {"MOVE", "UIDPLUS"} & self.capabilities:
                raise UsageError(
                    f"{self.server.host} cannot move messages one by one (neither MOVE nor "
                    "UIDPLUS); leave [mail] filed_folder empty to flag filed mail instead"
                )
        elif not self.keywords:
            raise UsageError(
                f"{self.server.host} does not keep flags of our own in {folder!r}; set [mail] "
                "filed_folder to a folder filed turn mail is moved to"
            )

    def _client(self) -> imaplib.IMAP4:
        if self.client is None:
            raise UsageError("the IMAP connection is closed")
        return self.client

    def close(self) -> None:
        if self.client is None:
            return
        try:
            self.client.logout()
        except (OSError, imaplib.IMAP4.error):
            with contextlib.suppress(OSError):
                self.client.shutdown()
        self.client = None

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ------------------------------------------------------------------------------
    def _command(self, *args: str) -> list[object]:
        """A UID command; a server that drops the line or says NO is a `UsageError`."""
        try:
            status, data = self._client().uid(*args)
        except (OSError, imaplib.IMAP4.abort) as exc:
            raise UsageError(f"the connection to {self.server} was lost ({exc})") from None
        if status != "OK":
            raise UsageError(f"{self.server.host} refused {args[0]} ({_words(data)})")
        return list(data)

    def source(self, uid: int) -> str:
        """The message's name in the inbox index: the folder, UIDVALIDITY and UID."""
        return f"{self.server}#{self.uidvalidity}:{uid}"

    def waiting(self) -> list[Listed]:
        """The messages not yet filed, oldest UID first, with size and arrival time."""
        criteria = ("ALL",) if self.filed_folder else ("UNKEYWORD", FILED_KEYWORD)
        found = _words(self._command("SEARCH", *criteria)).split()
        uids = sorted(int(u) for u in found if u.isdigit())
        listed = []
        for start in range(0, len(uids), 200):
            chunk = ",".join(str(u) for u in uids[start : start + 200])
            for line in self._command("FETCH", chunk, "(UID RFC822.SIZE INTERNALDATE)"):
                raw = line[0] if isinstance(line, tuple) else line
                if not isinstance(raw, bytes):
                    continue
                uid = re.search(rb"UID (\d+)", raw)
                size = _SIZE.search(raw)
                date = _DATE.search(raw)
                if uid is None:
                    continue
                listed.append(
                    Listed(
                        int(uid.group(1)),
                        int(size.group(1)) if size else 0,
                        internal_date(date.group(1).decode()) if date else None,
                    )
                )
        return sorted(listed, key=lambda item: item.uid)

    def fetch(self, listed: Listed) -> IncomingMail:
        """One message as intake reads it (never the ``\\Seen`` flag: ``BODY.PEEK``)."""
        source = self.source(listed.uid)
        if listed.size > MAX_MESSAGE_BYTES:
            return IncomingMail(
                source=source,
                received=listed.arrived,
                problem=f"the message is {listed.size // (1024 * 1024)} MB, too large to read",
            )
        data = b""
        for part in self._command("FETCH", str(listed.uid), "(BODY.PEEK[])"):
            if isinstance(part, tuple) and len(part) == 2 and isinstance(part[1], bytes):
                data = part[1]
        if not data:
            return IncomingMail(source=source, problem="the server gave the message no content")
        mail = incoming_from_bytes(data, source)
        if listed.arrived is not None:
            mail.received = listed.arrived
        return mail

    def headline(self, listed: Listed) -> tuple[str, str]:
        """Sender and subject of a message, for ``--dry-run`` (the body is not fetched)."""
        data = b""
        for part in self._command(
            "FETCH", str(listed.uid), "(BODY.PEEK[HEADER.FIELDS (FROM SUBJECT)])"
        ):
            if isinstance(part, tuple) and len(part) == 2 and isinstance(part[1], bytes):
                data = part[1]
        mail = incoming_from_bytes(data, self.source(listed.uid))
        return mail.sender, mail.subject

    # -- marking ------------------------------------------------------------------------------
    def mark_filed(self, uid: int) -> None:
        """Flag the message as filed, or move it to the filed folder."""
        if not self.filed_folder:
            self._command("STORE", str(uid), "+FLAGS", f"({FILED_KEYWORD})")
            return
        target = _quote(self.filed_folder)
        if "MOVE" in self.capabilities:
            self._command("MOVE", str(uid), target)
            return
        self._command("COPY", str(uid), target)
        self._command("STORE", str(uid), "+FLAGS", "(\\Deleted)")
        self._command("EXPUNGE", str(uid))


def listed_mail(folder: ImapFolder, listed: list[Listed]) -> Iterator[tuple[Listed, IncomingMail]]:
    """Each waiting message fetched in turn (one in memory at a time)."""
    for item in listed:
        yield item, folder.fetch(item)


def intake_imap(
    game: Game,
    server: ServerURL,
    *,
    ca_file: Path | str | None = None,
    filed_folder: str = "",
    progress: Progress | None = None,
) -> IntakeReport:
    """File the turn mail waiting in the server's folder, marking each message once filed."""
    with ImapFolder(server, ca_file=ca_file, filed_folder=filed_folder) as folder:
        listed = folder.waiting()

        def batches() -> Iterator[Batch]:
            for item in listed:
                mail = folder.fetch(item)
                yield Batch(
                    list(items_of_mail("imap", mail)),
                    key=mail.source,
                    done=functools.partial(folder.mark_filed, item.uid),
                )

        return file_batches(game, batches(), len(listed), progress)


@dataclass(frozen=True)
class Waiting:
    """A message an intake would fetch (``--dry-run``)."""

    uid: int
    sender: str
    subject: str
    arrived: datetime | None
    size: int


def preview_imap(
    server: ServerURL, *, ca_file: Path | str | None = None, filed_folder: str = ""
) -> list[Waiting]:
    """What `intake_imap` would fetch, from the headers alone; nothing is filed or marked."""
    with ImapFolder(server, ca_file=ca_file, filed_folder=filed_folder) as folder:
        out = []
        for item in folder.waiting():
            sender, subject = folder.headline(item)
            out.append(Waiting(item.uid, sender, subject, item.arrived, item.size))
        return out
