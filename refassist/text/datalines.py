"""Any event's data as indented text lines, for a report's details of an event.

A game records what happened in an event's ``data`` (forces, rounds, shots, rolls) as nested
mappings and lists; a report that prints them through this needs no template change when a
game adds a detail.  The lines are plain text: the template escapes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Deepest nesting printed; deeper values are shown as "...".
MAX_DEPTH = 5


def detail_lines(value: Any, depth: int = 0, label: str = "") -> list[str]:
    """``value`` as indented lines: mappings as ``key: value``, lists item by item, a list of
    plain values on one line, booleans as yes/no."""
    pad = "  " * depth
    head = f"{pad}{label}: " if label else pad
    if depth > MAX_DEPTH:
        return [f"{head}..."]
    if isinstance(value, Mapping):
        if not value:
            return [f"{head}-"] if label else []
        lines = [f"{pad}{label}:"] if label else []
        inner = depth + 1 if label else depth
        for key, item in value.items():
            lines.extend(detail_lines(item, inner, str(key)))
        return lines
    if isinstance(value, list | tuple):
        plain = all(not isinstance(v, Mapping | list | tuple) for v in value)
        if plain:
            return [f"{head}{', '.join(map(str, value)) or '-'}"]
        lines = [f"{pad}{label}:"] if label else []
        inner = depth + 1 if label else depth
        for n, item in enumerate(value, 1):
            lines.extend(detail_lines(item, inner, f"{label or 'item'} {n}"))
        return lines
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return [f"{head}{value}"]
