"""Translations: what a player reads (replies, reports, sheets) in the player's language.

The source texts are English, marked in the code with ``words.gettext("...")`` (or ``_`` in
templates, with jinja2's i18n extension) and translated in gettext catalogs: the engine's in
``refassist/locale/<lang>/LC_MESSAGES/refassist.po``, a game's own in
``refassist/rulesets/<package>/locale/<lang>/LC_MESSAGES/messages.po``.  The ``.po`` files are
the only copy: Babel compiles them when first used (a few milliseconds), so a translator edits
one text file and nothing is built by hand.  A text with no translation is shown in English,
never as an error, so a half-translated catalog is still usable.

A game translated later needs no change to its code beyond marking its texts: the engine asks
`words_for` for the reader's language everywhere it writes to a player.
"""

from __future__ import annotations

import contextlib
import gettext
import io
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import datetime
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any

from babel.dates import format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from refassist.text.words import NO_DEADLINE

#: Languages refassist speaks, by code, with their own names (for help and errors).
LANGUAGES: dict[str, str] = {"en": "English", "fr": "français"}
SOURCE_LANGUAGE = "en"
ENGINE_DOMAIN = "refassist"
GAME_DOMAIN = "messages"
LOCALE = Path(__file__).resolve().parent.parent / "locale"

#: What a referee may write for a language in players.csv or game.toml.
_NAMES = {
    "en": "en",
    "english": "en",
    "anglais": "en",
    "fr": "fr",
    "french": "fr",
    "francais": "fr",
    "français": "fr",
}


def language_code(text: str) -> str | None:
    """``fr`` for ``fr``, ``FR``, ``fr_FR``, ``French`` or ``français``; None if unknown."""
    raw = str(text).strip().lower().replace("-", "_")
    return _NAMES.get(raw) or _NAMES.get(raw.split("_", 1)[0])


def _catalog(path: Path) -> gettext.GNUTranslations | None:
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        catalog = read_po(handle)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@lru_cache(maxsize=32)
def translations(language: str, package: str = "") -> gettext.NullTranslations:
    """The translations into ``language``: the game's catalog (``package``, a module path
    such as ``refassist.rulesets.<game>``) first, then the engine's.  English, or a
    language without a catalog, gives the source texts unchanged."""
    if language == SOURCE_LANGUAGE or language not in LANGUAGES:
        return gettext.NullTranslations()
    found: list[gettext.GNUTranslations] = []
    if package:
        folder = Path(import_module(package).__file__ or "").parent
        game = _catalog(folder / "locale" / language / "LC_MESSAGES" / f"{GAME_DOMAIN}.po")
        if game is not None:
            found.append(game)
    engine = _catalog(LOCALE / language / "LC_MESSAGES" / f"{ENGINE_DOMAIN}.po")
    if engine is not None:
        found.append(engine)
    if not found:
        return gettext.NullTranslations()
    first = found[0]
    for more in found[1:]:
        first.add_fallback(more)
    return first


class Words:
    """A reader's translator: ``gettext`` and ``ngettext`` in the reader's language, and
    ``counted`` for the "3 ships" phrases every report is full of."""

    def __init__(self, language: str = SOURCE_LANGUAGE, package: str = "") -> None:
        self.language = language if language in LANGUAGES else SOURCE_LANGUAGE
        self.package = package
        self._t = translations(self.language, package)

    def gettext(self, message: str) -> str:
        return self._t.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._t.ngettext(singular, plural, n)

    def __call__(self, message: str, **values: object) -> str:
        """The message translated, then filled in: ``words("{n} ships", n=3)``."""
        text = self._t.gettext(message)
        return text.format(**values) if values else text

    def counted_as(self, n: int, singular: str, plural: str) -> str:
        """``3 ships`` in the reader's language: both forms are msgids of the catalog."""
        return f"{n} {self.ngettext(singular, plural, n)}"

    def when(self, moment: datetime | None) -> str:
        """A deadline as the reader writes dates (``Thu 26 Nov 2026 21:00``, ``jeu. 26 nov.
        2026 21:00``), or the words for a deadline not set yet."""
        if moment is None:
            return self.gettext(NO_DEADLINE)
        if self.language == SOURCE_LANGUAGE:
            return moment.strftime("%a %d %b %Y %H:%M")
        return format_datetime(moment, "EEE d MMM y HH:mm", locale=self.language)

    def orders_due(self, deadline: str) -> str:
        """The sentence that says when orders are due (``deadline`` as `when` gave it)."""
        if deadline == self.gettext(NO_DEADLINE):
            return self.gettext("Orders are due when the referee sets the deadline.")
        return self.gettext("Orders are due {deadline}.").format(deadline=deadline)


def words_for(language: str = "", package: str = "") -> Words:
    """The translator for a reader (an empty language: English)."""
    return Words(language or SOURCE_LANGUAGE, package)


#: The reader whose pages are being written: set by the engine around a game's sheet writer and
#: checker (`speaking_to`), so a game's code asks `current()` instead of passing a language
#: through every signature.
_READER: ContextVar[Words | None] = ContextVar("refassist_reader", default=None)


def current() -> Words:
    """The translator of the reader being written for (English when none was set)."""
    return _READER.get() or Words()


@contextlib.contextmanager
def speaking_to(language: str, package: str = "") -> Iterator[Words]:
    """Within the block, `current` speaks ``language`` (the engine's texts and ``package``'s)."""
    token = _READER.set(words_for(language, package))
    try:
        yield _READER.get() or Words()
    finally:
        _READER.reset(token)


class Said(str):
    """A sentence said in the current reader's language that remembers its source text and
    values, so a report can say it again in another reader's (`again`).  It is a ``str``:
    wherever a message was a plain string, a `Said` serves."""

    template: str
    values: dict[str, Any]


def _kept_and_shown(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A sentence's values as a record keeps them (a sentence within it as its template and
    values, to say again) and as the current reader is shown them."""
    kept: dict[str, Any] = {}
    shown: dict[str, Any] = {}
    for k, v in values.items():
        if isinstance(v, Said):  # a sentence within a sentence: said again in its turn
            kept[k], shown[k] = {"say": [v.template, v.values]}, str(v)
        else:
            kept[k] = shown[k] = v if isinstance(v, int | float) else str(v)
    return kept, shown


def said(template: str, **values: Any) -> Said:
    """``template`` (an English msgid with ``{name}`` fields) translated for `current` and
    filled in, remembering both for `again`."""
    kept, shown = _kept_and_shown(values)
    out = Said(current().gettext(template).format(**shown))
    out.template, out.values = template, kept
    return out


def said_plural(singular: str, plural: str, n: int, **values: Any) -> Said:
    """`said` for a sentence that counts: the catalog's plural form for ``n`` (French says
    "0 point gagné", "2 points gagnés"; English "0 points"), never "(s)".  ``n`` fills
    ``{n}``; the plural and the count are remembered (as ``_plural``) so `again` picks the
    form of another reader's language."""
    kept, shown = _kept_and_shown({**values, "n": n})
    kept["_plural"] = [plural, n]
    out = Said(current().ngettext(singular, plural, n).format(**shown))
    out.template, out.values = singular, kept
    return out


def said_as(text: str) -> list[Any] | None:
    """How ``text`` was said (``[template, values]``, as an event's ``data["say"]`` keeps
    it), or None for a plain string: what a record keeps to say it again (`again`)."""
    template = getattr(text, "template", "")
    return [template, getattr(text, "values", {})] if template else None


def again(text: str, words: Words, say: Any = None) -> str:
    """``text`` in ``words``' language: a `Said` (or its ``[template, values]`` as an event's
    data keeps it, ``say``) is translated anew; any other text is shown as it was written."""
    template, values = say if say else (getattr(text, "template", ""), getattr(text, "values", {}))
    if not template:
        return str(text)
    shown = {
        k: again("", words, v["say"]) if isinstance(v, dict) and "say" in v else v
        for k, v in values.items()
        if k != "_plural"
    }
    plural = values.get("_plural")
    try:
        if plural:  # said_plural's: the reader's language's form for the count
            return words.ngettext(template, str(plural[0]), int(plural[1])).format(**shown)
        return words.gettext(template).format(**shown)
    except (KeyError, IndexError, ValueError):
        return str(text)
