"""The ``send`` command: what waits in the outbox goes out through the referee's server."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from ..mail.mailserver import ServerURL, parse_server
from ..mail.sending import SendResult, send_waiting
from ..store.game import Game
from . import printable, shown
from .progress import counting_bar


def smtp_server(game: Game, text: str | None) -> ServerURL:
    """The server to send through: the option's URL, else ``[mail] smtp`` of ``game.toml``."""
    text = text or game.config.mail.smtp
    if not text:
        raise UsageError(
            "no server to send through: give --smtp URL (e.g. smtps://you@mail.example.org) "
            "or set [mail] smtp in game.toml"
        )
    return parse_server(text, "smtp", "--smtp")


def echo_send_result(result: SendResult) -> None:
    """What a send did, one line per message that went, was refused or was held back."""
    verb = "would send" if result.dry_run else "sent"
    for item in result.sent:
        click.echo(printable(f"  {verb:10} {item.name} to {', '.join(item.recipients)}"))
    for item, why in result.refused:
        click.echo(printable(f"  {'refused':10} {item.name}: {why} (still waiting)"))
    for name in result.set_aside:
        click.echo(
            printable(
                f"  {'set aside':10} {name}: no longer true (sheet accepted or deadline "
                "passed); moved to rolled-back/"
            )
        )
    for item in result.held:
        if not item.held.startswith("sent "):
            click.echo(printable(f"  {'held':10} {item.name}: {item.held}"))
    already = sum(1 for item in result.held if item.held.startswith("sent "))
    summary = f"{len(result.sent)} {verb} through {result.server}"
    if result.refused:
        summary += f", {len(result.refused)} refused by the server"
    if already:
        summary += f", {already} sent before"
    click.echo(summary)


@click.command("send")
@click.argument("game", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option(
    "--smtp",
    metavar="URL",
    help="The server: smtps://USER@HOST, smtp://USER@HOST:587 (STARTTLS) or HOST:PORT (a "
    "relay without login).  Default: [mail] smtp of game.toml.",
)
@click.option(
    "--ca-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Trust this certificate (PEM) for a self-hosted server.",
)
@click.option("--step", help="Send what waits for this step (default: the current one).")
@click.option(
    "--resend",
    multiple=True,
    metavar="NAME",
    help="Send this message again though it was sent before (a player's name or the file "
    "name; repeat for several).",
)
@click.option("--dry-run", is_flag=True, help="Show what would be sent; send nothing.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.pass_context
def send_command(
    ctx: click.Context,
    game: Path,
    smtp: str | None,
    ca_file: Path | None,
    step: str | None,
    resend: tuple[str, ...],
    dry_run: bool,
    quiet: bool,
) -> None:
    """Send the mail waiting in GAME's outbox: reports (outbox/<step>/mail/) and intake
    replies (outbox/<step>/replies/).

    Each message is recorded in outbox/<step>/.sent.json as the server takes it, so nothing
    is sent twice and, after a failure, the same command sends the rest.  A message written
    again after it was sent waits for --resend.  The password comes from
    REFASSIST_SMTP_PASSWORD, the file named by REFASSIST_SMTP_PASSWORD_FILE, or the system
    keyring (docs/mail.md).  Exit code 1 when the server refused a recipient.

    \b
    Example:
      refassist send mygame --dry-run
      refassist send mygame --smtp smtps://referee@mail.example.org
      refassist send mygame --resend Ann
    """
    opened = Game.open(game)
    server = smtp_server(opened, smtp)
    if step is None:
        step = opened.step(opened.load_state()).key
    elif not opened.outbox(step).is_dir():
        raise UsageError(f"no outbox for step {step} ({shown(opened.outbox(step))})")
    with counting_bar("sending", quiet) as progress:
        result = send_waiting(
            opened,
            step,
            server,
            resend=resend,
            ca_file=ca_file,
            dry_run=dry_run,
            progress=progress,
        )
    click.echo(f"Mail for {step}:")
    echo_send_result(result)
    if result.refused:
        ctx.exit(1)


def register(group: click.Group) -> None:
    group.add_command(send_command)
