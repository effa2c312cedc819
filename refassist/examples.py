"""The workbooks a referee and a player start from (the repository's ``workbooks/`` folder).

For every registered game, one folder with:

- ``order-sheet.xlsx``: a turn sheet as a player receives it, for the first player of a short
  example game at its first turn, with every order cell empty: what a turn asks of a player,
  to look at before joining or to print, fill in by hand and post or scan;
- ``order-sheet.pdf``: the same sheet printed by LibreOffice (the program most of our players
  use), so it can be printed without a spreadsheet program;
- ``example-master.xlsx``: the master workbook of that example game after a few turns played
  by the computer players, for a referee who wants to see the tables before starting a game.

They are written from the code (`write_examples`, run by ``scripts/make_workbooks.py``) and
compared with what the code writes now by `tests/test_workbooks.py` (`compare_examples`), so a
change to a sheet or a table that is not followed by a regeneration fails the tests instead of
leaving stale files for users.  The comparison is of content (cell values, sheet names, the
page setup, the printed text), not of bytes: an ``.xlsx`` and a PDF carry the time they were
written.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .demo import computer_sheets, create_demo_game
from .rulesets import all_rulesets
from .rulesets.base import Ruleset
from .store.game import Game
from .store.turnsheets import sheet_filename
from .workbook.libreoffice import convert

ORDER_SHEET = "order-sheet.xlsx"
ORDER_SHEET_PDF = "order-sheet.pdf"
EXAMPLE_MASTER = "example-master.xlsx"
#: The example games' name, seed and length: short enough to keep the files small, long
#: enough that the tables show fleets, holdings and events.
EXAMPLE_NAME = "Example game"
EXAMPLE_SEED = 12
EXAMPLE_TURNS = 3
#: Most players an example game has (the game's own minimum if that is more).
EXAMPLE_PLAYERS = 3

#: Converts an ``.xlsx`` into a PDF in a folder and returns the PDF's path.
PdfConverter = Callable[[Path, Path], Path]


@dataclass
class Written:
    """One file of ``workbooks/`` and what it is, for the command's output."""

    path: Path
    what: str


def example_players(ruleset: Ruleset) -> int:
    """How many computer players an example game of ``ruleset`` has."""
    return min(max(EXAMPLE_PLAYERS, ruleset.min_players), ruleset.max_players)


def play_quietly(game: Game, seed: int) -> None:
    """One turn of computer players through sheets, intake and resolution, without reports
    (the examples need the master, not the PDFs)."""
    from .intake.inbox import intake
    from .turns import resolve_game

    state = game.load_state()
    intake(game, computer_sheets(game, state, seed))
    resolve_game(game)


def write_game_examples(
    ruleset: Ruleset, folder: Path, work: Path, to_pdf: PdfConverter | None
) -> list[Written]:
    """The example files of one game into ``folder``; ``work`` is an empty scratch folder."""
    game = create_demo_game(
        work / "game",
        example_players(ruleset),
        EXAMPLE_SEED,
        ruleset=ruleset,
        name=EXAMPLE_NAME,
    )
    state = game.load_state()
    step = game.step(state)
    first = step.expects[0]
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    sheet = folder / ORDER_SHEET
    shutil.copyfile(game.outbox(step.key) / sheet_filename(first), sheet)
    written.append(Written(sheet, f"{ruleset.title} order sheet ({first}, {step.label})"))
    if to_pdf is not None:
        pdf = to_pdf(sheet, work / "pdf")
        shutil.copyfile(pdf, folder / ORDER_SHEET_PDF)
        written.append(Written(folder / ORDER_SHEET_PDF, "the order sheet printed by LibreOffice"))
    for _ in range(EXAMPLE_TURNS):
        if ruleset.game_over(game.load_state()):
            break
        play_quietly(game, EXAMPLE_SEED)
    master = folder / EXAMPLE_MASTER
    shutil.copyfile(game.master_path, master)
    written.append(Written(master, f"{ruleset.title} master workbook after {EXAMPLE_TURNS} turns"))
    return written


def write_examples(
    out: Path,
    rulesets: Iterable[Ruleset] | None = None,
    to_pdf: PdfConverter | None = None,
) -> list[Written]:
    """Write every game's example files into ``out/<ruleset name>/``."""
    written = []
    for ruleset in all_rulesets() if rulesets is None else rulesets:
        with tempfile.TemporaryDirectory(prefix="refassist-examples-") as work:
            written += write_game_examples(ruleset, Path(out) / ruleset.name, Path(work), to_pdf)
    return written


# -- LibreOffice --------------------------------------------------------------------------------


def libreoffice_pdf(source: Path, work: Path) -> Path:
    """``source`` printed to PDF by LibreOffice in a folder under ``work``."""
    return convert(source, work, "pdf")


# -- comparing ----------------------------------------------------------------------------------


def workbook_content(path: Path) -> dict[str, Any]:
    """What a workbook says, without when it was written: for every sheet its state (visible
    or hidden), every non-empty cell's value, and its page setup."""
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=False)
    content: dict[str, Any] = {}
    for ws in wb.worksheets:
        cells = {
            cell.coordinate: cell.value
            for row in ws.iter_rows()
            for cell in row
            if cell.value not in (None, "")
        }
        content[ws.title] = {
            "state": ws.sheet_state,
            "cells": cells,
            "orientation": ws.page_setup.orientation,
            "paper": ws.page_setup.paperSize,
            "fit_width": ws.page_setup.fitToWidth if ws.sheet_properties.pageSetUpPr else None,
            "print_titles": ws.print_title_rows,
            "footer": ws.oddFooter.left.text,
        }
    wb.close()
    return content


def pdf_text(path: Path) -> list[str]:
    """The text of every page of a PDF, one string a page."""
    from pypdf import PdfReader

    return [" ".join(page.extract_text().split()) for page in PdfReader(path).pages]


def differences(committed: Path, fresh: Path) -> list[str]:
    """How the files under ``committed`` differ in content from those under ``fresh`` (both
    ``workbooks/``-shaped folders); empty when they say the same."""
    found = []
    names = {p.relative_to(fresh) for p in fresh.rglob("*") if p.suffix in (".xlsx", ".pdf")}
    for name in sorted(names):
        old, new = committed / name, fresh / name
        if not old.is_file():
            found.append(f"{name}: missing")
        elif name.suffix == ".xlsx":
            before, after = workbook_content(old), workbook_content(new)
            if before != after:
                found.append(f"{name}: {_first_difference(before, after)}")
        elif pdf_text(old) != pdf_text(new):
            found.append(f"{name}: the printed text differs")
    stale = {
        p.relative_to(committed)
        for p in committed.rglob("*")
        if p.suffix in (".xlsx", ".pdf") and p.relative_to(committed) not in names
    }
    found += [f"{name}: no longer written by the code" for name in sorted(stale)]
    return found


def _first_difference(before: dict[str, Any], after: dict[str, Any]) -> str:
    if list(before) != list(after):
        return f"sheets {list(before)} are now {list(after)}"
    for sheet in before:
        for key in before[sheet]:
            if before[sheet][key] == after[sheet][key]:
                continue
            was, now = before[sheet][key], after[sheet][key]
            if key != "cells":
                return f"sheet {sheet!r}: {key} was {was!r}, now {now!r}"
            for ref in sorted(set(was) | set(now), key=_ref_order):
                if was.get(ref) != now.get(ref):
                    return f"sheet {sheet!r} cell {ref}: {was.get(ref)!r} is now {now.get(ref)!r}"
    return "differs"


def _ref_order(ref: str) -> tuple[int, str]:
    letters = "".join(ch for ch in ref if ch.isalpha())
    return int(ref[len(letters) :]), letters


def describe(written: Sequence[Written], root: Path) -> list[str]:
    """One line a written file, relative to ``root``."""
    return [f"{w.path.relative_to(root)}: {w.what}" for w in written]
