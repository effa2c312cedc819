"""The action segments: initiative, alternation, passes, movement, stealth scouting, fleet actions.

Small hand-built maps and scripted dice; the battle modules are replaced by recorders so these
tests pin down only what `segments.py` decides (who acts when, where fleets stop, what is
refused and why).  Each segment starts with two initiative dice: Terran, then Imperial.
"""

from __future__ import annotations

import sys
import types
from types import SimpleNamespace
from typing import Any

import pytest

import refassist.rulesets.imperium_3m as package
from refassist.dice import Dice
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.orders import Action, Activation, Orders
from refassist.rulesets.imperium_3m.rules import HOUSE_RULES
from refassist.rulesets.imperium_3m.segments import (
    action_segment,
    capacity_problem,
    carry_out,
    live_fleets_at,
    movement_points,
    peace_block,
    roll_initiative,
)
from refassist.rulesets.imperium_3m.state import (
    Fleet,
    GameMap,
    Planet,
    Route,
    SideState,
    State,
    System,
    Unit,
)
from refassist.rulesets.imperium_3m.units import IMPERIAL, TERRAN

TER, IMP = TERRAN, IMPERIAL
PLAYERS = {TER: "Tess", IMP: "Ivan"}


# -- building small games -------------------------------------------------------------------------


def make_state() -> State:
    """A chain S0-S1-...-S6 (route length 1), a long route S2-LNG (3), deep space
    S6-DP1-DP2-S0 (DP2-S0 length 3).  Planets: P0 Terran home World (A1, 5 hexes) at S0;
    P1 (N2, 1 hex) and P1X (X1, 2 hexes) unclaimed at S1; P2 (A3, 2 hexes) unclaimed at S2;
    P4 an Imperial Outpost (A2) at S4; P6 the Imperial home World at S6."""
    codes = ["S0", "S1", "S2", "S3", "S4", "S5", "S6", "LNG"]
    systems = {c: System(c, f"Star {c}", 0, 0) for c in codes}
    systems["DP1"] = System("DP1", "Deep 1", 0, 0, deep=True)
    systems["DP2"] = System("DP2", "Deep 2", 0, 0, deep=True)
    routes = [Route(f"S{n}", f"S{n + 1}") for n in range(6)]
    routes += [
        Route("S2", "LNG", 3),
        Route("S6", "DP1"),
        Route("DP1", "DP2"),
        Route("DP2", "S0", 3),
    ]
    planets = {
        "P0": Planet("P0", "Home", "S0", "A1", 5, owner=TER, marker="World", home=TER),
        "P1": Planet("P1", "Rock", "S1", "N2", 1),
        "P1X": Planet("P1X", "Ice", "S1", "X1", 2),
        "P2": Planet("P2", "Green", "S2", "A3", 2),
        "P4": Planet("P4", "Post", "S4", "A2", 3, owner=IMP, marker="Outpost"),
        "P6": Planet("P6", "Throne", "S6", "A1", 6, owner=IMP, marker="World", home=IMP),
    }
    for p in planets.values():
        systems[p.system].planets.append(p.code)
    game_map = GameMap("test", systems, planets, routes)
    sides = {s: SideState(side=s, player=PLAYERS[s]) for s in (TER, IMP)}
    return State(game_name="t", game_id="t", map=game_map, sides=sides)


def add_fleet(
    state: State, name: str, side: str, system: str, codes: list[str], damaged: tuple[str, ...] = ()
) -> list[Unit]:
    """A fleet of new counters; ``damaged`` lists codes whose counters start damaged."""
    state.fleets.append(Fleet(name=name, side=side, system=system))
    made = []
    for code in codes:
        unit = Unit(id=state.next_unit_id(side, code), side=side, code=code, fleet=name)
        unit.damaged = code in damaged
        state.units.append(unit)
        made.append(unit)
    return made


def add_ground(state: State, side: str, planet: str, codes: list[str]) -> list[Unit]:
    made = []
    for code in codes:
        unit = Unit(id=state.next_unit_id(side, code), side=side, code=code, planet=planet)
        state.units.append(unit)
        made.append(unit)
    return made


def line(order: int, system: str, *actions: Action, segment: int = 1) -> Activation:
    return Activation(segment, order, system, list(actions), cell=f"Actions!D{order}")


def move(fleet: str, *route: str) -> Action:
    return Action("move", fleet=fleet, route=list(route), text=f"{fleet} > {' > '.join(route)}")


def pass_line(order: int, segment: int = 1) -> Activation:
    return line(order, "", Action("pass"), segment=segment)


def context(
    state: State,
    dice: list[int],
    terran: list[Activation] = (),  # type: ignore[assignment]
    imperial: list[Activation] = (),  # type: ignore[assignment]
    **rules: Any,
) -> TurnContext:
    settings = {r.key: r.default for r in HOUSE_RULES}
    settings.update(rules)
    orders = {
        TER: Orders(PLAYERS[TER], TER, state.turn, activations=list(terran)),
        IMP: Orders(PLAYERS[IMP], IMP, state.turn, activations=list(imperial)),
    }
    return TurnContext(state=state, dice=Dice.scripted(dice), rules=settings, orders=orders)


def where(state: State, fleet: str) -> str:
    found = state.fleet(fleet)
    assert found is not None
    return found.system


def kinds(ctx: TurnContext, kind: str) -> list[Any]:
    return [e for e in ctx.events if e.kind == kind]


@pytest.fixture
def battles(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[tuple[Any, ...]]]:
    """Recorders in place of `space_battle` and `planet_battle` (whether or not those modules
    exist yet): segments imports them lazily from the package."""
    calls: dict[str, list[tuple[Any, ...]]] = {"fight": [], "attack": [], "evacuate": []}
    space = types.ModuleType("fake_space_battle")
    planet = types.ModuleType("fake_planet_battle")

    def fight(ctx: TurnContext, system: str, mover: str) -> Any:
        calls["fight"].append((system, mover))
        return SimpleNamespace(winner="", loser="", major=False, rounds=[])

    def attack(
        ctx: TurnContext, side: str, fleet: str, code: str, hexes: list[int], **choices: Any
    ) -> None:
        calls["attack"].append((side, fleet, code, hexes))
        calls.setdefault("choices", []).append(choices)

    def evacuate(ctx: TurnContext, side: str, fleet: str, code: str) -> None:
        calls["evacuate"].append((side, fleet, code))

    space.fight = fight  # type: ignore[attr-defined]
    planet.attack = attack  # type: ignore[attr-defined]
    planet.evacuate = evacuate  # type: ignore[attr-defined]
    for name, module in (("space_battle", space), ("planet_battle", planet)):
        monkeypatch.setattr(package, name, module, raising=False)
        monkeypatch.setitem(sys.modules, f"{package.__name__}.{name}", module)
    return calls


# -- initiative -----------------------------------------------------------------------------------


def test_initiative_winner_acts_first_and_result_is_public(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "I1", IMP, "S6", ["DD"])
    ctx = context(
        state, [3, 5], [line(1, "S0", move("T1", "S1"))], [line(1, "S6", move("I1", "S5"))]
    )
    action_segment(ctx, 1)
    init = kinds(ctx, "initiative")[0]
    assert init.visible_to == ("*",)
    assert init.data["winner"] == IMP and init.data["allowance"] == {TER: 3, IMP: 5}
    done = [e.players[0] for e in kinds(ctx, "activation")]
    assert done == [PLAYERS[IMP], PLAYERS[TER]]
    assert where(state, "T1") == "S1" and where(state, "I1") == "S5"


def test_tie_means_no_action(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    ctx = context(state, [4, 4], [line(1, "S0", move("T1", "S1"))])
    action_segment(ctx, 1)
    assert kinds(ctx, "initiative")[0].data["winner"] == ""
    assert where(state, "T1") == "S0"
    skipped = kinds(ctx, "skipped")
    assert len(skipped) == 1 and "tied" in skipped[0].text
    assert skipped[0].visible_to == (PLAYERS[TER],)


def test_civil_war_modifier_turns_a_win_into_a_tie() -> None:
    state = make_state()
    state.sides[IMP].initiative_modifier = -1
    add_fleet(state, "I1", IMP, "S6", ["DD"])
    ctx = context(state, [3, 4], [], [line(1, "S6", move("I1", "S5"))])
    action_segment(ctx, 1)
    init = kinds(ctx, "initiative")[0]
    assert init.data["winner"] == "" and init.data["allowance"][IMP] == 3
    assert where(state, "I1") == "S6"


def test_civil_war_roll_of_one_leaves_no_activations() -> None:
    state = make_state()
    state.sides[IMP].initiative_modifier = -1
    add_fleet(state, "I1", IMP, "S6", ["DD"])
    ctx = context(state, [2, 1], [], [line(1, "S6", move("I1", "S5"))])
    action_segment(ctx, 1)
    assert kinds(ctx, "initiative")[0].data["allowance"] == {TER: 2, IMP: 0}
    assert where(state, "I1") == "S6"
    assert "your initiative allowed" in kinds(ctx, "skipped")[0].text


def test_allowance_cuts_off_the_rest_of_the_list() -> None:
    state = make_state()
    for n in range(3):
        add_fleet(state, f"T{n}", TER, "S0", ["DD"])
    lines = [line(n + 1, "S0", move(f"T{n}", "S1")) for n in range(3)]
    ctx = context(state, [2, 1], lines)
    action_segment(ctx, 1)
    assert [where(state, f"T{n}") for n in range(3)] == ["S1", "S1", "S0"]
    (skipped,) = kinds(ctx, "skipped")
    assert skipped.data["order"] == 3 and "all 2 activations" in skipped.text


def test_alternation_follows_each_list_in_order() -> None:
    state = make_state()
    for n in range(2):
        add_fleet(state, f"T{n}", TER, "S0", ["DD"])
        add_fleet(state, f"I{n}", IMP, "S6", ["DD"])
    terran = [line(2, "S0", move("T1", "S1")), line(1, "S0", move("T0", "S1"))]
    imperial = [line(1, "S6", move("I0", "S5")), line(2, "S6", move("I1", "S5"))]
    ctx = context(state, [6, 2], terran, imperial)
    action_segment(ctx, 1)
    order = [(e.players[0], e.data["fleet"]) for e in kinds(ctx, "activation")]
    assert order == [
        (PLAYERS[TER], "T0"),
        (PLAYERS[IMP], "I0"),
        (PLAYERS[TER], "T1"),
        (PLAYERS[IMP], "I1"),
    ]


# -- passes ---------------------------------------------------------------------------------------


def test_pass_lets_the_enemy_act_first_and_costs_nothing() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "I1", IMP, "S6", ["DD"])
    terran = [pass_line(1), line(2, "S0", move("T1", "S1"))]
    ctx = context(state, [2, 1], terran, [line(1, "S6", move("I1", "S5"))])
    action_segment(ctx, 1)
    sequence = [e.kind for e in ctx.events if e.kind in ("pass", "activation")]
    assert sequence == ["pass", "activation", "activation"]
    assert [e.data["fleet"] for e in kinds(ctx, "activation")] == ["I1", "T1"]
    # Allowance 1 for the Terran side: the pass used none of it.
    assert where(state, "T1") == "S1"


def test_consecutive_passes_end_the_segment() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "I1", IMP, "S6", ["DD"])
    terran = [pass_line(1), line(2, "S0", move("T1", "S1"))]
    imperial = [pass_line(1), line(2, "S6", move("I1", "S5"))]
    ctx = context(state, [5, 4], terran, imperial)
    action_segment(ctx, 1)
    assert where(state, "T1") == "S0" and where(state, "I1") == "S6"
    (end,) = kinds(ctx, "segment_end")
    assert end.visible_to == ("*",)
    skipped = kinds(ctx, "skipped")
    assert [e.data["order"] for e in skipped] == [2, 2]
    assert all("both sides passed" in e.text for e in skipped)


def test_pass_is_ignored_when_the_enemy_is_out() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    ctx = context(state, [5, 4], [pass_line(1), line(2, "S0", move("T1", "S1"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S1"
    assert kinds(ctx, "pass")[0].data["ignored"] is True


def test_pass_after_an_enemy_action_does_not_end_the_segment() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "I1", IMP, "S6", ["DD"])
    add_fleet(state, "I2", IMP, "S6", ["DD"])
    terran = [pass_line(1), pass_line(2), line(3, "S0", move("T1", "S1"))]
    imperial = [line(1, "S6", move("I1", "S5")), line(2, "S6", move("I2", "S5"))]
    ctx = context(state, [5, 4], terran, imperial)
    action_segment(ctx, 1)
    assert not kinds(ctx, "segment_end")
    assert where(state, "T1") == "S1" and where(state, "I2") == "S5"


# -- skips ----------------------------------------------------------------------------------------


def test_skipped_activation_reports_reason_and_keeps_the_allowance() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "T2", TER, "S1", ["DD"])
    lines = [
        line(1, "S0", move("T2", "S2")),  # T2 is not at S0
        line(2, "S3", move("T1", "S4")),  # no Terran units at S3
        line(3, "S0", move("T1", "S1")),
    ]
    state.sides[IMP].initiative_modifier = -1
    ctx = context(state, [1, 1], lines)  # Terran 1 against 0: one activation
    action_segment(ctx, 1)
    texts = [e.text for e in kinds(ctx, "skipped")]
    assert any("fleet T2 is at S1, not at S0" in t for t in texts)
    assert any("you have no units at S3" in t for t in texts)
    assert sum("did not use up one of your activations" in t for t in texts) == 2
    assert where(state, "T1") == "S1"
    assert all(e.visible_to == (PLAYERS[TER],) for e in kinds(ctx, "skipped"))


def test_enemy_fleet_name_is_not_confirmed() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "I1", IMP, "S0", ["DD"])
    ctx = context(state, [6, 1], [line(1, "S0", move("I1", "S1"))])
    action_segment(ctx, 1)
    assert where(state, "I1") == "S0"
    assert any("you have no fleet I1" in e.text for e in kinds(ctx, "skipped"))


# -- movement points ------------------------------------------------------------------------------


CHAIN = ["S1", "S2", "S3", "S4", "S5", "S6"]


@pytest.mark.parametrize(
    ("codes", "damaged", "reached"),
    [
        (["DD"], (), "S5"),  # light 5
        (["CA"], (), "S4"),  # capital 4
        (["TR"], (), "S3"),  # non-warship 3
        (["DD"], ("DD",), "S4"),  # damaged: one less
        (["DD", "CA"], (), "S4"),  # the slowest ship
        (["CL", "TR", "RT"], (), "S3"),
        (["CV", "F", "F", "DD"], (), "S4"),  # carried fighters do not count
    ],
)
def test_movement_points(codes: list[str], damaged: tuple[str, ...], reached: str) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", codes, damaged)
    # The Imperial Outpost at S4 is passed (house rule off) so that only points limit the move.
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", *CHAIN))], enemy_planets_stop=False)
    action_segment(ctx, 1)
    assert where(state, "T1") == reached
    (done,) = kinds(ctx, "activation")
    assert "not enough movement points" in done.data["stopped"]


def test_route_may_start_with_the_fleets_own_system() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", "S0", "S1"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S1"


def test_route_length_is_paid() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["CA"])
    add_fleet(state, "T2", TER, "S1", ["TR"])
    lines = [line(1, "S1", move("T1", "S2", "LNG")), line(2, "S1", move("T2", "S2", "LNG"))]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    assert where(state, "T1") == "LNG"  # 1 + 3 = 4 points
    assert where(state, "T2") == "S2"  # 3 points: the long route is out of reach
    assert "2 left, the route costs 3" in kinds(ctx, "activation")[1].data["stopped"]


def test_monitor_never_moves_and_route_must_exist() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["M", "DD"])
    add_fleet(state, "T2", TER, "S0", ["DD"])
    lines = [line(1, "S0", move("T1", "S1")), line(2, "S0", move("T2", "S2"))]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    assert where(state, "T1") == "S0" and where(state, "T2") == "S0"
    texts = " | ".join(e.text for e in kinds(ctx, "skipped"))
    assert "monitors never move" in texts and "no jump route leads from S0 to S2" in texts


def test_overloaded_fleet_cannot_move() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["TR", "RT", "RT"])
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", "S1"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S0"
    assert "overloaded" in kinds(ctx, "skipped")[0].text


def test_capacity_rules() -> None:
    state = make_state()
    ctx = context(state, [])
    make = lambda codes: [Unit(f"X{n}", TER, c) for n, c in enumerate(codes)]  # noqa: E731
    assert capacity_problem(ctx, make(["TR", "RT"])) == ""
    assert capacity_problem(ctx, make(["AT", "PD", "OP"])) != ""
    assert capacity_problem(ctx, make(["CV", "F", "F", "F"])) == ""  # Terran CV: F3
    assert capacity_problem(ctx, make(["CV", "F", "F", "F", "F"])) != ""
    assert capacity_problem(ctx, make(["BB", "F"])) == ""  # the Terran BB's F1
    # Beyond the carriers, a fighter takes a transport place ("loaded on any previously empty
    # transports"; landing "from attack transports"), shared with troops, PD and outposts.
    assert capacity_problem(ctx, make(["TR", "F"])) == ""
    assert capacity_problem(ctx, make(["CV", "F", "F", "F", "F", "TR"])) == ""
    full = capacity_problem(ctx, make(["TR", "RT", "F"]))
    assert full == (
        "it carries 1 fighter and 1 troop/PD/outpost unit but its carriers hold 0 fighters "
        "and its transports 1 more unit"
    )
    imperial = [Unit("X1", IMP, "BB"), Unit("X2", IMP, "F")]
    assert capacity_problem(ctx, imperial) != ""  # the Imperial BB has no hangar
    wider = context(state, [], tr_capacity=2)
    assert capacity_problem(wider, make(["TR", "RT", "RT"])) == ""
    assert movement_points(ctx, make(["M"])) == 0


# -- stopping rules -------------------------------------------------------------------------------


def test_enemy_scouts_and_auxiliaries_do_not_stop_a_fleet(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["CA"])
    add_fleet(state, "I1", IMP, "S1", ["SC", "TR"])
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", "S1", "S2"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S2"
    assert battles["fight"] == []
    (seen,) = kinds(ctx, "movement")
    assert seen.location == "S1" and seen.visible_to == (PLAYERS[IMP],)


def test_ending_the_move_among_enemy_auxiliaries_fights(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["CA"])
    add_fleet(state, "I1", IMP, "S1", ["AT"])
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", "S1"))])
    action_segment(ctx, 1)
    assert battles["fight"] == [("S1", TER)]
    assert ctx.battles == ["S1"]


def test_enemy_warships_stop_the_fleet_and_a_battle_follows(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["CA"])
    add_fleet(state, "I1", IMP, "S1", ["DD"])
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", "S1", "S2", "S3"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S1"
    assert battles["fight"] == [("S1", TER)]
    done = kinds(ctx, "activation")[0]
    assert done.data["battle"] is True and "enemy warships" in done.data["stopped"]


def test_enemy_monitor_stops_the_fleet(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["DD"])
    add_fleet(state, "I1", IMP, "S4", ["M"])
    ctx = context(state, [6, 1], [line(1, "S3", move("T1", "S4", "S5"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S4" and battles["fight"] == [("S4", TER)]


def test_an_enemy_planet_stops_a_fleet_unless_the_house_rule_lets_it_pass(
    battles: dict,
) -> None:
    # The seed lets a fleet move on only past enemy scouts, fighters and auxiliaries.
    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["DD"])
    ctx = context(state, [6, 1], [line(1, "S3", move("T1", "S4", "S5"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S4" and battles["fight"] == []
    assert "enemy World or Outpost at S4" in kinds(ctx, "activation")[0].data["stopped"]
    assert kinds(ctx, "movement")[0].location == "S4"  # the Outpost sees it arrive

    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["DD"])
    ctx = context(state, [6, 1], [line(1, "S3", move("T1", "S4", "S5"))], enemy_planets_stop=False)
    action_segment(ctx, 1)
    assert where(state, "T1") == "S5" and battles["fight"] == []
    assert kinds(ctx, "movement")[0].location == "S4"  # the Outpost sees it pass


def test_enemy_scouts_and_auxiliaries_alone_do_not_stop_a_fleet(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["DD"])
    add_fleet(state, "I1", IMP, "S2", ["SC", "TR", "AR"])
    ctx = context(state, [6, 1], [line(1, "S1", move("T1", "S2", "S3"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S3" and battles["fight"] == []


# -- peace ----------------------------------------------------------------------------------------


def test_peace_talks_forbid_entering_systems_with_enemy_units(battles: dict) -> None:
    state = make_state()
    state.peace_talks = True
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_ground(state, IMP, "P2", ["JT"])
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", "S1", "S2", "S3"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S1"
    assert "Peace Talks" in kinds(ctx, "activation")[0].data["stopped"]


def test_peace_talks_skip_a_move_blocked_at_its_first_step(battles: dict) -> None:
    state = make_state()
    state.peace_talks = True
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "I1", IMP, "S1", ["SC"])
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", "S1"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S0" and battles["fight"] == []
    # The Terrans do not see S1: they learn that enemy units are there, not what they are.
    text = kinds(ctx, "skipped")[0].text
    assert "S1 holds enemy units: the fleet may not enter it" in text
    assert "fleet is at" not in text and "I1" not in text and "SC" not in text


def test_a_truce_names_an_enemy_fleet_only_where_the_side_sees_it(battles: dict) -> None:
    state = make_state()
    state.peace_talks = True
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "I1", IMP, "S1", ["SC"])
    add_fleet(state, "T2", TER, "S1", ["SC"])  # in sight: S1 holds a Terran fleet already
    ctx = context(state, [6, 1], [line(1, "S0", move("T1", "S1"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S0"
    assert "an enemy fleet is at S1" in kinds(ctx, "skipped")[0].text


def test_peacetime_blocks_outposts_but_not_bare_troops(battles: dict) -> None:
    state = make_state()
    state.war_turn = 0
    add_fleet(state, "T1", TER, "S1", ["DD"])
    add_ground(state, IMP, "P2", ["JT"])
    ctx = context(state, [6, 1], [line(1, "S1", move("T1", "S2", "S3", "S4", "S5"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S3"
    assert "peacetime" in kinds(ctx, "activation")[0].data["stopped"]


def test_no_attack_in_peace(battles: dict) -> None:
    for talks in (True, False):
        state = make_state()
        state.peace_talks = talks
        state.war_turn = 1 if talks else 0
        add_fleet(state, "T1", TER, "S4", ["CA", "TR", "RT"])
        attack = Action("attack", fleet="T1", planet="P4")
        ctx = context(state, [6, 1], [line(1, "S4", attack)])
        action_segment(ctx, 1)
        assert battles["attack"] == []
        assert "no attacks" in kinds(ctx, "skipped")[0].text


# -- deep space -----------------------------------------------------------------------------------


def test_deep_space_moves_one_hex_in_segment_one_only(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "DP1", ["DD"])
    ctx = context(state, [6, 1], [line(1, "DP1", move("T1", "DP2", "S0"), segment=2)])
    action_segment(ctx, 2)
    assert where(state, "T1") == "DP1"
    assert "only in action segment 1" in kinds(ctx, "skipped")[0].text

    ctx = context(state, [6, 1], [line(1, "DP1", move("T1", "DP2", "S0"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "DP2"
    assert "one hex" in kinds(ctx, "activation")[0].data["stopped"]


def test_deep_space_step_ignores_damage_and_route_cost(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "DP2", ["TR"], damaged=("TR",))
    ctx = context(state, [6, 1], [line(1, "DP2", move("T1", "S0"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S0"


def test_entering_deep_space_ends_the_move(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S5", ["DD"])
    ctx = context(
        state, [6, 1], [line(1, "S5", move("T1", "S6", "DP1", "DP2"))], enemy_planets_stop=False
    )
    action_segment(ctx, 1)
    assert where(state, "T1") == "DP1"
    assert "entering deep space" in kinds(ctx, "activation")[0].data["stopped"]


# -- stealth scouting -----------------------------------------------------------------------------


def test_stealth_scouts_undetected_reveal_and_move_on(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["SC", "SC"])
    add_fleet(state, "I1", IMP, "S4", ["CA", "DD"])
    add_ground(state, IMP, "P4", ["PD"])
    # 4 + 5 + 1 destroyer = 10: undetected.
    ctx = context(state, [6, 1, 4, 5], [line(1, "S3", move("T1", "S4", "S5"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S5" and battles["fight"] == []
    assert state.revealed[TER] == ["S4"]
    (scout,) = kinds(ctx, "stealth")
    assert scout.visible_to == (PLAYERS[TER],)
    assert scout.data["total"] == 10 and scout.data["fleets"] == {"I1": ["CA", "DD"]}
    assert scout.data["planets"]["P4"] == ["PD"]
    assert not [e for e in ctx.events if e.visible(PLAYERS[IMP]) and e.kind != "initiative"]


def test_each_destroyer_adds_one_to_the_stealth_roll(battles: dict) -> None:
    for destroyers, detected in ((1, False), (2, True)):
        state = make_state()
        add_fleet(state, "T1", TER, "S3", ["SC"])
        add_fleet(state, "I1", IMP, "S4", ["DD"] * destroyers)
        ctx = context(state, [6, 1, 4, 5], [line(1, "S3", move("T1", "S4", "S5"))])
        action_segment(ctx, 1)
        assert kinds(ctx, "stealth")[0].data["detected"] is detected
        assert where(state, "T1") == ("S4" if detected else "S5")
        assert battles["fight"] == ([("S4", TER)] if detected else [])
        battles["fight"].clear()


def test_detected_scouts_are_seen_by_both_sides(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["SC"])
    add_fleet(state, "I1", IMP, "S4", ["CL"])
    ctx = context(state, [6, 1, 6, 5], [line(1, "S3", move("T1", "S4", "S5"))])
    action_segment(ctx, 1)
    (scout,) = kinds(ctx, "stealth")
    assert set(scout.visible_to) == {PLAYERS[TER], PLAYERS[IMP]}
    assert battles["fight"] == [("S4", TER)] and where(state, "T1") == "S4"
    assert "S4" not in state.revealed.get(TER, [])


def test_detected_scouts_at_a_bare_outpost_stop_without_a_battle(battles: dict) -> None:
    for stop_rule in (True, False):  # detection stops them whatever the house rule says
        state = make_state()
        add_fleet(state, "T1", TER, "S3", ["SC"])
        ctx = context(
            state,
            [6, 1, 6, 6],
            [line(1, "S3", move("T1", "S4", "S5"))],
            enemy_planets_stop=stop_rule,
        )
        action_segment(ctx, 1)
        assert kinds(ctx, "stealth")[0].data["detected"] is True
        assert where(state, "T1") == "S4" and battles["fight"] == []
        assert "detected at S4" in kinds(ctx, "activation")[0].data["stopped"]


def test_detected_scouts_fight_even_enemy_scouts_and_auxiliaries(battles: dict) -> None:
    # "If the scout fleet is detected, space battle will result."
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["SC"])
    add_fleet(state, "I1", IMP, "S2", ["TR"])
    ctx = context(state, [6, 1, 6, 6], [line(1, "S1", move("T1", "S2", "S3"))])
    action_segment(ctx, 1)
    assert kinds(ctx, "stealth")[0].data["detected"] is True
    assert where(state, "T1") == "S2" and battles["fight"] == [("S2", TER)]
    assert kinds(ctx, "activation")[0].data["battle"] is True


def test_undetected_scouts_may_stay_among_enemy_ships(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["SC"])
    add_fleet(state, "I1", IMP, "S4", ["CA"])
    ctx = context(state, [6, 1, 1, 1], [line(1, "S3", move("T1", "S4"))])
    action_segment(ctx, 1)
    assert where(state, "T1") == "S4" and battles["fight"] == []
    assert kinds(ctx, "activation")[0].data["battle"] is False


def test_mixed_fleet_makes_no_stealth_roll(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["SC", "DD"])
    ctx = context(state, [6, 1], [line(1, "S3", move("T1", "S4", "S5"))])
    action_segment(ctx, 1)  # a stealth roll would exhaust the scripted dice
    assert not kinds(ctx, "stealth") and where(state, "T1") == "S4"  # the Outpost stops it


# -- no unit twice, move then attack --------------------------------------------------------------


def test_no_unit_moves_twice_in_a_segment(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    lines = [line(1, "S0", move("T1", "S1")), line(2, "S1", move("T1", "S2"))]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    assert where(state, "T1") == "S1"
    assert "already moved this segment" in kinds(ctx, "skipped")[0].text
    # The next segment starts afresh.
    ctx2 = context(state, [6, 1], [line(1, "S1", move("T1", "S2"), segment=2)])
    ctx2.moved = set(ctx.moved)
    action_segment(ctx2, 2)
    assert where(state, "T1") == "S2"


def test_joining_a_moved_fleet_pins_the_whole_fleet(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "T2", TER, "S1", ["CA"])
    lines = [
        line(1, "S0", move("T1", "S1")),
        line(2, "S1", Action("join", fleet="T2", target="T1"), move("T2", "S2")),
    ]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    assert state.fleet("T1") is None and where(state, "T2") == "S1"
    assert len(state.units_in_fleet("T2")) == 2
    assert "already moved" in kinds(ctx, "skipped")[0].text


def test_move_then_attack_is_refused_attack_alone_is_passed_on(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["CA", "TR", "RT"])
    attack = Action("attack", fleet="T1", planet="P4", hexes=[1])
    lines = [line(1, "S3", move("T1", "S4")), line(2, "S4", attack)]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    assert battles["attack"] == []
    assert "moving and attacking a planet are separate" in kinds(ctx, "skipped")[0].text

    ctx = context(state, [6, 1], [line(1, "S4", attack, segment=2)])
    action_segment(ctx, 2)
    assert battles["attack"] == [(TER, "T1", "P4", [1])]


def test_attack_preconditions(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["CA"])
    lines = [
        line(1, "S0", Action("attack", fleet="T1", planet="P4")),  # not in this system
        line(2, "S0", Action("attack", fleet="T1", planet="P0")),  # own planet
    ]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    texts = " | ".join(e.text for e in kinds(ctx, "skipped"))
    assert "P4 is not a planet of S0" in texts and "P0 is already yours" in texts
    assert battles["attack"] == []


def test_evacuate_only_from_a_disputed_planet(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S2", ["TR"])
    add_ground(state, TER, "P2", ["RT"])
    evac = Action("evacuate", fleet="T1", planet="P2")
    ctx = context(state, [6, 1], [line(1, "S2", evac)])
    action_segment(ctx, 1)
    assert battles["evacuate"] == [] and "not disputed" in kinds(ctx, "skipped")[0].text
    state.map.planets["P2"].disputed = True
    ctx = context(state, [6, 1], [line(1, "S2", evac)])
    action_segment(ctx, 1)
    assert battles["evacuate"] == [(TER, "T1", "P2")]


# -- split, join, load, unload --------------------------------------------------------------------


def test_split_forms_a_new_fleet_that_may_move_at_once(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["CA", "DD", "DD"])
    split = Action("split", fleet="T1", target="T9", units=["DD1", "DD2"])
    ctx = context(state, [6, 1], [line(1, "S0", split, move("T9", "S1"))])
    action_segment(ctx, 1)
    assert [u.id for u in state.units_in_fleet("T9")] == ["DD1", "DD2"]
    assert where(state, "T9") == "S1" and where(state, "T1") == "S0"


def test_split_refusals(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["CA", "TR", "RT"])
    add_fleet(state, "I7", IMP, "S6", ["DD"])
    lines = [
        line(1, "S0", Action("split", fleet="T1", target="I7", units=["CA1"])),
        line(2, "S0", Action("split", fleet="T1", target="T5", units=["TR1"])),
        line(3, "S0", Action("split", fleet="T1", target="T5", units=["CA1", "TR1", "RT1"])),
        line(4, "S0", Action("split", fleet="T1", target="T5", units=["RT1"])),
    ]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    texts = [e.text for e in kinds(ctx, "skipped") if "action" in e.data]
    assert "the fleet name I7 is already in use" in texts[0]
    assert "would be overloaded" in texts[1]
    assert "would keep no ship" in texts[2]
    assert "new fleet would have no ship" in texts[3]
    assert state.fleet("T5") is None and len(state.units_in_fleet("T1")) == 3


def test_join_needs_the_other_fleet_here(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["CA"])
    add_fleet(state, "T2", TER, "S1", ["DD"])
    add_fleet(state, "T3", TER, "S0", ["DD"])
    lines = [
        line(1, "S0", Action("join", fleet="T1", target="T2")),
        line(2, "S0", Action("join", fleet="T1", target="T3")),
    ]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    assert "T2 is at S1" in kinds(ctx, "skipped")[0].text
    assert state.fleet("T3") is None and len(state.units_in_fleet("T1")) == 2
    assert state.fleet("T2") is not None


def test_load_within_capacity(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["TR"])
    add_ground(state, TER, "P0", ["RT", "RT"])
    load = Action("load", fleet="T1", planet="P0", units=["RT1", "RT2"])
    ctx = context(state, [6, 1], [line(1, "S0", load)])
    action_segment(ctx, 1)
    assert [u.id for u in state.units_in_fleet("T1")] == ["TR1", "RT1"]
    assert state.unit(TER, "RT2").planet == "P0"  # type: ignore[union-attr]
    assert kinds(ctx, "activation")[0].data["refused"] == ["no room aboard fleet T1 for RT2"]


def test_a_fighter_loads_onto_a_transports_free_place(battles: dict) -> None:
    """A fleet without carriers takes a fighter aboard a transport's free place; with the
    place taken by a troop, the fighter is refused and stays."""
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["TR"])
    add_ground(state, TER, "P0", ["F", "RT"])
    load = Action("load", fleet="T1", planet="P0", units=["F1", "RT1"])
    ctx = context(state, [6, 1], [line(1, "S0", load)])
    action_segment(ctx, 1)
    assert [u.id for u in state.units_in_fleet("T1")] == ["TR1", "F1"]
    assert kinds(ctx, "activation")[0].data["refused"] == ["no room aboard fleet T1 for RT1"]


def test_no_loading_from_a_disputed_planet(battles: dict) -> None:
    state = make_state()
    state.map.planets["P2"].disputed = True
    add_fleet(state, "T1", TER, "S2", ["TR"])
    add_ground(state, TER, "P2", ["PD"])
    ctx = context(
        state, [6, 1], [line(1, "S2", Action("load", fleet="T1", planet="P2", units=["PD1"]))]
    )
    action_segment(ctx, 1)
    assert state.unit(TER, "PD1").planet == "P2"  # type: ignore[union-attr]
    assert "disputed" in kinds(ctx, "skipped")[0].text


def test_unload_respects_planet_types(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["TR", "AT", "CV", "RT", "JT", "F"])
    lines = [
        line(1, "S1", Action("unload", fleet="T1", planet="P1", units=["RT1", "JT1"])),
        line(2, "S1", Action("unload", fleet="T1", planet="P1X", units=["F1"])),
    ]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    assert state.unit(TER, "RT1").fleet == "T1"  # type: ignore[union-attr]
    assert state.unit(TER, "JT1").planet == "P1"  # type: ignore[union-attr]
    assert state.unit(TER, "F1").planet == "P1X"  # type: ignore[union-attr]
    refused = kinds(ctx, "activation")[0].data["refused"]
    assert refused == ["RT1: a N2 planet takes only JT, PD, F"]


def test_unload_pd_onto_x_planet_refused(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["TR", "PD"])
    ctx = context(
        state, [6, 1], [line(1, "S1", Action("unload", fleet="T1", planet="P1X", units=["PD1"]))]
    )
    action_segment(ctx, 1)
    assert state.unit(TER, "PD1").fleet == "T1"  # type: ignore[union-attr]
    assert "X1 planet takes only JT, F" in kinds(ctx, "skipped")[0].text


def test_unload_box_capacity_five_per_hex(battles: dict) -> None:
    state = make_state()
    add_ground(state, TER, "P1", ["F"] * 4)  # P1 has 1 hex: room for 5
    add_fleet(state, "T1", TER, "S1", ["CV", "F", "F"])
    unload = Action("unload", fleet="T1", planet="P1", units=["F5", "F6"])
    ctx = context(state, [6, 1], [line(1, "S1", unload)])
    action_segment(ctx, 1)
    assert len(state.units_on("P1")) == 5
    assert "box of P1 is full" in kinds(ctx, "activation")[0].data["refused"][0]


def test_monitors_take_room_in_their_planets_box(battles: dict) -> None:
    """ "Monitors are placed in a planetary box": the side's monitors in a system stand in the
    box of its World there (else its Outpost), and count against its five units per hex."""
    state = make_state()
    p2 = state.map.planets["P2"]  # A3, 2 hexes: room for 10
    p2.owner, p2.marker = TER, "Outpost"
    add_ground(state, TER, "P2", ["F"] * 7)
    add_fleet(state, "TM", TER, "S2", ["M", "M"])
    assert state.box_load("P2") == 9 and state.box_room("P2") == 1
    add_fleet(state, "T1", TER, "S2", ["CV", "F", "F"])
    unload = Action("unload", fleet="T1", planet="P2", units=["F8", "F9"])
    ctx = context(state, [6, 1], [line(1, "S2", unload)])
    action_segment(ctx, 1)
    assert len(state.units_on("P2")) == 8  # one of the two fitted
    assert "box of P2 is full" in kinds(ctx, "activation")[0].data["refused"][0]
    # An unclaimed planet holds nobody's monitors.
    assert state.box_load("P1") == 0 and state.monitor_box(TER, "S1") is None


def test_unload_outpost_claims_an_unclaimed_planet(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["TR", "OP"])
    add_fleet(state, "T2", TER, "S0", ["TR", "OP"])
    add_ground(state, IMP, "P1X", ["JT"])  # the enemy sees the system
    lines = [
        line(1, "S1", Action("unload", fleet="T1", planet="P1", units=["OP1"])),
        line(2, "S0", Action("unload", fleet="T2", planet="P0", units=["OP2"])),
    ]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    p1 = state.map.planets["P1"]
    assert (p1.owner, p1.marker) == (TER, "Outpost")
    assert state.unit(TER, "OP1") is None and state.unit(TER, "OP2") is not None
    assert "already has a World" in kinds(ctx, "skipped")[0].text
    assert kinds(ctx, "outpost")[0].visible(PLAYERS[IMP])


def test_unload_onto_enemy_or_disputed_planet_refused(battles: dict) -> None:
    state = make_state()
    state.map.planets["P2"].disputed = True
    add_fleet(state, "T1", TER, "S4", ["TR", "RT"])
    add_fleet(state, "T2", TER, "S2", ["TR", "RT"])
    lines = [
        line(1, "S4", Action("unload", fleet="T1", planet="P4", units=["RT1"])),
        line(2, "S2", Action("unload", fleet="T2", planet="P2", units=["RT2"])),
    ]
    ctx = context(state, [6, 1], lines)
    action_segment(ctx, 1)
    texts = [e.text for e in kinds(ctx, "skipped") if "action" in e.data]
    assert "held by the enemy: use attack" in texts[0] and "disputed" in texts[1]


# -- a real game ----------------------------------------------------------------------------------


def test_opening_segment_on_the_default_map(battles: dict) -> None:
    from refassist.rulesets.imperium_3m.setup import new_game

    setup = NewGame(
        "Test", "id", (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@x.com")), {}
    )
    state = new_game(setup, Dice(seed=1), {})
    settings = {r.key: r.default for r in HOUSE_RULES}
    orders = {
        "Terra": Orders("Terra", TER, 1, activations=[line(1, "SOL", move("T1", "ACE", "TAU"))]),
        "Empire": Orders("Empire", IMP, 1, activations=[line(1, "DIN", move("I1", "URU", "LAL"))]),
    }
    ctx = TurnContext.start(state, orders, Dice.scripted([2, 5]), settings)
    action_segment(ctx, 1)
    assert where(ctx.state, "T1") == "TAU" and where(ctx.state, "I1") == "LAL"
    assert [e.data["fleet"] for e in kinds(ctx, "activation")] == ["I1", "T1"]
    assert where(state, "T1") == "SOL"  # the input state is untouched


def test_real_battle_modules_are_called_with_the_mover() -> None:
    """With the real `space_battle`: a move into enemy warships fights there (seeded dice; the
    first two rolls, the initiative, give the Terran side the segment)."""
    state = make_state()
    add_fleet(state, "T1", TER, "S3", ["CA", "CA"])
    add_fleet(state, "I1", IMP, "S4", ["SC", "DD"])
    ctx = context(state, [], [line(1, "S3", move("T1", "S4", "S5"))])
    ctx.dice = Dice(seed=1)
    action_segment(ctx, 1)
    assert kinds(ctx, "activation")[0].data["path"] == ["S3", "S4"]
    assert kinds(ctx, "battle") and ctx.battles == ["S4"]


# -- a fight renewed by the units on a planet ------------------------------------------------------


def renewal_state(disputed: bool = True) -> State:
    """P2 at S2 (two hexes): a Terran troop and an Imperial troop, disputed unless told."""
    state = make_state()
    state.map.planets["P2"].disputed = disputed
    add_ground(state, TER, "P2", ["RT"])
    add_ground(state, IMP, "P2", ["RT"])
    return state


def renew(fight: list[int] | None = None) -> Action:
    return Action("attack", planet="P2", text="attack P2", fight=fight)


def test_units_on_a_disputed_planet_renew_the_fight_without_a_fleet(battles: dict) -> None:
    """No fleet in orbit: the Terran troop on P2 renews the fight, in hex 1 only as ordered.
    The line is told done to the Terrans, the troop has acted this segment, and the planetary
    battle is fought with no fleet, no landing hexes and the hexes to fight."""
    state = renewal_state()
    ctx = context(state, [])
    ctx.segment = 1
    assert carry_out(ctx, TER, line(1, "S2", renew(fight=[1])))
    assert battles["attack"] == [(TER, "", "P2", [])]
    assert battles["choices"] == [{"fight": [1]}]
    (done,) = kinds(ctx, "activation")
    assert (done.location, done.visible_to, done.text) == (
        "S2",
        (PLAYERS[TER],),
        "Your units on Green (P2) renew the fight.",
    )
    assert done.data == {
        "segment": 1,
        "order": 1,
        "system": "S2",
        "cell": "Actions!D1",
        "text": "",
        "action": "attack",
        "fleet": "",
        "planet": "P2",
        "hexes": [],
    }
    assert (TER, "RT1") in ctx.moved and (IMP, "RT1") not in ctx.moved


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (
            "undisputed",
            "P2 is not a disputed planet where your units stand; name the fleet that attacks it",
        ),
        (
            "no units",
            "P2 is not a disputed planet where your units stand; name the fleet that attacks it",
        ),
        ("peace talks", "Peace Talks are in force: no attacks"),
        ("peace", "it is peacetime: no attacks"),
        ("fought", "RT1 already fought this segment"),
    ],
)
def test_a_renewal_that_cannot_be_made_is_skipped_and_says_why(
    battles: dict, setup: str, reason: str
) -> None:
    state = renewal_state(disputed=setup != "undisputed")
    state.war_turn = 0 if setup == "peace" else 1
    state.peace_talks = setup == "peace talks"
    if setup == "no units":
        state.units = [u for u in state.units if u.side != TER]
        add_fleet(state, "T1", TER, "S2", ["SC"])
    ctx = context(state, [])
    if setup == "fought":
        ctx.moved.add((TER, "RT1"))
    assert not carry_out(ctx, TER, line(2, "S2", renew()))
    assert battles["attack"] == []
    skipped, line_skipped = kinds(ctx, "skipped")
    assert skipped.text == f"attack P2 (activation 2) was skipped: {reason}."
    assert (skipped.location, skipped.visible_to) == ("S2", (PLAYERS[TER],))
    assert "none of its actions could be carried out" in line_skipped.text
    assert skipped.data["reason"] == reason and skipped.data["action"] == "attack"


def test_a_renewal_names_a_planet_of_the_system(battles: dict) -> None:
    state = renewal_state()
    ctx = context(state, [])
    action = Action("attack", planet="P4", text="attack P4")
    assert not carry_out(ctx, TER, line(1, "S2", action))
    skipped = kinds(ctx, "skipped")[0]
    assert skipped.text.endswith("was skipped: P4 is not a planet of S2.")


# -- unloading -------------------------------------------------------------------------------------


def unload(*units: str, planet: str = "P1") -> Action:
    return Action("unload", fleet="T1", planet=planet, units=list(units), text="T1 unload")


def test_unloading_sets_up_an_outpost_and_lands_what_the_planet_takes(battles: dict) -> None:
    """Onto the unclaimed N2 planet Rock: the Outpost counter becomes the Terran Outpost, the
    jump troop and the PD land in the box, the regular troop may not (N2 takes JT, PD, F).
    The Imperial scout at S1 sees the new Outpost and is told."""
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["TR", "TR", "TR", "TR", "OP", "RT", "JT", "PD"])
    add_fleet(state, "I1", IMP, "S1", ["SC"])
    ctx = context(state, [])
    assert carry_out(ctx, TER, line(3, "S1", unload("OP1", "RT1", "JT1", "PD1")))
    rock = state.map.planets["P1"]
    assert (rock.owner, rock.marker) == (TER, "Outpost")
    assert [u.id for u in state.units_on("P1")] == ["JT1", "PD1"]
    assert state.unit(TER, "OP1") is None and state.unit(TER, "RT1").fleet == "T1"
    outpost, done = [e for e in ctx.events if e.kind in ("outpost", "activation")]
    assert (outpost.kind, outpost.location, set(outpost.visible_to)) == (
        "outpost",
        "S1",
        {PLAYERS[TER], PLAYERS[IMP]},
    )
    assert outpost.text == "Terran set up an Outpost on Rock (P1)."
    assert done.text == (
        "Fleet T1 unloaded OP1 JT1 PD1 onto P1. Rock is now your Outpost. Not unloaded: RT1: "
        "a N2 planet takes only JT, PD, F."
    )
    assert {k: done.data[k] for k in ("planet", "units", "refused", "outpost")} == {
        "planet": "P1",
        "units": ["OP1", "JT1", "PD1"],
        "refused": ["RT1: a N2 planet takes only JT, PD, F"],
        "outpost": True,
    }


def test_an_outpost_unseen_by_the_enemy_is_told_to_its_side_only(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["TR", "OP"])
    ctx = context(state, [])
    assert carry_out(ctx, TER, line(1, "S1", unload("OP1")))
    assert kinds(ctx, "outpost") == []
    assert kinds(ctx, "activation")[0].text == (
        "Fleet T1 unloaded OP1 onto P1. Rock is now your Outpost."
    )


@pytest.mark.parametrize(
    ("prepare", "units", "reason"),
    [
        (
            "disputed",
            ["JT1"],
            "P1 is disputed: land units there with attack (PD may never be "
            "landed on a disputed planet)",
        ),
        ("enemy world", ["JT1"], "P1 is held by the enemy: use attack"),
        ("enemy troop", ["JT1"], "P1 is held by the enemy: use attack"),
        ("", [], "no units were named to unload"),
        ("full", ["JT1"], "JT1: the box of P1 is full (5 units)"),
        ("marker", ["OP1"], "OP1: P1 already has a Outpost"),
    ],
)
def test_an_unload_that_cannot_be_made_says_why(
    battles: dict, prepare: str, units: list[str], reason: str
) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S1", ["TR", "TR", "JT", "OP"])
    rock = state.map.planets["P1"]
    if prepare == "disputed":
        rock.disputed = True
    elif prepare == "enemy world":
        rock.owner, rock.marker = IMP, "Outpost"
    elif prepare == "enemy troop":
        add_ground(state, IMP, "P1", ["JT"])
    elif prepare == "full":
        add_ground(state, TER, "P1", ["PD"] * 5)
    elif prepare == "marker":
        rock.owner, rock.marker = TER, "Outpost"
    ctx = context(state, [])
    assert not carry_out(ctx, TER, line(4, "S1", unload(*units)))
    skipped = kinds(ctx, "skipped")[0]
    assert skipped.text == f"T1 unload (activation 4) was skipped: {reason}."
    assert [u.id for u in state.units_in_fleet("T1")] == ["TR1", "TR2", "JT1", "OP1"]


# -- loading ---------------------------------------------------------------------------------------


def load(*units: str, planet: str = "P0") -> Action:
    return Action("load", fleet="T1", planet=planet, units=list(units), text="T1 load")


def test_loading_takes_the_named_units_while_there_is_room(battles: dict) -> None:
    """Two transports (one place each): RT1 and JT1 go aboard in the order named (the name's
    case does not matter, a unit named twice goes once); PD1 finds no room; a unit that is not
    on the planet and an Imperial one are refused by name."""
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["TR", "TR"])
    add_ground(state, TER, "P0", ["RT", "JT", "PD"])
    add_ground(state, IMP, "P6", ["RT"])
    ctx = context(state, [])
    assert carry_out(ctx, TER, line(5, "S0", load("rt1", "RT1", "JT1", "PD1", "RT9")))
    assert [u.id for u in state.units_in_fleet("T1")] == ["TR1", "TR2", "RT1", "JT1"]
    loaded = state.unit(TER, "RT1")
    assert loaded is not None and (loaded.planet, loaded.hex) == ("", 0)
    (done,) = kinds(ctx, "activation")
    assert done.text == (
        "Fleet T1 loaded RT1 JT1 from P0. Not loaded: RT9 is not one of your units on P0; no "
        "room aboard fleet T1 for PD1."
    )
    assert {k: done.data[k] for k in ("planet", "units", "refused")} == {
        "planet": "P0",
        "units": ["RT1", "JT1"],
        "refused": ["RT9 is not one of your units on P0", "no room aboard fleet T1 for PD1"],
    }


@pytest.mark.parametrize(
    ("names", "disputed", "reason"),
    [
        (["RT1"], True, "P0 is disputed: take units off it with evacuate"),
        ([], False, "no units were named to load"),
        # RT1 is the troop already aboard; RT2 on the planet finds the transport full.
        (
            ["RT1", "RT2"],
            False,
            "RT1 is not one of your units on P0; no room aboard fleet T1 for RT2",
        ),
    ],
)
def test_a_load_that_cannot_be_made_says_why(
    battles: dict, names: list[str], disputed: bool, reason: str
) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["TR", "RT"])
    add_ground(state, TER, "P0", ["RT"])
    state.map.planets["P0"].disputed = disputed
    ctx = context(state, [])
    assert not carry_out(ctx, TER, line(6, "S0", load(*names)))
    assert kinds(ctx, "skipped")[0].text == f"T1 load (activation 6) was skipped: {reason}."


# -- splitting and joining -------------------------------------------------------------------------


def split(name: str, *units: str) -> Action:
    return Action("split", fleet="T1", units=list(units), target=name, text="T1 split")


def test_a_split_forms_the_named_fleet_where_the_old_one_stands(battles: dict) -> None:
    """DD2 and the transport with its troop leave T1 as Raiders (named in any case, DD2 twice
    counted once); the new fleet came from where T1 came from."""
    state = make_state()
    add_fleet(state, "T1", TER, "S2", ["DD", "DD", "TR", "RT"])
    state.fleet("T1").came_from = "S1"
    ctx = context(state, [])
    assert carry_out(ctx, TER, line(7, "S2", split("Raiders", "dd2", "DD2", "TR1", "RT1")))
    raiders = state.fleet("Raiders")
    assert raiders is not None and (raiders.side, raiders.system, raiders.came_from) == (
        TER,
        "S2",
        "S1",
    )
    assert [u.id for u in state.units_in_fleet("Raiders")] == ["DD2", "TR1", "RT1"]
    assert [u.id for u in state.units_in_fleet("T1")] == ["DD1"]
    (done,) = kinds(ctx, "activation")
    assert done.text == "Fleet T1 split: DD2 TR1 RT1 form fleet Raiders."
    assert (done.data["new_fleet"], done.data["units"]) == ("Raiders", ["DD2", "TR1", "RT1"])


@pytest.mark.parametrize(
    ("name", "units", "reason"),
    [
        ("", ["DD2"], "no name was given for the new fleet"),
        ("t2", ["DD2"], "the fleet name t2 is already in use"),
        ("X", ["DD2", "CA9"], "CA9 not in fleet T1"),
        ("X", ["RT1"], "the new fleet would have no ship"),
        ("X", ["DD1", "DD2", "TR1"], "fleet T1 would keep no ship"),
        ("X", ["DD2", "RT1"], "fleet X would be overloaded: "),
        ("X", ["TR1"], "fleet T1 would be overloaded: "),
    ],
)
def test_a_split_that_cannot_be_made_says_why(
    battles: dict, name: str, units: list[str], reason: str
) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S2", ["DD", "DD", "TR", "RT"])
    add_fleet(state, "T2", TER, "S3", ["SC"])
    ctx = context(state, [])
    assert not carry_out(ctx, TER, line(8, "S2", split(name, *units)))
    text = kinds(ctx, "skipped")[0].text
    assert text.startswith(f"T1 split (activation 8) was skipped: {reason}")
    assert state.fleet("X") is None and len(state.units_in_fleet("T1")) == 4


def join(target: str) -> Action:
    return Action("join", fleet="T1", target=target, text=f"T1 join {target}")


def test_a_join_takes_in_the_other_fleet_at_the_system(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S2", ["DD"])
    add_fleet(state, "T2", TER, "S2", ["SC", "CA"])
    ctx = context(state, [])
    assert carry_out(ctx, TER, line(9, "S2", join("t2")))
    assert state.fleet("T2") is None
    assert [u.id for u in state.units_in_fleet("T1")] == ["DD1", "SC1", "CA1"]
    (done,) = kinds(ctx, "activation")
    assert done.text == "Fleet T2 joined fleet T1."
    assert (done.data["joined"], done.data["units"]) == ("T2", ["SC1", "CA1"])


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("T9", "you have no fleet T9"),
        ("I1", "you have no fleet I1"),
        ("T1", "a fleet cannot join itself"),
        ("T3", "fleet T3 is at S3, not S2"),
    ],
)
def test_a_join_that_cannot_be_made_says_why(battles: dict, target: str, reason: str) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S2", ["DD"])
    add_fleet(state, "T3", TER, "S3", ["SC"])
    add_fleet(state, "I1", IMP, "S2", ["SC"])
    ctx = context(state, [])
    assert not carry_out(ctx, TER, line(10, "S2", join(target)))
    assert kinds(ctx, "skipped")[0].text == (
        f"T1 join {target} (activation 10) was skipped: {reason}."
    )


# -- attacking and evacuating a planet ------------------------------------------------------------


def attack(planet: str = "P4", **kw: Any) -> Action:
    return Action("attack", fleet="T1", planet=planet, text=f"T1 attack {planet}", **kw)


def test_an_attack_is_told_and_fought_with_the_sheets_choices(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S4", ["CA", "TR", "RT"])
    ctx = context(state, [])
    action = attack(hexes=[2, 3], bombard=False, fight=[2])
    assert carry_out(ctx, TER, line(11, "S4", action))
    assert battles["attack"] == [(TER, "T1", "P4", [2, 3])]
    assert battles["choices"] == [{"bombarding": False, "fight": [2]}]
    (done,) = kinds(ctx, "activation")
    assert done.text == "Fleet T1 attacks Post (P4), without bombarding."
    assert (done.data["planet"], done.data["hexes"]) == ("P4", [2, 3])
    ctx = context(state, [])
    assert carry_out(ctx, TER, line(12, "S4", attack()))
    assert kinds(ctx, "activation")[0].text == "Fleet T1 attacks Post (P4)."


@pytest.mark.parametrize(
    ("setup", "planet", "reason"),
    [
        (
            "moved",
            "P4",
            "CA1 moved this segment; moving and attacking a planet are separate activations",
        ),
        ("peace talks", "P4", "Peace Talks are in force: no attacks"),
        ("peace", "P4", "it is peacetime: no attacks"),
        ("own", "P4", "P4 is already yours"),
    ],
)
def test_an_attack_that_cannot_be_made_says_why(
    battles: dict, setup: str, planet: str, reason: str
) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S4", ["CA", "TR", "RT"])
    state.peace_talks = setup == "peace talks"
    state.war_turn = 0 if setup == "peace" else 1
    if setup == "own":
        state.map.planets["P4"].owner = TER
    ctx = context(state, [])
    if setup == "moved":
        ctx.moved.add((TER, "CA1"))
    assert not carry_out(ctx, TER, line(13, "S4", attack(planet)))
    assert battles["attack"] == []
    assert kinds(ctx, "skipped")[0].text == (
        f"T1 attack {planet} (activation 13) was skipped: {reason}."
    )


def test_landing_on_an_unclaimed_planet_is_no_attack_even_in_peacetime(battles: dict) -> None:
    state = make_state()
    state.war_turn = 0
    add_fleet(state, "T1", TER, "S2", ["TR", "RT"])
    ctx = context(state, [])
    assert carry_out(ctx, TER, line(14, "S2", attack("P2")))
    assert battles["attack"] == [(TER, "T1", "P2", [])]


def evacuate(planet: str = "P2") -> Action:
    return Action("evacuate", fleet="T1", planet=planet, text=f"T1 evacuate {planet}")


def test_an_evacuation_is_told_and_carried_out(battles: dict) -> None:
    state = make_state()
    state.map.planets["P2"].disputed = True
    add_ground(state, TER, "P2", ["RT"])
    add_ground(state, IMP, "P2", ["RT"])
    add_fleet(state, "T1", TER, "S2", ["TR"])
    ctx = context(state, [])
    assert carry_out(ctx, TER, line(15, "S2", evacuate()))
    assert battles["evacuate"] == [(TER, "T1", "P2")]
    (done,) = kinds(ctx, "activation")
    assert (done.text, done.data["planet"]) == ("Fleet T1 evacuates Green (P2).", "P2")


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ("undisputed", "P2 is not disputed (use load instead)"),
        ("nobody", "you have no units on P2"),
        ("peace talks", "Peace Talks are in force: units on disputed planets stay in place"),
    ],
)
def test_an_evacuation_that_cannot_be_made_says_why(battles: dict, setup: str, reason: str) -> None:
    state = make_state()
    state.map.planets["P2"].disputed = setup != "undisputed"
    state.peace_talks = setup == "peace talks"
    if setup != "nobody":
        add_ground(state, TER, "P2", ["RT"])
    add_ground(state, IMP, "P2", ["RT"])
    add_fleet(state, "T1", TER, "S2", ["TR"])
    ctx = context(state, [])
    assert not carry_out(ctx, TER, line(16, "S2", evacuate()))
    assert battles["evacuate"] == []
    assert kinds(ctx, "skipped")[0].text == (
        f"T1 evacuate P2 (activation 16) was skipped: {reason}."
    )


def test_passes_are_told_to_their_side_and_the_end_of_the_segment_to_both() -> None:
    """The passes of test_consecutive_passes_end_the_segment, told whole: each side hears of
    its own pass in the segment's phase; the end is public."""
    state = make_state()
    add_fleet(state, "T1", TER, "S0", ["DD"])
    add_fleet(state, "I1", IMP, "S6", ["DD"])
    terran = [pass_line(1), line(2, "S0", move("T1", "S1"))]
    imperial = [pass_line(1), line(2, "S6", move("I1", "S5"))]
    ctx = context(state, [5, 4], terran, imperial)
    action_segment(ctx, 1)
    passes = kinds(ctx, "pass")
    assert [(e.phase, e.location, e.visible_to, e.text) for e in passes] == [
        ("action 1", "", (PLAYERS[TER],), "You passed (line 1)."),
        ("action 1", "", (PLAYERS[IMP],), "You passed (line 1)."),
    ]
    assert [e.data["ignored"] for e in passes] == [False, False]
    (end,) = kinds(ctx, "segment_end")
    assert (end.phase, end.location, end.text, dict(end.data)) == (
        "action 1",
        "",
        "Action segment 1 ends: both sides passed in turn.",
        {"segment": 1, "reason": "passes"},
    )
    ctx = context(state, [5, 4], [pass_line(1), line(2, "S0", move("T1", "S1"))])
    action_segment(ctx, 1)
    ignored = kinds(ctx, "pass")[0]
    assert (ignored.phase, ignored.visible_to, ignored.text) == (
        "action 1",
        (PLAYERS[TER],),
        "Your pass (line 1) was ignored: the enemy had no activations left.",
    )


def test_a_line_goes_on_past_a_pass_and_an_unknown_action(battles: dict) -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S2", ["DD", "DD"])
    activation = line(3, "S2", Action("pass"), Action("dance", fleet="T1"), split("X", "DD2"))
    ctx = context(state, [])
    ctx.segment = 1
    assert carry_out(ctx, TER, activation)
    (skipped,) = kinds(ctx, "skipped")
    assert skipped.text == "T1 dance (activation 3) was skipped: 'dance' is not an action."
    assert state.fleet("X") is not None


@pytest.mark.parametrize(
    ("system", "reason"),
    [("ZZ", "ZZ is not a system on the map"), ("S4", "you have no units at S4")],
)
def test_a_line_at_a_system_without_the_sides_units_is_skipped(
    battles: dict, system: str, reason: str
) -> None:
    """The Empire's Outpost and troop at S4 are not Terran units."""
    state = make_state()
    add_ground(state, IMP, "P4", ["RT"])
    ctx = context(state, [])
    assert not carry_out(ctx, TER, line(4, system, split("X", "DD1")))
    (skipped,) = kinds(ctx, "skipped")
    assert skipped.text.startswith(f"Activation 4 at {system} (")
    assert f"was skipped: {reason}." in skipped.text and skipped.visible_to == (PLAYERS[TER],)


# -- moves refused, and what a truce lets a fleet know -------------------------------------------


@pytest.mark.parametrize(
    ("codes", "route", "moved", "reason"),
    [
        (["RT"], ["S1"], False, "fleet T1 has no ships"),
        (["DD"], ["S1"], True, "DD1 already moved this segment"),
        (["DD"], [], False, "no route was given"),
        (["DD"], ["S0"], False, "no route was given"),
    ],
)
def test_a_move_that_cannot_be_made_says_why(
    battles: dict, codes: list[str], route: list[str], moved: bool, reason: str
) -> None:
    """A route written from where the fleet stands (``S0``) is no route at all."""
    state = make_state()
    add_fleet(state, "T1", TER, "S0", codes)
    ctx = context(state, [])
    if moved:
        ctx.moved.add((TER, "DD1"))
    assert not carry_out(ctx, TER, line(1, "S0", move("T1", *route)))
    skipped = kinds(ctx, "skipped")[0]
    assert skipped.text.endswith(f"was skipped: {reason}.")
    assert skipped.visible_to == (PLAYERS[TER],) and where(state, "T1") == "S0"


def test_a_fleet_in_deep_space_moves_one_hex_whatever_the_route() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "DP1", ["DD"])
    ctx = context(state, [])
    ctx.segment = 1
    activation = line(1, "DP1", move("T1", "DP2", "S0"))
    assert carry_out(ctx, TER, activation)
    assert where(state, "T1") == "DP2"
    done = kinds(ctx, "activation")[0]
    assert (
        done.text == "Fleet T1 moved DP1 > DP2; stopped: a fleet in deep space moves only one hex."
    )
    assert (done.data["path"], done.data["battle"]) == (["DP1", "DP2"], False)


@pytest.mark.parametrize(
    ("public", "seen", "reason"),
    [
        (True, False, "it is peacetime and the enemy holds a World or Outpost at S4"),
        (False, True, "it is peacetime and the enemy holds a World or Outpost at S4"),
        (False, False, "it is peacetime and S4 holds enemy units: the fleet may not enter it"),
    ],
)
def test_peace_names_an_enemy_outpost_only_as_far_as_the_side_may_know(
    public: bool, seen: bool, reason: str
) -> None:
    """The Imperial Outpost at S4 stops a Terran fleet in peacetime; the reason names it when
    markers are public or the Terrans see S4 (their scout is there), else says only "enemy
    units"."""
    state = make_state()
    state.war_turn = 0
    if seen:
        add_fleet(state, "T9", TER, "S4", ["SC"])
    assert peace_block(state, TER, "S4", public) == reason


def test_initiative_shows_a_modified_roll_in_full() -> None:
    """A Civil War: the Imperial 4 -1 = 3 against the Terran 2; the roll, the modifier and the
    allowance are all told, and the result returned."""
    state = make_state()
    state.sides[IMP].initiative_modifier = -1
    ctx = context(state, [2, 4])
    ctx.segment = 3
    got = roll_initiative(ctx, 3)
    assert (got.rolls, got.scores, got.winner) == ({TER: 2, IMP: 4}, {TER: 2, IMP: 3}, IMP)
    (event,) = kinds(ctx, "initiative")
    assert event.text == (
        "Action segment 3 initiative: Terran 2, Imperial 4 -1 = 3. Imperial acts first; "
        "activations allowed: Terran 2, Imperial 3."
    )
    assert event.data["modifiers"] == {TER: 0, IMP: -1}


def test_an_empty_fleet_is_no_fleet_at_its_system() -> None:
    state = make_state()
    add_fleet(state, "T1", TER, "S2", ["DD"])
    state.fleets.append(Fleet(name="T2", side=TER, system="S2"))
    add_fleet(state, "I1", IMP, "S2", ["DD"])
    assert [f.name for f in live_fleets_at(state, "S2", TER)] == ["T1"]
