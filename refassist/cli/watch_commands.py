"""The ``watch`` command: the referee's week run by itself, round after round, until stopped
(`refassist.watch`); ``--once`` for one round (cron), ``--status`` for what it did."""

from __future__ import annotations

import os
import signal
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

import click

from ..errors import UsageError
from ..store.game import Game
from ..watch.log import log_path, timeline
from ..watch.watcher import Watcher, clock_from, find_games, mail_plan
from . import printable, shown

#: For tests and a cron catch-up: the time a round takes as now (ISO 8601; without a zone,
#: the machine's local time, as game.toml's deadlines).
NOW_VARIABLE = "REFASSIST_NOW"


def _clock(text: str | None) -> datetime | None:
    text = text or os.environ.get(NOW_VARIABLE, "")
    return clock_from(text) if text else None


def _pauses(text: str) -> tuple[float, ...]:
    try:
        pauses = tuple(float(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise UsageError(f"--retry-pauses {text!r}: seconds separated by commas") from None
    if any(p < 0 for p in pauses):
        raise UsageError(f"--retry-pauses {text!r}: no pause can be negative")
    return pauses


def echo_status(path: Path) -> None:
    """What watch did for one game, as the referee reads it."""
    game = Game.open(path)
    settings = game.config.watch
    reminders = (
        f"reminders {settings.remind_before_hours:g} h before the deadline"
        if settings.remind_before_hours
        else "no reminders"
    )
    click.echo(
        f"{game.config.name} ({shown(path)}): every {settings.every_minutes} min, {reminders}, "
        f'resolve = "{settings.resolve}"'
    )
    lines = list(timeline(path))
    if not lines:
        click.echo(f"  watch has not run yet ({shown(log_path(path))} does not exist)")
    for line in lines:
        click.echo(printable(f"  {line}"))


@click.command("watch")
@click.argument("games", nargs=-1, type=click.Path(file_okay=False, path_type=Path))
@click.option("--once", is_flag=True, help="One round of each game, then exit (for cron).")
@click.option("--status", is_flag=True, help="Show what watch did, and when; change nothing.")
@click.option(
    "--now",
    "now_text",
    metavar="ISO",
    hidden=True,
    help="Take this time as now (tests; a cron catch-up), ISO 8601; without a zone it is "
    "the machine's local time, as game.toml's deadlines.  Also REFASSIST_NOW.",
)
@click.option(
    "--retry-pauses",
    metavar="SECONDS,...",
    hidden=True,
    help="The pauses before each new attempt at a mail server (tests).",
)
def watch_command(
    games: tuple[Path, ...],
    once: bool,
    status: bool,
    now_text: str | None,
    retry_pauses: str | None,
) -> None:
    """Run the referee's week of GAME (several games, or a folder of games) by itself.

    Every [watch] every_minutes (default 5), for each game: the turn mail in [mail] imap is
    filed and every player's reply sent at once; from [watch] remind_before_hours (default
    24) before the deadline, each player without an accepted sheet gets one reminder; at the
    deadline, [watch] resolve = "ask" (default) mails the referee the turn's status and the
    commands to run, and "auto" resolves, writes the reports and the archive and sends them,
    unless something needs the referee (then it asks, saying why).  Nothing is done twice
    and nothing is lost if it is stopped or killed at any point; a mail server that fails is
    tried again.  SIGTERM or Ctrl-C stops it cleanly.  What it did is in
    GAME/watch/log.jsonl: see --status.  docs/watch.md has the systemd unit and a cron line.
    REFASSIST_NOW=2026-12-05T21:05 takes that time as now (a cron catch-up); without a zone
    it is the machine's local time, as the deadlines of game.toml are.

    \b
    Example:
      refassist watch mygame
      refassist watch ~/games                 # every game in the folder
      refassist watch mygame --once           # one round, from cron
      refassist watch mygame --status
    """
    if not games:
        raise click.UsageError("name the game folders to watch (or a folder of games)")
    paths = find_games(games)
    if status:
        for path in paths:
            echo_status(path)
        return
    for path in paths:
        mail_plan(Game.open(path))  # every game's servers set, before the first round
    fixed = _clock(now_text)

    def clock() -> datetime:
        return fixed or datetime.now(UTC)

    watcher = Watcher(paths, echo=lambda line: click.echo(printable(line)))
    if retry_pauses is not None:
        watcher.pauses = _pauses(retry_pauses)
    stop = watcher.stop

    def stopping(signum: int, frame: FrameType | None) -> None:
        if not stop.is_set():
            click.echo(
                f"{signal.Signals(signum).name}: stopping once the part under way is done",
                err=True,
            )
        stop.set()

    before = {signum: signal.signal(signum, stopping) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        if once:
            watcher.tick(clock())
            watcher.release()
            return
        names = ", ".join(p.name for p in paths)
        every = watcher.every() / 60
        click.echo(f"watching {names} every {every:g} min (SIGTERM or Ctrl-C stops)")
        watcher.run(clock)
        click.echo("stopped")
    finally:
        watcher.release()
        for signum, handler in before.items():
            signal.signal(signum, handler)


def register(group: click.Group) -> None:
    group.add_command(watch_command)
