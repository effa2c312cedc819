"""A unit's move: a path of adjacent hexes, paid for in movement points, stopped by zones of
control.

Readings recorded in docs/rules/millennium-wars.md: a unit spends at most its speed (one less
in bad weather, never below 1); entering a hex in an enemy zone of control ends the move (the
``zoc_stop`` house rule; a unit may always leave one); no unit enters a hex an enemy holds; a
naval task force moves only at sea, 1 point a hex.  A unit moves once an impulse, and a unit
that moved or attacked in an impulse is Ops Complete for the rest of the game turn (the seed's
markers, removed in the administrative segment): it may not move or attack in a later impulse.
A reserve unit may move in the enemy's reaction phase (and is then Ops Complete).
Disrupted units move as others do (the seed gives disruption no effect on movement).
Stacking is checked at the end of the movement phase, not along the way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .board import Board


@dataclass
class Move:
    """A move as ordered: the unit and the hexes it enters, in order."""

    unit: str
    path: list[str]
    cell: str = ""


@dataclass
class Moved:
    """A move checked: the points spent, where it ends, and what is wrong with it."""

    unit: str
    spent: Fraction = Fraction(0)
    end: str = ""
    problems: list[str] = field(default_factory=list)
    #: Where the move must stop short, if it meets an enemy on the way (a zone of control or a
    #: unit the player could not see when writing the sheet), and the last hex it reaches.
    stopped: str = ""
    reached: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def speed_of(speed: int, bad_weather: bool) -> int:
    return max(1, speed - 1) if bad_weather and speed else speed


def check_move(
    board: Board,
    move: Move,
    side: str,
    *,
    reaction: bool = False,
    bad_weather: bool = False,
    zoc_stop: bool = True,
) -> Moved:
    """Whether ``move`` can be made as ordered (nothing is changed)."""
    got = Moved(move.unit)
    unit = board.unit(move.unit)
    if unit is None or unit.side != side or not unit.hex:
        got.problems.append(f"{move.unit} is not one of your units on the map")
        return got
    if unit.ops_complete:
        got.problems.append(f"{unit.id} is Ops Complete: it moved or fought in an earlier impulse")
    if reaction and not unit.reserve:
        got.problems.append(f"{unit.id} is not a reserve unit: only reserves move in a reaction")
    if not move.path:
        got.problems.append(f"{unit.id}'s move names no hex")
        return got
    allowance = speed_of(unit.speed, bad_weather)
    at = unit.hex
    for k, hex_ in enumerate(move.path):
        if not board.grid.contains(hex_):
            got.problems.append(f"{hex_} is not on the map")
            return got
        if hex_ not in board.grid.neighbours(at):
            got.problems.append(f"{hex_} is not next to {at}")
            return got
        cost = board.step_cost(unit, at, hex_)
        if cost is None:
            ground = board.terrain_of(hex_).name
            kind = "a naval task force" if unit.kind.naval else f"{_a(unit.type)} unit"
            got.problems.append(f"{hex_} is {ground}, where {kind} may not go")
            return got
        if board.enemy_in(hex_, side):
            got.problems.append(f"{hex_} is held by the enemy")
            got.stopped, got.reached = got.problems[-1], at
            return got
        got.spent += cost
        if got.spent > allowance:
            got.problems.append(
                f"the move costs {_points(got.spent)} movement points by {hex_}; "
                f"{unit.id}'s speed is {allowance}"
                + (" (bad weather)" if bad_weather and allowance != unit.speed else "")
            )
            return got
        at = hex_
        rest = move.path[k + 1 :]
        if zoc_stop and rest and not unit.kind.naval and board.in_enemy_zoc(hex_, side):
            got.problems.append(
                f"{hex_} is in an enemy zone of control: the move ends there "
                f"({' '.join(rest)} cannot follow)"
            )
            got.stopped, got.reached = got.problems[-1], hex_
            return got
    got.end = at
    return got


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _points(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):g}"


def make_moves(
    board: Board,
    moves: Sequence[Move],
    side: str,
    *,
    reaction: bool = False,
    bad_weather: bool = False,
    zoc_stop: bool = True,
) -> list[Moved]:
    """Carry out every move that is still possible, in order, on ``board``.  A move that meets
    an enemy on the way (a zone of control, or a unit the player could not see) stops where
    the rules stop it; any other move no longer possible stays where it is and says why.
    Marking the units Ops Complete is the impulse's, once its combat is over."""
    done = []
    seen: set[str] = set()
    for move in moves:
        got = check_move(
            board, move, side, reaction=reaction, bad_weather=bad_weather, zoc_stop=zoc_stop
        )
        if move.unit in seen:
            got.problems.insert(0, f"{move.unit} moves once an impulse")
            got.stopped = ""
        seen.add(move.unit)
        if got.ok or (got.stopped and len(got.problems) == 1):
            unit = board.unit(move.unit)
            assert unit is not None
            unit.hex = got.end or got.reached
        done.append(got)
    return done


__all__ = ["Move", "Moved", "check_move", "make_moves", "speed_of"]
