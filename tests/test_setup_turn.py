"""The set-up year (5000): homeworlds chosen on the set-up sheets, conflicts, assignments.

Class A systems of the test map: 1010 and 1013 (3 hexes apart: too close), 2020 and 3025.
When the tool assigns a homeworld it rolls a die with as many sides as candidates, among the
best quarter of the class A systems far enough from every chosen homeworld (`setup.py`).
"""

from __future__ import annotations

import os
import shutil

from refassist.geometry.hexmap import distance
from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.fifth_millennium.orders import Orders
from refassist.rulesets.fifth_millennium.state import SETUP_YEAR, Fleet
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets
from refassist.turns import resolve_game
from tests.conftest import players
from tests.fm_states import events, fleet_at, resolve, state, system


def _setup(**fixed):
    s = state(
        [
            system("1010", "A"),
            system("1011", "C"),
            system("1013", "A"),
            system("2020", "A"),
            system("3025", "A"),
        ],
        players=("Ann", "Bob", "Cleo") if "Cleo" in fixed else ("Ann", "Bob"),
        year=SETUP_YEAR,
        homeworlds=fixed,
    )
    return s


def _choice(player: str, hex_: str) -> Orders:
    return Orders(player=player, year=SETUP_YEAR, homeworld=hex_, homeworld_cell="C11")


def _homes(result):
    return {p.name: p.homeworld for p in result.state.players}


def test_conflicting_choices_go_to_the_earlier_received_sheet() -> None:
    bob_first = resolve(_setup(), [_choice("Bob", "1010"), _choice("Ann", "1013")], dice=[1])
    assert _homes(bob_first) == {"Ann": "3025", "Bob": "1010"}
    refused = [e for e in bob_first.events if e.kind == "order_cancelled"]
    assert [(e.visible_to, e.data["cell"]) for e in refused] == [(("Ann",), "C11")]
    assert "within 5 hexes of another player's homeworld" in refused[0].data["reason"]
    assert "1010" not in refused[0].text  # nothing says where the other homeworld is
    ann_first = resolve(_setup(), [_choice("Ann", "1013"), _choice("Bob", "1010")], dice=[1])
    assert _homes(ann_first) == {"Ann": "1013", "Bob": "3025"}


def test_house_rule_referee_assigns_every_conflicting_choice() -> None:
    r = resolve(
        _setup(),
        [_choice("Bob", "1010"), _choice("Ann", "1013")],
        dice=[2, 1],  # Ann: 2nd of the four class A systems (1013); Bob: the farthest, 3025
        homeworld_conflicts="referee",
    )
    assert _homes(r) == {"Ann": "1013", "Bob": "3025"}
    assert len([e for e in r.events if e.kind == "order_cancelled"]) == 2


def test_invalid_or_missing_choices_are_assigned_and_everyone_starts_with_the_fleet() -> None:
    r = resolve(_setup(), [_choice("Ann", "1011")], dice=[3, 1], start_squadrons=10)
    assert "class C, not class A" in next(e for e in r.events if e.kind == "order_cancelled").text
    homes = _homes(r)
    assert homes == {"Ann": "2020", "Bob": "1010"}
    assert r.state.year == SETUP_YEAR + 1
    assert fleet_at(r.state, "2020", "Ann") == Fleet(F=10)
    assert r.state.system("2020").owner == "Ann" and r.state.system("2020").changes == 0
    told = {e.visible_to: e.data["assigned"] for e in events(r, "homeworld")}
    assert told == {("Ann",): True, ("Bob",): True}


def test_a_homeworld_fixed_at_creation_is_kept_and_choices_must_keep_away_from_it() -> None:
    r = resolve(
        _setup(Cleo="2020"),
        [_choice("Ann", "1010"), _choice("Bob", "3025"), _choice("Cleo", "1013")],
    )
    assert _homes(r) == {"Ann": "1010", "Bob": "3025", "Cleo": "2020"}
    assert [e.visible_to for e in events(r, "homeworld")] == [("Ann",), ("Bob",)]
    assert all(not e.data["assigned"] for e in events(r, "homeworld"))


def test_the_set_up_turn_through_real_sheets_honours_the_order_received(tmp_path) -> None:
    game = Game.create(
        tmp_path / "g", find_ruleset("fifth-millennium"), players(2), seed=3, generate_seed=42
    )
    state = game.load_state()
    assert state.year == SETUP_YEAR
    class_a = sorted(s.hex for s in state.systems if s.resource_class == "A")
    near = next((a, b) for a in class_a for b in class_a if 0 < distance(a, b) < 6)
    sheets = write_sheets(game, state)
    for n, (player, hex_, path) in enumerate(
        zip(("Bob", "Ann"), near, reversed(sheets), strict=True)
    ):
        assert path.stem == player
        filled = tmp_path / "mail" / path.name
        filled.parent.mkdir(exist_ok=True)
        shutil.copyfile(path, filled)
        game.ruleset.fill_sheet(filled, _choice(player, hex_))
        os.utime(filled, (1_800_000_000 + 60 * n, 1_800_000_000 + 60 * n))  # Bob's is older
        assert intake(game, [filled]).count("accepted") == 1
    resolve_game(game, force=True)
    after = game.load_state()
    assert after.year == SETUP_YEAR + 1
    homes = {p.name: p.homeworld for p in after.players}
    assert homes["Bob"] == near[0] and homes["Ann"] != near[1]
    assert distance(homes["Ann"], homes["Bob"]) >= 6
