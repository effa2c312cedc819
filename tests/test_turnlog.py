"""The engine's event recording (`TurnLog`) on a context of no game: audience, turn, dice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import pytest

from refassist.dice import Dice
from refassist.rulesets.base import Event
from refassist.rulesets.turnlog import TurnLog


@dataclass
class _Quiet(TurnLog):
    """Events for the referee unless told otherwise; names are players."""

    dice: Dice
    turn: int = 7
    events: list[Event] = field(default_factory=list)

    @property
    def event_turn(self) -> int:
        return self.turn


@dataclass
class _Sided(_Quiet):
    """Events for everyone unless told otherwise; the rules name sides, events their players."""

    default_audience: ClassVar[tuple[str, ...]] = ("*",)

    def audience(self, name: str) -> str:
        return {"Red": "Ann", "Blue": "Bob"}.get(name, name)


def test_default_audience_and_the_turn() -> None:
    quiet = _Quiet(Dice.scripted([]))
    e = quiet.emit("move", "0101", "arrival", "A fleet arrives.", players=("Bob", "Ann", "Bob"))
    assert (e.turn, e.players, e.visible_to) == (7, ("Bob", "Ann"), ())
    sided = _Sided(Dice.scripted([]), turn=3)
    e = sided.emit("move", "", "news", "Both read this.", players=("Red",))
    assert (e.turn, e.players, e.visible_to) == (3, ("Ann",), ("*",))
    assert sided.events == [e] and quiet.events[0].text == "A fleet arrives."


def test_tell_maps_sides_to_players_and_keeps_data() -> None:
    sided = _Sided(Dice.scripted([]))
    e = sided.tell("Blue", "battle", "SOL", "hit", "One hit.", data={"hits": 1})
    assert (e.players, e.visible_to, e.data) == (("Bob",), ("Bob",), {"hits": 1})
    e = sided.emit("battle", "SOL", "seen", "Both see it.", visible_to=("Blue", "Red"))
    assert e.visible_to == ("Ann", "Bob")


def test_dice_marks_and_last_rolls() -> None:
    log = _Quiet(Dice.scripted([4, 2, 6, 1]))
    log.dice.d6("before")
    mark = log.dice_mark()
    assert mark == 2 and log.dice_since(mark) == ()
    log.dice.nd6(2, "the battle")
    assert log.dice_since(mark) == (2, 3)
    assert log.last_rolls(1) == (3,) and log.last_rolls(0) == ()
    e = log.emit("battle", "", "fight", "Rolled.", dice=log.dice_since(mark))
    assert e.dice == (2, 3)


def test_a_context_must_say_which_turn_its_events_belong_to() -> None:
    @dataclass
    class _Unsaid(TurnLog):
        dice: Dice
        events: list[Event] = field(default_factory=list)

    with pytest.raises(TypeError, match="event_turn"):
        _Unsaid(Dice.scripted([]))  # type: ignore[abstract]
