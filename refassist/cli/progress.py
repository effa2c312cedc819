"""A progress bar on stderr for long work that counts items (intake, sending), shown only at a
terminal so that output piped to a file stays the plain summary."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def counting_bar(first: str, quiet: bool = False) -> Iterator[Callable[[int, int, str], None]]:
    """Yield ``progress(done, total, label)`` for the library's long loops.  rich is imported
    here: `refassist report` imports this module for its sending and draws no bar otherwise
    (0.03 s of its start)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,
    ) as bar:
        task = bar.add_task(first, total=None)

        def progress(done: int, total: int, label: str) -> None:
            bar.update(task, completed=done, total=total, description=label[:40] or "done")

        yield progress
