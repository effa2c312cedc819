"""Steps of Millenium through ``resolve_turn`` with fixed dice, each outcome counted by hand
from the seed (rules III, V, VI, VII, IX, X): what a blank or faulty set-up becomes, what a
refused order tells its side, where a jump comes out, what is bought and what the game's end
says.  The shipped cards dealt in map order give A-C loyalty 6 (A two planets), D-F 5, G-L 4,
M-P 3, Q-T 2, U-W 1, X-Z 0; the shipped map is 6 x 5 zones (docs/rules/millenium.md)."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.millenium.orders import (
    BattleResult,
    FleetMove,
    FleetSetup,
    Orders,
    PlanetResult,
    Purchase,
    ReserveEntry,
    ShipResult,
)
from refassist.rulesets.millenium.resolve import entry_ready, resolve_turn, step_key
from refassist.rulesets.millenium.setup import new_state
from refassist.rulesets.millenium.state import (
    ALIEN,
    CARDS,
    EMPIRE,
    IMPERIAL,
    PROGRAMME,
    Fleet,
    State,
)
from refassist.rulesets.millenium.tactical import TacticalOrders

from .situations import MAP, TABLES, at, dealt, place, playing, ships

VERA, IVO = "Vera", "Ivo"  # the Extraterrestrial, the Empire
LETTERS = list(MAP.systems)  # A-I, L-Z


def fresh() -> State:
    return new_state("g1", "Test", MAP, {ALIEN: VERA, EMPIRE: IVO}, TABLES.fleets)


def resolved(
    state: State, orders: dict[str, Orders], dice: list[int], **rules: object
) -> tuple[State, Dice]:
    script = Dice.scripted(dice)
    result = resolve_turn(state, orders, script, dict(rules))
    assert len(script.log) == len(dice), [r.purpose for r in script.log]
    return result.state, script


def told(state: State, kind: str) -> list[tuple[str, tuple[str, ...]]]:
    """The text of each event of ``kind`` and to whom it was told."""
    return [(e.text, e.visible_to) for e in state.events if e.kind == kind]


def ships_of(state: State, side: str, letter: str) -> list[str]:
    fleet = state.fleet(side, letter)
    assert fleet is not None
    return [s.kind for s in fleet.ships]


def cancelled(state: State) -> list[tuple[str, str, tuple[str, ...]]]:
    """Each order cancelled: its cell, what its side is told, and to whom."""
    return [
        (e.data["cell"], e.text, e.visible_to) for e in state.events if e.kind == "order_cancelled"
    ]


# -- the set-up (rule III) ---------------------------------------------------------------------
def test_a_blank_set_up_is_completed_with_the_dice_and_each_side_told_its_own() -> None:
    """Neither side sent a sheet.  Die 1 at every draw: the cards are dealt in map order (A
    draws among 24, ... Y among 2, Z takes the last), so A-C are the loyalty-6 systems; the
    imperial planet is the first of A1 A2 B1 C1; the six default fleets K ω δ ε κ A take the
    first of the loyalty 4-6 systems left (A B C D E F, among 10, 9, ... 5); the programme the
    first 18 letters left (among 24, ... 7).  The Extraterrestrial's fleets are composed and
    wait, unplaced, for its placement step."""
    dice = [1] * (23 + 1 + 6 + 18)
    after, script = resolved(fresh(), {}, dice)
    assert [r.sides for r in script.log] == [
        *range(24, 1, -1),
        4,
        *range(10, 4, -1),
        *range(24, 6, -1),
    ]
    assert script.secrets == {CARDS, IMPERIAL, PROGRAMME}
    assert [r.purpose for r in script.log[23:30]] == [
        "imperial planet",
        *(f"start of fleet {x}" for x in ("K", "ω", "δ", "ε", "κ", "A")),
    ]
    assert [after.systems[x].loyalty for x in "ABCDXYZ"] == [6, 6, 6, 5, 0, 0, 0]
    assert after.imperial == "A1"
    empire = {f.letter: str(f.position) for f in after.fleets if f.side == EMPIRE and f.ships}
    assert empire == {
        "K": "11C2",
        "ω": "21C5",
        "δ": "41C3",
        "ε": "51C6",
        "κ": "61C1",
        "A": "12C4",
    }
    assert [f.where for f in after.fleets if f.side == EMPIRE and not f.ships] == ["reserve"] * 3
    # In TAB 1's order of types, each as many times as composed.
    assert ships_of(after, EMPIRE, "K") == [
        "corvette",
        "corvette",
        "fregate",
        "fregate",
        "vaisseau",
        "colonisation",
    ]
    carrier = after.fleet(ALIEN, "ω")
    assert carrier is not None and carrier.where == "reserve" and carrier.position is None
    assert [s.interceptors for s in carrier.ships if s.kind == "porte_intercepteur"] == [6]
    assert after.programme == LETTERS[:18]
    assert told(after, "cards_random") == [
        ("the cards were not dealt one to each system: dealt at random", (IVO,))
    ]
    assert told(after, "imperial_random") == [
        ("no valid imperial planet was named: A1 chosen at random", (IVO,))
    ]
    assert told(after, "fleets_random") == [
        ("no fleet was composed: six fleets placed at random", (IVO,)),
        ("no fleet was composed: the six fleets of the default composition", (VERA,)),
    ]
    assert told(after, "programme_random") == [
        ("the programme was completed at random to 18 systems", (VERA,))
    ]
    assert told(after, "setup") == [
        ("the Empire's fleets stand on the map", ("*",)),
        ("the Extraterrestrial has written its set-up", ("*",)),
    ]
    assert after.turn == 0 and after.dice[0].phase == "set-up"
    assert {e.phase for e in after.events} == {"set-up"}


def test_the_set_up_sheets_as_written_and_what_of_them_cannot_stand() -> None:
    """The Empire deals card 24 to A ... card 1 to Z, so X, Y, Z are the loyalty-6 systems,
    and names Z2 (card 1: loyalty 6, two planets) imperial: no die.  Of its seven fleet lines
    the first six count: K (6 ships) at Z (65C2); ω (2) at Z too would make 8 ships, so it is
    placed as a blank fleet is, at the first of the loyalty 4-6 systems Q-Y without an Empire
    fleet (die 1 of 9: Q, 14C7); δ has no start and ε one off the map: composed, in reserve;
    a line for fleet "Q" names no fleet; κ stands at 11N4; the seventh (A) is not read.  The
    Extraterrestrial's programme names 17 systems (A twice, and no J on the map): one more is
    drawn among the 7 left (die 7: Z), and the programme is sorted."""
    empire = Orders(
        EMPIRE,
        "0-empire",
        cards={letter: 24 - n for n, letter in enumerate(LETTERS)},
        imperial="Z2",
        fleets=[
            FleetSetup(
                "K",
                {"vaisseau": 1, "fregate": 2, "corvette": 2, "colonisation": 1},
                at("Z"),
                "B1",
            ),
            FleetSetup("ω", {"corvette": 2}, at("65C2"), "B2"),
            FleetSetup("δ", {"fregate": 1}, None, "B3"),
            FleetSetup("Q", {"fregate": 1}, at("11C4"), "B4"),
            FleetSetup("ε", {"corvette": 1}, at("03E4"), "B5"),
            FleetSetup("κ", {"corvette": 1}, at("11N4"), "B6"),
            FleetSetup("A", {"corvette": 1}, at("11S4"), "B7"),
        ],
    )
    alien = Orders(
        ALIEN,
        "0-empire",
        programme=[*reversed(LETTERS[:17]), "A", "J"],
        fleets=[FleetSetup(x, {"corvette": 1}, None, "") for x in ("K", "ω", "δ", "ε", "κ", "A")]
        + [FleetSetup("B", {"corvette": 1}, None, "")],
    )
    after, script = resolved(fresh(), {IVO: empire, VERA: alien}, [1, 7])
    assert [(r.sides, r.purpose) for r in script.log] == [
        (9, "start of fleet ω"),
        (7, "programme"),
    ]
    assert script.secrets == {PROGRAMME}
    assert [after.systems[x].loyalty for x in "AQXYZ"] == [0, 4, 6, 6, 6]
    assert len(after.systems["Z"].planets) == 2 and after.imperial == "Z2"
    where = {f.letter: (f.where, str(f.position)) for f in after.fleets if f.side == EMPIRE}
    assert where == {
        "K": ("map", "65C2"),
        "ω": ("map", "14C7"),
        "δ": ("reserve", "None"),
        "ε": ("reserve", "None"),
        "κ": ("map", "11N4"),
        "A": ("reserve", "None"),
        "B": ("reserve", "None"),
        "X": ("reserve", "None"),
        "λ": ("reserve", "None"),
    }
    assert ships_of(after, EMPIRE, "ε") == ["corvette"] and ships_of(after, EMPIRE, "A") == []
    assert told(after, "stack_moved") == [
        (
            "fleet ω would have made more than 7 ships at 65C2: placed at 14C7, chosen at random",
            (IVO,),
        )
    ]
    assert [e.location for e in after.events if e.kind == "stack_moved"] == ["ω"]
    assert not told(after, "cards_random") and not told(after, "imperial_random")
    assert not told(after, "fleets_random")
    assert after.programme == [*LETTERS[:17], "Z"]
    assert [f.letter for f in after.fleets if f.side == ALIEN and f.ships] == [
        "A",
        "δ",
        "ε",
        "κ",
        "K",
        "ω",
    ]


def test_the_extraterrestrial_places_its_composed_fleets_beyond_the_edges() -> None:
    """Step 0-extraterrestre: δ, K and ω were composed (in that order of the counters).  K's
    line names 10S6, read at level 4 (rule III: they enter at level 4): an edge.  ω's names
    23C4, on the map, and δ has no line: each waits at an edge drawn among the 22 (the
    shipped 6 x 5 map: 10S4 16N4 20S4 26N4 30S4 ... 66N4, then 01E4 71W4 ... 75W4); die 5:
    30S4, die 22: 75W4.  The fleets composed of nothing stay in reserve."""
    state = dealt()
    state.programme = LETTERS[:18]
    for letter in ("δ", "K", "ω"):
        fleet = state.fleet(ALIEN, letter)
        assert fleet is not None
        fleet.ships = ships("corvette")
    tactics = TacticalOrders(stance="stand off", edge="E")
    orders = Orders(
        ALIEN,
        "0-extraterrestre",
        fleets=[
            FleetSetup("K", {}, at("10S6"), "H41"),
            FleetSetup("ω", {}, at("23C4"), "H42"),
        ],
        tactics=tactics,
    )
    after, script = resolved(state, {VERA: orders}, [5, 22])
    assert [(r.sides, r.purpose, r.phase) for r in script.log] == [
        (22, "start of fleet δ", "set-up"),
        (22, "start of fleet ω", "set-up"),
    ]
    waiting = {f.letter: (str(f.position), f.wait) for f in after.fleets if f.where == "waiting"}
    assert waiting == {"K": ("10S4", 0), "δ": ("30S4", 0), "ω": ("75W4", 0)}
    assert after.turn == 1 and after.tactics[ALIEN] == tactics
    assert told(after, "fleets_random") == [
        ("fleet δ was not placed: it waits at 30S4", (VERA,)),
        ("fleet ω was not placed: it waits at 75W4", (VERA,)),
    ]
    assert [e.location for e in after.events if e.kind == "fleets_random"] == ["δ", "ω"]
    assert told(after, "setup") == [("the Extraterrestrial's fleets wait beyond the edges", ("*",))]
    assert all(f.where == "reserve" for f in after.fleets if f.side == ALIEN and not f.ships)


# -- a game turn's refused orders ----------------------------------------------------------------
def test_each_refused_strategic_order_is_told_to_its_side_in_its_cell() -> None:
    """Turn 3, the Extraterrestrial's: K moves to 33C4, then a second line for K is refused
    (a fleet moves once); δ has no ship; no fleet Z exists; ε, in reserve, cannot jump nor
    (A) move; κ's jump to the next zone covers 1 zone of the 6 a jump needs; B's path costs
    6 points of 5; λ moves to N's planets (33C4) and cannot land on X1, which is not there."""
    state = playing(3)
    place(state, ALIEN, "K", "33N4", "corvette")
    place(state, ALIEN, "κ", "11C4", "corvette")
    place(state, ALIEN, "B", "11E4", "corvette")
    place(state, ALIEN, "λ", "33N4", "corvette")
    for letter in ("ε", "A"):
        state.fleet(ALIEN, letter).ships = ships("corvette")  # type: ignore[union-attr]
    far = tuple(at(p) for p in ("21W4", "21C4", "21C5", "21E5", "31W5"))
    orders = Orders(
        ALIEN,
        "3",
        moves=[
            FleetMove("K", "move", "Orders!B12", (at("33C4"),)),
            FleetMove("K", "move", "Orders!B13", (at("33N4"),)),
            FleetMove("δ", "move", "Orders!B14", (at("11C4"),)),
            FleetMove("Z", "move", "Orders!B15", (at("11C4"),)),
            FleetMove("ε", "jump", "Orders!B16", zone=(3, 3), level=4),
            FleetMove("A", "move", "Orders!B17", (at("23C4"),)),
            FleetMove("κ", "jump", "Orders!B18", zone=(2, 1), level=4),
            FleetMove("B", "move", "Orders!B19", far),
            FleetMove("λ", "move", "Orders!B20", (at("33C4"),), land="X1"),
        ],
    )
    after, _ = resolved(state, {VERA: orders}, [])
    assert cancelled(after) == [
        ("Orders!B13", "fleet K of the Extraterrestrial cannot move now", (VERA,)),
        ("Orders!B14", "fleet δ of the Extraterrestrial cannot move now", (VERA,)),
        ("Orders!B15", "fleet Z of the Extraterrestrial cannot move now", (VERA,)),
        ("Orders!B16", "fleet ε of the Extraterrestrial is not on the map to jump", (VERA,)),
        ("Orders!B17", "fleet A of the Extraterrestrial cannot move now", (VERA,)),
        (
            "Orders!B18",
            "a jump covers at least 6 zones (each level counts as one); this one covers 1",
            (VERA,),
        ),
        (
            "Orders!B19",
            "fleet B of the Extraterrestrial: the move costs 6 points; a fleet has 5",
            (VERA,),
        ),
        ("Orders!B20", "fleet λ of the Extraterrestrial is not at planet X1", (VERA,)),
    ]
    assert [e.location for e in after.events if e.kind == "order_cancelled"] == [
        f"Orders!B{n}" for n in range(13, 21)
    ]
    assert told(after, "move") == [
        ("fleet K of the Extraterrestrial moved to 33C4", ("*",)),
        ("fleet λ of the Extraterrestrial moved to 33C4", ("*",)),
    ]
    assert [str(f.position) for f in (after.fleet(ALIEN, x) for x in "KκB")] == [  # type: ignore[union-attr]
        "33C4",
        "11C4",
        "11E4",
    ]


def test_a_reserve_that_cannot_enter_is_told_so() -> None:
    """Turn 4, the Empire's: no fleet Z; δ in reserve has no ship; K stands on the map (only
    a reserve, or a fleet whose wait outside is over, enters by hyperspace); ε aims at zone
    03, beyond the map's edge.  Nothing moves and no die is rolled."""
    state = playing(4)
    place(state, EMPIRE, "K", "11C4", "corvette")
    state.fleet(EMPIRE, "ε").ships = ships("corvette")  # type: ignore[union-attr]
    orders = Orders(
        EMPIRE,
        "4",
        entries=[
            ReserveEntry("Z", (3, 3), 4, "Orders!B20"),
            ReserveEntry("δ", (3, 3), 4, "Orders!B21"),
            ReserveEntry("K", (3, 3), 4, "Orders!B22"),
            ReserveEntry("ε", (0, 3), 4, "Orders!B23"),
        ],
    )
    after, _ = resolved(state, {IVO: orders}, [])
    assert cancelled(after) == [
        (f"Orders!B{20 + n}", f"fleet {x} of the Empire cannot enter now", (IVO,))
        for n, x in enumerate(("Z", "δ", "K", "ε"))
    ]
    assert after.fleet(EMPIRE, "ε").where == "reserve"  # type: ignore[union-attr]
    assert str(after.fleet(EMPIRE, "K").position) == "11C4"  # type: ignore[union-attr]


def test_damaged_ships_scattered_off_the_map_are_lost_and_a_fleet_of_them_destroyed() -> None:
    """Rule VII A: damaged ships jump from the maximum distance, and « s'ils sortent de la
    carte, ils sont détruits ».  Turn 2: K (a damaged corvette, a frégate) jumps from 65C4 to
    zone 11, level 4: TAB 3's maximum row 1 1 2 2 3 3, die 5: 3 zones; DR die 1: N, to zone
    1-2, 3 zones off the map: it waits 2 turns at 10S4, and the corvette is lost.  ω (one
    damaged corvette) jumps from 64C4: die 6, 3 zones; DR 4: W, zone -2 1: nothing is left
    of it.  What each lost is told to the Empire alone; where each went, to both."""
    state = playing(2)
    place(state, EMPIRE, "K", "65C4", "corvette", "fregate")
    place(state, EMPIRE, "ω", "64C4", "corvette")
    state.fleet(EMPIRE, "K").ships[0].damaged = True  # type: ignore[union-attr]
    state.fleet(EMPIRE, "ω").ships[0].damaged = True  # type: ignore[union-attr]
    orders = Orders(
        EMPIRE,
        "2",
        moves=[
            FleetMove("K", "jump", "Orders!B12", zone=(1, 1), level=4),
            FleetMove("ω", "jump", "Orders!B13", zone=(1, 1), level=4),
        ],
    )
    after, _ = resolved(state, {IVO: orders}, [5, 1, 6, 4])
    k, omega = after.fleet(EMPIRE, "K"), after.fleet(EMPIRE, "ω")
    assert k is not None and omega is not None
    assert (k.where, str(k.position), k.wait, ships_of(after, EMPIRE, "K")) == (
        "waiting",
        "10S4",
        2,
        ["fregate"],
    )
    assert (omega.where, omega.position, omega.ships) == ("destroyed", None, [])
    assert told(after, "ships_lost") == [
        ("1 damaged ship of fleet K of the Empire lost off the map", (IVO,)),
        ("1 damaged ship of fleet ω of the Empire lost off the map", (IVO,)),
    ]
    assert told(after, "jump") == [
        ("fleet K of the Empire scattered 3 zones off the map; it waits 2 turns", ("*",)),
        ("fleet ω of the Empire scattered 3 zones off the map; it waits 2 turns", ("*",)),
    ]
    assert [e.location for e in after.events if e.kind == "jump"] == ["11", "11"]
    assert told(after, "dice")[:2] == [
        ("fleet K, TAB 3 (from the maximum distance): die 5, deviation 3", (IVO,)),
        ("fleet K, rose DR: die 1, toward N", (IVO,)),
    ]


def test_a_jump_onto_its_own_stack_comes_out_clockwise_or_not_at_all() -> None:
    """« jamais » more than seven ships together (rule VII A 1).  Turn 2: δ (2 ships) jumps
    from 11C1 to zone 33, level 4: 2 + 2 + 3 = 7 zones, row 0 0 0 0 1 1, die 1: no
    deviation; SA die 1: N.  33N4 holds K's 6 ships and 33E4 ω's 6: δ comes out at 33S4, the
    next sector clockwise with room.  With ε and κ at 33S4 and 33W4 too, no sector has room:
    δ stays where it was."""
    state = playing(2)
    place(state, EMPIRE, "K", "33N4", *["corvette"] * 6)
    place(state, EMPIRE, "ω", "33E4", *["corvette"] * 6)
    place(state, EMPIRE, "δ", "11C1", "fregate", "fregate")
    jump = Orders(EMPIRE, "2", moves=[FleetMove("δ", "jump", "Orders!B12", zone=(3, 3), level=4)])
    after, _ = resolved(state, {IVO: jump}, [1, 1])
    assert str(after.fleet(EMPIRE, "δ").position) == "33S4"  # type: ignore[union-attr]
    assert told(after, "stack_moved") == [
        (
            "fleet δ of the Empire would have made more than 7 ships at 33N4: it came out at 33S4",
            ("*",),
        )
    ]
    assert [e.location for e in after.events if e.kind == "stack_moved"] == ["33S4"]
    assert told(after, "jump") == [("fleet δ of the Empire jumped to 33S4 (deviation 0)", ("*",))]
    place(state, EMPIRE, "ε", "33S4", *["corvette"] * 6)
    place(state, EMPIRE, "κ", "33W4", *["corvette"] * 6)
    full, _ = resolved(state, {IVO: jump}, [1, 1])
    assert str(full.fleet(EMPIRE, "δ").position) == "11C1"  # type: ignore[union-attr]
    assert told(full, "jump") == [
        (
            "fleet δ of the Empire found no sector of zone 33 with room under the stacking "
            "limit: it did not jump",
            ("*",),
        )
    ]
    assert not told(full, "stack_moved")
    assert [(e.data["fleet"], e.data["side"]) for e in full.events if e.kind == "jump"] == [
        ("δ", EMPIRE)
    ]


def test_replacement_ships_join_their_fleet_where_it_stands() -> None:
    """Rule IX: ships bought for a fleet on the map enter as a reserve does and « seront tenus
    de rejoindre le plus rapidement possible leur flotte ».  K+ stands with K at 33C4 and
    joins it; ω+ stands a sector away from ω and stays apart; the Extraterrestrial's K+
    beside its K does not join on the Empire's turn."""
    state = playing(2)
    place(state, EMPIRE, "K", "33C4", "corvette")
    place(state, EMPIRE, "ω", "33N4", "corvette")
    place(state, ALIEN, "K", "11C4", "corvette")
    for side, letter, where in (
        (EMPIRE, "K+", "33C4"),
        (EMPIRE, "ω+", "33E4"),
        (ALIEN, "K+", "11C4"),
    ):
        state.fleets.append(Fleet(side, letter, ships("fregate"), "map", at(where)))
    after, _ = resolved(state, {IVO: Orders(EMPIRE, "2")}, [])
    assert ships_of(after, EMPIRE, "K") == ["corvette", "fregate"]
    assert after.fleet(EMPIRE, "K+") is None
    assert ships_of(after, EMPIRE, "ω") == ["corvette"] and after.fleet(EMPIRE, "ω+") is not None
    assert after.fleet(ALIEN, "K+") is not None and ships_of(after, ALIEN, "K") == ["corvette"]
    assert told(after, "joined") == [("replacement ships joined fleet K of the Empire", (IVO,))]
    assert [e.location for e in after.events if e.kind == "joined"] == ["33C4"]


def test_ships_bought_go_where_their_fleet_is_and_tab_1_limits_each_purchase() -> None:
    """Rule IX, turn 4: the Empire scores its ten loyalty 4-6 systems (10), the
    Extraterrestrial its colonised X (1), each told its own.  With 13 banked the Empire has
    23: a corvette (2) and two frégates (8) for K, on the map, wait as K+ to join it; a
    porte-intercepteur (6, with its 6 interceptors) rebuilds the destroyed ε in reserve; a
    corvette (2) for δ, in reserve, joins it there; one (2) for κ, waiting off the map, waits
    as κ+; 3 points are left, too few for another porte-intercepteur.  Refused before any
    point is spent: a third vaisseau in K (2 a fleet), two more in δ (4 a side: K 1, ω 2),
    three corvettes in A (it holds 2 ships), a fleet Z, a type "cuirasse" and none bought."""
    state = playing(4)
    state.points[EMPIRE] = {"A": 13}
    x1 = state.planet("X1")
    assert x1 is not None
    x1.holder = x1.colonised = ALIEN
    place(state, EMPIRE, "K", "33C4", "vaisseau")
    place(state, EMPIRE, "ω", "11C4", "vaisseau", "vaisseau")
    place(state, EMPIRE, "κ", "11C4", "corvette")
    kappa = state.fleet(EMPIRE, "κ")
    assert kappa is not None
    kappa.where, kappa.position = "waiting", at("10S4")
    state.fleet(EMPIRE, "ε").where = "destroyed"  # type: ignore[union-attr]
    buy = [
        ("K", "corvette", 1),
        ("K", "fregate", 2),
        ("K", "vaisseau", 2),
        ("ε", "porte_intercepteur", 1),
        ("δ", "vaisseau", 2),
        ("δ", "corvette", 1),
        ("A", "corvette", 3),
        ("Z", "corvette", 1),
        ("δ", "cuirasse", 1),
        ("δ", "corvette", 0),
        ("κ", "corvette", 1),
        ("ε", "porte_intercepteur", 1),
    ]
    orders = Orders(
        EMPIRE,
        "4",
        purchases=[Purchase(f, k, n, f"Orders!C{30 + i}") for i, (f, k, n) in enumerate(buy)],
    )
    after, _ = resolved(state, {IVO: orders}, [])
    assert told(after, "production") == [
        ("1 production point scored", (VERA,)),
        ("10 production points scored", (IVO,)),
    ]
    assert [e.data["points"] for e in after.events if e.kind == "production"] == [1, 10]
    assert told(after, "purchase") == [
        ("1 corvette bought for fleet K of the Empire", (IVO,)),
        ("2 frigates bought for fleet K of the Empire", (IVO,)),
        ("1 carrier bought for fleet ε of the Empire", (IVO,)),
        ("1 corvette bought for fleet δ of the Empire", (IVO,)),
        ("1 corvette bought for fleet κ of the Empire", (IVO,)),
    ]
    assert [e.location for e in after.events if e.kind == "purchase"] == list("KKεδκ")
    assert cancelled(after) == [
        ("Orders!C32", "a fleet holds at most 2 ships of the line", (IVO,)),
        ("Orders!C34", "a side has at most 4 ships of the line at once", (IVO,)),
        ("Orders!C36", "fleet A holds 2 ships; it would hold 3", (IVO,)),
        ("Orders!C37", "no corvette can be bought for fleet Z of the Empire", (IVO,)),
        ("Orders!C38", "no cuirasse can be bought for fleet δ of the Empire", (IVO,)),
        ("Orders!C39", "no corvette can be bought for fleet δ of the Empire", (IVO,)),
        ("Orders!C41", "6 points needed; 3 points banked", (IVO,)),
    ]
    assert ships_of(after, EMPIRE, "K") == ["vaisseau"]
    assert ships_of(after, EMPIRE, "K+") == ["corvette", "fregate", "fregate"]
    k_plus = after.fleet(EMPIRE, "K+")
    assert k_plus is not None and (k_plus.where, k_plus.position) == ("reserve", None)
    epsilon = after.fleet(EMPIRE, "ε")
    assert epsilon is not None and (epsilon.where, epsilon.position) == ("reserve", None)
    assert [(s.kind, s.interceptors) for s in epsilon.ships] == [("porte_intercepteur", 6)]
    assert ships_of(after, EMPIRE, "δ") == ["corvette"]
    assert ships_of(after, EMPIRE, "κ") == ["corvette"]
    assert ships_of(after, EMPIRE, "κ+") == ["corvette"]
    assert after.total_points(EMPIRE) == 3 and after.points[ALIEN] == {"X": 1}


# -- the turn's end ------------------------------------------------------------------------------
def programme_game(*programme: str) -> State:
    """Turn 3 with X1 and Y1 the Extraterrestrial's, conquered and colonised."""
    state = playing(3)
    state.programme = list(programme)
    for name in ("X1", "Y1"):
        planet = state.planet(name)
        assert planet is not None
        planet.holder = planet.colonised = ALIEN
    return state


def test_the_programme_scored_after_the_last_turn_names_the_winner() -> None:
    """Rule X with ``last_turn = 3``: X and Y, colonised at the end of turn 3, +1 each; Z,
    never, -2.  X and Y: +2, the Extraterrestrial wins.  X, Y and Z: 0, the Empire's by the
    default reading (the programme not carried out), a draw by the other.  Before the last
    turn nothing is scored."""
    won, _ = resolved(programme_game("X", "Y"), {}, [], last_turn=3)
    text = "after turn 3: the programme scores +2; the Extraterrestrial wins"
    assert (won.winner, won.finished, won.imperial_revealed, won.turn) == (ALIEN, text, True, 4)
    (over,) = [e for e in won.events if e.kind == "game_over"]
    assert (over.text, over.visible_to, over.phase) == (text, ("*",), "end")
    assert over.data["programme"] == ["X", "Y"]
    assert [(line["system"], line["points"]) for line in over.data["lines"]] == [
        ("X", 1),
        ("Y", 1),
    ]
    even, _ = resolved(programme_game("X", "Y", "Z"), {}, [], last_turn=3)
    assert (even.winner, even.finished) == (
        EMPIRE,
        "after turn 3: the programme scores +0; the Empire wins",
    )
    drawn, _ = resolved(programme_game("X", "Y", "Z"), {}, [], last_turn=3, zero_score="draw")
    assert (drawn.winner, drawn.finished) == (
        "draw",
        "after turn 3: the programme scores +0; a draw",
    )
    going_on, _ = resolved(programme_game("X", "Y"), {}, [], last_turn=4)
    assert (going_on.winner, going_on.finished, going_on.imperial_revealed) == ("", "", False)
    assert going_on.turn == 4 and not told(going_on, "game_over")


def test_the_summary_counts_moves_jumps_battles_and_conquests() -> None:
    """Turn 3: K moves to X's planets and takes X1 with its colony ship (X is loyalty 0: no
    demand); λ moves to F's; ω jumps from 11C4 to zone 33, level 6 (6 zones, row 0 0 0 0 1 1,
    die 3: no deviation; SA die 1: N)."""
    state = playing(3)
    place(state, ALIEN, "K", "35N4", "corvette", "colonisation")
    place(state, ALIEN, "λ", "12N4", "corvette")
    place(state, ALIEN, "ω", "11C4", "corvette")
    orders = Orders(
        ALIEN,
        "3",
        moves=[
            FleetMove("K", "move", "Orders!B12", (at("35C4"),), land="X1"),
            FleetMove("λ", "move", "Orders!B13", (at("12C4"),)),
            FleetMove("ω", "jump", "Orders!B14", zone=(3, 3), level=6),
        ],
    )
    result = resolve_turn(state, {VERA: orders}, Dice.scripted([3, 1]), {})
    assert result.summary == "2 moves, 1 jump, 0 battles, 1 conquest"
    assert str(result.state.fleet(ALIEN, "ω").position) == "33N6"  # type: ignore[union-attr]


def test_a_fleet_is_repaired_only_halting_at_its_own_colonised_planet() -> None:
    """« réparés gratuitement s'ils font halte pendant 1 phase stratégique dans un secteur
    contenant une de leur planète, conquise et colonisée » (rule VIII C), and carriers take
    back their interceptors.  Turn 2, the Empire's: K (a damaged corvette) at A's planets and
    B (a carrier with 2 interceptors) at C's are repaired; ω, damaged, moved into B's planets
    this turn; δ, damaged, halts at H's, whose H1 the Empire holds no longer colonised; κ,
    damaged, halts beside N (33N4); A's carrier at C has its 6 interceptors: nothing to
    mend.  The Extraterrestrial's damaged K at its colonised X1 waits for its own turn."""
    state = playing(2)
    h1 = state.planet("H1")
    assert h1 is not None
    h1.colonised, h1.automatic = "", False
    x1 = state.planet("X1")
    assert x1 is not None
    x1.holder = x1.colonised = ALIEN
    place(state, EMPIRE, "K", "A", "corvette")
    place(state, EMPIRE, "B", "C", "porte_intercepteur")
    place(state, EMPIRE, "ω", "21N5", "corvette")
    place(state, EMPIRE, "δ", "H", "corvette")
    place(state, EMPIRE, "κ", "33N4", "corvette")
    place(state, EMPIRE, "A", "C", "porte_intercepteur")
    place(state, ALIEN, "K", "X", "corvette")
    for side, letter in ((EMPIRE, "K"), (EMPIRE, "ω"), (EMPIRE, "δ"), (EMPIRE, "κ"), (ALIEN, "K")):
        state.fleet(side, letter).ships[0].damaged = True  # type: ignore[union-attr]
    state.fleet(EMPIRE, "B").ships[0].interceptors = 2  # type: ignore[union-attr]
    state.fleet(EMPIRE, "A").ships[0].interceptors = 6  # type: ignore[union-attr]
    orders = Orders(EMPIRE, "2", moves=[FleetMove("ω", "move", "Orders!B12", (at("21C5"),))])
    after, _ = resolved(state, {IVO: orders}, [])

    def damaged(side: str, letter: str) -> bool:
        return after.fleet(side, letter).ships[0].damaged  # type: ignore[union-attr]

    assert [damaged(EMPIRE, x) for x in "Kωδκ"] == [False, True, True, True]
    assert damaged(ALIEN, "K")
    carrier = after.fleet(EMPIRE, "B").ships[0]  # type: ignore[union-attr]
    assert (carrier.interceptors, carrier.damaged) == (6, False)
    assert told(after, "repaired") == [
        ("fleet B of the Empire repaired at C", (IVO,)),
        ("fleet K of the Empire repaired at A", (IVO,)),
    ]
    assert [e.location for e in after.events if e.kind == "repaired"] == ["C", "A"]


def test_a_colony_ship_colonises_its_sides_planet_and_may_be_used_up() -> None:
    """H1 is the Empire's but no longer colonised (its automatic hold ended).  The Empire's A
    lands on it with a colony ship: colonised, told to both; by the house rule
    ``colonisers_used_up`` the colony ship is spent, otherwise it stays in the fleet.  A
    planet already colonised is not colonised again."""
    state = playing(2)
    h1 = state.planet("H1")
    assert h1 is not None
    h1.colonised, h1.automatic = "", False
    place(state, EMPIRE, "A", "42S2", "corvette", "colonisation")
    land = Orders(
        EMPIRE, "2", moves=[FleetMove("A", "move", "Orders!B12", (at("42C2"),), land="H1")]
    )
    kept, _ = resolved(state, {IVO: land}, [])
    assert kept.planet("H1").colonised == EMPIRE  # type: ignore[union-attr]
    assert told(kept, "colonised") == [("H1 colonised", ("*",))]
    assert [(e.location, e.data["planet"]) for e in kept.events if e.kind == "colonised"] == [
        ("H1", "H1")
    ]
    assert ships_of(kept, EMPIRE, "A") == ["corvette", "colonisation"]
    spent, _ = resolved(state, {IVO: land}, [], colonisers_used_up=True)
    assert spent.planet("H1").colonised == EMPIRE  # type: ignore[union-attr]
    assert ships_of(spent, EMPIRE, "A") == ["corvette"]
    h1.colonised = EMPIRE
    again, _ = resolved(state, {IVO: land}, [], colonisers_used_up=True)
    assert not told(again, "colonised") and ships_of(again, EMPIRE, "A") == [
        "corvette",
        "colonisation",
    ]


def test_a_surrender_takes_the_planet_and_by_the_house_rule_the_points_banked_there() -> None:
    """K (two vaisseaux and a colony ship: 9 points) demands N1 (loyalty 3): 3/1, die 3
    surrenders; it is taken with its 3 bases and colonised, told to both.  Under
    ``points_lost_with_system`` the 2 points the Empire banked in N go with it, told to the
    Empire; by default they stay."""
    state = playing(3)
    state.points[EMPIRE] = {"N": 2}
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    orders = Orders(
        ALIEN, "3", moves=[FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1")]
    )
    lost, _ = resolved(state, {VERA: orders}, [3], points_lost_with_system=True)
    assert told(lost, "conquest") == [
        ("N1 taken by the Extraterrestrial and colonised; loyalty 3", (VERA, IVO))
    ]
    assert [e.location for e in lost.events if e.kind == "conquest"] == ["N1"]
    assert told(lost, "points_lost") == [("2 production points banked in N lost", (IVO,))]
    assert [(e.location, e.phase) for e in lost.events if e.kind == "points_lost"] == [
        ("N", "conquest")
    ]
    assert "N" not in lost.points[EMPIRE] and lost.points[ALIEN] == {"N": 1}
    kept, _ = resolved(state, {VERA: orders}, [3])
    assert kept.points[EMPIRE]["N"] == 2 and not told(kept, "points_lost")


# -- battles on the referee's table ------------------------------------------------------------
def attack_held(*alien_planets: str) -> State:
    """Turn 3 with ``battles = "referee"``: K (two vaisseaux, a colony ship) attacks N1
    (loyalty 3), which refuses without a die since the Empire's A stands at its planets (rule
    VII C); the turn waits for the table.  The Extraterrestrial holds ``alien_planets``."""
    state = playing(3)
    for name in alien_planets:
        planet = state.planet(name)
        assert planet is not None
        planet.holder = planet.colonised = ALIEN
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    place(state, EMPIRE, "A", "33C4", "fregate")
    attack = FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1", attack=True)
    after, _ = resolved(state, {VERA: Orders(ALIEN, "3", moves=[attack])}, [], battles="referee")
    assert after.held is not None
    return after


def test_a_fleet_leaving_a_battle_jumps_toward_its_nearest_system_a_jump_away() -> None:
    """Rule VIII: a fleet leaving the battle goes by hyperspace from the maximum distance.  Our
    reading: toward the nearest system of its side at least a jump (6 zones) away.  From
    33C4 the Extraterrestrial's X (zone 35, level 4) is 2 zones away, A (11, level 2) 6 and Z
    (65, level 2) 7: toward A.  Maximum row 1 1 2 2 3 3, die 1: 1 zone; DR die 2: E, zone
    21; SA die 1: N.  The battle is told as the attacker having left."""
    state = attack_held("X1", "A1", "Z1")
    left = BattleResult(
        "B3-1", "3-batailles", "", planet=[PlanetResult("N1", 3, False, "")], left=(ALIEN,)
    )
    after, script = resolved(state, {"B3-1": left}, [1, 2, 1], battles="referee")
    assert [(r.phase, r.location) for r in script.log] == [("retreat", "K")] * 3
    assert told(after, "dice") == [
        ("fleet K, TAB 3 (from the maximum distance): die 1, deviation 1", (VERA,)),
        ("fleet K, rose DR: die 2, toward E", (VERA,)),
        ("fleet K, rose SA: die 1, sector N", (VERA,)),
    ]
    assert {e.phase for e in after.events if e.kind in ("dice", "jump")} == {"retreat"}
    assert str(after.fleet(ALIEN, "K").position) == "21N2"  # type: ignore[union-attr]
    assert told(after, "battle") == [("battle at N1: the attacker left", (VERA, IVO))]
    assert told(after, "jump") == [
        ("fleet K of the Extraterrestrial jumped to 21N2 (deviation 1)", ("*",))
    ]
    assert after.planet("N1").holder == EMPIRE  # type: ignore[union-attr]


def test_a_fleet_with_no_system_to_go_to_jumps_to_the_furthest_zone() -> None:
    """With no system of its own, K leaves toward the zone furthest from 33: 65 and 61 are 5
    zones away, the later (65) taken; 5 zones on level 4 are no jump, so it aims at level 7
    (from level 4 or lower; 1 from above): 8 zones.  Maximum row, die 3: 2 zones; DR die 3:
    S, zone 67, 2 zones off the map: it waits 1 turn at 66N7, no SA die rolled."""
    state = attack_held()
    left = BattleResult(
        "B3-1", "3-batailles", "", planet=[PlanetResult("N1", 3, False, "")], left=(ALIEN,)
    )
    after, _ = resolved(state, {"B3-1": left}, [3, 3], battles="referee")
    k = after.fleet(ALIEN, "K")
    assert k is not None and (k.where, str(k.position), k.wait) == ("waiting", "66N7", 1)
    assert told(after, "jump") == [
        ("fleet K of the Extraterrestrial scattered 2 zones off the map; it waits 1 turn", ("*",))
    ]


def test_a_turn_with_two_battles_waits_for_the_table_with_each_named() -> None:
    """Turn 3, ``battles = "referee"``: K attacks N1 (which refuses with no die: the Empire's
    A stands at its planets) and ω moves onto the Empire's κ at 22C4.  The turn stops after
    the strategic phase: battle B3-1 at N1 (the planet attack, as written), B3-2 at 22C4 (the
    meeting), each told to both; the fleets that moved and the purchases wait with them."""
    state = playing(3)
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    place(state, EMPIRE, "A", "33C4", "fregate")
    place(state, ALIEN, "ω", "22N4", "corvette")
    place(state, EMPIRE, "κ", "22C4", "corvette")
    buy = Purchase("B", "corvette", 1, "Orders!B27")
    orders = Orders(
        ALIEN,
        "3",
        moves=[
            FleetMove("ω", "move", "Orders!B12", (at("22C4"),)),
            FleetMove("K", "move", "Orders!B13", (at("33C4"),), land="N1", attack=True),
        ],
        purchases=[buy],
    )
    after, script = resolved(state, {VERA: orders}, [], battles="referee")
    assert script.log == [] and after.turn == 3
    assert after.held is not None
    assert (after.held.side, after.held.moved, after.held.purchases) == (ALIEN, ["K", "ω"], [buy])
    assert [(b.id, b.planet, str(b.position)) for b in after.held.battles] == [
        ("B3-1", "N1", "33C4"),
        ("B3-2", "", "22C4"),
    ]
    waiting = [
        (e.location, e.text, e.visible_to, e.data["battle"], e.phase)
        for e in after.events
        if e.kind == "battle_waiting"
    ]
    assert waiting == [
        (
            "N1",
            "battle B3-1 at N1 is fought on the referee's table",
            (VERA, IVO),
            "B3-1",
            "tactical",
        ),
        (
            "22C4",
            "battle B3-2 at 22C4 is fought on the referee's table",
            (VERA, IVO),
            "B3-2",
            "tactical",
        ),
    ]
    assert not told(after, "production") and not told(after, "purchase")


def test_a_result_entered_from_the_table_is_written_back_and_told_with_its_notes() -> None:
    """The referee's sheet for B3-1: after 4 rounds K's first vaisseau is damaged, A's frégate
    destroyed (A has no ship left: destroyed, told to both), N1 keeps 1 base of its 3 (its
    loyalty is its bases, rule VII B).  The battle is told to both with the sheet's lines and
    notes; then the turn goes on to its production and end."""
    state = attack_held()
    result = BattleResult(
        "B3-1",
        "3-batailles",
        "",
        ships=[
            ShipResult(ALIEN, "K", 0, "vaisseau", "damaged", "Bataille!C5"),
            ShipResult(EMPIRE, "A", 0, "fregate", "destroyed", "Bataille!C6"),
        ],
        planet=[PlanetResult("N1", 1, False, "Bataille!C9")],
        rounds=4,
        notes="played at the club",
    )
    after, _ = resolved(state, {"B3-1": result}, [], battles="referee")
    assert after.held is None and after.turn == 4
    a = after.fleet(EMPIRE, "A")
    assert a is not None and (a.where, a.position, a.ships) == ("destroyed", None, [])
    assert told(after, "fleet_destroyed") == [("fleet A of the Empire destroyed", ("*",))]
    n1 = after.planet("N1")
    assert n1 is not None and (n1.holder, n1.bases, n1.loyalty) == (EMPIRE, 1, 1)
    k = after.fleet(ALIEN, "K")
    assert k is not None and [s.damaged for s in k.ships] == [True, False, False]
    (battle,) = [e for e in after.events if e.kind == "battle"]
    assert (battle.text, battle.visible_to, battle.location) == (
        "battle at N1: fought on the referee's table",
        (VERA, IVO),
        "N1",
    )
    assert battle.data["log"] == [
        "fought on the referee's table",
        "4 rounds",
        "K of the Extraterrestrial: a ship of the line damaged",
        "A of the Empire: a frigate destroyed",
    ]
    assert {k: battle.data[k] for k in ("rounds", "shots", "conquered", "attacker", "table")} == {
        "rounds": 4,
        "shots": [],
        "conquered": False,
        "attacker": ALIEN,
        "table": True,
    }
    assert battle.data["notes"] == "played at the club"
    one = BattleResult("B3-1", "3-batailles", "", rounds=1)
    step = resolve_turn(state, {"B3-1": one}, Dice.scripted([]), {"battles": "referee"})
    (battle,) = [e for e in step.state.events if e.kind == "battle"]
    assert battle.data["log"] == ["fought on the referee's table", "1 round"]
    assert step.summary == "0 moves, 0 jumps, 1 battle, 0 conquests"


def test_the_imperial_planet_taken_ends_the_game_before_any_battle() -> None:
    """Rule X: occupying the imperial planet wins at once.  Turn 3: ω attacks N1 (refused, no
    die: the Empire's A stands there), then K occupies the imperial B1 (its bases all lost
    earlier: loyalty 0, no die).  The game is over before the tactical phase: no battle is
    fought, nor left for the referee's table."""
    for rule in ("automatic", "referee"):
        state = playing(3)
        state.imperial = "B1"
        b1 = state.planet("B1")
        assert b1 is not None
        b1.loyalty = b1.bases = 0
        place(state, ALIEN, "K", "21N5", "corvette")
        place(state, ALIEN, "ω", "33N4", "vaisseau", "vaisseau")
        place(state, EMPIRE, "A", "33C4", "fregate")
        orders = Orders(
            ALIEN,
            "3",
            moves=[
                FleetMove("ω", "move", "Orders!B12", (at("33C4"),), land="N1", attack=True),
                FleetMove("K", "move", "Orders!B13", (at("21C5"),), land="B1"),
            ],
        )
        after, _ = resolved(state, {VERA: orders}, [], battles=rule)
        assert after.held is None and after.winner == ALIEN and after.imperial_revealed, rule
        text = "the Extraterrestrial occupied the imperial planet B1 on turn 3"
        assert told(after, "imperial") == [(text, ("*",))] and after.finished == text
        imperial = [(e.location, e.phase) for e in after.events if e.kind == "imperial"]
        assert imperial == [("B1", "conquest")], rule
        assert not told(after, "battle") and not told(after, "battle_waiting"), rule
        assert after.fleet(EMPIRE, "A").ships, rule  # type: ignore[union-attr]


def test_a_battle_after_the_imperial_planet_fell_on_the_table_is_not_fought() -> None:
    """Two battles wait for the table: B3-1, K against the imperial B1 (backed by the
    Empire's δ: refused, no die), and B3-2, ω against N1.  The referee enters B1 conquered
    with no base left: the Extraterrestrial wins at once, and B3-2, with no result entered,
    is not fought."""
    state = playing(3)
    state.imperial = "B1"
    place(state, ALIEN, "K", "21N5", "vaisseau", "vaisseau", "colonisation")
    place(state, EMPIRE, "δ", "21C5", "fregate")
    place(state, ALIEN, "ω", "33N4", "vaisseau", "vaisseau")
    place(state, EMPIRE, "A", "33C4", "fregate")
    orders = Orders(
        ALIEN,
        "3",
        moves=[
            FleetMove("K", "move", "Orders!B12", (at("21C5"),), land="B1", attack=True),
            FleetMove("ω", "move", "Orders!B13", (at("33C4"),), land="N1", attack=True),
        ],
    )
    held, _ = resolved(state, {VERA: orders}, [], battles="referee")
    assert held.held is not None and [b.id for b in held.held.battles] == ["B3-1", "B3-2"]
    taken = BattleResult("B3-1", "3-batailles", "", planet=[PlanetResult("B1", 0, True, "")])
    after, _ = resolved(held, {"B3-1": taken}, [], battles="referee")
    assert after.winner == ALIEN and after.planet("B1").holder == ALIEN  # type: ignore[union-attr]
    assert told(after, "battle") == [("battle at B1: B1 conquered", (VERA, IVO))]
    assert not told(after, "battle_unresolved")
    assert after.planet("N1").holder == EMPIRE and after.turn == 4  # type: ignore[union-attr]


def waiting(state: State, side: str, letter: str, where: str, *kinds: str) -> None:
    place(state, side, letter, where, *kinds)
    fleet = state.fleet(side, letter)
    assert fleet is not None
    fleet.where, fleet.wait = "waiting", 0


def test_on_turn_1_every_fleet_left_outside_enters_and_is_seen_entering() -> None:
    """Rule III: the Extraterrestrial's fleets « entreront toutes sur la carte, au niveau 4,
    en mouvement stratégique normal uniquement, pendant le 1er tour ».  K and ω wait at
    03E4 with no order: K (5 ships) steps onto 13W4; ω (3) would make 8 there, so it goes on
    to the planets' sector, 13C4.  Each entry is told to both, and zone 13's card (system L:
    loyalty 4, one planet) is shown.  An empty counter and the Empire's waiting fleet stay."""
    state = playing(1)
    waiting(state, ALIEN, "K", "03E4", "vaisseau", "fregate", "fregate", "corvette", "corvette")
    waiting(state, ALIEN, "ω", "03E4", "fregate", "fregate", "corvette")
    waiting(state, ALIEN, "A", "03E4")
    waiting(state, EMPIRE, "K", "05E4", "corvette")
    after, _ = resolved(state, {}, [])
    entered = [
        (e.location, e.text, e.visible_to, e.data["path"], e.data["fleet"], e.data["side"])
        for e in after.events
        if e.kind == "move"
    ]
    assert entered == [
        (
            "13W4",
            "fleet K of the Extraterrestrial had no order to enter: it entered at 13W4",
            ("*",),
            ["13W4"],
            "K",
            ALIEN,
        ),
        (
            "13C4",
            "fleet ω of the Extraterrestrial had no order to enter: it entered at 13C4",
            ("*",),
            ["13W4", "13C4"],
            "ω",
            ALIEN,
        ),
    ]
    assert told(after, "card") == [("card of system L: loyalty 4, 1 planet", (VERA, IVO))]
    assert after.revealed == {"L"}
    assert after.fleet(ALIEN, "A").where == "waiting"  # type: ignore[union-attr]
    assert after.fleet(EMPIRE, "K").where == "waiting"  # type: ignore[union-attr]


def test_each_step_is_named_and_a_side_without_a_sheet_keeps_its_standing_orders() -> None:
    """The steps: ``0-empire`` (no card dealt yet), ``0-extraterrestre``, then the game
    turn's number, and ``<turn>-batailles`` while its battles wait for the table.  A mover
    that sends no sheet moves nothing, and its standing tactical orders, from its latest
    sheet, hold (« a lazy step does not undo a side's choices »)."""
    assert step_key(fresh()) == "0-empire"
    assert step_key(dealt()) == "0-extraterrestre"
    assert step_key(attack_held()) == "3-batailles"
    state = playing(3)
    assert step_key(state) == "3"
    standing = TacticalOrders(stance="stand off", priority="bases", edge="N")
    state.tactics[ALIEN] = standing
    after, _ = resolved(state, {}, [])
    assert after.tactics[ALIEN] == standing and after.turn == 4


def test_the_defender_leaving_jumps_away_and_the_battle_is_told_as_fought() -> None:
    """The referee enters that the Empire's A left B3-1.  From 33C4 its systems a jump away
    are A (zone 11, level 2), D, Q, U and W at 6 zones, E at 8: the first of the nearest, A.
    Maximum row, die 1: 1 zone; DR die 3: S, zone 12; SA die 2: E.  The attacker stayed: the
    battle is told as fought on the table, and its dice to the Empire alone."""
    state = attack_held()
    left = BattleResult(
        "B3-1", "3-batailles", "", planet=[PlanetResult("N1", 3, False, "")], left=(EMPIRE,)
    )
    after, _ = resolved(state, {"B3-1": left}, [1, 3, 2], battles="referee")
    assert str(after.fleet(EMPIRE, "A").position) == "12E2"  # type: ignore[union-attr]
    assert str(after.fleet(ALIEN, "K").position) == "33C4"  # type: ignore[union-attr]
    assert told(after, "battle") == [("battle at N1: fought on the referee's table", (VERA, IVO))]
    assert told(after, "jump") == [("fleet A of the Empire jumped to 12E2 (deviation 1)", ("*",))]
    assert {who for _text, who in told(after, "dice")} == {(IVO,)}


def test_a_battle_left_without_a_result_is_fought_by_the_standing_orders_and_told_so() -> None:
    """``refassist resolve --now`` with no result sheet for B3-1: the battle is fought by the
    printed procedure from the standing tactical orders (its dice from the step's seed), and
    both sides are told why."""
    state = attack_held()
    after = resolve_turn(state, {}, Dice(seed=11), {"battles": "referee"}).state
    unresolved = [
        (e.location, e.text, e.visible_to, e.data["battle"], e.phase)
        for e in after.events
        if e.kind == "battle_unresolved"
    ]
    assert unresolved == [
        (
            "N1",
            "no result was entered for battle B3-1; it was fought by the standing tactical orders",
            (VERA, IVO),
            "B3-1",
            "tactical",
        )
    ]
    assert len(told(after, "battle")) == 1 and after.turn == 4


def test_a_reserve_that_entered_moves_no_further_this_turn() -> None:
    """Rule V's phases: reserve entry, then the strategic phase.  δ enters toward zone 11,
    level 4 (maximum row, die 1: 1 zone; DR die 3: S, zone 12; SA die 1: N): it has made its
    move, and its line for the strategic phase is refused."""
    state = playing(4)
    state.fleet(EMPIRE, "δ").ships = ships("fregate")  # type: ignore[union-attr]
    orders = Orders(
        EMPIRE,
        "4",
        entries=[ReserveEntry("δ", (1, 1), 4, "Orders!B20")],
        moves=[FleetMove("δ", "move", "Orders!B12", (at("12C4"),))],
    )
    after, _ = resolved(state, {IVO: orders}, [1, 3, 1])
    assert str(after.fleet(EMPIRE, "δ").position) == "12N4"  # type: ignore[union-attr]
    assert cancelled(after) == [("Orders!B12", "fleet δ of the Empire cannot move now", (IVO,))]


def test_who_may_enter_by_hyperspace() -> None:
    """Rule VI: a reserve from turn 2, and a fleet scattered off the map once its wait is
    over; a fleet on the map or still waiting may not, and no one on turn 1."""
    state = playing(2)
    place(state, EMPIRE, "K", "11C4", "corvette")
    waiting(state, EMPIRE, "ω", "10S4", "corvette")
    waiting(state, EMPIRE, "δ", "01E4", "corvette")
    state.fleet(EMPIRE, "δ").wait = 1  # type: ignore[union-attr]
    reserve, on_map = state.fleet(EMPIRE, "ε"), state.fleet(EMPIRE, "K")
    over, still = state.fleet(EMPIRE, "ω"), state.fleet(EMPIRE, "δ")
    assert reserve and on_map and over and still
    assert [entry_ready(state, f) for f in (reserve, on_map, over, still)] == [
        True,
        False,
        True,
        False,
    ]
    state.turn = 1
    assert not entry_ready(state, reserve) and not entry_ready(state, over)
