"""The turn's own rules where mutation testing of resolve.py found them untested (issue 51):
the UN's ceasefire (both answers told to both players, the Index moved 20 toward the side
that complies, the game ended when both do), and the administrative segment's cities held
out of the enemy's sight.  Each exchange is resolved with fixed dice on the training
scenario (Ann's Northland, the First Player, and Bob's Sarkand), and the events a player gets
are pinned whole: phase, place, kind, text and audience are codes the reports and sheets
read, not wording."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.base import Event, PlayerSetup
from refassist.rulesets.millennium_wars import supply
from refassist.rulesets.millennium_wars.combat import Attack, Defence
from refassist.rulesets.millennium_wars.movement import Move
from refassist.rulesets.millennium_wars.orders import InformationAttack, Orders, Purchase
from refassist.rulesets.millennium_wars.resolve import open_game, resolve_turn, start_of_turn
from refassist.rulesets.millennium_wars.scenario import SpecialEvent, load_scenario
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.state import State, new_state

EVERYONE = ("*",)


def start() -> State:
    """The training scenario as it is made, Ann playing Northland and Bob Sarkand."""
    players = [PlayerSetup("Ann", "a@example.com"), PlayerSetup("Bob", "b@example.com")]
    return new_state(load_scenario(), players, "Vell", "g")


def told(turn: int, phase: str, place: str, kind: str, text: str, to: tuple[str, ...]) -> Event:
    """The event as `resolve.event` makes it: told to ``to`` and visible to them alone."""
    return Event(turn, phase, place, kind, text, to, to, {})


# -- the UN's ceasefire ---------------------------------------------------------------------------


def ceasefire(ann: str | None, bob: str | None, dice: list[int]) -> State:
    """Turn 1's ceasefire exchange with these answers (None: the player sent nothing)."""
    state = start()
    state.point = Point(1, ceasefire=True)
    orders = {
        player: Orders(player, "1-0-ceasefire", ceasefire=answer)
        for player, answer in (("Ann", ann), ("Bob", bob))
        if answer is not None
    }
    return resolve_turn(state, orders, Dice.scripted(dice), {}).state


def test_one_side_refuses_the_ceasefire_the_index_moves_20_toward_the_other() -> None:
    """The seed: "If either player refuses to comply, then shift the Political Index 20 in
    the other player's favor and continue play."  Both answers are told to both players in
    one line, each side by name, joined by "; "; play goes on with the First Player's air
    roll (3 + 0: parity, nobody examines the enemy)."""
    northland = ceasefire("accept", "refuse", [3])
    assert northland.political_index == 70 and not northland.finished
    assert northland.point == Point(1)
    assert northland.events[0] == told(
        1,
        "events",
        "",
        "ceasefire",
        "The UN's ceasefire: Northland accepts; Sarkand refuses",
        EVERYONE,
    )
    assert [e.kind for e in northland.events] == ["ceasefire", "air"]
    # The other way round: toward Sarkand, the Second Player (50 - 20).
    sarkand = ceasefire("refuse", "accept", [3])
    assert sarkand.political_index == 30 and not sarkand.finished
    assert sarkand.events[0].text == "The UN's ceasefire: Northland refuses; Sarkand accepts"


def test_both_refuse_the_ceasefire_nothing_happens() -> None:
    """Bob sends nothing, which refuses; Ann refuses in writing: no effect on the Index."""
    state = ceasefire("refuse", None, [3])
    assert state.political_index == 50 and not state.finished
    assert state.events[0] == told(
        1,
        "events",
        "",
        "ceasefire",
        "The UN's ceasefire: Northland refuses; Sarkand refuses",
        EVERYONE,
    )


def test_both_accept_the_ceasefire_the_game_ends_and_both_are_told() -> None:
    """ "If both players comply, then the game immediately comes to an end and both players
    check for Victory": Northland holds 0205 and 0503 (5 + 2), Sarkand 0906 and 1005 (2 + 5),
    a draw.  The end is an event of its own in the "end" phase, for both, and no air roll
    follows (no dice are given: one would raise)."""
    state = ceasefire("accept", "accept", [])
    end = "The game ends (both sides accepted the UN's ceasefire): a draw, 7 objective points each"
    assert state.finished == end
    assert state.political_index == 50
    assert state.events == [
        told(
            1,
            "events",
            "",
            "ceasefire",
            "The UN's ceasefire: Northland accepts; Sarkand accepts",
            EVERYONE,
        ),
        told(1, "end", "", "game_over", end, EVERYONE),
    ]


# -- the administrative segment ------------------------------------------------------------------


def test_a_city_held_out_of_the_enemys_sight() -> None:
    """N-1AR stands in Kesh (1005, a city of Sarkand) at the end of turn 1, with every
    Sarkand unit far from it and the house rule ``see_home`` off, so Sarkand does not see the
    city: the Index moves 1 toward Northland (50 to 51).  Ann is told which unit holds which
    city; Bob only that a unit of Northland holds a city of his (the Index is public), with
    no place.  Northland also learns that the objective Kesh is now its own; Sarkand, who
    does not see it, is not told.  The last exchange of turn 1 (Sarkand's reaction of the
    Second Player's second impulse) without orders; turn 2 opens with d66 54 (no event) and
    an air roll of 3 (parity)."""
    state = start()
    state.point = Point(1, 2, 2, True)
    state.unit("N-1AR").hex = "1005"
    for uid, hex_ in (
        ("S-4", "1208"),
        ("S-1", "1208"),
        ("S-HQ", "1108"),
        ("S-CY", "1108"),
        ("S-3", "1207"),
        ("S-2", "1207"),
    ):
        state.unit(uid).hex = hex_
    after = resolve_turn(state, {}, Dice.scripted([5, 4, 3]), {"see_home": False}).state
    assert after.political_index == 51
    assert after.held["1005"] == "Northland"
    assert [e for e in after.events if e.phase == "administration"] == [
        told(
            1,
            "administration",
            "1005",
            "city_held",
            "N-1AR holds Kesh: the Index moves 1 toward Northland",
            ("Ann",),
        ),
        told(
            1,
            "administration",
            "",
            "city_held",
            "A unit of Northland holds a city of Sarkand: the Index moves 1 toward Northland",
            ("Bob",),
        ),
        told(
            1,
            "administration",
            "1005",
            "objective",
            "The objective 1005 Kesh is held by Northland",
            ("Ann",),
        ),
    ]
    assert after.point == Point(2)


# -- the random events -----------------------------------------------------------------------------

VOLUNTEERS = (
    "Volunteers from Northland's allies reach the front: the Index moves 5 toward Northland."
)
TELEVISION = (
    "Sarkand's state television shows burning villages in the Gap: the Index moves 5 toward "
    "Sarkand."
)
NO_EFFECT = " (no effect: the Index is not in its band)"


@pytest.mark.parametrize(
    ("dice", "index", "moved", "result", "said", "event"),
    [
        # World Opinion Favors Underdog: "67 or more, then subtract 10"; "33 or less, add 10".
        ([3, 1], 67, 57, "world opinion", ": the Index is 57", "world opinion"),
        ([3, 2], 66, 66, "world opinion", ": the Index is 66", "world opinion"),
        ([3, 3], 33, 43, "world opinion", ": the Index is 43", "world opinion"),
        ([3, 3], 34, 34, "world opinion", ": the Index is 34", "world opinion"),
        ([3, 3], 95, 85, "world opinion", ": the Index is 85", "world opinion"),
        # Variable political situation: the First Player's die minus the Second's.
        (
            [2, 5, 2, 6],
            50,
            46,
            "variable politics",
            ": 2 - 6, the Index is 46",
            "variable politics",
        ),
        (
            [2, 6, 6, 1],
            97,
            100,
            "variable politics",
            ": 6 - 1, the Index is 100",
            "variable politics",
        ),
        # The scenario's own events: 5 toward Northland, 5 toward Sarkand, nothing.
        ([4, 1], 50, 55, "scenario event 1", f": {VOLUNTEERS}", "scenario event 1"),
        ([4, 6], 50, 45, "scenario event 2", f": {TELEVISION}", "scenario event 2"),
        (
            [5, 3],
            50,
            50,
            "scenario event 3",
            ": A storm closes the sea lanes: nothing else happens.",
            "scenario event 3",
        ),
        # Rallies and protests apply only in their band (67-100 or 1-33), else no event.
        ([1, 3], 67, 67, "first rally", "", "first rally"),
        ([1, 3], 66, 66, "first rally", NO_EFFECT, "no event"),
        ([1, 4], 33, 33, "first protests", "", "first protests"),
        ([1, 4], 34, 34, "first protests", NO_EFFECT, "no event"),
        ([1, 4], 0, 0, "first protests", NO_EFFECT, "no event"),
        ([1, 5], 1, 1, "second rally", "", "second rally"),
        ([1, 5], 67, 67, "second rally", NO_EFFECT, "no event"),
        ([1, 6], 100, 100, "second protests", "", "second protests"),
        ([1, 6], 33, 33, "second protests", NO_EFFECT, "no event"),
        ([6, 6], 50, 50, "no event", "", "no event"),
    ],
)
def test_each_random_event_as_the_seed_reads(
    dice: list[int], index: int, moved: int, result: str, said: str, event: str
) -> None:
    """Turn 2's random event with the Index at ``index``: the Index after it, the event the
    turn keeps (a rally or protests out of its band is no event), and the line both players
    read, pinned whole with the roll and the result it carries."""
    state = start()
    state.point = Point(2)
    state.political_index = index
    rolled = Dice.scripted(dice)
    events = start_of_turn(state, rolled)
    assert [(r.phase, r.location) for r in rolled.log] == [("events", "")] * len(dice)
    roll = dice[0] * 10 + dice[1]
    assert events == [
        Event(
            2,
            "events",
            "",
            "random_event",
            f"Random event: d66 {roll}, {result}{said}",
            EVERYONE,
            EVERYONE,
            {"roll": roll, "result": result},
        )
    ]
    assert state.political_index == moved and state.event == event
    assert state.point == Point(2) and not state.bad_weather


def test_a_scenario_event_the_scenario_lacks_does_nothing() -> None:
    """d66 42, Scenario Event #1, in a scenario without it."""
    state = start()
    state.point = Point(3)
    state.scenario.events.clear()
    events = start_of_turn(state, Dice.scripted([4, 2]))
    assert [e.text for e in events] == [
        "Random event: d66 42, scenario event 1: the scenario has none"
    ]
    assert state.political_index == 50


def test_the_uns_ceasefire_opens_an_exchange_of_answers() -> None:
    """d66 12: "Both players write down in secret whether or not they plan to comply": the
    game turn opens with the ceasefire exchange, before any impulse."""
    state = start()
    state.point = Point(4)
    events = start_of_turn(state, Dice.scripted([1, 2]))
    assert events == [
        Event(
            4,
            "events",
            "",
            "random_event",
            "Random event: d66 12, ceasefire: both players answer whether they comply",
            EVERYONE,
            EVERYONE,
            {"roll": 12, "result": "ceasefire"},
        )
    ]
    assert state.point == Point(4, ceasefire=True) and state.point.key == "4-0-ceasefire"


# -- the end of a player turn ----------------------------------------------------------------------


def test_recovery_and_c4i_at_the_end_of_a_player_turn() -> None:
    """The last exchange of Northland's player turn (Sarkand's reaction of impulse 3), no
    orders.  Three disrupted Northland units roll to recover, 4 or more after the modifier
    (+1 outside an enemy zone of control, -1 in desert or glacier), in the order of the
    units: N-1AR at 0303 (plain, no zone: +1) rolls 3, 4: recovers; N-2MI at 1104 (desert,
    next to S-1 and S-5: -1) rolls 4, 3: stays disrupted; N-3LI at 0804 (plain, next to S-3:
    +0) rolls 4: recovers.  Each line is told to Ann alone, at the unit's hex, with its die.
    Northland's C4I, down to 2, recovers one level to its starting 3, told to both.  Then
    Sarkand's player turn opens with its air roll (3: parity)."""
    state = start()
    state.point = Point(1, 1, 3, True)
    for uid, hex_ in (("N-1AR", "0303"), ("N-2MI", "1104"), ("N-3LI", "0804")):
        state.unit(uid).hex = hex_
        state.unit(uid).disrupted = True
    state.first.c4i = 2
    after = resolve_turn(state, {}, Dice.scripted([3, 4, 4, 3]), {}).state

    def recovery(hex_: str, text: str, roll: int) -> Event:
        return Event(1, "recovery", hex_, "recovery", text, ("Ann",), ("Ann",), {"roll": roll})

    assert [e for e in after.events if e.phase == "recovery"] == [
        recovery("0303", "N-1AR recovers (1D6 3 + 1)", 3),
        recovery("1104", "N-2MI stays disrupted (1D6 4 - 1)", 4),
        recovery("0804", "N-3LI recovers (1D6 4 + 0)", 4),
        told(1, "recovery", "", "c4i", "Northland's C4I recovers to 3", EVERYONE),
    ]
    assert [after.unit(u).disrupted for u in ("N-1AR", "N-2MI", "N-3LI")] == [False, True, False]
    assert after.first.c4i == 3 and after.second.c4i == 2
    assert after.point == Point(1, 2)
    assert [e.kind for e in after.events] == ["recovery"] * 3 + ["c4i", "air"]
    # Recovery rolls are logged in their phase at the unit's hex.
    assert [(r.phase, r.location) for r in after.dice[:3]] == [
        ("recovery", "0303"),
        ("recovery", "1104"),
        ("recovery", "0804"),
    ]


def test_a_c4i_level_at_its_start_does_not_recover() -> None:
    """At the end of Sarkand's player turn 2 its C4I stands at its start (2): it does not
    move and nothing is told.  Turn 3 follows (d66 54, no event; air 3)."""
    state = start()
    state.point = Point(2, 2, 2, True)
    after = resolve_turn(state, {}, Dice.scripted([5, 4, 3]), {}).state
    assert after.second.c4i == 2 and after.point == Point(3)
    assert not [e for e in after.events if e.kind == "c4i"]


# -- the impulse and reaction sheets -------------------------------------------------------------


def test_moves_made_and_cancelled_and_the_reaction_skipped() -> None:
    """Ann's first impulse: N-2MI moves to 0504 (half a movement point by road); N-3LI's and
    N-HT's moves cost more than their speeds and are cancelled.  Nothing is attacked and no
    Sarkand unit sees 0504: no reaction sheet.  Each player is told why in an event of the
    "reaction" phase carrying the skipped step (Bob's also the reason for the referee's
    notes), and the summary counts the moves, the cancelled ones and the one skipped
    exchange.  The next exchange is Ann's second impulse."""
    state = start()
    ann = Orders(
        "Ann",
        "1-1-1",
        moves=[
            Move("N-2MI", ["0504"]),
            Move("N-3LI", ["0603", "0703", "0803", "0903"]),
            Move("N-HT", ["0405", "0505", "0605", "0705", "0805"]),
        ],
    )
    done = resolve_turn(state, {"Ann": ann}, Dice.scripted([]), {})
    why = "no attack on its units, and no enemy move in its sight"
    assert done.events == [
        Event(
            1,
            "movement",
            "0504",
            "move",
            "N-2MI moves to 0504",
            ("Ann",),
            ("Ann",),
            {"unit": "N-2MI", "spent": "1/2"},
        ),
        told(
            1,
            "movement",
            "",
            "order_cancelled",
            "N-3LI's move is cancelled: the move costs 4 movement points by 0703; N-3LI's "
            "speed is 3",
            ("Ann",),
        ),
        told(
            1,
            "movement",
            "",
            "order_cancelled",
            "N-HT's move is cancelled: the move costs 8 movement points by 0705; N-HT's speed is 7",
            ("Ann",),
        ),
        Event(
            1,
            "reaction",
            "",
            "exchange_skipped",
            f"No reaction sheet for Sarkand this impulse: {why}",
            ("Bob",),
            ("Bob",),
            {"step": "1-1-1r", "why": f"Sarkand's reaction: {why}"},
        ),
        Event(
            1,
            "reaction",
            "",
            "exchange_skipped",
            "No reaction sheet this impulse",
            ("Ann",),
            ("Ann",),
            {"step": "1-1-1r"},
        ),
    ]
    assert done.summary == "1 move, 2 moves cancelled, 1 exchange skipped"
    assert done.state.point == Point(1, 1, 2)
    assert done.state.unit("N-2MI").ops_complete and not done.state.unit("N-3LI").ops_complete


def test_a_move_stopped_an_attack_declared_then_a_reserve_reacts_and_the_attack_is_fought() -> None:
    """Ann's first impulse: N-1AR's road move stops at 0804, in S-3's zone of control (0904
    cannot follow), and N-HT (set at 0805 by hand) attacks S-3 at 0905: Bob gets his
    reaction sheet and the attack waits for it, as the summary says.  In the reaction S-5, a
    reserve, moves to 1002 (an event of the "reaction" phase, Bob's alone); then the Raid,
    5 to 4, 1/1, -1 for N-HT out of supply: 1/2, die 2: A1, N-HT disrupted, told to both.
    The units that moved or attacked are Ops Complete."""
    state = start()
    state.unit("N-HT").hex = "0805"
    ann = Orders(
        "Ann",
        "1-1-1",
        moves=[Move("N-1AR", ["0403", "0504", "0604", "0704", "0804", "0904"])],
        attacks=[Attack(["N-HT"], "0905", "raid")],
    )
    first = resolve_turn(state, {"Ann": ann}, Dice.scripted([]), {})
    assert first.events == [
        Event(
            1,
            "movement",
            "0804",
            "move",
            "N-1AR stops at 0804: 0804 is in an enemy zone of control: the move ends there "
            "(0904 cannot follow)",
            ("Ann",),
            ("Ann",),
            {"unit": "N-1AR", "spent": "7/2"},
        ),
    ]
    assert first.summary == "1 move, 1 attack declared, fought after the reaction"
    assert first.state.point == Point(1, 1, 1, True)
    bob = Orders("Bob", "1-1-1r", moves=[Move("S-5", ["1002"])])
    second = resolve_turn(first.state, {"Bob": bob}, Dice.scripted([2]), {})
    assert second.events[0] == Event(
        1,
        "reaction",
        "1002",
        "move",
        "S-5 moves to 1002",
        ("Bob",),
        ("Bob",),
        {"unit": "S-5", "spent": "1"},
    )
    assert [(e.phase, e.location, e.kind, e.text, e.visible_to) for e in second.events[1:]] == [
        (
            "combat",
            "0905",
            "attack",
            "Northland attacks 0905 (Raid): 5 to 4: 1/1, -1 attacker out of supply: 1/2; die 2: "
            "A1; N-HT is disrupted",
            EVERYONE,
        ),
    ]
    assert second.summary == "1 move, 1 attack fought"
    after = second.state
    assert after.point == Point(1, 1, 2) and after.pending == []
    assert all(after.unit(u).ops_complete for u in ("N-1AR", "N-HT", "S-5"))
    assert after.unit("N-HT").disrupted


def test_an_attack_void_is_told_to_the_attacker_and_counted_as_none_fought() -> None:
    """S-3 leaves 0905 (by hand, as a reserve might) before the attack on it is fought: the
    attack is void, told to Ann alone at 0905 in the combat phase; the summary says no attack
    was fought, and N-1AR, which neither moved nor fought, is not Ops Complete."""
    state = start()
    state.unit("N-1AR").hex = "0804"
    ann = Orders("Ann", "1-1-1", attacks=[Attack(["N-1AR"], "0905", "raid")])
    state = resolve_turn(state, {"Ann": ann}, Dice.scripted([]), {}).state
    state.unit("S-3").hex = "1006"
    done = resolve_turn(state, {}, Dice.scripted([]), {})
    assert done.events == [
        told(
            1,
            "combat",
            "0905",
            "attack_void",
            "The attack on 0905 does not take place: there is no enemy land unit in 0905 to attack",
            ("Ann",),
        ),
    ]
    assert done.summary == "0 moves, 0 attacks fought"
    assert not done.state.unit("N-1AR").ops_complete


# -- the air superiority roll ----------------------------------------------------------------------


def air(text: str, roll: int, result: str) -> Event:
    """The air superiority event of turn 1, told to both."""
    return Event(1, "air", "", "air", text, EVERYONE, EVERYONE, {"roll": roll, "result": result})


@pytest.mark.parametrize(
    ("modifier", "die", "rules", "text", "result", "holder", "c4i"),
    [
        # Dominance costs the loser one C4I level (Sarkand 2 to 1, Northland 3 to 2).
        (
            1,
            6,
            {"air_defence": "none"},
            "1D6 6 +1: first dominance; Sarkand's C4I falls to 1",
            "first dominance",
            "Northland",
            (3, 1),
        ),
        (
            -1,
            1,
            {"air_defence": "none"},
            "1D6 1 -1: second dominance; Northland's C4I falls to 2",
            "second dominance",
            "Sarkand",
            (2, 2),
        ),
        (
            0,
            5,
            {"air_defence": "none"},
            "1D6 5 +0: first superiority",
            "first superiority",
            "Northland",
            (3, 2),
        ),
        (
            0,
            2,
            {"air_defence": "none"},
            "1D6 2 +0: second superiority",
            "second superiority",
            "Sarkand",
            (3, 2),
        ),
        (0, 3, {}, "1D6 3 +0: parity", "parity", "", (3, 2)),
        # Air Defense (ours, on by default): Sarkand's level takes a 6 down to 5, Northland's
        # a 2 up to parity; the line gives the total after it.
        (
            0,
            6,
            {},
            "1D6 6 +0, 5 after Air Defense: first superiority",
            "first superiority",
            "Northland",
            (3, 2),
        ),
        (0, 2, {}, "1D6 2 +0, 3 after Air Defense: parity", "parity", "", (3, 2)),
        # The scenario's modifier counts before Air Defense: 1 + 1 = 2, up to 3 by Northland's.
        (1, 1, {}, "1D6 1 +1, 3 after Air Defense: parity", "parity", "", (3, 2)),
    ],
)
def test_the_air_roll_its_holder_and_what_dominance_costs(
    modifier: int,
    die: int,
    rules: dict[str, object],
    text: str,
    result: str,
    holder: str,
    c4i: tuple[int, int],
) -> None:
    """The First Player's air roll as the game opens (turn 1's event: d66 54, none): the
    line both read, the side holding the air (who may examine every enemy stack this player
    turn), and the C4I levels after it."""
    state = start()
    state.scenario.air_modifier = modifier
    dice = Dice.scripted([5, 4, die])
    events = open_game(state, dice, rules)
    assert events[1:] == [air(f"Air superiority: {text}", die, result)]
    # Each roll is logged in its phase (what a disputed roll is looked up by).
    assert [(r.phase, r.location) for r in dice.log] == [("events", "")] * 2 + [("air", "")]
    assert state.air == holder and state.air_level == result
    assert state.sees_all == ([holder] if holder else [])
    assert (state.first.c4i, state.second.c4i) == c4i


def test_dominance_leaves_a_c4i_of_0_at_0() -> None:
    """Sarkand's C4I already at 0 does not fall below it."""
    state = start()
    state.scenario.air_modifier = 1
    state.second.c4i = 0
    events = open_game(state, Dice.scripted([5, 4, 6]), {"air_defence": "none"})
    assert events[-1].text == "Air superiority: 1D6 6 +1: first dominance; Sarkand's C4I falls to 0"
    assert state.second.c4i == 0


def test_no_air_roll_in_bad_weather_and_none_before_a_ceasefire() -> None:
    """Bad weather (d66 34): parity without a roll, no air line.  A ceasefire (d66 11): the
    answers come first, so the game opens without the air roll."""
    state = start()
    state.air, state.sees_all = "Sarkand", ["Sarkand"]
    events = open_game(state, Dice.scripted([3, 4]))
    assert [e.kind for e in events] == ["random_event"]
    assert (state.air, state.air_level) == ("", "parity")
    state = start()
    events = open_game(state, Dice.scripted([1, 1]))
    assert [e.kind for e in events] == ["random_event"] and state.point.ceasefire


# -- the sequence and the game's end ----------------------------------------------------------


def test_the_skipped_impulses_are_told_to_both_and_the_game_ends_after_the_last_turn() -> None:
    """The house rule ``last_turn`` 2 ends the game after turn 2: at the end of Sarkand's
    second impulse (no orders, nothing to react to) its third impulse is skipped (C4I 2),
    told to both in the "sequence" phase; the administrative segment runs; then the end,
    told to both in the "end" phase, with no random event nor air roll after it (no dice
    are given).  Northland holds 0205 and 0503 (7), Sarkand 0906, 1005 and, by S-1 moved
    there by hand, the depot 0704 (10)."""
    state = start()
    state.point = Point(2, 2, 2)
    state.unit("S-1").hex = "0704"
    done = resolve_turn(state, {}, Dice.scripted([]), {"last_turn": 2})
    end = "The game ends (the game's last turn is over): Sarkand wins with 10 objective points to 7"
    why = "C4I 2 does not qualify for impulse 3"
    assert done.state.finished == end
    assert done.events[2] == Event(
        2,
        "sequence",
        "",
        "exchange_skipped",
        f"Sarkand's impulse 3 is skipped: {why}",
        EVERYONE,
        EVERYONE,
        {"step": "2-2-3", "why": f"Sarkand's impulse 3: {why}"},
    )
    assert done.events[-1] == told(2, "end", "", "game_over", end, EVERYONE)
    assert [e.kind for e in done.events[3:-1]] == ["objective"]  # Sarkand sees the depot
    assert done.state.point == Point(3)


def test_the_game_goes_on_before_its_last_turn_is_over() -> None:
    """The same end of Sarkand's player turn in turn 1 with ``last_turn`` 2: turn 2 opens
    (d66 54, no event; air 3, parity)."""
    state = start()
    state.point = Point(1, 2, 2)
    done = resolve_turn(state, {}, Dice.scripted([5, 4, 3]), {"last_turn": 2})
    assert not done.state.finished and done.state.point == Point(2)
    assert [e.kind for e in done.events][-2:] == ["random_event", "air"]


# -- the first impulse's guerrillas, reinforcements, purchases and information warfare -------


def first_impulse_orders(step: str) -> Orders:
    """Bob buys S-6 (due in turn 2) and an Air Defense level, and orders two information
    warfare attacks with S-CY, one more than the scenario allows."""
    return Orders(
        "Bob",
        step,
        purchases=[Purchase("reinforcement", "S-6", "1205"), Purchase("air defence")],
        information=[InformationAttack(["S-CY"]), InformationAttack(["S-CY"])],
    )


def sarkands_turn_2(impulse: int) -> State:
    """Sarkand's player turn of turn 2 at ``impulse``, one guerrilla waiting to be placed
    (raised by hand, 1 on the die) and 10 political points."""
    state = start()
    state.point = Point(2, 2, impulse)
    supply.raise_guerrillas(state, "Sarkand", 1)
    state.second.political_points = 10
    return state


def test_the_first_impulse_places_buys_and_attacks_by_information_in_that_order() -> None:
    """Sarkand's first impulse of turn 2, in the seed's order: the waiting guerrilla placed
    by the rule (no 'guerrilla' line: a free hex of Sarkand, 0801), the reinforcements due
    (bought, the default: S-6 only available), the purchases (S-6 for 3 points, the Air
    Defense level for 4: 10 - 7 = 3 left), then the information warfare: S-CY (2) against
    N-CY (1), +1, die 1: FB, the feedback die 4 moves the Index 4 toward Northland (54).  The
    differential is the referee's alone (nobody sees both sides' cybercadres); the result
    both players'; the attack beyond the scenario's one Bob's alone, as are the guerrilla,
    the reinforcements and the purchases."""
    done = resolve_turn(
        sarkands_turn_2(1), {"Bob": first_impulse_orders("2-2-1")}, Dice.scripted([1, 4]), {}
    )
    bob = ("Bob",)
    assert done.events[:7] == [
        told(2, "guerrillas", "", "guerrillas", "S-4-G1 (guerrillas) is placed at 0801", bob),
        told(2, "reinforcements", "", "reinforcement", "reinforcements available to buy: S-6", bob),
        told(
            2,
            "purchases",
            "",
            "purchase",
            "Sarkand buys S-6 as a reinforcement at 1205 for 3 political points",
            bob,
        ),
        told(
            2,
            "purchases",
            "",
            "purchase",
            "Sarkand buys an Air Defense level for 4 political points",
            bob,
        ),
        told(
            2,
            "information warfare",
            "",
            "information_warfare",
            "Sarkand's information warfare: S-CY (attack 2) against N-CY (defence 1): "
            "differential +1",
            (),
        ),
        told(
            2,
            "information warfare",
            "",
            "information_warfare",
            "Sarkand's information warfare, 1D6 1: FB; the Index moves 4 toward Northland",
            EVERYONE,
        ),
        told(
            2,
            "information warfare",
            "",
            "information_warfare",
            "only 1 information warfare attack(s) a player turn; the rest are not made",
            bob,
        ),
    ]
    assert [e.kind for e in done.events[7:]] == ["exchange_skipped"] * 2
    after = done.state
    assert after.political_index == 54 and after.second.political_points == 3
    assert after.unit("S-6").hex == "1205" and after.second.air_defence == 2
    assert after.unit("S-4-G1").hex == "0801" and after.placing == []


def test_free_reinforcements_arrive_and_are_not_bought() -> None:
    """The house rule ``reinforcements = "free"``: S-6 arrives on its turn, and the purchase
    of it is refused in the sheet's order, the Air Defense level still bought (10 - 4)."""
    done = resolve_turn(
        sarkands_turn_2(1),
        {"Bob": first_impulse_orders("2-2-1")},
        Dice.scripted([1, 4]),
        {"reinforcements": "free"},
    )
    assert [(e.phase, e.text) for e in done.events[1:4]] == [
        ("reinforcements", "S-6 arrives at 1205"),
        (
            "purchases",
            "no purchase of S-6: reinforcements arrive free on their turn in this game "
            "(the house rule reinforcements is 'free')",
        ),
        ("purchases", "Sarkand buys an Air Defense level for 4 political points"),
    ]
    assert done.state.second.political_points == 6


def test_a_later_impulse_places_buys_and_attacks_nothing() -> None:
    """The same sheet on Sarkand's second impulse (its C4I raised to 3 by hand, so that a
    third follows): no guerrilla, reinforcement, purchase or information warfare (no dice
    are given: a roll would raise); only the skipped reaction."""
    state = sarkands_turn_2(2)
    state.second.c4i = 3
    done = resolve_turn(state, {"Bob": first_impulse_orders("2-2-2")}, Dice.scripted([]), {})
    assert done.state.point == Point(2, 2, 3)
    assert [e.kind for e in done.events[:2]] == ["exchange_skipped"] * 2
    assert done.state.second.political_points == 10 and done.state.political_index == 50
    assert [u.id for u in done.state.placing] == ["S-4-G1"]


# -- the reserves named for the enemy's player turn ----------------------------------------------


def test_the_reserves_named_are_told_to_their_owner_whole() -> None:
    """At the end of Northland's player turn (the reaction of its third impulse, no orders)
    its latest naming, N-1AR N-2MI N-3LI, counts for the units that are not Ops Complete:
    N-2MI moved (Ops Complete, by hand) and is no reserve, said; N-4AC, a reserve of the
    scenario not named, stops being one.  Ann alone is told, in the "reserves" phase, with
    the units held; the naming is used up."""
    state = start()
    state.point = Point(1, 1, 3, True)
    state.first.reserves_named = ["N-1AR", "N-2MI", "N-3LI"]
    state.unit("N-2MI").ops_complete = True
    after = resolve_turn(state, {}, Dice.scripted([3]), {}).state
    assert after.events[0] == Event(
        1,
        "reserves",
        "",
        "reserves",
        "Northland's reserves for Sarkand's player turn: N-1AR N-3LI (N-2MI moved or attacked "
        "this player turn: no reserve)",
        ("Ann",),
        ("Ann",),
        {"units": ["N-1AR", "N-3LI"]},
    )
    assert sorted(u.id for u in after.units if u.reserve) == ["N-1AR", "N-3LI", "S-5"]
    assert after.first.reserves_named is None


def test_no_reserve_named_is_said_as_none() -> None:
    """Sarkand names no reserve ("none" on its last sheet): S-5 stops being one, and the
    line says none, with no units; the game turn then ends (d66 54, air 3)."""
    state = start()
    state.point = Point(1, 2, 2, True)
    state.second.reserves_named = []
    after = resolve_turn(state, {}, Dice.scripted([5, 4, 3]), {}).state
    line = next(e for e in after.events if e.kind == "reserves")
    assert (line.text, line.visible_to, line.data) == (
        "Sarkand's reserves for Northland's player turn: none",
        ("Bob",),
        {"units": []},
    )
    assert not after.unit("S-5").reserve and after.unit("N-4AC").reserve


# -- what each side is told of an attack ---------------------------------------------------------


def assault_into_a_full_stack(superiority: bool) -> list[Event]:
    """N-1AR and N-HT (N-HQ at 0603 keeping them in supply) assault S-3 at 0905, asking the
    one-point-a-unit political shift with 1 point for 2 units (no shift); S-3 retreats by its
    written path to 1105, where S-1 (set by hand), S-HQ and S-CY stand.  With Northland's
    air superiority (set by hand, so it sees every stack) the odds gain +1."""
    state = start()
    for uid, hex_ in {"N-1AR": "0804", "N-HT": "0805", "N-HQ": "0603", "S-1": "1105"}.items():
        state.unit(uid).hex = hex_
    if superiority:
        state.air, state.air_level, state.sees_all = "Northland", "first superiority", ["Northland"]
    attack = Attack(["N-1AR", "N-HT"], "0905", "assault", political_points=2)
    state = resolve_turn(
        state, {"Ann": Orders("Ann", "1-1-1", attacks=[attack])}, Dice.scripted([]), {}
    ).state
    state.first.political_points = 1
    bob = Orders("Bob", "1-1-1r", defence=Defence(retreat={"S-3": ["1005", "1105"]}))
    return resolve_turn(state, {"Bob": bob}, Dice.scripted([6]), {}).events


SHORT = (
    "What Sarkand was not told of the attack on 0905: Northland had only 1 of the 2 political "
    "points its shift costs (one a unit): no shift"
)
OVERSTACKED = "Sarkand's units in 1105 are overstacked and disrupted"


def test_what_one_side_alone_may_know_of_an_attack_is_told_apart() -> None:
    """11 to 4 on the Assault CRT is 2/1; a 6: DD (a reconstructed row), two hexes.  Both
    read the attack without where S-3 went (1105 is out of Northland's sight); Ann alone that
    her shift was not paid; Bob alone where S-3 retreated, and that his stack at 1105, four
    land units, is overstacked and disrupted (a combat event with no place, so as not to
    say where)."""
    assert assault_into_a_full_stack(False) == [
        Event(
            1,
            "combat",
            "0905",
            "attack",
            "Northland attacks 0905 (Assault): 11 to 4: 2/1; die 6: DD (reconstructed row); S-3 "
            "is disrupted; S-3 retreats",
            EVERYONE,
            EVERYONE,
            {
                "odds": "2/1",
                "strengths": "11 to 4",
                "shifts": [],
                "die": 6,
                "result": "DD",
                "crt": "Assault",
                "reconstructed": True,
                "eliminated": [],
                "political": {},
            },
        ),
        told(1, "combat", "0905", "attack_detail", SHORT, ("Ann",)),
        told(
            1,
            "combat",
            "0905",
            "attack_detail",
            "What Northland was not told of the attack on 0905: S-3 retreats to 1105",
            ("Bob",),
        ),
        told(1, "combat", "", "overstacked", OVERSTACKED, ("Bob",)),
    ]


def test_an_overstacked_stack_the_enemy_sees_is_told_to_both() -> None:
    """The same assault under Northland's air superiority (+1: 3/1, still DD on a 6): it sees
    every stack, so S-3's retreat to 1105 and the overstacking are told to both, and Bob
    has nothing of his own."""
    events = assault_into_a_full_stack(True)
    assert [(e.kind, e.visible_to) for e in events] == [
        ("attack", EVERYONE),
        ("attack_detail", ("Ann",)),
        ("overstacked", EVERYONE),
    ]
    assert "S-3 retreats to 1105" in events[0].text
    assert events[2] == told(1, "combat", "", "overstacked", OVERSTACKED, EVERYONE)


def attackers_stack(rules: dict[str, object]) -> list[Event]:
    """N-3LI (0804) raids S-3 (0905) asking a political shift Northland cannot pay (no
    point), at 2 to 4, 1/2, -1 out of supply: 1/3; a 1: AD, two hexes, by its written path to
    0802 (in Sarkand's home country, no Sarkand unit near), where N-1AR, N-2MI and N-HT stand
    (by hand): four land units, overstacked.  The combat's events."""
    state = start()
    for uid, hex_ in {"N-3LI": "0804", "N-1AR": "0802", "N-2MI": "0802", "N-HT": "0802"}.items():
        state.unit(uid).hex = hex_
    state.first.political_points = 0
    retreat = {"N-3LI": ["0803", "0802"]}
    attack = Attack(["N-3LI"], "0905", "raid", political_points=1, retreat=retreat)
    ann = Orders("Ann", "1-1-1", attacks=[attack])
    state = resolve_turn(state, {"Ann": ann}, Dice.scripted([]), rules).state
    return resolve_turn(state, {}, Dice.scripted([1]), rules).events


def test_the_attackers_overstacked_stack_out_of_sight_and_two_lines_of_its_own() -> None:
    """With ``see_home`` off Sarkand does not see 0802: Ann alone learns of the stack, and
    gets both lines Sarkand was not told joined in one event.  In the default rules Sarkand
    sees its own country, 0802 included, and both read of the stack."""
    events = attackers_stack({"see_home": False})
    stack = "Northland's units in 0802 are overstacked and disrupted"
    assert events[0].text.endswith("die 1: AD; N-3LI is disrupted; N-3LI retreats")
    assert events[1:] == [
        told(
            1,
            "combat",
            "0905",
            "attack_detail",
            "What Sarkand was not told of the attack on 0905: Northland had only 0 of the 1 "
            "political point its shift costs (one a unit): no shift; N-3LI retreats to 0802",
            ("Ann",),
        ),
        told(1, "combat", "", "overstacked", stack, ("Ann",)),
    ]
    assert attackers_stack({})[-1] == told(1, "combat", "", "overstacked", stack, EVERYONE)


def test_an_attack_void_does_not_stop_the_next_and_eliminations_add_to_the_lost() -> None:
    """Ann declares two attacks: N-1AR (0805) on S-2 at 0906, and N-HT (0804) by air-land on
    S-3 at 0905, whose defence is set to 1.  S-2 leaves 0906 (by hand) before the combat:
    the first attack is void, and the second is still fought: 5 to 1, 5/1, a 6: DE.  S-3 is
    eliminated and joins N-4AC (lost earlier, by hand) among the lost; the elimination moves
    the Index 1 toward Northland (51), said in the attack's line."""
    state = start()
    state.unit("N-1AR").hex = "0805"
    state.unit("N-HT").hex = "0804"
    state.unit("N-HQ").hex = "0603"
    state.unit("S-3").defence = 1
    gone = state.unit("N-4AC")
    state.units.remove(gone)
    state.lost.append(gone)
    attacks = [Attack(["N-1AR"], "0906", "raid"), Attack(["N-HT"], "0905", "air-land")]
    state = resolve_turn(
        state, {"Ann": Orders("Ann", "1-1-1", attacks=attacks)}, Dice.scripted([]), {}
    ).state
    state.unit("S-2").hex = "1107"
    done = resolve_turn(state, {}, Dice.scripted([6]), {})
    assert [(e.kind, e.location) for e in done.events] == [
        ("attack_void", "0906"),
        ("attack", "0905"),
    ]
    assert done.events[1].data["result"] == "DE"
    assert "the Index moves 1 toward Northland, to 51" in done.events[1].text
    assert [u.id for u in done.state.lost] == ["N-4AC", "S-3"]
    assert done.state.political_index == 51
    assert done.summary == "0 moves, 1 attack fought"


def test_impulses_declared_away_without_the_c4i_reading_are_skipped_for_that_reason() -> None:
    """With ``impulse_c4i`` off Sarkand (C4I 2) may take three impulses.  Its first impulse
    sheet declares no further impulse: impulses 2 and 3 are skipped because it said so, not
    because of its C4I, and both players read it.  Turn 2 follows (d66 54; air 3)."""
    state = start()
    state.point = Point(1, 2, 1)
    bob = Orders("Bob", "1-2-1", last=True)
    done = resolve_turn(state, {"Bob": bob}, Dice.scripted([5, 4, 3]), {"impulse_c4i": False})
    why = "declared no further impulse this player turn"
    assert [e for e in done.events if e.phase == "sequence"] == [
        Event(
            1,
            "sequence",
            "",
            "exchange_skipped",
            f"Sarkand's impulse {n} is skipped: {why}",
            EVERYONE,
            EVERYONE,
            {"step": f"1-2-{n}", "why": f"Sarkand's impulse {n}: {why}"},
        )
        for n in (2, 3)
    ]
    assert done.state.point == Point(2) and not done.state.last_impulse
    # The reaction of impulse 1 and impulses 2 and 3: three exchanges skipped.
    assert done.summary == "0 moves, 3 exchanges skipped"


def test_the_ceasefires_summary_is_its_line() -> None:
    """What `refassist resolve` prints after the ceasefire exchange: the answers' line."""
    state = start()
    state.point = Point(1, ceasefire=True)
    ann = Orders("Ann", "1-0-ceasefire", ceasefire="accept")
    done = resolve_turn(state, {"Ann": ann}, Dice.scripted([3]), {})
    assert done.summary == "The UN's ceasefire: Northland accepts; Sarkand refuses"


def test_an_attack_on_no_defender_is_fought_at_once_and_the_attacker_told_so() -> None:
    """Ann declares an attack on 0707, where no unit stands: nothing for Bob to react to, so
    the attack is fought at once (void), and Ann's line says her attacks are fought at once."""
    state = start()
    ann = Orders("Ann", "1-1-1", attacks=[Attack(["N-1AR"], "0707", "raid")])
    done = resolve_turn(state, {"Ann": ann}, Dice.scripted([]), {})
    assert [(e.kind, e.text, e.visible_to) for e in done.events[1:]] == [
        (
            "exchange_skipped",
            "No reaction sheet this impulse: your attacks are fought at once",
            ("Ann",),
        ),
        (
            "attack_void",
            "The attack on 0707 does not take place: there is no enemy land unit in 0707 to attack",
            ("Ann",),
        ),
    ]
    assert done.state.point == Point(1, 1, 2) and done.state.pending == []


def test_an_exchange_leaves_its_state_alone_and_keeps_the_game_turns_events() -> None:
    """`resolve_turn` works on a copy: the state given keeps its units where they stood.
    The new state's "this game turn so far" holds the earlier events of the same game turn
    (the previous exchange's), not those of an earlier game turn."""
    state = start()
    old = Event(0, "events", "", "random_event", "an event of an earlier turn", EVERYONE, EVERYONE)
    state.earlier = [old]
    ann = Orders("Ann", "1-1-1", moves=[Move("N-2MI", ["0504"])])
    first = resolve_turn(state, {"Ann": ann}, Dice.scripted([]), {}).state
    assert state.unit("N-2MI").hex == "0404" and not state.unit("N-2MI").ops_complete
    assert state.point == Point(1) and state.earlier == [old]
    second = resolve_turn(first, {}, Dice.scripted([]), {}).state
    assert second.earlier == first.events


def test_a_scenario_event_of_one_point_moves_the_index_its_way() -> None:
    """A scenario event's ``political_index`` of 1 moves the Index 1 toward the First Player
    (50 to 51), -1 toward the Second (49)."""
    for points, index in ((1, 51), (-1, 49)):
        state = start()
        state.point = Point(2)
        state.scenario.events[1] = SpecialEvent(1, "Volunteers.", points)
        start_of_turn(state, Dice.scripted([4, 1]))
        assert state.political_index == index


def test_the_variable_political_situation_logs_each_players_die() -> None:
    """The two dice of the variable political situation are logged as each player's."""
    state = start()
    dice = Dice.scripted([2, 5, 3, 1])
    start_of_turn(state, dice)
    assert [r.purpose for r in dice.log] == [
        "random event (tens)",
        "random event (units)",
        "variable politics, first",
        "variable politics, second",
    ]
    assert state.political_index == 52


def test_bad_weather_slows_the_moves_of_an_impulse() -> None:
    """In bad weather ("Reduce all Land Unit Speeds by one") N-3LI's speed 3 is 2: three
    plain hexes, 0603 0602 0601, are too far, and the move is cancelled; in fair weather it
    is made."""
    for bad, made in ((True, False), (False, True)):
        state = start()
        state.bad_weather = bad
        ann = Orders("Ann", "1-1-1", moves=[Move("N-3LI", ["0603", "0602", "0601"])])
        done = resolve_turn(state, {"Ann": ann}, Dice.scripted([]), {}).state
        assert (done.unit("N-3LI").hex == "0601") is made
        assert done.events[0].kind == ("move" if made else "order_cancelled")
