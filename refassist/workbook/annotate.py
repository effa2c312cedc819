"""Marking the problems of a player's sheet on a copy of it, for the player to fix.

A list of problems in an e-mail is hard to act on; the same problems shown on the sheet itself
are not.  `annotate` writes a copy of the player's workbook with every problem cell filled red
(errors) or amber (warnings) and a comment saying what is wrong and how to fix it, plus a
"Problems" sheet listing them all (first, so it is what the player sees on opening).

The copy stays a valid turn sheet: the player fixes the cells and sends it back.  It is always
an ``.xlsx``: for a sheet sent as ``.ods`` it is written from what the ``.ods`` holds (its
sheets, values, merged cells and column widths, read by `sheetio`), not from its formatting,
which no reader keeps.  So the
annotation must be undone cleanly when the sheet is annotated again: the Problems sheet keeps,
in a hidden column, each marked cell's original fill and comment, and a new annotation first
restores them.  Nothing outside the marked cells, the comments and the Problems sheet changes.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from ..atomic import atomic_path
from ..errors import CellProblem
from ..text.i18n import LANGUAGES, Words, words_for
from ..text.words import N_
from .sheetio import open_workbook

PROBLEMS_SHEET = N_("Problems")
AUTHOR = "refassist"
ERROR_FILL = "FFFF7C80"
WARNING_FILL = "FFFFC000"
#: The problems tab's columns, in the player's language (the hidden last one is the tool's).
_HEADERS = (N_("Severity"), N_("Sheet"), N_("Cell"), N_("Found"), N_("Problem"), N_("How to fix"))
_SEVERITY = {"error": N_("error"), "warning": N_("warning")}
_RESTORE_COL = 7
_CELL_RE = re.compile(r"^\$?([A-Z]{1,3})\$?([0-9]{1,7})$")


def _fill_state(cell: Any) -> dict[str, Any]:
    fill = cell.fill
    colour = getattr(fill, "fgColor", None)
    return {
        "pattern": getattr(fill, "patternType", None),
        "type": getattr(colour, "type", None),
        "value": getattr(colour, "value", None) if colour is not None else None,
        "tint": getattr(colour, "tint", 0.0) if colour is not None else 0.0,
    }


def _restore_fill(cell: Any, state: dict[str, Any]) -> None:
    pattern = state.get("pattern")
    if not pattern:
        cell.fill = PatternFill(fill_type=None)
        return
    kind, value = state.get("type"), state.get("value")
    if kind == "theme" and isinstance(value, int):
        from openpyxl.styles.colors import Color

        colour = Color(theme=value, tint=float(state.get("tint") or 0.0))
    elif kind == "indexed" and isinstance(value, int):
        from openpyxl.styles.colors import Color

        colour = Color(indexed=value)
    elif isinstance(value, str):
        from openpyxl.styles.colors import Color

        colour = Color(rgb=value)
    else:
        cell.fill = PatternFill(fill_type=None)
        return
    cell.fill = PatternFill(fill_type=pattern, fgColor=colour, bgColor=colour)


def _target(ws: Worksheet, ref: str) -> Any:
    """The cell to mark for ``ref``: itself, or the top-left cell of the merge it belongs to."""
    for merged in ws.merged_cells.ranges:
        if ref in merged:
            return ws.cell(row=merged.min_row, column=merged.min_col)
    return ws[ref]


def _problems_tab(wb: Workbook) -> str:
    """The tab a previous annotation added, in whichever language it was written ("Problems",
    "Problèmes"); "" for none."""
    names = {words_for(language).gettext(PROBLEMS_SHEET) for language in LANGUAGES}
    return next((t for t in wb.sheetnames if t in names | {PROBLEMS_SHEET}), "")


def _undo_previous(wb: Workbook) -> None:
    """Restore the fills and comments a previous annotation changed, and drop its sheet."""
    tab = _problems_tab(wb)
    if not tab:
        return
    ws = wb[tab]
    for row in ws.iter_rows(min_row=2, min_col=_RESTORE_COL, max_col=_RESTORE_COL):
        text = row[0].value
        if not isinstance(text, str) or not text.startswith("{"):
            continue
        try:
            saved = json.loads(text)
        except ValueError:
            continue
        sheet, ref = saved.get("sheet"), saved.get("cell")
        if sheet not in wb.sheetnames or not isinstance(ref, str) or not _CELL_RE.match(ref):
            continue
        target = wb[sheet]
        if not isinstance(target, Worksheet):
            continue
        cell = target[ref]
        _restore_fill(cell, saved.get("fill") or {})
        comment = saved.get("comment")
        if isinstance(comment, dict) and comment.get("text"):
            cell.comment = Comment(str(comment["text"]), str(comment.get("author") or ""))
        else:
            cell.comment = None
    del wb[tab]


def _comment_text(problems: Sequence[CellProblem], w: Words) -> str:
    parts = []
    for p in problems:
        head = w.gettext("ERROR") if p.severity == "error" else w.gettext("Warning")
        text = w.gettext("{head}: {message}.").format(head=head, message=p.message)
        if p.fix:
            text += f" {p.fix}"
        parts.append(text.replace("..", "."))
    return "\n\n".join(parts)


def _ref(cell: str) -> str:
    return cell.split(":", 1)[0].replace("$", "").upper()


def annotate_workbook(
    wb: Workbook, problems: Sequence[CellProblem], words: Words | None = None
) -> None:
    """Mark ``problems`` on an open workbook (see `annotate`), in ``words``' language (the
    player's; English when not given)."""
    w = words or Words()
    _undo_previous(wb)
    targets: dict[tuple[str, str], list[CellProblem]] = defaultdict(list)
    for p in problems:
        ref = _ref(p.cell)
        if p.sheet not in wb.sheetnames or not _CELL_RE.match(ref):
            continue
        ws = wb[p.sheet]
        if isinstance(ws, Worksheet):
            targets[(p.sheet, _target(ws, ref).coordinate)].append(p)
    restore: list[str] = []
    for (title, coordinate), cell_problems in targets.items():
        cell = wb[title][coordinate]
        old = cell.comment
        restore.append(
            json.dumps(
                {
                    "sheet": title,
                    "cell": coordinate,
                    "fill": _fill_state(cell),
                    "comment": {"text": old.text, "author": old.author} if old else None,
                }
            )
        )
        colour = ERROR_FILL if any(p.severity == "error" for p in cell_problems) else WARNING_FILL
        cell.fill = PatternFill(fill_type="solid", fgColor=colour, bgColor=colour)
        text = _comment_text(cell_problems, w)
        comment = Comment(text[:2000], AUTHOR)
        comment.width = 320
        comment.height = min(400, 80 + 16 * (len(text) // 45))
        cell.comment = comment

    tab = w.gettext(PROBLEMS_SHEET)
    sheet = wb.create_sheet(tab, 0)
    bold = Font(bold=True)
    for col, title in enumerate([*(w.gettext(h) for h in _HEADERS), "restore"], start=1):
        sheet.cell(row=1, column=col, value=title).font = bold
    ordered = sorted(problems, key=lambda p: (p.severity != "error", p.sheet, _sort_key(p.cell)))
    for row, p in enumerate(ordered, start=2):
        severity = w.gettext(_SEVERITY.get(p.severity, p.severity))
        values = (severity, p.sheet, p.cell, p.found, p.message, p.fix)
        for col, value in enumerate(values, start=1):
            c = sheet.cell(row=row, column=col)
            c.value = value
            c.data_type = "s"
            c.alignment = Alignment(wrap_text=True, vertical="top")
        fill = ERROR_FILL if p.severity == "error" else WARNING_FILL
        sheet.cell(row=row, column=1).fill = PatternFill("solid", fgColor=fill, bgColor=fill)
        lines = max(len(p.found) // 28, len(p.message) // 58, len(p.fix) // 48) + 1
        sheet.row_dimensions[row].height = 15 * min(lines, 12)
    # The restore data needs no row of its own: undo reads every cell of the hidden column.
    for row, saved in enumerate(restore, start=2):
        c = sheet.cell(row=row, column=_RESTORE_COL)
        c.value = saved
        c.data_type = "s"
    if not problems:
        sheet.cell(row=2, column=5, value=w.gettext("No problems found."))
    for letter, width in zip("ABCDEFG", (9, 10, 8, 30, 60, 50, 10), strict=True):
        sheet.column_dimensions[letter].width = width
    sheet.column_dimensions["G"].hidden = True
    sheet.freeze_panes = "A2"
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.paperSize = 9  # A4
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    wb.active = 0
    for ws in wb.worksheets:
        ws.sheet_view.tabSelected = ws.title == tab


def _sort_key(ref: str) -> tuple[int, str]:
    m = _CELL_RE.match(ref.split(":", 1)[0].replace("$", "").upper())
    if not m:
        return (0, ref)
    return (int(m.group(2)), m.group(1))


def annotate(
    sheet_path: Path,
    problems: Sequence[CellProblem],
    out_path: Path,
    words: Words | None = None,
) -> Path:
    """Write a copy of ``sheet_path`` with ``problems`` marked on it to ``out_path``.

    The source is opened through `sheetio` (it came from a player); the copy is written
    atomically and ``sheet_path`` is never changed, even when ``out_path`` is the same file
    name in another folder.  ``words``: the player's language (English when not given).
    """
    wb = open_workbook(Path(sheet_path))
    annotate_workbook(wb, problems, words)
    out_path = Path(out_path)
    with atomic_path(out_path) as tmp:
        wb.save(tmp)
    return out_path
