"""How many processes the engine's split-up work uses and how they are started: the reports
of a turn (`report.build`), an intake's sheet checks (`inbox.checks_ahead`), and the next
turn's sheets and a turn's mail (`forked_map`: `turnsheets.write_sheets`,
`report.mailing.build_mailings`)."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


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


#: The task of the `forked_map` running now; forked processes find it in their copy of this
#: process's memory, so a task may be any function, closures included, and is never pickled.
_TASKS: list[Callable[[Any], Any]] = []


def _run(item: Any) -> tuple[bool, Any]:
    """Run the task on one item in a forked process; a failure comes back as ``False``,
    and the caller's process runs that item again to raise its error there (an exception
    of ours does not always survive pickling)."""
    try:
        return True, _TASKS[-1](item)
    except Exception:
        return False, None


def forked_map(task: Callable[[T], R], items: Sequence[T], *, at_least: int = 4) -> list[R]:
    """``task(item)`` for every item, results in order: in forked processes from
    ``at_least`` items on, where fork exists and the machine has two cores or more, else
    one after another here.  For independent pieces of work that write their own files and
    return something small (a path): should a process die (killed, out of memory), every
    item is done again here, which writes the same files."""
    workers = min(default_workers(), len(items))
    if len(items) < at_least or workers < 2 or not can_fork():
        return [task(item) for item in items]
    _TASKS.append(task)
    try:
        with ProcessPoolExecutor(workers, mp_context=fork_context()) as pool:
            done = list(pool.map(_run, items))
    except BrokenProcessPool:
        return [task(item) for item in items]
    finally:
        _TASKS.pop()
    return [value if ok else task(item) for item, (ok, value) in zip(items, done, strict=True)]
