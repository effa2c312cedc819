"""An exchange resolved: ``resolve_turn(state, orders, dice, rules)`` is the next state, a pure
function of its arguments (the state is copied).

What each exchange does, in the seed's sequence of play:

* between sheets, when a player turn begins (at the end of the exchange before its first
  impulse sheet, or when the game is made): the air superiority roll of "this Player Turn", so
  that the sheet it informs shows it.
* the phasing player's impulse sheet: in a player turn's first impulse the reinforcements, the
  purchases and the information warfare attacks, before the moves (their results reach the
  players on their next sheets).  Then the moves; then, if the other player has something to
  react to (`reaction_skipped`), the attacks wait for his reaction sheet, else they are fought
  at once and the reaction exchange is skipped.  A sheet that declares no further impulse
  skips the player turn's later impulses.
* the reaction sheet: the reacting player's reserve moves, then the impulse's combat.
* the impulse's combat, after the moves and the reaction: the attacks in the order declared,
  each judged on the board as it then stands (an attack on a hex that holds no enemy land
  unit, emptied or never held, is void and the attacker told), then overstacking.  A unit that
  moved may attack in the same impulse (movement phase, then combat phase); the units that
  moved or attacked are Ops Complete.  After the player turn's last impulse come recovery,
  C4I recovery and the phasing player's reserves for the enemy's coming player turn (the units
  his latest impulse sheet named that are not Ops Complete, `_reserves_named`); after the
  Second Player's, the administrative segment and the next game turn's random event.
* the ceasefire sheets: both accept and the game ends; one refuses and the Index moves 20
  toward the other; both refuse and nothing happens.

Each event is told to whoever may know it, decided here when it is made (the reports only
filter): an event both sides read says only what both may know, judged by what each side sees
at that moment (`visibility.sight`), and the side that knows more gets the rest in an event of
its own (an attack's retreats out of the enemy's sight, an objective's new holder).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ...dice import Dice
from ...text.words import counted
from ..base import Event, Resolution
from . import charts, supply
from .attacked import fightable
from .board import Board
from .combat import (
    CombatError,
    Defence,
    Line,
    overstacking,
    resolve_attack,
)
from .crt import CRTS
from .movement import make_moves
from .orders import Orders, no_orders
from .politics import in_band, shifted
from .rules import complete
from .sequence import Point, after, impulses_skipped
from .state import SideState, State
from .visibility import Sight, seen_enemies, sight

EVERYONE = ("*",)


def event(
    state: State, phase: str, place: str, kind: str, text: str, told: tuple[str, ...], **data: Any
) -> Event:
    """An event of this game turn told to ``told`` (players, or ``*`` for both)."""
    return Event(state.point.turn, phase, place, kind, text, told, told, data)


def board_of(state: State, rules: Mapping[str, Any] | None = None) -> Board:
    """The board of the state's own units (moving them on the board moves them in the state);
    ``rules`` give the stacking limit (the default for none)."""
    return Board.of(state.scenario, state.units, int(complete(rules)["stacking"]))


def resolve_turn(
    state: State, orders: Mapping[str, Orders], dice: Dice, rules: Mapping[str, Any]
) -> Resolution:
    """The state after the exchange ``state.point`` with these orders and dice (``rules``:
    the house rules, the defaults for any not given)."""
    rules = complete(rules)
    state = copy.deepcopy(state)
    # This game turn's events so far, for the sheets' "this game turn so far".
    state.earlier = [e for e in [*state.earlier, *state.events] if e.turn == state.point.turn]
    state.events = []
    point = state.point
    react = True
    if point.ceasefire:
        events = _ceasefire(state, orders, dice, rules)
    elif not point.reaction:
        mine = orders.get(state.phasing.player) or no_orders(state.phasing.player, point.key)
        events, react = _impulse(state, mine, dice, rules)
    else:
        theirs = orders.get(state.reacting.player) or no_orders(state.reacting.player, point.key)
        events = _reaction(state, theirs, dice, rules)
    if not state.finished and not point.ceasefire:
        events += _advance(state, dice, rules, react=react)
    state.events = events
    state.dice = list(dice.log)
    return Resolution(state, events, _summary(point, events, len(state.pending)))


def _summary(point: Point, events: list[Event], declared: int) -> str:
    """What the exchange did, in a few words (`refassist resolve` prints it)."""
    if point.ceasefire:
        return next(e.text for e in events if e.kind == "ceasefire")
    kinds = [e.kind for e in events]
    parts = [counted(kinds.count("move"), "move")]
    if kinds.count("order_cancelled"):
        parts.append(f"{counted(kinds.count('order_cancelled'), 'move')} cancelled")
    if not point.reaction and declared:
        parts.append(f"{counted(declared, 'attack')} declared, fought after the reaction")
    skipped = {e.data.get("step") for e in events if e.kind == "exchange_skipped"}
    if skipped:
        parts.append(f"{counted(len(skipped), 'exchange')} skipped")
    if "attack" in kinds or "attack_void" in kinds:
        parts.append(f"{counted(kinds.count('attack'), 'attack')} fought")
    return ", ".join(parts)


# -- the phasing player's sheet ----------------------------------------------------------------


def _impulse(
    state: State, orders: Orders, dice: Dice, rules: Mapping[str, Any]
) -> tuple[list[Event], bool]:
    """The phasing player's sheet; also whether its reaction sheet is sent (false: the
    combat was fought at once and the reaction exchange is skipped)."""
    side = state.phasing
    events: list[Event] = []
    state.moved = []
    board = board_of(state, rules)
    if state.point.impulse == 1:
        bought = rules["reinforcements"] == "bought"
        mine = (side.player,)
        events += _place_guerrillas(state, board, orders, rules)
        for line in supply.place_reinforcements(state, board, side, bought=bought):
            events.append(event(state, "reinforcements", "", "reinforcement", line, mine))
        for line in supply.buy(state, board, side, orders.purchases, bought_reinforcements=bought):
            events.append(event(state, "purchases", "", "purchase", line, mine))
        # The targets it may name are the enemy units it sees now: after the air roll (which
        # may let it examine them all) and its own units' arrival.
        seen = seen_enemies(state, side.name, rules)
        told = {supply.OWN: mine, supply.BOTH: EVERYONE, supply.REFEREE: ()}
        for said in supply.information_warfare(state, board, side, orders.information, dice, seen):
            events.append(
                event(
                    state,
                    "information warfare",
                    "",
                    "information_warfare",
                    said.text,
                    told[said.to],
                )
            )
    events += _moves(state, board, orders, side.name, side.player, rules, reaction=False)
    if orders.reserves is not None:  # the latest naming of the player turn counts
        side.reserves_named = list(orders.reserves)
    state.pending = list(orders.attacks)
    state.last_impulse = state.last_impulse or orders.last
    if bool(rules["fast_play"]):
        # No reaction sheet: the defender's standing orders from its own last phasing sheet.
        side.standing = orders.defence
        events += _combat(state, board, state.reacting.standing, dice, rules)
        return events, False
    why = reaction_skipped(state, rules)
    if not why:
        return events, True
    key = replace(state.point, reaction=True).key
    other = state.reacting
    events.append(
        event(
            state,
            "reaction",
            "",
            "exchange_skipped",
            f"No reaction sheet for {other.name} this impulse: {why}",
            (other.player,),
            step=key,
            why=f"{other.name}'s reaction: {why}",
        )
    )
    events.append(
        event(
            state,
            "reaction",
            "",
            "exchange_skipped",
            "No reaction sheet this impulse: your attacks are fought at once"
            if state.pending
            else "No reaction sheet this impulse",
            (side.player,),
            step=key,
        )
    )
    return events + _combat(state, board, Defence(), dice, rules), False


def reaction_skipped(state: State, rules: Mapping[str, Any]) -> str:
    """Why the reacting player gets no reaction sheet after the phasing moves ("": he gets
    one).  He gets one when an attack declared this impulse that can be fought as the board
    stands (`attacked.fightable`) falls on a hex holding his land units (he writes how they
    retreat, advance and which takes a D1, and may spend political points on their defence),
    or when he has a reserve unit able to move and sees an enemy unit that moved this impulse
    (a move he may answer).  Otherwise there is nothing to react to: the reaction exchange is
    skipped and the combat fought at once, which changes nothing he could have ordered
    (docs/rules/millennium-wars.md, "Exchanges that are skipped")."""
    other = state.reacting
    for attack in fightable(state, rules):
        if any(
            u.side == other.name and not u.kind.naval for u in state.units if u.hex == attack.hex
        ):
            return ""
    reserves = [
        u
        for u in state.units
        if u.side == other.name and u.reserve and u.hex and u.speed and not u.ops_complete
    ]
    if not reserves:
        return "no attack on its units, and no reserve unit able to move"
    seen = sight(state, other.name, rules)
    if not any(u.id in state.moved and u.hex in seen for u in state.units):
        return "no attack on its units, and no enemy move in its sight"
    return ""


# -- the reaction sheet and the impulse's combat ------------------------------------------------


def _reaction(state: State, orders: Orders, dice: Dice, rules: Mapping[str, Any]) -> list[Event]:
    side = state.reacting
    board = board_of(state, rules)
    events = _moves(state, board, orders, side.name, side.player, rules, reaction=True)
    return events + _combat(state, board, orders.defence, dice, rules)


def _combat(
    state: State, board: Board, defence: Defence, dice: Dice, rules: Mapping[str, Any]
) -> list[Event]:
    """The impulse's attacks in the order declared, then overstacking where retreats ended;
    the units that moved or attacked are Ops Complete.  Political points spent for shifts come
    out of each side's points as the attack is fought, and a shift a side cannot pay for in
    full is not taken (`combat.resolve_attack`)."""
    enemy = state.phasing
    events: list[Event] = []
    landed: list[str] = []
    crts = {**CRTS, "assault": state.scenario.assault}
    for attack in state.pending:
        try:
            outcome = resolve_attack(
                board,
                attack,
                enemy.name,
                crts,
                dice,
                supply.combat_conditions(state, board),
                defence,
                limits_after_shifts=rules["odds_limits"] == "after_shifts",
                disrupted_attack=bool(rules["disrupted_attack"]),
                home=state.scenario.countries,
                political=str(rules["political_shift"]),
                points={s.name: s.political_points for s in state.sides},
            )
        except CombatError as exc:
            # Told to the attacker alone: an attack never fought stays one of its plans, as
            # the declared attacks are (the defender's view never holds them).
            events.append(
                event(
                    state,
                    "combat",
                    attack.hex,
                    "attack_void",
                    f"The attack on {attack.hex} does not take place: {exc}",
                    (enemy.player,),
                )
            )
            continue
        for uid in attack.attackers:
            unit = board.unit(uid)
            if unit is not None:
                unit.ops_complete = True
        state.lost += outcome.eliminated
        index = [Line(text) for text in _index_moves(state, outcome.political)]
        landed += outcome.retreat_ends
        spent = [Line(text) for text in _spend_points(state, outcome.spent)]
        public, private = _told_apart(state, [*outcome.told, *spent, *index], rules)
        events.append(
            event(
                state,
                "combat",
                attack.hex,
                "attack",
                "; ".join(public),
                EVERYONE,
                odds=outcome.odds.label,
                strengths=f"{outcome.odds.attack} to {outcome.odds.defence}",
                shifts=[f"{s.amount:+d} {s.reason}" for s in outcome.odds.shifts if s.amount],
                die=outcome.die,
                result=outcome.result,
                crt=outcome.crt,
                reconstructed=outcome.reconstructed,
                eliminated=[u.id for u in outcome.eliminated],
                political=outcome.political,
            )
        )
        for side in state.sides:
            if private.get(side.name):
                unaware = _other(state, side.name).name
                events.append(
                    event(
                        state,
                        "combat",
                        attack.hex,
                        "attack_detail",
                        f"What {unaware} was not told of the attack on {attack.hex}: "
                        + "; ".join(private[side.name]),
                        (side.player,),
                    )
                )
    sights = _sights(state, rules)
    for line in overstacking(board, landed):
        # The stack's owner is told; its enemy only where it sees the hex.
        enemy_name = _other(state, line.side).name
        seen_by_enemy = bool(line.read_by(enemy_name, sights[enemy_name]))
        told = EVERYONE if seen_by_enemy else (state.side(line.side).player,)
        events.append(event(state, "combat", "", "overstacked", line.text, told))
    for unit in board.units:
        if unit.id in state.moved:
            unit.ops_complete = True
    state.pending, state.moved = [], []
    return events


def _other(state: State, side: str) -> SideState:
    """The enemy of the side named ``side``."""
    return state.second if side == state.first.name else state.first


def _sights(state: State, rules: Mapping[str, Any]) -> dict[str, Sight]:
    """What each side sees into now, by its name."""
    return {side.name: sight(state, side.name, rules) for side in state.sides}


def _told_apart(
    state: State, lines: Sequence[Line], rules: Mapping[str, Any]
) -> tuple[list[str], dict[str, list[str]]]:
    """What both sides may read of an attack's ``lines`` as they see the board now, and, by
    side, the lines whole that its enemy reads veiled or not at all (which that side alone is
    told, beside)."""
    sights = _sights(state, rules)
    public: list[str] = []
    private: dict[str, list[str]] = {}
    for line in lines:
        if not line.side:
            public.append(line.text)
            continue
        other = _other(state, line.side).name
        read = line.read_by(other, sights[other])
        if read:
            public.append(read)
        if read != line.text:
            private.setdefault(line.side, []).append(line.text)
    return public, private


def _spend_points(state: State, spent: Mapping[str, int]) -> list[str]:
    """Take the political points an attack's shifts cost from each side; what was spent."""
    lines = []
    for name, points in spent.items():
        state.side(name).political_points -= points
        lines.append(f"{name} spends {counted(points, 'political point')}")
    return lines


def _index_moves(state: State, political: Mapping[str, int]) -> list[str]:
    """Move the Political Index by what an attack gained each side (the Political Point
    Table); how it moved, for the combat's line."""
    lines = []
    for who, points in political.items():
        state.political_index = shifted(state.political_index, points, who == state.scenario.first)
        lines.append(f"the Index moves {points} toward {who}, to {state.political_index}")
    return lines


def _place_guerrillas(
    state: State, board: Board, orders: Orders, rules: Mapping[str, Any]
) -> list[Event]:
    """The phasing side's guerrillas waiting since a random event, placed at the start of its
    first impulse (its sheet's ``guerrilla`` lines, the rule for the rest)."""
    side = state.phasing
    seen = seen_enemies(state, side.name, rules)
    lines = supply.place_guerrillas(state, board, side, orders.purchases, seen)
    return [event(state, "guerrillas", "", "guerrillas", line, (side.player,)) for line in lines]


def _moves(
    state: State,
    board: Board,
    orders: Orders,
    side: str,
    player: str,
    rules: Mapping[str, Any],
    *,
    reaction: bool,
) -> list[Event]:
    """Carry out a sheet's moves; a move that meets an enemy stops where the rules stop it, a
    move no longer possible is cancelled and said."""
    events = []
    phase = "reaction" if reaction else "movement"
    for got in make_moves(
        board,
        orders.moves,
        side,
        reaction=reaction,
        bad_weather=state.bad_weather,
        zoc_stop=bool(rules["zoc_stop"]),
    ):
        if got.ok or got.stopped:
            where = got.end or got.reached
            state.moved.append(got.unit)
            text = f"{got.unit} moves to {where}"
            if got.stopped:
                text = f"{got.unit} stops at {where}: {got.stopped}"
            events.append(
                event(
                    state,
                    phase,
                    where,
                    "move",
                    text,
                    (player,),
                    unit=got.unit,
                    spent=str(got.spent),
                )
            )
        else:
            events.append(
                event(
                    state,
                    phase,
                    "",
                    "order_cancelled",
                    f"{got.unit}'s move is cancelled: {got.problems[0]}",
                    (player,),
                )
            )
    return events


# -- the referee's dice between sheets ----------------------------------------------------------


def _air(state: State, dice: Dice, rules: Mapping[str, Any]) -> list[Event]:
    """The air superiority roll of the player turn ``state.point`` opens (parity in bad
    weather), with both sides' Air Defense levels (`charts.air_defended`, the house rule
    ``air_defence``), made before its first impulse sheet is written so that the sheet shows
    it."""
    if state.bad_weather:
        state.air, state.air_level = "", "parity"
        return []
    with dice.at(phase="air", location=""):
        rolled = charts.air_superiority(dice, state.scenario.air_modifier)
    total = rolled.total + state.scenario.air_modifier
    defended = total
    if rules["air_defence"] == "deny":
        defended = charts.air_defended(total, state.first.air_defence, state.second.air_defence)
        rolled = replace(rolled, result=charts.air_result(defended))
    state.air_level = rolled.result
    state.air = (
        state.first.name
        if rolled.result.startswith("first") and "parity" not in rolled.result
        else state.second.name
        if rolled.result.startswith("second")
        else ""
    )
    if state.air and state.air not in state.sees_all:  # the holder may examine enemy stacks
        state.sees_all.append(state.air)
    text = f"Air superiority: 1D6 {rolled.total} {state.scenario.air_modifier:+d}"
    if defended != total:
        text += f", {defended} after Air Defense"
    text += f": {rolled.result}"
    if rolled.result.endswith("dominance"):
        loser = state.second if state.air == state.first.name else state.first
        loser.c4i = max(0, loser.c4i - 1)
        text += f"; {loser.name}'s C4I falls to {loser.c4i}"
    return [event(state, "air", "", "air", text, EVERYONE, roll=rolled.total, result=rolled.result)]


def _advance(
    state: State, dice: Dice, rules: Mapping[str, Any], *, react: bool = True
) -> list[Event]:
    """Move the game on to its next exchange, with what happens between: the end of a player
    turn, of a game turn, and the next player turn's air superiority roll (rolled here, so the
    sheet it informs shows it).  ``react``: after an impulse sheet, whether its reaction
    sheet is sent."""
    events: list[Event] = []
    point = state.point
    c4i = {1: state.first.c4i, 2: state.second.c4i}
    nxt = after(
        point,
        c4i,
        fast_play=bool(rules["fast_play"]),
        by_c4i=bool(rules["impulse_c4i"]),
        react=react,
        last=state.last_impulse,
    )
    if nxt.player_turn != point.player_turn or nxt.turn != point.turn:
        for skipped, why in impulses_skipped(
            point,
            c4i[point.player_turn],
            by_c4i=bool(rules["impulse_c4i"]),
            last=state.last_impulse,
        ):
            events.append(
                event(
                    state,
                    "sequence",
                    "",
                    "exchange_skipped",
                    f"{state.phasing.name}'s impulse {skipped.impulse} is skipped: {why}",
                    EVERYONE,
                    step=skipped.key,
                    why=f"{state.phasing.name}'s impulse {skipped.impulse}: {why}",
                )
            )
        state.last_impulse = False
        events += _end_of_player_turn(state, dice, rules)
    if nxt.turn != point.turn:
        events += _administrative(state, rules)
        if nxt.turn > (int(rules["last_turn"]) or state.scenario.turns):
            state.finished = _victory(state, "the game's last turn is over")
            events.append(event(state, "end", "", "game_over", state.finished, EVERYONE))
            state.point = nxt
            return events
        state.point = nxt
        events += start_of_turn(state, dice)
        if not state.point.ceasefire:
            events += _air(state, dice, rules)
        return events
    state.point = nxt
    if nxt.player_turn != point.player_turn:
        events += _air(state, dice, rules)
    return events


def _end_of_player_turn(state: State, dice: Dice, rules: Mapping[str, Any]) -> list[Event]:
    side = state.phasing
    if state.point.player_turn == 1:
        _reserves_back(state)
    board = board_of(state, rules)
    events: list[Event] = []
    for unit in [u for u in state.units if u.side == side.name and u.disrupted]:
        zoc = board.in_enemy_zoc(unit.hex, side.name)
        ground = board.terrain_of(unit.hex).name
        with dice.at(phase="recovery", location=unit.hex):
            roll, back = charts.recovers(dice, unit.id, zoc, ground)
        modifier = charts.recovery_modifier(zoc, ground)
        if back:
            unit.disrupted = False
        events.append(
            event(
                state,
                "recovery",
                unit.hex,
                "recovery",
                f"{unit.id} {'recovers' if back else 'stays disrupted'} (1D6 {roll} "
                f"{'-' if modifier < 0 else '+'} {abs(modifier)})",
                (side.player,),
                roll=roll,
            )
        )
    if side.c4i < side.c4i_start:
        side.c4i += 1
        events.append(
            event(
                state, "recovery", "", "c4i", f"{side.name}'s C4I recovers to {side.c4i}", EVERYONE
            )
        )
    return events + _reserves_named(state, side)


def _reserves_named(state: State, side: SideState) -> list[Event]:
    """The reserves ``side`` holds for the enemy's coming player turn, at the end of its own:
    the units its latest impulse sheet of the player turn named that stayed back (on the map,
    not Ops Complete: they neither moved nor attacked this player turn) become reserves, and
    its other units stop being reserves.  A player turn without a naming leaves the reserves
    as they are (the scenario's ``reserve`` at the start).  The seed's reaction phases move
    "any reserve units" and never say how a unit becomes one: ours, told to the owner."""
    named = side.reserves_named
    side.reserves_named = None
    if named is None:
        return []
    mine = [u for u in state.units if u.side == side.name and u.hex]
    spent = [u.id for u in mine if u.id in named and u.ops_complete]
    for unit in mine:
        unit.reserve = unit.id in named and not unit.ops_complete
    held = [u.id for u in mine if u.reserve]
    enemy = _other(state, side.name).name
    text = f"{side.name}'s reserves for {enemy}'s player turn: {' '.join(held) or 'none'}"
    if spent:
        text += f" ({' '.join(spent)} moved or attacked this player turn: no reserve)"
    return [event(state, "reserves", "", "reserves", text, (side.player,), units=held)]


def _administrative(state: State, rules: Mapping[str, Any]) -> list[Event]:
    events: list[Event] = []
    for unit in state.units:
        unit.ops_complete = False
    # Each unit in an enemy city: one toward its owner.  The Index is public, so the enemy
    # learns that a city of its own is held; the unit and the city only where it sees them.
    sights = _sights(state, rules)
    for unit in state.units:
        place = state.scenario.places.get(unit.hex)
        country = state.scenario.countries.get(unit.hex, "")
        if place and place.kind == "city" and country and country != unit.side:
            state.political_index = shifted(
                state.political_index, 1, unit.side == state.scenario.first
            )
            text = f"{unit.id} holds {place.name}: the Index moves 1 toward {unit.side}"
            other = _other(state, unit.side)
            if unit.hex in sights[other.name]:
                events.append(event(state, "administration", unit.hex, "city_held", text, EVERYONE))
                continue
            owner = state.side(unit.side).player
            events.append(event(state, "administration", unit.hex, "city_held", text, (owner,)))
            events.append(
                event(
                    state,
                    "administration",
                    "",
                    "city_held",
                    f"A unit of {unit.side} holds a city of {country}: the Index moves 1 "
                    f"toward {unit.side}",
                    (other.player,),
                )
            )
    for hex_ in state.held:
        there = [u.side for u in state.units if u.hex == hex_ and not u.kind.naval]
        if there:
            state.held[hex_] = there[0]
    events += _objectives_seen(state, sights)
    for side in state.sides:
        side.political_points += state.scenario.side(side.name).political_points
    state.bad_weather = False
    state.sees_all = []
    return events


def _objectives_seen(state: State, sights: Mapping[str, Sight]) -> list[Event]:
    """What each side learns of the objectives' holders at the end of the game turn: the
    holder of each objective where it sees a land unit standing (the one that holds it now).
    An objective out of its sight, or empty, keeps the holder it last saw there, so a holder
    that changed behind its back is not told (the seed makes no holder public; our reading,
    docs/rules/millennium-wars.md)."""
    learnt: dict[tuple[str, str], list[str]] = {}
    for side in state.sides:
        knows = state.known.setdefault(side.name, {})
        for hex_, holder in sorted(state.held.items()):
            standing = any(u.hex == hex_ and not u.kind.naval for u in state.units)
            if standing and hex_ in sights[side.name] and knows.get(hex_, "") != holder:
                knows[hex_] = holder
                learnt.setdefault((hex_, holder), []).append(side.player)
    events = []
    for (hex_, holder), players in sorted(learnt.items()):
        place = state.scenario.places.get(hex_)
        where = f"{hex_} {place.name}" if place else hex_
        text = f"The objective {where} is held by {holder}"
        events.append(event(state, "administration", hex_, "objective", text, tuple(players)))
    return events


def open_game(state: State, dice: Dice, rules: Mapping[str, Any] | None = None) -> list[Event]:
    """What happens before the first sheets of a game: turn 1's random event and, unless the
    UN demands a ceasefire first, the First Player's air superiority roll (``rules``: the
    house rules, the defaults for any not given)."""
    rules = complete(rules)
    events = start_of_turn(state, dice)
    if not state.point.ceasefire:
        events += _air(state, dice, rules)
    return events


def start_of_turn(state: State, dice: Dice) -> list[Event]:
    """The random event of a new game turn, and its immediate effects."""
    with dice.at(phase="events", location=""):
        rolled = charts.random_event(dice)
    state.event = rolled.result
    roll = rolled.dice[0] * 10 + rolled.dice[1]
    text = f"Random event: d66 {roll}, {rolled.result}"
    owner: list[Event] = []
    if rolled.result == "ceasefire":
        state.point = Point(state.point.turn, ceasefire=True)
        text += ": both players answer whether they comply"
    elif rolled.result == "variable politics":
        with dice.at(phase="events", location=""):
            a, b = dice.d6("variable politics, first"), dice.d6("variable politics, second")
        state.political_index = shifted(state.political_index, a - b, True)
        text += f": {a} - {b}, the Index is {state.political_index}"
    elif rolled.result == "world opinion":
        if state.political_index >= 67:
            state.political_index = shifted(state.political_index, 10, False)
        elif state.political_index <= 33:
            state.political_index = shifted(state.political_index, 10, True)
        text += f": the Index is {state.political_index}"
    elif rolled.result.endswith("guerrillas"):
        said, owner = _guerrillas(state, dice, rolled.result)
        text += said
    elif rolled.result == "bad weather":
        state.bad_weather = True
        text += ": speeds -1, support radius 1, air parity this turn"
    elif rolled.result.startswith("scenario event"):
        number = int(rolled.result[-1])
        special = state.scenario.events.get(number)
        if special is None:
            text += ": the scenario has none"
        else:
            state.political_index = shifted(
                state.political_index, abs(special.political_index), special.political_index > 0
            )
            text += f": {special.text}"
    elif rolled.result.endswith(("rally", "protests")):
        band = {
            "first rally": "high",
            "first protests": "low",
            "second rally": "low",
            "second protests": "high",
        }[rolled.result]
        applies = in_band(state.political_index, band)
        text += "" if applies else " (no effect: the Index is not in its band)"
        if not applies:
            state.event = "no event"
    return [
        event(state, "events", "", "random_event", text, EVERYONE, roll=roll, result=rolled.result),
        *owner,
    ]


def _guerrillas(state: State, dice: Dice, result: str) -> tuple[str, list[Event]]:
    """First or Second Player Guerrillas: "Roll one die. The ... Player places that number of
    paramilitary units in any hexes in their home country (if on the map) not containing an
    enemy unit. This event may occur only if the ... Player has paramilitary units."  The units
    wait for their owner's next first-impulse sheet (`supply.place_guerrillas`).  What the
    event's public line adds, and the owner's event naming the new units (their ids are its
    own, as its units out of the enemy's sight are)."""
    side = state.first if result.startswith("first") else state.second
    if supply.guerrilla_template(state, side.name) is None:
        return f" (no effect: {side.name} has no paramilitary units)", []
    if not supply.home_hexes(state, side.name):
        return f" (no effect: {side.name}'s home country is not on the map)", []
    with dice.at(phase="events", location=""):
        die = dice.d6("guerrillas")
    made = supply.raise_guerrillas(state, side.name, die)
    said = (
        f": 1D6 {die}, {side.name} places {counted(die, 'paramilitary unit')} in its home "
        "country at its next first impulse"
    )
    text = (
        f"Guerrillas to place on your next first-impulse sheet ('guerrilla' lines; those you "
        f"do not place, the rule places): {' '.join(u.id for u in made)}"
    )
    return said, [event(state, "events", "", "guerrillas", text, (side.player,))]


def _reserves_back(state: State) -> None:
    """At the end of the First Player's turn the Second Player's units lose their Ops Complete
    markers: the only ones they can carry are those of reserves that moved in the First
    Player's reaction phases, and a reaction spends a reserve for the enemy's player turn, not
    for its own (ours: the seed removes the markers in the administrative segment and never
    says that a reaction places one)."""
    for unit in state.units:
        if unit.side == state.second.name:
            unit.ops_complete = False


def _ceasefire(
    state: State, orders: Mapping[str, Orders], dice: Dice, rules: Mapping[str, Any]
) -> list[Event]:
    """Both players' answers to the UN; play going on, the First Player's turn opens with its
    air superiority roll (the exchange's own dice)."""
    answers = {
        s.name: (orders.get(s.player) or no_orders(s.player, state.point.key)).ceasefire
        for s in state.sides
    }
    comply = [name for name, answer in answers.items() if answer == "accept"]
    text = "; ".join(f"{n} {'accepts' if a == 'accept' else 'refuses'}" for n, a in answers.items())
    events = [event(state, "events", "", "ceasefire", f"The UN's ceasefire: {text}", EVERYONE)]
    if len(comply) == 2:
        state.finished = _victory(state, "both sides accepted the UN's ceasefire")
        events.append(event(state, "end", "", "game_over", state.finished, EVERYONE))
    elif len(comply) == 1:
        state.political_index = shifted(
            state.political_index, 20, comply[0] == state.scenario.first
        )
    state.point = Point(state.point.turn)
    if not state.finished:
        events += _air(state, dice, rules)
    return events


def _victory(state: State, why: str) -> str:
    points = {s.name: 0 for s in state.sides}
    for hex_, side in state.held.items():
        if side:
            points[side] += state.scenario.objectives[hex_]
    ranked = sorted(points.items(), key=lambda kv: -kv[1])
    if ranked[0][1] == ranked[1][1]:
        return f"The game ends ({why}): a draw, {ranked[0][1]} objective points each"
    return (
        f"The game ends ({why}): {ranked[0][0]} wins with {ranked[0][1]} objective points "
        f"to {ranked[1][1]}"
    )


__all__ = ["board_of", "open_game", "reaction_skipped", "resolve_turn"]
