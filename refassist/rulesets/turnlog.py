"""What a game's turn context records while a turn is resolved: events and the dice behind them.

Every game's rule modules tell what happened as `Event` rows with their audience (who it is
about, who may read it) and point an event at the dice it used, so a disputed result can be
shown roll by roll.  How that is recorded is the engine's: a game's `TurnContext` inherits
`TurnLog` and says only which turn its events belong to and, where its rules speak of sides
rather than players, whose name a side stands for.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from ..dice import Dice
from .base import Event


class TurnLog(abc.ABC):
    """Events and dice marks for a turn context (a dataclass with ``events`` and ``dice``);
    a context that does not say `event_turn` cannot be made."""

    events: list[Event]
    dice: Dice
    #: Who may read an event when the rule gives no audience: everyone (``("*",)``), or the
    #: referee alone (``()``).
    default_audience: ClassVar[tuple[str, ...]] = ()

    @property
    @abc.abstractmethod
    def event_turn(self) -> int:
        """The turn (year, week...) this turn's events are recorded under."""

    def audience(self, name: str) -> str:
        """The player an event's ``players``/``visible_to`` name stands for (``*`` as is)."""
        return name

    def emit(
        self,
        phase: str,
        location: str,
        kind: str,
        text: str,
        *,
        players: Iterable[str] = (),
        visible_to: Iterable[str] | None = None,
        data: Mapping[str, Any] | None = None,
        dice: Iterable[int] = (),
    ) -> Event:
        """Record an event (`Event.told`: ``visible_to`` sorted, ``*`` alone for everyone)."""
        seen = self.default_audience if visible_to is None else visible_to
        event = Event.told(
            self.event_turn,
            phase,
            location,
            kind,
            text,
            map(self.audience, players),
            map(self.audience, seen),
            data,
            dice,
        )
        self.events.append(event)
        return event

    def tell(self, player: str, *args: Any, **kwargs: Any) -> Event:
        """`emit` an event about ``player`` that only ``player`` may read."""
        return self.emit(*args, players=(player,), visible_to=(player,), **kwargs)

    def dice_mark(self) -> int:
        """The sequence number the next roll will get (to collect an event's dice)."""
        return len(self.dice.log) + 1

    def dice_since(self, mark: int) -> tuple[int, ...]:
        """Sequence numbers of the rolls made since `dice_mark` returned ``mark``."""
        return tuple(range(mark, len(self.dice.log) + 1))

    def last_rolls(self, count: int) -> tuple[int, ...]:
        """Sequence numbers of the last ``count`` dice rolled (for an event's ``dice``)."""
        return tuple(r.seq for r in self.dice.log[-count:]) if count else ()
