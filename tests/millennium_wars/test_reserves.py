"""Reserves named by the players (issue 51): the seed's reaction phases say "The Second player
may move any reserve units" and never say how a unit becomes one.  Ours: a player names on his
impulse sheets (Orders!C40) the units he holds in reserve for the enemy's coming player turn;
the latest naming of his player turn counts, and when it ends the units named that are not Ops
Complete become his reserves and his other units stop being reserves.  A player turn without a
naming leaves the reserves as they are (the scenario's at the start).  Fixed dice throughout,
on the training scenario: Northland (Ann, the First Player; N-4AC its scenario reserve) and
Sarkand (Bob; S-5)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.millennium_wars.combat import Attack
from refassist.rulesets.millennium_wars.movement import Move
from refassist.rulesets.millennium_wars.orders import Orders
from refassist.rulesets.millennium_wars.resolve import resolve_turn
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.sheet import RESERVES_CELL
from refassist.rulesets.millennium_wars.state import State
from refassist.rulesets.millennium_wars.validate import validate_orders
from refassist.rulesets.millennium_wars.visibility import player_view
from refassist.workbook.master import read_master, write_master

from .test_resolve import start
from .test_tables import RULESET as TABLES

MW = find_ruleset("millennium-wars")
CELL = ("Orders", RESERVES_CELL)
#: Dice enough for any exchange without combat: the air roll that ends the First Player's
#: turn (6: Northland's superiority); the next game turn's random event (d66 54: no event)
#: and its air roll (3: parity) after the Second Player's.  Dice left over are not used.
DICE = {1: [6], 2: [5, 4, 3]}


def step(state: State, **orders: Orders) -> State:
    dice = DICE[state.point.player_turn]
    return resolve_turn(state, orders, Dice.scripted(list(dice)), {}).state


def play_out(state: State, **orders: Orders) -> State:
    """The exchange with ``orders``, then every later exchange of its player turn without
    orders: the state when the next player turn begins."""
    turn = (state.point.turn, state.point.player_turn)
    state = step(state, **orders)
    while (state.point.turn, state.point.player_turn) == turn:
        state = step(state)
    return state


def reserves(state: State, side: str) -> list[str]:
    return sorted(u.id for u in state.units if u.side == side and u.reserve)


def test_units_named_become_reserves_for_the_enemys_turn_and_move_in_its_reaction() -> None:
    state = start()
    assert reserves(state, "Northland") == ["N-4AC"]
    state = play_out(state, Ann=Orders("Ann", "1-1-1", reserves=["N-1AR", "N-3LI"]))
    assert state.point.key == "1-2-1"
    # Named and not Ops Complete: reserves; N-4AC, not named, is no longer one.
    assert reserves(state, "Northland") == ["N-1AR", "N-3LI"]
    told = [e for e in state.earlier + state.events if e.kind == "reserves"]
    assert [(e.text, e.visible_to) for e in told] == [
        ("Northland's reserves for Sarkand's player turn: N-1AR N-3LI", ("Ann",))
    ]
    # Sarkand is not told which of Northland's units are reserves, even seeing them all.
    state.sees_all.append("Sarkand")
    theirs = [u for u in player_view(state, "Bob").units if u.side == "Northland"]
    assert "N-1AR" in {u.id for u in theirs} and not any(u.reserve for u in theirs)
    state.sees_all.remove("Sarkand")
    # In Sarkand's player turn, Ann's reaction moves her reserve; N-4AC may not move.
    state.point = Point(1, 2, 1, reaction=True)
    react = Orders("Ann", "1-2-1r", moves=[Move("N-1AR", ["0403"]), Move("N-4AC", ["0306"], "C25")])
    problems = {p.cell: p.message for p in validate_orders(state, "Ann", react, {})}
    assert problems == {"C25": "N-4AC is not a reserve unit: only reserves move in a reaction"}
    state = step(state, Ann=react)
    assert state.unit("N-1AR").hex == "0403" and state.unit("N-1AR").ops_complete
    assert state.unit("N-4AC").hex == "0206"


def test_a_named_unit_that_moved_is_no_reserve_and_the_latest_naming_counts() -> None:
    state = start()
    state = step(state, Ann=Orders("Ann", "1-1-1", reserves=["N-1AR"]))
    assert state.point.key == "1-1-2"
    # The second impulse's naming replaces the first; N-2MI moves in it.
    ann = Orders(
        "Ann",
        "1-1-2",
        moves=[Move("N-2MI", ["0504", "0604"])],
        reserves=["N-2MI", "N-3LI"],
        last=True,
    )
    state = play_out(state, Ann=ann)
    assert state.point.key == "1-2-1"
    assert reserves(state, "Northland") == ["N-3LI"]
    text = next(e.text for e in state.earlier + state.events if e.kind == "reserves")
    assert text == (
        "Northland's reserves for Sarkand's player turn: N-3LI "
        "(N-2MI moved or attacked this player turn: no reserve)"
    )


def test_nothing_named_keeps_the_reserves_and_none_names_no_reserve(tmp_path: Path) -> None:
    """Sarkand names nothing in game turn 1 and keeps the scenario's S-5; Northland's naming
    of 1-1-1 waits through the master workbook for the end of its player turn.  In game turn
    2 Northland names nothing and keeps N-1AR; Sarkand's "none" leaves it no reserve."""
    state = start()
    state = step(state, Ann=Orders("Ann", "1-1-1", reserves=["N-1AR"]))
    assert player_view(state, "Bob").first.reserves_named is None
    write_master(tmp_path / "master.xlsx", TABLES, state)
    book = openpyxl.load_workbook(tmp_path / "master.xlsx")
    sides = book["Sides"]
    headers = [c.value for c in sides[1]]
    assert sides.cell(2, headers.index("Reserves named") + 1).value == "N-1AR"
    state = read_master(tmp_path / "master.xlsx", TABLES)
    assert state.first.reserves_named == ["N-1AR"] and state.second.reserves_named is None
    state = play_out(state)
    assert reserves(state, "Northland") == ["N-1AR"]
    state = play_out(state)  # Sarkand's player turn, nothing named
    assert state.point.key == "2-1-1"
    assert reserves(state, "Sarkand") == ["S-5"] and reserves(state, "Northland") == ["N-1AR"]
    state = play_out(state)  # Northland names nothing again
    assert reserves(state, "Northland") == ["N-1AR"]
    state = step(state, Bob=Orders("Bob", "2-2-1", reserves=[]))
    write_master(tmp_path / "master.xlsx", TABLES, state)
    state = read_master(tmp_path / "master.xlsx", TABLES)
    assert state.second.reserves_named == []
    state = play_out(state)
    assert state.point.turn == 3 and reserves(state, "Sarkand") == []
    assert state.second.reserves_named is None


def test_the_sheet_carries_the_naming_and_the_checker_pins_it_to_its_cell(
    tmp_path: Path,
) -> None:
    state = start()
    path = tmp_path / "Ann.xlsx"
    MW.write_sheet(state, "Ann", path, "tok", "Friday", {})
    ws = openpyxl.load_workbook(path)["Orders"]
    assert ws["A40"].value == "Reserves for the enemy's turn"
    assert ws[RESERVES_CELL].protection.locked is False
    typed = Orders(
        "Ann",
        "1-1-1",
        moves=[Move("N-2MI", ["0504", "0604"])],
        attacks=[Attack(["N-1AR"], "0905", "raid")],
        reserves=["N-1AR", "n-2mi", "N-3LI", "S-5", "N-9XX"],
    )
    MW.fill_sheet(path, typed)
    read = MW.read_sheet(path)
    assert read.problems == []
    assert read.orders.reserves == ["N-1AR", "n-2mi", "N-3LI", "S-5", "N-9XX"]
    assert MW.orders_text(read.orders)[-1] == (
        "Reserves for the enemy's turn: N-1AR n-2mi N-3LI S-5 N-9XX"
    )
    got = [
        ((p.sheet, p.cell), p.severity, p.message)
        for p in validate_orders(state, "Ann", read.orders, {})
        if (p.sheet, p.cell) == CELL
    ]
    assert got == [
        (
            CELL,
            "warning",
            "N-1AR moves or attacks this impulse: it will be Ops Complete and cannot be a reserve",
        ),
        (
            CELL,
            "warning",
            "N-2MI moves or attacks this impulse: it will be Ops Complete and cannot be a reserve",
        ),
        (CELL, "error", "S-5 is not one of your units on the map"),
        (CELL, "error", "N-9XX is not one of your units on the map"),
    ]
    # "none" names no reserve; a blank cell names nothing (the reserves stay).
    MW.write_sheet(state, "Ann", path, "tok", "Friday", {})
    MW.fill_sheet(path, Orders("Ann", "1-1-1", reserves=[]))
    read = MW.read_sheet(path)
    assert read.orders.reserves == [] and MW.orders_text(read.orders) == [
        "Reserves for the enemy's turn: none"
    ]
    MW.write_sheet(state, "Ann", path, "tok", "Friday", {})
    assert MW.read_sheet(path).orders.reserves is None
    # A reaction sheet names none: the cell is locked, and said.
    state.point = Point(1, 1, 1, reaction=True)
    MW.write_sheet(state, "Bob", path, "tok", "Friday", {})
    ws = openpyxl.load_workbook(path)["Orders"]
    assert ws[RESERVES_CELL].protection.locked is not False
    assert ws[RESERVES_CELL].value == "You name your reserves on your own impulse sheets."
    react = Orders("Bob", "1-1-1r", reserves=["S-5"])
    assert [((p.sheet, p.cell), p.message) for p in validate_orders(state, "Bob", react, {})] == [
        (CELL, "reserves are named on your own impulse sheets, not on a reaction sheet")
    ]
