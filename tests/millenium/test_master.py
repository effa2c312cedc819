"""The master workbook: a game's state written as a real .xlsx, read back to the same state,
and a referee's hand edits checked cell by cell."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from refassist.dice import Dice
from refassist.rulesets.base import Ruleset, Step
from refassist.rulesets.millenium.ai import computer_orders
from refassist.rulesets.millenium.resolve import resolve_turn
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, State, mover
from refassist.workbook.master import MasterWorkbookError, read_master, write_master

from .test_secrets import PLAYERS, play


class _Master(Ruleset[State, Any]):
    """The workbook half of the game's ruleset, enough to write and read its master."""

    name = "millenium-master-test"
    title = "Millenium (master workbook test)"
    package = "refassist.rulesets.millenium"

    def current_step(self, state: State) -> Step:  # pragma: no cover - not used here
        raise NotImplementedError

    def game_over(self, state: State) -> str:
        return state.finished

    def players(self, state: State) -> list[str]:
        return list(state.players.values())


RULESET = _Master()


@pytest.fixture(scope="module")
def states() -> list[State]:
    return play(3)


def test_every_state_of_a_game_reads_back_the_same(states: list[State], tmp_path: Path) -> None:
    for n, state in enumerate(states[:: max(1, len(states) // 6)] + states[-1:]):
        path = tmp_path / f"master{n}.xlsx"
        write_master(path, RULESET, state)
        again = read_master(path, RULESET)
        assert RULESET.to_json(again) == RULESET.to_json(state)


def test_the_game_goes_on_from_a_state_read_back(states: list[State], tmp_path: Path) -> None:
    """A turn resolved from the workbook's state gives what it gives from the state in
    memory (the same orders, the same dice)."""
    state = states[6]
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    again = read_master(path, RULESET)
    side = mover(state.turn)
    orders = computer_orders(state, PLAYERS[side], 3)
    one = resolve_turn(state, {PLAYERS[side]: orders}, Dice.for_turn(3, 99), {}).state
    two = resolve_turn(again, {PLAYERS[side]: orders}, Dice.for_turn(3, 99), {}).state
    assert RULESET.to_json(one) == RULESET.to_json(two)


def _edit(path: Path, sheet: str, cell: str, value: object) -> None:
    book = openpyxl.load_workbook(path)
    book[sheet][cell] = value
    book.save(path)


def _find(path: Path, sheet: str, header: str) -> str:
    rows = list(openpyxl.load_workbook(path)[sheet].iter_rows(min_row=1, max_row=1))
    for cell in rows[0]:
        if cell.value == header:
            return cell.column_letter
    raise KeyError(header)


@pytest.mark.parametrize(
    ("sheet", "header", "value", "words"),
    [
        ("Secrets (referee)", "Imperial planet", "M1", "not in a system of loyalty 6"),
        ("Secrets (referee)", "Conquest programme", "A B J", "J are not systems"),
        ("Fleets", "Position", "99Q9", "not a position"),
        ("Planets", "Held by", "martians", "martians"),
        ("Systems", "Zone", "77", "not a zone of the 6 x 5 map"),
    ],
)
def test_hand_edits_that_break_the_rules_are_refused_on_their_cell(
    states: list[State], tmp_path: Path, sheet: str, header: str, value: str, words: str
) -> None:
    state = states[4]
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    column = _find(path, sheet, header)
    _edit(path, sheet, f"{column}2", value)
    with pytest.raises(MasterWorkbookError) as caught:
        read_master(path, RULESET)
    assert words in str(caught.value) and f"{column}2" in str(caught.value)


def test_a_valid_hand_edit_is_honoured(states: list[State], tmp_path: Path) -> None:
    state = states[4]
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    _edit(path, "Points", "C2", 41) if openpyxl.load_workbook(path)["Points"].max_row > 1 else None
    again = read_master(path, RULESET)
    assert again.players == {ALIEN: "Vera", EMPIRE: "Ivo"}
