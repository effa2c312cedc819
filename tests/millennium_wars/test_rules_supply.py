"""The first impulse's business where mutation testing of supply.py found it untested (issue
51): lines of supply cut by the sea, by an enemy unit in the only land bridge and by a source
under an enemy zone of control; naval units left out of supply; the turn's air dominance and
weather reaching the support radius; guerrillas raised combat effective and placed line by
line (blank, unknown, repeated and unfit lines, a glacier's one unit, no free hex at all);
reinforcements that cannot arrive; purchases refused one by one without stopping the rest;
the rally and protest prices by side; information warfare lines, ID and IS choices and the
dice log.  Each situation is a 6 x 6 map set up by hand: Blue (First Player, NATO) owns
columns 01-02 and Red columns 05-06 unless told, and every expected outcome is worked out
from the rule in the docstring, not read off the code."""

from __future__ import annotations

from fractions import Fraction

import pytest

from refassist.dice import Dice
from refassist.geometry.hexmap import HexGrid
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.millennium_wars import supply
from refassist.rulesets.millennium_wars.combat import Conditions
from refassist.rulesets.millennium_wars.orders import InformationAttack, Purchase
from refassist.rulesets.millennium_wars.resolve import board_of
from refassist.rulesets.millennium_wars.scenario import Reinforcement, Scenario, Side
from refassist.rulesets.millennium_wars.state import State, new_state
from refassist.rulesets.millennium_wars.supply import BOTH, OWN, REFEREE, Told
from refassist.rulesets.millennium_wars.units import Unit

from .situations import blue, red

GRID = HexGrid(6, 6)


def game(
    *units: Unit,
    terrain: dict[str, str] | None = None,
    countries: dict[str, str] | None = None,
    sources: dict[str, list[str]] | None = None,
    reinforcements: list[Reinforcement] | None = None,
    iw_attacks: int = 1,
) -> State:
    """A game on the 6 x 6 map: plain unless ``terrain`` says; Blue's country columns 01-02
    and Red's 05-06 unless ``countries`` says; each side's supply sources its country unless
    ``sources`` lists them."""
    owners = countries
    if owners is None:
        owners = {
            h: {1: "Blue", 2: "Blue", 5: "Red", 6: "Red"}.get(int(h[:2]), "") for h in GRID.hexes()
        }
    listed = sources or {}
    scenario = Scenario(
        title="Rule test",
        turns=5,
        first="Blue",
        political_index=50,
        sides=[
            Side("Blue", "B", nato=True, c4i=2, supply=listed.get("Blue", [])),
            Side("Red", "R", nato=False, c4i=2, supply=listed.get("Red", [])),
        ],
        columns=6,
        rows=6,
        terrain={h: "plain" for h in GRID.hexes()} | (terrain or {}),
        countries=owners,
        rivers=set(),
        borders=set(),
        locs=[],
        places={},
        units=list(units),
        reinforcements=reinforcements or [],
        iw_attacks=iw_attacks,
    )
    players = [PlayerSetup("Ann", "a@example.com"), PlayerSetup("Bob", "b@example.com")]
    return new_state(scenario, players, "Rule test", "g")


def unit(state: State, uid: str) -> Unit:
    """The state's unit ``uid``, which the test knows is there."""
    found = state.unit(uid)
    assert found is not None, uid
    return found


def status(state: State) -> dict[str, str]:
    """Each land unit's supply as the state's board stands, in fair weather and air parity."""
    return supply.supply_status(state.scenario, board_of(state), Conditions())


# -- lines of supply ------------------------------------------------------------------------------


def bridged(*more: Unit) -> State:
    """Column 03 is sea but for 0303, the one land bridge from Blue's country (01-02) east.
    Red's R holds the bridge; its zone of control covers 0202, 0203, 0402 and 0403.  Blue's
    W stands at 0203 (a source, and it opens that hex), E at 0403 (opening it) and X at 0503;
    Blue's naval task force TF sails at 0301."""
    sea = {f"03{r:02d}": "sea" for r in range(1, 7) if r != 3}
    return game(
        blue("W", "0203"),
        blue("E", "0403"),
        blue("X", "0503"),
        blue("TF", "0301", kind="naval task force"),
        red("R", "0303"),
        *more,
        terrain=sea,
    )


def test_an_enemy_in_the_only_land_bridge_and_the_sea_cut_the_line() -> None:
    """The line east must cross column 03: the sea is no land hex, and 0303 holds an enemy
    unit, which no friendly unit beside it opens (only a zone of control is opened so).  W
    stands on its source: in supply; E and X trace no line: totally out.  The task force is no
    land unit and has no supply at all."""
    assert set(GRID.neighbours("0303")) == {"0302", "0304", "0202", "0203", "0402", "0403"}
    got = status(bridged())
    assert got == {"W": "full", "E": "out", "X": "out", "R": "out"}
    # Teeth: with R gone from the bridge the line crosses 0303 (E, X: partially out, no
    # logistics unit), and it never crosses the sea: with 0303 sea too, they are out again.
    state = bridged()
    state.units.remove(unit(state, "R"))
    assert status(state) == {"W": "full", "E": "partial", "X": "partial"}
    state.scenario.terrain["0303"] = "sea"
    assert status(state) == {"W": "full", "E": "out", "X": "out"}


def test_a_source_under_an_enemy_zone_of_control_feeds_no_line_until_a_friend_stands_on_it() -> (
    None
):
    """Blue's one source is 0101; Red's R at 0102 puts it in a zone of control.  Blue's A at
    0201 (also in it, opened by A itself) can reach 0101 but 0101 is closed: no line, totally
    out.  With Blue's B on 0101 the source opens: B in supply on it, A partially out."""
    assert set(GRID.neighbours("0102")) >= {"0101", "0201"}
    assert "0101" in GRID.neighbours("0201")
    state = game(blue("A", "0201"), red("R", "0102"), sources={"Blue": ["0101"]})
    assert status(state)["A"] == "out"
    state = game(blue("A", "0201"), blue("B", "0101"), red("R", "0102"), sources={"Blue": ["0101"]})
    got = status(state)
    assert (got["A"], got["B"]) == ("partial", "full")


def supported(**air: object) -> dict[str, object]:
    """Red's one source is 0601; its headquarters H (radius 3) at 0603 traces a line to it and
    supplies U at 0605, two hexes off.  The conditions come from the state's air and weather."""
    state = game(
        red("H", "0603", kind="headquarters", support=3),
        red("U", "0605"),
        sources={"Red": ["0601"]},
    )
    for key, value in air.items():
        setattr(state, key, value)
    conditions = supply.combat_conditions(state, board_of(state))
    return {
        "dominance": conditions.dominance,
        "bad_weather": conditions.bad_weather,
        "air": conditions.air,
        "U": conditions.supply["U"],
    }


def test_air_dominance_and_bad_weather_reach_the_support_radius() -> None:
    """The seed cuts the enemy's support radius to one under air dominance, and everyone's in
    bad weather; superiority does nothing to it.  U, two hexes from H: in supply unless the
    radius is one, then partially out (it still traces its line)."""
    assert supported() == {"dominance": "", "bad_weather": False, "air": "", "U": "full"}
    assert supported(air="Blue", air_level="first superiority") == {
        "dominance": "",
        "bad_weather": False,
        "air": "Blue",
        "U": "full",
    }
    assert supported(air="Blue", air_level="first dominance") == {
        "dominance": "Blue",
        "bad_weather": False,
        "air": "Blue",
        "U": "partial",
    }
    assert supported(air="Red", air_level="second dominance")["U"] == "full"  # its own
    assert supported(bad_weather=True) == {
        "dominance": "",
        "bad_weather": True,
        "air": "",
        "U": "partial",
    }


# -- guerrillas -----------------------------------------------------------------------------------


def test_guerrillas_rise_combat_effective_and_join_those_already_waiting() -> None:
    """The template P is disrupted, has completed its operations and is a reserve; the
    guerrillas it copies are new units: none of that.  A second event adds to the ones still
    waiting."""
    state = game(
        red("P", "0606", kind="paramilitary", disrupted=True, ops_complete=True, reserve=True)
    )
    first = supply.raise_guerrillas(state, "Red", 1)
    second = supply.raise_guerrillas(state, "Red", 2)
    assert [u.id for u in first + second] == ["P-G1", "P-G2", "P-G3"]
    assert [u.id for u in state.placing] == ["P-G1", "P-G2", "P-G3"]
    for u in state.placing:
        assert (u.hex, u.disrupted, u.ops_complete, u.reserve) == ("", False, False, False)
        assert (u.side, u.type) == ("Red", "paramilitary")


def test_guerrilla_lines_are_read_one_by_one() -> None:
    """Red's P (0606) raised two guerrillas; Red's Q stands at 0602.  The sheet's lines, in
    order: an Air Defense purchase (not a guerrilla line: passed over here); P-G9 (none such
    waits: said, the next line read); a blank unit at 0601 (the next waiting, P-G1); P-G2 with
    no hex (said; left to the rule unless a later line places it); a blank unit at 0602 (the
    next waiting, P-G2 now; a hex its own side's Q holds is free of enemies: placed); a blank
    unit at 0603 (none waits any more)."""
    state = game(red("P", "0606", kind="paramilitary"), red("Q", "0602"))
    supply.raise_guerrillas(state, "Red", 2)
    lines = supply.place_guerrillas(
        state,
        board_of(state),
        state.second,
        [
            Purchase("air defence"),
            Purchase("guerrilla", "P-G9", "0501"),
            Purchase("guerrilla", "", "0601"),
            Purchase("guerrilla", "P-G2", ""),
            Purchase("guerrilla", "", "0602"),
            Purchase("guerrilla", "", "0603"),
        ],
    )
    assert lines == [
        "P-G9: no guerrilla of Red's waits to be placed",
        "P-G1 (guerrillas) is placed at 0601",
        "P-G2 cannot be placed at no hex (a hex of Red's country without an enemy unit): "
        "placed by the rule",
        "P-G2 (guerrillas) is placed at 0602",
        "guerrillas: no guerrilla of Red's waits to be placed",
    ]
    assert (unit(state, "P-G1").hex, unit(state, "P-G2").hex) == ("0601", "0602")
    assert state.placing == []


def test_a_glacier_takes_one_guerrilla_and_the_rule_places_the_rest() -> None:
    """0603 and 0604 are glaciers (one land unit each); Red's G holds 0604.  P-G1 named at
    0604 cannot go (full): placed by the rule; P-G2 at the empty 0603 is placed.  The rule,
    with no enemy seen, puts P-G1 in the lowest free hex Red holds nothing in: 0501."""
    state = game(
        red("P", "0606", kind="paramilitary"),
        red("G", "0604", kind="light infantry"),
        terrain={"0603": "glacier", "0604": "glacier"},
    )
    supply.raise_guerrillas(state, "Red", 2)
    lines = supply.place_guerrillas(
        state,
        board_of(state),
        state.second,
        [Purchase("guerrilla", "P-G1", "0604"), Purchase("guerrilla", "P-G2", "0603")],
    )
    assert lines == [
        "P-G1 cannot be placed at 0604 (a hex of Red's country without an enemy unit): "
        "placed by the rule",
        "P-G2 (guerrillas) is placed at 0603",
        "P-G1 (guerrillas) is placed at 0501",
    ]
    assert [u.id for u in board_of(state).at("0604")] == ["G"]


def test_guerrillas_with_no_free_hex_are_each_said_and_none_waits() -> None:
    """Red's country is the one hex 0606, and Blue's B stands in it: no guerrilla can be
    placed.  Each is said, and none stays waiting or reaches the map."""
    only = {h: ("Red" if h == "0606" else "") for h in GRID.hexes()}
    state = game(red("P", "0101", kind="paramilitary"), blue("B", "0606"), countries=only)
    supply.raise_guerrillas(state, "Red", 2)
    lines = supply.place_guerrillas(state, board_of(state), state.second, [])
    assert lines == [
        "P-G1 cannot be placed: no hex of Red's country is free",
        "P-G2 cannot be placed: no hex of Red's country is free",
    ]
    assert state.placing == []
    assert [u.id for u in state.units] == ["P", "B"]


# -- reinforcements and purchases -----------------------------------------------------------------


def mountain_home() -> State:
    """Blue's country (01-02) is mountain, closed to mechanized units.  Due on turn 1: the
    armor B-AR at 0101, the infantry B-IN at 0101, the infantry B-IN2 at 0102, where Red's R
    stands."""
    hills = {h: "mountain" for h in GRID.hexes() if h[:2] in ("01", "02")}
    due = [
        Reinforcement(1, Unit("B-AR", "Blue", "armor", attack=6, defence=6, speed=6, hex="0101")),
        Reinforcement(1, Unit("B-IN", "Blue", "light infantry", attack=2, defence=3, hex="0101")),
        Reinforcement(1, Unit("B-IN2", "Blue", "light infantry", attack=2, defence=3, hex="0102")),
    ]
    return game(red("R", "0102"), terrain=hills, reinforcements=due)


def test_a_reinforcement_that_cannot_arrive_does_not_stop_the_next() -> None:
    """B-AR has no hex of its country to enter: said, and it is gone from the schedule.  B-IN
    arrives at 0101; B-IN2's 0102 holds an enemy: the nearest free hex of Blue's country, at
    one hex 0101, 0103, 0201 and 0202; the lowest id, 0101 (B-IN's, not full)."""
    state = mountain_home()
    lines = supply.place_reinforcements(state, board_of(state), state.first)
    assert lines == [
        "B-AR cannot arrive: no free hex in Blue's country",
        "B-IN arrives at 0101",
        "B-IN2 arrives at 0101 (0102 is not free)",
    ]
    assert state.unit("B-AR") is None
    assert (unit(state, "B-IN").hex, unit(state, "B-IN2").hex) == ("0101", "0101")
    assert state.arrived == ["B-AR", "B-IN", "B-IN2"]
    # Bought: the side is told every one available, in the schedule's order.
    state = mountain_home()
    assert supply.place_reinforcements(state, board_of(state), state.first, bought=True) == [
        "reinforcements available to buy: B-AR, B-IN, B-IN2"
    ]


def test_each_purchase_is_made_or_refused_on_its_own() -> None:
    """Blue (NATO, 50 points) lost C (an armor corps), D (an armor division, eliminated at
    0502, disrupted with its operations complete) and E (no hex kept).  Red holds 0102 and
    0202.  B-R (an armor division) is due at 0202, bought under the house rule.  The lines:

    a guerrilla line (placed elsewhere, nothing said here); C (NATO's table has no corps
    line); F (not eliminated); D with no hex and E with no hex (a replacement needs the hex
    the player names: the unit's old hex, or "no hex", is said); D at 0501 (Red's country),
    at 0102 (an enemy's); D at 0101 beside Blue's own A (bought: 8, back combat effective);
    B-R (its 0202 held: the nearest free hex of Blue's, 0103 of 0103/0201/0203; 4); Air
    Defense (2)."""
    lost = [
        Unit("C", "Blue", "armor", size="corps", attack=12, defence=12, hex="0301"),
        Unit(
            "D", "Blue", "armor", attack=6, defence=6, hex="0502", disrupted=True, ops_complete=True
        ),
        Unit("E", "Blue", "armor", attack=6, defence=6),
    ]
    due = [Reinforcement(1, Unit("B-R", "Blue", "armor", attack=6, defence=6, hex="0202"))]
    state = game(blue("A", "0101"), red("R1", "0102"), red("R2", "0202"), reinforcements=due)
    state.lost += lost
    blue_side = state.first
    blue_side.political_points = Fraction(50)
    lines = supply.buy(
        state,
        board_of(state),
        blue_side,
        [
            Purchase("guerrilla", "", "0101"),
            Purchase("replacement", "C", "0101"),
            Purchase("replacement", "F", "0101"),
            Purchase("replacement", "D"),
            Purchase("replacement", "E"),
            Purchase("replacement", "D", "0501"),
            Purchase("replacement", "D", "0102"),
            Purchase("replacement", "D", "0101"),
            Purchase("reinforcement", "B-R"),
            Purchase("air defence"),
        ],
        bought_reinforcements=True,
    )
    assert lines == [
        "C as a replacement cannot be bought (mechanized corps has no price for Blue)",
        "no replacement for F: it is not one of Blue's eliminated units",
        "D cannot come in at 0502: name a free hex of Blue's country",
        "E cannot come in at no hex: name a free hex of Blue's country",
        "D cannot come in at 0501: name a free hex of Blue's country",
        "D cannot come in at 0102: name a free hex of Blue's country",
        "Blue buys D as a replacement for 8 political points",
        "Blue buys B-R as a reinforcement at 0103 for 4 political points",
        "Blue buys an Air Defense level for 2 political points",
    ]
    d = state.unit("D")
    assert d is not None and (d.hex, d.disrupted, d.ops_complete) == ("0101", False, False)
    assert unit(state, "B-R").hex == "0103"
    assert [u.id for u in state.lost] == ["C", "E"]
    assert blue_side.political_points == 36 and blue_side.air_defence == 1


@pytest.mark.parametrize(
    ("side", "event", "points"),
    [
        # Red (the Second Player, non-NATO): an Air Defense level is 4.
        ("Red", "second rally", 3),
        ("Red", "first rally", 4),
        ("Red", "second protests", 5),
        ("Red", "first protests", 4),
        # Blue (the First Player, NATO): 2.
        ("Blue", "first rally", 1),
        ("Blue", "second rally", 2),
        ("Blue", "first protests", 3),
        ("Blue", "second protests", 2),
    ],
)
def test_a_rally_or_protests_change_only_their_own_sides_prices(
    side: str, event: str, points: int
) -> None:
    """The seed's rally takes one off the rallying player's prices, protests add one to the
    protesting player's; the other player's prices stand."""
    state = game()
    state.event = event
    paid = supply.price(state, state.side(side), None, replacement=False)
    assert paid.points == points


# -- information warfare --------------------------------------------------------------------------


def cyber(attack: int = 2, *, iw_attacks: int = 1) -> State:
    """Blue's cybercadres C1 and C2 (attack ``attack`` each), its armor X; Red's
    cybercadres D1 and D2 (defence 1 each) and its units R1-R3.  The Index at 50."""
    return game(
        blue("C1", "0101", attack, kind="cybercadre"),
        blue("C2", "0102", attack, kind="cybercadre"),
        blue("X", "0103"),
        red("D1", "0601", 1, kind="cybercadre"),
        red("D2", "0602", 1, kind="cybercadre"),
        red("R1", "0603"),
        red("R2", "0604"),
        red("R3", "0605"),
        iw_attacks=iw_attacks,
    )


def war(
    state: State, attacks: list[InformationAttack], dice: list[int], seen: set[str] | None = None
) -> list[Told]:
    """Blue's attacks with scripted dice, rolled inside a location the attacks must not
    inherit; every roll is checked to be logged with no location."""
    rolled = Dice.scripted(dice)
    with rolled.at(phase="movement", location="0303"):
        told = supply.information_warfare(
            state, board_of(state), state.first, attacks, rolled, seen or set()
        )
    assert [(r.phase, r.location) for r in rolled.log] == [("information warfare", "")] * len(dice)
    return told


def test_an_attack_with_a_unit_that_is_no_cybercadre_is_not_made() -> None:
    """C1 with the armor X: every unit named must be a combat-effective cybercadre; no die."""
    told = war(cyber(), [InformationAttack(["C1", "X"])], [])
    assert told == [
        Told(
            "an information warfare attack needs combat-effective cybercadres of Blue's: "
            "C1 X are not",
            OWN,
        )
    ]


def test_two_attacks_the_defenders_disrupted_by_the_first() -> None:
    """Two attacks allowed.  C1 and C2 (4) against D1 and D2 (2): +2, a 6: IS2, and Blue
    takes the defending cybercadres.  The second attack meets no combat-effective cybercadre:
    +4, a 2: CM, the attackers disrupted."""
    state = cyber(iw_attacks=2)
    both = InformationAttack(["C1", "C2"], "disrupt-iw")
    told = war(state, [both, InformationAttack(["C1", "C2"])], [6, 2])
    assert told == [
        Told(
            "Blue's information warfare: C1 C2 (attack 4) against D1 D2 (defence 2): "
            "differential +2",
            REFEREE,
        ),
        Told(
            "Blue's information warfare, 1D6 6: IS2; the defending cybercadres are disrupted",
            BOTH,
        ),
        Told(
            "Blue's information warfare: C1 C2 (attack 4) against no cybercadre (defence 0): "
            "differential +4",
            REFEREE,
        ),
        Told(
            "Blue's information warfare, 1D6 2: CM; the attacking cybercadres are disrupted", BOTH
        ),
    ]
    assert all(unit(state, u).disrupted for u in ("D1", "D2", "C1", "C2"))


def dominance(
    choice: str, dice: list[int], targets: list[str] | None = None
) -> tuple[State, list[Told]]:
    """C1 and C2 (attack 2 each: 4) against D1 alone (defence 1; D2 disrupted beforehand
    does not defend): +3.  A 6 on +3: ID.  Blue sees R1, R2 and R3."""
    state = cyber()
    unit(state, "D2").disrupted = True
    attack = InformationAttack(["C1", "C2"], choice, targets or [])
    return state, war(state, [attack], dice, {"R1", "R2", "R3"})


def test_information_dominance_lowers_the_c4i_or_counts_as_is2() -> None:
    """ID with ``c4i``: Red's C4I 2 falls to 1, no further die.  ID with ``disrupt``: two of
    the three seen units named (R3 beyond the number, said to Blue alone).  ID with ``index``:
    1D6 3 x 2 toward Blue, the Index 50 to 56."""
    state, told = dominance("c4i", [6])
    assert told[0].text.endswith("differential +3")
    assert told[1:] == [Told("Blue's information warfare, 1D6 6: ID; Red's C4I falls to 1", BOTH)]
    assert (state.second.c4i, state.first.c4i) == (1, 2)
    state, told = dominance("disrupt", [6], ["R1", "R2", "R3"])
    assert told[1:] == [
        Told("Blue's information warfare, 1D6 6: ID; disrupted: R1, R2", BOTH),
        Told("not disrupted: R3 (ID disrupts 2)", OWN),
    ]
    assert [u.id for u in state.units if u.disrupted] == ["D2", "R1", "R2"]
    assert state.second.c4i == 2
    state, told = dominance("index", [6, 3])
    assert told[1:] == [
        Told("Blue's information warfare, 1D6 6: ID; the Index moves 3 x 2 toward Blue", BOTH)
    ]
    assert state.political_index == 56 and state.second.c4i == 2


def test_information_superiority_offers_no_c4i_and_sees_once() -> None:
    """C1 alone (attack 3) against D1 and D2 (defence 2): +1.  A 4: IS1.  ``c4i`` is only
    ID's: the Index is taken, 1D6 5 x 1.  ``see``: Blue sees every enemy unit for the game
    turn, listed once.  A 1: FB, the feedback die 2 moves the Index toward Red."""
    state = cyber(3)
    told = war(state, [InformationAttack(["C1"], "c4i")], [4, 5])
    assert told[0].text.endswith("differential +1")
    assert told[1:] == [
        Told("Blue's information warfare, 1D6 4: IS1; the Index moves 5 x 1 toward Blue", BOTH)
    ]
    assert (state.political_index, state.second.c4i) == (55, 2)
    state = cyber(3)
    told = war(state, [InformationAttack(["C1"], "see")], [4])
    assert told[1:] == [
        Told(
            "Blue's information warfare, 1D6 4: IS1; Blue sees every enemy unit for the rest "
            "of the game turn",
            BOTH,
        )
    ]
    assert state.sees_all == ["Blue"]
    war(state, [InformationAttack(["C1"], "see")], [4])
    assert state.sees_all == ["Blue"]
    state = cyber(3)
    told = war(state, [InformationAttack(["C1"])], [1, 2])
    assert told[1:] == [
        Told("Blue's information warfare, 1D6 1: FB; the Index moves 2 toward Red", BOTH)
    ]
    assert state.political_index == 48
