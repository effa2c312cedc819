"""Property tests: what the tool writes reads back identically; random text never crashes.

A fuzzer in the spirit of python-chess's ``fuzz/fen.py``: the notation is the contract between
the sheet, the reply e-mail and the report, so writing then reading must be the identity, and
anything a player types must end in an order or in one of the tool's own errors.
"""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from refassist.errors import RefassistError
from refassist.geometry.hexmap import SECTOR
from refassist.rulesets.fifth_millennium.notation import fleet_text, move_text, system_text
from refassist.rulesets.fifth_millennium.parse import (
    parse_fleet,
    parse_move,
    parse_system,
)
from refassist.rulesets.fifth_millennium.sheet import move_line
from refassist.rulesets.fifth_millennium.state import Fleet
from refassist.workbook.celltext import DASHES

counts = st.integers(min_value=0, max_value=999)
fleets = st.builds(Fleet, F=counts, S=counts, A=counts, Fs=counts, Ms=counts, K=counts, SF=counts)
hexes = st.sampled_from(sorted(SECTOR.hexes()))
years = st.integers(min_value=5001, max_value=9999)
# Names as sector files have them: letters (any script), spaces, apostrophes, hyphens, digits.
name_chars = st.characters(categories=("Lu", "Ll"), max_codepoint=0x2FF) | st.sampled_from(
    list(" '-.0123456789")
)
names = (
    st.text(name_chars, min_size=1, max_size=24)
    .map(lambda s: " ".join(s.split()))
    .filter(lambda s: bool(s) and s[0].isalpha())
)


@given(fleets)
def test_fleet_write_then_read_is_identity(fleet: Fleet) -> None:
    assert parse_fleet(fleet_text(fleet)) == fleet


@given(years, fleets, hexes, hexes, st.one_of(st.none(), years), st.booleans())
def test_move_write_then_read_is_identity(
    year: int, fleet: Fleet, origin: str, destination: str, arrival: int | None, probe: bool
) -> None:
    text = move_text(year, None if probe else fleet, origin, destination, arrival)
    move = parse_move(text, year_default=5001)
    assert move.year == year
    assert move.probe == probe
    assert move.fleet == (Fleet() if probe else fleet)
    assert (move.origin, move.destination, move.arrival) == (origin, destination, arrival)
    assert (
        move_text(
            move.year, None if probe else move.fleet, move.origin, move.destination, move.arrival
        )
        == text
    )


# The master workbook caps years at 9999; a journey across the sector takes at most 70 years.
early_years = st.integers(min_value=5001, max_value=9900)


@given(early_years, fleets, hexes, hexes)
def test_reply_line_reads_back_with_the_computed_arrival(
    year: int, fleet: Fleet, origin: str, destination: str
) -> None:
    move = parse_move(move_text(year, fleet, origin, destination, None), year_default=year)
    line = move_line(move)
    again = parse_move(line, year_default=year)
    assert again.arrival is not None and again.arrival >= year
    assert move_line(again) == line


@given(
    hexes,
    names,
    st.sampled_from("ABCDEX"),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    counts,
    counts,
    counts,
    counts,
    fleets,
    st.one_of(st.none(), counts),
)
def test_system_line_write_then_read_is_identity(
    hex_: str,
    name: str,
    cls: str,
    naval: bool,
    scout: bool,
    hipop: bool,
    dock: bool,
    gl: int,
    opc: int,
    mines: int,
    monitors: int,
    fleet: Fleet,
    income: int | None,
) -> None:
    text = system_text(
        hex_,
        name,
        cls,
        naval_base=naval,
        scout_base=scout,
        hipop=hipop,
        spacedock=dock,
        gl=gl,
        opc=opc,
        mines=mines,
        monitors=monitors,
        fleet=fleet,
        income=income,
    )
    line = parse_system(text)
    assert line.text() == text
    assert (line.hex, line.resource_class, line.fleet, line.income) == (hex_, cls, fleet, income)
    assert (line.naval_base, line.scout_base, line.hipop, line.spacedock) == (
        naval,
        scout,
        hipop,
        dock,
    )
    assert line.name == (name.upper() if hipop else name)


def _spelled(text: str, data: st.DataObject) -> str:
    """The same text as a person might type it: case, spacing and dashes varied."""
    out = []
    for ch in text:
        if ch == "-":
            out.append(data.draw(st.sampled_from(["-", *DASHES])))
        elif ch == " ":
            out.append(data.draw(st.sampled_from([" ", "  ", "", "\u00a0", "\t"])))
        elif ch.isalpha():
            out.append(ch.upper() if data.draw(st.booleans()) else ch.lower())
        else:
            out.append(ch)
    return "".join(out)


@given(years, fleets, hexes, hexes, years, st.data())
def test_odd_spellings_of_a_move_read_the_same(
    year: int, fleet: Fleet, origin: str, destination: str, arrival: int, data: st.DataObject
) -> None:
    text = move_text(year, fleet, origin, destination, arrival)
    typed = _spelled(text, data)
    move = parse_move(typed, year_default=5001)
    assert (move.year, move.fleet, move.origin, move.destination, move.arrival) == (
        year,
        fleet,
        origin,
        destination,
        arrival,
    )


@settings(max_examples=400)
@given(st.text(max_size=120))
def test_random_text_never_raises_anything_but_our_error(text: str) -> None:
    for call in (
        lambda: parse_move(text, year_default=5001, cell="B11"),
        lambda: parse_fleet(text, cell="C11"),
        lambda: parse_system(text),
    ):
        with contextlib.suppress(RefassistError):
            call()


alphabet = st.sampled_from([*"FSAKMPmsfak0123456789 -–—−()[],;|/.\u00a0\u0660٣", "Probe"])


@settings(max_examples=400)
@given(st.lists(alphabet, max_size=40).map("".join))
def test_notation_like_text_never_raises_anything_but_our_error(text: str) -> None:
    with contextlib.suppress(RefassistError):
        parse_move(text, year_default=5001, cell="B11")


cell_values = st.one_of(
    st.none(),
    st.text(max_size=30),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.datetimes(),
)


@settings(max_examples=300)
@given(st.lists(cell_values, min_size=5, max_size=5))
def test_random_cells_never_raise_anything_but_our_error(cells: list[object]) -> None:
    try:
        parse_move(cells, year_default=5001, cell="B11")
    except RefassistError as exc:
        assert getattr(exc, "cell", "") in {"B11", "C11", "D11", "E11", "F11"}
