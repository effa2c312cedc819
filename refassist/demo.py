"""The demo: a whole game played by computer players, through the same path as a human's turn.

`run_demo` creates a game of any ruleset (the first registered one unless named) with the
computer players the ruleset supplies (`Ruleset.demo_players`), on a map file, a map generated
from the seed (for games that invent maps), or the game's default map, then plays it turn by
turn.  Each turn (`play_turn`) is the referee's week in miniature:

1. every player's pre-filled turn sheet is in ``outbox/<step>/`` (the writer a human gets);
2. each computer player decides its orders from what it may see (`Ruleset.computer_orders`)
   and types them into a copy of its sheet (`Ruleset.fill_sheet`), kept in
   ``computer/<step>/``;
3. the filled sheets go through the intake (`inbox.intake`), which checks and files them
   exactly as it files a sheet that came by e-mail;
4. the turn is resolved (`turns.resolve_game`): archive, new master, next sheets;
5. the reports are rendered (`report.game_reports.write_reports`).

So every turn of the demo exercises write -> read -> check -> resolve -> report.  The line
printed per turn comes from the ruleset (`Ruleset.turn_highlights`, `Ruleset.standing`): the
demo never reads a game's state itself.

The demo folder is replaced on the next run only if it holds the marker file
``.refassist-demo`` that a demo leaves; any other non-empty folder is refused, so a typo cannot
wipe a real game.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UsageError
from .rulesets import default_ruleset, find_ruleset
from .rulesets.base import COMPUTER_PLAYER_NAMES, Ruleset, Standing
from .store.game import Game
from .store.recovery import working
from .store.turnsheets import sheet_filename, write_sheets
from .text.words import counted
from .turns import TurnOutcome, resolve_game

MARKER = ".refassist-demo"
COMPUTER_DIR = "computer"
#: Computer players in a demo when no count is given (within the game's range).
DEFAULT_PLAYERS = 6

#: The default computer players' names (kept under their old name for callers and tests).
EMPIRE_NAMES = COMPUTER_PLAYER_NAMES


@dataclass
class TurnSummary:
    """One line of the demo's output: what happened in one resolved step."""

    step: str
    label: str
    #: What the step brought, in the ruleset's words (`Ruleset.turn_highlights`).
    highlights: str
    #: Who leads after it (`Ruleset.standing`), None when the game names no leader.
    standing: Standing | None
    accepted: int
    problems: int
    finished: str = ""
    seconds: float = 0.0
    #: The step the turn led to: its reports and sheets are in ``outbox/<next_step>/``.
    next_step: str = ""
    #: The step closed a game turn: always for a game whose every step is a turn; for a game
    #: whose turn is several exchanges (`Step.game_turn`), its last exchange.
    closes_turn: bool = True

    def text(self) -> str:
        line = f"{self.label}: {self.highlights}"
        if self.standing is not None:
            line += f"; leader {self.standing.text()}"
        if self.problems:
            line += f"; {counted(self.problems, 'sheet')} with problems"
        if self.finished:
            line += f". {self.finished}"
        return line


@dataclass
class DemoResult:
    folder: Path
    game: Game
    #: Every step played (a turn, or an exchange of a game whose turn is several).
    turns: list[TurnSummary] = field(default_factory=list)
    #: Game turns played to their end (`TurnSummary.closes_turn`).
    game_turns: int = 0
    finished: str = ""
    seconds: float = 0.0


Progress = Callable[[int, int, TurnSummary | None], None]


def prepare_folder(folder: Path) -> None:
    """Refuse a non-empty folder unless an earlier demo left its marker; then empty it."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file; give a folder for the demo game")
    if folder.is_dir() and any(folder.iterdir()):
        if not (folder / MARKER).is_file():
            raise UsageError(
                f"{folder} is not empty and was not made by refassist demo (no {MARKER} file); "
                "choose a new folder so nothing of yours is overwritten"
            )
        for child in folder.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()


def demo_ruleset(name: str | None = None) -> Ruleset:
    """The ruleset a demo plays: the one named, else the first registered one."""
    return find_ruleset(name) if name else default_ruleset()


def demo_player_count(ruleset: Ruleset, players: int | None) -> int:
    """The number of computer players: as asked, else `DEFAULT_PLAYERS` brought into the
    game's range (so a two-player game plays with two, a big game with six).

    Checked here, before any folder is touched, so a wrong count is a one-line error.
    """
    if players is None:
        players = min(max(DEFAULT_PLAYERS, ruleset.min_players), ruleset.max_players)
    ruleset.demo_players(players)  # raises UsageError for a count the game does not allow
    return players


def create_demo_game(
    folder: Path,
    players: int | None,
    seed: int,
    map_file: Path | None = None,
    *,
    ruleset: Ruleset | str | None = None,
    scenario_file: Path | None = None,
    name: str = "Demo game",
    language: str = "",
) -> Game:
    """A new game of computer players with assigned start positions, marked as a demo.

    Without ``map_file`` a game that invents maps plays on one generated from ``seed``; any
    other game plays on its default map.  ``language`` (a code, ``en``) is the game's, so every
    page of the demo (sheets, reports, replies, the public page) is in it; empty: the ruleset's.
    """
    game_ruleset = ruleset if isinstance(ruleset, Ruleset) else demo_ruleset(ruleset)
    setups = game_ruleset.demo_players(demo_player_count(game_ruleset, players))
    for given, what in ((map_file, "map file"), (scenario_file, "scenario file")):
        if given is not None and not Path(given).is_file():
            raise UsageError(f"{what} {given} not found")
    generate = map_file is None and game_ruleset.generates_maps
    prepare_folder(folder)
    game = Game.create(
        folder,
        game_ruleset,
        setups,
        name=name,
        seed=seed,
        map_file=Path(map_file) if map_file is not None else None,
        scenario_file=Path(scenario_file) if scenario_file is not None else None,
        generate_seed=seed if generate else None,
        assign_homeworlds=True,
        # A demo is for showing, not for secrets: the same --seed plays the same game.
        secret=hashlib.sha256(f"refassist-demo:{seed}".encode()).hexdigest()[:32],
        language=language,
    )
    (Path(folder) / MARKER).write_text(
        "This folder was made by `refassist demo`; the next demo here replaces it.\n",
        encoding="utf-8",
    )
    with working(game):
        write_sheets(game, game.load_state())
    return game


def computer_sheets(
    game: Game, state: Any, seed: int, only: Sequence[str] | None = None
) -> list[Path]:
    """Each computer player's sheet for the current step, filled in with its orders (every
    player the step expects, as in the demo, or ``only`` these)."""
    step = game.step(state)
    who = [p for p in step.expects if only is None or p in only]
    sheets = [game.outbox(step.key) / sheet_filename(p) for p in who]
    if not all(path.is_file() for path in sheets):
        with working(game):
            write_sheets(game, state)
    work = game.path / COMPUTER_DIR / step.key
    work.mkdir(parents=True, exist_ok=True)
    filled = []
    for player, sheet in zip(who, sheets, strict=True):
        orders = game.ruleset.computer_orders(state, player, seed, game.config.house_rules)
        target = work / sheet.name
        shutil.copyfile(sheet, target)
        game.ruleset.fill_sheet(target, orders)
        filled.append(target)
    return filled


def file_computer_orders(game: Game) -> list[str]:
    """In a game with computer players beside people (``computer`` in players.csv), fill in
    and file the sheet of each computer player who has none accepted for the current step, as
    the demo does; returns who.  `refassist resolve` calls it first, so the turn's orders are
    all filed, archived and replayable like a person's."""
    from .store.inbox_index import sheet_states

    state = game.load_state()
    step = game.step(state)
    if game.ruleset.game_over(state):
        return []
    todo = [p.player for p in sheet_states(game, step) if p.computer and p.state != "accepted"]
    if not todo:
        return []
    # The intake (and the sheet reader it brings) only when there is a sheet to file.
    from .intake.inbox import intake

    intake(game, computer_sheets(game, state, game.config.seed, only=todo))
    return todo


def summarise(
    game: Game, outcome: TurnOutcome, state: Any, accepted: int, problems: int
) -> TurnSummary:
    """The demo's line for a resolved step, in the ruleset's words."""
    return TurnSummary(
        step=outcome.step,
        next_step=outcome.next_step,
        label=outcome.label,
        highlights=game.ruleset.turn_highlights(state, outcome.events),
        standing=game.ruleset.standing(state),
        accepted=accepted,
        problems=problems,
        finished=outcome.finished,
    )


def play_turn(game: Game, seed: int) -> TurnSummary:
    """One demo turn: sheets filled by the computer players, intake, resolve, reports."""
    from .intake.inbox import intake

    started = time.perf_counter()
    state = game.load_state()
    game_turn = game.step(state).game_turn
    filled = computer_sheets(game, state, seed)
    report = intake(game, filled)
    outcome = resolve_game(game)
    from .report.game_reports import write_reports

    write_reports(game, state=outcome.state)
    summary = summarise(
        game,
        outcome,
        outcome.state,
        report.count("accepted"),
        len(filled) - report.count("accepted"),
    )
    summary.seconds = time.perf_counter() - started
    if game_turn is not None and not outcome.finished:
        summary.closes_turn = game.step(outcome.state).game_turn != game_turn
    return summary


def run_demo(
    folder: Path,
    *,
    players: int | None = None,
    turns: int = 12,
    seed: int = 1,
    map_file: Path | None = None,
    ruleset: str | None = None,
    scenario_file: Path | None = None,
    progress: Progress | None = None,
    language: str = "",
) -> DemoResult:
    """Create a demo game in ``folder`` and play up to ``turns`` turns (fewer if it ends):
    game turns, each of as many steps as it takes in a game whose turn is several exchanges.

    ``players`` defaults to `DEFAULT_PLAYERS` within the game's range; ``ruleset`` to the
    first registered one; ``language`` the game's language (empty: the ruleset's).
    """
    if turns < 1:
        raise UsageError(f"--turns must be at least 1, not {turns}")
    started = time.perf_counter()
    game = create_demo_game(
        Path(folder),
        players,
        seed,
        map_file,
        ruleset=ruleset,
        scenario_file=scenario_file,
        language=language,
    )
    result = DemoResult(folder=Path(folder), game=game)
    if progress is not None:
        progress(0, turns, None)
    from .report.build import kept_workers

    # One set of report processes for the whole game: a fresh one's first report costs
    # several warm ones, and the demo writes reports every turn.
    with kept_workers():
        while result.game_turns < turns:
            summary = play_turn(game, seed)
            result.turns.append(summary)
            result.game_turns += summary.closes_turn
            if progress is not None:
                progress(result.game_turns, turns, summary)
            if summary.finished:
                result.finished = summary.finished
                break
    result.seconds = time.perf_counter() - started
    return result
