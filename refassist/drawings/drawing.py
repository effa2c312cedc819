"""A tiny display list: the shapes and texts of a map, independent of how they are drawn.

Maps are built once as a list of primitives (`mapdraw`) and drawn by one of two backends:
`cairomap` (direct vector drawing with cairo, fast, used for real reports) and `svgmap` (inline
SVG inside the HTML, slow in WeasyPrint, used by the naive single-pass render the benchmark
compares against and for small legend swatches).  Keeping the shapes in one place means both
renders show exactly the same map, so the benchmark compares like with like.

Units are PDF points (1/72 inch), origin top left, y downwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Point = tuple[float, float]


@dataclass(frozen=True)
class Hatch:
    """A fill that stays readable in black and white: a background tint plus line hatching.

    ``kind`` is one of ``/``, ``\\``, ``-``, ``|``, ``x``, ``+``, ``.`` (dots) or ``o``
    (open rings); ``spacing`` is the distance between hatch lines in points.
    """

    kind: str
    color: str
    background: str
    spacing: float = 3.0
    width: float = 0.5


Paint = str | Hatch | None


@dataclass(frozen=True)
class Path:
    """Polygons and polylines drawn as one shape (one SVG element, one cairo fill/stroke).

    Drawing a thousand hexes as one path instead of a thousand elements is most of what makes
    a sector map cheap to draw and small to store.
    """

    subpaths: tuple[tuple[tuple[Point, ...], bool], ...]
    fill: Paint = None
    stroke: str | None = None
    width: float = 0.5
    dash: tuple[float, ...] = ()
    opacity: float = 1.0


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.5


@dataclass(frozen=True)
class Text:
    """One line of text; ``anchor`` is ``start``, ``middle`` or ``end``.

    ``box`` paints a white box behind it (a badge, for owner tags over hatching); ``halo``
    outlines the letters in white (for labels lying across lines, such as route years).
    """

    x: float
    y: float
    text: str
    size: float
    anchor: str = "middle"
    bold: bool = False
    italic: bool = False
    color: str = "#000000"
    box: bool = False
    halo: bool = False
    opacity: float = 1.0


Item = Path | Circle | Text


@dataclass
class Drawing:
    """A page-sized list of primitives, drawn in order (later items on top)."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)

    def add(self, item: Item) -> None:
        self.items.append(item)

    def extend(self, other: Drawing) -> None:
        self.items.extend(other.items)


#: Millimetres to PDF points (the page sizes are in mm, cairo and pypdf work in points).
MM_TO_PT = 72 / 25.4

#: Font used on maps: condensed, so names fit their hex; DejaVu is installed with the tool.
MAP_FONT = "DejaVu Sans Condensed"
MAP_FONT_CSS = "'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif"


def parse_color(color: str) -> tuple[float, float, float]:
    """``#rrggbb`` as three floats 0-1 (the only colour form the map code writes)."""
    c = color.lstrip("#")
    if len(c) != 6:
        raise ValueError(f"colour must be #rrggbb, not {color!r}")
    return int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255
