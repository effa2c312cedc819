"""A report's title, creator, producer and language appended to cairo's PDF as an incremental
update (`refassist.typeset.pdfinfo`), read back by pypdf, PDFium and poppler, with cairo's
outline and named destination kept."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import cairocffi
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from pypdf import PdfReader

from refassist.typeset.pdfinfo import NotCairos, page_count, with_info

TITLE = "Millenium — tour 3 (α) \\ ) ( <end>"


def _cairo_pdf() -> bytes:
    """Two pages as a report's are written: an outline item and a named destination."""
    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, 595, 842)
    context = cairocffi.Context(surface)
    context.show_page()
    context.tag_begin(cairocffi.TAG_DEST, "name='map' x=0 y=0")
    context.tag_end(cairocffi.TAG_DEST)
    context.rectangle(10, 10, 50, 50)
    context.fill()
    context.show_page()
    surface.add_outline(cairocffi.PDF_OUTLINE_ROOT, "The map", "page=2 pos=[28 36]", 0)
    surface.finish()
    return out.getvalue()


def test_the_information_and_language_are_read_by_every_reader(tmp_path: Path) -> None:
    before = _cairo_pdf()
    info = {"Title": TITLE, "Creator": "refassist 1.0", "Producer": "refassist (Pango, cairo)"}
    after = with_info(before, info, "fr")
    assert after.startswith(before)  # nothing cairo wrote moved
    reader = PdfReader(io.BytesIO(after), strict=True)
    assert reader.metadata is not None
    assert reader.metadata.title == TITLE
    assert reader.metadata.creator == "refassist 1.0"
    assert reader.metadata.producer == "refassist (Pango, cairo)"
    assert reader.metadata.get("/CreationDate", "").startswith("D:")  # cairo's, kept
    assert reader.trailer["/Root"]["/Lang"] == "fr"
    assert len(reader.pages) == 2
    assert [(item.title, reader.get_destination_page_number(item)) for item in reader.outline] == [
        ("The map", 1)
    ]
    assert list(reader.named_destinations) == ["map"]
    path = tmp_path / "report.pdf"
    path.write_bytes(after)
    document = pdfium.PdfDocument(str(path))
    try:
        assert document.get_metadata_dict()["Title"] == TITLE
        found = pdfium_raw.FPDF_GetNamedDestByName(document.raw, b"map")
        assert pdfium_raw.FPDFDest_GetDestPageIndex(document.raw, found) == 1
    finally:
        document.close()
    if shutil.which("pdfinfo"):  # poppler, as installed by scripts/test
        shown = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
        assert "refassist (Pango, cairo)" in shown.stdout


def test_without_a_language_the_catalog_keeps_cairos_entries() -> None:
    after = with_info(_cairo_pdf(), {"Title": "T"}, None)
    root = PdfReader(io.BytesIO(after), strict=True).trailer["/Root"]
    assert "/Lang" not in root
    assert "/Outlines" in root and "/Pages" in root


@pytest.mark.parametrize(
    "pdf", [b"", b"%PDF-1.4\nnot a pdf", _cairo_pdf()[:-40]], ids=["empty", "junk", "cut"]
)
def test_a_file_that_does_not_end_as_cairos_is_refused(pdf: bytes) -> None:
    with pytest.raises(NotCairos):
        with_info(pdf, {"Title": "T"}, "en")


def test_the_pages_are_counted_as_pypdf_counts_them() -> None:
    before = _cairo_pdf()
    after = with_info(before, {"Title": "T"}, "en")
    assert page_count(before) == page_count(after) == len(PdfReader(io.BytesIO(after)).pages) == 2


@pytest.mark.parametrize("pdf", [b"", b"%PDF-1.4\nnot a pdf"], ids=["empty", "junk"])
def test_pages_of_a_file_not_cairos_are_not_counted(pdf: bytes) -> None:
    with pytest.raises(NotCairos):
        page_count(pdf)
