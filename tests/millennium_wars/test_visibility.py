"""What each side may see of the other in the training scenario: nothing at the start, the
units next to its own, intruders in its home country, everything under superiority."""

from __future__ import annotations

from refassist.rulesets.millennium_wars.combat import Attack
from refassist.rulesets.millennium_wars.visibility import seen_enemies, side_view

from .test_resolve import start


def test_at_the_start_neither_side_sees_the_other() -> None:
    state = start()
    assert seen_enemies(state, "Northland") == set() and seen_enemies(state, "Sarkand") == set()
    view = side_view(state, "Northland")
    assert {u.side for u in view.units} == {"Northland"}


def test_units_next_to_ones_own_and_in_ones_country() -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"  # next to S-3 at 0905 and to 0904
    assert seen_enemies(state, "Northland") == {"S-3"}
    assert seen_enemies(state, "Sarkand") == {"N-1AR"}  # next to S-3
    state.unit("N-1AR").hex = "0704"
    state.unit("S-5").hex = "0303"  # in Northland's country, next to no Northland unit
    assert "S-5" in seen_enemies(state, "Northland")
    assert "S-5" not in seen_enemies(state, "Northland", {"see_home": False})


def test_superiority_shows_everything_and_the_view_hides_the_enemys_plans() -> None:
    state = start()
    state.sees_all = ["Sarkand"]
    assert len(seen_enemies(state, "Sarkand")) == 7  # every Northland unit on the map
    plan = Attack(["N-1AR"], "0905", "raid", 1, True, {"N-1AR": ["0803"]}, ["*"], "N-1AR")
    elsewhere = Attack(["N-1AR"], "0101", "raid")  # no Sarkand unit there
    state.pending = [plan, elsewhere]
    state.moved = ["N-2MI"]
    # N-1AR at 0303 is not next to 0905: the attack cannot be fought, and stays a plan.
    assert side_view(state, "Sarkand").pending == []
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HQ").hex = "0603"  # in support range of 0905, for the intensive assault
    view = side_view(state, "Sarkand")
    # Of the attacks, only those on its units, without the attacker's own choices.
    assert view.pending == [Attack(["N-1AR"], "0905", "raid")]
    assert view.moved == [] and view.dice == []
    assert side_view(state, "Sarkand", {"attacks_told": False}).pending == []
    assert side_view(state, "Northland").pending == [plan, elsewhere]


def test_a_players_view_is_its_sides_with_the_house_rules() -> None:
    import pytest

    from refassist.rulesets.base import Event
    from refassist.rulesets.millennium_wars.visibility import player_view

    state = start()
    state.unit("N-1AR").hex = "0704"
    state.unit("S-5").hex = "0303"  # in Northland's country, next to no Northland unit
    lost_n, lost_s = state.unit("N-2MI"), state.unit("S-1")
    for unit in (lost_n, lost_s):
        state.units.remove(unit)
        state.lost.append(unit)
    state.events = [
        Event(1, "movement", "", "move", "Ann's move", ("Ann",), ("Ann",)),
        Event(1, "movement", "", "move", "Bob's move", ("Bob",), ("Bob",)),
        Event(1, "air", "", "air", "for both", ("*",), ("*",)),
    ]
    view = player_view(state, "Ann")  # Ann commands Northland
    assert view.viewer == "Northland"
    assert "S-5" in {u.id for u in view.units}
    assert "S-5" not in {u.id for u in player_view(state, "Ann", {"see_home": False}).units}
    assert [u.id for u in view.lost] == ["N-2MI"]  # its own eliminated units only
    assert [e.text for e in view.events] == ["Ann's move", "for both"]
    with pytest.raises(KeyError, match="'Cleo' commands no side"):
        player_view(state, "Cleo")
