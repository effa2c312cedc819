"""The ``report`` command: every player's PDF, the referee's PDF, mail, the archive index."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import UsageError
from ..mail.mailserver import parse_server
from ..store.game import Game
from . import shown
from .send_commands import echo_send_result

if TYPE_CHECKING:
    from rich.progress import Progress

    from ..report.game_reports import ReportRun


def _progress_bar() -> Progress:
    """rich is imported here, not at the top: only a report run at a terminal draws a bar."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[bold]reports"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        transient=False,
    )


@click.command("report")
@click.argument("game", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME",
    help="Only this player's report (repeat for several); skips the referee's report.",
)
@click.option("--mail", is_flag=True, help="Also write one .eml per player (PDF + next sheet).")
@click.option(
    "--smtp",
    metavar="URL",
    is_flag=False,
    flag_value="",
    default=None,
    help="Send the messages through this server (implies --mail): smtps://USER@HOST, "
    "smtp://USER@HOST:587 (STARTTLS) or HOST:PORT (a relay without login); alone, the "
    "[mail] smtp of game.toml.  What was sent is recorded; docs/mail.md.",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes rendering reports in parallel (default: the number of cores, at most 4).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def report_command(
    game: Path,
    players: tuple[str, ...],
    mail: bool,
    smtp: str | None,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Write the turn reports of GAME as PDFs.

    Each player gets outbox/<step>/<player>.pdf (only what that player may know, with map
    pages) beside the next turn's sheet; the referee gets outbox/<step>/referee.pdf (every
    player, fleet, event and die roll); archive/index.html lists every turn's files.  The
    reports of an earlier step never written (a step resolved again before they were, such as
    a week whose battles came back from the table) are written first, in that step's folder.

    \b
    Examples:
      refassist report mygame
      refassist report mygame --player Ann --player Bob
      refassist report mygame --mail                    # also outbox/<step>/mail/*.eml
      refassist report mygame --smtp smtps://me@mail.example.org   # and send them
    """
    from ..report.game_reports import report_player_names, write_reports

    opened = Game.open(game)
    if smtp is not None:
        smtp = smtp or opened.config.mail.smtp
        if not smtp:
            raise UsageError("--smtp needs a server URL, or [mail] smtp in game.toml")
        parse_server(smtp, "smtp", "--smtp")
    names = report_player_names(opened, players) if players else None
    if quiet:
        run = write_reports(opened, players=names, jobs=jobs, mail=mail, smtp=smtp)
    else:
        with _progress_bar() as bar:
            task = bar.add_task("", total=None)

            def progress(done: int, total: int, name: str) -> None:
                bar.update(task, completed=done, total=total, description=name)

            run = write_reports(
                opened, players=names, jobs=jobs, mail=mail, smtp=smtp, progress=progress
            )
    if run.set_aside is not None:
        click.echo(f"stale files from the outbox moved to {shown(run.set_aside)}")
    for done in run.earlier:
        click.echo(
            f"reports for {done.resolved_label or done.step} (outbox/{done.step}) were never "
            "written, so its players have not read its events: written now, to send before "
            "the newer ones"
        )
        _echo_run(done)
    _echo_run(run)
    if run.index:
        click.echo(f"archive index: {shown(run.index)}")


def _echo_run(run: ReportRun) -> None:
    """What one step's run wrote and sent."""
    for r in run.reports:
        click.echo(f"{shown(r.path)} ({r.pages} pages)")
        if r.refused:
            click.echo(
                f"warning: {r.path.name}: refused to load {len(r.refused)} URL(s) from outside "
                f"the template folders: {', '.join(sorted(set(r.refused)))}",
                err=True,
            )
    for player, sheet in run.sheets.items():
        click.echo(f"{shown(sheet)} (turn sheet for {player})")
    if run.mailings:
        click.echo(f"{len(run.mailings)} messages written to {shown(run.folder / 'mail')}")
    if run.sending is not None:
        echo_send_result(run.sending)


def register(group: click.Group) -> None:
    group.add_command(report_command)
