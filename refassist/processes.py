"""How many processes the engine's split-up work uses and how they are started: the reports
of a turn (`report.build`) and an intake's sheet checks (`inbox.checks_ahead`)."""

from __future__ import annotations

import multiprocessing
import os
from typing import Any


def default_workers() -> int:
    """Processes to use by default: one per core, at most 4.

    Measured on the project's 2-core machine (docs/benchmarks.md): two processes render a
    turn's reports about a third faster than one when the machine is otherwise idle, but no
    faster when other work keeps both cores busy; more processes than cores never help, and
    WeasyPrint's memory use grows with each.
    """
    return max(1, min(4, os.cpu_count() or 1))


def can_fork() -> bool:
    """Whether processes can be forked here (not on Windows; not macOS's default)."""
    return "fork" in multiprocessing.get_all_start_methods()


def fork_context() -> Any:
    """Forked workers start with the parent's warm caches and its loaded state; where fork
    does not exist, the platform's default start method is used."""
    return multiprocessing.get_context("fork" if can_fork() else None)
