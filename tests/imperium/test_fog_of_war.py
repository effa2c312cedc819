"""The fog-of-war audit for Imperium 3rd Millennium: over a computer war, no side's PDF tells
anything the rules hide from it.

Each turn goes through the demo's loop (sheets written, filled in by the computer players,
taken in by the intake, resolved, reports written); then, for each side, its report's text is
checked against what the rules allow (`visibility.player_view` and the events' ``visible_to``),
from the state the report was written for:

* no sentence of an event the side may not read;
* no enemy fleet the side cannot see and no event it may read names;
* the enemy's turn record track (its units under construction) never appears;
* the enemy's stockpile is never stated (the cover states only the reader's own).
"""

from __future__ import annotations

import re

import pytest

from refassist.demo import computer_sheets, create_demo_game
from refassist.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets.imperium_3m.state import State
from refassist.rulesets.imperium_3m.visibility import player_view
from refassist.turns import resolve_game
from tests.test_fog_of_war import pdf_pages

TURNS = 8
SEED = 2


def leaks(state: State, player: str, text: str) -> list[str]:
    """What ``text`` (a player's report) tells that the rules hide from ``player``."""
    view = player_view(state, player, {})
    found: list[str] = []
    visible = [e for e in state.events if e.visible(player)]
    told = " ".join(e.text + " " + repr(dict(e.data)) for e in visible)
    told_texts = {e.text for e in visible}
    for event in state.events:
        hidden = not event.visible(player) and event.text not in told_texts
        if hidden and len(event.text) > 30 and event.text in text:
            found.append(f"hidden event: {event.text}")
    words = set(re.findall(r"[A-Za-z0-9_-]+", text))
    seen = {f.name for f in view.enemy_fleets}
    for fleet in state.fleets:
        if fleet.side == view.side or fleet.name in seen:
            continue
        if fleet.name in words and not re.search(rf"\b{re.escape(fleet.name)}\b", told):
            found.append(f"enemy fleet {fleet.name} at {fleet.system}")
    for q in state.queue:
        if q.side != view.side and q.source and q.source in text and len(q.source) > 8:
            found.append(f"enemy track entry {q.source}")
    enemy = state.sides[view.enemy_side]
    if re.search(rf"\b{enemy.resources} resources\b", text) and (
        enemy.resources != view.own.resources
    ):
        found.append(f"enemy stockpile {enemy.resources}")
    return found


@pytest.fixture(scope="module")
def war(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[State, dict[str, str]]]:
    """Every turn's state and each side's report text."""
    folder = tmp_path_factory.mktemp("fog") / "war"
    game = create_demo_game(folder, 2, SEED, ruleset="imperium-3m")
    turns = []
    for _ in range(TURNS):
        state = game.load_state()
        intake(game, computer_sheets(game, state, SEED))
        outcome = resolve_game(game, force=True)
        run = write_reports(game, state=outcome.state)
        texts = {
            r.reader: "\n".join(pdf_pages(r.path)) for r in run.reports if r.reader != "referee"
        }
        turns.append((outcome.state, texts))
        if outcome.finished:
            break
    return turns


def test_no_side_is_told_what_the_rules_hide(war: list[tuple[State, dict[str, str]]]) -> None:
    problems = [
        f"turn {state.turn - 1}, {player}: {leak}"
        for state, texts in war
        for player, text in texts.items()
        for leak in leaks(state, player, text)
    ]
    assert problems == []
    # The audit had something to look at: the sides met and fought.
    assert any(e.kind == "battle" for state, _ in war for e in state.events)


def test_the_audit_catches_a_leak(war: list[tuple[State, dict[str, str]]]) -> None:
    state, texts = war[-1]
    player = state.sides["Terran"].player
    hidden = [e for e in state.events if not e.visible(player) and len(e.text) > 30]
    enemy = state.sides["Imperial"]
    text = texts[player] + f"\n{enemy.resources + 1000} resources"
    state.sides["Imperial"].resources += 1000
    if hidden:
        text += "\n" + hidden[0].text
    found = leaks(state, player, text)
    state.sides["Imperial"].resources -= 1000
    assert any("enemy stockpile" in f for f in found)
    assert not hidden or any("hidden event" in f for f in found)
