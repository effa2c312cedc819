"""A week resolved from fixed dice: the set-up's purchases, production, cargo and trade in
time order, forces meeting (at the same hour, one leaving as the other arrives, allies, late
arrivals and reserves), hasty jumps, the economy, the battles' results and the campaign's end.
Every figure is counted by hand from the seed."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.full_thrust.orders import (
    FleetOrder,
    Mission,
    Orders,
    Purchase,
    ResearchOrder,
)
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import BattleResult, Facility, State

from .situations import seed_map, ship, week_orders

RULES = complete()


def kinds(state: State) -> list[str]:
    return [e.kind for e in state.events]


def test_the_set_up_buys_the_starting_fleet_and_stocks_the_rest() -> None:
    state = seed_map(week=0)
    for c in state.commanders:
        c.points = 5000
    orders = {
        "Ann": Orders(
            "Ann", 0, purchases=[Purchase("Packet merchant", 2), Purchase("Bastion battleship", 1)]
        ),
        "Bob": Orders("Bob", 0, purchases=[Purchase("Bastion battleship", 11)]),
    }
    after = resolve_turn(state, orders, Dice.scripted([]), RULES).state
    assert after.week == 1
    ann = sorted((s.id, s.design, s.place) for s in after.ships if s.owner == "Ann")
    assert ann == [
        ("ANN-1", "Packet merchant", "A"),
        ("ANN-2", "Packet merchant", "A"),
        ("ANN-3", "Bastion battleship", "A"),
    ]
    assert after.stock("A", "Ann") == 5000 - 2 * 42 - 486
    # Bob can pay for 10 battleships (4860) of the 11: the 11th is cancelled, 140 stocked.
    assert len([s for s in after.ships if s.owner == "Bob"]) == 10
    assert after.stock("D", "Bob") == 140
    cancelled = [e for e in after.events if e.kind == "order_cancelled"]
    assert len(cancelled) == 1 and "only 10 of 11" in cancelled[0].text
    assert after.stock("Far", "Cleo") == 5000 and all(c.points == 0 for c in after.commanders)
    assert state.week == 0 and not state.ships  # the input state is untouched


def test_production_then_the_merchants_week_in_time_order() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A")
    state.facilities.append(Facility("ANN-ST", "station", "Ann", "A"))
    lines = [
        "load 200",  # 0.0-1.0 at the station: A produced 4 x 50 = 200 at the week's start
        "jump B",  # 1.0-1.5
        "land",  # 1.5-2.5
        "sell 200",  # 2.5-3.5: 1D6 = 4, 125%: 250 points of goods aboard
        "lift",  # 3.5
        "jump C",  # 3.5-4.1
        "at 5.1 jump D",  # the drive recharged at 5.1; 5.1-5.4
        "recharge",  # 5.4-6.4
        "jump A",  # 6.4-6.9
        "unload all",  # 6.9-7.9 at the station
    ]
    # D is Bob's planet: the merchant calls there in peace because the two are allies (a
    # rival's planet would be a battle with its ground defences).
    orders = {"Ann": week_orders("Ann", ANN_1=lines), "Bob": week_orders("Bob")}
    orders["Ann"].allies, orders["Bob"].allies = ["Bob"], ["Ann"]
    after = resolve_turn(state, orders, Dice.scripted([4]), RULES).state
    merchant = after.ship("ANN-1")
    assert merchant is not None
    assert (merchant.place, merchant.fuel, merchant.cargo) == ("A", 20 - 5 - 6 - 3 - 5, 0)
    sale = next(e for e in after.events if e.kind == "sale")
    assert (sale.data["roll"], sale.data["percent"], sale.data["points"]) == (4, 125, 250)
    assert after.stock("A", "Ann") == 250
    assert after.stock("D", "Bob") == 50 and after.stock("Far", "Cleo") == 100
    assert (
        not after.battles
        and after.week == 2
        and [r.purpose for r in after.dice] == ["sale price, Ann"]
    )


def test_loading_more_than_lies_there_loads_what_there_is() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", landed=True)
    state.stocks[("A", "Ann")] = 30
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["load 400"])}, Dice.scripted([]), RULES
    ).state
    assert after.ship("ANN-1").cargo == 230  # 30 + this week's 200
    assert "load_short" in kinds(after) and after.stock("A", "Ann") == 0


def test_forces_meet_when_an_enemy_arrives_and_the_week_waits_for_the_table() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B", inches=60, bearing=3)
    orders = {"Ann": week_orders("Ann", ANN_1=['jump B 45" b9', "jump C"])}
    # Ann arrives at B at 0.5: a battle; her cruiser's emergence deviates 1D6 = 2 inches on
    # bearing 1D12 = 7.  Its jump on to C never happens.
    after = resolve_turn(state, orders, Dice.scripted([2, 7]), RULES).state
    assert after.week == 1  # the week waits for the referee
    (battle,) = after.battles
    assert (battle.id, battle.place, battle.hour, battle.sides) == ("B1-1", "B", 5, ["Ann", "Bob"])
    ships = {s.ship: s for s in battle.ships}
    assert (ships["BOB-1"].arrives, ships["BOB-1"].inches, ships["BOB-1"].deviation) == (0, 60, 0)
    ann = ships["ANN-1"]
    assert (ann.inches, ann.bearing, ann.deviation, ann.deviation_bearing) == (45, 9, 2, 7)
    assert after.ship("ANN-1").place == "B" and after.ship("ANN-1").fuel == 15
    opened = next(e for e in after.events if e.kind == "battle_opened")
    assert set(opened.visible_to) == {"Ann", "Bob"}


def test_a_ship_leaving_as_the_enemy_arrives_is_gone_and_simultaneous_arrivals_meet() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["jump B"]),  # arrives 0.5
        "Bob": week_orders("Bob", BOB_1=["at 0.5 jump C"]),  # leaves 0.5
    }
    after = resolve_turn(state, orders, Dice.scripted([]), RULES).state
    assert not after.battles and after.week == 2
    assert (after.ship("ANN-1").place, after.ship("BOB-1").place) == ("B", "C")
    # A (1,1) and D (2,5) are both 3 parsecs from C (3,2): leaving at 0.3, both arrive at
    # 0.6 and meet there.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "D")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["at 0.3 jump C"]),
        "Bob": week_orders("Bob", BOB_1=["at 0.3 jump C"]),
    }
    after = resolve_turn(state, orders, Dice.scripted([1, 1, 1, 1]), RULES).state
    (battle,) = after.battles
    assert (battle.place, battle.hour, sorted(s.ship for s in battle.ships)) == (
        "C",
        6,
        ["ANN-1", "BOB-1"],
    )


def test_allies_do_not_fight_and_a_late_arrival_joins_on_its_turn() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    allied = {
        "Ann": week_orders("Ann", ANN_1=["jump B"]),
        "Bob": week_orders("Bob"),
    }
    allied["Ann"].allies = ["Bob"]
    allied["Bob"].allies = ["Ann"]
    after = resolve_turn(state, allied, Dice.scripted([]), RULES).state
    assert not after.battles
    # One-sided: no alliance.  Cleo's scout from Far (8,6) to B (1,6): 7 parsecs, 0.0-0.7,
    # arrives on turn 2 of the battle that opened at 0.5.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    ship(state, "CLE-1", "Lantern scout", "Cleo", "Far")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["jump B"]),
        "Bob": week_orders("Bob"),
        "Cleo": week_orders("Cleo", CLE_1=['jump B 90" b12']),
    }
    orders["Ann"].allies = ["Bob"]
    after = resolve_turn(state, orders, Dice.scripted([3, 4, 5, 6, 1]), RULES).state
    (battle,) = after.battles
    cleo = next(s for s in battle.ships if s.ship == "CLE-1")
    assert (cleo.arrives, cleo.inches, cleo.deviation, cleo.deviation_bearing) == (2, 90, 5, 6)
    assert battle.sides == ["Ann", "Bob", "Cleo"]
    assert any(e.kind == "battle_joined" for e in after.events)


def test_a_reserve_answers_its_commanders_battle_and_a_failed_hasty_jump_strands_a_ship() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    ship(state, "BOB-2", "Bastion battleship", "Bob", "D")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["jump B"]),
        "Bob": week_orders("Bob", BOB_2=["reserve"]),
    }
    # Battle at B at 0.5; Bob's reserve at D (2,5) is one diagonal parsec from B (1,6): it
    # arrives at 0.6, on turn 1.  Deviations: Ann's 1D6 1 / 1D12 1, the battleship's 2 / 2.
    after = resolve_turn(state, orders, Dice.scripted([1, 1, 2, 2]), RULES).state
    (battle,) = after.battles
    reserve = next(s for s in battle.ships if s.ship == "BOB-2")
    assert (reserve.arrives, reserve.deviation) == (1, 2)
    assert after.ship("BOB-2").fuel == 19 and "reserve_sent" in kinds(after)
    # A hasty jump (the drive recharges at 1.5) rolls 1D6 = 4: the drive is destroyed and
    # the cruiser stays at B.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["jump B", "jump D"])}, Dice.scripted([4]), RULES
    ).state
    cruiser = after.ship("ANN-1")
    assert (cruiser.place, cruiser.drive, cruiser.fuel) == ("B", "destroyed", 15)
    hasty = next(e for e in after.events if e.kind == "hasty_jump")
    assert (hasty.data["roll"], hasty.data["result"]) == (4, "drive destroyed")
    # A merchant's +1 makes a 5 a 6: destroyed.
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A")
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["jump B", "jump D"])}, Dice.scripted([5]), RULES
    ).state
    assert after.ship("ANN-1") is None


def test_a_fleet_jumps_as_one() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A", crack=True)
    ship(state, "ANN-2", "Packet merchant", "Ann", "A")
    orders = week_orders("Ann", Home_Guard=["jump B", "jump D"])
    orders.timelines[0].unit = "Home Guard"
    orders.fleets.append(FleetOrder("Home Guard", ["ANN-1", "ANN-2"]))
    # One roll for both: 1D6 = 5 + merchant 1 (the crack -1 only if every ship is crack) = 6.
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([5]), RULES).state
    assert after.ship("ANN-1") is None and after.ship("ANN-2") is None
    assert len([e for e in after.events if e.kind == "hasty_jump"]) == 1


def test_the_battles_results_damage_capture_crack_and_the_end_of_the_week() -> None:
    state = seed_map()
    state.systems["B"].owner = "Bob"  # a neutral planet changes hands only by invasion
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", cargo=300)
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "A", battles=2)
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    ship(state, "BOB-2", "Halberd frigate", "Bob", "B")
    fleet = week_orders("Ann", Strike=["jump B"])
    fleet.timelines[0].unit = "Strike"
    fleet.fleets.append(FleetOrder("Strike", ["ANN-1", "ANN-2"]))
    waiting = resolve_turn(state, {"Ann": fleet}, Dice.scripted([1, 1, 1, 1]), RULES).state
    (battle,) = waiting.battles
    result = BattleResult(
        battle.id,
        destroyed=["BOB-2"],
        damage={"ANN-1": 2, "BOB-1": 4},
        captured={"BOB-1": "Ann"},
        holder="Ann",
    )
    # Crack rolls for the survivors in the battle's order: ANN-1 (first battle: a roll below
    # 1 never comes) 1; ANN-2 (third battle) 2 < 3: crack; BOB-1 (first) 1.
    after = resolve_turn(waiting, {battle.id: result}, Dice.scripted([1, 2, 1]), RULES).state
    merchant, cruiser, destroyer = (after.ship(i) for i in ("ANN-1", "ANN-2", "BOB-1"))
    assert after.ship("BOB-2") is None
    # A Packet merchant has 6 boxes: 2 lost is a third of its 300 cargo.
    assert (merchant.damage, merchant.cargo, merchant.crack, merchant.battles) == (2, 200, False, 1)
    assert (cruiser.crack, cruiser.battles) == (True, 3)
    assert (destroyer.owner, destroyer.damage) == ("Ann", 4)
    assert after.systems["B"].owner == "Ann"
    assert after.week == 2 and not after.battles
    text = next(e.text for e in after.events if e.kind == "battle_result")
    assert "BOB-2 destroyed" in text and "BOB-1 captured by Ann" in text and "Ann takes B" in text


def test_invading_a_neutral_planet() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Bastion battleship", "Ann", "A")
    ship(state, "ANN-2", "Partisan heavy cruiser", "Ann", "A")
    fleet = week_orders("Ann", Force=["jump B", "invade"])
    fleet.timelines[0].unit = "Force"
    fleet.fleets.append(FleetOrder("Force", ["ANN-1", "ANN-2"]))
    # 486 + 276 = 762 points: +2; ortillery 2 + 1 = 3: nothing.  1D6 = 4: 6, surrender.
    after = resolve_turn(state, {"Ann": fleet}, Dice.scripted([4]), RULES).state
    assert after.systems["B"].owner == "Ann" and after.systems["B"].indigenous == 0
    # 1D6 = 3: 5, war: a battle against B's 300 points of defenders.
    after = resolve_turn(state, {"Ann": fleet}, Dice.scripted([3]), RULES).state
    (battle,) = after.battles
    assert battle.invasion == "Ann" and battle.sides == ["Ann", "natives"]
    # 300 points of book designs: a Partisan heavy cruiser (276); 24 buy nothing more.
    natives = [(s.ship, s.design) for s in battle.ships if s.owner == "natives"]
    assert natives == [("B native 1", "Partisan heavy cruiser")]
    won = BattleResult(battle.id, holder="Ann")
    final = resolve_turn(after, {battle.id: won}, Dice.scripted([1, 1]), RULES).state
    assert final.systems["B"].owner == "Ann" and final.systems["B"].indigenous == 0


def test_mining_construction_research_and_espionage() -> None:
    state = seed_map()
    state.facilities += [
        Facility("ANN-OMP", "omp", "Ann", "C"),
        Facility("ANN-YARD", "shipyard", "Ann", "A"),
    ]
    state.stocks[("A", "Ann")] = 1000
    ship(state, "BOB-1", "Packet merchant", "Bob", "D", cargo=120)
    orders = Orders(
        "Ann",
        1,
        purchases=[Purchase("Halberd frigate", 2, "A"), Purchase("Claymore cruiser", 1, "D")],
        research=ResearchOrder(rolls=1, aim=15),
        missions=[Mission(2, 1, "Bob", "industry", points=100)],
    )
    # Mining at C's rich belt: 3D6 6, 5, 5 = 16: Klondike, 1000.  Research 1D20 = 16: within
    # one of 15, Attack Fighters.  Espionage: (2 x 10 + 15) = 35, +10 for 100 points, doubled
    # for industry: 90%; 1D100 = 90 succeeds.
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([6, 5, 5, 16, 90]), RULES).state
    assert after.stock("C", "Ann") == 1000 and not after.systems["C"].belt_worked_out
    frigates = [s for s in after.ships if s.design == "Halberd frigate"]
    assert [(s.id, s.ready_week) for s in frigates] == [("ANN-1", 2), ("ANN-2", 2)]
    # 1000 + 200 produced - 136 (two frigates) - 100 (research) - 100 (espionage) = 864.
    assert after.stock("A", "Ann") == 864
    cancelled = next(e for e in after.events if e.kind == "order_cancelled")
    assert "D has no shipyard of Ann" in cancelled.text
    assert after.commander("Ann").discoveries == ["Attack Fighters"]
    spied = next(e for e in after.events if e.kind == "espionage")
    # Industry: Bob's stocks, and the points in his merchant's hold (cargo is not seen).
    assert spied.data["chance"] == 90 and spied.data["found"] == [
        "50 production points at D",
        "120 production points aboard BOB-1 at D",
    ]
    assert spied.visible_to == ("Ann",)
    nxt = resolve_turn(after, {}, Dice.scripted([3, 3, 3]), RULES).state
    assert [s.ready_week for s in nxt.ships if s.owner == "Ann"] == [0, 0]
    assert "ship_completed" in kinds(nxt)


def test_counter_espionage_catches_spies_first() -> None:
    state = seed_map()
    orders = {
        "Ann": Orders("Ann", 1, missions=[Mission(2, 0, "Bob", "fleet")]),
        "Bob": Orders("Bob", 1, missions=[Mission(3, 1, "", "counter-espionage")]),
    }
    orders["Bob"].missions[0].target = "Bob"
    # Bob's counter-espionage: 3 x 10 + 15 = 45%; 1D100 = 45 catches Ann's two spies.
    after = resolve_turn(state, orders, Dice.scripted([45]), RULES).state
    assert after.commander("Ann").spies == 3
    assert "spies_caught" in kinds(after)


def test_a_bounded_campaign_ends_with_the_most_valuable_planets() -> None:
    state = seed_map(week=2)
    bounded = complete({"last_week": 2})
    after = resolve_turn(state, {}, Dice.scripted([]), bounded).state
    # Ann holds A (4), Bob D (1), Cleo Far (2).
    assert after.finished.endswith("Ann holds planets of total Value 4")
    assert after.week == 3


def test_arriving_at_a_rivals_planet_is_a_battle_with_its_ground_defences() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    # D is Bob's planet (Value 1, a starport) with none of his ships there: A (1,1) to D (2,5)
    # is 5 parsecs, arrival at 0.5, a battle against the planet's defences.
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["jump D"])}, Dice.scripted([2, 3]), RULES
    ).state
    (battle,) = after.battles
    assert (battle.place, battle.hour, battle.sides) == ("D", 5, ["Ann", "Bob"])
    defences = next(s for s in battle.ships if s.owner == "Bob")
    assert (defences.ship, defences.design) == ("D ground defences", "planet of Value 1, starport")
    taken = resolve_turn(
        after, {battle.id: BattleResult(battle.id, holder="Ann")}, Dice.scripted([1]), RULES
    ).state
    assert taken.systems["D"].owner == "Ann"
    # Allies visit each other's planets in peace.
    orders = {"Ann": week_orders("Ann", ANN_1=["jump D"]), "Bob": week_orders("Bob")}
    orders["Ann"].allies, orders["Bob"].allies = ["Bob"], ["Ann"]
    assert not resolve_turn(state, orders, Dice.scripted([]), RULES).state.battles


def test_a_library_and_a_rivals_home_planet_give_half_cost_development() -> None:
    """L289: an ancient library's find is developed at half cost; L275: taking a rival's home
    planet lets the captor develop his technologies it lacks at half cost.  Half cost: each
    point spent counts twice toward the development chance."""
    state = seed_map()
    state.systems["Walled"].ancient_site = True
    ship(state, "ANN-1", "Halberd frigate", "Ann", "Walled")
    # 2D6 6+6, 1D6 6: a library; its free research roll 1D20 9: Cloaking Field (factor 1.0).
    orders = week_orders("Ann", ANN_1=["explore"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([6, 6, 6, 9]), RULES).state
    ann = after.commander("Ann")
    assert ann.discoveries == ["Cloaking Field"] and ann.half_cost == ["Cloaking Field"]
    site = next(e for e in after.events if e.kind == "ancient_site")
    assert "to be developed at half cost" in site.text
    # 100 points at half cost: 200 / 1.0 = 20%; 1D100 20 succeeds (at full cost 10% would not).
    develop = Orders("Ann", 2, research=ResearchOrder(develop="Cloaking Field", points=100))
    done = resolve_turn(after, {"Ann": develop}, Dice.scripted([20]), RULES).state
    event = next(e for e in done.events if e.kind == "development")
    assert (event.data["chance"], event.data["done"]) == (20, True)
    assert "at half cost" in event.text
    ann = done.commander("Ann")
    assert ann.developed == ["Cloaking Field"] and ann.half_cost == []

    # Bob's home planet D taken: Armour (which Ann lacks) becomes hers to develop at half
    # cost; Rail Guns she has already.
    state = seed_map()
    state.commander("Bob").developed = ["Armour", "Rail Guns"]
    state.commander("Ann").developed = ["Rail Guns"]
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["jump D"])}, Dice.scripted([2, 3]), RULES
    ).state
    (battle,) = after.battles
    taken = resolve_turn(
        after, {battle.id: BattleResult(battle.id, holder="Ann")}, Dice.scripted([1]), RULES
    ).state
    ann = taken.commander("Ann")
    assert ann.discoveries == ["Armour"] and ann.half_cost == ["Armour"]
    # Bob is told his planet is taken, not which of his technologies Ann lacked.
    result = next(e for e in taken.events if e.kind == "battle_result")
    assert "Ann takes D" in result.text and "half cost" not in result.text
    gained = next(e for e in taken.events if e.kind == "battle_aftermath")
    assert gained.players == ("Ann",)
    assert "Ann may develop Armour at half cost (Bob's home planet taken)" in gained.text
