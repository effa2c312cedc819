"""The master workbook prints: every sheet has a page setup a referee can use, checked in the
file and on paper (LibreOffice's PDF of the workbook).

What a printed page must show: the table fitted to the page width (landscape where the columns
are wide), its header row again on every page, the About sheet's headings and explanations
whole, and the game, the sheet and "Page N of M" in the footer, so a loose page finds its place.
"""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest
from pypdf import PdfReader

from refassist.demo import create_demo_game
from refassist.examples import play_quietly
from refassist.rulesets import RULESETS
from refassist.rulesets.base import Ruleset
from refassist.workbook.printing import PORTRAIT_MAX_WIDTH, header_footer_text
from tests.libreoffice import through_libreoffice

#: A name with Excel's header code character in it: it must print as written.
GAME = "Rock & Roll League"


def master_after_a_turn(ruleset: Ruleset, folder: Path) -> Path:
    game = create_demo_game(folder, ruleset.min_players, 3, ruleset=ruleset, name=GAME)
    play_quietly(game, 3)
    return game.master_path


def test_header_footer_text_escapes_codes_and_stays_short() -> None:
    assert header_footer_text("Rock & Roll") == "Rock && Roll"
    long = header_footer_text("x" * 300)
    assert len(long) <= 80 and long.endswith("…")


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_sheet_has_a_page_setup(ruleset: Ruleset, tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(master_after_a_turn(ruleset, tmp_path / "game"))
    for ws in wb.worksheets:
        where = f"{ruleset.name} sheet {ws.title!r}"
        assert ws.page_setup.paperSize == 9, where  # A4
        assert ws.sheet_properties.pageSetUpPr.fitToPage, where
        # 1 is the file format's default for the width, so it may be left out of the file.
        assert (ws.page_setup.fitToWidth or 1, ws.page_setup.fitToHeight) == (1, 0), where
        assert ws.oddFooter.left.text == "Rock && Roll League", where
        assert ws.oddFooter.center.text == "&A", where
        assert ws.oddFooter.right.text == "Page &P of &N", where
        # A run of columns of one width is kept as one entry from ``min`` to ``max``; the file
        # holds each width plus the cell padding (5/7 of a character, rounded to 1/256).
        width = sum(
            (dim.width - 0.7109375) * (dim.max - dim.min + 1)
            for dim in ws.column_dimensions.values()
            if dim.width and dim.min
        )
        wide = width > PORTRAIT_MAX_WIDTH
        assert ws.page_setup.orientation == ("landscape" if wide else "portrait"), where
        if ws.title != "About":
            assert ws.print_title_rows == "$1:$1", where


@pytest.mark.libreoffice
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_the_master_prints_through_libreoffice(ruleset: Ruleset, tmp_path: Path) -> None:
    master = master_after_a_turn(ruleset, tmp_path / "game")
    pdf = through_libreoffice(master, tmp_path, "pdf")
    wb = openpyxl.load_workbook(master, read_only=True)
    headers = {
        ws.title: str(next(ws.iter_rows(max_row=1, values_only=True))[0])
        for ws in wb.worksheets
        if ws.title != "About"
    }
    wb.close()
    pages = [page.extract_text() for page in PdfReader(pdf).pages]
    total = len(pages)
    # LibreOffice sometimes ends a long fit-to-width sheet with one blank page (it counts
    # the pages before it scales them); a blank page at the very end is that, and nothing
    # the workbook asks for.  Every other page carries its footer.
    while pages and not pages[-1].strip():
        pages.pop()
    assert total - len(pages) <= 1, "more than one blank page at the end"
    seen: dict[str, int] = {}
    for number, text in enumerate(pages, start=1):
        footer = re.search(rf"{re.escape(GAME)} (.+?) Page {number} of {total}", text)
        assert footer, f"page {number}: no footer with the game, sheet and page\n{text[-300:]}"
        sheet = footer.group(1).strip()
        seen[sheet] = seen.get(sheet, 0) + 1
        if sheet in headers:
            # The header row is printed again on every page of a table.
            assert headers[sheet] in text.split(GAME, 1)[-1][:400] or headers[sheet] in text, (
                f"page {number} of {sheet}: no header row"
            )
    assert set(seen) == {"About", *headers}, seen
    about = " ".join(p for p in pages if "About Page" in p)
    assert "refassist master workbook" in about
    assert "columns are found by their header text" in " ".join(about.split())
