"""The only way a report may load anything: data URIs and files inside the template folders.

WeasyPrint's default fetcher reads any ``file:`` path and any ``http:`` URL named in the HTML
or CSS, and attaches the target of ``<a rel="attachment">`` to the PDF.  A player's name or
message ends up in a report, so a report must never load something a player could name: a
test once embedded ``/etc/passwd`` in a PDF that way.  Player text is escaped by the templates
(jinja2 autoescape), and as a second wall every URL goes through `SafeFetcher`, which refuses
all but ``data:`` URIs and regular files under the template folders, after resolving symlinks
and ``..`` (so a link planted in a game's ``templates/`` folder cannot point outside it).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

#: Largest file a template may load (an image or stylesheet), so a huge file cannot stall it.
MAX_FILE_BYTES = 8 * 1024 * 1024


class RefusedURL(ValueError):
    """A report tried to load something outside the template folders (WeasyPrint skips it)."""


class SafeFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that allows ``data:`` URIs and files under ``roots`` only.

    Every refused URL is kept in ``refused`` so tests (and a curious referee) can see what a
    template or a player's text tried to load.
    """

    def __init__(self, roots: Sequence[Path]) -> None:
        super().__init__(allowed_protocols=("data", "file"), allow_redirects=False)
        self.roots = tuple(Path(r).resolve() for r in roots if Path(r).is_dir())
        self.refused: list[str] = []

    def allowed_path(self, url: str) -> Path | None:
        """The local file a ``file:`` URL names, if it lies inside a template folder."""
        parts = urlsplit(url)
        if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
            return None
        try:
            path = Path(unquote(parts.path)).resolve(strict=True)
        except (OSError, RuntimeError, ValueError):
            return None
        if not path.is_file():
            return None
        if not any(path.is_relative_to(root) for root in self.roots):
            return None
        return path

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        scheme = url.split(":", 1)[0].strip().lower()
        if scheme == "data":
            return super().fetch(url, headers)
        path = self.allowed_path(url) if scheme == "file" else None
        if path is None or path.stat().st_size > MAX_FILE_BYTES:
            self.refused.append(url)
            raise RefusedURL(f"refused to load {url!r}: reports load only their own templates")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(
            path.as_uri(), path.read_bytes(), headers={"Content-Type": content_type}
        )
