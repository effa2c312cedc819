"""The golden games: a small game of each ruleset played by computer players, turn by turn.

`tests/test_golden.py` plays them and compares every turn's state (the JSON export) with the
files checked in under ``tests/golden/<ruleset>/``; `scripts/regenerate_golden.py` writes those
files again when a rule change is intended.  Each game's map is kept beside its golden states
(a small sector file for Fifth Millennium: subsectors A-C of a generated sector; a copy of the
default map and scenario for Imperium 3rd Millennium), so a change to the sector generator or
to the shipped map cannot move a golden game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import NewGame, PlayerSetup

GOLDEN_DIR = Path(__file__).parent / "golden" / "fifth-millennium"
SECTOR_FILE = GOLDEN_DIR / "sector.tab"
PLAYERS = ("Ann", "Bob", "Cleo")
GAME_SEED = 5
SECTOR_SEED = 7
TURNS = 10
#: The golden map: the generated sector's worlds in these columns and rows.
MAX_COLUMN = 24
MAX_ROW = 10


#: The Imperium 3rd Millennium golden game: the map and scenario copied beside its states.
IMPERIUM_DIR = Path(__file__).parent / "golden" / "imperium-3m"
IMPERIUM_PLAYERS = ("Terra", "Empire")
IMPERIUM_SEED = 11

#: Every golden game: ruleset name -> folder of its recorded states.
GOLDEN_DIRS = {"fifth-millennium": GOLDEN_DIR, "imperium-3m": IMPERIUM_DIR}


def golden_path(year: int, ruleset: str = "fifth-millennium") -> Path:
    return GOLDEN_DIRS[ruleset] / f"{year}.json"


def dumps(data: dict[str, Any]) -> str:
    """Stable, compact text for a state: sorted keys, one top-level key or list item a line,
    so a diff shows which system, force or event changed."""

    def one(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    keys = sorted(data)
    for n, key in enumerate(keys):
        end = "," if n < len(keys) - 1 else ""
        value = data[key]
        if isinstance(value, list) and value:
            lines.append(f"{one(key)}:[")
            lines.extend(
                one(item) + ("," if i < len(value) - 1 else "") for i, item in enumerate(value)
            )
            lines.append(f"]{end}")
        else:
            lines.append(f"{one(key)}:{one(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def play(ruleset_name: str = "fifth-millennium") -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (turn resolved, JSON export of the state after it) for every golden turn."""
    if ruleset_name == "imperium-3m":
        yield from play_imperium()
        return
    ruleset = find_ruleset("fifth-millennium")
    rules = ruleset.default_house_rules()
    setup = NewGame(
        game_name="Golden",
        game_id="golden",
        players=tuple(PlayerSetup(p, f"{p.lower()}@example.com", computer=True) for p in PLAYERS),
        house_rules=rules,
        map_file=SECTOR_FILE,
        assign_homeworlds=True,
    )
    state = ruleset.new_game(setup, Dice.for_turn(GAME_SEED, 0))
    for _ in range(TURNS):
        year = state.year
        orders = {
            p: ruleset.computer_orders(state, p, GAME_SEED, rules) for p in state.active_players()
        }
        state = ruleset.resolve(state, orders, Dice.for_turn(GAME_SEED, year), rules).state
        yield year, ruleset.to_json(state)
        if state.finished:
            break


def play_imperium() -> Iterator[tuple[int, dict[str, Any]]]:
    """The Imperium 3rd Millennium golden game: ten turns of war between computer players."""
    ruleset = find_ruleset("imperium-3m")
    rules = ruleset.default_house_rules()
    setup = NewGame(
        game_name="Golden",
        game_id="golden",
        players=tuple(
            PlayerSetup(p, f"{p.lower()}@example.com", computer=True) for p in IMPERIUM_PLAYERS
        ),
        house_rules=rules,
        map_file=IMPERIUM_DIR / "map.toml",
        scenario_file=IMPERIUM_DIR / "scenario.toml",
    )
    state = ruleset.new_game(setup, Dice.for_turn(IMPERIUM_SEED, 0))
    for _ in range(TURNS):
        turn = state.turn
        orders = {
            p: ruleset.computer_orders(state, p, IMPERIUM_SEED, rules)
            for p in ruleset.players(state)
        }
        state = ruleset.resolve(state, orders, Dice.for_turn(IMPERIUM_SEED, turn), rules).state
        yield turn, ruleset.to_json(state)
        if state.finished:
            break
