"""`refassist demo`: a short computer game through the command line, every turn going through
the sheet writer, the intake and resolve."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.demo import MARKER, create_demo_game, demo_player_count, play_turn
from refassist.errors import UsageError
from refassist.rulesets import RULESETS, find_ruleset
from refassist.rulesets.base import COMPUTER_PLAYER_NAMES, Ruleset, Standing
from refassist.store.game import Game


def test_a_short_demo_plays_every_turn_through_sheets_intake_and_resolve(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    result = CliRunner().invoke(main, ["demo", str(folder), "--players", "4", "--turns", "3"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("Year ")]
    assert [line.split(":")[0] for line in lines] == ["Year 5001", "Year 5002", "Year 5003"]
    assert "leader" in lines[-1] and "played 3 turns with 4 computer players" in result.output

    game = Game.open(folder)
    assert game.load_state().year == 5004
    assert (folder / MARKER).is_file()
    for year in ("5001", "5002", "5003"):
        index = json.loads((folder / "inbox" / year / "index.json").read_text())
        assert [e["status"] for e in index["entries"]] == ["accepted"] * 4
        assert len(list((folder / "inbox" / year / "accepted").glob("*.xlsx"))) == 4
        manifest = json.loads((folder / "archive" / year / "manifest.json").read_text())
        assert len(manifest["with_orders"]) == 4
        assert len(list((folder / "computer" / year).glob("*.xlsx"))) == 4
    assert len(list((folder / "outbox" / "5004").glob("*.xlsx"))) == 4


def test_a_demo_replaces_an_earlier_demo_but_no_other_folder(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "demo"
    assert (
        runner.invoke(main, ["demo", str(folder), "--players", "2", "--turns", "1"]).exit_code == 0
    )
    again = runner.invoke(main, ["demo", str(folder), "--players", "3", "--turns", "1"])
    assert again.exit_code == 0, again.output
    assert len(Game.open(folder).config.players) == 3
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my own game")
    refused = runner.invoke(main, ["demo", str(mine)])
    assert refused.exit_code == 2 and "not made by refassist demo" in refused.output
    assert (mine / "notes.txt").read_text() == "my own game"


def test_the_same_demo_seed_plays_the_same_game(tmp_path: Path) -> None:
    """A demo's game secret comes from its seed, so the keyed turn seeds, the dice and the
    whole game repeat; another seed plays another game."""
    runner = CliRunner()
    exports, turn_seeds = [], []
    for name, seed in (("a", "3"), ("b", "3"), ("c", "4")):
        args = ["demo", str(tmp_path / name), "--players", "3", "--turns", "2", "--seed", seed]
        assert runner.invoke(main, args).exit_code == 0
        exported = runner.invoke(main, ["export", str(tmp_path / name), "--json"])
        assert exported.exit_code == 0, exported.output
        exports.append(json.loads(exported.output))
        manifests = sorted((tmp_path / name / "archive").glob("*/manifest.json"))
        turn_seeds.append([json.loads(m.read_text())["turn_seed"] for m in manifests])
    assert exports[0] == exports[1] and turn_seeds[0] == turn_seeds[1]
    assert len(turn_seeds[0]) == 2
    assert exports[0] != exports[2] and turn_seeds[0] != turn_seeds[2]


def test_a_demo_piped_into_head_plays_every_turn(tmp_path: Path) -> None:
    """`refassist demo ... | head -1`: the pipe closes after the first line, the demo keeps
    playing to the end, quietly, and exits 0 (no error about disks or pipes)."""
    import shutil
    import subprocess
    import sys

    refassist = shutil.which("refassist", path=str(Path(sys.executable).parent))
    assert refassist is not None
    folder = tmp_path / "demo"
    done = subprocess.run(
        [
            "bash",
            "-c",
            f'"{refassist}" demo "{folder}" --players 2 --turns 3 | head -1; '
            'echo "status ${PIPESTATUS[0]}" >&2',
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.stdout.startswith("Year 5001:") and len(done.stdout.splitlines()) == 1
    assert done.stderr.strip().endswith("status 0"), done.stderr
    assert "error" not in done.stderr
    assert sorted(p.name for p in (folder / "archive").iterdir() if p.is_dir()) == [
        "5001",
        "5002",
        "5003",
    ]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_the_demo_plays_every_ruleset(ruleset: Ruleset, tmp_path: Path) -> None:
    """`--ruleset` picks the game; without `--players` it plays with the default count brought
    into the game's range; the per-turn lines come from the ruleset."""
    folder = tmp_path / "demo"
    result = CliRunner().invoke(
        main, ["demo", str(folder), "--ruleset", ruleset.name, "--turns", "1"]
    )
    assert result.exit_code == 0, result.output
    count = demo_player_count(ruleset, None)
    assert ruleset.min_players <= count <= ruleset.max_players
    steps = 1
    if ruleset.step_word == "turn":
        assert f"played 1 turn with {count} computer players" in result.output
    else:  # a game turn of several exchanges: --turns counts game turns
        found = re.search(
            rf"played 1 game turn \((\d+) {ruleset.step_word}s?\) with {count} computer players",
            result.output,
        )
        assert found, result.output
        steps = int(found.group(1))
    assert f"({ruleset.title})" in result.output
    game = Game.open(folder)
    assert game.ruleset is ruleset and len(game.config.players) == count
    assert len(list((folder / "archive").glob("*/manifest.json"))) == steps


def test_the_default_demo_player_count_fits_the_game() -> None:
    """Six players unless the game allows fewer or needs more; a count the game does not allow
    is refused with the game's range."""
    big = find_ruleset(RULESETS[0].name)
    assert demo_player_count(big, None) == min(max(6, big.min_players), big.max_players)

    class Duel(type(big)):  # the same game, limited to two players
        min_players = 2
        max_players = 2

    duel = Duel()
    assert demo_player_count(duel, None) == 2
    with pytest.raises(UsageError, match="plays with 2-2 players, not 3"):
        demo_player_count(duel, 3)


def test_a_player_count_outside_the_game_is_a_clear_error(tmp_path: Path) -> None:
    runner = CliRunner()
    ruleset = RULESETS[0]
    too_many = min(ruleset.max_players, len(COMPUTER_PLAYER_NAMES)) + 1
    folder = tmp_path / "demo"
    result = runner.invoke(main, ["demo", str(folder), "--players", str(too_many)])
    assert result.exit_code == 2
    assert f"demo plays with {ruleset.min_players}-" in result.output
    assert f"not {too_many}" in result.output and "Traceback" not in result.output
    assert not folder.exists()
    unknown = runner.invoke(main, ["demo", str(folder), "--ruleset", "chess"])
    assert unknown.exit_code == 2 and "unknown ruleset 'chess'" in unknown.output


def test_a_demo_turn_line_comes_from_the_ruleset(tmp_path: Path) -> None:
    """The demo prints the ruleset's highlights and standing, not its own reading of a state."""

    base = RULESETS[0]

    class Loud(type(base)):
        def turn_highlights(self, state, events):  # type: ignore[no-untyped-def]
            return f"loud {len(events)}"

        def standing(self, state):  # type: ignore[no-untyped-def]
            return Standing("Nobody", 1, "thing")

    game = create_demo_game(tmp_path / "demo", 2, 5, ruleset=Loud())
    line = play_turn(game, 5).text()
    assert ": loud " in line and line.endswith("; leader Nobody (1 thing)")


def test_demo_turns_counts_game_turns_and_status_says_what_was_skipped(tmp_path: Path) -> None:
    """Millennium Wars' game turn is several exchanges: ``--turns 1`` plays every exchange of
    game turn 1 and stops at turn 2's first; ``status`` names the exchanges skipped last."""
    folder = tmp_path / "mw"
    runner = CliRunner()
    args = ["demo", str(folder), "--ruleset", "millennium-wars", "--turns", "1", "--seed", "2"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    played = sorted(p.parent.name for p in (folder / "archive").glob("*/manifest.json"))
    assert len(played) > 2 and all(key.startswith("1-") for key in played)
    assert "played 1 game turn (" in result.output
    game = Game.open(folder)
    assert game.step(game.load_state()).key == "2-1-1"
    status = runner.invoke(main, ["status", str(folder)])
    assert status.exit_code == 0, status.output
    assert "Skipped 1-2-" in status.output
    # The exchanges replay alike from their archives, skipped ones included; an exchange
    # rolled back and resolved again skips the same exchanges and leads to the same one.
    verify = runner.invoke(main, ["verify", str(folder)])
    assert verify.exit_code == 0 and "every turn comes out the same" in verify.output
    exported = runner.invoke(main, ["export", str(folder), "--json"]).output
    last = played[-1]
    assert runner.invoke(main, ["rollback", str(folder), "--to", last]).exit_code == 0
    again = runner.invoke(main, ["resolve", str(folder)])
    assert again.exit_code == 0, again.output
    assert runner.invoke(main, ["export", str(folder), "--json"]).output == exported
