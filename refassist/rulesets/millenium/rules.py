"""House rules of Millenium: the seed's open questions, each decided by a default a fair
referee would choose, with the other reading a setting away.

Read from ``[house_rules]`` in ``game.toml`` over these defaults; ``docs/rules/millenium.md``
explains each one.  The rules modules read ``rules[key]`` after `complete`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import HouseRule, with_defaults

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "last_turn",
        20,
        "The game ends after this game turn (the seed: 20), when the conquest programme is "
        "scored.  A shorter game for an evening or a test.",
    ),
    HouseRule(
        "tables",
        "",
        "A tables file in the format of the shipped one (data/tables.toml), with the printed "
        "TAB 1-3 values a referee has; empty: the shipped tables, reconstructions marked.",
    ),
    HouseRule(
        "cards_dealt",
        "empire",
        "Who deals the identification cards to the systems at set-up: the Empire player on "
        "its set-up sheet ('empire', the seed's 'dispose ses fiches') or the tool at random "
        "('random').",
        ("empire", "random"),
    ),
    HouseRule(
        "reveal_on_pass",
        True,
        "A system's card is shown to the Extraterrestrial when one of its fleets passes "
        "through an outer sector of the system's zone (false: only where a move ends).",
    ),
    HouseRule(
        "fight_across_levels",
        False,
        "Enemy fleets in one sector fight whatever their levels (false: only on the same "
        "level, where stacking is counted too).",
    ),
    HouseRule(
        "attempt_breaks_automatic",
        True,
        "An Empire starting planet stops counting as conquered and colonised as soon as the "
        "Extraterrestrial tries to take it, by a surrender demand (an attack follows one): "
        "the seed's 'tant que le joueur extraterrestre n'essaie pas d'en prendre "
        "possession'.  It stays the Empire's and produces again once colonised.  False: only "
        "once a planet of its system is taken.",
    ),
    HouseRule(
        "colonisers_used_up",
        False,
        "A colonisation ship is used up by the colonisation it makes (false: it colonises by "
        "being in the fleet, as the seed says 'present', and stays).",
    ),
    HouseRule(
        "imperial_needs_coloniser",
        False,
        "The Extraterrestrial wins by occupying the imperial planet only with a colonisation "
        "ship in the fleet (false: occupying it wins).",
    ),
    HouseRule(
        "retaken_replaces",
        False,
        "Victory: for a programme system retaken by the Empire, the -2 (recolonised) or -1 "
        "replaces the +1 earned by colonising it (false: both count, as the seed lists them).",
    ),
    HouseRule(
        "zero_score",
        "empire",
        "A final score of exactly 0: the Empire wins, the programme not having been carried "
        "out ('empire'), or the game is drawn ('draw').",
        ("empire", "draw"),
    ),
    HouseRule(
        "double_system_targets",
        2,
        "Modifier f (-2): a ship firing both weapon systems at this many targets or more (the "
        "rules text says several, 2; TAB 2's heading says 3).",
        (2, 3),
    ),
    HouseRule(
        "battles",
        "automatic",
        "How tactical battles are fought: 'automatic', by the printed procedure from each "
        "side's standing tactical orders, every roll logged; or 'referee', on the table: the "
        "turn stops after the strategic phase and waits for a result sheet per battle (the "
        "digest's option).",
        ("automatic", "referee"),
    ),
    HouseRule(
        "points_lost_with_system",
        False,
        "Production points banked in a system are lost when the opponent takes a planet of "
        "it (false: banked points stay the side's, spent from any system as the seed allows).",
    ),
)


def complete(rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every house rule of the game, ``rules`` over the defaults (for callers from Python)."""
    return with_defaults(HOUSE_RULES, rules)


__all__ = ["HOUSE_RULES", "complete"]
