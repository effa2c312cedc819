"""Computer players: orders a simple, plausible empire would give.

A computer player sees exactly what a human in its seat would: it reads `visibility.
player_view` and nothing else of the state, so it cannot find a hidden fleet or a flight in
hyperspace (the only other thing it consults is the order checker, the same feedback a human
gets from ``refassist check``, to pick a homeworld on the set-up sheet).  Its habits:

* expand: send small fleets of one or two squadrons to free systems in sight, short hops
  first, outward from home until an enemy is seen and then towards it (a bridge of worlds to
  the front), keeping one squadron at every world without a facility (a world with nothing of
  its owner's left becomes unowned);
* gather: move the spare squadrons of every big stack one jump towards the *goal* - the known
  enemy world nearest home, or before any contact the edge of the expansion - to a world of
  its own or a free system; the homeworld keeps four squadrons, or as much as the enemy
  squadrons it sees within reach, but never more than half of what is there (players who keep
  everything at home because their neighbour does never fight);
* attack: strike enemy systems in sight whose visible defence (squadrons, monitors, naval base,
  minefield) the stack at hand outnumbers by half again, the quickest strike first and none
  longer than `STRIKE_YEARS`, with Fast squadrons alone when they suffice and every spare
  Assault squadron otherwise (facilities are captured rather than destroyed); treaty and trade
  partners are left alone; squadrons stranded in a partner's system come home;
* build: squadrons at the yard nearest the goal (Assault ones more often at war, Fast ones from
  TL2), up to about a dozen per world it owns (`FLEET_PER_WORLD`), then Strike upgrades rather
  than more squadrons; Genetics Labs and Orbital Production Centres, more often in peace;
  monitors at a threatened homeworld; never beyond its budget (stockpile plus last income);
* talk: accept about half of the trade agreements and a third of the treaties offered,
  sometimes offer one (mostly trade) to a neighbour, now and then declare war on the nearest
  trade partner (trade partners do not fight, 5.0), and send an occasional message.

Everything is drawn from a generator seeded by the game seed, the player and the year, so the
same game replays the same orders.  The habits were tuned so that a 12-turn demo of six players
on a generated sector has its first battles within the twelve turns, and a 64-player game does
not pile up squadrons turn after turn (`docs/benchmarks.md`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...dice import player_rng
from ...geometry.hexcache import distance, within
from .movement_rules import arrival_year, journey_years, max_departures
from .orders import Diplomacy, MessageOrder, Move, Orders, Purchase
from .rules import complete
from .state import SETUP_YEAR, Fleet
from .view import PlayerView, SystemView
from .visibility import player_view

#: Most lines of each kind the turn sheet has room for (`sheet.py`).
MAX_MOVE_LINES = 16
MAX_PURCHASE_LINES = 20
MAX_DIPLOMACY_LINES = 8
#: Chance each turn of declaring war on the nearest trade partner (see `diplomacy`).
WAR_ON_TRADE_PARTNER = 0.25
MAX_MESSAGE_LINES = 10

#: Combat values used to judge a target (the same as the rules' table).
_CV = {"F": 1, "S": 2, "A": 1, "Fs": 1, "Ms": 0}

GREETINGS = (
    "Greetings from the {me} Hegemony. We seek peace along our border.",
    "The {me} fleet is watching. Keep your squadrons away from our worlds.",
    "{me} proposes that our peoples trade rather than fight.",
    "Our scouts report your ships near our space. Explain yourselves.",
    "The council of {me} sends its regards and a reminder of our strength.",
)


def computer_orders(
    state: Any, player: str, seed: int, rules: Mapping[str, Any] | None = None
) -> Orders:
    """The orders of computer player ``player`` for the current year (deterministic)."""
    merged = complete(rules)
    view = player_view(state, player, merged)
    rng = player_rng(seed, player, view.year)
    orders = Orders(player=player, year=view.year)
    if view.eliminated or view.finished:
        return orders
    if view.year == SETUP_YEAR:
        _choose_homeworld(state, view, orders, rng, merged)
        return orders
    planner = _Planner(view, rng, merged)
    planner.diplomacy(orders)
    planner.moves(orders)
    planner.purchases(orders)
    planner.messages(orders)
    return orders


def _choose_homeworld(
    state: Any, view: PlayerView, orders: Orders, rng: random.Random, rules: Mapping[str, Any]
) -> None:
    """Pick a class A system the checker accepts (as a human would after a ``check``)."""
    if view.homeworld:
        orders.homeworld = view.homeworld
        return
    from .validate import validate_orders

    candidates = sorted(s.hex for s in view.systems if s.resource_class == "A")
    rng.shuffle(candidates)
    for hex_ in candidates[:20]:
        orders.homeworld = hex_
        if not any(
            p.severity == "error" for p in validate_orders(state, view.player, orders, rules)
        ):
            return
    orders.homeworld = ""


#: Squadrons a stack must spare before it is moved towards the front.
STAGE_MIN = 6
#: Longest journey, in years, of a strike worth launching.
STRIKE_YEARS = 4
#: Colonising journeys up to this many hexes go outward first; longer ones nearest first.
SHORT_HOP = 4
#: Squadrons a computer player keeps per world it owns (plus 20) before it stops buying more.
FLEET_PER_WORLD = 12


class _Planner:
    """One turn's decisions for one computer player, from its view."""

    def __init__(self, view: PlayerView, rng: random.Random, rules: Mapping[str, Any]) -> None:
        self.view = view
        self.rng = rng
        self.rules = rules
        self.me = view.player
        self.reach = view.best_range
        self.by_hex = {s.hex: s for s in view.systems}
        self.sighted = [s for s in view.systems if s.status == "in sight"]
        self.mine = [s for s in self.sighted if s.owner == self.me]
        self.partners = {
            r.a if r.b == self.me else r.b for r in view.relations
        }  # treaty or trade: not attacked
        self.targeted = {f.destination for f in view.own_flights}
        self.facility_hexes = {f.hex for f in view.own_facilities}
        # What is at each hex of ours and may leave (building items finish before departures).
        self.available: dict[str, Fleet] = {}
        for force in view.own_forces:
            self.available[force.hex] = self.available.get(force.hex, Fleet()) + Fleet(
                F=force.fleet.F, S=force.fleet.S, A=force.fleet.A, Fs=force.fleet.Fs
            )
        self.leaving: dict[str, Fleet] = {}
        self._spare: dict[str, Fleet] = {}
        self._neighbours: list[str] | None = None
        #: Hexes within a jump of a world of ours (where an attack can be launched against).
        self.reachable: set[str] = set()
        for m in self.mine:
            self.reachable.update(within(m.hex, self.reach))
        self.home = view.homeworld or (self.mine[0].hex if self.mine else "")
        self.enemies = [s for s in self.sighted if self.hostile(s.owner)]
        self.threat = sum(
            _enemy_cv(s, self.me, self.partners)
            for s in self.sighted
            if self.home and distance(s.hex, self.home) <= self.reach
        )
        self.goal = self.find_goal()

    def hostile(self, owner: str) -> bool:
        return owner not in ("", self.me) and owner not in self.partners

    def find_goal(self) -> str:
        """Where spare squadrons gather: the known enemy world nearest home, or before any
        contact the free system in sight farthest from home (the edge of the expansion)."""
        if not self.home:
            return ""
        known = [s.hex for s in self.enemies] or [
            s.hex for s in self.view.systems if s.status == "seen" and self.hostile(s.owner)
        ]
        if known:
            return min(known, key=lambda h: (distance(h, self.home), h))
        free = [s.hex for s in self.sighted if not s.owner]
        if free:
            return max(free, key=lambda h: (distance(h, self.home), h))
        return ""

    # -- diplomacy ---------------------------------------------------------------------------
    def offers(self) -> list[tuple[str, str]]:
        """(player, kind) of the proposals received, read from the view's sentences."""
        out = []
        for text in self.view.proposals_received:
            for name in self.view.players:
                if text.startswith(f"{name} proposes a treaty"):
                    out.append((name, "treaty"))
                elif text.startswith(f"{name} proposes a trade agreement"):
                    out.append((name, "trade"))
        return out

    def neighbours(self) -> list[str]:
        """Players owning systems in sight, nearest first."""
        if self._neighbours is None:
            self._neighbours = self._find_neighbours()
        return self._neighbours

    def _find_neighbours(self) -> list[str]:
        seen: dict[str, int] = {}
        for s in self.sighted:
            if s.owner in ("", self.me):
                continue
            d = min((distance(s.hex, m.hex) for m in self.mine), default=99)
            seen[s.owner] = min(seen.get(s.owner, 99), d)
        return sorted(seen, key=lambda p: (seen[p], p))

    def diplomacy(self, orders: Orders) -> None:
        related = {(r.kind, r.a if r.b == self.me else r.b) for r in self.view.relations}
        active = set(self.view.players)
        lines: list[Diplomacy] = []
        neighbours = self.neighbours()
        # A trade partner next door is left alone, but not for ever: now and then the nearest
        # one is declared war on (6.31a: it costs this turn's trade), so that empires which
        # trade still come to blows as players' do.  Nothing else is said to it this turn.
        traders = [
            o for o in neighbours if ("trade", o) in related and ("treaty", o) not in related
        ]
        enemy = traders[0] if traders and self.rng.random() < WAR_ON_TRADE_PARTNER else ""
        if enemy:
            lines.append(Diplomacy(action="declare war", other=enemy))
            # The war is in force before this turn's departures, and battles start only when
            # a fleet emerges (5.0): its worlds are targets from this sheet on.
            self.partners.discard(enemy)
            self.enemies = [s for s in self.sighted if self.hostile(s.owner)]
            self.goal = self.find_goal()
        for other, kind in self.offers():
            if (kind, other) in related or other not in active or other == enemy:
                continue
            # Trade pays; a treaty only ties the hands, so fewer are accepted.
            if self.rng.random() < (0.5 if kind == "trade" else 0.3):
                lines.append(Diplomacy(action=f"propose {kind}", other=other))
                related.add((kind, other))
        if neighbours and self.rng.random() < 0.15:
            other = self.rng.choice(neighbours)
            kind = "trade" if self.rng.random() < 0.75 else "treaty"
            if (kind, other) not in related and other != enemy:
                lines.append(Diplomacy(action=f"propose {kind}", other=other))
        orders.diplomacy = lines[:MAX_DIPLOMACY_LINES]

    def messages(self, orders: Orders) -> None:
        neighbours = self.neighbours()
        if neighbours and self.rng.random() < 0.12 and len(orders.messages) < MAX_MESSAGE_LINES:
            to = self.rng.choice(neighbours)
            text = self.rng.choice(GREETINGS).format(me=self.me)
            orders.messages.append(MessageOrder(to=to, text=text))

    # -- moves --------------------------------------------------------------------------------
    def spare(self, hex_: str) -> Fleet:
        """Squadrons at ``hex_`` that may leave without giving up the system.

        The homeworld keeps 4, or as much combat value as the enemy squadrons it sees within
        reach but never more than half its squadrons (a player who keeps everything at home
        because its neighbour does never fights); a world with a facility keeps none (the
        facility holds it), another world one; squadrons in a system that is not ours hold
        nothing and may all leave.
        """
        found = self._spare.get(hex_)
        if found is not None:
            return found
        have = self.available.get(hex_, Fleet()) - self.leaving.get(hex_, Fleet())
        system = self.by_hex.get(hex_)
        ours = system is not None and system.owner == self.me
        if hex_ == self.view.homeworld and ours:
            keep = max(4, min(self.threat, have.squadrons // 2))
        elif not ours or hex_ in self.facility_hexes:
            keep = 0
        else:
            keep = 1
        found = self._spare[hex_] = _trim(have, keep)
        return found

    def send(self, orders: Orders, origin: str, destination: str, fleet: Fleet) -> None:
        year = self.view.year
        orders.moves.append(
            Move(
                year=year,
                fleet=fleet,
                origin=origin,
                destination=destination,
                arrival=arrival_year(year, origin, destination, fleet),
            )
        )
        self.leaving[origin] = self.leaving.get(origin, Fleet()) + fleet
        self._spare.pop(origin, None)
        self.targeted.add(destination)

    def moves(self, orders: Orders) -> None:
        """Attack what the stacks clearly outnumber, expand, and move spare squadrons towards
        the goal (one departure is kept for that whenever there is a stack to move)."""
        limit = min(max_departures(self.rules), MAX_MOVE_LINES)
        sources = [h for h in self.available if h in self.by_hex]
        sources.sort(key=lambda h: (-self.available[h].squadrons, h))
        self.attack(orders, sources, limit)
        keep_one = self.goal and any(self.spare(h).squadrons >= STAGE_MIN for h in sources)
        self.expand(orders, sources, limit - 1 if keep_one else limit)
        self.stage(orders, sources, limit)
        self.regroup(orders, sources, limit)
        self.expand(orders, sources, limit)

    def regroup(self, orders: Orders, sources: list[str], cap: int) -> None:
        """Bring squadrons left in other players' systems (a partner took the system they
        were sent to) back to the nearest world of ours, nearest the goal first."""
        for origin in sources:
            if len(orders.moves) >= cap:
                return
            system = self.by_hex.get(origin)
            if system is None or system.owner == self.me:
                continue
            spare = self.spare(origin)
            if spare.squadrons < 1:
                continue
            homes = [m.hex for m in self.mine if 0 < distance(origin, m.hex) <= self.reach]
            if not homes:
                continue
            goal = self.goal or self.home
            step = min(
                homes,
                key=lambda h: (distance(origin, h), distance(h, goal) if goal else 0, h),
            )
            self.send(orders, origin, step, _take_squadrons(spare, spare.squadrons))

    def attack(self, orders: Orders, sources: list[str], limit: int) -> None:
        """Strike the enemy systems the stacks clearly outnumber, quickest strike first.

        A strike is worth launching only if it lands soon (`STRIKE_YEARS`): the target may
        change meanwhile, and a fleet in hyperspace for seven years is a fleet not fighting.
        """
        targets = {t.hex: _need(t, self.me, self.partners) for t in self.attack_targets()}
        while targets and len(orders.moves) < limit:
            best: tuple[tuple[int, int, str, int], str, Fleet] | None = None
            for hex_, need in targets.items():
                for origin in sources:
                    d = distance(origin, hex_)
                    if not 0 < d <= self.reach:
                        continue
                    spare = self.spare(origin)
                    cv = _cv(spare)
                    if cv < need:
                        continue
                    # Fast squadrons alone cross two hexes a year: strike with them when
                    # they are enough, so the target has less time to change.
                    fleet = Fleet(Fs=need) if spare.Fs >= need else _take_cv(spare, need)
                    years = journey_years(d, fleet)
                    if years > STRIKE_YEARS:
                        continue
                    key = (years, need, hex_, -cv)
                    if best is None or key < best[0]:
                        best = (key, origin, fleet)
            if best is None:
                return
            (_, _, hex_, _), origin, fleet = best
            self.send(orders, origin, hex_, fleet)
            del targets[hex_]

    def expand(self, orders: Orders, sources: list[str], cap: int) -> None:
        """Colonise free systems in sight from each stack (`_expansion_key`); an empire that
        owns only its homeworld first takes the nearest system too, for next turn's income."""
        free = [
            s
            for s in self.sighted
            if not s.owner and s.hex not in self.targeted and all(f.owner == "" for f in s.forces)
        ]
        for origin in sources:
            if len(orders.moves) >= cap:
                return
            if self.spare(origin).squadrons < 1:
                continue
            candidates = [s for s in free if 0 < distance(origin, s.hex) <= self.reach]
            near = sorted(candidates, key=lambda s: self._expansion_key(origin, s.hex))
            if len(self.mine) == 1 and candidates:
                nearest = min(candidates, key=lambda s: (distance(origin, s.hex), s.hex))
                near.remove(nearest)
                near.insert(0, nearest)
            for target in near:
                if len(orders.moves) >= cap:
                    return
                if target.hex in self.targeted:
                    continue
                spare = self.spare(origin)
                if spare.squadrons < 1:
                    break
                size = 2 if spare.squadrons >= 6 and self.rng.random() < 0.5 else 1
                self.send(orders, origin, target.hex, _take_squadrons(spare, size))

    def _expansion_key(self, origin: str, hex_: str) -> tuple[int, int, int, str]:
        """Short hops first; among them, once an enemy is known the one nearest the goal (a
        bridge of worlds towards the enemy), before that the one furthest from home (the
        empire grows outward and meets its neighbours sooner); longer journeys nearest first."""
        d = distance(origin, hex_)
        if d > SHORT_HOP:
            return (1, d, 0, hex_)
        if self.enemies and self.goal:
            return (0, distance(hex_, self.goal), d, hex_)
        return (0, -distance(self.home, hex_) if self.home else 0, d, hex_)

    def stage(self, orders: Orders, sources: list[str], cap: int) -> None:
        """Send every spare squadron of the big stacks one jump closer to the goal, to a world
        of the player's or a free system (which the stack then holds), so they strike (or
        colonise) from the edge instead of idling at home."""
        if not self.goal:
            return
        goal = self.goal
        free = {
            s.hex
            for s in self.sighted
            if not s.owner and s.hex not in self.targeted and all(f.owner == "" for f in s.forces)
        }
        mine = [m.hex for m in self.mine]
        for origin in sorted(sources, key=lambda h: (-self.spare(h).squadrons, h)):
            if len(orders.moves) >= cap:
                return
            spare = self.spare(origin)
            if spare.squadrons < STAGE_MIN:
                return
            here = distance(origin, goal)
            steps = [
                h
                for h in mine + sorted(free)
                if h != origin and distance(origin, h) <= self.reach and distance(h, goal) < here
            ]
            if not steps:
                continue
            step = min(steps, key=lambda h: (distance(h, goal), distance(origin, h), h))
            free.discard(step)
            self.send(orders, origin, step, _take_squadrons(spare, spare.squadrons))

    def attack_targets(self) -> list[SystemView]:
        """Enemy systems in sight within reach of a world of ours, the cheapest first."""
        out = []
        for s in self.enemies:
            if s.hex in self.targeted:
                continue
            if s.hex in self.reachable:
                out.append(s)
        return sorted(out, key=lambda s: (_need(s, self.me, self.partners), s.hex))

    # -- production ---------------------------------------------------------------------------
    def purchases(self, orders: Orders) -> None:
        """Build, never beyond the budget (stockpile plus last turn's income).

        Squadrons are bought at the yard nearest the goal, up to a fleet of `FLEET_PER_WORLD`
        squadrons a world (plus 20); beyond that the points make the fleet better instead of
        bigger (Strike upgrades of Fleet squadrons) or are saved.  An empire whose fleet grew
        without end would only make every battle longer, not the game better.
        """
        budget = self.view.stockpile + self.view.income_last
        tl = self.view.tech_level
        yards = [
            s.hex for s in self.mine if s.resource_class == "A" or s.spacedock
        ]  # FTL squadrons are built here
        lines: list[Purchase] = []
        fleet_size = sum(f.fleet.squadrons for f in self.view.own_forces) + sum(
            f.fleet.squadrons for f in self.view.own_flights
        )
        room = max(0, FLEET_PER_WORLD * len(self.mine) + 20 - fleet_size)

        def buy(location: str, item: str, quantity: int, cost: int) -> bool:
            nonlocal budget
            if quantity < 1 or cost * quantity > budget or len(lines) >= MAX_PURCHASE_LINES:
                return False
            lines.append(Purchase(location=location, item=item, quantity=quantity))
            budget -= cost * quantity
            return True

        def squadrons(location: str, item: str, quantity: int, cost: int) -> None:
            nonlocal room
            quantity = min(quantity, room)
            if buy(location, item, quantity, cost):
                room -= quantity

        home = self.view.homeworld if self.view.homeworld in yards else (yards[0] if yards else "")
        # Squadrons are built at the yard nearest the goal, so they start at the front.
        front = (
            min(yards, key=lambda h: (distance(h, self.goal), h)) if yards and self.goal else home
        )
        if home and self.threat and self.rng.random() < 0.5:
            # Monitors guard the homeworld so that its squadrons can leave (they never move,
            # and count double in battle): as many as half the threat calls for.
            system = self.by_hex.get(home)
            monitors = sum(f.M for f in self.view.own_forces if f.hex == home)
            wanted = self.threat // 4 - monitors
            if system is not None and system.resource_class in ("A", "B", "C") and wanted > 0:
                buy(home, "M", min(wanted, max(1, budget // 8)), 2)
        if budget >= 12 and self.rng.random() < (0.3 if self.enemies else 0.6):
            rich = sorted(self.mine, key=lambda s: s.hex)
            self.rng.shuffle(rich)
            for s in rich:
                kind = self.rng.choice(("GL", "OPC"))
                built = sum(
                    f.count for f in self.view.own_facilities if f.hex == s.hex and f.kind == kind
                )
                ordered = sum(p.quantity for p in lines if p.location == s.hex and p.item == kind)
                if built + ordered < 5 and buy(s.hex, kind, 1, 3):
                    break
        if tl >= 2 and home and self.rng.random() < 0.2:
            buy(home, "PROBE", 1, 1)
        if front:
            assault = (1 + budget // 20) if self.enemies and self.rng.random() < 0.6 else 0
            if not assault and self.rng.random() < 0.35:
                assault = 1
            squadrons(front, "A", assault, 2)
            if tl >= 2:
                # Fast squadrons go twice as far in a year: they colonise the edge sooner and
                # are the core of a war fleet.
                squadrons(front, "Fs", max(1, budget // 6), 3)
            squadrons(front, "F", budget // 2, 2)
            if not room:
                here = self.available.get(front, Fleet()) - self.leaving.get(front, Fleet())
                buy(front, "SU", min(budget, here.F), 1)
        orders.purchases = lines


def _cv(fleet: Fleet) -> int:
    """Combat value of a fleet's squadrons (`_CV`, spelled out: it is asked very often)."""
    return fleet.F + 2 * fleet.S + fleet.A + fleet.Fs


def _enemy_cv(system: SystemView, me: str, partners: set[str]) -> int:
    """Combat value of the squadrons of players we are not allied with at a system in sight."""
    total = 0
    for force in system.forces:
        hostile = force.owner and force.owner != me and force.owner not in partners
        if hostile and not force.building:
            total += _cv(force.fleet) + 2 * force.M
    return total


def _defence(system: SystemView, me: str) -> int:
    """The combat value defending a system, as far as the player can see it: every other
    player's squadrons, allied or not, and the naval base."""
    return _enemy_cv(system, me, set()) + (2 if system.naval_base and system.owner else 0)


def _need(system: SystemView, me: str, partners: set[str]) -> int:
    """Combat value that clearly outnumbers a system's visible defence: half as much again
    (at least one more), plus one per minefield point (a mine kills on 4-6 before the
    battle).  A one-squadron garrison falls to two."""
    defence = _defence(system, me)
    return defence + max(1, (defence + 1) // 2) + system.mines


def _trim(fleet: Fleet, keep: int) -> Fleet:
    """``fleet`` less ``keep`` squadrons, the weakest kept first (Fleet, Fast, Strike, Assault)."""
    counts = {f: getattr(fleet, f) for f in ("F", "Fs", "S", "A")}
    for f in ("F", "Fs", "S", "A"):
        drop = min(keep, counts[f])
        counts[f] -= drop
        keep -= drop
    return Fleet(**counts)


def _take_squadrons(spare: Fleet, n: int) -> Fleet:
    """``n`` squadrons for a colonising fleet: Fast ones first (they are quicker), then Fleet."""
    out = {f: 0 for f in ("F", "Fs", "S", "A")}
    for f in ("Fs", "F", "S", "A"):
        take = min(n, getattr(spare, f))
        out[f] = take
        n -= take
    return Fleet(**out)


def _take_cv(spare: Fleet, need: int) -> Fleet:
    """An attack fleet worth at least ``need`` CV, with every spare Assault squadron."""
    out = {"A": spare.A, "S": 0, "F": 0, "Fs": 0}
    cv = spare.A
    for f in ("S", "F", "Fs"):
        per = _CV[f]
        while cv < need and out[f] < getattr(spare, f):
            out[f] += 1
            cv += per
    return Fleet(**out)
