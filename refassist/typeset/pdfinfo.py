"""A PDF's document information and language, written after cairo has written the rest.

Why: cairo (1.16) draws a report's pages, outline and named destinations itself, but writes
its own name as the producer and has no way to give the document its language, which a
screen reader needs (WeasyPrint's reports carry both).  Having pypdf read the whole file and
write it again for those two entries took 0.03-0.05 s of a small game's report of 0.2 s.
Here they are appended as an incremental update (PDF 1.7, section 7.5.6, the way PDF files
are edited in place): new versions of the catalog and of the information dictionary after
the end of the file, a cross-reference section for those two objects and a trailer pointing
back to cairo's.  Nothing cairo wrote moves; every PDF reader reads the newest versions.
Texts are written as UTF-16 hex strings, so no character of a title needs escaping.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_TRAILER = re.compile(
    rb"trailer\s*<<(?P<entries>.*?)>>\s*startxref\s*(?P<xref>\d+)\s*%%EOF\s*\Z", re.S
)
_ENTRY = {
    "size": re.compile(rb"/Size\s+(\d+)"),
    "root": re.compile(rb"/Root\s+(\d+)\s+0\s+R"),
    "info": re.compile(rb"/Info\s+(\d+)\s+0\s+R"),
}


#: cairo's date of writing, kept (a date is digits, ``Z``, signs and apostrophes).
_CREATED = re.compile(rb"/CreationDate\s*\(D:[0-9Z+'\-]*\)")


class NotCairos(ValueError):
    """The bytes do not end as cairo's PDF files end (a trailer with its catalog and
    information dictionary, a classic cross-reference table)."""


def text(value: str) -> bytes:
    """A PDF text string for any text: UTF-16 with its byte order mark, in hex."""
    return b"<FEFF" + value.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def with_info(pdf: bytes, info: Mapping[str, str], language: str | None) -> bytes:
    """``pdf`` as cairo wrote it, with the information dictionary ``info`` (names without
    the slash: ``Title``, ``Creator``, ``Producer``) and cairo's date of writing, and the
    catalog's ``language`` (``/Lang``)."""
    numbers, previous = trailer_numbers(pdf)
    root, old_info = _object(pdf, numbers["root"]), _object(pdf, numbers["info"])
    entries = [b"/" + name.encode("ascii") + b" " + text(value) for name, value in info.items()]
    created = _CREATED.search(old_info)
    if created and "CreationDate" not in info:
        entries.insert(0, created.group(0))
    catalog = root[: root.rindex(b">>")].rstrip()
    if language:
        catalog += b"\n   /Lang " + text(language)
    update = bytearray(b"\n")
    offsets = {}
    for number, body in (
        (numbers["root"], catalog + b"\n>>"),
        (numbers["info"], b"<< " + b"\n   ".join(entries) + b"\n>>"),
    ):
        offsets[number] = len(pdf) + len(update)
        update += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(pdf) + len(update)
    # The free head of the list first: a section that starts elsewhere is taken by pypdf
    # for a table wrongly numbered from 1 (it warns, and "corrects" in its lenient mode).
    update += b"xref\n0 1\n0000000000 65535 f \n"
    for number in sorted(offsets):
        update += b"%d 1\n%010d 00000 n \n" % (number, offsets[number])
    update += b"trailer\n<< /Size %d\n   /Root %d 0 R\n   /Info %d 0 R\n   /Prev %d\n>>\n" % (
        numbers["size"],
        numbers["root"],
        numbers["info"],
        previous,
    )
    update += b"startxref\n%d\n%%%%EOF\n" % xref
    return pdf + bytes(update)


def trailer_numbers(pdf: bytes) -> tuple[dict[str, int], int]:
    """The last trailer's ``size``, ``root`` and ``info`` numbers, and where the
    cross-reference section it closes starts."""
    trailer = _TRAILER.search(pdf, max(0, len(pdf) - 4096))
    if trailer is None:
        raise NotCairos("no trailer at the end of the file")
    numbers = {}
    for key, pattern in _ENTRY.items():
        found = pattern.search(trailer.group("entries"))
        if found is None:
            raise NotCairos(f"the trailer names no /{key.title()}")
        numbers[key] = int(found.group(1))
    return numbers, int(trailer.group("xref"))


_PAGES = re.compile(rb"/Pages\s+(\d+)\s+0\s+R")
_COUNT = re.compile(rb"/Count\s+(\d+)")


def page_count(pdf: bytes) -> int:
    """How many pages a PDF cairo wrote has (appended to or not): the count of the page
    tree the newest catalog names.  A report worker counts its report's pages so; pypdf
    took 0.13-0.22 s to import and 15 ms a report to parse."""
    numbers, _ = trailer_numbers(pdf)
    tree = _PAGES.search(_object(pdf, numbers["root"]))
    count = _COUNT.search(_object(pdf, int(tree.group(1)))) if tree else None
    if count is None:
        raise NotCairos("the catalog names no page tree with a count")
    return int(count.group(1))


def _object(pdf: bytes, number: int) -> bytes:
    """The text of object ``number`` between ``obj`` and ``endobj`` (its last version)."""
    start = pdf.rfind(b"\n%d 0 obj" % number)
    end = pdf.find(b"endobj", start)
    if start < 0 or end < 0:
        raise NotCairos(f"object {number} is not in the file")
    return pdf[pdf.index(b"obj", start + 1) + 3 : end].strip()


__all__ = ["NotCairos", "page_count", "text", "trailer_numbers", "with_info"]
