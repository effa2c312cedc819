"""The choices the seed gives a player, taken from the sheet as standing orders and columns,
with scripted dice; each test also pins the default (a blank sheet) where it differs."""

from __future__ import annotations

from typing import Any

from refassist.dice import Dice
from refassist.rulesets.imperium_3m import planet_battle as pb
from refassist.rulesets.imperium_3m import space_battle as sb
from refassist.rulesets.imperium_3m.admin import intervention, reinforcements
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.orders import BattleOrders, Orders, PlanetDefence
from refassist.rulesets.imperium_3m.state import Queued, State, Unit
from refassist.rulesets.imperium_3m.units import IMPERIAL, TERRAN
from tests.imperium.test_admin import context as admin_context
from tests.imperium.test_admin import granted_units, imperial_orders, start
from tests.imperium.test_closeout import bare, fleet, run
from tests.imperium.test_planet_battle import disputed_state, planet_state
from tests.imperium.test_space_battle import PLAYERS, RULES, add, hold, make_state


def sheets(state: State, rolls: list[int], **by_side: Orders) -> TurnContext:
    """A context whose sides' sheets are ``by_side`` (blank sheets otherwise)."""
    orders = {s: by_side.get(s) or Orders(PLAYERS[s], s, 1) for s in (TERRAN, IMPERIAL)}
    return TurnContext.start(
        state, {PLAYERS[s]: o for s, o in orders.items()}, Dice.scripted(rolls), dict(RULES)
    )


def orders_of(side: str, **kw: Any) -> Orders:
    return Orders(PLAYERS[side], side, 1, **kw)


# -- administration ------------------------------------------------------------------------------


def test_intervention_forces_arrive_at_the_home_world_the_empire_chose() -> None:
    # Token Reinforcements (5+5): by default at the home world nearest the Terrans (Ishkur).
    state = start()
    intervention(admin_context(state, [5, 5]))
    assert {state.fleet(u.fleet).system for u in granted_units(state, "intervention")} == {"ISH"}
    state = start()
    wish = imperial_orders(state, forces_world="GAS1")
    intervention(admin_context(state, [5, 5], Imperial=wish))
    assert {state.fleet(u.fleet).system for u in granted_units(state, "intervention")} == {"GAS"}


def test_a_home_world_lost_is_not_where_forces_arrive() -> None:
    state = start()
    state.map.planets["GAS1"].owner = TERRAN
    wish = imperial_orders(state, forces_world="GAS1")
    ctx = admin_context(state, [5, 5], Imperial=wish)
    intervention(ctx)
    assert "GAS" not in {state.fleet(u.fleet).system for u in granted_units(state, "intervention")}
    assert "GAS1, asked for, is not an Imperial home world the Empire holds" in ctx.events[-1].text


def test_frontier_crisis_takes_the_ships_the_empire_names_first() -> None:
    # 1+2: Frontier Crisis, 3 points.  By default SC1 and two DDs go (cheapest first).
    state = start()
    ca = next(u for u in state.units if u.side == IMPERIAL and u.code == "CA")
    wish = imperial_orders(state, crisis_ships=[ca.id])
    intervention(admin_context(state, [1, 2, 3], Imperial=wish))
    assert state.unit(IMPERIAL, ca.id) is None  # the CA (2 points) went first
    assert sorted(q.code for q in state.queue) == ["CA", "SC"]  # the last point: the cheapest


def test_imperial_reinforcements_bring_the_capital_asked_for_or_none() -> None:
    # 5+6: Imperial Reinforcements, 4 points; by default CA + 2 DD.
    state = start()
    wish = imperial_orders(state, reinforcement_capital="CR")
    intervention(admin_context(state, [5, 6, 4], Imperial=wish))
    assert sorted(u.code for u in granted_units(state, "intervention")) == ["CR", "DD", "DD"]
    state = start()
    wish = imperial_orders(state, reinforcement_capital="none")
    intervention(admin_context(state, [5, 6, 4], Imperial=wish))
    assert sorted(u.code for u in granted_units(state, "intervention")) == ["DD"] * 4


def test_a_new_troop_arrives_aboard_the_fleet_the_build_line_names() -> None:
    state = start()
    state.units.append(Unit("TR9", TERRAN, "TR", fleet="T2"))  # an empty transport at ACE
    state.queue.append(Queued(TERRAN, "PD", 1, world="t2"))  # as typed, any case
    ctx = admin_context(state, [])
    reinforcements(ctx)
    pd = [u for u in state.units if u.side == TERRAN and u.code == "PD"][-1]
    assert pd.fleet == "T2" and not pd.planet
    assert "aboard T2, as asked" in next(e.text for e in ctx.events if e.kind == "reinforcement")


# -- close-out -----------------------------------------------------------------------------------


def test_a_standing_order_keeps_the_stockpile_out_of_maintenance() -> None:
    from refassist.rulesets.imperium_3m.closeout import close_out

    state = bare(resources=5)
    (cl,) = fleet(state, "T1", TERRAN, "BAR", "CL")  # M3: Barnard's Outpost pays 6 locally
    fleet(state, "T2", TERRAN, "TAU", "DD")  # M2, no Terran planet at Tau: the stockpile
    run(state, [])
    assert state.sides[TERRAN].resources == 3
    state = bare(resources=5)
    fleet(state, "T1", TERRAN, "BAR", "CL")
    (dd,) = fleet(state, "T2", TERRAN, "TAU", "DD")
    sheets_ = {s: Orders(state.player_of(s), s, state.turn) for s in (TERRAN, IMPERIAL)}
    sheets_[TERRAN].stockpile_upkeep = False
    ctx = TurnContext(
        state=state,
        dice=Dice.scripted([2]),  # the unmaintained DD rolls: 2 <= M2, damaged
        rules=dict(RULES),
        orders=sheets_,
    )
    close_out(ctx)
    assert state.sides[TERRAN].resources == 5 and dd.damaged and not cl.damaged
    assert "nothing from the stockpile" in next(
        e.text for e in ctx.events if e.kind == "maintenance"
    )


# -- space battle: retreat and stealth -----------------------------------------------------------


def test_the_loser_retreats_as_its_fleet_orders_say() -> None:
    for retreat, rule, where in (
        ("home", "came-from", "C"),  # towards its home world though it came from D
        ("back", "home", "D"),  # the way it came though the house rule says home
        ("", "came-from", "D"),
    ):
        state = make_state()
        add(state, TERRAN, "SC", fleet="T1")
        add(state, TERRAN, "SC", fleet="T1")
        add(state, IMPERIAL, "SC", fleet="I1", came_from="D")
        imp = orders_of(IMPERIAL, battle_orders=[hold("I1", retreat=retreat)])
        ter = orders_of(TERRAN, battle_orders=[hold("T1")])
        ctx = sheets(state, [1, 1] * 3, Terran=ter, Imperial=imp)
        ctx.rules["retreat"] = rule
        sb.fight(ctx, "B", IMPERIAL)
        assert ctx.state.fleet("I1").system == where, retreat


def test_scouts_told_not_to_sneak_make_no_stealth_roll() -> None:
    from refassist.rulesets.imperium_3m.orders import Action, Activation
    from refassist.rulesets.imperium_3m.segments import action_segment

    state = make_state()
    add(state, TERRAN, "SC", fleet="T1", system="A")
    add(state, IMPERIAL, "TR", fleet="I1", system="B")
    move = Action("move", fleet="T1", route=["B", "C"], text="T1 > B > C")
    ter = orders_of(
        TERRAN,
        activations=[Activation(1, 1, "A", [move])],
        battle_orders=[BattleOrders("T1", stealth=False)],
    )
    ctx = sheets(state, [6, 1], Terran=ter)  # only the initiative: no 2D6 for stealth
    action_segment(ctx, 1)
    assert not [e for e in ctx.events if e.kind == "stealth"]
    # A transport alone does not stop a fleet: the scouts go on openly to C (and stop at the
    # Imperial home world there).
    assert ctx.state.fleet("T1").system == "C"
    assert ctx.dice.remaining == 0
    # Left blank, the scouts try: 1+1 = 2, undetected.
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1", system="A")
    add(state, IMPERIAL, "TR", fleet="I1", system="B")
    ter = orders_of(TERRAN, activations=[Activation(1, 1, "A", [move])])
    ctx = sheets(state, [6, 1, 1, 1, 1, 1], Terran=ter)  # and again at the home world C
    action_segment(ctx, 1)
    assert [e.data["detected"] for e in ctx.events if e.kind == "stealth"] == [False, False]


# -- planetary battle ----------------------------------------------------------------------------


def test_an_attack_without_bombardment_rolls_no_bombardment_dice() -> None:
    state = planet_state(marker="World", owner=TERRAN, hexes=2)
    add(state, IMPERIAL, "CA", fleet="I9")  # would roll one bombardment die
    add(state, IMPERIAL, "TR", fleet="I9")
    add(state, IMPERIAL, "RT", fleet="I9")
    add(state, TERRAN, "PD", planet="P")  # would fire 3 dice at the fleet in bombardment
    ctx = sheets(state, [1] * 40)
    pb.attack(ctx, IMPERIAL, "I9", "P", [], bombarding=False)
    assert "bombardment" not in [e.kind for e in ctx.events]
    assert [e.kind for e in ctx.events][:2] == ["landing", "surface battle"]


def test_the_invader_fights_only_in_the_hexes_it_names() -> None:
    state = disputed_state()
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, TERRAN, "RT", planet="P", hex_=5)
    add(state, IMPERIAL, "RT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=5)
    ctx = sheets(state, [1] * 40)
    pb.attack(ctx, TERRAN, "T1", "P", [], fight=[5])
    battle = ctx.events[-1]
    assert [f["hex"] for f in battle.data["fights"]] == [5]
    ctx = sheets(state, [1] * 40)
    pb.attack(ctx, TERRAN, "T1", "P", [], fight=[])
    assert ctx.events[-1].data["fights"] == [] and ctx.dice.remaining == 40


def test_troops_alone_renew_the_fight_on_a_disputed_planet() -> None:
    state = disputed_state()
    state.fleets.clear()  # no fleet in orbit
    state.units = [u for u in state.units if not u.fleet]
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=2, damaged=True)
    strength = state.unit(TERRAN, "RT1").troop_strength
    reduced = state.unit(IMPERIAL, "RT1").troop_strength
    # One 6 from the Terran RT eliminates the reduced Imperial RT; the planet is Terran again.
    ctx = sheets(state, [6] + [1] * (strength - 1) + [1] * reduced)
    pb.attack(ctx, TERRAN, "", "P", [])
    assert ctx.state.unit(IMPERIAL, "RT1") is None
    assert not ctx.state.map.planets["P"].disputed and ctx.dice.remaining == 0


def test_the_defender_places_its_units_and_aims_its_fighters() -> None:
    def attack(defence: PlanetDefence | None) -> TurnContext:
        state = planet_state(owner=TERRAN, marker="Outpost", hexes=5)
        add(state, IMPERIAL, "TR", fleet="I9")
        add(state, IMPERIAL, "JT", fleet="I9")
        add(state, IMPERIAL, "CV", fleet="I9")
        add(state, IMPERIAL, "F", fleet="I9")
        add(state, TERRAN, "F", planet="P")
        add(state, TERRAN, "PD", planet="P")
        ter = orders_of(TERRAN, defences=[defence] if defence else [])
        ctx = sheets(state, [6] * 2 + [1] * 60, Terran=ter)
        pb.attack(ctx, IMPERIAL, "I9", "P", [], bombarding=False)
        return ctx

    # By default the F and PD are spread (hexes 1 and 3 of 5... centred: 2 and 4) and the
    # fighter's two 6s hit the transport (attack transports first, then transports).
    ctx = attack(None)
    landing = next(e for e in ctx.events if e.kind == "landing").data
    assert landing["defence"][0]["effects"][0]["unit"] == "Imperial TR1"
    placed = attack(PlanetDefence("P", fighters_attack="fighters", placement={"PD1": 5}))
    landing = next(e for e in placed.events if e.kind == "landing").data
    assert landing["defence"][0]["effects"][0]["unit"] == "Imperial F1"
    assert placed.state.unit(TERRAN, "PD1").hex in (0, 5)  # stood in hex 5 for the battle
    surface = next(e for e in placed.events if e.kind == "surface battle").data
    assert surface.get("positions", {}).get("Terran PD1", 5) == 5


def test_deploy_honours_the_placement_and_spreads_the_rest() -> None:
    units = [Unit(f"PD{n}", TERRAN, "PD", planet="P") for n in (1, 2, 3)]
    pb.deploy(units, 6, {"PD2": 6})
    assert [u.hex for u in units] == [2, 6, 5]
    units = [Unit(f"F{n}", TERRAN, "F", planet="P") for n in range(1, 8)]
    pb.deploy(units, 2, {u.id: 1 for u in units})  # at most five stand in hex 1
    assert sorted(u.hex for u in units) == [1, 1, 1, 1, 1, 2, 2]
