"""The campaign's reports: each commander's, from its view alone, and the referee's.

A commander reads its ledger (stocks by place, ships, facilities, research), its ships'
timelines as they ran, the battles it fought or that wait for the table, what its spies
learned, and a map page of the square grid with what it may know on it.  The referee's report
puts the battles waiting for the tabletop first, then everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...drawings.netmap import NetLink, NetMark, NetNode, NetOwner, NetworkMap
from ..base import Event, ReportContent, ReportInput
from .economy import holdings_text
from .sheet import table_notes
from .state import NATIVES, State
from .view import BattleView, PlaceView, PlayerView, SeenShip
from .visibility import battle_view, place_view

TEMPLATE_DIR = "full-thrust-campaign"
#: The map legend's words for the campaign's places: its diamonds are wormholes.
KIND_NAMES = (("open", "wormhole (diamond)"),)
#: Event phases in the order of a week, with their headings.
PHASES = (
    ("set-up", "Set-up"),
    ("production", "Production"),
    ("travel", "The week's travel"),
    ("economy", "Mining and construction"),
    ("research", "Research and development"),
    ("espionage", "Espionage"),
    ("battles", "Battles"),
    ("end", "The end of the campaign"),
)


def grouped_events(events: Iterable[Event]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Events under a heading per part of the week, in the order of play."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        timeline = e.kind == "timeline"
        view = {
            "kind": e.kind.replace("_", " "),
            "who": timeline_of(e) if timeline else "",
            "where": f"week ends at {e.location}" if timeline and e.location else e.location,
            "text": e.text,
            "lines": [str(x) for x in e.data.get("lines", [])] if timeline else [],
            "found": [str(x) for x in e.data.get("found", [])],
            "notes": str(e.data.get("notes", "")),
            "battle": e.kind.startswith("battle"),
        }
        groups.setdefault(e.phase, []).append(view)
    known = dict(PHASES)
    ordered = [(known[p], groups.pop(p)) for p, _ in PHASES if p in groups]
    ordered += [(p.capitalize() or "Other", items) for p, items in groups.items()]
    return ordered


def timeline_of(e: Event) -> str:
    """Whose week a timeline event tells: the ship (or the fleet and its ships) and its
    commander, ``ANN-1 (Ann)``, ``fleet Escort: ANN-2, ANN-3 (Ann)``; a heading that named
    only the place left a referee with many ships guessing."""
    unit = str(e.data.get("unit", ""))
    ships = [str(s) for s in e.data.get("ships", [])]
    owner = ", ".join(e.players)
    name = f"fleet {unit}: {', '.join(ships)}" if ships and ships != [unit] else unit
    return f"{name} ({owner})" if owner else name


def battle_rows(
    battles: Sequence[BattleView],
    designs: dict[str, Any],
    notes: Mapping[str, list[str]] | None = None,
) -> list[dict[str, Any]]:
    """The battles waiting for the table, a row per ship.  A ship whose condition the reader
    does not know (a rival's, in a commander's report) shows "?" for its boxes, cargo and
    crew: the table finds them out.  ``notes``: each battle's table notes (`table_notes`),
    for the referee's printable page."""
    rows = []
    for b in battles:
        ships = []
        for s in b.ships:
            design = designs.get(s.design)
            known = s.condition
            if known is None:
                boxes, cargo, crack = "?", "?", ""
            else:
                boxes = f"{known.damage}/{design.boxes}" if design else "-"
                cargo, crack = str(known.cargo), "crack" if known.crack else ""
            emergence = "landed" if s.inches == 0 else f'{s.inches}" b{s.bearing}'
            if s.deviation:
                emergence += f' (deviated {s.deviation}" b{s.deviation_bearing})'
            ships.append(
                {
                    "ship": s.ship,
                    "side": s.owner,
                    "design": s.design,
                    "boxes": boxes,
                    "turn": s.arrives,
                    "cargo": cargo,
                    "crack": crack,
                    "emergence": emergence,
                }
            )
        rows.append(
            {
                "id": b.id,
                "place": b.place,
                "hour": f"{b.hour // 10}.{b.hour % 10}",
                "sides": ", ".join(b.sides),
                "invasion": b.invasion,
                "ships": ships,
                "notes": list((notes or {}).get(b.id, [])),
            }
        )
    return rows


def _owners(names: Iterable[str]) -> tuple[NetOwner, ...]:
    ordered = sorted({n for n in names if n and n != NATIVES})
    return tuple(NetOwner(name, name[:2].upper(), i) for i, name in enumerate(ordered))


def player_network(view: PlayerView) -> NetworkMap:
    """The grid with what the commander knows: owners and ports where in sight, its ships and
    those it sees, its week's jumps as links."""
    battles = {e.location for e in view.events if e.kind in ("battle_opened", "battle_result")}
    nodes = tuple(
        _node(p, view.ships_at(p.name), not p.in_sight, p.name in battles) for p in view.places
    )
    jumps = {
        tuple(sorted(j))
        for e in view.events
        if e.kind == "timeline"
        for j in e.data.get("jumps", [])
    }
    links = tuple(NetLink(a, b) for a, b in sorted(jumps))
    return NetworkMap(
        title=view.map_title or "The campaign map",
        nodes=nodes,
        links=links,
        owners=_owners([p.owner for p in view.places] + [s.owner for s in view.seen]),
        subtitle=f"as known to {view.commander.name} at the start of week {view.week}",
        notes=(
            "One square is one parsec; lines are your ships' jumps this week.",
            "Owners and ports are shown where you have a ship or a planet; elsewhere the "
            "place is grey.",
        ),
        grid=(view.columns, view.rows),
        blocked=tuple(view.obstacles),
        kind_names=KIND_NAMES,
    )


def _node(p: PlaceView, lines: list[str], shaded: bool, battle: bool) -> NetNode:
    c, r = p.square
    kind = "open" if p.kind == "wormhole" else ("home" if p.home else "place")
    return NetNode(
        code=p.name,
        name=p.label,
        x=c - 0.5,
        y=r - 0.5,
        kind=kind,
        owner=p.owner,
        marks=tuple(NetMark(text) for text in p.features()),
        lines=tuple(lines),
        shaded=shaded,
        battle=battle,
    )


def _ship_rows(ships: Iterable[Any], designs: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for s in ships:
        design = designs.get(s.design)
        status = []
        if s.ready_week:
            status.append(f"in service week {s.ready_week}")
        if s.drive != "ok":
            status.append(f"FTL drive {s.drive}")
        if getattr(s, "scrapping", 0):
            status.append(f"being scrapped, {s.scrapping} hours left")
        if getattr(s, "item", 0):
            status.append(f"ancient item worth {s.item} aboard")
        if s.landed:
            status.append("landed")
        if s.crack:
            status.append("crack")
        if s.stores:
            status.append(holdings_text(s.stores))
        rows.append(
            {
                "id": s.id,
                "owner": s.owner,
                "design": s.design,
                "place": s.place,
                "fuel": s.fuel,
                "cargo": f"{s.cargo}/{design.cargo_spaces}" if design and design.hold else "-",
                "damage": f"{s.damage}/{design.boxes}" if design else str(s.damage),
                "status": ", ".join(status),
            }
        )
    return rows


def seen_rows(seen: Iterable[SeenShip]) -> list[dict[str, Any]]:
    """Other commanders' ships as sight shows them: no fuel, cargo, damage or crew."""
    return [
        {
            "id": s.id,
            "owner": s.owner,
            "design": s.design,
            "place": s.place,
            "status": "landed" if s.landed else "",
        }
        for s in seen
    ]


def player_content(view: PlayerView, info: ReportInput) -> ReportContent:
    c = view.commander
    name = c.name
    context = {
        "game": view.game_name,
        "period": f"week {view.week}",
        "reader": name,
        "resolved": info.step,
        "week": view.week,
        "deadline": info.deadline,
        "finished": view.finished,
        "home": c.home,
        "points": sum(view.stocks.values()),
        "stocks": [{"place": p, "points": n} for p, n in view.stocks.items()],
        "ships": _ship_rows(view.ships, view.designs),
        "seen": seen_rows(view.seen),
        "facilities": [{"id": f.id, "kind": f.kind, "place": f.place} for f in view.facilities],
        "planets": [
            {
                "name": p.name,
                "value": p.value,
                "port": p.port,
                "defences": holdings_text(p.defences),
            }
            for p in view.places
            if p.owner == name
        ],
        "spies": c.spies,
        "master_spies": c.master_spies,
        "discoveries": list(c.discoveries),
        "developed": list(c.developed),
        "allies": list(c.allies),
        "battles": battle_rows(view.battles, view.designs),
        "events": grouped_events(view.events),
        **info.orders_context(name),
        **info.awaited_context(name),
    }
    return ReportContent(
        template=f"{TEMPLATE_DIR}/player.html",
        context=context,
        title=f"{view.game_name}: {name}, {info.results_of()}",
        network=player_network(view),
    )


def referee_content(state: State, info: ReportInput) -> ReportContent:
    names = [c.name for c in state.commanders]
    here: dict[str, list[str]] = {}
    for s in state.ships:
        here.setdefault(s.place, []).append(f"{s.id} ({s.owner})")
    battles = {b.place for b in state.battles}
    network = NetworkMap(
        title=state.map_title or "The campaign map",
        nodes=tuple(
            _node(place_view(s, True), here.get(s.name, []), False, s.name in battles)
            for s in sorted(state.systems.values(), key=lambda s: s.name)
        ),
        links=(),
        owners=_owners(names),
        subtitle=f"everything, at the start of week {state.week}",
        notes=("One square is one parsec.",),
        grid=(state.columns, state.rows),
        blocked=tuple(sorted(state.obstacles)),
        kind_names=KIND_NAMES,
    )
    commanders = []
    for c in state.commanders:
        commanders.append(
            {
                "name": c.name,
                "home": c.home,
                "points": sum(p for (_, o), p in state.stocks.items() if o == c.name),
                "ships": len([s for s in state.ships if s.owner == c.name]),
                "planets": ", ".join(s.name for s in state.systems.values() if s.owner == c.name),
                "spies": f"{c.spies} / {c.master_spies}",
                "research": ", ".join(c.developed) or "-",
                "sheet": info.sheets.get(c.name, ""),
            }
        )
    context = {
        **info.awaited_context(None),
        "game": state.game_name,
        "period": f"week {state.week}",
        "reader": "Referee",
        "resolved": info.step,
        "week": state.week,
        "deadline": info.deadline,
        "finished": state.finished,
        "battles": battle_rows(
            [battle_view(b, lambda _: True) for b in state.battles],
            state.designs,
            {b.id: table_notes(state, b) for b in state.battles},
        ),
        "commanders": commanders,
        "events": grouped_events(state.events),
        "ships": _ship_rows(sorted(state.ships, key=lambda s: s.id), state.designs),
        "stocks": [
            {"place": p, "owner": o, "points": n} for (p, o), n in sorted(state.stocks.items())
        ],
        "missing": [p for p, status in info.sheets.items() if status == "missing"],
        "late": [p for p, status in info.sheets.items() if status == "late"],
    }
    return ReportContent(
        template=f"{TEMPLATE_DIR}/referee.html",
        context=context,
        title=f"{state.game_name}: referee's report, {info.results_of()}",
        network=network,
    )


__all__ = [
    "battle_rows",
    "grouped_events",
    "player_content",
    "player_network",
    "referee_content",
    "seen_rows",
    "timeline_of",
]
