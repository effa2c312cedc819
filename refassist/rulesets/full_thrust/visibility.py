"""What a commander may know: the fog of war of the campaign.

The map itself (squares, places, Values, belts, sites, obstacles) is the referee's handout and
known to all.  Beyond it a commander knows everything of its own (ships, facilities, stocks,
research), and at the places where it has a ship in service or a planet at the start of the
week (its sight) it sees who holds the place, its port, whether its belt is worked out, and the
other commanders' ships there, as sight shows them (`view.SeenShip`: no fuel, cargo, damage,
crew or drive).  Everything else it learns only from events addressed to it (a battle its
ships fought, a report of its spies), which the reports filter by `Event.visible_to`.

This module is the one place that decides it: the report and the turn sheet are written from
`player_view`, and the checker and the week judge an order that depends on who holds a place
(an invasion, points given to another commander) by `known_holders`, so that what a sheet's
checker says cannot tell a commander more than its report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..base import Secret
from .state import Battle, InBattle, State, System
from .view import BattleView, Condition, PlaceView, PlayerView, SeenShip, ShipInBattle


def sight(state: State, player: str) -> set[str]:
    """The places where ``player`` has a ship in service or a planet."""
    ships = {s.place for s in state.ships if s.owner == player and not s.ready_week}
    return ships | {s.name for s in state.systems.values() if s.owner == player}


def known_holders(state: State, player: str) -> dict[str, str]:
    """Who holds each place in ``player``'s sight ("" for neutral); a place left out is one
    whose holder it does not know."""
    return {place: state.systems[place].owner for place in sight(state, player) if place}


def place_view(system: System, in_sight: bool, reader: str = "") -> PlaceView:
    """``system`` as a commander (``reader``) knows it (the referee's map: every place in
    sight); its ground defences only if it is the reader's own planet."""
    return PlaceView(
        name=system.name,
        square=system.square,
        kind=system.kind,
        value=system.value,
        belt=system.belt,
        worked_out=system.belt_worked_out and in_sight,
        ancient_site=system.ancient_site,
        home=system.home,
        owner=system.owner if in_sight else "",
        port=system.port if in_sight else "",
        in_sight=in_sight,
        defences=dict(system.defences) if reader and system.owner == reader else {},
    )


def battle_view(battle: Battle, knows: Callable[[InBattle], bool]) -> BattleView:
    """``battle`` with the condition (damage, cargo, crack) of the ships ``knows`` says the
    reader knows; the others' are found out on the table."""
    return BattleView(
        id=battle.id,
        week=battle.week,
        place=battle.place,
        hour=battle.hour,
        invasion=battle.invasion,
        ships=tuple(
            ShipInBattle(
                ship=s.ship,
                owner=s.owner,
                design=s.design,
                arrives=s.arrives,
                inches=s.inches,
                bearing=s.bearing,
                deviation=s.deviation,
                deviation_bearing=s.deviation_bearing,
                condition=Condition(s.damage, s.cargo, s.crack) if knows(s) else None,
            )
            for s in battle.ships
        ),
    )


def player_view(state: State, player: str, rules: Mapping[str, Any] | None = None) -> PlayerView:
    commander = state.commander(player)
    if commander is None:
        raise KeyError(player)
    ships = [s for s in state.ships if s.owner == player]
    known = known_holders(state, player)
    return PlayerView(
        commander=commander,
        game_name=state.game_name,
        game_id=state.game_id,
        week=state.week,
        columns=state.columns,
        rows=state.rows,
        map_title=state.map_title,
        places=[
            place_view(s, s.name in known, player)
            for s in sorted(state.systems.values(), key=lambda s: s.name)
        ],
        obstacles=sorted(state.obstacles),
        ships=sorted(ships, key=lambda s: s.id),
        facilities=[f for f in state.facilities if f.owner == player],
        yards=frozenset(state.yards(player)),
        stocks={place: p for (place, owner), p in sorted(state.stocks.items()) if owner == player},
        seen=[
            SeenShip(s.id, s.owner, s.design, s.place, s.landed)
            for s in sorted(state.ships, key=lambda s: (s.place, s.id))
            if s.owner != player and s.place in known and not s.ready_week
        ],
        battles=[
            battle_view(b, lambda s: s.owner == player) for b in state.battles if player in b.sides
        ],
        rivals=tuple(c.name for c in state.commanders if c.name != player),
        events=[e for e in state.events if e.visible(player)],
        designs=dict(state.designs),
        finished=state.finished,
    )


def hidden_from(state: State, player: str, rules: Mapping[str, Any] | None = None) -> list[Secret]:
    """What the rules hide from ``player``, as a page would tell it (the engine's audit of
    what players receive, `Ruleset.hidden_from`): another commander's ship out of sight, by
    its id, unless an event told to the commander named it (a battle it fought); who holds a
    planet out of sight (its name and its holder on one line)."""
    view = player_view(state, player, rules)
    seen = {s.id for s in view.ships} | {s.id for s in view.seen}
    told = " ".join(e.text for e in view.events) + " " + " ".join(str(e.data) for e in view.events)
    out = [
        Secret.phrase(s.id, f"{s.owner}'s ship {s.id}, out of sight")
        for s in state.ships
        if s.id not in seen and not re.search(rf"(?<![\w-]){re.escape(s.id)}(?![\w-])", told)
    ]
    known = {p.name: p.owner for p in view.places}
    for system in state.systems.values():
        owner = system.owner
        if owner and owner != player and not known.get(system.name):
            out.append(
                Secret(
                    rf"(?<![\w-]){re.escape(system.name)}(?![\w-])[^\n]{{0,60}}"
                    rf"(?<![\w-]){re.escape(owner)}(?![\w-])",
                    f"that {owner} holds {system.name}, out of sight",
                )
            )
    return out


__all__ = ["battle_view", "hidden_from", "known_holders", "place_view", "player_view", "sight"]
