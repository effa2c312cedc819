"""A terrain hex board with its pieces, as plain data: the map of an operational wargame.

Some games are played on a small board of terrain hexes (plain, forest, mountain) with rivers
and borders along hexsides, roads through hex centres, towns and cities, and counters for units.
A ruleset that plays on such a board builds a `HexBoard` for each reader (which enemy units a
reader sees is on it, so it is per reader) and hands it to the report engine in
`ReportContent.board`; `boarddraw` draws it as SVG.  The model names no game: terrains, sides
and counters are described by the ruleset, in its own words, and drawn the same way for all.

Hex ids are ``XXYY`` (column, row from 1) on the Traveller layout the engine uses everywhere
(`refassist.geometry.hexmap`): flat-topped hexes, even columns half a hex lower.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Unit type symbols the drawing knows (NATO-style): what goes in the counter's symbol box.
SYMBOLS = (
    "infantry",
    "armour",
    "mechanized",
    "cavalry",
    "airborne",
    "air assault",
    "marine",
    "special forces",
    "headquarters",
    "information",
    "political",
    "naval",
    "militia",
)


@dataclass(frozen=True)
class BoardTerrain:
    """A kind of terrain: its key (as `HexBoard.terrain` gives it), its name in the legend,
    its fill colour, and a short mark printed in each of its hexes (empty: none), so that the
    terrain reads in black-and-white print too."""

    key: str
    label: str
    fill: str
    mark: str = ""


@dataclass(frozen=True)
class BoardSide:
    """A side with pieces on the board; ``style`` picks its colours from the engine's owner
    styles (the same as on every other map refassist draws)."""

    name: str
    tag: str
    style: int


@dataclass(frozen=True)
class BoardPlace:
    """A named place in a hex: ``kind`` is ``city``, ``town`` or anything else (a facility);
    ``points`` its worth as an objective (0: not one)."""

    hex: str
    name: str
    kind: str
    points: int = 0


@dataclass(frozen=True)
class BoardEdge:
    """Something along the hexside between two adjacent hexes: ``river`` or ``border``."""

    a: str
    b: str
    kind: str


@dataclass(frozen=True)
class BoardCounter:
    """A unit's counter: its side, its type symbol (one of `SYMBOLS`, else printed as text),
    the size mark over the box (``XX``), the strength line under it (``6-6-6``) and its id.
    ``disrupted`` counters are drawn struck through, ``spent`` ones (they have acted this turn)
    with a corner mark."""

    hex: str
    side: str
    symbol: str
    size: str
    strength: str
    label: str
    disrupted: bool = False
    spent: bool = False


@dataclass(frozen=True)
class HexBoard:
    """The whole board as one reader sees it."""

    title: str
    cols: int
    rows: int
    terrains: tuple[BoardTerrain, ...]
    #: hex -> terrain key, for every hex that is not the first terrain (the default).
    terrain: dict[str, str] = field(default_factory=dict)
    sides: tuple[BoardSide, ...] = ()
    places: tuple[BoardPlace, ...] = ()
    edges: tuple[BoardEdge, ...] = ()
    #: Roads (lines of communication): each a path of hex ids, drawn centre to centre.
    roads: tuple[tuple[str, ...], ...] = ()
    counters: tuple[BoardCounter, ...] = ()
    #: Hexes fought over since the reader's last report, marked on the board.
    battles: tuple[str, ...] = ()
    #: Zones of control: hex -> the sides whose zone covers it (as the ruleset reckons it
    #: from the counters this reader sees), each drawn as a band of its colour in the hex.
    zones: dict[str, tuple[str, ...]] = field(default_factory=dict)
    subtitle: str = ""
    #: Notes printed under the legend (what the reader cannot see, and so on).
    notes: tuple[str, ...] = ()

    def side(self, name: str) -> BoardSide | None:
        return next((s for s in self.sides if s.name == name), None)


__all__ = [
    "SYMBOLS",
    "BoardCounter",
    "BoardEdge",
    "BoardPlace",
    "BoardSide",
    "BoardTerrain",
    "HexBoard",
]
