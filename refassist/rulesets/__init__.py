"""Registry of the games refassist can referee.

``RULESETS`` lists one instance per game; `find_ruleset` looks one up by name or alias,
case-insensitively (python-chess's ``find_variant``).  Adding a game means adding a package
under ``refassist/rulesets/`` and one line here; the engine never names a game.
"""

from __future__ import annotations

from ..errors import UsageError
from .base import Ruleset
from .fifth_millennium import FifthMillennium

RULESETS: tuple[Ruleset, ...] = (FifthMillennium(),)


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (or one of its aliases); `UsageError` if there is none."""
    wanted = name.strip().lower()
    for ruleset in RULESETS:
        if wanted == ruleset.name.lower() or wanted in (a.lower() for a in ruleset.aliases):
            return ruleset
    known = ", ".join(r.name for r in RULESETS)
    raise UsageError(f"unknown ruleset {name!r}; known rulesets: {known}")


__all__ = ["RULESETS", "Ruleset", "find_ruleset"]
