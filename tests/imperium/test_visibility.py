"""Imperium fog of war: what one side's view holds, and what it must never hold."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.base import Event, NewGame, PlayerSetup
from refassist.rulesets.imperium_3m.setup import new_game
from refassist.rulesets.imperium_3m.state import Fleet, Queued, State, Unit
from refassist.rulesets.imperium_3m.visibility import in_sight, player_view

RULES = {"public_markers": True}


def start() -> State:
    players = (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com"))
    return new_game(NewGame("Test", "id", players, {}), Dice(seed=1), {})


def ids(units: list[Unit]) -> set[str]:
    return {u.id for u in units}


def test_a_side_sees_where_it_has_units_worlds_or_outposts() -> None:
    state = start()
    assert in_sight(state, "Terran") == {"SOL", "ACE", "BAR"}
    assert in_sight(state, "Imperial") == {"DIN", "GAS", "ISH", "KIS", "URU"}
    view = player_view(state, "Terra", RULES)
    assert view.enemy_fleets == [] and view.enemy_units == []
    assert {f.name for f in view.fleets} == {"T1", "T2", "T3"}
    assert all(u.side == "Terran" for u in view.units)
    assert len(view.units) == sum(1 for u in state.units if u.side == "Terran")


def test_enemy_fleets_only_where_the_side_has_eyes() -> None:
    state = start()
    state.fleet("I3").system = "BAR"  # into the Terran outpost's system
    state.fleet("I1").system = "TAU"  # an empty system no Terran sees
    view = player_view(state, "Terra", RULES)
    assert [f.name for f in view.enemy_fleets] == ["I3"]
    # There, but its contents are the stealth scout's reward ("the enemy player must reveal
    # the contents of any fleet"): hidden until a battle or a scout reveals the system.
    assert view.hidden_fleets == {"I3"} and not ids(view.enemy_units) & ids(
        state.units_in_fleet("I3")
    )
    state.revealed["Terran"] = ["BAR"]
    view = player_view(state, "Terra", RULES)
    assert view.hidden_fleets == set()
    assert ids(view.enemy_units) == ids(state.units_in_fleet("I3"))  # contents, cargo included
    assert not ids(view.enemy_units) & ids(state.units_in_fleet("I1"))
    state.revealed.clear()
    shown = player_view(state, "Terra", {**RULES, "enemy_fleet_contents": "shown"})
    assert ids(shown.enemy_units) == ids(state.units_in_fleet("I3"))
    # The Empire sees the Terran fleet T3 at Barnard's Star through its own fleet there.
    empire = player_view(state, "Empire", RULES)
    assert [f.name for f in empire.enemy_fleets] == ["T3"]
    assert "BAR" in empire.in_sight and "TAU" in empire.in_sight


def test_an_empty_fleet_gives_no_sight() -> None:
    state = start()
    state.fleets.append(Fleet("T9", "Terran", "NIP"))
    assert "NIP" not in in_sight(state, "Terran")


def test_enemy_planetary_boxes_only_after_battle_or_scouting() -> None:
    state = start()
    state.fleet("T3").system = "KIS"  # Terran fleet at the Imperial outpost of Kish
    kish_pd = ids(state.units_on("KIS1"))
    assert kish_pd
    before = player_view(state, "Terra", RULES)
    assert "KIS" in before.in_sight
    assert not ids(before.enemy_units) & kish_pd
    assert not before.planets["KIS1"].box_known
    state.revealed = {"Terran": ["KIS"]}
    after = player_view(state, "Terra", RULES)
    assert kish_pd <= ids(after.enemy_units)
    assert after.planets["KIS1"].box_known
    # Revealing Kish shows nothing of other Imperial planets.
    assert not ids(after.enemy_units) & ids(state.units_on("DIN1"))
    # And what Terra revealed is not the Empire's to know about Terran planets.
    assert not ids(player_view(state, "Empire", RULES).enemy_units) & ids(state.units_on("SOL1"))


def test_troops_on_a_disputed_planet_see_the_enemy_there() -> None:
    state = start()
    tau = state.map.planets["TAU2"]
    tau.owner, tau.marker, tau.disputed = "Imperial", "Outpost", True
    state.units.append(
        Unit("JT5", "Imperial", "JT", planet="TAU2", hex=1, strength=4, reduced_strength=2)
    )
    state.units.append(
        Unit("RT8", "Terran", "RT", planet="TAU2", hex=2, strength=2, reduced_strength=2)
    )
    view = player_view(state, "Terra", RULES)
    assert "JT5" in ids(view.enemy_units)
    assert view.planets["TAU2"].disputed


def test_nothing_of_the_other_sides_treasury_or_track_leaks() -> None:
    state = start()
    empire = state.sides["Imperial"]
    empire.resources, empire.budget_bonus, empire.permissions = 4321, 7, ["BB"]
    state.queue = [
        Queued("Imperial", "CR", 3, "Secret Shipyard", 13, "DIN1"),
        Queued("Terran", "CA", 3, "built", 15),
    ]
    state.fleet("I3").system = "BAR"
    for u in state.units_in_fleet("I3"):
        u.origin = "Appeal"
    view = player_view(state, "Terra", RULES)
    assert view.own.side == "Terran" and view.own.resources == state.sides["Terran"].resources
    assert [q.code for q in view.queue] == ["CA"]
    text = repr(view)
    for secret in ("4321", "Secret Shipyard", "Appeal", "'BB'"):
        assert secret not in text
    # The view is a copy: changing it does not touch the state.
    view.units[0].damaged = True
    assert not state.units[0].damaged


def test_only_events_the_player_may_read() -> None:
    state = start()
    state.events = [
        Event(1, "action 1", "DIN", "activation", "Empire moves I1", ("Empire",), ("Empire",)),
        Event(1, "action 1", "BAR", "battle", "Battle at Barnard's Star", (), ("Empire", "Terra")),
        Event(1, "glory", "", "glory", "Glory +1", (), ("*",)),
        Event(1, "administration", "", "note", "Referee only", (), ()),
    ]
    view = player_view(state, "Terra", RULES)
    assert [e.text for e in view.events] == ["Battle at Barnard's Star", "Glory +1"]
    assert view.battles == {"BAR"}
    assert player_view(state, "Empire", RULES).battles == {"BAR"}


def test_markers_are_public_unless_the_house_rule_says_no() -> None:
    state = start()
    public = player_view(state, "Terra", RULES)
    assert (public.planets["DIN1"].owner, public.planets["DIN1"].marker) == ("Imperial", "World")
    hidden = player_view(state, "Terra", {"public_markers": False})
    assert (hidden.planets["DIN1"].owner, hidden.planets["DIN1"].marker) == ("", "")
    assert hidden.planets["SOL1"].marker == "World"  # its own
    state.fleet("T3").system = "KIS"
    seen = player_view(state, "Terra", {"public_markers": False})
    assert seen.planets["KIS1"].marker == "Outpost"  # in sight now


def test_enemy_terraforming_progress_is_hidden() -> None:
    state = start()
    eri = state.map.planets["ERI1"]
    eri.terraform_paid, eri.terraform_side = 40, "Imperial"
    assert player_view(state, "Terra", RULES).planets["ERI1"].terraform_paid == 0
    assert player_view(state, "Empire", RULES).planets["ERI1"].terraform_paid == 40
