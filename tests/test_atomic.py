"""Atomic writes: a crash mid-write leaves the old file intact."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from refassist.atomic import atomic_path, read_record, refresh_text, write_bytes
from refassist.errors import GameError
from refassist.store.inbox_index import Index


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


def test_a_damaged_record_is_a_game_error_that_says_what_to_do(tmp_path: Path) -> None:
    """The game's JSON records (the inbox's index, what was sent, manifests, hand edits) are
    read by `read_record`: a damaged one names the file, why, and what the referee does."""
    path = tmp_path / "index.json"
    path.write_text('{"entries": [', encoding="utf-8")
    with pytest.raises(GameError, match=r"index\.json cannot be read \(.*\); fix it"):
        read_record(path, "fix it")
    with pytest.raises(GameError, match="move the inbox folder aside and run the intake again"):
        Index(tmp_path, "5003")
    path.write_text('{"entries": []}', encoding="utf-8")
    assert read_record(path, "fix it") == {"entries": []}


def test_a_page_refreshed_with_the_same_text_is_left_as_it_is(tmp_path: Path) -> None:
    target = tmp_path / "turn-5001.html"
    assert refresh_text(target, "<p>Year 5001</p>") is True  # new: written
    before = target.stat()
    assert refresh_text(target, "<p>Year 5001</p>") is False
    after = target.stat()
    # Not replaced: the same file (a replacement is a new inode), untouched since.
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    # Same length, other words: written.
    assert refresh_text(target, "<p>Year 5002</p>") is True
    assert target.read_text(encoding="utf-8") == "<p>Year 5002</p>"
    assert target.stat().st_ino != before.st_ino
    assert [p.name for p in tmp_path.iterdir()] == ["turn-5001.html"]
