"""Landing on a planet (`planet_battle.land`) with scripted dice, record by record: the
planetary box's room, the hexes asked for and chosen, units no hex may take, and the defenders'
fire at the landing craft (attack transports first, a damaged transport's cargo reduced, a
destroyed one's lost, the fighters riding a transport flying down on their own)."""

from __future__ import annotations

from typing import Any

from refassist.rulesets.imperium_3m import planet_battle as pb
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.state import State
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
