"""LibreOffice Calc in tests: players fill turn sheets in it and referees open the master in
it, so both files are converted with ``soffice --headless --convert-to`` and read back.

A missing LibreOffice fails these tests with a message rather than skipping them: a skipped
round trip proves nothing, and `scripts/test` (what CI runs) installs it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def soffice() -> str:
    path = shutil.which("soffice") or shutil.which("libreoffice")
    if path is None:
        pytest.fail(
            "LibreOffice is not installed: these tests need `soffice` on the PATH. Install "
            "the Debian package libreoffice-calc-nogui (scripts/test does it), then run again."
        )
    return path


def through_libreoffice(source: Path, work: Path, fmt: str = "xlsx") -> Path:
    """Convert ``source`` with LibreOffice into ``work/out-<fmt>`` and return the new file
    (a private profile per call, so tests run in parallel)."""
    out = work / f"out-{fmt}"
    out.mkdir(parents=True, exist_ok=True)
    profile = work / "lo-profile"
    done = subprocess.run(
        [
            soffice(),
            f"-env:UserInstallation=file://{profile}",
            "--headless",
            "--convert-to",
            fmt,
            "--outdir",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    result = out / (source.stem + "." + fmt)
    assert done.returncode == 0 and result.exists(), done.stdout + done.stderr
    return result
