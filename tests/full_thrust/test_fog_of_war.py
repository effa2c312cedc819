"""The campaign's fog-of-war audit: over a computer game, no commander's PDF names another
commander's ship that the commander could not know of (not at a place where it has a ship or
a planet, not in a battle or event addressed to it), nor another commander's stocks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refassist.demo import computer_sheets, create_demo_game
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.rulesets.full_thrust.state import State
from refassist.rulesets.full_thrust.visibility import player_view
from refassist.store.game import Game
from refassist.turns import resolve_game
from refassist.workbook.master import read_master
from tests.test_fog_of_war import pdf_pages

RULESET = find_ruleset("full-thrust-campaign")
STEPS = 7
SHIP_ID = re.compile(r"\b([A-Z]{3}\d?)-(\d+)\b")


def pdf_text(path: Path) -> str:
    return "\n".join(pdf_pages(path))


def known_ships(state: State, player: str) -> set[str]:
    """The other commanders' ships ``player`` may be told of after this step."""
    view = player_view(state, player)
    known = {s.id for s in view.seen}
    for e in view.events:
        known.update(m.group(0) for m in SHIP_ID.finditer(e.text + repr(dict(e.data))))
    for b in view.battles:
        known.update(s.ship for s in b.ships)
    return known


def audit(text: str, state: State, player: str) -> list[str]:
    own = state.commander(player)
    assert own is not None
    allowed = known_ships(state, player)
    rivals = {c.code for c in state.commanders if c.name != player}
    found = []
    for m in SHIP_ID.finditer(text):
        if m.group(1) in rivals and m.group(0) not in allowed:
            found.append(f"names {m.group(0)}, which {player} cannot know of")
    for (place, owner), points in state.stocks.items():
        if owner != player and f"{place}: {points}" in text:
            found.append(f"shows {owner}'s stocks at {place}")
    return sorted(set(found))


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Game:
    game = create_demo_game(tmp_path_factory.mktemp("ftfog") / "demo", 4, 5, ruleset=RULESET)
    for _ in range(STEPS):
        state = game.load_state()
        intake(game, computer_sheets(game, state, 5))
        outcome = resolve_game(game, force=True)
        write_reports(
            game, state=outcome.state, players=RULESET.players(outcome.state), referee=True, jobs=1
        )
    return game


@pytest.mark.slow
def test_no_commander_reads_of_ships_it_cannot_know(campaign: Game) -> None:
    steps = sorted(
        (p.name for p in (campaign.path / "outbox").iterdir() if (p / "Arcturus.pdf").exists()),
    )
    assert len(steps) == STEPS
    problems: list[str] = []
    foreign = 0
    for step in steps:
        after = _state_after(campaign, step)
        for player in RULESET.players(after):
            text = pdf_text(campaign.outbox(step) / f"{player}.pdf")
            problems += [f"{step} {player}: {p}" for p in audit(text, after, player)]
            rivals = {c.code for c in after.commanders if c.name != player}
            foreign += sum(1 for m in SHIP_ID.finditer(text) if m.group(1) in rivals)
    assert problems == []
    # The audit had something to audit: commanders did read of rivals' ships (in battles).
    assert foreign > 20


@pytest.mark.slow
def test_the_audit_catches_a_leak(campaign: Game) -> None:
    """The referee's report, read as a commander's, names ships that commander cannot know."""
    step = sorted(p.name for p in (campaign.path / "outbox").iterdir() if p.is_dir())[-1]
    after = _state_after(campaign, step)
    text = pdf_text(campaign.outbox(step) / "referee.pdf")
    leaks = audit(text, after, "Arcturus")
    assert len(leaks) > 5


def _state_after(game: Game, step: str) -> State:
    """The state the reports in ``outbox/<step>/`` were written from: the one that waits for
    ``step`` (archived when ``step`` was resolved, or the current master)."""
    archived = game.archive(step) / "master.xlsx"
    return read_master(archived if archived.exists() else game.master_path, game.ruleset)
