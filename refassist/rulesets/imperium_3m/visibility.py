"""Fog of war for Imperium 3rd Millennium: what one side may know (digest, "Information").

Each side sees its own units, every system where it has units, Worlds or Outposts, and the
enemy fleets in those systems; a fleet's contents (ships and what they carry) only in systems
it saw into this turn, as the stealth scout's reward is that "the enemy player must reveal the
contents of any fleet" (house rule ``enemy_fleet_contents = "shown"``: always).  The enemy's
planetary boxes only in systems it saw into this turn (`State.revealed`: after a battle or a
successful stealth scout), and on a planet where its own troops stand (a disputed planet is
fought over hex by hex, so both sides see the surface).  It never learns the enemy's treasury,
permissions or turn record track.  Markers are public unless the ``public_markers`` house
rule says no.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..base import Event, Secret, fields_of
from .admin import expected_income
from .rules import complete
from .state import State
from .units import other_side
from .view import PlanetView, PlayerView

#: Event kinds that mark a fight at their location (the map's battle mark).
BATTLE_KINDS = ("battle", "landing", "capture", "bombardment", "planetary battle")

#: Who may read each kind of event, from the digest's Information and Tables sections:
#:
#: ``public``   everyone: the seed's tables (Intervention, Appeal), glory, the calendar, the
#:              initiative, and the fights (both sides take part and see each other's units);
#: ``own``      only the side the event concerns (``Event.players``): its orders, treasury,
#:              construction, arrivals, upkeep, repairs and planet works, which the enemy
#:              learns only by seeing the result on the map;
#: ``sighted``  the acting side, and the enemy only when it sees the system at that moment
#:              (a fleet arriving, an Outpost set up, scouts detected); the emitting code
#:              checks `segments.sees`, and the audit checks the enemy is never told more.
#:
#: Every kind the ruleset emits must be listed (``tests/imperium/test_fog_of_war.py``).
EVENT_AUDIENCE: dict[str, str] = {
    "initiative": "public",
    "segment_end": "public",
    "intervention": "public",
    "appeal": "public",
    "forces": "public",
    "glory": "public",
    "mandate": "public",
    "inter-war": "public",
    "war end": "public",
    "game end": "public",
    "calendar": "public",
    "battle": "public",
    "bombardment": "public",
    "landing": "public",
    "surface battle": "public",
    "capture": "public",
    "evacuation": "public",
    "activation": "own",
    "skipped": "own",
    "pass": "own",
    "production": "own",
    "construction": "own",
    "reinforcement": "own",
    "maintenance": "own",
    "scrap": "own",
    "repair": "own",
    "augment": "own",
    "upgrade": "own",
    "terraform": "own",
    "movement": "sighted",
    "outpost": "sighted",
    "stealth": "sighted",
}


def audience_problem(event: Any, sight: Mapping[str, set[str]] | None = None) -> str:
    """Why ``event`` (an `Event`) is told to someone the rules keep it from ("" if not).

    ``sight`` maps each player to the systems that player's side saw when the event was
    made; without it a ``sighted`` event is only held to its acting side and the sides it
    names.  A kind missing from `EVENT_AUDIENCE` is a problem too: nobody decided who sees it.
    """
    rule = EVENT_AUDIENCE.get(event.kind)
    if rule is None:
        return f"event kind {event.kind!r} has no audience in EVENT_AUDIENCE"
    if rule == "public":
        return ""
    told = set(event.visible_to)
    if "*" in told:
        return f"{event.kind} event told to everyone: {event.text}"
    concerned = set(event.players)
    if rule == "own" and not told <= concerned:
        return f"{event.kind} event told to {sorted(told - concerned)}: {event.text}"
    if rule == "sighted" and sight is not None:
        for player in sorted(told - concerned):
            if event.location not in sight.get(player, set()):
                return f"{event.kind} event told to {player}, who does not see it: {event.text}"
    return ""


def in_sight(state: State, side: str) -> set[str]:
    """Systems where ``side`` has units (a fleet with units in it, or units on a planet) or a
    World or Outpost marker."""
    manned = {u.fleet for u in state.units if u.side == side and u.fleet}
    seen = {f.system for f in state.fleets if f.side == side and f.name in manned}
    for u in state.units:
        if u.side == side and u.planet in state.map.planets:
            seen.add(state.map.planets[u.planet].system)
    for p in state.map.planets.values():
        if p.owner == side and p.marker:
            seen.add(p.system)
    return seen


def battle_systems(state: State, events: Iterable[Event]) -> set[str]:
    """Systems where ``events`` tell of a fight (one on a planet marks the planet's system):
    the map's battle marks."""
    found = set()
    for e in events:
        where = e.location if e.kind in BATTLE_KINDS else ""
        planet = state.map.planets.get(where)
        where = planet.system if planet is not None else where
        if where in state.map.systems:
            found.add(where)
    return found


def player_view(state: State, player: str, rules: Mapping[str, Any]) -> PlayerView:
    """Everything ``player``'s side may know; the report reads nothing else."""
    side = state.side_of(player)
    enemy = other_side(side)
    sight = in_sight(state, side)
    revealed = set(state.revealed.get(side, ())) & set(state.map.systems)
    rules = complete(rules)
    public_markers = bool(rules["public_markers"])
    own_ground = {u.planet for u in state.units if u.side == side and u.planet}

    planets: dict[str, PlanetView] = {}
    for p in state.map.planets.values():
        marker_known = public_markers or p.system in sight or p.owner == side
        own_work = p.terraform_side == side
        planets[p.code] = PlanetView(
            **fields_of(p, "code name system type hexes home"),
            owner=p.owner if marker_known else "",
            marker=p.marker if marker_known else "",
            disputed=p.disputed if marker_known else False,
            box_known=p.owner == side or p.system in revealed or p.code in own_ground,
            terraform_paid=p.terraform_paid if own_work else 0,
            upgrade_paid=p.upgrade_paid if p.owner == side else 0,
        )

    manned = {u.fleet for u in state.units if u.fleet}
    enemy_fleets = [
        copy.copy(f)
        for f in state.fleets
        if f.side == enemy and f.system in sight and f.name in manned
    ]
    contents_shown = rules["enemy_fleet_contents"] == "shown"
    hidden_fleets = {
        f.name for f in enemy_fleets if not contents_shown and f.system not in revealed
    }
    seen_fleets = {f.name for f in enemy_fleets} - hidden_fleets
    enemy_units = [
        copy.copy(u)
        for u in state.units
        if u.side == enemy
        and (
            (u.fleet and u.fleet in seen_fleets)
            or (u.planet in planets and planets[u.planet].box_known)
        )
    ]
    # What the side may not know of an enemy counter even when it sees it: where it came
    # from (an Intervention's forces look like any others).
    for u in enemy_units:
        u.origin = ""
    for f in enemy_fleets:
        f.came_from = ""
        f.standing = ""  # its battle orders are the enemy's own

    events = [e for e in state.events if e.visible(player)]

    return PlayerView(
        side=side,
        player=player,
        enemy_side=enemy,
        enemy_player=state.player_of(enemy),
        map_title=state.map.title,
        **fields_of(state, "game_name turn war war_turn peace_left glory peace_talks campaign"),
        finished=state.finished,
        results=list(state.results),
        own=copy.deepcopy(state.sides[side]),
        systems={c: (s.name, s.x, s.y, s.deep) for c, s in state.map.systems.items()},
        routes=[(r.a, r.b, r.length) for r in state.map.routes],
        planets=planets,
        in_sight=sight,
        revealed=revealed,
        fleets=[copy.copy(f) for f in state.fleets if f.side == side],
        units=[copy.copy(u) for u in state.units if u.side == side],
        enemy_fleets=enemy_fleets,
        enemy_units=enemy_units,
        queue=[copy.copy(q) for q in state.queue if q.side == side],
        events=events,
        battles=battle_systems(state, events),
        hidden_fleets=hidden_fleets,
        rolls=[r for r in state.dice if r.seq in {seq for e in events for seq in e.dice}],
        expected_income=expected_income(state, side),
    )


def hidden_from(state: State, player: str, rules: Mapping[str, Any]) -> list[Secret]:
    """What the rules hide from ``player``'s side, as a page would tell it (the engine's
    audit of what players receive, `Ruleset.hidden_from`): where an enemy fleet out of sight
    is (its name with the system it stands at, on one line: a fleet that broke off or
    retreated out of sight is not followed)."""
    view = player_view(state, player, rules)
    shown = {f.name for f in view.enemy_fleets}
    told = "\n".join(e.text for e in view.events)
    out = []
    for fleet in state.fleets:
        if fleet.side != view.enemy_side or fleet.name in shown or not fleet.system:
            continue
        name, place = re.escape(fleet.name), re.escape(fleet.system)
        where = state.map.systems.get(fleet.system)
        places = place + (f"|{re.escape(where.name)}" if where is not None else "")
        secret = Secret(
            rf"(?<![\w-]){name}(?![\w-])[^\n]{{0,60}}(?<![\w-])(?:{places})(?![\w-])",
            f"where the enemy fleet {fleet.name}, out of sight, is ({fleet.system})",
        )
        if not re.search(secret.pattern, told):  # an event told it (it came in, and fought)
            out.append(secret)
    return out
