"""A new game of Millenium (rule III, setup.py): the cards dealt to the systems and what each
card makes of its planets, the deal at random die by die, who plays which side, and the game
before the set-up sheets.  The shipped map's 24 systems are A-I, L-Z (no J, no K)."""

from __future__ import annotations

from pathlib import Path

import pytest

from refassist.dice import Dice
from refassist.errors import SetupError
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.millenium.geometry import DEFAULT_MAP, Card
from refassist.rulesets.millenium.rules import complete
from refassist.rulesets.millenium.setup import (
    deal,
    new_game,
    new_state,
    pick,
    random_deal,
    sides_of,
)
from refassist.rulesets.millenium.state import ALIEN, EMPIRE

from .situations import MAP, TABLES, dealt

LETTERS = list(MAP.systems)


def test_a_card_of_loyalty_one_or_more_is_the_empires_with_a_base_a_loyalty_point() -> None:
    """Rule VII B: the Empire holds every planet of loyalty 1 or more, conquered and colonised
    by the rules, ringed by as many bases as its loyalty; loyalty 0 belongs to no one."""
    state = dealt(A=(1, 2), B=(0, 2), C=(6, 1))
    a1, a2 = state.systems["A"].planets
    assert (a1.name, a2.name) == ("A1", "A2")
    for p in (a1, a2):
        assert (p.holder, p.colonised, p.loyalty, p.bases, p.automatic) == (
            EMPIRE,
            EMPIRE,
            1,
            1,
            True,
        )
    b1, b2 = state.systems["B"].planets
    for p in (b1, b2):
        assert (p.holder, p.colonised, p.loyalty, p.bases, p.automatic) == ("", "", 0, 0, False)
    (c1,) = state.systems["C"].planets
    assert (c1.holder, c1.loyalty, c1.bases, c1.automatic) == (EMPIRE, 6, 6, True)
    assert [state.systems[x].loyalty for x in "ABC"] == [1, 0, 6]
    assert list(state.systems) == LETTERS
    assert all(system.letter == x for x, system in state.systems.items())  # reports name them


def test_a_second_deal_replaces_the_first() -> None:
    state = dealt()
    deal(state, {letter: Card(0, 1) for letter in LETTERS})
    assert all(len(s.planets) == 1 and not s.planets[0].holder for s in state.systems.values())


def test_a_pick_among_several_is_a_logged_die_and_a_single_choice_takes_none() -> None:
    dice = Dice.scripted([3])
    assert pick(dice, 1, "only one") == 0 and dice.log == []
    assert pick(dice, 4, "start of fleet K") == 2
    (roll,) = dice.log
    assert (roll.sides, roll.result, roll.purpose) == (4, 3, "start of fleet K")


def test_the_random_deal_draws_each_systems_card_from_those_left() -> None:
    """24 cards: system A draws among 24, B among the 23 left, ... Y among 2, Z takes the
    last without a die.  Die 24 for A takes the last card (loyalty 0, 1 planet); then die 1
    each time takes the first card left."""
    dice = Dice.scripted([24] + [1] * 22)
    cards = random_deal(MAP, dice)
    assert list(cards) == LETTERS
    assert cards["A"] == MAP.cards[23] == Card(0, 1)
    assert [cards[x] for x in LETTERS[1:]] == list(MAP.cards[:23])
    assert [r.sides for r in dice.log] == list(range(24, 1, -1))
    assert dice.log[0].purpose == "card for system A" and dice.log[-1].purpose == (
        "card for system Y"
    )


def test_the_random_deal_with_other_dice_deals_every_card_once() -> None:
    """Die 2 each time: the second card left, so A takes card 2 (loyalty 6, 1 planet), B card
    3 (6, 1), C card 4 (5, 2 planets), ... and Z the first card (6, 2 planets)."""
    cards = random_deal(MAP, Dice.scripted([2] * 23))
    assert [cards["A"], cards["B"], cards["C"]] == [Card(6, 1), Card(6, 1), Card(5, 2)]
    assert cards["Y"] == MAP.cards[23] and cards["Z"] == MAP.cards[0] == Card(6, 2)
    assert sorted(cards.values(), key=repr) == sorted(MAP.cards, key=repr)


def test_a_new_game_awaits_its_set_up_sheets() -> None:
    state = new_state("g7", "Orion", MAP, {ALIEN: "Vera", EMPIRE: "Ivo"}, TABLES.fleets)
    assert (state.game_id, state.game_name, state.turn) == ("g7", "Orion", 0)
    assert state.players == {ALIEN: "Vera", EMPIRE: "Ivo"}
    assert state.systems == {} and state.points == {ALIEN: {}, EMPIRE: {}}
    letters = list(TABLES.fleets)
    assert [(f.side, f.letter) for f in state.fleets] == [(ALIEN, x) for x in letters] + [
        (EMPIRE, x) for x in letters
    ]
    assert all(f.where == "reserve" and not f.ships and f.position is None for f in state.fleets)


def players(*homeworlds: str) -> list[PlayerSetup]:
    names = ("Ivo", "Vera", "Zoe")
    return [PlayerSetup(names[i], f"{names[i].lower()}@x", h) for i, h in enumerate(homeworlds)]


def test_the_first_player_is_the_empire_unless_the_players_file_says() -> None:
    assert sides_of(players("", "")) == {ALIEN: "Vera", EMPIRE: "Ivo"}
    assert sides_of(players("Extraterrestre", "")) == {ALIEN: "Ivo", EMPIRE: "Vera"}
    assert sides_of(players("", " empire ")) == {ALIEN: "Ivo", EMPIRE: "Vera"}
    assert sides_of(players("alien", "imperial")) == {ALIEN: "Ivo", EMPIRE: "Vera"}
    assert sides_of(players("empereur", "et")) == {ALIEN: "Vera", EMPIRE: "Ivo"}
    assert sides_of(players("", "extraterrestrial")) == {ALIEN: "Vera", EMPIRE: "Ivo"}


@pytest.mark.parametrize(
    ("homeworlds", "message"),
    [
        (("",), "Millenium is played by two players, not 1"),
        (("", "", ""), "Millenium is played by two players, not 3"),
        (("", "rebels"), "Vera: 'rebels' is not a side; write empire or extraterrestre"),
        (("empire", "Empereur"), "both players want the side empire"),
        (("et", "alien"), "both players want the side extraterrestre"),
    ],
)
def test_who_plays_which_side_is_refused_in_its_own_words(
    homeworlds: tuple[str, ...], message: str
) -> None:
    with pytest.raises(SetupError) as caught:
        sides_of(players(*homeworlds))
    assert str(caught.value) == message


def test_a_new_game_reads_the_map_asked_for_and_refuses_a_scenario(tmp_path: Path) -> None:
    mine = tmp_path / "orion.toml"
    mine.write_text(DEFAULT_MAP.read_text(encoding="utf-8").replace("Marche", "Route"), "utf-8")
    setup = NewGame("Orion", "g9", tuple(players("extraterrestre", "")), {}, map_file=mine)
    state = new_game(setup, Dice.scripted([]), complete())
    assert state.map.title == "La Route d'Orion" and state.map.source == "orion.toml"
    assert state.players == {ALIEN: "Ivo", EMPIRE: "Vera"}
    assert (state.game_id, state.game_name) == ("g9", "Orion")
    assert len(state.fleets) == 2 * len(TABLES.fleets) and state.systems == {}
    scenario = NewGame("Orion", "g9", tuple(players("", "")), {}, scenario_file=mine)
    with pytest.raises(SetupError) as caught:
        new_game(scenario, Dice.scripted([]), complete())
    assert str(caught.value) == (
        "Millenium has no scenario file: the set-up sheets compose the forces"
    )
