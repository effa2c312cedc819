"""Stamps painted on a cairo PDF by appending to the file: no PDF library reads or writes it.

Why: stamping with pypdf (`refassist.typeset.stamp.stamp_pdf`) parses every object of the
report into Python objects and writes them all out again; for a player's report of the
12-player benchmark turn that was 0.06-0.1 s of 0.4 s, though the report's own pages are
about a tenth of its bytes (the rest is the map drawings stamped in).  Every PDF that
`refassist.typeset.flowdoc` stamps (the report's pages, the maps' layers, the shared base
maps, the running heads) is written by cairo, whose files are plain: a classic
cross-reference table, each object at its own offset, each page with one content stream and
its own resources object.  So the stamps go in as an incremental update (PDF 1.7, section
7.5.6, as `refassist.typeset.pdfinfo` adds the title): each source page's content stream is
copied byte for byte as a form XObject, with the objects its resources name (fonts, their
widths, graphics states) copied once each and renumbered; each stamped page gets a new
version that paints its old content, then its forms in order, and a new resources object
that adds the forms to its old resources.  Nothing already in the file moves.

Anything not shaped as cairo writes it raises `NotCairos`, and the caller stamps with pypdf.
References are found in the objects' dictionaries, never in stream data; the only strings
in cairo's dictionaries are font family names, so two numbers followed by ``R`` are a
reference.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from refassist.typeset.pdfinfo import NotCairos, trailer_numbers

if TYPE_CHECKING:
    from pypdf import PdfReader

_XREF = re.compile(rb"xref\s+0\s+(\d+)\s*\n")
_XREF_ROW = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_HEADER = re.compile(rb"(\d+)\s+0\s+obj\b")
#: A reference in a dictionary: object number, generation 0, ``R`` as a word of its own.
_REFERENCE = re.compile(rb"(?<![\w.+-])(\d+)\s+0\s+R(?![\w.])")
_LENGTH = re.compile(rb"/Length\s+(?:(\d+)\s+0\s+R|(\d+))(?![\d.])")
_PAGE_CONTENTS = re.compile(rb"/Contents\s+(\d+)\s+0\s+R")
_PAGE_RESOURCES = re.compile(rb"/Resources\s+(\d+)\s+0\s+R")
_MEDIA_BOX = re.compile(rb"/MediaBox\s*\[([^\]]*)\]")
_KIDS = re.compile(rb"/Kids\s*\[([^\]]*)\]")
_XOBJECTS = re.compile(rb"/XObject\s*<<")


@dataclass(frozen=True)
class _Object:
    """One object as cairo wrote it: its dictionary (or other value) and, for a stream,
    its data still encoded."""

    head: bytes
    data: bytes | None


@dataclass
class CairoFile:
    """A PDF cairo wrote, read as far as stamping needs: where each object starts, the
    trailer's entries, the pages in order."""

    pdf: bytes
    _cache: dict[int, _Object] = field(default_factory=dict, repr=False)

    @cached_property
    def _trailer(self) -> tuple[dict[str, int], int]:
        return trailer_numbers(self.pdf)

    @property
    def size(self) -> int:
        return self._trailer[0]["size"]

    @property
    def root(self) -> int:
        return self._trailer[0]["root"]

    @property
    def info(self) -> int:
        return self._trailer[0]["info"]

    @property
    def startxref(self) -> int:
        return self._trailer[1]

    @cached_property
    def _offsets(self) -> dict[int, tuple[int, int]]:
        """Each object's start and end (where the next object or the table starts)."""
        table = _XREF.match(self.pdf, self.startxref)
        if table is None:
            raise NotCairos("the cross-reference table is not one classic section")
        count = int(table.group(1))
        rows = _XREF_ROW.findall(self.pdf, table.end(), table.end() + 20 * count + 1)
        if len(rows) != count:
            raise NotCairos("the cross-reference table has fewer rows than it says")
        starts = {n: int(o) for n, (o, _, kind) in enumerate(rows) if kind == b"n"}
        ordered = sorted(starts.items(), key=lambda item: item[1])
        ends = [start for _, start in ordered[1:]] + [self.startxref]
        return {n: (start, end) for (n, start), end in zip(ordered, ends, strict=True)}

    def object(self, number: int) -> _Object:
        """Object ``number`` (its only version: cairo writes each object once)."""
        found = self._cache.get(number)
        if found is not None:
            return found
        if number not in self._offsets:
            raise NotCairos(f"object {number} is not in the cross-reference table")
        start, end = self._offsets[number]
        header = _HEADER.match(self.pdf, start)
        if header is None or int(header.group(1)) != number:
            raise NotCairos(f"object {number} is not where the table says")
        body = self.pdf[header.end() : end]
        body = body[: body.rindex(b"endobj")] if b"endobj" in body else b""
        if not body:
            raise NotCairos(f"object {number} has no end")
        head, keyword, rest = body.partition(b"stream")
        if not keyword:
            found = _Object(body.strip(), None)
        else:
            length = _LENGTH.search(head)
            if length is None:
                raise NotCairos(f"stream {number} gives no length")
            given = length.group(2) or self.object(int(length.group(1))).head
            if not given.isdigit():
                raise NotCairos(f"stream {number}'s length is not a number")
            size = int(given)
            data_start = 1 if rest.startswith(b"\n") else 2 if rest.startswith(b"\r\n") else 0
            if not data_start or len(rest) < data_start + size:
                raise NotCairos(f"stream {number} is shorter than its length")
            found = _Object(head.strip(), rest[data_start : data_start + size])
        self._cache[number] = found
        return found

    @cached_property
    def pages(self) -> list[int]:
        """The page objects' numbers in order (cairo's page tree is one level deep)."""
        catalog = self.object(self.root).head
        tree = re.search(rb"/Pages\s+(\d+)\s+0\s+R", catalog)
        if tree is None:
            raise NotCairos("the catalog names no page tree")
        kids = _KIDS.search(self.object(int(tree.group(1))).head)
        if kids is None:
            raise NotCairos("the page tree has no kids")
        pages = [int(n) for n in _REFERENCE.findall(kids.group(1))]
        for number in pages:
            if b"/Type /Page" not in self.object(number).head.replace(b"/Pages", b""):
                raise NotCairos("the page tree is more than one level deep")
        return pages

    def page(self, index: int) -> bytes:
        return self.object(self.pages[index]).head

    def height(self, index: int) -> float:
        return self.media_box(index)[3]

    def media_box(self, index: int) -> tuple[float, float, float, float]:
        box = _MEDIA_BOX.search(self.page(index))
        if box is None:
            raise NotCairos(f"page {index + 1} has no media box of its own")
        try:
            x1, y1, x2, y2 = (float(v) for v in box.group(1).split())
        except ValueError:
            raise NotCairos(f"page {index + 1}'s media box is not four numbers") from None
        return x1, y1, x2, y2


class PdfPages:
    """A PDF whose pages are stamped on a report's: its bytes, read as a cairo file here or
    by pypdf (`refassist.typeset.stamp`), each only when asked for and once."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    @cached_property
    def cairo(self) -> CairoFile:
        return CairoFile(self.data)

    @cached_property
    def reader(self) -> PdfReader:
        # pypdf only where it stamps: importing it takes a tenth of a second.
        from pypdf import PdfReader

        return PdfReader(io.BytesIO(self.data))


@dataclass(frozen=True)
class Stamp:
    """Paint page ``source_page`` of ``source`` on report page ``page`` at (x, y) (points from
    the top-left corner); stamps on one page are painted in list order."""

    page: int
    source: PdfPages
    source_page: int
    x: float
    y: float


def _with_length(head: bytes, length: int) -> bytes:
    """A stream's dictionary with its length given as a number (cairo refers to an object
    written after the stream, which would otherwise be copied too)."""
    if _LENGTH.search(head):
        return _LENGTH.sub(b"/Length %d" % length, head, count=1)
    return head[: head.rindex(b">>")] + b" /Length %d >>" % length


class _Update:
    """The objects an incremental update adds or replaces, numbered from the file's size."""

    def __init__(self, target: CairoFile) -> None:
        self.target = target
        self.next = target.size
        self.written: dict[int, bytes] = {}
        self._copies: dict[tuple[int, int], int] = {}

    def new(self, body: bytes, data: bytes | None = None) -> int:
        number = self.next
        self.next += 1
        self.put(number, body, data)
        return number

    def put(self, number: int, body: bytes, data: bytes | None = None) -> None:
        if data is None:
            self.written[number] = b"%d 0 obj\n%s\nendobj\n" % (number, body)
            return
        body = _with_length(body, len(data))
        self.written[number] = b"%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n" % (
            number,
            body,
            data,
        )

    def copy(self, source: CairoFile, number: int) -> int:
        """Object ``number`` of ``source`` and all it refers to, in this file (once)."""
        key = (id(source), number)
        if key in self._copies:
            return self._copies[key]
        mine = self.next
        self.next += 1
        self._copies[key] = mine
        found = source.object(number)
        head = found.head if found.data is None else _with_length(found.head, len(found.data))
        self.put(mine, self.renumbered(source, head), found.data)
        return mine

    def renumbered(self, source: CairoFile, text: bytes) -> bytes:
        return _REFERENCE.sub(lambda m: b"%d 0 R" % self.copy(source, int(m.group(1))), text)

    def form(self, stamp: Stamp) -> int:
        """The stamp's source page as a form XObject: its content stream's data as cairo
        wrote it, with a copy of the page's resources."""
        source, index = stamp.source.cairo, stamp.source_page
        page = source.page(index)
        contents = _PAGE_CONTENTS.search(page)
        resources = _PAGE_RESOURCES.search(page)
        if contents is None or resources is None:
            raise NotCairos(f"source page {index + 1} is not one stream with its resources")
        stream = source.object(int(contents.group(1)))
        if stream.data is None:
            raise NotCairos(f"source page {index + 1}'s contents are not a stream")
        filters = re.search(rb"/Filter\s*/\w+", stream.head)
        box = b" ".join(b"%.6f" % v for v in source.media_box(index))
        head = b"<< /Type /XObject /Subtype /Form /BBox [ %s ] /Resources %d 0 R%s >>" % (
            box,
            self.copy(source, int(resources.group(1))),
            b" " + filters.group(0) if filters else b"",
        )
        return self.new(head, stream.data)

    def appended(self) -> bytes:
        """The update: the objects, a cross-reference section of runs of numbers, the
        trailer pointing back to the file's own."""
        target = self.target
        out = bytearray(b"\n")
        offsets: dict[int, int] = {}
        for number in sorted(self.written):
            offsets[number] = len(target.pdf) + len(out)
            out += self.written[number]
        xref = len(target.pdf) + len(out)
        # The free head of the list first: pypdf takes a section that does not start at
        # object 0 for a table numbered from 1 and "corrects" its numbers.
        out += b"xref\n0 1\n0000000000 65535 f \n"
        numbers = sorted(offsets)
        run_start = 0
        for i in range(1, len(numbers) + 1):
            if i == len(numbers) or numbers[i] != numbers[i - 1] + 1:
                run = numbers[run_start:i]
                out += b"%d %d\n" % (run[0], len(run))
                out += b"".join(b"%010d 00000 n \n" % offsets[n] for n in run)
                run_start = i
        out += b"trailer\n<< /Size %d\n   /Root %d 0 R\n   /Info %d 0 R\n   /Prev %d\n>>\n" % (
            max(self.next, target.size),
            target.root,
            target.info,
            target.startxref,
        )
        out += b"startxref\n%d\n%%%%EOF\n" % xref
        return target.pdf + bytes(out)


def append_stamps(pdf: bytes, stamps: Sequence[Stamp]) -> bytes:
    """``pdf`` (as cairo wrote it) with every stamp painted on its page, appended to it.
    Raises `NotCairos` when it or a stamp's source is not shaped as cairo writes."""
    document = CairoFile(pdf)
    update = _Update(document)
    by_page: dict[int, list[Stamp]] = {}
    for s in stamps:
        by_page.setdefault(s.page, []).append(s)
    save = update.new(b"<< >>", b"q")
    for index, page_stamps in sorted(by_page.items()):
        number = document.pages[index]
        page = document.page(index)
        contents = _PAGE_CONTENTS.search(page)
        resources = _PAGE_RESOURCES.search(page)
        if contents is None or resources is None:
            raise NotCairos(f"page {index + 1} is not one stream with its resources")
        height = document.height(index)
        names = []
        ops = [b"Q"]
        for n, s in enumerate(page_stamps):
            name = b"/RAmap%dx%d" % (index, n)
            names.append(b"%s %d 0 R" % (name, update.form(s)))
            top = s.source.cairo.height(s.source_page)
            ops.append(b"q 1 0 0 1 %.3f %.3f cm %s Do Q" % (s.x, height - s.y - top, name))
        own = document.object(int(resources.group(1))).head
        listed = b"\n      ".join(names)
        found = _XOBJECTS.search(own)
        if found:
            own = own[: found.end()] + b"\n      " + listed + own[found.end() :]
        else:
            own = own[: own.rindex(b">>")] + b"   /XObject <<\n      " + listed + b"\n   >>\n>>"
        painted = update.new(b"<< >>", b"\n".join(ops))
        drawn = b"/Contents [ %d 0 R %s 0 R %d 0 R ]" % (save, contents.group(1), painted)
        page = _PAGE_CONTENTS.sub(drawn, page, count=1)
        page = _PAGE_RESOURCES.sub(b"/Resources %d 0 R" % update.new(own), page, count=1)
        update.put(number, page)
    return update.appended()


__all__ = ["CairoFile", "NotCairos", "PdfPages", "Stamp", "append_stamps"]
