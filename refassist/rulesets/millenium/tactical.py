"""Tactical battles (rule VIII) fought by the printed procedure on the hex map, each side's
moves and targets chosen from its standing tactical orders.

The procedure, as the rules give it: set-up (the planet in the centre ringed by its bases, a
defending fleet 1-5 hexes round it, or the defending fleet in the centre; the attacker enters
every ship from the edge it chose in its first move); rounds in which the attacker is the
offensive player first and the roles then alternate, at least three rounds each; in a round
the offensive player moves, the defensive player fires, the offensive player fires (with the
reductions the defensive fire caused: every shot declared before any is resolved, so a ship
destroyed fires back), and the losses are removed.

What the seed leaves to the players, the standing orders decide (`TacticalOrders`): close in or
stand off, which targets first, whether fire is focused on one target or spread, and when to
leave once the compulsory rounds are fought.  Our readings of what the seed leaves open are in
docs/rules/millenium.md: a planet falls when its last base is destroyed (or it surrenders); an
RT placed by offensive fire is removed at the same round's removal, so it does nothing; the
a/b/c modifiers apply to every shot the ship fires in offensive fire, never in defensive fire.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...dice import Dice
from ...text.i18n import Said, said
from .charts import INTERCEPTORS_PER_CARRIER, Tables
from .fire import Shot, resolve_shot, shot_modifier
from .hexfield import (
    CENTRE,
    ENTRY_FACING,
    TWO_PLANETS,
    Hex,
    distance,
    edge_hexes,
    neighbour,
    on_field,
    ring,
    turn_size,
)
from .names import SIDE_LABELS, piece_destroyed, piece_said

#: Rounds each side must fight as the offensive player before either may leave (rule VIII B).
COMPULSORY = 3
#: A battle no one leaves ends after this many rounds with the attacker withdrawing: the
#: printed game has no limit, but a battle between two sides that cannot hurt each other must
#: end (recorded in the battle's log).
ROUND_LIMIT = 40
#: Rounds an interceptor may fly in a row (rule VIII C); rounds to refuel aboard.
FLIGHT_LIMIT = 3
STANCES = ("close", "stand off")
PRIORITIES = ("bases", "ships", "capital", "nearest")
LEAVE = ("never", "compulsory", "losing")
FIRE = ("focus", "spread")
EDGES = ("W", "E", "N", "S")
#: The range a fleet standing off keeps (missiles still at 6, lasers at 5).
STAND_OFF_RANGE = 4


@dataclass(frozen=True)
class TacticalOrders:
    """A side's standing tactical orders (its sheet's tactical block)."""

    stance: str = "close"
    priority: str = "ships"
    fire: str = "focus"
    leave: str = "losing"
    edge: str = "W"
    interceptors: bool = True


@dataclass
class Piece:
    """A unit on the tactical map: a ship, an interceptor or a base."""

    key: str  # e.g. "K.vaisseau1", "K.intercepteur3", "G1.base2"
    side: str
    kind: str
    hex: Hex | None  # None: not yet entered (attacker) or aboard (interceptor)
    facing: int = 0
    damaged: bool = False
    reduced: bool = False
    destroyed: bool = False
    gone: bool = False  # removed from the map (destroyed, or left)
    planet: str = ""  # a base's planet
    carrier: str = ""  # an interceptor's carrier (its key)
    fleet: str = ""  # a ship's fleet letter, to write the result back
    aboard: int = 0  # a carrier's interceptors at the start of the battle
    flight: int = 0  # rounds in flight (interceptor)
    refuel: int = 0  # rounds still to refuel aboard (interceptor)
    missile_ready: bool = True  # an interceptor's one missile
    index: int = -1  # the ship's place in its fleet, to write the result back

    @property
    def alive(self) -> bool:
        return not self.gone and not self.destroyed

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.gone


@dataclass
class Battle:
    """A battle being fought and, when it is over, its result."""

    attacker: str
    defender: str
    pieces: list[Piece]
    planets: dict[str, Hex]  # planet name -> hex
    holders: dict[str, str]  # planet name -> side holding it
    objective: str = ""  # the planet attacked ("" for fleets against fleets)
    round: int = 0
    shots: list[Shot] = field(default_factory=list)
    log: list[Said] = field(default_factory=list)
    left: set[str] = field(default_factory=set)
    conquered: bool = False
    surrendered: bool = False
    bases_left: int = 0
    #: The bases count at the last refused surrender demand and its round: another demand
    #: that round only once a base more is destroyed (rule VIII D, « pendant le même tour,
    #: seulement s'il détruit une autre base »); a new round may demand again.  A planet's
    #: battle opens with the strategic phase's refusal as round 1's (`refused_before`).
    demand_after: int = -1
    demand_round: int = -1

    def side_pieces(self, side: str) -> list[Piece]:
        return [p for p in self.pieces if p.side == side and p.alive]

    def ships_of(self, side: str) -> list[Piece]:
        return [p for p in self.side_pieces(side) if p.kind not in ("base", "intercepteur")]

    def bases_of(self, planet: str) -> list[Piece]:
        return [p for p in self.pieces if p.planet == planet and p.alive]

    @property
    def over(self) -> bool:
        """A planet's battle ends when it is conquered or the attacker leaves or has no ship
        left; a battle of fleets when either side leaves or has no ship (rule VIII B)."""
        if self.conquered or self.attacker in self.left or not self.ships_of(self.attacker):
            return True
        return not self.objective and (bool(self.left) or not self.ships_of(self.defender))

    def leave(self, side: str) -> None:
        """``side``'s ships leave the map (by hyperspace, after the battle), their
        interceptors with them; a planet's bases stay and fight on."""
        self.left.add(side)
        for p in self.side_pieces(side):
            if p.kind != "base":
                p.gone = True
        self.log.append(
            said(
                "round {round}: the ships of {side} leave the battle",
                round=self.round,
                side=said(SIDE_LABELS[side]),
            )
        )


def _value(tables: Tables, pieces: Sequence[Piece]) -> int:
    return sum(tables.ships[p.kind].value for p in pieces if p.kind in tables.ships)


def set_up(
    tables: Tables,
    attacker: str,
    defender: str,
    attacking: Sequence[tuple[str, Sequence[Any]]],
    defending: Sequence[tuple[str, Sequence[Any]]],
    planets: Sequence[tuple[str, str, int]],
    objective: str,
    orders: Mapping[str, TacticalOrders],
) -> Battle:
    """The tactical map as rule VIII A sets it: ``attacking``/``defending`` are (fleet letter,
    ships) pairs (ships with ``kind``, ``damaged``, ``interceptors``); ``planets`` are (name,
    holder, bases) of the system's planets, empty for a battle of fleets in empty space."""
    pieces: list[Piece] = []
    planet_hexes: dict[str, Hex] = {}
    holders: dict[str, str] = {}
    marks = [CENTRE] if len(planets) == 1 else list(TWO_PLANETS)
    for (name, holder, bases), where in zip(planets, marks, strict=False):
        planet_hexes[name] = where
        holders[name] = holder
        for n, h in enumerate(ring(where, 1)[:bases], 1):
            pieces.append(Piece(f"{name}.base{n}", holder, "base", h, planet=name))
    # The defending fleet: round its planet(s) at 2 hexes, or in the centre against a fleet.
    if planets:
        spots = [h for where in planet_hexes.values() for h in ring(where, 2)]
    else:
        spots = [CENTRE, *ring(CENTRE, 1), *ring(CENTRE, 2)]
    spots = [h for h in spots if on_field(h) and h not in planet_hexes.values()]
    for i, piece in enumerate(_ships(defender, defending)):
        piece.hex = spots[i % len(spots)]
        piece.facing = (ENTRY_FACING[orders[attacker].edge] + 3) % 6
        pieces.append(piece)
    pieces.extend(_ships(attacker, attacking))
    for carrier in [p for p in pieces if p.kind == "porte_intercepteur"]:
        for n in range(1, carrier.aboard + 1):
            pieces.append(
                Piece(
                    f"{carrier.key}.i{n}", carrier.side, "intercepteur", None, carrier=carrier.key
                )
            )
    return Battle(attacker, defender, pieces, planet_hexes, holders, objective)


def _ships(side: str, fleets: Sequence[tuple[str, Sequence[Any]]]) -> list[Piece]:
    out = []
    for letter, ships in fleets:
        counts: dict[str, int] = {}
        for index, ship in enumerate(ships):
            counts[ship.kind] = counts.get(ship.kind, 0) + 1
            aboard = getattr(ship, "interceptors", 0) if ship.kind == "porte_intercepteur" else 0
            out.append(
                Piece(
                    f"{letter}.{ship.kind}{counts[ship.kind]}",
                    side,
                    ship.kind,
                    None,
                    damaged=ship.damaged,
                    index=index,
                    fleet=letter,
                    aboard=min(aboard, INTERCEPTORS_PER_CARRIER),
                )
            )
    return out


# -- movement ------------------------------------------------------------------------------------
def _crowded(battle: Battle, piece: Piece, h: Hex | None) -> bool:
    """Whether another unit stands in ``h``."""
    return any(p.on_map and p.alive and p.hex == h and p is not piece for p in battle.pieces)


def _blocked(battle: Battle, h: Hex) -> bool:
    return not on_field(h) or h in battle.planets.values()


def _rank_class(p: Piece, orders: TacticalOrders) -> tuple[bool, ...]:
    """The class of target a priority puts first (lower first); within a class the nearest."""
    return {
        "bases": (p.kind != "base", p.kind == "intercepteur"),
        "ships": (p.kind == "base", p.kind == "intercepteur"),
        "capital": (p.kind != "vaisseau", p.kind == "base", p.kind == "intercepteur"),
        "nearest": (),
    }[orders.priority]


def _targets(battle: Battle, side: str, orders: TacticalOrders) -> list[Piece]:
    """Enemy pieces on the map in the order the side's priority wants them."""
    enemies = [p for p in battle.pieces if p.side != side and p.alive and p.on_map]
    return sorted(enemies, key=lambda p: (*_rank_class(p, orders), p.key))


def _goal(battle: Battle, piece: Piece, orders: TacticalOrders) -> tuple[Hex, int] | None:
    """The hex a piece steers by and the range it wants from it."""
    if piece.kind == "intercepteur" and piece.flight >= FLIGHT_LIMIT - 1:
        carrier = next((p for p in battle.pieces if p.key == piece.carrier), None)
        if carrier is not None and carrier.on_map and carrier.alive and carrier.hex is not None:
            return carrier.hex, 0
        return None
    targets = _targets(battle, piece.side, orders)
    if not targets:
        if (
            battle.objective
            and battle.objective in battle.planets
            and piece.side == battle.attacker
        ):
            return battle.planets[battle.objective], 1
        return None
    here = piece.hex or CENTRE
    first = targets[0]
    best = min(
        (t for t in targets if _targets_rank_equal(t, first, orders)),
        key=lambda t: (distance(here, t.hex or CENTRE), t.key),
    )
    want = 1 if orders.stance == "close" or piece.kind == "intercepteur" else STAND_OFF_RANGE
    return best.hex or CENTRE, want


def _targets_rank_equal(a: Piece, b: Piece, orders: TacticalOrders) -> bool:
    return _rank_class(a, orders) == _rank_class(b, orders)


def move_piece(battle: Battle, tables: Tables, piece: Piece, orders: TacticalOrders) -> None:
    """Move one piece toward what its orders want, a hex at a time: a hex costs 1 point, a
    turn of more than one hexside 1 more; never onto a planet, never ending among enemies."""
    points = tables.ships[piece.kind].move
    if piece.kind == "base":
        return  # bases turn round their planet only; ours hold their hexes
    if piece.hex is None:  # entering: the first edge hex is the first hex of the move
        if piece.kind == "intercepteur":
            return
        taken = {p.hex for p in battle.pieces if p.on_map and p.side == piece.side}
        entries = edge_hexes(orders.edge)
        free = [h for h in entries if h not in taken and not _blocked(battle, h)]
        piece.hex = (free or entries)[0]
        piece.facing = ENTRY_FACING[orders.edge]
        points -= 1
    goal = _goal(battle, piece, orders)
    if goal is None:
        return
    target, want = goal
    path_end = piece.hex if not _crowded(battle, piece, piece.hex) else None
    while points > 0:
        here = piece.hex
        assert here is not None
        now = abs(distance(here, target) - want)
        best: tuple[int, int, int, Hex, int] | None = None
        for facing in range(6):
            step = neighbour(here, facing)
            if _blocked(battle, step) or (step == target and want > 0):
                continue
            cost = 1 + (1 if turn_size(piece.facing, facing) > 1 else 0)
            if cost > points:
                continue
            score = abs(distance(step, target) - want)
            if score >= now:
                continue
            crowded = int(_crowded(battle, piece, step))
            option = (score, crowded, cost, step, facing)
            if best is None or option[:3] < best[:3]:
                best = option
        if best is None:
            break
        _, _, cost, step, facing = best
        points -= cost
        piece.hex, piece.facing = step, facing
        if not _crowded(battle, piece, step):
            path_end = step
    if piece.kind == "intercepteur" and piece.hex == target and want == 0:
        _land(battle, piece)
        return
    if piece.hex is not None and _crowded(battle, piece, piece.hex) and path_end is not None:
        # It passes over any unit but never ends among enemies, and keeps out of a friend's
        # hex where it can: a destruction takes everything in the hex.
        piece.hex = path_end


def _land(battle: Battle, interceptor: Piece) -> None:
    carrier = next(p for p in battle.pieces if p.key == interceptor.carrier)
    interceptor.hex = None
    interceptor.flight = 0
    interceptor.refuel = 2 if carrier.damaged else 1
    battle.log.append(
        said(
            "round {round}: {piece} lands aboard {carrier} to refuel",
            round=battle.round,
            piece=piece_said(interceptor.key),
            carrier=piece_said(carrier.key),
        )
    )


def movement(battle: Battle, tables: Tables, side: str, orders: TacticalOrders) -> None:
    """The offensive player's movement: interceptors ready aboard launch first (before their
    carrier moves), then every piece moves in a fixed order."""
    if orders.interceptors:
        for i in [
            p
            for p in battle.side_pieces(side)
            if p.kind == "intercepteur" and p.hex is None and p.refuel == 0
        ]:
            carrier = next(p for p in battle.pieces if p.key == i.carrier)
            if carrier.on_map and carrier.alive:
                i.hex, i.facing, i.missile_ready = carrier.hex, carrier.facing, True
                battle.log.append(
                    said(
                        "round {round}: {piece} launched",
                        round=battle.round,
                        piece=piece_said(i.key),
                    )
                )
    for piece in sorted(battle.side_pieces(side), key=lambda p: (p.kind == "intercepteur", p.key)):
        move_piece(battle, tables, piece, orders)


# -- fire ----------------------------------------------------------------------------------------
@dataclass
class _Declared:
    firer: Piece
    target: Piece
    weapon: str
    distance: int
    laser_targets: int
    both_targets: int


def declare(battle: Battle, tables: Tables, side: str, orders: TacticalOrders) -> list[_Declared]:
    """Every shot of ``side`` this phase, declared before any is resolved: each piece uses
    each of its weapons once, and fires at most one missile (rule VIII D)."""
    shots: list[_Declared] = []
    # A ship destroyed earlier in the round still fires (fire is simultaneous, rule VIII D).
    firers = [p for p in battle.pieces if p.side == side and p.on_map]
    for firer in sorted(firers, key=lambda p: p.key):
        spec = tables.ships[firer.kind]
        here = firer.hex
        assert here is not None
        in_reach = [
            t
            for t in _targets(battle, side, orders)
            if t.hex is not None
            and 1 <= distance(here, t.hex) <= max(len(tables.laser), len(tables.missile))
        ]
        if not in_reach:
            continue
        in_reach.sort(
            key=lambda t: (_rank_class(t, orders), distance(here, t.hex or CENTRE), t.key)
        )
        lasers = spec.lasers
        missiles = (
            min(spec.missiles, 1) if (firer.kind != "intercepteur" or firer.missile_ready) else 0
        )
        laser_targets = in_reach[:lasers] if orders.fire == "spread" else in_reach[:1] * lasers
        # A missile does nothing to an interceptor: it goes to the first target it can hurt.
        missile_target = (
            next((t for t in in_reach if t.kind != "intercepteur"), None) if missiles else None
        )
        chosen = {t.key for t in laser_targets} | (
            {missile_target.key} if missile_target else set()
        )
        both = len(chosen) if laser_targets and missile_target else 0
        for t in laser_targets:
            d = distance(here, t.hex or CENTRE)
            if tables.attack_points("laser", d):
                shots.append(
                    _Declared(firer, t, "laser", d, len({x.key for x in laser_targets}), both)
                )
        if missile_target is not None:
            d = distance(here, missile_target.hex or CENTRE)
            if tables.attack_points("missile", d):
                shots.append(
                    _Declared(
                        firer,
                        missile_target,
                        "missile",
                        d,
                        len({x.key for x in laser_targets}),
                        both,
                    )
                )
                if firer.kind == "intercepteur":
                    firer.missile_ready = False
    return shots


def fire(
    battle: Battle,
    tables: Tables,
    side: str,
    orders: TacticalOrders,
    phase: str,
    dice: Dice,
    rules: Mapping[str, Any],
) -> None:
    """A fire phase: declare, then resolve shot by shot on TAB 2."""
    for d in declare(battle, tables, side, orders):
        target = d.target
        if target.gone:
            continue
        spec = tables.ships[target.kind]
        weapon = d.weapon
        protection = spec.laser_protection if weapon == "laser" else spec.missile_protection
        counter = spec.counter_measure(target.damaged)
        modifier, why = shot_modifier(
            reduced=d.firer.reduced,
            damaged=d.firer.damaged,
            destroyed=d.firer.destroyed,
            weapon=weapon,
            counter=counter,
            laser_targets=d.laser_targets,
            both_systems_targets=d.both_targets,
            rules=rules,
            offensive=phase == "offensive",
        )
        die = dice.d6(f"{d.firer.key} {weapon} at {target.key}, range {d.distance}")
        attack, column, result = resolve_shot(
            tables,
            weapon=weapon,
            distance=d.distance,
            protection=protection,
            die=die,
            modifier=modifier,
            target_kind=target.kind,
        )
        battle.shots.append(
            Shot(
                battle.round,
                phase,
                d.firer.key,
                target.key,
                weapon,
                d.distance,
                attack,
                protection,
                column,
                die,
                modifier,
                tuple(why),
                result,
            )
        )
        _apply(battle, target, result)


def _apply(battle: Battle, target: Piece, result: str) -> None:
    """R nothing; RT a temporary reduction; D damage (a second destroys; one destroys an
    interceptor); X destruction, of everything in the target's hex (rule VIII D 2)."""
    if result == "RT":
        target.reduced = True
    elif result == "D":
        if target.damaged or target.kind == "intercepteur":
            target.destroyed = True
        else:
            target.damaged = True
    elif result == "X":
        for p in battle.pieces:
            if p.on_map and p.hex == target.hex and not p.destroyed:
                p.destroyed = True


def remove_losses(battle: Battle) -> None:
    """The removal phase: destroyed pieces leave the map (interceptors aboard a destroyed
    carrier with it), RT markers come off, interceptors count a round in flight and refuel."""
    for p in battle.pieces:
        if p.destroyed and not p.gone:
            p.gone = True
            battle.log.append(piece_destroyed(battle.round, p.key))
    for p in battle.pieces:
        if p.kind == "intercepteur" and not p.gone:
            carrier = next(c for c in battle.pieces if c.key == p.carrier)
            if p.hex is None and carrier.gone:
                p.gone = p.destroyed = True
            elif p.hex is not None:
                p.flight += 1
                if p.flight > FLIGHT_LIMIT:
                    p.gone = p.destroyed = True
                    battle.log.append(
                        said(
                            "round {round}: {piece} out of fuel, lost",
                            round=battle.round,
                            piece=piece_said(p.key),
                        )
                    )
            elif p.refuel:
                p.refuel -= 1
        p.reduced = False


# -- surrender and leaving ------------------------------------------------------------------------
#: The bases a planet may have left when the attacker demands its surrender in battle.
SURRENDER_BASES = 3


def planet_surrender(battle: Battle, tables: Tables, dice: Dice) -> None:
    """The attacked planet falls when its last base is destroyed and no ship of its side is
    left on the map.  When its bases (its loyalty) are 3 or fewer, the attacker demands its
    surrender on TAB 2, once a round: « S'il échoue, il peut tenter à nouveau pendant le même
    tour, seulement s'il détruit une autre base » (a « tour » of the tactical phase is a
    round), so a refusal holds for the rest of its round unless another base falls, and the
    next round may ask again.  A planet whose side still has ships on the map always refuses
    (rule VIII D), and the engine does not ask it."""
    if not battle.objective or battle.conquered:
        return
    bases = len(battle.bases_of(battle.objective))
    if bases == 0 and not battle.ships_of(battle.defender):
        battle.conquered, battle.bases_left = True, 0
        battle.log.append(
            said(
                "round {round}: the last base of {planet} destroyed: the planet falls",
                round=battle.round,
                planet=battle.objective,
            )
        )
        return
    if (
        not bases
        or bases > SURRENDER_BASES
        or (battle.demand_round == battle.round and bases >= battle.demand_after)
        or battle.ships_of(battle.defender)
        or not battle.ships_of(battle.attacker)
    ):
        return
    points = _value(tables, battle.ships_of(battle.attacker))
    column = tables.surrender_column(points, bases)
    battle.demand_after, battle.demand_round = bases, battle.round
    if column is None:
        battle.log.append(
            said(
                "round {round}: surrender demanded ({points}:{bases}), below the table: refused",
                round=battle.round,
                points=points,
                bases=bases,
            )
        )
        return
    die = dice.d6(f"surrender demand on {battle.objective} in battle ({points}:{bases})")
    if tables.surrenders(column, die):
        battle.conquered = battle.surrendered = True
        battle.bases_left = bases
        battle.log.append(
            said(
                "round {round}: {planet} surrenders ({points}:{bases}, die {die})",
                round=battle.round,
                planet=battle.objective,
                points=points,
                bases=bases,
                die=die,
            )
        )
    else:
        battle.log.append(
            said(
                "round {round}: {planet} refuses ({points}:{bases}, die {die})",
                round=battle.round,
                planet=battle.objective,
                points=points,
                bases=bases,
                die=die,
            )
        )


def refused_before(battle: Battle, bases: int) -> None:
    """The planet refused the strategic phase's demand with ``bases`` bases just before its
    battle: counted as round 1's refusal, so round 1 asks again only if a base more has
    fallen, and round 2 may ask again in any case."""
    battle.demand_after, battle.demand_round = bases, 1


def wants_to_leave(battle: Battle, tables: Tables, side: str, orders: TacticalOrders) -> bool:
    """Whether ``side`` leaves after a round, once both have fought their compulsory rounds."""
    if battle.round < 2 * COMPULSORY or orders.leave == "never" or not battle.ships_of(side):
        return False
    if orders.leave == "compulsory":
        return True
    enemy = battle.defender if side == battle.attacker else battle.attacker
    return _strength(battle, tables, side) < _strength(battle, tables, enemy)


def _strength(battle: Battle, tables: Tables, side: str) -> int:
    """A side's ship points on the map, a base counting one (it fires and must be destroyed
    like a ship)."""
    bases = sum(1 for p in battle.side_pieces(side) if p.kind == "base")
    return _value(tables, battle.ships_of(side)) + bases


def fight(
    battle: Battle,
    tables: Tables,
    orders: Mapping[str, TacticalOrders],
    dice: Dice,
    rules: Mapping[str, Any],
) -> Battle:
    """Fight the battle to its end (rule VIII B); the result stays on ``battle``."""
    while not battle.over:
        battle.round += 1
        offensive = battle.attacker if battle.round % 2 == 1 else battle.defender
        defensive = battle.defender if offensive == battle.attacker else battle.attacker
        with dice.at(phase=f"tactical round {battle.round}"):
            movement(battle, tables, offensive, orders[offensive])
            fire(battle, tables, defensive, orders[defensive], "defensive", dice, rules)
            fire(battle, tables, offensive, orders[offensive], "offensive", dice, rules)
            remove_losses(battle)
            planet_surrender(battle, tables, dice)
        if battle.over:
            break
        for side in (battle.attacker, battle.defender):
            if side not in battle.left and wants_to_leave(battle, tables, side, orders[side]):
                battle.leave(side)
                break
        if battle.round >= ROUND_LIMIT and not battle.over:
            battle.log.append(
                said("round {round}: no side can win; the attacker withdraws", round=battle.round)
            )
            battle.leave(battle.attacker)
    return battle
