"""Planetary battles told as players read them: who fired what, the dice, the hits, what was
reduced or destroyed, where the landing units stand and who holds the planet.

`planet_battle` records each stage of a fight on a planet (bombardment, landing, surface
battle, evacuation) as event data; the master workbook keeps that data as it is.  The report
turns it into sentences here, as `report.battle_lines` does for space battles, so a player
never reads ``torpedo_factors: 19``.  Data of another shape (an old archive, a hand-edited
workbook) raises `KeyError`/`TypeError`/`ValueError`, and the caller falls back to listing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...text.words import counted

#: What `planet_battle.settle`'s result means, for the reader.
RESULTS = {
    "captured": "the invader has the planet to itself and takes its marker",
    "held": "no invading unit is left on the planet: the defender holds it",
    "cleared": "the enemy's units are gone: the planet is no longer disputed",
    "disputed": "both sides still have units on the planet: it stays disputed, and neither "
    "side's, until one of them is gone",
}
#: What a defending group is called in a sentence.
GROUP_NAMES = {"F": "fighters", "PD": "PD units"}


def planet_battle_lines(kind: str, data: Mapping[str, Any]) -> list[str]:
    """The lines under a ``bombardment``, ``landing``, ``surface battle`` or ``evacuation``
    event's sentence."""
    tell = {
        "bombardment": _bombardment,
        "landing": _landing,
        "surface battle": _surface_battle,
        "evacuation": _evacuation,
    }.get(kind)
    return tell(data) if tell else []


def _dice(values: Sequence[int]) -> str:
    return " ".join(str(int(d)) for d in values) or "no dice"


def _defence(groups: Sequence[Mapping[str, Any]], against: str) -> list[str]:
    """Each defending group's fire: every unit's dice and hits, then what the hits did."""
    lines: list[str] = []
    for group in groups:
        name = GROUP_NAMES.get(str(group["group"]), str(group["group"]))
        shots = list(group["shots"])
        need = shots[0]["need"] if shots else 5
        lines.append(
            f"The defending {name} fire at the {against} (a hit on {need} or more): "
            f"{counted(int(group['hits']), 'hit')}."
        )
        for shot in shots:
            lines.append(
                f"  {shot['unit']} rolls {_dice(shot['dice'])}: {counted(int(shot['hits']), 'hit')}"
            )
        for effect in group["effects"]:
            lines.append(f"  {_effect(effect)}")
        if group["hits"] and not group["effects"]:
            lines.append("  Too few hits to harm a target (each needs its defence in hits).")
    return lines


def _effect(effect: Mapping[str, Any]) -> str:
    text = f"{effect['unit']} {effect['result']}"
    if effect.get("cargo_lost"):
        text += f", and with it {', '.join(effect['cargo_lost'])} aboard"
    if effect.get("cargo_reduced"):
        text += f"; its cargo {', '.join(effect['cargo_reduced'])} reduced"
    if effect.get("by"):
        text += f" (by {effect['by']})"
    return text + "."


def _bombardment(data: Mapping[str, Any]) -> list[str]:
    lines = _defence(data.get("defence", []), "bombarding ships")
    factors = int(data["torpedo_factors"])
    dice = list(data["dice"])
    if dice:
        lines.append(
            f"The fleet bombards with {factors} torpedo factors: "
            f"{counted(len(dice), 'die', 'dice')} (one per 3 factors), each 6 a hit: "
            f"{_dice(dice)}: "
            f"{counted(int(data['hits']), 'hit')}."
        )
    else:
        lines.append(
            f"The fleet has {factors} torpedo factors left: fewer than 3, so no bombardment dice."
        )
    for effect in data.get("effects", []):
        lines.append(f"  {_effect(effect)}")
    if data.get("losses"):
        lines.append(f"Lost by the bombarding fleet: {', '.join(data['losses'])}.")
    reverted = data.get("reverted")
    if reverted:
        lines.append(
            f"The bombardment undoes the terraforming: the planet is type {reverted['to']} "
            f"again (it was {reverted['from']})."
        )
    return lines


def _landing(data: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    if not data["units"] and not data.get("stayed"):
        return ["The fleet carries no troops or fighters to land."]
    landed = [u for u in data["units"] if u.get("result") != "lost"]
    if landed and all(int(u["hex"]) == 0 for u in landed):
        lines.append(f"Into the planetary box: {', '.join(str(u['unit']) for u in landed)}.")
    elif data["units"]:
        where = ", ".join(f"{u['unit']} to hex {u['hex']}" for u in data["units"])
        lines.append(f"The landing craft head for their hexes: {where}.")
    lines += _defence(data.get("defence", []), "landing transports and fighters")
    if data.get("defence") is not None and landed and any(int(u["hex"]) for u in landed):
        standing = ", ".join(
            f"{u['unit']} in hex {u['hex']}" + (" (reduced)" if u.get("damaged") else "")
            for u in landed
        )
        lines.append(f"Landed: {standing}.")
    if data.get("losses"):
        lines.append(f"Lost in the landing: {', '.join(data['losses'])}.")
    for stay in data.get("stayed", []):
        lines.append(f"{stay['unit']} stays aboard: {stay['why']}.")
    return lines


def _surface_battle(data: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for move in data.get("moves", []):
        lines.append(f"{move['unit']} moves from hex {move['from']} to hex {move['to']}.")
    for fight in data.get("fights", []):
        lines.append(f"Hex {fight['hex']}: every unit rolls, each 6 a hit.")
        for roll in fight["rolls"]:
            lines.append(
                f"  {roll['unit']} rolls {_dice(roll['dice'])}: {counted(int(roll['hits']), 'hit')}"
            )
        for effect in fight["effects"]:
            lines.append(f"  {_effect(effect)}")
        if not fight["effects"]:
            lines.append("  No one is hit.")
    if not data.get("fights") and not data.get("moves"):
        lines.append("No hex holds both sides' units: no fighting this time.")
    if data.get("losses"):
        lines.append(f"Destroyed: {', '.join(data['losses'])}.")
    positions = data.get("positions") or {}
    if positions:
        by_hex: dict[int, list[str]] = {}
        for label, h in positions.items():
            by_hex.setdefault(int(h), []).append(str(label))
        lines.append(
            "Still on the planet: "
            + "; ".join(f"hex {h}: {', '.join(units)}" for h, units in sorted(by_hex.items()))
            + "."
        )
    if data.get("result"):
        result = str(data["result"])
        lines.append(f"Result: {RESULTS.get(result, result)}.")
    return lines


def _evacuation(data: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    if data.get("loaded"):
        lines.append(f"Taken aboard {data['fleet']}: {', '.join(data['loaded'])}.")
    for stay in data.get("stayed", []):
        lines.append(f"{stay['unit']} stays on the planet: {stay['why']}.")
    lines += _defence(data.get("defence", []), "transports carrying the evacuees")
    if data.get("losses"):
        lines.append(f"Lost: {', '.join(data['losses'])}.")
    if "disputed" in data:
        lines.append(
            "The planet stays disputed."
            if data["disputed"]
            else "The planet is no longer disputed."
        )
    return lines
