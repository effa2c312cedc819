"""The game's notation, as a player types it in French or in English: positions (``23N4``,
``23O4``, a system's letter), orders, ship types, yes and no, the standing tactical orders.

Each reader returns the game's own value (``W``, ``jump``, ``fregate``) or raises
`InvalidOrder` with a message in the reader's language (`i18n.current`), so the checker and
the reply say what was wrong where the player typed it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from ...errors import InvalidOrder
from ...text.i18n import current
from ...workbook.celltext import excerpt
from .geometry import Position, StrategicMap, Zone

#: Words for a fleet's order, in either language, and the order each means.
ORDER_WORDS = {
    "move": "move",
    "mouvement": "move",
    "mvt": "move",
    "deplacement": "move",
    "m": "move",
    "jump": "jump",
    "saut": "jump",
    "hyperespace": "jump",
    "hyper-espace": "jump",
    "hyperspace": "jump",
    "hs": "jump",
    "enter": "enter",
    "entree": "enter",
    "entrer": "enter",
    "reserve": "reserve",
    "reserves": "reserve",
    "enter from outside": "enter",
    "r": "reserve",
}
SHIP_WORDS = {
    "corvette": "corvette",
    "corvettes": "corvette",
    "c": "corvette",
    "fregate": "fregate",
    "fregates": "fregate",
    "frigate": "fregate",
    "frigates": "fregate",
    "f": "fregate",
    "vaisseau": "vaisseau",
    "vaisseaux": "vaisseau",
    "ship of the line": "vaisseau",
    "battleship": "vaisseau",
    "v": "vaisseau",
    "porte-intercepteur": "porte_intercepteur",
    "porte-intercepteurs": "porte_intercepteur",
    "porte intercepteur": "porte_intercepteur",
    "carrier": "porte_intercepteur",
    "pi": "porte_intercepteur",
    "navire de colonisation": "colonisation",
    "navires de colonisation": "colonisation",
    "colonisation": "colonisation",
    "colony ship": "colonisation",
    "colonizer": "colonisation",
    "coloniser": "colonisation",
    "nc": "colonisation",
}
YES = ("oui", "o", "yes", "y", "x", "1", "vrai", "true")
NO = ("non", "n", "no", "0", "faux", "false")
DIRECTION_WORDS = {"n": "N", "e": "E", "s": "S", "w": "W", "o": "W", "lb": "LB", "libre": "LB"}
STANCE_WORDS = {
    "close": "close",
    "contact": "close",
    "au contact": "close",
    "stand off": "stand off",
    "standoff": "stand off",
    "a distance": "stand off",
    "distance": "stand off",
}
PRIORITY_WORDS = {
    "bases": "bases",
    "ships": "ships",
    "navires": "ships",
    "capital": "capital",
    "capital ships": "capital",
    "vaisseaux": "capital",
    "nearest": "nearest",
    "le plus proche": "nearest",
    "proche": "nearest",
}
FIRE_WORDS = {
    "focus": "focus",
    "concentre": "focus",
    "concentrer": "focus",
    "spread": "spread",
    "reparti": "spread",
    "repartir": "spread",
}
LEAVE_WORDS = {
    "never": "never",
    "jamais": "never",
    "compulsory": "compulsory",
    "after 3 rounds": "compulsory",
    "apres 3 tours": "compulsory",
    "obligatoire": "compulsory",
    "losing": "losing",
    "when losing": "losing",
    "si perdant": "losing",
    "perdant": "losing",
}


#: The Greek fleet letters as players type them: the letter's name (with or without accents,
#: "Oméga", "omega"), the capital letter (``Ω``), and ``k`` for kappa (the capital ``K`` is the
#: fleet K of TAB 1).
GREEK_WORDS = {
    "lambda": "λ",
    "delta": "δ",
    "epsilon": "ε",
    "kappa": "κ",
    "omega": "ω",
    "λ": "λ",
    "δ": "δ",
    "ε": "ε",
    "κ": "κ",
    "ω": "ω",
}


def fleet_letter(text: str) -> str:
    """A fleet's letter as TAB 1 writes it (``ω``, ``κ``, ``A``) from what a player typed
    (``Oméga``, ``k``, ``a``), with the ``+`` of ships on their way kept; anything else as it
    was typed (trimmed), for the checker to refuse with the player's own words."""
    raw = str(text).strip()
    more = "+" if raw.endswith("+") else ""
    core = raw[:-1].strip() if more else raw
    if core == "k":
        return "κ" + more
    greek = GREEK_WORDS.get(plain(core)) or GREEK_WORDS.get(core.lower())
    if greek:
        return greek + more
    if len(core) == 1 and core.isascii() and core.isalpha():
        return core.upper() + more
    return raw


def plain(text: str) -> str:
    """Lower case, accents off, single spaces: ``Frégate`` and ``fregate`` read the same."""
    folded = unicodedata.normalize("NFKD", str(text))
    bare = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(bare.lower().replace("_", " ").split())


def word(text: str, words: Mapping[str, str], what: str, cell: str = "") -> str:
    """The value ``text`` stands for in ``words``; `InvalidOrder` naming ``what`` if none."""
    found = words.get(plain(text))
    if found is None:
        w = current()
        raise InvalidOrder(
            w("{text!r} is not {what}", text=excerpt(text), what=w.gettext(what)), str(text), cell
        )
    return found


def position(game_map: StrategicMap, text: str, cell: str = "") -> Position:
    found = game_map.parse_position(text)
    if found is None:
        w = current()
        raise InvalidOrder(
            w(
                "{text!r} is not a position: write zone, sector and level, e.g. 23N4 (or "
                "23O4), or a system's letter",
                text=excerpt(text),
            ),
            str(text),
            cell,
        )
    return found


#: A position written with the French sector letters (``23O4``, ``23-I-4``).
_FRENCH_SECTOR = re.compile(r"\d\d\s*-?\s*([OI])\s*-?\s*\d", re.IGNORECASE)
#: A position as the tool writes it with the English letters W and C.
_SHOWN_SECTOR = re.compile(r"\b(\d\d)([WC])(\d)\b")
FRENCH_SECTORS = {"O": "W", "I": "C"}


def sectors_typed(text: str) -> dict[str, str]:
    """The French sector letters ``text`` uses, by the letter the tool reads them as
    (``23O4 23I4``: ``{"W": "O", "C": "I"}``)."""
    return {FRENCH_SECTORS[m.upper()]: m.upper() for m in _FRENCH_SECTOR.findall(str(text))}


#: The sector letters a reader's language writes where the tool's differ: a French reader
#: reads the west sector as O (ouest), as the seed's own notation has it.  C (the inner
#: sector) stays: it reads "centre" in French.
LANGUAGE_SECTORS: dict[str, dict[str, str]] = {"fr": {"W": "O"}}


def in_language(text: str, language: str, typed: Mapping[str, str] | None = None) -> str:
    """``text`` with its positions in the sector letters of ``language`` (``23W4`` as
    ``23O4`` for a French reader), or in those the player typed (``typed``, `sectors_typed`),
    which win: a player is answered in his own notation, and otherwise in his language's."""
    return as_typed(text, {**LANGUAGE_SECTORS.get(language, {}), **(typed or {})})


def shown_in(value: Any, language: str) -> Any:
    """``value`` (a report's context: texts in dicts and lists) with every text's positions in
    ``language``'s sector letters (`in_language`); anything else as it is."""
    if not LANGUAGE_SECTORS.get(language):
        return value
    if isinstance(value, str):
        return in_language(value, language)
    if isinstance(value, dict):
        return {k: shown_in(v, language) for k, v in value.items()}
    if isinstance(value, list):
        return [shown_in(v, language) for v in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(shown_in(v, language) for v in value)
    return value


def as_typed(text: str, typed: Mapping[str, str]) -> str:
    """``text`` with its positions in the sector letters the player typed (``23W4`` as
    ``23O4`` for a player who wrote O): a player is answered in his own notation."""
    if not typed:
        return text
    shown = _SHOWN_SECTOR.sub(lambda m: m[1] + typed.get(m[2], m[2]) + m[3], text)
    return text if shown == text else shown  # a sentence without a position stays as said


def path(game_map: StrategicMap, text: str, cell: str = "") -> tuple[Position, ...]:
    """Positions separated by spaces or dashes: the sectors entered, in order."""
    parts = str(text).replace(",", " ").replace(";", " ").replace(">", " ").split()
    return tuple(position(game_map, p, cell) for p in parts if p != "-")


def destination(game_map: StrategicMap, text: str, cell: str = "") -> tuple[Zone, int]:
    """A jump's zone and level: ``33 6``, ``33/6``, or a position (its zone and level)."""
    raw = str(text).replace("/", " ").replace(",", " ").split()
    if len(raw) == 2 and raw[0].isdigit() and len(raw[0]) == 2 and raw[1].isdigit():
        return (int(raw[0][0]), int(raw[0][1])), int(raw[1])
    if len(raw) == 1:
        found = game_map.parse_position(raw[0])
        if found is not None:
            return found.zone, found.level
    w = current()
    raise InvalidOrder(
        w(
            "{text!r} is not a destination: write the zone and the level, e.g. 33 6",
            text=excerpt(text),
        ),
        str(text),
        cell,
    )


def yes_no(text: str, cell: str = "") -> bool:
    value = plain(text)
    if value in YES:
        return True
    if value in NO or not value:
        return False
    raise InvalidOrder(
        current().gettext("{text!r} is not yes or no").format(text=excerpt(text)),
        str(text),
        cell,
    )


def count(text: str, cell: str = "", most: int = 99) -> int:
    value = plain(text)
    if not value:
        return 0
    if not value.isdigit() or int(value) > most:
        raise InvalidOrder(
            current()
            .gettext("{text!r} is not a number from 0 to {most}")
            .format(text=excerpt(text), most=most),
            str(text),
            cell,
        )
    return int(value)
