"""What each checked sheet read as, kept in the game folder so that resolve need not open it
again.

The intake opens every sheet it receives (openpyxl's load: about 50 ms a sheet, most of a
12-player intake) and resolve, in another process days later, opened each filed sheet again
to read the same orders from the same bytes (0.76 s of a 12-player resolve).  What a sheet
reads as depends only on its bytes and the code that reads them, so the intake keeps each read
(its orders, reading problems and hidden data) in ``GAME/.cache/reads/<sha256>.read``, and
resolve, having checked that the filed file still has the SHA-256 the intake recorded, takes
the read from there: the hostile-file checks and the token were passed by those very bytes.

A kept read is taken only when it is provably ours and current: the file is signed
(HMAC-SHA256) with a key drawn from the game's secret, which signs the sheets' tokens and
never leaves ``game.toml``, so a file put there by anyone else is never unpickled; and it
names the sheet's SHA-256 and the code that read it (refassist's version and its modules'
sizes and times), so a refassist changed since reads the sheet again.  Anything else (no
file, a damaged or foreign one, a read that cannot be pickled) means the sheet is opened as
before: the store only saves time.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import pickle
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .atomic import write_bytes

if TYPE_CHECKING:
    from .game import Game
    from .rulesets.base import SheetRead

STORE_DIR = Path(".cache") / "reads"
_MAC_BYTES = 32


@functools.cache
def code_stamp() -> str:
    """Which refassist reads the sheets: its version and every module's size and time (a
    changed reader must read the sheet again)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(root.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()


def _path(game: Game, sha256: str) -> Path:
    return game.path / STORE_DIR / f"{sha256}.read"


def _mac(game: Game, payload: bytes) -> bytes:
    """The payload's signature, with a key of its own drawn from the game's secret (the
    secret itself signs the sheets' tokens, which players see)."""
    key = hmac.new(game.config.secret.encode(), b"refassist kept sheet reads", "sha256").digest()
    return hmac.new(key, payload, hashlib.sha256).digest()


def keep(game: Game, sha256: str, read: SheetRead) -> None:
    """Keep what the sheet with these bytes read as (nothing is kept if it cannot be)."""
    try:
        payload = pickle.dumps((code_stamp(), sha256, read), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a game's orders that cannot be pickled: the sheet is read again
        return
    try:
        write_bytes(_path(game, sha256), _mac(game, payload) + payload)
    except OSError:
        return


def kept(game: Game, sha256: str) -> SheetRead | None:
    """What the sheet with these bytes read as, if this refassist kept it for this game."""
    try:
        data = _path(game, sha256).read_bytes()
    except OSError:
        return None
    mac, payload = data[:_MAC_BYTES], data[_MAC_BYTES:]
    if not hmac.compare_digest(mac, _mac(game, payload)):
        return None
    try:
        stamp, sha, read = pickle.loads(payload)
    except Exception:  # signed by us but unreadable now (a class since renamed)
        return None
    if stamp != code_stamp() or sha != sha256:
        return None
    return read
