"""``refassist verify``: re-run every archived turn from its inputs and compare with what followed.

A referee's audit, and the answer to "that is not what happened": each archived step is
resolved again in memory from ``archive/<step>/`` alone (its master, its sheets, its
``game.toml`` with the seed and house rules of the time, its dice file) and the result is
compared with the state that actually followed (the next archive's master, or the current
master for the last step).  A difference means the archive or the masters were changed after
the fact: a hand edit of ``master.xlsx`` between turns, a swapped sheet, an edited seed.  Each
archived file is also checked against the SHA-256 its manifest recorded.

For seeded turns the replay rolls the dice from the turn's seed, so a matching result (the dice
log is part of the state) shows the dice came from that seed, whose SHA-256 was the commitment
published before the deadline (``docs/dice.md``).

A deliberate hand edit is recorded with `accept_edit` (``refassist verify GAME --accept STEP
--note "why"``): ``archive/<step>/edits.json`` keeps the note, the time and fingerprints (SHA-256
of the canonical JSON) of both the replayed state and the edited one, so that exact difference
is reported as accepted from then on, and any further change is reported again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .atomic import read_record, write_text
from .dice import seed_commitment
from .errors import GameError, RefassistError, UsageError
from .store.canonical import fingerprint
from .store.game import CONFIG_NAME, MASTER_NAME, Game
from .store.journal import sha256_file
from .store.recovery import working
from .turns import (
    DICE_NAME,
    after_master,
    archived_steps,
    manifest,
    replay,
)
from .workbook.master import read_master

EDITS_NAME = "edits.json"
#: How many differing keys a report names per step.
SHOWN_DIFFERENCES = 5


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def differences(replayed: Any, actual: Any, path: str = "", limit: int = 50) -> list[str]:
    """The first keys (``systems[4].owner``) whose values differ, with both values."""
    out: list[str] = []

    def walk(a: Any, b: Any, where: str) -> None:
        if len(out) >= limit or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str):
                sub = f"{where}.{key}" if where else str(key)
                if key not in a:
                    out.append(f"{sub}: missing in the replay, {_short(b[key])} after the turn")
                elif key not in b:
                    out.append(f"{sub}: {_short(a[key])} in the replay, missing after the turn")
                else:
                    walk(a[key], b[key], sub)
                if len(out) >= limit:
                    return
            return
        if isinstance(a, list) and isinstance(b, list):
            for i in range(min(len(a), len(b))):
                walk(a[i], b[i], f"{where}[{i}]")
                if len(out) >= limit:
                    return
            if len(a) != len(b):
                out.append(f"{where}: {len(a)} entries in the replay, {len(b)} after the turn")
            return
        out.append(f"{where or 'state'}: {_short(a)} in the replay, {_short(b)} after the turn")

    walk(replayed, actual, path)
    return out


@dataclass
class StepCheck:
    """The verdict on one archived step."""

    step: str
    label: str
    differences: list[str] = field(default_factory=list)
    integrity: list[str] = field(default_factory=list)
    source: str = ""
    seed: int | None = None
    commitment: str = ""
    rolls: int = 0
    accepted: dict[str, Any] | None = None

    @property
    def same(self) -> bool:
        """The replay equals what followed, exactly or through a recorded hand edit."""
        return not self.integrity and (not self.differences or self.accepted is not None)


@dataclass
class VerifyReport:
    game: Path
    steps: list[StepCheck]
    recovered: str = ""

    @property
    def ok(self) -> bool:
        return all(s.same for s in self.steps)

    @property
    def differing(self) -> list[StepCheck]:
        return [s for s in self.steps if not s.same]


def _integrity(game: Game, step: str, m: dict[str, Any]) -> list[str]:
    """Archived files whose bytes are not those the manifest recorded."""
    folder = game.archive(step)
    expected = [(MASTER_NAME, m.get("master_sha256")), (CONFIG_NAME, m.get("config_sha256"))]
    expected += [(info["file"], info.get("sha256")) for info in m.get("sheets", {}).values()]
    if m.get("dice") == "file":
        expected.append((DICE_NAME, m.get("dice_sha256")))
    problems = []
    for name, sha in expected:
        if not sha:
            continue  # archives made before this hash was recorded
        path = folder / name
        if not path.is_file():
            problems.append(f"archive/{step}/{name} is missing")
        elif sha256_file(path) != sha:
            problems.append(
                f"archive/{step}/{name} was changed after the turn was resolved "
                "(its SHA-256 is not the one in the manifest)"
            )
    return problems


def edits_of(game: Game, step: str) -> list[dict[str, Any]]:
    """The hand edits recorded for a step (``archive/<step>/edits.json``)."""
    path = game.archive(step) / EDITS_NAME
    if not path.is_file():
        return []
    data = read_record(path, "fix or remove it")
    return (
        [e for e in data.get("edits", []) if isinstance(e, dict)] if isinstance(data, dict) else []
    )


def check_step(game: Game, step: str) -> StepCheck:
    """Replay one archived step and compare it with the state that followed."""
    m = manifest(game, step)
    check = StepCheck(step=step, label=str(m.get("label", step)))
    check.integrity = _integrity(game, step, m)
    try:
        replayed = replay(game, step)
    except RefassistError as exc:
        check.differences = [f"the turn cannot be replayed from its archive: {exc}"]
        return check
    check.source = replayed.source
    check.rolls = len(replayed.dice.log)
    if replayed.source == "seeded" and replayed.dice.seed is not None:
        check.seed = replayed.dice.seed
        check.commitment = seed_commitment(replayed.dice.seed)
        recorded = m.get("seed_commitment")
        if recorded and recorded != check.commitment:
            check.integrity.append(
                f"archive/{step}/manifest.json records the commitment {recorded}, but the "
                f"seed of the archived settings gives {check.commitment}"
            )
    try:
        actual = game.ruleset.to_json(read_master(after_master(game, step), game.ruleset))
    except RefassistError as exc:
        check.differences = [f"the state after the turn cannot be read: {exc}"]
        return check
    check.differences = differences(replayed.json, actual)
    if check.differences:
        replay_print, after_print = fingerprint(replayed.json), fingerprint(actual)
        for edit in edits_of(game, step):
            if edit.get("replay") == replay_print and edit.get("after") == after_print:
                check.accepted = edit
    return check


def verify_game(game: Game, steps: list[str] | None = None) -> VerifyReport:
    """Check every archived step, or only ``steps`` (see the module docstring).

    Takes the game lock, so nothing changes the folder while it is read.
    """
    with working(game) as recovered:
        archived = archived_steps(game)
        if steps:
            missing = [s for s in steps if s not in archived]
            if missing:
                raise UsageError(
                    f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not archived "
                    f"in {game.path / 'archive'}; archived turns: {', '.join(archived) or 'none'}"
                )
        wanted = [s for s in archived if not steps or s in steps]
        checks = [check_step(game, step) for step in wanted]
    return VerifyReport(game.path, checks, recovered)


def accept_edit(game: Game, step: str, note: str, *, now: datetime | None = None) -> StepCheck:
    """Record that the state after ``step`` differs from its replay on purpose.

    Refused when the step replays exactly (nothing to accept) or its archive is damaged (a
    changed archived file is not a hand edit of the master).
    """
    if not note.strip():
        raise UsageError("say why the master was edited: --note 'what you changed and why'")
    with working(game):
        check = check_step(game, step)
        if check.integrity:
            raise GameError(
                f"archive/{step} itself was changed ({check.integrity[0]}); a damaged archive "
                "cannot be accepted as a hand edit"
            )
        if not check.differences:
            raise UsageError(f"{step} replays exactly; there is no hand edit to accept")
        replayed = replay(game, step).json
        actual = game.ruleset.to_json(read_master(after_master(game, step), game.ruleset))
        record = {
            "accepted_at": (now or datetime.now(UTC))
            .astimezone(UTC)
            .replace(microsecond=0)
            .isoformat(),
            "note": note.strip(),
            "replay": fingerprint(replayed),
            "after": fingerprint(actual),
            "after_master_sha256": sha256_file(after_master(game, step)),
            "differences": differences(replayed, actual, limit=20),
        }
        edits = [*edits_of(game, step), record]
        write_text(
            game.archive(step) / EDITS_NAME,
            json.dumps({"step": step, "edits": edits}, indent=2, ensure_ascii=False) + "\n",
        )
        check.accepted = record
    return check
