"""Hex geometry against an independent brute force over a whole sector."""

from __future__ import annotations

import math
from collections import deque

import pytest

from refassist.geometry.hexmap import (
    SECTOR,
    HexGrid,
    col_row,
    distance,
    hex_id,
    parse_hex,
    subsector_letter,
)


def _centre(hex_: str) -> tuple[float, float]:
    """Pixel centre of a flat-topped hex; even columns sit half a hex lower."""
    col, row = col_row(hex_)
    return col * 1.5, row * math.sqrt(3) + (math.sqrt(3) / 2 if col % 2 == 0 else 0.0)


def _geometric_adjacency(grid: HexGrid) -> dict[str, list[str]]:
    """Adjacency found from the drawing alone: centres one hex-width apart."""
    hexes = list(grid.hexes())
    centres = {h: _centre(h) for h in hexes}
    adjacency: dict[str, list[str]] = {h: [] for h in hexes}
    for h in hexes:
        col, row = col_row(h)
        x, y = centres[h]
        for c in range(col - 1, col + 2):
            for r in range(row - 1, row + 2):
                other = hex_id(c, r) if c > 0 and r > 0 else None
                if other is None or other == h or not grid.contains(other):
                    continue
                ox, oy = centres[other]
                if abs(math.hypot(ox - x, oy - y) - math.sqrt(3)) < 1e-9:
                    adjacency[h].append(other)
    return adjacency


def _bfs(adjacency: dict[str, list[str]], start: str) -> dict[str, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in adjacency[h]:
            if n not in dist:
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist


def test_distance_matches_breadth_first_search_over_whole_sector() -> None:
    adjacency = _geometric_adjacency(SECTOR)
    hexes = list(SECTOR.hexes())
    assert len(hexes) == 1280
    mismatches = []
    for start in hexes:
        bfs = _bfs(adjacency, start)
        assert len(bfs) == 1280
        for other, d in bfs.items():
            if distance(start, other) != d:
                mismatches.append((start, other, d, distance(start, other)))
    assert mismatches == []


def test_neighbours_match_geometry_for_every_hex() -> None:
    adjacency = _geometric_adjacency(SECTOR)
    for h in SECTOR.hexes():
        assert sorted(SECTOR.neighbours(h)) == sorted(adjacency[h]), h


def test_within_matches_distance_for_every_hex_and_radius() -> None:
    hexes = list(SECTOR.hexes())
    for h in hexes[::7]:
        for radius in (0, 1, 4, 7):
            expected = sorted(o for o in hexes if distance(h, o) <= radius)
            assert sorted(SECTOR.within(h, radius)) == expected
            assert SECTOR.within(h, radius) == expected  # column by column, as the ids sort


@pytest.mark.parametrize(("cols", "rows"), [(8, 10), (3, 17), (17, 3), (1, 1), (2, 2)])
def test_within_matches_distance_on_small_grids_to_beyond_their_edges(cols: int, rows: int) -> None:
    """Each column's rows are worked out as one range: every hex of a grid, from nothing to
    past its far side, against the distance itself."""
    grid = HexGrid(cols, rows)
    hexes = list(grid.hexes())
    for h in hexes:
        for radius in range(max(cols, rows) + 2):
            expected = [o for o in hexes if distance(h, o) <= radius]
            assert grid.within(h, radius) == expected, (h, radius)


@pytest.mark.parametrize(
    ("hex_", "expected"),
    [("1827", ["1826", "1828", "1727", "1728", "1927", "1928"]), ("0101", ["0102", "0201"])],
)
def test_published_neighbours(hex_: str, expected: list[str]) -> None:
    assert sorted(SECTOR.neighbours(hex_)) == sorted(expected)


def test_0101_does_not_touch_0202() -> None:
    assert distance("0101", "0202") == 2


def test_seed_probe_example_is_off_by_one_against_the_convention() -> None:
    # Appendix B calls 3220 -> 1938 "a 25 hex journey" arriving 5026; by the Traveller Map
    # convention it is 24 hexes, so a probe leaving in 5001 arrives in 5025 (as issue 3's
    # example has it).  Decision (docs/rules/fifth-millennium.md): the convention wins.
    assert distance("3220", "1938") == 24


@pytest.mark.parametrize(
    ("hex_", "letter"),
    [
        ("0101", "A"),
        ("0810", "A"),
        ("0901", "B"),
        ("1827", "K"),
        ("2531", "P"),
        ("3240", "P"),
        ("0111", "E"),
        ("3210", "D"),
    ],
)
def test_subsector_letters(hex_: str, letter: str) -> None:
    assert subsector_letter(hex_) == letter


def test_subsector_hexes_cover_the_sector_once() -> None:
    seen: list[str] = []
    for letter in "ABCDEFGHIJKLMNOP":
        block = SECTOR.subsector_hexes(letter)
        assert len(block) == 80
        assert all(subsector_letter(h) == letter for h in block)
        seen.extend(block)
    assert sorted(seen) == sorted(SECTOR.hexes())


@pytest.mark.parametrize(
    ("typed", "hex_"),
    [("0510", "0510"), ("510", "0510"), (510, "0510"), (510.0, "0510"), (" 1827 ", "1827")],
)
def test_parse_hex_accepts_what_people_type(typed: object, hex_: str) -> None:
    assert parse_hex(typed) == hex_


@pytest.mark.parametrize("typed", ["51", "05100", "ab12", 5.5, True, -3, "", None])
def test_parse_hex_refuses_garbage(typed: object) -> None:
    with pytest.raises(ValueError):
        parse_hex(typed)


def test_grid_contains() -> None:
    assert SECTOR.contains("3240")
    assert not SECTOR.contains("3241")
    assert not SECTOR.contains("0001")
    assert not SECTOR.contains("x")


def test_a_hexside_is_named_the_same_from_either_side() -> None:
    grid = HexGrid(12, 10)
    assert grid.hexside("0504", "0503") == grid.hexside("0503", "0504") == ("0503", "0504")
    for a in grid.hexes():
        for b in grid.neighbours(a):
            assert grid.hexside(a, b) == grid.hexside(b, a)
    for a, b in (("0101", "0202"), ("0101", "0101"), ("0101", "1301")):
        with pytest.raises(ValueError, match="not adjacent"):
            grid.hexside(a, b)
