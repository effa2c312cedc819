"""The battles' results applied as the referee entered them, and the end of a bounded
campaign: who owns which ship and planet afterwards, who is told what, what a capture costs.

Each battle is set up by hand (`Battle`, `InBattle`) and resolved through `resolve_turn`, the
one public way a step is resolved, with scripted crack rolls (a 6 never turns a ship crack).
``test_week.py`` resolves whole weeks into battles; these pin the results' edges: a battle
left without a result, a merchant captured (used at once) beside a warship (refitted first),
a tender's cargo through damage, a result that names no holder or the natives, a rival's
planet that is not its home, and a campaign's end with a tie."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.base import Event
from refassist.rulesets.full_thrust.designs import Design
from refassist.rulesets.full_thrust.orders import FleetOrder, Orders, Purchase, Timeline
from refassist.rulesets.full_thrust.resolve import movers_of, resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import (
    NATIVES,
    Battle,
    BattleResult,
    Facility,
    InBattle,
    State,
)
from refassist.rulesets.full_thrust.timeline import Activity, Position
from refassist.rulesets.full_thrust.travel import Mover

from .situations import seed_map, ship, week_orders

RULES = complete()


def at_battle(place: str, *ships: tuple[str, str, str], invasion: str = "") -> State:
    """Week 3, a battle ``B3-1`` at ``place`` waiting for its result, with ``ships`` (id,
    design, owner) there in the battle's order."""
    state = seed_map(week=3)
    for ship_id, design, owner in ships:
        ship(state, ship_id, design, owner, place, fleet="Strike")
    state.battles.append(
        Battle(
            "B3-1",
            3,
            place,
            42,
            [InBattle(i, o, d) for i, d, o in ships],
            invasion=invasion,
        )
    )
    return state


def test_a_battle_without_a_result_leaves_its_ships_and_the_next_is_still_applied() -> None:
    state = at_battle("B", ("ANN-1", "Halberd frigate", "Ann"), ("BOB-1", "Halberd frigate", "Bob"))
    ship(state, "ANN-2", "Halberd frigate", "Ann", "C")
    ship(state, "CLE-1", "Halberd frigate", "Cleo", "C")
    state.battles.append(
        Battle(
            "B3-2",
            3,
            "C",
            50,
            [InBattle("ANN-2", "Ann", "Halberd frigate"), InBattle("CLE-1", "Cleo", "x")],
        )
    )
    result = BattleResult("B3-2", destroyed=["CLE-1"])
    done = resolve_turn(state, {"B3-2": result}, Dice.scripted([6]), RULES)
    after = done.state
    assert [s.id for s in after.ships] == ["ANN-1", "BOB-1", "ANN-2"]
    assert (after.week, after.battles) == (4, [])
    assert done.summary == "Week 3: the battles' results are in"
    unresolved, applied = done.events
    assert unresolved == Event(
        3,
        "battles",
        "B",
        "battle_unresolved",
        "No result was entered for the battle at B; every ship is left as it was",
        ("Ann", "Bob"),
        ("Ann", "Bob"),
        {"battle": "B3-1"},
    )
    assert (applied.kind, applied.location, applied.text) == (
        "battle_result",
        "C",
        "The battle at C: CLE-1 destroyed",
    )


def test_a_captured_merchant_serves_at_once_and_a_captured_warship_waits_for_a_refit() -> None:
    state = at_battle(
        "B",
        ("ANN-1", "Halberd frigate", "Ann"),
        ("BOB-1", "Packet merchant", "Bob"),
        ("BOB-2", "Halberd frigate", "Bob"),
    )
    result = BattleResult("B3-1", captured={"BOB-1": "Ann", "BOB-2": "Ann"})
    after = resolve_turn(state, {"B3-1": result}, Dice.scripted([6, 6, 6]), RULES).state
    merchant, frigate = after.ship("BOB-1"), after.ship("BOB-2")
    assert merchant is not None and frigate is not None
    assert (merchant.owner, merchant.fleet, merchant.needs_refit) == ("Ann", "", False)
    assert (frigate.owner, frigate.fleet, frigate.needs_refit) == ("Ann", "", True)
    # The captor's own ship keeps its fleet.
    assert after.ship("ANN-1").fleet == "Strike"
    (told,) = [e for e in after.events if e.kind == "battle_result"]
    assert told.data["lines"] == [
        "BOB-1 captured by Ann",
        "BOB-2 captured by Ann (a capture refit before it can be used)",
    ]


def test_a_tender_keeps_its_cargo_through_damage_and_damage_stops_at_its_boxes() -> None:
    """Only a merchant's cargo is lost with its boxes (the seed: "merchant ships lose cargo in
    proportion to the damage"); a tender's hold is not a merchant's."""
    state = at_battle(
        "B",
        ("ANN-1", "Wellspring tender", "Ann"),
        ("ANN-2", "Packet merchant", "Ann"),
        ("BOB-1", "Halberd frigate", "Bob"),
    )
    state.ship("ANN-1").cargo = 600
    state.ship("ANN-2").cargo = 300
    state.ship("BOB-1").damage = 4
    result = BattleResult("B3-1", damage={"ANN-1": 6, "ANN-2": 3, "BOB-1": 5})
    after = resolve_turn(state, {"B3-1": result}, Dice.scripted([6, 6, 6]), RULES).state
    tender, merchant, frigate = (after.ship(i) for i in ("ANN-1", "ANN-2", "BOB-1"))
    assert (tender.cargo, tender.damage) == (600, 6)
    assert (merchant.cargo, merchant.damage) == (150, 3)  # half its 6 boxes: half its cargo
    assert frigate.damage == 6  # 4 + 5, but a Halberd frigate has 6 boxes


def test_a_result_without_a_holder_or_with_the_natives_changes_no_planet() -> None:
    state = at_battle("D", ("ANN-1", "Halberd frigate", "Ann"), ("BOB-1", "Halberd frigate", "Bob"))
    after = resolve_turn(state, {"B3-1": BattleResult("B3-1")}, Dice.scripted([6, 6]), RULES)
    assert after.state.systems["D"].owner == "Bob"
    (told,) = [e for e in after.events if e.kind == "battle_result"]
    assert told.text == "The battle at D: no losses"
    # An invasion the natives won: B stays neutral, its defenders where they were.
    state = at_battle("B", ("ANN-1", "Halberd frigate", "Ann"), invasion="Ann")
    state.battles[0].ships.append(InBattle(NATIVES, NATIVES, "300 points of book designs"))
    won = BattleResult("B3-1", holder=NATIVES)
    after = resolve_turn(state, {"B3-1": won}, Dice.scripted([6]), RULES).state
    assert (after.systems["B"].owner, after.systems["B"].indigenous) == ("", 300)
    # A holder named at a wormhole: there is no planet to hold.
    state = at_battle(
        "Gate", ("ANN-1", "Halberd frigate", "Ann"), ("BOB-1", "Halberd frigate", "Bob")
    )
    won = BattleResult("B3-1", holder="Ann")
    after = resolve_turn(state, {"B3-1": won}, Dice.scripted([6, 6]), RULES).state
    assert after.systems["Gate"].owner == ""


def test_taking_a_rivals_planet_that_is_not_its_home_gives_no_technology() -> None:
    state = at_battle("C", ("ANN-1", "Halberd frigate", "Ann"), ("BOB-1", "Halberd frigate", "Bob"))
    state.systems["C"].owner = "Bob"
    state.commander("Bob").developed = ["Armour", "Rail Guns"]
    won = BattleResult("B3-1", holder="Ann")
    after = resolve_turn(state, {"B3-1": won}, Dice.scripted([6, 6]), RULES).state
    ann = after.commander("Ann")
    assert (ann.discoveries, ann.half_cost) == ([], [])
    assert after.systems["C"].owner == "Ann"
    assert not [e for e in after.events if e.kind == "battle_aftermath"]


def test_taking_a_rivals_home_names_each_technology_gained() -> None:
    state = at_battle("D", ("ANN-1", "Halberd frigate", "Ann"), ("BOB-1", "Halberd frigate", "Bob"))
    state.commander("Bob").developed = ["Armour", "Rail Guns"]
    won = BattleResult("B3-1", holder="Ann", destroyed=["BOB-1"])
    after = resolve_turn(state, {"B3-1": won}, Dice.scripted([6]), RULES).state
    (gained,) = [e for e in after.events if e.kind == "battle_aftermath"]
    assert gained.text == (
        "After the battle at D: Ann may develop Armour, Rail Guns at half cost "
        "(Bob's home planet taken)"
    )


def test_a_bounded_campaign_counts_every_planet_and_names_a_tie() -> None:
    """Ann holds A (4) and B (3): 7; Bob D (1) and Walled (2) and Far (4 here): 7; a tie."""
    state = seed_map(week=5)
    state.systems["B"].owner = "Ann"
    state.systems["Walled"].owner = "Bob"
    state.systems["Far"].owner = "Bob"
    state.systems["Far"].value = 4
    state.systems["Gate"].owner = "Cleo"  # a wormhole is no planet: counts nothing
    done = resolve_turn(state, {}, Dice.scripted([]), complete({"last_week": 5}))
    text = "The campaign ended after week 5: Ann and Bob hold planets of total Value 7"
    assert done.state.finished == text
    assert done.events[-1] == Event(5, "end", "", "campaign_over", text, (), ("*",), {})
    # A week before the last, the campaign goes on.
    state.week = 4
    done = resolve_turn(state, {}, Dice.scripted([]), complete({"last_week": 5}))
    assert done.state.finished == "" and done.summary == "Week 4 resolved"


def test_the_set_up_skips_an_unknown_design_and_spends_to_the_last_point() -> None:
    """Ann's list names a design not on the list (skipped, the next bought), then two
    frigates with exactly the points for one: the first is bought, the second refused with
    the order's cell, her whole fleet told to her alone."""
    state = seed_map(week=0)
    for c in state.commanders:
        c.points = 0
    state.commander("Ann").points = 42 + 68
    orders = {
        "Ann": Orders(
            "Ann",
            0,
            purchases=[
                Purchase("Dreadnought", 1, cell="B4"),
                Purchase("Packet merchant", 1, cell="B5"),
                Purchase("Halberd frigate", 2, cell="B6"),
            ],
        )
    }
    done = resolve_turn(state, orders, Dice.scripted([]), RULES)
    after = done.state
    assert [(s.id, s.design) for s in after.ships] == [
        ("ANN-1", "Packet merchant"),
        ("ANN-2", "Halberd frigate"),
    ]
    assert (
        after.stock("A", "Ann") == 0 and done.summary == "The commanders have bought their fleets"
    )
    refused, ann, bob, _cleo = done.events
    assert refused == Event(
        0,
        "set-up",
        "A",
        "order_cancelled",
        "Ann could buy only 1 of 2 x Halberd frigate with the points left",
        ("Ann",),
        ("Ann",),
        {"order": "2 x Halberd frigate", "cell": "B6", "reason": "not enough points"},
    )
    assert ann == Event(
        0,
        "set-up",
        "A",
        "fleet_bought",
        "Ann starts at A with 2 ship(s); 0 points left are stocked at A",
        ("Ann",),
        ("Ann",),
        {"ships": ["ANN-1", "ANN-2"], "left": 0},
    )
    assert (bob.players, bob.data) == (("Bob",), {"ships": [], "left": 0})
    assert after.stock("D", "Bob") == 0


def plans(state: State, orders: dict[str, Orders]) -> dict[str, Mover]:
    return {m.name: m for m in movers_of(state, orders, RULES)}


def test_cargo_moves_without_landing_only_at_a_station_of_ones_own() -> None:
    """Bob's station at B is not Ann's; Ann's shipyard at C is no station."""
    state = seed_map(week=2)
    state.facilities += [
        Facility("BOB-ST", "station", "Bob", "B"),
        Facility("ANN-YD", "shipyard", "Ann", "C"),
        Facility("ANN-ST", "station", "Ann", "Walled"),
    ]
    ship(state, "ANN-1", "Packet merchant", "Ann", "B", cargo=100)
    ship(state, "ANN-2", "Packet merchant", "Ann", "C", cargo=100)
    ship(state, "ANN-3", "Packet merchant", "Ann", "Walled", cargo=100)
    ship(state, "BOB-1", "Packet merchant", "Bob", "B", cargo=100)
    orders = {
        "Ann": week_orders("Ann", ANN_1=["unload 50"], ANN_2=["unload 50"], ANN_3=["unload 50"]),
        "Bob": week_orders("Bob", BOB_1=["unload 50"]),
    }
    found = plans(state, orders)
    assert [t.activity for t in found["ANN-1"].plan.errors] == [0]
    assert [t.activity for t in found["ANN-2"].plan.errors] == [0]
    assert found["ANN-3"].plan.errors == []
    assert found["BOB-1"].plan.errors == []


def fleet_orders(**fleets: list[str]) -> Orders:
    orders = Orders("Ann", 2)
    orders.fleets = [FleetOrder(name, ships) for name, ships in fleets.items()]
    return orders


def test_a_fleet_stands_as_its_weakest_ship() -> None:
    """A fleet has the least fuel of its ships, the latest recharge, a disabled drive if any
    ship's is, a capture refit if any ship needs one; no cargo or damage of its own (each
    ship keeps its own), and the tow of its first ship."""
    state = seed_map(week=2)
    ship(state, "ANN-1", "Harness tug", "Ann", "A", fuel=12, ready_at=3, damage=2)
    ship(state, "ANN-2", "Packet merchant", "Ann", "A", fuel=9, ready_at=7, cargo=100)
    ship(state, "ANN-3", "Halberd frigate", "Ann", "A", drive="disabled", needs_refit=True)
    ship(state, "ANN-4", "Halberd frigate", "Ann", "A")
    state.facilities.append(Facility("ANN-YD", "shipyard", "Ann", "A", towed_by="ANN-1"))
    found = plans(state, {"Ann": fleet_orders(Strike=["ANN-1", "ANN-2"], Lame=["ANN-3", "ANN-4"])})
    assert sorted(found) == ["Lame", "Strike"]
    strike, lame = found["Strike"], found["Lame"]
    assert [s.id for s in strike.ships] == ["ANN-1", "ANN-2"]
    assert strike.plan.end == Position(
        place="A",
        fuel=9,
        cargo=0,
        landed=False,
        inches=30,
        ready_at=7,
        drive="ok",
        damage=0,
        towing="ANN-YD",
        captured=False,
    )
    assert strike.ready_at == 7 and strike.place == "A"
    assert lame.plan.end is not None
    assert (lame.plan.end.drive, lame.plan.end.captured) == ("disabled", True)
    # A ship alone keeps its cargo and damage.
    alone = plans(state, {"Ann": fleet_orders()})
    assert alone["ANN-2"].plan.end is not None
    assert (alone["ANN-2"].plan.end.cargo, alone["ANN-2"].plan.end.towing) == (100, "")
    assert alone["ANN-1"].plan.end is not None and alone["ANN-1"].plan.end.damage == 2
    assert alone["ANN-4"].plan.end is not None and alone["ANN-4"].plan.end.drive == "ok"


def test_what_a_fleet_can_do_is_what_all_its_ships_can() -> None:
    state = seed_map(week=2)
    state.designs["Barge"] = Design("Barge", 20, 30, "escort", "merchant", 6, hold=4, ftl=False)
    ship(state, "ANN-1", "Halberd frigate", "Ann", "B")
    ship(state, "ANN-2", "Packet merchant", "Ann", "B")
    ship(state, "ANN-3", "Claymore cruiser", "Ann", "B")
    ship(state, "ANN-4", "Halberd frigate", "Ann", "B")
    ship(state, "ANN-5", "Packet merchant", "Ann", "B")
    ship(state, "ANN-6", "Barge", "Ann", "B")
    orders = fleet_orders(
        Pair=["ANN-1", "ANN-2"], Mixed=["ANN-3", "ANN-4"], Slow=["ANN-5", "ANN-6"]
    )
    orders.timelines = [
        Timeline("Pair", [Activity("land"), Activity("load", amount=50)]),
        Timeline("Mixed", [Activity("land")]),
        Timeline("Slow", [Activity("jump", "A")]),
    ]
    found = plans(state, {"Ann": orders})

    def said(name: str) -> list[tuple[int, str]]:
        return [(t.activity, t.message) for t in found[name].plan.errors]

    # Both streamlined: the pair lands; a fleet has no hold of its own.
    assert said("Pair") == [(1, "a fleet of 2 has no hold")]
    assert said("Mixed") == [(0, "a fleet of 2 is not streamlined and cannot land")]
    assert said("Slow") == [(0, "a fleet of 2 has no FTL drive")]


def test_a_fleet_refits_as_a_hull_of_its_largest_ship() -> None:
    """Two frigates (mass 20, streamlined) at Ann's starport may be ordered to refit to
    another design of mass 20, streamlined; a scout and a frigate (8 and 20) only to mass 20."""
    state = seed_map(week=2)
    ship(state, "ANN-1", "Halberd frigate", "Ann", "A")
    ship(state, "ANN-2", "Halberd frigate", "Ann", "A")
    ship(state, "ANN-3", "Lantern scout", "Ann", "A")
    ship(state, "ANN-4", "Halberd frigate", "Ann", "A")
    orders = fleet_orders(Twins=["ANN-1", "ANN-2"], Odd=["ANN-3", "ANN-4"])
    orders.timelines = [
        Timeline("Twins", [Activity("refit", "Packet merchant")]),
        Timeline("Odd", [Activity("refit", "Lantern scout")]),
    ]
    found = plans(state, {"Ann": orders})
    assert found["Twins"].plan.errors == []
    assert [t.message for t in found["Odd"].plan.errors] == [
        "a fleet of 2 (mass 20, streamlined) cannot become a Lantern scout (mass 8, "
        "streamlined): a hull is not altered in size or streamlining"
    ]


def test_a_fleet_forms_only_of_ready_ships_standing_together() -> None:
    """Ships in different places, or one landed and one not, are no fleet; a ship named in
    two fleets sails with the first; a ship on the slip is in none and moves not at all."""
    state = seed_map(week=2)
    ship(state, "ANN-1", "Halberd frigate", "Ann", "A")
    ship(state, "ANN-2", "Halberd frigate", "Ann", "B")
    ship(state, "ANN-3", "Halberd frigate", "Ann", "A", landed=True)
    ship(state, "ANN-4", "Halberd frigate", "Ann", "A")
    ship(state, "ANN-5", "Halberd frigate", "Ann", "A")
    ship(state, "ANN-6", "Halberd frigate", "Ann", "A", ready_week=3)
    orders = fleet_orders(
        Apart=["ANN-1", "ANN-2"],
        Down=["ANN-1", "ANN-3"],
        First=["ANN-4", "ANN-5", "ANN-6"],
        Second=["ANN-5", "ANN-1"],
    )
    found = plans(state, {"Ann": orders})
    assert {name: [s.id for s in m.ships] for name, m in found.items()} == {
        "First": ["ANN-4", "ANN-5"],
        "Second": ["ANN-1"],
        "ANN-2": ["ANN-2"],
        "ANN-3": ["ANN-3"],
    }


def test_a_week_keeps_its_own_dice_and_events_and_says_what_waits() -> None:
    """Ann's cruiser jumps from A to Bob's D (5 parsecs): a battle with its defences waits for
    the table; the step's dice (the emergence deviation, 1D6 and 1D12) are kept with the state,
    last week's events are not carried over; Cleo's platform at C's rich belt strikes a rich
    vein (3D6 = 14): 500 + 50 points."""
    state = seed_map(week=2)
    state.events = [Event(1, "economy", "A", "production", "old news", ("Ann",), ("Ann",), {})]
    state.facilities.append(Facility("CLE-OMP", "omp", "Cleo", "C"))
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    orders = {"Ann": week_orders("Ann", 2, ANN_1=["jump D"])}
    done = resolve_turn(state, orders, Dice.scripted([2, 3, 5, 5, 4]), RULES)
    assert done.summary == "Week 2: 1 battle(s) wait for the referee"
    assert [(r.sides, r.result) for r in done.state.dice] == [
        (6, 2),
        (12, 3),
        (6, 5),
        (6, 5),
        (6, 4),
    ]
    assert "old news" not in [e.text for e in done.state.events]
    assert done.state.events == done.events
    assert done.state.stock("C", "Cleo") == 550
