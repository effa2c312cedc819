"""What each player received, checked against what the rules let that player know.

A referee fears above all sending a player something another player should not see, and a
player reading the program instead of the game.  This module reads back, as a player would,
everything a game folder sent each player for each step (the PDF report, the next turn sheet
with every sheet in it, hidden ones included, and the intake's replies with what they carry),
and finds in it:

* **secrets**: what the rules hide from that player in the state the files were written from,
  as the game declares it (`Ruleset.hidden_from`: texts or patterns that would tell it, each
  game from its own fog of war), so one audit serves every game;
* **program text**: a program's representation of an object (``Attack(hex='0905', ...)``,
  ``['N-1AR']``, ``{'fleet': ...}``, ``None``), which no page meant for a player may hold;
* **sealed seeds**: the seed of a step whose dice drew a secret, before that secret is public
  (`Dice.draws_secret`, `turns.dice_disclosure`): with it a player could replay the draw.

The test suite runs it over a seeded game of every ruleset (`tests/test_what_players_get.py`);
it needs nothing but the game folder, so it can be pointed at a real one too.

A step's files (``outbox/<step>/``) were all written from the state that awaited the step: the
archived master of that step once it is resolved (``archive/<step>/master.xlsx``), else the
game's master.
"""

from __future__ import annotations

import email
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from .rulesets.base import Secret
from .store.game import MASTER_NAME, Game, step_sort_key
from .store.turnsheets import sheet_filename
from .turns import MANIFEST_NAME, secrets_public

#: What a program's representation of an object looks like in a text: a dataclass or named
#: tuple (``Name(field=``), a list or dict of strings (``['``, ``{'``), Python's null, a
#: set, an object's default form.  None of these is ever a word of a report or a reply.
PROGRAM_TEXT = re.compile(
    r"\b[A-Z][A-Za-z0-9_]*\([a-z_][a-z0-9_]*="
    r"|\[['\"]|\{['\"]|['\"]\]|['\"]\}"
    r"|\bNone\b"
    r"|\bset\(\)|\bfrozenset\(|\bdict_(?:keys|values|items)\("
    r"|<[a-zA-Z_.]+ object at 0x|\bTraceback \(most recent call last\)"
)


@dataclass(frozen=True)
class Received:
    """One thing a player received for a step: where it is and its text, and the text of
    its pages meant to be read (``shown``: a workbook's visible sheets; its hidden sheets,
    the program's own lists and marks, are in ``text`` only, which a player who unhides them
    reads too)."""

    step: str
    player: str
    kind: str  # report, sheet, mail, reply
    path: Path
    text: str
    shown: str = ""

    @property
    def pages(self) -> str:
        return self.shown or self.text


@dataclass(frozen=True)
class Finding:
    """Something a player received that the player should not have: which file, what."""

    step: str
    player: str
    kind: str
    path: Path
    problem: str
    excerpt: str

    def __str__(self) -> str:
        return (
            f"{self.step} {self.player} {self.kind} {self.path.name}: {self.problem}: "
            f"...{self.excerpt}..."
        )


@dataclass
class StepFiles:
    """What the players received for one step, and the state it was written from."""

    step: str
    state: Any
    received: list[Received] = field(default_factory=list)


def pdf_pages(path: Path) -> list[str]:
    """The text of each page of a PDF as a reader's viewer extracts it (pdfium)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def pdf_text(path: Path) -> str:
    """The whole text of a PDF, its pages one after the other."""
    return "\n".join(pdf_pages(path))


def workbook_text(path: Path, *, visible_only: bool = False) -> str:
    """Every value of every sheet of a workbook, hidden sheets too (a player who unhides
    them reads them) unless ``visible_only``, one cell a line."""
    from python_calamine import CalamineWorkbook, SheetVisibleEnum

    book = CalamineWorkbook.from_path(str(path))
    lines: list[str] = []
    for sheet in book.sheets_metadata:
        if visible_only and sheet.visible != SheetVisibleEnum.Visible:
            continue
        for row in book.get_sheet_by_name(sheet.name).to_python(skip_empty_area=True):
            lines.extend(str(v) for v in row if v not in ("", None))
    return "\n".join(lines)


def mail_text(path: Path) -> tuple[str, str]:
    """A mail as its reader sees it: subject, body and the text of what it carries (all of
    it, and its pages meant to be read, as `Received` keeps them)."""
    message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    assert isinstance(message, EmailMessage)
    parts = [str(message.get("Subject", ""))]
    body = message.get_body(("plain", "html"))
    if body is not None:
        parts.append(str(body.get_content()))
    shown = list(parts)
    for attachment in message.iter_attachments():
        name = str(attachment.get_filename() or "")
        data = attachment.get_payload(decode=True)
        if isinstance(data, bytes):
            text, pages = _attachment_text(name, data, path.parent)
            parts.append(text)
            shown.append(pages)
    return "\n".join(parts), "\n".join(shown)


def _attachment_text(name: str, data: bytes, folder: Path) -> tuple[str, str]:
    """The text of a PDF or workbook carried by a mail (read from a file beside it), all
    of it and its pages meant to be read."""
    import tempfile

    suffix = Path(name).suffix.lower()
    if suffix not in (".pdf", ".xlsx"):
        return "", ""
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        target = Path(scratch) / f"attached{suffix}"
        target.write_bytes(data)
        if suffix == ".pdf":
            text = pdf_text(target)
            return text, text
        return workbook_text(target), workbook_text(target, visible_only=True)


def _state_of(game: Game, step: str, current: str) -> Any | None:
    """The state a step's files were written from (module docstring); None if unknown."""
    from .workbook.master import read_master

    archived = game.archive(step) / MASTER_NAME
    if archived.is_file():
        return read_master(archived, game.ruleset)
    if step == current:
        return game.load_state()
    return None


def step_files(game: Game, players: Sequence[str] | None = None) -> Iterator[StepFiles]:
    """For every step with an outbox folder, in order, what each player received there."""
    state_now = game.load_state()
    everyone = list(players or game.ruleset.players(state_now))
    current = game.step(state_now).key
    root = game.path / "outbox"
    steps = sorted((p.name for p in root.iterdir() if p.is_dir()), key=step_sort_key)
    for step in steps:
        state = _state_of(game, step, current)
        if state is None:
            continue
        folder = root / step
        files = StepFiles(step, state)
        for player in everyone:
            stem = sheet_filename(player)[:-5]
            report = folder / f"{stem}.pdf"
            if report.is_file():
                files.received.append(Received(step, player, "report", report, pdf_text(report)))
            sheet = folder / f"{stem}.xlsx"
            if sheet.is_file():
                text, shown = workbook_text(sheet), workbook_text(sheet, visible_only=True)
                files.received.append(Received(step, player, "sheet", sheet, text, shown))
            mail = folder / "mail" / f"{stem}.eml"
            if mail.is_file():
                files.received.append(Received(step, player, "mail", mail, *mail_text(mail)))
            replies = folder / "replies"
            for reply in sorted(replies.glob(f"{stem}-*.eml")) if replies.is_dir() else []:
                files.received.append(Received(step, player, "reply", reply, *mail_text(reply)))
        yield files


def _excerpt(text: str, match: re.Match[str]) -> str:
    start, end = max(0, match.start() - 40), min(len(text), match.end() + 40)
    return " ".join(text[start:end].split())


def program_text(received: Received) -> list[Finding]:
    """Every place ``received`` shows a program's representation of an object."""
    return [
        Finding(
            received.step,
            received.player,
            received.kind,
            received.path,
            f"program text {m.group(0)!r}",
            _excerpt(received.pages, m),
        )
        for m in PROGRAM_TEXT.finditer(received.pages)
    ]


def told_secrets(received: Received, secrets: Sequence[Secret]) -> list[Finding]:
    """Every secret of ``secrets`` that ``received`` tells."""
    out = []
    for secret in secrets:
        m = re.search(secret.pattern, received.text)
        if m:
            out.append(
                Finding(
                    received.step,
                    received.player,
                    received.kind,
                    received.path,
                    f"tells {secret.what}",
                    _excerpt(received.text, m),
                )
            )
    return out


def sealed_seeds(game: Game) -> dict[str, tuple[str, list[str]]]:
    """Each archived step whose dice drew a secret: its seed and the secrets it drew."""
    import json

    out = {}
    for manifest in sorted((game.path / "archive").glob(f"*/{MANIFEST_NAME}")):
        recorded = json.loads(manifest.read_text(encoding="utf-8"))
        if recorded.get("sealed") and recorded.get("turn_seed") is not None:
            out[str(recorded["step"])] = (
                str(recorded["turn_seed"]),
                [str(s) for s in recorded["sealed"]],
            )
    return out


def audit(game: Game) -> list[Finding]:
    """Everything the game's players received that they should not have (module
    docstring): secrets their rules hide, program text, seeds of sealed steps."""
    rules = game.config.house_rules
    sealed = sealed_seeds(game)
    findings: list[Finding] = []
    for files in step_files(game):
        hidden = {
            p: game.ruleset.hidden_from(files.state, p, rules)
            for p in {r.player for r in files.received}
        }
        withheld = [
            Secret.phrase(seed, f"the seed of {step}, whose dice drew {', '.join(names)}")
            for step, (seed, names) in sealed.items()
            if not secrets_public(game, files.state, names)
        ]
        for received in files.received:
            findings += program_text(received)
            findings += told_secrets(received, [*hidden[received.player], *withheld])
    return findings
