"""Landing on a planet (`planet_battle.land`) with scripted dice, record by record: the
planetary box's room, the hexes asked for and chosen, units no hex may take, and the defenders'
fire at the landing craft (attack transports first, a damaged transport's cargo reduced, a
destroyed one's lost, the fighters riding a transport flying down on their own)."""

from __future__ import annotations

from typing import Any

from refassist.rulesets.imperium_3m import planet_battle as pb
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.state import State, Unit
from refassist.rulesets.imperium_3m.units import IMPERIAL, TERRAN
from tests.imperium.test_planet_battle import planet, planet_state
from tests.imperium.test_space_battle import add, context


def landing(ctx: TurnContext, hexes: list[int], *, opposed: bool) -> dict[str, Any]:
    return pb.land(ctx, TERRAN, "T1", ctx.state.map.planets["P"], hexes, opposed)


def fleet(state: State, *codes: str, damaged: tuple[str, ...] = ()) -> None:
    """The Terran fleet T1 at the planet's system, its units added in order."""
    for code in codes:
        add(state, TERRAN, code, fleet="T1", damaged=code in damaged)


def test_an_unopposed_landing_fills_the_box_and_the_rest_stay_aboard() -> None:
    """A one-hex planet's box holds five; three Terran troops are there already, so two of the
    four aboard land and the other two stay, each told why."""
    state = planet_state(owner="", marker="", hexes=1)
    for _ in range(3):
        add(state, TERRAN, "RT", planet="P")
    fleet(state, "TR", "RT", "RT", "RT", "RT")
    ctx = context(state, [])
    record = landing(ctx, [], opposed=False)
    assert record == {
        "planet": "P",
        "fleet": "T1",
        "units": [{"unit": "RT4", "hex": 0}, {"unit": "RT5", "hex": 0}],
        "stayed": [
            {"unit": "RT6", "why": "the planetary box is full"},
            {"unit": "RT7", "why": "the planetary box is full"},
        ],
    }
    assert [u.id for u in ctx.state.units_on("P")] == ["RT1", "RT2", "RT3", "RT4", "RT5"]
    assert ctx.state.unit(TERRAN, "RT6").fleet == "T1"


def test_hexes_asked_for_off_the_map_are_chosen_as_auto() -> None:
    """Hex 0 and hex 6 of a five-hex planet are not hexes: those troops land as ``auto`` does
    (no defender, then fewest own units, then the lowest number); 1 and 5, the map's edges,
    are taken as asked.  The Terran troop already in hex 1 counts as an own unit there."""
    state = planet_state()
    add(state, TERRAN, "RT", planet="P", hex_=1)
    add(state, IMPERIAL, "RT", planet="P", hex_=3)
    fleet(state, "TR", "RT", "RT", "RT", "RT")
    ctx = context(state, [])
    record = landing(ctx, [0, 1, 5, 6], opposed=True)
    assert [(u["unit"], u["hex"]) for u in record["units"]] == [
        ("RT2", 2),
        ("RT3", 1),
        ("RT4", 5),
        ("RT5", 4),
    ]
    assert record["stayed"] == [] and record["defence"] == [] and record["losses"] == []


def test_troops_no_hex_may_take_stay_aboard_and_the_fighter_still_lands() -> None:
    """A one-hex planet held by an enemy troop: troops may not land in a defended hex (only
    fighters and jump troops from attack transports may), so both stay; the fighter lands."""
    state = planet_state(hexes=1)
    add(state, IMPERIAL, "RT", planet="P", hex_=1)
    fleet(state, "TR", "RT", "RT", "CV", "F")
    ctx = context(state, [], rules={"tr_capacity": 2})
    record = landing(ctx, [], opposed=True)
    assert record["stayed"] == [
        {"unit": "RT1", "why": "no hex may take it"},
        {"unit": "RT2", "why": "no hex may take it"},
    ]
    assert record["units"] == [{"unit": "F1", "hex": 1, "damaged": False}]


def test_the_defenders_fighter_fires_at_the_attack_transport_first() -> None:
    """One Imperial fighter rolls its 2 torpedo factors, 6 and 6: two hits, the attack
    transport's defence, so the AT is damaged and both jump troops aboard land reduced; the
    plain transport behind it is not reached and its troop lands whole."""
    state = planet_state()
    add(state, IMPERIAL, "F", planet="P", hex_=3)
    fleet(state, "AT", "JT", "JT", "TR", "RT")
    ctx = context(state, [6, 6], rules={"at_capacity": 2})
    record = landing(ctx, [], opposed=True)
    assert record["defence"] == [
        {
            "group": "F",
            "shots": [{"unit": "F1", "dice": [6, 6], "need": 5, "hits": 2}],
            "hits": 2,
            "effects": [
                {
                    "unit": "Terran AT1",
                    "result": "damaged",
                    "cargo_lost": [],
                    "cargo_reduced": ["JT1", "JT2"],
                }
            ],
        }
    ]
    assert record["units"] == [
        {"unit": "JT1", "hex": 1, "damaged": True},
        {"unit": "JT2", "hex": 2, "damaged": True},
        {"unit": "RT1", "hex": 4, "damaged": False},
    ]
    assert ctx.dice.remaining == 0


def test_each_transport_is_fired_at_once_however_many_it_carries() -> None:
    """Two fighters, four hits: the AT (two jump troops aboard, defence 2) takes two and is
    damaged, the TR (defence 1) one, and the last is wasted: neither is fired at twice, so
    nothing is destroyed."""
    state = planet_state()
    add(state, IMPERIAL, "F", planet="P", hex_=3)
    add(state, IMPERIAL, "F", planet="P", hex_=3)
    fleet(state, "AT", "JT", "JT", "TR", "RT")
    ctx = context(state, [6, 6, 6, 6], rules={"at_capacity": 2})
    record = landing(ctx, [], opposed=True)
    effects = record["defence"][0]["effects"]
    assert [(e["unit"], e["result"], e["cargo_reduced"]) for e in effects] == [
        ("Terran AT1", "damaged", ["JT1", "JT2"]),
        ("Terran TR1", "damaged", ["RT1"]),
    ]
    assert record["losses"] == []
    assert [(u["unit"], u.get("result"), u["damaged"]) for u in record["units"]] == [
        ("JT1", None, True),
        ("JT2", None, True),
        ("RT1", None, True),
    ]


def test_destroyed_transports_lose_their_troops_but_a_fighter_aboard_flies_down() -> None:
    """Both transports come in damaged; four hits destroy them (AT defence 2, TR 1) with the
    troops aboard, and the last hit damages the fighter.  The fighter riding the TR (no carrier
    in the fleet) flies down on its own, so it is not the transport's cargo: it lands, in hex 4
    (hexes 1 and 2 were chosen by the lost troops, 3 is defended)."""
    state = planet_state()
    add(state, IMPERIAL, "F", planet="P", hex_=3)
    add(state, IMPERIAL, "F", planet="P", hex_=3)
    fleet(state, "AT", "JT", "TR", "RT", "F", damaged=("AT", "TR"))
    ctx = context(state, [6, 6, 6, 6], rules={"tr_capacity": 2})
    record = landing(ctx, [], opposed=True)
    assert record["units"] == [
        {"unit": "JT1", "hex": 1, "result": "lost"},
        {"unit": "RT1", "hex": 2, "result": "lost"},
        {"unit": "F1", "hex": 4, "damaged": True},
    ]
    assert record["losses"] == ["Terran AT1", "Terran JT1", "Terran TR1", "Terran RT1"]
    assert [u.id for u in ctx.state.units_on("P") if u.side == TERRAN] == ["F1"]
    assert ctx.state.fleet("T1") is None or not ctx.state.units_in_fleet("T1")


# -- evacuation ----------------------------------------------------------------------------------


def evacuation(
    aboard: tuple[str, ...], on_planet: tuple[str, ...], **rules: int
) -> tuple[TurnContext, dict[str, Any]]:
    """Terran fleet T1 (``aboard``, in order) takes off the Terrans of the disputed planet P
    (``on_planet``, in order, all in hex 2); one Imperial troop holds hex 3.  The enemy has no
    fighter or PD there, so nobody fires."""
    state = planet_state()
    state.map.planets["P"].disputed = True
    fleet(state, *aboard)
    for code in on_planet:
        add(state, TERRAN, code, planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=3)
    ctx = context(state, [], rules=dict(rules))
    pb.evacuate(ctx, TERRAN, "T1", "P")
    return ctx, ctx.events[-1].data


def test_each_troop_takes_one_transport_place() -> None:
    """Two places (a TR and an AT): two troops go, the third has no room."""
    ctx, data = evacuation(("TR", "AT"), ("RT", "JT", "RT"))
    assert data["loaded"] == ["RT1", "JT1"]
    assert data["stayed"] == [{"unit": "RT2", "why": "no room"}]
    rt = ctx.state.unit(TERRAN, "RT1")
    assert rt is not None and (rt.planet, rt.hex, rt.fleet) == ("", 0, "T1")


def test_a_fighter_beyond_the_carriers_takes_one_transport_place() -> None:
    """No carrier: the fighter needs a transport place like a troop.  With two places, the
    fighter and the troop after it go and the second troop stays; a troop then a fighter
    take both places too, and a troop after them stays."""
    _ctx, data = evacuation(("TR",), ("F", "RT", "RT"), tr_capacity=2)
    assert data["loaded"] == ["F1", "RT1"]
    assert [s["unit"] for s in data["stayed"]] == ["RT2"]
    _ctx, data = evacuation(("TR",), ("RT", "F", "RT"), tr_capacity=2)
    assert data["loaded"] == ["RT1", "F1"]
    assert [s["unit"] for s in data["stayed"]] == ["RT2"]


def test_each_fighter_takes_one_carrier_place() -> None:
    """A carrier (three fighters) with one aboard has two places: two fighters fly up, the
    third has no room (the transport place went to the troop)."""
    _ctx, data = evacuation(("CV", "F", "TR"), ("RT", "F", "F", "F"))
    assert data["loaded"] == ["RT1", "F2", "F3"]
    assert data["stayed"] == [{"unit": "F4", "why": "no room"}]


def test_evacuation_fire_destroys_a_damaged_transport_with_its_troop() -> None:
    """The event's dice are the evacuation's own (a die rolled before in the turn is not
    among them); the enemy fighter's two hits destroy the damaged TR with the troop just
    loaded, and the attack transport, carrying nobody who left the planet, is not fired at."""
    state = planet_state()
    state.map.planets["P"].disputed = True
    fleet(state, "AT", "JT", "TR", damaged=("TR",))
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, IMPERIAL, "F", planet="P", hex_=3)
    ctx = context(state, [4, 6, 6])
    ctx.dice.nd6(1, "an earlier battle")
    pb.evacuate(ctx, TERRAN, "T1", "P")
    event = ctx.events[-1]
    assert event.dice == (2, 3)
    assert [r.purpose for r in ctx.dice.log[1:]] == ["evacuation fire: F1 fires at the Terran"] * 2
    assert event.data["loaded"] == ["RT1"]
    assert event.data["losses"] == ["Terran TR1", "Terran RT1"]
    assert [(e["unit"], e["result"]) for e in event.data["defence"][0]["effects"]] == [
        ("Terran TR1", "destroyed")
    ]
    assert ctx.state.unit(TERRAN, "AT1") is not None and ctx.state.unit(TERRAN, "JT1") is not None
    assert event.data["disputed"] is True


# -- bombardment ---------------------------------------------------------------------------------


def test_a_third_bombardment_hit_goes_to_the_next_kind_of_the_priority() -> None:
    """Fighters first: the first 6 reduces the fighter, the second destroys it (reduced units
    are hit first), the third reduces the PD."""
    state = planet_state()
    add(state, TERRAN, "CS", fleet="T1")
    add(state, TERRAN, "CA", fleet="T1")  # T6 + T5 = 11: three dice
    add(state, IMPERIAL, "F", planet="P")
    add(state, IMPERIAL, "PD", planet="P")
    ctx = context(state, [1, 1, 1, 1, 1, 6, 6, 6], bombard={TERRAN: "F"})
    record = pb.bombard(ctx, TERRAN, "T1", planet(ctx))
    assert record["effects"] == [
        {"unit": "Imperial F1", "result": "reduced"},
        {"unit": "Imperial F1", "result": "destroyed"},
        {"unit": "Imperial PD1", "result": "reduced"},
    ]
    assert ctx.state.unit(IMPERIAL, "F1") is None


def test_a_bombardment_hit_finishes_a_reduced_unit_before_a_whole_one() -> None:
    state = planet_state()
    add(state, TERRAN, "CA", fleet="T1")  # T5: one die
    add(state, IMPERIAL, "F", planet="P")
    add(state, IMPERIAL, "F", planet="P", damaged=True)
    ctx = context(state, [1, 1, 1, 1, 6], bombard={TERRAN: "F"})
    record = pb.bombard(ctx, TERRAN, "T1", planet(ctx))
    assert record["effects"] == [{"unit": "Imperial F2", "result": "destroyed"}]
    f1 = ctx.state.unit(IMPERIAL, "F1")
    assert f1 is not None and not f1.damaged


def test_bombarding_a_terraformed_planet_is_recorded_and_its_payments_lost() -> None:
    """The record says what the planet was and becomes; what was paid towards terraforming it
    again is lost; the glory event is told at the planet's system."""
    state = planet_state(owner=IMPERIAL, original_type="N1")
    state.map.planets["P"].terraform_paid = 4
    add(state, TERRAN, "SC", fleet="X1")
    ctx = context(state, [])
    record = pb.bombard(ctx, TERRAN, "X1", planet(ctx))
    assert record["reverted"] == {"from": "A1", "to": "N1"}
    assert (planet(ctx).type, planet(ctx).terraform_paid) == ("N1", 0)
    assert [(e.kind, e.location) for e in ctx.events] == [("glory", "B")]
    state = planet_state(owner=TERRAN, original_type="N1")
    add(state, IMPERIAL, "SC", fleet="X1")
    ctx = context(state, [])
    pb.bombard(ctx, IMPERIAL, "X1", planet(ctx))
    assert [(e.kind, e.location, e.data["delta"]) for e in ctx.events] == [("glory", "B", -2)]


# -- a fight renewed with the units on the planet ------------------------------------------------


def test_a_fight_renewed_without_a_fleet_is_told_whole() -> None:
    """The Terrans renew the fight on the disputed planet in hex 2 only: the troops there fight,
    those in hex 4 do not.  The event carries the fight's
    own dice (not the die rolled before), the positions and the result, at the system."""
    state = planet_state()
    state.map.planets["P"].disputed = True
    add(state, TERRAN, "RT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=2)
    add(state, IMPERIAL, "RT", planet="P", hex_=4)
    add(state, TERRAN, "RT", planet="P", hex_=4)
    ctx = context(state, [1] * 13)
    ctx.dice.nd6(1, "an earlier battle")
    pb.attack(ctx, TERRAN, "", "P", [], fight=[2])
    event = ctx.events[-1]
    assert (event.kind, event.location) == ("surface battle", "B")
    assert event.text == (
        "Surface battle on Planet P (Terran renewing it with the units there): "
        f"{event.data['result']}"
    )
    assert event.data["result"] == "disputed"
    assert event.data["positions"] == {
        "Terran RT1": 2,
        "Imperial RT1": 2,
        "Imperial RT2": 4,
        "Terran RT2": 4,
    }
    assert event.dice == tuple(range(2, 14))
    assert {r.location for r in ctx.dice.log[1:]} == {"B"} and ctx.dice.remaining == 0
    assert ctx.state.revealed == {TERRAN: ["B"], IMPERIAL: ["B"]}


# -- the surface battle --------------------------------------------------------------------------


def on_planet(hexes: int, *placed: tuple[str, str, int]) -> tuple[TurnContext, list[Unit]]:
    """A disputed planet P of ``hexes`` hexes with units (side, code, hex) in that order."""
    state = planet_state(hexes=hexes)
    state.map.planets["P"].disputed = True
    for side, code, hex_ in placed:
        add(state, side, code, planet="P", hex_=hex_)
    ctx = context(state, [1] * 60)
    return ctx, ctx.state.units_on("P")


def moves(*placed: tuple[str, str, int], hexes: int = 7) -> list[dict[str, Any]]:
    ctx, units = on_planet(hexes, *placed)
    return pb._move_invaders(planet(ctx), TERRAN, units)


def test_invaders_go_for_the_nearest_enemy_hex_ties_to_the_lower() -> None:
    assert moves((TERRAN, "RT", 5), (IMPERIAL, "RT", 1), (IMPERIAL, "RT", 6)) == [
        {"unit": "RT1", "from": 5, "to": 6}
    ]
    assert moves((TERRAN, "RT", 4), (IMPERIAL, "RT", 2), (IMPERIAL, "RT", 6)) == [
        {"unit": "RT1", "from": 4, "to": 3}
    ]


def test_hex_1_is_a_goal_and_the_box_is_not() -> None:
    """Jump troops move 3: from hex 4 they reach the enemy in hex 1; an enemy in the planetary
    box (hex 0), nearer than the one in hex 5, is no goal; an invader in the box stays there."""
    assert moves((TERRAN, "JT", 4), (IMPERIAL, "RT", 1)) == [{"unit": "JT1", "from": 4, "to": 1}]
    assert moves((TERRAN, "JT", 2), (IMPERIAL, "RT", 0), (IMPERIAL, "RT", 5)) == [
        {"unit": "JT1", "from": 2, "to": 5}
    ]
    assert moves((TERRAN, "RT", 0), (IMPERIAL, "RT", 1)) == []


def test_an_invader_already_fighting_stays_and_the_others_still_move() -> None:
    assert moves((TERRAN, "RT", 3), (TERRAN, "RT", 1), (IMPERIAL, "RT", 3)) == [
        {"unit": "RT2", "from": 1, "to": 2}
    ]


def test_pd_do_not_move_and_a_hex_of_five_is_not_entered() -> None:
    """Five Terran PD fill hex 2: the troop in hex 1 cannot step into it (it stays), while the
    troop in hex 4 steps into the enemy's hex 3; the PD themselves never move."""
    pd = [(TERRAN, "PD", 2)] * 5
    assert moves((TERRAN, "RT", 1), *pd, (TERRAN, "RT", 4), (IMPERIAL, "RT", 3)) == [
        {"unit": "RT2", "from": 4, "to": 3}
    ]
    assert moves((TERRAN, "PD", 1), (IMPERIAL, "RT", 3)) == []


def hits(troop_hits: int, other_hits: int) -> tuple[list[dict[str, Any]], list[str]]:
    """Hits on the Imperials in one hex: RT1 full, RT2 reduced, F1 full, F2 reduced."""
    ctx, _units = on_planet(5, *[(IMPERIAL, code, 2) for code in ("RT", "RT", "F", "F")])
    for uid in ("RT2", "F2"):
        ctx.state.unit(IMPERIAL, uid).damaged = True
    lost: list[Unit] = []
    effects = pb._take_hits(ctx.state.units_on("P"), troop_hits, other_hits, lost)
    return effects, [u.id for u in lost]


def test_troop_hits_finish_reduced_troops_then_full_ones_then_fighters() -> None:
    effects, lost = hits(5, 0)
    assert [(e["unit"], e["by"], e["result"]) for e in effects] == [
        ("Imperial RT2", "troops", "destroyed"),
        ("Imperial RT1", "troops", "reduced"),
        ("Imperial RT1", "troops", "destroyed"),
        ("Imperial F2", "troops", "destroyed"),
        ("Imperial F1", "troops", "reduced"),
    ]
    assert lost == ["RT2", "RT1", "F2"]


def test_fighter_hits_reduce_full_troops_then_finish_reduced_fighters() -> None:
    effects, lost = hits(0, 4)
    assert [(e["unit"], e["by"], e["result"]) for e in effects] == [
        ("Imperial RT1", "fighters/PD", "reduced"),
        ("Imperial F2", "fighters/PD", "destroyed"),
        ("Imperial F1", "fighters/PD", "reduced"),
        ("Imperial F1", "fighters/PD", "destroyed"),
    ]
    assert lost == ["F2", "F1"]


def test_hits_beyond_the_targets_are_wasted() -> None:
    effects, lost = hits(9, 3)
    assert len(effects) == 6 and lost == ["RT2", "RT1", "F2", "F1"]


def test_two_troops_hits_add_up_in_their_hex() -> None:
    """Two Terran troops in hex 2 roll one 6 each: two troop hits destroy the reduced Imperial
    troop and reduce the full one."""
    ctx, _units = on_planet(
        5,
        (TERRAN, "RT", 2),
        (TERRAN, "RT", 2),
        (IMPERIAL, "RT", 2),
        (IMPERIAL, "RT", 2),
    )
    ctx.state.unit(IMPERIAL, "RT2").damaged = True
    first = ctx.state.unit(TERRAN, "RT1").troop_strength
    second = ctx.state.unit(TERRAN, "RT2").troop_strength
    rolls = [6] + [1] * (first - 1) + [6] + [1] * (second - 1) + [1] * 40
    ctx = context(ctx.state, rolls)
    battle = pb.surface_battle(ctx, TERRAN, planet(ctx))
    assert [(e["unit"], e["result"]) for e in battle["fights"][0]["effects"][:2]] == [
        ("Imperial RT2", "destroyed"),
        ("Imperial RT1", "reduced"),
    ]


def test_hex_1_fights_and_the_box_does_not() -> None:
    """Fighters of both sides in the planetary box (hex 0) do not fight there; those in hex 1
    do (the box comes first in the order of hexes, and does not stop the others)."""
    ctx, _units = on_planet(
        5, (TERRAN, "F", 0), (IMPERIAL, "F", 0), (TERRAN, "F", 1), (IMPERIAL, "F", 1)
    )
    battle = pb.surface_battle(ctx, TERRAN, planet(ctx))
    assert [f["hex"] for f in battle["fights"]] == [1]


# -- how a pass of battle ends -------------------------------------------------------------------


def test_a_sides_own_planet_cleared_of_the_enemy_stays_its_own() -> None:
    ctx, _units = on_planet(5, (TERRAN, "RT", 2))
    p = planet(ctx)
    p.owner = TERRAN
    assert pb.settle(ctx, TERRAN, p) == "cleared"
    assert (p.owner, p.marker, p.disputed) == (TERRAN, "Outpost", False)


def test_an_enemy_claim_without_a_marker_is_cleared() -> None:
    ctx, _units = on_planet(5, (TERRAN, "RT", 2))
    p = planet(ctx)
    p.marker = ""
    assert pb.settle(ctx, TERRAN, p) == "cleared"
    assert (p.owner, p.disputed) == ("", False)


def test_capture_at_once_needs_the_enemy_without_troops() -> None:
    ctx, _units = on_planet(5, (TERRAN, "RT", 2), (IMPERIAL, "RT", 3))
    ctx.rules["troops_capture_at_once"] = True
    assert pb.settle(ctx, TERRAN, planet(ctx)) == "disputed"


def test_terraforming_lost_in_a_battle_is_told_to_both_sides() -> None:
    """Paid nothing yet, the effort is still the Empire's, and it is lost too; in an action
    segment the event is told in that segment, at the planet's system."""
    ctx, _units = on_planet(5)
    p = planet(ctx)
    p.terraform_paid, p.terraform_side = 0, IMPERIAL
    ctx.segment = 2
    pb._terraforming_lost(ctx, p)
    event = ctx.events[-1]
    assert (event.phase, event.location, event.kind) == ("action 2", "B", "terraform")
    assert set(event.visible_to) == set(event.players) == {"Terra", "Empire"}
    assert dict(event.data) == {"planet": "P", "paid": 0, "lost": 0, "side": IMPERIAL}
    assert p.terraform_side == ""
    ctx.segment = 0
    p.terraform_paid, p.terraform_side = 2, TERRAN
    pb._terraforming_lost(ctx, p)
    assert ctx.events[-1].phase == "planetary battle"
    assert ctx.events[-1].data["lost"] == 2


def test_no_hex_takes_a_sixth_own_unit() -> None:
    """Five own units fill a hex: a unit asked for it goes to the nearest other hex (ties to
    the lower), and ``auto`` never picks it; four leave room for one more."""
    assert pb._choose_hex(2, 3, [], [2] * 5, occupy=False) == 1
    assert pb._choose_hex(2, 3, [], [2] * 4, occupy=False) == 2
    assert pb._choose_hex(None, 1, [], [1] * 5, occupy=True) is None
    assert pb._choose_hex(None, 2, [], [1] * 5, occupy=False) == 2


def test_deployment_spreads_over_the_hexes_and_keeps_five_a_hex() -> None:
    """Seven units on a three-hex planet go round the hexes in turn (1, 2, 3, 1 ...); three on
    five hexes are centred in equal stretches; a placement asked for a full hex is not kept."""
    _ctx, units = on_planet(3, *[(IMPERIAL, "PD", 0)] * 7)
    pb.deploy(units, 3)
    assert [u.hex for u in units] == [1, 2, 3, 1, 2, 3, 1]
    _ctx, units = on_planet(5, *[(IMPERIAL, "PD", 0)] * 3)
    pb.deploy(units, 5)
    assert [u.hex for u in units] == [1, 3, 5]
    _ctx, units = on_planet(2, *[(IMPERIAL, "PD", 0)] * 6)
    pb.deploy(units, 2, {u.id: 1 for u in units})
    assert sorted(u.hex for u in units) == [1, 1, 1, 1, 1, 2]
