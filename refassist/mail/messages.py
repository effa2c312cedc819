"""E-mail: building ``.eml`` files, and reading mail that came in.

Replies to players (intake) and report mailings share the building helpers.  Messages are built
with the standard library's ``email`` package in its modern policy, so headers are encoded
correctly whatever the player's name, and written as ``.eml`` files a referee can open, check
and send from their own mail program, or that `refassist.mail.sending` sends.

Intake reads what the referee saved from their mail program: single ``.eml`` files, Outlook
``.msg`` files, an ``.mbox`` file, or a Maildir folder.  Each message becomes an
`IncomingMail`: the sender's address, when it was received, and its attachments as bytes
with a cleaned file name (sheets inside Outlook's wrappers and zips unpacked, `mail_unpack`).
A message is hostile until checked: a malformed one becomes an `IncomingMail` with ``problem``
set rather than an exception, file names lose any path, and oversized parts are dropped and
noted.
"""

from __future__ import annotations

import base64
import email
import email.policy
import mailbox
import mimetypes
import re
import secrets
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.utils import formataddr, formatdate, make_msgid, parseaddr, parsedate_to_datetime
from pathlib import Path

from refassist.atomic import write_bytes
from refassist.errors import UsageError
from refassist.mail.mail_unpack import (
    is_outlook_message,
    is_tnef,
    is_zip_archive,
    outlook_message_bytes,
    unpack_tnef,
    unpack_zip,
)
from refassist.text.i18n import said

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
        _attach(msg, Path(path).name, Path(path).read_bytes())
    return msg


def _attach(msg: EmailMessage, name: str, data: bytes) -> None:
    if name.lower().endswith(".xlsx"):
        maintype, subtype = XLSX_TYPE
    else:
        guessed, _ = mimetypes.guess_type(name)
        maintype, subtype = (guessed or "application/octet-stream").split("/", 1)
    msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)


def write_eml(path: Path, message: EmailMessage, attachments: Sequence[Path] = ()) -> None:
    """Write a message as an ``.eml`` file, atomically, with ``attachments`` added to it.

    The bytes are those of ``message`` with the files attached by `build_message`, but large
    files are written fast: the ``email`` package encodes an attachment 57 bytes at a time and
    writes the message one 76-character line at a time, in Python (about 60 ms for a report
    of 1 MB, 0.75 s of a 12-player turn's mailing).  Here each file is attached as a short
    random marker, and the marker's line in the written message is replaced by the file
    encoded at once by `base64.encodebytes` (the same 76-character lines); the headers and the
    MIME structure are still the ``email`` package's own.  ``message`` keeps the markers.
    """
    swaps = []
    for file in attachments:
        marker = secrets.token_bytes(30)  # 40 base64 characters: one line, no padding
        _attach(message, Path(file).name, marker)
        swaps.append((base64.b64encode(marker) + b"\n", Path(file).read_bytes()))
    data = bytes(message)
    for line, content in swaps:
        if data.count(line) != 1:  # a random 240-bit marker twice: never in practice
            raise RuntimeError("an attachment's place in the message is not unique")
        data = data.replace(line, base64.encodebytes(content), 1)
    write_bytes(Path(path), data)


# -- intake ----------------------------------------------------------------------------------

#: Largest message file read, and largest attachment kept (a turn sheet is about 20 kB).
MAX_MESSAGE_BYTES = 40 * 1024 * 1024
MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024
#: Most attachments that may be a turn sheet looked at in one message (signature logos,
#: calendar invitations and other files that are never a sheet do not count).
MAX_ATTACHMENTS = 20
#: Most parts of a message walked at all (a message of 100,000 tiny parts is not read).
MAX_PARTS = 1000


#: File name endings of anything a player may have meant as a turn sheet (refused ones get a
#: reply saying what to do, so they are worth looking at).
SHEET_LIKE_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods", ".csv", ".tsv", ".numbers")
#: Content types that are never a turn sheet: signature images, signatures, HTML bodies.
NOT_A_SHEET_TYPES = (
    "image/",
    "audio/",
    "video/",
    "text/html",
    "text/plain",
    "text/calendar",
    "text/x-vcard",
    "text/vcard",
    "application/pgp-signature",
    "application/pgp-keys",
    "application/pkcs7-signature",
    "application/x-pkcs7-signature",
    "message/",
)


@dataclass(frozen=True)
class Attachment:
    """One attached file: its cleaned name, its bytes and the declared content type."""

    filename: str
    data: bytes
    content_type: str

    @property
    def maybe_sheet(self) -> bool:
        """Whether the player may have meant this file as a turn sheet (`maybe_a_sheet`)."""
        return maybe_a_sheet(self.filename, self.content_type)


def maybe_a_sheet(filename: str, content_type: str) -> bool:
    """Whether a player may have meant a file as a turn sheet.

    A signature logo, a PGP signature or a calendar invitation is not looked at (and not
    answered); a spreadsheet of any kind, a PDF or an unknown binary is, so that the reply
    can say what to send instead.
    """
    if filename.lower().endswith(SHEET_LIKE_SUFFIXES):
        return True
    return not content_type.lower().startswith(NOT_A_SHEET_TYPES)


@dataclass
class IncomingMail:
    """A received message as intake needs it.

    ``source`` says where it came from (``path`` or ``path#key`` inside an mbox or Maildir);
    ``received`` is when the referee's mail server got it (top ``Received:`` header), else the
    ``Date:`` header, else None; ``problem`` is set when the message could not be read, and
    ``notes`` lists attachments that were dropped (too large, too many).
    """

    source: str
    sender: str = ""
    sender_name: str = ""
    subject: str = ""
    message_id: str = ""
    received: datetime | None = None
    attachments: list[Attachment] = field(default_factory=list)
    body_excerpt: str = ""
    problem: str = ""
    notes: list[str] = field(default_factory=list)
    raw: bytes = field(default=b"", repr=False)
    #: Files attached that were not read: never a sheet (``other``), or beyond the cap of
    #: `MAX_ATTACHMENTS` possible sheets (``over_cap``); inline images are in neither.
    other: list[str] = field(default_factory=list)
    over_cap: list[str] = field(default_factory=list)
    #: The receiving server's sender checks (`authentication_results`): method -> verdict.
    authentication: dict[str, str] = field(default_factory=dict)


def clean_filename(name: str, default: str = "attachment") -> str:
    """A file name safe to store: no folders, no control characters, at most 100 characters."""
    name = unicodedata.normalize("NFC", str(name or ""))
    name = name.replace("\\", "/").split("/")[-1]
    name = "".join(ch for ch in name if ch.isprintable() and ch not in '<>:"|?*')
    name = name.strip().lstrip(".")
    if not name:
        return default
    if len(name) > 100:
        stem, dot, ext = name.rpartition(".")
        name = (stem[: 95 - len(ext)] + "." + ext) if dot and len(ext) <= 8 else name[:100]
    return name


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def received_time(msg: Message) -> datetime | None:
    """When the message reached the referee: the top ``Received:`` header, else ``Date:``."""
    try:
        received = msg.get_all("Received") or []
    except Exception:  # a malformed header must not stop the intake
        received = []
    for header in received[:1]:
        _, sep, when = str(header).rpartition(";")
        if sep:
            try:
                return _aware(parsedate_to_datetime(when.strip()))
            except (TypeError, ValueError, IndexError):
                pass
    try:
        date = msg.get("Date")
        if date is not None:
            return _aware(parsedate_to_datetime(str(date)))
    except (TypeError, ValueError, IndexError):
        pass
    return None


def _header(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # headers of a hostile message may not parse
        return ""
    return " ".join(str(value or "").split())[:300]


def _attachments(msg: Message, incoming: IncomingMail, depth: int = 0) -> list[Attachment]:
    """The files of a message that may be a turn sheet, at most `MAX_ATTACHMENTS` of them.

    Files that are never a sheet are not decoded and not counted against the cap: a
    signature's inline logos (not even named) and other files (named in ``other``, so the
    reply can say they were not read).  Possible sheets beyond the cap are named in
    ``over_cap``."""
    found: list[Attachment] = []
    for number, part in enumerate(msg.walk()):
        if number >= MAX_PARTS:
            incoming.notes.append(
                said("the message has more than {n} parts; the rest was not read", n=MAX_PARTS)
            )
            break
        if part.is_multipart():
            continue
        filename = part.get_filename()
        disposition = (part.get_content_disposition() or "").lower()
        content_type = part.get_content_type()
        if (
            not filename
            and disposition != "attachment"
            and not content_type.startswith("application/")
        ):
            continue
        default = "attachment.xlsx" if content_type == "/".join(XLSX_TYPE) else "attachment"
        name = clean_filename(filename or "", default)
        if content_type == "application/octet-stream":
            # "Some bytes": what many programs (and Outlook's converted messages) say of any
            # file; the name tells more (a logo.png or notes.txt is not a sheet).
            content_type = mimetypes.guess_type(name)[0] or content_type
        if not maybe_a_sheet(name, content_type):
            if disposition == "attachment":  # an inline logo is part of the text: not named
                incoming.other.append(name)
            continue
        if len(found) >= MAX_ATTACHMENTS:
            incoming.over_cap.append(name)
            continue
        try:
            data = part.get_payload(decode=True) or b""
        except Exception:  # a broken transfer encoding
            incoming.notes.append(said("attachment {name} could not be decoded", name=name))
            continue
        if not isinstance(data, bytes):
            continue
        if len(data) > MAX_ATTACHMENT_BYTES:
            incoming.notes.append(
                said(
                    "attachment {name} is {size}, far more than a turn sheet; it was not kept",
                    name=name,
                    size=f"{len(data) // (1024 * 1024)} MB",
                )
            )
            continue
        if is_outlook_message(name, content_type, data):
            _outlook_attachment(name, data, found, incoming, depth)
            continue
        if is_tnef(name, content_type) or is_zip_archive(name, content_type, data):
            _unwrap(name, content_type, data, found, incoming)
            continue
        found.append(Attachment(name, data, content_type))
    if depth > 0:
        return found  # the message holding this one sums up what was not read
    if incoming.over_cap:
        incoming.notes.append(
            said(
                "more than {n} files that could be turn sheets; not read: {names}",
                n=MAX_ATTACHMENTS,
                names=", ".join(incoming.over_cap),
            )
        )
    if incoming.other:
        incoming.notes.append(
            said("not a turn sheet, not read: {names}", names=", ".join(incoming.other))
        )
    return found


def _outlook_attachment(
    name: str, data: bytes, found: list[Attachment], incoming: IncomingMail, depth: int
) -> None:
    """The files of an Outlook message attached to a mail (Outlook's "forward as attachment"),
    as a forwarded standard message's are.  One level deep: a ``.msg`` inside it is named,
    not opened."""
    if depth > 0:
        incoming.other.append(name)
        return
    try:
        inner = parse_message_bytes(outlook_message_bytes(data))
    except ValueError as exc:
        incoming.notes.append(
            said("{name} could not be read as an Outlook message ({why})", name=name, why=exc)
        )
        return
    for attachment in _attachments(inner, incoming, depth + 1):
        if len(found) >= MAX_ATTACHMENTS:
            incoming.over_cap.append(f"{attachment.filename} (in {name})")
        else:
            found.append(attachment)


def _unwrap(
    name: str, content_type: str, data: bytes, found: list[Attachment], incoming: IncomingMail
) -> None:
    """The possible sheets inside Outlook's ``winmail.dat`` or a player's zip, as if attached
    directly (`mail_unpack`); what else was inside is named in the notes."""
    if is_tnef(name, content_type):
        unpacked = unpack_tnef(name, data, MAX_ATTACHMENT_BYTES)
    else:
        unpacked = unpack_zip(name, data, MAX_ATTACHMENT_BYTES, SHEET_LIKE_SUFFIXES)
    incoming.notes.extend(unpacked.notes)
    for inner, payload, inner_type in unpacked.files:
        inner_name = clean_filename(inner)
        if not maybe_a_sheet(inner_name, inner_type):
            incoming.other.append(f"{inner_name} (in {name})")
        elif len(found) >= MAX_ATTACHMENTS:
            incoming.over_cap.append(f"{inner_name} (in {name})")
        else:
            found.append(Attachment(inner_name, payload, inner_type))


#: The sender checks a receiving server records in ``Authentication-Results`` (RFC 8601).
AUTH_METHODS = ("spf", "dkim", "dmarc")


def authentication_results(msg: Message) -> dict[str, str]:
    """The verdicts of the topmost ``Authentication-Results`` header, the one the referee's
    own server added on receipt (headers further down were there before it, and a sender can
    write any of those): ``{"spf": "pass", "dkim": "fail", "dmarc": "fail"}``."""
    try:
        headers = msg.get_all("Authentication-Results") or []
    except Exception:  # a malformed header: no verdict
        return {}
    if not headers:
        return {}
    text = " ".join(str(headers[0]).split())
    out = {}
    for method in AUTH_METHODS:
        found = re.search(rf"(?:^|[;\s]){method}=([a-z]+)", text, re.IGNORECASE)
        if found:
            out[method] = found.group(1).lower()
    return out


def authentication_failure(results: dict[str, str]) -> str:
    """Why the sender failed the server's checks, or "" when it did not (or was not checked).

    DMARC decides when the server evaluated it; without DMARC, a DKIM pass is enough, and an
    SPF fail or softfail without one is a failure."""
    dmarc = results.get("dmarc")
    if dmarc in ("fail", "permerror"):
        return f"DMARC {dmarc}"
    if dmarc == "pass" or results.get("dkim") == "pass":
        return ""
    if results.get("spf") in ("fail", "softfail"):
        return f"SPF {results['spf']}" + (
            f", DKIM {results['dkim']}" if results.get("dkim") else ""
        )
    return ""


def _body_excerpt(msg: Message) -> str:
    try:
        body = msg.get_body(preferencelist=("plain",)) if isinstance(msg, EmailMessage) else None
        text = body.get_content() if body is not None else ""
    except Exception:  # malformed body: the excerpt is only a courtesy
        return ""
    return " ".join(str(text).split())[:300]


def incoming_from_message(msg: Message, source: str, raw: bytes = b"") -> IncomingMail:
    """An `IncomingMail` from a parsed message (never raises: problems go in ``problem``)."""
    incoming = IncomingMail(source=source, raw=raw)
    try:
        name, address = parseaddr(_header(msg, "From"))
        incoming.sender = address.strip().lower()
        incoming.sender_name = name.strip()
        incoming.subject = _header(msg, "Subject")
        incoming.message_id = _header(msg, "Message-ID")
        incoming.received = received_time(msg)
        incoming.authentication = authentication_results(msg)
        incoming.attachments = _attachments(msg, incoming)
        incoming.body_excerpt = _body_excerpt(msg)
    except Exception as exc:  # the stdlib parser on hostile input: report, do not crash
        incoming.problem = f"the message could not be read ({type(exc).__name__}: {exc})"
    return incoming


def parse_message_bytes(data: bytes) -> Message:
    """Parse raw message bytes with the modern policy (``EmailMessage`` objects)."""
    return email.message_from_bytes(data, policy=email.policy.default)


def incoming_from_bytes(data: bytes, source: str) -> IncomingMail:
    """An `IncomingMail` from raw message bytes (never raises)."""
    try:
        msg = parse_message_bytes(data)
    except Exception as exc:  # the stdlib parser on hostile input
        return IncomingMail(
            source=source, raw=data, problem=f"the message could not be read ({exc})"
        )
    return incoming_from_message(msg, source, data)


def _message_file(path: Path) -> bytes | IncomingMail:
    """A saved message's bytes, or an `IncomingMail` saying it is too large to read."""
    try:
        size = path.stat().st_size
        if size > MAX_MESSAGE_BYTES:
            return IncomingMail(
                source=str(path),
                problem=f"the message file is {size // (1024 * 1024)} MB, too large to read",
            )
        return path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc


def read_eml(path: Path) -> IncomingMail:
    """Read one ``.eml`` file."""
    data = _message_file(Path(path))
    return data if isinstance(data, IncomingMail) else incoming_from_bytes(data, str(path))


def read_outlook_msg(path: Path) -> IncomingMail:
    """Read one Outlook ``.msg`` file (a message the referee dragged out of Outlook)."""
    data = _message_file(Path(path))
    if isinstance(data, IncomingMail):
        return data
    try:
        converted = outlook_message_bytes(data)
    except ValueError as exc:
        return IncomingMail(source=str(path), raw=data, problem=f"the file is {exc}")
    incoming = incoming_from_bytes(converted, str(path))
    incoming.raw = data  # what is archived is the file as the referee saved it
    return incoming


def iter_mbox(path: Path) -> Iterator[IncomingMail]:
    """Every message of an ``.mbox`` file, in file order."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"{path} is not an mbox file")
    box = mailbox.mbox(str(path), factory=None, create=False)
    try:
        for key in box.iterkeys():
            source = f"{path}#{key}"
            try:
                data = box.get_bytes(key)
            except Exception as exc:  # a damaged mbox entry
                yield IncomingMail(source=source, problem=f"the message could not be read: {exc}")
                continue
            if len(data) > MAX_MESSAGE_BYTES:
                yield IncomingMail(source=source, problem="the message is too large to read")
                continue
            yield incoming_from_bytes(data, source)
    finally:
        box.close()


def is_maildir(path: Path) -> bool:
    """True for a folder with the ``cur``, ``new`` and ``tmp`` sub-folders of a Maildir."""
    path = Path(path)
    return path.is_dir() and all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))


def _maildir_time(name: str) -> datetime | None:
    head = name.split(".", 1)[0]
    if head.isdigit():
        try:
            return datetime.fromtimestamp(int(head), tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    return None


def iter_maildir(path: Path) -> Iterator[IncomingMail]:
    """Every message of a Maildir folder (``new`` and ``cur``), oldest file name first.

    Messages are only read, never moved or flagged, so the referee's mail program still sees
    them as before.
    """
    path = Path(path)
    if not is_maildir(path):
        raise UsageError(f"{path} is not a Maildir folder (it needs cur/, new/ and tmp/)")
    box = mailbox.Maildir(str(path), factory=None, create=False)
    for key in sorted(box.keys()):
        source = f"{path}#{key}"
        try:
            data = box.get_bytes(key)
        except Exception as exc:  # a message file vanished or is unreadable
            yield IncomingMail(source=source, problem=f"the message could not be read: {exc}")
            continue
        if len(data) > MAX_MESSAGE_BYTES:
            yield IncomingMail(source=source, problem="the message is too large to read")
            continue
        incoming = incoming_from_bytes(data, source)
        if incoming.received is None:
            incoming.received = _maildir_time(key)
        yield incoming
