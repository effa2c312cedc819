"""Work kept in the game folder between commands, for the next command that would do it
again: what a filed sheet read as (`sheetstore`), the state a master workbook's bytes hold
(`statestore`).

Each is a pickle, and unpickling runs code, so a kept file is taken only when it is provably
ours and current: it is signed (HMAC-SHA256) with a key drawn from the game's secret, which
never leaves ``game.toml`` (the secret itself signs the sheets' tokens, which players see, so
the store's key is its own), and it names its key (the bytes it was made from, as SHA-256, and
the code that made it, `code_stamp`), so a file put there by anyone else is never unpickled
and a refassist changed since does the work again.  Anything else (no file, a damaged or
foreign one, something that cannot be pickled, a folder that cannot be written) means the
work is done as before: the store only saves time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import pickle
from pathlib import Path
from typing import TYPE_CHECKING, Any

from refassist import __version__
from refassist.atomic import write_bytes
from refassist.errors import GameError

if TYPE_CHECKING:
    from refassist.store.game import Game

_MAC_BYTES = 32


@functools.cache
def code_stamp() -> str:
    """Which refassist did the work: its version and every module's size and time (a
    changed reader must read again)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(root.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()


def _mac(game: Game, payload: bytes) -> bytes:
    """The payload's signature, with a key of its own drawn from the game's secret (the
    secret itself signs the sheets' tokens, which players see)."""
    key = hmac.new(game.config.secret.encode(), b"refassist kept work", "sha256").digest()
    return hmac.new(key, payload, hashlib.sha256).digest()


def keep(game: Game, name: Path, key: str, value: Any) -> bool:
    """Keep ``value`` as ``name`` (in the game folder) under ``key``; whether it was kept."""
    try:
        payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # something a game holds that cannot be pickled: done again next time
        return False
    try:
        write_bytes(game.path / name, _mac(game, payload) + payload)
    except (OSError, GameError):  # `write_bytes` says why as a GameError: nothing to say here
        return False
    return True


def kept(game: Game, name: Path, key: str) -> Any:
    """What was kept as ``name`` under ``key`` by this game, or None."""
    try:
        data = (game.path / name).read_bytes()
    except OSError:
        return None
    mac, payload = data[:_MAC_BYTES], data[_MAC_BYTES:]
    if not hmac.compare_digest(mac, _mac(game, payload)):
        return None
    try:
        found, value = pickle.loads(payload)
    except Exception:  # signed by us but unreadable now (a class since renamed)
        return None
    return value if found == key else None


def keep_newest(folder: Path, count: int) -> None:
    """Leave the ``count`` files of ``folder`` written last (a store that grows by a file a
    turn keeps what the next commands can use)."""
    with contextlib.suppress(OSError):
        files = sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in files[count:]:
            with contextlib.suppress(OSError):
                old.unlink()
