"""A new game: the scenario read (the referee's file or the training scenario), the players
given their sides, and turn 1's random event and the First Player's air superiority rolled, so
that the first sheets can say them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...dice import Dice
from ...errors import SetupError
from ..base import NewGame, PlayerSetup
from .resolve import open_game
from .scenario import load_scenario
from .state import State, new_state


def start_game(
    players: Sequence[PlayerSetup],
    game_name: str,
    game_id: str,
    dice: Dice,
    scenario_file: Path | None = None,
    rules: Mapping[str, Any] | None = None,
) -> State:
    state = new_state(load_scenario(scenario_file), players, game_name, game_id)
    state.events = open_game(state, dice, rules)
    state.dice = list(dice.log)
    return state


def new_game(setup: NewGame, dice: Dice, rules: Mapping[str, Any]) -> State:
    """The engine's entry (`Ruleset.new_game`): the players file and the referee's scenario
    file, or the training scenario.  The map is part of the scenario: a map file is refused
    rather than ignored."""
    if setup.map_file is not None:
        raise SetupError(
            f"Millennium Wars reads its map from the scenario file; give {setup.map_file.name} "
            "as --scenario (the format is in docs/rules/millennium-wars.md)"
        )
    return start_game(
        setup.players, setup.game_name, setup.game_id, dice, setup.scenario_file, rules
    )


__all__ = ["new_game", "start_game"]
