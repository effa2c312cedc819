"""The notation a player types into the cells of a Millennium Wars sheet.

The seed has no order notation of its own (its players moved counters on a table), so ours is
the plainest there is, one thing a cell:

    path         0404 0504 0604        hexes in the order entered (commas or dashes also do)
    units        N-1AR N-2MI            unit ids, as on the counters (commas also do)
    crt          assault                raid, assault or air-land (air-land battle, alb)
    retreats     N-1AR: 0302 0301; N-2MI: 0403
                                        per unit, the hexes of its retreat if it must retreat
    advance      all | none | N-1AR     which units advance after combat if they may

Each reader returns the value or raises `InvalidOrder` saying what is wrong and how to write
it, for the sheet reader to pin to its cell.
"""

from __future__ import annotations

import re

from ...errors import InvalidOrder
from ...geometry.hexmap import parse_hex
from ...workbook.celltext import excerpt, normalise

MAX_PATH = 30
MAX_UNITS = 12
UNIT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9\-/]{0,11}$")
CRT_NAMES = {
    "raid": "raid",
    "assault": "assault",
    "air-land": "air-land",
    "air-land battle": "air-land",
    "airland": "air-land",
    "alb": "air-land",
}
_SPLIT = re.compile(r"[\s,;]+")


def parse_path(text: str, cell: str = "") -> list[str]:
    """Hexes entered in order: ``0404 0504 0604`` (``0404-0504``, ``0404,0504`` too)."""
    line = normalise(text, cell=cell)
    parts = [p for p in re.split(r"[\s,;\-]+", line) if p]
    if not parts:
        raise InvalidOrder(
            "the move names no hex; write the hexes entered, e.g. 0404 0504", text, cell
        )
    if len(parts) > MAX_PATH:
        raise InvalidOrder(f"a move enters at most {MAX_PATH} hexes", text, cell)
    hexes = []
    for part in parts:
        try:
            hexes.append(parse_hex(part))
        except ValueError:
            raise InvalidOrder(
                f"{excerpt(part)!r} is not a hex; write four digits, column then row, e.g. 0504",
                text,
                cell,
            ) from None
    return hexes


def parse_units(text: str, cell: str = "") -> list[str]:
    """Unit ids: ``N-1AR N-2MI`` (commas too).  Case is kept as the player typed it; the
    checker matches ids without regard to case."""
    line = normalise(text, cell=cell)
    ids = [p for p in _SPLIT.split(line) if p]
    if not ids:
        raise InvalidOrder("no unit is named; write unit ids, e.g. N-1AR N-2MI", text, cell)
    if len(ids) > MAX_UNITS:
        raise InvalidOrder(f"at most {MAX_UNITS} units a line", text, cell)
    for uid in ids:
        if not UNIT_ID.match(uid):
            raise InvalidOrder(
                f"{excerpt(uid)!r} is not a unit id (as on the counters, e.g. N-1AR)", text, cell
            )
    return ids


def parse_crt(text: str, cell: str = "") -> str:
    line = normalise(text, cell=cell).lower()
    if line not in CRT_NAMES:
        raise InvalidOrder(
            f"{excerpt(text)!r} is not a combat results table; write raid, assault or air-land",
            text,
            cell,
        )
    return CRT_NAMES[line]


def parse_retreats(text: str, cell: str = "") -> dict[str, list[str]]:
    """``N-1AR: 0302 0301; N-2MI: 0403``: the retreat each unit asks for."""
    line = normalise(text, cell=cell)
    found: dict[str, list[str]] = {}
    for part in (p.strip() for p in line.split(";")):
        if not part:
            continue
        uid, colon, hexes = part.partition(":")
        if not colon:
            # The reader splits a message at its first "; " into what is wrong and how to
            # fix it: the head comes first so that the example keeps its own ";".
            raise InvalidOrder(
                f"{excerpt(part)!r} names no unit before a colon; write each unit's retreat as "
                "UNIT: HEX HEX, separated by ;, e.g. N-1AR: 0302 0301; N-2MI: 0403",
                text,
                cell,
            )
        ids = parse_units(uid, cell)
        if len(ids) != 1:
            raise InvalidOrder(f"{excerpt(uid.strip())!r}: one unit before each colon", text, cell)
        path = parse_path(hexes, cell)
        if len(path) > 2:
            raise InvalidOrder(f"{ids[0]}: a retreat is at most two hexes", text, cell)
        found[ids[0]] = path
    return found


def parse_advance(text: str, cell: str = "") -> list[str] | None:
    """The units that advance: their ids, ``all`` (None: every unit that may), or ``none``."""
    line = normalise(text, cell=cell).lower()
    if line in ("all", "yes"):
        return None
    if line in ("none", "no", ""):
        return []
    return parse_units(text, cell)


__all__ = [
    "CRT_NAMES",
    "parse_advance",
    "parse_crt",
    "parse_path",
    "parse_retreats",
    "parse_units",
]
