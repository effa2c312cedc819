"""Games for the benchmarks: built once, outside the timed part, the same way on every run.

* `turn_game` - a Fifth Millennium game of human players (their sheets come by e-mail) on a
  real sector, advanced some turns by the computer players so that the empires are mid-game
  size, with the current turn's sheets in ``outbox/`` and a mailbox holding each player's
  filled-in sheet (`mailbox_of_sheets`), as a referee's Saturday night looks;
* `computer_state` - a game of computer players kept in memory (64 on the Solomani Rim for
  the resolution benchmark).

The players' part of the week (filling in the sheet, mailing it) is not timed: the computer
players' orders are typed into each player's own sheet by `fill_sheet`, like a spreadsheet
program would, and mailed with `refassist.mail.messages.build_message`.
"""

from __future__ import annotations

import mailbox
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from refassist.dice import Dice
from refassist.mail.messages import build_message
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import NewGame, PlayerSetup
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets

RULESET = "fifth-millennium"
#: Names of the benchmark's players (stars, as in the demo, then more).
NAMES = tuple(f"P{i:02d}" for i in range(64))
HUMAN_NAMES = (
    "Ann",
    "Bob",
    "Cleo",
    "Dev",
    "Eve",
    "Finn",
    "Gus",
    "Hana",
    "Ivo",
    "Jo",
    "Kai",
    "Lu",
    "Mo",
    "Ned",
    "Ola",
    "Pia",
    "Quin",
    "Rae",
    "Sol",
    "Tia",
    "Uma",
    "Vic",
    "Wes",
    "Xan",
)


def computer_state(
    sector: Path, players: int, seed: int, house_rules: Mapping[str, Any]
) -> tuple[Any, Any, dict[str, Any]]:
    """(ruleset, first state, house rules) of an in-memory game of computer players."""
    ruleset = find_ruleset(RULESET)
    rules = ruleset.default_house_rules()
    rules.update(house_rules)
    setup = NewGame(
        game_name="Benchmark",
        game_id="benchmark",
        players=tuple(
            PlayerSetup(name, f"{name.lower()}@example.com", computer=True)
            for name in NAMES[:players]
        ),
        house_rules=rules,
        map_file=sector,
        assign_homeworlds=True,
    )
    return ruleset, ruleset.new_game(setup, Dice.for_turn(seed, 0)), rules


def advance(ruleset: Any, state: Any, turns: int, seed: int, rules: Mapping[str, Any]) -> Any:
    """``turns`` turns of computer orders resolved in memory."""
    for _ in range(turns):
        if ruleset.game_over(state):
            break
        orders = {p: ruleset.computer_orders(state, p, seed, rules) for p in state.active_players()}
        state = ruleset.resolve(state, orders, Dice.for_turn(seed, state.year), rules).state
    return state


def turn_game(folder: Path, sector: Path, players: int, warm_turns: int, seed: int) -> Game:
    """A game folder of ``players`` human players whose current turn awaits their sheets.

    The game is created as a referee would (`Game.create` on the sector file), then played
    ``warm_turns`` turns by the computer players in memory, and the state after them saved as
    the master; the current turn's sheets are written into ``outbox/``.
    """
    ruleset = find_ruleset(RULESET)
    setups = [PlayerSetup(name, f"{name.lower()}@example.com") for name in HUMAN_NAMES[:players]]
    game = Game.create(
        folder,
        ruleset,
        setups,
        name="Benchmark game",
        seed=seed,
        map_file=sector,
        assign_homeworlds=True,
    )
    state = advance(ruleset, game.load_state(), warm_turns, seed, game.config.house_rules)
    with game.lock():
        game.save_state(state)
        write_sheets(game, state)
    return game


def mailbox_of_sheets(game: Game, target: Path, seed: int) -> Path:
    """An mbox with one message per player, its sheet filled in with the computer player's
    orders for it (the players' part of the week, not timed)."""
    state = game.load_state()
    step = game.step(state)
    work = target.parent / "filled"
    work.mkdir(parents=True, exist_ok=True)
    box = mailbox.mbox(str(target))
    try:
        for player in step.expects:
            sheet = game.outbox(step.key) / sheet_filename(player)
            filled = work / sheet.name
            shutil.copyfile(sheet, filled)
            orders = game.ruleset.computer_orders(state, player, seed, game.config.house_rules)
            game.ruleset.fill_sheet(filled, orders)
            config = game.config.player(player)
            message = build_message(
                sender=config.email if config else f"{player.lower()}@example.com",
                to=game.config.referee_email,
                subject=f"Orders for {step.key}",
                body=f"Here are my orders for {step.key}.\n\n{player}\n",
                attachments=[filled],
                sender_name=player,
            )
            box.add(message)
        box.flush()
    finally:
        box.close()
    return target
