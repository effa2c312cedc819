"""Which files in the outbox still match the game, and moving aside those that do not.

``outbox/<step>/`` holds what the referee sends for a step: the players' turn sheets, the
reports of the turn just resolved and their mail.  They are made from one state of the game.
After a `rollback`, the folders of the steps after the restored one describe a future that no
longer exists; after a hand edit of ``master.xlsx``, the current step's sheets and reports
show fleets and numbers the master no longer has.  Sending either would mislead players, and
deleting them would lose what was sent.

So every sheet, report and mail written records the state it was made from
(``outbox/<step>/.made-from.json``: file -> `canonical.fingerprint` of the state's JSON
export).  `stale_files` finds what no longer matches (read-only, for `status`);
`set_aside_stale` moves it to ``rolled-back/<time>/outbox/<step>/`` (never deletes) before
`rollback`, `refassist sheets` and `refassist report` write anything, so the archive index
and the mail never pick a stale file.  Intake replies (``replies/``) answer the mail that was
received and are never stale.  Files written before this record existed are left alone.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from refassist.atomic import write_text
from refassist.store.aside import ASIDE_DIR, stamp, unused
from refassist.store.canonical import fingerprint
from refassist.store.game import Game, step_sort_key

RECORD_NAME = ".made-from.json"
#: Sub-folders of ``outbox/<step>/`` whose files are made from the state (``replies`` is not).
#: ``watch`` holds what `refassist watch` decided for the step (reminders, the referee's mail,
#: an auto-resolve): after a rollback, decisions about a future that no longer exists.
MADE_DIRS = ("mail", "watch")
#: The sub-folder whose send records go aside with its files, so that the step played again
#: gets its reminders and deadline mail anew (`sending.SENT_RECORD`).
DECIDED_DIR = "watch"
SENT_RECORD = ".sent.json"


def state_mark(game: Game, state: Any) -> str:
    """The fingerprint that says which state a file was made from."""
    return fingerprint(game.ruleset.to_json(state))


def _read(folder: Path) -> dict[str, str]:
    path = folder / RECORD_NAME
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a damaged record marks nothing stale; the files are regenerated anyway
    files = data.get("files", {}) if isinstance(data, dict) else {}
    return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}


def record(folder: Path, paths: Iterable[Path], mark: str) -> None:
    """Note that ``paths`` (inside ``folder``) were made from the state ``mark``."""
    files = _read(folder)
    for path in paths:
        files[path.relative_to(folder).as_posix()] = mark
    write_text(folder / RECORD_NAME, json.dumps({"files": files}, indent=2, sort_keys=True) + "\n")


@dataclass(frozen=True)
class StaleStep:
    """The files of one outbox step that no longer match the game, and why."""

    step: str
    files: tuple[str, ...]
    reason: str

    @property
    def sheets(self) -> list[str]:
        return [f for f in self.files if f.endswith(".xlsx") and "/" not in f]

    @property
    def reports(self) -> list[str]:
        return [f for f in self.files if not (f.endswith(".xlsx") and "/" not in f)]


def _made_files(folder: Path) -> list[str]:
    """The files of an outbox step that are made from the state (not the intake's replies)."""
    out = [p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
    for sub in MADE_DIRS:
        if (folder / sub).is_dir():
            out += [f"{sub}/{p.name}" for p in (folder / sub).iterdir() if p.is_file()]
    return sorted(out)


def stale_files(game: Game, state: Any, mark: str | None = None) -> list[StaleStep]:
    """What in ``outbox/`` no longer matches ``state`` (the master's): every file of a step
    after the current one (left by a rollback), and each file of the current step made from
    another state (a hand edit of the master since).  Only reads."""
    root = game.path / "outbox"
    if not root.is_dir():
        return []
    current = game.step(state).key
    out: list[StaleStep] = []
    for folder in sorted(root.iterdir(), key=lambda p: step_sort_key(p.name)):
        if not folder.is_dir():
            continue
        step = folder.name
        if step_sort_key(step) > step_sort_key(current):
            files = _made_files(folder)
            if files:
                out.append(StaleStep(step, tuple(files), f"{step} is after the current step"))
        elif step == current:
            recorded = _read(folder)
            if not recorded:
                continue
            mark = mark or state_mark(game, state)
            files = [f for f in _made_files(folder) if recorded.get(f, mark) != mark]
            if files:
                out.append(
                    StaleStep(step, tuple(files), "master.xlsx changed after they were written")
                )
    return out


def set_aside_stale(
    game: Game,
    state: Any,
    *,
    now: datetime | None = None,
    into: Path | None = None,
    sheets_only: bool = False,
    mark: str | None = None,
) -> Path | None:
    """Move every stale outbox file to ``rolled-back/<time>/outbox/<step>/`` (or ``into``'s
    ``outbox/``, a rollback's own set-aside folder); returns the folder holding that
    ``outbox/`` (None when nothing was stale).  ``sheets_only``: only the turn sheets (what
    ``refassist sheets`` writes again); the stale reports stay for `status` to name.  The
    caller holds the game lock.  ``mark``: the state's `state_mark`, when the caller has it
    (working it out again, the whole state as JSON and hashed, is 0.06 s for 12 players)."""
    stale = stale_files(game, state, mark)
    if sheets_only:
        stale = [
            StaleStep(item.step, tuple(item.sheets), item.reason) for item in stale if item.sheets
        ]
    if not stale:
        return None
    aside = (into or unused(game.path / ASIDE_DIR / stamp(now))) / "outbox"
    for item in stale:
        source = game.path / "outbox" / item.step
        kept = _read(source)
        for name in item.files:
            target = aside / item.step / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(source / name), str(target))
            kept.pop(name, None)
        _move_sent_records(
            source, aside / item.step, [n for n in item.files if n.startswith(f"{DECIDED_DIR}/")]
        )
        if kept:
            write_text(
                source / RECORD_NAME,
                json.dumps({"files": kept}, indent=2, sort_keys=True) + "\n",
            )
        else:
            (source / RECORD_NAME).unlink(missing_ok=True)
        _remove_if_empty(source)
    return aside.parent


def _move_sent_records(source: Path, target: Path, names: list[str]) -> None:
    """Move the send records of ``names`` (set aside) from ``source``'s ``.sent.json`` to
    ``target``'s: what watch sent about a step undone stays on record beside it, and the
    step played again is not held back by it (a reminder of the same name would read as
    "sent", or "written again since it was sent")."""
    path = source / SENT_RECORD
    if not names or not path.is_file():
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # a damaged record is the sender's to refuse (`sending.read_sent`), untouched
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not any(name in files for name in names):
        return
    moved = {name: files.pop(name) for name in names if name in files}
    aside = target / SENT_RECORD
    earlier: dict[str, Any] = {}
    if aside.is_file():
        earlier = json.loads(aside.read_text(encoding="utf-8")).get("files", {})
    target.mkdir(parents=True, exist_ok=True)
    dump = {"files": {**earlier, **moved}}
    write_text(aside, json.dumps(dump, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    write_text(
        path, json.dumps({"files": files}, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    )


def _remove_if_empty(folder: Path) -> None:
    """Drop an outbox step folder (and its ``mail/``) left with nothing in it."""
    for sub in MADE_DIRS:
        path = folder / sub
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


def regenerate_advice(game: Game, stale: list[StaleStep]) -> list[str]:
    """What `status` says about stale files: what they are and the command that replaces
    them."""
    out = []
    for item in stale:
        if "after the current step" in item.reason:
            out.append(
                f"outbox/{item.step} ({len(item.files)} file(s)) is for a step after the current "
                f"one; the next refassist sheets, report or rollback moves it to {ASIDE_DIR}/"
            )
            continue
        parts = []
        if item.sheets:
            parts.append(f"turn sheets ({', '.join(item.sheets)}): refassist sheets {game.path}")
        if item.reports:
            parts.append(f"reports and mail: refassist report {game.path}")
        out.append(
            f"outbox/{item.step} was written before master.xlsx was changed; regenerate the "
            + "; the ".join(parts)
            + f" (the old files are moved to {ASIDE_DIR}/)"
        )
    return out


def archived_before(game: Game, current: str) -> list[str]:
    """The archived steps before ``current``, in the order they were played."""
    archive = game.path / "archive"
    if not archive.is_dir():
        return []
    now = step_sort_key(current)
    return sorted(
        (p.name for p in archive.iterdir() if p.is_dir() and step_sort_key(p.name) < now),
        key=step_sort_key,
    )


def reports_written(game: Game, step: str) -> bool:
    """Whether reports were written for ``step`` (a PDF in ``outbox/<step>/``): the reports of
    the step resolved just before it, which its players are sent."""
    folder = game.outbox(step)
    return folder.is_dir() and any(p.suffix == ".pdf" for p in folder.iterdir() if p.is_file())


def unreported_steps(game: Game, current: str) -> list[str]:
    """The archived steps before ``current`` whose reports were never written, since the last
    step whose were, oldest first.

    Each report holds the events of one resolution only (the state keeps the last step's), so
    a step resolved without its reports being written (a week that opened battles, resolved
    again once the table's results came back) would leave its events untold.  A game whose
    reports were never written at all (played without them) owes none."""
    steps = archived_before(game, current)
    owed: list[str] = []
    for step in reversed(steps):
        if reports_written(game, step):
            return owed[::-1]
        owed.append(step)
    return []
