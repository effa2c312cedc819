"""The state a master workbook's bytes hold, kept so that the next command to read the same
bytes need not parse the workbook again.

A week of play reads each master three times: the report run reads the one resolve wrote,
the next turn's intake reads it again to check the sheets against it, and resolve once more
(calamine's parse and the ruleset's tables: 0.1-0.2 s each for twelve players on the
Solomani Rim).  What a master holds depends only on its bytes and the code that reads them,
so the first read keeps the state in ``GAME/.cache/states/<sha256>.state`` (`keptstore`:
signed with a key drawn from the game's secret, and naming the bytes and the code) and the
others unpickle it (about 0.01 s).  Only a state read from the workbook is kept, never one
as it was saved: every command works from exactly what the workbook holds, which the referee
may have edited by hand (other bytes: read again).  The newest few are kept.

Resolve writes the master the report run then reads first, so resolve reads it back in a
forked process while it writes the next sheets (`read_back`): the report run, which waits on
nothing else before its processes start, finds the state kept.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from refassist.errors import GameError
from refassist.processes import can_fork, child_process
from refassist.store import keptstore
from refassist.workbook.master import read_master

if TYPE_CHECKING:
    from refassist.store.game import Game

STATES_DIR = Path(".cache") / "states"
#: States kept: the current master's, and those a rollback or a hand edit moved away from.
KEEP = 3


def load_state(game: Game) -> Any:
    """The state in the game's ``master.xlsx``: kept, or read (and then kept)."""
    path = game.master_path
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise GameError(f"{path} is missing; restore it from archive/ with rollback") from None
    except OSError as exc:
        raise GameError(f"{path} cannot be read ({exc.strerror or exc})") from None
    sha = hashlib.sha256(data).hexdigest()
    name = STATES_DIR / f"{sha}.state"
    key = f"{keptstore.code_stamp()} {game.ruleset.name} {sha}"
    state = keptstore.kept(game, name, key)
    if state is None:
        state = read_master(path, game.ruleset, data)
        if keptstore.keep(game, name, key, state):
            keptstore.keep_newest(game.path / STATES_DIR, KEEP)
    return state


def read_written(game: Game, path: Path) -> Any:
    """The state a master just written at ``path`` holds, read as the next command will read
    the game's master (`read_master`: its types, keys, references and the ruleset's own
    checks).  Raises `MasterWorkbookError` with every cell at fault: resolve calls it before
    the new master replaces the old one, so no step can leave a game the next command
    refuses; once the new master is in place it keeps the state (`keep_read`)."""
    return read_master(path, game.ruleset, path.read_bytes())


def keep_read(game: Game, sha: str, state: Any) -> None:
    """Keep ``state``, read from the master whose bytes have SHA-256 ``sha``, for the next
    command that reads those bytes (the read-back of `read_written`, once they are the game's
    master: kept earlier, a failed resolve would leave a file behind)."""
    name = STATES_DIR / f"{sha}.state"
    key = f"{keptstore.code_stamp()} {game.ruleset.name} {sha}"
    if keptstore.keep(game, name, key, state):
        keptstore.keep_newest(game.path / STATES_DIR, KEEP)


def read_back(game: Game) -> Callable[[], None]:
    """Read the master just written in a forked process, which keeps its state for the next
    command; returns the wait for that process.  Where processes cannot fork, nothing is
    read ahead (the next command reads the master itself)."""
    if not can_fork():
        return lambda: None
    child = child_process(_read_quietly, game)
    child.start()
    return child.join


def _read_quietly(game: Game) -> None:
    # A master that cannot be read is the next command's to report, with its cells.
    with contextlib.suppress(Exception):
        load_state(game)
