"""Issue 50's economy: natives' fleets ship by ship (unclaimed homes too), the items the seed
prices (fortifications, ground weapons, silos, fighter squadrons, reloads, the Repair
Facility), a trade between two commanders rolling on both sides, a secret won by espionage,
and aimed research made public.  Every figure is counted by hand from the seed."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from refassist.dice import Dice
from refassist.errors import MasterWorkbookError
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.full_thrust import economy
from refassist.rulesets.full_thrust.economy import native_fleet
from refassist.rulesets.full_thrust.mapfile import parse_map
from refassist.rulesets.full_thrust.orders import FleetOrder, Orders, Purchase
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.setup import new_game
from refassist.rulesets.full_thrust.sheet import write_sheet
from refassist.rulesets.full_thrust.state import BattleResult, Facility, State
from refassist.rulesets.full_thrust.validate import validate_orders

from .situations import DESIGNS, seed_map, ship, week_orders

RULES = complete()


# -- 1. natives --------------------------------------------------------------------------------


def test_a_native_fleet_is_the_dearest_book_designs_the_points_pay_for() -> None:
    names = lambda points: [d.name for d in native_fleet(DESIGNS, points)]  # noqa: E731
    # 600 (a Value 6 world): Bastion 486, 114 left: Falchion 104; 10 buy nothing.
    assert names(600) == ["Bastion battleship", "Falchion destroyer"]
    # 200: Claymore 172, 28 left: Lantern 26.  Merchants, tugs, tenders are never natives.
    assert names(200) == ["Claymore cruiser", "Lantern scout"]
    # 1000: two Bastions (972); 28: a Lantern.  25 points buy nothing at all.
    assert names(1000) == ["Bastion battleship", "Bastion battleship", "Lantern scout"]
    assert names(25) == [] and names(0) == []
    # A carrier is a book design too: 448 buys the Aerie carrier.
    assert names(448) == ["Aerie carrier"]


def test_unclaimed_homes_keep_their_natives_and_the_map_file_sets_them() -> None:
    text = {
        "title": "T",
        "columns": 5,
        "rows": 5,
        "system": [
            {"name": "Ahome", "square": "0101", "value": 6, "home": True},
            {"name": "Bhome", "square": "0303", "value": 6, "home": True},
            {"name": "Chome", "square": "0505", "value": 6, "home": True, "indigenous": 250},
            {"name": "Plain", "square": "0501", "value": 2, "indigenous": 0},
        ],
    }
    found = parse_map(text, "t")
    assert [found.systems[n].indigenous for n in ("Ahome", "Bhome", "Chome", "Plain")] == [
        600,
        600,
        250,
        0,
    ]
    # The kell map: two commanders claim Kell and Tiberis; the six other homes keep 100 x Value.
    players = (
        PlayerSetup("Ann", "ann@example.com", "Kell"),
        PlayerSetup("Bob", "bob@example.com", "Tiberis"),
    )
    state = new_game(NewGame("M", "g", players, {}), Dice.scripted([]), RULES)
    homes = [s for s in state.systems.values() if s.home]
    assert {s.name: s.indigenous for s in homes if s.owner} == {"Kell": 0, "Tiberis": 0}
    assert all(s.indigenous == 100 * s.value > 0 for s in homes if not s.owner)


def test_an_invasion_lists_the_natives_ship_by_ship_and_survivors_keep_guard(
    tmp_path: Path,
) -> None:
    state = seed_map()
    state.systems["B"].indigenous = 600
    ship(state, "ANN-1", "Bastion battleship", "Ann", "A")
    ship(state, "ANN-2", "Partisan heavy cruiser", "Ann", "A")
    fleet = week_orders("Ann", Force=["jump B", "invade"])
    fleet.timelines[0].unit = "Force"
    fleet.fleets.append(FleetOrder("Force", ["ANN-1", "ANN-2"]))
    # 762 points: +2; 1D6 = 3: 5, war.
    after = resolve_turn(state, {"Ann": fleet}, Dice.scripted([3]), RULES).state
    (battle,) = after.battles
    natives = [(s.ship, s.design) for s in battle.ships if s.owner == "natives"]
    assert natives == [("B native 1", "Bastion battleship"), ("B native 2", "Falchion destroyer")]
    path = tmp_path / "battle.xlsx"
    write_sheet(after, battle.id, path, token="t", deadline="")
    ws = openpyxl.load_workbook(path)["Battle"]
    rows = {ws[f"A{r}"].value: ws[f"C{r}"].value for r in range(13, 17)}
    assert rows["B native 1"] == "Bastion battleship" and rows["B native 2"] == "Falchion destroyer"
    # 40 + 9 = 49 boxes of natives; they break at half.
    assert "natives' 2 ships (book designs, 600 points)" in str(ws["E3"].value)
    assert "49 damage boxes" in str(ws["E3"].value)
    # Ann is beaten off and the destroyer is lost: the Bastion stays to guard B (600 - 104).
    lost = BattleResult(battle.id, destroyed=["B native 2"])
    final = resolve_turn(after, {battle.id: lost}, Dice.scripted([6, 6]), RULES).state
    assert final.systems["B"].owner == "" and final.systems["B"].indigenous == 496
    assert [d.name for d in native_fleet(final.designs, 496)] == ["Bastion battleship"]
    told = next(e for e in final.events if e.kind == "battle_result")
    assert "B native 2 (Falchion destroyer) destroyed" in told.text


# -- 8. aimed research is public ---------------------------------------------------------------


def test_aimed_research_is_told_to_every_commander_before_the_roll() -> None:
    from refassist.rulesets.full_thrust.orders import Orders, ResearchOrder
    from refassist.rulesets.full_thrust.visibility import player_view

    state = seed_map()
    state.stocks[("A", "Ann")] = 300
    orders = {
        "Ann": Orders("Ann", 1, research=ResearchOrder(rolls=2, aim=15)),
        "Bob": Orders("Bob", 1, research=ResearchOrder(rolls=1)),
    }
    state.stocks[("D", "Bob")] = 100
    # Ann: 1D20 3 and 14 (14 is within one of 15: Attack Fighters); Bob, unaimed: 1D20 20.
    after = resolve_turn(state, orders, Dice.scripted([3, 14, 20]), RULES).state
    kinds = [e.kind for e in after.events if e.phase == "research"]
    assert kinds == ["research_aim", "research", "research", "research"]
    aim = next(e for e in after.events if e.kind == "research_aim")
    assert aim.text == "Ann aims research at Attack Fighters (field 15 of the Research Table)"
    for reader in ("Ann", "Bob", "Cleo"):
        assert aim in player_view(after, reader).events
    # The rolls themselves stay Ann's; Bob's unaimed research declares nothing.
    bob = player_view(after, "Bob").events
    assert [e.text for e in bob if e.kind == "research"] == [
        "Bob's research: 1D20 20, nothing found"
    ]
    assert after.commander("Ann").discoveries == ["Attack Fighters"]


# -- 7. a secret gained by industrial espionage -------------------------------------------------


def test_spies_on_a_rivals_research_steal_a_field_to_develop() -> None:
    from refassist.rulesets.full_thrust.orders import Mission, Orders, ResearchOrder

    state = seed_map()
    state.commander("Bob").developed = ["Armour", "Rail Guns"]
    state.commander("Bob").discoveries = ["Wave Guns"]
    state.commander("Ann").developed = ["Rail Guns"]
    spy = Orders("Ann", 1, missions=[Mission(2, 1, "Bob", "research")])
    # 35%: 1D100 35 succeeds; Ann lacks Wave Guns (7) and Armour (18), in the table's order;
    # the die (1D2) 2 picks Armour.
    after = resolve_turn(state, {"Ann": spy}, Dice.scripted([35, 2]), RULES).state
    ann = after.commander("Ann")
    assert ann.discoveries == ["Armour"]
    told = next(e for e in after.events if e.kind == "espionage")
    assert told.data["secret"] == "Armour" and told.visible_to == ("Ann",)
    assert "the secret of Armour is stolen" in told.text
    assert after.dice[-1].purpose == "secret stolen by Ann from Bob"
    # Next week she develops it like any discovery: 100 points, 100 / 0.5 = 20%; 1D100 20.
    after.stocks[("A", "Ann")] = 100
    develop = Orders("Ann", 2, research=ResearchOrder(develop="Armour", points=100))
    done = resolve_turn(after, {"Ann": develop}, Dice.scripted([20]), RULES).state
    assert done.commander("Ann").developed == ["Rail Guns", "Armour"]
    # A failed mission (1D100 36) steals nothing; nothing left to steal rolls no die.
    missed = resolve_turn(state, {"Ann": spy}, Dice.scripted([36]), RULES).state
    assert missed.commander("Ann").discoveries == []
    state.commander("Ann").discoveries = ["Wave Guns", "Armour"]
    same = resolve_turn(state, {"Ann": spy}, Dice.scripted([1]), RULES).state
    assert same.commander("Ann").discoveries == ["Wave Guns", "Armour"]
    assert next(e for e in same.events if e.kind == "espionage").data["secret"] == ""
    # A fleet mission steals no secret.
    fleet = Orders("Ann", 1, missions=[Mission(2, 1, "Bob", "fleet")])
    watched = resolve_turn(seed_map(), {"Ann": fleet}, Dice.scripted([1]), RULES).state
    assert watched.commander("Ann").discoveries == []


# -- 6. a trade between two commanders ---------------------------------------------------------


def test_a_sale_at_another_commanders_planet_rolls_for_both_and_a_gift_rolls_none() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "D", cargo=300, landed=True, inches=0)
    orders = {
        "Ann": week_orders("Ann", ANN_1=["sell 200"]),
        "Bob": week_orders("Bob"),
    }
    orders["Ann"].allies, orders["Bob"].allies = ["Bob"], ["Ann"]
    # Ann rolls 1D6 5 (150%: 300 points of goods come aboard); Bob rolls separately 1D6 1
    # (50%: the 200 points of goods he takes in are worth 100 to him, stored at D).
    after = resolve_turn(state, orders, Dice.scripted([5, 1]), RULES).state
    assert after.ship("ANN-1").cargo == 300 - 200 + 300
    # D (Value 1) produced 50 for Bob this week; his side of the trade adds 100.
    assert after.stock("D", "Bob") == 50 + 100
    sale = next(e for e in after.events if e.kind == "sale")
    trade = next(e for e in after.events if e.kind == "trade")
    assert (sale.data["roll"], sale.visible_to) == (5, ("Ann",))
    assert (trade.data["roll"], trade.data["points"], trade.visible_to) == (1, 100, ("Bob",))
    assert "Bob takes in 200 production points of Ann's goods at D" in trade.text
    assert [r.purpose for r in after.dice] == ["sale price, Ann", "sale price, Bob"]
    # At a neutral planet only the seller rolls (B: Value 3, nobody's).
    state.ships[0].place = "B"
    sell = {"Ann": week_orders("Ann", ANN_1=["sell 200"])}
    alone = resolve_turn(state, sell, Dice.scripted([3]), RULES)
    assert [r.purpose for r in alone.state.dice] == ["sale price, Ann"]
    assert "trade" not in [e.kind for e in alone.state.events]
    # A gift (unload N to NAME) rolls nothing at all.
    state.ships[0].place = "D"
    gift = {"Ann": week_orders("Ann", ANN_1=["unload 200 to Bob"]), "Bob": week_orders("Bob")}
    gift["Ann"].allies, gift["Bob"].allies = ["Bob"], ["Ann"]
    given = resolve_turn(state, gift, Dice.scripted([]), RULES).state
    assert given.stock("D", "Bob") == 50 + 200 and given.dice == []


# -- 2. items the seed prices --------------------------------------------------------------------


def _buy(commander: str, *lines: tuple[str, int, str]) -> Orders:
    return Orders(
        commander,
        1,
        purchases=[
            Purchase(item, count, where, cell=f"Orders!B{21 + n}")
            for n, (item, count, where) in enumerate(lines)
        ],
    )


def _problems(state: State, orders: Orders) -> list[tuple[str, str, str]]:
    return [(p.cell, p.severity, p.message) for p in validate_orders(state, "Ann", orders, RULES)]


def test_a_planets_ground_defences_are_bought_within_the_seeds_limits() -> None:
    state = seed_map()
    state.stocks[("A", "Ann")] = 1000
    state.systems["Walled"].owner = "Ann"  # Value 2, no port
    state.stocks[("Walled", "Ann")] = 100
    orders = _buy(
        "Ann",
        ("standard squadron", 2, "A"),  # 2 x 18, any case
        ("silo", 3, ""),  # blank: home; 3 x silo_cost 10
        ("ground weapons", 4, "A"),  # a port: 4 x weapon_space_cost 3
        ("fortification", 3, "Walled"),  # 3 x 5
        ("ground weapons", 3, "Walled"),  # housed by the fortifications just bought: 9
    )
    assert _problems(state, orders) == []
    # A (Value 4) produces 200: 1000 + 200 - 36 - 30 - 12 = 1122; Walled (Value 2) 100:
    # 100 + 100 - 15 - 9 = 176.
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert after.systems["A"].defences == {
        "Standard squadron": 2,
        "silo": 3,
        "ground weapons": 4,
    }
    assert after.systems["Walled"].defences == {"fortification": 3, "ground weapons": 3}
    assert after.stock("A", "Ann") == 1122 and after.stock("Walled", "Ann") == 176
    bought = [e.text for e in after.events if e.kind == "item_bought"]
    assert bought[0] == "Ann buys 2 x Standard squadron for A (36 points)"
    # The seed's limits, each pinned to its line, and the week refuses the same.
    too_many = _buy(
        "Ann",
        ("Standard squadron", 3, "A"),  # 2 + 3 > Value 4
        ("silo", 2, "A"),  # 3 + 2 > 4
        ("silo", 1, "Walled"),  # no port: no fire control
        ("Standard squadron", 1, "Walled"),  # no port to support fighters
        ("ground weapons", 1, "Walled"),  # 3 fortification spaces hold 3 weapons already
        ("Heavy squadron", 1, "A"),  # Heavy Fighters not developed
        ("fortification", 1, "B"),  # not Ann's planet
        ("mine", 1, "A"),  # reloads go to a ship
    )
    got = _problems(after, too_many)
    assert [c for c, severity, _ in got if severity == "error"] == [f"B{n}" for n in range(21, 29)]
    texts = [m for _, _, m in got]
    assert texts[0] == "A (Value 4) may have at most 4 fighter squadrons; it has 2"
    assert texts[1] == "A (Value 4) may have at most 4 missile silos; it has 3"
    assert "no starport or spaceport to support fire control for its missiles" in texts[2]
    assert "no starport or spaceport to support its fighter squadrons" in texts[3]
    assert "weapons need fortification spaces to house them, and 0 are free" in texts[4]
    assert texts[5] == "Heavy squadron needs Heavy Fighters developed"
    assert texts[6] == "B is not a planet of Ann's"
    assert texts[7] == "a mine is for a ship: write the ship's id under Where"
    again = resolve_turn(after, {"Ann": too_many}, Dice.scripted([]), RULES).state
    assert again.systems["A"].defences == after.systems["A"].defences
    cancelled = [e.data["cell"] for e in again.events if e.kind == "order_cancelled"]
    assert cancelled == [f"Orders!B{n}" for n in range(21, 29)]


def test_carrier_squadrons_reloads_and_the_fleet_train() -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    state.stocks[("A", "Ann")] = 1000
    ship(state, "ANN-1", "Aerie carrier", "Ann", "A")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "A")
    ship(state, "ANN-3", "Drayman bulk merchant", "Ann", "A", cargo=1390)
    state.commander("Ann").developed = ["Heavy Fighters"]
    orders = _buy(
        "Ann",
        ("Heavy squadron", 2, "ANN-1"),  # 2 x 30, at Ann's yard
        ("mine", 4, "ANN-3"),  # the fleet train: 4 x 3; 4 x 13 cargo spaces
        ("Heavy fighter", 2, "ANN-3"),  # 2 x 5; 2 x 25 cargo spaces
    )
    assert _problems(state, orders) == []
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert after.ship("ANN-1").stores == {"Heavy squadron": 2}
    assert after.ship("ANN-3").stores == {"mine": 4, "Heavy fighter": 2}
    assert after.stock("A", "Ann") == 1000 + 200 - 60 - 12 - 10
    # Its hold of 1500 less 52 + 50 for the stores: 1398 take production points; 1390 aboard.
    refused = _problems(after, _buy("Ann", ("mine", 1, "ANN-3")))
    assert refused[0][2] == "ANN-3's hold has room for 8 cargo spaces and they take 13"
    refused = _problems(
        after,
        _buy(
            "Ann",
            ("Standard squadron", 5, "ANN-1"),  # Aerie MASS 120: 6 bought at most, 2 held
            ("Standard squadron", 1, "ANN-2"),  # not a carrier
            ("nuclear missile", 1, "ANN-2"),  # no station of Ann's at A
            ("EMP missile", 1, "ANN-3"),  # EMP Missile not developed
        ),
    )
    assert [m for _, _, m in refused] == [
        "ANN-1 takes at most 6 squadrons bought for it; it has 2",
        "new fighter squadrons are for carriers (or a planet of yours with a port)",
        "ANN-2 is reloaded only at a space station of Ann's (a merchant of the fleet train "
        "carries reloads anywhere)",
        "EMP missile needs EMP Missile developed",
    ]
    # At a space station of Ann's a warship takes reloads aboard; no hangar, no fighters.
    after.facilities.append(Facility("ANN-STATION1", "station", "Ann", "A"))
    station = _buy("Ann", ("nuclear missile", 6, "ANN-2"), ("Standard fighter", 1, "ANN-2"))
    assert [m for _, _, m in _problems(after, station)] == [
        "a Claymore cruiser has no hangar for fighters"
    ]
    # A load of the fleet train's hold takes what its stores leave: unload all, load all.
    after.ship("ANN-3").cargo = 0
    week = week_orders("Ann", 2, ANN_3=["load all"])
    after.stocks[("A", "Ann")] = 5000
    loaded = resolve_turn(after, {"Ann": week}, Dice.scripted([]), RULES).state
    assert loaded.ship("ANN-3").cargo == 1500 - 52 - 50


def test_a_repair_facility_is_fitted_at_a_yard_and_repairs_where_its_ship_is() -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    state.stocks[("A", "Ann")] = 1000
    ship(state, "ANN-1", "Drayman bulk merchant", "Ann", "A", cargo=900)
    ship(state, "ANN-2", "Packet merchant", "Ann", "A")
    ship(state, "ANN-3", "Lantern scout", "Ann", "A")
    ship(state, "ANN-4", "Claymore cruiser", "Ann", "C", damage=4)
    ship(state, "ANN-5", "Halberd frigate", "Ann", "C")
    state.stocks[("C", "Ann")] = 100
    refused = _problems(
        state,
        _buy(
            "Ann",
            ("Repair Facility", 1, "ANN-1"),  # 900 aboard of 1500: 600 free, 500 needed
            ("Repair Facility", 1, "ANN-2"),  # a Packet's hold is 400
            ("Repair Facility", 1, "ANN-3"),  # MASS 8
            ("Repair Facility", 1, "ANN-5"),  # at C: no yard of Ann's
        ),
    )
    assert [m for _, _, m in refused] == [
        "ANN-2's hold has room for 400 cargo spaces and a Repair Facility takes 500 (MASS 10)",
        "a Lantern scout (MASS 8) is too small for a Repair Facility",
        "C has no yard of Ann's able to build a Halberd frigate to fit it",
    ]
    after = resolve_turn(
        state, {"Ann": _buy("Ann", ("Repair Facility", 1, "ANN-1"))}, Dice.scripted([]), RULES
    ).state
    assert after.ship("ANN-1").stores == {"Repair Facility": 1}
    assert after.stock("A", "Ann") == 1000 + 200 - 50
    assert economy.hold_room(DESIGNS["Drayman bulk merchant"], after.ship("ANN-1")) == 1000
    again = _problems(after, _buy("Ann", ("Repair Facility", 1, "ANN-1")))
    assert again[0][2] == "ANN-1 takes one Repair Facility, a permanent fitting"
    # At C, with no yard or station of Ann's, the cruiser cannot repair ...
    mend = week_orders("Ann", 2, ANN_4=["repair"])
    assert (
        "there is no shipyard, space station or ship with a Repair Facility"
        in (_problems(after, mend)[0][2])
    )
    # ... until the repair ship is there: 4 boxes of 15, 50% of 172: 23 points (rounded up).
    after.ship("ANN-1").place = "C"
    after.ship("ANN-1").cargo = 0
    assert _problems(after, mend) == []
    mended = resolve_turn(after, {"Ann": mend}, Dice.scripted([]), RULES).state
    assert mended.ship("ANN-4").damage == 0
    assert mended.stock("C", "Ann") == 100 - 23


def test_the_battle_sheet_lists_what_was_bought_and_the_master_keeps_it(tmp_path: Path) -> None:
    from refassist.rulesets.full_thrust import FullThrustCampaign
    from refassist.workbook.master import read_master, write_master

    state = seed_map()
    state.systems["D"].defences = {"fortification": 2, "ground weapons": 2, "silo": 1}
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "D")
    carrier = ship(state, "ANN-1", "Aerie carrier", "Ann", "A")
    carrier.stores = {"Standard squadron": 2, "Repair Facility": 1}
    # Bob has a destroyer at D: the planet's bought defences fight beside it, listed.
    after = resolve_turn(
        state, {"Ann": week_orders("Ann", ANN_1=["jump D"])}, Dice.scripted([2, 3]), RULES
    ).state
    (battle,) = after.battles
    rows = {s.ship: s for s in battle.ships}
    assert rows["D ground defences"].fittings == "2 x fortification, 2 x ground weapons, 1 x silo"
    assert rows["ANN-1"].fittings == "1 x Repair Facility, 2 x Standard squadron"
    assert rows["BOB-1"].fittings == ""
    path = tmp_path / "battle.xlsx"
    write_sheet(after, battle.id, path, token="t", deadline="")
    ws = openpyxl.load_workbook(path)["Battle"]
    designs = {ws[f"A{r}"].value: ws[f"C{r}"].value for r in range(13, 16)}
    assert designs == {
        "D ground defences": "planet of Value 1, starport (2 x fortification, 2 x ground "
        "weapons, 1 x silo)",
        "ANN-1": "Aerie carrier (1 x Repair Facility, 2 x Standard squadron)",
        "BOB-1": "Falchion destroyer",
    }
    # The master workbook keeps a planet's defences, a ship's stores, a battle row's fittings.
    ruleset = FullThrustCampaign()
    master = tmp_path / "master.xlsx"
    write_master(master, ruleset, after)
    again = read_master(master, ruleset)
    assert again.systems["D"].defences == state.systems["D"].defences
    assert again.ship("ANN-1").stores == carrier.stores
    assert again.battles[0].ships == battle.ships
    assert ruleset.to_json(again) == ruleset.to_json(after)
    # A master from before the three columns reads as nothing bought.
    wb = openpyxl.load_workbook(master)
    for title, header in (
        ("Systems", "Defences"),
        ("Ships", "Stores"),
        ("Battle ships", "Fittings"),
    ):
        sheet = wb[title]
        sheet.delete_cols([c.value for c in sheet[1]].index(header) + 1)
    wb.save(master)
    old = read_master(master, ruleset)
    assert old.systems["D"].defences == {} and old.ship("ANN-1").stores == {}
    # A hand edit that is not COUNT x ITEM is pinned to its cell.
    write_master(master, ruleset, after)
    wb = openpyxl.load_workbook(master)
    sheet = wb["Ships"]
    col = [c.value for c in sheet[1]].index("Stores") + 1
    row = next(r for r in range(2, sheet.max_row + 1) if sheet.cell(r, 1).value == "ANN-1")
    sheet.cell(row, col).value = "2 x warp cores"
    wb.save(master)
    with pytest.raises(MasterWorkbookError) as caught:
        read_master(master, ruleset)
    assert "'2 x warp cores' is not COUNT x ITEM" in str(caught.value)


def test_the_order_sheet_offers_the_items_and_reads_them_back(tmp_path: Path) -> None:
    from refassist.rulesets.full_thrust.sheet import fill_sheet, orders_text, read_sheet

    state = seed_map()
    state.systems["A"].defences = {"silo": 2}
    ship(state, "ANN-1", "Aerie carrier", "Ann", "A", stores={"Standard squadron": 1})
    path = tmp_path / "orders.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="")
    forces = [str(c.value) for c in openpyxl.load_workbook(path)["Your forces"]["A"] if c.value]
    assert any("ANN-1 Aerie carrier" in line and "1 x Standard squadron" in line for line in forces)
    assert any(line.startswith("A (4) starport - 2 x silo") for line in forces)
    assert any(
        "fortification 5, ground weapons 3, silo 10, Repair Facility 50" in line for line in forces
    )
    orders = _buy("Ann", ("Standard squadron", 1, "ANN-1"), ("silo", 2, "A"))
    fill_sheet(path, orders)
    read = read_sheet(path)
    assert read.problems == []
    assert [(p.design, p.count, p.place) for p in read.orders.purchases] == [
        ("Standard squadron", 1, "ANN-1"),
        ("silo", 2, "A"),
    ]
    assert orders_text(read.orders)[:2] == [
        "Buy 1 x Standard squadron at ANN-1",
        "Buy 2 x silo at A",
    ]


def test_a_planet_without_native_ships_cannot_make_war() -> None:
    state = seed_map()
    state.systems["B"].indigenous = 25  # buys no ship: the cheapest, a Lantern scout, is 26
    ship(state, "ANN-1", "Halberd frigate", "Ann", "A")
    # 68 points: -1; 1D6 = 3: 2, war, but there is nobody to fight it: B surrenders.
    orders = week_orders("Ann", ANN_1=["jump B", "invade"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([3]), RULES).state
    assert after.systems["B"].owner == "Ann" and not after.battles
    told = next(e for e in after.events if e.kind == "invasion")
    assert told.text.endswith("war; the natives have no ships to fight with and surrender")
    assert told.data["result"] == "surrender"


def test_the_commanders_report_lists_its_defences_and_stores_and_no_rivals(
    tmp_path: Path,
) -> None:
    from refassist.report.build import RenderSettings, common_context, render_report
    from refassist.rulesets import find_ruleset
    from refassist.rulesets.base import ReportInput
    from refassist.typeset.render import template_dirs
    from tests.test_fog_of_war import pdf_pages

    state = seed_map()
    state.systems["A"].defences = {"silo": 2, "Standard squadron": 1}
    ship(state, "ANN-1", "Aerie carrier", "Ann", "A", stores={"Repair Facility": 1})
    ship(state, "BOB-1", "Claymore cruiser", "Bob", "A", stores={"mine": 7})
    info = ReportInput(step="1", deadline="Friday")
    settings = RenderSettings(tuple(template_dirs(None)), None, None, True)
    ruleset = find_ruleset("full-thrust-campaign")

    def text(reader: str) -> str:
        pdf, _ = render_report(
            ruleset.report_content(state, reader, info), common_context(info), settings
        )
        path = tmp_path / f"{reader}.pdf"
        path.write_bytes(pdf)
        return " ".join(" ".join(pdf_pages(path)).split())

    ann, bob = text("Ann"), text("Bob")
    assert "Value 4, starport; 2 x silo, 1 x Standard squadron" in ann
    assert "1 x Repair Facility" in ann and "7 x mine" not in ann
    assert "7 x mine" in bob and "2 x silo" not in bob and "Repair Facility" not in bob


# -- the items' rules, edge by edge (mutation testing of economy.py) ----------------------------


def test_the_catalogue_and_the_holdings_cells_edge_by_edge() -> None:
    from dataclasses import replace

    # A design costing 0 is never a native (it would buy itself for ever); one costing 1 is.
    designs = {
        "Free": replace(DESIGNS["Lantern scout"], name="Free", cost=0),
        "Pebble": replace(DESIGNS["Lantern scout"], name="Pebble", cost=1),
    }
    assert [d.name for d in native_fleet(designs, 3)] == ["Pebble"] * 3
    assert economy.item_named("warp core") == "" and economy.item_named(" heavy  SQUADRON ") == (
        "Heavy squadron"
    )
    assert economy.fields_needed("Long-range Torpedo squadron") == [
        "Long Range Fighters",
        "Torpedo Fighters",
    ]
    assert economy.fields_needed("Fast Interceptor fighter") == ["Fast Fighters", "Interceptors"]
    assert economy.fields_needed("mine") == [] and economy.fields_needed("needle missile") == [
        "Needle Missile"
    ]
    # A fighter 25, two mines 2 x 13, a Repair Facility 500, in any order.
    assert economy.stores_space({"Heavy fighter": 1, "mine": 2, "Repair Facility": 1}) == 551
    assert economy.stores_space({"mine": 2, "Repair Facility": 1, "Heavy fighter": 1}) == 551
    tender = ship(seed_map(), "X-1", "Wellspring tender", "Ann", "A", stores={"mine": 4})
    assert economy.hold_room(DESIGNS["Wellspring tender"], tender) == 1000  # not a merchant
    packet = ship(seed_map(), "X-2", "Packet merchant", "Ann", "A", stores={"Repair Facility": 1})
    assert economy.hold_room(DESIGNS["Packet merchant"], packet) == 0
    assert economy.parse_holdings(
        "silo, , 1 x silo, 2 x Standard squadron", economy.PLANET_ITEMS
    ) == {
        "silo": 2,
        "Standard squadron": 2,
    }
    with pytest.raises(ValueError, match="'3 x mine' is not COUNT x ITEM"):
        economy.parse_holdings("3 x mine", economy.PLANET_ITEMS)


def test_each_limit_of_the_items_at_its_edge() -> None:
    from dataclasses import replace

    state = seed_map()
    ann = state.commander("Ann")
    refuse = lambda item, count, where: economy.item_refusal(  # noqa: E731
        state, "Ann", item, count, where, RULES
    )
    # No fortification at all: no weapons without a port.
    state.systems["Walled"].owner = "Ann"
    assert refuse("ground weapons", 1, "Walled").endswith("and 0 are free")
    # Exactly the Value is allowed, one more is not (A: Value 4).
    assert refuse("silo", 4, "A") == "" and refuse("silo", 5, "A").startswith("A (Value 4)")
    state.systems["A"].defences = {"silo": 1}
    assert refuse("silo", 3, "A") == "" and refuse("silo", 4, "A") != ""
    # A carrier: squadrons at Ann's yard at C (no port there), at most 6, and not at B.
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "C"))
    ship(state, "ANN-1", "Aerie carrier", "Ann", "C")
    assert refuse("Standard squadron", 6, "ANN-1") == ""
    assert refuse("Standard squadron", 7, "ANN-1") != ""
    ship(state, "ANN-2", "Aerie carrier", "Ann", "B")
    assert refuse("Standard squadron", 1, "ANN-2") == (
        "B has no shipyard, space station or port of Ann's to supply it"
    )
    # A warship far from a station: reloaded only at one.
    ship(state, "ANN-3", "Claymore cruiser", "Ann", "B")
    assert refuse("mine", 1, "ANN-3").startswith("ANN-3 is reloaded only at a space station")
    # The fleet train at Ann's starport (A), at her station (Gate), not at Bob's port (D).
    ship(state, "ANN-4", "Drayman bulk merchant", "Ann", "A", cargo=1000)
    ship(state, "ANN-5", "Drayman bulk merchant", "Ann", "Gate")
    ship(state, "ANN-6", "Drayman bulk merchant", "Ann", "D")
    state.facilities.append(Facility("ANN-STATION1", "station", "Ann", "Gate"))
    assert refuse("mine", 1, "ANN-5") == "" and refuse("mine", 1, "ANN-6") != ""
    # Its hold: 500 free take exactly 20 fighters (25 each) or a Repair Facility (500).
    assert refuse("Standard fighter", 20, "ANN-4") == ""
    assert refuse("Standard fighter", 21, "ANN-4") != ""
    # A Repair Facility: at a starport for a streamlined ship, one at a time, over MASS 10.
    assert refuse("Repair Facility", 1, "ANN-4") == ""
    assert refuse("Repair Facility", 2, "ANN-4") == (
        "ANN-4 takes one Repair Facility, a permanent fitting"
    )
    state.designs["Skiff"] = replace(DESIGNS["Halberd frigate"], name="Skiff", mass=10)
    state.designs["Cutter"] = replace(DESIGNS["Halberd frigate"], name="Cutter", mass=11)
    ship(state, "ANN-7", "Skiff", "Ann", "C")
    ship(state, "ANN-8", "Cutter", "Ann", "C")
    assert refuse("Repair Facility", 1, "ANN-7").endswith("is too small for a Repair Facility")
    assert refuse("Repair Facility", 1, "ANN-8") == ""
    # At a station a warship takes missiles, a carrier fighters too.
    ship(state, "ANN-9", "Claymore cruiser", "Ann", "Gate")
    ship(state, "ANN-10", "Aerie carrier", "Ann", "Gate")
    assert refuse("nuclear missile", 6, "ANN-9") == ""
    assert refuse("Standard fighter", 1, "ANN-9") == "a Claymore cruiser has no hangar for fighters"
    assert refuse("Standard fighter", 4, "ANN-10") == ""
    ann.developed = []
    assert refuse("Fast Torpedo squadron", 1, "A") == (
        "Fast Torpedo squadron needs Fast Fighters and Torpedo Fighters developed"
    )


def test_an_item_not_paid_for_is_not_bought_and_the_events_say_so() -> None:
    state = seed_map()
    state.systems["A"].defences = {"silo": 1}
    state.stocks[("A", "Ann")] = 0  # A produces 200 this week: 2 silos (20) paid, then not
    orders = _buy("Ann", ("silo", 2, "A"), ("fortification", 40, "A"))
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    assert after.systems["A"].defences == {"silo": 3}
    bought = next(e for e in after.events if e.kind == "item_bought")
    assert (bought.phase, bought.location, bought.visible_to) == ("economy", "A", ("Ann",))
    assert bought.data == {"item": "silo", "count": 2, "cost": 20}
    cancelled = next(e for e in after.events if e.kind == "order_cancelled")
    assert (cancelled.location, cancelled.visible_to) == ("A", ("Ann",))
    assert cancelled.data["reason"] == "it costs 200 and 180 points are stored at A"
    assert after.stock("A", "Ann") == 180


def test_the_events_of_a_trade_an_aim_and_a_stolen_secret() -> None:
    from refassist.rulesets.full_thrust.orders import Mission

    state = seed_map()
    event = economy.trade_buyer(state, Dice.scripted([4]), "D", "Ann", 200)
    assert (event.phase, event.location, event.visible_to) == ("travel", "D", ("Bob",))
    assert event.data == {"roll": 4, "percent": 125, "points": 250, "seller": "Ann"}
    assert state.stock("D", "Bob") == 250
    aim = economy.aim_declared(state, "Ann", 3)
    assert (aim.turn, aim.location, aim.players, aim.visible_to) == (1, "", ("Ann",), ("*",))
    assert aim.data == {"aim": 3, "field": "Rail Guns"}
    # One field to steal: no die for the choice; a mission on nobody steals nothing.
    state.commander("Bob").developed = ["Armour"]
    spy = Orders(
        "Ann", 1, missions=[Mission(2, 1, "Bob", "research"), Mission(1, 0, "Zed", "research")]
    )
    after = resolve_turn(state, {"Ann": spy}, Dice.scripted([1, 1]), RULES).state
    assert after.commander("Ann").discoveries == ["Armour"]
    assert [r.purpose for r in after.dice] == [
        "espionage of Ann on Bob",
        "espionage of Ann on Zed",
    ]


def test_espionage_and_research_record_what_they_did_where() -> None:
    from refassist.rulesets.full_thrust.orders import Mission, ResearchOrder

    state = seed_map()
    state.commander("Bob").developed = ["Armour"]
    state.stocks[("A", "Ann")] = 100  # A produces 200: 300 at home
    ann_orders = Orders(
        "Ann",
        1,
        missions=[
            Mission(9, 0, "Bob", "fleet"),  # more spies than Ann has: cancelled, next one runs
            Mission(2, 1, "Bob", "research", points=300),  # 300 points: 35% + 30 = 65%
            Mission(3, 0, "Cleo", "industry"),  # 30% doubled: 60%
        ],
    )
    bob_orders = Orders("Bob", 1, missions=[Mission(0, 1, "Bob", "counter-espionage")])
    # Bob's counter-espionage (15%) against the research mission: 1D100 16 misses; the mission
    # 1D100 65 succeeds at exactly its chance.  Counter-espionage (15%) against nothing of
    # Cleo's: the industry mission rolls 61 and fails.
    after = resolve_turn(
        state, {"Ann": ann_orders, "Bob": bob_orders}, Dice.scripted([16, 65, 61]), RULES
    ).state
    cancelled = next(e for e in after.events if e.kind == "order_cancelled")
    assert (cancelled.phase, cancelled.location, cancelled.visible_to) == (
        "espionage",
        "A",
        ("Ann",),
    )
    assert cancelled.data == {"order": "mission fleet", "cell": "", "reason": "not enough spies"}
    spied = [e for e in after.events if e.kind == "espionage"]
    assert [(e.phase, e.location, e.data["roll"], e.data["chance"]) for e in spied] == [
        ("espionage", "Bob", 65, 65),
        ("espionage", "Cleo", 61, 60),
    ]
    assert spied[0].text.endswith(
        "1D100 65: success; the secret of Armour is stolen: it may be developed"
    )
    assert spied[1].text.endswith("1D100 61: nothing learned") and spied[1].data["found"] == []
    assert spied[1].data["secret"] == ""
    assert [(r.phase, r.location, r.sides, r.purpose) for r in after.dice] == [
        ("espionage", "Bob", 100, "counter-espionage of Bob against Ann"),
        ("espionage", "Bob", 100, "espionage of Ann on Bob"),
        ("espionage", "Cleo", 100, "espionage of Ann on Cleo"),
    ]
    assert after.stock("A", "Ann") == 0  # the 300 points spent on the research mission
    # Caught: Bob's counter-espionage 1D100 15 takes Ann's two spies and her master spy.
    caught = resolve_turn(
        state, {"Ann": ann_orders, "Bob": bob_orders}, Dice.scripted([15, 99]), RULES
    ).state
    ann = caught.commander("Ann")
    assert (ann.spies, ann.master_spies) == (3, 0)
    told = next(e for e in caught.events if e.kind == "spies_caught")
    assert (told.phase, told.location, told.data["roll"]) == ("espionage", "Bob", 15)
    assert told.visible_to == ("Ann", "Bob")
    # Research paid to the last point: 300 at home pay three rolls exactly, the fourth is not.
    research = Orders("Ann", 1, research=ResearchOrder(rolls=4, aim=3, points=50))
    done = resolve_turn(state, {"Ann": research}, Dice.scripted([1, 1, 1]), RULES).state
    unpaid = next(e for e in done.events if e.kind == "research_unpaid")
    assert (unpaid.phase, unpaid.location, unpaid.visible_to) == ("research", "A", ("Ann",))
    assert unpaid.text == "Ann cannot pay for a research roll at A"
    rolls = [e.text for e in done.events if e.kind == "research"]
    assert rolls == ["Ann's research aimed at Rail Guns: 1D20 1, nothing found"] * 3
    # Points without a field to develop develop nothing (and cost nothing).
    assert "development_refused" not in [e.kind for e in done.events]
    assert done.stock("A", "Ann") == 0
