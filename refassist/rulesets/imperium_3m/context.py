"""What the rule modules share while one turn is resolved: the working state and bookkeeping.

`resolve.resolve_turn` copies the state once and hands every segment a `TurnContext`; the rule
modules (`admin`, `segments`, `space_battle`, `planet_battle`, `closeout`, `glory`) change the
copy and append events here, so each area lives in its own module without calling the others
in circles.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...dice import Dice
from ..base import Event
from ..turnlog import TurnLog
from .orders import Orders, no_orders, standing_orders, standing_text
from .rules import complete
from .state import State
from .units import SIDES, UnitType, unit_type

EVERYONE = ("*",)


def with_standing_orders(state: State, side: str, orders: Orders) -> Orders:
    """``orders`` with a battle-orders row added for each of the side's fleets that has
    standing orders and no row on the sheet (no sheet came, or the row was left off): battle
    orders are standing orders, kept until the player changes them."""
    listed = {b.fleet for b in orders.battle_orders}
    added = [
        standing_orders(f.name, f.standing)
        for f in sorted(state.fleets, key=lambda f: f.name)
        if f.side == side and f.standing and f.name not in listed
    ]
    if not added:
        return orders
    return dataclasses.replace(orders, battle_orders=[*orders.battle_orders, *added])


@dataclass
class TurnContext(TurnLog):
    """The working copy of the state, the dice, the house rules and the turn's memory; its
    events and dice marks are recorded as every game's are (`TurnLog`), a side's name
    standing for its player."""

    state: State
    dice: Dice
    rules: Mapping[str, Any]
    orders: dict[str, Orders] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    #: Glory changes this turn as (delta, reason), before doubling/tripling by a Visit.
    glory_changes: list[tuple[int, str]] = field(default_factory=list)
    #: Units (side, id) that moved in the current action segment.
    moved: set[tuple[str, str]] = field(default_factory=set)
    #: Systems where a space battle was fought this turn.
    battles: list[str] = field(default_factory=list)
    #: Planets where a planetary battle took place this turn (terraforming progress is lost).
    planet_battles: set[str] = field(default_factory=set)
    #: Current action segment (0 in the administrative segment and close-out).
    segment: int = 0

    def __post_init__(self) -> None:
        # Every rule present, whoever made the context: the modules read ctx.rules[key].
        self.rules = complete(self.rules)
        # And every side's orders (a context made by hand, in set-up or a test, may name
        # none): the rules read ctx.orders[side] without asking whether it is there.
        for side in SIDES:
            if side not in self.orders:
                self.orders[side] = no_orders(self.state.player_of(side), side, self.state.turn)

    @classmethod
    def start(
        cls, state: State, orders: Mapping[str, Orders], dice: Dice, rules: Mapping[str, Any]
    ) -> TurnContext:
        """A context for resolving ``state``'s turn; sides with no sheet get `no_orders`."""
        work = state.copy()
        work.events = []
        work.revealed = {}
        by_side: dict[str, Orders] = {}
        for side in SIDES:
            player = work.player_of(side)
            by_side[side] = with_standing_orders(
                work, side, orders.get(player) or no_orders(player, side, work.turn)
            )
        return cls(state=work, dice=dice, rules=rules, orders=by_side)

    def keep_standing_orders(self) -> None:
        """At the end of the turn, each fleet keeps the battle orders it was given (a sheet's
        row, or its standing orders again): its next sheet is pre-filled with them."""
        for side, sheet in self.orders.items():
            for fleet in self.state.fleets:
                if fleet.side == side:
                    fleet.standing = standing_text(sheet.battle_orders_for(fleet.name))

    def unit_type(self, side: str, code: str) -> UnitType:
        return unit_type(side, code, int(self.rules["imperial_bb_maintenance"]))

    def player(self, side: str) -> str:
        return self.state.player_of(side)

    # -- events: its rules name sides, the events their players ------------------------------
    default_audience = EVERYONE

    @property
    def event_turn(self) -> int:
        return self.state.turn

    def audience(self, name: str) -> str:
        return self.player(name) if name in SIDES else name

    def glory(self, delta: int, reason: str, location: str = "") -> None:
        """Move the glory index (positive = towards the Empire), doubled/tripled on a Visit."""
        imperial = self.state.sides["Imperial"]
        applied = delta
        if imperial.visit:
            applied = delta * 2 if delta > 0 else delta * 3
        self.state.glory = max(0, min(10, self.state.glory + applied))
        self.glory_changes.append((applied, reason))
        # A battle's glory is told in the segment of the battle, so the report puts it there
        # (under "Glory and the war" only what the end of the turn decides).
        self.emit(
            f"action {self.segment}" if self.segment else "glory",
            location,
            "glory",
            f"Glory {applied:+d} ({reason}): index now {self.state.glory}",
            data={"delta": applied, "reason": reason, "index": self.state.glory},
        )
