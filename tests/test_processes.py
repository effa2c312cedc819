"""Work split among forked processes (`refassist.processes.forked_map`), and the next turn's
sheets (`turnsheets.write_sheets`) and a turn's mail (`mailing.build_mailings`) written that
way: the same results, in order, as one after another, and a failure raised as itself in the
caller's process."""

from __future__ import annotations

import email
import os
from email import policy
from email.message import EmailMessage
from pathlib import Path

import openpyxl
import pytest

from refassist import processes
from refassist.report import mailing
from refassist.rulesets import find_ruleset
from refassist.store import turnsheets
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets

#: Where processes cannot be forked (Windows, macOS's default) the work is done one item after
#: another in the caller's process: each test below says what it expects on either platform.
FORKS = processes.can_fork()


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers whatever the machine has, so the split is what is tested."""
    monkeypatch.setattr(processes, "default_workers", lambda: 2)


@pytest.mark.usefixtures("two_cores")
def test_from_enough_items_the_work_is_done_in_other_processes_in_order() -> None:
    seen: list[int] = []  # a closure: the task is never pickled

    def task(n: int) -> tuple[int, int]:
        seen.append(n)
        return n * n, os.getpid()

    results = processes.forked_map(task, list(range(8)))
    assert [square for square, _ in results] == [n * n for n in range(8)]
    assert (os.getpid() not in {pid for _, pid in results}) == FORKS
    # Appended in the forked processes' copies only (or here, one after another).
    assert seen == ([] if FORKS else list(range(8)))


@pytest.mark.usefixtures("two_cores")
def test_fewer_items_are_done_here() -> None:
    results = processes.forked_map(lambda n: (n, os.getpid()), [1, 2, 3])
    assert results == [(1, os.getpid()), (2, os.getpid()), (3, os.getpid())]


class _Refused(Exception):
    """An error whose pickled form cannot be rebuilt (two arguments, one given back)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


@pytest.mark.usefixtures("two_cores")
def test_a_failing_item_raises_its_own_error_here() -> None:
    done_here: list[int] = []

    def task(n: int) -> int:
        if n == 5:
            done_here.append(os.getpid())
            raise _Refused("item 5", "the disk is full")
        return n

    with pytest.raises(_Refused, match="item 5: the disk is full"):
        processes.forked_map(task, list(range(8)))
    assert done_here == [os.getpid()]  # run again here, where the error is raised


@pytest.mark.usefixtures("two_cores")
def test_a_process_that_dies_leaves_the_work_to_this_one(tmp_path: Path) -> None:
    """A forked process killed in the middle (here it ends itself): every item is done
    again here, so every file is written."""
    here = os.getpid()

    def task(n: int) -> Path:
        if os.getpid() != here and n == 3:
            os._exit(1)
        path = tmp_path / f"{n}.txt"
        path.write_text(str(n))
        return path

    paths = processes.forked_map(task, list(range(6)))
    assert [p.read_text() for p in paths] == [str(n) for n in range(6)]


def _values(path: Path) -> dict[str, list[list[object]]]:
    book = openpyxl.load_workbook(path)
    return {ws.title: [list(row) for row in ws.iter_rows(values_only=True)] for ws in book}


@pytest.mark.usefixtures("two_cores")
def test_sheets_written_by_two_processes_are_those_written_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = find_ruleset("fifth-millennium")
    written: dict[str, dict[str, Path]] = {}
    pids: list[int] = []
    real = processes.forked_map

    def counted(task, items, *, at_least=4):  # type: ignore[no-untyped-def]
        pids.extend(real(lambda item: os.getpid(), items, at_least=at_least))
        return real(task, items, at_least=at_least)

    for way in ("forked", "one-by-one"):
        game = Game.create(
            tmp_path / way,
            ruleset,
            ruleset.demo_players(6),
            name="Six",
            seed=7,
            assign_homeworlds=True,
            secret="six",
        )
        state = game.load_state()
        if way == "one-by-one":
            monkeypatch.setattr(
                turnsheets, "forked_map", lambda task, items: list(map(task, items))
            )
        else:
            monkeypatch.setattr(turnsheets, "forked_map", counted)
        with game.lock():
            written[way] = {p.stem: p for p in write_sheets(game, state)}
    # The first sheet is written here, the other five elsewhere (or here too, without fork).
    assert (os.getpid() not in pids) == FORKS and len(pids) == 5
    assert list(written["forked"]) == list(written["one-by-one"]) == list(game.step(state).expects)
    for player, path in written["forked"].items():
        assert _values(path) == _values(written["one-by-one"][player]), player


def _parts(path: Path) -> tuple[str, str, list[tuple[str, bytes]], str]:
    message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    assert isinstance(message, EmailMessage)
    body = message.get_body(("plain",))
    files = [(p.get_filename() or "", p.get_content()) for p in message.iter_attachments()]
    return message["To"], message["Subject"], files, body.get_content() if body else ""


@pytest.mark.usefixtures("two_cores")
def test_mail_written_by_two_processes_is_the_mail_written_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five players' messages, each with its report and sheet: the same recipients,
    subjects, bodies and attachments to the byte, in the players' order, either way."""
    players = ["Ann", "Bob", "Cleo", "Dev", "Eve"]
    files = tmp_path / "files"
    files.mkdir()
    reports, sheets = {}, {}
    for n, player in enumerate(players):
        reports[player] = files / f"{player}.pdf"
        reports[player].write_bytes(os.urandom(50_000 + n))
        sheets[player] = files / f"{player}.xlsx"
        sheets[player].write_bytes(os.urandom(20_000 + n))
    pids: list[int] = []
    real = processes.forked_map

    def counted(task, items, *, at_least=4):  # type: ignore[no-untyped-def]
        pids.extend(real(lambda item: os.getpid(), items, at_least=at_least))
        return real(task, items, at_least=at_least)

    made = {}
    for way, split in (("forked", counted), ("one-by-one", lambda t, i: list(map(t, i)))):
        monkeypatch.setattr(mailing, "forked_map", split)
        made[way] = mailing.build_mailings(
            folder=tmp_path / way,
            game_name="Five",
            step="5003",
            deadline="1 May",
            sender="ref@example.org",
            resolved="5002",
            addresses={p: f"{p.lower()}@example.org" for p in players},
            reports=reports,
            sheets=sheets,
        )
    assert (os.getpid() not in pids) == FORKS and len(pids) == 5
    assert [m.player for m in made["forked"]] == [m.player for m in made["one-by-one"]] == players
    for forked, alone in zip(made["forked"], made["one-by-one"], strict=True):
        to, subject, attached, body = _parts(forked.path)
        assert (to, subject, attached, body) == _parts(alone.path)
        assert attached == [
            (f"{forked.player}.pdf", reports[forked.player].read_bytes()),
            (f"{forked.player}.xlsx", sheets[forked.player].read_bytes()),
        ]
