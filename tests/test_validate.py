"""Every validation rule, each with a test that fails when the rule is removed.

The state is built by hand on a column of hexes so that distances are easy to read: in one
column the distance is the difference of the rows (1010 to 1014 is 4 hexes).
"""

from __future__ import annotations

import pytest

from refassist.errors import CellProblem
from refassist.rulesets import find_ruleset
from refassist.rulesets.fifth_millennium.budget import points_available, projected_income
from refassist.rulesets.fifth_millennium.movement_rules import (
    arrival_year,
    available_to_depart,
    best_range,
    journey_years,
)
from refassist.rulesets.fifth_millennium.orders import (
    Diplomacy,
    MessageOrder,
    Move,
    Orders,
    Purchase,
)
from refassist.rulesets.fifth_millennium.state import (
    Facility,
    Fleet,
    Flight,
    Force,
    Player,
    Relation,
    State,
    System,
)
from refassist.rulesets.fifth_millennium.validate import validate_orders

YEAR = 5003
RULES = find_ruleset("fifth-millennium").default_house_rules()


def make_state() -> State:
    """Ann holds 1010 (A, home), 1011 (B), 1016 (D); Bob holds 2020; Cleo is out."""
    systems = [
        System("1010", "Home", "A", "A", naval_base=True, owner="Ann"),
        System("1011", "Bee", "B", "B", owner="Ann"),
        System("1012", "Cee", "C", "C"),
        System("1014", "Four", "E", "E"),
        System("1015", "Five", "E", "E"),
        System("1016", "Dee", "D", "D", owner="Ann"),
        System("1017", "Seven", "X", "X"),
        System("2020", "Bobhome", "A", "A", owner="Bob"),
    ]
    players = [
        Player("Ann", homeworld="1010", stockpile=10, tech_level=1, income_last=9),
        Player("Bob", homeworld="2020", stockpile=0, tech_level=1),
        Player("Cleo", eliminated=5002),
    ]
    forces = [
        Force("1010", "Ann", Fleet(F=10, S=2, A=1, K=3), M=2, P=2),
        Force("1011", "Ann", Fleet(F=2)),
        Force("1016", "Ann", Fleet(Fs=4)),
        Force("2020", "Bob", Fleet(F=15)),
    ]
    flights = [Flight("5002-Ann-1", "Ann", "1016", "1011", 5002, YEAR, Fleet(F=3, A=1))]
    relations = [Relation("treaty", "Ann", "Bob", 5002)]
    return State("g1", "Test", YEAR, systems, players, forces, [], flights, relations)


def check(state: State, orders: Orders) -> list[CellProblem]:
    return validate_orders(state, "Ann", orders, RULES)


def errors(problems: list[CellProblem]) -> list[CellProblem]:
    return [p for p in problems if p.severity == "error"]


def one_error(problems: list[CellProblem], words: str, cell: str | None = None) -> CellProblem:
    found = [p for p in errors(problems) if words in p.message]
    assert len(found) == 1, problems
    if cell is not None:
        assert found[0].cell == cell
    assert found[0].sheet == "Orders" and found[0].fix
    return found[0]


def move(
    fleet: Fleet | None,
    origin: str,
    dest: str,
    arrival: int | None = None,
    cell: str = "B11",
    year: int = YEAR,
) -> Move:
    return Move(
        year,
        fleet or Fleet(),
        origin,
        dest,
        arrival,
        probe=fleet is None,
        cell=cell,
        text=f"{origin}-{dest}",
    )


def orders(**kw: object) -> Orders:
    return Orders("Ann", YEAR, **kw)  # type: ignore[arg-type]


# -- helpers shared with the resolution --------------------------------------------------


def test_movement_rules() -> None:
    assert journey_years(3, Fleet(F=1)) == 3
    assert journey_years(3, Fleet(Fs=2, K=1)) == 2  # all Fast: 2 hexes a year, rounded up
    assert journey_years(3, Fleet(Fs=2, F=1)) == 3
    assert journey_years(7, Fleet(Fs=1)) == 4  # the rules: fast squadrons take 4 turns for 7
    assert journey_years(25, None, probe=True) == 25
    assert arrival_year(5001, "2710", "2712", Fleet(F=10, S=3, A=1, Ms=2)) == 5003
    assert best_range(Player("x", tech_level=1), RULES) == 4
    assert best_range(Player("x", tech_level=3), RULES) == 7
    state = make_state()
    assert available_to_depart(state, "Ann", "1011", YEAR) == Fleet(F=5, A=1)


def test_a_good_turn_has_no_problems() -> None:
    state = make_state()
    problems = check(
        state,
        orders(
            moves=[
                move(Fleet(F=4, S=2, A=1), "1010", "1014", 5007),
                move(Fleet(F=5, A=1), "1011", "1012"),
                move(None, "1010", "2020", cell="B13"),
            ],
            purchases=[Purchase("1010", "F", 2, "B30"), Purchase("1011", "GL", 1, "B31")],
            diplomacy=[Diplomacy("propose trade", "Bob", "B56")],
            messages=[MessageOrder("Bob", "hello", "B67"), MessageOrder("*", "hi all", "B68")],
        ),
    )
    assert problems == []


# -- whole sheet ----------------------------------------------------------------------------


def test_sheet_for_another_year() -> None:
    problems = check(make_state(), Orders("Ann", 5002))
    one_error(problems, "waiting for orders for 5003", "B5")


def test_eliminated_player_gives_no_orders() -> None:
    problems = validate_orders(make_state(), "Cleo", Orders("Cleo", YEAR), RULES)
    one_error(problems, "eliminated", "B4")


# -- movement -------------------------------------------------------------------------------


def test_move_for_another_turn() -> None:
    problems = check(make_state(), orders(moves=[move(Fleet(F=1), "1010", "1011", year=5004)]))
    one_error(problems, "departs in 5004", "B11")


def test_hexes_off_the_map() -> None:
    problems = check(make_state(), orders(moves=[move(Fleet(F=1), "1010", "3341")]))
    one_error(problems, "not on the map")


def test_same_origin_and_destination() -> None:
    problems = check(make_state(), orders(moves=[move(Fleet(F=1), "1010", "1010")]))
    one_error(problems, "both 1010")


def test_range_four() -> None:
    state = make_state()
    assert errors(check(state, orders(moves=[move(Fleet(F=1), "1010", "1014")]))) == []
    problems = check(state, orders(moves=[move(Fleet(F=1), "1010", "1015")]))
    one_error(problems, "is 5 hexes and your squadrons jump at most 4")


def test_range_seven_at_tl3() -> None:
    state = make_state()
    state.player("Ann").tech_level = 3  # type: ignore[union-attr]
    assert errors(check(state, orders(moves=[move(Fleet(F=1), "1010", "1017")]))) == []
    state.player("Ann").tech_level = 2  # type: ignore[union-attr]
    one_error(check(state, orders(moves=[move(Fleet(F=1), "1010", "1017")])), "at most 4")


def test_wrong_arrival_year_states_the_right_one() -> None:
    state = make_state()
    problems = check(state, orders(moves=[move(Fleet(F=1), "1010", "1014", 5006)]))
    problem = one_error(problems, "arrives in 5007, not 5006")
    assert "5007" in problem.fix
    assert errors(check(state, orders(moves=[move(Fleet(F=1), "1010", "1014", 5007)]))) == []
    assert errors(check(state, orders(moves=[move(Fleet(F=1), "1010", "1014", None)]))) == []


def test_fast_fleets_arrive_sooner() -> None:
    state = make_state()
    fast = move(Fleet(Fs=4), "1016", "1012", 5005)  # 4 hexes at speed 2
    assert errors(check(state, orders(moves=[fast]))) == []
    slow = move(Fleet(Fs=4), "1016", "1012", 5007)
    one_error(check(state, orders(moves=[slow])), "arrives in 5005, not 5007")


def test_destination_must_hold_a_system_or_own_station() -> None:
    state = make_state()
    problems = check(state, orders(moves=[move(Fleet(F=1), "1010", "1013")]))
    one_error(problems, "no star system at 1013")
    state.facilities.append(Facility("1013", "Ann", "DSRS", building=True))
    assert errors(check(state, orders(moves=[move(Fleet(F=1), "1010", "1013")]))) == []
    state.facilities[-1] = Facility("1013", "Bob", "DSRS")  # another player's station: no
    one_error(check(state, orders(moves=[move(Fleet(F=1), "1010", "1013")])), "no star system")


def test_at_most_four_departures_and_probes_do_not_count() -> None:
    state = make_state()
    moves = [move(Fleet(F=1), "1010", "1011", cell=f"B{11 + i}") for i in range(4)]
    moves.insert(1, move(None, "1010", "1012", cell="B20"))
    assert errors(check(state, orders(moves=moves))) == []
    moves.append(move(Fleet(F=1), "1010", "1012", cell="B30"))
    one_error(check(state, orders(moves=moves)), "departure number 5", "B30")


def test_house_rule_changes_the_departure_limit() -> None:
    state = make_state()
    moves = [move(Fleet(F=1), "1010", "1011", cell=f"B{11 + i}") for i in range(3)]
    rules = dict(RULES, max_departures=2)
    problems = validate_orders(state, "Ann", orders(moves=moves), rules)
    one_error(problems, "at most 2 departures", "B13")


def test_departure_needs_the_squadrons_there() -> None:
    state = make_state()
    problems = check(state, orders(moves=[move(Fleet(F=11), "1010", "1011")]))
    one_error(problems, "short of 1 F")
    problems = check(state, orders(moves=[move(Fleet(F=1), "1012", "1011")]))
    one_error(problems, "no squadrons at 1012")


def test_arrivals_this_turn_count_at_the_origin() -> None:
    state = make_state()
    # 1011 holds F2 and a flight brings F3 A1 this year.
    assert errors(check(state, orders(moves=[move(Fleet(F=5, A=1), "1011", "1010")]))) == []
    state.flights[0].arrival = YEAR + 1
    one_error(check(state, orders(moves=[move(Fleet(F=5, A=1), "1011", "1010")])), "short of")


def test_chained_departures_from_one_origin_must_fit_together() -> None:
    state = make_state()
    first = move(Fleet(F=6), "1010", "1011", cell="B11")
    second = move(Fleet(F=5), "1010", "1012", cell="B12")
    problem = one_error(check(state, orders(moves=[first, second])), "short of 1 F", "B12")
    assert "already take" in problem.message


def test_munitions_must_be_at_the_origin() -> None:
    state = make_state()
    assert errors(check(state, orders(moves=[move(Fleet(F=1, K=3), "1010", "1011")]))) == []
    one_error(check(state, orders(moves=[move(Fleet(F=1, K=4), "1010", "1011")])), "1 K")
    one_error(check(state, orders(moves=[move(Fleet(F=1, SF=1), "1010", "1011")])), "1 SF")


def test_a_fleet_carries_at_least_one_squadron() -> None:
    problems = check(make_state(), orders(moves=[move(Fleet(K=2), "1010", "1011")]))
    one_error(problems, "no squadrons")


def test_probes_need_probes_at_the_origin_and_have_no_range_limit() -> None:
    state = make_state()
    to_bob = arrival_year(YEAR, "1010", "2020", probe=True)
    assert to_bob == YEAR + 15  # 15 hexes at 1 hex a year, far beyond the jump range
    far = [move(None, "1010", "2020", to_bob), move(None, "1010", "1017", cell="B12")]
    assert errors(check(state, orders(moves=far))) == []
    three = [*far, move(None, "1010", "1012", cell="B13")]
    one_error(check(state, orders(moves=three)), "probe number 3", "B13")
    one_error(check(state, orders(moves=[move(None, "1011", "1012")])), "0 probe swarms")
    one_error(check(state, orders(moves=[move(None, "1010", "2020", 5005)])), "arrives in 5018")


# -- production -----------------------------------------------------------------------------


def test_tech_level_of_items() -> None:
    state = make_state()
    one_error(check(state, orders(purchases=[Purchase("1010", "Fs", 1, "B30")])), "tech level 2")
    state.player("Ann").tech_level = 2  # type: ignore[union-attr]
    assert errors(check(state, orders(purchases=[Purchase("1010", "Fs", 1, "B30")]))) == []


def test_build_only_in_own_systems() -> None:
    state = make_state()
    one_error(check(state, orders(purchases=[Purchase("2020", "GL", 1, "B30")])), "do not own")
    one_error(check(state, orders(purchases=[Purchase("1012", "GL", 1, "B30")])), "do not own")
    one_error(check(state, orders(purchases=[Purchase("1013", "GL", 1, "B30")])), "no star system")
    one_error(check(state, orders(purchases=[Purchase("0000", "GL", 1, "B30")])), "not a hex on")


def test_ships_only_at_class_a_or_spacedock() -> None:
    state = make_state()
    one_error(check(state, orders(purchases=[Purchase("1011", "F", 1, "B30")])), "class A world")
    one_error(check(state, orders(purchases=[Purchase("1011", "SU", 1, "B30")])), "class A world")
    state.facilities.append(Facility("1011", "Ann", "DOCK"))
    assert errors(check(state, orders(purchases=[Purchase("1011", "F", 1, "B30")]))) == []


def test_monitors_only_at_class_a_to_c() -> None:
    state = make_state()
    assert errors(check(state, orders(purchases=[Purchase("1011", "M", 1, "B30")]))) == []
    one_error(check(state, orders(purchases=[Purchase("1016", "M", 1, "B30")])), "class A, B or C")


def test_five_labs_per_system_counting_existing_building_and_earlier_lines() -> None:
    state = make_state()
    state.facilities += [Facility("1010", "Ann", "GL", 2), Facility("1010", "Ann", "GL", 1, True)]
    ok = [Purchase("1010", "GL", 1, "B30"), Purchase("1010", "GL", 1, "B31")]
    assert errors(check(state, orders(purchases=ok))) == []
    too_many = [*ok, Purchase("1010", "GL", 1, "B32")]
    one_error(check(state, orders(purchases=too_many)), "at most 5 Genetics Labs", "B32")
    assert errors(check(state, orders(purchases=[Purchase("1010", "OPC", 5, "B30")]))) == []


def test_one_spacedock_per_system() -> None:
    state = make_state()
    state.player("Ann").tech_level = 2  # type: ignore[union-attr]
    state.facilities.append(Facility("1011", "Ann", "DOCK", building=True))
    one_error(check(state, orders(purchases=[Purchase("1011", "DOCK", 1, "B30")])), "at most 1")


def test_control_centre_or_depot_not_both_in_the_empire() -> None:
    state = make_state()
    both = [Purchase("1010", "CC", 1, "B30"), Purchase("1011", "DEPOT", 1, "B31")]
    one_error(check(state, orders(purchases=both)), "or a Depot, but not both", "B31")
    state.facilities.append(Facility("1016", "Ann", "DEPOT"))
    one_error(check(state, orders(purchases=[Purchase("1010", "CF", 1, "B30")])), "not both")
    # CC and CF together are allowed.
    state.facilities.pop()
    pair = [Purchase("1010", "CC", 1, "B30"), Purchase("1011", "CF", 1, "B31")]
    assert errors(check(state, orders(purchases=pair))) == []


def test_one_control_centre_per_empire_unless_the_house_rule_says_per_system() -> None:
    state = make_state()
    state.facilities.append(Facility("1016", "Ann", "CC"))
    one_error(check(state, orders(purchases=[Purchase("1010", "CC", 1, "B30")])), "only one")
    rules = dict(RULES, seat_exclusivity="system")
    both = [Purchase("1010", "CC", 1, "B30"), Purchase("1011", "DEPOT", 1, "B31")]
    assert errors(validate_orders(state, "Ann", orders(purchases=both), rules)) == []
    same = [Purchase("1011", "CC", 1, "B30"), Purchase("1011", "DEPOT", 1, "B31")]
    one_error(validate_orders(state, "Ann", orders(purchases=same), rules), "1011 may have")


def test_refueling_station() -> None:
    state = make_state()
    state.player("Ann").tech_level = 2  # type: ignore[union-attr]
    assert errors(check(state, orders(purchases=[Purchase("1013", "DSRS", 1, "B30")]))) == []
    one_error(check(state, orders(purchases=[Purchase("1012", "DSRS", 1, "B30")])), "empty hex")
    one_error(check(state, orders(purchases=[Purchase("1030", "DSRS", 1, "B30")])), "more than 4")
    state.facilities.append(Facility("1013", "Ann", "DSRS"))
    one_error(check(state, orders(purchases=[Purchase("1013", "DSRS", 1, "B30")])), "already")


def test_upgrades_need_fleet_squadrons_that_stay() -> None:
    state = make_state()
    assert errors(check(state, orders(purchases=[Purchase("1010", "SU", 10, "B30")]))) == []
    one_error(check(state, orders(purchases=[Purchase("1010", "SU", 11, "B30")])), "Fleet squadron")
    leaving = orders(
        moves=[move(Fleet(F=8), "1010", "1011")],
        purchases=[Purchase("1010", "SU", 2, "B30"), Purchase("1010", "SU", 1, "B31")],
    )
    one_error(check(state, leaving), "0 will be there", "B31")


def test_budget_overrun_is_a_warning_not_an_error() -> None:
    state = make_state()
    budget = points_available(state, "Ann")
    assert budget == 10 + projected_income(state, "Ann")
    lines = [Purchase("1010", "F", budget // 2, "B30")]
    assert check(state, orders(purchases=lines)) == []
    lines.append(Purchase("1010", "A", 1, "B31"))
    problems = check(state, orders(purchases=lines))
    assert errors(problems) == []
    assert [(p.cell, p.severity) for p in problems] == [("B31", "warning")]


def test_refused_lines_do_not_count_against_the_budget() -> None:
    state = make_state()
    budget = points_available(state, "Ann")
    lines = [Purchase("1016", "F", 50, "B30"), Purchase("1010", "F", budget // 2, "B31")]
    problems = check(state, orders(purchases=lines))
    assert [p.severity for p in problems] == ["error"]


def test_projected_income() -> None:
    state = make_state()
    # A + naval base (6), B (4), D (2), and subsector B (rows 01-10 of columns 09-16) holds
    # only 1010, which Ann owns: +10 for a complete subsector.
    assert projected_income(state, "Ann") == 22
    state.systems.append(System("1002", "Other", "X", "X"))
    assert projected_income(state, "Ann") == 12
    state.facilities.append(Facility("1011", "Ann", "OPC", 2))
    assert projected_income(state, "Ann") == 14
    state.player("Ann").homeworld_lost = 5002  # type: ignore[union-attr]
    assert projected_income(state, "Ann") == 0


def test_stockpile_only_at_homeworld_or_construction_facility_or_depot() -> None:
    state = make_state()
    assert check(state, orders(stockpile_at="1010")) == []
    one_error(check(state, orders(stockpile_at="1011")), "neither", "E52")
    state.facilities.append(Facility("1011", "Ann", "CF"))
    assert check(state, orders(stockpile_at="1011")) == []


# -- diplomacy and messages --------------------------------------------------------------------


def test_diplomacy_towards_existing_other_active_players() -> None:
    state = make_state()
    one_error(
        check(state, orders(diplomacy=[Diplomacy("propose trade", "Zed", "B56")])),
        "no player called",
    )
    one_error(
        check(state, orders(diplomacy=[Diplomacy("propose trade", "Ann", "B56")])), "yourself"
    )
    one_error(
        check(state, orders(diplomacy=[Diplomacy("propose trade", "Cleo", "B56")])), "eliminated"
    )


def test_ending_what_does_not_exist() -> None:
    state = make_state()
    assert check(state, orders(diplomacy=[Diplomacy("end treaty", "Bob", "B56")])) == []
    one_error(
        check(state, orders(diplomacy=[Diplomacy("end trade", "Bob", "B56")])), "no trade agreement"
    )


def test_war_and_a_proposal_to_the_same_player_contradict() -> None:
    state = make_state()
    lines = [Diplomacy("declare war", "Bob", "B56"), Diplomacy("propose trade", "Bob", "B57")]
    one_error(check(state, orders(diplomacy=lines)), "both declare war", "B56")


def test_diplomacy_warnings() -> None:
    state = make_state()
    problems = check(state, orders(diplomacy=[Diplomacy("propose treaty", "Bob", "B56")]))
    assert [p.severity for p in problems] == ["warning"]
    state.relations.clear()
    problems = check(state, orders(diplomacy=[Diplomacy("declare war", "Bob", "B56")]))
    assert [p.severity for p in problems] == ["warning"]
    twice = [Diplomacy("propose trade", "Bob", "B56"), Diplomacy("propose trade", "Bob", "B57")]
    assert [(p.cell, p.severity) for p in check(state, orders(diplomacy=twice))] == [
        ("B57", "warning")
    ]


def test_messages_to_existing_players_or_everyone() -> None:
    state = make_state()
    assert check(state, orders(messages=[MessageOrder("*", "hi", "B67")])) == []
    one_error(
        check(state, orders(messages=[MessageOrder("Zed", "hi", "B67")])), "no player called", "B67"
    )


# -- set-up -----------------------------------------------------------------------------------


def setup_state() -> State:
    state = make_state()
    state.year = 5000
    state.player("Ann").homeworld = ""  # type: ignore[union-attr]
    state.forces.clear()
    state.flights.clear()
    for s in state.systems:
        s.owner = ""
    return state


def setup_orders(hex_: str) -> Orders:
    return Orders("Ann", 5000, homeworld=hex_, homeworld_cell="C11")


def test_setup_homeworld_choice() -> None:
    state = setup_state()
    state.systems.append(System("0505", "Far", "A", "A"))
    assert validate_orders(state, "Ann", setup_orders("0505"), RULES) == []
    problems = validate_orders(state, "Ann", setup_orders(""), RULES)
    one_error(problems, "no homeworld", "C11")
    one_error(validate_orders(state, "Ann", setup_orders("1011"), RULES), "class B")
    one_error(validate_orders(state, "Ann", setup_orders("0303"), RULES), "no star system")


def test_setup_homeworld_near_a_secret_one_gets_the_same_answer_as_far_away() -> None:
    """No oracle: the answer to a choice 3 hexes from Bob's homeworld is the answer to one far
    from every homeworld (the set-up resolution refuses it: tests/test_setup_turn.py)."""
    state = setup_state()
    state.systems.append(System("2017", "Near Bob", "A", "A"))
    state.systems.append(System("0505", "Far away", "A", "A"))
    near = validate_orders(state, "Ann", setup_orders("2017"), RULES)
    far = validate_orders(state, "Ann", setup_orders("0505"), RULES)
    assert [(p.severity, p.message) for p in near] == [(p.severity, p.message) for p in far]
    assert not errors(near)


def test_setup_homeworld_already_set_by_the_referee() -> None:
    state = setup_state()
    state.player("Ann").homeworld = "1010"  # type: ignore[union-attr]
    assert validate_orders(state, "Ann", setup_orders(""), RULES) == []
    one_error(validate_orders(state, "Ann", setup_orders("2020"), RULES), "already set")


@pytest.mark.parametrize("rule", ["jump_range", "max_departures"])
def test_house_rules_are_read(rule: str) -> None:
    assert rule in RULES


def test_probes_are_built_at_any_owned_system_unless_the_house_rule_wants_a_shipyard() -> None:
    """6.2 limits "FTL squadrons" to class A worlds; a probe swarm is no squadron, so by
    default Ann may buy one at her class B world 1011 (probe_build_site = shipyard: refused)."""
    s = make_state()
    s.player("Ann").tech_level = 2
    line = Orders("Ann", YEAR, purchases=[Purchase("1011", "PROBE", 1, cell="B30")])
    assert errors(check(s, line)) == []
    strict = validate_orders(s, "Ann", line, {**RULES, "probe_build_site": "shipyard"})
    one_error(strict, "class A world or one with a spacedock", "B30")


def test_fusion_bomb_lines_name_a_system_where_the_players_levels_are_due() -> None:
    from refassist.rulesets.fifth_millennium.orders import Bombing

    s = make_state()
    s.flights.append(Flight("5002-Ann-2", "Ann", "1011", "2020", 5002, YEAR, Fleet(F=4, SF=1)))

    def bomb(hex_: str, row: int = 56) -> Bombing:
        return Bombing(
            hex_, cell=f"B{row}", text=f"fusion bomb - {hex_}", cells=(f"B{row}", f"C{row}")
        )

    fine = check(s, Orders("Ann", YEAR, bombing=[bomb("2020")]))
    assert fine == []
    nothing = check(s, Orders("Ann", YEAR, bombing=[bomb("1012", 57)]))
    assert [(p.severity, p.cell) for p in nothing] == [("warning", "C57")]
    assert "none of your SFBA levels will be at 1012" in nothing[0].message
    one_error(
        check(s, Orders("Ann", YEAR, bombing=[bomb("1013")])), "no star system at 1013", "C56"
    )
    one_error(check(s, Orders("Ann", YEAR, bombing=[bomb("1011")])), "your own system", "C56")
    twice = check(s, Orders("Ann", YEAR, bombing=[bomb("2020"), bomb("2020", 57)]))
    assert [(p.severity, p.cell) for p in twice] == [("warning", "B57")]
    automatic = validate_orders(
        s,
        "Ann",
        Orders("Ann", YEAR, bombing=[bomb("2020")]),
        {**RULES, "fusion_bombing": "automatic"},
    )
    assert [p.severity for p in automatic] == ["warning"] and "changes nothing" in automatic[0].fix
