"""The week's travel (`travel.run_week`) pinned rule by rule, with figures counted by hand:
a sale's price and the goods that do not fit the hold, an ancient site's finds, an invasion
of a planet taken earlier in the week, demolitions, capture refits and refits to another
design, scrapping, a ship refuelled from another, repairs of a ship's drive, an item handed
over.  Each test names its rule (docs/rules/full-thrust-campaign.md, the seed)."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.full_thrust.orders import FleetOrder, Orders
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import Facility, State

from .situations import seed_map, ship, week_orders

RULES = complete()


def run(state: State, orders: dict[str, Orders], rolls: list[int], rules=RULES) -> State:
    return resolve_turn(state, orders, Dice.scripted(rolls), rules).state


def told(state: State, kind: str) -> list:
    return [e for e in state.events if e.kind == kind]


def allied(state: State, *orders: Orders) -> None:
    """Ann and Bob allies (their ships share places without a battle)."""
    state.commanders[0].allies = ["Bob"]
    state.commanders[1].allies = ["Ann"]
    for o in orders:
        o.allies = ["Bob"] if o.commander == "Ann" else ["Ann"]


def rolls_of(state: State) -> list[tuple[str, str, str]]:
    return [(r.phase, r.location, r.purpose) for r in state.dice]


# -- sales ------------------------------------------------------------------------------------


def test_a_sale_at_anothers_planet_fills_the_hold_and_stores_the_rest_there() -> None:
    """Goods sold (1D6 6: 175%) come back as goods in the hold as far as it has room; the
    rest are stored at the planet for the seller.  300 of 400 sold: 525 points of goods, the
    hold (400) has 100 aboard, room for 300: 225 are stored at D.  A sale at another
    commander's planet is a trade: the holder rolls for what he takes in (1D6 2: 75% of 300)."""
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "D", landed=True, inches=0, cargo=400)
    ann = week_orders("Ann", ANN_1=["sell 300"])
    bob = week_orders("Bob")
    allied(state, ann, bob)
    after = run(state, {"Ann": ann, "Bob": bob}, [6, 2])
    assert after.ship("ANN-1").cargo == 400
    assert after.stock("D", "Ann") == 225
    # Bob: 50 produced at D, 225 taken in.
    assert after.stock("D", "Bob") == 50 + 225
    (sale,) = told(after, "sale")
    assert (sale.location, sale.visible_to) == ("D", ("Ann",))
    assert sale.text == "ANN-1 sells 300 production points at D: 1D6 6, 175%, 525 points of goods"
    assert (sale.data["roll"], sale.data["percent"], sale.data["points"]) == (6, 175, 525)
    (trade,) = told(after, "trade")
    assert (trade.location, trade.visible_to, trade.data["points"]) == ("D", ("Bob",), 225)
    assert [r for r in rolls_of(after) if r[0] == "travel"] == [
        ("travel", "D", "sale price, Ann"),
        ("travel", "D", "sale price, Bob"),
    ]


def test_selling_all_at_a_neutral_planet_sells_the_whole_hold_and_no_one_buys() -> None:
    """``sell all`` sells what is aboard; at a neutral planet there is no trade (no holder's
    roll).  400 at 1D6 1 (50%): 200 points of goods, all back in the hold."""
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "B", landed=True, inches=0, cargo=400)
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["sell all"])}, [1])
    assert after.ship("ANN-1").cargo == 200
    assert after.stock("B", "Ann") == 0
    (sale,) = told(after, "sale")
    assert sale.text == "ANN-1 sells 400 production points at B: 1D6 1, 50%, 200 points of goods"
    assert told(after, "trade") == []


def test_goods_are_not_sold_at_ones_own_planet() -> None:
    """Goods are sold at another's planet: at her own A, Ann's sale is refused and told, the
    hold is untouched and no price is rolled."""
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", landed=True, inches=0, cargo=400)
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["sell 100"])}, [])
    assert after.ship("ANN-1").cargo == 400
    (refused,) = told(after, "sale_refused")
    assert (refused.location, refused.visible_to) == ("A", ("Ann",))
    assert refused.text == "ANN-1 cannot sell at A: goods are sold at another's planet"
    assert told(after, "sale") == []


# -- ancient sites ----------------------------------------------------------------------------


def site_at(place: str, state: State | None = None) -> State:
    state = state or seed_map()
    state.systems[place].ancient_site = True
    return state


def test_an_ancient_site_that_yields_nothing_is_explored_for_good() -> None:
    """2D6 2-7: nothing.  The site is gone; the roll is the ship's, made in travel at B."""
    state = site_at("B")
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["explore"])}, [3, 4])
    assert after.systems["B"].ancient_site is False
    (find,) = told(after, "ancient_site")
    assert (find.location, find.visible_to) == ("B", ("Ann",))
    assert find.text == "ANN-1 explores the ancient site at B: nothing"
    assert (find.data["rolls"], find.data["result"]) == ([3, 4], "nothing")
    assert rolls_of(after)[-2:] == [("travel", "B", "ancient site, ANN-1")] * 2


def test_a_site_explored_earlier_in_the_week_is_gone_for_the_second_ship() -> None:
    """A site is explored once: the second ship finds it explored already, rolls nothing."""
    state = site_at("B")
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "B")
    orders = week_orders("Ann", ANN_1=["explore"], ANN_2=["at 3.0 explore"])
    after = run(state, {"Ann": orders}, [3, 4])
    assert len(told(after, "ancient_site")) == 1
    (gone,) = told(after, "site_gone")
    assert (gone.location, gone.visible_to) == ("B", ("Ann",))
    assert gone.text == "The ancient site at B was explored already"


def test_a_trap_destroys_the_ship_and_ends_its_week() -> None:
    """2D6 8-9: a trap, the ship is destroyed; nothing more of its timeline is done."""
    state = site_at("B")
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["explore", "jump A"])}, [4, 4])
    assert after.ship("ANN-1") is None
    (find,) = told(after, "ancient_site")
    assert find.text == "ANN-1 explores the ancient site at B: trap; ANN-1 is destroyed"
    assert find.data["result"] == "trap"
    (week,) = [e for e in told(after, "timeline") if e.data["unit"] == "ANN-1"]
    assert week.data["jumps"] == []


def test_an_item_found_is_carried_aboard_with_any_item_already_there() -> None:
    """2D6 10: an item worth 1D6 x 100 (3: 300), carried aboard; a ship with an item of 200
    aboard already carries 500 (neutral B: no planet of Ann's to hand it over to)."""
    state = site_at("B")
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", item=200)
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["explore"])}, [5, 5, 3])
    assert after.ship("ANN-1").item == 500
    (find,) = told(after, "ancient_site")
    assert find.text == (
        "ANN-1 explores the ancient site at B: item worth 300 production points, carried "
        "aboard ANN-1"
    )
    assert find.data["rolls"] == [5, 5, 3]


def test_an_item_at_ones_own_planet_is_handed_over_at_once_and_at_the_weeks_start() -> None:
    """An item aboard becomes points at a planet of the ship's commander: one aboard as the
    week begins at A (100) at once, one found at a site at A (1D6 4: 400) when found."""
    state = site_at("A")
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A", item=100)
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["explore"])}, [5, 5, 4])
    assert after.ship("ANN-1").item == 0
    assert after.stock("A", "Ann") == 200 + 100 + 400
    assert [(e.location, e.data["points"]) for e in told(after, "item_delivered")] == [
        ("A", 100),
        ("A", 400),
    ]


def test_high_technology_found_is_a_discovery_not_at_half_cost() -> None:
    """2D6 11-12 and 1D6 3-5: high technology, a free research roll (1D20 4: Nova Cannon),
    discovered; only a library's find is developed at half cost."""
    state = site_at("B")
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["explore"])}, [5, 6, 3, 4])
    ann = after.commander("Ann")
    assert (ann.discoveries, ann.half_cost) == (["Nova Cannon"], [])
    (find,) = told(after, "ancient_site")
    assert find.text == (
        "ANN-1 explores the ancient site at B: high technology; research roll 4: Nova Cannon"
    )
    assert (find.data["rolls"], find.data["result"]) == ([5, 6, 3], "high technology")


def test_a_library_is_developed_at_half_cost_and_a_twenty_finds_nothing() -> None:
    """1D6 6: a library, a free research roll developed at half cost (1D20 3: Rail Guns); a
    20 on the research roll finds nothing, and nothing is noted."""
    state = site_at("B")
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["explore"])}, [6, 6, 6, 3])
    ann = after.commander("Ann")
    assert (ann.discoveries, ann.half_cost) == (["Rail Guns"], ["Rail Guns"])
    (find,) = told(after, "ancient_site")
    assert find.text == (
        "ANN-1 explores the ancient site at B: library; research roll 3: Rail Guns, to be "
        "developed at half cost"
    )
    state = site_at("B")
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["explore"])}, [6, 6, 6, 20])
    ann = after.commander("Ann")
    assert (ann.discoveries, ann.half_cost) == ([], [])
    (find,) = told(after, "ancient_site")
    assert find.text == "ANN-1 explores the ancient site at B: library; research roll 20: nothing"


def test_a_field_developed_already_is_not_discovered_again() -> None:
    """A research find of a field the commander has developed adds nothing."""
    state = site_at("B")
    state.commander("Ann").developed = ["Nova Cannon"]
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["explore"])}, [5, 6, 3, 4])
    ann = after.commander("Ann")
    assert (ann.discoveries, ann.half_cost) == ([], [])


# -- invasion ---------------------------------------------------------------------------------


def test_a_planet_taken_earlier_in_the_week_is_not_invaded_again() -> None:
    """An invasion is of a neutral planet.  Ann's ANN-1 takes C at 0.0 (its natives have no
    ships: they surrender); her ANN-2's invasion at 1.0 finds C hers and does nothing; Bob's
    ally BOB-1 finds it held by Ann and is told so."""
    state = seed_map()
    state.systems["C"].indigenous = 0
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "C")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "C")
    ship(state, "BOB-1", "Claymore cruiser", "Bob", "C")
    ann = week_orders("Ann", ANN_1=["invade"], ANN_2=["at 1.0 invade"])
    bob = week_orders("Bob", BOB_1=["at 2.0 invade"])
    allied(state, ann, bob)
    after = run(state, {"Ann": ann, "Bob": bob}, [1])
    assert after.systems["C"].owner == "Ann"
    invasions = told(after, "invasion")
    assert [(e.location, e.visible_to, e.data["result"]) for e in invasions] == [
        ("C", ("Ann",), "surrender"),
        ("C", ("Bob",), "held"),
    ]
    assert invasions[1].text == "C is held by Ann: Bob's invasion is not made"
    assert [r for r in rolls_of(after) if r[0] == "travel"] == [("travel", "C", "invasion, C")]


# -- demolition -------------------------------------------------------------------------------


def test_a_facility_demolished_already_cannot_be_demolished_again() -> None:
    """Demolition charges at a facility of one's own where the ship is: ANN-2 demolishes
    ANN-OMP at C (a planet: the crew taken off by interface craft, no roll); ANN-1's charges
    later find no facility and are told so."""
    state = seed_map()
    state.facilities.append(Facility("ANN-OMP", "omp", "Ann", "C"))
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "C")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "C")
    orders = week_orders("Ann", ANN_1=["at 2.0 demolish ANN-OMP"], ANN_2=["demolish ANN-OMP"])
    after = run(state, {"Ann": orders}, [])
    assert after.facilities == []
    (void,) = told(after, "demolition_void")
    assert (void.location, void.visible_to) == ("C", ("Ann",))
    assert void.text == "ANN-1 found no facility ANN-OMP of Ann's at C to demolish"
    (done,) = told(after, "demolished")
    assert (
        done.text
        == "ANN-OMP is demolished at C (the crew taken off by interface craft from C's planet)"
    )


def test_a_facility_towed_away_is_not_demolished_where_it_was() -> None:
    """The facility must be at the ship's place: ANN-OMP towed from C to A before ANN-1's
    charges at C are set stays whole at A."""
    state = seed_map()
    state.facilities.append(Facility("ANN-OMP", "omp", "Ann", "C"))
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "C")
    ship(state, "ANN-2", "Harness tug", "Ann", "C")
    orders = week_orders("Ann", ANN_1=["at 5.0 demolish ANN-OMP"], ANN_2=["tow ANN-OMP", "jump A"])
    after = run(state, {"Ann": orders}, [3] * 9)
    assert [(f.id, f.place) for f in after.facilities] == [("ANN-OMP", "A")]
    (void,) = told(after, "demolition_void")
    assert void.text == "ANN-1 found no facility ANN-OMP of Ann's at C to demolish"
    assert told(after, "demolished") == []


def test_a_fleet_demolishing_itself_is_destroyed_and_stops() -> None:
    """A fleet's ships demolish themselves together (1D6 6 with no one to take the crew off):
    both ships are gone, the text names both, and its week stops there."""
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "Gate")
    ship(state, "ANN-2", "Halberd frigate", "Ann", "Gate")
    orders = week_orders("Ann", Pair=["demolish"])
    orders.fleets.append(FleetOrder("Pair", ["ANN-1", "ANN-2"]))
    after = run(state, {"Ann": orders}, [6])
    assert (after.ship("ANN-1"), after.ship("ANN-2")) == (None, None)
    (done,) = told(after, "demolished")
    assert (done.location, done.visible_to) == ("Gate", ("Ann",))
    assert done.text == "ANN-1 and ANN-2 are demolished at Gate (the charges set off by its crew)"
    (week,) = told(after, "timeline")
    assert week.data["lines"][-1] == "stopped there for the week"


# -- refits and scrapping ---------------------------------------------------------------------


def test_a_capture_refit_costs_a_tenth_of_the_ships_cost() -> None:
    """A captured warship's refit, a week at a yard, 10% of its cost: a Claymore cruiser
    (172) 17.2, 18 points; paid, it may serve; not paid, nothing is done and it is told."""
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "C"))
    state.stocks[("C", "Ann")] = 18
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "C", needs_refit=True)
    orders = week_orders("Ann", ANN_1=["refit"])
    after = run(state, {"Ann": orders}, [])
    assert after.ship("ANN-1").needs_refit is False
    assert after.stock("C", "Ann") == 0
    (done,) = told(after, "refitted")
    assert (done.location, done.visible_to, done.data["cost"]) == ("C", ("Ann",), 18)
    assert done.text == "ANN-1 is refitted for Ann at C (18 points, 10% of its cost)"
    state.stocks[("C", "Ann")] = 17
    after = run(state, {"Ann": orders}, [])
    assert after.ship("ANN-1").needs_refit is True
    assert told(after, "refitted") == []
    (unpaid,) = told(after, "refit_unpaid")
    assert (unpaid.location, unpaid.visible_to) == ("C", ("Ann",))
    assert unpaid.text == (
        "ANN-1's capture refit at C was not paid: it costs 18 and 17 points are there"
    )


def test_a_refit_to_a_cheaper_design_costs_the_house_rules_share_of_the_new_one() -> None:
    """A Halberd frigate (68) refitted to a Packet merchant (42), same hull: double the
    difference is less than nothing, so the floor, 25% of 42 = 10.5, 11 points; under a
    floor of 48%, 20.16, 21."""
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "C"))
    state.stocks[("C", "Ann")] = 11
    ship(state, "ANN-1", "Halberd frigate", "Ann", "C")
    orders = week_orders("Ann", ANN_1=["refit Packet merchant"])
    after = run(state, {"Ann": orders}, [])
    assert (after.ship("ANN-1").design, after.stock("C", "Ann")) == ("Packet merchant", 0)
    (done,) = told(after, "refitted")
    assert (done.location, done.data["cost"]) == ("C", 11)
    assert (
        done.text
        == "ANN-1 is refitted at C from a Halberd frigate to a Packet merchant (11 points)"
    )
    state.stocks[("C", "Ann")] = 20
    after = run(state, {"Ann": orders}, [], complete({"refit_floor_percent": 48}))
    assert after.ship("ANN-1").design == "Halberd frigate"
    (unpaid,) = told(after, "refit_unpaid")
    assert unpaid.location == "C"
    assert unpaid.text == (
        "ANN-1's refit to a Packet merchant at C was not paid: it costs 21 and 20 points are there"
    )


def test_a_ship_scrapped_within_the_week_leaves_a_quarter_of_its_cost() -> None:
    """Scrapping (5 days for an escort, at a starport for a streamlined ship): 25% of a
    Halberd frigate's 68, 17 points stored where it was scrapped; its week stops there."""
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "A")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["scrap"])}, [])
    assert after.ship("ANN-1") is None
    assert after.stock("A", "Ann") == 200 + 17
    (done,) = told(after, "scrapped")
    assert (done.location, done.visible_to, done.data["points"]) == ("A", ("Ann",), 17)
    assert done.text == "ANN-1 is scrapped at A: 17 points (25% of its cost) stored there"
    (week,) = told(after, "timeline")
    assert week.data["lines"] == ["0.0-5.0 scrap at A", "stopped there for the week"]


# -- repairs ----------------------------------------------------------------------------------


def test_boxes_and_a_disabled_drive_are_paid_together() -> None:
    """A Halberd frigate (68, 6 boxes) with 3 boxes lost and its drive disabled, at Ann's
    starport: 50% of 68 x 3/6 = 17, and 50% of 10% of 68 = 3.4, 4: 21 points."""
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "A", damage=3, drive="disabled")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["repair"])}, [])
    assert (after.ship("ANN-1").damage, after.ship("ANN-1").drive) == (0, "ok")
    assert after.stock("A", "Ann") == 200 - 21
    (done,) = told(after, "repaired")
    assert done.text == "ANN-1 is repaired at A: 3 boxes and its disabled FTL drive for 21 points"


def test_a_starport_replaces_a_streamlined_ships_destroyed_drive() -> None:
    """A destroyed drive is replaced where the ship could be built (a starport builds
    streamlined ships) at twice 10% of its cost: a Halberd frigate's, 13.6, 14 points."""
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "A", drive="destroyed")
    after = run(state, {"Ann": week_orders("Ann", ANN_1=["repair"])}, [])
    assert after.ship("ANN-1").drive == "ok"
    assert after.stock("A", "Ann") == 200 - 14
    (done,) = told(after, "repaired")
    assert done.text == "ANN-1 is repaired at A: a new FTL drive for 14 points"


# -- fuel from another ship -------------------------------------------------------------------


def test_fuel_comes_from_the_ship_named_and_fills_a_small_tank_exactly() -> None:
    """Refuelling from ANN-3 takes nothing from ANN-2.  A Halberd frigate (5 units) with 19
    parsecs wants 1 unit (5/20 rounded up), which takes it to 20 and no further; the tender
    (39 units) gives it, 20/39 of a parsec rounded up: 1."""
    state = seed_map()
    ship(state, "ANN-1", "Halberd frigate", "Ann", "B", fuel=19)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "B")
    ship(state, "ANN-3", "Wellspring tender", "Ann", "B")
    orders = week_orders("Ann", ANN_1=["refuel from ANN-3"])
    after = run(state, {"Ann": orders}, [])
    assert [after.ship(i).fuel for i in ("ANN-1", "ANN-2", "ANN-3")] == [20, 20, 19]
    (done,) = told(after, "refuelled")
    assert done.text == "ANN-1 refuels from ANN-3 at B: fuel for ANN-1 20 parsecs; ANN-3 keeps 19"


def test_a_giver_keeps_no_fuel_for_a_jump_it_has_made() -> None:
    """A giver keeps fuel for the jumps still ahead of it only: the tender jumps A to B (5 of
    its 8 parsecs) and then gives its 3, 3 x 39 / 20 = 5 units, 5 x 20 // 13 = 7 parsecs
    for a Claymore cruiser (13 units)."""
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=0)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "A", fuel=8)
    orders = week_orders("Ann", ANN_1=["at 1.0 refuel from ANN-2"], ANN_2=["jump B"])
    after = run(state, {"Ann": orders}, [])
    assert (after.ship("ANN-1").fuel, after.ship("ANN-2").fuel) == (7, 0)


def test_a_stranded_giver_keeps_nothing_for_the_jump_it_cannot_make() -> None:
    """A tender whose hasty jump disabled its drive (1D6 3) is stopped for the week: it keeps
    only the house rule's reserve (0), so its 6 parsecs, 6 x 39 / 20 = 11 units, give a
    Claymore cruiser 11 x 20 // 13 = 16 parsecs."""
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B", fuel=0)
    ship(state, "ANN-2", "Wellspring tender", "Ann", "B", fuel=6, ready_at=30)
    orders = week_orders("Ann", ANN_1=["at 1.0 refuel from ANN-2"], ANN_2=["jump A"])
    after = run(state, {"Ann": orders}, [3])
    assert after.ship("ANN-2").drive == "disabled"
    assert (after.ship("ANN-1").fuel, after.ship("ANN-2").fuel) == (16, 0)


# -- reserves and towing ----------------------------------------------------------------------


def test_a_reserve_arrives_in_the_hour_another_ship_acts() -> None:
    """Reserves jump to a battle at once and arrive after the hours of travel: Bob's reserve
    at D, a parsec from the battle opened at B at 0.5, arrives at 0.6, the hour Ann's
    frigate at A lands (an hour's events: activities end, ships leave, ships arrive)."""
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "ANN-2", "Halberd frigate", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    ship(state, "BOB-2", "Bastion battleship", "Bob", "D")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["jump B"], ANN_2=["at 0.6 land"]),
        "Bob": week_orders("Bob", BOB_2=["reserve"]),
    }
    after = run(state, orders, [1] * 8)
    reserve = after.ship("BOB-2")
    assert (reserve.place, reserve.fuel, reserve.ready_at) == ("B", 19, 16)
    (battle,) = after.battles
    assert {s.ship: s.arrives for s in battle.ships} == {"ANN-1": 0, "BOB-1": 0, "BOB-2": 1}
    assert after.ship("ANN-2").landed is True


def test_a_platform_whose_tow_is_cut_short_mines_from_the_hour_it_was_working() -> None:
    """A platform stops working while it is moved; a tow begun at 0.0 and cut short by a
    battle (Bob's destroyer arrives at C at 0.3) leaves it where it was, working the week:
    it rolls its mining week there (3D6 10: normal, 500 points of a rich belt)."""
    state = seed_map()
    state.facilities.append(Facility("ANN-OMP", "omp", "Ann", "C"))
    ship(state, "ANN-1", "Harness tug", "Ann", "C")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "D")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["tow ANN-OMP", "jump A"]),
        "Bob": week_orders("Bob", BOB_1=["jump C"]),
    }
    after = run(state, orders, [1, 1, 3, 3, 4])
    (f,) = after.facilities
    assert (f.place, f.towed_by) == ("C", "")
    (mined,) = told(after, "mining")
    assert (mined.location, mined.data["points"]) == ("C", 500)


def test_points_given_where_the_receiver_holds_no_planet_stay_aboard() -> None:
    """Points are given at a planet of the commander who receives them: Ann plans a gift to
    Bob at B, out of her sight when she writes it (the checker cannot refuse it); B is
    neutral, so the gift is refused, told to her, and the 300 points stay aboard."""
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", cargo=300)
    orders = week_orders("Ann", ANN_1=["jump B", "land", "unload all to Bob"])
    after = run(state, {"Ann": orders}, [])
    assert (after.ship("ANN-1").place, after.ship("ANN-1").cargo) == ("B", 300)
    assert after.stock("B", "Bob") == 0
    (refused,) = told(after, "gift_refused")
    assert (refused.location, refused.visible_to) == ("B", ("Ann",))
    assert refused.text == (
        "ANN-1 could not deliver points to Bob at B: it is not Bob's planet now; they stay aboard"
    )
