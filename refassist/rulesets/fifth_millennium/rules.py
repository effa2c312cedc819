"""House rules of Fifth Millennium: every decision the rules digest marks as an option.

They are parameters of the ruleset (OpenSpiel's habit), read from ``[house_rules]`` in
``game.toml`` with these defaults, so a referee can change a reading of the rules without
touching code.  ``docs/rules/fifth-millennium.md`` explains each one.
"""

from __future__ import annotations

from ..base import HouseRule

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("start_squadrons", 15, "Fleet squadrons each player starts with at the homeworld."),
    HouseRule(
        "homeworld_min_distance",
        6,
        "Least distance between two homeworlds ('not within 5 parsecs' = 6).",
    ),
    HouseRule(
        "homeworld_conflicts",
        "earlier-sheet",
        "Two set-up sheets choosing homeworlds too close: the earlier-received sheet keeps its "
        "choice and the other player is assigned one ('earlier-sheet'), or the referee "
        "assigns both ('referee').",
        ("earlier-sheet", "referee"),
    ),
    HouseRule(
        "battle_order",
        "strongest-first",
        "Several players arriving at one system without a treaty: the holder fights each "
        "arriving side in turn, the strongest CV first ('strongest-first') or the weakest "
        "first ('weakest-first').",
        ("strongest-first", "weakest-first"),
    ),
    HouseRule("tl2_income", 30, "Income in one turn that unlocks Technology Level 2."),
    HouseRule("tl3_income", 60, "Income in one turn that unlocks Technology Level 3."),
    HouseRule("max_departures", 4, "Most departures per player per turn (probes do not count)."),
    HouseRule("jump_range", 4, "Longest journey in hexes before Enhanced Drive."),
    HouseRule(
        "enhanced_jump_range", 7, "Longest journey in hexes once TL3 Enhanced Drive is known."
    ),
    HouseRule(
        "count_k_bases",
        False,
        "Count non-Imperial naval bases (code K in T5 sector data) as naval bases.",
    ),
    HouseRule(
        "fought_may_depart",
        "none",
        "Squadrons that fought a battle this turn: none of them may depart the same turn "
        "('none'), or only the arriving side is held back and a system's owner may send its "
        "surviving defenders away ('defenders').",
        ("none", "defenders"),
    ),
    HouseRule(
        "purchases_after_shortfall",
        "cancelled",
        "When the budget runs out on a purchase line (it buys as many as can be paid for): "
        "every later line is cancelled ('cancelled'), or later lines are still bought if "
        "they fit ('continue').",
        ("cancelled", "continue"),
    ),
    HouseRule(
        "seat_exclusivity",
        "empire",
        "Appendix A: 'a Control Centre and/or a Construction Facility, or a Depot, but not "
        "both'. 'empire': the whole empire has one of these arrangements, with at most one of "
        "each facility; 'system': the choice is made system by system.",
        ("empire", "system"),
    ),
)
