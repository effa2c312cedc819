"""Crash safety: ``kill -9`` of ``refassist resolve`` at random moments, a full disk, a read-only
folder.  Whatever happens, the game is whole at the old turn or the new one (never half of
each), ``refassist status`` accepts it, nothing is lost, and the next command completes.

The kills use a real subprocess and ``SIGKILL`` after delays drawn from a seeded generator over
the whole life of the process; the disk tests use a real file-size limit of the kernel
(``RLIMIT_FSIZE``: writes beyond it fail with EFBIG, as they fail with ENOSPC on a full disk)
and, to reach every write of a resolve in turn, a failure injected into the N-th file the
resolve creates.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.errors import GameError
from refassist.geometry.hexmap import distance
from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.rulesets.fifth_millennium.orders import Move, Orders, Purchase
from refassist.rulesets.fifth_millennium.state import Fleet
from refassist.store import journal
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets
from refassist.turns import resolve_game

REFASSIST = Path(sys.executable).with_name("refassist")
KILLS = 50
MAX_KILLS = 100
PLAYERS = ("Ann", "Bob", "Cleo", "Dev")


def make_game(folder: Path, work: Path) -> Game:
    """A 4-player game with two filled sheets filed, waiting for 5001."""
    game = Game.create(
        folder,
        find_ruleset("fifth-millennium"),
        [PlayerSetup(p, f"{p.lower()}@example.com") for p in PLAYERS],
        seed=21,
        generate_seed=42,
        assign_homeworlds=True,
    )
    write_sheets(game, game.load_state())
    state = game.load_state()
    for player in ("Ann", "Bob"):
        home = state.player(player).homeworld
        near = min(
            (s.hex for s in state.systems if 0 < distance(home, s.hex) <= 3),
            key=lambda h, home=home: (distance(home, h), h),
        )
        orders = Orders(
            player=player,
            year=state.year,
            moves=[Move(state.year, Fleet(F=2), home, near)],
            purchases=[Purchase(home, "F", 1)],
        )
        sheet = work / sheet_filename(player)
        sheet.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(game.outbox("5001") / sheet_filename(player), sheet)
        game.ruleset.fill_sheet(sheet, orders)
        assert intake(game, [sheet]).count("accepted") == 1
    return game


def export(game_path: Path) -> dict[str, Any]:
    game = Game.open(game_path)
    return game.ruleset.to_json(game.load_state())


def hashes(folder: Path, skip: tuple[str, ...] = (".refassist.lock",)) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name not in skip
    }


def refassist(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(REFASSIST), *args], capture_output=True, text=True, timeout=120, **kwargs
    )


def status_ok(game_path: Path) -> str:
    result = CliRunner().invoke(main, ["status", str(game_path)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


@dataclass
class Reference:
    """The game, its state before and after an uninterrupted resolve, and that resolve's
    timing: how long it ran, how long after its journal appeared it wrote the archive's
    manifest (just before the decisive rename), and how long it ran after the journal."""

    path: Path
    old: dict[str, Any]
    new: dict[str, Any]
    total: float
    archive: float
    commit: float


def run_until_journal(game_path: Path) -> tuple[subprocess.Popen[bytes], float, float]:
    """Start ``refassist resolve`` and wait until its journal appears (or it ends); returns
    the process, when the journal appeared and when it was started (monotonic times)."""
    started = time.monotonic()
    proc = subprocess.Popen(
        [str(REFASSIST), "resolve", str(game_path), "--now"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    marker = game_path / journal.JOURNAL_NAME
    while not marker.exists() and proc.poll() is None:
        time.sleep(0.001)
    return proc, time.monotonic(), started


@pytest.fixture
def reference(tmp_path: Path) -> Reference:
    game = make_game(tmp_path / "game", tmp_path / "mail")
    copy = tmp_path / "reference"
    shutil.copytree(game.path, copy)
    proc, journalled, started = run_until_journal(copy)
    manifest = copy / "archive" / "5001" / "manifest.json"
    while not manifest.exists() and proc.poll() is None:
        time.sleep(0.0005)
    archived = time.monotonic()
    _, err = proc.communicate(timeout=120)
    ended = time.monotonic()
    assert proc.returncode == 0, err.decode()
    return Reference(
        path=game.path,
        old=export(game.path),
        new=export(copy),
        total=ended - started,
        archive=max(0.002, archived - journalled),
        commit=max(0.01, ended - journalled),
    )


@pytest.mark.slow
def test_kill_9_at_random_moments_leaves_the_old_turn_or_the_new_one(
    reference: Reference,
) -> None:
    game_path, old, new = reference.path, reference.old, reference.new
    rng = random.Random(2026)
    seen: dict[str, int] = {"before": 0, "undo": 0, "forward": 0, "done": 0}
    kills = 0
    while kills < KILLS or (min(seen["undo"], seen["forward"]) == 0 and kills < MAX_KILLS):
        kind = kills % 3
        if kind == 0:
            # Any moment of the process's life: starting, reading, resolving, writing.
            delay = rng.uniform(0.0, 1.1 * reference.total)
            proc = subprocess.Popen(
                [str(REFASSIST), "resolve", str(game_path), "--now"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            time.sleep(delay)
        else:
            # A moment of the commit, found by its journal whatever the machine's speed:
            # while it archives (before the decisive rename), or at any point after.
            proc, _, _ = run_until_journal(game_path)
            span = reference.archive if kind == 1 else reference.commit
            time.sleep(rng.uniform(0.0, 1.2 * span))
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate()
        kills += 1
        assert b"Traceback" not in err, err.decode()

        shown = status_ok(game_path)
        state = export(game_path)
        pending = journal.pending(game_path)
        assert ("was interrupted" in shown) == (pending is not None), shown
        assert state in (old, new), f"kill {kills} left a third state"
        if state == old:
            seen["undo" if pending is not None else "before"] += 1
            continue
        seen["forward" if pending is not None else "done"] += 1
        # The new turn: the next command (verify) finishes the resolve and shows that the
        # archived turn replays to exactly this state; then roll back and kill again.
        verified = CliRunner().invoke(main, ["verify", str(game_path)])
        assert verified.exit_code == 0, verified.output
        assert journal.pending(game_path) is None
        assert sorted(p.name for p in (game_path / "outbox" / "5002").glob("*.xlsx")) == sorted(
            f"{p}.xlsx" for p in PLAYERS
        )
        back = CliRunner().invoke(main, ["rollback", str(game_path), "--to", "5001"])
        assert back.exit_code == 0, back.output
        assert export(game_path) == old

    assert kills >= KILLS
    assert seen["undo"] and seen["forward"], seen  # kills landed inside the commit, both sides
    final = refassist("resolve", str(game_path), "--now")
    assert final.returncode == 0, final.stderr
    assert export(game_path) == new
    assert journal.pending(game_path) is None
    assert not [p for p in game_path.iterdir() if p.name.endswith(".tmp")]
    assert not (game_path / journal.STAGED_MASTER_NAME).exists()
    verified = CliRunner().invoke(main, ["verify", str(game_path)])
    assert verified.exit_code == 0, verified.output


def _fsize_limit(limit: int) -> Any:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_is_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    """A real kernel limit on file size: the new master cannot be written."""
    game = make_game(tmp_path / "game", tmp_path / "mail")
    before = hashes(game.path)
    state = export(game.path)
    ran = subprocess.run(
        [str(REFASSIST), "resolve", str(game.path), "--now"],
        capture_output=True,
        text=True,
        preexec_fn=_fsize_limit(16 * 1024),
        timeout=120,
    )
    assert ran.returncode == 1, ran.stdout + ran.stderr
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in ran.stderr
    assert "was not resolved" in lines[0] and "File too large" in lines[0]
    assert "Nothing was changed" in lines[0]
    assert hashes(game.path) == before
    assert export(game.path) == state
    again = refassist("resolve", str(game.path), "--now")
    assert again.returncode == 0, again.stderr
    assert Game.open(game.path).load_state().year == 5002


class FailingDisk:
    """Makes the N-th temporary file a resolve creates in the game folder fail as on a full
    (or read-only) disk: every write of refassist goes through such a file (`atomic`)."""

    def __init__(self, folder: Path, fail_at: int, code: int = errno.ENOSPC) -> None:
        self.folder = str(folder)
        self.fail_at = fail_at
        self.code = code
        self.calls = 0
        self.real = tempfile.mkstemp

    def __call__(self, *args: Any, **kwargs: Any) -> tuple[int, str]:
        folder = str(kwargs.get("dir") or "")
        if folder.startswith(self.folder):
            self.calls += 1
            if self.calls >= self.fail_at:
                raise OSError(self.code, os.strerror(self.code), folder)
        return self.real(*args, **kwargs)


def test_a_disk_that_fills_up_at_any_write_of_a_resolve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fail each write of a resolve in turn: before the new master is in place nothing changes;
    after it, the turn is resolved and only the next turn's sheets are missing, which the next
    command writes."""
    original = make_game(tmp_path / "original", tmp_path / "mail")
    old = export(original.path)
    before = hashes(original.path)
    outcomes = []
    fail_at = 1
    while True:
        folder = tmp_path / f"try-{fail_at}"
        shutil.copytree(original.path, folder)
        game = Game.open(folder)
        disk = FailingDisk(folder, fail_at)
        monkeypatch.setattr(tempfile, "mkstemp", disk)
        try:
            resolve_game(game, force=True)
        except GameError as exc:
            message = str(exc)
        else:
            message = ""
        finally:
            monkeypatch.setattr(tempfile, "mkstemp", disk.real)
        if not message:
            break
        assert "No space left on device" in message and "\n" not in message
        if export(folder) == old:
            outcomes.append("unchanged")
            assert "Nothing was changed" in message
            assert hashes(folder) == before
        else:
            outcomes.append("resolved")
            assert "was resolved and saved" in message and "refassist sheets" in message
            assert journal.pending(folder) is not None
            assert status_ok(folder)
            fixed = CliRunner().invoke(main, ["sheets", str(folder)])
            assert fixed.exit_code == 0, fixed.output
            assert journal.pending(folder) is None
            assert len(list((folder / "outbox" / "5002").glob("*.xlsx"))) == len(PLAYERS)
        again = resolve_game(Game.open(folder), force=True) if export(folder) == old else None
        assert again is None or again.step == "5001"
        fail_at += 1
    assert outcomes.count("unchanged") >= 5 and outcomes.count("resolved") >= 1, outcomes


def test_a_read_only_folder_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game(tmp_path / "game", tmp_path / "mail")
    before = hashes(game.path)
    disk = FailingDisk(game.path, 1, errno.EROFS)
    monkeypatch.setattr(tempfile, "mkstemp", disk)
    result = CliRunner().invoke(main, ["resolve", str(game.path), "--now"])
    monkeypatch.setattr(tempfile, "mkstemp", disk.real)
    assert result.exit_code == 1
    assert "Read-only file system" in result.output and "Nothing was changed" in result.output
    assert "Traceback" not in result.output
    assert hashes(game.path) == before

    real_open = os.open

    def no_lock(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith(".refassist.lock"):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", no_lock)
    for command in (
        ["resolve", "--now"],
        ["intake", "--accept-late"],
        ["rollback", "--to", "5001"],
    ):
        result = CliRunner().invoke(main, [command[0], str(game.path), *command[1:]])
        assert result.exit_code == 1, (command, result.output)
        assert "cannot lock" in result.output and "Read-only file system" in result.output
    monkeypatch.setattr(os, "open", real_open)
    assert hashes(game.path) == before
    assert json.loads((game.path / "inbox" / "5001" / "index.json").read_text())["accepted"]
