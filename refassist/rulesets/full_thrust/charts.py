"""The campaign's random tables, as printed in the seed, and the rolls on them.

Each roll function takes the game's `Dice` (every die logged with its purpose) and the house
rules, and returns what a report needs to show the roll: the dice, the modifiers and the
result.  Where the seed's table is ambiguous the house rule named beside it decides (see
``docs/rules/full-thrust-campaign.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...dice import Dice

# -- hasty jumps (seed: "If you spend less than one day recharging your FTL drives") ----------

#: 1D6 + modifiers: the worst results first (6+ destroyed).
HASTY_RESULTS = ((6, "destroyed"), (4, "drive destroyed"), (3, "drive disabled"), (1, "fine"))
#: Distance from the planet's surface (inches, "within") -> modifier.
HASTY_PROXIMITY = ((20, 4), (30, 2), (40, 1))
HASTY_CRACK = -1
HASTY_MERCHANT = 1

#: What rolls a commander alone is told of draw (`Dice.draws_secret`): a ship turning crack,
#: research and development, espionage, a mine's week, a sale's price, an ancient site.  They
#: are rolled in an order every commander can work out (a battle's survivors in turn, the
#: week's timeline), so the step's seed would let a rival replay them: it is withheld until
#: the campaign ends (docs/dice.md).
PRIVATE_ROLLS = "rolls told to one commander alone"


@dataclass(frozen=True)
class HastyJump:
    roll: int
    modifiers: tuple[tuple[str, int], ...]
    total: int
    result: str  # fine, drive disabled, drive destroyed, destroyed


def proximity_modifiers(inches: float | None, rules: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The seed's "within 40/30/20 inches of the planetary surface" modifiers for a jump from
    ``inches`` (None: from beyond 40").  ``hasty_proximity``: the largest that applies, or
    all of them added; ``within_strictly``: exactly 30" is not within 30"."""
    if inches is None:
        return []
    strict = rules["within_strictly"]
    found = [
        (f'within {limit}"', mod)
        for limit, mod in HASTY_PROXIMITY
        if (inches < limit if strict else inches <= limit)
    ]
    if rules["hasty_proximity"] == "largest" and found:
        return [max(found, key=lambda item: item[1])]
    return found


def hasty_jump(
    dice: Dice,
    rules: Mapping[str, Any],
    *,
    crack: bool,
    merchant: bool,
    inches: float | None,
    ship: str,
) -> HastyJump:
    """Roll on the Hasty Jump table for ``ship`` (a fleet with slaved drives rolls once)."""
    modifiers: list[tuple[str, int]] = []
    if crack:
        modifiers.append(("crack ship", HASTY_CRACK))
    if merchant:
        modifiers.append(("merchant", HASTY_MERCHANT))
    modifiers += proximity_modifiers(inches, rules)
    roll = dice.d6(f"hasty jump, {ship}")
    total = roll + sum(mod for _, mod in modifiers)
    result = next(name for low, name in HASTY_RESULTS if total >= low) if total >= 1 else "fine"
    return HastyJump(roll, tuple(modifiers), total, result)


# -- emergence --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deviation:
    rolls: tuple[int, ...]
    inches: int
    bearing: int  # 1-12 on the clock
    bearing_rolls: tuple[int, ...]


def deviation(dice: Dice, rules: Mapping[str, Any], ship: str) -> Deviation:
    """How far (1D6 inches; a 6 rolls again: added under ``deviation_sixes`` = add, or
    replaced under = reroll) and on what bearing of the 12-point clock (1D12, or 1D6 x 2
    under ``deviation_bearing`` = d6x2) an emergence misses its point."""
    rolls = [dice.d6(f"emergence deviation, {ship}")]
    while rolls[-1] == 6:
        rolls.append(dice.d6(f"emergence deviation again, {ship}"))
        if rules["deviation_sixes"] == "reroll":
            break
    inches = sum(rolls) if rules["deviation_sixes"] == "add" else rolls[-1]
    if rules["deviation_bearing"] == "d12":
        bearing_rolls = (dice.roll(12, f"deviation bearing, {ship}"),)
        bearing = bearing_rolls[0]
    else:
        bearing_rolls = (dice.d6(f"deviation bearing, {ship}"),)
        bearing = bearing_rolls[0] * 2
    return Deviation(tuple(rolls), inches, bearing, bearing_rolls)


# -- mining -----------------------------------------------------------------------------------

#: Basic production of a belt in a whole week, in production points.
BELT_PRODUCTION = {"rich": 500, "poor": 250}


@dataclass(frozen=True)
class MiningWeek:
    dice: tuple[int, int, int]
    total: int
    result: str  # nothing, normal, rich vein, klondike, exhausted
    points: int


def mining(
    dice: Dice, rules: Mapping[str, Any], *, belt: str, hours: int, where: str
) -> MiningWeek:
    """An Orbital Mining Platform's week at a ``belt`` (rich or poor) for ``hours`` of the
    week's 100 (a part week produces pro rata, rounded down).  3D6: 3-5 nothing, 6-12 normal,
    13-15 a rich vein (+50 points, or +50% under ``rich_vein`` = percent), 16 double, 17-18
    the belt is worked out for good (nothing this week)."""
    dice.draws_secret(PRIVATE_ROLLS)
    rolled = dice.nd6(3, f"mining, {where}")
    total = sum(rolled)
    base = BELT_PRODUCTION[belt] * hours // 100
    if total <= 5:
        result, points = "nothing", 0
    elif total <= 12:
        result, points = "normal", base
    elif total <= 15:
        bonus = 50 if rules["rich_vein"] == "points" else base // 2
        result, points = "rich vein", base + bonus
    elif total == 16:
        result, points = "klondike", base * 2
    else:
        result, points = "exhausted", 0
    return MiningWeek((rolled[0], rolled[1], rolled[2]), total, result, points)


# -- trade ------------------------------------------------------------------------------------

#: 1D6 -> the sale price in percent of the goods' value.
TRADE_PRICES = {1: 50, 2: 75, 3: 100, 4: 125, 5: 150, 6: 175}


@dataclass(frozen=True)
class Sale:
    roll: int
    percent: int
    points: int


def sale(dice: Dice, points: int, who: str) -> Sale:
    """Goods worth ``points`` sold: 1D6 for the price, rolled after the sale (each commander
    of a trade between two rolls separately); the proceeds rounded down."""
    dice.draws_secret(PRIVATE_ROLLS)
    roll = dice.d6(f"sale price, {who}")
    percent = TRADE_PRICES[roll]
    return Sale(roll, percent, points * percent // 100)


# -- invasion of a neutral system -------------------------------------------------------------


def invasion_modifier(
    strength: int, ortillery: int, rules: Mapping[str, Any]
) -> list[tuple[str, int]]:
    """The Invasion Table's modifiers for a fleet worth ``strength`` points carrying
    ``ortillery`` ortillery systems: <500 -1, 500-599 0, ... 900-999 +4; the blank line
    1000-1500 is ``invasion_1000`` (+5 by default); +1 for each further 500; +1 per 5
    ortillery systems."""
    if strength < 500:
        mod = -1
    elif strength < 1000:
        mod = (strength - 500) // 100
    elif strength <= 1500:
        mod = int(rules["invasion_1000"])
    else:
        mod = int(rules["invasion_1000"]) + (strength - 1501) // 500 + 1
    found = [(f"fleet strength {strength}", mod)]
    if ortillery // 5:
        found.append((f"{ortillery} ortillery systems", ortillery // 5))
    return found


@dataclass(frozen=True)
class Invasion:
    roll: int
    modifiers: tuple[tuple[str, int], ...]
    total: int
    result: str  # war, surrender


def invasion(
    dice: Dice, rules: Mapping[str, Any], *, strength: int, ortillery: int, where: str
) -> Invasion:
    """1D6 + modifiers on the Invasion Table: 1-5 war, 6+ surrender."""
    modifiers = invasion_modifier(strength, ortillery, rules)
    roll = dice.d6(f"invasion, {where}")
    total = roll + sum(mod for _, mod in modifiers)
    return Invasion(roll, tuple(modifiers), total, "surrender" if total >= 6 else "war")


# -- crack ships ------------------------------------------------------------------------------


def becomes_crack(dice: Dice, rules: Mapping[str, Any], *, survived: int, ship: str) -> bool:
    """After a battle a survivor rolls 1D6 and turns crack when the roll is below the number
    of battles it has survived (``survived`` counts earlier battles; the one just fought too
    under ``crack_counts_this_battle``)."""
    battles = survived + (1 if rules["crack_counts_this_battle"] else 0)
    dice.draws_secret(PRIVATE_ROLLS)
    return dice.d6(f"crack ship, {ship}") < battles


# -- research ---------------------------------------------------------------------------------

#: The Research Table (1D20): field and its development cost factor; 20 is no result.
RESEARCH_FIELDS: dict[int, tuple[str, float]] = {
    1: ("EMP Missile", 0.75),
    2: ("Needle Missile", 0.75),
    3: ("Rail Guns", 0.5),
    4: ("Nova Cannon", 0.5),
    5: ("'AA' Megabattery", 0.5),
    6: ("Pulse Beam Batteries", 0.75),
    7: ("Wave Guns", 0.75),
    8: ("Reflex Fields", 1.0),
    9: ("Cloaking Field", 1.0),
    10: ("Area Effect ECM", 1.0),
    11: ("Long Range Fighters", 1.0),
    12: ("Fast Fighters", 1.0),
    13: ("Heavy Fighters", 1.0),
    14: ("Interceptors", 1.0),
    15: ("Attack Fighters", 0.75),
    16: ("Torpedo Fighters", 0.75),
    17: ("Improved FTL drive", 0.5),
    18: ("Armour", 0.5),
    19: ("Boarding Pods", 0.75),
}
NO_RESULT = 20


@dataclass(frozen=True)
class ResearchRoll:
    roll: int
    aimed_at: int  # 0: not aimed
    field: str  # "" when nothing was found


def research(dice: Dice, rules: Mapping[str, Any], *, aimed_at: int = 0, who: str) -> ResearchRoll:
    """A theoretical research roll (1D20).  Unaimed, the field rolled is found (20: the
    grant went on drink).  Aimed at a field declared beforehand, a roll within one of it
    finds that field and anything else finds nothing; a 20 finds nothing even for an aim at
    19 unless ``aimed_twenty_counts``."""
    dice.draws_secret(PRIVATE_ROLLS)
    roll = dice.roll(20, f"research, {who}")
    if aimed_at:
        near = abs(roll - aimed_at) <= 1
        if roll == NO_RESULT and not rules["aimed_twenty_counts"]:
            near = False
        return ResearchRoll(roll, aimed_at, RESEARCH_FIELDS[aimed_at][0] if near else "")
    return ResearchRoll(roll, 0, RESEARCH_FIELDS[roll][0] if roll in RESEARCH_FIELDS else "")


def development_chance(points: int, factor: float, rules: Mapping[str, Any]) -> int:
    """Percent chance that ``points`` spent on developing a field of cost ``factor`` succeed:
    1% per 10 points, the points divided by the factor (``development_factor`` = divide: a
    factor of 0.5 doubles them, the "more difficult ... reflected in the cost" reading) or
    multiplied by it; at most 100."""
    effective = points / factor if rules["development_factor"] == "divide" else points * factor
    return min(100, int(effective // 10))


# -- ancient sites ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SiteFind:
    rolls: tuple[int, ...]
    result: str  # nothing, trap, item, hoax, high technology, library
    points: int = 0
    research: ResearchRoll | None = None


def ancient_site(dice: Dice, rules: Mapping[str, Any], *, ship: str) -> SiteFind:
    """A ship explores an ancient site.  2D6: 2-7 nothing, 8-9 a trap (the ship is
    destroyed), 10 an item worth 1D6 x 100 points, 11-12 a discovery: 1D6 1-2 a hoax, 3-5
    high technology (a free roll on the Research Table, which is what the seed's "Discovery
    Table" of that line must mean), 6 a library (a free research roll, developed at half
    cost)."""
    dice.draws_secret(PRIVATE_ROLLS)
    two = dice.nd6(2, f"ancient site, {ship}")
    total = sum(two)
    if total <= 7:
        return SiteFind(tuple(two), "nothing")
    if total <= 9:
        return SiteFind(tuple(two), "trap")
    if total == 10:
        value = dice.d6(f"ancient item's worth, {ship}")
        return SiteFind((*two, value), "item", points=value * 100)
    kind = dice.d6(f"ancient discovery, {ship}")
    if kind <= 2:
        return SiteFind((*two, kind), "hoax")
    found = research(dice, rules, who=ship)
    return SiteFind((*two, kind), "high technology" if kind <= 5 else "library", research=found)


__all__ = [
    "BELT_PRODUCTION",
    "RESEARCH_FIELDS",
    "TRADE_PRICES",
    "Deviation",
    "HastyJump",
    "Invasion",
    "MiningWeek",
    "ResearchRoll",
    "Sale",
    "SiteFind",
    "ancient_site",
    "becomes_crack",
    "development_chance",
    "deviation",
    "hasty_jump",
    "invasion",
    "invasion_modifier",
    "mining",
    "proximity_modifiers",
    "research",
    "sale",
]
