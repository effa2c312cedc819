"""The computer commanders send sheets the checker accepts: a warship away from home that
cannot make the jump home on the fuel aboard, and cannot refuel where it is, guards there
instead of repeating a refused jump week after week (seen in a six-week campaign through the
CLI, where one commander's sheets came back with the same errors every week)."""

from __future__ import annotations

from refassist.rulesets.full_thrust.ai import computer_orders
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.validate import validate_orders

from .situations import seed_map, ship

RULES = complete()


def test_a_stranded_warship_guards_and_one_with_fuel_goes_home() -> None:
    state = seed_map(week=3)
    state.systems["C"].owner = "Ann"  # Ann's planet, no port: a warship cannot refuel there
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "C", fuel=2)
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "C", fuel=15)
    orders = computer_orders(state, "Ann", 7, RULES)
    assert [p.message for p in validate_orders(state, "Ann", orders, RULES)] == []
    plans = {t.unit: [a.text for a in t.activities] for t in orders.timelines}
    assert plans["ANN-1"] == ["guard"]
    assert plans["ANN-2"] == ["jump A", "guard"]
