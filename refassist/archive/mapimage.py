"""A turn's map page, from the referee's report, as a PNG for the archive site.

The referee's PDF already holds the turn's map drawn for print, whatever the game draws (a
sector with subsectors, a network of systems, a board of hexes): its first map page carries
the PDF anchor ``map`` (`refassist.rulesets.base.MAP_ANCHOR`), which is found by name, so no
page number is guessed.  pypdfium2 (PDFium, the PDF engine of Chromium) finds the page and
rasterises it (about a quarter of a second for a sector map).  An image is made again only
when its PDF is newer than it.

The images are made in a short process of their own, one for all the images a run needs:
PDFium holds the whole parsed page, about 30 MB for a sector, and in the report run's own
process that would raise its peak memory (docs/benchmarks.md) for a picture the reports do not
need.  Where processes fork (Linux), the child is a fork of the run, which costs a few
milliseconds; elsewhere a new interpreter (``python -m refassist.archive.mapimage PDF PNG
...``), which costs a quarter of a second to start: a third of a small game's report stage.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..atomic import write_bytes
from ..processes import child_process
from ..rulesets.base import MAP_ANCHOR

#: Pixels per inch of the image: an A4 page 1,075 pixels wide, a sector's names legible on
#: a screen.
DPI = 130


def fresh(pdf: Path, png: Path) -> bool:
    """Whether ``png`` was made from this ``pdf`` already (it is newer)."""
    return png.is_file() and pdf.is_file() and png.stat().st_mtime >= pdf.stat().st_mtime


class ImageChild:
    """Images being made in a child process, started before they are needed; `wait` before
    reading them.  ``held``: the child starts at once and loads PDFium while the reports are
    written, then waits for `release` (the referee's report written) to make the images, so
    only the picture itself is left when the reports are done.  The child is forked from the
    run, not from a report worker: a worker that has written reports and then loads PDFium
    raised the report run's peak memory by 25 MB (docs/benchmarks.md)."""

    def __init__(self, pairs: Sequence[tuple[Path, Path]], *, held: bool = False) -> None:
        self._args = [str(path) for pair in pairs for path in pair]
        self._child: Any = None
        self._go: Any = None
        if not self._args:
            return
        if "fork" in multiprocessing.get_all_start_methods():
            context = multiprocessing.get_context("fork")
            self._go = context.Event() if held else None
            self._child = child_process(_quietly, self._args, self._go, context=context)
            self._child.start()
        elif not held:
            self.release()

    def release(self) -> None:
        """The PDFs are written: make the images (a held child waits for this)."""
        if self._go is not None:
            self._go.set()
        elif self._child is None and self._args:
            self._child = subprocess.Popen(
                [sys.executable, "-m", __name__, *self._args],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )

    def cancel(self) -> None:
        """No images after all (the reports failed): a held child is ended unheard."""
        child, self._child = self._child, None
        if isinstance(child, subprocess.Popen):
            child.kill()
            child.wait()
        elif child is not None:
            child.kill()
            child.join()

    def wait(self) -> None:
        """Wait for the images (ten minutes at most; a child that hangs is killed and its
        images are missing, which the site says); a held child not yet released is released
        first."""
        self.release()
        child, self._child = self._child, None
        if child is None:
            return
        if isinstance(child, subprocess.Popen):
            try:
                child.wait(timeout=600)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
            return
        child.join(timeout=600)
        if child.is_alive():
            child.kill()
            child.join()


def write_map_images(
    pairs: Sequence[tuple[Path, Path]], started: ImageChild | None = None
) -> set[Path]:
    """Make each (pdf, png) image that is not fresh, in one child process, once the images
    ``started`` earlier are made; the images that exist afterwards (a report without a map
    page, or one PDFium cannot read, has none)."""
    if started is not None:
        started.wait()
    # A child that fails (a damaged PDF) leaves its images missing; the site says so.
    ImageChild([(pdf, png) for pdf, png in pairs if not fresh(pdf, png)]).wait()
    return {png for _, png in pairs if png.is_file()}


def rasterise(pdf: Path, png: Path) -> bool:
    """Write ``png`` from the map page of ``pdf``, in this process; False when the report has
    no map page or is not a readable PDF."""
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


def _quietly(argv: Sequence[str], go: Any = None) -> None:
    """The forked child: its images (once ``go`` is set, PDFium loaded meanwhile), and no
    traceback on the referee's terminal when one fails unexpectedly (the image is missing,
    and the site says so)."""
    try:
        if go is not None:
            import pypdfium2  # noqa: F401  (loaded while the reports are being written)
            from PIL import Image  # noqa: F401

            if not go.wait(timeout=600):
                os._exit(1)
        main(argv)
    except Exception:
        os._exit(1)


def main(argv: Sequence[str]) -> int:
    """``PDF PNG [PDF PNG ...]``: each image made; 0 when every one was."""
    made = [rasterise(Path(pdf), Path(png)) for pdf, png in zip(argv[::2], argv[1::2], strict=True)]
    return 0 if all(made) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
