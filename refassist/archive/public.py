"""The players' public page: only what the rules make public to everyone.

One page, ``index.html`` in a folder of the referee's choosing, to publish on any static host
(a club's web site, a forum's file area).  It holds:

* who is still in the game (`Ruleset.in_game`) and what step is awaited, with the
  commitment to that step's dice (the line a referee publishes before the deadline,
  docs/dice.md);
* for every resolved step, the announcements every player's report carries (events the game
  tells to all, ``visible_to == ("*",)``), and its dice: the commitment and the seed revealed
  with the results, so anyone can check them;
* the standings chart, only for a game whose rules publish the standings
  (`Ruleset.public_standings`).

Never a report, a sheet, a position, an order, a message or an address: nothing is linked
and nothing else is copied, so publishing the folder cannot hand a player another's report.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from ..atomic import write_text
from ..errors import UsageError
from ..store.game import Game
from ..text.i18n import Words, again, words_for
from ..typeset.render import render_html, shared_environment, speaking, template_dirs
from .history import History, read_history
from .site import chart_of

PUBLIC_NAME = "index.html"


def check_public_folder(game: Game, folder: Path) -> Path:
    """The folder, refused where the public page would overwrite the referee's private site
    or be taken for an archived step."""
    target = folder.expanduser().resolve()
    game_root = game.path.resolve()
    archive = (game.path / "archive").resolve()
    if target in (game_root, archive) or archive in target.parents:
        raise UsageError(
            f"{folder} is the game's own folder or its archive (the referee's private site); "
            "give --public a folder of its own, e.g. a 'public' folder beside the game"
        )
    if target.exists() and not target.is_dir():
        raise UsageError(f"{folder} is a file, not a folder")
    return target


def _finished(history: History, words: Words) -> str:
    """How the game ended, in the page's language: the event that ended it said again (a game
    keeps its end as the text of that event); as recorded when no event says it."""
    current = history.current
    if current is None or not current.finished:
        return ""
    said_so = next((e for e in current.events if e.text == current.finished and e.say), None)
    return again(said_so.text, words, said_so.say) if said_so else current.finished


def write_public(game: Game, folder: Path, history: History | None = None) -> Path:
    """Write the public page into ``folder`` and return its path."""
    target = check_public_folder(game, folder)
    if history is None:
        history = read_history(game)
    # The players' page speaks the game's language (the referee's site speaks English, as
    # the command line does).
    language = game.config.language or game.ruleset.language
    package = game.ruleset.package
    words = words_for(language, package)
    env = speaking(shared_environment(template_dirs(game.path)), language, package)
    turns = [
        {
            "label": again(t.label, words, t.label_say),
            "step": t.step,
            "announcements": [
                game.ruleset.in_notation(again(e.text, words, e.say), language)
                for e in (t.after.events if t.after else [])
                if e.public
            ],
            "dice": t.dice,
        }
        for t in reversed(history.turns)
    ]
    html = render_html(
        env,
        "base/archive_public.html",
        {
            "game": game.config.name,
            "language": language,
            "ruleset": game.ruleset.title,
            "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "history": history,
            "turns": turns,
            "chart": chart_of(history, "", words) if game.ruleset.public_standings else "",
            # The step awaited, in the page's language (the history keeps the game's words).
            "awaited_label": again(history.current.step_label, words, history.current.step_say)
            if history.current is not None
            else "",
            "finished": _finished(history, words),
        },
    )
    target.mkdir(parents=True, exist_ok=True)
    path = target / PUBLIC_NAME
    write_text(path, html)
    return path
