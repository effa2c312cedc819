"""Planetary battles of Imperium 3rd Millennium (`planet_battle`) with scripted dice:
bombardment, landing, surface battle, capture and glory, disputed planets, evacuation."""

from __future__ import annotations

import pytest

from refassist.rulesets.imperium_3m import planet_battle as pb
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.state import Planet, State
from refassist.rulesets.imperium_3m.units import IMPERIAL, TERRAN
from tests.imperium.test_space_battle import add, context, make_state


def planet_state(
    owner: str = IMPERIAL, marker: str = "Outpost", hexes: int = 5, type_: str = "A1", **kw: str
) -> State:
    """System B with planet P (owned by ``owner``) and nothing on it yet."""
    return make_state(
        [Planet("P", "Planet P", "B", type_, hexes, owner=owner, marker=marker, **kw)]
    )


def kinds(ctx: TurnContext) -> list[str]:
    return [e.kind for e in ctx.events]


def planet(ctx: TurnContext) -> Planet:
    return ctx.state.map.planets["P"]


# -- bombardment ---------------------------------------------------------------------------------


def test_bombardment_defender_fighters_fire_then_one_die_per_3_torpedo_factors() -> None:
    state = planet_state()
    add(state, TERRAN, "CA", fleet="T1")  # T5: one bombardment die
    add(state, TERRAN, "TR", fleet="T1")
    add(state, IMPERIAL, "F", planet="P")
    add(state, IMPERIAL, "PD", planet="P")
    # Fighter 2 dice (one 5: TR damaged, transports first), PD 3 dice (4 misses on an
    # Outpost), the attacker's single die (6: the PD, first in the default priority, reduced).
    ctx = context(state, [5, 1, 4, 1, 1, 6])
    pb.attack(ctx, TERRAN, "T1", "P", [])
    assert ctx.state.unit(TERRAN, "TR1").damaged
    assert not ctx.state.unit(TERRAN, "CA1").damaged
    assert ctx.state.unit(IMPERIAL, "PD1").damaged
    assert not ctx.state.unit(IMPERIAL, "F1").damaged
    assert kinds(ctx)[0] == "bombardment"
    bombardment = ctx.events[0].data
    assert [g["hits"] for g in bombardment["defence"]] == [1, 0]
    assert bombardment["torpedo_factors"] == 5 and bombardment["dice"] == [6]
    assert ctx.dice.remaining == 0
    assert "P" in ctx.planet_battles
    assert ctx.state.revealed == {TERRAN: ["B"], IMPERIAL: ["B"]}


@pytest.mark.parametrize(("marker", "damaged"), [("World", True), ("Outpost", False)])
def test_pd_hits_on_4_on_its_own_world(marker: str, damaged: bool) -> None:
    state = planet_state(marker=marker)
    add(state, TERRAN, "TR", fleet="T1")
    add(state, IMPERIAL, "PD", planet="P")
    ctx = context(state, [4, 1, 1])
    pb.attack(ctx, TERRAN, "T1", "P", [])
    assert ctx.state.unit(TERRAN, "TR1").damaged is damaged


def test_fighter_and_pd_hits_are_not_combined() -> None:
    state = planet_state(marker="World")
    add(state, TERRAN, "CA", fleet="T1")  # D2
    add(state, IMPERIAL, "F", planet="P")
    add(state, IMPERIAL, "PD", planet="P")
    ctx = context(state, [5, 1, 4, 1, 1, 1])  # one fighter hit, one PD hit; attacker misses
    pb.attack(ctx, TERRAN, "T1", "P", [])
    assert not ctx.state.unit(TERRAN, "CA1").damaged


def test_bombardment_rolls_one_die_per_full_3_torpedo_factors() -> None:
    state = planet_state()
    add(state, TERRAN, "CA", fleet="T1")  # T5
    add(state, TERRAN, "CS", fleet="T1")  # T6: 11 factors, 3 dice
    add(state, IMPERIAL, "RT", planet="P")
    ctx = context(state, [6, 6, 6])
    pb.attack(ctx, TERRAN, "T1", "P", [])
    assert ctx.events[0].data["dice"] == [6, 6, 6]
    assert ctx.dice.remaining == 0
    assert not ctx.state.unit(IMPERIAL, "RT1").damaged  # troops are not bombardment targets


@pytest.mark.parametrize(("priority", "hit", "spared"), [("F", "F1", "PD1"), ("PD", "PD1", "F1")])
def test_bombardment_hits_follow_the_sheets_priority(priority: str, hit: str, spared: str) -> None:
    state = planet_state()
    add(state, TERRAN, "CS", fleet="T1")  # T6: 2 dice
    add(state, IMPERIAL, "F", planet="P")
    add(state, IMPERIAL, "PD", planet="P")
    ctx = context(state, [1, 1, 1, 1, 1, 6, 6], bombard={TERRAN: priority})
    pb.attack(ctx, TERRAN, "T1", "P", [])
    # The first 6 reduces the unit, the second destroys it (reduced units are hit first).
    assert ctx.state.unit(IMPERIAL, hit) is None
    assert not ctx.state.unit(IMPERIAL, spared).damaged


@pytest.mark.parametrize(("side", "glory"), [(TERRAN, 6), (IMPERIAL, 3)])
def test_bombarding_a_terraformed_planet_reverts_it_and_moves_glory(side: str, glory: int) -> None:
    enemy = IMPERIAL if side == TERRAN else TERRAN
    state = planet_state(owner=enemy, original_type="N1")
    add(state, side, "SC", fleet="X1")
    ctx = context(state, [])
    pb.attack(ctx, side, "X1", "P", [])
    assert planet(ctx).type == "N1"
    assert ctx.state.glory == glory
    assert ctx.glory_changes[0][1] == "terraformed planet bombarded"


def test_disputed_planet_is_not_bombarded_and_the_activating_side_invades() -> None:
    state = planet_state(owner=TERRAN)
    state.map.planets["P"].disputed = True
    add(state, IMPERIAL, "CA", fleet="I1")  # would roll 2 bombardment dice
    add(state, TERRAN, "F", planet="P", hex_=1)  # would fire in a bombardment
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=3)
    # No bombardment, no landing fire: the Imperial RT (6 dice) moves into hex 2 and fights
    # the Terran RT (6 dice).
    ctx = context(state, [1] * 12)
    pb.attack(ctx, IMPERIAL, "I1", "P", [])
    assert "bombardment" not in kinds(ctx)
    assert ctx.state.unit(IMPERIAL, "RT1").hex == 2
    assert planet(ctx).disputed
    assert ctx.dice.remaining == 0
    assert ctx.events[-1].data["moves"] == [{"unit": "RT1", "from": 3, "to": 2}]


# -- landing -------------------------------------------------------------------------------------


def test_auto_landing_spreads_over_hexes_with_fewest_defenders() -> None:
    state = planet_state()
    add(state, TERRAN, "AT", fleet="T1")
    add(state, TERRAN, "JT", fleet="T1")
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "RT", fleet="T1")
    add(state, IMPERIAL, "RT", planet="P")
    # Bombardment: AT's 2 torpedo factors give no die; the defender RT is placed in hex 3.
    ctx = context(state, [1] * 18)
    pb.attack(ctx, TERRAN, "T1", "P", [])
    landing = next(e for e in ctx.events if e.kind == "landing").data
    assert [(u["unit"], u["hex"]) for u in landing["units"]] == [("JT1", 1), ("RT1", 2)]
    battle = ctx.events[-1].data
    assert battle["moves"] == [
        {"unit": "JT1", "from": 1, "to": 3},
        {"unit": "RT1", "from": 2, "to": 3},
    ]
    assert planet(ctx).disputed
    assert battle["positions"] == {"Terran JT1": 3, "Terran RT1": 3, "Imperial RT1": 3}


def test_only_fighters_and_jump_troops_from_attack_transports_land_in_defended_hexes() -> None:
    state = planet_state()
    add(state, TERRAN, "AT", fleet="T1")
    add(state, TERRAN, "JT", fleet="T1")
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "RT", fleet="T1")
    add(state, TERRAN, "CV", fleet="T1")
    add(state, TERRAN, "F", fleet="T1")
    add(state, IMPERIAL, "RT", planet="P")  # deployed in hex 3
    ctx = context(state, [1] * 40)
    pb.attack(ctx, TERRAN, "T1", "P", [3, 3, 3])
    landing = next(e for e in ctx.events if e.kind == "landing").data
    assert [(u["unit"], u["hex"]) for u in landing["units"]] == [
        ("JT1", 3),
        ("RT1", 2),
        ("F1", 3),
    ]


def test_jump_troops_from_a_plain_transport_keep_out_of_defended_hexes() -> None:
    state = planet_state()
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "JT", fleet="T1")
    add(state, IMPERIAL, "RT", planet="P")
    ctx = context(state, [1] * 12)
    pb.attack(ctx, TERRAN, "T1", "P", [3])
    landing = next(e for e in ctx.events if e.kind == "landing").data
    assert landing["units"][0]["hex"] == 2


def test_planet_type_keeps_regular_troops_aboard() -> None:
    state = planet_state(type_="N2", owner="", marker="")
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "RT", fleet="T1")
    ctx = context(state, [])
    pb.attack(ctx, TERRAN, "T1", "P", [])
    assert ctx.state.unit(TERRAN, "RT1").fleet == "T1"
    assert ctx.events[0].data["stayed"] == [{"unit": "RT1", "why": "RT cannot stand on N2"}]


def test_a_damaged_transports_troops_land_reduced() -> None:
    """ "If a transport or attack transport is destroyed/damaged also is a transporting unit":
    the fighter's hit damages the TR, so the RT aboard is reduced, not lost; it lands and
    fights reduced (the surface battle's four dice all miss: the planet is disputed)."""
    state = planet_state()
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "RT", fleet="T1")
    add(state, IMPERIAL, "F", planet="P")
    add(state, IMPERIAL, "RT", planet="P")
    # Bombardment: the fighter misses (no attacker dice); landing: the fighter hits the TR.
    ctx = context(state, [1, 1, 5, 1, 1, 1, 1, 1])
    pb.attack(ctx, TERRAN, "T1", "P", [])
    rt = ctx.state.unit(TERRAN, "RT1")
    assert rt is not None and rt.damaged and rt.planet == "P"
    tr = ctx.state.unit(TERRAN, "TR1")
    assert tr is not None and tr.damaged
    landing = next(e for e in ctx.events if e.kind == "landing").data
    assert landing["losses"] == []
    assert planet(ctx).disputed
    assert ctx.dice.remaining == 0


# -- surface battle ------------------------------------------------------------------------------


def disputed_state(hexes: int = 7) -> State:
    state = planet_state(hexes=hexes)
    state.map.planets["P"].disputed = True
    add(state, TERRAN, "SC", fleet="T1")
    return state


def test_invaders_move_fighters_any_distance_jump_troops_3_regulars_1() -> None:
    state = disputed_state()
    add(state, TERRAN, "RT", planet="P", hex_=1)
    add(state, TERRAN, "JT", planet="P", hex_=1)
    add(state, TERRAN, "F", planet="P", hex_=1)
    add(state, IMPERIAL, "RT", planet="P", hex_=7)
    ctx = context(state, [1] * 8)  # the fighter (2 dice) fights the RT (6 dice) in hex 7
    pb.attack(ctx, TERRAN, "T1", "P", [])
    hexes = {u.id: u.hex for u in ctx.state.units_on("P") if u.side == TERRAN}
    assert hexes == {"RT1": 2, "JT1": 4, "F1": 7}
    assert ctx.dice.remaining == 0


def test_fighters_reduce_but_never_eliminate_troops() -> None:
    state = disputed_state()
    add(state, TERRAN, "F", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=2)
    ctx = context(state, [6, 6] + [1] * 6)
    pb.attack(ctx, TERRAN, "T1", "P", [])
    rt = ctx.state.unit(IMPERIAL, "RT1")
    assert rt is not None and rt.damaged
    assert planet(ctx).disputed


@pytest.mark.parametrize(
    ("attacker", "marker", "glory", "reason"),
    [
        (TERRAN, "Outpost", 4, "Empire outpost lost"),
        (TERRAN, "World", 2, "Empire world lost"),
        (IMPERIAL, "Outpost", 6, "Terran outpost captured"),
        (IMPERIAL, "World", 8, "Terran world captured"),
    ],
)
def test_unopposed_landing_captures_the_marker_with_its_glory(
    attacker: str, marker: str, glory: int, reason: str
) -> None:
    defender = IMPERIAL if attacker == TERRAN else TERRAN
    state = planet_state(owner=defender, marker=marker)
    add(state, attacker, "TR", fleet="X1")
    add(state, attacker, "RT", fleet="X1")
    ctx = context(state, [])
    pb.attack(ctx, attacker, "X1", "P", [])
    p = planet(ctx)
    assert (p.owner, p.marker) == (attacker, marker)
    capture = next(e for e in ctx.events if e.kind == "capture")
    assert capture.data == {"from": defender, "to": attacker, "planet": "P", "marker": marker}
    assert ctx.state.glory == glory and ctx.glory_changes[0][1] == reason
    assert ctx.state.unit(attacker, "RT1").planet == "P"
    assert ctx.state.fleet("X1") is not None  # the transport stays in orbit
    assert "P" not in ctx.planet_battles  # no battle: terraforming would carry on


def test_landing_on_an_unclaimed_planet_just_places_the_units() -> None:
    state = planet_state(owner="", marker="")
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "RT", fleet="T1")
    ctx = context(state, [])
    pb.attack(ctx, TERRAN, "T1", "P", [])
    assert kinds(ctx) == ["landing"]
    assert planet(ctx).owner == ""
    assert ctx.state.unit(TERRAN, "RT1").planet == "P"


def test_troops_eliminate_the_last_troop_but_a_pd_left_keeps_the_planet_disputed() -> None:
    state = disputed_state()
    add(state, TERRAN, "JT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=2, damaged=True)  # strength 2
    add(state, IMPERIAL, "PD", planet="P", hex_=5)
    ctx = context(state, [6, 1, 1, 1, 1, 1, 1, 1])
    pb.attack(ctx, TERRAN, "T1", "P", [])
    p = planet(ctx)
    assert ctx.state.unit(IMPERIAL, "RT1") is None
    assert (p.owner, p.disputed) == (IMPERIAL, True)  # the PD still stands
    assert ctx.state.unit(IMPERIAL, "PD1") is not None
    assert ctx.state.glory == 5 and "capture" not in kinds(ctx)


def test_house_rule_troops_capture_at_once_takes_the_outpost_from_a_lone_pd() -> None:
    state = disputed_state()
    add(state, TERRAN, "JT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=2, damaged=True)  # strength 2
    add(state, IMPERIAL, "PD", planet="P", hex_=5)
    ctx = context(state, [6, 1, 1, 1, 1, 1, 1, 1], rules={"troops_capture_at_once": True})
    pb.attack(ctx, TERRAN, "T1", "P", [])
    p = planet(ctx)
    assert (p.owner, p.disputed) == (TERRAN, False)
    assert ctx.state.unit(IMPERIAL, "PD1") is None  # lost with the planet
    assert ctx.state.unit(TERRAN, "JT1").hex == 0
    assert ctx.state.glory == 4
    assert [k for k in kinds(ctx) if k in ("capture", "glory")] == ["capture", "glory"]


def pd_world_under_attack() -> State:
    state = planet_state(marker="World", hexes=2)
    add(state, IMPERIAL, "TR", fleet="I9")
    add(state, IMPERIAL, "RT", fleet="I9")
    state.map.planets["P"].owner = TERRAN
    add(state, TERRAN, "PD", planet="P")
    return state


def test_a_planet_held_by_pd_alone_stays_disputed_until_the_pd_is_destroyed() -> None:
    """Only troops eliminate troops; a PD on its World fights the landed troops (and can only
    reduce them), and the World changes hands once the PD is gone."""
    state = pd_world_under_attack()
    # Bombardment: PD 3 dice miss (no attacker dice: a TR has no torpedoes); landing: PD 3
    # dice miss.  Surface battle in the one hex: the RT (6 dice) hits once, reducing the PD;
    # the PD (3 dice, 4-6 not used on the surface: every 6 hits) hits once, reducing the RT.
    rt_strength = state.unit(IMPERIAL, "RT1").strength
    ctx = context(state, [1] * 6 + [6] + [1] * (rt_strength - 1) + [6, 1, 1])
    pb.attack(ctx, IMPERIAL, "I9", "P", [])
    p = planet(ctx)
    assert (p.owner, p.disputed) == (TERRAN, True) and ctx.state.glory == 5
    assert ctx.state.unit(TERRAN, "PD1").damaged
    assert ctx.state.unit(IMPERIAL, "RT1").damaged  # reduced, never eliminated by PD
    assert ctx.dice.remaining == 0
    # The next attack renews the fight on the disputed planet (no bombardment, no landing):
    # the reduced RT rolls its reduced strength, one 6 destroys the reduced PD.
    reduced = ctx.state.unit(IMPERIAL, "RT1").troop_strength
    ctx2 = context(ctx.state, [6] + [1] * (reduced - 1) + [1, 1, 1])
    pb.attack(ctx2, IMPERIAL, "I9", "P", [])
    assert "bombardment" not in kinds(ctx2)
    assert (planet(ctx2).owner, planet(ctx2).disputed) == (IMPERIAL, False)
    assert ctx2.state.unit(TERRAN, "PD1") is None
    assert ctx2.state.glory == 8
    assert ctx2.dice.remaining == 0


def test_house_rule_landing_troops_against_fighters_and_pd_alone_take_the_planet() -> None:
    state = pd_world_under_attack()
    # Bombardment: PD 3 dice miss, no attacker dice; landing: PD 3 dice miss.
    ctx = context(state, [1] * 6, rules={"troops_capture_at_once": True})
    pb.attack(ctx, IMPERIAL, "I9", "P", [])
    assert planet(ctx).owner == IMPERIAL
    assert ctx.state.unit(TERRAN, "PD1") is None
    assert ctx.state.glory == 8
    assert ctx.dice.remaining == 0


@pytest.mark.parametrize(("rule", "dice"), [("full", 3), ("half", 2)])
def test_a_damaged_pd_fires_at_full_strength_unless_the_house_rule_halves_it(
    rule: str, dice: int
) -> None:
    state = planet_state(marker="World", owner=TERRAN)
    add(state, IMPERIAL, "TR", fleet="I9")
    add(state, TERRAN, "PD", planet="P", damaged=True)  # beam 3
    ctx = context(state, [1] * 10, rules={"damaged_ground_fire": rule})
    pb.bombard(ctx, IMPERIAL, "I9", planet(ctx))
    assert ctx.dice.remaining == 10 - dice


# -- evacuation ----------------------------------------------------------------------------------


def evacuation_state() -> State:
    state = planet_state()
    state.map.planets["P"].disputed = True
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "CV", fleet="T1")
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, TERRAN, "PD", planet="P", hex_=2)
    add(state, TERRAN, "F", planet="P", hex_=1)
    add(state, IMPERIAL, "RT", planet="P", hex_=3)
    add(state, IMPERIAL, "F", planet="P", hex_=4)
    return state


def test_evacuation_loads_troops_and_fighters_but_not_pd() -> None:
    ctx = context(evacuation_state(), [1, 1])
    pb.evacuate(ctx, TERRAN, "T1", "P")
    assert ctx.state.unit(TERRAN, "RT1").fleet == "T1"
    assert ctx.state.unit(TERRAN, "F1").fleet == "T1"
    assert ctx.state.unit(TERRAN, "PD1").planet == "P"
    assert planet(ctx).disputed  # the PD is still there
    event = ctx.events[-1]
    assert event.kind == "evacuation"
    assert event.data["stayed"] == [{"unit": "PD1", "why": "PD cannot leave a disputed planet"}]


def test_evacuation_fire_damaging_the_transport_reduces_the_troops_aboard() -> None:
    ctx = context(evacuation_state(), [5, 1])
    pb.evacuate(ctx, TERRAN, "T1", "P")
    rt = ctx.state.unit(TERRAN, "RT1")
    assert rt is not None and rt.damaged and rt.fleet == "T1"  # reduced, not lost
    assert ctx.state.unit(TERRAN, "TR1").damaged
    assert ctx.state.unit(TERRAN, "F1").fleet == "T1"  # fighters leave freely


def test_evacuating_everything_ends_the_dispute() -> None:
    state = planet_state()
    state.map.planets["P"].disputed = True
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=3)
    ctx = context(state, [])
    pb.evacuate(ctx, TERRAN, "T1", "P")
    assert not planet(ctx).disputed
    assert ctx.state.unit(IMPERIAL, "RT1").hex == 0


def test_evacuating_a_planet_that_is_not_disputed_does_nothing() -> None:
    state = planet_state()
    add(state, TERRAN, "TR", fleet="T1")
    ctx = context(state, [])
    pb.evacuate(ctx, TERRAN, "T1", "P")
    assert "not disputed" in ctx.events[-1].text


def test_attack_with_a_fleet_elsewhere_is_refused() -> None:
    state = planet_state()
    add(state, TERRAN, "TR", fleet="T1", system="A")
    ctx = context(state, [])
    with pytest.raises(pb.PlanetBattleError, match="not at B"):
        pb.attack(ctx, TERRAN, "T1", "P", [])


def test_a_terran_b_lost_to_planetary_fire_lets_the_terrans_build_bbs() -> None:
    state = planet_state(marker="World")
    add(state, TERRAN, "B", fleet="T1", damaged=True)  # D3, already damaged
    add(state, IMPERIAL, "PD", planet="P")  # B3: three dice, 4-6 on its own World
    assert not state.sides[TERRAN].bb_unlocked
    ctx = context(state, [6, 6, 6] + [1] * 10)
    pb.attack(ctx, TERRAN, "T1", "P", [])
    assert ctx.state.unit(TERRAN, "B1") is None
    assert ctx.state.sides[TERRAN].bb_unlocked


def test_evacuating_ones_own_world_leaves_it_to_the_enemys_troops() -> None:
    state = planet_state(owner=TERRAN, marker="World")
    state.map.planets["P"].disputed = True
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=3)
    ctx = context(state, [])
    pb.evacuate(ctx, TERRAN, "T1", "P")
    p = planet(ctx)
    assert (p.owner, p.marker, p.disputed) == (IMPERIAL, "World", False)
    assert "capture" in kinds(ctx)
    assert ctx.state.glory == 5 + 3  # "Terran world captured"


def test_a_captured_outposts_upgrade_payments_do_not_pass_to_the_new_owner() -> None:
    state = planet_state(owner=IMPERIAL, marker="Outpost")
    state.map.planets["P"].upgrade_paid = 3
    add(state, TERRAN, "TR", fleet="T1")
    add(state, TERRAN, "RT", fleet="T1")
    ctx = context(state, [1] * 20)
    pb.attack(ctx, TERRAN, "T1", "P", [])  # unopposed: captured at once
    assert planet(ctx).owner == TERRAN
    assert planet(ctx).upgrade_paid == 0


def test_a_planetary_battle_loses_the_terraforming_paid_so_far() -> None:
    """ "If a planetary battle takes place on a planet undergoing terraforming, any Resources
    expended are lost": the Empire had paid 3 turns on P; the Terran attack clears them."""
    state = disputed_state()
    p = state.map.planets["P"]
    p.type, p.terraform_paid, p.terraform_side = "N1", 3, IMPERIAL
    add(state, TERRAN, "JT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=2, damaged=True)
    add(state, IMPERIAL, "PD", planet="P", hex_=5)
    ctx = context(state, [6, 1, 1, 1, 1, 1, 1, 1])
    pb.attack(ctx, TERRAN, "T1", "P", [])
    assert (planet(ctx).terraform_paid, planet(ctx).terraform_side) == (0, "")
    lost = next(e for e in ctx.events if e.kind == "terraform")
    assert lost.data["lost"] == 3 and "terraforming there is lost" in lost.text


def test_an_unopposed_landing_keeps_the_terraforming() -> None:
    state = planet_state(owner=IMPERIAL, marker="Outpost", type_="N1")
    p = state.map.planets["P"]
    p.terraform_paid, p.terraform_side = 3, IMPERIAL
    add(state, TERRAN, "TR", fleet="X1")
    add(state, TERRAN, "RT", fleet="X1")
    ctx = context(state, [])
    pb.attack(ctx, TERRAN, "X1", "P", [])
    assert planet(ctx).terraform_paid == 3  # "continue the process if no battle took place"


def test_an_evacuation_told_whole_to_both_sides_with_its_dice() -> None:
    """The event of an evacuation under fire, every field: both sides told, at the system,
    what was loaded and what stayed, the enemy fighter's two dice (5 hits the transport: its
    troop is reduced), no losses, the planet still disputed (the PD stays).  A planet that is
    not disputed tells only the side that asked."""
    ctx = context(evacuation_state(), [5, 1])
    pb.evacuate(ctx, TERRAN, "T1", "P")
    event = ctx.events[-1]
    assert (event.phase, event.location, event.kind, event.text) == (
        "planetary battle",
        "B",
        "evacuation",
        "The Terran side evacuates 2 units from Planet P",
    )
    assert (event.players, event.visible_to, event.dice) == (
        ("Terra", "Empire"),
        ("Empire", "Terra"),
        (1, 2),
    )
    assert [(r.location, r.result) for r in ctx.dice.log] == [("B", 5), ("B", 1)]
    assert dict(event.data) == {
        "planet": "P",
        "fleet": "T1",
        "loaded": ["RT1", "F1"],
        "stayed": [{"unit": "PD1", "why": "PD cannot leave a disputed planet"}],
        "defence": [
            {
                "group": "F",
                "shots": [{"unit": "F1", "dice": [5, 1], "need": 5, "hits": 1}],
                "hits": 1,
                "effects": [
                    {
                        "unit": "Terran TR1",
                        "result": "damaged",
                        "cargo_lost": [],
                        "cargo_reduced": ["RT1"],
                    }
                ],
            }
        ],
        "losses": [],
        "disputed": True,
    }
    state = planet_state()
    add(state, TERRAN, "TR", fleet="T1")
    quiet = context(state, [])
    pb.evacuate(quiet, TERRAN, "T1", "P")
    told = quiet.events[-1]
    assert (told.kind, told.players, told.visible_to, told.dice, dict(told.data)) == (
        "evacuation",
        ("Terra",),
        ("Terra",),
        (),
        {"planet": "P", "fleet": "T1", "loaded": [], "stayed": []},
    )


@pytest.mark.parametrize(
    ("aboard", "loaded", "stayed"),
    [
        # The transport already full, the carrier with room for two more fighters.
        (["RT", "F"], ["F1"], ["RT1", "PD1"]),
        # The transport empty, the carrier with room for one fighter: troop and fighter go.
        (["F", "F"], ["RT1", "F1"], ["PD1"]),
        # The carrier full: the fighter would need the transport place the troop took.
        (["F", "F", "F"], ["RT1"], ["PD1", "F1"]),
    ],
)
def test_evacuation_counts_the_room_already_taken(
    aboard: list[str], loaded: list[str], stayed: list[str]
) -> None:
    state = evacuation_state()
    for code in aboard:
        add(state, TERRAN, code, fleet="T1")
    ctx = context(state, [1, 1])
    pb.evacuate(ctx, TERRAN, "T1", "P")
    data = ctx.events[-1].data
    assert data["loaded"] == loaded
    assert [s["unit"] for s in data["stayed"]] == stayed
