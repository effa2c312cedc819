"""Battles fought on the referee's table (house rule ``battles = "referee"``): the turn stops
after its strategic phase, a result sheet per battle is written, filled in, checked and read,
and the step that reads them finishes the turn.  Situations by hand with fixed dice; one
battle is also fought by the printed procedure on both paths, which must agree."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.config import save_config
from refassist.demo import computer_sheets, create_demo_game
from refassist.dice import Dice
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.rulesets.millenium import sheet
from refassist.rulesets.millenium.ai import STAND_IN, computer_orders
from refassist.rulesets.millenium.battlesheet import battle_tab
from refassist.rulesets.millenium.charts import load_tables
from refassist.rulesets.millenium.orders import (
    BattleResult,
    FleetMove,
    Orders,
    PlanetResult,
    Purchase,
    ShipResult,
)
from refassist.rulesets.millenium.resolve import resolve_turn
from refassist.rulesets.millenium.rules import complete
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, State
from refassist.rulesets.millenium.tablebattles import hex_battle, result_of, ships_in
from refassist.rulesets.millenium.tactical import fight
from refassist.rulesets.millenium.validate import validate_orders
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename
from refassist.text.i18n import speaking_to
from refassist.turns import resolve_game
from refassist.workbook.master import read_master, write_master
from tests.libreoffice import through_libreoffice
from tests.millenium.test_fog_of_war import pdf_text

from .situations import at, place, playing

REFEREE = {"battles": "referee"}
PACKAGE = "refassist.rulesets.millenium"
RULESET = find_ruleset("millenium")


def attack_on_n1() -> tuple[State, Orders]:
    """Turn 3: fleet K (two vaisseaux and a colonisation ship, 9 points) lands on N1 (loyalty
    3, three bases) and attacks if it refuses; the Empire's fleet A (a frégate) stands in the
    same sector, so the planet refuses with no die rolled (rule VII C)."""
    state = playing(3)
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    place(state, EMPIRE, "A", "33C4", "fregate")
    state.points[ALIEN] = {"X": 10}
    orders = Orders(
        ALIEN,
        "3",
        moves=[FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1", attack=True)],
        purchases=[Purchase("B", "corvette", 2, "Orders!B27")],
    )
    return state, orders


def held() -> State:
    state, orders = attack_on_n1()
    dice = Dice.scripted([])
    after = resolve_turn(state, {"Vera": orders}, dice, REFEREE).state
    assert dice.log == []  # no battle die rolled
    return after


def finish(state: State, results: dict[str, BattleResult], dice: list[int]) -> State:
    return resolve_turn(state, dict(results), Dice.scripted(dice), REFEREE).state


def test_a_turn_with_a_battle_stops_for_the_table() -> None:
    state = held()
    assert state.turn == 3 and state.held is not None
    (battle,) = state.held.battles
    assert (battle.id, str(battle.position), battle.planet, battle.attacker) == (
        "B3-1",
        "33C4",
        "N1",
        ALIEN,
    )
    # Production waits for the tactical phase: nothing scored, nothing bought yet.
    assert state.points[ALIEN] == {"X": 10}
    assert [p.fleet for p in state.held.purchases] == ["B"]
    step = RULESET.current_step(state)
    assert (step.key, step.expects, step.waits_for_referee, step.dice_turn) == (
        "3-batailles",
        ("B3-1",),
        True,
        103,
    )
    assert any(e.kind == "battle_waiting" for e in state.events)


def test_the_result_entered_is_applied_and_the_turn_finished() -> None:
    state = held()
    result = BattleResult(
        "B3-1",
        "3-batailles",
        "",
        ships=[
            ShipResult(ALIEN, "K", 0, "vaisseau", "damaged", "Battle!F20"),
            ShipResult(EMPIRE, "A", 0, "fregate", "destroyed", "Battle!F23"),
        ],
        planet=[PlanetResult("N1", 1, False, "Battle!B12")],
        rounds=6,
    )
    after = finish(state, {"B3-1": result}, [])
    n1 = after.planet("N1")
    assert n1 is not None and (n1.holder, n1.bases, n1.loyalty) == (EMPIRE, 1, 1)
    k = after.fleet(ALIEN, "K")
    assert k is not None and [s.damaged for s in k.ships] == [True, False, False]
    a = after.fleet(EMPIRE, "A")
    assert a is not None and (a.where, a.ships) == ("destroyed", [])
    # Then the rest of the turn: 2 corvettes at 2 points each (TAB 1) from the 10 banked; the
    # Extraterrestrial holds no planet, so it scores nothing.
    assert after.held is None and after.turn == 4
    assert after.points[ALIEN] == {"X": 6}
    assert [s.kind for s in after.fleet(ALIEN, "B").ships].count("corvette") >= 2  # type: ignore[union-attr]
    battle = next(e for e in after.events if e.kind == "battle")
    assert battle.data["table"] and "2 round" not in battle.text


def test_a_conquest_entered_takes_the_planet_at_the_bases_left() -> None:
    state = held()
    result = BattleResult(
        "B3-1",
        "3-batailles",
        "",
        ships=[ShipResult(EMPIRE, "A", 0, "fregate", "destroyed", "Battle!F23")],
        planet=[PlanetResult("N1", 2, True, "Battle!B12")],
    )
    after = finish(state, {"B3-1": result}, [])
    n1 = after.planet("N1")
    # Loyalty after a conquest is the bases left; the colonisation ship colonises it.
    assert n1 is not None and (n1.holder, n1.colonised, n1.loyalty) == (ALIEN, ALIEN, 2)


def test_the_attacker_leaving_jumps_away_and_the_planet_holds() -> None:
    state = held()
    result = BattleResult(
        "B3-1", "3-batailles", "", planet=[PlanetResult("N1", 3, False, "")], left=(ALIEN,)
    )
    # The retreat: a jump from the maximum distance, TAB 3 then the roses (3 dice).
    after = finish(state, {"B3-1": result}, [3, 3, 3])
    k = after.fleet(ALIEN, "K")
    assert k is not None and k.position != at("33C4")
    assert any(e.kind == "jump" for e in after.events)
    assert "the attacker left" in next(e.text for e in after.events if e.kind == "battle")


def test_a_battle_with_no_result_is_fought_by_the_standing_orders() -> None:
    state = held()
    dice = Dice(seed=11)
    after = resolve_turn(state, {}, dice, REFEREE).state
    assert any(e.kind == "battle_unresolved" for e in after.events)
    battle = next(e for e in after.events if e.kind == "battle")
    assert battle.data["shots"] and after.turn == 4


def test_the_procedure_fought_on_either_path_gives_the_same_state() -> None:
    """The automatic battle with some dice, and the same battle fought with the same dice
    into a result sheet's form and entered, leave the same fleets and planets."""
    state, orders = attack_on_n1()
    rng = random.Random(4242)
    rolls = [rng.randint(1, 6) for _ in range(600)]
    automatic = resolve_turn(state, {"Vera": orders}, Dice.scripted(rolls), {}).state
    waiting = held()
    assert waiting.held is not None
    battle = waiting.held.battles[0]
    tables = load_tables()
    rules = complete({})
    fought, tactics, _, _ = hex_battle(
        copy.deepcopy(waiting), tables, rules, battle.position, ALIEN, "N1"
    )
    dice = Dice.scripted(rolls)
    fight(fought, tables, tactics, dice, rules)
    entered = result_of(fought, battle, "3-batailles", "")
    table = finish(waiting, {"B3-1": entered}, rolls[len(dice.log) :])

    def shape(s: State) -> object:
        return (
            [
                (f.side, f.letter, f.where, str(f.position), [vars(x) for x in f.ships])
                for f in s.fleets
            ],
            [vars(p) for p in s.all_planets()],
            s.points,
            s.turn,
        )

    assert fought.shots  # a real battle, shot by shot
    assert shape(table) == shape(automatic)


def test_fleets_across_levels_fight_once_on_either_path() -> None:
    """With ``fight_across_levels`` the fleets of one sector fight one battle, whatever levels
    they stand on: the mover's fleets on levels 4 and 5 open one battle for the table, with
    all three fleets, as the automatic resolution fights one."""
    state = playing(3)
    place(state, ALIEN, "K", "23N4", "vaisseau")
    place(state, ALIEN, "δ", "23N5", "fregate")
    place(state, EMPIRE, "A", "23N4", "fregate")
    across = {"fight_across_levels": True}
    automatic = resolve_turn(state, {}, Dice(seed=2), across).state
    assert [e.kind for e in automatic.events].count("battle") == 1
    held = resolve_turn(state, {}, Dice.scripted([]), {**across, **REFEREE}).state
    assert held.held is not None and len(held.held.battles) == 1
    assert {(s.fleet, s.index) for s in ships_in(held, held.held.battles[0], True)} == {
        ("K", 0),
        ("δ", 0),
        ("A", 0),
    }


def test_on_one_level_each_level_of_a_sector_is_its_own_battle() -> None:
    """Without ``fight_across_levels`` fleets meet only on their own level: the mover's
    fleets meeting enemies on levels 4 and 5 of one sector open two battles of fleets."""
    state = playing(3)
    place(state, ALIEN, "K", "23N4", "vaisseau")
    place(state, ALIEN, "δ", "23N5", "fregate")
    place(state, EMPIRE, "A", "23N4", "fregate")
    place(state, EMPIRE, "B", "23N5", "corvette")
    place(state, EMPIRE, "X", "23E4", "corvette")  # another sector of the zone: no battle
    held = resolve_turn(state, {}, Dice.scripted([]), REFEREE).state
    assert held.held is not None
    assert [(str(b.position), b.planet) for b in held.held.battles] == [("23N4", ""), ("23N5", "")]
    across = resolve_turn(state, {}, Dice.scripted([]), {**REFEREE, "fight_across_levels": True})
    assert across.state.held is not None
    (battle,) = across.state.held.battles
    assert {s.fleet for s in ships_in(across.state, battle, True)} == {"K", "δ", "A", "B"}


def test_a_carriers_interceptors_are_written_back_and_no_other_ships() -> None:
    state = playing(3)
    place(state, ALIEN, "K", "23N4", "porte_intercepteur", "corvette")
    place(state, EMPIRE, "A", "23N4", "fregate")
    state.fleet(ALIEN, "K").ships[0].interceptors = 6  # type: ignore[union-attr]
    held = resolve_turn(state, {}, Dice.scripted([]), REFEREE).state
    result = BattleResult(
        "B3-1",
        "3-batailles",
        "",
        ships=[
            ShipResult(ALIEN, "K", 0, "porte_intercepteur", "", "Battle!F20", 0),
            ShipResult(ALIEN, "K", 1, "corvette", "", "Battle!F21", 4),
        ],
    )
    found = validate_orders(held, "B3-1", result)
    assert [(p.cell, p.severity) for p in found] == [("F21", "error")]
    after = finish(held, {"B3-1": result}, [])
    k = after.fleet(ALIEN, "K")
    assert k is not None and [s.interceptors for s in k.ships] == [0, 0]


# -- the checker ---------------------------------------------------------------------------------
def problems(state: State, result: BattleResult) -> dict[tuple[str, str], str]:
    return {(p.cell, p.severity): p.message for p in validate_orders(state, "B3-1", result)}


def test_the_checker_holds_the_result_to_the_battle() -> None:
    state = held()
    good = BattleResult(
        "B3-1",
        "3-batailles",
        "",
        ships=[ShipResult(EMPIRE, "A", 0, "fregate", "destroyed", "Battle!F23")],
        planet=[PlanetResult("N1", 0, True, "Battle!B12")],
    )
    assert problems(state, good) == {}
    # The Empire's frégate still afloat: a planet with its side's ships present does not fall.
    afloat = BattleResult("B3-1", "3-batailles", "", planet=[PlanetResult("N1", 0, True, "")])
    assert "does not fall" in problems(state, afloat)[("E12", "error")]
    # Surrender in battle only at 3 bases or fewer (N1 has 3: 3 passes, and no more exist).
    lost = BattleResult(
        "B3-1",
        "3-batailles",
        "",
        ships=[
            ShipResult(EMPIRE, "A", 0, "fregate", "destroyed", "Battle!F23"),
            *(
                ShipResult(ALIEN, "K", n, k, "destroyed", f"Battle!F{20 + n}")
                for n, k in enumerate(("vaisseau", "vaisseau", "colonisation"))
            ),
        ],
        planet=[PlanetResult("N1", 0, True, "")],
        left=(ALIEN,),
    )
    found = problems(state, lost)
    assert "no ship left" in found[("E12", "error")]
    assert "no ship of that side" in found[("C14", "error")]
    stray = BattleResult(
        "B3-1", "3-batailles", "", ships=[ShipResult(ALIEN, "K", 5, "corvette", "", "Battle!F25")]
    )
    assert "no longer at the battle" in problems(state, stray)[("F25", "error")]
    other = BattleResult("B3-2", "3-batailles", "")
    assert "no battle B3-2" in problems(state, other)[("B4", "error")]


# -- the sheet -----------------------------------------------------------------------------------
def _sheet(state: State, path: Path, language: str = "fr") -> None:
    with speaking_to(language, PACKAGE):
        sheet.write_sheet(
            state, "B3-1", path, token="t", deadline="jeu. 26 nov. 2026", house_rules=REFEREE
        )


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_battle_sheet_reads_back_what_was_typed(tmp_path: Path, language: str) -> None:
    state = held()
    path = tmp_path / "B3-1.xlsx"
    _sheet(state, path, language)
    ws = openpyxl.load_workbook(path)[battle_tab(language)]
    rows = [ws[f"C{r}"].value for r in range(20, 24)]
    assert rows == ["K", "K", "K", "A"]
    result = computer_orders(state, "B3-1", 5, REFEREE)
    assert isinstance(result, BattleResult) and result.notes == STAND_IN
    sheet.fill_sheet(path, result)
    read = sheet.read_sheet(path)
    assert read.problems == []
    assert sheet.orders_text(read.orders) == sheet.orders_text(result)
    assert validate_orders(state, "B3-1", read.orders) == []


def test_the_battle_sheet_reads_either_language_and_refuses_nonsense(tmp_path: Path) -> None:
    state = held()
    path = tmp_path / "B3-1.xlsx"
    _sheet(state, path)
    book = openpyxl.load_workbook(path)
    ws = book[battle_tab("fr")]
    ws["D12"], ws["E12"], ws["C14"] = 0, "yes", "les deux"
    ws["F20"], ws["F21"], ws["F23"] = "Destroyed", "endommagé", "coulé"
    ws["G22"] = "=1+1"
    book.save(path)
    read = sheet.read_sheet(path)
    assert isinstance(read.orders, BattleResult)
    assert [(r.fleet, r.index, r.fate) for r in read.orders.ships] == [
        ("K", 0, "destroyed"),
        ("K", 1, "damaged"),
    ]
    assert read.orders.planet == [PlanetResult("N1", 0, True, "Bataille!B12")]
    assert read.orders.left == (ALIEN, EMPIRE)
    assert {p.cell for p in read.problems} == {"F23", "G22"}


@pytest.mark.libreoffice
def test_the_battle_sheet_survives_libreoffice(tmp_path: Path) -> None:
    state = held()
    path = tmp_path / "B3-1.xlsx"
    _sheet(state, path)
    result = computer_orders(state, "B3-1", 5, REFEREE)
    sheet.fill_sheet(path, result)
    read = sheet.read_sheet(through_libreoffice(path, tmp_path / "lo"))
    assert read.problems == []
    assert sheet.orders_text(read.orders) == sheet.orders_text(result)


def test_a_held_turn_reads_back_from_the_master_workbook(tmp_path: Path) -> None:
    state = held()
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    again = read_master(path, RULESET)
    assert again.held == state.held
    assert RULESET.to_json(again) == RULESET.to_json(state)
    # And the turn finishes the same from either (no result: fought by the standing orders).
    one = resolve_turn(state, {}, Dice(seed=3), REFEREE).state
    two = resolve_turn(again, {}, Dice(seed=3), REFEREE).state
    assert RULESET.to_json(one) == RULESET.to_json(two)


# -- through the engine --------------------------------------------------------------------------
@pytest.mark.slow
def test_a_referee_game_waits_for_the_battle_sheet_and_reports_it(tmp_path: Path) -> None:
    """The demo's sides with ``battles = "referee"``: the turn that opens a battle stops, its
    sheet is in the outbox, `check` and `intake` take it, `status` says what waits, and the
    reports tell the battle with the referee's notes, in French."""
    game = create_demo_game(tmp_path / "demo", 2, 5, ruleset=RULESET)
    game.config.house_rules["battles"] = "referee"
    save_config(game.path / "game.toml", game.config, {})
    game = Game.open(game.path)
    for _ in range(8):
        state = game.load_state()
        if game.step(state).waits_for_referee:
            break
        intake(game, computer_sheets(game, state, 5))
        resolve_game(game, force=True)
    step = game.step(state)
    assert step.waits_for_referee, "no battle in the first turns of the demo"
    battle = step.expects[0]
    path = game.outbox(step.key) / sheet_filename(battle)
    assert path.exists()
    status = CliRunner().invoke(main, ["status", str(game.path)])
    assert status.exit_code == 0 and f"Waiting for: {battle}" in status.output
    result = computer_orders(state, battle, 5, REFEREE)
    assert isinstance(result, BattleResult)
    result.notes = "Combat mené sur la table le 26 novembre"
    filled = tmp_path / "filled.xlsx"
    filled.write_bytes(path.read_bytes())
    sheet.fill_sheet(filled, result)
    check = CliRunner().invoke(main, ["check", str(filled), "--game", str(game.path)])
    assert check.exit_code == 0, check.output
    assert "conquise" in check.output or "tient avec" in check.output  # the result as read
    intake(game, [filled])
    for other in step.expects[1:]:  # any other battle of the turn, fought by the computer
        more = tmp_path / f"{other}.xlsx"
        more.write_bytes((game.outbox(step.key) / sheet_filename(other)).read_bytes())
        sheet.fill_sheet(more, computer_orders(state, other, 5, REFEREE))
        intake(game, [more])
    outcome = resolve_game(game)
    assert not game.step(outcome.state).waits_for_referee
    run = write_reports(game, state=outcome.state, referee=True, jobs=1)
    for report in run.reports:
        text = pdf_text(report.path)
        assert "Combat mené sur la table" in text, report.reader
        assert "livrée sur la table de l'arbitre" in text, report.reader
