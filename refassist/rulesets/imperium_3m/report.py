"""What an Imperium 3rd Millennium report says: template data for a side and for the referee.

A side's report is built from its `PlayerView` only (`visibility.player_view`), never from the
full `State`: whatever the view does not hold cannot reach the PDF.  The one exception is the
dice log, from which only the rolls named by events the player may read are taken.  The
referee's report is built from the whole state.

The map is a map of systems and jump routes, drawn by the engine from a `NetworkMap` that is
built here per reader (`ReportContent.network`): owners and markers as the reader knows them,
own fleets with ship counts, enemy fleets where seen, battles this turn, systems out of sight
shaded.

Battle events are laid out generically from their ``data`` (forces, rounds, shots, dice as
the space-battle module records them): any mapping or list is printed as indented lines, so a
new detail reaches the report without a template change.  Everything is formatted here; the
templates only lay out strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...dice import Roll
from ...drawings.netmap import NetLink, NetMark, NetNode, NetOwner, NetworkMap
from ...text.datalines import detail_lines
from ...text.words import counted
from ..base import Event, ReportContent, ReportInput, as_row, fields_of
from .admin import expected_income
from .planet_story import planet_battle_lines
from .state import Fleet, Planet, Queued, State, Unit
from .units import IMPERIAL, KIND_OF, NAMES, SHIP_KINDS, SIDES, TERRAN
from .view import PlanetView, PlayerView
from .visibility import BATTLE_KINDS, battle_systems

TEMPLATE_DIR = "imperium-3m"
OWNERS = (NetOwner(TERRAN, "T", 0), NetOwner(IMPERIAL, "I", 1))
MARKER_LETTER = {"World": "W", "Outpost": "O"}
#: Most lines printed for one event's details.
MAX_DETAIL_LINES = 400

PHASE_HEADINGS = (
    ("administration", "Administrative segment"),
    ("action", "Action segments"),
    ("close-out", "Close-out: maintenance and repair"),
    ("glory", "Glory and the war"),
)


def victory_thresholds(war_turn: int) -> tuple[int, int] | None:
    """(Terran wins at or below, Imperial wins at or above) for a war turn; None in peace.

    The seed's schedule: turns 1-6 0/10, then 1/9, 2/8, 3/7 and 4/6 at turn 10."""
    if war_turn <= 0:
        return None
    if war_turn <= 6:
        return (0, 10)
    step = min(war_turn, 10) - 6
    return (step, 10 - step)


def glory_track(glory: int, war_turn: int) -> dict[str, Any]:
    """The glory index as a row of eleven boxes, with this war turn's victory thresholds."""
    limits = victory_thresholds(war_turn)
    cells = []
    for n in range(11):
        mark = ""
        if limits and n <= limits[0]:
            mark = "Terran victory"
        elif limits and n >= limits[1]:
            mark = "Imperial victory"
        cells.append({"n": n, "current": n == glory, "mark": mark})
    text = (
        f"Terran victory at {limits[0]} or less, Imperial victory at {limits[1]} or more "
        f"at the end of war turn {war_turn}"
        + ("; an index of 5 after turn 10 is a truce" if war_turn >= 10 else "")
        if limits
        else "peace: the glory index does not decide anything until the next war"
    )
    return {"index": glory, "cells": cells, "text": text, "limits": limits}


def unit_text(u: Unit) -> str:
    """``CA1``, ``DD3 damaged``, ``RT2 6-2 reduced``: a counter as a player reads it."""
    text = u.id
    if u.code in ("RT", "JT") and u.strength:
        text += f" {u.strength}-{u.reduced_strength}"
    if u.damaged:
        text += " reduced" if KIND_OF.get(u.code) not in SHIP_KINDS else " damaged"
    if u.hex:
        text += f" (hex {u.hex})"
    return text


def fleet_rows(
    fleets: Sequence[Fleet],
    units: Sequence[Unit],
    names: Mapping[str, str],
    hidden: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """One row per fleet: where, its ships and its cargo (carried units); a fleet in
    ``hidden`` is there, its contents unknown."""
    rows = []
    unknown = set(hidden)
    for f in sorted(fleets, key=lambda f: (f.side, f.name)):
        inside = [u for u in units if u.fleet == f.name]
        ships = [u for u in inside if u.is_ship]
        cargo = [u for u in inside if not u.is_ship]
        shown = ", ".join(unit_text(u) for u in ships) or "no ships"
        if f.name in unknown:
            shown = "contents unknown (revealed only by a battle or a stealth scout)"
        rows.append(
            as_row(f)
            | {
                "where": names.get(f.system, f.system),
                "ships": shown,
                "ship_count": len(ships),
                "cargo": ", ".join(unit_text(u) for u in cargo),
            }
        )
    return rows


def planet_rows(
    planets: Iterable[PlanetView | Planet], units: Sequence[Unit], names: Mapping[str, str]
) -> list[dict[str, Any]]:
    """One row per planet: its fields, its system by name and what stands in its box."""
    return [
        as_row(p)
        | {
            "system": names.get(p.system, p.system),
            "box": ", ".join(f"{u.side[0]}:{unit_text(u)}" for u in units if u.planet == p.code),
        }
        for p in planets
    ]


def queue_rows(queue: Sequence[Queued], turn: int) -> list[dict[str, Any]]:
    return [
        as_row(q) | {"name": NAMES.get(q.code, q.code), "in_turns": max(0, q.due - turn)}
        for q in sorted(queue, key=lambda q: (q.due, q.side, q.code))
    ]


@dataclass(frozen=True)
class Reader:
    """Who reads a battle: a side and the systems it sees (None for the referee).  A fleet
    that breaks off or retreats is followed to where it went only for its own side, or when
    the reader sees that system: the enemy fleet has left the reader's sight otherwise."""

    side: str
    sight: frozenset[str]

    def may_follow(self, fleet_side: str, to: str) -> bool:
        return fleet_side == self.side or to in self.sight


def battle_lines(data: Mapping[str, Any], reader: Reader | None = None) -> list[str]:
    """A space battle as a player reads it: the forces, then each round's initiative, moves,
    shots (dice and hits), counter-measures and damage, then the result.  Falls back to
    `detail_lines` for data of another shape (an older archive, a hand-edited workbook).
    ``reader``: whom it is for, so a departing enemy fleet is not followed out of sight."""
    try:
        sides = {u["fleet"]: side for side, units in data["forces"].items() for u in units}

        def gone(side: str, to: str) -> str:
            if not to:
                return "stayed"
            if reader is None or reader.may_follow(side, to):
                return f"to {to}"
            return "out of sight"

        lines = ["Forces at the start:"]
        for side, units in sorted(data["forces"].items()):
            by_fleet: dict[str, list[str]] = {}
            for u in units:
                label = u["id"] + (" (damaged)" if u.get("damaged") else "")
                by_fleet.setdefault(u["fleet"], []).append(label)
            fleets = "; ".join(f"{f}: {', '.join(ids)}" for f, ids in sorted(by_fleet.items()))
            first = units[0] if units else {}
            orders = (
                f" [{first.get('stance', '')}, targets {first.get('priority', '')}]"
                if first
                else ""
            )
            lines.append(f"  {side}: {fleets or 'nothing'}{orders}")
        for r in data["rounds"]:
            init = r["initiative"]
            rolls = ", ".join(
                f"{side} {v['roll']}"
                + (f"{v['bonus'] + v['modifier']:+d}" if v["bonus"] or v["modifier"] else "")
                for side, v in sorted(init.items())
            )
            lines.append(
                f"Round {r['round']}: initiative {rolls} -> {r['initiative_winner']}; "
                f"{r['moves_first']} moves first"
            )
            for m in r.get("moves", []):
                lines.append(f"  move {m['unit']}: area {m['from']} -> {m['to']}")
            for shot in r.get("shots", []):
                dice = (
                    f"{shot['dice'][0]} dice"
                    if shot.get("dice_counted")
                    else " ".join(str(d) for d in shot["dice"])
                )
                lines.append(
                    f"  {shot['shooter']} {shot['weapon']} at {shot['target']}, range "
                    f"{shot['range']}, needs {shot['need']}+: {dice} = "
                    f"{counted(shot['hits'], 'hit')}"
                )
            for cm in r.get("counter_measures", []):
                if cm.get("dice"):
                    dice = " ".join(str(d) for d in cm["dice"])
                    lines.append(
                        f"  counter-measures {cm['unit']}: {dice}, "
                        f"{counted(cm['cancelled'], 'torpedo hit')} cancelled"
                    )
            for d in r.get("damage", []):
                lines.append(f"  {d['unit']}: {counted(d['hits'], 'hit')}, {d['result']}")
            for b in r.get("break_off", []):
                lines.append(f"  {b['fleet']} breaks off, {gone(b['side'], b['to'])}")
        if data.get("shortened"):
            lines.append(f"(shortened to fit the workbook: {data['shortened']} left out)")
        lost = [
            f"{side} {', '.join(ids)}" for side, ids in sorted(data["destroyed"].items()) if ids
        ]
        lines.append("Destroyed: " + ("; ".join(lost) if lost else "nothing"))
        for r in data.get("retreats", []):
            side = str(r.get("side") or sides.get(r["fleet"], ""))
            lines.append(f"Retreat: {r['fleet']} {gone(side, r['to'])}")
        return lines
    except (KeyError, TypeError, AttributeError, IndexError):
        return detail_lines(dict(data))


def event_view(
    event: Event,
    rolls: Mapping[int, Roll],
    names: Mapping[str, str],
    reader: Reader | None = None,
) -> dict[str, Any]:
    """An event for the templates: where (by name), what, its details and its dice, as
    ``reader`` may know them (None: the referee)."""
    where = names.get(event.location, event.location)
    # Fights are shown in full (round by round, shot by shot); for every other kind the
    # sentence already says what the data holds, and repeating it field by field buries the
    # report (the master workbook keeps the data).
    details: list[str] = []
    if event.kind == "battle":
        details = battle_lines(event.data, reader)[:MAX_DETAIL_LINES]
    elif event.kind in ("bombardment", "landing", "surface battle", "evacuation"):
        try:
            details = planet_battle_lines(event.kind, event.data)[:MAX_DETAIL_LINES]
        except (KeyError, TypeError, ValueError, AttributeError):
            details = detail_lines(dict(event.data))[:MAX_DETAIL_LINES]
    elif event.kind in BATTLE_KINDS or event.kind == "war end":
        details = detail_lines(dict(event.data))[:MAX_DETAIL_LINES]
    dice = [
        f"#{r.seq} {r.purpose}: {r.result}"
        for seq in event.dice
        if (r := rolls.get(seq)) is not None
    ]
    return {
        "kind": event.kind,
        "phase": event.phase,
        "where": where,
        "text": event.text,
        "details": details,
        "dice": dice,
        "battle": event.kind in BATTLE_KINDS,
    }


def grouped_events(
    events: Sequence[Event],
    rolls: Mapping[int, Roll],
    names: Mapping[str, str],
    reader: Reader | None = None,
) -> list[tuple[str, list[dict[str, Any]]]]:
    """Events in the order of play, under a heading per part of the turn."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        heading = next(
            (title for prefix, title in PHASE_HEADINGS if e.phase.startswith(prefix)),
            e.phase.capitalize() or "Other",
        )
        if e.phase.startswith("action") and e.phase != "action":
            heading = f"Action segment {e.phase.removeprefix('action').strip()}"
        groups.setdefault(heading, []).append(event_view(e, rolls, names, reader))
    return list(groups.items())


def _names(systems: Mapping[str, Any], planets: Mapping[str, Any]) -> dict[str, str]:
    names = {code: (s[0] if isinstance(s, tuple) else s.name) for code, s in systems.items()}
    names.update({code: p.name for code, p in planets.items()})
    return names


def _marks(planets: Iterable[PlanetView | Planet]) -> tuple[NetMark, ...]:
    """Every planet of a system under its name, with the code the sheet wants (``W BAR1
    Barnard 1``): players write codes and read names, so the map gives both."""
    marks = []
    for p in sorted(planets, key=lambda p: p.code):
        letter = f"{MARKER_LETTER[p.marker]} " if p.marker else ""
        text = f"{letter}{p.code} {p.name}" + (" (disputed)" if p.disputed else "")
        marks.append(NetMark(text, p.owner if p.marker else ""))
    return tuple(marks)


def _node_owner(planets: Sequence[PlanetView | Planet]) -> str:
    owners = {p.owner for p in planets if p.marker and p.owner}
    return owners.pop() if len(owners) == 1 else ""


def _fleet_line(name: str, units: Sequence[Unit], own: bool, side: str) -> str:
    ships = sum(1 for u in units if u.is_ship)
    carried = len(units) - ships
    text = f"{name}: {ships} ship{'s' if ships != 1 else ''}"
    if carried:
        text += f" +{carried} carried"
    return text if own else f"{text} ({side})"


def build_network(
    title: str,
    subtitle: str,
    systems: Mapping[str, tuple[str, float, float, bool]],
    routes: Sequence[tuple[str, str, int]],
    planets: Mapping[str, PlanetView | Planet],
    fleets: Sequence[Fleet],
    units: Sequence[Unit],
    own_side: str | None,
    in_sight: set[str] | None,
    battles: set[str],
    hidden: Iterable[str] = (),
) -> NetworkMap:
    """The systems-and-routes map for one reader (``own_side`` None and ``in_sight`` None for
    the referee, who sees everything); ``hidden`` enemy fleets show without their contents."""
    unknown = set(hidden)
    by_system: dict[str, list[PlanetView | Planet]] = {}
    for p in planets.values():
        by_system.setdefault(p.system, []).append(p)
    nodes = []
    for code, (name, x, y, deep) in systems.items():
        here = by_system.get(code, [])
        lines = []
        for f in sorted(fleets, key=lambda f: (f.side != own_side, f.side, f.name)):
            if f.system != code:
                continue
            inside = [u for u in units if u.fleet == f.name]
            if f.name in unknown:
                lines.append(f"{f.name}: contents unknown ({f.side})")
                continue
            if not inside and f.side != own_side:
                continue
            lines.append(_fleet_line(f.name, inside, f.side == own_side, f.side))
        kind = "open" if deep else ("home" if any(p.home for p in here) else "place")
        nodes.append(
            NetNode(
                code=code,
                name=f"{name} ({code})",
                x=x,
                y=y,
                kind=kind,
                owner=_node_owner(here),
                marks=_marks(here),
                lines=tuple(lines),
                shaded=in_sight is not None and code not in in_sight,
                battle=code in battles,
            )
        )
    notes = (
        "Each system and planet shows the code to write on the sheet. "
        "W = World, O = Outpost, [T]/[I] = owner. Fleet lines: name and ship count; "
        "enemy fleets are shown only where you could see them this turn.",
    )
    if in_sight is not None:
        notes += ("Shaded systems are out of sight: you have no units, Worlds or Outposts there.",)
    return NetworkMap(
        title=title,
        subtitle=subtitle,
        nodes=tuple(nodes),
        links=tuple(NetLink(a, b, length) for a, b, length in routes),
        owners=OWNERS,
        notes=notes,
    )


def _calendar(source: PlayerView | State, info: ReportInput) -> dict[str, Any]:
    """The game, the turn and the war: what both reports head their pages and cover with."""
    return {
        "game": source.game_name,
        "period": f"turn {source.turn}",
        "resolved": info.step,
        "deadline": info.deadline,
        **fields_of(source, "turn war war_turn peace_left peace_talks finished"),
        "results": list(source.results),
        "glory": glory_track(source.glory, source.war_turn),
    }


def player_content(view: PlayerView, info: ReportInput) -> ReportContent:
    """A side's report, from its view only: the engine gives it nothing else."""
    player = view.player
    names = _names(view.systems, view.planets)
    rolls = {r.seq: r for r in view.rolls}
    # A disputed planet is neither side's own: it is listed apart, with both sides' units.
    listing = {code: view.planet_listing(p) for code, p in view.planets.items()}
    disputed = [p for p in view.planets.values() if listing[p.code] == "disputed"]
    own_planets = [p for p in view.planets.values() if listing[p.code] == "own"]
    listed = {p.code for p in own_planets + disputed}
    elsewhere = [u for u in view.units if listing.get(u.planet) == "elsewhere"]
    seen_boxes = [
        p
        for p in view.planets.values()
        if p.owner != view.side
        and p.code not in listed
        and any(u.planet == p.code for u in view.enemy_units)
    ]
    network = build_network(
        view.map_title,
        f"as known to {player} ({view.side}) at the start of turn {view.turn}",
        view.systems,
        view.routes,
        view.planets,
        view.fleets + view.enemy_fleets,
        view.units + view.enemy_units,
        view.side,
        view.in_sight,
        view.battles,
        view.hidden_fleets,
    )
    context = {
        **_calendar(view, info),
        "reader": player,
        "side": view.side,
        "enemy": view.enemy_player,
        "enemy_side": view.enemy_side,
        "resources": view.own.resources,
        "income": view.expected_income,
        "own": view.own,
        "events": grouped_events(
            view.events, rolls, names, Reader(view.side, frozenset(view.in_sight))
        ),
        "fleets": fleet_rows(view.fleets, view.units, names),
        "planets": planet_rows(own_planets, view.units, names),
        "disputed": planet_rows(disputed, view.units + view.enemy_units, names),
        "elsewhere": [
            {"what": unit_text(u), "where": names.get(u.planet, u.planet)} for u in elsewhere
        ],
        "queue": queue_rows(view.queue, view.turn),
        "enemy_fleets": fleet_rows(view.enemy_fleets, view.enemy_units, names, view.hidden_fleets),
        "enemy_planets": planet_rows(seen_boxes, view.enemy_units, names),
        **info.orders_context(player),
        **info.awaited_context(player),
    }
    return ReportContent(
        template=f"{TEMPLATE_DIR}/player.html",
        context=context,
        title=f"{view.game_name}: {player}, {info.results_of()}",
        network=network,
    )


def referee_content(state: State, info: ReportInput) -> ReportContent:
    """The referee's report: everything, both sides."""
    names = _names(
        {c: (s.name, s.x, s.y, s.deep) for c, s in state.map.systems.items()}, state.map.planets
    )
    rolls = {r.seq: r for r in state.dice}
    network = build_network(
        state.map.title,
        f"everything, at the start of turn {state.turn}",
        {c: (s.name, s.x, s.y, s.deep) for c, s in state.map.systems.items()},
        [(r.a, r.b, r.length) for r in state.map.routes],
        state.map.planets,
        state.fleets,
        state.units,
        None,
        None,
        battle_systems(state, state.events),
    )
    sides = []
    for side in SIDES:
        s = state.sides[side]
        player = s.player
        sides.append(
            as_row(s)
            | {
                "income": expected_income(state, side),
                "permissions": ", ".join(s.permissions) or "-",
                "ships": sum(1 for u in state.units if u.side == side and u.is_ship),
                "ground": sum(1 for u in state.units if u.side == side and not u.is_ship),
                "sheet": info.sheets.get(player, ""),
                "orders": info.orders_context(player)["orders"],
            }
        )
    missing = [p for p, status in info.sheets.items() if status == "missing"]
    late = [p for p, status in info.sheets.items() if status == "late"]
    context = {
        **info.awaited_context(None),
        **_calendar(state, info),
        "reader": "Referee",
        "sides": sides,
        "missing": missing,
        "late": late,
        "events": grouped_events(state.events, rolls, names),
        "fleets": fleet_rows(state.fleets, state.units, names),
        "planets": planet_rows(
            [p for p in state.map.planets.values() if p.marker or state.units_on(p.code)],
            state.units,
            names,
        ),
        "queue": queue_rows(state.queue, state.turn),
        "revealed": [
            f"{side}: {', '.join(names.get(c, c) for c in codes)}"
            for side, codes in sorted(state.revealed.items())
            if codes
        ],
        "dice": [f"#{r.seq} {r.phase} {r.location} {r.purpose}: {r.result}" for r in state.dice],
    }
    return ReportContent(
        template=f"{TEMPLATE_DIR}/referee.html",
        context=context,
        title=f"{state.game_name}: referee's report, {info.results_of()}",
        network=network,
    )


__all__ = ["player_content", "referee_content"]
