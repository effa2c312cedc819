"""Searches over a map of places joined by routes of a length: who is linked to whom, how far
every place is from the nearest of some, and the cheapest way between two.

A game hands in its map as a function giving a place's neighbours with the length of the route
to each, so the same searches serve any map of named places (star systems and jump routes, say).
Ties are broken by place name, so every answer is repeatable from one run to the next.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable

#: A map: a place's neighbours, each with the length of the route to it.
Neighbours = Callable[[str], Iterable[tuple[str, int]]]


def linked(
    neighbours: Neighbours, place: str, sources: Iterable[str], blocked: Collection[str]
) -> bool:
    """Whether ``place`` is reached from one of ``sources`` without passing through ``blocked``
    (a blocked place is reached by nothing, a blocked source reaches nothing)."""
    starts = [s for s in sources if s not in blocked]
    if place in blocked or not starts:
        return False
    seen = set(starts)
    frontier = list(starts)
    while frontier:
        here = frontier.pop()
        if here == place:
            return True
        for there, _length in neighbours(here):
            if there not in seen and there not in blocked:
                seen.add(there)
                frontier.append(there)
    return False


def distances(
    neighbours: Neighbours, targets: Iterable[str], avoid: Collection[str] = ()
) -> dict[str, int]:
    """The route distance from every place reached to the nearest of ``targets`` (Dijkstra over
    route lengths), never passing through ``avoid`` (a place in it is reached, not crossed)."""
    best: dict[str, int] = {}
    heap = [(0, t) for t in sorted(targets)]
    while heap:
        cost, here = heapq.heappop(heap)
        if here in best:
            continue
        best[here] = cost
        if here in avoid and cost > 0:
            continue
        for there, length in neighbours(here):
            if there not in best:
                heapq.heappush(heap, (cost + length, there))
    return best


def cheapest_path(
    neighbours: Neighbours, origin: str, destination: str, avoid: Collection[str] = ()
) -> list[str]:
    """The places entered on the cheapest way from ``origin`` to ``destination`` not through
    ``avoid`` (the destination itself may be in it); empty if there is none.  At each step the
    first place by name of those on a cheapest way."""
    dist = distances(neighbours, [destination], avoid)
    if origin == destination or origin not in dist:
        return []
    path: list[str] = []
    here = origin
    while here != destination:
        options = sorted(
            n
            for n, length in neighbours(here)
            if n in dist and dist[n] + length == dist[here] and (n == destination or n not in avoid)
        )
        if not options:
            return []
        here = options[0]
        path.append(here)
    return path
