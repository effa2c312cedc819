"""Checking an Imperium 3rd Millennium sheet against the game state, before the deadline.

A player wants to know, while there is still time to fix it, that an order will work.  Every
rule a sheet can break before the turn is played has a check here, and each problem names the
cell, the text found, what is wrong and how to fix it.  Errors are orders the resolution would
refuse (they block acceptance, as in Fifth Millennium); warnings are things that may still work
out or are probably slips (a construction bill above the expected treasury: income and the
Appeal are only known in the administrative segment; scrapping a ship that is undamaged now but
may be damaged by this turn's maintenance).

The activation lists are checked as the side's own plan: fleets are followed through the
sheet's own moves, splits and joins in segment and order, so ``T1 > TAU`` in segment 1 and an
activation at TAU for T1 in segment 2 agree.  What the checker cannot know is the war: a fleet
may be destroyed or driven back before its line comes up; the resolution then skips the line
and says why.

Hostile input: orders for the other side's fleets or units are refused with the same sentence
as names that do not exist ("not one of your fleets"), so a sheet cannot be used to probe for
the enemy's fleet names or unit ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import CellProblem
from ...text.words import counted
from ..checking import OrderChecker
from .admin import (
    TERRAFORM_TURNS,
    arrival_plan,
    arrivals_due,
    counters_free,
    expected_income,
    is_friendly,
    permitting_rolls,
)
from .closeout import upkeep_bill
from .orders import (
    CLOSE_OUT_KINDS,
    PRIORITIES,
    STANCES,
    Action,
    Activation,
    Arrival,
    Build,
    Orders,
)
from .parse import actions_text
from .paths import connected
from .rules import complete
from .setup import reserved_unit
from .sheet import (
    ACT_ACTIONS_COL,
    ACT_SYSTEM_COL,
    ACTIVATION_ROWS,
    APPEAL_CELL,
    INSTALMENT,
    ORDERS_SHEET,
    SIDE_CELL,
)
from .state import ALLOWED_ON, Planet, State, load_of
from .units import (
    IMPERIAL,
    IMPERIAL_RESTRICTED,
    KIND_OF,
    MOVEMENT_POINTS,
    SHIP_KINDS,
    TERRAN,
    UNIT_TABLES,
    fleet_speed,
    unit_type,
)
from .visibility import in_sight

#: Codes of what a transport carries: troops, PD and outposts.
CARGO = ("RT", "JT", "PD", "OP")
#: Codes of ships (what a fleet must keep at least one of).
SHIP_CODES = frozenset(code for code, kind in KIND_OF.items() if kind in SHIP_KINDS)


class _Refused(Exception):
    """An action the resolution would refuse: what is wrong and how to fix it.  Raised by the
    ``do_`` checks, which stop at the first problem, and reported on the action's line."""

    def __init__(self, problem: str, fix: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.fix = fix


@dataclass
class _Segment:
    """The action segment a line belongs to, and the fleets that moved or arrived in it so
    far (no unit moves twice in a segment; moving and attacking are separate segments)."""

    number: int
    moved: set[str] = field(default_factory=set)
    arrived: set[str] = field(default_factory=set)


class _Checker(OrderChecker):
    """Collects the problems of one side's orders, following its fleets through the sheet."""

    def __init__(self, state: State, side: str, rules: Mapping[str, Any]) -> None:
        super().__init__()
        self.state = state
        self.side = side
        self.rules = rules = complete(rules)
        self.bb_m = int(rules["imperial_bb_maintenance"])
        own = [u for u in state.units if u.side == side]
        self.units = {u.id: u for u in own}
        #: Fleet -> system, and fleet -> unit ids aboard, as the sheet's plan goes on.
        self.pos = {f.name: f.system for f in state.fleets if f.side == side}
        self.contents: dict[str, list[str]] = {name: [] for name in self.pos}
        self.on_planet: dict[str, str] = {}
        for u in own:
            if u.fleet in self.contents:
                self.contents[u.fleet].append(u.id)
            elif u.planet:
                self.on_planet[u.id] = u.planet
        #: What the side may know (its report's fog of war): the checker answers from this only,
        #: never from the enemy's hidden fleets or markers, or resubmitted sheets would map them.
        self.sight = in_sight(state, side)
        self.public_markers = bool(rules["public_markers"])
        self.taken = {
            f.name.upper() for f in state.fleets if f.side == side or f.system in self.sight
        }
        self.created: set[str] = set()
        #: Fleet -> every system it may be in -> the move that must not have run for it to be
        #: there, as (segment, where that move went, its cell); (0, "", "") on the main plan.
        #: Initiative may cut a segment short and a tie cancels it, so a line of a later
        #: segment may count on a move not having run (`possible`).  ``pos`` is the place if
        #: every line ran.
        self.where: dict[str, dict[str, tuple[int, str, str]]] = {
            name: {system: (0, "", "")} for name, system in self.pos.items()
        }
        #: Fleets named on an activation line the reader could not read, or whose move was
        #: refused: where they are is not known after it, so their later lines are not
        #: refused for their position (one mistake, one message).
        self.uncertain: dict[str, str] = {}
        #: Fleet -> (the fleet it joined, the cell of the join): removed by ``X join Y``.
        self.joined: dict[str, tuple[str, str]] = {}

    # -- helpers --------------------------------------------------------------------------------
    def kind(self, code: str) -> str:
        return unit_type(self.side, code, self.bb_m).kind

    def enemy_marker(self, planet: Any) -> bool:
        """The planet holds an enemy World or Outpost, as far as the side may know (markers
        are public unless the house rule ``public_markers`` is off, else seen in sight)."""
        if not (planet.owner and planet.owner != self.side and planet.marker):
            return False
        return self.public_markers or planet.system in self.sight

    def not_yours(self, ref: str, found: str, what: str, name: str) -> None:
        self.error(
            ref,
            found,
            f"{name} is not one of your {what}",
            f"Use the names listed on the sheet 'Your forces' (your own {what} only).",
        )

    def speed(self, fleet: str) -> int:
        units = [self.units[i] for i in self.contents[fleet]]
        return fleet_speed((k, u.damaged) for u in units if (k := self.kind(u.code)) in SHIP_KINDS)

    def over_capacity(self, ids: list[str]) -> str:
        """What a fleet of these units cannot carry (empty when it fits)."""
        load = load_of([self.units[i] for i in ids], self.rules)
        if load.free_holds >= 0:
            return ""
        if not load.overflow:
            return f"{load.cargo} troops/PD/outposts but room for {load.holds} (transports)"
        return (
            f"{load.fighters} fighters and {load.cargo} troops/PD/outposts but room for "
            f"{load.hangar} fighters (carriers) and {load.holds} more (transports)"
        )

    # -- administration -------------------------------------------------------------------------
    def appeal(self, orders: Orders) -> None:
        if not orders.appeal:
            return
        ref = orders.appeal_cell or f"{ORDERS_SHEET}!{APPEAL_CELL}"
        s = self.state.sides[self.side]
        why = ""
        if self.side != IMPERIAL:
            why = "only the Imperial side may make an Imperial Appeal"
        elif self.state.at_peace():
            why = "there are no Imperial Appeals in peacetime"
        elif s.appeals_prohibited:
            why = "further Appeals are prohibited for the rest of this war"
        elif orders.appeal not in ("Forces", "Finances"):
            why = f"{orders.appeal!r} is not an Appeal column"
        if why:
            self.error(ref, orders.appeal, why, "Leave the Appeal cell blank.")

    def builds(self, orders: Orders) -> int:
        """Check the construction lines; returns their total cost (doubled in peacetime).
        The unit and the World or fleet of a line are checked apart, so a line with both
        wrong gets both messages at once."""
        factor = 2 if self.state.at_peace() else 1
        ordered: dict[str, int] = {}
        total = 0
        for b in orders.builds:
            found = f"{b.count} {b.code}" + (f" at {b.world}" if b.world else "")
            table = UNIT_TABLES[self.side]
            self.build_place(b, found, table[b.code].kind if b.code in table else "")
            if not self.build_unit(b, found, orders):
                continue
            free = counters_free(self.state, self.side, b.code) - ordered.get(b.code, 0)
            if b.count > free:
                self.error(
                    b.cell_of("count"),
                    found,
                    f"only {counted(max(0, free), b.code + ' counter')} "
                    f"{'is' if max(0, free) == 1 else 'are'} free (the rest are in play, "
                    "under construction or on earlier lines)",
                    f"Build at most {max(0, free)}.",
                )
                continue
            ordered[b.code] = ordered.get(b.code, 0) + b.count
            total += b.count * table[b.code].cost * factor
        return total

    def build_unit(self, b: Build, found: str, orders: Orders) -> bool:
        """Whether the side may build this unit this turn (problems pinned to the unit and
        count cells).  A restricted Imperial ship with this turn's Appeal on the Forces
        column is a warning: the Appeal comes first in the administrative segment, so a
        permission it grants is there for construction."""
        s = self.state.sides[self.side]
        if b.code not in UNIT_TABLES[self.side]:
            self.error(
                b.cell,
                found,
                f"the {self.side} unit list has no {b.code}",
                "Choose a unit code from the list ('Your forces' shows your unit list).",
            )
            return False
        if self.side == TERRAN and b.code == "BB" and not s.bb_unlocked:
            self.error(
                b.cell,
                found,
                "Terrans may build a BB only after a Terran B has been destroyed",
                "Choose another unit.",
            )
            return False
        if (
            self.side == IMPERIAL
            and b.code in IMPERIAL_RESTRICTED
            and not (b.code in s.permissions or "ALL" in s.permissions)
        ):
            rolls = " or ".join(str(n) for n in permitting_rolls(b.code))
            if orders.appeal == "Forces":
                self.warn(
                    b.cell,
                    found,
                    f"building {b.code} needs a permission, which this turn's Appeal on the "
                    f"Forces column grants on a roll of {rolls} (2D6); the line is built "
                    "only if it does, else skipped and nothing is paid",
                    "Keep it if you want to take the chance.",
                )
            else:
                self.error(
                    b.cell,
                    found,
                    f"building {b.code} needs permission from an Imperial Appeal (the Forces "
                    f"column grants it on {rolls})",
                    "Choose a unit your side may build now (the dropdown lists them), or ask "
                    "for an Appeal on the Forces column this turn.",
                )
                return False
        if b.count < 1:
            self.error(
                b.cell_of("count"),
                found,
                "the count must be at least 1",
                "Type a count from 1.",
            )
            return False
        return True

    def build_place(self, b: Build, found: str, kind: str) -> None:
        """The World (or fleet) a build line names, checked whatever the unit's problems."""
        if b.world in self.pos:  # arrive aboard this fleet
            if kind:
                self.aboard(b, found, kind)
        elif b.world:
            planet = self.state.map.planets.get(b.world)
            if planet is None or planet.owner != self.side or planet.marker != "World":
                self.error(
                    b.cell_of("world"),
                    found,
                    f"{b.world} is not one of your Worlds (nor one of your fleets)",
                    "Leave the World blank or choose one of your Worlds.",
                )

    def arrivals(self, orders: Orders) -> None:
        """The arrivals block: each unit due this turn, the World and fleet the sheet gives
        it; then the units join the plan where the placement rule puts them, so the lines
        below may name them and their fleets (`admin.arrival_plan`, the rule itself)."""
        due = {q.unit_id: q for q in arrivals_due(self.state, self.side)}
        for a in orders.arrivals:
            found = " ".join(x for x in (a.unit, a.world, a.fleet) if x)
            q = due.get(a.unit)
            if q is None:
                self.error(
                    a.cell,
                    found,
                    f"{a.unit} is not due from the turn record track this turn",
                    "Leave the arrivals rows as the sheet lists them.",
                )
                continue
            world = self.state.map.planets.get(a.world) if a.world else None
            if a.world and (
                world is None
                or world.owner != self.side
                or world.marker != "World"
                or world.disputed
            ):
                self.error(
                    a.cell,
                    found,
                    f"{a.world} is not one of your Worlds; new units are placed at Worlds",
                    "Choose one of your Worlds, or leave it blank for the usual choice.",
                )
                continue
            if a.fleet:
                self.arrival_fleet(a, found, q.code, world)
        plan = arrival_plan(self.state, self.side, self.rules, orders.arrivals)
        for a in orders.arrivals:
            placed = plan.get(a.unit)
            if a.world and placed and placed[0] != a.world:
                self.warn(
                    a.cell,
                    a.world,
                    f"{a.unit} will be placed at {placed[0]}, not {a.world}: a World gets a "
                    "second new unit only when each of your Worlds has one this turn",
                    "Spread your arrivals over your Worlds, or keep it.",
                )
        for uid, q in due.items():
            world_code, fleet = plan.get(uid, ("", ""))
            world = self.state.map.planets.get(world_code)
            if world is None:
                continue
            unit = reserved_unit(self.state, self.side, q.code, uid)
            if unit is None:
                continue
            self.units[uid] = unit
            if not fleet:
                self.on_planet[uid] = world.code
                continue
            if fleet not in self.pos:
                self.pos[fleet] = world.system
                self.contents[fleet] = []
                self.where[fleet] = {world.system: (0, "", "")}
                self.taken.add(fleet.upper())
                self.created.add(fleet)
            self.contents[fleet].append(uid)

    def arrival_fleet(self, a: Arrival, found: str, code: str, world: Planet | None) -> None:
        """The fleet an arrival names: a ship joins one of the side's fleets at its World or
        forms a new one under a free name; cargo rides in one of the side's fleets there."""
        ship = self.kind(code) in MOVEMENT_POINTS or code == "M"
        own = a.fleet in self.pos
        if not own and not ship:
            self.error(
                a.cell,
                found,
                f"{a.fleet} is not one of your fleets; a {code} arrives aboard a fleet of "
                "yours (its empty transports) or on the planet",
                "Name your fleet at that World, or leave the fleet blank.",
            )
        elif not own and a.fleet.upper() in self.taken:
            self.error(
                a.cell,
                found,
                f"the fleet name {a.fleet} is already in use",
                "Choose another name for the new fleet.",
            )
        elif own and world is not None and self.pos[a.fleet] != world.system:
            self.error(
                a.cell,
                found,
                f"{a.fleet} is at {self.pos[a.fleet]}, not at {world.code}'s system: a new unit "
                "joins or boards a fleet at the World where it is placed",
                f"Name a World at {self.pos[a.fleet]}, or another fleet.",
            )

    def aboard(self, b: Build, found: str, kind: str) -> None:
        """A build line naming a fleet: cargo arriving aboard its empty transports."""
        if kind not in ("troop", "pd", "outpost", "fighter"):
            self.error(
                b.cell_of("world"),
                found,
                f"a {b.code} is a ship and cannot arrive aboard {b.world}",
                "Name a World, or leave it blank.",
            )
            return
        system = self.pos[b.world]
        if not any(
            p.owner == self.side and p.marker == "World" and not p.disputed
            for p in self.state.map.planets_in(system)
        ):
            self.warn(
                b.cell_of("world"),
                found,
                f"{b.world} is not at one of your Worlds now; new units arrive at Worlds, so "
                "this one goes aboard only if the fleet is at one when it arrives",
                "Keep it if the fleet will be at a World then, or name a World.",
            )

    def standing(self, orders: Orders) -> None:
        """The standing orders name things the side has: home worlds, ships, planets, units."""
        cells = orders.standing_cells
        if orders.forces_world:
            planet = self.state.map.planets.get(orders.forces_world)
            if planet is None or planet.home != IMPERIAL:
                homes = sorted(
                    p.code for p in self.state.map.planets.values() if p.home == IMPERIAL
                )
                self.error(
                    cells.get("forces_world", ""),
                    orders.forces_world,
                    f"{orders.forces_world} is not an Imperial home world",
                    f"Choose one of {', '.join(homes)}, or leave it blank.",
                )
        for uid in orders.crisis_ships:
            unit = self.units.get(uid)
            if unit is None or not unit.fleet or self.kind(unit.code) not in MOVEMENT_POINTS:
                self.error(
                    cells.get("crisis_ships", ""),
                    " ".join(orders.crisis_ships),
                    f"{uid} is not one of your ships",
                    "Name your own ships (not monitors), as listed on 'Your forces'.",
                )
                break
        for d in orders.defences:
            planet = self.state.map.planets.get(d.planet)
            if planet is None or (
                planet.owner != self.side and d.planet not in self.on_planet.values()
            ):
                self.error(
                    d.cell,
                    d.planet,
                    f"{d.planet} is not a planet of yours",
                    "Name a planet you hold or where your units stand.",
                )
                continue
            for uid, h in d.placement.items():
                if self.on_planet.get(uid) != d.planet:
                    self.error(
                        d.cell,
                        f"{uid} {h}",
                        f"{uid} is not one of your units standing on {d.planet}",
                        "Place only your units in its box (see 'Your forces').",
                    )
                    break
                if not 1 <= h <= planet.hexes:
                    self.error(
                        d.cell,
                        f"{uid} {h}",
                        f"{planet.name} has hexes 1-{planet.hexes}; {h} is not one of them",
                        "Use hexes of its planetary map.",
                    )
                    break
            else:
                crowded = [
                    h for h in set(d.placement.values()) if list(d.placement.values()).count(h) > 5
                ]
                if crowded:
                    self.error(
                        d.cell,
                        d.planet,
                        f"more than five units are placed in hex {crowded[0]}",
                        "At most five units stand in one hex.",
                    )

    def projects(self, orders: Orders) -> None:
        seen: set[str] = set()
        for p in orders.terraform:
            planet = self.state.map.planets.get(p.planet)
            why = ""
            if planet is None:
                why = f"there is no planet {p.planet} on the map"
            elif p.planet in seen:
                why = f"{p.planet} is named twice; one instalment a turn is paid"
            elif planet.type not in TERRAFORM_TURNS:
                why = (
                    f"{planet.name} is type {planet.type}; only N1 and N2 planets can be "
                    "terraformed"
                )
            elif not is_friendly(planet, self.side, "Outpost"):
                why = f"{planet.name} holds no Outpost of yours (or it is disputed)"
            elif not connected(self.state, self.side, planet.system):
                why = f"{planet.name}'s Outpost is not connected to your home worlds"
            seen.add(p.planet)
            if why:
                self.error(
                    p.cell, p.planet, why, "Name an N1/N2 planet with your connected Outpost."
                )
        seen = set()
        for p in orders.upgrades:
            planet = self.state.map.planets.get(p.planet)
            why = ""
            if not self.state.at_peace():
                why = "Outposts are upgraded to Worlds only in peacetime"
            elif planet is None:
                why = f"there is no planet {p.planet} on the map"
            elif p.planet in seen:
                why = f"{p.planet} is named twice; one instalment a turn is paid"
            elif not is_friendly(planet, self.side, "Outpost"):
                why = f"{planet.name} holds no Outpost of yours"
            elif planet.klass != "A":
                why = (
                    f"{planet.name} is type {planet.type}; only Outposts on type A planets "
                    "become Worlds"
                )
            seen.add(p.planet)
            if why:
                self.error(
                    p.cell,
                    p.planet,
                    why,
                    "Leave the upgrade blank or name your Outpost on an A planet.",
                )

    # -- activations ----------------------------------------------------------------------------
    def activations(self, orders: Orders) -> None:
        for segment in range(1, 5):
            lines = orders.activations_in(segment)
            unread = [a for a in orders.unreadable if a.segment == segment]
            seg = _Segment(segment)
            every = sorted([*lines, *unread], key=lambda a: (a.order, a in unread))
            for act in every:
                if act in unread:
                    self.unreadable(act)
                    continue
                n = lines.index(act)
                if n >= ACTIVATION_ROWS:
                    self.error(
                        act.cell,
                        act.text,
                        f"segment {segment} has {len(lines)} activations; an initiative roll "
                        f"allows at most {ACTIVATION_ROWS}",
                        "Move the extra activations to another segment.",
                    )
                    continue
                self.activation(act, seg)
        extra = [a for a in orders.activations if a.segment not in (1, 2, 3, 4)]
        for a in extra:
            self.error(
                a.cell, a.text, f"there is no action segment {a.segment}", "Use segments 1-4."
            )

    def unreadable(self, act: Activation) -> None:
        """A line already reported as unreadable: the fleets it names may have moved, so
        their later lines are checked wherever they stand (one typo, one message)."""
        for word in re.findall(r"[A-Za-z0-9_-]+", act.text.upper()):
            for name in self.pos:
                if name.upper() == word:
                    self.uncertain.setdefault(name, act.cell)

    def activation(self, act: Activation, seg: _Segment) -> None:
        segment = seg.number
        system_ref = act.cell.replace(f"!{ACT_ACTIONS_COL}", f"!{ACT_SYSTEM_COL}", 1)
        text = act.text or actions_text(act.actions)
        if all(a.kind == "pass" for a in act.actions):
            return
        if act.system not in self.state.map.systems:
            self.error(
                system_ref,
                act.system,
                f"there is no system {act.system} on the map",
                "Choose the system code from the list.",
            )
            return
        left: dict[str, str] = {}  # fleets that left the activated system on this line
        for action in act.actions:
            if action.kind == "pass":
                continue
            if action.kind == "attack" and not action.fleet:
                self.attempt(self.renewal, act, action, text, seg)
                continue
            if action.fleet not in self.pos:
                self.unknown_fleet(act, action.fleet, text)
                continue
            if action.fleet in left:
                self.acts_after_leaving(act, action, left[action.fleet], text)
                continue
            here = self.pos[action.fleet]
            if here != act.system and action.fleet in self.uncertain:
                # Named on a line that could not be read: that line is the one reported;
                # where the fleet stands after it is not known, so take the sheet's word.
                self.pos[action.fleet] = here = act.system
            if here == act.system:
                before = len(self.problems)
                self.attempt(getattr(self, f"do_{action.kind}"), act, action, text, seg)
                if action.kind == "move" and len(self.problems) > before:
                    # A refused move: its problem is reported; where the player meant the
                    # fleet to be next is not known, so later lines take the sheet's word.
                    self.uncertain.setdefault(action.fleet, act.cell)
            elif unrun := self.possible(action.fleet, act.system, segment):
                self.backup(act, action, text, segment, unrun)
            else:
                self.error(
                    act.cell,
                    text,
                    f"{action.fleet} will be at {here}, not {act.system}, when this line "
                    "comes up (following your earlier orders, whether or not the moves of "
                    "earlier segments run)",
                    f"Activate {here} for {action.fleet}, or correct its earlier moves.",
                )
                continue
            if action.kind == "move" and self.pos.get(action.fleet, act.system) != act.system:
                left[action.fleet] = self.pos[action.fleet]
                self.moved_on(action.fleet, act, segment, self.pos[action.fleet])

    def attempt(
        self, check: Callable[..., None], act: Activation, a: Action, text: str, seg: _Segment
    ) -> None:
        """Follow one action through the plan; the first rule it breaks is the line's error."""
        try:
            check(act, a, text, seg)
        except _Refused as refused:
            self.error(act.cell, text, refused.problem, refused.fix)

    def moved_on(self, fleet: str, act: Activation, segment: int, dest: str) -> None:
        """Record a move from the activated system: the fleet may now be at ``dest`` on the
        same condition as it was at the start, and stays at the start only if this move does
        not run."""
        places = self.where.setdefault(fleet, {})
        start = places.get(act.system, (0, "", ""))
        if dest not in places or places[dest][0] > start[0]:
            places[dest] = start
        if segment > start[0]:
            places[act.system] = (segment, dest, act.cell)

    def possible(self, fleet: str, system: str, segment: int) -> tuple[int, str, str] | None:
        """The move that must not have run for ``fleet`` to be at ``system`` when a line of
        ``segment`` comes up, or None when it cannot be there: only a move of an earlier
        segment can fail to run while a later line runs."""
        found = self.where.get(fleet, {}).get(system)
        if found is None or not found[0] or found[0] >= segment:
            return None
        return found

    def unknown_fleet(self, act: Activation, name: str, text: str) -> None:
        """A fleet the plan does not have here: gone by a join earlier on the sheet (say which
        way a join works), or not the side's at all."""
        if name in self.joined:
            into, cell = self.joined[name]
            self.error(
                act.cell,
                text,
                f"{name} no longer exists when this line comes up: '{into} join {name}' "
                f"({cell.rpartition('!')[2]}) put its units into {into} and removed {name} (the "
                "fleet named first takes in the second)",
                f"To keep {name}, write '{name} join {into}' there; or give these orders to "
                f"{into}.",
            )
            return
        self.not_yours(act.cell, text, "fleets", name)

    def acts_after_leaving(self, act: Activation, action: Action, gone: str, text: str) -> None:
        """An action on a line after the same fleet's move away: an activation acts at its
        system, and moving and attacking are separate activations in separate segments."""
        if action.kind == "attack":
            self.error(
                act.cell,
                text,
                f"{action.fleet} moves to {gone} on this line; moving and attacking a planet "
                "are separate activations in separate segments",
                f"Attack {action.planet} in a later segment, from a line activating {gone}.",
            )
            return
        self.error(
            act.cell,
            text,
            f"{action.fleet} moves to {gone} on this line, and the other actions of an "
            f"activation happen at {act.system}",
            f"Put the {action.kind} on a line of its own activating {gone}, after the move.",
        )

    def backup(
        self,
        act: Activation,
        action: Action,
        text: str,
        segment: int,
        unrun: tuple[int, str, str],
    ) -> None:
        """A line for a fleet that is at the activated system only if a move of an earlier
        segment did not run: checked in that case, said so, and kept out of the main plan."""
        fleet = action.fleet
        seg, dest, cell = unrun
        case = (
            f"checked as a backup line: {fleet} is at {act.system} only if its move to "
            f"{dest} ({cell.rpartition('!')[2]}, segment {seg}) did not run (initiative may cut a "
            "segment short; a tie cancels it); if it is elsewhere, this line is skipped and "
            "costs no activation"
        )
        saved = (dict(self.pos), {k: list(v) for k, v in self.contents.items()})
        saved_planets = dict(self.on_planet)
        before = len(self.problems)
        self.pos[fleet] = act.system
        self.attempt(getattr(self, f"do_{action.kind}"), act, action, text, _Segment(segment))
        if len(self.problems) == before:
            self.warn(act.cell, text, case, "Nothing to change if that is what you meant.")
        moved_to = self.pos.get(fleet, act.system)
        self.pos, self.contents = saved
        if action.kind == "move" and moved_to != act.system:
            self.moved_on(fleet, act, segment, moved_to)
        self.on_planet = saved_planets

    def do_move(self, act: Activation, a: Action, text: str, seg: _Segment) -> None:
        ids = self.contents[a.fleet]
        codes = {self.units[i].code for i in ids}
        if "M" in codes:
            raise _Refused(
                f"{a.fleet} holds monitors, which never leave their system",
                "Split the monitors off first, or do not move this fleet.",
            )
        if not any(self.kind(self.units[i].code) in MOVEMENT_POINTS for i in ids):
            raise _Refused(
                f"{a.fleet} has no ships to move", "Load its units into a fleet with ships."
            )
        if a.fleet in seg.moved:
            raise _Refused(
                f"{a.fleet} already moved in segment {seg.number}; no unit moves twice in one "
                "segment",
                "Move it again in a later segment.",
            )
        heavy = self.over_capacity(ids)
        if heavy:
            raise _Refused(
                f"{a.fleet} cannot move: it carries {heavy}",
                "Unload or split off what it cannot carry.",
            )
        here = act.system
        cost = 0
        start_deep = self.state.map.systems[here].deep
        if start_deep and seg.number != 1:
            raise _Refused(
                f"{a.fleet} is in deep space, where ships move only in the first action segment",
                "Move it in segment 1.",
            )
        if start_deep and len(a.route) > 1:
            raise _Refused(
                "from deep space a fleet moves one step only",
                f"Write one system: {a.fleet} > {a.route[0]}.",
            )
        for step in a.route:
            if step not in self.state.map.systems:
                raise _Refused(
                    f"there is no system {step} on the map", "Write the system codes of the map."
                )
            route = self.state.map.route(here, step)
            if route is None:
                raise _Refused(
                    f"there is no jump route from {here} to {step}",
                    "Each system of the route must be one jump from the one before ('Your "
                    "forces' lists the routes).",
                )
            if self.state.at_peace() and any(
                self.enemy_marker(p) for p in self.state.map.planets_in(step)
            ):
                raise _Refused(
                    f"in peacetime fleets may not enter {step}, which holds an enemy World "
                    "or Outpost",
                    "Choose a route around it.",
                )
            cost += route.length
            here = step
        points = self.speed(a.fleet)
        if cost > points:
            raise _Refused(
                f"the route costs {cost} movement points but {a.fleet} has {points} "
                "(slowest ship; damaged ships 1 less)",
                "Shorten the route and go on in a later segment.",
            )
        seg.moved.add(a.fleet)
        seg.arrived.add(a.fleet)
        self.pos[a.fleet] = here

    def _planet_here(self, act: Activation, a: Action) -> Planet:
        planet = self.state.map.planets.get(a.planet)
        if planet is None or planet.system != act.system:
            raise _Refused(
                f"there is no planet {a.planet} in {act.system}",
                f"Name a planet of {act.system} ('Your forces' and the map list them).",
            )
        return planet

    def _target(self, act: Activation, a: Action) -> Planet:
        """The planet an attack names, if it is in the activated system and it is wartime."""
        planet = self._planet_here(act, a)
        if self.state.at_peace():
            raise _Refused("there are no attacks in peacetime", "Delete the attack.")
        return planet

    def renewal(self, act: Activation, a: Action, text: str, seg: _Segment) -> None:
        """``attack PLANET`` with no fleet: only on a disputed planet where the side stands."""
        planet = self._target(act, a)
        if not planet.disputed or planet.code not in self.on_planet.values():
            raise _Refused(
                f"an attack without a fleet renews the fight on a disputed planet where your "
                f"units stand, and {planet.name} is not one",
                f"Name the fleet that attacks: T1 attack {planet.code} auto.",
            )
        self._fight_hexes(act, a, text, planet)

    def _fight_hexes(self, act: Activation, a: Action, text: str, planet: Planet) -> None:
        bad = [h for h in (a.fight or []) if not 1 <= h <= planet.hexes]
        if bad:
            self.error(
                act.cell,
                text,
                f"{planet.name} has hexes 1-{planet.hexes}; {bad[0]} is not one to fight in",
                "Use hexes of its planetary map after 'fight', or 'fight all'.",
            )

    def do_attack(self, act: Activation, a: Action, text: str, seg: _Segment) -> None:
        planet = self._target(act, a)
        if planet.owner == self.side and not planet.disputed:
            raise _Refused(
                f"{planet.name} is your own planet", "Attack an enemy or unclaimed planet."
            )
        if a.fleet in seg.arrived:
            raise _Refused(
                f"{a.fleet} moved into {act.system} this segment; moving and attacking "
                "a planet are separate activations in separate segments",
                "Attack in a later segment.",
            )
        bad = [h for h in a.hexes if not 1 <= h <= planet.hexes]
        if bad:
            raise _Refused(
                f"{planet.name} has hexes 1-{planet.hexes}; {bad[0]} is not one of them",
                "Use hexes of its planetary map, or auto.",
            )
        self._fight_hexes(act, a, text, planet)
        # The troops and fighters the planet type allows land and leave the fleet (as
        # `planet_battle.land` does), so a later load into this fleet has their room.
        landing = {code for code in ("RT", "JT", "F") if code in ALLOWED_ON[planet.klass]}
        self.contents[a.fleet] = [
            u for u in self.contents[a.fleet] if self.units[u].code not in landing
        ]

    def do_load(self, act: Activation, a: Action, text: str, seg: _Segment) -> None:
        planet = self._planet_here(act, a)
        for uid in a.units:
            unit = self.units.get(uid)
            if unit is None:
                self.not_yours(act.cell, text, "units", uid)
                return
            if self.on_planet.get(uid) != planet.code:
                raise _Refused(
                    f"{uid} is not on {planet.code}",
                    "Load units standing on that planet ('Your forces' lists them).",
                )
            if unit.code == "PD" and planet.disputed:
                raise _Refused(
                    "planetary defence may not be loaded from a disputed planet",
                    f"Leave {uid} on {planet.code}.",
                )
        heavy = self.over_capacity(self.contents[a.fleet] + a.units)
        if heavy:
            raise _Refused(
                f"{a.fleet} would carry {heavy}",
                "Load fewer units or bring more transports/carriers.",
            )
        for uid in a.units:
            self.on_planet.pop(uid, None)
            self.contents[a.fleet].append(uid)

    def do_unload(self, act: Activation, a: Action, text: str, seg: _Segment) -> None:
        planet = self._planet_here(act, a)
        if self.enemy_marker(planet):
            raise _Refused(
                f"{planet.name} belongs to the enemy; units land there by an attack",
                f"Write {a.fleet} attack {planet.code} auto.",
            )
        for uid in a.units:
            if uid not in self.contents[a.fleet]:
                raise _Refused(
                    f"{uid} is not aboard {a.fleet}",
                    "Unload units the fleet carries ('Your forces' lists them).",
                )
            code = self.units[uid].code
            if code not in CARGO and code != "F":
                raise _Refused(
                    f"{uid} is a ship; only troops, PD, fighters and outposts go down to a planet",
                    "Split ships into fleets instead.",
                )
            if code != "OP" and code not in ALLOWED_ON[planet.klass]:
                raise _Refused(
                    f"{code} may not stand on a type {planet.type} planet",
                    f"On {planet.klass} planets: {', '.join(ALLOWED_ON[planet.klass])}.",
                )
            if code == "PD" and planet.disputed:
                raise _Refused(
                    "planetary defence may not be unloaded onto a disputed planet",
                    "Keep it aboard.",
                )
        present = sum(1 for p in self.on_planet.values() if p == planet.code)
        monitors = self.state.box_monitors(planet.code) if planet.owner == self.side else 0
        if present + monitors + len(a.units) > planet.capacity:
            also = f" (and {counted(monitors, 'monitor')} of yours, kept in it)" if monitors else ""
            raise _Refused(
                f"{planet.name}'s box holds at most {planet.capacity} units and "
                f"{present} of yours are there{also}",
                "Unload fewer units.",
            )
        for uid in a.units:
            self.contents[a.fleet].remove(uid)
            self.on_planet[uid] = planet.code

    def do_split(self, act: Activation, a: Action, text: str, seg: _Segment) -> None:
        if a.target.upper() in self.taken:
            raise _Refused(
                f"the fleet name {a.target} is already in use",
                "Choose another name for the new fleet.",
            )
        missing = [u for u in a.units if u not in self.contents[a.fleet]]
        if missing:
            if missing[0] not in self.units:
                self.not_yours(act.cell, text, "units", missing[0])
            else:
                self.error(
                    act.cell,
                    text,
                    f"{missing[0]} is not in {a.fleet}",
                    "Split off units the fleet holds.",
                )
            return
        # The same conditions the resolution applies (segments.split): both fleets keep a
        # ship and each can carry what it holds; a split that must fail is an error now.
        staying = [u for u in self.contents[a.fleet] if u not in a.units]
        for label, part in ((a.target, list(a.units)), (a.fleet, staying)):
            if not any(self.units[u].code in SHIP_CODES for u in part):
                raise _Refused(
                    f"fleet {label} would have no ship after the split",
                    "Keep at least one ship in each fleet.",
                )
            if heavy := self.over_capacity(part):
                raise _Refused(
                    f"fleet {label} would be overloaded after the split: {heavy}",
                    "Move transports or carriers with their cargo.",
                )
        self.taken.add(a.target.upper())
        self.created.add(a.target)
        self.pos[a.target] = act.system
        self.contents[a.target] = list(a.units)
        self.contents[a.fleet] = [u for u in self.contents[a.fleet] if u not in a.units]
        if a.fleet in seg.moved:
            seg.moved.add(a.target)
        if a.fleet in seg.arrived:
            seg.arrived.add(a.target)

    def do_join(self, act: Activation, a: Action, text: str, seg: _Segment) -> None:
        if a.target not in self.pos:
            self.not_yours(act.cell, text, "fleets", a.target)
            return
        if a.target == a.fleet:
            raise _Refused("a fleet cannot join itself", "Name the other fleet.")
        if self.pos[a.target] != act.system:
            raise _Refused(
                f"{a.target} will be at {self.pos[a.target]}, not {act.system}",
                "Join fleets in the same system.",
            )
        self.contents[a.fleet].extend(self.contents.pop(a.target))
        del self.pos[a.target]
        self.joined[a.target] = (a.fleet, act.cell)
        if a.target in seg.moved:
            seg.moved.add(a.fleet)
        if a.target in seg.arrived:
            seg.arrived.add(a.fleet)

    def do_evacuate(self, act: Activation, a: Action, text: str, seg: _Segment) -> None:
        planet = self._planet_here(act, a)
        if not planet.disputed:
            self.warn(
                act.cell,
                text,
                f"{planet.name} is not disputed now; evacuation is from a disputed planet",
                "Keep it only if you expect fighting there this turn.",
            )

    # -- battle orders and close-out --------------------------------------------------------------
    def battle_orders(self, orders: Orders) -> None:
        seen: set[str] = set()
        for b in orders.battle_orders:
            ref = b.cell or f"{ORDERS_SHEET}!B67"
            if (
                b.fleet not in self.contents
                and b.fleet not in self.created
                and not any(f.name == b.fleet and f.side == self.side for f in self.state.fleets)
            ):
                self.not_yours(ref, b.fleet, "fleets", b.fleet)
                continue
            if b.fleet in seen:
                self.error(
                    ref, b.fleet, f"{b.fleet} has battle orders twice", "Keep one line per fleet."
                )
                continue
            seen.add(b.fleet)
            if b.stance not in STANCES or b.priority not in PRIORITIES or not 0 <= b.break_off <= 3:
                self.error(
                    ref,
                    b.fleet,
                    "these battle orders are not readable",
                    "Choose from the dropdowns.",
                )
        if orders.bombard_priority not in ("PD", "F"):
            self.error(
                orders.bombard_priority_cell or ORDERS_SHEET,
                orders.bombard_priority,
                "the bombardment priority must be PD or F",
                "Choose PD or F.",
            )

    def close_out(self, orders: Orders) -> None:
        for c in orders.close_out:
            found = f"{c.kind} {' '.join(c.units)}"
            if c.kind not in CLOSE_OUT_KINDS:
                self.error(
                    c.cell,
                    found,
                    f"{c.kind!r} is not a close-out kind",
                    "Choose scrap, repair, ground repair or augment.",
                )
                continue
            repeated = sorted({uid for uid in c.units if c.units.count(uid) > 1})
            if repeated:
                self.error(
                    c.cell,
                    found,
                    f"{repeated[0]} is named more than once in one close-out line",
                    "Name each unit once.",
                )
                continue
            units = []
            for uid in c.units:
                unit = self.units.get(uid)
                if unit is None:
                    self.not_yours(c.cell, found, "units", uid)
                    break
                units.append(unit)
            else:
                self._close_out(c.kind, units, c.cell, found)

    def _close_out(self, kind: str, units: list[Any], ref: str, found: str) -> None:
        kinds = {u.id: self.kind(u.code) for u in units}
        if kind == "augment":
            codes = {u.code for u in units}
            if len(units) != 2 or len(codes) != 1 or not codes <= {"F", "M"}:
                self.error(
                    ref,
                    found,
                    "augmentation combines exactly two reduced fighters (F) or two monitors (M)",
                    "Name two F or two M units.",
                )
                return
        for u in units:
            if kind in ("scrap", "repair") and kinds[u.id] not in (
                "capital",
                "light",
                "aux",
                "monitor",
            ):
                self.error(
                    ref,
                    found,
                    f"{u.id} is not a ship; only ships are "
                    f"{'scrapped' if kind == 'scrap' else 'repaired'} in the close-out",
                    "Use ground repair for troops and PD.",
                )
                return
            if kind == "ground repair" and u.code not in ("RT", "JT", "PD"):
                self.error(
                    ref,
                    found,
                    f"{u.id} is not a troop or PD unit; ground repair restores reduced "
                    "troops and planetary defence",
                    "Use repair for ships.",
                )
                return
            if kind == "ground repair" and not u.planet:
                self.error(
                    ref,
                    found,
                    f"{u.id} is aboard a transport; ground units are repaired standing on "
                    "your World or Outpost",
                    "Unload it first.",
                )
                return
            exempt = kind == "scrap" and u.code == "M"
            if not u.damaged and not exempt:
                # Ships are damaged; troops, PD and fighters are reduced (the seed's words).
                state_word, harm = (
                    ("reduced", "reduce")
                    if u.code in ("RT", "JT", "PD", "F")
                    else ("damaged", "damage")
                )
                self.warn(
                    ref,
                    found,
                    f"{u.id} is not {state_word} now; the order is carried out only if this "
                    f"turn's battles or maintenance {harm} it",
                    "Delete the line if that is not what you meant.",
                )


def validate_orders(
    state: State, player: str, orders: Orders, rules: Mapping[str, Any]
) -> list[CellProblem]:
    """Every problem of ``player``'s orders that can be judged before the turn is played."""
    try:
        side = state.side_of(player)
    except KeyError:
        return [
            CellProblem(
                ORDERS_SHEET,
                "",
                player,
                f"{player!r} is not a player of this game",
                "Use the sheet you were sent.",
            )
        ]
    if orders.side != side:
        return [
            CellProblem(
                ORDERS_SHEET,
                SIDE_CELL,
                orders.side,
                f"this sheet is for the {orders.side} side but {player} plays {side}",
                "Use the sheet you were sent.",
            )
        ]
    check = _Checker(state, side, rules)
    check.appeal(orders)
    cost = check.builds(orders)
    check.arrivals(orders)
    check.standing(orders)
    check.projects(orders)
    cost += INSTALMENT * (len(orders.terraform) + len(orders.upgrades))
    budget = state.sides[side].resources + expected_income(state, side)
    if cost > budget and orders.builds:
        check.warn(
            orders.builds[0].cell,
            f"total {cost}",
            f"construction, terraforming and upgrades cost {cost} but you can expect about "
            f"{budget} resources (stockpile {state.sides[side].resources} + income); lines "
            "that cannot be paid are skipped in sheet order",
            "Build less, or keep it if you expect an Appeal or a Boom.",
        )
    elif cost and orders.stockpile_upkeep:
        bill = upkeep_bill(state, side, rules)
        if budget - cost < bill.stockpile:
            where = (orders.builds or orders.terraform or orders.upgrades)[0].cell
            check.warn(
                where,
                f"total {cost}",
                f"after construction, terraforming and upgrades about {budget - cost} "
                f"resources remain, but close-out's upkeep asks {bill.stockpile} of the "
                f"stockpile ({bill.ships} for ships beyond what your Worlds and Outposts pay "
                f"locally, {bill.ground} for troops and PD); what cannot be paid rolls for "
                "damage",
                "Build less, or bring ships home to your Worlds, which pay their upkeep "
                "locally; the sheet shows the bill beside the builds.",
            )
    check.activations(orders)
    check.battle_orders(orders)
    check.close_out(orders)
    return check.problems
