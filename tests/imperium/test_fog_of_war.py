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

import dataclasses
import re

import pytest

from refassist.demo import computer_sheets, create_demo_game
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets.imperium_3m.state import State
from refassist.rulesets.imperium_3m.units import IMPERIAL, TERRAN
from refassist.rulesets.imperium_3m.visibility import (
    EVENT_AUDIENCE,
    audience_problem,
    in_sight,
    player_view,
)
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


# -- who reads which event: every kind, and the two leaks players found -------------------------


def emitted_kinds() -> set[str]:
    """Every event kind the ruleset's code emits: the third argument of each ``emit`` call, the
    fourth of each ``tell`` (an event for one side's eyes, whose first argument is the side)."""
    import ast
    from pathlib import Path

    import refassist.rulesets.imperium_3m as package

    kinds: set[str] = set()
    for source in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 3:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name.endswith("emit"):
                kind = node.args[2]
            elif name == "tell" and len(node.args) >= 4:
                kind = node.args[3]
            else:
                continue
            if isinstance(kind, ast.Constant):
                kinds.add(kind.value)
    return kinds


def test_every_event_kind_has_a_decided_audience() -> None:
    kinds = emitted_kinds()
    assert {"battle", "maintenance", "movement", "skipped", "reinforcement"} <= kinds
    assert sorted(kinds - set(EVENT_AUDIENCE)) == []


def test_every_event_of_the_war_goes_only_to_its_audience(
    war: list[tuple[State, dict[str, str]]],
) -> None:
    problems = [audience_problem(e) for state, _ in war for e in state.events]
    assert [p for p in problems if p] == []
    kinds = {e.kind for state, _ in war for e in state.events}
    assert {"battle", "construction", "reinforcement", "maintenance"} <= kinds


def test_the_audience_audit_catches_an_own_event_told_to_the_enemy() -> None:
    from refassist.rulesets.base import Event

    told = Event(1, "close-out", "SOL", "maintenance", "Imperial JT1 unmaintained: reduced")
    leaked = dataclasses.replace(told, players=("Imp",), visible_to=("Imp", "Ter"))
    assert "told to ['Ter']" in audience_problem(leaked)
    assert audience_problem(dataclasses.replace(leaked, visible_to=("Imp",))) == ""
    moved = dataclasses.replace(
        told, kind="movement", players=("Imp",), visible_to=("Ter",), location="TAU"
    )
    assert "does not see it" in audience_problem(moved, {"Ter": {"SOL"}})
    assert audience_problem(moved, {"Ter": {"TAU"}}) == ""


def test_the_audience_audit_reads_everyone_and_missing_sight_strictly() -> None:
    """An own event told to everyone is named as such; a sighted event is held to the sight
    map when one is given (a player missing from it sees nothing) and let be without one."""
    from refassist.rulesets.base import Event

    upkeep = Event(1, "close-out", "SOL", "maintenance", "Imperial JT1 unmaintained", ("Imp",))
    everyone = dataclasses.replace(upkeep, visible_to=("*",))
    assert audience_problem(everyone) == (
        "maintenance event told to everyone: Imperial JT1 unmaintained"
    )
    moved = Event(1, "action 1", "TAU", "movement", "I1 arrives", ("Imp",), ("Imp", "Ter"))
    assert audience_problem(moved) == ""
    assert audience_problem(moved, {}) == (
        "movement event told to Ter, who does not see it: I1 arrives"
    )


def test_an_unmaintained_enemy_unit_is_the_owners_business_only() -> None:
    """The Terrans share BAR with an Imperial fleet they see; its transport's failed upkeep
    roll is told to the Empire alone (fleet contents stay hidden)."""
    from tests.imperium.test_closeout import bare, fleet, run

    state = bare(resources=0)
    state.sides[IMPERIAL].resources = 0
    fleet(state, "T1", TERRAN, "BAR", "DD")
    (jt,) = fleet(state, "I1", IMPERIAL, "BAR", "AT")
    ctx = run(state, [1])  # the Imperial AT cannot be paid for: 1 on the die, damaged
    assert jt.damaged
    upkeep = [e for e in ctx.events if e.kind == "maintenance" and jt.id in e.text]
    assert upkeep and all(e.visible_to == ("Imp",) for e in upkeep)
    assert [audience_problem(e) for e in ctx.events if audience_problem(e)] == []
    terran = player_view(state, "Ter", {})
    assert "I1" in {f.name for f in terran.enemy_fleets}
    assert not any(jt.id in e.text for e in terran.events)


def test_a_truce_never_names_an_enemy_fleet_out_of_sight() -> None:
    """Peace Talks stop an Imperial fleet at the edge of TAU, where a Terran fleet stands
    that the Empire does not see: the Empire learns "enemy units", not the fleet."""
    from refassist.rulesets.imperium_3m.segments import action_segment
    from tests.imperium.test_segments import add_fleet, context, line, make_state, move

    state = make_state()
    state.peace_talks = True
    add_fleet(state, "I1", IMPERIAL, "S0", ["DD"])
    add_fleet(state, "T7", TERRAN, "S1", ["CA", "TR"])
    sight = {"Ivan": in_sight(state, IMPERIAL), "Tess": in_sight(state, TERRAN)}
    ctx = context(state, [1, 6], [], [line(1, "S0", move("I1", "S1"))])
    action_segment(ctx, 1)
    told = [e for e in ctx.events if e.visible(state.player_of(IMPERIAL))]
    text = " ".join(e.text for e in told)
    assert "S1 holds enemy units" in text
    assert "T7" not in text and "fleet is at" not in text and "CA" not in text
    assert [audience_problem(e, sight) for e in ctx.events if audience_problem(e, sight)] == []
