"""The Imperium 3rd Millennium turn sheet: writing, reading back, filling in, reading problems
pinned to cells, the checker's rules (each with a failing and a passing case), the engine's
check of a whole sheet, and a round trip through LibreOffice."""

from __future__ import annotations

import re
import tempfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from refassist.dice import Dice
from refassist.errors import CellProblem, NotATurnSheet, UsageError
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.imperium_3m import sheet as layout
from refassist.rulesets.imperium_3m.orders import (
    Activation,
    Arrival,
    BattleOrders,
    Build,
    CloseOutOrder,
    Orders,
    PlanetDefence,
    PlanetOrder,
)
from refassist.rulesets.imperium_3m.parse import parse_actions
from refassist.rulesets.imperium_3m.rules import HOUSE_RULES
from refassist.rulesets.imperium_3m.setup import new_game
from refassist.rulesets.imperium_3m.sheet import fill_sheet, orders_text, read_sheet, write_sheet
from refassist.rulesets.imperium_3m.state import (
    Fleet,
    GameMap,
    Planet,
    Queued,
    Route,
    SideState,
    State,
    System,
    Unit,
)
from refassist.rulesets.imperium_3m.validate import validate_orders
from refassist.store.game import Game
from refassist.store.turnsheets import check_sheet, write_sheets
from refassist.workbook.sheetio import META_SHEET
from refassist.workbook.turnbook import LISTS_SHEET
from tests.libreoffice import through_libreoffice

RULES = {r.key: r.default for r in HOUSE_RULES}


def real_state() -> State:
    players = (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com"))
    return new_game(NewGame("Test", "id", players, {}), Dice(seed=1), {})


@pytest.fixture
def state() -> State:
    return real_state()


@pytest.fixture
def terran_sheet(tmp_path: Path, state: State) -> Path:
    path = tmp_path / "Terra.xlsx"
    write_sheet(state, "Terra", path, token="tok-t", deadline="Friday 18:00")
    return path


@pytest.fixture
def imperial_sheet(tmp_path: Path, state: State) -> Path:
    path = tmp_path / "Empire.xlsx"
    write_sheet(state, "Empire", path, token="tok-i", deadline="Friday 18:00")
    return path


def act(segment: int, order: int, system: str, text: str) -> Activation:
    row = layout.segment_rows(segment)[order - 1]
    return Activation(segment, order, system, parse_actions(text), cell=f"Orders!D{row}")


def key(orders: Orders) -> dict[str, Any]:
    """What a read gives back, without cells and echo texts."""
    return {
        "side": orders.side,
        "appeal": orders.appeal,
        "builds": [(b.code, b.count, b.world) for b in orders.builds],
        "terraform": [p.planet for p in orders.terraform],
        "upgrades": [p.planet for p in orders.upgrades],
        "activations": [
            (
                a.segment,
                a.order,
                a.system,
                [
                    (x.kind, x.fleet, x.route, x.planet, x.units, x.hexes, x.target)
                    for x in a.actions
                ],
            )
            for a in orders.activations
        ],
        "battle": [
            (b.fleet, b.stance, b.priority, b.break_off, b.retreat, b.stealth)
            for b in orders.battle_orders
        ],
        "attack choices": [(x.bombard, x.fight) for a in orders.activations for x in a.actions],
        "standing": (
            orders.stockpile_upkeep,
            orders.forces_world,
            orders.crisis_ships,
            orders.reinforcement_capital,
        ),
        "defences": [(d.planet, d.fighters_attack, d.placement) for d in orders.defences],
        "bombard": orders.bombard_priority,
        "close_out": [(c.kind, c.units) for c in orders.close_out],
        "message": orders.message,
    }


def rich_terran_orders() -> Orders:
    o = Orders(player="Terra", side="Terran", turn=1)
    o.builds = [
        Build("DD", 2, "SOL1"),
        Build("TR", 1),
        Build("OP", 1, "ACA1"),
        Build("PD", 1, "T2"),  # arrive aboard T2
    ]
    o.terraform = [PlanetOrder("BAR1")]
    o.stockpile_upkeep = False
    o.defences = [
        PlanetDefence("SOL1", "fighters", {"PD1": 2, "F1": 3}),
        PlanetDefence("ACA1"),
    ]
    o.activations = [
        act(1, 1, "SOL", "T1 split T9 DD1 DD2; T9 > BAR"),
        act(1, 2, "ACE", "T2 > TAU > PRO"),
        act(1, 3, "SOL", "T1 load RT1 from SOL1"),
        act(2, 1, "PRO", "T2 attack PRO4 1,1,3"),
        act(2, 2, "BAR", "T9 join T3"),
        act(2, 3, "", "pass"),
        act(3, 1, "SOL", "T1 unload RT1 to SOL2"),
        act(4, 1, "PRO", "T2 evacuate PRO4"),
        act(4, 2, "PRO", "T2 attack PRO3 auto no bombard fight 2,3"),
        act(4, 3, "PRO", "attack PRO4 fight none"),
    ]
    o.battle_orders = [
        BattleOrders("T1", "stand off", "carrier", 2),
        BattleOrders("T2", "hold", "cheapest", 0, retreat="home"),
        BattleOrders("T9", "close", "transport", 3, retreat="back", stealth=False),
    ]
    o.bombard_priority = "F"
    o.close_out = [
        CloseOutOrder("scrap", ["DD3"]),
        CloseOutOrder("repair", ["CA1"]),
        CloseOutOrder("ground repair", ["PD1", "RT2"]),
        CloseOutOrder("augment", ["F1", "F2"]),
    ]
    o.message = "Greetings from Sol; = not a formula"
    return o


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def test_empty_sheets_read_as_no_orders(terran_sheet: Path, imperial_sheet: Path) -> None:
    for path, side in ((terran_sheet, "Terran"), (imperial_sheet, "Imperial")):
        got = read_sheet(path)
        assert got.problems == []
        assert key(got.orders) == key(Orders(player="", side=side, turn=1))
        assert orders_text(got.orders) == ["No orders."]
        assert got.meta["step"] == "1" and got.meta["side"] == side


def test_meta_sheet_is_very_hidden_and_signed(terran_sheet: Path) -> None:
    wb = openpyxl.load_workbook(terran_sheet)
    assert wb[META_SHEET].sheet_state == "veryHidden"
    assert wb[LISTS_SHEET].sheet_state == "hidden"
    meta = {r[0]: r[1] for r in wb[META_SHEET].iter_rows(values_only=True)}
    assert meta["ruleset"] == "imperium-3m"
    assert meta["token"] == "tok-t"
    assert meta["player"] == "Terra"
    assert "I1" not in meta["fleets"] and "T1" in meta["fleets"]  # only own fleet names


def test_title_block_shows_the_sides_figures(terran_sheet: Path, state: State) -> None:
    ws = openpyxl.load_workbook(terran_sheet)[layout.ORDERS_SHEET]
    assert ws[layout.SIDE_CELL].value == "Terran"
    assert ws[layout.PLAYER_CELL].value == "Terra"
    assert ws[layout.DEADLINE_CELL].value == "Friday 18:00"
    assert ws[layout.RESOURCES_CELL].value == state.sides["Terran"].resources
    assert ws[layout.GLORY_CELL].value == 5
    assert "Terran at 0 or less, Imperial at 10 or more" in ws[layout.VICTORY_CELL].value
    assert "war 1, turn 1" in ws[layout.TURN_CELL].value


def test_protection_and_input_cells(terran_sheet: Path) -> None:
    ws = openpyxl.load_workbook(terran_sheet)[layout.ORDERS_SHEET]
    assert ws.protection.sheet
    for ref in ("B14", "C14", "D14", "B27", "D27", "C34", "D34", "C67", "B91", "C91", "D87"):
        assert ws[ref].protection.locked is False, ref
    for ref in ("A1", "B3", "E14", layout.APPEAL_CELL):
        assert ws[ref].protection.locked is not False, ref
    assert ws.page_setup.paperSize == 9
    assert ws.print_area is not None


def _validations(path: Path) -> tuple[dict[str, str], Any]:
    wb = openpyxl.load_workbook(path)
    ws = wb[layout.ORDERS_SHEET]
    found = {}
    for dv in ws.data_validations.dataValidation:
        for rng in str(dv.sqref).split():
            found[rng.split(":")[0]] = dv.formula1 or ""
    return found, wb


def _list_values(wb: Any, formula: str) -> list[str]:
    if formula.startswith('"'):
        return formula.strip('"').split(",")
    col = formula.split("!$")[1][0]
    return [c.value for c in wb[LISTS_SHEET][col] if c.value]


def test_dropdowns_from_the_unit_list_and_the_map(terran_sheet: Path, imperial_sheet: Path) -> None:
    found, wb = _validations(terran_sheet)
    systems = _list_values(wb, found["C34"])
    assert {"SOL", "PRO", "DIN", "GULF1"} <= set(systems)
    units = _list_values(wb, found["B14"])
    assert "DD" in units and "B" in units and "BB" not in units  # no BB before a B is lost
    assert _list_values(wb, found["C67"]) == ["close", "stand off", "hold"]
    assert _list_values(wb, found["D87"]) == ["PD", "F"]
    assert "ground repair" in _list_values(wb, found["B91"])
    assert layout.APPEAL_CELL not in found  # no Appeal on the Terran sheet
    found, wb = _validations(imperial_sheet)
    units = _list_values(wb, found["B14"])
    # The restricted ships are listed: this turn's Appeal may permit them before construction.
    assert "DD" in units and "CA" in units and "TB" not in units
    prompts = {
        str(d.sqref).split(":")[0]: d.prompt
        for d in wb[layout.ORDERS_SHEET].data_validations.dataValidation
    }
    assert "built only if this turn's Appeal (Forces) grants it" in prompts["B14"]
    assert _list_values(wb, found[layout.APPEAL_CELL]) == ["Forces", "Finances"]
    assert "permissions (8 CR/CA, 9 B1" in prompts[layout.APPEAL_CELL]
    ws = wb[layout.ORDERS_SHEET]
    dv = next(d for d in ws.data_validations.dataValidation if "D34" in str(d.sqref))
    assert "T1 > TAU > PRO" in dv.prompt


def test_your_forces_lists_fleets_planets_and_costs(terran_sheet: Path, state: State) -> None:
    ws = openpyxl.load_workbook(terran_sheet)[layout.FORCES_SHEET]
    text = "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    assert "T1 at SOL (Sol): B1, CA1" in text
    assert "SOL1 Sol 1 (SOL) A1, 7 hexes World:" in text
    # Nothing of the enemy's forces; the map's planets (codes, public markers) are listed.
    words = set(re.findall(r"[A-Z0-9-]+", text))
    imperial = {u.id for u in state.units if u.side == "Imperial"}
    imperial |= {f.name for f in state.fleets if f.side == "Imperial"}
    assert not (words & imperial - {u.id for u in state.units if u.side == "Terran"})
    assert all(code in words for code in state.map.planets)
    assert "GAS1 Gashidda 1 (GAS) A1, 6 hexes - Imperial World" in text
    row = layout.UNIT_FIRST_ROW
    assert ws[f"A{row}"].value == "BB" and ws[f"C{row}"].value == 24


def test_unknown_player_is_refused(tmp_path: Path, state: State) -> None:
    with pytest.raises(UsageError, match="not a player"):
        write_sheet(state, "Nobody", tmp_path / "x.xlsx", token="t", deadline="")


# --------------------------------------------------------------------------------------------
# Filling in and reading back
# --------------------------------------------------------------------------------------------


def test_fill_then_read_gives_the_same_orders(terran_sheet: Path, state: State) -> None:
    orders = rich_terran_orders()
    fill_sheet(terran_sheet, orders)
    got = read_sheet(terran_sheet)
    assert got.problems == []
    assert key(got.orders) == key(orders)
    first = got.orders.activations[0]
    row = layout.segment_rows(1)[0]
    assert first.cell == f"Orders!D{row}"
    assert got.orders.builds[0].cell == "Orders!B14"
    assert got.orders.close_out[0].cell == "Orders!B91"
    text = orders_text(got.orders)
    assert "Segment 1, activation 1 at SOL: T1 split T9 DD1 DD2; T9 > BAR" in text
    assert "Build 2 x DD (Destroyer) at SOL1" in text
    assert "Battle orders T1: stand off, carrier first, break off after round 2" in text
    assert "Bombardment hits F first" in text
    assert "Close-out: ground repair PD1 RT2" in text
    assert "Segment 4, activation 2 at PRO: T2 attack PRO3 auto no bombard fight 2,3" in text
    assert "Segment 4, activation 3 at PRO: attack PRO4 fight none" in text
    assert "Standing order: no maintenance from the stockpile" in text
    assert "Defence of SOL1: fighters attack fighters first; PD1 in hex 2, F1 in hex 3" in text
    assert (
        "Battle orders T9: close, transport first, break off after round 3, retreat back, "
        "no stealth" in text
    )
    assert got.orders.defences[0].cell == "Orders!E27"
    assert "Message to the referee: Greetings from Sol; = not a formula" in text


def test_imperial_appeal_round_trip(imperial_sheet: Path) -> None:
    orders = Orders(player="Empire", side="Imperial", turn=1, appeal="Finances")
    fill_sheet(imperial_sheet, orders)
    got = read_sheet(imperial_sheet)
    assert got.orders.appeal == "Finances"
    assert got.orders.appeal_cell == f"Orders!{layout.APPEAL_CELL}"
    assert orders_text(got.orders) == ["Imperial Appeal: Finances"]


def test_the_appeal_is_read_from_a_locked_cell_too(imperial_sheet: Path) -> None:
    """A sheet saved as .ods or re-saved by Google Sheets says no cell is unlocked: the
    Appeal typed there is read all the same."""
    from openpyxl.styles import Protection

    workbook = openpyxl.load_workbook(imperial_sheet)
    cell = workbook["Orders"][layout.APPEAL_CELL]
    cell.value, cell.protection = "Forces", Protection(locked=True)
    workbook.save(imperial_sheet)
    assert read_sheet(imperial_sheet).orders.appeal == "Forces"


def test_the_appeal_cells_note_is_no_appeal(tmp_path: Path, state: State) -> None:
    """In peacetime the cell holds a locked note, read as no Appeal; an Appeal typed over it
    (the sheet unprotected) is read, and refused by the checker."""
    state.war_turn = 0
    path = tmp_path / "Empire.xlsx"
    write_sheet(state, "Empire", path, token="tok-i", deadline="Friday 18:00")
    assert (
        openpyxl.load_workbook(path)["Orders"][layout.APPEAL_CELL].value
        == "no Appeals in peacetime"
    )
    got = read_sheet(path)
    assert got.orders.appeal == "" and got.problems == []
    workbook = openpyxl.load_workbook(path)
    workbook["Orders"][layout.APPEAL_CELL] = "Forces"
    workbook.save(path)
    typed = read_sheet(path).orders
    assert typed.appeal == "Forces"
    problems = validate_orders(state, "Empire", typed, RULES)
    assert [p.message for p in problems if p.cell == layout.APPEAL_CELL] == [
        "there are no Imperial Appeals in peacetime"
    ]


def test_imperial_standing_orders_round_trip(imperial_sheet: Path) -> None:
    orders = Orders(
        player="Empire",
        side="Imperial",
        turn=1,
        forces_world="GAS1",
        crisis_ships=["CA1", "DD2"],
        reinforcement_capital="none",
    )
    fill_sheet(imperial_sheet, orders)
    got = read_sheet(imperial_sheet)
    assert got.problems == []
    assert key(got.orders) == key(orders)
    assert got.orders.standing_cells["forces_world"] == f"Orders!{layout.FORCES_WORLD_CELL}"
    assert "Standing order: in a Frontier Crisis give up CA1 DD2" in orders_text(got.orders)
    _type(imperial_sheet, {layout.REINFORCEMENT_CELL: "XX", layout.UPKEEP_CELL: "maybe"})
    problems = _by_cell(read_sheet(imperial_sheet).problems)
    assert "not a capital ship" in problems[layout.REINFORCEMENT_CELL].message
    assert "not yes or no" in problems[layout.UPKEEP_CELL].message


def test_fill_refuses_more_than_six_activations(terran_sheet: Path) -> None:
    orders = Orders(player="Terra", side="Terran", turn=1)
    orders.activations = [act(1, 1, "", "pass") for _ in range(7)]
    for n, a in enumerate(orders.activations):
        a.order = n + 1
    with pytest.raises(UsageError, match="7 activations in segment 1"):
        fill_sheet(terran_sheet, orders)


def _type(path: Path, values: dict[str, Any]) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb[layout.ORDERS_SHEET]
    for ref, value in values.items():
        ws[ref].value = value
        if isinstance(value, str):
            ws[ref].data_type = "s"
    wb.save(path)


def _by_cell(problems: list[CellProblem]) -> dict[str, CellProblem]:
    return {p.cell: p for p in problems}


def test_reading_problems_are_pinned_to_their_cells(imperial_sheet: Path) -> None:
    s1 = layout.segment_rows(1)
    s2 = layout.segment_rows(2)
    _type(
        imperial_sheet,
        {
            layout.APPEAL_CELL: "Money",
            "C14": 2,  # count without a unit
            "B15": "DD",
            "C15": "lots",
            f"C{s1[0]}": "DIN",
            f"D{s1[0]}": "I1 fly TAU",
            f"C{s1[1]}": "",
            f"D{s1[1]}": "I1 > NIP",  # no system
            f"C{s1[2]}": "GAS",  # no actions
            f"B{s1[3]}": "first",
            f"C{s1[3]}": "GAS",
            f"D{s1[3]}": "I2 > NIP",
            f"C{s2[0]}": "DIN",
            f"D{s2[0]}": "I1 > URU",
            f"B{s2[1]}": 1,  # same order as the line above
            f"C{s2[1]}": "GAS",
            f"D{s2[1]}": "I2 > NIP",
            "C67": "aggressive",
            "B68": "I2",
            "E68": "5",
            "B69": "",
            "C69": "close",  # battle orders without a fleet
            layout.BOMBARD_CELL: "ships",
            "B91": "burn",
            "C91": "DD1",
            "B92": "repair",
            "C92": "??",
            "B27": datetime(2026, 1, 2),
            layout.MESSAGE_CELL: "x" * 2100,
        },
    )
    got = read_sheet(imperial_sheet)
    cells = _by_cell(got.problems)
    expected = {
        layout.APPEAL_CELL: "'MONEY' is not an Appeal column",
        "B14": "names no unit",
        "C15": "'LOTS' is not a count",
        f"D{s1[0]}": "'FLY' is not an action word",
        f"C{s1[1]}": "no system is given",
        f"D{s1[2]}": "says nothing to do",
        f"B{s1[3]}": "'FIRST' is not a position",
        f"B{s2[1]}": "have the order 1",
        "C67": "'AGGRESSIVE' is not a stance",
        "E68": "'5' is not a round",
        "B69": "name no fleet",
        layout.BOMBARD_CELL: "not a bombardment priority",
        "B91": "'BURN' is not a close-out kind",
        "C92": "'??' is not a unit id",
        "B27": "date or time",
        layout.MESSAGE_CELL: "2100 characters",
    }
    for cell, words in expected.items():
        assert cell in cells, (cell, got.problems)
        assert words in cells[cell].message, (cell, cells[cell])
        assert cells[cell].sheet == "Orders" and cells[cell].severity == "error"
    assert cells[f"D{s1[0]}"].found == "I1 FLY TAU"
    assert len(got.problems) == len(expected)
    # the good lines were still read
    assert [(a.segment, a.system) for a in got.orders.activations] == [(2, "DIN")]


def test_choice_cells_read_their_words_and_pin_a_wrong_one(imperial_sheet: Path) -> None:
    """Each cell that takes one of a few words (battle orders, a defence's fighters, the
    standing orders) reads any spelling of them, and a wrong word is one problem on its cell
    that leaves the rest of its line out."""
    _type(
        imperial_sheet,
        {
            "B67": "I1",
            "C67": "Stand-off",
            "D67": "carriers",
            "E67": 2,
            "F67": "Home",
            "G67": "no",
            "B68": "I2",
            "D68": "biggest",
            "B69": "X9",
            "F69": "sideways",
            "B70": "X8",
            "G70": "maybe",
            "B71": "X7",
            "E71": 4,
            "B72": "X6",
            "E72": 0,
            "E27": "SOL1",
            "F27": "ships",
            "E28": "DIN1",
            "F28": "Fighters",
            layout.UPKEEP_CELL: "perhaps",
            layout.FORCES_WORLD_CELL: "DIN1",
            layout.CRISIS_CELL: "DD1, CR2",
            layout.REINFORCEMENT_CELL: "DD",
        },
    )
    got = read_sheet(imperial_sheet)
    assert {p.cell: p.message for p in got.problems} == {
        "D68": "'BIGGEST' is not a target priority",
        "F69": "'SIDEWAYS' is not a way to retreat",
        "G70": "'MAYBE' is not yes or no",
        "E71": "'4' is not a round to break off after",
        "F27": "'SHIPS' is not what fighters may attack",
        layout.UPKEEP_CELL: "'PERHAPS' is not yes or no",
        layout.REINFORCEMENT_CELL: "'DD' is not a capital ship that Imperial Reinforcements "
        "may bring",
    }
    fixes = {p.cell: p.fix for p in got.problems}
    assert fixes["E71"] == "Choose 1, 2 or 3, or leave it blank to fight all three rounds."
    assert fixes[layout.REINFORCEMENT_CELL] == "Choose one of CA, CR, B1, B2, BB, CS, CV, or none."
    o = got.orders
    assert [
        (b.fleet, b.stance, b.priority, b.break_off, b.retreat, b.stealth) for b in o.battle_orders
    ] == [
        ("I1", "stand off", "carrier", 2, "home", False),
        ("X6", "close", "capital", 0, "", True),
    ]
    assert [(d.planet, d.fighters_attack) for d in o.defences] == [("DIN1", "fighters")]
    blank = Orders(player="Empire", side="Imperial", turn=1)  # what a blank cell leaves
    assert (o.stockpile_upkeep, o.reinforcement_capital) == (
        blank.stockpile_upkeep,
        blank.reinforcement_capital,
    )
    assert (o.forces_world, o.crisis_ships) == ("DIN1", ["DD1", "CR2"])
    assert sorted(o.standing_cells) == ["crisis_ships", "forces_world"]


def test_formula_without_a_computed_value_is_an_error(terran_sheet: Path) -> None:
    wb = openpyxl.load_workbook(terran_sheet)
    wb[layout.ORDERS_SHEET]["B14"] = '="DD"'
    wb.save(terran_sheet)
    got = read_sheet(terran_sheet)
    assert [p.cell for p in got.problems] == ["B14"]
    assert got.problems[0].severity == "error"  # openpyxl saved no computed value


def test_other_ruleset_or_layout_is_refused(terran_sheet: Path) -> None:
    wb = openpyxl.load_workbook(terran_sheet)
    ws = wb[META_SHEET]
    for row in ws.iter_rows():
        if row[0].value == "format_version":
            row[1].value = "99"
    wb.save(terran_sheet)
    with pytest.raises(NotATurnSheet, match="layout version"):
        read_sheet(terran_sheet)


# --------------------------------------------------------------------------------------------
# The engine's check (refassist check / intake) and LibreOffice
# --------------------------------------------------------------------------------------------


@pytest.fixture
def game(tmp_path: Path) -> Game:
    players = [PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com")]
    return Game.create(tmp_path / "game", find_ruleset("imperium-3m"), players, seed=5)


def test_engine_check_accepts_a_filled_sheet(game: Game) -> None:
    state = game.load_state()
    paths = write_sheets(game, state)
    terra = next(p for p in paths if p.stem == "Terra")
    orders = Orders(player="Terra", side="Terran", turn=1)
    orders.activations = [act(1, 1, "SOL", "T1 > ACE > TAU")]
    orders.builds = [Build("DD", 1)]
    fill_sheet(terra, orders)
    result = check_sheet(terra, game)
    assert result.accepted, result.problems
    assert result.orders_text == [
        "Build 1 x DD (Destroyer)",
        "Segment 1, activation 1 at SOL: T1 > ACE > TAU",
    ]


def test_engine_check_refuses_orders_for_the_enemys_fleet(game: Game) -> None:
    state = game.load_state()
    paths = write_sheets(game, state)
    terra = next(p for p in paths if p.stem == "Terra")
    orders = Orders(player="Terra", side="Terran", turn=1)
    orders.activations = [act(1, 1, "DIN", "I1 > URU")]
    orders.battle_orders = [BattleOrders("I2", "hold")]
    fill_sheet(terra, orders)
    result = check_sheet(terra, game)
    assert not result.accepted
    messages = [p.message for p in result.errors]
    assert "I1 is not one of your fleets" in messages
    assert "I2 is not one of your fleets" in messages


def test_engine_refuses_a_sheet_whose_side_was_edited(game: Game) -> None:
    state = game.load_state()
    terra = next(p for p in write_sheets(game, state) if p.stem == "Terra")
    wb = openpyxl.load_workbook(terra)
    for row in wb[META_SHEET].iter_rows():
        if row[0].value == "side":
            row[1].value = "Imperial"
    wb.save(terra)
    result = check_sheet(terra, game)
    assert not result.accepted
    assert "plays Terran" in result.errors[0].message


def test_round_trip_through_libreoffice(tmp_path: Path, terran_sheet: Path) -> None:
    orders = rich_terran_orders()
    fill_sheet(terran_sheet, orders)
    converted = through_libreoffice(terran_sheet, tmp_path / "lo")
    got = read_sheet(converted)
    assert got.problems == []
    assert key(got.orders) == key(orders)
    assert got.meta["token"] == "tok-t"


# --------------------------------------------------------------------------------------------
# Validation: a small hand-built state
# --------------------------------------------------------------------------------------------


def tiny() -> State:
    """SOL - TAU - PRO - DIN in a line, TAU - GULF (deep space) - DIN; Terran SOL, Imperial DIN."""
    systems = {
        "SOL": System("SOL", "Sol", 0, 0, planets=["SOL1", "SOL2"]),
        "TAU": System("TAU", "Tau", 1, 0, planets=["TAU2", "TAU3", "TAU4"]),
        "PRO": System("PRO", "Procyon", 2, 0, planets=["PRO4"]),
        "DIN": System("DIN", "Dingir", 3, 0, planets=["DIN1"]),
        "GULF": System("GULF", "Gulf", 2, 1, deep=True),
    }
    planets = {
        "SOL1": Planet("SOL1", "Sol 1", "SOL", "A1", 4, "Terran", "World", home="Terran"),
        "SOL2": Planet("SOL2", "Sol 2", "SOL", "N1", 2, "Terran", "Outpost"),
        "TAU2": Planet("TAU2", "Tau 2", "TAU", "A3", 3),
        "TAU3": Planet("TAU3", "Tau 3", "TAU", "X1", 1),
        "TAU4": Planet("TAU4", "Tau 4", "TAU", "A2", 2, "Terran", "Outpost"),
        "PRO4": Planet("PRO4", "Procyon 4", "PRO", "A3", 5, "Imperial", "Outpost"),
        "DIN1": Planet("DIN1", "Dingir 1", "DIN", "A1", 6, "Imperial", "World", home="Imperial"),
    }
    routes = [
        Route("SOL", "TAU"),
        Route("TAU", "PRO"),
        Route("PRO", "DIN"),
        Route("TAU", "GULF"),
        Route("GULF", "DIN"),
    ]
    state = State(
        game_name="Tiny",
        game_id="tiny",
        map=GameMap("tiny", systems, planets, routes),
        sides={
            "Terran": SideState("Terran", "Terra", resources=20),
            "Imperial": SideState("Imperial", "Empire", resources=20),
        },
    )
    state.fleets = [
        Fleet("T1", "Terran", "SOL"),
        Fleet("T2", "Terran", "SOL"),
        Fleet("T3", "Terran", "GULF"),
        Fleet("I1", "Imperial", "DIN"),
        Fleet("I2", "Imperial", "PRO"),
    ]
    state.units = [
        Unit("CA1", "Terran", "CA", fleet="T1"),
        Unit("DD1", "Terran", "DD", fleet="T1"),
        Unit("TR1", "Terran", "TR", fleet="T1"),
        Unit("RT1", "Terran", "RT", fleet="T1", strength=5, reduced_strength=2),
        Unit("M1", "Terran", "M", fleet="T2"),
        Unit("DD2", "Terran", "DD", fleet="T3"),
        Unit("RT2", "Terran", "RT", planet="SOL1", strength=6, reduced_strength=2),
        Unit("PD1", "Terran", "PD", planet="SOL1"),
        Unit("F1", "Terran", "F", planet="SOL1", damaged=True),
        Unit("F2", "Terran", "F", planet="SOL1", damaged=True),
        Unit("PD2", "Terran", "PD", planet="SOL2", damaged=True),
        Unit("CA1", "Imperial", "CA", fleet="I1"),
        Unit("DD1", "Imperial", "DD", fleet="I1"),
        Unit("DD2", "Imperial", "DD", fleet="I2"),
    ]
    return state


def terran(*acts: Activation, **fields: Any) -> Orders:
    return Orders(player="Terra", side="Terran", turn=1, activations=list(acts), **fields)


def check(state: State, orders: Orders, **rules: Any) -> list[CellProblem]:
    return validate_orders(state, orders.player, orders, {**RULES, **rules})


def errors(state: State, orders: Orders, **rules: Any) -> list[str]:
    return [p.message for p in check(state, orders, **rules) if p.severity == "error"]


def warnings(state: State, orders: Orders, **rules: Any) -> list[str]:
    return [p.message for p in check(state, orders, **rules) if p.severity == "warning"]


def test_a_clean_plan_passes() -> None:
    orders = terran(
        act(1, 1, "SOL", "T1 > TAU"),
        act(2, 1, "TAU", "T1 unload RT1 to TAU2"),
        act(3, 1, "TAU", "T1 > PRO"),
        act(4, 1, "PRO", "T1 attack PRO4 auto"),
    )
    assert check(tiny(), orders) == []


def test_foreign_and_unknown_fleets_get_the_same_refusal() -> None:
    state = tiny()
    for name in ("I1", "ZZ9"):
        problems = check(state, terran(act(1, 1, "DIN", f"{name} > PRO")))
        assert [p.message for p in problems] == [f"{name} is not one of your fleets"]
        assert problems[0].cell == f"D{layout.segment_rows(1)[0]}"
    assert errors(state, terran(act(1, 1, "SOL", "T1 join I1"))) == ["I1 is not one of your fleets"]


def test_foreign_units_are_refused() -> None:
    state = tiny()
    # The Imperial side has a DD2 too; the Terran plan only knows its own DD2 (in T3).
    msgs = errors(state, terran(act(1, 1, "SOL", "T1 load XX1 from SOL1")))
    assert msgs == ["XX1 is not one of your units"]
    orders = terran(close_out=[CloseOutOrder("repair", ["ZZ3"], cell="Orders!B91")])
    assert errors(state, orders) == ["ZZ3 is not one of your units"]


def test_system_not_on_the_map_is_pinned_to_the_system_cell() -> None:
    problems = check(tiny(), terran(act(1, 1, "XYZ", "T1 > TAU")))
    assert [(p.cell, p.message) for p in problems] == [
        (f"C{layout.segment_rows(1)[0]}", "there is no system XYZ on the map")
    ]


def test_route_steps_must_be_adjacent() -> None:
    state = tiny()
    assert errors(state, terran(act(1, 1, "SOL", "T1 > PRO"))) == [
        "there is no jump route from SOL to PRO"
    ]
    assert errors(state, terran(act(1, 1, "SOL", "T1 > TAU > NOWHERE"))) == [
        "there is no system NOWHERE on the map"
    ]
    assert errors(state, terran(act(1, 1, "SOL", "T1 > TAU > PRO"))) == []


def test_fleet_must_be_where_the_activation_is() -> None:
    state = tiny()
    # In the same segment a fleet that moved away is not back: no line can find it at SOL.
    wrong = terran(act(1, 1, "SOL", "T1 > TAU"), act(1, 2, "SOL", "T1 > TAU"))
    assert errors(state, wrong) == [
        "T1 will be at TAU, not SOL, when this line comes up (following your earlier orders, "
        "whether or not the moves of earlier segments run)"
    ]
    never = terran(act(1, 1, "SOL", "T1 > TAU"), act(2, 1, "PRO", "T1 > DIN"))
    assert len(errors(state, never)) == 1
    right = terran(act(1, 1, "SOL", "T1 > TAU"), act(2, 1, "TAU", "T1 > PRO"))
    assert check(state, right) == []


def test_a_backup_line_is_checked_where_the_fleet_is_if_an_earlier_move_did_not_run() -> None:
    """Initiative decides how many lines run and a tie cancels a segment, so a line in a
    later segment may plan for the earlier move not having run; the checker says which case
    it checked, and checks it (a wrong backup is still an error)."""
    state = tiny()
    plan = terran(
        act(1, 1, "SOL", "T1 > TAU"),
        act(2, 1, "TAU", "T1 > PRO"),  # if segment 1 ran
        act(2, 2, "SOL", "T1 > TAU"),  # backup: if it did not
    )
    problems = check(state, plan)
    assert [p.severity for p in problems] == ["warning"]
    (note,) = problems
    assert note.cell == f"D{layout.segment_rows(2)[1]}"
    assert note.message.startswith(
        f"checked as a backup line: T1 is at SOL only if its move to TAU "
        f"(D{layout.segment_rows(1)[0]}, segment 1) did not run"
    )
    # The backup is checked in its case: SOL has no route to DIN.
    bad = terran(act(1, 1, "SOL", "T1 > TAU"), act(2, 1, "SOL", "T1 > DIN"))
    assert errors(state, bad) == ["there is no jump route from SOL to DIN"]
    # The main plan goes on from where every line leaves the fleet: PRO, not TAU.
    after = terran(*plan.activations, act(3, 1, "PRO", "T1 > TAU"))
    assert errors(state, after) == []


def test_one_unreadable_line_gives_one_message() -> None:
    """A typo ('lod') on the line that moves T1: the reader reports it; the checker does not
    add position errors for T1's later lines."""
    state = tiny()
    orders = terran(act(2, 1, "TAU", "T1 > PRO"))
    orders.unreadable = [
        Activation(
            1,
            1,
            "SOL",
            [],
            cell=f"Orders!D{layout.segment_rows(1)[0]}",
            text="T1 lod RT2 from SOL1; T1 > TAU",
        )
    ]
    assert check(state, orders) == []
    # Through a real sheet: the typo is the only problem.
    path = Path(tempfile.mkdtemp()) / "typo.xlsx"
    write_sheet(state, "Terra", path, token="t", deadline="")
    rows = layout.segment_rows(1)
    wb = openpyxl.load_workbook(path)
    ws = wb[layout.ORDERS_SHEET]
    ws[f"C{rows[0]}"], ws[f"D{rows[0]}"] = "SOL", "T1 lod RT2 from SOL1; T1 > TAU"
    ws[f"C{layout.segment_rows(2)[0]}"] = "TAU"
    ws[f"D{layout.segment_rows(2)[0]}"] = "T1 > PRO"
    wb.save(path)
    read = read_sheet(path)
    found = [*read.problems, *check(state, read.orders)]
    assert [p.cell for p in found] == [f"D{rows[0]}"]


def test_a_join_the_wrong_way_round_is_explained() -> None:
    state = tiny()
    state.fleets.append(Fleet("T4", "Terran", "SOL"))
    state.units.append(Unit("DD9", "Terran", "DD", fleet="T4"))
    problems = check(state, terran(act(1, 1, "SOL", "T4 join T1; T1 > TAU")))
    assert [p.message for p in problems] == [
        f"T1 no longer exists when this line comes up: 'T4 join T1' "
        f"(D{layout.segment_rows(1)[0]}) put its units into T4 and removed T1 (the fleet named "
        "first takes in the second)"
    ]
    assert problems[0].fix.startswith("To keep T1, write 'T1 join T4' there")


def test_moving_and_attacking_on_one_line_gets_the_right_advice() -> None:
    state = tiny()
    state.fleet("T1").system = "TAU"
    problems = check(state, terran(act(1, 1, "TAU", "T1 > PRO; T1 attack PRO4 auto")))
    assert [(p.message, p.fix) for p in problems] == [
        (
            "T1 moves to PRO on this line; moving and attacking a planet are separate "
            "activations in separate segments",
            "Attack PRO4 in a later segment, from a line activating PRO.",
        )
    ]


def test_monitors_never_move() -> None:
    state = tiny()
    assert errors(state, terran(act(1, 1, "SOL", "T2 > TAU"))) == [
        "T2 holds monitors, which never leave their system"
    ]
    # joined into T1, the monitor pins T1 too
    joined = terran(act(1, 1, "SOL", "T1 join T2; T1 > TAU"))
    assert errors(state, joined) == ["T1 holds monitors, which never leave their system"]


def test_movement_points_slowest_ship_and_damage() -> None:
    state = tiny()
    # T1 has a transport: 3 points.  SOL>TAU>GULF>DIN>PRO costs 4.
    far = terran(act(1, 1, "SOL", "T1 > TAU > GULF > DIN > PRO"))
    assert "the route costs 4 movement points but T1 has 3" in errors(state, far)[0]
    assert errors(state, terran(act(1, 1, "SOL", "T1 > TAU > PRO > DIN"))) == []
    damaged = tiny()
    next(u for u in damaged.units if u.id == "TR1").damaged = True
    msgs = errors(damaged, terran(act(1, 1, "SOL", "T1 > TAU > PRO > DIN")))
    assert "the route costs 3 movement points but T1 has 2" in msgs[0]
    long_route = tiny()
    long_route.map.routes[0] = Route("SOL", "TAU", 4)
    assert "costs 4" in errors(long_route, terran(act(1, 1, "SOL", "T1 > TAU")))[0]


def test_no_fleet_moves_twice_in_a_segment() -> None:
    state = tiny()
    twice = terran(act(1, 1, "SOL", "T1 > TAU"), act(1, 2, "TAU", "T1 > PRO"))
    assert errors(state, twice) == [
        "T1 already moved in segment 1; no unit moves twice in one segment"
    ]
    assert errors(state, terran(act(1, 1, "SOL", "T1 > TAU"), act(2, 1, "TAU", "T1 > PRO"))) == []


def test_moving_and_attacking_are_separate_activations() -> None:
    state = tiny()
    same = terran(act(1, 1, "SOL", "T1 > TAU > PRO"), act(1, 2, "PRO", "T1 attack PRO4 auto"))
    assert "separate activations" in errors(state, same)[0]
    later = terran(act(1, 1, "SOL", "T1 > TAU > PRO"), act(2, 1, "PRO", "T1 attack PRO4 1,5"))
    assert errors(state, later) == []
    bad_hex = terran(act(1, 1, "SOL", "T1 > TAU > PRO"), act(2, 1, "PRO", "T1 attack PRO4 6"))
    assert "hexes 1-5; 6 is not one of them" in errors(state, bad_hex)[0]
    own = terran(act(1, 1, "SOL", "T1 attack SOL1 auto"))
    assert errors(state, own) == ["Sol 1 is your own planet"]
    wrong_system = terran(act(1, 1, "SOL", "T1 attack PRO4 auto"))
    assert errors(state, wrong_system) == ["there is no planet PRO4 in SOL"]


def test_deep_space_moves_one_step_in_segment_one() -> None:
    state = tiny()
    assert errors(state, terran(act(1, 1, "GULF", "T3 > DIN"))) == []
    late = errors(state, terran(act(2, 1, "GULF", "T3 > DIN")))
    assert late == ["T3 is in deep space, where ships move only in the first action segment"]
    two = errors(state, terran(act(1, 1, "GULF", "T3 > TAU > SOL")))
    assert two == ["from deep space a fleet moves one step only"]


def test_capacity_load_and_move() -> None:
    state = tiny()
    # T1's single transport already carries RT1.
    full = terran(act(1, 1, "SOL", "T1 load RT2 from SOL1"))
    assert errors(state, full) == [
        "T1 would carry 2 troops/PD/outposts but room for 1 (transports)"
    ]
    assert errors(state, full, tr_capacity=2) == []
    fighters = terran(act(1, 1, "SOL", "T1 load F1 from SOL1"))
    assert errors(state, fighters) == [
        "T1 would carry 1 fighters and 1 troops/PD/outposts but room for 0 fighters (carriers) "
        "and 1 more (transports)"
    ]
    assert errors(state, fighters, tr_capacity=2) == []  # a fighter rides a free transport place
    not_there = terran(act(1, 1, "SOL", "T1 load PD2 from SOL1"))
    assert errors(state, not_there) == ["PD2 is not on SOL1"]
    overloaded = tiny()
    overloaded.units.append(Unit("JT1", "Terran", "JT", fleet="T1", strength=5))
    msgs = errors(overloaded, terran(act(1, 1, "SOL", "T1 > TAU")))
    assert msgs == ["T1 cannot move: it carries 2 troops/PD/outposts but room for 1 (transports)"]


def test_unload_planet_types_owners_and_boxes() -> None:
    state = tiny()
    x1 = terran(act(1, 1, "SOL", "T1 > TAU"), act(2, 1, "TAU", "T1 unload RT1 to TAU3"))
    assert errors(state, x1) == ["RT may not stand on a type X1 planet"]
    enemy = terran(
        act(1, 1, "SOL", "T1 > TAU"),
        act(2, 1, "TAU", "T1 > PRO"),
        act(3, 1, "PRO", "T1 unload RT1 to PRO4"),
    )
    assert "belongs to the enemy" in errors(state, enemy)[0]
    not_aboard = terran(act(1, 1, "SOL", "T1 unload PD1 to SOL2"))
    assert errors(state, not_aboard) == ["PD1 is not aboard T1"]
    n1 = terran(act(1, 1, "SOL", "T1 unload RT1 to SOL2"))
    assert errors(state, n1) == ["RT may not stand on a type N1 planet"]
    ok = terran(act(1, 1, "SOL", "T1 unload RT1 to SOL1; T1 load PD1 from SOL1"))
    assert errors(state, ok) == []
    # Sol 1 holds 20: 4 units stand there and Sol's monitor M1 stands in its box (Sol 1 is
    # the World of the system), so 15 more fighters fill it.
    crowded = tiny()
    crowded.units += [Unit(f"F{n}", "Terran", "F", planet="SOL1") for n in range(3, 18)]
    box = terran(act(1, 1, "SOL", "T1 unload RT1 to SOL1"))
    assert errors(crowded, box) == [
        "Sol 1's box holds at most 20 units and 19 of yours are there (and 1 monitor of "
        "yours, kept in it)"
    ]
    crowded.units = [u for u in crowded.units if u.code != "M"]
    assert errors(crowded, box) == []


def test_split_names_must_be_new_and_unique() -> None:
    state = tiny()
    assert errors(state, terran(act(1, 1, "SOL", "T1 split T2 DD1"))) == [
        "the fleet name T2 is already in use"
    ]
    # I1, an Imperial fleet out of the Terran side's sight: the checker must not tell that it
    # exists (no oracle); the resolution refuses the split if the name is still taken.
    assert errors(state, terran(act(1, 1, "SOL", "T1 split I1 DD1"))) == []
    twice = terran(act(1, 1, "SOL", "T1 split T9 DD1"), act(2, 1, "SOL", "T1 split t9 CA1"))
    assert errors(state, twice) == ["the fleet name T9 is already in use"]
    missing = terran(act(1, 1, "SOL", "T1 split T9 DD2"))
    assert errors(state, missing) == ["DD2 is not in T1"]
    good = terran(act(1, 1, "SOL", "T1 split T9 DD1; T9 > TAU"), act(2, 1, "TAU", "T9 > PRO"))
    assert errors(state, good) == []


def test_more_than_six_activations_in_a_segment() -> None:
    acts = [act(1, 1, "SOL", "pass") for _ in range(7)]
    for n, a in enumerate(acts):
        a.order = n + 1
    msgs = errors(tiny(), terran(*acts))
    assert msgs == ["segment 1 has 7 activations; an initiative roll allows at most 6"]
    assert errors(tiny(), terran(*acts[:6])) == []


def test_builds_permissions_counters_and_cost() -> None:
    state = tiny()

    def build(*items: Build, side: str = "Terran") -> Orders:
        player = "Terra" if side == "Terran" else "Empire"
        return Orders(player=player, side=side, turn=1, builds=list(items))

    assert errors(state, build(Build("BB", cell="Orders!B14"))) == [
        "Terrans may build a BB only after a Terran B has been destroyed"
    ]
    state.sides["Terran"].bb_unlocked = True
    assert errors(state, build(Build("BB"))) == []
    assert errors(state, build(Build("B1"))) == ["the Terran unit list has no B1"]
    assert errors(state, build(Build("CA"), side="Imperial")) == [
        "building CA needs permission from an Imperial Appeal (the Forces column grants it "
        "on 8 or 12)"
    ]
    state.sides["Imperial"].permissions = ["CR", "CA"]
    assert errors(state, build(Build("CA"), side="Imperial")) == []
    assert errors(state, build(Build("AR", 2))) == [
        "only 1 AR counter is free (the rest are in play, under construction or on earlier lines)"
    ]
    assert errors(state, build(Build("AR", 1))) == []
    assert errors(state, build(Build("AR", 1), Build("AR", 1)))[0].startswith("only 0 AR")
    assert errors(state, build(Build("DD", 1, "PRO4"))) == [
        "PRO4 is not one of your Worlds (nor one of your fleets)"
    ]
    assert errors(state, build(Build("DD", 1, "SOL1"))) == []
    # cost over the expected treasury is a warning, not an error
    big = build(Build("BB", 2, cell="Orders!B14"))
    assert errors(state, big) == []
    assert any("cost 48" in w for w in warnings(state, big))
    assert warnings(state, build(Build("DD", 1))) == []


def test_appeal_rules() -> None:
    state = tiny()
    terran_appeal = terran(appeal="Forces", appeal_cell="Orders!C11")
    assert errors(state, terran_appeal) == ["only the Imperial side may make an Imperial Appeal"]
    imperial = Orders(player="Empire", side="Imperial", turn=1, appeal="Forces")
    assert errors(state, imperial) == []
    state.sides["Imperial"].appeals_prohibited = True
    assert errors(state, imperial) == ["further Appeals are prohibited for the rest of this war"]
    peace = tiny()
    peace.war_turn = 0
    assert errors(peace, imperial) == ["there are no Imperial Appeals in peacetime"]


def test_terraforming_and_upgrades() -> None:
    state = tiny()
    assert errors(state, terran(terraform=[PlanetOrder("SOL2")])) == []
    assert errors(state, terran(terraform=[PlanetOrder("TAU2")])) == [
        "Tau 2 is type A3; only N1 and N2 planets can be terraformed"
    ]
    state.map.planets["TAU3"].type = "N2"
    assert errors(state, terran(terraform=[PlanetOrder("TAU3")])) == [
        "Tau 3 holds no Outpost of yours (or it is disputed)"
    ]
    cut = tiny()
    cut.fleets.append(Fleet("I9", "Imperial", "SOL"))
    cut.units.append(Unit("DD5", "Imperial", "DD", fleet="I9"))
    assert errors(cut, terran(terraform=[PlanetOrder("SOL2")])) == [
        "Sol 2's Outpost is not connected to your home worlds"
    ]
    twice = terran(terraform=[PlanetOrder("SOL2"), PlanetOrder("SOL2")])
    assert errors(state, twice) == ["SOL2 is named twice; one instalment a turn is paid"]
    assert errors(state, terran(upgrades=[PlanetOrder("TAU4")])) == [
        "Outposts are upgraded to Worlds only in peacetime"
    ]
    state.war_turn = 0
    assert errors(state, terran(upgrades=[PlanetOrder("TAU4")])) == []
    assert errors(state, terran(upgrades=[PlanetOrder("SOL2")])) == [
        "Sol 2 is type N1; only Outposts on type A planets become Worlds"
    ]


def test_peacetime_moves_and_attacks() -> None:
    state = tiny()
    state.war_turn = 0
    into = terran(act(1, 1, "SOL", "T1 > TAU > PRO"))
    assert "in peacetime fleets may not enter PRO" in errors(state, into)[0]
    assert errors(state, terran(act(1, 1, "SOL", "T1 > TAU"))) == []


def test_battle_orders_for_unknown_fleets() -> None:
    state = tiny()
    orders = terran(battle_orders=[BattleOrders("I1", cell="Orders!B70")])
    problems = check(state, orders)
    assert [(p.cell, p.message) for p in problems] == [("B70", "I1 is not one of your fleets")]
    split = terran(
        act(1, 1, "SOL", "T1 split T9 DD1"),
        battle_orders=[BattleOrders("T1"), BattleOrders("T9", "hold")],
    )
    assert errors(state, split) == []
    dup = terran(battle_orders=[BattleOrders("T1"), BattleOrders("T1")])
    assert errors(state, dup) == ["T1 has battle orders twice"]


def test_close_out_kinds_on_the_right_units() -> None:
    state = tiny()

    def close(kind: str, *units: str) -> Orders:
        return terran(close_out=[CloseOutOrder(kind, list(units), cell="Orders!B91")])

    assert errors(state, close("repair", "RT2")) == [
        "RT2 is not a ship; only ships are repaired in the close-out"
    ]
    assert errors(state, close("scrap", "PD1")) == [
        "PD1 is not a ship; only ships are scrapped in the close-out"
    ]
    assert errors(state, close("ground repair", "CA1")) == [
        "CA1 is not a troop or PD unit; ground repair restores reduced troops and planetary defence"
    ]
    assert errors(state, close("ground repair", "RT1")) == [
        "RT1 is aboard a transport; ground units are repaired standing on your World or Outpost"
    ]
    assert check(state, close("ground repair", "PD2")) == []
    assert errors(state, close("augment", "F1", "CA1")) == [
        "augmentation combines exactly two reduced fighters (F) or two monitors (M)"
    ]
    assert check(state, close("augment", "F1", "F2")) == []
    assert check(state, close("scrap", "M1")) == []  # monitors may be scrapped undamaged
    assert errors(state, close("repair", "DD1")) == []
    assert warnings(state, close("repair", "DD1")) == [
        "DD1 is not damaged now; the order is carried out only if this turn's battles or "
        "maintenance damage it"
    ]


def test_evacuating_a_planet_that_is_not_disputed_is_a_warning() -> None:
    state = tiny()
    orders = terran(act(1, 1, "SOL", "T1 evacuate SOL1"))
    assert errors(state, orders) == []
    assert warnings(state, orders) == [
        "Sol 1 is not disputed now; evacuation is from a disputed planet"
    ]
    state.map.planets["SOL1"].disputed = True
    assert check(state, orders) == []


def test_orders_of_the_wrong_side_are_refused() -> None:
    orders = replace(terran(), side="Imperial")
    assert errors(tiny(), orders) == ["this sheet is for the Imperial side but Terra plays Terran"]


def test_joins_disputed_planets_and_empty_fleets() -> None:
    state = tiny()
    assert errors(state, terran(act(1, 1, "SOL", "T1 join T1"))) == ["a fleet cannot join itself"]
    far = terran(act(1, 1, "SOL", "T1 join T3"))
    assert errors(state, far) == ["T3 will be at GULF, not SOL"]
    assert errors(state, terran(act(1, 1, "SOL", "T1 join T2"))) == []
    state.map.planets["SOL1"].disputed = True
    pd = terran(act(1, 1, "SOL", "T1 unload RT1 to SOL1; T1 load PD1 from SOL1"))
    assert errors(state, pd) == ["planetary defence may not be loaded from a disputed planet"]
    down = terran(act(1, 1, "SOL", "T1 unload RT1 to SOL1; T1 load PD1 from SOL1"))
    assert errors(tiny(), down) == []
    cargo_only = tiny()
    cargo_only.fleets.append(Fleet("T5", "Terran", "SOL"))
    cargo_only.units.append(Unit("JT1", "Terran", "JT", fleet="T5", strength=5))
    assert errors(cargo_only, terran(act(1, 1, "SOL", "T5 > TAU"))) == ["T5 has no ships to move"]


def test_no_attacks_in_peacetime() -> None:
    state = tiny()
    orders = terran(act(1, 1, "SOL", "T1 > TAU"), act(2, 1, "TAU", "T1 attack TAU2 auto"))
    assert errors(state, orders) == []
    state.war_turn = 0
    assert errors(state, orders) == ["there are no attacks in peacetime"]


def test_the_players_guide_cites_the_cells_of_this_layout() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "imperium-turn-sheet.md").read_text(
        encoding="utf-8"
    )
    assert f"Layout version: **{layout.FORMAT_VERSION}**" in text
    for ref in (layout.APPEAL_CELL, layout.BOMBARD_CELL, layout.MESSAGE_CELL, "B27:B29"):
        assert f"`{ref}`" in text, ref
    for segment in range(1, 5):
        rows = layout.segment_rows(segment)
        assert f"{rows[0]}-{rows[-1]}" in text
    last_build = layout.BUILD_FIRST_ROW + layout.BUILD_ROWS - 1
    assert f"rows {layout.BUILD_FIRST_ROW}-{last_build}" in text
    last_battle = layout.BATTLE_FIRST_ROW + layout.BATTLE_ROWS - 1
    assert f"Rows {layout.BATTLE_FIRST_ROW}-{last_battle}" in text
    last_close = layout.CLOSE_FIRST_ROW + layout.CLOSE_ROWS - 1
    assert f"Rows {layout.CLOSE_FIRST_ROW}-{last_close}" in text


def test_a_unit_named_twice_in_a_close_out_line_is_an_error() -> None:
    state = tiny()
    twice = terran(close_out=[CloseOutOrder("scrap", ["CA1", "CA1"], cell="Orders!B91")])
    assert errors(state, twice) == ["CA1 is named more than once in one close-out line"]


def test_a_huge_close_out_unit_list_is_refused_in_its_cell(terran_sheet: Path) -> None:
    _type(terran_sheet, {"B91": "scrap", "C91": "DD1 " * 5000})
    got = read_sheet(terran_sheet)
    problem = _by_cell(got.problems)["C91"]
    assert "characters long" in problem.message
    assert got.orders.close_out == []


def test_a_split_that_resolution_would_refuse_is_an_error_on_the_sheet() -> None:
    state = tiny()
    # T1 is CA1, DD1, TR1 carrying RT1.
    assert errors(state, terran(act(1, 1, "SOL", "T1 split T9 CA1 DD1 TR1 RT1"))) == [
        "fleet T1 would have no ship after the split"
    ]
    assert errors(state, terran(act(1, 1, "SOL", "T1 split T9 RT1"))) == [
        "fleet T9 would have no ship after the split"
    ]
    assert errors(state, terran(act(1, 1, "SOL", "T1 split T9 CA1 RT1"))) == [
        "fleet T9 would be overloaded after the split: "
        "1 troops/PD/outposts but room for 0 (transports)"
    ]
    assert errors(state, terran(act(1, 1, "SOL", "T1 split T9 DD1 TR1 RT1"))) == []


def test_troops_that_landed_in_an_attack_leave_room_aboard_for_a_later_load() -> None:
    state = tiny()
    state.units.append(Unit("RT3", "Terran", "RT", planet="TAU4", strength=4, reduced_strength=2))
    plan = [
        act(1, 1, "SOL", "T1 > TAU"),
        act(2, 1, "TAU", "T1 attack TAU2 auto"),
        act(3, 1, "TAU", "T1 load RT3 from TAU4"),
    ]
    assert errors(state, terran(*plan)) == []
    # Without the attack, RT1 is still aboard and the single transport is full.
    assert errors(state, terran(plan[0], plan[2])) != []


def test_a_build_problem_points_at_the_count_or_the_world_typed(
    terran_sheet: Path, state: State
) -> None:
    """Issue 15: each problem at the cell holding the wrong value, read from a real sheet."""
    r = layout.BUILD_FIRST_ROW
    wb = openpyxl.load_workbook(terran_sheet)
    ws = wb[layout.ORDERS_SHEET]
    ws[f"B{r}"], ws[f"C{r}"] = "AR", 40
    ws[f"B{r + 1}"], ws[f"C{r + 1}"], ws[f"D{r + 1}"] = "DD", 1, "PRO4"
    wb.save(terran_sheet)
    read = read_sheet(terran_sheet)
    problems = validate_orders(state, "Terra", read.orders, RULES)
    cells = {p.cell: p.message for p in problems if p.severity == "error"}
    assert "AR counter" in cells[f"C{r}"] and "free" in cells[f"C{r}"]
    assert cells[f"D{r + 1}"] == "PRO4 is not one of your Worlds (nor one of your fleets)"


def test_the_checker_reads_the_players_choices() -> None:
    state = tiny()
    # An attack without a fleet renews a fight only on a disputed planet where you stand.
    renew = terran(act(1, 1, "SOL", "attack SOL1"))
    assert "renews the fight on a disputed planet" in errors(state, renew)[0]
    disputed = tiny()
    disputed.map.planets["PRO4"].disputed = True
    disputed.units.append(Unit("JT1", "Terran", "JT", planet="PRO4", strength=4))
    assert errors(disputed, terran(act(1, 1, "PRO", "attack PRO4 fight 2"))) == []
    assert (
        "6 is not one to fight in"
        in errors(disputed, terran(act(1, 1, "PRO", "attack PRO4 fight 6")))[0]
    )
    # Cargo may arrive aboard a fleet; a ship may not.
    assert errors(state, terran(builds=[Build("PD", 1, "T1")])) == []
    assert errors(state, terran(builds=[Build("DD", 1, "T1")])) == [
        "a DD is a ship and cannot arrive aboard T1"
    ]
    assert (
        "is not at one of your Worlds now"
        in warnings(state, terran(builds=[Build("PD", 1, "T3")]))[0]
    )
    # Planet defence names your planet and your units standing on it.
    ok = terran(defences=[PlanetDefence("SOL1", "fighters", {"PD1": 4, "F1": 1})])
    assert errors(state, ok) == []
    stranger = terran(defences=[PlanetDefence("SOL1", placement={"PD2": 1})])
    assert errors(state, stranger) == ["PD2 is not one of your units standing on SOL1"]
    off_map = terran(defences=[PlanetDefence("SOL1", placement={"PD1": 9})])
    assert errors(state, off_map) == ["Sol 1 has hexes 1-4; 9 is not one of them"]
    assert errors(state, terran(defences=[PlanetDefence("DIN1")])) == [
        "DIN1 is not a planet of yours"
    ]
    # The Imperial standing orders name a home world and its own ships.
    empire = Orders(player="Empire", side="Imperial", turn=1, forces_world="SOL1")
    assert errors(state, empire) == ["SOL1 is not an Imperial home world"]
    empire = Orders(player="Empire", side="Imperial", turn=1, crisis_ships=["DD1", "DD9"])
    assert errors(state, empire) == ["DD9 is not one of your ships"]


def test_a_disputed_planet_is_under_neither_sides_planets(tmp_path: Path, state: State) -> None:
    from tests.imperium.test_report import disputed_state

    state = disputed_state()
    for player in ("Terra", "Empire"):
        path = tmp_path / f"{player}.xlsx"
        write_sheet(state, player, path, token="t", deadline="")
        ws = openpyxl.load_workbook(path)[layout.FORCES_SHEET]
        lines = [str(c.value) for row in ws.iter_rows() for c in row if c.value]
        text = "\n".join(lines)
        own = text.split("YOUR PLANETS", 1)[1].split("DISPUTED PLANETS", 1)[0]
        disputed = text.split("DISPUTED PLANETS", 1)[1].split("UNDER CONSTRUCTION", 1)[0]
        assert "BAR1" not in own
        assert "BAR1 Barnard 1 (BAR) N2, 4 hexes, Imperial Outpost DISPUTED" in disputed
        assert "RT9" in disputed and "PD7" in disputed


# -- the upkeep bill beside the builds ---------------------------------------------------------


def away_from_home() -> State:
    """T1 (CA, DD, TR carrying RT1) at Tau Ceti, where the Terrans hold nothing."""
    state = tiny()
    state.fleet("T1").system = "TAU"
    tau4 = state.map.planets["TAU4"]
    tau4.owner, tau4.marker = "", ""
    return state


def test_the_upkeep_bill_is_the_close_out_reckoning() -> None:
    from refassist.rulesets.imperium_3m.closeout import UpkeepBill, upkeep_bill

    # By hand: at SOL, M1 (3) and the fighters F1, F2 (2 each) are paid by Sol 1 and Sol 2
    # (20 + 6); at TAU nothing is local, so CA1 3 + DD1 2 + TR1 1 come from the stockpile;
    # DD2 in deep space (GULF) cannot draw on it; RT1, RT2, PD1, PD2 pay 1 each.
    assert upkeep_bill(away_from_home(), "Terran", RULES) == UpkeepBill(7, 6, 4, 1)
    state = away_from_home()
    state.war_turn = 0  # peace doubles every cost, not the local allowances
    assert upkeep_bill(state, "Terran", RULES) == UpkeepBill(14, 12, 8, 1)


def test_the_sheet_shows_the_upkeep_bill_and_what_is_left(tmp_path: Path) -> None:
    from refassist.rulesets.imperium_3m.report import expected_income

    state = away_from_home()
    path = tmp_path / "Terra.xlsx"
    write_sheet(state, "Terra", path, token="t", deadline="")
    ws = openpyxl.load_workbook(path)[layout.ORDERS_SHEET]
    assert ws[layout.UPKEEP_LOCAL_CELL].value == 7
    assert ws[layout.UPKEEP_SHIPS_CELL].value == 6
    assert ws[layout.UPKEEP_GROUND_CELL].value == 4
    formula = ws[layout.UPKEEP_LEFT_CELL].value
    assert formula.startswith(f"={layout.RESOURCES_CELL}+{layout.INCOME_CELL}-")
    assert "Ships, from stockpile" in [c.value for c in ws["F"]]
    values = openpyxl.load_workbook(path, data_only=True)[layout.ORDERS_SHEET]
    left = values[layout.UPKEEP_LEFT_CELL].value
    assert left == 20 + expected_income(state, "Terran") - 6 - 4


def test_builds_that_leave_too_little_for_upkeep_are_warned() -> None:
    from refassist.rulesets.imperium_3m.report import expected_income
    from refassist.rulesets.imperium_3m.units import unit_type

    dd = unit_type("Terran", "DD", 4).cost
    for spare, warned in ((9, True), (10, False)):
        state = away_from_home()
        # Stockpile + income - two DD = spare; the stockpile's upkeep is 6 + 4 = 10.
        state.sides["Terran"].resources = 2 * dd + spare - expected_income(state, "Terran")
        orders = terran(builds=[Build("DD", 2, cell="Orders!B14")])
        found = [m for m in warnings(state, orders) if "upkeep asks 10" in m]
        assert bool(found) == warned, (spare, found)
        if warned:
            assert f"about {spare} resources remain" in found[0]
            assert "6 for ships" in found[0] and "4 for troops and PD" in found[0]
    # A standing order to pay nothing from the stockpile: no warning about it.
    state = away_from_home()
    state.sides["Terran"].resources = 2 * dd - expected_income(state, "Terran")
    orders = terran(builds=[Build("DD", 2, cell="Orders!B14")], stockpile_upkeep=False)
    assert not [m for m in warnings(state, orders) if "upkeep asks" in m]


# -- standing battle orders ----------------------------------------------------------------------


def test_battle_orders_stand_until_changed(tmp_path: Path) -> None:
    """Turn 1's sheet gives T1 battle orders; turn 2's sheet comes pre-filled with them, reads
    back the same untouched, and a side that sends no sheet fights under them."""
    from refassist.rulesets.imperium_3m.context import TurnContext
    from refassist.rulesets.imperium_3m.resolve import resolve_turn

    state = real_state()
    first = tmp_path / "turn1.xlsx"
    write_sheet(state, "Terra", first, token="t", deadline="")
    given = BattleOrders("T1", "stand off", "transport", 1, retreat="home", stealth=False)
    fill_sheet(first, Orders("Terra", "Terran", 1, battle_orders=[given]))
    read = read_sheet(first)
    after = resolve_turn(state, {"Terra": read.orders}, Dice(seed=3), RULES).state
    assert after.fleet("T1").standing == (
        "stance=stand off; priority=transport; break_off=1; retreat=home; stealth=no"
    )
    assert after.fleet("T2").standing == ""  # no row changed: the defaults, written as nothing

    second = tmp_path / "turn2.xlsx"
    write_sheet(after, "Terra", second, token="t", deadline="")
    ws = openpyxl.load_workbook(second)[layout.ORDERS_SHEET]
    row = next(
        r
        for r in range(layout.BATTLE_FIRST_ROW, layout.BATTLE_FIRST_ROW + layout.BATTLE_ROWS)
        if ws[f"{layout.BATTLE_FLEET_COL}{r}"].value == "T1"
    )
    cells = "CDEFG"
    assert [ws[f"{c}{row}"].value for c in cells] == ["stand off", "transport", "1", "home", "no"]
    again = read_sheet(second).orders.battle_orders_for("T1")
    assert (again.stance, again.priority, again.break_off, again.retreat, again.stealth) == (
        "stand off",
        "transport",
        1,
        "home",
        False,
    )
    # No sheet for turn 2: the standing orders are T1's battle orders all the same.
    silent = TurnContext.start(after, {}, Dice(seed=4), RULES).orders["Terran"]
    assert silent.battle_orders_for("T1").stance == "stand off"
    assert silent.battle_orders_for("T1").retreat == "home"
    assert silent.battle_orders_for("T2").stance == "close"


def test_a_build_conditional_on_this_turns_appeal_is_accepted_with_a_warning() -> None:
    """The Appeal comes before construction: a B1 built on the same sheet as an Appeal on the
    Forces column is built if the roll (9 or 12) permits it."""
    state = tiny()
    orders = Orders("Empire", "Imperial", 1, builds=[Build("B1", cell="Orders!B14")])
    assert errors(state, orders) == [
        "building B1 needs permission from an Imperial Appeal (the Forces column grants it "
        "on 9 or 12)"
    ]
    orders.appeal = "Forces"
    assert errors(state, orders) == []
    (warned,) = [m for m in warnings(state, orders) if "B1" in m]
    assert "grants on a roll of 9 or 12 (2D6)" in warned and "only if it does" in warned
    orders.appeal = "Finances"
    assert len(errors(state, orders)) == 1


def test_a_build_line_wrong_twice_gets_both_messages_in_one_pass() -> None:
    state = tiny()
    line = Build(
        "XX", 1, "PRO4", cell="Orders!B14", cells=("Orders!B14", "Orders!C14", "Orders!D14")
    )
    problems = check(state, Orders("Terra", "Terran", 1, builds=[line]))
    assert [(p.cell, p.message) for p in problems if p.severity == "error"] == [
        ("D14", "PRO4 is not one of your Worlds (nor one of your fleets)"),
        ("B14", "the Terran unit list has no XX"),
    ]


def test_fighters_and_troops_are_reduced_not_damaged() -> None:
    state = tiny()
    state.units.append(Unit("F7", "Terran", "F", planet="SOL1"))
    orders = Orders(
        "Terra",
        "Terran",
        1,
        close_out=[
            CloseOutOrder("ground repair", ["PD1"], cell="Orders!B91"),
            CloseOutOrder("repair", ["CA1"], cell="Orders!B92"),
        ],
    )
    found = warnings(state, orders)
    assert any(
        m.startswith("PD1 is not reduced now") and "battles or maintenance reduce it" in m
        for m in found
    )
    assert any(m.startswith("CA1 is not damaged now") for m in found)


# -- what arrives this turn can be ordered this turn -------------------------------------------


def with_arrivals() -> State:
    """Turn 1 with a transport, a jump troop and a cruiser due from the turn record track,
    their counters reserved as the administrative segment reserves them."""
    from refassist.rulesets.imperium_3m.setup import reserve_counter

    state = real_state()
    for code in ("TR", "JT", "CA"):
        q = Queued("Terran", code, 1, source="built", paid=5)
        q.unit_id = reserve_counter(state, "Terran", code, Dice(seed=7))
        state.queue.append(q)
    return state


def test_arrivals_are_listed_with_their_usual_placement(tmp_path: Path) -> None:
    state = with_arrivals()
    tr, jt, ca = (q.unit_id for q in state.queue)
    assert tr.startswith("TR") and jt.startswith("JT") and ca.startswith("CA")
    path = tmp_path / "Terra.xlsx"
    write_sheet(state, "Terra", path, token="t", deadline="")
    ws = openpyxl.load_workbook(path)[layout.ORDERS_SHEET]
    rows = range(layout.ARRIVAL_FIRST_ROW, layout.ARRIVAL_FIRST_ROW + 3)
    listed = [[ws[f"{c}{r}"].value for c in "BDE"] for r in rows]
    # One per World, home Worlds first: Sol 1, Sol 2, Alpha Centauri A1; the ships join the
    # side's fleet in the system (T1 at Sol, T2 at Alpha Centauri), the troop stands on Sol 2.
    assert listed == [[tr, "SOL1", "T1"], [jt, "SOL2", None], [ca, "ACA1", "T2"]]
    assert ws[f"{layout.ARRIVAL_UNIT_COL}{rows[0]}"].protection.locked
    assert not ws[f"{layout.ARRIVAL_FLEET_COL}{rows[0]}"].protection.locked


def test_a_unit_arriving_this_turn_is_ordered_on_this_turns_sheet(tmp_path: Path) -> None:
    """The transport forms a new fleet T4 at Sol, and the jump troop arriving on Sol 2 is
    loaded into it and carried off in segment 1: checked, accepted and carried out."""
    from refassist.rulesets.imperium_3m.resolve import resolve_turn

    state = with_arrivals()
    tr, jt, ca = (q.unit_id for q in state.queue)
    path = tmp_path / "Terra.xlsx"
    write_sheet(state, "Terra", path, token="t", deadline="")
    orders = Orders(
        "Terra",
        "Terran",
        1,
        arrivals=[Arrival(tr, "SOL1", "T4"), Arrival(ca, "ACA1", "STRIKE")],
        activations=[act(1, 1, "SOL", f"T4 load {jt} from SOL2; T4 > ACE")],
    )
    fill_sheet(path, orders)
    read = read_sheet(path)
    assert read.problems == []
    assert [(a.unit, a.world, a.fleet) for a in read.orders.arrivals] == [
        (tr, "SOL1", "T4"),
        (jt, "SOL2", ""),
        (ca, "ACA1", "STRIKE"),
    ]
    assert f"Arrival {tr}: at SOL1, fleet T4" in orders_text(read.orders)
    assert validate_orders(state, "Terra", read.orders, RULES) == []
    after = resolve_turn(state, {"Terra": read.orders}, Dice(seed=5), RULES).state
    assert after.fleet("T4").system == "ACE"
    assert {u.id for u in after.units_in_fleet("T4")} == {tr, jt}
    assert [u.id for u in after.units_in_fleet("STRIKE")] == [ca]
    assert after.fleet("STRIKE").system == "ACE"
    # Without the arrivals block the transport joins T1 and "T4" is unknown to the checker.
    plain = Orders("Terra", "Terran", 1, activations=[act(1, 1, "SOL", f"T4 load {jt} from SOL2")])
    assert errors(state, plain) == ["T4 is not one of your fleets"]


def test_the_checker_refuses_an_arrival_it_cannot_carry_out() -> None:
    state = with_arrivals()
    tr, jt, ca = (q.unit_id for q in state.queue)
    cell = f"Orders!D{layout.ARRIVAL_FIRST_ROW}"

    def arrival(*a: Arrival) -> list[str]:
        return errors(state, Orders("Terra", "Terran", 1, arrivals=list(a)))

    assert arrival(Arrival(tr, "DIN1", cell=cell)) == [
        "DIN1 is not one of your Worlds; new units are placed at Worlds"
    ]
    assert arrival(Arrival(tr, "SOL1", "T2", cell=cell)) == [
        "T2 is at ACE, not at SOL1's system: a new unit joins or boards a fleet at the World "
        "where it is placed"
    ]
    # An Imperial fleet's name is not refused (the Terrans do not see it); the resolution
    # then places the transport as usual, into T1.
    assert arrival(Arrival(tr, "SOL1", "I1", cell=cell)) == []
    assert arrival(Arrival(jt, "SOL2", "NEW", cell=cell)) == [
        "NEW is not one of your fleets; a JT arrives aboard a fleet of yours (its empty "
        "transports) or on the planet"
    ]
    assert arrival(Arrival("CA9", "SOL1", cell=cell)) == [
        "CA9 is not due from the turn record track this turn"
    ]
    # Two at Sol 1 while other Worlds have none: the second goes elsewhere, with a warning.
    crowded = Orders(
        "Terra", "Terran", 1, arrivals=[Arrival(tr, "SOL1"), Arrival(ca, "SOL1", cell=cell)]
    )
    assert any("will be placed at SOL2, not SOL1" in m for m in warnings(state, crowded))


def test_a_refused_move_gives_one_message_not_one_per_later_line() -> None:
    state = tiny()
    orders = terran(act(1, 1, "SOL", "T1 > TAU > PRO > DIN > GULF"), act(2, 1, "DIN", "T1 > PRO"))
    found = errors(state, orders)
    assert len(found) == 1 and found[0].startswith("the route costs")


def test_the_players_mistakes_get_one_right_message_each_through_a_real_sheet(
    tmp_path: Path,
) -> None:
    """The Imperial sheet as a player types it: a B1 on the strength of this turn's Appeal,
    a join the wrong way round, a move and an attack on one line, a backup line, and a typo;
    each gets the message its cause deserves, and nothing else is reported."""
    state = real_state()
    path = tmp_path / "Empire.xlsx"
    write_sheet(state, "Empire", path, token="t", deadline="")
    wb = openpyxl.load_workbook(path)
    ws = wb[layout.ORDERS_SHEET]
    ws[layout.APPEAL_CELL] = "Forces"
    ws[f"B{layout.BUILD_FIRST_ROW}"] = "B1"
    s1, s2, s3 = (layout.segment_rows(n) for n in (1, 2, 3))
    lines = {
        s1[0]: ("GAS", "I2 > DIN"),
        s1[1]: ("DIN", "I2 join I1; I1 > URU"),  # the player meant I1 to take in I2
        s1[2]: ("ISH", "I3 > KIS; I3 attack KIS1 auto"),
        s1[3]: ("KIS", "I3 lod RT8 from KIS1"),  # a typo
        s2[0]: ("DIN", "I2 > URU"),
        s2[1]: ("GAS", "I2 > NIP"),  # backup: if segment 1 did not run, I2 is still at GAS
        s3[0]: ("ISH", "I3 > GAS"),  # after the unreadable line: taken at its word
    }
    for row, (system, text) in lines.items():
        ws[f"C{row}"], ws[f"D{row}"] = system, text
    wb.save(path)
    read = read_sheet(path)
    found = [*read.problems, *validate_orders(state, "Empire", read.orders, RULES)]
    by_cell = {(p.cell, p.severity): p.message for p in found}
    assert by_cell[(f"D{s1[1]}", "error")].startswith(
        f"I1 no longer exists when this line comes up: 'I2 join I1' (D{s1[1]})"
    )
    assert by_cell[(f"D{s1[2]}", "error")].startswith(
        "I3 moves to KIS on this line; moving and attacking a planet are separate activations"
    )
    assert "'LOD' is not an action word" in by_cell[(f"D{s1[3]}", "error")]
    assert "B1" in by_cell[(f"B{layout.BUILD_FIRST_ROW}", "warning")]
    assert by_cell[(f"D{s2[1]}", "warning")].startswith(
        f"checked as a backup line: I2 is at GAS only if its move to DIN (D{s1[0]}, segment 1) "
        "did not run"
    )
    assert sorted(c for c, sev in by_cell if sev == "error") == sorted(
        f"D{r}" for r in (s1[1], s1[2], s1[3])
    )


@pytest.mark.libreoffice
def test_arrivals_and_standing_battle_orders_survive_libreoffice(tmp_path: Path) -> None:
    """A sheet with arrivals and pre-filled standing orders, changed by a player in
    LibreOffice: what was typed, and what was pre-filled and kept, reads back."""
    state = with_arrivals()
    state.fleet("T1").standing = "stance=hold; retreat=home"
    tr, jt, ca = (q.unit_id for q in state.queue)
    path = tmp_path / "Terra.xlsx"
    write_sheet(state, "Terra", path, token="t", deadline="")
    fill_sheet(path, Orders("Terra", "Terran", 1, arrivals=[Arrival(tr, "SOL1", "T4")]))
    got = read_sheet(through_libreoffice(path, tmp_path / "lo"))
    assert got.problems == []
    assert [(a.unit, a.world, a.fleet) for a in got.orders.arrivals] == [
        (tr, "SOL1", "T4"),
        (jt, "SOL2", ""),
        (ca, "ACA1", "T2"),
    ]
    t1 = got.orders.battle_orders_for("T1")
    assert (t1.stance, t1.retreat) == ("hold", "home")


def test_an_order_that_fails_at_resolve_is_cancelled_and_reported(
    game: Game, tmp_path: Path
) -> None:
    """Accepted at intake, made impossible by the referee's hand edit before the turn: the
    move is cancelled with an event naming its cell; the build on the same sheet still goes."""
    from refassist.intake.inbox import intake
    from refassist.turns import resolve_game

    state = game.load_state()
    terra = next(p for p in write_sheets(game, state) if p.stem == "Terra")
    filled = tmp_path / "mail" / terra.name
    filled.parent.mkdir()
    filled.write_bytes(terra.read_bytes())
    orders = Orders(player="Terra", side="Terran", turn=1)
    orders.activations = [act(1, 1, "SOL", "T1 > ACE > TAU")]
    orders.builds = [Build("DD", 1)]
    fill_sheet(filled, orders)
    assert intake(game, [filled]).count("accepted") == 1
    state = game.load_state()
    state.fleets = [f for f in state.fleets if f.name != "T1"]  # the referee's hand edit
    state.units = [u for u in state.units if u.fleet != "T1"]
    game.save_state(state)

    outcome = resolve_game(game, force=True)
    new = game.load_state()
    cancelled = [e for e in new.events if e.kind == "order_cancelled"]
    row = layout.segment_rows(1)[0]
    assert [(e.visible_to, e.data["cell"]) for e in cancelled] == [(("Terra",), f"Orders!D{row}")]
    assert "T1 is not one of your fleets" in cancelled[0].data["reason"]
    assert outcome.cancelled == [cancelled[0].text]
    assert [q.code for q in new.queue if q.side == "Terran" and q.code == "DD"] == ["DD"]
