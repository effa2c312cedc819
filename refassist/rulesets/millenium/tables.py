"""The master workbook of a Millenium game: the state as tables a referee can read and edit,
and back.

The map is in the workbook (Settings holds its title and size; Systems its 24 systems with
their zone, level and card; Cards the set of identification cards), so a referee who corrects
a level does it in one place.  The secrets the referee keeps for both sides are together on one
sheet, "Secrets (referee)": the imperial planet and the conquest programme; a card's loyalty is
on Systems, which no player ever sees.  Every problem names the cell at fault; a valid hand
edit is simply honoured.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import CellProblem
from ...workbook.history import (
    events_to_rows,
    history_json,
    history_tables,
    rolls_to_rows,
    rows_to_events,
    rows_to_rolls,
)
from ..base import Column, Reference, Row, RowProblems, Table, flag, optional, whole
from .charts import SHIP_TYPES
from .geometry import LEVELS, SYSTEM_LETTERS, Card, MapSystem, StrategicMap, zone_name
from .orders import Purchase
from .state import SIDES, Fleet, HeldTurn, Planet, Ship, State, SystemState, TableBattle, mover
from .tactical import EDGES, FIRE, LEAVE, PRIORITIES, STANCES, TacticalOrders

EVENTS_TABLE, DICE_TABLE = history_tables("Turn")
WHERE = ("map", "reserve", "waiting", "destroyed")
SIDE_OR_NONE = ("", *SIDES)

_SYSTEM = Reference(
    "systems", "letter", "is not a system on the Systems sheet", "write a system letter"
)

SETTINGS = Table(
    "settings",
    "Settings",
    (
        Column("game_id", "Game id", "str", help="identifies the game on sheets; do not change"),
        Column("game_name", "Game name", "str", help="shown on sheets and reports"),
        whole("turn", "Turn", "the game turn awaited (0: set-up)", maximum=99),
        optional("finished", "Game over", "empty while it goes on", kind="text"),
        optional("winner", "Winner", choices=(*SIDE_OR_NONE, "draw")),
        optional("map_title", "Map", "the strategic map's title", kind="text"),
        whole("columns", "Columns", "zones across the map (2-9)", minimum=2, maximum=9),
        whole("rows", "Rows", "zones down the map (2-9)", minimum=2, maximum=9),
        flag("cards_reconstructed", "Cards ours", "the cards are refassist's, not the printed set"),
        optional(
            "held_moved",
            "Moved (held turn)",
            "while battles wait for the table: the mover's fleets that moved (no repairs)",
            kind="text",
        ),
        optional(
            "held_purchases",
            "Purchases (held turn)",
            "while battles wait for the table: the ships the mover's sheet bought",
            kind="json",
        ),
    ),
    help="One row: where the game stands, and the map's size.",
)

SECRETS = Table(
    "secrets",
    "Secrets (referee)",
    (
        optional(
            "imperial",
            "Imperial planet",
            "the imperial planet (a loyalty-6 system's planet, e.g. G1); empty before set-up",
            kind="text",
        ),
        flag("imperial_revealed", "Revealed", "the imperial planet has been revealed to both"),
        optional(
            "programme",
            "Conquest programme",
            "the Extraterrestrial's systems, letters separated by spaces (at least 18)",
            kind="text",
        ),
    ),
    help="What the referee keeps for each side: never shown to the other.",
)

SIDES_TABLE = Table(
    "sides",
    "Sides",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column("player", "Player", "str", help="as in game.toml"),
    ),
    key=("side",),
    help="Who plays each side.",
)

CARDS = Table(
    "cards",
    "Cards",
    (
        whole("number", "Card", "the card's number in the set (set-up sheets name cards so)", 1),
        whole("loyalty", "Loyalty", "loyalty to the Empire, 0-6", maximum=6),
        whole("planets", "Planets", "planets of the system (1 or 2)", 1, maximum=2),
    ),
    key=("number",),
    help="The identification cards the Empire deals at set-up.",
)

SYSTEMS = Table(
    "systems",
    "Systems",
    (
        Column("letter", "System", "str", choices=SYSTEM_LETTERS, width=8),
        Column("name", "Name", "str", width=18),
        Column("zone", "Zone", "str", width=6, help="column then row, e.g. 23"),
        whole("level", "Level", "1-7", 1, maximum=LEVELS),
        whole("loyalty", "Loyalty", "the card dealt: loyalty to the Empire, 0-6", maximum=6),
        flag("revealed", "Card shown", "the Extraterrestrial has seen its card"),
    ),
    key=("letter",),
    help="The 24 systems: where they are and the card each was dealt.",
)

PLANETS = Table(
    "planets",
    "Planets",
    (
        Column("system", "System", "str", width=8, refers=_SYSTEM),
        whole("number", "Planet", "1 or 2", 1, maximum=2),
        optional("holder", "Held by", choices=SIDE_OR_NONE),
        optional("colonised", "Colonised by", choices=SIDE_OR_NONE),
        whole("loyalty", "Loyalty", "to its holder, 0-6", maximum=6),
        whole("bases", "Bases", "bases ringing it, 0-6", maximum=6),
        flag("automatic", "Starting hold", "one of the Empire's starting planets, untouched"),
        whole("alien_colonised_turns", "Turns colonised by the Extraterrestrial", "for victory"),
        flag("retaken", "Retaken", "the Empire took it back from the Extraterrestrial"),
    ),
    key=("system", "number"),
    help="Every planet: who holds it, who colonised it, its loyalty and bases.",
)

FLEETS = Table(
    "fleets",
    "Fleets",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column(
            "letter",
            "Fleet",
            "str",
            width=6,
            help="A B X λ δ ε κ K ω, or K+ for ships on their way",
        ),
        Column("where", "Where", "str", choices=WHERE),
        optional("position", "Position", "zone, sector, level: 23N4", kind="text"),
        whole("wait", "Turns to wait", "off the map after a scattered jump"),
    ),
    key=("side", "letter"),
    help="Every fleet counter: on the map, in reserve, waiting outside, or destroyed.",
)

SHIPS = Table(
    "ships",
    "Ships",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column("fleet", "Fleet", "str", width=6),
        Column("kind", "Ship", "str", choices=SHIP_TYPES, width=18),
        flag("damaged", "Damaged", "one damage taken (a second destroys)"),
        whole(
            "interceptors", "Interceptors", "a porte-intercepteur's interceptors aboard", maximum=6
        ),
    ),
    help="The ships of every fleet (a fleet's composition is its side's secret).",
)

POINTS = Table(
    "points",
    "Points",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column("system", "System", "str", refers=_SYSTEM),
        whole("points", "Points", "production points banked there"),
    ),
    key=("side", "system"),
    help="Production points banked, by side and system.",
)

TACTICS = Table(
    "tactics",
    "Tactics",
    (
        Column("side", "Side", "str", choices=SIDES),
        Column("stance", "Stance", "str", choices=STANCES),
        Column("priority", "Targets first", "str", choices=PRIORITIES),
        Column("fire", "Fire", "str", choices=FIRE),
        Column("leave", "Leave", "str", choices=LEAVE),
        Column("edge", "Entry edge", "str", choices=EDGES),
        flag("interceptors", "Launch interceptors"),
    ),
    key=("side",),
    help="Each side's standing tactical orders, from its latest sheet.",
)

BATTLES = Table(
    "battles",
    "Battles (table)",
    (
        Column("id", "Battle", "str", width=8, help="B5-1: the first battle of game turn 5"),
        Column("position", "Position", "text", help="zone, sector, level: 23N4"),
        optional("planet", "Planet", "the planet attacked, e.g. G1", kind="text"),
        Column("attacker", "Attacker", "str", choices=SIDES),
    ),
    key=("id",),
    help="Battles waiting for the referee's table (house rule battles = referee), in the "
    "order they are fought; empty between turns.",
)

SCHEMA: tuple[Table, ...] = (
    SETTINGS,
    SIDES_TABLE,
    SECRETS,
    SYSTEMS,
    PLANETS,
    FLEETS,
    SHIPS,
    POINTS,
    TACTICS,
    BATTLES,
    CARDS,
    EVENTS_TABLE,
    DICE_TABLE,
)


def to_tables(state: State) -> dict[str, list[dict[str, Any]]]:
    """The state as rows of each table."""
    loyalty = {k: s.loyalty for k, s in state.systems.items()}
    held = state.held
    return {
        "settings": [
            {
                "game_id": state.game_id,
                "game_name": state.game_name,
                "turn": state.turn,
                "finished": state.finished,
                "winner": state.winner,
                "map_title": state.map.title,
                "columns": state.map.columns,
                "rows": state.map.rows,
                "cards_reconstructed": state.map.cards_reconstructed,
                "held_moved": " ".join(held.moved) if held else "",
                "held_purchases": [
                    {**vars(p), "spend_from": list(p.spend_from)} for p in held.purchases
                ]
                if held
                else None,
            }
        ],
        "sides": [{"side": side, "player": player} for side, player in state.players.items()],
        "secrets": [
            {
                "imperial": state.imperial,
                "imperial_revealed": state.imperial_revealed,
                "programme": " ".join(state.programme),
            }
        ],
        "cards": [
            {"number": n, "loyalty": c.loyalty, "planets": c.planets}
            for n, c in enumerate(state.map.cards, 1)
        ],
        "systems": [
            {
                "letter": s.letter,
                "name": s.name,
                "zone": zone_name(s.zone),
                "level": s.level,
                "loyalty": loyalty.get(s.letter, 0),
                "revealed": s.letter in state.revealed,
            }
            for s in state.map.systems.values()
        ],
        "planets": [
            {
                "system": p.system,
                "number": p.number,
                "holder": p.holder,
                "colonised": p.colonised,
                "loyalty": p.loyalty,
                "bases": p.bases,
                "automatic": p.automatic,
                "alien_colonised_turns": p.alien_colonised_turns,
                "retaken": p.retaken,
            }
            for p in state.all_planets()
        ],
        "fleets": [
            {
                "side": f.side,
                "letter": f.letter,
                "where": f.where,
                "position": str(f.position) if f.position else "",
                "wait": f.wait,
            }
            for f in state.fleets
        ],
        "ships": [
            {
                "side": f.side,
                "fleet": f.letter,
                "kind": s.kind,
                "damaged": s.damaged,
                "interceptors": s.interceptors,
            }
            for f in state.fleets
            for s in f.ships
        ],
        "points": [
            {"side": side, "system": letter, "points": n}
            for side in SIDES
            for letter, n in sorted(state.points.get(side, {}).items())
        ],
        "tactics": [
            {"side": side, **vars(orders)} for side, orders in sorted(state.tactics.items())
        ],
        "battles": [
            {"id": b.id, "position": str(b.position), "planet": b.planet, "attacker": b.attacker}
            for b in (held.battles if held else [])
        ],
        "events": events_to_rows(state.events),
        "dice": rolls_to_rows(state.dice),
    }


def from_tables(tables: Mapping[str, Sequence[Row]], problems: list[CellProblem]) -> State | None:
    """Build a `State` from checked rows, appending cross-table problems (None if any)."""
    check = RowProblems(problems)
    s = check.one_row(SETTINGS, list(tables.get("settings", [])))
    secrets = check.one_row(SECRETS, list(tables.get("secrets", [])))
    if s is None or secrets is None:
        return None
    game_map = _map_of(tables, s, check)
    players = {r["side"]: r["player"] for r in tables.get("sides", [])}
    if sorted(players) != sorted(SIDES):
        problems.append(
            CellProblem(
                SIDES_TABLE.title,
                "A2",
                "",
                "needs one row for each side",
                "keep a row for extraterrestre and one for empire",
            )
        )
        return None
    state = State(s["game_id"], s["game_name"], game_map, players, turn=s["turn"])
    state.finished, state.winner = s["finished"] or "", s["winner"] or ""
    loyalty = {r["letter"]: r["loyalty"] for r in tables.get("systems", [])}
    state.revealed = {r["letter"] for r in tables.get("systems", []) if r["revealed"]}
    planets = list(tables.get("planets", []))
    if planets:
        state.systems = {
            letter: SystemState(letter, loyalty[letter]) for letter in game_map.systems
        }
    for r in planets:
        system = state.systems.get(r["system"])
        if system is None:
            continue
        if r["number"] != len(system.planets) + 1:
            check.add(
                PLANETS,
                r,
                "number",
                f"planets of {r['system']} must be numbered 1, 2 in order",
                "renumber them",
            )
            continue
        system.planets.append(r.to(Planet))
    _secrets(state, secrets, check)
    fleets: dict[tuple[str, str], Fleet] = {}
    for r in tables.get("fleets", []):
        position = None
        if r["position"]:
            position = game_map.parse_position(r["position"])
            if position is None:
                check.add(
                    FLEETS,
                    r,
                    "position",
                    "is not a position such as 23N4",
                    "write zone, sector and level",
                )
        if r["where"] == "map" and (position is None or not game_map.on_map(position.zone)):
            check.add(
                FLEETS,
                r,
                "position",
                "a fleet on the map needs a position on the map",
                "write it, e.g. 23N4",
            )
        fleets[(r["side"], r["letter"])] = r.to(Fleet, position=position, ships=[])
    for r in tables.get("ships", []):
        fleet = fleets.get((r["side"], r["fleet"]))
        if fleet is None:
            check.add(
                SHIPS,
                r,
                "fleet",
                "is not a fleet of its side on the Fleets sheet",
                "write the fleet's letter",
            )
            continue
        if r["interceptors"] and r["kind"] != "porte_intercepteur":
            check.add(
                SHIPS,
                r,
                "interceptors",
                "only a porte-intercepteur carries interceptors",
                "write 0",
            )
        fleet.ships.append(r.to(Ship))
    state.fleets = list(fleets.values())
    state.points = {side: {} for side in SIDES}
    for r in tables.get("points", []):
        state.points[r["side"]][r["system"]] = r["points"]
    state.tactics = {r["side"]: r.to(TacticalOrders) for r in tables.get("tactics", [])}
    state.held = _held(state, s, tables.get("battles", []), check)
    state.events = rows_to_events(tables.get("events", []))
    state.dice = rows_to_rolls(tables.get("dice", []))
    return None if check.count else state


def _held(state: State, s: Row, rows: Sequence[Row], check: RowProblems) -> HeldTurn | None:
    """The turn held for the table's battles, from the Battles sheet and Settings."""
    if not rows:
        return None
    battles = []
    for r in rows:
        pos = state.map.parse_position(r["position"])
        if pos is None or not state.map.on_map(pos.zone):
            check.add(BATTLES, r, "position", "is not a position on the map", "write e.g. 23N4")
            continue
        if r["planet"] and state.planet(r["planet"]) is None:
            check.add(BATTLES, r, "planet", "is not a planet on the Planets sheet", "e.g. G1")
            continue
        battles.append(TableBattle(r["id"], pos, str(r["planet"] or "").upper(), r["attacker"]))
    purchases = []
    for p in s["held_purchases"] or []:
        try:
            purchases.append(
                Purchase(
                    str(p["fleet"]),
                    str(p["kind"]),
                    int(p["count"]),
                    str(p.get("cell", "")),
                    tuple(str(x) for x in p.get("spend_from", ())),
                )
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            check.add(
                SETTINGS,
                s,
                "held_purchases",
                "is not a list of purchases as refassist wrote it",
                "restore it from the archive",
            )
            break
    moved = str(s["held_moved"] or "").split()
    return HeldTurn(mover(state.turn), battles, moved, purchases)


def _map_of(tables: Mapping[str, Sequence[Row]], s: Row, check: RowProblems) -> StrategicMap:
    systems: dict[str, MapSystem] = {}
    used: dict[tuple[int, int], str] = {}
    for r in tables.get("systems", []):
        raw = str(r["zone"]).strip()
        zone = (int(raw[0]), int(raw[1])) if len(raw) == 2 and raw.isdigit() else None
        if zone is None or not (1 <= zone[0] <= s["columns"] and 1 <= zone[1] <= s["rows"]):
            check.add(
                SYSTEMS,
                r,
                "zone",
                f"is not a zone of the {s['columns']} x {s['rows']} map",
                "write column then row, e.g. 23",
            )
            continue
        if zone in used:
            check.add(
                SYSTEMS,
                r,
                "zone",
                f"already holds system {used[zone]}",
                "give each system its own zone",
            )
        used[zone] = r["letter"]
        systems[r["letter"]] = MapSystem(r["letter"], zone, r["level"], r["name"])
    cards = tuple(Card(r["loyalty"], r["planets"]) for r in tables.get("cards", []))
    return StrategicMap(
        title=s["map_title"] or "Millenium",
        columns=s["columns"],
        rows=s["rows"],
        systems=dict(sorted(systems.items())),
        cards=cards,
        cards_reconstructed=bool(s["cards_reconstructed"]),
    )


def _secrets(state: State, row: Row, check: RowProblems) -> None:
    imperial = str(row["imperial"] or "").strip().upper()
    if imperial:
        planet = state.planet(imperial)
        if planet is None:
            check.add(
                SECRETS, row, "imperial", "is not a planet on the Planets sheet", "write e.g. G1"
            )
        elif state.systems[planet.system].loyalty != 6:
            check.add(
                SECRETS,
                row,
                "imperial",
                "is not in a system of loyalty 6",
                "choose a loyalty-6 system's planet",
            )
    state.imperial = imperial
    state.imperial_revealed = bool(row["imperial_revealed"])
    programme = str(row["programme"] or "").upper().replace(",", " ").split()
    unknown = [x for x in programme if x not in state.map.systems]
    if unknown:
        check.add(
            SECRETS,
            row,
            "programme",
            f"{' '.join(unknown)} are not systems of the map",
            "write system letters",
        )
    state.programme = [x for x in programme if x in state.map.systems]


def to_json(state: State) -> dict[str, Any]:
    """The state as ``refassist export`` prints it (docs/json-export.md)."""
    tables = to_tables(state)
    kept = {k: v for k, v in tables.items() if k not in ("events", "dice")}
    return {"ruleset": "millenium"} | kept | history_json(state.events, state.dice)


__all__ = ["BATTLES", "SCHEMA", "from_tables", "to_json", "to_tables"]
