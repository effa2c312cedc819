"""Millennium Wars' reports: each side's, from its view alone, and the referee's.

A side reads where the game stands (the exchange awaited and whose sheet it is, the Political
Index, its points and levels, the turn's event, air and weather), the board with its units and
the enemy units it sees, every combat it was told of with the odds, each shift, the die and the
result, what happened in order, its units and the objectives, and its orders as understood.
The referee's report has both sides' units on the board, the attacks waiting for a reaction,
and every event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...dice import Roll
from ...drawings.boardmap import (
    BoardCounter,
    BoardEdge,
    BoardPlace,
    BoardSide,
    BoardTerrain,
    HexBoard,
)
from ..base import Event, ReportContent, ReportInput
from .attacked import LEFT_OUT, attacks_on
from .state import State, unit_line
from .units import Unit

TEMPLATE_DIR = "millennium-wars"
PHASES = (
    ("events", "The game turn's random event"),
    ("air", "Air superiority"),
    ("reinforcements", "Reinforcements"),
    ("purchases", "Purchases"),
    ("information warfare", "Information warfare"),
    ("movement", "Movement"),
    ("reaction", "Reserve moves"),
    ("combat", "Combat"),
    ("recovery", "Recovery"),
    ("reserves", "Reserves for the enemy's turn"),
    ("administration", "Administrative segment"),
    ("end", "The end of the game"),
)
#: The terrains as the board draws them: fill and a printed mark for black-and-white print.
TERRAINS = (
    BoardTerrain("plain", "plain", "#f4f1e1"),
    BoardTerrain("desert", "desert", "#f0dc9c", "∴"),
    BoardTerrain("rough", "rough", "#d8c39a", "⁂"),
    BoardTerrain("mountain", "mountain", "#b99e7b", "▲"),
    BoardTerrain("forest", "forest", "#a9d08e", "♣"),
    BoardTerrain("swamp", "swamp", "#bcd9c8", "≈"),
    BoardTerrain("glacier", "glacier", "#eaf4fa", "✱"),
    BoardTerrain("lake", "lake", "#9fcbe8"),
    BoardTerrain("sea", "sea", "#7fb2dc"),
)
SYMBOL = {
    "armor": "armour",
    "mechanized infantry": "mechanized",
    "armored cavalry": "cavalry",
    "combined arms": "mechanized",
    "mechanized airborne": "airborne",
    "high-tech strike force": "armour",
    "headquarters": "headquarters",
    "light infantry": "infantry",
    "shock": "infantry",
    "special operations": "special forces",
    "airborne infantry": "airborne",
    "air assault": "air assault",
    "marine": "marine",
    "paramilitary": "militia",
    "cybercadre": "information",
    "political power nexus": "political",
    "naval task force": "naval",
}


def grouped_events(events: Iterable[Event]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Events under a heading per phase, in the order of play."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        groups.setdefault(e.phase, []).append(
            {"kind": e.kind.replace("_", " "), "where": e.location, "text": e.text}
        )
    known = dict(PHASES)
    ordered = [(known[p], groups.pop(p)) for p, _ in PHASES if p in groups]
    return ordered + [(p.capitalize() or "Other", items) for p, items in groups.items()]


def _odds_text(data: Mapping[str, Any]) -> str:
    """An attack's odds as the combat table prints them: the strengths, every shift taken and
    the column used (``6 to 4, -1 attacker out of supply: 1/1``)."""
    column = str(data.get("odds", ""))
    parts = [str(data["strengths"])] if data.get("strengths") else []
    shifts = data.get("shifts") or ()
    parts += [shifts] if isinstance(shifts, str) else [str(s) for s in shifts]
    return f"{', '.join(parts)}: {column}" if parts else column


def combats(events: Iterable[Event]) -> list[dict[str, Any]]:
    """Each attack fought: the hex, the table, the odds with every shift, the die, the
    result, and what followed."""
    rows = []
    for e in events:
        if e.kind != "attack":
            continue
        rows.append(
            {
                "hex": e.location,
                "crt": str(e.data.get("crt", "")),
                "odds": _odds_text(e.data),
                "die": e.data.get("die", ""),
                "result": str(e.data.get("result", "")),
                "reconstructed": bool(e.data.get("reconstructed")),
                "text": e.text,
            }
        )
    return rows


def roll_line(roll: Roll) -> str:
    """A die as the referee's report lists it: its number in the exchange, where and why it
    was rolled, the die and what came up (``#3 combat 0905 CRT die: 4 (d6)``)."""
    where = " ".join(p for p in (roll.phase, roll.location) if p)
    return f"#{roll.seq} {where} {roll.purpose}: {roll.result} (d{roll.sides})".replace("  ", " ")


def _counter(unit: Unit) -> BoardCounter:
    return BoardCounter(
        hex=unit.hex,
        side=unit.side,
        symbol=SYMBOL.get(unit.type, unit.type),
        size=unit.symbol if unit.size != "cadre" else "cadre",
        strength=f"{unit.attack}-{unit.defence}-{unit.speed}",
        label=unit.id,
        disrupted=unit.disrupted,
        spent=unit.ops_complete,
    )


def hex_board(state: State, title: str, subtitle: str, notes: tuple[str, ...]) -> HexBoard:
    """The board as ``state`` knows it (a side's view, or the whole state for the referee)."""
    scenario = state.scenario
    sides = tuple(
        BoardSide(s.name, s.name[:1].upper(), 0 if s.name == scenario.first else 1)
        for s in state.sides
    )
    places = tuple(
        BoardPlace(p.hex, p.name, p.kind, scenario.objectives.get(p.hex, 0))
        for p in sorted(scenario.places.values(), key=lambda p: p.hex)
    )
    places += tuple(
        BoardPlace(h, "", "objective", pts)
        for h, pts in sorted(scenario.objectives.items())
        if h not in scenario.places
    )
    edges = tuple(BoardEdge(a, b, "river") for a, b in sorted(scenario.rivers))
    edges += tuple(BoardEdge(a, b, "border") for a, b in sorted(scenario.borders))
    strongest = sorted(
        (u for u in state.units if u.hex),
        key=lambda u: (u.hex, -(u.attack + u.defence), u.id),
    )
    fought = sorted({e.location for e in state.events if e.kind == "attack" and e.location})
    # Every land unit drawn controls the six hexes around it (`board`): the zones drawn are
    # those of the counters on this board, so a reader sees none cast by a unit he does not.
    order = {s.name: s.style for s in sides}
    zones: dict[str, set[str]] = {}
    for unit in state.units:
        if unit.hex and not unit.kind.naval:
            for hex_ in scenario.grid.neighbours(unit.hex):
                zones.setdefault(hex_, set()).add(unit.side)
    return HexBoard(
        title=title,
        cols=scenario.columns,
        rows=scenario.rows,
        terrains=TERRAINS,
        terrain={h: t for h, t in scenario.terrain.items() if t != "plain"},
        sides=sides,
        places=places,
        edges=edges,
        roads=tuple(tuple(loc) for loc in scenario.locs),
        counters=tuple(_counter(u) for u in strongest),
        battles=tuple(fought),
        zones={h: tuple(sorted(z, key=lambda s: order.get(s, 9))) for h, z in zones.items()},
        subtitle=subtitle,
        notes=notes,
    )


def _period(state: State) -> str:
    """The exchange a report leads to, short enough for a page head: ``turn 1, impulse 2,
    Sarkand's reaction``; ``turn 3, the ceasefire``; ``the end``."""
    point = state.point
    if state.finished:
        return "the end"
    if point.ceasefire:
        return f"turn {point.turn}, the ceasefire"
    words = f"turn {point.turn}, {state.phasing.name}'s impulse {point.impulse}"
    return f"{words}, {state.reacting.name}'s reaction" if point.reaction else words


def _common(state: State, info: ReportInput) -> dict[str, Any]:
    return {
        "game": state.game_name,
        # The page heads name the exchange in words, never by its folder key (1-1-2r).
        "period": _period(state),
        "resolved": info.step,
        "deadline": info.deadline,
        "finished": state.finished,
        "index": state.political_index,
        "random_event": state.event or "none",
        "air": f"{state.air} ({state.air_level})" if state.air else "parity",
        "bad_weather": state.bad_weather,
        "combats": combats(state.events),
        "events": grouped_events(state.events),
        "scenario": state.scenario.title,
        "turns": state.scenario.turns,
        "objectives": [
            {
                "hex": h,
                "name": state.scenario.places[h].name if h in state.scenario.places else "",
                "points": p,
                "held": state.held.get(h) or "no one",
            }
            for h, p in sorted(state.scenario.objectives.items())
        ],
    }


def player_content(view: State, info: ReportInput) -> ReportContent:
    side = view.side(view.viewer)
    name = side.player
    mine = sorted((u for u in view.units if u.side == side.name), key=lambda u: u.id)
    theirs = sorted((u for u in view.units if u.side != side.name), key=lambda u: u.id)
    point = view.point
    if point.ceasefire:
        yours = True
    else:
        yours = (view.reacting if point.reaction else view.phasing).name == side.name
    context = _common(view, info) | {
        "reader": name,
        "side": side.name,
        "yours": yours and not view.finished,
        "points": str(side.political_points),
        "c4i": side.c4i,
        "air_defence": side.air_defence,
        "units": [unit_line(u, view) for u in mine],
        "seen": [unit_line(u, view) for u in theirs],
        "lost": [unit_line(u, view) for u in view.lost if u.side == side.name],
        # Before the reaction: the attacks on this side's units, for its retreats.
        "attacked": [a.text for a in attacks_on(view, info.house_rules)],
        "attacked_note": LEFT_OUT,
        **info.orders_context(name),
        **info.awaited_context(name),
    }
    board = hex_board(
        view,
        f"The board: what {side.name} sees",
        f"before exchange {point.key}",
        (
            "Enemy units are shown only where you see them: next to your units, in your home "
            "country, or everywhere while information or air superiority lets you examine them.",
            "Counters: the type and size on top, attack-defence-speed, the unit's id; every "
            "counter of a stack side by side. A dashed band inside a hex: the zone of control "
            "of the side of its colour.",
        ),
    )
    return ReportContent(
        template=f"{TEMPLATE_DIR}/player.html",
        context=context,
        title=f"{view.game_name}: {name} ({side.name}), {info.results_of()}",
        board=board,
    )


def referee_content(state: State, info: ReportInput) -> ReportContent:
    sides = [
        {
            "name": s.name,
            "player": s.player,
            "c4i": f"{s.c4i} (start {s.c4i_start})",
            "air_defence": s.air_defence,
            "points": str(s.political_points),
            "units": len([u for u in state.units if u.side == s.name]),
            "lost": len([u for u in state.lost if u.side == s.name]),
            "sheet": info.sheets.get(s.player, ""),
        }
        for s in state.sides
    ]
    context = _common(state, info) | {
        **info.awaited_context(None),
        "reader": "Referee",
        "sides": sides,
        "units": [unit_line(u, state) for u in sorted(state.units, key=lambda u: u.id)],
        "lost": [unit_line(u, state) for u in state.lost],
        "pending": [
            f"{' '.join(a.attackers)} attack {a.hex} on the {a.crt} CRT" for a in state.pending
        ],
        # Every die the exchange rolled, in order: `report --help` promises the referee
        # every roll, and a disputed result is checked against them.
        "dice": [roll_line(r) for r in state.dice],
        "missing": [p for p, status in info.sheets.items() if status == "missing"],
        "late": [p for p, status in info.sheets.items() if status == "late"],
    }
    board = hex_board(
        state,
        "The board: everything",
        f"before exchange {state.point.key}",
        (
            "Counters: the type and size on top, attack-defence-speed, the unit's id; every "
            "counter of a stack side by side. A dashed band inside a hex: the zone of control "
            "of the side of its colour.",
        ),
    )
    return ReportContent(
        template=f"{TEMPLATE_DIR}/referee.html",
        context=context,
        title=f"{state.game_name}: referee's report, {info.results_of()}",
        board=board,
    )


__all__ = [
    "combats",
    "grouped_events",
    "hex_board",
    "player_content",
    "referee_content",
    "roll_line",
]
