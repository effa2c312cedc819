"""A turn's map page, from the referee's report, as a PNG for the archive site.

The referee's PDF already holds the turn's map drawn for print, whatever the game draws (a
sector with subsectors, a network of systems, a board of hexes): its first map page carries
the PDF anchor ``map`` (`refassist.rulesets.base.MAP_ANCHOR`), which is found by name, so no
page number is guessed.  pypdfium2 (PDFium, the PDF engine of Chromium) finds the page and
rasterises it (about half a second for a sector map).  The image is made again only when the
PDF is newer than it.
"""

from __future__ import annotations

import io
from pathlib import Path

from ..atomic import write_bytes
from ..rulesets.base import MAP_ANCHOR

#: Pixels per inch of the image: an A4 page 1,075 pixels wide, a sector's names legible on
#: a screen.
DPI = 130


def write_map_image(pdf: Path, png: Path) -> bool:
    """Write ``png`` from the map page of ``pdf`` (unless it is already newer than the PDF);
    False when the report has no map page or is not a readable PDF."""
    if png.is_file() and pdf.is_file() and png.stat().st_mtime >= pdf.stat().st_mtime:
        return True
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_raw
    from PIL import Image

    try:
        document = pdfium.PdfDocument(str(pdf))
    except pdfium.PdfiumError:
        return False
    try:
        # PDFium looks the anchor up in the document's name tree: no page is parsed for it.
        found = pdfium_raw.FPDF_GetNamedDestByName(document.raw, MAP_ANCHOR.encode())
        index = pdfium_raw.FPDFDest_GetDestPageIndex(document.raw, found) if found else -1
        if index < 0:
            return False
        image = document[index].render(scale=DPI / 72).to_pil().convert("RGB")
        # A palette of 256 colours (the maps use a few dozen): a quarter of the bytes.
        image = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
    finally:
        document.close()
    write_bytes(png, buffer.getvalue())
    return True
