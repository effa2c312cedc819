"""The administrative segment (`admin`): Intervention, Appeal, production, reinforcements,
construction, terraforming and outpost upgrades, each with scripted dice.

Most tests start from the real first turn (the default map and scenario); on that map the
Imperial home world nearest to the Terrans is Ishkur (BAR-WOL-KIS-ISH, three jumps), which is
where Intervention and Appeal forces arrive.
"""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.imperium_3m import RULESET, admin
from refassist.rulesets.imperium_3m.admin import (
    administrative_segment,
    appeal,
    construction,
    income,
    intervention,
    production,
    reinforcements,
    terraforming,
    upgrades,
)
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.orders import Arrival, Build, Orders, PlanetOrder, no_orders
from refassist.rulesets.imperium_3m.setup import new_game
from refassist.rulesets.imperium_3m.state import Fleet, Queued, State, Unit
from refassist.rulesets.imperium_3m.units import IMPERIAL, SIDES, TERRAN


def start() -> State:
    return new_game(
        NewGame(
            "Test",
            "id",
            (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com")),
            {},
        ),
        Dice(seed=1),
        {},
    )


def context(state: State, rolls: list[int], rules: dict | None = None, **orders: Orders):
    by_side = {s: no_orders(state.player_of(s), s, state.turn) for s in SIDES}
    by_side.update(orders)
    return TurnContext(
        state=state,
        dice=Dice.scripted(rolls),
        rules=RULESET.rules_with_defaults(rules or {}),
        orders=by_side,
    )


def imperial_orders(state: State, **kw) -> Orders:
    return Orders(player=state.player_of(IMPERIAL), side=IMPERIAL, turn=state.turn, **kw)


def terran_orders(state: State, **kw) -> Orders:
    return Orders(player=state.player_of(TERRAN), side=TERRAN, turn=state.turn, **kw)


def use_up(state: State, code: str, leave: int = 0) -> None:
    """Imperial ``code`` counters put in play (in fleet I9 at Ishkur) until ``leave`` are free."""
    if state.fleet("I9") is None:
        state.fleets.append(Fleet("I9", IMPERIAL, "ISH"))
    for n in range(admin.counters_free(state, IMPERIAL, code) - leave):
        state.units.append(Unit(f"{code}{60 + n}", IMPERIAL, code, fleet="I9"))


def granted_units(state: State, origin: str) -> list[Unit]:
    return [u for u in state.units if u.origin == origin]


def system_of(state: State, unit: Unit) -> str:
    fleet = state.fleet(unit.fleet)
    assert fleet is not None
    return fleet.system


# -- Imperial Intervention -----------------------------------------------------------------------


@pytest.mark.parametrize(("die", "modifier"), [(1, -1), (2, -1), (3, 0), (6, 0)])
def test_succession_civil_war_on_1_or_2(die: int, modifier: int) -> None:
    state = start()
    ctx = context(state, [1, 1, die])
    intervention(ctx)
    assert state.sides[IMPERIAL].initiative_modifier == modifier
    assert ctx.dice.remaining == 0
    assert all(e.visible_to == ("*",) for e in ctx.events)


def test_frontier_crisis_recalls_cheapest_ships_for_three_turns() -> None:
    state = start()
    ctx = context(state, [1, 2, 3])
    intervention(ctx)
    # SC1 (cost 2), then the DDs by id; the TR carrying RT in I3 is kept back.
    assert {u.id for u in state.units if u.side == IMPERIAL and u.code in ("SC", "DD")} == {
        "DD3",
        "DD4",
        "DD5",
    }
    assert [(q.code, q.due, q.source) for q in state.queue] == [
        ("SC", 4, "frontier"),
        ("DD", 4, "frontier"),
        ("DD", 4, "frontier"),
    ]
    assert state.unit(IMPERIAL, "TR1") is not None


def test_frontier_crisis_capitals_count_double_and_battle_zones_come_last() -> None:
    state = start()
    state.units = [u for u in state.units if not (u.side == IMPERIAL and u.fleet)]
    state.fleets = [f for f in state.fleets if f.side == TERRAN]
    state.fleets += [Fleet("I1", IMPERIAL, "DIN"), Fleet("I2", IMPERIAL, "GAS")]
    state.units += [
        Unit("DD1", IMPERIAL, "DD", fleet="I1"),
        Unit("CA1", IMPERIAL, "CA", fleet="I2"),
        Unit("CR1", IMPERIAL, "CR", fleet="I2"),
        Unit("SC1", IMPERIAL, "SC", fleet="I1"),
    ]
    state.fleets.append(Fleet("T9", TERRAN, "DIN"))
    state.units.append(Unit("DD9", TERRAN, "DD", fleet="T9"))
    ctx = context(state, [1, 2, 3])
    intervention(ctx)
    # CR1 (2 points, away from the Terran fleet at Dingir) then... only 1 point left: the
    # cheapest one-point ship is SC1 at Dingir, facing the enemy, taken last but still taken.
    assert sorted(q.code for q in state.queue) == ["CR", "SC"]
    ctx = context(state, [1, 2, 1])
    intervention(ctx)
    assert sorted(q.code for q in state.queue) == ["CR", "DD", "SC"]
    assert state.fleet("I1") is None
    ctx = context(state, [1, 2, 1])
    intervention(ctx)  # one point and only a capital left: nothing goes
    assert sorted(q.code for q in state.queue) == ["CR", "DD", "SC"]


def test_frontier_recall_returns_as_reinforcements_at_worlds() -> None:
    state = start()
    state.queue.append(Queued(IMPERIAL, "SC", state.turn, source="frontier"))
    ctx = context(state, [])
    reinforcements(ctx)
    sc = [u for u in state.units if u.side == IMPERIAL and u.code == "SC"]
    assert len(sc) == 2 and not state.queue


def test_imperial_visit_doubles_gains_and_rolls_mandate_with_plus_one() -> None:
    state = start()
    ctx = context(state, [2, 2, 6, 1])  # 4 = Visit; 6+1 = 7 forces; a d4 draws the JT counter
    intervention(ctx)
    imperial = state.sides[IMPERIAL]
    assert imperial.visit and imperial.mandate_turn == state.turn
    forces = granted_units(state, "mandate")
    assert sorted(u.code for u in forces) == ["AT", "BB", "BB", "CA", "CA", "CR", "CR", "JT"]
    ships = [u for u in forces if u.code != "JT"]
    assert {system_of(state, u) for u in ships} == {"ISH"}
    jt = next(u for u in forces if u.code == "JT")
    at = next(u for u in forces if u.code == "AT")
    assert jt.fleet == at.fleet
    ctx.glory(1, "major Empire victory")
    ctx.glory(-1, "major Terran victory")
    assert state.glory == 5 + 2 - 3


def test_recentralization_revokes_permissions_and_refunds_half() -> None:
    state = start()
    imperial = state.sides[IMPERIAL]
    imperial.permissions = ["CR", "CA", "B1"]
    state.queue += [
        Queued(IMPERIAL, "B1", 3, paid=16),
        Queued(IMPERIAL, "CA", 3, paid=15),
        Queued(IMPERIAL, "BB", 4, paid=23),
    ]
    before = imperial.resources
    ctx = context(state, [2, 3])
    intervention(ctx)
    assert imperial.permissions == []
    assert [q.code for q in state.queue] == ["CA"]
    assert imperial.resources == before + 8 + 11


def test_depression_cuts_income_for_three_turns_not_below_one() -> None:
    state = start()
    ctx = context(state, [3, 3])
    intervention(ctx)
    assert state.sides[IMPERIAL].depression == 3
    assert income(ctx, IMPERIAL)[0] == 15 - 10
    for p in state.map.planets.values():
        if p.owner == IMPERIAL:
            p.owner, p.marker = "", ""
    assert income(ctx, IMPERIAL)[0] == 1


def test_no_event_changes_nothing() -> None:
    state = start()
    before = state.copy()
    ctx = context(state, [3, 4])
    assert intervention(ctx) is False
    before.events = state.events
    assert state == before


def test_boom_adds_ten_and_cancels_depression() -> None:
    state = start()
    state.sides[IMPERIAL].depression = 2
    ctx = context(state, [4, 4])
    boom = intervention(ctx)
    assert boom and state.sides[IMPERIAL].depression == 0
    assert income(ctx, IMPERIAL, boom)[0] == 25


@pytest.mark.parametrize(
    ("die", "codes"),
    [
        (1, ["CA", "CA"]),
        (2, ["B1", "CA", "CA"]),
        (3, ["B1", "B1", "CA", "CA"]),
        (4, ["B1", "B2", "CA", "CA"]),
        (5, ["B2", "B2", "CA", "CR"]),
        (6, ["BB", "BB", "CA", "CA", "CR"]),
    ],
)
def test_mandated_offensive_forces_table(die: int, codes: list[str]) -> None:
    state = start()
    ctx = context(state, [4, 5, die])
    intervention(ctx)
    forces = granted_units(state, "mandate")
    assert sorted(u.code for u in forces) == codes
    assert {system_of(state, u) for u in forces} == {"ISH"}
    assert state.sides[IMPERIAL].mandate_turn == state.turn
    assert state.sides[IMPERIAL].mandate_glory == state.glory  # the index at their arrival
    assert not state.sides[IMPERIAL].visit
    assert sorted(state.sides[IMPERIAL].granted) == codes


def test_forces_arrive_at_home_world_nearest_the_enemy() -> None:
    state = start()
    state.map.planets["ISH1"].owner = TERRAN  # Ishkur fallen: Gashidda is next nearest
    ctx = context(state, [4, 5, 1])
    intervention(ctx)
    assert {system_of(state, u) for u in granted_units(state, "mandate")} == {"GAS"}


def test_token_reinforcements_and_missing_counters() -> None:
    state = start()
    ctx = context(state, [5, 5])
    intervention(ctx)
    assert sorted(u.code for u in granted_units(state, "intervention")) == ["CL", "DD"]
    # Every CL counter in play: the next Token Reinforcements bring only the DD.
    for _ in range(5):
        state.units.append(Unit(state.next_unit_id(IMPERIAL, "CL"), IMPERIAL, "CL", fleet="I1"))
    ctx = context(state, [5, 5])
    intervention(ctx)
    assert sorted(u.code for u in granted_units(state, "intervention")) == ["CL", "DD", "DD"]
    assert "not received" in ctx.events[-1].text


@pytest.mark.parametrize(
    ("die", "codes"),
    [(1, ["DD"]), (2, ["CA"]), (3, ["CA", "DD"]), (6, ["CA", "DD", "DD", "DD", "DD"])],
)
def test_imperial_reinforcements_one_capital_counting_double(die: int, codes: list[str]) -> None:
    state = start()
    ctx = context(state, [5, 6, die])
    intervention(ctx)
    assert sorted(u.code for u in granted_units(state, "intervention")) == codes


def test_peace_talks() -> None:
    state = start()
    ctx = context(state, [6, 6])
    intervention(ctx)
    assert state.peace_talks


def test_no_intervention_or_appeal_in_peacetime() -> None:
    state = start()
    state.war_turn = 0
    ctx = context(state, [], Imperial=imperial_orders(state, appeal="Finances"))
    administrative_segment(ctx)  # scripted dice are empty: any roll would raise
    assert any("no Appeals in peacetime" in e.text for e in ctx.events)


# -- Imperial Appeal -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "forces", "permissions", "prohibited"),
    [
        ((1, 1), [], [], True),
        ((1, 2), [], [], True),
        ((1, 3), ["CL", "DD"], [], False),
        ((2, 3), ["CR"], [], False),
        ((3, 3), ["CA"], [], False),
        ((3, 4), [], [], False),
        ((4, 4), [], ["CR", "CA"], False),
        ((4, 5), [], ["B1"], False),
        ((5, 5), [], ["B2"], False),
        ((5, 6), [], ["BB"], False),
        ((6, 6), [], ["ALL"], False),
    ],
)
def test_appeal_forces_column(roll, forces, permissions, prohibited) -> None:
    state = start()
    ctx = context(state, list(roll), Imperial=imperial_orders(state, appeal="Forces"))
    appeal(ctx)
    imperial = state.sides[IMPERIAL]
    got = granted_units(state, "appeal")
    assert sorted(u.code for u in got) == sorted(forces)
    assert {system_of(state, u) for u in got} <= {"ISH"}
    assert imperial.permissions == permissions
    assert imperial.appeals_prohibited is prohibited
    assert imperial.budget_bonus == 0


@pytest.mark.parametrize(
    ("roll", "grant", "bonus", "prohibited"),
    [
        ((1, 1), 0, 0, True),
        ((1, 2), 0, 0, True),
        ((1, 3), 0, 0, True),
        ((2, 3), 0, 0, False),
        ((3, 3), 0, 0, False),
        ((3, 4), 10, 0, False),
        ((4, 4), 0, 1, False),
        ((4, 5), 0, 2, False),
        ((5, 5), 0, 3, False),
        ((5, 6), 0, 4, False),
        ((6, 6), 0, 5, False),
    ],
)
def test_appeal_finances_column(roll, grant, bonus, prohibited) -> None:
    state = start()
    before = state.sides[IMPERIAL].resources
    ctx = context(state, list(roll), Imperial=imperial_orders(state, appeal="Finances"))
    appeal(ctx)
    imperial = state.sides[IMPERIAL]
    assert imperial.resources == before + grant
    assert imperial.budget_bonus == bonus
    assert imperial.appeals_prohibited is prohibited
    assert not granted_units(state, "appeal") and imperial.permissions == []
    assert income(ctx, IMPERIAL)[0] == 15 + bonus


def test_prohibited_appeal_rolls_nothing() -> None:
    state = start()
    state.sides[IMPERIAL].appeals_prohibited = True
    ctx = context(state, [], Imperial=imperial_orders(state, appeal="Forces"))
    appeal(ctx)
    assert "prohibited" in ctx.events[-1].text


# -- production ----------------------------------------------------------------------------------


def test_starting_income_by_the_formulas() -> None:
    state = start()
    ctx = context(state, [])
    # Terran: Sol 10 + Alpha Centauri A1 8 + B 8 + Barnard outpost 1.
    assert income(ctx, TERRAN)[0] == 27
    # Imperial: budget 10 + 3 Worlds + 2 connected Outposts.
    assert income(ctx, IMPERIAL)[0] == 15
    t, i = state.sides[TERRAN].resources, state.sides[IMPERIAL].resources
    production(ctx, False)
    assert (state.sides[TERRAN].resources, state.sides[IMPERIAL].resources) == (t + 27, i + 15)
    assert all(e.visible_to != ("*",) for e in ctx.events)


def test_unconnected_worlds_pay_six_and_outposts_nothing() -> None:
    state = start()
    state.fleets.append(Fleet("I9", IMPERIAL, "ACE"))
    state.units.append(Unit("DD9", IMPERIAL, "DD", fleet="I9"))
    state.fleets.append(Fleet("I8", IMPERIAL, "KIS"))  # an Imperial fleet: no Terran block
    ctx = context(state, [])
    assert income(ctx, TERRAN)[0] == 10 + 6 + 6 + 1
    state.fleets.append(Fleet("T9", TERRAN, "URU"))
    state.units.append(Unit("DD9", TERRAN, "DD", fleet="T9"))
    assert income(ctx, IMPERIAL)[0] == 14


def test_sol_pays_ten_while_a_terran_home_world_is_held_and_disputed_pays_nothing() -> None:
    state = start()
    ctx = context(state, [])
    state.map.planets["SOL1"].owner = IMPERIAL
    assert income(ctx, TERRAN)[0] == 27
    state.map.planets["SOL2"].disputed = True
    assert income(ctx, TERRAN)[0] == 17
    assert income(ctx, IMPERIAL)[0] == 16  # Sol 1 is an Imperial World now


# -- reinforcements ------------------------------------------------------------------------------


def test_one_unit_per_world_before_any_second_and_preference() -> None:
    state = start()
    state.queue += [Queued(TERRAN, "DD", 1, world="ACB")] + [
        Queued(TERRAN, "DD", 1) for _ in range(4)
    ]
    ctx = context(state, [])
    reinforcements(ctx)
    arrived = [e.data["planet"] for e in ctx.events if e.kind == "reinforcement"]
    assert arrived == ["ACB", "SOL1", "SOL2", "ACA1", "SOL1"]
    new_dds = [u for u in state.units if u.code == "DD" and u.side == TERRAN][-5:]
    assert {u.fleet for u in new_dds} == {"T1", "T2"}  # joined the fleets at Sol and A. Centauri


def test_reinforcement_new_fleet_monitors_ground_and_waiting() -> None:
    state = start()
    state.fleets = [f for f in state.fleets if f.system != "SOL" or f.side != TERRAN]
    state.units = [u for u in state.units if u.fleet != "T1"]
    state.queue += [
        Queued(TERRAN, "DD", 1, world="SOL1"),
        Queued(TERRAN, "M", 1, world="SOL2"),
        Queued(TERRAN, "RT", 1, world="ACA1"),
        Queued(TERRAN, "OP", 1, world="ACB"),
    ]
    ctx = context(state, [1])  # the RT counter drawn at random: the first free one
    reinforcements(ctx)
    dd = next(u for u in state.units if u.side == TERRAN and u.code == "DD" and u.fleet == "T1")
    assert state.fleet("T1").system == "SOL"  # lowest free fleet number
    m = next(u for u in state.units if u.side == TERRAN and u.code == "M")
    assert m.fleet != dd.fleet and state.fleet(m.fleet).system == "SOL"
    rt = [u for u in state.units if u.side == TERRAN and u.code == "RT" and u.planet == "ACA1"]
    assert len(rt) == 2
    # The outpost has no transport with room at Alpha Centauri: it waits a turn.
    assert [(q.code, q.due) for q in state.queue] == [("OP", 2)]


def test_ground_unit_boards_a_transport_when_the_planet_is_full() -> None:
    state = start()
    acb = state.map.planets["ACB"]
    for n in range(acb.capacity - 1):
        state.units.append(Unit(f"F{30 + n}", TERRAN, "F", planet="ACB"))
    state.units.append(Unit("TR9", TERRAN, "TR", fleet="T2"))
    state.queue.append(Queued(TERRAN, "PD", 1, world="ACB"))
    for world in ("SOL1", "SOL2", "ACA1"):
        state.queue.append(Queued(TERRAN, "SC", 1, world=world))
    ctx = context(state, [])
    reinforcements(ctx)
    pd = [u for u in state.units if u.side == TERRAN and u.code == "PD"][-1]
    assert pd.fleet == "T2" and not pd.planet


def test_a_monitor_needs_room_in_the_planetary_box_it_stands_in() -> None:
    """ "Monitors are placed in a planetary box": a monitor due at a World whose box is full
    goes to the next World with room, and waits on the track when none has any."""
    state = start()
    room = state.box_room("SOL1")
    state.units += [Unit(f"F{40 + n}", TERRAN, "F", planet="SOL1") for n in range(room)]
    assert state.box_room("SOL1") == 0
    state.queue.append(Queued(TERRAN, "M", 1, world="SOL1"))
    ctx = context(state, [])
    reinforcements(ctx)
    # Sol's monitors stand in Sol 1's box (the World with the lower code), which is full, so
    # Sol 2 cannot take it either: it goes on to Alpha Centauri.
    (m,) = [u for u in state.units if u.side == TERRAN and u.code == "M"]
    assert state.fleet(m.fleet).system == "ACE"  # Alpha Centauri

    state = start()
    for planet in ("SOL1", "ACA1", "ACB"):
        room = state.box_room(planet)
        state.units += [Unit(f"F{planet}{n}", TERRAN, "F", planet=planet) for n in range(room)]
    state.queue.append(Queued(TERRAN, "M", 1, world="SOL1"))
    ctx = context(state, [])
    reinforcements(ctx)
    assert not [u for u in state.units if u.side == TERRAN and u.code == "M"]
    assert [(q.code, q.due) for q in state.queue] == [("M", 2)]


# -- construction --------------------------------------------------------------------------------


def test_construction_pays_queues_and_refuses() -> None:
    state = start()
    state.sides[TERRAN].resources = 40
    orders = terran_orders(
        state,
        builds=[
            Build("CA", 1, cell="Builds!A2"),
            Build("BB", 1, cell="Builds!A3"),
            Build("DD", 5, cell="Builds!A4"),
        ],
    )
    ctx = context(state, [], Terran=orders)
    construction(ctx)
    assert [(q.code, q.due, q.paid) for q in state.queue] == [
        ("CA", 3, 15),
        ("DD", 2, 5),
        ("DD", 2, 5),
        ("DD", 2, 5),
        ("DD", 2, 5),
        ("DD", 2, 5),
    ]
    assert state.sides[TERRAN].resources == 0
    skipped = [e.text for e in ctx.events if e.kind == "skipped"]
    assert any("Builds!A3" in t and "Terran B" in t for t in skipped)


def test_terran_bb_after_a_b_is_lost_and_counter_limit() -> None:
    state = start()
    state.sides[TERRAN].resources = 500
    state.sides[TERRAN].bb_unlocked = True
    ctx = context(state, [], Terran=terran_orders(state, builds=[Build("BB", 6)]))
    construction(ctx)
    assert [q.code for q in state.queue] == ["BB"] * 5
    assert state.sides[TERRAN].resources == 500 - 5 * 24
    assert "counter" in ctx.events[-1].text


def test_imperial_restricted_ships_need_permission_and_peace_doubles() -> None:
    state = start()
    state.sides[IMPERIAL].resources = 100
    orders = imperial_orders(state, builds=[Build("CA"), Build("DD")])
    ctx = context(state, [], Imperial=orders)
    construction(ctx)
    assert [q.code for q in state.queue] == ["DD"]
    state.queue.clear()
    state.sides[IMPERIAL].permissions = ["ALL"]
    state.war_turn = 0
    ctx = context(state, [], Imperial=orders)
    construction(ctx)
    assert [(q.code, q.paid) for q in state.queue] == [("CA", 30), ("DD", 10)]


# -- terraforming and upgrades -------------------------------------------------------------------


def test_terraforming_completes_and_needs_a_connected_outpost() -> None:
    state = start()
    state.sides[TERRAN].resources = 30
    bar = state.map.planets["BAR1"]  # N2: eight turns
    bar.terraform_paid = 7
    orders = terran_orders(state, terraform=[PlanetOrder("BAR1"), PlanetOrder("ERI1")])
    ctx = context(state, [], Terran=orders)
    terraforming(ctx)
    assert (bar.type, bar.original_type) == ("A1", "N2")
    assert state.sides[TERRAN].resources == 20
    assert any("ERI1" in e.text and "no Outpost" in e.text for e in ctx.events)
    eri = state.map.planets["ERI1"]
    eri.owner, eri.marker = TERRAN, "Outpost"
    state.fleets.append(Fleet("I9", IMPERIAL, "ERI"))
    state.units.append(Unit("DD9", IMPERIAL, "DD", fleet="I9"))
    ctx = context(state, [], Terran=terran_orders(state, terraform=[PlanetOrder("ERI1")]))
    terraforming(ctx)
    assert eri.terraform_paid == 0 and "not connected" in ctx.events[-1].text
    state.units.pop()
    terraforming(ctx)
    assert eri.terraform_paid == 1 and eri.type == "N1"


def test_outpost_upgrade_in_peacetime_on_type_a_only() -> None:
    state = start()
    state.sides[TERRAN].resources = 30
    tau = state.map.planets["TAU2"]
    tau.owner, tau.marker, tau.upgrade_paid = TERRAN, "Outpost", 3
    orders = terran_orders(state, upgrades=[PlanetOrder("TAU2"), PlanetOrder("BAR1")])
    ctx = context(state, [], Terran=orders)
    upgrades(ctx)
    assert tau.marker == "Outpost" and "peacetime" in ctx.events[0].text
    state.war_turn = 0
    upgrades(ctx)
    assert tau.marker == "World" and tau.upgrade_paid == 0
    assert "only type A" in ctx.events[-1].text
    assert state.sides[TERRAN].resources == 20


# -- what the administrative segment tells, whole ------------------------------------------------


def test_forces_received_are_told_whole_with_what_did_not_come() -> None:
    """An Appeal's forces asked for at a world that is no Imperial home world go to the one
    nearest the Terrans (Ishkur); the first jump troop rides the attack transport (room for
    one), the second stands on the planet; the ships join a fleet there; the fifth BB has no
    counter.  Everyone hears of it."""
    state = start()
    sheet = imperial_orders(state, forces_world="NOPE")
    ctx = context(state, [1] * 20, **{IMPERIAL: sheet})
    codes = ["AT", "JT", "JT", "CA", "BB", "BB", "BB", "BB", "BB"]
    admin.receive_forces(ctx, codes, "appeal", "Imperial Appeal (Forces)")
    event = ctx.events[-1]
    assert (event.phase, event.location, event.kind) == ("administration", "ISH", "forces")
    assert (event.players, event.visible_to) == (("Empire",), ("*",))
    assert event.text == (
        "Imperial Appeal (Forces): AT2, JT1, JT2, CA2, BB1, BB2, BB3, BB4 arrive at Ishkur 1 "
        "(NOPE, asked for, is not an Imperial home world the Empire holds); not received (no "
        "counter or room left): BB"
    )
    assert dict(event.data) == {
        "origin": "appeal",
        "units": ["AT2", "JT1", "JT2", "CA2", "BB1", "BB2", "BB3", "BB4"],
        "missing": ["BB"],
    }
    where = {u.id: (u.fleet, u.planet) for u in state.units if u.origin == "appeal"}
    assert where["JT1"] == where["AT2"] and where["JT2"] == ("", "ISH1")
    assert state.fleet(where["AT2"][0]).system == "ISH"
    assert state.sides[IMPERIAL].granted[-8:] == ["AT", "JT", "JT", "CA", "BB", "BB", "BB", "BB"]


def test_forces_go_to_the_home_world_the_empire_asks_for() -> None:
    state = start()
    ctx = context(state, [1] * 5, **{IMPERIAL: imperial_orders(state, forces_world="GAS1")})
    admin.receive_forces(ctx, ["DD"], "intervention", "Imperial Intervention")
    event = ctx.events[-1]
    assert (event.location, event.text) == (
        "GAS",
        "Imperial Intervention: DD6 arrive at Gashidda 1",
    )


def test_no_forces_arrive_without_an_imperial_home_world() -> None:
    state = start()
    for p in state.map.planets.values():
        if p.home == IMPERIAL:
            p.owner, p.marker = TERRAN, "World"
    ctx = context(state, [1] * 5)
    admin.receive_forces(ctx, ["DD", "SC"], "intervention", "Imperial Intervention")
    event = ctx.events[-1]
    assert (event.location, event.text, dict(event.data)) == (
        "",
        "Imperial Intervention: no forces; not received (no Imperial home world is held): DD, SC",
        {"origin": "intervention", "units": [], "missing": ["DD", "SC"]},
    )


def test_a_frontier_crisis_is_told_whole() -> None:
    """4 points: the scout and the destroyer (no cargo) go first, then the transport with its
    troop aboard (last, being loaded), whose fleet is then left with nothing but the troop,
    which goes with it; the carrier (two points, a capital) no longer fits; the monitor
    stays.  Only the Empire hears of it."""
    state = start()
    state.units = [u for u in state.units if not (u.side == IMPERIAL and u.fleet)]
    state.fleets = [f for f in state.fleets if f.side == TERRAN]
    state.fleets += [Fleet("I1", IMPERIAL, "GAS"), Fleet("I2", IMPERIAL, "GAS")]
    state.fleets += [Fleet("I3", IMPERIAL, "GAS")]
    state.units += [
        Unit("TR1", IMPERIAL, "TR", fleet="I1"),
        Unit("RT1", IMPERIAL, "RT", fleet="I1", strength=6, reduced_strength=3),
        Unit("DD1", IMPERIAL, "DD", fleet="I1"),
        Unit("CV1", IMPERIAL, "CV", fleet="I2"),
        Unit("F1", IMPERIAL, "F", fleet="I2"),
        Unit("M1", IMPERIAL, "M", fleet="I3"),
        Unit("SC1", IMPERIAL, "SC", fleet="I3"),
    ]
    ctx = context(state, [3, 3, 4])
    ctx.dice.nd6(2, "the Intervention table")
    admin.frontier_crisis(ctx)
    event = ctx.events[-1]
    due = state.turn + 3
    assert (event.phase, event.location, event.kind, event.players) == (
        "administration",
        "",
        "intervention",
        ("Empire",),
    )
    assert event.text == (
        f"Frontier Crisis: 4 points of ships recalled to the frontier until turn {due}: "
        "SC1, DD1, TR1 (with RT1 aboard)"
    )
    assert dict(event.data) == {
        "roll": 4,
        "removed": ["SC1", "DD1", "TR1"],
        "carried": ["RT1"],
        "due": due,
    }
    assert event.dice == (3,)
    assert [(q.side, q.code, q.due, q.source) for q in state.queue] == [
        (IMPERIAL, code, due, "frontier") for code in ("SC", "DD", "TR", "RT")
    ]
    assert {u.id for u in state.units if u.side == IMPERIAL and u.fleet} == {"CV1", "F1", "M1"}


def reinforcement_events(ctx: TurnContext) -> list[tuple[str, tuple[str, ...], str]]:
    return [(e.location, e.visible_to, e.text) for e in ctx.events]


def test_reinforcements_arrive_one_per_world_wishes_first_each_told() -> None:
    """Due this turn: a DD asked for at Sol 2, a CA and a SC with no wish, an RT asked for
    aboard T1 (at Sol); a BB due next turn waits.  The DD is placed first (its wish), then one
    unit per World in turn: the CA at Sol 1, the SC at Alpha Centauri A1; the RT would board T1
    at Sol, but both Sol Worlds have had their unit, so it goes to Alpha Centauri B, and the
    Terran player is told why."""
    state = start()
    turn = state.turn
    state.queue = [
        Queued(TERRAN, "CA", turn, source="build"),
        Queued(TERRAN, "SC", turn, source="build"),
        Queued(TERRAN, "RT", turn, source="build", world="T1"),
        Queued(TERRAN, "BB", turn + 1, source="build"),
    ]
    sheet = terran_orders(state, arrivals=[Arrival("DD7", "SOL2")])
    ctx = context(state, [1], **{TERRAN: sheet})  # the die draws the RT counter
    state.queue.insert(0, Queued(TERRAN, "DD", turn, source="build", unit_id="DD7"))
    admin.reinforcements(ctx)
    terra = ("Terra",)
    assert reinforcement_events(ctx) == [
        ("SOL", terra, "Terran DD7 arrives at Sol 2 (fleet T1)"),
        ("SOL", terra, "Terran CA3 arrives at Sol 1 (fleet T1)"),
        ("ACE", terra, "Terran SC2 arrives at Alpha Centauri A1 (fleet T2)"),
        (
            "",
            terra,
            "RT could not be placed at SOL1 as asked: a World still without a new unit this "
            "turn comes first (or it is not a World of yours)",
        ),
        ("ACE", terra, "Terran RT4 arrives at Alpha Centauri B (Alpha Centauri B)"),
    ]
    assert ctx.events[0].data == {"unit": "DD7", "planet": "SOL2", "source": "build"}
    assert [(q.code, q.due) for q in state.queue] == [("BB", turn + 1)]


def test_a_troop_boards_the_empty_transport_it_was_sent_to() -> None:
    state = start()
    for u in state.units:
        if u.id == "RT3" and u.side == TERRAN:
            u.fleet, u.planet = "", "SOL1"
    state.queue = [Queued(TERRAN, "RT", state.turn, source="build", world="T1")]
    ctx = context(state, [1])
    admin.reinforcements(ctx)
    assert reinforcement_events(ctx) == [
        ("SOL", ("Terra",), "Terran RT4 arrives at Sol 1 (aboard T1, as asked)")
    ]
    rt = state.unit(TERRAN, "RT4")
    assert rt is not None and (rt.fleet, rt.planet, rt.hex) == ("T1", "", 0)


def test_imperial_reinforcements_take_the_asked_capital_and_run_over_to_cruisers() -> None:
    """A 6: the CR the Empire asks for (two points), then four light ships: the two DD
    counters still free, then CLs.  Told with its die, then received at Ishkur."""
    state = start()
    use_up(state, "DD", leave=2)
    assert admin.counters_free(state, IMPERIAL, "DD") == 2
    sheet = imperial_orders(state, reinforcement_capital="CR")
    ctx = context(state, [6] + [1] * 10, **{IMPERIAL: sheet})
    admin.imperial_reinforcements(ctx)
    told, received = ctx.events[-2:]
    assert (told.phase, told.location, told.kind, told.players) == (
        "administration",
        "",
        "intervention",
        ("Empire",),
    )
    assert told.text == "Imperial Reinforcements: 6 points of ships"
    assert dict(told.data) == {"roll": 6, "ships": ["CR", "DD", "DD", "CL", "CL"]}
    assert told.dice == (ctx.dice.log[0].seq,)
    assert received.data["missing"] == [] and len(received.data["units"]) == 5


def test_imperial_reinforcements_without_a_capital_when_asked_so_or_none_is_free() -> None:
    state = start()
    ctx = context(
        state, [3] + [1] * 10, **{IMPERIAL: imperial_orders(state, reinforcement_capital="none")}
    )
    admin.imperial_reinforcements(ctx)
    assert ctx.events[-2].data["ships"] == ["DD", "DD", "DD"]
    state = start()
    for code in ("CA", "CR", "B1", "B2", "BB", "CS", "CV"):
        use_up(state, code)
    ctx = context(state, [2] + [1] * 10)
    admin.imperial_reinforcements(ctx)
    assert ctx.events[-2].data["ships"] == ["DD", "DD"]


@pytest.mark.parametrize(
    ("aboard", "code", "room"),
    [
        (("TR",), "RT", 1),
        (("TR", "RT"), "RT", 0),
        (("TR", "JT"), "PD", 0),
        (("TR", "PD"), "OP", 0),
        (("TR", "OP"), "JT", 0),
        (("AT", "TR"), "RT", 2),
        # A carrier's hangar holds three fighters; troops need a transport.
        (("CV",), "F", 3),
        (("CV",), "RT", 0),
        (("CV", "F", "F"), "F", 1),
        # Fighters beyond the hangar take transport places.
        (("CV", "F", "F", "F", "F", "TR"), "F", 0),
        (("CV", "F", "F", "F", "F", "TR"), "RT", 0),
        (("TR", "TR", "F"), "RT", 1),
        (("TR", "TR", "F"), "F", 1),
        (("CV", "TR"), "F", 4),
    ],
)
def test_room_aboard_a_fleet(aboard: tuple[str, ...], code: str, room: int) -> None:
    state = start()
    state.fleets.append(Fleet("T9", TERRAN, "SOL"))
    for n, c in enumerate(aboard):
        state.units.append(Unit(f"{c}{50 + n}", TERRAN, c, fleet="T9"))
    ctx = context(state, [])
    fleet = state.fleet("T9")
    assert fleet is not None
    assert admin.carry_room(ctx, fleet, code) == room


def told(ctx: TurnContext) -> list[tuple[str, str, str, tuple[str, ...], dict]]:
    return [(e.location, e.kind, e.text, e.visible_to, dict(e.data)) for e in ctx.events]


def test_terraforming_orders_refused_and_paid_are_each_told_to_their_side() -> None:
    """Terran orders in sheet order: a planet that does not exist, Barnard 1 (paid), Barnard 1
    again, Sol 1 (type A), Eridani 1 (no Outpost); then the money runs out with exactly one
    instalment left for the second Outpost, which is paid (10 is enough)."""
    state = start()
    state.sides[TERRAN].resources = 20
    eri = state.map.planets["ERI1"]
    eri.owner, eri.marker = TERRAN, "Outpost"
    cells = ["B40", "B41", "B42", "B43", "", "B45"]
    names = ["XXX9", "BAR1", "BAR1", "SOL1", "PRO3", "ERI1"]
    orders = [PlanetOrder(n, cell=c) for n, c in zip(names, cells, strict=True)]
    ctx = context(state, [], Terran=terran_orders(state, terraform=orders))
    terraforming(ctx)
    terra = ("Terra",)
    skip = "Terraforming {} ({}) not carried out: {}"
    assert told(ctx) == [
        ("", "skipped", skip.format("XXX9", "B40", "there is no planet XXX9"), terra, {}),
        (
            "BAR",
            "terraform",
            "Barnard 1 terraforming paid 1 of 8 turns",
            terra,
            {"planet": "BAR1", "paid": 1},
        ),
        (
            "",
            "skipped",
            skip.format("BAR1", "B42", "it is already being paid for this turn"),
            terra,
            {},
        ),
        (
            "",
            "skipped",
            skip.format("SOL1", "B43", "Sol 1 is type A1; only N1 and N2 can be terraformed"),
            terra,
            {},
        ),
        (
            "",
            "skipped",
            skip.format("PRO3", "sheet", "Procyon 3 is type N3; only N1 and N2 can be terraformed"),
            terra,
            {},
        ),
        (
            "ERI",
            "terraform",
            "Eridani 1 terraforming paid 1 of 10 turns",
            terra,
            {"planet": "ERI1", "paid": 1},
        ),
    ]
    assert (state.map.planets["BAR1"].terraform_side, eri.terraform_side) == (TERRAN, TERRAN)
    assert state.sides[TERRAN].resources == 0
    ctx = context(state, [], Terran=terran_orders(state, terraform=[PlanetOrder("ERI1")]))
    terraforming(ctx)
    assert ctx.events[-1].text.endswith("it costs 10 and only 0 resources are left")
    assert eri.terraform_paid == 1


def test_an_effort_taken_over_and_completed_is_told_and_cleared() -> None:
    """The Empire's effort on an Outpost the Terrans now hold is theirs from the next payment;
    completing it clears the count and the side and records the old type."""
    state = start()
    state.sides[TERRAN].resources = 10
    bar = state.map.planets["BAR1"]
    bar.terraform_paid, bar.terraform_side = 7, IMPERIAL
    ctx = context(state, [], Terran=terran_orders(state, terraform=[PlanetOrder("BAR1")]))
    terraforming(ctx)
    assert told(ctx) == [
        (
            "BAR",
            "terraform",
            "Barnard 1 is terraformed: now type A1 (was N2)",
            ("Terra",),
            {"planet": "BAR1", "paid": 0},
        ),
    ]
    assert (bar.type, bar.original_type, bar.terraform_paid, bar.terraform_side) == (
        "A1",
        "N2",
        0,
        "",
    )


def test_outpost_upgrades_refused_and_paid_are_each_told_to_their_side() -> None:
    state = start()
    state.war_turn = 0
    state.sides[TERRAN].resources = 20
    tau = state.map.planets["TAU2"]
    tau.owner, tau.marker = TERRAN, "Outpost"
    names = ["XXX9", "TAU2", "TAU2", "SOL1", "BAR1"]
    orders = [PlanetOrder(n, cell=f"C{50 + i}") for i, n in enumerate(names)]
    ctx = context(state, [], Terran=terran_orders(state, upgrades=orders))
    upgrades(ctx)
    terra = ("Terra",)
    skip = "Upgrade {} (C{}) not carried out: {}"
    assert told(ctx) == [
        ("", "skipped", skip.format("XXX9", 50, "there is no planet XXX9"), terra, {}),
        ("TAU", "upgrade", "Tau Ceti 2 upgrade paid 1 of 4 turns", terra, {"planet": "TAU2"}),
        (
            "",
            "skipped",
            skip.format("TAU2", 52, "it is already being paid for this turn"),
            terra,
            {},
        ),
        ("", "skipped", skip.format("SOL1", 53, "Sol 1 holds no Outpost of yours"), terra, {}),
        (
            "",
            "skipped",
            skip.format("BAR1", 54, "Barnard 1 is type N2; only type A planets take Worlds"),
            terra,
            {},
        ),
    ]
    assert (tau.upgrade_paid, state.sides[TERRAN].resources) == (1, 10)


@pytest.mark.parametrize(
    ("column", "roll", "text"),
    [
        ("Forces", (1, 2), "3 - Further Appeals Prohibited (for the rest of this war)"),
        ("Forces", (2, 2), "4 - forces: CL, DD"),
        ("Forces", (3, 4), "7 - no result"),
        ("Forces", (4, 4), "8 - CR/CA production permitted"),
        ("Forces", (6, 6), "12 - all ships may be produced"),
        ("Finances", (3, 4), "7 - a one-time grant of 10 resources"),
        ("Finances", (4, 5), "9 - budget increased by 2 a turn (now +3)"),
    ],
)
def test_an_appeal_is_told_to_the_empire_with_its_dice(
    column: str, roll: tuple[int, int], text: str
) -> None:
    """The result as the Empire reads it; a budget increase adds to the one already won (+1
    here), a permission already held is not listed twice."""
    state = start()
    state.sides[IMPERIAL].budget_bonus = 1
    state.sides[IMPERIAL].permissions = ["CA"]
    ctx = context(state, [*roll, 1, 1], Imperial=imperial_orders(state, appeal=column))
    appeal(ctx)
    event = next(e for e in ctx.events if e.kind == "appeal")
    assert (event.location, event.players, event.text) == (
        "",
        ("Empire",),
        f"Imperial Appeal ({column}): {text}",
    )
    assert dict(event.data)["column"] == column and event.data["roll"] == sum(roll)
    assert event.dice == tuple(r.seq for r in ctx.dice.log[:2])
    assert state.sides[IMPERIAL].permissions.count("CA") == 1


@pytest.mark.parametrize(
    ("column", "peace", "prohibited", "why"),
    [
        ("Ships", False, False, "'Ships' is not an Appeal column (Forces or Finances)"),
        ("Forces", True, False, "there are no Appeals in peacetime"),
        ("Finances", False, True, "further Appeals are prohibited for the rest of this war"),
    ],
)
def test_an_appeal_not_made_says_why_to_the_empire_alone(
    column: str, peace: bool, prohibited: bool, why: str
) -> None:
    state = start()
    if peace:
        state.war_turn = 0
    state.sides[IMPERIAL].appeals_prohibited = prohibited
    sheet = imperial_orders(state, appeal=column, appeal_cell="B9")
    ctx = context(state, [], Imperial=sheet)
    appeal(ctx)
    assert told(ctx) == [
        ("", "skipped", f"Imperial Appeal ({column}, B9) not made: {why}", ("Empire",), {})
    ]


@pytest.mark.parametrize(
    ("dice", "texts", "audience"),
    [
        (
            [1, 1, 2],
            [
                "Imperial Intervention: 2 - Imperial Succession",
                "Imperial Succession: 2 - Civil War, -1 to every Imperial initiative roll this "
                "turn",
            ],
            ("Empire",),
        ),
        (
            [1, 1, 3],
            [
                "Imperial Intervention: 2 - Imperial Succession",
                "Imperial Succession: 3 - an orderly succession, no effect",
            ],
            ("Empire",),
        ),
        (
            [2, 2, 1],
            [
                "Imperial Intervention: 4 - Imperial Visit",
                "Imperial Visit: glory gains are doubled and losses tripled this turn",
            ],
            ("Empire",),
        ),
        (
            [3, 3],
            [
                "Imperial Intervention: 6 - Economic Depression",
                "Economic Depression: Imperial income -10 (not below 1) this turn and the next two",
            ],
            ("Empire",),
        ),
        (
            [6, 6],
            [
                "Imperial Intervention: 12 - Peace Talks",
                "Peace Talks: this turn no attacks and no moves into systems holding enemy units",
            ],
            ("Terra", "Empire"),
        ),
    ],
)
def test_the_intervention_table_is_told_in_the_administration(
    dice: list[int], texts: list[str], audience: tuple[str, ...]
) -> None:
    """The roll, then what it brings, each with the dice that decided it; the Peace Talks are
    told to both sides (they bind both)."""
    state = start()
    ctx = context(state, [*dice, 1, 1, 1, 1])
    intervention(ctx)
    first, second = ctx.events[:2]
    assert [first.text, second.text] == texts
    assert (first.phase, first.location, first.kind) == ("administration", "", "intervention")
    assert (second.phase, second.location, second.kind) == ("administration", "", "intervention")
    assert first.dice == (ctx.dice.log[0].seq, ctx.dice.log[1].seq)
    assert set(second.players) == set(audience)
    if texts[0].endswith("Imperial Succession"):
        assert second.dice == (ctx.dice.log[2].seq,)
    else:
        assert second.dice == ()


def test_a_unit_due_waits_on_the_track_when_its_side_holds_no_world() -> None:
    state = start()
    for p in state.map.planets.values():
        if p.owner == IMPERIAL and p.marker == "World":
            p.owner, p.marker = TERRAN, "World"
    state.queue = [Queued(IMPERIAL, "DD", state.turn, source="build")]
    ctx = context(state, [])
    reinforcements(ctx)
    assert told(ctx) == [
        (
            "",
            "reinforcement",
            "DD stays on the turn record track until next turn: the side holds no World",
            ("Empire",),
            {},
        )
    ]
    assert [(q.code, q.due) for q in state.queue] == [("DD", state.turn + 1)]


def test_the_last_turn_of_a_depression_still_cuts_the_income() -> None:
    state = start()
    state.sides[IMPERIAL].depression = 1
    ctx = context(state, [])
    assert income(ctx, IMPERIAL)[0] == 5


@pytest.mark.parametrize(
    ("fleet", "where"),
    [
        ("Home Guard", "forms fleet Home Guard, as asked"),
        ("t1", "joins fleet T1, as asked"),
        # T2 stands at Alpha Centauri, not at Sol: the usual placement.
        ("T2", "fleet T1"),
        # An Imperial fleet's name cannot be taken.
        ("i1", "fleet T1"),
    ],
)
def test_a_new_ship_joins_or_forms_the_fleet_its_arrival_names(fleet: str, where: str) -> None:
    state = start()
    state.queue = [Queued(TERRAN, "DD", state.turn, source="build", unit_id="DD7")]
    sheet = terran_orders(state, arrivals=[Arrival("DD7", "SOL1", fleet)])
    ctx = context(state, [], **{TERRAN: sheet})
    reinforcements(ctx)
    assert [e.text for e in ctx.events] == [f"Terran DD7 arrives at Sol 1 ({where})"]
    dd = state.unit(TERRAN, "DD7")
    assert dd is not None and state.fleet(dd.fleet).system == "SOL"


def test_a_unit_due_with_every_counter_in_play_is_lost_and_told() -> None:
    state = start()
    use_up(state, "BB")
    state.queue = [Queued(IMPERIAL, "BB", state.turn, source="built")]
    ctx = context(state, [])
    reinforcements(ctx)
    assert told(ctx) == [
        (
            "",
            "reinforcement",
            "BB due from the turn record track is lost: every BB counter is in play",
            ("Empire",),
            {},
        )
    ]
    assert state.queue == []
