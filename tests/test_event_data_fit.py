"""An event whose details would not fit in one workbook cell never makes the master unreadable."""

from __future__ import annotations

from pathlib import Path

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import Event, NewGame, PlayerSetup
from refassist.workbook.history import MAX_DATA_CHARS, data_size, fitted_data, shortened
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


def test_details_are_shortened_by_the_first_way_that_fits() -> None:
    """Each way changes a fresh copy of the whole details (the second does not see the first's
    change); the first that fits is taken and named; when none fits, the last is."""
    data = {"rounds": ["x" * 40, "y" * 40], "result": "won"}
    ways = (
        ("first round dropped", lambda d: d["rounds"].pop(0)),
        ("rounds dropped", lambda d: d["rounds"].clear()),
    )
    assert shortened(data, ways, limit=data_size(data)) is data
    one = shortened(data, ways, key="cut", limit=105)
    assert one == {"rounds": ["y" * 40], "result": "won", "cut": "first round dropped"}
    two = shortened(data, ways, key="cut", limit=60)
    assert two == {"rounds": [], "result": "won", "cut": "rounds dropped"}
    none = shortened(data, ways, key="cut", limit=10)
    assert none == two
    assert data["rounds"] == ["x" * 40, "y" * 40]
