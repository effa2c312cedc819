"""Creating a campaign: the map, the commanders at their home systems, the design list.

A commander is placed at the home system its ``players.csv`` line names (the homeworld
column), or at a home system drawn at random from those left (a logged die, so the draw is
on the record).  The game opens at week 0, the set-up, where each commander spends the
starting points on ships (`resolve`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...dice import Dice
from ...errors import SetupError
from ..base import NewGame
from .designs import STANDARD_DESIGNS
from .mapfile import load_map
from .state import Commander, Facility, State

SETUP_WEEK = 0


def ship_code(name: str, taken: set[str]) -> str:
    """A commander's prefix for ship ids: the first three letters of the name in capitals,
    made unique with a digit (``ANN``, ``ANN2``)."""
    letters = re.sub(r"[^A-Za-z]", "", name).upper()[:3] or "CMD"
    code, n = letters, 1
    while code in taken:
        n += 1
        code = f"{letters}{n}"
    taken.add(code)
    return code


def new_game(setup: NewGame, dice: Dice, rules: Mapping[str, Any]) -> State:
    found = load_map(setup.map_file)
    homes = [s.name for s in found.systems.values() if s.home]
    if len(setup.players) < 2:
        raise SetupError("the campaign needs at least two commanders")
    if len(setup.players) > len(homes):
        raise SetupError(
            f"{len(setup.players)} commanders, but the map has {len(homes)} home systems; "
            "mark more systems home = true, or play with fewer"
        )
    by_name = {h.lower(): h for h in homes}
    chosen: dict[str, str] = {}
    for p in setup.players:
        wanted = p.homeworld.strip()
        if not wanted:
            continue
        home = by_name.get(wanted.lower())
        if home is None:
            raise SetupError(
                f"commander {p.name}: {wanted!r} is not a home system of the map "
                f"(home systems: {', '.join(homes)})"
            )
        if home in chosen.values():
            raise SetupError(f"two commanders asked for {home} as their home system")
        chosen[p.name] = home
    commanders: list[Commander] = []
    codes: set[str] = set()
    facilities: list[Facility] = []
    for p in setup.players:
        if p.name not in chosen:
            free = [h for h in homes if h not in chosen.values()]
            pick = dice.choice_index(len(free), f"home system of {p.name}") if len(free) > 1 else 0
            chosen[p.name] = free[pick]
        home = chosen[p.name]
        code = ship_code(p.name, codes)
        commanders.append(
            Commander(p.name, p.email, code=code, home=home, points=int(rules["starting_points"]))
        )
        # A home claimed is the commander's: its natives are its own people, not defenders
        # against it.  A home left unclaimed keeps its indigenous fleet (L129).
        found.systems[home].owner = p.name
        found.systems[home].indigenous = 0
        if rules["home_shipyard"]:
            facilities.append(Facility(f"{code}-YARD", "shipyard", p.name, home))
    return State(
        game_name=setup.game_name,
        game_id=setup.game_id,
        week=SETUP_WEEK,
        commanders=commanders,
        systems=found.systems,
        obstacles=found.obstacles,
        designs={d.name: d for d in STANDARD_DESIGNS},
        facilities=facilities,
        columns=found.columns,
        rows=found.rows,
        map_title=found.title,
        map_source=found.source,
    )


__all__ = ["SETUP_WEEK", "new_game", "ship_code"]
