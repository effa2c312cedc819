"""LibreOffice Calc in tests: players fill turn sheets in it and referees open the master in
it, so both files are converted with ``soffice --headless --convert-to`` and read back.

A missing LibreOffice fails these tests with a message rather than skipping them: a skipped
round trip proves nothing, and `scripts/test` (what CI runs) installs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refassist.workbook.libreoffice import convert, convert_all, soffice_path


def soffice() -> str:
    path = soffice_path()
    if path is None:
        pytest.fail(
            "LibreOffice is not installed: these tests need `soffice` on the PATH. Install "
            "the Debian package libreoffice-calc-nogui (scripts/test does it), then run again."
        )
    return path


def through_libreoffice(source: Path, work: Path, fmt: str = "xlsx") -> Path:
    """Convert ``source`` with LibreOffice into ``work/out-<fmt>`` and return the new file
    (a private profile per call, so tests run in parallel)."""
    soffice()
    return convert(source, work, fmt)


def all_through_libreoffice(sources: list[Path], work: Path, fmt: str = "ods") -> list[Path]:
    """Convert every file of ``sources`` (distinct names) with one LibreOffice run into
    ``work/out-<fmt>``: a run costs seconds to start, a file a fraction of one."""
    soffice()
    return convert_all(sources, work, fmt)
