"""Small Millenium situations built by hand for the rules tests."""

from __future__ import annotations

from refassist.rulesets.millenium.charts import load_tables
from refassist.rulesets.millenium.geometry import Card, load_map
from refassist.rulesets.millenium.setup import deal, new_state
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, Ship, State

MAP = load_map()
TABLES = load_tables()


def dealt(**overrides: tuple[int, int]) -> State:
    """A game whose systems are dealt in map order the shipped cards, with some systems
    given ``(loyalty, planets)`` instead: ``dealt(G=(6, 2))``."""
    state = new_state("g1", "Test", MAP, {ALIEN: "Vera", EMPIRE: "Ivo"}, TABLES.fleets)
    cards = dict(zip(MAP.systems, MAP.cards, strict=True))
    for letter, (loyalty, planets) in overrides.items():
        cards[letter] = Card(loyalty, planets)
    deal(state, cards)
    return state


def ships(*kinds: str) -> list[Ship]:
    return [Ship(k) for k in kinds]


def at(text: str):
    found = MAP.parse_position(text)
    assert found is not None, text
    return found


def playing(turn: int, **overrides: tuple[int, int]) -> State:
    """A dealt game at game turn ``turn`` with every fleet in reserve and empty."""
    state = dealt(**overrides)
    state.turn = turn
    state.imperial = next(
        p.name for s in state.systems.values() if s.loyalty == 6 for p in s.planets
    )
    return state


def place(state: State, side: str, letter: str, where: str, *kinds: str) -> None:
    fleet = state.fleet(side, letter)
    assert fleet is not None
    fleet.ships = ships(*kinds)
    fleet.where, fleet.position = "map", at(where)
