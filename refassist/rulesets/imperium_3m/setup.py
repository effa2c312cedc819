"""Creating a game: the map, the two sides, the scenario's starting forces.

Players are matched to sides by the ``homeworld`` column of ``players.csv`` when it says
``Terran`` or ``Imperial``; otherwise the first player is Terran and the second Imperial.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dice import Dice
from ...errors import SetupError
from ..base import NewGame
from .mapfile import load_map, load_scenario
from .rules import complete
from .state import Fleet, SideState, State, Unit
from .units import IMPERIAL, SIDES, TERRAN, TROOP_COUNTERS


def assign_sides(setup: NewGame) -> dict[str, str]:
    """side -> player name."""
    if len(setup.players) != 2:
        raise SetupError(
            f"Imperium 3rd Millennium is played by two sides, Terran and Imperial; the players "
            f"file names {len(setup.players)} players (a team shares one sheet: list it once)"
        )
    wanted = {p.name: p.homeworld.strip().capitalize() for p in setup.players}
    sides: dict[str, str] = {}
    for p in setup.players:
        if wanted[p.name] in SIDES:
            if wanted[p.name] in sides:
                raise SetupError(f"both players asked for the {wanted[p.name]} side")
            sides[wanted[p.name]] = p.name
        elif wanted[p.name]:
            raise SetupError(
                f"player {p.name}: side {p.homeworld!r} is not Terran or Imperial "
                "(the homeworld column names the side in this game)"
            )
    for p in setup.players:
        if p.name not in sides.values():
            free = next(s for s in SIDES if s not in sides)
            sides[free] = p.name
    return sides


def draw_troop(state: State, side: str, code: str, dice: Dice) -> Unit | None:
    """A troop counter drawn at random from those not in play (None if all are in play)."""
    mix = TROOP_COUNTERS[side][code]
    in_play = {u.id for u in state.units if u.side == side}
    in_play |= {q.unit_id for q in state.queue if q.side == side and q.unit_id}
    free = [n for n in range(1, len(mix) + 1) if f"{code}{n}" not in in_play]
    if not free:
        return None
    pick = dice.choice_index(len(free), f"{side} {code} counter drawn") if len(free) > 1 else 0
    return troop_counter(side, code, f"{code}{free[pick]}")


def troop_counter(side: str, code: str, unit_id: str) -> Unit | None:
    """The troop counter ``unit_id`` (``RT5``) with its printed strengths, or None when the
    counter mix has no such counter."""
    number = unit_id.removeprefix(code)
    mix = TROOP_COUNTERS[side].get(code, ())
    if not number.isdigit() or not 1 <= int(number) <= len(mix):
        return None
    full, reduced = mix[int(number) - 1]
    return Unit(id=unit_id, side=side, code=code, strength=full, reduced_strength=reduced)


def reserved_unit(state: State, side: str, code: str, unit_id: str) -> Unit | None:
    """The counter a turn-record-track entry reserved, if it is still free (a hand-edited
    master workbook may have put it in play meanwhile)."""
    if any(u.side == side and u.id == unit_id for u in state.units):
        return None
    if code in ("RT", "JT"):
        return troop_counter(side, code, unit_id)
    return Unit(id=unit_id, side=side, code=code)


def reserve_counter(state: State, side: str, code: str, dice: Dice) -> str:
    """The id of the counter a unit going on the turn record track will be: the lowest free
    one, a troop drawn at random ("new constructed jump/regular troops are randomly drawn");
    "" when none is free (it is then decided on arrival, as before)."""
    unit = new_unit(state, side, code, dice)
    return unit.id if unit is not None else ""


def new_unit(state: State, side: str, code: str, dice: Dice) -> Unit | None:
    """A new counter of ``code`` for ``side``, or None when every counter is in play."""
    from .units import counters_available

    if code in ("RT", "JT"):
        return draw_troop(state, side, code, dice)
    in_play = sum(1 for u in state.units if u.side == side and u.code == code)
    in_play += sum(1 for q in state.queue if q.side == side and q.code == code and q.unit_id)
    if in_play >= counters_available(side, code):
        return None
    return Unit(id=state.next_unit_id(side, code), side=side, code=code)


def new_game(setup: NewGame, dice: Dice, rules: Mapping[str, Any]) -> State:
    rules = complete(rules)
    game_map = load_map(setup.map_file)
    scenario_path = setup.scenario_file
    if setup.map_file is not None and scenario_path is None:
        raise SetupError(
            "a map of your own needs a scenario file with each side's starting forces "
            "(--scenario FILE; format in docs/imperium-map.md)"
        )
    scenario = load_scenario(scenario_path, game_map)
    names = assign_sides(setup)
    sides = {
        side: SideState(
            side=side,
            player=names[side],
            resources=(
                int(rules["starting_resources"])
                if int(rules["starting_resources"]) >= 0
                else int(scenario[side].get("resources", 0))
            ),
        )
        for side in SIDES
    }
    state = State(
        game_name=setup.game_name,
        game_id=setup.game_id,
        map=game_map,
        sides=sides,
        campaign=bool(rules["campaign"]),
    )
    with dice.at(phase="setup"):
        for side in (TERRAN, IMPERIAL):
            for f in scenario[side].get("fleets", []):
                name = str(f.get("name") or f"{side[0]}{len(state.fleets) + 1}")
                if state.fleet(name) is not None:
                    raise SetupError(f"scenario: fleet name {name} is used twice")
                state.fleets.append(Fleet(name=name, side=side, system=f["system"].upper()))
                for code in f.get("units", []):
                    unit = new_unit(state, side, code, dice)
                    if unit is None:
                        raise SetupError(f"scenario: {side} has no {code} counter left")
                    unit.fleet = name
                    state.units.append(unit)
            for g in scenario[side].get("ground", []):
                planet = state.map.planets[g["planet"].upper()]
                for code in g.get("units", []):
                    unit = new_unit(state, side, code, dice)
                    if unit is None:
                        raise SetupError(f"scenario: {side} has no {code} counter left")
                    unit.planet = planet.code
                    state.units.append(unit)
    _check_fleets(state, dice, rules)
    return state


def _check_fleets(state: State, dice: Dice, rules: Mapping[str, Any]) -> None:
    """Every scenario fleet can carry what it holds and has a ship: a fleet that could never
    move (troops without transports, fighters without a carrier) is a mistake in the file."""
    from .context import TurnContext
    from .segments import capacity_problem, ships_of

    ctx = TurnContext(state=state, dice=dice, rules=rules)
    problems = []
    for fleet in state.fleets:
        units = state.units_in_fleet(fleet.name)
        if not ships_of(units):
            problems.append(f"fleet {fleet.name} has no ship")
        elif why := capacity_problem(ctx, units):
            problems.append(f"fleet {fleet.name}: {why}")
    if problems:
        raise SetupError("scenario: " + "; ".join(problems))
