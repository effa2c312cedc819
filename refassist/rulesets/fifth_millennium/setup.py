"""Creating a Fifth Millennium game: systems from a sector, players, homeworlds.

Homeworld rules (section 2.2 and the digest): a class A system, at distance >= 6 (house rule
``homeworld_min_distance``) from every other homeworld.  A violation is refused with both
players, both hexes and the distance named, because that is what the referee has to fix in
``players.csv``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...dice import Dice
from ...errors import SetupError
from ...geometry.hexcache import distance
from ...geometry.hexmap import parse_hex
from ...geometry.sectors import Sector, generate_sector, read_sector
from ..base import NewGame, fields_of
from .rules import complete
from .state import FIRST_YEAR, SETUP_YEAR, Fleet, Force, Player, State, System


def load_sector(setup: NewGame, house_rules: Mapping[str, Any]) -> Sector:
    """The sector named by the set-up: a file, or one generated from a seed."""
    if setup.map_file is not None:
        return read_sector(
            setup.map_file, count_k_bases=bool(complete(house_rules)["count_k_bases"])
        )
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
            **fields_of(w, "naval_base scout_base hipop"),
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

    Spreading players out wastes room, though: on a crowded map (many players, or a large
    ``homeworld_min_distance``) it can run out of candidates where a tighter packing would seat
    everyone.  So it is first tried on a copy of the dice; if it runs out, the homeworlds are
    packed instead (`_pack`), and only if that fails too is the set-up refused, saying how many
    players the map can seat.
    """
    class_a = sorted(s.hex for s in state.systems if s.resource_class == "A")
    if _spread(class_a, fixed, wanting, min_distance, copy.deepcopy(dice)) is not None:
        picks = _spread(class_a, fixed, wanting, min_distance, dice)
        assert picks is not None  # the same dice give the same picks
        return picks
    picks = _pack(class_a, fixed, wanting, min_distance, dice)
    if picks is None:
        seats = len(_packed_seats(class_a, fixed, min_distance, len(class_a)))
        raise SetupError(
            f"only {seats} of the {len(wanting)} players without a homeworld can be given a "
            f"class A system at least {min_distance} hexes from every other homeworld "
            f"({len(class_a)} class A systems on the map); use a larger sector, fewer players, "
            "a smaller house rule homeworld_min_distance, or choose homeworlds in players.csv"
        )
    return picks


def _nearest(candidates: Sequence[str], chosen: Iterable[str]) -> dict[str, int]:
    """Each candidate's distance to the nearest chosen homeworld (99 when none is chosen)."""
    nearest = dict.fromkeys(candidates, 99)
    for c in chosen:
        _seated(nearest, c)
    return nearest


def _seated(nearest: dict[str, int], homeworld: str) -> None:
    """Bring each candidate's distance to the nearest homeworld up to date for a new one."""
    for h in nearest:
        d = distance(h, homeworld)
        if d < nearest[h]:
            nearest[h] = d


def _spread(
    class_a: list[str],
    fixed: Mapping[str, str],
    wanting: Sequence[str],
    min_distance: int,
    dice: Dice,
) -> dict[str, str] | None:
    """The spreading assignment (see `assign_homeworlds`), or None when it runs out.

    Each candidate's distance to the nearest chosen homeworld is kept up to date as players
    are seated, instead of measured again against every homeworld for every pick.
    """
    chosen = dict(fixed)
    nearest = _nearest(class_a, chosen.values())
    with dice.at(phase="setup"):
        for player in wanting:
            candidates = [h for h in class_a if nearest[h] >= min_distance]
            if not candidates:
                return None
            if chosen:
                candidates.sort(key=lambda h: (-nearest[h], h))
                candidates = candidates[: max(1, len(candidates) // 4)]
            pick = candidates[dice.choice_index(len(candidates), f"homeworld for {player}")]
            chosen[player] = pick
            _seated(nearest, pick)
    return {p: chosen[p] for p in wanting}


def _pack(
    class_a: list[str],
    fixed: Mapping[str, str],
    wanting: Sequence[str],
    min_distance: int,
    dice: Dice,
) -> dict[str, str] | None:
    """Seat players as tightly as the rule allows, or None when even that runs out.

    The seats are found first (`_packed_seats`, no chance involved); then each player's seat
    among those left is a logged die roll.
    """
    seats = _packed_seats(class_a, fixed, min_distance, len(wanting))
    if len(seats) < len(wanting):
        return None
    chosen: dict[str, str] = {}
    with dice.at(phase="setup"):
        for player in wanting:
            pick = seats.pop(dice.choice_index(len(seats), f"homeworld for {player}"))
            chosen[player] = pick
    return chosen


def _packed_seats(
    class_a: list[str], fixed: Mapping[str, str], min_distance: int, wanted: int
) -> list[str]:
    """Up to ``wanted`` class A systems far enough from the fixed homeworlds and each other,
    picked by the usual greedy for packing: each time the seat that rules out the fewest other
    seats (the first in hex order on a tie).  Sorted by hex."""
    open_ = _open_seats(class_a, fixed, min_distance)
    conflicts = _conflicts(open_, min_distance)
    seats: list[str] = []
    while open_ and len(seats) < wanted:
        pick = min(sorted(open_), key=lambda h: len(conflicts[h] & open_))
        seats.append(pick)
        open_ -= conflicts[pick] | {pick}
    return sorted(seats)


def _open_seats(class_a: list[str], fixed: Mapping[str, str], min_distance: int) -> set[str]:
    nearest = _nearest(class_a, fixed.values())
    return {h for h in class_a if nearest[h] >= min_distance}


def _conflicts(seats: set[str], min_distance: int) -> dict[str, set[str]]:
    """For each seat, the other seats too close to it."""
    ordered = sorted(seats)
    out: dict[str, set[str]] = {h: set() for h in ordered}
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if distance(a, b) < min_distance:
                out[a].add(b)
                out[b].add(a)
    return out


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
