"""The archive site's table of every step's files (`refassist.archive.files.collect`), on a
game folder laid out by hand: what is listed, how it is linked, in what order."""

from __future__ import annotations

import os
from pathlib import Path

from refassist.archive.files import StepFiles, collect


def _touch(path: Path, data: bytes = b"x") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_every_steps_files_are_listed_and_linked_from_the_archive(tmp_path: Path) -> None:
    sent, kept = tmp_path / "outbox", tmp_path / "archive"
    for name in ("Bob.pdf", "Ann.PDF", "referee.pdf", "Ann.xlsx", "Bob.ods", "notes.txt"):
        _touch(sent / "5002" / name)
    (sent / "5002" / "replies").mkdir()  # a folder of the step: not a file of it
    _touch(sent / "5002" / "replies" / "Ann.xlsx")
    _touch(sent / "5003" / "Ann.xlsx")
    for name in ("master.xlsx", "game.toml", "manifest.json", ".hidden", "sheets-x"):
        _touch(kept / "5002" / name)
    _touch(kept / "5002" / "sheets" / "Bob.xlsx")
    _touch(kept / "5002" / "sheets" / "Ann.xlsx")
    _touch(kept / "5001" / "master.xlsx")
    # A link to a file is listed as the file; a link to a folder is not walked into, and a
    # broken link is no file.
    os.symlink(kept / "5002" / "game.toml", kept / "5002" / "linked.toml")
    os.symlink(kept / "5002" / "sheets", kept / "5002" / "linked-sheets")
    os.symlink(tmp_path / "nowhere", kept / "5002" / "broken")
    _touch(kept / "index.html")  # the site's own page: not a step

    found = collect(tmp_path)

    assert found == [
        StepFiles(
            "5003",
            sheets=[("Ann", "../outbox/5003/Ann.xlsx")],
            results_of="5002",
        ),
        StepFiles(
            "5002",
            reports=[("Ann", "../outbox/5002/Ann.PDF"), ("Bob", "../outbox/5002/Bob.pdf")],
            referee=[("referee", "../outbox/5002/referee.pdf")],
            sheets=[("Ann", "../outbox/5002/Ann.xlsx"), ("Bob", "../outbox/5002/Bob.ods")],
            archived=[
                (name, f"../archive/5002/{name}")
                # In the order of their parts: "sheets/..." before "sheets-x", though "-"
                # sorts before "/" as a character.
                for name in (
                    ".hidden",
                    "game.toml",
                    "linked.toml",
                    "manifest.json",
                    "master.xlsx",
                    "sheets/Ann.xlsx",
                    "sheets/Bob.xlsx",
                    "sheets-x",
                )
            ],
            results_of="5001",
        ),
        StepFiles("5001", archived=[("master.xlsx", "../archive/5001/master.xlsx")], results_of=""),
    ]


def test_a_game_without_outbox_or_archive_has_no_steps(tmp_path: Path) -> None:
    assert collect(tmp_path) == []
    _touch(tmp_path / "outbox")  # a file where the folder should be
    assert collect(tmp_path) == []
