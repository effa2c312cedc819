"""The production phase (section 6, Appendix A and B): income, purchases, placement, upkeep.

Subsectors matter for the +10 bonus: 1010 lies in subsector B (rows 1-10), 1011-1015 in F.
Tests that do not want the bonus put an unowned system (1009) beside Ann's 1010 in B.
"""

from __future__ import annotations

from refassist.rulesets import find_ruleset
from refassist.rulesets.base import Event
from refassist.rulesets.fifth_millennium.orders import Orders, Purchase
from refassist.rulesets.fifth_millennium.state import Fleet
from refassist.workbook.master import read_master, write_master
from tests.fm_states import (
    YEAR,
    buy,
    count,
    events,
    facility,
    fleet_at,
    flight,
    force,
    force_at,
    move,
    one,
    orders,
    resolve,
    state,
    system,
)


def _ledger(result, player="Ann"):
    return next(e for e in events(result, "production") if e.players == (player,)).data


def _home(cls="A", stockpile=0, more=(), **kw):
    """Ann at 1010 (class ``cls``), with unowned systems in subsectors B (1009) and F (1019)
    so that no subsector is complete, and Bob far away at 2520 (so the game goes on)."""
    s = state(
        [
            system("1010", cls, "Ann", **kw),
            system("1009", "X"),
            system("1019", "X"),
            *more,
            system("2520", "X", "Bob"),
            system("2519", "X"),
        ],
        forces=[force("1010", "Ann", F=3), force("2520", "Bob", F=1)],
    )
    s.player("Ann").stockpile = stockpile
    return s


def test_income_counts_class_bases_hipop_labs_opcs_and_complete_subsectors() -> None:
    s = state(
        [
            system("1010", "A", "Ann", naval_base=True, scout_base=True, hipop=True),
            system("1012", "C", "Ann"),
            system("1013", "E"),
        ],
        forces=[force("1010", "Ann", F=1), force("1012", "Ann", F=1)],
        facilities=[
            facility("1010", "Ann", "GL", 2),
            facility("1010", "Ann", "GL", 1, building=True),  # bought last turn: counts now
            facility("1010", "Ann", "OPC"),
        ],
    )
    ledger = _ledger(resolve(s))
    assert dict(ledger["income"]) == {
        "1010 World1010: class A": 5,
        "1010 World1010: naval base": 1,
        "1010 World1010: scout base": 1,
        "1010 World1010: HiPop": 1,
        "1010 World1010: 3 Genetics Labs": 3,
        "1010 World1010: 1 Orbital Production Centre": 1,
        "1012 World1012: class C": 3,
        "subsector B complete": 10,  # 1010 is B's only system; F also holds the unowned 1013
    }
    assert ledger["income_total"] == 25


def test_purchases_in_sheet_order_until_the_budget_runs_out() -> None:
    def run(rule):
        s = _home(stockpile=4)  # budget 4 + income 5 = 9
        lines = [buy("1010", "F", 2), buy("1010", "GL", 1), buy("1010", "OPC", 1)]
        lines.append(buy("1010", "F", 1))
        return resolve(s, [orders("Ann", purchases=lines)], purchases_after_shortfall=rule)

    stop = run("cancelled")
    statuses = [(p["item"], p["status"]) for p in _ledger(stop)["purchases"]]
    assert statuses == [("F", "bought"), ("GL", "bought"), ("OPC", "cancelled"), ("F", "cancelled")]
    assert stop.state.player("Ann").stockpile == 2
    reasons = [e.data["reason"] for e in events(stop, "purchase_cancelled")]
    assert "only 2 are left" in reasons[0] and "earlier line" in reasons[1]
    assert force_at(stop.state, "1010", "Ann", building=True).fleet == Fleet(F=2)

    go_on = run("continue")
    statuses = [(p["item"], p["status"]) for p in _ledger(go_on)["purchases"]]
    assert statuses == [("F", "bought"), ("GL", "bought"), ("OPC", "cancelled"), ("F", "bought")]
    assert go_on.state.player("Ann").stockpile == 0


def test_a_line_costing_more_than_is_left_buys_what_can_be_paid_for() -> None:
    r = resolve(_home(stockpile=0), [orders("Ann", purchases=[buy("1010", "F", 4)])])
    bought, cancelled = _ledger(r)["purchases"]
    assert (bought["quantity"], bought["cost"]) == (2, 4)
    assert (cancelled["quantity"], cancelled["status"]) == (2, "cancelled")
    assert one(r, "purchase_cancelled").data["quantity"] == 2


def test_placement_rules_are_checked_again_at_production() -> None:
    s = _home(
        stockpile=100,
        more=[system("1011", "B", "Ann"), system("1012", "D", "Ann"), system("1014", "C", "Bob")],
    )
    s.forces += [force("1011", "Ann", F=1), force("1012", "Ann", F=1), force("1014", "Bob", F=1)]
    s.facilities.append(facility("1010", "Ann", "GL", 4))
    lines = [
        buy("1011", "F"),  # class B, no spacedock
        buy("1012", "M"),  # monitors only at A-C
        buy("1014", "GL"),  # Bob's world
        buy("1010", "GL", 3),  # 4 there already: one more fits
        buy("1011", "M"),  # fine at class B
    ]
    r = resolve(s, [orders("Ann", purchases=lines)])
    reasons = [e.data["reason"] for e in events(r, "purchase_cancelled")]
    assert "class A world or one with a spacedock" in reasons[0]
    assert "class A, B or C" in reasons[1]
    assert "do not own" in reasons[2]
    assert "only 1 more fit" in reasons[3]
    assert count(r.state, "1010", "Ann", "GL") == 5
    assert force_at(r.state, "1011", "Ann", building=True).M == 1


def test_a_spacedock_allows_ftl_squadrons_at_any_world() -> None:
    s = _home(stockpile=10, more=[system("1011", "C", "Ann")])
    s.forces.append(force("1011", "Ann", F=1))
    s.facilities.append(facility("1011", "Ann", "DOCK"))
    r = resolve(s, [orders("Ann", purchases=[buy("1011", "A", 2)])])
    assert force_at(r.state, "1011", "Ann", building=True).fleet == Fleet(A=2)


def test_refueling_stations_go_in_empty_hexes_within_range_from_tl2() -> None:
    s = _home(stockpile=40)
    s.player("Ann").tech_level = 2
    r = resolve(
        s,
        [orders("Ann", purchases=[buy("1013", "DSRS"), buy("1015", "DSRS"), buy("1009", "DSRS")])],
    )
    assert count(r.state, "1013", "Ann", "DSRS") == 1
    reasons = [e.data["reason"] for e in events(r, "purchase_cancelled")]
    assert "more than 4 hexes" in reasons[0] and "without a star system" in reasons[1]
    tl1 = resolve(_home(stockpile=40), [orders("Ann", purchases=[buy("1013", "DSRS")])])
    assert "technology level 2" in one(tl1, "purchase_cancelled").data["reason"]


def test_items_are_ready_next_turn_from_the_departures_phase() -> None:
    s = _home(stockpile=10, more=[system("1011")])
    first = resolve(s, [orders("Ann", purchases=[buy("1010", "F", 2)])])
    assert force_at(first.state, "1010", "Ann", building=True).fleet == Fleet(F=2)
    assert fleet_at(first.state, "1010", "Ann") == Fleet(F=3)
    second = resolve(
        first.state, [orders("Ann", YEAR + 1, moves=[move("1010", "1011", YEAR + 1, F=5)])]
    )
    assert [f.fleet for f in second.state.flights] == [Fleet(F=5)]


def test_unspent_points_are_stockpiled_at_home_or_a_construction_facility() -> None:
    s = _home(stockpile=3, more=[system("1011", "C", "Ann")])
    s.forces.append(force("1011", "Ann", F=1))
    s.facilities.append(facility("1011", "Ann", "CF"))
    r = resolve(s, [Orders(player="Ann", year=YEAR, stockpile_at="1011")])
    ann = r.state.player("Ann")
    assert ann.stockpile == 3 + 5 + 3 and ann.stockpile_at == "1011"
    nowhere = resolve(_home(), [Orders(player="Ann", year=YEAR, stockpile_at="1009")])
    assert nowhere.state.player("Ann").stockpile_at == ""
    assert "Construction Facility or Depot" in one(nowhere, "order_cancelled").data["reason"]


def test_upgrades_turn_ready_fleet_squadrons_into_strike_or_fast_squadrons() -> None:
    s = _home(stockpile=10)
    s.player("Ann").tech_level = 2
    r = resolve(s, [orders("Ann", purchases=[buy("1010", "SU", 2), buy("1010", "FU", 2)])])
    assert fleet_at(r.state, "1010", "Ann") == Fleet()
    assert force_at(r.state, "1010", "Ann", building=True).fleet == Fleet(S=2, Fs=1)
    assert "only 1 Fleet squadrons are ready" in one(r, "purchase_cancelled").data["reason"]


def test_minefields_kkms_sfba_and_probes_are_loaded_where_bought() -> None:
    s = _home(stockpile=40)
    s.player("Ann").tech_level = 3
    lines = [buy("1010", "MINE", 3), buy("1010", "KKM", 2), buy("1010", "SF", 1)]
    lines.append(buy("1010", "PROBE", 1))
    r = resolve(s, [orders("Ann", purchases=lines)])
    building = force_at(r.state, "1010", "Ann", building=True)
    assert (building.fleet, building.P) == (Fleet(K=2, SF=1), 1)
    assert [(f.kind, f.count, f.building) for f in r.state.facilities] == [("MINE", 3, True)]
    assert r.state.player("Ann").stockpile == 40 + 5 - 3 - 2 - 10 - 1


def test_refueling_upkeep_is_paid_or_the_station_is_lost_and_its_squadrons_stranded(
    tmp_path,
) -> None:
    """App. B: a station whose charge cannot be paid "is considered lost"; the seed says
    nothing of the squadrons, so they stay in the empty hex, may leave the next year, and
    the master workbook keeps them (house rule station_loss = squadrons-lost: they go too)."""

    def run(cls, **rules):
        s = _home(cls)
        s.facilities.append(facility("1013", "Ann", "DSRS"))
        s.flights.append(flight("Ann", "1010", "1013", F=3))
        return resolve(s, **rules)

    paid = run("A")  # income 5 pays 3 squadrons refuelled
    assert _ledger(paid)["upkeep"] == [["refueling at 1013: 3 squadrons", 3]]
    assert paid.state.player("Ann").stockpile == 2
    unpaid = run("E")  # income 1
    lost = one(unpaid, "station_lost")
    assert lost.data["upkeep"] == 3 and lost.data["squadrons_lost"] == 0
    assert lost.data["squadrons_stranded"] == 3 and "stay in the empty hex" in lost.text
    assert count(unpaid.state, "1013", "Ann", "DSRS") == 0
    assert fleet_at(unpaid.state, "1013", "Ann") == Fleet(F=3)
    assert unpaid.state.player("Ann").stockpile == 1
    path = tmp_path / "master.xlsx"
    fm = find_ruleset("fifth-millennium")
    write_master(path, fm, unpaid.state)
    again = read_master(path, fm)
    assert fleet_at(again, "1013", "Ann") == Fleet(F=3)
    home = resolve(
        again, [orders("Ann", year=again.year, moves=[move("1013", "1010", again.year, F=3)])]
    )
    assert [f.destination for f in home.state.flights if f.owner == "Ann"] == ["1010"]
    strict = run("E", station_loss="squadrons-lost")
    assert one(strict, "station_lost").data["squadrons_lost"] == 3
    assert fleet_at(strict.state, "1013", "Ann") == Fleet()


def test_income_thresholds_unlock_technology_levels() -> None:
    rich = _home("A", naval_base=True, scout_base=True, hipop=True)  # income 8
    assert resolve(rich).state.player("Ann").tech_level == 1
    r = resolve(rich, tl2_income=8, tl3_income=9)
    assert r.state.player("Ann").tech_level == 2
    assert one(r, "tech_level").data == {"from": 1, "to": 2, "income": 8}
    assert resolve(rich, tl2_income=5, tl3_income=8).state.player("Ann").tech_level == 3


def test_a_lost_homeworld_stops_income_unless_a_construction_facility_remains() -> None:
    def run(kind):
        s = state(
            [system("1011", "C", "Ann"), system("1010", "A", "Bob"), system("1019", "X")],
            forces=[force("1011", "Ann", F=1), force("1010", "Bob", F=1)],
            facilities=[facility("1011", "Ann", kind)] if kind else [],
            homeworlds={"Ann": "1010", "Bob": "1010"},
        )
        s.player("Ann").homeworld_lost = YEAR - 1
        return resolve(s, dice=[6])  # civil unrest, 1 in 6 for Ann's world: it stays loyal

    blocked = _ledger(run(""))
    assert blocked["income_total"] == 0 and "no new resource points" in blocked["income_blocked"]
    assert _ledger(run("CF"))["income_total"] == 3


def test_a_control_centre_and_or_construction_facility_or_a_depot_not_both() -> None:
    s = _home(stockpile=100, more=[system("1011", "C", "Ann")])
    s.forces.append(force("1011", "Ann", F=1))
    s.facilities.append(facility("1011", "Ann", "DEPOT"))
    lines = [buy("1010", "CC"), buy("1010", "DEPOT"), buy("1011", "CF")]
    r = resolve(s, [orders("Ann", purchases=lines)])
    reasons = [e.data["reason"] for e in events(r, "purchase_cancelled")]
    assert "not both" in reasons[0] and "only one" in reasons[1] and "not both" in reasons[2]
    per_system = resolve(s, [orders("Ann", purchases=lines)], seat_exclusivity="system")
    assert count(per_system.state, "1010", "Ann", "CC") == 1
    assert count(per_system.state, "1010", "Ann", "DEPOT") == 0  # the CC is there now


def test_a_purchase_at_a_world_lost_in_this_turns_battle_is_cancelled() -> None:
    s = _home(stockpile=10, more=[system("1011", "A", "Ann"), system("1013", "A", "Bob")])
    s.forces += [force("1011", "Ann", F=1), force("1013", "Bob", F=1)]
    s.flights.append(flight("Bob", "1013", "1011", F=4))
    r = resolve(s, [orders("Ann", purchases=[buy("1011", "F", 1)])], dice=[1])
    assert r.state.system("1011").owner == "Bob"
    assert "1011 was captured this turn" in one(r, "purchase_cancelled").data["reason"]
    refunded = resolve(
        s,
        [orders("Ann", purchases=[buy("1011", "F", 1)])],
        dice=[1],
        production_at_captured_world="refunded",
    )
    assert "do not own" in one(refunded, "purchase_cancelled").data["reason"]


def test_a_referees_hand_change_to_the_stockpile_shows_in_the_ledger() -> None:
    """Last turn's production closed Ann's stockpile at 7; the referee made it 17 by hand
    between turns: the ledger says so, and 7 + 10 = 17 before production adds up."""
    s = _home(stockpile=17)
    s.events = [
        Event(
            YEAR - 1,
            "production",
            "",
            "production",
            "Production: ...",
            ("Ann",),
            ("Ann",),
            {"stockpile_before": 3, "stockpile_after": 7},
        ),
        Event(
            YEAR - 1,
            "production",
            "",
            "production",
            "Production: ...",
            ("Bob",),
            ("Bob",),
            {"stockpile_before": 0, "stockpile_after": 0},
        ),
    ]
    ledger = _ledger(resolve(s))
    assert ledger["stockpile_last_turn"] == 7
    assert ledger["referee_adjustment"] == 10
    assert ledger["stockpile_before"] == 17
    bob = _ledger(resolve(s), "Bob")
    assert "referee_adjustment" not in bob  # Bob's stockpile is what production left


def test_no_adjustment_without_last_turns_ledger() -> None:
    ledger = _ledger(resolve(_home(stockpile=17)))
    assert "referee_adjustment" not in ledger


def test_a_level_reached_this_turn_buys_from_next_turns_sheet() -> None:
    """The report says a new level's items "may be bought from next turn's sheet", and the
    checker judges a sheet by the level it was written at: the rules hold it too.  Ann's
    income of 8 reaches TL2 this turn; the Fast squadron on this turn's sheet is refused."""
    rich = _home("A", stockpile=20, naval_base=True, scout_base=True, hipop=True)
    r = resolve(rich, [orders("Ann", purchases=[buy("1010", "Fs", 1)])], tl2_income=8)
    assert r.state.player("Ann").tech_level == 2
    cancelled = one(r, "purchase_cancelled").data["reason"]
    assert "needs technology level 2; you have 1" in cancelled
    assert not any(f.fleet.Fs for f in r.state.forces if f.owner == "Ann")
    later = resolve(r.state, [orders("Ann", r.state.year, purchases=[buy("1010", "Fs", 1)])])
    assert events(later, "purchase_cancelled") == []


def test_building_at_ones_own_refueling_station_in_deep_space() -> None:
    """6.2: "You cannot build items in systems you do not own (exception, deep space hexes with
    refueling centres)".  At Ann's station in the empty hex 1012: a minefield point is built;
    a Genetics Lab needs a world; squadrons need a spacedock there, as at a world not class A."""
    s = _home(stockpile=40, more=[])
    s.facilities.append(facility("1012", "Ann", "DSRS"))
    s.player("Ann").tech_level = 2
    lines = [buy("1012", "MINE", 2), buy("1012", "GL", 1), buy("1012", "F", 1)]
    r = resolve(s, [orders("Ann", purchases=lines)])
    assert count(r.state, "1012", "Ann", "MINE") == 2
    reasons = [e.data["reason"] for e in events(r, "purchase_cancelled")]
    assert any("Genetics Lab needs a world" in x for x in reasons)
    assert any("without a spacedock" in x for x in reasons)
    docked = _home(stockpile=40)
    docked.facilities += [facility("1012", "Ann", "DSRS"), facility("1012", "Ann", "DOCK")]
    r2 = resolve(docked, [orders("Ann", purchases=[buy("1012", "F", 2)])])
    assert events(r2, "purchase_cancelled") == []
    assert force_at(r2.state, "1012", "Ann", building=True).fleet.F == 2


def test_the_checker_agrees_about_building_at_a_station() -> None:
    from refassist.rulesets.fifth_millennium.rules import complete
    from refassist.rulesets.fifth_millennium.validate import validate_orders

    s = _home(stockpile=40)
    s.facilities.append(facility("1012", "Ann", "DSRS"))
    s.player("Ann").tech_level = 2
    sheet = orders(
        "Ann",
        purchases=[
            Purchase("1012", "MINE", 2, cell="B40"),
            Purchase("1012", "GL", 1, cell="B41"),
            Purchase("1013", "MINE", 1, cell="B42"),
        ],
    )
    problems = {p.cell: p.message for p in validate_orders(s, "Ann", sheet, complete())}
    assert "B40" not in problems
    assert "needs a world" in problems["B41"]
    assert "there is no star system at 1013" in problems["B42"]  # no station there


def test_production_at_a_world_captured_this_turn_is_lost_to_the_defeated() -> None:
    """6.2: "In the event of a world where production is scheduled being captured by an enemy,
    the production points are lost to the defeated player".  Ann takes Bob's 1012 (Bob's one
    squadron, defeated, misses with a 1); Bob's Genetics Lab ordered there costs him 3 for
    nothing; under the house rule "refunded" he keeps the 3."""

    def run(**rules):
        s = state(
            [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("2520", "A", "Bob")],
            forces=[
                force("1010", "Ann", F=1),
                force("1012", "Bob", F=1),
                force("2520", "Bob", F=1),
            ],
            flights=[flight("Ann", "1010", "1012", F=3)],
            homeworlds={"Ann": "1010", "Bob": "2520"},
        )
        s.player("Bob").stockpile = 10
        return resolve(s, [orders("Bob", purchases=[buy("1012", "GL", 1)])], dice=[1], **rules)

    lost = run()
    assert lost.state.system("1012").owner == "Ann"
    bob = _ledger(lost, "Bob")
    assert [(p["status"], p["cost"]) for p in bob["purchases"]] == [("lost", 3)]
    assert bob["stockpile_after"] == 10 + bob["income_total"] - 3
    assert "production points are lost (6.2)" in one(lost, "purchase_cancelled").text
    kept = _ledger(run(production_at_captured_world="refunded"), "Bob")
    assert [p["status"] for p in kept["purchases"]] == ["cancelled"]
    assert kept["stockpile_after"] == 10 + kept["income_total"]


def test_a_probe_swarm_is_built_at_any_owned_system_by_default() -> None:
    """Probes are not "FTL squadrons" (6.2): a class C world builds one; under the house rule
    probe_build_site = shipyard the line is cancelled there and its points stay."""

    def run(**rules):
        s = _home("C", stockpile=5)
        s.player("Ann").tech_level = 2
        return resolve(s, [orders("Ann", purchases=[buy("1010", "PROBE", 2)])], **rules)

    built = run()
    assert force_at(built.state, "1010", "Ann", building=True).P == 2
    refused = run(probe_build_site="shipyard")
    assert "class A world or one with a spacedock" in one(refused, "purchase_cancelled").text
    assert refused.state.player("Ann").stockpile == 5 + 3


# -- the item list: what a player may type, where it is built, what a tech level allows -------


def test_an_item_is_found_by_code_name_or_dropdown_label() -> None:
    from refassist.rulesets.fifth_millennium.items import ITEMS, find_item, item_label

    gl = find_item("GL")
    assert gl is not None and gl.name == "Genetics Lab"
    for typed in ("gl", "  GL ", "Genetics Lab", "genetics LAB", "GL - Genetics Lab (3)"):
        assert find_item(typed) is gl, typed
    # Every dropdown label reads back as its item; the text before " - " is what counts.
    assert all(find_item(item_label(item)) is item for item in ITEMS)
    assert find_item("Genetics Lab - the one on Tau") is gl
    assert find_item("GL - Genetics Lab (3) - note") is gl
    for nothing in ("", "   ", "XX", "XX - Genetics Lab (3)", "Genetics"):
        assert find_item(nothing) is None, nothing


def test_a_probe_swarm_is_built_at_any_system_unless_the_house_rule_says_shipyard() -> None:
    from refassist.rulesets.fifth_millennium.items import ITEMS_BY_CODE, placement

    probe = ITEMS_BY_CODE["PROBE"]
    assert placement(probe, {}) == "system"
    assert placement(probe, {"probe_build_site": "any-system"}) == "system"
    assert placement(probe, {"probe_build_site": "shipyard"}) == "ftl"
    assert placement(ITEMS_BY_CODE["F"], {}) == "ftl"
    assert placement(ITEMS_BY_CODE["GL"], {"probe_build_site": "shipyard"}) == "system"


def test_a_tech_level_allows_the_items_of_that_level_and_below() -> None:
    from refassist.rulesets.fifth_millennium.items import ITEMS, items_for_tech

    for level in (1, 2, 3):
        allowed = items_for_tech(level)
        assert allowed == [i for i in ITEMS if i.tech_level <= level]
        assert any(i.tech_level == level for i in allowed)
    assert items_for_tech(0) == []


def test_refueling_charges_are_paid_station_by_station_in_hex_order() -> None:
    """App. B: each station's charge is one point per squadron refuelled.  Two stations, 1012
    (3 squadrons) and 1013 (2): income 5 pays both exactly; income 2 cannot pay 1012, which
    is lost, and still pays 1013 after it."""

    def run(cls):
        s = _home(cls)
        s.facilities += [facility("1012", "Ann", "DSRS"), facility("1013", "Ann", "DSRS")]
        s.flights += [flight("Ann", "1010", "1012", F=3), flight("Ann", "1010", "1013", F=2)]
        return resolve(s)

    both = run("A")  # income 5 = 3 + 2
    assert _ledger(both)["upkeep"] == [
        ["refueling at 1012: 3 squadrons", 3],
        ["refueling at 1013: 2 squadrons", 2],
    ]
    assert both.state.player("Ann").stockpile == 0 and events(both, "station_lost") == []
    assert [(f.hex, f.kind) for f in both.state.facilities] == [("1012", "DSRS"), ("1013", "DSRS")]
    short = run("D")  # income 2
    assert _ledger(short)["upkeep"] == [["refueling at 1013: 2 squadrons", 2]]
    lost = one(short, "station_lost")
    assert (lost.phase, lost.location, lost.players, lost.visible_to) == (
        "production",
        "1012",
        ("Ann",),
        ("Ann",),
    )
    assert lost.text == (
        "Your refueling station at 1012 was lost: the refueling charge of 3 points could not "
        "be paid from 2; the 3 squadrons waiting there stay in the empty hex and may still "
        "depart."
    )
    assert [(f.hex, f.kind) for f in short.state.facilities] == [("1013", "DSRS")]
    assert short.state.player("Ann").stockpile == 0


def test_where_a_purchase_may_be_placed_is_judged_from_the_sheets_tech_level_and_owners() -> None:
    """purchase_problem, the rule the checker and production share: a station is one per
    hex (one under construction counts), within best range of a world (the range itself is
    in, one more is out), and a level this turn unlocks counts only when the sheet's own
    level is given."""
    from refassist.rulesets.fifth_millennium.items import ITEMS_BY_CODE
    from refassist.rulesets.fifth_millennium.production import purchase_problem

    s = _home(stockpile=40)
    s.player("Ann").tech_level = s.player("Bob").tech_level = 2
    dsrs, fs = ITEMS_BY_CODE["DSRS"], ITEMS_BY_CODE["FS"]
    rules = {"jump_range": 4, "enhanced_jump_range": 7}
    assert purchase_problem(s, "Ann", dsrs, "1014", rules) == ""  # 4 hexes from 1010
    assert purchase_problem(s, "Ann", dsrs, "1015", rules) == (
        "1015 is more than 4 hexes from every world you own"
    )
    s.facilities.append(facility("1013", "Ann", "DSRS", building=True))
    assert purchase_problem(s, "Ann", dsrs, "1013", rules) == (
        "you already have a refueling station at 1013"
    )
    assert purchase_problem(s, "Bob", dsrs, "2517", rules) == ""  # Ann's station is Ann's
    assert purchase_problem(s, "Ann", fs, "1010", rules) == ""
    assert purchase_problem(s, "Ann", fs, "1010", rules, tech_level=1) == (
        "Fast squadron needs technology level 2; you have 1"
    )
    assert purchase_problem(s, "Ann", None, "1010", rules) == "there is no such item"


def test_the_stockpile_site_is_home_or_a_finished_facility_of_ones_own() -> None:
    def site(where: str, *extra):
        s = _home(stockpile=3, more=[system("1011", "C", "Ann"), system("1012", "C", "Bob")])
        s.forces += [force("1011", "Ann", F=1), force("1012", "Bob", F=1)]
        s.facilities += list(extra)
        s.player("Ann").stockpile_at = "1011"
        return resolve(s, [Orders(player="Ann", year=YEAR, stockpile_at=where)])

    home = site("1010", facility("1011", "Ann", "CF"))
    assert home.state.player("Ann").stockpile_at == ""  # back at the homeworld
    depot = site("1011", facility("1011", "Ann", "DEPOT"))
    assert depot.state.player("Ann").stockpile_at == "1011"
    for where, extra in (
        ("1011", facility("1011", "Ann", "GL")),  # not a CF or Depot
        ("1012", facility("1012", "Bob", "CF")),  # not Ann's
    ):
        r = site(where, extra)
        cancelled = one(r, "order_cancelled")
        assert cancelled.text == (
            f"Your order 'stockpile at {where}' was cancelled: you have no finished "
            f"Construction Facility or Depot at {where}."
        )
        assert (cancelled.phase, cancelled.visible_to) == ("production", ("Ann",))
        assert r.state.player("Ann").stockpile_at == "1011"  # the old site stands


def test_seats_follow_the_one_of_each_or_a_depot_rule_per_empire_or_per_system() -> None:
    from refassist.rulesets.fifth_millennium.production import seat_problem

    s = _home(more=[system("1011", "C", "Ann")])
    s.facilities += [facility("1010", "Ann", "CC"), facility("2520", "Bob", "DEPOT")]
    empire = {"seat_exclusivity": "empire"}
    assert seat_problem(s, "Ann", "DEPOT", "1011", empire) == (
        "your empire may have a Control Centre and/or a Construction Facility, or a Depot, "
        "but not both"
    )
    assert seat_problem(s, "Ann", "CC", "1011", empire) == (
        "you already have a Control Centre; an empire has only one"
    )
    assert seat_problem(s, "Ann", "CF", "1011", empire) == ""
    assert seat_problem(s, "Ann", "CF", "1011", {}) == ""  # the default is per empire
    assert seat_problem(s, "Ann", "DEPOT", "1011", {}).startswith("your empire may have")
    system_rule = {"seat_exclusivity": "system"}
    assert seat_problem(s, "Ann", "DEPOT", "1011", system_rule) == ""
    assert seat_problem(s, "Ann", "CC", "1011", system_rule) == ""
    assert seat_problem(s, "Ann", "DEPOT", "1010", system_rule) == (
        "1010 may have a Control Centre and/or a Construction Facility, or a Depot, but not both"
    )
    # Bob's Depot is his: Ann's Control Centre does not stop him from having it, nor him her.
    assert seat_problem(s, "Bob", "CF", "2520", empire).startswith("your empire may have")
    assert seat_problem(s, "Bob", "DEPOT", "2519", empire) == (
        "you already have a Depot; an empire has only one"
    )


def test_purchase_lines_in_sheet_order_and_what_a_shortfall_does_to_the_rest() -> None:
    """Budget 4 + 5 = 9: an unknown item and a zero quantity are refused, 3 F (6) and the
    first of 2 F (2) are bought, the second F finds 1 point left; then the house rule decides
    the Genetics Lab: cancelled because the budget ran out (default), or judged on its own
    cost with ``purchases_after_shortfall = continue``."""
    lines = [
        buy("1010", "ZZ"),
        buy("1010", "F", 0),
        buy("1010", "F", 3),
        buy("1010", "F", 2),
        buy("1010", "GL", 1),
    ]
    expected = [
        ("ZZ", "ZZ", 1, 0, "cancelled", "there is no such item"),
        ("F", "Fleet squadron", 0, 0, "cancelled", "the quantity must be at least 1"),
        ("F", "Fleet squadron", 3, 6, "bought", ""),
        ("F", "Fleet squadron", 1, 2, "bought", ""),
        (
            "F",
            "Fleet squadron",
            1,
            2,
            "cancelled",
            "1 x Fleet squadron would cost 2 points and only 1 are left",
        ),
    ]

    def ledger(**rules):
        r = resolve(_home(stockpile=4), [orders("Ann", purchases=lines)], **rules)
        assert r.state.player("Ann").stockpile == 1
        return [
            (p["item"], p["name"], p["quantity"], p["cost"], p["status"], p.get("reason", ""))
            for p in _ledger(r)["purchases"]
        ]

    gl = ("GL", "Genetics Lab", 1, 3, "cancelled")
    assert ledger() == [*expected, (*gl, "the budget ran out on an earlier line")]
    assert ledger(purchases_after_shortfall="cancelled") == ledger()
    assert ledger(purchases_after_shortfall="continue") == [
        *expected,
        (*gl, "1 x Genetics Lab would cost 3 points and only 1 are left"),
    ]


def test_what_may_be_built_at_ones_refueling_station_in_deep_space() -> None:
    """6.2's exception: at Ann's own finished station (1013) she builds what needs no world;
    squadrons and upgrades need her spacedock there; a seat follows the seat rule."""
    from refassist.rulesets.fifth_millennium.items import ITEMS_BY_CODE
    from refassist.rulesets.fifth_millennium.production import purchase_problem

    def problem(code: str, *extra, **rules) -> str:
        s = _home()
        s.player("Ann").tech_level = 3
        s.facilities += [facility("1013", "Ann", "DSRS"), *extra]
        return purchase_problem(s, "Ann", ITEMS_BY_CODE[code], "1013", rules)

    world = "needs a world; 1013 is deep space (your refueling station)"
    assert problem("M") == f"Monitor squadron {world}"
    assert problem("GL") == f"Genetics Lab {world}"
    no_dock = (
        "can only be built at a class A world or one with a spacedock; 1013 is your refueling "
        "station in deep space, without a spacedock"
    )
    assert problem("F") == f"Fleet squadron {no_dock}"
    assert problem("SU") == f"Strike upgrade of a Fleet squadron {no_dock}"
    assert problem("F", facility("1013", "Bob", "DOCK")) == f"Fleet squadron {no_dock}"
    assert problem("F", facility("1013", "Ann", "DOCK")) == ""
    assert problem("SU", facility("1013", "Ann", "DOCK")) == ""
    assert problem("PROBE") == ""  # any system by default
    assert problem("PROBE", probe_build_site="shipyard") == f"Probe swarm {no_dock}"
    assert problem("CF") == ""
    assert problem("CF", facility("1010", "Ann", "DEPOT")).startswith("your empire may have")


def test_a_station_nobody_used_costs_nothing_and_what_is_left_pays_the_next() -> None:
    """Stations at 1011 and 1014 refuel nobody (no charge, no line); income 5 pays 1012's 3
    and leaves 2, too little for 1013's 3, which is lost."""
    s = _home("A")
    s.facilities += [facility(h, "Ann", "DSRS") for h in ("1011", "1012", "1013", "1014")]
    s.flights += [flight("Ann", "1010", "1012", F=3), flight("Ann", "1010", "1013", F=3)]
    r = resolve(s)
    assert _ledger(r)["upkeep"] == [["refueling at 1012: 3 squadrons", 3]]
    assert [(e.location, e.data["upkeep"]) for e in events(r, "station_lost")] == [("1013", 3)]
    assert sorted(f.hex for f in r.state.facilities if f.kind == "DSRS") == ["1011", "1012", "1014"]
    assert r.state.player("Ann").stockpile == 2


def test_the_ledger_names_an_item_by_its_code_whatever_was_typed() -> None:
    r = resolve(_home(stockpile=10), [orders("Ann", purchases=[buy("1010", "fleet squadron", 1)])])
    (bought,) = _ledger(r)["purchases"]
    assert (bought["item"], bought["name"], bought["cost"], bought["status"]) == (
        "F",
        "Fleet squadron",
        2,
        "bought",
    )
