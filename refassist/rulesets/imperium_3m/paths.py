"""Routes through the map: connection to home, the way home, shortest paths.

"Connected" decides income (Terran Worlds, connected Outposts), maintenance from the stockpile,
terraforming and the inter-war territorial exchange; the way home decides retreats.  All of it
is breadth-first search over jump routes, kept in one place so the rules agree on it.
"""

from __future__ import annotations

import heapq

from .state import State


def home_systems(state: State, side: str) -> list[str]:
    """Systems holding one of ``side``'s home worlds that it still owns (sorted)."""
    return sorted(
        {p.system for p in state.map.planets.values() if p.home == side and p.owner == side}
    )


def enemy_fleet_systems(state: State, side: str) -> set[str]:
    """Systems where the other side has a fleet with at least one unit."""
    occupied = {u.fleet for u in state.units if u.fleet and u.side != side}
    return {f.system for f in state.fleets if f.side != side and f.name in occupied}


def connected(state: State, side: str, system: str, *, ignore_enemy_fleets: bool = False) -> bool:
    """Whether a chain of jump routes free of enemy fleets links ``system`` to one of the
    side's home worlds.  A system holding an enemy fleet is itself cut off; the inter-war
    territorial exchange ignores enemy fleets (``ignore_enemy_fleets``)."""
    blocked = set() if ignore_enemy_fleets else enemy_fleet_systems(state, side)
    return _linked(state, system, home_systems(state, side), blocked)


def world_systems(state: State, side: str) -> list[str]:
    """Systems holding a World marker of ``side`` (not disputed)."""
    return sorted(
        {
            p.system
            for p in state.map.planets.values()
            if p.owner == side and p.marker == "World" and not p.disputed
        }
    )


def reaches_a_world(state: State, side: str, system: str) -> bool:
    """Maintenance from the stockpile: "if a path of jump routes free of enemy fleets can be
    traced to a friendly World" (any World, not only a home world).  A ship at a friendly World
    is there already, whatever else stands in the system."""
    worlds = world_systems(state, side)
    if system in worlds:
        return True
    return _linked(state, system, worlds, enemy_fleet_systems(state, side))


def _linked(state: State, system: str, sources: list[str], blocked: set[str]) -> bool:
    """Breadth-first over jump routes from ``sources``, never through ``blocked``."""
    starts = [h for h in sources if h not in blocked]
    if system in blocked or not starts:
        return False
    seen = set(starts)
    frontier = list(starts)
    while frontier:
        here = frontier.pop()
        if here == system:
            return True
        for there, _length in state.map.neighbours(here):
            if there not in seen and there not in blocked:
                seen.add(there)
                frontier.append(there)
    return system in seen


def distances_from(
    state: State, targets: list[str], avoid: set[str] | None = None
) -> dict[str, int]:
    """Movement-point distance from every system to the nearest of ``targets`` (Dijkstra over
    route lengths), not passing through ``avoid``."""
    avoid = avoid or set()
    best: dict[str, int] = {}
    heap = [(0, t) for t in sorted(targets)]
    while heap:
        cost, here = heapq.heappop(heap)
        if here in best:
            continue
        best[here] = cost
        if here in avoid and cost > 0:
            continue
        for there, length in state.map.neighbours(here):
            if there not in best:
                heapq.heappush(heap, (cost + length, there))
    return best


def step_towards_home(state: State, side: str, system: str) -> str | None:
    """The neighbouring system that is closest to the side's home worlds (ties: by code), or
    None when no neighbour is closer than ``system`` itself (already home, or cut off)."""
    homes = home_systems(state, side) or sorted(
        {p.system for p in state.map.planets.values() if p.home == side}
    )
    dist = distances_from(state, homes)
    here = dist.get(system)
    options = [(dist[n], n) for n, _length in state.map.neighbours(system) if n in dist]
    if not options:
        return None
    cost, best = min(options)
    if here is not None and cost >= here:
        return None
    return best


def shortest_path(
    state: State, origin: str, destination: str, avoid: set[str] | None = None
) -> list[str]:
    """Systems entered on the cheapest way from ``origin`` to ``destination`` not through
    ``avoid`` (the destination itself may be in it); empty if there is none.  Ties are broken
    by system code at each step, so the result is repeatable."""
    avoid = avoid or set()
    dist = distances_from(state, [destination], avoid)
    if origin == destination or origin not in dist:
        return []
    path: list[str] = []
    here = origin
    while here != destination:
        options = sorted(
            n
            for n, length in state.map.neighbours(here)
            if n in dist and dist[n] + length == dist[here] and (n == destination or n not in avoid)
        )
        if not options:
            return []
        here = options[0]
        path.append(here)
    return path
