"""Shared fixtures: players files, small games, the real sector folder."""

from __future__ import annotations

import hashlib
import inspect
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.store.game import Game

REPO = Path(__file__).resolve().parents[1]
SHARED_SECTORS = REPO.parent / "shared" / "sectors"


def in_new_interpreter(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new Python from the repository (it has imported nothing yet: what a
    command or a render imports shows in its ``sys.modules``); its output as text."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )


#: Set by the `random_secrets` fixture: games get their random secret, as in real use.
_RANDOM_SECRETS: list[bool] = [False]


@pytest.fixture(autouse=True, scope="session")
def _repeatable_game_secrets() -> Iterator[None]:
    """Games made in tests get a secret derived from how they were made, not a random one.

    The secret keys every turn's dice seed (`refassist.dice.turn_seed`), so with random
    secrets a test that plays computer turns would play a different game on each run, and a
    test that needs the game to reach some point (nobody eliminated in twenty turns, a battle
    by turn ten) would fail now and then.  Folder name, seed, players and ruleset tell the
    test's games apart; a test that passes its own secret keeps it, and a test that uses the
    `random_secrets` fixture gets the real, random ones.
    """
    original = Game.create.__func__  # type: ignore[attr-defined]
    signature = inspect.signature(original)

    def create(cls: type[Game], *args: Any, **kwargs: Any) -> Game:
        given = signature.bind(cls, *args, **kwargs).arguments
        if given.get("secret") is None and not _RANDOM_SECRETS[0]:
            key = "|".join(
                (
                    Path(given["path"]).name,
                    str(given.get("seed")),
                    ",".join(p.name for p in given["players"]),
                    given["ruleset"].name,
                )
            )
            kwargs["secret"] = hashlib.sha256(f"refassist-test:{key}".encode()).hexdigest()[:32]
        return original(cls, *args, **kwargs)

    patch = pytest.MonkeyPatch()
    patch.setattr(Game, "create", classmethod(create))
    yield
    patch.undo()


@pytest.fixture
def random_secrets() -> Iterator[None]:
    """This test's games draw their secrets at random, as `refassist new` does for real."""
    _RANDOM_SECRETS[0] = True
    try:
        yield
    finally:
        _RANDOM_SECRETS[0] = False


def missing_shared(reason: str) -> None:
    """The shared material (real sector files, the games' original rules) is not beside the
    repository: fail, saying where it belongs.  These tests check refassist against the real
    files; skipping them would let the suite pass without having checked anything."""
    pytest.fail(f"{reason}; put the project's shared/ folder beside the repository (../shared)")


def shared_sector(name: str) -> Path:
    """A real Traveller file from ../shared/sectors (CI has them; never copied here)."""
    path = SHARED_SECTORS / name
    if not path.exists():
        missing_shared(f"{path} is not present (the real sector files live in ../shared/sectors)")
    return path


def players(n: int) -> list[PlayerSetup]:
    names = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lu"]
    return [PlayerSetup(names[i], f"{names[i].lower()}@example.com") for i in range(n)]


def three_player_game(folder: Path, **options: Any) -> Game:
    """A Fifth Millennium game of Ann, Bob and Cleo on a generated sector (seeds 11 and 42,
    homeworlds assigned), in ``folder``; ``options`` go to `Game.create` as well."""
    return Game.create(
        folder,
        find_ruleset("fifth-millennium"),
        players(3),
        seed=11,
        generate_seed=42,
        assign_homeworlds=True,
        **options,
    )


@pytest.fixture
def fm():
    return find_ruleset("fifth-millennium")


@pytest.fixture
def small_game(tmp_path: Path, fm) -> Game:
    """A 3-player game on a generated sector with assigned homeworlds."""
    return three_player_game(tmp_path / "game")


@pytest.fixture
def players_csv(tmp_path: Path):
    def write(text: str) -> Path:
        path = tmp_path / "players.csv"
        path.write_text(text, encoding="utf-8")
        return path

    return write
