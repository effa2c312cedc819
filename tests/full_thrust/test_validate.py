"""The checker on a commander's sheet: what it refuses and what it only warns of, each on the
cell of the order at fault."""

from __future__ import annotations

from refassist.rulesets.full_thrust.orders import (
    FleetOrder,
    Mission,
    Orders,
    Purchase,
    ResearchOrder,
)
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import Facility
from refassist.rulesets.full_thrust.validate import validate_orders

from .situations import seed_map, ship, week_orders

RULES = complete()


def messages(problems: list) -> list[tuple[str, str, str]]:
    return [(p.cell, p.severity, p.message) for p in problems]


def test_a_clean_week_has_no_problems() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A", landed=True)
    orders = week_orders("Ann", ANN_1=["load 100", "lift", "jump B", "land", "unload all"])
    assert validate_orders(state, "Ann", orders, RULES) == []


def test_timeline_troubles_are_pinned_to_their_lines() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    orders = week_orders("Ann", ANN_1=["jump Walled", "jump B", "jump D", "land"])
    got = messages(validate_orders(state, "Ann", orders, RULES))
    assert got[0][:2] == ("C0", "error") and "obstacle" in got[0][2]
    assert got[1][:2] == ("C2", "warning") and "hasty jump" in got[1][2]
    assert got[2][:2] == ("C3", "error") and "not streamlined" in got[2][2]


def test_fleets_and_units_that_are_not_the_commanders() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "ANN-2", "Halberd frigate", "Ann", "B")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "D")
    orders = week_orders("Ann", BOB_1=["jump A"])
    orders.fleets = [
        FleetOrder("Pair", ["ANN-1", "ANN-2"], cell="Orders!B12"),
        FleetOrder("Solo", ["ANN-1", "ANN-9"], cell="Orders!B13"),
    ]
    got = messages(validate_orders(state, "Ann", orders, RULES))
    text = " | ".join(m for _, _, m in got)
    assert "must be at one place" in text
    assert "ANN-1 is in two fleets" in text and "ANN-9 is not one of your ships" in text
    assert "BOB-1 is not one of your ships in service" in text
    assert "fleet Pair has no timeline" in text  # a warning


def test_purchases_research_espionage_and_allies() -> None:
    state = seed_map()
    state.facilities.append(Facility("ANN-YARD", "shipyard", "Ann", "A"))
    state.stocks[("A", "Ann")] = 100
    commander = state.commander("Ann")
    assert commander is not None
    commander.spies = 4
    orders = Orders(
        "Ann",
        1,
        purchases=[
            Purchase("Halberd frigate", 2, "A", cell="Orders!B21"),
            Purchase("Claymore cruiser", 1, "D", cell="Orders!B22"),
            Purchase("spy", 2, cell="Orders!B23"),
            Purchase("Dreadnought", 1, cell="Orders!B24"),
        ],
        research=ResearchOrder(1, 0, "Armour", 50, cell="Orders!B32"),
        missions=[
            Mission(3, 1, "Bob", "fleet", 500, cell="Orders!B36"),
            Mission(2, 0, "Cleo", "research", cell="Orders!B37"),
            Mission(1, 0, "Zed", "industry", cell="Orders!B38"),
        ],
        allies=["Bob", "Zed"],
        allies_cell="Orders!C42",
    )
    got = messages(validate_orders(state, "Ann", orders, RULES))
    by_cell: dict[str, list[str]] = {}
    for cell, severity, message in got:
        by_cell.setdefault(cell, []).append(f"{severity}: {message}")
    assert any("cost 136 and 100 points" in m for m in by_cell["B21"])  # a warning
    assert any("D has no shipyard of yours" in m for m in by_cell["B22"])
    assert any("never have more than 5" in m for m in by_cell["B23"])
    assert any("no design 'Dreadnought'" in m for m in by_cell["B24"])
    assert any("not discovered Armour" in m for m in by_cell["B32"])
    assert any("points beyond 450 add nothing" in m for m in by_cell["B36"])
    assert any("you have 4 spies" in m for m in by_cell["B37"])
    assert any("'Zed' is not a commander" in m for m in by_cell["B38"])
    assert any("'Zed' is not another commander" in m for m in by_cell["C42"])


def test_the_set_up_sheet_is_held_to_the_starting_points() -> None:
    state = seed_map(week=0)
    commander = state.commander("Ann")
    assert commander is not None
    commander.points = 500
    orders = Orders(
        "Ann",
        0,
        purchases=[
            Purchase("Bastion battleship", 1, cell="Set-up!B13"),
            Purchase("Claymore cruiser", 1, cell="Set-up!B14"),
        ],
    )
    got = messages(validate_orders(state, "Ann", orders, RULES))
    assert got == [("B14", "error", "the fleet so far costs 658 points; you have 500")]


def test_a_fleet_needs_a_short_plain_name_and_ships() -> None:
    """A fleet's name heads its timeline block and every report line: 1 to 20 letters, digits,
    spaces or dashes.  A name without ships forms nothing."""
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    orders = week_orders("Ann")
    orders.fleets = [
        FleetOrder("x1 " * 10, ["ANN-1"], cell="Orders!B12"),
        FleetOrder("Red\u202e", ["ANN-1"], cell="Orders!B13"),
        FleetOrder("Empty", [], cell="Orders!B14"),
        FleetOrder("Task Force 2", ["ANN-1"], cell="Orders!B15"),
    ]
    got = messages(validate_orders(state, "Ann", orders, RULES))
    errors = {cell: m for cell, severity, m in got if severity == "error"}
    assert "1 to 20 letters" in errors["B12"] and "1 to 20 letters" in errors["B13"]
    assert errors["B14"] == "fleet Empty has no ships"
    assert "B15" not in errors
