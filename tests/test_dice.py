"""Seeded and scripted dice, and the roll log."""

from __future__ import annotations

from pathlib import Path

import pytest

from refassist.dice import Dice, seed_commitment, turn_seed
from refassist.errors import DiceExhausted, UsageError


def test_seeded_dice_repeat_for_the_same_game_and_turn() -> None:
    a = Dice.for_turn(1234, 5)
    b = Dice.for_turn(1234, 5)
    assert [a.d6("x") for _ in range(50)] == [b.d6("x") for _ in range(50)]


def test_turns_are_independent() -> None:
    a = [Dice.for_turn(1234, 5).d6("x") for _ in range(1)]
    c = Dice.for_turn(1234, 6)
    assert turn_seed(1234, 5) != turn_seed(1234, 6)
    assert len(a) == 1 and c.seed != Dice.for_turn(1234, 5).seed


def test_every_roll_is_logged_with_its_context() -> None:
    dice = Dice.scripted([3, 6, 1], turn=5003)
    with dice.at(phase="conflict", location="1827"):
        dice.d6("kill roll, Strike")
        with dice.at(location="1828"):
            dice.d6("mine")
    dice.d6("trade")
    assert [(r.seq, r.phase, r.location, r.purpose, r.result) for r in dice.log] == [
        (1, "conflict", "1827", "kill roll, Strike", 3),
        (2, "conflict", "1828", "mine", 6),
        (3, "", "", "trade", 1),
    ]
    assert all(r.turn == 5003 and r.sides == 6 for r in dice.log)


def test_scripted_dice_running_out_is_a_clear_error() -> None:
    dice = Dice.scripted([4], source_name="rolls.txt")
    dice.d6("first")
    with pytest.raises(DiceExhausted, match=r"ran out after 1 rolls.*second"):
        dice.d6("second")


def test_scripted_die_out_of_range_is_refused() -> None:
    with pytest.raises(DiceExhausted, match="a d6 cannot roll"):
        Dice.scripted([7]).d6("x")


def test_dice_file_with_comments(tmp_path: Path) -> None:
    path = tmp_path / "rolls.txt"
    path.write_text("# battle at 1827\n3 4, 5\n6 # last\n", encoding="utf-8")
    dice = Dice.from_file(path)
    assert dice.nd6(4, "x") == [3, 4, 5, 6]
    assert dice.remaining == 0


def test_dice_file_with_garbage_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "rolls.txt"
    path.write_text("3\nfour\n", encoding="utf-8")
    with pytest.raises(UsageError, match="line 2: 'four'"):
        Dice.from_file(path)


def test_missing_dice_file() -> None:
    with pytest.raises(UsageError, match="cannot read dice file"):
        Dice.from_file(Path("/nonexistent/rolls.txt"))


def test_commitment_is_sha256_of_the_seed() -> None:
    import hashlib

    assert seed_commitment(42) == hashlib.sha256(b"42").hexdigest()
