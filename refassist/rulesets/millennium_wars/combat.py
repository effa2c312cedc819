"""One attack, from its declaration to the last retreat: strengths, shifts, the die, the
result, and what it does to both sides' units.

Readings of the seed recorded in docs/rules/millennium-wars.md:

* A hex's terrain and its city or town give the defender one shift, the stronger of the two
  (a town on a desert hex defends at -1, not 0).  A river helps the defender (-2) only when
  every attacking unit attacks across one.  A Raid whose attack strength is at least half
  non-mechanized gives the defender neither.
* Supply: the worst status among the attacking units counts against the attacker (partially
  out -1, totally out -2), the worst among the defenders for the attacker (+1, +2).
* Naval support: a naval task force of the side next to the defending hex.
* Intensive assault (+2) disrupts a combat-effective headquarters of the attacker whose
  support radius reaches the defending hex; without one it cannot be declared.
* Political points: one shift per point, at most one point per unit involved on that side.
* A1/D1/B1 "choice": the player's named unit if it is one of those involved; otherwise a
  combat-effective unit is disrupted (the weakest), else a disrupted one eliminated.
* Retreats follow the owner's path if it is legal step by step; otherwise each step goes to
  the adjacent hex farthest from the enemy, preferring hexes outside enemy zones of control
  and in the unit's home country.  A step into an enemy-occupied hex or terrain the unit may
  not enter (or no step at all) eliminates it; each step that ends in an enemy zone of control
  disrupts a combat-effective unit and eliminates a disrupted one.
* An advance after combat goes into the hex the enemy left (for the defenders: the hex of the
  first attacking unit that left or died there), for the units the player named, as long as
  the hex is empty of enemies, enterable and not overstacked by the advance.

What an attack did is a list of `Line`s, each knowing whose unit it places where: the
resolution tells the enemy of that unit a line only while it sees those hexes, and its veiled
form otherwise (``S-3 retreats`` for ``S-3 retreats to 1006``), so that a combat never tells
the attacker where a defender went out of its sight, nor the defender where the attacker did.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field

from ...dice import Dice
from ...hexmap import distance
from .board import Board
from .crt import CRT, Odds, Shift, odds
from .units import Unit

PLACE_SHIFT = {"city": -2, "town": -1, "facility": 0}
SUPPLY_SHIFT = {"full": 0, "partial": 1, "out": 2}
#: The shifts political points buy (one a point, at most one a unit involved); the resolution
#: takes what they used from each side's points.
POINTS_SHIFT = "political points"
DEFENDER_POINTS_SHIFT = "defender's political points"


@dataclass
class Attack:
    """An attack as declared on the phasing player's sheet."""

    attackers: list[str]
    hex: str
    crt: str  # raid, assault, air-land
    political_points: int = 0
    intensive: bool = False
    #: Retreat paths the attacker asks for its units, and the units that advance if allowed
    #: (``*``: every unit that may).
    retreat: dict[str, list[str]] = field(default_factory=dict)
    advance: list[str] = field(default_factory=list)
    ambush: str = ""  # the unit the attacker chooses on A1 or B1
    cell: str = ""


@dataclass
class Defence:
    """The defender's standing preferences for an attack on its units."""

    retreat: dict[str, list[str]] = field(default_factory=dict)
    advance: list[str] = field(default_factory=list)
    ambush: str = ""  # the unit the defender chooses on D1
    political_points: int = 0


@dataclass
class Conditions:
    """What the turn brings to every attack: who holds the air, each unit's supply."""

    air: str = ""  # the side with air superiority or dominance ("": parity)
    supply: Mapping[str, str] = field(default_factory=dict)  # unit id -> full/partial/out


@dataclass(frozen=True)
class Line:
    """One line of what an attack did, and who may read it.  A line that places ``side``'s
    unit in ``hexes`` is that side's to read whole; its enemy reads it only while it sees every
    one of those hexes, and reads ``veiled`` otherwise ("": nothing), because where a unit
    went out of the enemy's sight is the unit's secret.  A line with a ``side`` and no hexes is
    that side's alone (political points it asked and did not have).  A line with no ``side``
    (the odds, the die, a unit disrupted where both sides see it) is everyone's."""

    text: str
    side: str = ""
    hexes: tuple[str, ...] = ()
    veiled: str = ""

    def read_by(self, reader: str, seen: Container[str]) -> str:
        """The line as side ``reader`` may read it, seeing into ``seen`` ("": not at all)."""
        if not self.side or reader == self.side:
            return self.text
        if self.hexes and all(h in seen for h in self.hexes):
            return self.text
        return self.veiled


@dataclass
class Outcome:
    odds: Odds
    crt: str
    reconstructed: bool  # the row used is our reconstruction, not the printed table
    die: int
    result: str
    told: list[Line] = field(default_factory=list)
    eliminated: list[Unit] = field(default_factory=list)
    #: Political Index points gained, by side (the Political Point Table).
    political: dict[str, int] = field(default_factory=dict)

    @property
    def lines(self) -> list[str]:
        """Every line whole, as the referee reads them."""
        return [line.text for line in self.told]


class CombatError(ValueError):
    """An attack that cannot be made as declared (the checker says it on the sheet)."""


def defenders(board: Board, attack: Attack, side: str) -> list[Unit]:
    return [u for u in board.land_at(attack.hex) if u.side != side]


def check_attack(
    board: Board, attack: Attack, side: str, crts: Mapping[str, CRT], *, disrupted_attack: bool
) -> list[Unit]:
    """The attacking units, or `CombatError` saying why the attack cannot be made."""
    if attack.crt not in crts:
        raise CombatError(f"{attack.crt!r} is not a CRT (raid, assault or air-land)")
    if not board.grid.contains(attack.hex) or not board.terrain_of(attack.hex).combat:
        raise CombatError(f"no combat is possible in {attack.hex}")
    if not defenders(board, attack, side):
        raise CombatError(f"there is no enemy land unit in {attack.hex} to attack")
    units = []
    for uid in attack.attackers:
        unit = board.unit(uid)
        if unit is None or unit.side != side:
            raise CombatError(f"{uid} is not one of your units on the map")
        if unit.kind.naval or unit.hex not in board.grid.neighbours(attack.hex):
            raise CombatError(f"{uid} is not a land unit next to {attack.hex}")
        if unit.disrupted and not disrupted_attack:
            raise CombatError(f"{uid} is disrupted and cannot attack")
        if unit.ops_complete:
            raise CombatError(f"{uid} is Ops Complete: it moved or fought in an earlier impulse")
        if unit in units:
            raise CombatError(f"{uid} is named twice")
        units.append(unit)
    if not units:
        raise CombatError("the attack names no attacking unit")
    if attack.crt == "air-land":
        high = sum(u.attack for u in units if u.kind.high_tech)
        if 2 * high < sum(u.attack for u in units):
            raise CombatError(
                "an Air-Land Battle needs at least half the attack strength High-Tech"
            )
    if attack.political_points > len(units):
        raise CombatError("at most one political point a unit involved")
    if attack.intensive and _headquarters(board, attack, side) is None:
        raise CombatError(
            "an intensive assault needs a combat-effective headquarters whose support "
            f"radius reaches {attack.hex}"
        )
    return units


def _headquarters(board: Board, attack: Attack, side: str) -> Unit | None:
    return next(
        (
            u
            for u in board.units
            if u.side == side
            and u.kind.logistics
            and not u.disrupted
            and u.hex
            and distance(u.hex, attack.hex) <= u.support
        ),
        None,
    )


def _naval_support(board: Board, hex_: str, side: str) -> bool:
    return any(
        u.side == side and u.kind.naval for n in board.grid.neighbours(hex_) for u in board.at(n)
    )


def shifts(
    board: Board,
    attack: Attack,
    attackers: Sequence[Unit],
    held: Sequence[Unit],
    side: str,
    conditions: Conditions,
    defence: Defence,
) -> list[Shift]:
    """Every column shift of the attack, in the order the seed lists them."""
    out: list[Shift] = []
    strength = sum(u.attack for u in attackers)
    foot = sum(u.attack for u in attackers if not u.mechanized)
    raid_on_foot = attack.crt == "raid" and 2 * foot >= strength
    if not raid_on_foot:
        ground = board.terrain_of(attack.hex)
        place = board.places.get(attack.hex, "")
        best = min(ground.shift, PLACE_SHIFT.get(place, 0)) if place else ground.shift
        if best:
            out.append(Shift(best, place if place and best == PLACE_SHIFT[place] else ground.name))
        if all(board.river_between(u.hex, attack.hex) for u in attackers):
            out.append(Shift(-2, "river"))
    worst_att = max(SUPPLY_SHIFT[conditions.supply.get(u.id, "full")] for u in attackers)
    worst_def = max(SUPPLY_SHIFT[conditions.supply.get(u.id, "full")] for u in held)
    if worst_att:
        out.append(Shift(-worst_att, "attacker out of supply"))
    if worst_def:
        out.append(Shift(worst_def, "defender out of supply"))
    enemy = held[0].side
    if conditions.air == side:
        out.append(Shift(1, "air superiority"))
    elif conditions.air == enemy:
        out.append(Shift(-1, "enemy air superiority"))
    if len({u.nato for u in attackers}) == 2:
        out.append(Shift(-1, "NATO and non-NATO attacking together"))
    if _naval_support(board, attack.hex, side):
        out.append(Shift(1, "naval support"))
    if _naval_support(board, attack.hex, enemy):
        out.append(Shift(-1, "naval support of the defence"))
    if attack.intensive:
        out.append(Shift(2, "intensive assault"))
    if attack.political_points:
        out.append(Shift(attack.political_points, POINTS_SHIFT))
    if defence.political_points:
        out.append(Shift(-min(defence.political_points, len(held)), DEFENDER_POINTS_SHIFT))
    return out


def resolve_attack(
    board: Board,
    attack: Attack,
    side: str,
    crts: Mapping[str, CRT],
    dice: Dice,
    conditions: Conditions | None = None,
    defence: Defence | None = None,
    *,
    limits_after_shifts: bool = True,
    disrupted_attack: bool = False,
    home: Mapping[str, str] | None = None,
) -> Outcome:
    """Resolve one attack on ``board`` (changed in place).  ``home``: hex -> the side whose
    home country it is, for the default retreat direction."""
    conditions = conditions or Conditions()
    defence = defence or Defence()
    attackers = check_attack(board, attack, side, crts, disrupted_attack=disrupted_attack)
    held = defenders(board, attack, side)
    enemy = held[0].side
    crt = crts[attack.crt]
    found = odds(
        sum(u.attack for u in attackers),
        sum(u.defence for u in held),
        shifts(board, attack, attackers, held, side, conditions, defence),
        limits_after_shifts=limits_after_shifts,
    )
    die = dice.d6(f"{crt.name} CRT, attack on {attack.hex}")
    result = crt.result(found.column, die)
    out = Outcome(found, crt.name, die in crt.reconstructed, die, result)
    say = out.told.append
    say(
        Line(
            f"{side} attacks {attack.hex} ({crt.name}): {found.describe()}; die {die}: {result}"
            + (" (reconstructed row)" if out.reconstructed else "")
        )
    )
    place = board.places.get(attack.hex, "")
    if place in ("city", "town"):
        out.political[enemy] = out.political.get(enemy, 0) + (2 if attack.crt == "assault" else 1)
    if attack.intensive:
        hq = _headquarters(board, attack, side)
        assert hq is not None
        hq.disrupted = True
        # The headquarters may stand out of the defender's sight: its id and place are ours.
        say(
            Line(
                f"{hq.id} is disrupted by the intensive assault",
                side,
                (hq.hex,),
                "an attacking headquarters is disrupted by the intensive assault",
            )
        )
    home = home or {}
    where_attackers = [u.hex for u in attackers]

    def hurt_all(units: Sequence[Unit]) -> None:
        for u in list(units):
            if u.disrupted:
                eliminate(u)
            else:
                u.disrupted = True
                say(Line(f"{u.id} is disrupted"))  # in the fight, where both sides see it

    def hurt_one(units: Sequence[Unit], choice: str) -> None:
        alive = [u for u in units if u in board.units]
        if not alive:
            return
        chosen = next((u for u in alive if u.id == choice), None)
        if chosen is None:
            fresh = sorted((u for u in alive if not u.disrupted), key=lambda u: (u.attack, u.id))
            chosen = fresh[0] if fresh else sorted(alive, key=lambda u: (u.attack, u.id))[0]
        hurt_all([chosen])

    def eliminate(u: Unit) -> None:
        board.units.remove(u)
        out.eliminated.append(u)
        say(Line(f"{u.id} is eliminated"))  # the Political Index tells it to both anyway
        winner = enemy if u.side == side else side
        out.political[winner] = out.political.get(winner, 0) + (2 if u.nato else 1)

    def retreat(units: Sequence[Unit], hexes: int, asked: Mapping[str, list[str]]) -> None:
        for u in [u for u in units if u in board.units]:
            _retreat(board, u, hexes, asked.get(u.id, []), home, out, eliminate)

    def advance(units: Sequence[Unit], into: str, named: Sequence[str]) -> None:
        for u in units:
            if ("*" not in named and u.id not in named) or u not in board.units:
                continue
            if board.enemy_in(into, u.side) or not board.can_enter(u, into):
                continue
            if len(board.land_at(into, u.side)) + 1 > board.limit(into):
                continue
            u.hex = into
            say(Line(f"{u.id} advances into {into}", u.side, (into,)))

    if result == "AE":
        for u in list(attackers):
            eliminate(u)
        advance(held, where_attackers[0], defence.advance)
    elif result in ("AD", "AR"):
        if result == "AD":
            hurt_all(attackers)
        retreat(attackers, 2 if result == "AD" else 1, attack.retreat)
        left = next((h for h in where_attackers if not board.land_at(h, side)), "")
        if left:
            advance(held, left, defence.advance)
    elif result == "A1":
        hurt_one(attackers, attack.ambush)
    elif result == "D1":
        hurt_one(held, defence.ambush)
    elif result == "B1":
        hurt_all(held)
        hurt_one(attackers, attack.ambush)
    elif result == "BB":
        hurt_all(held)
        hurt_all(attackers)
    elif result in ("DR", "DD", "DE"):
        if result == "DE":
            for u in list(held):
                eliminate(u)
        else:
            if result == "DD":
                hurt_all(held)
            retreat(held, 2 if result == "DD" else 1, defence.retreat)
        if not board.land_at(attack.hex, enemy):
            advance(attackers, attack.hex, attack.advance)
    return out


def _retreat(
    board: Board,
    unit: Unit,
    hexes: int,
    asked: Sequence[str],
    home: Mapping[str, str],
    out: Outcome,
    kill: Callable[[Unit], None],
) -> None:
    """Move ``unit`` ``hexes`` hexes away, by the owner's path if it is legal step by step."""
    say = out.told.append
    here = unit.hex
    path = list(asked[:hexes]) if len(asked) >= hexes else []
    at = here
    for h in path:
        if h not in board.grid.neighbours(at) or h == here:
            path = []
            break
        at = h
    enemies = [u.hex for u in board.units if u.side != unit.side and u.hex]

    def score(n: str) -> tuple[bool, int, bool]:
        """Outside enemy zones of control first, then farthest from the enemy, then home."""
        far = min((distance(n, e) for e in enemies), default=0)
        return (not board.in_enemy_zoc(n, unit.side), far, home.get(n) == unit.side)

    at, passed = here, [here]
    for k in range(hexes):
        if path:
            nxt = path[k]
        else:
            options = [
                n
                for n in board.grid.neighbours(at)
                if n not in passed and board.can_enter(unit, n) and not board.enemy_in(n, unit.side)
            ]
            if not options:
                say(
                    Line(
                        f"{unit.id} has nowhere to retreat from {at}",
                        unit.side,
                        (at,),
                        f"{unit.id} has nowhere to retreat",
                    )
                )
                kill(unit)
                return
            best = max(score(n) for n in options)
            nxt = min(n for n in options if score(n) == best)
        if board.enemy_in(nxt, unit.side) or not board.can_enter(unit, nxt):
            say(
                Line(
                    f"{unit.id} cannot retreat into {nxt}",
                    unit.side,
                    (nxt,),
                    f"{unit.id} cannot retreat",
                )
            )
            kill(unit)
            return
        passed.append(nxt)
        at = unit.hex = nxt
        if board.in_enemy_zoc(nxt, unit.side):
            if unit.disrupted:
                say(
                    Line(
                        f"{unit.id} retreats through an enemy zone of control at {nxt}",
                        unit.side,
                        (nxt,),
                        f"{unit.id} retreats through an enemy zone of control",
                    )
                )
                kill(unit)
                return
            unit.disrupted = True
            say(
                Line(
                    f"{unit.id} is disrupted retreating through {nxt}",
                    unit.side,
                    (nxt,),
                    f"{unit.id} is disrupted retreating through an enemy zone of control",
                )
            )
    say(Line(f"{unit.id} retreats to {unit.hex}", unit.side, (unit.hex,), f"{unit.id} retreats"))


def overstacking(board: Board, hexes: Sequence[str]) -> list[Line]:
    """At the end of the combat phase: every side overstacked in a hex has all its units there
    disrupted (disrupted ones stay disrupted).  Returns what happened, each line the stack
    owner's, told to its enemy only where it sees the hex (nothing otherwise: a stack out of
    sight is not even there for it)."""
    lines = []
    for hex_ in sorted(set(hexes)):
        for side in sorted({u.side for u in board.land_at(hex_)}):
            if board.overstacked(hex_, side):
                for u in board.land_at(hex_, side):
                    u.disrupted = True
                lines.append(
                    Line(f"{side}'s units in {hex_} are overstacked and disrupted", side, (hex_,))
                )
    return lines


__all__ = [
    "DEFENDER_POINTS_SHIFT",
    "POINTS_SHIFT",
    "Attack",
    "CombatError",
    "Conditions",
    "Defence",
    "Line",
    "Outcome",
    "check_attack",
    "overstacking",
    "resolve_attack",
    "shifts",
]
