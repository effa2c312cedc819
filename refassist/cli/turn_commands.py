"""Commands that move a game on or audit it: ``resolve``, ``rollback``, ``verify``, ``demo``.

Thin by design: each parses its options, calls `refassist.turns`, `refassist.verify` or
`refassist.demo` and prints what happened.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..demo import (
    TurnSummary,
    demo_player_count,
    demo_ruleset,
    file_computer_orders,
    run_demo,
)
from ..errors import UsageError
from ..store.game import Game
from ..text.i18n import LANGUAGES, language_code
from ..text.words import counted
from ..turns import check_ready, resolve_game, rollback
from ..verify import StepCheck, accept_edit, verify_game
from . import shown


@click.command("resolve")
@click.argument("game", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--dice",
    "dice_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Use these die results (your own rolls) instead of the game's seeded dice.",
)
@click.option(
    "--now",
    "now",
    is_flag=True,
    help="Resolve even though the deadline has not passed and a sheet is missing or has "
    "problems (or, in a game without a deadline, a sheet is missing).",
)
def resolve_command(game: Path, dice_file: Path | None, now: bool) -> None:
    """Resolve the current turn with the sheets filed in GAME/inbox.

    Archives the current master workbook and the sheets used in GAME/archive/<step>/,
    writes the new master.xlsx and the next turn's sheets in GAME/outbox/<next step>/.
    Players who sent nothing keep their fleets where they are.  A player whose newest sheet
    had problems and was not corrected gets its valid orders carried out and the lines at
    fault dropped (house rule sheets_with_problems; no-orders uses none of it).

    Before the deadline, while a sheet is missing or has problems, resolve refuses and says
    who the turn waits for; --now resolves anyway.  A game without a deadline asks for --now
    whenever a sheet is missing.

    A dice file holds whole numbers separated by spaces, commas or new lines, used in
    order; '#' starts a comment.

    \b
    Example:
      refassist resolve mygame
      refassist resolve mygame --now
      refassist resolve mygame --dice my-rolls.txt
    """
    opened = Game.open(game)
    if not now:  # refuse before the computer players' orders are filed, not after
        check_ready(opened, opened.step(opened.load_state()), datetime.now(UTC))
    computers = file_computer_orders(opened)
    if computers:
        click.echo(f"orders of the computer players filed: {', '.join(computers)}")
    outcome = resolve_game(opened, dice_file=dice_file, force=now)
    if outcome.recovered:
        click.echo(f"first {outcome.recovered}")
    click.echo(f"resolved {outcome.label}: {outcome.summary}")
    if outcome.with_orders:
        click.echo(f"  orders from: {', '.join(outcome.with_orders)}")
    if outcome.with_problems:
        click.echo(
            "  valid orders carried out from a sheet with problems: "
            f"{', '.join(outcome.with_problems)}"
        )
    unused = set(outcome.problems_unused)
    if unused:
        click.echo(
            "  sheet with problems not used (house rule no-orders): "
            f"{', '.join(outcome.problems_unused)}"
        )
    missing = [p for p in outcome.without_orders if p not in unused]
    if missing:
        click.echo(f"  no orders received from: {', '.join(missing)}")
    for text in outcome.cancelled:
        click.echo(f"  cancelled at resolve: {text}")
    click.echo(f"  archived in {shown(outcome.archive)}")
    if outcome.seed is not None:
        click.echo(f"  dice seed {outcome.seed} (SHA-256 {outcome.commitment})")
    else:
        click.echo(f"  dice from {dice_file}")
    if outcome.finished:
        click.echo(f"game over: {outcome.finished}")
    else:
        click.echo(f"  {counted(len(outcome.sheets), 'sheet')} for {outcome.next_step} written")
        if outcome.deadline_moved:
            click.echo(f"  {outcome.deadline_moved}")
        if outcome.state is not None and opened.step(outcome.state).waits_for_referee:
            # Resolved again once the table's results are in: the reports of this step must
            # be written and sent first, or its events reach the players late (issue 50).
            click.echo(
                f"  next: the reports of {outcome.label} (refassist report {shown(opened.path)}); "
                f"send them before the table, then settle {outcome.next_step}"
            )


@click.command("rollback")
@click.argument("game", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--to",
    "to_step",
    required=True,
    help="The archived step to go back to (its year or turn number, e.g. 5003).",
)
def rollback_command(game: Path, to_step: str) -> None:
    """Go back to an archived turn, so it can be resolved again.

    The master workbook becomes the one that turn started from; that turn's archive and any
    later ones are moved to GAME/rolled-back/<time>/ (nothing is deleted).  The
    sheets filed for the turn stay in GAME/inbox, so `refassist resolve` can run again.

    \b
    Example:
      refassist rollback mygame --to 5003
    """
    opened = Game.open(game)
    outcome = rollback(opened, to_step)
    if outcome.recovered:
        click.echo(f"first {outcome.recovered}")
    click.echo(f"master.xlsx is back at the start of {outcome.step}")
    if outcome.outbox is not None:
        click.echo(
            f"  moved the sheets and reports of the undone turns to {shown(outcome.outbox)}/outbox"
        )
    if outcome.moved_to is not None:
        click.echo(
            f"  moved the archives of {', '.join(outcome.moved)} and the replaced master to "
            f"{shown(outcome.moved_to)}"
        )
    # The undone turns' pages leave the archive site (refassist/archive/site.py).
    from ..archive.site import write_site
    from ..store.recovery import working

    with working(opened):
        click.echo(f"archive site: {shown(write_site(opened))}")


def _verdict(check: StepCheck) -> str:
    if check.source == "seeded":
        dice = f"seed {check.seed} (SHA-256 {check.commitment[:16]}...), {check.rolls} dice"
    elif check.source == "file":
        dice = f"the referee's dice file, {check.rolls} dice"
    else:
        dice = "not replayed"
    if check.integrity:
        return f"ARCHIVE CHANGED: {'; '.join(check.integrity)}"
    if not check.differences:
        return f"same result; {dice}"
    if check.accepted is not None:
        return (
            f"differs by a recorded hand edit ({check.accepted.get('accepted_at', '')}: "
            f"{check.accepted.get('note', '')}); {dice}"
        )
    return "DIFFERENT: " + "; ".join(check.differences[:5])


@click.command("verify")
@click.argument("game", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--accept",
    "accept_step",
    metavar="STEP",
    help="Record that the state after this turn was edited by hand on purpose.",
)
@click.option("--note", default="", help="With --accept: what you changed and why.")
@click.option(
    "--turn",
    "turns",
    multiple=True,
    metavar="STEP",
    help="Check only this archived turn (repeat for more); default: every turn.",
)
@click.pass_context
def verify_command(
    ctx: click.Context, game: Path, accept_step: str | None, note: str, turns: tuple[str, ...]
) -> None:
    """Re-run every archived turn from its inputs and compare with what followed.

    Each turn in GAME/archive is resolved again from its archived master, sheets, settings and
    dice, and the result must equal the state that followed it (the next turn's archived
    master, or master.xlsx for the last turn).  Seeded turns show their seed: the dice came
    from it, and its SHA-256 is the commitment published before the deadline.  Exit code 0
    when every turn comes out the same, 1 when one differs (a hand edit of master.xlsx that
    was not recorded, a changed archive file).

    A hand edit you made on purpose is recorded with --accept STEP --note "why"; from then on
    that exact difference is reported as accepted (archive/STEP/edits.json).

    \b
    Example:
      refassist verify mygame
      refassist verify mygame --turn 5003
      refassist verify mygame --accept 5003 --note "gave Ann back 2 F lost to a typo"
    """
    opened = Game.open(game)
    if accept_step is not None:
        check = accept_edit(opened, accept_step, note)
        click.echo(
            f"recorded the hand edit after {check.step} in "
            f"{shown(opened.archive(check.step) / 'edits.json')}:"
        )
        for line in check.differences[:10]:
            click.echo(f"  {line}")
        return
    if note:
        raise UsageError("--note goes with --accept STEP")
    report = verify_game(opened, list(turns) or None)
    if report.recovered:
        click.echo(f"first {report.recovered}")
    click.echo(f"verified {counted(len(report.steps), 'archived turn')} of {shown(opened.path)}:")
    for check in report.steps:
        click.echo(f"  {check.step}  {_verdict(check)}")
    if report.ok:
        edited = [c.step for c in report.steps if c.differences]
        click.echo(
            "every turn comes out the same from its archive"
            + (f" (after recorded hand edits: {', '.join(edited)})" if edited else "")
        )
        return
    steps = ", ".join(c.step for c in report.differing)
    click.echo(
        f"{counted(len(report.differing), 'turn')} differ from the archive: {steps}; if you edited "
        "master.xlsx by hand on purpose, record it with: refassist verify "
        f"{shown(opened.path)} --accept STEP --note 'why'"
    )
    ctx.exit(1)


def language_option(text: str) -> str:
    """``--language`` as a language code (empty stays empty); a clear error for one refassist
    does not speak."""
    if not text:
        return ""
    code = language_code(text)
    if code is None:
        known = ", ".join(sorted(LANGUAGES))
        raise UsageError(f"--language {text!r} is not a language refassist speaks ({known})")
    return code


@click.command("demo")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--ruleset",
    "ruleset_name",
    help="Which game to play (default: the first in `refassist rulesets`).",
)
@click.option(
    "--players",
    type=click.IntRange(1, None),
    help="How many computer players (default: 6, or the game's fewest or most if 6 is "
    "outside its range).",
)
@click.option(
    "--turns",
    default=12,
    show_default=True,
    type=click.IntRange(1, 500),
    help="Game turns to play (fewer if the game ends); a game whose turn is several "
    "exchanges of sheets plays every exchange of each.",
)
@click.option("--seed", default=1, show_default=True, type=int, help="Game and map seed.")
@click.option(
    "--map",
    "map_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Play on this map file (a sector file for a hex-sector game) instead of a generated "
    "or the game's default map.",
)
@click.option(
    "--sector",
    "sector_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Another name for --map.",
)
@click.option(
    "--scenario",
    "scenario_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Starting forces for a map of your own (games whose maps come with a scenario).",
)
@click.option(
    "--language",
    default="",
    help="The language the game is played in (en, fr; default: the game's own): every "
    "sheet, report, reply and the public page of the demo speak it.",
)
def demo_command(
    folder: Path,
    ruleset_name: str | None,
    players: int | None,
    turns: int,
    seed: int,
    map_file: Path | None,
    sector_file: Path | None,
    scenario_file: Path | None,
    language: str,
) -> None:
    """Play a whole game with computer players in FOLDER.

    Every turn goes the way a human's does: each computer player fills in its turn sheet,
    the intake checks and files it, the turn is resolved and the reports are written.  Look
    in FOLDER afterwards: master.xlsx, the sheets in outbox/, the filed sheets in inbox/,
    the archive.  Any game in `refassist rulesets` can be played.

    FOLDER must be new or empty, or a folder an earlier demo made (it is replaced).

    \b
    Example:
      refassist demo demo-game --players 6 --turns 12
      refassist demo solrim --players 6 --turns 30 --sector "Solomani Rim.tab"
      refassist demo war --ruleset NAME --turns 10   (NAME from `refassist rulesets`)
    """
    from .game_commands import map_choice

    chosen_map = map_choice(map_file, sector_file)
    ruleset = demo_ruleset(ruleset_name)
    count = demo_player_count(ruleset, players)
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("turns"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("demo", total=turns)

        def progress(done: int, total: int, summary: TurnSummary | None) -> None:
            bar.update(task, completed=done, total=total)
            if summary is not None:
                try:
                    click.echo(summary.text())
                except BrokenPipeError:  # `refassist demo ... | head`: keep playing
                    from . import stdout_gone

                    stdout_gone()

        result = run_demo(
            folder,
            players=count,
            turns=turns,
            seed=seed,
            map_file=chosen_map,
            ruleset=ruleset.name,
            scenario_file=scenario_file,
            progress=progress,
            language=language_option(language),
        )
    last = result.turns[-1] if result.turns else None
    played = counted(len(result.turns), ruleset.step_word)
    if ruleset.step_word != "turn":  # a game turn of several exchanges: say both
        played = f"{counted(result.game_turns, 'game turn')} ({played})"
    click.echo(
        f"played {played} with {count} computer players in "
        f"{result.seconds:.1f} s ({ruleset.title}); the game is in {shown(result.folder)}"
    )
    if result.finished:
        click.echo(f"game over: {result.finished}")
    elif last is not None and last.standing is not None:
        standing = last.standing
        plural = "s" if standing.score != 1 else ""
        click.echo(f"leader: {standing.leader} with {standing.score} {standing.measure}{plural}")
    if last is not None:
        step = shown(result.folder / "outbox" / last.next_step)
        click.echo(f"open: {step}/<player>.pdf (the players' reports), {step}/referee.pdf,")
        click.echo(
            f"      {shown(result.folder / 'master.xlsx')} (the master workbook), "
            f"{shown(result.folder / 'archive' / 'index.html')} (every turn)"
        )


def register(group: click.Group) -> None:
    group.add_command(resolve_command)
    group.add_command(rollback_command)
    group.add_command(verify_command)
    group.add_command(demo_command)
