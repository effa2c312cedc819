"""The purchase options of Appendix A and B as data.

One table serves the sheet (the item dropdown and its cost formula), the checker (is this item
allowed here at this TL) and production (what it costs, what it becomes), so the three can never
disagree.  Placement kinds:

* ``ftl`` - FTL squadrons: a class A world or one with a spacedock (probes too under the
  house rule ``probe_build_site = "shipyard"``; by default they are built like munitions, see
  `placement`);
* ``upgrade`` - turns a ready Fleet squadron at the location into another type, same places;
* ``monitor`` - class A, B or C worlds;
* ``system`` - any system the player owns (facilities, minefields, munitions);
* ``deep`` - an empty hex within the player's best range of an owned world (refueling station).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .rules import complete


@dataclass(frozen=True)
class Item:
    code: str
    name: str
    cost: int
    tech_level: int
    placement: str
    #: Most allowed per hex (GL, OPC: 5; single facilities: 1); 0 = no limit.
    limit: int = 0
    #: What the item becomes: a Force field (F, S, A, Fs, Ms, K, SF, M, P) or a facility kind.
    becomes: str = ""


ITEMS: tuple[Item, ...] = (
    Item("F", "Fleet squadron", 2, 1, "ftl", becomes="F"),
    Item("A", "Assault squadron", 2, 1, "ftl", becomes="A"),
    Item("S", "Strike squadron", 2, 1, "ftl", becomes="S"),
    Item("SU", "Strike upgrade of a Fleet squadron", 1, 1, "upgrade", becomes="S"),
    Item("M", "Monitor squadron", 2, 1, "monitor", becomes="M"),
    Item("GL", "Genetics Lab", 3, 1, "system", limit=5, becomes="GL"),
    Item("OPC", "Orbital Production Centre", 3, 1, "system", limit=5, becomes="OPC"),
    Item("CC", "Control Centre", 12, 1, "system", limit=1, becomes="CC"),
    Item("CF", "Construction Facility", 12, 1, "system", limit=1, becomes="CF"),
    Item("DEPOT", "Depot", 18, 1, "system", limit=1, becomes="DEPOT"),
    Item("DSRS", "Deep Space Refueling Station", 10, 2, "deep", limit=1, becomes="DSRS"),
    Item("Fs", "Fast squadron", 3, 2, "ftl", becomes="Fs"),
    Item("FU", "Fast upgrade of a Fleet squadron", 1, 2, "upgrade", becomes="Fs"),
    Item("SF", "Saturated Fusion Bombing Attack level", 10, 2, "system", becomes="SF"),
    Item("MINE", "Minefield point", 1, 2, "system", becomes="MINE"),
    Item("PROBE", "Probe swarm", 1, 2, "ftl", becomes="P"),
    Item("DOCK", "Spacedock", 30, 2, "system", limit=1, becomes="DOCK"),
    Item("KKM", "KKM point", 1, 3, "system", becomes="K"),
    Item("Ms", "Minesweeper squadron", 2, 3, "ftl", becomes="Ms"),
)

ITEMS_BY_CODE: dict[str, Item] = {item.code.upper(): item for item in ITEMS}


def find_item(text: str) -> Item | None:
    """The item a player meant: its code (any case) or its name, or the dropdown label."""
    key = text.strip()
    if not key:
        return None
    if " - " in key:  # dropdown label "GL - Genetics Lab (3)"
        key = key.split(" - ", 1)[0].strip()
    item = ITEMS_BY_CODE.get(key.upper())
    if item:
        return item
    lowered = key.lower()
    for candidate in ITEMS:
        if candidate.name.lower() == lowered:
            return candidate
    return None


def placement(item: Item, rules: Mapping[str, Any]) -> str:
    """Where ``item`` may be built under the game's house rules.

    6.2 limits "FTL squadrons (those capable of moving)" to class A worlds; a probe swarm is
    not a squadron and App. B gives it no site, so by default it is built at any system the
    player owns ("system"); ``probe_build_site = "shipyard"`` keeps it with the squadrons."""
    if item.code == "PROBE" and complete(rules)["probe_build_site"] == "any-system":
        return "system"
    return item.placement


def item_label(item: Item) -> str:
    """The dropdown label, e.g. ``GL - Genetics Lab (3)``."""
    return f"{item.code} - {item.name} ({item.cost})"


def items_for_tech(tech_level: int) -> list[Item]:
    """Items a player at ``tech_level`` may buy."""
    return [item for item in ITEMS if item.tech_level <= tech_level]
