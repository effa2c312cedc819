"""Fifth Millennium: fleet battles for control of a Traveller sector (2-20 players).

The ruleset object only wires the game's modules to the engine's interface; each area of the
rules lives in its own module (`setup`, `tables`, `sheet`, `parse`, `validate`, `movement`,
`conflict`, `production`, `trade`, `unrest`, `visibility`, `ai`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...text.words import counted
from ..base import (
    Event,
    HouseRule,
    ReportContent,
    ReportInput,
    Ruleset,
    Scores,
    Standing,
    Step,
)
from .orders import Orders
from .rules import HOUSE_RULES
from .state import SETUP_YEAR, State
from .view import PlayerView

if TYPE_CHECKING:
    from ...drawings.mapmodel import SectorMap


class FifthMillennium(Ruleset[State, Orders]):
    """The Fifth Millennium ruleset (see ``shared/seeds/fifth-millennium.md``)."""

    name: ClassVar[str] = "fifth-millennium"
    aliases: ClassVar[tuple[str, ...]] = ("fifth_millennium", "5m", "fm", "fifth millennium")
    title: ClassVar[str] = "Fifth Millennium"
    vocabulary: ClassVar[tuple[str, ...]] = ("squadron",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 64
    house_rules: ClassVar[tuple[HouseRule, ...]] = HOUSE_RULES
    #: The first game refassist refereed: the default of ``refassist new`` and the demo.
    order: ClassVar[int] = 0
    #: Played on a sector file or on a sector generated from a seed; there is no default map.
    map_required: ClassVar[bool] = True
    generates_maps: ClassVar[bool] = True
    #: The referee's last year ends a game after two turns.
    bounded_game: ClassVar[Mapping[str, Any]] = {"last_year": SETUP_YEAR + 2}

    # -- life cycle ---------------------------------------------------------------------------
    def current_step(self, state: State) -> Step:
        label = (
            "Set-up: choose your homeworld" if state.year == SETUP_YEAR else f"Year {state.year}"
        )
        return Step(key=str(state.year), label=label, expects=tuple(state.active_players()))

    def start_positions(self, state: State) -> dict[str, str]:
        out = {}
        for player in state.players:
            system = state.system(player.homeworld) if player.homeworld else None
            if system is not None:
                out[player.name] = f"{system.hex} {system.name}"
        return out

    # -- demo -----------------------------------------------------------------------------------
    def in_game(self, state: State) -> list[str]:
        """Every player not eliminated (an elimination is announced to all)."""
        return [p.name for p in state.players if not p.eliminated]

    def scores(self, state: State) -> Scores:
        """Systems each empire owns: what wins the game."""
        owned = dict.fromkeys(state.player_names(), 0)
        for system in state.systems:
            if system.owner:
                owned[system.owner] = owned.get(system.owner, 0) + 1
        return Scores("systems owned", owned)

    def standing(self, state: State) -> Standing | None:
        """The empire owning the most systems (ties to the first name)."""
        owned = {p: int(n) for p, n in self.scores(state).values.items() if n}
        if not owned:
            return None
        leader = min(owned, key=lambda p: (-owned[p], p))
        return Standing(leader, owned[leader], "system")

    def turn_highlights(self, state: State, events: Sequence[Event]) -> str:
        """Battles, captures of owned systems and systems newly occupied."""
        battles = sum(1 for e in events if e.kind == "battle")
        captures = sum(1 for e in events if e.kind == "capture" and e.data.get("from"))
        occupied = sum(1 for e in events if e.kind == "capture" and not e.data.get("from"))
        fights = f"{counted(battles, 'battle')}, {counted(captures, 'capture')}"
        return f"{fights}, {occupied} newly occupied"

    # -- information --------------------------------------------------------------------------
    def players(self, state: State) -> list[str]:
        return state.player_names()

    # -- reports ------------------------------------------------------------------------------
    def report_map(self, state: State) -> Any:
        from .report import report_map

        return report_map(state)

    def player_content(
        self, view: PlayerView, info: ReportInput, public: SectorMap | None
    ) -> ReportContent:
        from .report import player_content

        assert public is not None  # a sector game always has its map
        return player_content(view, public, info)

    def referee_content(
        self, state: State, info: ReportInput, public: SectorMap | None
    ) -> ReportContent:
        from .report import referee_content

        assert public is not None  # a sector game always has its map
        return referee_content(state, public, info)


RULESET = FifthMillennium()
