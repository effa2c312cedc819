"""The demo: a whole game played by computer players, through the same path as a human's turn.

`run_demo` creates a game on a generated sector (or a real sector file) with computer players
whose homeworlds the tool assigns, then plays it turn by turn.  Each turn (`play_turn`) is the
referee's week in miniature:

1. every player's pre-filled turn sheet is in ``outbox/<step>/`` (the writer a human gets);
2. each computer player decides its orders from what it may see (`Ruleset.computer_orders`)
   and types them into a copy of its sheet (`Ruleset.fill_sheet`), kept in
   ``computer/<step>/``;
3. the filled sheets go through the intake (`inbox.intake`), which checks and files them
   exactly as it files a sheet that came by e-mail;
4. the turn is resolved (`turns.resolve_game`): archive, new master, next sheets.

So every turn of the demo exercises write -> read -> check -> resolve.  `play_turn` is the
place to hang more per-turn work (the reports).

The demo folder is replaced on the next run only if it holds the marker file
``.refassist-demo`` that a demo leaves; any other non-empty folder is refused, so a typo cannot
wipe a real game.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UsageError
from .game import Game
from .rulesets import find_ruleset
from .rulesets.base import Event, PlayerSetup
from .turns import TurnOutcome, resolve_game
from .turnsheets import sheet_filename, write_sheets

MARKER = ".refassist-demo"
COMPUTER_DIR = "computer"
DEMO_RULESET = "fifth-millennium"

#: Names of the computer players' empires (stars of the Traveller sky, more or less).
EMPIRE_NAMES = (
    "Arcturus",
    "Betelgeuse",
    "Capella",
    "Deneb",
    "Electra",
    "Fomalhaut",
    "Gienah",
    "Hadar",
    "Izar",
    "Jabbah",
    "Kochab",
    "Lesath",
    "Mirach",
    "Nunki",
    "Okul",
    "Pollux",
    "Rigel",
    "Sabik",
    "Thuban",
    "Vega",
)


@dataclass
class TurnSummary:
    """One line of the demo's output: what happened in one resolved step."""

    step: str
    label: str
    battles: int
    captures: int
    occupied: int
    leader: str
    leader_systems: int
    accepted: int
    problems: int
    finished: str = ""
    seconds: float = 0.0
    #: The step the turn led to: its reports and sheets are in ``outbox/<next_step>/``.
    next_step: str = ""

    def text(self) -> str:
        line = (
            f"{self.label}: {self.battles} battle{'s' if self.battles != 1 else ''}, "
            f"{self.captures} capture{'s' if self.captures != 1 else ''}, "
            f"{self.occupied} newly occupied"
        )
        if self.leader:
            plural = "s" if self.leader_systems != 1 else ""
            line += f"; leader {self.leader} ({self.leader_systems} system{plural})"
        if self.problems:
            line += f"; {self.problems} sheet(s) with problems"
        if self.finished:
            line += f". {self.finished}"
        return line


@dataclass
class DemoResult:
    folder: Path
    game: Game
    turns: list[TurnSummary] = field(default_factory=list)
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


def create_demo_game(
    folder: Path, players: int, seed: int, sector_file: Path | None = None
) -> Game:
    """A new game of computer players with assigned homeworlds, marked as a demo."""
    ruleset = find_ruleset(DEMO_RULESET)
    if not ruleset.min_players <= players <= min(ruleset.max_players, len(EMPIRE_NAMES)):
        raise UsageError(
            f"the demo plays with {ruleset.min_players}-"
            f"{min(ruleset.max_players, len(EMPIRE_NAMES))} players, not {players}"
        )
    if sector_file is not None and not Path(sector_file).is_file():
        raise UsageError(f"sector file {sector_file} not found")
    setups = [
        PlayerSetup(name, f"{name.lower()}@example.com", computer=True)
        for name in EMPIRE_NAMES[:players]
    ]
    prepare_folder(folder)
    game = Game.create(
        folder,
        ruleset,
        setups,
        name="Demo game",
        seed=seed,
        map_file=Path(sector_file) if sector_file is not None else None,
        generate_seed=None if sector_file is not None else seed,
        assign_homeworlds=True,
        # A demo is for showing, not for secrets: the same --seed plays the same game.
        secret=hashlib.sha256(f"refassist-demo:{seed}".encode()).hexdigest()[:32],
    )
    (Path(folder) / MARKER).write_text(
        "This folder was made by `refassist demo`; the next demo here replaces it.\n",
        encoding="utf-8",
    )
    with game.lock():
        write_sheets(game, game.load_state())
    return game


def computer_sheets(game: Game, state: Any, seed: int) -> list[Path]:
    """Each computer player's sheet for the current step, filled in with its orders."""
    step = game.step(state)
    sheets = [game.outbox(step.key) / sheet_filename(p) for p in step.expects]
    if not all(path.is_file() for path in sheets):
        with game.lock():
            write_sheets(game, state)
    work = game.path / COMPUTER_DIR / step.key
    work.mkdir(parents=True, exist_ok=True)
    filled = []
    for player, sheet in zip(step.expects, sheets, strict=True):
        orders = game.ruleset.computer_orders(state, player, seed, game.config.house_rules)
        target = work / sheet.name
        shutil.copyfile(sheet, target)
        game.ruleset.fill_sheet(target, orders)
        filled.append(target)
    return filled


def summarise(outcome: TurnOutcome, state: Any, accepted: int, problems: int) -> TurnSummary:
    """Battles, captures and the leader by systems owned, from a resolved step."""
    events: list[Event] = outcome.events
    owners: dict[str, int] = {}
    for system in getattr(state, "systems", []):
        if getattr(system, "owner", ""):
            owners[system.owner] = owners.get(system.owner, 0) + 1
    leader = min(owners, key=lambda p: (-owners[p], p)) if owners else ""
    return TurnSummary(
        step=outcome.step,
        next_step=outcome.next_step,
        label=outcome.label,
        battles=sum(1 for e in events if e.kind == "battle"),
        captures=sum(1 for e in events if e.kind == "capture" and e.data.get("from")),
        occupied=sum(1 for e in events if e.kind == "capture" and not e.data.get("from")),
        leader=leader,
        leader_systems=owners.get(leader, 0),
        accepted=accepted,
        problems=problems,
        finished=outcome.finished,
    )


def play_turn(game: Game, seed: int) -> TurnSummary:
    """One demo turn: sheets filled by the computer players, intake, resolve."""
    from .inbox import intake

    started = time.perf_counter()
    state = game.load_state()
    filled = computer_sheets(game, state, seed)
    report = intake(game, filled)
    outcome = resolve_game(game)
    from .report.game_reports import write_reports

    write_reports(game, state=outcome.state)
    summary = summarise(
        outcome, outcome.state, report.count("accepted"), len(filled) - report.count("accepted")
    )
    summary.seconds = time.perf_counter() - started
    return summary


def run_demo(
    folder: Path,
    *,
    players: int = 6,
    turns: int = 12,
    seed: int = 1,
    sector_file: Path | None = None,
    progress: Progress | None = None,
) -> DemoResult:
    """Create a demo game in ``folder`` and play up to ``turns`` turns (fewer if it ends)."""
    if turns < 1:
        raise UsageError(f"--turns must be at least 1, not {turns}")
    started = time.perf_counter()
    game = create_demo_game(Path(folder), players, seed, sector_file)
    result = DemoResult(folder=Path(folder), game=game)
    if progress is not None:
        progress(0, turns, None)
    for done in range(1, turns + 1):
        summary = play_turn(game, seed)
        result.turns.append(summary)
        if progress is not None:
            progress(done, turns, summary)
        if summary.finished:
            result.finished = summary.finished
            break
    result.seconds = time.perf_counter() - started
    return result
