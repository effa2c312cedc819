"""An event whose details would not fit in one workbook cell never makes the master unreadable."""

from __future__ import annotations

from pathlib import Path

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import Event, NewGame, PlayerSetup
from refassist.workbook.history import MAX_DATA_CHARS, fitted_data
from refassist.workbook.master import read_master, write_master


def test_oversized_details_are_replaced_by_a_note_and_the_master_reads_back(
    tmp_path: Path,
) -> None:
    ruleset = find_ruleset("imperium-3m")
    players = (PlayerSetup("Ann", "ann@example.com"), PlayerSetup("Bob", "bob@example.com"))
    state = ruleset.new_game(NewGame("T", "id", players, {}), Dice(seed=1))
    huge = {"shots": ["x" * 100] * 400}
    small = {"note": "fits"}
    state.events = [
        Event(1, "action 1", "SOL", "battle", "a very long battle", data=huge),
        Event(1, "action 1", "SOL", "battle", "a short one", data=small),
    ]
    write_master(tmp_path / "master.xlsx", ruleset, state)
    again = read_master(tmp_path / "master.xlsx", ruleset)
    assert again.events[0].text == "a very long battle"
    assert "do not fit in one cell" in again.events[0].data["omitted"]
    assert again.events[1].data == small


def test_details_that_fit_are_written_unchanged() -> None:
    data = {"text": "y" * (MAX_DATA_CHARS - 20)}
    assert fitted_data(data) == data
    assert set(fitted_data({"text": "y" * MAX_DATA_CHARS})) == {"omitted"}
