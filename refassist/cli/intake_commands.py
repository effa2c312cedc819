"""The ``intake`` command: sheets and mail in, from files, saved mailboxes or an IMAP folder;
replies out, written to the outbox and, with ``--send``, sent."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from ..intake.imap_intake import intake_imap, preview_imap
from ..intake.inbox import IntakeReport, intake
from ..intake.inbox import accept_late as accept_late_sheets
from ..mail.mailserver import ServerURL, parse_server
from ..mail.sending import configured_ca_file, send_waiting
from ..store.game import Game
from ..store.inbox_index import Index
from ..text.words import counted
from . import printable, shown
from .progress import counting_bar
from .send_commands import echo_send_result, smtp_server


def imap_folder(game: Game, text: str) -> ServerURL:
    """The IMAP folder: the option's URL, else ``[mail] imap`` of ``game.toml``."""
    text = text or game.config.mail.imap
    if not text:
        raise UsageError(
            "--imap needs the folder's URL (e.g. imaps://you@mail.example.org/Turns) or "
            "[mail] imap in game.toml"
        )
    return parse_server(text, "imap", "--imap")


def echo_report(report: IntakeReport) -> None:
    click.echo(f"Intake for {report.step}: {counted(len(report.outcomes), 'item')}")
    for o in report.outcomes:
        who = o.player or "-"
        click.echo(printable(f"  {o.status:10} {who:12} {o.name}: {' '.join(o.summary.split())}"))
        for note in o.notes:
            click.echo(printable(f"  {'':10} {'':12} not read: {note}"))
        if o.reply is not None:
            click.echo(f"  {'':10} {'':12} reply: {shown(o.reply)}")
    if report.already_filed:
        click.echo(
            f"  {counted(len(report.already_filed), 'message')} filed by an earlier run that "
            "stopped before marking them: marked now, not filed again"
        )
    counts = ", ".join(
        f"{report.count(s)} {s}"
        for s in ("accepted", "problems", "late", "refused", "duplicate", "superseded")
        if report.count(s)
    )
    click.echo(f"Summary: {counts or 'nothing filed'}")


@click.command("intake")
@click.argument("game", type=click.Path(file_okay=False, path_type=Path))
@click.argument("sources", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--imap",
    metavar="URL",
    is_flag=False,
    flag_value="",
    default=None,
    help="Fetch the turn mail from this IMAP folder, e.g. imaps://you@mail.example.org/Turns "
    "(alone: [mail] imap of game.toml).  Filed messages are flagged $RefassistFiled, or moved "
    "to [mail] filed_folder; the next run fetches only the others.",
)
@click.option(
    "--ca-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Trust this certificate (PEM) for a self-hosted server (default: [mail] ca_file).",
)
@click.option(
    "--send",
    is_flag=True,
    help="Send the replies at once through [mail] smtp (or --smtp); see `refassist send`.",
)
@click.option("--smtp", metavar="URL", help="With --send: the server to send through.")
@click.option(
    "--dry-run",
    is_flag=True,
    help="With --imap: list the messages that would be fetched; file and mark nothing.",
)
@click.option(
    "--accept-late",
    is_flag=True,
    help="Accept the late sheets of this turn (all, or those named with --player).",
)
@click.option("--player", "players", multiple=True, help="With --accept-late: only this player.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.pass_context
def intake_command(
    ctx: click.Context,
    game: Path,
    sources: tuple[Path, ...],
    imap: str | None,
    ca_file: Path | None,
    send: bool,
    smtp: str | None,
    dry_run: bool,
    accept_late: bool,
    players: tuple[str, ...],
    quiet: bool,
) -> None:
    """File received sheets: from .xlsx or .ods files, .eml files, an .mbox, a folder of
    such files or a Maildir folder, or straight from an IMAP folder (--imap).

    Each file is archived under GAME/inbox/<step>/, checked, and filed as the player's
    accepted sheet (the newest valid one wins) or as late (judged by when the mail server
    received it); a reply per message is written to GAME/outbox/<step>/replies/ and, with
    --send, sent.  Exit code 0 when everything was filed (accepted, late, duplicate), 1 when
    something was refused or had problems (each is listed with the reason, and recorded in
    the inbox's index.json).  The IMAP password comes from REFASSIST_IMAP_PASSWORD, the file
    named by REFASSIST_IMAP_PASSWORD_FILE, or the system keyring (docs/mail.md).

    \b
    Example:
      refassist intake mygame ~/mail/turn-5003.mbox
      refassist intake mygame Ann.xlsx Bob.eml Cleo.ods ~/Maildir/.refassist
      refassist intake mygame ~/Downloads/week-3/        # every sheet in the folder
      refassist intake mygame --imap imaps://referee@mail.example.org/Turns --send
      refassist intake mygame --imap --dry-run
      refassist intake mygame --accept-late --player Cleo
    """
    if not sources and imap is None and not accept_late:
        raise UsageError("give the files or mail folders to take in, --imap, or --accept-late")
    if players and not accept_late:
        raise UsageError("--player only goes with --accept-late")
    if dry_run and imap is None:
        raise UsageError("--dry-run goes with --imap (files are only read, never changed)")
    if smtp and not send:
        raise UsageError("--smtp goes with --send")
    opened = Game.open(game)
    server = imap_folder(opened, imap) if imap is not None else None
    ca = ca_file or configured_ca_file(opened)
    outbox = smtp_server(opened, smtp) if send else None
    if server is not None and dry_run:
        waiting = preview_imap(server, ca_file=ca, filed_folder=opened.config.mail.filed_folder)
        click.echo(f"{counted(len(waiting), 'message')} waiting in {server}:")
        for item in waiting:
            when = item.arrived.isoformat() if item.arrived else "?"
            click.echo(printable(f"  {when}  {item.sender or '-'}  {item.subject}"))
        return
    attention = 0
    reports: list[IntakeReport] = []
    with counting_bar("reading", quiet) as progress:
        if sources:
            reports.append(intake(opened, list(sources), progress))
        if server is not None:
            reports.append(
                intake_imap(
                    opened,
                    server,
                    ca_file=ca,
                    filed_folder=opened.config.mail.filed_folder,
                    progress=progress,
                )
            )
    for report in reports:
        echo_report(report)
        attention += report.count("refused") + report.count("problems")
    if outbox is not None and reports:
        replies = [o.reply for r in reports for o in r.outcomes if o.reply is not None]
        with counting_bar("sending", quiet) as progress:
            result = send_waiting(
                opened,
                reports[0].step,
                outbox,
                only=replies,
                ca_file=ca,
                progress=progress,
            )
        click.echo("Replies:")
        echo_send_result(result)
        attention += len(result.refused)
    if accept_late:
        state = opened.load_state()
        step = opened.step(state).key
        wanted = opened.player_names(players) if players else None
        if wanted is not None:
            index = Index.of(opened, step)
            for name in [w for w in wanted if w in index.accepted and w not in index.late]:
                click.echo(f"{name}: already accepted for {step} (no late sheet waits)")
                wanted.remove(name)
        done = accept_late_sheets(opened, step, wanted) if wanted != [] else []
        if done:
            click.echo(f"Late sheets accepted for {step}: {', '.join(done)}")
        elif wanted is None:
            click.echo(f"No late sheets for {step}.")
    if attention:
        ctx.exit(1)


def register(group: click.Group) -> None:
    group.add_command(intake_command)
