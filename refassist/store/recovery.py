"""One way into a game for every command that changes it: take the lock, then finish or undo
whatever an interrupted command left (`working`).

A resolve or rollback killed midway leaves a journal entry (`refassist.store.journal`); the next
command that writes must first bring the folder back to one whole turn.  This module knows how
for each journalled operation: a resolve whose new master is in place is finished (the next
sheets written), one whose master is still the old one is undone (its half-written archive
moved aside); a rollback is always finished forward.  Intake, resolve, rollback, sheets,
verify, reports and sending all enter through `working`, so no command can forget it.

It sits between the journal (records only) and the commands (`turns`, `inbox`): it needs the
game and the sheet writer, never the intake or the turn lifecycle, so nothing imports in a
circle.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from refassist.atomic import write_bytes
from refassist.errors import GameError
from refassist.store import journal
from refassist.store.game import MASTER_NAME, Game
from refassist.store.journal import sha256_file
from refassist.store.turnsheets import write_sheets


@contextmanager
def working(game: Game, *, timeout: float = 10.0) -> Iterator[str]:
    """Hold the game's lock with the folder whole: yields what recovery did ("" if nothing).

    A folder that cannot even hold the lock file is a clear error, not a traceback."""
    with ExitStack() as stack:
        try:
            stack.enter_context(game.lock(timeout))
        except OSError as exc:
            raise GameError(
                f"cannot lock {game.path} ({exc.strerror or exc}); check that the game folder "
                "exists and that you may write in it"
            ) from exc
        yield recover(game)


def recover(game: Game) -> str:
    """Finish or undo an interrupted operation; the caller holds the game lock.

    Returns what was done (empty when nothing was pending), for the command to print.
    """
    entry = journal.pending(game.path)
    if entry is None:
        return ""
    handler = HANDLERS.get(entry.op)
    if handler is None:
        raise GameError(
            f"{journal.path_of(game.path)} records an operation {entry.op!r} this refassist "
            "does not know; a newer refassist was interrupted here, so finish it with that "
            "version"
        )
    done = handler(game, entry)
    journal.clean_temporaries(game.path)
    journal.finish(game.path)
    return done


def move_archives(game: Game, steps: list[str], aside: Path) -> list[str]:
    """Move the archives of ``steps`` into ``aside`` (a rollback's folder); returns them."""
    moved = []
    for step in steps:
        folder = game.archive(step)
        if folder.exists():
            aside.mkdir(parents=True, exist_ok=True)
            shutil.move(str(folder), str(aside / step))
        moved.append(step)
    return moved


def _recover_resolve(game: Game, entry: journal.Entry) -> str:
    staged = game.path / journal.STAGED_MASTER_NAME
    current = sha256_file(game.master_path) if game.master_path.is_file() else ""
    if current and current == entry.data.get("new_master"):
        state = game.load_state()
        with contextlib.suppress(FileNotFoundError):
            staged.unlink()
        journal.clean_temporaries(game.archive(entry.step))
        if game.ruleset.game_over(state):
            return f"finished the interrupted resolve of {entry.step} (its result was saved)"
        step = game.step(state)
        journal.clean_temporaries(game.outbox(step.key))
        write_sheets(game, state)
        return (
            f"finished the interrupted resolve of {entry.step}: its result was saved, and the "
            f"sheets for {step.key} were written again"
        )
    if current and current == entry.data.get("old_master"):
        with contextlib.suppress(FileNotFoundError):
            staged.unlink()
        folder = game.archive(entry.step)
        note = ""
        if folder.exists():
            aside = journal.set_aside(game.path, folder, "interrupted")
            note = f"; its unfinished archive is in {aside.relative_to(game.path).as_posix()}"
        return (
            f"undid the interrupted resolve of {entry.step}: it had not saved its result, so "
            f"the game is still waiting for {entry.step}{note}"
        )
    raise GameError(
        f"a resolve of {entry.step} was interrupted and master.xlsx has changed since (it is "
        "neither the master the turn started from nor the one it produced); compare it with "
        f"archive/{entry.step}/master.xlsx and {journal.STAGED_MASTER_NAME}, keep the right one "
        f"as master.xlsx, then delete {journal.JOURNAL_NAME}"
    )


def _recover_rollback(game: Game, entry: journal.Entry) -> str:
    aside = game.path / str(entry.data.get("aside", ""))
    wanted = str(entry.data.get("master", ""))
    current = sha256_file(game.master_path) if game.master_path.is_file() else ""
    if current != wanted:
        for source in (
            game.archive(entry.step) / MASTER_NAME,
            aside / entry.step / MASTER_NAME,
        ):
            if source.is_file() and sha256_file(source) == wanted:
                write_bytes(game.master_path, source.read_bytes())
                break
        else:
            raise GameError(
                f"a rollback to {entry.step} was interrupted and its archived master cannot be "
                f"found; look in archive/{entry.step} and {aside}, copy the right master.xlsx "
                f"into the game folder, then delete {journal.JOURNAL_NAME}"
            )
    move_archives(game, [str(s) for s in entry.data.get("moves", [])], aside)
    return f"finished the interrupted rollback to {entry.step}"


#: Per journalled operation: how to finish or undo it.
HANDLERS: dict[str, Callable[[Game, journal.Entry], str]] = {
    "resolve": _recover_resolve,
    "rollback": _recover_rollback,
}
