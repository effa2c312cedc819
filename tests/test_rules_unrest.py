"""Loss of homeworld, civil unrest and UDI, separated regions (section 7)."""

from __future__ import annotations

import pytest

from refassist.rulesets.fifth_millennium.state import Fleet
from refassist.rulesets.fifth_millennium.unrest import udi_chance
from tests.fm_states import (
    YEAR,
    count,
    events,
    facility,
    fleet_at,
    flight,
    force,
    one,
    resolve,
    state,
    system,
)


def _fallen(lost_in: int, facilities=()):
    """Ann lost her homeworld 1010 to Bob in ``lost_in``; she still holds 1011 and 1012."""
    s = state(
        [system("1010", "A", "Bob"), system("1011", "C", "Ann"), system("1012", "C", "Ann")],
        forces=[force("1010", "Bob", F=3), force("1011", "Ann", F=2), force("1012", "Ann", F=1)],
        facilities=[*facilities, facility("1011", "Ann", "GL")],
        homeworlds={"Ann": "1010", "Bob": "1010"},
    )
    s.player("Ann").homeworld_lost = lost_in
    return s


def test_the_udi_chance_grows_from_one_to_five_in_six() -> None:
    assert [udi_chance(n) for n in range(8)] == [0, 1, 2, 3, 4, 5, 5, 5]


def test_unrest_starts_the_turn_after_the_homeworld_falls() -> None:
    assert events(resolve(_fallen(YEAR)), "unrest") == []  # lost this turn: no dice yet
    r = resolve(_fallen(YEAR - 1), dice=[1, 2])  # 1 in 6: 1011 rolls 1 (UDI), 1012 rolls 2
    udi = one(r, "udi")
    assert (udi.data["hex"], udi.data["chance"], udi.data["roll"]) == ("1011", 1, 1)
    assert one(r, "unrest").data == {
        "hex": "1012",
        "player": "Ann",
        "cause": "homeworld",
        "turns": 1,
        "chance": 1,
        "roll": 2,
    }
    assert r.state.system("1011").owner == "" and r.state.system("1012").owner == "Ann"


@pytest.mark.parametrize(("turns", "udi_roll", "loyal_roll"), [(3, 3, 4), (7, 5, 6)])
def test_later_turns_of_unrest_use_the_table(turns, udi_roll, loyal_roll) -> None:
    r = resolve(_fallen(YEAR - turns), dice=[udi_roll, loyal_roll])
    assert [e.data["hex"] for e in events(r, "udi")] == ["1011"]
    assert [e.data["chance"] for e in events(r, "unrest")] == [min(turns, 5)]


def test_a_world_declaring_independence_turns_its_squadrons_independent() -> None:
    r = resolve(_fallen(YEAR - 1), dice=[1, 2])
    assert fleet_at(r.state, "1011", "") == Fleet(F=2)
    assert fleet_at(r.state, "1011", "Ann") == Fleet()
    assert count(r.state, "1011", "Ann", "GL") == 0  # lost in the uprising
    assert r.state.system("1011").changes == 0  # independence is not a change of hands
    # next turn the first force to arrive takes the independent squadrons over
    r.state.flights.append(flight("Bob", "1010", "1011", arrival=YEAR + 1, departed=YEAR, F=1))
    after = resolve(r.state, dice=[6])  # Ann's 1012 stays loyal (2 in 6)
    assert fleet_at(after.state, "1011", "Bob") == Fleet(F=3)
    assert one(after, "surrender").data["to"] == "Bob"


@pytest.mark.parametrize("kind", ["CC", "DEPOT"])
def test_a_control_centre_or_depot_prevents_unrest_after_the_loss(kind) -> None:
    r = resolve(_fallen(YEAR - 2, facilities=[facility("1012", "Ann", kind)]))
    assert events(r, "unrest") == [] and events(r, "udi") == []


def test_a_construction_facility_does_not_prevent_unrest() -> None:
    r = resolve(_fallen(YEAR - 1, facilities=[facility("1012", "Ann", "CF")]), dice=[6, 6])
    assert len(events(r, "unrest")) == 2


def _split(far: str = "1021"):
    """Ann's homeworld 1010 with 1011 beside it, and ``far`` (1021: ten hexes from 1011, eleven
    from 1010) beyond what her worlds see (4 hexes around each): cut off.  Bob, far away at
    2530, keeps the game going."""
    return state(
        [
            system("1010", "A", "Ann"),
            system("1011", "C", "Ann"),
            system(far, "C", "Ann"),
            system("2530", "A", "Bob"),
        ],
        forces=[
            force("1010", "Ann", F=2),
            force("1011", "Ann", F=1),
            force(far, "Ann", F=1),
            force("2530", "Bob", F=1),
        ],
        homeworlds={"Ann": "1010", "Bob": "2530"},
    )


def test_a_separated_world_is_warned_then_suffers_unrest_from_the_next_turn() -> None:
    first = resolve(_split())
    warning = one(first, "unrest")
    assert (warning.data["hex"], warning.data["turns"], warning.data["chance"]) == ("1021", 0, 0)
    assert first.state.dice == []
    second = resolve(first.state, dice=[2])
    assert (one(second, "unrest").data["turns"], one(second, "unrest").data["chance"]) == (1, 1)
    third = resolve(second.state, dice=[2])  # 2 in 6: a 2 declares independence
    assert one(third, "udi").data["turns"] == 2
    assert third.state.system("1021").owner == ""


@pytest.mark.parametrize("far", ["1016", "1020"])
def test_worlds_whose_visible_areas_touch_are_one_grouping(far: str) -> None:
    """7.2 with 2.4: separated only by "an area between which is not visible".  1016 is five
    hexes from 1011 (the areas overlap), 1020 nine (1015, seen from 1011, is next to 1016,
    seen from 1020): nothing unseen lies between, so no unrest."""
    assert events(resolve(_split(far)), "unrest") == []


def test_a_depot_or_a_chain_of_worlds_keeps_a_region_connected() -> None:
    depot = _split()
    depot.facilities.append(facility("1021", "Ann", "DEPOT"))
    assert events(resolve(depot), "unrest") == []
    chain = _split()
    chain.systems.append(
        chain.system("1011").__class__(
            hex="1016", name="Link", original_class="C", resource_class="C", owner="Ann"
        )
    )
    chain.forces.append(force("1016", "Ann", F=1))  # 1011-1016-1021: five hexes each
    assert events(resolve(chain), "unrest") == []
    far = _split("1031")  # twenty hexes from 1011: with best range 7 the areas meet at 15
    assert [e.data["hex"] for e in events(resolve(far), "unrest")] == ["1031"]
    wide = _split("1026")
    wide.player("Ann").tech_level = 3  # best range 7: worlds 15 hexes apart see all between
    assert events(resolve(wide), "unrest") == []


def test_what_each_side_is_told_of_unrest_whole() -> None:
    """The separated world's warning, its first roll and its declaration, as events and dice:
    who is told, where, in which phase, in which words (hand-checked against 7.1-7.2: no roll
    in the turn of the warning, then 1 in 6 and 2 in 6)."""
    first = resolve(_split())
    (warning,) = [e for e in first.events if e.kind in ("unrest", "udi")]
    assert (warning.turn, warning.phase, warning.location) == (YEAR, "unrest", "1021")
    assert (warning.players, warning.visible_to, warning.dice) == (("Ann",), ("Ann",), ())
    assert warning.text == (
        "1021 World1021 is cut off from your homeworld, Control Centres and Depots: civil "
        "unrest will start next turn unless it is reconnected."
    )
    assert warning.data == {
        "hex": "1021",
        "player": "Ann",
        "cause": "separated",
        "turns": 0,
        "chance": 0,
        "roll": 0,
    }
    second = resolve(first.state, dice=[2])
    (loyal,) = [e for e in second.events if e.kind in ("unrest", "udi")]
    assert (loyal.kind, loyal.phase, loyal.location, loyal.visible_to) == (
        "unrest",
        "unrest",
        "1021",
        ("Ann",),
    )
    assert loyal.text == (
        "Civil unrest at 1021 World1021 (it is cut off from your homeworld, Control Centres "
        "and Depots): rolled 2 against 1 in 6, the world stays loyal."
    )
    (roll,) = second.state.dice
    assert (roll.phase, roll.location, roll.purpose, roll.result) == (
        "unrest",
        "1021",
        "civil unrest, Ann at 1021 (1 in 6)",
        2,
    )
    assert loyal.dice == (roll.seq,)
    third = resolve(second.state, dice=[2])
    (udi,) = [e for e in third.events if e.kind in ("unrest", "udi")]
    assert (udi.kind, udi.phase, udi.location, udi.players) == ("udi", "unrest", "1021", ("Ann",))
    assert udi.text == (
        "1021 World1021 declared independence from Ann (it is cut off from your homeworld, "
        "Control Centres and Depots; rolled 2 against 2 in 6)."
    )


def test_the_fall_of_a_homeworld_is_the_cause_told() -> None:
    r = resolve(_fallen(YEAR - 1), dice=[1, 2])
    udi, loyal = (e for e in r.events if e.kind in ("unrest", "udi"))
    assert udi.text == (
        "1011 World1011 declared independence from Ann (your homeworld has fallen; rolled 1 "
        "against 1 in 6)."
    )
    assert set(udi.visible_to) == {"Ann", "Bob"}  # Bob's squadrons at 1010 see 1011
    assert loyal.text == (
        "Civil unrest at 1012 World1012 (your homeworld has fallen): rolled 2 against 1 in 6, "
        "the world stays loyal."
    )
    assert loyal.visible_to == ("Ann",)


def test_only_a_control_centre_or_depot_of_ones_own_anchors_a_region() -> None:
    for extra in (
        facility("1021", "Ann", "GL"),  # a Genetics Lab is no anchor
        facility("1021", "Bob", "CC"),  # someone else's Control Centre
    ):
        s = _split()
        s.facilities.append(extra)
        assert [e.data["hex"] for e in events(resolve(s), "unrest")] == ["1021"], extra
