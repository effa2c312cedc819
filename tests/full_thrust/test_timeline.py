"""A ship's week run activity by activity: the seed's merchant timeline to the hour, and each
impossibility and risk the checker pins to a cell."""

from __future__ import annotations

from typing import Any

from refassist.rulesets.full_thrust.clock import parse_time, time_text
from refassist.rulesets.full_thrust.designs import STANDARD_DESIGNS
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import WORMHOLE, Commander, State, System
from refassist.rulesets.full_thrust.timeline import Activity, Plan, Position, run

RULES = complete()
DESIGNS = {d.name: d for d in STANDARD_DESIGNS}
MERCHANT = DESIGNS["Packet merchant"]  # hold 8 MASS = 400 production points, streamlined
CRUISER = DESIGNS["Claymore cruiser"]  # not streamlined


def seed_map() -> State:
    """A to B 5 parsecs, B to C 6, C to D 3, D to A 5: the seed's merchant example."""
    systems = {
        "A": System("A", (1, 1), value=4, owner="Ann"),
        "B": System("B", (1, 6), value=3),
        "C": System("C", (3, 2), value=2),
        "D": System("D", (2, 5), value=1),
        "Gate": System("Gate", (9, 9), kind=WORMHOLE),
        "Far": System("Far", (14, 1), value=2, ancient_site=True),
        "Walled": System("Walled", (6, 1), value=2),
    }
    return State(
        game_name="Test",
        game_id="t",
        week=1,
        commanders=[Commander("Ann", "ann@example.com", home="A")],
        systems=systems,
        obstacles={(4, 1)},
        designs=DESIGNS,
    )


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


def plan(activities: list[Activity], start: Position | None = None, design: Any = None) -> Plan:
    return run(
        seed_map(),
        "Ann",
        design or MERCHANT,
        start or at("A"),
        activities,
        RULES,
        stations=frozenset({"A"}),
    )


def times(p: Plan) -> list[tuple[str, str, str, str]]:
    return [
        (time_text(leg.start), time_text(leg.end), leg.kind, leg.destination or leg.place)
        for leg in p.legs
    ]


def test_the_seeds_merchant_week_to_the_hour() -> None:
    p = plan(
        [
            Activity("jump", "B"),
            Activity("land"),
            Activity("load", amount=200),
            Activity("lift"),
            Activity("jump", "C"),
            Activity("wait", until=parse_time("4.1")),  # refuelling warship Y
            Activity("jump", "D"),
            Activity("recharge"),
            Activity("jump", "A"),
            Activity("unload", amount=200),  # at the space station
        ]
    )
    assert p.troubles == []
    assert times(p) == [
        ("0.0", "0.5", "jump", "B"),
        ("0.5", "1.5", "land", "B"),
        ("1.5", "2.5", "load", "B"),
        ("2.5", "2.5", "lift", "B"),
        ("2.5", "3.1", "jump", "C"),
        ("3.1", "4.1", "wait", "C"),
        ("4.1", "4.4", "jump", "D"),
        ("4.4", "5.4", "recharge", "D"),
        ("5.4", "5.9", "jump", "A"),
        ("5.9", "6.9", "unload", "A"),
        ("6.9", "10.0", "idle", "A"),
    ]
    assert p.end is not None
    assert (p.end.place, p.end.fuel, p.end.cargo) == ("A", 1, 0)  # 20 - 5 - 6 - 3 - 5


def test_landing_and_lifting_a_day_each_under_the_house_rule() -> None:
    each = run(
        seed_map(),
        "Ann",
        MERCHANT,
        at("B"),
        [Activity("land"), Activity("lift")],
        complete({"land_lift": "each"}),
    )
    assert [(time_text(leg.start), time_text(leg.end)) for leg in each.legs[:2]] == [
        ("0.0", "1.0"),
        ("1.0", "2.0"),
    ]


def test_a_jump_before_the_drive_recharges_is_a_hasty_warning() -> None:
    p = plan([Activity("jump", "B"), Activity("jump", "D")])
    assert [t.severity for t in p.troubles] == ["warning"]
    assert p.troubles[0].activity == 1 and "ready at 1.5" in p.troubles[0].message
    assert p.legs[1].hasty
    p = plan([Activity("jump", "B"), Activity("jump", "D", at=parse_time("1.5"))])
    assert p.troubles == [] and not p.legs[2].hasty
    p = plan([Activity("jump", "B", jump_from=25)])
    assert p.legs[0].hasty and '25"' in p.troubles[0].message


def test_impossible_jumps_are_errors_pinned_to_their_line() -> None:
    p = plan(
        [
            Activity("jump", "Nowhere"),
            Activity("jump", "Walled"),  # the obstacle at 0401
            Activity("jump", "Far"),  # 13 parsecs
            Activity("jump", "A"),  # already there
            Activity("jump", "B", inches=20),
        ]
    )
    assert [(t.activity, t.severity) for t in p.troubles] == [(i, "error") for i in range(5)]
    messages = [t.message for t in p.troubles]
    assert "'Nowhere'" in messages[0]
    assert "obstacle at 0401" in messages[1]
    assert "13 parsecs" in messages[2]
    assert 'emergence distance 20"' in messages[4]
    p = plan([Activity("jump", "B")], start=at("A", fuel=4))
    assert "fuel for 5 parsecs" in p.troubles[0].message
    p = plan([Activity("jump", "B")], start=at("A", landed=True))
    assert "Lift off first" in p.troubles[0].fix
    p = plan([Activity("jump", "B")], start=at("A", drive="disabled"))
    assert "disabled" in p.troubles[0].message


def test_landing_cargo_and_fuel_where_they_can_be_done() -> None:
    p = plan([Activity("land")], start=at("Gate"))
    assert "no planet" in p.troubles[0].message
    p = plan([Activity("land")], start=at("B"), design=CRUISER)
    assert "not streamlined" in p.troubles[0].message
    p = plan([Activity("load", amount=100)], start=at("B"))
    assert "only landed" in p.troubles[0].message
    p = plan([Activity("land"), Activity("load", amount=500)], start=at("B"))
    assert "takes 400" in p.troubles[0].message
    p = plan([Activity("land"), Activity("unload", amount=50)], start=at("B", cargo=40))
    assert "has 40" in p.troubles[0].message
    p = plan([Activity("refuel")], start=at("B"))
    assert "nothing to refuel from" in p.troubles[0].message
    p = plan([Activity("refuel")], start=at("A", fuel=3))  # at the station
    assert p.troubles == [] and p.end is not None and p.end.fuel == 20
    p = plan([Activity("load", amount=100)], start=at("A"))  # the station: no landing
    assert p.troubles == []


def test_times_that_do_not_fit() -> None:
    p = plan([Activity("wait", until=parse_time("5.0")), Activity("land", at=parse_time("2.0"))])
    assert "busy until 5.0" in p.troubles[0].message
    p = plan([Activity("jump", "B", at=parse_time("9.7"))])
    assert "ends at 10.2, after the end of the week" in p.troubles[0].message
    p = plan([Activity("explore")])
    assert "no ancient site" in p.troubles[0].message


def test_reserve_ships_do_nothing_else() -> None:
    p = plan([Activity("reserve"), Activity("guard")])
    assert p.reserve and p.troubles == []
    p = plan([Activity("reserve"), Activity("jump", "B")])
    assert p.troubles[0].activity == 0 and "reserve" in p.troubles[0].message
