"""refassist's modules import in one direction only: no two modules import each other, even
through others or lazily inside a function (docs/architecture.md).

A circle is how the engine and the games grew tangled before (the intake and the turn
lifecycle, a game's sheet and its checker); a lazy import hid each one.  This reads every
module's imports with `ast` (inside functions too; `if TYPE_CHECKING:` blocks aside) and sorts
the graph with `graphlib`, which names a circle when there is one.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "refassist"


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def typing_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``, which never run."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(id(n) for child in node.body for n in ast.walk(child))
    return out


def imported(path: Path, modules: set[str]) -> set[str]:
    """The refassist modules ``path`` imports (``from .x import y`` counts ``x`` and, if it
    is a module, ``x.y``)."""
    name = module_of(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = typing_only(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    paths = {module_of(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    graph = {name: imported(path, modules) for name, path in paths.items()}
    # A module reaching its own package's __init__ (``from .. import base``) is Python's
    # normal order of loading, not a circle, as long as the __init__ does not import it back.
    return {name: {m for m in deps if not name.startswith(m + ".")} for name, deps in graph.items()}


def test_the_import_graph_has_no_circle() -> None:
    graph = import_graph()
    assert len(graph) > 100 and "refassist.turns" in graph["refassist.verify"]
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        circle = " -> ".join(exc.args[1])
        raise AssertionError(f"modules import each other: {circle}") from None


def test_a_circle_is_found_and_named() -> None:
    """The check itself: a circle through a lazy import is reported."""
    graph = import_graph()
    # `turns` reads the inbox's record; the record importing `turns` back closes a circle.
    assert "refassist.store.inbox_index" in graph["refassist.turns"]
    graph["refassist.store.inbox_index"] = graph["refassist.store.inbox_index"] | {
        "refassist.turns"
    }
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        assert {"refassist.store.inbox_index", "refassist.turns"} <= set(exc.args[1])
    else:
        raise AssertionError("the circle inbox_index -> turns -> inbox_index was not found")
