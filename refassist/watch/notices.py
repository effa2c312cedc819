"""The mail `refassist watch` writes of its own: a player's reminder and the referee's mail at
the deadline.

Each is written once, atomically, as ``outbox/<step>/watch/<name>.eml`` before it is sent:
the file is the decision ("this player is reminded for this step"), and `sending.send_waiting`
sends it and records it in the step's ``.sent.json`` the moment the server takes it.  So a
watch killed at any point either has not decided (the next round decides again, the same
way), or has decided and the next round sends what is not recorded as sent: nothing lost,
nothing sent twice (the one window is SMTP's own, `sending`'s docstring).  A file that exists
is never written again, so a reminder goes once per player per step.

A player reads the reminder in their language; the referee reads the game's.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from refassist.mail.messages import build_message, write_eml
from refassist.mail.sending import read_sent
from refassist.rulesets.base import Step
from refassist.store.aside import stamp
from refassist.store.game import Game
from refassist.store.inbox_index import Index, PlayerStatus
from refassist.store.turnsheets import sheet_filename
from refassist.text.i18n import Words, again, words_for
from refassist.text.words import N_

#: The outbox sub-folder of a step that holds watch's own mail (`sending.MAIL_FOLDERS`).
WATCH_DIR = "watch"
#: The referee's mail of a step without a deadline (`ask_path`); with one, it is named for it.
ASK_NAME = "referee.eml"

#: A sheet's state as the referee's mail names it.
STATE_WORDS = {
    "accepted": N_("accepted"),
    "missing": N_("no sheet received"),
    "problems": N_("its sheet has problems"),
    "refused": N_("its sheet was refused"),
    "late": N_("a late sheet waits for you to accept it"),
    "computer": N_("computer player"),
}


def watch_folder(game: Game, step: str) -> Path:
    """``outbox/<step>/watch/``: watch's mail for the step and what it decided."""
    return game.outbox(step) / WATCH_DIR


def reminder_path(game: Game, step: str, player: str) -> Path:
    return watch_folder(game, step) / f"reminder-{sheet_filename(player)[:-5]}.eml"


def ask_path(game: Game, step: str) -> Path:
    """The referee's mail for the step's deadline as it stands: named for the deadline, so a
    deadline the referee moved after the mail is a new decision (one mail per deadline)."""
    deadline = game.deadline(step)
    if deadline is None:
        return watch_folder(game, step) / ASK_NAME
    return watch_folder(game, step) / f"referee-{stamp(deadline)}.eml"


def referee_words(game: Game) -> Words:
    """The referee's translator: the game's language (``[game] language``, else the game's
    own default)."""
    return words_for(game.config.language or game.ruleset.language, game.ruleset.package)


def referee_address(game: Game) -> str:
    """Where the referee's mail goes: ``[watch] referee``, else ``[game] referee_email``."""
    return game.config.watch.referee or game.config.referee_email


def _latest(game: Game, step: str, player: str) -> dict[str, Any]:
    """The player's newest filed entry of the step (not a duplicate), or an empty one."""
    mine = [
        e
        for e in Index.of(game, step).entries
        if e.get("player") == player and e.get("status") != "duplicate"
    ]
    return mine[-1] if mine else {}


def _what_is_wrong(game: Game, step: Step, row: PlayerStatus, w: Words) -> str:
    """One sentence for the player: what the referee has (nothing, a sheet with problems, a
    file refused) and what to do before the deadline."""
    deadline = game.deadline_text(step.key, w)
    label = again(step.label, w)
    if row.state in ("problems", "refused"):
        entry = _latest(game, step.key, row.player)
        name = str(entry.get("name", ""))
        listed = entry.get("problems", [])
        problems = [p for p in listed if isinstance(p, dict)] if isinstance(listed, list) else []
        errors = [p for p in problems if p.get("severity", "error") == "error"] or problems
        if row.state == "problems" and errors:
            return w(
                "the deadline for {step} is {deadline}, and the sheet I have from you, {name}, "
                "still has {problems}; the first: {first}. My reply to it lists them all, with a "
                "marked-up copy of the sheet. Send the corrected sheet before then.",
                step=label,
                deadline=deadline,
                name=name,
                problems=w.counted_as(len(errors), "problem", "problems"),
                first=str(errors[0].get("message", "")),
            )
        if entry.get("no_sheet"):
            return w(
                "the deadline for {step} is {deadline}, and the last mail you sent carried no "
                "turn sheet. Send your sheet, attached as .xlsx, before then.",
                step=label,
                deadline=deadline,
            )
        note = str(entry.get("note", ""))
        how = entry.get("note_said")
        # The reason as intake said it, in the player's language; a reason intake kept as
        # plain text (a record older than `note_said`) is not given in a language they may
        # not read: the reply to the file said it.
        why = again(note, w, how) if how else w.gettext("see my reply to it")
        return w(
            "the deadline for {step} is {deadline}, and the last file you sent, {name}, could "
            "not be taken as your turn sheet: {why}. Send your sheet before then.",
            step=label,
            deadline=deadline,
            name=name,
            why=why,
        )
    return w(
        "the deadline for {step} is {deadline}, and no turn sheet of yours has reached me yet. "
        "Send it before then.",
        step=label,
        deadline=deadline,
    )


def write_reminder(game: Game, step: Step, row: PlayerStatus) -> Path | None:
    """The reminder of ``row.player`` for ``step``, written once (None when the player has no
    address to write to).  A player with no sheet in yet gets the blank sheet again."""
    path = reminder_path(game, step.key, row.player)
    if path.is_file():
        return path
    player = game.config.player(row.player)
    if player is None or not player.email:
        return None
    w = game.words_for(row.player)
    sheet = game.outbox(step.key) / sheet_filename(row.player)
    attach = [sheet] if row.state == "missing" and sheet.is_file() else []
    body = w("Dear {player},", player=row.player) + "\n\n" + _what_is_wrong(game, step, row, w)
    if attach:
        body += " " + w.gettext("Your sheet is attached again.")
    body += "\n\n" + game.config.sender_name + "\n"
    subject = w("reminder, orders due {deadline}", deadline=game.deadline_text(step.key, w))
    msg = build_message(
        sender=game.config.referee_email,
        to=player.email,
        subject=f"{game.config.name}, {again(step.label, w)}: {subject}",
        body=body,
        to_name=row.player,
        sender_name=game.config.sender_name,
    )
    write_eml(path, msg, attach)
    return path


def reminded(game: Game, step: str) -> list[str]:
    """The players watch reminded for ``step``, in the game's order: those whose reminder the
    step's ``.sent.json`` records as sent (one written but never sent, or set aside as no
    longer true, reminded nobody)."""
    sent = read_sent(game.outbox(step))
    return [
        p.name
        for p in game.config.players
        if f"{WATCH_DIR}/{reminder_path(game, step, p.name).name}" in sent
    ]


def ask_text(
    game: Game,
    step: Step,
    rows: Sequence[PlayerStatus],
    reasons: Sequence[str],
    commands: Sequence[str],
    w: Words,
) -> str:
    """The referee's mail at the deadline: where each sheet stands, who was reminded, why
    watch did not resolve by itself (``reasons``, when ``resolve = "auto"``), and the
    commands to run."""
    label = again(step.label, w)
    lines = [
        w(
            "The deadline for {step}, {deadline}, has passed.",
            step=label,
            deadline=game.deadline_text(step.key, w),
        ),
        "",
    ]
    if rows:
        lines.append(w.gettext("Sheets:"))
        width = max(len(r.player) for r in rows)
        for row in rows:
            state = w.gettext(STATE_WORDS.get(row.state, row.state))
            lines.append(f"  {row.player:{width}}  {state}")
        lines.append("")
    names = reminded(game, step.key)
    if names:
        lines += [w("Reminded before the deadline: {players}", players=", ".join(names)), ""]
    if reasons:
        lines.append(
            w.gettext('refassist watch did not resolve the turn itself (resolve = "auto") because:')
        )
        lines += [f"  - {reason}" for reason in reasons]
        lines.append("")
    lines.append(w.gettext("When you are ready, run:"))
    lines.append("")
    lines += [f"  {command}" for command in commands]
    lines += ["", "refassist watch"]
    return "\n".join(lines) + "\n"


def write_ask(
    game: Game,
    step: Step,
    rows: Sequence[PlayerStatus],
    reasons: Sequence[str],
    commands: Sequence[str],
    now: datetime,
) -> Path:
    """The referee's mail for ``step``'s deadline, written once."""
    path = ask_path(game, step.key)
    if path.is_file():
        return path
    w = referee_words(game)
    label = again(step.label, w)
    subject = w("{step}: the deadline has passed", step=label)
    if reasons:
        subject = w("{step}: the deadline has passed; the turn waits for you", step=label)
    msg = build_message(
        sender=game.config.referee_email,
        to=referee_address(game),
        subject=f"{game.config.name}, {subject}",
        body=ask_text(game, step, rows, reasons, commands, w),
        sender_name=game.config.sender_name,
    )
    msg["X-Refassist-Watch"] = now.isoformat()
    deadline = game.deadline(step.key)
    if deadline is not None:
        msg["X-Refassist-Deadline"] = deadline.astimezone().isoformat()
    write_eml(path, msg)
    return path
