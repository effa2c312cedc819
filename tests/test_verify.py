"""Rollback and replay, ``refassist verify`` and the dice commitment, over a 20-turn game.

Three computer players on the small golden sector (so they meet early and battles roll dice)
play 20 turns through the real path: their sheets filled in, taken in by the intake, resolved.
Then: every archived turn replays to exactly what followed it; rolling back to the first turn
and resolving again reproduces all 20 turns; hand edits and archive tampering are caught; and
the seed printed after each turn is the one whose SHA-256 was published before its deadline,
checked the way docs/dice.md tells a player to.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from refassist.cli import main
from refassist.demo import computer_sheets
from refassist.dice import Dice, turn_seed
from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.fifth_millennium.state import Relation
from refassist.store.game import Game
from refassist.store.turn_seed import commitment
from refassist.store.turnsheets import write_sheets
from refassist.turns import archived_steps, manifest, resolve_game
from refassist.verify import verify_game
from tests.golden_game import GOLDEN_DIRS

#: The small sector the Fifth Millennium golden game is played on.
SECTOR_FILE = GOLDEN_DIRS["fifth-millennium"] / "sector.tab"

TURNS = 20
SEED = 4
DOCS = Path(__file__).resolve().parents[1] / "docs"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


class Played:
    """The 20-turn game as played: its folder, each turn's state and pre-deadline commitment."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.after: dict[str, dict[str, Any]] = {}
        self.committed: dict[str, str] = {}
        self.status_line = ""

    def copy(self, target: Path) -> Game:
        shutil.copytree(self.path, target)
        return Game.open(target)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("verify") / "game"
    game = Game.create(
        folder,
        find_ruleset("fifth-millennium"),
        [PlayerSetup(p, f"{p.lower()}@example.com", computer=True) for p in ("Ann", "Bob", "Cleo")],
        seed=SEED,
        map_file=SECTOR_FILE,
        assign_homeworlds=True,
    )
    write_sheets(game, game.load_state())
    out = Played(folder)
    code, text = run("status", str(folder))
    assert code == 0
    out.status_line = next(line for line in text.splitlines() if "Dice commitment" in line)
    for _ in range(TURNS):
        state = game.load_state()
        out.committed[str(state.year)] = commitment(game, state).sha256
        report = intake(game, computer_sheets(game, state, SEED))
        assert report.count("accepted") == 3
        outcome = resolve_game(game, force=True)
        assert not outcome.finished, "the game ended early; pick another seed"
        out.after[outcome.step] = game.ruleset.to_json(outcome.state)
    return out


def test_verify_replays_every_turn_and_shows_its_seed(played: Played, tmp_path: Path) -> None:
    game = played.copy(tmp_path / "game")
    code, text = run("verify", str(game.path))
    assert code == 0, text
    lines = [line.strip() for line in text.splitlines() if re.match(r"\s+50\d\d ", line)]
    assert len(lines) == TURNS
    rolled = 0
    for line in lines:
        step, verdict = line.split(None, 1)
        assert verdict.startswith("same result; seed "), line
        seed = int(verdict.split("seed ", 1)[1].split()[0])
        # the seed the turn rolled from is the one committed to before its deadline
        assert hashlib.sha256(str(seed).encode()).hexdigest() == played.committed[step]
        assert manifest(game, step)["turn_seed"] == seed
        rolled += int(verdict.rsplit(", ", 1)[1].split()[0])
    assert rolled > 50  # battles were fought: the dice themselves were compared
    assert "every turn comes out the same" in text


def test_rollback_then_resolve_reproduces_every_archived_turn(
    played: Played, tmp_path: Path
) -> None:
    game = played.copy(tmp_path / "game")
    code, text = run("rollback", str(game.path), "--to", "5001")
    assert code == 0, text
    assert game.load_state().year == 5001
    for step, expected in played.after.items():
        code, text = run("resolve", str(game.path), "--now")
        assert code == 0, text
        assert text.startswith(f"resolved Year {step}")
        assert game.ruleset.to_json(game.load_state()) == expected, f"turn {step} differs"
    assert verify_game(game).ok


def test_rollback_to_a_middle_turn_and_resolve_it_again(played: Played, tmp_path: Path) -> None:
    game = played.copy(tmp_path / "game")
    code, text = run("rollback", str(game.path), "--to", "5013")
    assert code == 0, text
    replaced = sorted((game.path / "rolled-back").glob("*/master-replaced.xlsx"))
    assert len(replaced) == 1  # the master the rollback replaced is kept
    code, _ = run("resolve", str(game.path), "--now")
    assert code == 0
    assert game.ruleset.to_json(game.load_state()) == played.after["5013"]


def _edit_master(game: Game, change: Any) -> None:
    """What a referee does in Excel, done through the library: load, change, save."""
    state = game.load_state()
    change(state)
    game.save_state(state)


def test_an_unrecorded_hand_edit_is_found_and_a_recorded_one_accepted(
    played: Played, tmp_path: Path
) -> None:
    game = played.copy(tmp_path / "game")

    def richer(state: Any) -> None:
        state.player("Bob").stockpile += 25

    _edit_master(game, richer)
    code, text = run("verify", str(game.path))
    assert code == 1
    assert "5020  DIFFERENT: players[1].stockpile:" in text
    assert text.count("same result") == TURNS - 1
    assert "--accept STEP" in text
    code, text = run("verify", str(game.path), "--accept", "5020", "--note", "Bob's lost points")
    assert code == 0, text
    assert "players[1].stockpile" in text
    record = json.loads((game.archive("5020") / "edits.json").read_text(encoding="utf-8"))
    assert record["edits"][0]["note"] == "Bob's lost points"
    code, text = run("verify", str(game.path), "--turn", "5020")
    assert code == 0 and "recorded hand edit" in text and "Bob's lost points" in text
    # another change after the recorded one is reported again
    _edit_master(game, richer)
    code, text = run("verify", str(game.path), "--turn", "5020")
    assert code == 1 and "5020  DIFFERENT" in text
    # the edit survives the next turn: it is then in the next turn's archived master
    code, text = run("verify", str(game.path), "--accept", "5020", "--note", "and again")
    assert code == 0
    state = game.load_state()
    intake(game, computer_sheets(game, state, SEED))
    resolve_game(game, force=True)
    assert verify_game(game, ["5020", "5021"]).ok


def test_verify_refuses_what_cannot_be_accepted(played: Played, tmp_path: Path) -> None:
    game = played.copy(tmp_path / "game")
    code, text = run("verify", str(game.path), "--accept", "5007", "--note", "nothing")
    assert code == 2 and "replays exactly" in text
    code, text = run("verify", str(game.path), "--note", "why")
    assert code == 2 and "--note goes with --accept" in text
    code, text = run("verify", str(game.path), "--accept", "5007")
    assert code == 2 and "say why" in text
    code, text = run("verify", str(game.path), "--accept", "4999", "--note", "x")
    assert code == 1 and "no complete archive of 4999" in text
    code, text = run("verify", str(game.path), "--turn", "4999")
    assert code == 2 and "4999 is not archived" in text


def test_a_changed_archive_is_reported(played: Played, tmp_path: Path) -> None:
    game = played.copy(tmp_path / "game")
    sheets = game.archive("5010") / "sheets"
    (sheets / "Ann.xlsx").write_bytes((sheets / "Bob.xlsx").read_bytes())
    toml = game.archive("5012") / "game.toml"
    toml.write_text(
        re.sub(r"^seed = \d+", "seed = 99", toml.read_text(encoding="utf-8"), flags=re.M),
        encoding="utf-8",
    )
    code, text = run("verify", str(game.path))
    assert code == 1
    found = {line.split()[0]: line for line in text.splitlines()[1:] if line.startswith("  50")}
    assert "ARCHIVE CHANGED" in found["5010"] and "sheets/Ann.xlsx" in found["5010"]
    assert "ARCHIVE CHANGED" in found["5012"] and "game.toml" in found["5012"]
    assert "same result" in found["5011"]
    assert "5010, 5012" in text


def test_a_turn_with_the_referees_dice_verifies_from_its_dice_file(tmp_path: Path) -> None:
    game = Game.create(
        tmp_path / "game",
        find_ruleset("fifth-millennium"),
        [PlayerSetup(p, f"{p.lower()}@example.com") for p in ("Ann", "Bob")],
        seed=3,
        generate_seed=42,
        assign_homeworlds=True,
    )
    state = game.load_state()
    state.relations.append(Relation(kind="trade", a="Ann", b="Bob", since=5000))
    game.save_state(state)  # a trade agreement rolls two dice each production phase
    rolls = tmp_path / "rolls.txt"
    rolls.write_text("# my dice\n4 2\n", encoding="utf-8")
    code, text = run("resolve", str(game.path), "--now", "--dice", str(rolls))
    assert code == 0 and f"dice from {rolls}" in text
    code, text = run("verify", str(game.path))
    assert code == 0 and "5001  same result; the referee's dice file, 2 dice" in text
    (game.archive("5001") / "dice.txt").write_text("6 6\n", encoding="utf-8")
    code, text = run("verify", str(game.path))
    assert code == 1 and "dice.txt was changed" in text


def _documented_commands() -> tuple[str, str]:
    text = (DOCS / "dice.md").read_text(encoding="utf-8")
    printf = next(line for line in text.splitlines() if line.startswith("printf %s "))
    python = next(line for line in text.splitlines() if line.startswith('python3 -c "'))
    return printf, python


def test_a_player_checks_the_seed_as_docs_dice_md_says(played: Played, tmp_path: Path) -> None:
    game = played.copy(tmp_path / "game")
    first = played.status_line.split("SHA-256 ", 1)[1].split()[0]
    assert first == played.committed["5001"]
    seed = str(manifest(game, "5001")["turn_seed"])
    printf, python = _documented_commands()
    example = printf.split()[2]  # printf %s SEED | sha256sum
    assert python.endswith(f" {example}")
    for command in (printf, python):
        line = command.replace(example, seed)
        ran = subprocess.run(["bash", "-c", line], capture_output=True, text=True, check=True)
        assert ran.stdout.split()[0] == first, command
    # and the example in the document is itself a true pair
    documented = (DOCS / "dice.md").read_text(encoding="utf-8")
    commitment_shown = re.search(r"SHA-256 ([0-9a-f]{64}) \(publish", documented)
    assert commitment_shown is not None
    assert hashlib.sha256(example.encode()).hexdigest() == commitment_shown.group(1)


def test_reports_print_the_seed_and_the_next_commitment(played: Played, tmp_path: Path) -> None:
    from refassist.report.game_reports import write_reports

    game = played.copy(tmp_path / "game")
    run_ = write_reports(game, players=["Ann"], referee=True, jobs=1)
    seed = str(manifest(game, "5020")["turn_seed"])
    upcoming = commitment(game, game.load_state())
    for report in run_.reports:
        text = " ".join(
            " ".join(p.extract_text() or "" for p in PdfReader(report.path).pages[:1]).split()
        )
        assert f"Dice of Year 5020: rolled from the seed {seed}" in text, report.path.name
        assert hashlib.sha256(seed.encode()).hexdigest() in text.replace(" ", "")
        assert f"Commitment to the dice of Year {upcoming.step}" in text
        assert upcoming.sha256 in text.replace(" ", "")


def test_turn_seeds_are_keyed_with_the_games_secret(played: Played, tmp_path: Path) -> None:
    """A revealed seed does not give away the game seed: without the secret, trying every
    small game seed finds nothing; with it, the seed is reproduced."""
    game = played.copy(tmp_path / "game")
    revealed = manifest(game, "5003")["turn_seed"]
    guesses = {turn_seed(g, 5003) for g in range(0, 5000)}  # what a player could try
    assert revealed not in guesses
    assert turn_seed(SEED, 5003, game.config.secret) == revealed
    other = turn_seed(SEED, 5003, game.config.secret + "x")
    assert other != revealed and turn_seed(SEED, 5004, game.config.secret) != revealed
    # rule tests and the golden game keep their unkeyed seeds
    assert turn_seed(SEED, 5003) == Dice.for_turn(SEED, 5003).seed


def test_an_interrupted_rollback_is_finished_by_the_next_command(
    played: Played, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = played.copy(tmp_path / "game")
    real_move = shutil.move
    calls = []

    def failing_move(source: str, target: str) -> str:
        calls.append(source)
        if len(calls) == 3:  # the third archive cannot be moved: the process stops here
            raise OSError(28, "No space left on device", source)
        return real_move(source, target)

    monkeypatch.setattr(shutil, "move", failing_move)
    code, text = run("rollback", str(game.path), "--to", "5015")
    monkeypatch.setattr(shutil, "move", real_move)
    assert code == 1 and "stopped half way" in text and "finishes it" in text
    code, text = run("status", str(game.path))
    assert code == 0 and "a rollback of 5015" in text and "was interrupted" in text
    assert game.load_state().year == 5015
    code, text = run("verify", str(game.path), "--turn", "5014")
    assert code == 0, text
    assert text.startswith("first finished the interrupted rollback to 5015")
    assert [s for s in archived_steps(game) if s >= "5015"] == []
    code, _ = run("resolve", str(game.path), "--now")
    assert code == 0
    assert game.ruleset.to_json(game.load_state()) == played.after["5015"]
