"""The notation of a timeline line, as a commander types it in one cell:

``[at D.H] ACTIVITY [details]``, for example::

    jump Brenn 60" b4          emerge 60 inches from Brenn's planet on bearing 4
    jump Gyre from 25"          a hasty jump from 25 inches (warned, rolled)
    at 3.1 land
    load 200                    production points (unload, sell likewise; all: what fits
                                or what is aboard)
    refuel from DR-2            from another ship of yours here (its spare fuel moves)
    wait until 4.1              (guard likewise; guard alone lasts the week)
    tow ANN-OMP1 | release      a tug takes a facility in tow, and lets it go where it is
    unload 200 to Bob           points given to another commander, at a planet of his
    demolish [ANN-OMP1]         the ship itself, or a facility of yours where the ship is
    refit Claymore cruiser      to another design of the same hull (refit alone: a capture
                                refit)
    recharge | lift | explore | reserve | repair | scrap | refit | invade

Case, extra spaces, typographic quotes and ``in``/``inches`` for ``"`` are accepted; a
problem is an `InvalidOrder` whose message says what is wrong and how to write it.
"""

from __future__ import annotations

import re

from ...errors import InvalidOrder
from ...workbook.celltext import normalise
from .clock import parse_time
from .timeline import ALL, KINDS, Activity

#: Quote marks and inch words a spreadsheet or a person may put for ``"``.
_INCHES = re.compile(
    r"(?<=\d)\s*(?:[\"\u201c\u201d\u2033\u02ba]|''|in(?:ches|ch)?\b)", re.IGNORECASE
)
_AT = re.compile(r"^at\s+(\S+)\s+(.*)$", re.IGNORECASE)
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 '\-]{0,23}$")
#: Work a commander may look for on a ship's timeline that is ordered elsewhere.
NOT_SHIP_WORK = {
    "mine": "mining is done by an Orbital Mining Platform at a belt, every week; build one on "
    "the Orders page and tow it there (tow ID, then release)",
    "build": "ships and facilities are built on the Orders page's construction lines, not by "
    "a ship",
    "trade": "write sell N (goods sold at another's planet) or unload N to NAME (points given "
    "to another commander)",
}
EXAMPLES = (
    'jump Brenn 60" b4',
    "land",
    "load 200",
    "refuel from DR-2",
    "wait until 4.1",
)


def _time(text: str, line: str, cell: str) -> int:
    try:
        return parse_time(text)
    except ValueError as exc:
        raise InvalidOrder(str(exc), line, cell) from None


def _amount(words: list[str], kind: str, line: str, cell: str) -> int:
    text = " ".join(words)
    if text.lower() in ("all", "everything"):
        return ALL
    text = re.sub(r"\s*(pp|points?|production points?)$", "", text, flags=re.IGNORECASE)
    if not text.isdigit() or int(text) > 100_000:
        raise InvalidOrder(
            f"{kind} needs a number of production points; write e.g. {kind} 200, or {kind} all",
            line,
            cell,
        )
    return int(text)


def parse_activity(text: str, *, cell: str = "") -> Activity:
    """One timeline line; `InvalidOrder` if it cannot be read."""
    line = normalise(text, cell=cell)
    line = _INCHES.sub('"', line)
    at = None
    match = _AT.match(line)
    if match:
        at = _time(match.group(1), line, cell)
        line = match.group(2)
    words = line.split()
    if not words:
        raise InvalidOrder("the line gives no activity; write e.g. " + EXAMPLES[0], text, cell)
    kind = words[0].lower()
    rest = words[1:]
    if kind in NOT_SHIP_WORK:
        raise InvalidOrder(NOT_SHIP_WORK[kind], text, cell)
    if kind not in KINDS:
        raise InvalidOrder(
            f"{words[0]!r} is not an activity; use one of {', '.join(KINDS)}", text, cell
        )
    if kind == "jump":
        return _jump(rest, at, line, cell)
    if kind == "unload" and any(w.lower() == "to" for w in rest):
        k = [w.lower() for w in rest].index("to")
        to = " ".join(rest[k + 1 :])
        if not _NAME.match(to):
            raise InvalidOrder("write unload N to COMMANDER, e.g. unload 200 to Bob", line, cell)
        amount = _amount(rest[:k], kind, line, cell)
        return Activity(kind, target=to, amount=amount, at=at, cell=cell, text=line)
    if kind in ("load", "unload", "sell"):
        return Activity(kind, amount=_amount(rest, kind, line, cell), at=at, cell=cell, text=line)
    if kind == "refit" and rest:
        design = " ".join(rest)
        if not _NAME.match(design):
            raise InvalidOrder(
                "write refit (a capture refit) or refit DESIGN, e.g. refit Claymore cruiser",
                line,
                cell,
            )
        return Activity(kind, target=design, at=at, cell=cell, text=line)
    if kind == "demolish":
        if len(rest) > 1:
            raise InvalidOrder(
                "write demolish (the ship itself) or demolish FACILITY, e.g. demolish ANN-OMP1",
                line,
                cell,
            )
        return Activity(kind, target=rest[0] if rest else "", at=at, cell=cell, text=line)
    if kind == "tow":
        if len(rest) != 1:
            raise InvalidOrder("write tow FACILITY, e.g. tow ANN-OMP1", line, cell)
        return Activity(kind, target=rest[0], at=at, cell=cell, text=line)
    if kind == "refuel":
        target = ""
        if rest:
            if rest[0].lower() != "from" or len(rest) < 2:
                raise InvalidOrder("write refuel, or refuel from SHIP", line, cell)
            target = " ".join(rest[1:])
        return Activity(kind, target=target, at=at, cell=cell, text=line)
    if kind in ("wait", "guard"):
        until = None
        if rest:
            words_ = rest[1:] if rest[0].lower() == "until" else rest
            if len(words_) != 1:
                raise InvalidOrder(f"write {kind} until D.H, e.g. {kind} until 4.1", line, cell)
            until = _time(words_[0], line, cell)
        elif kind == "wait":
            raise InvalidOrder("write wait until D.H, e.g. wait until 4.1", line, cell)
        return Activity(kind, until=until, at=at, cell=cell, text=line)
    if rest:
        raise InvalidOrder(f"{kind} takes nothing after it; found {' '.join(rest)!r}", line, cell)
    return Activity(kind, at=at, cell=cell, text=line)


def _jump(words: list[str], at: int | None, line: str, cell: str) -> Activity:
    """``jump TARGET [N"] [bN] [from N"]``: the target's name may have spaces."""
    name: list[str] = []
    inches, bearing, jump_from = 30, 6, None
    i = 0
    while i < len(words):
        word = words[i]
        low = word.lower()
        if low == "from" and i + 1 < len(words) and words[i + 1].rstrip('"').isdigit():
            jump_from = int(words[i + 1].rstrip('"'))
            i += 2
            continue
        if word.endswith('"') and word[:-1].isdigit():
            inches = int(word[:-1])
        elif re.fullmatch(r"b(?:earing)?\d{1,2}", low):
            bearing = int(re.sub(r"\D", "", low))
            if not 1 <= bearing <= 12:
                raise InvalidOrder(
                    f"bearing {bearing} is not on the 12-point clock; use 1 to 12", line, cell
                )
        elif low in ("bearing", "b") and i + 1 < len(words) and words[i + 1].isdigit():
            bearing = int(words[i + 1])
            i += 1
            if not 1 <= bearing <= 12:
                raise InvalidOrder(
                    f"bearing {bearing} is not on the 12-point clock; use 1 to 12", line, cell
                )
        elif low == "to" and not name:
            pass
        else:
            if inches != 30 or bearing != 6:
                raise InvalidOrder(
                    'the destination comes first; write jump TARGET 60" b4', line, cell
                )
            name.append(word)
        i += 1
    target = " ".join(name)
    if not target or not _NAME.match(target):
        raise InvalidOrder(
            'a jump needs the system or wormhole it goes to; write e.g. jump Brenn 60" b4',
            line,
            cell,
        )
    return Activity(
        "jump",
        target=target,
        inches=inches,
        bearing=bearing,
        jump_from=jump_from,
        at=at,
        cell=cell,
        text=line,
    )


def activity_text(a: Activity) -> str:
    """An activity in the notation (what `parse_activity` reads back to the same)."""
    at = f"at {a.at // 10}.{a.at % 10} " if a.at is not None else ""
    if a.kind == "jump":
        parts = [f"jump {a.target}"]
        if (a.inches, a.bearing) != (30, 6):
            parts.append(f'{a.inches}" b{a.bearing}')
        if a.jump_from is not None:
            parts.append(f'from {a.jump_from}"')
        return at + " ".join(parts)
    if a.kind in ("load", "unload", "sell"):
        to = f" to {a.target}" if a.kind == "unload" and a.target else ""
        return f"{at}{a.kind} {'all' if a.amount == ALL else a.amount}{to}"
    if a.kind in ("demolish", "refit") and a.target:
        return f"{at}{a.kind} {a.target}"
    if a.kind == "refuel" and a.target:
        return f"{at}refuel from {a.target}"
    if a.kind == "tow":
        return f"{at}tow {a.target}"
    if a.kind in ("wait", "guard") and a.until is not None:
        return f"{at}{a.kind} until {a.until // 10}.{a.until % 10}"
    return at + a.kind


__all__ = ["EXAMPLES", "activity_text", "parse_activity"]
