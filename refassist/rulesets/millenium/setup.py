"""A new game of Millenium: the systems dealt their cards, the Empire's starting hold, the
fleets' counters.

The set-up sheets (the Empire's cards, imperial planet and fleets; then the
Extraterrestrial's programme, fleets and entry edges) fill in what `new_state` leaves open;
`deal` is the one place a card becomes a system's planets, whoever dealt it.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...dice import Dice
from .geometry import Card, StrategicMap
from .state import ALIEN, EMPIRE, Fleet, Planet, State, SystemState


def deal(state: State, cards: Mapping[str, Card]) -> None:
    """Give each system its card: its loyalty and planets.  The Empire holds every planet of
    loyalty 1 or more, conquered and colonised by the rules (rule VII B), with one base per
    loyalty point; loyalty-0 planets belong to no one."""
    state.systems = {}
    for letter in state.map.systems:
        card = cards[letter]
        system = SystemState(letter, card.loyalty)
        for n in range(1, card.planets + 1):
            held = card.loyalty >= 1
            system.planets.append(
                Planet(
                    letter,
                    n,
                    holder=EMPIRE if held else "",
                    colonised=EMPIRE if held else "",
                    loyalty=card.loyalty,
                    bases=card.loyalty,
                    automatic=held,
                )
            )
        state.systems[letter] = system


def random_deal(game_map: StrategicMap, dice: Dice) -> dict[str, Card]:
    """The cards dealt at random (house rule ``cards_dealt = "random"``), each draw a logged
    die so the deal replays with the turn."""
    left = list(game_map.cards)
    dealt: dict[str, Card] = {}
    for letter in game_map.systems:
        dealt[letter] = left.pop(dice.choice_index(len(left), f"card for system {letter}"))
    return dealt


def new_state(
    game_id: str,
    game_name: str,
    game_map: StrategicMap,
    players: Mapping[str, str],
    fleet_letters: Mapping[str, int],
) -> State:
    """The game before the set-up sheets: no card dealt, every fleet counter in reserve."""
    state = State(game_id, game_name, game_map, dict(players))
    state.fleets = [Fleet(side, letter) for side in (ALIEN, EMPIRE) for letter in fleet_letters]
    state.points = {ALIEN: {}, EMPIRE: {}}
    return state
