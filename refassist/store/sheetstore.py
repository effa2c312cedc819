"""What each checked sheet read as, kept in the game folder so that resolve need not open it
again.

The intake opens every sheet it receives (openpyxl's load: about 50 ms a sheet, most of a
12-player intake) and resolve, in another process days later, opened each filed sheet again
to read the same orders from the same bytes (0.76 s of a 12-player resolve).  What a sheet
reads as depends only on its bytes and the code that reads them, so the intake keeps each read
(its orders, reading problems and hidden data) in ``GAME/.cache/reads/<sha256>.read``, and
resolve, having checked that the filed file still has the SHA-256 the intake recorded, takes
the read from there: the hostile-file checks and the token were passed by those very bytes.

A kept read is taken only when it is provably ours and current (`keptstore`: signed with a
key drawn from the game's secret, and naming the sheet's SHA-256 and the code that read it);
anything else means the sheet is opened as before: the store only saves time.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from refassist.store import keptstore
from refassist.store.keptstore import code_stamp

if TYPE_CHECKING:
    from refassist.rulesets.base import SheetRead
    from refassist.store.game import Game

STORE_DIR = Path(".cache") / "reads"


def _name(sha256: str) -> Path:
    return STORE_DIR / f"{sha256}.read"


def keep(game: Game, sha256: str, read: SheetRead) -> None:
    """Keep what the sheet with these bytes read as (nothing is kept if it cannot be)."""
    keptstore.keep(game, _name(sha256), f"{code_stamp()} {sha256}", read)


def kept(game: Game, sha256: str) -> SheetRead | None:
    """What the sheet with these bytes read as, if this refassist kept it for this game."""
    found: SheetRead | None = keptstore.kept(game, _name(sha256), f"{code_stamp()} {sha256}")
    return found
