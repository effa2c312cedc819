"""The Terrain Effects Table as the digest reads the seed, entry costs with hexsides and lines
of communication, and a scenario's overrides."""

from __future__ import annotations

from fractions import Fraction

import pytest

from refassist.rulesets.millennium_wars.terrain import (
    HEXSIDES,
    TERRAIN,
    entry_cost,
    with_overrides,
)

#: The digest's reading, typed from ../shared/rules/millennium-wars.md ("mechanized /
#: non-mechanized / combat shift"; None: prohibited).
DIGEST = {
    "plain": (1, 1, 0),
    "city": (1, 1, -2),
    "town": (1, 1, -1),
    "desert": (1, 2, 1),
    "rough": (None, 2, -1),
    "mountain": (None, 3, -2),
    "forest": (3, 2, -1),
    "swamp": (2, 1, -1),
    "glacier": (None, 3, -2),
    "lake": (None, 3, -3),
}


@pytest.mark.parametrize("name", sorted(DIGEST))
def test_every_terrain_as_the_digest_reads_it(name: str) -> None:
    mech, foot, shift = DIGEST[name]
    t = TERRAIN[name]
    assert (t.mechanized, t.non_mechanized, t.shift) == (
        None if mech is None else Fraction(mech),
        Fraction(foot),
        shift,
    )


def test_sea_glacier_and_the_hexsides() -> None:
    assert TERRAIN["sea"].cost(True) is None and TERRAIN["sea"].cost(False) is None
    assert not TERRAIN["sea"].combat
    assert TERRAIN["glacier"].stacking == 1 and TERRAIN["plain"].stacking is None
    assert HEXSIDES == {"river": (1, -2), "border": (0, 0)}


def test_entry_costs() -> None:
    forest, plain, mountain = TERRAIN["forest"], TERRAIN["plain"], TERRAIN["mountain"]
    assert entry_cost(forest, True) == 3 and entry_cost(forest, False) == 2
    assert entry_cost(plain, True, hexside="river") == 2
    assert entry_cost(plain, True, hexside="border") == 1
    # Along a line of communication: 1/2 a hex, and a river it crosses costs nothing more.
    assert entry_cost(forest, True, along_loc=True) == Fraction(1, 2)
    assert entry_cost(plain, False, hexside="river", along_loc=True, loc_crosses_hexside=True) == (
        Fraction(1, 2)
    )
    assert entry_cost(plain, False, hexside="river", along_loc=True) == Fraction(3, 2)
    # Prohibited stays prohibited, road or not.
    assert entry_cost(mountain, True) is None
    assert entry_cost(mountain, True, along_loc=True) is None
    assert entry_cost(mountain, False) == 3


def test_a_scenario_overrides_the_table() -> None:
    table = with_overrides(
        {
            "forest": {"mechanized": 2},
            "rough": {"mechanized": 3, "shift": -2},
            "swamp": {"mechanized": "prohibited"},
        }
    )
    assert table["forest"].mechanized == 2 and table["forest"].shift == -1
    assert table["rough"].mechanized == 3 and table["rough"].shift == -2
    assert table["swamp"].mechanized is None
    assert TERRAIN["forest"].mechanized == 3  # the shipped table is untouched
    # Each field may be set; movement points from a quarter to 10, read to the quarter.
    glacier = with_overrides({"glacier": {"non_mechanized": 2.5, "stacking": 2, "mechanized": 10}})[
        "glacier"
    ]
    assert (glacier.non_mechanized, glacier.stacking, glacier.mechanized) == (
        Fraction(5, 2),
        2,
        10,
    )
    assert with_overrides({"swamp": {"non_mechanized": 1}})["swamp"].non_mechanized == 1
    assert with_overrides({"swamp": {"non_mechanized": 0.2}})["swamp"].non_mechanized == (
        Fraction(1, 4)
    )
    for bad, message in (
        ({"jungle": {"shift": 1}}, "'jungle' is not a terrain"),
        ({"forest": {"colour": 1}}, "colour cannot be set"),
        ({"forest": {"mechanized": 0}}, "more than 0"),
        (
            {"forest": {"non_mechanized": 10.5}},
            "^forest.non_mechanized must be more than 0 and at most 10",
        ),
        ({"forest": {"mechanized": "lots"}}, "movement points or"),
        ({"forest": {"shift": 1.5}}, "whole number"),
    ):
        with pytest.raises(ValueError, match=message):
            with_overrides(bad)
