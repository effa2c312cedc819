"""Creating a game: players file, homeworld rules, starting position, game.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from refassist.errors import SetupError, UsageError
from refassist.geometry.hexmap import distance
from refassist.geometry.sectors import generate_sector
from refassist.rulesets.base import PlayerSetup
from refassist.store.game import Game, read_players_csv

from .conftest import players


def _class_a(seed: int = 42) -> list[str]:
    return [w.hex for w in generate_sector(seed).worlds if w.starport == "A"]


def test_starting_position(small_game: Game) -> None:
    state = small_game.load_state()
    assert state.year == 5001
    for p in state.players:
        assert p.stockpile == 0 and p.tech_level == 1
        home = state.system(p.homeworld)
        assert home.resource_class == "A" and home.owner == p.name and home.changes == 0
        forces = [f for f in state.forces if f.owner == p.name]
        assert len(forces) == 1 and forces[0].hex == p.homeworld and forces[0].fleet.F == 15
        assert forces[0].fleet.squadrons == 15


def test_assigned_homeworlds_are_class_a_and_far_apart(tmp_path: Path, fm) -> None:
    game = Game.create(
        tmp_path / "g", fm, players(12), seed=5, generate_seed=7, assign_homeworlds=True
    )
    homes = [p.homeworld for p in game.load_state().players]
    assert len(set(homes)) == 12
    for i, a in enumerate(homes):
        for b in homes[i + 1 :]:
            assert distance(a, b) >= 6


def test_assignment_is_deterministic(tmp_path: Path, fm) -> None:
    """The same seed and secret draw the same homeworlds (the referee can create a game
    again from its game.toml); the draw is keyed with the secret (docs/dice.md)."""
    a, b = (
        Game.create(
            tmp_path / name,
            fm,
            players(6),
            seed=5,
            generate_seed=7,
            assign_homeworlds=True,
            secret="the game's own",
        )
        for name in "ab"
    )
    assert [p.homeworld for p in a.load_state().players] == [
        p.homeworld for p in b.load_state().players
    ]


def test_homeworlds_too_close_name_both_players_hexes_and_distance(tmp_path: Path, fm) -> None:
    class_a = _class_a()
    a = class_a[0]
    b = next(h for h in class_a[1:] if distance(a, h) < 6)
    ps = [PlayerSetup("Ann", "ann@example.com", a), PlayerSetup("Bob", "bob@example.com", b)]
    with pytest.raises(SetupError) as info:
        Game.create(tmp_path / "g", fm, ps, seed=1, generate_seed=42)
    text = str(info.value)
    assert "Ann" in text and "Bob" in text and a in text and b in text
    assert f"{distance(a, b)} hexes apart" in text and "at least 6" in text
    assert not (tmp_path / "g").exists()


def test_homeworld_must_be_class_a(tmp_path: Path, fm) -> None:
    other = next(w for w in generate_sector(42).worlds if w.starport == "C")
    ps = [PlayerSetup("Ann", "ann@example.com", other.hex), PlayerSetup("Bob", "bob@example.com")]
    with pytest.raises(SetupError, match=rf"Ann's homeworld {other.hex} .* is class C"):
        Game.create(tmp_path / "g", fm, ps, seed=1, generate_seed=42)


def test_homeworld_must_be_a_system(tmp_path: Path, fm) -> None:
    occupied = {w.hex for w in generate_sector(42).worlds}
    empty = next(
        f"{c:02d}{r:02d}"
        for c in range(1, 33)
        for r in range(1, 41)
        if f"{c:02d}{r:02d}" not in occupied
    )
    ps = [PlayerSetup("Ann", "ann@example.com", empty), PlayerSetup("Bob", "bob@example.com")]
    with pytest.raises(SetupError, match="is not a star system"):
        Game.create(tmp_path / "g", fm, ps, seed=1, generate_seed=42)


def test_blank_homeworlds_wait_for_the_setup_turn(tmp_path: Path, fm) -> None:
    a = _class_a()[0]
    ps = [PlayerSetup("Ann", "ann@example.com", a), PlayerSetup("Bob", "bob@example.com")]
    game = Game.create(tmp_path / "g", fm, ps, seed=1, generate_seed=42)
    state = game.load_state()
    assert state.year == 5000
    assert state.player("Ann").homeworld == a and state.player("Bob").homeworld == ""
    assert game.step(state).label.startswith("Set-up")


def test_game_toml_holds_settings_and_house_rules(small_game: Game) -> None:
    data = tomllib.loads((small_game.path / "game.toml").read_text())
    assert data["game"]["ruleset"] == "fifth-millennium"
    assert data["game"]["seed"] == 11
    assert data["house_rules"]["homeworld_min_distance"] == 6
    assert data["house_rules"]["tl2_income"] == 30
    assert [p["email"] for p in data["players"]] == [
        "ann@example.com",
        "bob@example.com",
        "cleo@example.com",
    ]
    text = (small_game.path / "game.toml").read_text()
    assert "# Income in one turn that unlocks Technology Level 2." in text


def test_existing_folder_is_not_overwritten(small_game: Game, fm) -> None:
    before = small_game.master_path.read_bytes()
    with pytest.raises(SetupError, match="already exists and is not empty"):
        Game.create(small_game.path, fm, players(3), seed=1, generate_seed=1)
    assert small_game.master_path.read_bytes() == before


def test_players_csv(players_csv) -> None:
    path = players_csv("name,email,homeworld\nAnn,ann@example.com,1827\nBob,bob@example.com,\n")
    ps = read_players_csv(path)
    assert [(p.name, p.email, p.homeworld) for p in ps] == [
        ("Ann", "ann@example.com", "1827"),
        ("Bob", "bob@example.com", ""),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("who,where\nAnn,x\n", "name,email"),
        ("name,email\nAnn,not-an-address\n", "line 2: 'not-an-address' is not an e-mail address"),
        ("name,email\n,ann@example.com\n", "line 2: player name ''"),
        ("name,email\nReferee,ann@example.com\n", "reserved"),
    ],
)
def test_players_csv_errors(players_csv, text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        read_players_csv(players_csv(text))


def test_duplicate_players_refused(tmp_path: Path, fm) -> None:
    ps = [PlayerSetup("Ann", "a@example.com"), PlayerSetup("ann", "b@example.com")]
    with pytest.raises(SetupError, match="appears twice"):
        Game.create(tmp_path / "g", fm, ps, seed=1, generate_seed=1)


@pytest.mark.realsectors
def test_terra_homeworld_on_the_real_solomani_rim(tmp_path: Path, fm) -> None:
    from .conftest import shared_sector

    sector = shared_sector("solomani-rim.tab")
    ps = [PlayerSetup("Ann", "ann@example.com", "1827"), PlayerSetup("Bob", "bob@example.com")]
    game = Game.create(tmp_path / "g", fm, ps, seed=3, map_file=sector, assign_homeworlds=True)
    state = game.load_state()
    terra = state.system("1827")
    assert (terra.name, terra.resource_class, terra.naval_base, terra.hipop, terra.owner) == (
        "Terra",
        "A",
        True,
        True,
        "Ann",
    )
    assert len(state.systems) == 400
    assert state.subsector_names["K"] == "Sol"
    assert distance(state.player("Bob").homeworld, "1827") >= 6


@pytest.mark.usefixtures("random_secrets")
def test_refassist_new_draws_a_fresh_random_secret_for_every_game(tmp_path: Path) -> None:
    """Two games made with the same command, seed and players still get different secrets
    (the sheets' tokens and the turn seeds depend on it), unlike the demo's."""
    import re

    from click.testing import CliRunner

    from refassist.cli import main

    csv = tmp_path / "players.csv"
    csv.write_text("name,email\nAnn,ann@example.com\nBob,bob@example.com\n", encoding="utf-8")
    secrets = []
    for parent in ("one", "two"):
        folder = tmp_path / parent / "game"
        args = ["new", str(folder), "--players", str(csv), "--generate-sector", "3", "--seed", "5"]
        result = CliRunner().invoke(main, [*args, "--assign-homeworlds"])
        assert result.exit_code == 0, result.output
        secrets.append(Game.open(folder).config.secret)
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in secrets)
    assert secrets[0] != secrets[1]
