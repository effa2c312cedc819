"""The ``archive`` command: the referee's archive site, and the players' public page."""

from __future__ import annotations

from pathlib import Path

import click

from ..store.game import Game
from ..text.words import counted
from . import shown


@click.command("archive")
@click.argument("game", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option(
    "--public",
    "public",
    type=click.Path(path_type=Path),
    default=None,
    metavar="DIR",
    help="Also write the players' public page into DIR (only what the rules make public to "
    "everyone: announcements, who is in the game, the dice commitments and seeds, and the "
    "standings where the game publishes them).  Publish DIR, never archive/.",
)
def archive_command(game: Path, public: Path | None) -> None:
    """Write GAME's archive site: archive/index.html and a page per turn.

    The index shows the standings over every turn, one line per resolved turn and every
    step's files; each turn's page (archive/turn-<step>.html) has what happened, its map,
    the standings after it, its dice and links to every report, sheet, reply and archived
    input.  `refassist report` refreshes the site too.  The site is the referee's: it links
    every player's report.  docs/archive.md says what each page holds.

    \b
    Examples:
      refassist archive mygame
      refassist archive mygame --public mygame-public     # then publish mygame-public/
    """
    from ..archive.history import read_history
    from ..archive.public import check_public_folder, write_public
    from ..archive.site import write_site
    from ..store.recovery import working

    opened = Game.open(game)
    if public is not None:
        check_public_folder(opened, public)
    with working(opened):
        history = read_history(opened)
        index = write_site(opened, history)
        click.echo(f"archive site: {shown(index)} ({counted(len(history.turns), 'resolved turn')})")
        if public is not None:
            page = write_public(opened, public, history)
            click.echo(f"public page: {shown(page)} (publish the folder {shown(page.parent)})")
    for turn in history.turns:
        if turn.problem:
            click.echo(f"warning: results of {turn.step}: {turn.problem}", err=True)


def register(group: click.Group) -> None:
    group.add_command(archive_command)
