"""Close-out (`closeout`): maintenance of ships and ground forces, scrapping, repair, ground
repair and augmentation, on small hand-built states over the default map.

The default map's planets start with their scenario markers: Sol 1 and 2, Alpha Centauri A1
and B are Terran Worlds, Barnard 1 a Terran Outpost; Tau Ceti (TAU) holds no World or Outpost.
"""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.imperium_3m import RULESET
from refassist.rulesets.imperium_3m.closeout import close_out
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.mapfile import load_map
from refassist.rulesets.imperium_3m.orders import CloseOutOrder, Orders, no_orders
from refassist.rulesets.imperium_3m.state import Fleet, SideState, State, Unit
from refassist.rulesets.imperium_3m.units import IMPERIAL, SIDES, TERRAN


def bare(resources: int = 0) -> State:
    sides = {s: SideState(side=s, player=s[:3], resources=resources) for s in SIDES}
    sides[IMPERIAL].resources = 100
    return State("Test", "id", load_map(None), sides)


def fleet(state: State, name: str, side: str, system: str, *codes: str) -> list[Unit]:
    state.fleets.append(Fleet(name, side, system))
    units = []
    for code in codes:
        damaged = code.endswith("*")
        code = code.rstrip("*")
        unit = Unit(state.next_unit_id(side, code), side, code, damaged=damaged, fleet=name)
        state.units.append(unit)
        units.append(unit)
    return units


def ground(state: State, side: str, planet: str, code: str, damaged: bool = False) -> Unit:
    unit = Unit(state.next_unit_id(side, code), side, code, damaged=damaged, planet=planet)
    unit.strength, unit.reduced_strength = 4, 2
    state.units.append(unit)
    return unit


def run(state: State, rolls: list[int], rules: dict | None = None, *orders: CloseOutOrder):
    by_side = {s: no_orders(state.player_of(s), s, state.turn) for s in SIDES}
    by_side[TERRAN] = Orders(state.player_of(TERRAN), TERRAN, state.turn, close_out=list(orders))
    ctx = TurnContext(
        state=state,
        dice=Dice.scripted(rolls),
        rules=RULESET.rules_with_defaults(rules or {}),
        orders=by_side,
    )
    close_out(ctx)
    assert ctx.dice.remaining == 0
    return ctx


# -- ships ---------------------------------------------------------------------------------------


def test_worlds_maintain_their_system_for_free() -> None:
    state = bare(resources=0)
    ships = fleet(state, "T1", TERRAN, "SOL", "B", "CA", "CA", "CL", "CL", "CL", "DD", "DD")
    run(state, [])  # 5+3+3+3*3+2+2 = 24 <= 40 from Sol 1 and Sol 2: no dice
    assert not any(u.damaged for u in ships)
    assert state.sides[TERRAN].resources == 0


def test_outpost_gives_six_and_the_stockpile_makes_up_the_difference() -> None:
    state = bare(resources=1)
    cl, dd1, dd2 = fleet(state, "T1", TERRAN, "BAR", "CL", "DD", "DD")
    run(state, [])  # 3 + 2 + (1 local + 1 stockpile)
    assert state.sides[TERRAN].resources == 0
    assert not any(u.damaged for u in (cl, dd1, dd2))


@pytest.mark.parametrize(("die", "damaged"), [(1, True), (2, False)])
def test_unmaintained_ship_rolls_plus_one_at_a_friendly_outpost(die: int, damaged: bool) -> None:
    state = bare(resources=0)
    cl, dd1, dd2 = fleet(state, "T1", TERRAN, "BAR", "CL", "DD", "DD")
    run(state, [die])  # the dearest ships are paid first: DD2 is left unmaintained
    assert (cl.damaged, dd1.damaged, dd2.damaged) == (False, False, damaged)


def test_unconnected_system_cannot_draw_on_the_stockpile() -> None:
    state = bare(resources=10)
    (dd,) = fleet(state, "T1", TERRAN, "TAU", "DD")
    (enemy,) = fleet(state, "I1", IMPERIAL, "TAU", "DD")
    ctx = run(state, [2, 6])  # no +1 at Tau Ceti: 2 <= M2, damaged; the Imperial DD is cut off
    assert dd.damaged and state.sides[TERRAN].resources == 10
    assert not enemy.damaged and state.sides[IMPERIAL].resources == 100
    damage = [e for e in ctx.events if "unmaintained" in e.text and e.location == "TAU"]
    # The enemy fleet sharing the system is not told: a fleet's contents and state are hidden.
    assert damage and damage[0].visible_to == ("Ter",)


def test_repair_ship_gives_plus_one() -> None:
    state = bare(resources=0)
    ar, dd = fleet(state, "T1", TERRAN, "TAU", "AR", "DD")
    run(state, [3, 2])  # AR: 3+1 > 2; DD: 2+1 > 2
    assert not ar.damaged and not dd.damaged
    state2 = bare(resources=0)
    (dd2,) = fleet(state2, "T1", TERRAN, "TAU", "DD")
    run(state2, [2])
    assert dd2.damaged


def test_connected_system_pays_from_stockpile_and_peace_doubles() -> None:
    state = bare(resources=5)
    cl, dd = fleet(state, "T1", TERRAN, "TAU", "CL", "DD")
    run(state, [])
    assert state.sides[TERRAN].resources == 0
    state = bare(resources=8)
    state.war_turn = 0
    cl, dd = fleet(state, "T1", TERRAN, "TAU", "CL", "DD")
    run(state, [2])  # CL costs 6, the DD's 4 cannot be paid: 2 <= 2
    assert state.sides[TERRAN].resources == 2 and dd.damaged and not cl.damaged


def test_fighters_need_maintenance() -> None:
    state = bare(resources=0)
    f = ground(state, TERRAN, "TAU2", "F")
    run(state, [1])
    assert f.damaged


@pytest.mark.parametrize(("rule", "survives"), [(False, True), (True, False)])
def test_damaged_ship_failing_again_house_rule(rule: bool, survives: bool) -> None:
    state = bare(resources=0)
    (dd,) = fleet(state, "T1", TERRAN, "TAU", "DD*")
    run(state, [1], {"unmaintained_damaged_destroyed": rule})
    assert (state.unit(TERRAN, dd.id) is not None) is survives


# -- ground forces -------------------------------------------------------------------------------


def test_ground_forces_cost_one_each_from_the_stockpile() -> None:
    state = bare(resources=3)
    units = [ground(state, TERRAN, "SOL1", c) for c in ("PD", "RT", "JT")]
    run(state, [])
    assert state.sides[TERRAN].resources == 0 and not any(u.damaged for u in units)


@pytest.mark.parametrize(
    ("planet", "die", "reduced"),
    [("SOL1", 1, True), ("SOL1", 2, False), ("TAU2", 2, True), ("TAU2", 3, False)],
)
def test_unpaid_ground_unit_reduced_on_two_or_less(planet: str, die: int, reduced: bool) -> None:
    state = bare(resources=0)
    rt = ground(state, TERRAN, planet, "RT")
    run(state, [die])
    assert rt.damaged is reduced


def test_ground_upkeep_doubles_in_peace() -> None:
    state = bare(resources=3)
    state.war_turn = 0
    a = ground(state, TERRAN, "SOL1", "RT")
    b = ground(state, TERRAN, "SOL1", "RT")
    run(state, [1])  # the first costs 2; 1 left cannot pay the second: 1+1 <= 2
    assert not a.damaged and b.damaged and state.sides[TERRAN].resources == 1


# -- close-out orders ----------------------------------------------------------------------------


def test_scrapping_damaged_ships_and_monitors_at_worlds_and_outposts() -> None:
    state = bare(resources=50)
    dd, m, cl = fleet(state, "T1", TERRAN, "BAR", "DD*", "M", "CL")
    (far,) = fleet(state, "T2", TERRAN, "TAU", "DD*")
    ctx = run(
        state,
        [],
        None,
        CloseOutOrder("scrap", [dd.id, m.id, cl.id], "Close!A2"),
        CloseOutOrder("scrap", [far.id], "Close!A3"),
    )
    assert {u.id for u in state.units} == {cl.id, far.id}
    # Upkeep first (BAR: 3+3+2 = 8, 6 local + 2; TAU: 2), then 1 + 1 back.
    assert state.sides[TERRAN].resources == 50 - 2 - 2 + 1 + 1
    refused = [e.text for e in ctx.events if e.kind == "skipped"]
    assert any(cl.id in t and "not damaged" in t for t in refused)
    assert any("Close!A3" in t and "World or Outpost" in t for t in refused)


def test_repair_at_world_or_with_repair_ship_paid_from_stockpile() -> None:
    state = bare(resources=100)
    (ca,) = fleet(state, "T1", TERRAN, "SOL", "CA*")
    _ar, cl = fleet(state, "T2", TERRAN, "TAU", "AR", "CL*")
    (dd,) = fleet(state, "T3", TERRAN, "TAU", "DD*")
    run(state, [], None, CloseOutOrder("repair", [ca.id, cl.id, dd.id]))
    assert (ca.damaged, cl.damaged, dd.damaged) == (False, False, True)
    # upkeep: SOL free, TAU 2+3+2 = 7 from the stockpile; repairs 3 + 3
    assert state.sides[TERRAN].resources == 100 - 7 - 6


def test_repair_refused_when_short_and_doubled_in_peace() -> None:
    state = bare(resources=5)
    state.war_turn = 0
    (ca,) = fleet(state, "T1", TERRAN, "SOL", "CA*")
    ctx = run(state, [], None, CloseOutOrder("repair", [ca.id]))
    assert ca.damaged and "costs 6" in ctx.events[-1].text
    state.sides[TERRAN].resources = 6
    run(state, [], None, CloseOutOrder("repair", [ca.id]))
    assert not ca.damaged and state.sides[TERRAN].resources == 0


def test_scrapping_comes_before_repair() -> None:
    state = bare(resources=100)
    (dd,) = fleet(state, "T1", TERRAN, "SOL", "DD*")
    ctx = run(
        state,
        [],
        None,
        CloseOutOrder("repair", [dd.id]),
        CloseOutOrder("scrap", [dd.id]),
    )
    assert state.unit(TERRAN, dd.id) is None
    assert any("no unit" in e.text for e in ctx.events if e.kind == "skipped")


def test_ground_repair_half_cost_on_friendly_undisputed_planet() -> None:
    state = bare(resources=100)
    pd = ground(state, TERRAN, "SOL1", "PD", damaged=True)
    jt = ground(state, TERRAN, "BAR1", "JT", damaged=True)
    rt = ground(state, TERRAN, "TAU2", "RT", damaged=True)
    fleet(state, "T1", TERRAN, "SOL", "TR")
    aboard = Unit("RT9", TERRAN, "RT", damaged=True, fleet="T1")
    state.units.append(aboard)
    state.map.planets["SOL2"].disputed = True
    disputed = ground(state, TERRAN, "SOL2", "RT", damaged=True)
    run(
        state,
        [],
        None,
        CloseOutOrder("ground repair", [pd.id, jt.id, rt.id, aboard.id, disputed.id]),
    )
    assert (pd.damaged, jt.damaged, rt.damaged, aboard.damaged, disputed.damaged) == (
        False,
        False,
        True,
        True,
        True,
    )
    # upkeep: 5 ground units + TR at Sol (free) = 5; repairs PD 5, JT 2
    assert state.sides[TERRAN].resources == 100 - 5 - 5 - 2


def test_augmentation_combines_two_reduced_fighters() -> None:
    state = bare(resources=100)
    f1 = ground(state, TERRAN, "SOL1", "F", damaged=True)
    f2 = ground(state, TERRAN, "SOL1", "F", damaged=True)
    f3 = ground(state, TERRAN, "SOL2", "F", damaged=True)
    f4 = ground(state, TERRAN, "SOL2", "F")
    ctx = run(
        state,
        [],
        None,
        CloseOutOrder("augment", [f1.id, f2.id]),
        CloseOutOrder("augment", [f3.id, f4.id]),
    )
    assert not f1.damaged and state.unit(TERRAN, f2.id) is None
    assert f3.damaged and state.unit(TERRAN, f4.id) is not None
    assert "reduced" in ctx.events[-1].text


def test_augmentation_of_monitors_in_one_system_and_not_across_places() -> None:
    state = bare(resources=100)
    m1, m2 = fleet(state, "T1", TERRAN, "SOL", "M*", "M*")
    f1 = ground(state, TERRAN, "SOL1", "F", damaged=True)
    f2 = ground(state, TERRAN, "SOL2", "F", damaged=True)
    ctx = run(
        state,
        [],
        None,
        CloseOutOrder("augment", [m1.id, m2.id]),
        CloseOutOrder("augment", [f1.id, f2.id]),
    )
    assert not m1.damaged and state.unit(TERRAN, m2.id) is None
    assert f1.damaged and "same place" in ctx.events[-1].text


def test_a_unit_named_twice_is_scrapped_and_paid_for_once() -> None:
    state = bare(resources=50)
    dd, _cl = fleet(state, "T1", TERRAN, "BAR", "DD*", "CL")
    run(state, [], None, CloseOutOrder("scrap", [dd.id] * 60, "Close!A2"))
    assert state.unit(TERRAN, dd.id) is None
    # Upkeep (BAR: DD 2 + CL 3 = 5, 6 local) costs nothing; one refund of 1.
    assert state.sides[TERRAN].resources == 50 + 1


def test_a_unit_cannot_be_augmented_with_itself() -> None:
    state = bare(resources=50)
    (m,) = fleet(state, "T1", TERRAN, "SOL", "M*")
    ctx = run(state, [], None, CloseOutOrder("augment", [m.id, m.id], "Close!A2"))
    assert state.unit(TERRAN, m.id) is not None and state.unit(TERRAN, m.id).damaged
    assert any(e.kind == "skipped" for e in ctx.events)


def test_the_stockpile_pays_where_a_path_leads_to_any_friendly_world() -> None:
    """ "a path of jump routes free of enemy fleets can be traced to a friendly World": any
    World, not only a home world.  An Imperial fleet sits at Sol (the Terran home worlds);
    the Terran ships at Tau Ceti trace a path to Alpha Centauri's Worlds and are maintained
    from the stockpile."""
    state = bare(resources=5)
    fleet(state, "I1", IMPERIAL, "SOL", "DD")
    cl, dd = fleet(state, "T1", TERRAN, "TAU", "CL", "DD")
    run(state, [])  # the Imperial DD at Sol is paid too: its own path runs to Ishtar
    assert state.sides[TERRAN].resources == 0
    assert not cl.damaged and not dd.damaged


def test_cut_off_from_every_friendly_world_the_stockpile_cannot_pay() -> None:
    state = bare(resources=5)
    fleet(state, "I1", IMPERIAL, "SOL", "DD")
    fleet(state, "I2", IMPERIAL, "ACE", "DD")
    fleet(state, "I3", IMPERIAL, "LAL", "DD")
    fleet(state, "I4", IMPERIAL, "PRO", "DD")
    fleet(state, "I5", IMPERIAL, "BAR", "DD")
    cl, dd = fleet(state, "T1", TERRAN, "TAU", "CL", "DD")
    run(state, [2, 2])  # the Imperial DDs are paid; the Terran CL (M3) and DD (M2) roll 2
    assert state.sides[TERRAN].resources == 5
    assert cl.damaged and dd.damaged


def test_each_refused_close_out_line_is_told_to_its_side_alone_and_the_next_line_goes_on() -> None:
    """A line naming a unit that is not there (or no longer: scrapped by an earlier line) is
    refused whole, with its cell; an augmentation that cannot be done says why; the lines
    after a refused one are still carried out."""
    state = bare(resources=100)
    dd, ca = fleet(state, "T1", TERRAN, "SOL", "DD*", "CA*")
    f1, f2 = fleet(state, "T2", TERRAN, "SOL", "F", "F")
    ctx = run(
        state,
        [],
        None,
        CloseOutOrder("scrap", ["DD99"], "Close!A2"),
        CloseOutOrder("scrap", [dd.id], "Close!A3"),
        CloseOutOrder("repair", [dd.id, ca.id], "Close!A4"),
        CloseOutOrder("augment", [f1.id, f2.id], "Close!A5"),
        CloseOutOrder("repair", [ca.id], "Close!A6"),
    )
    refused = [
        (e.phase, e.text, e.players, e.visible_to) for e in ctx.events if e.kind == "skipped"
    ]
    assert refused == [
        ("close-out", "Scrap DD99 (Close!A2) not carried out: no unit DD99", ("Ter",), ("Ter",)),
        ("close-out", "Repair DD1 CA1 (Close!A4) not carried out: no unit DD1", ("Ter",), ("Ter",)),
        (
            "close-out",
            "Augment F1 F2 (Close!A5) not carried out: both units must be reduced",
            ("Ter",),
            ("Ter",),
        ),
    ]
    assert state.unit(TERRAN, dd.id) is None and not ca.damaged  # A3 and A6 were carried out


def test_what_each_close_out_order_tells_its_side() -> None:
    """Scrapping, repair, ground repair and augmentation, each event whole (place, kind, words,
    side, audience, data); a carried troop named for scrap or repair is not a ship."""
    state = bare(resources=100)
    dd, _m, ca, _tr, rt = fleet(state, "T1", TERRAN, "SOL", "DD*", "M", "CA*", "TR", "RT")
    f1, f2 = fleet(state, "T2", TERRAN, "SOL", "F*", "F*")
    pd = ground(state, TERRAN, "SOL1", "PD", damaged=True)
    ctx = run(
        state,
        [],
        None,
        CloseOutOrder("scrap", [dd.id, rt.id], "Close!A2"),
        CloseOutOrder("repair", [ca.id, rt.id], "Close!A3"),
        CloseOutOrder("ground repair", [pd.id], "Close!A4"),
        CloseOutOrder("augment", [f1.id, f2.id], "Close!A5"),
    )
    told = [
        (e.location, e.kind, e.text, e.players, e.visible_to, dict(e.data))
        for e in ctx.events
        if e.phase == "close-out" and e.kind != "maintenance"
    ]
    ter = ("Ter",)
    assert told == [
        (
            "SOL",
            "scrap",
            "Terran scraps DD1: 1 resources back",
            ter,
            ter,
            {"unit": "DD1", "refund": 1},
        ),
        ("", "skipped", "Scrap RT1 (Close!A2) not carried out: RT1 is not a ship", ter, ter, {}),
        ("SOL", "repair", "Terran repairs CA1 for 3", ter, ter, {"unit": "CA1", "cost": 3}),
        ("", "skipped", "Repair RT1 (Close!A3) not carried out: RT1 is not a ship", ter, ter, {}),
        (
            "SOL",
            "repair",
            "Terran restores PD1 on Sol 1 for 5",
            ter,
            ter,
            {"unit": "PD1", "cost": 5},
        ),
        (
            "SOL",
            "augment",
            "Terran combines F1 and F2 into one full-strength F1",
            ter,
            ter,
            {"kept": "F1", "removed": "F2"},
        ),
    ]
    assert state.sides[TERRAN].resources == 100 + 1 - 3 - 5 - 2  # 2: the PD and RT upkeep
