"""A ship's week activity by activity (`timeline.run`, the plan both the checker and the week
follow): how long each activity takes, where the ship stands after it, which line each
impossibility or risk is pinned to and whether it is an error (the line is skipped) or a
warning (the line is done), and the works a commander has to work with.

``test_timeline.py`` runs the seed's merchant week; these take each activity to its edges,
with hand-counted hours (1 day = 10 hours, 1 parsec an hour)."""

from __future__ import annotations

from typing import Any

import pytest

from refassist.rulesets.full_thrust.designs import STANDARD_DESIGNS, Design
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import WORMHOLE, Commander, Facility, State, System
from refassist.rulesets.full_thrust.timeline import ALL, Activity, Leg, Plan, Position, run

RULES = complete()
DESIGNS = {d.name: d for d in STANDARD_DESIGNS}
MERCHANT = DESIGNS["Packet merchant"]  # hold 400, streamlined, escort, 6 boxes
FRIGATE = DESIGNS["Halberd frigate"]  # escort, streamlined, 6 boxes
CRUISER = DESIGNS["Claymore cruiser"]  # cruiser class, not streamlined
TUG = DESIGNS["Harness tug"]  # mass 40
TENDER = DESIGNS["Wellspring tender"]  # hold 1000
BARGE = Design("Barge", 20, 30, "escort", "merchant", 6, hold=4, ftl=False)


def world() -> State:
    """Ann holds A (a starport, a shipyard, a station, a mining platform) and Port (a
    spaceport); B is neutral, 5 parsecs from A; Bob holds D.  A facility of hers is being
    built at B; another is in Bob's hands at D."""
    systems = {
        "A": System("A", (1, 1), value=4, owner="Ann", port="starport"),
        "B": System("B", (1, 6), value=3),
        "D": System("D", (2, 5), value=1, owner="Bob", port="starport"),
        "Port": System("Port", (1, 2), value=2, owner="Ann", port="spaceport"),
        "Gate": System("Gate", (1, 4), kind=WORMHOLE),
        "Ruin": System("Ruin", (2, 1), value=1, ancient_site=True),
        "Edge": System("Edge", (12, 1), value=1),
    }
    state = State(
        game_name="Test",
        game_id="t",
        week=2,
        commanders=[
            Commander("Ann", "ann@example.com", home="A"),
            Commander("Bob", "bob@example.com", home="D"),
        ],
        systems=systems,
        obstacles=set(),
        designs=dict(DESIGNS, Barge=BARGE),
    )
    state.facilities += [
        Facility("ANN-Y", "shipyard", "Ann", "A"),
        Facility("ANN-S", "station", "Ann", "A"),
        Facility("ANN-P", "omp", "Ann", "A"),
        Facility("ANN-N", "station", "Ann", "B", ready_week=3),  # laid down this week
        Facility("ANN-T", "omp", "Ann", "A", towed_by="ANN-9"),
        Facility("BOB-Y", "shipyard", "Bob", "D"),
    ]
    return state


def at(place: str, **changed: Any) -> Position:
    values: dict[str, Any] = {
        "place": place,
        "fuel": 20,
        "cargo": 0,
        "landed": False,
        "inches": 40,
        "ready_at": 0,
    }
    return Position(**(values | changed))


def plan(
    activities: list[Activity],
    start: Position,
    design: Design = MERCHANT,
    rules: dict[str, Any] | None = None,
    state: State | None = None,
    holders: dict[str, str] | None = None,
) -> Plan:
    return run(
        state or world(),
        "Ann",
        design,
        start,
        activities,
        complete(rules or {}),
        holders=holders,
    )


def legs(p: Plan) -> list[tuple[int, int, str, int]]:
    return [(leg.start, leg.end, leg.kind, leg.activity) for leg in p.legs]


def troubles(p: Plan) -> list[tuple[int, str]]:
    return [(t.activity, t.severity) for t in p.troubles]


# -- how long each activity takes --------------------------------------------------------------


def test_hours_of_the_works() -> None:
    """Scrapping takes 5 days per size class, a refit a week, demolishing a day, an invasion
    no time at all, repairs a day per two boxes (at least a day)."""
    p = plan([Activity("scrap")], at("A", landed=True), FRIGATE)
    assert legs(p)[0] == (0, 50, "scrap", 0) and p.troubles == []
    p = plan([Activity("scrap")], at("A"), CRUISER)
    assert legs(p) == [(0, 100, "scrap", 0)]
    p = plan([Activity("refit", "Falchion destroyer")], at("A"), DESIGNS["Claymore cruiser"])
    assert troubles(p) == [(0, "error")]  # mass 50 into 30: no
    p = plan([Activity("refit")], at("A", captured=True), CRUISER)
    assert legs(p) == [(0, 100, "refit", 0)] and p.troubles == []
    assert p.end is not None and not p.end.captured
    p = plan([Activity("demolish", "ANN-P"), Activity("wait")], at("A"))
    assert legs(p) == [(0, 10, "demolish", 0), (10, 100, "wait", 1)] and p.troubles == []
    p = plan([Activity("repair")], at("A", damage=5), CRUISER)
    assert legs(p)[0] == (0, 30, "repair", 0)  # 5 boxes at 2 a day: 3 days
    assert p.end is not None and p.end.damage == 0
    p = plan([Activity("repair")], at("A", damage=4), CRUISER, {"repair_boxes_a_day": 4})
    assert legs(p)[0] == (0, 10, "repair", 0)
    p = plan([Activity("repair")], at("A"), CRUISER)
    assert troubles(p) == [(0, "warning")] and legs(p)[0] == (0, 10, "repair", 0)


def test_an_invasion_takes_no_time_and_needs_a_neutral_planet() -> None:
    p = plan([Activity("invade"), Activity("wait", until=40)], at("B"), FRIGATE)
    assert legs(p) == [(0, 0, "invade", 0), (0, 40, "wait", 1), (40, 100, "idle", -1)]
    assert p.troubles == []
    for place in ("D", "Gate"):
        p = plan([Activity("invade")], at(place), FRIGATE)
        assert troubles(p) == [(0, "error")], place
        assert "no neutral planet" in p.troubles[0].message
    # D out of Ann's sight (not among the holders she knows): not refused by the plan.
    p = plan([Activity("invade")], at("D"), FRIGATE, holders={"A": "Ann"})
    assert p.troubles == []
    # B known to be neutral, A known to be hers.
    assert plan([Activity("invade")], at("B"), FRIGATE, holders={"B": ""}).troubles == []
    p = plan([Activity("invade")], at("A"), FRIGATE, holders={"A": "Ann"})
    assert troubles(p) == [(0, "error")]


def test_cargo_at_a_station_takes_the_station_hours_landed_a_day() -> None:
    fast = {"station_cargo_hours": 4}
    p = plan([Activity("load", amount=100), Activity("unload", amount=50)], at("A"), rules=fast)
    assert legs(p)[:2] == [(0, 4, "load", 0), (4, 8, "unload", 1)]
    assert p.end is not None and p.end.cargo == 50
    p = plan([Activity("load", amount=100)], at("A", landed=True), rules=fast)
    assert legs(p)[0] == (0, 10, "load", 0)
    # The station under construction at B is no station yet: cargo only landed there.
    p = plan([Activity("load", amount=100)], at("B"))
    assert troubles(p) == [(0, "error")] and legs(p) == [(0, 100, "idle", -1)]
    p = plan([Activity("sell", amount=100)], at("A", cargo=100), rules=fast)
    assert legs(p)[0] == (0, 4, "sell", 0)
    assert p.end is not None and p.end.cargo == 100 and not p.end.cargo_known


def test_landing_lifting_refuelling_and_waiting() -> None:
    p = plan(
        [Activity("land"), Activity("refuel"), Activity("lift"), Activity("guard", until=55)],
        at("B", fuel=3),
    )
    assert legs(p) == [
        (0, 10, "land", 0),
        (10, 20, "refuel", 1),
        (20, 20, "lift", 2),
        (20, 55, "guard", 3),
        (55, 100, "idle", -1),
    ]
    assert p.end == at("B", fuel=20, inches=40)
    p = plan([Activity("land")], at("B"))
    assert p.end is not None and (p.end.landed, p.end.inches) == (True, 0)
    p = plan([Activity("lift")], at("B", landed=True, inches=0), rules={"land_lift": "each"})
    assert legs(p)[0] == (0, 10, "lift", 0)
    assert p.end is not None and (p.end.landed, p.end.inches) == (False, 40)
    # Guard to the end of the week.
    p = plan([Activity("guard")], at("B"))
    assert legs(p) == [(0, 100, "guard", 0)]


# -- the order of the week ---------------------------------------------------------------------


def test_a_start_time_waits_idle_or_is_refused_when_the_ship_is_busy() -> None:
    p = plan([Activity("land", at=30), Activity("lift", at=35)], at("B"))
    assert legs(p) == [
        (0, 30, "idle", -1),
        (30, 40, "land", 0),
        (40, 40, "lift", 1),
        (40, 100, "idle", -1),
    ]
    assert troubles(p) == [(1, "error")]
    assert p.troubles[0].message == "it is to start at 3.5 but the ship is busy until 4.0"
    # Exactly when the ship is free is fine.
    p = plan([Activity("land", at=30), Activity("lift", at=40)], at("B"))
    assert p.troubles == []


def test_a_wait_that_ends_before_it_begins_is_skipped() -> None:
    p = plan([Activity("land"), Activity("wait", until=5), Activity("lift")], at("B"))
    assert troubles(p) == [(1, "error")]
    assert legs(p) == [(0, 10, "land", 0), (10, 10, "lift", 2), (10, 100, "idle", -1)]
    # A wait until the hour it begins is no trouble.
    p = plan([Activity("land"), Activity("wait", until=10)], at("B"))
    assert p.troubles == []


def test_recharging_waits_for_the_drive_and_no_longer() -> None:
    p = plan([Activity("recharge")], at("B", ready_at=4))
    assert legs(p)[0] == (0, 4, "recharge", 0) and p.troubles == []
    p = plan([Activity("recharge")], at("B", ready_at=25))
    assert legs(p)[0] == (0, 10, "recharge", 0)  # a day at most
    p = plan([Activity("recharge")], at("B"))
    assert legs(p)[0] == (0, 0, "recharge", 0) and troubles(p) == [(0, "warning")]


def test_past_the_end_of_the_week() -> None:
    p = plan([Activity("land", at=95)], at("B"))
    assert troubles(p) == [(0, "error")] and legs(p) == [(0, 95, "idle", -1), (95, 105, "land", 0)]
    p = plan([Activity("land", at=90)], at("B"))
    assert p.troubles == [] and legs(p) == [(0, 90, "idle", -1), (90, 100, "land", 0)]


def test_reserve_and_lines_that_are_no_activity() -> None:
    p = plan([Activity("reserve")], at("A"))
    assert p.reserve and p.troubles == []
    p = plan([Activity("guard"), Activity("reserve")], at("A"))
    assert p.reserve and p.troubles == []
    p = plan([Activity("reserve"), Activity("land")], at("A"))
    assert p.reserve and troubles(p) == [(0, "error")]
    p = plan([Activity("dance"), Activity("land")], at("B"))
    assert troubles(p) == [(0, "error")] and legs(p)[0] == (0, 10, "land", 1)
    # A ship demolishing itself (no facility named) does nothing after.
    p = plan([Activity("demolish"), Activity("land"), Activity("wait")], at("B"))
    assert troubles(p) == [(1, "error"), (2, "error")]
    assert legs(p) == [(0, 10, "demolish", 0), (10, 100, "idle", -1)]


# -- jumps -------------------------------------------------------------------------------------


def test_a_jump_arrives_with_its_fuel_spent_and_its_drive_recharging() -> None:
    p = plan([Activity("jump", "B", inches=45, at=12)], at("A", fuel=7, ready_at=12))
    assert p.legs[1] == Leg(12, 17, "jump", "", 0, destination="B", parsecs=5, hasty=False)
    assert p.troubles == []
    assert p.end == at("B", fuel=2, inches=45, ready_at=27)


@pytest.mark.parametrize(("inches", "ok"), [(29, False), (30, True), (300, True), (301, False)])
def test_emergence_between_30_and_300_inches(inches: int, ok: bool) -> None:
    p = plan([Activity("jump", "B", inches=inches)], at("A"))
    assert troubles(p) == ([] if ok else [(0, "error")])


def test_a_jump_from_40_inches_is_safe_and_from_less_hasty() -> None:
    p = plan([Activity("jump", "B", jump_from=40)], at("A"))
    assert p.troubles == [] and not p.legs[0].hasty
    p = plan([Activity("jump", "B", jump_from=39)], at("A"))
    assert troubles(p) == [(0, "warning")] and p.legs[0].hasty


def test_what_stops_a_jump() -> None:
    cases = [
        (at("A"), [Activity("jump", "Edge")], MERCHANT, "11 parsecs"),
        (at("A", fuel=4), [Activity("jump", "B")], MERCHANT, "tanks hold 4"),
        (at("A", fuel=5), [Activity("jump", "B")], MERCHANT, None),
        (at("A", captured=True), [Activity("jump", "B")], CRUISER, "capture refit"),
        (at("A"), [Activity("jump", "B")], BARGE, "no FTL drive"),
        (at("A", drive="destroyed"), [Activity("jump", "B")], MERCHANT, "destroyed"),
        (at("Nowhere"), [Activity("jump", "B")], MERCHANT, "not at a system"),
    ]
    for start, activities, design, said in cases:
        p = plan(activities, start, design)
        if said is None:
            assert p.troubles == []
            continue
        assert troubles(p) == [(0, "error")], said
        assert said in p.troubles[0].message
        assert p.end == start  # the ship stays where it was
    # Ten parsecs is a jump.
    state = world()
    state.systems["Ten"] = System("Ten", (11, 1), value=1)
    p = plan([Activity("jump", "Ten")], at("A"), state=state)
    assert p.troubles == [] and p.legs[0].parsecs == 10


# -- cargo, fuel, towing, works ---------------------------------------------------------------


def test_loading_and_unloading_amounts() -> None:
    p = plan([Activity("load", amount=ALL)], at("A", cargo=50))
    assert p.end is not None and p.end.cargo == 400
    p = plan([Activity("load", amount=350)], at("A", cargo=50))
    assert p.troubles == [] and p.end is not None and p.end.cargo == 400
    p = plan([Activity("load", amount=351)], at("A", cargo=50))
    assert troubles(p) == [(0, "error")]
    assert p.troubles[0].fix == "Load at most 350, or write load all."
    # After a sale the hold's worth is not known: a load that might not fit is a warning.
    p = plan([Activity("load", amount=351)], at("A", cargo=50, cargo_known=False))
    assert troubles(p) == [(0, "warning")] and p.end is not None and p.end.cargo == 400
    p = plan([Activity("unload", amount=ALL)], at("A", cargo=50))
    assert p.end is not None and p.end.cargo == 0
    p = plan([Activity("unload", amount=50)], at("A", cargo=50))
    assert p.troubles == [] and p.end is not None and p.end.cargo == 0
    p = plan([Activity("unload", amount=60)], at("A", cargo=50, cargo_known=False))
    assert troubles(p) == [(0, "warning")] and p.end is not None and p.end.cargo == 0
    p = plan([Activity("sell", amount=60)], at("A", cargo=50))
    assert troubles(p) == [(0, "error")]
    p = plan([Activity("unload", amount=20)], at("A", cargo=50))
    assert p.end is not None and p.end.cargo == 30
    p = plan([Activity("load")], at("A"))
    assert troubles(p) == [(0, "error")] and "no amount" in p.troubles[0].message
    p = plan([Activity("load", amount=10)], at("A"), FRIGATE)
    assert troubles(p) == [(0, "error")] and "no hold" in p.troubles[0].message


def test_points_are_given_at_a_planet_of_the_receiver() -> None:
    p = plan([Activity("land"), Activity("unload", "Bob", ALL)], at("D", cargo=50))
    assert p.troubles == []
    p = plan([Activity("land"), Activity("unload", "Bob", ALL)], at("Port", cargo=50))
    assert troubles(p) == [(1, "error")]
    # Out of sight, nobody knows who holds B: not refused.
    p = plan(
        [Activity("land"), Activity("unload", "Bob", ALL)],
        at("B", cargo=50),
        holders={"A": "Ann"},
    )
    assert p.troubles == []


def test_refuelling_from_a_ship_anywhere() -> None:
    p = plan([Activity("refuel", "ANN-7")], at("B", fuel=2))
    assert p.troubles == [] and p.end is not None and p.end.fuel == 20


def test_exploring_a_site() -> None:
    assert plan([Activity("explore")], at("Ruin")).troubles == []
    assert troubles(plan([Activity("explore")], at("Nowhere"))) == [(0, "error")]


def test_towing_by_mass_and_only_what_is_hers_and_working_there() -> None:
    p = plan([Activity("tow", "ANN-Y"), Activity("release")], at("A"), TUG)
    assert p.troubles == []
    assert legs(p)[:2] == [(0, 10, "tow", 0), (10, 20, "release", 1)]
    p = plan([Activity("tow", "ANN-Y")], at("A"), TUG)
    assert p.end is not None and p.end.towing == "ANN-Y"
    p = plan([Activity("tow", "ANN-S")], at("A"), TUG)  # a station: mass 20 by default
    assert p.troubles == []
    p = plan([Activity("tow", "ANN-S")], at("A"), TUG, {"station_mass": 41})
    assert troubles(p) == [(0, "error")] and "mass 41" in p.troubles[0].message
    p = plan([Activity("tow", "ANN-P")], at("A"), DESIGNS["Partisan heavy cruiser"])
    assert "only a tug" in p.troubles[0].message
    for facility, place in (("ANN-N", "B"), ("ANN-T", "A"), ("BOB-Y", "D"), ("ANN-Y", "B")):
        p = plan([Activity("tow", facility)], at(place), TUG)
        assert troubles(p) == [(0, "error")], facility
    p = plan([Activity("tow", "ANN-P")], at("A", towing="ANN-Y"), TUG)
    assert "in tow already" in p.troubles[0].message
    p = plan([Activity("release")], at("A"), TUG)
    assert troubles(p) == [(0, "error")]
    p = plan([Activity("release")], at("A", towing="ANN-Y"), TUG)
    assert p.troubles == [] and p.end is not None and p.end.towing == ""


def test_a_small_station_is_towed_by_a_tug_of_its_mass() -> None:
    tug = Design("Little tug", 20, 50, "escort", "tug", 5)
    assert plan([Activity("tow", "ANN-S")], at("A"), tug).troubles == []
    assert troubles(plan([Activity("tow", "ANN-P")], at("A"), tug)) == [(0, "error")]


def test_demolishing_only_a_facility_of_hers_there() -> None:
    assert troubles(plan([Activity("demolish", "BOB-Y")], at("D"))) == [(0, "error")]
    assert troubles(plan([Activity("demolish", "ANN-Y")], at("B"))) == [(0, "error")]
    p = plan([Activity("demolish", "ANN-Y"), Activity("land")], at("A"))
    assert p.troubles == [] and legs(p)[1] == (10, 20, "land", 1)


def test_where_repairs_refits_and_scrapping_are_done() -> None:
    # A port of hers repairs a streamlined ship, not another.
    assert plan([Activity("repair")], at("Port", damage=2), FRIGATE).troubles == []
    assert troubles(plan([Activity("repair")], at("Port", damage=2), CRUISER)) == [(0, "error")]
    # A station repairs anything; a yard too; Bob's yard nothing of hers.
    state = world()
    state.facilities = [Facility("ANN-S", "station", "Ann", "B")]
    assert plan([Activity("repair")], at("B", damage=2), CRUISER, state=state).troubles == []
    assert troubles(plan([Activity("repair")], at("D", damage=2), CRUISER)) == [(0, "error")]
    # A starport refits and scraps streamlined ships; a spaceport does not.
    for kind in ("scrap", "refit"):
        start = at("A", captured=kind == "refit")
        state = world()
        state.facilities = []
        assert plan([Activity(kind)], start, FRIGATE, state=state).troubles == [], kind
        assert troubles(plan([Activity(kind)], start, CRUISER, state=state)) == [(0, "error")]
        port = at("Port", captured=kind == "refit")
        assert troubles(plan([Activity(kind)], port, FRIGATE)) == [(0, "error")], kind


def test_a_refit_to_another_design_of_the_same_hull() -> None:
    def refit(target: str, design: Design, **kw: Any) -> list[str]:
        p = plan([Activity("refit", target)], at("A", **kw), design)
        return [t.message for t in p.troubles]

    assert refit("Halberd frigate", MERCHANT) == []  # mass 20, streamlined, both
    assert refit("Halberd frigate", MERCHANT, captured=True) == [
        "a captured warship has its capture refit first"
    ]
    assert refit("Halberd frigate", MERCHANT, cargo=50) == [
        "a Halberd frigate's hold takes 0 and 50 are aboard"
    ]
    assert refit("Packet merchant", MERCHANT) == ["the ship is a Packet merchant already"]
    assert refit("Zephyr", MERCHANT) == ["there is no design called 'Zephyr'"]
    assert refit("Lantern scout", MERCHANT) == [
        "a Packet merchant (mass 20, streamlined) cannot become a Lantern scout (mass 8, "
        "streamlined): a hull is not altered in size or streamlining"
    ]
    odd = Design("Halberd frigate", 20, 68, "escort", "warship", 6)  # not streamlined
    state = world()
    state.designs["Odd"] = Design("Odd", 20, 60, "escort", "warship", 6)
    p = plan([Activity("refit", "Odd")], at("A"), odd, state=state)
    assert p.troubles == []
    p = plan([Activity("refit", "Odd")], at("A"), MERCHANT, state=state)
    assert [t.message for t in p.troubles] == [
        "a Packet merchant (mass 20, streamlined) cannot become a Odd (mass 20): a hull is "
        "not altered in size or streamlining"
    ]
    assert refit("", FRIGATE) == ["only a captured warship has a capture refit"]
    p = plan([Activity("refit", "Halberd frigate")], at("A"), MERCHANT)
    assert legs(p)[0] == (0, 100, "refit", 0)
    assert p.end is not None and p.end.cargo == 0


def test_works_count_only_what_works_this_week() -> None:
    """A station laid down this week (ready next week) neither moves cargo nor repairs; a
    shipyard of hers does, where it is."""
    state = world()
    state.facilities = [Facility("ANN-S", "station", "Ann", "B", ready_week=3)]
    p = plan([Activity("repair")], at("B", damage=2), CRUISER, state=state)
    assert troubles(p) == [(0, "error")]
    state.week = 3
    assert plan([Activity("repair")], at("B", damage=2), CRUISER, state=state).troubles == []
