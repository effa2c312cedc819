"""The sequence of play by mail (issue 51): the air superiority roll made before the sheet it
informs, attacks on enemy units found by moving, the exchanges skipped instead of sent empty
(a reaction with nothing to react to, the impulses after a declared last one), and the same
exchanges replayed alike.  Fixed dice on the training scenario; sheets written and read back
as real .xlsx files."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from refassist.dice import Dice
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.millennium_wars import RULESET
from refassist.rulesets.millennium_wars.ai import _nothing_left, computer_orders
from refassist.rulesets.millennium_wars.combat import Attack
from refassist.rulesets.millennium_wars.movement import Move
from refassist.rulesets.millennium_wars.orders import Orders
from refassist.rulesets.millennium_wars.resolve import board_of, reaction_skipped, resolve_turn
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.setup import new_game
from refassist.rulesets.millennium_wars.sheet import AIR_CELL, LAST_CELL, read_sheet
from refassist.rulesets.millennium_wars.state import State
from refassist.rulesets.millennium_wars.tables import to_json
from refassist.rulesets.millennium_wars.validate import validate_orders

from .test_resolve import start


def step(state: State, dice: list[int], **orders: Orders) -> State:
    return resolve_turn(state, orders, Dice.scripted(dice), {}).state


def sheet_text(state: State, player: str, path: Path) -> tuple[str, str]:
    """The sheet ``player`` is sent next, written for real: its air superiority cell and the
    text of its Situation page."""
    RULESET.write_sheet(state, player, path, "tok", "Friday", {})
    wb = openpyxl.load_workbook(path)
    situation = "\n".join(
        str(c.value) for row in wb["Situation"].iter_rows() for c in row if c.value
    )
    return str(wb["Orders"][AIR_CELL].value), situation


def kinds(state: State, kind: str) -> list[str]:
    return [e.text for e in state.events if e.kind == kind]


# -- 1. air superiority before the sheet it informs -----------------------------------------------


def test_a_new_game_rolls_the_first_player_turns_air_superiority(tmp_path: Path) -> None:
    players = (PlayerSetup("Ann", "a@example.com"), PlayerSetup("Bob", "b@example.com"))
    # d66 5 4 = 54: no event; air 6: Northland's superiority, on Ann's first sheet.
    state = new_game(NewGame("Vell", "g", players, {}), Dice.scripted([5, 4, 6]), {})
    assert state.air == "Northland" and "Northland" in state.sees_all
    air, situation = sheet_text(state, "Ann", tmp_path / "Ann.xlsx")
    assert air == "Northland"
    assert "Air superiority: 1D6 6 +0, 5 after Air Defense: first superiority" in situation
    # Ann's first impulse rolls no air superiority of its own: no die is used.
    after = resolve_turn(state, {}, Dice.scripted([]), {}).state
    assert after.air == "Northland" and not kinds(after, "air")


def test_the_second_player_turns_roll_ends_the_first_player_turn(tmp_path: Path) -> None:
    state = start()
    state.air, state.air_level = "Northland", "first superiority"  # Northland's own roll
    state.point = Point(1, 1, 3)  # Northland's last impulse (C4I 3)
    # Air 1: Sarkand's superiority, rolled before Bob's first sheet and printed on it.
    state = step(state, [1])
    assert state.point.key == "1-2-1" and state.air == "Sarkand"
    air, situation = sheet_text(state, "Bob", tmp_path / "Bob.xlsx")
    assert air == "Sarkand"
    assert "Air superiority: 1D6 1 +0, 2 after Air Defense: second superiority" in situation
    # Bob's first impulse uses no die for the air: an empty script is enough.
    assert step(state, []).point.key == "1-2-2"


# -- 2. attacks on enemies found by moving --------------------------------------------------------


def test_an_attack_on_a_hex_out_of_sight_is_accepted_with_a_note_and_fought() -> None:
    """N-1AR moves from 0303 to 0804, next to 0905, which Northland cannot see into before
    the move: the attack on S-3 there is accepted with a note, and fought after the move by a
    unit that moved in the same impulse."""
    state = start()
    state.unit("N-1AR").hex = "0603"
    ann = Orders(
        "Ann",
        "1-1-1",
        moves=[Move("N-1AR", ["0704", "0804"], cell="Orders!B24")],
        attacks=[Attack(["N-1AR"], "0905", "raid", cell="Orders!B43")],
    )
    problems = validate_orders(state, "Ann", ann, {})
    assert [(p.severity, p.cell) for p in problems] == [("warning", "B43")]
    assert "you cannot see into 0905 yet" in problems[0].message
    # S-3 is attacked: Bob reacts; then 6 to 4 is 1/1 on the Raid CRT, die 5.
    state = step(state, [], Ann=ann)
    assert state.point.key == "1-1-1r" and state.unit("N-1AR").hex == "0804"
    state = step(state, [5])
    fought = [e for e in state.events if e.kind == "attack"]
    assert len(fought) == 1 and fought[0].location == "0905"
    assert state.unit("N-1AR").ops_complete


def test_an_attack_out_of_sight_still_needs_its_units_next_to_the_hex() -> None:
    state = start()
    ann = Orders(
        "Ann",
        "1-1-1",
        moves=[Move("N-1AR", ["0403"], cell="Orders!B24")],
        attacks=[Attack(["N-1AR"], "0905", "raid", cell="Orders!B43")],
    )
    problems = validate_orders(state, "Ann", ann, {})
    assert [(p.severity, p.message) for p in problems] == [
        ("error", "N-1AR is not a land unit next to 0905")
    ]


def test_an_attack_on_a_hex_seen_empty_is_refused_and_one_found_empty_is_void() -> None:
    state = start()
    state.unit("N-1AR").hex = "0603"
    # 0604 is next to N-1AR: seen, and empty.
    seen_empty = Orders("Ann", "1-1-1", attacks=[Attack(["N-1AR"], "0604", "raid", cell="C1")])
    assert [p.message for p in validate_orders(state, "Ann", seen_empty, {})] == [
        "there is no enemy land unit in 0604 to attack"
    ]
    # 0805 is out of sight and empty: accepted with its note, void when fought, and Ann told.
    # (S-5 is no reserve here, so that Bob has nothing to react with.)
    state.unit("S-5").reserve = False
    blind = Orders(
        "Ann",
        "1-1-1",
        moves=[Move("N-1AR", ["0704", "0804"])],
        attacks=[Attack(["N-1AR"], "0805", "raid", cell="C1")],
    )
    assert [p.severity for p in validate_orders(state, "Ann", blind, {})] == ["warning"]
    after = step(state, [], Ann=blind)
    void = [e for e in after.events if e.kind == "attack_void"]
    assert [e.visible_to for e in void] == [("Ann",)]
    assert "there is no enemy land unit in 0805" in void[0].text
    # Nothing of Bob's was attacked and he has no reserve: no reaction sheet.
    assert after.point.key == "1-1-2"


# -- 3. exchanges skipped -------------------------------------------------------------------------


def test_a_reaction_is_sent_when_his_units_are_attacked_even_without_a_reserve() -> None:
    state = start()
    state.unit("S-5").reserve = False
    state.unit("N-1AR").hex = "0804"
    ann = Orders("Ann", "1-1-1", attacks=[Attack(["N-1AR"], "0905", "raid")])
    assert step(state, [], Ann=ann).point.key == "1-1-1r"


def test_a_reaction_to_a_move_needs_a_reserve_able_to_move_and_the_move_in_sight() -> None:
    # N-1AR ends at 0804, in Sarkand's country, which Sarkand sees; S-5 (reserve, at 1003)
    # may move: Bob gets his reaction sheet.
    state = start()
    near = Orders("Ann", "1-1-1", moves=[Move("N-1AR", ["0403", "0504", "0604", "0704", "0804"])])
    moved = step(state, [], Ann=near)
    assert moved.unit("N-1AR").hex == "0804" and moved.point.key == "1-1-1r"
    # The same move, S-5 already spent (Ops Complete): nothing to react with.
    state = start()
    state.unit("S-5").ops_complete = True
    spent = step(state, [], Ann=near)
    assert spent.point.key == "1-1-2"
    assert kinds(spent, "exchange_skipped") == [
        "No reaction sheet for Sarkand this impulse: no attack on its units, and no reserve unit "
        "able to move",
        "No reaction sheet this impulse",
    ]
    told = {e.text: e.visible_to for e in spent.events if e.kind == "exchange_skipped"}
    assert sorted(told.values()) == [("Ann",), ("Bob",)]
    # A move out of Sarkand's sight: nothing seen to react to.
    state = start()
    quiet = step(state, [], Ann=Orders("Ann", "1-1-1", moves=[Move("N-2MI", ["0504"])]))
    assert quiet.point.key == "1-1-2"
    assert reaction_skipped(quiet, {}) == "no attack on its units, and no enemy move in its sight"


def test_a_declared_last_impulse_skips_the_rest_of_the_player_turn() -> None:
    state = start()
    ann = Orders("Ann", "1-1-1", moves=[Move("N-2MI", ["0504"])], last=True)
    # No reaction (nothing to react to); impulses 2 and 3 skipped; Sarkand's air roll 4.
    state = step(state, [4], Ann=ann)
    assert state.point.key == "1-2-1" and not state.last_impulse
    assert kinds(state, "exchange_skipped")[-2:] == [
        "Northland's impulse 2 is skipped: declared no further impulse this player turn",
        "Northland's impulse 3 is skipped: declared no further impulse this player turn",
    ]
    assert RULESET.status_notes(state) == [
        "Skipped 1-1-1r: Sarkand's reaction: no attack on its units, and no enemy move in its "
        "sight",
        "Skipped 1-1-2: Northland's impulse 2: declared no further impulse this player turn",
        "Skipped 1-1-3: Northland's impulse 3: declared no further impulse this player turn",
    ]


def test_a_declared_last_impulse_with_a_reaction_ends_after_the_reaction() -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"
    ann = Orders("Ann", "1-1-1", attacks=[Attack(["N-1AR"], "0905", "raid")], last=True)
    state = step(state, [], Ann=ann)
    assert state.point.key == "1-1-1r" and state.last_impulse
    # The reaction: the Raid at 6 to 4 (1.5/1) with a 5, DR; then Sarkand's air roll 3.
    state = step(state, [5, 3])
    assert state.point.key == "1-2-1" and not state.last_impulse


def test_the_last_impulse_cell_reads_back_from_a_real_sheet(tmp_path: Path) -> None:
    state = start()
    path = tmp_path / "Ann.xlsx"
    RULESET.write_sheet(state, "Ann", path, "tok", "Friday", {})
    RULESET.fill_sheet(path, Orders("Ann", "1-1-1", last=True))
    got = read_sheet(path)
    assert got.orders.last and not got.problems
    assert "No further impulse this player turn" in RULESET.orders_text(got.orders)
    wb = openpyxl.load_workbook(path)
    assert wb["Orders"][LAST_CELL].value == "yes"
    # A typing mistake is pinned to its cell.
    wb["Orders"][LAST_CELL].value = "maybe"
    wb.save(path)
    bad = read_sheet(path)
    assert [p.cell for p in bad.problems] == [LAST_CELL] and not bad.orders.last


def test_a_reaction_sheet_has_no_last_impulse_cell(tmp_path: Path) -> None:
    state = start()
    state.point = Point(1, 1, 1, reaction=True)
    path = tmp_path / "Bob.xlsx"
    RULESET.write_sheet(state, "Bob", path, "tok", "Friday", {})
    wb = openpyxl.load_workbook(path)
    assert wb["Orders"][LAST_CELL].value is None
    wb["Orders"][LAST_CELL].value = "yes"  # typed anyway: not read on a reaction sheet
    wb.save(path)
    assert not read_sheet(path).orders.last


def test_a_computer_side_with_nothing_to_do_declares_its_last_impulse() -> None:
    state = start()
    state.point = Point(1, 1, 2)
    for unit in state.units:
        if unit.side == "Northland":
            unit.ops_complete = True  # everything spent in impulse 1
    orders = computer_orders(state, "Ann", 1)
    assert not orders.moves and not orders.attacks and orders.last
    # In its first impulse every combat unit of Northland moves: none is left for impulse 2.
    assert computer_orders(start(), "Ann", 1).last
    # One left free (N-HT kept back, its move taken out) and the impulse is not its last.
    board = board_of(start())
    kept = Orders("Ann", "1-1-1", moves=[m for m in orders_of(start()) if m.unit != "N-HT"])
    assert not _nothing_left(board, "Northland", kept)


def orders_of(state: State) -> list[Move]:
    return computer_orders(state, "Ann", 1).moves


# -- 5. the same exchange replays alike -----------------------------------------------------------


def test_a_skipped_exchange_replays_the_same() -> None:
    state = start()
    ann = Orders("Ann", "1-1-1", moves=[Move("N-2MI", ["0504"])], last=True)
    once = resolve_turn(state, {"Ann": ann}, Dice.scripted([4]), {})
    twice = resolve_turn(state, {"Ann": ann}, Dice.scripted([4]), {})
    assert to_json(once.state) == to_json(twice.state)
    # 1-1-1r (nothing to react to), 1-1-2 and 1-1-3 (declared last).
    assert once.summary == twice.summary and "3 exchanges skipped" in once.summary
