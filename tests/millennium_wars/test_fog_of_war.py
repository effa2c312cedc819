"""Millennium Wars' fog-of-war audit: over a computer game, no side's report (its text, the
board's counters included, since they are real text in the PDF) names an enemy unit the side
could not see when the report was written, unless an event told to that side named it (a
combat it fought).  The referee's report, which sees everything, shows the audit has teeth."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refassist.demo import computer_sheets, create_demo_game
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.rulesets.millennium_wars.state import State
from refassist.store.game import Game
from refassist.turns import resolve_game
from tests.test_fog_of_war import pdf_pages

RULESET = find_ruleset("millennium-wars")
#: Enough exchanges for the first combats of the training scenario (turn 1's second player turn).
STEPS = 14
UNIT_ID = re.compile(r"\b[NS]-[A-Z0-9]+\b")


def pdf_text(path: Path) -> str:
    return "\n".join(pdf_pages(path))


def allowed(state: State, player: str) -> set[str]:
    """The enemy units ``player`` may read of in the report written from ``state``."""
    view = RULESET.player_view(state, player)
    told = {m.group(0) for e in view.events for m in UNIT_ID.finditer(e.text)}
    return {u.id for u in view.units} | told


def leaks(text: str, state: State, player: str) -> list[str]:
    side = state.side_of(player)
    assert side is not None
    enemy = {u.id for u in [*state.units, *state.lost] if u.side != side.name}
    ok = allowed(state, player)
    return sorted({m.group(0) for m in UNIT_ID.finditer(text)} & enemy - ok)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[State, dict[str, Path]]]:
    game: Game = create_demo_game(tmp_path_factory.mktemp("mwfog") / "demo", 2, 5, ruleset=RULESET)
    reports = []
    for _ in range(STEPS):
        state = game.load_state()
        intake(game, computer_sheets(game, state, 5))
        outcome = resolve_game(game, force=True)
        run = write_reports(game, state=outcome.state, referee=True, jobs=1)
        reports.append((outcome.state, {r.reader: r.path for r in run.reports}))
    return reports


@pytest.mark.slow
def test_no_side_reads_of_enemy_units_it_cannot_see(played: list) -> None:
    found = []
    hidden_somewhere = False
    for state, paths in played:
        for player in RULESET.players(state):
            text = pdf_text(paths[player])
            found += [f"{state.point.key} {player}: {uid}" for uid in leaks(text, state, player)]
            side = state.side_of(player)
            assert side is not None
            mine = [u.id for u in state.units if u.side == side.name]
            assert all(uid in text for uid in mine), "a side's report lists all its units"
            hidden_somewhere |= any(
                u.side != side.name and u.id not in allowed(state, player) for u in state.units
            )
    assert found == []
    assert hidden_somewhere, "the game never hid a unit: the audit proved nothing"


@pytest.mark.slow
def test_the_audit_catches_a_leak(played: list) -> None:
    """The referee's report names every unit: audited as a player's, it leaks."""
    for state, paths in played:
        for player in RULESET.players(state):
            if leaks(pdf_text(paths["referee"]), state, player):
                return
    pytest.fail("the referee's report never named a unit hidden from a side")


@pytest.mark.slow
def test_the_game_had_combat_in_the_reports(played: list) -> None:
    fought = [(s, p) for s, p in played if any(e.kind == "attack" for e in s.events)]
    assert fought, "no combat in the audited exchanges"
    state, paths = fought[0]
    text = pdf_text(paths[state.sides[0].player])
    assert "Combat" in text and "CRT" in text


@pytest.mark.slow
def test_every_report_says_the_turns_event_in_words(played: list) -> None:
    """Each cover names the game turn's random event (a template once printed a macro's
    name in its place) and the Political Index."""
    for state, paths in played:
        for reader, path in paths.items():
            text = pdf_text(path)
            assert f"andom event {state.event or 'none'}" in text, reader
            assert "Macro" not in text and "Undefined" not in text, reader
