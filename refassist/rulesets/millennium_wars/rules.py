"""House rules of Millennium Wars: our options (fast play and a general stacking limit are
ours, not the seed's) and our readings of what the seed leaves open; each default is the seed's
plain words where it has any.

Read from ``[house_rules]`` in ``game.toml`` over these defaults;
``docs/rules/millennium-wars.md`` explains each one and why the default was chosen.  The rules
modules read ``rules[key]`` after `complete`, so a default is stated here only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import HouseRule, with_defaults

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "last_turn",
        0,
        "The game ends after this game turn, won on objectives as at the scenario's end "
        "(0: the scenario's own length).  For a shorter evening, or a game cut short.",
    ),
    HouseRule(
        "reinforcements",
        "bought",
        "The scenario's reinforcements become available on their turn and arrive when the "
        "player buys them on a first-impulse sheet at the Reinforcements column's price, with "
        "this turn's rally or protests ('bought': the seed prices the 'Reinforcements and "
        "Replacements he is due'), or arrive free on their turn ('free', our former reading).",
        ("bought", "free"),
    ),
    HouseRule(
        "fast_play",
        False,
        "Fast play (ours, not in the seed): the defender's reaction orders stand on the "
        "phasing sheet (retreats, advances, political points for its defence) and there is no "
        "reaction sheet; each impulse's combat is fought as soon as the phasing sheet is in.",
    ),
    HouseRule(
        "stacking",
        3,
        "Land units of a side a hex may hold where a retreat ends, at the end of the combat "
        "phase (1 on a glacier); more are all disrupted.  Ours: the seed speaks of "
        "overstacking after a retreat and gives a limit only for a glacier (one land unit).",
    ),
    HouseRule(
        "impulse_c4i",
        True,
        "A player qualifies for a second and a third impulse when its C4I level is at least "
        "the impulse's number (false: every player turn has three impulses).  The seed never "
        "says who 'qualifies'; this is our reading.",
    ),
    HouseRule(
        "zoc_stop",
        True,
        "Entering a hex in an enemy zone of control ends a unit's move (false: zones of "
        "control do not stop movement).",
    ),
    HouseRule(
        "odds_limits",
        "before_shifts",
        "The odds are cut to the table (1/4 to 6/1) before the shifts are counted, as the "
        "seed's text orders it ('before_shifts'), or the columns past 6/1 and below 1/4 are "
        "kept while the shifts are counted and the limits come last ('after_shifts', our "
        "former reading).",
        ("before_shifts", "after_shifts"),
    ),
    HouseRule(
        "disrupted_attack",
        True,
        "A disrupted unit may attack (true: the seed's AD, A1 and BB results speak of "
        "'Disrupted Attacking units'; false: it may not, our former reading).",
    ),
    HouseRule(
        "political_shift",
        "per_unit",
        "Political points bought column shifts: 'per_unit' (the seed's 'One per Unit "
        "(Optional): +1/-1'): a side may buy one column, paying one point for each of its "
        "units taking part; 'per_point' (our former reading): each point a column, at most one "
        "a unit; 'off': no political shifts in this game.",
        ("per_unit", "per_point", "off"),
    ),
    HouseRule(
        "air_defence",
        "deny",
        "What an Air Defense level does (the seed prices it and gives it no effect): 'deny' "
        "(ours): each level of a side takes one off the enemy's side of the Air Superiority "
        "roll, never past parity; 'none': nothing.",
        ("deny", "none"),
    ),
    HouseRule(
        "attacks_told",
        True,
        "The reacting player is told, on his reaction sheet and in his report, each attack "
        "declared on his units: the hex, the attacking units and where from, the table and "
        "the odds he can reckon (false: he writes his reaction and retreats without knowing "
        "the attacks, as at the table, where the reaction comes before the combat phase).",
    ),
    HouseRule(
        "see_home",
        True,
        "A side sees every enemy unit in its own home country (false: only the enemy units "
        "next to its own units, unless information or air superiority shows it all).",
    ),
)


def complete(rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every house rule of the game, ``rules`` over the defaults (for callers from Python)."""
    return with_defaults(HOUSE_RULES, rules)


__all__ = ["HOUSE_RULES", "complete"]
