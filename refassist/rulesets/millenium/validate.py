"""The checker: a side's sheet held to the state and the rules before the turn is resolved,
every problem pinned to its cell, in the reader's language (`i18n.current`).

It runs the same functions as the resolution (`strategic.check_path`, `jump_problem`,
`stack_problem`, `resolve.purchase_problem`), moving the side's fleets in sheet order on a copy
of the state, so an order it accepts is one the turn carries out, and an order it refuses is
cancelled alone at resolve time.  What it cannot know (a surrender demand's die, a battle, a
jump's deviation) it leaves to the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...errors import CellProblem
from ...text.i18n import current
from ..checking import OrderChecker
from .battlesheet import (
    BASES_CELL,
    BATTLE_CELL,
    CONQUERED_CELL,
    LEFT_CELL,
    battle_of,
    battle_tab,
)
from .charts import SHIP_TYPES, Tables, tables_for
from .names import ships_counted
from .orders import BattleResult, FleetMove, FleetSetup, Orders
from .parse import in_language
from .production import turn_production
from .resolve import composed, default_entry, entry_ready, purchase_problem, step_key
from .rules import complete
from .setup import PROGRAMME_LEAST
from .sheet import (
    FLEET_FIRST_ROW,
    IMPERIAL_CELL,
    SETUP_FLEET_FIRST_ROW,
    SIDE_CELL,
    STEP_CELL,
    SYSTEM_FIRST_ROW,
    orders_tab,
)
from .state import ALIEN, Fleet, State, mover, other
from .strategic import can_land, check_path, jump_problem, stack_problem, waiting_over
from .tablebattles import ships_in
from .tactical import SURRENDER_BASES

START_FLEETS = 6


def validate_orders(
    state: State, player: str, orders: Orders | BattleResult, rules: Mapping[str, Any] | None = None
) -> list[CellProblem]:
    rules = complete(rules)
    if isinstance(orders, BattleResult):
        return validate_result(state, orders, rules)
    check = _Checker(state, player, tables_for(rules), rules)
    w = current()
    if orders.step != step_key(state):
        check.error(
            STEP_CELL,
            orders.step,
            w("this sheet is for step {step}", step=orders.step),
            w("Use the sheet for step {step}.", step=step_key(state)),
        )
        return check.problems
    if state.turn == 0:
        check.setup(orders)
    else:
        check.turn(orders)
    return _as_typed(check.problems, orders.sectors_typed)


def _as_typed(problems: list[CellProblem], typed: Mapping[str, str]) -> list[CellProblem]:
    """The problems with their positions in the sector letters the player typed (O, I), else
    in his language's (a French reader's O for the west sector)."""
    language = current().language
    return [
        replace(
            p,
            message=in_language(p.message, language, typed),
            fix=in_language(p.fix, language, typed),
        )
        for p in problems
    ]


def validate_result(
    state: State, result: BattleResult, rules: Mapping[str, Any] | None = None
) -> list[CellProblem]:
    """A battle's result against the battle waiting for it: the ships listed still there, a
    planet conquered only as rule VIII D lets it fall, a side leaving with a ship left."""
    rules = complete(rules)
    check = _ResultChecker()
    w = current()
    battle = battle_of(state, result.battle)
    if battle is None or result.step != step_key(state):
        check.error(
            BATTLE_CELL,
            result.battle,
            w(
                "there is no battle {battle} waiting at step {step}",
                battle=result.battle,
                step=result.step,
            ),
            w.gettext("Use the battle sheet the tool wrote for this step."),
        )
        return check.problems
    listed = {
        (s.side, s.fleet, s.index): s for s in ships_in(state, battle, rules["fight_across_levels"])
    }
    fates = {(r.side, r.fleet, r.index): r.fate for r in result.ships}
    for r in result.ships:
        ship = listed.get((r.side, r.fleet, r.index))
        if ship is None or ship.ship.kind != r.kind:
            check.error(
                r.cell,
                r.fleet,
                w.gettext("this ship is no longer at the battle"),
                w.gettext("Use a battle sheet written after the master workbook's last change."),
            )
        elif r.interceptors is not None and r.kind != "porte_intercepteur":
            check.error(
                r.cell,
                str(r.interceptors),
                w.gettext("only a porte-intercepteur carries interceptors"),
                w.gettext("Leave the interceptors empty on this row."),
            )
        elif r.fate == "damaged" and ship.ship.damaged:
            check.warn(
                r.cell,
                r.fate,
                w.gettext("the ship was damaged before the battle: a second damage destroys it"),
                w.gettext("Write détruit if it was hit again; it stays damaged as written."),
            )

    def afloat(side: str) -> bool:
        return any(k[0] == side and fates.get(k) != "destroyed" for k in listed)

    defender = other(battle.attacker)
    for outcome in result.planet:
        if not outcome.conquered:
            continue
        if battle.attacker in result.left or not afloat(battle.attacker):
            check.error(
                CONQUERED_CELL,
                "oui",
                w.gettext("the attacker has no ship left in the battle to take the planet"),
                w.gettext("Write non, or correct the ships' fates and who left."),
            )
        elif defender not in result.left and afloat(defender):
            check.error(
                CONQUERED_CELL,
                "oui",
                w.gettext("the planet's side still has ships in the battle: it does not fall"),
                w.gettext("Write non, or correct the ships' fates and who left."),
            )
        elif outcome.bases_left > SURRENDER_BASES:
            check.error(
                BASES_CELL,
                str(outcome.bases_left),
                w("a planet surrenders in battle only with {n} bases or fewer", n=SURRENDER_BASES),
                w.gettext("Correct the bases left, or write non."),
            )
    for side in result.left:
        if not afloat(side):
            check.error(
                LEFT_CELL,
                side,
                w.gettext("no ship of that side came out of the battle to leave it"),
                w.gettext("Correct who left, or the ships' fates."),
            )
    return check.problems


class _ResultChecker(OrderChecker):
    def __init__(self) -> None:
        super().__init__()
        # A bare cell is on the battle page, named in the referee's language ("Bataille!C14").
        self.sheet = battle_tab(current().language)


class _Checker(OrderChecker):
    def __init__(self, state: State, player: str, tables: Tables, rules: Mapping[str, Any]) -> None:
        super().__init__()
        # A bare cell is on the input tab, named in the reader's language ("Ordres!C12").
        self.sheet = orders_tab(current().language)
        self.state = state.copy()
        self.side = state.side_of(player)
        self.tables = tables
        self.rules = rules

    # -- set-up -----------------------------------------------------------------------------
    def setup(self, setup: Orders) -> None:
        w = current()
        if self.state.systems:
            self.placement(setup)
            return
        empire = self.side != ALIEN
        if empire:
            self.cards(setup)
        elif not setup.programme:
            self.warn(
                f"C{SYSTEM_FIRST_ROW}",
                "",
                w.gettext("no conquest programme is written"),
                w("The referee's tool will choose {n} systems at random.", n=PROGRAMME_LEAST),
            )
        else:
            if len(setup.programme) < PROGRAMME_LEAST:
                self.error(
                    setup.programme_cell or f"C{SYSTEM_FIRST_ROW}",
                    str(len(setup.programme)),
                    w.ngettext(
                        "the programme names {n} system",
                        "the programme names {n} systems",
                        len(setup.programme),
                    ).format(n=len(setup.programme)),
                    w("Mark at least {n} systems yes.", n=PROGRAMME_LEAST),
                )
        if not setup.fleets:
            self.warn(
                f"B{SETUP_FLEET_FIRST_ROW}",
                "",
                w.gettext("no fleet is composed"),
                w.gettext("The referee's tool will compose six fleets and place them at random.")
                if empire
                else w.gettext("The referee's tool will compose six fleets."),
            )
        elif len(setup.fleets) != START_FLEETS:
            self.error(
                f"B{SETUP_FLEET_FIRST_ROW}",
                str(len(setup.fleets)),
                w.ngettext("{n} fleet composed", "{n} fleets composed", len(setup.fleets)).format(
                    n=len(setup.fleets)
                ),
                w("Compose exactly six fleets."),
            )
        seen: set[str] = set()
        totals = dict.fromkeys(SHIP_TYPES, 0)
        placed: dict[Any, list[int]] = {}
        for f in setup.fleets:
            self.fleet_setup(f, seen, empire)
            for kind, n in f.ships.items():
                totals[kind] += n
            if empire and f.start is not None:
                # « jamais » more than seven ships in fleets standing together (rule VII A 1):
                # the lines are placed in order, so the line that breaks the limit is refused.
                here = placed.setdefault(f.start, [])
                here.append(sum(f.ships.values()))
                stacked = stack_problem(here)
                if stacked:
                    here.pop()
                    self.error(
                        f.cell.replace("!B", "!H"),
                        str(f.start),
                        stacked,
                        w.gettext("Place the fleet elsewhere."),
                    )
        for kind, n in totals.items():
            most = self.tables.ships[kind].starting
            if n > most:
                self.error(
                    f"B{SETUP_FLEET_FIRST_ROW}",
                    str(n),
                    w(
                        "{ships} in all; a side starts with {most} at most",
                        ships=ships_counted(kind, n, w),
                        most=most,
                    ),
                    w("Take some out."),
                )

    def cards(self, setup: Orders) -> None:
        w = current()
        count = len(self.state.map.cards)
        if self.rules["cards_dealt"] == "random":
            if setup.cards:
                self.warn(
                    next(iter(setup.card_cells.values())),
                    "",
                    w.gettext("the cards are dealt at random in this game"),
                    w.gettext("Nothing to do: your numbers are not used."),
                )
        elif not setup.cards:
            self.warn(
                f"C{SYSTEM_FIRST_ROW}",
                "",
                w.gettext("no card is dealt"),
                w.gettext("The referee's tool will deal the cards at random."),
            )
        else:
            used: dict[int, str] = {}
            for letter in self.state.map.systems:
                cell = setup.card_cells.get(letter, "")
                number = setup.cards.get(letter)
                if number is None:
                    self.error(
                        cell or f"C{SYSTEM_FIRST_ROW}",
                        "",
                        w("system {system} has no card", system=letter),
                        w("Give every system a card number from 1 to {n}.", n=count),
                    )
                elif number > count:
                    self.error(
                        cell,
                        str(number),
                        w("there is no card {n}", n=number),
                        w("Card numbers go from 1 to {n}.", n=count),
                    )
                elif number in used:
                    self.error(
                        cell,
                        str(number),
                        w("card {n} is also given to {system}", n=number, system=used[number]),
                        w.gettext("Give each card to one system only."),
                    )
                else:
                    used[number] = letter
        imperial = setup.imperial
        system = imperial[:1]
        number = setup.cards.get(system)
        card = self.state.map.cards[number - 1] if number and 0 < number <= count else None
        if not imperial:
            if self.rules["cards_dealt"] != "random" and setup.cards:
                self.error(
                    setup.imperial_cell or IMPERIAL_CELL,
                    "",
                    w.gettext("no imperial planet is named"),
                    w.gettext("Name a planet of a loyalty-6 system, e.g. G1."),
                )
            else:
                self.warn(
                    setup.imperial_cell or IMPERIAL_CELL,
                    "",
                    w.gettext("no imperial planet is named"),
                    w.gettext(
                        "The referee's tool will choose one of a loyalty-6 system's planets at "
                        "random."
                    ),
                )
        elif system not in self.state.map.systems or not imperial[1:].isdigit():
            self.error(
                setup.imperial_cell,
                imperial,
                w.gettext("is not a planet"),
                w.gettext("Write a system's letter and the planet's number, e.g. G1."),
            )
        elif card is not None and (card.loyalty != 6 or not 1 <= int(imperial[1:]) <= card.planets):
            self.error(
                setup.imperial_cell,
                imperial,
                w(
                    "system {system} has card {n}, of loyalty {loyalty} and {planets}",
                    system=system,
                    n=number,
                    loyalty=card.loyalty,
                    planets=w.ngettext("{n} planet", "{n} planets", card.planets).format(
                        n=card.planets
                    ),
                ),
                w.gettext("The imperial planet is in a system of loyalty 6."),
            )

    def fleet_setup(self, f: FleetSetup, seen: set[str], empire: bool) -> None:
        w = current()
        capacity = self.tables.fleets.get(f.fleet)
        if capacity is None:
            self.error(
                f.cell,
                f.fleet,
                w.gettext("is not a fleet of TAB 1"),
                w("Use one of {letters}.", letters=" ".join(self.tables.fleets)),
            )
            return
        if f.fleet in seen:
            self.error(
                f.cell,
                f.fleet,
                w.gettext("this fleet is composed twice"),
                w.gettext("Compose each fleet once."),
            )
        seen.add(f.fleet)
        total = sum(f.ships.values())
        if not total:
            self.error(
                f.cell,
                f.fleet,
                w.gettext("the fleet has no ships"),
                w.gettext("Give it at least one ship."),
            )
        if total > capacity:
            self.error(
                f.cell,
                f.fleet,
                w("{n} ships; fleet {fleet} holds {most}", n=total, fleet=f.fleet, most=capacity),
                w.gettext("Take some out."),
            )
        for kind, n in f.ships.items():
            most = self.tables.ships[kind].per_fleet
            if n > most:
                # On the count's own cell (C to G, a column a ship type), not the letter's.
                column = "CDEFG"[SHIP_TYPES.index(kind)]
                self.error(
                    f.cell.replace("!B", f"!{column}"),
                    str(n),
                    w(
                        "{ships} in one fleet; TAB 1 allows {most}",
                        ships=ships_counted(kind, n, w),
                        most=most,
                    ),
                    w.gettext("Take some out."),
                )
        game_map = self.state.map
        if not empire:
            return  # the Extraterrestrial places its fleets on its next sheet
        if f.start is None:
            self.error(
                f.cell,
                f.fleet,
                w.gettext("the fleet has no start"),
                w.gettext("Write where it starts."),
            )
        elif not game_map.on_map(f.start.zone):
            self.error(
                f.cell,
                str(f.start),
                w.gettext("the Empire's fleets start on the map"),
                w.gettext("Write a position on the map, e.g. 23N4."),
            )

    def placement(self, setup: Orders) -> None:
        """The Extraterrestrial's placement: each fleet it composed at a place beyond an
        edge; a fleet left without one is placed at random (a warning)."""
        w = current()
        waiting = {f.letter for f in composed(self.state)}
        edges = self.state.map.edge_positions(4)
        placed: set[str] = set()
        for f in setup.fleets:
            if f.fleet not in waiting:
                self.error(
                    f.cell,
                    f.fleet,
                    w.gettext("is not a fleet composed on your set-up sheet"),
                    w("Your fleets: {letters}.", letters=" ".join(sorted(waiting))),
                )
            elif f.fleet in placed:
                self.error(
                    f.cell,
                    f.fleet,
                    w.gettext("this fleet is placed twice"),
                    w.gettext("Place each fleet once."),
                )
            elif f.start is None or f.start.at_level(4) not in edges:
                self.error(
                    f.cell.replace("!B", "!H"),
                    str(f.start or ""),
                    w.gettext("is not a place beyond an edge"),
                    w.gettext("Choose one of the places on 'Situation', e.g. 03E4."),
                )
            placed.add(f.fleet)
        for letter in sorted(waiting - placed):
            self.warn(
                f"B{SETUP_FLEET_FIRST_ROW}",
                letter,
                w("fleet {fleet} is not placed", fleet=letter),
                w.gettext("The referee's tool will place it beyond an edge at random."),
            )

    # -- a game turn ------------------------------------------------------------------------
    def turn(self, orders: Orders) -> None:
        w = current()
        if self.side != mover(self.state.turn):
            self.error(
                SIDE_CELL,
                self.side,
                w.gettext("it is not your turn"),
                w.gettext("Wait for your own game turn."),
            )
            return
        ordered: set[str] = set()
        for e in orders.entries:
            fleet = self.fleet(e.fleet, e.cell, ordered)
            if fleet is None:
                continue
            if not fleet.ships or not entry_ready(self.state, fleet):
                self.error(
                    e.cell,
                    e.fleet,
                    w.gettext("this fleet cannot enter now"),
                    w.gettext(
                        "Reserves enter from turn 2; a fleet waiting outside once its wait is over."
                    )
                    if self.state.turn >= 2
                    else w.gettext(
                        "On turn 1 your fleets enter by normal movement only (order enter), at "
                        "level 4."
                    ),
                )
            elif not self.state.map.on_map(e.zone):
                self.error(
                    e.cell,
                    e.fleet,
                    w.gettext("the destination zone is off the map"),
                    w.gettext("Name a zone of the map."),
                )
        for m in orders.moves:
            fleet = self.fleet(m.fleet, m.cell, ordered)
            if fleet is not None:
                self.move(m, fleet)
        if self.side == ALIEN and self.state.turn == 1:
            self.unordered_entries(ordered)
        points = self.state.total_points(self.side) + sum(
            turn_production(self.state, self.state.turn)[self.side].values()
        )
        for p in orders.purchases:
            ship = self.tables.ships.get(p.kind)
            if ship is None or self.state.fleet(self.side, p.fleet) is None:
                self.error(
                    p.cell,
                    p.fleet,
                    w.gettext("no such fleet or ship type"),
                    w("Use a fleet of TAB 1 ({letters}).", letters=" ".join(self.tables.fleets)),
                )
                continue
            problem = purchase_problem(self.state, self.tables, self.side, p)
            if problem:
                self.error(
                    p.cell, p.fleet, problem, w.gettext("Buy fewer ships, or for another fleet.")
                )
                continue
            cost = ship.cost * p.count
            if cost > points:
                self.warn(
                    p.cell,
                    p.fleet,
                    w.ngettext(
                        "{cost} points needed; about {n} point will be banked",
                        "{cost} points needed; about {n} points will be banked",
                        points,
                    ).format(cost=cost, n=points),
                    w.gettext("It is bought only if the points are there after production."),
                )
            points -= cost

    def unordered_entries(self, ordered: set[str]) -> None:
        """Turn 1: a set-up fleet given no order enters anyway (`resolve._enter_the_rest`);
        the player is told where, so a fleet left out by mistake can still be ordered."""
        w = current()
        for fleet in self.state.fleets:
            if fleet.side != ALIEN or fleet.where != "waiting" or fleet.letter in ordered:
                continue
            path = default_entry(self.state, fleet) if fleet.ships else None
            if path is not None:
                fleet.position, fleet.where = path[-1], "map"  # the next one sees it there
                self.warn(
                    f"B{FLEET_FIRST_ROW}",
                    fleet.letter,
                    w(
                        "fleet {fleet} has no order: every fleet enters on turn 1, it will "
                        "enter at {place}",
                        fleet=fleet.letter,
                        place=str(path[-1]),
                    ),
                    w.gettext("Give it a line if it should enter elsewhere."),
                )

    def fleet(self, letter: str, cell: str, ordered: set[str]) -> Fleet | None:
        w = current()
        fleet = self.state.fleet(self.side, letter)
        if fleet is None:
            self.error(
                cell,
                letter,
                w.gettext("is not one of your fleets"),
                w(
                    "Your fleets: {letters}.",
                    letters=" ".join(
                        f.letter for f in self.state.fleets if f.side == self.side and f.ships
                    ),
                ),
            )
            return None
        if letter in ordered:
            self.error(
                cell,
                letter,
                w.gettext("this fleet already has an order on this sheet"),
                w.gettext("Give each fleet one line."),
            )
            return None
        ordered.add(letter)
        return fleet

    def move(self, m: FleetMove, fleet: Fleet) -> None:
        w = current()
        state = self.state
        if not fleet.ships:
            self.error(
                m.cell, m.fleet, w.gettext("the fleet has no ships"), w.gettext("Remove the line.")
            )
            return
        if m.kind == "jump":
            if not fleet.on_map or fleet.position is None or m.zone is None:
                self.error(
                    m.cell,
                    m.fleet,
                    w.gettext("only a fleet on the map jumps"),
                    w.gettext("Enter it first, by normal movement or as a reserve."),
                )
                return
            problem = jump_problem(state.map, self.tables, fleet.position, m.zone, m.level)
            if problem:
                self.error(
                    m.cell,
                    m.fleet,
                    problem,
                    w.gettext("Choose a destination further away, counting levels."),
                )
            return
        entering = fleet.where == "waiting"
        if fleet.position is None or not (fleet.on_map or entering):
            self.error(
                m.cell,
                m.fleet,
                w.gettext("this fleet is not on the map"),
                w.gettext("A reserve enters with the order reserve."),
            )
            return
        if entering and not waiting_over(fleet):
            self.error(
                m.cell,
                m.fleet,
                w.ngettext(
                    "the fleet waits {n} more turn outside",
                    "the fleet waits {n} more turns outside",
                    fleet.wait,
                ).format(n=fleet.wait),
                w.gettext("Leave it this turn."),
            )
            return
        found = check_path(state.map, fleet.position, m.path, landing=bool(m.land) and not m.attack)
        if found.problems:
            self.error(
                m.cell.replace("!B", "!D"),
                " ".join(str(p) for p in m.path),
                "; ".join(found.problems),
                w.gettext("Correct the path: neighbouring sectors, no diagonals, 5 points."),
            )
            return
        end = m.path[-1] if m.path else fleet.position
        crowd = [len(f.ships) for f in state.fleets_at(end, self.side) if f is not fleet] + [
            len(fleet.ships)
        ]
        stacked = stack_problem(crowd)
        if stacked:
            self.error(m.cell, m.fleet, stacked, w.gettext("End the move elsewhere."))
            return
        landing = bool(m.land) and can_land(state.map, fleet.position, m.path)
        fleet.position, fleet.where = end, "map"
        if m.land:
            self.landing(m, fleet, landing)

    def landing(self, m: FleetMove, fleet: Fleet, landing: bool) -> None:
        """A landing line: the planet at the move's end, no attack on turn 1, and (for a line
        marked to attack, which moves without them) the landing's 2 points for occupying a
        planet that surrenders, as the turn holds it (`strategic.can_land`)."""
        w = current()
        state = self.state
        cell = m.cell.replace("!B", "!E")
        planet = state.planet(m.land)
        system = state.map.system_at(fleet.position) if fleet.position else None
        if planet is None or system is None or planet.system != system.letter:
            self.error(
                cell,
                m.land,
                w.gettext("the fleet does not end the move at this planet"),
                w.gettext("End the move in its system's inner sector, at the system's level."),
            )
            return
        if m.attack and self.side == ALIEN and state.turn == 1:
            self.error(
                cell.replace("!E", "!F"),
                "oui",
                w.gettext("the Extraterrestrial may not attack planets on turn 1"),
                w.gettext("Land without attacking, or wait for turn 3."),
            )
        if m.attack and not landing:
            self.warn(
                cell,
                m.land,
                w.gettext(
                    "the move leaves fewer than the landing's 2 points: if the planet "
                    "surrenders, the fleet does not occupy it"
                ),
                w.gettext("Shorten the move to keep 2 points for the landing."),
            )
        if planet.holder == self.side and (
            planet.colonised == self.side or not fleet.has_colonisers()
        ):
            self.warn(
                cell,
                m.land,
                w.gettext("the planet is already yours"),
                w.gettext("Nothing will happen there."),
            )


__all__ = ["validate_orders"]
