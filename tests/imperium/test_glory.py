"""Glory and the war calendar (`glory`): the victory schedule, the Mandated Offensive's
condition, the end of a war, the inter-war sequence and peacetime."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.rulesets.imperium_3m import RULESET
from refassist.rulesets.imperium_3m.context import TurnContext
from refassist.rulesets.imperium_3m.glory import end_of_turn, victory
from refassist.rulesets.imperium_3m.orders import no_orders
from refassist.rulesets.imperium_3m.setup import new_game
from refassist.rulesets.imperium_3m.state import Fleet, Queued, State, Unit
from refassist.rulesets.imperium_3m.units import IMPERIAL, SIDES, TERRAN


def start() -> State:
    return new_game(
        NewGame(
            "Test",
            "id",
            (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com")),
            {},
        ),
        Dice(seed=1),
        {},
    )


def finish(state: State, rolls: list[int], rules: dict | None = None) -> TurnContext:
    ctx = TurnContext(
        state=state,
        dice=Dice.scripted(rolls),
        rules=RULESET.rules_with_defaults(rules or {}),
        orders={s: no_orders(state.player_of(s), s, state.turn) for s in SIDES},
    )
    end_of_turn(ctx)
    assert ctx.dice.remaining == 0
    return ctx


def at(state: State, war_turn: int, glory: int) -> State:
    state.war_turn, state.glory = war_turn, glory
    state.turn = war_turn
    return state


# -- the victory schedule ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("war_turn", "glory", "result"),
    [
        (1, 0, TERRAN),
        (1, 1, ""),
        (6, 0, TERRAN),
        (6, 9, ""),
        (6, 10, IMPERIAL),
        (7, 1, TERRAN),
        (7, 2, ""),
        (7, 8, ""),
        (7, 9, IMPERIAL),
        (8, 2, TERRAN),
        (8, 3, ""),
        (8, 7, ""),
        (8, 8, IMPERIAL),
        (9, 3, TERRAN),
        (9, 4, ""),
        (9, 6, ""),
        (9, 7, IMPERIAL),
        (10, 4, TERRAN),
        (10, 5, "truce"),
        (10, 6, IMPERIAL),
    ],
)
def test_victory_schedule(war_turn: int, glory: int, result: str) -> None:
    assert victory(at(start(), war_turn, glory)) == result


def test_war_goes_on_and_per_turn_flags_clear() -> None:
    state = at(start(), 3, 5)
    imperial = state.sides[IMPERIAL]
    imperial.visit, imperial.initiative_modifier, imperial.depression = True, -1, 3
    state.peace_talks = True
    ctx = finish(state, [])
    assert (state.turn, state.war_turn, state.war) == (4, 4, 1)
    assert not imperial.visit and imperial.initiative_modifier == 0 and imperial.depression == 2
    assert not state.peace_talks and not state.results
    assert not [e for e in ctx.events if e.kind == "war end"]


def test_single_war_game_ends_with_the_first_war() -> None:
    state = at(start(), 7, 9)
    ctx = finish(state, [], {"campaign": False})
    assert state.results == [IMPERIAL]
    assert state.finished == "Imperial victory in the First Interstellar War"
    assert ctx.events[-1].visible_to == ("*",)


# -- the end of a war in a campaign --------------------------------------------------------------


def test_imperial_win_keeps_granted_forces_and_zeroes_the_imperial_stockpile() -> None:
    state = at(start(), 7, 9)
    state.units.append(Unit("CA9", IMPERIAL, "CA", fleet="I1", origin="appeal"))
    state.sides[IMPERIAL].granted = ["CA"]
    t = state.sides[TERRAN].resources
    finish(state, [2, 3, 4])
    assert state.results == [IMPERIAL] and not state.finished
    assert (state.war_turn, state.peace_left, state.turn) == (0, 9, 8)
    assert state.glory == 6
    assert state.sides[IMPERIAL].resources == 0 and state.sides[TERRAN].resources == t
    kept = state.unit(IMPERIAL, "CA9")
    assert kept is not None and kept.origin == ""


def test_terran_win_removes_granted_forces_or_the_next_largest_ship() -> None:
    state = at(start(), 1, 0)
    state.units.append(Unit("CA9", IMPERIAL, "CA", fleet="I1", origin="intervention"))
    state.queue.append(Queued(IMPERIAL, "DD", 5, source="frontier", origin="intervention"))
    # A BB that was lost: no Imperial BB remains, so the dearest ship not dearer (B2, 19) goes.
    state.sides[IMPERIAL].granted = ["CA", "DD", "BB"]
    i = state.sides[IMPERIAL].resources
    finish(state, [1, 1, 1])
    assert state.results == [TERRAN]
    assert state.unit(IMPERIAL, "CA9") is None and not state.queue
    assert state.unit(IMPERIAL, "B2-1") is None
    assert state.unit(IMPERIAL, "CA1") is not None
    assert state.glory == 4 and state.peace_left == 3
    assert state.sides[TERRAN].resources == 0 and state.sides[IMPERIAL].resources == i


def test_truce_resets_glory_to_five_and_keeps_both_stockpiles() -> None:
    state = at(start(), 10, 5)
    t, i = state.sides[TERRAN].resources, state.sides[IMPERIAL].resources
    finish(state, [6, 6, 6])
    assert state.results == ["truce"] and state.glory == 5 and state.peace_left == 18
    assert (state.sides[TERRAN].resources, state.sides[IMPERIAL].resources) == (t, i)


def test_territorial_exchange_removes_unconnected_outposts_and_disputed_markers() -> None:
    state = at(start(), 10, 5)
    # Cut Kish off: no jump route leads there any more.
    state.map.routes = [r for r in state.map.routes if "KIS" not in (r.a, r.b)]
    state.fleets.append(Fleet("I9", IMPERIAL, "KIS"))
    state.units.append(Unit("M1", IMPERIAL, "M", fleet="I9"))
    # A Terran fleet on Uruk's way home does not matter: enemy fleets are ignored.
    state.fleets.append(Fleet("T9", TERRAN, "DIN"))
    state.units.append(Unit("DD9", TERRAN, "DD", fleet="T9"))
    acb = state.map.planets["ACB"]
    acb.disputed, acb.owner, acb.marker = True, TERRAN, "World"
    state.units += [
        Unit("PD8", TERRAN, "PD", planet="ACB", hex=1),
        Unit("RT8", IMPERIAL, "RT", planet="ACB", hex=2),
    ]
    finish(state, [1, 1, 1])
    kis = state.map.planets["KIS1"]
    assert (kis.owner, kis.marker) == ("", "")
    assert not state.units_on("KIS1") and state.unit(IMPERIAL, "M1") is None
    assert state.map.planets["URU1"].marker == "Outpost"
    # "Disputed planets are controlled by neither side: remove any World or Outpost marker":
    # only the marker goes.  The Imperial troop goes home, so the dispute is over and the
    # Terran PD stays on a planet that is nobody's.
    assert (acb.owner, acb.marker, acb.disputed) == ("", "", False)
    pd = state.unit(TERRAN, "PD8")
    assert pd is not None and (pd.planet, pd.hex) == ("ACB", 0)
    assert state.unit(IMPERIAL, "RT8").planet != "ACB"


def test_a_disputed_planet_with_both_sides_pd_left_stays_disputed_without_a_marker() -> None:
    state = at(start(), 10, 5)
    acb = state.map.planets["ACB"]
    acb.disputed, acb.owner, acb.marker = True, TERRAN, "World"
    state.units += [
        Unit("PD8", TERRAN, "PD", planet="ACB", hex=1),
        Unit("PD9", IMPERIAL, "PD", planet="ACB", hex=2),
    ]
    finish(state, [1, 1, 1])
    assert (acb.owner, acb.marker, acb.disputed) == ("", "", True)
    assert state.unit(TERRAN, "PD8").hex == 1 and state.unit(IMPERIAL, "PD9").hex == 2


def test_going_home() -> None:
    state = at(start(), 10, 5)
    state.fleet("T3").system = "TAU"
    state.units.append(Unit("M1", TERRAN, "M", fleet="T3"))
    state.fleet("I2").system = "PRO"
    state.units.append(Unit("RT9", TERRAN, "RT", strength=3, reduced_strength=2, planet="TAU2"))
    pd = Unit("PD9", TERRAN, "PD", planet="TAU2")
    state.units.append(pd)
    finish(state, [1, 1, 1])
    assert state.fleet("T3").system == "SOL"
    monitor = state.unit(TERRAN, "M1")
    assert monitor is not None and state.fleet(monitor.fleet).system == "TAU"
    assert state.fleet("I2").system == "GAS"  # PRO-NIP-GAS: two jumps
    assert state.unit(TERRAN, "RT9").planet in ("SOL1", "SOL2")
    assert pd.planet == "TAU2"
    # Troops on Alpha Centauri (not a home world) go to Sol too.
    assert not [
        u
        for u in state.units
        if u.side == TERRAN and u.code == "RT" and u.planet in ("ACA1", "ACB")
    ]


@pytest.mark.parametrize("side", [TERRAN, IMPERIAL])
def test_campaign_ends_when_a_side_holds_the_others_home_worlds(side: str) -> None:
    state = at(start(), 6, 0 if side == TERRAN else 10)
    aim = ("DIN1", "GAS1", "ISH1") if side == TERRAN else ("SOL1", "SOL2", "ACA1", "ACB")
    for code in aim:
        state.map.planets[code].owner = side
    finish(state, [])  # no inter-war dice
    assert state.finished.startswith(f"{side} victory in the campaign")


def test_holding_three_of_four_terran_planets_is_not_enough() -> None:
    state = at(start(), 6, 10)
    for code in ("SOL1", "SOL2", "ACA1"):
        state.map.planets[code].owner = IMPERIAL
    finish(state, [3, 3, 3])
    assert not state.finished and state.peace_left == 9


# -- peace ---------------------------------------------------------------------------------------


def test_peace_counts_down_then_a_new_war_begins() -> None:
    state = start()
    state.war_turn, state.peace_left, state.turn = 0, 2, 12
    finish(state, [])
    assert (state.war, state.war_turn, state.peace_left, state.turn) == (1, 0, 1, 13)
    finish(state, [])
    assert (state.war, state.war_turn, state.peace_left, state.turn) == (2, 1, 0, 14)
    assert victory(state) == ""


# -- the Mandated Offensive ----------------------------------------------------------------------


def mandate_state(mark: int) -> State:
    """War turn 2, glory 5, two CAs of a Mandated Offensive that arrived this turn with the
    index at ``mark`` (as `admin.mandated_offensive` notes it)."""
    state = at(start(), 2, 5)
    imperial = state.sides[IMPERIAL]
    imperial.mandate_turn, imperial.mandate_glory = 2, mark
    imperial.granted = ["CA", "CA"]
    state.units += [
        Unit("CA8", IMPERIAL, "CA", fleet="I3", origin="mandate"),
        Unit("CA9", IMPERIAL, "CA", fleet="I3", origin="mandate"),
    ]
    return state


def test_mandate_forces_stay_while_glory_is_above_its_value_at_their_arrival() -> None:
    state = mandate_state(mark=5)
    imperial = state.sides[IMPERIAL]
    finish(state, [])  # the arrival turn is not judged
    assert state.unit(IMPERIAL, "CA8") is not None and imperial.mandate_glory == 5
    state.glory = 6
    finish(state, [])
    assert state.unit(IMPERIAL, "CA8") is not None
    finish(state, [])  # a quiet turn: glory still 6, above the 5 at arrival
    assert state.unit(IMPERIAL, "CA8") is not None and imperial.mandate_glory == 5
    state.glory = 5
    finish(state, [])  # back to the index at arrival: withdrawn
    assert state.unit(IMPERIAL, "CA8") is None and state.unit(IMPERIAL, "CA9") is None
    assert imperial.mandate_turn == 0 and imperial.granted == []


def test_glory_won_in_the_arrival_turn_counts() -> None:
    state = mandate_state(mark=5)
    state.glory = 6  # the forces won a battle the turn they arrived
    finish(state, [])
    finish(state, [])  # first judged turn: 6 > 5
    assert state.unit(IMPERIAL, "CA8") is not None


def test_mandate_forces_leave_when_glory_is_not_above_the_mark_the_first_turn() -> None:
    state = mandate_state(mark=5)
    finish(state, [])
    ctx = finish(state, [])  # glory 5, not above 5
    assert state.unit(IMPERIAL, "CA8") is None
    (event,) = [e for e in ctx.events if e.kind == "mandate"]
    assert "not above 5" in event.text and event.data["withdrawn"] == ["CA8", "CA9"]


def test_house_rule_each_turn_needs_glory_to_rise_every_turn() -> None:
    rules = {"mandate_mark": "each-turn"}
    state = mandate_state(mark=5)
    imperial = state.sides[IMPERIAL]
    finish(state, [], rules)  # the arrival turn sets the mark
    assert imperial.mandate_glory == 5
    state.glory = 6
    finish(state, [], rules)
    assert state.unit(IMPERIAL, "CA8") is not None and imperial.mandate_glory == 6
    finish(state, [], rules)  # glory still 6: did not rise
    assert state.unit(IMPERIAL, "CA8") is None and state.unit(IMPERIAL, "CA9") is None
    assert imperial.mandate_turn == 0 and imperial.granted == []


# -- many turns together -------------------------------------------------------------------------


def test_forty_turns_of_administration_close_out_and_calendar_keep_the_books() -> None:
    """Seeded dice through admin, close-out and the calendar: no counter is ever over-used,
    no stockpile goes negative, and wars and peace alternate."""
    from refassist.rulesets.imperium_3m.admin import administrative_segment
    from refassist.rulesets.imperium_3m.closeout import close_out
    from refassist.rulesets.imperium_3m.orders import Build, Orders
    from refassist.rulesets.imperium_3m.units import counters_available

    state = start()
    rules = RULESET.rules_with_defaults({})
    for turn in range(40):
        dice = Dice(seed=turn)
        orders = {
            TERRAN: Orders(
                state.player_of(TERRAN), TERRAN, state.turn, builds=[Build("DD"), Build("RT")]
            ),
            IMPERIAL: Orders(
                state.player_of(IMPERIAL),
                IMPERIAL,
                state.turn,
                appeal="Forces" if turn % 2 else "Finances",
                builds=[Build("CA"), Build("DD", 2)],
            ),
        }
        ctx = TurnContext(state=state, dice=dice, rules=rules, orders=orders)
        administrative_segment(ctx)
        state.glory = max(0, min(10, state.glory + dice.d6("drift") - dice.d6("drift")))
        close_out(ctx)
        end_of_turn(ctx)
        for side in SIDES:
            assert state.sides[side].resources >= 0
            for code in {u.code for u in state.units if u.side == side}:
                in_play = sum(1 for u in state.units if u.side == side and u.code == code)
                assert in_play <= counters_available(side, code)
        assert {u.fleet for u in state.units if u.fleet} <= {f.name for f in state.fleets}
        if state.finished:
            break
    assert state.results


def test_withdrawn_forces_do_not_strand_their_cargo() -> None:
    from refassist.rulesets.imperium_3m import glory as g
    from refassist.rulesets.imperium_3m.segments import capacity_problem
    from tests.imperium.test_space_battle import add, context, make_state

    state = make_state()  # C1 is the Imperial home World at C
    at = add(state, IMPERIAL, "AT", fleet="I1", system="C")
    at.origin = "appeal"
    add(state, IMPERIAL, "JT", fleet="I1", system="C")
    cv = add(state, IMPERIAL, "CV", fleet="I2", system="C")
    cv.origin = "appeal"
    add(state, IMPERIAL, "F", fleet="I2", system="C")
    add(state, IMPERIAL, "DD", fleet="I2", system="C")
    state.sides[IMPERIAL].granted = ["AT", "CV"]
    ctx = context(state, [])
    g.remove_granted(ctx, TERRAN)
    for fleet in ctx.state.fleets:
        assert capacity_problem(ctx, ctx.state.units_in_fleet(fleet.name)) == ""
    on_home = {u.code for u in ctx.state.units_on("C1")}
    assert {"JT", "F"} <= on_home


def test_going_home_without_a_home_world_goes_to_an_own_world_not_the_enemys() -> None:
    from refassist.rulesets.imperium_3m import glory as g
    from refassist.rulesets.imperium_3m.state import Planet
    from tests.imperium.test_space_battle import add, context, make_state

    state = make_state([Planet("P", "Planet P", "D", "A1", 4, owner=TERRAN, marker="World")])
    state.map.planets["A1"].owner = IMPERIAL  # the Empire holds the Terran home world
    rt = add(state, TERRAN, "RT", planet="P")
    add(state, TERRAN, "DD", fleet="T1", system="B")
    ctx = context(state, [])
    g.going_home(ctx)
    assert ctx.state.unit(TERRAN, rt.id).planet == "P"
    assert ctx.state.fleet("T1").system == "D"


# -- the end-of-war and calendar rules one at a time ---------------------------------------------


def test_a_depression_counts_down_to_its_end() -> None:
    state = at(start(), 3, 5)
    state.sides[TERRAN].depression, state.sides[IMPERIAL].depression = 1, 3
    finish(state, [])
    assert (state.sides[TERRAN].depression, state.sides[IMPERIAL].depression) == (0, 2)
    finish(state, [])
    assert (state.sides[TERRAN].depression, state.sides[IMPERIAL].depression) == (0, 1)


def test_an_unconnected_world_stays_at_the_territorial_exchange() -> None:
    """Only unconnected Outposts go ("remove any unconnected outposts"): a World stays."""
    state = at(start(), 10, 5)
    state.map.routes = [r for r in state.map.routes if "KIS" not in (r.a, r.b)]
    kish = state.map.planets["KIS1"]
    kish.marker = "World"
    state.units.append(Unit("PD8", IMPERIAL, "PD", planet="KIS1"))
    finish(state, [1, 1, 1])
    assert (kish.owner, kish.marker) == (IMPERIAL, "World")
    assert state.unit(IMPERIAL, "PD8") is not None


def test_jump_troops_and_fighters_abroad_go_home_at_the_end_of_a_war() -> None:
    state = at(start(), 10, 5)
    state.units += [
        Unit("JT9", TERRAN, "JT", strength=4, reduced_strength=2, planet="TAU2"),
        Unit("F9", TERRAN, "F", planet="TAU2"),
        Unit("F8", TERRAN, "F", planet="BAR1"),  # on the side's own Outpost: stays
    ]
    finish(state, [1, 1, 1])
    assert state.unit(TERRAN, "JT9").planet in ("SOL1", "SOL2")
    assert state.unit(TERRAN, "F9").planet in ("SOL1", "SOL2")
    assert state.unit(TERRAN, "F8").planet == "BAR1"


def test_terraforming_of_a_side_that_lost_the_outpost_is_dropped_after_the_war() -> None:
    state = at(start(), 10, 5)
    kept, lost = state.map.planets["BAR1"], state.map.planets["ERI1"]
    kept.terraform_paid, kept.terraform_side = 3, TERRAN  # its own Outpost
    lost.terraform_paid, lost.terraform_side = 2, TERRAN  # no Outpost there any more
    finish(state, [1, 1, 1])
    assert (kept.terraform_paid, kept.terraform_side) == (3, TERRAN)
    assert (lost.terraform_paid, lost.terraform_side) == (0, "")


def test_mandate_units_on_the_track_are_withdrawn_with_the_rest() -> None:
    state = mandate_state(mark=5)
    imperial = state.sides[IMPERIAL]
    imperial.granted.append("B1")
    state.queue += [
        Queued(IMPERIAL, "B1", 9, source="frontier", origin="mandate"),
        Queued(IMPERIAL, "DD", 9, source="built"),
    ]
    finish(state, [])
    finish(state, [])  # glory 5, not above 5
    assert [(q.code, q.origin) for q in state.queue] == [("DD", "")]
    assert imperial.granted == []


def test_withdrawn_ships_set_their_cargo_down_on_a_friendly_planet_or_lose_it() -> None:
    state = mandate_state(mark=5)
    state.fleet("I3").system = "DIN"  # Dingir 1: an Imperial World with room
    state.units += [
        Unit("AT30", IMPERIAL, "AT", fleet="I3", origin="mandate"),
        Unit("JT30", IMPERIAL, "JT", strength=4, reduced_strength=2, fleet="I3"),
    ]
    state.fleets.append(Fleet("I30", IMPERIAL, "KIS"))  # Kish 1 is an Outpost on an N1 planet
    state.units += [
        Unit("TR30", IMPERIAL, "TR", fleet="I30", origin="mandate"),
        Unit("RT30", IMPERIAL, "RT", strength=4, reduced_strength=2, fleet="I30"),
    ]
    finish(state, [])
    ctx = finish(state, [])
    jt = state.unit(IMPERIAL, "JT30")
    assert (jt.fleet, jt.planet, jt.hex) == ("", "DIN1", 0)  # set down at home
    assert state.unit(IMPERIAL, "RT30") is None  # RT cannot stand on N1: lost with its ship
    (event,) = [e for e in ctx.events if e.kind == "mandate"]
    assert event.data["withdrawn"] == ["CA8", "CA9", "AT30", "TR30"]
    # The Empire is told what became of the cargo.
    cargo = ["JT30 set down on Dingir 1", "RT30 lost with its ship"]
    assert event.data["cargo"] == cargo
    assert event.text == (
        "Glory is 5, not above 5: the Mandated Offensive forces are withdrawn "
        "(CA8, CA9, AT30, TR30); " + ", ".join(cargo)
    )


@pytest.mark.parametrize(
    ("ships", "granted", "removed", "kept"),
    [
        # The same type, lowest id first.
        (["CR9", "CR8", "DD7"], ["CR"], ["CR8"], ["CR9", "DD7"]),
        # None of the type: the dearest ship not dearer, an equal cost included (CR 13 = CS 13).
        (["CR9", "M9", "DD7"], ["CS"], ["CR9"], ["M9", "DD7"]),
        # Never a monitor, though it costs as much as the CL (8).
        (["M9", "DD7"], ["CL"], ["DD7"], ["M9"]),
    ],
)
def test_the_ship_removed_in_place_of_a_lost_intervention_ship(
    ships: list[str], granted: list[str], removed: list[str], kept: list[str]
) -> None:
    state = at(start(), 1, 0)
    state.units = [u for u in state.units if not (u.side == IMPERIAL and u.fleet)]
    state.fleets = [f for f in state.fleets if f.side == TERRAN]
    state.fleets += [Fleet("I1", IMPERIAL, "DIN"), Fleet("I9", IMPERIAL, "GAS")]
    for uid in ships:
        code = uid.rstrip("0123456789")
        state.units.append(Unit(uid, IMPERIAL, code, fleet="I9" if code == "M" else "I1"))
    state.sides[IMPERIAL].granted = list(granted)
    finish(state, [1, 1, 1])  # the Terrans win: the forces go
    assert [u for u in removed if state.unit(IMPERIAL, u) is not None] == []
    assert [u for u in kept if state.unit(IMPERIAL, u) is None] == []


def inter_war(
    ctx: TurnContext,
) -> list[tuple[str, str, str, tuple[str, ...], tuple[str, ...], dict]]:
    return [
        (e.phase, e.location, e.text, e.players, e.visible_to, dict(e.data))
        for e in ctx.events
        if e.kind == "inter-war"
    ]


def test_the_inter_war_sequence_told_whole_after_a_terran_win() -> None:
    """What everyone is told, line by line: the granted forces that leave (on the map, on the
    track, a substitute), the peace roll, the exchange, going home, the dividend, the index;
    the Empire's own construction on the track stays."""
    state = at(start(), 1, 0)
    state.units.append(Unit("CA9", IMPERIAL, "CA", fleet="I1", origin="intervention"))
    state.queue.append(Queued(IMPERIAL, "DD", 5, source="frontier", origin="intervention"))
    state.queue.append(Queued(IMPERIAL, "CL", 5, source="built", origin=""))
    state.sides[IMPERIAL].granted = ["CA", "DD", "BB"]
    ctx = finish(state, [1, 1, 1])
    removed = ["CA9", "DD (on the turn record track)", "B2-1 (in place of a lost BB)"]
    assert inter_war(ctx) == [
        (
            "glory",
            "",
            "Intervention and Appeal forces removed: " + ", ".join(removed),
            ("Empire",),
            ("*",),
            {"removed": removed},
        ),
        (
            "glory",
            "",
            "The Terrans roll 3 turns of peace before the next war",
            (),
            ("*",),
            {"peace": 3},
        ),
        ("glory", "", "Territorial exchange: no change", (), ("*",), {"removed": []}),
        (
            "glory",
            "",
            "Going home: every fleet, troop and fighter away from home returns to a home world",
            (),
            ("*",),
            {},
        ),
        (
            "glory",
            "",
            "Peace dividend: the Terran stockpile is reduced to zero",
            ("Terra",),
            ("*",),
            {},
        ),
        ("glory", "", "The glory index is set to 4 for the next war", (), ("*",), {}),
    ]
    assert [(q.code, q.origin) for q in state.queue] == [("CL", "")]


def test_an_imperial_win_makes_its_granted_forces_its_own_and_no_one_elses() -> None:
    state = at(start(), 7, 9)
    state.units.append(Unit("CA9", IMPERIAL, "CA", fleet="I1", origin="appeal"))
    state.units.append(Unit("DD9", TERRAN, "DD", fleet="T1", origin="appeal"))
    state.queue.append(Queued(IMPERIAL, "DD", 5, source="frontier", origin="intervention"))
    state.queue.append(Queued(TERRAN, "DD", 5, source="x", origin="appeal"))
    state.sides[IMPERIAL].granted = ["CA"]
    ctx = finish(state, [2, 3, 4])
    assert inter_war(ctx)[0] == (
        "glory",
        "",
        "The Empire won: it keeps its granted forces",
        (),
        ("*",),
        {},
    )
    assert [(q.side, q.origin) for q in state.queue] == [(IMPERIAL, ""), (TERRAN, "appeal")]
    assert (state.unit(IMPERIAL, "CA9").origin, state.unit(TERRAN, "DD9").origin) == ("", "appeal")


def _going_home(state: State) -> None:
    from refassist.rulesets.imperium_3m.glory import going_home

    going_home(
        TurnContext(
            state=state,
            dice=Dice.scripted([]),
            rules=RULESET.rules_with_defaults({}),
            orders={s: no_orders(state.player_of(s), s, state.turn) for s in SIDES},
        )
    )


def test_going_home_without_home_worlds_prefers_a_world_then_an_outpost() -> None:
    state = start()
    for code in ("DIN1", "GAS1", "ISH1"):
        state.map.planets[code].owner = TERRAN  # every Imperial home world lost
    _going_home(state)
    assert [state.fleet(f).system for f in ("I1", "I2", "I3")] == ["URU", "KIS", "KIS"]
    state = start()
    for code in ("DIN1", "GAS1", "ISH1"):
        state.map.planets[code].owner = TERRAN
    tau = state.map.planets["TAU2"]
    tau.owner, tau.marker = IMPERIAL, "World"
    _going_home(state)
    assert [state.fleet(f).system for f in ("I1", "I2", "I3")] == ["TAU", "TAU", "TAU"]


def test_going_home_goes_on_past_a_side_with_nowhere_and_a_fleet_of_monitors() -> None:
    """A side holding no planet at all stays where it is; the other side still goes home. A
    fleet of monitors only stays (monitors never leave their system), and the fleets after it
    still go."""
    state = start()
    for planet in state.map.planets.values():
        if planet.owner == TERRAN:
            planet.owner, planet.marker = "", ""
    state.fleet("T1").system, state.fleet("I1").system = "TAU", "TAU"
    state.fleets.append(Fleet("I0", IMPERIAL, "PRO"))
    state.units.append(Unit("M9", IMPERIAL, "M", fleet="I0"))
    _going_home(state)
    assert (state.fleet("T1").system, state.fleet("I1").system) == ("TAU", "GAS")
    assert state.fleet("I0").system == "PRO" and state.unit(IMPERIAL, "M9").fleet == "I0"


def test_troops_abroad_land_on_the_nearest_home_world_that_takes_them() -> None:
    state = start()
    for uid, planet in (("RT91", "KIS1"), ("RT92", "URU1")):
        state.units.append(
            Unit(uid, IMPERIAL, "RT", planet=planet, hex=2, strength=4, reduced_strength=2)
        )
    _going_home(state)
    placed = [
        (state.unit(IMPERIAL, u).planet, state.unit(IMPERIAL, u).hex) for u in ("RT91", "RT92")
    ]
    assert placed == [("ISH1", 0), ("DIN1", 0)]


def test_the_end_of_the_mandate_the_truce_and_the_campaign_as_everyone_is_told() -> None:
    state = mandate_state(mark=5)
    finish(state, [])
    ctx = finish(state, [])
    [mandate] = [e for e in ctx.events if e.kind == "mandate"]
    assert (mandate.phase, mandate.location, mandate.text, mandate.players, mandate.visible_to) == (
        "glory",
        "",
        "Glory is 5, not above 5: the Mandated Offensive forces are withdrawn (CA8, CA9)",
        ("Empire",),
        ("*",),
    )
    assert state.sides[IMPERIAL].mandate_glory == 0

    truce = finish(at(start(), 10, 5), [6, 6, 6])
    assert [e.text for e in truce.events if e.kind == "war end"] == [
        "The First Interstellar War ends in a truce (glory 5, war turn 10)"
    ]

    state = at(start(), 6, 0)
    for code in ("DIN1", "GAS1", "ISH1"):
        state.map.planets[code].owner = TERRAN
    ended = finish(state, [])
    assert [
        (e.phase, e.location, e.text, e.visible_to, dict(e.data))
        for e in ended.events
        if e.kind == "game end"
    ] == [
        (
            "glory",
            "",
            "Terran victory in the campaign (First Interstellar War)",
            ("*",),
            {"winner": TERRAN},
        )
    ]


def test_the_exchange_takes_an_outposts_pd_and_monitors_only_and_ignores_enemy_fleets() -> None:
    """Kish cut off: its Outpost goes with the Imperial PD on it and the Imperial monitors in
    the system, nothing else (an Imperial troop there goes home; a Terran ship there stays).
    Uruk, with a Terran fleet in its own system, is still connected: enemy fleets are ignored.
    Work paid on an upgrade dies with the marker."""
    state = at(start(), 10, 5)
    state.map.routes = [r for r in state.map.routes if "KIS" not in (r.a, r.b)]
    kis = state.map.planets["KIS1"]
    kis.upgrade_paid = 4
    state.units.append(
        Unit("RT91", IMPERIAL, "RT", planet="KIS1", hex=1, strength=4, reduced_strength=2)
    )
    state.fleets.append(Fleet("I9", IMPERIAL, "KIS"))
    state.units.append(Unit("M1", IMPERIAL, "M", fleet="I9"))
    state.fleets.append(Fleet("T9", TERRAN, "KIS"))
    state.units.append(Unit("DD9", TERRAN, "DD", fleet="T9"))
    state.fleets.append(Fleet("T8", TERRAN, "URU"))
    state.units.append(Unit("DD8", TERRAN, "DD", fleet="T8"))
    pd = [u.id for u in state.units_on("KIS1") if u.code == "PD"]
    assert pd
    acb = state.map.planets["ACB"]
    acb.disputed, acb.upgrade_paid = True, 2
    ctx = finish(state, [1, 1, 1])
    assert (acb.marker, acb.upgrade_paid) == ("", 0)
    assert (kis.owner, kis.marker, kis.upgrade_paid) == ("", "", 0)
    assert all(state.unit(IMPERIAL, u) is None for u in pd) and state.unit(IMPERIAL, "M1") is None
    assert state.unit(IMPERIAL, "RT91") is not None and state.unit(TERRAN, "DD9") is not None
    assert state.map.planets["URU1"].marker == "Outpost"
    [exchange] = [e for e in ctx.events if e.text.startswith("Territorial exchange")]
    lost = ["Terran World Alpha Centauri B (disputed)", "Imperial Outpost Kish 1"]
    assert exchange.text == "Territorial exchange: " + ", ".join(lost) + " removed"
    assert dict(exchange.data) == {"removed": lost}


def test_every_withdrawn_fleet_sets_down_all_it_can_no_longer_carry() -> None:
    """Fleet I3 loses two cruisers and carries on untouched; fleet I40 loses both transports,
    so both troops they carried are set down on Dingir 1, one after the other."""
    state = mandate_state(mark=5)
    state.fleets.append(Fleet("I40", IMPERIAL, "DIN"))
    state.units += [
        Unit("TR40", IMPERIAL, "TR", fleet="I40", origin="mandate"),
        Unit("TR41", IMPERIAL, "TR", fleet="I40", origin="mandate"),
        Unit("RT40", IMPERIAL, "RT", strength=4, reduced_strength=2, fleet="I40"),
        Unit("RT41", IMPERIAL, "RT", strength=4, reduced_strength=2, fleet="I40"),
    ]
    finish(state, [])
    ctx = finish(state, [])
    placed = [
        (state.unit(IMPERIAL, u).fleet, state.unit(IMPERIAL, u).planet) for u in ("RT40", "RT41")
    ]
    assert placed == [("", "DIN1"), ("", "DIN1")]
    [event] = [e for e in ctx.events if e.kind == "mandate"]
    assert event.data["cargo"] == ["RT41 set down on Dingir 1", "RT40 set down on Dingir 1"]
