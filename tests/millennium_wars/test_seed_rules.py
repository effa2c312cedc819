"""The seed's combat rules where refassist once departed from them or read them otherwise
(issue 51), each with fixed dice: guerrillas, support radius, retreats written in advance,
airmobile retreats, the odds limits, disrupted attackers, reinforcements priced, supply, Air
Defense, overstacking and reserves, and what the combat lines say."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.millennium_wars import charts, supply
from refassist.rulesets.millennium_wars.combat import (
    Attack,
    CombatError,
    Conditions,
    Defence,
    best_retreat,
    resolve_attack,
)
from refassist.rulesets.millennium_wars.crt import CRTS
from refassist.rulesets.millennium_wars.movement import Move
from refassist.rulesets.millennium_wars.orders import Orders, Purchase
from refassist.rulesets.millennium_wars.resolve import (
    board_of,
    open_game,
    resolve_turn,
    start_of_turn,
)
from refassist.rulesets.millennium_wars.scenario import default_scenario_text, parse_scenario
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.state import State
from refassist.rulesets.millennium_wars.validate import validate_orders
from refassist.rulesets.millennium_wars.visibility import player_view
from refassist.rulesets.tomlfile import parse_toml
from refassist.workbook.master import read_master, write_master

from .situations import blue, board, red
from .test_resolve import start
from .test_tables import RULESET as TABLES

MW = find_ruleset("millennium-wars")


def fight(b, attack: Attack, die: int, conditions: Conditions | None = None, **kw: object):  # type: ignore[no-untyped-def]
    return resolve_attack(b, attack, "Blue", CRTS, Dice.scripted([die]), conditions, **kw)  # type: ignore[arg-type]


def step(state: State, dice: list[int], rules: dict[str, object] | None = None, **orders: Orders):  # type: ignore[no-untyped-def]
    return resolve_turn(state, orders, Dice.scripted(dice), rules or {}).state


# -- 1. guerrillas -------------------------------------------------------------------------------


def test_guerrillas_are_raised_by_the_die_and_placed_by_their_owner(tmp_path: Path) -> None:
    """d66 23: Second Player Guerrillas.  Sarkand has a paramilitary unit (S-4), so one die (4)
    raises four copies of it, told by number to both and by id to Sarkand alone; they wait
    through the master workbook for Sarkand's first impulse, where its sheet places S-4-G1 at
    1204 and the rule places the rest, nearest Northland's units, in free hexes of Sarkand."""
    state = start()
    state.point = Point(2)
    state.unit("N-1AR").hex = "0804"
    events = start_of_turn(state, Dice.scripted([2, 3, 4]))
    assert events[0].text == (
        "Random event: d66 23, second guerrillas: 1D6 4, Sarkand places 4 paramilitary units "
        "in its home country at its next first impulse"
    )
    assert events[1].visible_to == ("Bob",) and "S-4-G1 S-4-G2 S-4-G3 S-4-G4" in events[1].text
    assert [u.id for u in state.placing] == ["S-4-G1", "S-4-G2", "S-4-G3", "S-4-G4"]
    assert all(u.hex == "" and u.type == "paramilitary" for u in state.placing)
    assert player_view(state, "Ann").placing == []  # Northland does not know their ids
    # The master workbook keeps them waiting.
    write_master(tmp_path / "master.xlsx", TABLES, state)
    state = read_master(tmp_path / "master.xlsx", TABLES)
    assert [u.id for u in state.placing] == ["S-4-G1", "S-4-G2", "S-4-G3", "S-4-G4"]
    assert all(not u.hex for u in state.placing) and not any(
        u.id.startswith("S-4-G") for u in state.lost
    )
    # Sarkand's first impulse: its sheet offers the guerrillas and reads back the line.
    state.point = Point(2, 2, 1)
    path = tmp_path / "Bob.xlsx"
    MW.write_sheet(state, "Bob", path, "tok", "Friday", {})
    typed = Orders("Bob", "2-2-1", purchases=[Purchase("guerrilla", "S-4-G1", "1204")])
    MW.fill_sheet(path, typed)
    read = MW.read_sheet(path)
    assert read.problems == [] and read.orders.purchases[0].kind == "guerrilla"
    assert validate_orders(state, "Bob", read.orders, {}) == []
    after = resolve_turn(state, {"Bob": read.orders}, Dice.scripted([3]), {}).state
    assert after.placing == []
    placed = {u.id: u.hex for u in after.units if u.id.startswith("S-4-G")}
    assert placed["S-4-G1"] == "1204"
    assert all(after.scenario.countries[h] == "Sarkand" for h in placed.values())
    # The rule: free hexes of Sarkand next to N-1AR (0804), one each, lowest id first.
    assert [placed[f"S-4-G{n}"] for n in (2, 3, 4)] == ["0803", "0805", "0904"]
    told = [e for e in after.events if e.kind == "guerrillas"]
    assert told and all(e.visible_to == ("Bob",) for e in told)


def test_guerrillas_need_paramilitary_units() -> None:
    """d66 21: First Player Guerrillas; Northland has no paramilitary unit: no die rolled."""
    state = start()
    state.point = Point(2)
    events = start_of_turn(state, Dice.scripted([2, 1]))
    assert events[0].text.endswith("(no effect: Northland has no paramilitary units)")
    assert state.placing == [] and len(events) == 1


def test_a_guerrilla_line_that_will_not_do_is_placed_by_the_rule() -> None:
    state = start()
    state.point = Point(2)
    start_of_turn(state, Dice.scripted([2, 3, 1]))
    state.point = Point(2, 2, 1)
    bad = Orders("Bob", "2-2-1", purchases=[Purchase("guerrilla", "S-4-G1", "0303", cell="B12")])
    (problem,) = validate_orders(state, "Bob", bad, {})
    assert (problem.cell, problem.severity) == ("B12", "warning")
    after = step(state, [3], Bob=bad)
    assert after.scenario.countries[after.unit("S-4-G1").hex] == "Sarkand"
    assert any("cannot be placed at 0303" in e.text for e in after.events)


# -- 2. support radius ---------------------------------------------------------------------------


def test_support_radius_is_one_in_bad_weather_and_under_enemy_air_dominance() -> None:
    """An intensive assault needs a headquarters whose support radius reaches the hex: HQ at
    0201 (radius 3) is two hexes from 0203."""
    for conditions, works in (
        (Conditions(), True),
        (Conditions(bad_weather=True), False),
        (Conditions(dominance="Red"), False),
        (Conditions(dominance="Blue"), True),  # its own side's dominance does not cut it
    ):
        hq = blue("HQ", "0201", 0, kind="headquarters", support=3)
        b = board(blue("A", "0202"), hq, red("D", "0203"))
        attack = Attack(["A"], "0203", "assault", intensive=True)
        try:
            fight(b, attack, 3, conditions)
            assert works
        except CombatError as exc:
            assert not works and "needs a combat-effective headquarters" in str(exc)
    hq = blue("HQ", "0201", 0, kind="headquarters", support=3)
    assert Conditions(bad_weather=True).support(hq) == 1
    assert Conditions(dominance="Red").support(blue("Z", "0101", 0, support=0)) == 0


# -- 3. retreats written in advance --------------------------------------------------------------


def test_a_retreat_path_that_no_longer_works_falls_back_to_a_legal_retreat() -> None:
    """DR (Raid 2/1, a 5).  Red wrote D's retreat into 0204, where an earlier advance put a
    Blue unit: D retreats by the rule, to the hex away from Blue, and lives."""
    b = board(blue("A", "0202"), blue("LATE", "0204", 1), red("D", "0203"))
    got = fight(b, Attack(["A"], "0203", "raid"), 5, defence=Defence(retreat={"D": ["0204"]}))
    assert got.result == "DR" and b.unit("D") is not None
    assert b.unit("D").hex not in ("0203", "0204")
    assert "D's retreat 0204 cannot be followed: it retreats by the rule" in got.lines
    assert not got.eliminated


def test_a_retreat_path_into_terrain_the_unit_may_not_enter_falls_back() -> None:
    """A mechanized unit's path into a mountain (prohibited) is not followed."""
    b = board(blue("A", "0202"), red("D", "0203"), terrain={"0204": "mountain"})
    got = fight(b, Attack(["A"], "0203", "raid"), 5, defence=Defence(retreat={"D": ["0204"]}))
    assert got.result == "DR" and not got.eliminated
    assert b.unit("D").hex not in ("0203", "0204")


def test_a_unit_with_no_legal_retreat_is_eliminated() -> None:
    """Every hex around 0101 (a corner) is held by Blue or is a mountain."""
    b = board(blue("A", "0102"), blue("B", "0201"), red("D", "0101"), terrain={"0202": "mountain"})
    # 12 to 3 is 4/1; the Raid CRT with a 6: DD.
    got = resolve_attack(b, Attack(["A", "B"], "0101", "raid"), "Blue", CRTS, Dice.scripted([6]))
    assert got.result == "DD" and [u.id for u in got.eliminated] == ["D"]
    assert "D has nowhere to retreat from 0101" in got.lines


def test_the_rule_prefers_no_zone_of_control_then_no_overstack_then_distance() -> None:
    """From 0203 one hex: 0202, 0204, 0103, 0104, 0303, 0304.  Blue at 0401 and 0405 covers
    0303 and 0304 with zones of control; 0103 holds three Red units (it would overstack);
    0104, 0204 and 0202 are free; 0104 is farthest from Blue."""
    b = board(
        blue("E", "0401"),
        blue("F", "0405"),
        red("R1", "0103"),
        red("R2", "0103"),
        red("R3", "0103"),
        red("D", "0203"),
    )
    assert best_retreat(b, b.unit("D"), 1, {}) == ("0104",)


def test_the_checker_warns_of_retreats_that_cannot_work() -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"
    attack = Attack(
        ["N-1AR"], "0905", "raid", retreat={"N-1AR": ["0606", "0605"]}, cell="Orders!B43"
    )
    problems = validate_orders(state, "Ann", Orders("Ann", "1-1-1", attacks=[attack]), {})
    assert [(p.cell, p.severity) for p in problems] == [("B43", "warning")]
    assert "N-1AR's retreat 0606 cannot work from 0804" in problems[0].message
    # The defender's written retreat into a hex it sees an enemy in.
    state.point = Point(1, 1, 1, True)
    bob = Orders("Bob", "1-1-1r", defence=Defence(retreat={"S-3": ["0804"]}))
    (problem,) = validate_orders(state, "Bob", bob, {})
    assert problem.cell == "C53" and "S-3's retreat 0804 cannot work" in problem.message
    ok = Orders("Bob", "1-1-1r", defence=Defence(retreat={"S-3": ["1005"]}))
    assert validate_orders(state, "Bob", ok, {}) == []


# -- 4. airmobile retreats -----------------------------------------------------------------------


def test_airmobile_units_retreat_over_enemy_units_and_zones_of_control_at_no_penalty() -> None:
    """DD (Raid 6/1, a 4): D is disrupted and retreats two hexes.  Its path 0303 (Blue) then
    0403: an air assault unit flies over Blue and through Blue's zones of control unhurt; a
    mechanized unit cannot follow it and retreats by the rule instead."""
    for kind, flies in (("air assault", True), ("mechanized infantry", False)):
        b = board(blue("A", "0202", 18), blue("B", "0303", 1), red("D", "0203", 3, kind=kind))
        path = Defence(retreat={"D": ["0303", "0403"]})
        got = fight(b, Attack(["A", "B"], "0203", "raid"), 4, defence=path)
        assert got.result == "DD"
        if flies:
            assert b.unit("D").hex == "0403" and "retreats to 0403" in " ".join(got.lines)
            assert "zone of control" not in " ".join(got.lines)
        else:
            assert "D's retreat 0303 0403 cannot be followed" in " ".join(got.lines)
            assert b.unit("D") is None or b.unit("D").hex != "0403"


def test_an_airmobile_retreat_into_a_zone_of_control_costs_nothing() -> None:
    """DR (Raid 2/1, a 5): one hex, the only free ones are in Blue's zones of control.  The
    mechanized unit is disrupted there; the airborne one is not; in bad weather it may not
    fly and pays as any other."""
    for kind, conditions, hurt in (
        ("mechanized infantry", Conditions(), True),
        ("airborne infantry", Conditions(), False),
        ("airborne infantry", Conditions(bad_weather=True), True),
        ("airborne infantry", Conditions(dominance="Blue"), True),
    ):
        b = board(
            blue("A", "0202"),
            blue("E", "0305"),
            blue("F", "0102", 1),
            red("D", "0203", kind=kind),
            terrain={"0104": "sea", "0303": "sea"},
        )
        got = fight(b, Attack(["A"], "0203", "raid"), 5, conditions)
        assert got.result == "DR" and b.unit("D").disrupted is hurt, (kind, conditions)


# -- 6. odds limits, 7. disrupted attackers ------------------------------------------------------


def test_the_odds_limits_come_before_the_shifts() -> None:
    """9 to 1 on a city (-2): 6/1 held first, then two to the left: 4/1 (the seed's text);
    the house rule's order keeps 6/1."""
    b = board(blue("A", "0202", 9), red("D", "0203", 1), places={"0203": "city"})
    assert fight(b, Attack(["A"], "0203", "assault"), 1).odds.label == "4/1"
    b = board(blue("A", "0202", 9), red("D", "0203", 1), places={"0203": "city"})
    got = fight(b, Attack(["A"], "0203", "assault"), 1, limits_after_shifts=True)
    assert got.odds.label == "6/1"


def test_disrupted_units_attack_unless_the_house_rule_forbids_it() -> None:
    b = board(blue("A", "0202", disrupted=True), red("D", "0203"))
    assert fight(b, Attack(["A"], "0203", "raid"), 3).odds.label == "2/1"
    b = board(blue("A", "0202", disrupted=True), red("D", "0203"))
    try:
        fight(b, Attack(["A"], "0203", "raid"), 3, disrupted_attack=False)
        raise AssertionError("a disrupted unit attacked under the house rule")
    except CombatError as exc:
        assert "A is disrupted and cannot attack" in str(exc)


# -- 8. reinforcements priced --------------------------------------------------------------------


def test_reinforcements_due_are_bought_at_the_seeds_price() -> None:
    """Turn 2: Sarkand's S-6 (non-NATO mechanized division: 3 points) is due.  By default it
    waits to be bought and Sarkand's 3 points buy it; the house rule brings it free."""
    state = start()
    state.point = Point(2, 2, 1)
    state.second.political_points = Fraction(3)
    waiting = step(state, [3])
    assert waiting.unit("S-6") is None
    assert any("available to buy: S-6" in e.text for e in waiting.events)
    buy = Orders("Bob", "2-2-1", purchases=[Purchase("reinforcement", "S-6")])
    bought = step(state, [3], Bob=buy)
    assert bought.unit("S-6").hex == "1205" and bought.second.political_points == 0
    free = step(state, [3], {"reinforcements": "free"})
    assert free.unit("S-6").hex == "1205" and free.second.political_points == 3


# -- 9. supply -----------------------------------------------------------------------------------


def test_supply_is_traced_to_the_sources_and_the_support_radius() -> None:
    """Northland's units: N-3LI at 0503 stands in its home country (a source); N-HQ at 0503
    (radius 3) supplies N-1AR at 0705, outside it (distance 3); N-HT at 0805 (distance 4)
    traces a line home but is beyond the radius: partially out; N-2MI at 1203, behind
    Sarkand's lines and its zones of control: totally out.  In bad weather the radius is one."""
    state = start()
    state.unit("N-HQ").hex = "0503"
    state.unit("N-1AR").hex = "0705"
    state.unit("N-HT").hex = "0805"
    state.unit("N-2MI").hex = "1203"
    state.unit("S-HQ").hex = "1104"
    state.unit("S-CY").hex = "1202"
    b = board_of(state)
    got = supply.supply_status(state.scenario, b, Conditions())
    assert [got[u] for u in ("N-3LI", "N-1AR", "N-HT", "N-2MI")] == [
        "full",
        "full",
        "partial",
        "out",
    ]
    assert got["S-3"] == "full"  # in its own country
    assert supply.supply_status(state.scenario, b, Conditions(bad_weather=True))["N-1AR"] == (
        "partial"
    )
    # The shifts reach the combat: N-HT attacks S-3 partially out of supply (-1).
    state.unit("N-1AR").hex = "0303"
    ann = Orders("Ann", "1-1-1", attacks=[Attack(["N-HT"], "0905", "raid")])
    state = step(state, [3], Ann=ann)
    state = step(state, [3])
    attack = next(e for e in state.events if e.kind == "attack")
    assert attack.data["shifts"] == ["-1 attacker out of supply"]


def test_the_scenario_names_supply_sources() -> None:
    """A side's ``supply`` hexes replace its home country as sources; they are checked."""
    text = default_scenario_text().replace('country = "N"', 'country = "N"\nsupply = ["0101"]', 1)
    scenario = parse_scenario(parse_toml(text, "s"), text, "s")
    assert scenario.side("Northland").supply == ["0101"]
    assert supply.supply_sources(scenario, "Northland") == {"0101"}
    assert len(supply.supply_sources(scenario, "Sarkand")) > 20  # its home country
    bad = text.replace('supply = ["0101"]', 'supply = ["2020"]')
    try:
        parse_scenario(parse_toml(bad, "s"), bad, "s")
        raise AssertionError("an off-map supply source was accepted")
    except Exception as exc:
        assert "2020 is off the 12 x 8 map" in str(exc)


# -- 10. Air Defense -----------------------------------------------------------------------------


def test_air_defense_denies_the_enemy_the_air() -> None:
    assert [charts.air_defended(t, 1, 1) for t in range(0, 8)] == [1, 2, 3, 3, 4, 4, 5, 6]
    assert [charts.air_defended(t, 0, 2) for t in (5, 6, 7, 1)] == [4, 4, 5, 1]

    # Both sides of the training scenario have level 1: a 5 is parity, a 6 superiority.
    def opened(air: int, rules: dict[str, object] | None = None) -> State:
        """A new game: turn 1's random event (d66 54, no event), then the air roll."""
        state = start()
        state.events = open_game(state, Dice.scripted([5, 4, air]), rules)
        return state

    assert opened(5).air_level == "parity"
    assert opened(6).air_level == "first superiority"
    assert opened(5, {"air_defence": "none"}).air_level == "first superiority"
    text = next(e.text for e in opened(5).events if e.kind == "air")
    assert text == "Air superiority: 1D6 5 +0, 4 after Air Defense: parity"


# -- 11. overstacking, advances and reserves -----------------------------------------------------


def test_overstacking_is_checked_where_retreats_end_and_does_not_stop_advances() -> None:
    """Four Northland units attack 0905 from 0804 and 0805 and all four advance into it (our
    general limit of three is no bar to an advance, and they are not disrupted: the seed
    checks overstacking where a retreat ends); S-3's retreat into 1005, where S-1, S-2 and
    S-4 stand, disrupts all four."""
    state = start()
    for uid in ("N-1AR", "N-2MI", "N-3LI"):
        state.unit(uid).hex = "0804"
    state.unit("N-HT").hex = "0805"
    state.unit("N-HQ").hex = "0603"
    state.unit("S-1").hex = "1005"
    state.unit("S-2").hex = "1005"
    ann = Orders(
        "Ann",
        "1-1-1",
        attacks=[Attack(["N-1AR", "N-2MI", "N-3LI", "N-HT"], "0905", "raid", advance=["*"])],
    )
    state = step(state, [3], Ann=ann)
    bob = Orders("Bob", "1-1-1r", defence=Defence(retreat={"S-3": ["1005"]}))
    # 17 to 4 is 4/1; the Raid CRT with a 2: DR.  S-3 joins S-1, S-2 and S-4 at 1005.
    state = step(state, [2], Bob=bob)
    assert state.unit("S-3").hex == "1005"
    assert all(state.unit(u).disrupted for u in ("S-1", "S-2", "S-3", "S-4"))
    assert [u.id for u in state.units if u.hex == "0905"] == ["N-1AR", "N-2MI", "N-3LI", "N-HT"]
    assert not any(state.unit(u).disrupted for u in ("N-1AR", "N-2MI", "N-3LI", "N-HT"))


def test_a_glacier_still_holds_one_unit_after_an_advance() -> None:
    """Raid, on foot (no terrain shift): 12 to 3 is 4/1, a 6: DD.  Both attackers advance;
    the glacier takes one ("Maximum Stacking is one Land Unit per Hex")."""
    b = board(
        blue("A", "0202", kind="light infantry"),
        blue("B", "0303", kind="light infantry"),
        red("D", "0203"),
        terrain={"0203": "glacier"},
    )
    assert fight(b, Attack(["A", "B"], "0203", "raid", advance=["*"]), 6).result == "DD"
    assert [u.id for u in b.land_at("0203")] == ["A"]


def test_a_reserve_that_reacts_may_move_in_its_own_player_turn() -> None:
    """Sarkand's reserve S-5 moves in Northland's first reaction; Northland's player turn
    ends (C4I 3: three impulses); in Sarkand's own turn S-5 is no longer Ops Complete."""
    state = start()
    state.point = Point(1, 1, 1, reaction=True)  # Bob's reaction to Ann's first impulse
    state = step(state, [], Bob=Orders("Bob", "1-1-1r", moves=[Move("S-5", ["1103"])]))
    assert state.unit("S-5").hex == "1103" and state.unit("S-5").ops_complete
    while state.point.player_turn == 1:
        # Ann orders nothing: no reactions; her third impulse ends with Sarkand's air roll.
        state = step(state, [3] if state.point.impulse == 3 else [])
    assert state.point.key == "1-2-1" and not state.unit("S-5").ops_complete


# -- 12. what the combat lines say ---------------------------------------------------------------


def test_combat_lines_give_the_odds_the_index_and_recovery_dice() -> None:
    state = start()
    state.unit("N-3LI").hex = "0804"
    state.unit("N-HQ").hex = "0603"
    ann = Orders("Ann", "1-1-1", attacks=[Attack(["N-3LI"], "0905", "raid")])
    state = step(state, [], Ann=ann)
    # 2 to 4 is 1/2; the Raid CRT with a 6: D1, S-3 disrupted.  No Index move.
    state = step(state, [6])
    attack = next(e for e in state.events if e.kind == "attack")
    assert attack.data["odds"] == "1/2"
    assert attack.text.startswith("Northland attacks 0905 (Raid): 2 to 4: 1/2; die 6: D1")
    # An elimination moves the Index, and the line says so.
    state = start()
    state.unit("N-HT").hex = "0804"
    state.unit("N-HQ").hex = "0603"
    state.unit("S-3").defence = 1
    ann = Orders("Ann", "1-1-1", attacks=[Attack(["N-HT"], "0905", "air-land")])
    state = step(state, [], Ann=ann)
    index = state.political_index
    state = step(state, [6])  # 5 to 1: 5/1, a 6: DE
    text = next(e.text for e in state.events if e.kind == "attack")
    assert f"the Index moves 1 toward Northland, to {index + 1}" in text
    # Recovery: the die and its modifier.
    state = start()
    state.point = Point(1, 1, 3, True)
    state.unit("N-1AR").disrupted = True  # at 0303, out of every enemy zone of control: +1
    state = step(state, [3, 3])  # recovery 3; then Sarkand's air roll
    line = next(e.text for e in state.events if e.kind == "recovery")
    assert line == "N-1AR recovers (1D6 3 + 1)"


def test_airmobile_units_retreat_over_prohibited_terrain_but_not_into_it() -> None:
    """DD (Raid 3/1, a 6): a mechanized airborne unit's two-hex path over a mountain
    (prohibited to mechanized units) to 0403 is followed; DR (Raid 2/1, a 5): a path ending on
    the mountain is not (the rule retreats it elsewhere)."""
    for retreat, result_die, end in ((["0303", "0403"], 6, "0403"), (["0303"], 5, "")):
        b = board(
            blue("A", "0202", 18 if end else 12),
            red("D", "0203", 6, kind="mechanized airborne"),
            terrain={"0303": "mountain"},
        )
        got = fight(b, Attack(["A"], "0203", "raid"), result_die, defence=Defence({"D": retreat}))
        assert got.result == ("DD" if result_die == 6 else "DR")
        if end:
            assert b.unit("D").hex == end
        else:
            assert b.unit("D").hex not in ("0203", "0303")
            assert "D's retreat 0303 cannot be followed" in " ".join(got.lines)


def test_guerrilla_ids_keep_to_twelve_characters() -> None:
    state = start()
    state.unit("S-4").id = "S-PARAMILIT1"
    made = supply.raise_guerrillas(state, "Sarkand", 2)
    assert [u.id for u in made] == ["S-PARAMIL-G1", "S-PARAMIL-G2"]


def test_guerrillas_placed_by_the_rule_are_drawn_only_by_enemies_their_side_sees() -> None:
    """The rule puts a guerrilla nearest an enemy land unit its side sees: an unseen one
    must not draw it, or its hex would tell the owner where that enemy is."""
    state = start()
    state.unit("N-1AR").hex = "1207"  # deep in Sarkand's country
    placed = {}
    for seen in (set(), {"N-1AR"}):
        trial = copy.deepcopy(state)
        (unit,) = supply.raise_guerrillas(trial, "Sarkand", 1)
        supply.place_guerrillas(trial, board_of(trial), trial.second, [], seen)
        placed[bool(seen)] = trial.unit(unit.id).hex
    assert placed[True] in {"1107", "1108", "1206", "1208"}  # next to N-1AR at 1207
    assert placed[False] != placed[True]
