"""Commands that create and inspect games: ``new``, ``export``, ``rulesets``."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import click

from ..atomic import write_text
from ..config import EMAIL_RE
from ..errors import UsageError
from ..rulesets import Ruleset, all_rulesets, default_ruleset, find_ruleset
from ..store.game import Game, read_players_csv
from . import printable


def _parse_deadline(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"--deadline {value!r} is not a date and time such as 2026-11-28T21:00"
        ) from None


def map_choice(map_file: Path | None, sector_file: Path | None) -> Path | None:
    """``--map`` and its alias ``--sector``: the same option under two names."""
    if map_file is not None and sector_file is not None and map_file != sector_file:
        raise UsageError("--sector is another name for --map; give one of them")
    return map_file if map_file is not None else sector_file


def check_map_options(ruleset: Ruleset, map_file: Path | None, generate_seed: int | None) -> None:
    """Refuse map options the game cannot use, and a missing map the game needs."""
    if generate_seed is not None and not ruleset.generates_maps:
        raise UsageError(
            f"{ruleset.title} does not generate maps; leave out --generate-sector"
            + (" to play on its default map" if not ruleset.map_required else "")
        )
    if (
        ruleset.map_required
        and ruleset.generates_maps
        and (map_file is None) == (generate_seed is None)
    ):
        raise UsageError(
            "give exactly one of --sector FILE or --generate-sector SEED "
            "(--map FILE is the same as --sector FILE)"
        )
    if ruleset.map_required and not ruleset.generates_maps and map_file is None:
        raise UsageError(f"{ruleset.title} needs a map: give --map FILE")
    if map_file is not None and not map_file.exists():
        raise UsageError(f"map file {map_file} not found")


@click.command("new")
@click.argument("game", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--ruleset",
    "ruleset_name",
    # Looked up when needed, so that starting the CLI imports no game.
    default=lambda: default_ruleset().name,
    show_default="the first of `refassist rulesets`",
    help="Which game (see `refassist rulesets`).",
)
@click.option(
    "--players",
    "players_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="CSV with columns name,email and optional homeworld,computer.",
)
@click.option(
    "--map",
    "map_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Map file to play on, for games that read one (a sector file .tab or .sec for a "
    "hex-sector game; see `refassist rulesets`).",
)
@click.option(
    "--sector",
    "sector_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Another name for --map (a sector file, .tab or .sec).",
)
@click.option(
    "--generate-sector",
    "generate_seed",
    type=int,
    help="Play on a sector generated from this seed instead (games that generate maps).",
)
@click.option(
    "--scenario",
    "scenario_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Starting forces and resources, for games whose maps come with a scenario.",
)
@click.option("--seed", type=int, help="Game seed for the dice (default: random).")
@click.option("--name", help="Game name shown on sheets and reports (default: the folder name).")
@click.option(
    "--assign-homeworlds",
    is_flag=True,
    help="Choose homeworlds left blank in the players file instead of a set-up turn.",
)
@click.option("--deadline", help="First turn's deadline, e.g. 2026-11-28T21:00.")
@click.option("--days-per-turn", default=7, show_default=True, type=click.IntRange(0, 365))
@click.option(
    "--referee-email",
    help="Your address: mail to players comes from it and their sheets go back to it "
    "(asked for when run at a terminal; nothing is sent until it is set).",
)
@click.option("--referee-name", help="Your name as players see it on mail (default: none).")
def new_command(
    game: Path,
    ruleset_name: str,
    players_file: Path,
    map_file: Path | None,
    sector_file: Path | None,
    generate_seed: int | None,
    scenario_file: Path | None,
    seed: int | None,
    name: str | None,
    assign_homeworlds: bool,
    deadline: str | None,
    days_per_turn: int,
    referee_email: str | None,
    referee_name: str | None,
) -> None:
    """Create a new game folder with game.toml and master.xlsx.

    \b
    Example:
      refassist new mygame --players players.csv --generate-sector 42 --seed 7
      refassist new solrim --players players.csv --sector "Solomani Rim.tab"
      refassist new war --ruleset NAME --players players.csv
      refassist new war2 --ruleset NAME --players players.csv --map my.toml --scenario f.toml

    NAME is one of `refassist rulesets`, which also says what map each game needs: a
    hex-sector game plays on a sector file or a generated sector; a game with a default map
    needs neither, and takes --map with --scenario for a map of your own.  Homeworlds given in
    players.csv must suit the game's rules; blank ones are chosen on the set-up sheet, or by
    the tool with --assign-homeworlds.
    """
    ruleset = find_ruleset(ruleset_name)
    chosen_map = map_choice(map_file, sector_file)
    check_map_options(ruleset, chosen_map, generate_seed)
    if scenario_file is not None and not scenario_file.exists():
        raise UsageError(f"scenario file {scenario_file} not found")
    players = read_players_csv(players_file)
    referee_email, referee_name = _referee(referee_email, referee_name)
    created = Game.create(
        game,
        ruleset,
        players,
        name=name,
        seed=seed,
        map_file=chosen_map,
        scenario_file=scenario_file,
        generate_seed=generate_seed,
        assign_homeworlds=assign_homeworlds,
        first_deadline=_parse_deadline(deadline),
        days_per_turn=days_per_turn,
        referee_email=referee_email,
        referee_name=referee_name,
    )
    state = created.load_state()
    step = created.step(state)
    click.echo(
        f"created {created.path} ({ruleset.title}, {len(players)} players, "
        f"seed {created.config.seed})"
    )
    starts = ruleset.start_positions(state)
    for player in players:
        if player.name in starts:
            how = "chosen in players.csv" if player.homeworld else "assigned"
            click.echo(
                printable(f"  {player.name}: {ruleset.start_word} {starts[player.name]} ({how})")
            )
    waiting = [p.name for p in players if p.name not in starts]
    if starts and waiting:
        click.echo(f"  choosing on their set-up sheet: {', '.join(waiting)}")
    if not referee_email:
        click.echo(
            "no referee address yet: set [game] referee_email in game.toml before sending mail"
        )
    click.echo(f"waiting for: {step.label}")


def _referee(email: str | None, name: str | None) -> tuple[str, str]:
    """The referee's address and name: as given, else asked for at a terminal (Enter leaves
    them unset), else unset."""
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if email is None and interactive:
        email = click.prompt(
            "Your e-mail address (mail to players comes from it; Enter to set it later)",
            default="",
            show_default=False,
        )
        if email and name is None:
            name = click.prompt("Your name as players see it", default="", show_default=False)
    email = (email or "").strip()
    if email and not EMAIL_RE.match(email):
        raise UsageError(f"--referee-email {email!r} is not an e-mail address")
    return email, (name or "").strip()


@click.command("export")
@click.argument("game", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="JSON, the only format (the default; kept for scripts that pass it).",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to a file instead of standard output.",
)
def export_command(game: Path, as_json: bool, output: Path | None) -> None:
    """Print the whole game state as JSON (schema in docs/json-export.md).

    \b
    Example:
      refassist export mygame > state.json
      refassist export mygame -o state.json
    """
    del as_json  # JSON is the only format
    opened = Game.open(game)
    state = opened.load_state()
    data = {
        "ruleset": opened.ruleset.name,
        "state": opened.ruleset.to_json(state),
    }
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    if output:
        write_text(output, text + "\n")
    else:
        click.echo(text)


def _map_needs(ruleset: Ruleset) -> str:
    """What `refassist new` needs for the game's map, in a few words."""
    if ruleset.map_files:
        return ruleset.map_files
    if not ruleset.map_required:
        return "default map or --map FILE"
    if ruleset.generates_maps:
        return "--map FILE or --generate-sector SEED"
    return "--map FILE"


@click.command("rulesets")
def rulesets_command() -> None:
    """List the games refassist can referee: players, map, aliases and house rules.

    \b
    Example:
      refassist rulesets
    """
    for r in all_rulesets():
        aliases = f" (also: {', '.join(r.aliases)})" if r.aliases else ""
        count = (
            f"{r.min_players} players"
            if r.min_players == r.max_players
            else f"{r.min_players}-{r.max_players} players"
        )
        click.echo(f"{r.name}: {r.title}, {count}, {_map_needs(r)}{aliases}")
        for rule in r.all_house_rules():
            click.echo(f"    {rule.key} = {rule.default!r}: {rule.description}")


def register(group: click.Group) -> None:
    group.add_command(new_command)
    group.add_command(export_command)
    group.add_command(rulesets_command)
