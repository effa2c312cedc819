"""Game turns through ``resolve_turn`` with fixed dice.  The shipped cards dealt in map order
give A-C loyalty 6 (A two planets), D-F 5, G-L 4, M-P 3, Q-T 2, U-W 1, X-Z 0; the shipped map
puts X in zone 35 at level 4, N in 33 at level 4, B in 21 at level 5."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.millenium.geometry import Position
from refassist.rulesets.millenium.orders import FleetMove, Orders, Purchase, ReserveEntry
from refassist.rulesets.millenium.resolve import resolve_turn
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, Ship, State
from refassist.rulesets.millenium.validate import validate_orders

from .situations import at, place, playing

VERA, IVO = "Vera", "Ivo"  # the Extraterrestrial, the Empire


def run(state: State, orders: Orders, dice: list[int], **rules: object) -> State:
    player = state.players[orders.side]
    script = Dice.scripted(dice)
    result = resolve_turn(state, {player: orders}, script, dict(rules))
    assert len(script.log) == len(dice), [r.purpose for r in script.log]
    return result.state


def kinds(state: State) -> list[str]:
    return [e.kind for e in state.events]


def test_a_loyalty_0_planet_occupied_and_colonised_produces_at_once() -> None:
    state = playing(3)
    place(state, ALIEN, "K", "35N4", "corvette", "colonisation")
    orders = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!C12", (at("35C4"),), land="X1")]
    )
    after = run(state, orders, [])
    x1 = after.planet("X1")
    assert x1 is not None and (x1.holder, x1.colonised, x1.alien_colonised_turns) == (
        ALIEN,
        ALIEN,
        1,
    )
    assert "X" in after.revealed
    # End of turn 3: the Extraterrestrial 1 (X); the Empire its loyalty 5-6 systems, A-F.
    assert after.points[ALIEN] == {"X": 1} and sorted(after.points[EMPIRE]) == list("ABCDEF")
    assert after.turn == 4


def test_a_surrender_demand_won_on_the_die() -> None:
    # 4 + 4 + 1 = 9 ship points against loyalty 3: 3/1, surrenders on 1-3; die 3.
    state = playing(3)
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    orders = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!C12", (at("33C4"),), land="N1")]
    )
    after = run(state, orders, [3])
    n1 = after.planet("N1")
    assert n1 is not None and (n1.holder, n1.loyalty, n1.bases) == (ALIEN, 3, 3)
    demand = next(e for e in after.events if e.kind == "demand")
    assert (demand.data["column"], demand.data["die"]) == ("3/1", 3)


LONG_WAY = ("32C4", "32S4", "33N4", "33C4")  # 4 points: no 2 left for a landing


def test_a_surrender_is_occupied_only_with_the_landings_two_points() -> None:
    """« la planète se rend, le joueur peut l'occuper, en respectant les règles du
    débarquement »: a line marked to attack moves without the landing's 2 points (a battle
    needs none), but a planet that surrenders to it is occupied only if they are left.  9
    points against loyalty 3: 3/1, die 3 surrenders."""
    state = playing(3)
    place(state, ALIEN, "K", "32N4", "vaisseau", "vaisseau", "colonisation")
    far = FleetMove(
        "K", "move", "Orders!B12", tuple(at(p) for p in LONG_WAY), land="N1", attack=True
    )
    after = run(state, Orders(ALIEN, "3", moves=[far]), [3])
    assert after.fleet(ALIEN, "K").position == at("33C4")  # type: ignore[union-attr]
    n1 = after.planet("N1")
    # Not occupied; still the Empire's, no longer colonised by the rules (it was demanded).
    assert n1 is not None and (n1.holder, n1.colonised, n1.bases) == (EMPIRE, "", 3)
    assert "conquest" not in kinds(after) and "battle" not in kinds(after)
    told = next(e for e in after.events if e.kind == "not_landed")
    assert "2 movement points" in told.text and set(told.visible_to) == {VERA, IVO}
    # One step to the planets keeps 4 points: the same surrender is occupied, attack or not.
    near = playing(3)
    place(near, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    short = FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1", attack=True)
    taken = run(near, Orders(ALIEN, "3", moves=[short]), [3]).planet("N1")
    assert taken is not None and (taken.holder, taken.colonised) == (ALIEN, ALIEN)


def test_a_refusal_on_the_long_way_is_still_attacked() -> None:
    """The landing's points are for occupying: a planet that refuses is attacked by a fleet
    that spent all five (die 4 refuses at 3/1)."""
    state = playing(3)
    place(state, ALIEN, "K", "32N4", "vaisseau", "vaisseau", "colonisation")
    far = FleetMove(
        "K", "move", "Orders!B12", tuple(at(p) for p in LONG_WAY), land="N1", attack=True
    )
    after = run(state, Orders(ALIEN, "3", moves=[far]), [4], battles="referee")
    assert after.held is not None and [b.planet for b in after.held.battles] == ["N1"]


def test_a_demand_counts_the_demanding_fleets_ships_only() -> None:
    """« la valeur totale des navires de sa flotte »: K's vaisseau (4 points) against N1's
    loyalty 3 is 1/1, surrendering on a 1 only; δ's vaisseau standing with it does not make
    it 8:3 = 2/1 (up to 2).  Die 2: refused."""
    state = playing(3)
    place(state, ALIEN, "K", "33N4", "vaisseau")
    place(state, ALIEN, "δ", "33C4", "vaisseau")
    orders = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!C12", (at("33C4"),), land="N1")]
    )
    after = run(state, orders, [2])
    demand = next(e for e in after.events if e.kind == "demand")
    assert (demand.data["points"], demand.data["column"], demand.data["die"]) == (4, "1/1", 2)
    assert after.planet("N1").holder == EMPIRE  # type: ignore[union-attr]


def test_no_attack_on_turn_1() -> None:
    state = playing(1)
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    orders = Orders(
        ALIEN,
        "1",
        moves=[FleetMove("K", "move", "Orders!C12", (at("33C4"),), land="N1", attack=True)],
    )
    after = run(state, orders, [6])  # refused
    assert "battle" not in kinds(after)
    cancelled = [e for e in after.events if e.kind == "order_cancelled"]
    assert cancelled and "turn 1" in cancelled[0].text and cancelled[0].visible_to == (VERA,)


def test_stacking_cancels_the_move_that_breaks_it() -> None:
    state = playing(3)
    place(state, ALIEN, "K", "33C4", "corvette", "corvette", "corvette", "fregate", "fregate")
    place(state, ALIEN, "δ", "33N4", "corvette", "corvette", "fregate")
    orders = Orders(ALIEN, "3", moves=[FleetMove("δ", "move", "Orders!C13", (at("33C4"),))])
    after = run(state, orders, [])
    assert after.fleet(ALIEN, "δ").position == at("33N4")  # type: ignore[union-attr]
    assert "8 ships" in next(e.text for e in after.events if e.kind == "order_cancelled")


def test_occupying_the_imperial_planet_wins_at_once() -> None:
    state = playing(3)
    state.imperial = "B1"
    b1 = state.planet("B1")
    assert b1 is not None
    b1.loyalty = b1.bases = 0  # its bases all destroyed in an earlier battle
    place(state, ALIEN, "K", "21N5", "corvette")
    orders = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!C12", (at("21C5"),), land="B1")]
    )
    after = run(state, orders, [])
    assert after.winner == ALIEN and "imperial planet B1" in after.finished
    # The game is over and moved past the turn it ended on: no step is awaited, and the
    # reports tell turn 3 (its dice seed too), not the turn before.
    assert after.turn == 4 and after.finished


def test_the_programme_is_scored_after_the_last_turn() -> None:
    state = playing(3)
    state.programme = ["X", "Y"]
    place(state, ALIEN, "K", "35N4", "corvette", "colonisation")
    orders = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!C12", (at("35C4"),), land="X1")]
    )
    after = run(state, orders, [], last_turn=3)
    # X +1, Y never conquered -2: -1, the Empire wins.
    assert after.winner == EMPIRE and "scores -1" in after.finished
    over = next(e for e in after.events if e.kind == "game_over")
    assert [(line["system"], line["points"]) for line in over.data["lines"]] == [
        ("X", 1),
        ("Y", -2),
    ]


def test_a_jump_and_a_reserve_entering() -> None:
    state = playing(2)
    place(state, EMPIRE, "K", "11C4", "vaisseau")
    reserve = state.fleet(EMPIRE, "δ")
    assert reserve is not None
    reserve.ships = [Ship("fregate")]
    orders = Orders(
        EMPIRE,
        "2",
        moves=[FleetMove("K", "jump", "Orders!C12", zone=(3, 3), level=6, free_sector="S")],
        entries=[ReserveEntry("δ", (1, 1), 4, "Orders!C20")],
    )
    # Reserve first: maximum row die 1 -> 1 zone, DR 3 = S -> zone 12, SA 1 = N.
    # Then the jump: 6 zones, die 3 -> no deviation, SA 5 = LB -> S.
    after = run(state, orders, [1, 3, 1, 3, 5])
    assert after.fleet(EMPIRE, "δ").position == at("12N4")  # type: ignore[union-attr]
    assert after.fleet(EMPIRE, "K").position == at("33S6")  # type: ignore[union-attr]


def test_ships_bought_within_tab_1() -> None:
    # Turn 4 scores first (rule IX: counted, then used): the Empire's ten loyalty 4-6 systems
    # A-L give 10, with 5 banked: 15.
    state = playing(4)
    state.points[EMPIRE] = {"A": 5}
    orders = Orders(
        EMPIRE,
        "4",
        purchases=[
            Purchase("A", "fregate", 1, "Orders!C30"),  # 4: 11 left
            Purchase("A", "corvette", 1, "Orders!C31"),  # 2: 9 left
            Purchase("A", "corvette", 1, "Orders!C32"),  # fleet A holds 2 ships
            Purchase("K", "vaisseau", 2, "Orders!C33"),  # 12 points: too few
            Purchase("K", "vaisseau", 1, "Orders!C34"),  # 6: 3 left
        ],
    )
    after = run(state, orders, [])
    assert [s.kind for s in after.fleet(EMPIRE, "A").ships] == ["fregate", "corvette"]  # type: ignore[union-attr]
    assert [s.kind for s in after.fleet(EMPIRE, "K").ships] == ["vaisseau"]  # type: ignore[union-attr]
    cancelled = {e.data["cell"]: e.text for e in after.events if e.kind == "order_cancelled"}
    assert list(cancelled) == ["Orders!C32", "Orders!C33"]
    assert (
        "holds 2 ships" in cancelled["Orders!C32"] and "12 points needed" in cancelled["Orders!C33"]
    )
    assert after.total_points(EMPIRE) == 3


def test_a_fleet_halting_at_its_own_planet_is_repaired() -> None:
    state = playing(2)
    place(state, EMPIRE, "K", "A", "corvette", "porte_intercepteur")
    fleet = state.fleet(EMPIRE, "K")
    assert fleet is not None
    fleet.ships[0].damaged = True
    fleet.ships[1].interceptors = 2
    after = run(state, Orders(EMPIRE, "2"), [])
    mended = after.fleet(EMPIRE, "K")
    assert mended is not None and not mended.ships[0].damaged and mended.ships[1].interceptors == 6


def test_a_scattered_fleet_waits_its_own_turns() -> None:
    state = playing(3)
    place(state, ALIEN, "K", "11C4", "corvette")
    fleet = state.fleet(ALIEN, "K")
    assert fleet is not None
    fleet.where, fleet.wait, fleet.position = (
        "waiting",
        1,
        at("05E4").at_level(4) if False else fleet.position,
    )
    after = run(state, Orders(ALIEN, "3"), [])
    assert after.fleet(ALIEN, "K").wait == 0  # type: ignore[union-attr]


def test_a_scattered_fleet_stands_still_one_own_turn_as_its_checker_says() -> None:
    """« obligée de rester immobile pendant 1 tour »: K, scattered 1 zone off the map on an
    earlier turn of its side (wait 1), stands still on turn 3, its side's next turn: the checker
    refuses its step onto the map and the turn does not carry it out.  On turn 5 the checker
    accepts the same step, by normal movement or as a reserve enters, and the turn makes it."""
    state = playing(3)
    place(state, ALIEN, "K", "11N4", "corvette")
    fleet = state.fleet(ALIEN, "K")
    assert fleet is not None
    fleet.where, fleet.position, fleet.wait = "waiting", Position((1, 0), "S", 4), 1

    def step_on(turn: int) -> Orders:
        return Orders(ALIEN, str(turn), moves=[FleetMove("K", "move", "Orders!B12", (at("11N4"),))])

    refused = validate_orders(state, VERA, step_on(3), {})
    assert [(p.cell, p.severity) for p in refused] == [("B12", "error")]
    assert "1 more turn" in refused[0].message
    after = run(state, step_on(3), [])
    k = after.fleet(ALIEN, "K")
    assert k is not None and (k.where, k.wait) == ("waiting", 0)
    assert [e.data["cell"] for e in after.events if e.kind == "order_cancelled"] == ["Orders!B12"]
    after = run(after, Orders(EMPIRE, "4"), [])
    assert after.turn == 5 and validate_orders(after, VERA, step_on(5), {}) == []
    moved = run(after, step_on(5), []).fleet(ALIEN, "K")
    assert moved is not None and (moved.where, moved.position) == ("map", at("11N4"))
    # Or back as a reserve enters: a jump from the maximum distance toward zone 33, level 4
    # (row 1 1 2 2 3 3 rolls; die 1: 1 zone, DR 3 = S: zone 34, SA 1 = N).
    entry = Orders(ALIEN, "5", entries=[ReserveEntry("K", (3, 3), 4, "Orders!B20")])
    assert validate_orders(after, VERA, entry, {}) == []
    entered = run(after, entry, [1, 3, 1]).fleet(ALIEN, "K")
    assert entered is not None and (entered.where, entered.position) == ("map", at("34N4"))


def test_a_planet_that_refused_the_strategic_demand_is_not_asked_again_in_round_1() -> None:
    """« S'il échoue, il peut tenter à nouveau pendant le même tour, seulement s'il détruit une
    autre base »: N1 (3 bases) refuses K's demand (8:3 = 2/1, die 6) and is attacked.  Every
    shot of round 1 misses (die 1), so no base falls: no demand in round 1.  Round 2 (all
    misses again) asks again, die 1: surrendered, with its 3 bases."""
    state = playing(3)
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau")
    attack = FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1", attack=True)
    script = Dice.scripted([6] + [1] * 24 + [1])
    after = resolve_turn(state, {VERA: Orders(ALIEN, "3", moves=[attack])}, script, {}).state
    demands = [(r.phase, r.result) for r in script.log if "surrender" in r.purpose]
    assert demands == [("conquest", 6), ("tactical round 2", 1)]
    assert len(script.log) == 26
    n1 = after.planet("N1")
    assert n1 is not None and (n1.holder, n1.bases) == (ALIEN, 3)


def test_a_demand_ends_the_empires_automatic_hold_on_that_planet() -> None:
    """« automatiquement considérées comme conquises et colonisées ... tant que le joueur
    extraterrestre n'essaie pas d'en prendre possession » (house rule
    ``attempt_breaks_automatic``, default on): K demands H1 (loyalty 4: refused, no die).
    H1 stays the Empire's but no longer produces: H scores nothing for the Empire at the end
    of turn 5, until the Empire lands a colonisation ship there on turn 6."""
    state = playing(5)
    place(state, ALIEN, "K", "42N2", "vaisseau")
    demand = FleetMove("K", "move", "Orders!B12", (at("42C2"),), land="H1")
    after = run(state, Orders(ALIEN, "5", moves=[demand]), [])
    h1 = after.planet("H1")
    assert h1 is not None and (h1.holder, h1.colonised, h1.automatic) == (EMPIRE, "", False)
    assert "H" not in after.points[EMPIRE] and "I" in after.points[EMPIRE]
    lost = next(e for e in after.events if e.kind == "automatic_lost")
    assert lost.data["planet"] == "H1" and set(lost.visible_to) == {VERA, IVO}
    # The Empire colonises it again (K gone): it produces at the end of turn 6.
    after.fleet(ALIEN, "K").where = "reserve"  # type: ignore[union-attr]
    place(after, EMPIRE, "A", "42S2", "colonisation")
    again = FleetMove("A", "move", "Orders!B12", (at("42C2"),), land="H1")
    back = run(after, Orders(EMPIRE, "6", moves=[again]), [])
    assert back.planet("H1").colonised == EMPIRE and back.points[EMPIRE]["H"] == 1  # type: ignore[union-attr]
    # The other reading: only taking a planet of the system ends the hold.
    kept = run(state, Orders(ALIEN, "5", moves=[demand]), [], attempt_breaks_automatic=False)
    h1 = kept.planet("H1")
    assert h1 is not None and (h1.colonised, h1.automatic) == (EMPIRE, True)
    assert kept.points[EMPIRE]["H"] == 1
