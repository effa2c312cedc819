"""Commands around turn sheets: ``sheets``, ``check``, ``status`` (``intake`` has its own module).

Thin by design: each parses its options, calls `refassist.store.turnsheets` or
`refassist.intake.inbox` and prints.  ``check`` exits 0 when the sheet is accepted (warnings
allowed), 1 when it has problems, 2 when the file is not a usable turn sheet.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import NotATurnSheet, UsageError
from ..intake.inbox import status
from ..store.game import Game
from ..store.inbox_index import waiting_for
from ..store.outbox import set_aside_stale
from ..store.recovery import working
from ..store.turnsheets import CheckResult, check_sheet, write_sheets
from ..text.i18n import words_for
from ..text.words import counted
from ..workbook.annotate import annotate
from ..workbook.sheetio import sniff
from . import printable, shown


@click.command("sheets")
@click.argument("game", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--player", "players", multiple=True, help="Only this player's sheet (repeat for more)."
)
def sheets_command(game: Path, players: tuple[str, ...]) -> None:
    """Write the turn sheets of the current step into GAME/outbox/<step>/.

    \b
    Example:
      refassist sheets mygame
      refassist sheets mygame --player Ann
    """
    opened = Game.open(game)
    with working(opened) as recovered:
        state = opened.load_state()
        aside = set_aside_stale(opened, state, sheets_only=True)
        written = write_sheets(opened, state, list(players) if players else None)
    if recovered:
        click.echo(f"first {recovered}")
    if aside is not None:
        click.echo(f"stale turn sheets moved to {shown(aside)}")
    step = opened.step(state)
    click.echo(f"{counted(len(written), 'turn sheet')} for {step.label}:")
    for path in written:
        click.echo(f"  {shown(path)}")


def _print_result(result: CheckResult) -> None:
    meta = result.meta
    verdict = "accepted" if result.accepted else counted(len(result.errors), "error")
    if result.warnings:
        verdict += f", {counted(len(result.warnings), 'warning')}"
    click.echo(
        printable(
            f"{result.path.name}: {meta.get('player', '?')}'s sheet for {meta.get('step', '?')} "
            f"({meta.get('game_name', '?')}): {verdict}"
        )
    )
    click.echo("Orders as read:")
    for line in result.orders_text:
        click.echo(printable(f"  {line}"))
    if result.problems:
        click.echo("Problems:")
        # The messages speak the sheet's language (its reader's): "found" too, so a French
        # line does not end in English.
        found = words_for(meta.get("language", "")).gettext("found")
        for p in result.problems:
            click.echo(printable(f"  {p.severity.upper():7} {p.shown(found)}"))


@click.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--game",
    "game_path",
    type=click.Path(file_okay=False, path_type=Path),
    help="Check against this game: identity (token), turn and rules.  The game may also come "
    "first, as in the other commands: refassist check GAME SHEET.",
)
@click.option(
    "--annotate",
    "annotate_out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a copy of the sheet with the problem cells marked and commented.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def check_command(
    ctx: click.Context,
    paths: tuple[Path, ...],
    game_path: Path | None,
    annotate_out: Path | None,
    as_json: bool,
) -> None:
    """Check one turn sheet; exit 0 accepted, 1 problems, 2 not a usable turn sheet.

    Without a game only the notation is checked; with one (--game GAME, or GAME before the
    sheet as the other commands take it), the sheet must be a genuine sheet of that game for
    the current turn, and every order is checked against the game state.  The sheet may be an
    .xlsx or LibreOffice's .ods; the annotated copy is always an .xlsx.

    \b
    Example:
      refassist check Ann.xlsx --game mygame
      refassist check mygame Ann.xlsx
      refassist check Ann.xlsx --game mygame --annotate Ann-checked.xlsx
      refassist check Ann.xlsx --json
    """
    sheet = _sheet_and_game(paths, game_path)
    game_path = game_path if len(paths) == 1 else paths[0]
    if annotate_out is not None and annotate_out.suffix.lower() == ".ods":
        raise UsageError(
            f"the annotated copy is an Excel workbook: name it .xlsx, not {annotate_out.name} "
            "(it opens in LibreOffice too)"
        )
    game = Game.open(game_path) if game_path is not None else None
    try:
        result = check_sheet(sheet, game)
    except NotATurnSheet as exc:
        if as_json:
            click.echo(
                json.dumps(
                    {"file": str(sheet), "status": "refused", "exit_code": 2, "error": str(exc)},
                    indent=2,
                    ensure_ascii=False,
                )
            )
            ctx.exit(2)
        raise
    if annotate_out is not None:
        if annotate_out.resolve() == sheet.resolve():
            raise UsageError("--annotate must name a new file, not the sheet itself")
        # The copy goes back to the player: in the player's language, as the checker spoke.
        words = words_for(result.language, result.ruleset.package)
        annotate(sheet, result.problems, annotate_out, words)
    if as_json:
        data = result.to_dict()
        data["checked"] = "notation" if game is None else "game"
        if annotate_out is not None:
            data["annotated"] = str(annotate_out)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        _print_result(result)
        if annotate_out is not None:
            ods = sniff(sheet.read_bytes()).kind == "ods"
            made = " (an .xlsx of the .ods's contents, without its formatting)" if ods else ""
            click.echo(f"Annotated copy{made}: {shown(annotate_out)}")
        if game is None:
            click.echo(
                "Only the notation was checked: not whose sheet it is, nor the turn, nor the "
                "rules (ranges, budget, what the player owns). To check all of it, run: "
                f"refassist check {shown(sheet)} --game GAME"
            )
    ctx.exit(result.exit_code)


def _sheet_and_game(paths: tuple[Path, ...], game_path: Path | None) -> Path:
    """The sheet ``check`` was given: ``SHEET`` (with or without ``--game``) or ``GAME SHEET``,
    the order of the other commands, which take the game first."""
    if len(paths) > 2:
        raise UsageError("check takes one sheet: refassist check [GAME] SHEET")
    if len(paths) == 2 and game_path is not None:
        raise UsageError(
            f"the game is named twice ({paths[0]} and --game {game_path}): name it once"
        )
    sheet = paths[-1]
    if sheet.is_dir():
        raise UsageError(
            f"{sheet} is a folder, not a sheet: refassist check [GAME] SHEET, the sheet last"
        )
    return sheet


@click.command("status")
@click.argument("game", type=click.Path(file_okay=False, path_type=Path))
def status_command(game: Path) -> None:
    """Show who has sent a valid sheet for the current turn, who has not, who has problems.

    Also prints the commitment to this turn's dice (the SHA-256 of its seed): publish it
    before the deadline, and players can check the seed the reports print afterwards
    (docs/dice.md).

    \b
    Example:
      refassist status mygame
    """
    report = status(Game.open(game))
    if report.interrupted:
        click.echo(f"Note: {report.interrupted}.")
    for advice in report.stale:
        click.echo(printable(f"Stale: {advice}."))
    click.echo(f"{report.label} - deadline {report.deadline}")
    for note in report.notes:
        click.echo(printable(f"  {note}"))
    width = max([len(p.player) for p in report.players] + [6])
    for p in report.players:
        click.echo(printable(f"  {p.player:{width}}  {p.state:9}  {p.detail}"))
    for line in report.unfinished:
        click.echo(printable(line))
    waiting = [p.player for p in waiting_for(report.players)]
    click.echo(f"Waiting for: {', '.join(waiting)}" if waiting else "Every sheet is in.")
    for advice in report.reports:
        click.echo(printable(f"Reports: {advice}."))
    if report.unsent:
        click.echo(
            f"Mail not yet sent: {counted(report.unsent, 'message')} (refassist send {game})"
        )
    if report.commitment:
        click.echo(
            f"Dice commitment for {report.step}: SHA-256 {report.commitment} "
            "(publish it before the deadline; the seed is printed in the reports afterwards)"
        )


def register(group: click.Group) -> None:
    group.add_command(sheets_command)
    group.add_command(check_command)
    group.add_command(status_command)
