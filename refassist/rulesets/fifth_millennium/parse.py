"""Reading Fifth Millennium notation the way people type it.

Players copy the rules' examples with their own spacing, case and dashes, type hexes as numbers
(``510`` for ``0510``), leave out what they consider obvious (the arrival year, an empty
parenthesised part) and paste text from word processors full of en dashes and non-breaking
spaces.  This parser accepts all of that and refuses, with one sentence saying what to type
instead, anything it cannot read with certainty.  The grammar is documented in
``docs/notation.md``; anything `notation.py` writes reads back identically here (property tests
in ``tests/test_notation_properties.py``).

Every error is an `InvalidOrder` carrying the text found and the cell it came from, and nothing
else escapes: a player's text is hostile until read.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...errors import InvalidOrder
from ...workbook.celltext import cell_text, char_name, clip, normalise
from ...workbook.sheetkit import shift_cell
from ..base import as_row
from .notation import system_text
from .orders import Move
from .state import BASE_YEAR, FLEET_FIELDS, Fleet

#: Longest text read as one order; longer text is refused rather than scanned.
MAX_ORDER_LENGTH = 200
#: Most digits a squadron count may have (a typo such as 1000000 squadrons is refused).
MAX_COUNT_DIGITS = 6

#: Fleet designation codes (upper-cased) to `Fleet` fields.  ``KKM`` is accepted for ``K``.
FLEET_CODES = {
    "F": "F",
    "S": "S",
    "A": "A",
    "FS": "Fs",
    "MS": "Ms",
    "K": "K",
    "KKM": "K",
    "SF": "SF",
}
PROBE_WORDS = frozenset({"PROBE", "PROBES"})

_TOKEN = re.compile(
    r"\s*(?:(?P<word>[A-Za-z]+)|(?P<num>[0-9]+)|(?P<sep>[-,;|/])|(?P<open>[(\[{])|(?P<close>[)\]}]))"
)


# --------------------------------------------------------------------------------------------
# Text clean-up
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# Numbers, hexes, years
# --------------------------------------------------------------------------------------------


def parse_hex_text(value: Any, *, cell: str = "", what: str = "hex") -> str:
    """A hex typed as ``0510``, ``510``, ``" 0510 "`` or the number 510, as ``XXYY``.

    Whether the hex is on the map is a rule, checked by the validator.
    """
    raw = cell_text(value, cell=cell)
    text = normalise(raw, cell=cell, found=raw).replace(" ", "")
    if not text:
        raise InvalidOrder(f"the {what} is missing; type a hex number such as 1827", raw, cell)
    if not text.isdigit() or not 3 <= len(text) <= 4:
        raise InvalidOrder(
            f"{clip(raw)!r} is not a {what}; type the four digits of a hex, column then row, "
            "e.g. 1827 or 0510",
            raw,
            cell,
        )
    return text.zfill(4)


def year_from_number(number: int, *, raw: str = "", cell: str = "", what: str = "year") -> int:
    """A year from a number: ``5003`` is a year, ``3`` is turn 3 (= 5003)."""
    if BASE_YEAR <= number <= 9999:
        return number
    if 0 <= number <= 999:
        return BASE_YEAR + number
    raise InvalidOrder(
        f"{raw or number!r} is not a {what}; write the year (e.g. 5003) or the turn number (3)",
        raw or str(number),
        cell,
    )


def parse_year_text(value: Any, *, cell: str = "", what: str = "year") -> int:
    """A year typed as ``5003``, ``"5003"`` or as the turn number ``3`` (read as 5003)."""
    raw = cell_text(value, cell=cell)
    text = normalise(raw, cell=cell, found=raw).replace(" ", "")
    if not text.isdigit() or len(text) > 4:
        raise InvalidOrder(
            f"{clip(raw)!r} is not a {what}; write the year (e.g. 5003) or the turn number (3)",
            raw,
            cell,
        )
    return year_from_number(int(text), raw=raw, cell=cell, what=what)


def parse_count(
    value: Any,
    *,
    cell: str = "",
    what: str = "quantity",
    minimum: int = 1,
    maximum: int | None = None,
) -> int:
    """A whole number typed as text or as a number, from ``minimum`` to ``maximum``."""
    raw = cell_text(value, cell=cell)
    text = normalise(raw, cell=cell, found=raw).replace(" ", "")
    if not text.isdigit() or len(text) > MAX_COUNT_DIGITS:
        raise InvalidOrder(
            f"{clip(raw)!r} is not a {what}; type a whole number such as 2", raw, cell
        )
    number = int(text)
    if number < minimum:
        raise InvalidOrder(f"the {what} must be at least {minimum}", raw, cell)
    if maximum is not None and number > maximum:
        raise InvalidOrder(
            f"the {what} {number} is out of range: a line orders {minimum} to {maximum}; "
            "split a bigger order over several lines",
            raw,
            cell,
        )
    return number


# --------------------------------------------------------------------------------------------
# Tokens and fleets
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Token:
    kind: str  # word, num, sep, open, close
    text: str
    #: Typed after a space: ``F -3`` is two things, ``F-3`` one the player meant as one.
    spaced: bool = False


def _tokens(text: str, *, raw: str, cell: str) -> list[_Token]:
    out: list[_Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            rest = text[pos:].lstrip()
            if not rest:
                break
            ch = rest[0]
            raise InvalidOrder(
                f"unexpected character {ch!r} ({char_name(ch)}); orders use letters, digits, "
                "dashes, spaces and parentheses only",
                raw,
                cell,
            )
        kind = m.lastgroup or ""
        out.append(_Token(kind, m.group(kind), m.group(0)[:1].isspace()))
        pos = m.end()
    return out


def _as_typed(tokens: Sequence[_Token], i: int) -> str:
    """The squadron code at ``tokens[i]`` with the number the player wrote for it, as typed
    (spaces aside): ``G10``, ``F-3``; a message names that, not the letter alone."""
    after = list(itertools.takewhile(lambda t: not t.spaced, tokens[i + 1 : i + 3]))
    if after and after[0].kind == "num":
        return tokens[i].text + after[0].text
    if len(after) == 2 and after[0].kind == "sep" and after[1].kind == "num":
        return tokens[i].text + after[0].text + after[1].text
    return tokens[i].text


def _fleet_from_tokens(
    tokens: Sequence[_Token], *, raw: str, cell: str, following: Sequence[_Token] = ()
) -> Fleet:
    """A fleet from its tokens: code/number pairs in any order, brackets and commas ignored.
    ``following``: the tokens after the fleet on its line, for naming a code as typed."""
    counts: dict[str, int] = {}
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.kind in ("sep", "open", "close"):
            i += 1
            continue
        if tok.kind == "num":
            raise InvalidOrder(
                f"the number {tok.text} in the fleet has no squadron letter before it; write "
                "the fleet as F10 S3 A1(Fs0 Ms2 K0)",
                raw,
                cell,
            )
        code = tok.text.upper()
        if code in ("M", "MON", "MONITOR", "MONITORS"):
            raise InvalidOrder(
                "monitors (M) never leave their system; take them out of the fleet", raw, cell
            )
        if code in PROBE_WORDS or code == "P":
            raise InvalidOrder(
                "a probe travels alone: write it on its own line as 5001 - Probe - 3220 - 1938",
                raw,
                cell,
            )
        fieldname = FLEET_CODES.get(code)
        typed = _as_typed([*tokens, *following], i)
        if fieldname is None:
            what = f"{typed!r}: {tok.text!r}" if typed != tok.text else repr(typed)
            raise InvalidOrder(
                f"{what} is not a squadron type; use F, S, A, Fs, Ms, K or SF, "
                "e.g. F10 S3 A1(Fs0 Ms2 K0)",
                raw,
                cell,
            )
        if i + 1 >= len(tokens) or tokens[i + 1].kind != "num":
            if typed != tok.text:
                raise InvalidOrder(
                    f"{typed!r} is not a number of squadrons; write the number right after "
                    f"{tok.text}, e.g. {fieldname}3 (a count is never below 0)",
                    raw,
                    cell,
                )
            raise InvalidOrder(f"{tok.text} needs a number after it, e.g. {fieldname}0", raw, cell)
        digits = tokens[i + 1].text
        if len(digits) > MAX_COUNT_DIGITS:
            raise InvalidOrder(f"{tok.text}{digits} is far too many squadrons", raw, cell)
        if fieldname in counts:
            raise InvalidOrder(
                f"{fieldname} is given twice in the fleet; give each type once", raw, cell
            )
        counts[fieldname] = int(digits)
        i += 2
    if not counts:
        raise InvalidOrder("no fleet found; write it as F10 S3 A1(Fs0 Ms2 K0), or Probe", raw, cell)
    return Fleet(**{f: counts.get(f, 0) for f in FLEET_FIELDS})


def _prepare(value: Any, *, cell: str, what: str) -> tuple[str, str]:
    raw = cell_text(value, cell=cell) if not isinstance(value, str) else value.strip()
    if len(raw) > MAX_ORDER_LENGTH:
        raise InvalidOrder(
            f"this {what} is {len(raw)} characters long; an order fits in "
            f"{MAX_ORDER_LENGTH}, so check that only one order is in the cell",
            clip(raw),
            cell,
        )
    return raw, normalise(raw, cell=cell, found=raw)


def parse_fleet(text: Any, *, cell: str = "") -> Fleet:
    """A fleet designation: ``F10 S3 A1(Fs0 Ms2 K0)``, ``f10s3a1``, ``F10 S3 A1`` (rest 0).

    Codes are case-insensitive and may come in any order; each at most once.  ``SF#`` (SFBA
    levels) is our extension of the printed notation.
    """
    raw, text_ = _prepare(text, cell=cell, what="fleet")
    if not text_:
        raise InvalidOrder("the fleet is missing; write it as F10 S3 A1(Fs0 Ms2 K0)", raw, cell)
    return _fleet_from_tokens(_tokens(text_, raw=raw, cell=cell), raw=raw, cell=cell)


# --------------------------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------------------------


def _split_line(tokens: list[_Token]) -> tuple[list[_Token], list[_Token], list[_Token], bool]:
    """Leading numbers, the fleet's tokens, trailing numbers, and whether it is a probe."""
    words = [i for i, t in enumerate(tokens) if t.kind == "word"]
    if not words:
        return tokens, [], [], False
    first, last = words[0], words[-1]
    probe = tokens[first].text.upper() in PROBE_WORDS and first == last
    end = last + 1
    if not probe and end < len(tokens) and tokens[end].kind == "num":
        end += 1
    # Closing brackets belong to the fleet.
    while end < len(tokens) and tokens[end].kind == "close":
        end += 1
    start = first
    while start > 0 and tokens[start - 1].kind == "open":
        start -= 1
    fleet_tokens = tokens[start:end] if not probe else [tokens[first]]
    if probe:
        start, end = first, first + 1
    return tokens[:start], fleet_tokens, tokens[end:], probe


def _numbers(tokens: Sequence[_Token], *, raw: str, cell: str, where: str) -> list[str]:
    nums = []
    for tok in tokens:
        if tok.kind == "num":
            nums.append(tok.text)
        elif tok.kind != "sep":
            raise InvalidOrder(
                f"unexpected {tok.text!r} {where}; write the move as "
                "5001 - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - 5003",
                raw,
                cell,
            )
    return nums


def parse_move_line(text: Any, *, year_default: int, cell: str = "") -> Move:
    """One whole move line: ``[year -] fleet|Probe - departure - destination [- arrival]``."""
    raw, text_ = _prepare(text, cell=cell, what="move")
    if not text_:
        raise InvalidOrder("this move is empty", raw, cell)
    tokens = _tokens(text_, raw=raw, cell=cell)
    lead, fleet_tokens, trail, probe = _split_line(tokens)
    if not fleet_tokens:
        raise InvalidOrder(
            "no fleet found in this move; write it as "
            "5001 - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - 5003 (or Probe instead of the fleet)",
            raw,
            cell,
        )
    years = _numbers(lead, raw=raw, cell=cell, where="before the fleet")
    if len(years) > 1:
        raise InvalidOrder(
            f"{len(years)} numbers before the fleet; only the turn (e.g. 5001) goes there",
            raw,
            cell,
        )
    year = year_default
    if years:
        if len(years[0]) > 4:
            raise InvalidOrder(f"{years[0]} is not a turn; write the year, e.g. 5001", raw, cell)
        year = year_from_number(int(years[0]), raw=years[0], cell=cell, what="turn")
    fleet = (
        Fleet() if probe else _fleet_from_tokens(fleet_tokens, raw=raw, cell=cell, following=trail)
    )
    rest = _numbers(trail, raw=raw, cell=cell, where="after the fleet")
    if len(rest) < 2:
        raise InvalidOrder(
            "the departure and destination hexes are missing; write them after the fleet, "
            "e.g. ... - 2710 - 2712",
            raw,
            cell,
        )
    if len(rest) > 3:
        raise InvalidOrder(
            f"{len(rest)} numbers after the fleet; write departure, destination and (optionally) "
            "arrival only",
            raw,
            cell,
        )
    origin = parse_hex_text(rest[0], cell=cell, what="departure hex")
    destination = parse_hex_text(rest[1], cell=cell, what="destination hex")
    arrival = None
    if len(rest) == 3:
        if len(rest[2]) > 4:
            raise InvalidOrder(f"{rest[2]} is not an arrival year", raw, cell)
        arrival = year_from_number(int(rest[2]), raw=rest[2], cell=cell, what="arrival year")
    # The parts in the notation's order (`Move`'s fields).
    return Move(year, fleet, origin, destination, arrival, probe, cell, raw)


def _has_letters(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def move_cells_blank(cells: Sequence[Any]) -> bool:
    """True for a movement row nobody wrote in: at most the pre-filled year in the first cell."""
    texts = ["" if v is None else str(v).strip() for v in cells]
    if any(texts[1:]):
        return False
    return not texts[0] or not _has_letters(texts[0])


def parse_move(text_or_cells: Any, *, year_default: int, cell: str = "") -> Move:
    """A move from a whole line of text, or from the five cells of a movement row.

    The cells are ``Turn, Fleet, Departure, Destination, Arrival``; ``cell`` is the first one
    (e.g. ``B14``), and errors name the exact cell at fault.  A player may type the whole line
    into the Turn cell or into the Fleet cell instead; both are read.  The Turn cell may be
    blank (``year_default``) and the arrival may be left out (computed by the tool).
    """
    if isinstance(text_or_cells, str):
        return parse_move_line(text_or_cells, year_default=year_default, cell=cell)
    if not isinstance(text_or_cells, Sequence) or len(text_or_cells) != 5:
        raise InvalidOrder("a movement row has five cells", repr(text_or_cells)[:60], cell)
    refs = [shift_cell(cell, i) for i in range(5)]
    texts = [cell_text(v, cell=refs[i]) for i, v in enumerate(text_or_cells)]
    turn, fleet_t, origin_t, dest_t, arrival_t = texts
    found = " - ".join(t for t in texts if t)
    if not any(texts[1:]) and turn and _has_letters(turn):
        return parse_move_line(turn, year_default=year_default, cell=refs[0])
    if _has_letters(turn):
        raise InvalidOrder(
            f"{refs[0]} holds a whole move but {refs[1]}-{refs[4]} are filled too; write the "
            "move either as one line in the first cell or one part per column",
            found,
            refs[0],
        )
    year = parse_year_text(turn, cell=refs[0], what="turn") if turn else year_default
    if fleet_t and not any((origin_t, dest_t, arrival_t)):
        line = parse_move_line(fleet_t, year_default=year, cell=refs[1])
        if turn and _line_has_year(fleet_t) and line.year != year:
            raise InvalidOrder(
                f"{refs[0]} says {year} but the move in {refs[1]} says {line.year}; "
                "make them agree",
                found,
                refs[1],
            )
        return replace(line, cell=refs[0], text=found, cells=(refs[1],) * 5)
    if not fleet_t:
        raise InvalidOrder(
            f"the fleet is missing in {refs[1]}; write it as F10 S3 A1(Fs0 Ms2 K0), or Probe",
            found,
            refs[1],
        )
    norm_fleet = normalise(fleet_t, cell=refs[1], found=fleet_t)
    probe = norm_fleet.upper().replace(" ", "") in PROBE_WORDS
    fleet = Fleet() if probe else parse_fleet(fleet_t, cell=refs[1])
    origin = parse_hex_text(origin_t, cell=refs[2], what="departure hex")
    destination = parse_hex_text(dest_t, cell=refs[3], what="destination hex")
    arrival = parse_year_text(arrival_t, cell=refs[4], what="arrival year") if arrival_t else None
    return Move(year, fleet, origin, destination, arrival, probe, refs[0], found, tuple(refs))


def _line_has_year(text: str) -> bool:
    try:
        tokens = _tokens(normalise(text), raw=text, cell="")
    except InvalidOrder:
        return False
    lead, _, _, _ = _split_line(tokens)
    return any(t.kind == "num" for t in lead)


# --------------------------------------------------------------------------------------------
# System lines (read back what the tool writes)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SystemLine:
    """A system line ``1827 Terra A N S Hi G0 O0 Mi0 M0 - F15 S0 A0(Fs0 Ms0 K0) - 8``."""

    hex: str
    name: str
    resource_class: str
    naval_base: bool = False
    scout_base: bool = False
    hipop: bool = False
    spacedock: bool = False
    gl: int = 0
    opc: int = 0
    mines: int = 0
    monitors: int = 0
    fleet: Fleet = field(default_factory=Fleet)
    income: int | None = None

    def text(self) -> str:
        """The line in the notation (`notation.system_text`, whose parts are these fields)."""
        parts = as_row(self)
        return system_text(
            parts.pop("hex"), parts.pop("name"), parts.pop("resource_class"), **parts
        )


_SEP = r"\s*[-\u2012\u2013\u2014\u2212]\s*"
_SYSTEM_RE = re.compile(
    r"^(?P<hex>[0-9]{3,4})\s+(?P<name>.+?)\s+(?P<cls>[A-EX])(?P<dock>\s*\(\s*A\s*\))?"
    r"(?P<bases>(?:\s+(?:N|S|Hi))*)\s+G\s*(?P<g>[0-9]{1,6})\s+O\s*(?P<o>[0-9]{1,6})"
    r"\s+Mi\s*(?P<mi>[0-9]{1,6})\s+M\s*(?P<m>[0-9]{1,6})"
    + _SEP
    + r"(?P<fleet>[^-\u2012\u2013\u2014\u2212]+?)"
    r"(?:" + _SEP + r"(?P<rp>[0-9]{1,6}))?$"
)


def parse_system(text: Any) -> SystemLine:
    """A system line as `notation.system_text` writes it (spacing and dashes tolerated).

    The class and base codes are read as written (upper-case class, ``N``, ``S``, ``Hi``)
    because a system line is the tool's own output; the name is everything between the hex
    and the resource class, kept character for character.
    """
    raw = cell_text(text) if not isinstance(text, str) else text.strip()
    if len(raw) > MAX_ORDER_LENGTH:
        raise InvalidOrder("this system line is too long", clip(raw))
    # The name is kept exactly as written (no NFKC): the line is the tool's own output.
    m = _SYSTEM_RE.match(raw)
    if m is None:
        raise InvalidOrder(
            "not a system line; expected e.g. 1827 Terra A N S Hi G0 O0 Mi0 M0 - "
            "F15 S0 A0(Fs0 Ms0 K0) - 8",
            raw,
        )
    bases = m.group("bases").split()
    if len(set(bases)) != len(bases):
        raise InvalidOrder("a base code is repeated in the system line", raw)
    return SystemLine(
        hex=parse_hex_text(m.group("hex")),
        name=m.group("name"),
        resource_class=m.group("cls"),
        naval_base="N" in bases,
        scout_base="S" in bases,
        hipop="Hi" in bases,
        spacedock=m.group("dock") is not None,
        gl=int(m.group("g")),
        opc=int(m.group("o")),
        mines=int(m.group("mi")),
        monitors=int(m.group("m")),
        fleet=parse_fleet(m.group("fleet")),
        income=int(m.group("rp")) if m.group("rp") is not None else None,
    )
