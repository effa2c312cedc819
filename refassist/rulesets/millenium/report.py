"""Millenium's reports: each side's from its view alone, and the referee's, in the reader's
language.

The pages: a cover (whose turn is next, the deadline, points, the side's secrets), the
strategic map drawn for the reader (`zonemap`), what happened (each event said again in the
reader's language, `i18n.again`), the battles shot by shot, the fleets and systems as the
reader knows them, and the orders as understood.  The reconstructed tables the game plays
with are named on the cover: a referee with the printed game replaces them.
"""

from __future__ import annotations

from typing import Any

from ...text.i18n import Words, again, words_for
from ...text.words import N_
from ..base import MAP_ANCHOR, Event, ReportContent, ReportInput
from .charts import Tables, tables_for
from .geometry import Position, StrategicMap, zone_name
from .names import SHIP_LABELS, SIDE_LABELS, piece_name, ship_list
from .parse import shown_in
from .state import ALIEN, EMPIRE, Fleet, State
from .visibility import SideView
from .zonemap import Counter, SystemMark, draw, legend

TEMPLATE_DIR = "millenium"
PACKAGE = "refassist.rulesets.millenium"
SIDE_NAMES = SIDE_LABELS
PHASES = (
    N_("set-up"),
    N_("reserve entry"),
    N_("hyperspace"),
    N_("strategic"),
    N_("conquest"),
    N_("retreat"),
    N_("tactical"),
    N_("repairs"),
    N_("production"),
    N_("orders"),
    N_("end"),
)


#: The tables of `data/tables.toml` by the names the printed game gives them, for the cover's
#: list of the reconstructed ones (a reader knows "TAB 2, combat table", not ``combat``).
TABLE_NAMES = {
    "ships": N_("TAB 1 ships (legend)"),
    "fleets": N_("TAB 1 fleets"),
    "characteristics": N_("TAB 2 ship characteristics"),
    "attack": N_("TAB 2 attack points of the weapons"),
    "combat": N_("TAB 2 combat table"),
    "surrender": N_("TAB 2 surrender demand"),
    "levels": N_("TAB 3 levels"),
    "deviation": N_("TAB 3 deviation"),
    "roses": N_("TAB 3 roses"),
}
#: The order the printed game gives its tables in.
_TABLE_ORDER = list(TABLE_NAMES)


def reconstructed_names(keys: frozenset[str] | set[str], w: Words) -> str:
    """The reconstructed tables by their printed names, in the game's order (a table a
    referee's own file adds keeps its key)."""
    ordered = sorted(keys, key=lambda k: (_TABLE_ORDER.index(k) if k in TABLE_NAMES else 99, k))
    return ", ".join(w.gettext(TABLE_NAMES[k]) if k in TABLE_NAMES else k for k in ordered)


def _words(info: ReportInput, reader: str) -> Words:
    return words_for(info.languages.get(reader, "") or info.language, PACKAGE)


def event_lines(events: list[Event], w: Words) -> list[dict[str, Any]]:
    """The events in the reader's language, grouped by phase in the seed's order."""
    out = []
    for phase in PHASES:
        found = [e for e in events if e.phase == phase and e.kind != "battle"]
        if found:
            out.append(
                {
                    "phase": w.gettext(phase),
                    "lines": [again(e.text, w, e.data.get("say")) for e in found],
                }
            )
    return out


def battles(events: list[Event], w: Words) -> list[dict[str, Any]]:
    out = []
    for e in events:
        if e.kind != "battle":
            continue
        log = e.data.get("log", [])
        says = e.data.get("log_say", [None] * len(log))
        out.append(
            {
                "title": again(e.text, w, e.data.get("say")),
                "shots": [_shot(shot, w) for shot in e.data.get("shots", [])],
                "log": [again(text, w, say) for text, say in zip(log, says, strict=False)],
                # A battle fought on the table: the referee's notes (the computer's stand-in
                # says what it is, in the reader's language).
                "notes": w.gettext(str(e.data["notes"])) if e.data.get("notes") else "",
            }
        )
    return out


def _shot(shot: Any, w: Words) -> Any:
    """A shot of a battle's table with its firer and target named for the reader ("corvette 1
    de la flotte A", not the piece's key ``A.corvette1``)."""
    if not isinstance(shot, dict):
        return shot
    named = dict(shot)
    for field in ("firer", "target"):
        if isinstance(named.get(field), str):
            named[field] = piece_name(named[field], w)
    return named


def _fleet_line(f: Fleet, w: Words, game_map: StrategicMap) -> dict[str, str]:
    where = {
        "map": w.gettext("on the map"),
        "reserve": w.gettext("in reserve"),
        "waiting": w.gettext("waiting outside"),
        "destroyed": w.gettext("destroyed"),
    }
    damaged = sum(1 for s in f.ships if s.damaged)
    return {
        "letter": f.letter,
        "where": _place(where.get(f.where, f.where), f.position, game_map, w),
        "ships": ship_list([s.kind for s in f.ships], w),
        "damaged": str(damaged) if damaged else "",
        "interceptors": str(sum(s.interceptors for s in f.ships if s.kind == "porte_intercepteur")),
    }


def _place(where: str, position: Position | None, game_map: StrategicMap, w: Words) -> str:
    """Where a fleet stands; one waiting beyond an edge also where it enters the map."""
    entry = game_map.entry_point(position) if position is not None else None
    if entry is None:
        return f"{where} {position or ''}".strip()
    return w("{where} {place}, enters at {entry}", where=where, place=position, entry=entry).strip()


def _map_page(
    view_map: Any,
    tables: Tables,
    marks: list[SystemMark],
    counters: list[Counter],
    w: Words,
    subtitle: str,
) -> dict[str, Any]:
    return {
        "anchor": MAP_ANCHOR,  # a report's one map page: the archive site shows it
        "title": w.gettext("The strategic map"),
        "subtitle": subtitle,
        "svg": draw(view_map, tables, marks, counters),
        "legend": legend(
            tables,
            {
                ALIEN: w.gettext("the Extraterrestrial's fleets"),
                EMPIRE: w.gettext("the Empire's fleets"),
            },
            lambda n, colour: w("level {n}: {colour}", n=n, colour=colour),
            english=w.language == "en",
        ),
        "notes": [
            w.gettext(
                "A zone's inner sector holds its system, in the colour of the system's level; a "
                "dot per planet shows who holds it (grey: no one, or not known)."
            ),
            w.gettext(
                "A counter is a fleet, with its level in the circle; fleets waiting outside "
                "stand in the margin beside their zone."
            ),
        ],
    }


def _common(
    view_game: str, turn: int, finished: str, info: ReportInput, w: Words, tables: Tables
) -> dict[str, Any]:
    return {
        "game": view_game,
        "period": w("game turn {turn}: the battles for the referee's table", turn=turn)
        if info.awaited is not None and info.awaited.waits_for_referee and not finished
        else w("after game turn {turn}", turn=turn - 1)
        if turn > 1 and not finished
        else w.gettext("after the set-up")
        if turn == 1 and not finished
        else w.gettext("set-up")
        if turn == 0
        else w.gettext("the end"),
        "resolved": info.step,
        "deadline": info.deadline,  # the referee's; a player's own is set below
        "finished": finished,
        "reconstructed": reconstructed_names(tables.reconstructed, w),
        "turn": turn,
    }


def finished_text(finished: str, events: list[Event], w: Words) -> str:
    """How the game ended, in the reader's language (from the event that ended it)."""
    for e in reversed(events):
        if e.kind in ("game_over", "imperial"):
            return again(e.text, w, e.data.get("say"))
    return finished


def player_content(view: SideView, info: ReportInput) -> ReportContent:
    w = _words(info, view.player)
    tables = tables_for(info.house_rules)
    sheet = info.orders_context(view.player)
    awaited = info.awaited_context(view.player)
    marks = [
        SystemMark(
            s.letter, s.name, tuple(p.holder for p in s.planets) if s.planets is not None else None
        )
        for s in view.systems.values()
    ]
    counters = [
        Counter(view.side, f.letter, f.position)
        for f in view.fleets
        if f.position is not None and f.where in ("map", "waiting")
    ]
    counters += [
        Counter(f.side, f.letter, f.position) for f in view.others if f.position is not None
    ]
    systems = [
        {
            "letter": s.letter,
            "name": s.name,
            "where": w(
                "zone {zone}, level {level}",
                zone=zone_name(view.map.systems[s.letter].zone),
                level=view.map.systems[s.letter].level,
            ),
            "loyalty": "" if s.loyalty is None else str(s.loyalty),
            "planets": ", ".join(f"{p.name} {_holder(p.holder, w)}" for p in s.planets)
            if s.planets is not None
            else w.gettext("card not seen"),
        }
        for s in view.systems.values()
    ]
    finished = finished_text(view.finished, view.events, w)
    context = _common(view.game_name, view.turn, finished, info, w, tables) | {
        "reader": view.player,
        "deadline": info.deadlines.get(view.player, info.deadline),
        "side": w.gettext(SIDE_NAMES[view.side]),
        # The programme is the Extraterrestrial's own; the Empire reads it once the game is
        # over, as the other side's.
        "programme_is_yours": view.side == ALIEN,
        # Whose sheet the game waits for is the engine's to say (the referee's battles too).
        "yours": bool(awaited["awaited"] and awaited["awaited"]["yours"]),
        "points": sum(view.points.values()),
        "programme": " ".join(view.programme),
        "imperial": view.imperial,
        "events": event_lines(view.events, w),
        "battles": battles(view.events, w),
        "fleets": [
            _fleet_line(f, w, view.map) for f in view.fleets if f.ships or f.where != "reserve"
        ],
        "others": [
            {"letter": f.letter, "where": _place("", f.position, view.map, w)} for f in view.others
        ],
        "systems": systems,
        **sheet,
        **awaited,
        "zone_pages": [
            _map_page(
                view.map,
                tables,
                marks,
                counters,
                w,
                w("as {side} knows it", side=w.gettext(SIDE_NAMES[view.side])),
            )
        ],
    }
    return ReportContent(
        template=f"{TEMPLATE_DIR}/player.html",
        # Positions in the reader's sector letters (a French reader's 23O4), every text.
        context=shown_in(context, w.language),
        title=f"{view.game_name}: {view.player}, {context['period']}",
    )


def _planet_line(p: Any, w: Words) -> str:
    """``G1 (Empire)* bases 6``: holder, colonised (*), bases (the referee's listing)."""
    bases = w("bases {n}", n=p.bases)
    return f"{p.name} {_holder(p.holder, w)}{'*' if p.colonised else ''} {bases}"


def _holder(side: str, w: Words) -> str:
    return {ALIEN: w.gettext("(Extraterrestrial)"), EMPIRE: w.gettext("(Empire)")}.get(
        side, w.gettext("(free)")
    )


def referee_content(state: State, info: ReportInput) -> ReportContent:
    w = words_for(info.language, PACKAGE)
    tables = tables_for(info.house_rules)
    marks = [
        SystemMark(s.letter, state.map.systems[s.letter].name, tuple(p.holder for p in s.planets))
        for s in state.systems.values()
    ]
    counters = [
        Counter(f.side, f.letter, f.position)
        for f in state.fleets
        if f.position is not None and f.where in ("map", "waiting")
    ]
    systems = [
        {
            "letter": letter,
            "name": state.map.systems[letter].name,
            "where": w(
                "zone {zone}, level {level}",
                zone=zone_name(state.map.systems[letter].zone),
                level=state.map.systems[letter].level,
            ),
            "loyalty": str(s.loyalty),
            "planets": ", ".join(_planet_line(p, w) for p in s.planets),
        }
        for letter, s in state.systems.items()
    ]
    finished = finished_text(state.finished, state.events, w)
    context = _common(state.game_name, state.turn, finished, info, w, tables) | {
        "reader": w.gettext("Referee"),
        "sides": [
            {
                "side": w.gettext(SIDE_NAMES[side]),
                "player": player,
                "points": state.total_points(side),
                "sheet": info.sheets.get(player, ""),
            }
            for side, player in state.players.items()
        ],
        "programme": " ".join(state.programme),
        "imperial": state.imperial,
        "events": event_lines(state.events, w),
        "battles": battles(state.events, w),
        "fleets": [
            dict(_fleet_line(f, w, state.map), side=w.gettext(SIDE_NAMES[f.side]))
            for f in state.fleets
            if f.ships or f.where != "reserve"
        ],
        "systems": systems,
        "zone_pages": [_map_page(state.map, tables, marks, counters, w, w.gettext("everything"))]
        if state.systems
        else [],
        "ship_names": {k: w.gettext(v) for k, v in SHIP_LABELS.items()},
        # The steps named in the referee's language (the dice note), as the players' are.
        **info.awaited_context(None),
    }
    return ReportContent(
        template=f"{TEMPLATE_DIR}/referee.html",
        context=shown_in(context, w.language),
        title=f"{state.game_name}: {w.gettext('Referee')}, {context['period']}",
    )


def report_map(state: State) -> None:
    """No public map: each reader's map is drawn with what that reader knows."""
    return None


__all__ = ["player_content", "referee_content", "report_map"]
