"""A new campaign: commanders at their homes, and the state through the master workbook and
back (written by the engine as a referee opens it, read and checked as after a hand edit)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import openpyxl
import pytest

from refassist.dice import Dice
from refassist.errors import MasterWorkbookError, SetupError
from refassist.rulesets.base import NewGame, PlayerSetup, Ruleset, Step
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.setup import new_game, ship_code
from refassist.rulesets.full_thrust.state import Battle, InBattle, Ship, State
from refassist.workbook.master import read_master, write_master


class Campaign(Ruleset[State, Any]):
    """The game's modules through the engine's interface, before the game is registered."""

    name: ClassVar[str] = "campaign-under-test"
    title: ClassVar[str] = "Campaign under test"
    package: ClassVar[str] = "refassist.rulesets.full_thrust"

    def current_step(self, state: State) -> Step:
        return Step(str(state.week), f"Week {state.week}", ())

    def game_over(self, state: State) -> str:
        return state.finished

    def players(self, state: State) -> list[str]:
        return [c.name for c in state.commanders]

    # Reports are not what these tests look at.
    def report_map(self, state: State) -> Any:
        raise AssertionError("not used by the workbook tests")

    def player_content(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("not used by the workbook tests")

    def referee_content(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("not used by the workbook tests")


def players(*homes: str) -> tuple[PlayerSetup, ...]:
    names = ("Ann", "Bob", "Cleo", "Anna")
    return tuple(
        PlayerSetup(names[i], f"{names[i].lower()}@example.com", home)
        for i, home in enumerate(homes)
    )


def start(*homes: str, dice: list[int] | None = None) -> State:
    setup = NewGame("Marches", "g1", players(*homes), {})
    return new_game(setup, Dice.scripted(dice or []), complete())


def test_commanders_start_at_the_home_they_asked_for_or_one_drawn() -> None:
    # Ann asks for Solace; Bob draws from the seven left (a 3: Myrrhen), Cleo from six (a 1).
    state = start("solace", "", "", dice=[3, 1])
    homes = {c.name: c.home for c in state.commanders}
    assert homes == {"Ann": "Solace", "Bob": "Myrrhen", "Cleo": "Kell"}
    assert [r.purpose for r in state.dice] == []  # the set-up's dice are not a turn's
    assert state.systems["Solace"].owner == "Ann" and state.systems["Brenn"].owner == ""
    assert all(c.points == 5000 and (c.spies, c.master_spies) == (5, 1) for c in state.commanders)
    assert sorted((f.id, f.place) for f in state.facilities) == [
        ("ANN-YARD", "Solace"),
        ("BOB-YARD", "Myrrhen"),
        ("CLE-YARD", "Kell"),
    ]
    assert state.week == 0 and state.map_source == "kell.toml" and len(state.designs) == 11


def test_set_up_problems() -> None:
    with pytest.raises(SetupError, match="at least two"):
        start("")
    with pytest.raises(SetupError, match="'Atlantis' is not a home system"):
        start("Atlantis", "")
    with pytest.raises(SetupError, match="two commanders asked for Kell"):
        start("Kell", "kell")


def test_ship_prefixes_are_unique() -> None:
    taken: set[str] = set()
    assert [ship_code(n, taken) for n in ("Ann", "Anna", "annie", "Ö", "7")] == [
        "ANN",
        "ANN2",
        "ANN3",
        "CMD",
        "CMD2",
    ]


def test_the_state_survives_the_master_workbook(tmp_path: Path) -> None:
    ruleset = Campaign()
    state = start("Kell", "Tiberis")
    state.ships.append(Ship("ANN-1", "Packet merchant", "Ann", "Brenn", fuel=7, cargo=300))
    state.stocks[("Brenn", "Ann")] = 150
    state.commanders[0].discoveries = ["Rail Guns", "Armour"]
    state.commanders[0].allies = ["Bob"]
    state.commanders[0].half_cost = ["Armour"]
    state.battles.append(
        Battle("B1-1", 1, "Brenn", 31, [InBattle("ANN-1", "Ann", "Packet merchant", 2, cargo=300)])
    )
    path = tmp_path / "master.xlsx"
    write_master(path, ruleset, state)
    again = read_master(path, ruleset)
    assert ruleset.to_json(again) == ruleset.to_json(state)


def test_a_master_from_before_the_half_cost_column_still_loads(tmp_path: Path) -> None:
    """A campaign begun before the column was added: its master reads as no half-cost
    fields, and is written back with the column."""
    ruleset = Campaign()
    state = start("Kell", "Tiberis")
    path = tmp_path / "master.xlsx"
    write_master(path, ruleset, state)
    wb = openpyxl.load_workbook(path)
    commanders = wb["Commanders"]
    header = [c.value for c in commanders[1]]
    commanders.delete_cols(header.index("Half cost") + 1)
    wb.save(path)
    again = read_master(path, ruleset)
    assert [c.half_cost for c in again.commanders] == [[], []]
    write_master(path, ruleset, again)
    assert "Half cost" in [c.value for c in openpyxl.load_workbook(path)["Commanders"][1]]


def test_a_hand_edit_that_breaks_the_game_is_pinned_to_its_cells(tmp_path: Path) -> None:
    ruleset = Campaign()
    state = start("Kell", "Tiberis")
    state.ships.append(Ship("ANN-1", "Packet merchant", "Ann", "Brenn"))
    path = tmp_path / "master.xlsx"
    write_master(path, ruleset, state)
    wb = openpyxl.load_workbook(path)
    ships = wb["Ships"]
    header = [c.value for c in ships[1]]
    ships.cell(2, header.index("Cargo") + 1, 999)
    ships.cell(2, header.index("Place") + 1, "Atlantis")
    wb["Systems"]["B2"] = "2505"
    wb.save(path)
    with pytest.raises(MasterWorkbookError) as caught:
        read_master(path, ruleset)
    text = "\n".join(str(p) for p in caught.value.problems)
    assert "Atlantis" in text and "is not a system or wormhole of the map" in text
    # The references come first; with Place fixed, the game's own checks speak.
    ships.cell(2, header.index("Place") + 1, "Brenn")
    wb.save(path)
    with pytest.raises(MasterWorkbookError) as caught:
        read_master(path, ruleset)
    text = "\n".join(str(p) for p in caught.value.problems)
    assert "outside the 20 x 14 grid" in text and "more than the hold" in text


def test_the_history_sheets_say_week_and_older_masters_saying_year_still_load(
    tmp_path: Path,
) -> None:
    ruleset = Campaign()
    state = start("Kell", "Tiberis")
    path = tmp_path / "master.xlsx"
    write_master(path, ruleset, state)
    wb = openpyxl.load_workbook(path)
    assert (wb["Events"]["B1"].value, wb["Dice"]["B1"].value) == ("Week", "Dice turn")
    wb["Events"]["B1"] = "Year"  # as every game's master said before
    wb["Dice"]["B1"] = "Year"
    wb.save(path)
    assert ruleset.to_json(read_master(path, ruleset)) == ruleset.to_json(state)
