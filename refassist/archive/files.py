"""Every step's files, for the archive site's table of files and its turn pages.

For each step: the reports and sheets written for it (``outbox/<step>/``) and what was
archived when it was resolved (``archive/<step>/``: the master workbook it started from and
the sheets it used), as links relative to ``archive/`` (the site's pages sit there), so the
folder can be moved or zipped whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..game import step_sort_key

INDEX_NAME = "index.html"


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


def _link(path: Path, base: Path) -> str:
    return "/".join(path.relative_to(base).parts)


def collect(game_path: Path) -> list[StepFiles]:
    """Every step that has an outbox or an archive folder, newest first."""
    outbox, archive = game_path / "outbox", game_path / "archive"
    steps = sorted(
        {
            p.name
            for root in (outbox, archive)
            if root.is_dir()
            for p in root.iterdir()
            if p.is_dir()
        },
        key=step_sort_key,
        reverse=True,
    )
    out = []
    resolved = sorted(
        (p.name for p in archive.iterdir() if p.is_dir()) if archive.is_dir() else [],
        key=step_sort_key,
    )
    for step in steps:
        earlier = [r for r in resolved if step_sort_key(r) < step_sort_key(step)]
        files = StepFiles(step, results_of=earlier[-1] if earlier else "")
        sent = outbox / step
        if sent.is_dir():
            for f in sorted(sent.iterdir()):
                if not f.is_file():
                    continue
                link = (f.stem, "../" + _link(f, game_path))
                if f.suffix.lower() == ".pdf":
                    (files.referee if f.name == "referee.pdf" else files.reports).append(link)
                elif f.suffix.lower() in (".xlsx", ".ods"):
                    files.sheets.append(link)
        kept = archive / step
        if kept.is_dir():
            for f in sorted(p for p in kept.rglob("*") if p.is_file()):
                files.archived.append((_link(f, kept), "../" + _link(f, game_path)))
        out.append(files)
    return out
