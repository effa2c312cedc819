"""Tactical battles (rule VIII) with fixed dice, traced by hand on the shipped tables: laser
10 7 5 5 5 4 3 2 1 by range, combat columns 1/3 1/2 1/1 2/1 3/1 4/1 5/1, rows (die 0 or less,
1..6) R R R R R RT RT / R R R R RT RT D / R R R RT RT D D / R R RT RT D D X / R RT RT D D X X /
RT RT D D X X X / RT D D X X X X; a corvette moves 6, laser 1, protection 2."""

from __future__ import annotations

import pytest

from refassist.dice import Dice
from refassist.rulesets.millenium.fire import resolve_shot, shot_modifier
from refassist.rulesets.millenium.rules import complete
from refassist.rulesets.millenium.state import ALIEN, EMPIRE
from refassist.rulesets.millenium.tactical import (
    Battle,
    Piece,
    TacticalOrders,
    _apply,
    _land,
    fight,
    fire,
    planet_surrender,
    refused_before,
    remove_losses,
    set_up,
    wants_to_leave,
)

from .situations import TABLES, ships

RULES = complete()
ORDERS = {ALIEN: TacticalOrders(), EMPIRE: TacticalOrders()}


def modifier(**kw: object) -> tuple[int, list[str]]:
    base = dict(
        reduced=False,
        damaged=False,
        destroyed=False,
        weapon="laser",
        counter="",
        laser_targets=1,
        both_systems_targets=0,
        rules=RULES,
    )
    return shot_modifier(**{**base, **kw})  # type: ignore[arg-type]


def test_the_die_modifiers_a_to_g() -> None:
    assert modifier() == (0, [])  # g: one target
    assert modifier(reduced=True, damaged=True, destroyed=True) == (-1, ["a"])  # not cumulative
    assert modifier(damaged=True) == (-1, ["b"])
    assert modifier(destroyed=True) == (-1, ["c"])
    assert modifier(weapon="missile", counter="X") == (-1, ["dX"])
    assert modifier(weapon="missile", counter="Y", damaged=True) == (-3, ["b", "dY"])  # d adds
    assert modifier(laser_targets=2) == (-1, ["e"])
    assert modifier(laser_targets=2, both_systems_targets=2) == (-2, ["f"])
    three = complete({"double_system_targets": 3})
    assert modifier(laser_targets=1, both_systems_targets=2, rules=three) == (0, [])
    assert modifier(laser_targets=2, both_systems_targets=3, rules=three) == (-2, ["f"])


def test_a_damaged_ship_fires_back_at_full_strength_in_defensive_fire() -> None:
    """Modifier b (and a, c) is "-1 au résultat du dé en tir offensif": a damaged corvette at
    range 2 (laser 7 against protection 2: 3/1) fires its defensive shot with no modifier, die 3
    -> D (not RT, as the die 2 of a -1 would read), and its offensive shot at -1, die 3 -> RT."""
    assert modifier(damaged=True, offensive=False) == (0, [])
    assert modifier(reduced=True, destroyed=True, offensive=False) == (0, [])
    battle = set_up(
        TABLES,
        ALIEN,
        EMPIRE,
        [("K", ships("corvette"))],
        [("A", ships("corvette"))],
        [],
        "",
        ORDERS,
    )
    (alien,), (empire,) = battle.ships_of(ALIEN), battle.ships_of(EMPIRE)
    alien.hex, empire.hex, empire.damaged = (-2, 0), (0, 0), True
    fire(battle, TABLES, EMPIRE, ORDERS[EMPIRE], "defensive", Dice.scripted([3]), RULES)
    fire(battle, TABLES, EMPIRE, ORDERS[EMPIRE], "offensive", Dice.scripted([3]), RULES)
    assert [(s.phase, s.column, s.die, s.modifier, s.why, s.result) for s in battle.shots] == [
        ("defensive", "3/1", 3, 0, (), "D"),
        ("offensive", "3/1", 3, -1, ("b",), "RT"),
    ]


@pytest.mark.parametrize(
    ("weapon", "distance", "protection", "die", "mod", "kind", "expected"),
    [
        ("laser", 1, 2, 1, 0, "corvette", (10, "5/1", "D")),  # 10:2 = 5/1, row 1
        ("laser", 1, 2, 1, -1, "corvette", (10, "5/1", "RT")),  # row 0 or less
        ("laser", 1, 2, 4, -4, "corvette", (10, "5/1", "RT")),  # -4 still reads row 0
        ("laser", 3, 3, 4, 0, "fregate", (5, "1/1", "RT")),  # 5:3 rounds down to 1/1
        ("laser", 9, 5, 6, 0, "vaisseau", (1, "-", "R")),  # 1:5 below 1/3
        ("laser", 10, 2, 6, 0, "corvette", (0, "-", "R")),  # beyond the last range
        ("missile", 2, 1, 6, 0, "intercepteur", (6, "-", "R")),  # missiles cannot hurt them
    ],
)
def test_one_shot_on_tab_2(
    weapon: str, distance: int, protection: int, die: int, mod: int, kind: str, expected: tuple
) -> None:
    assert (
        resolve_shot(
            TABLES,
            weapon=weapon,
            distance=distance,
            protection=protection,
            die=die,
            modifier=mod,
            target_kind=kind,
        )
        == expected
    )


def test_damage_twice_destroys_and_destruction_takes_the_whole_hex() -> None:
    battle = set_up(
        TABLES, ALIEN, EMPIRE, [], [("A", ships("corvette", "fregate"))], [], "", ORDERS
    )
    corvette, fregate = battle.ships_of(EMPIRE)
    _apply(battle, corvette, "D")
    assert corvette.damaged and not corvette.destroyed
    _apply(battle, corvette, "D")
    assert corvette.destroyed
    fregate.hex = corvette.hex = (0, 0)
    corvette.destroyed = False
    _apply(battle, corvette, "X")
    assert corvette.destroyed and fregate.destroyed
    interceptor = Piece("i", ALIEN, "intercepteur", (3, 3))
    battle.pieces.append(interceptor)
    _apply(battle, interceptor, "D")
    assert interceptor.destroyed  # one damage destroys an interceptor


def test_a_duel_fought_round_by_round() -> None:
    """One corvette attacks another in open space.  Round 1 (attacker offensive): it enters on
    the W edge at -7,0 (1 point) and closes 5 hexes to -2,0, range 2.  Defensive fire: 7:2 =
    3/1, die 1 -> RT.  Offensive fire at -1 (a): 3/1, die 5-1 = 4 -> D.  Round 2 (defender
    offensive): the damaged corvette closes to -1,0, range 1.  Defensive fire: 10:2 = 5/1, die
    1 -> D, its second: destroyed.  Offensive fire: it fires back at -1 (b, c, once): die 6-1 = 5
    -> X.  Both are gone."""
    battle = set_up(
        TABLES,
        ALIEN,
        EMPIRE,
        [("A", ships("corvette"))],
        [("B", ships("corvette"))],
        [],
        "",
        ORDERS,
    )
    dice = Dice.scripted([1, 5, 1, 6])
    fight(battle, TABLES, ORDERS, dice, RULES)
    assert battle.round == 2
    assert [
        (s.round, s.phase, s.firer, s.distance, s.column, s.die, s.modifier, s.result)
        for s in battle.shots
    ] == [
        (1, "defensive", "B.corvette1", 2, "3/1", 1, 0, "RT"),
        (1, "offensive", "A.corvette1", 2, "3/1", 5, -1, "D"),
        (2, "defensive", "A.corvette1", 1, "5/1", 1, 0, "D"),
        (2, "offensive", "B.corvette1", 1, "5/1", 6, -1, "X"),
    ]
    assert not battle.ships_of(ALIEN) and not battle.ships_of(EMPIRE)
    assert len(dice.log) == 4


def _two_vaisseaux_before(bases: int) -> Battle:
    """Two Extraterrestrial vaisseaux (4 + 4 points) in range of planet M1 and its ``bases``
    Empire bases, with no fleet to defend it: the surrender demand's situation."""
    battle = set_up(
        TABLES,
        ALIEN,
        EMPIRE,
        [("K", ships("vaisseau", "vaisseau"))],
        [],
        [("M1", EMPIRE, bases)],
        "M1",
        ORDERS,
    )
    for p in battle.ships_of(ALIEN):
        p.hex = (-4, 0)
    return battle


def test_an_undefended_planet_is_asked_to_surrender_once_its_bases_are_three_or_fewer() -> None:
    # Two vaisseaux (4 + 4 points) against 2 bases: 8:2 = 4/1, surrenders on 1-4.
    battle = _two_vaisseaux_before(bases=2)
    planet_surrender(battle, TABLES, Dice.scripted([6]))
    assert not battle.conquered and battle.demand_after == 2
    again = Dice.scripted([])
    planet_surrender(battle, TABLES, again)  # no new demand until another base falls
    assert again.log == []
    battle.bases_of("M1")[0].gone = True
    planet_surrender(battle, TABLES, Dice.scripted([4]))  # 8:1 -> 6/1, up to 5
    assert battle.conquered and battle.surrendered and battle.bases_left == 1


def test_a_refusal_holds_for_its_round_only_unless_a_base_falls() -> None:
    """« pendant le même tour, seulement s'il détruit une autre base »: a tactical « tour » is
    a round.  8:2 = 4/1 surrenders on 1-4.  Refused in round 4 (die 6), the same round asks
    again only once a base more falls; round 5 asks again with the same 2 bases."""
    battle = _two_vaisseaux_before(bases=2)
    battle.round = 4
    planet_surrender(battle, TABLES, Dice.scripted([6]))
    none = Dice.scripted([])
    planet_surrender(battle, TABLES, none)
    assert none.log == [] and not battle.conquered
    battle.round = 5
    planet_surrender(battle, TABLES, Dice.scripted([6]))  # asked again: refused again
    assert (battle.demand_after, battle.demand_round, battle.conquered) == (2, 5, False)
    battle.round = 6
    planet_surrender(battle, TABLES, Dice.scripted([4]))
    assert battle.conquered and battle.surrendered and battle.bases_left == 2


def test_the_strategic_refusal_counts_as_round_1s() -> None:
    """Attacked after refusing the strategic demand with 3 bases: round 1 asks again only if a
    base has fallen (8:2 = 4/1, die 5 refuses), and round 2 may ask in any case."""
    battle = _two_vaisseaux_before(bases=3)
    refused_before(battle, 3)
    battle.round = 1
    none = Dice.scripted([])
    planet_surrender(battle, TABLES, none)
    assert none.log == []
    battle.bases_of("M1")[0].gone = True
    planet_surrender(battle, TABLES, Dice.scripted([5]))
    assert (battle.demand_after, battle.demand_round) == (2, 1)
    battle.round = 2
    planet_surrender(battle, TABLES, Dice.scripted([4]))
    assert battle.conquered and battle.bases_left == 2


def test_a_defended_planet_never_surrenders_and_falls_only_when_its_fleet_is_gone() -> None:
    battle = set_up(
        TABLES,
        ALIEN,
        EMPIRE,
        [("K", ships("vaisseau"))],
        [("A", ships("corvette"))],
        [("M1", EMPIRE, 1)],
        "M1",
        ORDERS,
    )
    none = Dice.scripted([])
    planet_surrender(battle, TABLES, none)
    assert none.log == [] and not battle.conquered
    battle.bases_of("M1")[0].gone = True
    planet_surrender(battle, TABLES, none)
    assert not battle.conquered  # the corvette still defends it
    battle.ships_of(EMPIRE)[0].gone = True
    planet_surrender(battle, TABLES, none)
    assert battle.conquered and battle.bases_left == 0


def test_bases_ring_the_planet_and_two_planets_stand_on_their_marks() -> None:
    one = set_up(TABLES, ALIEN, EMPIRE, [], [], [("G1", EMPIRE, 6)], "G1", ORDERS)
    assert sorted(p.hex for p in one.bases_of("G1")) == sorted(
        [(-1, 1), (0, 1), (1, 0), (1, -1), (0, -1), (-1, 0)]
    )
    two = set_up(TABLES, ALIEN, EMPIRE, [], [], [("A1", EMPIRE, 2), ("A2", ALIEN, 1)], "A1", ORDERS)
    assert two.planets == {"A1": (-3, 0), "A2": (3, 0)}
    assert [p.side for p in two.bases_of("A2")] == [ALIEN]


def test_interceptors_fly_three_rounds_and_refuel_aboard() -> None:
    battle = set_up(TABLES, ALIEN, EMPIRE, [("K", ships("porte_intercepteur"))], [], [], "", ORDERS)
    carrier = battle.ships_of(ALIEN)[0]
    assert carrier.aboard == 0  # ships() builds carriers with none aboard
    flyer = Piece("K.i1", ALIEN, "intercepteur", (0, 0), carrier=carrier.key, flight=3)
    battle.pieces.append(flyer)
    remove_losses(battle)
    assert flyer.gone and flyer.destroyed  # a fourth round in flight
    back = Piece("K.i2", ALIEN, "intercepteur", (0, 0), carrier=carrier.key, flight=2)
    battle.pieces.append(back)
    carrier.damaged = True
    _land(battle, back)
    assert back.hex is None and back.refuel == 2  # two rounds aboard a damaged carrier
    remove_losses(battle)
    remove_losses(battle)
    assert back.refuel == 0 and not back.gone


def test_leaving_only_after_the_compulsory_rounds() -> None:
    battle = set_up(
        TABLES,
        ALIEN,
        EMPIRE,
        [("A", ships("corvette"))],
        [("K", ships("vaisseau"))],
        [],
        "",
        ORDERS,
    )
    losing = TacticalOrders(leave="losing")
    battle.round = 5
    assert not wants_to_leave(battle, TABLES, ALIEN, losing)
    battle.round = 6
    assert wants_to_leave(battle, TABLES, ALIEN, losing)  # 1 point against 4
    assert not wants_to_leave(battle, TABLES, EMPIRE, losing)
    assert not wants_to_leave(battle, TABLES, ALIEN, TacticalOrders(leave="never"))
    battle.leave(ALIEN)
    assert battle.over and battle.ships_of(ALIEN) == []
    assert not any(p.destroyed for p in battle.pieces)  # leaving is not dying


def test_a_defending_fleet_leaving_a_planet_leaves_its_bases_fighting() -> None:
    battle = set_up(
        TABLES,
        ALIEN,
        EMPIRE,
        [("K", ships("vaisseau"))],
        [("A", ships("corvette"))],
        [("M1", EMPIRE, 4)],
        "M1",
        ORDERS,
    )
    battle.leave(EMPIRE)
    assert not battle.over and len(battle.bases_of("M1")) == 4


def _duel(attacker: str, defender: str, planets: list | None = None, objective: str = ""):
    return set_up(
        TABLES,
        ALIEN,
        EMPIRE,
        [("A", ships(*attacker.split()))],
        [("K", ships(*defender.split()))] if defender else [],
        planets or [],
        objective,
        ORDERS,
    )


def test_who_leaves_after_the_compulsory_rounds() -> None:
    """ "apres 3 tours" leaves as soon as it may, even winning; "si perdant" only while its
    ship points (a base counting one) are below the enemy's, never at equal strength."""
    battle = _duel("corvette", "vaisseau")
    battle.round = 6
    assert wants_to_leave(battle, TABLES, EMPIRE, TacticalOrders(leave="compulsory"))
    losing = TacticalOrders(leave="losing")
    assert wants_to_leave(battle, TABLES, ALIEN, losing)  # 1 against 4
    assert not wants_to_leave(battle, TABLES, EMPIRE, losing)  # 4 against 1
    defending = _duel("vaisseau", "corvette")
    defending.round = 6
    assert wants_to_leave(defending, TABLES, EMPIRE, losing)  # the defender's 1 against 4
    even = _duel("corvette", "corvette")
    even.round = 6
    assert not wants_to_leave(even, TABLES, ALIEN, losing)  # 1 against 1
    # A planet's bases count one each for its side: a corvette (1) against two bases loses,
    # against one it is even.
    two = _duel("corvette", "", [("M1", EMPIRE, 2)], "M1")
    two.round = 6
    assert wants_to_leave(two, TABLES, ALIEN, losing)
    one = _duel("corvette", "", [("M1", EMPIRE, 1)], "M1")
    one.round = 6
    assert not wants_to_leave(one, TABLES, ALIEN, losing)


def test_a_battle_no_one_can_win_stops_after_forty_rounds() -> None:
    """Two colonisation ships (no weapon) that never leave: the attacker withdraws after
    round 40, and the log says why; no die is rolled."""
    never = {ALIEN: TacticalOrders(leave="never"), EMPIRE: TacticalOrders(leave="never")}
    battle = set_up(
        TABLES,
        ALIEN,
        EMPIRE,
        [("A", ships("colonisation"))],
        [("K", ships("colonisation"))],
        [],
        "",
        never,
    )
    dice = Dice.scripted([])
    fight(battle, TABLES, never, dice, RULES)
    assert (battle.round, battle.left) == (40, {ALIEN})
    assert [str(line) for line in battle.log[-2:]] == [
        "round 40: no side can win; the attacker withdraws",
        "round 40: the ships of the Extraterrestrial leave the battle",
    ]


def test_an_interceptor_aboard_an_undamaged_carrier_refuels_in_one_round() -> None:
    battle = set_up(TABLES, ALIEN, EMPIRE, [("K", ships("porte_intercepteur"))], [], [], "", ORDERS)
    carrier = battle.ships_of(ALIEN)[0]
    back = Piece("K.i1", ALIEN, "intercepteur", (0, 0), carrier=carrier.key, flight=2)
    battle.pieces.append(back)
    _land(battle, back)
    assert (back.hex, back.flight, back.refuel) == (None, 0, 1)
    remove_losses(battle)
    assert back.refuel == 0


def test_a_missile_meets_the_missile_protection_and_a_laser_the_laser_one() -> None:
    """With tables whose vaisseau is protected 5 against lasers and 3 against missiles (the
    shipped tables have them equal), each shot is resolved against its weapon's figure."""
    from refassist.rulesets.millenium.charts import DEFAULT_TABLES, tables_from_data
    from refassist.rulesets.millenium.tactical import fire
    from refassist.rulesets.tomlfile import read_toml

    data = read_toml(DEFAULT_TABLES, "tables")
    data["characteristics"]["vaisseau"]["missile_protection"] = 3
    tables = tables_from_data(data)
    battle = set_up(
        tables, ALIEN, EMPIRE, [("A", ships("fregate"))], [("K", ships("vaisseau"))], [], "", ORDERS
    )
    frigate = battle.ships_of(ALIEN)[0]
    target = battle.ships_of(EMPIRE)[0]
    assert target.hex is not None
    frigate.hex = (target.hex[0] - 1, target.hex[1])  # in contact
    fire(battle, tables, ALIEN, ORDERS[ALIEN], "offensive", Dice.scripted([1, 1]), RULES)
    assert sorted((s.weapon, s.defence) for s in battle.shots) == [("laser", 5), ("missile", 3)]
