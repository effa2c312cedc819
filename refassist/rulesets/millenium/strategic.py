"""Strategic movement (rule VII A): normal moves sector by sector, stacking, and hyperspace
jumps with TAB 3's deviation, the direction rose DR and the arrival rose SA.

Both the checker and the resolution call these functions, so a move the sheet accepts is the
move the turn carries out.  Dice are rolled only where TAB 3 needs them: a deviation row whose
six values agree needs no roll, and no direction is rolled for a deviation of 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...dice import Dice
from ...text.i18n import said
from .charts import DIRECTIONS, FREE, Tables
from .geometry import (
    LANDING_COST,
    MOVE_POINTS,
    OUTER,
    STEP,
    Position,
    StrategicMap,
    Zone,
)
from .state import Fleet

#: The most ships two or more of one side's fleets may hold together in one sector (a large
#: fleet's capacity, rule VII A 1).
STACK_LIMIT = 7


@dataclass
class MoveCheck:
    """A normal move checked step by step: the points it costs, the sectors it crossed (for
    card reveals) and what is wrong with it, if anything."""

    cost: int = 0
    crossed: list[Position] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_path(
    game_map: StrategicMap,
    start: Position,
    path: Sequence[Position],
    *,
    landing: bool = False,
    points: int = MOVE_POINTS,
) -> MoveCheck:
    """Check a normal move from ``start`` through ``path`` (each entry one step: a sector on
    the same level, or a level up or down in place).  ``landing`` adds the 2 points of a
    landing at the end, which must be at a system.  Stepping off the map is refused; a fleet
    waiting outside may step on."""
    result = MoveCheck()
    here = start
    for step in path:
        cost = game_map.step_cost(here, step)
        if cost is None:
            result.problems.append(
                said(
                    "{step} is not one step from {here} (a neighbouring sector on the same "
                    "level, or one level up or down; no diagonals)",
                    step=step,
                    here=here,
                )
            )
            return result
        if not game_map.on_map(step.zone):
            result.problems.append(said("{step} is off the map", step=step))
            return result
        result.cost += cost
        result.crossed.append(step)
        here = step
    if landing:
        if game_map.system_at(here) is None:
            result.problems.append(
                said(
                    "a landing is made in a system's inner sector at its level; {here} is not one",
                    here=here,
                )
            )
        result.cost += LANDING_COST
    if result.cost > points:
        result.problems.append(
            said(
                "the move costs {cost} points; a fleet has {points}",
                cost=result.cost,
                points=points,
            )
        )
    return result


def waiting_over(fleet: Fleet) -> bool:
    """Whether a fleet waiting beyond the edge may come back this step, by normal movement or
    as a reserve enters (rule VII A 2: « obligée de rester immobile pendant 1 tour », 2 for
    more than 2 zones off).  ``wait`` counts the side's own turns it must still stand still; the
    turn lowers it after deciding who may move, so the checker, reading the state before the
    turn, and the turn decide alike by this one test."""
    return fleet.where == "waiting" and fleet.wait == 0


def can_land(game_map: StrategicMap, start: Position, path: Sequence[Position]) -> bool:
    """Whether a fleet moving along ``path`` keeps the landing's 2 points and ends at a system
    (rule VII B: a planet that surrenders is occupied « en respectant les règles du
    débarquement »).  A line marked to attack moves without them, since a battle needs no
    landing; the checker warns and the turn occupies a surrender only when this holds."""
    return check_path(game_map, start, path, landing=True).ok


def stack_problem(ships_by_fleet: Sequence[int]) -> str:
    """The stacking rule for one side's fleets in one sector and level: two or more fleets
    may stand together only up to 7 ships ("" if they may)."""
    if len(ships_by_fleet) >= 2 and sum(ships_by_fleet) > STACK_LIMIT:
        return said(
            "{fleets} fleets with {ships} ships in one sector; fleets together hold at most {most}",
            fleets=len(ships_by_fleet),
            ships=sum(ships_by_fleet),
            most=STACK_LIMIT,
        )
    return ""


@dataclass
class Jump:
    """A hyperspace jump as it ran: the zones counted, TAB 3's row and die, the deviation and
    its direction, where the fleet came out, and whether it left the map."""

    origin: Position
    target: Zone
    level: int
    zones: int
    maximum: bool
    deviation: int = 0
    deviation_die: int | None = None
    direction: str = ""
    direction_die: int | None = None
    arrival: Position | None = None
    arrival_die: int | None = None
    off_map_by: int = 0
    wait: int = 0

    @property
    def off_map(self) -> bool:
        return self.off_map_by > 0


def jump_problem(
    game_map: StrategicMap, tables: Tables, start: Position, zone: Zone, level: int
) -> str:
    """Why a jump from ``start`` to ``zone`` at ``level`` may not be made ("" if it may)."""
    if not game_map.on_map(zone):
        return said("the destination zone must be on the map")
    if not 1 <= level <= tables.levels:
        return said("levels run from 1 to {n}", n=tables.levels)
    zones = game_map.zones_travelled(start, zone, level)
    if zones < tables.minimum_jump:
        return said(
            "a jump covers at least {least} zones (each level counts as one); this one covers "
            "{zones}",
            least=tables.minimum_jump,
            zones=zones,
        )
    return ""


def _centre_way(game_map: StrategicMap, zone: Zone) -> str:
    """The direction from ``zone`` toward the middle of the map (the free choice's default:
    a fleet deviates inward rather than off the map)."""
    c, r = zone
    mid_c, mid_r = (game_map.columns + 1) / 2, (game_map.rows + 1) / 2
    ways = {"E": mid_c - c, "W": c - mid_c, "S": mid_r - r, "N": r - mid_r}
    return max(DIRECTIONS, key=lambda d: (ways[d], -DIRECTIONS.index(d)))


def hyperspace(
    game_map: StrategicMap,
    tables: Tables,
    start: Position,
    zone: Zone,
    level: int,
    dice: Dice,
    *,
    maximum: bool = False,
    free_direction: str = "",
    free_sector: str = "",
) -> Jump:
    """Make a jump (rule VII A 2).  ``maximum``: from the maximum distance (reserves entering,
    damaged ships).  ``free_direction`` / ``free_sector``: the mover's choice when a rose says
    LB (its sheet's column; default toward the map's middle, and the sector facing it)."""
    zones = game_map.zones_travelled(start, zone, level)
    jump = Jump(start, zone, level, zones, maximum)
    row = tables.deviation_row(zones, maximum)
    if len(set(row)) == 1:
        jump.deviation = row[0]
    else:
        jump.deviation_die = dice.d6("hyperspace deviation (TAB 3)")
        jump.deviation = row[jump.deviation_die - 1]
    landed = zone
    if jump.deviation:
        jump.direction_die = dice.d6("deviation direction (rose DR)")
        way = tables.direction_rose[jump.direction_die - 1]
        if way == FREE:
            way = free_direction if free_direction in DIRECTIONS else _centre_way(game_map, zone)
        jump.direction = way
        dc, dr = STEP[way]
        landed = (zone[0] + dc * jump.deviation, zone[1] + dr * jump.deviation)
    jump.off_map_by = game_map.outside_by(landed)
    if jump.off_map:
        # Rule VII A 2: 1 turn outside for 1-2 zones off, 2 turns for more.
        jump.wait = 1 if jump.off_map_by <= 2 else 2
        jump.arrival = game_map.waiting_place(landed, level)
        return jump
    jump.arrival_die = dice.d6("arrival sector (rose SA)")
    sector = tables.arrival_rose[jump.arrival_die - 1]
    if sector == FREE:
        sector = free_sector if free_sector in OUTER else _centre_way(game_map, landed)
    jump.arrival = Position(landed, sector, level)
    return jump


def cheapest_path(
    game_map: StrategicMap, start: Position, goal: Position, limit: int = 60
) -> list[Position] | None:
    """The cheapest normal-movement path from ``start`` to ``goal`` (steps after ``start``),
    sectors 1 point and levels 2; None if none costs ``limit`` or less.  For the computer
    players and the checker's suggestions: the rules let a player take any path."""
    import heapq

    frontier: list[tuple[int, Position]] = [(0, start)]
    cost = {start: 0}
    came: dict[Position, Position] = {}
    while frontier:
        spent, here = heapq.heappop(frontier)
        if here == goal:
            path = [here]
            while path[-1] in came:
                path.append(came[path[-1]])
            return list(reversed(path))[1:]
        if spent > cost.get(here, spent) or spent > limit:
            continue
        steps = [n for n in game_map.neighbours(here) if game_map.on_map(n.zone)]
        steps += [here.at_level(here.level + d) for d in (-1, 1) if 1 <= here.level + d <= 7]
        for step in steps:
            total = spent + (game_map.step_cost(here, step) or 0)
            if total < cost.get(step, limit + 1):
                cost[step] = total
                came[step] = here
                heapq.heappush(frontier, (total, step))
    return None


def affordable(
    game_map: StrategicMap, start: Position, path: list[Position], points: int
) -> list[Position]:
    """The longest start of ``path`` a fleet pays for with ``points``."""
    out: list[Position] = []
    here, left = start, points
    for step in path:
        cost = game_map.step_cost(here, step) or 0
        if cost > left:
            break
        out.append(step)
        left -= cost
        here = step
    return out
