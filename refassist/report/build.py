"""Writing a turn's reports: one PDF per player, the referee's PDF, and the archive index.

The game folder supplies what the state does not hold (deadline, the sheets the orders came
from); the ruleset supplies each reader's content (`Ruleset.report_content`) and the public map
(`Ruleset.report_map`); this module renders them.  A report is rendered in one of two ways:

* fast (the default): WeasyPrint lays out the text pages with empty map boxes, cairo draws the
  maps (the shared base once per turn, each reader's layers separately) and they are stamped
  into the boxes (appended to a file cairo wrote, `pdfappend`; by pypdf into WeasyPrint's);
* naive: the same HTML with the whole map inline as SVG, rendered by WeasyPrint in one pass
  (several seconds per report; kept for the benchmark and as a cross-check).

Reports for many players can be rendered in parallel processes (``jobs``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2

from .. import __version__
from ..atomic import write_bytes
from ..drawings.boarddraw import board_pages
from ..drawings.mapmodel import SectorMap
from ..drawings.netdraw import network_pages
from ..errors import RefassistError, UsageError
from ..processes import worker_pool
from ..rulesets.base import MAP_ANCHOR, ReportContent, ReportInput
from ..typeset import flow, flowdoc
from ..typeset.pdfappend import Stamp
from ..typeset.pdfinfo import NotCairos, page_count
from ..typeset.render import (
    MapBox,
    ReportError,
    compile_with_parts,
    layout,
    map_boxes,
    render_html,
    shared_environment,
    speaking,
)
from ..typeset.running import running_stamps
from .maps import BaseMaps, inline_svgs, map_pages, map_stamps

REFEREE_FILE = "referee.pdf"
CACHE_DIR = ".cache/maps"

Progress = Callable[[int, int, str], None]


def report_filename(player: str) -> str:
    """``<player>.pdf``, cleaned like the player's sheet name so the two sit side by side."""
    from ..store.turnsheets import sheet_filename

    return sheet_filename(player).removesuffix(".xlsx") + ".pdf"


@dataclass(frozen=True)
class RenderSettings:
    """Everything a worker process needs besides the content (all picklable)."""

    dirs: tuple[Path, ...]
    public: SectorMap | None
    cache_dir: Path | None = None
    fast: bool = True


@dataclass
class Rendered:
    """One written report: whose, where, how many pages, which URLs the fetcher refused."""

    reader: str
    path: Path
    pages: int
    refused: list[str] = field(default_factory=list)


def common_context(info: ReportInput) -> dict[str, Any]:
    """What every report's template gets besides the ruleset's content."""
    return {
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        # The PDF's Creator field and running footer name the version that wrote it, so a
        # report sent to a player can be traced to the refassist that made it.
        "refassist_version": __version__,
        "step": info.step,
        "dice_disclosure": dict(info.dice),
    }


_WORKER_BASE: list[BaseMaps] = []


def base_maps_for(settings: RenderSettings) -> BaseMaps | None:
    """One `BaseMaps` per process, kept while the map stays the same, so a process draws (or
    loads) each base page once however many reports it renders."""
    if settings.public is None:
        return None
    for found in _WORKER_BASE:
        if found.cache_dir == settings.cache_dir and found.public == settings.public:
            return found
    _WORKER_BASE[:] = [BaseMaps(settings.public, settings.cache_dir)]
    return _WORKER_BASE[0]


def render_report(
    content: ReportContent,
    common: Mapping[str, Any],
    settings: RenderSettings,
    base: BaseMaps | None = None,
) -> tuple[bytes, list[str]]:
    """One report as PDF bytes, and the URLs its fetcher refused."""
    env = speaking(shared_environment(settings.dirs), content.language, content.package)
    context = {**common, **content.context, "title": content.title, "language": content.language}
    public = settings.public
    overlay = content.overlay
    pages: list[dict[str, Any]] = []
    if public is not None and overlay is not None:
        pages = map_pages(public, overlay)
        if not settings.fast:
            inline_svgs(public, overlay, pages)
    context["map_pages"] = pages
    # The naive render stays one WeasyPrint pass: its running heads are CSS margin boxes
    # (`templates/base/running.css`), not drawn and stamped afterwards (`running`).
    context["css_running_heads"] = not settings.fast
    # A map of places and links is drawn per reader as inline SVG (WeasyPrint renders it in
    # the same pass; nothing is stamped): `templates/base/netmap.html` lays it out.
    context["network_pages"] = network_pages(content.network)
    # So is a board of terrain hexes (`templates/base/boardmap.html`).
    context["board_pages"] = board_pages(content.board)
    # The first map page carries the PDF anchor ``map``: the archive site finds it by that
    # name to show the turn's map (`refassist.archive.mapimage`).
    for found in (pages, context["network_pages"], context["board_pages"]):
        if found:
            found[0]["anchor"] = MAP_ANCHOR
            break
    html = render_html(env, content.template, context)
    # Chapters of running text marked ``data-flow`` are set with Pango (`flow`) and stamped.
    chapters: dict[str, flow.Chapter] = {}
    if settings.fast and flow.usable(settings.dirs):
        html, chapters = flow.set_chapters(html)
    # Everything set with Pango: the report is put together without WeasyPrint (`flowdoc`).
    if chapters and flowdoc.whole(html):
        composed = flowdoc.compose(html, chapters, _map_stamper(settings, content, base))
        if composed is not None:
            return composed, []  # Pango loads nothing: no URL to refuse
    # WeasyPrint (and its fetcher) only from here: importing it takes 0.7 s, most of a small
    # game's `refassist report`, whose reports are all set with Pango.
    from ..typeset.fetcher import SafeFetcher

    fetcher = SafeFetcher(settings.dirs)
    # Relative URLs resolve in the first template folder: the game's own when it has one, so
    # an override can show e.g. its logo.png; the fetcher still allows only template files.
    document = layout(html, settings.dirs[0], fetcher)
    pdf = document.write_pdf()
    stamps = []
    laid_out = map_boxes(document) if settings.fast and (pages or chapters) else []
    if chapters:
        stamps += flow.chapter_stamps(chapters, laid_out)
    if settings.fast and pages:
        boxes = [
            b for b in laid_out if b.width > 0 and b.height > 0 and not b.key.startswith(flow.KEY)
        ]
        boxes += flow.hole_boxes(chapters, laid_out)
        stamps += _map_stamper(settings, content, base)(boxes)
    # The running heads are drawn on every page (`running`; none where margin boxes are).
    stamps += running_stamps(document, html)
    if stamps:
        from ..typeset.stamp import stamp_pdf  # pypdf: only where WeasyPrint laid out

        pdf = stamp_pdf(pdf, stamps)
    return pdf, fetcher.refused


def _map_stamper(
    settings: RenderSettings, content: ReportContent, base: BaseMaps | None
) -> Callable[[list[MapBox]], list[Stamp]]:
    """The stamps of a report's map boxes: the reader's layers and the shared base."""

    def stamps(boxes: list[MapBox]) -> list[Stamp]:
        shared = base or base_maps_for(settings)
        if settings.public is None or content.overlay is None or shared is None:
            return []
        return map_stamps(settings.public, content.overlay, boxes, shared)

    return stamps


def _page_count(pdf: bytes) -> int:
    with contextlib.suppress(NotCairos):
        return page_count(pdf)
    import io

    from pypdf import PdfReader  # WeasyPrint's files: pypdf is imported to stamp them anyway

    return len(PdfReader(io.BytesIO(pdf)).pages)


def _render_to_file(
    reader: str,
    content: ReportContent,
    common: Mapping[str, Any],
    settings: RenderSettings,
    path: Path,
) -> Rendered:
    pdf, refused = render_report(content, common, settings)
    write_bytes(path, pdf)
    return Rendered(reader, path, _page_count(pdf), refused)


@dataclass(frozen=True)
class Job:
    """One report to write: reader (``None`` = the referee), its content, its file."""

    reader: str | None
    content: ReportContent
    path: Path

    @property
    def label(self) -> str:
        return self.reader or "referee"


def render_jobs(
    jobs: Sequence[Job],
    common: Mapping[str, Any],
    settings: RenderSettings,
    *,
    workers: int = 1,
    progress: Progress | None = None,
) -> list[Rendered]:
    """Render every job, in parallel processes when ``workers`` > 1, reporting progress."""
    done: list[Rendered] = []
    total = len(jobs)
    if workers <= 1 or total <= 1:
        for job in jobs:
            done.append(_render_to_file(job.label, job.content, common, settings, job.path))
            if progress:
                progress(len(done), total, job.label)
        return done
    # Every report goes to the pool.  The parent compiles the templates and their parts
    # before it forks (the workers inherit them; the base maps are in its memory already,
    # `_prewarm`); it used to render the first report itself for warm caches, but a report's
    # warm-up is a few tens of milliseconds and the other core idled through that whole
    # report (about 0.8 s of a 12-player turn, docs/benchmarks.md).
    templates: dict[jinja2.Environment, set[str]] = {}
    for job in jobs:
        env = speaking(shared_environment(settings.dirs), job.content.language, job.content.package)
        templates.setdefault(env, set()).add(job.content.template)
    for env, names in templates.items():
        # A broken template is met again by the worker, which says what is wrong.
        with contextlib.suppress(jinja2.TemplateError):
            compile_with_parts(env, names)
    # The longest report first (the referee's holds every player's pages): started last, it
    # would leave one core idle while it finishes alone.
    ordered = sorted(jobs, key=lambda job: job.reader is not None)
    with _pool(min(workers, total)) as pool:
        futures = {
            pool.submit(_render_to_file, job.label, job.content, common, settings, job.path): job
            for job in ordered
        }
        for future in as_completed(futures):
            try:
                done.append(future.result())
            except RefassistError:
                raise
            except Exception as exc:  # a worker's crash: name the report, keep the cause
                raise ReportError(
                    f"the report for {futures[future].label} could not be rendered "
                    f"({type(exc).__name__}: {exc})"
                ) from exc
            if progress:
                progress(len(done), total, futures[future].label)
    order = {job.label: i for i, job in enumerate(jobs)}
    return sorted(done, key=lambda r: order[r.reader])


#: The report processes kept by `kept_workers` (by their number) while its block runs; None
#: outside one, where every `render_jobs` forks its own and ends them.
_KEPT: dict[int, ProcessPoolExecutor] | None = None


@contextlib.contextmanager
def kept_workers() -> Iterator[None]:
    """Keep the report processes between the report stages of this block (a whole game played
    in one process: the demo, the benchmarks' games), ended when it ends.

    A forked worker's first report costs several times a warm one (fonts at each size, the
    drawing and text caches, the memory it inherited touched for the first time: about 0.2 s
    against 0.05 s for a small game's report, docs/benchmarks.md); kept, only the first stage
    pays it.  Nothing a report needs comes from the memory the workers inherited that the
    stages change: each job carries its content and settings, and the base maps are on disk.
    A single ``refassist report`` has one stage and forks its workers as before."""
    global _KEPT
    if _KEPT is not None:  # already inside a block: its processes serve this one too
        yield
        return
    _KEPT = {}
    try:
        yield
    finally:
        pools, _KEPT = _KEPT, None
        for pool in pools.values():
            pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Processes for one stage's reports: kept ones inside `kept_workers` (a pool a crash
    broke is dropped, and the next stage forks new ones), else forked for this stage."""
    if _KEPT is None:
        with worker_pool(workers) as own:
            yield own
        return
    kept = _KEPT.get(workers)
    if kept is None:
        kept = _KEPT[workers] = worker_pool(workers)
    try:
        yield kept
    except BaseException:
        _KEPT.pop(workers, None)
        kept.shutdown(wait=False, cancel_futures=True)
        raise


def check_players(known: Sequence[str], wanted: Sequence[str]) -> None:
    for name in wanted:
        if name not in known:
            raise UsageError(
                f"there is no player {name!r} in this game; players are {', '.join(known)}"
            )
