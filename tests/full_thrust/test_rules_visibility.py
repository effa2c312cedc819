"""The campaign's fog of war at its source, `visibility`: what one commander's view holds (the
public map whole, its own things, the battles it fought as both sides see them, the events
told to it) and what the rules hide from it (`hidden_from`, the engine's audit of what a
commander receives: a rival's ship out of sight and not named to it, who holds a planet out
of its sight).

``test_what_a_commander_sees.py`` follows the view into the sheet and the report; these pin
each field of the view and each secret the audit looks for."""

from __future__ import annotations

import re

import pytest

from refassist.rulesets.base import Event, Secret
from refassist.rulesets.full_thrust.state import Battle, Facility, InBattle, State
from refassist.rulesets.full_thrust.view import Condition, ShipInBattle
from refassist.rulesets.full_thrust.visibility import hidden_from, place_view, player_view

from .situations import seed_map, ship


def told(text: str, who: tuple[str, ...], **data: object) -> Event:
    return Event(2, "travel", "B", "note", text, who, who, dict(data))


def war() -> State:
    """Week 2.  Ann has ANN-1 at B and ANN-2 at D (Bob's planet), a station at A; Bob has BOB-1
    at B and BOB-2 at D, both seen by Ann; BOB-3, BOB-4, BOB-5 and BOB-6 at C and CLE-1 at
    Walled (Cleo's, like Far), out of Ann's sight.  Ann was told of BOB-3 and BOB-5 (each at
    the end of an event's words) and of BOB-4 (in an event's data); BOB-6 and CLE-1 were named
    only to Bob and Cleo."""
    state = seed_map(week=2)
    state.map_title = "The Rim"
    state.systems["Walled"].owner = "Cleo"
    ship(state, "ANN-1", "Packet merchant", "Ann", "B")
    ship(state, "ANN-2", "Lantern scout", "Ann", "D")
    ship(state, "BOB-1", "Packet merchant", "Bob", "B", landed=True)
    ship(state, "BOB-2", "Halberd frigate", "Bob", "D")
    for n in (3, 4, 5, 6):
        ship(state, f"BOB-{n}", "Halberd frigate", "Bob", "C")
    ship(state, "CLE-1", "Claymore cruiser", "Cleo", "Walled")
    state.facilities += [
        Facility("ANN-ST", "station", "Ann", "A"),
        Facility("BOB-YD", "shipyard", "Bob", "D"),
    ]
    # Ann's last event ends with a ship's id, as does one before it: an id is found up to
    # the end of its event's words, whichever event comes next.
    state.events = [
        told("The campaign goes on", ("*",)),
        told("Spies counted BOB-3", ("Ann",)),
        told("A report on C", ("Ann",), ships=["BOB-4"]),
        told("Bob's orders for BOB-6 and CLE-1", ("Bob", "Cleo")),
        told("Ann's scouts saw BOB-5", ("Ann",)),
    ]
    state.finished = "over"
    return state


def test_the_public_map_shows_homes_and_sites_out_of_sight_too() -> None:
    state = seed_map()
    far = place_view(state.systems["Far"], in_sight=False)
    assert (far.home, far.ancient_site, far.owner, far.in_sight) == (True, True, "", False)
    b = place_view(state.systems["B"], in_sight=True)
    assert (b.home, b.ancient_site) == (False, False)


def test_a_commanders_view_holds_its_own_and_what_it_was_told() -> None:
    view = player_view(war(), "Ann")
    assert (view.map_title, view.finished, view.week) == ("The Rim", "over", 2)
    assert [f.id for f in view.facilities] == ["ANN-ST"]
    assert view.rivals == ("Bob", "Cleo")
    assert [e.text for e in view.events] == [
        "The campaign goes on",
        "Spies counted BOB-3",
        "A report on C",
        "Ann's scouts saw BOB-5",
    ]
    assert [(s.id, s.place, s.landed) for s in view.seen] == [
        ("BOB-1", "B", True),
        ("BOB-2", "D", False),
    ]
    bob = player_view(war(), "Bob")
    assert [f.id for f in bob.facilities] == ["BOB-YD"]
    assert bob.rivals == ("Ann", "Cleo")
    assert [e.text for e in bob.events] == [
        "The campaign goes on",
        "Bob's orders for BOB-6 and CLE-1",
    ]


def test_no_view_for_a_commander_not_in_the_game() -> None:
    with pytest.raises(KeyError) as raised:
        player_view(war(), "Zed")
    assert raised.value.args == ("Zed",)


def test_a_battle_as_each_side_knows_it() -> None:
    state = war()
    state.battles.append(
        Battle(
            "B2-1",
            2,
            "B",
            31,
            [
                InBattle("ANN-1", "Ann", "Packet merchant", 2, 35, 4, 3, 9, damage=1, cargo=50),
                InBattle("BOB-1", "Bob", "Packet merchant", 1, damage=2, crack=True),
            ],
            invasion="",
        )
    )
    state.battles.append(Battle("B2-2", 2, "Walled", 7, [], invasion="Bob"))
    (battle,) = player_view(state, "Ann").battles
    assert (battle.id, battle.week, battle.place, battle.hour, battle.invasion) == (
        "B2-1",
        2,
        "B",
        31,
        "",
    )
    assert battle.ships == (
        ShipInBattle("ANN-1", "Ann", "Packet merchant", 2, 35, 4, 3, 9, Condition(1, 50, False)),
        ShipInBattle("BOB-1", "Bob", "Packet merchant", 1, 30, 6, 0, 0, None),
    )
    bobs = player_view(state, "Bob").battles
    assert [b.id for b in bobs] == ["B2-1"]
    assert bobs[0].ships[1].condition == Condition(2, 0, True)
    # An invasion's battle names its invader (here with no ships of Ann's: not hers to see).
    state.battles[1].ships.append(InBattle("BOB-2", "Bob", "Halberd frigate"))
    assert player_view(state, "Bob").battles[1].invasion == "Bob"


def test_what_is_hidden_from_a_commander() -> None:
    """Out of Ann's sight and not told to her: BOB-6 and CLE-1, and that Cleo holds Walled
    and Far.  Her own ships, the ships she sees, the ships named to her (in words or data),
    Bob's D where her scout is, her own A and the neutral places are no secret."""
    secrets = hidden_from(war(), "Ann")
    assert secrets == [
        Secret.phrase("BOB-6", "Bob's ship BOB-6, out of sight"),
        Secret.phrase("CLE-1", "Cleo's ship CLE-1, out of sight"),
        Secret(
            r"(?<![\w-])Far(?![\w-])[^\n]{0,60}(?<![\w-])Cleo(?![\w-])",
            "that Cleo holds Far, out of sight",
        ),
        Secret(
            r"(?<![\w-])Walled(?![\w-])[^\n]{0,60}(?<![\w-])Cleo(?![\w-])",
            "that Cleo holds Walled, out of sight",
        ),
    ]
    walled = secrets[3].pattern
    assert re.search(walled, "Walled 0601 - Value 2 - Cleo")
    assert not re.search(walled, "Walled 0601 - Value 2 - holder not known")


def test_what_is_hidden_from_another_commander() -> None:
    """Bob sees Ann's merchant at B and her scout at D; her station's place A is out of his
    sight, as are Cleo's planets and cruiser; BOB-6's and CLE-1's event was told to him."""
    secrets = hidden_from(war(), "Bob")
    assert [s.what for s in secrets] == [
        "that Ann holds A, out of sight",
        "that Cleo holds Far, out of sight",
        "that Cleo holds Walled, out of sight",
    ]
    state = war()
    state.events = []
    assert [s.what for s in hidden_from(state, "Bob")][:1] == ["Cleo's ship CLE-1, out of sight"]
