"""Issue 50's economy: natives' fleets ship by ship (unclaimed homes too), the items the seed
prices (fortifications, ground weapons, silos, fighter squadrons, reloads, the Repair
Facility), a trade between two commanders rolling on both sides, a secret won by espionage,
and aimed research made public.  Every figure is counted by hand from the seed."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.dice import Dice
from refassist.rulesets.full_thrust.economy import native_fleet
from refassist.rulesets.full_thrust.mapfile import parse_map
from refassist.rulesets.full_thrust.orders import FleetOrder
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.setup import new_game
from refassist.rulesets.full_thrust.sheet import write_sheet
from refassist.rulesets.full_thrust.state import BattleResult

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
