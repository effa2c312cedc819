"""The first impulse's business: reinforcements due, purchases with political points,
guerrillas to place and information warfare; and each unit's supply when combat is fought.

Supply (ours: the seed prints the shifts "Partially Out of Supply: -1/+1" and "Totally Out of
Supply: -2/+2" and no rule for them): a side's supply sources are the hexes its scenario
lists (``supply`` in its ``[[sides]]``), or else every hex of its home country.  A unit traces
a line to a source through land hexes free of enemy units and of enemy zones of control (a
hex in one is open while a friendly land unit stands in it).  A unit on a source, or within
the support radius (this turn's: `Conditions.support`) of a combat-effective logistics unit
of its side that itself traces a line, is in supply; one that traces a line but is beyond
every support radius is partially out; one that traces no line is totally out.

Readings recorded in docs/rules/millennium-wars.md: the scenario's reinforcements arrive free
on their turn at their hex, or, if an enemy holds it or it is full, at the nearest hex of
their home country that is free and not full; a replacement brings an eliminated unit back
combat effective at a hex of its home country free of enemies; prices as `politics.cost`,
with this turn's rally or protests.  Information warfare: the differential is the attacking
cybercadres' attack strength less the defence strength of the enemy's combat-effective
cybercadres; an ID result is worth an IS2 where a number is needed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from ...dice import Dice
from ...geometry.hexmap import distance
from . import charts
from .board import Board
from .combat import Conditions
from .orders import InformationAttack, Purchase
from .politics import Cost, cost, price_class, shifted
from .scenario import Scenario
from .state import SideState, State
from .units import Unit

FULL, PARTIAL, OUT = "full", "partial", "out"


def supply_sources(scenario: Scenario, side: str) -> set[str]:
    """The hexes ``side``'s units trace supply to: the scenario's list, or its home country."""
    listed = scenario.side(side).supply
    if listed:
        return set(listed)
    return {h for h, owner in scenario.countries.items() if owner == side}


def _traced(board: Board, side: str, sources: set[str]) -> set[str]:
    """Every hex from which a line of supply reaches one of ``sources``: land hexes without
    enemy units, not in an enemy zone of control unless a friendly land unit stands there."""

    def open_(h: str) -> bool:
        ground = board.terrain_of(h)
        return (
            ground.combat
            and ground.cost(False) is not None
            and not board.enemy_in(h, side)
            and (not board.in_enemy_zoc(h, side) or bool(board.land_at(h, side)))
        )

    reached = {h for h in sources if board.grid.contains(h) and open_(h)}
    frontier = sorted(reached)
    while frontier:
        here = frontier.pop()
        for n in board.grid.neighbours(here):
            if n not in reached and open_(n):
                reached.add(n)
                frontier.append(n)
    return reached


def supply_status(scenario: Scenario, board: Board, conditions: Conditions) -> dict[str, str]:
    """Each land unit's supply as the board stands: ``full``, ``partial`` or ``out`` (the
    module's docstring gives the rule)."""
    status: dict[str, str] = {}
    for side in scenario.sides:
        sources = {
            h for h in supply_sources(scenario, side.name) if not board.enemy_in(h, side.name)
        }
        traced = _traced(board, side.name, sources)
        suppliers = [
            u
            for u in board.units
            if u.side == side.name and u.kind.logistics and not u.disrupted and u.hex in traced
        ]
        for unit in board.units:
            if unit.side != side.name or unit.kind.naval or not unit.hex:
                continue
            if unit.hex in sources or any(
                distance(unit.hex, s.hex) <= conditions.support(s) for s in suppliers
            ):
                status[unit.id] = FULL
            else:
                status[unit.id] = PARTIAL if unit.hex in traced else OUT
    return status


def guerrilla_template(state: State, side: str) -> Unit | None:
    """The paramilitary unit of ``side`` on the map that new guerrillas copy (the shortest
    id, then the first): the event "may occur only if the player has paramilitary units"."""
    para = [u for u in state.units if u.side == side and u.kind.paramilitary and u.hex]
    return min(para, key=lambda u: (len(u.id), u.id)) if para else None


def home_hexes(state: State, side: str) -> list[str]:
    return sorted(h for h, owner in state.scenario.countries.items() if owner == side)


def raise_guerrillas(state: State, side: str, count: int) -> list[Unit]:
    """``count`` new paramilitary units of ``side``, copies of its template with ids of their
    own (``TEMPLATE-G1``, ..., the template's id cut to keep 12 characters), waiting for their
    owner to place them."""
    template = guerrilla_template(state, side)
    if template is None:
        return []
    taken = {u.id for u in (*state.units, *state.lost, *state.placing)}
    taken |= {due.unit.id for due in state.scenario.reinforcements}
    made: list[Unit] = []
    n = 0
    while len(made) < count:
        n += 1
        suffix = f"-G{n}"
        uid = template.id[: 12 - len(suffix)] + suffix  # ids are at most 12 characters
        if uid not in taken:
            made.append(
                replace(
                    template, id=uid, hex="", disrupted=False, ops_complete=False, reserve=False
                )
            )
    state.placing += made
    return made


def place_guerrillas(
    state: State,
    board: Board,
    side: SideState,
    purchases: Sequence[Purchase],
    seen: Collection[str] = (),
) -> list[str]:
    """Put ``side``'s waiting guerrillas on the map at the start of its first impulse: each
    at the hex its sheet names (a ``guerrilla`` line: the unit, or blank for the next one
    waiting, and a hex of its home country without an enemy unit); the rest, and any whose
    hex will not do, where the rule puts them (`_guerrilla_hexes`, near the enemy units in
    ``seen``, the ids the side sees).  What happened, to say."""
    waiting = [u for u in state.placing if u.side == side.name]
    if not waiting:
        return []
    lines: list[str] = []

    def fits(unit: Unit, h: str) -> bool:
        most = board.terrain_of(h).stacking
        return (
            state.scenario.countries.get(h) == side.name
            and board.can_enter(unit, h)
            and not board.enemy_in(h, side.name)
            and (most is None or len(board.land_at(h, side.name)) < most)
        )

    def put(unit: Unit, h: str) -> None:
        waiting.remove(unit)
        state.placing.remove(unit)
        unit.hex = h
        board.units.append(unit)
        lines.append(f"{unit.id} (guerrillas) is placed at {h}")

    for p in purchases:
        if p.kind != "guerrilla":
            continue
        unit = next((u for u in waiting if u.id.lower() == p.unit.lower()), None)
        if unit is None and not p.unit:
            unit = waiting[0] if waiting else None
        if unit is None:
            lines.append(
                f"{p.unit or 'guerrillas'}: no guerrilla of {side.name}'s waits to be placed"
            )
            continue
        if not p.hex or not fits(unit, p.hex):
            lines.append(
                f"{unit.id} cannot be placed at {p.hex or 'no hex'} (a hex of {side.name}'s "
                "country without an enemy unit): placed by the rule"
            )
            continue
        put(unit, p.hex)
    for unit in list(waiting):
        where = _guerrilla_hexes(
            board, unit, [h for h in home_hexes(state, side.name) if fits(unit, h)], seen
        )
        if not where:
            waiting.remove(unit)
            state.placing.remove(unit)
            lines.append(f"{unit.id} cannot be placed: no hex of {side.name}'s country is free")
            continue
        put(unit, where)
    return lines


def _guerrilla_hexes(board: Board, unit: Unit, free: Sequence[str], seen: Collection[str]) -> str:
    """Where the rule places a guerrilla its owner did not: the free hex of its home country
    nearest an enemy land unit its side sees (guerrillas rise against the invader; one it
    does not see must not draw them, or their hex would tell where it is), preferring a hex
    no unit of its side holds yet, then the lowest id."""
    enemies = [
        u.hex
        for u in board.units
        if u.side != unit.side and u.hex and not u.kind.naval and u.id in seen
    ]
    if not free:
        return ""

    def score(h: str) -> tuple[bool, int, str]:
        near = min((distance(h, e) for e in enemies), default=0)
        return (bool(board.land_at(h, unit.side)), near, h)

    return min(free, key=score)


def available_reinforcements(state: State, side: str) -> list[Unit]:
    """The scenario's reinforcements of ``side`` due by this turn and not yet placed."""
    return [
        due.unit
        for due in state.scenario.reinforcements
        if due.turn <= state.point.turn
        and due.unit.side == side
        and due.unit.id not in state.arrived
    ]


def place_reinforcements(
    state: State, board: Board, side: SideState, *, bought: bool = False
) -> list[str]:
    """Put the reinforcements due to ``side`` this turn on the map; what happened.  With
    ``bought`` (the house rule ``reinforcements = "bought"``) they wait to be bought instead,
    and the side is told which are available."""
    if bought:
        waiting = available_reinforcements(state, side.name)
        if not waiting:
            return []
        return ["reinforcements available to buy: " + ", ".join(u.id for u in waiting)]
    lines = []
    for unit in available_reinforcements(state, side.name):
        where = _free_hex(state, board, unit, unit.hex)
        state.arrived.append(unit.id)
        if not where:
            lines.append(f"{unit.id} cannot arrive: no free hex in {side.name}'s country")
            continue
        arrived = replace(unit, hex=where)
        state.units.append(arrived)
        lines.append(
            f"{unit.id} arrives at {where}"
            + ("" if where == unit.hex else f" ({unit.hex} is not free)")
        )
    return lines


def _free_hex(state: State, board: Board, unit: Unit, wanted: str) -> str:
    def free(h: str) -> bool:
        return (
            board.can_enter(unit, h)
            and not board.enemy_in(h, unit.side)
            and len(board.land_at(h, unit.side)) < board.limit(h)
        )

    if wanted and free(wanted):
        return wanted
    home = [h for h, owner in state.scenario.countries.items() if owner == unit.side and free(h)]
    if not home:
        return ""
    return min(home, key=lambda h: (distance(h, wanted) if wanted else 0, h))


def price(state: State, side: SideState, unit: Unit | None, *, replacement: bool) -> Cost:
    """What a purchase costs ``side`` this turn: a unit (reinforcement or replacement) by its
    class, or (``unit`` None) an Air Defense level; with this turn's rally or protests."""
    first = side.name == state.scenario.first
    rally = state.event == ("first rally" if first else "second rally")
    protests = state.event == ("first protests" if first else "second protests")
    line = "air defence" if unit is None else price_class(unit.type, unit.size)
    return cost(line, side.nato, replacement, rally=rally, protests=protests)


def buy(
    state: State,
    board: Board,
    side: SideState,
    purchases: Sequence[Purchase],
    *,
    bought_reinforcements: bool = False,
) -> list[str]:
    """Spend political points on replacements, Air Defense and (when the house rule makes
    them bought) reinforcements, in the sheet's order; a purchase that cannot be made is said
    and costs nothing."""
    lines = []
    for purchase in purchases:
        if purchase.kind == "guerrilla":  # placed free, by `place_guerrillas`
            continue
        unit, problem = bought_unit(state, side, purchase, bought_reinforcements)
        if problem:
            lines.append(problem)
            continue
        replacement = purchase.kind == "replacement"
        paid = price(state, side, unit, replacement=replacement)
        what = (
            "an Air Defense level"
            if unit is None
            else f"{unit.id} as a {'replacement' if replacement else 'reinforcement'}"
        )
        if paid.points is None:
            lines.append(f"{what} cannot be bought ({paid.line} has no price for {side.name})")
            continue
        if paid.points > side.political_points:
            lines.append(
                f"{what} costs {paid.points} political points; {side.name} has "
                f"{side.political_points}"
            )
            continue
        if unit is None:
            side.air_defence += 1
        else:
            where = _landing(state, board, side, unit, purchase, replacement)
            if not where:
                lines.append(
                    f"{unit.id} cannot come in at {purchase.hex or unit.hex or 'no hex'}: name a "
                    f"free hex of {side.name}'s country"
                )
                continue
            if replacement:
                state.lost.remove(unit)
            else:
                state.arrived.append(unit.id)
                what += f" at {where}"  # a replacement's hex is the one the player named
            state.units.append(replace(unit, hex=where, disrupted=False, ops_complete=False))
        side.political_points -= paid.points
        lines.append(f"{side.name} buys {what} for {paid.points} political points")
    return lines


def bought_unit(
    state: State, side: SideState, purchase: Purchase, bought_reinforcements: bool
) -> tuple[Unit | None, str]:
    """The unit a purchase brings in (None for Air Defense), or why it cannot be made (the
    checker asks the same of a sheet, on the player's view)."""
    wanted = purchase.unit.lower()
    if purchase.kind == "air defence":
        return None, ""
    if purchase.kind == "replacement":
        lost = next((u for u in state.lost if u.id.lower() == wanted and u.side == side.name), None)
        if lost is None:
            return None, (
                f"no replacement for {purchase.unit}: it is not one of {side.name}'s "
                "eliminated units"
            )
        return lost, ""
    if purchase.kind == "reinforcement":
        if not bought_reinforcements:
            return None, (
                f"no purchase of {purchase.unit}: reinforcements arrive free on their turn in "
                "this game (the house rule reinforcements is 'free')"
            )
        due = next(
            (u for u in available_reinforcements(state, side.name) if u.id.lower() == wanted),
            None,
        )
        if due is None:
            return None, (
                f"no reinforcement {purchase.unit}: it is not one of {side.name}'s "
                "reinforcements available this turn"
            )
        return due, ""
    return None, f"{purchase.kind!r} is not something to buy"


def _landing(
    state: State, board: Board, side: SideState, unit: Unit, purchase: Purchase, replacement: bool
) -> str:
    """Where a bought unit comes in: the hex named (a free hex of its country), else a
    reinforcement's scheduled hex or the nearest free one; a replacement needs its hex."""
    where = purchase.hex
    if where:
        if (
            state.scenario.countries.get(where) != side.name
            or not board.can_enter(unit, where)
            or board.enemy_in(where, side.name)
        ):
            return ""
        return where
    return "" if replacement else _free_hex(state, board, unit, unit.hex)


@dataclass(frozen=True)
class Told:
    """A line of information warfare and who is told it: ``OWN`` the attacking side alone,
    ``BOTH`` sides, or ``REFEREE`` alone."""

    text: str
    to: str = "own"


OWN, BOTH, REFEREE = "own", "both", "referee"


def information_warfare(
    state: State,
    board: Board,
    side: SideState,
    attacks: Sequence[InformationAttack],
    dice: Dice,
    seen: Collection[str],
) -> list[Told]:
    """The player turn's information warfare attacks (at most the scenario's number).
    ``seen``: the enemy units the side sees now, the only ones it may name to disrupt.

    Both sides are told the die, the result and what it did; the differential only the
    referee, since it is the sum of strengths of cybercadres each side may not see; what the
    attacker ordered and could not do (an attack beyond the number, cybercadres not fit, a
    target it named and did not hit), the attacker alone."""
    enemy = state.second if side is state.first else state.first
    told: list[Told] = []
    for n, attack in enumerate(attacks):
        if n >= state.scenario.iw_attacks:
            told.append(
                Told(
                    f"only {state.scenario.iw_attacks} information warfare attack(s) a "
                    "player turn; the rest are not made"
                )
            )
            break
        units = [board.unit(u) for u in attack.units]
        mine = [
            u
            for u in units
            if u is not None
            and u.side == side.name
            and u.kind.information_warfare
            and not u.disrupted
        ]
        if not mine or len(mine) != len(units):
            told.append(
                Told(
                    "an information warfare attack needs combat-effective cybercadres "
                    f"of {side.name}'s: {' '.join(attack.units)} are not"
                )
            )
            continue
        theirs = [
            u
            for u in board.units
            if u.side == enemy.name and u.kind.information_warfare and not u.disrupted
        ]
        attack_strength = sum(u.attack for u in mine)
        defence_strength = sum(u.defence for u in theirs)
        differential = attack_strength - defence_strength
        with dice.at(phase="information warfare", location=""):
            rolled = charts.information_warfare(dice, differential)
        result = rolled.result
        told.append(
            Told(
                f"{side.name}'s information warfare: {' '.join(u.id for u in mine)} (attack "
                f"{attack_strength}) against {' '.join(u.id for u in theirs) or 'no cybercadre'}"
                f" (defence {defence_strength}): differential {differential:+d}",
                REFEREE,
            )
        )
        line = f"{side.name}'s information warfare, 1D6 {rolled.total}: {result}"
        if result == "CM":
            for u in mine:
                u.disrupted = True
            line += "; the attacking cybercadres are disrupted"
        elif result == "FB":
            with dice.at(phase="information warfare", location=""):
                die = dice.d6("feedback")
            state.political_index = shifted(state.political_index, die, enemy is state.first)
            line += f"; the Index moves {die} toward {enemy.name}"
        elif result.startswith(("IS", "ID")):
            effect, kept = _superiority(
                state, board, side, enemy, attack, result, theirs, dice, seen
            )
            line += "; " + effect
            told.append(Told(line, BOTH))
            told += [Told(text) for text in kept]
            continue
        told.append(Told(line, BOTH))
    return told


def _superiority(
    state: State,
    board: Board,
    side: SideState,
    enemy: SideState,
    attack: InformationAttack,
    result: str,
    theirs: list[Unit],
    dice: Dice,
    seen: Collection[str],
) -> tuple[str, list[str]]:
    """What the side takes of an IS# or ID result: what both sides are told, and what the
    side alone is told (the targets it named that were not disrupted)."""
    number = int(result[2:]) if result.startswith("IS") else 2
    choice = attack.choice
    if choice == "c4i" and result == "ID":
        enemy.c4i = max(0, enemy.c4i - 1)
        return f"{enemy.name}'s C4I falls to {enemy.c4i}", []
    if choice == "see":
        if side.name not in state.sees_all:
            state.sees_all.append(side.name)
        return f"{side.name} sees every enemy unit for the rest of the game turn", []
    if choice == "disrupt":
        # A target the side does not see is passed over exactly as one that does not exist,
        # with the same words, so that naming a guessed id tells nothing of it.
        hit: list[str] = []
        missed: list[str] = []
        beyond: list[str] = []
        for uid in attack.targets:
            if len(hit) >= number:
                beyond.append(uid)
                continue
            unit = board.unit(uid)
            if (
                unit is not None
                and unit.side == enemy.name
                and unit.id in seen
                and not unit.disrupted
            ):
                unit.disrupted = True
                hit.append(unit.id)
            else:
                missed.append(uid)
        kept = []
        if missed:
            kept.append(
                f"not disrupted: {', '.join(missed)} (not a combat-effective enemy unit "
                f"{side.name} sees)"
            )
        if beyond:
            kept.append(f"not disrupted: {', '.join(beyond)} ({result} disrupts {number})")
        return "disrupted: " + (", ".join(hit) or "none"), kept
    if choice == "disrupt-iw":
        for u in theirs:
            u.disrupted = True
        return "the defending cybercadres are disrupted", []
    with dice.at(phase="information warfare", location=""):
        die = dice.d6("information superiority")
    state.political_index = shifted(state.political_index, die * number, side is state.first)
    return f"the Index moves {die} x {number} toward {side.name}", []


def combat_conditions(state: State, board: Board) -> Conditions:
    """What the turn brings to an attack fought now: the air, air dominance, the weather and
    every unit's supply as the board stands (`supply_status`)."""
    dominance = state.air if state.air_level.endswith("dominance") else ""
    conditions = Conditions(air=state.air, dominance=dominance, bad_weather=state.bad_weather)
    return replace(conditions, supply=supply_status(state.scenario, board, conditions))


__all__ = [
    "BOTH",
    "FULL",
    "OUT",
    "OWN",
    "PARTIAL",
    "REFEREE",
    "Told",
    "buy",
    "combat_conditions",
    "guerrilla_template",
    "information_warfare",
    "place_guerrillas",
    "place_reinforcements",
    "raise_guerrillas",
    "supply_sources",
    "supply_status",
]
