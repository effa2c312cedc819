"""Page setup for workbooks a referee prints: paper, orientation, fit to width, repeated
header rows, and a header and footer naming the game, the sheet and the page.

Referees print the master workbook to check a turn at the table or to file it; an xlsx with no
page setup prints a wide table as a stack of half pages with the columns cut off and no clue to
which game or sheet a loose page belongs.  xlsxwriter writes the settings; Excel and LibreOffice
both honour them (`tests/test_master_printing.py` prints through LibreOffice).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: A4 in Excel's paper codes.
A4 = 9
#: Widest a sheet may be (in Excel's character units, summed over the printed columns) and
#: still print portrait: about what fits across A4 at 100 % with the margins below.
PORTRAIT_MAX_WIDTH = 95
#: Excel refuses header and footer strings longer than 255 characters; the game's name is cut
#: well before that so the codes around it always fit.
NAME_LIMIT = 80


def header_footer_text(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` safe inside an Excel header or footer: ``&`` starts a code there (``&P`` is
    the page number), so a game called "Rock & Roll" must be written ``Rock && Roll``."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("&", "&&")


def orientation_for(widths: Sequence[float]) -> str:
    """``"landscape"`` when the columns are wider than a portrait page, else ``"portrait"``."""
    return "landscape" if sum(widths) > PORTRAIT_MAX_WIDTH else "portrait"


def set_print_layout(
    sheet: Any,
    game: str,
    widths: Sequence[float],
    *,
    header_rows: int = 1,
    last_row: int | None = None,
) -> None:
    """Give an xlsxwriter worksheet a page setup a referee can print.

    A4, landscape when ``widths`` (the column widths) are too wide for portrait, fitted to one
    page wide and as many tall as it needs, the first ``header_rows`` rows repeated on every
    page, the game's name and the sheet's name (Excel's ``&A``) in the header, and the game,
    sheet and "Page N of M" in the footer, so a loose page can be put back where it belongs.
    """
    sheet.set_paper(A4)
    if orientation_for(widths) == "landscape":
        sheet.set_landscape()
    else:
        sheet.set_portrait()
    sheet.fit_to_pages(1, 0)
    sheet.set_margins(left=0.5, right=0.5, top=0.75, bottom=0.75)
    if header_rows:
        sheet.repeat_rows(0, header_rows - 1)
    if last_row is not None:
        sheet.print_area(0, 0, last_row, len(widths) - 1)
    name = header_footer_text(game)
    sheet.set_header(f'&L&"-,Bold"{name}&R&A')
    sheet.set_footer(f"&L{name}&C&A&RPage &P of &N")
