"""The computer player of Imperium 3rd Millennium: valid, deterministic, fair, and playing a war.

`check_plan` replays a side's orders against the state the way the action segments will
(planned fleet positions, joins, splits, loads) and lists every way they could break the rules
a sheet is checked against; most tests assert it finds nothing.
"""

from __future__ import annotations

from collections import Counter

import pytest

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.imperium_3m import admin
from refassist.rulesets.imperium_3m.ai import computer_orders, known_view
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.orders import Orders
from refassist.rulesets.imperium_3m.setup import new_game
from refassist.rulesets.imperium_3m.state import ALLOWED_ON, Fleet, State, Unit
from refassist.rulesets.imperium_3m.units import (
    IMPERIAL,
    IMPERIAL_RESTRICTED,
    TERRAN,
    counters_available,
    unit_type,
)
from refassist.rulesets.imperium_3m.validate import validate_orders

RULES = find_ruleset("imperium-3m").default_house_rules()
MP = {"light": 5, "capital": 4, "aux": 3}


def start(seed: int = 1) -> State:
    players = (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com"))
    return new_game(NewGame("Test", "id", players, {}), Dice(seed=seed), {})


def orders_of(state: State, side: str, seed: int = 7) -> Orders:
    return computer_orders(state, state.player_of(side), seed, RULES)


def remove_fleets(state: State, side: str) -> None:
    """Take every fleet of ``side`` (and what it carries) off the map."""
    names = {f.name for f in state.fleets if f.side == side}
    state.fleets = [f for f in state.fleets if f.name not in names]
    state.units = [u for u in state.units if u.fleet not in names]


def add_fleet(state: State, side: str, name: str, system: str, codes: list[str]) -> Fleet:
    fleet = Fleet(name=name, side=side, system=system)
    state.fleets.append(fleet)
    for code in codes:
        state.units.append(
            Unit(id=state.next_unit_id(side, code), side=side, code=code, fleet=name)
        )
    return fleet


def _movement(units: list[Unit]) -> int:
    ships = [u for u in units if u.type().is_ship]
    if not ships or any(u.code == "M" for u in ships):
        return 0
    return min(MP[u.type().kind] - (1 if u.damaged else 0) for u in ships)


def _overloaded(units: list[Unit]) -> bool:
    room = sum(RULES["tr_capacity"] for u in units if u.code == "TR")
    room += sum(RULES["at_capacity"] for u in units if u.code == "AT")
    cargo = sum(1 for u in units if u.type().kind in ("troop", "pd", "outpost"))
    return cargo > room


def check_plan(state: State, orders: Orders) -> list[str]:
    """Every rule the orders break, replaying them in order against the planned positions."""
    side = orders.side
    problems: list[str] = []
    pos = {f.name: f.system for f in state.fleets if f.side == side}
    cargo = {n: [u for u in state.units if u.fleet == n] for n in pos}
    on_planet = {u.id: u for u in state.units if u.side == side and u.planet}
    used_names = {f.name for f in state.fleets}
    permitted = state.sides[side].permissions
    cost = 0
    for b in orders.builds:
        t = unit_type(side, b.code)
        cost += t.cost * b.count * (2 if state.at_peace() else 1)
        in_play = sum(1 for u in state.units if u.side == side and u.code == b.code)
        queued = sum(1 for q in state.queue if q.side == side and q.code == b.code)
        if in_play + queued + b.count > counters_available(side, b.code):
            problems.append(f"build {b.code}: counters exhausted")
        restricted = side == IMPERIAL and b.code in IMPERIAL_RESTRICTED
        if restricted and "ALL" not in permitted and b.code not in permitted:
            problems.append(f"build {b.code} without permission")
        if side == TERRAN and b.code == "BB" and not state.sides[side].bb_unlocked:
            problems.append("Terran BB before a B was destroyed")
    cost += 10 * (len(orders.terraform) + len(orders.upgrades))
    # production comes before construction: the stockpile plus this turn's income
    ctx = TurnContext.start(state, {}, Dice.scripted([]), RULES)
    budget = state.sides[side].resources + admin.income(ctx, side)[0]
    if cost > budget:
        problems.append(f"spends {cost} of {budget}")
    if orders.appeal and (side != IMPERIAL or state.at_peace()):
        problems.append("appeal not allowed")
    for segment in range(1, 5):
        lines = orders.activations_in(segment)
        if len(lines) > 6:
            problems.append(f"segment {segment}: {len(lines)} activations")
        moved: set[str] = set()
        for line in lines:
            for a in line.actions:
                where = f"segment {segment} {a.text!r}"
                if a.fleet not in pos:
                    problems.append(f"{where}: not an own fleet")
                    continue
                if pos[a.fleet] != line.system:
                    problems.append(f"{where}: fleet at {pos[a.fleet]}, line at {line.system}")
                units = cargo[a.fleet]
                if a.kind == "move":
                    if any(u.id in moved for u in units):
                        problems.append(f"{where}: a unit moves twice")
                    here, points = pos[a.fleet], _movement(units)
                    for there in a.route:
                        r = state.map.route(here, there)
                        if r is None:
                            problems.append(f"{where}: {here}-{there} not adjacent")
                            break
                        points -= r.length
                        here = there
                    if points < 0:
                        problems.append(f"{where}: beyond its movement points")
                    if _overloaded(units):
                        problems.append(f"{where}: overloaded")
                    moved.update(u.id for u in units)
                    pos[a.fleet] = a.route[-1]
                elif a.kind == "join":
                    if a.target not in pos or pos[a.target] != pos[a.fleet]:
                        problems.append(f"{where}: join target not here")
                        continue
                    cargo[a.fleet] = units + cargo.pop(a.target)
                    del pos[a.target]
                elif a.kind == "split":
                    if a.target in used_names:
                        problems.append(f"{where}: fleet name {a.target} in use")
                    used_names.add(a.target)
                    leaving = [u for u in units if u.id in a.units]
                    if len(leaving) != len(a.units) or not any(u.type().is_ship for u in leaving):
                        problems.append(f"{where}: bad split")
                    cargo[a.fleet] = [u for u in units if u not in leaving]
                    cargo[a.target] = leaving
                    pos[a.target] = pos[a.fleet]
                elif a.kind == "load":
                    planet = state.map.planets[a.planet]
                    if planet.owner != side or planet.system != pos[a.fleet]:
                        problems.append(f"{where}: not an own planet here")
                    taken = [on_planet.pop(i) for i in a.units if i in on_planet]
                    if len(taken) != len(a.units):
                        problems.append(f"{where}: unit not on an own planet")
                    cargo[a.fleet] = units + taken
                    if _overloaded(cargo[a.fleet]):
                        problems.append(f"{where}: overloaded")
                elif a.kind == "attack":
                    planet = state.map.planets[a.planet]
                    if planet.system != pos[a.fleet]:
                        problems.append(f"{where}: planet not here")
                    if any(u.id in moved for u in units):
                        problems.append(f"{where}: moved and attacks in one segment")
                    if state.at_peace():
                        problems.append(f"{where}: attack in peace")
                    # the troops that may land go ashore and free their transports
                    allowed = ALLOWED_ON[planet.klass]
                    cargo[a.fleet] = [
                        u for u in units if not (u.type().kind == "troop" and u.code in allowed)
                    ]
    names = [b.fleet for b in orders.battle_orders]
    if len(names) != len(set(names)) or not set(names) <= {f.name for f in state.fleets}:
        problems.append("battle orders for unknown or repeated fleets")
    return problems


# -- from the starting state -------------------------------------------------------------------
@pytest.mark.parametrize("side", [TERRAN, IMPERIAL])
def test_both_sides_give_valid_orders_from_the_start(side: str) -> None:
    state = start()
    orders = orders_of(state, side)
    assert orders.side == side and orders.turn == state.turn
    assert orders.activations and orders.builds and orders.battle_orders
    assert check_plan(state, orders) == []


@pytest.mark.parametrize("side", [TERRAN, IMPERIAL])
def test_the_checker_accepts_the_orders_from_the_start(side: str) -> None:
    state = start()
    for seed in range(5):
        orders = orders_of(state, side, seed)
        problems = validate_orders(state, state.player_of(side), orders, RULES)
        assert [p for p in problems if p.severity == "error"] == []


@pytest.mark.parametrize("side", [TERRAN, IMPERIAL])
def test_the_orders_survive_the_turn_sheet(side: str, tmp_path) -> None:
    """The demo's path: typed into the real sheet, read back unchanged, accepted."""
    from refassist.rulesets.imperium_3m import sheet

    state = start()
    player = state.player_of(side)
    orders = orders_of(state, side)
    path = tmp_path / "sheet.xlsx"
    sheet.write_sheet(state, player, path, token="t0k", deadline="Friday", house_rules=RULES)
    sheet.fill_sheet(path, orders)
    read = sheet.read_sheet(path)
    assert [p for p in read.problems if p.severity == "error"] == []

    def gist(o: Orders) -> list[object]:
        return [
            o.appeal,
            [(b.code, b.count) for b in o.builds],
            [
                (
                    a.segment,
                    a.system,
                    [(x.kind, x.fleet, x.route, x.planet, x.units, x.target) for x in a.actions],
                )
                for a in o.activations
            ],
            [(b.fleet, b.stance, b.priority, b.break_off) for b in o.battle_orders],
        ]

    assert gist(read.orders) == gist(orders)
    problems = validate_orders(state, player, read.orders, RULES)
    assert [p for p in problems if p.severity == "error"] == []


def test_orders_are_deterministic_for_a_seed() -> None:
    state = start()
    for side in (TERRAN, IMPERIAL):
        assert orders_of(state, side, 3) == orders_of(state, side, 3)
        assert orders_of(state.copy(), side, 3) == orders_of(state, side, 3)


def test_the_empire_appeals_for_finances_early_and_forces_when_behind() -> None:
    state = start()
    assert orders_of(state, IMPERIAL).appeal == "Finances"
    assert orders_of(state, TERRAN).appeal == ""
    state.glory = 3
    state.war_turn = 5
    assert orders_of(state, IMPERIAL).appeal == "Forces"
    state.sides[IMPERIAL].appeals_prohibited = True
    assert orders_of(state, IMPERIAL).appeal == ""


# -- what a side may know ----------------------------------------------------------------------
def test_hidden_enemy_fleets_change_nothing() -> None:
    state = start()
    before = orders_of(state, TERRAN)
    hidden = state.copy()
    add_fleet(hidden, IMPERIAL, "I9", "LAL", ["B1", "CA", "CA"])  # nobody Terran near Lalande
    assert orders_of(hidden, TERRAN) == before
    seen = state.copy()
    add_fleet(seen, IMPERIAL, "I9", "BAR", ["B1", "CA", "CA"])  # the Terran outpost sees it
    assert orders_of(seen, TERRAN) != before


def test_a_seen_fleet_whose_contents_are_hidden_is_a_guess_not_a_leak() -> None:
    """A fleet at Barnard's Star, seen but not revealed: the planner knows it is there, counts
    it as HIDDEN_FLEET_POWER with warships, and its orders do not depend on what it holds."""
    from refassist.rulesets.imperium_3m.ai import HIDDEN_FLEET_POWER

    weak, strong = start(), start()
    add_fleet(weak, IMPERIAL, "I9", "BAR", ["DD"])
    add_fleet(strong, IMPERIAL, "I9", "BAR", ["BB", "BB", "BB", "B2", "CA", "CA"])
    view = known_view(weak, TERRAN)
    assert view.hidden == {"I9"} and view.enemy_fleets["BAR"][0][1] == []
    assert view.enemy_power_at("BAR") == HIDDEN_FLEET_POWER and view.enemy_warships_at("BAR")
    assert orders_of(weak, TERRAN) == orders_of(strong, TERRAN)
    open_stacks = known_view(weak, TERRAN, {"enemy_fleet_contents": "shown"})
    assert open_stacks.hidden == set() and [
        u.code for u in open_stacks.enemy_fleets["BAR"][0][1]
    ] == ["DD"]


def test_known_view_shows_enemy_boxes_only_where_revealed() -> None:
    state = start()
    view = known_view(state, TERRAN)
    assert "ISH" not in view.enemy_fleets and view.enemy_ground == {}
    assert {"SOL", "ACE", "BAR"} <= view.seen
    state.revealed = {TERRAN: ["ISH"]}
    view = known_view(state, TERRAN)
    assert {u.code for u in view.enemy_ground["ISH1"]} == {"RT", "PD"}
    assert "DIN1" not in view.enemy_ground


# -- movement ----------------------------------------------------------------------------------
def test_moves_stop_where_known_enemy_warships_are() -> None:
    state = start()
    remove_fleets(state, IMPERIAL)
    add_fleet(state, IMPERIAL, "I9", "BAR", ["DD"])  # weak, in sight of the Barnard outpost
    orders = orders_of(state, TERRAN)
    main = [a for x in orders.activations_in(1) for a in x.actions if a.fleet == "T1"]
    move = next(a for a in main if a.kind == "move")
    assert move.route == ["BAR"]  # it would go on towards Ishkur, but the battle stops it
    assert check_plan(state, orders) == []


def test_a_much_stronger_known_enemy_is_not_attacked() -> None:
    state = start()
    remove_fleets(state, IMPERIAL)
    # stronger than all three Terran fleets together (power 115 against 100), and known to be:
    # a stealth scout revealed it (fleet contents are hidden otherwise)
    add_fleet(state, IMPERIAL, "I9", "BAR", ["BB", "BB", "BB", "B2", "CA", "CA"])
    state.revealed[TERRAN] = ["BAR"]
    orders = orders_of(state, TERRAN)
    for line in orders.activations:
        for a in line.actions:
            assert a.kind != "move" or "BAR" not in a.route, a.text
    stance = {b.fleet: (b.stance, b.break_off) for b in orders.battle_orders}
    assert stance["T3"] == ("stand off", 1)  # the Barnard fleet is much weaker
    assert check_plan(state, orders) == []


def test_battle_orders_close_when_stronger_stand_off_when_weaker() -> None:
    state = start()
    remove_fleets(state, IMPERIAL)
    add_fleet(state, IMPERIAL, "I9", "BAR", ["CA", "CL"])
    stance = {b.fleet: (b.stance, b.break_off) for b in orders_of(state, TERRAN).battle_orders}
    assert stance["T1"] == ("close", 0)  # B, CA, CL, DD, DD against CA, CL
    assert stance["T3"] == ("stand off", 0)  # CL, DD: weaker but not by half


def test_scouts_split_off_and_stop_in_the_first_enemy_system() -> None:
    state = start()
    remove_fleets(state, IMPERIAL)
    remove_fleets(state, TERRAN)
    add_fleet(state, TERRAN, "T1", "SOL", ["CA", "SC", "TR"])
    orders = orders_of(state, TERRAN)
    actions = [a for x in orders.activations_in(1) for a in x.actions]
    split = next(a for a in actions if a.kind == "split")
    scout = next(a for a in actions if a.kind == "move" and a.fleet == split.target)
    assert split.units == ["SC1"]
    assert scout.route[-1] in ("KIS", "ISH", "URU", "GAS", "DIN")
    assert all(s in ("BAR", "WOL", "TAU", "ACE", "PRO") for s in scout.route[:-1])
    assert check_plan(state, orders) == []


def test_a_home_guard_stays_at_the_capital() -> None:
    state = start()
    orders = orders_of(state, TERRAN)
    first = [a for x in orders.activations_in(1) for a in x.actions]
    guard = next(a for a in first if a.kind == "split" and a.target.startswith("TG"))
    assert guard.fleet == "T1"
    assert not any(
        a.fleet == guard.target and a.kind == "move" for x in orders.activations for a in x.actions
    )
    assert check_plan(state, orders) == []


def test_empty_transports_fetch_troops_and_the_warships_go_on() -> None:
    state = start()
    remove_fleets(state, IMPERIAL)
    remove_fleets(state, TERRAN)
    add_fleet(state, TERRAN, "T1", "WOL", ["CA", "DD", "TR", "TR"])  # no troops aboard
    orders = orders_of(state, TERRAN)
    first = [a for x in orders.activations_in(1) for a in x.actions]
    split = next(a for a in first if a.kind == "split")
    assert split.fleet == "T1" and split.target == "TC1" and split.units == ["TR1", "TR2"]
    convoy = [a for x in orders.activations for a in x.actions if a.fleet == "TC1"]
    # spare troops stand on Sol 1 (two RT, one stays as garrison): the convoy goes there
    assert convoy[0].kind == "move" and convoy[0].route == ["BAR", "SOL"]
    assert any(a.kind == "load" and a.planet == "SOL1" for a in convoy)
    warships = [a for a in first if a.fleet == "T1" and a.kind == "move"]
    assert warships and warships[0].route[0] == "KIS"  # towards the target, at cruiser speed
    assert check_plan(state, orders) == []


def test_a_guard_sends_its_reinforcements_to_war() -> None:
    state = start()
    add_fleet(state, TERRAN, "TG1", "SOL", ["DD", "CL", "TR"])  # new units placed with it
    orders = orders_of(state, TERRAN)
    first = [a for x in orders.activations_in(1) for a in x.actions]
    split = next(a for a in first if a.kind == "split" and a.fleet == "TG1")
    kept = {u.id for u in state.units if u.fleet == "TG1"} - set(split.units)
    assert [state.unit(TERRAN, i).code for i in kept] == ["DD"]
    moved = {a.fleet for x in orders.activations for a in x.actions if a.kind in ("move", "join")}
    assert "TG1" not in moved
    assert split.target in moved or any(
        a.kind == "join" and a.target == split.target for x in orders.activations for a in x.actions
    )
    # no second guard is split off: TG1 guards the capital
    assert not any(a.kind == "split" and a.target.startswith("TG") for a in first)
    assert check_plan(state, orders) == []


def test_troops_are_loaded_before_the_attack() -> None:
    state = start()
    remove_fleets(state, IMPERIAL)
    for u in state.units:  # T1's regular troops go ashore at Sol 1: the transport is empty
        if u.side == TERRAN and u.fleet == "T1" and u.code == "RT":
            u.fleet, u.planet = "", "SOL1"
    orders = orders_of(state, TERRAN)
    sequence = [(x.segment, a) for x in orders.activations for a in x.actions]
    loads = [(s, a) for s, a in sequence if a.kind == "load" and a.fleet == "T1"]
    attacks = [(s, a) for s, a in sequence if a.kind == "attack"]
    assert loads and attacks
    assert loads[0][0] < attacks[0][0]
    target = state.map.planets[attacks[0][1].planet]
    loaded = [state.unit(TERRAN, i) for i in loads[0][1].units]
    assert all(u is not None and u.code in ALLOWED_ON[target.klass] for u in loaded)
    # the garrison stays: one troop is left on Sol 1
    assert any(
        u.planet == "SOL1" and u.id not in loads[0][1].units for u in state.units if u.code == "RT"
    )
    # the attack comes in a later segment than the move that reached the planet's system
    moves = [
        s
        for s, a in sequence
        if a.kind == "move" and a.fleet == "T1" and a.route[-1] == target.system
    ]
    assert moves and moves[0] < attacks[0][0]
    assert check_plan(state, orders) == []


def test_no_troops_are_loaded_after_an_attack_in_the_same_turn() -> None:
    """Sol 2 fell to the Empire; T1 at Sol lands its troops there.  Its transport is free again
    only if the landing went well, which the sheet cannot know: it loads nothing afterwards
    (the checker would count the landed troops still aboard and refuse the load)."""
    state = start()
    remove_fleets(state, IMPERIAL)
    state.map.planets["SOL2"].owner = IMPERIAL
    state.units = [u for u in state.units if u.planet != "SOL2"]
    state.units.append(Unit(id="RT9", side=TERRAN, code="RT", planet="SOL1", strength=2))
    orders = orders_of(state, TERRAN)
    sequence = [(x.segment, a) for x in orders.activations for a in x.actions if a.fleet == "T1"]
    attacks = [s for s, a in sequence if a.kind == "attack" and a.planet == "SOL2"]
    assert attacks and attacks[0] == 1
    assert not any(a.kind == "load" for s, a in sequence if s >= attacks[0])
    problems = validate_orders(state, "Terra", orders, RULES)
    assert [p for p in problems if p.severity == "error"] == []


def test_a_garrison_stays_on_every_world() -> None:
    state = start()
    remove_fleets(state, IMPERIAL)
    remove_fleets(state, TERRAN)
    add_fleet(state, TERRAN, "T1", "SOL", ["CA", "TR", "TR", "TR", "TR"])  # room for four
    orders = orders_of(state, TERRAN)
    loaded = [i for x in orders.activations for a in x.actions if a.kind == "load" for i in a.units]
    assert len(loaded) == 1  # Sol 1 has two regular troops, Sol 2 one: one may go
    assert {u.planet for u in state.units if u.code == "RT" and u.id not in loaded} >= {
        "SOL1",
        "SOL2",
    }


def test_jump_troops_are_built_when_only_jump_troops_can_land() -> None:
    for seed in range(6):  # Kish 1 and Uruk 1 are N planets; the Terrans start without JT
        assert "JT" in [b.code for b in orders_of(start(), TERRAN, seed).builds]


def test_jump_troops_go_for_outposts_on_n_planets() -> None:
    state = start()
    orders = orders_of(state, IMPERIAL)  # I2 carries jump troops: Barnard 1 (N2) is in reach
    attacks = [a for x in orders.activations for a in x.actions if a.kind == "attack"]
    assert attacks and attacks[0].planet == "BAR1"
    terran = orders_of(state, TERRAN)  # regular troops only: a World (A) is the target
    attacks = [a for x in terran.activations for a in x.actions if a.kind == "attack"]
    assert attacks and state.map.planets[attacks[0].planet].klass == "A"


# -- production --------------------------------------------------------------------------------
def test_builds_stay_within_the_stockpile_and_permissions() -> None:
    built: Counter[str] = Counter()
    for seed in range(8):
        state = start()
        state.sides[IMPERIAL].resources = 150
        state.sides[TERRAN].resources = 150
        for side in (TERRAN, IMPERIAL):
            orders = orders_of(state, side, seed)
            assert check_plan(state, orders) == []
            built.update(f"{side[0]}{b.code}" for b in orders.builds)
    assert not any(f"I{c}" in built for c in IMPERIAL_RESTRICTED)
    assert "TBB" not in built
    assert built["TB"] > 0  # a Terran battleship is fine


def test_permissions_and_the_bb_unlock_open_the_big_ships() -> None:
    built: Counter[str] = Counter()
    for seed in range(8):
        state = start()
        state.sides[IMPERIAL].resources = 150
        state.sides[IMPERIAL].permissions = ["ALL"]
        state.sides[TERRAN].resources = 150
        state.sides[TERRAN].bb_unlocked = True
        for side in (TERRAN, IMPERIAL):
            orders = orders_of(state, side, seed)
            assert check_plan(state, orders) == []
            built.update(f"{side[0]}{b.code}" for b in orders.builds)
    assert any(f"I{c}" in built for c in IMPERIAL_RESTRICTED)
    assert built["TBB"] > 0


def test_a_side_keeps_back_what_its_fleets_and_troops_will_cost() -> None:
    state = start()
    state.sides[TERRAN].resources = 3
    assert orders_of(state, TERRAN).builds  # 3 + income 27 - upkeep 9 (troops and PD)
    # a battle fleet far from any World costs 24 a turn from the stockpile: nothing is left
    add_fleet(state, TERRAN, "T9", "WOL", ["B", "B", "B", "CA", "CA", "CA"])
    orders = orders_of(state, TERRAN)
    assert orders.builds == [] and orders.terraform == []


def test_counters_run_out() -> None:
    state = start()
    state.sides[TERRAN].resources = 500
    for n in range(6):  # every Terran CA, CS, CL, DD and TB counter is in play
        add_fleet(state, TERRAN, f"TX{n}", "SOL", ["CA", "CS", "CL", "DD", "DD", "TB", "TB"])
    orders = orders_of(state, TERRAN)
    assert check_plan(state, orders) == []
    assert not {"CA", "CS"} & {b.code for b in orders.builds}


def test_a_rich_side_terraforms_a_connected_outpost() -> None:
    state = start()
    state.sides[TERRAN].resources = 200
    orders = orders_of(state, TERRAN)
    assert [p.planet for p in orders.terraform] == ["BAR1"]
    assert check_plan(state, orders) == []
    state.sides[TERRAN].resources = 30
    assert orders_of(state, TERRAN).terraform == []


# -- peace -------------------------------------------------------------------------------------
def test_in_peace_no_fleet_enters_an_enemy_system() -> None:
    state = start()
    state.war_turn = 0
    state.peace_left = 5
    add_fleet(state, TERRAN, "T8", "WOL", ["CA", "DD"])  # out on the frontier
    add_fleet(state, TERRAN, "T7", "NIP", ["CA", "DD"])
    state.map.planets["PRO4"].owner = TERRAN  # an outpost at Procyon sees the Imperial fleet
    state.map.planets["PRO4"].marker = "Outpost"
    add_fleet(state, IMPERIAL, "I9", "PRO", ["DD"])
    state.map.planets["TAU2"].owner = TERRAN
    state.map.planets["TAU2"].marker = "Outpost"
    state.sides[TERRAN].resources = 100
    orders = orders_of(state, TERRAN)
    hostile = {"KIS", "URU", "DIN", "GAS", "ISH"}
    for line in orders.activations:
        for a in line.actions:
            assert a.kind != "attack"
            assert a.kind != "move" or not hostile & set(a.route), a.text
    t8 = [a for x in orders.activations for a in x.actions if a.fleet == "T8"]
    assert t8 and t8[0].route[-1] in ("BAR", "SOL")  # it comes home
    # the short way home from Nippur passes an Imperial fleet at Procyon: it goes round
    t7 = [a for x in orders.activations for a in x.actions if a.fleet == "T7"]
    assert t7 and t7[0].route == ["LAL", "TAU", "ACE"]
    assert sorted(p.planet for p in orders.upgrades) == ["PRO4", "TAU2"]  # Outposts on A planets
    assert orders.appeal == "" and orders_of(state, IMPERIAL).appeal == ""
    assert check_plan(state, orders) == []


def test_no_orders_once_the_game_is_over() -> None:
    state = start()
    state.finished = "Imperial victory"
    orders = orders_of(state, TERRAN)
    assert orders.activations == [] and orders.builds == []


# -- a whole war -------------------------------------------------------------------------------
def play(seed: int, turns: int = 10) -> tuple[State, Counter[str], list[str]]:
    from refassist.rulesets.imperium_3m.resolve import resolve_turn

    state = start(seed)
    kinds: Counter[str] = Counter()
    problems: list[str] = []
    for n in range(turns):
        if state.finished:
            break
        orders = {}
        for side in (TERRAN, IMPERIAL):
            o = orders_of(state, side, seed)
            problems += [f"turn {state.turn} {side}: {p}" for p in check_plan(state, o)]
            problems += [
                f"turn {state.turn} {side}: {p.cell} {p.message}"
                for p in validate_orders(state, state.player_of(side), o, RULES)
                if p.severity == "error"
            ]
            orders[state.player_of(side)] = o
        result = resolve_turn(state, orders, Dice(seed=seed * 1000 + n), RULES)
        kinds.update(e.kind for e in result.events)
        state = result.state
    return state, kinds, problems


def test_two_computer_players_fight_wars_that_end() -> None:
    """Three 10-turn games: every turn's orders pass `check_plan` and the real checker, every
    game has space battles and glory, captures happen, and each war ends by the schedule."""
    captures = 0
    for seed in (1, 2, 3):
        state, kinds, problems = play(seed)
        assert problems == []
        assert kinds["battle"] > 0 and kinds["glory"] > 0, (seed, kinds)
        assert kinds["landing"] > 0, (seed, kinds)
        assert state.results, seed  # a victory or the turn-10 truce
        captures += kinds["capture"]
    assert captures > 0
