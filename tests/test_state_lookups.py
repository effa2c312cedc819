"""The state's look-ups (by hex, owner, key) answer what a scan of the lists would, whatever
was done to the lists in between: appends, removals, slice assignments, sorts, replaced
items.  They keep an index for speed (`tracked.KeyedList`, `state._indexed`); these tests
make random changes and compare every answer with a plain scan."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

from refassist.rulesets.fifth_millennium.state import (
    Facility,
    Fleet,
    Force,
    Player,
    Relation,
    Sighting,
    State,
    System,
)
from refassist.rulesets.fifth_millennium.tracked import HexList, KeyedList

HEXES = ["0101", "0102", "0203", "1010", "1011", "2520"]
OWNERS = ["Ann", "Bob", ""]


def _force(rng: random.Random) -> Force:
    return Force(
        hex=rng.choice(HEXES),
        owner=rng.choice(OWNERS),
        fleet=Fleet(F=rng.randint(0, 3), S=rng.randint(0, 1)),
        M=rng.randint(0, 1),
        building=rng.random() < 0.3,
    )


def _scan(state: State, hex_: str) -> list[Force]:
    return [f for f in state.forces if f.hex == hex_]


def _check(state: State) -> None:
    for hex_ in [*HEXES, "3240"]:
        assert state.forces_at(hex_) == _scan(state, hex_)
        assert [id(f) for f in state.forces_at(hex_)] == [id(f) for f in _scan(state, hex_)]
        assert state.facilities_at(hex_) == [f for f in state.facilities if f.hex == hex_]
        for owner in OWNERS:
            for building in (False, True):
                expected = next(
                    (
                        f
                        for f in state.forces
                        if f.hex == hex_ and f.owner == owner and f.building == building
                    ),
                    None,
                )
                assert state.force(hex_, owner, building) is expected


def test_hex_look_ups_follow_every_kind_of_change() -> None:
    rng = random.Random(3)
    state = State("g", "G", 5001, forces=[_force(rng) for _ in range(8)])
    assert isinstance(state.forces, HexList)
    _check(state)
    for _ in range(400):
        op = rng.randrange(10)
        forces = state.forces
        if op == 0:
            forces.append(_force(rng))
        elif op == 1 and forces:
            forces.remove(rng.choice(forces))
        elif op == 2:
            forces[:] = [f for f in forces if rng.random() < 0.8] + [_force(rng)]
        elif op == 3:
            forces.sort(key=lambda f: (f.hex, f.owner, f.building))
        elif op == 4:
            forces.insert(rng.randrange(len(forces) + 1), _force(rng))
        elif op == 5 and forces:
            forces.pop(rng.randrange(len(forces)))
        elif op == 6 and forces:
            forces[rng.randrange(len(forces))] = _force(rng)
        elif op == 7 and forces:
            del forces[rng.randrange(len(forces))]
        elif op == 8:
            forces += [_force(rng)]
        else:
            state.forces = [_force(rng) for _ in range(rng.randrange(6))]  # a plain list
        _check(state)


def test_an_item_moved_in_place_is_found_where_it_is_now() -> None:
    """No rule changes a force's hex in place, but a look-up never answers from a stale index."""
    state = State("g", "G", 5001, forces=[Force("0101", "Ann", Fleet(F=1))])
    assert state.forces_at("0101")
    state.forces[0].hex = "0102"
    assert state.forces_at("0101") == []
    assert state.forces_at("0102") == [state.forces[0]]


def test_remove_takes_the_item_itself_or_an_equal_one() -> None:
    a, b = Force("0101", "Ann", Fleet(F=1)), Force("0101", "Ann", Fleet(F=1))
    items = HexList([a, b])
    items.at("0101")
    items.remove(b)
    assert items == [a] and items[0] is a and items.at("0101") == [a]
    items.remove(Force("0101", "Ann", Fleet(F=1)))  # an equal one, as list.remove takes
    assert items == [] and items.at("0101") == []


def test_keyed_lists_compare_copy_and_pickle_like_lists() -> None:
    items = HexList([Force("0101", "Ann"), Force("0102", "Bob")])
    items.at("0101")
    assert items == list(items) and list(items) == items
    for clone in (copy.deepcopy(items), pickle.loads(pickle.dumps(items))):
        assert type(clone) is HexList and clone == items
        assert clone.at("0102") == [Force("0102", "Bob")]
    assert isinstance(items, KeyedList) and isinstance(items, list)


def test_system_and_player_look_ups_are_the_scan_of_the_list() -> None:
    rng = random.Random(4)
    systems = [System(h, f"S{h}", "A", "A") for h in HEXES]
    state = State("g", "G", 5001, systems=list(systems), players=[Player("Ann"), Player("Bob")])
    for _ in range(200):
        op = rng.randrange(5)
        if op == 0:
            rng.shuffle(state.systems)
        elif op == 1 and state.systems:
            state.systems.pop(rng.randrange(len(state.systems)))
        elif op == 2:
            hex_ = rng.choice(HEXES)
            state.systems.append(System(hex_, "again", "B", "B"))
        elif op == 3 and state.systems:
            i = rng.randrange(len(state.systems))
            state.systems[i] = dataclasses.replace(state.systems[i], hex=rng.choice(HEXES))
        else:
            state.players.reverse()
        for hex_ in [*HEXES, "3240"]:
            expected = next((s for s in state.systems if s.hex == hex_), None)
            assert state.system(hex_) is expected
        for name in ("Ann", "Bob", "Cleo"):
            assert state.player(name) is next((p for p in state.players if p.name == name), None)


def test_agreements_and_sightings_by_player() -> None:
    state = State(
        "g",
        "G",
        5001,
        relations=[Relation("treaty", "Ann", "Bob", 5001), Relation("trade", "Bob", "Cleo", 5001)],
        sightings=[Sighting("Ann", "0101", 5001, "A", False, False, False, "")],
    )
    assert state.relations_of("Bob") == [Relation("trade", "Bob", "Cleo", 5001)]
    state.relations[:] = [r for r in state.relations if r.kind != "trade"]
    assert state.relations_of("Bob") == []
    state.sightings.append(Sighting("Ann", "0102", 5001, "B", False, False, False, "Bob"))
    assert [s.hex for s in state.sightings_of("Ann")] == ["0101", "0102"]
    assert state.sightings_of("Bob") == []


def test_a_copy_of_the_state_has_its_own_lists_and_compares_equal() -> None:
    rng = random.Random(5)
    state = State(
        "g",
        "G",
        5001,
        forces=[_force(rng) for _ in range(5)],
        facilities=[Facility("0101", "Ann", "GL", 2)],
    )
    clone = state.copy()
    assert clone == state and clone.forces is not state.forces
    clone.forces[0].M += 5
    assert clone != state
    assert all(a is not b for a, b in zip(clone.forces, state.forces, strict=True))
