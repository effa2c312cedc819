"""The watch log as a page of the referee's archive site: ``archive/watch.html``.

Written by each round that added to the log (`write_watch_page`), so it is as fresh as the
log, without the rest of the site being written again (`archive.site.write_site` links it
from the index when it exists).  Plain HTML like the other pages: no script, nothing from
outside, relative links.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from refassist.archive.files import WATCH_PAGE
from refassist.atomic import refresh_text
from refassist.store.game import Game
from refassist.typeset.render import render_html, shared_environment, template_dirs
from refassist.watch.log import read_log


def write_watch_page(game: Game) -> Path:
    """Write ``archive/watch.html`` from the game's watch log, newest line first."""
    root = game.path / "archive"
    root.mkdir(parents=True, exist_ok=True)
    lines = [
        {key: str(item.get(key, "")) for key in ("at", "step", "what", "text")}
        for item in reversed(read_log(game.path))
    ]
    env = shared_environment(template_dirs(game.path))
    context = {
        "game": game.config.name,
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "lines": lines,
    }
    path = root / WATCH_PAGE
    refresh_text(path, render_html(env, "base/archive_watch.html", context))
    return path
