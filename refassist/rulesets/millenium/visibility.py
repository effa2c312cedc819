"""What each side may know (rule VII B and the digest's "Information"): the one thing every
report, sheet and reply of a side is built from.

Both sides see where every fleet stands, with its level counter: the map is shared.  What a
side keeps to itself: its fleets' compositions (until a battle shows them: the battle's event
tells both sides), its production points, and its secrets: the Empire's cards, imperial planet
and purchases; the Extraterrestrial's programme.  The Extraterrestrial knows a system's loyalty
and planets only once its card was shown, and who holds the planets of systems whose card it has
seen (and those it took); the imperial planet only when taken or at the end.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import Event, Secret
from .geometry import Position, StrategicMap
from .state import ALIEN, EMPIRE, Fleet, State


@dataclass(frozen=True)
class FleetSeen:
    """Another side's fleet as the map shows it: its letter, where it is, and nothing else."""

    side: str
    letter: str
    where: str
    position: Position | None


@dataclass(frozen=True)
class PlanetSeen:
    name: str
    holder: str
    colonised: str
    loyalty: int
    bases: int


@dataclass(frozen=True)
class SystemSeen:
    """A system as the reader knows it: ``loyalty`` and ``planets`` are None while its card
    is hidden from the reader."""

    letter: str
    name: str
    position: Position
    loyalty: int | None
    planets: tuple[PlanetSeen, ...] | None


@dataclass
class SideView:
    side: str
    player: str
    game_name: str
    turn: int
    map: StrategicMap
    fleets: list[Fleet]
    others: list[FleetSeen]
    systems: dict[str, SystemSeen]
    points: dict[str, int]
    programme: list[str] = field(default_factory=list)
    imperial: str = ""
    finished: str = ""
    events: list[Event] = field(default_factory=list)


def player_view(state: State, player: str, rules: Mapping[str, Any] | None = None) -> SideView:
    """The state as ``player``'s side may know it."""
    side = state.side_of(player)
    systems: dict[str, SystemSeen] = {}
    for letter, system in state.systems.items():
        placed = state.map.systems[letter]
        known = (
            side == EMPIRE
            or letter in state.revealed
            or any(p.holder == ALIEN for p in system.planets)
        )
        planets = (
            tuple(
                PlanetSeen(p.name, p.holder, p.colonised, p.loyalty, p.bases)
                for p in system.planets
            )
            if known
            else None
        )
        systems[letter] = SystemSeen(
            letter, placed.name, placed.position, system.loyalty if known else None, planets
        )
    imperial = state.imperial if side == EMPIRE or state.imperial_revealed else ""
    return SideView(
        side=side,
        player=player,
        game_name=state.game_name,
        turn=state.turn,
        map=state.map,
        fleets=[f for f in state.fleets if f.side == side],
        others=[
            FleetSeen(
                f.side, f.letter, f.where, f.position if f.where in ("map", "waiting") else None
            )
            for f in state.fleets
            if f.side != side and f.where in ("map", "waiting")
        ],
        systems=systems,
        points=dict(state.points.get(side, {})),
        programme=list(state.programme) if side == ALIEN or state.finished else [],
        imperial=imperial,
        finished=state.finished,
        events=[e for e in state.events if e.visible(player)],
    )


def hidden_from(state: State, player: str, rules: Mapping[str, Any] | None = None) -> list[Secret]:
    """What the rules hide from ``player``'s side, as a page would tell it (the engine's
    audit of what players receive, `Ruleset.hidden_from`): for the Extraterrestrial, the
    imperial planet until it is revealed (its name beside the word imperial, in either
    language) and the loyalty of a system whose card it has not seen; for the Empire, the
    conquest programme until the end."""
    view = player_view(state, player, rules)
    out = []
    if view.side == ALIEN and state.imperial and not view.imperial:
        planet = re.escape(state.imperial)
        out.append(
            Secret(
                rf"(?i)imp[eé]ria[a-z]*[^\n]{{0,40}}(?<!\w){planet}(?!\w)"
                rf"|(?<!\w){planet}(?!\w)[^\n]{{0,40}}imp[eé]ria",
                f"the imperial planet {state.imperial}",
            )
        )
    if view.side == ALIEN:
        for letter, seen in view.systems.items():
            system = state.systems.get(letter)
            if seen.loyalty is None and system is not None:
                out.append(
                    Secret(
                        rf"(?i)(?<!\w){re.escape(seen.name)}(?!\w)[^\n]{{0,60}}"
                        rf"(?:loyalty|loyaut[eé])\W{{0,3}}{system.loyalty}(?!\d)",
                        f"the loyalty of {seen.name}, whose card is not seen",
                    )
                )
    if view.side == EMPIRE and state.programme and not view.programme:
        out.append(
            Secret.phrase(" ".join(state.programme), "the Extraterrestrial's conquest programme")
        )
    return out
