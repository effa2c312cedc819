"""Homeworlds assigned on crowded maps: many players, or a large least distance.

The assignment spreads players out (a die roll among the best-spread candidates); where that
runs out of room it packs them as tightly as the rule allows, and it refuses only when even
packing cannot seat everyone, saying how many the map can seat.  The rule itself is never bent:
every homeworld is a class A system at least ``homeworld_min_distance`` from every other.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from refassist.dice import Dice
from refassist.errors import SetupError
from refassist.geometry.hexmap import distance
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.fifth_millennium.setup import assign_homeworlds
from refassist.rulesets.fifth_millennium.state import State
from tests.conftest import shared_sector

FM = find_ruleset("fifth-millennium")


def _new_game(sector: Path, count: int, least: int, seed: int = 1) -> State:
    rules = FM.default_house_rules()
    rules["homeworld_min_distance"] = least
    setup = NewGame(
        game_name="Crowded",
        game_id="crowded",
        players=tuple(PlayerSetup(f"P{i:02d}", f"p{i:02d}@example.com") for i in range(count)),
        house_rules=rules,
        map_file=sector,
        assign_homeworlds=True,
    )
    return FM.new_game(setup, Dice.for_turn(seed, 0))


def _check_seats(state: State, least: int) -> None:
    homes = [p.homeworld for p in state.players]
    assert len(set(homes)) == len(homes)
    for hex_ in homes:
        system = state.system(hex_)
        assert system is not None and system.resource_class == "A" and system.owner
    for a, b in itertools.combinations(homes, 2):
        assert distance(a, b) >= least, (a, b)


def test_sixty_four_players_are_seated_three_hexes_apart() -> None:
    state = _new_game(shared_sector("solomani-rim.tab"), 64, 3)
    assert len(state.players) == 64
    _check_seats(state, 3)


def test_packing_seats_the_players_spreading_could_not() -> None:
    """At the default distance of 6 spreading seats about 25 of the Solomani Rim's class A
    worlds; packing finds 35."""
    sector = shared_sector("solomani-rim.tab")
    state = _new_game(sector, 35, 6)
    _check_seats(state, 6)
    with pytest.raises(SetupError) as refused:
        _new_game(sector, 40, 6)
    message = str(refused.value)
    assert "only 35 of the 40 players" in message
    assert "homeworld_min_distance" in message and "players.csv" in message


def test_only_the_rolls_of_the_assignment_made_are_logged() -> None:
    """Spreading is tried on a copy of the dice first, so a failed try leaves no rolls."""
    state = _new_game(shared_sector("solomani-rim.tab"), 2, 6)
    free = State("g", "G", 5001, systems=state.systems, players=state.players)
    for system in free.systems:
        system.owner = ""
    for spread_out in (True, False):
        dice = Dice.for_turn(9, 0)
        wanting = [f"P{i:02d}" for i in range(10 if spread_out else 30)]
        picks = assign_homeworlds(free, {}, wanting, 6, dice)
        assert len(picks) == len(wanting)
        assert [r.purpose for r in dice.log] == [f"homeworld for {p}" for p in wanting]
