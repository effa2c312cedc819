"""The translation catalogs kept in step with the code: what is marked for translation, found
by Babel's extractors, against what each ``.po`` file holds.

The engine's domain is every module of ``refassist/`` outside the games' packages and the
shared templates (``templates/base``); a game's domain is its package and its templates.  A
text is marked by calling the reader's translator (``w("...")``, ``words("...")``,
``words.gettext``, ``_`` in templates, ``counted_as(n, "ship", "ships")``).
``scripts/translations.py`` writes the catalogs from this (keeping every translation made);
``tests/test_translations.py`` fails while a catalog misses a text or keeps a stale one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from .text.i18n import ENGINE_DOMAIN, GAME_DOMAIN, LANGUAGES, LOCALE, SOURCE_LANGUAGE

PACKAGE = Path(__file__).resolve().parent
#: The names a translator is called by in the code, with the arguments that are texts.
KEYWORDS = {
    "_": None,
    "w": None,
    "words": None,
    "gettext": None,
    "ngettext": (1, 2),
    "counted_as": (2, 3),
    "N_": None,
    "said": None,
    "said_plural": (1, 2),
}
_TEMPLATE_OPTIONS = {"extensions": "jinja2.ext.i18n", "trimmed": "false"}


@dataclass(frozen=True)
class Domain:
    """One catalog's sources and its files: ``po(language)`` is where its translation lives."""

    name: str
    sources: tuple[Path, ...]
    templates: tuple[Path, ...]
    folder: Path

    def po(self, language: str) -> Path:
        return self.folder / language / "LC_MESSAGES" / f"{self.name}.po"


def _templates_root() -> Path:
    from .typeset.render import project_templates

    return project_templates()


def engine_domain() -> Domain:
    games = PACKAGE / "rulesets"
    sources = tuple(
        p
        for p in sorted(PACKAGE.rglob("*.py"))
        if "__pycache__" not in p.parts and not (p.parent != games and p.is_relative_to(games))
    )
    base = _templates_root() / "base"
    templates = tuple(sorted([*base.glob("*.html"), *base.glob("*.css")]))
    return Domain(ENGINE_DOMAIN, sources, templates, LOCALE)


def game_domain(package_folder: Path, template_folder: Path) -> Domain:
    sources = tuple(p for p in sorted(package_folder.rglob("*.py")) if "__pycache__" not in p.parts)
    templates = tuple(sorted(template_folder.glob("*.html"))) if template_folder.is_dir() else ()
    return Domain(GAME_DOMAIN, sources, templates, package_folder / "locale")


def game_domains() -> dict[str, Domain]:
    """Every game package with catalogs of its own (a ``locale`` folder), by package name; its
    templates are those of its ruleset (``templates/<name>``, the package's name with
    hyphens unless a registered ruleset says otherwise)."""
    from .rulesets import all_rulesets

    names = {r.package.rsplit(".", 1)[-1]: r.name for r in all_rulesets()}
    out = {}
    for folder in sorted((PACKAGE / "rulesets").iterdir()):
        if (folder / "locale").is_dir() and (folder / "__init__.py").is_file():
            name = names.get(folder.name, folder.name.replace("_", "-"))
            out[folder.name] = game_domain(folder, _templates_root() / name)
    return out


def marked(domain: Domain) -> Iterator[tuple[str | tuple[str, ...], Path, int]]:
    """Every text marked for translation in the domain's files: (msgid, file, line)."""
    for path in domain.sources:
        for line, message, _comments, _context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=()
        ):
            yield message, path, line
    for path in domain.templates:
        for line, message, _comments, _context in extract_from_file(
            "jinja2", str(path), keywords=KEYWORDS, options=_TEMPLATE_OPTIONS
        ):
            yield message, path, line


def template_catalog(domain: Domain) -> Catalog:
    """The domain's texts as an empty catalog (a ``.pot``)."""
    catalog = Catalog(project="refassist", domain=domain.name)
    root = PACKAGE.parent
    for message, path, line in marked(domain):
        where = path.relative_to(root) if path.is_relative_to(root) else path
        catalog.add(message, locations=[(str(where), line)])
    return catalog


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def missing_and_stale(domain: Domain, language: str) -> tuple[list[str], list[str]]:
    """Texts the language's catalog lacks (or leaves untranslated), and texts it keeps that
    the code no longer marks."""
    wanted = template_catalog(domain)
    path = domain.po(language)
    have = read_catalog(path) if path.is_file() else Catalog()
    missing = []
    for message in wanted:
        if not message.id:
            continue
        found = have.get(message.id)
        strings = found.string if found is not None else None
        blank = not strings or (isinstance(strings, tuple) and not all(strings))
        if blank:
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    stale = [
        m.id if isinstance(m.id, str) else m.id[0]
        for m in have
        if m.id and wanted.get(m.id) is None
    ]
    return missing, stale


def update(domain: Domain, language: str) -> Path:
    """Write the language's catalog of the domain: every text marked, the translations kept,
    stale ones dropped, new ones empty (to be translated)."""
    path = domain.po(language)
    wanted = template_catalog(domain)
    old = read_catalog(path) if path.is_file() else Catalog(locale=language)
    wanted.locale = language
    # A header that does not change when nothing else does: the file is committed.
    wanted.creation_date = old.creation_date
    wanted.revision_date = old.revision_date
    wanted.fuzzy = False
    wanted.last_translator = "refassist developers"
    wanted.language_team = LANGUAGES[language]
    wanted.copyright_holder = "refassist developers"
    wanted.msgid_bugs_address = ""
    wanted.version = ""
    wanted.header_comment = (
        f"# {LANGUAGES[language]}: the {domain.name} texts of refassist.\n"
        "# scripts/translations.py keeps this file in step with the code; translate every\n"
        "# empty msgstr (tests/test_translations.py lists them)."
    )
    for message in wanted:
        if message.id and old.get(message.id) is not None:
            message.string = old.get(message.id).string  # type: ignore[union-attr]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, wanted, width=96, omit_header=False, sort_output=False)
    return path


def languages() -> list[str]:
    return [code for code in LANGUAGES if code != SOURCE_LANGUAGE]
