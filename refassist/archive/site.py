"""The referee's archive site under ``GAME/archive/``: the game's course at a glance and a
page per turn.

* ``index.html`` - the standings chart over every turn (`chart`), one line per resolved turn
  (what it brought, linked to its page), the turn awaited with its dice commitment, and the
  table of every step's files;
* ``turn-<step>.html`` - the results of one step: the game's summary and every event, the
  standings after it, its map page as an image (``turn-<step>-map.png``, from the referee's
  report), the dice (commitment and seed), and links to every report, the next sheets, the
  replies to its sheets and every archived input.

It is the referee's private view (it links every player's report and the archived game.toml
with the game's secret); `public` writes what players may see.  The pages are plain HTML with
their style inline, no script and no outside resource, and every link is relative: the site
opens from the file system or from any static host, and the game folder can move whole.  The
files are flat in ``archive/`` (a folder there would be taken for a step).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..atomic import refresh_text, write_text
from ..report.build import REFEREE_FILE
from ..store.game import Game
from ..text.i18n import Words
from ..typeset.render import render_html, shared_environment, template_dirs
from .chart import AFTER_THE_TURN, START, standings_svg
from .files import INDEX_NAME, WATCH_PAGE, StepFiles, collect
from .history import History, TurnRecord, read_history
from .mapimage import ImageChild, write_map_images


def page_name(step: str) -> str:
    """``turn-<step>.html``, the step's key kept to letters, digits and dashes."""
    return f"turn-{_safe(step)}.html"


def map_image_name(step: str) -> str:
    """``turn-<step>-map.png``: the map page of the referee's report with the step's results."""
    return f"turn-{_safe(step)}-map.png"


def _safe(step: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", step)


@dataclass
class TurnPage:
    """One turn's page as the templates read it."""

    record: TurnRecord
    page: str
    #: The step whose orders follow these results (its sheets go with the reports).
    next_step: str
    next_label: str
    reports: list[tuple[str, str]]
    referee: list[tuple[str, str]]
    sheets: list[tuple[str, str]]
    replies: list[tuple[str, str]]
    archived: list[tuple[str, str]]
    map_image: str = ""
    previous: str = ""
    following: str = ""


def chart_of(history: History, title: str, words: Words | None = None) -> str:
    """The standings chart of a history ("" before there is anything to draw); ``title`` is
    drawn above it ("" where the page heads it).  ``words``: the reader's language, for a
    chart on a report (the axis and the measure, "after the turn" in a French game); the
    referee's site is English."""
    if words is None:
        return standings_svg(history.chart_points(), history.measure, title=title)
    points = [(words.gettext(START) if x == START else x, y) for x, y in history.chart_points()]
    return standings_svg(
        points,
        words.gettext(history.measure),
        title=title,
        x_title=words.gettext(AFTER_THE_TURN),
    )


def write_site(
    game: Game,
    history: History | None = None,
    state: Any = None,
    started: ImageChild | None = None,
) -> Path:
    """Write the referee's site for the game folder and return the index's path; ``started``
    is the child making the newest map image already (`map_image_for`)."""
    if history is None:
        history = read_history(game, state)
    root = game.path / "archive"
    root.mkdir(parents=True, exist_ok=True)
    files = {s.step: s for s in collect(game.path)}
    pages = _turn_pages(game, history, files, started)
    env = shared_environment(template_dirs(game.path))
    common = {
        "game": game.config.name,
        "ruleset": game.ruleset.title,
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "chart": chart_of(history, ""),
        "history": history,
    }
    for page in pages:
        # Most turns' pages are as the last run wrote them (a turn's page changes when its
        # reports, replies or neighbours do): only a changed page is written and flushed.
        refresh_text(
            root / page.page, render_html(env, "base/archive_turn.html", {**common, "turn": page})
        )
    path = root / INDEX_NAME
    context = {
        **common,
        "turns": list(reversed(pages)),
        "steps": list(files.values()),
        "watch_page": WATCH_PAGE if (root / WATCH_PAGE).is_file() else "",
    }
    write_text(path, render_html(env, "base/archive_index.html", context))
    _remove_stale(root, {p.page for p in pages} | {map_image_name(t.step) for t in history.turns})
    return path


def _map_image_pair(game: Game, record: TurnRecord) -> tuple[Path, Path] | None:
    """A turn's map image: (the referee's report with its results, whose first map page it
    shows; the image), or None before the turn has results."""
    if record.after is None:
        return None
    image = game.path / "archive" / map_image_name(record.step)
    return game.outbox(record.after.step) / REFEREE_FILE, image


def map_image_for(game: Game, history: History, step: str) -> tuple[Path, Path] | None:
    """The (referee's report, image) of the turn whose results are step ``step``'s reports,
    for a report run that starts making the image as soon as that report is written
    (`write_site` would make it afterwards); None when no turn led to ``step``."""
    for record in history.turns:
        if record.after is not None and record.after.step == step:
            return _map_image_pair(game, record)
    return None


def _turn_pages(
    game: Game, history: History, files: dict[str, StepFiles], started: ImageChild | None
) -> list[TurnPage]:
    pages: list[TurnPage] = []
    for record in history.turns:
        after = record.after
        following = after.step if after is not None else ""
        sent = files.get(following) or StepFiles(following)
        page = TurnPage(
            record=record,
            page=page_name(record.step),
            next_step=following if after is not None and not after.finished else "",
            next_label=after.step_label if after is not None else "",
            reports=sent.reports,
            referee=sent.referee,
            sheets=sent.sheets,
            replies=_replies(game, record.step),
            archived=(files.get(record.step) or StepFiles(record.step)).archived,
        )
        pages.append(page)
    wanted = {page.page: pair for page in pages if (pair := _map_image_pair(game, page.record))}
    made = write_map_images([pair for pair in wanted.values() if pair[0].is_file()], started)
    for page in pages:
        if page.page in wanted and wanted[page.page][1] in made:
            page.map_image = wanted[page.page][1].name
    for before, after_ in itertools.pairwise(pages):
        before.following, after_.previous = after_.page, before.page
    return pages


def _replies(game: Game, step: str) -> list[tuple[str, str]]:
    folder = game.outbox(step) / "replies"
    if not folder.is_dir():
        return []
    return [
        (f.name, f"../outbox/{step}/replies/{f.name}")
        for f in sorted(folder.iterdir())
        if f.is_file()
    ]


def _remove_stale(root: Path, keep: set[str]) -> None:
    """Pages and images of steps no longer archived (a turn rolled back) go."""
    for f in root.glob("turn-*"):
        if f.is_file() and f.name not in keep:
            f.unlink()
