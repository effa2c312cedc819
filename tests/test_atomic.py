"""Atomic writes: a crash mid-write leaves the old file intact."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from refassist.atomic import atomic_path, write_bytes
from refassist.errors import GameError


def test_replace_is_complete(tmp_path: Path) -> None:
    target = tmp_path / "master.xlsx"
    target.write_bytes(b"old")
    write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["master.xlsx"]


def test_crash_mid_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "master.xlsx"
    target.write_bytes(b"old state")

    class Crash(Exception):
        pass

    with pytest.raises(Crash), atomic_path(target) as tmp:
        tmp.write_bytes(b"half a new st")
        raise Crash
    assert target.read_bytes() == b"old state"
    assert [p.name for p in tmp_path.iterdir()] == ["master.xlsx"]


def test_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_bytes(b"x")
    with pytest.raises(GameError, match="cannot write"):
        write_bytes(blocker / "master.xlsx", b"new")


def test_disk_full_during_rename_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "master.xlsx"
    target.write_bytes(b"old")

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(GameError, match="No space left on device; nothing was changed"):
        write_bytes(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["master.xlsx"]
