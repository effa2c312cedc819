"""The Political Index and the price of new units.

The Index runs from 0 to 100; high favours the First Player (the seed never says so, but its
rally and protest events read that way: the First Player rallies at 67-100 and protests at
1-33).  A shift "in a player's favour" moves it toward that player's end and stops at 0 or 100.

Reinforcements and replacements are bought with political points at the seed's prices, by the
buyer's nationality (NATO or not), the unit's class and size; a rally this turn takes one off
each price (never below 1, and a price under 1 stays as it is), antiwar protests add one;
both apply to reinforcements and replacements alike (the seed's "cost to recruit units").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .units import COST_CLASS, UNIT_TYPES

LOW, HIGH = 0, 100


def shifted(index: int, points: int, toward_first: bool) -> int:
    """The Index after ``points`` in the First Player's favour (or the Second's)."""
    moved = index + points if toward_first else index - points
    return min(max(moved, LOW), HIGH)


def in_band(index: int, band: str) -> bool:
    """The seed's bands: ``low`` 1-33, ``high`` 67-100 (0 is in neither)."""
    return 1 <= index <= 33 if band == "low" else index >= 67  # the Index stops at 100


#: (reinforcement, replacement) in political points; None: not available.
Price = tuple[Fraction | None, Fraction | None]

NON_NATO: dict[str, Price] = {
    "mechanized corps": (Fraction(5), Fraction(10)),
    "mechanized division": (Fraction(3), Fraction(6)),
    "mechanized non-division": (Fraction(1), Fraction(2)),
    "non-mechanized corps": (Fraction(3), Fraction(6)),
    "non-mechanized division": (Fraction(2), Fraction(4)),
    "non-mechanized non-division": (Fraction(1, 2), Fraction(1)),
    "headquarters": (Fraction(2), Fraction(4)),
    "air": (Fraction(3), Fraction(6)),
    "air move marker": (Fraction(2), Fraction(4)),
    "special weapons": (Fraction(10), None),
    "air defence": (Fraction(4), None),
}
NATO: dict[str, Price] = {
    "mechanized division": (Fraction(4), Fraction(8)),
    "mechanized non-division": (Fraction(2), Fraction(4)),
    "non-mechanized division": (Fraction(3), Fraction(6)),
    "non-mechanized non-division": (Fraction(1), Fraction(2)),
    "headquarters": (Fraction(2), Fraction(4)),
    "air": (Fraction(1), Fraction(2)),
    "naval": (Fraction(5), None),
    "air move marker": (Fraction(1), Fraction(2)),
    "special weapons": (Fraction(10), None),
    "air defence": (Fraction(2), None),
}


def price_class(unit_type: str, size: str) -> str:
    """The line of the cost tables a land unit is bought on."""
    kind = UNIT_TYPES[unit_type]
    if kind.logistics and unit_type == "headquarters":
        return "headquarters"
    if kind.naval:
        return "naval"
    mech = "mechanized" if kind.mechanized else "non-mechanized"
    return f"{mech} {COST_CLASS[size]}"


@dataclass(frozen=True)
class Cost:
    points: Fraction | None  # None: not available to this buyer
    line: str  # the table's line, for the sheet and the report


def cost(
    line: str, nato: bool, replacement: bool, *, rally: bool = False, protests: bool = False
) -> Cost:
    """What one purchase costs: the table's price, a rally's -1 (never below 1) or protests'
    +1.  A NATO corps is bought as a division would not be: NATO's table has no corps line,
    so it is not available."""
    table = NATO if nato else NON_NATO
    price = table.get(line)
    if price is None:
        return Cost(None, line)
    points = price[1 if replacement else 0]
    if points is None:
        return Cost(None, line)
    if rally:
        # "to a minimum cost of one": a price already under one is left as it is.
        points = min(points, max(Fraction(1), points - 1))
    if protests:
        points += 1
    return Cost(points, line)


def points_text(value: Fraction | int) -> str:
    """Political points as a player reads them: ``2``, or ``2.5`` for the half points
    non-division units cost (never ``5/2``)."""
    value = Fraction(value)
    return str(value) if value.denominator == 1 else f"{float(value):g}"


__all__ = [
    "HIGH",
    "LOW",
    "NATO",
    "NON_NATO",
    "Cost",
    "cost",
    "in_band",
    "points_text",
    "price_class",
    "shifted",
]
