"""Sheets wrapped by the sender's mail program or by the player: Outlook's ``winmail.dat``
(TNEF), Outlook's own message files (``.msg``) and zip archives.

Outlook sends a message's files inside ``winmail.dat`` (``application/ms-tnef``) when it is set
to "Rich Text"; other mail programs show the player's sheet as an unreadable attachment.
A referee using Outlook saves a player's mail by dragging it out of Outlook: a ``.msg`` file,
which `outlook_message_bytes` turns into the standard message it stands for (with the
`extract-msg <https://pypi.org/project/extract-msg/>`_ library); a ``.msg`` attached to a mail
(a player's "forward as attachment" in Outlook) is read the same way.  Players zip a sheet to
get it past a filter.  Each wrapper is opened (TNEF with the
`tnefparse <https://pypi.org/project/tnefparse/>`_ library, zip with the standard library's
``zipfile``) and the files inside it that may be turn sheets are read as if attached directly;
everything else inside is named in the reply as not read.  Wrappers are hostile like any
attachment: a member larger than a sheet could be, a zip of zips, an encrypted archive or a
damaged one becomes a note, never an exception, and nothing inside a zip is ever written to
disk under its own path.
"""

from __future__ import annotations

import io
import mimetypes
import zipfile
from dataclasses import dataclass, field
from email.utils import format_datetime

from refassist.text.i18n import said

#: A zip inside a zip is not opened (a "zip bomb" nests them); nor more members than this.
MAX_MEMBERS = 50
TNEF_TYPES = ("application/ms-tnef", "application/vnd.ms-tnef")
ZIP_TYPES = ("application/zip", "application/x-zip-compressed", "application/x-zip")


@dataclass
class Unpacked:
    """The files found inside a wrapper (name, bytes, content type) and what was not read."""

    files: list[tuple[str, bytes, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def is_tnef(name: str, content_type: str) -> bool:
    return content_type.lower() in TNEF_TYPES or name.lower() == "winmail.dat"


def is_zip_archive(name: str, content_type: str, data: bytes) -> bool:
    """A zip the player made: zip bytes that are not themselves an Office document (an
    ``.xlsx`` is a zip too, with ``[Content_Types].xml`` at its root, and so is an ``.ods``,
    with a ``mimetype`` member: a mail program may send either typed as a zip)."""
    if not data.startswith(b"PK\x03\x04"):
        return False
    if not (name.lower().endswith(".zip") or content_type.lower() in ZIP_TYPES):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            return "[Content_Types].xml" not in names and "mimetype" not in names
    except (zipfile.BadZipFile, ValueError, OSError):
        return True  # a damaged zip: unpack() says so


#: The signature of an OLE compound file (Outlook's ``.msg``, but also an old ``.xls``).
OLE_SIGNATURE = bytes.fromhex("d0cf11e0a1b11ae1")


def is_outlook_message(name: str, content_type: str, data: bytes) -> bool:
    """An Outlook ``.msg``: an OLE compound file named ``.msg`` or typed as Outlook's."""
    return data.startswith(OLE_SIGNATURE) and (
        name.lower().endswith(".msg") or content_type.lower() == "application/vnd.ms-outlook"
    )


def outlook_message_bytes(data: bytes) -> bytes:
    """The standard (RFC 5322) message an Outlook ``.msg`` holds: its transport headers (who
    sent it, when the server received it), body and attachments.  Raises ValueError when the
    file cannot be read as one."""
    import extract_msg
    from extract_msg.msg_classes import MessageBase

    try:
        message = extract_msg.openMsg(data, delayAttachments=False)
    except Exception as exc:  # extract-msg and olefile on hostile bytes
        raise ValueError(f"not a readable Outlook message ({exc})") from exc
    if not isinstance(message, MessageBase):  # openMsg gives a message class or raises
        message.close()
        raise ValueError("not an Outlook message")
    try:
        converted = message.asEmailMessage()
        received = getattr(message, "receivedTime", None)
        if received is not None and not converted.get_all("Received"):
            # No transport headers (a message Outlook composed): its delivery time stands in.
            converted["Received"] = "by outlook; " + format_datetime(received)
        return converted.as_bytes()
    except Exception as exc:
        raise ValueError(f"the Outlook message could not be converted ({exc})") from exc
    finally:
        message.close()


def _type_of(name: str) -> str:
    guessed, _ = mimetypes.guess_type(name)
    if name.lower().endswith(".xlsx"):
        return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    return guessed or "application/octet-stream"


def _too_large(inner: str, name: str) -> str:
    """The note on a file inside a wrapper or zip that no turn sheet could be (three places)."""
    return said(
        "{inner} in {name} is far larger than a turn sheet; not kept", inner=inner, name=name
    )


def unpack_tnef(name: str, data: bytes, max_bytes: int) -> Unpacked:
    """The files inside Outlook's ``winmail.dat``."""
    from tnefparse import TNEF

    out = Unpacked()
    try:
        tnef = TNEF(data, do_checksum=False)
    except Exception as exc:  # tnefparse on hostile bytes: any error is "not readable"
        out.notes.append(
            said(
                "{name} (Outlook's rich-text wrapper) could not be read ({why})", name=name, why=exc
            )
        )
        return out
    for attachment in tnef.attachments[:MAX_MEMBERS]:
        try:
            inner = str(attachment.long_filename() or attachment.name or "attachment")
        except Exception:  # a name in an unknown code page
            inner = "attachment"
        payload = attachment.data if isinstance(attachment.data, bytes) else b""
        if len(payload) > max_bytes:
            out.notes.append(_too_large(inner, name))
            continue
        out.files.append((inner, payload, _type_of(inner)))
    if len(tnef.attachments) > MAX_MEMBERS:
        out.notes.append(
            said(
                "{name} holds more than {n} files; the rest was not read", name=name, n=MAX_MEMBERS
            )
        )
    if not tnef.attachments:
        out.notes.append(
            said(
                "{name} (Outlook's rich-text wrapper) carried no file; if you meant to attach "
                "your sheet, send it again with the message format set to HTML or plain text",
                name=name,
            )
        )
    return out


def unpack_zip(name: str, data: bytes, max_bytes: int, wanted: tuple[str, ...]) -> Unpacked:
    """The files of a zip whose names end in ``wanted`` (sheet-like suffixes); the rest is
    named, not read.  Sizes are checked before and while reading (a header may lie)."""
    out = Unpacked()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        out.notes.append(said("{name} is not a readable zip archive ({why})", name=name, why=exc))
        return out
    skipped: list[str] = []
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        if len(members) > MAX_MEMBERS:
            out.notes.append(
                said(
                    "{name} holds {count} files; only the first {n} were looked at",
                    name=name,
                    count=len(members),
                    n=MAX_MEMBERS,
                )
            )
        for member in members[:MAX_MEMBERS]:
            inner = member.filename.replace("\\", "/").rsplit("/", 1)[-1]
            if not inner.lower().endswith(wanted):
                skipped.append(inner)
                continue
            if member.flag_bits & 0x1:
                out.notes.append(
                    said(
                        "{inner} in {name} is encrypted; send the sheet without a password",
                        inner=inner,
                        name=name,
                    )
                )
                continue
            if member.file_size > max_bytes:
                out.notes.append(_too_large(inner, name))
                continue
            try:
                with archive.open(member) as stream:
                    payload = stream.read(max_bytes + 1)
            except (zipfile.BadZipFile, ValueError, OSError, RuntimeError, EOFError) as exc:
                out.notes.append(
                    said(
                        "{inner} in {name} could not be unpacked ({why})",
                        inner=inner,
                        name=name,
                        why=exc,
                    )
                )
                continue
            if len(payload) > max_bytes:
                out.notes.append(_too_large(inner, name))
                continue
            out.files.append((inner, payload, _type_of(inner)))
    if skipped:
        out.notes.append(
            said(
                "in {name}, not a turn sheet, not read: {names}",
                name=name,
                names=", ".join(skipped[:10]),
            )
        )
    return out
