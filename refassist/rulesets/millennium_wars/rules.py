"""House rules of Millennium Wars: the seed's options (fast play, stacking) and our readings of
what it leaves open.

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
        "free",
        "The scenario's reinforcements arrive free on their turn ('free', as the seed's 'places "
        "any Reinforcements he is due'), or become available on their turn and arrive when the "
        "player buys them on a first-impulse sheet at the Reinforcements column's price, with "
        "this turn's rally or protests ('bought').",
        ("free", "bought"),
    ),
    HouseRule(
        "fast_play",
        False,
        "Fast play: the defender's reaction orders stand on the phasing sheet (retreats, "
        "advances, political points for its defence) and there is no reaction sheet; each "
        "impulse's combat is fought as soon as the phasing sheet is in.",
    ),
    HouseRule(
        "stacking",
        3,
        "Land units a side may have in a hex at the end of the combat phase (1 on a glacier); "
        "more are all disrupted.  The seed's stacking option.",
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
        "after_shifts",
        "The odds columns past 6/1 and below 1/4 are kept while the shifts are counted and "
        "the limits come last ('after_shifts'), or the odds are cut to the table first "
        "('before_shifts').",
        ("after_shifts", "before_shifts"),
    ),
    HouseRule(
        "disrupted_attack",
        False,
        "A disrupted unit may attack (false: it may not; the seed gives disruption no stated "
        "effect, and we read it as the end of a unit's offensive power until it recovers).",
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
