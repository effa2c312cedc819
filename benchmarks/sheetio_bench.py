"""Benchmark 3: sheet I/O - one turn sheet written and read, and the master at 64 players.

Turn sheets (the 12 filled-in sheets of the turn benchmark's game):

* write: the ruleset's sheet writer (xlsxwriter), per sheet;
* read, A/B in the same run: the reader refassist uses (`sheet.read_sheet`: the checked
  opening of `workbook.sheetio` with openpyxl, then the order parser), against python-calamine
  reading the values of the two sheets the reader needs (Orders and _meta); and whether the
  two give the same value in every input cell the reader looks at.

Master workbook (the state of the 64-player game some turns in):

* write, A/B: refassist's writer (xlsxwriter for the structure, the data rows spliced in as XML,
  `workbook/bulkrows.py`) against xlsxwriter writing every cell (the writer it replaced);
* read, A/B: refassist's reader (python-calamine, then the schema checks) against openpyxl in
  read-only mode reading the same sheets' values; and whether the values are the same.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import xlsxwriter
from python_calamine import CalamineWorkbook

from refassist.rulesets import find_ruleset
from refassist.rulesets.fifth_millennium import sheet as fm_sheet
from refassist.workbook import master
from refassist.workbook.sheetio import open_turn_sheet
from refassist.workbook.sheetreads import SHEET_READS


def _times(call: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        out.append(time.perf_counter() - started)
    return out


def _input_cells() -> list[str]:
    """Every Orders cell the Fifth Millennium reader reads (moves, production, diplomacy,
    messages, the stockpile site)."""
    s = fm_sheet
    cells = []
    for i in range(s.MOVE_ROWS):
        cells += s.move_row_cells(s.MOVE_FIRST_ROW + i)
    for i in range(s.PROD_ROWS):
        row = s.PROD_FIRST_ROW + i
        cells += [f"{c}{row}" for c in (s.PROD_LOCATION_COL, s.PROD_ITEM_COL, s.PROD_QUANTITY_COL)]
    cells.append(s.STOCKPILE_AT_CELL)
    for i in range(s.DIPLO_ROWS):
        row = s.DIPLO_FIRST_ROW + i
        cells += [f"{s.DIPLO_ACTION_COL}{row}", f"{s.DIPLO_PLAYER_COL}{row}"]
    for i in range(s.MSG_ROWS):
        row = s.MSG_FIRST_ROW + i
        cells += [f"{s.MSG_TO_COL}{row}", f"{s.MSG_TEXT_COL}{row}"]
    return cells


def _cell_rc(ref: str) -> tuple[int, int]:
    letters = "".join(ch for ch in ref if ch.isalpha())
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch.upper()) - 64
    return int(ref[len(letters) :]) - 1, col - 1


def _calamine_values(path: Path) -> tuple[list[list[Any]], list[list[Any]]]:
    book = CalamineWorkbook.from_path(str(path))
    orders = book.get_sheet_by_name(fm_sheet.ORDERS_SHEET).to_python(skip_empty_area=False)
    meta = book.get_sheet_by_name("_meta").to_python(skip_empty_area=False)
    return orders, meta


def _same(a: Any, b: Any) -> bool:
    """Equal as the reader would take them ("" and None are both an empty cell; 5 == 5.0)."""
    if a in (None, "") and b in (None, ""):
        return True
    return bool(a == b)


def turn_sheets(game_folder: Path, sheets: list[Path], repeat: int) -> dict[str, Any]:
    from refassist.store.game import Game

    game = Game.open(game_folder)
    state = game.load_state()
    ruleset = game.ruleset
    players = state.active_players()
    target = game_folder.parent / "sheetio-write"
    target.mkdir(exist_ok=True)
    write: list[float] = []
    for player in players:
        path = target / f"{player}.xlsx"
        token = game.token(player, str(state.year))
        write += _times(
            lambda p=player, path=path, t=token: ruleset.write_sheet(
                state, p, path, t, "Sat", game.config.house_rules
            ),
            repeat,
        )
    read_refassist: list[float] = []
    read_calamine: list[float] = []
    compared = differing = 0
    examples: list[str] = []
    cells = _input_cells()
    for path in sheets:
        for _ in range(repeat):
            SHEET_READS.clear()  # measure the reading, not the memory of it
            started = time.perf_counter()
            fm_sheet.read_sheet(path)
            read_refassist.append(time.perf_counter() - started)
            started = time.perf_counter()
            _calamine_values(path)
            read_calamine.append(time.perf_counter() - started)
        opened = open_turn_sheet(path)
        orders, _ = _calamine_values(path)
        for ref in cells:
            r, c = _cell_rc(ref)
            theirs = orders[r][c] if r < len(orders) and c < len(orders[r]) else None
            ours = opened.input_value(fm_sheet.ORDERS_SHEET, ref).value
            compared += 1
            if not _same(ours, theirs):
                differing += 1
                if len(examples) < 3:
                    examples.append(f"{path.name}!{ref}: openpyxl {ours!r}, calamine {theirs!r}")
    return {
        "write": write,
        "read_refassist": read_refassist,
        "read_calamine": read_calamine,
        "cells_compared": compared,
        "cells_differing": differing,
        "examples": examples,
        "size_kb": sum(p.stat().st_size for p in sheets) / len(sheets) / 1024,
    }


def corpus(work: Path) -> dict[str, Any]:
    """Both readers on the hostile-input corpus (``tests/corpus/make_corpus.py``): which
    files each refuses, and which values they read differently.

    A reader built on python-calamine would keep the checks of `workbook.sheetio` that come
    before openpyxl (format, zip container, macros, XML declarations), so the question is what
    openpyxl refuses that calamine opens, and what the two read differently in the files both
    open (a formula in an input cell is the known case: openpyxl sees the formula, calamine only
    its last computed value).
    """
    import io
    import subprocess
    import sys

    from refassist.errors import RefassistError
    from refassist.workbook.sheetio import read_checked_bytes

    out = work / "corpus"
    script = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "make_corpus.py"
    subprocess.run(
        [sys.executable, str(script), str(out)], check=True, capture_output=True, text=True
    )
    cells = _input_cells()
    counts = {
        "files": 0,
        "container_refused": 0,
        "openpyxl_refuses_calamine_opens": 0,
        "both_refuse": 0,
        "calamine_refuses_openpyxl_reads": 0,
        "both_read": 0,
        "files_with_different_values": 0,
        "cells_different": 0,
    }
    examples: list[str] = []
    for path in sorted((out / "cases").glob("*.xls*")):
        counts["files"] += 1
        try:
            data = read_checked_bytes(path)
        except RefassistError:
            counts["container_refused"] += 1
            continue
        SHEET_READS.clear()
        try:
            fm_sheet.read_sheet(path)
            opened = open_turn_sheet(path)
            ours_ok = True
        except RefassistError:
            ours_ok = False
        try:
            book = CalamineWorkbook.from_filelike(io.BytesIO(data))
            orders = book.get_sheet_by_name(fm_sheet.ORDERS_SHEET).to_python(skip_empty_area=False)
            book.get_sheet_by_name("_meta").to_python()
            theirs_ok = True
        except Exception:  # calamine's own error types, whatever the damage
            theirs_ok = False
        if not ours_ok:
            key = "openpyxl_refuses_calamine_opens" if theirs_ok else "both_refuse"
            counts[key] += 1
            if theirs_ok and len(examples) < 4:
                examples.append(f"{path.name}: refused by refassist, opened by calamine")
            continue
        if not theirs_ok:
            counts["calamine_refuses_openpyxl_reads"] += 1
            continue
        counts["both_read"] += 1
        different = 0
        for ref in cells:
            r, c = _cell_rc(ref)
            theirs = orders[r][c] if r < len(orders) and c < len(orders[r]) else None
            got = opened.input_value(fm_sheet.ORDERS_SHEET, ref)
            if not _same(got.value, theirs) or got.problem is not None:
                different += 1
        if different:
            counts["files_with_different_values"] += 1
            counts["cells_different"] += different
            if len(examples) < 4:
                examples.append(f"{path.name}: {different} input cell(s) read differently")
    return {"counts": counts, "examples": examples}


def _cell_by_cell(path: Path, ruleset: Any, state: Any) -> None:
    """The master writer refassist had before `bulkrows`: xlsxwriter, one call per cell."""
    tables = ruleset.to_tables(state)
    book = xlsxwriter.Workbook(str(path), master.SAFE_XLSXWRITER_OPTIONS)
    try:
        master._write_about(book, ruleset, "Benchmark")
        header = book.add_format({"bold": True, "bg_color": "#DDE4EE", "border": 1})
        text = book.add_format({"num_format": "@"})
        for table in ruleset.schema():
            sheet = book.add_worksheet(table.title)
            rows = tables.get(table.name, [])
            for c, col in enumerate(table.columns):
                sheet.write_string(0, c, col.header, header)
                if col.help:
                    sheet.write_comment(0, c, col.help, {"x_scale": 2, "y_scale": 1.2})
            for r, values in enumerate(rows, start=1):
                for c, col in enumerate(table.columns):
                    value = master._display(values.get(col.name, ""), col)
                    if value is None or value == "":
                        continue
                    if col.kind == "bool":
                        sheet.write_string(r, c, "yes" if value else "no")
                    elif col.kind == "int":
                        sheet.write_number(r, c, int(value))
                    else:
                        sheet.write_string(r, c, str(value), text if col.kind == "hex" else None)
            sheet.freeze_panes(1, 0)
            if rows:
                sheet.autofilter(0, 0, len(rows), len(table.columns) - 1)
    finally:
        book.close()


def _openpyxl_values(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        out = {}
        for ws in book.worksheets:
            ws.reset_dimensions()
            out[ws.title] = [tuple(row) for row in ws.iter_rows(values_only=True)]
        return out
    finally:
        book.close()


def _calamine_tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    book = CalamineWorkbook.from_path(str(path))
    return {
        name: [tuple(row) for row in book.get_sheet_by_name(name).to_python()]
        for name in book.sheet_names
    }


def _normal(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Rows without trailing empty cells or rows, numbers as they compare."""
    out = []
    for row in rows:
        cells = list(row)
        while cells and cells[-1] in (None, ""):
            cells.pop()
        out.append(tuple(None if v == "" else v for v in cells))
    while out and not out[-1]:
        out.pop()
    return out


def master_workbook(state: Any, work: Path, repeat: int) -> dict[str, Any]:
    ruleset = find_ruleset("fifth-millennium")
    ours = work / "master-refassist.xlsx"
    theirs = work / "master-cells.xlsx"
    tables = ruleset.to_tables(state)
    write_ours = _times(lambda: master.write_master(ours, ruleset, state, "Benchmark"), repeat)
    write_cells = _times(lambda: _cell_by_cell(theirs, ruleset, state), repeat)
    read_ours = _times(lambda: master.read_master(ours, ruleset), repeat)
    read_openpyxl = _times(lambda: _openpyxl_values(ours), repeat)
    read_calamine_raw = _times(lambda: _calamine_tables(ours), repeat)
    by_openpyxl = _openpyxl_values(ours)
    by_calamine = _calamine_tables(ours)
    same_values = all(
        _normal(by_openpyxl[name]) == _normal(by_calamine[name]) for name in by_calamine
    )
    back = master.read_master(ours, ruleset)
    return {
        "rows": {name: len(rows) for name, rows in tables.items()},
        "cells": sum(len(rows) * 9 for rows in tables.values()),
        "write_refassist": write_ours,
        "write_cell_by_cell": write_cells,
        "read_refassist": read_ours,
        "read_calamine_values": read_calamine_raw,
        "read_openpyxl_values": read_openpyxl,
        "same_values": same_values,
        "round_trip": json.dumps(ruleset.to_json(back), sort_keys=True, default=str)
        == json.dumps(ruleset.to_json(state), sort_keys=True, default=str),
        "size_kb": ours.stat().st_size / 1024,
        "size_cells_kb": theirs.stat().st_size / 1024,
    }
