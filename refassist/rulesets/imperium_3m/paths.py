"""Routes through the map: connection to home, the way home, shortest paths.

"Connected" decides income (Terran Worlds, connected Outposts), maintenance from the stockpile,
terraforming and the inter-war territorial exchange; the way home decides retreats.  All of it
is a search over jump routes (`refassist.geometry.routegraph`), kept in one place so the rules agree
on it.
"""

from __future__ import annotations

from ...geometry.routegraph import cheapest_path, distances, linked
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
    return linked(state.map.neighbours, system, home_systems(state, side), blocked)


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
    return linked(state.map.neighbours, system, worlds, enemy_fleet_systems(state, side))


def distances_from(
    state: State, targets: list[str], avoid: set[str] | None = None
) -> dict[str, int]:
    """Movement-point distance from every system to the nearest of ``targets``, not passing
    through ``avoid`` (`routegraph.distances`)."""
    return distances(state.map.neighbours, targets, avoid or ())


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
    ``avoid`` (`routegraph.cheapest_path`: ties by system code, so repeatable)."""
    return cheapest_path(state.map.neighbours, origin, destination, avoid or ())
