"""The week's economy rule by rule (`economy.py`): what a ship, a facility, a spy, research and
development cost and where they are paid, which yard or port may build what, the exact
boundaries (``<`` or ``<=``), what each die is rolled for and logged as, who is told what, and
what is refused and why.  Every figure is worked out by hand from the seed
(``shared/seeds/full-thrust-campaign.txt``) and docs/rules/full-thrust-campaign.md; line
numbers (Lnnn) are the seed's."""

from __future__ import annotations

from typing import Any

from refassist.dice import Dice
from refassist.rulesets.base import Event
from refassist.rulesets.full_thrust.charts import PRIVATE_ROLLS
from refassist.rulesets.full_thrust.economy import (
    build,
    complete_facilities,
    develop,
    espionage,
    mine,
    mission_chance,
    next_ship_id,
    research,
)
from refassist.rulesets.full_thrust.orders import Mission, Orders, Purchase, ResearchOrder
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import Facility, System

from .situations import seed_map, ship

RULES = complete()


def told(e: Event) -> tuple[Any, ...]:
    """An event as the master workbook and the reports see it."""
    return (e.phase, e.location, e.kind, e.text, e.players, e.visible_to, dict(e.data))


def cancelled(owner: str, place: str, order: str, cell: str, why: str) -> tuple[Any, ...]:
    """The order_cancelled event of `economy._cancelled`, told to the commander alone."""
    data = {"order": order, "cell": cell, "reason": why}
    text = f"{owner}'s order for {order}: {why}"
    return ("economy", place, "order_cancelled", text, (owner,), (owner,), data)


# -- ships: build ------------------------------------------------------------------------------


def test_a_starport_lays_down_streamlined_ships_paid_one_by_one_from_its_stock() -> None:
    """L149: "starports may only construct streamlined ships"; docs: ships are paid at the
    yard or starport from the points stored there, one at a time, and in service next week.
    A at Ann's home has a starport and no shipyard; a Halberd frigate (streamlined) costs 68:
    200 points pay for two (136, 64 left), the third is cancelled."""
    state = seed_map()
    state.stocks[("A", "Ann")] = 200
    events = build(state, "Ann", Purchase("Halberd frigate", 3, cell="F9"), {}, RULES)
    assert [e.kind for e in events] == ["ship_ordered", "ship_ordered", "order_cancelled"]
    assert [(s.id, s.place, s.ready_week) for s in state.ships] == [
        ("ANN-1", "A", 2),
        ("ANN-2", "A", 2),
    ]
    assert state.stock("A", "Ann") == 200 - 2 * 68
    why = "only 2 of 3 could be paid for with the points at A"
    assert told(events[2]) == cancelled("Ann", "A", "3 x Halberd frigate", "F9", why)


def test_a_starport_refuses_a_ship_that_is_not_streamlined() -> None:
    """L149: a starport builds streamlined ships only; the Falchion destroyer is not
    streamlined: refused, the points stay where they are."""
    state = seed_map()
    state.stocks[("A", "Ann")] = 500
    events = build(state, "Ann", Purchase("Falchion destroyer", 1, "A", "F3"), {}, RULES)
    why = "A has no shipyard of Ann (a starport builds only streamlined ships)"
    assert [told(e) for e in events] == [cancelled("Ann", "A", "1 x Falchion destroyer", "F3", why)]
    assert state.ships == [] and state.stock("A", "Ann") == 500


def test_a_streamlined_ship_needs_a_yard_or_a_starport_of_the_commanders_own() -> None:
    """L149: "Ships may only be constructed at shipyards or starports": B has neither, and D's
    starport is Bob's, not Ann's.  A streamlined ship refused says no more than that."""
    state = seed_map()
    state.stocks[("B", "Ann")] = 100
    state.stocks[("D", "Ann")] = 100
    for place in ("B", "D"):
        events = build(state, "Ann", Purchase("Halberd frigate", 1, place, "F4"), {}, RULES)
        why = f"{place} has no shipyard of Ann"
        assert [told(e) for e in events] == [
            cancelled("Ann", place, "1 x Halberd frigate", "F4", why)
        ]
        assert state.stock(place, "Ann") == 100
    assert state.ships == []


def test_an_unknown_design_is_cancelled_at_home() -> None:
    """A design not on the design list cannot be built; with no place written the order is
    for the home system (docs: "built at a yard ... the home system")."""
    state = seed_map()
    state.stocks[("A", "Ann")] = 5000
    events = build(state, "Ann", Purchase("Death Star", 1, cell="F5"), {}, RULES)
    why = "there is no design 'Death Star'"
    assert [told(e) for e in events] == [cancelled("Ann", "A", "1 x Death Star", "F5", why)]
    assert state.stock("A", "Ann") == 5000


def test_the_next_ship_id_follows_the_highest_number_of_the_prefix() -> None:
    """Ship ids are the commander's prefix and a number (ANN-7): the next is one past the
    highest taken by an id ending in -N with that prefix (other prefixes, ANN2 included, do
    not count; an id the referee entered with more dashes counts by its last number), and
    the numbers handed out this week are remembered."""
    state = seed_map()
    for sid in ("ANN-3", "ANN-B-9", "ANN2-40", "BOB-12", "ANN-X"):
        ship(state, sid, "Lantern scout", "Ann", "A")
    numbers: dict[str, int] = {}
    assert next_ship_id(state, "ANN", numbers) == "ANN-10"
    assert next_ship_id(state, "ANN", numbers) == "ANN-11"
    assert next_ship_id(state, "CLE", numbers) == "CLE-1"


# -- spies: build ------------------------------------------------------------------------------


def test_spies_are_hired_at_home_for_250_up_to_the_starting_five() -> None:
    """L134: five spies at the start, never more; a lost spy is replaced for 250 points,
    paid at home (docs).  Ann has 4: of three ordered, one is hired; a master spy is not."""
    state = seed_map()
    ann = state.commander("Ann")
    ann.spies = 4
    state.stocks[("A", "Ann")] = 1000
    events = build(state, "Ann", Purchase("spy", 3), {}, RULES)
    assert [told(e) for e in events] == [
        ("economy", "A", "spy_hired", "Ann hires a spy", ("Ann",), ("Ann",), {})
    ]
    assert (ann.spies, ann.master_spies) == (5, 1)
    assert state.stock("A", "Ann") == 750
    # At five, a further spy is refused outright and costs nothing.
    assert build(state, "Ann", Purchase("spy", 1), {}, RULES) == []
    assert (ann.spies, state.stock("A", "Ann")) == (5, 750)


def test_a_master_spy_costs_500_and_one_is_the_most() -> None:
    """L134: one master spy at the start, replaced for 500 points."""
    state = seed_map()
    ann = state.commander("Ann")
    ann.master_spies = 0
    state.stocks[("A", "Ann")] = 600
    events = build(state, "Ann", Purchase("master spy", 2), {}, RULES)
    assert [told(e) for e in events] == [
        ("economy", "A", "spy_hired", "Ann hires a master spy", ("Ann",), ("Ann",), {})
    ]
    assert (ann.spies, ann.master_spies) == (5, 1)
    assert state.stock("A", "Ann") == 100


def test_spies_not_paid_for_are_not_hired() -> None:
    """Spies are paid at home: 300 points there pay for one spy (250), not two."""
    state = seed_map()
    ann = state.commander("Ann")
    ann.spies = 3
    state.stocks[("A", "Ann")] = 300
    state.stocks[("B", "Ann")] = 1000  # points elsewhere do not pay for spies
    events = build(state, "Ann", Purchase("spy", 2), {}, RULES)
    assert [e.kind for e in events] == ["spy_hired"]
    assert ann.spies == 4 and state.stock("A", "Ann") == 50 and state.stock("B", "Ann") == 1000


# -- facilities: build_facility ----------------------------------------------------------------


def test_a_starport_builds_a_shipyard_and_no_other_orbital_facility() -> None:
    """L149: starports "may only construct streamlined ships and shipyards"; a shipyard costs
    500 (L204's table), paid at the place, working next week.  With no place written the
    order is for the home system."""
    state = seed_map()
    state.stocks[("A", "Ann")] = 2000
    events = build(state, "Ann", Purchase("shipyard", 1, cell="F2"), {}, RULES)
    text = "Ann builds ANN-SHIPYARD1, a shipyard, at A (500 points; working next week)"
    data = {"facility": "ANN-SHIPYARD1", "cost": 500}
    assert [told(e) for e in events] == [
        ("economy", "A", "facility_ordered", text, ("Ann",), ("Ann",), data)
    ]
    assert [(f.id, f.kind, f.owner, f.place, f.ready_week) for f in state.facilities] == [
        ("ANN-SHIPYARD1", "shipyard", "Ann", "A", 2)
    ]
    assert state.stock("A", "Ann") == 1500
    # The shipyard works only next week: this week the starport builds no platform, station.
    for kind in ("omp", "station"):
        events = build(state, "Ann", Purchase(kind, 1, "A", "F3"), {}, RULES)
        why = "A has no shipyard of Ann (a starport builds shipyards only)"
        assert [told(e) for e in events] == [cancelled("Ann", "A", f"1 x {kind}", "F3", why)]
    assert state.stock("A", "Ann") == 1500 and len(state.facilities) == 1


def test_no_shipyard_at_a_rivals_starport_or_where_there_is_no_yard() -> None:
    """L149: only the commander's own shipyard or starport builds: Bob's starport at D does
    not build for Ann, and B has nothing."""
    state = seed_map()
    for place in ("D", "B"):
        state.stocks[(place, "Ann")] = 1000
        events = build(state, "Ann", Purchase("shipyard", 1, place, "F6"), {}, RULES)
        why = f"{place} has no shipyard of Ann"
        assert [told(e) for e in events] == [cancelled("Ann", place, "1 x shipyard", "F6", why)]
        assert state.stock(place, "Ann") == 1000
    assert state.facilities == []


def test_a_shipyard_builds_orbital_facilities_anywhere_it_is_and_the_price_is_exact() -> None:
    """L33/L149: an OMP is built at a shipyard (here Ann's yard at C, a neutral system: the
    yard need not be at a planet of hers); 500 points (L204), paid from the stock at C: 499
    is not enough, 500 is."""
    state = seed_map()
    state.facilities.append(Facility("ANN-SHIPYARD1", "shipyard", "Ann", "C"))
    state.stocks[("C", "Ann")] = 499
    events = build(state, "Ann", Purchase("omp", 1, "C", "F7"), {}, RULES)
    why = "it costs 500 and 499 points are stored at C"
    assert [told(e) for e in events] == [cancelled("Ann", "C", "1 x omp", "F7", why)]
    assert state.stock("C", "Ann") == 499 and len(state.facilities) == 1
    state.stocks[("C", "Ann")] = 500
    events = build(state, "Ann", Purchase("omp", 1, "C", "F7"), {}, RULES)
    assert [e.kind for e in events] == ["facility_ordered"]
    assert state.facilities[-1].id == "ANN-OMP1" and state.facilities[-1].place == "C"
    assert state.stock("C", "Ann") == 0


def test_facilities_are_numbered_past_those_taken_and_each_is_told() -> None:
    """Two platforms in one order: each paid (1000 for two) and told; numbered after the
    ANN-OMP1 Ann already has (ANN-OMP2, ANN-OMP3)."""
    state = seed_map()
    state.facilities.append(Facility("ANN-SHIPYARD1", "shipyard", "Ann", "C"))
    state.facilities.append(Facility("ANN-OMP1", "omp", "Ann", "C"))
    state.stocks[("C", "Ann")] = 1000
    events = build(state, "Ann", Purchase("omp", 2, "C"), {}, RULES)
    assert [e.data["facility"] for e in events] == ["ANN-OMP2", "ANN-OMP3"]
    assert [f.id for f in state.facilities] == ["ANN-SHIPYARD1", "ANN-OMP1", "ANN-OMP2", "ANN-OMP3"]
    assert state.stock("C", "Ann") == 0


def test_a_space_station_costs_the_house_rules_price() -> None:
    """L205: a Space Station's cost "Varies": the house rule ``station_cost`` sets it."""
    state = seed_map()
    state.facilities.append(Facility("ANN-SHIPYARD1", "shipyard", "Ann", "C"))
    state.stocks[("C", "Ann")] = 250
    rules = dict(RULES, station_cost=250)
    events = build(state, "Ann", Purchase("station", 1, "C"), {}, rules)
    assert [(e.kind, e.data["cost"]) for e in events] == [("facility_ordered", 250)]
    assert state.facilities[-1].id == "ANN-STATION1" and state.stock("C", "Ann") == 0


def test_a_port_goes_on_a_planet_of_the_commanders_own_and_one_per_planet() -> None:
    """Docs: a starport (1000) or spaceport (500) on a planet of the commander's without
    one.  B is neutral, A has its starport; E (Ann's, no port) takes a spaceport although a
    shipyard orbits it and a port is being built elsewhere; a second in the same week is
    refused (the first, under construction, counts)."""
    state = seed_map()
    state.systems["E"] = System("E", (5, 5), value=2, owner="Ann")
    state.facilities.append(Facility("ANN-SHIPYARD1", "shipyard", "Ann", "E"))
    state.facilities.append(Facility("BOB-STARPORT1", "starport", "Bob", "Walled", 2))
    for place in ("B", "A", "E"):
        state.stocks[(place, "Ann")] = 500
    refused = {
        "B": "B is not a planet of Ann's",
        "A": "A has a port already (one per planet)",
    }
    for place, why in refused.items():
        events = build(state, "Ann", Purchase("spaceport", 1, place, "F8"), {}, RULES)
        assert [told(e) for e in events] == [cancelled("Ann", place, "1 x spaceport", "F8", why)]
        assert state.stock(place, "Ann") == 500
    events = build(state, "Ann", Purchase("spaceport", 1, "E", "F8"), {}, RULES)
    assert [(e.kind, e.data["facility"], e.data["cost"]) for e in events] == [
        ("facility_ordered", "ANN-SPACEPORT1", 500)
    ]
    assert state.stock("E", "Ann") == 0
    state.stocks[("E", "Ann")] = 500
    events = build(state, "Ann", Purchase("spaceport", 1, "E", "F8"), {}, RULES)
    why = "E has a port already (one per planet)"
    assert [told(e) for e in events] == [cancelled("Ann", "E", "1 x spaceport", "F8", why)]


def test_facilities_laid_down_last_week_are_complete_and_a_port_becomes_the_planets() -> None:
    """Docs: facilities are "working next week"; a port is the planet's once complete."""
    state = seed_map(week=2)
    state.systems["E"] = System("E", (5, 5), value=2, owner="Ann")
    state.facilities += [
        Facility("ANN-SHIPYARD1", "shipyard", "Ann", "C", ready_week=2),
        Facility("ANN-SPACEPORT1", "spaceport", "Ann", "E", ready_week=2),
        Facility("ANN-OMP1", "omp", "Ann", "C", ready_week=3),
    ]
    events = complete_facilities(state)
    texts = ["Ann's shipyard at C is complete", "Ann's spaceport at E is complete"]
    assert [told(e) for e in events] == [
        ("economy", place, "facility_completed", text, ("Ann",), ("Ann",), {})
        for place, text in zip(("C", "E"), texts, strict=True)
    ]
    assert [(f.id, f.ready_week) for f in state.facilities] == [
        ("ANN-SHIPYARD1", 0),
        ("ANN-OMP1", 3),
    ]
    assert state.systems["E"].port == "spaceport"


# -- items: buy_item ---------------------------------------------------------------------------


def test_an_item_for_a_rivals_ship_is_refused_without_saying_where_the_ship_is() -> None:
    """Items go on a ship of the commander's own; an order naming Bob's ship is refused, and
    the refusal (told to Ann) must not place BOB-1 at D, which Ann may not see."""
    state = seed_map()
    ship(state, "BOB-1", "Aerie carrier", "Bob", "D")
    state.stocks[("D", "Ann")] = 100
    events = build(state, "Ann", Purchase("mine", 2, "BOB-1", "F2"), {}, RULES)
    why = "BOB-1 is neither a place nor a ship of Ann's"
    assert [told(e) for e in events] == [cancelled("Ann", "BOB-1", "2 x mine", "F2", why)]
    assert state.stock("D", "Ann") == 100 and state.ship("BOB-1").stores == {}


# -- mining ------------------------------------------------------------------------------------


def test_a_platform_mines_pro_rata_from_the_hour_it_came() -> None:
    """L33 and the mining table: a rich belt yields 500 a week, pro rata for the hours worked
    (rounded down): one hour is 5 points; 3D6 9 is a normal week.  Rolled in the economy phase
    at the belt, told to the owner alone, the dice private."""
    state = seed_map()
    state.facilities.append(Facility("ANN-OMP1", "omp", "Ann", "C", active_from=99))
    dice = Dice.scripted([3, 3, 3])
    events = mine(state, dice, RULES)
    text = "ANN-OMP1 mines the rich belt at C: 3D6 9 (normal), 5 production points"
    data = {"dice": [3, 3, 3], "result": "normal", "points": 5}
    assert [told(e) for e in events] == [("economy", "C", "mining", text, ("Ann",), ("Ann",), data)]
    assert state.stock("C", "Ann") == 5
    assert [(r.phase, r.location, r.purpose, r.sides) for r in dice.log] == [
        ("economy", "C", "mining, C", 6)
    ] * 3
    assert dice.secrets == {PRIVATE_ROLLS}


def test_a_platform_with_no_hours_or_not_built_does_not_mine() -> None:
    """A platform that came at hour 100 worked no hour; one still being built works only
    once built (no die is rolled for either: the scripted dice are empty)."""
    state = seed_map()
    state.facilities += [
        Facility("ANN-OMP1", "omp", "Ann", "C", active_from=100),
        Facility("ANN-OMP2", "omp", "Ann", "C", ready_week=2),
    ]
    assert mine(state, Dice.scripted([]), RULES) == []
    # A shipyard, or a platform released where there is no belt (A), mines nothing and
    # does not stop the platforms listed after it.
    state.facilities = [
        Facility("ANN-SHIPYARD1", "shipyard", "Ann", "C"),
        Facility("ANN-OMP4", "omp", "Ann", "A"),
        Facility("ANN-OMP3", "omp", "Ann", "C"),
    ]
    # The whole week at a rich belt: 500; 3D6 13 is a rich vein, +50.
    events = mine(state, Dice.scripted([4, 4, 5]), RULES)
    assert [(e.data["result"], e.data["points"]) for e in events] == [("rich vein", 550)]


def test_a_worked_out_belt_stays_worked_out() -> None:
    """Mining table 17-18: the belt is worked out for good, nothing that week or after."""
    state = seed_map()
    state.facilities.append(Facility("ANN-OMP1", "omp", "Ann", "C"))
    events = mine(state, Dice.scripted([6, 6, 5]), RULES)
    assert [(e.data["result"], e.data["points"]) for e in events] == [("exhausted", 0)]
    assert state.systems["C"].belt_worked_out is True and state.stock("C", "Ann") == 0
    assert mine(state, Dice.scripted([]), RULES) == []


# -- research and development ------------------------------------------------------------------


def test_an_aimed_roll_of_20_finds_nothing_even_aimed_at_19() -> None:
    """The Research Table's 20 is no result; aimed at 19 (Boarding Pods) a 20 is within one
    but finds nothing unless the house rule ``aimed_twenty_counts`` (off) says so."""
    state = seed_map()
    state.stocks[("A", "Ann")] = 100
    events = research(state, "Ann", ResearchOrder(rolls=1, aim=19), Dice.scripted([20]), RULES)
    assert [e.kind for e in events] == ["research_aim", "research"]
    assert events[1].text == "Ann's research aimed at Boarding Pods: 1D20 20, nothing found"
    assert state.commander("Ann").discoveries == []


def test_research_then_development_in_one_order_tells_both() -> None:
    """A week's research order may roll (100 a roll) and develop a discovery: both told."""
    state = seed_map()
    state.commander("Ann").discoveries = ["Rail Guns"]
    state.stocks[("A", "Ann")] = 200
    order = ResearchOrder(rolls=1, develop="Rail Guns", points=100)
    events = research(state, "Ann", order, Dice.scripted([20, 99]), RULES)
    assert [e.kind for e in events] == ["research", "development"]
    assert state.stock("A", "Ann") == 0


def test_development_is_1_percent_per_10_points_over_the_factor_at_or_under() -> None:
    """L273: 1% per 10 points, modified by the field's cost (Rail Guns 0.5: 100 points
    divided by 0.5 are 200, 20%); 1D100 at or under the chance succeeds.  Rolled at home in
    the research phase, private."""
    for roll, done in ((20, True), (21, False)):
        state = seed_map()
        ann = state.commander("Ann")
        ann.discoveries = ["Rail Guns"]
        state.stocks[("A", "Ann")] = 100
        dice = Dice.scripted([roll])
        order = ResearchOrder(develop="Rail Guns", points=100)
        events = develop(state, "Ann", order, dice, RULES)
        word = "developed" if done else "not yet"
        text = f"Ann develops Rail Guns: 20% chance, 1D100 {roll}: {word}"
        data = {"chance": 20, "roll": roll, "done": done}
        assert [told(e) for e in events] == [
            ("research", "A", "development", text, ("Ann",), ("Ann",), data)
        ]
        assert (ann.discoveries, ann.developed) == (
            ([], ["Rail Guns"]) if done else (["Rail Guns"], [])
        )
        assert state.stock("A", "Ann") == 0
        assert [(r.phase, r.location, r.purpose, r.sides) for r in dice.log] == [
            ("research", "A", "development of Rail Guns, Ann", 100)
        ]
        assert dice.secrets == {PRIVATE_ROLLS}


def test_development_at_half_cost_doubles_the_points() -> None:
    """L274/L289: a field found in an ancient library is developed at half cost: 100 points
    do the work of 200 (400 over Rail Guns' 0.5: 40%); the half cost ends once developed."""
    state = seed_map()
    ann = state.commander("Ann")
    ann.discoveries, ann.half_cost = ["Rail Guns"], ["Rail Guns"]
    state.stocks[("A", "Ann")] = 100
    order = ResearchOrder(develop="Rail Guns", points=100)
    (e,) = develop(state, "Ann", order, Dice.scripted([40]), RULES)
    assert e.text == "Ann develops Rail Guns at half cost: 40% chance, 1D100 40: developed"
    assert (ann.developed, ann.half_cost) == (["Rail Guns"], [])


def test_only_a_discovered_field_is_developed() -> None:
    """L248: "Only if a discovery is made ... can development proceed": Armour, a field of
    the table Ann has not discovered, is refused, unpaid and unrolled."""
    state = seed_map()
    state.stocks[("A", "Ann")] = 100
    order = ResearchOrder(develop="Armour", points=100)
    events = develop(state, "Ann", order, Dice.scripted([]), RULES)
    text = "Ann has not discovered Armour"
    assert [told(e) for e in events] == [
        ("research", "A", "development_refused", text, ("Ann",), ("Ann",), {})
    ]
    assert state.stock("A", "Ann") == 100 and state.commander("Ann").developed == []


def test_development_not_paid_for_is_not_rolled() -> None:
    """Development is paid at home: 99 points do not pay for 100."""
    state = seed_map()
    state.commander("Ann").discoveries = ["Rail Guns"]
    state.stocks[("A", "Ann")] = 99
    order = ResearchOrder(develop="Rail Guns", points=100)
    events = develop(state, "Ann", order, Dice.scripted([]), RULES)
    text = "Ann cannot pay 100 points for development at A"
    assert [told(e) for e in events] == [
        ("research", "A", "research_unpaid", text, ("Ann",), ("Ann",), {})
    ]
    assert state.stock("A", "Ann") == 99 and state.commander("Ann").discoveries == ["Rail Guns"]


# -- espionage ---------------------------------------------------------------------------------


def test_mission_chance_is_whole_percent() -> None:
    """L137: 10% a spy, 15% a master spy, +1% per whole 10 points, at most doubled; our
    industry subject (non-military) doubles the chance."""
    assert mission_chance(Mission(1, 0, "Bob", "fleet", 15)) == 11
    assert mission_chance(Mission(2, 1, "Bob", "fleet", 1000)) == 70
    assert mission_chance(Mission(1, 0, "Bob", "industry", 59)) == 30


def test_counter_espionage_is_rolled_first_and_a_caught_mission_loses_its_spies() -> None:
    """L136: counter-espionage comes first; a mission caught sends nothing and its spies are
    lost.  Ann's counter-espionage (2 spies: 20%) catches Bob's first mission at 1D100 20 and
    misses the second at 21; that one (industry: 10% doubled, 20%) succeeds at 20 and learns
    Ann's stocks.  Both sides learn of the capture; the dice are private."""
    state = seed_map()
    state.stocks[("A", "Ann")] = 300
    orders = {
        "Ann": Orders("Ann", 1, missions=[Mission(2, 0, "Ann", "counter-espionage")]),
        "Bob": Orders(
            "Bob", 1, missions=[Mission(1, 0, "Ann", "fleet"), Mission(1, 0, "Ann", "industry")]
        ),
    }
    dice = Dice.scripted([20, 21, 20])
    events = espionage(state, orders, dice)
    caught = "Ann's counter-espionage catches Bob's spies (1D100 20)"
    spied = "Bob's spies on Ann's industry: 20% chance, 1D100 20: success"
    found = {"chance": 20, "roll": 20, "found": ["300 production points at A"], "secret": ""}
    assert [told(e) for e in events] == [
        ("espionage", "Ann", "spies_caught", caught, ("Bob", "Ann"), ("Bob", "Ann"), {"roll": 20}),
        ("espionage", "Ann", "espionage", spied, ("Bob",), ("Bob",), found),
    ]
    assert (state.commander("Bob").spies, state.commander("Ann").spies) == (4, 5)
    assert dice.secrets == {PRIVATE_ROLLS}
    assert [r.purpose for r in dice.log] == [
        "counter-espionage of Ann against Bob",
        "counter-espionage of Ann against Bob",
        "espionage of Bob on Ann",
    ]


def test_missions_use_no_more_spies_than_the_commander_has() -> None:
    """L134/L137: a commander's 5 spies and 1 master spy are shared among the week's
    missions: 6 spies are too many; 3 and the master leave 2 and none, so 3 more spies or the
    master again are refused.  The mission sent (45%) fails at 1D100 90: one die only."""
    state = seed_map()
    missions = [
        Mission(6, 0, "Bob", "fleet", cell="M1"),
        Mission(3, 1, "Bob", "fleet", cell="M2"),
        Mission(3, 0, "Bob", "research", cell="M3"),
        Mission(0, 1, "Bob", "industry", cell="M4"),
    ]
    events = espionage(state, {"Ann": Orders("Ann", 1, missions=missions)}, Dice.scripted([90]))
    text = "Ann has no spies left for a mission against Bob"

    def refused(subject: str, cell: str) -> tuple[Any, ...]:
        data = {"order": f"mission {subject}", "cell": cell, "reason": "not enough spies"}
        return ("espionage", "A", "order_cancelled", text, ("Ann",), ("Ann",), data)

    sent = "Ann's spies on Bob's fleet: 45% chance, 1D100 90: nothing learned"
    data = {"chance": 45, "roll": 90, "found": [], "secret": ""}
    assert [told(e) for e in events] == [
        refused("fleet", "M1"),
        refused("research", "M3"),
        refused("industry", "M4"),
        ("espionage", "Bob", "espionage", sent, ("Ann",), ("Ann",), data),
    ]


def test_points_not_paid_for_leave_a_mission_its_bare_chance() -> None:
    """L137: points raise the chance only if spent; Ann has 50 of the 100 at home, so the
    fleet mission goes at 10% and the stock stays.  1D100 10 succeeds: Bob's ships and fuel."""
    state = seed_map()
    state.stocks[("A", "Ann")] = 50
    ship(state, "BOB-1", "Lantern scout", "Bob", "D")
    orders = {"Ann": Orders("Ann", 1, missions=[Mission(1, 0, "Bob", "fleet", 100)])}
    (e,) = espionage(state, orders, Dice.scripted([10]))
    assert e.text == "Ann's spies on Bob's fleet: 10% chance, 1D100 10: success"
    assert e.data["found"] == ["BOB-1 Lantern scout at D, fuel for 20 parsecs"]
    assert state.stock("A", "Ann") == 50


def test_spies_on_research_learn_the_fields_and_steal_one_by_a_logged_die() -> None:
    """L248: a secret gained by espionage may be developed.  Bob has developed Armour and Rail
    Guns and discovered Wave Guns; Ann lacks Wave Guns (7) and Armour (18): 1D2 2 picks
    Armour, rolled in the espionage phase at Bob."""
    state = seed_map()
    bob = state.commander("Bob")
    bob.developed, bob.discoveries = ["Armour", "Rail Guns"], ["Wave Guns"]
    state.commander("Ann").developed = ["Rail Guns"]
    dice = Dice.scripted([5, 2])
    orders = {"Ann": Orders("Ann", 1, missions=[Mission(1, 0, "Bob", "research")])}
    (e,) = espionage(state, orders, dice)
    assert e.data["found"] == ["discovered Wave Guns", "developed Armour", "developed Rail Guns"]
    assert e.text.endswith("success; the secret of Armour is stolen: it may be developed")
    assert state.commander("Ann").discoveries == ["Armour"]
    last = dice.log[-1]
    assert (last.phase, last.location, last.purpose, last.sides) == (
        "espionage",
        "Bob",
        "secret stolen by Ann from Bob",
        2,
    )


def test_spies_on_no_commander_learn_and_steal_nothing() -> None:
    """A mission at a name that is no commander finds nothing to learn or steal."""
    state = seed_map()
    orders = {"Ann": Orders("Ann", 1, missions=[Mission(1, 0, "Zed", "research")])}
    (e,) = espionage(state, orders, Dice.scripted([1]))
    assert e.text == "Ann's spies on Zed's research: 10% chance, 1D100 1: success"
    assert (e.data["found"], e.data["secret"]) == ([], "")


def test_orders_from_no_commander_do_not_stop_the_others_missions() -> None:
    """Only commanders send spies: orders under a name that is none (sorted first here) are
    passed over, and the commanders' missions after them still go (Ann's: 10%, 1D100 11)."""
    state = seed_map()
    orders = {
        "Aaron": Orders("Aaron", 1, missions=[Mission(1, 0, "Bob", "fleet")]),
        "Ann": Orders("Ann", 1, missions=[Mission(1, 0, "Bob", "fleet")]),
    }
    (e,) = espionage(state, orders, Dice.scripted([11]))
    assert e.text == "Ann's spies on Bob's fleet: 10% chance, 1D100 11: nothing learned"
