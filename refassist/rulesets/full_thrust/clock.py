"""Decimal time: 1 day = 10 hours, 1 week = 10 days, times written ``D.H`` (day.hour).

The seed's merchant timeline is written this way (``0.0`` leaves A, ``0.5`` arrives at B,
``2.5`` departs B, ...), so the sheets, the checker and the reports use it too.  Inside the
tool a time is the whole number of hours since the week began: ``3.1`` is 31, the end of the
week ``10.0`` is 100.  Travel is counted in hours (1 parsec an hour), everything else in days.
"""

from __future__ import annotations

import re

HOURS_PER_DAY = 10
WEEK = 10 * HOURS_PER_DAY

_TIME = re.compile(r"^\s*(\d{1,2})(?:[.,:](\d))?\s*$")


def parse_time(text: str) -> int:
    """``3.1`` -> 31; ``4`` -> 40 (a whole day); ValueError for anything else, including a
    time after the week's end (10.0) or an hour beyond 9 (``3.12``)."""
    match = _TIME.match(text)
    if not match:
        raise ValueError(
            f"{text!r} is not a time of the week; write day.hour, e.g. 3.1 (day 3, hour 1)"
        )
    hours = int(match.group(1)) * HOURS_PER_DAY + int(match.group(2) or 0)
    if hours > WEEK:
        raise ValueError(f"{text!r} is after the end of the week (10.0)")
    return hours


def time_text(hours: int) -> str:
    """31 -> ``3.1``; 100 -> ``10.0``."""
    return f"{hours // HOURS_PER_DAY}.{hours % HOURS_PER_DAY}"


def duration_text(hours: int) -> str:
    """A length of time as a player says it: ``5 hours``, ``1 day``, ``2 days 3 hours``."""
    days, rest = divmod(hours, HOURS_PER_DAY)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if rest or not parts:
        parts.append(f"{rest} hour{'s' if rest != 1 else ''}")
    return " ".join(parts)


__all__ = ["HOURS_PER_DAY", "WEEK", "duration_text", "parse_time", "time_text"]
