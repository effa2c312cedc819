"""The checker on the training scenario: every kind of order that cannot be carried out is an
error on its cell, and the orders the computer sides write pass it."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.millennium_wars.ai import computer_orders
from refassist.rulesets.millennium_wars.combat import Attack, Defence
from refassist.rulesets.millennium_wars.movement import Move
from refassist.rulesets.millennium_wars.orders import InformationAttack, Orders, Purchase
from refassist.rulesets.millennium_wars.resolve import resolve_turn
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.validate import validate_orders

from .test_resolve import start

RULES: dict[str, object] = {}


def problems(state, player: str, orders: Orders) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {p.cell: p.message for p in validate_orders(state, player, orders, RULES)}


def test_an_impulse_sheet_with_every_kind_of_mistake() -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"  # beside S-3 at 0905
    state.unit("N-3LI").ops_complete = True
    orders = Orders(
        "Ann",
        "1-1-1",
        moves=[
            Move("N-2MI", ["0504", "0604"], "C14"),
            Move("N-2MI", ["0704"], "C15"),
            Move("N-HT", ["0601"], "C16"),  # not next to 0305
            Move("S-2", ["0806"], "C17"),
        ],
        attacks=[
            Attack(["N-1AR"], "0905", "raid", advance=["N-HT"], cell="C30"),
            Attack(["N-1AR"], "0905", "assault", cell="C31"),
            Attack(["N-4AC"], "0905", "raid", cell="C32"),
            Attack(["N-1AR"], "0101", "raid", cell="C33"),
        ],
        information=[InformationAttack(["N-1AR"], "nothing", cell="C40")],
    )
    got = problems(state, "Ann", orders)
    assert got["C15"] == "N-2MI moves once an impulse"
    assert got["C16"] == "0601 is not next to 0305"
    assert got["C17"] == "S-2 is not one of your units on the map"
    assert got["C30"] == "N-HT is not one of this attack's units"
    assert got["C31"] == "N-1AR attacks once an impulse"
    assert got["C32"] == "N-4AC is not a land unit next to 0905"
    assert got["C33"] == "there is no enemy land unit in 0101 to attack"
    assert got["C40"] == "'nothing' is not a choice"
    assert "C14" not in got


def test_sheets_out_of_turn_and_reactions() -> None:
    state = start()
    assert problems(state, "Bob", Orders("Bob", "1-1-1")) == {
        "B2": "this exchange (1-1-1) is not Sarkand's to order"
    }
    state.point = Point(1, 1, 1, reaction=True)
    reaction = Orders(
        "Bob",
        "1-1-1r",
        moves=[Move("S-2", ["0806"], "C14"), Move("S-5", ["0903"], "C15")],
        attacks=[Attack(["S-2"], "0704", "raid", cell="C30")],
        defence=Defence(),
    )
    got = problems(state, "Bob", reaction)
    assert got["C14"] == "S-2 is not a reserve unit: only reserves move in a reaction"
    assert "C15" not in got  # S-5 is a reserve
    assert got["C30"] == "a reaction makes no attacks"


def test_purchases_and_information_only_in_the_first_impulse() -> None:
    state = start()
    state.point = Point(1, 1, 2)
    orders = Orders(
        "Ann",
        "1-1-2",
        purchases=[Purchase("air defence", cell="C50")],
        information=[InformationAttack(["N-CY"], cell="C40")],
    )
    got = problems(state, "Ann", orders)
    assert got["C50"] == "purchases are made in the first impulse only"
    assert got["C40"] == "information warfare is in the first impulse only"


def test_the_ceasefire_answer() -> None:
    state = start()
    state.point = Point(2, ceasefire=True)
    assert problems(state, "Ann", Orders("Ann", "2-0-ceasefire", ceasefire="maybe")) == {
        "C11": "the answer to the UN must be accept or refuse"
    }
    assert problems(state, "Bob", Orders("Bob", "2-0-ceasefire", ceasefire="refuse")) == {}


def test_the_computer_sides_orders_pass_the_checker_all_game() -> None:
    state = start()
    for n in range(80):
        if state.finished:
            break
        orders = {p: computer_orders(state, p, 7) for p in ("Ann", "Bob")}
        for player, o in orders.items():
            errors = [p for p in validate_orders(state, player, o, RULES) if p.severity == "error"]
            assert not errors or not (o.moves or o.attacks or o.information), errors
        state = resolve_turn(state, orders, Dice(seed=7000 + n), RULES).state
    assert state.finished


def test_purchases_are_checked_as_the_resolution_makes_them() -> None:
    state = start()
    state.point = Point(3)  # turn 3: Northland's N-5AB (airborne brigade) is due
    orders = Orders(
        "Ann",
        "3-1-1",
        purchases=[
            Purchase("reinforcement", "N-5AB", cell="B12"),
            Purchase("reinforcement", "S-6", cell="B13"),  # not Northland's
            Purchase("replacement", "N-1AR", cell="B14"),  # not eliminated
            Purchase("air defence", cell="B15"),
        ],
    )
    free = {
        p.cell: p.message for p in validate_orders(state, "Ann", orders, {"reinforcements": "free"})
    }
    assert sorted(free) == ["B12", "B13", "B14"]
    assert "reinforcements arrive free" in free["B12"]
    # Bought, as the seed prices the reinforcements "he is due" (the default).
    bought = {p.cell: p.message for p in validate_orders(state, "Ann", orders, {})}
    assert sorted(bought) == ["B13", "B14"]
    assert "not one of Northland's reinforcements available" in bought["B13"]
    # The computer side buys what its points pay for: N-5AB is NATO non-mechanized
    # non-division, 1 point; Northland has 3.
    state.first.political_points = 3
    mine = computer_orders(state, "Ann", 1, {"reinforcements": "bought"})
    assert [(p.kind, p.unit) for p in mine.purchases] == [("reinforcement", "N-5AB")]
    assert computer_orders(state, "Ann", 1, {"reinforcements": "free"}).purchases == []


def test_political_points_beyond_what_the_side_has_are_a_warning() -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HT").hex = "0805"
    state.first.political_points = 1
    orders = Orders(
        "Ann",
        "1-1-1",
        attacks=[Attack(["N-1AR", "N-HT"], "0905", "raid", political_points=2, cell="B43")],
    )
    (found,) = validate_orders(state, "Ann", orders, {})
    assert (found.cell, found.severity) == ("E43", "warning")  # the points cell
    assert found.message.startswith(
        "the shift costs 2 political points (one a unit taking part) and Northland has 1"
    )
    # With 2 points the two units pay for the column: no warning.
    state.first.political_points = 2
    assert validate_orders(state, "Ann", orders, {}) == []
