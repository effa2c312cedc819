"""The checker is no oracle: its answers never depend on what the player may not know.

A player may send twenty lines per sheet and resubmit as often as they like; if a reply to a
build at a far system said "it belongs to another player" or "it belongs to nobody", a few
sheets would map the owner of every system.  So: take a real game's state, change everything
one player cannot see (owners of systems out of sight, other players' squadrons, facilities
and flights out of sight, agreements between other players), check the same orders in both
states and demand the same answers, cell for cell and word for word.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from refassist.demo import run_demo
from refassist.geometry.hexmap import distance
from refassist.rulesets.fifth_millennium.items import ITEMS
from refassist.rulesets.fifth_millennium.orders import Diplomacy, Move, Orders, Purchase
from refassist.rulesets.fifth_millennium.state import Fleet, State
from refassist.rulesets.fifth_millennium.visibility import in_sight
from refassist.store.game import Game


@pytest.fixture(scope="module")
def fm_game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    folder = tmp_path_factory.mktemp("oracle") / "game"
    run_demo(folder, players=6, turns=6, seed=5, ruleset="fifth-millennium")
    return Game.open(folder)


def _hidden_changed(state: State, player: str) -> State:
    """``state`` with everything ``player`` cannot see changed."""
    seen = in_sight(state, player)
    other = next(p.name for p in state.players if p.name != player)
    changed = copy.deepcopy(state)
    for system in changed.systems:
        if system.hex not in seen and system.owner != player:
            system.owner = "" if system.owner else other
    changed.forces = [f for f in changed.forces if f.owner == player or f.hex in seen]
    changed.facilities = [f for f in changed.facilities if f.owner == player or f.hex in seen]
    changed.flights = [f for f in changed.flights if f.owner == player]
    changed.relations = [r for r in changed.relations if player in (r.a, r.b)]
    return changed


def _cells() -> Iterator[str]:
    n = 0
    while True:
        n += 1
        yield f"Z{n}"


def _every_order(state: State, player: str) -> Orders:
    """Builds of every kind at every system and empty hex near, moves from every place the
    player has squadrons to every hex within 9, every diplomacy action to every player."""
    cell = _cells()
    mine = sorted({f.hex for f in state.forces if f.owner == player and not f.building})
    home = state.player(player).homeworld or mine[0]
    targets = sorted(
        {s.hex for s in state.systems}
        | {
            f"{c:02d}{r:02d}"
            for c in range(1, 33)
            for r in range(1, 41)
            if distance(home, f"{c:02d}{r:02d}") <= 9
        }
    )
    purchases = [
        Purchase(hex_, item.code, 1, cell=next(cell), text=f"{item.code} at {hex_}")
        for hex_ in targets
        for item in ITEMS
    ]
    moves = [
        Move(state.year, Fleet(F=1), origin, hex_, cell=next(cell))
        for origin in mine
        for hex_ in targets
        if distance(origin, hex_) <= 9
    ]
    actions = ("propose treaty", "end treaty", "propose trade", "end trade", "declare war")
    diplomacy = [
        Diplomacy(action, p.name, cell=next(cell))
        for p in state.players
        if p.name != player
        for action in actions
    ]
    return Orders(player, state.year, moves=moves, purchases=purchases, diplomacy=diplomacy)


def _answers(game: Game, state: Any, player: str, orders: Orders) -> list[tuple[str, ...]]:
    rules = game.ruleset.rules_with_defaults(game.config.house_rules)
    return sorted(
        (p.cell, p.severity, p.message, p.fix)
        for p in game.ruleset.validate(state, player, orders, rules)
    )


def test_fifth_millennium_checker_answers_do_not_depend_on_hidden_things(fm_game: Game) -> None:
    state = fm_game.load_state()
    living = [p.name for p in state.players if not p.eliminated]
    assert len(living) >= 2
    for player in living:
        orders = _every_order(state, player)
        hidden = _hidden_changed(state, player)
        assert hidden.systems != state.systems or hidden.forces != state.forces
        before = _answers(fm_game, state, player, orders)
        after = _answers(fm_game, hidden, player, orders)
        leaks = sorted(set(before) ^ set(after))
        assert not leaks, f"{player}: answers depend on hidden things: {leaks[:6]}"


def test_a_build_at_a_far_system_does_not_say_whose_it_is(fm_game: Game) -> None:
    state = fm_game.load_state()
    player = next(p.name for p in state.players if not p.eliminated)
    seen = in_sight(state, player)
    far = next(s for s in state.systems if s.hex not in seen and s.owner and s.owner != player)
    orders = Orders(player, state.year, purchases=[Purchase(far.hex, "F", 1, cell="B40")])
    [problem] = [
        p for p in _answers(fm_game, state, player, orders) if p[0] == "B40" and p[1] == "error"
    ]
    assert "you do not own" in problem[2]
    assert "another player" not in problem[2] and "nobody" not in problem[2]


# -- Imperium 3rd Millennium -------------------------------------------------------------------


@pytest.fixture(scope="module")
def imperium_game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    folder = tmp_path_factory.mktemp("oracle-imperium") / "game"
    run_demo(folder, turns=4, seed=3, ruleset="imperium-3m")
    return Game.open(folder)


def _imperium_hidden_changed(state: Any, side: str, public_markers: bool) -> Any:
    """``state`` with what ``side`` cannot see changed: the enemy's units and fleets out of
    sight gone, its treasury different, and (markers not public) the markers out of sight."""
    from refassist.rulesets.imperium_3m.units import other_side
    from refassist.rulesets.imperium_3m.visibility import in_sight

    enemy = other_side(side)
    seen = in_sight(state, side)
    changed = copy.deepcopy(state)
    planets = changed.map.planets
    hidden_fleets = {f.name for f in changed.fleets if f.side == enemy and f.system not in seen}
    changed.fleets = [f for f in changed.fleets if f.name not in hidden_fleets]
    changed.units = [
        u
        for u in changed.units
        if u.side == side
        or (u.fleet and u.fleet not in hidden_fleets)
        or (u.planet and planets[u.planet].system in seen)
    ]
    changed.queue = [q for q in changed.queue if q.side == side]
    changed.sides[enemy].resources += 37
    if not public_markers:
        for planet in planets.values():
            if planet.system not in seen and planet.owner != side:
                planet.owner, planet.marker = ("", "") if planet.owner else (enemy, "Outpost")
    return changed


def _imperium_single_orders(state: Any, side: str) -> Iterator[Any]:
    """One order per sheet, each alone (an activation changes what the next may do): moves of
    every own fleet to every system, every action on every planet in reach, builds and
    planet orders everywhere, close-out and battle orders naming every unit and fleet id of
    both sides and some that exist nowhere."""
    from refassist.rulesets.imperium_3m.orders import (
        Action,
        Activation,
        BattleOrders,
        Build,
        CloseOutOrder,
        Orders,
        PlanetOrder,
    )

    player = state.player_of(side)

    def sheet(**kw: Any) -> Any:
        return Orders(player, side, state.turn, **kw)

    systems = sorted(state.map.systems)
    planets = sorted(state.map.planets)
    all_units = sorted({u.id for u in state.units} | {"DD99", "RT42", "F7"})
    all_fleets = sorted({f.name for f in state.fleets} | {"T9", "I9", "ZZ"})
    mine = [f for f in state.fleets if f.side == side]
    for fleet in mine:
        for target in systems:
            act = Activation(1, 1, fleet.system, [Action("move", fleet.name, route=[target])])
            yield sheet(activations=[dataclass_cell(act)])
        for code in planets:
            for kind in ("attack", "evacuate"):
                act = Activation(1, 1, fleet.system, [Action(kind, fleet.name, planet=code)])
                yield sheet(activations=[dataclass_cell(act)])
            act = Activation(
                1, 1, fleet.system, [Action("unload", fleet.name, planet=code, units=all_units[:1])]
            )
            yield sheet(activations=[dataclass_cell(act)])
        for other in all_fleets:
            act = Activation(1, 1, fleet.system, [Action("join", fleet.name, target=other)])
            yield sheet(activations=[dataclass_cell(act)])
        for uid in all_units:
            act = Activation(
                1, 1, fleet.system, [Action("split", fleet.name, units=[uid], target="NEW")]
            )
            yield sheet(activations=[dataclass_cell(act)])
        aboard = [u.id for u in state.units if u.fleet == fleet.name][:1]
        for name in all_fleets:
            act = Activation(
                1, 1, fleet.system, [Action("split", fleet.name, units=aboard, target=name)]
            )
            yield sheet(activations=[dataclass_cell(act)])
    for code in planets:
        yield sheet(builds=[Build("DD", 1, code, cell="Builds!B5")])
        yield sheet(terraform=[PlanetOrder(code, cell="Builds!B20")])
        yield sheet(upgrades=[PlanetOrder(code, cell="Builds!B25")])
    for uid in all_units:
        for kind in ("scrap", "repair", "augment"):
            yield sheet(close_out=[CloseOutOrder(kind, [uid], cell="Actions!B40")])
    for name in all_fleets:
        yield sheet(battle_orders=[BattleOrders(name, cell="Actions!B30")])


def dataclass_cell(act: Any) -> Any:
    act.cell = "Actions!D7"
    act.text = " ; ".join(a.kind for a in act.actions)
    return act


@pytest.mark.parametrize("public_markers", [True, False])
def test_imperium_checker_answers_do_not_depend_on_hidden_things(
    imperium_game: Game, public_markers: bool
) -> None:
    state = imperium_game.load_state()
    rules = imperium_game.ruleset.rules_with_defaults(imperium_game.config.house_rules)
    rules["public_markers"] = public_markers
    for side in state.sides:
        player = state.player_of(side)
        hidden = _imperium_hidden_changed(state, side, public_markers)
        leaks = []
        for orders in _imperium_single_orders(state, side):
            before = [
                (p.cell, p.message, p.fix)
                for p in imperium_game.ruleset.validate(state, player, orders, rules)
            ]
            after = [
                (p.cell, p.message, p.fix)
                for p in imperium_game.ruleset.validate(hidden, player, orders, rules)
            ]
            if before != after:
                leaks.append((before, after))
        assert not leaks, f"{side}: answers depend on hidden things: {leaks[:3]}"
