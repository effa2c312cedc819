"""Ship designs: what the campaign needs to know of a Full Thrust ship sheet, and the
original list the tool ships.

A design is the campaign's view of a ship class: its mass and cost (the buying and the
scrapping), its hold (cargo), whether it has an FTL drive and is streamlined (may land),
its size class (dockyard space, scrapping time), damage boxes (a merchant's cargo lost pro
rata), its type (merchant, warship, carrier, tug, tender: fuel, hasty jumps, ordnance),
fire-control units and ortillery systems (battle sheets, invasions).  The tabletop's own
ship sheets stay with the players; the referee keeps this list in the master workbook and may
edit it.

The shipped list is our own, with figures in the spirit of the game's book designs; it is not
Full Thrust's list, which a referee who owns the books types in instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Size classes and the dockyard spaces a refit needs (seed: escort 1, cruiser 2, capital 4).
SIZES = {"escort": 1, "cruiser": 2, "capital": 4}
#: Days to scrap, per size class (seed: 5 days per size class).
SCRAP_DAYS = {"escort": 5, "cruiser": 10, "capital": 15}
KINDS = ("warship", "carrier", "merchant", "tug", "tender")
#: Cargo spaces (production points) in one MASS of hold.
CARGO_PER_MASS = 50
#: Parsecs a full tank carries a ship: two maximum jumps (the seed's ferry range).
FULL_TANK_PARSECS = 20
MAX_JUMP = 10


@dataclass(frozen=True)
class Design:
    name: str
    mass: int
    cost: int
    size: str
    kind: str
    boxes: int
    hold: int = 0  # MASS of hold space
    ftl: bool = True
    streamlined: bool = False
    fire_control: int = 1
    ortillery: int = 0

    @property
    def cargo_spaces(self) -> int:
        """Production points the hold takes (1 MASS = 50 cargo spaces)."""
        return self.hold * CARGO_PER_MASS

    @property
    def tankage(self) -> int:
        """Fuel units: 25% of the mass rounded up, trebled for tugs and tenders."""
        units = math.ceil(self.mass / 4)
        return units * 3 if self.kind in ("tug", "tender") else units

    @property
    def merchant(self) -> bool:
        return self.kind == "merchant"


#: The designs a new game starts with (the referee edits them in the master workbook).
STANDARD_DESIGNS: tuple[Design, ...] = (
    Design("Lantern scout", 8, 26, "escort", "warship", 3, streamlined=True),
    Design("Halberd frigate", 20, 68, "escort", "warship", 6, streamlined=True),
    Design("Falchion destroyer", 30, 104, "escort", "warship", 9, fire_control=2),
    Design("Claymore cruiser", 50, 172, "cruiser", "warship", 15, fire_control=2),
    Design("Partisan heavy cruiser", 80, 276, "cruiser", "warship", 24, 0, True, False, 3, 1),
    Design("Bastion battleship", 140, 486, "capital", "warship", 40, 0, True, False, 3, 2),
    Design("Aerie carrier", 120, 448, "capital", "carrier", 34, fire_control=2),
    Design("Packet merchant", 20, 42, "escort", "merchant", 6, hold=8, streamlined=True),
    Design("Drayman bulk merchant", 60, 118, "cruiser", "merchant", 15, hold=30, streamlined=True),
    Design("Harness tug", 40, 92, "cruiser", "tug", 10),
    Design("Wellspring tender", 50, 124, "cruiser", "tender", 12, hold=20),
)


__all__ = [
    "CARGO_PER_MASS",
    "FULL_TANK_PARSECS",
    "KINDS",
    "MAX_JUMP",
    "SCRAP_DAYS",
    "SIZES",
    "STANDARD_DESIGNS",
    "Design",
]
