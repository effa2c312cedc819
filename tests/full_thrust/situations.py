"""Small campaign situations for the rule tests: a hand-drawn map whose distances are easy to
count, commanders and ships placed by hand."""

from __future__ import annotations

from typing import Any

from refassist.rulesets.full_thrust.designs import STANDARD_DESIGNS
from refassist.rulesets.full_thrust.orders import Orders, Timeline
from refassist.rulesets.full_thrust.parse import parse_activity
from refassist.rulesets.full_thrust.state import WORMHOLE, Commander, Ship, State, System

DESIGNS = {d.name: d for d in STANDARD_DESIGNS}


def seed_map(week: int = 1) -> State:
    """A to B 5 parsecs, B to C 6, C to D 3, D to A 5 (the seed's merchant example); Ann is
    at home at A (Value 4), Bob at D (Value 1), Cleo at Far; B (Value 3) and C are neutral."""
    systems = {
        "A": System("A", (1, 1), value=4, owner="Ann", home=True, port="starport"),
        "B": System("B", (1, 6), value=3, indigenous=300),
        "C": System("C", (3, 2), value=2, belt="rich", indigenous=200),
        "D": System("D", (2, 5), value=1, owner="Bob", home=True, port="starport"),
        "Gate": System("Gate", (9, 9), kind=WORMHOLE),
        "Far": System("Far", (8, 6), value=2, owner="Cleo", home=True, ancient_site=True),
        "Walled": System("Walled", (6, 1), value=2),
    }
    return State(
        game_name="Test",
        game_id="t",
        week=week,
        commanders=[
            Commander("Ann", "ann@example.com", code="ANN", home="A"),
            Commander("Bob", "bob@example.com", code="BOB", home="D"),
            Commander("Cleo", "cleo@example.com", code="CLE", home="Far"),
        ],
        systems=systems,
        obstacles={(4, 1)},
        designs=dict(DESIGNS),
        columns=10,
        rows=10,
    )


def ship(state: State, ship_id: str, design: str, owner: str, place: str, **kw: Any) -> Ship:
    s = Ship(ship_id, design, owner, place, **kw)
    state.ships.append(s)
    return s


def week_orders(commander: str, week: int = 1, **timelines: list[str]) -> Orders:
    """Orders whose timelines are written in the notation: ``ANN_1=["jump B", "land"]``."""
    orders = Orders(commander, week)
    for unit, lines in timelines.items():
        name = unit.replace("_", "-")
        orders.timelines.append(
            Timeline(name, [parse_activity(line, cell=f"C{n}") for n, line in enumerate(lines)])
        )
    return orders
