"""The first impulse's business with fixed dice: reinforcements arriving, political points
spent on replacements and air defence, and information warfare."""

from __future__ import annotations

import copy
from fractions import Fraction

from refassist.dice import Dice
from refassist.rulesets.millennium_wars.orders import InformationAttack, Purchase
from refassist.rulesets.millennium_wars.resolve import board_of
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.supply import (
    buy,
    information_warfare,
    place_reinforcements,
)

from .test_resolve import start


def test_reinforcements_arrive_on_their_turn_where_they_can() -> None:
    state = start()
    board = board_of(state, {})
    sarkand = state.second
    assert place_reinforcements(state, board, sarkand) == []  # S-6 is due on turn 2
    state.point = Point(2, 2, 1)
    assert place_reinforcements(state, board, sarkand) == ["S-6 arrives at 1205"]
    assert state.unit("S-6").hex == "1205"
    assert place_reinforcements(state, board, sarkand) == []  # once
    # Turn 3: N-5AB's hex 0105 is held by a Sarkand unit: the nearest free hex of Northland.
    state.point = Point(3)
    state.unit("S-4").hex = "0105"
    lines = place_reinforcements(state, board, state.first)
    assert lines == ["N-5AB arrives at 0104 (0105 is not free)"]


def test_replacements_and_air_defence_cost_political_points() -> None:
    state = start()
    board = board_of(state, {})
    north = state.first
    north.political_points = Fraction(9)
    lost = state.unit("N-2MI")
    state.units.remove(lost)
    state.lost.append(lost)
    lines = buy(
        state,
        board,
        north,
        [
            Purchase("replacement", "n-2mi", "0202"),  # NATO mechanized division: 8
            Purchase("air defence"),  # NATO: 2, only 1 left
            Purchase("replacement", "N-1AR", "0202"),  # not eliminated
        ],
    )
    assert lines == [
        "Northland buys N-2MI as a replacement for 8 political points",
        "an Air Defense level costs 2 political points; Northland has 1",
        "no replacement for N-1AR: it is not one of Northland's eliminated units",
    ]
    assert state.unit("N-2MI").hex == "0202" and north.political_points == 1
    # A rally this turn (First Player, Index 67-100): 2 - 1 = 1.
    state.event = "first rally"
    assert buy(state, board, north, [Purchase("air defence")]) == [
        "Northland buys an Air Defense level for 1 political points"
    ]
    assert north.air_defence == 2


def test_information_warfare() -> None:
    state = start()
    board = board_of(state, {})
    north = state.first
    # N-CY (attack 2) against S-CY (defence 1): +1.  1D6 4 on the +1 column: IS1; the
    # player takes the Index: 1D6 5 x 1 toward Northland.
    lines = information_warfare(
        state, board, north, [InformationAttack(["N-CY"])], Dice.scripted([4, 5])
    )
    assert lines == [
        "information warfare, differential +1, 1D6 4: IS1; the Index moves 5 x 1 toward Northland"
    ]
    assert state.political_index == 55
    # 1D6 2: CM, the attacking cybercadre is disrupted.
    state = start()
    board = board_of(state, {})
    lines = information_warfare(
        state, board, state.first, [InformationAttack(["N-CY"])], Dice.scripted([2])
    )
    assert lines[0].endswith("CM; N-CY disrupted") and state.unit("N-CY").disrupted
    # 1D6 6 at +1: IS1; one of the named enemy units is disrupted.  At +2 (N-CY's attack 3):
    # IS2, two.
    state = start()
    board = board_of(state, {})
    attack = InformationAttack(["N-CY"], "disrupt", ["S-1", "S-2", "S-3"])
    lines = information_warfare(state, board, state.first, [attack], Dice.scripted([6]))
    assert lines[0].endswith("IS1; disrupted: S-1")
    state = start()
    board = board_of(state, {})
    state.unit("N-CY").attack = 3
    lines = information_warfare(state, board, state.first, [attack], Dice.scripted([6]))
    assert lines[0] == "information warfare, differential +2, 1D6 6: IS2; disrupted: S-1, S-2"
    # Only the scenario's number of attacks; a unit that is not a cybercadre cannot attack.
    state = start()
    board = board_of(state, {})
    lines = information_warfare(
        state,
        board,
        state.first,
        [InformationAttack(["N-1AR"]), InformationAttack(["N-CY"])],
        Dice.scripted([]),
    )
    assert lines[0].startswith("an information warfare attack needs combat-effective cybercadres")
    assert lines[1].startswith("only 1 information warfare attack(s) a player turn")


def test_bought_reinforcements_wait_to_be_paid_for() -> None:
    from refassist.rulesets.millennium_wars.supply import (
        available_reinforcements,
        place_reinforcements,
    )

    state = start()
    state.point = Point(2, 2, 1)  # Sarkand's turn 2: S-6 (armor division, turn 2) is due
    board = board_of(state, {})
    sark = state.second
    # Free (the default): it arrives at its scheduled hex.
    free = copy.deepcopy(state)
    assert place_reinforcements(free, board_of(free, {}), free.second) == ["S-6 arrives at 1205"]
    # Bought: it waits, and the side is told.
    assert place_reinforcements(state, board, sark, bought=True) == [
        "reinforcements available to buy: S-6"
    ]
    assert state.unit("S-6") is None
    # Non-NATO mechanized division: 3 as a reinforcement.  With 2 points it stays available.
    sark.political_points = Fraction(2)
    buy_s6 = [Purchase("reinforcement", "S-6")]
    assert buy(state, board, sark, buy_s6, bought_reinforcements=True) == [
        "S-6 as a reinforcement costs 3 political points; Sarkand has 2"
    ]
    assert [u.id for u in available_reinforcements(state, "Sarkand")] == ["S-6"]
    # Second Player antiwar protests this turn: 3 + 1 = 4; with 5 points it arrives.
    state.event = "second protests"
    sark.political_points = Fraction(5)
    assert buy(state, board, sark, buy_s6, bought_reinforcements=True) == [
        "Sarkand buys S-6 as a reinforcement at 1205 for 4 political points"
    ]
    assert state.unit("S-6").hex == "1205" and sark.political_points == 1
    assert available_reinforcements(state, "Sarkand") == []
    # Under the default a reinforcement is not bought, and an unknown one never.
    assert buy(state, board, sark, [Purchase("reinforcement", "S-6")]) == [
        "no purchase of S-6: reinforcements arrive free on their turn in this game (the house "
        "rule reinforcements is 'free')"
    ]
    assert buy(
        state, board, sark, [Purchase("reinforcement", "S-99")], bought_reinforcements=True
    ) == ["no reinforcement S-99: it is not one of Sarkand's reinforcements available this turn"]
