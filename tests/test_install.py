"""refassist installed the way a referee installs it: from a built wheel or sdist, into a fresh
virtualenv, run from a folder that is not the checkout.

An editable install finds the top-level ``templates/`` beside the package; a built one must
carry them inside it.  This once broke unnoticed (every test ran the editable install), so
these tests build both distributions with ``python -m build`` (an sdist, then the wheel from
that sdist, as pip does for an sdist), look inside them, install the wheel into a new
virtualenv in a temporary folder and run every command a referee's week needs there, down to
PDF reports that name the installed version.

They need the package registry (the build backend and the dependencies are installed the
ordinary way, from pip's cache when it has them), as the README's install command does.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

from refassist import __version__
from refassist.rulesets import RULESETS

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow

#: What a built package must carry besides the code: every template and the shipped data.
SHIPPED = [
    *sorted(
        f"refassist/templates/{p.relative_to(REPO / 'templates').as_posix()}"
        for p in (REPO / "templates").rglob("*")
        if p.is_file()
    ),
    *sorted(
        p.relative_to(REPO).as_posix()
        for p in (REPO / "refassist").rglob("data/*")
        if p.is_file() and "__pycache__" not in p.parts
    ),
]


def run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a command, failing the test with its output when it fails."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, (
        f"{' '.join(args)} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel built from it, in a folder outside the checkout."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)], cwd=out)
    (sdist,) = out.glob("refassist-*.tar.gz")
    (wheel,) = out.glob("refassist-*.whl")
    return {"sdist": sdist, "wheel": wheel}


@pytest.fixture(scope="module")
def installed(dists: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``refassist`` command of a fresh virtualenv with the built wheel installed."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=True)
    pip = env_dir / "bin" / "pip"
    run([str(pip), "install", "-q", str(dists["wheel"])], cwd=env_dir)
    return env_dir / "bin" / "refassist"


def test_the_wheel_and_the_sdist_carry_the_templates_and_data(dists: dict[str, Path]) -> None:
    assert SHIPPED, "nothing to look for: the templates folder is empty"
    with zipfile.ZipFile(dists["wheel"]) as wheel:
        names = set(wheel.namelist())
    missing = [name for name in SHIPPED if name not in names]
    assert not missing, f"the wheel lacks {missing}"
    assert dists["wheel"].name.startswith(f"refassist-{__version__}-")
    with tarfile.open(dists["sdist"]) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert "templates/base/layout.html" in members
    assert "pyproject.toml" in members
    # The wheel built above came from this sdist, so the sdist path is proven too.


def test_version_names_the_installed_package(installed: Path, tmp_path: Path) -> None:
    done = run([str(installed), "--version"], cwd=tmp_path)
    assert __version__ in done.stdout


def test_every_game_plays_a_turn_from_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    """A one-turn demo of every game, run outside the checkout, writes readable PDFs that
    name the installed version."""
    for ruleset in RULESETS:
        folder = tmp_path / ruleset.name
        run(
            [str(installed), "demo", str(folder), "--ruleset", ruleset.name, "--turns", "1"],
            cwd=tmp_path,
        )
        pdfs = sorted((folder / "outbox").rglob("*.pdf"))
        assert pdfs, f"{ruleset.name}: the demo wrote no report"
        for pdf in pdfs:
            reader = PdfReader(pdf)
            assert reader.pages, pdf
            assert reader.metadata is not None
            assert reader.metadata.creator == f"refassist {__version__}", pdf
            assert f"refassist {__version__}" in reader.pages[0].extract_text()


def test_a_referees_week_from_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    """new, sheets, check, intake, resolve, report, status, verify: the README's week, with
    the installed command in a folder of the referee's own."""
    players = tmp_path / "players.csv"
    with players.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["name", "email"])
        writer.writerows([["Ann", "ann@example.com"], ["Bob", "bob@example.com"]])
    cmd = str(installed)
    new = ["new", "g", "--players", "players.csv", "--generate-sector", "3", "--seed", "5"]
    run([cmd, *new, "--assign-homeworlds"], cwd=tmp_path)
    run([cmd, "sheets", "g"], cwd=tmp_path)
    sheets = sorted((tmp_path / "g" / "outbox").rglob("*.xlsx"))
    assert [s.name for s in sheets] == ["Ann.xlsx", "Bob.xlsx"]
    run([cmd, "check", str(sheets[0]), "--game", "g"], cwd=tmp_path)
    run([cmd, "intake", "g", *map(str, sheets)], cwd=tmp_path)
    run([cmd, "resolve", "g", "--now"], cwd=tmp_path)
    run([cmd, "report", "g"], cwd=tmp_path)
    reports = sorted(p.name for p in (tmp_path / "g" / "outbox").rglob("*.pdf"))
    assert reports == ["Ann.pdf", "Bob.pdf", "referee.pdf"]
    run([cmd, "status", "g"], cwd=tmp_path)
    run([cmd, "verify", "g"], cwd=tmp_path)
