"""The states kept by the bytes of the master workbook (`refassist.store.statestore`): the second
command to read the same master unpickles what the first read; other bytes (a hand edit, a
rollback), another refassist, or a file the game did not sign are read from the workbook."""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from refassist.errors import MasterWorkbookError
from refassist.store import keptstore, statestore
from refassist.store.game import Game
from tests.conftest import three_player_game

#: Filled by unpickling `_Planted`: must stay empty.
UNPICKLED: list[int] = []


class _Planted:
    """What someone else might put in the store: unpickling it runs code."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (UNPICKLED.append, (1,))


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return three_player_game(tmp_path / "game")


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every master workbook `statestore` reads from here on."""
    opened: list[Path] = []
    real = statestore.read_master

    def counting(path: Path, *args: Any) -> Any:
        opened.append(Path(path))
        return real(path, *args)

    monkeypatch.setattr(statestore, "read_master", counting)
    return opened


def _kept(game: Game) -> list[Path]:
    folder = game.path / statestore.STATES_DIR
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_the_same_master_is_read_once_and_the_kept_state_is_the_same(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.rmtree(game.path / statestore.STATES_DIR, ignore_errors=True)
    opened = _reads(monkeypatch)
    first = game.load_state()
    assert opened == [game.master_path]
    sha = hashlib.sha256(game.master_path.read_bytes()).hexdigest()
    assert [p.name for p in _kept(game)] == [f"{sha}.state"]
    second = game.load_state()
    assert opened == [game.master_path]  # not read again
    # Equal field by field, and a state of its own: changing one leaves the other.
    assert second == first and second is not first
    assert game.ruleset.to_json(second) == game.ruleset.to_json(first)
    second.players[0].name = "Changed"
    assert game.load_state() == first


def test_a_hand_edit_is_read_from_the_workbook(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    before = game.load_state()
    opened = _reads(monkeypatch)
    book = load_workbook(game.master_path)
    sheet = book["Players"]
    column = [c.value for c in sheet[1]].index("Stockpile") + 1
    sheet.cell(row=2, column=column).value = 4321
    book.save(game.master_path)
    edited = game.load_state()
    assert opened == [game.master_path]
    assert edited.players[0].stockpile == 4321 != before.players[0].stockpile
    # A damaged workbook is refused as always, whatever was kept before.
    game.master_path.write_bytes(b"not a workbook")
    with pytest.raises(MasterWorkbookError):
        game.load_state()


def test_a_state_not_signed_by_the_game_or_kept_by_another_refassist_is_not_taken(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game.load_state()
    [kept] = _kept(game)
    sha = kept.name.removesuffix(".state")
    key = f"{keptstore.code_stamp()} {game.ruleset.name} {sha}"
    payload = pickle.dumps((key, _Planted()))
    opened = _reads(monkeypatch)
    # Signed with the secret itself (which signs the tokens players see), or another key.
    for signer in (game.config.secret.encode(), b"not the secret"):
        kept.write_bytes(hmac.new(signer, payload, hashlib.sha256).digest() + payload)
        assert game.load_state().players[0].name == "Ann"
    assert UNPICKLED == []
    assert len(opened) == 2
    # Kept by a refassist changed since: read again.
    monkeypatch.setattr(keptstore, "code_stamp", lambda: "another refassist")
    game.load_state()
    assert len(opened) == 3
    monkeypatch.undo()
    # Cut short: read again, and kept whole again.
    opened = _reads(monkeypatch)
    data = kept.read_bytes()
    kept.write_bytes(data[: len(data) // 2])
    game.load_state()
    assert len(opened) == 1
    game.load_state()
    assert len(opened) == 1


def test_only_the_newest_states_are_kept_and_a_store_that_cannot_be_written_is_no_error(
    game: Game,
) -> None:
    masters = []
    for stockpile in range(5):
        book = load_workbook(game.master_path)
        sheet = book["Players"]
        column = [c.value for c in sheet[1]].index("Stockpile") + 1
        sheet.cell(row=2, column=column).value = 1000 + stockpile
        book.save(game.master_path)
        masters.append(hashlib.sha256(game.master_path.read_bytes()).hexdigest())
        assert game.load_state().players[0].stockpile == 1000 + stockpile
        # Distinct times even on a file system with a coarse clock.
        for i, path in enumerate(sorted(_kept(game), key=lambda p: p.stat().st_mtime_ns)):
            os.utime(path, ns=(i * 10**9, i * 10**9))
    assert sorted(p.name for p in _kept(game)) == sorted(
        f"{sha}.state" for sha in masters[-statestore.KEEP :]
    )
    shutil.rmtree(game.path / statestore.STATES_DIR)
    (game.path / statestore.STATES_DIR).parent.mkdir(exist_ok=True)
    (game.path / statestore.STATES_DIR).write_bytes(b"a file where the folder goes")
    assert game.load_state().players[0].stockpile == 1004


def test_resolve_reads_back_the_master_it_wrote_for_the_report_run(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report run's first work was reading the master resolve had just written: resolve
    reads it back in a forked process while it writes the next sheets, and the report run
    finds the state kept (where processes cannot fork, the report run reads it itself)."""
    from refassist.processes import can_fork
    from refassist.turns import resolve_game
    from refassist.workbook.master import read_master

    outcome = resolve_game(game, force=True)
    sha = hashlib.sha256(game.master_path.read_bytes()).hexdigest()
    kept = game.path / statestore.STATES_DIR / f"{sha}.state"
    assert kept.is_file() is can_fork()
    opened = _reads(monkeypatch)
    state = game.load_state()
    assert opened == ([] if can_fork() else [game.master_path])
    assert state == read_master(game.master_path, game.ruleset)
    assert game.ruleset.to_json(state) == game.ruleset.to_json(outcome.state)
