"""The repository's ``workbooks/``: one folder per game, written by the code and never stale.

`scripts/make_workbooks.py` writes them through `refassist.examples`; here they are written
again into a temporary folder (PDFs through LibreOffice, as the script does) and compared in
content with the committed files, so a change to a turn sheet, a master table or a rule that
is not followed by ``scripts/make_workbooks.py`` fails with the first difference named.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from pypdf import PdfReader

from refassist.examples import (
    EXAMPLE_MASTER,
    ORDER_SHEET,
    ORDER_SHEET_PDF,
    differences,
    libreoffice_pdf,
    write_examples,
)
from refassist.rulesets import RULESETS
from tests.libreoffice import soffice

REPO = Path(__file__).resolve().parents[1]
WORKBOOKS = REPO / "workbooks"
FILES = (ORDER_SHEET, ORDER_SHEET_PDF, EXAMPLE_MASTER)
#: "Files stay small": no multi-megabyte binaries in git.
MAX_BYTES = 400_000


def test_one_folder_per_game_with_its_files() -> None:
    folders = sorted(p.name for p in WORKBOOKS.iterdir() if p.is_dir())
    assert folders == sorted(r.name for r in RULESETS)
    readme = (WORKBOOKS / "README.md").read_text(encoding="utf-8")
    assert "scripts/make_workbooks.py" in readme
    for ruleset in RULESETS:
        assert f"`{ruleset.name}/`" in readme, f"workbooks/README.md does not name {ruleset.name}"
        for name in FILES:
            path = WORKBOOKS / ruleset.name / name
            assert path.is_file(), f"{path} is missing: run scripts/make_workbooks.py"
            assert path.stat().st_size < MAX_BYTES, f"{path} is {path.stat().st_size} bytes"
    for name in FILES:
        assert f"`{name}`" in readme, f"workbooks/README.md does not explain {name}"


def test_the_printable_sheet_is_the_order_sheet_with_no_orders() -> None:
    for ruleset in RULESETS:
        folder = WORKBOOKS / ruleset.name
        read = ruleset.read_sheet(folder / ORDER_SHEET)
        assert not read.problems, ruleset.name
        assert ruleset.orders_text(read.orders) == ["No orders."], ruleset.name
        pages = PdfReader(folder / ORDER_SHEET_PDF).pages
        assert pages, ruleset.name
        assert "Example game" in pages[0].extract_text()


def test_the_example_masters_load(tmp_path: Path) -> None:
    """A referee may open the example master as a game's: it passes the loader's checks."""
    from refassist.workbook.master import read_master

    for ruleset in RULESETS:
        state = read_master(WORKBOOKS / ruleset.name / EXAMPLE_MASTER, ruleset)
        assert ruleset.players(state), ruleset.name


def test_committed_workbooks_are_what_the_code_writes(tmp_path: Path) -> None:
    soffice()  # fails with the install hint when LibreOffice is missing
    fresh = tmp_path / "workbooks"
    write_examples(fresh, RULESETS, libreoffice_pdf)
    stale = [
        f"{r.name}/{line}"
        for r in RULESETS
        for line in differences(WORKBOOKS / r.name, fresh / r.name)
    ]
    assert not stale, (
        "workbooks/ is stale; run .venv/bin/python scripts/make_workbooks.py and commit:\n"
        + "\n".join(stale)
    )


def test_a_changed_cell_is_caught(tmp_path: Path) -> None:
    """The comparison is not blind: one edited cell of a committed file is reported."""
    for ruleset in RULESETS[:1]:
        fresh = tmp_path / "fresh" / ruleset.name
        fresh.mkdir(parents=True)
        source = WORKBOOKS / ruleset.name / EXAMPLE_MASTER
        wb = openpyxl.load_workbook(source)
        sheet = wb.worksheets[1]
        sheet["A2"] = "edited by hand"
        wb.save(fresh / EXAMPLE_MASTER)
        found = differences(WORKBOOKS / ruleset.name, fresh)
        assert f"{EXAMPLE_MASTER}: sheet {sheet.title!r} cell A2" in found[0], found


@pytest.mark.parametrize("name", [EXAMPLE_MASTER])
def test_a_missing_file_is_caught(tmp_path: Path, name: str) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / name).write_bytes((WORKBOOKS / RULESETS[0].name / name).read_bytes())
    assert differences(tmp_path / "empty", fresh) == [f"{name}: missing"]
