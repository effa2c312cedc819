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
    BOTH,
    OWN,
    REFEREE,
    Told,
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
    # player takes the Index: 1D6 5 x 1 toward Northland.  The differential is the referee's:
    # it is the strength of cybercadres neither side may see of the other.
    told = information_warfare(
        state, board, north, [InformationAttack(["N-CY"])], Dice.scripted([4, 5]), set()
    )
    assert told == [
        Told(
            "Northland's information warfare: N-CY (attack 2) against S-CY (defence 1): "
            "differential +1",
            REFEREE,
        ),
        Told(
            "Northland's information warfare, 1D6 4: IS1; the Index moves 5 x 1 toward Northland",
            BOTH,
        ),
    ]
    assert state.political_index == 55
    # 1D6 2: CM, the attacking cybercadre is disrupted (its id is not told to the enemy).
    state = start()
    board = board_of(state, {})
    told = information_warfare(
        state, board, state.first, [InformationAttack(["N-CY"])], Dice.scripted([2]), set()
    )
    assert told[1] == Told(
        "Northland's information warfare, 1D6 2: CM; the attacking cybercadres are disrupted",
        BOTH,
    )
    assert state.unit("N-CY").disrupted
    # 1D6 6 at +1: IS1; one of the named enemy units is disrupted.  At +2 (N-CY's attack 3):
    # IS2, two.  The rest named are passed over, which Northland alone is told.
    seen = {"S-1", "S-2", "S-3"}
    state = start()
    board = board_of(state, {})
    attack = InformationAttack(["N-CY"], "disrupt", ["S-1", "S-2", "S-3"])
    told = information_warfare(state, board, state.first, [attack], Dice.scripted([6]), seen)
    assert told[1:] == [
        Told("Northland's information warfare, 1D6 6: IS1; disrupted: S-1", BOTH),
        Told("not disrupted: S-2, S-3 (IS1 disrupts 1)", OWN),
    ]
    state = start()
    board = board_of(state, {})
    state.unit("N-CY").attack = 3
    told = information_warfare(state, board, state.first, [attack], Dice.scripted([6]), seen)
    assert told[1].text == "Northland's information warfare, 1D6 6: IS2; disrupted: S-1, S-2"
    # Only the scenario's number of attacks; a unit that is not a cybercadre cannot attack.
    # Both are Northland's own business.
    state = start()
    board = board_of(state, {})
    told = information_warfare(
        state,
        board,
        state.first,
        [InformationAttack(["N-1AR"]), InformationAttack(["N-CY"])],
        Dice.scripted([]),
        set(),
    )
    assert told[0].text.startswith("an information warfare attack needs combat-effective")
    assert told[1].text.startswith("only 1 information warfare attack(s) a player turn")
    assert {t.to for t in told} == {OWN}


def test_a_disrupt_on_an_unseen_or_made_up_id_says_the_same() -> None:
    """IS1 with 'disrupt' naming S-1 (a real Sarkand unit Northland does not see) or S-99
    (no unit): neither is disrupted, and the words differ only by the id."""
    said = {}
    for target in ("S-1", "S-99"):
        state = start()
        board = board_of(state, {})
        attack = InformationAttack(["N-CY"], "disrupt", [target])
        told = information_warfare(state, board, state.first, [attack], Dice.scripted([6]), set())
        assert told[1] == Told("Northland's information warfare, 1D6 6: IS1; disrupted: none", BOTH)
        said[target] = told[2]
        assert not any(u.disrupted for u in state.units)
    assert said["S-1"] == Told(
        "not disrupted: S-1 (not a combat-effective enemy unit Northland sees)", OWN
    )
    assert said["S-99"].text == said["S-1"].text.replace("S-1", "S-99")
    # Seen, S-1 is disrupted (teeth: the same order hits a unit in sight).
    state = start()
    board = board_of(state, {})
    attack = InformationAttack(["N-CY"], "disrupt", ["S-1"])
    told = information_warfare(state, board, state.first, [attack], Dice.scripted([6]), {"S-1"})
    assert told[1].text.endswith("IS1; disrupted: S-1") and state.unit("S-1").disrupted


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
