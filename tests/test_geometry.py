"""The cached hex geometry of the rules (`refassist.geometry.hexcache`) answers exactly what the
reference geometry (`refassist.geometry.hexmap`) answers."""

from __future__ import annotations

import random

from refassist.geometry.hexcache import distance, subsector_of, within
from refassist.geometry.hexmap import SECTOR, subsector_letter
from refassist.geometry.hexmap import distance as reference_distance

ALL = list(SECTOR.hexes())
#: Corners, edges, both column parities and the middle of the map.
PROBES = ["0101", "0140", "3201", "3240", "0120", "3221", "1601", "1740", "1827", "1920", "0510"]


def test_distance_is_the_reference_distance() -> None:
    sample = PROBES + random.Random(5).sample(ALL, 40)
    for a in sample:
        for b in ALL:
            assert distance(a, b) == reference_distance(a, b), (a, b)


def test_within_is_the_reference_range_in_the_same_order() -> None:
    for hex_ in PROBES + random.Random(6).sample(ALL, 20):
        for radius in range(0, 8):
            assert within(hex_, radius) == tuple(SECTOR.within(hex_, radius)), (hex_, radius)
            assert within(hex_, radius) == within(hex_, radius)  # remembered, unchanged


def test_subsector_of_is_the_reference_letter() -> None:
    assert [subsector_of(h) for h in ALL] == [subsector_letter(h) for h in ALL]
