"""Computer players: valid orders every turn, deterministic, blind to what their player cannot
see, and doing what the issue asks (expand, build, attack, talk)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

from refassist.demo import EMPIRE_NAMES
from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.fifth_millennium.ai import computer_orders
from refassist.rulesets.fifth_millennium.state import SETUP_YEAR, Fleet, Flight, Force
from refassist.rulesets.fifth_millennium.validate import validate_orders
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets
from tests.conftest import players

FM = find_ruleset("fifth-millennium")
RULES = FM.default_house_rules()


def _new(n: int, sector_seed: int, *, assign: bool = True):
    setup = NewGame(
        game_name="AI",
        game_id="ai",
        players=tuple(players(n)),
        house_rules=RULES,
        generate_seed=sector_seed,
        assign_homeworlds=assign,
    )
    return FM.new_game(setup, Dice.for_turn(1, 0))


def test_computer_orders_pass_the_checker_turn_after_turn() -> None:
    state = _new(5, 3)
    kinds: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    for _ in range(25):
        orders = {}
        for player in state.active_players():
            o = computer_orders(state, player, 9, RULES)
            errors = [p for p in validate_orders(state, player, o, RULES) if p.severity == "error"]
            assert errors == [], f"{state.year} {player}: {errors}"
            lines.update(
                {
                    "moves": len(o.moves),
                    "purchases": len(o.purchases),
                    "diplomacy": len(o.diplomacy),
                    "messages": len(o.messages),
                }
            )
            orders[player] = o
        result = FM.resolve(state, orders, Dice.for_turn(9, state.year), RULES)
        kinds.update(e.kind for e in result.events)
        state = result.state
    assert all(lines[k] > 0 for k in ("moves", "purchases", "diplomacy", "messages")), lines
    owned = Counter(s.owner for s in state.systems if s.owner)
    assert min(owned.values()) > 3  # everyone expanded
    assert kinds["battle"] > 0 and kinds["capture"] > 0, kinds
    assert kinds["treaty"] + kinds["trade_agreement"] > 0, kinds


def test_computer_orders_are_deterministic_for_a_seed() -> None:
    state = _new(3, 5)
    first = [computer_orders(state, p, 4, RULES) for p in state.active_players()]
    again = [computer_orders(state, p, 4, RULES) for p in state.active_players()]
    assert first == again


def test_a_computer_player_ignores_what_its_player_cannot_see() -> None:
    state = _new(3, 5)
    ann = state.player("Ann")
    bob = state.player("Bob")
    hidden = state.copy()
    # a Bob fleet in hyperspace and a Bob fleet far out of Ann's sight change nothing for Ann
    hidden.flights.append(
        Flight("x", "Bob", bob.homeworld, ann.homeworld, state.year, state.year + 2, Fleet(F=40))
    )
    far = next(s.hex for s in state.systems if s.hex not in FM.player_view(state, "Ann").in_sight)
    hidden.forces.append(Force(hex=far, owner="Bob", fleet=Fleet(S=30)))
    hidden.normalise()
    assert FM.player_view(hidden, "Ann").systems == FM.player_view(state, "Ann").systems
    assert computer_orders(hidden, "Ann", 8, RULES) == computer_orders(state, "Ann", 8, RULES)
    # ...while something it does see does change its plans
    seen = state.copy()
    for force in seen.forces:
        if force.owner == "Ann":
            force.fleet = dataclasses.replace(force.fleet, F=2)
    assert computer_orders(seen, "Ann", 8, RULES) != computer_orders(state, "Ann", 8, RULES)


def test_a_computer_player_chooses_a_valid_homeworld_on_the_setup_sheet() -> None:
    state = _new(3, 5, assign=False)
    assert state.year == SETUP_YEAR
    for player in state.player_names():
        o = computer_orders(state, player, 2, RULES)
        assert o.homeworld and validate_orders(state, player, o, RULES) == []


def test_computer_orders_read_back_identically_from_the_sheet(tmp_path: Path) -> None:
    game = Game.create(
        tmp_path / "g", FM, players(3), seed=2, generate_seed=5, assign_homeworlds=True
    )
    state = game.load_state()
    for _ in range(3):  # a few turns in, so there are moves, purchases and diplomacy
        orders = {p: computer_orders(state, p, 2, RULES) for p in state.active_players()}
        state = FM.resolve(state, orders, Dice.for_turn(2, state.year), RULES).state
    game.save_state(state)
    for path, player in zip(write_sheets(game, state), state.active_players(), strict=True):
        assert path.name == sheet_filename(player)
        orders = computer_orders(state, player, 2, RULES)
        FM.fill_sheet(path, orders)
        read = FM.read_sheet(path).orders
        assert [(m.fleet, m.origin, m.destination, m.arrival) for m in read.moves] == [
            (m.fleet, m.origin, m.destination, m.arrival) for m in orders.moves
        ]
        assert [(p.location, p.item, p.quantity) for p in read.purchases] == [
            (p.location, p.item, p.quantity) for p in orders.purchases
        ]
        assert [(d.action, d.other) for d in read.diplomacy] == [
            (d.action, d.other) for d in orders.diplomacy
        ]
        assert [(m.to, m.text) for m in read.messages] == [(m.to, m.text) for m in orders.messages]


def _play(n: int, sector_seed: int, game_seed: int, turns: int):
    """A computer game in memory; returns the final state and every event of the game."""
    state = _new(n, sector_seed)
    events = []
    for _ in range(turns):
        orders = {p: computer_orders(state, p, game_seed, RULES) for p in state.active_players()}
        result = FM.resolve(state, orders, Dice.for_turn(game_seed, state.year), RULES)
        events += result.events
        state = result.state
    return state, events


def test_a_twelve_turn_demo_shows_battles_and_captures() -> None:
    """The README's demo (`refassist demo --players 6 --turns 12`: six computer players with
    the demo's names on a generated sector, homeworlds assigned with the game's seed): the
    empires meet and fight within the twelve turns, for the default seed and the next two."""
    for seed in (1, 2, 3):
        setup = NewGame(
            game_name="Demo game",
            game_id="demo",
            players=tuple(
                PlayerSetup(name, f"{name.lower()}@example.com", computer=True)
                for name in EMPIRE_NAMES[:6]
            ),
            house_rules=RULES,
            generate_seed=seed,
            assign_homeworlds=True,
        )
        state = FM.new_game(setup, Dice.for_turn(seed, 0))
        events = []
        for _ in range(12):
            orders = {p: computer_orders(state, p, seed, RULES) for p in state.active_players()}
            result = FM.resolve(state, orders, Dice.for_turn(seed, state.year), RULES)
            events += result.events
            state = result.state
        battles = [e for e in events if e.kind == "battle"]
        captures = [e for e in events if e.kind == "capture" and e.data.get("from")]
        assert battles and captures, (seed, len(battles), len(captures))


def test_computer_players_send_their_squadrons_out_rather_than_piling_them_at_home() -> None:
    """The earlier computer players kept nine squadrons in ten at home and let their fleets
    grow without end; these keep most of them at the front and stop growing at about a dozen
    squadrons per world they own (`ai.FLEET_PER_WORLD`), spending the rest on upgrades."""
    state, events = _play(6, 3, 9, 30)
    homes = {p.homeworld for p in state.players}
    squadrons = sum(f.fleet.squadrons for f in state.forces)
    at_home = sum(f.fleet.squadrons for f in state.forces if f.hex in homes)
    in_flight = sum(f.fleet.squadrons for f in state.flights)
    worlds = sum(1 for s in state.systems if s.owner)
    assert at_home < squadrons / 3, (at_home, squadrons)
    assert (squadrons + in_flight) / worlds < 20
    assert any(e.kind == "production" and "SU" in str(e.data) for e in events)
