"""refassist's layers (`refassist.layers.LAYERS`, lowest first): no lower package imports a
higher one, even lazily inside a function (docs/architecture.md).

The imports are read by tests/test_import_graph.py's reader (``ast``, ``if TYPE_CHECKING:``
blocks aside), so what it calls an import is what this checks.
"""

from __future__ import annotations

from refassist.layers import LAYERS, layer_of, upward_imports
from tests.test_import_graph import import_graph


def test_no_lower_layer_imports_a_higher_one() -> None:
    graph = import_graph()
    assert len(graph) > 100
    problems = upward_imports(graph)
    assert not problems, "imports that go up a layer:\n" + "\n".join(problems)


def test_every_entry_names_a_module_or_package() -> None:
    graph = import_graph()
    for entries in LAYERS:
        for entry in entries:
            assert f"refassist.{entry}" in graph, entry


def test_a_lower_package_importing_a_higher_one_is_found_and_named() -> None:
    """The check itself, on the real graph and on a graph of its own."""
    graph = import_graph()
    assert layer_of("refassist.geometry.hexmap") < layer_of("refassist.intake.inbox")
    graph["refassist.geometry.hexmap"] = graph["refassist.geometry.hexmap"] | {
        "refassist.intake.inbox"
    }
    problems = upward_imports(graph)
    assert len(problems) == 1
    assert problems[0].startswith("refassist.geometry.hexmap (layer ")
    assert "imports refassist.intake.inbox (layer " in problems[0]

    synthetic = {
        "refassist.errors": set(),
        "refassist.text.words": {"refassist.errors"},
        "refassist.store.game": {"refassist.text.words", "refassist.cli"},
        "refassist.cli": {"refassist.store.game"},
        "refassist.nowhere": set(),
    }
    assert upward_imports(synthetic) == [
        "refassist.nowhere is in no layer of refassist.layers.LAYERS",
        f"refassist.store.game (layer {layer_of('refassist.store')}: store) imports "
        f"refassist.cli (layer {len(LAYERS) - 1}: cli)",
    ]


def test_the_longest_entry_decides() -> None:
    assert layer_of("refassist.rulesets.base") < layer_of("refassist.workbook.master")
    assert layer_of("refassist.workbook.master") < layer_of("refassist.rulesets.checking")
    assert layer_of("refassist") == -1
    assert layer_of("refassist.storehouse") is None
