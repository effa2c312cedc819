"""Nothing lost at a kill of the intake, and nothing left running at a kill of any command
(issue 53, "Data that can be lost or left behind").

* A mail with two sheets, the intake stopped between them (an exception raised at that point,
  and ``kill -9`` of a real ``refassist intake`` at random moments): the next run files the
  second sheet, each sheet once, and writes the mail's one reply with both.
* The intake stopped between filing a mail and writing its reply: the next run writes the
  reply owed, once.
* ``kill -9`` of a real intake at random moments, from a saved mailbox, a plain folder and an
  IMAP folder on the local Dovecot, mails of one and of two sheets: after a final run, each
  sheet filed once, each reply written once, nothing left running, the inbox as an
  uninterrupted run leaves it.
* ``kill -9`` of ``resolve``, ``report`` and an mbox and a folder ``intake`` while their worker
  processes run: no process of theirs remains (a bounded wait, not a timing assertion).
* `status` tells the referee of a mail filed in part and of a reply owed.

The kill counts are modest for CI; ``REFASSIST_KILLS`` raises them for a long run (`kills`).
"""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from refassist.intake import inbox
from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup
from refassist.store.game import Game
from refassist.store.turnsheets import write_sheets
from tests.test_intake import filled_sheet, make_mail

REFASSIST = Path(sys.executable).with_name("refassist")
DEADLINE = datetime(2030, 1, 5, 21, 0)
ON_TIME = datetime(2030, 1, 2, 12, 0, tzinfo=UTC)
PLAYERS = ("Ann", "Bob", "Cleo", "Dev", "Eve")


def kills(kind: str, default: int) -> int:
    """How many times a command is killed at a random moment: ``default``, modest so that CI
    stays quick, unless ``REFASSIST_KILLS`` asks for more in a long run a referee can trust:
    a number (every kind that many times) or ``mbox=60,imap=20,files=20,workers=12,watch=8``
    (``watch``: tests/test_watch.py)."""
    text = os.environ.get("REFASSIST_KILLS", "").strip()
    if not text:
        return default
    if text.isdigit():
        return int(text)
    asked = dict(part.split("=", 1) for part in text.replace(" ", "").split(",") if "=" in part)
    if not set(asked) <= {"mbox", "imap", "files", "workers", "watch"} or not all(
        v.isdigit() for v in asked.values()
    ):
        raise ValueError(
            f"REFASSIST_KILLS={text!r}: a number, or mbox=N,imap=N,files=N,workers=N,watch=N"
        )
    return int(asked.get(kind, default))


#: How many times each command is killed at a random moment (the test prints the counts).
INTAKE_KILLS = kills("mbox", 12)
IMAP_KILLS = kills("imap", 6)
FILE_KILLS = kills("files", 6)
WORKER_KILLS = kills("workers", 4)


class Killed(BaseException):
    """Stands for the process dying at the point where it is raised (not an ``Exception``:
    nothing in the intake may catch it)."""


def new_game(folder: Path, language: str | None = None) -> Game:
    """The test's Fifth Millennium game, its first sheets written (in ``language`` when given,
    as `[game] language` sets it)."""
    g = Game.create(
        folder,
        find_ruleset("fifth-millennium"),
        [PlayerSetup(n, f"{n.lower()}@example.com") for n in PLAYERS],
        seed=5,
        generate_seed=42,
        assign_homeworlds=True,
        first_deadline=DEADLINE,
        **({"language": language} if language else {}),
    )
    write_sheets(g, g.load_state())
    return g


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return new_game(tmp_path / "game")


def two_sheet_mail(game: Game, player: str, work: Path) -> EmailMessage:
    """A player's sheet with a problem and, in the same mail, the corrected sheet after it."""
    bad = filled_sheet(game, player, work, message="first", bad=True, name=f"{player}-1.xlsx")
    good = filled_sheet(game, player, work, message="fixed", name=f"{player}-2.xlsx")
    return make_mail(
        f"{player.lower()}@example.com",
        [(bad.name, bad.read_bytes()), (good.name, good.read_bytes())],
    )


def write_mbox(path: Path, messages: list[EmailMessage]) -> Path:
    box = mailbox.mbox(str(path))
    for msg in messages:
        box.add(msg)
    box.flush()
    box.close()
    return path


def index_of(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((game.inbox("5001") / "index.json").read_text())
    return data


def replies(game: Game) -> list[Path]:
    return sorted((game.outbox("5001") / "replies").glob("*.eml"))


def reply_text(path: Path) -> str:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return f"{msg['Subject']}\n{body.get_content()}"


def filed_once(game: Game) -> dict[str, int]:
    """How many entries each file received has, duplicates noted by a rerun included."""
    counts: dict[str, int] = {}
    for entry in index_of(game)["entries"]:
        counts[entry["name"]] = counts.get(entry["name"], 0) + 1
    return counts


def accepted_hashes(game: Game) -> dict[str, str]:
    return {p: str(info["sha256"]) for p, info in index_of(game)["accepted"].items()}


def assert_both_sheets_filed_and_answered(game: Game, player: str) -> None:
    assert filed_once(game) == {f"{player}-1.xlsx": 1, f"{player}-2.xlsx": 1}
    entries = index_of(game)["entries"]
    assert [e["status"] for e in entries] == ["problems", "accepted"]
    assert index_of(game)["accepted"][player]["entry"] == 1
    [reply] = replies(game)
    text = reply_text(reply)
    assert "2 files received" in text
    assert f"1. your turn sheet {player}-1.xlsx" in text
    assert f"2. your turn sheet {player}-2.xlsx for Year 5001 is accepted" in text
    assert "partial" not in index_of(game) and "owed" not in index_of(game)


# -- a stop between the two sheets of one mail ----------------------------------------------


def stop_at_part(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The intake dies as it starts filing the file ``name``."""
    original = inbox._Intake.file

    def file(self: inbox._Intake, item: inbox.Received) -> inbox.Outcome:
        if item.name == name:
            raise Killed
        return original(self, item)

    monkeypatch.setattr(inbox._Intake, "file", file)


def test_an_mbox_intake_stopped_between_two_sheets_files_the_second_on_its_next_run(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = write_mbox(tmp_path / "turn.mbox", [two_sheet_mail(game, "Ann", tmp_path)])
    stop_at_part(monkeypatch, "Ann-2.xlsx")
    with pytest.raises(Killed):
        intake(game, [box])
    assert filed_once(game) == {"Ann-1.xlsx": 1}
    assert replies(game) == []  # the mail is not answered before it is all filed
    monkeypatch.undo()

    intake(game, [box])
    assert_both_sheets_filed_and_answered(game, "Ann")


def test_an_intake_stopped_before_the_reply_writes_it_on_its_next_run_once(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = write_mbox(tmp_path / "turn.mbox", [two_sheet_mail(game, "Ann", tmp_path)])

    def write_eml(path: Path, msg: EmailMessage) -> None:
        raise Killed  # dies between filing the mail and writing its reply

    monkeypatch.setattr(inbox, "write_eml", write_eml)
    with pytest.raises(Killed):
        intake(game, [box])
    assert replies(game) == []
    assert [e["status"] for e in index_of(game)["entries"]] == ["problems", "accepted"]
    monkeypatch.undo()

    other = write_mbox(tmp_path / "other.mbox", [two_sheet_mail(game, "Bob", tmp_path)])
    intake(game, [other])  # any next run: the reply owed is written first
    ann = [p for p in replies(game) if p.name.startswith("Ann")]
    assert len(ann) == 1
    assert "2 files received" in reply_text(ann[0])
    assert "owed" not in index_of(game)
    before = {p.name: p.read_bytes() for p in replies(game)}
    intake(game, [other])  # owed no longer: nothing written again
    assert {p.name: p.read_bytes() for p in replies(game)} == before


# -- the same over IMAP (the local Dovecot) -------------------------------------------------


def test_an_imap_intake_stopped_between_two_sheets_files_the_second_on_its_next_run(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.mailservers import dovecot_binary, imap_server
    from tests.test_imap_intake import ON_TIME as ARRIVED
    from tests.test_imap_intake import deliver, flags, intake_cli

    if dovecot_binary() is None and not os.environ.get("CI_REQUIRE_MAILSERVERS"):
        pytest.skip("dovecot-imapd is not installed (scripts/test installs it)")
    from refassist.intake.imap_intake import FILED_KEYWORD

    with imap_server() as server:
        client = server.client()
        assert client.create("Turns")[0] == "OK"
        client.logout()
        deliver(server, "Turns", two_sheet_mail(game, "Ann", tmp_path), ARRIVED)
        url = server.url("Turns")
        stop_at_part(monkeypatch, "Ann-2.xlsx")
        with pytest.raises(Killed):
            intake_cli(game, "--imap", url, "--ca-file", str(server.ca_file))
        monkeypatch.undo()
        assert filed_once(game) == {"Ann-1.xlsx": 1}
        assert FILED_KEYWORD not in flags(server, "Turns")[1]

        rerun = intake_cli(game, "--imap", url, "--ca-file", str(server.ca_file))
        assert rerun.exit_code == 0, rerun.output
        assert_both_sheets_filed_and_answered(game, "Ann")
        assert FILED_KEYWORD in flags(server, "Turns")[1], (rerun.output, flags(server, "Turns"))


# -- kill -9 of a real intake at random moments ---------------------------------------------


def names(index: Path, name: str) -> bool:
    """Whether the index file names ``name`` (read while another process replaces it)."""
    try:
        return name in index.read_text()
    except OSError:
        return False


def reply_texts(game: Game) -> dict[str, str]:
    return {p.name: reply_text(p) for p in replies(game)}


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command to its end: it succeeds (an intake that filed sheets with problems ends
    with 1, as it says), without a traceback."""
    done = subprocess.run(
        [str(REFASSIST), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **(env or {})},
    )
    allowed = (0, 1) if args[0] == "intake" else (0,)
    assert done.returncode in allowed, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done


#: What starts one intake on a copy of the game: the command's arguments and environment for
#: the copy and the attempt (-1 for the uninterrupted run); an IMAP run fills a folder of its own.
Starter = Callable[[Path, int], tuple[list[str], dict[str, str]]]


def kill_intake_at_random_moments(
    game: Game, tmp_path: Path, start: Starter, count: int, *, filed: int
) -> tuple[int, int]:
    """Run the intake once uninterrupted, then ``count`` times on fresh copies of the game,
    each killed (``kill -9``) at a random moment and run again to its end: each time, every
    sheet filed once and every reply written once, as the uninterrupted run left them, with no
    process of the killed run left.  Returns how many kills landed while the intake ran and
    how many between two parts of one mail."""
    pristine = tmp_path / "pristine"
    shutil.copytree(game.path, pristine)

    def launch(copy: Path, attempt: int) -> subprocess.Popen[bytes]:
        args, env = start(copy, attempt)
        return subprocess.Popen(
            [str(REFASSIST), *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **env},
            start_new_session=True,
        )

    # The uninterrupted run, timed: its whole life, and its filing (from the index's first
    # save to its end), so that the kills below land while it runs whatever the machine.
    started = time.monotonic()
    proc = launch(game.path, -1)
    index = game.inbox("5001") / "index.json"
    wait_until(lambda: index.exists() or proc.poll() is not None, 120)
    first_save = time.monotonic()
    assert proc.wait() in (0, 1)
    total, filing = time.monotonic() - started, time.monotonic() - first_save
    want_accepted, want_replies = accepted_hashes(game), reply_texts(game)
    want_filed = sorted((e["name"], e["status"]) for e in index_of(game)["entries"])
    assert len(want_filed) == filed
    assert "2 files received" in "".join(want_replies.values())

    rng = random.Random(53)
    interrupted = halfway = 0
    for kill in range(count):
        copy = tmp_path / f"kill-{kill}"
        shutil.copytree(pristine, copy)
        proc = launch(copy, kill)
        index = Game.open(copy).inbox("5001") / "index.json"
        try:
            if kill % 3 == 1:
                # A moment of the filing, found by the index's first save whatever the speed.
                wait_until(lambda i=index, p=proc: i.exists() or p.poll() is not None, 120)
                time.sleep(rng.uniform(0.0, filing))
            elif kill % 3 == 2:
                # Between Ann's two sheets: as soon as the index names her first.
                wait_until(lambda i=index, p=proc: names(i, "Ann-1") or p.poll() is not None, 120)
            else:
                time.sleep(rng.uniform(0.0, total))  # any moment of the process's life
            proc.send_signal(signal.SIGKILL)
            interrupted += proc.wait() == -signal.SIGKILL
            wait_until(lambda p=proc: not group_members(p.pid), 10)
            assert group_members(proc.pid) == [], f"kill {kill}: processes left running"
        finally:
            for pid in group_members(proc.pid):  # leave nothing behind, even when failing
                os.kill(pid, signal.SIGKILL)
        stopped = Game.open(copy).inbox("5001") / "index.json"
        halfway += stopped.exists() and "partial" in json.loads(stopped.read_text())
        args, env = start(copy, kill)
        run(*args, env=env)
        after = Game.open(copy)
        # Each sheet filed once, as the uninterrupted run filed it; a mail the killed run had
        # filed whole is read again by the rerun only as what it is, a duplicate.
        got_filed = [
            (e["name"], e["status"])
            for e in index_of(after)["entries"]
            if e["status"] != "duplicate"
        ]
        assert sorted(got_filed) == want_filed, f"kill {kill}"
        assert accepted_hashes(after) == want_accepted, f"kill {kill}"
        assert reply_texts(after) == want_replies, f"kill {kill}"  # each reply whole, once
        assert "partial" not in index_of(after) and "owed" not in index_of(after)
        shutil.rmtree(copy)
    assert interrupted >= count // 3, "too few kills landed while the intake ran"
    return interrupted, halfway


def turn_mails(game: Game, work: Path) -> list[EmailMessage]:
    """Ann's mail of two sheets (one with a problem, then the corrected one), Bob's of one."""
    bob = filled_sheet(game, "Bob", work, name="Bob-1.xlsx")
    return [
        two_sheet_mail(game, "Ann", work),
        make_mail("bob@example.com", [(bob.name, bob.read_bytes())]),
    ]


@pytest.mark.slow
def test_kill_9_of_an_mbox_intake_at_random_moments_loses_no_sheet_and_no_reply(
    game: Game, tmp_path: Path
) -> None:
    """Killed anywhere, the intake's next run leaves the step as an uninterrupted run does.
    (Three sheets, checked one after the other in the intake's process, not ahead in
    workers.)"""
    box = write_mbox(tmp_path / "turn.mbox", turn_mails(game, tmp_path))
    interrupted, halfway = kill_intake_at_random_moments(
        game,
        tmp_path,
        lambda copy, _: (["intake", str(copy), str(box)], {}),
        INTAKE_KILLS,
        filed=3,
    )
    assert halfway, "no kill landed between two sheets of a mail"
    print(
        f"mbox intake killed {interrupted} of {INTAKE_KILLS} times while running, "
        f"{halfway} between two sheets"
    )


@pytest.mark.slow
def test_kill_9_of_an_imap_intake_at_random_moments_loses_no_sheet_and_no_reply(
    game: Game, tmp_path: Path
) -> None:
    """The same mails in a folder of the local Dovecot (a folder of its own for each run):
    killed anywhere, the next run files what is left, answers once, and flags every message
    filed; none is flagged before it is filed and answered."""
    from tests.mailservers import PASSWORD, dovecot_binary, imap_server
    from tests.test_imap_intake import ON_TIME as ARRIVED
    from tests.test_imap_intake import deliver, flags

    if dovecot_binary() is None and not os.environ.get("CI_REQUIRE_MAILSERVERS"):
        pytest.skip("dovecot-imapd is not installed (scripts/test installs it)")
    from refassist.intake.imap_intake import FILED_KEYWORD

    mails = turn_mails(game, tmp_path)
    with imap_server() as server:
        filled: set[int] = set()

        def start(copy: Path, attempt: int) -> tuple[list[str], dict[str, str]]:
            folder = f"Turns{attempt + 1}"
            if attempt not in filled:  # the run's folder, once: the rerun reads it again
                filled.add(attempt)
                client = server.client()
                assert client.create(folder)[0] == "OK"
                client.logout()
                for mail in mails:
                    deliver(server, folder, mail, ARRIVED)
            args = ["intake", str(copy), "--imap", server.url(folder)]
            env = {"REFASSIST_IMAP_PASSWORD": PASSWORD}
            return [*args, "--ca-file", str(server.ca_file)], env

        interrupted, halfway = kill_intake_at_random_moments(
            game, tmp_path, start, IMAP_KILLS, filed=3
        )
        for attempt in sorted(filled):
            marks = flags(server, f"Turns{attempt + 1}")
            assert sorted(marks) == [1, 2], attempt
            assert all(FILED_KEYWORD in f for f in marks.values()), (attempt, marks)
    assert halfway, "no kill landed between two sheets of a mail"
    print(
        f"IMAP intake killed {interrupted} of {IMAP_KILLS} times while running, "
        f"{halfway} between two sheets"
    )


@pytest.mark.slow
def test_kill_9_of_a_folder_intake_at_random_moments_loses_no_sheet_and_no_reply(
    game: Game, tmp_path: Path
) -> None:
    """A plain folder as a referee saves a week's turns in: Ann's mail of two sheets and
    Cleo's of one as .eml files, Bob's sheet as a bare .xlsx; with four sheets or more they
    are checked ahead in worker processes, which die with the killed intake."""
    week = tmp_path / "week"
    week.mkdir()
    ann, _ = turn_mails(game, tmp_path)
    (week / "Ann.eml").write_bytes(bytes(ann))
    shutil.copy(tmp_path / "Bob-1.xlsx", week / "Bob-1.xlsx")
    cleo = filled_sheet(game, "Cleo", tmp_path, name="Cleo-1.xlsx")
    dev = filled_sheet(game, "Dev", tmp_path, name="Dev-1.xlsx")
    (week / "Cleo.eml").write_bytes(
        bytes(make_mail("cleo@example.com", [(cleo.name, cleo.read_bytes())]))
    )
    (week / "Dev.eml").write_bytes(
        bytes(make_mail("dev@example.com", [(dev.name, dev.read_bytes())]))
    )
    interrupted, halfway = kill_intake_at_random_moments(
        game,
        tmp_path,
        lambda copy, _: (["intake", str(copy), str(week)], {}),
        FILE_KILLS,
        filed=5,
    )
    print(
        f"folder intake killed {interrupted} of {FILE_KILLS} times while running, "
        f"{halfway} between two sheets"
    )


# -- no worker outlives a killed command ----------------------------------------------------


def group_members(group: int) -> list[int]:
    """The live (not zombie) processes of a process group, from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group and fields[0] != "Z":
            out.append(int(entry.name))
    return out


def wait_until(condition: Any, seconds: float) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass (a bound, not a measurement)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return bool(condition())


def kill_with_workers_running(args: list[str], rng: random.Random) -> tuple[bool, list[int]]:
    """Start the command in a process group of its own, wait until it has workers, kill it
    a random moment later; returns whether it had workers and what of the group remains
    after a bounded wait."""
    proc = subprocess.Popen(
        [str(REFASSIST), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        had = wait_until(
            lambda: len(group_members(proc.pid)) > 1 or proc.poll() is not None, 120
        ) and (proc.poll() is None)
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        wait_until(lambda: not group_members(proc.pid), 10)
        return had, group_members(proc.pid)
    finally:
        for pid in group_members(proc.pid):  # leave nothing behind, even when failing
            os.kill(pid, signal.SIGKILL)


def fresh_copy(game: Game, folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(game.path, folder)
    return folder


@pytest.mark.slow
def test_kill_9_of_resolve_report_and_intake_leaves_no_worker_running(
    game: Game, tmp_path: Path
) -> None:
    mails = [two_sheet_mail(game, p, tmp_path) for p in PLAYERS]
    box = write_mbox(tmp_path / "turn.mbox", mails)
    week = tmp_path / "week"  # the same mails saved as .eml files in a plain folder
    week.mkdir()
    for player, mail in zip(PLAYERS, mails, strict=True):
        (week / f"{player}.eml").write_bytes(bytes(mail))
    resolved = tmp_path / "resolved"
    shutil.copytree(game.path, resolved)
    run("resolve", str(resolved), "--now")
    rng = random.Random(2053)
    commands = {
        "intake": (game.path, ["intake", "{game}", str(box)]),
        "folder intake": (game.path, ["intake", "{game}", str(week)]),
        "resolve": (game.path, ["resolve", "{game}", "--now"]),
        "report": (resolved, ["report", "{game}"]),
    }
    with_workers: dict[str, int] = {}
    for name, (source, args) in commands.items():
        with_workers[name] = 0
        for kill in range(WORKER_KILLS):
            copy = fresh_copy(Game.open(source), tmp_path / f"{name}-{kill}")
            had, left = kill_with_workers_running(
                [a.replace("{game}", str(copy)) for a in args], rng
            )
            with_workers[name] += had
            assert left == [], f"{name}, kill {kill}: {len(left)} processes left running"
    assert all(with_workers.values()), with_workers
    print(f"killed with workers running: {with_workers}")


# -- what `status` says of mail left half done ----------------------------------------------


def status_of(game: Game) -> str:
    from click.testing import CliRunner

    from refassist.cli import main

    result = CliRunner().invoke(main, ["status", str(game.path)])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("language", ["en", "fr"])
def test_status_tells_of_a_mail_filed_in_part_and_of_a_reply_owed(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    if language == "fr":
        game = new_game(tmp_path / "jeu", "fr")
    box = write_mbox(tmp_path / "turn.mbox", [two_sheet_mail(game, "Ann", tmp_path)])
    stop_at_part(monkeypatch, "Ann-2.xlsx")
    with pytest.raises(Killed):
        intake(game, [box])
    monkeypatch.undo()
    said = " ".join(status_of(game).split())
    if language == "en":
        assert (
            f"Ann's mail (ann@example.com, {box}#0) was filed only in part (1 file): the intake "
            "stopped before the rest. It will be finished on the next intake that reads this "
            "mail again: the rest filed and the mail answered, once."
        ) in said
    else:
        assert (
            f"Le courriel envoyé par Ann (ann@example.com, {box}#0) n'a été classé qu'en "
            "partie (1 fichier) : la commande intake s'est arrêtée avant le reste. Il sera "
            "achevé par le prochain intake qui relira ce courriel : le reste classé et la "
            "réponse écrite, une seule fois."
        ) in said

    def write_eml(path: Path, msg: EmailMessage) -> None:
        raise Killed  # dies between filing the mail and writing its reply

    monkeypatch.setattr(inbox, "write_eml", write_eml)
    with pytest.raises(Killed):
        intake(game, [box])
    monkeypatch.undo()
    said = " ".join(status_of(game).split())
    assert "Ann's mail" not in said and "Le courriel envoyé par Ann" not in said
    if language == "en":
        assert (
            "A reply to Ann (ann@example.com) is owed: the intake stopped before writing it. "
            "The next intake, whatever it takes in, writes it first, once."
        ) in said
    else:
        assert (
            "Une réponse à Ann (ann@example.com) reste due : la commande intake s'est "
            "arrêtée avant de l'écrire. Le prochain intake, quoi qu'il reçoive, l'écrira "
            "d'abord, une seule fois."
        ) in said

    intake(game, [box])  # the reply written: nothing left to tell
    said = status_of(game)
    assert "Ann (ann@example.com)" not in said and "Ann's mail" not in said
