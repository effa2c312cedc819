"""The end of a turn: the Mandated Offensive's condition, the victory schedule, the end of a war
and the inter-war sequence, and the war/peace calendar.

Glory itself moves during the turn through `TurnContext.glory`, called by the battle modules
with these reasons (an Imperial Visit doubles gains and triples losses there):
"Terran outpost captured" +1, "Empire outpost lost" -1, "major Empire victory" +1,
"major Terran victory" -1, "Terran world captured" +3, "Empire world lost" -3,
"terraformed planet bombarded" (by the Empire -2, by the Terrans +1).

The victory check uses the turn of the current war (``war_turn``), never the game turn, so the
schedule starts again with each war of a campaign.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...text.words import counted
from .admin import GRANTED_ORIGINS, is_friendly, place_ship, remove_units, unit_system
from .context import EVERYONE, TurnContext
from .paths import connected, distances_from
from .state import ALLOWED_ON, GLORY_START, Planet, State, Unit
from .units import IMPERIAL, SIDES, TERRAN

PHASE = "glory"
#: war turn -> (Terran wins at or below, Imperial wins at or above).
SCHEDULE = {7: (1, 9), 8: (2, 8), 9: (3, 7), 10: (4, 6)}
EARLY = (0, 10)
#: The Imperial campaign aim on the default map: Sol 1, Sol 2, Alpha Centauri A1 and B.
IMPERIAL_AIM_CODES = ("SOL1", "SOL2", "ACA1", "ACB")
WAR_NAMES = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth")


def thresholds(war_turn: int) -> tuple[int, int]:
    """(Terran victory at or below, Imperial victory at or above) on this turn of a war."""
    return SCHEDULE.get(war_turn, EARLY) if war_turn < 10 else SCHEDULE[10]


def war_name(war: int) -> str:
    ordinal = WAR_NAMES[war - 1] if 0 < war <= len(WAR_NAMES) else f"{war}th"
    return f"{ordinal} Interstellar War"


def victory(state: State) -> str:
    """``Terran``, ``Imperial``, ``truce`` or "" (the war goes on) at the end of this turn."""
    if state.at_peace():
        return ""
    terran, imperial = thresholds(state.war_turn)
    if state.glory <= terran:
        return TERRAN
    if state.glory >= imperial:
        return IMPERIAL
    if state.war_turn >= 10:
        return "truce"
    return ""


def campaign_aim(state: State, side: str) -> list[Planet]:
    """The planets ``side`` must hold at the end of a war to win the campaign: for the
    Terrans the Imperial home worlds; for the Empire Sol 1, Sol 2, Alpha Centauri A1 and B
    when the map has them, else (a referee's map) the planets marked as Terran home."""
    planets = state.map.planets
    if side == TERRAN:
        return sorted((p for p in planets.values() if p.home == IMPERIAL), key=lambda p: p.code)
    if all(code in planets for code in IMPERIAL_AIM_CODES):
        return [planets[c] for c in IMPERIAL_AIM_CODES]
    return sorted((p for p in planets.values() if p.home == TERRAN), key=lambda p: p.code)


def campaign_winner(state: State) -> str:
    for side in SIDES:
        aim = campaign_aim(state, side)
        if aim and all(is_friendly(p, side) for p in aim):
            return side
    return ""


# -- the Mandated Offensive ----------------------------------------------------------------------


def mandate_check(ctx: TurnContext) -> None:
    """ "They remain available until Imperial player, starting with the turn after the forces
    arrive, is increasing glory": at the end of every turn after the arrival the index must be
    above the mark, or every mandate unit (and any on the turn record track) is withdrawn.  The
    mark is the index when the forces arrived (`admin.mandated_offensive`), so one quiet turn
    after a rise does not send them home; house rule ``mandate_mark = "each-turn"`` moves the
    mark to each turn's closing index instead (set first at the end of the arrival turn)."""
    state = ctx.state
    imperial = state.sides[IMPERIAL]
    if not imperial.mandate_turn:
        return
    each_turn = ctx.rules["mandate_mark"] == "each-turn"
    if state.turn == imperial.mandate_turn:
        if each_turn:
            imperial.mandate_glory = state.glory
        return
    if state.glory > imperial.mandate_glory:
        ctx.emit(
            PHASE,
            "",
            "mandate",
            f"Glory is {state.glory}, above {imperial.mandate_glory}"
            + (" last turn" if each_turn else " when they arrived")
            + ": the Mandated Offensive forces stay",
            players=(IMPERIAL,),
        )
        if each_turn:
            imperial.mandate_glory = state.glory
        return
    mark = imperial.mandate_glory
    gone = [u for u in state.units if u.side == IMPERIAL and u.origin == "mandate"]
    queued = [q for q in state.queue if q.side == IMPERIAL and q.origin == "mandate"]
    cargo = withdraw(ctx, gone)
    state.queue = [q for q in state.queue if q not in queued]
    for code in [u.code for u in gone] + [q.code for q in queued]:
        if code in imperial.granted:
            imperial.granted.remove(code)
    imperial.mandate_turn = 0
    imperial.mandate_glory = 0
    ctx.emit(
        PHASE,
        "",
        "mandate",
        f"Glory is {state.glory}, not above {mark}: the Mandated Offensive "
        "forces are withdrawn"
        + (f" ({', '.join(u.id for u in gone)})" if gone else "")
        # What they carried is set down or lost with them: the Empire is told which.
        + (f"; {', '.join(cargo)}" if cargo else ""),
        players=(IMPERIAL,),
        data={"withdrawn": [u.id for u in gone], **({"cargo": cargo} if cargo else {})},
    )


# -- the inter-war sequence ----------------------------------------------------------------------


def remove_granted(ctx: TurnContext, winner: str) -> None:
    """Intervention and Appeal forces leave (unless the Empire won): each one still in play or
    on the track goes; for each one lost, the same type of ship or else the dearest Imperial
    ship not dearer than it (the next-largest) goes in its place."""
    state = ctx.state
    imperial = state.sides[IMPERIAL]
    granted = list(imperial.granted)
    imperial.granted = []
    if winner == IMPERIAL:
        for item in [*_granted(state.units), *_granted(state.queue)]:
            item.origin = ""
        if granted:
            ctx.emit(PHASE, "", "inter-war", "The Empire won: it keeps its granted forces")
        return
    removed: list[str] = []
    for code in granted:
        units, queued = _granted(state.units, code), _granted(state.queue, code)
        if units:
            removed.append(units[0].id)
            removed.extend(withdraw(ctx, units[:1]))
            continue
        if queued:
            state.queue.remove(queued[0])
            removed.append(f"{code} (on the turn record track)")
            continue
        substitute = _next_largest(ctx, code)
        if substitute is not None:
            removed.append(f"{substitute.id} (in place of a lost {code})")
            removed.extend(withdraw(ctx, [substitute]))
    for u in _granted(state.units):
        u.origin = ""
    ctx.emit(
        PHASE,
        "",
        "inter-war",
        "Intervention and Appeal forces removed: " + (", ".join(removed) or "none"),
        players=(IMPERIAL,),
        data={"removed": removed},
    )


def _granted(items: Iterable[Any], code: str = "") -> list[Any]:
    """The Imperial units (or turn-track entries) an Intervention or Appeal gave, of ``code``
    if given, in their order."""
    return [
        x
        for x in items
        if x.side == IMPERIAL and x.origin in GRANTED_ORIGINS and code in ("", x.code)
    ]


def _next_largest(ctx: TurnContext, code: str) -> Unit | None:
    state = ctx.state
    if not ctx.unit_type(IMPERIAL, code).is_ship:
        return None
    ships = [
        u for u in state.units if u.side == IMPERIAL and u.fleet and u.is_ship and u.code != "M"
    ]
    same = sorted((u for u in ships if u.code == code), key=lambda u: u.id)
    if same:
        return same[0]
    limit = ctx.unit_type(IMPERIAL, code).cost
    cheaper = [u for u in ships if ctx.unit_type(IMPERIAL, u.code).cost <= limit]
    if not cheaper:
        return None
    return max(cheaper, key=lambda u: (ctx.unit_type(IMPERIAL, u.code).cost, u.id))


def withdraw(ctx: TurnContext, gone: list[Unit]) -> list[str]:
    """Take withdrawn ships out of play without stranding what they carried: troops, PD and
    fighters a fleet can no longer carry are set down on a friendly planet of the system that
    may hold them, else they go with their ship.  Returns what happened to the cargo."""
    from .segments import capacity_problem, ships_of

    state = ctx.state
    fleets = sorted({u.fleet for u in gone if u.fleet})
    remove_units(state, gone)
    notes: list[str] = []
    for name in fleets:
        fleet = state.fleet(name)
        while fleet is not None:
            units = state.units_in_fleet(name)
            problem = capacity_problem(ctx, units) if ships_of(units) else "no ship"
            if not units or not problem:
                break
            kind = "fighter" if "fighter" in problem else None
            cargo = [
                u
                for u in units
                if not u.is_ship and (kind is None or ctx.unit_type(u.side, u.code).kind == kind)
            ]
            if not cargo:
                break
            unit = cargo[-1]
            home = next(
                (
                    p
                    for p in state.map.planets_in(fleet.system)
                    if is_friendly(p, unit.side)
                    and unit.code in ALLOWED_ON[p.klass]
                    and state.box_room(p.code) > 0
                ),
                None,
            )
            if home is not None:
                unit.fleet, unit.planet, unit.hex = "", home.code, 0
                notes.append(f"{unit.id} set down on {home.name}")
            else:
                remove_units(state, [unit])
                notes.append(f"{unit.id} lost with its ship")
            fleet = state.fleet(name)
    return notes


def territorial_exchange(ctx: TurnContext) -> None:
    """Unconnected Outposts (enemy fleets ignored) go with their PD and the side's monitors in
    the system.  "Disputed planets are controlled by neither side: remove any World or Outpost
    marker": only the marker goes; the units on it stay (troops and fighters then go home, and
    `_settle_disputes` ends a dispute that has only one side left)."""
    state = ctx.state
    lost: list[str] = []
    for planet in sorted(state.map.planets.values(), key=lambda p: p.code):
        if planet.disputed:
            if planet.marker:
                lost.append(f"{planet.owner} {planet.marker} {planet.name} (disputed)")
            planet.owner, planet.marker = "", ""
            planet.upgrade_paid = 0
            continue
        if planet.marker != "Outpost" or not planet.owner:
            continue
        side = planet.owner
        if connected(state, side, planet.system, ignore_enemy_fleets=True):
            continue
        pds = [u for u in state.units_on(planet.code) if u.code == "PD" and u.side == side]
        monitors = [
            u
            for u in state.units
            if u.side == side and u.code == "M" and unit_system(state, u) == planet.system
        ]
        remove_units(state, pds + monitors)
        lost.append(f"{side} Outpost {planet.name}")
        planet.owner, planet.marker = "", ""
        planet.upgrade_paid = 0
    ctx.emit(
        PHASE,
        "",
        "inter-war",
        "Territorial exchange: " + (", ".join(lost) + " removed" if lost else "no change"),
        data={"removed": lost},
    )


def going_home(ctx: TurnContext) -> None:
    """Every fleet goes, under its own name, to a home system (Sol for the Terrans; the nearest
    Imperial home world, ties by code), leaving its monitors behind; troops standing anywhere
    but a home world, and fighters standing away from their side's Worlds and Outposts, go to a
    home world's surface (the one with most room).  PD and monitors stay."""
    state = ctx.state
    for side in SIDES:
        # Home worlds the side still holds; with none left, its own Worlds (then Outposts):
        # never a planet the enemy holds, where troops would stand on an enemy World in peace.
        planets = sorted(state.map.planets.values(), key=lambda p: p.code)
        homes = (
            [p for p in planets if p.home == side and is_friendly(p, side)]
            or [p for p in planets if is_friendly(p, side, "World")]
            or [p for p in planets if is_friendly(p, side)]
        )
        if not homes:
            continue
        home_codes = {p.code for p in homes}
        home_systems = sorted({p.system for p in homes})
        far = {h: distances_from(state, [h]) for h in home_systems}

        def nearest(system: str, far: dict[str, dict[str, int]] = far) -> str:
            return _nearest(far, system)

        for fleet in sorted(state.fleets, key=lambda f: f.name):
            if fleet.side != side:
                continue
            units = state.units_in_fleet(fleet.name)
            if not units or all(u.code == "M" for u in units):
                continue
            old = fleet.system
            fleet.system, fleet.came_from = nearest(old), ""
            for monitor in (u for u in units if u.code == "M"):
                place_ship(state, monitor, old)
        for u in list(state.units):
            if u.side != side or not u.planet or u.code not in ("RT", "JT", "F"):
                continue
            planet = state.map.planets[u.planet]
            if planet.code in home_codes or (u.code == "F" and is_friendly(planet, side)):
                continue
            target_system = nearest(planet.system)
            spots = [
                p for p in homes if p.system == target_system and u.code in ALLOWED_ON[p.klass]
            ] or homes
            spot = max(spots, key=lambda p: (state.box_room(p.code), p.code))
            u.planet, u.hex = spot.code, 0
    ctx.emit(
        PHASE,
        "",
        "inter-war",
        "Going home: every fleet, troop and fighter away from home returns to a home world",
    )


def _settle_disputes(ctx: TurnContext) -> None:
    """After going home a disputed planet may hold only one side's units (PD stay, troops and
    fighters left): its dispute is over and they go back to the box.  Where both sides' PD
    still stand, it stays disputed, without a marker, until the next war settles it."""
    state = ctx.state
    for planet in sorted(state.map.planets.values(), key=lambda p: p.code):
        if not planet.disputed:
            continue
        units = state.units_on(planet.code)
        if len({u.side for u in units}) == 2:
            continue
        planet.disputed = False
        for u in units:
            u.hex = 0


def _nearest(far: dict[str, dict[str, int]], system: str) -> str:
    """The home system nearest to ``system`` by route distance (ties by code)."""
    return min(sorted(far), key=lambda home: (far[home].get(system, 10**6), home))


def inter_war(ctx: TurnContext, winner: str) -> None:
    """Forces removed, 3D6 turns of peace, territorial exchange, going home, peace dividend,
    glory reset (in the seed's order)."""
    state = ctx.state
    remove_granted(ctx, winner)
    dice = ctx.dice.nd6(3, "turns of peace before the next war")
    state.peace_left = sum(dice)
    ctx.emit(
        PHASE,
        "",
        "inter-war",
        f"The Terrans roll {state.peace_left} turns of peace before the next war",
        data={"peace": state.peace_left},
        dice=ctx.last_rolls(3),
    )
    territorial_exchange(ctx)
    going_home(ctx)
    _settle_disputes(ctx)
    if winner in SIDES:
        state.sides[winner].resources = 0
        ctx.emit(
            PHASE,
            "",
            "inter-war",
            f"Peace dividend: the {winner} stockpile is reduced to zero",
            players=(winner,),
        )
    state.glory = {TERRAN: 4, IMPERIAL: 6}.get(winner, GLORY_START)
    imperial = state.sides[IMPERIAL]
    imperial.appeals_prohibited = False
    imperial.mandate_turn = 0
    imperial.mandate_glory = 0
    for side in SIDES:
        for planet in state.map.planets.values():
            if planet.terraform_side == side and not is_friendly(planet, side, "Outpost"):
                planet.terraform_paid, planet.terraform_side = 0, ""
    ctx.emit(PHASE, "", "inter-war", f"The glory index is set to {state.glory} for the next war")


def end_war(ctx: TurnContext, winner: str) -> None:
    state = ctx.state
    name = war_name(state.war)
    state.results.append(winner)
    text = f"The {name} ends in a truce" if winner == "truce" else f"{winner} victory in the {name}"
    ctx.emit(
        PHASE,
        "",
        "war end",
        f"{text} (glory {state.glory}, war turn {state.war_turn})",
        data={"war": state.war, "result": winner, "glory": state.glory},
    )
    campaign = bool(ctx.rules["campaign"])
    if not campaign:
        state.finished = text
        return
    champion = campaign_winner(state)
    if champion:
        state.finished = f"{champion} victory in the campaign ({name})"
        ctx.emit(PHASE, "", "game end", state.finished, data={"winner": champion})
        return
    inter_war(ctx, winner)
    state.war_turn = 0


def end_of_turn(ctx: TurnContext) -> None:
    """Mandate check, victory check, the calendar, and the per-turn flags cleared."""
    state = ctx.state
    at_war = not state.at_peace()
    mandate_check(ctx)
    if at_war:
        winner = victory(state)
        if winner:
            end_war(ctx, winner)
        else:
            state.war_turn += 1
    else:
        state.peace_left = max(0, state.peace_left - 1)
        if state.peace_left == 0:
            state.war += 1
            state.war_turn = 1
            ctx.emit(
                PHASE,
                "",
                "calendar",
                f"Peace ends: the {war_name(state.war)} begins next turn (glory {state.glory})",
                visible_to=EVERYONE,
            )
        else:
            ctx.emit(PHASE, "", "calendar", f"{counted(state.peace_left, 'turn')} of peace remain")
    state.turn += 1
    state.peace_talks = False
    for side in SIDES:
        s = state.sides[side]
        s.visit = False
        s.initiative_modifier = 0
        if s.depression > 0:
            s.depression -= 1
