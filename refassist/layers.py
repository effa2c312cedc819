"""refassist's layers, lowest first: a module may import its own layer and those below it.

Each entry names packages or modules of ``refassist`` (a module belongs to the longest entry
its name starts with: ``rulesets.base`` is below ``rulesets``).  `tests/test_layers.py` reads
every module's imports (inside functions too) and fails naming the import that goes up; the
package ``refassist`` itself (its version) is below everything.  docs/architecture.md draws
the same table.
"""

from __future__ import annotations

from collections.abc import Mapping, Set

#: Lowest first.  Entries on one line are one layer: they may import each other (the import
#: graph has no circle all the same: tests/test_import_graph.py).
LAYERS: tuple[tuple[str, ...], ...] = (
    # errors, atomic writes, words and languages: what everything uses
    ("errors", "atomic", "layers", "text"),
    # the game's configuration, the dice, worker processes
    ("dice", "config", "processes"),
    # hexes, routes, sector files
    ("geometry",),
    # the interface every game implements, its shared types
    ("rulesets.base",),
    # workbooks: the master, the sheets' pages and readers
    ("workbook",),
    # maps, boards and networks: what a game describes of them, and how they are drawn
    ("drawings",),
    # the typesetter: our HTML subset set by Pango and cairo, WeasyPrint for the rest, PDFs
    ("typeset",),
    # the games and what they share (the registry finds them by name)
    ("rulesets",),
    # the game folder and what it keeps: state, stores, the outbox, sheets, recovery
    ("store",),
    # mail in and out
    ("mail",),
    # the turn lifecycle: resolve, rollback, replay
    ("turns",),
    # filing what players send
    ("intake",),
    # the reports of a turn and the archive site
    ("report", "archive"),
    # whole games: verify, the demo, the examples, the fog-of-war audit, the catalogs, and
    # the watch that runs a game's week
    ("verify", "demo", "examples", "playeraudit", "i18n_catalogs", "watch"),
    # the commands
    ("cli",),
)

ROOT = "refassist"


def layer_of(module: str) -> int | None:
    """The layer of ``refassist.x.y`` (its index in `LAYERS`), -1 for ``refassist`` itself,
    None when no entry holds it."""
    if module == ROOT:
        return -1
    name = module.removeprefix(ROOT + ".")
    best: tuple[int, int] | None = None
    for index, entries in enumerate(LAYERS):
        for entry in entries:
            holds = name == entry or name.startswith(entry + ".")
            if holds and (best is None or len(entry) > best[0]):
                best = (len(entry), index)
    return None if best is None else best[1]


def upward_imports(graph: Mapping[str, Set[str]]) -> list[str]:
    """Every import of a higher layer by a lower one in ``graph`` (module -> modules it
    imports), and every module no layer holds, as sentences."""
    found = []
    for module in sorted(graph):
        low = layer_of(module)
        if low is None:
            found.append(f"{module} is in no layer of refassist.layers.LAYERS")
            continue
        for target in sorted(graph[module]):
            high = layer_of(target)
            if high is not None and high > low:
                found.append(
                    f"{module} (layer {low}: {', '.join(LAYERS[low])}) imports {target} "
                    f"(layer {high}: {', '.join(LAYERS[high])})"
                )
    return found
