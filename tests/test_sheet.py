"""The turn sheet: written, filled in the way a player would, read back.

Real ``.xlsx`` files throughout: xlsxwriter writes them, openpyxl types into the input cells
(odd spellings included) as a player's spreadsheet program would, and the reader reads them.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from refassist.errors import NotATurnSheet, UsageError
from refassist.rulesets.fifth_millennium import sheet as layout
from refassist.rulesets.fifth_millennium.items import find_item, item_label
from refassist.rulesets.fifth_millennium.orders import (
    Bombing,
    Diplomacy,
    MessageOrder,
    Move,
    Orders,
    Purchase,
)
from refassist.rulesets.fifth_millennium.sheet import (
    fill_sheet,
    orders_text,
    own_system_lines,
    read_sheet,
    write_sheet,
)
from refassist.rulesets.fifth_millennium.state import SETUP_YEAR, Fleet, State
from refassist.store.game import Game


@pytest.fixture
def state(small_game: Game) -> State:
    return small_game.load_state()


@pytest.fixture
def sheet(tmp_path: Path, state: State) -> Path:
    path = tmp_path / "Ann.xlsx"
    write_sheet(state, "Ann", path, token="tok-ann-5001", deadline="Sat 05 Dec 2026 21:00")
    return path


def home(state: State, player: str = "Ann") -> str:
    p = state.player(player)
    assert p is not None
    return p.homeworld


def neighbour(state: State, hex_: str) -> str:
    """The nearest other system (for a move that passes validation)."""
    from refassist.geometry.hexmap import distance

    others = sorted((distance(hex_, s.hex), s.hex) for s in state.systems if s.hex != hex_)
    return others[0][1]


# -- writing ---------------------------------------------------------------------------------


def test_meta_sheet_is_very_hidden_and_identifies_the_sheet(sheet: Path, state: State) -> None:
    wb = openpyxl.load_workbook(sheet)
    assert wb.sheetnames == ["Orders", "Your empire", "Lists", "_meta"]
    assert wb["_meta"].sheet_state == "veryHidden"
    assert wb["Lists"].sheet_state == "hidden"
    meta = {r[0]: r[1] for r in wb["_meta"].iter_rows(values_only=True)}
    assert meta["format"] == "refassist-turn-sheet"
    assert meta["format_version"] == layout.FORMAT_VERSION
    assert meta["ruleset"] == "fifth-millennium"
    assert meta["game_id"] == state.game_id
    assert (meta["player"], meta["year"], meta["step"]) == ("Ann", "5001", "5001")
    assert meta["token"] == "tok-ann-5001"


def test_header_shows_the_players_figures(sheet: Path, state: State) -> None:
    ws = openpyxl.load_workbook(sheet)["Orders"]
    p = state.player("Ann")
    assert p is not None
    assert ws[layout.GAME_CELL].value == state.game_name
    assert ws[layout.PLAYER_CELL].value == "Ann"
    assert ws[layout.YEAR_CELL].value == 5001
    assert ws[layout.DEADLINE_CELL].value == "Sat 05 Dec 2026 21:00"
    assert ws[layout.STOCKPILE_CELL].value == p.stockpile
    assert ws[layout.INCOME_CELL].value == p.income_last
    assert ws[layout.TL_CELL].value == p.tech_level
    assert ws[layout.RANGE_CELL].value == 4


def test_protection_input_cells_and_locked_cells(sheet: Path) -> None:
    ws = openpyxl.load_workbook(sheet)["Orders"]
    assert ws.protection.sheet is True
    assert not ws.protection.password
    inputs = [
        *layout.move_row_cells(layout.MOVE_FIRST_ROW),
        *layout.move_row_cells(layout.MOVE_FIRST_ROW + layout.MOVE_ROWS - 1),
        f"B{layout.PROD_FIRST_ROW}",
        f"C{layout.PROD_FIRST_ROW}",
        f"D{layout.PROD_FIRST_ROW}",
        layout.STOCKPILE_AT_CELL,
        f"B{layout.DIPLO_FIRST_ROW}",
        f"C{layout.DIPLO_FIRST_ROW}",
        f"B{layout.MSG_FIRST_ROW}",
        f"C{layout.MSG_FIRST_ROW}",
    ]
    for ref in inputs:
        assert ws[ref].protection.locked is False, ref
        assert ws[ref].fill.fgColor.rgb.endswith("FFF2CC"), ref
    for ref in (
        "A1",
        layout.PLAYER_CELL,
        layout.STOCKPILE_CELL,
        f"E{layout.PROD_FIRST_ROW}",
        layout.PROD_TOTAL_CELL,
        f"B{layout.REF_FIRST_ROW}",
    ):
        assert ws[ref].protection.locked is not False, ref
    assert ws[f"B{layout.MOVE_FIRST_ROW}"].value == 5001
    assert ws[f"E{layout.PROD_FIRST_ROW}"].data_type == "f"


def test_dropdowns_and_input_messages(sheet: Path) -> None:
    ws = openpyxl.load_workbook(sheet)["Orders"]
    by_range = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    first, last = layout.PROD_FIRST_ROW, layout.PROD_FIRST_ROW + layout.PROD_ROWS - 1
    item = by_range[f"C{first}:C{last}"]
    assert item.type == "list" and "Lists" in item.formula1 and item.promptTitle == "Item"
    assert item.errorStyle == "warning"  # a typed code such as GL is allowed
    d1, d2 = layout.DIPLO_FIRST_ROW, layout.DIPLO_FIRST_ROW + layout.DIPLO_ROWS - 1
    assert by_range[f"B{d1}:B{d2}"].type == "list"
    assert by_range[f"C{d1}:C{d2}"].type == "list"
    m1, m2 = layout.MSG_FIRST_ROW, layout.MSG_FIRST_ROW + layout.MSG_ROWS - 1
    assert by_range[f"B{m1}:B{m2}"].type == "list"
    assert by_range[f"D{first}:D{last}"].type == "whole"
    r1, r2 = layout.MOVE_FIRST_ROW, layout.MOVE_FIRST_ROW + layout.MOVE_ROWS - 1
    assert by_range[f"C{r1}:C{r2}"].prompt.startswith("Squadrons that leave")
    lists = openpyxl.load_workbook(sheet)["Lists"]
    values = {c.value for row in lists.iter_rows() for c in row if c.value}
    assert {"Bob", "Cleo", "*", "declare war", item_label(find_item("GL"))} <= values
    assert item_label(find_item("DOCK")) not in values  # TL2 item, player is TL1


def test_print_layout_fits_a4_width(sheet: Path) -> None:
    wb = openpyxl.load_workbook(sheet)
    for title in ("Orders", "Your empire"):
        ws = wb[title]
        assert ws.page_setup.paperSize == 9
        assert ws.page_setup.fitToWidth in (None, 1)  # 1 is the default, often omitted
        assert ws.page_setup.fitToHeight == 0
        assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert wb["Orders"].print_area == f"'Orders'!$A$1:$G${layout.PRINT_LAST_ROW}"


def test_your_systems_in_the_notation(sheet: Path, state: State) -> None:
    lines = own_system_lines(state, "Ann")
    assert len(lines) == 1
    hw = state.system(home(state))
    assert hw is not None
    assert lines[0].startswith(f"{hw.hex} ")
    assert " - F15 S0 A0(Fs0 Ms0 K0) - " in lines[0]
    ws = openpyxl.load_workbook(sheet)["Your empire"]
    texts = [c.value for row in ws.iter_rows() for c in row if c.value]
    assert lines[0] in texts
    assert any(str(t).startswith("YOUR SYSTEMS") for t in texts)


def test_other_players_homeworlds_are_not_listed_unless_in_sight(sheet: Path, state: State) -> None:
    from refassist.rulesets.fifth_millennium.visibility import in_sight

    ws = openpyxl.load_workbook(sheet)["Your empire"]
    text = "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    for other in ("Bob", "Cleo"):
        if home(state, other) not in in_sight(state, "Ann"):
            assert home(state, other) not in text
            assert other not in text


def test_text_is_never_a_formula(tmp_path: Path, state: State) -> None:
    state.game_name = '=HYPERLINK("http://evil.example","x")'
    path = tmp_path / "x.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="=1+1")
    ws = openpyxl.load_workbook(path)["Orders"]
    assert ws[layout.GAME_CELL].data_type == "s"
    assert ws[layout.DEADLINE_CELL].data_type == "s"


def test_unknown_player_is_refused(tmp_path: Path, state: State) -> None:
    with pytest.raises(UsageError):
        write_sheet(state, "Zed", tmp_path / "z.xlsx", token="t", deadline="")


def test_setup_sheet_asks_for_the_homeworld_only(tmp_path: Path, state: State) -> None:
    state.year = SETUP_YEAR
    state.player("Ann").homeworld = ""  # type: ignore[union-attr]
    path = tmp_path / "setup.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="soon")
    wb = openpyxl.load_workbook(path)
    ws = wb["Orders"]
    texts = [str(c.value) for row in ws.iter_rows() for c in row if c.value is not None]
    assert "HOMEWORLD" in texts
    assert not any("FLEET MOVEMENTS" in t or "PRODUCTION" in t for t in texts)
    assert ws[layout.HOMEWORLD_CELL].protection.locked is False
    assert layout.STOCKPILE_CELL not in {
        c.coordinate for row in ws.iter_rows() for c in row if c.value is not None
    }
    empire = "\n".join(str(c.value) for row in wb["Your empire"].iter_rows() for c in row)
    class_a = [s.hex for s in state.systems if s.resource_class == "A"]
    assert all(h in empire for h in class_a)
    meta = {r[0]: r[1] for r in wb["_meta"].iter_rows(values_only=True)}
    assert meta["kind"] == "setup"
    ws[layout.HOMEWORLD_CELL] = "510"
    wb.save(path)
    read = read_sheet(path)
    assert read.orders.homeworld == "0510" and read.orders.homeworld_cell == "C11"


def test_setup_sheet_of_a_player_with_an_assigned_homeworld(tmp_path: Path, state: State) -> None:
    state.year = SETUP_YEAR
    path = tmp_path / "setup.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="soon")
    ws = openpyxl.load_workbook(path)["Orders"]
    assert ws[layout.HOMEWORLD_CELL].value == home(state)
    assert ws[layout.HOMEWORLD_CELL].protection.locked is not False


# -- reading what a player typed ---------------------------------------------------------------


def test_empty_sheet_reads_as_no_orders(sheet: Path) -> None:
    read = read_sheet(sheet)
    assert read.problems == []
    assert read.orders == Orders("Ann", 5001)
    assert read.meta["token"] == "tok-ann-5001"
    assert orders_text(read.orders) == ["No orders."]


def test_player_typing_odd_spellings(sheet: Path, state: State) -> None:
    hw = home(state)
    near = neighbour(state, hw)
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    # Row 11: the whole line typed into the Turn cell, with en dashes and lower case.
    ws["B11"] = f"5001 – f3s0a0(fs0ms0k0) – {hw} – {near}"
    # Row 12: the columns, hexes typed as numbers, the fleet without parentheses.
    ws["C12"] = "F 2"
    ws["D12"] = int(hw)
    ws["E12"] = int(near)
    # Row 13: the whole line in the Fleet cell, the Turn cell keeping the pre-filled year.
    ws["C13"] = f"F1S0A0 - {hw} - {near}"
    # Production: a code instead of the label, quantity as text, location with spaces.
    ws[f"B{layout.PROD_FIRST_ROW}"] = f" {hw} "
    ws[f"C{layout.PROD_FIRST_ROW}"] = "gl"
    ws[f"D{layout.PROD_FIRST_ROW}"] = "2"
    ws[f"B{layout.PROD_FIRST_ROW + 1}"] = hw
    ws[f"C{layout.PROD_FIRST_ROW + 1}"] = item_label(find_item("F"))
    ws[f"D{layout.PROD_FIRST_ROW + 1}"] = 1
    ws[f"B{layout.DIPLO_FIRST_ROW}"] = "Propose  Treaty"
    ws[f"C{layout.DIPLO_FIRST_ROW}"] = "bob"
    ws[f"B{layout.DIPLO_FIRST_ROW + 1}"] = "war"
    ws[f"C{layout.DIPLO_FIRST_ROW + 1}"] = "CLEO"
    ws[f"B{layout.MSG_FIRST_ROW}"] = "all"
    ws[f"C{layout.MSG_FIRST_ROW}"] = "Peace in our time.\nYours, Ann"
    wb.save(sheet)

    read = read_sheet(sheet)
    assert read.problems == []
    o = read.orders
    assert [(m.fleet, m.origin, m.destination, m.arrival, m.cell) for m in o.moves] == [
        (Fleet(F=3), hw, near, None, "B11"),
        (Fleet(F=2), hw, near, None, "B12"),
        (Fleet(F=1), hw, near, None, "B13"),
    ]
    assert [(p.location, p.item, p.quantity, p.cell) for p in o.purchases] == [
        (hw, "GL", 2, f"B{layout.PROD_FIRST_ROW}"),
        (hw, "F", 1, f"B{layout.PROD_FIRST_ROW + 1}"),
    ]
    assert [(d.action, d.other) for d in o.diplomacy] == [
        ("propose treaty", "Bob"),
        ("declare war", "Cleo"),
    ]
    assert [(m.to, m.text) for m in o.messages] == [("*", "Peace in our time.\nYours, Ann")]
    text = orders_text(o)
    assert text[0].startswith(f"5001 - F3 S0 A0(Fs0 Ms0 K0) - {hw} - {near} - 500")
    assert f"Build 2 x GL (Genetics Lab) at {hw}, cost 6" in text


def test_reading_problems_name_their_cells(sheet: Path, state: State) -> None:
    hw = home(state)
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    ws["C11"] = "F10 M2"
    ws["D11"] = hw
    ws["E11"] = "0101"
    ws["C12"] = "F1"
    ws["D12"] = "12345"
    ws["E12"] = "0101"
    r = layout.PROD_FIRST_ROW
    ws[f"B{r}"] = hw
    ws[f"C{r}"] = "Death Star"
    ws[f"C{r + 1}"] = "GL"
    ws[f"D{r + 1}"] = 1
    ws[f"B{r + 2}"] = hw
    ws[f"C{r + 2}"] = "OPC"
    ws[f"B{layout.DIPLO_FIRST_ROW}"] = "surrender"
    ws[f"C{layout.DIPLO_FIRST_ROW}"] = "Bob"
    ws[f"B{layout.MSG_FIRST_ROW}"] = "Bob"
    ws[f"C{layout.MSG_FIRST_ROW + 1}"] = "nobody to send this to"
    ws[f"B{layout.MSG_FIRST_ROW + 2}"] = "Bob"
    ws[f"C{layout.MSG_FIRST_ROW + 2}"] = "x" * (layout.MAX_MESSAGE_LENGTH + 1)
    ws[layout.STOCKPILE_AT_CELL] = "home"
    wb.save(sheet)
    read = read_sheet(sheet)
    found = {(p.cell, p.severity): p for p in read.problems}
    assert "monitors" in found[("C11", "error")].message
    assert "departure hex" in found[("D12", "error")].message
    assert "not a purchase option" in found[(f"C{r}", "error")].message
    assert "no location" in found[(f"B{r + 1}", "error")].message
    assert "read as 1" in found[(f"D{r + 2}", "warning")].message
    assert "not a diplomacy action" in found[(f"B{layout.DIPLO_FIRST_ROW}", "error")].message
    assert "empty" in found[(f"C{layout.MSG_FIRST_ROW}", "error")].message
    assert "no recipient" in found[(f"B{layout.MSG_FIRST_ROW + 1}", "error")].message
    assert "characters long" in found[(f"C{layout.MSG_FIRST_ROW + 2}", "error")].message
    assert found[(layout.STOCKPILE_AT_CELL, "error")]
    assert all(p.sheet == "Orders" and p.fix for p in read.problems)
    assert [p.quantity for p in read.orders.purchases] == [1]


@pytest.mark.parametrize("typed", ["1000", 999999, "1000000"])
def test_a_quantity_above_999_is_refused_at_its_cell(
    sheet: Path, state: State, typed: object
) -> None:
    """docs/turn-sheet.md promises 1-999; a budget warning is not enough for 999999."""
    r = layout.PROD_FIRST_ROW
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    ws[f"B{r}"], ws[f"C{r}"], ws[f"D{r}"] = home(state), "F", typed
    ws[f"B{r + 1}"], ws[f"C{r + 1}"], ws[f"D{r + 1}"] = home(state), "F", 999
    wb.save(sheet)
    read = read_sheet(sheet)
    [problem] = read.problems
    assert (problem.cell, problem.severity) == (f"D{r}", "error")
    assert str(typed) in problem.message or "not a quantity" in problem.message
    assert [p.quantity for p in read.orders.purchases] == [999]


def test_fill_sheet_round_trip(sheet: Path, state: State) -> None:
    hw = home(state)
    near = neighbour(state, hw)
    orders = Orders(
        "Ann",
        5001,
        moves=[
            Move(5001, Fleet(F=5, S=0, A=0), hw, near, 5002),
            Move(5001, Fleet(), hw, "0101", None, probe=True),
        ],
        purchases=[Purchase(hw, "OPC", 2), Purchase(hw, "A", 1)],
        diplomacy=[Diplomacy("propose trade", "Cleo")],
        bombing=[Bombing(near)],
        messages=[MessageOrder("Bob", "=cmd|' /C calc'!A0")],
        stockpile_at=hw,
    )
    fill_sheet(sheet, orders)
    read = read_sheet(sheet)
    assert read.problems == []
    got = read.orders

    def strip(o: Orders) -> tuple[object, ...]:
        return (
            [(m.year, m.fleet, m.origin, m.destination, m.arrival, m.probe) for m in o.moves],
            [(p.location, p.item, p.quantity) for p in o.purchases],
            [(d.action, d.other) for d in o.diplomacy],
            [b.hex for b in o.bombing],
            [(m.to, m.text) for m in o.messages],
            o.stockpile_at,
        )

    assert strip(got) == strip(orders)
    row = layout.DIPLO_FIRST_ROW + 1
    assert got.bombing[0].cells == (f"B{row}", f"C{row}")


def test_a_fusion_bomb_line_takes_the_hex_in_the_player_column(sheet: Path) -> None:
    """The diplomacy block carries 'fusion bomb' with the hex to bomb in column C; 'bomb' and
    a hex typed as a number are understood, a missing or wrong hex is pinned to column C."""
    r = layout.DIPLO_FIRST_ROW
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    ws[f"B{r}"], ws[f"C{r}"] = "Bomb", 512
    ws[f"B{r + 1}"] = "fusion bomb"
    ws[f"B{r + 2}"], ws[f"C{r + 2}"] = "fusion bomb", "Bob"
    wb.save(sheet)
    read = read_sheet(sheet)
    assert [b.hex for b in read.orders.bombing] == ["0512"]
    assert read.orders.diplomacy == []
    found = {p.cell: p.message for p in read.problems}
    assert "needs the hex of the system to bomb" in found[f"C{r + 1}"]
    assert "not a hex" in found[f"C{r + 2}"]
    assert openpyxl.load_workbook(sheet)["_meta"].sheet_state == "veryHidden"


def test_fill_sheet_refuses_more_orders_than_rows(sheet: Path, state: State) -> None:
    hw = home(state)
    many = [Move(5001, Fleet(F=1), hw, "0101") for _ in range(layout.MOVE_ROWS + 1)]
    with pytest.raises(UsageError, match="do not fit"):
        fill_sheet(sheet, Orders("Ann", 5001, moves=many))


# -- formulas in input cells -------------------------------------------------------------------


def _put_formula(path: Path, ref: str, formula: str, cached: str | None) -> None:
    """Rewrite one input cell of the Orders sheet as a formula, as Excel would save it."""
    with zipfile.ZipFile(path) as zf:
        parts = {name: zf.read(name) for name in zf.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    pattern = re.compile(rf'<c r="{ref}"( s="\d+")?(?: t="\w+")?\s*(?:/>|>.*?</c>)')
    m = pattern.search(xml)
    assert m is not None
    value = f"<v>{cached}</v>" if cached is not None else ""
    cell = f'<c r="{ref}"{m.group(1) or ""} t="str"><f>{formula}</f>{value}</c>'
    parts["xl/worksheets/sheet1.xml"] = (xml[: m.start()] + cell + xml[m.end() :]).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)


def test_formula_with_a_computed_value_is_read_with_a_warning(sheet: Path, state: State) -> None:
    hw = home(state)
    near = neighbour(state, hw)
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    ws["D11"] = hw
    ws["E11"] = near
    wb.save(sheet)
    _put_formula(sheet, "C11", '"F"&amp;"2"', "F2")
    read = read_sheet(sheet)
    assert [m.fleet for m in read.orders.moves] == [Fleet(F=2)]
    assert [(p.cell, p.severity) for p in read.problems] == [("C11", "warning")]
    assert "formula" in read.problems[0].message


def test_formula_without_a_value_is_an_error(sheet: Path, state: State) -> None:
    wb = openpyxl.load_workbook(sheet)
    ws = wb["Orders"]
    ws[f"B{layout.MSG_FIRST_ROW}"] = "Bob"
    ws[f"C{layout.MSG_FIRST_ROW}"] = '="hello "&"there"'
    wb.save(sheet)
    read = read_sheet(sheet)
    cells = [(p.cell, p.severity) for p in read.problems]
    assert (f"C{layout.MSG_FIRST_ROW}", "error") in cells


# -- what is not a Fifth Millennium sheet --------------------------------------------------------


def _edit_meta(path: Path, key: str, value: str) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb["_meta"]
    for row in ws.iter_rows():
        if row[0].value == key:
            row[1].value = value
    wb.save(path)


def test_other_ruleset_or_layout_version_is_refused(sheet: Path) -> None:
    _edit_meta(sheet, "format_version", "99")
    with pytest.raises(NotATurnSheet, match="layout version"):
        read_sheet(sheet)
    _edit_meta(sheet, "ruleset", "millennium-wars")
    with pytest.raises(NotATurnSheet, match="not Fifth Millennium"):
        read_sheet(sheet)


def test_sheet_without_orders_sheet_is_refused(sheet: Path) -> None:
    wb = openpyxl.load_workbook(sheet)
    del wb["Orders"]
    wb.save(sheet)
    with pytest.raises(NotATurnSheet, match="no sheet named 'Orders'"):
        read_sheet(sheet)
