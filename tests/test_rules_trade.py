"""Trade agreements (section 6.3, 6.31): the 2D6 table, tech-level modifier, rounding, war."""

from __future__ import annotations

from refassist.rulesets.fifth_millennium.production import share_out
from refassist.rulesets.fifth_millennium.trade import table_row, trade_points
from tests.fm_states import (
    YEAR,
    diplo,
    events,
    flight,
    force,
    one,
    orders,
    resolve,
    state,
    system,
)


def _partners(relations=(("trade", "Ann", "Bob"),), ann_tl=1, bob_tl=1):
    """Ann owns 3 systems, Bob 2; they trade."""
    s = state(
        [
            system("1010", "A", "Ann"),
            system("1011", "X", "Ann"),
            system("1012", "X", "Ann"),
            system("1013", "A", "Bob"),
            system("1014", "X", "Bob"),
        ],
        forces=[force(h, p, F=1) for h, p in (("1010", "Ann"), ("1011", "Ann"), ("1012", "Ann"))]
        + [force("1013", "Bob", F=2), force("1014", "Bob", F=1)],
        relations=relations,
    )
    s.player("Ann").tech_level = ann_tl
    s.player("Bob").tech_level = bob_tl
    return s


def _trade(result, player):
    return next(e for e in events(result, "trade") if e.visible_to == (player,))


def _ledger(result, player):
    return next(e for e in events(result, "production") if e.players == (player,)).data


def test_the_trade_table_with_rounding_to_the_nearest_whole_number() -> None:
    assert [trade_points(10, row) for row in (2, 3, 4, 6, 7, 8, 10, 11, 12)] == [
        3,
        5,
        7,
        10,
        10,
        10,
        15,
        20,
        30,
    ]
    assert trade_points(5, 2) == 2  # 1.5 rounds up
    assert trade_points(5, 4) == 4  # 3.5 rounds up
    assert trade_points(4, 5, extra_die=6) == 0  # -D6 never below 0
    assert trade_points(4, 9, extra_die=3) == 7  # +D6


def test_the_seeds_worked_example_reads_row_11_which_the_table_gives_as_x2() -> None:
    # Seed 6.3: A (TL1, 12 systems) and B (TL2, 10 systems) roll 10; +1 for the tech levels
    # gives 11, which the example reads as x1.5 (A gains 15, B 18).  The table's row 11 is x2;
    # we implement the table (decision recorded in docs/rules/fifth-millennium.md).
    row = table_row(10, 2 - 1)
    assert row == 11
    assert (trade_points(10, row), trade_points(12, row)) == (20, 24)
    assert (trade_points(10, 10), trade_points(12, 10)) == (15, 18)  # the example's numbers


def test_the_modified_roll_is_capped_at_12() -> None:
    assert table_row(12, 2) == 12 and table_row(2, 0) == 2


def test_one_roll_per_agreement_serves_both_partners() -> None:
    r = resolve(_partners(), dice=[4, 6])  # 10: x1.5
    ann, bob = _trade(r, "Ann"), _trade(r, "Bob")
    assert ann.data["points"] == 3  # Bob's 2 systems x1.5
    assert bob.data["points"] == 5  # Ann's 3 systems x1.5 = 4.5, rounded up
    assert ann.dice == bob.dice == (1, 2)
    assert ["trade with Bob", 3] in _ledger(r, "Ann")["trade"]


def test_the_tech_level_difference_modifies_the_roll() -> None:
    r = resolve(_partners(ann_tl=1, bob_tl=3), dice=[3, 5])  # 8 + 2 = row 10: x1.5
    assert _trade(r, "Ann").data["table_row"] == 10
    assert _trade(r, "Ann").data["modifier"] == 2


def test_the_d6_rows_roll_one_more_die_for_both_partners() -> None:
    minus = resolve(_partners(), dice=[2, 3, 2])  # row 5: -D6 with a 2
    assert (_trade(minus, "Ann").data["points"], _trade(minus, "Bob").data["points"]) == (0, 1)
    plus = resolve(_partners(), dice=[4, 5, 6])  # row 9: +D6 with a 6
    assert (_trade(plus, "Ann").data["points"], _trade(plus, "Bob").data["points"]) == (8, 9)


def test_declaring_war_on_a_trade_partner_forfeits_the_trade_to_the_victim() -> None:
    r = resolve(_partners(), [orders("Ann", diplomacy=[diplo("declare war", "Bob")])], dice=[3, 4])
    assert r.state.relations == []
    war = one(r, "war")
    assert war.data["ended"] == ["trade"] and set(war.visible_to) == {"Ann", "Bob"}
    assert _trade(r, "Ann").data["points"] == 0
    assert _trade(r, "Bob").data["points"] == 3  # row 7: Ann's 3 systems x1
    ann = _ledger(r, "Ann")
    assert ann["trade"][-1] == ["taken by the victims of your declarations of war", -3]
    assert ann["stockpile_after"] == ann["income_total"] - 3


def test_a_trade_agreement_prevents_a_battle_like_a_treaty() -> None:
    """5.0: a battle ensues "unless there is already a treaty or agreement in place"."""
    s = _partners()
    s.flights.append(flight("Ann", "1012", "1014", F=5))
    r = resolve(s, dice=[3, 4])  # the trade roll only: nobody fights
    assert events(r, "battle") == []
    assert [x.kind for x in r.state.relations] == ["trade"]
    assert _trade(r, "Ann").data["points"] == 2 and _trade(r, "Bob").data["points"] == 3
    assert r.state.system("1014").owner == "Bob"


def test_attacking_a_trade_partner_takes_a_declaration_of_war_and_its_forfeit() -> None:
    s = _partners()
    s.flights.append(flight("Ann", "1012", "1014", F=5))
    war = [orders("Ann", diplomacy=[diplo("declare war", "Bob")])]
    r = resolve(s, war, dice=[1, 3, 4])  # Bob's squadron at 1014 misses; then the trade roll
    assert one(r, "war").data["aggressor"] == "Ann"
    assert events(r, "battle")
    paid = -_ledger(r, "Ann")["trade"][-1][1]
    assert _trade(r, "Ann").data["points"] == 0 and _trade(r, "Bob").data["points"] == paid > 0
    assert r.state.relations == []


def test_end_trade_and_an_attack_on_one_sheet_neither_ends_it_nor_fights() -> None:
    """6.31b: ending is mutual; the one-sided way out is war (6.31a) with its forfeit, so an
    "end trade" beside an attack does not slip out of the forfeit."""
    s = _partners()
    s.flights.append(flight("Ann", "1012", "1014", F=5))
    r = resolve(s, [orders("Ann", diplomacy=[diplo("end trade", "Bob")])], dice=[3, 4])
    assert [x.kind for x in r.state.relations] == ["trade"]
    assert events(r, "battle") == []
    assert _trade(r, "Ann").data["points"] == 2  # trade goes on while it stands
    asked = [e for e in events(r, "trade_agreement") if e.data["action"] == "end proposed"]
    assert {e.visible_to for e in asked} == {("Ann",), ("Bob",)}
    [pending] = r.state.proposals
    assert (pending.kind, pending.proposer, pending.to) == ("end trade", "Ann", "Bob")
    # Bob agrees a turn later: it ends, and no trade is rolled.
    waiting = _partners()
    waiting.proposals = list(r.state.proposals)
    later = resolve(waiting, [orders("Bob", diplomacy=[diplo("end trade", "Ann")])])
    assert later.state.relations == [] and later.state.proposals == []
    assert events(later, "trade") == []


def test_ending_an_agreement_by_both_sides_costs_nothing_and_stops_the_roll() -> None:
    both = [
        orders("Ann", diplomacy=[diplo("end trade", "Bob")]),
        orders("Bob", diplomacy=[diplo("end trade", "Ann")]),
    ]
    r = resolve(_partners(), both)
    assert r.state.relations == [] and events(r, "trade") == []
    ended = [e for e in events(r, "trade_agreement") if e.data["action"] == "ended"]
    assert {e.visible_to for e in ended} == {("Ann",), ("Bob",)}
    assert not [e for e in events(r, "order_cancelled")]


def _class_x_aggressor(stockpile: int):
    """Ann's worlds are all class X (no income; 1009, unowned, spoils her subsector bonus)
    and she has ``stockpile`` points in stock; she and Bob trade."""
    s = _partners()
    s.system("1010").resource_class = "X"
    s.systems.append(system("1009", "X"))
    s.player("Ann").stockpile = stockpile
    return s


def test_an_aggressor_with_no_production_pays_nothing_from_its_stockpile() -> None:
    """6.31a: the victim's trade is "taken directly from the aggressor's production total".
    Ann's income is 0 and she has 4 points in stock; she owes Bob a row-12 trade (x3 of her
    3 systems = 9).  Her production total is 0: Bob gains nothing, her 4 points stay."""
    war = [orders("Ann", diplomacy=[diplo("declare war", "Bob")])]
    r = resolve(_class_x_aggressor(4), war, dice=[6, 6])
    ann = _ledger(r, "Ann")
    assert ann["income_total"] == 0
    assert ann["trade"] == [["trade with Bob (forfeited to Bob (you went to war))", 0]]
    assert ann["stockpile_after"] == 4
    assert _trade(r, "Bob").data["points"] == 0
    assert _ledger(r, "Bob")["trade"] == [
        ["trade with Ann (paid by Ann, who went to war; Ann could pay only 0 of 9)", 0]
    ]


def test_house_rule_whole_budget_the_victim_gains_what_the_stockpile_can_pay() -> None:
    """war_forfeit = whole-budget (the earlier reading): the same 9 points owed are paid from
    Ann's stockpile, income and other trade, 4 + 0 + 0: she pays 4, Bob gains 4."""
    war = [orders("Ann", diplomacy=[diplo("declare war", "Bob")])]
    r = resolve(_class_x_aggressor(4), war, dice=[6, 6], war_forfeit="whole-budget")
    assert _ledger(r, "Ann")["income_total"] == 0
    assert _trade(r, "Bob").data["points"] == 4
    assert "Ann could pay only 4 of 9" in _trade(r, "Bob").text
    ann = _ledger(r, "Ann")
    assert ann["trade"][-1] == ["taken by the victims of your declarations of war", -4]
    assert ann["stockpile_after"] == 0
    assert _ledger(r, "Bob")["trade"] == [
        ["trade with Ann (paid by Ann, who went to war; Ann could pay only 4 of 9)", 4]
    ]


def test_the_forfeit_is_capped_by_the_aggressors_income_whatever_its_stockpile() -> None:
    """Ann's income is 5 (1010 class A; 1009, unowned, spoils her subsector bonus), her
    stockpile 30.  Row 12 (6+6): Bob is owed Ann's 3 systems x3 = 9.  By default Ann's
    production total pays 5 of them: Bob gains 5, Ann keeps 30 + 5 - 5 = 30.  Under the
    house rule whole-budget Bob gains all 9 and Ann keeps 30 + 5 - 9 = 26."""
    s = _partners()
    s.systems.append(system("1009", "X"))
    s.player("Ann").stockpile = 30
    war = [orders("Ann", diplomacy=[diplo("declare war", "Bob")])]
    r = resolve(s, war, dice=[6, 6])
    ann = _ledger(r, "Ann")
    assert ann["income_total"] == 5
    assert ann["trade"][-1] == ["taken by the victims of your declarations of war", -5]
    assert ann["stockpile_after"] == 30
    assert _ledger(r, "Bob")["trade"] == [
        ["trade with Ann (paid by Ann, who went to war; Ann could pay only 5 of 9)", 5]
    ]
    assert _trade(r, "Bob").text == (
        "Trade with Ann: rolled 6+6, row 12 (x3): 5 points, paid by Ann, who went to war; "
        "Ann could pay only 5 of 9."
    )
    whole = resolve(s, war, dice=[6, 6], war_forfeit="whole-budget")
    assert _ledger(whole, "Ann")["trade"][-1][1] == -9
    assert _ledger(whole, "Ann")["stockpile_after"] == 26
    assert _ledger(whole, "Bob")["trade"] == [["trade with Ann (paid by Ann, who went to war)", 9]]


def test_an_aggressor_whose_homeworld_has_fallen_pays_nothing() -> None:
    """Ann's homeworld 1010 fell to Cleo last turn and she holds no Construction Facility or
    Depot: no new resource points (7.0), so her production total is 0 under both readings
    (her stockpile went to Cleo).  She declares war on her trade partner Bob: row 12 owes Bob
    Ann's 1 system x3 = 3, and he gains nothing.  Dice: Ann's 1011 rolls 6 against civil
    unrest (1 in 6, it stays loyal), then the trade roll 6+6."""

    def run(**rules):
        s = state(
            [
                system("1010", "A", "Cleo"),
                system("1011", "A", "Ann"),
                system("1013", "E", "Bob"),
                system("1009", "X"),
            ],
            players=("Ann", "Bob", "Cleo"),
            forces=[
                force(h, p, F=1) for h, p in (("1010", "Cleo"), ("1011", "Ann"), ("1013", "Bob"))
            ],
            relations=[("trade", "Ann", "Bob")],
            homeworlds={"Ann": "1010", "Bob": "1013", "Cleo": "1010"},
        )
        s.player("Ann").homeworld_lost = YEAR - 1
        war = [orders("Ann", diplomacy=[diplo("declare war", "Bob")])]
        return resolve(s, war, dice=[6, 6, 6], **rules)

    for rules in ({}, {"war_forfeit": "whole-budget"}):
        r = run(**rules)
        ann = _ledger(r, "Ann")
        assert ann["income_total"] == 0 and ann["income_blocked"]
        assert ann["trade"] == [["trade with Bob (forfeited to Bob (you went to war))", 0]]
        assert ann["stockpile_after"] == 0
        assert _ledger(r, "Bob")["trade"] == [
            ["trade with Ann (paid by Ann, who went to war; Ann could pay only 0 of 3)", 0]
        ]


def test_a_negative_trade_result_is_not_gained_by_the_victim() -> None:
    """6.31a "(Negative points are not gained by the victim)": row 5 (2+3) is -D6, and the
    extra die 6 leaves Bob owed Ann's 3 systems - 6 = -3, that is nothing.  Ann pays nothing
    (no forfeit line) and keeps her income: 15 (1010 class A, 5, and subsector B, which she
    holds alone, 10) into a stockpile of 0."""
    war = [orders("Ann", diplomacy=[diplo("declare war", "Bob")])]
    for rules in ({}, {"war_forfeit": "whole-budget"}):
        r = resolve(_partners(), war, dice=[2, 3, 6], **rules)
        ann = _ledger(r, "Ann")
        assert ann["income_total"] == 15
        assert ann["trade"] == [["trade with Bob (forfeited to Bob (you went to war))", 0]]
        assert ann["stockpile_after"] == 15
        assert _ledger(r, "Bob")["trade"] == [["trade with Ann (paid by Ann, who went to war)", 0]]
        assert _trade(r, "Bob").text == (
            "Trade with Ann: rolled 2+3, row 5 (-D6 6): 0 points, paid by Ann, who went to war."
        )


def _told(r, *kinds):
    return [
        (e.kind, e.phase, e.players, e.visible_to, e.text, dict(e.data))
        for e in r.events
        if e.kind in kinds
    ]


def test_what_ending_a_trade_agreement_tells_each_side() -> None:
    """6.31b in words: a request waits for the other side (both are told, the request is kept
    once however often it is made), both asking end it (both told, no request left), and
    asking to end an agreement that does not exist cancels the order."""
    asked = resolve(
        _partners(),
        [orders("Ann", diplomacy=[diplo("end trade", "Bob")])],
        dice=[3, 4],
    )
    waiting = (
        "Ann asked to end the trade agreement with Bob; it ends when Bob asks too (6.31b).  "
        "Until then it stands, and the two do not fight; declaring war breaks it at once, with "
        "the other's trade of the turn taken from the aggressor's production (6.31a)."
    )
    assert _told(asked, "trade_agreement", "order_cancelled") == [
        (
            "trade_agreement",
            "orders",
            ("Ann", "Bob"),
            ("Ann",),
            waiting,
            {"with": "Bob", "action": "end proposed", "kind": "trade"},
        ),
        (
            "trade_agreement",
            "orders",
            ("Ann", "Bob"),
            ("Bob",),
            waiting,
            {"with": "Ann", "action": "end proposed", "kind": "trade"},
        ),
    ]
    again = _partners()
    again.proposals = list(asked.state.proposals)
    twice = resolve(again, [orders("Ann", diplomacy=[diplo("end trade", "Bob")])], dice=[3, 4])
    assert [(p.kind, p.proposer, p.to) for p in twice.state.proposals] == [
        ("end trade", "Ann", "Bob")
    ]
    both = resolve(
        _partners(),
        [
            orders("Ann", diplomacy=[diplo("end trade", "Bob")]),
            orders("Bob", diplomacy=[diplo("end trade", "Ann")]),
        ],
    )
    ended = "Ann and Bob agreed to end their trade agreement."
    assert _told(both, "trade_agreement", "order_cancelled") == [
        (
            "trade_agreement",
            "orders",
            ("Ann", "Bob"),
            ("Ann",),
            ended,
            {"with": "Bob", "action": "ended", "kind": "trade"},
        ),
        (
            "trade_agreement",
            "orders",
            ("Ann", "Bob"),
            ("Bob",),
            ended,
            {"with": "Ann", "action": "ended", "kind": "trade"},
        ),
    ]
    assert both.state.proposals == [] and both.state.relations == []
    # Bob's own earlier request is dropped when the agreement ends by Ann's.
    pending = _partners()
    pending.proposals = [p for p in asked.state.proposals]
    for p in pending.proposals:
        p.proposer, p.to = "Bob", "Ann"
    done = resolve(pending, [orders("Ann", diplomacy=[diplo("end trade", "Bob")])])
    assert done.state.relations == [] and done.state.proposals == []
    none = resolve(_partners(relations=()), [orders("Ann", diplomacy=[diplo("end trade", "Bob")])])
    assert _told(none, "trade_agreement", "order_cancelled") == [
        (
            "order_cancelled",
            "orders",
            ("Ann",),
            ("Ann",),
            "Your order 'end trade with Bob' was cancelled: no trade agreement with Bob.",
            {"order": "end trade with Bob", "cell": "", "reason": "no trade agreement with Bob"},
        ),
    ]


def _two_partners(stockpile: int):
    """Ann (class A, income 5) trades with Bob and with Cleo (one class E world each)."""
    s = state(
        [
            system("1010", "A", "Ann"),
            system("1012", "E", "Bob"),
            system("1016", "E", "Cleo"),
            *(system(h, "X") for h in ("1009", "1019", "1013", "1017")),
        ],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=1), force("1012", "Bob", F=1), force("1016", "Cleo", F=1)],
        relations=[("trade", "Ann", "Bob"), ("trade", "Ann", "Cleo")],
    )
    s.player("Ann").stockpile = stockpile
    return s


def test_war_on_two_partners_shares_the_production_pro_rata_ties_in_name_order() -> None:
    """6.31a twice over: Ann declares war on both partners; each is owed its trade (6+6: row
    12, x3 of one world = 3).  Ann's production total is her income of 5: shared pro rata,
    each gets 5 x 3/6 = 2.5, whole points 2 and 2, and the point left goes to the larger
    fraction, equal here, so to the first by name: Bob 3, Cleo 2.  Her stockpile of 20 does
    not pay (she keeps 20 + 5 - 5 = 20); under the house rule whole-budget it does, both get
    3 and Ann keeps 20 + 5 - 6 = 19."""
    war = [orders("Ann", diplomacy=[diplo("declare war", "Bob"), diplo("declare war", "Cleo")])]
    poor = resolve(_two_partners(0), war, dice=[6, 6, 6, 6])
    assert _ledger(poor, "Ann")["trade"][-1] == [
        "taken by the victims of your declarations of war",
        -5,
    ]
    assert _ledger(poor, "Ann")["stockpile_after"] == 0
    assert _ledger(poor, "Bob")["trade"] == [["trade with Ann (paid by Ann, who went to war)", 3]]
    assert _ledger(poor, "Cleo")["trade"] == [
        ["trade with Ann (paid by Ann, who went to war; Ann could pay only 2 of 3)", 2]
    ]
    assert _trade(poor, "Cleo").text == (
        "Trade with Ann: rolled 6+6, row 12 (x3): 2 points, paid by Ann, who went to war; "
        "Ann could pay only 2 of 3."
    )
    assert _trade(poor, "Ann").text == (
        "Trade with Bob: rolled 6+6, row 12 (x3): 0 points, forfeited to Bob (you went to war)."
    )
    stocked = resolve(_two_partners(20), war, dice=[6, 6, 6, 6])
    assert _ledger(stocked, "Ann")["stockpile_after"] == 20
    assert [_ledger(stocked, p)["trade"][0][1] for p in ("Bob", "Cleo")] == [3, 2]
    rich = resolve(_two_partners(20), war, dice=[6, 6, 6, 6], war_forfeit="whole-budget")
    assert _ledger(rich, "Ann")["stockpile_after"] == 19
    assert [_ledger(rich, p)["trade"][0][1] for p in ("Bob", "Cleo")] == [3, 3]


def _three_world_aggressor(stockpile: int):
    """Ann owns 1010 (class A, income 5) and two class X worlds, 3 systems in all (1009,
    unowned, spoils subsector B; Bob and Cleo spoil F); she trades with Bob and with Cleo."""
    s = _two_partners(stockpile)
    s.systems += [system("1011", "X", "Ann"), system("1014", "X", "Ann")]
    s.forces += [force("1011", "Ann", F=1), force("1014", "Ann", F=1)]
    return s


def test_several_victims_owed_unequal_amounts_share_by_the_largest_remainder() -> None:
    """Ann-Bob rolls 6+6 (row 12, x3 of Ann's 3 systems: Bob is owed 9), Ann-Cleo 5+5 (row
    10, x1.5: 4.5, rounded up to 5).  14 owed, Ann's production total is 5:
    Bob 5 x 9/14 = 3.21, Cleo 5 x 5/14 = 1.79; whole points 3 + 1 = 4, and the point left
    goes to the larger fraction, Cleo's: Bob 3, Cleo 2, Ann pays 5.  (In name order Bob
    would have taken all 5.)"""
    war = [orders("Ann", diplomacy=[diplo("declare war", "Bob"), diplo("declare war", "Cleo")])]
    r = resolve(_three_world_aggressor(0), war, dice=[6, 6, 5, 5])
    ann = _ledger(r, "Ann")
    assert ann["income_total"] == 5
    assert ann["trade"][-1] == ["taken by the victims of your declarations of war", -5]
    assert ann["stockpile_after"] == 0
    assert _ledger(r, "Bob")["trade"] == [
        ["trade with Ann (paid by Ann, who went to war; Ann could pay only 3 of 9)", 3]
    ]
    assert _ledger(r, "Cleo")["trade"] == [
        ["trade with Ann (paid by Ann, who went to war; Ann could pay only 2 of 5)", 2]
    ]


def test_house_rule_whole_budget_shares_a_shortfall_the_same_way() -> None:
    """The same 9 and 5 owed, whole-budget with 2 in stock: Ann can pay 2 + 5 = 7.  Bob
    7 x 9/14 = 4.5, Cleo 7 x 5/14 = 2.5; whole points 4 + 2 = 6, the fractions are equal, so
    the point left goes to Bob by name: Bob 5, Cleo 2.  With 20 in stock (25 >= 14) both are
    paid in full and Ann keeps 25 - 14 = 11."""
    war = [orders("Ann", diplomacy=[diplo("declare war", "Bob"), diplo("declare war", "Cleo")])]
    short = resolve(_three_world_aggressor(2), war, dice=[6, 6, 5, 5], war_forfeit="whole-budget")
    assert _ledger(short, "Ann")["trade"][-1][1] == -7
    assert _ledger(short, "Ann")["stockpile_after"] == 0
    assert [_ledger(short, p)["trade"][0][1] for p in ("Bob", "Cleo")] == [5, 2]
    full = resolve(_three_world_aggressor(20), war, dice=[6, 6, 5, 5], war_forfeit="whole-budget")
    assert _ledger(full, "Ann")["stockpile_after"] == 11
    assert [_ledger(full, p)["trade"][0][1] for p in ("Bob", "Cleo")] == [9, 5]


def test_share_out_never_pays_more_than_it_has_nor_more_than_is_owed() -> None:
    assert share_out(5, {"Bob": 9, "Cleo": 5}) == {"Bob": 3, "Cleo": 2}
    assert share_out(7, {"Bob": 9, "Cleo": 5}) == {"Bob": 5, "Cleo": 2}
    assert share_out(0, {"Bob": 9, "Cleo": 5}) == {"Bob": 0, "Cleo": 0}
    assert share_out(20, {"Bob": 9, "Cleo": 5}) == {"Bob": 9, "Cleo": 5}
    assert share_out(2, {"Bob": 0, "Cleo": 5, "Dan": 5}) == {"Bob": 0, "Cleo": 1, "Dan": 1}
    for means in range(12):
        for owed in ({"A": 1, "B": 1, "C": 1}, {"A": 7, "B": 2, "C": 0}, {"A": 3, "B": 5}):
            shares = share_out(means, owed)
            assert sum(shares.values()) == min(means, sum(owed.values()))
            assert all(0 <= shares[v] <= owed[v] for v in owed)


def test_an_aggressor_that_is_also_a_victim_pays_exactly_what_its_victim_gains() -> None:
    """Ann declares war on Bob while Cleo declares war on Ann (all three trade with Ann; rows
    12, so Bob is owed Ann's 3 systems x3 = 9 and Ann is owed Cleo's 1 x3 = 3).  What Ann
    gains from Cleo is decided alongside what she pays Bob, so it does not count towards what
    she can pay, under either reading: by default she pays her income of 5; whole-budget, her
    stockpile of 2 and income of 5, 7.  Cleo's one class E world yields 1 and she has nothing
    in stock, so under either reading Ann gains 1 of her 3.  Both sides of every forfeit show
    the same figure."""
    s = _three_world_aggressor(2)
    war = [
        orders("Ann", diplomacy=[diplo("declare war", "Bob")]),
        orders("Cleo", diplomacy=[diplo("declare war", "Ann")]),
    ]
    for rules, paid in (({}, 5), ({"war_forfeit": "whole-budget"}, 7)):
        r = resolve(s, war, dice=[6, 6, 6, 6], **rules)
        ann, bob, cleo = (_ledger(r, p) for p in ("Ann", "Bob", "Cleo"))
        assert ann["trade"] == [
            ["trade with Bob (forfeited to Bob (you went to war))", 0],
            ["trade with Cleo (paid by Cleo, who went to war; Cleo could pay only 1 of 3)", 1],
            ["taken by the victims of your declarations of war", -paid],
        ]
        assert bob["trade"][0][1] == paid
        assert cleo["trade"][-1] == ["taken by the victims of your declarations of war", -1]
        assert ann["stockpile_after"] == 2 + 5 + 1 - paid
