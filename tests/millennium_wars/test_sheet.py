"""The impulse, reaction and ceasefire sheets: written, typed into as a player would, read back,
through LibreOffice, with every problem on its cell; a side's sheet shows only what it sees."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from refassist.errors import NotATurnSheet, UsageError
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.millennium_wars import sheet as mw_sheet
from refassist.rulesets.millennium_wars.combat import Attack, Defence
from refassist.rulesets.millennium_wars.movement import Move
from refassist.rulesets.millennium_wars.orders import InformationAttack, Orders, Purchase
from refassist.rulesets.millennium_wars.scenario import load_scenario
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.state import State, new_state
from refassist.workbook.sheetio import open_turn_sheet
from tests.libreoffice import through_libreoffice

RULESET = find_ruleset("millennium-wars")


def start() -> State:
    players = [PlayerSetup("Ann", "a@example.com"), PlayerSetup("Bob", "b@example.com")]
    return new_state(load_scenario(), players, "Vell", "g")


def written(state: State, player: str, folder: Path, **rules: object) -> Path:
    path = folder / f"{player}.xlsx"
    RULESET.write_sheet(state, player, path, "tok", "Friday", rules)
    return path


def type_cells(path: Path, cells: dict[str, object]) -> None:
    wb = openpyxl.load_workbook(path)
    for ref, value in cells.items():
        wb["Orders"][ref] = value
    wb.save(path)


def impulse_orders() -> Orders:
    return Orders(
        "Ann",
        "1-1-1",
        moves=[Move("N-2MI", ["0504", "0604"]), Move("N-3LI", ["0603"])],
        attacks=[
            Attack(
                ["N-1AR", "N-HT"],
                "0905",
                "assault",
                political_points=2,
                intensive=True,
                retreat={"N-1AR": ["0804", "0803"]},
                advance=["*"],
                ambush="N-HT",
            )
        ],
        purchases=[Purchase("air defence"), Purchase("replacement", "N-4AC", "0204")],
        information=[InformationAttack(["N-CY"], "see")],
        message="Good luck, Bob.",
    )


def test_the_impulse_sheet_reads_back_what_was_typed(tmp_path: Path) -> None:
    state = start()
    path = written(state, "Ann", tmp_path)
    typed = impulse_orders()
    RULESET.fill_sheet(path, typed)
    read = RULESET.read_sheet(path)
    assert read.problems == []
    assert RULESET.orders_text(read.orders) == RULESET.orders_text(typed)
    assert RULESET.orders_text(read.orders) == [
        "Buy air defence",
        "Buy replacement: N-4AC at 0204",
        "Information warfare with N-CY (if it wins: see)",
        "N-2MI moves 0504 0604",
        "N-3LI moves 0603",
        "N-1AR N-HT attack 0905 on the assault CRT (2 political points, intensive, "
        "retreats N-1AR: 0804 0803, advance all, ambush pick N-HT)",
    ]
    orders = read.orders
    # Every order knows its cell, for the checker and for cancellation at resolve time.
    assert [m.cell for m in orders.moves] == ["Orders!B24", "Orders!B25"]
    assert orders.attacks[0].cell == "Orders!B43" and orders.purchases[1].cell == "Orders!B13"
    assert orders.message == "Good luck, Bob." and read.meta["kind"] == "impulse"


def test_the_sheet_says_whose_exchange_and_which_impulse(tmp_path: Path) -> None:
    state = start()
    ws = openpyxl.load_workbook(written(state, "Ann", tmp_path))["Orders"]
    assert ws["A1"].value == "MILLENNIUM WARS - IMPULSE"
    assert ws["A2"].value == "Turn 1, Northland's player turn, impulse 1"
    assert ws["B4"].value == "Northland (Ann)" and ws["B5"].value == "1-1-1"
    state.point = Point(1, 1, 1, reaction=True)
    ws = openpyxl.load_workbook(written(state, "Bob", tmp_path))["Orders"]
    assert ws["A1"].value == "MILLENNIUM WARS - REACTION"
    assert ws["A2"].value == "Turn 1, Northland's player turn, impulse 1: Sarkand's reaction"
    # Not Bob's to order in the phasing exchange, nor Ann's in the reaction.
    with pytest.raises(UsageError, match="not Northland's exchange"):
        written(state, "Ann", tmp_path)


def test_a_reaction_sheet_has_reserve_moves_and_the_defence_only(tmp_path: Path) -> None:
    state = start()
    state.point = Point(1, 1, 1, reaction=True)
    path = written(state, "Bob", tmp_path)
    ws = openpyxl.load_workbook(path)["Orders"]
    open_cells = {
        c.coordinate for row in ws.iter_rows() for c in row if c.protection.locked is False
    }
    assert "B24" in open_cells and "C53" in open_cells  # moves, the defence
    assert not {"B12", "B19", "B43"} & open_cells  # purchases, information, attacks
    typed = Orders(
        "Bob",
        "1-1-1r",
        moves=[Move("S-3", ["1006"])],
        defence=Defence({"S-5": ["1104"]}, ["S-3"], "S-5", 1),
    )
    RULESET.fill_sheet(path, typed)
    read = RULESET.read_sheet(path)
    assert read.problems == [] and read.orders.defence == typed.defence
    assert RULESET.orders_text(read.orders) == [
        "S-3 moves 1006",
        "Defence: retreats S-5: 1104, advance S-3, ambush pick S-5, 1 political points",
    ]


def test_fast_play_puts_the_standing_defence_on_the_impulse_sheet(tmp_path: Path) -> None:
    state = start()
    plain = openpyxl.load_workbook(written(state, "Ann", tmp_path))["Orders"]
    assert plain["C53"].protection.locked is not False
    path = written(state, "Ann", tmp_path, fast_play=True)
    ws = openpyxl.load_workbook(path)["Orders"]
    assert ws["C53"].protection.locked is False and "STANDING DEFENCE" in ws["A52"].value
    type_cells(path, {"C53": "N-2MI: 0403", "C54": "all"})
    read = RULESET.read_sheet(path)
    assert read.orders.defence == Defence({"N-2MI": ["0403"]}, ["*"])


def test_the_ceasefire_answer(tmp_path: Path) -> None:
    state = start()
    state.point = Point(2, ceasefire=True)
    path = written(state, "Bob", tmp_path)
    assert RULESET.read_sheet(path).orders.ceasefire == "refuse"  # blank: the war goes on
    type_cells(path, {"C11": "Accept"})
    assert RULESET.read_sheet(path).orders.ceasefire == "accept"
    type_cells(path, {"C11": "perhaps"})
    read = RULESET.read_sheet(path)
    assert [(p.cell, p.severity) for p in read.problems] == [("C11", "error")]


def test_every_problem_is_pinned_to_its_cell(tmp_path: Path) -> None:
    state = start()
    path = written(state, "Ann", tmp_path)
    type_cells(
        path,
        {
            "B24": "N-2MI",
            "C24": "0504 99x",  # not a hex
            "B25": "N-3LI",  # a unit without its path
            "B43": "N-1AR",
            "C43": "0905",  # no CRT
            "B44": "N-1AR",
            "C44": "0905",
            "D44": "ambush",  # not a table
            "G44": "N-1AR 0804",  # a retreat without its colon
            "B12": "tanks",  # not a purchase
            "C19": "index",  # a choice without cybercadres
        },
    )
    read = RULESET.read_sheet(path)
    assert sorted(p.cell for p in read.problems) == sorted(
        ["C24", "B25", "D43", "D44", "G44", "B12", "B19"]
    )
    assert read.orders.moves == [] and read.orders.attacks == []


@pytest.mark.libreoffice
def test_a_sheet_survives_libreoffice(tmp_path: Path) -> None:
    state = start()
    path = written(state, "Ann", tmp_path)
    typed = impulse_orders()
    RULESET.fill_sheet(path, typed)
    converted = through_libreoffice(path, tmp_path / "lo")
    read = RULESET.read_sheet(converted)
    assert read.problems == []
    assert RULESET.orders_text(read.orders) == RULESET.orders_text(typed)


def test_the_situation_page_shows_only_what_the_side_sees(tmp_path: Path) -> None:
    state = start()
    ws = openpyxl.load_workbook(written(state, "Ann", tmp_path))["Situation"]
    text = "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    assert "N-1AR" in text and "0205 Aldmark (city): " in text
    seen = {u.id for u in RULESET.player_view(state, "Ann").units if u.side == "Sarkand"}
    hidden = {u.id for u in state.units if u.side == "Sarkand"} - seen
    assert hidden, "the training scenario hides some Sarkand units at the start"
    assert not [uid for uid in hidden if uid in text.split()]
    assert all(uid in text for uid in seen)


def test_a_damaged_kind_is_refused(tmp_path: Path) -> None:
    state = start()
    path = written(state, "Ann", tmp_path)
    wb = openpyxl.load_workbook(path)
    meta = wb["_meta"]
    for row in meta.iter_rows():
        if row[0].value == "kind":
            row[1].value = "battle"
    wb.save(path)
    with pytest.raises(NotATurnSheet, match="kind, player or exchange is damaged"):
        mw_sheet.read_opened(open_turn_sheet(path))
