"""Space battles of Imperium 3rd Millennium (`space_battle`), on small hand-built states with
scripted dice: hit tables, counter-measures, damage, split fire, the 12-ship limit, initiative,
stances, break-off, the winner, retreats, major victories and what is removed afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from refassist.dice import Dice
from refassist.rulesets.imperium_3m import battle_details
from refassist.rulesets.imperium_3m import space_battle as sb
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.orders import BattleOrders, Orders
from refassist.rulesets.imperium_3m.state import (
    Fleet,
    GameMap,
    Planet,
    Route,
    SideState,
    State,
    System,
    Unit,
)
from refassist.rulesets.imperium_3m.units import IMPERIAL, TERRAN, TROOP_COUNTERS

RULES: dict[str, Any] = {
    "catastrophic_explosions": True,
    "retreat": "came-from",
    "tr_capacity": 1,
    "at_capacity": 1,
}
PLAYERS = {TERRAN: "Terra", IMPERIAL: "Empire"}


def make_state(planets: list[Planet] | None = None) -> State:
    """Four systems: A (Terran home) - B - C (Imperial home), and D linked to B and C."""
    planets = planets or []
    systems = {
        code: System(code, code, 0, 0, planets=[p.code for p in planets if p.system == code])
        for code in "ABCD"
    }
    homes = [
        Planet("A1", "A 1", "A", "A1", 4, owner=TERRAN, marker="World", home=TERRAN),
        Planet("C1", "C 1", "C", "A1", 4, owner=IMPERIAL, marker="World", home=IMPERIAL),
    ]
    systems["A"].planets.append("A1")
    systems["C"].planets.append("C1")
    game_map = GameMap(
        "test",
        systems,
        {p.code: p for p in homes + planets},
        [Route("A", "B"), Route("B", "C"), Route("B", "D"), Route("C", "D")],
    )
    sides = {s: SideState(s, PLAYERS[s]) for s in (TERRAN, IMPERIAL)}
    return State("t", "t", game_map, sides)


def add(
    state: State,
    side: str,
    code: str,
    *,
    fleet: str = "",
    planet: str = "",
    hex_: int = 0,
    damaged: bool = False,
    system: str = "B",
    came_from: str = "",
) -> Unit:
    """Put a unit in play (creating its fleet at ``system`` when needed)."""
    if fleet and state.fleet(fleet) is None:
        state.fleets.append(Fleet(fleet, side, system, came_from=came_from))
    unit = Unit(state.next_unit_id(side, code), side, code, damaged=damaged, fleet=fleet)
    unit.planet, unit.hex = planet, hex_
    if code in ("RT", "JT"):
        unit.strength, unit.reduced_strength = TROOP_COUNTERS[side][code][0]
    state.units.append(unit)
    return unit


def context(
    state: State,
    rolls: list[int],
    orders: dict[str, list[BattleOrders]] | None = None,
    rules: dict[str, Any] | None = None,
    bombard: dict[str, str] | None = None,
) -> TurnContext:
    sheets = {}
    for side in (TERRAN, IMPERIAL):
        o = Orders(PLAYERS[side], side, 1)
        o.battle_orders = list((orders or {}).get(side, []))
        o.bombard_priority = (bombard or {}).get(side, "PD")
        sheets[PLAYERS[side]] = o
    return TurnContext.start(state, sheets, Dice.scripted(rolls), {**RULES, **(rules or {})})


def unit(ctx: TurnContext, side: str, uid: str) -> Unit | None:
    return ctx.state.unit(side, uid)


def battle_at(ctx: TurnContext, positions: dict[str, int], mover: str = TERRAN) -> sb._Battle:
    """A battle at B with units placed by hand (``"Terran SC1": 0``)."""
    b = sb._Battle(ctx, "B", mover)
    for c in b.combatants:
        key = f"{c.side} {c.unit.id}"
        if key in positions:
            c.pos = positions[key]
    return b


def hold(fleet: str, **kw: Any) -> BattleOrders:
    return BattleOrders(fleet, stance=kw.pop("stance", "hold"), **kw)


# -- hit tables ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rng", "die", "hit"),
    [(0, 4, True), (0, 3, False), (1, 5, False), (1, 6, True), (2, 6, None)],
)
def test_light_beam_hits_4_6_at_range_0_and_6_at_range_1_only(
    rng: int, die: int, hit: bool | None
) -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "TR", fleet="I1")
    ctx = context(state, [die])
    b = battle_at(ctx, {"Terran SC1": 0, "Imperial TR1": rng})
    shots = b.fire()
    b.damage()
    if hit is None:
        assert shots == [] and ctx.dice.remaining == 1
        return
    assert shots[0]["need"] == (4 if rng == 0 else 6)
    assert unit(ctx, IMPERIAL, "TR1").damaged is hit


def test_capital_beams_reach_range_2_and_torpedoes_need_6_there() -> None:
    state = make_state()
    add(state, TERRAN, "CA", fleet="T1")
    add(state, IMPERIAL, "TR", fleet="I1")
    ctx = context(state, [6, 1, 1, 1, 1, 5, 5, 5, 5, 5])
    b = battle_at(ctx, {"Terran CA1": 0, "Imperial TR1": 2})
    shots = b.fire()
    assert [(s["weapon"], s["need"], s["hits"]) for s in shots] == [
        ("beam", 6, 1),
        ("torpedo", 6, 0),
    ]
    b.damage()
    assert unit(ctx, IMPERIAL, "TR1").damaged


@pytest.mark.parametrize(("rng", "need"), [(0, 5), (1, 5), (2, 6), (3, 6)])
def test_torpedoes_hit_5_6_at_range_0_1_and_6_at_range_2_3(rng: int, need: int) -> None:
    state = make_state()
    add(state, TERRAN, "TB", fleet="T1")
    add(state, IMPERIAL, "TR", fleet="I1")
    ctx = context(state, [5, 1, 1, 1, 1])
    b = battle_at(ctx, {"Terran TB1": 0, "Imperial TR1": rng})
    shots = b.fire()
    assert shots[0]["need"] == need
    assert shots[0]["hits"] == (1 if need == 5 else 0)


def test_no_fire_beyond_range_3() -> None:
    state = make_state()
    add(state, TERRAN, "TB", fleet="T1")
    add(state, IMPERIAL, "TR", fleet="I1")
    ctx = context(state, [])
    b = battle_at(ctx, {"Terran TB1": 0, "Imperial TR1": 4})
    assert b.fire() == []


# -- counter-measures and damage -----------------------------------------------------------------


@pytest.mark.parametrize(("cm_dice", "damaged"), [([6, 6], False), ([6, 1], True)])
def test_counter_measures_cancel_one_torpedo_hit_per_six(cm_dice: list[int], damaged: bool) -> None:
    state = make_state()
    add(state, TERRAN, "TB", fleet="T1")
    add(state, IMPERIAL, "DD", fleet="I1")
    # TB torpedoes at range 3 (2 hits), the DD's torpedoes miss, then the DD's 2 CM dice.
    ctx = context(state, [6, 6, 1, 1, 1, 1, 1, *cm_dice])
    b = battle_at(ctx, {"Terran TB1": 0, "Imperial DD1": 3})
    b.fire()
    cm = b.counter_measures()
    assert cm[0]["dice"] == cm_dice
    b.damage()
    dd = unit(ctx, IMPERIAL, "DD1")
    assert dd is not None and dd.damaged is damaged
    assert ctx.dice.remaining == 0


@pytest.mark.parametrize(
    ("hits", "already", "catastrophic", "result"),
    [
        (1, False, True, "no effect"),
        (2, False, True, "damaged"),
        (2, True, True, "destroyed"),
        (5, False, True, "damaged"),
        (6, False, True, "destroyed (catastrophic explosion)"),
        (6, False, False, "damaged"),
    ],
)
def test_damage_thresholds_and_catastrophic_explosion(
    hits: int, already: bool, catastrophic: bool, result: str
) -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "CA", fleet="I1", damaged=already)
    ctx = context(state, [], rules={"catastrophic_explosions": catastrophic})
    b = battle_at(ctx, {})
    target = next(c for c in b.combatants if c.unit.id == "CA1")
    target.beam_hits = hits
    records = b.damage()
    assert records[0]["result"] == result
    ca = unit(ctx, IMPERIAL, "CA1")
    assert (ca is None) is result.startswith("destroyed")


def test_damage_rolled_with_dice_destroys_a_damaged_ship_hit_again() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "TR", fleet="I1", damaged=True)
    ctx = context(state, [4])
    b = battle_at(ctx, {"Terran SC1": 0, "Imperial TR1": 0})
    b.fire()
    b.damage()
    assert unit(ctx, IMPERIAL, "TR1") is None
    assert ctx.state.fleet("I1") is None  # the emptied fleet is removed


def test_terran_b_destroyed_unlocks_bb() -> None:
    state = make_state()
    add(state, TERRAN, "B", fleet="T1", damaged=True)
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [])
    b = battle_at(ctx, {})
    next(c for c in b.combatants if c.unit.id == "B1").beam_hits = 3
    assert not ctx.state.sides[TERRAN].bb_unlocked
    b.damage()
    assert ctx.state.sides[TERRAN].bb_unlocked


def test_destroyed_transport_takes_its_troops_down() -> None:
    state = make_state()
    add(state, TERRAN, "TR", fleet="T1", damaged=True)
    add(state, TERRAN, "RT", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [4])
    b = battle_at(ctx, {"Terran TR1": 0, "Imperial SC1": 0}, mover=IMPERIAL)
    b.fire()
    b.damage()
    assert [u.id for u in ctx.state.units if u.side == TERRAN] == []
    assert ctx.state.fleet("T1") is None
    assert b.destroyed[TERRAN] == ["TR1", "RT1"]


# -- split fire and the 12-ship limit ------------------------------------------------------------


def test_capital_ship_splits_fire_between_two_targets_light_ship_does_not() -> None:
    state = make_state()
    add(state, TERRAN, "CA", fleet="T1")
    add(state, TERRAN, "CL", fleet="T1")
    add(state, IMPERIAL, "TR", fleet="I1")
    add(state, IMPERIAL, "TR", fleet="I1")
    ctx = context(state, [1] * 16)
    b = battle_at(ctx, {"Imperial TR1": 0, "Imperial TR2": 0})
    shots = b.fire()
    ca = [(s["weapon"], s["target"], len(s["dice"])) for s in shots if s["shooter"] == "Terran CA1"]
    assert ca == [
        ("beam", "Imperial TR1", 3),
        ("beam", "Imperial TR2", 2),
        ("torpedo", "Imperial TR1", 3),
        ("torpedo", "Imperial TR2", 2),
    ]
    cl = [(s["weapon"], s["target"], len(s["dice"])) for s in shots if s["shooter"] == "Terran CL1"]
    assert cl == [("beam", "Imperial TR1", 4), ("torpedo", "Imperial TR1", 2)]


def test_at_most_12_ships_of_a_side_in_one_area() -> None:
    state = make_state()
    for _ in range(13):
        add(state, TERRAN, "DD", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [], orders={IMPERIAL: [hold("I1")]})
    b = sb._Battle(ctx, "B", TERRAN)
    assert sorted(c.pos for c in b.combatants if c.side == TERRAN) == [-1] + [0] * 12
    b.move_side(TERRAN)
    assert sorted(c.pos for c in b.combatants if c.side == TERRAN) == [2] + [3] * 12


# -- initiative and movement ---------------------------------------------------------------------


def test_initiative_bonus_to_mover_then_to_last_winner_and_imperial_modifier() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [3, 4, 4, 3, 4, 4])
    b = sb._Battle(ctx, "B", TERRAN)
    # Round 1: Terran 3+1 ties Imperial 4: the mover, who had the +1, keeps it.
    assert b.initiative(1, TERRAN)["winner"] == TERRAN
    # Round 2, Imperial won round 1: Terran 4 ties Imperial 3+1: Imperial.
    assert b.initiative(2, IMPERIAL)["winner"] == IMPERIAL
    # Civil War: the Imperial 4 + 1 - 1 only ties the Terran 4 (the +1 keeps it Imperial).
    ctx.state.sides[IMPERIAL].initiative_modifier = -1
    result = b.initiative(3, IMPERIAL)
    assert result["rolls"][IMPERIAL]["total"] == 4 and result["winner"] == IMPERIAL
    # Round 1, Terran moving: Terran 4 + 1 beats Imperial 5 - 1... only because of the -1.
    ctx2 = context(state, [4, 5])
    ctx2.state.sides[IMPERIAL].initiative_modifier = -1
    assert sb._Battle(ctx2, "B", TERRAN).initiative(1, TERRAN)["winner"] == TERRAN


def test_stances_close_stand_off_hold() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, TERRAN, "CA", fleet="T2")
    add(state, TERRAN, "CL", fleet="T3")
    add(state, IMPERIAL, "SC", fleet="I1")
    orders = {TERRAN: [hold("T1", stance="close"), hold("T2", stance="stand off"), hold("T3")]}
    ctx = context(state, [], orders=orders)
    b = battle_at(ctx, {"Terran CA1": 2, "Terran CL1": 0, "Imperial SC1": 3})
    b.move_side(TERRAN)
    pos = {c.unit.id: c.pos for c in b.combatants}
    assert pos["SC1"] == 3  # closed to range 0 (speed 3)
    assert pos["CA1"] == 0  # was at range 1, backed off 2 areas to range 3
    assert pos["CL1"] == 0  # held
    # Standing off from range 5 closes to range 3; a damaged capital ship moves only 1.
    b2 = battle_at(ctx, {"Terran CA1": -2, "Imperial SC1": 3})
    b2.move_side(TERRAN)
    assert next(c.pos for c in b2.combatants if c.unit.id == "CA1") == 0
    ctx.state.unit(TERRAN, "CA1").damaged = True
    b3 = battle_at(ctx, {"Terran CA1": 2, "Imperial SC1": 3})
    b3.move_side(TERRAN)
    assert next(c.pos for c in b3.combatants if c.unit.id == "CA1") == 1


def test_initiative_winner_moves_second() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    orders = {TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]}
    ctx = context(state, [1, 6, 6, 1, 6, 1], orders=orders)
    out = sb.fight(ctx, "B", TERRAN)
    assert [r["initiative_winner"] for r in out.rounds] == [IMPERIAL, TERRAN, TERRAN]
    assert [r["moves_first"] for r in out.rounds] == [TERRAN, IMPERIAL, IMPERIAL]


# -- the whole battle ----------------------------------------------------------------------------


def test_winner_by_remaining_warship_cost_loser_retreats_the_way_it_came() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1", came_from="D")
    add(state, IMPERIAL, "TR", fleet="I1")
    orders = {TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]}
    ctx = context(state, [1, 1] * 3, orders=orders)
    out = sb.fight(ctx, "B", IMPERIAL)
    assert (out.winner, out.loser) == (TERRAN, IMPERIAL)
    assert ctx.state.fleet("I1").system == "D"
    assert ctx.state.fleet("I1").came_from == "B"
    assert (IMPERIAL, "SC1") in ctx.moved
    event = ctx.events[-1]
    assert event.kind == "battle" and len(event.data["rounds"]) == 3
    assert event.dice == (1, 2, 3, 4, 5, 6)
    assert set(event.visible_to) == {"Terra", "Empire"}
    assert ctx.state.revealed == {TERRAN: ["B"], IMPERIAL: ["B"]}
    assert ctx.glory_changes == []  # not a major battle
    assert ctx.battles == ["B"]


def test_retreat_towards_home_under_the_home_house_rule() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1", came_from="D")
    orders = {TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]}
    ctx = context(state, [1, 1] * 3, orders=orders, rules={"retreat": "home"})
    sb.fight(ctx, "B", IMPERIAL)
    assert ctx.state.fleet("I1").system == "C"


def test_tie_in_warship_cost_the_defender_holds_and_the_mover_retreats() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1", came_from="A")
    add(state, IMPERIAL, "SC", fleet="I1")
    orders = {TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]}
    ctx = context(state, [1, 1] * 3, orders=orders)
    out = sb.fight(ctx, "B", TERRAN)
    assert (out.winner, out.loser) == (IMPERIAL, TERRAN)
    assert ctx.state.fleet("T1").system == "A"
    assert ctx.state.fleet("I1").system == "B"


def test_loser_with_nowhere_to_go_stays() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1", system="C")
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1", system="C")
    orders = {TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]}
    ctx = context(state, [1, 1] * 3, orders=orders)
    out = sb.fight(ctx, "C", TERRAN)
    assert out.loser == IMPERIAL
    assert ctx.state.fleet("I1").system == "C"  # at its home world: nowhere closer to go
    assert "nowhere to retreat" in ctx.events[-1].text


def test_monitors_stay_when_their_fleet_retreats() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1", came_from="D")
    add(state, IMPERIAL, "M", fleet="I1", damaged=True)
    orders = {TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]}
    # The damaged monitor (cost 8 -> 4) fires at range 3 with torpedoes only (6 dice).
    ctx = context(state, [1, 1] + [1] * 6 + [1, 1] + [1] * 6 + [1, 1] + [1] * 6, orders=orders)
    out = sb.fight(ctx, "B", IMPERIAL)
    assert out.winner == IMPERIAL  # 4 + 2 against 4: Imperial wins, nobody of it retreats
    # Terran now 8 + 2 (the CL adds 2 torpedo dice a round at range 3).
    ctx = context(state, [1] * 30, orders=orders)
    ctx.state.unit(TERRAN, "SC1").code = "CL"
    out = sb.fight(ctx, "B", IMPERIAL)
    assert out.loser == IMPERIAL
    assert ctx.state.fleet("I1").system == "D"
    monitor = ctx.state.unit(IMPERIAL, "M1")
    assert ctx.state.fleet(monitor.fleet).system == "B"


def test_break_off_after_round_1_leaves_the_field() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1", came_from="A")
    add(state, TERRAN, "CA", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    orders = {TERRAN: [hold("T1", break_off=1)], IMPERIAL: [hold("I1")]}
    # Round 1: initiative, the CA's 5 torpedoes at range 3 miss; then T1 breaks off.
    ctx = context(state, [1, 1, 1, 1, 1, 1, 1], orders=orders)
    out = sb.fight(ctx, "B", TERRAN)
    assert len(out.rounds) == 1
    assert out.rounds[0]["break_off"] == [{"fleet": "T1", "side": TERRAN, "to": "A"}]
    assert out.winner == IMPERIAL
    assert ctx.state.fleet("T1").system == "A"
    assert ctx.dice.remaining == 0


def test_battle_ends_when_a_side_has_no_ships() -> None:
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "TR", fleet="I1", damaged=True)
    # Round 1: Terran closes to range 0 and fires one beam die (4 hits): TR destroyed.
    ctx = context(state, [6, 1, 4])
    out = sb.fight(ctx, "B", TERRAN)
    assert out.winner == TERRAN and len(out.rounds) == 1
    assert ctx.state.fleet("I1") is None
    assert out.destroyed[IMPERIAL] == ["TR1"]


def test_fight_with_only_one_side_present_is_won_without_dice() -> None:
    state = make_state()
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [])
    out = sb.fight(ctx, "B", IMPERIAL)
    assert (out.winner, out.loser, out.rounds) == (IMPERIAL, TERRAN, [])


@pytest.mark.parametrize(("extra", "winner", "glory"), [(False, IMPERIAL, 6), (True, TERRAN, 4)])
def test_major_victory_moves_glory(extra: bool, winner: str, glory: int) -> None:
    state = make_state()
    add(state, TERRAN, "CV", fleet="T1")
    if extra:
        add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "CV", fleet="I1")
    orders = {TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]}
    ctx = context(state, [1] * 18, orders=orders)
    out = sb.fight(ctx, "B", TERRAN)
    assert out.major and out.winner == winner
    assert ctx.state.glory == glory
    reason = "major Empire victory" if winner == IMPERIAL else "major Terran victory"
    assert ctx.glory_changes == [(glory - 5, reason)]


def test_ten_ships_each_is_major_without_capital_ships() -> None:
    state = make_state()
    for _ in range(10):
        add(state, TERRAN, "SC", fleet="T1")
        add(state, IMPERIAL, "SC", fleet="I1")
    add(state, IMPERIAL, "SC", fleet="I1")
    orders = {TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]}
    ctx = context(state, [1] * 6, orders=orders)
    out = sb.fight(ctx, "B", TERRAN)
    assert out.major and out.winner == IMPERIAL and ctx.state.glory == 6


def test_fighters_launch_fight_and_land_on_a_friendly_planet_when_the_carrier_is_lost() -> None:
    home = Planet("B2", "B 2", "B", "A1", 3, owner=IMPERIAL, marker="Outpost")
    state = make_state([home])
    add(state, TERRAN, "CL", fleet="T1")
    add(state, IMPERIAL, "CV", fleet="I1", damaged=True)
    add(state, IMPERIAL, "F", fleet="I1")
    ctx = context(state, [4, 4, 1, 1] + [1] * 6)
    b = battle_at(ctx, {"Terran CL1": 0, "Imperial CV1": 0, "Imperial F1": 0}, mover=TERRAN)
    shots = b.fire()
    assert [s["shooter"] for s in shots] == ["Terran CL1"] * 2 + ["Imperial CV1", "Imperial F1"]
    b.damage()
    assert ctx.state.unit(IMPERIAL, "CV1") is None
    records = b.recover_fighters()
    assert records == [{"unit": "Imperial F1", "result": "landed on B2"}]
    assert ctx.state.unit(IMPERIAL, "F1").planet == "B2"


def test_cargo_assignment_fills_carriers_then_attack_transports_with_jump_troops() -> None:
    state = make_state()
    add(state, IMPERIAL, "TR", fleet="I1")
    add(state, IMPERIAL, "RT", fleet="I1")
    add(state, IMPERIAL, "AT", fleet="I1")
    add(state, IMPERIAL, "JT", fleet="I1")
    add(state, IMPERIAL, "CV", fleet="I1")
    add(state, IMPERIAL, "F", fleet="I1")
    ctx = context(state, [])
    loads = {k: [u.id for u in v] for k, v in sb.cargo_of(ctx, "I1").items()}
    assert loads == {"TR1": ["RT1"], "AT1": ["JT1"], "CV1": ["F1"], "": []}


def _big_battle() -> tuple[TurnContext, sb.BattleOutcome]:
    """Two full fleets at B: every Terran and Imperial ship counter the lists allow, close."""
    state = make_state()
    for side, codes in (
        (TERRAN, ["BB"] * 5 + ["B"] * 6 + ["CA"] * 4 + ["CS"] * 5 + ["CL"] * 6 + ["DD"] * 12),
        (IMPERIAL, ["BB"] * 4 + ["B1"] * 3 + ["B2"] * 4 + ["CA"] * 5 + ["CR"] * 5 + ["DD"] * 13),
    ):
        for code in codes:
            add(state, side, code, fleet="T1" if side == TERRAN else "I1")
    state.fleet("T1").came_from = "A"  # type: ignore[union-attr]
    ctx = TurnContext.start(state, {}, Dice(seed=3), RULES)
    return ctx, sb.fight(ctx, "B", TERRAN)


def test_a_huge_battles_details_are_shortened_to_fit_one_workbook_cell() -> None:
    import json

    ctx, outcome = _big_battle()
    event = next(e for e in ctx.events if e.kind == "battle")
    size = len(json.dumps(event.data, sort_keys=True, ensure_ascii=False))
    assert size <= battle_details.MAX_BATTLE_CHARS
    assert event.data["shortened"]
    # What a report needs stays: the result, the losses, every round's damage.
    assert event.data["winner"] == outcome.winner
    assert event.data["destroyed"] == outcome.destroyed
    assert all("damage" in r for r in event.data["rounds"])
    # The dice themselves are all in the log the dice sheet is written from.
    assert len(event.dice) > 300


def test_small_battle_details_are_kept_whole() -> None:
    data = {"rounds": [{"positions": {"a": 1}, "shots": []}], "dice": [1, 2]}
    assert battle_details.fit_battle_data(data) is data


def test_a_fighter_beyond_the_carriers_rides_a_transport_and_shares_its_fate() -> None:
    """Reinforcements: fighters "may enter the game loaded on any previously empty
    transports"; such a fighter does not launch (only carriers launch), and when its
    transport is destroyed it goes down with it, as troops do."""
    state = make_state()
    add(state, TERRAN, "TR", fleet="T1", damaged=True)
    add(state, TERRAN, "F", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [4])
    loads = {k: [u.id for u in v] for k, v in sb.cargo_of(ctx, "T1").items()}
    assert loads == {"TR1": ["F1"], "": []}
    b = battle_at(ctx, {"Terran TR1": 0, "Imperial SC1": 0}, mover=IMPERIAL)
    assert sorted(f"{c.side} {c.unit.id}" for c in b.combatants) == ["Imperial SC1", "Terran TR1"]
    b.fire()
    b.damage()
    assert b.destroyed[TERRAN] == ["TR1", "F1"]
    assert ctx.state.fleet("T1") is None


TARGETS = ("SC", "TR", "CS", "CV", "AT", "CA", "DD", "CR", "AR", "CL")


@pytest.mark.parametrize(
    ("priority", "order"),
    [
        # Capital ships first, dearest first (CR and CS cost 13 each: counter id).
        ("capital", ["CA1", "CR1", "CS1", "CV1", "CL1", "AR1", "AT1", "DD1", "SC1", "TR1"]),
        # The carrier, then the other capital ships, then the rest, dearest first.
        ("carrier", ["CV1", "CA1", "CR1", "CS1", "CL1", "AR1", "AT1", "DD1", "SC1", "TR1"]),
        # Transports (AT, TR), then repair ships, then the rest, dearest first.
        ("transport", ["AT1", "TR1", "AR1", "CA1", "CR1", "CS1", "CV1", "CL1", "DD1", "SC1"]),
        # Cheapest first (SC and TR cost 2 each: counter id).
        ("cheapest", ["SC1", "TR1", "DD1", "AR1", "AT1", "CL1", "CV1", "CR1", "CS1", "CA1"]),
    ],
)
def test_a_fleets_priority_orders_its_targets(priority: str, order: list[str]) -> None:
    state = make_state()
    targets = [
        sb.Combatant(add(state, IMPERIAL, code, fleet="I1"), 0, "close", "capital", 0)
        for code in TARGETS
    ]
    ctx = context(state, [])
    assert [c.unit.id for c in sb._order_targets(ctx, targets, priority)] == order


# -- leaving the battle, and what is left behind -------------------------------------------------


def test_a_retreating_fleets_monitors_stay_in_a_fleet_of_their_own() -> None:
    """T1 leaves B for A (towards its home); its monitor cannot, and stays at B in a new fleet
    named after it, the first free of T1M1, T1M2 ..."""
    state = make_state()
    add(state, TERRAN, "CA", fleet="T1")
    add(state, TERRAN, "M", fleet="T1")
    add(state, TERRAN, "M", fleet="T1M1")
    add(state, IMPERIAL, "CA", fleet="I1")
    ctx = context(state, [])
    b = battle_at(ctx, {})
    fleet = ctx.state.fleet("T1")
    assert fleet is not None
    assert b.leave(fleet) == "A"
    kept = ctx.state.fleet("T1M2")
    assert kept is not None and (kept.side, kept.system) == (TERRAN, "B")
    assert [u.id for u in ctx.state.units_in_fleet("T1M2")] == ["M1"]
    assert (fleet.system, fleet.came_from) == ("A", "B")
    assert b.retreats == {"T1": "A"} and b.left == {"T1"}
    assert (TERRAN, "CA1") in ctx.moved and (TERRAN, "M1") not in ctx.moved
    assert all(c.gone for c in b.combatants if c.unit.fleet == "T1")


def retreat_from_b(came_from: str, retreat: str, blocked: str) -> str | None:
    """Where the Terran fleet T1 (come from ``came_from``, retreat order ``retreat``) goes
    from B when an Imperial fleet stands at ``blocked``."""
    state = make_state()
    add(state, TERRAN, "CA", fleet="T1", came_from=came_from)
    add(state, IMPERIAL, "CA", fleet="I1")
    add(state, IMPERIAL, "SC", fleet="I2", system=blocked)
    ctx = context(state, [], orders={TERRAN: [BattleOrders("T1", retreat=retreat)]})
    fleet = ctx.state.fleet("T1")
    assert fleet is not None
    return battle_at(ctx, {}).destination(fleet)


def test_a_retreat_passes_over_a_system_held_by_the_enemy() -> None:
    # Back to D first (the house rule's came-from), but the enemy is there: home, to A.
    assert retreat_from_b("D", "", blocked="D") == "A"
    # Home first as ordered, but the enemy is at A: back, to D.
    assert retreat_from_b("D", "home", blocked="A") == "D"
    # Back as ordered, but the fleet was already at B (it defended): there is no back.
    assert retreat_from_b("B", "back", blocked="D") == "A"
    # Both ways held by the enemy: nowhere to go.
    assert retreat_from_b("A", "back", blocked="A") is None


def test_troops_pd_and_outposts_ride_the_transports_in_order() -> None:
    state = make_state()
    add(state, TERRAN, "TR", fleet="T1")
    for code in ("OP", "PD", "RT", "JT"):
        add(state, TERRAN, code, fleet="T1")
    ctx = context(state, [], rules={"tr_capacity": 3})
    loads = {k: [u.id for u in v] for k, v in sb.cargo_of(ctx, "T1").items()}
    assert loads == {"TR1": ["JT1", "OP1", "PD1"], "": ["RT1"]}


def test_stranded_fighters_land_on_a_friendly_planet_while_its_box_has_room() -> None:
    """The scout carries no fighters: after the battle its two fighters look for a friendly,
    undisputed planet at B (fighters may stand on any type).  P's box (one hex: five places)
    holds four Terran units, so the first lands in the box and the second is lost; the troop
    nobody carries is lost too (only fighters fly down)."""
    state = make_state([Planet("P", "Planet P", "B", "A1", 1, owner=TERRAN, marker="Outpost")])
    state.map.systems["B"].planets.append("P")
    for _ in range(4):
        add(state, TERRAN, "PD", planet="P")
    add(state, TERRAN, "SC", fleet="T1")
    add(state, TERRAN, "F", fleet="T1")
    add(state, TERRAN, "F", fleet="T1")
    add(state, TERRAN, "RT", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [])
    b = battle_at(ctx, {})
    assert b.recover_fighters() == [
        {"unit": "Terran RT1", "result": "lost (no carrier)"},
        {"unit": "Terran F1", "result": "landed on P"},
        {"unit": "Terran F2", "result": "lost (no carrier)"},
    ]
    f1 = ctx.state.unit(TERRAN, "F1")
    assert f1 is not None and (f1.fleet, f1.planet, f1.hex) == ("", "P", 0)
    assert b.destroyed[TERRAN] == ["RT1", "F2"]


@pytest.mark.parametrize(
    ("change", "value"),
    [("owner", IMPERIAL), ("disputed", True)],
)
def test_stranded_fighters_do_not_land_on_an_enemy_or_disputed_planet(
    change: str, value: Any
) -> None:
    planet = Planet("P", "Planet P", "B", "A1", 1, owner=TERRAN, marker="Outpost")
    setattr(planet, change, value)
    state = make_state([planet])
    state.map.systems["B"].planets.append("P")
    add(state, TERRAN, "SC", fleet="T1")
    add(state, TERRAN, "F", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [])
    assert battle_at(ctx, {}).recover_fighters() == [
        {"unit": "Terran F1", "result": "lost (no carrier)"}
    ]


# -- how a battle ends ---------------------------------------------------------------------------


def test_a_tie_of_warship_cost_leaves_the_field_to_the_defender() -> None:
    """Two scouts miss for three rounds: warship cost 2 against 2, so the defender (the
    Empire: the Terrans moved in) holds B and the Terran scout goes home to A.  Round 2's
    initiative bonus goes to round 1's winner; the ranges are between the two sides only; every
    die is rolled at B."""
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [1] * 100)
    out = sb.fight(ctx, "B", TERRAN)
    assert (out.winner, out.loser, out.major) == (IMPERIAL, TERRAN, False)
    assert out.retreats == {"T1": "A"}
    event = ctx.events[-1]
    assert (event.phase, event.location, event.kind) == ("battle", "B", "battle")
    assert event.text == (
        "Space battle at B: Imperial wins (remaining warship cost tied at 2: the defender holds)"
    )
    assert event.data["retreats"] == [{"fleet": "T1", "to": "A"}]
    first, second = event.data["rounds"][:2]
    assert second["initiative"][first["initiative_winner"]]["bonus"] == 1
    for record in event.data["rounds"]:
        terran = [p for label, p in record["positions"].items() if label.startswith("Terran")]
        imperial = [p for label, p in record["positions"].items() if label.startswith("Imperial")]
        assert record["ranges"] == sorted({abs(a - b) for a in terran for b in imperial})
    assert {r.location for r in ctx.dice.log} == {"B"}


def test_a_loser_with_nowhere_to_go_stays_and_the_report_says_so() -> None:
    """The Terrans lose on cost (scout and monitor, 2 + 8, against a cruiser's 15); the way
    home (A) is held by an Imperial scout and the scout came from nowhere else: it stays.  The
    monitor fleet is not even tried (monitors never leave).  Not a major battle (the Terrans
    have no capital ship): the glory does not move."""
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, TERRAN, "M", fleet="T2")
    add(state, IMPERIAL, "CA", fleet="I1")
    add(state, IMPERIAL, "SC", fleet="I2", system="A")
    ctx = context(state, [1] * 100, orders={IMPERIAL: [hold("I1")]})
    out = sb.fight(ctx, "B", TERRAN)
    assert (out.winner, out.major) == (IMPERIAL, False)
    event = ctx.events[-1]
    assert event.text == (
        "Space battle at B: Imperial wins (remaining warship cost 15 against 10); "
        "T1 had nowhere to retreat and stayed"
    )
    assert event.data["retreats"] == [{"fleet": "T1", "to": ""}]
    assert ctx.glory_changes == []


def test_a_major_terran_victory_moves_the_glory_at_the_battles_system() -> None:
    state = make_state()
    add(state, TERRAN, "BB", fleet="T1")
    add(state, IMPERIAL, "CA", fleet="I1")
    ctx = context(state, [1] * 200, orders={TERRAN: [hold("T1")], IMPERIAL: [hold("I1")]})
    out = sb.fight(ctx, "B", TERRAN)
    assert (out.winner, out.major) == (TERRAN, True)
    glory = [e for e in ctx.events if e.kind == "glory"]
    assert [(e.location, e.data["delta"], e.data["reason"]) for e in glory] == [
        ("B", -1, "major Terran victory")
    ]


@pytest.mark.parametrize(
    ("start", "end"),
    [(0, 3), (1, 3), (2, 2), (3, 3), (4, 3), (6, 3), (7, 4)],
)
def test_standing_off_keeps_range_2_to_3(start: int, end: int) -> None:
    """A scout (speed 3) standing off from an enemy at range ``start``: below 2 it backs off
    towards 3, at 2 or 3 it holds, beyond 3 it closes to 3 as far as its speed goes."""
    state = make_state()
    add(state, TERRAN, "SC", fleet="T1")
    add(state, IMPERIAL, "SC", fleet="I1")
    ctx = context(state, [], orders={TERRAN: [hold("T1", stance="stand off")]})
    b = battle_at(ctx, {"Terran SC1": 10 - start, "Imperial SC1": 10})
    moves = b.move_side(TERRAN)
    terran = next(c for c in b.combatants if c.side == TERRAN)
    assert 10 - terran.pos == end
    assert moves == (
        [] if start == end else [{"unit": "Terran SC1", "from": 10 - start, "to": 10 - end}]
    )
