"""The game's names for its ships and sides as sheets and reports show them (translated for
the reader by `i18n.current`), in a module of their own because the order sheet, the battle
sheet and the reports all use them."""

from __future__ import annotations

from collections.abc import Sequence

from ...i18n import Said, current, said
from ...words import N_
from .charts import SHIP_TYPES
from .state import ALIEN, EMPIRE

SHIP_LABELS = {
    "corvette": N_("corvette"),
    "fregate": N_("frégate"),
    "vaisseau": N_("vaisseau"),
    "porte_intercepteur": N_("porte-intercepteur"),
    "colonisation": N_("navire de colonisation"),
}
SIDE_LABELS = {ALIEN: N_("the Extraterrestrial"), EMPIRE: N_("the Empire")}
#: A fleet as a sentence names it: both sides have fleets of the same letters (TAB 1), so the
#: letter alone leaves the reader guessing whose fleet δ was destroyed.
FLEET_OF = {ALIEN: N_("{letter} of the Extraterrestrial"), EMPIRE: N_("{letter} of the Empire")}


def fleet_of(side: str, letter: str) -> Said:
    """The fleet ``letter`` of ``side`` as a sentence's ``{fleet}`` (said again in each
    reader's language): "fleet δ of the Empire", « la flotte δ de l'Empire »."""
    return said(FLEET_OF[side], letter=letter)


def ship_list(kinds: Sequence[str]) -> str:
    w = current()
    counts = {k: sum(1 for x in kinds if x == k) for k in SHIP_TYPES}
    shown = [f"{n} {w.gettext(SHIP_LABELS[k])}" for k, n in counts.items() if n]
    return ", ".join(shown) or w.gettext("no ships")


__all__ = ["FLEET_OF", "SHIP_LABELS", "SIDE_LABELS", "fleet_of", "ship_list"]
