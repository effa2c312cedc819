"""What every game's order checker is made of: the problems it finds, each pinned to its cell.

A game's checker (`refassist/rulesets/<game>/validate.py`) walks one player's orders in sheet
order and knows the game's rules; how a problem is recorded is the same in every game, so the
engine's intake, annotation and cancellation (`turns.drop_orders_at`) find every problem in the
one form they read: the sheet, the cell, what was found (short enough to quote), what is wrong,
how to fix it, and whether it stops the order (error) or only warns.
"""

from __future__ import annotations

from ..errors import CellProblem
from ..workbook.celltext import clip


class OrderChecker:
    """The problems of one player's orders, in the order they were found."""

    #: The sheet a bare cell reference (``B14``) is on; ``"Forces!B3"`` names its own.
    sheet = "Orders"

    def __init__(self) -> None:
        self.problems: list[CellProblem] = []

    def error(self, ref: str, found: str, message: str, fix: str) -> None:
        """An order that cannot be carried out (it is cancelled at resolve time)."""
        self._add(ref, found, message, fix, "error")

    def warn(self, ref: str, found: str, message: str, fix: str) -> None:
        """An order that will be carried out, with something the player should know."""
        self._add(ref, found, message, fix, "warning")

    def _add(self, ref: str, found: str, message: str, fix: str, severity: str) -> None:
        sheet, _, cell = ref.rpartition("!")
        self.problems.append(
            CellProblem(sheet or self.sheet, cell, clip(found), message, fix, severity)
        )
