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

from collections.abc import Mapping
from typing import Any

from ...hexmap import SECTOR
from .movement_rules import best_range
from .notation import fleet_text
from .rules import HOUSE_RULES
from .state import FACILITY_NAMES, Force, Sighting, State
from .view import ForceSeen, PlayerView, SystemView

#: Facility kinds only their owner is told about ("Secret Control Centre", "Secret
#: Construction Facility", refueling stations "unlocatable by the enemy").
SECRET_FACILITIES = frozenset({"CC", "CF", "DSRS"})


def default_rules() -> dict[str, Any]:
    """The house rules with their defaults (for callers that have no game settings)."""
    return {rule.key: rule.default for rule in HOUSE_RULES}


def _rules(rules: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if rules is None:
        return default_rules()
    merged = default_rules()
    merged.update(rules)
    return merged


def owned_systems(state: State, player: str) -> list[str]:
    """Hexes of the systems ``player`` owns."""
    return [s.hex for s in state.systems if s.owner == player]


def in_sight(state: State, player: str, rules: Mapping[str, Any] | None = None) -> set[str]:
    """Hexes ``player`` sees: systems within best range of an owned world, and its own hexes.

    The result holds system hexes plus the hexes where the player's own squadrons or facilities
    are (a refueling station in deep space included), because a player always knows where its
    own forces stand.
    """
    p = state.player(player)
    if p is None:
        return set()
    reach = best_range(p, _rules(rules))
    systems = {s.hex for s in state.systems}
    seen: set[str] = set()
    for hex_ in owned_systems(state, player):
        seen.update(h for h in SECTOR.within(hex_, reach) if h in systems)
    seen.update(f.hex for f in state.forces if f.owner == player)
    seen.update(f.hex for f in state.facilities if f.owner == player)
    return seen


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


def forces_text(state: State, hex_: str) -> str:
    """Every force at a hex in one line, owners in name order."""
    forces = sorted(state.forces_at(hex_), key=lambda f: (f.owner, f.building))
    return "; ".join(force_text(f) for f in forces)


def visible_facilities(state: State, hex_: str, player: str) -> list[str]:
    """Facility descriptions at a system ``player`` sees (others' secret ones left out)."""
    out = []
    for f in sorted(state.facilities_at(hex_), key=lambda f: (f.owner, f.kind, f.building)):
        if f.owner != player and f.kind in SECRET_FACILITIES:
            continue
        name = FACILITY_NAMES.get(f.kind, f.kind)
        count = f" x{f.count}" if f.kind in ("GL", "OPC", "MINE") else ""
        building = " (under construction)" if f.building else ""
        out.append(f"{name}{count}{building} ({f.owner})")
    return out


def _count(state: State, hex_: str, kind: str) -> int:
    return sum(f.count for f in state.facilities_at(hex_) if f.kind == kind and not f.building)


def _system_in_sight(state: State, hex_: str, player: str) -> SystemView:
    s = state.system(hex_)
    assert s is not None
    forces = [
        ForceSeen(owner=f.owner, fleet=f.fleet, M=f.M, P=f.P, building=f.building)
        for f in sorted(state.forces_at(hex_), key=lambda f: (f.owner, f.building))
    ]
    return SystemView(
        hex=s.hex,
        name=s.name,
        resource_class=s.resource_class,
        naval_base=s.naval_base,
        scout_base=s.scout_base,
        hipop=s.hipop,
        status="in sight",
        seen_year=state.year,
        owner=s.owner,
        forces=forces,
        gl=_count(state, hex_, "GL"),
        opc=_count(state, hex_, "OPC"),
        mines=_count(state, hex_, "MINE"),
        spacedock=_count(state, hex_, "DOCK") > 0,
        facilities=visible_facilities(state, hex_, player),
        forces_text=forces_text(state, hex_),
    )


def player_view(state: State, player: str, rules: Mapping[str, Any] | None = None) -> PlayerView:
    """Everything ``player`` may be told at the start of ``state.year``."""
    p = state.player(player)
    if p is None:
        raise KeyError(player)
    rules = _rules(rules)
    sight = in_sight(state, player, rules)
    sightings = {s.hex: s for s in state.sightings if s.player == player}
    systems: list[SystemView] = []
    for s in state.systems:
        if s.hex in sight:
            systems.append(_system_in_sight(state, s.hex, player))
        elif s.hex in sightings:
            seen = sightings[s.hex]
            systems.append(
                SystemView(
                    hex=s.hex,
                    name=s.name,
                    resource_class=seen.resource_class,
                    naval_base=seen.naval_base,
                    scout_base=seen.scout_base,
                    hipop=seen.hipop,
                    status="seen",
                    seen_year=seen.year,
                    owner=seen.owner,
                    forces_text=seen.forces,
                )
            )
        else:
            systems.append(
                SystemView(
                    hex=s.hex,
                    name=s.name,
                    resource_class=s.original_class,
                    naval_base=s.map_naval_base,
                    scout_base=s.map_scout_base,
                    hipop=s.map_hipop,
                    status="map",
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
        year=state.year,
        tech_level=p.tech_level,
        stockpile=p.stockpile,
        income_last=p.income_last,
        homeworld=p.homeworld,
        homeworld_lost=p.homeworld_lost,
        eliminated=p.eliminated,
        best_range=best_range(p, rules),
        in_sight=frozenset(sight),
        systems=systems,
        own_forces=[f for f in state.forces if f.owner == player],
        own_flights=[f for f in state.flights if f.owner == player],
        own_facilities=[f for f in state.facilities if f.owner == player],
        relations=[r for r in state.relations if player in (r.a, r.b)],
        proposals_received=proposals,
        messages=messages,
        events=[e for e in state.events if e.visible(player)],
        players=state.player_names(),
        finished=state.finished,
    )


def sighting_of(state: State, player: str, hex_: str, year: int) -> Sighting:
    """What ``player`` sees of the system at ``hex_`` now, to remember once out of sight."""
    s = state.system(hex_)
    assert s is not None
    return Sighting(
        player=player,
        hex=hex_,
        year=year,
        resource_class=s.resource_class,
        naval_base=s.naval_base,
        scout_base=s.scout_base,
        hipop=s.hipop,
        owner=s.owner,
        forces=forces_text(state, hex_),
    )


def record_sighting(state: State, sighting: Sighting) -> None:
    """Replace the player's earlier sighting of that hex."""
    state.sightings[:] = [
        s for s in state.sightings if not (s.player == sighting.player and s.hex == sighting.hex)
    ]
    state.sightings.append(sighting)


def update_sightings(state: State, year: int, rules: Mapping[str, Any] | None = None) -> None:
    """Remember what every active player sees at the end of ``year``."""
    systems = {s.hex for s in state.systems}
    keep = {(s.player, s.hex): s for s in state.sightings}
    for name in state.active_players():
        for hex_ in in_sight(state, name, rules):
            if hex_ in systems:
                keep[(name, hex_)] = sighting_of(state, name, hex_, year)
    state.sightings[:] = list(keep.values())
