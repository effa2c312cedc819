"""Space battles of Imperium 3rd Millennium, in the digest's written-orders form.

The board game's battle board becomes a range line: every combatant (ship or launched fighter)
stands at an integer position; the Terran side starts at position 0 and the Imperial side at 3,
so the opening range is 3, and the range between two units is the difference of their
positions (beyond 3 nothing can fire).  Each fleet follows its standing battle orders
(`orders.BattleOrders`): ``close`` runs at the nearest enemy, ``stand off`` keeps range 2-3 and
``hold`` stays put.  Because a closing unit stops when it reaches the enemy's position, the two
sides never pass through each other: every Terran unit stays at or left of every Imperial unit,
which keeps "forward" and "back" meaningful for both sides.

A round: initiative (1D6 each, +1 to the side that won the last round or to the moving side in
round 1, the Imperial roll adds `SideState.initiative_modifier`; an equal total goes to the side
that had the +1), the winner moves second so that it can react, then all units fire at once and
damage is applied together at the end of the round.  After round 3, or when one side has no
ships left or has broken off entirely, the side with more remaining warship cost wins.

Everything the report needs is in the ``battle`` event's ``data``: forces at the start, each
round's initiative, positions, every shot group with its dice, counter-measure dice, damage,
losses and the result, plus the dice sequence numbers in ``Event.dice``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .battle_details import fit_battle_data
from .context import TurnContext
from .paths import step_towards_home
from .state import Fleet, State, Unit
from .units import IMPERIAL, SIDES, TERRAN, cargo_room, other_side

ROUNDS = 3
#: Most ships of one side standing at one position of the range line (the seed's 12 per hex).
MAX_SHIPS_PER_AREA = 12
#: Starting position of each side on the range line: the battle opens at range 3.
START = {TERRAN: 0, IMPERIAL: 3}
#: Direction towards the enemy.
FORWARD = {TERRAN: 1, IMPERIAL: -1}
#: Fighters move two areas in each of the three movement steps of a round.
FIGHTER_SPEED = 6
#: Battle speeds per unit kind (areas per round).
SPEED = {"light": 3, "capital": 2, "monitor": 1, "aux": 1}
#: Codes a target priority puts first.
TRANSPORTS = ("AT", "TR")


@dataclass
class Combatant:
    """A unit taking part in the battle, with its place on the range line."""

    unit: Unit
    pos: int
    stance: str
    priority: str
    break_off: int
    #: Hits received in the current round, beams and torpedoes apart (CM cancels torpedoes).
    beam_hits: int = 0
    torpedo_hits: int = 0
    gone: bool = False

    @property
    def side(self) -> str:
        return self.unit.side


@dataclass
class BattleOutcome:
    """What a space battle decided: ``winner``/``loser`` are sides ("" when nobody won),
    ``major`` whether it moved the glory index, ``rounds`` the per-round records (as in the
    event's data), ``destroyed`` the unit ids lost per side, ``retreats`` fleet -> system."""

    winner: str
    loser: str
    major: bool
    rounds: list[dict[str, Any]] = field(default_factory=list)
    destroyed: dict[str, list[str]] = field(default_factory=dict)
    retreats: dict[str, str] = field(default_factory=dict)


# -- carrying ------------------------------------------------------------------------------------


def transport_capacity(ctx: TurnContext, unit: Unit) -> int:
    """Units (troops, PD, outposts) a transport carries, per the house rules."""
    return cargo_room(unit.code, ctx.rules)


def cargo_of(ctx: TurnContext, fleet: str) -> dict[str, list[Unit]]:
    """Which ship carries which unit of ``fleet``: ship id -> carried units.

    The sheet never says which transport holds what, so the assignment is fixed and repeatable:
    fighters ride on carriers (CV, and the Terran BB's F1) first; troops, PD and outposts go
    aboard the transports, jump troops first and attack transports first (so that JT land from
    an AT when the fleet has one), then the rest in counter order, then the fighters the
    carriers had no room for (as `admin.carry_room` and the checker have it).  Only fighters
    aboard a carrier launch in a space battle; those on a transport share its fate.  Units that
    fit nowhere are listed under ``""`` (carried by nobody: after
    a battle such fighters land on a friendly planet or are lost).
    """
    units = ctx.state.units_in_fleet(fleet)
    ships = [u for u in units if u.is_ship]
    loads: dict[str, list[Unit]] = {s.id: [] for s in ships}
    loads[""] = []
    fighters = [u for u in units if u.code == "F"]
    others = [u for u in units if u.code in ("RT", "JT", "PD", "OP")]
    for carrier in ships:
        room = ctx.unit_type(carrier.side, carrier.code).fighters
        while room and fighters:
            loads[carrier.id].append(fighters.pop(0))
            room -= 1
    transports = [s for s in ships if s.code == "AT"] + [s for s in ships if s.code == "TR"]
    cargo = [u for u in others if u.code == "JT"] + [u for u in others if u.code != "JT"]
    cargo += fighters
    fighters = []
    for ship in transports:
        room = transport_capacity(ctx, ship)
        while room and cargo:
            loads[ship.id].append(cargo.pop(0))
            room -= 1
    loads[""].extend(cargo + fighters)
    return loads


def remove_units(state: State, gone: list[Unit]) -> None:
    """Take units destroyed in a fight out of play, and fleets left with no units with them.

    A Terran B destroyed here, in space or by planetary fire, lets the Terrans build BBs (the
    seed: "until at least one Terran B unit has been destroyed")."""
    if any(u.side == TERRAN and u.code == "B" for u in gone):
        state.sides[TERRAN].bb_unlocked = True
    ids = {id(u) for u in gone}
    state.units = [u for u in state.units if id(u) not in ids]
    prune_fleets(state)


def prune_fleets(state: State) -> None:
    """Remove fleets that no longer hold any unit."""
    used = {u.fleet for u in state.units if u.fleet}
    state.fleets = [f for f in state.fleets if f.name in used]


def reveal(ctx: TurnContext, system: str) -> None:
    """After a battle both sides see the planetary boxes of the system."""
    for side in SIDES:
        seen = ctx.state.revealed.setdefault(side, [])
        if system not in seen:
            seen.append(system)


# -- the battle ----------------------------------------------------------------------------------


def _speed(ctx: TurnContext, unit: Unit) -> int:
    kind = ctx.unit_type(unit.side, unit.code).kind
    if kind == "fighter":
        return FIGHTER_SPEED
    speed = SPEED[kind]
    return max(1, speed - 1) if unit.damaged else speed


def _cost(ctx: TurnContext, unit: Unit) -> int:
    return ctx.unit_type(unit.side, unit.code).cost


def warship_cost(ctx: TurnContext, units: list[Unit]) -> int:
    """Remaining warship cost: full cost for a sound warship, half (rounded down) if damaged;
    auxiliaries and fighters count nothing (they cannot hold a system)."""
    total = 0
    for u in units:
        t = ctx.unit_type(u.side, u.code)
        if t.is_warship:
            total += t.cost // 2 if u.damaged else t.cost
    return total


def _label(u: Unit) -> str:
    return f"{u.side} {u.id}"


def _forces(ctx: TurnContext, combatants: list[Combatant], side: str) -> list[dict[str, Any]]:
    return [
        {
            "id": c.unit.id,
            "code": c.unit.code,
            "fleet": c.unit.fleet,
            "damaged": c.unit.damaged,
            "stance": c.stance,
            "priority": c.priority,
            "break_off": c.break_off,
        }
        for c in combatants
        if c.side == side
    ]


def _is_capital(ctx: TurnContext, u: Unit) -> bool:
    return ctx.unit_type(u.side, u.code).kind == "capital"


def _order_targets(ctx: TurnContext, targets: list[Combatant], priority: str) -> list[Combatant]:
    """Targets in the order a fleet's priority names them (ties: dearest, then counter id)."""

    def key(c: Combatant) -> tuple[int, int, str]:
        u = c.unit
        cost = _cost(ctx, u)
        if priority == "cheapest":
            return (0, cost, u.id)
        if priority == "carrier":
            first = 0 if u.code == "CV" else 1 if _is_capital(ctx, u) else 2
        elif priority == "transport":
            first = 0 if u.code in TRANSPORTS else 1 if u.code == "AR" else 2
        else:
            first = 0 if _is_capital(ctx, u) else 1
        return (first, -cost, u.id)

    return sorted(targets, key=key)


def _beam_need(capital: bool, rng: int) -> int:
    """Lowest die that hits with beams at ``rng`` (7 = cannot hit)."""
    if rng == 0:
        return 4
    if rng == 1 or (rng == 2 and capital):
        return 6
    return 7


def _torpedo_need(rng: int) -> int:
    if rng <= 1:
        return 5
    if rng <= 3:
        return 6
    return 7


class _Battle:
    """One battle's working data; `fight` drives it."""

    def __init__(self, ctx: TurnContext, system: str, mover: str) -> None:
        self.ctx = ctx
        self.system = system
        self.mover = mover
        self.defender = other_side(mover)
        self.combatants: list[Combatant] = []
        self.left: set[str] = set()  # fleets that broke off
        self.retreats: dict[str, str] = {}
        self.destroyed: dict[str, list[str]] = {s: [] for s in SIDES}
        self.rounds: list[dict[str, Any]] = []
        state = ctx.state
        per_area: dict[tuple[str, int], int] = {}
        for side in SIDES:
            fleets = state.fleets_at(system, side)
            for fleet in fleets:
                # Every fleet has battle orders: its row, or the defaults of `BattleOrders`.
                bo = ctx.orders[side].battle_orders_for(fleet.name)
                loads = cargo_of(ctx, fleet.name)
                launched = {
                    id(u)
                    for ship in state.units_in_fleet(fleet.name)
                    if ctx.unit_type(side, ship.code).fighters
                    for u in loads[ship.id]
                }
                for u in state.units_in_fleet(fleet.name):
                    if u.is_ship:
                        pos = START[side]
                        while per_area.get((side, pos), 0) >= MAX_SHIPS_PER_AREA:
                            pos -= FORWARD[side]
                        per_area[(side, pos)] = per_area.get((side, pos), 0) + 1
                    elif id(u) in launched:
                        pos = START[side]
                    else:
                        continue
                    self.combatants.append(Combatant(u, pos, bo.stance, bo.priority, bo.break_off))

    # -- helpers ---------------------------------------------------------------------------------
    def active(self, side: str | None = None) -> list[Combatant]:
        return [c for c in self.combatants if not c.gone and (side is None or c.side == side)]

    def ships(self, side: str) -> list[Combatant]:
        return [c for c in self.active(side) if c.unit.is_ship]

    def positions(self) -> dict[str, int]:
        return {_label(c.unit): c.pos for c in self.active()}

    # -- a round ---------------------------------------------------------------------------------
    def initiative(self, number: int, last: str) -> dict[str, Any]:
        """Each side rolls 1D6; the side with the bonus keeps the initiative on equal totals."""
        favoured = self.mover if number == 1 else last
        rolls: dict[str, dict[str, int]] = {}
        for side in (self.mover, self.defender):
            roll = self.ctx.dice.d6(f"battle initiative round {number}, {side}")
            bonus = 1 if side == favoured else 0
            modifier = self.ctx.state.sides[side].initiative_modifier if side == IMPERIAL else 0
            rolls[side] = {
                "roll": roll,
                "bonus": bonus,
                "modifier": modifier,
                "total": roll + bonus + modifier,
            }
        other = other_side(favoured)
        winner = other if rolls[other]["total"] > rolls[favoured]["total"] else favoured
        return {"rolls": rolls, "winner": winner}

    def move_side(self, side: str) -> list[dict[str, Any]]:
        """Move ``side``'s units by their fleets' stances; returns the moves made."""
        moves = []
        enemies = self.active(other_side(side))
        if not enemies:
            return moves
        forward = FORWARD[side]
        for c in self.active(side):
            d = min((e.pos - c.pos) * forward for e in enemies)
            speed = _speed(self.ctx, c.unit)
            if c.stance == "close":
                want = min(speed, d)
            elif c.stance == "stand off":
                want = -min(speed, 3 - d) if d < 2 else min(speed, d - 3) if d > 3 else 0
            else:
                want = 0
            if not want:
                continue
            step = forward if want > 0 else -forward
            start = c.pos
            is_ship = c.unit.is_ship
            for _ in range(abs(want)):
                crowd = sum(
                    1
                    for o in self.active(side)
                    if o is not c and o.pos == c.pos + step and o.unit.is_ship
                )
                if is_ship and crowd >= MAX_SHIPS_PER_AREA:
                    break
                c.pos += step
            if c.pos != start:
                moves.append({"unit": _label(c.unit), "from": start, "to": c.pos})
        return moves

    def fire(self) -> list[dict[str, Any]]:
        """Every active unit fires its beams and torpedoes; hits are only counted here."""
        shots: list[dict[str, Any]] = []
        for side in (self.mover, self.defender):
            for c in self.active(side):
                t = self.ctx.unit_type(side, c.unit.code)
                capital = t.kind == "capital"
                for weapon, factor in (("beam", t.beam), ("torpedo", t.torpedo)):
                    if factor <= 0:
                        continue
                    in_range = []
                    for e in self.active(other_side(side)):
                        rng = abs(e.pos - c.pos)
                        need = _beam_need(capital, rng) if weapon == "beam" else _torpedo_need(rng)
                        if need <= 6:
                            in_range.append(e)
                    if not in_range:
                        continue
                    targets = _order_targets(self.ctx, in_range, c.priority)
                    first = targets[0]
                    first_d = self.ctx.unit_type(first.side, first.unit.code).defence
                    if capital and len(targets) > 1 and factor >= 4 * first_d:
                        groups = [(first, (factor + 1) // 2), (targets[1], factor // 2)]
                    else:
                        groups = [(first, factor)]
                    for target, n in groups:
                        rng = abs(target.pos - c.pos)
                        need = _beam_need(capital, rng) if weapon == "beam" else _torpedo_need(rng)
                        dice = self.ctx.dice.nd6(
                            n, f"{weapon} fire {c.unit.id} at {target.unit.id}"
                        )
                        hits = sum(1 for d in dice if d >= need)
                        if weapon == "beam":
                            target.beam_hits += hits
                        else:
                            target.torpedo_hits += hits
                        shots.append(
                            {
                                "shooter": _label(c.unit),
                                "target": _label(target.unit),
                                "weapon": weapon,
                                "range": rng,
                                "need": need,
                                "dice": dice,
                                "hits": hits,
                                "split": len(groups) > 1,
                            }
                        )
        return shots

    def counter_measures(self) -> list[dict[str, Any]]:
        """Each unit that took torpedo hits rolls its CM in dice; each 6 cancels one hit."""
        records = []
        for c in self.active():
            if c.torpedo_hits <= 0:
                continue
            cm = self.ctx.unit_type(c.side, c.unit.code).cm
            if cm <= 0:
                continue
            dice = self.ctx.dice.nd6(cm, f"counter-measures {c.unit.id}")
            cancelled = min(c.torpedo_hits, sum(1 for d in dice if d == 6))
            c.torpedo_hits -= cancelled
            records.append({"unit": _label(c.unit), "dice": dice, "cancelled": cancelled})
        return records

    def damage(self) -> list[dict[str, Any]]:
        """Apply the round's hits at once: >= D damages (a damaged unit is destroyed), >= 3 x D
        destroys outright when catastrophic explosions are played."""
        records = []
        catastrophic = bool(self.ctx.rules["catastrophic_explosions"])
        doomed: list[Combatant] = []
        for c in self.active():
            hits = c.beam_hits + c.torpedo_hits
            c.beam_hits = c.torpedo_hits = 0
            if hits <= 0:
                continue
            d = self.ctx.unit_type(c.side, c.unit.code).defence
            if catastrophic and hits >= 3 * d:
                result = "destroyed (catastrophic explosion)"
            elif hits >= d:
                result = "destroyed" if c.unit.damaged else "damaged"
            else:
                result = "no effect"
            if result.startswith("destroyed"):
                doomed.append(c)
            elif result == "damaged":
                c.unit.damaged = True
            records.append({"unit": _label(c.unit), "hits": hits, "result": result})
        for c in doomed:
            self.destroy(c, records)
        return records

    def destroy(self, c: Combatant, records: list[dict[str, Any]]) -> None:
        """A unit is lost; what it carries (except fighters already launched) goes with it."""
        c.gone = True
        unit = c.unit
        flying = {id(o.unit) for o in self.combatants}
        carried = [
            u for u in cargo_of(self.ctx, unit.fleet).get(unit.id, []) if id(u) not in flying
        ]
        for u in carried:
            records.append({"unit": _label(u), "hits": 0, "result": f"lost aboard {unit.id}"})
        for u in [unit, *carried]:
            self.destroyed[u.side].append(u.id)
        remove_units(self.ctx.state, [unit, *carried])

    # -- leaving the battle ---------------------------------------------------------------------
    def destination(self, fleet: Fleet) -> str | None:
        """Where a retreating or withdrawing fleet goes: "from where it comes or to a closer
        system to its home world", as the fleet's battle orders choose (``back``/``home``, the
        other tried if that one is barred), else by house rule ``retreat`` (``came-from``:
        back, then home; ``home``: only home); never into an enemy fleet."""
        state = self.ctx.state
        home = step_towards_home(state, fleet.side, self.system)
        options: list[str | None] = [home]
        back = fleet.came_from if fleet.came_from != self.system else ""
        if back not in state.map.systems:
            back = ""
        chosen = self.ctx.orders[fleet.side].battle_orders_for(fleet.name).retreat
        if chosen == "back":
            options = [back or None, home]
        elif chosen == "home":
            options = [home, back or None]
        elif self.ctx.rules["retreat"] == "came-from" and back:
            options.insert(0, back)
        enemy_units = {u.fleet for u in state.units if u.side != fleet.side and u.fleet}
        for place in options:
            if place is None:
                continue
            if any(
                f.system == place and f.name in enemy_units
                for f in state.fleets
                if f.side != fleet.side
            ):
                continue
            return place
        return None

    def leave(self, fleet: Fleet) -> str | None:
        """Move a fleet out of the system (monitors stay behind in a fleet of their own)."""
        state = self.ctx.state
        place = self.destination(fleet)
        if place is None:
            return None
        monitors = [u for u in state.units_in_fleet(fleet.name) if u.code == "M"]
        if monitors:
            n = 1
            while state.fleet(f"{fleet.name}M{n}") is not None:
                n += 1
            keep = Fleet(name=f"{fleet.name}M{n}", side=fleet.side, system=self.system)
            state.fleets.append(keep)
            for m in monitors:
                m.fleet = keep.name
        if not state.units_in_fleet(fleet.name):
            return None
        fleet.came_from = self.system
        fleet.system = place
        for u in state.units_in_fleet(fleet.name):
            self.ctx.moved.add((u.side, u.id))
        for c in self.combatants:
            if c.unit.fleet == fleet.name:
                c.gone = True
        self.retreats[fleet.name] = place
        self.left.add(fleet.name)
        return place

    def break_off(self, number: int) -> list[dict[str, Any]]:
        records = []
        for side in (self.mover, self.defender):
            names = []
            for c in self.active(side):
                if c.break_off == number and c.unit.fleet not in names:
                    names.append(c.unit.fleet)
            for name in names:
                fleet = self.ctx.state.fleet(name)
                if fleet is None:
                    continue
                place = self.leave(fleet)
                records.append({"fleet": name, "side": side, "to": place or ""})
        return records

    def recover_fighters(self) -> list[dict[str, Any]]:
        """Fighters re-embark on their fleet's carriers; without room they land on a friendly
        planet of the system that takes fighters, or are lost."""
        state = self.ctx.state
        records = []
        lost: list[Unit] = []
        fought = {c.unit.fleet for c in self.combatants} | set(self.retreats)
        for fleet in [f for f in state.fleets if f.name in fought]:
            units = state.units_in_fleet(fleet.name)
            has_ship = any(u.is_ship for u in units)
            stranded = cargo_of(self.ctx, fleet.name)[""]
            if not has_ship:
                stranded = units
            for u in stranded:
                landed = ""
                if u.code == "F" and fleet.system == self.system:
                    for p in state.map.planets_in(self.system):
                        # Fighters may stand on every planet type (`ALLOWED_ON`).
                        if p.owner == u.side and not p.disputed and state.box_room(p.code) > 0:
                            u.fleet, u.planet, u.hex = "", p.code, 0
                            landed = p.code
                            break
                if landed:
                    records.append({"unit": _label(u), "result": f"landed on {landed}"})
                else:
                    lost.append(u)
                    self.destroyed[u.side].append(u.id)
                    records.append({"unit": _label(u), "result": "lost (no carrier)"})
        remove_units(state, lost)
        prune_fleets(state)
        return records


def _major(ctx: TurnContext, combatants: list[Combatant]) -> bool:
    """Both sides with capital ships, or at least 10 ships each, at the start of the battle."""
    capital = {s: False for s in SIDES}
    ships = {s: 0 for s in SIDES}
    for c in combatants:
        t = ctx.unit_type(c.side, c.unit.code)
        if t.kind == "capital":
            capital[c.side] = True
        if t.is_ship:
            ships[c.side] += 1
    return all(capital.values()) or all(n >= 10 for n in ships.values())


def fight(ctx: TurnContext, system: str, mover: str) -> BattleOutcome:
    """Fight the space battle at ``system`` between all fleets of both sides there.

    ``mover`` is the side whose activation brought on the battle (it gets the +1 initiative in
    round 1, and the other side holds the field on a tie of remaining warship cost).
    """
    first_roll = len(ctx.dice.log)
    battle = _Battle(ctx, system, mover)
    forces = {s: _forces(ctx, battle.combatants, s) for s in SIDES}
    major = _major(ctx, battle.combatants)
    last = mover
    with ctx.dice.at(location=system):
        for number in range(1, ROUNDS + 1):
            if not battle.ships(TERRAN) or not battle.ships(IMPERIAL):
                break
            init = battle.initiative(number, last)
            last = init["winner"]
            first_mover = other_side(last)
            moves = battle.move_side(first_mover) + battle.move_side(last)
            ranges = sorted(
                {abs(a.pos - b.pos) for a in battle.active(TERRAN) for b in battle.active(IMPERIAL)}
            )
            shots = battle.fire()
            cm = battle.counter_measures()
            damage = battle.damage()
            record: dict[str, Any] = {
                "round": number,
                "initiative": init["rolls"],
                "initiative_winner": last,
                "moves_first": first_mover,
                "moves": moves,
                "positions": battle.positions(),
                "ranges": ranges,
                "shots": shots,
                "counter_measures": cm,
                "damage": damage,
            }
            if number < ROUNDS:
                record["break_off"] = battle.break_off(number)
            battle.rounds.append(record)
    ships = {s: battle.ships(s) for s in SIDES}
    if not ships[TERRAN] and not ships[IMPERIAL]:
        winner = loser = ""
        reason = "no ships remain on either side"
    elif not ships[TERRAN] or not ships[IMPERIAL]:
        winner = TERRAN if ships[TERRAN] else IMPERIAL
        loser = other_side(winner)
        reason = f"the {loser} side has no ships left in the battle"
    else:
        cost = {s: warship_cost(ctx, [c.unit for c in battle.active(s)]) for s in SIDES}
        if cost[TERRAN] == cost[IMPERIAL]:
            winner = battle.defender
            reason = f"remaining warship cost tied at {cost[TERRAN]}: the defender holds"
        else:
            winner = TERRAN if cost[TERRAN] > cost[IMPERIAL] else IMPERIAL
            reason = f"remaining warship cost {cost[winner]} against {cost[other_side(winner)]}"
        loser = other_side(winner)
    retreat_records = []
    if loser:
        for fleet in list(ctx.state.fleets_at(system, loser)):
            if any(u.code != "M" for u in ctx.state.units_in_fleet(fleet.name)):
                place = battle.leave(fleet)
                retreat_records.append({"fleet": fleet.name, "to": place or ""})
    fighters = battle.recover_fighters()
    if major and winner:
        if winner == IMPERIAL:
            ctx.glory(+1, "major Empire victory", system)
        else:
            ctx.glory(-1, "major Terran victory", system)
    reveal(ctx, system)
    ctx.battles.append(system)
    rolls = tuple(r.seq for r in ctx.dice.log[first_roll:])
    data = {
        "system": system,
        "mover": mover,
        "forces": forces,
        "rounds": battle.rounds,
        "winner": winner,
        "loser": loser,
        "reason": reason,
        "major": major,
        "retreats": retreat_records,
        "fighters": fighters,
        "destroyed": battle.destroyed,
        "dice": list(rolls),
    }
    data = fit_battle_data(data)
    stayed = [r["fleet"] for r in retreat_records if not r["to"]]
    place = ctx.state.map.systems[system].name if system in ctx.state.map.systems else system
    text = f"Space battle at {place}: " + (
        f"{winner} wins ({reason})" if winner else f"no winner ({reason})"
    )
    if stayed:
        text += f"; {', '.join(stayed)} had nowhere to retreat and stayed"
    ctx.emit(
        f"action {ctx.segment}" if ctx.segment else "battle",
        system,
        "battle",
        text,
        players=SIDES,
        visible_to=SIDES,
        data=data,
        dice=rolls,
    )
    return BattleOutcome(
        winner=winner,
        loser=loser,
        major=major,
        rounds=battle.rounds,
        destroyed=battle.destroyed,
        retreats=dict(battle.retreats),
    )
