"""Computer players for Imperium 3rd Millennium: a plain, aggressive admiral per side.

A computer player decides only from what its side may know (digest, "Information"): its own
units, fleets, treasury and turn record track; enemy fleets in systems where it has units,
Worlds or Outposts (their contents only where revealed: a hidden fleet counts as a guess,
`HIDDEN_FLEET_POWER`); enemy planetary boxes only in systems it saw into last turn
(``state.revealed``); the map, planet owners and markers and the glory index, which are public.
`known_view` collects exactly that, and the planner reads nothing else of the enemy, so a hidden
fleet never changes its orders (a test checks it).

Its habits, chosen so that a demo war has battles and captures and ends within ten turns:

* **target**: the nearest enemy planet its troops can land on (jump troops only on N and X
  planets), Outposts before Worlds, a disputed planet where its troops fight first of all;
* **main fleet**: its strongest fleet gathers the others (they travel to it and ``join``),
  loads troops at its own Worlds (a garrison of one troop stays), moves along the shortest
  route towards the target, stopping where a stronger enemy fleet is known, and in the segment
  after it arrives ``attack``s the planet (and once more, to renew a disputed fight);
* **home guard**: a light warship split off at the home system nearest the enemy stays there;
* **scouts**: scout ships form their own fleet and stealth-scout the target system;
* **transports** without cargo fetch troops from the nearest World that has some to spare;
* **battle orders**: close when stronger than the enemy known nearby, stand off when weaker,
  break off after round 1 when much weaker;
* **production**: only from the stockpile (never counting on this turn's income, so the
  checker can never find it over budget), a reserve for ground maintenance kept back:
  transports and troops while they are short, then warships the side may build (Terran BB only
  once unlocked, Imperial CR/CA/B1/B2/BB only with permission), a scout when none is left;
  terraforming of a connected N1/N2 Outpost when rich; in peace, outpost upgrades on A planets;
* **appeals** (Imperial): Finances in the first three turns of a war, Forces when the glory
  index stands below its starting value;
* **peace**: no fleet enters or passes a system with an enemy fleet, Outpost or World; fleets
  away from home come back to their nearest World.

Everything random is drawn from ``random.Random(f"{seed}:{turn}:{side}")``, never from the
game's dice, so the same game replays the same orders.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .admin import arrival_plan, arrivals_due
from .orders import Action, Activation, Arrival, BattleOrders, Build, Orders, PlanetOrder
from .paths import distances_from, home_systems, shortest_path
from .rules import complete
from .sheet import ARRIVAL_ROWS
from .state import ALLOWED_ON, GLORY_START, Fleet, Planet, State, Unit
from .units import (
    IMPERIAL,
    IMPERIAL_RESTRICTED,
    TERRAN,
    cargo_room,
    counters_available,
    fleet_speed,
    unit_type,
)
from .visibility import in_sight

#: Most activations a side may list per action segment (the largest initiative roll).
MAX_ACTIVATIONS = 6
SEGMENTS = 4
#: Warships a computer player builds, with a weight (it picks among those it may afford).
WARSHIP_WEIGHTS = {
    "BB": 3,
    "B": 3,
    "B1": 2,
    "B2": 2,
    "CA": 4,
    "CS": 3,
    "CR": 3,
    "CL": 3,
    "DD": 3,
    "TB": 2,
}
#: Transports (in play and under construction) a side keeps for its troops.
TRANSPORTS_WANTED = 3
#: Troops ready to embark (aboard, or spare on Worlds, or under construction) a side keeps.
TROOPS_WANTED = 3
#: A stockpile at least this large after building counts as rich (terraforming).
RICH = 40
#: Per-turn payment for terraforming and outpost upgrades.
PROJECT_COST = 10
#: In peace a computer player stops building below this stockpile.
PEACE_RESERVE = 30
#: Most build lines a computer player writes.
MAX_BUILD_LINES = 5


# -- what a side may know ----------------------------------------------------------------------
@dataclass
class KnownView:
    """What one side may know of the state (digest "Information"), for the planner.

    ``enemy_fleets`` maps a system the side can see into to the enemy fleets there with their
    units; ``enemy_ground`` maps an enemy planet the side saw into last turn to the units on
    it.  Everything else of the enemy (its queue, its treasury, fleets elsewhere) is absent.
    """

    side: str
    enemy: str
    units: list[Unit]
    fleets: list[Fleet]
    seen: set[str]
    enemy_fleets: dict[str, list[tuple[Fleet, list[Unit]]]] = field(default_factory=dict)
    enemy_ground: dict[str, list[Unit]] = field(default_factory=dict)
    #: Enemy fleets seen whose contents were not revealed (their unit lists are empty).
    hidden: set[str] = field(default_factory=set)

    def fleet_units(self, name: str) -> list[Unit]:
        return [u for u in self.units if u.fleet == name]

    def enemy_power_at(self, system: str) -> float:
        return sum(
            HIDDEN_FLEET_POWER if f.name in self.hidden else power(units)
            for f, units in self.enemy_fleets.get(system, [])
        )

    def enemy_warships_at(self, system: str) -> bool:
        return any(
            f.name in self.hidden or any(u.type().is_warship for u in units)
            for f, units in self.enemy_fleets.get(system, [])
        )


#: What the planner assumes of an enemy fleet whose contents it has not seen: about a heavy
#: cruiser's worth (`power`), a guess that keeps it from sending a transport into the unknown.
HIDDEN_FLEET_POWER = 15.0


def known_view(state: State, side: str, rules: Mapping[str, Any] | None = None) -> KnownView:
    """Collect what ``side`` may know: own units and fleets, the systems it sees into (own
    units there, or an own World/Outpost), enemy fleets in those systems and enemy planetary
    boxes in the systems listed in ``state.revealed[side]``."""
    enemy = state.enemy(side)
    own_units = [u for u in state.units if u.side == side]
    own_fleets = [f for f in state.fleets if f.side == side]
    seen = in_sight(state, side)  # the sight the side's report is drawn from
    view = KnownView(side, enemy, own_units, own_fleets, seen)
    by_fleet: dict[str, list[Unit]] = {}
    for u in state.units:
        if u.side == enemy and u.fleet:
            by_fleet.setdefault(u.fleet, []).append(u)
    revealed = set(state.revealed.get(side, []))
    shown = (rules or {}).get("enemy_fleet_contents", "hidden") == "shown"
    for f in state.fleets:
        if f.side == enemy and f.system in seen and by_fleet.get(f.name):
            if shown or f.system in revealed:
                view.enemy_fleets.setdefault(f.system, []).append((f, by_fleet[f.name]))
            else:  # there, but what it holds is not known (visibility.player_view)
                view.enemy_fleets.setdefault(f.system, []).append((f, []))
                view.hidden.add(f.name)
    for u in state.units:
        planet = state.map.planets.get(u.planet) if u.side == enemy and u.planet else None
        if planet is not None and planet.system in revealed:
            view.enemy_ground.setdefault(u.planet, []).append(u)
    return view


# -- unit arithmetic ---------------------------------------------------------------------------
def power(units: Iterable[Unit]) -> float:
    """A rough fighting value of warships (fire factors and twice the defence; fighters count
    too), halved for damaged ships: enough to compare two fleets."""
    total = 0.0
    for u in units:
        t = u.type()
        if t.is_warship or t.kind == "fighter":
            value = t.beam + t.torpedo + 2 * t.defence
            total += value / 2 if u.damaged else value
    return total


def fleet_movement(units: list[Unit]) -> int:
    """Movement points of a fleet of ``units`` (`units.fleet_speed`)."""
    return fleet_speed((u.type().kind, u.damaged) for u in units if u.is_ship)


def free_capacity(units: list[Unit], rules: Mapping[str, Any]) -> int:
    """Room aboard the fleet's transports for troops, PD and outposts."""
    room = sum(cargo_room(u.code, rules) for u in units)
    carried = sum(1 for u in units if u.type().kind in ("troop", "pd", "outpost"))
    return room - carried


def can_land(troop: Unit, planet: Planet) -> bool:
    return troop.code in ALLOWED_ON.get(planet.klass, ())


def troops_in(units: list[Unit]) -> list[Unit]:
    return [u for u in units if u.type().kind == "troop"]


# -- the planner --------------------------------------------------------------------------------
def computer_orders(
    state: State, player: str, seed: int, rules: Mapping[str, Any] | None = None
) -> Orders:
    """The orders of the computer player ``player`` for the current turn (deterministic for
    ``seed``; decided only from what the player's side may know)."""
    side = state.side_of(player)
    orders = Orders(player=player, side=side, turn=state.turn)
    if state.finished:
        return orders
    rng = random.Random(f"{seed}:{state.turn}:{side}")
    planner = _Planner(state, side, known_view(state, side, rules), rng, dict(rules or {}))
    planner.administration(orders)
    planner.arrivals(orders)
    planner.activations(orders)
    planner.battle_orders(orders)
    return orders


class _Planner:
    """One turn's decisions for one side."""

    def __init__(
        self,
        state: State,
        side: str,
        view: KnownView,
        rng: random.Random,
        rules: dict[str, Any],
    ) -> None:
        self.state = state
        self.side = side
        self.view = view
        self.rng = rng
        self.rules = complete(rules)
        self.prefix = side[0]
        self.peace = state.at_peace()
        self.treasury = state.sides[side].resources
        self.planets = state.map.planets
        self.my_worlds = sorted(
            p.code for p in self.planets.values() if p.owner == side and p.marker == "World"
        )
        self.world_systems = sorted({self.planets[p].system for p in self.my_worlds})
        self.capital = self._capital()
        # planned positions and contents of the side's fleets while the four segments are
        # planned (a join or split changes them)
        self.pos: dict[str, str] = {f.name: f.system for f in view.fleets}
        self.cargo: dict[str, list[Unit]] = {f.name: view.fleet_units(f.name) for f in view.fleets}
        self.cargo = {k: v for k, v in self.cargo.items() if v}
        # troops standing on own Worlds that may still be taken aboard (a garrison stays)
        self.spare_troops: dict[str, list[Unit]] = self._spare_troops()
        self.names_used = {f.name for f in state.fleets}
        #: Home guard fleets, and the splits that send their extra units to war (segment 1).
        self.guards: set[str] = set()
        self.pending: list[tuple[str, Action]] = []
        #: Fleets that attack a planet this turn (they load nothing afterwards).
        self.attackers: set[str] = set()
        self._release_guards()
        self.main = self._main_fleet()
        self.target = self._choose_target()

    # -- look-ups ----------------------------------------------------------------------------
    def _capital(self) -> str:
        """The side's home system nearest the enemy's home worlds (the guard stays there)."""
        homes = home_systems(self.state, self.side)
        if not homes:
            return ""
        enemy_homes = sorted({p.system for p in self.planets.values() if p.home == self.view.enemy})
        if not enemy_homes:
            return homes[0]
        dist = distances_from(self.state, enemy_homes)
        return min(homes, key=lambda h: (dist.get(h, 999), h))

    def _spare_troops(self) -> dict[str, list[Unit]]:
        spare: dict[str, list[Unit]] = {}
        for code in self.my_worlds:
            planet = self.planets[code]
            if planet.disputed:
                continue
            here = sorted(
                (u for u in self.view.units if u.planet == code and u.type().kind == "troop"),
                key=lambda u: (-u.troop_strength, u.id),
            )
            # keep the strongest as garrison; the others may embark
            if len(here) > 1:
                spare[code] = here[1:]
        return spare

    def is_guard(self, name: str) -> bool:
        return name in self.guards

    def _release_guards(self) -> None:
        """A guard fleet (named ``TG1``, ``IG1``...) keeps one light warship; whatever else it
        holds (reinforcements placed with it) splits off in segment 1 to go to war.  A guard
        fleet without a light warship left is an ordinary fleet again."""
        for name in sorted(self.cargo):
            if not name.startswith(f"{self.prefix}G"):
                continue
            units = self.cargo[name]
            keepers = sorted(
                (u for u in units if u.type().kind == "light" and u.code != "SC"),
                key=lambda u: (u.damaged, u.type().cost, u.id),
            )
            if not keepers:
                continue
            self.guards.add(name)
            keep = keepers[0]
            rest = [u for u in units if u is not keep]
            if not any(u.is_ship for u in rest):
                continue
            new = self._new_name("F")
            ids = [u.id for u in rest]
            text = f"{name} split {new} {' '.join(ids)}"
            split = Action("split", fleet=name, units=ids, target=new, text=text)
            self.pending.append((self.pos[name], split))
            self.cargo[name] = [keep]
            self.cargo[new] = rest
            self.pos[new] = self.pos[name]

    def is_scouts(self, name: str) -> bool:
        units = self.cargo.get(name, [])
        ships = [u for u in units if u.is_ship]
        return bool(ships) and all(u.code == "SC" for u in ships)

    def _main_fleet(self) -> str:
        candidates = [
            name
            for name, units in self.cargo.items()
            if not self.is_guard(name)
            and fleet_movement(units) > 0
            and not self.is_scouts(name)
            and power(units) > 0
        ]
        if not candidates:
            return ""
        return max(candidates, key=lambda n: (power(self.cargo[n]), n))

    def enemy_planets(self) -> list[Planet]:
        """Enemy Worlds and Outposts, and disputed planets where own troops stand."""
        found = []
        for p in self.planets.values():
            held = p.owner == self.view.enemy and bool(p.marker)
            if held or (p.disputed and any(u.planet == p.code for u in self.view.units)):
                found.append(p)
        return sorted(found, key=lambda p: p.code)

    def _troops_for_main(self) -> list[Unit]:
        """Troops the main fleet will have once it has loaded at its present system."""
        if not self.main:
            return []
        units = self.cargo[self.main]
        aboard = troops_in(units)
        system = self.pos[self.main]
        room = free_capacity(units, self.rules)
        for code in self.my_worlds:
            if self.planets[code].system == system:
                extra = self.spare_troops.get(code, [])[: max(0, room)]
                aboard += extra
                room -= len(extra)
        return aboard

    def _defence_guess(self, planet: Planet) -> float:
        """How strongly the planet is held, as far as the side knows: its box if seen last
        turn, else a guess from its marker; plus enemy fleets seen in its system."""
        ground = self.view.enemy_ground.get(planet.code)
        if ground is not None:
            value = sum(u.troop_strength + (3 if u.code == "PD" else 0) for u in ground)
        else:
            value = 8.0 if planet.marker == "World" else 3.0
        return value + self.view.enemy_power_at(planet.system)

    def _choose_target(self) -> str:
        """The planet the main fleet goes for (empty in peace or with nothing to attack)."""
        if self.peace or not self.main:
            return ""
        start = self.pos[self.main]
        troops = self._troops_for_main() + [u for us in self.spare_troops.values() for u in us]
        avoid = self.deep_systems()
        options = []
        for p in self.enemy_planets():
            dist = distances_from(self.state, [p.system], avoid).get(start)
            if dist is None:
                continue
            mine_there = any(u.planet == p.code for u in self.view.units)
            landable = any(can_land(t, p) for t in troops)
            strength = self._defence_guess(p)
            too_strong = self.view.enemy_power_at(p.system) > 1.5 * power(self.cargo[self.main])
            options.append(
                (
                    0 if mine_there else 1,
                    0 if landable else 1,
                    1 if too_strong else 0,
                    0 if p.marker == "Outpost" else 1,
                    dist + strength / 4,
                    p.code,
                )
            )
        if not options:
            return ""
        return min(options)[-1]

    def deep_systems(self) -> set[str]:
        return {code for code, s in self.state.map.systems.items() if s.deep}

    def hostile_systems(self) -> set[str]:
        """Systems a fleet may not enter in peace: known enemy fleets, enemy Outposts/Worlds."""
        found = {s for s, fleets in self.view.enemy_fleets.items() if fleets}
        found |= {p.system for p in self.planets.values() if p.owner == self.view.enemy}
        return found

    def path(self, origin: str, destination: str, avoid: set[str]) -> list[str]:
        """Systems entered on the cheapest way not through ``avoid`` (`paths.shortest_path`)."""
        return shortest_path(self.state, origin, destination, avoid)

    def leg(self, origin: str, route: list[str], points: int, *, stop_at_enemy: bool) -> list[str]:
        """The part of ``route`` a fleet with ``points`` movement points covers this segment:
        it stops on entering a system with known enemy warships (a battle follows there), and
        at a known enemy World or Outpost under the house rule ``enemy_planets_stop``."""
        covered: list[str] = []
        here = origin
        spent = 0
        planets_stop = self.rules["enemy_planets_stop"]
        for there in route:
            r = self.state.map.route(here, there)
            length = r.length if r else 1
            if spent + length > points:
                break
            spent += length
            covered.append(there)
            here = there
            if stop_at_enemy and self.view.enemy_fleets.get(there):
                break
            if planets_stop and self._enemy_marker_at(there):
                break
        return covered

    def _enemy_marker_at(self, system: str) -> bool:
        """An enemy World or Outpost this side knows of at ``system`` (markers are public
        unless the house rule ``public_markers`` hides those in systems it does not see)."""
        if not self.rules["public_markers"] and system not in self.view.seen:
            return False
        return any(
            p.owner == self.view.enemy and p.marker for p in self.state.map.planets_in(system)
        )

    # -- administration ----------------------------------------------------------------------
    def administration(self, orders: Orders) -> None:
        me = self.state.sides[self.side]
        if self.side == IMPERIAL and not self.peace and not me.appeals_prohibited:
            if self.state.glory < GLORY_START:
                orders.appeal = "Forces"
            elif self.state.war_turn <= 3:
                orders.appeal = "Finances"
        factor = 2 if self.peace else 1
        budget = self.treasury + self.income_estimate() - self.upkeep_estimate() * factor
        if self.peace:
            for p in self._upgradable():
                if budget >= PROJECT_COST:
                    orders.upgrades.append(PlanetOrder(p))
                    budget -= PROJECT_COST
        budget = self._builds(orders, budget, factor)
        if budget >= RICH:
            for p in self._terraformable():
                if budget >= RICH:
                    orders.terraform.append(PlanetOrder(p))
                    budget -= PROJECT_COST

    def income_estimate(self) -> int:
        """This turn's income as far as the side can count on it (production comes before
        construction): Worlds and Outposts connected through systems it sees count, anything
        it cannot be sure of counts low (a Terran World as unconnected, an Imperial Depression
        as still running)."""
        me = self.state.sides[self.side]
        reach = self.reach()
        owned = [
            p for p in self.planets.values() if p.owner == self.side and p.marker and not p.disputed
        ]
        outposts = sum(1 for p in owned if p.marker == "Outpost" and p.system in reach)
        worlds = [p for p in owned if p.marker == "World"]
        if self.side == IMPERIAL:
            total = 10 + me.budget_bonus + len(worlds) + outposts
            if me.depression > 0:
                total = max(1, total - 10)
            return total
        total = 10 if any(p.home == TERRAN for p in worlds) else 0
        total += sum(8 if p.system in reach else 6 for p in worlds if p.home != TERRAN)
        return total + outposts

    def upkeep_estimate(self) -> int:
        """Maintenance the close-out will take from the stockpile: one per troop and PD, and
        what the side's ships cost beyond the 20 a World (6 an Outpost) gives in their system."""
        ground = sum(1 for u in self.view.units if u.type().kind in ("troop", "pd"))
        local: dict[str, int] = {}
        for p in self.planets.values():
            if p.owner == self.side and not p.disputed and p.marker:
                local[p.system] = local.get(p.system, 0) + (20 if p.marker == "World" else 6)
        need: dict[str, int] = {}
        for f in self.view.fleets:
            cost = sum(
                u.type().maintenance
                for u in self.view.fleet_units(f.name)
                if u.is_ship or u.type().kind == "fighter"
            )
            need[f.system] = need.get(f.system, 0) + cost
        return ground + sum(max(0, n - local.get(s, 0)) for s, n in need.items())

    def reach(self) -> set[str]:
        """Systems linked to a home world through systems the side sees free of enemy fleets
        (a way through unseen space might hide a blockade, so it is not counted)."""
        homes = home_systems(self.state, self.side)
        blocked = {s for s, fleets in self.view.enemy_fleets.items() if fleets}
        frontier = [h for h in homes if h not in blocked]
        found = set(frontier)
        while frontier:
            here = frontier.pop()
            for there, _length in self.state.map.neighbours(here):
                if there in self.view.seen and there not in blocked and there not in found:
                    found.add(there)
                    frontier.append(there)
        return found

    def _upgradable(self) -> list[str]:
        return sorted(
            p.code
            for p in self.planets.values()
            if p.owner == self.side and p.marker == "Outpost" and p.klass == "A"
        )

    def _terraformable(self) -> list[str]:
        """Own N1/N2 Outposts connected to home (as far as the side can see)."""
        reach = self.reach()
        return sorted(
            p.code
            for p in self.planets.values()
            if p.owner == self.side
            and p.marker == "Outpost"
            and p.type in ("N1", "N2")
            and not p.disputed
            and p.system in reach
        )

    def may_build(self, code: str) -> bool:
        me = self.state.sides[self.side]
        try:
            unit_type(self.side, code)
        except KeyError:
            return False
        if self.side == TERRAN and code == "BB" and not me.bb_unlocked:
            return False
        if self.side == IMPERIAL and code in IMPERIAL_RESTRICTED:
            return "ALL" in me.permissions or code in me.permissions
        return True

    def _counters_left(self, code: str, chosen: Mapping[str, int]) -> int:
        in_play = sum(1 for u in self.view.units if u.code == code)
        queued = sum(1 for q in self.state.queue if q.side == self.side and q.code == code)
        return counters_available(self.side, code) - in_play - queued - chosen.get(code, 0)

    def _builds(self, orders: Orders, budget: int, factor: int) -> int:
        """Choose this turn's construction within ``budget``; returns what is left."""
        if not self.my_worlds:
            return budget
        chosen: dict[str, int] = {}

        def take(code: str) -> bool:
            nonlocal budget
            cost = unit_type(self.side, code).cost * factor
            if cost > budget or not self.may_build(code) or self._counters_left(code, chosen) < 1:
                return False
            chosen[code] = chosen.get(code, 0) + 1
            budget -= cost
            return True

        queued = [q.code for q in self.state.queue if q.side == self.side]
        transports = sum(1 for u in self.view.units if u.code in ("TR", "AT")) + sum(
            1 for c in queued if c in ("TR", "AT")
        )
        ready = (
            sum(len(us) for us in self.spare_troops.values())
            + sum(1 for u in self.view.units if u.fleet and u.type().kind == "troop")
            + sum(1 for c in queued if c in ("RT", "JT"))
        )
        needs_jump = any(p.klass != "A" for p in self.enemy_planets())
        has_jump = any(u.code == "JT" for u in self.view.units) or "JT" in queued
        if not self.peace:
            if needs_jump and not has_jump:
                take("JT")
            while transports < TRANSPORTS_WANTED and take("TR"):
                transports += 1
            while ready < TROOPS_WANTED:
                troop = "JT" if needs_jump and self.rng.random() < 0.5 else "RT"
                if not (take(troop) or take("RT" if troop == "JT" else "JT")):
                    break
                ready += 1
        scouts = sum(1 for u in self.view.units if u.code == "SC") + queued.count("SC")
        if scouts == 0:
            take("SC")
        while len(chosen) < MAX_BUILD_LINES:
            options = [
                c
                for c, w in sorted(WARSHIP_WEIGHTS.items())
                for _ in range(w)
                if self.may_build(c)
                and unit_type(self.side, c).cost * factor <= budget
                and self._counters_left(c, chosen) > 0
            ]
            # in peace (double prices) keep a reserve for the next war
            if not options or (self.peace and budget < PEACE_RESERVE):
                break
            take(self.rng.choice(options))
        for code, count in chosen.items():
            orders.builds.append(Build(code=code, count=count))
        return budget

    # -- action segments ---------------------------------------------------------------------
    def activations(self, orders: Orders) -> None:
        attacked: dict[str, list[int]] = {}
        for segment in range(1, SEGMENTS + 1):
            lines: dict[str, list[Action]] = {}
            moved: set[str] = set()
            if segment == 1:
                for system, action in self.pending:
                    lines.setdefault(system, []).append(action)
            self._main_actions(segment, lines, moved, attacked)
            self._scout_actions(segment, lines, moved)
            self._follower_actions(segment, lines, moved)
            for order, (system, actions) in enumerate(list(lines.items())[:MAX_ACTIVATIONS], 1):
                text = "; ".join(a.text for a in actions)
                orders.activations.append(Activation(segment, order, system, actions, text=text))

    def arrivals(self, orders: Orders) -> None:
        """New ships form a fleet of their own at each World (``TN1``...), so the fleets the
        planner moves this turn keep the speed and make-up it planned with; troops, PD and
        fighters stand on their World as usual."""
        plan = arrival_plan(self.state, self.side, self.rules)
        formed: dict[tuple[str, bool], str] = {}
        for q in arrivals_due(self.state, self.side)[:ARRIVAL_ROWS]:  # the sheet's rows
            world, fleet = plan.get(q.unit_id, ("", ""))
            if not world:
                continue
            if unit_type(self.side, q.code).is_ship:
                key = (world, q.code == "M")  # monitors never move: a fleet of their own
                if key not in formed:
                    formed[key] = self._new_name("N")
                fleet = formed[key]
            # Every row of the sheet's arrivals block, as the sheet lists them.
            orders.arrivals.append(Arrival(q.unit_id, world, fleet))

    def _new_name(self, kind: str) -> str:
        n = 1
        while f"{self.prefix}{kind}{n}" in self.names_used:
            n += 1
        name = f"{self.prefix}{kind}{n}"
        self.names_used.add(name)
        return name

    def _move(self, fleet: str, route: list[str], lines: dict[str, list[Action]]) -> None:
        origin = self.pos[fleet]
        text = " > ".join([fleet, *route])
        lines.setdefault(origin, []).append(Action("move", fleet=fleet, route=route, text=text))
        self.pos[fleet] = route[-1]

    def _load(self, fleet: str, lines: dict[str, list[Action]], prefer_jump: bool) -> None:
        """Take spare troops aboard from own Worlds in the fleet's system, within capacity.

        Not after the fleet attacked this turn: its landed troops may have freed room, but a
        sheet is checked without knowing how the landing went, so the room is not counted."""
        if fleet in self.attackers:
            return
        system = self.pos[fleet]
        room = free_capacity(self.cargo[fleet], self.rules)
        for code in self.my_worlds:
            if room <= 0 or self.planets[code].system != system:
                continue
            spare = sorted(
                self.spare_troops.get(code, []),
                key=lambda u: (0 if (u.code == "JT") == prefer_jump else 1, u.id),
            )
            taken = spare[:room]
            if not taken:
                continue
            ids = [u.id for u in taken]
            text = f"{fleet} load {' '.join(ids)} from {code}"
            lines.setdefault(system, []).append(
                Action("load", fleet=fleet, planet=code, units=ids, text=text)
            )
            self.cargo[fleet] = self.cargo[fleet] + taken
            self.spare_troops[code] = [u for u in self.spare_troops[code] if u not in taken]
            room -= len(taken)

    def _main_actions(
        self,
        segment: int,
        lines: dict[str, list[Action]],
        moved: set[str],
        attacked: dict[str, list[int]],
    ) -> None:
        main = self.main
        if not main:
            return
        here = self.pos[main]
        # followers waiting in the main fleet's system join it
        for name in sorted(self.cargo):
            if name == main or self.is_guard(name) or self.is_scouts(name):
                continue
            if (
                self.pos.get(name) == here
                and fleet_movement(self.cargo[name]) > 0
                and not self._fetching(name)
            ):
                lines.setdefault(here, []).append(
                    Action("join", fleet=main, target=name, text=f"{main} join {name}")
                )
                self.cargo[main] = self.cargo[main] + self.cargo.pop(name)
                del self.pos[name]
        if segment == 1:
            self._split_off(lines)
        target = self.planets.get(self.target) if self.target else None
        self._load(main, lines, prefer_jump=bool(target and target.klass != "A"))
        if segment == 1:
            self._split_convoy(main, lines)
        if target is None:
            if self.peace:
                self._go_home(main, lines, moved)
            return
        if here == target.system:
            landing = [t for t in troops_in(self.cargo[main]) if can_land(t, target)]
            before = attacked.get(target.code, [])
            # renew the fight once, in the segment after a landing (the planet may be disputed)
            renew = before == [segment - 1]
            own_there = any(u.planet == target.code for u in self.view.units)
            if landing or renew or (own_there and not before):
                text = f"{main} attack {target.code} auto"
                lines.setdefault(here, []).append(
                    Action("attack", fleet=main, planet=target.code, text=text)
                )
                attacked.setdefault(target.code, []).append(segment)
                self.attackers.add(main)
                # the landing troops leave the fleet
                self.cargo[main] = [u for u in self.cargo[main] if u not in landing]
            return
        units = self.cargo[main]
        if self.view.enemy_power_at(target.system) > 1.5 * power(units):
            return  # wait for reinforcements where it is
        route = self.path(here, target.system, self.deep_systems() - {here})
        leg = self._safe_leg(here, route, units)
        if leg:
            self._move(main, leg, lines)
            moved.add(main)

    def _safe_leg(self, here: str, route: list[str], units: list[Unit]) -> list[str]:
        """One segment's leg of ``route``, stopping before a system where a known enemy fleet
        is stronger than this one (and in deep space, only one step in segment 1)."""
        points = fleet_movement(units)
        if self.state.map.systems[here].deep:
            return route[:1]
        leg = self.leg(here, route, points, stop_at_enemy=True)
        mine = power(units)
        for i, system in enumerate(leg):
            if self.view.enemy_power_at(system) > mine:
                return leg[:i]
            if self.peace and system in self.hostile_systems():
                return leg[:i]
        return leg

    def _split_off(self, lines: dict[str, list[Action]]) -> None:
        """Segment 1: scouts of the main fleet form a scout fleet; at the capital, a light
        warship of the main fleet stays behind as home guard if there is none."""
        main = self.main
        here = self.pos[main]
        units = self.cargo[main]
        scouts = [u for u in units if u.code == "SC"]
        have_scouts = any(self.is_scouts(n) for n in self.cargo)
        if scouts and not have_scouts and not self.peace and len(units) > len(scouts):
            name = self._new_name("S")
            ids = [scouts[0].id]
            text = f"{main} split {name} {ids[0]}"
            lines.setdefault(here, []).append(
                Action("split", fleet=main, units=ids, target=name, text=text)
            )
            self.cargo[main] = [u for u in units if u.id not in ids]
            self.cargo[name] = [scouts[0]]
            self.pos[name] = here
        units = self.cargo[main]
        guards = [n for n in self.cargo if self.is_guard(n)]
        light = sorted(
            (u for u in units if u.type().kind == "light" and u.code != "SC"),
            key=lambda u: (u.type().cost, u.id),
        )
        warships = [u for u in units if u.type().is_warship]
        if here == self.capital and not guards and light and len(warships) > 2:
            name = self._new_name("G")
            self.guards.add(name)
            pick = light[0]
            text = f"{main} split {name} {pick.id}"
            lines.setdefault(here, []).append(
                Action("split", fleet=main, units=[pick.id], target=name, text=text)
            )
            self.cargo[main] = [u for u in units if u.id != pick.id]
            self.cargo[name] = [pick]
            self.pos[name] = here

    def _fetching(self, fleet: str) -> bool:
        """Whether the fleet is transports only, empty, with troops to fetch somewhere."""
        units = self.cargo[fleet]
        if troops_in(units) or any(u.type().is_warship for u in units):
            return False
        if free_capacity(units, self.rules) <= 0:
            return False
        return any(us for us in self.spare_troops.values())

    def _split_convoy(self, fleet: str, lines: dict[str, list[Action]]) -> str:
        """Empty transports of a fleet with warships leave as a convoy to fetch troops from a
        World elsewhere (the warships go on at their own speed; the convoy joins later).
        Returns the convoy's name, or an empty string when nothing split off."""
        if self.peace:
            return ""
        here = self.pos[fleet]
        units = self.cargo[fleet]
        transports = [u for u in units if u.code in ("TR", "AT")]
        if not transports or any(u.type().kind in ("troop", "pd", "outpost") for u in units):
            return ""
        if not any(us and self.planets[c].system != here for c, us in self.spare_troops.items()):
            return ""
        staying = [u for u in units if u not in transports]
        hangar = sum(u.type().fighters for u in staying)
        fighters = sum(1 for u in staying if u.type().kind == "fighter")
        if not any(u.type().is_warship for u in staying) or fighters > hangar:
            return ""
        name = self._new_name("C")
        ids = [u.id for u in transports]
        text = f"{fleet} split {name} {' '.join(ids)}"
        lines.setdefault(here, []).append(
            Action("split", fleet=fleet, units=ids, target=name, text=text)
        )
        self.cargo[fleet] = staying
        self.cargo[name] = transports
        self.pos[name] = here
        return name

    def _go_home(self, fleet: str, lines: dict[str, list[Action]], moved: set[str]) -> None:
        """Peace: a fleet away from its Worlds comes back to the nearest one."""
        here = self.pos[fleet]
        if here in self.world_systems or not self.world_systems or fleet in moved:
            return
        avoid = self.hostile_systems() | self.deep_systems()
        avoid.discard(here)
        dist = distances_from(self.state, self.world_systems, avoid)
        if here not in dist:
            return
        best = min(self.world_systems, key=lambda w: (len(self.path(here, w, avoid)) or 99, w))
        route = self.path(here, best, avoid)
        leg = self._safe_leg(here, route, self.cargo[fleet])
        if leg:
            self._move(fleet, leg, lines)
            moved.add(fleet)

    def _scout_actions(self, segment: int, lines: dict[str, list[Action]], moved: set[str]) -> None:
        """Scout fleets go to the target system (or the nearest enemy system) to look in."""
        if self.peace:
            for name in sorted(self.cargo):
                if self.is_scouts(name):
                    self._go_home(name, lines, moved)
            return
        enemy_systems = sorted(
            {p.system for p in self.planets.values() if p.owner == self.view.enemy and p.marker}
        )
        for name in sorted(self.cargo):
            if not self.is_scouts(name) or name in moved:
                continue
            here = self.pos[name]
            goal = self.planets[self.target].system if self.target else ""
            if not goal or goal == here:
                others = [s for s in enemy_systems if s != here]
                if not others:
                    continue
                dist = distances_from(self.state, [here], self.deep_systems())
                goal = min(others, key=lambda s: (dist.get(s, 999), s))
            if here in enemy_systems and segment > 1:
                continue  # it looked this turn; it moves on next turn
            route = self.path(here, goal, self.deep_systems() - {here})
            leg = self.leg(here, route, fleet_movement(self.cargo[name]), stop_at_enemy=False)
            # stop in the first enemy-occupied system: that is where the stealth roll is made
            for i, system in enumerate(leg):
                if system in enemy_systems or self.view.enemy_fleets.get(system):
                    leg = leg[: i + 1]
                    break
            if leg:
                self._move(name, leg, lines)
                moved.add(name)

    def _follower_actions(
        self, segment: int, lines: dict[str, list[Action]], moved: set[str]
    ) -> None:
        """Other fleets: fetch troops if they have empty transports, else join the main (in
        segment 1 the empty transports of a fleet with warships split off as a convoy)."""
        queue = sorted(self.cargo)
        handled: set[str] = set()
        while queue:
            name = queue.pop(0)
            if (
                name in handled
                or name not in self.cargo
                or name == self.main
                or self.is_guard(name)
                or self.is_scouts(name)
                or name in moved
                or fleet_movement(self.cargo[name]) == 0
            ):
                continue
            handled.add(name)
            here = self.pos[name]
            prefer_jump = bool(self.target and self.planets[self.target].klass != "A")
            self._load(name, lines, prefer_jump)
            if self.peace:
                self._go_home(name, lines, moved)
                continue
            if segment == 1 and (convoy := self._split_convoy(name, lines)):
                queue.append(convoy)
            units = self.cargo[name]
            goal = self.pos.get(self.main, "") if self.main else ""
            if free_capacity(units, self.rules) > 0 and not troops_in(units):
                pickup = [
                    self.planets[c].system for c, us in sorted(self.spare_troops.items()) if us
                ]
                if pickup:
                    dist = distances_from(self.state, [here], self.deep_systems())
                    goal = min(pickup, key=lambda s: (dist.get(s, 999), s))
            if not goal or goal == here:
                continue
            route = self.path(here, goal, self.deep_systems() - {here})
            leg = self._safe_leg(here, route, units)
            if leg:
                self._move(name, leg, lines)
                moved.add(name)

    # -- battle orders -----------------------------------------------------------------------
    def battle_orders(self, orders: Orders) -> None:
        """Standing orders for every fleet the side has at the start of the turn: close when
        stronger than the enemy known within two jumps, stand off when weaker, break off after
        round 1 when much weaker."""
        for fleet in sorted(self.view.fleets, key=lambda f: f.name):
            units = self.view.fleet_units(fleet.name)
            if not units:
                continue
            near = {fleet.system} | {n for n, _ in self.state.map.neighbours(fleet.system)}
            for n in list(near):
                near |= {m for m, _ in self.state.map.neighbours(n)}
            enemy = max((self.view.enemy_power_at(s) for s in near), default=0.0)
            mine = power(units)
            if enemy <= mine:
                stance, brk = "close", 0
            elif mine * 2 >= enemy:
                stance, brk = "stand off", 0
            else:
                stance, brk = "stand off", 1
            priority = "transport" if mine > 2 * max(enemy, 1) else "capital"
            orders.battle_orders.append(BattleOrders(fleet.name, stance, priority, brk))


__all__ = ["KnownView", "computer_orders", "known_view", "power"]
