"""The engine names no game: every game lives in its own package under ``refassist/rulesets/``
and its own template folder, and the engine reaches it only through the ruleset interface.

A game's name (or a word only one game uses) in an engine file is how one game's model leaks
into the engine: a default that silently picks a game, a demo that reads one game's state.
Traveller is not on the list: it is the public sector-map format the engine reads
(`refassist.geometry.sectors`, `refassist.geometry.hexmap`), not a game refassist referees.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import refassist
from refassist.rulesets import RULESETS, default_ruleset, find_ruleset
from refassist.rulesets.base import Ruleset
from refassist.store.game import Game

PACKAGE = Path(refassist.__file__).resolve().parent
ROOT = PACKAGE.parent
TEMPLATES = ROOT / "templates"

#: Folders that belong to a game (its package, its templates): the only places it may be
#: named.  Taken from the registry, so a new game is covered without an edit here.
GAME_FOLDERS = tuple(
    folder
    for ruleset in RULESETS
    for folder in (
        Path(sys.modules[type(ruleset).__module__].__file__ or "").parent,
        TEMPLATES / ruleset.name,
    )
) + tuple(
    # A game being built is a package under rulesets/ before it is registered: its own.
    p.parent
    for p in (PACKAGE / "rulesets").glob("*/__init__.py")
)


def tell_tale_words(ruleset: Ruleset) -> set[str]:
    """A game's name and the longer words of its title and package, and its vocabulary."""
    package = type(ruleset).__module__.rsplit(".", 1)[-1]
    words = re.findall(r"[a-z]+", f"{ruleset.name} {ruleset.title} {package}".lower())
    return {w for w in words if len(w) >= 5} | {w.lower() for w in ruleset.vocabulary}


#: The games' names and words only one game uses (case-insensitive, anywhere in a word).
TELL_TALE = re.compile(
    "|".join(sorted({re.escape(w) for r in RULESETS for w in tell_tale_words(r)})),
    re.IGNORECASE,
)


def engine_files() -> list[Path]:
    """Every engine source and template file: all ``.py`` under ``refassist/`` and every file
    under ``templates/``, outside the games' own folders."""
    files = [*PACKAGE.rglob("*.py"), *(p for p in TEMPLATES.rglob("*") if p.is_file())]
    return sorted(
        p
        for p in files
        if "__pycache__" not in p.parts and not any(p.is_relative_to(g) for g in GAME_FOLDERS)
    )


def tell_tale_hits(paths: list[Path]) -> list[str]:
    """``file:line: text`` for every line naming a game."""
    hits = []
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            if TELL_TALE.search(line):
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                hits.append(f"{shown}:{number}: {line.strip()}")
    return hits


def test_the_scan_covers_the_engine_and_skips_only_the_games() -> None:
    files = engine_files()
    names = {p.relative_to(ROOT).as_posix() for p in files}
    for engine in (
        "refassist/demo.py",
        "refassist/store/game.py",
        "refassist/turns.py",
        "refassist/geometry/sectors.py",
        "refassist/rulesets/__init__.py",
        "refassist/rulesets/base.py",
        "refassist/cli/game_commands.py",
        "refassist/workbook/master.py",
        "templates/base/layout.html",
    ):
        assert engine in names, engine
    assert not any(n.startswith("refassist/rulesets/fifth_millennium/") for n in names)
    assert not any(n.startswith("templates/fifth-millennium/") for n in names)


def test_the_tell_tale_words_come_from_the_registry() -> None:
    words = {w for r in RULESETS for w in tell_tale_words(r)}
    assert {"fifth", "millennium", "imperium", "terran", "imperial", "squadron"} <= words
    assert {p.relative_to(ROOT).as_posix() for p in GAME_FOLDERS} >= {
        "refassist/rulesets/fifth_millennium",
        "refassist/rulesets/imperium_3m",
        "templates/fifth-millennium",
        "templates/imperium-3m",
    }


def test_the_scan_finds_a_game_name(tmp_path: Path) -> None:
    """The check can fail: a file naming a game is reported with its file and line."""
    leaky = ROOT / "refassist" / "demo.py"
    sample = tmp_path / "leak.py"
    sample.write_text('"""Neutral."""\nDEFAULT = "Fifth-Millennium"\nSIDE = "TERRAN"\n')
    hits = tell_tale_hits([sample])
    assert len(hits) == 2 and hits[0].endswith(':2: DEFAULT = "Fifth-Millennium"')
    assert tell_tale_hits([leaky]) == []


def test_no_engine_file_names_a_game() -> None:
    hits = tell_tale_hits(engine_files())
    assert not hits, "game names in engine files:\n" + "\n".join(hits)


def test_the_registry_finds_every_game_package_without_naming_it() -> None:
    """Every subpackage of refassist.rulesets with a RULESET is registered, in order."""
    import pkgutil

    import refassist.rulesets as registry

    packages = [m.name for m in pkgutil.iter_modules(registry.__path__) if m.ispkg]
    assert "fifth_millennium" in packages
    with_ruleset = [
        getattr(__import__(f"refassist.rulesets.{p}", fromlist=["RULESET"]), "RULESET", None)
        for p in packages
    ]
    assert {r.name for r in with_ruleset if r is not None} == {r.name for r in RULESETS}
    assert [(r.order, r.name) for r in RULESETS] == sorted((r.order, r.name) for r in RULESETS)
    assert default_ruleset() is RULESETS[0]
    assert RULESETS[0].name == "fifth-millennium"


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_name_and_alias_finds_its_own_ruleset(ruleset: Ruleset) -> None:
    for name in (ruleset.name, *ruleset.aliases):
        assert find_ruleset(name.upper()) is ruleset
        assert find_ruleset(f"  {name} ") is ruleset


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_ruleset_supplies_its_demo_players(ruleset: Ruleset) -> None:
    """`Ruleset.demo_players` gives the fewest and most players the game allows, computer
    players with distinct names and addresses, and refuses a count outside the range."""
    from refassist.errors import UsageError
    from refassist.rulesets.base import COMPUTER_PLAYER_NAMES

    most = min(ruleset.max_players, len(COMPUTER_PLAYER_NAMES))
    for count in {ruleset.min_players, most}:
        players = ruleset.demo_players(count)
        assert len(players) == count and all(p.computer for p in players)
        assert len({p.name for p in players}) == len({p.email for p in players}) == count
    for wrong in (ruleset.min_players - 1, most + 1):
        with pytest.raises(UsageError, match=f"not {wrong}"):
            ruleset.demo_players(wrong)


# -- refassist new: map options through the ruleset's flags ----------------------------------


def _variant(map_required: bool, generates_maps: bool) -> Ruleset:
    """The first ruleset with other map flags (the flags are all the CLI looks at)."""
    base = type(RULESETS[0])
    return type(
        "Variant", (base,), {"map_required": map_required, "generates_maps": generates_maps}
    )()


def test_map_options_follow_what_the_game_needs(tmp_path: Path) -> None:
    from refassist.cli.game_commands import check_map_options, map_choice
    from refassist.errors import UsageError

    there = tmp_path / "map.txt"
    there.write_text("x")
    sector_game = _variant(map_required=True, generates_maps=True)
    with pytest.raises(UsageError, match="exactly one of --sector FILE or --generate-sector"):
        check_map_options(sector_game, None, None)
    with pytest.raises(UsageError, match="exactly one of"):
        check_map_options(sector_game, there, 4)
    check_map_options(sector_game, there, None)
    check_map_options(sector_game, None, 4)
    with pytest.raises(UsageError, match=r"map file .*nope\.txt not found"):
        check_map_options(sector_game, tmp_path / "nope.txt", None)

    default_map_game = _variant(map_required=False, generates_maps=False)
    check_map_options(default_map_game, None, None)
    check_map_options(default_map_game, there, None)
    with pytest.raises(UsageError, match=r"does not generate maps.*default map"):
        check_map_options(default_map_game, None, 4)

    map_only_game = _variant(map_required=True, generates_maps=False)
    with pytest.raises(UsageError, match="needs a map: give --map FILE"):
        check_map_options(map_only_game, None, None)

    assert map_choice(there, None) == there and map_choice(None, there) == there
    assert map_choice(there, there) == there and map_choice(None, None) is None
    with pytest.raises(UsageError, match="another name for --map"):
        map_choice(there, tmp_path / "other.txt")


def test_new_takes_map_as_the_sector_option(tmp_path: Path) -> None:
    """`--map FILE` and `--sector FILE` make the same game of a hex-sector ruleset (the
    players choose their homeworlds: a draw at creation is keyed with each game's own
    random secret, docs/dice.md)."""
    from click.testing import CliRunner

    from refassist.cli import main
    from refassist.geometry.sectors import generate_sector, write_tab

    ruleset = next(r for r in RULESETS if r.map_required and r.generates_maps)
    sector = tmp_path / "home.tab"
    sector.write_text(write_tab(generate_sector(11)), encoding="utf-8")
    players = tmp_path / "players.csv"
    players.write_text("name,email\nAnn,ann@example.com\nBob,bob@example.com\n")
    exports = []
    for option in ("--map", "--sector"):
        folder = tmp_path / option.strip("-")
        args = ["new", str(folder), "--ruleset", ruleset.name, "--players", str(players)]
        args += [option, str(sector), "--seed", "3", "--name", "Same"]
        made = CliRunner().invoke(main, args)
        assert made.exit_code == 0, made.output
        game = Game.open(folder)
        exports.append(game.ruleset.to_json(game.load_state()))
        assert game.config.map == str(sector)
    assert exports[0] == exports[1]


@pytest.mark.parametrize(
    "ruleset", [r for r in RULESETS if not r.map_required], ids=lambda r: r.name
)
def test_new_without_a_map_plays_the_default_map(ruleset: Ruleset, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from refassist.cli import main

    players = tmp_path / "players.csv"
    players.write_text(
        "name,email\n"
        + "".join(f"{p.name},{p.email}\n" for p in ruleset.demo_players(ruleset.min_players))
    )
    args = ["new", str(tmp_path / "g"), "--ruleset", ruleset.name, "--players", str(players)]
    made = CliRunner().invoke(main, args)
    assert made.exit_code == 0, made.output
    assert f"({ruleset.title}, {ruleset.min_players} players" in made.output
    refused = CliRunner().invoke(
        main, ["new", str(tmp_path / "h"), *args[2:], "--generate-sector", "1"]
    )
    assert refused.exit_code == 2 and "does not generate maps" in refused.output


def test_new_passes_the_scenario_file_to_the_ruleset(tmp_path: Path, monkeypatch) -> None:
    """`--scenario FILE` reaches `NewGame.scenario_file`; a missing one is refused first."""
    from click.testing import CliRunner

    from refassist.cli import main
    from refassist.rulesets.base import NewGame

    ruleset = RULESETS[0]
    seen: list[NewGame] = []
    original = type(ruleset).new_game

    def spy(self, setup, dice):  # type: ignore[no-untyped-def]
        seen.append(setup)
        return original(self, setup, dice)

    monkeypatch.setattr(type(ruleset), "new_game", spy)
    players = tmp_path / "players.csv"
    players.write_text("name,email\nAnn,ann@example.com\nBob,bob@example.com\n")
    scenario = tmp_path / "forces.toml"
    scenario.write_text("# forces\n")
    base = ["new", "--ruleset", ruleset.name, "--players", str(players), "--assign-homeworlds"]
    base += ["--generate-sector", "5"] if ruleset.generates_maps else []
    missing = CliRunner().invoke(
        main, [base[0], str(tmp_path / "a"), *base[1:], "--scenario", str(tmp_path / "no.toml")]
    )
    assert missing.exit_code == 2 and "scenario file" in missing.output and not seen
    made = CliRunner().invoke(
        main, [base[0], str(tmp_path / "b"), *base[1:], "--scenario", str(scenario)]
    )
    assert made.exit_code == 0, made.output
    assert seen and seen[0].scenario_file == scenario


def test_rulesets_lists_every_game_with_players_map_and_aliases() -> None:
    from click.testing import CliRunner

    from refassist.cli import main

    listed = CliRunner().invoke(main, ["rulesets"])
    assert listed.exit_code == 0
    for ruleset in RULESETS:
        line = next(x for x in listed.output.splitlines() if x.startswith(f"{ruleset.name}: "))
        assert ruleset.title in line and f"{ruleset.min_players}" in line and "players" in line
        assert all(alias in line for alias in ruleset.aliases)
        assert ("default map" in line) == (not ruleset.map_required)


def _fake_games(root: Path, games: dict[str, str]) -> str:
    """A package under ``root`` with one subpackage per entry (its source); named after the
    folder so that no two tests share a cached import."""
    top = root / f"fakegames_{root.name}"
    top.mkdir()
    (top / "__init__.py").write_text("")
    (top / "loose.py").write_text("RULESET = None\n")  # a module, not a package: ignored
    for name, source in games.items():
        (top / name).mkdir()
        (top / name / "__init__.py").write_text(source)
    return top.name


GAME_SOURCE = """
from refassist.rulesets import RULESETS
class Game(type(RULESETS[0])):
    name = {name!r}
    aliases = {aliases!r}
    order = {order}
RULESET = Game()
"""


def test_discover_registers_game_packages_in_order_and_skips_helpers(
    tmp_path: Path, monkeypatch
) -> None:
    from refassist.rulesets import discover

    monkeypatch.syspath_prepend(str(tmp_path))
    package = _fake_games(
        tmp_path,
        {
            "zeta": GAME_SOURCE.format(name="zeta", aliases=("z",), order=5),
            "beta": GAME_SOURCE.format(name="beta", aliases=(), order=1),
            "alpha": GAME_SOURCE.format(name="alpha", aliases=(), order=5),
            "helpers": "SHARED = 1\n",
        },
    )
    assert [r.name for r in discover(package)] == ["beta", "alpha", "zeta"]


def test_discover_refuses_a_name_two_games_claim(tmp_path: Path, monkeypatch) -> None:
    from refassist.rulesets import discover

    monkeypatch.syspath_prepend(str(tmp_path))
    package = _fake_games(
        tmp_path,
        {
            "one": GAME_SOURCE.format(name="one", aliases=("war",), order=1),
            "two": GAME_SOURCE.format(name="two", aliases=("WAR",), order=2),
        },
    )
    with pytest.raises(TypeError, match="'WAR' names both one and two"):
        discover(package)


def test_discover_refuses_a_ruleset_that_is_not_one(tmp_path: Path, monkeypatch) -> None:
    from refassist.rulesets import discover

    monkeypatch.syspath_prepend(str(tmp_path))
    package = _fake_games(tmp_path, {"odd": "RULESET = 'chess'\n"})
    with pytest.raises(TypeError, match="is not a Ruleset"):
        discover(package)
