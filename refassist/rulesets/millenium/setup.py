"""A new game of Millenium: the systems dealt their cards, the Empire's starting hold, the
fleets' counters.

The set-up sheets (the Empire's cards, imperial planet and fleets, and the Extraterrestrial's
programme and fleets; then the Extraterrestrial's entry edges) fill in what `new_state` leaves
open; `deal` is the one place a card becomes a system's planets, whoever dealt it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...dice import Dice
from ...errors import SetupError
from ..base import NewGame, PlayerSetup
from .charts import tables_for
from .geometry import Card, StrategicMap, load_map
from .state import ALIEN, EMPIRE, Fleet, Planet, State, SystemState

#: The six fleets a side gets when its set-up sheet composes none (19 ships, TAB 1's starting
#: numbers): the computer players' choice too.
DEFAULT_FLEETS: dict[str, dict[str, int]] = {
    "K": {"vaisseau": 1, "fregate": 2, "corvette": 2, "colonisation": 1},
    "ω": {"vaisseau": 1, "fregate": 2, "corvette": 1, "porte_intercepteur": 1},
    "δ": {"fregate": 1, "corvette": 1, "colonisation": 1},
    "ε": {"fregate": 1, "porte_intercepteur": 1},
    "κ": {"corvette": 1, "colonisation": 1},
    "A": {"corvette": 1},
}
#: Fewest systems in a conquest programme (rule III).
PROGRAMME_LEAST = 18

#: What the players file's start-position column may say for a side.
SIDE_WORDS = {
    "empire": EMPIRE,
    "empereur": EMPIRE,
    "imperial": EMPIRE,
    "extraterrestre": ALIEN,
    "extraterrestrial": ALIEN,
    "alien": ALIEN,
    "et": ALIEN,
}


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


def pick(dice: Dice, count: int, purpose: str) -> int:
    """A uniform pick among ``count`` choices (0-based), a logged die when there is a choice:
    one choice needs no die (a die of one side is no die, and the master's Dice sheet refuses
    it, so the next command could not read the game)."""
    return dice.choice_index(count, purpose) if count > 1 else 0


def random_deal(game_map: StrategicMap, dice: Dice) -> dict[str, Card]:
    """The cards dealt at random (house rule ``cards_dealt = "random"``), each draw a logged
    die so the deal replays with the turn; the last card goes to the last system without a
    die (a die of one side is no die, and the master's dice table refuses it)."""
    left = list(game_map.cards)
    dealt: dict[str, Card] = {}
    for letter in game_map.systems:
        dealt[letter] = left.pop(pick(dice, len(left), f"card for system {letter}"))
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


def sides_of(players: Sequence[PlayerSetup]) -> dict[str, str]:
    """Side -> player: the players file's start column names a side (``empire``,
    ``extraterrestre``), else the first player is the Empire (which sets up first) and the
    second the Extraterrestrial."""
    if len(players) != 2:
        raise SetupError(f"Millenium is played by two players, not {len(players)}")
    named: dict[str, str] = {}
    for p in players:
        if p.homeworld:
            side = SIDE_WORDS.get(p.homeworld.strip().lower())
            if side is None:
                raise SetupError(
                    f"{p.name}: {p.homeworld!r} is not a side; write empire or extraterrestre"
                )
            if side in named:
                raise SetupError(f"both players want the side {side}")
            named[side] = p.name
    for p in players:
        if p.name not in named.values():
            side = EMPIRE if EMPIRE not in named else ALIEN
            named[side] = p.name
    return {ALIEN: named[ALIEN], EMPIRE: named[EMPIRE]}


def new_game(setup: NewGame, dice: Dice, rules: Mapping[str, Any]) -> State:
    """The engine's entry (`Ruleset.new_game`): the shipped map or the referee's
    (``--map FILE``), the tables checked, both sides' set-up sheets awaited."""
    if setup.scenario_file is not None:
        raise SetupError("Millenium has no scenario file: the set-up sheets compose the forces")
    game_map = load_map(setup.map_file)
    tables = tables_for(rules)
    return new_state(
        setup.game_id, setup.game_name, game_map, sides_of(setup.players), tables.fleets
    )
