"""Movement rules (section 4, Appendix B): arrivals, departures, hyperspace, probes, stations.

Each test resolves a hand-built state with scripted dice; the dice list is exactly the rolls
the rule needs (the helper fails if one is left over).
"""

from __future__ import annotations

from refassist.rulesets.fifth_millennium.movement_rules import (
    arrival_year,
    best_range,
    journey_years,
    max_departures,
    monitors_at,
    move_arrival,
    probes_at,
    speed,
)
from refassist.rulesets.fifth_millennium.orders import Move
from refassist.rulesets.fifth_millennium.state import Fleet, Player
from tests.fm_states import (
    YEAR,
    events,
    facility,
    fleet_at,
    flight,
    force,
    move,
    one,
    orders,
    resolve,
    state,
    system,
)


def _flight_to(s, destination):
    return [f for f in s.flights if f.destination == destination]


def test_a_flight_due_this_year_emerges_and_a_later_one_stays_in_hyperspace() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012"), system("1014")],
        forces=[force("1010", "Ann", F=5)],
        flights=[
            flight("Ann", "1010", "1012", arrival=YEAR, F=2),
            flight("Ann", "1010", "1014", arrival=YEAR + 1, F=1),
        ],
    )
    r = resolve(s)
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=2)
    assert r.state.system("1012").owner == "Ann"
    assert [f.destination for f in r.state.flights] == ["1014"]
    arrival = one(r, "arrival")
    assert arrival.visible_to == ("Ann",)
    assert r.state.year == YEAR + 1


def test_arrival_year_is_one_hex_a_year_or_two_when_every_squadron_is_fast() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1013")],
        forces=[force("1010", "Ann", F=3, Fs=4)],
    )
    r = resolve(
        s,
        [
            orders(
                "Ann",
                moves=[
                    move("1010", "1013", F=1),
                    move("1010", "1013", Fs=3),
                    move("1010", "1013", F=1, Fs=1),
                ],
            )
        ],
    )
    arrivals = sorted((f.fleet.squadrons, f.fleet.all_fast, f.arrival) for f in r.state.flights)
    # 3 hexes: 3 years at speed 1; ceil(3/2) = 2 years when all are Fast; mixed moves at 1.
    assert arrivals == [(1, False, YEAR + 3), (2, False, YEAR + 3), (3, True, YEAR + 2)]
    assert fleet_at(r.state, "1010", "Ann") == Fleet(F=1)


def test_journeys_longer_than_4_hexes_are_refused_until_tl3_gives_7() -> None:
    def attempt(tl: int):
        s = state([system("1010", "A", "Ann"), system("1015")], forces=[force("1010", "Ann", F=2)])
        s.player("Ann").tech_level = tl
        return resolve(s, [orders("Ann", moves=[move("1010", "1015", F=1)])])

    refused = attempt(1)
    assert refused.state.flights == []
    assert "longer than the 4 hexes" in one(refused, "order_cancelled").data["reason"]
    allowed = attempt(3)
    assert [(f.destination, f.arrival) for f in allowed.state.flights] == [("1015", YEAR + 5)]


def test_at_most_four_departures_and_probes_do_not_count() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1011"), system("1020")],
        forces=[force("1010", "Ann", F=10, P=1)],
    )
    moves = [move("1010", "1011", F=1) for _ in range(5)]
    moves.insert(2, move("1010", "1020", probe=True))
    r = resolve(s, [orders("Ann", moves=moves)])
    fleets = [f for f in r.state.flights if not f.probe]
    probes = [f for f in r.state.flights if f.probe]
    assert len(fleets) == 4 and len(probes) == 1
    assert "no more than 4 departures" in one(r, "order_cancelled").data["reason"]


def test_max_departures_is_a_house_rule() -> None:
    s = state([system("1010", "A", "Ann"), system("1011")], forces=[force("1010", "Ann", F=10)])
    r = resolve(
        s, [orders("Ann", moves=[move("1010", "1011", F=1) for _ in range(3)])], max_departures=2
    )
    assert len(r.state.flights) == 2


def test_a_fleet_that_fought_cannot_depart_but_a_chained_departure_works() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1011"), system("1012", "C", "Bob"), system("1013")],
        forces=[force("1010", "Ann", F=1), force("1012", "Bob", F=1)],
        flights=[
            flight("Ann", "1010", "1012", F=3),
            flight("Ann", "1010", "1011", F=2),
        ],
        homeworlds={"Ann": "1010", "Bob": "1012"},
    )
    r = resolve(
        s,
        [orders("Ann", moves=[move("1012", "1013", F=3), move("1011", "1013", F=2)])],
        dice=[1],  # Bob's single Fleet squadron, defeated, rolls one kill die: no kill
    )
    assert one(r, "battle").data["outcome"]["victor"] == "Ann"
    cancelled = one(r, "order_cancelled")
    assert "fought a battle at 1012" in cancelled.data["reason"]
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=3)
    chained = _flight_to(r.state, "1013")
    assert [(f.origin, f.fleet, f.arrival) for f in chained] == [("1011", Fleet(F=2), YEAR + 2)]


def test_surviving_defenders_may_depart_unless_the_house_rule_holds_them() -> None:
    """5.0 restricts arriving squadrons only ("squadrons arriving at a star may immediately
    depart the same turn provided that they do not become involved in a battle upon
    arrival"): by default Bob's surviving defenders may leave the turn they fought;
    `fought_may_depart = "none"` holds them back."""

    def run(**rule: str):
        s = state(
            [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("1013")],
            forces=[force("1010", "Ann", F=1), force("1012", "Bob", F=5)],
            flights=[flight("Ann", "1010", "1012", F=1)],
            homeworlds={"Ann": "1010", "Bob": "1012"},
        )
        bob = orders("Bob", moves=[move("1012", "1013", F=2)])
        return resolve(s, [bob], dice=[1], **rule)  # Ann's F1 rolls, misses

    assert _flight_to(run(fought_may_depart="none").state, "1013") == []
    assert [f.fleet for f in _flight_to(run().state, "1013")] == [Fleet(F=2)]


def test_arrivals_come_before_conflict_which_comes_before_departures() -> None:
    # Ann's reinforcements arrive first and fight; then her departure order finds them tired.
    s = state(
        [system("1010", "A", "Ann"), system("1011"), system("1013", "C", "Bob")],
        forces=[force("1010", "Ann", F=1), force("1013", "Bob", F=1)],
        flights=[flight("Ann", "1011", "1010", F=3), flight("Bob", "1013", "1010", F=3)],
        homeworlds={"Ann": "1010", "Bob": "1013"},
    )
    r = resolve(s, [orders("Ann", moves=[move("1010", "1011", F=1)])], dice=[1, 1, 1])
    battle = one(r, "battle")
    assert battle.data["rounds"][0]["cv"] == {"Ann": 4, "Bob": 3}
    assert battle.data["outcome"]["held"] is True
    assert r.state.flights == []  # the departure was cancelled: Ann fought at 1010
    assert one(r, "order_cancelled").phase == "departures"


def test_departure_needs_the_squadrons_and_munitions_at_the_origin() -> None:
    s = state([system("1010", "A", "Ann"), system("1011")], forces=[force("1010", "Ann", F=2)])
    r = resolve(
        s, [orders("Ann", moves=[move("1010", "1011", F=3), move("1010", "1011", F=1, K=2)])]
    )
    reasons = [e.data["reason"] for e in events(r, "order_cancelled")]
    assert len(reasons) == 2 and all("does not cover" in x for x in reasons)
    assert r.state.flights == []


def test_monitors_never_move_and_a_fleet_needs_a_squadron() -> None:
    s = state([system("1010", "A", "Ann"), system("1011")], forces=[force("1010", "Ann", M=2, K=1)])
    r = resolve(s, [orders("Ann", moves=[move("1010", "1011", K=1)])])
    assert "at least one squadron" in one(r, "order_cancelled").data["reason"]


def test_a_fleet_may_emerge_only_at_a_system_or_its_owners_refueling_station() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1020", "C", "Bob")],
        forces=[force("1010", "Ann", F=1), force("1020", "Bob", F=1)],
        facilities=[facility("1012", "Ann", "DSRS")],
        flights=[
            flight("Ann", "1010", "1012", F=2),  # Ann's station: fine
            flight("Bob", "1020", "1012", F=2),  # Bob has no station there: lost
        ],
        homeworlds={"Ann": "1010", "Bob": "1020"},
    )
    r = resolve(s)
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=2)
    lost = one(r, "flight_lost")
    assert lost.visible_to == ("Bob",) and "no star system" in lost.data["reason"]
    assert fleet_at(r.state, "1012", "Bob") == Fleet()


def test_a_flight_off_the_map_or_beyond_the_drive_is_lost() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1016")],
        forces=[force("1010", "Ann", F=1)],
        flights=[
            flight("Ann", "1010", "1016", F=1, id="far"),  # 6 hexes at TL1 (a hand edit)
            flight("Ann", "1010", "3341", F=1, id="off"),
        ],
    )
    r = resolve(s)
    reasons = {e.data["flight"]: e.data["reason"] for e in events(r, "flight_lost")}
    assert "overloaded" in reasons["far"] and "off the map" in reasons["off"]


def test_probe_reports_to_its_owner_and_each_enemy_squadron_may_detect_it() -> None:
    def run(dice):
        s = state(
            [system("1010", "A", "Ann"), system("1012", "B", "Bob", naval_base=True)],
            forces=[force("1010", "Ann", F=1), force("1012", "Bob", F=3, M=1)],
            facilities=[facility("1012", "Bob", "GL", 2), facility("1012", "Bob", "CC")],
            flights=[flight("Ann", "1010", "1012", probe=True)],
            homeworlds={"Ann": "1010", "Bob": "1012"},
        )
        return resolve(s, dice=dice)

    found = run([2, 6])  # Bob's second squadron sees it; no more dice are rolled
    report = one(found, "probe_report")
    assert report.visible_to == ("Ann",)
    assert report.data["owner"] == "Bob" and report.data["class"] == "B"
    assert report.data["forces"] == ["Bob: F3 S0 A0(Fs0 Ms0 K0) M1"]
    assert report.data["facilities"] == ["Genetics Lab x2 (Bob)"]  # the secret CC is not shown
    detected = one(found, "probe_detected")
    assert detected.visible_to == ("Bob",)
    assert detected.data == {"probe_owner": "Ann", "rolls": [2, 6], "hex": "1012"}
    assert len(detected.dice) == 2
    sighting = [x for x in found.state.sightings if x.player == "Ann" and x.hex == "1012"]
    assert sighting and sighting[0].owner == "Bob"
    unseen = run([1, 2, 3, 5])  # four squadrons (F3 and the monitor), none rolls a 6
    assert events(unseen, "probe_detected") == []


def test_treaty_partners_do_not_roll_to_detect_a_probe() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1012", "B", "Bob")],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1012", "Bob", F=3), force("1012", "Cleo", F=1)],
        flights=[flight("Ann", "1010", "1012", probe=True)],
        relations=[("treaty", "Ann", "Bob"), ("treaty", "Bob", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1012"},
    )
    r = resolve(s, dice=[6])  # only Cleo's squadron rolls
    assert one(r, "probe_detected").visible_to == ("Cleo",)


def test_probes_travel_any_distance_at_one_hex_a_year() -> None:
    # The seed's example "5001 - Probe - 3220 - 1938 - 5026" calls this a 25 hex journey; by
    # the Traveller Map hex convention (hexmap.py) it is 24 hexes, and the convention wins.
    s = state([system("3220", "A", "Ann"), system("1938")], forces=[force("3220", "Ann", P=1)])
    r = resolve(s, [orders("Ann", moves=[move("3220", "1938", probe=True)])])
    assert [(f.probe, f.arrival) for f in r.state.flights] == [(True, YEAR + 24)]


def test_leaving_a_system_empty_gives_it_up_but_never_the_homeworld() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1011", "C", "Ann"), system("1012")],
        forces=[force("1010", "Ann", F=2), force("1011", "Ann", F=1)],
        homeworlds={"Ann": "1010"},
    )
    r = resolve(s, [orders("Ann", moves=[move("1010", "1012", F=2), move("1011", "1012", F=1)])])
    assert r.state.system("1011").owner == ""
    assert r.state.system("1010").owner == "Ann"
    assert one(r, "abandoned").data["hex"] == "1011"


def test_a_facility_keeps_a_system_owned_without_squadrons() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1011", "C", "Ann"), system("1012")],
        forces=[force("1010", "Ann", F=2), force("1011", "Ann", F=1)],
        facilities=[facility("1011", "Ann", "GL")],
    )
    r = resolve(s, [orders("Ann", moves=[move("1011", "1012", F=1)])])
    assert r.state.system("1011").owner == "Ann"
    assert events(r, "abandoned") == []


def test_orders_for_another_year_are_cancelled() -> None:
    s = state([system("1010", "A", "Ann"), system("1011")], forces=[force("1010", "Ann", F=2)])
    r = resolve(s, [orders("Ann", moves=[move("1010", "1011", year=YEAR - 1, F=1)])])
    assert "written for year" in one(r, "order_cancelled").data["reason"]
    assert r.state.flights == []


def test_the_jump_range_house_rules_are_honoured_at_other_values() -> None:
    def attempt(tl: int, hexes: int, **rules: int):
        target = f"10{10 + hexes}"
        s = state([system("1010", "A", "Ann"), system(target)], forces=[force("1010", "Ann", F=2)])
        s.player("Ann").tech_level = tl
        return resolve(s, [orders("Ann", moves=[move("1010", target, F=1)])], **rules)

    assert len(attempt(1, 5, jump_range=5).state.flights) == 1
    refused = attempt(1, 4, jump_range=3)
    assert "longer than the 3 hexes" in one(refused, "order_cancelled").data["reason"]
    assert len(attempt(3, 8, enhanced_jump_range=8).state.flights) == 1
    assert attempt(3, 7, enhanced_jump_range=6).state.flights == []


def test_the_movement_functions_the_checker_and_the_resolution_share() -> None:
    fast, slow = Fleet(Fs=2), Fleet(F=1, Fs=1)
    assert (speed(fast), speed(slow), speed(None), speed(fast, probe=True)) == (2, 1, 1, 1)
    assert [journey_years(h) for h in (-1, 0, 1, 2, 5)] == [0, 0, 1, 2, 5]
    assert (journey_years(3, fast), journey_years(3, fast, probe=True)) == (2, 3)
    assert arrival_year(YEAR, "1010", "1013", fast) == YEAR + 2  # probe=False by default
    assert arrival_year(YEAR, "1010", "1013", fast, probe=True) == YEAR + 3
    # A move's arrival by the rules: a probe launch carries no fleet, whatever was written.
    sent = Move(YEAR, fast, "1010", "1013", arrival=YEAR + 9)
    assert move_arrival(sent) == YEAR + 2
    assert move_arrival(Move(YEAR, fast, "1010", "1013", probe=True)) == YEAR + 3
    veteran, novice = Player("Ann", tech_level=3), Player("Bob", tech_level=2)
    assert (best_range(veteran, {}), best_range(novice, {}), best_range(None, {})) == (7, 4, 4)
    rules = {"jump_range": 5, "enhanced_jump_range": 9}
    assert (best_range(veteran, rules), best_range(novice, rules)) == (9, 5)
    assert (max_departures({}), max_departures({"max_departures": 2})) == (4, 2)
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob")],
        forces=[force("1010", "Ann", M=2, P=1, F=1), force("1012", "Ann", M=5, P=4)],
    )
    s.forces.append(force("1010", "Bob", M=7, P=3, F=1))
    assert (monitors_at(s, "Ann", "1010"), probes_at(s, "Ann", "1010")) == (2, 1)
    assert (monitors_at(s, "Bob", "1010"), monitors_at(s, "Bob", "1012")) == (7, 0)


def test_what_a_probe_tells_and_who_rolls_for_it_whole() -> None:
    """Appendix B probes, in full: the report to its owner (map data, owner, every force,
    building ones included), each other player's squadrons and monitors rolling in name
    order (squadrons under construction do not), the first 6 telling that player who sent
    it, and a probe into empty space reporting just that."""
    s = state(
        [system("1010", "A", "Ann"), system("1012", "B", "Bob", naval_base=True)],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=1),
            force("1012", "Bob", F=1, M=1),
            force("1012", "Cleo", F=1),
            force("1012", "Bob", S=2, building=True),
        ],
        flights=[
            flight("Ann", "1010", "1012", probe=True),
            flight("Ann", "1010", "1013", probe=True),
        ],
        homeworlds={"Ann": "1010", "Bob": "1012"},
    )
    r = resolve(s, dice=[1, 6, 5])  # Bob: F1 rolls 1, M1 rolls 6; Cleo: F1 rolls 5
    told = [(e.kind, e.phase, e.location, e.players, e.visible_to) for e in r.events]
    assert ("probe_report", "arrivals", "1012", ("Ann",), ("Ann",)) in told
    assert ("probe_detected", "arrivals", "1012", ("Bob", "Ann"), ("Bob",)) in told
    assert ("probe_report", "arrivals", "1013", ("Ann",), ("Ann",)) in told
    reports = {e.location: e for e in events(r, "probe_report")}
    forces = [
        "Bob: F1 S0 A0(Fs0 Ms0 K0) M1",
        "Bob: F0 S2 A0(Fs0 Ms0 K0) (under construction)",
        "Cleo: F1 S0 A0(Fs0 Ms0 K0)",
    ]
    assert reports["1012"].text == (
        f"Your probe reached 1012 World1012: class B, owner Bob; {'; '.join(forces)}."
    )
    assert reports["1012"].data == {
        "hex": "1012",
        "name": "World1012",
        "owner": "Bob",
        "forces": forces,
        "class": "B",
        "naval_base": True,
        "scout_base": False,
        "hipop": False,
        "facilities": [],
    }
    assert reports["1013"].text == "Your probe reached 1013: empty space, nothing to report."
    assert reports["1013"].data == {
        "hex": "1013",
        "owner": "",
        "forces": [],
        "class": "",
        "facilities": [],
    }
    detected = one(r, "probe_detected")
    assert detected.text == "Your squadrons at 1012 World1012 detected a probe sent by Ann."
    assert detected.data == {"probe_owner": "Ann", "rolls": [1, 6], "hex": "1012"}
    assert [(d.phase, d.location, d.purpose, d.result) for d in r.state.dice] == [
        ("arrivals", "1012", "probe detection, Bob squadron 1", 1),
        ("arrivals", "1012", "probe detection, Bob squadron 2", 6),
        ("arrivals", "1012", "probe detection, Cleo squadron 1", 5),
    ]
    assert detected.dice == (1, 2)


def test_two_fleets_at_ones_station_add_up_and_a_fleet_lost_in_empty_space_is_told() -> None:
    """Two of Ann's fleets reach her refueling station (they join, and the charge counts
    both: 3 squadrons); a third emerges in empty space with no station and is lost, which
    only she is told, in these words."""
    s = state(
        [system("1010", "A", "Ann"), system("2520", "A", "Bob")],
        forces=[force("1010", "Ann", F=5), force("2520", "Bob", F=1)],
        facilities=[facility("1013", "Ann", "DSRS")],
        flights=[
            flight("Ann", "1010", "1013", F=2),
            flight("Ann", "1010", "1013", F=1),
            flight("Ann", "1010", "1014", F=1),
        ],
        homeworlds={"Ann": "1010", "Bob": "2520"},
    )
    r = resolve(s)
    assert fleet_at(r.state, "1013", "Ann") == Fleet(F=3)
    ledger = next(e for e in events(r, "production") if e.players == ("Ann",))
    assert ledger.data["upkeep"] == [["refueling at 1013: 3 squadrons", 3]]
    arrived = [e.text for e in events(r, "arrival")]
    assert arrived == [
        "Ann's fleet F2 S0 A0(Fs0 Ms0 K0) arrived at the refueling station at 1013.",
        "Ann's fleet F1 S0 A0(Fs0 Ms0 K0) arrived at the refueling station at 1013.",
    ]
    lost = one(r, "flight_lost")
    reason = (
        "1014 holds no star system and no refueling station of yours, so the fleet could not emerge"
    )
    assert (lost.phase, lost.location, lost.players, lost.visible_to) == (
        "arrivals",
        "1014",
        ("Ann",),
        ("Ann",),
    )
    assert lost.text == f"Your fleet F1 S0 A0(Fs0 Ms0 K0) from 1010 to 1014 was lost: {reason}."
    assert lost.data == {
        "flight": "5002-Ann-1010-1014",
        "reason": reason,
        "fleet": Fleet(F=1).as_dict(),
    }


def test_each_probe_sent_uses_one_probe_counter_and_is_told_as_a_probe() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("2520", "A", "Bob")],
        forces=[force("1010", "Ann", F=1, P=3), force("2520", "Bob", F=1)],
        homeworlds={"Ann": "1010", "Bob": "2520"},
    )
    sent = [move("1010", "1016", probe=True), move("1010", "1018", probe=True)]
    r = resolve(s, [orders("Ann", moves=sent)])
    assert next(f for f in r.state.forces if f.hex == "1010" and f.owner == "Ann").P == 1
    assert [(f.destination, f.arrival, f.probe) for f in r.state.flights] == [
        ("1016", YEAR + 6, True),  # a probe moves one hex a year
        ("1018", YEAR + 8, True),
    ]
    assert [(e.location, e.visible_to, e.text) for e in events(r, "departure")] == [
        ("1010", ("Ann",), f"Your probe left 1010 for 1016, arriving in {YEAR + 6}."),
        ("1010", ("Ann",), f"Your probe left 1010 for 1018, arriving in {YEAR + 8}."),
    ]
