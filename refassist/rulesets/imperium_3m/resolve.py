"""One turn of Imperium 3rd Millennium, in the seed's sequence of play.

1. Administrative segment (`admin`): Imperial Intervention, Imperial Appeal, production,
   reinforcements placement, construction (and terraforming, outpost upgrades).
2. Four action segments (`segments`): initiative, alternating activations from the two sheets,
   movement, stealth scouting, space battles (`space_battle`) and planetary battles
   (`planet_battle`).
3. Close-out (`closeout`): maintenance, scrapping, repair, ground repair, augmentation.
4. Glory and the calendar (`glory`): victory check, the end of a war, the inter-war sequence.

A pure function of state, orders and dice: the input state is copied first, so a turn re-runs
from the archive to the same result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dice import Dice
from ..base import Resolution
from . import admin, closeout, glory, segments
from .context import TurnContext
from .orders import Orders
from .state import State

SEGMENTS = 4


def resolve_turn(
    state: State, orders: Mapping[str, Orders], dice: Dice, rules: Mapping[str, Any]
) -> Resolution:
    """The next state and the turn's events."""
    ctx = TurnContext.start(state, orders, dice, rules)
    # "The way it came" is this turn's way: a fleet that has sat in a system since an earlier
    # turn retreats towards home, not back along an old move.
    for fleet in ctx.state.fleets:
        fleet.came_from = ""
    with dice.at(phase="administration", location=""):
        admin.administrative_segment(ctx)
    for segment in range(1, SEGMENTS + 1):
        ctx.segment = segment
        ctx.moved.clear()
        with dice.at(phase=f"action {segment}", location=""):
            segments.action_segment(ctx, segment)
    ctx.segment = 0
    with dice.at(phase="close-out", location=""):
        closeout.close_out(ctx)
    with dice.at(phase="glory", location=""):
        glory.end_of_turn(ctx)
        admin.reserve_counters(ctx)
    ctx.keep_standing_orders()
    ctx.state.events = list(ctx.events)
    ctx.state.dice = list(dice.log)
    battles = sum(1 for e in ctx.events if e.kind == "battle")
    summary = f"turn {state.turn}: {battles} battle{'s' if battles != 1 else ''}"
    if ctx.state.finished:
        summary += f"; {ctx.state.finished}"
    return Resolution(ctx.state, ctx.events, summary)
