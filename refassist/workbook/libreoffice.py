"""LibreOffice as a converter: most of our players fill in their sheets in LibreOffice Calc, so
the order sheets in ``workbooks/`` are printed to PDF by it and the tests put sheets and masters
through it (``soffice --headless --convert-to``)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from refassist.errors import UsageError


def soffice_path() -> str | None:
    """LibreOffice's command on the PATH, or None."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def convert(source: Path, work: Path, fmt: str) -> Path:
    """``source`` converted by LibreOffice to ``fmt`` (``pdf``, ``xlsx``, ``ods``) in
    ``work/out-<fmt>``.

    Each call has a private profile under ``work``, so conversions can run at once (LibreOffice
    refuses a second instance on a shared profile).  `UsageError` when LibreOffice is missing or
    the conversion fails, with what it said.
    """
    [result] = convert_all([source], work, fmt)
    return result


def convert_all(sources: Sequence[Path], work: Path, fmt: str) -> list[Path]:
    """Every file of ``sources`` converted to ``fmt`` by one LibreOffice run (starting it is
    most of a conversion's seconds), in ``work/out-<fmt>``, in the order given; as `convert`.
    Their names must differ (each result is named after its source)."""
    command = soffice_path()
    if command is None:
        raise UsageError(
            "LibreOffice is needed for this: install it (Debian: apt-get install "
            "libreoffice-calc-nogui) so that `soffice` is on the PATH"
        )
    out = work / f"out-{fmt}"
    out.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [
            command,
            f"-env:UserInstallation=file://{(work / 'lo-profile').resolve()}",
            "--headless",
            "--convert-to",
            fmt,
            "--outdir",
            str(out),
            *(str(source) for source in sources),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    results = [out / (Path(source).stem + "." + fmt) for source in sources]
    missing = [str(s) for s, r in zip(sources, results, strict=True) if not r.is_file()]
    if done.returncode != 0 or missing:
        raise UsageError(
            f"LibreOffice could not convert {', '.join(missing) or sources[0]} to {fmt}: "
            f"{(done.stdout + done.stderr).strip()[-500:]}"
        )
    return results
