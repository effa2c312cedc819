"""Benchmark 2: resolution alone at scale - 64 computer players on the Solomani Rim, 200 turns.

What one turn times, in this order (everything a turn of the engine does except the sheets,
the mail and the PDFs):

1. every computer player's orders (`Ruleset.computer_orders`: its player view, then its plan);
2. the order checker on each player's orders (`Ruleset.validate`, as resolve does again);
3. the rules (`Ruleset.resolve`: arrivals, battles, departures, unrest, production...);
4. the master workbook written to disk (`Game.save_state`'s writer, `write_master`): the master
   holds the whole current state, so it is written every turn; history (events and dice of
   older turns) is not in it.

Sixty-four players cannot keep their homeworlds 6 hexes apart on a 32x40 sector (about 35 such
seats exist), so the game uses the house rule ``homeworld_min_distance = 3``.  The game and the
dice are seeded: every run plays the same game.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from benchmarks.measure import current_rss_mb, peak_rss_mb
from benchmarks.scenario import computer_state
from refassist.dice import Dice
from refassist.workbook.master import write_master

HOUSE_RULES = {"homeworld_min_distance": 3}


def run(sector: Path, players: int, turns: int, seed: int, work: Path) -> dict[str, Any]:
    """Play ``turns`` turns; per-turn seconds of each part, memory, and what the game did."""
    started = time.perf_counter()
    ruleset, state, rules = computer_state(sector, players, seed, HOUSE_RULES)
    setup_seconds = time.perf_counter() - started
    master = work / "master.xlsx"
    parts: dict[str, list[float]] = {"orders": [], "check": [], "rules": [], "master": []}
    rss: list[float] = []
    battles: list[int] = []
    squadrons: list[int] = []
    players_left: list[int] = []
    played = 0
    for _ in range(turns):
        if ruleset.game_over(state):
            break
        t0 = time.perf_counter()
        active = state.active_players()
        orders = {p: ruleset.computer_orders(state, p, seed, rules) for p in active}
        t1 = time.perf_counter()
        for player, player_orders in orders.items():
            ruleset.validate(state, player, player_orders, rules)
        t2 = time.perf_counter()
        resolution = ruleset.resolve(state, orders, Dice.for_turn(seed, state.year), rules)
        state = resolution.state
        t3 = time.perf_counter()
        write_master(master, ruleset, state, title="Benchmark")
        t4 = time.perf_counter()
        for name, seconds in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            parts[name].append(seconds)
        rss.append(current_rss_mb())
        battles.append(sum(1 for e in resolution.events if e.kind == "battle"))
        squadrons.append(sum(f.fleet.squadrons + f.M for f in state.forces))
        players_left.append(len(state.active_players()))
        played += 1
    return {
        "setup": setup_seconds,
        "turns": played,
        "parts": parts,
        "rss": rss,
        "peak_mb": peak_rss_mb(),
        "battles": battles,
        "squadrons": squadrons,
        "players": players_left,
        "master_kb": master.stat().st_size / 1024 if master.exists() else 0.0,
        "sightings": len(state.sightings),
        "finished": state.finished,
    }
