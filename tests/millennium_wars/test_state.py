"""The first state of a game: players given their sides, the scenario's units and levels."""

from __future__ import annotations

import pytest

from refassist.errors import SetupError
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.millennium_wars.scenario import load_scenario
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.state import assign_sides, new_state

SCENARIO = load_scenario()


def players(a: str = "", b: str = "") -> list[PlayerSetup]:
    return [PlayerSetup("Ann", "ann@example.com", a), PlayerSetup("Bob", "bob@example.com", b)]


def test_sides_in_the_scenarios_order_or_as_asked() -> None:
    def sides(*asked: str) -> list[tuple[str, str]]:
        return [(side, p.name) for side, p in assign_sides(SCENARIO, players(*asked))]

    assert sides() == [("Northland", "Ann"), ("Sarkand", "Bob")]
    assert sides("Sarkand") == [("Sarkand", "Ann"), ("Northland", "Bob")]
    assert sides("", "Northland") == [("Sarkand", "Ann"), ("Northland", "Bob")]
    assert sides("Northland", "Sarkand") == [("Northland", "Ann"), ("Sarkand", "Bob")]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (players("Atlantis"), "asks for the side 'Atlantis'"),
        (players("Sarkand", "Sarkand"), "both players ask for Sarkand"),
        (players()[:1], "played by 2 players; the players file has 1"),
    ],
)
def test_players_that_do_not_fit(given: list[PlayerSetup], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        assign_sides(SCENARIO, given)


def test_the_first_state_of_the_training_scenario() -> None:
    state = new_state(SCENARIO, players("Sarkand"), "Vell", "g1")
    assert state.point == Point(1) and state.political_index == 50
    assert (state.first.name, state.first.player, state.first.c4i) == ("Northland", "Bob", 3)
    assert (state.second.name, state.second.player) == ("Sarkand", "Ann")
    assert state.phasing is state.first and state.reacting is state.second
    assert state.side_of("Ann").name == "Sarkand" and state.side_of("Cleo") is None
    assert len(state.units) == 15 and state.unit("N-1AR").hex == "0303"
    # The units are the state's own: moving one leaves the scenario as it was.
    state.unit("N-1AR").hex = "0404"
    assert next(u for u in SCENARIO.units if u.id == "N-1AR").hex == "0303"
    # Objectives: held by the side standing in them or whose country they are in.
    assert state.held == {
        "0205": "Northland",
        "0503": "Northland",
        "0704": "",
        "0906": "Sarkand",
        "1005": "Sarkand",
    }
