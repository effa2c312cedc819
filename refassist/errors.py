"""The error family of refassist.

Every error a user can provoke (a bad sheet, a broken master workbook, a wrong command) is a
`RefassistError`.  The CLI turns these into one clear line and a non-zero exit code; anything
else that escapes is a bug and shows a traceback only with ``--debug``.

Following python-chess, errors are a small ``ValueError`` family whose messages quote the
offending input and where it was found, so a player or referee can act on them without
reading code.
"""

from __future__ import annotations

from dataclasses import dataclass


class RefassistError(ValueError):
    """Base of every error the tool reports to a user instead of crashing."""

    #: Process exit code the CLI uses for this error.
    exit_code: int = 1


class UsageError(RefassistError):
    """A command was called with arguments that cannot work (missing file, bad option)."""

    exit_code = 2


class GameError(RefassistError):
    """The game folder or its settings are missing, locked or inconsistent."""


class SetupError(GameError):
    """A new game cannot be created as asked (homeworld rules, players file, sector)."""


class SectorError(RefassistError):
    """A sector file cannot be read at all (individual bad rows are only warnings)."""


class MasterWorkbookError(RefassistError):
    """The master workbook breaks its schema; ``problems`` lists every cell at fault."""

    def __init__(self, message: str, problems: list[CellProblem] | None = None) -> None:
        super().__init__(message)
        self.problems: list[CellProblem] = list(problems or [])

    def __str__(self) -> str:
        head = super().__str__()
        if not self.problems:
            return head
        lines = [head]
        lines.extend(f"  - {p}" for p in self.problems[:50])
        if len(self.problems) > 50:
            lines.append(f"  ... and {len(self.problems) - 50} more")
        return "\n".join(lines)


class NotATurnSheet(RefassistError):
    """A file is not a usable turn sheet (wrong format, damaged, hostile, another game)."""

    exit_code = 2


class InvalidOrder(RefassistError):
    """An order cannot be read: its text does not follow the game's notation."""

    def __init__(self, message: str, text: str = "", cell: str = "") -> None:
        super().__init__(message)
        self.text = text
        self.cell = cell


class IllegalOrder(RefassistError):
    """An order can be read but breaks a rule of the game in the current state."""

    def __init__(self, message: str, text: str = "", cell: str = "") -> None:
        super().__init__(message)
        self.text = text
        self.cell = cell


class DiceExhausted(RefassistError):
    """A scripted dice file ran out before the turn was resolved."""


class LockedError(GameError):
    """Another refassist process holds the game's lock."""


@dataclass(frozen=True)
class CellProblem:
    """One problem pinned to a cell of a workbook.

    Used both for master-workbook schema errors (referee's hand edits) and for turn-sheet
    problems (player's orders).  ``severity`` is ``"error"`` or ``"warning"``.
    """

    sheet: str
    cell: str
    found: str
    message: str
    fix: str = ""
    severity: str = "error"

    def __str__(self) -> str:
        return self.shown()

    def shown(self, found_word: str = "found") -> str:
        """``Orders!C14: message (found '3'). Fix.``, with ``found`` in the reader's
        language (a reply to a player says it so)."""
        where = f"{self.sheet}!{self.cell}" if self.cell else self.sheet
        found = f" ({found_word} {self.found!r})" if self.found != "" else ""
        fix = f" {self.fix}" if self.fix else ""
        return f"{where}: {self.message}{found}.{fix}".replace("..", ".")

    @property
    def ref(self) -> str:
        """``Sheet!A1``: the cell with its sheet, the form an order's ``cell`` may take."""
        return f"{self.sheet}!{self.cell}" if self.sheet else self.cell

    def places(self) -> set[str]:
        """Both forms an order may record its cell in (``A1`` or ``Sheet!A1``), so the engine
        finds the order a problem is pinned to whichever form its game writes."""
        return {self.cell, self.ref} if self.cell else set()

    def to_dict(self) -> dict[str, str]:
        return {
            "sheet": self.sheet,
            "cell": self.cell,
            "found": self.found,
            "message": self.message,
            "fix": self.fix,
            "severity": self.severity,
        }
