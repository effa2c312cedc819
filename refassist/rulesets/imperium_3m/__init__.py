"""Imperium 3rd Millennium: the Terran-Imperial wars, two sides on a map of jump routes.

The ruleset object only wires the game's modules to the engine's interface; each area of the
rules lives in its own module (`setup`, `mapfile`, `admin`, `segments`, `space_battle`,
`planet_battle`, `closeout`, `glory`, `sheet`, `validate`, `tables`, `visibility`, `report`,
`ai`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...errors import UsageError
from ...text.words import counted
from ..base import (
    Event,
    HouseRule,
    PlayerSetup,
    Ruleset,
    Scores,
    Standing,
    Step,
)
from .orders import Orders
from .rules import HOUSE_RULES
from .state import State


class Imperium3M(Ruleset[State, Orders]):
    """The Imperium 3rd Millennium ruleset (see ``shared/seeds/imperium-3rd-millennium.txt``)."""

    #: The glory index is a track on the table both players read.
    public_standings = True

    name: ClassVar[str] = "imperium-3m"
    aliases: ClassVar[tuple[str, ...]] = (
        "imperium",
        "imperium_3m",
        "i3m",
        "imperium-3rd-millennium",
        "imperium 3rd millennium",
    )
    title: ClassVar[str] = "Imperium 3rd Millennium"
    vocabulary: ClassVar[tuple[str, ...]] = ("terran", "imperial")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    house_rules: ClassVar[tuple[HouseRule, ...]] = HOUSE_RULES
    #: One war, not a campaign: the game ends with it, by its tenth war turn at the latest.
    bounded_game: ClassVar[Mapping[str, Any]] = {"campaign": False}

    # -- life cycle ---------------------------------------------------------------------------
    def current_step(self, state: State) -> Step:
        if state.war_turn:
            label = f"Turn {state.turn} (war {state.war}, turn {state.war_turn})"
        else:
            label = (
                f"Turn {state.turn} (peace, {counted(state.peace_left, 'turn')} to the next war)"
            )
        return Step(key=str(state.turn), label=label, expects=tuple(state.player_names()))

    # -- the demo -----------------------------------------------------------------------------
    def demo_players(self, count: int) -> list[PlayerSetup]:
        """Two computer sides named for what they are, Terra and Empire."""
        if count != 2:
            raise UsageError(f"the {self.title} demo is played by 2 sides, not {count}")
        return [
            PlayerSetup("Terra", "terra@example.com", homeworld="Terran", computer=True),
            PlayerSetup("Empire", "empire@example.com", homeworld="Imperial", computer=True),
        ]

    def scores(self, state: State) -> Scores:
        """The glory index, one track both sides see (0-10; above 5 the war leans to the
        Imperials)."""
        return Scores("glory index (above 5 favours the Imperials)", {"Glory index": state.glory})

    def standing(self, state: State) -> Standing | None:
        """The side the glory index leans to, by its distance from the even 5 (None at 5)."""
        if state.glory == 5:
            return None
        side = "Imperial" if state.glory > 5 else "Terran"
        return Standing(state.player_of(side), abs(state.glory - 5), "glory point")

    def turn_highlights(self, state: State, events: Sequence[Event]) -> str:
        """Space battles, landings, planets captured and where the glory index stands."""

        battles = sum(1 for e in events if e.kind == "battle")
        landings = sum(1 for e in events if e.kind == "landing")
        captures = sum(1 for e in events if e.kind == "capture")
        line = (
            f"{counted(battles, 'space battle')}, {counted(landings, 'landing')}, "
            f"{counted(captures, 'capture')}, glory {state.glory}"
        )
        # The index is reset when a war ends, so the result itself must be said.
        ended = [e.text for e in events if e.kind == "war end"]
        return line + "".join(f" ({text})" for text in ended)

    # -- information --------------------------------------------------------------------------
    def players(self, state: State) -> list[str]:
        return state.player_names()


RULESET = Imperium3M()
