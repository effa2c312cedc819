"""The Terrain Effects Table: what a hex's terrain and its hexsides cost a moving unit and
give a defender.

The seed's table is partly garbled (city, town and river each lack one movement value; forest's
mechanized cost is a broken glyph); ``TERRAIN`` is the reading of our digest, and a scenario may
override any entry.  Movement costs are movement points to enter a hex, for mechanized and
non-mechanized units (``None``: the unit may not enter); the combat shift is the defender's
(negative shifts help the defender).  A line of communication along which a unit moves costs
1/2 a hex whatever the terrain (our reading of the seed's "1/2": both classes), and a river
hexside crossed by a line of communication has no movement penalty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Terrain:
    """One kind of hex.  ``stacking``: the most land units a hex of it holds (None: the
    game's limit)."""

    name: str
    mechanized: Fraction | None  # movement points to enter; None: prohibited
    non_mechanized: Fraction | None
    shift: int  # the defender's column shift (0: none)
    combat: bool = True  # sea: no combat at all
    stacking: int | None = None

    def cost(self, mechanized: bool) -> Fraction | None:
        return self.mechanized if mechanized else self.non_mechanized


def _t(name: str, mech: int | None, foot: int | None, shift: int, **kw: Any) -> Terrain:
    def mp(v: int | None) -> Fraction | None:
        return None if v is None else Fraction(v)

    return Terrain(name, mp(mech), mp(foot), shift, **kw)


#: Hex terrain (the digest's reading of the seed's table).  A city or town is a hex feature
#: over clear ground here: it costs 1 and gives the defender its shift.
TERRAIN: dict[str, Terrain] = {
    t.name: t
    for t in (
        _t("plain", 1, 1, 0),
        _t("city", 1, 1, -2),
        _t("town", 1, 1, -1),
        _t("desert", 1, 2, +1),
        _t("rough", None, 2, -1),
        _t("mountain", None, 3, -2),
        _t("forest", 3, 2, -1),
        _t("swamp", 2, 1, -1),
        _t("glacier", None, 3, -2, stacking=1),
        _t("lake", None, 3, -3),
        _t("sea", None, None, 0, combat=False),
    )
}
#: Hexside features: extra movement points to cross and the defender's shift when attacked
#: across it.
HEXSIDES: dict[str, tuple[int, int]] = {"river": (1, -2), "border": (0, 0)}
#: A move along a line of communication: this many movement points a hex, for both classes.
LOC_COST = Fraction(1, 2)


def with_overrides(overrides: Mapping[str, Mapping[str, Any]]) -> dict[str, Terrain]:
    """The table with a scenario's overrides (``{"forest": {"mechanized": 2}}``); a value of
    ``"prohibited"`` forbids entry.  Unknown names or fields raise ValueError (the scenario
    reader pins them to their line)."""
    table = dict(TERRAIN)
    fields = {"mechanized", "non_mechanized", "shift", "stacking"}
    for name, changes in overrides.items():
        if name not in table:
            raise ValueError(f"{name!r} is not a terrain (use one of {', '.join(TERRAIN)})")
        unknown = set(changes) - fields
        if unknown:
            raise ValueError(f"{name}: {', '.join(sorted(unknown))} cannot be set")
        values: dict[str, Any] = {}
        for key, value in changes.items():
            if key in ("mechanized", "non_mechanized"):
                values[key] = _points(value, f"{name}.{key}")
            else:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValueError(f"{name}.{key} must be a whole number")
                values[key] = value
        table[name] = replace(table[name], **values)
    return table


def _points(value: Any, where: str) -> Fraction | None:
    if isinstance(value, str) and value.strip().lower() == "prohibited":
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f'{where} must be movement points or "prohibited"')
    points = Fraction(value).limit_denominator(4)
    if not 0 < points <= 10:
        raise ValueError(f"{where} must be more than 0 and at most 10 movement points")
    return points


def entry_cost(
    terrain: Terrain,
    mechanized: bool,
    *,
    hexside: str = "",
    along_loc: bool = False,
    loc_crosses_hexside: bool = False,
) -> Fraction | None:
    """Movement points to enter a hex of ``terrain`` across ``hexside`` ("" for none); None if
    the unit may not.  Along a line of communication the hex costs `LOC_COST`, and a river it
    crosses costs nothing more; prohibited terrain stays prohibited (our reading: a road does
    not carry tanks over a glacier)."""
    base = terrain.cost(mechanized)
    if base is None:
        return None
    cost = LOC_COST if along_loc else base
    if hexside and not (along_loc and loc_crosses_hexside):
        cost += HEXSIDES[hexside][0]
    return cost


__all__ = ["HEXSIDES", "LOC_COST", "TERRAIN", "Terrain", "entry_cost", "with_overrides"]
