"""Map drawings written to PDF with cairo: hatched territories drawn where they are, only.

An owner's hexes scattered over a sector make one path whose extents are the whole page;
hatching that whole rectangle under the clip wrote tens of thousands of rings into a page for
a few hexes.  The hatch now draws only the marks that can touch one of the path's pieces: these
tests check that the page looks exactly as the whole-rectangle hatching did, for every kind of
hatch, and that the page's drawing stays the size of what it shows.
"""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from refassist.drawings import cairomap
from refassist.drawings.drawing import Drawing, Hatch, Path

KINDS = ("/", "\\", "-", "|", "x", "+", ".", "o")


def _hex(cx: float, cy: float, r: float) -> tuple[tuple[tuple[float, float], ...], bool]:
    points = (
        (cx - r, cy),
        (cx - r / 2, cy - r * 0.87),
        (cx + r / 2, cy - r * 0.87),
        (cx + r, cy),
        (cx + r / 2, cy + r * 0.87),
        (cx - r / 2, cy + r * 0.87),
    )
    return points, True


def _scattered(kind: str) -> Drawing:
    """Three small hexes of one owner in three corners of an A4 page, as one hatched path."""
    d = Drawing(595.0, 842.0)
    pieces = (_hex(40.3, 51.7, 12.0), _hex(551.1, 60.2, 12.0), _hex(300.4, 790.9, 12.0))
    d.add(Path(pieces, fill=Hatch(kind, "#a3177a", "#f1c6e4", spacing=3.03, width=0.35)))
    return d


def _pixels(pdf: bytes) -> bytes:
    page = pdfium.PdfDocument(pdf)[0]
    return bytes(page.render(scale=300 / 72).to_pil().convert("RGB").tobytes())


def _whole_rectangle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hatch as before: one piece, the path's whole extents (every mark under the clip)."""
    own = cairomap._pieces

    def extents(item: Path) -> list[tuple[float, float, float, float]]:
        boxes = own(item)
        return [(min(b[0] for b in boxes), min(b[1] for b in boxes),
                 max(b[2] for b in boxes), max(b[3] for b in boxes))]  # fmt: skip

    monkeypatch.setattr(cairomap, "_pieces", extents)


@pytest.mark.parametrize("kind", KINDS)
def test_hatching_the_pieces_looks_like_hatching_the_whole_rectangle(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawing = _scattered(kind)
    pieces = cairomap.drawings_to_pdf([drawing])
    _whole_rectangle(monkeypatch)
    whole = cairomap.drawings_to_pdf([drawing])
    assert _pixels(pieces) == _pixels(whole)
    # ... with fewer marks written.
    assert len(pieces) < len(whole)


def _content(pdf: bytes) -> bytes:
    return PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data()  # type: ignore[union-attr]


def _moves(pdf: bytes) -> int:
    """Subpaths begun in the page's drawing (one a ring, one a hexagon)."""
    return len(re.findall(rb"(?<=\s)m(?=\s)", _content(pdf)))


def test_a_scattered_owner_writes_marks_for_its_hexes_not_the_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three hexes 24 pt across on a 3 pt lattice hold about 60 rings each.
    assert 3 * 30 <= _moves(cairomap.drawings_to_pdf([_scattered("o")])) <= 3 * 120
    _whole_rectangle(monkeypatch)
    assert _moves(cairomap.drawings_to_pdf([_scattered("o")])) > 20_000


def test_the_hatch_colour_is_inside_each_hex_and_nowhere_else() -> None:
    pdf = cairomap.drawings_to_pdf([_scattered("x")])
    image = pdfium.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("RGB")
    tint = (0xF1, 0xC6, 0xE4)

    def inked(x0: int, y0: int, x1: int, y1: int) -> bool:
        return any(
            image.getpixel((x, y)) != (255, 255, 255) for x in range(x0, x1) for y in range(y0, y1)
        )

    for cx, cy in ((40, 52), (551, 60), (300, 791)):
        near = {
            image.getpixel((x, y)) for x in range(cx - 6, cx + 6) for y in range(cy - 6, cy + 6)
        }
        assert tint in near and (255, 255, 255) not in near
    # Between the hexes the page is blank.
    assert not inked(100, 150, 500, 700)
