"""The tactical map of hexagons (rule VIII): axial coordinates, distances, facings, the
planets' marks and the edges a fleet enters from.

The printed battle map is lost; ours is a hexagon of hexes within ``RADIUS`` of the centre.
One planet stands at the centre, two on the marks either side of it (rule VIII A 1).
"""

from __future__ import annotations

Hex = tuple[int, int]

RADIUS = 7
#: The six neighbours in facing order (0 east, then anticlockwise as printed maps go).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
CENTRE: Hex = (0, 0)
TWO_PLANETS: tuple[Hex, Hex] = ((-3, 0), (3, 0))
#: Edge to enter by -> the facing a ship entering from it takes (toward the middle).
ENTRY_FACING = {"W": 0, "E": 3, "N": 5, "S": 2}


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def on_field(h: Hex) -> bool:
    return distance(h, CENTRE) <= RADIUS


def neighbour(h: Hex, facing: int) -> Hex:
    dq, dr = DIRECTIONS[facing % 6]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    return [neighbour(h, f) for f in range(6)]


def turn_size(a: int, b: int) -> int:
    """Hexsides between two facings (0-3)."""
    d = abs(a - b) % 6
    return min(d, 6 - d)


def ring(centre: Hex, radius: int) -> list[Hex]:
    """The hexes at ``radius`` from ``centre``, in a fixed order (east first, anticlockwise)."""
    if radius == 0:
        return [centre]
    out = []
    h = (centre[0] + DIRECTIONS[4][0] * radius, centre[1] + DIRECTIONS[4][1] * radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, side)
    return out


def edge_hexes(edge: str) -> list[Hex]:
    """The hexes of one edge of the field, the middle of the edge first.  The field is a
    hexagon with flat top and bottom (N: r = -RADIUS, S: r = RADIUS) and a point at each
    side (W: q = -RADIUS or q + r = -RADIUS; E the mirror)."""
    edge_of = {
        "N": lambda h: h[1] == -RADIUS,
        "S": lambda h: h[1] == RADIUS,
        "W": lambda h: h[0] == -RADIUS or h[0] + h[1] == -RADIUS,
        "E": lambda h: h[0] == RADIUS or h[0] + h[1] == RADIUS,
    }[edge]
    across = (lambda h: abs(2 * h[0] + h[1])) if edge in "NS" else (lambda h: abs(h[1]))
    return sorted((h for h in ring(CENTRE, RADIUS) if edge_of(h)), key=lambda h: (across(h), h))
