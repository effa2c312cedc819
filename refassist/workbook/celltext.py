"""What a player typed into a cell, made safe to parse: the hostile-input clean-up every game's
reader shares.

A sheet comes back from Excel, LibreOffice, a phone or a web mail's viewer: full-width digits,
non-breaking spaces, six kinds of dash, zero-width characters, a date where an order was typed,
a number where text was, look-alike digits from another script.  Each game parses its own
notation, but over text cleaned here the same way, so a trick that one game's reader refuses
cannot slip through another's.
"""

from __future__ import annotations

import unicodedata
from datetime import date, datetime, time
from typing import Any

from ..errors import InvalidOrder

#: Dashes a keyboard, a word processor or a phone may put where ``-`` was meant.
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d"
#: Characters that show as nothing (zero-width spaces and joiners, BOM, soft hyphen).
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
#: The clean-up table every game starts from: one kind of dash, no invisible characters.
PLAIN = {ch: "-" for ch in DASHES} | {ch: None for ch in INVISIBLE}


def char_name(ch: str) -> str:
    """A character's Unicode name (``ARABIC-INDIC DIGIT ZERO``), to say what was refused."""
    return unicodedata.name(ch, f"U+{ord(ch):04X}")


def clip(text: str) -> str:
    """``text`` short enough to quote in a message (80 characters at most)."""
    return text if len(text) <= 80 else text[:77] + "..."


#: The most of a player's text a message quotes: one line, at most this many characters.
QUOTE_CHARS = 60


def excerpt(text: str) -> str:
    """What a message quotes of ``text``: its first line, at most `QUOTE_CHARS` characters,
    with an ellipsis where more was typed.  A cell may hold 10,000 characters; a message
    quoting each whole made a 14 kB sheet's reply 952 kB, and the player sees his own text
    anyway."""
    text = str(text)
    lines = text.splitlines() or [""]
    first = lines[0]
    if len(first) > QUOTE_CHARS:
        return first[: QUOTE_CHARS - 1] + "\u2026"
    return first + ("\u2026" if len(lines) > 1 else "")


def table(extra: dict[str, str | None] | None = None) -> dict[int, str | None]:
    """A `str.translate` table: `PLAIN` and a game's own look-alikes (arrows for ``>``)."""
    return str.maketrans(PLAIN | (extra or {}))


_PLAIN_TABLE = table()


def normalise(
    text: str,
    *,
    cell: str = "",
    found: str | None = None,
    translate: dict[int, str | None] | None = None,
) -> str:
    """Text as a parser reads it: NFKC, one kind of dash, plain single spaces, trimmed.

    NFKC turns full-width digits and letters, non-breaking and figure spaces into their plain
    forms.  Digits of other scripts (Arabic-Indic, Devanagari, ...) survive NFKC and would be
    silently read as numbers by Python; they are refused instead, because a look-alike digit is
    more likely a trick or an input-method accident than an order.  ``found`` is what the
    message quotes (the raw cell text, by default ``text``); ``translate`` a `table` of the
    game's own.
    """
    original = text if found is None else found
    text = unicodedata.normalize("NFKC", text).translate(translate or _PLAIN_TABLE)
    for ch in text:
        if ch.isdigit() and not ("0" <= ch <= "9"):
            raise InvalidOrder(
                f"the character {ch!r} ({char_name(ch)}) looks like "
                "a digit but is not one of 0-9; retype the number with the digits 0-9",
                original,
                cell,
            )
    text = "".join(" " if ch.isspace() else ch for ch in text)
    return " ".join(text.split())


def cell_text(value: Any, *, cell: str = "") -> str:
    """A spreadsheet cell's value as text: numbers without ``.0``, empty for blank cells.

    A date or time means the spreadsheet re-interpreted what was typed (``27-12`` becomes a
    date in some locales); that is refused with a hint to format the cell as text.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        raise InvalidOrder(
            "a true/false value is not an order; type the text of the order", str(value), cell
        )
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidOrder("this cell holds no usable number", str(value), cell)
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, datetime | date | time):
        raise InvalidOrder(
            "the spreadsheet turned what was typed here into a date or time; format the cell "
            "as text (or type an apostrophe first) and type it again",
            str(value),
            cell,
        )
    if isinstance(value, str):
        return value.strip()
    raise InvalidOrder("this cell's content cannot be read as text", repr(value)[:60], cell)
