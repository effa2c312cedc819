"""Every step's files, for the archive site's table of files and its turn pages.

For each step: the reports and sheets written for it (``outbox/<step>/``) and what was
archived when it was resolved (``archive/<step>/``: the master workbook it started from and
the sheets it used), as links relative to ``archive/`` (the site's pages sit there), so the
folder can be moved or zipped whole.
"""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..store.game import step_sort_key

INDEX_NAME = "index.html"
#: What `refassist watch` did (`refassist.watch.page`), linked from the index when it exists.
WATCH_PAGE = "watch.html"


@dataclass
class StepFiles:
    """The files of one step, as links relative to the index."""

    step: str
    reports: list[tuple[str, str]] = field(default_factory=list)
    referee: list[tuple[str, str]] = field(default_factory=list)
    sheets: list[tuple[str, str]] = field(default_factory=list)
    archived: list[tuple[str, str]] = field(default_factory=list)
    #: The step whose results the reports of this step give (the one resolved before it).
    results_of: str = ""


def _files_in(folder: Path) -> list[str]:
    """The names of the files in ``folder`` (none when it is not a folder), sorted."""
    try:
        with os.scandir(folder) as entries:
            return sorted(e.name for e in entries if e.is_file())
    except OSError:
        return []


def _files_under(folder: Path) -> list[str]:
    """Every file under ``folder`` as a path relative to it ("sheets/Ann.xlsx"), in the
    order of their parts; symbolic links to folders are not followed."""
    found: list[tuple[str, ...]] = []
    for top, _, names in os.walk(folder):
        parts = Path(top).relative_to(folder).parts
        found.extend((*parts, n) for n in names if os.path.isfile(os.path.join(top, n)))
    return ["/".join(parts) for parts in sorted(found)]


def collect(game_path: Path) -> list[StepFiles]:
    """Every step that has an outbox or an archive folder, newest first.  Walked with
    `os.scandir` and the links written as strings: a report run refreshes the site, and
    pathlib's walk and `relative_to` made this O(steps) listing a tenth of a late game's
    report run."""
    outbox, archive = game_path / "outbox", game_path / "archive"
    sent_steps, kept_steps = _folders_in(outbox), _folders_in(archive)
    steps = sorted(set(sent_steps) | set(kept_steps), key=step_sort_key, reverse=True)
    resolved = sorted(kept_steps, key=step_sort_key)
    resolved_keys = [step_sort_key(r) for r in resolved]
    out = []
    for step in steps:
        before = bisect.bisect_left(resolved_keys, step_sort_key(step))
        files = StepFiles(step, results_of=resolved[before - 1] if before else "")
        if step in sent_steps:
            for name in _files_in(outbox / step):
                link = (Path(name).stem, f"../outbox/{step}/{name}")
                suffix = Path(name).suffix.lower()
                if suffix == ".pdf":
                    (files.referee if name == "referee.pdf" else files.reports).append(link)
                elif suffix in (".xlsx", ".ods"):
                    files.sheets.append(link)
        if step in kept_steps:
            for name in _files_under(archive / step):
                files.archived.append((name, f"../archive/{step}/{name}"))
        out.append(files)
    return out


def _folders_in(root: Path) -> set[str]:
    try:
        with os.scandir(root) as entries:
            return {e.name for e in entries if e.is_dir()}
    except OSError:
        return set()
