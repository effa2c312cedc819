"""Trying a mail server again: a few attempts with growing pauses, each failure logged.

A mail server that is down for a minute, a dropped connection, a DNS hiccup: `refassist
watch` runs for weeks and must ride them out without a crash.  `attempts` runs an action up
to ``len(pauses) + 1`` times, waiting ``pauses[i]`` seconds after the ``i``-th failure (on a
`threading.Event`, so a stop request cuts the wait short), and says each failure through
``said``.  Only failures that may pass are tried again: a refused login or an untrusted
certificate is the referee's to fix, and trying again would only lock the account.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from refassist.errors import UsageError

T = TypeVar("T")

#: Words of the mail modules' errors for a failure that may pass by itself.
_PASSING = (
    "cannot reach",
    "connection",
    "stopped at",
    "cannot send mail through",
    "timed out",
    "temporar",
)


class GaveUp(Exception):
    """Every attempt failed (``last`` is the last failure), or a stop was asked for while
    waiting to try again."""

    def __init__(self, last: BaseException, stopped: bool = False) -> None:
        super().__init__(str(last))
        self.last = last
        self.stopped = stopped


def may_pass(exc: BaseException) -> bool:
    """Whether ``exc`` is a failure worth trying again (the network, not the settings)."""
    if isinstance(exc, OSError):
        return True
    text = str(exc).lower()
    return isinstance(exc, UsageError) and any(word in text for word in _PASSING)


def attempts(
    action: Callable[[], T],
    *,
    pauses: Sequence[float],
    said: Callable[[BaseException, float], None],
    stop: threading.Event,
) -> T:
    """``action()``, tried again after each passing failure while ``pauses`` last; raises
    `GaveUp` after the last, and at once for a failure that will not pass."""
    for number in range(len(pauses) + 1):
        try:
            return action()
        except (UsageError, OSError) as exc:
            if not may_pass(exc) or number == len(pauses):
                raise GaveUp(exc) from exc
            said(exc, pauses[number])
            if stop.wait(pauses[number]):
                raise GaveUp(exc, stopped=True) from exc
    raise AssertionError("unreachable")  # pragma: no cover
