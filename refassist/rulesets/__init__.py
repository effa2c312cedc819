"""Registry of the games refassist can referee.

``RULESETS`` lists one instance per game; `find_ruleset` looks one up by name or alias,
case-insensitively (python-chess's ``find_variant``).  The registry names no game: every
subpackage of ``refassist.rulesets`` that defines a module-level ``RULESET`` is a game, so adding
a game means adding its package and nothing else.  A subpackage without ``RULESET`` (helpers
shared by games) is not one.  A game package that fails to import is an error, not a game
quietly missing from the list.

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


RULESETS: tuple[Ruleset, ...] = discover()


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (or one of its aliases); `UsageError` if there is none."""
    wanted = name.strip().lower()
    for ruleset in RULESETS:
        if wanted == ruleset.name.lower() or wanted in (a.lower() for a in ruleset.aliases):
            return ruleset
    known = ", ".join(r.name for r in RULESETS)
    raise UsageError(f"unknown ruleset {name!r}; known rulesets: {known}")


def default_ruleset() -> Ruleset:
    """The ruleset used when none is named: the first registered one."""
    return RULESETS[0]


__all__ = ["RULESETS", "Ruleset", "default_ruleset", "find_ruleset"]
