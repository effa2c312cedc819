"""The command line: help with examples, errors as one line, new and export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.store.game import Game


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_top_level_help(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--help"])
    assert result.exit_code == 0
    assert "refassist demo" in result.output


def test_each_command_is_in_the_module_the_table_names() -> None:
    """The commands are imported when they are looked up, by the table of their modules: each
    module registers exactly the commands the table gives it, and every command is found."""
    import importlib

    import click

    from refassist.cli import COMMAND_MODULES

    for module in set(COMMAND_MODULES.values()):
        group = click.Group()
        importlib.import_module(f"refassist.cli.{module}").register(group)
        assert set(group.commands) == {c for c, m in COMMAND_MODULES.items() if m == module}
    assert sorted(main.commands) == sorted(COMMAND_MODULES)
    assert main.get_command(click.Context(main), "no-such-command") is None


def test_every_command_has_help_with_an_example(runner: CliRunner) -> None:
    for name in main.commands:
        result = runner.invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Example" in result.output, f"{name} --help has no example"


def test_new_and_export(runner: CliRunner, tmp_path: Path, players_csv) -> None:
    csv = players_csv(
        "name,email\nAnn,ann@example.com\nBob,bob@example.com\nCleo,cleo@example.com\n"
    )
    game = tmp_path / "g"
    result = runner.invoke(
        main,
        [
            "new",
            str(game),
            "--players",
            str(csv),
            "--generate-sector",
            "42",
            "--seed",
            "9",
            "--assign-homeworlds",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "created" in result.output and "Year 5001" in result.output
    assert (game / "game.toml").exists() and (game / "master.xlsx").exists()
    state = Game.open(game).load_state()
    for player in state.players:
        system = state.system(player.homeworld)
        assert f"  {player.name}: homeworld {system.hex} {system.name} (assigned)" in (
            result.output
        )
    exported = runner.invoke(main, ["export", str(game), "--json"])
    assert exported.exit_code == 0
    assert runner.invoke(main, ["export", str(game)]).output == exported.output
    runner.invoke(main, ["export", str(game), "-o", str(tmp_path / "state.json")])
    assert (tmp_path / "state.json").read_text(encoding="utf-8") == exported.output
    data = json.loads(exported.output)
    assert data["ruleset"] == "fifth-millennium"
    assert data["state"]["year"] == 5001
    assert {p["name"] for p in data["state"]["players"]} == {"Ann", "Bob", "Cleo"}
    assert sum(f["fleet"]["F"] for f in data["state"]["forces"]) == 45


def test_errors_are_one_line_without_traceback(
    runner: CliRunner, tmp_path: Path, players_csv
) -> None:
    csv = players_csv("name,email\nAnn,ann@example.com\n")
    result = runner.invoke(
        main, ["new", str(tmp_path / "g"), "--players", str(csv), "--generate-sector", "1"]
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.startswith("error: Fifth Millennium needs 2-")
    assert len(result.output.strip().splitlines()) == 1


def test_missing_game_folder(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["export", str(tmp_path / "nope"), "--json"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output


def test_sector_or_generate_is_required(runner: CliRunner, tmp_path: Path, players_csv) -> None:
    csv = players_csv("name,email\nAnn,ann@example.com\nBob,bob@example.com\n")
    result = runner.invoke(main, ["new", str(tmp_path / "g"), "--players", str(csv)])
    assert result.exit_code == 2
    assert "give exactly one of --sector FILE or --generate-sector SEED" in result.output


def test_broken_master_is_reported_by_export(runner: CliRunner, small_game) -> None:
    import openpyxl

    wb = openpyxl.load_workbook(small_game.master_path)
    wb["Settings"]["C2"] = "soon"
    wb.save(small_game.master_path)
    result = runner.invoke(main, ["export", str(small_game.path), "--json"])
    assert result.exit_code == 1
    assert "Settings!C2: Year is not a whole number" in result.output


_IMPORTED_GAMES = """
import json, sys
def games():
    return sorted({m.split(".")[2] for m in sys.modules
                   if m.startswith("refassist.rulesets.") and m.split(".")[2] != "base"})
import refassist.cli
from refassist.rulesets import find_ruleset
started = games()
found = find_ruleset(sys.argv[1])
print(json.dumps([started, games(), found.name]))
"""


def _imported(name: str) -> tuple[list[str], list[str], str]:
    """In a fresh process: the games imported by the CLI, those after `find_ruleset(name)`, and
    the name of the game found."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _IMPORTED_GAMES, name], capture_output=True, text=True, check=True
    ).stdout
    started, after, found = json.loads(out)
    return started, after, found


def test_the_cli_starts_without_importing_a_game_and_a_game_imports_only_itself() -> None:
    """Each command is a process: importing every game cost about 0.25 s of each start.  The
    CLI imports none; looking a game up by its name imports that game's package alone (and
    the helpers it uses); an alias still finds its game (every game is imported then)."""
    from refassist.rulesets import all_rulesets

    shared = {"checking", "keyedlist", "tomlfile"}  # helpers a game may import, not games
    for ruleset in all_rulesets():
        package = ruleset.package.rsplit(".", 1)[-1]
        for name in (ruleset.name, ruleset.name.upper()):
            started, after, found = _imported(name)
            assert started == [] and found == ruleset.name
            assert set(after) - shared == {package}, (ruleset.name, after)
        for alias in ruleset.aliases:
            assert _imported(alias)[2] == ruleset.name
