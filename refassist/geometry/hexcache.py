"""Hex geometry at the speed the resolution needs: cached ranges and a table-driven distance.

`refassist.geometry.hexmap` is the reference (Traveller Map convention, tested against published
maps); this module only remembers its answers.  A large game's turn asks for hundreds of thousands
of distances and for the hexes within range of every owned world after each change of hands: the
reference recomputes cube coordinates from the hex text every time, and `HexGrid.within` measures
every hex of a square around the centre.  Both answers depend on nothing but their arguments, so
they are computed once per hex (cube coordinates) or once per (hex, radius) (the range) and looked
up afterwards.  `tests/test_geometry.py` checks the cached answers against `hexmap` itself.
"""

from __future__ import annotations

from functools import lru_cache

from refassist.geometry.hexmap import SECTOR, col_row, subsector_letter


@lru_cache(maxsize=4096)
def _cube(hex_: str) -> tuple[int, int, int]:
    """Cube coordinates of a hex id (Traveller Map convention, as in `hexmap`)."""
    col, row = col_row(hex_)
    c0 = col - 1
    x = c0
    z = row - (c0 - (c0 & 1)) // 2
    return x, -x - z, z


def distance(a: str, b: str) -> int:
    """Jump distance in hexes, the same number as `refassist.geometry.hexmap.distance`."""
    if a == b:
        return 0
    ax, ay, az = _cube(a)
    bx, by, bz = _cube(b)
    dx = ax - bx
    dy = ay - by
    dz = az - bz
    return max(dx if dx >= 0 else -dx, dy if dy >= 0 else -dy, dz if dz >= 0 else -dz)


@lru_cache(maxsize=16384)
def within(hex_: str, radius: int) -> tuple[str, ...]:
    """Every sector hex at distance <= ``radius`` of ``hex_`` (itself included), in
    `HexGrid.within`'s order; cached because the map never changes."""
    return tuple(SECTOR.within(hex_, radius))


@lru_cache(maxsize=4096)
def subsector_of(hex_: str) -> str:
    """`refassist.geometry.hexmap.subsector_letter`, remembered per hex."""
    return subsector_letter(hex_)
