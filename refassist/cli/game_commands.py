"""Commands that create and inspect games: ``new``, ``export``, ``rulesets``."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import click

from ..errors import UsageError
from ..game import Game, read_players_csv
from ..rulesets import RULESETS, find_ruleset


def _parse_deadline(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"--deadline {value!r} is not a date and time such as 2026-11-28T21:00"
        ) from None


@click.command("new")
@click.argument("game", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--ruleset",
    "ruleset_name",
    default="fifth-millennium",
    show_default=True,
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
    "--sector",
    "sector_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Traveller sector file (.tab or .sec) to play on.",
)
@click.option(
    "--generate-sector",
    "generate_seed",
    type=int,
    help="Play on a sector generated from this seed instead.",
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
def new_command(
    game: Path,
    ruleset_name: str,
    players_file: Path,
    sector_file: Path | None,
    generate_seed: int | None,
    seed: int | None,
    name: str | None,
    assign_homeworlds: bool,
    deadline: str | None,
    days_per_turn: int,
) -> None:
    """Create a new game folder with game.toml and master.xlsx.

    \b
    Example:
      refassist new mygame --players players.csv --generate-sector 42 --seed 7
      refassist new solrim --players players.csv --sector "Solomani Rim.tab"

    Homeworlds given in players.csv must be class A systems at least 6 hexes apart;
    blank ones are chosen on the set-up sheet, or by the tool with --assign-homeworlds.
    """
    if (sector_file is None) == (generate_seed is None):
        raise UsageError("give exactly one of --sector FILE or --generate-sector SEED")
    if sector_file is not None and not sector_file.exists():
        raise UsageError(f"sector file {sector_file} not found")
    ruleset = find_ruleset(ruleset_name)
    players = read_players_csv(players_file)
    created = Game.create(
        game,
        ruleset,
        players,
        name=name,
        seed=seed,
        map_file=sector_file,
        generate_seed=generate_seed,
        assign_homeworlds=assign_homeworlds,
        first_deadline=_parse_deadline(deadline),
        days_per_turn=days_per_turn,
    )
    state = created.load_state()
    step = created.step(state)
    click.echo(
        f"created {created.path} ({ruleset.title}, {len(players)} players, "
        f"seed {created.config.seed})"
    )
    click.echo(f"waiting for: {step.label}")


@click.command("export")
@click.argument("game", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, required=True, help="Print the state as JSON.")
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
      refassist export mygame --json > state.json
    """
    opened = Game.open(game)
    state = opened.load_state()
    data = {
        "ruleset": opened.ruleset.name,
        "state": opened.ruleset.to_json(state),
    }
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
    else:
        click.echo(text)


@click.command("rulesets")
def rulesets_command() -> None:
    """List the games refassist can referee.

    \b
    Example:
      refassist rulesets
    """
    for r in RULESETS:
        aliases = f" (also: {', '.join(r.aliases)})" if r.aliases else ""
        click.echo(f"{r.name}: {r.title}, {r.min_players}-{r.max_players} players{aliases}")
        for rule in r.house_rules:
            click.echo(f"    {rule.key} = {rule.default!r}: {rule.description}")


def register(group: click.Group) -> None:
    group.add_command(new_command)
    group.add_command(export_command)
    group.add_command(rulesets_command)
