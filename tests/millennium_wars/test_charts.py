"""The dice tables, every entry: the random events by d66, air superiority, the Information
Warfare Table cell by cell against the digest's transcription, and recovery."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refassist.dice import Dice
from refassist.rulesets.millennium_wars.charts import (
    air_result,
    air_superiority,
    event_of,
    information_warfare,
    iw_result,
    random_event,
    recovers,
)

DIGEST = Path(__file__).resolve().parents[3] / "shared" / "rules" / "millennium-wars.md"

#: The seed's Random Events Table, typed from its text.
SEED_EVENTS = {
    "ceasefire": "11 12",
    "first rally": "13",
    "first protests": "14",
    "second rally": "15",
    "second protests": "16",
    "first guerrillas": "21 22",
    "second guerrillas": "23 24",
    "variable politics": "25 26",
    "world opinion": "31 32 33",
    "bad weather": "34 35 36",
    "scenario event 1": "41 42 43",
    "scenario event 2": "44 45 46",
    "scenario event 3": "51 52 53",
    "no event": "54 55 56 61 62 63 64 65 66",
}
D66 = [tens * 10 + units for tens in range(1, 7) for units in range(1, 7)]


@pytest.mark.parametrize("roll", D66)
def test_every_d66_roll(roll: int) -> None:
    expected = next(name for name, rolls in SEED_EVENTS.items() if str(roll) in rolls.split())
    assert event_of(roll) == expected
    got = random_event(Dice.scripted([roll // 10, roll % 10]))
    assert (got.dice, got.result) == ((roll // 10, roll % 10), expected)


def test_d66_rolls_that_cannot_be() -> None:
    for roll in (10, 17, 67, 70, 0):
        with pytest.raises(ValueError, match=f"^{roll} is not a d66 roll$"):
            event_of(roll)


@pytest.mark.parametrize(
    ("total", "result"),
    [
        (-3, "second dominance"),
        (0, "second dominance"),
        (1, "second superiority"),
        (2, "second superiority"),
        (3, "parity"),
        (4, "parity"),
        (5, "first superiority"),
        (6, "first superiority"),
        (7, "first dominance"),
        (9, "first dominance"),
    ],
)
def test_air_superiority(total: int, result: str) -> None:
    assert air_result(total) == result


def test_the_air_roll_adds_the_scenarios_modifier() -> None:
    assert air_superiority(Dice.scripted([5]), 2).result == "first dominance"
    assert air_superiority(Dice.scripted([1]), -1).result == "second dominance"


def _digest_iw() -> list[list[str]]:
    text = DIGEST.read_text(encoding="utf-8")
    block = text.split("**Information warfare**")[1].split("```")[1]
    return [re.findall(r"[A-Z]+\d?", line[1:]) for line in block.splitlines()[2:8]]


IW_PRINTED = _digest_iw()


@pytest.mark.parametrize(
    ("die", "differential"), [(d, c) for d in range(1, 7) for c in range(-1, 6)]
)
def test_every_information_warfare_cell(die: int, differential: int) -> None:
    assert iw_result(differential, die) == IW_PRINTED[die - 1][differential + 1]


def test_differentials_beyond_the_table_use_its_end_columns() -> None:
    assert iw_result(-4, 3) == "CM" and iw_result(9, 4) == "IS2"
    assert information_warfare(Dice.scripted([6]), 4).result == "ID"


@pytest.mark.parametrize(
    ("die", "zoc", "terrain", "back"),
    [
        (4, True, "plain", True),  # 4, no modifier
        (3, True, "plain", False),
        (3, False, "plain", True),  # +1 outside an enemy zone of control
        (3, False, "desert", False),  # +1 -1
        (4, True, "glacier", False),  # -1
        (5, True, "glacier", True),
        (1, False, "plain", False),
    ],
)
def test_recovery(die: int, zoc: bool, terrain: str, back: bool) -> None:
    assert recovers(Dice.scripted([die]), "X", zoc, terrain) == (die, back)
