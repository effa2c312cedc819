"""Registry of the games refassist can referee.

``RULESETS`` lists one instance per game; `find_ruleset` looks one up by name or alias,
case-insensitively (python-chess's ``find_variant``).  The registry names no game: every
subpackage of ``refassist.rulesets`` that defines a module-level ``RULESET`` is a game, so adding
a game means adding its package and nothing else.  A subpackage without ``RULESET`` (helpers
shared by games) is not one.  A game package that fails to import is an error, not a game
quietly missing from the list.

A game is imported when it is asked for: `find_ruleset` imports the package named like the
game or its first words (``red-moon-one`` -> ``red_moon``) and only falls back to importing
every game when the name is an alias or another spelling; the whole list (``RULESETS``,
`all_rulesets`) imports them all.  Every command starts a process, and importing the five
games took about 0.25 s of each (docs/benchmarks.md).

Order: by each ruleset's ``order`` (then name).  The first one is the default of
``refassist new --ruleset`` and of the demo, so the order is explicit rather than whatever the
file system lists first.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..errors import UsageError
from .base import Ruleset


def discover(package_name: str = __name__) -> tuple[Ruleset, ...]:
    """Import every game package under ``package_name`` and collect its ``RULESET``, in
    order; `TypeError` for a ``RULESET`` that is not a ruleset or a name two games claim."""
    parent = importlib.import_module(package_name)
    found: list[Ruleset] = []
    for module in pkgutil.iter_modules(parent.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{package_name}.{module.name}")
        ruleset = getattr(package, "RULESET", None)
        if ruleset is None:
            continue
        if not isinstance(ruleset, Ruleset):
            raise TypeError(f"{package.__name__}.RULESET is not a Ruleset: {ruleset!r}")
        found.append(ruleset)
    found.sort(key=lambda r: (r.order, r.name))
    claimed: dict[str, Ruleset] = {}
    for ruleset in found:
        for alias in (ruleset.name, *ruleset.aliases):
            other = claimed.setdefault(alias.lower(), ruleset)
            if other is not ruleset:
                raise TypeError(f"{alias!r} names both {other.name} and {ruleset.name}")
    return tuple(found)


_DISCOVERED: list[tuple[Ruleset, ...]] = []


def all_rulesets() -> tuple[Ruleset, ...]:
    """Every game, in order (imported and checked on first use, then kept)."""
    if not _DISCOVERED:
        _DISCOVERED.append(discover())
    return _DISCOVERED[0]


def __getattr__(name: str) -> tuple[Ruleset, ...]:
    """``RULESETS``: the whole list, discovered when first read (`all_rulesets`)."""
    if name == "RULESETS":
        return all_rulesets()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _named_package(wanted: str) -> Ruleset | None:
    """The game whose package is spelt like ``wanted`` or its first words
    (``red-moon-one`` -> ``red_moon_one``, ``red_moon``, ``red``), importing that package
    alone."""
    packages = {m.name for m in pkgutil.iter_modules(__path__) if m.ispkg}
    words = wanted.split("-")
    for count in range(len(words), 0, -1):
        package = "_".join(words[:count])
        if package.isidentifier() and package in packages:
            module = importlib.import_module(f"{__name__}.{package}")
            ruleset = getattr(module, "RULESET", None)
            if isinstance(ruleset, Ruleset) and wanted == ruleset.name.lower():
                return ruleset
            return None
    return None


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (or one of its aliases); `UsageError` if there is none."""
    wanted = name.strip().lower()
    found = _named_package(wanted)
    if found is not None:
        return found
    for ruleset in all_rulesets():
        if wanted == ruleset.name.lower() or wanted in (a.lower() for a in ruleset.aliases):
            return ruleset
    known = ", ".join(r.name for r in all_rulesets())
    raise UsageError(f"unknown ruleset {name!r}; known rulesets: {known}")


def default_ruleset() -> Ruleset:
    """The ruleset used when none is named: the first registered one."""
    return all_rulesets()[0]


__all__ = ["RULESETS", "Ruleset", "all_rulesets", "default_ruleset", "find_ruleset"]
