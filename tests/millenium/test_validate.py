"""The checker: what it refuses, on which cell, in the reader's language; and what it accepts
is what the turn carries out."""

from __future__ import annotations

from refassist.rulesets.millenium.geometry import Position
from refassist.rulesets.millenium.orders import FleetMove, FleetSetup, Orders, Purchase
from refassist.rulesets.millenium.setup import new_state
from refassist.rulesets.millenium.state import ALIEN, EMPIRE
from refassist.rulesets.millenium.validate import validate_orders
from refassist.text.i18n import speaking_to

from .situations import MAP, TABLES, at, place, playing, ships

PACKAGE = "refassist.rulesets.millenium"


def problems(state, player, orders, **rules):
    return {(p.cell, p.severity): p.message for p in validate_orders(state, player, orders, rules)}


def test_a_good_turn_passes_and_a_bad_path_is_pinned_to_the_path_cell() -> None:
    state = playing(3)
    place(state, ALIEN, "K", "23W4", "corvette", "colonisation")
    good = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!B12", (at("23C4"), at("23E4")))]
    )
    assert problems(state, "Vera", good) == {}
    bad = Orders(ALIEN, "3", moves=[FleetMove("K", "move", "Orders!B12", (at("23N4"), at("23E4")))])
    found = problems(state, "Vera", bad)
    assert list(found) == [("D12", "error")] and "not one step" in found[("D12", "error")]


def test_the_checker_speaks_french_to_a_french_reader() -> None:
    state = playing(3)
    place(state, ALIEN, "K", "23W4", "corvette")
    bad = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!B12", (at("23C4"),) * 1 + (at("33C4"),))]
    )
    with speaking_to("fr", PACKAGE):
        found = validate_orders(state, "Vera", bad, {})
    assert found[0].message.startswith("33C4 n'est pas adjacent à 23C4")
    assert found[0].fix == (
        "Corrigez le trajet\u00a0: secteurs voisins, pas de diagonale, 5 points au plus."
    )


def test_turn_1_attack_stacking_and_purchases() -> None:
    state = playing(1)
    place(state, ALIEN, "K", "33N4", "vaisseau", "colonisation")
    place(
        state,
        ALIEN,
        "δ",
        "33C4",
        "corvette",
        "corvette",
        "corvette",
        "fregate",
        "fregate",
        "fregate",
    )
    orders = Orders(
        ALIEN,
        "1",
        moves=[FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1", attack=True)],
        purchases=[
            Purchase("A", "vaisseau", 3, "Orders!B27"),
            Purchase("B", "corvette", 1, "Orders!B28"),
        ],
    )
    found = problems(state, "Vera", orders)
    assert "8 ships" in found[("B12", "error")]
    orders.moves[0] = FleetMove(
        "K", "move", "Orders!B12", (at("33C4").at_level(4),), land="N1", attack=True
    )
    state.fleet(ALIEN, "δ").position = at("33S4")  # type: ignore[union-attr]
    found = problems(state, "Vera", orders)
    assert "turn 1" in found[("F12", "error")]
    assert "holds 2 ships" in found[("B27", "error")]
    assert "points needed" in found[("B28", "warning")]  # no points yet: bought only if there


def test_the_empires_set_up_is_held_to_the_cards_and_tab_1() -> None:
    state = new_state("g", "Orion", MAP, {ALIEN: "Vera", EMPIRE: "Ivo"}, TABLES.fleets)
    cards = {letter: n for n, letter in enumerate(MAP.systems, 1)}
    cells = {letter: f"Orders!C{11 + n}" for n, letter in enumerate(MAP.systems, 1)}
    fleets = [
        FleetSetup(x, {"corvette": 1}, at("23N4"), f"Orders!B{41 + i}")
        for i, x in enumerate("KωδεκA")
    ]
    ok = Orders(
        EMPIRE,
        "0-empire",
        is_setup=True,
        cards=dict(cards),
        card_cells=cells,
        imperial="A1",
        imperial_cell="Orders!C37",
        fleets=fleets,
    )
    assert problems(state, "Ivo", ok) == {}
    cards["B"] = 1  # card 1 twice
    bad_fleets = [
        *fleets[:5],
        FleetSetup("K", {"vaisseau": 3}, Position((0, 3), "E", 4), "Orders!B46"),
    ]
    bad = Orders(
        EMPIRE,
        "0-empire",
        is_setup=True,
        cards=cards,
        card_cells=cells,
        imperial="M1",
        imperial_cell="Orders!C37",
        fleets=bad_fleets,
    )
    found = problems(state, "Ivo", bad)
    assert "also given to A" in found[("C13", "error")]
    assert "loyalty 3" in found[("C37", "error")]  # M was dealt card 11: loyalty 3
    messages = [p.message for p in validate_orders(state, "Ivo", bad, {}) if p.cell == "B46"]
    assert any("composed twice" in m for m in messages)
    assert any("start on the map" in m for m in messages)
    # The ship count's own cell (vaisseaux: column E), not the fleet's letter (issue 53).
    assert not any("in one fleet" in m for m in messages)
    counted = {
        p.cell: p for p in validate_orders(state, "Ivo", bad, {}) if "in one fleet" in p.message
    }
    assert list(counted) == ["E46"]
    assert "3 ships of the line in one fleet" in counted["E46"].message
    assert counted["E46"].found == "3"


def test_the_extraterrestrials_set_up_needs_18_systems_and_no_placement() -> None:
    """The programme and the compositions are written at the same time as the Empire's
    set-up (rule III), before any card is dealt: no place is asked of them."""
    state = new_state("g", "Orion", MAP, {ALIEN: "Vera", EMPIRE: "Ivo"}, TABLES.fleets)
    fleets = [
        FleetSetup(x, {"corvette": 1}, None, f"Orders!B{41 + i}") for i, x in enumerate("KωδεκA")
    ]
    ok = Orders(
        ALIEN,
        "0-empire",
        is_setup=True,
        programme=list(MAP.systems)[:18],
        programme_cell="Orders!C12",
        fleets=fleets,
    )
    assert problems(state, "Vera", ok) == {}
    short = Orders(
        ALIEN,
        "0-empire",
        is_setup=True,
        programme=list(MAP.systems)[:17],
        programme_cell="Orders!C12",
        fleets=fleets,
    )
    assert "17 systems" in problems(state, "Vera", short)[("C12", "error")]


def test_an_attack_line_without_the_landings_points_is_warned_of_a_lost_surrender() -> None:
    """The checker says what the turn does (`strategic.can_land`): marked to attack, a move
    of 4 points to N1 is accepted, with a warning that a surrender would not be occupied; one
    step to the planets has no such warning."""
    state = playing(3)
    place(state, ALIEN, "K", "32N4", "vaisseau", "vaisseau", "colonisation")
    way = tuple(at(p) for p in ("32C4", "32S4", "33N4", "33C4"))
    far = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!B12", way, land="N1", attack=True)]
    )
    found = problems(state, "Vera", far)
    assert list(found) == [("E12", "warning")] and "does not occupy" in found[("E12", "warning")]
    with speaking_to("fr", PACKAGE):
        french = validate_orders(state, "Vera", far, {})
    assert "ne l'occupe pas" in french[0].message
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    near = FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1", attack=True)
    assert problems(state, "Vera", Orders(ALIEN, "3", moves=[near])) == {}


def test_the_extraterrestrials_placement_is_its_composed_fleets_beyond_the_edges() -> None:
    state = new_state("g", "Orion", MAP, {ALIEN: "Vera", EMPIRE: "Ivo"}, TABLES.fleets)
    from refassist.rulesets.millenium.setup import deal

    deal(state, dict(zip(MAP.systems, MAP.cards, strict=True)))
    for letter in "Kωδ":
        fleet = state.fleet(ALIEN, letter)
        assert fleet is not None
        fleet.ships = ships("corvette")
    edges = MAP.edge_positions(4)
    good = Orders(
        ALIEN,
        "0-extraterrestre",
        is_setup=True,
        fleets=[FleetSetup(x, {}, edges[i], f"Orders!B{41 + i}") for i, x in enumerate("Kωδ")],
    )
    assert problems(state, "Vera", good) == {}
    bad = Orders(
        ALIEN,
        "0-extraterrestre",
        is_setup=True,
        fleets=[
            FleetSetup("K", {}, edges[0], "Orders!B41"),
            FleetSetup("K", {}, edges[1], "Orders!B42"),
            FleetSetup("A", {}, edges[2], "Orders!B43"),
            FleetSetup("ω", {}, at("23N4"), "Orders!B44"),
        ],
    )
    found = problems(state, "Vera", bad)
    assert "placed twice" in found[("B42", "error")]
    assert "not a fleet composed" in found[("B43", "error")]
    assert "beyond an edge" in found[("H44", "error")]
    assert "fleet δ is not placed" in found[("B41", "warning")]
