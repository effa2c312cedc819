"""The end of the game (rule X): the conquest programme scored after the last turn, and the
imperial planet that wins at once.

Each programme system scores once: +1 if the Extraterrestrial held a planet of it conquered and
colonised at the end of at least one game turn, -2 if it never did; if the Empire holds such a
planet again at the end (and the Extraterrestrial no colonised planet of the system), -2 when
the Empire recolonised it, -1 when it only retook it, added to the +1 (or replacing it, house
rule ``retaken_replaces``).  Systems outside the programme produce but do not score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .state import ALIEN, EMPIRE, State


def mark_turn_end(state: State) -> None:
    """Count a game turn for every planet the Extraterrestrial holds conquered and colonised."""
    for planet in state.all_planets():
        if planet.holder == ALIEN and planet.colonised == ALIEN:
            planet.alien_colonised_turns += 1


@dataclass(frozen=True)
class ScoreLine:
    system: str
    points: int
    why: str


def programme_score(state: State, rules: Mapping[str, Any]) -> tuple[int, list[ScoreLine]]:
    """The Extraterrestrial's final score and a line per programme system."""
    lines: list[ScoreLine] = []
    for letter in state.programme:
        planets = state.systems[letter].planets
        ever = [p for p in planets if p.alien_colonised_turns > 0]
        if not ever:
            lines.append(ScoreLine(letter, -2, "never conquered and colonised"))
            continue
        still = any(p.holder == ALIEN and p.colonised == ALIEN for p in planets)
        retaken = [p for p in ever if p.holder == EMPIRE]
        if still or not retaken:
            lines.append(ScoreLine(letter, 1, "conquered and colonised"))
            continue
        recolonised = any(p.colonised == EMPIRE for p in retaken)
        loss = -2 if recolonised else -1
        what = "retaken and recolonised by the Empire" if recolonised else "retaken by the Empire"
        if rules["retaken_replaces"]:
            lines.append(ScoreLine(letter, loss, what))
        else:
            lines.append(
                ScoreLine(letter, 1 + loss, f"conquered and colonised (+1), {what} ({loss})")
            )
    return sum(line.points for line in lines), lines


def outcome(score: int, rules: Mapping[str, Any]) -> str:
    """The winner by the final score: ``extraterrestre``, ``empire`` or ``draw``."""
    if score > 0:
        return ALIEN
    if score < 0 or rules["zero_score"] == "empire":
        return EMPIRE
    return "draw"
