"""Filing the sheets players send, and the intake that feeds it.

The referee's week (``shared/users.md``): between Wednesday and Saturday mails arrive, some
with the sheet twice, some from a second address, one with last week's sheet, one as ``.ods``,
one with the orders typed into the body.  The intake takes whatever the referee saved (sheet
files, ``.eml`` and Outlook ``.msg`` files, an ``.mbox``, a Maildir) or fetches from an IMAP
folder (`imap_intake`), and for every file received:

* archives it untouched as ``inbox/<step>/received/<time>-<sha12>-<name>`` and records it in
  ``inbox/<step>/index.json`` (hash, received time, source, sender, player, status, problems);
* matches the sender's address to a player (``game.toml``) and the sheet's token to that player
  and the current step; a mismatch is refused and reported, never filed as someone's orders;
* checks the sheet (`turnsheets.check_sheet`); a valid sheet becomes
  ``inbox/<step>/accepted/<player>.xlsx`` (``.ods`` for a sheet sent as one: the only thing
  resolve reads), the newest valid one winning; one received after the deadline goes to
  ``late/<player>.xlsx`` until the referee accepts it (`accept_late`); an identical file
  received again is noted, not refiled;
* writes a reply per sheet into ``outbox/<step>/replies/``: accepted, with the orders as the
  referee read them, or the problems with an annotated copy of the sheet attached.

Nothing here touches ``master.xlsx``: filing is not resolving.  Statuses in the index:
``accepted``, ``problems``, ``refused``, ``late``, ``duplicate``, ``superseded``.
"""

from __future__ import annotations

import contextlib
import email.policy
import hashlib
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from refassist.atomic import write_bytes
from refassist.errors import NotATurnSheet, RefassistError, UsageError
from refassist.mail.messages import (
    IncomingMail,
    authentication_failure,
    build_message,
    clean_filename,
    is_maildir,
    iter_maildir,
    iter_mbox,
    read_eml,
    read_outlook_msg,
    write_eml,
)
from refassist.mail.sending import outgoing
from refassist.processes import can_fork, default_workers, worker_pool
from refassist.rulesets.base import SHEETS_WITH_PROBLEMS, Step
from refassist.store import sheetstore
from refassist.store.game import Game
from refassist.store.inbox_index import (
    Index,
    PlayerStatus,
    iso,
    now_utc,
    parse_iso,
    sheet_states,
    unfinished_mail,
)
from refassist.store.journal import describe, pending
from refassist.store.outbox import (
    archived_before,
    regenerate_advice,
    reports_written,
    stale_files,
    unreported_steps,
)
from refassist.store.recovery import working
from refassist.store.turn_seed import commitment
from refassist.store.turnsheets import CheckResult, check_sheet, filed_filename, sheet_filename
from refassist.text.i18n import Said, Words, again, said, said_as
from refassist.text.words import counted
from refassist.turns import manifest_or_empty
from refassist.workbook.annotate import annotate
from refassist.workbook.sheetio import TURN_SHEET_KINDS, sniff

Progress = Callable[[int, int, str], None]


def accept_late(game: Game, step: str, players: Iterable[str] | None = None) -> list[str]:
    """Accept the late sheets of ``players`` (all late sheets when None); returns who.

    The referee decides: a late sheet replaces the player's accepted one.  Takes the game lock.
    """
    with working(game):
        index = Index.of(game, step)
        wanted = list(index.late) if players is None else list(players)
        unknown = [p for p in wanted if p not in index.late]
        if unknown:
            have = ", ".join(sorted(index.late)) or "nobody"
            raise UsageError(
                f"no late sheet from {', '.join(unknown)} for {step}; late sheets: {have}"
            )
        done = []
        stale: list[Path] = []
        for player in wanted:
            info = index.late.pop(player)
            source = index.folder / str(info["file"])
            data = source.read_bytes()
            target = index.folder / "accepted" / filed_filename(player, data)
            write_bytes(target, data)
            previous = index.accepted.get(player)
            if previous is not None:
                index.entry(int(previous["entry"]))["status"] = "superseded"
                stale += filter(None, [_replaced_file(index.folder, previous, target)])
            entry = index.entry(int(info["entry"]))
            entry["status"] = "accepted"
            entry["accepted_late"] = True
            index.accepted[player] = {
                "file": f"accepted/{target.name}",
                "entry": info["entry"],
                "received": info.get("received", ""),
                "sha256": info.get("sha256", ""),
            }
            stale.append(source)  # the late copy, once the index names the accepted one
            done.append(player)
        index.save()
        _remove(stale)
        return done


def _copy_of_ods(data: bytes, w: Words) -> str:
    """For a sheet sent as ``.ods``: what the marked copy is (an ``.xlsx`` of the sheet's
    contents, without its formatting), so the player is not surprised by another format."""
    if sniff(data).kind != "ods":
        return ""
    return " " + w.gettext(
        "You sent an OpenDocument spreadsheet (.ods), so the marked copy is an Excel workbook "
        "(.xlsx) of what your sheet holds, without its formatting: fix the cells in your own "
        "sheet (or in the copy) and send it back as .ods or .xlsx."
    )


def _replaced_file(folder: Path, replaced: dict[str, Any], kept: Path) -> Path | None:
    """The filed sheet a newer one replaced when it had another name (an ``.xlsx`` replaced
    by an ``.ods``, or the other way), to remove once the index no longer names it (one
    sheet per player in ``accepted/`` and ``late/``, as the referee expects; a crash between
    the two leaves an extra file, never an index naming a removed one).  None when the same
    name was simply overwritten."""
    old = folder / str(replaced.get("file", ""))
    return old if old.name and old != kept and old.parent == kept.parent else None


def _remove(paths: list[Path]) -> None:
    """Remove the replaced sheets once the index that named them is saved."""
    for path in paths:
        path.unlink(missing_ok=True)
    paths.clear()


@dataclass
class StatusReport:
    """What `status` found: the step, its deadline, each player, and the dice commitment.

    ``commitment`` is the SHA-256 of the seed this step's dice will come from, to publish
    before the deadline (docs/dice.md); ``interrupted`` says that a resolve or rollback was
    interrupted and will be finished by the next command that writes.
    """

    step: str
    label: str
    deadline: str
    players: list[PlayerStatus]
    commitment: str = ""
    interrupted: str = ""
    #: Outbox files that no longer match the master and the command that replaces them.
    stale: list[str] = field(default_factory=list)
    #: Messages of this step's outbox not yet sent (`sending.outgoing`).
    unsent: int = 0
    #: Which reports the players are owed and when to send them (`report_advice`).
    reports: list[str] = field(default_factory=list)
    #: The game's own word on its sequence (`Ruleset.status_notes`): exchanges skipped, why.
    notes: list[str] = field(default_factory=list)
    #: Mail an intake left half done: filed in part, or its reply owed (`unfinished_mail`).
    unfinished: list[str] = field(default_factory=list)


def status(game: Game) -> StatusReport:
    """Who has sent a valid sheet for the current step, who has not, who has problems.

    Only reads: an interrupted command is reported, not repaired (the master is whole either
    way: the old turn or the new one).
    """
    entry = pending(game.path)
    state = game.load_state()
    step = game.step(state)
    rows = sheet_states(game, step)
    over = game.ruleset.game_over(state)
    return StatusReport(
        step.key,
        step.label,
        game.deadline_text(step.key),
        rows,
        commitment="" if over else commitment(game, state).sha256,
        interrupted=describe(entry) if entry is not None else "",
        stale=regenerate_advice(game, stale_files(game, state)),
        unsent=sum(1 for item in outgoing(game, step.key) if not item.held),
        reports=report_advice(game, step),
        notes=game.ruleset.status_notes(state),
        unfinished=unfinished_mail(game, step.key),
    )


# --------------------------------------------------------------------------------------------
# Intake
# --------------------------------------------------------------------------------------------


@dataclass
class Received:
    """One file to file: its bytes, name, when it arrived and where it came from."""

    name: str
    data: bytes
    received: datetime
    source: dict[str, str]
    sender: str | None = None
    mail: IncomingMail | None = None


@dataclass
class Outcome:
    """What the intake did with one received item, for the referee's summary."""

    status: str
    player: str
    name: str
    summary: str
    reply: Path | None = None
    entry: dict[str, Any] = field(default_factory=dict)
    #: What the mail carried that was not read (said once per mail).
    notes: list[str] = field(default_factory=list)


@dataclass
class IntakeReport:
    step: str
    outcomes: list[Outcome]
    #: Server messages filed by an earlier run that stopped before marking them (now marked).
    already_filed: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)


def _file_time(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC).replace(microsecond=0)


def _mail_source(kind: str, mail: IncomingMail) -> dict[str, str]:
    source = {
        "kind": kind,
        "path": mail.source,
        "message_id": mail.message_id,
        "sender": mail.sender,
        "subject": mail.subject,
    }
    if mail.authentication:  # the referee's server's verdicts, recorded whatever they are
        source["authentication"] = " ".join(f"{k}={v}" for k, v in mail.authentication.items())
    return source


@dataclass
class Unfiled:
    """A message that carries nothing to file (unreadable, or without attachments)."""

    kind: str
    mail: IncomingMail


def items_of_mail(kind: str, mail: IncomingMail) -> Iterator[Received | Unfiled]:
    candidates = [a for a in mail.attachments if a.maybe_sheet]
    if mail.problem or not candidates:
        yield Unfiled(kind, mail)
        return
    received = mail.received or now_utc()
    for attachment in candidates:
        yield Received(
            name=attachment.filename,
            data=attachment.data,
            received=received,
            source=_mail_source(kind, mail),
            sender=mail.sender,
            mail=mail,
        )


def _looks_like_mbox(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(5) == b"From "
    except OSError:
        return False


#: What a plain folder given to the intake is read for: sheets and saved mail, each file as
#: if it had been named on the command line.
FOLDER_SUFFIXES = (".xlsx", ".ods", ".eml", ".msg", ".mbox")


def _folder_files(path: Path) -> list[Path]:
    """The files of a plain folder that the intake reads, by name: sheets and saved mail at
    its top level (not its sub-folders, which may be anything); the lock files LibreOffice
    and Excel leave beside an open sheet (``.~lock.*#``, ``~$*``) and hidden files are not
    sheets."""
    try:
        entries = sorted(path.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        raise UsageError(f"cannot read the folder {path}: {exc.strerror or exc}") from exc
    files = [
        p
        for p in entries
        if p.is_file()
        and p.suffix.lower() in FOLDER_SUFFIXES
        and not p.name.startswith((".", "~$"))
    ]
    if not files:
        raise UsageError(
            f"{path} is a folder with no sheet (.xlsx, .ods) or mail (.eml, .msg, .mbox) in it, "
            "nor a Maildir (cur/, new/ and tmp/)"
        )
    return files


def expand_sources(sources: Iterable[Path]) -> list[Received | Unfiled]:
    """Every item the sources hold: sheet files, and mail attachments (or whole mails that
    carry nothing to file).  A folder is a Maildir, or else a plain folder whose sheets and
    mail files are read as if each had been given (`_folder_files`)."""
    items: list[Received | Unfiled] = []
    for source in sources:
        path = Path(source)
        if not path.exists():
            raise UsageError(
                f"{path} does not exist; give sheet files, .eml/.mbox files or a folder of "
                "them, or a Maildir"
            )
        if path.is_dir():
            if is_maildir(path):
                for mail in iter_maildir(path):
                    items.extend(items_of_mail("maildir", mail))
            else:
                for inside in _folder_files(path):
                    items.extend(_items_of_file(inside))
        else:
            items.extend(_items_of_file(path))
    return items


def _items_of_file(path: Path) -> list[Received | Unfiled]:
    """What one file holds: a saved mail's sheets, or the file itself as a sheet."""
    items: list[Received | Unfiled] = []
    if path.suffix.lower() == ".eml":
        items.extend(items_of_mail("eml", read_eml(path)))
    elif path.suffix.lower() == ".msg":
        items.extend(items_of_mail("msg", read_outlook_msg(path)))
    elif path.suffix.lower() == ".mbox" or _looks_like_mbox(path):
        for mail in iter_mbox(path):
            items.extend(items_of_mail("mbox", mail))
    else:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
        items.append(
            Received(
                name=clean_filename(path.name, "sheet.xlsx"),
                data=data,
                received=_file_time(path),
                source={"kind": "file", "path": str(path)},
            )
        )
    return items


@dataclass
class _ReplyPart:
    subject: str
    body: str
    attachments: list[Path]


@dataclass
class _MailReply:
    """The one reply to one mail: a part per file it carried, and what was not read.

    Kept in the index while its mail is filed and until it is written (`record`,
    `from_record`), so that a killed intake's next run still writes it, whole and once."""

    player: str
    to: str
    message_id: str
    notes: list[str]
    path: Path
    parts: list[_ReplyPart] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """The reply as the index keeps it; files by their names in the replies folder."""
        folder = self.path.parent

        def name(path: Path) -> str:
            return path.name if path.parent == folder else str(path)

        return {
            "player": self.player,
            "to": self.to,
            "message_id": self.message_id,
            # A note said in the player's language is kept as said, to say it again.
            "notes": [{"say": said_as(n)} if said_as(n) else str(n) for n in self.notes],
            "file": self.path.name,
            "parts": [
                {
                    "subject": part.subject,
                    "body": part.body,
                    "attachments": [name(a) for a in part.attachments],
                }
                for part in self.parts
            ],
        }

    @classmethod
    def from_record(cls, record: dict[str, Any], folder: Path) -> _MailReply:
        """A reply kept by `record`, its files in ``folder`` (the step's replies)."""
        return cls(
            player=str(record.get("player", "")),
            to=str(record.get("to", "")),
            message_id=str(record.get("message_id", "")),
            notes=[_kept_note(n) for n in record.get("notes", [])],
            path=folder / str(record.get("file", "reply.eml")),
            parts=[
                _ReplyPart(
                    str(part.get("subject", "")),
                    str(part.get("body", "")),
                    [folder / str(a) for a in part.get("attachments", [])],
                )
                for part in record.get("parts", [])
            ],
        )

    def combined(self, w: Words) -> tuple[str, str, list[Path]]:
        greeting = w("Dear {player},", player=self.player) + "\n\n"
        attachments = [a for part in self.parts for a in part.attachments]
        if len(self.parts) == 1:
            subject, body = self.parts[0].subject, self.parts[0].body
        else:
            subject = w("{n} files received: ", n=len(self.parts)) + "; ".join(
                dict.fromkeys(part.subject for part in self.parts)
            )
            sections = [
                f"{n}. {part.body.removeprefix(greeting).strip()}"
                for n, part in enumerate(self.parts, start=1)
            ]
            body = (
                greeting
                + w(
                    "your message carried {n} files that could be turn sheets; this is what "
                    "became of each.",
                    n=len(self.parts),
                )
                + "\n\n"
                + "\n\n".join(sections)
                + "\n"
            )
        if self.notes:
            body = (
                body.rstrip("\n")
                + "\n\n"
                + w.gettext("Also in your message, not read:")
                + "\n\n"
                + "\n".join(f"  - {again(note, w)}" for note in self.notes)
                + "\n"
            )
        return subject, body, attachments


class _Intake:
    """Files received items for the current step of one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state = game.load_state()
        self.step = game.step(self.state)
        self.index = Index.of(game, self.step.key)
        #: Filed sheets replaced under another name, removed once the index is saved.
        self.stale: list[Path] = []
        self.replies = game.outbox(self.step.key) / "replies"
        deadline = game.deadline(self.step.key)
        self.deadline = deadline.astimezone() if deadline is not None else None
        #: Replies to a mail not yet written: one mail gets one reply, however many files it
        #: carried (`flush` writes it once the mail's last file is filed).
        self.pending: dict[int, _MailReply] = {}
        self.noted: set[int] = set()
        #: Checks started in other processes (`checks_ahead`), by the file's SHA-256 and name.
        self.ahead: dict[tuple[str, str], Future[CheckResult | NotATurnSheet | None]] = {}

    # -- storing ------------------------------------------------------------------------------
    def store(self, name: str, data: bytes, received: datetime, sha: str) -> str:
        stamp = received.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        relative = f"received/{stamp}-{sha[:12]}-{clean_filename(name)}"
        write_bytes(self.index.folder / relative, data)
        return relative

    def new_entry(
        self, name: str, sha: str, received: datetime, source: dict[str, str], file: str
    ) -> dict[str, Any]:
        return {
            "file": file,
            "name": name,
            "sha256": sha,
            "received": iso(received),
            "filed": iso(now_utc()),
            "source": source,
            "player": "",
            "status": "refused",
            "problems": [],
            "note": "",
        }

    # -- replies ------------------------------------------------------------------------------
    def step_name(self, words: Words) -> str:
        """The step as the reader reads it: its label, in the reader's language when the game
        said it (`i18n.again`), never its folder key (``1-1-2r``)."""
        return again(self.step.label, words)

    def address_of(self, player: str, sender: str | None) -> str:
        if sender:
            return sender
        cfg = self.game.config.player(player)
        return cfg.email if cfg else ""

    def reply(
        self,
        player: str,
        sender: str | None,
        mail: IncomingMail | None,
        tag: str,
        subject: str,
        body: str,
        attachments: list[Path] | None = None,
    ) -> Path | None:
        to = self.address_of(player, sender)
        if not to:
            return None
        if mail is not None:
            group = self.pending.get(id(mail))
            if group is None:
                path = self.replies / f"{sheet_filename(player)[:-5]}-{tag}.eml"
                group = self.pending[id(mail)] = _MailReply(
                    player, to, mail.message_id, list(mail.notes), path
                )
            group.parts.append(_ReplyPart(subject, body, list(attachments or [])))
            return group.path
        msg = build_message(
            sender=self.game.config.referee_email,
            to=to,
            subject=f"{self.game.config.name}, {self.step_name(self.game.words_for(player))}: "
            f"{subject}",
            body=body,
            attachments=attachments or [],
            to_name=player,
            sender_name=self.game.config.sender_name,
        )
        _thread(msg, mail.message_id if mail is not None else "")
        path = self.replies / f"{sheet_filename(player)[:-5]}-{tag}.eml"
        write_eml(path, msg)
        return path

    def keep_progress(self, key: str, parts: Iterable[int]) -> None:
        """Record that ``parts`` of the message ``key`` are filed, with the reply they owe
        so far: saved with the index, in the same write as the entries of those parts."""
        replies = [group.record() for group in self.pending.values()]
        self.index.partial[key] = {"parts": sorted(parts), "replies": replies}

    def resume(self, key: str, mail: IncomingMail | None) -> set[int]:
        """The parts of the message ``key`` an interrupted run filed, its reply so far taken
        up again (the parts filed now are added to it)."""
        progress = self.index.partial.get(key)
        if progress is None:
            return set()
        for number, record in enumerate(progress.get("replies", [])):
            group = _MailReply.from_record(record, self.replies)
            self.pending[id(mail) if mail is not None and number == 0 else -1 - number] = group
        return {int(n) for n in progress.get("parts", [])}

    def flush(self, key: str = "") -> None:
        """The one reply of each mail whose files are all filed: owed (in the index, in the
        same write that marks the message ``key`` done), then written, then no longer owed."""
        domain = self.game.config.referee_email.split("@")[-1] or "refassist.invalid"
        for group in self.pending.values():
            # The reply's own Message-ID, chosen now: a run killed after writing the reply
            # but before recording it written finds it by this and does not write it again.
            self.index.owed.append({**group.record(), "reply_id": make_msgid(domain=domain)})
        self.pending.clear()
        self.index.partial.pop(key, None)
        self.index.save()
        self.write_owed()

    def write_owed(self) -> None:
        """Write the replies the index says are owed (those of this run, and those of a run
        killed before it wrote them), then record that they are written."""
        if not self.index.owed:
            return
        for record in self.index.owed:
            group = _MailReply.from_record(record, self.replies)
            reply_id = str(record.get("reply_id", ""))
            if reply_id and _written(group.path, reply_id):
                continue
            subject, body, attachments = group.combined(self.game.words_for(group.player))
            msg = build_message(
                sender=self.game.config.referee_email,
                to=group.to,
                subject=f"{self.game.config.name}, "
                f"{self.step_name(self.game.words_for(group.player))}: {subject}",
                body=body,
                attachments=[a for a in attachments if a.is_file()],
                to_name=group.player,
                sender_name=self.game.config.sender_name,
            )
            _thread(msg, group.message_id)
            if reply_id:
                msg.replace_header("Message-ID", reply_id)
            write_eml(group.path, msg)
        self.index.owed.clear()
        self.index.save()

    def mail_notes(self, mail: IncomingMail | None, entry: dict[str, Any]) -> list[str]:
        """What a mail carried that was not read, recorded on the entries of its files and
        returned for the first of them only (the intake output says it once per mail)."""
        if mail is None or not mail.notes:
            return []
        entry["mail_notes"] = list(mail.notes)
        if id(mail) in self.noted:
            return []
        self.noted.add(id(mail))
        return list(mail.notes)

    # -- one item -----------------------------------------------------------------------------
    def mail_without_sheet(self, unfiled: Unfiled) -> Outcome:
        mail = unfiled.mail
        raw = mail.raw or b""
        sha = hashlib.sha256(raw).hexdigest()
        received = mail.received or now_utc()
        source = _mail_source(unfiled.kind, mail)
        duplicate = self.index.with_hash(sha) if raw else None
        if duplicate is not None:
            entry = self.new_entry("message.eml", sha, received, source, duplicate["file"])
            entry.update(status="duplicate", note=f"same message as entry {duplicate['number']}")
            self.index.add(entry)
            return Outcome("duplicate", duplicate.get("player", ""), "message", entry["note"])
        file = self.store("message.eml", raw, received, sha) if raw else ""
        entry = self.new_entry("message.eml", sha, received, source, file)
        cfg = self.game.config.player_for_address(mail.sender) if mail.sender else None
        entry["player"] = cfg.name if cfg else ""
        note = mail.problem or said("the message has no turn sheet attached")
        keep_note(entry, note)
        entry["no_sheet"] = True
        notes = self.mail_notes(mail, entry)
        self.index.add(entry)
        if cfg is None:
            return Outcome(
                "refused",
                "",
                "message",
                f"{note}; from {mail.sender or 'an unknown sender'}, "
                "who is not a player (no reply written)",
            )
        w = self.game.words_for(cfg.name)
        body = (
            w("Dear {player},", player=cfg.name)
            + "\n\n"
            + w(
                'your message "{subject}" reached the referee, but {note}, so no orders were '
                "read from it.",
                subject=mail.subject,
                note=again(note, w),
            )
            + "\n\n"
            + w(
                "Orders are read only from the turn sheet: fill in the sheet {sheet} that came "
                "with your last report, save it as .xlsx and send it as an attachment before the "
                "deadline ({deadline}).",
                sheet=sheet_filename(cfg.name),
                deadline=self.game.deadline_text(self.step.key, w),
            )
            + "\n"
        )
        reply = self.reply(
            cfg.name,
            mail.sender,
            mail,
            f"{sha[:12]}-nosheet",
            w.gettext("no turn sheet attached"),
            body,
        )
        return Outcome("refused", cfg.name, "message", note, reply, entry, notes)

    def file(self, item: Received) -> Outcome:
        sha = hashlib.sha256(item.data).hexdigest()
        earlier = self.index.with_hash(sha)
        relative = (
            earlier["file"] if earlier else self.store(item.name, item.data, item.received, sha)
        )
        entry = self.new_entry(item.name, sha, item.received, item.source, relative)
        self.index.add(entry)
        notes = self.mail_notes(item.mail, entry)
        outcome = self._file(item, entry, sha, relative)
        outcome.notes = notes
        return outcome

    def _file(self, item: Received, entry: dict[str, Any], sha: str, relative: str) -> Outcome:
        sender = item.source.get("sender", "")
        sender_player = None
        if item.sender is not None:
            cfg = self.game.config.player_for_address(item.sender)
            if cfg is None:
                entry["note"] = (
                    f"sent by {item.sender or 'an unknown sender'}, who is not a player of this "
                    "game (add the address to the player's aliases in game.toml if it is a "
                    "player's second address)"
                )
                return Outcome("refused", "", item.name, entry["note"], None, entry)
            sender_player = cfg.name
            entry["player"] = sender_player
            failure = authentication_failure(item.mail.authentication) if item.mail else ""
            if failure:
                entry["authentication_failed"] = failure
                if self.game.config.mail.refuse_failed_authentication:
                    return self.refuse(
                        item,
                        entry,
                        sender_player,
                        said(
                            "the referee's mail server could not confirm that this message "
                            "came from {sender} ({failure}), and this game takes sheets only "
                            "from mail that passes that check",
                            sender=item.sender,
                            failure=failure,
                        ),
                        sha,
                        said(
                            "Send your sheet again from your own mail account, directly (not "
                            "through a forwarding address, a mailing list or a web form). If "
                            "you did not send this message, tell the referee: someone used "
                            "your address."
                        ),
                    )
        duplicate = self.index.duplicate_of(sha, sender, entry["number"])
        if duplicate is not None:
            entry.update(
                status="duplicate",
                player=duplicate.get("player", "") or entry["player"],
                note=f"identical to entry {duplicate['number']} ({duplicate.get('name', '')}, "
                f"{duplicate.get('status', '')}); not filed again",
            )
            return Outcome("duplicate", entry["player"], item.name, entry["note"], None, entry)
        try:
            result = self.check(relative, item.name, sha)
        except NotATurnSheet as exc:
            return self.refuse(item, entry, sender_player, _reason(exc), sha)
        if sender_player is not None and result.player != sender_player:
            # Filed under the sender (the reply goes to them) but kept apart from their own
            # sheets: `status` must not tell them their own later sheet had problems.
            entry["sheet_of"] = result.player
            return self.refuse(
                item,
                entry,
                sender_player,
                said(
                    "{file} is {owner}'s turn sheet but it was sent from {sender}, the address "
                    "of {player}; each player sends their own sheet",
                    file=item.name,
                    owner=result.player,
                    sender=item.sender,
                    player=sender_player,
                ),
                sha,
            )
        entry["player"] = result.player
        entry["problems"] = [p.to_dict() for p in result.problems]
        if result.wrong_step:
            return self.refuse(
                item, entry, result.player, result.problems[0].message, sha, result.problems[0].fix
            )
        if result.errors:
            return self.problems(item, entry, result, sha)
        return self.accept(item, entry, result, sha)

    def check(self, relative: str, name: str, sha: str = "") -> CheckResult:
        """Check a stored file under the name it was sent with, so messages name that file
        (or take the check another process made of the same bytes under the same name)."""
        done = _result_of(self.ahead.pop((sha, name), None))
        if isinstance(done, NotATurnSheet):
            raise done
        if done is not None:
            result = done
        else:
            with tempfile.TemporaryDirectory(prefix="refassist-check-") as folder:
                copy = Path(folder) / clean_filename(name, "sheet.xlsx")
                shutil.copyfile(self.index.folder / relative, copy)
                result = check_sheet(copy, self.game, state=self.state)
        result.path = self.index.folder / relative
        return result

    def refuse(
        self,
        item: Received,
        entry: dict[str, Any],
        player: str | None,
        reason: str,
        sha: str,
        fix: str = "",
    ) -> Outcome:
        entry["status"] = "refused"
        keep_note(entry, reason)
        if not player:
            return Outcome(
                "refused", "", item.name, reason + " (no player to reply to)", None, entry
            )
        w = self.game.words_for(player)
        # Said where it was found (`said`): given again in the player's language.
        reason = again(reason, w)
        if fix:
            advice = again(fix, w)
        elif sniff(item.data).kind in TURN_SHEET_KINDS:
            advice = w.gettext("Send the turn sheet that came with your last report.")
        else:
            advice = ""  # the reason says what the file is and to save it as .xlsx or .ods
        paragraphs = [
            w("Dear {player},", player=player),
            w(
                "the file {file} you sent could not be used as your turn sheet for {step}:",
                file=item.name,
                step=self.step_name(w),
            )
            + f"\n\n  {reason}",
            *([advice] if advice else []),
            w("Deadline: {deadline}.", deadline=self.game.deadline_text(self.step.key, w)),
        ]
        body = "\n\n".join(paragraphs) + "\n"
        reply = self.reply(
            player, item.sender, item.mail, sha[:12], w.gettext("turn sheet refused"), body
        )
        return Outcome("refused", player, item.name, reason, reply, entry)

    def problems(
        self, item: Received, entry: dict[str, Any], result: CheckResult, sha: str
    ) -> Outcome:
        entry["status"] = "problems"
        player = result.player
        annotated = self.replies / f"{sheet_filename(player)[:-5]}-{sha[:12]}-annotated.xlsx"
        attachments: list[Path] = []
        try:
            annotate(
                self.index.folder / entry["file"],
                result.problems,
                annotated,
                self.game.words_for(player),
            )
            attachments.append(annotated)
        except RefassistError as exc:
            entry["note"] = f"the annotated copy could not be written: {exc}"
        except Exception as exc:  # the copy is a courtesy: the reply goes out without it
            entry["note"] = f"the annotated copy could not be written ({type(exc).__name__})"
        w = self.game.words_for(player)
        found = w.gettext("found")
        warning = w.gettext("(warning)")
        lines = [f"  - {p.shown(found)}" for p in result.errors] + [
            f"  - {warning} {p.shown(found)}" for p in result.warnings
        ]
        rules = self.game.ruleset.rules_with_defaults(self.game.config.house_rules)
        if player in self.index.accepted:
            standing = w.gettext(
                "Your earlier accepted sheet stands until you send a corrected one."
            )
        elif rules.get(SHEETS_WITH_PROBLEMS) == "no-orders":
            standing = w.gettext(
                "No orders of yours are accepted for this turn yet. If no corrected sheet "
                "arrives by the deadline, none of this sheet's orders will be carried out "
                "(this game's house rule)."
            )
        else:
            standing = w.gettext(
                "No orders of yours are accepted for this turn yet. If no corrected sheet "
                "arrives by the deadline, the orders on this sheet without problems will be "
                "carried out and each line with a problem dropped."
            )
        problems = w.counted_as(len(result.errors), "problem", "problems")
        body = (
            w("Dear {player},", player=player)
            + "\n\n"
            + w(
                "your turn sheet {file} for {step} has {problems} that must be fixed:",
                file=item.name,
                step=self.step_name(w),
                problems=problems,
            )
            + "\n\n"
            + "\n".join(lines)
            + f"\n\n{standing}\n\n"
            + w(
                "The attached copy of your sheet shows each problem in red (warnings in amber) "
                "with a comment; fix the cells and send it back before the deadline "
                "({deadline}).",
                deadline=self.game.deadline_text(self.step.key, w),
            )
            + _copy_of_ods(item.data, w)
            + "\n"
        )
        reply = self.reply(
            player,
            item.sender,
            item.mail,
            sha[:12],
            w.gettext("problems in your turn sheet"),
            body,
            attachments,
        )
        first = result.errors[0]
        summary = (
            f"{counted(len(result.errors), 'error')}, first: {first.sheet}!{first.cell}: "
            f"{first.message}"
        )
        return Outcome("problems", player, item.name, summary, reply, entry)

    def accept(
        self, item: Received, entry: dict[str, Any], result: CheckResult, sha: str
    ) -> Outcome:
        player = result.player
        late = self.deadline is not None and item.received > self.deadline
        table = self.index.late if late else self.index.accepted
        folder = "late" if late else "accepted"
        current = table.get(player)
        w = self.game.words_for(player)
        warnings = [
            f"  - {w.gettext('(warning)')} {p.shown(w.gettext('found'))}" for p in result.warnings
        ]
        orders = "\n".join(f"  {line}" for line in result.orders_text)
        if current is not None and parse_iso(str(current.get("received", ""))) > item.received:
            entry["status"] = "superseded"
            entry["note"] = f"a newer sheet (entry {current['entry']}) was already {folder}"
            return Outcome("superseded", player, item.name, entry["note"], None, entry)
        target = self.index.folder / folder / filed_filename(player, item.data)
        write_bytes(target, item.data)
        if result.read is not None:
            # Resolve takes the read from here instead of opening the sheet again.
            sheetstore.keep(self.game, result.sha256, result.read)
        if current is not None:
            self.index.entry(int(current["entry"]))["status"] = "superseded"
            self.stale += filter(None, [_replaced_file(self.index.folder, current, target)])
        table[player] = {
            "file": f"{folder}/{target.name}",
            "entry": entry["number"],
            "received": entry["received"],
            "sha256": sha,
        }
        entry["status"] = "late" if late else "accepted"
        deadline = self.game.deadline_text(self.step.key, w)
        if late:
            body = (
                w("Dear {player},", player=player)
                + "\n\n"
                + w(
                    "your turn sheet {file} for {step} arrived after the deadline ({deadline}). "
                    "It reads correctly; the referee decides whether late orders are used.",
                    file=item.name,
                    step=self.step_name(w),
                    deadline=deadline,
                )
                + "\n\n"
                + w.gettext("The orders as read:")
                + f"\n\n{orders}\n"
            )
            subject = w.gettext("late turn sheet received")
        else:
            body = (
                w("Dear {player},", player=player)
                + "\n\n"
                + w(
                    "your turn sheet {file} for {step} is accepted. These are your orders as the "
                    "referee's tool read them; if anything is not what you meant, send a "
                    "corrected sheet before the deadline ({deadline}): the newest accepted sheet "
                    "counts.",
                    file=item.name,
                    step=self.step_name(w),
                    deadline=deadline,
                )
                + f"\n\n{orders}\n"
            )
            subject = w.gettext("turn sheet accepted")
        if warnings:
            body += (
                "\n"
                + w.gettext("Warnings (the orders are accepted, but check these):")
                + "\n\n"
                + "\n".join(warnings)
                + "\n"
            )
        reply = self.reply(player, item.sender, item.mail, sha[:12], subject, body)
        summary = ("late: waits for --accept-late" if late else "accepted") + (
            f", {counted(len(result.warnings), 'warning')}" if result.warnings else ""
        )
        return Outcome(entry["status"], player, item.name, summary, reply, entry)


def _written(path: Path, reply_id: str) -> bool:
    """Whether the reply file at ``path`` is the reply whose Message-ID is ``reply_id``."""
    try:
        with path.open("rb") as fh:
            headers = BytesHeaderParser(policy=email.policy.default).parse(fh)
    except OSError:
        return False
    return str(headers.get("Message-ID", "")).strip() == reply_id


def _kept_note(kept: Any) -> str:
    """A mail's note as `_MailReply.record` kept it: a sentence said again (`again` gives it
    in its reader's language), or plain text."""
    if isinstance(kept, dict) and isinstance(kept.get("say"), list) and len(kept["say"]) == 2:
        template, values = kept["say"]
        note = Said(again("", Words(), kept["say"]))
        note.template, note.values = str(template), dict(values)
        return note
    return str(kept)


def keep_note(entry: dict[str, Any], note: str) -> None:
    """The entry's ``note``, and how it was said (``note_said``, `said_as`) when it was: the
    reminder of `refassist watch` gives it again in the player's language (`again`)."""
    entry["note"] = note
    how = said_as(note)
    if how is not None:
        entry["note_said"] = how


def _reason(exc: NotATurnSheet) -> str:
    """Why a file was refused, kept as it was said (a `Said` is given again in the player's
    language; ``str(exc)`` would be a plain copy in the language it was raised in)."""
    first = exc.args[0] if exc.args else ""
    return first if isinstance(first, str) else str(exc)


def _thread(msg: EmailMessage, message_id: str) -> None:
    if message_id:
        msg["In-Reply-To"] = message_id
        msg["References"] = message_id


@dataclass
class Batch:
    """What one message (or one sheet file) carried, filed together: one reply per message.

    ``key`` names a message in a server's folder (`imap_intake.ImapFolder.source`): a message
    the index already holds is not filed again.  ``done`` runs once the batch is filed and the
    index saved (marking the message on the server)."""

    items: list[Received | Unfiled]
    key: str = ""
    done: Callable[[], None] | None = None

    @property
    def label(self) -> str:
        first = self.items[0] if self.items else None
        return first.name if isinstance(first, Received) else "message"

    @property
    def mail(self) -> IncomingMail | None:
        """The message the batch came from; None for a sheet file of its own."""
        return self.items[0].mail if self.items else None

    @property
    def message(self) -> str:
        """What names the message while it is being filed (`Index.partial`): the server's
        key, else the SHA-256 of the message as received (the same in any saved copy of it);
        empty for a sheet file, which is filed and answered in one step."""
        mail = self.mail
        if self.key or mail is None:
            return self.key
        return "message:" + hashlib.sha256(mail.raw or mail.source.encode()).hexdigest()


def batches_of(items: list[Received | Unfiled]) -> list[Batch]:
    """Items grouped by the message they came from (a sheet file is a batch of its own)."""
    out: list[Batch] = []
    for item in items:
        if out and item.mail is not None and out[-1].items[-1].mail is item.mail:
            out[-1].items.append(item)
        else:
            out.append(Batch([item]))
    return out


#: Fewest sheets in one intake that are checked in other processes first (a process costs a
#: few milliseconds to start; opening a sheet, about 50).
CHECK_AHEAD_FROM = 4

#: The intake whose sheets a checking process checks (set before its processes are forked).
_CHECKING: _Intake | None = None


def _check_bytes(data: bytes, name: str) -> CheckResult | NotATurnSheet | None:
    """In a checking process: the check `_Intake.check` would make of these bytes under this
    name; a refusal is returned, and anything unexpected is left to the intake (None)."""
    job = _CHECKING
    if job is None:
        return None
    try:
        with tempfile.TemporaryDirectory(prefix="refassist-check-") as folder:
            copy = Path(folder) / clean_filename(name, "sheet.xlsx")
            copy.write_bytes(data)
            return check_sheet(copy, job.game, state=job.state)
    except NotATurnSheet as exc:
        return exc
    except Exception:
        return None


def _result_of(
    future: Future[CheckResult | NotATurnSheet | None] | None,
) -> CheckResult | NotATurnSheet | None:
    """What a check made ahead came to; None (check here) if it was not made or failed."""
    if future is None:
        return None
    try:
        return future.result()
    except Exception:  # a checking process that died: the intake checks the sheet itself
        return None


@contextlib.contextmanager
def checks_ahead(job: _Intake, batches: Sequence[Batch]) -> Iterator[None]:
    """Check the sheets of ``batches`` in other processes while the intake files them in
    order: opening a sheet (openpyxl's load) is most of an intake, and the checks do not
    depend on each other.  Each result waits in ``job.ahead`` for the file it is for; the
    filing, the index, the replies and every decision stay in this process and in order, so
    the outcome is the same as checking one sheet after another (which is what happens with
    fewer than `CHECK_AHEAD_FROM` sheets, on one core, or where processes cannot be forked)."""
    global _CHECKING
    sheets = [
        item
        for batch in batches
        for item in batch.items
        if isinstance(item, Received) and sniff(item.data).kind in TURN_SHEET_KINDS
    ]
    workers = default_workers()
    if len(sheets) < CHECK_AHEAD_FROM or workers < 2 or not can_fork():
        yield
        return
    _CHECKING = job
    try:
        with worker_pool(workers) as pool:
            for item in sheets:
                key = (hashlib.sha256(item.data).hexdigest(), item.name)
                if key not in job.ahead:
                    job.ahead[key] = pool.submit(_check_bytes, item.data, item.name)
            try:
                yield
            finally:
                for future in job.ahead.values():
                    future.cancel()
                job.ahead.clear()
    finally:
        _CHECKING = None


def intake(game: Game, sources: Iterable[Path], progress: Progress | None = None) -> IntakeReport:
    """File everything the sources hold for the game's current step; takes the game lock."""
    batches = batches_of(expand_sources(sources))
    return file_batches(game, batches, len(batches), progress)


def file_batches(
    game: Game, batches: Iterable[Batch], total: int, progress: Progress | None = None
) -> IntakeReport:
    """File the batches in order under the game's lock (``total``: how many, for progress).

    The index is saved after each item, with the parts of its message filed so far and the
    reply they owe (`Index.partial`); once the last part is filed the reply is owed
    (`Index.owed`), then written, then the batch's ``done`` runs.  A crash loses at most the
    item being filed: the next run files the parts of a message not yet filed, each once,
    writes the replies owed, each once, and a message is never marked before it is filed and
    answered."""
    with working(game), contextlib.ExitStack() as stack:
        job = _Intake(game)
        job.write_owed()  # a killed run's replies first
        if isinstance(batches, Sequence):  # all at hand (files, not a server's folder)
            stack.enter_context(checks_ahead(job, batches))
        report = IntakeReport(job.step.key, [])
        for number, batch in enumerate(batches):
            if progress is not None:
                progress(number, total, batch.label)
            if batch.key and job.index.has_source(batch.key):
                report.already_filed.append(batch.key)
            else:
                key = batch.message
                filed = job.resume(key, batch.mail) if key else set()
                for part, item in enumerate(batch.items):
                    if part in filed:
                        continue
                    if isinstance(item, Received):
                        report.outcomes.append(job.file(item))
                    else:
                        report.outcomes.append(job.mail_without_sheet(item))
                    if key:
                        filed.add(part)
                        job.keep_progress(key, filed)
                    job.index.save()
                    _remove(job.stale)
                job.flush(key)  # the message's one reply
            if batch.done is not None:
                batch.done()
        if progress is not None:
            progress(total, total, "")
        job.index.save()
    return report


def report_advice(game: Game, step: Step) -> list[str]:
    """What `status` says of the reports players are owed, and when to send them: those of
    the step just resolved (written or not), and those of earlier steps never written.  A
    step that waits for the referee (a battle fought on the table) is resolved again before
    the players' next sheets, and the reports of the step before it are the only ones to tell
    its events: they go out before the table."""
    steps = archived_before(game, step.key)
    if not steps:
        return []

    def label(key: str) -> str:
        return str(manifest_or_empty(game, key).get("label") or key)

    out = []
    for owed in unreported_steps(game, step.key):
        resolved = steps[steps.index(owed) - 1] if steps.index(owed) else owed
        out.append(
            f"the reports of {label(resolved)} (outbox/{owed}) were never written: "
            f"refassist report {game.path} writes them before the newer ones; send them first"
        )
    # The step before: its reports' mail, written by a later `report` that owed them (or
    # never sent), goes out before the newer.
    if len(steps) > 1 and reports_written(game, steps[-1]):
        waiting = [
            item
            for item in outgoing(game, steps[-1])
            if item.name.startswith("mail/") and not item.held
        ]
        if waiting:
            out.append(
                f"the mail of the reports of {label(steps[-2])} (outbox/{steps[-1]}) is not yet "
                f"sent: refassist send {game.path} --step {steps[-1]}; send it before the newer"
            )
    what = f"the reports of {label(steps[-1])}"
    table = step.waits_for_referee
    if reports_written(game, step.key):
        out.append(
            f"{what} are written (outbox/{step.key})"
            + ("; send them before the table" if table else "")
        )
    else:
        out.append(
            f"{what} are not yet written: refassist report {game.path}"
            + (
                "; write and send them before the table, they alone tell the players what "
                f"{label(steps[-1])} did"
                if table
                else ""
            )
        )
    return out
