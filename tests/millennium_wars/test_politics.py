"""The Political Index's bounds and bands, and every price of the reinforcement and
replacement tables against the seed's own text, with rallies and protests."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from refassist.rulesets.millennium_wars.politics import (
    NATO,
    NON_NATO,
    cost,
    in_band,
    price_class,
    shifted,
)

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "millennium-wars.md"
#: The seed's line names and ours.
LINES = {
    "Mechanized Corps": "mechanized corps",
    "Mechanized Division": "mechanized division",
    "Mechanized non-Division Unit": "mechanized non-division",
    "Non-Mechanized Corps:": "non-mechanized corps",
    "Non-Mechanized Division:": "non-mechanized division",
    "Non-Mechanized Division": "non-mechanized division",
    "Non-Mechanized non-Division Unit": "non-mechanized non-division",
    "Non-Mechanized non-Division unit": "non-mechanized non-division",
    "Headquarters Unit": "headquarters",
    "Air Unit": "air",
    "Naval Unit": "naval",
    "Air Move Marker": "air move marker",
    "Special Weapons": "special weapons",
    "Increase friendly Air Defense Level by one": "air defence",
}


def _seed_tables() -> dict[str, dict[str, tuple[str, str]]]:
    text = SEED.read_text(encoding="utf-8").split("E Mechanized Non-Mechanized")[0]
    tables: dict[str, dict[str, tuple[str, str]]] = {}
    current = ""
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("\t") if c.strip()]
        if cells[:1] in (["Non-NATO"], ["NATO"]):
            current = cells[0]
            tables[current] = {}
        elif current and len(cells) == 3:
            tables[current][LINES[cells[0]]] = (cells[1], cells[2])
    return tables


SEED_PRICES = _seed_tables()


def _read(value: str) -> Fraction | None:
    return None if value.startswith("Not") else Fraction(value)


@pytest.mark.parametrize(
    ("nato", "line"),
    [(False, line) for line in NON_NATO] + [(True, line) for line in NATO],
)
def test_every_price_is_the_seeds(nato: bool, line: str) -> None:
    printed = SEED_PRICES["NATO" if nato else "Non-NATO"][line]
    assert cost(line, nato, replacement=False).points == _read(printed[0])
    assert cost(line, nato, replacement=True).points == _read(printed[1])


def test_the_tables_have_every_seed_line() -> None:
    assert set(SEED_PRICES["Non-NATO"]) == set(NON_NATO)
    assert set(SEED_PRICES["NATO"]) == set(NATO)


def test_rallies_and_protests() -> None:
    assert cost("mechanized division", False, False, rally=True).points == 2
    assert cost("mechanized non-division", False, False, rally=True).points == 1  # not below 1
    assert cost("non-mechanized non-division", False, False, rally=True).points == Fraction(1, 2)
    assert cost("mechanized division", True, True, protests=True).points == 9
    assert cost("naval", True, True).points is None  # not available as a replacement
    assert cost("mechanized corps", True, False).points is None  # NATO buys no corps
    # What cannot be bought still names its line, for the sheet and the report.
    assert cost("mechanized corps", True, False).line == "mechanized corps"
    assert cost("naval", True, True).line == "naval"
    assert cost("naval", True, False).line == "naval"


def test_lines_of_units() -> None:
    assert price_class("armor", "corps") == "mechanized corps"
    assert price_class("armor", "army") == "mechanized corps"
    assert price_class("light infantry", "brigade") == "non-mechanized non-division"
    assert price_class("headquarters", "corps") == "headquarters"
    assert price_class("naval task force", "division") == "naval"
    # A political power nexus has a support radius as a headquarters does, but is priced as
    # what it is: a non-mechanized unit.
    assert price_class("political power nexus", "brigade") == "non-mechanized non-division"


def test_the_index() -> None:
    assert shifted(50, 20, True) == 70 and shifted(50, 20, False) == 30
    assert shifted(95, 20, True) == 100 and shifted(5, 20, False) == 0
    assert in_band(33, "low") and not in_band(0, "low") and not in_band(34, "low")
    assert in_band(1, "low")
    assert in_band(67, "high") and in_band(100, "high") and not in_band(66, "high")
