"""Exchanges of the training scenario resolved with fixed dice: a whole game turn without
orders (the sequence, the air rolls, the next turn's random event), an impulse with moves and
an attack fought after the reaction, ceasefire answers, and the end of the game."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.millennium_wars.combat import Attack
from refassist.rulesets.millennium_wars.movement import Move
from refassist.rulesets.millennium_wars.orders import Orders
from refassist.rulesets.millennium_wars.resolve import resolve_turn
from refassist.rulesets.millennium_wars.scenario import load_scenario
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.state import State, new_state

RULES: dict[str, object] = {}


def start() -> State:
    players = [PlayerSetup("Ann", "a@example.com"), PlayerSetup("Bob", "b@example.com")]
    return new_state(load_scenario(), players, "Vell", "g")


def step(state: State, dice: list[int], **orders: Orders) -> State:
    return resolve_turn(state, orders, Dice.scripted(dice), RULES).state


def test_a_game_turn_without_orders_skips_every_reaction() -> None:
    state = start()
    keys: list[str] = []
    skipped: set[str] = set()
    # Nothing moves and nothing is attacked: no reaction sheet is sent.  The Second Player's
    # air roll (6: Northland's superiority) ends 1-1-3, its last impulse; turn 2's random
    # event (d66 5 4 = 54: no event) and the First Player's air roll (3: parity) end 1-2-2.
    for dice in ([], [], [6], [], [5, 4, 3]):
        keys.append(state.point.key)
        state = step(state, dice)
        skipped |= {e.data["step"] for e in state.events if e.kind == "exchange_skipped"}
    assert keys == ["1-1-1", "1-1-2", "1-1-3", "1-2-1", "1-2-2"]
    # Sarkand's C4I 2 does not qualify it for a third impulse: said too.
    assert skipped == {"1-1-1r", "1-1-2r", "1-1-3r", "1-2-1r", "1-2-2r", "1-2-3"}
    assert state.point == Point(2) and state.event == "no event"
    # Political points of the turn: Northland 2, Sarkand 3.
    assert [s.political_points for s in state.sides] == [2, 3]
    texts = [e.text for e in state.events if e.kind in ("random_event", "air")]
    assert texts == ["Random event: d66 54, no event", "Air superiority: 1D6 3 +0: parity"]


def test_moves_and_an_attack_fought_after_the_reaction() -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"  # set beside Sarkand's S-3 at 0905 by hand
    state.unit("N-HT").hex = "0805"
    ann = Orders(
        "Ann",
        "1-1-1",
        moves=[Move("N-2MI", ["0504", "0604"])],
        attacks=[Attack(["N-1AR", "N-HT"], "0905", "raid", advance=["N-HT"])],
    )
    state = step(state, [], Ann=ann)  # S-3 is attacked: Bob gets his reaction sheet
    assert state.point.key == "1-1-1r" and state.unit("N-2MI").hex == "0604"
    assert [a.hex for a in state.pending] == ["0905"]
    # The reaction: nothing moves.  11 to 4 is 2/1; N-1AR and N-HT stand four and more hexes
    # from N-HQ (0205, support radius 3) outside Northland: partially out of supply, -1:
    # 1.5/1.  The Raid CRT with a 5: DR.  S-3 retreats one hex (out of the Northland units'
    # zones of control where it can) and N-HT advances.
    state = step(state, [5])
    attack = next(e for e in state.events if e.kind == "attack")
    assert (attack.data["odds"], attack.data["result"]) == ("1.5/1", "DR")
    assert attack.data["strengths"] == "11 to 4"
    assert attack.data["shifts"] == ["-1 attacker out of supply"]
    assert "11 to 4: 2/1, -1 attacker out of supply: 1.5/1; die 5: DR" in attack.text
    assert state.unit("N-HT").hex == "0905" and state.unit("S-3").hex != "0905"
    assert all(state.unit(u).ops_complete for u in ("N-1AR", "N-HT", "N-2MI"))
    assert state.point.key == "1-1-2" and state.pending == []


def test_an_attack_on_an_emptied_hex_is_void() -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"
    state = step(state, [], Ann=Orders("Ann", "1-1-1", attacks=[Attack(["N-1AR"], "0905", "raid")]))
    state.unit("S-3").hex = "1006"  # gone before the combat (by hand, as a reserve might)
    state = step(state, [])
    void = next(e for e in state.events if e.kind == "attack_void")
    assert "there is no enemy land unit in 0905" in void.text


def test_ceasefire_answers() -> None:
    base = start()
    base.point = Point(1, ceasefire=True)
    both = step(
        base,
        [],
        Ann=Orders("Ann", "1-0-ceasefire", ceasefire="accept"),
        Bob=Orders("Bob", "1-0-ceasefire", ceasefire="accept"),
    )
    # Both comply: the game ends; Northland holds 0205 and 0503 (7), Sarkand 0906 and 1005 (7).
    assert both.finished.startswith(
        "The game ends (both sides accepted the UN's ceasefire): a draw"
    )
    # Play going on, the First Player's air roll ends the exchange (1, 2 after Northland's
    # Air Defense: Sarkand's superiority).
    one = step(base, [1], Ann=Orders("Ann", "1-0-ceasefire", ceasefire="accept"))
    # Bob sent nothing (refuses): the Index moves 20 toward Ann's Northland.
    assert one.political_index == 70 and not one.finished and one.point == Point(1)
    assert one.air == "Sarkand" and one.events[-1].text == (
        "Air superiority: 1D6 1 +0, 2 after Air Defense: second superiority"
    )


def test_the_game_ends_after_its_last_turn() -> None:
    state = start()
    state.point = Point(6, 2, 2, True)  # the last exchange of turn 6
    state.unit("S-1").hex = "0704"  # Sarkand takes the depot
    state = step(state, [])
    assert state.finished == (
        "The game ends (the game's last turn is over): Sarkand wins with 10 objective points to 7"
    )


def test_a_new_game_rolls_turn_1s_random_event() -> None:
    from refassist.rulesets.base import NewGame
    from refassist.rulesets.millennium_wars.setup import new_game

    players = (PlayerSetup("Ann", "a@example.com"), PlayerSetup("Bob", "b@example.com"))
    # d66 3 5 = 35: bad weather (speeds -1, air parity this turn).
    state = new_game(NewGame("Vell", "g", players, {}), Dice.scripted([3, 5]), {})
    assert state.event == "bad weather" and state.bad_weather
    assert [e.text for e in state.events] == [
        "Random event: d66 35, bad weather: speeds -1, support radius 1, air parity this turn"
    ]
    # No air superiority is rolled in bad weather: parity; nothing moves, no reaction.
    assert state.air_level == "parity" and state.air == ""
    after = step(state, [])
    assert after.air_level == "parity" and after.point.key == "1-1-2"


def test_fast_play_fights_with_the_defenders_standing_orders() -> None:
    from refassist.rulesets.millennium_wars.combat import Defence

    fast = {"fast_play": True}
    state = start()
    # Sarkand's standing defence, written on its own last phasing sheet: S-3 retreats to 1005.
    state.side("Sarkand").standing = Defence(retreat={"S-3": ["1005"]})
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HT").hex = "0805"
    ann = Orders(
        "Ann",
        "1-1-1",
        attacks=[Attack(["N-1AR", "N-HT"], "0905", "raid")],
        defence=Defence(advance=["N-2MI"]),
    )
    # No reaction sheet: the Raid CRT at 2/1 with a 5 is DR at once.
    after = resolve_turn(state, {"Ann": ann}, Dice.scripted([5]), fast).state
    attack = next(e for e in after.events if e.kind == "attack")
    assert attack.data["result"] == "DR" and after.unit("S-3").hex == "1005"
    # Northland's own defence now stands for Sarkand's turn; the next sheet is impulse 2.
    assert after.side("Northland").standing == Defence(advance=["N-2MI"])
    assert after.point.key == "1-1-2" and after.pending == []


def test_impulses_without_the_c4i_reading() -> None:
    # Sarkand's C4I is 2: by our reading it takes two impulses; with impulse_c4i off, three.
    state = start()
    state.point = Point(1, 2, 2, True)
    # (Turn 2's random event: d66 54, no event; its First Player's air roll 3, parity.)
    by_c4i = resolve_turn(state, {}, Dice.scripted([5, 4, 3]), {}).state
    every = resolve_turn(state, {}, Dice.scripted([]), {"impulse_c4i": False}).state
    assert by_c4i.point.key == "2-1-1" and every.point.key == "1-2-3"


def test_political_points_spent_on_shifts_come_out_of_each_sides_points() -> None:
    """The seed's "Political Point Expenditure, One per Unit (Optional): +1/-1": one column,
    one point a unit taking part.  Northland's two attackers cost 2 and it has 3/2: no shift,
    told to Northland alone; Sarkand's lone defender costs 1 of its 2."""
    from fractions import Fraction

    from refassist.rulesets.millennium_wars.combat import Defence

    state = start()
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HT").hex = "0805"
    state.unit("N-HQ").hex = "0603"  # its support radius keeps both attackers in supply
    state.side("Northland").political_points = Fraction(3, 2)
    state.side("Sarkand").political_points = Fraction(2)
    ann = Orders(
        "Ann", "1-1-1", attacks=[Attack(["N-1AR", "N-HT"], "0905", "raid", political_points=2)]
    )
    state = step(state, [], Ann=ann)
    bob = Orders("Bob", "1-1-1r", defence=Defence(political_points=1))
    # 11 to 4 is 2/1; Sarkand's shift -1: 1.5/1.  The Raid CRT at 1.5/1 with a 5: DR.
    state = step(state, [5], Bob=bob)
    attack = next(e for e in state.events if e.kind == "attack")
    assert attack.data["odds"] == "1.5/1"
    assert attack.data["shifts"] == ["-1 defender's political points"]
    assert "Sarkand spends 1 political point" in attack.text
    assert "Northland spends" not in attack.text
    # What Northland could not pay is its own: Sarkand is not told.
    assert "had only" not in attack.text
    detail = next(e for e in state.events if e.kind == "attack_detail")
    assert detail.visible_to == ("Ann",)
    assert "Northland had only 1.5 of the 2 political points its shift costs" in detail.text
    assert state.side("Northland").political_points == Fraction(3, 2)
    assert state.side("Sarkand").political_points == 1


def test_political_points_a_column_each_or_none_as_house_rules() -> None:
    """``political_shift = "per_point"`` (our former reading): each point a column, at most
    one a unit; a side short of points spends what it has.  Northland asks 2 and has 3/2:
    +1; Sarkand -1.  ``off``: no shift, nothing spent."""
    from fractions import Fraction

    from refassist.rulesets.millennium_wars.combat import Defence

    for rule, shifts, left in (
        (
            "per_point",
            ["+1 political points", "-1 defender's political points"],
            (Fraction(1, 2), Fraction(1)),
        ),
        ("off", [], (Fraction(3, 2), Fraction(2))),
    ):
        state = start()
        state.unit("N-1AR").hex = "0804"
        state.unit("N-HT").hex = "0805"
        state.unit("N-HQ").hex = "0603"
        state.side("Northland").political_points = Fraction(3, 2)
        state.side("Sarkand").political_points = Fraction(2)
        rules = RULES | {"political_shift": rule}
        ann = Orders(
            "Ann",
            "1-1-1",
            attacks=[Attack(["N-1AR", "N-HT"], "0905", "raid", political_points=2)],
        )
        state = resolve_turn(state, {"Ann": ann}, Dice.scripted([3]), rules).state
        bob = Orders("Bob", "1-1-1r", defence=Defence(political_points=1))
        state = resolve_turn(state, {"Bob": bob}, Dice.scripted([5]), rules).state
        attack = next(e for e in state.events if e.kind == "attack")
        assert attack.data["shifts"] == shifts
        points = [state.side(n).political_points for n in ("Northland", "Sarkand")]
        assert tuple(points) == left
