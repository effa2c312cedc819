"""Computer players: orders a simple, plausible empire would give.

A computer player sees exactly what a human in its seat would: it reads `visibility.
player_view` and nothing else of the state, so it cannot find a hidden fleet or a flight in
hyperspace (the only other thing it consults is the order checker, the same feedback a human
gets from ``refassist check``, to pick a homeworld on the set-up sheet).  Its habits:

* expand: send small fleets of one or two squadrons to the nearest unowned systems in sight,
  keeping a garrison at home and one squadron at every world without a facility (a world with
  nothing of its owner's left becomes unowned);
* attack: strike an enemy system in sight whose visible defence (squadrons, monitors, naval
  base) the fleet at hand outnumbers clearly, taking its Assault squadrons along so facilities
  are captured rather than destroyed; treaty and trade partners are left alone;
* build: Fleet squadrons at its class A worlds, an Assault squadron now and then, Fast
  squadrons once TL2 allows, Genetics Labs and Orbital Production Centres when rich, monitors at
  a threatened homeworld; never beyond its budget (stockpile plus last turn's income);
* talk: accept about half of the treaties and trade agreements offered, sometimes offer one to
  a neighbour, and send an occasional message.

Everything is drawn from a generator seeded by the game seed, the player and the year, so the
same game replays the same orders.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from ...hexmap import distance
from .movement_rules import arrival_year, max_departures
from .orders import Diplomacy, MessageOrder, Move, Orders, Purchase
from .state import SETUP_YEAR, Fleet
from .view import PlayerView, SystemView
from .visibility import default_rules, player_view

#: Most lines of each kind the turn sheet has room for (`sheet.py`).
MAX_MOVE_LINES = 16
MAX_PURCHASE_LINES = 20
MAX_DIPLOMACY_LINES = 8
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


def _rng(seed: int, player: str, year: int) -> random.Random:
    digest = hashlib.sha256(f"refassist-ai:{seed}:{player}:{year}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def computer_orders(
    state: Any, player: str, seed: int, rules: Mapping[str, Any] | None = None
) -> Orders:
    """The orders of computer player ``player`` for the current year (deterministic)."""
    merged = default_rules()
    merged.update(rules or {})
    view = player_view(state, player, merged)
    rng = _rng(seed, player, view.year)
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


class _Planner:
    """One turn's decisions for one computer player, from its view."""

    def __init__(self, view: PlayerView, rng: random.Random, rules: Mapping[str, Any]) -> None:
        self.view = view
        self.rng = rng
        self.rules = rules
        self.me = view.player
        self.reach = view.best_range
        self.mine = [s for s in view.systems if s.owner == self.me and s.status == "in sight"]
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
        seen: dict[str, int] = {}
        for s in self.view.systems:
            if s.status != "in sight" or s.owner in ("", self.me):
                continue
            d = min((distance(s.hex, m.hex) for m in self.mine), default=99)
            seen[s.owner] = min(seen.get(s.owner, 99), d)
        return sorted(seen, key=lambda p: (seen[p], p))

    def diplomacy(self, orders: Orders) -> None:
        related = {(r.kind, r.a if r.b == self.me else r.b) for r in self.view.relations}
        active = set(self.view.players)
        lines: list[Diplomacy] = []
        for other, kind in self.offers():
            if (kind, other) in related or other not in active:
                continue
            if self.rng.random() < 0.5:
                lines.append(Diplomacy(action=f"propose {kind}", other=other))
                related.add((kind, other))
        neighbours = self.neighbours()
        if neighbours and self.rng.random() < 0.15:
            other = self.rng.choice(neighbours)
            kind = "trade" if self.rng.random() < 0.6 else "treaty"
            if (kind, other) not in related:
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
        """Squadrons at ``hex_`` that may leave without giving up the system."""
        have = self.available.get(hex_, Fleet()) - self.leaving.get(hex_, Fleet())
        if hex_ == self.view.homeworld:
            keep = max(4, have.squadrons * 2 // 5)
        elif hex_ in self.facility_hexes:
            keep = 0
        else:
            keep = 1
        return _trim(have, keep)

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
        self.targeted.add(destination)

    def moves(self, orders: Orders) -> None:
        limit = min(max_departures(self.rules), MAX_MOVE_LINES)
        sources = sorted(self.available, key=lambda h: (-self.available[h].squadrons, h))
        sources = [h for h in sources if self.view.system(h) is not None]
        # 1. attack a clearly weaker neighbour in sight
        for target in self.attack_targets():
            if len(orders.moves) >= limit:
                break
            need = 2 * _defence(target, self.me) + 2
            for origin in sources:
                if distance(origin, target.hex) > self.reach:
                    continue
                spare = self.spare(origin)
                if _cv(spare) >= need:
                    self.send(orders, origin, target.hex, _take_cv(spare, need))
                    break
        # 2. expand to the nearest unowned systems in sight
        free = [
            s
            for s in self.view.systems
            if s.status == "in sight"
            and not s.owner
            and s.hex not in self.targeted
            and all(f.owner == "" for f in s.forces)
        ]
        for origin in sources:
            near = sorted(
                (s for s in free if 0 < distance(origin, s.hex) <= self.reach),
                key=lambda s: (distance(origin, s.hex), s.hex),
            )
            for target in near:
                if len(orders.moves) >= limit:
                    return
                if target.hex in self.targeted:
                    continue
                spare = self.spare(origin)
                if spare.squadrons < 1:
                    break
                size = 2 if spare.squadrons >= 6 and self.rng.random() < 0.5 else 1
                self.send(orders, origin, target.hex, _take_squadrons(spare, size))
        # 3. move surplus towards the world nearest an enemy, to strike from there later
        if len(orders.moves) < limit:
            self.stage(orders, sources)

    def stage(self, orders: Orders, sources: list[str]) -> None:
        """Send half of the biggest spare stack to the frontier world nearest an enemy."""
        enemies = [
            s.hex
            for s in self.view.systems
            if s.status == "in sight"
            and s.owner not in ("", self.me)
            and s.owner not in self.partners
        ]
        if not enemies:
            return
        frontier = sorted(
            (s.hex for s in self.mine),
            key=lambda h: (min(distance(h, e) for e in enemies), h),
        )
        if not frontier:
            return
        front = frontier[0]
        for origin in sorted(sources, key=lambda h: (-self.spare(h).squadrons, h)):
            if origin == front or not 0 < distance(origin, front) <= self.reach:
                continue
            spare = self.spare(origin)
            if spare.squadrons >= 8:
                self.send(orders, origin, front, _take_squadrons(spare, spare.squadrons // 2))
            return

    def attack_targets(self) -> list[SystemView]:
        out = []
        for s in self.view.systems:
            if s.status != "in sight" or s.owner in ("", self.me) or s.owner in self.partners:
                continue
            if s.hex in self.targeted:
                continue
            if any(distance(s.hex, m.hex) <= self.reach for m in self.mine):
                out.append(s)
        return sorted(out, key=lambda s: (_defence(s, self.me), s.hex))

    # -- production ---------------------------------------------------------------------------
    def purchases(self, orders: Orders) -> None:
        budget = self.view.stockpile + self.view.income_last
        tl = self.view.tech_level
        yards = [
            s.hex for s in self.mine if s.resource_class == "A" or s.spacedock
        ]  # FTL squadrons are built here
        lines: list[Purchase] = []

        def buy(location: str, item: str, quantity: int, cost: int) -> bool:
            nonlocal budget
            if quantity < 1 or cost * quantity > budget or len(lines) >= MAX_PURCHASE_LINES:
                return False
            lines.append(Purchase(location=location, item=item, quantity=quantity))
            budget -= cost * quantity
            return True

        home = self.view.homeworld if self.view.homeworld in yards else (yards[0] if yards else "")
        threatened = any(
            s.status == "in sight"
            and s.owner not in ("", self.me)
            and s.owner not in self.partners
            and distance(s.hex, self.view.homeworld) <= self.reach
            for s in self.view.systems
        )
        if home and threatened and self.rng.random() < 0.4:
            system = self.view.system(home)
            if system is not None and system.resource_class in ("A", "B", "C"):
                buy(home, "M", 1, 2)
        if budget >= 12 and self.rng.random() < 0.5:
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
        if home:
            assault = 1 if self.rng.random() < 0.35 else 0
            buy(home, "A", assault, 2)
            if tl >= 2 and self.rng.random() < 0.5:
                buy(home, "Fs", min(budget // 3, 3), 3)
            buy(home, "F", budget // 2, 2)
        orders.purchases = lines


def _cv(fleet: Fleet) -> int:
    return sum(_CV[f] * getattr(fleet, f) for f in _CV)


def _defence(system: SystemView, me: str) -> int:
    """The combat value defending a system, as far as the player can see it."""
    total = 0
    for force in system.forces:
        if force.owner and force.owner != me and not force.building:
            total += _cv(force.fleet) + 2 * force.M
    if system.naval_base and system.owner:
        total += 2
    return total


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
