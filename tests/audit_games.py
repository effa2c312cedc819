"""A seeded game of each ruleset played through the engine as people play it, for the tests of
what every player receives (`tests/test_what_players_get.py`).

Players are people here, not computer players: the engine tells a person whose sheet did not
come that none came, and a computer player nothing.  Each step the players it expects fill in
the sheet they were sent (with the computer players' orders), the intake checks and files it
(writing the replies), the step is resolved and every player's report is written, as
``refassist`` does.  One expected player misses one step (``MISSES``), so a missing sheet is
there to report; in Millenium both sides leave their set-up blank, so the tool deals the cards,
chooses the imperial planet and completes the programme at random: draws of secrets.

A game is played once per test session and shared by the xdist workers (a lock and a marker
file in pytest's shared temporary folder).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from filelock import FileLock

from refassist.demo import computer_sheets
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets
from refassist.turns import resolve_game

#: Per game: players, steps to play (enough for battles), and the steps (by their place in
#: the game, 0 first) at which a player it expects sends nothing.
GAMES: dict[str, tuple[int, int, tuple[int, ...]]] = {
    "fifth-millennium": (3, 5, (2,)),
    "imperium-3m": (2, 4, (2,)),
    "full-thrust-campaign": (3, 6, (3,)),
    "millennium-wars": (2, 16, (3,)),
    "millenium": (2, 6, (0, 1, 4)),
}
SEED = 3
SECRET = "the audit game's own secret"
DONE = "played.txt"


def played(name: str, root: Path) -> Game:
    """The game ``name`` played in ``root/<name>`` (played once, whoever asks first)."""
    folder = root / name
    with FileLock(str(root / f"{name}.lock")):
        if not (folder / DONE).is_file():
            _play(name, folder)
    return Game.open(folder)


def _play(name: str, folder: Path) -> None:
    ruleset = find_ruleset(name)
    count, steps, misses = GAMES[name]
    people = [dataclasses.replace(p, computer=False) for p in ruleset.demo_players(count)]
    game = Game.create(
        folder,
        ruleset,
        people,
        name="Audit game",
        seed=SEED,
        generate_seed=SEED if ruleset.generates_maps else None,
        assign_homeworlds=True,
        secret=SECRET,
    )
    write_sheets(game, game.load_state())
    for n in range(steps):
        state = game.load_state()
        if ruleset.game_over(state):
            break
        expects = game.step(state).expects
        absent = expects[:1] if n in misses and not game.step(state).waits_for_referee else ()
        sent = [p for p in expects if p not in absent]
        if sent:
            intake(game, computer_sheets(game, state, SEED + n, only=sent))
        outcome = resolve_game(game, force=True)
        # Every player's report and its mail; the referee's only at the end (no player's).
        write_reports(game, state=outcome.state, referee=n == steps - 1, mail=True)
    (folder / DONE).write_text("played\n", encoding="utf-8")
