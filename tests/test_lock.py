"""Two refassist processes on one game: the second waits for the lock, or refuses with a
message; their writes never interleave.  Real processes, real lock file."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.errors import LockedError
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.store.game import LOCK_NAME, Game
from refassist.store.turnsheets import write_sheets
from refassist.turns import archived_steps, manifest

REFASSIST = Path(sys.executable).with_name("refassist")


@pytest.fixture
def game(tmp_path: Path) -> Game:
    created = Game.create(
        tmp_path / "game",
        find_ruleset("fifth-millennium"),
        [PlayerSetup(p, f"{p.lower()}@example.com") for p in ("Ann", "Bob", "Cleo")],
        seed=5,
        generate_seed=42,
        assign_homeworlds=True,
    )
    write_sheets(created, created.load_state())
    return created


def hold_lock(game: Game, seconds: float) -> subprocess.Popen[str]:
    """Another process that takes the game's lock, says so, and keeps it for ``seconds``."""
    code = (
        "import sys, time\n"
        "from refassist.store.game import Game\n"
        f"with Game.open({str(game.path)!r}).lock():\n"
        "    print('locked', flush=True)\n"
        f"    time.sleep({seconds})\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def hashes(folder: Path) -> dict[str, str]:
    """Every file but the (empty) lock file, which the first process to lock creates."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != LOCK_NAME
    }


def test_two_resolves_at_once_run_one_after_the_other(game: Game) -> None:
    procs = [
        subprocess.Popen(
            [str(REFASSIST), "resolve", str(game.path), "--now"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    said = sorted(out.splitlines()[0] for out, _ in results)
    assert said[0].startswith("resolved Year 5001") and said[1].startswith("resolved Year 5002")
    assert archived_steps(game) == ["5001", "5002"]
    # The second started from exactly what the first wrote: no interleaving.
    assert (
        manifest(game, "5002")["master_sha256"]
        == hashlib.sha256((game.archive("5002") / "master.xlsx").read_bytes()).hexdigest()
    )
    verified = CliRunner().invoke(main, ["verify", str(game.path)])
    assert verified.exit_code == 0, verified.output


def test_a_second_command_waits_while_the_lock_is_held_briefly(game: Game) -> None:
    holder = hold_lock(game, 1.5)
    started = time.monotonic()
    ran = subprocess.run(
        [str(REFASSIST), "resolve", str(game.path), "--now"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    waited = time.monotonic() - started
    holder.wait(timeout=30)
    assert ran.returncode == 0, ran.stderr
    assert waited >= 1.0  # it did wait for the holder (a safety bound, not a benchmark)
    assert Game.open(game.path).load_state().year == 5002


@pytest.mark.slow
def test_a_second_command_refuses_after_waiting_and_changes_nothing(game: Game) -> None:
    before = hashes(game.path)
    holder = hold_lock(game, 14)
    try:
        ran = subprocess.run(
            [str(REFASSIST), "resolve", str(game.path), "--now"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        holder.kill()
        holder.wait()
    assert ran.returncode == 1
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and "another refassist command is working on" in lines[0]
    assert LOCK_NAME in lines[0] and "Traceback" not in ran.stderr
    assert hashes(game.path) == before


def test_the_library_refuses_with_the_lock_file_named(game: Game) -> None:
    holder = hold_lock(game, 10)
    try:
        with pytest.raises(LockedError, match=LOCK_NAME), game.lock(timeout=0.2):
            pass
    finally:
        holder.kill()
        holder.wait()
    with game.lock(timeout=5):  # free again once the holder is gone (even killed)
        pass
