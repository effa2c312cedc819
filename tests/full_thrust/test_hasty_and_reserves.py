"""Hasty jumps and reserves in the week, pinned closely (the survivors of a mutation run on
`travel.py`, docs/mutation-testing.md): a hasty jump that goes well carries on, one that fails
stops the ship with the right damage; the distance and crew modifiers; which reserves answer a
battle (their commander's, with a working drive, not landed, in range, fuelled, no obstacle,
hasty only before their drive has recharged) and what they are told."""

from __future__ import annotations

from refassist.dice import Dice
from refassist.rulesets.full_thrust.orders import FleetOrder
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import State, System

from .situations import seed_map, ship, week_orders

RULES = complete()


def events(state: State, kind: str) -> list:  # type: ignore[type-arg]
    return [e for e in state.events if e.kind == kind]


def test_a_hasty_jump_that_goes_well_carries_on() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    orders = week_orders("Ann", ANN_1=["jump C", "jump A", "jump C"])
    # C at 0.3; A at 0.3 hasty (1D6 1, fine), arrives 0.6; C at 0.6 hasty (2, fine), 0.9.
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([1, 2]), RULES).state
    cruiser = after.ship("ANN-1")
    assert (cruiser.place, cruiser.fuel, cruiser.drive) == ("C", 20 - 3 - 3 - 3, "ok")
    first, second = events(after, "hasty_jump")
    assert (first.location, second.location) == ("C", "A")
    assert first.text == "ANN-1 makes a hasty jump from C at 0.3: rolled 1, total 1, fine"
    assert (first.data["total"], first.data["modifiers"]) == (1, [])
    (week,) = events(after, "timeline")
    assert week.data["lines"][1] == "0.3-0.6 jump C to A, 3 parsecs (hasty)"
    rolls = [r for r in after.dice if r.purpose == "hasty jump, ANN-1"]
    assert [(r.phase, r.location, r.result) for r in rolls] == [
        ("travel", "C", 1),
        ("travel", "A", 2),
    ]


def test_a_failed_hasty_jump_disables_the_drive_and_stops_the_ship() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    orders = week_orders("Ann", ANN_1=["jump B", "jump D", "land"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([3]), RULES).state
    cruiser = after.ship("ANN-1")
    assert (cruiser.place, cruiser.drive, cruiser.landed) == ("B", "disabled", False)
    (week,) = events(after, "timeline")
    assert week.data["lines"][-1] == "stopped there for the week"


def test_the_distance_and_crack_modifiers_of_a_hasty_jump() -> None:
    # From 25": within 30", +2 (the largest); 1D6 1 = 3, the drive disabled.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    orders = week_orders("Ann", ANN_1=['jump B from 25"'])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([1]), RULES).state
    (hasty,) = events(after, "hasty_jump")
    assert (hasty.data["total"], hasty.data["result"]) == (3, "drive disabled")
    assert hasty.data["modifiers"] == [['within 30"', 2]]
    assert after.ship("ANN-1").place == "A"
    # Added up under hasty_proximity = sum: +1 +2 = 4, the drive destroyed.
    summed = complete({"hasty_proximity": "sum"})
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([1]), summed).state
    assert after.ship("ANN-1").drive == "destroyed"
    # A crack crew's -1: 4 - 1 = 3, disabled rather than destroyed.
    state = seed_map()
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A", crack=True)
    orders = week_orders("Ann", ANN_1=["jump B", "jump D"])
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([4]), RULES).state
    assert after.ship("ANN-1").drive == "disabled"


def battle_at_b(state: State) -> State:
    """Ann's cruiser comes to B where Bob's destroyer is, at 0.5 (deviation dice 1, 1, and
    1, 1 for each reserve that comes)."""
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "A")
    ship(state, "BOB-1", "Falchion destroyer", "Bob", "B")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["jump B"]),
        "Bob": week_orders("Bob", BOB_2=["reserve"]),
        "Cleo": week_orders("Cleo", CLE_1=["reserve"]),
    }
    return resolve_turn(state, orders, Dice.scripted([1] * 8), RULES).state


def test_only_the_sides_reserves_that_can_jump_answer_a_battle() -> None:
    # Bob's reserve at D, a parsec away, answers; Cleo's at Far is not in the battle.
    state = seed_map()
    ship(state, "BOB-2", "Bastion battleship", "Bob", "D")
    ship(state, "CLE-1", "Bastion battleship", "Cleo", "Far")
    after = battle_at_b(state)
    reserve = after.ship("BOB-2")
    # Arrived at 0.6: its drive recharges until 1.6.
    assert (reserve.place, reserve.fuel, reserve.ready_at) == ("B", 19, 16)
    assert after.ship("CLE-1").place == "Far"
    (sent,) = events(after, "reserve_sent")
    assert sent.location == "D" and sent.data["battle"] == after.battles[0].id
    assert sent.text == "Reserve BOB-2 jumps from D to the battle of B"
    (week,) = [e for e in events(after, "timeline") if e.data["unit"] == "BOB-2"]
    assert week.location == "B"
    # A reserve whose drive is disabled, or landed, or without the fuel, stays.
    for kw in ({"drive": "disabled"}, {"landed": True}, {"fuel": 0}):
        state = seed_map()
        ship(state, "BOB-2", "Bastion battleship", "Bob", "D", **kw)
        after = battle_at_b(state)
        assert after.ship("BOB-2").place == "D", kw
        assert not events(after, "reserve_sent")
    # Fuel for exactly the parsec is enough.
    state = seed_map()
    ship(state, "BOB-2", "Bastion battleship", "Bob", "D", fuel=1)
    assert battle_at_b(state).ship("BOB-2").fuel == 0


def test_a_reserve_jumps_ten_parsecs_but_not_across_an_obstacle() -> None:
    state = seed_map()
    state.systems["Rim"] = System("Rim", (11, 6))
    ship(state, "BOB-2", "Bastion battleship", "Bob", "Rim")
    assert battle_at_b(state).ship("BOB-2").place == "B"
    # Bob's cruiser comes to Ann's home A; Ann's reserve at Walled is 5 parsecs away but the
    # line crosses the dust at 0401.
    state = seed_map()
    ship(state, "BOB-1", "Claymore cruiser", "Bob", "D")
    ship(state, "ANN-2", "Bastion battleship", "Ann", "Walled")
    orders = {
        "Bob": week_orders("Bob", BOB_1=["jump A"]),
        "Ann": week_orders("Ann", ANN_2=["reserve"]),
    }
    after = resolve_turn(state, orders, Dice.scripted([1] * 4), RULES).state
    assert after.battles and after.ship("ANN-2").place == "Walled"


def test_a_reserve_jumps_hastily_only_before_its_drive_has_recharged() -> None:
    # Ready at 0.5, the battle's hour: no roll (the dice hold only the deviations).
    state = seed_map()
    ship(state, "BOB-2", "Bastion battleship", "Bob", "D", ready_at=5)
    after = battle_at_b(state)
    assert after.ship("BOB-2").place == "B" and not events(after, "hasty_jump")
    # Ready at 0.8: a hasty jump, 1D6 1, fine: it goes.
    state = seed_map()
    ship(state, "BOB-2", "Bastion battleship", "Bob", "D", ready_at=8)
    after = battle_at_b(state)
    assert after.ship("BOB-2").place == "B"
    (hasty,) = events(after, "hasty_jump")
    assert hasty.data["result"] == "fine"


def test_the_timeline_goes_on_after_an_invasion() -> None:
    state = seed_map()
    ship(state, "ANN-1", "Bastion battleship", "Ann", "A")
    ship(state, "ANN-2", "Bastion battleship", "Ann", "A")
    orders = week_orders("Ann", Force=["jump B", "invade", "jump A"])
    orders.timelines[0].unit = "Force"
    orders.fleets.append(FleetOrder("Force", ["ANN-1", "ANN-2"]))
    # 972 points, +4: 1D6 2 is 6, B surrenders at 0.5; home at once, hastily (1D6 1, fine).
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([2, 1]), RULES).state
    assert after.systems["B"].owner == "Ann"
    assert [after.ship(i).place for i in ("ANN-1", "ANN-2")] == ["A", "A"]
