"""Templates to PDF: the jinja2 environment and WeasyPrint rendering, both locked down.

Templates are looked up first in the game folder's ``templates/`` (a referee may override any
file there, e.g. ``templates/base/report.css`` to change the fonts of one game), then in the
project's ``templates/``.  Autoescaping is always on: player names and messages are hostile
text.  Rendering goes through `SafeFetcher`, so the only things a report can load are
``data:`` URIs and files of these template folders.

Map pages are not drawn here: a template leaves an empty box (``<div data-map="...">``) that
`map_boxes` finds in the laid-out document, and `refassist.typeset.stamp` draws the map into it.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import hashlib
import logging
import re
import sys
import textwrap
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from refassist.errors import RefassistError
from refassist.text.i18n import SOURCE_LANGUAGE, translations
from refassist.text.words import counted

if TYPE_CHECKING:  # WeasyPrint is imported only when it lays a report out (`layout`)
    from refassist.typeset.fetcher import SafeFetcher

#: CSS pixels (WeasyPrint's unit) to PDF points.
PX_TO_PT = 0.75


class ReportError(RefassistError):
    """A report cannot be written (a broken template override, a missing part of the game)."""


def project_templates() -> Path:
    """The project's template folder (``templates/`` beside the package, or inside it when
    installed as a wheel)."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "templates", here.parent / "templates"):
        if (candidate / "base").is_dir():
            return candidate
    raise ReportError(
        f"the report templates are missing (looked in {here / 'templates'} and "
        f"{here.parent / 'templates'}); reinstall refassist"
    )


def template_dirs(game_path: Path | None = None) -> list[Path]:
    """Where templates are looked up, first match wins: the game's folder, then the project."""
    dirs = []
    if game_path is not None and (Path(game_path) / "templates").is_dir():
        dirs.append((Path(game_path) / "templates").resolve())
    dirs.append(project_templates())
    return dirs


def environment(
    dirs: Sequence[Path], translations_: gettext.NullTranslations | None = None
) -> jinja2.Environment:
    """A jinja2 environment over ``dirs`` with autoescape on and undefined names as errors;
    its ``_("...")`` speaks ``translations_`` (English without: `speaking`)."""
    return _configured(
        jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(d)) for d in dirs]), translations_
    )


_SHARED: dict[tuple[Path, ...], jinja2.Environment] = {}


def shared_environment(dirs: Sequence[Path]) -> jinja2.Environment:
    """One `environment` per template search path and process, for every report and page
    the process writes: templates are compiled once (about 80 ms for a report's, as much
    again for the archive site's) and again only when a file changes (jinja2 checks the
    files' times), so a referee's override edited between two runs is still honoured."""
    key = tuple(dirs)
    env = _SHARED.get(key)
    if env is None:
        env = _SHARED[key] = environment(key)
    return env


#: A template's parts named in its tags: ``{% extends "x" %}``, include, import, from.
_PARTS = re.compile(r"""{%-?\s*(?:extends|include|import|from)\s+["']([^"']+)["']""")


def compile_with_parts(env: jinja2.Environment, names: Iterable[str]) -> None:
    """Compile the templates ``names`` and every template they extend, include or import, so
    that processes forked afterwards find them all compiled (jinja2 compiles a template's
    parts only when it is rendered).  The parts are found in the tags' text: parsing each
    template again for them took longer than loading it compiled; a part named by a variable
    is missed here and compiled by the process that renders it."""
    todo, seen = list(names), set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        env.get_template(current)
        assert env.loader is not None
        source = env.loader.get_source(env, current)[0]
        todo.extend(_PARTS.findall(source))


#: How the environments are set up; compiled templates are kept under a name made from it.
_OPTIONS: dict[str, Any] = {
    "autoescape": True,
    "undefined": jinja2.StrictUndefined,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "extensions": ["jinja2.ext.i18n"],
}


class CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """The templates' compiled code, kept between runs (jinja2's own cache in the user's
    private temporary folder, `_jinja2-cache-<uid>`, which jinja2 checks is the user's alone).

    Every command compiled the templates it used from their source: a quarter of a second
    of a `refassist report`, before the first page.  jinja2 reloads a template whose source
    changed (a referee's override edited), and the files' names carry what else the code
    depends on (jinja2's and Python's versions and the environment's options), so one
    refassist never loads another's.  A cache that cannot be written or read is no cache:
    the template is compiled from its source as before."""

    def __init__(self) -> None:
        # The compiled code also depends on the i18n calls being new-style (`_configured`).
        setup = (jinja2.__version__, sys.version_info[:2], sorted(_OPTIONS.items()), "newstyle")
        made = repr(setup)
        tag = hashlib.sha256(made.encode()).hexdigest()[:16]
        super().__init__(pattern=f"refassist-{tag}-%s.cache")

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a damaged file: compile from the source
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


@functools.cache
def _compiled_templates() -> jinja2.BytecodeCache | None:
    """The shared `CompiledTemplates`, or None where no private folder can be made."""
    try:
        return CompiledTemplates()
    except (OSError, RuntimeError):
        return None


def _configured(
    loader: jinja2.BaseLoader, translations_: gettext.NullTranslations | None
) -> jinja2.Environment:
    env = jinja2.Environment(loader=loader, bytecode_cache=_compiled_templates(), **_OPTIONS)
    env.install_gettext_translations(  # type: ignore[attr-defined]
        translations_ or gettext.NullTranslations(), newstyle=True
    )
    env.filters["signed"] = lambda n: f"{n:+d}" if isinstance(n, int) else str(n)
    env.filters["plural"] = counted
    env.filters["col"] = column
    env.filters["hang"] = hanging
    return env


#: Each environment's siblings in other languages, by (language, package), kept while the
#: environment lives.
_SPEAKING: weakref.WeakKeyDictionary[
    jinja2.Environment, dict[tuple[str, str], jinja2.Environment]
] = weakref.WeakKeyDictionary()


def speaking(env: jinja2.Environment, language: str, package: str = "") -> jinja2.Environment:
    """``env`` in ``language``: an environment over the same templates whose ``_()`` and
    ``{% trans %}`` use the engine's and the game's catalogs (`refassist.text.i18n`).  A sibling,
    not an overlay: an overlay shares its parent's globals, so installing one language's
    ``_`` there would change the parent's too.  Made once per language and kept."""
    if language in ("", SOURCE_LANGUAGE):
        return env
    key = (language, package)
    cache = _SPEAKING.setdefault(env, {})
    found = cache.get(key)
    if found is None:
        assert env.loader is not None
        found = cache[key] = _configured(env.loader, translations(language, package))
    return found


def column(value: Any, width: int, align: str = "left", cut: bool = True) -> str:
    """A value padded (or cut, with a final "~") to ``width`` characters, for monospace
    listings: long lists are laid out as preformatted text, which WeasyPrint handles many
    times faster than table rows.  ``cut=False`` never shortens (orders in notation)."""
    text = str(value)
    if cut and len(text) > width:
        text = text[: max(1, width - 1)] + "~"
    return text.rjust(width) if align == "right" else text.ljust(width)


#: Characters of a monospace listing line on the page (7.5pt DejaVu Sans Mono, 0.6 em a
#: character, across the 190 mm between an A4 page's margins: 119, less a little air).
LISTING_WIDTH = 116


def hanging(value: Any, indent: int, width: int = LISTING_WIDTH) -> str:
    """The last column of a listing line, wrapped at spaces so it stays on the page: its
    continuation lines start ``indent`` characters in, under the column's first character."""
    text = str(value)
    room = max(20, width - indent)
    if len(text) <= room:
        return text
    lines = textwrap.wrap(text, room, break_long_words=True, break_on_hyphens=False)
    return ("\n" + " " * indent).join(lines)


def render_html(env: jinja2.Environment, template: str, context: Mapping[str, Any]) -> str:
    """Render one template, turning template mistakes into a one-line `ReportError`."""
    try:
        return env.get_template(template).render(**context)
    except jinja2.TemplateNotFound as exc:
        raise ReportError(
            f"report template {exc.name!r} not found in {', '.join(map(str, _dirs(env)))}"
        ) from None
    except jinja2.TemplateSyntaxError as exc:
        raise ReportError(
            f"report template {exc.filename or exc.name}, line {exc.lineno}: {exc.message}; "
            "fix the template (or delete the game's override to use the default)"
        ) from None
    except jinja2.UndefinedError as exc:
        raise ReportError(
            f"report template {template!r} uses something the report does not provide "
            f"({exc.message}); fix the template override"
        ) from None


def _dirs(env: jinja2.Environment) -> list[str]:
    loader = env.loader
    if isinstance(loader, jinja2.ChoiceLoader):
        return [p for sub in loader.loaders for p in getattr(sub, "searchpath", [])]
    return []


@dataclass(frozen=True)
class MapBox:
    """Where a template left room for a map: page index, map key, box in points (top left)."""

    page: int
    key: str
    x: float
    y: float
    width: float
    height: float


def quiet_weasyprint() -> None:
    """WeasyPrint logs every refused URL (as an error) and every CSS property it ignores; the
    fetcher keeps its own list of refused URLs, which the CLI reports in one line per report,
    so WeasyPrint's own log stays silent instead of printing tracebacks-like noise."""
    logger = logging.getLogger("weasyprint")
    logger.setLevel(logging.CRITICAL)
    logger.propagate = False
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())


def layout(html: str, base_dir: Path, fetcher: SafeFetcher) -> Any:
    """Lay out HTML with WeasyPrint (``weasyprint.Document``); relative URLs resolve inside
    ``base_dir``, which must be a template folder."""
    import weasyprint

    quiet_weasyprint()
    return weasyprint.HTML(
        string=html, base_url=base_dir.as_uri() + "/", url_fetcher=fetcher
    ).render()


def map_boxes(document: Any) -> list[MapBox]:
    """Every ``data-map`` box of a laid-out document, in page order."""
    found: list[MapBox] = []
    for index, page in enumerate(document.pages):
        seen: set[int] = set()
        for box in _descendants(page._page_box):
            element = getattr(box, "element", None)
            if element is None or id(element) in seen:
                continue
            key = element.get("data-map") if hasattr(element, "get") else None
            if not key:
                continue
            seen.add(id(element))
            found.append(
                MapBox(
                    page=index,
                    key=key,
                    x=box.content_box_x() * PX_TO_PT,
                    y=box.content_box_y() * PX_TO_PT,
                    width=box.width * PX_TO_PT,
                    height=box.height * PX_TO_PT,
                )
            )
    return found


def _descendants(box: Any) -> Iterator[Any]:
    stack = [box]
    while stack:
        current = stack.pop()
        yield current
        children = getattr(current, "children", None)
        if children:
            stack.extend(reversed(children))
