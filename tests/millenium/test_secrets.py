"""Secrets kept: a whole game between the computer players, and after every step what each
side may read (its view and the events told to it) is checked against what it may know."""

from __future__ import annotations

import re

import pytest

from refassist.dice import Dice
from refassist.rulesets.millenium.ai import computer_orders
from refassist.rulesets.millenium.resolve import resolve_turn
from refassist.rulesets.millenium.setup import new_state
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, State, mover
from refassist.rulesets.millenium.visibility import player_view

from .situations import MAP, TABLES

PLAYERS = {ALIEN: "Vera", EMPIRE: "Ivo"}


def play(seed: int) -> list[State]:
    """Every state of a game, set-up included, between the computer players."""
    state = new_state("g", "Orion", MAP, PLAYERS, TABLES.fleets)
    states = []
    for step in range(30):
        if state.finished:
            break
        side = (EMPIRE if not state.systems else ALIEN) if state.turn == 0 else mover(state.turn)
        player = PLAYERS[side]
        orders = computer_orders(state, player, seed)
        state = resolve_turn(state, {player: orders}, Dice.for_turn(seed, step), {}).state
        states.append(state)
    return states


@pytest.mark.parametrize("seed", [1, 2])
def test_no_side_reads_what_it_may_not_know(seed: int) -> None:
    states = play(seed)
    assert states[-1].finished
    for state in states:
        alien = player_view(state, "Vera")
        empire = player_view(state, "Ivo")
        # The Extraterrestrial: no unrevealed card, no imperial planet, no Empire fleet's ships.
        for letter, seen in alien.systems.items():
            shown = letter in state.revealed or any(
                p.holder == ALIEN for p in state.systems[letter].planets
            )
            assert (seen.loyalty is None) == (not shown)
        assert alien.imperial == (
            "" if not (state.imperial_revealed or state.finished) else state.imperial
        )
        assert all(f.side == ALIEN for f in alien.fleets)
        assert not hasattr(alien.others[0] if alien.others else None, "ships")
        # The Empire: the programme only once the game is over; the other side's points never.
        assert empire.programme == (state.programme if state.finished else [])
        assert set(empire.points) <= set(state.points.get(EMPIRE, {}))
        # What each is told.
        hidden_from_alien = [
            letter
            for letter in state.systems
            if letter not in state.revealed
            and not any(p.holder == ALIEN for p in state.systems[letter].planets)
        ]
        for event in alien.events:
            if not (state.imperial_revealed or state.finished):
                assert not re.search(rf"\b{state.imperial}\b", event.text), event.text
            for letter in hidden_from_alien:
                assert not re.search(
                    rf"\bsystem {letter}\b.*loyalty|\b{letter}\d\b.*loyalty", event.text
                ), event.text
        for event in state.events:
            if event.kind in ("production", "purchase", "repaired", "ships_lost", "joined"):
                assert len(event.visible_to) == 1, event  # a side's own business
            if event.kind in ("imperial_random", "cards_random"):
                assert event.visible_to == ("Ivo",), event
        for event in empire.events:
            assert event.kind not in ("production", "purchase") or event.visible_to == ("Ivo",)
            if not state.finished:
                assert "programme" not in event.text
