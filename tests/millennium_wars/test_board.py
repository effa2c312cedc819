"""The board's own rules: which units may be in a hex at all, and how many a hex holds (the
house rule ``stacking``, a glacier's one)."""

from __future__ import annotations

from refassist.rulesets.millennium_wars.board import Board
from refassist.rulesets.millennium_wars.scenario import load_scenario

from .situations import blue, board, red


def test_a_hex_holds_the_house_rules_number_and_a_glacier_one() -> None:
    scenario = load_scenario()
    assert Board.of(scenario, []).limit("0101") == 3
    assert Board.of(scenario, [], stacking=2).limit("0101") == 2
    two = board(blue("A", "0303"), blue("B", "0303"), red("R", "0505"), terrain={"0303": "glacier"})
    assert two.limit("0303") == 1 and two.limit("0202") == 3
    assert two.overstacked("0303", "Blue") and not two.overstacked("0505", "Red")
    # A glacier's one holds under a house rule of more, and a plain hex takes the house rule's.
    three = board(blue("A", "0202"), blue("B", "0202"), terrain={"0303": "glacier"})
    three.stacking = 1
    assert three.limit("0303") == 1 and three.overstacked("0202", "Blue")


def test_who_may_be_in_a_hex_at_all() -> None:
    b = board(terrain={"0303": "rough", "0404": "sea"})
    armour, foot = blue("A", "0202"), blue("F", "0202", kind="light infantry")
    navy = blue("N", "0404", kind="naval task force")
    assert not b.can_enter(armour, "0303") and b.can_enter(foot, "0303")  # rough: no vehicles
    assert not b.can_enter(armour, "0404") and b.can_enter(navy, "0404")
    assert not b.can_enter(navy, "0202")
    assert not b.can_enter(foot, "0701") and not b.can_enter(foot, "0107")  # off the 6 x 6 map
