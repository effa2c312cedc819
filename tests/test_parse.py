"""The tolerant notation parser: what players type, and what it refuses (with the cell)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from refassist.errors import InvalidOrder, RefassistError
from refassist.rulesets.fifth_millennium.parse import (
    cell_text,
    move_cells_blank,
    normalise,
    parse_count,
    parse_fleet,
    parse_hex_text,
    parse_move,
    parse_system,
    parse_year_text,
    shift_cell,
)
from refassist.rulesets.fifth_millennium.state import Fleet

EXAMPLE = Fleet(F=10, S=3, A=1, Ms=2)


@pytest.mark.parametrize(
    "text",
    [
        "F10 S3 A1(Fs0 Ms2 K0)",
        "f10 s3 a1(fs0 ms2 k0)",
        "F10S3A1(Fs0Ms2K0)",
        "  F10   S3 A1 ( Fs0 Ms2 K0 )  ",
        "F 10 S 3 A 1 (Fs 0 Ms 2 K 0)",
        "F10 S3 A1 Ms2",
        "Ms2 A1 S3 F10",
        "F10, S3, A1 [Ms2]",
        "Ｆ１０ Ｓ３ Ａ１（Ｆｓ０ Ｍｓ２ Ｋ０）",  # full-width, as some input methods type it
        "F10\u00a0S3\u00a0A1(Fs0\u202fMs2 K0)",  # non-breaking and narrow spaces
        "F10 S3 A1\u200b(Fs0 Ms2 K0)",  # zero-width space from a web page
    ],
)
def test_fleet_spellings_read_the_same(text: str) -> None:
    assert parse_fleet(text) == EXAMPLE


def test_missing_parenthesised_part_is_zeros() -> None:
    assert parse_fleet("F4 S0 A0") == Fleet(F=4)


def test_sfba_levels_and_kkm_alias() -> None:
    assert parse_fleet("F6 S2 A1(Fs0 Ms0 K4 SF2)") == Fleet(F=6, S=2, A=1, K=4, SF=2)
    assert parse_fleet("F1 KKM3") == Fleet(F=1, K=3)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("F10 M2", "monitors"),
        ("F10 X3", "not a squadron type"),
        ("F10 S", "needs a number"),
        ("F10 F2", "given twice"),
        ("10 F", "no squadron letter"),
        ("", "missing"),
        ("F10 Probe", "probe travels alone"),
        ("F1000000", "far too many"),
        ("F10 S3 A1 <script>", "unexpected character"),
    ],
)
def test_bad_fleets_are_refused_with_a_reason(text: str, words: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        parse_fleet(text, cell="C12")
    assert words in str(info.value)
    assert info.value.cell == "C12"
    assert info.value.text == text.strip()


@pytest.mark.parametrize(
    "text",
    [
        "5001 - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - 5003",
        "5001 – F10 S3 A1(Fs0 Ms2 K0) – 2710 – 2712 – 5003",  # en dashes
        "5001 — F10 S3 A1(Fs0 Ms2 K0) — 2710 — 2712 — 5003",  # em dashes
        "5001 \u2212 F10 S3 A1(Fs0 Ms2 K0) \u2212 2710 \u2212 2712 \u2212 5003",  # minus sign
        "5001 \u2012 F10 S3 A1(Fs0 Ms2 K0) \u2012 2710 \u2012 2712 \u2012 5003",  # figure dash
        "5001-F10S3A1(Fs0Ms2K0)-2710-2712-5003",
        "5001 f10 s3 a1 ms2 2710 2712 5003",
        "1 - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - 3",  # turn numbers
        "５００１ - F10 S3 A1(Fs0 Ms2 K0) - ２７１０ - ２７１２ - ５００３",
    ],
)
def test_move_spellings_read_the_same(text: str) -> None:
    move = parse_move(text, year_default=5001, cell="B11")
    assert (move.year, move.fleet, move.origin, move.destination, move.arrival) == (
        5001,
        EXAMPLE,
        "2710",
        "2712",
        5003,
    )
    assert move.cell == "B11"
    assert not move.probe


def test_missing_arrival_and_year_and_short_hexes() -> None:
    move = parse_move("F2 - 510 - 0512", year_default=5004)
    assert (move.year, move.origin, move.destination, move.arrival) == (5004, "0510", "0512", None)


def test_probe_line() -> None:
    move = parse_move("5001- Probe - 3220 - 1938 - 5026", year_default=5001)
    assert move.probe and move.fleet == Fleet()
    assert (move.origin, move.destination, move.arrival) == ("3220", "1938", 5026)
    assert parse_move("PROBES 3220 1938", year_default=5002).probe


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("5001 - F10 - 2710", "departure and destination hexes are missing"),
        ("5001 - F10 - 2710 - 2712 - 5003 - 7", "numbers after the fleet"),
        ("5001 - 5002 - F10 - 2710 - 2712", "before the fleet"),
        ("5001 - 2710 - 2712", "no fleet"),
        ("5001 - F10 - 27100 - 2712", "not a departure hex"),
        ("5001 - F10 - 2710 - 12", "not a destination hex"),
        ("12345 - F10 - 2710 - 2712", "not a turn"),
        ("5001 - F10 - 2710 - 2712 - 12345", "not an arrival year"),
        ("5001 - F1\u0660 - 2710 - 2712", "ARABIC-INDIC DIGIT ZERO"),
        ("5001 - F10 - \u0968\u096d\u0967\u0966 - 2712", "DEVANAGARI"),
        ("5001 - F10 S3 A1 " + "x" * 300, "characters long"),
        ('=HYPERLINK("http://x")', "unexpected character"),
    ],
)
def test_bad_moves_are_refused(text: str, words: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        parse_move(text, year_default=5001, cell="B14")
    assert words in str(info.value)
    assert info.value.cell == "B14"


def test_look_alike_digits_are_refused_not_read() -> None:
    # Python's int() would read Arabic-Indic digits as 2710; the parser must not.
    assert int("\u0662\u0667\u0661\u0660") == 2710
    with pytest.raises(InvalidOrder, match="looks like a digit"):
        parse_hex_text("\u0662\u0667\u0661\u0660", cell="D11")


def test_normalise() -> None:
    assert normalise("  5001\u2013F10\u00a0\u00a0S3\t") == "5001-F10 S3"
    assert normalise("ａｂｃ１２３") == "abc123"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("0510", "0510"), ("510", "0510"), (510, "0510"), (510.0, "0510"), (" 1827 ", "1827")],
)
def test_hex_forms(value: object, expected: str) -> None:
    assert parse_hex_text(value) == expected


@pytest.mark.parametrize("value", ["51", "05100", "A510", "5.5", 5.5, True, "", "05 10 x"])
def test_bad_hexes(value: object) -> None:
    with pytest.raises(InvalidOrder):
        parse_hex_text(value, cell="D11")


def test_years_and_turn_numbers() -> None:
    assert parse_year_text("5003") == 5003
    assert parse_year_text(5003.0) == 5003
    assert parse_year_text("3") == 5003
    assert parse_year_text(0) == 5000
    for bad in ("1999", "50031", "year", "-3"):
        with pytest.raises(InvalidOrder):
            parse_year_text(bad)


def test_counts() -> None:
    assert parse_count("2") == 2
    assert parse_count(3.0) == 3
    with pytest.raises(InvalidOrder, match="at least 1"):
        parse_count("0")
    with pytest.raises(InvalidOrder):
        parse_count("two")


def test_cell_text_refuses_dates_the_spreadsheet_invented() -> None:
    assert cell_text(None) == ""
    assert cell_text(2710.0) == "2710"
    with pytest.raises(InvalidOrder, match="date or time"):
        cell_text(datetime(2026, 12, 27), cell="E11")
    with pytest.raises(InvalidOrder, match="date or time"):
        cell_text(date(2026, 12, 27), cell="E11")


# -- movement rows (cells) ----------------------------------------------------------------


def test_row_in_columns_with_numbers_and_text() -> None:
    move = parse_move([5001, "f10 s3 a1 ms2", 2710, "2712", 5003], year_default=5001, cell="B11")
    assert (move.fleet, move.origin, move.destination, move.arrival) == (
        EXAMPLE,
        "2710",
        "2712",
        5003,
    )
    assert move.cell == "B11"


def test_row_whole_line_in_turn_cell() -> None:
    move = parse_move(
        ["5001 - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - 5003", None, None, None, None],
        year_default=5001,
        cell="B12",
    )
    assert move.fleet == EXAMPLE and move.arrival == 5003 and move.cell == "B12"


def test_row_whole_line_in_fleet_cell_with_prefilled_year() -> None:
    move = parse_move(
        [5002, "F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712", None, None, None],
        year_default=5001,
        cell="B13",
    )
    assert move.year == 5002 and move.destination == "2712" and move.cell == "B13"


def test_row_whole_line_in_fleet_cell_disagreeing_with_turn_cell() -> None:
    with pytest.raises(InvalidOrder, match="make them agree") as info:
        parse_move(
            [5002, "5003 - F10 - 2710 - 2712", None, None, None], year_default=5002, cell="B13"
        )
    assert info.value.cell == "C13"


def test_row_line_in_turn_cell_and_columns_filled_is_ambiguous() -> None:
    with pytest.raises(InvalidOrder, match="one line in the first cell or one part per column"):
        parse_move(
            ["5001 - F1 - 2710 - 2712", "F1", "2710", "2712", None], year_default=5001, cell="B11"
        )


@pytest.mark.parametrize(
    ("cells", "bad_cell"),
    [
        ([5001, "F10", "27x0", "2712", None], "D11"),
        ([5001, "F10", "2710", "", None], "E11"),
        ([5001, "F10", "2710", "2712", "soon"], "F11"),
        ([5001, "", "2710", "2712", None], "C11"),
        (["fifty", "F10", "2710", "2712", None], "B11"),
        ([5001, "F10 Q1", "2710", "2712", None], "C11"),
    ],
)
def test_row_errors_name_the_exact_cell(cells: list[object], bad_cell: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        parse_move(cells, year_default=5001, cell="B11")
    assert info.value.cell == bad_cell


def test_probe_in_columns() -> None:
    move = parse_move([None, " probe ", "3220", "1938", None], year_default=5007, cell="B20")
    assert move.probe and move.year == 5007


def test_blank_rows() -> None:
    assert move_cells_blank([5001, None, None, None, None])
    assert move_cells_blank([None, "", "  ", None, None])
    assert not move_cells_blank(["5001 - F1 - 0101 - 0102", None, None, None, None])
    assert not move_cells_blank([5001, None, "0101", None, None])


def test_shift_cell() -> None:
    assert shift_cell("B14", 2) == "D14"
    assert shift_cell("Z3", 1) == "AA3"


def test_system_line_of_the_rules() -> None:
    line = parse_system("1827 TERRA A N S Hi G0 O0 Mi0 M0 - F15 S0 A0(Fs0 Ms0 K0) - 8")
    assert (line.hex, line.name, line.resource_class) == ("1827", "TERRA", "A")
    assert line.naval_base and line.scout_base and line.hipop
    assert line.fleet == Fleet(F=15) and line.income == 8
    assert line.text() == "1827 TERRA A N S Hi G0 O0 Mi0 M0 - F15 S0 A0(Fs0 Ms0 K0) - 8"


def test_system_line_with_spacedock_and_dashes() -> None:
    line = parse_system("0510 Port Alpha B(A) G2 O1 Mi3 M1 – F1 S0 A0(Fs0 Ms0 K0)")
    assert line.spacedock and line.name == "Port Alpha" and line.income is None
    assert (line.gl, line.opc, line.mines, line.monitors) == (2, 1, 3, 1)


def test_every_parse_error_is_a_refassist_error() -> None:
    for bad in ("?", "F", "Probe", "5001 -- -- --"):
        with pytest.raises(RefassistError):
            parse_move(bad, year_default=5001)


def test_a_flight_is_written_as_the_move_that_sent_it() -> None:
    """The empire sheet and the report list flights in hyperspace in the movement notation
    (`notation.flight_text`), a probe as ``Probe``."""
    from refassist.rulesets.fifth_millennium.notation import flight_text
    from refassist.rulesets.fifth_millennium.state import Flight

    fleet = Fleet(F=10, S=3, A=1, Ms=2)
    flight = Flight("5001-Ann-1", "Ann", "2710", "2712", 5001, 5003, fleet)
    assert flight_text(flight) == "5001 - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - 5003"
    probe = Flight("5001-Ann-2", "Ann", "3220", "1938", 5001, 5026, probe=True)
    assert flight_text(probe) == "5001 - Probe - 3220 - 1938 - 5026"
