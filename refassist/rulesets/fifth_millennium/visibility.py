"""The fog of war: what one player may know (section 2.4 and the digest's Information rules).

A player sees full details of the systems within the best range of its squadrons (4 hexes, 7
from TL3) of any world it owns, and of any hex where its own squadrons are; its own fleets and
flights everywhere; enemy squadrons only in systems it sees.  Fleets in hyperspace are shown to
nobody but their owner, and deep space refueling stations are "unlocatable by the enemy".
Control Centres and Construction Facilities are *secret* in the rules' own words, so they are
shown to their owner only.  Nothing else reaches a report: `player_view` builds the
`view.PlayerView` that reports and sheets read, and `update_sightings` keeps, per player, what
each system looked like when it was last in sight (shaded on the map afterwards).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ...geometry.hexcache import within
from ..base import Secret, fields_of
from .movement_rules import best_range
from .notation import fleet_text, flight_text
from .rules import complete
from .state import Facility, Force, Sighting, State
from .view import ForceSeen, PlayerView, SystemView

#: Facility kinds only their owner is told about ("Secret Control Centre", "Secret
#: Construction Facility", refueling stations "unlocatable by the enemy").
SECRET_FACILITIES = frozenset({"CC", "CF", "DSRS"})


def in_sight(state: State, player: str, rules: Mapping[str, Any] | None = None) -> set[str]:
    """Hexes ``player`` sees: systems within best range of an owned world, and its own hexes.

    The result holds system hexes plus the hexes where the player's own squadrons or facilities
    are (a refueling station in deep space included), because a player always knows where its
    own forces stand.
    """
    p = state.player(player)
    if p is None:
        return set()
    reach = best_range(p, rules or {})
    near = _neighbourhoods(state)
    seen: set[str] = set()
    for s in state.systems:
        if s.owner == player:
            seen |= near.around(s.hex, reach)
    seen.update(f.hex for f in state.forces if f.owner == player)
    seen.update(f.hex for f in state.facilities if f.owner == player)
    return seen


class _Neighbourhoods:
    """The systems within each range of each hex of one map, measured once and kept: sight is
    asked for every player, turn after turn, on the same map."""

    def __init__(self, systems: frozenset[str]) -> None:
        self.systems = systems
        self.table: dict[tuple[str, int], frozenset[str]] = {}

    def around(self, hex_: str, reach: int) -> frozenset[str]:
        found = self.table.get((hex_, reach))
        if found is None:
            found = frozenset(h for h in within(hex_, reach) if h in self.systems)
            self.table[(hex_, reach)] = found
        return found


#: One `_Neighbourhoods` per map (a map is known by the set of its system hexes).
_MAPS: dict[frozenset[str], _Neighbourhoods] = {}


def _neighbourhoods(state: State) -> _Neighbourhoods:
    systems = state.system_hexes()
    found = _MAPS.get(systems)
    if found is None:
        if len(_MAPS) >= 16:  # a long test run creates many maps; keep memory bounded
            _MAPS.clear()
        found = _MAPS[systems] = _Neighbourhoods(systems)
    return found


#: A player's sight depends only on these: its reach, its worlds and the hexes of its forces
#: and facilities (on one map).
SightKey = tuple[int, tuple[str, ...], frozenset[str]]


def sight_of_players(
    state: State,
    players: Iterable[str],
    rules: Mapping[str, Any] | None = None,
    memo: dict[SightKey, frozenset[str]] | None = None,
) -> dict[str, frozenset[str]]:
    """`in_sight` of several players at once, from one pass over the state.

    The resolution asks "who sees this hex?" after every change of hands, for every player;
    grouping owned worlds, forces and facilities by owner once, looking up each world's
    neighbourhood (the systems within a range of it) instead of measuring it, and, with a
    ``memo`` kept for one map (one turn's resolution), reusing the sight of every player whose
    worlds, forces and facilities stand where they stood, is what keeps a 64-player turn fast.
    """
    rules = complete(rules)
    near = _neighbourhoods(state)
    owned: dict[str, list[str]] = {}
    for s in state.systems:
        if s.owner:
            owned.setdefault(s.owner, []).append(s.hex)
    own_hexes: dict[str, set[str]] = {}
    for f in state.forces:
        own_hexes.setdefault(f.owner, set()).add(f.hex)
    for f in state.facilities:
        own_hexes.setdefault(f.owner, set()).add(f.hex)
    out: dict[str, frozenset[str]] = {}
    for name in players:
        p = state.player(name)
        if p is None:
            out[name] = frozenset()
            continue
        reach = best_range(p, rules)
        worlds = tuple(owned.get(name, ()))
        key: SightKey = (reach, worlds, frozenset(own_hexes.get(name, ())))
        found = memo.get(key) if memo is not None else None
        if found is None:
            seen: set[str] = set(key[2])
            for hex_ in worlds:
                seen |= near.around(hex_, reach)
            found = frozenset(seen)
            if memo is not None:
                memo[key] = found
        out[name] = found
    return out


def force_text(force: Force) -> str:
    """``Ann: F3 S0 A0(Fs0 Ms0 K0) M1`` - one owner's squadrons at a system, for reports."""
    who = force.owner or "independent"
    text = f"{who}: {fleet_text(force.fleet)}"
    if force.M:
        text += f" M{force.M}"
    if force.P:
        text += f" P{force.P}"
    if force.building:
        text += " (under construction)"
    return text


def forces_text(state: State, hex_: str, forces: list[Force] | None = None) -> str:
    """Every force at a hex in one line, owners in name order (``forces``: the hex's forces
    in state order, when the caller has grouped them already)."""
    here = state.forces_at(hex_) if forces is None else forces
    return "; ".join(force_text(f) for f in sorted(here, key=lambda f: (f.owner, f.building)))


def visible_facilities(
    state: State, hex_: str, player: str, facilities: list[Facility] | None = None
) -> list[str]:
    """Facility descriptions at a system ``player`` sees (others' secret ones left out)."""
    here = state.facilities_at(hex_) if facilities is None else facilities
    out = []
    for f in sorted(here, key=lambda f: (f.owner, f.kind, f.building)):
        if f.owner != player and f.kind in SECRET_FACILITIES:
            continue
        out.append(f"{f.text} ({f.owner})")
    return out


def _count(facilities: list[Facility], kind: str) -> int:
    return sum(f.count for f in facilities if f.kind == kind and not f.building)


def _by_hex(items: Iterable[Any]) -> dict[str, list[Any]]:
    """Forces or facilities grouped by hex, each group in state order (one pass instead of a
    scan of the whole list for every system in sight)."""
    out: dict[str, list[Any]] = {}
    for item in items:
        out.setdefault(item.hex, []).append(item)
    return out


def _system_in_sight(
    state: State,
    hex_: str,
    player: str,
    forces_here: list[Force],
    facilities_here: list[Facility],
) -> SystemView:
    s = state.system(hex_)
    assert s is not None
    ordered = sorted(forces_here, key=lambda f: (f.owner, f.building))
    forces = [
        ForceSeen(owner=f.owner, fleet=f.fleet, M=f.M, P=f.P, building=f.building) for f in ordered
    ]
    return SystemView(
        **fields_of(s, "hex name resource_class naval_base scout_base hipop owner"),
        status="in sight",
        seen_year=state.year,
        forces=forces,
        gl=_count(facilities_here, "GL"),
        opc=_count(facilities_here, "OPC"),
        mines=_count(facilities_here, "MINE"),
        spacedock=_count(facilities_here, "DOCK") > 0,
        facilities=visible_facilities(state, hex_, player, facilities_here),
        forces_text="; ".join(force_text(f) for f in ordered),
    )


def player_view(state: State, player: str, rules: Mapping[str, Any] | None = None) -> PlayerView:
    """Everything ``player`` may be told at the start of ``state.year``."""
    p = state.player(player)
    if p is None:
        raise KeyError(player)
    rules = complete(rules)
    sight = in_sight(state, player, rules)
    sightings = {s.hex: s for s in state.sightings_of(player)}
    forces_by_hex = _by_hex(f for f in state.forces if f.hex in sight)
    facilities_by_hex = _by_hex(f for f in state.facilities if f.hex in sight)
    systems: list[SystemView] = []
    for s in state.systems:
        if s.hex in sight:
            systems.append(
                _system_in_sight(
                    state,
                    s.hex,
                    player,
                    forces_by_hex.get(s.hex, []),
                    facilities_by_hex.get(s.hex, []),
                )
            )
        elif s.hex in sightings:
            seen = sightings[s.hex]
            systems.append(
                SystemView(
                    hex=s.hex,
                    name=s.name,
                    **fields_of(seen, "resource_class naval_base scout_base hipop owner"),
                    status="seen",
                    seen_year=seen.year,
                    forces_text=seen.forces,
                )
            )
        else:
            # Positional: most systems of a 64-player game are known from the map only, and
            # this runs for each of them in each player's view.
            systems.append(
                SystemView(
                    s.hex,
                    s.name,
                    s.original_class,
                    s.map_naval_base,
                    s.map_scout_base,
                    s.map_hipop,
                    "map",
                )
            )
    proposals = [
        f"{pr.proposer} proposes a {'treaty' if pr.kind == 'treaty' else 'trade agreement'}"
        for pr in state.proposals
        if pr.to == player
    ]
    messages = [
        m
        for m in state.messages
        if m.recipient == player or (m.recipient == "*" and m.sender != player)
    ]
    return PlayerView(
        player=player,
        **fields_of(state, "year finished game_name"),
        **fields_of(p, "tech_level stockpile income_last homeworld homeworld_lost eliminated"),
        best_range=best_range(p, rules),
        in_sight=frozenset(sight),
        systems=systems,
        own_forces=[f for f in state.forces if f.owner == player],
        own_flights=[f for f in state.flights if f.owner == player],
        own_facilities=[f for f in state.facilities if f.owner == player],
        relations=[r for r in state.relations if player in (r.a, r.b)],
        proposals_received=proposals,
        messages=messages,
        # `Event.visible`, spelled out: it is asked for every event and every player.
        events=[e for e in state.events if "*" in e.visible_to or player in e.visible_to],
        players=state.player_names(),
    )


def sighting_of(
    state: State, player: str, hex_: str, year: int, forces: str | None = None
) -> Sighting:
    """What ``player`` sees of the system at ``hex_`` now, to remember once out of sight
    (``forces``: the hex's `forces_text`, when the caller has it already)."""
    s = state.system(hex_)
    assert s is not None
    return Sighting(
        player=player,
        hex=hex_,
        year=year,
        **fields_of(s, "resource_class naval_base scout_base hipop owner"),
        forces=forces_text(state, hex_) if forces is None else forces,
    )


def record_sighting(state: State, sighting: Sighting) -> None:
    """Replace the player's earlier sighting of that hex."""
    state.sightings[:] = [
        s for s in state.sightings if not (s.player == sighting.player and s.hex == sighting.hex)
    ]
    state.sightings.append(sighting)


def update_sightings(state: State, year: int, rules: Mapping[str, Any] | None = None) -> None:
    """Remember what every active player sees at the end of ``year``."""
    systems = state.system_hexes()
    keep = {(s.player, s.hex): s for s in state.sightings}
    active = state.active_players()
    sight = sight_of_players(state, active, rules)
    by_hex = _by_hex(state.forces)
    texts: dict[str, str] = {}  # the forces at a hex read the same to every player
    for name in active:
        for hex_ in sight[name]:
            if hex_ in systems:
                text = texts.get(hex_)
                if text is None:
                    text = texts[hex_] = forces_text(state, hex_, by_hex.get(hex_, []))
                keep[(name, hex_)] = sighting_of(state, name, hex_, year, text)
    state.sightings[:] = list(keep.values())


def hidden_from(state: State, player: str, rules: Mapping[str, Any] | None = None) -> list[Secret]:
    """What the rules hide from ``player``, as a page would tell it (the engine's audit of
    what players receive, `Ruleset.hidden_from`): other players' fleets in hyperspace (their
    move in the notation, which only the owner is shown), the messages and proposals that
    passed between other players."""
    out = [
        Secret.phrase(flight_text(f), f"{f.owner}'s flight in hyperspace")
        for f in state.flights
        if f.owner != player
    ]
    out += [
        Secret.phrase(m.text, f"{m.sender}'s message to {m.recipient}")
        for m in state.messages
        if player not in (m.sender, m.recipient) and m.recipient != "*" and len(m.text) >= 12
    ]
    told = {pr.proposer for pr in state.proposals if pr.to == player}
    out += [
        Secret(rf"\b{re.escape(pr.proposer)} proposes a", f"{pr.proposer}'s proposal to {pr.to}")
        for pr in state.proposals
        if player not in (pr.proposer, pr.to) and pr.proposer not in told
    ]
    return out
