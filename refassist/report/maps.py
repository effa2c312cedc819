"""Map pages of one report: which pages, their legend, and their drawings for either render.

The fast render draws every map with cairo and stamps it into the laid-out report: the shared
base layer once per turn (and per box size), cached on disk so later turns and other worker
processes reuse it, and each reader's two small layers per page.  The naive render puts the
same drawings into the HTML as inline SVG, for the benchmark to compare against.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import write_bytes
from ..drawings import cairomap, drawing, mapdraw, svgmap
from ..drawings.drawing import MM_TO_PT, Drawing
from ..drawings.mapmodel import MapOverlay, MapOwner, SectorMap
from ..typeset.pdfappend import PdfPages, Stamp

#: Declared map box sizes in millimetres (the templates use them; the fast render measures
#: the laid-out box and follows it if a game's template override changes it).
SECTOR_BOX_MM = (190.0, 254.0)
SUBSECTOR_BOX_MM = (190.0, 254.0)


def _code_digest() -> str:
    """A digest of the drawing code: cached base maps are redrawn whenever it changes."""
    digest = hashlib.sha256()
    for module in (mapdraw, cairomap, drawing):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:12]


DRAWING_VERSION = _code_digest()


def _digest(*values: object) -> str:
    """The SHA-256 of frozen map data, from its ``repr``: the same for equal data whatever
    objects it shares (pickle writes a string met twice once, so a state read from the
    workbook and the same state kept (`statestore`) pickled differently and missed the
    cache); the map's dataclasses hold tuples, dicts, strings and numbers, whose ``repr`` is
    fixed."""
    return hashlib.sha256(repr(values).encode("utf-8")).hexdigest()


def page_key(letter: str | None) -> str:
    return "sector" if letter is None else f"subsector-{letter}"


def map_pages(public: SectorMap, overlay: MapOverlay) -> list[dict[str, Any]]:
    """The map pages of a report: the sector, then each subsector the reader sees."""
    pages = [
        {
            "key": "sector",
            "title": f"Sector map: {public.title}",
            "width_mm": SECTOR_BOX_MM[0],
            "height_mm": SECTOR_BOX_MM[1],
            "svg": None,
        }
    ]
    for letter in overlay.subsectors:
        pages.append(
            {
                "key": page_key(letter),
                "title": f"Subsector {letter}: {public.subsector_name(letter)}",
                "width_mm": SUBSECTOR_BOX_MM[0],
                "height_mm": SUBSECTOR_BOX_MM[1],
                "svg": None,
            }
        )
    return pages


def reader_layers(
    public: SectorMap, overlay: MapOverlay, key: str, width: float, height: float
) -> tuple[Drawing, Drawing]:
    """The reader's two layers of a map page (under and over the shared base)."""
    frame = _layout(public, overlay, key, width, height).frame
    return mapdraw.draw_under(public, overlay, frame), mapdraw.draw_over(public, overlay, frame)


def _layout(
    public: SectorMap, overlay: MapOverlay, key: str, width: float, height: float
) -> mapdraw.PageLayout:
    return mapdraw.page_layout(public, key, overlay.owners, width, height)


def inline_svgs(public: SectorMap, overlay: MapOverlay, pages: list[dict[str, Any]]) -> None:
    """The naive render: each page's full map (under + base + over) as inline SVG."""
    for i, page in enumerate(pages):
        width, height = page["width_mm"] * MM_TO_PT, page["height_mm"] * MM_TO_PT
        frame = _layout(public, overlay, page["key"], width, height).frame
        full = Drawing(width, height)
        full.extend(mapdraw.draw_under(public, overlay, frame))
        full.extend(mapdraw.draw_base_page(public, page["key"], overlay.owners, width, height))
        full.extend(mapdraw.draw_over(public, overlay, frame))
        page["svg"] = svgmap.to_svg(full, prefix=f"p{i}", css_size=False)


@dataclass
class BaseMaps:
    """The shared base layer of every map page, drawn once and reused (memory, then disk)."""

    public: SectorMap
    cache_dir: Path | None = None

    def __post_init__(self) -> None:
        self._memory: dict[tuple[str, int, int, str], PdfPages] = {}
        self._digest = _digest(DRAWING_VERSION, self.public)[:16]

    def get(self, key: str, width: float, height: float, owners: tuple[MapOwner, ...]) -> PdfPages:
        """The base page for a map box (drawn on first use, then from memory or disk)."""
        legend_digest = _digest(owners)[:8]
        size = (key, round(width * 10), round(height * 10), legend_digest)
        pages = self._memory.get(size)
        if pages is not None:
            return pages
        path = None
        if self.cache_dir is not None:
            name = f"base-{self._digest}-{legend_digest}-{key}-{size[1]}x{size[2]}.pdf"
            path = self.cache_dir / name
            if path.is_file():
                pages = PdfPages(path.read_bytes())
        if pages is None:
            drawing = mapdraw.draw_base_page(self.public, key, owners, width, height)
            data = cairomap.drawings_to_pdf([drawing])
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_bytes(path, data)
            pages = PdfPages(data)
        self._memory[size] = pages
        return pages


def map_stamps(
    public: SectorMap, overlay: MapOverlay, boxes: list[Any], base: BaseMaps
) -> list[Stamp]:
    """Stamps for the laid-out map boxes: reader's under layer, shared base, reader's over."""
    drawings: list[Drawing] = []
    for box in boxes:
        under, over = reader_layers(public, overlay, box.key, box.width, box.height)
        drawings.extend([under, over])
    if not drawings:
        return []
    layers = PdfPages(cairomap.drawings_to_pdf(drawings))
    stamps = []
    for i, box in enumerate(boxes):
        stamps.append(Stamp(box.page, layers, 2 * i, box.x, box.y))
        shared = base.get(box.key, box.width, box.height, overlay.owners)
        stamps.append(Stamp(box.page, shared, 0, box.x, box.y))
        stamps.append(Stamp(box.page, layers, 2 * i + 1, box.x, box.y))
    return stamps
