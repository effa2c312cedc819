"""Fifth Millennium: fleet battles for control of a Traveller sector (2-20 players).

The ruleset object only wires the game's modules to the engine's interface; each area of the
rules lives in its own module (`setup`, `tables`, `sheet`, `parse`, `validate`, `movement`,
`conflict`, `production`, `trade`, `unrest`, `visibility`, `ai`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...dice import Dice
from ...errors import CellProblem
from ..base import (
    Event,
    HouseRule,
    NewGame,
    ReportContent,
    ReportInput,
    Resolution,
    Row,
    Ruleset,
    SheetRead,
    Standing,
    Step,
    Table,
)
from . import setup as _setup
from . import tables as _tables
from .orders import Orders
from .rules import HOUSE_RULES
from .state import SETUP_YEAR, State
from .view import PlayerView

if TYPE_CHECKING:
    from ...report.mapmodel import SectorMap
    from ...workbook.sheetio import TurnSheetFile


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

    # -- life cycle ---------------------------------------------------------------------------
    def new_game(self, setup: NewGame, dice: Dice) -> State:
        return _setup.new_game(setup, dice, self.rules_with_defaults(setup.house_rules))

    def current_step(self, state: State) -> Step:
        label = (
            "Set-up: choose your homeworld" if state.year == SETUP_YEAR else f"Year {state.year}"
        )
        return Step(key=str(state.year), label=label, expects=tuple(state.active_players()))

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Any],
        dice: Dice,
        house_rules: Mapping[str, Any],
    ) -> Resolution:
        from .resolve import resolve_turn

        return resolve_turn(state, orders, dice, self.rules_with_defaults(house_rules))

    def game_over(self, state: State) -> str:
        return state.finished

    # -- master workbook ----------------------------------------------------------------------
    def schema(self) -> tuple[Table, ...]:
        return _tables.SCHEMA

    def to_tables(self, state: State) -> dict[str, list[dict[str, Any]]]:
        return _tables.to_tables(state)

    def from_tables(
        self, tables: Mapping[str, Sequence[Row]], problems: list[CellProblem]
    ) -> State | None:
        return _tables.from_tables(tables, problems)

    def to_json(self, state: State) -> dict[str, Any]:
        return _tables.to_json(state)

    # -- turn sheets --------------------------------------------------------------------------
    def write_sheet(
        self,
        state: State,
        player: str,
        path: Path,
        token: str,
        deadline: str,
        house_rules: Mapping[str, Any] | None = None,
    ) -> None:
        from .sheet import write_sheet

        write_sheet(
            state,
            player,
            Path(path),
            token=token,
            deadline=deadline,
            house_rules=self.rules_with_defaults(house_rules or {}),
        )

    def read_sheet(self, path: Path, opened: TurnSheetFile | None = None) -> SheetRead:
        from .sheet import read_sheet

        return read_sheet(Path(path), opened)

    def validate(
        self, state: State, player: str, orders: Any, house_rules: Mapping[str, Any]
    ) -> list[CellProblem]:
        from .validate import validate_orders

        return validate_orders(state, player, orders, self.rules_with_defaults(house_rules))

    def orders_text(self, orders: Any) -> list[str]:
        from .sheet import orders_text

        return orders_text(orders)

    def computer_orders(
        self, state: State, player: str, seed: int, house_rules: Mapping[str, Any]
    ) -> Any:
        from .ai import computer_orders

        return computer_orders(state, player, seed, self.rules_with_defaults(house_rules))

    def fill_sheet(self, path: Path, orders: Any) -> None:
        from .sheet import fill_sheet

        fill_sheet(Path(path), orders)

    def start_positions(self, state: State) -> dict[str, str]:
        out = {}
        for player in state.players:
            system = state.system(player.homeworld) if player.homeworld else None
            if system is not None:
                out[player.name] = f"{system.hex} {system.name}"
        return out

    # -- demo -----------------------------------------------------------------------------------
    def standing(self, state: State) -> Standing | None:
        """The empire owning the most systems (ties to the first name): what wins the game."""
        owned: dict[str, int] = {}
        for system in state.systems:
            if system.owner:
                owned[system.owner] = owned.get(system.owner, 0) + 1
        if not owned:
            return None
        leader = min(owned, key=lambda p: (-owned[p], p))
        return Standing(leader, owned[leader], "system")

    def turn_highlights(self, state: State, events: Sequence[Event]) -> str:
        """Battles, captures of owned systems and systems newly occupied."""

        def count(n: int, word: str) -> str:
            return f"{n} {word}{'s' if n != 1 else ''}"

        battles = sum(1 for e in events if e.kind == "battle")
        captures = sum(1 for e in events if e.kind == "capture" and e.data.get("from"))
        occupied = sum(1 for e in events if e.kind == "capture" and not e.data.get("from"))
        return (
            f"{count(battles, 'battle')}, {count(captures, 'capture')}, {occupied} newly occupied"
        )

    # -- information --------------------------------------------------------------------------
    def players(self, state: State) -> list[str]:
        return state.player_names()

    def player_view(
        self, state: State, player: str, house_rules: Mapping[str, Any] | None = None
    ) -> Any:
        from .visibility import player_view

        return player_view(state, player, self.rules_with_defaults(house_rules or {}))

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
