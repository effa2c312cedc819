"""Small boards set up by hand for the rule tests: a 6 x 6 map of plain unless told, Blue and
Red units.  Around 0203 (an even column, half a hex lower) lie 0202, 0204, 0103, 0104, 0303
and 0304."""

from __future__ import annotations

from typing import Any

from refassist.geometry.hexmap import HexGrid
from refassist.rulesets.millennium_wars.board import Board
from refassist.rulesets.millennium_wars.terrain import TERRAIN
from refassist.rulesets.millennium_wars.units import Unit


def board(
    *units: Unit,
    terrain: dict[str, str] | None = None,
    places: dict[str, str] | None = None,
    rivers: set[tuple[str, str]] | None = None,
    locs: list[list[str]] | None = None,
) -> Board:
    grid = HexGrid(6, 6)
    ground = {h: "plain" for h in grid.hexes()} | (terrain or {})
    return Board(
        grid, ground, dict(TERRAIN), places or {}, rivers or set(), locs or [], list(units)
    )


def blue(uid: str, hex_: str, strength: int = 6, kind: str = "armor", **kw: Any) -> Unit:
    kw.setdefault("speed", 6)
    return Unit(uid, "Blue", kind, attack=strength, defence=strength, hex=hex_, **kw)


def red(
    uid: str, hex_: str, strength: int = 3, kind: str = "mechanized infantry", **kw: Any
) -> Unit:
    kw.setdefault("speed", 5)
    return Unit(uid, "Red", kind, attack=strength, defence=strength, hex=hex_, **kw)
