"""Units: their types (the seed's counter list), sizes and what a scenario says of each.

The seed sorts the land unit types into mechanized and non-mechanized, which decides movement
costs, the Raid CRT's condition and the cost of reinforcements.  It lists light infantry and
shock troops under MECHANIZED in a garbled column; we read both as non-mechanized (light
infantry walks by definition; the seed's shock symbol sits with the foot units on the printed
counter sheet this list was taken from), and record it here.  Headquarters and political power
nexuses are logistics units (they have a support radius); cybercadres are the information
warfare units; a naval task force gives naval support and cannot enter land hexes.  The seed
names "Airmobile units" without listing them: we read the units that move by air, air assault,
airborne infantry and mechanized airborne, as airmobile.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UnitType:
    name: str
    mechanized: bool
    logistics: bool = False  # has a support radius (HQs, power nexuses)
    information_warfare: bool = False
    high_tech: bool = False  # counts toward the Air-Land Battle CRT's condition
    naval: bool = False
    paramilitary: bool = False
    #: Moves by air (helicopter or parachute): the seed's "Airmobile units may Retreat through
    #: Prohibited Terrain, enemy ZOCs and enemy units at no penalty".
    airmobile: bool = False


UNIT_TYPES: dict[str, UnitType] = {
    t.name: t
    for t in (
        UnitType("armor", True),
        UnitType("mechanized infantry", True),
        UnitType("armored cavalry", True),
        UnitType("combined arms", True),
        UnitType("mechanized airborne", True, airmobile=True),
        UnitType("high-tech strike force", True, high_tech=True),
        UnitType("headquarters", True, logistics=True),
        UnitType("light infantry", False),
        UnitType("shock", False),
        UnitType("special operations", False),
        UnitType("airborne infantry", False, airmobile=True),
        UnitType("air assault", False, airmobile=True),
        UnitType("marine", False),
        UnitType("paramilitary", False, paramilitary=True),
        UnitType("cybercadre", False, information_warfare=True),
        UnitType("political power nexus", False, logistics=True),
        UnitType("naval task force", False, naval=True),
    )
}

#: Unit sizes and the symbol a NATO-style counter prints above its box (the seed's list: a
#: cadre has no symbol of its own and is written out; a corps is XXX, an army XXXX).  A unit
#: with no size symbol is a division.
SIZES: dict[str, str] = {
    "cadre": "cadre",
    "battalion": "II",
    "regiment": "III",
    "brigade": "X",
    "division": "XX",
    "corps": "XXX",
    "army": "XXXX",
}
#: What the reinforcement and replacement costs call each size.
COST_CLASS = {
    "cadre": "non-division",
    "battalion": "non-division",
    "regiment": "non-division",
    "brigade": "non-division",
    "division": "division",
    "corps": "corps",
    "army": "corps",
}


@dataclass
class Unit:
    """A unit on the map (or due as a reinforcement).  ``attack`` and ``defence`` are the
    printed combat strength read twice (the seed speaks of one strength; a scenario may give
    them apart); ``support``: the support radius of a logistics unit."""

    id: str
    side: str
    type: str
    size: str = "division"
    nato: bool = False
    attack: int = 0
    defence: int = 0
    speed: int = 0
    hex: str = ""
    support: int = 0
    reserve: bool = False
    disrupted: bool = False
    ops_complete: bool = False

    @property
    def kind(self) -> UnitType:
        return UNIT_TYPES[self.type]

    @property
    def mechanized(self) -> bool:
        return self.kind.mechanized

    @property
    def symbol(self) -> str:
        """The size symbol a NATO-style counter prints over its box."""
        return SIZES[self.size]


__all__ = ["COST_CLASS", "SIZES", "UNIT_TYPES", "Unit", "UnitType"]
