"""Placing map drawings (pages of a cairo PDF) onto the report's pages with pypdf.

Each drawing page becomes a PDF Form XObject that the target page paints at its map box.
pypdf's own ``merge_page`` parses and rewrites both content streams in Python, which for a
sector map (thousands of operators) costs more than drawing it; a form XObject keeps the
drawing's content stream as it is and adds four operators to the page, so stamping costs a
copy.  Text inside form XObjects stays extractable (pypdf and pdfminer follow ``Do``), which
the fog-of-war audit relies on.

A report cairo wrote whole is stamped by `refassist.typeset.pdfappend` instead, which appends
the stamps to the file without reading it into Python objects; this module stamps the others
(WeasyPrint's).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import cast

from pypdf import PageObject, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    EncodedStreamObject,
    FloatObject,
    IndirectObject,
    NameObject,
    StreamObject,
)

from refassist.typeset.pdfappend import Stamp


def _content_stream(page: PageObject) -> StreamObject:
    """The page's drawing as a stream for a form XObject.  A single Flate-compressed stream
    (what cairo writes) is reused as it is, without decompressing and compressing it again."""
    contents = page.get("/Contents")
    if contents is None:
        return DecodedStreamObject()
    contents = contents.get_object()
    if isinstance(contents, ArrayObject):
        joined = DecodedStreamObject()
        joined.set_data(b"\n".join(part.get_object().get_data() for part in contents))
        return joined.flate_encode()
    if isinstance(contents, EncodedStreamObject) and contents.get("/Filter") == "/FlateDecode":
        stream = EncodedStreamObject()
        stream._data = contents._data
        stream[NameObject("/Filter")] = NameObject("/FlateDecode")
        return stream
    plain = DecodedStreamObject()
    plain.set_data(contents.get_data())
    return plain.flate_encode()


def _as_xobject(writer: PdfWriter, page: PageObject) -> IndirectObject:
    form = _content_stream(page)
    box = page.mediabox
    form.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(
                [
                    FloatObject(box.left),
                    FloatObject(box.bottom),
                    FloatObject(box.right),
                    FloatObject(box.top),
                ]
            ),
        }
    )
    resources = page.get("/Resources")
    if resources is not None:
        form[NameObject("/Resources")] = resources.get_object().clone(writer)
    return writer._add_object(form)


def _stream(writer: PdfWriter, data: bytes) -> IndirectObject:
    stream = DecodedStreamObject()
    stream.set_data(data)
    return writer._add_object(stream)


def stamp_pdf(
    document: bytes,
    stamps: Sequence[Stamp],
    finish: Callable[[PdfWriter], None] | None = None,
) -> bytes:
    """The document with every stamp painted on its page, as new PDF bytes; ``finish``
    gets the writer last (an outline, metadata)."""
    writer = PdfWriter(clone_from=io.BytesIO(document))
    by_page: dict[int, list[Stamp]] = {}
    for s in stamps:
        by_page.setdefault(s.page, []).append(s)
    for index, page_stamps in sorted(by_page.items()):
        page = writer.pages[index]
        height = float(page.mediabox.top)
        resources = page.get("/Resources")
        if resources is None:
            resources = DictionaryObject()
            page[NameObject("/Resources")] = resources
        resources = cast(DictionaryObject, resources.get_object())
        xobjects = resources.get("/XObject")
        if xobjects is None:
            xobjects = DictionaryObject()
            resources[NameObject("/XObject")] = xobjects
        xobjects = cast(DictionaryObject, xobjects.get_object())
        ops = [b"Q"]
        for n, s in enumerate(page_stamps):
            source_page = s.source.reader.pages[s.source_page]
            name = f"/RAmap{index}x{n}"
            xobjects[NameObject(name)] = _as_xobject(writer, source_page)
            top = float(source_page.mediabox.top)
            ops.append(f"q 1 0 0 1 {s.x:.3f} {height - s.y - top:.3f} cm {name} Do Q".encode())
        old = page.get("/Contents")
        parts = []
        if old is not None:
            old = old.get_object()
            parts = list(old) if isinstance(old, ArrayObject) else [page.raw_get("/Contents")]
        page[NameObject("/Contents")] = ArrayObject(
            [_stream(writer, b"q"), *parts, _stream(writer, b"\n".join(ops))]
        )
    if finish is not None:
        finish(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
