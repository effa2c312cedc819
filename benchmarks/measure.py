"""Small tools the benchmarks share: timers, memory, statistics, and the machine's description.

Every benchmark run happens in a fresh child process (`run.py` starts them), so the peak
memory a run reports is its own; these helpers only read the clock and the kernel's counters.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

#: The ``refassist`` command of the interpreter running the benchmarks.
REFASSIST = Path(sys.executable).with_name("refassist")


def run_command(name: str, args: Sequence[str]) -> dict[str, float]:
    """``refassist NAME ARGS...`` in its own process: its wall seconds and the peak memory the
    kernel reports for it (its child processes included).  Its output goes to a file, not a
    pipe, so a talkative command cannot block on a full pipe while it is waited for."""
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        process = subprocess.Popen([str(REFASSIST), name, *args], stdout=out, stderr=out)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            out.seek(0)
            said = out.read().decode(errors="replace")
            raise RuntimeError(f"refassist {name} failed ({code}): {said[-3000:]}")
    return {"seconds": seconds, "peak_mb": usage.ru_maxrss / 1024}


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def children_peak_rss_mb() -> float:
    """The largest peak resident memory of any child process waited for, in MB."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def current_rss_mb() -> float:
    """This process's resident memory now, in MB (from /proc; 0 where there is none)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


class Stopwatch:
    """Named sums of wall-clock time: ``with watch("resolve"): ...``, or `wrap` a function."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self.counts: dict[str, int] = {}

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - started)

    def add(self, name: str, seconds: float) -> None:
        self.totals[name] = self.totals.get(name, 0.0) + seconds
        self.counts[name] = self.counts.get(name, 0) + 1

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function`` timed under ``name`` at every call (not counting nested wraps twice:
        the caller decides what to wrap)."""

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self(name):
                return function(*args, **kwargs)

        return timed


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def spread(values: Sequence[float], unit: str = "s", digits: int = 2) -> str:
    """``median (min-max)`` for a table cell."""
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.{digits}f} {unit}"
    return f"{median(values):.{digits}f} {unit} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def machine() -> str:
    """One line naming the machine and the software that matters for the figures."""
    from importlib.metadata import PackageNotFoundError, version

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            memory = f", {int(fh.readline().split()[1]) // (1024 * 1024)} GB RAM"
    except (OSError, ValueError, IndexError):
        memory = ""
    libraries = []
    for name in ("openpyxl", "xlsxwriter", "python-calamine", "weasyprint", "pypdf"):
        with suppress(PackageNotFoundError):
            libraries.append(f"{name} {version(name)}")
    return (
        f"{os.cpu_count()} CPUs ({cpu}){memory}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}; " + ", ".join(libraries)
    )


def load_average() -> str:
    try:
        return ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"
