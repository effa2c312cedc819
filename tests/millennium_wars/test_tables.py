"""The master workbook of a Millennium Wars game: a state in the middle of an impulse written
to a real .xlsx and read back the same; a referee's edits read with their checks."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from refassist.dice import Dice
from refassist.errors import MasterWorkbookError
from refassist.rulesets.base import Ruleset
from refassist.rulesets.millennium_wars import tables
from refassist.rulesets.millennium_wars.combat import Attack
from refassist.rulesets.millennium_wars.orders import Orders
from refassist.rulesets.millennium_wars.resolve import resolve_turn
from refassist.workbook.master import read_master, write_master

from .test_resolve import start


class Tables(Ruleset):  # the master-workbook part of the game, for this test only
    name = "mw-tables-test"
    title = "Millennium Wars tables"

    def schema(self) -> tuple[Any, ...]:
        return tables.SCHEMA

    def to_tables(self, state: Any) -> dict[str, list[dict[str, Any]]]:
        return tables.to_tables(state)

    def from_tables(self, rows: Any, problems: Any) -> Any:
        return tables.from_tables(rows, problems)

    def current_step(self, state: Any) -> Any:
        raise NotImplementedError

    def game_over(self, state: Any) -> str:
        raise NotImplementedError

    def players(self, state: Any) -> list[str]:
        raise NotImplementedError

    def report_map(self, state: Any) -> Any:
        raise NotImplementedError

    def player_content(self, view: Any, info: Any, public: Any) -> Any:
        raise NotImplementedError

    def referee_content(self, state: Any, info: Any, public: Any) -> Any:
        raise NotImplementedError


RULESET = Tables()


def mid_impulse():  # type: ignore[no-untyped-def]
    """After Northland's first impulse sheet: moves made, an attack waiting, a unit lost."""
    state = start()
    state.unit("N-1AR").hex = "0804"
    orders = Orders(
        "Ann",
        "1-1-1",
        attacks=[Attack(["N-1AR"], "0905", "raid", retreat={"N-1AR": ["0704"]}, advance=["N-1AR"])],
    )
    # Rolled before the sheet: Northland's air superiority (6).
    state.air, state.air_level = "Northland", "first superiority"
    state = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), {}).state
    lost = state.unit("S-4")
    state.units.remove(lost)
    lost.hex = ""
    state.lost.append(lost)
    state.sides[0].political_points = Fraction(5, 2)
    return state


def test_a_state_survives_the_master_workbook(tmp_path: Path) -> None:
    state = mid_impulse()
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    again = read_master(path, RULESET)
    assert tables.to_json(again) == tables.to_json(state)
    assert again.point.key == "1-1-1r" and again.air == "Northland"
    assert [a.hex for a in again.pending] == ["0905"]
    assert again.pending[0].retreat == {"N-1AR": ["0704"]}
    assert [u.id for u in again.lost] == ["S-4"] and again.unit("S-4") is None
    assert again.sides[0].political_points == Fraction(5, 2)
    assert again.scenario.text == state.scenario.text and len(again.units) == 14
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames[:6] == ["About", "Settings", "Sides", "Units", "Objectives", "Attacks"]
    assert wb["Events"]["B1"].value == "Turn"


def test_a_referees_edit_of_the_scenario_is_checked_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, start())
    wb = openpyxl.load_workbook(path)
    ws = wb["Scenario"]
    for row in ws.iter_rows(min_row=2):
        if row[1].value == 'hex = "0303"':
            row[1].value = 'hex = "1309"'
    wb.save(path)
    with pytest.raises(MasterWorkbookError) as caught:
        read_master(path, RULESET)
    assert "1309 is off the 12 x 8 map" in str(caught.value.problems[0])


def test_a_referees_edit_of_a_waiting_attack_is_pinned_to_its_cell(tmp_path: Path) -> None:
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, mid_impulse())
    wb = openpyxl.load_workbook(path)
    ws = wb["Attacks"]
    header = [c.value for c in ws[1]]
    ws.cell(2, header.index("Retreats") + 1, "N-1AR 0704")  # the colon forgotten
    wb.save(path)
    with pytest.raises(MasterWorkbookError) as caught:
        read_master(path, RULESET)
    problem = caught.value.problems[0]
    assert problem.sheet == "Attacks" and "UNIT: HEX HEX" in problem.message


def test_a_master_from_before_the_sides_beliefs_starts_them_from_the_holders(
    tmp_path: Path,
) -> None:
    """A game under way when the sides' beliefs about the objectives were added: its master
    has no such columns, reads without a problem, and each side believes the holders as they
    are (what every report showed until then)."""
    state = mid_impulse()
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    wb = openpyxl.load_workbook(path)
    sheet = wb["Objectives"]
    headers = [c.value for c in sheet[1]]
    for header in ("Second Player knows", "First Player knows"):
        sheet.delete_cols(headers.index(header) + 1)
    wb.save(path)
    again = read_master(path, RULESET)
    assert again.held == state.held and any(again.held.values())
    for side in (state.first.name, state.second.name):
        assert again.known[side] == again.held


def test_a_master_from_before_the_by_mail_sequence_reads(tmp_path: Path) -> None:
    """A game under way when the last impulse, the reserves named, the guerrillas to place and
    the turn so far were added: its master has none of them and reads, as a game where no
    one declared a last impulse, named reserves or waits to place guerrillas."""
    state = mid_impulse()
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    wb = openpyxl.load_workbook(path)
    for sheet_name, header in (
        ("Settings", "Last impulse"),
        ("Sides", "Reserves named"),
        ("Units", "To place"),
    ):
        sheet = wb[sheet_name]
        headers = [c.value for c in sheet[1]]
        sheet.delete_cols(headers.index(header) + 1)
    del wb["Earlier"]
    wb.save(path)
    again = read_master(path, RULESET)
    assert not again.last_impulse and again.earlier == [] and again.placing == []
    assert [u.id for u in again.units] == [u.id for u in state.units]
