"""Intake end to end: real .eml, .mbox and Maildir files built with the standard library.

Each test plays a piece of the referee's week (``shared/users.md``): sheets attached twice,
from a second address, last week's sheet, an ``.ods``, orders typed into the mail body, a
sheet after the deadline.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
import mailbox
import os
import shutil
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.intake.inbox import accept_late, intake, status
from refassist.mail.messages import MAX_ATTACHMENTS
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.fifth_millennium import sheet as layout
from refassist.store.game import Game
from refassist.store.inbox_index import Index, accepted_sheets
from refassist.store.turnsheets import write_sheets

DEADLINE = datetime(2030, 1, 5, 21, 0)
ON_TIME = datetime(2030, 1, 2, 12, 0, tzinfo=UTC)
EARLIER = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
LATE = datetime(2030, 1, 7, 9, 0, tzinfo=UTC)
XLSX = ("application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet")


@pytest.fixture
def game(tmp_path: Path) -> Game:
    names = ["Ann", "Bob", "Cleo"]
    players = [PlayerSetup(n, f"{n.lower()}@example.com") for n in names]
    g = Game.create(
        tmp_path / "game",
        find_ruleset("fifth-millennium"),
        players,
        seed=5,
        generate_seed=42,
        assign_homeworlds=True,
        first_deadline=DEADLINE,
    )
    write_sheets(g, g.load_state())
    return g


def filled_sheet(
    game: Game,
    player: str,
    tmp_path: Path,
    *,
    message: str = "hello",
    bad: bool = False,
    name: str | None = None,
) -> Path:
    """A copy of the player's sheet filled in: a message (and a broken move when ``bad``)."""
    source = game.outbox("5001") / f"{player}.xlsx"
    path = tmp_path / (name or f"{player}-{abs(hash(message)) % 10000}.xlsx")
    shutil.copy(source, path)
    wb = openpyxl.load_workbook(path)
    ws = wb["Orders"]
    ws[f"B{layout.MSG_FIRST_ROW}"] = "*"
    ws[f"C{layout.MSG_FIRST_ROW}"] = message
    if bad:
        ws["C11"] = "F99"
        ws["D11"] = "0101"
        ws["E11"] = "0102"
    wb.save(path)
    return path


def make_mail(
    sender: str,
    attachments: list[tuple[str, bytes]],
    when: datetime = ON_TIME,
    subject: str = "orders",
    body: str = "my orders attached",
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.com"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = make_msgid(domain="example.com")
    msg.set_content(body)
    for name, data in attachments:
        if name.endswith(".xlsx"):
            msg.add_attachment(data, maintype=XLSX[0], subtype=XLSX[1], filename=name)
        else:
            msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return msg


def write_eml(path: Path, msg: EmailMessage) -> Path:
    path.write_bytes(bytes(msg))
    return path


def read_reply(path: Path) -> EmailMessage:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def reply_text(path: Path) -> str:
    body = read_reply(path).get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def index_of(game: Game) -> dict:
    return json.loads((game.inbox("5001") / "index.json").read_text())


# -- the happy path ------------------------------------------------------------------------


def test_eml_with_a_valid_sheet_is_accepted_archived_and_answered(
    game: Game, tmp_path: Path
) -> None:
    master_before = sha(game.master_path)
    sheet = filled_sheet(game, "Ann", tmp_path, message="Greetings")
    eml = write_eml(
        tmp_path / "ann.eml", make_mail("Ann <ANN@example.com>", [("Ann.xlsx", sheet.read_bytes())])
    )
    report = intake(game, [eml])
    [outcome] = report.outcomes
    assert outcome.status == "accepted" and outcome.player == "Ann"
    assert accepted_sheets(game, "5001") == {"Ann": game.inbox("5001") / "accepted" / "Ann.xlsx"}
    assert sha(accepted_sheets(game, "5001")["Ann"]) == sha(sheet)
    index = index_of(game)
    [entry] = index["entries"]
    assert entry["status"] == "accepted" and entry["player"] == "Ann"
    assert entry["sha256"] == sha(sheet)
    assert entry["received"] == "2030-01-02T12:00:00+00:00"
    assert entry["source"]["sender"] == "ann@example.com"
    assert entry["source"]["message_id"].startswith("<")
    stored = game.inbox("5001") / entry["file"]
    assert stored.parent.name == "received" and sha(stored) == sha(sheet)
    assert stored.name.startswith("20300102T120000Z-" + sha(sheet)[:12])
    assert outcome.reply is not None and outcome.reply.parent == game.outbox("5001") / "replies"
    reply = read_reply(outcome.reply)
    assert reply["To"] == "Ann <ann@example.com>"
    assert reply["In-Reply-To"] == entry["source"]["message_id"]
    assert "accepted" in reply["Subject"]
    assert "Message to every player: Greetings" in reply_text(outcome.reply)
    assert sha(game.master_path) == master_before


def test_plain_xlsx_file_is_matched_by_its_token(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Bob", tmp_path)
    [outcome] = intake(game, [sheet]).outcomes
    assert outcome.status == "accepted" and outcome.player == "Bob"
    assert read_reply(outcome.reply)["To"] == "Bob <bob@example.com>"  # type: ignore[arg-type]


# -- mailboxes ------------------------------------------------------------------------------


def test_mbox_with_the_weeks_usual_mail(game: Game, tmp_path: Path) -> None:
    box_path = tmp_path / "turn.mbox"
    box = mailbox.mbox(str(box_path))
    ann = filled_sheet(game, "Ann", tmp_path)
    bob = filled_sheet(game, "Bob", tmp_path, bad=True)
    box.add(
        make_mail(
            "ann@example.com", [("Ann.xlsx", ann.read_bytes()), ("Ann copy.xlsx", ann.read_bytes())]
        )
    )
    box.add(make_mail("bob@example.com", [("Bob.xlsx", bob.read_bytes())]))
    box.add(make_mail("cleo@example.com", [("Cleo.ods", b"PK\x03\x04not really")]))
    box.add(make_mail("cleo@example.com", [], body="5001 - F10 - 2710 - 2712, thanks"))
    box.add(make_mail("stranger@spam.example", [("x.xlsx", ann.read_bytes())]))
    box.flush()
    box.close()

    report = intake(game, [box_path])
    got = [(o.status, o.player) for o in report.outcomes]
    assert got == [
        ("accepted", "Ann"),
        ("duplicate", "Ann"),
        ("problems", "Bob"),
        ("refused", "Cleo"),
        ("refused", "Cleo"),
        ("refused", ""),
    ]
    # Bob's reply lists the problem and carries the annotated sheet.
    bob_reply = report.outcomes[2].reply
    assert bob_reply is not None
    msg = read_reply(bob_reply)
    [attachment] = list(msg.iter_attachments())
    assert attachment.get_filename().endswith("-annotated.xlsx")
    annotated = tmp_path / "annotated.xlsx"
    annotated.write_bytes(attachment.get_content())
    assert openpyxl.load_workbook(annotated).sheetnames[0] == "Problems"
    assert "F99" in reply_text(bob_reply) or "short of" in reply_text(bob_reply)
    # Cleo's .ods is refused with a reply telling her to save as .xlsx.
    ods_reply = report.outcomes[3].reply
    assert ods_reply is not None and ".xlsx" in reply_text(ods_reply)
    # The mail with orders in its body is answered too.
    body_reply = report.outcomes[4].reply
    assert body_reply is not None and "no turn sheet attached" in reply_text(body_reply)
    assert accepted_sheets(game, "5001").keys() == {"Ann"}
    # Every received file is archived once, untouched; the message without attachment too.
    received = sorted(p.name for p in (game.inbox("5001") / "received").iterdir())
    assert len(received) == 4


def test_stranger_is_refused_without_reply(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    eml = write_eml(
        tmp_path / "x.eml", make_mail("someone@else.example", [("Ann.xlsx", sheet.read_bytes())])
    )
    [outcome] = intake(game, [eml]).outcomes
    assert outcome.status == "refused" and outcome.reply is None
    assert "not a player" in outcome.summary
    assert accepted_sheets(game, "5001") == {}


def test_strangers_copy_does_not_block_the_players_own(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path).read_bytes()
    stranger = write_eml(tmp_path / "s.eml", make_mail("eve@spam.example", [("A.xlsx", sheet)]))
    own = write_eml(tmp_path / "a.eml", make_mail("ann@example.com", [("A.xlsx", sheet)]))
    report = intake(game, [stranger, own])
    assert [o.status for o in report.outcomes] == ["refused", "accepted"]
    assert len(list((game.inbox("5001") / "received").iterdir())) == 1


def test_maildir_is_read_without_changing_it(game: Game, tmp_path: Path) -> None:
    folder = tmp_path / "Maildir"
    box = mailbox.Maildir(str(folder))
    box.add(
        make_mail(
            "cleo@example.com", [("Cleo.xlsx", filled_sheet(game, "Cleo", tmp_path).read_bytes())]
        )
    )
    box.add(
        make_mail(
            "bob@example.com", [("Bob.xlsx", filled_sheet(game, "Bob", tmp_path).read_bytes())]
        )
    )
    before = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    report = intake(game, [folder])
    assert sorted(o.player for o in report.outcomes) == ["Bob", "Cleo"]
    assert set(accepted_sheets(game, "5001")) == {"Bob", "Cleo"}
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) == before


# -- identity -------------------------------------------------------------------------------


def test_another_players_sheet_from_my_address_is_refused(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    eml = write_eml(
        tmp_path / "b.eml", make_mail("bob@example.com", [("A.xlsx", sheet.read_bytes())])
    )
    [outcome] = intake(game, [eml]).outcomes
    assert outcome.status == "refused" and outcome.player == "Bob"
    assert "Ann's turn sheet" in outcome.summary
    assert read_reply(outcome.reply)["To"] == "Bob <bob@example.com>"  # type: ignore[arg-type]
    assert accepted_sheets(game, "5001") == {}


def test_edited_identity_breaks_the_token(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    wb = openpyxl.load_workbook(sheet)
    for row in wb["_meta"].iter_rows():
        if row[0].value == "player":
            row[1].value = "Bob"
    wb.save(sheet)
    eml = write_eml(
        tmp_path / "b.eml", make_mail("bob@example.com", [("B.xlsx", sheet.read_bytes())])
    )
    [outcome] = intake(game, [eml]).outcomes
    assert outcome.status == "refused"
    assert "signature does not match" in outcome.summary
    assert outcome.reply is not None


def test_second_address_as_alias(game: Game, tmp_path: Path) -> None:
    text = (game.path / "game.toml").read_text()
    text = text.replace(
        'email = "ann@example.com"', 'email = "ann@example.com"\naliases = ["ann@work.example"]'
    )
    (game.path / "game.toml").write_text(text)
    game = Game.open(game.path)
    sheet = filled_sheet(game, "Ann", tmp_path)
    eml = write_eml(
        tmp_path / "a.eml", make_mail("ann@work.example", [("A.xlsx", sheet.read_bytes())])
    )
    [outcome] = intake(game, [eml]).outcomes
    assert outcome.status == "accepted"


def test_sheet_for_a_past_turn_is_refused(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path)
    state = game.load_state()
    state.year = 5002
    game.save_state(state)
    [outcome] = intake(game, [sheet]).outcomes
    assert outcome.status == "refused"
    assert "earlier turn" in outcome.summary
    assert "5002" in reply_text(outcome.reply)  # type: ignore[arg-type]
    assert accepted_sheets(game, "5002") == {}


# -- which sheet counts ---------------------------------------------------------------------


def test_identical_sheet_twice_is_noted_not_refiled(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path).read_bytes()
    first = write_eml(tmp_path / "1.eml", make_mail("ann@example.com", [("A.xlsx", sheet)]))
    intake(game, [first])
    second = write_eml(tmp_path / "2.eml", make_mail("ann@example.com", [("A.xlsx", sheet)]))
    [outcome] = intake(game, [second]).outcomes
    assert outcome.status == "duplicate" and outcome.reply is None
    assert len(list((game.inbox("5001") / "received").iterdir())) == 1
    assert [e["status"] for e in index_of(game)["entries"]] == ["accepted", "duplicate"]


@pytest.mark.parametrize("order", ["newest last", "newest first"])
def test_latest_valid_sheet_wins(game: Game, tmp_path: Path, order: str) -> None:
    old = filled_sheet(game, "Ann", tmp_path, message="first thoughts")
    new = filled_sheet(game, "Ann", tmp_path, message="final orders")
    mails = [
        write_eml(
            tmp_path / "old.eml",
            make_mail("ann@example.com", [("A.xlsx", old.read_bytes())], EARLIER),
        ),
        write_eml(
            tmp_path / "new.eml",
            make_mail("ann@example.com", [("A.xlsx", new.read_bytes())], ON_TIME),
        ),
    ]
    if order == "newest first":
        mails.reverse()
    for mail in mails:
        intake(game, [mail])
    assert sha(accepted_sheets(game, "5001")["Ann"]) == sha(new)
    statuses = {e["received"][:10]: e["status"] for e in index_of(game)["entries"]}
    assert statuses == {"2030-01-01": "superseded", "2030-01-02": "accepted"}


def test_a_later_sheet_with_problems_leaves_the_accepted_one(game: Game, tmp_path: Path) -> None:
    good = filled_sheet(game, "Ann", tmp_path, message="good")
    bad = filled_sheet(game, "Ann", tmp_path, message="bad", bad=True)
    intake(
        game,
        [
            write_eml(
                tmp_path / "1.eml",
                make_mail("ann@example.com", [("A.xlsx", good.read_bytes())], EARLIER),
            )
        ],
    )
    [outcome] = intake(
        game,
        [
            write_eml(
                tmp_path / "2.eml",
                make_mail("ann@example.com", [("A.xlsx", bad.read_bytes())], ON_TIME),
            )
        ],
    ).outcomes
    assert outcome.status == "problems"
    assert "earlier accepted sheet stands" in reply_text(outcome.reply)  # type: ignore[arg-type]
    assert sha(accepted_sheets(game, "5001")["Ann"]) == sha(good)
    row = {p.player: p for p in status(game).players}["Ann"]
    assert row.state == "accepted" and "later sheet had problems" in row.detail


# -- deadline -------------------------------------------------------------------------------


def test_late_sheet_waits_for_the_referee(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Cleo", tmp_path)
    eml = write_eml(
        tmp_path / "c.eml", make_mail("cleo@example.com", [("C.xlsx", sheet.read_bytes())], LATE)
    )
    [outcome] = intake(game, [eml]).outcomes
    assert outcome.status == "late"
    assert "after the deadline" in reply_text(outcome.reply)  # type: ignore[arg-type]
    assert accepted_sheets(game, "5001") == {}
    assert (game.inbox("5001") / "late" / "Cleo.xlsx").is_file()
    assert {p.player: p.state for p in status(game).players}["Cleo"] == "late"
    assert accept_late(game, "5001") == ["Cleo"]
    assert sha(accepted_sheets(game, "5001")["Cleo"]) == sha(sheet)
    assert not (game.inbox("5001") / "late" / "Cleo.xlsx").exists()
    [entry] = index_of(game)["entries"]
    assert entry["status"] == "accepted" and entry["accepted_late"] is True
    assert {p.player: p.state for p in status(game).players}["Cleo"] == "accepted"


def test_late_file_by_its_modification_time(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Bob", tmp_path)
    late = LATE.timestamp()
    os.utime(sheet, (late, late))
    [outcome] = intake(game, [sheet]).outcomes
    assert outcome.status == "late"


def test_accept_late_for_named_players_only(game: Game, tmp_path: Path) -> None:
    for player in ("Ann", "Bob"):
        sheet = filled_sheet(game, player, tmp_path)
        intake(
            game,
            [
                write_eml(
                    tmp_path / f"{player}.eml",
                    make_mail(
                        f"{player.lower()}@example.com", [("s.xlsx", sheet.read_bytes())], LATE
                    ),
                )
            ],
        )
    assert accept_late(game, "5001", ["Bob"]) == ["Bob"]
    assert set(accepted_sheets(game, "5001")) == {"Bob"}
    assert set(Index.of(game, "5001").late) == {"Ann"}


# -- status ---------------------------------------------------------------------------------


def test_status_shows_who_is_in_and_who_is_not(game: Game, tmp_path: Path) -> None:
    intake(game, [filled_sheet(game, "Ann", tmp_path)])
    intake(game, [filled_sheet(game, "Bob", tmp_path, bad=True)])
    report = status(game)
    assert report.step == "5001"
    states = {p.player: p.state for p in report.players}
    assert states == {"Ann": "accepted", "Bob": "problems", "Cleo": "missing"}


def test_setup_sheets_are_taken_in_like_orders(tmp_path: Path) -> None:
    players = [PlayerSetup(n, f"{n.lower()}@example.com") for n in ("Ann", "Bob")]
    g = Game.create(
        tmp_path / "setup",
        find_ruleset("fifth-millennium"),
        players,
        seed=2,
        generate_seed=42,
        first_deadline=DEADLINE,
    )
    state = g.load_state()
    assert state.year == 5000
    [sheet] = write_sheets(g, state, ["Ann"])
    choice = sorted(s.hex for s in state.systems if s.resource_class == "A")[0]
    wb = openpyxl.load_workbook(sheet)
    wb["Orders"][layout.HOMEWORLD_CELL] = choice
    path = tmp_path / "Ann-setup.xlsx"
    wb.save(path)
    eml = write_eml(
        tmp_path / "a.eml", make_mail("ann@example.com", [("A.xlsx", path.read_bytes())])
    )
    [outcome] = intake(g, [eml]).outcomes
    assert outcome.status == "accepted"
    assert f"Homeworld: {choice}" in reply_text(outcome.reply)  # type: ignore[arg-type]
    assert set(accepted_sheets(g, "5000")) == {"Ann"}
    assert {p.player: p.state for p in status(g).players} == {"Ann": "accepted", "Bob": "missing"}


def test_attachment_names_cannot_escape_the_inbox(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path).read_bytes()
    eml = write_eml(
        tmp_path / "a.eml", make_mail("ann@example.com", [("../../../evil\x00.xlsx", sheet)])
    )
    [outcome] = intake(game, [eml]).outcomes
    assert outcome.status == "accepted"
    [stored] = (game.inbox("5001") / "received").iterdir()
    assert stored.name.endswith("-evil.xlsx")
    assert not (game.path.parent / "evil.xlsx").exists()


def test_signature_images_are_ignored_not_answered(game: Game, tmp_path: Path) -> None:
    sheet = filled_sheet(game, "Ann", tmp_path).read_bytes()
    msg = make_mail("ann@example.com", [("Ann.xlsx", sheet)])
    msg.add_attachment(b"\x89PNG\r\n\x1a\n", maintype="image", subtype="png", filename="logo.png")
    msg.add_attachment(
        b"-----BEGIN PGP SIGNATURE-----",
        maintype="application",
        subtype="pgp-signature",
        filename="signature.asc",
    )
    [outcome] = intake(game, [write_eml(tmp_path / "a.eml", msg)]).outcomes
    assert outcome.status == "accepted"
    only_logo = make_mail("bob@example.com", [])
    only_logo.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="logo.png")
    [outcome] = intake(game, [write_eml(tmp_path / "b.eml", only_logo)]).outcomes
    assert outcome.status == "refused"
    assert "logo.png" in reply_text(outcome.reply)  # type: ignore[arg-type]


def test_pdf_print_of_the_sheet_is_answered(game: Game, tmp_path: Path) -> None:
    msg = make_mail("cleo@example.com", [])
    msg.add_attachment(
        b"%PDF-1.4 my printed sheet", maintype="application", subtype="pdf", filename="sheet.pdf"
    )
    [outcome] = intake(game, [write_eml(tmp_path / "c.eml", msg)]).outcomes
    assert outcome.status == "refused" and "PDF document" in outcome.summary
    assert "PDF document" in reply_text(outcome.reply)  # type: ignore[arg-type]


# -- many attachments, one reply -----------------------------------------------------------------


def test_inline_logos_do_not_count_against_the_cap(game: Game, tmp_path: Path) -> None:
    """A signature with 25 inline logos before the sheet: the sheet is still read."""
    msg = make_mail("ann@example.com", [])
    for n in range(25):
        msg.add_attachment(
            b"\x89PNG\r\n\x1a\n",
            maintype="image",
            subtype="png",
            filename=f"logo{n}.png",
            disposition="inline",
        )
    sheet = filled_sheet(game, "Ann", tmp_path).read_bytes()
    msg.add_attachment(sheet, maintype="application", subtype="octet-stream", filename="Ann.xlsx")
    [outcome] = intake(game, [write_eml(tmp_path / "logos.eml", msg)]).outcomes
    assert outcome.status == "accepted"
    assert outcome.notes == []
    assert "logo" not in reply_text(outcome.reply)  # type: ignore[arg-type]


def test_a_mail_over_the_cap_gets_one_reply_naming_what_was_not_read(
    game: Game, tmp_path: Path
) -> None:
    sheets = [
        (f"copy{n:02d}.xlsx", filled_sheet(game, "Ann", tmp_path, message=f"m{n}").read_bytes())
        for n in range(MAX_ATTACHMENTS + 2)
    ]
    msg = make_mail("ann@example.com", sheets)
    msg.add_attachment(b"%PDF", maintype="text", subtype="calendar", filename="invite.ics")
    source = write_eml(tmp_path / "many.eml", msg)
    replies = game.outbox("5001") / "replies"

    result = CliRunner().invoke(main, ["intake", str(game.path), str(source)])

    eml = sorted(replies.glob("*.eml"))
    assert len(eml) == 1, eml  # one mail, one reply
    text = " ".join(reply_text(eml[0]).split())
    assert f"your message carried {MAX_ATTACHMENTS} files that could be turn sheets" in text
    assert f"more than {MAX_ATTACHMENTS} files that could be turn sheets; not read: " in text
    assert "copy20.xlsx, copy21.xlsx" in text
    assert "not a turn sheet, not read: invite.ics" in text
    out = " ".join(result.output.split())
    assert "not read: more than 20 files that could be turn sheets" in out
    assert out.count("not read: more than") == 1
    entries = index_of(game)["entries"]
    assert len(entries) == MAX_ATTACHMENTS
    assert all("copy21.xlsx" in " ".join(e["mail_notes"]) for e in entries)


def test_two_sheets_in_one_mail_get_one_reply(game: Game, tmp_path: Path) -> None:
    ann = filled_sheet(game, "Ann", tmp_path).read_bytes()
    bob = filled_sheet(game, "Bob", tmp_path).read_bytes()
    msg = make_mail("ann@example.com", [("Ann.xlsx", ann), ("Bob.xlsx", bob)])
    outcomes = intake(game, [write_eml(tmp_path / "two.eml", msg)]).outcomes
    assert [o.status for o in outcomes] == ["accepted", "refused"]
    assert outcomes[0].reply == outcomes[1].reply
    [eml] = sorted((game.outbox("5001") / "replies").glob("*.eml"))
    message = read_reply(eml)
    assert "2 files received" in str(message["Subject"])
    text = reply_text(eml)
    assert "1. your turn sheet Ann.xlsx for Year 5001 is accepted" in text
    assert "2. the file Bob.xlsx you sent could not be used" in text
    assert text.count("Dear Ann,") == 1


def test_many_sheets_are_checked_ahead_in_other_processes_with_the_same_outcome(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From four sheets on, the sheets are checked in other processes while the intake files
    them in order: no workbook is checked in the intake's own process, and the index, the
    statuses and the replies are those of checking one sheet after another."""
    from refassist.intake import inbox

    files = [
        filled_sheet(game, "Ann", tmp_path, message="first"),
        filled_sheet(game, "Bob", tmp_path, bad=True),
        filled_sheet(game, "Ann", tmp_path, message="second"),
        filled_sheet(game, "Cleo", tmp_path, message="hi"),
        tmp_path / "not-a-sheet.xlsx",
    ]
    files[-1].write_bytes(b"PK\x03\x04 not a workbook")
    twin_path = tmp_path / "twin"
    shutil.copytree(game.path, twin_path)
    twin = Game.open(twin_path)
    here: list[int] = []
    real = inbox.check_sheet

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        here.append(os.getpid())
        return real(*args, **kwargs)

    monkeypatch.setattr(inbox, "check_sheet", counted)
    ahead = intake(game, files)
    # Every workbook checked ahead, in the checking processes; only the file that is not one
    # (refused at once) is looked at here.
    assert len(here) == 1
    monkeypatch.setattr(inbox, "CHECK_AHEAD_FROM", 1000)
    one_by_one = intake(twin, files)
    assert len(here) == 1 + len(files)
    assert [(o.status, o.player, o.name) for o in ahead.outcomes] == [
        (o.status, o.player, o.name) for o in one_by_one.outcomes
    ]
    assert [o.status for o in ahead.outcomes] == [
        "accepted",
        "problems",
        "accepted",
        "accepted",
        "refused",
    ]

    def comparable(g: Game) -> list[tuple[str, str, str, list[str]]]:
        entries = index_of(g)["entries"]
        return [
            (e["name"], e["status"], e["player"], [p["message"] for p in e["problems"]])
            for e in entries
        ]

    assert comparable(game) == comparable(twin)
    replies = sorted(p.name for p in (game.outbox("5001") / "replies").iterdir())
    assert replies == sorted(p.name for p in (twin.outbox("5001") / "replies").iterdir())


def test_a_check_result_crosses_processes_with_its_rules_named(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check made ahead comes back pickled: its ruleset travels as a name and is the
    registered one on arrival, whatever the sending process had attached to its own."""
    import pickle

    from refassist.store.turnsheets import check_sheet

    result = check_sheet(filled_sheet(game, "Ann", tmp_path), game)
    monkeypatch.setattr(result.ruleset, "validate", lambda *args: [])  # not picklable
    back = pickle.loads(pickle.dumps(result))
    assert back.ruleset is find_ruleset("fifth-millennium")
    assert (back.player, back.orders_text, back.problems) == (
        result.player,
        result.orders_text,
        result.problems,
    )
