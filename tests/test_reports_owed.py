"""Reports of a step resolved again before they were written (issue 50): a Full Thrust week
that opened battles is reported in ``outbox/<week>-battles``; when the referee settles the
battles first, ``refassist report`` writes that week's reports too, each step's events in its
own reports, never twice, and ``status`` and ``resolve`` say what to send when."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.demo import computer_sheets
from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.store.game import Game
from refassist.turns import resolve_game
from tests.test_fog_of_war import pdf_pages

#: With this seed two commanders' second week opens battles (``2-battles``).
SEED = 1


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output + result.stderr
    return " ".join(result.stdout.split())


def text(path: Path) -> str:
    return " ".join(" ".join(pdf_pages(path)).split())


def file_sheets(game: Game) -> None:
    """Every sheet (or battle result) the current step expects, as the computer fills it."""
    state = game.load_state()
    intake(game, computer_sheets(game, state, SEED, only=list(game.step(state).expects)))


def play(game: Game, steps: int) -> None:
    """The next ``steps`` steps, every expected sheet filed and resolved."""
    for _ in range(steps):
        file_sheets(game)
        resolve_game(game, force=True)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """Week 1's results reported (``outbox/2``), week 2 not yet resolved."""
    ruleset = find_ruleset("full-thrust-campaign")
    people = [dataclasses.replace(p, computer=False) for p in ruleset.demo_players(2)]
    folder = tmp_path_factory.mktemp("owed") / "g"
    opened = Game.create(
        folder, ruleset, people, name="T", seed=SEED, secret="s", referee_email="ref@example.org"
    )
    play(opened, 2)
    run("report", str(folder), "-q")
    return opened


def test_the_weeks_reports_are_written_when_the_battles_were_settled_first(game: Game) -> None:
    folder = str(game.path)
    names = [c for c in game.ruleset.players(game.load_state())]
    file_sheets(game)
    said = run("resolve", folder, "--now")
    assert game.step(game.load_state()).key == "2-battles"
    assert "next: the reports of Week 2" in said and "send them before the table" in said
    said = run("status", folder)
    assert (
        "Reports: the reports of Week 2 are not yet written: refassist report "
        f"{folder}; write and send them before the table" in said
    )
    play(game, 1)  # the table's results filed and resolved before any report of week 2
    assert game.step(game.load_state()).key == "3"
    said = run("status", folder)
    assert "the reports of Week 2 (outbox/2-battles) were never written" in said
    assert "the reports of Week 2: battles for the tabletop are not yet written" in said
    said = run("report", folder, "-q", "--mail")
    assert "reports for Week 2 (outbox/2-battles) were never written" in said
    assert (game.outbox("2-battles") / "mail" / f"{names[0]}.eml").is_file()
    week = text(game.outbox("2-battles") / f"{names[0]}.pdf")
    battles = text(game.outbox("3") / f"{names[0]}.pdf")
    referee = text(game.outbox("2-battles") / "referee.pdf")
    # The week's own events in the week's reports, the table's results in the next ones.
    assert "Results of Week 2." in week and "The week's travel" in week
    assert "Results of Week 2: battles for the tabletop." in battles
    assert "The week's travel" not in battles and "TIMELINE" not in battles
    after = text(game.outbox("3") / "referee.pdf")
    assert "BATTLE RESULT" in after and "TIMELINE" not in after
    assert "TIMELINE" in referee
    assert "wait for the tabletop. Send the commanders their reports of Week 2" in referee
    said = run("status", folder)
    assert "were never written" not in said
    assert "the reports of Week 2: battles for the tabletop are written (outbox/3)" in said
    assert (
        "the mail of the reports of Week 2 (outbox/2-battles) is not yet sent: refassist send "
        f"{folder} --step 2-battles" in said
    )
    # Written once: a second run owes nothing earlier.
    assert "never written" not in run("report", folder, "-q")
