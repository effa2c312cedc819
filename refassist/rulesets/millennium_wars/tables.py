"""The master workbook of a Millennium Wars game: the state as tables a referee can read and
edit, and back.

The scenario (map, orders of battle, schedule) is kept whole, as the lines of its TOML file on
the Scenario sheet: it is read again with every check and line number of `scenario.py` when the
workbook is loaded, so a referee who edits it there is checked as when the game began.  What
play changes has its own sheets: Settings (where the sequence of play stands, the Index, this
turn's event, air and weather, the moves and defence of an impulse waiting for its reaction),
Sides, Units (on the map, or lost), Objectives (who holds each), Attacks (declared, waiting for
the reaction), Events, Earlier (the events of the game turn's earlier exchanges) and Dice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ...errors import CellProblem, InvalidOrder, SetupError
from ...workbook.history import (
    events_to_rows,
    history_json,
    history_tables,
    rolls_to_rows,
    rows_to_events,
    rows_to_rolls,
)
from ..base import Column, Reference, Row, RowProblems, Table, as_row, flag, optional, whole
from ..tomlfile import parse_toml
from .combat import Attack, Defence
from .crt import CRTS
from .parse import parse_retreats
from .politics import points_text
from .scenario import parse_scenario
from .sequence import parse_key
from .state import SideState, State
from .units import SIZES, UNIT_TYPES, Unit

#: The game's events and dice, turn by turn.
EVENTS_TABLE, DICE_TABLE = history_tables(
    "Turn",
    "Dice turn",
    "the exchange's dice number: the game turn x 100, + 10 or 20 for the player turn, + twice "
    "the impulse, + 1 for the reaction",
)
#: The events of the game turn's earlier exchanges (the sheets' "this game turn so far").
EARLIER_TABLE = replace(
    EVENTS_TABLE,
    name="earlier",
    title="Earlier",
    help="The events of this game turn's exchanges before the last, each told to whom the "
    "Events sheet says: the sheets' 'this game turn so far'.",
    since="issue 51",
)

_SIDE = Reference("sides", "name", "is not a side of this game", "write a side's name")

SETTINGS = Table(
    "settings",
    "Settings",
    (
        Column("game_id", "Game id", "str", help="identifies the game on sheets; do not change"),
        Column("game_name", "Game name", "str", help="shown on sheets and reports"),
        Column(
            "step",
            "Step",
            "str",
            help="the exchange awaited: TURN-PLAYER-IMPULSE, r for "
            "the reaction (3-1-2r), or TURN-0-ceasefire",
        ),
        whole(
            "political_index",
            "Political Index",
            "0-100, high favours the First Player",
            maximum=100,
        ),
        optional("event", "Event", "this game turn's random event", kind="text"),
        optional(
            "air",
            "Air superiority",
            "the side holding it this player turn; empty: parity",
            kind="text",
            refers=_SIDE,
        ),
        optional("air_level", "Air", "parity, first/second superiority or dominance", kind="text"),
        flag("bad_weather", "Bad weather"),
        optional(
            "moved",
            "Moved",
            "units that moved in the impulse waiting for its reaction",
            kind="text",
        ),
        optional(
            "arrived", "Arrived", "reinforcements of the scenario already placed", kind="text"
        ),
        optional(
            "last_impulse",
            "Last impulse",
            "the phasing player declared no further impulse this player turn",
            kind="bool",
            added_later=True,
        ),
        optional("finished", "Game over", "empty while it goes on", kind="text"),
    ),
    help="One row: where the game stands.",
)

SIDES = Table(
    "sides",
    "Sides",
    (
        Column("name", "Side", "str"),
        Column("player", "Player", "str", help="as in game.toml"),
        optional("email", "E-mail", kind="text"),
        flag("nato", "NATO"),
        whole("c4i", "C4I", "the C4I level now (impulses 2 and 3 need 2 and 3)", maximum=3),
        whole("c4i_start", "C4I at start", "C4I recovery raises a lower level to it", maximum=3),
        whole("air_defence", "Air Defense", "the Air Defense level"),
        Column(
            "political_points",
            "Political points",
            "text",
            help="unspent political points (halves written 1/2 or 2.5)",
        ),
        flag("sees_all", "Sees all", "sees every enemy unit for the rest of this game turn"),
        optional(
            "standing_retreat",
            "Standing retreats",
            "fast play: the retreats this side asks when attacked (UNIT: HEX HEX; ...)",
            kind="text",
        ),
        optional(
            "standing_advance",
            "Standing advance",
            "fast play: its units that advance after a defence (ids, or * for all)",
            kind="text",
        ),
        optional(
            "standing_ambush",
            "Standing ambush",
            "fast play: its unit that takes a D1 result",
            kind="text",
        ),
        whole(
            "standing_points",
            "Standing points",
            "fast play: political points it spends on each defence",
            maximum=12,
        ),
        optional(
            "reserves_named",
            "Reserves named",
            "the units this side's impulse sheets of its player turn named as reserves for the "
            "enemy's coming player turn, made reserves when the turn ends if not Ops Complete "
            "(empty: none named, the reserves stay; none: no reserves)",
            kind="text",
            added_later=True,
        ),
    ),
    key=("name",),
    help="One row per side.",
)

UNITS = Table(
    "units",
    "Units",
    (
        Column("id", "Unit", "str"),
        Column("side", "Side", "str", refers=_SIDE),
        Column("type", "Type", "str", choices=tuple(UNIT_TYPES)),
        Column("size", "Size", "str", choices=tuple(SIZES)),
        flag("nato", "NATO"),
        whole("attack", "Attack", maximum=99),
        whole("defence", "Defence", maximum=99),
        whole("speed", "Speed", maximum=30),
        optional("hex", "Hex", "empty: eliminated", kind="hex"),
        whole("support", "Support", "a logistics unit's support radius", maximum=10),
        flag(
            "reserve",
            "Reserve",
            "moves in the enemy's reaction phases; set by the scenario, then by its player's "
            "naming on his impulse sheets (Sides, Reserves named)",
        ),
        flag("disrupted", "Disrupted"),
        flag("ops_complete", "Ops Complete"),
        Column(
            "to_place",
            "To place",
            "bool",
            required=False,
            help="guerrillas raised by a random event, waiting for their owner's next first "
            "impulse (no hex); to place one yourself, give it a hex and clear this",
            added_later=True,
        ),
    ),
    key=("id",),
    help="Every unit: on the map at its hex, eliminated (no hex; a replacement brings it "
    "back), or guerrillas to place (no hex, To place).",
)

OBJECTIVES = Table(
    "objectives",
    "Objectives",
    (
        Column("hex", "Hex", "hex"),
        optional("held", "Held by", kind="text", refers=_SIDE),
        optional(
            "first_knows",
            "First Player knows",
            "the holder as the First Player last saw it: what its reports and sheets show",
            kind="text",
            refers=_SIDE,
            added_later=True,
        ),
        optional(
            "second_knows",
            "Second Player knows",
            "the holder as the Second Player last saw it",
            kind="text",
            refers=_SIDE,
            added_later=True,
        ),
    ),
    key=("hex",),
    help="Each objective of the scenario, the side that last held it, and who each side "
    "believes holds it (a holder that changed out of a side's sight is not known to it).",
)

ATTACKS = Table(
    "attacks",
    "Attacks",
    (
        whole("order", "#", minimum=1),
        Column("attackers", "Attackers", "str", help="unit ids, separated by spaces"),
        Column("hex", "Hex", "hex"),
        Column("crt", "CRT", "str", choices=tuple(CRTS)),
        whole("political_points", "Political points", maximum=12),
        flag("intensive", "Intensive"),
        optional("retreat", "Retreats", "UNIT: HEX HEX; ...", kind="text"),
        optional("advance", "Advance", "units that advance", kind="text"),
        optional("ambush", "Ambush choice", kind="text"),
        optional("cell", "Sheet cell", kind="text"),
    ),
    key=("order",),
    help="The attacks of the impulse waiting for its reaction, in the order declared.",
)

SCENARIO = Table(
    "scenario",
    "Scenario",
    (
        whole("line", "Line", minimum=1),
        optional("text", "Text", kind="text", width=90),
    ),
    key=("line",),
    help="The scenario file, line by line (TOML, docs/rules/millennium-wars.md): read again "
    "with every check when the workbook is loaded.",
)

SCHEMA = (
    SETTINGS,
    SIDES,
    UNITS,
    OBJECTIVES,
    ATTACKS,
    SCENARIO,
    EVENTS_TABLE,
    EARLIER_TABLE,
    DICE_TABLE,
)


def _points(value: Fraction) -> str:
    return points_text(value)


def _named(reserves: Sequence[str] | None) -> str:
    """The reserves named as the Sides sheet keeps them: empty for none named, "none" for
    no reserves."""
    if reserves is None:
        return ""
    return " ".join(reserves) or "none"


def _retreats(retreat: Mapping[str, Sequence[str]]) -> str:
    return "; ".join(f"{u}: {' '.join(path)}" for u, path in retreat.items())


def to_tables(state: State) -> dict[str, list[dict[str, Any]]]:
    on_map = [(u, u.hex) for u in state.units]
    lost = [(u, "") for u in state.lost]
    placing = [as_row(u) | {"hex": "", "to_place": True} for u in state.placing]
    return {
        "settings": [
            SETTINGS.row_of(
                state,
                step=state.point.key,
                moved=" ".join(state.moved),
                arrived=" ".join(state.arrived),
            )
        ],
        "sides": [
            {
                "name": s.name,
                "player": s.player,
                "email": s.email,
                "nato": s.nato,
                "c4i": s.c4i,
                "c4i_start": s.c4i_start,
                "air_defence": s.air_defence,
                "political_points": _points(s.political_points),
                "sees_all": s.name in state.sees_all,
                "standing_retreat": _retreats(s.standing.retreat),
                "standing_advance": " ".join(s.standing.advance),
                "standing_ambush": s.standing.ambush,
                "standing_points": s.standing.political_points,
                "reserves_named": _named(s.reserves_named),
            }
            for s in state.sides
        ],
        "units": [as_row(u) | {"hex": where, "to_place": False} for u, where in on_map + lost]
        + placing,
        "objectives": [
            {
                "hex": h,
                "held": side,
                "first_knows": state.known.get(state.first.name, {}).get(h, ""),
                "second_knows": state.known.get(state.second.name, {}).get(h, ""),
            }
            for h, side in state.held.items()
        ],
        "attacks": [
            {
                "order": n,
                "attackers": " ".join(a.attackers),
                "hex": a.hex,
                "crt": a.crt,
                "political_points": a.political_points,
                "intensive": a.intensive,
                "retreat": _retreats(a.retreat),
                "advance": " ".join(a.advance),
                "ambush": a.ambush,
                "cell": a.cell,
            }
            for n, a in enumerate(state.pending, start=1)
        ],
        "scenario": [
            {"line": n, "text": line}
            for n, line in enumerate(state.scenario.text.splitlines(), start=1)
        ],
        "events": events_to_rows(state.events),
        "earlier": events_to_rows(state.earlier),
        "dice": rolls_to_rows(state.dice),
    }


def from_tables(tables: Mapping[str, Sequence[Row]], problems: list[CellProblem]) -> State | None:
    check = RowProblems(problems)
    s = check.one_row(SETTINGS, list(tables.get("settings", [])))
    if s is None:
        return None
    text = "".join(str(r.get("text") or "") + "\n" for r in tables.get("scenario", []))
    try:
        scenario = parse_scenario(
            parse_toml(text, "the Scenario sheet"), text, "the Scenario sheet"
        )
    except SetupError as exc:
        problems.append(
            CellProblem(
                "Scenario",
                "B1",
                "",
                f"the scenario does not read: {exc}",
                "correct the lines named (Line column)",
            )
        )
        return None
    try:
        point = parse_key(str(s["step"]))
    except ValueError as exc:
        check.add(SETTINGS, s, "step", str(exc), "write the exchange awaited, e.g. 3-1-2r")
        return None
    sides = []
    for r in tables.get("sides", []):
        try:
            points = Fraction(str(r["political_points"]).strip() or "0")
        except (ValueError, ZeroDivisionError):
            check.add(
                SIDES,
                r,
                "political_points",
                "is not a number of political points",
                "write a number such as 3 or 2.5",
            )
            continue
        try:
            retreat = parse_retreats(str(r["standing_retreat"] or ""))
        except InvalidOrder as exc:  # said on its cell
            check.add(SIDES, r, "standing_retreat", str(exc), "write UNIT: HEX HEX; ...")
            continue
        standing = Defence(
            retreat,
            str(r["standing_advance"] or "").split(),
            str(r["standing_ambush"] or ""),
            r["standing_points"],
        )
        named = str(r.get("reserves_named") or "").split()
        sides.append(
            r.to(
                SideState,
                political_points=points,
                standing=standing,
                reserves_named=None if not named else [] if named == ["none"] else named,
            )
        )
    units: list[Unit] = []
    lost: list[Unit] = []
    placing: list[Unit] = []
    for r in tables.get("units", []):
        unit = r.to(Unit, hex=r["hex"] or "")
        (units if unit.hex else placing if r.get("to_place") else lost).append(unit)
    attacks = []
    for r in tables.get("attacks", []):
        try:
            retreat = parse_retreats(str(r["retreat"] or ""))
        except InvalidOrder as exc:  # said on its cell
            check.add(ATTACKS, r, "retreat", str(exc), "write UNIT: HEX HEX; ...")
            continue
        attacks.append(
            Attack(
                str(r["attackers"]).split(),
                r["hex"],
                r["crt"],
                r["political_points"],
                bool(r["intensive"]),
                retreat,
                str(r["advance"] or "").split(),
                str(r["ambush"] or ""),
                str(r["cell"] or ""),
            )
        )
    if problems:
        return None
    objectives = list(tables.get("objectives", []))
    second = next((r["name"] for r in tables.get("sides", []) if r["name"] != scenario.first), "")
    known = {
        name: {r["hex"]: str(r.get(column) or "") for r in objectives}
        for name, column in ((scenario.first, "first_knows"), (second, "second_knows"))
    }
    if not any(v for beliefs in known.values() for v in beliefs.values()):
        # A master written before the sides' beliefs were kept (or one whose two columns
        # were emptied by hand): each side starts from the holders as they are.
        known = {name: {r["hex"]: str(r["held"] or "") for r in objectives} for name in known}
    return State(
        game_name=s["game_name"],
        game_id=s["game_id"],
        scenario=scenario,
        point=point,
        political_index=s["political_index"],
        sides=sides,
        units=units,
        event=str(s["event"] or ""),
        air=str(s["air"] or ""),
        air_level=str(s["air_level"] or "parity"),
        bad_weather=bool(s["bad_weather"]),
        held={r["hex"]: str(r["held"] or "") for r in objectives},
        known=known,
        events=rows_to_events(tables.get("events", [])),
        earlier=rows_to_events(tables.get("earlier", [])),
        dice=rows_to_rolls(tables.get("dice", [])),
        finished=str(s["finished"] or ""),
        pending=attacks,
        moved=str(s["moved"] or "").split(),
        lost=lost,
        sees_all=[r["name"] for r in tables.get("sides", []) if r["sees_all"]],
        arrived=str(s["arrived"] or "").split(),
        placing=placing,
        last_impulse=bool(s.get("last_impulse")),
    )


def to_json(state: State) -> dict[str, Any]:
    """The state as `refassist export` prints it.  The scenario, which play never changes, is
    named by its title and the SHA-256 of its text (the text is the master's Scenario sheet
    and the referee's file): a state a step is exported in does not repeat 250 lines."""
    tables = to_tables(state)
    scenario = {
        "title": state.scenario.title,
        "sha256": hashlib.sha256(state.scenario.text.encode("utf-8")).hexdigest(),
    }
    kept = {k: v for k, v in tables.items() if k not in ("events", "dice", "scenario")}
    return (
        {"ruleset": "millennium-wars", "scenario": scenario}
        | kept
        | history_json(state.events, state.dice)
    )


__all__ = ["SCHEMA", "from_tables", "to_json", "to_tables"]
