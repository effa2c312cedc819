"""The fog of war (section 2.4, the digest's Information rules): `player_view` and `in_sight`."""

from __future__ import annotations

from refassist.rulesets.base import Event
from refassist.rulesets.fifth_millennium.state import Message, Proposal
from refassist.rulesets.fifth_millennium.visibility import in_sight, player_view
from tests.fm_states import YEAR, facility, flight, force, resolve, state, system


def _map():
    return state(
        [
            system("1010", "A", "Ann"),
            system("1014", "B", "Bob"),  # 4 hexes from Ann's world: in sight
            system("1015", "C", "Bob"),  # 5 hexes: out of sight until TL3
            system("1020", "A", "Cleo"),
        ],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=5),
            force("1014", "Bob", F=2, M=1),
            force("1015", "Bob", F=7),
            force("1020", "Cleo", F=1),
        ],
        facilities=[
            facility("1014", "Bob", "CC"),
            facility("1014", "Bob", "DEPOT"),
            facility("1014", "Bob", "GL", 2),
            facility("1013", "Bob", "DSRS"),
        ],
        flights=[flight("Bob", "1015", "1010", arrival=YEAR + 2, F=3)],
        homeworlds={"Ann": "1010", "Bob": "1015", "Cleo": "1020"},
    )


def test_a_player_sees_systems_within_best_range_of_its_worlds_and_its_own_forces() -> None:
    s = _map()
    s.forces.append(force("1020", "Ann", F=1))  # a fleet visiting Cleo (they have a treaty)
    sight = in_sight(s, "Ann")
    assert {"1010", "1014", "1020"} <= sight and "1015" not in sight
    s.player("Ann").tech_level = 3
    assert "1015" in in_sight(s, "Ann")


def test_enemy_squadrons_only_in_systems_in_sight_and_flights_only_to_their_owner() -> None:
    view = player_view(_map(), "Ann")
    seen = view.system("1014")
    assert seen.status == "in sight" and seen.owner == "Bob"
    assert [(f.owner, f.fleet.F, f.M) for f in seen.forces] == [("Bob", 2, 1)]
    hidden = view.system("1015")
    assert hidden.status == "map" and hidden.owner == "" and hidden.forces == []
    assert view.own_flights == [] and all(f.owner == "Ann" for f in view.own_forces)
    assert [f.owner for f in player_view(_map(), "Bob").own_flights] == ["Bob"]


def test_secret_facilities_and_refueling_stations_are_shown_to_their_owner_only() -> None:
    ann = player_view(_map(), "Ann")
    assert ann.system("1014").facilities == ["Depot (Bob)", "Genetics Lab x2 (Bob)"]
    assert ann.system("1014").gl == 2
    assert ann.own_facilities == []
    bob = player_view(_map(), "Bob")
    assert "Control Centre (Bob)" in bob.system("1014").facilities
    assert {f.kind for f in bob.own_facilities} == {"CC", "DEPOT", "GL", "DSRS"}


def test_a_system_out_of_sight_shows_what_was_last_seen_and_when() -> None:
    s = _map()
    r = resolve(s)  # the turn records what each player sees at its end
    remembered = next(x for x in r.state.sightings if x.player == "Ann" and x.hex == "1014")
    assert (remembered.year, remembered.owner) == (YEAR, "Bob")
    assert remembered.forces == "Bob: F2 S0 A0(Fs0 Ms0 K0) M1"
    r.state.systems[:] = [x for x in r.state.systems if x.hex != "1010"] + [
        system("1010", "A", "Bob")
    ]  # Ann loses her only world: nothing is in sight any more
    view = player_view(r.state, "Ann")
    seen = view.system("1014")
    assert (seen.status, seen.seen_year, seen.owner) == ("seen", YEAR, "Bob")
    assert seen.forces == [] and "F2" in seen.forces_text
    assert view.system("1015").status == "map"


def test_events_messages_and_proposals_reach_only_whom_they_concern() -> None:
    s = _map()
    s.events = [
        Event(
            turn=YEAR - 1,
            phase="conflict",
            location="1014",
            kind="battle",
            text="x",
            visible_to=("Ann", "Bob"),
        ),
        Event(
            turn=YEAR - 1,
            phase="departures",
            location="1015",
            kind="departure",
            text="y",
            visible_to=("Bob",),
        ),
        Event(
            turn=YEAR - 1, phase="end", location="", kind="eliminated", text="z", visible_to=("*",)
        ),
    ]
    s.messages = [
        Message(YEAR - 1, "Bob", "Ann", "to Ann"),
        Message(YEAR - 1, "Cleo", "*", "to all"),
        Message(YEAR - 1, "Bob", "Cleo", "to Cleo"),
    ]
    s.proposals = [Proposal("treaty", "Bob", "Ann", YEAR - 1), Proposal("trade", "Bob", "Cleo", 1)]
    view = player_view(s, "Ann")
    assert [e.kind for e in view.events] == ["battle", "eliminated"]
    assert [m.text for m in view.messages] == ["to Ann", "to all"]
    assert view.proposals_received == ["Bob proposes a treaty"]
    assert view.best_range == 4 and view.players == ["Ann", "Bob", "Cleo"]


def test_an_arrival_is_told_to_players_who_see_the_system_and_a_departure_to_nobody_else() -> None:
    s = _map()
    s.flights.append(flight("Cleo", "1017", "1014", departed=YEAR - 2, F=1))
    s.relations = []
    r = resolve(s, dice=[1])  # Bob's F2 M1 (CV 4) beat Cleo's one squadron, which misses
    own, seen = (e for e in r.events if e.kind == "arrival")
    assert own.visible_to == ("Cleo",) and own.data["origin"] == "1017"
    assert seen.visible_to == ("Ann", "Bob")  # they see 1014, not where the fleet came from
    assert "origin" not in seen.data and "flight" not in seen.data
    battle = next(e for e in r.events if e.kind == "battle")
    assert "Ann" in battle.visible_to


def test_a_system_never_seen_shows_the_printed_map_not_fusion_damage() -> None:
    s = _map()
    hit = s.system("1015")
    hit.map_naval_base = hit.map_hipop = True  # printed with a naval base and HiPop,
    hit.naval_base = hit.hipop = False  # both since destroyed by a fusion attack
    hit.resource_class = "E"
    view = player_view(s, "Ann").system("1015")
    assert view.status == "map"
    assert (view.resource_class, view.naval_base, view.hipop) == ("C", True, True)
    bob = player_view(s, "Bob").system("1015")
    assert (bob.resource_class, bob.naval_base, bob.hipop) == ("E", False, False)


def test_the_public_map_of_every_report_shows_the_printed_bases() -> None:
    from refassist.rulesets.fifth_millennium.report import report_map

    s = _map()
    hit = s.system("1015")
    hit.map_naval_base, hit.naval_base = True, False
    world = next(w for w in report_map(s).worlds if w.hex == "1015")
    assert world.naval


def test_a_system_in_sight_is_seen_whole() -> None:
    """What Ann is told of Bob's system beside her own: its map data, owner, every force
    (probes and monitors too) in owner order, the facilities Bob does not keep secret with
    their counts and building state, and the counts her map shows."""
    from refassist.rulesets.fifth_millennium.state import Fleet
    from refassist.rulesets.fifth_millennium.view import ForceSeen, SystemView

    s = state(
        [
            system("1010", "A", "Ann"),
            system("1011", "B", "Bob", name="Tarsus", scout_base=True, hipop=True),
        ],
        forces=[
            force("1010", "Ann", F=1),
            force("1011", "Bob", F=2, M=1, P=3),
            force("1011", "Bob", A=1, building=True),
            force("1011", "Ann", S=1),
        ],
        facilities=[
            facility("1011", "Bob", "OPC", 2),
            facility("1011", "Bob", "MINE", 1),
            facility("1011", "Bob", "GL", 4),
            facility("1011", "Bob", "GL", 1, building=True),
            facility("1011", "Bob", "DOCK"),
            facility("1011", "Bob", "CC"),  # secret: never shown to Ann
        ],
        homeworlds={"Ann": "1010", "Bob": "1011"},
    )
    view = player_view(s, "Ann")
    seen = view.system("1011")
    assert seen == SystemView(
        hex="1011",
        name="Tarsus",
        resource_class="B",
        naval_base=False,
        scout_base=True,
        hipop=True,
        status="in sight",
        seen_year=YEAR,
        owner="Bob",
        forces=[
            ForceSeen("Ann", Fleet(S=1)),
            ForceSeen("Bob", Fleet(F=2), M=1, P=3),
            ForceSeen("Bob", Fleet(A=1), building=True),
        ],
        gl=4,
        opc=2,
        mines=1,
        spacedock=True,
        facilities=seen.facilities,
        forces_text=seen.forces_text,
    )
    assert seen.facilities == [
        "Spacedock (Bob)",
        "Genetics Lab x4 (Bob)",
        "Genetics Lab x1 (under construction) (Bob)",
        "Minefield x1 (Bob)",
        "Orbital Production Centre x2 (Bob)",
    ]
    assert seen.forces_text == (
        "Ann: F0 S1 A0(Fs0 Ms0 K0); Bob: F2 S0 A0(Fs0 Ms0 K0) M1 P3; "
        "Bob: F0 S0 A1(Fs0 Ms0 K0) (under construction)"
    )


def test_a_system_remembered_or_known_from_the_map_is_seen_whole() -> None:
    """Out of sight, a system shows what was seen when it was last in sight (name, class,
    bases, owner, the forces as text, the year), or, never seen, only the printed map; and a
    house-rule range reaches the view itself."""
    from refassist.rulesets.fifth_millennium.view import SystemView

    s = _map()
    seen_then = s.system("1014")
    seen_then.name, seen_then.naval_base, seen_then.scout_base, seen_then.hipop = (
        "Tarsus",
        True,
        True,
        True,
    )
    printed = s.system("1015")
    printed.map_scout_base = True
    r = resolve(s)
    r.state.systems[:] = [x for x in r.state.systems if x.hex != "1010"] + [
        system("1010", "A", "Bob")
    ]  # Ann loses her only world: nothing is in sight any more
    view = player_view(r.state, "Ann")
    assert view.system("1014") == SystemView(
        hex="1014",
        name="Tarsus",
        resource_class="B",
        naval_base=True,
        scout_base=True,
        hipop=True,
        status="seen",
        seen_year=YEAR,
        owner="Bob",
        forces_text="Bob: F2 S0 A0(Fs0 Ms0 K0) M1",
    )
    assert view.system("1015") == SystemView(
        hex="1015",
        name="World1015",
        resource_class="C",
        naval_base=False,
        scout_base=True,
        hipop=False,
        status="map",
    )
    # A range of 5 (house rule jump_range) sees 1015 from 1010; the default 4 does not.
    assert player_view(_map(), "Ann", {"jump_range": 5}).system("1015").status == "in sight"
    assert player_view(_map(), "Ann").system("1015").status == "map"
    assert "1015" in in_sight(_map(), "Ann", {"jump_range": 5})


def test_every_player_remembers_what_it_sees_at_the_end_of_the_turn() -> None:
    """update_sightings: each active player's systems in sight (by the game's house-rule
    range) are remembered with their forces as text, the same text for every player; a
    sighting of a system now out of sight is kept; recording one replaces only that
    player's sighting of that hex."""
    from refassist.rulesets.fifth_millennium.state import Sighting
    from refassist.rulesets.fifth_millennium.visibility import (
        record_sighting,
        sighting_of,
        update_sightings,
    )

    s = _map()
    old = Sighting("Ann", "1020", YEAR - 3, "A", False, False, False, "Cleo", "Cleo: F4")
    s.sightings.append(old)
    update_sightings(s, YEAR, {"jump_range": 5})
    seen = {(x.player, x.hex): x for x in s.sightings}
    assert sorted(seen) == [
        ("Ann", "1010"),
        ("Ann", "1014"),
        ("Ann", "1015"),  # five hexes: in sight with the house rule's range
        ("Ann", "1020"),
        ("Bob", "1010"),
        ("Bob", "1014"),
        ("Bob", "1015"),
        ("Bob", "1020"),
        ("Cleo", "1015"),
        ("Cleo", "1020"),
    ]
    assert seen[("Ann", "1020")] == old  # out of sight: last seen three years ago
    assert (
        seen[("Ann", "1015")].forces
        == seen[("Cleo", "1015")].forces
        == ("Bob: F7 S0 A0(Fs0 Ms0 K0)")
    )
    assert seen[("Ann", "1014")] == Sighting(
        "Ann", "1014", YEAR, "B", False, False, False, "Bob", "Bob: F2 S0 A0(Fs0 Ms0 K0) M1"
    )
    assert sighting_of(s, "Ann", "1014", YEAR) == seen[("Ann", "1014")]
    newer = sighting_of(s, "Ann", "1020", YEAR, forces="nothing")
    record_sighting(s, newer)
    after = {(x.player, x.hex): x for x in s.sightings}
    assert after[("Ann", "1020")] == newer and after[("Bob", "1020")] == seen[("Bob", "1020")]
    assert len(after) == len(seen) and len(s.sightings) == len(seen)


def test_sight_of_several_players_at_once_matches_each_players_own() -> None:
    """sight_of_players (the resolution's fast path) gives every player the hexes of its own
    forces and facilities (a refueling station in deep space too) and its worlds' ranges, by
    the game's house rules, an unknown name nothing, and a memo changes nothing."""
    from refassist.rulesets.fifth_millennium.visibility import sight_of_players

    s = _map()
    s.forces.append(force("1030", "Ann", F=1))  # far away: seen only because she is there
    rules = {"jump_range": 5}
    memo: dict = {}
    got = sight_of_players(s, ["Zed", "Ann", "Bob", "Cleo"], rules, memo)
    assert got["Zed"] == frozenset()
    for name in ("Ann", "Bob", "Cleo"):
        assert got[name] == in_sight(s, name, rules), name
    assert {"1030", "1015"} <= got["Ann"] and "1013" in got["Bob"]  # Bob's station at 1013
    assert sight_of_players(s, ["Ann"], rules, memo)["Ann"] == got["Ann"]
    assert "1015" not in sight_of_players(s, ["Ann"])["Ann"]  # the default range, 4
