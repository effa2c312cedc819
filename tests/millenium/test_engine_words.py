"""What the engine itself tells a Millenium player, in the player's language: an order the
referee's edit of the master made impossible after the intake is cancelled at resolve time,
and the player reads why in French (the game's default) or in English (a player's choice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from refassist.config import save_config
from refassist.demo import computer_sheets, create_demo_game
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.store.game import Game
from refassist.turns import resolve_game

from .test_fog_of_war import pdf_text

RULESET = find_ruleset("millenium")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "a été annulé à la résolution du tour"),
        ("en", "was cancelled when the turn was resolved"),
    ],
)
def test_an_order_cancelled_at_resolve_is_told_in_the_players_language(
    tmp_path: Path, language: str, said: str
) -> None:
    game = create_demo_game(tmp_path / "demo", 2, 5, ruleset=RULESET)
    for player in game.config.players:
        player.language = language
    save_config(game.path / "game.toml", game.config, {})
    game = Game.open(game.path)
    for _ in range(2):  # both set-ups
        intake(game, computer_sheets(game, game.load_state(), 5))
        resolve_game(game, force=True)
    state = game.load_state()
    (xenarch,) = game.step(state).expects
    assert intake(game, computer_sheets(game, state, 5)).count("accepted") == 1
    # The referee's edit after the intake: every fleet waiting outside is destroyed, so the
    # Extraterrestrial's entries onto the map can no longer be carried out.
    for fleet in state.fleets:
        if fleet.side == "extraterrestre":
            fleet.where, fleet.position, fleet.ships = "destroyed", None, []
    with game.lock():
        game.save_state(state)
    outcome = resolve_game(game, force=True)
    cancelled = [e for e in outcome.state.events if e.kind == "order_cancelled"]
    assert cancelled and all(e.visible_to == (xenarch,) for e in cancelled)
    assert all(said in e.text for e in cancelled), cancelled[0].text
    run = write_reports(game, state=outcome.state, referee=False, jobs=1)
    report = next(r.path for r in run.reports if r.reader == xenarch)
    assert said in " ".join(pdf_text(report).split())
