"""What a Fifth Millennium report says: the template data for a player and for the referee.

A player's report is built from a `PlayerView` only (`visibility.player_view`), never from the
full `State`: whatever the view does not hold cannot reach the PDF, which is the fog of war's
guarantee.  The public map (`report_map`) holds only what the printed Traveller map shows.
The referee's report is built from the whole state.

Everything is formatted here, in the game's own notation (`notation.py`), so the templates only
lay out strings and numbers; event details follow the contract in ``docs/events.md`` and every
kind falls back to the event's own sentence when its details are missing or unexpected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ...drawings.mapmodel import (
    HexNote,
    MapOverlay,
    MapOwner,
    MapWorld,
    Route,
    SectorMap,
    owner_tags,
)
from ...geometry.hexcache import within
from ...geometry.hexmap import SECTOR, subsector_letter
from ...text.words import counted
from ..base import Event, ReportContent, ReportInput, as_row, fields_of
from .items import ITEMS_BY_CODE
from .notation import fleet_text, flight_text, system_text
from .state import (
    BATTLE_NAMES,
    CLASS_INCOME,
    FACILITY_NAMES,
    FLEET_FIELDS,
    Facility,
    Fleet,
    Flight,
    Force,
    State,
)
from .view import ForceSeen, PlayerView, SystemView

TEMPLATE_DIR = "fifth-millennium"

#: Names of the units that appear in battle data (squadrons, munitions, facilities).
UNIT_NAMES = {**BATTLE_NAMES, "NB": "Naval base", "P": "Probe", **FACILITY_NAMES}

#: Phases in turn order, with the heading each gets in "What happened".
PHASES = (
    ("orders", "Orders"),
    ("setup", "Set-up"),
    ("diplomacy", "Diplomacy"),
    ("arrivals", "Arrivals"),
    ("conflict", "Conflict"),
    ("departures", "Departures"),
    ("production", "Production"),
    ("unrest", "Civil unrest"),
    ("end", "End of the turn"),
)

#: Event kinds shown in their own section rather than in "What happened".
OWN_SECTION = {"production", "message"}


# --------------------------------------------------------------------------------------------
# The public map
# --------------------------------------------------------------------------------------------


def report_map(state: State) -> SectorMap:
    """The printed map: every system's hex, name, printed class, bases and HiPop."""
    return SectorMap(
        title=state.sector_name or "Sector",
        worlds=tuple(
            MapWorld(
                hex=s.hex,
                name=s.name,
                code=s.original_class,
                naval=s.map_naval_base,
                scout=s.map_scout_base,
                capitals=s.map_hipop,
            )
            for s in state.systems
        ),
        subsector_names={k: v for k, v in state.subsector_names.items() if v},
    )


def map_owners(players: Sequence[str]) -> tuple[MapOwner, ...]:
    """Every player's map style, fixed by the player list so all reports agree."""
    tags = owner_tags(players)
    return tuple(MapOwner(name, tags[name], i) for i, name in enumerate(players))


# --------------------------------------------------------------------------------------------
# Formatting helpers
# --------------------------------------------------------------------------------------------


def fleet_dict_text(data: Mapping[str, Any] | None) -> str:
    """A fleet from event data (``{"F": 8, "A": 1, "M": 2, "NB": 1}``) as the notation plus
    monitors, probes and a naval base, e.g. ``F8 S0 A1(Fs0 Ms0 K0) + M2 + naval base``."""
    if not isinstance(data, Mapping):
        return ""
    values = {k: _int(data.get(k)) for k in FLEET_FIELDS}
    parts = []
    if any(values.values()):
        parts.append(fleet_text(Fleet(**values)))
    if _int(data.get("M")):
        parts.append(f"M{_int(data.get('M'))}")
    if _int(data.get("P")):
        parts.append(counted(_int(data.get("P")), "probe"))
    if _int(data.get("NB")):
        parts.append("naval base")
    return " + ".join(parts) or "nothing"


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def force_short(fleet: Fleet, monitors: int = 0, probes: int = 0) -> str:
    """A compact fleet for map labels: only the non-zero fields, ``F12 S2 M1``."""
    parts = [f"{f}{getattr(fleet, f)}" for f in FLEET_FIELDS if getattr(fleet, f)]
    if monitors:
        parts.append(f"M{monitors}")
    if probes:
        parts.append(f"P{probes}")
    return " ".join(parts)


def unit_list(items: Any) -> str:
    """``[{"player": "Ann", "unit": "S", "count": 1}, ...]`` as ``Ann: Strike x1, ...``."""
    if not isinstance(items, list):
        return ""
    out = []
    for item in items:
        if isinstance(item, Mapping):
            unit = UNIT_NAMES.get(str(item.get("unit", "")), str(item.get("unit", "")))
            who = f"{item['player']}: " if item.get("player") else ""
            out.append(f"{who}{unit} x{_int(item.get('count', 1)) or 1}")
        elif item:
            out.append(str(item))
    return ", ".join(out)


def system_income(s: SystemView) -> int:
    return (
        CLASS_INCOME.get(s.resource_class, 0)
        + int(s.naval_base)
        + int(s.scout_base)
        + int(s.hipop)
        + s.gl
        + s.opc
    )


def _where(hex_: str, names: Mapping[str, str]) -> str:
    if not hex_:
        return ""
    name = names.get(hex_)
    return f"{hex_} {name}" if name else hex_


# --------------------------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------------------------


def event_view(event: Event, names: Mapping[str, str]) -> dict[str, Any]:
    """An event as the templates use it: kind, where, sentence, and formatted details."""
    data = event.data if isinstance(event.data, Mapping) else {}
    detail: dict[str, Any] = {}
    try:
        if event.kind == "battle":
            detail = battle_view(data)
        elif event.kind == "probe_report":
            detail = {
                "owner": str(data.get("owner") or "nobody"),
                "class": str(data.get("class", "")),
                "forces": [_forces_item(f) for f in data.get("forces") or []],
                "facilities": [_facility_item(f) for f in data.get("facilities") or []],
            }
        elif event.kind == "trade":
            roll = data.get("roll") or []
            detail = {
                "partner": str(data.get("partner", "")),
                "roll": " + ".join(str(r) for r in roll) if isinstance(roll, list) else str(roll),
                "modifier": _int(data.get("modifier")),
                "table_row": data.get("table_row", ""),
                "multiplier": data.get("multiplier", ""),
                "points": data.get("points", ""),
            }
        elif event.kind in ("order_cancelled", "purchase_cancelled"):
            what = data.get("order") or _purchase_text(data)
            detail = {
                "what": str(what or ""),
                "cell": str(data.get("cell", "")),
                "reason": str(data.get("reason", "")),
            }
        elif event.kind == "capture":
            detail = {
                "from": str(data.get("from") or "nobody"),
                "to": str(data.get("to", "")),
                "captured": unit_list(data.get("captured")),
                "destroyed": unit_list(data.get("destroyed")),
            }
        elif event.kind in ("unrest", "udi"):
            detail = {"chance": str(data.get("chance", "")), "roll": data.get("roll", "")}
    except (TypeError, ValueError, KeyError, AttributeError):
        detail = {}
    return {
        "kind": event.kind,
        "phase": event.phase,
        "where": _where(event.location, names),
        "text": event.text,
        "detail": detail,
        "dice": ", ".join(str(d) for d in event.dice),
        "visible_to": ", ".join(event.visible_to) if event.visible_to else "referee only",
    }


def _purchase_text(data: Mapping[str, Any]) -> str:
    item = str(data.get("item", ""))
    if not item:
        return ""
    found = ITEMS_BY_CODE.get(item.upper())
    name = found.name if found else item
    qty = _int(data.get("quantity")) or 1
    where = f" at {data['location']}" if data.get("location") else ""
    cost = f" (cost {data['cost']})" if data.get("cost") not in (None, "") else ""
    return f"{qty} x {name}{where}{cost}"


def _forces_item(item: Any) -> str:
    if isinstance(item, Mapping):
        who = item.get("owner") or item.get("player") or "independent"
        fleet = item.get("fleet") if isinstance(item.get("fleet"), Mapping) else item
        return f"{who}: {fleet_dict_text(fleet)}"
    return str(item)


def _facility_item(item: Any) -> str:
    if isinstance(item, Mapping):
        kind = str(item.get("kind", ""))
        name = FACILITY_NAMES.get(kind, kind)
        count = _int(item.get("count", 1)) or 1
        owner = f" ({item['owner']})" if item.get("owner") else ""
        return f"{name} x{count}{owner}"
    return str(item)


def battle_view(data: Mapping[str, Any]) -> dict[str, Any]:
    """A battle, roll by roll: sides and forces, step 0, each round's CVs, each die with its
    target, the kills in the order they were applied, and the outcome."""
    sides = [
        {
            "player": str(s.get("player", "")),
            "role": str(s.get("role", "")),
            "forces": fleet_dict_text(s.get("forces")),
            "building": fleet_dict_text(s.get("building")) if s.get("building") else "",
        }
        for s in data.get("sides") or []
        if isinstance(s, Mapping)
    ]
    step0 = []
    for s in data.get("step0") or []:
        if not isinstance(s, Mapping):
            continue
        kind = str(s.get("kind", ""))
        rolls = [_roll(r) for r in s.get("rolls") or []]
        entry = {
            "kind": {"sweep": "Minesweeping", "mines": "Minefield", "kkm": "KKM swarm"}.get(
                kind, kind
            ),
            "player": str(s.get("player", "")),
            "rolls": rolls,
            "kills": unit_list(s.get("kills")),
            "note": "",
        }
        if kind == "sweep":
            entry["note"] = (
                f"minefield {s.get('minefield_before', '?')} → {s.get('minefield_after', '?')}"
            )
        step0.append(entry)
    rounds = []
    for r in data.get("rounds") or []:
        if not isinstance(r, Mapping):
            continue
        cv = r.get("cv") or {}
        rounds.append(
            {
                "number": r.get("round", len(rounds) + 1),
                "cv": ", ".join(f"{p} {v}" for p, v in cv.items())
                if isinstance(cv, Mapping)
                else str(cv),
                "victor": str(r.get("victor") or ""),
                "defeated": str(r.get("defeated") or ""),
                "attrition": bool(r.get("attrition")),
                "rolls": [_roll(x) for x in r.get("rolls") or []],
                "kills": _kill_order(r.get("kills")),
            }
        )
    outcome = data.get("outcome") or {}
    return {
        "sides": sides,
        "step0": step0,
        "rounds": rounds,
        "outcome": {
            "victor": str(outcome.get("victor") or ""),
            "defeated": str(outcome.get("defeated") or ""),
            "held": bool(outcome.get("held")),
            "captured": unit_list(outcome.get("captured")),
            "destroyed": unit_list(outcome.get("destroyed")),
        }
        if isinstance(outcome, Mapping)
        else {},
    }


def _roll(r: Any) -> dict[str, Any]:
    if isinstance(r, Mapping):
        unit = str(r.get("unit", ""))
        return {
            "player": str(r.get("player", "")),
            "unit": UNIT_NAMES.get(unit, unit),
            "die": r.get("die", ""),
            "target": str(r.get("target", "")),
            "kill": bool(r.get("kill")),
        }
    return {"player": "", "unit": "", "die": r, "target": "", "kill": False}


def _kill_order(kills: Any) -> list[str]:
    """Kills as applied, one entry per step: ``1. Ann loses Strike x1``."""
    out = []
    if isinstance(kills, list):
        for i, k in enumerate(kills, 1):
            if isinstance(k, Mapping):
                unit = UNIT_NAMES.get(str(k.get("unit", "")), str(k.get("unit", "")))
                out.append(f"{i}. {k.get('player', '')} loses {unit} x{_int(k.get('count', 1))}")
    return out


def ledger_view(data: Mapping[str, Any]) -> dict[str, Any]:
    """The production ledger: income line by line, trade, purchases, upkeep, stockpile."""

    def lines(key: str) -> list[tuple[str, Any]]:
        out = []
        for item in data.get(key) or []:
            if isinstance(item, list | tuple) and len(item) == 2:
                out.append((str(item[0]), item[1]))
        return out

    purchases = []
    for p in data.get("purchases") or []:
        if isinstance(p, Mapping):
            purchases.append(
                {
                    "what": p.get("name") or UNIT_NAMES.get(str(p.get("item", "")), p.get("item")),
                    "location": str(p.get("location", "")),
                    "quantity": p.get("quantity", ""),
                    "cost": p.get("cost", ""),
                    "status": str(p.get("status", "")),
                }
            )
    return {
        "income": lines("income"),
        "income_total": data.get("income_total", ""),
        "trade": lines("trade"),
        "purchases": purchases,
        "upkeep": lines("upkeep"),
        "stockpile_before": data.get("stockpile_before", ""),
        "stockpile_after": data.get("stockpile_after", ""),
        "stockpile_last_turn": data.get("stockpile_last_turn", ""),
        "referee_adjustment": data.get("referee_adjustment", 0),
        "income_blocked": str(data.get("income_blocked") or ""),
    }


def group_events(events: Iterable[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Events under phase headings, in turn order (unknown phases last, in their order)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        groups.setdefault(e["phase"], []).append(e)
    known = dict(PHASES)
    ordered = [(known[p], groups.pop(p)) for p, _ in PHASES if p in groups]
    ordered.extend((p.capitalize() or "Other", items) for p, items in groups.items())
    return ordered


# --------------------------------------------------------------------------------------------
# A player's report
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _within(hex_: str, radius: int) -> frozenset[str]:
    return frozenset(within(hex_, radius))  # the rules' cache: sight walked these already


def sight_region(view: PlayerView) -> set[str]:
    """Hexes the player sees now: the view's sight plus best range around owned systems
    (the ranges are cached: every report of every turn asks for the same few hundred)."""
    region = set(view.in_sight)
    for s in view.owned:
        region |= _within(s.hex, view.best_range)
    return region


def _seen_text(force: ForceSeen) -> str:
    text = force_short(force.fleet, force.M, force.P)
    if force.building:
        text += " (building)"
    return f"{force.owner or 'independent'} {text}".strip()


def system_line(s: SystemView, player: str) -> dict[str, Any]:
    """One known system in the game's system notation, with its status."""
    own = [f for f in s.forces if f.owner == s.owner and not f.building]
    fleet = own[0].fleet if own else Fleet()
    monitors = own[0].M if own else 0
    others = [_seen_text(f) for f in s.forces if f not in own]
    bases = fields_of(s, "naval_base scout_base hipop")
    if s.status == "in sight":
        seen = fields_of(s, "spacedock gl opc mines")
        line = system_text(
            s.hex,
            s.name,
            s.resource_class,
            **bases,
            **seen,
            monitors=monitors,
            fleet=fleet,
            income=system_income(s),
        )
    else:
        line = system_text(s.hex, s.name, s.resource_class, **bases).split(" G0 ")[0]
        if s.forces_text:
            others = [s.forces_text, *others]
    return {
        "hex": s.hex,
        "name": s.name,
        "owner": s.owner,
        "mine": s.owner == player,
        "status": s.status,
        "seen_year": s.seen_year,
        "notation": line,
        "others": others,
        "facilities": list(s.facilities),
    }


def _force_line(f: Force, names: Mapping[str, str]) -> dict[str, Any]:
    extra = []
    if f.M:
        extra.append(f"M{f.M}")
    if f.P:
        extra.append(f"{counted(f.P, 'probe')} ready")
    return {
        "where": _where(f.hex, names),
        "fleet": fleet_text(f.fleet),
        "extra": ", ".join(extra),
        "building": f.building,
        "squadrons": f.fleet.squadrons + f.M,
    }


def _flight_line(f: Flight, names: Mapping[str, str]) -> dict[str, Any]:
    return as_row(f) | {
        "notation": flight_text(f),
        "origin": _where(f.origin, names),
        "destination": _where(f.destination, names),
    }


def _facility_line(f: Facility, names: Mapping[str, str]) -> dict[str, Any]:
    where = _where(f.hex, names)
    return as_row(f) | {"where": where, "what": FACILITY_NAMES.get(f.kind, f.kind)}


def player_overlay(view: PlayerView, public: SectorMap) -> MapOverlay:
    """What the player knows, drawn over the printed map."""
    printed = {w.hex: w.code for w in public.worlds}
    notes = []
    subsectors: set[str] = set()
    for s in view.systems:
        if s.status == "map":
            continue
        if s.status == "in sight":
            subsectors.add(subsector_letter(s.hex))
        code = s.resource_class if s.resource_class != printed.get(s.hex, s.resource_class) else ""
        if s.status == "in sight":
            lines = [_seen_text(f) for f in s.forces]
            facilities = _facility_short(s)
            if facilities:
                lines.append(facilities)
            notes.append(HexNote(s.hex, owner=s.owner, current=True, code=code, lines=tuple(lines)))
        else:
            lines = [s.forces_text] if s.forces_text else []
            notes.append(
                HexNote(
                    s.hex,
                    owner=s.owner,
                    current=False,
                    seen_year=s.seen_year,
                    code=code,
                    lines=tuple(lines),
                )
            )
    region = sight_region(view)
    shaded = frozenset(h for h in SECTOR.hexes() if h not in region)
    battles, marks = _battles_and_marks(view.events, view.player)
    routes = tuple(
        Route(f.origin, f.destination, str(f.arrival), probe=f.probe) for f in view.own_flights
    )
    return MapOverlay(
        owners=map_owners(view.players),
        notes=tuple(notes),
        shaded=shaded,
        routes=routes,
        battles=battles,
        marks=marks,
        subsectors=tuple(sorted(subsectors)),
    )


def _facility_short(s: SystemView) -> str:
    parts = []
    if s.gl:
        parts.append(f"G{s.gl}")
    if s.opc:
        parts.append(f"O{s.opc}")
    if s.mines:
        parts.append(f"Mi{s.mines}")
    if s.spacedock:
        parts.append("dock")
    return " ".join(parts)


def _battles_and_marks(
    events: Iterable[Event], reader: str | None
) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    battles: list[str] = []
    marks: list[tuple[str, str]] = []
    for e in events:
        if reader is not None and not e.visible(reader):
            continue
        if e.kind == "battle" and e.location and SECTOR.contains(e.location):
            battles.append(e.location)
        elif e.kind == "fusion_attack":
            hex_ = str((e.data or {}).get("hex") or "")
            if SECTOR.contains(hex_):
                marks.append((hex_, "fusion attack"))
    return tuple(dict.fromkeys(battles)), tuple(dict.fromkeys(marks))


def standing(view: PlayerView) -> dict[str, Any]:
    total = len(view.systems)
    owned = len(view.owned)
    flights = [f for f in view.own_flights if not f.probe]
    return {
        "systems": owned,
        "income": view.income_last,
        "stockpile": view.stockpile,
        "tech_level": view.tech_level,
        "fleets_in_flight": len(flights),
        "probes_in_flight": len(view.own_flights) - len(flights),
        "total_systems": total,
        "victory_at": total // 2 + 1,
        "homeworld": view.homeworld,
        "homeworld_lost": view.homeworld_lost,
        "eliminated": view.eliminated,
    }


def player_content(view: PlayerView, public: SectorMap, info: ReportInput) -> ReportContent:
    """A player's report, from what the player may know."""
    names = {w.hex: w.name for w in public.worlds}
    player = view.player
    events = [e for e in view.events if e.visible(player)]
    ledger = None
    shown = []
    no_orders = False
    for e in events:
        if e.kind == "production" and (not e.players or player in e.players):
            ledger = ledger_view(e.data)
        elif e.kind == "no_orders":
            no_orders = True
            shown.append(event_view(e, names))
        elif e.kind not in OWN_SECTION:
            shown.append(event_view(e, names))
    known = [system_line(s, player) for s in view.systems if s.status != "map"]
    known.sort(key=lambda s: (not s["mine"], s["status"] != "in sight", s["hex"]))
    messages = [m for m in view.messages if m.sender != player and m.recipient in (player, "*")]
    sheet = info.orders_context(player)
    context = {
        "reader": player,
        "referee": False,
        "game": view.game_name,
        "sector": public.title,
        "year": view.year,
        "period": str(view.year),
        "resolved": view.year - 1,
        "deadline": info.deadline,
        "standing": standing(view),
        "finished": view.finished,
        **sheet,
        **info.awaited_context(player),
        "no_orders": no_orders or sheet["no_orders"],  # or the event that none came
        "events": group_events(shown),
        "ledger": ledger,
        "systems": known,
        "forces": [_force_line(f, names) for f in view.own_forces],
        "flights": [_flight_line(f, names) for f in view.own_flights],
        "facilities": [_facility_line(f, names) for f in view.own_facilities],
        "relations": [r for r in view.relations if player in (r.a, r.b)],
        "proposals": list(view.proposals_received),
        "messages": messages,
        "players": list(view.players),
    }
    return ReportContent(
        template=f"{TEMPLATE_DIR}/player.html",
        context=context,
        overlay=player_overlay(view, public),
        title=f"{view.game_name}: {player}, results of {view.year - 1}, orders for {view.year}",
    )


# --------------------------------------------------------------------------------------------
# The referee's report
# --------------------------------------------------------------------------------------------


def referee_overlay(state: State, public: SectorMap) -> MapOverlay:
    """Everything on the map, nothing shaded."""
    printed = {w.hex: w.code for w in public.worlds}
    forces: dict[str, list[str]] = {}
    for f in state.forces:
        text = force_short(f.fleet, f.M, f.P) + (" (building)" if f.building else "")
        forces.setdefault(f.hex, []).append(f"{f.owner or 'independent'} {text}")
    facilities: dict[str, list[str]] = {}
    for fac in state.facilities:
        facilities.setdefault(fac.hex, []).append(f"{fac.kind}{fac.count if fac.count > 1 else ''}")
    notes = []
    subsectors: set[str] = set()
    for s in state.systems:
        lines = forces.get(s.hex, []) + (
            [" ".join(facilities[s.hex])] if s.hex in facilities else []
        )
        code = s.resource_class if s.resource_class != printed.get(s.hex, s.resource_class) else ""
        if s.owner or lines or code:
            notes.append(HexNote(s.hex, owner=s.owner, current=True, code=code, lines=tuple(lines)))
            subsectors.add(subsector_letter(s.hex))
    for hex_ in list(forces) + [f.hex for f in state.facilities]:
        if state.system(hex_) is None:
            subsectors.add(subsector_letter(hex_))
    routes = []
    for f in state.flights:
        routes.append(Route(f.origin, f.destination, f"{f.owner} {f.arrival}", probe=f.probe))
        subsectors.add(subsector_letter(f.destination))
    battles, marks = _battles_and_marks(state.events, None)
    return MapOverlay(
        owners=map_owners(state.player_names()),
        notes=tuple(notes),
        shaded=frozenset(),
        routes=tuple(routes),
        battles=battles,
        marks=marks,
        subsectors=tuple(sorted(subsectors)),
    )


def referee_content(state: State, public: SectorMap, info: ReportInput) -> ReportContent:
    """The referee's report: every player, fleet, flight, event and die of the turn."""
    names = {s.hex: s.name for s in state.systems}
    total = len(state.systems)
    summary = []
    for p in state.players:
        owned = [s for s in state.systems if s.owner == p.name]
        squadrons = sum(f.fleet.squadrons + f.M for f in state.forces if f.owner == p.name)
        flights = [f for f in state.flights if f.owner == p.name]
        summary.append(
            as_row(p)
            | {
                "homeworld": _where(p.homeworld, names),
                "systems": len(owned),
                "income": p.income_last,
                "squadrons": squadrons,
                "fleets_in_flight": len([f for f in flights if not f.probe]),
                "probes_in_flight": len([f for f in flights if f.probe]),
                "sheet": info.sheets.get(p.name, ""),
            }
        )
    events = [event_view(e, names) for e in state.events]
    ledgers = [
        {"player": ", ".join(e.players) or ", ".join(e.visible_to), "ledger": ledger_view(e.data)}
        for e in state.events
        if e.kind == "production"
    ]
    late = sorted(p for p, status in info.sheets.items() if status == "late")
    missing = sorted(p for p, status in info.sheets.items() if status == "missing")
    context = {
        **info.awaited_context(None),
        "reader": "Referee",
        "referee": True,
        "game": state.game_name,
        "sector": public.title,
        "year": state.year,
        "period": str(state.year),
        "resolved": state.year - 1,
        "deadline": info.deadline,
        "finished": state.finished,
        "total_systems": total,
        "victory_at": total // 2 + 1,
        "summary": summary,
        "late": late,
        "missing": missing,
        "orders": {p: list(lines) for p, lines in info.orders.items()},
        "events": group_events(events),
        "ledgers": ledgers,
        "forces": [
            {**_force_line(f, names), "owner": f.owner or "independent"} for f in state.forces
        ],
        "flights": [_flight_line(f, names) for f in state.flights],
        "facilities": [_facility_line(f, names) for f in state.facilities],
        "relations": list(state.relations),
        "proposals": list(state.proposals),
        "messages": list(state.messages),
        "dice": list(state.dice),
        "players": state.player_names(),
    }
    return ReportContent(
        template=f"{TEMPLATE_DIR}/referee.html",
        context=context,
        overlay=referee_overlay(state, public),
        title=f"{state.game_name}: referee's report, results of {state.year - 1}",
    )
