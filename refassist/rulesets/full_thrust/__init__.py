"""The Full Thrust campaign (M. R. Blair's "More Thrust" campaign rules): commanders order a
week of activities for every ship in decimal time on a square parsec grid; the referee runs
the economy and the random tables; battles are fought on the tabletop and their results come
back to the referee.

The ruleset object writes only what is the game's own; the engine finds the rest by module
name in this package (`setup`, `resolve`, `tables`, `sheet`, `validate`, `ai`, `visibility`;
the rules in `grid`, `clock`, `charts`, `timeline`, `travel`, `economy`).  Its steps: week 0,
the set-up; then each week; and, after a week that opened battles, the battles of that week
(``3-battles``), a step that waits for the referee: it expects the battles, not the
commanders, each with a battle sheet whose result part the referee fills in and files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...text.words import counted
from ..base import Event, HouseRule, Ruleset, Scores, Standing, Step
from .orders import Orders
from .rules import HOUSE_RULES
from .setup import SETUP_WEEK
from .state import State


class FullThrustCampaign(Ruleset[State, Orders]):
    """The Full Thrust campaign (see ``shared/seeds/full-thrust-campaign.txt``)."""

    name: ClassVar[str] = "full-thrust-campaign"
    aliases: ClassVar[tuple[str, ...]] = ("full-thrust", "fullthrust", "more-thrust")
    title: ClassVar[str] = "Full Thrust campaign"
    vocabulary: ClassVar[tuple[str, ...]] = ("hasty jump", "crack ship", "tabletop")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    house_rules: ClassVar[tuple[HouseRule, ...]] = HOUSE_RULES
    order: ClassVar[int] = 300
    bounded_game: ClassVar[Mapping[str, Any]] = {"last_week": 2}
    start_word: ClassVar[str] = "home"

    # -- life cycle ---------------------------------------------------------------------------
    def current_step(self, state: State) -> Step:
        if state.battles:
            battles = tuple(b.id for b in state.battles)
            return Step(
                key=f"{state.week}-battles",
                # No count: a commander not in a battle may not learn how many were found.
                label=f"Week {state.week}: battles for the tabletop",
                expects=battles,
                waits_for_referee=True,
                dice_turn=2 * state.week + 1,
            )
        label = "Set-up: the starting fleets" if state.week == SETUP_WEEK else f"Week {state.week}"
        names = tuple(c.name for c in state.commanders if not c.eliminated)
        return Step(key=str(state.week), label=label, expects=names, dice_turn=2 * state.week)

    # -- the demo -----------------------------------------------------------------------------
    def scores(self, state: State) -> Scores:
        """The total Value of each commander's planets."""
        held = {c.name: 0 for c in state.commanders}
        for s in state.systems.values():
            if s.owner and s.planet:
                held[s.owner] = held.get(s.owner, 0) + s.value
        return Scores("Value of planets held", held)

    def standing(self, state: State) -> Standing | None:
        """The commander whose planets have the greatest total Value."""
        held = {name: int(v) for name, v in self.scores(state).values.items() if v}
        if not held:
            return None
        leader = max(sorted(held), key=lambda name: held[name])
        return Standing(leader, held[leader], "Value point")

    def start_positions(self, state: State) -> dict[str, str]:
        return {c.name: c.home for c in state.commanders}

    def turn_highlights(self, state: State, events: Sequence[Event]) -> str:
        """Battles left for the table (or results entered), invasions, ships in play."""
        results = sum(1 for e in events if e.kind == "battle_result")
        invasions = sum(1 for e in events if e.kind == "invasion")
        done = (
            f"{counted(results, 'battle result')} entered"
            if results
            else f"{counted(len(state.battles), 'battle')} for the table"
        )
        return (
            f"{done}, {counted(invasions, 'invasion')}, {counted(len(state.ships), 'ship')} in play"
        )

    # -- information --------------------------------------------------------------------------
    def players(self, state: State) -> list[str]:
        return [c.name for c in state.commanders]


RULESET = FullThrustCampaign()

__all__ = ["RULESET", "FullThrustCampaign"]
