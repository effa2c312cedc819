"""What a player orders in one exchange: the phasing player's impulse sheet, the other
player's reaction sheet, or both players' answers to the UN's demand for a ceasefire.

``cell`` fields name the sheet cell an order came from (``Orders!C14``), so that a problem found
at resolve time is reported on the cell the player typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .combat import Attack, Defence
from .movement import Move

#: The cell of the ceasefire sheet where a player answers the UN (the checker pins its
#: problem there).
CEASEFIRE_CELL = "C11"
#: What a player takes when its information warfare wins a choice.
IW_CHOICES = ("index", "see", "disrupt", "disrupt-iw", "c4i")


@dataclass
class Purchase:
    """Political points spent in the first impulse: a ``replacement`` brings an eliminated
    unit back (``unit``, at ``hex`` in the home country); ``air defence`` raises the Air
    Defense level by one."""

    kind: str  # replacement, air defence
    unit: str = ""
    hex: str = ""
    cell: str = ""


@dataclass
class InformationAttack:
    """An information warfare attack (first impulse): the attacking cybercadres, and what the
    player takes if the result lets it choose (index, see, disrupt, disrupt-iw, c4i) with the
    enemy units to disrupt."""

    units: list[str]
    choice: str = "index"
    targets: list[str] = field(default_factory=list)
    cell: str = ""


@dataclass
class Orders:
    """One player's sheet for one exchange (``step``: its key, e.g. ``3-1-2r``)."""

    player: str
    step: str
    moves: list[Move] = field(default_factory=list)
    attacks: list[Attack] = field(default_factory=list)
    purchases: list[Purchase] = field(default_factory=list)
    information: list[InformationAttack] = field(default_factory=list)
    #: The defender's standing preferences for attacks on its units this impulse (on the
    #: reaction sheet; on the phasing sheet too when fast play is in use).
    defence: Defence = field(default_factory=Defence)
    ceasefire: str = ""  # on the ceasefire sheet: accept or refuse
    #: On an impulse sheet: the phasing player takes no further impulse this player turn, so
    #: the exchanges of its later impulses are skipped (no empty mail rounds).
    last: bool = False
    #: On an impulse sheet: the units the player holds in reserve for the enemy's coming
    #: player turn (None: the sheet names none, an earlier naming or the reserves as they are
    #: stand; an empty list: "none", no reserves).  The latest naming of the player turn
    #: counts, at its end, for the units not Ops Complete (`resolve._reserves_named`).
    reserves: list[str] | None = None
    message: str = ""


def no_orders(player: str, step: str) -> Orders:
    """What a player who sent nothing does: no moves, no attacks; a ceasefire is refused."""
    return Orders(player, step, ceasefire="refuse")


__all__ = ["CEASEFIRE_CELL", "IW_CHOICES", "InformationAttack", "Orders", "Purchase", "no_orders"]
