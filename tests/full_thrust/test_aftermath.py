"""Ships' timelines, travel and a battle's aftermath (issue 50): fuel that moves between ships
and runs out, FTL drives repaired and replaced, a capital ship's scrapping carried over the
week, a towed platform mining before and after its tow, an ancient item carried home, a
neutral planet kept by its natives unless invaded, and ships that withdraw from a battle.
Every figure is counted by hand from fixed dice."""

from __future__ import annotations

import random
from pathlib import Path

import openpyxl

from refassist.dice import Dice
from refassist.rulesets.full_thrust.ai import stand_in_result
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.sheet import fill_sheet, orders_text, read_sheet, write_sheet
from refassist.rulesets.full_thrust.state import BattleResult, Facility, State
from refassist.rulesets.full_thrust.validate import validate_orders
from refassist.workbook.master import read_master, write_master

from .situations import seed_map, ship, week_orders
from .test_setup_tables import Campaign

RULES = complete()


def messages(state: State, player: str, orders: object) -> list[str]:
    return [p.message for p in validate_orders(state, player, orders, RULES)]


# -- fuel ------------------------------------------------------------------------------------


def test_refuelling_from_a_tender_moves_its_fuel_units() -> None:
    """A Wellspring tender (mass 50: 13 units, trebled, 39) fills a dry Claymore cruiser
    (mass 50: 13 units): 13 units are 13 x 20 / 39 = 6.7, 7 parsecs of the tender's range."""
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=0)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "B")
    orders = week_orders("Ann", ANN_1=["refuel from ANN-2", "jump A"])
    assert messages(state, "Ann", orders) == []
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    cruiser, tender = after.ship("ANN-1"), after.ship("ANN-2")
    assert (cruiser.place, cruiser.fuel) == ("A", 20 - 5)
    assert tender.fuel == 20 - 7
    told = next(e.text for e in after.events if e.kind == "refuelled")
    assert "ANN-1 20" in told and "ANN-2 keeps 13" in told


def test_a_giver_keeps_the_fuel_of_its_own_jumps_and_a_dry_one_gives_nothing() -> None:
    # The tender has 6 parsecs and jumps to A (5) later: 1 parsec to spare, 39 // 20 = 1
    # unit, 1 x 20 // 13 = 1 parsec for the cruiser, which cannot then jump 5 to A.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=0)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "B", fuel=6)
    orders = week_orders(
        "Ann", ANN_1=["refuel from ANN-2", "jump A"], ANN_2=["wait until 2.0", "jump A"]
    )
    assert messages(state, "Ann", orders) == []
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    cruiser, tender = after.ship("ANN-1"), after.ship("ANN-2")
    assert (cruiser.place, cruiser.fuel) == ("B", 1)
    assert (tender.place, tender.fuel) == ("A", 0)
    (void,) = [e for e in after.events if e.kind == "jump_void"]
    assert void.location == "B"
    assert void.text == (
        "ANN-1 cannot jump from B to A at 1.0: fuel for 1 parsecs, 5 needed; it stays there "
        "for the rest of the week"
    )
    lines = {e.data["unit"]: e.data["lines"] for e in after.events if e.kind == "timeline"}
    assert lines["ANN-1"] == ["0.0-1.0 refuel from ANN-2 at B", "stopped there for the week"]
    # Waiting is not an activity the report lists.
    assert lines["ANN-2"] == ["2.0-2.5 jump B to A, 5 parsecs"]
    # A dry tender gives nothing; the house rule's reserve keeps fuel back too.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=0)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "B", fuel=0)
    orders = week_orders("Ann", ANN_1=["refuel from ANN-2"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert (after.ship("ANN-1").fuel, after.ship("ANN-2").fuel) == (0, 0)
    state.ship("ANN-2").fuel = 20
    reserve = complete({"tanker_reserve": 15})
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), reserve).state
    # 5 parsecs to spare: 5 x 39 // 20 = 9 units, 9 x 20 // 13 = 13 parsecs; 9 units are
    # 4.6, 5 parsecs of the tender's.
    assert (after.ship("ANN-1").fuel, after.ship("ANN-2").fuel) == (13, 15)


def test_a_warship_refuels_in_orbit_at_a_port_of_its_commanders() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A", fuel=3)
    assert messages(state, "Ann", week_orders("Ann", ANN_1=["refuel"])) == []
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["refuel"])}, Dice.scripted([]), RULES
    ).state
    assert after.ship("ANN-1").fuel == 20
    # Not at a neutral planet it cannot land on, nor at a rival's port.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=3)
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "D", fuel=3)
    problems = messages(state, "Ann", week_orders("Ann", ANN_1=["refuel"], ANN_2=["refuel"]))
    assert problems == ["there is nothing to refuel from here"] * 2


# -- FTL drives ------------------------------------------------------------------------------


def test_a_disabled_drive_is_repaired_and_a_destroyed_one_replaced_at_a_yard() -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    state.facilities.append(Facility("ANN-ST", "station", "Ann", "C"))
    state.stocks[("A", "Ann")] = 100
    state.stocks[("C", "Ann")] = 50
    ship(state, "ANN-1", "Halberd frigate", "Ann", "A", drive="disabled")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "A", drive="destroyed", damage=3)
    ship(state, "ANN-3", "Claymore cruiser", "Ann", "C", drive="destroyed", damage=2)
    orders = week_orders("Ann", ANN_1=["repair", "jump B"], ANN_2=["repair"], ANN_3=["repair"])
    problems = validate_orders(state, "Ann", orders, RULES)
    # A station only repairs: the boxes, not the destroyed drive (warned).
    assert [(p.message, p.severity) for p in problems] == [
        (
            "the destroyed FTL drive is replaced only at a shipyard of yours (a starport for "
            "a streamlined ship); this repairs its damage boxes only",
            "warning",
        )
    ]
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    frigate, cruiser, other = (after.ship(i) for i in ("ANN-1", "ANN-2", "ANN-3"))
    # The frigate: a day, 50% of its drive's 10% of 68 = 3.4, 4 points; then B at 1.5.
    assert (frigate.drive, frigate.place) == ("ok", "B")
    # The cruiser: the week; 3 boxes 50% x 172 x 3/15 = 17.2, 18, and a drive at twice 10%
    # of 172 = 34.4, 35: 53 points.
    assert (cruiser.drive, cruiser.damage) == ("ok", 0)
    assert after.stock("A", "Ann") == 100 + 200 - 4 - 53
    # The station: 2 boxes for 12 points; the drive stays destroyed.
    assert (other.drive, other.damage) == ("destroyed", 0)
    assert after.stock("C", "Ann") == 50 - 12
    texts = [e.text for e in after.events if e.kind == "repaired"]
    assert "ANN-2 is repaired at A: 3 boxes and a new FTL drive for 53 points" in texts
    # Nothing to do at the station for an undamaged ship with a destroyed drive: refused.
    assert messages(after, "Ann", week_orders("Ann", 2, ANN_3=["repair"])) == [
        "the destroyed FTL drive is replaced only at a shipyard of yours (a starport for a "
        "streamlined ship)"
    ]


# -- scrapping -------------------------------------------------------------------------------


def test_a_capital_ship_is_scrapped_over_two_weeks(tmp_path: Path) -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    ship(state, "ANN-1", "Bastion battleship", "Ann", "A")
    orders = week_orders("Ann", ANN_1=["scrap"])
    assert messages(state, "Ann", orders) == []
    assert messages(state, "Ann", week_orders("Ann", ANN_1=["scrap", "jump B"])) == [
        "the ship is being scrapped before this; it does nothing else"
    ]
    week1 = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    battleship = week1.ship("ANN-1")
    assert battleship is not None and battleship.scrapping == 50
    told = next(e.text for e in week1.events if e.kind == "scrapping")
    assert "carries on next week (50 hours left)" in told
    # The master workbook keeps it; the sheet shows it; its orders are refused.
    path = tmp_path / "master.xlsx"
    write_master(path, Campaign(), week1)
    assert read_master(path, Campaign()).ship("ANN-1").scrapping == 50
    sheet = tmp_path / "ann.xlsx"
    write_sheet(week1, "Ann", sheet, token="t", deadline="")
    cells = [
        str(c.value) for ws in openpyxl.load_workbook(sheet) for r in ws.iter_rows() for c in r
    ]
    assert any("being scrapped (50 hours left; no orders)" in c for c in cells)
    # A master from before the columns reads as nothing being scrapped, nothing aboard.
    wb = openpyxl.load_workbook(path)
    header = [c.value for c in wb["Ships"][1]]
    for title in ("Item", "Scrapping"):
        wb["Ships"].delete_cols(header.index(title) + 1)
    wb.save(path)
    older = read_master(path, Campaign()).ship("ANN-1")
    assert (older.scrapping, older.item) == (0, 0)
    problems = messages(week1, "Ann", week_orders("Ann", 2, ANN_1=["jump B"]))
    assert problems == ["ANN-1 is being scrapped at A (50 hours of work left): it takes no orders"]
    week2 = resolve_turn(
        week1, {"Ann": week_orders("Ann", 2, ANN_1=["jump B"])}, Dice.scripted([]), RULES
    ).state
    assert week2.ship("ANN-1") is None
    # 486 // 4 = 121 points, with two weeks' production of 200.
    assert week2.stock("A", "Ann") == 200 + 200 + 121
    timeline = next(e.text for e in week2.events if e.kind == "timeline")
    assert "0.0-5.0 scrap (carried on) at A" in timeline


# -- towing, ancient items -------------------------------------------------------------------


def test_a_towed_platform_mines_before_its_tow_and_after_its_release() -> None:
    state = seed_map()
    state.systems["B"].belt = "poor"
    state.facilities.append(Facility("ANN-OMP", "omp", "Ann", "C"))
    ship(state, "ANN-1", "Harness tug", "Ann", "C")
    orders = week_orders("Ann", ANN_1=["at 3.0 tow ANN-OMP", "jump B", "release"])
    assert messages(state, "Ann", orders) == []
    # At C 0.0-3.0 (30 hours of the rich belt's 500: 150); towed 3.0-4.0, C to B 6 parsecs
    # 4.0-4.6, released 4.6-5.6: 44 hours of the poor belt's 250, 110.  Normal rolls.
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([3, 3, 3, 4, 4, 4]), RULES).state
    assert (after.stock("C", "Ann"), after.stock("B", "Ann")) == (150, 110)
    assert [e.data["points"] for e in after.events if e.kind == "mining"] == [150, 110]
    # Another platform at C, not towed, mines the whole week there (500, rolled last).
    state.facilities.append(Facility("ANN-OMP2", "omp", "Ann", "C"))
    dice = Dice.scripted([3, 3, 3, 4, 4, 4, 3, 3, 4])
    after = resolve_turn(state, {"Ann": orders}, dice, RULES).state
    assert [e.data["points"] for e in after.events if e.kind == "mining"] == [150, 110, 500]


def test_an_ancient_item_is_carried_aboard_and_becomes_points_at_home() -> None:
    state = seed_map()
    state.systems["B"].ancient_site = True
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    orders = week_orders("Ann", ANN_1=["jump B", "explore"])
    # 2D6 = 10: an item, 1D6 = 3: worth 300, aboard the cruiser (no hold needed).
    week1 = resolve_turn(state, {"Ann": orders}, Dice.scripted([5, 5, 3]), RULES).state
    assert week1.ship("ANN-1").item == 300 and week1.stock("A", "Ann") == 200
    home = week_orders("Ann", 2, ANN_1=["jump A"])
    week2 = resolve_turn(week1, {"Ann": home}, Dice.scripted([]), RULES).state
    assert week2.ship("ANN-1").item == 0 and week2.stock("A", "Ann") == 200 + 200 + 300
    assert any(e.kind == "item_delivered" for e in week2.events)


# -- battles' aftermath ----------------------------------------------------------------------


def a_battle_at_b(**kw: object) -> State:
    """Ann's cruiser comes to B (neutral) where Bob's destroyer is: a battle at 0.5."""
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B", **kw)
    orders = week_orders("Ann", ANN_1=["jump B"])
    return resolve_turn(state, {"Ann": orders}, Dice.scripted([1, 1]), RULES).state


def test_a_neutral_planet_changes_hands_only_by_invasion() -> None:
    waiting = a_battle_at_b()
    (battle,) = waiting.battles
    result = BattleResult(battle.id, holder="Ann", cell="Battle!C9")
    problems = validate_orders(waiting, battle.id, result, RULES)
    assert [(p.cell, p.message) for p in problems] == [
        (
            "C9",
            "B is a neutral planet and Ann did not invade it: a neutral planet changes hands "
            "only by invasion",
        )
    ]
    after = resolve_turn(waiting, {battle.id: result}, Dice.scripted([1, 1]), RULES).state
    assert after.systems["B"].owner == ""
    text = next(e.text for e in after.events if e.kind == "battle_result")
    assert "B stays neutral: Ann did not invade it" in text


def test_a_ship_that_withdrew_is_elsewhere_next_week() -> None:
    waiting = a_battle_at_b()
    (battle,) = waiting.battles
    result = BattleResult(battle.id, damage={"ANN-1": 1}, withdrew={"BOB-1": "D"})
    assert validate_orders(waiting, battle.id, result, RULES) == []
    after = resolve_turn(waiting, {battle.id: result}, Dice.scripted([1, 1]), RULES).state
    destroyer = after.ship("BOB-1")
    # B to D is 1 parsec.
    assert (destroyer.place, destroyer.fuel) == ("D", 19)
    assert "BOB-1 withdraws to D" in next(e.text for e in after.events if e.kind == "battle_result")
    # Next week the two are apart: no battle, and Ann's cruiser's orders run from B.
    nxt = resolve_turn(
        after, {"Ann": week_orders("Ann", 2, ANN_1=["jump A"])}, Dice.scripted([]), RULES
    ).state
    assert not nxt.battles and nxt.ship("ANN-1").place == "A"


def test_a_withdrawal_is_one_jump_the_ship_could_make() -> None:
    waiting = a_battle_at_b(fuel=0)
    (battle,) = waiting.battles
    result = BattleResult(
        battle.id,
        destroyed=["ANN-1"],
        withdrew={"ANN-1": "A", "BOB-1": "D"},
        withdrew_cells={"ANN-1": "Battle!L13", "BOB-1": "Battle!L14"},
    )
    problems = [(p.cell, p.message) for p in validate_orders(waiting, battle.id, result, RULES)]
    assert problems == [
        ("L13", "ANN-1 is marked destroyed or captured; it did not withdraw"),
        ("L14", "BOB-1 has fuel for 0 parsecs; D is 1 away"),
    ]
    result = BattleResult(battle.id, withdrew={"ANN-1": "Gate", "BOB-1": "Nowhere"})
    problems = [p.message for p in validate_orders(waiting, battle.id, result, RULES)]
    assert problems == [
        "Gate is not within one jump of B (11 parsecs, at most 10, no obstacle)",
        "there is no system called 'Nowhere'",
    ]


def test_the_battle_sheet_reads_where_ships_withdrew_and_old_sheets_still_read(
    tmp_path: Path,
) -> None:
    waiting = a_battle_at_b()
    (battle,) = waiting.battles
    path = tmp_path / "battle.xlsx"
    write_sheet(waiting, battle.id, path, token="t", deadline="")
    assert openpyxl.load_workbook(path)["Battle"]["L12"].value == "Withdrew to"
    fill_sheet(path, BattleResult(battle.id, withdrew={"BOB-1": "D"}))
    read = read_sheet(path)
    assert read.problems == []
    assert read.orders.withdrew == {"BOB-1": "D"}
    assert read.orders.withdrew_cells == {"BOB-1": "Battle!L13"}
    assert orders_text(read.orders) == ["BOB-1 withdrew to D"]
    # A battle sheet written before the column: nothing withdrew.
    old = tmp_path / "old.xlsx"
    write_sheet(waiting, battle.id, old, token="t", deadline="")
    wb = openpyxl.load_workbook(old)
    wb["Battle"].delete_cols(12)
    wb.save(old)
    fill_sheet(old, BattleResult(battle.id, destroyed=["BOB-1"]))
    again = read_sheet(old)
    assert again.problems == [] and again.orders.withdrew == {}
    assert again.orders.destroyed == ["BOB-1"]


def test_the_demos_stand_in_sends_the_losers_survivors_home() -> None:
    state = seed_map()
    for n in (1, 2, 3):
        ship(state, f"ANN-{n}", "Bastion battleship", "Ann", "A")
    ship(state, "BOB-1", "Halberd frigate", "Bob", "B")
    ship(state, "BOB-2", "Falchion destroyer", "Bob", "B")
    orders = week_orders("Ann", Force=["jump B"])
    orders.timelines[0].unit = "Force"
    from refassist.rulesets.full_thrust.orders import FleetOrder

    orders.fleets.append(FleetOrder("Force", ["ANN-1", "ANN-2", "ANN-3"]))
    waiting = resolve_turn(state, {"Ann": orders}, Dice.scripted([1] * 6), RULES).state
    (battle,) = waiting.battles
    # Ann's 1458 points outweigh Bob's 172 x 6: Bob loses the frigate, the destroyer goes
    # home to D, a parsec away.
    result = stand_in_result(waiting, battle, random.Random(1), RULES)
    assert result.destroyed == ["BOB-1"] and result.withdrew == {"BOB-2": "D"}
    assert validate_orders(waiting, battle.id, result, RULES) == []
    after = resolve_turn(waiting, {battle.id: result}, Dice.scripted([1] * 4), RULES).state
    assert after.ship("BOB-2").place == "D"
    nxt = resolve_turn(after, {}, Dice.scripted([]), RULES).state
    assert not nxt.battles


def test_ground_defences_do_not_withdraw_and_a_captured_ship_is_no_longer_scrapped() -> None:
    state = seed_map()
    state.facilities.append(Facility("BOB-YARD", "shipyard", "Bob", "D"))
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Bastion battleship", "Bob", "D", scrapping=50)
    orders = week_orders("Ann", ANN_1=["jump D"])
    waiting = resolve_turn(state, {"Ann": orders}, Dice.scripted([1, 1]), RULES).state
    (battle,) = waiting.battles
    assert waiting.ship("BOB-1").scrapping == 50  # it was being scrapped when Ann came
    taken = BattleResult(battle.id, captured={"BOB-1": "Ann"})
    after = resolve_turn(waiting, {battle.id: taken}, Dice.scripted([1, 1]), RULES).state
    assert (after.ship("BOB-1").owner, after.ship("BOB-1").scrapping) == ("Ann", 0)
    # Without Bob's ship there, D's ground defences fight alone; they cannot jump away.
    state.ships.remove(state.ship("BOB-1"))
    waiting = resolve_turn(state, {"Ann": orders}, Dice.scripted([1, 1]), RULES).state
    (battle,) = waiting.battles
    refused = BattleResult(battle.id, withdrew={"D ground defences": "A"})
    problems = [p.message for p in validate_orders(waiting, battle.id, refused, RULES)]
    assert problems == ["D ground defences cannot jump away"]


def test_a_platform_towed_twice_mines_each_stretch_and_one_left_in_tow_is_carried() -> None:
    state = seed_map()
    state.systems["B"].belt = "poor"
    state.facilities.append(Facility("ANN-OMP", "omp", "Ann", "C"))
    ship(state, "ANN-1", "Harness tug", "Ann", "C")
    orders = week_orders(
        "Ann",
        ANN_1=["at 1.0 tow ANN-OMP", "release", "at 5.0 tow ANN-OMP", "jump B", "release"],
    )
    assert messages(state, "Ann", orders) == []
    # At C 0.0-1.0 (10 hours: 50), towed 1.0-2.0 and released at C 2.0-3.0, mining 3.0-5.0
    # (20 hours: 100); towed 5.0-6.0, C to B 6.0-6.6, released 6.6-7.6: 24 hours at B, 60.
    dice = Dice.scripted([3, 3, 3] * 3)
    after = resolve_turn(state, {"Ann": orders}, dice, RULES).state
    assert [e.data["points"] for e in after.events if e.kind == "mining"] == [50, 100, 60]
    # Left in tow at the week's end: it is where the tug is, and mines only before the tow.
    orders = week_orders("Ann", ANN_1=["at 5.0 tow ANN-OMP", "jump B"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([3, 3, 3]), RULES).state
    platform = next(f for f in after.facilities if f.id == "ANN-OMP")
    assert (platform.place, platform.towed_by) == ("B", "ANN-1")
    assert [e.data["points"] for e in after.events if e.kind == "mining"] == [250]


def test_a_ship_that_lifts_is_in_orbit_at_40_inches() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", landed=True, inches=0)
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["lift"])}, Dice.scripted([]), RULES
    ).state
    merchant = after.ship("ANN-1")
    assert (merchant.landed, merchant.inches) == (False, 40)
