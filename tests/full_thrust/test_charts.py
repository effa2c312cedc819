"""Every row of the seed's random tables, rolled with scripted dice, with the house rules'
other readings."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.full_thrust import charts
from refassist.rulesets.full_thrust.rules import complete

RULES = complete()


@pytest.mark.parametrize(
    ("roll", "crack", "merchant", "inches", "total", "result"),
    [
        (1, False, False, None, 1, "fine"),
        (2, False, False, None, 2, "fine"),
        (3, False, False, None, 3, "drive disabled"),
        (4, False, False, None, 4, "drive destroyed"),
        (5, False, False, None, 5, "drive destroyed"),
        (6, False, False, None, 6, "destroyed"),
        (1, True, False, None, 0, "fine"),  # a crack ship's -1 below the table
        (3, True, False, None, 2, "fine"),
        (2, False, True, None, 3, "drive disabled"),  # merchant +1
        (2, False, False, 35, 3, "drive disabled"),  # within 40": +1
        (2, False, False, 25, 4, "drive destroyed"),  # within 30" (and 40"): the largest, +2
        (2, False, False, 10, 6, "destroyed"),  # within 20": +4
        (2, False, False, 40, 2, "fine"),  # exactly 40" is not within 40"
        (1, True, True, 30, 2, "fine"),  # exactly 30": within 40" only; -1 +1 +1
    ],
)
def test_hasty_jump_table(
    roll: int, crack: bool, merchant: bool, inches: int | None, total: int, result: str
) -> None:
    got = charts.hasty_jump(
        Dice.scripted([roll]), RULES, crack=crack, merchant=merchant, inches=inches, ship="X"
    )
    assert (got.roll, got.total, got.result) == (roll, total, result)


def test_hasty_proximity_readings() -> None:
    summed = complete({"hasty_proximity": "sum"})
    assert charts.proximity_modifiers(15, summed) == [
        ('within 20"', 4),
        ('within 30"', 2),
        ('within 40"', 1),
    ]
    assert charts.proximity_modifiers(15, RULES) == [('within 20"', 4)]
    inclusive = complete({"within_strictly": False})
    assert charts.proximity_modifiers(30, inclusive) == [('within 30"', 2)]
    assert charts.proximity_modifiers(30, RULES) == [('within 40"', 1)]
    assert charts.proximity_modifiers(None, RULES) == []
    got = charts.hasty_jump(
        Dice.scripted([1]), summed, crack=False, merchant=False, inches=15, ship="X"
    )
    assert (got.total, got.result) == (8, "destroyed")


def test_deviation_sixes_add_up_and_the_bearing_is_on_the_clock() -> None:
    dice = Dice.scripted([6, 6, 2, 11])
    got = charts.deviation(dice, RULES, "X")
    assert (got.rolls, got.inches, got.bearing) == ((6, 6, 2), 14, 11)
    assert [r.sides for r in dice.log] == [6, 6, 6, 12]
    got = charts.deviation(Dice.scripted([3, 12]), RULES, "X")
    assert (got.inches, got.bearing) == (3, 12)
    reroll = complete({"deviation_sixes": "reroll", "deviation_bearing": "d6x2"})
    got = charts.deviation(Dice.scripted([6, 6, 4]), reroll, "X")
    assert (got.rolls, got.inches, got.bearing) == ((6, 6), 6, 8)
    got = charts.deviation(Dice.scripted([6, 2, 1]), reroll, "X")
    assert (got.inches, got.bearing) == (2, 2)


@pytest.mark.parametrize(
    ("dice", "result", "points"),
    [
        ([1, 1, 1], "nothing", 0),
        ([1, 2, 2], "nothing", 0),
        ([1, 2, 3], "normal", 500),
        ([6, 3, 3], "normal", 500),
        ([6, 6, 1], "rich vein", 550),
        ([5, 5, 5], "rich vein", 550),
        ([6, 5, 5], "klondike", 1000),
        ([6, 6, 5], "exhausted", 0),
        ([6, 6, 6], "exhausted", 0),
    ],
)
def test_mining_table_at_a_rich_belt(dice: list[int], result: str, points: int) -> None:
    got = charts.mining(Dice.scripted(dice), RULES, belt="rich", hours=100, where="Ore")
    assert (got.total, got.result, got.points) == (sum(dice), result, points)


def test_mining_a_poor_belt_part_of_the_week_and_the_percent_reading() -> None:
    got = charts.mining(Dice.scripted([3, 3, 3]), RULES, belt="poor", hours=40, where="Ore")
    assert got.points == 100  # 250 x 4/10
    got = charts.mining(Dice.scripted([5, 5, 4]), RULES, belt="poor", hours=40, where="Ore")
    assert got.points == 150  # 100 + 50 points
    percent = complete({"rich_vein": "percent"})
    got = charts.mining(Dice.scripted([5, 5, 4]), percent, belt="poor", hours=40, where="Ore")
    assert got.points == 150  # 100 + 50%
    got = charts.mining(Dice.scripted([5, 5, 4]), percent, belt="rich", hours=100, where="Ore")
    assert got.points == 750
    got = charts.mining(Dice.scripted([6, 5, 5]), RULES, belt="poor", hours=55, where="Ore")
    assert got.points == 274  # double 137 (250 x 55/100 rounded down)


@pytest.mark.parametrize(
    ("roll", "percent", "points"),
    [(1, 50, 150), (2, 75, 225), (3, 100, 300), (4, 125, 375), (5, 150, 450), (6, 175, 525)],
)
def test_trade_prices(roll: int, percent: int, points: int) -> None:
    got = charts.sale(Dice.scripted([roll]), 300, "Ann")
    assert (got.percent, got.points) == (percent, points)


@pytest.mark.parametrize(
    ("strength", "ortillery", "modifier"),
    [
        (0, 0, -1),
        (499, 0, -1),
        (500, 0, 0),
        (599, 0, 0),
        (600, 0, 1),
        (799, 0, 2),
        (800, 0, 3),
        (999, 0, 4),
        (1000, 0, 5),
        (1500, 0, 5),
        (1501, 0, 6),
        (2000, 0, 6),
        (2001, 0, 7),
        (700, 4, 2),
        (700, 5, 3),
        (700, 11, 4),
    ],
)
def test_invasion_modifiers(strength: int, ortillery: int, modifier: int) -> None:
    mods = charts.invasion_modifier(strength, ortillery, RULES)
    assert sum(m for _, m in mods) == modifier


def test_invasion_table_war_or_surrender() -> None:
    got = charts.invasion(Dice.scripted([5]), RULES, strength=550, ortillery=0, where="Ny")
    assert (got.total, got.result) == (5, "war")
    got = charts.invasion(Dice.scripted([6]), RULES, strength=450, ortillery=0, where="Ny")
    assert (got.total, got.result) == (5, "war")
    got = charts.invasion(Dice.scripted([3]), RULES, strength=1200, ortillery=0, where="Ny")
    assert (got.total, got.result) == (8, "surrender")
    other = complete({"invasion_1000": 3})
    got = charts.invasion(Dice.scripted([2]), other, strength=1200, ortillery=0, where="Ny")
    assert (got.total, got.result) == (5, "war")


def test_crack_ship_roll() -> None:
    # After its first battle a ship would need a roll below 1: it never turns crack.
    assert not charts.becomes_crack(Dice.scripted([1]), RULES, survived=0, ship="X")
    # Third battle (two before): below 3 means 1 or 2.
    assert charts.becomes_crack(Dice.scripted([2]), RULES, survived=2, ship="X")
    assert not charts.becomes_crack(Dice.scripted([3]), RULES, survived=2, ship="X")
    earlier = complete({"crack_counts_this_battle": False})
    assert not charts.becomes_crack(Dice.scripted([2]), earlier, survived=2, ship="X")
    assert charts.becomes_crack(Dice.scripted([1]), earlier, survived=2, ship="X")


def test_research_rolls_aimed_and_not() -> None:
    got = charts.research(Dice.scripted([9]), RULES, who="Ann")
    assert got.field == "Cloaking Field"
    assert charts.research(Dice.scripted([20]), RULES, who="Ann").field == ""
    # Aimed at 15 (Attack Fighters): 14, 15 or 16 succeed.
    for roll, found in ((13, ""), (14, "Attack Fighters"), (16, "Attack Fighters"), (17, "")):
        got = charts.research(Dice.scripted([roll]), RULES, aimed_at=15, who="Ann")
        assert got.field == found
    got = charts.research(Dice.scripted([20]), RULES, aimed_at=19, who="Ann")
    assert got.field == ""
    twenty = complete({"aimed_twenty_counts": True})
    got = charts.research(Dice.scripted([20]), twenty, aimed_at=19, who="Ann")
    assert got.field == "Boarding Pods"
    got = charts.research(Dice.scripted([1]), RULES, aimed_at=2, who="Ann")
    assert got.field == "Needle Missile"


def test_development_chance() -> None:
    assert charts.development_chance(100, 1.0, RULES) == 10
    assert charts.development_chance(100, 0.5, RULES) == 20  # a cheap field
    assert charts.development_chance(100, 0.75, RULES) == 13  # 133.3 points
    assert charts.development_chance(2000, 0.5, RULES) == 100
    multiply = complete({"development_factor": "multiply"})
    assert charts.development_chance(100, 0.5, multiply) == 5


@pytest.mark.parametrize(
    ("dice", "result", "points", "field"),
    [
        ([1, 1], "nothing", 0, None),
        ([3, 4], "nothing", 0, None),
        ([4, 4], "trap", 0, None),
        ([4, 5], "trap", 0, None),
        ([5, 5, 3], "item", 300, None),
        ([6, 5, 2], "hoax", 0, None),
        ([6, 5, 3, 12], "high technology", 0, "Fast Fighters"),
        ([6, 6, 5, 20], "high technology", 0, ""),
        ([6, 6, 6, 4], "library", 0, "Nova Cannon"),
    ],
)
def test_ancient_sites(dice: list[int], result: str, points: int, field: str | None) -> None:
    got = charts.ancient_site(Dice.scripted(dice), RULES, ship="X")
    assert (got.result, got.points) == (result, points)
    assert (got.research.field if got.research else None) == field
