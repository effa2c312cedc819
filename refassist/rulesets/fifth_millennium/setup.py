"""Creating a Fifth Millennium game: systems from a sector, players, homeworlds.

Homeworld rules (section 2.2 and the digest): a class A system, at distance >= 6 (house rule
``homeworld_min_distance``) from every other homeworld.  A violation is refused with both
players, both hexes and the distance named, because that is what the referee has to fix in
``players.csv``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...dice import Dice
from ...errors import SetupError
from ...hexmap import distance, parse_hex
from ...sectors import Sector, generate_sector, read_sector
from ..base import NewGame
from .state import FIRST_YEAR, SETUP_YEAR, Fleet, Force, Player, State, System


def load_sector(setup: NewGame, house_rules: Mapping[str, Any]) -> Sector:
    """The sector named by the set-up: a file, or one generated from a seed."""
    if setup.map_file is not None:
        return read_sector(setup.map_file, count_k_bases=bool(house_rules.get("count_k_bases")))
    seed = setup.generate_seed if setup.generate_seed is not None else 1
    return generate_sector(seed)


def systems_from_sector(sector: Sector) -> list[System]:
    """One `System` per world: class = starport, N/S bases, HiPop."""
    return [
        System(
            hex=w.hex,
            name=w.name or w.hex,
            original_class=w.starport,
            resource_class=w.starport,
            naval_base=w.naval_base,
            scout_base=w.scout_base,
            hipop=w.hipop,
            map_naval_base=w.naval_base,
            map_scout_base=w.scout_base,
            map_hipop=w.hipop,
        )
        for w in sector.worlds
    ]


def check_homeworlds(state: State, choices: Mapping[str, str], min_distance: int) -> list[str]:
    """Problems with a set of homeworld choices (player -> hex), one sentence each."""
    problems = []
    for player, hex_ in choices.items():
        system = state.system(hex_)
        if system is None:
            problems.append(f"{player}'s homeworld {hex_} is not a star system on the map")
        elif system.resource_class != "A":
            problems.append(
                f"{player}'s homeworld {hex_} ({system.name}) is class {system.resource_class}; "
                "a homeworld must be a class A system"
            )
    items = sorted(choices.items())
    for i, (p1, h1) in enumerate(items):
        for p2, h2 in items[i + 1 :]:
            d = distance(h1, h2)
            if d < min_distance:
                problems.append(
                    f"homeworlds of {p1} ({h1}) and {p2} ({h2}) are {d} hexes apart; "
                    f"they must be at least {min_distance} apart"
                )
    return problems


def assign_homeworlds(
    state: State, fixed: Mapping[str, str], wanting: Sequence[str], min_distance: int, dice: Dice
) -> dict[str, str]:
    """Choose homeworlds for ``wanting`` players around the ``fixed`` ones.

    Candidates are the class A systems far enough from every chosen homeworld; each pick is a
    logged die roll among them, so an assignment can be shown and replayed.  Candidates are
    ranked by their distance to the nearest chosen homeworld and the roll picks among the best
    quarter, which spreads players out without making the map predictable.
    """
    chosen = dict(fixed)
    class_a = sorted(s.hex for s in state.systems if s.resource_class == "A")
    with dice.at(phase="setup"):
        for player in wanting:
            candidates = [
                h for h in class_a if all(distance(h, c) >= min_distance for c in chosen.values())
            ]
            if not candidates:
                raise SetupError(
                    f"no class A system is left at least {min_distance} hexes from every other "
                    f"homeworld for {player}; use a larger sector, fewer players, or choose "
                    "homeworlds in players.csv"
                )
            if chosen:
                candidates.sort(key=lambda h: (-min(distance(h, c) for c in chosen.values()), h))
                candidates = candidates[: max(1, len(candidates) // 4)]
            pick = candidates[dice.choice_index(len(candidates), f"homeworld for {player}")]
            chosen[player] = pick
    return {p: chosen[p] for p in wanting}


def place_homeworld(state: State, player: str, hex_: str, squadrons: int) -> None:
    """Make ``hex_`` the player's homeworld with its starting fleet (not a change of hands)."""
    p = state.player(player)
    assert p is not None
    p.homeworld = hex_
    system = state.system(hex_)
    assert system is not None
    system.owner = player
    state.forces.append(Force(hex=hex_, owner=player, fleet=Fleet(F=squadrons)))


def new_game(setup: NewGame, dice: Dice, house_rules: Mapping[str, Any]) -> State:
    """The first state: year 5001, or 5000 when some homeworlds are chosen on set-up sheets."""
    names = [p.name for p in setup.players]
    sector = load_sector(setup, house_rules)
    state = State(
        game_id=setup.game_id,
        game_name=setup.game_name,
        year=FIRST_YEAR,
        systems=systems_from_sector(sector),
        players=[
            Player(name=n, computer=p.computer) for n, p in zip(names, setup.players, strict=True)
        ],
        subsector_names=dict(sector.subsector_names),
        sector_name=sector.name,
    )
    min_distance = int(house_rules["homeworld_min_distance"])
    fixed: dict[str, str] = {}
    for p in setup.players:
        if p.homeworld:
            try:
                fixed[p.name] = parse_hex(p.homeworld)
            except ValueError:
                raise SetupError(
                    f"{p.name}'s homeworld {p.homeworld!r} is not a hex id "
                    "(write four digits, e.g. 1827)"
                ) from None
    problems = check_homeworlds(state, fixed, min_distance)
    if problems:
        raise SetupError("; ".join(problems))
    wanting = [n for n in names if n not in fixed]
    if wanting and setup.assign_homeworlds:
        fixed.update(assign_homeworlds(state, fixed, wanting, min_distance, dice))
        wanting = []
    for name in names:
        if name in fixed:
            place_homeworld(state, name, fixed[name], int(house_rules["start_squadrons"]))
    if wanting:
        state.year = SETUP_YEAR
    state.normalise()
    return state
