"""Treaties, trade agreements, war and messages: both sides must agree; messages reach only
their recipients."""

from __future__ import annotations

from refassist.rulesets.fifth_millennium.state import Message
from tests.fm_states import (
    YEAR,
    diplo,
    events,
    flight,
    force,
    message,
    one,
    orders,
    resolve,
    state,
    system,
)


def _three():
    return state(
        [system("1010", "A", "Ann"), system("1013", "A", "Bob"), system("2520", "A", "Cleo")],
        players=("Ann", "Bob", "Cleo"),
        forces=[force("1010", "Ann", F=2), force("1013", "Bob", F=2), force("2520", "Cleo", F=1)],
    )


def test_a_proposal_waits_until_the_other_side_proposes_too() -> None:
    first = resolve(_three(), [orders("Ann", diplomacy=[diplo("propose treaty", "Bob")])])
    assert first.state.relations == []
    assert [(p.kind, p.proposer, p.to) for p in first.state.proposals] == [("treaty", "Ann", "Bob")]
    told = {e.visible_to: e.data["action"] for e in events(first, "treaty")}
    assert told == {("Ann",): "proposed", ("Bob",): "proposed"}
    second = resolve(
        first.state, [orders("Bob", YEAR + 1, diplomacy=[diplo("propose treaty", "Ann")])]
    )
    assert [(r.kind, r.a, r.b, r.since) for r in second.state.relations] == [
        ("treaty", "Ann", "Bob", YEAR + 1)
    ]
    assert second.state.proposals == []


def test_both_sides_proposing_in_one_turn_agree_at_once_and_prevent_that_turns_battle() -> None:
    s = _three()
    s.flights.append(flight("Bob", "1013", "1010", F=5))
    r = resolve(
        s,
        [
            orders("Ann", diplomacy=[diplo("propose treaty", "Bob")]),
            orders("Bob", diplomacy=[diplo("propose treaty", "Ann")]),
        ],
    )
    assert events(r, "battle") == []
    assert [r_.kind for r_ in r.state.relations] == ["treaty"]
    assert r.state.system("1010").owner == "Ann"


def test_one_side_may_end_a_treaty_and_the_other_is_told() -> None:
    s = _three()
    r0 = resolve(
        s,
        [
            orders("Ann", diplomacy=[diplo("propose trade", "Bob")]),
            orders("Bob", diplomacy=[diplo("propose trade", "Ann")]),
        ],
        dice=[3, 4],  # the new agreement trades in this turn's production already
    )
    assert [r_.kind for r_ in r0.state.relations] == ["trade"]
    ends = [
        orders("Ann", YEAR + 1, diplomacy=[diplo("end trade", "Bob")]),
        orders("Bob", YEAR + 1, diplomacy=[diplo("end trade", "Ann")]),
    ]
    r1 = resolve(r0.state, ends)  # a trade agreement ends by agreement (6.31b)
    assert r1.state.relations == []
    assert {e.visible_to for e in events(r1, "trade_agreement")} == {("Ann",), ("Bob",)}


def test_declaring_war_ends_treaty_and_trade() -> None:
    s = state(
        [system("1010", "A", "Ann"), system("1013", "A", "Bob")],
        forces=[force("1010", "Ann", F=2), force("1013", "Bob", F=2)],
        relations=[("treaty", "Ann", "Bob"), ("trade", "Ann", "Bob")],
    )
    s.flights.append(flight("Ann", "1010", "1013", F=1))
    r = resolve(
        s,
        [orders("Ann", diplomacy=[diplo("declare war", "Bob")])],
        dice=[1, 3, 4],  # without the treaty they fight: Ann's one squadron loses; then trade
    )
    assert r.state.relations == []
    assert one(r, "war").data["ended"] == ["treaty", "trade"]
    assert one(r, "battle").data["outcome"]["held"] is True


def test_messages_reach_only_their_recipients() -> None:
    r = resolve(
        _three(),
        [
            orders(
                "Ann",
                messages=[message("Bob", "Peace?"), message("*", "Hello all"), message("Zed", "x")],
            )
        ],
    )
    assert r.state.messages == [
        Message(YEAR, "Ann", "Bob", "Peace?"),
        Message(YEAR, "Ann", "*", "Hello all"),
    ]
    private, public = events(r, "message")
    assert private.visible_to == ("Ann", "Bob")
    assert public.visible_to == ("Ann", "Bob", "Cleo")
    assert "not a player" in one(r, "order_cancelled").data["reason"]
    later = resolve(r.state, [orders("Cleo", YEAR + 1, messages=[message("Ann", "Hi")])])
    assert later.state.messages == [Message(YEAR + 1, "Cleo", "Ann", "Hi")]  # last turn's read


def test_players_who_sent_nothing_are_told_no_orders_were_received() -> None:
    r = resolve(_three(), [orders("Ann")])
    assert sorted(e.visible_to for e in events(r, "no_orders")) == [("Bob",), ("Cleo",)]


def test_each_impossible_diplomatic_order_is_cancelled_with_its_reason() -> None:
    """Every order a player cannot carry out is cancelled and only its writer is told, with
    the order, its cell and why; a withdrawn treaty proposal is dropped with it."""
    from refassist.rulesets.fifth_millennium.orders import Diplomacy
    from refassist.rulesets.fifth_millennium.state import Proposal, Relation

    s = _three()
    s.relations.append(Relation("trade", "Ann", "Cleo", YEAR - 1))
    s.proposals.append(Proposal(kind="treaty", proposer="Ann", to="Bob", year=YEAR - 1))
    sheet = [
        Diplomacy("propose treaty", "Zed", cell="Diplomacy!B4"),
        Diplomacy("propose treaty", "Ann", cell="Diplomacy!B5"),
        Diplomacy("end treaty", "Bob", cell="Diplomacy!B6"),
        Diplomacy("shake hands", "Bob", cell="Diplomacy!B7"),
        Diplomacy("propose trade", "Cleo", cell="Diplomacy!B8"),
    ]
    r = resolve(s, [orders("Ann", diplomacy=sheet)], dice=[3, 4])  # the trade roll
    told = [
        (e.phase, e.players, e.visible_to, e.text, dict(e.data))
        for e in events(r, "order_cancelled")
    ]
    expected = [
        ("propose treaty with Zed", "Diplomacy!B4", "'Zed' is not a player of this game"),
        ("propose treaty with Ann", "Diplomacy!B5", "you cannot make an agreement with yourself"),
        ("end treaty with Bob", "Diplomacy!B6", "no treaty with Bob"),
        ("shake hands with Bob", "Diplomacy!B7", "unknown diplomacy action"),
        (
            "propose trade with Cleo",
            "Diplomacy!B8",
            "a trade agreement with Cleo is already in force",
        ),
    ]
    assert told == [
        (
            "orders",
            ("Ann",),
            ("Ann",),
            f"Your order '{order}' was cancelled: {reason}.",
            {"order": order, "cell": cell, "reason": reason},
        )
        for order, cell, reason in expected
    ]
    # "end treaty" with no treaty withdraws Ann's own treaty proposal to Bob.
    assert r.state.proposals == []
    assert [(x.kind, x.a, x.b) for x in r.state.relations] == [("trade", "Ann", "Cleo")]


def test_a_crowded_turn_of_diplomacy_is_settled_and_told_once_each() -> None:
    """War ends both of Ann and Bob's agreements and Bob's pending treaty proposal to Ann;
    Ann and Cleo propose a treaty to each other in the same turn (formed once), and Bob's
    standing trade proposal meets Cleo's (formed once), each told to both sides."""
    from refassist.rulesets.fifth_millennium.state import Proposal, Relation

    s = _three()
    s.relations += [
        Relation("treaty", "Ann", "Bob", YEAR - 2),
        Relation("trade", "Ann", "Bob", YEAR - 2),
    ]
    s.proposals += [
        Proposal(kind="treaty", proposer="Bob", to="Ann", year=YEAR - 1),
        Proposal(kind="trade", proposer="Bob", to="Cleo", year=YEAR - 1),
    ]
    sheets = [
        orders("Ann", diplomacy=[diplo("declare war", "Bob"), diplo("propose treaty", "Cleo")]),
        orders("Bob", diplomacy=[diplo("propose trade", "Cleo")]),
        orders("Cleo", diplomacy=[diplo("propose treaty", "Ann"), diplo("propose trade", "Bob")]),
    ]
    r = resolve(s, sheets, dice=[3, 4, 3, 4])  # the two trades of the turn
    told = [
        (e.kind, e.players, e.visible_to, e.text)
        for e in r.events
        if e.kind in ("war", "treaty", "trade_agreement", "order_cancelled")
    ]
    treaty = f"Ann and Cleo agreed a treaty, in force from {YEAR}."
    trade = f"Bob and Cleo agreed a trade agreement, in force from {YEAR}."
    assert told == [
        (
            "war",
            ("Ann", "Bob"),
            ("Ann", "Bob"),
            "Ann declared war on Bob; their treaty and trade agreement ended.",
        ),
        ("treaty", ("Ann", "Cleo"), ("Ann",), treaty),
        ("treaty", ("Ann", "Cleo"), ("Cleo",), treaty),
        ("trade_agreement", ("Bob", "Cleo"), ("Bob",), trade),
        ("trade_agreement", ("Bob", "Cleo"), ("Cleo",), trade),
    ]
    assert one(r, "war").data == {"aggressor": "Ann", "victim": "Bob", "ended": ["treaty", "trade"]}
    assert [(x.kind, x.a, x.b, x.since) for x in r.state.relations] == [
        ("trade", "Bob", "Cleo", YEAR),
        ("treaty", "Ann", "Cleo", YEAR),
    ]
    assert r.state.proposals == []
    plain = resolve(_three(), [orders("Bob", diplomacy=[diplo("declare war", "Cleo")])])
    assert one(plain, "war").text == "Bob declared war on Cleo."
    assert one(plain, "war").data["ended"] == []


def test_proposing_again_renews_only_that_proposal() -> None:
    from refassist.rulesets.fifth_millennium.state import Proposal

    s = _three()
    s.proposals += [
        Proposal(kind="treaty", proposer="Ann", to="Bob", year=YEAR - 2),
        Proposal(kind="trade", proposer="Ann", to="Bob", year=YEAR - 2),
        Proposal(kind="treaty", proposer="Ann", to="Cleo", year=YEAR - 2),
        Proposal(kind="treaty", proposer="Cleo", to="Bob", year=YEAR - 2),
    ]
    r = resolve(s, [orders("Ann", diplomacy=[diplo("propose treaty", "Bob")])])
    assert sorted((p.kind, p.proposer, p.to, p.year) for p in r.state.proposals) == [
        ("trade", "Ann", "Bob", YEAR - 2),
        ("treaty", "Ann", "Bob", YEAR),
        ("treaty", "Ann", "Cleo", YEAR - 2),
        ("treaty", "Cleo", "Bob", YEAR - 2),
    ]
    asked = "Ann proposed a treaty to Bob; it comes into force when Bob proposes one too."
    assert [(e.visible_to, e.text) for e in events(r, "treaty")] == [
        (("Ann",), asked),
        (("Bob",), asked),
    ]


def test_what_messages_tell_each_player_in_full() -> None:
    r = resolve(
        _three(),
        [
            orders(
                "Ann",
                messages=[
                    message("Zed", "hi"),
                    message("Ann", "me"),
                    message("*", "all of you"),
                    message("Bob", "just you"),
                ],
            )
        ],
    )
    told = [
        (e.kind, e.phase, e.location, e.players, e.visible_to, e.text, dict(e.data))
        for e in r.events
        if e.kind in ("message", "order_cancelled")
    ]
    assert told == [
        (
            "order_cancelled",
            "orders",
            "",
            ("Ann",),
            ("Ann",),
            "Your order 'message to Zed' was cancelled: 'Zed' is not a player of this game.",
            {"order": "message to Zed", "cell": "", "reason": "'Zed' is not a player of this game"},
        ),
        (
            "order_cancelled",
            "orders",
            "",
            ("Ann",),
            ("Ann",),
            "Your order 'message to Ann' was cancelled: you cannot send a message to yourself.",
            {
                "order": "message to Ann",
                "cell": "",
                "reason": "you cannot send a message to yourself",
            },
        ),
        (
            "message",
            "orders",
            "",
            ("Ann", "Bob", "Cleo"),
            ("Ann", "Bob", "Cleo"),
            "Message from Ann to everyone: all of you",
            {"from": "Ann", "to": "*", "text": "all of you"},
        ),
        (
            "message",
            "orders",
            "",
            ("Ann", "Bob"),
            ("Ann", "Bob"),
            "Message from Ann to Bob: just you",
            {"from": "Ann", "to": "Bob", "text": "just you"},
        ),
    ]
