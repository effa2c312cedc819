"""The game's names for its ships and sides as sheets and reports show them (translated for
the reader by `i18n.current`), in a module of their own because the order sheet, the battle
sheet and the reports all use them."""

from __future__ import annotations

from collections.abc import Sequence

from ...i18n import current
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


def ship_list(kinds: Sequence[str]) -> str:
    w = current()
    counts = {k: sum(1 for x in kinds if x == k) for k in SHIP_TYPES}
    shown = [f"{n} {w.gettext(SHIP_LABELS[k])}" for k, n in counts.items() if n]
    return ", ".join(shown) or w.gettext("no ships")


__all__ = ["SHIP_LABELS", "SIDE_LABELS", "ship_list"]
