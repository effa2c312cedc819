"""Reading the Imperium 3rd Millennium notation the way players type it.

A turn sheet's activation line holds one or more actions separated by ``;`` (the grammar is in
`orders.py`'s docstring and, for players, ``docs/imperium-turn-sheet.md``).  Players type in
any case, with extra or missing spaces around ``>`` and ``,``, paste arrows and dashes from
word processors, and write ``T1 move TAU > PRO`` as readily as ``T1 > TAU > PRO``.  All of that
is read; anything whose meaning is not certain is refused with one sentence that quotes the
text and says what to type instead.  Whether an order is *legal* (the fleet is yours, the route
exists) is the checker's business (`validate.py`); this module only reads.

Every error is an `InvalidOrder` carrying the offending text and the cell, and nothing else
escapes: a player's text is hostile until read.  Names (fleets, systems, planets, unit ids)
are upper-cased, so ``t1 > tau`` and ``T1 > TAU`` are the same order.
"""

from __future__ import annotations

import re

from ...errors import InvalidOrder
from ...workbook.celltext import clip, table
from ...workbook.celltext import normalise as _normalise
from .orders import Action

#: Longest text read as one activation line; longer is refused rather than scanned.
MAX_LINE_LENGTH = 300
#: Longest fleet name a player may choose for a split (it has to fit the reports' columns).
MAX_FLEET_NAME = 12
#: Most landing hexes one attack may list.
MAX_HEXES = 60

#: Arrows players paste or type for the notation's ``>``.
_ARROWS = "\u2192\u279c\u2794\u21d2\u27a1\u25b6\u00bb"
_TABLE = table({ch: ">" for ch in _ARROWS})

NAME = re.compile(r"^[A-Z][A-Z0-9_-]*$")
UNIT_ID = re.compile(r"^[A-Z]+[0-9]*-?[0-9]+$")
CODE = re.compile(r"^[A-Z0-9]+$")

#: Words players use for the action keywords, to the keyword.
VERBS = {
    "MOVE": "move",
    "MOVES": "move",
    "ATTACK": "attack",
    "ATTACKS": "attack",
    "INVADE": "attack",
    "LOAD": "load",
    "LOADS": "load",
    "UNLOAD": "unload",
    "UNLOADS": "unload",
    "SPLIT": "split",
    "DIVIDE": "split",
    "JOIN": "join",
    "COMBINE": "join",
    "EVACUATE": "evacuate",
    "EVAC": "evacuate",
}
PASS_WORDS = ("PASS", "-", "NONE")

FORMS = (
    "T1 > TAU > PRO (move), T1 attack PRO4 auto, T1 load RT2 PD1 from SOL1, "
    "T1 unload RT2 to ACB, T1 split T4 DD1 DD2, T1 join T2, T1 evacuate PRO4, or pass"
)


def normalise(text: str, *, cell: str = "", found: str | None = None) -> str:
    """Text as the parser reads it (`celltext.normalise`, with arrows read as ``>``), upper
    case: the notation's names and keywords are the same in any case."""
    original = text if found is None else found
    return _normalise(text, cell=cell, found=clip(original), translate=_TABLE).upper()


def parse_count(text: str, *, cell: str = "", what: str = "count") -> int:
    """A whole number from 1 to 99 (``3``, ``3.0``, `` 3 ``)."""
    t = text.strip()
    if t.endswith(".0"):
        t = t[:-2]
    if not t.isdigit() or not 1 <= int(t) <= 99:
        raise InvalidOrder(
            f"{clip(text)!r} is not a {what}; type a whole number from 1 to 99", clip(text), cell
        )
    return int(t)


def parse_name(token: str, what: str, *, line: str, cell: str) -> str:
    """A fleet name: a letter, then letters, digits, ``-`` or ``_`` (upper-cased)."""
    if not NAME.match(token) or len(token) > MAX_FLEET_NAME:
        raise InvalidOrder(
            f"{clip(token)!r} is not a {what}; a fleet name is a letter followed by letters, "
            f"digits, - or _ (at most {MAX_FLEET_NAME} characters), e.g. T1 or STRIKE2",
            clip(line),
            cell,
        )
    return token


def parse_code(token: str, what: str, example: str, *, line: str, cell: str) -> str:
    """A system or planet code: letters and digits."""
    if not CODE.match(token):
        raise InvalidOrder(
            f"{clip(token)!r} is not a {what}; type its code from the map, e.g. {example}",
            clip(line),
            cell,
        )
    return token


def split_list(text: str) -> list[str]:
    """Items separated by spaces and/or commas."""
    return [t for t in re.split(r"[\s,]+", text) if t]


def parse_units(tokens: list[str], *, line: str, cell: str, verb: str) -> list[str]:
    """Unit ids (``DD3``, ``RT2``, ``OP1``), at least one."""
    if not tokens:
        raise InvalidOrder(
            f"'{verb}' names no units; list the unit ids, e.g. RT2 PD1 (see 'Your forces')",
            clip(line),
            cell,
        )
    for t in tokens:
        if not UNIT_ID.match(t):
            raise InvalidOrder(
                f"{clip(t)!r} is not a unit id; a unit id is its code and number, e.g. DD3, "
                "RT2 or OP1 (see 'Your forces')",
                clip(line),
                cell,
            )
    return tokens


def parse_action(text: str, *, cell: str = "") -> Action:
    """One action (already normalised): the forms listed in `FORMS`."""
    if text in PASS_WORDS:
        return Action("pass", text="pass")
    if ">" in text:
        head, _, rest = text.partition(">")
        words = head.split()
        if len(words) == 3 and VERBS.get(words[1]) == "move":
            # ``T1 move TAU > PRO``: the first system stands before the first '>'.
            rest = f"{words[2]} > {rest}"
            words = words[:1]
        if len(words) != 1:
            raise InvalidOrder(
                f"{clip(head.strip())!r} before '>' is not a fleet name; a move is the fleet "
                "and the systems it enters, e.g. T1 > TAU > PRO",
                clip(text),
                cell,
            )
        fleet = parse_name(words[0], "fleet name", line=text, cell=cell)
        steps = [s.strip() for s in rest.split(">")]
        if any(not s for s in steps):
            raise InvalidOrder(
                "the route has an empty step (two '>' in a row, or a '>' at the end); write "
                "each system entered once, e.g. T1 > TAU > PRO",
                clip(text),
                cell,
            )
        route = []
        for s in steps:
            if " " in s:
                raise InvalidOrder(
                    f"{clip(s)!r} is not one system code; separate the systems of a route with "
                    "'>', e.g. T1 > TAU > PRO",
                    clip(text),
                    cell,
                )
            route.append(parse_code(s, "system code", "TAU", line=text, cell=cell))
        return Action("move", fleet=fleet, route=route, text=text)
    words = text.split()
    if len(words) < 2:
        raise InvalidOrder(
            f"{clip(text)!r} is not an action; write one of: {FORMS}", clip(text), cell
        )
    if VERBS.get(words[0]) == "attack" and VERBS.get(words[1]) is None:
        # `attack PRO4`: the units already on a disputed planet renew the fight, no fleet.
        return _attack("", words[1:], text, cell)
    fleet = parse_name(words[0], "fleet name", line=text, cell=cell)
    verb = VERBS.get(words[1])
    rest = words[2:]
    if verb is None:
        raise InvalidOrder(
            f"{clip(words[1])!r} is not an action word (move, attack, load, unload, split, "
            f"join, evacuate); write one of: {FORMS}",
            clip(text),
            cell,
        )
    if verb == "move":
        steps = split_list(" ".join(rest))
        route = [parse_code(s, "system code", "TAU", line=text, cell=cell) for s in steps]
        if not route:
            raise InvalidOrder(
                "the move names no system; write the systems entered, e.g. T1 > TAU > PRO",
                clip(text),
                cell,
            )
        return Action("move", fleet=fleet, route=route, text=text)
    if verb == "attack":
        return _attack(fleet, rest, text, cell)
    if verb in ("load", "unload"):
        word = "FROM" if verb == "load" else "TO"
        if word not in rest:
            example = "RT2 PD1 from SOL1" if verb == "load" else "RT2 to ACB"
            raise InvalidOrder(
                f"'{verb}' needs the planet after '{word.lower()}', e.g. {fleet} {verb} {example}",
                clip(text),
                cell,
            )
        at = rest.index(word)
        after = rest[at + 1 :]
        if len(after) != 1:
            raise InvalidOrder(
                f"'{word.lower()}' must be followed by exactly one planet code, e.g. SOL1",
                clip(text),
                cell,
            )
        units = parse_units(split_list(" ".join(rest[:at])), line=text, cell=cell, verb=verb)
        planet = parse_code(after[0], "planet code", "SOL1", line=text, cell=cell)
        return Action(verb, fleet=fleet, units=units, planet=planet, text=text)
    if verb == "split":
        if not rest:
            raise InvalidOrder(
                "'split' needs the new fleet's name and its units, e.g. T1 split T4 DD1 DD2",
                clip(text),
                cell,
            )
        target = parse_name(rest[0], "new fleet name", line=text, cell=cell)
        units = parse_units(split_list(" ".join(rest[1:])), line=text, cell=cell, verb="split")
        return Action("split", fleet=fleet, target=target, units=units, text=text)
    if verb == "join":
        if len(rest) != 1:
            raise InvalidOrder(
                "'join' names exactly one fleet that joins this one, e.g. T1 join T2",
                clip(text),
                cell,
            )
        target = parse_name(rest[0], "fleet name", line=text, cell=cell)
        return Action("join", fleet=fleet, target=target, text=text)
    # evacuate
    if len(rest) != 1:
        raise InvalidOrder(
            "'evacuate' names exactly one planet, e.g. T1 evacuate PRO4", clip(text), cell
        )
    planet = parse_code(rest[0], "planet code", "PRO4", line=text, cell=cell)
    return Action("evacuate", fleet=fleet, planet=planet, text=text)


NO_BOMBARD = ("NO BOMBARD", "NO BOMBARDMENT", "NOBOMBARD", "NO-BOMBARD")


def _attack(fleet: str, rest: list[str], text: str, cell: str) -> Action:
    """``[fleet] attack PLANET [auto | hexes] [no bombard] [fight hexes | fight none]``."""
    example = f"{fleet or 'T1'} attack PRO4 auto"
    if not rest:
        raise InvalidOrder(f"'attack' needs the planet, e.g. {example}", clip(text), cell)
    planet = parse_code(rest[0], "planet code", "PRO4", line=text, cell=cell)
    tail = " ".join(rest[1:])
    bombard = True
    for words in NO_BOMBARD:
        if words in tail:
            bombard = False
            tail = tail.replace(words, " ")
    fight: list[int] | None = None
    if "FIGHT" in tail.split():
        tail, _, fight_text = tail.partition("FIGHT")
        fight = _fight_hexes(fight_text, text, cell)
    items = split_list(tail)
    action = Action("attack", fleet=fleet, planet=planet, text=text, bombard=bombard, fight=fight)
    if not items or items == ["AUTO"]:
        return action
    if not fleet:
        raise InvalidOrder(
            "an attack without a fleet lands nothing, so it takes no landing hexes; write "
            "'attack PRO4' (or 'attack PRO4 fight 2')",
            clip(text),
            cell,
        )
    hexes = []
    for t in items:
        if not t.isdigit() or not 1 <= int(t) <= 99:
            raise InvalidOrder(
                f"{clip(t)!r} is not a landing hex; write 'auto' or one hex number per landing "
                "unit, e.g. 1,1,3 (then, if you like, 'no bombard' or 'fight 2,3')",
                clip(text),
                cell,
            )
        hexes.append(int(t))
    if len(hexes) > MAX_HEXES:
        raise InvalidOrder(
            f"{len(hexes)} landing hexes are more than any landing can use; write 'auto' or "
            "one hex per landing unit",
            clip(text),
            cell,
        )
    action.hexes = hexes
    return action


def _fight_hexes(raw: str, text: str, cell: str) -> list[int] | None:
    """The hexes after ``fight``: numbers, ``all`` (None: every hex) or ``none`` ([])."""
    items = split_list(raw)
    if items == ["ALL"]:
        return None
    if items == ["NONE"]:
        return []
    if not items or not all(t.isdigit() and 1 <= int(t) <= 99 for t in items):
        raise InvalidOrder(
            "'fight' is followed by the hexes to fight in (e.g. fight 2,3), 'all' or 'none'",
            clip(text),
            cell,
        )
    return sorted({int(t) for t in items})


def parse_actions(raw: str, *, cell: str = "") -> list[Action]:
    """An activation line's actions: text split at ``;``, each read by `parse_action`."""
    if len(raw) > MAX_LINE_LENGTH:
        raise InvalidOrder(
            f"the line is {len(raw)} characters long; split it over more activations "
            f"(at most {MAX_LINE_LENGTH} characters a line)",
            clip(raw),
            cell,
        )
    text = normalise(raw, cell=cell, found=raw).replace("->", ">").replace("=>", ">")
    parts = [p.strip() for p in text.split(";")]
    parts = [p for p in parts if p]
    if not parts:
        raise InvalidOrder(f"no action is written; write one of: {FORMS}", clip(raw), cell)
    actions = [parse_action(p, cell=cell) for p in parts]
    if len(actions) > 1 and any(a.kind == "pass" for a in actions):
        raise InvalidOrder(
            "'pass' stands alone on its line; delete the other actions or the 'pass'",
            clip(raw),
            cell,
        )
    return actions


def action_text(action: Action) -> str:
    """An action in the notation, as `parse_action` reads it back."""
    if action.kind == "pass":
        return "pass"
    if action.kind == "move":
        return " > ".join([action.fleet, *action.route])
    if action.kind == "attack":
        where = ",".join(str(h) for h in action.hexes) if action.hexes else "auto"
        if action.fleet:
            words = [action.fleet, "attack", action.planet, where]
        else:
            words = ["attack", action.planet]
        if not action.bombard:
            words.append("no bombard")
        if action.fight is not None:
            words.append("fight " + (",".join(map(str, action.fight)) or "none"))
        return " ".join(words)
    if action.kind == "load":
        return f"{action.fleet} load {' '.join(action.units)} from {action.planet}"
    if action.kind == "unload":
        return f"{action.fleet} unload {' '.join(action.units)} to {action.planet}"
    if action.kind == "split":
        return f"{action.fleet} split {action.target} {' '.join(action.units)}"
    if action.kind == "join":
        return f"{action.fleet} join {action.target}"
    return f"{action.fleet} evacuate {action.planet}"


def actions_text(actions: list[Action]) -> str:
    return "; ".join(action_text(a) for a in actions)
