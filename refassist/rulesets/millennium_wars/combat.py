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
* Political points (the seed's "One per Unit (Optional): +1/-1"): one column for a side that
  asks, costing one point a unit of its own taking part; the house rule ``political_shift``
  keeps our former reading (a column a point) or turns it off.
* Support radius: cut to one in bad weather and for the enemy of air dominance
  (`Conditions.support`).
* A1/D1/B1 "choice": the player's named unit if it is one of those involved; otherwise a
  combat-effective unit is disrupted (the weakest), else a disrupted one eliminated.
* Retreats follow the owner's path if it works (adjacent hexes, free of enemy units and of
  terrain the unit may not enter); otherwise the best legal retreat (`best_retreat`).  Only a
  unit with no legal retreat is eliminated.  Each hex of the way in an enemy zone of control
  disrupts a combat-effective unit and eliminates a disrupted one.  Airmobile units retreat
  over prohibited terrain, enemy units and zones of control at no penalty (not in bad weather
  nor under enemy air dominance, when they may not move by air).
* An advance after combat goes into the hex the enemy left (for the defenders: the hex of the
  first attacking unit that left or died there), for the units the player named, as long as
  the hex is empty of enemies and enterable (a glacier holds one land unit).  Overstacking is
  checked only where retreats end, at the end of the combat phase, as the seed says.

What an attack did is a list of `Line`s, each knowing whose unit it places where: the
resolution tells the enemy of that unit a line only while it sees those hexes, and its veiled
form otherwise (``S-3 retreats`` for ``S-3 retreats to 1006``), so that a combat never tells
the attacker where a defender went out of its sight, nor the defender where the attacker did.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ...dice import Dice
from ...geometry.hexmap import distance
from ...text.words import counted
from .board import Board
from .crt import CRT, Odds, Shift, odds
from .politics import points_text
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
    """What the turn brings to every attack: who holds the air (and whether as dominance),
    the weather, each unit's supply."""

    air: str = ""  # the side with air superiority or dominance ("": parity)
    supply: Mapping[str, str] = field(default_factory=dict)  # unit id -> full/partial/out
    dominance: str = ""  # the side with air dominance ("": none)
    bad_weather: bool = False

    def support(self, unit: Unit) -> int:
        """``unit``'s support radius this turn: the seed cuts it to one in bad weather
        ("reduce all Support Radiuses to one") and for the enemy of the side holding air
        dominance ("All enemy Logistics Units ... have their Support Radius reduced to
        one"); a radius of 0 stays 0."""
        if self.bad_weather or (self.dominance and self.dominance != unit.side):
            return min(unit.support, 1)
        return unit.support

    def airmobile(self, side: str) -> bool:
        """Whether ``side``'s airmobile units may move by air: not in bad weather ("No
        Airmobile Movement") nor under the enemy's air dominance ("The enemy may not conduct
        any kind of Airmobile movement").  Our reading: a retreat through enemy units and
        prohibited terrain is airmobile movement, so it goes too."""
        return not self.bad_weather and self.dominance in ("", side)


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
    #: The hexes where a retreat ended: the only hexes the seed checks for overstacking.
    retreat_ends: list[str] = field(default_factory=list)
    #: Political points each side spent on a shift of this attack.
    spent: dict[str, int] = field(default_factory=dict)

    @property
    def lines(self) -> list[str]:
        """Every line whole, as the referee reads them."""
        return [line.text for line in self.told]


class CombatError(ValueError):
    """An attack that cannot be made as declared (the checker says it on the sheet)."""


def defenders(board: Board, attack: Attack, side: str) -> list[Unit]:
    return [u for u in board.land_at(attack.hex) if u.side != side]


def check_attack(
    board: Board,
    attack: Attack,
    side: str,
    crts: Mapping[str, CRT],
    *,
    disrupted_attack: bool = True,
    conditions: Conditions | None = None,
    political: str = "per_unit",
) -> list[Unit]:
    """The attacking units, or `CombatError` saying why the attack cannot be made.
    ``disrupted_attack``: the seed's AD, A1 and BB speak of "Disrupted Attacking units", so a
    disrupted unit attacks unless the house rule says otherwise."""
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
    if political == "per_point" and attack.political_points > len(units):
        raise CombatError("at most one political point a unit involved")
    if attack.intensive and _headquarters(board, attack, side, conditions) is None:
        raise CombatError(
            "an intensive assault needs a combat-effective headquarters whose support "
            f"radius reaches {attack.hex}"
        )
    return units


def _headquarters(
    board: Board, attack: Attack, side: str, conditions: Conditions | None = None
) -> Unit | None:
    """A combat-effective logistics unit of ``side`` whose support radius (this turn's, cut
    by weather or enemy air dominance) reaches the attacked hex."""
    conditions = conditions or Conditions()
    return next(
        (
            u
            for u in board.units
            if u.side == side
            and u.kind.logistics
            and not u.disrupted
            and u.hex
            and distance(u.hex, attack.hex) <= conditions.support(u)
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
    political: str = "per_unit",
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
    out += political_shifts(attack, defence, attackers, held, political)
    return out


def political_shifts(
    attack: Attack,
    defence: Defence,
    attackers: Sequence[Unit],
    held: Sequence[Unit],
    political: str = "per_unit",
) -> list[Shift]:
    """The shifts political points buy, each with its price in points.  The seed's
    "Political Point Expenditure, One per Unit (Optional): +1/-1" (``per_unit``): a side that
    asks (any number of points written) gets one column, +1 for the attacker, -1 for the
    defender, and pays one point for each of its units taking part.  ``per_point`` (our
    former reading): each point buys a column, at most one a unit.  ``off``: none."""
    if political == "off":
        return []
    out = []
    if political == "per_point":
        if attack.political_points:
            amount = min(attack.political_points, len(attackers))
            out.append(Shift(amount, POINTS_SHIFT, amount))
        if defence.political_points:
            amount = min(defence.political_points, len(held))
            out.append(Shift(-amount, DEFENDER_POINTS_SHIFT, amount))
        return out
    if attack.political_points > 0:
        out.append(Shift(1, POINTS_SHIFT, len(attackers)))
    if defence.political_points > 0:
        out.append(Shift(-1, DEFENDER_POINTS_SHIFT, len(held)))
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
    limits_after_shifts: bool = False,
    disrupted_attack: bool = True,
    home: Mapping[str, str] | None = None,
    political: str = "per_unit",
    points: Mapping[str, Fraction] | None = None,
) -> Outcome:
    """Resolve one attack on ``board`` (changed in place).  ``home``: hex -> the side whose
    home country it is, for the default retreat direction.  ``points``: each side's political
    points left (None: as many as asked); a political shift a side cannot pay in full is not
    taken, and that side alone is told why."""
    conditions = conditions or Conditions()
    defence = defence or Defence()
    attackers = check_attack(
        board,
        attack,
        side,
        crts,
        disrupted_attack=disrupted_attack,
        conditions=conditions,
        political=political,
    )
    held = defenders(board, attack, side)
    enemy = held[0].side
    crt = crts[attack.crt]
    wanted = shifts(board, attack, attackers, held, side, conditions, defence, political)
    kept, short = _paid_shifts(wanted, side, enemy, points, political)
    found = odds(
        sum(u.attack for u in attackers),
        sum(u.defence for u in held),
        kept,
        limits_after_shifts=limits_after_shifts,
    )
    die = dice.d6(f"{crt.name} CRT, attack on {attack.hex}")
    result = crt.result(found.column, die)
    out = Outcome(found, crt.name, die in crt.reconstructed, die, result)
    for shift in kept:
        if shift.cost:
            payer = side if shift.reason == POINTS_SHIFT else enemy
            out.spent[payer] = out.spent.get(payer, 0) + shift.cost
    say = out.told.append
    say(
        Line(
            f"{side} attacks {attack.hex} ({crt.name}): {found.describe()}; die {die}: {result}"
            + (" (reconstructed row)" if out.reconstructed else "")
        )
    )
    out.told += short
    place = board.places.get(attack.hex, "")
    if place in ("city", "town"):
        out.political[enemy] = out.political.get(enemy, 0) + (2 if attack.crt == "assault" else 1)
    if attack.intensive:
        hq = _headquarters(board, attack, side, conditions)
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
            by_air = u.kind.airmobile and conditions.airmobile(u.side)
            _retreat(board, u, hexes, asked.get(u.id, []), home, out, eliminate, by_air)
            if u in board.units:
                out.retreat_ends.append(u.hex)

    def advance(units: Sequence[Unit], into: str, named: Sequence[str]) -> None:
        for u in units:
            if ("*" not in named and u.id not in named) or u not in board.units:
                continue
            if board.enemy_in(into, u.side) or not board.can_enter(u, into):
                continue
            # The seed limits stacking only on a glacier ("Maximum Stacking is one Land Unit
            # per Hex"); our general limit is checked where retreats end, never here.
            most = board.terrain_of(into).stacking
            if most is not None and len(board.land_at(into, u.side)) + 1 > most:
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


def _paid_shifts(
    wanted: Sequence[Shift],
    side: str,
    enemy: str,
    points: Mapping[str, Fraction] | None,
    political: str = "per_unit",
) -> tuple[list[Shift], list[Line]]:
    """The shifts an attack takes: a political points shift only if its side has the points
    to pay for it whole (one a unit taking part; with ``per_point``, as many columns as its
    whole points pay); the lines telling a side what it could not pay (its own to read: what
    it has is its secret)."""
    kept: list[Shift] = []
    short: list[Line] = []
    for shift in wanted:
        payer = side if shift.reason == POINTS_SHIFT else enemy
        has = Fraction(0) if points is None else points.get(payer, Fraction(0))
        if political == "per_point" and points is not None and 0 < has < shift.cost:
            paid = int(has)
            asked = counted(shift.cost, "political point")
            short.append(Line(f"{payer} had only {paid} of the {asked} asked", payer))
            if paid:
                kept.append(Shift(paid if shift.amount > 0 else -paid, shift.reason, paid))
            continue
        if shift.cost and points is not None and has < shift.cost:
            short.append(
                Line(
                    f"{payer} had only {points_text(has)} of the "
                    f"{counted(shift.cost, 'political point')} its shift costs (one a unit): "
                    "no shift",
                    payer,
                )
            )
            continue
        kept.append(shift)
    return kept, short


def path_works(board: Board, unit: Unit, here: str, path: Sequence[str], by_air: bool) -> bool:
    """Whether ``unit`` may retreat from ``here`` along ``path``: adjacent hexes, never back
    where it has been; each hex free of enemy units and of terrain it may not enter, except
    that an airmobile unit passes over both and only its last hex must be so."""
    at, passed = here, {here}
    for k, nxt in enumerate(path):
        if nxt not in board.grid.neighbours(at) or nxt in passed:
            return False
        last = k == len(path) - 1
        if (last or not by_air) and (
            board.enemy_in(nxt, unit.side) or not board.can_enter(unit, nxt)
        ):
            return False
        passed.add(nxt)
        at = nxt
    return True


def retreat_paths(
    board: Board, unit: Unit, hexes: int, by_air: bool = False
) -> list[tuple[str, ...]]:
    """Every legal retreat of ``unit`` of ``hexes`` hexes (`path_works`)."""
    paths: list[tuple[str, ...]] = [()]
    for _ in range(hexes):
        paths = [
            (*p, n)
            for p in paths
            for n in board.grid.neighbours(p[-1] if p else unit.hex)
            if n != unit.hex and n not in p
        ]
    return [p for p in paths if path_works(board, unit, unit.hex, p, by_air)]


def best_retreat(
    board: Board, unit: Unit, hexes: int, home: Mapping[str, str], by_air: bool = False
) -> tuple[str, ...]:
    """The retreat the rules choose for a unit whose owner wrote none that works (() if it has
    no legal retreat and is eliminated).  Among the legal paths, in order: the fewest hexes in
    an enemy zone of control on the way (each hurts the unit; none for an airmobile unit),
    ending where the unit does not overstack, farthest from the nearest enemy unit, in its
    home country, on the best defensive terrain (the most negative column shift), then the
    lowest hex ids."""
    enemies = [u.hex for u in board.units if u.side != unit.side and u.hex and not u.kind.naval]

    def score(path: tuple[str, ...]) -> tuple[int, bool, int, bool, int, tuple[str, ...]]:
        end = path[-1]
        zoc = 0 if by_air else sum(board.in_enemy_zoc(h, unit.side) for h in path)
        fits = len(board.land_at(end, unit.side)) + 1 <= board.limit(end)
        far = min((distance(end, e) for e in enemies), default=0)
        place = PLACE_SHIFT.get(board.places.get(end, ""), 0)
        cover = min(board.terrain_of(end).shift, place)
        return (zoc, not fits, -far, home.get(end) != unit.side, cover, path)

    paths = retreat_paths(board, unit, hexes, by_air)
    return min(paths, key=score) if paths else ()


def _retreat(
    board: Board,
    unit: Unit,
    hexes: int,
    asked: Sequence[str],
    home: Mapping[str, str],
    out: Outcome,
    kill: Callable[[Unit], None],
    by_air: bool = False,
) -> None:
    """Move ``unit`` ``hexes`` hexes away: by the owner's path if it works, else by the best
    legal retreat (`best_retreat`); eliminated only when it has no legal retreat at all (the
    seed's "forced to Retreat into an enemy occupied hex, or into terrain it could not
    normally enter").  A path written in advance that an earlier attack made stale, or that
    enters terrain the unit may not, does not kill a unit that had somewhere to go.  Each hex
    in an enemy zone of control on the way disrupts a combat-effective unit and eliminates a
    disrupted one, except for an airmobile unit ("at no penalty")."""
    say = out.told.append
    here = unit.hex
    path: tuple[str, ...] = tuple(asked[:hexes])
    if len(path) != hexes or not path_works(board, unit, here, path, by_air):
        if asked:
            say(
                Line(
                    f"{unit.id}'s retreat {' '.join(asked)} cannot be followed: it retreats by "
                    "the rule",
                    unit.side,
                )
            )
        path = best_retreat(board, unit, hexes, home, by_air)
    if not path:
        say(
            Line(
                f"{unit.id} has nowhere to retreat from {here}",
                unit.side,
                (here,),
                f"{unit.id} has nowhere to retreat",
            )
        )
        kill(unit)
        return
    for nxt in path:
        unit.hex = nxt
        if by_air or not board.in_enemy_zoc(nxt, unit.side):
            continue
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
    "best_retreat",
    "check_attack",
    "overstacking",
    "path_works",
    "political_shifts",
    "resolve_attack",
    "retreat_paths",
    "shifts",
]
