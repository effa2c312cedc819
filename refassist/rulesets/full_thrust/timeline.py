"""A ship's week: its activities run one after the other in decimal time.

Orders give each ship (or fleet) a list of activities; this module runs the list against the
map and the ship as it stands and returns where the ship is at every moment (its `Leg`s),
where it ends, and every impossibility or risk, each tied to the activity that causes it.  The
checker pins these to the sheet's cells; the week's resolution runs the same plan and then
cuts it short where something happens (a battle, a hasty jump gone wrong).

Durations (seed, activity table and merchant example): travel 1 parsec an hour; landing and
lifting one day together (house rule ``land_lift``); loading and/or unloading a day (at a
space station ``station_cargo_hours``); refuelling a day; the FTL drive recharges for a day
after every jump, and it does so while the ship does other things (the example's merchant
loads and refuels through its recharge), so only a jump less than a day after the last
arrival is hasty.  A jump includes getting clear of the planet: the example adds no time for
it, so a jump is made from beyond 40 inches unless the order says ``from N"``.

What depends on who holds a place (an invasion of a neutral planet, points given at another
commander's planet) is judged by the holders the commander knows at the start of the week
(``holders``, from `visibility.known_holders`): a place out of its sight is not refused, so
that no error of the checker tells a commander more than its report; the week itself finds
out when the ship is there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .clock import HOURS_PER_DAY, WEEK, time_text
from .designs import FULL_TANK_PARSECS, MAX_JUMP, SCRAP_DAYS, Design
from .grid import blocked_by, distance, square_code
from .state import State

#: Activities a ship may be given, and what each takes.
KINDS = (
    "jump",
    "land",
    "lift",
    "load",
    "unload",
    "sell",
    "refuel",
    "recharge",
    "wait",
    "guard",
    "reserve",
    "explore",
    "invade",
    "tow",
    "release",
    "repair",
    "scrap",
    "refit",
    "demolish",
)
RECHARGE_HOURS = HOURS_PER_DAY
SAFE_INCHES = 40
#: ``load all``, ``unload all``, ``sell all``: whatever fits, or whatever is aboard.
ALL = -1
EMERGENCE_LIMITS = (30, 300)


@dataclass(frozen=True)
class Activity:
    """One line of a ship's timeline as ordered.  ``at``: not before this hour of the week;
    ``until``: for wait and guard, the hour it ends (None: the end of the week)."""

    kind: str
    #: jump: the destination; refuel: the ship or station it refuels from; unload: the
    #: commander the points are given to ("": the ship's own); demolish: the facility
    target: str = ""
    amount: int = 0  # load, unload, sell: production points
    inches: int = 30  # jump: emergence distance from the target's planet
    bearing: int = 6  # jump: emergence bearing on the 12-point clock
    jump_from: int | None = None  # jump: inches from the planet when jumping (None: >= 40)
    at: int | None = None
    until: int | None = None
    cell: str = ""
    text: str = ""


@dataclass(frozen=True)
class Leg:
    """A stretch of the ship's week: ``place`` where it is ("" in jump space)."""

    start: int
    end: int
    kind: str
    place: str
    activity: int  # index in the timeline (-1: idle time the ship was not given)
    destination: str = ""
    parsecs: int = 0
    hasty: bool = False
    #: scrap: hours of the work left for next week (a capital ship takes 150 hours, the
    #: week 100); the leg itself ends with the week.
    left: int = 0


@dataclass(frozen=True)
class Trouble:
    """Something wrong (``error``) or risky (``warning``) with an activity of the timeline."""

    activity: int
    message: str
    fix: str
    severity: str = "error"


@dataclass(frozen=True)
class Position:
    """Where a ship stands and in what condition, at a moment of the week."""

    place: str
    fuel: int
    cargo: int
    landed: bool
    inches: int
    ready_at: int  # the hour its drive has recharged (<= now: ready)
    drive: str = "ok"
    cargo_known: bool = True  # False after a sale: the hold's worth waits for the price roll
    damage: int = 0
    towing: str = ""  # the facility a tug has in tow
    captured: bool = False  # a captured warship not yet refitted: it can only be refitted
    scrapping: int = 0  # hours of scrapping left from last week (it takes no orders)


@dataclass
class Plan:
    legs: list[Leg] = field(default_factory=list)
    troubles: list[Trouble] = field(default_factory=list)
    end: Position | None = None
    reserve: bool = False

    @property
    def errors(self) -> list[Trouble]:
        return [t for t in self.troubles if t.severity == "error"]


@dataclass(frozen=True)
class Works:
    """What a commander has to work with, where: space stations, shipyards, ports on its
    planets, and its orbital facilities that a tug may take in tow (id -> place, mass)."""

    stations: frozenset[str] = frozenset()
    yards: frozenset[str] = frozenset()
    ports: Mapping[str, str] = field(default_factory=dict)
    facilities: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    #: Places where a ship of its with a Repair Facility is in service (L158): it repairs the
    #: commander's ships there, itself included, as a space station does.
    menders: frozenset[str] = frozenset()

    @classmethod
    def of(cls, state: State, owner: str, rules: Mapping[str, Any]) -> Works:
        ready = [f for f in state.facilities if f.owner == owner and f.working(state.week)]
        masses = {"shipyard": 40, "omp": 30, "station": int(rules["station_mass"])}
        return cls(
            stations=frozenset(f.place for f in ready if f.kind == "station" and f.place),
            yards=frozenset(state.yards(owner)),
            ports={s.name: s.port for s in state.systems.values() if s.owner == owner and s.port},
            facilities={
                f.id: (f.place, masses[f.kind])
                for f in ready
                if f.kind in masses and not f.towed_by
            },
            menders=frozenset(
                s.place
                for s in state.ships
                if s.owner == owner and s.stores.get("Repair Facility") and not s.ready_week
            ),
        )


def builds(works: Works, place: str, design: Design) -> bool:
    """Whether the commander has a facility able to build ``design`` at ``place`` (a yard;
    a starport for a streamlined ship): what a refit, scrapping and a new drive need."""
    return place in works.yards or (works.ports.get(place) == "starport" and design.streamlined)


def _hours(
    kind: str,
    rules: Mapping[str, Any],
    at_station: bool,
    design: Design,
    pos: Position,
    works: Works,
) -> int:
    if kind == "invade":
        return 0  # the fleet demands the planet's surrender on arrival
    if kind == "scrap":
        return pos.scrapping or SCRAP_DAYS[design.size] * HOURS_PER_DAY
    if kind == "refit":
        # The seed's capture refit "takes one week"; a refit to another design the same (its
        # time has no unit in the seed, and construction itself takes a week here).
        return WEEK
    if kind == "demolish":
        return HOURS_PER_DAY  # setting the charges and taking the crew off (our reading)
    if kind == "repair":
        if pos.drive == "destroyed" and builds(works, pos.place, design):
            return WEEK  # a new drive is fitted like a refit: the whole week (our reading)
        days = math.ceil(pos.damage / int(rules["repair_boxes_a_day"]))
        return HOURS_PER_DAY * max(1, days + (1 if pos.drive == "disabled" else 0))
    if kind == "land":
        return HOURS_PER_DAY
    if kind == "lift":
        return 0 if rules["land_lift"] == "pair" else HOURS_PER_DAY
    if kind in ("load", "unload", "sell") and at_station:
        return int(rules["station_cargo_hours"])
    return HOURS_PER_DAY


def run(
    state: State,
    owner: str,
    design: Design,
    start: Position,
    activities: Sequence[Activity],
    rules: Mapping[str, Any],
    *,
    stations: frozenset[str] = frozenset(),
    holders: Mapping[str, str] | None = None,
) -> Plan:
    """Run ``activities`` for a ship of ``design`` belonging to ``owner`` from ``start``.

    ``stations`` are places where ``owner`` has a space station (cargo and fuel there without
    landing) beyond those of the state.  ``holders``: who holds each place as ``owner`` knows
    it (a place left out is not known); None: as the state says.  An activity that is
    impossible is skipped (the ship carries on with the next from where it stands), so that
    one mistake does not hide the others.
    """
    plan = Plan()
    now = 0
    pos = start
    works = Works.of(state, owner, rules)
    stations = stations | works.stations

    def trouble(i: int, message: str, fix: str, severity: str = "error") -> None:
        plan.troubles.append(Trouble(i, message, fix, severity))

    demolished = False
    scrapped = False
    for i, a in enumerate(activities):
        if a.kind not in KINDS:
            trouble(i, f"{a.kind!r} is not an activity", "Choose one from the list.")
            continue
        if demolished:
            trouble(i, "the ship is demolished before this", "Take the line out.")
            continue
        if scrapped:
            trouble(
                i,
                "the ship is being scrapped before this; it does nothing else",
                "Take the line out.",
            )
            continue
        if a.kind == "reserve":
            if len(activities) > 1 and any(b.kind not in ("reserve", "guard") for b in activities):
                trouble(
                    i,
                    "a reserve ship does nothing else this week but guard",
                    "Give it only 'reserve' (and 'guard'), or take 'reserve' out.",
                )
            plan.reserve = True
            continue
        begin = now
        if a.at is not None:
            if a.at < now:
                trouble(
                    i,
                    f"it is to start at {time_text(a.at)} but the ship is busy until "
                    f"{time_text(now)}",
                    f"Start it at {time_text(now)} or later, or leave the time out.",
                )
            else:
                begin = a.at
        if begin > now:
            plan.legs.append(Leg(now, begin, "idle", pos.place, -1))
        at_station = pos.place in stations and not pos.landed
        system = state.systems.get(pos.place)
        end = begin
        if a.kind == "jump":
            jumped = _jump(state, design, pos, a, begin, rules, i, trouble)
            if jumped is None:
                continue
            leg, pos = jumped
            plan.legs.append(leg)
            end = leg.end
        elif a.kind in ("wait", "guard"):
            end = WEEK if a.until is None else a.until
            if end < begin:
                trouble(
                    i,
                    f"it is to last until {time_text(end)}, which is before it can begin "
                    f"({time_text(begin)})",
                    "Give a later time.",
                )
                continue
            plan.legs.append(Leg(begin, end, a.kind, pos.place, i))
        else:
            holder = _holder(system, holders)
            problem = (
                None  # last week's scrapping goes on where it began
                if a.kind == "scrap" and pos.scrapping
                else _cannot(a, design, pos, system, holder, at_station, works, state.designs)
            )
            if problem:
                trouble(i, *problem)
                if problem[2] == "error":
                    continue
            end = begin + _hours(a.kind, rules, at_station, design, pos, works)
            if a.kind == "recharge":
                end = max(begin, min(end, pos.ready_at))
                if end == begin:
                    trouble(
                        i,
                        "the drive has recharged already",
                        "Take the line out; the drive recharges on its own for a day "
                        "after each jump, whatever else the ship does.",
                        "warning",
                    )
            if a.kind == "scrap" and end > WEEK:
                # Long work carries over, as construction does: the ship stays at the yard,
                # being scrapped, and its points are released when the work is done.
                plan.legs.append(Leg(begin, WEEK, a.kind, pos.place, i, left=end - WEEK))
                pos = replace(pos, scrapping=end - WEEK)
                scrapped = True
                now = WEEK
                continue
            plan.legs.append(Leg(begin, end, a.kind, pos.place, i))
            pos = _after(a, pos, design, builds(works, pos.place, design))
            demolished = a.kind == "demolish" and not a.target
            scrapped = a.kind == "scrap"
        if end > WEEK:
            trouble(
                i,
                f"it ends at {time_text(end)}, after the end of the week (10.0)",
                "Move it to next week's sheet, or start it earlier.",
            )
        now = end
    if now < WEEK:
        plan.legs.append(Leg(now, WEEK, "idle", pos.place, -1))
    plan.end = pos
    return plan


def _jump(
    state: State,
    design: Design,
    pos: Position,
    a: Activity,
    begin: int,
    rules: Mapping[str, Any],
    i: int,
    trouble: Any,
) -> tuple[Leg, Position] | None:
    here = state.systems.get(pos.place)
    there = state.systems.get(a.target)
    if there is None:
        trouble(i, f"there is no system or wormhole called {a.target!r}", "Name one on the map.")
        return None
    if here is None:
        trouble(i, "the ship is not at a system to jump from", "Jump from a system or wormhole.")
        return None
    if there.name == here.name:
        trouble(i, f"the ship is at {there.name} already", "A ship cannot jump within a system.")
        return None
    if not design.ftl:
        trouble(i, f"a {design.name} has no FTL drive", "Have a tug move it.")
        return None
    if pos.drive == "disabled":
        trouble(
            i,
            "the ship's FTL drive is disabled",
            "Repair it first ('repair' at a shipyard or space station of yours, or at a port "
            "of yours for a streamlined ship).",
        )
        return None
    if pos.drive != "ok":
        trouble(
            i,
            f"the ship's FTL drive is {pos.drive}",
            "Have it replaced first ('repair' for the week at a shipyard of yours, or at your "
            "starport for a streamlined ship); a tug may bring the ship there.",
        )
        return None
    if pos.landed:
        trouble(i, "the ship is landed", "Lift off first (add 'lift' before the jump).")
        return None
    if pos.captured:
        trouble(
            i,
            "a captured warship is not used until its capture refit",
            "Refit it this week at a yard of yours able to build it (refit).",
        )
        return None
    parsecs = distance(here.square, there.square, rules)
    if parsecs > MAX_JUMP:
        trouble(
            i,
            f"{there.name} is {parsecs} parsecs from {here.name}; a jump is at most {MAX_JUMP}",
            "Jump by way of a system between them.",
        )
        return None
    obstacle = blocked_by(here.square, there.square, state.obstacles)
    if obstacle is not None:
        trouble(
            i,
            f"the line from {here.name} to {there.name} crosses the obstacle at "
            f"{square_code(obstacle)}",
            "Go round it by way of another system.",
        )
        return None
    if pos.fuel < parsecs:
        trouble(
            i,
            f"the jump needs fuel for {parsecs} parsecs and the tanks hold {pos.fuel}",
            "Refuel first (a day at your planet, station, tender or merchant).",
        )
        return None
    low, high = EMERGENCE_LIMITS
    if not low <= a.inches <= high:
        trouble(
            i,
            f'the emergence distance {a.inches}" is outside {low}-{high}"',
            f'Emerge between {low} and {high} inches from the planet (default {low}").',
        )
        return None
    hasty = False
    if begin < pos.ready_at:
        hasty = True
        trouble(
            i,
            f"the drive has not recharged since the last jump (ready at "
            f"{time_text(pos.ready_at)}): a hasty jump, rolled on the Hasty Jump table",
            f"Jump at {time_text(pos.ready_at)} or later to be safe, or keep it to take the risk.",
            "warning",
        )
    close = a.jump_from if a.jump_from is not None else (0 if pos.landed else None)
    if close is not None and close < SAFE_INCHES:
        hasty = True
        trouble(
            i,
            f'a jump from {close}" of the planet is a hasty jump (safe from {SAFE_INCHES}")',
            f'Jump from {SAFE_INCHES}" or more to be safe, or keep it to take the risk.',
            "warning",
        )
    end = begin + parsecs
    leg = Leg(begin, end, "jump", "", i, destination=there.name, parsecs=parsecs, hasty=hasty)
    return leg, replace(
        pos,
        place=there.name,
        fuel=pos.fuel - parsecs,
        inches=a.inches,
        ready_at=end + RECHARGE_HOURS,
    )


def _holder(system: Any, holders: Mapping[str, str] | None) -> str | None:
    """Who holds the planet at ``system`` as the commander knows it: "" for none (or no
    planet, which the map shows), None when it does not know."""
    if system is None or not system.planet:
        return ""
    if holders is None:
        return str(system.owner)
    return holders.get(system.name)


def _cannot(
    a: Activity,
    design: Design,
    pos: Position,
    system: Any,
    holder: str | None,
    at_station: bool,
    works: Works,
    designs: Mapping[str, Design],
) -> tuple[str, str, str] | None:
    """Why the ship cannot do ``a`` where it stands (message, fix, severity), or None.  After
    a sale the hold's contents are known only at resolve time (the price is rolled then), so
    an amount the plan cannot confirm is a warning: the ship moves what it has.  ``holder``
    is who holds the planet as the commander knows it (None: not known, nothing refused)."""
    error = "error"
    if a.kind == "land":
        if pos.landed:
            return "the ship is landed already", "Take the line out.", error
        if system is None or not system.planet:
            return "there is no planet to land on here", "Land at a system with a planet.", error
        if not design.streamlined:
            return f"a {design.name} is not streamlined and cannot land", "Use a station.", error
    if a.kind == "lift" and not pos.landed:
        return "the ship is not landed", "Take the line out.", error
    if a.kind in ("load", "unload", "sell"):
        if not (pos.landed or at_station):
            return (
                "cargo is moved only landed on a planet or at a space station",
                "Land first (add 'land'), or do it at your station.",
                error,
            )
        if not design.cargo_spaces:
            return f"a {design.name} has no hold", "Carry cargo in a merchant or tender.", error
        if a.amount == 0:
            return (
                "no amount of production points is given",
                "Write how many, e.g. load 200, or all.",
                error,
            )
        if a.kind == "load" and a.amount != ALL and pos.cargo + a.amount > design.cargo_spaces:
            return (
                f"the hold takes {design.cargo_spaces} and would hold {pos.cargo + a.amount}",
                f"Load at most {design.cargo_spaces - pos.cargo}, or write load all.",
                error if pos.cargo_known else "warning",
            )
        if a.kind in ("unload", "sell") and a.amount != ALL and a.amount > pos.cargo:
            if pos.cargo_known:
                return (
                    f"the hold has {pos.cargo} production points, not {a.amount}",
                    f"Unload at most {pos.cargo}, or write {a.kind} all.",
                    error,
                )
            return (
                f"the hold may hold less than {a.amount} after the sale (its price is rolled "
                "when the goods are sold)",
                f"Write {a.kind} all to move whatever is aboard.",
                "warning",
            )
    if a.kind == "refuel" and not (
        pos.landed or at_station or a.target or works.ports.get(pos.place)
    ):
        return (
            "there is nothing to refuel from here",
            "Refuel landed at a planet, in orbit at a port of yours, at your station, or from "
            "another ship of yours (refuel from SHIP).",
            error,
        )
    if a.kind == "explore" and (system is None or not system.ancient_site):
        return "there is no ancient site here", "Explore where the map shows a site.", error
    if a.kind == "invade" and (system is None or not system.planet or holder):
        return (
            "there is no neutral planet to invade here",
            "Invade a planet nobody owns (its Value and defenders are on the map).",
            error,
        )
    if a.kind == "tow":
        towed = works.facilities.get(a.target)
        if design.kind != "tug":
            return "only a tug takes a facility in tow", "Send a tug.", error
        if pos.towing:
            return f"the tug has {pos.towing} in tow already", "Release it first.", error
        if towed is None or towed[0] != pos.place:
            return (
                f"there is no facility {a.target!r} of yours here to take in tow",
                "Write the id of your shipyard, mining platform or station where the tug is.",
                error,
            )
        if towed[1] > design.mass:
            return (
                f"{a.target} is of mass {towed[1]}, more than the tug's {design.mass}",
                "Use a tug of at least the facility's mass.",
                error,
            )
    if a.kind == "unload" and a.target and holder is not None and holder != a.target:
        return (
            f"{pos.place} is not a planet of {a.target}'s: points are given at a planet of "
            "the commander who receives them",
            f"Take them to one of {a.target}'s planets, or unload them for yourself.",
            error,
        )
    if a.kind == "demolish" and a.target:
        found = works.facilities.get(a.target)
        if found is None or found[0] != pos.place:
            return (
                f"there is no facility {a.target!r} of yours here to demolish",
                "Write the id of your shipyard, mining platform or station where the ship is.",
                error,
            )
    if a.kind == "release" and not pos.towing:
        return "the tug has nothing in tow", "Take the line out.", error
    if a.kind == "refit" and a.target:
        new = designs.get(a.target)
        if pos.captured:
            return (
                "a captured warship has its capture refit first",
                "Write refit alone this week.",
                error,
            )
        if new is None:
            return (
                f"there is no design called {a.target!r}",
                "Name a design of the design list.",
                error,
            )
        if (new.mass, new.streamlined) != (design.mass, design.streamlined):
            return (
                f"a {design.name} (mass {design.mass}"
                + (", streamlined" if design.streamlined else "")
                + f") cannot become a {new.name} (mass {new.mass}"
                + (", streamlined" if new.streamlined else "")
                + "): a hull is not altered in size or streamlining",
                "Refit it to a design of the same mass and streamlining.",
                error,
            )
        if new.name == design.name:
            return f"the ship is a {new.name} already", "Take the line out.", error
        if pos.cargo > new.cargo_spaces:
            return (
                f"a {new.name}'s hold takes {new.cargo_spaces} and {pos.cargo} are aboard",
                "Unload first.",
                error,
            )
    elif a.kind == "refit" and not pos.captured:
        return (
            "only a captured warship has a capture refit",
            "Write refit DESIGN to refit it to another design of the same hull.",
            error,
        )
    if a.kind in ("repair", "scrap", "refit"):
        port = works.ports.get(pos.place, "")
        yard = pos.place in works.yards
        if a.kind == "repair" and not pos.damage and pos.drive == "ok":
            return "the ship has no damage to repair", "Take the line out.", "warning"
        if a.kind == "repair" and not (
            yard
            or pos.place in works.stations
            or pos.place in works.menders
            or (port and design.streamlined)
        ):
            return (
                "there is no shipyard, space station or ship with a Repair Facility of yours "
                "here (a port of yours repairs streamlined ships)",
                "Repair at one of your yards or stations.",
                error,
            )
        if a.kind == "repair" and pos.drive == "destroyed" and not builds(works, pos.place, design):
            # The seed: a facility capable only of repairs may not replace destroyed systems.
            return (
                "the destroyed FTL drive is replaced only at a shipyard of yours (a starport "
                "for a streamlined ship)"
                + ("; this repairs its damage boxes only" if pos.damage else ""),
                "Have a tug bring the ship to one of your yards.",
                "warning" if pos.damage else error,
            )
        if a.kind == "refit" and not (yard or (port == "starport" and design.streamlined)):
            return (
                "a refit needs a yard of yours able to build the ship (a starport for a "
                "streamlined one)",
                "Bring it to one of your yards.",
                error,
            )
        if a.kind == "scrap" and not (yard or (port == "starport" and design.streamlined)):
            return (
                "ships are scrapped at a shipyard of yours (streamlined ones at a starport)",
                "Bring it to one of your yards.",
                error,
            )
    return None


def _after(a: Activity, pos: Position, design: Design, can_build: bool = False) -> Position:
    if a.kind == "land":
        return replace(pos, landed=True, inches=0)
    if a.kind == "lift":
        return replace(pos, landed=False, inches=SAFE_INCHES)
    if a.kind == "load":
        full = design.cargo_spaces if a.amount == ALL else pos.cargo + a.amount
        return replace(pos, cargo=min(full, design.cargo_spaces))
    if a.kind == "unload":
        return replace(pos, cargo=0 if a.amount == ALL else max(0, pos.cargo - a.amount))
    if a.kind == "sell":
        # The goods bought back are planned at the value sold (the price is rolled later).
        return replace(pos, cargo_known=False)
    if a.kind == "refuel":
        return replace(pos, fuel=FULL_TANK_PARSECS)
    if a.kind == "tow":
        return replace(pos, towing=a.target)
    if a.kind == "release":
        return replace(pos, towing="")
    if a.kind == "repair":
        drive = "ok" if pos.drive == "disabled" or can_build else pos.drive
        return replace(pos, damage=0, drive=drive)
    if a.kind == "refit":
        return replace(pos, captured=False)
    return pos


__all__ = ["ALL", "KINDS", "Activity", "Leg", "Plan", "Position", "Trouble", "builds", "run"]
