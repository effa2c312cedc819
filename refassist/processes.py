"""How many processes the engine's split-up work uses and how they are started: the reports
of a turn (`report.build`), an intake's sheet checks (`inbox.checks_ahead`), and the next
turn's sheets and a turn's mail (`forked_map`: `turnsheets.write_sheets`,
`report.mailing.build_mailings`).

Every process started here dies with the command that started it (`die_with_parent`): a
command killed by ``kill -9`` or the out-of-memory killer must not leave its workers running,
each holding its memory and the command's output pipe (a script reading that pipe would wait
for ever)."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
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


#: How often a worker looks whether its parent is still there (`die_with_parent`'s fallback,
#: where the kernel's parent-death signal does not exist).
WATCH_SECONDS = 0.5

#: ``prctl``'s option that asks the kernel for a signal when the parent dies (Linux).
PR_SET_PDEATHSIG = 1


def _parent_death_signal() -> bool:
    """Ask Linux to send this process SIGKILL when its parent dies; whether it was set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """End this process once ``parent`` is no longer its parent (it died: the process was
    given to another).  A daemon thread: it ends with the process when the work is done."""
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def die_with_parent(parent: int) -> None:
    """Make this worker die when ``parent`` (the command that started it) dies.

    On Linux the kernel sends SIGKILL at once (``PR_SET_PDEATHSIG``); everywhere, a thread
    also watches the parent's pid, in case the signal could not be set or the parent died
    before it was (checked here too).  Given as the initializer of every pool of workers."""
    _parent_death_signal()
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """Forked workers (`fork_context`) that die with this process (`die_with_parent`)."""
    return ProcessPoolExecutor(
        workers,
        mp_context=fork_context(),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def _guarded(parent: int, target: Callable[..., Any], *args: Any) -> None:
    die_with_parent(parent)
    target(*args)


def child_process(target: Callable[..., Any], *args: Any, context: Any = None) -> BaseProcess:
    """A process running ``target(*args)`` (not yet started) that dies with this one: for
    the work a command leaves running beside it (reading back a master, making map images),
    which must not outlive a command that was killed."""
    context = context if context is not None else fork_context()
    process: BaseProcess = context.Process(target=_guarded, args=(os.getpid(), target, *args))
    return process


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
        with worker_pool(workers) as pool:
            done = list(pool.map(_run, items))
    except BrokenProcessPool:
        return [task(item) for item in items]
    finally:
        _TASKS.pop()
    return [value if ok else task(item) for item, (ok, value) in zip(items, done, strict=True)]
