"""Shared fixtures: players files, small games, the real sector folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from refassist.game import Game
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup

REPO = Path(__file__).resolve().parents[1]
SHARED_SECTORS = REPO.parent / "shared" / "sectors"


def shared_sector(name: str) -> Path:
    """A real Traveller file from ../shared/sectors (CI has them; never copied here)."""
    path = SHARED_SECTORS / name
    if not path.exists():
        pytest.skip(f"{path} is not present (the real sector files live in ../shared/sectors)")
    return path


def players(n: int) -> list[PlayerSetup]:
    names = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lu"]
    return [PlayerSetup(names[i], f"{names[i].lower()}@example.com") for i in range(n)]


@pytest.fixture
def fm():
    return find_ruleset("fifth-millennium")


@pytest.fixture
def small_game(tmp_path: Path, fm) -> Game:
    """A 3-player game on a generated sector with assigned homeworlds."""
    return Game.create(
        tmp_path / "game", fm, players(3), seed=11, generate_seed=42, assign_homeworlds=True
    )


@pytest.fixture
def players_csv(tmp_path: Path):
    def write(text: str) -> Path:
        path = tmp_path / "players.csv"
        path.write_text(text, encoding="utf-8")
        return path

    return write
