"""The random tables' rolls as the dice log and the reports show them: what each die was
rolled for, which rolls are secret to one commander (withheld with their step's seed), every
die of a roll kept in order, and the rounding of a part of a price or a week.

``test_charts.py`` rolls every row of the tables; these pin what a referee reading the dice
log, or a commander reading its report, is told of each roll, and the tables' edges that the
house rules move (the 1000-point line of the Invasion Table, a single deviation die)."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.full_thrust import charts
from refassist.rulesets.full_thrust.rules import complete

RULES = complete()


def purposes(dice: Dice) -> list[tuple[int, str]]:
    return [(r.sides, r.purpose) for r in dice.log]


def test_a_hasty_jump_names_its_modifiers_and_its_die() -> None:
    dice = Dice.scripted([2])
    got = charts.hasty_jump(dice, RULES, crack=True, merchant=True, inches=25, ship="ANN-3")
    assert got.modifiers == (("crack ship", -1), ("merchant", 1), ('within 30"', 2))
    assert (got.roll, got.total, got.result) == (2, 4, "drive destroyed")
    assert purposes(dice) == [(6, "hasty jump, ANN-3")]
    # A hasty jump is public: every commander at the table sees the ship vanish or not.
    assert dice.secrets == set()


def test_a_single_deviation_die_under_each_reading() -> None:
    for sixes in ("add", "reroll"):
        reading = complete({"deviation_sixes": sixes, "deviation_bearing": "d6x2"})
        dice = Dice.scripted([4, 5])
        got = charts.deviation(dice, reading, "BOB-1")
        assert (got.rolls, got.inches, got.bearing, got.bearing_rolls) == ((4,), 4, 10, (5,))
        assert purposes(dice) == [
            (6, "emergence deviation, BOB-1"),
            (6, "deviation bearing, BOB-1"),
        ]
    dice = Dice.scripted([6, 3, 7])
    got = charts.deviation(dice, RULES, "BOB-1")
    assert (got.rolls, got.inches, got.bearing, got.bearing_rolls) == ((6, 3), 9, 7, (7,))
    assert purposes(dice) == [
        (6, "emergence deviation, BOB-1"),
        (6, "emergence deviation again, BOB-1"),
        (12, "deviation bearing, BOB-1"),
    ]


def test_a_mines_week_is_secret_and_keeps_its_three_dice() -> None:
    dice = Dice.scripted([1, 2, 4])
    got = charts.mining(dice, RULES, belt="rich", hours=100, where="Ore")
    assert got.dice == (1, 2, 4)
    assert purposes(dice) == [(6, "mining, Ore")] * 3
    assert dice.secrets == {charts.PRIVATE_ROLLS}


def test_a_rich_vein_at_half_an_odd_week_rounds_down() -> None:
    percent = complete({"rich_vein": "percent"})
    # A rich belt for 33 hours: 165 points, a rich vein half of that again (82, not 82.5).
    got = charts.mining(Dice.scripted([5, 5, 4]), percent, belt="rich", hours=33, where="Ore")
    assert (got.result, got.points) == ("rich vein", 247)
    assert isinstance(got.points, int)


def test_a_sale_is_secret_and_its_proceeds_round_down() -> None:
    dice = Dice.scripted([1])
    got = charts.sale(dice, 301, "Ann")
    assert (got.roll, got.percent, got.points) == (1, 50, 150)
    assert isinstance(got.points, int)
    assert purposes(dice) == [(6, "sale price, Ann")]
    assert dice.secrets == {charts.PRIVATE_ROLLS}


@pytest.mark.parametrize(
    ("strength", "line", "modifier"),
    [
        (999, 3, 4),  # 900-999 is +4 whatever the blank line says
        (1000, 3, 3),  # the blank line 1000-1500 begins at 1000
        (1500, 3, 3),  # and ends at 1500
        (1501, 3, 4),  # +1 for the next 500
        (2001, 3, 5),
    ],
)
def test_the_invasion_tables_blank_line_at_another_value(
    strength: int, line: int, modifier: int
) -> None:
    mods = charts.invasion_modifier(strength, 0, complete({"invasion_1000": line}))
    assert mods == [(f"fleet strength {strength}", modifier)]


def test_fewer_than_five_ortillery_systems_are_not_listed() -> None:
    assert charts.invasion_modifier(700, 4, RULES) == [("fleet strength 700", 2)]
    assert charts.invasion_modifier(700, 10, RULES) == [
        ("fleet strength 700", 2),
        ("10 ortillery systems", 2),
    ]


def test_an_invasion_roll_shows_its_modifiers_and_is_public() -> None:
    dice = Dice.scripted([4])
    got = charts.invasion(dice, RULES, strength=650, ortillery=5, where="Ny")
    assert got.modifiers == (("fleet strength 650", 1), ("5 ortillery systems", 1))
    assert (got.roll, got.total, got.result) == (4, 6, "surrender")
    assert purposes(dice) == [(6, "invasion, Ny")]
    assert dice.secrets == set()


def test_a_crack_roll_is_secret() -> None:
    dice = Dice.scripted([1])
    assert charts.becomes_crack(dice, RULES, survived=1, ship="CLE-2")
    assert purposes(dice) == [(6, "crack ship, CLE-2")]
    assert dice.secrets == {charts.PRIVATE_ROLLS}


def test_a_research_roll_records_its_die_and_its_aim() -> None:
    dice = Dice.scripted([7])
    got = charts.research(dice, RULES, who="Ann")
    assert got == charts.ResearchRoll(7, 0, "Wave Guns")
    assert purposes(dice) == [(20, "research, Ann")]
    assert dice.secrets == {charts.PRIVATE_ROLLS}
    got = charts.research(Dice.scripted([20]), RULES, who="Ann")
    assert got == charts.ResearchRoll(20, 0, "")
    got = charts.research(Dice.scripted([12]), RULES, aimed_at=11, who="Ann")
    assert got == charts.ResearchRoll(12, 11, "Long Range Fighters")
    got = charts.research(Dice.scripted([20]), RULES, aimed_at=19, who="Ann")
    assert got == charts.ResearchRoll(20, 19, "")


@pytest.mark.parametrize(
    ("rolled", "result", "kept", "points", "logged"),
    [
        ([3, 4], "nothing", (3, 4), 0, ["ancient site"] * 2),
        ([4, 5], "trap", (4, 5), 0, ["ancient site"] * 2),
        ([4, 6, 2], "item", (4, 6, 2), 200, ["ancient site"] * 2 + ["ancient item's worth"]),
        ([5, 6, 1], "hoax", (5, 6, 1), 0, ["ancient site"] * 2 + ["ancient discovery"]),
    ],
)
def test_an_ancient_sites_dice_are_kept_and_secret(
    rolled: list[int], result: str, kept: tuple[int, ...], points: int, logged: list[str]
) -> None:
    dice = Dice.scripted(rolled)
    got = charts.ancient_site(dice, RULES, ship="ANN-2")
    assert (got.rolls, got.result, got.points, got.research) == (kept, result, points, None)
    assert [r.purpose for r in dice.log] == [f"{p}, ANN-2" for p in logged]
    assert dice.secrets == {charts.PRIVATE_ROLLS}


def test_an_ancient_discovery_rolls_research_for_the_ship() -> None:
    dice = Dice.scripted([6, 6, 4, 3])
    got = charts.ancient_site(dice, RULES, ship="ANN-2")
    assert (got.rolls, got.result) == ((6, 6, 4), "high technology")
    assert got.research == charts.ResearchRoll(3, 0, "Rail Guns")
    assert purposes(dice) == [
        (6, "ancient site, ANN-2"),
        (6, "ancient site, ANN-2"),
        (6, "ancient discovery, ANN-2"),
        (20, "research, ANN-2"),
    ]
