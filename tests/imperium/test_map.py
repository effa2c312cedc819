"""The Imperium map file, the scenario file, the set-up and the route helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from refassist.dice import Dice
from refassist.errors import SetupError
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.imperium_3m import paths
from refassist.rulesets.imperium_3m.mapfile import default_map_text, load_map, load_scenario
from refassist.rulesets.imperium_3m.setup import draw_troop, new_game
from refassist.rulesets.imperium_3m.state import Fleet, Unit
from refassist.rulesets.imperium_3m.units import IMPERIAL, TERRAN, TROOP_COUNTERS

SMALL_MAP = """
title = "Two stars"
[[system]]
code = "HOME"
name = "Home"
x = 10
y = 10
[[system.planets]]
code = "H1"
name = "Home 1"
type = "A1"
hexes = 4
owner = "Terran"
marker = "World"
home = "Terran"
[[system]]
code = "MID"
name = "Middle"
x = 50
y = 50
[[system.planets]]
code = "M1"
name = "Middle 1"
type = "N1"
hexes = 2
[[system]]
code = "FAR"
name = "Far"
x = 90
y = 90
[[system.planets]]
code = "F1"
name = "Far 1"
type = "A2"
hexes = 3
owner = "Imperial"
marker = "World"
home = "Imperial"
[[route]]
between = ["HOME", "MID"]
[[route]]
between = ["MID", "FAR"]
length = 2
"""

SMALL_SCENARIO = """
[Terran]
resources = 7
fleets = [{ name = "T1", system = "HOME", units = ["CA", "DD"] }]
ground = [{ planet = "H1", units = ["RT"] }]
[Imperial]
resources = 9
fleets = [{ name = "I1", system = "FAR", units = ["CR"] }]
ground = []
"""


def players(*sides: str) -> tuple[PlayerSetup, ...]:
    names = ("Ann", "Bob")
    return tuple(
        PlayerSetup(n, f"{n.lower()}@example.com", homeworld=s)
        for n, s in zip(names, sides or ("", ""), strict=False)
    )


def test_default_map_holds_the_named_home_worlds_and_a_frontier() -> None:
    game_map = load_map()
    names = {p.name for p in game_map.planets.values()}
    assert {"Sol 1", "Sol 2", "Alpha Centauri A1", "Alpha Centauri B"} <= names
    assert {"Dingir 1", "Gashidda 1", "Ishkur 1"} <= names
    homes = {p.name for p in game_map.planets.values() if p.home == IMPERIAL}
    assert homes == {"Dingir 1", "Gashidda 1", "Ishkur 1"}
    unclaimed = [p for p in game_map.planets.values() if not p.owner]
    assert len(unclaimed) >= 5
    assert any(s.deep for s in game_map.systems.values())
    assert "refassist" in game_map.title


def test_a_referees_map_and_scenario_are_read(tmp_path: Path) -> None:
    (tmp_path / "map.toml").write_text(SMALL_MAP, encoding="utf-8")
    (tmp_path / "start.toml").write_text(SMALL_SCENARIO, encoding="utf-8")
    setup = NewGame(
        "Test",
        "id",
        players("imperial", "terran"),
        {},
        map_file=tmp_path / "map.toml",
        scenario_file=tmp_path / "start.toml",
    )
    state = new_game(setup, Dice(seed=3), {})
    assert state.sides[TERRAN].player == "Bob"
    assert state.sides[IMPERIAL].player == "Ann"
    assert state.sides[TERRAN].resources == 7
    assert sorted(u.id for u in state.units if u.side == TERRAN) in (
        ["CA1", "DD1", f"RT{n}"] for n in range(1, 9)
    )
    assert state.map.route("MID", "FAR").length == 2


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        ('type = "A1", hexes = 4, owner', "not valid TOML"),
        ('type = "Q9"', "type must be one of"),
        ("hexes = 4,", "hexes must be"),
        ('between = ["MID", "FAR"]\nlength = 2', "length"),
    ],
)
def test_a_broken_map_is_refused_with_what_and_where(
    tmp_path: Path, broken: str, message: str
) -> None:
    text = SMALL_MAP
    if broken.startswith('type = "A1"'):
        text = text.replace('type = "A1"', "type = = 4")
    elif broken.startswith('type = "Q9"'):
        text = text.replace('type = "N1"', 'type = "Q9"')
    elif broken.startswith("hexes"):
        text = text.replace("hexes = 2", "hexes = 0")
    else:
        text = text.replace("length = 2", "length = 9")
    (tmp_path / "map.toml").write_text(text, encoding="utf-8")
    with pytest.raises(SetupError, match=message):
        load_map(tmp_path / "map.toml")


def test_a_map_must_mark_both_sides_home_worlds(tmp_path: Path) -> None:
    text = SMALL_MAP.replace('home = "Imperial"', "")
    (tmp_path / "map.toml").write_text(text, encoding="utf-8")
    with pytest.raises(SetupError, match='home = "Imperial"'):
        load_map(tmp_path / "map.toml")


def test_a_huge_or_binary_map_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "big.toml").write_bytes(b"#" * 1_100_000)
    with pytest.raises(SetupError, match="at most 1 MB"):
        load_map(tmp_path / "big.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(SetupError, match="not UTF-8"):
        load_map(tmp_path / "bin.toml")


def test_a_routes_to_unknown_systems_and_units_not_in_a_sides_list_are_refused(
    tmp_path: Path,
) -> None:
    text = SMALL_MAP.replace('between = ["HOME", "MID"]', 'between = ["HOME", "NOWHERE"]')
    (tmp_path / "map.toml").write_text(text, encoding="utf-8")
    with pytest.raises(SetupError, match="not on the map"):
        load_map(tmp_path / "map.toml")
    game_map = load_map()
    (tmp_path / "s.toml").write_text(
        SMALL_SCENARIO.replace('"CR"', '"TB"').replace('"HOME"', '"SOL"').replace('"FAR"', '"DIN"'),
        encoding="utf-8",
    )
    with pytest.raises(SetupError, match="no 'TB' in the list"):
        load_scenario(tmp_path / "s.toml", game_map)


def test_a_referees_map_without_a_scenario_is_refused(tmp_path: Path) -> None:
    (tmp_path / "map.toml").write_text(SMALL_MAP, encoding="utf-8")
    setup = NewGame("T", "id", players(), {}, map_file=tmp_path / "map.toml")
    with pytest.raises(SetupError, match="scenario"):
        new_game(setup, Dice(seed=1), {})


def test_two_players_are_needed_and_sides_are_checked() -> None:
    one = (PlayerSetup("Ann", "a@example.com"),)
    with pytest.raises(SetupError, match="two sides"):
        new_game(NewGame("T", "id", one, {}), Dice(seed=1), {})
    with pytest.raises(SetupError, match="both players asked"):
        new_game(NewGame("T", "id", players("terran", "Terran"), {}), Dice(seed=1), {})
    with pytest.raises(SetupError, match="not Terran or Imperial"):
        new_game(NewGame("T", "id", players("martian", ""), {}), Dice(seed=1), {})


def test_default_start_places_the_scenario_and_draws_troops_with_logged_dice() -> None:
    dice = Dice(seed=5)
    state = new_game(NewGame("T", "id", players(), {}), dice, {"starting_resources": 33})
    assert state.sides[TERRAN].player == "Ann"
    assert state.sides[TERRAN].resources == 33 == state.sides[IMPERIAL].resources
    troops = [u for u in state.units if u.code in ("RT", "JT")]
    assert all(u.strength in (2, 3, 4, 5, 6) and u.reduced_strength == 2 for u in troops)
    drawn = [r for r in dice.log if "counter drawn" in r.purpose]
    assert len(drawn) >= len(troops) - 2
    ids = [(u.side, u.id) for u in state.units]
    assert len(ids) == len(set(ids))


def test_troop_counters_are_drawn_only_from_those_not_in_play() -> None:
    state = new_game(NewGame("T", "id", players(), {}), Dice(seed=1), {})
    mix = TROOP_COUNTERS[TERRAN]["RT"]
    in_play = {u.id for u in state.units if u.side == TERRAN and u.code == "RT"}
    free = [n for n in range(1, len(mix) + 1) if f"RT{n}" not in in_play]
    drawn = draw_troop(state, TERRAN, "RT", Dice.scripted([1]))
    assert drawn is not None and drawn.id == f"RT{free[0]}"
    assert (drawn.strength, drawn.reduced_strength) == mix[free[0] - 1]
    for n in range(1, len(mix) + 1):
        if f"RT{n}" not in in_play:
            state.units.append(Unit(f"RT{n}", TERRAN, "RT", planet="SOL1"))
    assert draw_troop(state, TERRAN, "RT", Dice.scripted([])) is None


def test_connection_to_home_is_cut_by_an_enemy_fleet() -> None:
    state = new_game(NewGame("T", "id", players(), {}), Dice(seed=1), {})
    assert paths.connected(state, TERRAN, "BAR")
    assert paths.connected(state, TERRAN, "KIS")
    # An Imperial fleet at Barnard's Star cuts Barnard off but not Alpha Centauri.
    state.fleets.append(Fleet("I9", IMPERIAL, "BAR"))
    state.units.append(Unit("DD9", IMPERIAL, "DD", fleet="I9"))
    assert not paths.connected(state, TERRAN, "BAR")
    assert paths.connected(state, TERRAN, "BAR", ignore_enemy_fleets=True)
    assert paths.connected(state, TERRAN, "ACE")
    # An empty enemy fleet record blocks nothing.
    state.fleets.append(Fleet("I8", IMPERIAL, "ACE"))
    assert paths.connected(state, TERRAN, "ACE")


def test_the_way_home_and_shortest_paths_follow_route_lengths() -> None:
    state = new_game(NewGame("T", "id", players(), {}), Dice(seed=1), {})
    assert paths.shortest_path(state, "SOL", "GAS") == ["ACE", "TAU", "PRO", "NIP", "GAS"]
    assert paths.step_towards_home(state, IMPERIAL, "PRO") == "NIP"
    assert paths.step_towards_home(state, TERRAN, "SOL") is None
    # Wolf 359 to Procyon is a length-2 route: from Wolf the Terrans go home by Barnard's.
    assert paths.step_towards_home(state, TERRAN, "WOL") == "BAR"
    assert paths.shortest_path(state, "SOL", "SOL") == []


def test_distances_count_route_lengths_and_never_pass_an_avoided_system() -> None:
    state = new_game(NewGame("T", "id", players(), {}), Dice(seed=1), {})
    near = paths.distances_from(state, ["SOL"])
    assert (near["SOL"], near["ACE"], near["ERI"], near["KIS"]) == (0, 1, 2, 3)
    # Alpha Centauri is reached but not passed: Epsilon Eridani, next to it, is far round.
    around = paths.distances_from(state, ["SOL"], avoid={"ACE"})
    assert (around["ACE"], around["ERI"], around["KIS"]) == (1, 8, 3)
    # A target is always left, even one in ``avoid``.
    assert paths.distances_from(state, ["SOL"], avoid={"SOL"})["ACE"] == 1


def test_the_way_home_leads_to_the_home_worlds_still_held_or_else_to_any() -> None:
    state = new_game(NewGame("T", "id", players(), {}), Dice(seed=1), {})
    for code in ("DIN1", "GAS1"):
        state.map.planets[code].owner = TERRAN
    # Ishkur is the one Imperial home world still held: from Tau Ceti the way leads to it.
    assert paths.step_towards_home(state, IMPERIAL, "TAU") == "BAR"
    state.map.planets["ISH1"].owner = TERRAN
    # None held: the way leads to the nearest of the home worlds the side began with.
    assert paths.step_towards_home(state, IMPERIAL, "TAU") == "LAL"
    assert paths.step_towards_home(state, IMPERIAL, "URU") == "DIN"


def test_the_default_map_text_names_itself_as_the_tools_own() -> None:
    assert "original map made for refassist" in default_map_text()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('name = "T1"', 'name = "T 1; > x"'), "fleet name"),
        (("resources = 7", "resources = 99999999999999"), "resources must be"),
        (
            ('units = ["RT"] }]', 'units = ["RT"] }, { planet = "F1", units = ["RT"] }]'),
            "the Imperial side's",
        ),
    ],
)
def test_scenario_problems_players_could_not_live_with_are_refused(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    (tmp_path / "map.toml").write_text(SMALL_MAP, encoding="utf-8")
    (tmp_path / "s.toml").write_text(SMALL_SCENARIO.replace(*change), encoding="utf-8")
    with pytest.raises(SetupError, match=message):
        load_scenario(tmp_path / "s.toml", load_map(tmp_path / "map.toml"))


def test_map_coordinates_must_be_numbers_not_true(tmp_path: Path) -> None:
    (tmp_path / "map.toml").write_text(SMALL_MAP.replace("x = 50", "x = true"), encoding="utf-8")
    with pytest.raises(SetupError, match="x and y must be numbers"):
        load_map(tmp_path / "map.toml")


def test_refassist_new_with_a_referees_map_and_scenario_records_both(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from refassist.cli import main
    from refassist.config import load_config
    from refassist.store.game import Game

    (tmp_path / "map.toml").write_text(SMALL_MAP, encoding="utf-8")
    (tmp_path / "start.toml").write_text(SMALL_SCENARIO, encoding="utf-8")
    (tmp_path / "players.csv").write_text(
        "name,email,homeworld\nAnn,ann@example.com,Imperial\nBob,bob@example.com,\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        main,
        [
            "new",
            str(tmp_path / "g"),
            "--ruleset",
            "imperium-3m",
            "--players",
            str(tmp_path / "players.csv"),
            "--map",
            str(tmp_path / "map.toml"),
            "--scenario",
            str(tmp_path / "start.toml"),
        ],
    )
    assert result.exit_code == 0, result.output
    config = load_config(tmp_path / "g" / "game.toml")
    assert config.map.endswith("map.toml") and config.scenario.endswith("start.toml")
    state = Game.open(tmp_path / "g").load_state()
    assert state.sides[TERRAN].player == "Bob" and state.sides[TERRAN].resources == 7
    assert sorted(state.map.systems) == ["FAR", "HOME", "MID"]


@pytest.mark.parametrize(
    ("units", "message"),
    [
        ('["CA", "DD", "RT"]', "its transports hold 0"),
        ('["CA", "F"]', "its carriers hold 0"),
        ('["RT"]', "has no ship"),
    ],
)
def test_a_scenario_fleet_that_could_never_move_is_refused(
    tmp_path: Path, units: str, message: str
) -> None:
    (tmp_path / "map.toml").write_text(SMALL_MAP, encoding="utf-8")
    (tmp_path / "s.toml").write_text(
        SMALL_SCENARIO.replace('units = ["CA", "DD"]', f"units = {units}"), encoding="utf-8"
    )
    setup = NewGame(
        "T", "id", players(), {}, map_file=tmp_path / "map.toml", scenario_file=tmp_path / "s.toml"
    )
    with pytest.raises(SetupError, match=message):
        new_game(setup, Dice(seed=1), {})
