"""What each side is told when a system changes hands (section 5 and 7.2): whole events,
pinned field by field (phase, place, words, who is named, who may read it, data), so that a
changed audience or a lost detail is caught, not only a changed owner.  Scripted dice."""

from __future__ import annotations

import json
from typing import Any

from refassist.dice import Dice
from refassist.rulesets.base import Event
from refassist.rulesets.fifth_millennium import conflict
from refassist.rulesets.fifth_millennium.conflict import _ordinal
from refassist.rulesets.fifth_millennium.orders import Bombing
from refassist.rulesets.fifth_millennium.resolve import resolve_turn
from refassist.rulesets.fifth_millennium.state import Fleet
from tests.fm_states import (
    YEAR,
    count,
    events,
    facility,
    fleet_at,
    flight,
    force,
    force_at,
    move,
    one,
    orders,
    resolve,
    state,
    system,
)
from tests.test_rules_conflict import _attack


def whole(event: Event) -> dict[str, Any]:
    """Every field of an event but the turn and dice, for one equality check."""
    return {
        "phase": event.phase,
        "location": event.location,
        "kind": event.kind,
        "text": event.text,
        "players": event.players,
        "visible_to": event.visible_to,
        "data": dict(event.data),
    }


def test_a_fallen_homeworld_tells_both_and_every_neighbour_in_sight() -> None:
    """Bob's homeworld 1012 falls to Ann; Cleo at 1013 sees it.  Bob's 9 stockpiled points go
    to Ann, and his new stockpile site is his first remaining depot or construction facility
    in hex order (1014 before 1016; Cleo's depot at 1013 is hers)."""
    s = _attack(
        [force("1012", "Bob", F=1)],
        {"F": 3},
        extra_systems=[
            system("1013", "C", "Cleo"),
            system("1014", "C", "Bob"),
            system("1016", "C", "Bob"),
        ],
        players=("Ann", "Bob", "Cleo"),
        facilities=[
            facility("1016", "Bob", "CF"),
            facility("1014", "Bob", "DEPOT"),
            facility("1013", "Cleo", "DEPOT"),  # not Bob's: never his stockpile site
        ],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1013"},
    )
    s.player("Bob").stockpile = 9
    s.player("Ann").stockpile = 5
    r = resolve(s, dice=[1])  # Bob's one Fleet squadron misses
    ledger = {e.players[0]: e.data for e in events(r, "production")}
    assert ledger["Ann"]["stockpile_before"] == 14  # her 5 and Bob's 9
    assert ledger["Bob"]["stockpile_before"] == 0
    assert whole(one(r, "capture")) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "capture",
        "text": "Ann occupied 1012 World1012, taken from Bob.",
        "players": ("Ann", "Bob"),
        "visible_to": ("Ann", "Bob", "Cleo"),
        "data": {
            "hex": "1012",
            "name": "World1012",
            "from": "Bob",
            "to": "Ann",
            "captured": [],
            "destroyed": [],
            "changes": 1,
            "assault": False,
        },
    }
    assert whole(one(r, "homeworld_lost")) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "homeworld_lost",
        "text": "Bob's homeworld 1012 fell to Ann; 9 stockpiled points passed to Ann.",
        "players": ("Bob", "Ann"),
        "visible_to": ("Ann", "Bob", "Cleo"),
        "data": {"player": "Bob", "hex": "1012", "by": "Ann", "stockpile_transferred": 9},
    }
    bob = r.state.player("Bob")
    assert (bob.homeworld_lost, bob.stockpile_at) == (YEAR, "1014")
    assert events(r, "stockpile_taken") == [] and events(r, "homeworld_regained") == []
    # Cleo's homeworld, not the one that fell, is untouched.
    assert r.state.player("Cleo").homeworld_lost == 0


def test_a_homeworld_without_stockpile_says_nothing_of_points() -> None:
    s = _attack([force("1012", "Bob", F=1)], {"F": 3})
    r = resolve(s, dice=[1])
    lost = one(r, "homeworld_lost")
    assert lost.text == "Bob's homeworld 1012 fell to Ann."
    assert lost.data["stockpile_transferred"] == 0
    assert r.state.player("Bob").stockpile_at == ""  # no depot left: the (lost) homeworld


def test_a_player_who_retakes_its_homeworld_is_told_and_unrest_ends() -> None:
    """Ann held Bob's homeworld 1012 since 5000; Bob's three squadrons take it back."""
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Ann"), system("1014", "C", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1012", "Ann", F=1)],
        flights=[flight("Bob", "1014", "1012", F=3)],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1014"},
    )
    s.player("Bob").homeworld_lost = YEAR - 3
    r = resolve(s, dice=[1])  # Ann's squadron misses
    assert whole(one(r, "homeworld_regained")) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "homeworld_regained",
        "text": "Bob retook its homeworld 1012; civil unrest ends.",
        "players": ("Bob",),
        "visible_to": ("Ann", "Bob", "Cleo"),
        "data": {"player": "Bob", "hex": "1012"},
    }
    assert r.state.player("Bob").homeworld_lost == 0
    assert events(r, "homeworld_lost") == []  # 1012 is not Ann's homeworld


def test_a_stockpile_at_a_depot_is_taken_with_the_depot() -> None:
    """Bob keeps his 7 points at the depot on 1012 (his homeworld is 1016); Ann takes 1012
    without assault troops, so the depot is destroyed, the points are hers, and Bob's points
    go to his construction facility at 1020 from now on.  Only the two are told."""
    s = _attack(
        [force("1012", "Bob", F=1)],
        {"F": 3},
        extra_systems=[system("1016", "C", "Bob"), system("1020", "C", "Bob")],
        facilities=[facility("1012", "Bob", "DEPOT"), facility("1020", "Bob", "CF")],
        homeworlds={"Ann": "1010", "Bob": "1016"},
    )
    s.player("Bob").stockpile = 7
    s.player("Bob").stockpile_at = "1012"
    r = resolve(s, dice=[1])
    assert one(r, "capture").data["destroyed"] == ["Depot"]
    assert whole(one(r, "stockpile_taken")) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "stockpile_taken",
        "text": "Ann took Bob's stockpile of 7 points at 1012.",
        "players": ("Bob", "Ann"),
        "visible_to": ("Ann", "Bob"),
        "data": {"player": "Bob", "hex": "1012", "by": "Ann", "points": 7},
    }
    assert events(r, "homeworld_lost") == []
    assert r.state.player("Bob").stockpile_at == "1020"
    assert (
        next(e for e in events(r, "production") if e.players == ("Ann",)).data["stockpile_before"]
        == 7
    )


def test_allies_fight_as_one_side_named_together() -> None:
    """Ann and Cleo (treaty partners) arrive together at Bob's 1012 and win."""
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("1014", "C", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1014", "Cleo", F=1), force("1012", "Bob", F=1)],
        flights=[flight("Ann", "1010", "1012", F=2), flight("Cleo", "1014", "1012", F=2)],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1014"},
        relations=[("treaty", "Ann", "Cleo")],
    )
    r = resolve(s, dice=[1])  # Bob's squadron misses
    battle = one(r, "battle")
    assert battle.data["outcome"]["victor"] == "Ann and Cleo"
    assert battle.data["outcome"]["defeated"] == "Bob"
    assert "against Ann and Cleo (attacking" in battle.text


def test_ordinals_read_as_english_does() -> None:
    numbers = (1, 2, 3, 4, 10, 11, 12, 13, 20, 21, 22, 23, 100, 101, 111, 112, 121)
    assert [_ordinal(n) for n in numbers] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th",
        "20th", "21st", "22nd", "23rd", "100th", "101st", "111th", "112th", "121st",
    ]  # fmt: skip


def _partners_at_a_minefield(cleo_die: int):  # type: ignore[no-untyped-def]
    """Bob's 4-point minefield at 1012; his treaty partners Ann (F3 Ms1) and Cleo (F1) arrive,
    and so does Bob's own squadron from 1014 (a minefield never attacks its owner)."""
    s = state(
        [
            system("1010", "A", "Ann"),
            system("1012", "C", "Bob"),
            system("1014", "C", "Bob"),
            system("1016", "C", "Cleo"),
        ],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=1),
            force("1012", "Bob", F=1),
            force("1014", "Bob", F=1),
            force("1016", "Cleo", F=1),
        ],
        facilities=[facility("1012", "Bob", "MINE", 4)],
        flights=[
            flight("Ann", "1010", "1012", F=3, Ms=1),
            flight("Bob", "1014", "1012", F=1),
            flight("Cleo", "1016", "1012", F=1),
        ],
        relations=[("treaty", "Ann", "Bob"), ("treaty", "Bob", "Cleo"), ("treaty", "Ann", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1014", "Cleo": "1016"},
    )
    dice = Dice.scripted([1, 4, 1, 6, cleo_die], turn=s.year)
    result = resolve_turn(s, {}, dice, {})
    assert dice.remaining == 0
    return result, dice


def test_a_minefield_attacks_each_arriving_partner_in_name_order_with_what_is_left() -> None:
    """App. B, step 0 a-e against each partner: Ann's sweeper rolls 1 (4 points to 3), the
    points roll 4, 1, 6: the Minesweeper, then a Fleet squadron (each kill uses a point: 1
    left).  Bob's own arrival is passed over; Cleo meets the last point, which rolls 5 and
    kills her squadron, and the minefield is gone."""
    r, dice = _partners_at_a_minefield(5)
    ann, cleo = events(r, "minefield")
    assert whole(ann) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "minefield",
        "text": "Bob's minefield at 1012 World1012 attacked Ann's arriving squadrons: "
        "1 Minesweeper, 1 Fleet destroyed.",
        "players": ("Bob", "Ann"),
        "visible_to": ("Ann", "Bob"),
        "data": {
            "hex": "1012",
            "owner": "Bob",
            "player": "Ann",
            "step0": [
                {
                    "kind": "sweep",
                    "player": "Ann",
                    "rolls": [1],
                    "minefield_before": 4,
                    "minefield_after": 3,
                },
                {
                    "kind": "mines",
                    "player": "Bob",
                    "rolls": [
                        {"die": 4, "target": "4-6", "kill": True},
                        {"die": 1, "target": "4-6", "kill": False},
                        {"die": 6, "target": "4-6", "kill": True},
                    ],
                    "kills": [
                        {"player": "Ann", "unit": "Ms", "count": 1},
                        {"player": "Ann", "unit": "F", "count": 1},
                    ],
                    "minefield_before": 3,
                    "minefield_after": 1,
                },
            ],
            "lost": {"F": 1, "Ms": 1},
        },
    }
    assert ann.dice == (1, 2, 3, 4) and cleo.dice == (5,)
    assert cleo.text == (
        "Bob's minefield at 1012 World1012 attacked Cleo's arriving squadrons: 1 Fleet destroyed."
    )
    assert cleo.visible_to == ("Bob", "Cleo")
    assert cleo.data["step0"] == [
        {
            "kind": "mines",
            "player": "Bob",
            "rolls": [{"die": 5, "target": "4-6", "kill": True}],
            "kills": [{"player": "Cleo", "unit": "F", "count": 1}],
            "minefield_before": 1,
            "minefield_after": 0,
        }
    ]
    assert [(roll.phase, roll.location, roll.purpose) for roll in dice.log] == [
        ("conflict", "1012", "minesweeping, Ann Minesweeper"),
        ("conflict", "1012", "minefield point 1 of Bob (4-6)"),
        ("conflict", "1012", "minefield point 2 of Bob (4-6)"),
        ("conflict", "1012", "minefield point 3 of Bob (4-6)"),
        ("conflict", "1012", "minefield point 1 of Bob (4-6)"),
    ]
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=2)
    assert force_at(r.state, "1012", "Cleo") is None  # nothing left: no empty force kept
    assert fleet_at(r.state, "1012", "Bob") == Fleet(F=2)
    assert count(r.state, "1012", "Bob", "MINE") == 0
    assert events(r, "battle") == []


def test_a_minefield_point_that_misses_destroys_nothing_and_stays() -> None:
    r, _ = _partners_at_a_minefield(2)
    cleo = events(r, "minefield")[1]
    assert cleo.text.endswith("attacked Cleo's arriving squadrons: nothing destroyed.")
    assert cleo.data["lost"] == {}
    assert fleet_at(r.state, "1012", "Cleo") == Fleet(F=1)
    assert count(r.state, "1012", "Bob", "MINE") == 1


# -- Saturated Fusion Bombing (App. B) ---------------------------------------------------------

PUBLIC_F = {
    "phase": "conflict",
    "location": "subsector F",
    "kind": "fusion_attack",
    "text": "Fusion weapons were used in subsector F.",
    "players": (),
    "visible_to": ("*",),
    "data": {"subsector": "F", "subsector_name": ""},
}


def test_one_sfba_level_at_exactly_half_the_defenders_cv_drops_one_class() -> None:
    """Ann's CV 2 is exactly half of Bob's 4: the bomb falls (class B to C), then Bob wins and
    Ann's two squadrons roll 1, 1.  A subsector without a name is told by its letter only."""
    s = _attack([force("1012", "Bob", F=4)], {"F": 2, "SF": 1}, target=system("1012", "B", "Bob"))
    r = resolve(s, [orders("Ann", bombing=[Bombing("1012")])], dice=[1, 1])
    public, detail = events(r, "fusion_attack")
    assert whole(public) == PUBLIC_F
    assert whole(detail) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "fusion_attack",
        "text": "Ann bombed 1012 World1012 with 1 SFBA level: class B to C.",
        "players": ("Ann", "Bob"),
        "visible_to": ("Ann", "Bob"),
        "data": {
            "subsector": "F",
            "hex": "1012",
            "levels": 1,
            "reduced": ["class B to C"],
            "by": ["Ann"],
        },
    }
    assert r.state.system("1012").resource_class == "C"


def test_levels_take_hipop_base_scout_base_then_classes_down_to_x_and_stop() -> None:
    """Ann (F3, SFBA 3) and Cleo (F2, SFBA 3), treaty partners, both ordered to bomb Bob's
    1012 (class D, HiPop, naval base, scout base): six levels take HiPop, the naval base, the
    scout base, D to E and E to X; the sixth finds nothing.  The naval base no longer fights:
    Bob's CV is his one squadron's.  Both fleets have spent their SFBA."""
    s = state(
        [
            system("1010", "A", "Ann"),
            system("1012", "D", "Bob", naval_base=True, scout_base=True, hipop=True),
            system("1014", "C", "Cleo"),
            system("1016", "C", "Bob"),
        ],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=1),
            force("1012", "Bob", F=1),
            force("1014", "Cleo", F=1),
            force("1016", "Bob", F=1),
        ],
        flights=[
            flight("Ann", "1010", "1012", F=3, SF=3),
            flight("Cleo", "1014", "1012", F=2, SF=3),
        ],
        relations=[("treaty", "Ann", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1016", "Cleo": "1014"},
    )
    bombing = [Bombing("1012")]
    r = resolve(s, [orders("Ann", bombing=bombing), orders("Cleo", bombing=bombing)], dice=[1])
    public, detail = events(r, "fusion_attack")
    assert whole(public) == PUBLIC_F
    assert whole(detail) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "fusion_attack",
        "text": "Ann and Cleo bombed 1012 World1012 with 6 SFBA levels: HiPop, naval base, "
        "scout base, class D to E, class E to X.",
        "players": ("Ann", "Bob", "Cleo"),
        "visible_to": ("Ann", "Bob", "Cleo"),
        "data": {
            "subsector": "F",
            "hex": "1012",
            "levels": 6,
            "reduced": ["HiPop", "naval base", "scout base", "class D to E", "class E to X"],
            "by": ["Ann", "Cleo"],
        },
    }
    target = r.state.system("1012")
    assert (target.hipop, target.naval_base, target.scout_base, target.resource_class) == (
        False,
        False,
        False,
        "X",
    )
    assert one(r, "battle").data["rounds"][0]["cv"]["Bob"] == 1
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=3)
    assert fleet_at(r.state, "1012", "Cleo") == Fleet(F=2)


def test_bombing_a_bare_class_x_world_finds_nothing_to_destroy() -> None:
    s = _attack([force("1012", "Bob", F=2)], {"F": 3, "SF": 1}, target=system("1012", "X", "Bob"))
    r = resolve(s, [orders("Ann", bombing=[Bombing("1012")])], dice=[1, 1])
    detail = events(r, "fusion_attack")[1]
    assert detail.text == "Ann bombed 1012 World1012 with 1 SFBA level: nothing left to destroy."
    assert detail.data["reduced"] == []
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=3)  # the level is spent all the same


# -- Step 0: a one-point minefield and the KKMs of two intruders -----------------------------


def _kkm_raid(dice_rolls: list[int], **rules: str):  # type: ignore[no-untyped-def]
    """Ann (F3, KKM 2) and Cleo (F2, KKM 2), treaty partners, attack Bob's 1012 (F2, a
    one-point minefield, two Genetics Labs, a spacedock)."""
    s = state(
        [
            system("1010", "A", "Ann"),
            system("1012", "C", "Bob"),
            system("1014", "C", "Cleo"),
            system("1016", "C", "Bob"),
        ],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=1),
            force("1012", "Bob", F=2),
            force("1014", "Cleo", F=1),
            force("1016", "Bob", F=1),
        ],
        facilities=[
            facility("1012", "Bob", "MINE", 1),
            facility("1012", "Bob", "GL", 2),
            facility("1012", "Bob", "DOCK"),
        ],
        flights=[
            flight("Ann", "1010", "1012", F=3, K=2),
            flight("Cleo", "1014", "1012", F=2, K=2),
        ],
        relations=[("treaty", "Ann", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1016", "Cleo": "1014"},
    )
    dice = Dice.scripted(dice_rolls, turn=s.year)
    result = resolve_turn(s, {}, dice, rules)
    assert dice.remaining == 0
    return result, dice


MINE_PART = {
    "kind": "mines",
    "player": "Bob",
    "rolls": [{"die": 6, "target": "4-6", "kill": True}],
    "kills": [{"player": "Ann", "unit": "F", "count": 1}],
    "minefield_before": 1,
    "minefield_after": 0,
}
KKM_ROLLS = [
    {"player": "Ann", "die": 4, "target": "4-6", "kill": True},
    {"player": "Ann", "die": 5, "target": "4-6", "kill": True},
    {"player": "Cleo", "die": 6, "target": "4-6", "kill": True},
    {"player": "Cleo", "die": 1, "target": "4-6", "kill": False},
]


def test_kkm_kills_strike_every_facility_before_a_squadron() -> None:
    """Step 0: the one minefield point rolls 6 and kills one of Ann's Fleet squadrons (she has
    the most); the four KKM points roll 4, 5, 6, 1: three kills, the two labs, then the
    spacedock (house rule kkm_targets = all-facilities).  Bob's CV 2 then loses to 4."""
    r, dice = _kkm_raid([6, 4, 5, 6, 1, 1, 1])
    battle = one(r, "battle")
    assert battle.data["step0"] == [
        MINE_PART,
        {
            "kind": "kkm",
            "player": "Ann, Cleo",
            "rolls": KKM_ROLLS,
            "kills": [
                {"player": "Bob", "unit": "GL", "count": 2},
                {"player": "Bob", "unit": "DOCK", "count": 1},
            ],
        },
    ]
    assert battle.data["rounds"][0]["cv"] == {"Bob": 2, "Ann": 4, "Cleo": 4}
    assert [roll.purpose for roll in dice.log[:5]] == [
        "minefield point 1 of Bob (4-6)",
        "KKM point 1 of Ann (4-6)",
        "KKM point 2 of Ann (4-6)",
        "KKM point 1 of Cleo (4-6)",
        "KKM point 2 of Cleo (4-6)",
    ]
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=2)  # one lost, KKMs spent
    assert fleet_at(r.state, "1012", "Cleo") == Fleet(F=2)


def test_kkm_kills_under_the_house_rule_strike_only_production_centres_and_labs() -> None:
    """kkm_targets = orbital-and-labs: after the two labs, the third kill strikes one of Bob's
    squadrons, not the spacedock, and his CV is 1."""
    r, _ = _kkm_raid([6, 4, 5, 6, 1, 1], kkm_targets="orbital-and-labs")
    battle = one(r, "battle")
    assert battle.data["step0"][1]["kills"] == [
        {"player": "Bob", "unit": "GL", "count": 2},
        {"player": "Bob", "unit": "F", "count": 1},
    ]
    assert battle.data["rounds"][0]["cv"]["Bob"] == 1


# -- battle details that must fit one workbook cell -------------------------------------------


def _chars(data: object) -> int:
    return len(json.dumps(data, sort_keys=True, ensure_ascii=False))


def _battle_data() -> dict[str, Any]:
    """Two minefield points that miss, a KKM salvo of 3, and a round where Bob's 40 Fleet
    squadrons and 1 Strike squadron roll: faces 1-6 in turn for the Fleet squadrons (5 and 6
    kill: 12 kills), a 6 for the Strike squadron."""
    fleet = [
        {"player": "Bob", "unit": "F", "die": 1 + n % 6, "target": "5-6", "kill": 1 + n % 6 >= 5}
        for n in range(40)
    ]
    return {
        "hex": "1012",
        "step0": [
            {  # minefield points roll with no player named
                "kind": "mines",
                "rolls": [
                    {"die": 2, "target": "4-6", "kill": False},
                    {"die": 3, "target": "4-6", "kill": False},
                ],
            },
            {
                "kind": "kkm",
                "rolls": [
                    {"player": "Ann", "die": 4, "target": "4-6", "kill": True},
                    {"player": "Ann", "die": 1, "target": "4-6", "kill": False},
                    {"player": "Ann", "die": 4, "target": "4-6", "kill": True},
                ],
            },
        ],
        "rounds": [
            {
                "round": 1,
                "rolls": [
                    *fleet,
                    {"player": "Bob", "unit": "S", "die": 6, "target": "4-6", "kill": True},
                ],
            }
        ],
    }


FLEET_DICE = [1 + n % 6 for n in range(40)]
GROUPED_DICE = {
    "hex": "1012",
    "step0": [
        {
            "kind": "mines",
            "rolls": [
                {
                    "player": "",
                    "unit": "",
                    "target": "4-6",
                    "count": 2,
                    "kills": 0,
                    "kill": False,
                    "dice": [2, 3],
                    "die": "2 3",
                }
            ],
        },
        {
            "kind": "kkm",
            "rolls": [
                {
                    "player": "Ann",
                    "unit": "",
                    "target": "4-6",
                    "count": 3,
                    "kills": 2,
                    "kill": True,
                    "dice": [4, 1, 4],
                    "die": "4 1 4",
                }
            ],
        },
    ],
    "rounds": [
        {
            "round": 1,
            "rolls": [
                {
                    "player": "Bob",
                    "unit": "F",
                    "target": "5-6",
                    "count": 40,
                    "kills": 12,
                    "kill": True,
                    "dice": FLEET_DICE,
                    "die": " ".join(map(str, FLEET_DICE)),
                },
                {
                    "player": "Bob",
                    "unit": "S",
                    "target": "4-6",
                    "count": 1,
                    "kills": 1,
                    "kill": True,
                    "dice": [6],
                    "die": "6",
                },
            ],
        }
    ],
    "rolls_grouped": "dice",
}


def _by_faces() -> dict[str, Any]:
    out = json.loads(json.dumps(GROUPED_DICE))
    faces = [
        ({"2": 1, "3": 1}, "1x2 1x3"),
        ({"1": 1, "4": 2}, "1x1 2x4"),
        ({"1": 7, "2": 7, "3": 7, "4": 7, "5": 6, "6": 6}, "7x1 7x2 7x3 7x4 6x5 6x6"),
        ({"6": 1}, "1x6"),
    ]
    rolls = [
        *out["step0"][0]["rolls"],
        *out["step0"][1]["rolls"],
        *out["rounds"][0]["rolls"],
    ]
    for roll, (counts, text) in zip(rolls, faces, strict=True):
        del roll["dice"]
        roll["faces"] = counts
        roll["die"] = text
    out["rolls_grouped"] = "faces"
    return out


def test_battle_details_shrink_step_by_step_to_fit_one_cell(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Roll by roll while they fit; else grouped by player, unit and target with the dice;
    else with how many of each face; else without the rolls (the dice sheet keeps them)."""
    data = _battle_data()
    by_faces = _by_faces()
    assert _chars(by_faces) < _chars(GROUPED_DICE) < _chars(data)

    def fit(limit: int) -> dict[str, Any]:
        monkeypatch.setattr(conflict, "MAX_DATA_CHARS", limit)
        return conflict.fit_battle_data(_battle_data())

    assert fit(_chars(data)) == data  # exactly at the limit: kept roll by roll
    assert fit(_chars(data) - 1) == GROUPED_DICE
    assert fit(_chars(GROUPED_DICE)) == GROUPED_DICE
    assert fit(_chars(GROUPED_DICE) - 1) == by_faces
    assert fit(_chars(by_faces)) == by_faces
    bare = fit(_chars(by_faces) - 1)
    assert bare["step0"][0]["rolls"] == [] and bare["step0"][1]["rolls"] == []
    assert bare["rounds"][0]["rolls"] == []
    assert bare["rolls_grouped"] == "dice sheet only"
    assert bare["hex"] == "1012" and bare["rounds"][0]["round"] == 1


def test_every_independent_force_surrenders_whole_and_neighbours_hear_it() -> None:
    """5.1: an independent world's squadrons join the first force to arrive.  Both of Vega's
    independent forces (F2 S1 with a Monitor and a probe; F1 with two Monitors) go over to
    Ann; Bob, next door at 1013, is told."""
    s = state(
        [system("1010", "A", "Ann"), system("1012", name="Vega"), system("1013", "C", "Bob")],
        forces=[
            force("1010", "Ann", F=1),
            force("1012", "", F=2, S=1, M=1, P=1),
            force("1012", "", F=1, M=2, building=True),
            force("1013", "Bob", F=1),
        ],
        flights=[flight("Ann", "1010", "1012", F=1)],
        homeworlds={"Ann": "1010", "Bob": "1013"},
    )
    r = resolve(s)
    assert whole(one(r, "surrender")) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "surrender",
        "text": "The independent squadrons at 1012 Vega surrendered to Ann: 3 Fleet, 1 Strike, "
        "3 Monitor.",
        "players": ("Ann",),
        "visible_to": ("Ann", "Bob"),
        "data": {
            "hex": "1012",
            "to": "Ann",
            "forces": {"F": 3, "S": 1, "A": 0, "Fs": 0, "Ms": 0, "K": 0, "SF": 0, "M": 3},
        },
    }
    ann = force_at(r.state, "1012", "Ann")
    assert ann is not None and (ann.fleet, ann.M, ann.P) == (Fleet(F=4, S=1), 3, 1)
    assert [f for f in r.state.forces if f.hex == "1012" and f.owner == ""] == []
    assert events(r, "battle") == []


def test_an_assault_captures_everything_and_the_third_change_drops_the_class() -> None:
    """Ann's fleet with an Assault squadron beats Bob's one squadron at 1012 (class B, twice
    changed hands before): she captures the Construction Facility, the two Genetics Labs, the
    two Orbital Production Centres and
    the squadrons Bob had under construction (with a Monitor and a probe), which complete at
    the end of the phase as hers; the third change drops 1012 to class C (5.0).  Cleo, next
    door, sees it all."""
    s = _attack(
        [force("1012", "Bob", F=1), force("1012", "Bob", F=2, M=1, P=1, building=True)],
        {"F": 3, "A": 1},
        target=system("1012", "B", "Bob", changes=2),
        extra_systems=[system("1016", "C", "Bob"), system("1013", "C", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        facilities=[
            facility("1012", "Bob", "GL", 2, building=True),
            facility("1012", "Bob", "CF"),
            facility("1012", "Bob", "OPC", 2),
        ],
        homeworlds={"Ann": "1010", "Bob": "1016", "Cleo": "1013"},
    )
    r = resolve(s, dice=[1])
    assert whole(one(r, "capture")) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "capture",
        "text": "Ann occupied 1012 World1012, taken from Bob; captured: Construction Facility, "
        "Genetics Lab x2 (under construction), Orbital Production Centre x2, 2 Fleet, "
        "1 Monitor, 1 probe (under construction).",
        "players": ("Ann", "Bob"),
        "visible_to": ("Ann", "Bob", "Cleo"),
        "data": {
            "hex": "1012",
            "name": "World1012",
            "from": "Bob",
            "to": "Ann",
            "captured": [
                "Construction Facility",
                "Genetics Lab x2 (under construction)",
                "Orbital Production Centre x2",
                "2 Fleet, 1 Monitor, 1 probe (under construction)",
            ],
            "destroyed": [],
            "changes": 3,
            "assault": True,
        },
    }
    assert whole(one(r, "class_drop")) == {
        "phase": "conflict",
        "location": "1012",
        "kind": "class_drop",
        "text": "1012 World1012 changed hands for the 3rd time and dropped from class B to "
        "class C.",
        "players": ("Ann", "Bob"),
        "visible_to": ("Ann", "Bob", "Cleo"),
        "data": {"hex": "1012", "from_class": "B", "to_class": "C", "changes": 3},
    }
    ann = force_at(r.state, "1012", "Ann")
    assert ann is not None and (ann.fleet, ann.M, ann.P) == (Fleet(F=5, A=1), 1, 1)
    assert sorted((f.owner, f.kind, f.count) for f in r.state.facilities if f.hex == "1012") == [
        ("Ann", "CF", 1),
        ("Ann", "GL", 2),
        ("Ann", "OPC", 2),
    ]
    assert force_at(r.state, "1012", "Bob") is None


def _meeting_at_an_empty_world(cleo_there, cleo_arrives, ann=4):  # type: ignore[no-untyped-def]
    """Ann (F4) and Cleo arrive at the unowned 1012; Cleo may have had units there before."""
    s = state(
        [system("1010", "A", "Ann"), system("1012"), system("1014", "A", "Cleo")],
        players=("Ann", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1014", "Cleo", F=1), *cleo_there],
        flights=[
            flight("Ann", "1010", "1012", F=ann),
            flight("Cleo", "1014", "1012", **cleo_arrives),
        ],
    )
    r = resolve(s, dice=[1, 1])  # the beaten side's two units miss
    battle = one(r, "battle")
    return [(side["player"], side["role"]) for side in battle.data["sides"]], battle.text


def test_who_defends_an_unowned_world_where_players_meet() -> None:
    """The side that was there before this turn's arrivals defends (a squadron stationed, or
    a Monitor, which never moves), even against a stronger arrival; when all arrive together,
    the strongest defends."""
    stationed, text = _meeting_at_an_empty_world([force("1012", "Cleo", F=1)], {"F": 1})
    assert stationed == [("Cleo", "defender"), ("Ann", "attacker")]
    assert text.startswith("Battle at 1012 World1012: Cleo (defending, CV 2) against Ann")
    monitor, text = _meeting_at_an_empty_world([force("1012", "Cleo", M=1)], {"F": 1})
    assert monitor == [("Cleo", "defender"), ("Ann", "attacker")]
    assert "Cleo (defending, CV 3)" in text
    together, text = _meeting_at_an_empty_world([], {"F": 2})
    assert together == [("Ann", "defender"), ("Cleo", "attacker")]
    assert text.endswith("Ann held the system.")


def test_leaving_a_world_empty_is_told_to_its_former_owner_only() -> None:
    s = state(
        [
            system("1010", "A", "Ann"),
            system("1011", "C", "Ann"),
            system("1012"),
            system("1013", "C", "Bob"),
        ],
        forces=[force("1010", "Ann", F=2), force("1011", "Ann", F=1), force("1013", "Bob", F=1)],
        homeworlds={"Ann": "1010", "Bob": "1013"},
    )
    moves = [move("1010", "1012", F=2), move("1011", "1012", F=1)]
    r = resolve(s, [orders("Ann", moves=moves)])
    assert whole(one(r, "abandoned")) == {
        "phase": "departures",
        "location": "1011",
        "kind": "abandoned",
        "text": "You left 1011 World1011: with none of your squadrons or facilities there it is "
        "no longer yours.",
        "players": ("Ann",),
        "visible_to": ("Ann",),
        "data": {"hex": "1011", "player": "Ann", "destroyed": False},
    }


def _sweepers_met(ann_a: int, cleo_a: int, bob_ms: int):  # type: ignore[no-untyped-def]
    """Ann (F2) and Cleo (F2), treaty partners, with Assault squadrons as given, beat Bob's F1
    and his minesweepers at 1012 (Bob's one die misses)."""
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("1014", "C", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=1),
            force("1014", "Cleo", F=1),
            force("1012", "Bob", F=1, Ms=bob_ms),
        ],
        flights=[
            flight("Ann", "1010", "1012", F=2, A=ann_a),
            flight("Cleo", "1014", "1012", F=2, A=cleo_a),
        ],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1014"},
        relations=[("treaty", "Ann", "Cleo")],
    )
    return resolve(s, dice=[1])


def test_captured_minesweepers_go_to_the_ally_with_most_assault_squadrons() -> None:
    """5.0: the defeated side's minesweepers are captured by a surviving Assault squadron:
    they join the victor with the most of them (the first in name order on a tie)."""
    r = _sweepers_met(1, 2, 2)
    assert one(r, "battle").data["outcome"]["captured"] == ["2 Minesweeper squadrons"]
    assert fleet_at(r.state, "1012", "Cleo") == Fleet(F=2, A=2, Ms=2)
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=2, A=1)
    tie = _sweepers_met(1, 1, 1)
    assert one(tie, "battle").data["outcome"]["captured"] == ["1 Minesweeper squadron"]
    assert fleet_at(tie.state, "1012", "Ann") == Fleet(F=2, A=1, Ms=1)
    lost = _sweepers_met(0, 0, 1)
    assert one(lost, "battle").data["outcome"]["destroyed"] == ["1 Minesweeper squadron"]
    assert fleet_at(lost.state, "1012", "Ann") == Fleet(F=2)


def test_attrition_ends_with_both_sides_gone_or_after_the_last_round() -> None:
    """A tie at CV 1 each: both sides roll, defender first.  Both 5s: both squadrons die and
    round 2 finds both at zero CV (the defender holds).  Only misses: the battle stops after
    MAX_ROUNDS rounds of attrition (400 dice), the defender holding."""
    both = resolve(_attack([force("1012", "Bob", F=1)], {"F": 1}), dice=[5, 5])
    rounds = one(both, "battle").data["rounds"]
    assert [r["attrition"] for r in rounds] == [True, False]
    assert rounds[1] == {
        "round": 2,
        "cv": {"Bob": 0, "Ann": 0},
        "cv_sides": {"defender": 0, "attacker": 0},
        "victor": "Bob",
        "defeated": "Ann",
        "attrition": False,
        "rolls": [],
        "kills": [],
        "note": "both sides at zero CV: the defender holds",
    }
    long = resolve(
        _attack([force("1012", "Bob", F=1)], {"F": 1}), dice=[1] * (2 * conflict.MAX_ROUNDS)
    )
    rounds = one(long, "battle").data["rounds"]
    assert len(rounds) == conflict.MAX_ROUNDS + 1
    assert rounds[-1]["note"] == "no decision after 200 rounds: the defender holds"
    assert rounds[-1]["victor"] == "Bob" and long.state.system("1012").owner == "Bob"


def test_a_naval_base_is_listed_with_its_owners_forces() -> None:
    """The battle's record of what each side brought: Bob has no squadrons at 1012, only the
    naval base (NB 1, no Monitors)."""
    target = system("1012", "C", "Bob", naval_base=True)
    r = resolve(_attack([], {"F": 1}, target=target), dice=[1])
    assert one(r, "battle").data["sides"] == [
        {
            "player": "Bob",
            "role": "defender",
            "forces": {"F": 0, "S": 0, "A": 0, "Fs": 0, "Ms": 0, "K": 0, "SF": 0, "M": 0, "NB": 1},
        },
        {
            "player": "Ann",
            "role": "attacker",
            "forces": {"F": 1, "S": 0, "A": 0, "Fs": 0, "Ms": 0, "K": 0, "SF": 0, "M": 0},
        },
    ]


def test_a_monitor_alone_fights_and_a_probe_never_does() -> None:
    """Bob's homeworld 1012 is guarded by one Monitor (CV 2); Cleo's probe watches there.
    Ann's three squadrons fight the Monitor only (its die misses); the probe is no party to
    the battle, stays Cleo's, and lets her see it."""
    s = _attack(
        [force("1012", "Bob", M=1), force("1012", "Cleo", P=1)],
        {"F": 3},
        players=("Ann", "Bob", "Cleo"),
        extra_systems=[system("1030", "C", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1030"},
    )
    r = resolve(s, dice=[1])
    battle = one(r, "battle")
    assert [(side["player"], side["role"]) for side in battle.data["sides"]] == [
        ("Bob", "defender"),
        ("Ann", "attacker"),
    ]
    assert battle.players == ("Bob", "Ann")
    assert battle.visible_to == ("Ann", "Bob", "Cleo")
    assert battle.data["rounds"][0]["cv"] == {"Bob": 2, "Ann": 3}
    cleo = force_at(r.state, "1012", "Cleo")
    assert cleo is not None and (cleo.fleet, cleo.M, cleo.P) == (Fleet(), 0, 1)
    assert r.state.system("1012").owner == "Ann"


def test_a_partners_fleet_does_not_take_a_world_its_owner_still_holds() -> None:
    """Bob's 1012 has no squadrons, only a Genetics Lab; his treaty partner Ann parks two
    squadrons there.  No battle, and the world stays Bob's (he holds it by the lab, and Ann
    is at peace with him)."""
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("1016", "C", "Bob")],
        forces=[force("1010", "Ann", F=1), force("1016", "Bob", F=1)],
        facilities=[facility("1012", "Bob", "GL")],
        flights=[flight("Ann", "1010", "1012", F=2)],
        relations=[("treaty", "Ann", "Bob")],
        homeworlds={"Ann": "1010", "Bob": "1016"},
    )
    r = resolve(s)
    assert events(r, "battle") == [] and events(r, "capture") == []
    assert r.state.system("1012").owner == "Bob"
    assert fleet_at(r.state, "1012", "Ann") == Fleet(F=2)


def test_allies_arriving_at_an_empty_world_the_strongest_occupies_it() -> None:
    """Ann (F2) and Cleo, treaty partners, reach the unowned 1012 together: Cleo with F3
    occupies it; with F2 each, the first in name order (Ann) does."""

    def occupier(cleo: int) -> str:
        s = state(
            [system("1010", "A", "Ann"), system("1012"), system("1014", "A", "Cleo")],
            players=("Ann", "Cleo"),
            forces=[force("1010", "Ann", F=1), force("1014", "Cleo", F=1)],
            flights=[flight("Ann", "1010", "1012", F=2), flight("Cleo", "1014", "1012", F=cleo)],
            relations=[("treaty", "Ann", "Cleo")],
        )
        r = resolve(s)
        capture = one(r, "capture")
        assert capture.text == f"{capture.data['to']} occupied 1012 World1012."
        return str(r.state.system("1012").owner)

    assert occupier(3) == "Cleo"
    assert occupier(2) == "Ann"


def test_every_victor_keeps_its_own_losses_an_ally_without_squadrons_first() -> None:
    """Bob's naval base (he has no squadrons at 1012) and his treaty partner Cleo's F3 defend
    against Ann's F2 (CV 5 to 2); Ann's dice 5, 6 kill two of Cleo's squadrons, which is
    what Cleo has left after the battle, though Bob comes first among the victors."""
    s = state(
        [
            system("1010", "A", "Ann"),
            system("1012", "C", "Bob", naval_base=True),
            system("1014", "C", "Cleo"),
            system("1016", "C", "Bob"),
        ],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=1),
            force("1012", "Cleo", F=3),
            force("1014", "Cleo", F=1),
            force("1016", "Bob", F=1),
        ],
        flights=[flight("Ann", "1010", "1012", F=2)],
        relations=[("treaty", "Bob", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1016", "Cleo": "1014"},
    )
    r = resolve(s, dice=[5, 6])
    battle = one(r, "battle")
    assert battle.text.startswith("Battle at 1012 World1012: Bob and Cleo (defending, CV 5)")
    assert battle.data["rounds"][0]["kills"] == [{"player": "Cleo", "unit": "F", "count": 2}]
    assert fleet_at(r.state, "1012", "Cleo") == Fleet(F=1)
    assert force_at(r.state, "1012", "Bob") is None


def test_a_player_whose_homeworld_fell_elsewhere_does_not_regain_it_by_conquest() -> None:
    """Ann lost her homeworld 1010 two years ago; taking Bob's 1012 is not retaking it (her
    worlds then roll for civil unrest, 6s: they stay)."""
    s = _attack([force("1012", "Bob", F=1)], {"F": 3})
    s.player("Ann").homeworld_lost = YEAR - 2
    r = resolve(s, dice=[1, 6, 6])
    assert events(r, "homeworld_regained") == []
    assert r.state.player("Ann").homeworld_lost == YEAR - 2
    assert one(r, "homeworld_lost").data["player"] == "Bob"


def test_a_minefield_used_up_by_one_partner_spares_the_next() -> None:
    """Ann's sweeper rolls 1 (4 points to 3) and the three points all kill (6, 6, 6: her
    Minesweeper and two Fleet squadrons); nothing is left for Cleo, who is not attacked."""
    r, _ = _partners_at_a_minefield_all_kill()
    (ann,) = events(r, "minefield")
    assert ann.data["lost"] == {"F": 2, "Ms": 1}
    assert ann.data["step0"][1]["minefield_after"] == 0
    assert fleet_at(r.state, "1012", "Cleo") == Fleet(F=1)


def _partners_at_a_minefield_all_kill():  # type: ignore[no-untyped-def]
    s = state(
        [system("1010", "A", "Ann"), system("1012", "C", "Bob"), system("1016", "C", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        forces=[
            force("1010", "Ann", F=1),
            force("1012", "Bob", F=1),
            force("1016", "Cleo", F=1),
        ],
        facilities=[facility("1012", "Bob", "MINE", 4)],
        flights=[
            flight("Ann", "1010", "1012", F=3, Ms=1),
            flight("Cleo", "1016", "1012", F=1),
        ],
        relations=[("treaty", "Ann", "Bob"), ("treaty", "Bob", "Cleo"), ("treaty", "Ann", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1016"},
    )
    dice = Dice.scripted([1, 6, 6, 6], turn=s.year)
    result = resolve_turn(s, {}, dice, {})
    assert dice.remaining == 0
    return result, dice


def test_no_fusion_bombing_below_half_the_defenders_cv_even_when_ordered() -> None:
    """Ann's CV 2 is less than half of Bob's 5: her ordered SFBA level is not used (and is
    lost with her beaten fleet)."""
    s = _attack([force("1012", "Bob", F=5)], {"F": 2, "SF": 1}, target=system("1012", "B", "Bob"))
    r = resolve(s, [orders("Ann", bombing=[Bombing("1012")])], dice=[1, 1])
    assert events(r, "fusion_attack") == []
    assert r.state.system("1012").resource_class == "B"


def test_a_named_subsector_is_named_in_the_public_news_and_neighbours_see_the_bombing() -> None:
    s = _attack(
        [force("1012", "Bob", F=4)],
        {"F": 2, "SF": 1},
        target=system("1012", "B", "Bob"),
        players=("Ann", "Bob", "Cleo"),
        extra_systems=[system("1013", "C", "Cleo")],
        homeworlds={"Ann": "1010", "Bob": "1012", "Cleo": "1013"},
    )
    s.subsector_names["F"] = "Fomalhaut"
    r = resolve(s, [orders("Ann", bombing=[Bombing("1012")])], dice=[1, 1])
    public, detail = events(r, "fusion_attack")
    assert (public.location, public.text) == (
        "subsector F (Fomalhaut)",
        "Fusion weapons were used in subsector F (Fomalhaut).",
    )
    assert detail.players == ("Ann", "Bob") and detail.visible_to == ("Ann", "Bob", "Cleo")


def test_kkm_points_that_all_miss_strike_nothing() -> None:
    """Bob's F4 holds against Ann's F3 KKM 2 after her two KKM points roll 1 and 3: no
    facility is touched; then Ann's three squadrons, beaten, roll 1, 1, 1."""
    s = _attack(
        [force("1012", "Bob", F=4)],
        {"F": 3, "K": 2},
        facilities=[facility("1012", "Bob", "GL", 2), facility("1012", "Bob", "OPC", 2)],
    )
    r = resolve(s, dice=[1, 3, 1, 1, 1])
    kkm = one(r, "battle").data["step0"][0]
    assert kkm["kind"] == "kkm" and kkm["kills"] == []
    assert sorted((f.kind, f.count) for f in r.state.facilities if f.hex == "1012") == [
        ("GL", 2),
        ("OPC", 2),
    ]


def test_a_beaten_intruder_loses_its_munitions_and_is_told_though_it_sees_nothing_there() -> None:
    """Ann's F2 with an SFBA level she did not order to use comes from 1016, which she no
    longer holds (her only world is 1030, far away), to Bob's F4 at 1012: beaten, her
    squadrons roll 1, 1; the carried level is lost with them, and she is told of the battle
    though nothing of hers is left in sight of 1012."""
    s = state(
        [system("1030", "A", "Ann"), system("1016"), system("1012", "C", "Bob")],
        forces=[force("1030", "Ann", F=1), force("1012", "Bob", F=4)],
        flights=[flight("Ann", "1016", "1012", F=2, SF=1)],
        homeworlds={"Ann": "1030", "Bob": "1012"},
    )
    r = resolve(s, dice=[1, 1])
    battle = one(r, "battle")
    assert battle.players == ("Bob", "Ann") and battle.visible_to == ("Ann", "Bob")
    assert force_at(r.state, "1012", "Ann") is None
    assert events(r, "fusion_attack") == []


def test_a_class_x_world_has_no_class_left_to_drop() -> None:
    s = _attack([force("1012", "Bob", F=1)], {"F": 3}, target=system("1012", "X", "Bob", changes=2))
    r = resolve(s, dice=[1])
    assert one(r, "capture").data["changes"] == 3
    assert events(r, "class_drop") == []
    assert r.state.system("1012").resource_class == "X"


def test_players_arriving_together_the_stronger_defends_whatever_its_name() -> None:
    """Ann (F2) and Cleo (F4) reach the unowned 1012 together: Cleo, the stronger, defends."""
    sides, _ = _meeting_at_an_empty_world([], {"F": 4}, ann=2)
    assert sides == [("Cleo", "defender"), ("Ann", "attacker")]


def test_the_turn_highlights_count_battles_captures_and_systems_newly_occupied() -> None:
    """The demo's and the archive's one line a turn: a capture names whom a system was taken
    from; an occupation of an unowned system names nobody."""
    from refassist.rulesets.fifth_millennium import RULESET

    def told(kind: str, **data: Any) -> Event:
        return Event.told(YEAR, "conflict", "0101", kind, kind, (), ("*",), data)

    turn = [told("battle"), told("capture", **{"from": "Ann"}), told("capture", **{"from": "Bob"})]
    assert RULESET.turn_highlights(state([]), [*turn, told("capture")]) == (
        "1 battle, 2 captures, 1 newly occupied"
    )
    assert RULESET.turn_highlights(state([]), []) == "0 battles, 0 captures, 0 newly occupied"
