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


def test_a_fleet_of_the_other_side_does_not_man_ones_own() -> None:
    """Sight comes from one's own units in a fleet: the enemy's units in their fleets, or
    one's own units standing on a planet, do not make an empty fleet of one's own see."""
    state = start()
    state.fleets.append(Fleet("T9", "Terran", "NIP"))
    state.units.append(Unit("DD9", "Imperial", "DD", fleet="T9"))  # a stray enemy counter
    assert "NIP" not in in_sight(state, "Terran")
    state.units.append(Unit("RT9", "Terran", "RT", planet="SOL1"))  # on a planet, not in T9
    assert "NIP" not in in_sight(state, "Terran")


def test_what_a_seen_enemy_fleet_does_not_tell() -> None:
    """An enemy fleet in sight shows where it is, never where it came from, its standing battle
    orders or which of its counters came from an Intervention."""
    state = start()
    i3 = state.fleet("I3")
    i3.system, i3.came_from, i3.standing = "BAR", "ISH", "stance=stand off"
    for u in state.units_in_fleet("I3"):
        u.origin = "Appeal"
    state.revealed["Terran"] = ["BAR"]
    view = player_view(state, "Terra", RULES)
    [seen] = view.enemy_fleets
    assert (seen.name, seen.system, seen.came_from, seen.standing) == ("I3", "BAR", "", "")
    assert {u.origin for u in view.enemy_units} == {""}
    own = player_view(state, "Empire", RULES)
    assert own.fleets[[f.name for f in own.fleets].index("I3")].came_from == "ISH"
    assert {u.origin for u in own.units if u.fleet == "I3"} == {"Appeal"}


def test_an_upgrade_in_progress_is_its_owners_to_know() -> None:
    state = start()
    kish = state.map.planets["KIS1"]
    kish.upgrade_paid = 3
    assert player_view(state, "Empire", RULES).planets["KIS1"].upgrade_paid == 3
    assert player_view(state, "Terra", RULES).planets["KIS1"].upgrade_paid == 0
    state.map.planets["SOL1"].upgrade_paid = 2
    assert player_view(state, "Terra", RULES).planets["SOL1"].upgrade_paid == 2


def test_a_hidden_marker_hides_the_dispute_too() -> None:
    state = start()
    din = state.map.planets["DIN1"]
    din.disputed = True
    hidden = player_view(state, "Terra", {"public_markers": False})
    assert (hidden.planets["DIN1"].marker, hidden.planets["DIN1"].disputed) == ("", False)
    assert player_view(state, "Terra", RULES).planets["DIN1"].disputed
    quiet = state.map.planets["KIS1"]
    assert not quiet.disputed
    assert not player_view(state, "Terra", {"public_markers": False}).planets["KIS1"].disputed


def test_a_battle_on_a_planet_marks_its_system() -> None:
    state = start()
    state.events = [
        Event(1, "action 1", "KIS1", "landing", "Landing on Kish 1", (), ("*",)),
        Event(1, "action 1", "NOWHERE", "battle", "Off the map", (), ("*",)),
    ]
    assert player_view(state, "Terra", RULES).battles == {"KIS"}


def test_the_view_carries_the_games_public_figures() -> None:
    """Everything a report prints about the game comes from the view: both sides' names, the
    calendar, the results, what the side revealed, its expected income and its rolls."""
    from refassist.dice import Roll
    from refassist.rulesets.imperium_3m.admin import expected_income

    state = start()
    state.war, state.war_turn, state.peace_left, state.peace_talks = 2, 3, 4, True
    state.campaign, state.finished, state.results = False, "", ["Terran"]
    state.revealed = {"Terran": ["KIS", "NOWHERE"]}
    state.dice = [
        Roll(1, 1, "action 1", "BAR", "initiative Terran", 6, 5),
        Roll(2, 1, "action 1", "DIN", "secret roll", 6, 2),
    ]
    state.events = [
        Event(1, "action 1", "BAR", "battle", "Battle", (), ("*",), dice=(1,)),
        Event(1, "action 1", "DIN", "activation", "Secret", ("Empire",), ("Empire",), dice=(2,)),
    ]
    view = player_view(state, "Terra", RULES)
    assert (view.side, view.enemy_side, view.enemy_player) == ("Terran", "Imperial", "Empire")
    assert (view.game_name, view.map_title) == (state.game_name, state.map.title)
    assert (view.war, view.war_turn, view.peace_left, view.peace_talks) == (2, 3, 4, True)
    assert (view.campaign, view.finished, view.results) == (False, "", ["Terran"])
    assert view.revealed == {"KIS"}
    assert view.expected_income == expected_income(state, "Terran") > 0
    assert [r.seq for r in view.rolls] == [1]
    view.own.permissions.append("BB")
    view.results.append("Imperial")
    assert state.sides["Terran"].permissions == [] and state.results == ["Terran"]
