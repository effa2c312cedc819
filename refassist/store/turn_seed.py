"""Which seed a step's dice come from, and the commitment to it published before the deadline.

Its own module because ``status`` (in the inbox) shows the commitment and ``resolve`` (in
`refassist.turns`) rolls from the seed: both need it, and neither may import the other's
module for it.  See docs/dice.md for the scheme.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from refassist.config import GameConfig
from refassist.dice import SEED_SCHEME, seed_commitment, turn_seed
from refassist.rulesets.base import Step
from refassist.store.game import Game


def game_turn_seed(config: GameConfig, turn: int, scheme: str = SEED_SCHEME) -> int:
    """The seed of a turn of a game (keyed with the game's secret; see `dice.turn_seed`)."""
    key = config.secret if scheme == SEED_SCHEME else None
    return turn_seed(config.seed, turn, key)


def turn_of(game: Game, step: Step) -> int:
    """The turn number a step's dice are derived from (a game's year or turn number)."""
    if step.dice_turn is not None:
        return step.dice_turn
    return int(step.key) if step.key.isdigit() else game.step_index(step.key)


@dataclass(frozen=True)
class Commitment:
    """The commitment to the dice of the step a game waits for, published before the deadline."""

    step: str
    turn: int
    sha256: str


def commitment(game: Game, state: Any) -> Commitment:
    """SHA-256 of the seed the current step's dice will come from (docs/dice.md)."""
    step = game.step(state)
    turn = turn_of(game, step)
    return Commitment(step.key, turn, seed_commitment(game_turn_seed(game.config, turn)))
