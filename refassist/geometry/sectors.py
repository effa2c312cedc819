"""Sector files: read Traveller sector data into worlds, and invent a sector of our own.

This is the engine's reader of hex-sector maps, for every game played on one Traveller sector
(the Traveller Map project's public data format, not a game refassist referees).  Referees
bring the sector they like from the Traveller Map project, in whichever of its three text
formats they found it (see ``shared/sectors/FORMAT.md``), so `read_sector` detects the format
from the content rather than trusting the file name.  Traveller data is old and hand-made:
rows run together, UWPs are unknown, hexes repeat.  A referee cannot fix the tool but can fix a
row, so every odd row becomes a `SectorWarning` naming its line, and only a file that yields
no world at all is an error (`SectorError`).

The real sector files are copyright their authors and must not travel with a game, which is
why `generate_sector` exists: a seeded, plausible sector that always has room for twelve
homeworlds, and `write_tab` to store it in the game folder in the common T5 format.

Only what the game uses is kept for each world (hex, name, UWP, bases, remarks, zone,
allegiance); PBG, stars and the T5 extensions are read past.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from refassist.errors import SectorError
from refassist.geometry.hexmap import (
    SECTOR,
    SUBSECTOR_LETTERS,
    distance,
    hex_id,
    parse_hex,
    subsector_letter,
)

#: Starport classes, best first (a hex-sector game reads them as its resource classes).
STARPORTS = "ABCDEX"

#: Traveller "extended hex" digits: 0-9 then A-Z without I and O.
EHEX = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"

#: How far apart (in hexes) the homeworlds the generator makes room for are: "not within 5
#: parsecs", the spacing the hex-sector game played today asks for.
HOMEWORLD_DISTANCE = 6

#: A generated sector always has this many class A worlds pairwise HOMEWORLD_DISTANCE apart.
GENERATED_SEATS = 12

#: Bases letters that include a naval base, in T5 data (``N``) and in older data (``A`` naval
#: and scout, ``B`` naval and way station, ``F`` military and naval, ``J`` naval).  The older
#: letters have no other meaning in T5, so one set serves both.
NAVAL_LETTERS = frozenset("NABFJ")

#: Bases letters that include a scout base.  ``V`` is added for legacy ``.sec`` data only,
#: where it is a scout/exploration base; in T5 data ``V`` is an exploration base of a minor
#: power (not the sector's main one).
SCOUT_LETTERS = frozenset("SA")

_UWP_SHAPE = re.compile(r"^[A-Z?][0-9A-HJ-NP-Z?]{6}-[0-9A-HJ-NP-Z?]$")
_DIRECTIVE = "# refassist:"
_LEGACY_BASES_FLAG = "legacy-bases"
_K_NAVAL_FLAG = "k-naval"


# --------------------------------------------------------------------------------------------
# The data model
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SectorWarning:
    """One row (or the file) that was read with a correction or skipped.

    ``line`` is 1-based as in a text editor (0 when the warning is about the whole file), so a
    referee can open the file and fix the row; ``message`` says what the tool did about it.
    """

    line: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True)
class World:
    """The main world of one occupied hex, reduced to what a hex-sector game's system needs.

    ``name`` is as in the file (runs of spaces tidied) and may be empty: many older files leave
    minor worlds unnamed or write ``.`` or the hex id instead, which also read as ``''``.  Use
    `display_name` to show a world.  ``starport`` is the resource class, ``A``-``E`` or ``X``;
    an unknown ``?`` (or any other letter) becomes ``X``.  ``hipop`` comes from the trade code
    ``Hi`` in the remarks, because the game's rules say so; `read_sector` warns when the UWP's
    population digit disagrees.  ``bases`` is the file's code with ``-`` read as none, and
    ``zone`` is ``''`` for green (``-`` and ``G`` in the file).
    """

    hex: str
    name: str
    uwp: str
    starport: str
    naval_base: bool
    scout_base: bool
    hipop: bool
    bases: str = ""
    remarks: str = ""
    zone: str = ""
    allegiance: str = ""

    @property
    def display_name(self) -> str:
        """The name, or the hex id for an unnamed world (what maps and reports print)."""
        return self.name or self.hex


@dataclass
class Sector:
    """A sector's worlds plus the names a map shows, and what went wrong reading it."""

    name: str
    abbreviation: str
    worlds: list[World]
    subsector_names: dict[str, str]
    warnings: list[SectorWarning]
    source: str

    def world(self, hex_: str) -> World | None:
        """The world in a hex (``"1827"``, or ``"510"`` as a spreadsheet writes it), or None."""
        try:
            wanted = parse_hex(hex_)
        except ValueError:
            return None
        return next((w for w in self.worlds if w.hex == wanted), None)

    def subsector_name(self, letter: str) -> str:
        """The subsector's name, or ``Subsector X`` when the data leaves it unnamed."""
        key = letter.strip().upper()
        if len(key) != 1 or key not in SUBSECTOR_LETTERS:
            raise ValueError(f"not a subsector letter (A-P): {letter!r}")
        return self.subsector_names.get(key) or f"Subsector {key}"


# --------------------------------------------------------------------------------------------
# Reading: text, formats, rows
# --------------------------------------------------------------------------------------------


class _Unreadable(Exception):
    """Raised inside the readers; `read_sector` adds the file name and raises SectorError."""


@dataclass(frozen=True)
class _Row:
    """The raw fields of one data line, before any checking."""

    line: int
    text: str
    hex: str
    name: str
    uwp: str
    bases: str = ""
    remarks: str = ""
    zone: str = ""
    allegiance: str = ""
    sector: str = ""


@dataclass
class _Parsed:
    """What a format reader found: rows, warnings about lines, and a sector abbreviation."""

    rows: list[_Row]
    warnings: list[SectorWarning]
    abbreviation: str = ""


Line = tuple[int, str]


def _clip(text: str) -> str:
    """The offending line as a warning shows it: tabs as spaces, at most 80 characters."""
    flat = text.replace("\t", " ").rstrip()
    return flat if len(flat) <= 80 else flat[:77] + "..."


def _warning(line: int, text: str, message: str) -> SectorWarning:
    return SectorWarning(line=line, text=_clip(text), message=message)


def _read_text(path: Path) -> tuple[str, list[SectorWarning]]:
    """The file's text: UTF-8 if it is, else Windows-1252, the traditional ``.sec`` encoding."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SectorError(f"cannot open sector file {path}: {exc.strerror or exc}") from None
    if not data.strip():
        raise SectorError(f"cannot read sector file {path}: the file is empty")
    if _looks_binary(data):
        raise SectorError(
            f"cannot read sector file {path}: it holds binary data, not sector text "
            "(expected a .tab or .sec text file)"
        )
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        note = _warning(0, "", "the file is not UTF-8; read it as Windows-1252 (cp1252)")
        return data.decode("cp1252", errors="replace"), [note]


def _looks_binary(data: bytes) -> bool:
    """NUL bytes or many control characters: an image, a zip or a workbook, not a text file."""
    if b"\x00" in data:
        return True
    controls = sum(1 for byte in data if byte < 32 and byte not in (9, 10, 12, 13))
    return controls > max(2, len(data) // 100)


def _split_lines(text: str) -> list[str]:
    """Lines split on LF, CRLF or a lone CR, so line numbers match what an editor shows."""
    return re.split(r"\r\n|\r|\n", text)


def _significant(lines: Sequence[str], extra_comments: str = "") -> list[Line]:
    """Numbered lines that are not blank and not comments (``#``, plus ``extra_comments``)."""
    prefixes = tuple("#" + extra_comments)
    return [
        (number, text)
        for number, text in enumerate(lines, start=1)
        if text.strip() and not text.lstrip().startswith(prefixes)
    ]


def _directives(lines: Sequence[str]) -> set[str]:
    """Flags from ``# refassist: ...`` comments, which `write_tab` adds so a round trip is exact."""
    flags: set[str] = set()
    for text in lines:
        if text.startswith(_DIRECTIVE):
            flags.update(text[len(_DIRECTIVE) :].split())
    return flags


def _header_names(header: str, separator: str | None) -> list[str]:
    if separator is None:
        return [field.strip().lower() for field in header.split("\t")]
    return [header[a:b].strip().lower() for a, b in _spans(separator)]


def _detect_format(lines: Sequence[str]) -> str:
    """``tab``, ``columns`` or ``legacy``, from the first data lines (names lie, content not).

    A header naming Hex or UWP is enough to choose a T5 format, so a header missing the other
    column is reported as such instead of being misread as legacy rows.
    """
    significant = _significant(lines)
    if not significant:
        return "legacy"
    first_number, first = significant[0]
    if "\t" in first and {"hex", "uwp"} & set(_header_names(first, None)):
        return "tab"
    if len(significant) > 1:
        number, second = significant[1]
        looks_like_separator = "-" in second and not second.replace("-", "").strip()
        if (
            number == first_number + 1
            and looks_like_separator
            and {"hex", "uwp"} & set(_header_names(first, second))
        ):
            return "columns"
    return "legacy"


# The T5 column names we use, with the short names of the column-delimited header.
_COLUMN_NAMES: dict[str, str] = {
    "hex": "hex",
    "name": "name",
    "uwp": "uwp",
    "bases": "bases",
    "base": "bases",
    "b": "bases",
    "remarks": "remarks",
    "trade codes": "remarks",
    "zone": "zone",
    "z": "zone",
    "allegiance": "allegiance",
    "alleg": "allegiance",
    "a": "allegiance",
    "sector": "sector",
}


def _column_index(names: Sequence[str]) -> dict[str, int]:
    """Field -> column number, found by name so column order never matters."""
    index: dict[str, int] = {}
    for position, raw in enumerate(names):
        field_name = _COLUMN_NAMES.get(raw.strip().lower())
        if field_name and field_name not in index:
            index[field_name] = position
    missing = [name for name in ("hex", "uwp") if name not in index]
    if missing:
        shown = {"hex": "Hex", "uwp": "UWP"}
        raise _Unreadable(f"the header has no {' or '.join(shown[m] for m in missing)} column")
    return index


def _row_from_fields(number: int, text: str, fields: Sequence[str], index: dict[str, int]) -> _Row:
    def get(name: str) -> str:
        position = index.get(name)
        return fields[position].strip() if position is not None and position < len(fields) else ""

    return _Row(
        line=number,
        text=text,
        hex=get("hex"),
        name=get("name"),
        uwp=get("uwp"),
        bases=get("bases"),
        remarks=get("remarks"),
        zone=get("zone"),
        allegiance=get("allegiance"),
        sector=get("sector"),
    )


def _most_common(values: list[str]) -> str:
    counts = Counter(v for v in values if v)
    return counts.most_common(1)[0][0] if counts else ""


def _is_hex(text: str) -> bool:
    try:
        parse_hex(text)
    except ValueError:
        return False
    return True


def _read_tab(lines: Sequence[str]) -> _Parsed:
    """T5 tab-delimited: a header of column names, then one world per line (FORMAT.md s.4)."""
    (header_number, header), *data = _significant(lines)
    names = header.split("\t")
    index = _column_index(names)
    parsed = _Parsed(rows=[], warnings=[])
    for number, text in data:
        fields = text.split("\t")
        row = _row_from_fields(number, text, fields, index)
        if len(fields) != len(names) and _is_hex(row.hex):
            parsed.warnings.append(
                _warning(
                    number,
                    text,
                    f"row has {len(fields)} fields but the header (line {header_number}) has "
                    f"{len(names)}; missing fields read as empty, extra fields ignored",
                )
            )
        parsed.rows.append(row)
    parsed.abbreviation = _most_common([row.sector for row in parsed.rows])
    return parsed


def _spans(separator: str) -> list[tuple[int, int | None]]:
    """Column spans from the dashes line: each runs to the next column, the last to the end."""
    starts = [m.start() for m in re.finditer(r"-+", separator)]
    ends: list[int | None] = [*starts[1:], None]
    return list(zip(starts, ends, strict=True))


def _read_columns(lines: Sequence[str]) -> _Parsed:
    """T5 column-delimited "Second Survey" text: header, dashes line, fixed columns (s.5)."""
    (_, header), (_, separator), *data = _significant(lines)
    spans = _spans(separator)
    index = _column_index([header[a:b] for a, b in spans])
    parsed = _Parsed(rows=[], warnings=[])
    for number, text in data:
        fields = [text[a:b] for a, b in spans]
        parsed.rows.append(_row_from_fields(number, text, fields, index))
    return parsed


# Legacy .sec: the hex and UWP are the anchor; everything else is found relative to them.
# Old files OCR'd from print may read 0 as O and 1 as l (FORMAT.md s.6), so allow those here.
_LEGACY_HEX_UWP = re.compile(
    r"(?<!\S)(?P<hex>[0-9Ol]{4})\s+(?P<uwp>[A-Z?][0-9A-Za-z?]{6}-[0-9A-Za-z?])(?!\S)"
)
# PBG then allegiance; a zone letter may be glued in front (``R456Im``).
_LEGACY_PBG = re.compile(
    r"(?:(?<=\s)|(?<=\s[ABFGRU]))(?P<pbg>[0-9?][0-9A-Fa-f?]{2})\s*"
    r"(?P<allegiance>--|[A-Za-z][A-Za-z0-9]{1,3})(?=\s|$)"
)
# A base code sits one or two spaces after the UWP (1248 layout / GEnie layout); remarks start
# at least three spaces after it, so a token there is never a base.
_LEGACY_BASE = re.compile(r"^ {1,2}(?P<bases>[A-Z]{1,2}|-)(?=\s|$)")
_LEGACY_ZONES = frozenset("ABFGRU-")
_OCR_DIGITS = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1"})


def _legacy_skip(text: str) -> bool:
    """A column header or a dashes rule in a legacy file: not data, not worth a warning."""
    stripped = text.strip()
    if not stripped.replace("-", "").strip():
        return True
    lowered = stripped.lower()
    return lowered.startswith("name") and "uwp" in lowered


def _read_legacy(lines: Sequence[str]) -> _Parsed:
    """Legacy ``.sec``: space-separated columns whose widths vary by file (FORMAT.md s.6).

    Tabs become single spaces, which keeps the relative layout of hand-edited files readable.
    """
    parsed = _Parsed(rows=[], warnings=[])
    for number, raw in _significant(lines, extra_comments="$@"):
        text = raw.replace("\t", " ").rstrip()
        if _legacy_skip(text):
            continue
        row = _legacy_row(number, raw, text, parsed.warnings)
        if row is not None:
            parsed.rows.append(row)
    return parsed


def _legacy_row(number: int, raw: str, text: str, warnings: list[SectorWarning]) -> _Row | None:
    match = _LEGACY_HEX_UWP.search(text)
    if match is None:
        warnings.append(_warning(number, raw, "no hex id and UWP found; line skipped"))
        return None
    hex_, uwp = _fix_ocr(number, raw, match["hex"], match["uwp"], warnings)
    tail = text[match.end() :]
    pbgs = list(_LEGACY_PBG.finditer(tail))
    if pbgs:
        last = pbgs[-1]
        middle, allegiance = tail[: last.start()], last["allegiance"]
    else:
        middle, allegiance = tail, ""
        if tail.strip():
            warnings.append(
                _warning(
                    number,
                    raw,
                    "no PBG and allegiance found after the UWP; "
                    "the rest of the line was read as bases and remarks",
                )
            )
    bases, remarks, zone = _legacy_middle(middle)
    return _Row(
        line=number,
        text=raw,
        hex=hex_,
        name=text[: match.start()].strip(),
        uwp=uwp,
        bases=bases,
        remarks=remarks,
        zone=zone,
        allegiance=allegiance,
    )


def _fix_ocr(
    number: int, raw: str, hex_: str, uwp: str, warnings: list[SectorWarning]
) -> tuple[str, str]:
    """Read ``O`` as 0 and ``l``/``I`` as 1 in the hex and UWP digits, with a warning."""
    fixed_hex = hex_.translate(_OCR_DIGITS)
    fixed_uwp = uwp[0] + uwp[1:].translate(_OCR_DIGITS).upper()
    if (fixed_hex, fixed_uwp) != (hex_, uwp.upper()):
        warnings.append(
            _warning(
                number,
                raw,
                f"read hex {hex_!r} UWP {uwp!r} as {fixed_hex} {fixed_uwp} "
                "(letters O, l, I in digit places taken for 0 and 1)",
            )
        )
    return fixed_hex, fixed_uwp


def _legacy_middle(middle: str) -> tuple[str, str, str]:
    """Bases, remarks and zone from the text between the UWP and the PBG."""
    base = _LEGACY_BASE.match(middle)
    bases = base["bases"] if base else ""
    tokens = middle[base.end() :].split() if base else middle.split()
    zone = ""
    if tokens and len(tokens[-1]) == 1 and tokens[-1] in _LEGACY_ZONES:
        zone = tokens.pop()
    return bases, " ".join(tokens), zone


_READERS: dict[str, Callable[[Sequence[str]], _Parsed]] = {
    "tab": _read_tab,
    "columns": _read_columns,
    "legacy": _read_legacy,
}


# --------------------------------------------------------------------------------------------
# From rows to worlds
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _BaseCodes:
    """Which Bases letters count as a naval and a scout base for one file."""

    naval: frozenset[str]
    scout: frozenset[str]

    def flags(self, bases: str) -> tuple[bool, bool]:
        letters = set(bases)
        return bool(letters & self.naval), bool(letters & self.scout)


def _base_codes(*, legacy: bool, count_k: bool) -> _BaseCodes:
    naval = NAVAL_LETTERS | (frozenset("K") if count_k else frozenset())
    scout = SCOUT_LETTERS | (frozenset("V") if legacy else frozenset())
    return _BaseCodes(naval=naval, scout=scout)


def _checked_hex(row: _Row, warnings: list[SectorWarning]) -> str | None:
    try:
        hex_ = parse_hex(row.hex)
    except ValueError:
        found = f"{row.hex!r} is not a hex id" if row.hex else "no hex id"
        warnings.append(_warning(row.line, row.text, f"{found}; row skipped"))
        return None
    if not SECTOR.contains(hex_):
        warnings.append(
            _warning(
                row.line,
                row.text,
                f"hex {hex_} is outside the sector (0101-3240); row skipped",
            )
        )
        return None
    return hex_


def _clean_name(name: str, hex_: str) -> str:
    """Older files mark an unnamed world with ``.`` or its own hex id; those mean no name."""
    name = " ".join(name.split())
    return "" if name in (".", hex_) else name


def _describe(name: str, hex_: str) -> str:
    return f"world {name!r} ({hex_})" if name else f"unnamed world ({hex_})"


def _starport(uwp: str, who: str, row: _Row, warnings: list[SectorWarning]) -> str:
    if not uwp:
        warnings.append(_warning(row.line, row.text, f"no UWP; {who} treated as class X"))
        return "X"
    if not _UWP_SHAPE.match(uwp):
        warnings.append(
            _warning(
                row.line,
                row.text,
                f"UWP {uwp!r} is not of the form SAHPGL-T; {who} kept, starport from its "
                "first letter",
            )
        )
    port = uwp[0]
    if port in STARPORTS:
        return port
    warnings.append(
        _warning(
            row.line,
            row.text,
            f"unknown starport {port!r} in UWP {uwp!r}; {who} treated as class X",
        )
    )
    return "X"


def _check_population(
    uwp: str, hipop: bool, who: str, row: _Row, warnings: list[SectorWarning]
) -> None:
    """Warn when the Remarks' ``Hi`` and the UWP's population digit tell different stories."""
    if not _UWP_SHAPE.match(uwp) or uwp[4] == "?":
        return
    population = EHEX.index(uwp[4])
    if (population >= 9) == hipop:
        return
    if hipop:
        message = (
            f"Remarks have 'Hi' but UWP {uwp!r} gives population {population}; "
            f"{who} counted as HiPop (the Remarks decide)"
        )
    else:
        message = (
            f"UWP {uwp!r} gives population {population} but Remarks have no 'Hi'; "
            f"{who} not counted as HiPop (the Remarks decide)"
        )
    warnings.append(_warning(row.line, row.text, message))


def _clean_code(value: str, none: tuple[str, ...]) -> str:
    """Bases or zone without spaces; the spellings of "nothing" become ``''``."""
    value = "".join(value.split())
    return "" if value in none else value


def _world_from_row(row: _Row, codes: _BaseCodes, warnings: list[SectorWarning]) -> World | None:
    hex_ = _checked_hex(row, warnings)
    if hex_ is None:
        return None
    name = _clean_name(row.name, hex_)
    who = _describe(name, hex_)
    uwp = row.uwp.strip().upper()
    starport = _starport(uwp, who, row, warnings)
    remarks = " ".join(row.remarks.split())
    hipop = "Hi" in remarks.split()
    _check_population(uwp, hipop, who, row, warnings)
    bases = _clean_code(row.bases, ("-",))
    naval, scout = codes.flags(bases)
    return World(
        hex=hex_,
        name=name,
        uwp=uwp,
        starport=starport,
        naval_base=naval,
        scout_base=scout,
        hipop=hipop,
        bases=bases,
        remarks=remarks,
        zone=_clean_code(row.zone, ("-", "G")),
        allegiance=row.allegiance.strip(),
    )


def _build_worlds(
    rows: list[_Row], codes: _BaseCodes, warnings: list[SectorWarning]
) -> list[World]:
    """Worlds sorted by hex; of two rows for one hex the first is kept, the second warned."""
    kept: dict[str, tuple[World, int]] = {}
    for row in rows:
        world = _world_from_row(row, codes, warnings)
        if world is None:
            continue
        if world.hex in kept:
            first, line = kept[world.hex]
            warnings.append(
                _warning(
                    row.line,
                    row.text,
                    f"hex {world.hex} appears again (first on line {line}, "
                    f"{first.display_name!r}); this row ignored, the first kept",
                )
            )
            continue
        kept[world.hex] = (world, row.line)
    return [kept[h][0] for h in sorted(kept)]


# --------------------------------------------------------------------------------------------
# Metadata and the public readers
# --------------------------------------------------------------------------------------------


def _local(tag: object) -> str:
    """An element's tag without its XML namespace."""
    return str(tag).rsplit("}", 1)[-1]


def _sector_name(root: Element) -> str:
    names = [child for child in root if _local(child.tag) == "Name"]
    plain = [child for child in names if child.get("Lang") is None]
    chosen = (plain or names)[:1]
    return " ".join((chosen[0].text or "").split()) if chosen else ""


def _subsector_names(root: Element) -> dict[str, str]:
    found: dict[str, str] = {}
    for group in root:
        if _local(group.tag) != "Subsectors":
            continue
        for item in group:
            letter = (item.get("Index") or "").strip().upper()
            text = " ".join((item.text or "").split())
            if _local(item.tag) == "Subsector" and letter in SUBSECTOR_LETTERS and letter and text:
                found.setdefault(letter, text)
    return dict(sorted(found.items()))


def read_metadata(path: Path | str) -> tuple[str, str, dict[str, str]]:
    """Sector name, abbreviation and subsector names from a Traveller Map metadata XML.

    Parsed with defusedxml because sector files come from the internet: an entity bomb or an
    external entity is refused (as a SectorError) rather than expanded.  Missing parts come
    back empty; subsectors without a name are left out.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SectorError(f"cannot open sector metadata {path}: {exc.strerror or exc}") from None
    try:
        root = SafeET.fromstring(data)
    except SafeET.ParseError as exc:
        raise SectorError(f"sector metadata {path} is not well-formed XML: {exc}") from None
    except DefusedXmlException as exc:
        raise SectorError(
            f"sector metadata {path} uses XML entities or DTDs, refused for safety "
            f"({type(exc).__name__})"
        ) from None
    if _local(root.tag) != "Sector":
        raise SectorError(
            f"sector metadata {path} is not a sector file: its root element is "
            f"<{_local(root.tag)}>, expected <Sector>"
        )
    abbreviation = (root.get("Abbreviation") or "").strip()
    return _sector_name(root), abbreviation, _subsector_names(root)


def _sibling_metadata(path: Path) -> Path | None:
    for suffix in (".xml", ".XML"):
        candidate = path.with_suffix(suffix)
        if candidate != path and candidate.is_file():
            return candidate
    return None


def _metadata_for(
    path: Path, metadata: Path | str | None, warnings: list[SectorWarning]
) -> tuple[str, str, dict[str, str]]:
    """Metadata asked for must be good; a sibling XML that is broken only earns a warning."""
    if metadata is not None:
        return read_metadata(metadata)
    sibling = _sibling_metadata(path)
    if sibling is None:
        return "", "", {}
    try:
        return read_metadata(sibling)
    except SectorError as exc:
        warnings.append(_warning(0, "", f"{exc}; sector name and subsector names not used"))
        return "", "", {}


def _abbreviate(name: str) -> str:
    """Four letters for a sector that has no abbreviation (``Korvath Reach`` -> ``Korv``)."""
    letters = "".join(ch for ch in name if ch.isalpha())
    return letters[:4].capitalize()


def _no_world_reason(warnings: list[SectorWarning]) -> str:
    rows = [w for w in warnings if w.line]
    if not rows:
        return "the file holds no world rows"
    return f"{len(rows)} line(s) had problems, the first: {rows[0]}"


def read_sector(
    path: Path | str,
    metadata: Path | str | None = None,
    *,
    count_k_bases: bool = False,
) -> Sector:
    """Read a sector file in any of the three Traveller text formats.

    The format comes from the content: a header with tabs is T5 tab-delimited, a header over
    a line of dashes is T5 column-delimited, anything else is read as a legacy ``.sec``.  The
    sector name and subsector names come from ``metadata``, or else from an XML file beside
    the sector file with the same stem.

    ``count_k_bases`` makes ``K`` (a naval base of a minor power, not the sector's main one)
    count as a naval base.  It is off by default because the maps usually played mark the main
    power's naval bases (``N``); a referee playing in a sector held by another power turns it
    on.

    Odd rows never raise: each becomes a `SectorWarning`.  SectorError is raised only when the
    file cannot be opened, is empty or binary, has a T5 header without a Hex or UWP column, or
    yields no world at all, and when ``metadata`` names a file that cannot be read.
    """
    path = Path(path)
    text, warnings = _read_text(path)
    lines = _split_lines(text)
    flags = _directives(lines)
    kind = _detect_format(lines)
    try:
        parsed = _READERS[kind](lines)
    except _Unreadable as exc:
        raise SectorError(f"cannot read sector file {path}: {exc}") from None
    warnings.extend(parsed.warnings)
    codes = _base_codes(
        legacy=kind == "legacy" or _LEGACY_BASES_FLAG in flags,
        count_k=count_k_bases or _K_NAVAL_FLAG in flags,
    )
    worlds = _build_worlds(parsed.rows, codes, warnings)
    if not worlds:
        reason = _no_world_reason(sorted(warnings, key=lambda w: w.line))
        raise SectorError(f"cannot read sector file {path}: no world could be read ({reason})")
    name, abbreviation, subsectors = _metadata_for(path, metadata, warnings)
    name = name or path.stem
    return Sector(
        name=name,
        abbreviation=abbreviation or parsed.abbreviation or _abbreviate(name),
        worlds=worlds,
        subsector_names=subsectors,
        warnings=sorted(warnings, key=lambda w: w.line),
        source=str(path),
    )


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------

_TAB_COLUMNS = ("Sector", "SS", "Hex", "Name", "UWP", "Bases", "Remarks", "Zone", "Allegiance")


def _one_line(value: str) -> str:
    """A field value that cannot break the tab layout."""
    return " ".join(value.replace("\t", " ").splitlines())


def _needed_flags(worlds: Sequence[World]) -> list[str]:
    """The ``# refassist:`` flags under which every world's base flags read back the same.

    A sector read from a legacy ``.sec`` counts ``V`` as a scout base, and one read with
    ``count_k_bases`` counts ``K``; T5 readers would not, so the file says so.
    """
    choices = [(False, False), (True, False), (False, True), (True, True)]
    for legacy, count_k in choices:
        codes = _base_codes(legacy=legacy, count_k=count_k)
        if all(codes.flags(w.bases) == (w.naval_base, w.scout_base) for w in worlds):
            flags = [_LEGACY_BASES_FLAG] if legacy else []
            return flags + ([_K_NAVAL_FLAG] if count_k else [])
    return []


def write_tab(sector: Sector) -> str:
    """The sector as T5 tab-delimited text, which `read_sector` reads back to equal worlds.

    Only the columns refassist keeps are written (PBG, stars and the T5 extensions are not
    stored); other tools find T5 columns by name, so they read it too.
    """
    lines = [f"# {_one_line(sector.name)}: written by refassist from {_one_line(sector.source)}"]
    flags = _needed_flags(sector.worlds)
    if flags:
        lines.append(f"{_DIRECTIVE} {' '.join(flags)}")
    lines.append("\t".join(_TAB_COLUMNS))
    for w in sector.worlds:
        fields = (
            sector.abbreviation,
            subsector_letter(w.hex),
            w.hex,
            w.name,
            w.uwp,
            w.bases,
            w.remarks,
            w.zone,
            w.allegiance,
        )
        lines.append("\t".join(_one_line(f) for f in fields))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------

# Starport weights (percent) for worlds other than the guaranteed homeworld seats.  With the
# twelve seats added, about 17% of worlds are class A: between Spinward Marches (12%) and the
# unusually rich Solomani Rim (50%).
_STARPORT_WEIGHTS = {"A": 15, "B": 21, "C": 26, "D": 16, "E": 11, "X": 11}
# Population dice modifier by starport, so busy ports have busy worlds and HiPop is ~12%.
_POPULATION_DM = {"A": 2, "B": 1, "C": 0, "D": 0, "E": -1, "X": -2}
# Chance of a naval base (mostly at A and B ports, ~10% of worlds) and of a scout base (~10%).
_NAVAL_CHANCE = {"A": 0.32, "B": 0.16, "C": 0.04, "D": 0.0, "E": 0.0, "X": 0.0}
_SCOUT_CHANCE = {"A": 0.08, "B": 0.12, "C": 0.14, "D": 0.12, "E": 0.06, "X": 0.0}
_TECH_DM_PORT = {"A": 6, "B": 4, "C": 2, "D": 0, "E": 0, "X": -4}


def _words(text: str) -> tuple[str, ...]:
    """A tuple from a space-separated list, easier to read than a column of quoted letters."""
    return tuple(text.split())


# Single consonants are listed twice as often as clusters; after a closing consonant only the
# soft single onsets may follow, so names stay easy to say ("Korvath", not "Grurjisjeax").
_ONSETS = _words(
    "b c d f g h j k l m n p r s t v w z b d k l m n r s t v br ch cr dr gr kh kr ph pr sh st th tr"
)
_SOFT_ONSETS = _words("b d g k l m n p r s t v")
_NUCLEI = _words("a a a a e e e i i i o o o u u ai ea ia io ou")
_CODAS = _words("n n r r s s l m th nd x k")
_SECTOR_WORDS = _words("Reach Marches Expanse Rift Verge Drift Frontier Main Cluster Deeps")
_NAME_SUFFIXES = _words("Prime Major Minor Station Landing")


def _roll(rng: random.Random, dice: int) -> int:
    return sum(rng.randint(1, 6) for _ in range(dice))


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


class _NameMaker:
    """Pronounceable invented names, unique within one sector.

    Syllables alternate consonants and vowels: an onset follows a vowel ending, and after a
    closing consonant the next onset is a single letter, so no name piles up more than three
    consonants or two vowels.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def _word(self, syllables: int) -> str:
        rng = self.rng
        parts: list[str] = []
        closed = False
        for i in range(syllables):
            onset = rng.choice(_SOFT_ONSETS if closed else _ONSETS)
            if i == 0 and rng.random() < 0.15:
                onset = ""
            last = i == syllables - 1
            coda = rng.choice(_CODAS) if rng.random() < (0.45 if last else 0.2) else ""
            parts.append(onset + rng.choice(_NUCLEI) + coda)
            closed = bool(coda)
        if syllables > 1 and rng.random() < 0.03:
            parts[-1] = "'" + parts[-1]
        word = "".join(parts)
        return word[0].upper() + word[1:]

    def _unique(self, make: Callable[[int], str]) -> str:
        """A name not used yet; repeated clashes make longer names, so this always ends."""
        for attempt in itertools.count():
            name = make(attempt)
            if name not in self.used:
                self.used.add(name)
                return name
        raise AssertionError("itertools.count() never stops")

    def world(self) -> str:
        def make(attempt: int) -> str:
            word = self._word(self.rng.choice((2, 2, 3)) + attempt // 50)
            if self.rng.random() < 0.04:
                return f"{word} {self.rng.choice(_NAME_SUFFIXES)}"
            return word

        return self._unique(make)

    def subsector(self) -> str:
        return self._unique(lambda attempt: self._word(self.rng.choice((2, 3)) + attempt // 50))

    def sector(self) -> str:
        return f"{self._word(2)} {self.rng.choice(_SECTOR_WORDS)}"


def _quadrant_box(qc: int, qr: int) -> tuple[range, range]:
    """Columns and rows of a quadrant at least 3 hexes from its edges.

    Two hexes in different boxes are always 7 or more apart, so seats in different quadrants
    never need checking against each other.
    """
    return range(qc * 16 + 4, qc * 16 + 14), range(qr * 20 + 4, qr * 20 + 18)


def _homeworld_seats(rng: random.Random) -> list[str]:
    """Three hexes per quadrant, pairwise HOMEWORLD_DISTANCE apart: twelve seats in all."""
    seats: list[str] = []
    for qr in (0, 1):
        for qc in (0, 1):
            cols, rows = _quadrant_box(qc, qr)
            seats.extend(_three_seats(rng, cols, rows))
    return seats


def _three_seats(rng: random.Random, cols: range, rows: range) -> list[str]:
    for _ in range(500):
        trio = [hex_id(rng.choice(cols), rng.choice(rows)) for _ in range(3)]
        if all(distance(a, b) >= HOMEWORLD_DISTANCE for a, b in _pairs(trio)):
            return trio
    # Corners of the box are 9 and 13+ hexes apart; used only if the dice were perverse.
    return [hex_id(cols[0], rows[0]), hex_id(cols[-1], rows[0]), hex_id(cols[4], rows[-1])]


def _pairs(items: Sequence[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(items) for b in items[i + 1 :]]


def _occupied(rng: random.Random, density: float) -> set[str]:
    """Hexes with a world; each subsector is busier or emptier, as real sectors are."""
    factor = {letter: rng.uniform(0.55, 1.45) for letter in SUBSECTOR_LETTERS}
    return {h for h in SECTOR.hexes() if rng.random() < density * factor[subsector_letter(h)]}


def _weighted(rng: random.Random, weights: dict[str, int]) -> str:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _invent_uwp(rng: random.Random, port: str, seat: bool) -> list[int]:
    """Size, atmosphere, hydrographics, population, government, law, tech (classic 2D rolls)."""
    size = _roll(rng, 2) - 2
    atmosphere = 0 if size == 0 else _clamp(_roll(rng, 2) - 7 + size, 0, 15)
    hydro_dm = -4 if atmosphere < 2 or atmosphere > 9 else 0
    hydro = 0 if size <= 1 else _clamp(_roll(rng, 2) - 7 + atmosphere + hydro_dm, 0, 10)
    population = _clamp(_roll(rng, 2) - 2 + _POPULATION_DM[port], 0, 12)
    if seat:
        population = max(population, 6)  # a homeworld is a real power, not an outpost
    if population == 0:
        return [size, atmosphere, hydro, 0, 0, 0, 0]
    government = _clamp(_roll(rng, 2) - 7 + population, 0, 15)
    law = _clamp(_roll(rng, 2) - 7 + government, 0, 18)
    tech_dm = _TECH_DM_PORT[port] + (2 if size <= 1 else 1 if size <= 4 else 0)
    tech_dm += 1 if atmosphere <= 3 or atmosphere >= 10 else 0
    tech_dm += 2 if population >= 10 else 1 if population == 9 or population <= 5 else 0
    tech = _clamp(_roll(rng, 1) + tech_dm, 0, 17)
    return [size, atmosphere, hydro, population, government, law, tech]


def _trade_codes(size: int, atm: int, hyd: int, pop: int, gov: int) -> list[str]:
    """The classic trade codes the profile earns; ``Hi`` exactly when population is 9+."""
    rules = [
        ("Ag", 4 <= atm <= 9 and 4 <= hyd <= 8 and 5 <= pop <= 7),
        ("As", size == 0 and atm == 0 and hyd == 0),
        ("Ba", pop == 0 and gov == 0),
        ("De", atm >= 2 and hyd == 0),
        ("Fl", atm >= 10 and hyd >= 1),
        ("Hi", pop >= 9),
        ("Ic", atm <= 1 and hyd >= 1),
        ("In", atm in (0, 1, 2, 4, 7, 9) and pop >= 9),
        ("Lo", 1 <= pop <= 3),
        ("Na", atm <= 3 and hyd <= 3 and pop >= 6),
        ("Ni", 4 <= pop <= 6),
        ("Po", 2 <= atm <= 5 and hyd <= 3),
        ("Ri", atm in (6, 8) and 6 <= pop <= 8 and 4 <= gov <= 9),
        ("Va", size > 0 and atm == 0),
        ("Wa", hyd == 10),
    ]
    return [code for code, applies in rules if applies]


def _invent_world(rng: random.Random, hex_: str, name: str, seat: bool) -> World:
    port = "A" if seat else _weighted(rng, _STARPORT_WEIGHTS)
    profile = _invent_uwp(rng, port, seat)
    uwp = port + "".join(EHEX[v] for v in profile[:6]) + "-" + EHEX[profile[6]]
    naval = rng.random() < _NAVAL_CHANCE[port]
    scout = rng.random() < _SCOUT_CHANCE[port]
    bases = ("N" if naval else "") + ("S" if scout else "")
    remarks = " ".join(_trade_codes(*profile[:5]))
    zone = "R" if port == "X" and rng.random() < 0.1 else "A" if rng.random() < 0.05 else ""
    return World(
        hex=hex_,
        name=name,
        uwp=uwp,
        starport=port,
        naval_base=naval,
        scout_base=scout,
        hipop=profile[3] >= 9,
        bases=bases,
        remarks=remarks,
        zone=zone,
    )


def generate_sector(seed: int, *, density: float = 0.33, name: str | None = None) -> Sector:
    """A plausible invented sector, the same for the same seed on every machine.

    About ``density`` of the 1280 hexes hold a world.  Every quadrant (16 x 20 hexes) has at
    least three class A worlds, and there are always GENERATED_SEATS class A worlds pairwise
    HOMEWORLD_DISTANCE or more apart, so a game of up to twelve players can seat everyone.
    Only ``random.Random(seed)`` is used, never the global generator, so a game's map can be
    rebuilt from its seed.  ``name`` replaces the invented sector name and changes nothing else.
    """
    if not 0.0 < density <= 1.0:
        raise ValueError(f"density must be more than 0 and at most 1, not {density!r}")
    rng = random.Random(seed)
    names = _NameMaker(rng)
    invented = names.sector()
    subsectors = {letter: names.subsector() for letter in SUBSECTOR_LETTERS}
    seats = set(_homeworld_seats(rng))
    hexes = sorted(_occupied(rng, density) | seats)
    worlds = [_invent_world(rng, h, names.world(), h in seats) for h in hexes]
    sector_name = name if name is not None else invented
    return Sector(
        name=sector_name,
        abbreviation=_abbreviate(sector_name),
        worlds=worlds,
        subsector_names=subsectors,
        warnings=[],
        source=f"generated:{seed}",
    )
