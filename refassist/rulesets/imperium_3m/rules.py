"""House rules of Imperium 3rd Millennium: the digest's options and our own readings.

Read from ``[house_rules]`` in ``game.toml`` with these defaults;
``docs/rules/imperium-3rd-millennium.md`` explains each one and why the default was chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import HouseRule, with_defaults

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "imperial_bb_maintenance",
        4,
        "Maintenance number of the Imperial BB, which the unit list leaves blank (the Terran "
        "BB's 4).",
    ),
    HouseRule("tr_capacity", 1, "Units (troops, PD, outposts) one transport (TR) carries."),
    HouseRule("at_capacity", 1, "Units one attack transport (AT) carries."),
    HouseRule(
        "catastrophic_explosions",
        True,
        "Hits of three times a ship's defence destroy it outright; false keeps only the "
        "damage thresholds.",
    ),
    HouseRule(
        "campaign",
        True,
        "Play a campaign of wars with inter-war peace; false ends the game after one war.",
    ),
    HouseRule(
        "starting_resources",
        -1,
        "Resources each side starts with; -1 takes the scenario file's figures.",
    ),
    HouseRule(
        "retreat",
        "came-from",
        "Where the loser of a space battle retreats: the system it came from if it moved in, "
        "else towards its home world ('came-from'), or always towards its home world ('home').",
        ("came-from", "home"),
    ),
    HouseRule(
        "enemy_fleet_contents",
        "hidden",
        "What a side sees of an enemy fleet in a system it sees: only that it is there, its "
        "ships and cargo being revealed by a space battle or a successful stealth scout "
        "('hidden': the scout's reward is that 'the enemy player must reveal the contents of "
        "any fleet'), or every counter of the stack, as at an open table ('shown').",
        ("hidden", "shown"),
    ),
    HouseRule(
        "public_markers",
        True,
        "World and Outpost markers (owner, disputed) are public, as on the board game's map; "
        "false shows a side only the markers in systems it sees.",
    ),
    HouseRule(
        "unmaintained_damaged_destroyed",
        False,
        "A ship already damaged that fails its maintenance roll (or a reduced troop or PD "
        "that fails its upkeep roll) is destroyed; false leaves it damaged, as the seed says "
        "only 'damaged'.",
    ),
    HouseRule(
        "troops_capture_at_once",
        False,
        "Troops landing on a planet whose defenders are only fighters and PD take it at once, "
        "those units lost with it; false keeps it disputed until they are destroyed, as only "
        "troops eliminate troops and fighters and PD fight on (the seed).",
    ),
    HouseRule(
        "damaged_ground_fire",
        "full",
        "How a damaged (reduced) fighter or PD fires at ships and troops from a planet: at "
        "'full' factors (the unit list prints no reduced side, and the seed reduces only the "
        "speed of damaged ships) or at 'half', rounded up.",
        choices=("full", "half"),
    ),
    HouseRule(
        "mandate_mark",
        "arrival",
        "What the glory index must beat at the end of each turn after the Mandated Offensive "
        "forces arrive for them to stay: the index at their 'arrival' (so a quiet turn after a "
        "rise keeps them), or the index at the end of the previous turn ('each-turn': glory "
        "must rise every turn).",
        choices=("arrival", "each-turn"),
    ),
    HouseRule(
        "enemy_planets_stop",
        True,
        "A fleet entering a system with an enemy World or Outpost must end its move there, "
        "as the seed lets a fleet move on only past enemy scouts, fighters and auxiliaries "
        "(undetected stealth scouts still go on); false lets it pass through, since a planet "
        "cannot fight in space.",
    ),
)


def complete(rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every house rule of Imperium, ``rules`` over the defaults above (`with_defaults`)."""
    return with_defaults(HOUSE_RULES, rules)
