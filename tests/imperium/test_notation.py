"""The activation notation of Imperium 3rd Millennium: every action form, the spellings players
use, the errors (each quoting the text), and a round trip between `action_text` and the
parser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refassist.errors import InvalidOrder
from refassist.rulesets.imperium_3m.orders import Action
from refassist.rulesets.imperium_3m.parse import (
    action_text,
    actions_text,
    parse_actions,
    parse_count,
)
from refassist.workbook.celltext import cell_text


def one(text: str) -> Action:
    actions = parse_actions(text, cell="D34")
    assert len(actions) == 1
    return actions[0]


def test_move() -> None:
    a = one("T1 > TAU > PRO")
    assert (a.kind, a.fleet, a.route) == ("move", "T1", ["TAU", "PRO"])


@pytest.mark.parametrize(
    "text",
    [
        "t1>tau>pro",
        "  T1  >  TAU >PRO ",
        "T1 \u2192 TAU \u2192 PRO",
        "T1 -> TAU -> PRO",
        "T1 move TAU > PRO",
        "T1 move TAU PRO",
        "t1 MOVE tau,pro",
        "\ufeffT1\u00a0>\u00a0TAU > PRO",
    ],
)
def test_move_spellings(text: str) -> None:
    a = one(text)
    assert (a.kind, a.fleet, a.route) == ("move", "T1", ["TAU", "PRO"])


def test_attack_auto_and_hexes() -> None:
    a = one("T1 attack PRO4 auto")
    assert (a.kind, a.fleet, a.planet, a.hexes) == ("attack", "T1", "PRO4", [])
    assert one("t1 attack pro4").hexes == []
    assert one("T1 ATTACK PRO4 1,1,3").hexes == [1, 1, 3]
    assert one("T1 attack PRO4 1, 1 ,3").hexes == [1, 1, 3]
    assert one("T1 invade PRO4 2 4").hexes == [2, 4]


def test_load_unload() -> None:
    a = one("T1 load RT2 PD1 from SOL1")
    assert (a.kind, a.units, a.planet) == ("load", ["RT2", "PD1"], "SOL1")
    assert one("t1 load rt2,pd1 FROM sol1").units == ["RT2", "PD1"]
    b = one("T1 unload RT2 to ACB")
    assert (b.kind, b.units, b.planet) == ("unload", ["RT2"], "ACB")


def test_split_join_evacuate_pass() -> None:
    a = one("T1 split T4 DD1 DD2")
    assert (a.kind, a.fleet, a.target, a.units) == ("split", "T1", "T4", ["DD1", "DD2"])
    assert one("T1 divide t4 dd1, dd2").units == ["DD1", "DD2"]
    b = one("T1 join T2")
    assert (b.kind, b.fleet, b.target) == ("join", "T1", "T2")
    assert one("T1 combine T2").kind == "join"
    c = one("T1 evacuate PRO4")
    assert (c.kind, c.planet) == ("evacuate", "PRO4")
    assert one("pass").kind == "pass"
    assert one("PASS").kind == "pass"


def test_several_actions_on_one_line() -> None:
    actions = parse_actions("T1 split T4 DD1 ; T4 > TAU ;; T1 load RT2 from SOL1 ;")
    assert [a.kind for a in actions] == ["split", "move", "load"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("T1 > > PRO", "empty step"),
        ("T1 > TAU PRO", "'TAU PRO' is not one system code"),
        ("T1 T2 > TAU", "before '>' is not a fleet name"),
        ("T1 fly TAU", "'FLY' is not an action word"),
        ("T1", "is not an action"),
        ("T1 attack", "needs the planet"),
        ("T1 attack PRO4 1,x", "'X' is not a landing hex"),
        ("T1 load RT2 SOL1", "needs the planet after 'from'"),
        ("T1 load from SOL1", "names no units"),
        ("T1 load RT2 from SOL1 SOL2", "exactly one planet code"),
        ("T1 unload 22 to ACB", "'22' is not a unit id"),
        ("T1 split", "needs the new fleet's name"),
        ("T1 split 4X DD1", "'4X' is not a new fleet name"),
        ("T1 split T4", "names no units"),
        ("T1 join", "exactly one fleet"),
        ("T1 join T2 T3", "exactly one fleet"),
        ("T1 evacuate", "exactly one planet"),
        ("pass; T1 > TAU", "'pass' stands alone"),
        (";;", "no action is written"),
        ("T1 > TA*U", "'TA*U' is not a system code"),
        ("T1 > TAU \u0663", "looks like a digit"),
        ("T1 > " + "TAU > " * 60 + "PRO", "characters long"),
    ],
)
def test_errors_quote_the_text(text: str, words: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        parse_actions(text, cell="D40")
    assert words in str(info.value)
    assert info.value.cell == "D40"
    assert info.value.text  # the offending text travels with the error
    assert info.value.text[:8].upper() == text[:8].upper()


def test_cell_values() -> None:
    assert cell_text(None) == ""
    assert cell_text(3.0) == "3"
    assert cell_text(" T1 ") == "T1"
    with pytest.raises(InvalidOrder, match="true/false"):
        cell_text(True)
    assert parse_count("2") == 2
    with pytest.raises(InvalidOrder, match="whole number"):
        parse_count("0")


def test_actions_text_reads_back() -> None:
    line = "T1 > TAU > PRO; T1 attack PRO4 1,2; T1 split T4 DD1 DD2; pass"
    with pytest.raises(InvalidOrder):
        parse_actions(line)  # pass may not be mixed in
    line = "T1 > TAU > PRO; T1 attack PRO4 1,2; T1 split T4 DD1 DD2"
    assert (
        actions_text(parse_actions(line))
        == "T1 > TAU > PRO; T1 attack PRO4 1,2; T1 split T4 DD1 DD2"
    )


NAMES = st.from_regex(r"[A-Z][A-Z0-9]{0,5}", fullmatch=True).filter(
    lambda s: s not in ("PASS", "NONE")
)
CODES = st.from_regex(r"[A-Z][A-Z0-9]{0,4}", fullmatch=True).filter(
    lambda s: s not in ("FROM", "TO", "AUTO")
)
IDS = st.from_regex(r"[A-Z]{1,2}[0-9]{1,2}", fullmatch=True)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    kind = draw(st.sampled_from(["move", "attack", "load", "unload", "split", "join", "evacuate"]))
    fleet = draw(NAMES)
    if kind == "move":
        return Action("move", fleet=fleet, route=draw(st.lists(CODES, min_size=1, max_size=4)))
    if kind == "attack":
        hexes = draw(st.lists(st.integers(1, 9), max_size=4))
        return Action("attack", fleet=fleet, planet=draw(CODES), hexes=hexes)
    if kind in ("load", "unload"):
        units = draw(st.lists(IDS, min_size=1, max_size=3))
        return Action(kind, fleet=fleet, units=units, planet=draw(CODES))
    if kind == "split":
        units = draw(st.lists(IDS, min_size=1, max_size=3))
        return Action("split", fleet=fleet, target=draw(NAMES), units=units)
    if kind == "join":
        return Action("join", fleet=fleet, target=draw(NAMES))
    return Action("evacuate", fleet=fleet, planet=draw(CODES))


def _key(a: Action) -> tuple[object, ...]:
    return (a.kind, a.fleet, a.route, a.planet, a.units, a.hexes, a.target)


@settings(max_examples=150, deadline=None)
@given(st.lists(actions(), min_size=1, max_size=3), st.booleans())
def test_round_trip(items: list[Action], lower: bool) -> None:
    text = actions_text(items)
    if lower:
        text = text.lower()
    back = parse_actions(text)
    assert [_key(a) for a in back] == [_key(a) for a in items]
    assert [action_text(a) for a in back] == [action_text(a) for a in items]
