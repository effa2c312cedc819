"""Mail as real clients send it: Outlook's winmail.dat (TNEF) and .msg files, a forwarded
message, a zipped sheet, file names encoded per RFC 2231 and RFC 2047, and the receiving server's
Authentication-Results.  Each message is written as bytes the way that client writes it, then
taken in through the ordinary intake."""

from __future__ import annotations

import base64
import io
import struct
import zipfile
from datetime import UTC, datetime
from pathlib import Path

from refassist.intake.inbox import intake
from refassist.mail.messages import authentication_failure, authentication_results, read_eml
from refassist.store.game import Game
from refassist.store.inbox_index import accepted_sheets
from tests.outlook_msg import outlook_message
from tests.test_intake import filled_sheet, index_of, make_mail, reply_text
from tests.test_intake import game as game

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


# -- Outlook's TNEF, written as Outlook writes it --------------------------------------------


def _tnef_attribute(level: int, attribute_id: int, attribute_type: int, data: bytes) -> bytes:
    """One TNEF attribute: level, id, type, length, data, and the 16-bit sum of the data."""
    checksum = sum(data) & 0xFFFF
    return (
        struct.pack("<BHHI", level, attribute_id, attribute_type, len(data))
        + data
        + struct.pack("<H", checksum)
    )


def winmail_dat(files: list[tuple[str, bytes]]) -> bytes:
    """A ``winmail.dat`` as Outlook writes it in rich-text mode: the TNEF signature and key,
    the version, code page and message class at message level, then per file its rendering
    data, title (file name) and data at attachment level."""
    out = struct.pack("<IH", 0x223E9F78, 0x0102)
    out += _tnef_attribute(1, 0x9006, 0x0008, struct.pack("<I", 0x00010000))  # attTnefVersion
    out += _tnef_attribute(1, 0x9007, 0x0006, struct.pack("<II", 1252, 0))  # attOemCodepage
    out += _tnef_attribute(1, 0x8008, 0x0007, b"IPM.Microsoft Mail.Note\x00")  # attMessageClass
    for name, data in files:
        render = struct.pack("<HIIIIH", 1, 0xFFFFFFFF, 0, 0, 0, 0)
        out += _tnef_attribute(2, 0x9002, 0x0006, render)  # attAttachRendData
        out += _tnef_attribute(2, 0x8010, 0x0001, name.encode() + b"\x00")  # attAttachTitle
        out += _tnef_attribute(2, 0x800F, 0x0006, data)  # attAttachData
    return out


def outlook_rich_text_mail(sender: str, files: list[tuple[str, bytes]]) -> bytes:
    """A message as Outlook sends it in rich-text mode: a plain body and winmail.dat."""
    body = base64.encodebytes(winmail_dat(files)).decode()
    return (
        f"From: Ann Player <{sender}>\r\n"
        "To: referee@example.com\r\n"
        "Subject: orders\r\n"
        "Date: Wed, 02 Jan 2030 12:00:00 +0000\r\n"
        "Message-ID: <outlook-1@example.com>\r\n"
        "MIME-Version: 1.0\r\n"
        "X-MS-Has-Attach: yes\r\n"
        "X-MS-TNEF-Correlator: <outlook-1@example.com>\r\n"
        'Content-Type: multipart/mixed; boundary="_000_outlook_"\r\n'
        "\r\n"
        "--_000_outlook_\r\n"
        'Content-Type: text/plain; charset="us-ascii"\r\n'
        "\r\n"
        "My orders are attached.\r\n"
        "\r\n"
        "--_000_outlook_\r\n"
        'Content-Type: application/ms-tnef; name="winmail.dat"\r\n'
        'Content-Disposition: attachment; filename="winmail.dat"\r\n'
        "Content-Transfer-Encoding: base64\r\n"
        "\r\n" + body.replace("\n", "\r\n") + "\r\n--_000_outlook_--\r\n"
    ).encode()


def test_outlook_winmail_dat_carrying_the_sheet_is_taken_in(
    game: Game,
    tmp_path: Path,
) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    eml = tmp_path / "outlook.eml"
    eml.write_bytes(outlook_rich_text_mail("ann@example.com", [("Ann.xlsx", sheet.read_bytes())]))
    mail = read_eml(eml)
    assert [a.filename for a in mail.attachments] == ["Ann.xlsx"]
    report = intake(game, [eml])
    assert [o.status for o in report.outcomes] == ["accepted"]
    assert accepted_sheets(game, "5001")["Ann"].read_bytes() == sheet.read_bytes()


def test_winmail_dat_without_a_file_gets_a_reply_saying_what_to_do(
    game: Game,
    tmp_path: Path,
) -> None:
    eml = tmp_path / "outlook.eml"
    eml.write_bytes(outlook_rich_text_mail("ann@example.com", []))
    report = intake(game, [eml])
    assert [o.status for o in report.outcomes] == ["refused"]
    assert report.outcomes[0].reply is not None
    text = reply_text(report.outcomes[0].reply)
    assert "winmail.dat (Outlook's rich-text wrapper) carried no file" in text
    assert "message format set to HTML or plain text" in text


# -- forwarded, zipped, encoded names --------------------------------------------------------


def test_a_sheet_inside_a_forwarded_message(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    inner = make_mail("ann.work@example.org", [("Ann.xlsx", sheet.read_bytes())])
    outer = make_mail("ann@example.com", [], subject="Fwd: orders", body="forwarding my sheet")
    outer.add_attachment(inner)  # message/rfc822, as mail programs forward "as attachment"
    assert any(p.get_content_type() == "message/rfc822" for p in outer.iter_attachments())
    eml = tmp_path / "fwd.eml"
    eml.write_bytes(bytes(outer))
    report = intake(game, [eml])
    assert [(o.status, o.player) for o in report.outcomes] == [("accepted", "Ann")]


def _zip(members: list[tuple[str, bytes]], *, encrypted: str = "") -> bytes:
    """A zip of the members; the one named ``encrypted`` is flagged as encrypted (bit 0 of
    its flags, in its local header and the central directory) as a password-protected zip's
    members are (``zipfile`` cannot write one)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
        offsets = {info.filename: info.header_offset for info in archive.infolist()}
    data = bytearray(buffer.getvalue())
    if encrypted:
        data[offsets[encrypted] + 6] |= 0x1
        central = data.find(b"PK\x01\x02")
        while central != -1:
            length = struct.unpack_from("<H", data, central + 28)[0]
            if data[central + 46 : central + 46 + length] == encrypted.encode():
                data[central + 8] |= 0x1
            central = data.find(b"PK\x01\x02", central + 4)
    return bytes(data)


def test_a_zipped_sheet_is_unpacked_and_the_rest_named(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    archive = _zip(
        [
            ("orders/Ann.xlsx", sheet.read_bytes()),
            ("readme.txt", b"my orders"),
            ("big.xlsx", bytes(30 * 1024 * 1024)),  # 30 MB of zeros, 30 kB zipped
            ("secret.xlsx", b"PK\x03\x04 not really"),
        ],
        encrypted="secret.xlsx",
    )
    msg = make_mail("ann@example.com", [])
    msg.add_attachment(archive, maintype="application", subtype="zip", filename="orders.zip")
    eml = tmp_path / "zip.eml"
    eml.write_bytes(bytes(msg))
    report = intake(game, [eml])
    assert [(o.status, o.name) for o in report.outcomes] == [("accepted", "Ann.xlsx")]
    notes = " | ".join(report.outcomes[0].notes)
    assert "big.xlsx in orders.zip is far larger than a turn sheet; not kept" in notes
    assert "secret.xlsx in orders.zip is encrypted" in notes
    assert "in orders.zip, not a turn sheet, not read: readme.txt" in notes
    assert report.outcomes[0].reply is not None
    assert "readme.txt" in reply_text(report.outcomes[0].reply)


def test_an_xlsx_is_not_mistaken_for_a_zip(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    msg = make_mail("ann@example.com", [])
    # Some mail programs label any zip-shaped file application/zip, an .xlsx included.
    msg.add_attachment(
        sheet.read_bytes(), maintype="application", subtype="zip", filename="Ann.xlsx"
    )
    eml = tmp_path / "x.eml"
    eml.write_bytes(bytes(msg))
    assert [a.filename for a in read_eml(eml).attachments] == ["Ann.xlsx"]


def _raw_with_filename(disposition: str, data: bytes) -> bytes:
    return (
        "From: ann@example.com\r\nTo: referee@example.com\r\nSubject: orders\r\n"
        "Date: Wed, 02 Jan 2030 12:00:00 +0000\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n'
        "--b1\r\nContent-Type: text/plain\r\n\r\nattached\r\n"
        f"--b1\r\nContent-Type: {XLSX_TYPE}\r\n{disposition}\r\n"
        "Content-Transfer-Encoding: base64\r\n\r\n"
        + base64.encodebytes(data).decode().replace("\n", "\r\n")
        + "\r\n--b1--\r\n"
    ).encode()


def test_file_names_encoded_per_rfc_2231_and_rfc_2047(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path).read_bytes()
    rfc2231 = "Content-Disposition: attachment; filename*=utf-8''Ann%20%C3%A9t%C3%A9.xlsx"
    # What Outlook and older Thunderbirds write: an encoded word inside the quotes.
    encoded = base64.b64encode("Ann été.xlsx".encode()).decode()
    rfc2047 = f'Content-Disposition: attachment; filename="=?utf-8?B?{encoded}?="'
    for number, header in enumerate((rfc2231, rfc2047)):
        eml = tmp_path / f"name{number}.eml"
        eml.write_bytes(_raw_with_filename(header, sheet))
        assert [a.filename for a in read_eml(eml).attachments] == ["Ann été.xlsx"]
    report = intake(game, [tmp_path / "name1.eml"])
    assert [(o.status, o.name) for o in report.outcomes] == [("accepted", "Ann été.xlsx")]


# -- the receiving server's sender checks ----------------------------------------------------

FAILED = (
    "Authentication-Results: mx.referee.example; spf=fail smtp.mailfrom=ann@example.com;\r\n"
    " dkim=none; dmarc=fail header.from=example.com\r\n"
)
# A header the sender wrote before the message reached the referee's server: never trusted.
FORGED_PASS = "Authentication-Results: mx.referee.example; spf=pass; dkim=pass; dmarc=pass\r\n"


def _with_headers(data: bytes, headers: str) -> bytes:
    return headers.encode() + data


def test_authentication_results_are_read_from_the_topmost_header() -> None:
    from refassist.mail.messages import parse_message_bytes

    msg = parse_message_bytes(_with_headers(b"From: a@b.c\r\n\r\nx", FAILED + FORGED_PASS))
    results = authentication_results(msg)
    assert results == {"spf": "fail", "dkim": "none", "dmarc": "fail"}
    assert authentication_failure(results) == "DMARC fail"
    assert authentication_failure({"spf": "softfail"}) == "SPF softfail"
    assert authentication_failure({"spf": "fail", "dkim": "pass"}) == ""
    assert authentication_failure({"spf": "fail", "dmarc": "pass"}) == ""
    assert authentication_failure({}) == ""


def test_failed_sender_checks_are_recorded_and_refused_when_the_game_says_so(
    game: Game, tmp_path: Path
) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    raw = bytes(make_mail("ann@example.com", [("Ann.xlsx", sheet.read_bytes())]))
    eml = tmp_path / "forged.eml"
    eml.write_bytes(_with_headers(raw, FAILED))
    # By default the sheet is taken in and the verdict recorded.
    report = intake(game, [eml])
    assert [o.status for o in report.outcomes] == ["accepted"]
    entry = index_of(game)["entries"][0]
    assert entry["source"]["authentication"] == "spf=fail dkim=none dmarc=fail"
    assert entry["authentication_failed"] == "DMARC fail"
    # With the house setting, the same mail (a new sheet) is refused, with a reply.
    config = game.path / "game.toml"
    config.write_text(
        config.read_text().replace(
            "refuse_failed_authentication = false", "refuse_failed_authentication = true"
        )
    )
    strict = Game.open(game.path)
    again = filled_sheet(strict, "Ann", tmp_path, message="second")
    raw = bytes(make_mail("ann@example.com", [("Ann.xlsx", again.read_bytes())]))
    eml2 = tmp_path / "forged2.eml"
    eml2.write_bytes(_with_headers(raw, FAILED))
    refused = intake(strict, [eml2])
    assert [o.status for o in refused.outcomes] == ["refused"]
    assert "could not confirm that this message came from ann@example.com (DMARC fail)" in (
        refused.outcomes[0].summary
    )
    assert refused.outcomes[0].reply is not None
    assert "someone used your address" in reply_text(refused.outcomes[0].reply)
    assert accepted_sheets(strict, "5001")["Ann"].read_bytes() == sheet.read_bytes()


# -- Outlook's own message files --------------------------------------------------------------


def _outlook_msg(sheet: bytes, *, sender: str = "ann@example.com") -> bytes:
    headers = (
        "Received: from mx.example.com by mail.referee.example; Wed, 02 Jan 2030 12:00:00 "
        f"+0000\r\nFrom: Ann Player <{sender}>\r\nTo: referee@example.com\r\n"
        "Subject: orders\r\nDate: Wed, 02 Jan 2030 11:58:00 +0000\r\n"
        "Message-ID: <outlook-2@example.com>\r\n\r\n"
    )
    return outlook_message(
        sender=sender,
        sender_name="Ann Player",
        subject="orders",
        delivered=datetime(2030, 1, 2, 12, 0, tzinfo=UTC),
        headers=headers,
        body="My orders are attached.",
        attachments=[("Ann.xlsx", sheet), ("logo.txt", b"not a sheet")],
    )


def test_an_outlook_msg_file_the_referee_saved(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path).read_bytes()
    saved = tmp_path / "orders from Ann.msg"
    saved.write_bytes(_outlook_msg(sheet))
    report = intake(game, [saved])
    assert [(o.status, o.player, o.name) for o in report.outcomes] == [
        ("accepted", "Ann", "Ann.xlsx")
    ]
    entry = index_of(game)["entries"][0]
    assert entry["source"]["kind"] == "msg"
    assert entry["source"]["sender"] == "ann@example.com"
    assert entry["received"] == "2030-01-02T12:00:00+00:00"  # the server's Received: line
    assert accepted_sheets(game, "5001")["Ann"].read_bytes() == sheet


def test_an_outlook_msg_attached_to_a_mail(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path).read_bytes()
    msg = make_mail("ann@example.com", [], subject="FW: orders")
    msg.add_attachment(
        _outlook_msg(sheet, sender="ann.work@example.org"),
        maintype="application",
        subtype="vnd.ms-outlook",
        filename="orders.msg",
    )
    eml = tmp_path / "fw.eml"
    eml.write_bytes(bytes(msg))
    report = intake(game, [eml])
    assert [(o.status, o.player) for o in report.outcomes] == [("accepted", "Ann")]


def test_a_damaged_msg_is_answered_not_crashed_on(game: Game, tmp_path: Path) -> None:
    saved = tmp_path / "broken.msg"
    saved.write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + b"\x00" * 600)
    report = intake(game, [saved])
    assert [o.status for o in report.outcomes] == ["refused"]
    assert "not a readable Outlook message" in report.outcomes[0].summary
