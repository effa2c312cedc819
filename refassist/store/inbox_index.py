"""The inbox's record of a step (``inbox/<step>/index.json``) and what it says: whose sheet
was accepted, came late or had problems.

Kept apart from the intake (`inbox`), which files sheets and so needs the sheet reader and
openpyxl: what only reads the record (resolve's list of sheets, `refassist status`, the
reports' sheet statuses) loads none of that, and a `refassist report` imports no openpyxl.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from refassist.atomic import read_record, write_text
from refassist.text.i18n import words_for
from refassist.text.words import counted

if TYPE_CHECKING:
    from refassist.rulesets.base import Step
    from refassist.store.game import Game

INDEX_NAME = "index.json"
STATUSES = ("accepted", "problems", "refused", "late", "duplicate", "superseded")


def now_utc() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def parse_iso(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return datetime.min.replace(tzinfo=UTC)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class Index:
    """``inbox/<step>/index.json``: every file received for a step, and what became of it."""

    def __init__(self, folder: Path, step: str) -> None:
        self.folder = folder
        self.step = step
        self.entries: list[dict[str, Any]] = []
        self.accepted: dict[str, dict[str, Any]] = {}
        self.late: dict[str, dict[str, Any]] = {}
        #: Messages being filed, by key (`inbox.message_key`): the parts filed so far and the
        #: reply they owe.  A message is done only once every part is filed: an intake killed
        #: between two sheets of one mail leaves it here, and the next run files the rest.
        self.partial: dict[str, dict[str, Any]] = {}
        #: Replies owed for messages filed completely, saved with the filing and removed once
        #: the reply is written: an intake killed in between writes them on its next run.
        self.owed: list[dict[str, Any]] = []
        path = folder / INDEX_NAME
        if path.exists():
            data = read_record(
                path,
                "restore it from a backup or move the inbox folder aside and run the intake again",
            )
            self.entries = list(data.get("entries", []))
            self.accepted = dict(data.get("accepted", {}))
            self.late = dict(data.get("late", {}))
            self.partial = dict(data.get("partial", {}))
            self.owed = list(data.get("owed", []))

    @classmethod
    def of(cls, game: Game, step: str) -> Index:
        return cls(game.inbox(step), step)

    def save(self) -> None:
        data = {
            "step": self.step,
            "entries": self.entries,
            "accepted": self.accepted,
            "late": self.late,
        }
        # Written only when there is something, so a step's index reads as it always did.
        if self.partial:
            data["partial"] = self.partial
        if self.owed:
            data["owed"] = self.owed
        write_text(self.folder / INDEX_NAME, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def has_source(self, key: str) -> bool:
        """Whether this message (a server folder's ``...#UIDVALIDITY:UID``) was filed
        already, every part of it: one whose filing was interrupted between two parts is not
        (`partial`), and the next run files what is left of it."""
        if key in self.partial:
            return False
        return any(entry.get("source", {}).get("path") == key for entry in self.entries)

    def with_hash(self, sha: str) -> dict[str, Any] | None:
        """The first entry whose file has this hash (its stored copy is reused)."""
        for entry in self.entries:
            if entry.get("sha256") == sha and entry.get("file"):
                return entry
        return None

    def duplicate_of(self, sha: str, sender: str, before: int) -> dict[str, Any] | None:
        """An earlier entry this file repeats, so it need not be checked and filed again.

        A refused entry only counts when it came from the same sender: a stranger's copy of
        a player's sheet must not stop the player's own copy from being read.
        """
        for entry in self.entries[:before]:
            if entry.get("sha256") != sha or entry.get("status") == "duplicate":
                continue
            if entry.get("status") != "refused":
                return entry
            if entry.get("source", {}).get("sender", "") == sender and entry.get("player"):
                return entry
        return None

    def entry(self, number: int) -> dict[str, Any]:
        return self.entries[number]

    def add(self, entry: dict[str, Any]) -> int:
        entry["number"] = len(self.entries)
        self.entries.append(entry)
        return entry["number"]


def accepted_sheets(game: Game, step: str) -> dict[str, Path]:
    """The accepted sheet of every player for ``step``: the only sheets resolve may read."""
    index = Index.of(game, step)
    out: dict[str, Path] = {}
    for player, info in sorted(index.accepted.items()):
        path = index.folder / str(info.get("file", ""))
        if path.is_file():
            out[player] = path
    return out


def accepted_received(game: Game, step: str) -> dict[str, datetime]:
    """When each accepted sheet was received (set-up conflicts go to the earlier sheet)."""
    index = Index.of(game, step)
    return {p: parse_iso(str(i.get("received", ""))) for p, i in index.accepted.items()}


@dataclass
class PlayerStatus:
    """One line of `status`: a player, where their sheet stands, and details."""

    player: str
    state: str
    detail: str = ""
    computer: bool = False


def sheet_states(game: Game, step: Step) -> list[PlayerStatus]:
    """Where each expected player's sheet for ``step`` stands (`status`'s table; resolve's
    check that the turn may be resolved): accepted, late, problems, refused, computer or
    missing."""
    index = Index.of(game, step.key)
    rows = []
    for player in step.expects:
        cfg = game.config.player(player)
        computer = bool(cfg and cfg.computer)
        mine = [
            e for e in index.entries if e.get("player") == player and e.get("status") != "duplicate"
        ]
        latest = mine[-1] if mine else None
        if player in index.accepted:
            info = index.accepted[player]
            detail = f"received {info.get('received', '')}"
            later = [
                e
                for e in mine
                if e.get("status") in ("problems", "refused")
                and e.get("received", "") > info.get("received", "")
                and e.get("sheet_of", player) == player  # not someone else's forwarded sheet
            ]
            if later:
                detail += f"; a later sheet had problems ({later[-1].get('name', '')})"
            if player in index.late:
                detail += "; a late sheet waits for --accept-late"
            rows.append(PlayerStatus(player, "accepted", detail, computer))
        elif player in index.late:
            rows.append(
                PlayerStatus(
                    player,
                    "late",
                    f"received {index.late[player].get('received', '')}, after the deadline; "
                    "accept it with: refassist intake GAME --accept-late",
                    computer,
                )
            )
        elif latest is not None and latest.get("status") in ("problems", "refused"):
            problems = latest.get("problems", [])
            first = problems[0].get("message", "") if problems else latest.get("note", "")
            count = sum(1 for p in problems if p.get("severity", "error") == "error")
            rows.append(
                PlayerStatus(
                    player,
                    str(latest["status"]),
                    f"{counted(count, 'error')}: {first}" if count else str(first),
                    computer,
                )
            )
        else:
            detail = "orders made by the tool" if computer else "no sheet received"
            rows.append(
                PlayerStatus(player, "computer" if computer else "missing", detail, computer)
            )
    return rows


def sheets_with_problems(game: Game, step: str) -> dict[str, dict[str, Any]]:
    """Each player's newest sheet with problems for ``step``, among players with no accepted
    sheet: the index entry (``file``, ``sha256``, ``received``, ``problems``).

    Only sheets received by the deadline count (a late sheet with problems was never in
    time); what resolve does with them is the ``sheets_with_problems`` house rule.
    """
    index = Index.of(game, step)
    deadline = game.deadline(step)
    if deadline is not None:
        deadline = deadline.astimezone()  # game.toml's times are the referee's local time
    out: dict[str, dict[str, Any]] = {}
    for entry in index.entries:
        player = str(entry.get("player", ""))
        if entry.get("status") != "problems" or not player or player in index.accepted:
            continue
        received = parse_iso(str(entry.get("received", "")))
        if deadline is not None and received > deadline:
            continue
        if not (index.folder / str(entry.get("file", ""))).is_file():
            continue
        current = out.get(player)
        if current is None or received >= parse_iso(str(current.get("received", ""))):
            out[player] = entry
    return out


def unfinished_mail(game: Game, step: str) -> list[str]:
    """What `status` tells the referee of mail an intake left half done for ``step``: a mail
    whose files were not all filed (`Index.partial`: the intake was stopped between two of
    them) and replies owed but not yet written (`Index.owed`), each with what happens next.

    Said in the game's language, as the referee's other pages of the game (a French game's
    referee reads French); the catalogs are the engine's."""
    index = Index.of(game, step)
    if not index.partial and not index.owed:
        return []
    w = words_for(game.config.language or game.ruleset.language, game.ruleset.package)
    out = []
    for key, progress in index.partial.items():
        replies = progress.get("replies", [])
        first = replies[0] if replies else {}
        player = str(first.get("player", "")) or "?"
        sender = str(first.get("to", "")) or "?"
        where = _mail_place(index, key, str(first.get("message_id", "")))
        filed = w.counted_as(len(progress.get("parts", [])), "file", "files")
        out.append(
            w(
                "{player}'s mail ({sender}, {where}) was filed only in part ({filed}): the "
                "intake stopped before the rest. It will be finished on the next intake that "
                "reads this mail again: the rest filed and the mail answered, once.",
                player=player,
                sender=sender,
                where=where,
                filed=filed,
            )
        )
    for record in index.owed:
        out.append(
            w(
                "A reply to {player} ({to}) is owed: the intake stopped before writing it. The "
                "next intake, whatever it takes in, writes it first, once.",
                player=str(record.get("player", "")) or "?",
                to=str(record.get("to", "")) or "?",
            )
        )
    return out


def _mail_place(index: Index, key: str, message_id: str) -> str:
    """Where a mail being filed came from, as its filed parts' entries say (a server's
    message is named by its key)."""
    if not key.startswith("message:"):
        return key
    for entry in index.entries:
        source = entry.get("source", {})
        if message_id and source.get("message_id") == message_id:
            return str(source.get("path", "")) or message_id
    return message_id or key


def waiting_for(rows: Iterable[PlayerStatus]) -> list[PlayerStatus]:
    """The players the turn still waits for: no accepted sheet and not a computer player."""
    return [p for p in rows if p.state != "accepted" and not p.computer]
