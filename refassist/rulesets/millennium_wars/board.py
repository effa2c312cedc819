"""The board: the scenario's map with the units on it, and the questions every rule asks of
it (who is in a hex, which hexes an enemy's zone of control covers, where a unit may go, how
many units a hex holds).

Zones of control: every land unit on the map, disrupted or not, controls the six hexes around
it (the seed does not say that disrupted units lose theirs, so they keep it); a naval task
force controls none.  Stacking: at most ``stacking`` land units a hex (the house rule, 3 by
default), 1 on a glacier; a naval task force does not count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from ...geometry.hexmap import HexGrid
from .scenario import Scenario
from .terrain import Terrain, entry_cost
from .units import Unit

DEFAULT_STACKING = 3


@dataclass
class Board:
    """The map and the units on it (changed in place as the turn is played)."""

    grid: HexGrid
    terrain: dict[str, str]
    table: dict[str, Terrain]
    places: dict[str, str]  # hex -> city, town, facility
    rivers: set[tuple[str, str]]
    locs: list[list[str]]
    units: list[Unit]
    stacking: int = DEFAULT_STACKING
    _loc_steps: set[tuple[str, str]] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        for path in self.locs:
            for a, b in pairwise(path):
                self._loc_steps.add(self.grid.hexside(a, b))

    @classmethod
    def of(cls, scenario: Scenario, units: list[Unit], stacking: int = DEFAULT_STACKING) -> Board:
        """The scenario's map with ``units`` on it: the list itself, not a copy, so that units
        eliminated or arriving on the board are gone from or added to the caller's list."""
        return cls(
            scenario.grid,
            scenario.terrain,
            scenario.terrain_table,
            {h: p.kind for h, p in scenario.places.items()},
            scenario.rivers,
            scenario.locs,
            units,
            stacking,
        )

    # -- who is where ---------------------------------------------------------------------------
    def unit(self, uid: str) -> Unit | None:
        return next((u for u in self.units if u.id == uid), None)

    def at(self, hex_: str) -> list[Unit]:
        return [u for u in self.units if u.hex == hex_]

    def land_at(self, hex_: str, side: str | None = None) -> list[Unit]:
        return [
            u
            for u in self.units
            if u.hex == hex_ and not u.kind.naval and (side is None or u.side == side)
        ]

    def enemy_in(self, hex_: str, side: str) -> bool:
        return any(u.side != side for u in self.at(hex_))

    def in_enemy_zoc(self, hex_: str, side: str) -> bool:
        """Whether an enemy land unit is next to ``hex_`` (its zone of control covers it)."""
        return any(
            u.side != side and not u.kind.naval
            for n in self.grid.neighbours(hex_)
            for u in self.at(n)
        )

    # -- terrain --------------------------------------------------------------------------------
    def terrain_of(self, hex_: str) -> Terrain:
        return self.table[self.terrain.get(hex_, "plain")]

    def river_between(self, a: str, b: str) -> bool:
        return self.grid.hexside(a, b) in self.rivers

    def loc_between(self, a: str, b: str) -> bool:
        """Whether a line of communication runs from ``a`` to ``b``."""
        return self.grid.hexside(a, b) in self._loc_steps

    def can_enter(self, unit: Unit, hex_: str) -> bool:
        """Whether the unit's class may be in the hex at all (sea for naval units only)."""
        if not self.grid.contains(hex_):
            return False
        ground = self.terrain_of(hex_)
        if unit.kind.naval:
            return ground.name == "sea"
        return ground.cost(unit.mechanized) is not None

    def step_cost(self, unit: Unit, a: str, b: str) -> Fraction | None:
        """Movement points from ``a`` into the adjacent ``b``, or None if the unit may not
        (a naval task force spends 1 a sea hex)."""
        if not self.can_enter(unit, b):
            return None
        if unit.kind.naval:
            return Fraction(1)
        river, along = self.river_between(a, b), self.loc_between(a, b)
        return entry_cost(
            self.terrain_of(b),
            unit.mechanized,
            hexside="river" if river else "",
            along_loc=along,
            loc_crosses_hexside=along and river,
        )

    # -- stacking -------------------------------------------------------------------------------
    def limit(self, hex_: str) -> int:
        own = self.terrain_of(hex_).stacking
        return min(own, self.stacking) if own is not None else self.stacking

    def overstacked(self, hex_: str, side: str) -> bool:
        return len(self.land_at(hex_, side)) > self.limit(hex_)


__all__ = ["DEFAULT_STACKING", "Board"]
