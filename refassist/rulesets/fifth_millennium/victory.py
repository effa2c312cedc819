"""The end of a turn: who is out of the game, and whether someone has won (section 1.2).

A player is out when it owns no system and has no squadron left anywhere: not in a system, not
at a refueling station, not in hyperspace.  A fleet still travelling keeps its player in the
game until it arrives (and perhaps takes a world).  What an eliminated player still had that
holds nothing (probes in flight, a refueling station without squadrons, agreements and
proposals) goes with it.

The game ends when one player is left, or when a player owns more than half of the map's
systems at the end of a turn; `State.finished` then says who won and why, and every player is
told.
"""

from __future__ import annotations

from .context import TurnContext

PHASE = "end"


def still_in_game(ctx: TurnContext, player: str) -> bool:
    state = ctx.state
    return (
        any(s.owner == player for s in state.systems)
        or any(f.owner == player and not f.is_empty() for f in state.forces)
        or any(f.owner == player and not f.probe for f in state.flights)
    )


def eliminate(ctx: TurnContext) -> None:
    """Mark players who have nothing left as eliminated, and clear what they leave behind."""
    state = ctx.state
    for p in state.players:
        if p.eliminated or still_in_game(ctx, p.name):
            continue
        p.eliminated = ctx.year
        p.stockpile = 0
        state.flights[:] = [f for f in state.flights if f.owner != p.name]
        state.facilities[:] = [f for f in state.facilities if f.owner != p.name]
        state.forces[:] = [f for f in state.forces if f.owner != p.name]
        state.relations[:] = [r for r in state.relations if p.name not in (r.a, r.b)]
        state.proposals[:] = [x for x in state.proposals if p.name not in (x.proposer, x.to)]
        ctx.emit(
            PHASE,
            "",
            "eliminated",
            f"{p.name} has no world and no squadron left and is out of the game.",
            players=(p.name,),
            visible_to=("*",),
            data={"player": p.name},
        )


def check_victory(ctx: TurnContext) -> None:
    """Set ``state.finished`` when the game is won (or nobody is left)."""
    state = ctx.state
    if state.finished:
        return
    active = state.active_players()
    total = len(state.systems)
    owned = {name: sum(1 for s in state.systems if s.owner == name) for name in active}
    winner = ""
    reason = ""
    if not active:
        state.finished = f"No player survived {ctx.year}; the game ends without a winner."
        ctx.emit(
            PHASE,
            "",
            "victory",
            state.finished,
            visible_to=("*",),
            data={"winner": "", "reason": "no survivor", "systems": 0, "total": total},
        )
        return
    if len(active) == 1:
        winner = active[0]
        reason = "last surviving player"
    else:
        for name in active:
            if owned[name] * 2 > total:
                winner = name
                reason = f"owns {owned[name]} of the {total} systems, more than half"
    if not winner:
        _last_year(ctx, owned, total)
        return
    state.finished = f"{winner} won in {ctx.year}: {reason}."
    ctx.emit(
        PHASE,
        "",
        "victory",
        f"The game is over: {state.finished}",
        players=(winner,),
        visible_to=("*",),
        data={"winner": winner, "reason": reason, "systems": owned[winner], "total": total},
    )


def _last_year(ctx: TurnContext, owned: dict[str, int], total: int) -> None:
    """House rule ``last_year``: a game the referee bounds ends after that year's turn, won by
    the empire owning the most systems; several owning as many share the victory."""
    last = int(ctx.rules["last_year"])
    if not last or ctx.year < last:
        return
    most = max(owned.values())
    winners = sorted(name for name, n in owned.items() if n == most)
    names = " and ".join([", ".join(winners[:-1]), winners[-1]] if len(winners) > 1 else winners)
    verb = "won" if len(winners) == 1 else "share the victory"
    reason = f"the most systems ({most} of {total}) when the last year, {last}, ended"
    ctx.state.finished = f"{names} {verb} in {ctx.year}: {reason}."
    ctx.emit(
        PHASE,
        "",
        "victory",
        f"The game is over: {ctx.state.finished}",
        players=tuple(winners),
        visible_to=("*",),
        data={
            "winner": winners[0] if len(winners) == 1 else "",
            "winners": winners,
            "reason": "last year",
            "systems": most,
            "total": total,
        },
    )


def leader(state_systems_owners: list[str]) -> tuple[str, int]:
    """The player owning most systems (name order on ties) and how many; ``("", 0)`` if none."""
    counts: dict[str, int] = {}
    for owner in state_systems_owners:
        if owner:
            counts[owner] = counts.get(owner, 0) + 1
    if not counts:
        return "", 0
    best = min(counts, key=lambda name: (-counts[name], name))
    return best, counts[best]
