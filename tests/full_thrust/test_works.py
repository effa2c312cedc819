"""Facilities, towing, repair and scrapping, resolved from fixed dice with hand-counted
figures: an Orbital Mining Platform built at a shipyard, towed to a belt by a tug and mining
from the hour it is released; a port built on a planet; a repair's time and cost (our
reconstruction, house rules); scrapping's 5 days a size class and 25% back."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.full_thrust.designs import Design
from refassist.rulesets.full_thrust.orders import Orders, Purchase
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import Facility
from refassist.rulesets.full_thrust.validate import validate_orders

from .situations import seed_map, ship, week_orders

RULES = complete()


def test_a_platform_is_built_towed_to_a_belt_and_mines_from_its_release() -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    state.stocks[("A", "Ann")] = 1000
    built = Orders("Ann", 1, purchases=[Purchase("omp", 1, "A", cell="Orders!B21")])
    assert validate_orders(state, "Ann", built, RULES) == []
    week1 = resolve_turn(state, {"Ann": built}, Dice.scripted([]), RULES).state
    omp = next(f for f in week1.facilities if f.kind == "omp")
    assert (omp.id, omp.place, omp.ready_week) == ("ANN-OMP1", "A", 2)
    assert week1.stock("A", "Ann") == 1000 + 200 - 500
    ship(week1, "ANN-1", "Harness tug", "Ann", "A")
    tow = week_orders("Ann", 2, ANN_1=["tow ANN-OMP1", "jump C", "release"])
    assert validate_orders(week1, "Ann", tow, RULES) == []
    # The platform is complete at the start of week 2; taken in tow 0.0-1.0, A to C 3 parsecs
    # 1.0-1.3, released 1.3-2.3: it mines 77 hours of the 100, a rich belt's 500 x 77/100 =
    # 385 on a normal roll (3D6 = 9).
    week2 = resolve_turn(week1, {"Ann": tow}, Dice.scripted([3, 3, 3]), RULES).state
    omp = next(f for f in week2.facilities if f.kind == "omp")
    assert (omp.place, omp.towed_by, omp.ready_week) == ("C", "", 0)
    assert week2.stock("C", "Ann") == 385
    mined = next(e for e in week2.events if e.kind == "mining")
    assert mined.data["points"] == 385
    # Next week it mines the whole week: 3D6 = 16, Klondike, 1000.
    week3 = resolve_turn(week2, {}, Dice.scripted([6, 5, 5]), RULES).state
    assert week3.stock("C", "Ann") == 385 + 1000


def test_towing_needs_a_tug_of_the_facilitys_mass() -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "ANN-2", "Harness tug", "Ann", "A")
    orders = week_orders("Ann", ANN_1=["tow ANN-YARD"], ANN_2=["tow ANN-OMP7", "release"])
    problems = [p.message for p in validate_orders(state, "Ann", orders, RULES)]
    assert "only a tug takes a facility in tow" in problems
    assert "there is no facility 'ANN-OMP7' of yours here to take in tow" in problems
    assert "the tug has nothing in tow" in problems


def test_a_port_on_ones_own_planet_once() -> None:
    state = seed_map()
    state.stocks[("D", "Bob")] = 600
    state.systems["D"].port = ""
    orders = Orders(
        "Bob",
        1,
        purchases=[
            Purchase("spaceport", 1, "D", cell="B21"),
            Purchase("starport", 1, "B", cell="B22"),
        ],
    )
    problems = validate_orders(state, "Bob", orders, RULES)
    assert [(p.cell, p.message) for p in problems] == [("B22", "B is not a planet of yours")]
    after = resolve_turn(state, {"Bob": orders}, Dice.scripted([]), RULES).state
    assert after.stock("D", "Bob") == 600 + 50 - 500
    nxt = resolve_turn(after, {}, Dice.scripted([]), RULES).state
    assert nxt.systems["D"].port == "spaceport" and not nxt.facilities


def test_repair_and_scrapping_at_a_yard() -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A", damage=4)
    ship(state, "ANN-2", "Halberd frigate", "Ann", "A")
    orders = week_orders("Ann", ANN_1=["repair", "jump B"], ANN_2=["scrap"])
    assert validate_orders(state, "Ann", orders, RULES) == []
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    cruiser = after.ship("ANN-1")
    # 4 boxes at 2 a day: 0.0-2.0, then B at 2.5; 50% of 172 x 4/15 = 22.9, 23 points.
    assert (cruiser.damage, cruiser.place) == (0, "B")
    timeline = next(e for e in after.events if e.kind == "timeline" and "ANN-1" in e.text)
    assert "0.0-2.0 repair at A" in timeline.text and "2.0-2.5 jump A to B" in timeline.text
    # The frigate, an escort: 5 days, 68 // 4 = 17 points back.
    assert after.ship("ANN-2") is None
    assert after.stock("A", "Ann") == 200 - 23 + 17
    # Not at a yard: refused.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", damage=2)
    problems = validate_orders(state, "Ann", week_orders("Ann", ANN_1=["repair", "scrap"]), RULES)
    assert len(problems) == 2 and all(p.severity == "error" for p in problems)


def test_a_captured_warship_waits_for_its_capture_refit() -> None:
    from refassist.rulesets.full_thrust.state import BattleResult

    state = seed_map()
    state.systems["B"].owner = "Bob"  # a neutral planet changes hands only by invasion
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "B"))
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    ship(state, "BOB-2", "Packet merchant", "Bob", "B")
    waiting = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["jump B"])}, Dice.scripted([1, 1]), RULES
    ).state
    (battle,) = waiting.battles
    taken = BattleResult(battle.id, captured={"BOB-1": "Ann", "BOB-2": "Ann"}, holder="Ann")
    after = resolve_turn(waiting, {battle.id: taken}, Dice.scripted([1, 1, 1]), RULES).state
    destroyer, merchant = after.ship("BOB-1"), after.ship("BOB-2")
    assert (destroyer.owner, destroyer.needs_refit) == ("Ann", True)
    assert (merchant.owner, merchant.needs_refit) == ("Ann", False)  # merchants at once
    text = next(e.text for e in after.events if e.kind == "battle_result")
    assert "BOB-1 captured by Ann (a capture refit before it can be used)" in text
    # It cannot jump; refitted at the yard at B (a week, 10% of 104 = 11 points) it can.
    problems = validate_orders(after, "Ann", week_orders("Ann", 2, BOB_1=["jump A"]), RULES)
    assert "captured warship is not used until its capture refit" in problems[0].message
    after.stocks[("B", "Ann")] = 20
    refit = week_orders("Ann", 2, BOB_1=["refit"])
    assert validate_orders(after, "Ann", refit, RULES) == []
    done = resolve_turn(after, {"Ann": refit}, Dice.scripted([]), RULES).state
    # B is Ann's now: it produced 3 x 50 at the week's start.
    assert not done.ship("BOB-1").needs_refit and done.stock("B", "Ann") == 20 + 150 - 11


def test_points_given_to_another_commander_at_his_planet() -> None:
    """The seed: production points "may be traded, sold, given".  A merchant landed at Bob's
    planet unloads 200 to Bob: they go into Bob's stock there, and both are told.  (The two
    are allies: a rival's merchant at Bob's planet would meet its ground defences.)"""
    state = seed_map()
    ship(state, "ANN-5", "Drayman bulk merchant", "Ann", "D", landed=True, cargo=300)
    orders = week_orders("Ann", ANN_5=["unload 200 to Bob", "lift"])
    orders.allies = ["Bob"]
    bobs = week_orders("Bob")
    bobs.allies = ["Ann"]
    assert validate_orders(state, "Ann", orders, RULES) == []
    bob_before = state.stock("D", "Bob")
    after = resolve_turn(state, {"Ann": orders, "Bob": bobs}, Dice.scripted([]), RULES).state
    assert after.ship("ANN-5").cargo == 100
    gift = next(e for e in after.events if e.kind == "gift")
    assert sorted(gift.players) == ["Ann", "Bob"] and gift.data["points"] == 200
    # Production then adds Bob's 50 x Value 1 at D on top of the gift.
    assert after.stock("D", "Bob") == bob_before + 200 + 50
    assert after.stock("D", "Ann") == 0
    # At a planet that is not Bob's (B is neutral): refused on the line.
    state = seed_map()
    ship(state, "ANN-5", "Drayman bulk merchant", "Ann", "B", landed=True, cargo=300)
    problems = validate_orders(state, "Ann", week_orders("Ann", ANN_5=["unload all to Bob"]), RULES)
    assert [p.severity for p in problems] == ["error"]
    assert "not a planet of Bob's" in problems[0].message


def test_demolition_is_certain_when_the_crew_can_be_taken_off() -> None:
    """L211: at an inhabited planet interface craft take the crew off; elsewhere a friendly
    ship there since the week began does.  No die is rolled."""
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "B")  # B: a planet of Value 3
    state.facilities.append(Facility("ANN-ST", "station", "Ann", "Gate"))
    ship(state, "ANN-2", "Harness tug", "Ann", "Gate")
    orders = week_orders("Ann", ANN_1=["demolish"], ANN_2=["demolish ANN-ST"])
    assert validate_orders(state, "Ann", orders, RULES) == []
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert after.ship("ANN-1") is None and after.ship("ANN-2") is not None
    assert not [f for f in after.facilities if f.id == "ANN-ST"]
    texts = [e.text for e in after.events if e.kind == "demolished"]
    assert any("interface craft from B's planet" in t for t in texts)
    assert any("ANN-ST" in t and "taken off by ANN-2" in t for t in texts)


def test_demolition_without_a_way_off_goes_off_only_on_a_six() -> None:
    """Alone at a wormhole: 1D6, destroyed only on a 6, +1 for a crack ship."""
    for crack, die, gone in ((False, 5, False), (False, 6, True), (True, 5, True)):
        state = seed_map()
        ship(state, "ANN-1", "Halberd frigate", "Ann", "Gate", crack=crack)
        orders = week_orders("Ann", ANN_1=["demolish"])
        after = resolve_turn(state, {"Ann": orders}, Dice.scripted([die]), RULES).state
        assert (after.ship("ANN-1") is None) == gone, (crack, die)
        if not gone:
            failed = next(e for e in after.events if e.kind == "demolition_failed")
            assert "rolled 5" in failed.text and "a 6 is needed" in failed.text
    # Nothing follows a ship's own demolition; a facility must be one of yours, here.
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "Gate")
    state.facilities.append(Facility("BOB-ST", "station", "Bob", "Gate"))
    problems = validate_orders(
        state, "Ann", week_orders("Ann", ANN_1=["demolish BOB-ST", "demolish", "land"]), RULES
    )
    messages = [p.message for p in problems]
    assert "there is no facility 'BOB-ST' of yours here to demolish" in messages
    assert "the ship is demolished before this" in messages


def test_a_refit_to_another_design_of_the_same_hull() -> None:
    """L159-165: at a yard able to build the ship, a week; new systems cost double and nothing
    is refunded (our reading: twice the difference in cost, at least refit_floor_percent =
    25% of the new design's cost); the hull keeps its mass and streamlining."""
    state = seed_map()
    state.designs["Claymore-B cruiser"] = Design(
        "Claymore-B cruiser", 50, 200, "cruiser", "warship", 15, fire_control=3
    )
    state.designs["Claymore-C cruiser"] = Design(
        "Claymore-C cruiser", 50, 160, "cruiser", "warship", 15
    )
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    state.stocks[("A", "Ann")] = 100
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "A")
    orders = week_orders(
        "Ann", ANN_1=["refit Claymore-B cruiser"], ANN_2=["refit claymore-c cruiser"]
    )
    problems = validate_orders(state, "Ann", orders, RULES)
    # Design names are matched as written in the list.
    assert [p.message for p in problems] == ["there is no design called 'claymore-c cruiser'"]
    orders = week_orders(
        "Ann", ANN_1=["refit Claymore-B cruiser"], ANN_2=["refit Claymore-C cruiser"]
    )
    assert validate_orders(state, "Ann", orders, RULES) == []
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    # B: 2 x (200 - 172) = 56 (25% of 200 is 50).  C: 2 x (160 - 172) < 0, so 25% of 160 = 40.
    assert after.ship("ANN-1").design == "Claymore-B cruiser"
    assert after.ship("ANN-2").design == "Claymore-C cruiser"
    costs = sorted(e.data["cost"] for e in after.events if e.kind == "refitted")
    assert costs == [40, 56]
    assert after.stock("A", "Ann") == 100 - 96 + 200  # and this week's production
    # Not enough points there (a yard at Walled, where nothing is produced): not refitted.
    state.facilities.append(Facility("ANN-YARD2", "shipyard", "Ann", "Walled"))
    state.stocks[("Walled", "Ann")] = 30
    ship(state, "ANN-4", "Claymore cruiser", "Ann", "Walled")
    orders = week_orders("Ann", ANN_4=["refit Claymore-B cruiser"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert after.ship("ANN-4").design == "Claymore cruiser"
    unpaid = next(e for e in after.events if e.kind == "refit_unpaid")
    assert "costs 56 and 30 points are there" in unpaid.text


def test_a_refit_keeps_the_hull_and_needs_a_yard() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Falchion destroyer", "Ann", "A")
    ship(state, "ANN-2", "Halberd frigate", "Ann", "B")
    ship(state, "ANN-3", "Claymore cruiser", "Ann", "A")
    orders = week_orders(
        "Ann",
        ANN_1=["refit Halberd frigate"],
        ANN_2=["refit Lantern scout"],
        ANN_3=["refit"],
    )
    messages = [p.message for p in validate_orders(state, "Ann", orders, RULES)]
    assert messages[0].startswith("a Falchion destroyer (mass 30) cannot become a Halberd")
    assert "not altered in size or streamlining" in messages[0]
    assert "mass 20, streamlined) cannot become a Lantern scout (mass 8" in messages[1]
    assert messages[2] == "only a captured warship has a capture refit"
