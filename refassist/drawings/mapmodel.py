"""What a report map shows, as plain data: the printed sector and one reader's knowledge of it.

The report engine draws maps without knowing the game: a ruleset describes its map with these
dataclasses (`Ruleset.report_map` for the public map, `ReportContent.overlay` for what one reader
knows) and `refassist.drawings.mapdraw` turns them into drawings.  The split follows the fog of
war: `SectorMap` is what every player may see (the printed Traveller map, identical for every
reader all game long, which is why it can be drawn once and shared), `MapOverlay` is what one
reader knows beyond it (owners, forces, routes, battles, what is out of sight).

Only the Traveller hex sector is described here; another map kind (square grid, zones) would
get its own model beside this one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Subsector letters of a 4 x 4 sector, left to right, top to bottom.
SUBSECTOR_LETTERS = "ABCDEFGHIJKLMNOP"


@dataclass(frozen=True)
class MapWorld:
    """A star system as printed on the public map.

    ``code`` is the letter printed in the hex (a resource class or starport); ``capitals``
    prints the name in capitals (Traveller's mark of a high-population world).
    """

    hex: str
    name: str
    code: str
    naval: bool = False
    scout: bool = False
    capitals: bool = False


@dataclass(frozen=True)
class SectorMap:
    """The printed sector map: grid size, subsector names and worlds."""

    title: str
    worlds: tuple[MapWorld, ...]
    subsector_names: dict[str, str] = field(default_factory=dict)
    cols: int = 32
    rows: int = 40
    subsector_cols: int = 8
    subsector_rows: int = 10

    def subsector_name(self, letter: str) -> str:
        return self.subsector_names.get(letter) or f"Subsector {letter}"

    def subsector_of(self, hex_: str) -> str:
        """The subsector letter of a hex id ``XXYY``."""
        col, row = int(hex_[:2]), int(hex_[2:])
        per_row = self.cols // self.subsector_cols
        index = ((row - 1) // self.subsector_rows) * per_row + (col - 1) // self.subsector_cols
        return SUBSECTOR_LETTERS[index]

    def subsector_bounds(self, letter: str) -> tuple[int, int, int, int]:
        """First column, first row, column count and row count of a subsector."""
        index = SUBSECTOR_LETTERS.index(letter)
        per_row = self.cols // self.subsector_cols
        col0 = (index % per_row) * self.subsector_cols + 1
        row0 = (index // per_row) * self.subsector_rows + 1
        return col0, row0, self.subsector_cols, self.subsector_rows

    @property
    def subsectors(self) -> str:
        count = (self.cols // self.subsector_cols) * (self.rows // self.subsector_rows)
        return SUBSECTOR_LETTERS[:count]


@dataclass(frozen=True)
class MapOwner:
    """A power shown on the map: its name, the short tag printed in its hexes, its style.

    ``style`` picks the colour and the hatching from a fixed list (`mapdraw.OWNER_STYLES`), so
    owners stay apart when printed in black and white.
    """

    name: str
    tag: str
    style: int


@dataclass(frozen=True)
class HexNote:
    """What one reader knows about one hex beyond the printed map.

    ``current`` is False for a system out of sight, whose details are as of ``seen_year``.
    ``code`` is set when the letter now differs from the printed one (a class drop);
    ``lines`` are short details for the large subsector pages (forces, facilities).
    """

    hex: str
    owner: str = ""
    current: bool = True
    seen_year: int = 0
    code: str = ""
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Route:
    """A journey drawn as an arrow from origin to destination, labelled (e.g. the arrival)."""

    origin: str
    destination: str
    label: str
    probe: bool = False


@dataclass(frozen=True)
class MapOverlay:
    """One reader's knowledge drawn over the printed map.

    ``shaded`` lists the hexes drawn greyed (out of sight); the referee's overlay shades
    nothing.  ``subsectors`` names the subsector pages this reader gets.
    """

    owners: tuple[MapOwner, ...] = ()
    notes: tuple[HexNote, ...] = ()
    shaded: frozenset[str] = frozenset()
    routes: tuple[Route, ...] = ()
    battles: tuple[str, ...] = ()
    marks: tuple[tuple[str, str], ...] = ()
    subsectors: tuple[str, ...] = ()

    def owner(self, name: str) -> MapOwner | None:
        for o in self.owners:
            if o.name == name:
                return o
        return None


def owner_tags(names: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Short, unique tags for owners' hexes: the first three letters, made unique with the
    first letters and a number when two names start alike (``Ann``, ``Anna`` -> ``Ann``,
    ``An2``)."""
    tags: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        compact = "".join(ch for ch in name if ch.isalnum()) or "P"
        tag = compact[:3]
        n = 2
        while tag.lower() in used:
            tag = f"{compact[:2]}{n}"
            n += 1
        used.add(tag.lower())
        tags[name] = tag
    return tags
