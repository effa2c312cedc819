"""Messages, treaties, trade agreements and declarations of war, carried out at the start of a
turn (before the fleets arrive, so a treaty both sides ask for this turn already prevents this
turn's battles).

* Messages go through the referee and are delivered in the recipients' next report; ``*``
  means every other player still in the game.
* Treaties and trade agreements need both sides: a proposal waits until the other player
  proposes the same (in the same turn or any later one), then the agreement is in force.
* Either side may end a treaty at any time; the other is told.  A trade agreement ends only
  by agreement (6.31b "may be mutually terminated"): "end trade" from one side waits, like a
  proposal, until the other sends it too; the one-sided way out is a declaration of war, with
  its forfeit (6.31a).  Until then the agreement stands, trade is rolled and the two do not
  fight (5.0).
* A declaration of war ends the treaty and the trade agreement between the two players; if they
  traded, the aggressor forfeits this turn's trade to the victim (section 6.31, see `trade`).
"""

from __future__ import annotations

from collections.abc import Mapping

from .context import TurnContext, has_relation
from .movement import cancel
from .orders import Orders
from .state import Message, Proposal, Relation

PHASE = "orders"
#: Longest message delivered; the rest is cut (a report is not a mail server).
MAX_MESSAGE_CHARS = 2000

_KIND_OF = {
    "propose treaty": "treaty",
    "end treaty": "treaty",
    "propose trade": "trade",
    "end trade": "trade",
}
_EVENT_KIND = {"treaty": "treaty", "trade": "trade_agreement"}
_NAME = {"treaty": "treaty", "trade": "trade agreement"}


def _other_problem(ctx: TurnContext, player: str, other: str) -> str:
    p = ctx.state.player(other)
    if p is None:
        return f"{other!r} is not a player of this game"
    if other == player:
        return "you cannot make an agreement with yourself"
    if p.eliminated:
        return f"{other} is out of the game"
    return ""


def deliver_messages(ctx: TurnContext, orders: Mapping[str, Orders]) -> None:
    """Messages written this turn replace last turn's (which their recipients have read)."""
    state = ctx.state
    state.messages = []
    active = state.active_players()
    for sender in active:
        player_orders = orders.get(sender)
        if player_orders is None:
            continue
        for message in player_orders.messages:
            text = message.text.strip()[:MAX_MESSAGE_CHARS]
            if not text:
                continue
            if message.to == "*":
                recipients = [p for p in active if p != sender]
            else:
                problem = _other_problem(ctx, sender, message.to)
                if message.to == sender:
                    problem = "you cannot send a message to yourself"
                if problem:
                    cancel(ctx, PHASE, sender, f"message to {message.to}", message.cell, problem)
                    continue
                recipients = [message.to]
            state.messages.append(
                Message(year=ctx.year, sender=sender, recipient=message.to, text=text)
            )
            to_text = "everyone" if message.to == "*" else message.to
            ctx.emit(
                PHASE,
                "",
                "message",
                f"Message from {sender} to {to_text}: {text}",
                players=(sender, *recipients),
                visible_to={sender, *recipients},
                data={"from": sender, "to": message.to, "text": text},
            )


def _remove_relation(ctx: TurnContext, kind: str, a: str, b: str) -> bool:
    x, y = sorted((a, b))
    before = len(ctx.state.relations)
    ctx.state.relations[:] = [
        r for r in ctx.state.relations if not (r.kind == kind and r.a == x and r.b == y)
    ]
    return len(ctx.state.relations) != before


def _drop_proposals(ctx: TurnContext, kind: str | None, a: str, b: str) -> None:
    ctx.state.proposals[:] = [
        p
        for p in ctx.state.proposals
        if not ((kind is None or p.kind == kind) and {p.proposer, p.to} == {a, b})
    ]


#: A request to end a trade agreement, kept as a proposal until the other side agrees.
END_TRADE = "end trade"


def _end_trade(
    ctx: TurnContext,
    player: str,
    other: str,
    cell: str,
    ending: set[tuple[str, str]],
    ended_now: set[tuple[str, str]],
) -> None:
    """6.31b: a trade agreement ends when both sides ask, this turn or one after the other."""
    state = ctx.state
    pair = tuple(sorted((player, other)))
    if pair in ended_now:
        return  # the other side's request ended it a moment ago
    if not has_relation(state, "trade", player, other):
        _drop_proposals(ctx, END_TRADE, player, other)
        cancel(
            ctx, PHASE, player, f"end trade with {other}", cell, f"no trade agreement with {other}"
        )
        return
    mutual = (other, player) in ending or any(
        p.kind == END_TRADE and p.proposer == other and p.to == player for p in state.proposals
    )
    if mutual:
        _remove_relation(ctx, "trade", player, other)
        _drop_proposals(ctx, END_TRADE, player, other)
        ended_now.add(pair)
        _tell_both(
            ctx,
            "trade",
            player,
            other,
            "ended",
            f"{player} and {other} agreed to end their trade agreement.",
        )
        return
    if not any(
        p.kind == END_TRADE and p.proposer == player and p.to == other for p in state.proposals
    ):
        state.proposals.append(Proposal(kind=END_TRADE, proposer=player, to=other, year=ctx.year))
    _tell_both(
        ctx,
        "trade",
        player,
        other,
        "end proposed",
        f"{player} asked to end the trade agreement with {other}; it ends when {other} asks "
        "too (6.31b).  Until then it stands, and the two do not fight; declaring war breaks it "
        "at once, with the other's trade of the turn taken from the aggressor's production "
        "(6.31a).",
    )


def _tell_both(ctx: TurnContext, kind: str, a: str, b: str, action: str, text: str) -> None:
    """One event per party, so each report reads ``with`` as the other player."""
    for me, other in ((a, b), (b, a)):
        ctx.emit(
            PHASE,
            "",
            _EVENT_KIND[kind],
            text,
            players=(a, b),
            visible_to=(me,),
            data={"with": other, "action": action, "kind": kind},
        )


def apply_diplomacy(ctx: TurnContext, orders: Mapping[str, Orders]) -> None:
    """Endings and declarations of war first, then proposals (which may form agreements)."""
    state = ctx.state
    intents: list[tuple[str, str, str, str]] = []
    ending = {
        (player, order.other)
        for player in state.active_players()
        for order in (orders[player].diplomacy if player in orders else [])
        if order.action == "end trade"
    }
    ended_now: set[tuple[str, str]] = set()
    for player in state.active_players():
        player_orders = orders.get(player)
        if player_orders is None:
            continue
        for order in player_orders.diplomacy:
            label = f"{order.action} with {order.other}"
            problem = _other_problem(ctx, player, order.other)
            if problem:
                cancel(ctx, PHASE, player, label, order.cell, problem)
                continue
            other = order.other
            if order.action == "declare war":
                ended = [k for k in ("treaty", "trade") if _remove_relation(ctx, k, player, other)]
                _drop_proposals(ctx, None, player, other)
                if "trade" in ended:
                    x, y = sorted((player, other))
                    ctx.wars.add((player, other))
                    ctx.broken_trade.add((x, y))
                ended_text = " and ".join(_NAME[k] for k in ended)
                ctx.emit(
                    PHASE,
                    "",
                    "war",
                    f"{player} declared war on {other}"
                    + (f"; their {ended_text} ended" if ended else "")
                    + ".",
                    players=(player, other),
                    visible_to=(player, other),
                    data={"aggressor": player, "victim": other, "ended": ended},
                )
            elif order.action == "end trade":
                _end_trade(ctx, player, other, order.cell, ending, ended_now)
            elif order.action.startswith("end "):
                kind = _KIND_OF[order.action]
                if not _remove_relation(ctx, kind, player, other):
                    _drop_proposals(ctx, kind, player, other)
                    cancel(ctx, PHASE, player, label, order.cell, f"no {_NAME[kind]} with {other}")
                    continue
                _tell_both(
                    ctx,
                    kind,
                    player,
                    other,
                    "ended",
                    f"{player} ended the {_NAME[kind]} with {other}.",
                )
            elif order.action.startswith("propose "):
                intents.append((player, other, _KIND_OF[order.action], order.cell))
            else:
                cancel(ctx, PHASE, player, label, order.cell, "unknown diplomacy action")
    formed: set[tuple[str, str, str]] = set()
    for player, other, kind, cell in intents:
        pair = (kind, *sorted((player, other)))
        if pair in formed:
            continue  # the other side's proposal formed it a moment ago
        if has_relation(state, kind, player, other):
            cancel(
                ctx,
                PHASE,
                player,
                f"propose {kind} with {other}",
                cell,
                f"a {_NAME[kind]} with {other} is already in force",
            )
            continue
        mutual = any(i[0] == other and i[1] == player and i[2] == kind for i in intents) or any(
            p.kind == kind and p.proposer == other and p.to == player for p in state.proposals
        )
        if mutual:
            a, b = sorted((player, other))
            state.relations.append(Relation(kind=kind, a=a, b=b, since=ctx.year))
            formed.add((kind, a, b))
            _drop_proposals(ctx, kind, player, other)
            _tell_both(
                ctx,
                kind,
                a,
                b,
                "formed",
                f"{a} and {b} agreed a {_NAME[kind]}, in force from {ctx.year}.",
            )
            continue
        state.proposals[:] = [
            p
            for p in state.proposals
            if not (p.kind == kind and p.proposer == player and p.to == other)
        ]
        state.proposals.append(Proposal(kind=kind, proposer=player, to=other, year=ctx.year))
        _tell_both(
            ctx,
            kind,
            player,
            other,
            "proposed",
            f"{player} proposed a {_NAME[kind]} to {other}; it comes into force when {other} "
            "proposes one too.",
        )
