"""The campaign's sheets written, filled in as a commander (or the referee) would, and read
back: the set-up, a week's orders with timelines and fleets, and a battle's result."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from refassist.dice import Dice
from refassist.errors import UsageError
from refassist.rulesets.full_thrust.orders import (
    FleetOrder,
    Mission,
    Orders,
    Purchase,
    ResearchOrder,
)
from refassist.rulesets.full_thrust.parse import activity_text
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.sheet import (
    fill_sheet,
    orders_text,
    read_sheet,
    write_sheet,
)
from refassist.rulesets.full_thrust.state import BattleResult, Facility
from refassist.rulesets.full_thrust.validate import validate_orders

from .situations import seed_map, ship, week_orders

RULES = complete()


def test_the_set_up_sheet_round_trip(tmp_path: Path) -> None:
    state = seed_map(week=0)
    state.commanders[0].points = 5000
    path = tmp_path / "setup.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="Friday")
    orders = Orders(
        "Ann", 0, purchases=[Purchase("Packet merchant", 2), Purchase("Bastion battleship", 1)]
    )
    fill_sheet(path, orders)
    read = read_sheet(path)
    assert read.problems == []
    assert [(p.design, p.count) for p in read.orders.purchases] == [
        ("Packet merchant", 2),
        ("Bastion battleship", 1),
    ]
    assert read.meta["kind"] == "setup" and read.meta["step"] == "0"
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames[:2] == ["Set-up", "Designs"]
    assert "5000 points" in str(wb["Set-up"]["A2"].value)


def test_a_weeks_orders_round_trip(tmp_path: Path) -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "A")
    ship(state, "ANN-3", "Halberd frigate", "Ann", "A")
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    path = tmp_path / "week.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="Friday")
    orders = week_orders(
        "Ann",
        ANN_1=["load 200", 'jump B 60" b4', "land", "sell all", "lift", "at 5.1 jump C"],
        Escort=["jump D", "guard until 7.0"],
    )
    orders.fleets.append(FleetOrder("Escort", ["ANN-2", "ANN-3"]))
    orders.purchases.append(Purchase("Halberd frigate", 2, "A"))
    orders.purchases.append(Purchase("spy", 1))
    orders.research = ResearchOrder(rolls=2, aim=15, develop="", points=0)
    orders.missions.append(Mission(2, 1, "Bob", "industry", 100))
    orders.missions.append(Mission(1, 0, "Ann", "counter-espionage"))
    orders.allies = ["Cleo"]
    orders.message = "Hello referee"
    fill_sheet(path, orders)
    read = read_sheet(path)
    assert read.problems == []
    got = read.orders
    assert [(t.unit, [activity_text(a) for a in t.activities]) for t in got.timelines] == [
        ("ANN-1", ["load 200", 'jump B 60" b4', "land", "sell all", "lift", "at 5.1 jump C"]),
        ("Escort", ["jump D", "guard until 7.0"]),
    ]
    assert got.timelines[0].activities[1].cell == "Timelines!C7"
    assert [(f.name, f.ships) for f in got.fleets] == [("Escort", ["ANN-2", "ANN-3"])]
    assert [(p.design, p.count, p.place) for p in got.purchases] == [
        ("Halberd frigate", 2, "A"),
        ("spy", 1, ""),
    ]
    assert (got.research.rolls, got.research.aim) == (2, 15)
    assert [(m.target, m.subject, m.points) for m in got.missions] == [
        ("Bob", "industry", 100),
        ("Ann", "counter-espionage", 0),
    ]
    assert got.allies == ["Cleo"] and got.message == "Hello referee"
    text = orders_text(got)
    assert "Fleet Escort: ANN-2 ANN-3" in text and "Allied with Cleo" in text
    # The orders as read resolve: the cruiser and frigate go to D together as one fleet.
    after = resolve_turn(state, {"Ann": got}, Dice.scripted([4] + [1] * 20), RULES).state
    assert after.ship("ANN-2").place == "D" and after.ship("ANN-3").place == "D"


def test_unreadable_timeline_lines_are_pinned_to_their_cell(tmp_path: Path) -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A")
    path = tmp_path / "week.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="Friday")
    wb = openpyxl.load_workbook(path)
    ws = wb["Timelines"]
    ws["C6"] = "fly to B"
    ws["B7"] = "3.15"
    ws["C7"] = "land"
    ws["C26"] = "jump B"  # a fleet block without a fleet's name
    wb.save(path)
    problems = read_sheet(path).problems
    assert [(p.sheet, p.cell) for p in problems] == [
        ("Timelines", "C6"),
        ("Timelines", "C7"),
        ("Timelines", "B25"),
    ]
    assert "'fly' is not an activity" in problems[0].message


def test_the_battle_sheet_shows_the_forces_and_reads_the_result(tmp_path: Path) -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", cargo=300)
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B", crack=True)
    waiting = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=['jump B 45" b9'])}, Dice.scripted([3, 8]), RULES
    ).state
    (battle,) = waiting.battles
    path = tmp_path / "battle.xlsx"
    write_sheet(waiting, battle.id, path, token="t", deadline="")
    ws = openpyxl.load_workbook(path)["Battle"]
    # Bob's destroyer was there when Ann's merchant came: it comes first.
    assert ws["A13"].value == "BOB-1" and ws["F13"].value == "yes" and ws["H13"].value == '30" b6'
    assert ws["A14"].value == "ANN-1" and ws["H14"].value == '45" b9 (3" b8)'
    assert ws["E14"].value == 300
    assert "B has a planet of Value 3" in str(ws["E3"].value)
    fill_sheet(
        path, BattleResult(battle.id, destroyed=["BOB-1"], damage={"ANN-1": 2}, holder="Ann")
    )
    read = read_sheet(path)
    assert read.problems == [] and read.meta["step"] == "1-battles"
    result = read.orders
    assert (result.battle, result.destroyed, result.damage, result.holder) == (
        battle.id,
        ["BOB-1"],
        {"ANN-1": 2},
        "Ann",
    )
    assert orders_text(result) == [
        "BOB-1 destroyed",
        "ANN-1 loses 2 damage boxes",
        "Ann holds the system",
    ]


def test_a_sheet_for_someone_else_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a commander"):
        write_sheet(seed_map(), "Zed", tmp_path / "x.xlsx", token="t", deadline="")


def test_the_battle_sheet_notes_what_the_tabletop_needs() -> None:
    """The seed's battle notes (L97-104, L276-279): a port's sensors and fire control, ramming
    in defence of a home system, scans and screens, orphaned fighters, boarding pods."""
    from refassist.rulesets.full_thrust.sheet import table_notes
    from refassist.rulesets.full_thrust.state import Battle, InBattle

    state = seed_map()
    state.commander("Bob").developed = ["Boarding Pods"]
    battle = Battle(
        "B1-1",
        1,
        "A",
        5,
        [
            InBattle("ANN-1", "Ann", "Aerie carrier"),
            InBattle("BOB-1", "Bob", "Claymore cruiser"),
        ],
    )
    notes = table_notes(state, battle)
    # A: Ann's home, Value 4, a starport: superior sensors, 4 // 2 = 2 fire-control units.
    assert notes[0] == "A has a planet of Value 4."
    assert notes[1] == "Its starport counts as superior sensors with 2 fire-control units."
    assert notes[2] == "Ann defends a home system: its ramming is automatic."
    assert "stacked screens count three levels" in notes[3]
    assert "twice its own fighters orphaned" in notes[4]
    assert notes[5].startswith('Boarding pods (Bob): range 9", at most 3" a turn')
    # A battle at a wormhole of two escorts, nobody with pods: only the scan and screen rule.
    state.commander("Bob").developed = []
    plain = Battle(
        "B1-2",
        1,
        "Gate",
        5,
        [InBattle("ANN-2", "Ann", "Halberd frigate"), InBattle("BOB-2", "Bob", "Halberd frigate")],
    )
    assert len(table_notes(state, plain)) == 1
    # D: Bob's home, Value 1, a starport: at least one unit, said in the singular.
    at_d = Battle("B1-3", 1, "D", 5, [InBattle("BOB-3", "Bob", "Halberd frigate")])
    assert table_notes(state, at_d)[1] == (
        "Its starport counts as superior sensors with 1 fire-control unit."
    )


def test_a_ship_finished_last_week_is_ordered_on_this_weeks_sheet(tmp_path: Path) -> None:
    """Issue 50: a frigate ordered in week 1 enters service as week 2 begins; the week-2
    sheet gives it a timeline block, the checker takes its timeline and the week runs it.  A
    ship laid down in week 2 is still being built on the same sheet."""
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    state.stocks[("A", "Ann")] = 1000
    ordered = Orders("Ann", 1, purchases=[Purchase("Halberd frigate", 1, "A")])
    after = resolve_turn(state, {"Ann": ordered}, Dice.scripted([1] * 10), RULES).state
    assert (after.week, after.ship("ANN-1").ready_week) == (2, 2)
    ship(after, "ANN-9", "Halberd frigate", "Ann", "A", ready_week=3)  # laid down this week
    path = tmp_path / "week2.xlsx"
    write_sheet(after, "Ann", path, token="t", deadline="Friday")
    wb = openpyxl.load_workbook(path)
    blocks = [str(c.value) for c in wb["Timelines"]["B"] if c.value]
    assert "ANN-1" in blocks and "ANN-9" not in blocks
    forces = " ".join(str(c.value) for c in wb["Your forces"]["A"] if c.value)
    assert "ANN-1 Halberd frigate at A" in forces and "enters service this week" in forces
    assert "ANN-9" in forces and "(in service week 3)" in forces
    fill_sheet(path, week_orders("Ann", 2, ANN_1=["jump B"]))
    read = read_sheet(path)
    assert read.problems == []
    assert validate_orders(after, "Ann", read.orders, RULES) == []
    late = week_orders("Ann", 2, ANN_9=["jump B"])
    assert [p.message for p in validate_orders(after, "Ann", late, RULES)] == [
        "ANN-9 is not one of your ships in service nor a fleet of this sheet"
    ]
    fleet = Orders("Ann", 2, fleets=[FleetOrder("Pair", ["ANN-1", "ANN-9"])])
    assert "ANN-9 is still being built" in [
        p.message for p in validate_orders(after, "Ann", fleet, RULES)
    ]
    week2 = resolve_turn(after, {"Ann": read.orders}, Dice.scripted([1] * 20), RULES).state
    assert week2.ship("ANN-1").place == "B"


def test_the_design_list_gives_fire_control_and_ortillery(tmp_path: Path) -> None:
    """Issue 50: the set-up sheet's design list left out what scans and invasions use."""
    state = seed_map(week=0)
    path = tmp_path / "setup.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="Friday")
    lines = [str(c.value) for c in openpyxl.load_workbook(path)["Designs"]["A"] if c.value]
    assert any(line.endswith("boxes, fire control, ortillery") for line in lines)
    assert (
        "Partisan heavy cruiser: mass 80, cost 276, cruiser, warship, hold 0, FTL, 24 boxes, "
        "3 fire-control units, 1 ortillery system" in lines
    )
    assert any(
        line.startswith("Packet merchant:")
        and line.endswith(", 1 fire-control unit, 0 ortillery systems")
        for line in lines
    )
