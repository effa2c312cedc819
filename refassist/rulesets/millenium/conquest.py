"""Conquest of planets (rule VII B): cards shown, surrender demands on TAB 2, occupation and
landing, colonisation, and the loyalty a planet keeps after it changes hands.

A planet changes hands here only; the battles (`tactical`) and the strategic phase both call
`take_planet`, so the loyalty rules, the Empire's starting planets and the imperial planet are
decided in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...dice import Dice
from ...text.i18n import Said, said, said_plural
from ...text.words import N_
from .charts import Tables
from .geometry import Position, StrategicMap
from .names import SIDE_LABELS
from .state import ALIEN, EMPIRE, Fleet, Planet, State

#: Loyalties that always refuse a surrender demand (rule VII B 3).
ALWAYS_REFUSE = 4


def fleet_points(tables: Tables, fleets: Iterable[Fleet]) -> int:
    """The ship points of the fleets making a demand (TAB 2's values, damaged ships too)."""
    return sum(tables.ships[s.kind].value for f in fleets for s in f.ships)


@dataclass(frozen=True)
class Demand:
    """A surrender demand as it was decided: ``why`` says how, for the reports."""

    planet: str
    points: int
    loyalty: int
    surrendered: bool
    why: str
    column: str = ""
    die: int | None = None


def surrender_demand(
    tables: Tables,
    planet: Planet,
    points: int,
    dice: Dice,
    *,
    backed: bool,
) -> Demand:
    """Demand ``planet``'s surrender with ``points`` of ships (rule VII B): loyalty 0 is
    occupied without a demand, 1-3 roll on TAB 2 (the ratio rounded in the defender's
    favour), 4-6 always refuse, and a planet with a friendly fleet in its sector always
    refuses (``backed``).  The die is rolled only when TAB 2 decides."""
    loyalty = planet.loyalty
    if backed:
        return Demand(planet.name, points, loyalty, False, said("a fleet of its side defends it"))
    if loyalty <= 0:
        return Demand(planet.name, points, loyalty, True, said("loyalty 0: occupied"))
    if loyalty >= ALWAYS_REFUSE:
        return Demand(
            planet.name,
            points,
            loyalty,
            False,
            said("loyalty {loyalty} always refuses", loyalty=loyalty),
        )
    column = tables.surrender_column(points, loyalty)
    label = tables.surrender_labels[column] if column is not None else "-"
    if column is None:
        return Demand(planet.name, points, loyalty, False, said("below the table"), label)
    die = dice.d6(f"surrender demand on {planet.name} (TAB 2, {points}:{loyalty})")
    surrendered = tables.surrenders(column, die)
    why = said("surrenders (orange dot)") if surrendered else said("refuses (blue dot)")
    return Demand(planet.name, points, loyalty, surrendered, why, label, die)


def cards_shown(
    game_map: StrategicMap,
    crossed: Sequence[Position],
    rules: Mapping[str, Any],
) -> list[str]:
    """Systems whose card an Extraterrestrial fleet sees on this move: those of the zones it
    stood in, in an outer sector or at the planets (every sector it passed through under
    ``reveal_on_pass``, else only where it ended)."""
    places = list(crossed) if rules["reveal_on_pass"] else list(crossed[-1:])
    seen: list[str] = []
    for pos in places:
        system = game_map.system_in(pos.zone)
        if system is not None and system.letter not in seen:
            seen.append(system.letter)
    return seen


def backed(state: State, planet: Planet, rules: Mapping[str, Any]) -> bool:
    """Whether a fleet of the planet's holder stands in its system's inner sector (on the
    system's level, unless fights cross levels)."""
    if not planet.holder:
        return False
    where = state.map.systems[planet.system].position
    return any(
        f.on_map
        and f.side == planet.holder
        and f.position is not None
        and f.position.zone == where.zone
        and f.position.sector == "C"
        and (rules["fight_across_levels"] or f.position.level == where.level)
        for f in state.fleets
    )


def take_planet(
    state: State,
    planet: Planet,
    side: str,
    *,
    colonise: bool,
    bases_left: int,
) -> list[Said]:
    """``side`` takes ``planet`` (by occupation, surrender or battle) and what follows by the
    rules, in words for the reports:

    - its loyalty to the new holder is the bases left (rule VII B; a surrender leaves them
      all); an Empire retaking a planet whose card loyalty is 4 or more gets it back at 4 when
      fewer than 4 bases are left, else at its card's loyalty;
    - colonised only with a colonisation ship in the fleet;
    - an Extraterrestrial conquest ends the Empire's automatic hold on the other planets of
      the system: they stay the Empire's but produce only once colonised again (rule IX).
    """
    notes: list[Said] = []
    previous = planet.holder
    card = state.systems[planet.system].loyalty
    planet.holder = side
    planet.colonised = side if colonise else ""
    planet.automatic = False
    if side == EMPIRE and previous == ALIEN:
        planet.retaken = True
        planet.loyalty = 4 if card >= 4 and bases_left < 4 else card
        if card >= 4 and bases_left < 4:
            notes.append(
                said_plural(
                    "{planet} returns to the Empire at loyalty 4 ({n} base left)",
                    "{planet} returns to the Empire at loyalty 4 ({n} bases left)",
                    bases_left,
                    planet=planet.name,
                )
            )
    elif side == EMPIRE:
        planet.loyalty = card
    else:
        planet.loyalty = max(0, bases_left)
    planet.bases = planet.loyalty
    taken = (
        N_("{planet} taken by {side} and colonised; loyalty {loyalty}")
        if colonise
        else N_("{planet} taken by {side} (not colonised: no colony ship); loyalty {loyalty}")
    )
    notes.append(
        said(taken, planet=planet.name, side=said(SIDE_LABELS[side]), loyalty=planet.loyalty)
    )
    if side == ALIEN:
        for other_planet in state.systems[planet.system].planets:
            if other_planet is not planet and other_planet.automatic:
                other_planet.automatic = False
                other_planet.colonised = ""
                notes.append(
                    said(
                        "{planet} stays the Empire's but no longer produces until colonised again",
                        planet=other_planet.name,
                    )
                )
    return notes


def colonise(planet: Planet, side: str) -> bool:
    """A landing with a colonisation ship on a planet ``side`` holds but has not colonised
    (a conquest made without one, or an Empire planet whose system lost its automatic hold);
    True if it colonised it."""
    if planet.holder != side or planet.colonised == side:
        return False
    planet.colonised = side
    return True


def imperial_taken(
    state: State, planet: Planet, fleet_has_coloniser: bool, rules: Mapping[str, Any]
) -> bool:
    """Whether the Extraterrestrial's taking ``planet`` wins the game at once (rule X)."""
    if planet.name != state.imperial or planet.holder != ALIEN:
        return False
    return fleet_has_coloniser or not rules["imperial_needs_coloniser"]
