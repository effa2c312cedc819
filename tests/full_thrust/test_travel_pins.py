"""The week's smaller activities pinned to their figures (survivors of a mutation run on
`travel.py`, docs/mutation-testing.md): loading and unloading a given amount, towing the
facility named, a scrapping carried over, fuel kept for a jump and given only between one's own
ships, a ship's damage on the battle sheet, a demolition's roll, a repair's cost."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.full_thrust.orders import FleetOrder
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import Facility

from .situations import seed_map, ship, week_orders

RULES = complete()


def test_loading_an_amount_loads_that_amount() -> None:
    state = seed_map()
    state.stocks[("A", "Ann")] = 300
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", landed=True, inches=0)
    orders = week_orders("Ann", ANN_1=["load 100"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    # 300 + 200 produced at the week's start, 100 aboard.
    assert (after.ship("ANN-1").cargo, after.stock("A", "Ann")) == (100, 400)


def test_unloading_an_amount_unloads_that_amount() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", landed=True, inches=0, cargo=300)
    orders = week_orders("Ann", ANN_1=["unload 100"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert (after.ship("ANN-1").cargo, after.stock("A", "Ann")) == (200, 200 + 100)


def test_a_tug_takes_only_the_facility_named_and_both_ends_are_told() -> None:
    state = seed_map()
    state.facilities += [
        Facility("ANN-OMP", "omp", "Ann", "C"),
        Facility("ANN-OMP2", "omp", "Ann", "C"),
        Facility("BOB-OMP", "omp", "Bob", "C"),
    ]
    ship(state, "ANN-1", "Harness tug", "Ann", "C")
    orders = week_orders("Ann", ANN_1=["tow ANN-OMP", "jump A", "release"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([3] * 9), RULES).state
    assert {f.id: f.place for f in after.facilities} == {
        "ANN-OMP": "A",
        "ANN-OMP2": "C",
        "BOB-OMP": "C",
    }
    told = [(e.kind, e.location, e.text) for e in after.events if e.kind in ("towed", "released")]
    assert told == [
        ("towed", "C", "ANN-1 takes ANN-OMP in tow at C"),
        ("released", "A", "ANN-1 releases ANN-OMP at A"),
    ]


def test_a_scrapping_carried_over_is_told_and_stops_the_ship() -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    ship(state, "ANN-1", "Bastion battleship", "Ann", "A")
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["at 2.0 scrap"])}, Dice.scripted([]), RULES
    ).state
    (told,) = [e for e in after.events if e.kind == "scrapping"]
    assert (told.location, told.data["left"]) == ("A", 70)
    (week,) = [e for e in after.events if e.kind == "timeline"]
    assert week.data["lines"] == ["2.0-10.0 scrap at A", "stopped there for the week"]


def test_a_giver_keeps_the_fuel_of_a_jump_that_starts_as_the_refuelling_ends() -> None:
    # The tender's jump to A (5) starts at 1.0, as the cruiser's refuelling ends: it keeps 5
    # of its 6 parsecs, gives 1 (39 // 20 = 1 unit: 1 parsec for the cruiser), and goes.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=0)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "B", fuel=6)
    orders = week_orders("Ann", ANN_1=["refuel from ANN-2"], ANN_2=["at 1.0 jump A"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert (after.ship("ANN-1").fuel, after.ship("ANN-2").place) == (1, "A")


def test_fuel_comes_only_from_ones_own_ships() -> None:
    state = seed_map()
    state.commanders[0].allies = ["Bob"]
    state.commanders[1].allies = ["Ann"]
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=0)
    ship(state, "BOB-1", "Wellspring tender", "Bob", "B")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["refuel from BOB-1"]),
        "Bob": week_orders("Bob"),
    }
    orders["Ann"].allies = ["Bob"]
    orders["Bob"].allies = ["Ann"]
    after = resolve_turn(state, orders, Dice.scripted([]), RULES).state
    assert (after.ship("ANN-1").fuel, after.ship("BOB-1").fuel) == (0, 20)
    (failed,) = [e for e in after.events if e.kind == "refuel_failed"]
    assert (failed.location, failed.visible_to) == ("B", ("Ann",))
    assert failed.text == "ANN-1 could not refuel at B: BOB-1 was not there"


def test_a_ship_comes_to_a_battle_with_its_damage() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A", damage=4)
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B", damage=1)
    orders = {"Ann": week_orders("Ann", ANN_1=["jump B"])}
    after = resolve_turn(state, orders, Dice.scripted([1, 1]), RULES).state
    (battle,) = after.battles
    assert {s.ship: s.damage for s in battle.ships} == {"ANN-1": 4, "BOB-1": 1}


def test_a_part_full_tank_is_topped_up_from_a_fleets_tankers_in_turn() -> None:
    """A Claymore cruiser (13 units) with 7 parsecs wants 13 x 13 / 20 = 8.45, 9 units; the
    fleet's first tender is dry, the second gives 9 units, 4.6, 5 parsecs of its range."""
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=7)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "B", fuel=0)
    ship(state, "ANN-3", "Wellspring tender", "Ann", "B")
    ship(state, "ANN-4", "Claymore cruiser", "Ann", "B")
    orders = week_orders("Ann", Line=["refuel from Tankers"])
    orders.fleets.append(FleetOrder("Tankers", ["ANN-2", "ANN-3"]))
    orders.fleets.append(FleetOrder("Line", ["ANN-1", "ANN-4"]))
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert [after.ship(i).fuel for i in ("ANN-1", "ANN-2", "ANN-3")] == [20, 0, 15]
    (told,) = [e for e in after.events if e.kind == "refuelled"]
    assert told.location == "B"
    assert told.text == (
        "Line refuels from Tankers at B: fuel for ANN-1 20, ANN-4 20 parsecs; ANN-2 keeps 0, "
        "ANN-3 keeps 15"
    )
    # A tender with 5 parsecs to spare (9 units) gives the cruiser 9 x 20 // 13 = 13 parsecs
    # on top of its 3; it wanted ceil(17 x 13 / 20) = 12 units, more than it got.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=3)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "B", fuel=5)
    orders = week_orders("Ann", ANN_1=["refuel from ANN-2"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert (after.ship("ANN-1").fuel, after.ship("ANN-2").fuel) == (3 + 13, 0)


def test_an_ancient_item_handed_over_is_told_and_points_given_all_are_given() -> None:
    state = seed_map()
    state.commanders[0].allies = ["Bob"]
    state.commanders[1].allies = ["Ann"]
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", item=400)
    ship(state, "ANN-2", "Packet merchant", "Ann", "D", landed=True, inches=0, cargo=300)
    ann = week_orders("Ann", ANN_1=["jump A"], ANN_2=["unload all to Bob"])
    ann.allies = ["Bob"]
    bob = week_orders("Bob")
    bob.allies = ["Ann"]
    after = resolve_turn(state, {"Ann": ann, "Bob": bob}, Dice.scripted([]), RULES).state
    (item,) = [e for e in after.events if e.kind == "item_delivered"]
    assert (item.location, item.data["points"]) == ("A", 400)
    assert item.text == "ANN-1 brings the ancient item to A: 400 production points stored there"
    assert after.stock("A", "Ann") == 200 + 400
    assert (after.ship("ANN-2").cargo, after.stock("D", "Bob")) == (0, 50 + 300)
    (gift,) = [e for e in after.events if e.kind == "gift"]
    assert gift.location == "D"
    assert gift.text == "ANN-2 of Ann delivers 300 production points to Bob at D"


def test_a_demolition_roll_is_logged_and_told_with_its_crack_bonus() -> None:
    # Alone at the wormhole, crack: 1D6 4 +1 is 5, short of 6: the charges do not go off.
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "Gate", crack=True)
    orders = week_orders("Ann", ANN_1=["demolish"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([4]), RULES).state
    assert after.ship("ANN-1") is not None
    (failed,) = [e for e in after.events if e.kind == "demolition_failed"]
    assert failed.location == "Gate"
    assert failed.text == (
        "the demolition charges of ANN-1 at Gate did not go off (rolled 4 +1 crack; a 6 is "
        "needed when the crew cannot be taken off)"
    )
    (roll,) = after.dice
    assert (roll.phase, roll.location, roll.purpose) == (
        "travel",
        "Gate",
        "demolition of ANN-1 at Gate",
    )
    # Not crack, a 6: it goes off, set by its own crew.
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "Gate")
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([6]), RULES).state
    (done,) = [e for e in after.events if e.kind == "demolished"]
    assert done.text == "ANN-1 is demolished at Gate (the charges set off by its crew)"
    # Not crack, a 5: the text has no crack bonus.
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "Gate")
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([5]), RULES).state
    (failed,) = [e for e in after.events if e.kind == "demolition_failed"]
    assert "(rolled 5; a 6 is needed" in failed.text


def test_a_repairs_cost_is_paid_to_the_last_point_and_told() -> None:
    """A Bastion battleship (486, 40 boxes) with 39 boxes lost and its drive destroyed, at a
    yard: 50% x 486 x 39/40 = 236.9, 237, and a drive at twice 10% of 486 = 97.2, 98: 335,
    exactly the 135 stored and the 200 produced."""
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    state.stocks[("A", "Ann")] = 135
    ship(state, "ANN-1", "Bastion battleship", "Ann", "A", damage=39, drive="destroyed")
    orders = week_orders("Ann", ANN_1=["repair"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert (after.ship("ANN-1").damage, after.stock("A", "Ann")) == (0, 0)
    (told,) = [e for e in after.events if e.kind == "repaired"]
    assert (told.location, told.data["cost"]) == ("A", 335)
    # A disabled drive alone, at a station: 50% of 10% of 68 = 3.4, 4 points, and no boxes.
    state = seed_map()
    state.facilities.append(Facility("ANN-ST", "station", "Ann", "C"))
    state.stocks[("C", "Ann")] = 3
    ship(state, "ANN-1", "Halberd frigate", "Ann", "C", drive="disabled")
    orders = week_orders("Ann", ANN_1=["repair"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert after.ship("ANN-1").drive == "disabled"
    (unpaid,) = [e for e in after.events if e.kind == "repair_unpaid"]
    assert unpaid.text == "ANN-1's repair at C was not paid: it costs 4 and 3 points are there"
    state.stocks[("C", "Ann")] = 4
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    (told,) = [e for e in after.events if e.kind == "repaired"]
    assert told.text == "ANN-1 is repaired at C: its disabled FTL drive for 4 points"
