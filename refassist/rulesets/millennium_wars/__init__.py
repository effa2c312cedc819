"""Millennium Wars: a two-sided operational wargame on a terrain hex map.

The ruleset object only wires the game's modules to the engine's interface; each area of the
rules lives in its own module: ``scenario`` (the referee's file and the training scenario),
``terrain``, ``units``, ``board``, ``movement``, ``crt`` and ``combat``, ``charts``,
``politics``, ``supply``, ``sequence`` (the exchanges of a game turn), ``resolve``, ``sheet``,
``validate``, ``tables``, ``visibility``, ``report``, ``ai``.

Its steps are the exchanges of a game turn: the phasing player's impulse sheet, then the other
player's reaction sheet (keys ``TURN-PLAYER-IMPULSE``, ``r`` for the reaction, e.g.
``3-1-2r``), and the ceasefire answers both players give when the UN demands one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...dice import Dice
from ...text.words import counted
from ..base import Event, HouseRule, Resolution, Ruleset, Scores, Standing, Step
from .orders import Orders
from .rules import HOUSE_RULES
from .state import State


class MillenniumWars(Ruleset[State, Orders]):
    """Millennium Wars (see ``shared/seeds/millennium-wars.md``)."""

    name: ClassVar[str] = "millennium-wars"
    aliases: ClassVar[tuple[str, ...]] = ("millennium_wars", "mw", "millenniumwars")
    title: ClassVar[str] = "Millennium Wars"
    vocabulary: ClassVar[tuple[str, ...]] = ("cybercadre", "c4i", "air-land battle")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    house_rules: ClassVar[tuple[HouseRule, ...]] = HOUSE_RULES
    order: ClassVar[int] = 400
    map_files: ClassVar[str] = "default map (the training scenario) or --scenario FILE"
    start_word: ClassVar[str] = "side"
    step_word: ClassVar[str] = "exchange"
    #: One game turn of fast play: at most five exchanges of the training scenario.
    bounded_game: ClassVar[Mapping[str, Any]] = {"last_turn": 1, "fast_play": True}

    # -- life cycle ---------------------------------------------------------------------------
    def current_step(self, state: State) -> Step:
        from .state import exchange_words

        point = state.point
        if point.ceasefire:
            expects = tuple(s.player for s in state.sides)
        else:
            expects = ((state.reacting if point.reaction else state.phasing).player,)
        return Step(
            point.key,
            exchange_words(state),
            expects,
            dice_turn=point.dice_turn,
            game_turn=point.turn,
        )

    def resolve(
        self,
        state: State,
        orders: Mapping[str, Orders],
        dice: Dice,
        house_rules: Mapping[str, Any],
    ) -> Resolution:
        """The engine's resolution, with each player's unit ids first spelled as the state
        spells them (`validate.with_state_ids`): the checker accepted ``n-1ar`` for ``N-1AR``,
        so the resolution must carry it out."""
        from .validate import with_state_ids

        rules = self.rules_with_defaults(house_rules)
        spelled = {p: with_state_ids(state, p, o, rules) for p, o in orders.items()}
        return super().resolve(state, spelled, dice, house_rules)

    # -- the demo -----------------------------------------------------------------------------
    def scores(self, state: State) -> Scores:
        """The objective points each side holds."""
        points = {s.name: 0 for s in state.sides}
        for hex_, side in state.held.items():
            if side in points:
                points[side] += state.scenario.objectives[hex_]
        return Scores("objective points held", points)

    def standing(self, state: State) -> Standing | None:
        """The side holding the most objective points (None on a tie)."""
        points = self.scores(state).values
        (a, pa), (_, pb) = sorted(points.items(), key=lambda kv: -kv[1])
        if pa == pb:
            return None
        return Standing(state.side(a).player, int(pa), "objective point")

    def start_positions(self, state: State) -> dict[str, str]:
        return {s.player: s.name for s in state.sides}

    def turn_highlights(self, state: State, events: Sequence[Event]) -> str:
        """Moves made, attacks fought, units eliminated, where the Political Index stands, and
        the exchanges skipped after it."""
        moves = sum(1 for e in events if e.kind == "move")
        attacks = [e for e in events if e.kind == "attack"]
        lost = sum(len(e.data.get("eliminated", ())) for e in attacks)
        skipped = {e.data.get("step") for e in events if e.kind == "exchange_skipped"}
        return (
            f"{counted(moves, 'move')}, {counted(len(attacks), 'attack')} fought, "
            f"{counted(lost, 'unit')} eliminated, Political Index {state.political_index}"
            + (f", {counted(len(skipped), 'exchange')} skipped" if skipped else "")
        )

    def status_notes(self, state: State) -> list[str]:
        """The exchanges the last resolution skipped, each with why (the referee reads every
        reason, including what only one side was told)."""
        seen: dict[str, str] = {}
        for e in state.events:
            if e.kind == "exchange_skipped" and e.data.get("why"):
                seen.setdefault(str(e.data["step"]), str(e.data["why"]))
        return [f"Skipped {key}: {why}" for key, why in seen.items()]

    # -- information --------------------------------------------------------------------------
    def players(self, state: State) -> list[str]:
        return [s.player for s in state.sides]


RULESET = MillenniumWars()

__all__ = ["RULESET", "MillenniumWars"]
