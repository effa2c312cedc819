"""`rulesets.base.plain`: `dataclasses.asdict` without its deep copy, used where a state
becomes JSON (`Ruleset.to_json`, which every command hashes to mark what a file was made
from).  It must give what ``asdict`` gives, to the type, for every game's states."""

from __future__ import annotations

import dataclasses
import sys
from collections import namedtuple
from typing import Any

import pytest

from refassist.rulesets import RULESETS, base, find_ruleset
from refassist.rulesets.base import plain
from refassist.store.canonical import fingerprint
from tests.golden_game import play_states

Point = namedtuple("Point", "x y")


@dataclasses.dataclass
class _Leaf:
    name: str
    at: Point


@dataclasses.dataclass
class _Tree:
    leaves: list[_Leaf]
    by_key: dict[tuple[int, int], _Leaf]
    pair: tuple[_Leaf, None]
    tags: frozenset[str]
    weight: float = 1.5


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (a tuple stays a tuple, a named tuple
    its own type); sets are compared as sets (``asdict``'s copy of one may list it in
    another order)."""
    if type(a) is not type(b) or a != b:
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return all(_same(x, y) for x, y in zip(a, b, strict=True))
    return True


def test_a_value_comes_out_as_asdict_gives_it() -> None:
    leaf = _Leaf("Deneb", Point(3, 4))
    tree = _Tree([leaf], {(1, 2): leaf}, (leaf, None), frozenset({"a"}))
    assert _same(plain(tree), dataclasses.asdict(tree))
    assert type(plain(tree)["leaves"][0]["at"]) is Point
    assert not _same({"a": (1, 2)}, {"a": [1, 2]})  # the comparison sees a tuple's type
    assert _same(plain([tree, 3, "x"]), [dataclasses.asdict(tree), 3, "x"])


def test_nothing_is_shared_that_can_be_changed() -> None:
    leaf = _Leaf("Deneb", Point(3, 4))
    tree = _Tree([leaf], {}, (leaf, None), frozenset())
    data = plain(tree)
    data["leaves"].append("more")
    data["leaves"][0]["name"] = "Vega"
    assert tree.leaves == [leaf] and leaf.name == "Deneb"


@pytest.mark.parametrize("name", [r.name for r in RULESETS])
def test_every_games_states_come_out_as_asdict_gives_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """And their marks are those ``asdict`` gave: the outbox's records of a game played
    before still name the state their files were made from."""
    ruleset = find_ruleset(name)
    states = [state for _, state in play_states(name)]
    assert states
    chosen = states[:: max(1, len(states) // 3)]
    marks = [fingerprint(ruleset.to_json(state)) for state in chosen]
    patched = []
    for module in list(sys.modules.values()):
        users = module.__name__.startswith("refassist.") and module is not base
        if users and getattr(module, "plain", None) is plain:
            monkeypatch.setattr(module, "plain", dataclasses.asdict)
            patched.append(module.__name__)
    assert "refassist.workbook.history" in patched  # every game's dice go through it
    assert marks == [fingerprint(ruleset.to_json(state)) for state in chosen]
    for state in chosen:
        assert _same(plain(state), dataclasses.asdict(state))


def test_fields_of_takes_the_named_attributes_over() -> None:
    """`base.fields_of`: what a view copies from the object it shows, by name."""
    leaf = _Leaf("oak", Point(1, 2))
    assert base.fields_of(leaf, "name  at") == {"name": "oak", "at": Point(1, 2)}
    assert _Leaf(**base.fields_of(leaf, "name at")) == leaf
    assert base.fields_of(leaf, "") == {}
    with pytest.raises(AttributeError):
        base.fields_of(leaf, "name height")
