"""Dice: the only source of chance in refassist.

Rules never call a random generator themselves (OpenSpiel's habit): they ask a `Dice` object,
which takes its numbers either from a seeded generator or from a file of rolls a referee made
with physical dice, and records every roll with the turn, phase, location and purpose.  The log
goes into the master workbook's dice sheet and the reports, so any battle can be shown roll by
roll and re-run to the same result.

The seed of a turn is derived from the game seed and the turn, so turns are independent
(re-running turn 7 does not depend on how many dice turn 6 used), and a commitment to a turn's
seed (its SHA-256) can be published before the deadline and the seed itself after resolution
(``docs/dice.md``).  In a game the derivation is keyed with the game's secret (HMAC-SHA256):
the game seed may be small or guessable (``--seed 7``), and without the key a player who learnt
one turn's seed could try every game seed and so foresee the dice of every later turn.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .errors import DiceExhausted, UsageError


@dataclass(frozen=True)
class Roll:
    """One die rolled: where, why, how many sides, what came up."""

    seq: int
    turn: int
    phase: str
    location: str
    purpose: str
    sides: int
    result: int


#: The number a new game's dice are derived from (homeworlds drawn, counters picked): no step
#: has it, so no published seed replays a game's creation.
CREATION_TURN = -1

#: How a game's turn seeds are derived; recorded in each archive so old turns replay the same.
SEED_SCHEME = "hmac-sha256-v1"
#: The derivation used before the key was added (archives without a ``seed_scheme``).
LEGACY_SEED_SCHEME = "sha256-v0"


def turn_seed(game_seed: int, turn: int, key: str | None = None) -> int:
    """The seed of one turn, as a 64-bit integer.

    With ``key`` (a game's secret): HMAC-SHA256 of the game seed and the turn; revealing it
    tells nothing about other turns.  Without: plain SHA-256 of them (rule tests, the golden
    game, and archives made before keyed seeds).
    """
    if key is None:
        digest = hashlib.sha256(f"refassist:{game_seed}:{turn}".encode()).digest()
    else:
        message = f"refassist-dice:{game_seed}:{turn}".encode()
        digest = hmac.new(key.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def player_rng(seed: int, player: str, turn: int) -> random.Random:
    """A computer player's own randomness for one turn: its choices, not the game's dice (they
    are never logged or replayed as rolls; the same seed plays the same game)."""
    digest = hashlib.sha256(f"refassist-ai:{seed}:{player}:{turn}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def seed_commitment(seed: int) -> str:
    """SHA-256 hex digest of a turn seed's decimal text, published before the deadline.

    A player checks a revealed seed with ``printf %s SEED | sha256sum`` (see docs/dice.md).
    """
    return hashlib.sha256(str(seed).encode()).hexdigest()


class Dice:
    """Seeded or scripted dice that log every roll.

    Use ``with dice.at(phase="conflict", location="1827"):`` around a group of rolls so that
    each roll carries its context, and ``dice.d6("kill roll, Strike")`` for a single roll.
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        script: list[int] | None = None,
        turn: int = 0,
        source_name: str = "",
    ) -> None:
        if (seed is None) == (script is None):
            raise ValueError("give exactly one of seed or script")
        self.seed = seed
        self.turn = turn
        self._rng = random.Random(seed) if seed is not None else None
        self._script = list(script) if script is not None else None
        self._pos = 0
        self._source_name = source_name
        self.log: list[Roll] = []
        #: The names of the secrets these dice drew (`draws_secret`): the reports withhold
        #: the seed of a step that drew one until the rules make it public (docs/dice.md).
        self.secrets: set[str] = set()
        self._phase = ""
        self._location = ""

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def for_turn(cls, game_seed: int, turn: int, key: str | None = None) -> Dice:
        """Seeded dice for one turn of a game (the normal case); ``key`` as in `turn_seed`."""
        return cls(seed=turn_seed(game_seed, turn, key), turn=turn)

    @classmethod
    def scripted(cls, rolls: list[int], turn: int = 0, source_name: str = "") -> Dice:
        """Dice that replay the given results in order."""
        return cls(script=rolls, turn=turn, source_name=source_name)

    @classmethod
    def from_file(cls, path: Path, turn: int = 0) -> Dice:
        """Dice from a referee's file: integers separated by spaces, commas or new lines.

        ``#`` starts a comment, so a referee can annotate the file (``# battle at 1827``).
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read dice file {path}: {exc.strerror}") from exc
        rolls: list[int] = []
        for lineno, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0]
            for token in re.split(r"[\s,;]+", line.strip()):
                if not token:
                    continue
                if not token.isdigit() or int(token) < 1:
                    raise UsageError(
                        f"dice file {path}, line {lineno}: {token!r} is not a die result "
                        "(write whole numbers from 1 up, separated by spaces or new lines)"
                    )
                rolls.append(int(token))
        return cls(script=rolls, turn=turn, source_name=str(path))

    # -- context ------------------------------------------------------------------------------
    @contextmanager
    def at(self, phase: str | None = None, location: str | None = None) -> Iterator[Dice]:
        """Set the phase and/or location recorded with the rolls made inside the block."""
        old = (self._phase, self._location)
        if phase is not None:
            self._phase = phase
        if location is not None:
            self._location = location
        try:
            yield self
        finally:
            self._phase, self._location = old

    def draws_secret(self, name: str) -> None:
        """Say that the rolls being made draw something the rules keep from some players (a
        deal of cards, a hidden placement, a programme chosen at random), named ``name``.

        The step's seed would let anyone replay the draw, so the reports publish it only when
        the game's `Ruleset.secret_public` says every secret the step drew is public (or the
        game is over); the commitment is published as always, and the referee and
        ``refassist verify`` replay the step as always.
        """
        self.secrets.add(name)

    # -- rolling ------------------------------------------------------------------------------
    def roll(self, sides: int, purpose: str) -> int:
        """Roll one die with the given number of sides."""
        if self._rng is not None:
            result = self._rng.randint(1, sides)
        else:
            assert self._script is not None
            if self._pos >= len(self._script):
                where = f" from {self._source_name}" if self._source_name else ""
                raise DiceExhausted(
                    f"the scripted dice{where} ran out after {len(self._script)} rolls "
                    f"(needed one more for {purpose!r} in phase {self._phase or '-'} at "
                    f"{self._location or '-'}); add more results to the file"
                )
            result = self._script[self._pos]
            self._pos += 1
            if not 1 <= result <= sides:
                raise DiceExhausted(
                    f"scripted die {self._pos} is {result}, which a d{sides} cannot roll "
                    f"(for {purpose!r})"
                )
        self.log.append(
            Roll(
                seq=len(self.log) + 1,
                turn=self.turn,
                phase=self._phase,
                location=self._location,
                purpose=purpose,
                sides=sides,
                result=result,
            )
        )
        return result

    def d6(self, purpose: str) -> int:
        """Roll one six-sided die."""
        return self.roll(6, purpose)

    def nd6(self, n: int, purpose: str) -> list[int]:
        """Roll n six-sided dice, each logged separately."""
        return [self.roll(6, purpose) for _ in range(n)]

    def choice_index(self, n: int, purpose: str) -> int:
        """A uniform pick among n options (0-based), logged as a die with n sides."""
        if n <= 0:
            raise ValueError("nothing to choose from")
        return self.roll(n, purpose) - 1

    @property
    def remaining(self) -> int | None:
        """Scripted results not used yet (None for seeded dice)."""
        return None if self._script is None else len(self._script) - self._pos
