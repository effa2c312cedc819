"""The campaign's sheets as players (and referees) really send them: through LibreOffice, and
hostile.  Every problem gets a clear answer pinned to its cell; the state never changes;
nothing crashes."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from refassist.dice import Dice
from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.sheet import fill_sheet, orders_text, read_sheet, write_sheet
from refassist.rulesets.full_thrust.state import BattleResult
from refassist.store.game import Game
from refassist.store.journal import sha256_file
from refassist.store.turnsheets import check_sheet
from tests.libreoffice import through_libreoffice

from .situations import seed_map, ship, week_orders

RULESET = find_ruleset("full-thrust-campaign")
RULES = complete()


@pytest.fixture
def game(tmp_path: Path) -> Game:
    """A real game folder at week 1 (the set-up played by the computer)."""
    players = [
        PlayerSetup("Ann", "ann@example.com", "Kell", computer=True),
        PlayerSetup("Bob", "bob@example.com", "Solace", computer=True),
    ]
    g = Game.create(tmp_path / "g", RULESET, players, name="Hostile", seed=4, secret="s3cret")
    from refassist.demo import computer_sheets
    from refassist.turns import resolve_game

    intake(g, computer_sheets(g, g.load_state(), 4))
    resolve_game(g, force=True)
    return g


def _sheet(game: Game, player: str = "Ann") -> Path:
    state = game.load_state()
    return game.outbox(str(state.week)) / f"{player}.xlsx"


def _typed(path: Path, cells: dict[str, object], page: str = "Timelines") -> Path:
    wb = openpyxl.load_workbook(path)
    for ref, value in cells.items():
        wb[page][ref] = value
    wb.save(path)
    return path


def test_hostile_cells_are_refused_on_their_cell_and_change_nothing(
    game: Game, tmp_path: Path
) -> None:
    sheet = shutil.copyfile(_sheet(game), tmp_path / "Ann.xlsx")
    _typed(
        sheet,
        {
            "C6": '=HYPERLINK("http://x")',  # a formula: refused by the engine as a formula
            "C7": "jump " + "A" * 5000,  # huge
            "C8": "jump Brenn 60\u201d b13",  # a bearing off the clock
            "C9": "land\u202e",  # a bidi control character
        },
    )
    before = sha256_file(game.master_path)
    result = check_sheet(sheet, game)
    cells = {(p.sheet, p.cell) for p in result.problems}
    assert ("Timelines", "C6") in cells and ("Timelines", "C8") in cells
    assert ("Timelines", "C7") in cells
    assert not result.accepted
    assert sha256_file(game.master_path) == before


def test_another_commanders_sheet_and_ships_are_refused(game: Game, tmp_path: Path) -> None:
    bob = shutil.copyfile(_sheet(game, "Bob"), tmp_path / "Bob.xlsx")
    state = game.load_state()
    ann_ship = next(s.id for s in state.ships if s.owner == "Ann")
    # Bob's fleet block names one of Ann's ships: not his.
    wb = openpyxl.load_workbook(bob)
    ws = wb["Timelines"]
    n = 0
    while ws[f"A{5 + n * 10}"].value == "Ship":
        n += 1
    ws[f"B{5 + n * 10}"] = ann_ship
    ws[f"C{6 + n * 10}"] = "jump Brenn"
    wb.save(bob)
    result = check_sheet(bob, game)
    assert any(
        ann_ship in p.message and "not one of your ships" in p.message for p in result.errors
    )
    # Ann's sheet with its player changed in the hidden meta: its signature no longer holds.
    ann = shutil.copyfile(_sheet(game), tmp_path / "Ann.xlsx")
    wb = openpyxl.load_workbook(ann)
    meta = wb["_meta"]
    for row in meta.iter_rows():
        if row[0].value == "player":
            row[1].value = "Bob"
    wb.save(ann)
    from refassist.errors import NotATurnSheet

    with pytest.raises(NotATurnSheet, match="signature"):
        check_sheet(ann, game)


def test_a_battle_result_must_match_the_forces_that_fought(tmp_path: Path) -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", cargo=300)
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    orders = {"Ann": week_orders("Ann", ANN_1=["jump B"])}
    waiting = resolve_turn(state, orders, Dice.scripted([1, 1]), RULES).state
    (battle,) = waiting.battles
    path = tmp_path / "battle.xlsx"
    write_sheet(waiting, battle.id, path, token="t", deadline="")
    wb = openpyxl.load_workbook(path)
    ws = wb["Battle"]
    ws["I13"] = "yes"  # BOB-1 destroyed ...
    ws["K13"] = "Ann"  # ... and captured
    ws["J14"] = 6  # ANN-1 has 6 boxes: losing 6 destroys it
    ws["C9"] = "Cleo"  # not in the battle
    ws["I15"] = "maybe"  # a row past the ships: not read
    wb.save(path)
    read = read_sheet(path)
    problems = RULESET.validate(waiting, battle.id, read.orders, {})
    where = {(p.sheet, p.cell): p.message for p in problems}
    assert "both destroyed and captured" in where[("Battle", "I13")]
    assert "destroys it" in where[("Battle", "I14")]
    assert "'Cleo' did not fight here" in where[("Battle", "C9")]
    assert orders_text(read.orders)[0] == "BOB-1 destroyed"


@pytest.mark.libreoffice
def test_the_weekly_sheet_and_the_battle_sheet_survive_libreoffice(tmp_path: Path) -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "A")
    path = tmp_path / "week.xlsx"
    write_sheet(state, "Ann", path, token="tok", deadline="Friday")
    orders = week_orders("Ann", ANN_1=["load 200", 'jump B 60" b4', "at 5.1 land", "sell all"])
    orders.allies = ["Bob"]
    fill_sheet(path, orders)
    converted = through_libreoffice(path, tmp_path / "lo")
    got = read_sheet(converted)
    assert got.problems == []
    assert orders_text(got.orders) == orders_text(orders)
    assert got.meta["token"] == "tok"
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    waiting = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["jump B"])}, Dice.scripted([2, 2]), RULES
    ).state
    (battle,) = waiting.battles
    sheet = tmp_path / "battle.xlsx"
    write_sheet(waiting, battle.id, sheet, token="tok", deadline="")
    fill_sheet(
        sheet, BattleResult(battle.id, destroyed=["BOB-1"], damage={"ANN-1": 2}, holder="Ann")
    )
    back = read_sheet(through_libreoffice(sheet, tmp_path / "lo2"))
    assert back.problems == [] and orders_text(back.orders) == [
        "BOB-1 destroyed",
        "ANN-1 loses 2 damage boxes",
        "Ann holds the system",
    ]


def test_a_battle_result_mailed_in_by_a_player_is_refused(game: Game, tmp_path: Path) -> None:
    """A commander who got the battle sheet at the table cannot enter the result himself: a
    sheet comes by mail only from its own player, and a battle is nobody's address."""
    from refassist.rulesets.full_thrust.state import Battle, InBattle
    from refassist.store.turnsheets import write_sheets
    from tests.test_intake import make_mail, write_eml

    # A week that left a battle for the table, set up by hand in the master.
    state = game.load_state()
    ann = next(s for s in state.ships if s.owner == "Ann")
    bob = next(s for s in state.ships if s.owner == "Bob")
    bob.place = ann.place
    state.battles = [
        Battle(
            f"B{state.week}-1",
            state.week,
            ann.place,
            5,
            [InBattle(ann.id, "Ann", ann.design), InBattle(bob.id, "Bob", bob.design)],
        )
    ]
    game.save_state(state)
    write_sheets(game, state)
    battle = state.battles[0].id
    sheet = game.outbox(f"{state.week}-battles") / f"{battle}.xlsx"
    fill_sheet(sheet, BattleResult(battle, holder=state.battles[0].sides[0]))
    mail = write_eml(
        tmp_path / "m.eml", make_mail("ann@example.com", [(sheet.name, sheet.read_bytes())])
    )
    before = sha256_file(game.master_path)
    outcome = intake(game, [mail])
    assert [o.status for o in outcome.outcomes] == ["refused"]
    assert "each player sends their own sheet" in outcome.outcomes[0].summary
    assert sha256_file(game.master_path) == before
    # From the referee's own files it is taken.
    again = intake(game, [sheet])
    assert [o.status for o in again.outcomes] == ["accepted"]
