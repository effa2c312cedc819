"""The square parsec grid and decimal time, against distances and times counted by hand from
the seed's rules ("each square, or part of a square crossed ... one parsec"; 1 day = 10
hours)."""

from __future__ import annotations

import pytest

from refassist.rulesets.full_thrust.clock import duration_text, parse_time, time_text
from refassist.rulesets.full_thrust.grid import (
    blocked_by,
    distance,
    parse_square,
    square_code,
    squares_crossed,
)
from refassist.rulesets.full_thrust.rules import complete

RULES = complete()


@pytest.mark.parametrize(
    ("start", "end", "parsecs"),
    [
        ((1, 1), (1, 1), 0),
        ((1, 1), (2, 1), 1),  # neighbours
        ((1, 1), (6, 1), 5),  # a straight run of five
        ((1, 1), (4, 4), 3),  # a diagonal passes through corners: 3 squares entered
        ((1, 1), (3, 2), 3),  # a knight's move: (2,1), (2,2), (3,2)
        ((1, 1), (4, 2), 3),  # dx 3, dy 1: (2,1), then the corner at (3,2): (3,2), (4,2)
        ((1, 1), (5, 2), 5),  # dx 4, dy 1: no corner, 4 + 1
        ((2, 5), (1, 1), 5),  # dx 1, dy 4: 1 + 4 squares, no corner
        ((3, 2), (2, 5), 3),  # dx 1, dy 3: passes the corner at (2.5, 3.5): 1 + 3 - 1
    ],
)
def test_distance_counts_the_squares_the_line_enters(
    start: tuple[int, int], end: tuple[int, int], parsecs: int
) -> None:
    assert distance(start, end, RULES) == parsecs
    assert distance(end, start, RULES) == parsecs


def test_the_squares_of_a_line_by_hand() -> None:
    # From (1,1) to (3,2): the line leaves column 1 at t=1/4 (x=1.5, y=1.25): into (2,1);
    # leaves row 1 at t=1/2 (y=1.5, x=2): into (2,2); leaves column 2 at t=3/4: into (3,2).
    assert squares_crossed((1, 1), (3, 2)) == [(1, 1), (2, 1), (2, 2), (3, 2)]
    # (3,2) to (2,5): dx -1, dy 3; at t=1/2 the line is at (2.5, 3.5), a corner: straight to
    # the diagonal square (2,4), touching (3,4) and (2,3) only at that point.
    assert squares_crossed((3, 2), (2, 5)) == [(3, 2), (3, 3), (2, 4), (2, 5)]
    assert squares_crossed((4, 4), (1, 1)) == [(4, 4), (3, 3), (2, 2), (1, 1)]


def test_the_start_square_counts_under_the_house_rule() -> None:
    counting = complete({"distance_counts_start": True})
    assert distance((1, 1), (2, 1), counting) == 2
    assert distance((1, 1), (6, 1), counting) == 6
    assert distance((1, 1), (1, 1), counting) == 0


def test_an_obstacle_on_the_line_blocks_the_jump_and_one_beside_it_does_not() -> None:
    assert blocked_by((1, 1), (6, 1), {(4, 1)}) == (4, 1)
    assert blocked_by((1, 1), (6, 1), {(4, 2)}) is None
    # The diagonal passes (2,2)-(3,3) through corners: (2,3) is only touched at a point.
    assert blocked_by((1, 1), (4, 4), {(2, 3), (3, 2)}) is None
    assert blocked_by((1, 1), (4, 4), {(3, 3)}) == (3, 3)
    # The ends are where the ship is and goes, never an obstacle of their own jump.
    assert blocked_by((1, 1), (6, 1), {(1, 1), (6, 1)}) is None


def test_square_codes() -> None:
    assert parse_square("0304") == (3, 4)
    assert square_code((12, 7)) == "1207"
    for bad in ("304", "0000", "ab12", "030405"):
        with pytest.raises(ValueError):
            parse_square(bad)


def test_decimal_time() -> None:
    assert parse_time("3.1") == 31
    assert parse_time("0.0") == 0
    assert parse_time("4") == 40
    assert parse_time("10.0") == 100
    assert parse_time(" 2,5 ") == 25
    assert time_text(31) == "3.1" and time_text(100) == "10.0" and time_text(5) == "0.5"
    for bad in ("10.1", "3.12", "-1", "x", "11"):
        with pytest.raises(ValueError):
            parse_time(bad)
    assert duration_text(5) == "5 hours"
    assert duration_text(10) == "1 day"
    assert duration_text(23) == "2 days 3 hours"
    assert duration_text(0) == "0 hours"
