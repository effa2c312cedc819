"""Decimal time as a commander reads it in a report: a single hour or day is said in the
singular ("1 hour", "1 day 1 hour"), every other count in the plural.  The clock's other
readings (``3.1`` is 31 hours, the week ends at ``10.0``) are in ``test_grid_clock.py``."""

from __future__ import annotations

import pytest

from refassist.rulesets.full_thrust.clock import duration_text


@pytest.mark.parametrize(
    ("hours", "said"),
    [
        (1, "1 hour"),
        (2, "2 hours"),
        (11, "1 day 1 hour"),
        (12, "1 day 2 hours"),
        (20, "2 days"),
        (21, "2 days 1 hour"),
    ],
)
def test_one_hour_and_one_day_are_singular(hours: int, said: str) -> None:
    assert duration_text(hours) == said
