"""A step of Millenium resolved: ``resolve_turn(state, orders, dice, rules)`` is the next
state, a pure function of its arguments (the state is copied).

The steps: the set-up (the Empire's cards and placement, and at the same time the
Extraterrestrial's programme and compositions), the Extraterrestrial's placement (after seeing
where the Empire's fleets stand), then game turns 1-20, the Extraterrestrial moving on odd
turns and the Empire on even ones.  A game turn runs the mover's phases in the seed's order
(rule V): reserve entry; the strategic phase (moves and jumps, cards shown, surrender demands
and landings); the tactical phase (planets attacked and enemy fleets met in one sector, in the
order the mover wrote them); production, scored by both sides, spent by the mover; then the
end-of-turn marks, the imperial planet and, after the last turn, the programme's score.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any

from ...dice import Dice
from ...text.i18n import Said, said, said_plural
from ...text.words import N_, counted
from ..base import Event, Resolution
from .charts import INTERCEPTORS_PER_CARRIER, Tables, tables_for
from .conquest import (
    Demand,
    backed,
    cards_shown,
    colonise,
    fleet_points,
    imperial_taken,
    surrender_demand,
    take_planet,
)
from .geometry import OUTER, Position, zone_name
from .names import SHIP_DAMAGED, SHIP_LOST, fleet_of, kind_said, ships_said
from .orders import (
    BattleResult,
    FleetMove,
    FleetSetup,
    Orders,
    Purchase,
    ReserveEntry,
    no_orders,
)
from .production import lose_points_with, score_production, spend
from .rules import complete
from .setup import DEFAULT_FLEETS, PROGRAMME_LEAST, deal, pick, random_deal
from .state import (
    ALIEN,
    CARDS,
    EMPIRE,
    IMPERIAL,
    PROGRAMME,
    Fleet,
    HeldTurn,
    Planet,
    Ship,
    State,
    TableBattle,
    mover,
    other,
)
from .strategic import (
    STACK_LIMIT,
    Jump,
    can_land,
    check_path,
    hyperspace,
    jump_problem,
    stack_problem,
    waiting_over,
)
from .tablebattles import apply_losses, battle_fleets, hex_battle, opened, place_key, result_of
from .tactical import fight, refused_before
from .victory import mark_turn_end, outcome, programme_score

EVERYONE = ("*",)


class _Turn:
    """One step being resolved: the state, the dice, the rules and the events so far."""

    def __init__(self, state: State, dice: Dice, rules: Mapping[str, Any]) -> None:
        self.state = state
        self.dice = dice
        self.rules = rules
        self.tables = tables_for(rules)
        self.events: list[Event] = []
        #: The mover's fleets whose wait beyond the edge was over when the turn began.
        self.ready: set[str] = set()
        #: Planets that refused a strategic surrender demand this turn, and their bases then.
        self.refused: dict[str, int] = {}

    def tell(
        self, phase: str, place: str, kind: str, text: str, told: tuple[str, ...], **data: Any
    ) -> None:
        """An event told to ``told``: sides (mapped to their players), ``*`` or () (referee).
        A `Said` text keeps its source and values (``data["say"]``), so each reader's report
        says it in the reader's language (`i18n.again`)."""
        players = tuple(self.state.players.get(s, s) if s != "*" else "*" for s in told)
        if isinstance(text, Said):
            data = {**data, "say": [text.template, text.values]}
        self.events.append(
            Event(self.state.turn, phase, place, kind, str(text), players, players, data)
        )

    def cancel(self, side: str, cell: str, text: str) -> None:
        self.tell("orders", cell, "order_cancelled", text, (side,), cell=cell)


def resolve_turn(
    state: State, orders: Mapping[str, Orders], dice: Dice, rules: Mapping[str, Any]
) -> Resolution:
    """The state after the step awaited, with these orders (by player) and dice."""
    rules = complete(rules)
    state = copy.deepcopy(state)
    state.events = []
    turn = _Turn(state, dice, rules)
    if state.turn == 0 and not state.systems:
        # Rule III: the Empire deals its cards and places its fleets while the
        # Extraterrestrial, in secret, writes its programme and composes its fleets; only
        # the Extraterrestrial's placement waits for the Empire's.
        _setup_empire(turn, _orders_of(state, orders, EMPIRE))
        _setup_alien(turn, _orders_of(state, orders, ALIEN))
    elif state.turn == 0:
        _place_alien(turn, _orders_of(state, orders, ALIEN))
        state.turn = 1
    elif state.held is not None:
        _table_results(turn, state.held, orders)
    else:
        side = mover(state.turn)
        _game_turn(turn, side, _orders_of(state, orders, side))
    state.events = turn.events
    state.dice = list(dice.log)
    return Resolution(state, turn.events, _summary(turn.events))


def _orders_of(state: State, orders: Mapping[str, Orders], side: str) -> Orders:
    """The side's orders, or, with no sheet from it, none: its fleets stand and its standing
    tactical orders hold (not the defaults: a lazy step does not undo a side's choices)."""
    mine = orders.get(state.players[side])
    if mine is not None:
        return mine
    return no_orders(side, step_key(state), state.tactics.get(side))


def step_key(state: State) -> str:
    """``0-empire``, ``0-extraterrestre`` (set-up), then the game turn's number, and
    ``<turn>-batailles`` while a turn's battles wait for the referee's table."""
    if state.turn == 0:
        return "0-empire" if not state.systems else "0-extraterrestre"
    if state.held is not None:
        return f"{state.turn}-batailles"
    return str(state.turn)


def _summary(events: list[Event]) -> str:
    kinds = [e.kind for e in events]
    parts = [
        counted(kinds.count(k), w)
        for k, w in (
            ("move", "move"),
            ("jump", "jump"),
            ("battle", "battle"),
            ("conquest", "conquest"),
        )
    ]
    return ", ".join(parts)


# -- set-up ------------------------------------------------------------------------------------
def _fleet_from(turn: _Turn, side: str, letter: str, ships: Mapping[str, int]) -> Fleet | None:
    fleet = turn.state.fleet(side, letter)
    if fleet is None:
        return None
    fleet.ships = [
        Ship(kind, interceptors=INTERCEPTORS_PER_CARRIER if kind == "porte_intercepteur" else 0)
        for kind in turn.tables.ships
        if kind in ships
        for _ in range(ships[kind])
    ]
    return fleet


def _keep_tactics(turn: _Turn, side: str, setup: Orders) -> None:
    """The standing tactical orders a set-up sheet carries are the side's from now on, as a
    game turn's are: the next sheet comes back with them pre-filled, and a battle before the
    side's first game turn (the Empire's fleets attacked on turn 1) is fought with them."""
    turn.state.tactics[side] = setup.tactics


def _setup_empire(turn: _Turn, setup: Orders) -> None:
    """The Empire deals the cards (or the tool at random), chooses the imperial planet among
    the loyalty-6 systems' planets and places six fleets on the map."""
    state, rules = turn.state, turn.rules
    _keep_tactics(turn, EMPIRE, setup)
    cards = state.map.cards
    complete_deal = set(setup.cards) == set(state.map.systems) and sorted(
        setup.cards.values()
    ) == list(range(1, len(cards) + 1))
    if rules["cards_dealt"] == "random" or not complete_deal:
        if rules["cards_dealt"] != "random":
            turn.tell(
                "set-up",
                "",
                "cards_random",
                said("the cards were not dealt one to each system: dealt at random"),
                (EMPIRE,),
            )
        with turn.dice.at(phase="set-up"):
            turn.dice.draws_secret(CARDS)
            dealt = random_deal(state.map, turn.dice)
    else:
        dealt = {letter: cards[n - 1] for letter, n in setup.cards.items()}
    deal(state, dealt)
    planet = state.planet(setup.imperial) if setup.imperial else None
    if planet is None or state.systems[planet.system].loyalty != 6:
        sixes = [p.name for s in state.systems.values() if s.loyalty == 6 for p in s.planets]
        turn.dice.draws_secret(IMPERIAL)
        choice = sixes[pick(turn.dice, len(sixes), "imperial planet")]
        turn.tell(
            "set-up",
            "",
            "imperial_random",
            said("no valid imperial planet was named: {planet} chosen at random", planet=choice),
            (EMPIRE,),
        )
        planet = state.planet(choice)
    assert planet is not None
    state.imperial = planet.name
    fleets = setup.fleets[:6] or _default_fleets(turn, EMPIRE)
    for f in fleets:
        fleet = _fleet_from(turn, EMPIRE, f.fleet, f.ships)
        if fleet is None or f.start is None or not state.map.on_map(f.start.zone):
            continue
        start = f.start
        if _overstacked(state, fleet, start):
            # « jamais » more than seven ships together: the checker refuses such a line; a
            # referee resolving with it anyway sees the fleet placed as a blank one is.
            start = _random_place(turn, fleet, _empire_places(state))
            turn.tell(
                "set-up",
                fleet.letter,
                "stack_moved",
                said(
                    "fleet {fleet} would have made more than {most} ships at {place}: placed "
                    "at {start}, chosen at random",
                    fleet=fleet.letter,
                    most=STACK_LIMIT,
                    place=f.start,
                    start=start,
                ),
                (EMPIRE,),
            )
        fleet.where, fleet.position = "map", start
    turn.tell("set-up", "", "setup", said("the Empire's fleets stand on the map"), EVERYONE)


def _overstacked(state: State, fleet: Fleet, place: Position) -> bool:
    """Whether ``fleet`` at ``place`` would stand with fleets of its side holding more than
    seven ships in all (rule VII A 1: « jamais »)."""
    crowd = [len(f.ships) for f in state.fleets_at(place, fleet.side) if f is not fleet]
    return bool(stack_problem([*crowd, len(fleet.ships)]))


def _empire_places(state: State) -> list[Position]:
    """Where the tool places an Empire fleet the set-up sheet does not place: its systems of
    loyalty 4 and more, else (a referee's map with few) every system."""
    strong = [state.map.systems[x].position for x, s in state.systems.items() if s.loyalty >= 4]
    return strong or [state.map.systems[x].position for x in state.systems]


def _random_place(turn: _Turn, fleet: Fleet, places: list[Position]) -> Position:
    """One of ``places`` drawn with the dice, among those where ``fleet`` keeps the stacking
    rule, those without a fleet of its side first (every place when none is free)."""
    state = turn.state
    empty = [p for p in places if not state.fleets_at(p, fleet.side)]
    legal = [p for p in places if not _overstacked(state, fleet, p)]
    choices = empty or legal or places
    with turn.dice.at(phase="set-up"):
        return choices[pick(turn.dice, len(choices), f"start of fleet {fleet.letter}")]


def _default_fleets(turn: _Turn, side: str) -> list[FleetSetup]:
    """A side's six fleets when its set-up composes none: the default composition; the
    Empire's placed at random at its systems of loyalty 4 and more (the Extraterrestrial's
    are placed once the Empire's stand, `_place_alien`)."""
    state = turn.state
    places = _empire_places(state) if side == EMPIRE else []
    out = []
    with turn.dice.at(phase="set-up"):
        for letter, ships in DEFAULT_FLEETS.items():
            start = None
            if places:
                start = places.pop(pick(turn.dice, len(places), f"start of fleet {letter}"))
                if not places:  # fewer places than fleets on a referee's map: start again
                    places = _empire_places(state)
            out.append(FleetSetup(letter, ships, start, ""))
    turn.tell(
        "set-up",
        "",
        "fleets_random",
        said("no fleet was composed: six fleets placed at random")
        if side == EMPIRE
        else said("no fleet was composed: the six fleets of the default composition"),
        (side,),
    )
    return out


def _setup_alien(turn: _Turn, setup: Orders) -> None:
    """The Extraterrestrial writes its programme and composes six fleets, in secret and
    without knowing the Empire's set-up (rule III's order: programme, composition, then
    placement); the fleets wait off the map, unplaced, for `_place_alien`."""
    state = turn.state
    _keep_tactics(turn, ALIEN, setup)
    state.programme = [x for x in dict.fromkeys(setup.programme) if x in state.map.systems]
    if len(state.programme) < PROGRAMME_LEAST:
        # A programme short of the rules' 18 is completed at random (the checker said so).
        left = [x for x in state.map.systems if x not in state.programme]
        with turn.dice.at(phase="set-up"):
            turn.dice.draws_secret(PROGRAMME)
            while len(state.programme) < PROGRAMME_LEAST:
                state.programme.append(left.pop(pick(turn.dice, len(left), "programme")))
        state.programme.sort()
        turn.tell(
            "set-up",
            "",
            "programme_random",
            said("the programme was completed at random to {n} systems", n=PROGRAMME_LEAST),
            (ALIEN,),
        )
    for f in setup.fleets[:6] or _default_fleets(turn, ALIEN):
        _fleet_from(turn, ALIEN, f.fleet, f.ships)
    turn.tell(
        "set-up",
        "",
        "setup",
        said("the Extraterrestrial has written its set-up"),
        EVERYONE,
    )


def composed(state: State) -> list[Fleet]:
    """The Extraterrestrial's fleets composed at set-up and not yet placed beyond an edge."""
    return [f for f in state.fleets if f.side == ALIEN and f.ships and f.where == "reserve"]


def _place_alien(turn: _Turn, setup: Orders) -> None:
    """After the Empire's placement the Extraterrestrial places its six fleets beyond the
    edges; they enter at level 4 by normal movement on turn 1 (rule III).  A fleet the sheet
    does not place (or places where no fleet may wait) waits at a place drawn at random."""
    state = turn.state
    if not state.programme:
        # A game whose set-up began before the Extraterrestrial composed at step 0-empire:
        # its programme completed and its fleets composed now, as a blank set-up's are.
        _setup_alien(turn, dataclasses.replace(setup, fleets=[f for f in setup.fleets if f.ships]))
    _keep_tactics(turn, ALIEN, setup)
    edges = state.map.edge_positions(4)
    chosen = {
        f.fleet: f.start.at_level(4)
        for f in setup.fleets
        if f.start is not None and f.start.at_level(4) in edges
    }
    for fleet in composed(state):
        place = chosen.get(fleet.letter)
        if place is None:
            with turn.dice.at(phase="set-up"):
                place = edges[pick(turn.dice, len(edges), f"start of fleet {fleet.letter}")]
            turn.tell(
                "set-up",
                fleet.letter,
                "fleets_random",
                said(
                    "fleet {fleet} was not placed: it waits at {place}",
                    fleet=fleet.letter,
                    place=place,
                ),
                (ALIEN,),
            )
        fleet.where, fleet.position, fleet.wait = "waiting", place, 0
    turn.tell(
        "set-up", "", "setup", said("the Extraterrestrial's fleets wait beyond the edges"), EVERYONE
    )


# -- a game turn --------------------------------------------------------------------------------
def _game_turn(turn: _Turn, side: str, orders: Orders) -> None:
    state = turn.state
    state.tactics[side] = orders.tactics
    # Who may come back is decided on the state the checker read; a fleet still waiting
    # stands still this turn, which counts toward its wait.
    turn.ready = {f.letter for f in state.fleets if f.side == side and waiting_over(f)}
    for fleet in state.fleets:
        if fleet.side == side and fleet.where == "waiting" and fleet.wait > 0:
            fleet.wait -= 1
    moved: set[str] = set()
    _reserve_entry(turn, side, orders.entries, moved)
    attacks = _strategic(turn, side, orders.moves, moved)
    if side == ALIEN and state.turn == 1:
        _enter_the_rest(turn, moved)
    _merge_replacements(turn, side)
    if turn.rules["battles"] == "referee" and not state.finished:
        found = opened(state, side, attacks, turn.rules["fight_across_levels"])
        if found:
            _hold(turn, side, found, moved, orders.purchases)
            return
    _tactical(turn, side, attacks)
    _after_battles(turn, side, moved, orders.purchases)


def _after_battles(turn: _Turn, side: str, moved: set[str], purchases: list[Purchase]) -> None:
    """The mover's turn after its tactical phase: repairs, production, the turn's end."""
    _repairs(turn, side, moved)
    _production(turn, side, purchases)
    mark_turn_end(turn.state)
    _end(turn)


def _hold(
    turn: _Turn,
    side: str,
    found: list[tuple[Position, str]],
    moved: set[str],
    purchases: list[Purchase],
) -> None:
    """Stop the turn after the strategic phase: its battles go to the referee's table."""
    state = turn.state
    battles = [
        TableBattle(f"B{state.turn}-{n}", pos, planet, side)
        for n, (pos, planet) in enumerate(found, 1)
    ]
    state.held = HeldTurn(side, battles, sorted(moved), list(purchases))
    for b in battles:
        where = b.planet or str(b.position)
        turn.tell(
            "tactical",
            where,
            "battle_waiting",
            said(
                "battle {battle} at {place} is fought on the referee's table",
                battle=b.id,
                place=where,
            ),
            (ALIEN, EMPIRE),
            battle=b.id,
        )


def _table_results(turn: _Turn, held: HeldTurn, results: Mapping[str, Any]) -> None:
    """The battles' results as the referee entered them, in order, then the rest of the turn.
    A battle with no result (resolved with ``--now``) is fought by the printed procedure from
    the standing tactical orders, and the reports say so."""
    state = turn.state
    state.held = None
    for battle in held.battles:
        if state.finished:
            break
        result = results.get(battle.id)
        if isinstance(result, BattleResult):
            _entered(turn, battle, result)
            continue
        where = battle.planet or str(battle.position)
        turn.tell(
            "tactical",
            where,
            "battle_unresolved",
            said(
                "no result was entered for battle {battle}; it was fought by the standing "
                "tactical orders",
                battle=battle.id,
            ),
            (ALIEN, EMPIRE),
            battle=battle.id,
        )
        _fight(turn, battle.attacker, battle.position, battle.planet)
    _after_battles(turn, held.side, set(held.moved), held.purchases)


def _entered(turn: _Turn, battle: TableBattle, result: BattleResult) -> None:
    """One battle's result from its sheet, told with the referee's notes."""
    fates = {"damaged": SHIP_DAMAGED, "destroyed": SHIP_LOST}
    log = [said("fought on the referee's table")]
    if result.rounds:
        log.append(said_plural("{n} round", "{n} rounds", result.rounds))
    log += [
        said(fates[r.fate][r.kind], fleet=fleet_of(r.side, r.fleet))
        for r in result.ships
        if r.fate in fates and r.kind in fates[r.fate]
    ]
    _settle(turn, battle, result, log, [], table=True, notes=result.notes)


def _settle(
    turn: _Turn,
    battle: TableBattle,
    result: BattleResult,
    log: list[Said],
    shots: list[dict[str, Any]],
    **data: Any,
) -> None:
    """A battle's result written back, whether fought by the procedure or on the table: the
    ships' fates, the fleets destroyed, the planet's bases (its loyalty) or its conquest, the
    battle told to both sides, then the fleets that left jump away."""
    state = turn.state
    side = battle.attacker
    across = turn.rules["fight_across_levels"]
    mine, theirs = battle_fleets(state, battle.position, side, across)
    for fleet in apply_losses(state, battle, result, across):
        turn.tell(
            "tactical",
            fleet.letter,
            "fleet_destroyed",
            said("fleet {fleet} destroyed", fleet=fleet_of(fleet.side, fleet.letter)),
            EVERYONE,
        )
    outcome = result.planet[0] if result.planet else None
    planet = state.planet(battle.planet) if battle.planet else None
    conquered = bool(outcome and outcome.conquered and planet is not None)
    if planet is not None and outcome is not None and not outcome.conquered:
        planet.bases = planet.loyalty = outcome.bases_left
    where = battle.planet or str(battle.position)
    if conquered:
        outcome_text = said("{planet} conquered", planet=battle.planet)
    elif side in result.left:
        outcome_text = said("the attacker left")
    elif data.get("table"):
        outcome_text = said("fought on the referee's table")
    else:
        outcome_text = said_plural("fought {n} round", "fought {n} rounds", result.rounds)
    turn.tell(
        "tactical",
        where,
        "battle",
        said("battle at {place}: {outcome}", place=where, outcome=outcome_text),
        (ALIEN, EMPIRE),
        rounds=result.rounds,
        shots=shots,
        log=[str(line) for line in log],
        log_say=[[line.template, line.values] for line in log],
        conquered=conquered,
        attacker=side,
        **data,
    )
    if conquered and planet is not None and outcome is not None:
        survivors = [f for f in mine if f.ships]
        coloniser = any(f.has_colonisers() for f in survivors)
        fleet = survivors[0] if survivors else mine[0]
        _taken(turn, side, planet, fleet, coloniser, outcome.bases_left)
    for leaving in result.left:
        for fleet in mine if leaving == side else theirs:
            if fleet.on_map and fleet.position is not None:
                _retreat(turn, leaving, fleet)


def entry_ready(state: State, fleet: Fleet) -> bool:
    """Whether ``fleet`` may enter by hyperspace this turn (an order ``reserve``): a reserve
    from turn 2, a fleet scattered off the map once its wait is over; never on turn 1."""
    if state.turn < 2:
        return False
    return fleet.where == "reserve" or waiting_over(fleet)


def entry_paths(state: State, fleet: Fleet) -> list[tuple[Position, ...]]:
    """Where a set-up fleet waiting beyond an edge steps onto the map when its player gives
    it no order on turn 1 (rule III: « Elles entreront toutes sur la carte, au niveau 4, en
    mouvement stratégique normal uniquement, pendant le 1er tour »): the edge sector it
    faces, else, when the stacking rule forbids it there, that zone's inner sector; the
    first such path the stacking rule allows is taken."""
    assert fleet.position is not None
    paths = []
    for first in state.map.neighbours(fleet.position):
        if state.map.on_map(first.zone):
            paths.append((first,))
            paths.append((first, Position(first.zone, "C", first.level)))
    return paths


def default_entry(state: State, fleet: Fleet) -> tuple[Position, ...] | None:
    """The first of `entry_paths` the stacking rule allows (None: none does)."""
    for path in entry_paths(state, fleet):
        if not _overstacked(state, fleet, path[-1]):
            return path
    return None


def _enter_the_rest(turn: _Turn, moved: set[str]) -> None:
    """Turn 1: every Extraterrestrial fleet still beyond an edge after the ordered moves
    (none ordered, or its order cancelled) enters by normal movement at level 4, so no fleet
    waits outside for ever; told to both sides as any move is."""
    state = turn.state
    for fleet in state.fleets:
        if fleet.side != ALIEN or fleet.where != "waiting" or not fleet.ships:
            continue
        path = default_entry(state, fleet)
        if path is not None:
            fleet.position, fleet.where = path[-1], "map"
            moved.add(fleet.letter)
            turn.tell(
                "strategic",
                str(path[-1]),
                "move",
                said(
                    "fleet {fleet} had no order to enter: it entered at {place}",
                    fleet=fleet_of(ALIEN, fleet.letter),
                    place=path[-1],
                ),
                EVERYONE,
                fleet=fleet.letter,
                side=ALIEN,
                path=[str(p) for p in path],
            )
            _reveal(turn, list(path))


def _reserve_entry(turn: _Turn, side: str, entries: list[ReserveEntry], moved: set[str]) -> None:
    """Reserves enter from turn 2 by hyperspace from the maximum distance (rule VI); a fleet
    waiting outside may enter so too once its wait is over, but not on turn 1, when the
    waiting fleets are the Extraterrestrial's set-up fleets, which enter « en mouvement
    stratégique normal uniquement » (rule III)."""
    state = turn.state
    for e in entries:
        fleet = state.fleet(side, e.fleet)
        ready = (
            fleet is not None
            and bool(fleet.ships)
            and state.turn >= 2
            and (fleet.where == "reserve" or fleet.letter in turn.ready)
        )
        if fleet is None or not ready or not state.map.on_map(e.zone):
            turn.cancel(
                side, e.cell, said("fleet {fleet} cannot enter now", fleet=fleet_of(side, e.fleet))
            )
            continue
        start = fleet.position or Position(e.zone, "C", e.level)
        _jump(
            turn,
            side,
            fleet,
            start,
            e.zone,
            e.level,
            True,
            e.free_direction,
            e.free_sector,
            "reserve entry",
        )
        moved.add(fleet.letter)


def _jump(
    turn: _Turn,
    side: str,
    fleet: Fleet,
    start: Position,
    zone: Any,
    level: int,
    maximum: bool,
    free_direction: str,
    free_sector: str,
    phase: str,
) -> None:
    state = turn.state
    maximum = maximum or any(s.damaged for s in fleet.ships)
    with turn.dice.at(phase=phase, location=fleet.letter):
        jump = hyperspace(
            state.map,
            turn.tables,
            start,
            zone,
            level,
            turn.dice,
            maximum=maximum,
            free_direction=free_direction,
            free_sector=free_sector,
        )
    _jump_dice(turn, side, fleet.letter, jump, phase)
    if not jump.off_map and jump.arrival is not None and _overstacked(state, fleet, jump.arrival):
        beside = _room_beside(state, fleet, jump.arrival)
        if beside is None:
            turn.tell(
                phase,
                zone_name(jump.arrival.zone),
                "jump",
                said(
                    "fleet {fleet} found no sector of zone {zone} with room under the stacking "
                    "limit: it did not jump",
                    fleet=fleet_of(side, fleet.letter),
                    zone=zone_name(jump.arrival.zone),
                ),
                EVERYONE,
                fleet=fleet.letter,
                side=side,
            )
            return
        turn.tell(
            phase,
            str(beside),
            "stack_moved",
            said(
                "fleet {fleet} would have made more than {most} ships at {place}: it came out "
                "at {beside}",
                fleet=fleet_of(side, fleet.letter),
                most=STACK_LIMIT,
                place=jump.arrival,
                beside=beside,
            ),
            EVERYONE,
        )
        jump.arrival = beside
    fleet.position = jump.arrival
    if jump.off_map:
        fleet.where, fleet.wait = "waiting", jump.wait
        lost = [s for s in fleet.ships if s.damaged]
        fleet.ships = [s for s in fleet.ships if not s.damaged]
        text = said(
            "fleet {fleet} scattered {off} off the map; it waits {wait}",
            fleet=fleet_of(side, fleet.letter),
            off=said_plural("{n} zone", "{n} zones", jump.off_map_by),
            wait=said_plural("{n} turn", "{n} turns", jump.wait),
        )
        if lost:
            # What the fleet lost is its side's to know: its composition is secret.
            turn.tell(
                phase,
                fleet.letter,
                "ships_lost",
                said_plural(
                    "{n} damaged ship of fleet {fleet} lost off the map",
                    "{n} damaged ships of fleet {fleet} lost off the map",
                    len(lost),
                    fleet=fleet_of(side, fleet.letter),
                ),
                (side,),
            )
        if not fleet.ships:
            fleet.where, fleet.position = "destroyed", None
    else:
        fleet.where = "map"
        text = said(
            "fleet {fleet} jumped to {place} (deviation {n})",
            fleet=fleet_of(side, fleet.letter),
            place=jump.arrival,
            n=jump.deviation,
        )
    turn.tell(phase, zone_name(zone), "jump", text, EVERYONE, fleet=fleet.letter, side=side)
    if side == ALIEN and fleet.on_map and fleet.position is not None:
        _reveal(turn, [fleet.position])


def _jump_dice(turn: _Turn, side: str, letter: str, jump: Jump, phase: str) -> None:
    """The strategic dice of a jump, told to the jumping side alone (the other sees where the
    fleet came out, not how): TAB 3's deviation, rolled or not, then the roses DR and SA when
    they were rolled.  One line each, under the jump's phase of the report."""
    told = (side,)
    zones = (
        said_plural("{n} zone travelled", "{n} zones travelled", jump.zones)
        if not jump.maximum
        else None
    )
    start = zones or said("from the maximum distance")
    if jump.deviation_die is None:
        line = said(
            "fleet {fleet}, TAB 3 ({start}): no die needed, deviation {n}",
            fleet=letter,
            start=start,
            n=jump.deviation,
        )
    else:
        line = said(
            "fleet {fleet}, TAB 3 ({start}): die {die}, deviation {n}",
            fleet=letter,
            start=start,
            die=jump.deviation_die,
            n=jump.deviation,
        )
    turn.tell(phase, letter, "dice", line, told, fleet=letter)
    if jump.direction_die is not None:
        turn.tell(
            phase,
            letter,
            "dice",
            said(
                "fleet {fleet}, rose DR: die {die}, toward {way}",
                fleet=letter,
                die=jump.direction_die,
                way=jump.direction,
            ),
            told,
            fleet=letter,
        )
    if jump.arrival_die is not None and jump.arrival is not None:
        turn.tell(
            phase,
            letter,
            "dice",
            said(
                "fleet {fleet}, rose SA: die {die}, sector {sector}",
                fleet=letter,
                die=jump.arrival_die,
                sector=jump.arrival.sector,
            ),
            told,
            fleet=letter,
        )


def _room_beside(state: State, fleet: Fleet, arrival: Position) -> Position | None:
    """Where a jump that would end on more than seven ships of the fleet's side (« jamais »,
    rule VII A 1) comes out instead: the next outer sector of the arrival zone, on the same
    level, clockwise from the one the rose gave (N, E, S, W), that keeps the limit; None
    when none does."""
    turned = OUTER.index(arrival.sector) if arrival.sector in OUTER else 0
    for n in range(1, len(OUTER)):
        place = Position(arrival.zone, OUTER[(turned + n) % len(OUTER)], arrival.level)
        if not _overstacked(state, fleet, place):
            return place
    return None


def _reveal(turn: _Turn, crossed: list[Position]) -> None:
    state = turn.state
    for letter in cards_shown(state.map, crossed, turn.rules):
        if letter not in state.revealed:
            state.revealed.add(letter)
            system = state.systems[letter]
            turn.tell(
                "strategic",
                letter,
                "card",
                said(
                    "card of system {system}: loyalty {loyalty}, {planets}",
                    system=letter,
                    loyalty=system.loyalty,
                    planets=said_plural("{n} planet", "{n} planets", len(system.planets)),
                ),
                (ALIEN, EMPIRE),
                system=letter,
            )


def _strategic(
    turn: _Turn, side: str, moves: list[FleetMove], moved: set[str]
) -> list[tuple[Position, str]]:
    """Moves and jumps in sheet order; landings at the end of a move.  Returns the planet
    attacks ordered (position, planet), for the tactical phase."""
    state = turn.state
    attacks: list[tuple[Position, str]] = []
    for m in moves:
        fleet = state.fleet(side, m.fleet)
        if fleet is None or fleet.letter in moved or not fleet.ships:
            turn.cancel(
                side, m.cell, said("fleet {fleet} cannot move now", fleet=fleet_of(side, m.fleet))
            )
            continue
        if m.kind == "jump":
            if not fleet.on_map or fleet.position is None or m.zone is None:
                turn.cancel(
                    side,
                    m.cell,
                    said("fleet {fleet} is not on the map to jump", fleet=fleet_of(side, m.fleet)),
                )
                continue
            problem = jump_problem(state.map, turn.tables, fleet.position, m.zone, m.level)
            if problem:
                turn.cancel(side, m.cell, problem)
                continue
            _jump(
                turn,
                side,
                fleet,
                fleet.position,
                m.zone,
                m.level,
                False,
                m.free_direction,
                m.free_sector,
                "hyperspace",
            )
            moved.add(fleet.letter)
            continue
        entering = fleet.where == "waiting" and fleet.letter in turn.ready
        if fleet.position is None or not (fleet.on_map or entering):
            turn.cancel(
                side, m.cell, said("fleet {fleet} cannot move now", fleet=fleet_of(side, m.fleet))
            )
            continue
        check = check_path(state.map, fleet.position, m.path, landing=bool(m.land) and not m.attack)
        landing = bool(m.land) and can_land(state.map, fleet.position, m.path)
        end = m.path[-1] if m.path else fleet.position
        crowd = [len(f.ships) for f in state.fleets_at(end, side) if f is not fleet] + [
            len(fleet.ships)
        ]
        problem = "; ".join(check.problems) or stack_problem(crowd)
        if problem:
            turn.cancel(
                side,
                m.cell,
                said("fleet {fleet}: {problem}", fleet=fleet_of(side, m.fleet), problem=problem),
            )
            continue
        if m.path:
            fleet.position, fleet.where = end, "map"
            moved.add(fleet.letter)
            turn.tell(
                "strategic",
                str(end),
                "move",
                said(
                    "fleet {fleet} moved to {place}", fleet=fleet_of(side, fleet.letter), place=end
                ),
                EVERYONE,
                fleet=fleet.letter,
                side=side,
                path=[str(p) for p in m.path],
            )
            if side == ALIEN:
                _reveal(turn, check.crossed)
        if m.land:
            attack = _landing(turn, side, fleet, m, landing)
            if attack is not None:
                attacks.append(attack)
    return attacks


def _landing(
    turn: _Turn, side: str, fleet: Fleet, m: FleetMove, landing: bool
) -> tuple[Position, str] | None:
    """A fleet at a system's planets takes, colonises or demands a planet; a refusal with
    ``attack`` becomes a battle (not on turn 1 for the Extraterrestrial, rule VIII).
    ``landing``: the fleet kept the landing's 2 movement points, without which it neither
    occupies a planet (one that surrenders included: « en respectant les règles du
    débarquement ») nor colonises one; only a line marked to attack gets this far without
    them."""
    state = turn.state
    planet = state.planet(m.land)
    system = state.map.system_at(fleet.position) if fleet.position else None
    if planet is None or system is None or planet.system != system.letter:
        turn.cancel(
            side,
            m.cell,
            said(
                "fleet {fleet} is not at planet {planet}",
                fleet=fleet_of(side, fleet.letter),
                planet=m.land,
            ),
        )
        return None
    with_coloniser = fleet.has_colonisers()
    if planet.holder == side:
        if with_coloniser and landing and colonise(planet, side):
            turn.tell(
                "strategic",
                planet.name,
                "colonised",
                said("{planet} colonised", planet=planet.name),
                EVERYONE,
                planet=planet.name,
            )
            _use_coloniser(turn, fleet)
        return None
    # « la valeur totale des navires de sa flotte »: the demanding fleet's own ships, not
    # every fleet of its side that stands with it.
    with turn.dice.at(phase="conquest", location=planet.name):
        demand = surrender_demand(
            turn.tables,
            planet,
            fleet_points(turn.tables, [fleet]),
            turn.dice,
            backed=backed(state, planet, turn.rules),
        )
    told = (ALIEN, EMPIRE)
    turn.tell(
        "conquest",
        planet.name,
        "demand",
        said("{planet}: {why}", planet=planet.name, why=demand.why),
        told,
        planet=planet.name,
        points=demand.points,
        loyalty=demand.loyalty,
        die=demand.die,
        column=demand.column,
    )
    if demand.die is not None:
        _demand_dice(turn, side, planet, demand)
    if demand.surrendered and landing:
        _taken(turn, side, planet, fleet, with_coloniser, planet.bases if planet.loyalty else 0)
        return None
    _attempted(turn, side, planet)
    if demand.surrendered:
        turn.tell(
            "conquest",
            planet.name,
            "not_landed",
            said(
                "fleet {fleet} has not the landing's 2 movement points left: {planet} is not "
                "occupied",
                fleet=fleet.letter,
                planet=planet.name,
            ),
            told,
            planet=planet.name,
        )
        return None
    turn.refused.setdefault(planet.name, planet.bases)
    if m.attack:
        if side == ALIEN and state.turn == 1:
            turn.cancel(side, m.cell, said("the Extraterrestrial may not attack planets on turn 1"))
            return None
        return (fleet.position, planet.name)  # type: ignore[return-value]
    return None


def _demand_dice(turn: _Turn, side: str, planet: Planet, demand: Demand) -> None:
    """The die of a surrender demand on TAB 2: the demanding side reads the ratio it was rolled
    at (its fleet's points, which are its own to know) and the die; the planet's side only the
    die, since the points would tell it the strength of a fleet whose ships it does not see."""
    turn.tell(
        "conquest",
        planet.name,
        "dice",
        said(
            "{planet}, TAB 2 surrender demand at {points}:{loyalty} (column {column}): die {die}",
            planet=planet.name,
            points=demand.points,
            loyalty=demand.loyalty,
            column=demand.column,
            die=demand.die,
        ),
        (side,),
        planet=planet.name,
    )
    turn.tell(
        "conquest",
        planet.name,
        "dice",
        said("{planet}, TAB 2 surrender demand: die {die}", planet=planet.name, die=demand.die),
        (other(side),),
        planet=planet.name,
    )


def _attempted(turn: _Turn, side: str, planet: Planet) -> None:
    """House rule ``attempt_breaks_automatic`` (default, the seed's « tant que le joueur
    extraterrestre n'essaie pas d'en prendre possession »): an Empire starting planet the
    Extraterrestrial demanded, whatever the answer, no longer counts as conquered and colonised
    by the rules; it stays the Empire's and produces once the Empire colonises it again.  A
    planet that surrenders is taken just after, by `conquest.take_planet`."""
    if side != ALIEN or not planet.automatic or not turn.rules["attempt_breaks_automatic"]:
        return
    planet.automatic = False
    planet.colonised = ""
    turn.tell(
        "conquest",
        planet.name,
        "automatic_lost",
        said(
            "{planet} stays the Empire's but no longer produces until colonised again",
            planet=planet.name,
        ),
        (ALIEN, EMPIRE),
        planet=planet.name,
    )


def _use_coloniser(turn: _Turn, fleet: Fleet) -> None:
    if turn.rules["colonisers_used_up"]:
        for i, s in enumerate(fleet.ships):
            if s.kind == "colonisation":
                del fleet.ships[i]
                break


def _taken(
    turn: _Turn, side: str, planet: Planet, fleet: Fleet, with_coloniser: bool, bases_left: int
) -> None:
    state = turn.state
    loser = planet.holder
    for note in take_planet(state, planet, side, colonise=with_coloniser, bases_left=bases_left):
        turn.tell("conquest", planet.name, "conquest", note, (ALIEN, EMPIRE), planet=planet.name)
    if loser:
        lost = lose_points_with(state, loser, planet.system, turn.rules)
        if lost:
            turn.tell(
                "conquest",
                planet.system,
                "points_lost",
                said_plural(
                    "{n} production point banked in {system} lost",
                    "{n} production points banked in {system} lost",
                    lost,
                    system=planet.system,
                ),
                (loser,),
            )
    if with_coloniser:
        _use_coloniser(turn, fleet)
    if imperial_taken(state, planet, with_coloniser, turn.rules):
        state.imperial_revealed = True
        finished = said(
            "the Extraterrestrial occupied the imperial planet {planet} on turn {turn}",
            planet=planet.name,
            turn=state.turn,
        )
        state.finished, state.winner = str(finished), ALIEN
        turn.tell("conquest", planet.name, "imperial", finished, EVERYONE)


def _merge_replacements(turn: _Turn, side: str) -> None:
    """Replacement ships (fleet ``K+``) join their fleet when they stand in its sector."""
    state = turn.state
    for extra in [
        f for f in state.fleets if f.side == side and f.letter.endswith("+") and f.on_map
    ]:
        home = state.fleet(side, extra.letter[:-1])
        if home is not None and home.on_map and home.position == extra.position:
            home.ships.extend(extra.ships)
            state.fleets.remove(extra)
            turn.tell(
                "strategic",
                str(home.position),
                "joined",
                said("replacement ships joined fleet {fleet}", fleet=fleet_of(side, home.letter)),
                (side,),
            )


def _tactical(turn: _Turn, side: str, attacks: list[tuple[Position, str]]) -> None:
    """Planet attacks in the order written, then every sector where enemy fleets meet."""
    state = turn.state
    across = turn.rules["fight_across_levels"]
    fought: set[object] = set()
    for pos, planet_name in attacks:
        if state.finished:
            return
        _fight(turn, side, pos, planet_name)
        fought.add(place_key(pos, across))
    meetings = sorted(
        {f.position for f in state.fleets if f.on_map and f.side == side and f.position is not None}
    )
    for pos in meetings:
        mine, theirs = battle_fleets(state, pos, side, across)
        if mine and theirs and place_key(pos, across) not in fought:
            fought.add(place_key(pos, across))
            _fight(turn, side, pos, "")


def _fight(turn: _Turn, side: str, pos: Position, planet_name: str) -> None:
    """A battle fought by the printed procedure from the standing tactical orders."""
    battle, orders, mine, _theirs = hex_battle(
        turn.state, turn.tables, turn.rules, pos, side, planet_name
    )
    if not mine:
        return
    planet = turn.state.planet(planet_name) if planet_name else None
    if planet is not None:
        # A planet is attacked only after refusing the strategic demand (rule VIII A); a
        # battle left for the table and fought at --now falls back on its bases now.
        refused_before(battle, turn.refused.get(planet.name, planet.bases))
    with turn.dice.at(phase="tactical", location=str(pos)):
        fight(battle, turn.tables, orders, turn.dice, turn.rules)
    table = TableBattle("", pos, planet_name, side)
    shots = [{**s.__dict__, "why": list(s.why)} for s in battle.shots]
    _settle(turn, table, result_of(battle, table, "", ""), battle.log, shots)


def _retreat(turn: _Turn, side: str, fleet: Fleet) -> None:
    """A fleet leaving a battle jumps from the maximum distance toward the nearest system of
    its side at least a jump away (else the zone furthest from the battle)."""
    state = turn.state
    here = fleet.position
    assert here is not None
    own = [
        s
        for s in state.map.systems.values()
        if any(p.holder == side for p in state.systems[s.letter].planets)
    ]
    choices = [(state.map.zones_travelled(here, s.zone, s.level), s.zone, s.level) for s in own]
    choices = [c for c in choices if c[0] >= turn.tables.minimum_jump]
    if choices:
        _, zone, level = min(choices)
    else:
        zone = max(
            state.map.zones(),
            key=lambda z: (abs(z[0] - here.zone[0]) + abs(z[1] - here.zone[1]), z),
        )
        level = here.level
    if jump_problem(state.map, turn.tables, here, zone, level):
        level = 1 if here.level > 4 else 7
    _jump(turn, side, fleet, here, zone, level, True, "", "", "retreat")


def _repairs(turn: _Turn, side: str, moved: set[str]) -> None:
    """A fleet that halted the whole strategic phase at a planet of its own, conquered and
    colonised, is repaired free and its carriers take back their interceptors."""
    state = turn.state
    for fleet in state.fleets:
        if (
            fleet.side != side
            or not fleet.on_map
            or fleet.letter in moved
            or fleet.position is None
        ):
            continue
        system = state.map.system_at(fleet.position)
        if system is None or not any(
            p.holder == side and p.colonised == side for p in state.systems[system.letter].planets
        ):
            continue
        mended = [
            s
            for s in fleet.ships
            if s.damaged
            or (s.kind == "porte_intercepteur" and s.interceptors < INTERCEPTORS_PER_CARRIER)
        ]
        for s in mended:
            s.damaged = False
            if s.kind == "porte_intercepteur":
                s.interceptors = INTERCEPTORS_PER_CARRIER
        if mended:
            turn.tell(
                "repairs",
                system.letter,
                "repaired",
                said(
                    "fleet {fleet} repaired at {system}",
                    fleet=fleet_of(side, fleet.letter),
                    system=system.letter,
                ),
                (side,),
            )


def _production(turn: _Turn, side: str, purchases: list[Purchase]) -> None:
    """Both sides score; the mover buys ships for its fleets within TAB 1's limits."""
    state, tables = turn.state, turn.tables
    scored = score_production(state, state.turn)
    for s in (ALIEN, EMPIRE):
        n = sum(scored[s].values())
        if n:
            turn.tell(
                "production",
                "",
                "production",
                said_plural("{n} production point scored", "{n} production points scored", n),
                (s,),
                points=n,
            )
    for p in purchases:
        ship = tables.ships.get(p.kind)
        fleet = state.fleet(side, p.fleet)
        if ship is None or fleet is None or p.count < 1:
            turn.cancel(
                side,
                p.cell,
                said(
                    "no {kind} can be bought for fleet {fleet}",
                    kind=kind_said(p.kind),
                    fleet=fleet_of(side, p.fleet),
                ),
            )
            continue
        problem = purchase_problem(state, tables, side, p)
        if problem:
            turn.cancel(side, p.cell, problem)
            continue
        if not spend(state, side, ship.cost * p.count, list(p.spend_from)):
            turn.cancel(
                side,
                p.cell,
                said_plural(
                    "{cost} points needed; {n} point banked",
                    "{cost} points needed; {n} points banked",
                    state.total_points(side),
                    cost=ship.cost * p.count,
                ),
            )
            continue
        new = [
            Ship(
                p.kind,
                interceptors=INTERCEPTORS_PER_CARRIER if p.kind == "porte_intercepteur" else 0,
            )
            for _ in range(p.count)
        ]
        if fleet.on_map or fleet.where == "waiting":
            extra = state.fleet(side, f"{fleet.letter}+") or Fleet(side, f"{fleet.letter}+")
            if extra not in state.fleets:
                state.fleets.append(extra)
            extra.ships.extend(new)
        else:
            fleet.ships.extend(new)
            fleet.where, fleet.position = "reserve", None
        turn.tell(
            "production",
            fleet.letter,
            "purchase",
            said(
                "{ships} bought for fleet {fleet}",
                ships=ships_said(p.kind, p.count),
                fleet=fleet_of(side, fleet.letter),
            ),
            (side,),
        )


def purchase_problem(state: State, tables: Tables, side: str, p: Purchase) -> str:
    """TAB 1's limits for ships bought: a fleet's capacity and most of a type in one fleet,
    the most of a type a side has in play ("" if the purchase fits)."""
    ship = tables.ships[p.kind]
    letters = (p.fleet, f"{p.fleet}+")
    in_fleet = [s for f in state.fleets if f.side == side and f.letter in letters for s in f.ships]
    capacity = tables.fleets.get(p.fleet, 0)
    if len(in_fleet) + p.count > capacity:
        return said(
            "fleet {fleet} holds {most} ships; it would hold {n}",
            fleet=p.fleet,
            most=capacity,
            n=len(in_fleet) + p.count,
        )
    of_kind = sum(1 for s in in_fleet if s.kind == p.kind) + p.count
    if of_kind > ship.per_fleet:
        return said("a fleet holds at most {ships}", ships=ships_said(p.kind, ship.per_fleet))
    in_play = (
        sum(1 for f in state.fleets if f.side == side for s in f.ships if s.kind == p.kind)
        + p.count
    )
    if in_play > ship.in_play:
        return said("a side has at most {ships} at once", ships=ships_said(p.kind, ship.in_play))
    return ""


def _end(turn: _Turn) -> None:
    state = turn.state
    if not state.finished and state.turn >= int(turn.rules["last_turn"]):
        score, lines = programme_score(state, turn.rules)
        state.winner = outcome(score, turn.rules)
        state.imperial_revealed = True
        result = {
            ALIEN: N_("after turn {turn}: the programme scores {score}; the Extraterrestrial wins"),
            EMPIRE: N_("after turn {turn}: the programme scores {score}; the Empire wins"),
        }.get(state.winner, N_("after turn {turn}: the programme scores {score}; a draw"))
        finished = said(result, turn=state.turn, score=f"{score:+d}")
        state.finished = str(finished)
        turn.tell(
            "end",
            "",
            "game_over",
            finished,
            EVERYONE,
            lines=[line.__dict__ for line in lines],
            programme=list(state.programme),
        )
    # The step after the last is no one's (`Millenium.current_step`): a finished game moves on
    # like a running one, so the step just resolved (the last turn, or the turn the imperial
    # planet fell) is the one its reports and dice seed tell, not the step before it.
    state.turn += 1
