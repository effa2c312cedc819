"""The report processes: forked for each stage, or kept for a block of stages (`kept_workers`).

The render itself is replaced by a function that answers with the worker's process id (it is
taken by the forked workers, which inherit the replacement), so what is checked is which
processes wrote which stage, not what they wrote.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from refassist.report import build
from refassist.report.build import Job, Rendered, RenderSettings, kept_workers, render_jobs
from refassist.rulesets.base import ReportContent
from refassist.typeset.render import ReportError, project_templates


def _pid_report(reader: str, content: Any, common: Any, settings: Any, path: Path) -> Rendered:
    """A report 'written' by this process: its id in place of the page count."""
    if reader == "crash":
        raise RuntimeError("the worker fell over")
    return Rendered(reader, path, os.getpid())


def _stage(tmp_path: Path, readers: tuple[str, ...] = ("Ann", "Bob", "Cyd")) -> set[int]:
    content = ReportContent("unused.html", {})
    jobs = [Job(r, content, tmp_path / f"{r}.pdf") for r in readers]
    settings = RenderSettings((project_templates(),), None)
    return {r.pages for r in render_jobs(jobs, {}, settings, workers=2)}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def pid_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "_render_to_file", _pid_report)


def test_each_stage_forks_its_own_workers_outside_a_block(
    pid_reports: None, tmp_path: Path
) -> None:
    first = _stage(tmp_path)
    second = _stage(tmp_path)
    assert os.getpid() not in first | second
    assert not any(_alive(pid) for pid in first | second)  # ended with their stage
    assert build._KEPT is None


def test_kept_workers_serve_every_stage_of_the_block_and_end_with_it(
    pid_reports: None, tmp_path: Path
) -> None:
    with kept_workers():
        first = _stage(tmp_path)
        second = _stage(tmp_path)
        with kept_workers():  # a block inside a block uses the same processes
            third = _stage(tmp_path)
        every = first | second | third
        assert len(every) <= 2 and os.getpid() not in every
        assert all(_alive(pid) for pid in every)  # still there between the stages
    assert build._KEPT is None
    assert not any(_alive(pid) for pid in every)
    assert _stage(tmp_path).isdisjoint(every)  # after the block: fresh processes again


def test_a_stage_that_fails_in_a_block_is_reported_and_the_next_forks_new_workers(
    pid_reports: None, tmp_path: Path
) -> None:
    with kept_workers():
        first = _stage(tmp_path)
        with pytest.raises(ReportError, match="report for crash could not be rendered"):
            _stage(tmp_path, ("Ann", "crash", "Bob"))
        assert build._KEPT == {}  # the pool of the failed stage is not used again
        after = _stage(tmp_path)
    assert after.isdisjoint(first) and len(after) <= 2
