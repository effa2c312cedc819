"""The game folder: settings, master workbook, inbox, outbox, archive and the lock.

Layout of a game folder::

    game.toml              settings, players and e-mail addresses, house rules, schedule
    master.xlsx            the whole game state (the referee's source of truth)
    inbox/<step>/          every file received, untouched, with index.json; accepted/ late/
    outbox/<step>/         turn sheets, reports and replies sent to players
    archive/<step>/        the master and sheets a resolved step started from, for rollback

Everything that changes the folder takes the lock (``.refassist.lock``), so two refassist
processes never interleave their writes: the second waits a little, then refuses.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import uuid
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from refassist.config import (
    EMAIL_RE,
    PLACEHOLDER_REFEREE_EMAIL,
    GameConfig,
    PlayerConfig,
    load_config,
    new_secret,
    save_config,
)
from refassist.dice import CREATION_TURN, Dice
from refassist.errors import GameError, LockedError, SetupError, UsageError
from refassist.rulesets import Ruleset, find_ruleset
from refassist.rulesets.base import NewGame, PlayerSetup, Step
from refassist.store import statestore
from refassist.store.deadlines import moved_deadline
from refassist.text.i18n import LANGUAGES, Words, language_code, speaking_to, words_for
from refassist.workbook.master import write_master

CONFIG_NAME = "game.toml"
MASTER_NAME = "master.xlsx"
LOCK_NAME = ".refassist.lock"
NAME_RE = re.compile(r"^[\w][\w .'\-]{0,39}$", re.UNICODE)


def read_players_csv(path: Path) -> list[PlayerSetup]:
    """Read ``players.csv`` (``name,email[,homeworld][,computer][,language]``) with clear
    errors.  ``language`` (or ``langue``) is what the player reads: ``en``, ``fr``, ``French``,
    ``français``; empty for the game's language."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"players file {path} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read players file {path}: {exc}") from exc
    reader = csv.DictReader(io.StringIO(text))
    fields = [f.strip().lower() for f in (reader.fieldnames or [])]
    if "name" not in fields or "email" not in fields:
        raise UsageError(
            f"{path}: the first line must be a header with at least the columns name,email "
            "(and optionally homeworld,computer,language)"
        )
    players: list[PlayerSetup] = []
    for lineno, raw in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items() if k}
        if not any(row.values()):
            continue
        players.append(
            PlayerSetup(
                name=row.get("name", ""),
                email=row.get("email", ""),
                homeworld=row.get("homeworld", ""),
                computer=row.get("computer", "").lower() in ("yes", "y", "true", "1", "x"),
                language=_player_language(
                    row.get("language") or row.get("langue") or "", f"{path}, line {lineno}"
                ),
            )
        )
        _check_player(players[-1], f"{path}, line {lineno}")
    return players


def _player_language(value: str, where: str) -> str:
    if not value:
        return ""
    code = language_code(value)
    if code is None:
        known = ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items())
        raise UsageError(f"{where}: {value!r} is not a language refassist speaks ({known})")
    return code


def _check_player(p: PlayerSetup, where: str) -> None:
    if not NAME_RE.match(p.name) or p.name.strip() != p.name:
        raise UsageError(
            f"{where}: player name {p.name!r} must be 1-40 letters, digits, spaces, . ' or -, "
            "starting with a letter or digit"
        )
    if p.name.lower() in ("*", "referee"):
        raise UsageError(f"{where}: {p.name!r} is reserved and cannot be a player's name")
    if not EMAIL_RE.match(p.email):
        raise UsageError(f"{where}: {p.email!r} is not an e-mail address")


def check_players(players: list[PlayerSetup], ruleset: Ruleset) -> None:
    """Refuse duplicate names or addresses and player counts the game does not allow."""
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        raise SetupError(
            f"{ruleset.title} needs {ruleset.min_players}-{ruleset.max_players} players, "
            f"not {len(players)}"
        )
    seen_names: set[str] = set()
    seen_mail: set[str] = set()
    for p in players:
        if p.name.lower() in seen_names:
            raise SetupError(f"player name {p.name!r} appears twice")
        if p.email.lower() in seen_mail:
            raise SetupError(f"e-mail address {p.email!r} appears twice")
        seen_names.add(p.name.lower())
        seen_mail.add(p.email.lower())


def step_sort_key(step: str) -> tuple[int, int, str]:
    """Order of step keys: by the number they start with (turn ``9`` before ``10``; years
    ``5009`` before ``5010``; a step within a turn, ``3-battles``, after ``3`` and before
    ``4``), then any other key by its text.  Folder names sort as text, which puts ``10``
    before ``9`` as soon as a game's turns are numbered from 1."""
    digits = len(step) - len(step.lstrip("0123456789"))
    if not digits:
        return (1, 0, step)
    return (0, int(step[:digits]), step[digits:])


@dataclass
class Game:
    """An open game folder: its config, ruleset and paths."""

    path: Path
    config: GameConfig
    ruleset: Ruleset

    # -- opening and creating -----------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str) -> Game:
        folder = Path(path)
        if not folder.is_dir():
            raise GameError(f"{folder} is not a game folder (it does not exist)")
        config = load_config(folder / CONFIG_NAME)
        ruleset = find_ruleset(config.ruleset)
        problems = ruleset.check_house_rules(config.house_rules)
        if problems:
            raise GameError(f"{folder / CONFIG_NAME}: " + "; ".join(problems))
        return cls(folder, config, ruleset)

    @classmethod
    def create(
        cls,
        path: Path | str,
        ruleset: Ruleset,
        players: list[PlayerSetup],
        *,
        name: str | None = None,
        seed: int | None = None,
        map_file: Path | None = None,
        scenario_file: Path | None = None,
        generate_seed: int | None = None,
        assign_homeworlds: bool = False,
        first_deadline: datetime | None = None,
        days_per_turn: int = 7,
        house_rules: dict[str, Any] | None = None,
        secret: str | None = None,
        referee_email: str = "",
        referee_name: str = "",
        language: str = "",
    ) -> Game:
        """Create a new game folder with ``game.toml`` and ``master.xlsx``.

        Refuses to touch a folder that already holds files, so a typo cannot overwrite a game.
        ``secret`` (signing sheets, keying the turn seeds) is drawn at random unless given: only
        the demo gives one, derived from its seed, so that the same demo plays the same game.
        ``referee_email`` is the address mail to players comes from; without it nothing can
        be sent until the referee sets it in ``game.toml``.  ``language`` is the game's
        (``[game] language``: its players' unless they name their own, and its public page's);
        empty: the ruleset's.
        ``map_file``, ``scenario_file`` and ``generate_seed`` go to the ruleset as they are;
        which ones a game needs is the ruleset's business (`Ruleset.map_required`).
        """
        folder = Path(path)
        if folder.exists() and any(folder.iterdir()):
            raise SetupError(f"{folder} already exists and is not empty; choose a new folder")
        check_players(players, ruleset)
        if referee_email and not EMAIL_RE.match(referee_email):
            raise SetupError(f"the referee's address {referee_email!r} is not an e-mail address")
        rules = ruleset.default_house_rules()
        rules.update(house_rules or {})
        problems = ruleset.check_house_rules(rules)
        if problems:
            raise SetupError("; ".join(problems))
        if seed is None:
            seed = int.from_bytes(uuid.uuid4().bytes[:4], "big")
        # Derived from name and seed so that the same game created twice has the same state.
        game_id = hashlib.sha256(f"{name or folder.name}|{seed}".encode()).hexdigest()[:12]
        config = GameConfig(
            name=name or folder.name,
            id=game_id,
            ruleset=ruleset.name,
            seed=seed,
            secret=secret or new_secret(),
            players=[
                PlayerConfig(p.name, p.email, computer=p.computer, language=p.language)
                for p in players
            ],
            house_rules=rules,
            map=str(map_file)
            if map_file
            else (f"generated:{generate_seed}" if generate_seed is not None else ""),
            scenario=str(scenario_file) if scenario_file else "",
            first_deadline=first_deadline,
            days_per_turn=days_per_turn,
            referee_email=referee_email or PLACEHOLDER_REFEREE_EMAIL,
            referee_name=referee_name,
            language=language,
        )
        setup = NewGame(
            game_name=config.name,
            game_id=game_id,
            players=tuple(players),
            house_rules=rules,
            map_file=map_file,
            scenario_file=scenario_file,
            generate_seed=generate_seed,
            assign_homeworlds=assign_homeworlds,
        )
        # Keyed with the game's secret, on a number no step uses: a game seed is 32 bits, and
        # a player who knew the unkeyed derivation could try every seed against the homeworld
        # he was dealt and so learn where the others were placed (docs/dice.md).
        dice = Dice.for_turn(seed, CREATION_TURN, config.secret)
        state = ruleset.new_game(setup, dice)
        folder.mkdir(parents=True, exist_ok=True)
        for sub in ("inbox", "outbox", "archive"):
            (folder / sub).mkdir(exist_ok=True)
        game = cls(folder, config, ruleset)
        help_ = {r.key: r.description for r in ruleset.all_house_rules()}
        save_config(folder / CONFIG_NAME, config, help_)
        game.save_state(state)
        return game

    # -- state --------------------------------------------------------------------------------
    @property
    def master_path(self) -> Path:
        return self.path / MASTER_NAME

    def load_state(self) -> Any:
        """The state in ``master.xlsx`` (kept between commands by its bytes: `statestore`)."""
        return statestore.load_state(self)

    def save_state(self, state: Any) -> None:
        write_master(self.master_path, self.ruleset, state, title=self.config.name)

    def step(self, state: Any) -> Step:
        return self.ruleset.current_step(state)

    # -- paths --------------------------------------------------------------------------------
    def inbox(self, step: str) -> Path:
        return self.path / "inbox" / step

    def outbox(self, step: str) -> Path:
        return self.path / "outbox" / step

    def archive(self, step: str) -> Path:
        return self.path / "archive" / step

    def token(self, player: str, step: str) -> str:
        return self.config.token(player, step)

    def step_index(self, step: str) -> int:
        """How many steps came before ``step`` (for deadlines): the archive's steps before it."""
        archived = [p.name for p in (self.path / "archive").glob("*") if p.is_dir()]
        return len([s for s in archived if step_sort_key(s) < step_sort_key(step)])

    def deadline(self, step: str) -> datetime | None:
        """The step's deadline: ``game.toml``'s own for it, else the one moved forward when
        its sheets were written with the calendar behind (`deadlines`), else the counted one."""
        if step in self.config.deadlines:
            return self.config.deadlines[step]
        moved = moved_deadline(self.outbox(step))
        if moved is not None:
            return moved
        return self.config.deadline(step, self.step_index(step))

    # -- languages ------------------------------------------------------------------------------
    def language_of(self, player: str) -> str:
        """What ``player`` reads: their own language (players.csv, game.toml), else the
        game's (``[game] language``), else the ruleset's default."""
        cfg = self.config.player(player)
        return (cfg.language if cfg else "") or self.config.language or self.ruleset.language

    def words_for(self, player: str) -> Words:
        """The translator for what ``player`` reads: the engine's texts and the game's."""
        return words_for(self.language_of(player), self.ruleset.package)

    def speaking_to(self, player: str) -> AbstractContextManager[Words]:
        """Within the block, `i18n.current` speaks ``player``'s language (what the rules
        and the engine tell that player alone: the checker, a cancelled order)."""
        return speaking_to(self.language_of(player), self.ruleset.package)

    def deadline_text(self, step: str, words: Words | None = None) -> str:
        """The step's deadline as a reader writes dates (English without ``words``)."""
        return (words or Words()).when(self.deadline(step))

    def player_names(self, names: Sequence[str]) -> list[str]:
        """Players named on the command line, matched the way every command matches them
        (case and surrounding spaces do not matter); `UsageError` names the game's players."""
        known = {p.name.lower(): p.name for p in self.config.players}
        out = []
        for name in names:
            found = known.get(name.strip().lower())
            if found is None:
                raise UsageError(
                    f"there is no player {name!r} in {self.path.name}; players are "
                    f"{', '.join(p.name for p in self.config.players)}"
                )
            out.append(found)
        return out

    # -- locking ------------------------------------------------------------------------------
    @contextmanager
    def lock(self, timeout: float = 10.0) -> Iterator[None]:
        """Hold the game's lock; wait up to ``timeout`` seconds, then refuse with a message."""
        lock = FileLock(str(self.path / LOCK_NAME))
        try:
            lock.acquire(timeout=timeout)
        except Timeout:
            raise LockedError(
                f"another refassist command is working on {self.path} (lock file {LOCK_NAME}); "
                "wait for it to finish and try again"
            ) from None
        try:
            yield
        finally:
            lock.release()
