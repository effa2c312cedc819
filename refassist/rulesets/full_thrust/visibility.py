"""What a commander may know: the fog of war of the campaign.

The map itself (squares, places, Values, belts, sites, obstacles) is the referee's handout and
known to all.  Beyond it a commander knows everything of its own (ships, facilities, stocks,
research), and at the places where it has a ship or a planet at the end of the week it sees
who holds the place and the other commanders' ships there.  Everything else it learns only
from events addressed to it (a battle its ships fought, a report of its spies), which the
reports filter by `Event.visible_to`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import Event, Secret
from .state import Battle, Commander, Facility, Ship, State


@dataclass(frozen=True)
class PlaceView:
    name: str
    square: tuple[int, int]
    kind: str
    value: int
    belt: str
    ancient_site: bool
    home: bool
    owner: str  # as known: "" when neutral or not known
    port: str
    in_sight: bool  # the commander has a ship or a planet there


@dataclass
class PlayerView:
    commander: Commander
    week: int
    columns: int
    rows: int
    map_title: str
    places: list[PlaceView]
    obstacles: list[tuple[int, int]]
    ships: list[Ship]
    facilities: list[Facility]
    stocks: dict[str, int]
    seen: list[Ship]  # other commanders' ships at places in sight
    battles: list[Battle]  # battles of its own waiting for the table
    events: list[Event] = field(default_factory=list)
    designs: dict[str, Any] = field(default_factory=dict)
    game_name: str = ""
    finished: str = ""


def player_view(state: State, player: str, rules: Mapping[str, Any] | None = None) -> PlayerView:
    commander = state.commander(player)
    if commander is None:
        raise KeyError(player)
    ships = [s for s in state.ships if s.owner == player]
    planets = {s.name for s in state.systems.values() if s.owner == player}
    sight = {s.place for s in ships if not s.ready_week} | planets
    places = [
        PlaceView(
            name=s.name,
            square=s.square,
            kind=s.kind,
            value=s.value,
            belt="" if s.belt_worked_out else s.belt,
            ancient_site=s.ancient_site,
            home=s.home,
            owner=s.owner if s.name in sight or s.owner == player else "",
            port=s.port if s.name in sight else "",
            in_sight=s.name in sight,
        )
        for s in sorted(state.systems.values(), key=lambda s: s.name)
    ]
    return PlayerView(
        commander=commander,
        week=state.week,
        columns=state.columns,
        rows=state.rows,
        map_title=state.map_title,
        places=places,
        obstacles=sorted(state.obstacles),
        ships=sorted(ships, key=lambda s: s.id),
        facilities=[f for f in state.facilities if f.owner == player],
        stocks={place: p for (place, owner), p in sorted(state.stocks.items()) if owner == player},
        seen=sorted(
            (s for s in state.ships if s.owner != player and s.place in sight and not s.ready_week),
            key=lambda s: (s.place, s.id),
        ),
        battles=[b for b in state.battles if player in b.sides],
        events=[e for e in state.events if e.visible(player)],
        designs=dict(state.designs),
        game_name=state.game_name,
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


__all__ = ["PlaceView", "PlayerView", "hidden_from", "player_view"]
