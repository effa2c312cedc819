"""The skeleton of every game's turn sheet: the file, its pages, the hidden lists and meta.

A game lays out its own pages (`refassist/rulesets/<game>/sheet.py`); what is the same in every
game lives here, so that a player of several games finds the same printed pages and the same
protection, and so that the engine's checks (`sheetio.open_turn_sheet`) always find the meta
sheet they look for:

* the file is written to a temporary name and renamed (a half-written sheet never exists);
* xlsxwriter is told never to turn a string into a formula, a link or a number;
* each visible page prints on A4, one page wide, with the game, the reader and the step in its
  footer, and is protected with its input cells left open;
* the dropdown lists go on a hidden, protected sheet (`DropdownLists`);
* the meta data that names the sheet (ruleset, layout version, game, player, step, signature)
  goes on a very hidden, protected sheet the player never sees.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import xlsxwriter

from ..atomic import atomic_path
from ..errors import NotATurnSheet
from ..text.i18n import current, said
from .master import SAFE_XLSXWRITER_OPTIONS
from .sheetio import META_FORMAT, META_SHEET, TurnSheetFile
from .sheetkit import DropdownLists

#: The hidden sheet of dropdown lists, in every game's turn sheet.
LISTS_SHEET = "Lists"


class TurnBook:
    """An open turn sheet being written: its visible pages in order, the dropdown lists."""

    def __init__(self, wb: Any, pages: Sequence[str], widths: Mapping[str, float]) -> None:
        self.wb = wb
        self.pages = [wb.add_worksheet(name) for name in pages]
        for letter, width in widths.items():
            col = ord(letter) - 65
            self.pages[0].set_column(col, col, width)
        self._lists = wb.add_worksheet(LISTS_SHEET)
        self._meta = wb.add_worksheet(META_SHEET)
        self.lists = DropdownLists(self._lists, LISTS_SHEET)

    def finish(
        self,
        *,
        footer: str,
        print_areas: Sequence[str],
        meta: Sequence[tuple[str, str]],
        landscape: bool = False,
    ) -> None:
        """Print setup and protection of every page (``print_areas`` one per page, in order;
        ``landscape`` for a wide table), the first page active, the lists hidden and ``meta``
        (key, value) on the meta sheet."""
        page_of = current().gettext("Page {page} of {pages}").format(page="&P", pages="&N")
        footer = "&L" + footer.replace("&", "&&") + "&R" + page_of
        for sheet, area in zip(self.pages, print_areas, strict=True):
            sheet.set_paper(9)
            if landscape:
                sheet.set_landscape()
            else:
                sheet.set_portrait()
            sheet.fit_to_pages(1, 0)
            sheet.set_margins(left=0.5, right=0.5, top=0.6, bottom=0.6)
            sheet.set_footer(footer)
            sheet.protect("", {"select_locked_cells": True, "select_unlocked_cells": True})
            sheet.print_area(area)
        self.pages[0].activate()
        self._lists.protect("")
        self._lists.hide()
        for r, (key, value) in enumerate((("format", META_FORMAT), *meta)):
            self._meta.write_string(r, 0, key)
            self._meta.write_string(r, 1, value)
        self._meta.protect("")
        self._meta.very_hidden()


@contextlib.contextmanager
def turn_workbook(
    path: Path,
    *,
    title: str,
    subject: str,
    pages: Sequence[str],
    widths: Mapping[str, float],
) -> Iterator[TurnBook]:
    """Write a turn sheet at ``path`` atomically: the caller fills the pages of the `TurnBook`
    (the first with its columns ``widths``, by letter) and calls its `finish`; the file
    appears under its name only when all went well."""
    with atomic_path(Path(path)) as tmp:
        wb = xlsxwriter.Workbook(str(tmp), SAFE_XLSXWRITER_OPTIONS)
        try:
            wb.set_properties({"title": title, "subject": subject, "author": "refassist"})
            yield TurnBook(wb, pages, widths)
        finally:
            wb.close()


# -- reading the meta back ---------------------------------------------------------------------


def check_layout(sheet: TurnSheetFile, ruleset: str, game: str, readable: Sequence[str]) -> None:
    """Refuse a sheet of another game or of a layout this refassist does not read (its cells
    would be misread).  ``game`` is the game's title for the message, ``readable`` the layout
    versions its reader knows, the current one last."""
    meta = sheet.meta
    if meta.get("ruleset") != ruleset:
        raise NotATurnSheet(
            said(
                "{name} is a turn sheet for {rules}, not {game}",
                name=sheet.name,
                rules=repr(meta.get("ruleset")),
                game=game,
            )
        )
    if meta.get("format_version") not in readable:
        raise NotATurnSheet(
            said(
                "{name} has turn-sheet layout version {version}; this refassist reads version "
                "{readable}; use the sheet the referee sent",
                name=sheet.name,
                version=repr(meta.get("format_version")),
                readable=readable[-1],
            )
        )


def meta_number(sheet: TurnSheetFile, key: str, lowest: int, highest: int) -> int:
    """The whole number under ``key`` in the meta, refused as damaged outside its range."""
    value = sheet.meta.get(key, "")
    if not value.isdigit() or not lowest <= int(value) <= highest:
        raise NotATurnSheet(
            said(
                "{name}: the sheet's {key} {value} is damaged; use the sheet you were sent",
                name=sheet.name,
                key=key,
                value=repr(value),
            )
        )
    return int(value)


def meta_names(sheet: TurnSheetFile, key: str) -> list[str]:
    """The list of names under ``key`` in the meta (JSON); nothing if it is damaged, since the
    names only help the reader (players to address, fleets to expect)."""
    try:
        found = json.loads(sheet.meta.get(key, "[]"))
    except ValueError:
        return []
    return [name for name in found if isinstance(name, str)] if isinstance(found, list) else []
