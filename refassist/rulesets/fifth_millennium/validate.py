"""Checking a player's orders against the game state, before the deadline.

A player wants to know, while there is still time to fix it, that an order will work.  Each
rule of the digest that can be judged from the state at the start of the turn has a check here;
each problem names the sheet cell, the text found, what is wrong and how to fix it.  Errors are
orders the resolution would refuse; warnings are things that may still work out (a budget
overrun: income is only known after the battles) or that are probably slips.

What this cannot know: battles of this turn.  Squadrons counted as available to depart may die
or fight (a fleet that fights on arrival may not leave again); the resolution cancels such an
order and reports it.  The checker judges the best case, with the same movement rules as the
resolution (`movement_rules`), so an order accepted here fails later only because of the war.

House rule decisions applied here are recorded in ``docs/rules/fifth-millennium.md``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from ...errors import CellProblem
from ...geometry.hexmap import SECTOR, distance
from ..checking import OrderChecker
from .budget import points_available
from .items import find_item, placement
from .movement_rules import (
    available_to_depart,
    best_range,
    can_arrive_at,
    max_departures,
    move_arrival,
    probes_at,
)
from .notation import fleet_text
from .orders import Move, Orders, Purchase
from .production import SEAT_NAMES, SEATS, station_problem
from .rules import complete
from .sheet import HOMEWORLD_CELL, ORDERS_SHEET, PLAYER_CELL, STOCKPILE_AT_CELL, YEAR_CELL
from .state import FLEET_FIELDS, SETUP_YEAR, Fleet, State

SHEET = ORDERS_SHEET


def _fleet_short(fleet: Fleet) -> str:
    parts = [f"{getattr(fleet, f)} {f}" for f in FLEET_FIELDS if getattr(fleet, f)]
    return ", ".join(parts) if parts else "nothing"


class _Checker(OrderChecker):
    """Runs every check for one player's orders; problems are collected in sheet order."""

    def __init__(self, state: State, player: str, orders: Orders, rules: Mapping[str, Any]) -> None:
        super().__init__()
        self.state = state
        self.player = player
        self.p = state.player(player)
        self.orders = orders
        self.rules = complete(rules)

    # -- helpers ----------------------------------------------------------------------------
    def owns(self, hex_: str) -> bool:
        s = self.state.system(hex_)
        return s is not None and s.owner == self.player

    def facilities(self, hex_: str | None, kind: str) -> int:
        return sum(
            f.count
            for f in self.state.facilities
            if f.owner == self.player and f.kind == kind and (hex_ is None or f.hex == hex_)
        )

    def builds_ships(self, hex_: str) -> bool:
        s = self.state.system(hex_)
        return s is not None and (s.resource_class == "A" or self.facilities(hex_, "DOCK") > 0)

    # -- whole sheet ------------------------------------------------------------------------
    def check_year(self) -> bool:
        if self.orders.year != self.state.year:
            self.error(
                YEAR_CELL,
                str(self.orders.year),
                f"this sheet holds orders for {self.orders.year}, but the game is waiting for "
                f"orders for {self.state.year}",
                f"Fill in the sheet for {self.state.year} that came with your last report.",
            )
            return False
        if self.p is None:
            self.error(
                PLAYER_CELL,
                self.player,
                f"{self.player} is not a player of this game",
                "Use the sheet the referee sent you.",
            )
            return False
        if self.p.eliminated:
            self.error(
                PLAYER_CELL,
                self.player,
                f"{self.player} was eliminated in {self.p.eliminated} and gives no more orders",
                "Nothing to do.",
            )
            return False
        return True

    # -- set-up -------------------------------------------------------------------------------
    def check_setup(self) -> None:
        assert self.p is not None
        cell = self.orders.homeworld_cell or HOMEWORLD_CELL
        choice = self.orders.homeworld
        if self.p.homeworld:
            if choice and choice != self.p.homeworld:
                self.error(
                    cell,
                    choice,
                    f"your homeworld is already set to {self.p.homeworld} by the referee",
                    f"Leave the cell as {self.p.homeworld}.",
                )
            return
        if not choice:
            self.error(
                cell, "", "no homeworld is chosen", "Type the hex of a class A system, e.g. 1827."
            )
            return
        system = self.state.system(choice)
        if not SECTOR.contains(choice) or system is None:
            self.error(
                cell,
                choice,
                f"there is no star system at {choice}",
                "Choose the hex of a class A system from the list on 'Your empire'.",
            )
            return
        if system.resource_class != "A":
            self.error(
                cell,
                choice,
                f"{system.name} ({choice}) is class "
                f"{system.resource_class}; a homeworld must be a class A system",
                "Choose a class A system from the list on 'Your empire'.",
            )
            return
        # Not checked here: how close another player's homeworld is.  Homeworlds are chosen in
        # secret, and a checker answering "too close" lets a player map them by resubmitting;
        # the set-up resolution refuses a choice too close and assigns one by a die instead,
        # as it does for two set-up sheets that clash.

    # -- moves --------------------------------------------------------------------------------
    def check_moves(self) -> None:
        assert self.p is not None
        reach = best_range(self.p, self.rules)
        limit = max_departures(self.rules)
        departures = 0
        sent: dict[str, Fleet] = defaultdict(Fleet)
        probes_sent: dict[str, int] = defaultdict(int)
        for move in self.orders.moves:
            if not self.check_move_basics(move):
                continue
            if move.probe:
                self.check_probe(move, probes_sent)
                continue
            departures += 1
            if departures == limit + 1:
                self.error(
                    move.cell,
                    move.text,
                    f"this is departure number {departures}; "
                    f"at most {limit} departures are allowed each turn",
                    "Combine fleets leaving the same system into one move, or keep "
                    "this one for next turn (probes do not count).",
                )
            elif departures > limit:
                self.error(
                    move.cell,
                    move.text,
                    f"this is departure number {departures}; at most {limit} are allowed each turn",
                    "Remove the moves beyond the limit.",
                )
            self.check_fleet_move(move, reach, sent)

    def check_move_basics(self, move: Move) -> bool:
        if move.year != self.state.year:
            self.error(
                move.cell_of("year"),
                move.text,
                f"this move departs in {move.year}, but orders are for {self.state.year}",
                f"Write {self.state.year} as the turn (departures are ordered one turn at a time).",
            )
            return False
        for what, part, hex_ in (
            ("departure", "origin", move.origin),
            ("destination", "destination", move.destination),
        ):
            if not SECTOR.contains(hex_):
                self.error(
                    move.cell_of(part),
                    move.text,
                    f"the {what} hex {hex_} is not on the map (columns 01-32, rows 01-40)",
                    "Check the hex number; travel off the map is impossible.",
                )
                return False
        if move.origin == move.destination:
            self.error(
                move.cell_of("destination"),
                move.text,
                f"departure and destination are both {move.origin}",
                "Give a different destination, or remove the move.",
            )
            return False
        return True

    def check_arrival(self, move: Move) -> None:
        expected = move_arrival(move)
        if move.arrival is not None and move.arrival != expected:
            hexes = distance(move.origin, move.destination)
            why = (
                "probes move 1 hex a year"
                if move.probe
                else (
                    "every squadron is Fast: 2 hexes a year"
                    if move.fleet.all_fast
                    else "1 hex a year"
                )
            )
            self.error(
                move.cell_of("arrival"),
                move.text,
                f"the arrival year is wrong: {move.origin} to "
                f"{move.destination} is {hexes} hexes ({why}), so the fleet arrives "
                f"in {expected}, not {move.arrival}",
                f"Write {expected} as the arrival year, or leave it blank.",
            )

    def check_probe(self, move: Move, probes_sent: dict[str, int]) -> None:
        self.check_arrival(move)
        probes_sent[move.origin] += 1
        have = probes_at(self.state, self.player, move.origin)
        if probes_sent[move.origin] > have:
            self.error(
                move.cell_of("fleet"),
                move.text,
                f"you have {have} probe swarm"
                f"{'s' if have != 1 else ''} at {move.origin}, and this is probe "
                f"number {probes_sent[move.origin]} launched from there",
                "Buy probes (PROBE) at a class A world or spacedock first; they can "
                "be launched the turn after.",
            )

    def check_fleet_move(self, move: Move, reach: int, sent: dict[str, Fleet]) -> None:
        """Squadrons first: a departure where the player has none is most likely a mistyped
        hex, so that is the problem reported (at the departure's cell) and the range, the
        destination and the arrival year, which follow from it, are not checked."""
        if move.fleet.squadrons == 0:
            self.error(
                move.cell_of("fleet"),
                move.text,
                "the fleet carries no squadrons",
                "A fleet needs at least one squadron (K and SF are only carried).",
            )
            return
        available = available_to_depart(self.state, self.player, move.origin, self.state.year)
        if available.squadrons == 0 and available.K == 0 and available.SF == 0:
            sent[move.origin] = sent[move.origin] + move.fleet
            self.error(
                move.cell_of("origin"),
                move.text,
                f"you have no squadrons at {move.origin}, the departure hex",
                "Check the departure hex: send squadrons from a system where you have some "
                "(see 'Your empire').",
            )
            return
        hexes = distance(move.origin, move.destination)
        if hexes > reach:
            self.error(
                move.cell_of("destination"),
                move.text,
                f"{move.destination} is out of range: {move.origin} to {move.destination} "
                f"is {hexes} hexes and your squadrons jump at most {reach}",
                f"Choose a destination at most {reach} hexes away, or go in stages.",
            )
        elif not can_arrive_at(self.state, self.player, move.destination):
            self.error(
                move.cell_of("destination"),
                move.text,
                f"there is no star system at {move.destination} "
                "and you have no refueling station there",
                "Fleets must emerge at a star system (or your Deep Space Refueling "
                "Station); check the hex number.",
            )
        self.check_arrival(move)
        before = sent[move.origin]
        sent[move.origin] = before + move.fleet
        if not available.covers(sent[move.origin]):
            short = Fleet(
                **{
                    f: max(0, getattr(sent[move.origin], f) - getattr(available, f))
                    for f in FLEET_FIELDS
                }
            )
            earlier = (
                f" and the moves above already take {fleet_text(before)}"
                if not before.is_empty()
                else ""
            )
            self.error(
                move.cell_of("fleet"),
                move.text,
                f"{move.origin} holds {fleet_text(available)} of yours (counting fleets "
                f"arriving this turn){earlier}; this move is short of {_fleet_short(short)}",
                "Send only squadrons that are at the departure system (see 'Your "
                "empire'); monitors never move.",
            )

    # -- production ---------------------------------------------------------------------------
    def check_purchases(self) -> None:
        assert self.p is not None
        budget = points_available(self.state, self.player)
        running = 0
        warned = False
        added: dict[tuple[str, str], int] = defaultdict(int)
        upgrades: dict[str, int] = defaultdict(int)
        new_seats: set[tuple[str, str]] = set()
        for purchase in self.orders.purchases:
            item = find_item(purchase.item)
            if item is None:
                self.error(
                    purchase.cell_of("item"),
                    purchase.text,
                    f"{purchase.item!r} is not a purchase option",
                    "Choose an item from the list.",
                )
                continue
            if not self.check_purchase(purchase, item.code, added, upgrades, new_seats):
                continue  # refused lines are not bought, so they do not count against the budget
            running += item.cost * purchase.quantity
            if running > budget and not warned:
                warned = True
                self.warn(
                    purchase.cell_of("quantity"),
                    purchase.text,
                    f"the purchases up to this line cost "
                    f"{running} points, more than the {budget} you are expected to "
                    "have (stockpile plus this turn's income if no world is lost)",
                    "Lines are bought in sheet order until the points run out; put "
                    "the most important first.",
                )
        self.check_stockpile_at()

    def check_purchase(
        self,
        purchase: Purchase,
        code: str,
        added: dict[tuple[str, str], int],
        upgrades: dict[str, int],
        new_seats: set[tuple[str, str]],
    ) -> bool:
        assert self.p is not None
        item = find_item(code)
        assert item is not None
        where, cell, found = purchase.location, purchase.cell, purchase.text
        if item.tech_level > self.p.tech_level:
            self.error(
                cell,
                found,
                f"{item.name} needs tech level {item.tech_level}; you are at TL{self.p.tech_level}",
                "Choose an item from the list (it shows what your TL allows).",
            )
            return False
        if not SECTOR.contains(where):
            self.error(
                cell,
                found,
                f"{where} is not a hex on the map",
                "Check the hex number of the location.",
            )
            return False
        system = self.state.system(where)
        if item.placement == "deep":
            return self.check_station(purchase, item.name, added)
        if system is None and self.station_at(where):
            return self.check_at_station(purchase, item, added, upgrades)
        if system is None:
            self.error(
                cell,
                found,
                f"there is no star system at {where}",
                "Build in a system you own, or at your own refueling station (a new "
                "station goes in an empty hex).",
            )
            return False
        if system.owner != self.player:
            # Not whose it is: the reply must not tell what the player's report would not
            # (resubmitting sheets would otherwise map the owner of every system).
            self.error(
                cell,
                found,
                f"you do not own {system.name} ({where})",
                "Build only in systems you own.",
            )
            return False
        if placement(item, self.rules) in ("ftl", "upgrade") and not self.builds_ships(where):
            self.error(
                cell,
                found,
                f"{item.name} can only be built at a class A world or one "
                f"with a spacedock; {system.name} ({where}) is class "
                f"{system.resource_class}",
                "Build it at a class A world you own.",
            )
            return False
        if item.placement == "monitor" and system.resource_class not in ("A", "B", "C"):
            self.error(
                cell,
                found,
                f"monitors can only be built at class A, B or C worlds; "
                f"{system.name} ({where}) is class {system.resource_class}",
                "Build monitors at a class A, B or C world you own.",
            )
            return False
        if item.placement == "upgrade":
            return self.check_upgrade(purchase, item.name, upgrades)
        if not self.within_limit(purchase, item, added, "system"):
            return False
        if item.becomes in SEATS:
            return self.check_seat(purchase, item.becomes, new_seats)
        return True

    def station_at(self, hex_: str) -> bool:
        """The player has a finished refueling station in this deep-space hex."""
        return any(
            f.owner == self.player and f.kind == "DSRS" and f.hex == hex_ and not f.building
            for f in self.state.facilities
        )

    def check_at_station(
        self,
        purchase: Purchase,
        item: Any,
        added: dict[tuple[str, str], int],
        upgrades: dict[str, int],
    ) -> bool:
        """A build at the player's refueling station (6.2's exception): the rules' own test
        (`production.station_problem`), then the per-hex limits and the squadrons to upgrade."""
        where = purchase.location
        problem = station_problem(self.state, self.player, item, where, self.rules)
        if problem:
            self.error(
                purchase.cell,
                purchase.text,
                problem,
                "Build it at a world you own, or build a spacedock at the station first.",
            )
            return False
        if item.placement == "upgrade":
            return self.check_upgrade(purchase, item.name, upgrades)
        return self.within_limit(purchase, item, added, "hex")

    def within_limit(
        self, purchase: Purchase, item: Any, added: dict[tuple[str, str], int], per: str
    ) -> bool:
        """Appendix A's per-system limits (5 labs, one of each seat...), counting what is
        built, building and ordered on the lines above; ``per`` names the place ("system",
        or "hex" at a refueling station)."""
        if not item.limit:
            return True
        where = purchase.location
        key = (where, item.becomes)
        have = self.facilities(where, item.becomes)
        if have + added[key] + purchase.quantity > item.limit:
            self.error(
                purchase.cell_of("quantity"),
                purchase.text,
                f"at most {item.limit} {item.name}"
                f"{'s' if item.limit != 1 else ''} per {per}; {where} has "
                f"{have + added[key]} (built, building or ordered above)",
                f"Reduce the quantity to {max(0, item.limit - have - added[key])} "
                "or build elsewhere.",
            )
            return False
        added[key] += purchase.quantity
        return True

    def check_station(
        self, purchase: Purchase, name: str, added: dict[tuple[str, str], int]
    ) -> bool:
        assert self.p is not None
        where, cell, found = purchase.location, purchase.cell, purchase.text
        if self.state.system(where) is not None:
            self.error(
                cell,
                found,
                f"{where} holds a star system; a {name} is built in an empty hex",
                "Choose an empty hex within range of your worlds.",
            )
            return False
        reach = best_range(self.p, self.rules)
        owned = [s.hex for s in self.state.systems if s.owner == self.player]
        if not any(distance(where, h) <= reach for h in owned):
            self.error(
                cell,
                found,
                f"{where} is more than {reach} hexes from every world you own",
                f"Choose a hex at most {reach} hexes from one of your worlds.",
            )
            return False
        have = self.facilities(where, "DSRS")
        key = (where, "DSRS")
        if have + added[key] + purchase.quantity > 1:
            self.error(
                cell,
                found,
                f"you already have (or ordered) a refueling station at {where}",
                "One station per hex is enough; remove this line.",
            )
            return False
        added[key] += purchase.quantity
        return True

    def check_upgrade(self, purchase: Purchase, name: str, upgrades: dict[str, int]) -> bool:
        where, found = purchase.location, purchase.text
        fleet = available_to_depart(self.state, self.player, where, self.state.year)
        leaving = Fleet()
        for move in self.orders.moves:
            if not move.probe and move.origin == where and move.year == self.state.year:
                leaving = leaving + move.fleet
        ready = fleet.F - leaving.F - upgrades[where]
        if purchase.quantity > ready:
            self.error(
                purchase.cell_of("quantity"),
                found,
                f"{name} needs a Fleet squadron at {where} for each "
                f"upgrade; {max(0, ready)} will be there after this turn's departures "
                "and the upgrades above",
                "Upgrade only Fleet squadrons that stay at the location.",
            )
            return False
        upgrades[where] += purchase.quantity
        return True

    def check_seat(self, purchase: Purchase, kind: str, new_seats: set[tuple[str, str]]) -> bool:
        """Control Centre and/or Construction Facility, or a Depot, not both (Appendix A).

        House rule ``seat_exclusivity``: ``empire`` (default) applies this to the whole empire
        and allows one of each; ``system`` applies it per system only.
        """
        where, cell, found = purchase.location, purchase.cell, purchase.text
        per_empire = self.rules["seat_exclusivity"] == "empire"

        def in_scope(hex_: str) -> bool:
            return per_empire or hex_ == where

        kinds = {
            f.kind
            for f in self.state.facilities
            if f.owner == self.player and f.kind in SEATS and in_scope(f.hex)
        }
        kinds |= {k for h, k in new_seats if in_scope(h)}
        region = "your empire" if per_empire else where
        if (kind == "DEPOT" and kinds & {"CC", "CF"}) or (kind != "DEPOT" and "DEPOT" in kinds):
            self.error(
                cell,
                found,
                f"{region} may have a Control Centre and/or a "
                "Construction Facility, or a Depot, but not both",
                "Keep one kind only.",
            )
            return False
        if per_empire and kind in kinds:
            self.error(
                cell,
                found,
                f"you already have (or ordered above) a {SEAT_NAMES[kind]}; an empire has only one",
                "Remove this line.",
            )
            return False
        new_seats.add((where, kind))
        return True

    def check_stockpile_at(self) -> None:
        assert self.p is not None
        where = self.orders.stockpile_at
        if not where or where == self.p.homeworld:
            return
        if not (self.facilities(where, "CF") or self.facilities(where, "DEPOT")) or not self.owns(
            where
        ):
            self.error(
                STOCKPILE_AT_CELL,
                where,
                f"unspent points can be kept only at your homeworld or at "
                f"a Construction Facility or Depot you own, and {where} is neither",
                "Leave the cell blank (homeworld) or give the hex of your Construction "
                "Facility or Depot.",
            )

    # -- diplomacy and messages ------------------------------------------------------------------
    def other_player(self, name: str, cell: str, found: str, what: str) -> bool:
        other = self.state.player(name)
        if other is None:
            self.error(
                cell,
                found,
                f"there is no player called {name!r}",
                f"Choose the player for the {what} from the list.",
            )
            return False
        if name == self.player:
            self.error(
                cell, found, f"the {what} is addressed to yourself", "Choose another player."
            )
            return False
        if other.eliminated:
            self.error(
                cell,
                found,
                f"{name} was eliminated in {other.eliminated}",
                "Choose a player still in the game.",
            )
            return False
        return True

    def related(self, kind: str, other: str) -> bool:
        a, b = sorted((self.player, other))
        return any(r.kind == kind and r.a == a and r.b == b for r in self.state.relations)

    def check_diplomacy(self) -> None:
        seen: dict[tuple[str, str], str] = {}
        actions_by_player: dict[str, set[str]] = defaultdict(set)
        for d in self.orders.diplomacy:
            found = f"{d.action} - {d.other}"
            if not self.other_player(d.other, d.cell, found, d.action):
                continue
            key = (d.action, d.other)
            if key in seen:
                self.warn(
                    d.cell,
                    found,
                    f"'{d.action}' towards {d.other} is given twice (also in {seen[key]})",
                    "Remove one of the lines.",
                )
                continue
            seen[key] = d.cell
            actions_by_player[d.other].add(d.action)
            kind = "treaty" if "treaty" in d.action else "trade"
            what = "treaty" if kind == "treaty" else "trade agreement"
            if d.action.startswith("propose") and self.related(kind, d.other):
                self.warn(
                    d.cell,
                    found,
                    f"you already have a {what} with {d.other}",
                    "Remove the line; the agreement is in force.",
                )
            elif d.action.startswith("end") and not self.related(kind, d.other):
                self.error(
                    d.cell,
                    found,
                    f"you have no {what} with {d.other} to end",
                    "Remove the line (see 'Your empire' for your agreements).",
                )
            elif d.action == "declare war" and not (
                self.related("treaty", d.other) or self.related("trade", d.other)
            ):
                self.warn(
                    d.cell,
                    found,
                    f"you have no treaty or trade agreement with "
                    f"{d.other}, so declaring war changes nothing",
                    "Without a treaty your fleets already fight theirs.",
                )
        for other, actions in actions_by_player.items():
            if "declare war" in actions and actions & {"propose treaty", "propose trade"}:
                cell = next(
                    d.cell
                    for d in self.orders.diplomacy
                    if d.other == other and d.action == "declare war"
                )
                self.error(
                    cell,
                    f"declare war - {other}",
                    f"you both declare war on {other} and propose an agreement to them",
                    "Keep one or the other.",
                )

    def check_messages(self) -> None:
        for m in self.orders.messages:
            if m.to == "*":
                continue
            self.other_player(m.to, m.cell, m.to, "message")

    def check_bombing(self) -> None:
        """``fusion bomb`` lines: a system of the map, SFBA levels of this player's due there
        this turn (already there, or a flight arriving this year), each hex once."""
        seen: dict[str, str] = {}
        automatic = self.rules["fusion_bombing"] == "automatic"
        for b in self.orders.bombing:
            where = b.cells[-1] if b.cells else b.cell
            if b.hex in seen:
                self.warn(
                    b.cell,
                    b.text,
                    f"fusion bombing at {b.hex} is ordered twice (also in {seen[b.hex]})",
                    "Remove one of the lines.",
                )
                continue
            seen[b.hex] = b.cell
            system = self.state.system(b.hex)
            if system is None:
                self.error(
                    where,
                    b.text,
                    f"there is no star system at {b.hex} to bomb",
                    "Write the hex of the system your SFBA-carrying fleet attacks.",
                )
                continue
            if system.owner == self.player:
                self.error(
                    where,
                    b.text,
                    f"{b.hex} {system.name} is your own system",
                    "Remove the line; fusion bombing attacks an enemy's system.",
                )
                continue
            year = self.state.year
            here = sum(
                f.fleet.SF
                for f in self.state.forces
                if f.hex == b.hex and f.owner == self.player and not f.building
            ) + sum(
                f.fleet.SF
                for f in self.state.flights
                if f.destination == b.hex and f.owner == self.player and f.arrival <= year
            )
            if not here:
                self.warn(
                    where,
                    b.text,
                    f"none of your SFBA levels will be at {b.hex} this turn (none is there "
                    "and no fleet carrying them arrives this year)",
                    "Bombing needs a fleet carrying SF levels that arrives there this turn; "
                    "give the order in the year it arrives.",
                )
            elif automatic:
                self.warn(
                    b.cell,
                    b.text,
                    "in this game SFBA levels bomb without an order (house rule "
                    "fusion_bombing = automatic)",
                    "The line changes nothing; you may remove it.",
                )


def validate_orders(
    state: State, player: str, orders: Orders, house_rules: Mapping[str, Any]
) -> list[CellProblem]:
    """Every problem with ``orders`` for ``player`` in ``state``: errors and warnings by cell."""
    checker = _Checker(state, player, orders, house_rules)
    if not checker.check_year():
        return checker.problems
    if state.year == SETUP_YEAR:
        checker.check_setup()
        return checker.problems
    checker.check_moves()
    checker.check_purchases()
    checker.check_diplomacy()
    checker.check_bombing()
    checker.check_messages()
    return checker.problems
