"""The notation of a Millennium Wars sheet as players type it: paths, units, CRTs, retreats,
advances, and what cannot be read."""

from __future__ import annotations

import pytest

from refassist.errors import InvalidOrder
from refassist.rulesets.millennium_wars.parse import (
    parse_advance,
    parse_crt,
    parse_path,
    parse_retreats,
    parse_units,
)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("0404 0504 0604", ["0404", "0504", "0604"]),
        ("0404-0504 - 0604", ["0404", "0504", "0604"]),
        ("404, 504", ["0404", "0504"]),
        ("\uff10\uff14\uff10\uff14 \u2013 0504", ["0404", "0504"]),  # full-width digits, en dash
    ],
)
def test_paths(text: str, path: list[str]) -> None:
    assert parse_path(text, "D12") == path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "names no hex"),
        ("0404 Vell", "'Vell' is not a hex"),
        (" ".join(["0101"] * 31), "at most 30 hexes"),
        ("\u0660\u0664\u0660\u0664", "looks like a digit"),
    ],
)
def test_paths_that_cannot_be_read(text: str, message: str) -> None:
    with pytest.raises(InvalidOrder, match=message) as caught:
        parse_path(text, "D12")
    assert caught.value.cell == "D12"


def test_units_and_crts() -> None:
    assert parse_units("N-1AR, N-2MI  N-HT") == ["N-1AR", "N-2MI", "N-HT"]
    with pytest.raises(InvalidOrder, match="no unit is named"):
        parse_units("  ")
    with pytest.raises(InvalidOrder, match="'N_1' is not a unit id"):
        parse_units("N_1")
    with pytest.raises(InvalidOrder, match="at most 12 units"):
        parse_units(" ".join(f"U{i}" for i in range(13)))
    assert [parse_crt(t) for t in ("Raid", "ASSAULT", "air-land", "Air-Land Battle", "alb")] == [
        "raid",
        "assault",
        "air-land",
        "air-land",
        "air-land",
    ]
    with pytest.raises(InvalidOrder, match="write raid, assault or air-land"):
        parse_crt("blitz")


def test_retreats_and_advances() -> None:
    assert parse_retreats("N-1AR: 0302 0301; N-2MI: 0403") == {
        "N-1AR": ["0302", "0301"],
        "N-2MI": ["0403"],
    }
    assert parse_retreats("") == {}
    for text, message in (
        ("N-1AR 0302", "write each unit's retreat as UNIT: HEX HEX"),
        ("N-1AR N-2MI: 0302", "one unit before each colon"),
        ("N-1AR: 0302 0301 0300", "a retreat is at most two hexes"),
    ):
        with pytest.raises(InvalidOrder, match=message):
            parse_retreats(text)
    assert parse_advance("all") is None and parse_advance("None") == []
    assert parse_advance("") == [] and parse_advance("N-1AR N-HT") == ["N-1AR", "N-HT"]
