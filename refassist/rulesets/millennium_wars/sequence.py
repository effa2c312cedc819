"""The sequence of play as play-by-mail exchanges: which sheet the game waits for next.

A game turn is the First Player's turn, then the Second's.  Each player turn has up to three
impulses; the first is always taken, the second and third only if the phasing player
"qualifies", which we read as a C4I level at least the impulse's number (the house rule
``impulse_c4i``, on by default; the seed never defines it).  Each impulse is the phasing
player's sheet (moves, attacks; in the first impulse also purchases and information warfare),
then, when there is something to react to, the other player's reaction sheet (reserve moves and
the defence of the units attacked, after seeing the phasing moves), after which the impulse's
combat is fought.  A UN ceasefire event adds an exchange where both players answer in secret.

Exchanges are skipped rather than sent empty (docs/rules/millennium-wars.md, "Exchanges that
are skipped"): the reaction when the resolution finds nothing to react to (``react`` false;
`resolve.reaction_skipped` decides), the phasing player's later impulses once he declares on
his sheet that he takes no further impulse this player turn (``last``), and, with our
``fast_play`` house rule, every reaction.

Step keys read ``TURN-PLAYER-IMPULSE`` with ``r`` for the reaction (``3-1-2r``: turn 3, the
First Player's second impulse, the reaction; ``3-0-ceasefire`` the ceasefire answers before
the turn's first impulse); they sort in the order they are played.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

_KEY = re.compile(r"^(\d{1,3})-(?:0-(ceasefire)|([12])-([123])(r?))$")


@dataclass(frozen=True)
class Point:
    """Where a game stands: the exchange it waits for."""

    turn: int
    player_turn: int = 1  # 1: the First Player is phasing, 2: the Second
    impulse: int = 1  # 1-3
    reaction: bool = False
    ceasefire: bool = False  # both players answer the UN's demand for a ceasefire

    @property
    def key(self) -> str:
        if self.ceasefire:
            return f"{self.turn}-0-ceasefire"  # before the turn's first impulse
        return f"{self.turn}-{self.player_turn}-{self.impulse}{'r' if self.reaction else ''}"

    @property
    def dice_turn(self) -> int:
        """A number for the step's dice, different for every exchange of the game."""
        if self.ceasefire:
            return self.turn * 100
        return self.turn * 100 + self.player_turn * 10 + self.impulse * 2 + self.reaction


def parse_key(key: str) -> Point:
    match = _KEY.match(key)
    if match is None:
        raise ValueError(f"{key!r} is not a step of this game (e.g. 3-1-2 or 3-1-2r)")
    turn = int(match.group(1))
    if match.group(2):
        return Point(turn, ceasefire=True)
    return Point(turn, int(match.group(3)), int(match.group(4)), bool(match.group(5)))


def qualifies(impulse: int, c4i: int, *, by_c4i: bool = True) -> bool:
    """Whether the phasing player takes ``impulse`` (the first always; without ``by_c4i``,
    the house rule ``impulse_c4i`` off, every one)."""
    return impulse == 1 or not by_c4i or c4i >= impulse


def after(
    point: Point,
    c4i: dict[int, int],
    *,
    fast_play: bool = False,
    by_c4i: bool = True,
    react: bool = True,
    last: bool = False,
) -> Point:
    """The exchange that follows ``point``.  ``c4i``: each player turn's (1, 2) phasing C4I
    level as it will stand when the next impulse begins; ``react``: after an impulse sheet,
    whether its reaction sheet is sent (false: skipped, the combat was fought at once);
    ``last``: the phasing player declared that he takes no further impulse this player turn.
    A new game turn's point is returned even past the game's length; ending the game is the
    caller's."""
    if point.ceasefire:
        return Point(point.turn)
    if not point.reaction and not fast_play and react:
        return replace(point, reaction=True)
    nxt = point.impulse + 1
    if not last and nxt <= 3 and qualifies(nxt, c4i[point.player_turn], by_c4i=by_c4i):
        return Point(point.turn, point.player_turn, nxt)
    if point.player_turn == 1:
        return Point(point.turn, 2)
    return Point(point.turn + 1)


def impulses_skipped(
    point: Point, c4i: int, *, by_c4i: bool = True, last: bool = False
) -> list[tuple[Point, str]]:
    """The later impulses of ``point``'s player turn that will not be played once
    ``point``'s impulse is over, each with the reason in a few words: the phasing player
    declared no further impulse (``last``), or its C4I level ``c4i`` does not qualify."""
    out = []
    for impulse in range(point.impulse + 1, 4):
        if not qualifies(impulse, c4i, by_c4i=by_c4i):
            why = f"C4I {c4i} does not qualify for impulse {impulse}"
        elif last:
            why = "declared no further impulse this player turn"
        else:
            continue
        out.append((Point(point.turn, point.player_turn, impulse), why))
    return out


__all__ = ["Point", "after", "impulses_skipped", "parse_key", "qualifies"]
