"""What each resolved turn of a game was, read back from its archive.

``archive/<step>/master.xlsx`` is the master a step was resolved *from*; the state a step left
is therefore the next archived step's master, or ``master.xlsx`` itself for the last one.
Reading a master costs a fraction of a second and a long game has dozens, so what the site
needs of each (scores, events, the step it awaits, the players) is remembered in
``archive/.site-cache.json`` by the SHA-256 of the master's bytes: an archived master never
changes, and one the referee edited simply has other bytes.  A master that cannot be read
(a hand edit gone wrong) leaves a gap in the chart and says why on its turn; it never stops
the site.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..atomic import write_text
from ..errors import RefassistError
from ..rulesets.base import Event
from ..store.game import CONFIG_NAME, Game, step_sort_key
from ..store.turn_seed import commitment
from ..text.i18n import said_as
from ..turns import MANIFEST_NAME, dice_disclosure, manifest_or_empty
from ..workbook.master import read_master
from .chart import START

CACHE_NAME = ".site-cache.json"
#: Changed whenever what the cache keeps changes, so an older cache is read afresh.
CACHE_FORMAT = 2


@dataclass(frozen=True)
class EventLine:
    """One event as the site shows it; ``public`` when the rules tell it to every player;
    ``say`` the event's words to say again in a reader's language (`i18n.again`)."""

    phase: str
    location: str
    kind: str
    text: str
    public: bool
    say: Any = None


@dataclass(frozen=True)
class StateFacts:
    """What the site needs of one state (one master workbook)."""

    #: The step the state awaits, and its label in the game's words.
    step: str
    step_label: str
    players: list[str]
    #: Who is still in the game, as every player is told (`Ruleset.in_game`).
    in_game: list[str] = field(default_factory=list)
    #: The scores in the game's measure (`Ruleset.scores`); empty for a game counting none.
    measure: str = ""
    scores: dict[str, float] = field(default_factory=dict)
    #: The events of the step resolved into this state, and the game's summary of them.
    events: list[EventLine] = field(default_factory=list)
    highlights: str = ""
    finished: str = ""
    #: The step awaited is the referee's (battles fought on the table), not players' sheets.
    by_referee: bool = False
    #: How the label was said (`i18n.said_as`), so a page says it in its reader's language.
    step_say: Any = None


@dataclass
class TurnRecord:
    """One resolved step: its manifest's facts and the state it left."""

    step: str
    label: str
    resolved_at: str
    #: The state the step left; None when its master could not be read (``problem`` says why).
    after: StateFacts | None
    problem: str = ""
    #: `turns.dice_disclosure`: ``source`` (seeded, file), ``seed``, ``commitment``...
    dice: dict[str, str] = field(default_factory=dict)
    #: How the label was said (the manifest's ``label_say``), to say it again in a language.
    label_say: Any = None


@dataclass
class History:
    """A game's course: the state before its first resolved step, every resolved step, and
    the commitment to the dice of the step now awaited (empty once the game is over)."""

    start: StateFacts | None
    turns: list[TurnRecord]
    current: StateFacts | None
    next_step: str = ""
    next_commitment: str = ""

    def chart_points(self) -> list[tuple[str, dict[str, float]]]:
        """(x label, scores) from the start through every resolved step; a turn whose state
        could not be read has no point."""
        points = []
        if self.start is not None and self.start.scores:
            points.append((START, self.start.scores))
        for turn in self.turns:
            if turn.after is not None and turn.after.scores:
                points.append((turn.step, turn.after.scores))
        return points

    @property
    def measure(self) -> str:
        for facts in (self.current, self.start, *(t.after for t in self.turns)):
            if facts is not None and facts.measure:
                return facts.measure
        return ""


def resolved_steps(game: Game) -> list[str]:
    """The archived steps with a complete manifest, in play order.  Unlike
    `turns.archived_steps` it reads no manifest, so one damaged manifest costs the site that
    turn's labels, not the whole site (nor the report run that refreshes it)."""
    root = game.path / "archive"
    if not root.is_dir():
        return []
    found = [p.name for p in root.iterdir() if p.is_dir() and (p / MANIFEST_NAME).is_file()]
    return sorted(found, key=step_sort_key)


def read_history(game: Game, state: Any = None) -> History:
    """The game's history from its archive; ``state`` is the current master's state when the
    caller has it (else ``master.xlsx`` is read)."""
    cache = _Cache(game.path / "archive" / CACHE_NAME, game.ruleset.name)
    steps = resolved_steps(game)
    masters = [game.archive(step) / "master.xlsx" for step in steps]
    start = cache.facts(game, masters[0])[0] if masters else None
    problem = ""
    if state is None:
        try:
            state = game.load_state()
        except RefassistError as exc:
            problem = f"{game.master_path} could not be read: {exc}"
    current = _facts_of(game, state) if state is not None else None
    if current is not None:
        # Resolve archives this very file as the next step's start: remembered now, the next
        # report run does not read it again.
        cache.remember(game.master_path, current)
    turns = []
    for i, step in enumerate(steps):
        if i + 1 < len(steps):
            after, trouble = cache.facts(game, masters[i + 1])
        else:
            after, trouble = current, problem
        m = manifest_or_empty(game, step)
        turns.append(
            TurnRecord(
                step=step,
                label=str(m.get("label") or step),
                resolved_at=str(m.get("resolved_at") or ""),
                after=after,
                problem=trouble,
                dice=cache.dice(game, step, m, state),
                label_say=m.get("label_say"),
            )
        )
    cache.save()
    history = History(start, turns, current)
    if state is not None and not game.ruleset.game_over(state):
        upcoming = commitment(game, state)
        history.next_step, history.next_commitment = upcoming.step, upcoming.sha256
    return history


def _facts_of(game: Game, state: Any) -> StateFacts:
    ruleset = game.ruleset
    step = ruleset.current_step(state)
    events = ruleset.events_of(state)
    scores = ruleset.scores(state)
    return StateFacts(
        step=step.key,
        step_label=step.label,
        step_say=said_as(step.label),
        by_referee=step.waits_for_referee,
        players=list(ruleset.players(state)),
        in_game=list(ruleset.in_game(state)),
        measure=scores.measure if scores else "",
        scores={name: float(v) for name, v in scores.values.items()} if scores else {},
        events=_lines(events),
        highlights=ruleset.turn_highlights(state, events),
        finished=str(ruleset.game_over(state) or ""),
    )


def _lines(events: list[Event]) -> list[EventLine]:
    """The events as lines, each said once: a game may tell the same sentence to several
    readers as several events (the owner of a fleet and those who see it arrive); the line is
    public when any of them is told to everyone."""
    lines: dict[tuple[str, str, str, str], bool] = {}
    says: dict[tuple[str, str, str, str], Any] = {}
    for e in events:
        key = (e.phase, e.location, e.kind, e.text)
        lines[key] = lines.get(key, False) or "*" in e.visible_to
        says.setdefault(key, e.data.get("say"))
    return [EventLine(*key, public, says[key]) for key, public in lines.items()]


class _Cache:
    """`StateFacts` by the SHA-256 of a master's bytes, and each turn's dice by those of its
    manifest and archived game.toml, kept in ``archive/.site-cache.json`` (written again only
    when something new was read)."""

    def __init__(self, path: Path, ruleset: str) -> None:
        self.path = path
        self.key = f"{ruleset} {__version__} {CACHE_FORMAT}"
        self.known: dict[str, Any] = {}
        self.dice_of: dict[str, Any] = {}
        self.changed = False
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if isinstance(data, dict) and data.get("key") == self.key:
            self.known = data.get("masters") or {}
            self.dice_of = data.get("dice") or {}

    def facts(self, game: Game, master: Path) -> tuple[StateFacts | None, str]:
        try:
            digest = hashlib.sha256(master.read_bytes()).hexdigest()
        except OSError as exc:
            return None, f"{master.name} could not be read ({exc.strerror or exc})"
        found = self.known.get(digest)
        if found is not None:
            try:
                return _from_json(found), ""
            except (TypeError, KeyError):
                pass  # an older layout: read the master again
        try:
            facts = _facts_of(game, read_master(master, game.ruleset))
        except RefassistError as exc:
            return None, f"{master} could not be read: {exc}"
        self.known[digest] = dataclasses.asdict(facts)
        self.changed = True
        return facts, ""

    def dice(
        self, game: Game, step: str, recorded: dict[str, Any], state: Any = None
    ) -> dict[str, str]:
        """The step's dice as its reports disclose them, from its manifest (``recorded``,
        read once for the label and the dice); none when its archive is damaged (the site
        still shows the rest; `refassist verify` says what is wrong).  Kept by the bytes of
        the two files they come from: a report run would otherwise parse every turn's
        archived game.toml again."""
        if not recorded:
            return {}
        digest = ""
        # A manifest from before the seed was recorded has it worked out from the turn's
        # place among the archived steps as well: not kept.
        # A step whose dice drew a secret is disclosed by the game as it stands now (its
        # seed is published once the secret is): not kept.
        sealed = bool(recorded.get("sealed"))
        if not sealed and (recorded.get("turn_seed") is not None or recorded.get("dice") == "file"):
            folder = game.archive(step)
            with contextlib.suppress(OSError):  # no archived game.toml: the game's, not kept
                files = (folder / MANIFEST_NAME).read_bytes(), (folder / CONFIG_NAME).read_bytes()
                digest = hashlib.sha256(b"\0".join(files)).hexdigest()
        found = self.dice_of.get(digest) if digest else None
        if isinstance(found, dict):
            return {str(k): str(v) for k, v in found.items()}
        try:
            disclosed = dice_disclosure(game, step, state if sealed else None, recorded=recorded)
        except RefassistError:
            disclosed = {}
        # The step's own dice only: the commitment to the step now awaited is the history's.
        said = {k: str(v) for k, v in disclosed.items() if not k.startswith("next_")}
        if digest:
            self.dice_of[digest] = said
            self.changed = True
        return said

    def remember(self, master: Path, facts: StateFacts) -> None:
        """``facts`` are those of the state in ``master`` (as the caller read or saved it)."""
        try:
            digest = hashlib.sha256(master.read_bytes()).hexdigest()
        except OSError:
            return
        if digest not in self.known:
            self.known[digest] = dataclasses.asdict(facts)
            self.changed = True

    def save(self) -> None:
        if self.changed and self.path.parent.is_dir():
            data = {"key": self.key, "masters": self.known, "dice": self.dice_of}
            write_text(self.path, json.dumps(data))


def _from_json(data: dict[str, Any]) -> StateFacts:
    events = [EventLine(**e) for e in data["events"]]
    return StateFacts(**{**data, "events": events})
