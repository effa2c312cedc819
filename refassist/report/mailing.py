"""Report mailings: one ``.eml`` per player with the PDF and the next turn's sheet attached.

The messages are written to ``outbox/<step>/mail/<player>.eml`` so the referee can open and
check them, or send them from a mail program; ``--smtp URL`` or ``refassist send`` sends them
through the referee's server (`refassist.mail.sending`, which records what went).  Each message goes
to the player's own address from ``game.toml`` and carries only that player's files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from ..errors import GameError
from ..mail.messages import build_message, parse_message_bytes, write_eml
from ..processes import forked_map
from ..text.i18n import Words

MAIL_DIR = "mail"


@dataclass(frozen=True)
class Mailing:
    """One player's message: where its ``.eml`` was written.  The message itself is read back
    from that file when asked for: a turn's twelve messages, each carrying its PDF in base64,
    kept in memory made the end of `refassist report --mail` the run's peak (185 MB against
    163 MB without them, docs/benchmarks.md)."""

    player: str
    path: Path

    @property
    def message(self) -> EmailMessage:
        message = parse_message_bytes(self.path.read_bytes())
        assert isinstance(message, EmailMessage)
        return message


def report_body(
    game_name: str,
    player: str,
    step: str,
    deadline: str,
    sheet: Path | None,
    resolved: str = "",
    words: Words | None = None,
) -> str:
    """The mail's text, in the reader's language (``words``; English without)."""
    w = words or Words()
    if resolved:
        attached = w(
            "The report of {game} with the results of {step} is attached as a PDF.",
            game=game_name,
            step=resolved,
        )
    else:
        attached = w(
            "The report of {game} with your turn report is attached as a PDF.", game=game_name
        )
    lines = [w("Dear {player},", player=player), "", attached]
    if sheet is not None:
        lines.append(
            w(
                "Your turn sheet for {step} is attached too: fill it in with Excel or "
                "LibreOffice and send it back as an attachment.",
                step=step,
            )
        )
        lines += ["", w.orders_due(deadline)]
    else:
        # A step that waits for someone else (the referee's battles at the table): nothing is
        # due from this player now, and saying "orders are due" would be wrong.
        lines += [
            "",
            w("No sheet is due from you for {step}; the next one will come by mail.", step=step)
            if step
            else w.gettext("The game is over: no sheet will follow."),
        ]
    lines += ["", w("The referee")]
    return "\n".join(lines)


def report_subject(
    game_name: str,
    player: str,
    step: str,
    resolved: str = "",
    with_sheet: bool = True,
    words: Words | None = None,
) -> str:
    """Which turn's results the mail carries and which turn's orders its sheet is for: the
    outbox step alone ("5002") read as both; no sheet named when none is attached."""
    w = words or Words()
    if not with_sheet:
        return w(
            "{game}: results of {step} ({player})",
            game=game_name,
            step=resolved or step,
            player=player,
        )
    if resolved:
        return w(
            "{game}: results of {resolved}, sheet for {step} ({player})",
            game=game_name,
            resolved=resolved,
            step=step,
            player=player,
        )
    return w("{game}: sheet for {step} ({player})", game=game_name, step=step, player=player)


def build_mailings(
    *,
    folder: Path,
    game_name: str,
    step: str,
    deadline: str,
    sender: str,
    sender_name: str = "Referee",
    resolved: str = "",
    addresses: Mapping[str, str],
    reports: Mapping[str, Path],
    sheets: Mapping[str, Path],
    readers: Mapping[str, tuple[Words, str]] | None = None,
    names: Mapping[str, tuple[str, str]] | None = None,
) -> list[Mailing]:
    """Write one ``.eml`` per player who has a report; refuse players without an address.
    ``readers``: each player's translator and deadline in it (English and ``deadline``
    for a player not named); ``names``: the resolved step and the next as each player reads
    them (`ReportInput.awaited_context`; else ``resolved`` and ``step``, the folder keys)."""
    for player in reports:
        if not addresses.get(player, ""):
            raise GameError(
                f"player {player!r} has no e-mail address in game.toml; add one under "
                "[[players]] to mail the report"
            )

    def mail(player: str) -> Mailing:
        pdf, to = reports[player], addresses[player]
        words, due = (readers or {}).get(player, (Words(), deadline))
        was, now = (names or {}).get(player, (resolved, step))
        sheet = sheets.get(player)
        if sheet is not None and not sheet.exists():
            sheet = None
        attachments = [pdf] + ([sheet] if sheet is not None else [])
        message = build_message(
            sender=sender,
            sender_name=sender_name,
            to=to,
            to_name=player,
            subject=report_subject(game_name, player, now, was, sheet is not None, words),
            body=report_body(game_name, player, now, due, sheet, was, words),
        )
        path = folder / MAIL_DIR / (pdf.stem + ".eml")
        path.parent.mkdir(parents=True, exist_ok=True)
        # Attached as it is written: fast for a report of a megabyte (`write_eml`).
        write_eml(path, message, attachments)
        return Mailing(player, path)

    # Each message is its own file, most of it a report in base64: a turn's are written by
    # two processes (or more) at once.
    return forked_map(mail, list(reports))
