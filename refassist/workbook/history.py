"""The events and dice sheets every ruleset's master workbook shares.

They hold what happened in the last resolved turn, so the reports can be written (and
re-written) from the master alone; earlier turns' events and dice stay in the archive, which
keeps the master the size of the current state however long the game runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..dice import Roll
from ..rulesets.base import Column, Event, Row, Table, plain


def history_tables(
    turn: str = "Year", dice_turn: str = "", dice_turn_help: str = ""
) -> tuple[Table, Table]:
    """The events and dice tables, their turn column headed in the game's own word ("Year",
    "Turn", "Week"; the dice's own turn number may differ from the game's, as when a game's
    turn has two steps that roll dice).  Masters written when every game said "Year" still
    read."""
    formerly = () if turn == "Year" else ("Year",)
    events = Table(
        name="events",
        title="Events",
        help="What happened in the last resolved turn, for the reports. Older turns are in "
        "archive/.",
        columns=(
            Column("seq", "#", "int", minimum=1, width=6),
            Column("turn", turn, "int", width=7, formerly=formerly),
            Column("phase", "Phase", "str", width=12),
            Column("location", "Where", "text", required=False, width=8),
            Column("kind", "Kind", "str", width=14),
            Column("text", "What happened", "text", width=70),
            Column(
                "players",
                "Players involved",
                "text",
                required=False,
                help="comma-separated player names",
            ),
            Column(
                "visible_to",
                "Told to",
                "text",
                required=False,
                help="players who may read it, comma-separated; * = everyone; empty = referee only",
            ),
            Column(
                "dice",
                "Dice used",
                "text",
                required=False,
                help="sequence numbers in the Dice sheet",
            ),
            Column("data", "Details (JSON)", "json", required=False, width=40),
        ),
        key=("seq",),
    )
    dice_header = dice_turn or turn
    dice = Table(
        name="dice",
        title="Dice",
        help="Every die rolled in the last resolved turn, in order, with its purpose.",
        columns=(
            Column("seq", "#", "int", minimum=1, width=6),
            Column(
                "turn",
                dice_header,
                "int",
                width=7,
                help=dice_turn_help,
                formerly=() if dice_header == "Year" else ("Year",),
            ),
            Column("phase", "Phase", "text", required=False, width=12),
            Column("location", "Where", "text", required=False, width=8),
            Column("purpose", "Purpose", "text", width=50),
            Column("sides", "Sides", "int", minimum=2, width=6),
            Column("result", "Result", "int", minimum=1, width=7),
        ),
        key=("seq",),
    )
    return events, dice


#: The tables of a game that counts its turns in years.
EVENTS_TABLE, DICE_TABLE = history_tables()


def _join(names: Iterable[str]) -> str:
    return ", ".join(names)


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in str(text).split(",") if part.strip())


#: Most characters of an event's details written to one cell: Excel holds 32,767 in a cell
#: and a cut JSON text cannot be read back, which would stop the game at the next command.
MAX_DATA_CHARS = 32_000


def fitted_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """An event's details as written to the workbook: unchanged when they fit in a cell, else
    replaced by a note saying how large they were.  Rulesets shrink their own details first
    (keeping what a report needs); this is the last guard, so no ruleset can make the master
    unreadable."""
    size = data_size(data)
    if size <= MAX_DATA_CHARS:
        return dict(data)
    return {"omitted": f"details of {size:,} characters do not fit in one cell"}


#: What a ruleset's own shortening aims for: below `MAX_DATA_CHARS`, with room to spare.
SHORTENED_CHARS = 30_000


def data_size(data: Any) -> int:
    """An event's details' length as written to their cell (JSON text)."""
    return len(json.dumps(data, sort_keys=True, ensure_ascii=False))


def shortened(
    data: dict[str, Any],
    ways: Sequence[tuple[str, Callable[[dict[str, Any]], None]]],
    *,
    key: str = "shortened",
    limit: int = SHORTENED_CHARS,
) -> dict[str, Any]:
    """A battle's (or any event's) details small enough for one workbook cell, losing the
    least a report needs: ``data`` itself when it fits, else a copy changed by the first of
    ``ways`` (least loss first) that makes it fit within ``limit`` characters, or by the last;
    ``key`` names the way taken.
    Each way changes a fresh copy of the whole details.  `fitted_data` remains the last guard
    when even the last way is not enough."""
    if data_size(data) <= limit:
        return data
    fitted = data
    for label, way in ways:
        fitted = json.loads(json.dumps(data))
        way(fitted)
        fitted[key] = label
        if data_size(fitted) <= limit:
            break
    return fitted


def events_to_rows(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [
        {
            "seq": i,
            "turn": e.turn,
            "phase": e.phase,
            "location": e.location,
            "kind": e.kind,
            "text": e.text,
            "players": _join(e.players),
            "visible_to": _join(e.visible_to),
            "dice": _join(str(d) for d in e.dice),
            "data": fitted_data(e.data),
        }
        for i, e in enumerate(events, start=1)
    ]


def rows_to_events(rows: Sequence[Row]) -> list[Event]:
    out = []
    for row in sorted(rows, key=lambda r: r["seq"]):
        dice = tuple(int(d) for d in _split(row["dice"]) if d.isdigit())
        out.append(
            Event(
                turn=row["turn"],
                phase=row["phase"],
                location=str(row["location"]),
                kind=row["kind"],
                text=row["text"],
                players=_split(row["players"]),
                visible_to=_split(row["visible_to"]),
                data=row["data"] if isinstance(row["data"], dict) else {},
                dice=dice,
            )
        )
    return out


def rolls_to_rows(rolls: Sequence[Roll]) -> list[dict[str, Any]]:
    return [
        {
            "seq": r.seq,
            "turn": r.turn,
            "phase": r.phase,
            "location": r.location,
            "purpose": r.purpose,
            "sides": r.sides,
            "result": r.result,
        }
        for r in rolls
    ]


def rows_to_rolls(rows: Sequence[Row]) -> list[Roll]:
    return [
        Roll(
            seq=row["seq"],
            turn=row["turn"],
            phase=str(row["phase"]),
            location=str(row["location"]),
            purpose=row["purpose"],
            sides=row["sides"],
            result=row["result"],
        )
        for row in sorted(rows, key=lambda r: r["seq"])
    ]


def history_json(events: Sequence[Event], rolls: Sequence[Roll]) -> dict[str, Any]:
    """A game's events and dice as the JSON export gives them (docs/json-export.md), the same
    for every game: ``{"events": [...], "dice": [...]}``."""
    return {
        "events": [
            {
                "turn": e.turn,
                "phase": e.phase,
                "location": e.location,
                "kind": e.kind,
                "text": e.text,
                "players": list(e.players),
                "visible_to": list(e.visible_to),
                "data": dict(e.data),
                "dice": list(e.dice),
            }
            for e in events
        ],
        "dice": [plain(r) for r in rolls],
    }
