"""Millenium's secrets audit over a computer game through the engine, in both languages: the
Extraterrestrial's reports and sheets never name an unrevealed card's loyalty or the imperial
planet, the Empire's never the conquest programme, until the rules reveal them.  The referee's
report, which holds everything, shows the audit has teeth."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from refassist.demo import computer_sheets, create_demo_game
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, State
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename
from refassist.turns import resolve_game
from tests.test_fog_of_war import pdf_pages

RULESET = find_ruleset("millenium")
STEPS = 8


def pdf_text(path: Path) -> str:
    return "\n".join(pdf_pages(path))


def sheet_text(path: Path) -> str:
    book = openpyxl.load_workbook(path)
    return "\n".join(
        str(c.value)
        for ws in book.worksheets
        if ws.sheet_state == "visible"
        for row in ws.iter_rows()
        for c in row
        if c.value
    )


def leaks(text: str, state: State, side: str) -> list[str]:
    """What ``text``, read by ``side``, says that the side may not know."""
    found = []
    if side == ALIEN and not (state.imperial_revealed or state.finished):
        if re.search(rf"(?<![\w.]){state.imperial}(?![\w])", text) and re.search(
            r"imp[ée]rial", text, re.I
        ):
            lines = [
                line
                for line in text.splitlines()
                if re.search(r"imp[ée]rial", line, re.I) and state.imperial in line
            ]
            found += [f"imperial planet: {line}" for line in lines]
        for letter, system in state.systems.items():
            known = letter in state.revealed or any(p.holder == ALIEN for p in system.planets)
            if known:
                continue
            name = state.map.systems[letter].name
            for line in text.splitlines():
                if name in line and re.search(r"(loyalty|fidélité) \d", line):
                    found.append(f"{letter}'s loyalty: {line}")
    if side == EMPIRE and not state.finished and state.programme:
        programme = " ".join(state.programme)
        if programme in text:
            found.append("the conquest programme")
    return found


@pytest.fixture(scope="module", params=["fr", "en"])
def played(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Game, list]:
    game: Game = create_demo_game(
        tmp_path_factory.mktemp(f"milfog-{request.param}") / "demo", 2, 5, ruleset=RULESET
    )
    game.config.language = request.param
    from refassist.config import save_config

    save_config(game.path / "game.toml", game.config, {})
    game = Game.open(game.path)
    reports = []
    for _ in range(STEPS):
        state = game.load_state()
        intake(game, computer_sheets(game, state, 5))
        outcome = resolve_game(game, force=True)
        run = write_reports(game, state=outcome.state, referee=True, jobs=1)
        step = game.step(outcome.state).key
        sheets = {
            p: game.outbox(step) / sheet_filename(p) for p in game.step(outcome.state).expects
        }
        reports.append((outcome.state, {r.reader: r.path for r in run.reports}, sheets))
    return game, reports


@pytest.mark.slow
def test_no_side_reads_what_it_may_not_know(played: tuple[Game, list]) -> None:
    _game, reports = played
    found = []
    hidden_somewhere = False
    for state, paths, sheets in reports:
        for side, player in state.players.items():
            text = pdf_text(paths[player])
            if player in sheets and sheets[player].exists():
                text += "\n" + sheet_text(sheets[player])
            found += [f"{state.turn} {player}: {leak}" for leak in leaks(text, state, side)]
        hidden_somewhere |= (
            any(letter not in state.revealed for letter in state.systems)
            and not state.imperial_revealed
        )
    assert found == []
    assert hidden_somewhere, "nothing was ever hidden: the audit proved nothing"


@pytest.mark.slow
def test_the_audit_catches_a_leak(played: tuple[Game, list]) -> None:
    _game, reports = played
    state, paths, _sheets = reports[-1]
    referee = pdf_text(paths["referee"])
    assert leaks(referee, state, ALIEN), "the referee's report names the secrets"
    assert leaks(referee, state, EMPIRE)


@pytest.mark.slow
def test_the_reports_speak_the_games_language(played: tuple[Game, list]) -> None:
    game, reports = played
    _state, paths, _sheets = reports[-1]
    text = pdf_text(paths["Xenarch"])
    if game.config.language == "fr":
        assert "Compte rendu pour Xenarch" in text and "La carte stratégique" in text
    else:
        assert "Report for Xenarch" in text and "The strategic map" in text
