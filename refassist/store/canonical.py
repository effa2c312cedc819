"""One fingerprint for a game state: the SHA-256 of its JSON export written canonically.

`verify` compares a replayed turn with what followed by it, and the outbox records which state
its sheets and reports were made from (`refassist.store.outbox`).  A state, not a file: saving the
master workbook again in a spreadsheet program changes its bytes but not the game.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def fingerprint(data: Any) -> str:
    """SHA-256 of a JSON export written canonically (sorted keys, no spaces)."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
