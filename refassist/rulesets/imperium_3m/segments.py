"""The four action segments: initiative, alternating activations, movement, stealth scouting.

The seed plays an action segment face to face: both players roll for initiative, then take
turns designating one system each and doing things there.  On a turn sheet each side writes,
per segment, an ordered list of activations (`orders.Activation`); this module replays that
alternation from the two lists.  Decisions a machine referee needs (how written ``pass`` lines
work, what stops a moving fleet, deep space, what an activation that has become impossible
costs) are explained where they are made and in the game's rules notes.

Battles are not fought here: entering a system held by enemy warships calls
`space_battle.fight`, and ``attack``/``evacuate`` call `planet_battle`.  Both are imported
lazily inside the functions, so the segment logic does not depend on their import order and a
test can put recorders in their place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...text.words import counted
from .context import TurnContext
from .orders import Action, Activation
from .state import ALLOWED_ON, Fleet, Planet, State, Unit, load_of
from .units import GROUND_KINDS, SIDES, fleet_speed, other_side

#: Enemy units that do not stop a moving fleet: scouts, fighters and auxiliaries.
MINOR_CODES = frozenset({"SC", "F", "AR", "AT", "TR"})
#: Stealth scouts stay undetected on 2D6 (+1 per enemy DD) of this or less.
STEALTH_TARGET = 10


def phase_name(segment: int) -> str:
    return f"action {segment}"


# -- look-ups shared with the checker ----------------------------------------------------------


def ships_of(units: list[Unit]) -> list[Unit]:
    """The ships among ``units`` (carried fighters, troops, PD and outposts are not ships)."""
    return [u for u in units if u.is_ship]


def movement_points(ctx: TurnContext, units: list[Unit]) -> int:
    """Movement points of a fleet of ``units`` (`units.fleet_speed`)."""
    return fleet_speed((ctx.unit_type(u.side, u.code).kind, u.damaged) for u in ships_of(units))


def capacity_problem(ctx: TurnContext, units: list[Unit]) -> str:
    """Why a fleet made of ``units`` carries more than it can (empty when it fits)."""
    load = load_of(units, ctx.rules)
    if load.free_holds >= 0:
        return ""
    if not load.overflow:
        return (
            f"it carries {counted(load.cargo, 'troop/PD/outpost unit')} but its transports hold "
            f"{load.holds}"
        )
    return (
        f"it carries {counted(load.fighters, 'fighter')} and "
        f"{counted(load.cargo, 'troop/PD/outpost unit')} but its carriers hold {load.hangar} "
        f"fighters and its transports {counted(load.holds, 'more unit')}"
    )


def live_fleets_at(state: State, system: str, side: str) -> list[Fleet]:
    """``side``'s fleets at ``system`` that still hold at least one unit."""
    holding = {u.fleet for u in state.units if u.fleet and u.side == side}
    return [f for f in state.fleets_at(system, side) if f.name in holding]


def marker_planets(state: State, system: str, side: str) -> list[Planet]:
    """``side``'s Worlds and Outposts in ``system``."""
    return [p for p in state.map.planets_in(system) if p.owner == side and p.marker]


def ground_units_at(state: State, system: str, side: str) -> list[Unit]:
    """``side``'s units standing on the planets of ``system``."""
    codes = set(state.map.systems[system].planets)
    return [u for u in state.units if u.side == side and u.planet in codes]


def sees(state: State, side: str, system: str) -> bool:
    """Whether ``side`` sees what happens at ``system`` (the digest's Information section: it
    has units, a World or an Outpost there)."""
    return bool(
        live_fleets_at(state, system, side)
        or ground_units_at(state, system, side)
        or marker_planets(state, system, side)
    )


def peace_block(state: State, side: str, system: str, public_markers: bool = True) -> str:
    """Why peace forbids ``side``'s fleets to enter ``system`` (empty when it may).

    Peacetime forbids systems with an enemy fleet, Outpost or World (the seed); Peace Talks
    forbid "systems containing enemy units", which we read as the same plus enemy troops, PD or
    fighters standing on a planet there, the stricter of the two truces.

    The reason names what stops the fleet only as far as ``side`` may know it: the markers
    (public unless ``public_markers`` is off) and what stands in a system it sees.  An enemy
    fleet or troops in a system out of sight are "enemy units", no more than the truce itself
    tells a fleet at the border: never a fleet's name, its kind or how many.
    """
    enemy = other_side(side)
    talks = state.peace_talks
    if not talks and not state.at_peace():
        return ""
    why = "Peace Talks are in force" if talks else "it is peacetime"
    markers = marker_planets(state, system, enemy)
    if markers and (public_markers or sees(state, side, system)):
        return f"{why} and the enemy holds a World or Outpost at {system}"
    ground = talks and bool(ground_units_at(state, system, enemy))
    if not (live_fleets_at(state, system, enemy) or markers or ground):
        return ""
    if not sees(state, side, system):
        return f"{why} and {system} holds enemy units: the fleet may not enter it"
    if live_fleets_at(state, system, enemy):
        return f"{why} and an enemy fleet is at {system}"
    if markers:
        return f"{why} and the enemy holds a World or Outpost at {system}"
    return f"{why} and enemy units stand on a planet at {system}"


# -- initiative ---------------------------------------------------------------------------------


@dataclass
class Initiative:
    """The initiative of one segment: each side's die, its modified score (its allowance of
    activations) and the winner ("" on a tie: no action this segment)."""

    rolls: dict[str, int]
    scores: dict[str, int]
    winner: str


def roll_initiative(ctx: TurnContext, segment: int) -> Initiative:
    """Each side 1D6 plus its ``initiative_modifier`` (the Imperial -1 of a Civil War).

    The modified score decides the winner and is the side's allowance; it never drops below 0
    (a Civil War roll of 1 gives no activations).  Equal scores mean no action this segment.
    """
    rolls: dict[str, int] = {}
    scores: dict[str, int] = {}
    for side in SIDES:
        rolls[side] = ctx.dice.d6(f"initiative {side}, action segment {segment}")
        scores[side] = max(0, rolls[side] + ctx.state.sides[side].initiative_modifier)
    a, b = SIDES
    winner = a if scores[a] > scores[b] else b if scores[b] > scores[a] else ""
    parts = []
    for side in SIDES:
        mod = ctx.state.sides[side].initiative_modifier
        shown = f"{rolls[side]}" if not mod else f"{rolls[side]} {mod:+d} = {scores[side]}"
        parts.append(f"{side} {shown}")
    if winner:
        text = (
            f"Action segment {segment} initiative: {', '.join(parts)}. {winner} acts first; "
            f"activations allowed: {a} {scores[a]}, {b} {scores[b]}."
        )
    else:
        text = (
            f"Action segment {segment} initiative: {', '.join(parts)}. A tie: no action this "
            "segment."
        )
    ctx.emit(
        phase_name(segment),
        "",
        "initiative",
        text,
        players=SIDES,
        data={
            "segment": segment,
            "rolls": dict(rolls),
            "modifiers": {s: ctx.state.sides[s].initiative_modifier for s in SIDES},
            "allowance": dict(scores),
            "winner": winner,
        },
        dice=ctx.last_rolls(2),
    )
    return Initiative(rolls, scores, winner)


# -- the segment --------------------------------------------------------------------------------


def is_pass(activation: Activation) -> bool:
    """A line with nothing but ``pass`` in it (or nothing at all) is a pass."""
    return all(a.kind == "pass" for a in activation.actions)


@dataclass
class _Lines:
    """One side's activation list for the segment while it is worked through."""

    side: str
    allowance: int
    waiting: list[Activation] = field(default_factory=list)
    used: int = 0

    @property
    def out(self) -> bool:
        """Nothing left to do: the list is empty or every allowed activation is used."""
        return not self.waiting or self.used >= self.allowance


def action_segment(ctx: TurnContext, segment: int) -> None:
    """Resolve one action segment: initiative, then the two lists alternately, winner first.

    How the written lists replay the face-to-face alternation:

    - On its turn a side carries out its next listed activation.  If that activation turns out
      to be impossible as a whole (fleet gone, no units at the system...) it is reported and
      costs nothing, and the side goes straight on to its next line: a player should not lose
      an activation to something the sheet could not foresee.
    - A side that has used its allowance or has no lines left is *out*; the other side then
      carries out its remaining lines one after another.
    - A written ``pass`` uses the side's turn but no activation (the seed: "pass and use
      remaining activations later").  A pass answered by a pass from the other side ends the
      segment at once (the seed's "both players pass consecutively").  A pass written while the
      other side is already out is ignored: there is nobody left to wait for.
    """
    phase = phase_name(segment)
    ctx.segment = segment
    ctx.moved.clear()
    init = roll_initiative(ctx, segment)
    lines = {
        side: _Lines(side, init.scores[side], list(ctx.orders[side].activations_in(segment)))
        for side in SIDES
    }
    if not init.winner:
        for side in SIDES:
            _drop_rest(ctx, lines[side], phase, "the initiative rolls tied: no action this segment")
        return
    current = init.winner
    last_was_pass = False
    while not (lines[SIDES[0]].out and lines[SIDES[1]].out):
        mine = lines[current]
        theirs = lines[other_side(current)]
        if mine.out:
            current = theirs.side
            continue
        activation = mine.waiting.pop(0)
        if is_pass(activation):
            if theirs.out:
                _note_pass(ctx, current, activation, phase, ignored=True)
                continue
            if last_was_pass:
                _note_pass(ctx, current, activation, phase, ignored=False)
                ctx.emit(
                    phase,
                    "",
                    "segment_end",
                    f"Action segment {segment} ends: both sides passed in turn.",
                    players=SIDES,
                    data={"segment": segment, "reason": "passes"},
                )
                for side in SIDES:
                    _drop_rest(ctx, lines[side], phase, "the segment ended when both sides passed")
                return
            _note_pass(ctx, current, activation, phase, ignored=False)
            last_was_pass = True
            current = theirs.side
            continue
        if carry_out(ctx, current, activation):
            mine.used += 1
            last_was_pass = False
            current = theirs.side
    for side in SIDES:
        rest = lines[side]
        if rest.waiting and rest.used >= rest.allowance:
            _drop_rest(
                ctx,
                rest,
                phase,
                f"all {counted(rest.allowance, 'activation')} your initiative allowed were used",
            )


def _drop_rest(ctx: TurnContext, lines: _Lines, phase: str, reason: str) -> None:
    """Report every listed activation (not passes) that will not be carried out."""
    for activation in lines.waiting:
        if is_pass(activation):
            continue
        ctx.tell(
            lines.side,
            phase,
            activation.system,
            "skipped",
            f"Activation {activation.order} at {activation.system} ({_line_label(activation)}) "
            f"was not carried out: {reason}.",
            data=_line_data(activation, reason=reason),
        )
    lines.waiting.clear()


def _note_pass(
    ctx: TurnContext, side: str, activation: Activation, phase: str, *, ignored: bool
) -> None:
    text = (
        f"Your pass (line {activation.order}) was ignored: the enemy had no activations left."
        if ignored
        else f"You passed (line {activation.order})."
    )
    ctx.tell(side, phase, "", "pass", text, data={**_line_data(activation), "ignored": ignored})


def _line_label(activation: Activation) -> str:
    """The line as the player wrote it (or rebuilt from its actions when the text is lost)."""
    return activation.text or "; ".join(_action_label(a) for a in activation.actions) or "-"


def _line_data(activation: Activation, **extra: Any) -> dict[str, Any]:
    return {
        "segment": activation.segment,
        "order": activation.order,
        "system": activation.system,
        "cell": activation.cell,
        "text": activation.text,
        **extra,
    }


# -- one activation -----------------------------------------------------------------------------


def carry_out(ctx: TurnContext, side: str, activation: Activation) -> bool:
    """Carry out one activation's actions in order; True when at least one was carried out
    (only then does it use one of the side's activations).  Each action that cannot be done is
    skipped and reported with its reason; the others still go ahead."""
    state = ctx.state
    phase = phase_name(activation.segment)
    system = activation.system.strip().upper()
    reason = ""
    if system not in state.map.systems:
        reason = f"{activation.system} is not a system on the map"
    elif not (live_fleets_at(state, system, side) or ground_units_at(state, system, side)):
        reason = f"you have no units at {system}"
    if reason:
        _skip_line(ctx, side, activation, reason)
        return False
    done = 0
    with ctx.dice.at(phase=phase, location=system):
        for action in activation.actions:
            if action.kind == "pass":
                continue
            act = _Act(ctx, side, system, activation, action)
            handler = HANDLERS.get(action.kind)
            if handler is None:
                act.skip(f"{action.kind!r} is not an action")
            elif handler(act):
                done += 1
    if not done:
        _skip_line(ctx, side, activation, "none of its actions could be carried out")
    return done > 0


def _skip_line(ctx: TurnContext, side: str, activation: Activation, reason: str) -> None:
    ctx.tell(
        side,
        phase_name(activation.segment),
        activation.system,
        "skipped",
        f"Activation {activation.order} at {activation.system} ({_line_label(activation)}) was "
        f"skipped: {reason}.  It did not use up one of your activations.",
        data=_line_data(activation, reason=reason),
    )


@dataclass
class _Act:
    """One action of an activation as it is carried out: who acts, where, and the two ways it
    ends (skipped with a reason, or done with its report).  Every handler takes one, so each
    says only its own rule."""

    ctx: TurnContext
    side: str
    system: str
    activation: Activation
    action: Action

    def _emit(self, kind: str, text: str, **data: Any) -> None:
        a = self.action
        self.ctx.tell(
            self.side,
            phase_name(self.activation.segment),
            self.activation.system,
            kind,
            text,
            data=_line_data(self.activation, action=a.kind, fleet=a.fleet, **data),
        )

    def skip(self, reason: str) -> bool:
        """Report the action as not carried out; returns False for the handler to return."""
        label = f"{_action_label(self.action)} (activation {self.activation.order})"
        self._emit("skipped", f"{label} was skipped: {reason}.", reason=reason)
        return False

    def done(self, text: str, **data: Any) -> bool:
        """Report the action as carried out; returns True for the handler to return."""
        self._emit("activation", text, **data)
        return True

    def fleet(self) -> Fleet | None:
        """The fleet the action names, if it is the side's and at the activated system (else
        the skip is reported and None returned)."""
        fleet = _own_fleet(self.ctx.state, self.side, self.action.fleet)
        if fleet is None or not self.ctx.state.units_in_fleet(fleet.name):
            self.skip(f"you have no fleet {self.action.fleet or '(none named)'}")
            return None
        if fleet.system != self.system:
            self.skip(f"fleet {fleet.name} is at {fleet.system}, not at {self.system}")
            return None
        return fleet

    def fleet_and_planet(self) -> tuple[Fleet, Planet] | None:
        """The fleet and the planet the action names, as `fleet` and `planet` find them (the
        first refusal reported and None returned)."""
        fleet = self.fleet()
        planet = None if fleet is None else self.planet()
        return None if fleet is None or planet is None else (fleet, planet)

    def planet(self) -> Planet | None:
        """The planet the action names, if it is in the activated system (else skipped)."""
        planet = self.ctx.state.map.planets.get(self.action.planet.strip().upper())
        if planet is None or planet.system != self.system:
            self.skip(f"{self.action.planet or '(none)'} is not a planet of {self.system}")
            return None
        return planet


def _action_label(action: Action) -> str:
    return action.text or " ".join(x for x in (action.fleet, action.kind) if x)


def _own_fleet(state: State, side: str, name: str) -> Fleet | None:
    """The side's fleet of that name (letter case ignored); another side's fleet of the same
    name is treated as unknown, so a report never confirms an enemy fleet's name."""
    wanted = name.strip().casefold()
    for f in state.fleets:
        if f.side == side and f.name.casefold() == wanted:
            return f
    return None


def _moved_units(ctx: TurnContext, units: list[Unit]) -> list[str]:
    return [u.id for u in units if (u.side, u.id) in ctx.moved]


# -- movement -----------------------------------------------------------------------------------


def _move(act: _Act) -> bool:
    """Move a fleet along its route, step by step, until the route ends or something stops it.

    Each step must follow a jump route and be paid for in movement points (its ``length``).
    A fleet that starts in deep space moves one hex, in action segment 1 only, whatever the
    route's length; a fleet entering a deep-space hex ends its move there.  Enemy warships stop
    the fleet and a space battle follows; enemy scouts, fighters and auxiliaries only make it
    fight if it ends its move among them.  A fleet of scouts alone tries stealth first.
    """
    ctx, side, activation, action = act.ctx, act.side, act.activation, act.action
    state = ctx.state
    fleet = act.fleet()
    if fleet is None:
        return False
    units = state.units_in_fleet(fleet.name)
    ships = ships_of(units)
    reason = ""
    if not ships:
        reason = f"fleet {fleet.name} has no ships"
    elif any(ctx.unit_type(u.side, u.code).kind == "monitor" for u in ships):
        reason = f"fleet {fleet.name} holds a monitor, and monitors never move"
    elif moved := _moved_units(ctx, units):
        reason = f"{', '.join(moved)} already moved this segment"
    elif problem := capacity_problem(ctx, units):
        reason = f"fleet {fleet.name} is overloaded: {problem}"
    start = fleet.system
    route = [s.strip().upper() for s in action.route]
    if route and route[0] == start:  # a route written from where the fleet stands
        route = route[1:]
    if not reason and not route:
        reason = "no route was given"
    start_deep = state.map.systems[start].deep
    if not reason and start_deep and activation.segment != 1:
        reason = f"{start} is deep space, where ships move only in action segment 1"
    if reason:
        return act.skip(reason)

    points = movement_points(ctx, units)
    full_points = points
    path = [start]
    stop = ""
    battle = False
    undetected_at: set[str] = set()
    for step, there in enumerate(route):
        here = fleet.system
        link = state.map.route(here, there) if there in state.map.systems else None
        if link is None:
            stop = (
                f"{there} is not a system on the map"
                if there not in state.map.systems
                else f"no jump route leads from {here} to {there}"
            )
            break
        if start_deep:
            if step >= 1:
                stop = "a fleet in deep space moves only one hex"
                break
            cost = 0
        else:
            cost = link.length
            if cost > points:
                stop = (
                    f"not enough movement points to go on to {there} "
                    f"({points} left, the route costs {cost})"
                )
                break
        if blocked := peace_block(state, side, there, bool(ctx.rules["public_markers"])):
            stop = blocked
            break
        if step == 0:
            ctx.moved.update((u.side, u.id) for u in units)
        points -= cost
        fleet.came_from = here
        fleet.system = there
        path.append(there)
        encounter = _enter(ctx, side, fleet, here, there, activation)
        if encounter == "undetected":
            undetected_at.add(there)
        elif encounter == "battle":
            stop = f"enemy warships at {there} stopped the fleet"
            battle = True
            break
        elif encounter == "detected":
            stop = f"the scouts were detected at {there}"
            battle = bool(live_fleets_at(state, there, other_side(side)))
            break
        if state.map.systems[there].deep and not start_deep:
            if step < len(route) - 1:
                stop = f"entering deep space at {there} ended the move for this segment"
            break
        if (
            ctx.rules["enemy_planets_stop"]
            and there not in undetected_at
            and marker_planets(state, there, other_side(side))
        ):
            if step < len(route) - 1:
                stop = f"an enemy World or Outpost at {there} stopped the fleet"
            break
    if len(path) == 1:
        return act.skip(stop or "the fleet could not move")
    final = fleet.system
    if not battle and final not in undetected_at and live_fleets_at(state, final, other_side(side)):
        battle = True
        stop = stop or f"it ended its move among enemy ships at {final}"
    text = f"Fleet {fleet.name} moved {' > '.join(path)}"
    if not start_deep:
        text += f" ({full_points - points} of {full_points} movement points)"
    text += f"; stopped: {stop}." if stop else "."
    if battle:
        text += f" A space battle follows at {final}."
    act.done(
        text,
        path=path,
        points=full_points,
        points_left=points,
        stopped=stop,
        battle=battle,
    )
    if battle:
        _fight(ctx, final, side)
    return True


def _enter(
    ctx: TurnContext, side: str, fleet: Fleet, came_from: str, system: str, activation: Activation
) -> str:
    """What happens as ``fleet`` enters ``system``: ``"undetected"`` (stealth scouts unseen),
    ``"detected"`` (stealth scouts seen: "space battle will result" with whatever enemy ships
    are there, and the scouts go no further), ``"battle"`` (enemy warships stop it) or
    ``"go"`` (it may go on)."""
    state = ctx.state
    enemy = other_side(side)
    enemy_fleets = live_fleets_at(state, system, enemy)
    occupied = bool(enemy_fleets or marker_planets(state, system, enemy))
    units = state.units_in_fleet(fleet.name)
    scouts_only = all(u.code == "SC" for u in ships_of(units))
    detected = False
    attempt = ctx.orders[side].battle_orders_for(fleet.name).stealth
    if scouts_only and occupied and attempt:
        if _stealth(ctx, side, fleet, system, activation):
            return "undetected"
        detected = True
    if sees(state, enemy, system):
        ctx.emit(
            phase_name(activation.segment),
            system,
            "movement",
            f"{side} fleet {fleet.name} entered {state.map.systems[system].name} ({system}) "
            f"from {came_from}.",
            players=(side,),
            visible_to=(enemy,),
            data={"side": side, "fleet": fleet.name, "from": came_from, "system": system},
        )
    enemy_ships = [u for f in enemy_fleets for u in ships_of(state.units_in_fleet(f.name))]
    if any(u.code not in MINOR_CODES for u in enemy_ships):
        return "battle"
    return "detected" if detected else "go"


def _stealth(
    ctx: TurnContext, side: str, fleet: Fleet, system: str, activation: Activation
) -> bool:
    """Stealth scouting: 2D6 + 1 per enemy destroyer present; 10 or less stays unseen and
    reveals the enemy's fleets and planetary boxes here to the scouting side."""
    state = ctx.state
    enemy = other_side(side)
    enemy_fleets = live_fleets_at(state, system, enemy)
    destroyers = sum(
        1 for f in enemy_fleets for u in state.units_in_fleet(f.name) if u.code == "DD"
    )
    dice = ctx.dice.nd6(2, f"stealth scouting {fleet.name} at {system}")
    total = sum(dice) + destroyers
    phase = phase_name(activation.segment)
    data: dict[str, Any] = {
        "fleet": fleet.name,
        "system": system,
        "rolls": dice,
        "destroyers": destroyers,
        "total": total,
        "target": STEALTH_TARGET,
    }
    sums = f"{dice[0]}+{dice[1]}" + (f"+{destroyers} for destroyers" if destroyers else "")
    if total <= STEALTH_TARGET:
        seen = state.revealed.setdefault(side, [])
        if system not in seen:
            seen.append(system)
        fleets = {f.name: [u.code for u in state.units_in_fleet(f.name)] for f in enemy_fleets}
        boxes = {
            p.code: [u.code for u in state.units_on(p.code) if u.side == enemy]
            for p in state.map.planets_in(system)
        }
        contents = "; ".join(f"{k}: {' '.join(v) or '-'}" for k, v in fleets.items()) or "none"
        ctx.tell(
            side,
            phase,
            system,
            "stealth",
            f"Scouts {fleet.name} entered {system} undetected ({sums} = {total}, needed "
            f"{STEALTH_TARGET} or less). Enemy fleets: {contents}.",
            data={**data, "detected": False, "fleets": fleets, "planets": boxes},
            dice=ctx.last_rolls(2),
        )
        return True
    ctx.emit(
        phase,
        system,
        "stealth",
        f"{side} scouts {fleet.name} were detected entering {system} ({sums} = {total}, more "
        f"than {STEALTH_TARGET}).",
        players=(side,),
        visible_to=(side, enemy),
        data={**data, "detected": True},
        dice=ctx.last_rolls(2),
    )
    return False


def _fight(ctx: TurnContext, system: str, mover: str) -> None:
    from . import space_battle

    with ctx.dice.at(location=system):
        space_battle.fight(ctx, system, mover)
    if system not in ctx.battles:
        ctx.battles.append(system)


# -- planets: attack, evacuate ------------------------------------------------------------------


def _attack(act: _Act) -> bool:
    """Check the preconditions this module owns, then let `planet_battle` fight."""
    ctx, side, system, action = act.ctx, act.side, act.system, act.action
    state = ctx.state
    if not action.fleet:
        return _renew(act)
    if (found := act.fleet_and_planet()) is None:
        return False
    fleet, planet = found
    enemy = other_side(side)
    units = state.units_in_fleet(fleet.name)
    enemy_there = planet.owner == enemy or any(u.side == enemy for u in state.units_on(planet.code))
    if moved := _moved_units(ctx, units):
        return act.skip(
            f"{', '.join(moved)} moved this segment; moving and attacking a planet are separate "
            "activations",
        )
    if (state.peace_talks or state.at_peace()) and (enemy_there or planet.disputed):
        why = "Peace Talks are in force" if state.peace_talks else "it is peacetime"
        return act.skip(f"{why}: no attacks")
    if planet.owner == side and not planet.disputed and not enemy_there:
        return act.skip(f"{planet.code} is already yours")
    from . import planet_battle

    act.done(
        f"Fleet {fleet.name} attacks {planet.name} ({planet.code})"
        + ("" if action.bombard else ", without bombarding")
        + ".",
        planet=planet.code,
        hexes=list(action.hexes),
    )
    with ctx.dice.at(location=system):
        planet_battle.attack(
            ctx,
            side,
            fleet.name,
            planet.code,
            list(action.hexes),
            bombarding=action.bombard,
            fight=action.fight,
        )
    return True


def _renew(act: _Act) -> bool:
    """``attack PLANET`` without a fleet: the side's units on a disputed planet renew the
    fight by themselves (no fleet in orbit is needed for a surface battle).  Once per segment:
    the units that fought are marked as having acted."""
    ctx, side, system, action = act.ctx, act.side, act.system, act.action
    state = ctx.state
    planet = act.planet()
    if planet is None:
        return False
    mine = [u for u in state.units_on(planet.code) if u.side == side]
    if not planet.disputed or not mine:
        return act.skip(
            f"{planet.code} is not a disputed planet where your units stand; name the fleet "
            "that attacks it",
        )
    if state.peace_talks or state.at_peace():
        why = "Peace Talks are in force" if state.peace_talks else "it is peacetime"
        return act.skip(f"{why}: no attacks")
    if moved := _moved_units(ctx, mine):
        return act.skip(f"{', '.join(moved)} already fought this segment")
    from . import planet_battle

    act.done(
        f"Your units on {planet.name} ({planet.code}) renew the fight.",
        planet=planet.code,
        hexes=[],
    )
    ctx.moved.update((u.side, u.id) for u in mine)
    with ctx.dice.at(location=system):
        planet_battle.attack(ctx, side, "", planet.code, [], fight=action.fight)
    return True


def _evacuate(act: _Act) -> bool:
    ctx, side, system = act.ctx, act.side, act.system
    state = ctx.state
    if (found := act.fleet_and_planet()) is None:
        return False
    fleet, planet = found
    if not planet.disputed:
        return act.skip(f"{planet.code} is not disputed (use load instead)")
    if not any(u.side == side for u in state.units_on(planet.code)):
        return act.skip(f"you have no units on {planet.code}")
    if state.peace_talks:
        return act.skip(
            "Peace Talks are in force: units on disputed planets stay in place",
        )
    from . import planet_battle

    act.done(
        f"Fleet {fleet.name} evacuates {planet.name} ({planet.code}).",
        planet=planet.code,
    )
    with ctx.dice.at(location=system):
        planet_battle.evacuate(ctx, side, fleet.name, planet.code)
    return True


# -- fleets: split, join, load, unload ----------------------------------------------------------


def _split(act: _Act) -> bool:
    """The named units leave the fleet as a new fleet with the player's name for it."""
    ctx, side, system, action = act.ctx, act.side, act.system, act.action
    state = ctx.state
    fleet = act.fleet()
    if fleet is None:
        return False
    name = action.target.strip()
    if not name:
        return act.skip("no name was given for the new fleet")
    if any(f.name.casefold() == name.casefold() for f in state.fleets):
        return act.skip(f"the fleet name {name} is already in use")
    units = state.units_in_fleet(fleet.name)
    by_id = {u.id.casefold(): u for u in units}
    missing = [i for i in action.units if i.strip().casefold() not in by_id]
    if missing:
        return act.skip(f"{', '.join(missing)} not in fleet {fleet.name}")
    leaving = list({id(u): u for u in (by_id[i.strip().casefold()] for i in action.units)}.values())
    staying = [u for u in units if all(u is not x for x in leaving)]
    if not ships_of(leaving):
        return act.skip("the new fleet would have no ship")
    if not ships_of(staying):
        return act.skip(f"fleet {fleet.name} would keep no ship")
    for label, part in ((name, leaving), (fleet.name, staying)):
        if problem := capacity_problem(ctx, part):
            return act.skip(f"fleet {label} would be overloaded: {problem}")
    state.fleets.append(Fleet(name=name, side=side, system=system, came_from=fleet.came_from))
    for u in leaving:
        u.fleet = name
    return act.done(
        f"Fleet {fleet.name} split: {' '.join(u.id for u in leaving)} form fleet {name}.",
        new_fleet=name,
        units=[u.id for u in leaving],
    )


def _join(act: _Act) -> bool:
    """Another fleet of the side at the system joins the acting fleet; its units keep their
    moved marks, so a fleet that took in units which moved cannot move again this segment."""
    ctx, side, system, action = act.ctx, act.side, act.system, act.action
    state = ctx.state
    fleet = act.fleet()
    if fleet is None:
        return False
    other = _own_fleet(state, side, action.target)
    if other is None or not state.units_in_fleet(other.name):
        return act.skip(f"you have no fleet {action.target}")
    if other is fleet:
        return act.skip("a fleet cannot join itself")
    if other.system != system:
        return act.skip(f"fleet {other.name} is at {other.system}, not {system}")
    joined = state.units_in_fleet(other.name)
    for u in joined:
        u.fleet = fleet.name
    state.fleets.remove(other)
    return act.done(
        f"Fleet {other.name} joined fleet {fleet.name}.",
        joined=other.name,
        units=[u.id for u in joined],
    )


def _ground_units_named(
    ctx: TurnContext, side: str, ids: list[str], where: str, pool: list[Unit]
) -> tuple[list[Unit], list[str]]:
    """Split named ids into the units found in ``pool`` and problems for the rest."""
    found: list[Unit] = []
    problems: list[str] = []
    by_id = {u.id.casefold(): u for u in pool}
    for raw in ids:
        u = by_id.get(raw.strip().casefold())
        if u is None:
            problems.append(f"{raw} is not {where}")
        elif ctx.unit_type(u.side, u.code).kind not in GROUND_KINDS:
            problems.append(f"{u.id} is a ship")
        elif u not in found:
            found.append(u)
    return found, problems


def _load(act: _Act) -> bool:
    """Units standing on a planet of the system go aboard, in the order named, while the fleet
    has room; the rest stay and are reported."""
    ctx, side, action = act.ctx, act.side, act.action
    state = ctx.state
    if (found := act.fleet_and_planet()) is None:
        return False
    fleet, planet = found
    if planet.disputed:
        return act.skip(
            f"{planet.code} is disputed: take units off it with evacuate",
        )
    if not action.units:
        return act.skip("no units were named to load")
    pool = [u for u in state.units_on(planet.code) if u.side == side]
    units, problems = _ground_units_named(
        ctx, side, action.units, f"one of your units on {planet.code}", pool
    )
    aboard = state.units_in_fleet(fleet.name)
    loaded: list[Unit] = []
    for u in units:
        if capacity_problem(ctx, [*aboard, *loaded, u]):
            problems.append(f"no room aboard fleet {fleet.name} for {u.id}")
            continue
        loaded.append(u)
    if not loaded:
        return act.skip("; ".join(problems) or "nothing to load")
    for u in loaded:
        u.planet = ""
        u.hex = 0
        u.fleet = fleet.name
    text = f"Fleet {fleet.name} loaded {' '.join(u.id for u in loaded)} from {planet.code}."
    if problems:
        text += f" Not loaded: {'; '.join(problems)}."
    return act.done(
        text,
        planet=planet.code,
        units=[u.id for u in loaded],
        refused=problems,
    )


def _unload(act: _Act) -> bool:
    """Put carried units onto a friendly or unclaimed planet of the system.

    Each unit must suit the planet's class and fit its box (5 per hex); an Outpost counter set
    down on an unclaimed planet becomes the side's Outpost marker.  Enemy-held, enemy-occupied
    and disputed planets are reached only with ``attack`` (a landing under fire)."""
    ctx, side, system, action = act.ctx, act.side, act.system, act.action
    activation = act.activation
    state = ctx.state
    if (found := act.fleet_and_planet()) is None:
        return False
    fleet, planet = found
    enemy = other_side(side)
    if planet.disputed:
        return act.skip(
            f"{planet.code} is disputed: land units there with attack (PD may never be landed "
            "on a disputed planet)",
        )
    if planet.owner == enemy or any(u.side == enemy for u in state.units_on(planet.code)):
        return act.skip(f"{planet.code} is held by the enemy: use attack")
    if not action.units:
        return act.skip("no units were named to unload")
    units, problems = _ground_units_named(
        ctx, side, action.units, f"aboard fleet {fleet.name}", state.units_in_fleet(fleet.name)
    )
    placed: list[Unit] = []
    outpost = False
    for u in units:
        if u.code == "OP":
            if planet.marker:
                problems.append(f"{u.id}: {planet.code} already has a {planet.marker}")
                continue
            planet.owner = side
            planet.marker = "Outpost"
            state.units.remove(u)
            outpost = True
            placed.append(u)
            continue
        allowed = ALLOWED_ON.get(planet.klass, ())
        if u.code not in allowed:
            problems.append(f"{u.id}: a {planet.type} planet takes only {', '.join(allowed)}")
            continue
        if state.box_room(planet.code) <= 0:
            problems.append(f"{u.id}: the box of {planet.code} is full ({planet.capacity} units)")
            continue
        u.fleet = ""
        u.planet = planet.code
        u.hex = 0
        placed.append(u)
    if not placed:
        return act.skip("; ".join(problems) or "nothing to unload")
    text = f"Fleet {fleet.name} unloaded {' '.join(u.id for u in placed)} onto {planet.code}."
    if outpost:
        text += f" {planet.name} is now your Outpost."
    if problems:
        text += f" Not unloaded: {'; '.join(problems)}."
    if outpost and sees(state, enemy, system):
        ctx.emit(
            phase_name(activation.segment),
            system,
            "outpost",
            f"{side} set up an Outpost on {planet.name} ({planet.code}).",
            players=(side,),
            visible_to=(side, enemy),
            data={"side": side, "planet": planet.code},
        )
    return act.done(
        text,
        planet=planet.code,
        units=[u.id for u in placed],
        refused=problems,
        outpost=outpost,
    )


HANDLERS = {
    "move": _move,
    "attack": _attack,
    "evacuate": _evacuate,
    "split": _split,
    "join": _join,
    "load": _load,
    "unload": _unload,
}
