"""House rules of Fifth Millennium: every decision the rules digest marks as an option.

They are parameters of the ruleset (OpenSpiel's habit), read from ``[house_rules]`` in
``game.toml`` with these defaults, so a referee can change a reading of the rules without
touching code.  ``docs/rules/fifth-millennium.md`` explains each one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import HouseRule, with_defaults

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
        "defenders",
        "Squadrons that fought a battle this turn: a player whose squadrons arrived there is "
        "held back, one whose squadrons were there before (a defender) may send the survivors "
        "away ('defenders', 5.0 restricts arriving squadrons only), or none of them may depart "
        "the same turn ('none').",
        ("defenders", "none"),
    ),
    HouseRule(
        "production_at_captured_world",
        "lost",
        "A purchase at a world captured from the player this turn: 'the production points are "
        "lost to the defeated player' (6.2, 'lost': its cost is spent for nothing), or the line "
        "is cancelled and the points stay ('refunded').",
        ("lost", "refunded"),
    ),
    HouseRule(
        "kkm_targets",
        "all-facilities",
        "KKM kills 'are applied initially against facilities': every facility at the system, "
        "Orbital Production Centres and Genetics Labs first, then spacedocks, Control Centres, "
        "Construction Facilities and Depots (minefields are swept, not struck), then "
        "squadrons ('all-facilities'), "
        "or only the Orbital Production Centres and Genetics Labs before squadrons "
        "('labs-and-opcs').",
        ("all-facilities", "labs-and-opcs"),
    ),
    HouseRule(
        "swept_minefield",
        "straight-to-battle",
        "Step 0b: minesweepers reduce a minefield below zero: 'go immediately to Step 1', so the "
        "intruder's KKMs do not fire ('straight-to-battle'), or the KKMs still fire before the "
        "battle ('kkm-fire').",
        ("straight-to-battle", "kkm-fire"),
    ),
    HouseRule(
        "battles_start",
        "on-arrival",
        "When battles happen (5.0: combat occurs 'if a fleet emerges in a system where native "
        "forces ... exist'): only where squadrons arrived this turn, between the arrivals and "
        "those they meet ('on-arrival'), or also wherever players no longer at peace stand "
        "together, after a treaty ends ('standing-together').",
        ("on-arrival", "standing-together"),
    ),
    HouseRule(
        "treaty_sides",
        "signatories",
        "Who fights together (5.0: no battle 'if there is already a treaty or agreement in "
        "place between the players'): a treaty or trade agreement binds the two players who "
        "made it, and a player at peace with someone on the other side stays out of that "
        "battle ('signatories'), or partners of partners fight on one side ('chains').",
        ("signatories", "chains"),
    ),
    HouseRule(
        "minefield_targets",
        "all-but-owner",
        "App. B: 'A minefield will attack all squadrons entering a system bar the producing "
        "players'': treaty and trade partners' arriving squadrons too ('all-but-owner'), or "
        "only intruders fighting its owner ('enemies').",
        ("all-but-owner", "enemies"),
    ),
    HouseRule(
        "minefield_wear",
        "squadron-hits",
        "What uses up a minefield point: App. B 'each hit on a squadron reduces the "
        "minefield's effectiveness by one point', so a kill left with no squadron to strike "
        "costs nothing ('squadron-hits'), or 5.0 step 0e 'each kill achieved reduces the "
        "minefield by a point', every roll of 4-6 whether it strikes or not ('every-kill').",
        ("squadron-hits", "every-kill"),
    ),
    HouseRule(
        "unowned_naval_base",
        "defends-after-first",
        "5.1: 'you do not need to defeat the defensive forces of a naval base if you are the "
        "first player to occupy the system': the naval base of an abandoned or independent "
        "system defends it against arrivals ('defends-after-first'), or an unowned base never "
        "fights ('never-fights').",
        ("defends-after-first", "never-fights"),
    ),
    HouseRule(
        "station_loss",
        "squadrons-stay",
        "App. B: a refueling station whose charge cannot be paid 'is considered lost': the "
        "squadrons waiting there stay in the empty hex and may depart ('squadrons-stay'), or "
        "are lost with it, having no fuel ('squadrons-lost').",
        ("squadrons-stay", "squadrons-lost"),
    ),
    HouseRule(
        "fusion_bombing",
        "ordered",
        "App. B: a fleet with SFBA levels 'can bomb': only where its player wrote 'fusion bomb' "
        "and the hex on that turn's sheet ('ordered'), or whenever the intruders carry levels "
        "and their CV is high enough ('automatic').",
        ("ordered", "automatic"),
    ),
    HouseRule(
        "probe_build_site",
        "any-system",
        "Where probe swarms are built: at any system the player owns, as munitions are "
        "('any-system': 6.2 limits 'FTL squadrons' to class A worlds, and a probe is no "
        "squadron), or only where squadrons are built ('shipyard').",
        ("any-system", "shipyard"),
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
        "war_forfeit",
        "production",
        "6.31a: the victim of a declaration of war gains its trade of the turn, 'taken directly "
        "from the agressor's production total': from the aggressor's income of the turn only, "
        "not its stockpile, so the victim gains at most that income ('production'), or from "
        "all the aggressor has that turn, stockpile, income and other trade ('whole-budget').",
        ("production", "whole-budget"),
    ),
    HouseRule(
        "seat_exclusivity",
        "empire",
        "Appendix A: 'a Control Centre and/or a Construction Facility, or a Depot, but not "
        "both'. 'empire': the whole empire has one of these arrangements, with at most one of "
        "each facility; 'system': the choice is made system by system.",
        ("empire", "system"),
    ),
    HouseRule(
        "last_year",
        0,
        "The last year of the game: 0 plays on until one empire owns more than half the systems "
        "or is the last left (the rules); a year such as 5030 ends the game after that year's "
        "turn, won by the empire owning the most systems (several with as many share it).",
    ),
)


def complete(rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every house rule of Fifth Millennium, ``rules`` over the defaults above
    (`with_defaults`)."""
    return with_defaults(HOUSE_RULES, rules)
