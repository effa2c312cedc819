"""Loss of the homeworld and civil unrest (section 7).

Two causes of unrest, rolled in their own phase after departures and before production (so a
world that declares independence yields nothing that turn):

* the homeworld has fallen and the player holds no Control Centre or Depot: from the turn after
  the loss, every world the player owns rolls for a Unilateral Declaration of Independence;
* separation (section 7.2): the player's worlds form groups separated by "an area between
  which is not visible"; a player sees every hex within best range of an occupied world (2.4),
  so two worlds are in one group when their visible areas overlap or touch, that is when they
  are at most 2 x best range + 1 hexes apart (range 4: nine hexes); a group with no held
  homeworld, Control Centre or Depot is cut off and suffers unrest from the turn after it was
  first found cut off.

The chance grows with the turns of unrest: 1 in 6 the first turn, then 2, 3, 4, and 5 in 6 from
the fifth turn on (a roll at or under the chance declares independence).  For separation the
count lives in the previous turn's ``unrest`` events (the state keeps the last turn's events),
so a group that is reconnected and cut off again starts again at the beginning.

A world that declares independence becomes unowned (not a change of hands); the player's
squadrons there become independent and surrender to the first force to arrive (`conflict`);
the player's facilities there are lost in the uprising.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...geometry.hexmap import distance
from ..base import Event
from .context import TurnContext, add_force
from .movement_rules import best_range

PHASE = "unrest"
#: Chance in six of a UDI by turns of unrest (1, 2, 3, 4, then 5 for the fifth and later).
UDI_CHANCE = (0, 1, 2, 3, 4, 5)
#: Facilities that hold an empire together (with the homeworld).
ANCHORS = ("CC", "DEPOT")


def udi_chance(turns: int) -> int:
    """Chance in six of independence after ``turns`` turns of unrest (0 before the first)."""
    return UDI_CHANCE[max(0, min(turns, len(UDI_CHANCE) - 1))]


def link_distance(reach: int) -> int:
    """The farthest two worlds may be apart and still see the whole area between them: each
    sees ``reach`` hexes around it, and two such areas touch when a hex of one is next to a
    hex of the other."""
    return 2 * reach + 1


def groups_of(hexes: Sequence[str], reach: int) -> list[list[str]]:
    """Worlds split into groups linked by chains of hops of at most ``reach`` hexes (the
    caller passes `link_distance` of the best range)."""
    remaining = sorted(hexes)
    groups = []
    while remaining:
        group = [remaining.pop(0)]
        i = 0
        while i < len(group):
            near = [h for h in remaining if distance(group[i], h) <= reach]
            for h in near:
                remaining.remove(h)
            group.extend(near)
            i += 1
        groups.append(sorted(group))
    return groups


def separated_worlds(ctx: TurnContext, player: str) -> set[str]:
    """The player's worlds in groups without a held homeworld, Control Centre or Depot."""
    state = ctx.state
    p = state.player(player)
    assert p is not None
    owned = [s.hex for s in state.systems if s.owner == player]
    anchors = {
        f.hex
        for f in state.facilities
        if f.owner == player and f.kind in ANCHORS and not f.building
    }
    if p.homeworld and not p.homeworld_lost:
        anchors.add(p.homeworld)
    out: set[str] = set()
    for group in groups_of(owned, link_distance(best_range(p, ctx.rules))):
        if not anchors & set(group):
            out.update(group)
    return out


def _previous_turns(previous: Sequence[Event], player: str) -> dict[str, int]:
    """Turns of separation unrest each world had last turn (from last turn's events)."""
    out = {}
    for event in previous:
        if (
            event.kind in ("unrest", "udi")
            and event.data.get("player") == player
            and event.data.get("cause") == "separated"
        ):
            out[str(event.data.get("hex"))] = int(event.data.get("turns", 0))
    return out


def civil_unrest(ctx: TurnContext, previous: Sequence[Event]) -> None:
    """Roll for every world in unrest; worlds that declare independence leave their empire."""
    state = ctx.state
    for player in state.active_players():
        p = state.player(player)
        assert p is not None
        has_anchor = any(
            f.owner == player and f.kind in ANCHORS and not f.building for f in state.facilities
        )
        home_turns = ctx.year - p.homeworld_lost if p.homeworld_lost and not has_anchor else 0
        if p.homeworld_lost == ctx.year and not has_anchor:
            continue  # unrest starts the turn after the loss (its event tells the player)
        separated = separated_worlds(ctx, player) if not home_turns else set()
        before = _previous_turns(previous, player)
        for s in [s for s in state.systems if s.owner == player]:
            if home_turns:
                cause, turns = "homeworld", home_turns
            elif s.hex in separated:
                cause, turns = "separated", before.get(s.hex, -1) + 1
            else:
                continue
            chance = udi_chance(turns)
            if chance == 0:
                ctx.tell(
                    player,
                    PHASE,
                    s.hex,
                    "unrest",
                    f"{s.hex} {s.name} is cut off from your homeworld, Control Centres and "
                    "Depots: civil unrest will start next turn unless it is reconnected.",
                    data={
                        "hex": s.hex,
                        "player": player,
                        "cause": cause,
                        "turns": turns,
                        "chance": 0,
                        "roll": 0,
                    },
                )
                continue
            mark = ctx.dice_mark()
            with ctx.dice.at(phase=PHASE, location=s.hex):
                roll = ctx.dice.d6(f"civil unrest, {player} at {s.hex} ({chance} in 6)")
            data = {
                "hex": s.hex,
                "player": player,
                "cause": cause,
                "turns": turns,
                "chance": chance,
                "roll": roll,
            }
            why = (
                "your homeworld has fallen"
                if cause == "homeworld"
                else "it is cut off from your homeworld, Control Centres and Depots"
            )
            if roll > chance:
                ctx.tell(
                    player,
                    PHASE,
                    s.hex,
                    "unrest",
                    f"Civil unrest at {s.hex} {s.name} ({why}): rolled {roll} against "
                    f"{chance} in 6, the world stays loyal.",
                    data=data,
                    dice=ctx.dice_since(mark),
                )
                continue
            viewers = ctx.viewers(s.hex)
            declare_independence(ctx, s.hex, player)
            ctx.emit(
                PHASE,
                s.hex,
                "udi",
                f"{s.hex} {s.name} declared independence from {player} ({why}; rolled {roll} "
                f"against {chance} in 6).",
                players=(player,),
                visible_to={player} | viewers,
                data=data,
                dice=ctx.dice_since(mark),
            )
    ctx.refresh_sight()


def declare_independence(ctx: TurnContext, hex_: str, player: str) -> None:
    """The world leaves the empire: squadrons turn independent, facilities are lost."""
    state = ctx.state
    system = state.system(hex_)
    assert system is not None
    system.owner = ""
    mine = [f for f in state.forces if f.hex == hex_ and f.owner == player]
    state.forces[:] = [f for f in state.forces if not (f.hex == hex_ and f.owner == player)]
    for force in mine:
        add_force(state, hex_, "", force.fleet, M=force.M, P=force.P)
    state.facilities[:] = [f for f in state.facilities if not (f.hex == hex_ and f.owner == player)]
    p = state.player(player)
    assert p is not None
    if p.stockpile_at == hex_:
        p.stockpile_at = ""
