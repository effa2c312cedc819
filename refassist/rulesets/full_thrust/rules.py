"""House rules of the Full Thrust campaign: the digest's options and our readings of what the
seed leaves open.

Read from ``[house_rules]`` in ``game.toml`` over these defaults;
``docs/rules/full-thrust-campaign.md`` explains each one and why the default was chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import HouseRule, with_defaults

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "last_week",
        0,
        "The campaign ends after this week's turn, won by the commander whose planets have "
        "the greatest total Value (shared on a tie); 0 plays on until the referee ends it.",
    ),
    HouseRule(
        "starting_points",
        5000,
        "Points each commander has to buy the starting fleet; what is left is stocked at the "
        "home planet as production points.",
    ),
    HouseRule(
        "home_shipyard",
        True,
        "Each commander starts with a shipyard over the home planet as well as its starport "
        "(the seed gives no starting facilities; without a yard no warship can be built).",
    ),
    HouseRule(
        "station_cost",
        300,
        "Cost of a space station (the seed: 'varies'); our reconstruction, replace it with "
        "your own figure.",
    ),
    HouseRule(
        "station_mass",
        20,
        "Mass of a space station (the seed: 'varies'), for towing; our reconstruction.",
    ),
    HouseRule(
        "repair_boxes_a_day",
        2,
        "Damage boxes a yard, station or port repairs in a day (the seed gives no repair "
        "time); our reconstruction.",
    ),
    HouseRule(
        "repair_cost_percent",
        50,
        "A repair costs this share of the ship's cost for the boxes repaired (the seed gives "
        "no repair cost); our reconstruction.",
    ),
    HouseRule(
        "drive_cost_percent",
        10,
        "The FTL drive's share of a ship's cost, for its repair and replacement (the design "
        "list holds no systems): a disabled drive is repaired in a day for the repair share "
        "of it, a destroyed one replaced in a week at a yard able to build the ship for twice "
        "it (the seed: new systems cost double); our reconstruction.",
    ),
    HouseRule(
        "tanker_reserve",
        0,
        "Parsecs of fuel a ship giving fuel to another keeps back for itself, beyond the jumps "
        "still on its own timeline that week (0: it gives all the rest, as the seed's tankage "
        "is all it carries).",
    ),
    HouseRule(
        "refit_floor_percent",
        25,
        "A refit to another design costs twice the difference in cost (the seed: new systems "
        "cost double, no refund), but never less than this share of the new design's cost for "
        "the work (the design list holds no systems to price the change by); our reading.",
    ),
    HouseRule(
        "weapon_space_cost",
        3,
        "Points a space (MASS) of weapons mounted on a planet costs, the seed's 'normal cost' "
        "(the design list holds no weapon systems); fortifications without a port cost 5 a "
        "space more.  Our reconstruction: replace it with your book's figure.",
    ),
    HouseRule(
        "silo_cost",
        10,
        "Points a planet's missile silo costs, with its first missile (the seed: 'purchased "
        "in the normal manner'); our reconstruction, replace it with your book's figure.",
    ),
    HouseRule(
        "carrier_mass_per_squadron",
        20,
        "A carrier takes one new fighter squadron bought for it per this much of its MASS "
        "(the design list holds no hangar bays); our reading.",
    ),
    HouseRule(
        "distance_counts_start",
        False,
        "A jump's parsecs count the square it starts from as well as every square the line "
        "enters (false: only the squares entered, so neighbouring squares are 1 parsec apart).",
    ),
    HouseRule(
        "within_strictly",
        True,
        "'Within 40 inches' of a planet means closer than 40 inches (false: 40 inches or closer).",
    ),
    HouseRule(
        "hasty_proximity",
        "largest",
        "Of the Hasty Jump table's 'within 40/30/20 inches' modifiers only the largest that "
        "applies counts ('largest'), or all that apply are added ('sum').",
        ("largest", "sum"),
    ),
    HouseRule(
        "deviation_sixes",
        "add",
        "Emergence deviation: on a 6 roll again and add, as often as sixes come ('add'), or "
        "roll once more and keep that roll ('reroll').",
        ("add", "reroll"),
    ),
    HouseRule(
        "deviation_bearing",
        "d12",
        "The bearing of an emergence deviation: 1D12 on the 12-point clock ('d12') or 1D6 x 2 "
        "('d6x2').",
        ("d12", "d6x2"),
    ),
    HouseRule(
        "land_lift",
        "pair",
        "Landing and lifting take one day together, charged when landing, as the seed's "
        "merchant example counts them ('pair'), or one day each ('each').",
        ("pair", "each"),
    ),
    HouseRule(
        "station_cargo_hours",
        10,
        "Hours to load or unload at a space station (the activity table prints '-'; the "
        "merchant example takes a day).",
    ),
    HouseRule(
        "rich_vein",
        "points",
        "A rich vein (mining 13-15) adds 50 production points that week ('points'), or half "
        "the belt's production again ('percent').",
        ("points", "percent"),
    ),
    HouseRule(
        "invasion_1000",
        5,
        "Invasion Table modifier for a fleet of 1000-1500 points (the seed's line is blank; "
        "the steps before it suggest +5).",
    ),
    HouseRule(
        "crack_counts_this_battle",
        True,
        "The crack-ship roll compares with the battles survived counting the one just fought "
        "(false: only earlier ones, so a ship's first battle never makes it crack).",
    ),
    HouseRule(
        "aimed_twenty_counts",
        False,
        "Research aimed at field 19 succeeds on a roll of 20 too (false: 20 is always 'no "
        "result').",
    ),
    HouseRule(
        "development_factor",
        "divide",
        "Development points are divided by the field's cost factor, so cheap fields (0.5) "
        "develop faster ('divide'), or multiplied by it ('multiply').",
        ("divide", "multiply"),
    ),
)


def complete(rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every house rule of the game, ``rules`` over the defaults (for callers from Python)."""
    return with_defaults(HOUSE_RULES, rules)


__all__ = ["HOUSE_RULES", "complete"]
