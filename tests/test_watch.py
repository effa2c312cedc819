"""`refassist watch` through a simulated week, against the local Dovecot and SMTP servers
(`tests.mailservers`): the clock is the test's (``--now``), never slept.

* Mail arriving at different times is answered within one round; the reminder goes to the
  two players without an accepted sheet and to nobody else, once; at the deadline "ask"
  mails the referee once, "auto" resolves and sends the reports, and "auto" asks instead when
  the no-orders house rule leaves a player without orders.
* A mail server that is down is tried again, said in the log, and the next round sends what
  waited, once.
* ``kill -9`` of ``refassist watch --once`` at random moments, then the same command again:
  nothing lost, nothing sent twice.
* The systemd unit's command from docs/watch.md runs and stops cleanly on SIGTERM.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from refassist.cli import main
from refassist.config import load_config
from refassist.errors import GameError
from refassist.intake.imap_intake import FILED_KEYWORD
from refassist.mail.mailserver import parse_server
from refassist.mail.sending import outgoing, read_sent, send_waiting
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import PlayerSetup, Step
from refassist.store.game import Game
from refassist.store.inbox_index import Index, sheet_states
from refassist.store.turnsheets import write_sheets
from refassist.turns import resolve_game
from refassist.watch.log import read_log
from refassist.watch.notices import ask_text, referee_words, write_reminder
from refassist.watch.watcher import Watcher, clock_from, needs_referee, write_intent
from tests.mailservers import (
    PASSWORD,
    ImapServer,
    SmtpServer,
    dovecot_binary,
    free_port,
    imap_server,
    smtp_server,
)
from tests.test_imap_intake import deliver, flags
from tests.test_intake import filled_sheet, make_mail
from tests.test_kill_safety import group_members, kills, wait_until
from tests.test_mail_sending import REFEREE
from tests.test_outbox_stale import _edit_stockpile

pytestmark = pytest.mark.skipif(
    dovecot_binary() is None and not os.environ.get("CI_REQUIRE_MAILSERVERS"),
    reason="dovecot-imapd is not installed (scripts/test installs it)",
)

REFASSIST = Path(sys.executable).with_name("refassist")
DOCS = Path(__file__).resolve().parents[1] / "docs"
#: The deadline of the first step (game.toml's local time; the tests run in UTC or convert).
DEADLINE = datetime(2025, 1, 5, 21, 0)
PLAYERS = ("Ann", "Bob", "Cleo")
ENV = {"REFASSIST_IMAP_PASSWORD": PASSWORD, "REFASSIST_SMTP_PASSWORD": PASSWORD}
#: Short pauses between attempts at a server that is down (the default is 5 s, then 30 s).
PAUSES = ("--retry-pauses", "0.05,0.1")
#: How many times `watch --once` is killed at a random moment (REFASSIST_KILLS=watch=N).
WATCH_KILLS = kills("watch", 4)


def deadline() -> datetime:
    """The deadline as an aware time (game.toml's times are the machine's local time)."""
    return DEADLINE.astimezone()


def at(days: float = 0, hours: float = 0, minutes: float = 0) -> datetime:
    """A moment of the week, counted from the deadline (negative: before it)."""
    return deadline() + timedelta(days=days, hours=hours, minutes=minutes)


@pytest.fixture(scope="module")
def dovecot() -> Iterator[ImapServer]:
    with imap_server() as server:
        yield server


@pytest.fixture
def smtp(tmp_path: Path) -> Iterator[SmtpServer]:
    with smtp_server(tmp_path / "smtp") as server:
        yield server


def new_folder(server: ImapServer) -> str:
    name = f"Turns-{uuid.uuid4().hex[:8]}"
    client = server.client()
    assert client.create(name)[0] == "OK"
    client.logout()
    return name


def configure(game: Game, **settings: object) -> Game:
    """``[mail]`` and ``[watch]`` of the game's game.toml set as a referee sets them."""
    path = game.path / "game.toml"
    text = path.read_text()
    text = text.replace('referee_email = "referee@example.invalid"', f'referee_email = "{REFEREE}"')
    watch = {}
    for key, value in settings.items():
        if key in ("imap", "smtp", "ca_file", "filed_folder"):
            text = re.sub(rf'(?m)^{key} = ".*"', f'{key} = "{value}"', text)
        else:
            watch[key] = value
    text = re.sub(r"(?ms)^\[watch\]\n.*?(?=^\[|\Z)", "", text)
    if watch:
        lines = [f"{k} = " + (f'"{v}"' if isinstance(v, str) else str(v)) for k, v in watch.items()]
        text = text.rstrip("\n") + "\n\n[watch]\n" + "\n".join(lines) + "\n"
    path.write_text(text)
    return Game.open(game.path)


def created(folder: Path, players: list[PlayerSetup] | None = None, language: str = "") -> Game:
    """The small Fifth Millennium game every test watches: three players (or ``players``),
    homeworlds given, the first deadline `DEADLINE`, in ``language`` (the default: none set)."""
    return Game.create(
        folder,
        find_ruleset("fifth-millennium"),
        players or [PlayerSetup(n, f"{n.lower()}@example.com") for n in PLAYERS],
        seed=5,
        generate_seed=42,
        assign_homeworlds=True,
        first_deadline=DEADLINE,
        language=language,
    )


def new_game(
    folder: Path, dovecot: ImapServer, smtp: SmtpServer, language: str = "", **watch: object
) -> tuple[Game, str]:
    """Three players, the first sheets written, watching a fresh folder of the Dovecot."""
    g = created(folder, language=language)
    write_sheets(g, g.load_state())
    both = folder.parent / f"{folder.name}-ca.pem"
    both.write_text(dovecot.ca_file.read_text() + smtp.ca_file.read_text())
    turns = new_folder(dovecot)
    settings = {"resolve": "ask", **watch}
    g = configure(g, imap=dovecot.url(turns), smtp=smtp.url(), ca_file=str(both), **settings)
    return g, turns


def watch(game: Game, now: datetime, *more: str) -> Result:
    result = CliRunner().invoke(
        main,
        ["watch", str(game.path), "--once", "--now", now.isoformat(), *PAUSES, *more],
        env=ENV,
    )
    assert result.exit_code == 0, result.output
    return result


def new_mail(smtp: SmtpServer, seen: list[int]) -> list[tuple[str, EmailMessage]]:
    """The messages the SMTP server took since the last call: (recipient, message)."""
    out = []
    for _, recipients, content in smtp.inbox.received[seen[0] :]:
        msg = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        out += [(r, msg) for r in recipients]
    seen[0] = len(smtp.inbox.received)
    return out


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return f"{msg['Subject']}\n{body.get_content()}".replace("\r\n", "\n")


def status_of(game: Game) -> str:
    result = CliRunner().invoke(main, ["watch", str(game.path), "--status"], env=ENV)
    assert result.exit_code == 0, result.output
    return result.output


# -- the settings ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('resolve = "sometimes"', 'resolve must be "ask"'),
        ("every_minutes = 0", "every_minutes must be a whole number of minutes from 1"),
        ("every_minutes = 2.5", "every_minutes must be a whole number"),
        ("remind_before_hours = -1", "remind_before_hours must be a number of hours from 0"),
        ('referee = "not an address"', "referee must be an e-mail address"),
        ("poll = 3", "poll is not a setting; known keys: every_minutes, referee,"),
    ],
)
def test_watch_settings_are_checked_with_a_clear_error(
    tmp_path: Path, line: str, said: str
) -> None:
    g = created(tmp_path / "game")
    path = g.path / "game.toml"
    defaults = load_config(path).watch
    assert (defaults.every_minutes, defaults.remind_before_hours, defaults.resolve) == (
        5,
        24,
        "ask",
    )
    path.write_text(path.read_text() + f"\n[watch]\n{line}\n")
    with pytest.raises(GameError, match=re.escape(said)):
        load_config(path)


def test_watch_refuses_a_game_without_mail_servers(tmp_path: Path) -> None:
    g = created(tmp_path / "game")
    result = CliRunner().invoke(main, ["watch", str(g.path), "--once"])
    assert result.exit_code == 2
    assert "refassist watch needs [mail] imap and smtp in game.toml" in result.output


# -- the week -------------------------------------------------------------------------------


def test_a_week_watched_answers_reminds_once_and_asks_at_the_deadline(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    game, turns = new_game(tmp_path / "game", dovecot, smtp)
    seen = [0]
    work = tmp_path / "sheets"
    work.mkdir()
    ann = filled_sheet(game, "Ann", work, name="Ann.xlsx")
    bob_bad = filled_sheet(game, "Bob", work, bad=True, name="Bob.xlsx")
    bob_good = filled_sheet(game, "Bob", work, message="fixed", name="Bob-fixed.xlsx")

    watch(game, at(days=-5))  # Tuesday: nothing has come
    assert new_mail(smtp, seen) == []

    # Wednesday 09:12 Ann's sheet arrives: answered by the round at 09:15.
    arrived = at(days=-4, hours=-11, minutes=-48)
    deliver(dovecot, turns, make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())]), arrived)
    watch(game, arrived + timedelta(minutes=3))
    [(to, reply)] = new_mail(smtp, seen)
    assert to == "ann@example.com" and "accepted" in text_of(reply)

    # Thursday 14:03 Bob's sheet with a problem: answered by the round at 14:05.
    arrived = at(days=-3, hours=-6, minutes=-57)
    bob_mail = make_mail("bob@example.com", [("Bob.xlsx", bob_bad.read_bytes())])
    deliver(dovecot, turns, bob_mail, arrived)
    watch(game, arrived + timedelta(minutes=2))
    [(to, reply)] = new_mail(smtp, seen)
    assert to == "bob@example.com" and "problem" in text_of(reply)

    # Saturday: 24 h 5 min before the deadline, no reminder yet; at 24 h, Bob and Cleo's.
    watch(game, at(hours=-24, minutes=-5))
    assert new_mail(smtp, seen) == []
    watch(game, at(hours=-24))
    reminders = dict(new_mail(smtp, seen))
    assert sorted(reminders) == ["bob@example.com", "cleo@example.com"]
    bob_text, cleo_text = (
        text_of(reminders["bob@example.com"]),
        text_of(reminders["cleo@example.com"]),
    )
    assert "reminder, orders due Sun 05 Jan 2025 21:00" in bob_text
    assert "Bob.xlsx, still has 1 problem; the first:" in bob_text
    assert "no turn sheet of yours has reached me yet" in cleo_text
    assert "Your sheet is attached again." in cleo_text
    [sheet] = [p for p in reminders["cleo@example.com"].iter_attachments()]
    assert sheet.get_filename() == "Cleo.xlsx"
    watch(game, at(hours=-23, minutes=-55))  # the next round: nobody twice
    assert new_mail(smtp, seen) == []

    # Sunday 10:41 Bob's corrected sheet: accepted and answered; no new reminder.
    arrived = at(hours=-10, minutes=-19)
    fixed = make_mail("bob@example.com", [("Bob-fixed.xlsx", bob_good.read_bytes())])
    deliver(dovecot, turns, fixed, arrived)
    watch(game, arrived + timedelta(minutes=4))
    [(to, reply)] = new_mail(smtp, seen)
    assert to == "bob@example.com" and "accepted" in text_of(reply)
    watch(game, at(minutes=-5))
    assert new_mail(smtp, seen) == []
    before_deadline = tmp_path / "before-deadline"
    shutil.copytree(game.path, before_deadline)

    # The deadline, resolve = "ask": the referee's mail, once; the turn is not resolved.
    watch(game, at(minutes=1))
    [(to, asked)] = new_mail(smtp, seen)
    assert to == REFEREE
    text = text_of(asked)
    assert "Year 5001: the deadline has passed" in text
    assert re.search(r"Ann\s+accepted", text) and re.search(r"Cleo\s+no sheet received", text)
    assert "Reminded before the deadline: Bob, Cleo" in text
    assert f"refassist resolve {game.path}\n" in text
    assert f"refassist report {game.path} --smtp" in text
    watch(game, at(minutes=6))
    assert new_mail(smtp, seen) == []
    assert Game.open(game.path).step(Game.open(game.path).load_state()).key == "5001"
    assert all(FILED_KEYWORD in f for f in flags(dovecot, turns).values())

    timeline = status_of(game)
    print(timeline)
    whats = [m.group(1) for m in re.finditer(r"(?m)^  \S+ \S+  .{8}  (\S+)", timeline)]
    assert whats == [
        "started",
        "fetched",  # Ann
        "replied",
        "fetched",  # Bob, problems
        "replied",
        "reminded",
        "reminded",
        "fetched",  # Bob, corrected
        "replied",
        "asked",
    ], timeline
    assert "Cleo" not in "".join(line for line in timeline.splitlines() if "fetched" in line)
    page = (game.path / "archive" / "watch.html").read_text()  # on the archive site too
    assert page.index("the referee&#39;s mail watch/referee-") < page.index("reminder-Cleo.eml")

    # The same deadline with resolve = "auto": resolved, reports written and sent.
    auto = configure(Game.open(before_deadline), resolve="auto")
    watch(auto, at(minutes=1))
    reports = new_mail(smtp, seen)
    assert sorted(to for to, _ in reports) == [
        "ann@example.com",
        "bob@example.com",
        "cleo@example.com",
    ]
    for _, msg in reports:
        names = sorted(str(a.get_filename()) for a in msg.iter_attachments())
        assert any(n.endswith(".pdf") for n in names) and any(n.endswith(".xlsx") for n in names)
    auto = Game.open(auto.path)
    assert auto.step(auto.load_state()).key == "5002"
    assert 'href="watch.html"' in (auto.path / "archive" / "index.html").read_text()
    assert "resolved 5001: 0 battles" in (auto.path / "archive" / "watch.html").read_text()
    watch(auto, at(minutes=6))
    assert new_mail(smtp, seen) == []
    auto_timeline = status_of(auto)
    print(auto_timeline)
    assert "resolved 5001:" in auto_timeline and "next 5002" in auto_timeline
    assert auto_timeline.count(" sent ") == 3

    # The referee rolls the turn back to play it again by hand: watch leaves it alone.
    rolled = CliRunner().invoke(main, ["rollback", str(auto.path), "--to", "5001"])
    assert rolled.exit_code == 0, rolled.output
    watch(auto, at(minutes=11))
    assert new_mail(smtp, seen) == []
    auto = Game.open(auto.path)
    assert auto.step(auto.load_state()).key == "5001"
    assert "5001 was rolled back after watch resolved it; it is left to you" in status_of(auto)


def test_auto_asks_the_referee_when_the_no_orders_house_rule_leaves_a_player_without_orders(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    game, _ = new_game(tmp_path / "game", dovecot, smtp, resolve="auto", remind_before_hours=0)
    path = game.path / "game.toml"
    path.write_text(
        path.read_text().replace(
            'sheets_with_problems = "carry-valid"', 'sheets_with_problems = "no-orders"'
        )
    )
    assert 'sheets_with_problems = "no-orders"' in path.read_text()
    seen = [0]
    # The clock from REFASSIST_NOW (cron catch-ups, tests): half an hour before the deadline
    # nothing happens (by the real clock, the deadline of 2025 is long past).
    early = CliRunner().invoke(
        main,
        ["watch", str(game.path), "--once"],
        env={**ENV, "REFASSIST_NOW": at(minutes=-30).isoformat()},
    )
    assert early.exit_code == 0, early.output
    assert new_mail(smtp, seen) == []
    assert read_log(game.path)[0]["at"] == at(minutes=-30).astimezone(UTC).isoformat()
    watch(game, at(minutes=1))
    [(to, asked)] = new_mail(smtp, seen)
    assert to == REFEREE
    text = text_of(asked)
    assert "the turn waits for you" in text
    assert "sheets_with_problems = no-orders, these players have no orders to carry out: " in text
    assert "Ann, Bob, Cleo" in text
    assert f"refassist resolve {game.path}" in text
    assert Game.open(game.path).step(Game.open(game.path).load_state()).key == "5001"
    watch(game, at(minutes=6))
    assert new_mail(smtp, seen) == []


def test_auto_asks_for_a_late_sheet_and_a_hand_edit_of_the_master(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    """Ann's sheet arrives an hour after the deadline and the referee changed master.xlsx by
    hand after the sheets went out: "auto" resolves nothing and says both, with the commands
    (the late sheet accepted first)."""
    game, turns = new_game(tmp_path / "game", dovecot, smtp, resolve="auto", remind_before_hours=0)
    ann = filled_sheet(game, "Ann", tmp_path, name="Ann.xlsx")
    _edit_stockpile(game.master_path, "Bob", 99)
    arrived = at(hours=1)
    deliver(dovecot, turns, make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())]), arrived)
    seen = [0]
    watch(game, arrived + timedelta(minutes=3))
    got = new_mail(smtp, seen)
    assert sorted(to for to, _ in got) == ["ann@example.com", REFEREE]  # her reply, the ask
    text = text_of(dict(got)[REFEREE])
    assert "the turn waits for you" in text
    assert "a sheet that came after the deadline waits for you to accept it or not: Ann" in text
    assert "master.xlsx was changed by hand after the sheets of Year 5001 were written" in text
    assert "sheets_with_problems" not in text  # carry-valid: a missing player is no reason
    assert text.index(f"refassist intake {game.path} --accept-late") < text.index(
        f"refassist resolve {game.path}"
    )
    assert Game.open(game.path).step(Game.open(game.path).load_state()).key == "5001"


def test_a_step_waiting_for_the_referee_is_never_resolved_by_auto(tmp_path: Path) -> None:
    """A step whose items the referee settles on the table (`Step.waits_for_referee`): the
    reason says which, and there is no reminder to players for it."""
    g = created(tmp_path / "game")
    state = g.load_state()
    battle = Step("5001", "Year 5001", ("Battle at 0101",), waits_for_referee=True)
    reasons = needs_referee(g, battle, state, sheet_states(g, battle))
    assert reasons == ["Year 5001 waits for you: Battle at 0101 to be settled on the table"]
    assert needs_referee(g, g.step(state), state, sheet_states(g, g.step(state))) == []


def sheets_sent(game: Game, smtp: SmtpServer, seen: list[int]) -> None:
    """The referee sends the step's sheets (``report --mail`` then ``send``); their mail is
    not counted as the week's."""
    result = CliRunner().invoke(main, ["report", str(game.path), "--smtp"], env=ENV)
    assert result.exit_code == 0, result.output
    assert len(smtp.inbox.received) - seen[0] == len(PLAYERS)
    seen[0] = len(smtp.inbox.received)


def test_a_french_game_reminds_only_once_its_sheets_went_out_and_in_french(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    """No reminder while the step's sheets never went out (none sent, none answered); once
    they are sent, one each, in French."""
    game, _ = new_game(tmp_path / "game", dovecot, smtp, language="fr")
    assert game.config.language == "fr"
    seen = [0]
    watch(game, at(hours=-3))
    assert new_mail(smtp, seen) == []
    assert not list(game.outbox("5001").glob("watch/reminder-*.eml"))
    sheets_sent(game, smtp, seen)
    watch(game, at(hours=-2))
    reminders = dict(new_mail(smtp, seen))
    assert sorted(reminders) == ["ann@example.com", "bob@example.com", "cleo@example.com"]
    text = text_of(reminders["ann@example.com"])
    assert "rappel, ordres attendus" in text
    assert "aucune feuille d'ordres de votre part ne m'est encore parvenue" in text
    watch(game, at(minutes=1))
    [(_, asked)] = new_mail(smtp, seen)
    text = text_of(asked)
    assert "Délai passé pour" in text and "aucune feuille reçue" in text


def test_a_server_that_is_down_is_tried_again_and_nothing_waits_for_ever(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    game, turns = new_game(tmp_path / "game", dovecot, smtp)
    seen = [0]
    ann = filled_sheet(game, "Ann", tmp_path, name="Ann.xlsx")
    arrived = at(days=-3)
    deliver(dovecot, turns, make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())]), arrived)
    down = f"smtp://referee@127.0.0.1:{free_port()}"
    game = configure(game, smtp=down, resolve="ask")
    watch(game, arrived + timedelta(minutes=5))
    assert new_mail(smtp, seen) == []
    assert Index.of(game, "5001").accepted.keys() == {"Ann"}  # filed all the same
    lines = [item for item in read_log(game.path) if item["what"] in ("retry", "error")]
    assert [item["what"] for item in lines] == ["retry", "retry", "error"], lines
    assert "cannot send mail through" in lines[0]["text"] and "trying again in" in lines[0]["text"]
    assert "each round tries again" in lines[-1]["text"]

    # The IMAP server unreachable too: said, and nothing that depends on the mail is done.
    game = configure(game, imap=f"imaps://referee@127.0.0.1:{free_port()}/{turns}", resolve="ask")
    logged = len(read_log(game.path))
    watch(game, at(hours=-1))  # within the reminder window, but the mail could not be read
    assert not list((game.outbox("5001") / "watch").glob("reminder-*.eml"))
    said = [f"{i['what']}: {i['text']}" for i in read_log(game.path)[logged:]]
    assert any(s.startswith("error: reading imaps://") and "cannot reach" in s for s in said), said

    # Both back: the reply that waited goes, once, and the reminders are decided.
    game = configure(game, imap=dovecot.url(turns), smtp=smtp.url(), resolve="ask")
    watch(game, at(hours=-1, minutes=5))
    got = sorted(to for to, _ in new_mail(smtp, seen))
    assert got == ["ann@example.com", "bob@example.com", "cleo@example.com"]  # reply, 2 reminders
    watch(game, at(hours=-1, minutes=10))
    assert new_mail(smtp, seen) == []


def test_sigterm_during_a_pause_before_trying_a_server_again_stops_at_once(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    """Both servers down, the default pauses (5 s, then 30 s): SIGTERM in the pause ends
    watch at once, cleanly, with the stop in its log."""
    game, turns = new_game(tmp_path / "game", dovecot, smtp)
    configure(
        game,
        imap=f"imaps://referee@127.0.0.1:{free_port()}/{turns}",
        smtp=f"smtp://referee@127.0.0.1:{free_port()}",
    )
    proc = subprocess.Popen(
        [str(REFASSIST), "watch", str(game.path), "--now", at(days=-2).isoformat()],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **ENV},
        text=True,
    )
    try:
        assert wait_until(
            lambda: (
                any(i["what"] == "retry" for i in read_log(game.path)) or proc.poll() is not None
            ),
            60,
        )
        asked = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert time.monotonic() - asked < 4, "watch waited out its pause"
    assert "SIGTERM: stopping once the part under way is done" in err
    whats = [i["what"] for i in read_log(game.path)]
    assert whats[-2:] == ["retry", "stopped"], whats
    assert "error" not in whats  # a stop is not a failure


def test_an_outage_is_said_once_while_it_lasts_and_its_end_too(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rounds of one long-running watch (`Watcher.tick`) while the SMTP server is down: the
    first round says it (attempts, then the error), the next ones add nothing, and the round
    that sends again says so; the reply that waited goes once."""
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    game, turns = new_game(tmp_path / "game", dovecot, smtp)
    ann = filled_sheet(game, "Ann", tmp_path, name="Ann.xlsx")
    arrived = at(days=-3)
    deliver(dovecot, turns, make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())]), arrived)
    configure(game, smtp=f"smtp://referee@127.0.0.1:{free_port()}")
    watcher = Watcher([game.path], pauses=(0.01,))
    try:
        for minutes in (5, 10, 15):
            watcher.tick(arrived + timedelta(minutes=minutes))
        said = [(i["what"], i["text"]) for i in read_log(game.path) if i["what"] != "fetched"]
        assert [what for what, _ in said] == ["started", "retry", "error"], said
        configure(game, smtp=smtp.url())
        watcher.tick(arrived + timedelta(minutes=20))
    finally:
        watcher.release()
    said = [(i["what"], i["text"]) for i in read_log(game.path)][-2:]
    assert said[0] == ("retry", f"sending through {smtp.url()}: works again")
    assert said[1][0] == "replied"
    assert [to for _, to, _ in smtp.inbox.received] == [["ann@example.com"]]


# -- killed at random moments ---------------------------------------------------------------


def message_id(content: bytes) -> str:
    msg = email.message_from_bytes(content, policy=email.policy.default)
    return str(msg["Message-ID"])


def taken_not_recorded(smtp: SmtpServer, start: int, game: Path) -> list[str]:
    """The recipients of the messages the server took (since ``start``) that no
    ``.sent.json`` of the game records: taken in the instant before the kill, not recorded."""
    recorded = {
        str(record.get("message_id", ""))
        for sent in game.glob("outbox/*/.sent.json")
        for record in json.loads(sent.read_text())["files"].values()
    }
    return [
        r
        for _, rcpts, content in smtp.inbox.received[start:]
        if message_id(content) not in recorded
        for r in rcpts
    ]


@pytest.mark.slow
def test_kill_9_of_watch_at_random_moments_loses_nothing_and_sends_nothing_twice(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    """Each attempt: a fresh copy of the game and a fresh folder holding Ann's and Bob's
    mails; round A (two hours before the deadline: file, reply, remind) and round B (the
    deadline, resolve = "auto": resolve, reports, send), one of them killed (``kill -9``) at
    a random moment and run again, then both run to their end.  The server must have taken
    each expected message exactly once, as in the uninterrupted first attempt, and no process
    of the killed watch (report workers included) may be left."""
    template, _ = new_game(tmp_path / "template", dovecot, smtp, resolve="auto")
    ann = filled_sheet(template, "Ann", tmp_path, name="Ann.xlsx")
    bob = filled_sheet(template, "Bob", tmp_path, bad=True, name="Bob.xlsx")
    mails = [
        make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())]),
        make_mail("bob@example.com", [("Bob.xlsx", bob.read_bytes())]),
    ]
    rounds = {"A": at(hours=-2), "B": at(minutes=1)}
    replies = ["ann@example.com", "bob@example.com"]
    reminders = ["bob@example.com", "cleo@example.com"]
    reports = ["ann@example.com", "bob@example.com", "cleo@example.com"]
    expected = sorted([*replies, *reminders, *reports])

    def launch(copy: Path, now: datetime) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [str(REFASSIST), "watch", str(copy), "--once", "--now", now.isoformat()],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, **ENV},
            start_new_session=True,
        )

    def finish(copy: Path, now: datetime) -> None:
        proc = launch(copy, now)
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and b"Traceback" not in err, err.decode()

    rng = random.Random(55)
    interrupted = 0
    #: What shows a round has reached the part worth killing in: A filing the mail (its
    #: replies and reminders follow), B's turn resolved (its reports being written and sent).
    markers = {
        "A": lambda copy: Game.open(copy).inbox("5001") / "index.json",
        "B": lambda copy: copy / "archive" / "5001",
    }
    timing: dict[str, float] = {}
    window = 0
    again: list[str] = []
    for attempt in range(WATCH_KILLS + 1):
        copy = tmp_path / f"kill-{attempt}"
        shutil.copytree(template.path, copy)
        folder = new_folder(dovecot)
        configure(Game.open(copy), imap=dovecot.url(folder), resolve="auto")
        for number, mail in enumerate(mails):
            deliver(dovecot, folder, mail, at(days=-2, hours=number))
        start = len(smtp.inbox.received)
        # Attempt 0 runs uninterrupted and times each round; then A and B are killed in turn,
        # at a random moment of the round's life, or soon after its marker appears.
        victim = "" if attempt == 0 else "AB"[attempt % 2]
        for name, now in rounds.items():
            if name == victim:
                proc = launch(copy, now)
                if attempt % 4 in (1, 2):
                    time.sleep(rng.uniform(0.2, timing[name]))
                else:
                    marker = markers[name](copy)
                    wait_until(lambda m=marker, p=proc: m.exists() or p.poll() is not None, 120)
                    time.sleep(rng.uniform(0.0, 1.0))
                try:
                    proc.send_signal(signal.SIGKILL)
                    interrupted += proc.wait() == -signal.SIGKILL
                    wait_until(lambda p=proc: not group_members(p.pid), 10)
                    assert group_members(proc.pid) == [], f"attempt {attempt}: processes left"
                finally:
                    for pid in group_members(proc.pid):
                        os.kill(pid, signal.SIGKILL)
                in_flight = taken_not_recorded(smtp, start, copy)
                assert len(in_flight) <= 1, in_flight  # one connection, one message at a time
                window += len(in_flight)
                again += in_flight
            began = time.monotonic()
            finish(copy, now)
            if attempt == 0:
                timing[name] = time.monotonic() - began
        got = sorted(r for _, rcpts, _ in smtp.inbox.received[start:] for r in rcpts)
        # Each expected message once; the only one the server may have twice is a message it
        # took in the instant between its "250 OK" and the record of it (SMTP cannot be asked
        # whether it has a message: sending.py's docstring), sent again whole, same Message-ID.
        assert got == sorted([*expected, *again]), (attempt, victim, got, again)
        ids = [message_id(content) for _, _, content in smtp.inbox.received[start:]]
        assert len(set(ids)) == len(expected), (attempt, victim, ids)
        again.clear()
        game = Game.open(copy)
        assert game.step(game.load_state()).key == "5002"
        assert sorted(Index.of(game, "5001").accepted) == ["Ann"]
        assert all(FILED_KEYWORD in f for f in flags(dovecot, folder).values())
        log = read_log(copy)
        sent_ids = [item["id"] for item in log if item["what"] in ("replied", "reminded", "sent")]
        assert len(sent_ids) == len(set(sent_ids)) == 7, log
        shutil.rmtree(copy)
    assert interrupted >= WATCH_KILLS // 2, "too few kills landed while watch ran"
    print(
        f"watch --once killed {interrupted} of {WATCH_KILLS} times while running; "
        f"uninterrupted rounds took {timing['A']:.1f} s and {timing['B']:.1f} s; "
        f"{window} kills landed between a server's 250 OK and its record"
    )


# -- running it for real: the systemd unit's command ----------------------------------------


def unit_file() -> str:
    text = (DOCS / "watch.md").read_text(encoding="utf-8")
    match = re.search(r"```ini\n(\[Unit\].*?)```", text, re.S)
    assert match, "docs/watch.md shows no systemd unit in an ```ini block"
    return match.group(1)


def test_the_documented_unit_runs_and_stops_cleanly_on_sigterm(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    unit = unit_file()
    assert "[Service]" in unit and "[Install]" in unit and "KillSignal=SIGTERM" in unit
    [exec_start] = re.findall(r"(?m)^ExecStart=(.+)$", unit)
    games = tmp_path / "games"
    games.mkdir()
    game, _ = new_game(games / "mygame", dovecot, smtp)
    other, _ = new_game(games / "other", dovecot, smtp)
    # %h is systemd's home folder: the test's own, holding the games folder and refassist.
    home = tmp_path
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".local" / "bin" / "refassist").symlink_to(REFASSIST)
    command = exec_start.replace("%h", str(home)).split()
    assert command[:2] == [str(home / ".local/bin/refassist"), "watch"]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **ENV},
        text=True,
    )
    try:
        assert wait_until(
            lambda: (
                any(i["what"] == "fetched" or i["what"] == "started" for i in read_log(game.path))
                and proc.poll() is None
            ),
            60,
        ), proc.communicate(timeout=5)
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "watching mygame, other every 5 min" in out, out
    assert out.rstrip().endswith("stopped"), out
    assert "Traceback" not in err
    assert read_log(game.path)[-1]["what"] == read_log(other.path)[-1]["what"] == "stopped"


# -- what the review found ------------------------------------------------------------------


def reminders_in(mail: list[tuple[str, EmailMessage]]) -> list[str]:
    return sorted(to for to, msg in mail if "reminder" in str(msg["Subject"]))


def test_a_reminder_no_longer_true_is_set_aside_by_watch_and_by_send(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    """Reminders decided by a round that stopped before sending them; Ann's sheet is accepted
    since: the next round sends Bob's and Cleo's only and moves Ann's to rolled-back/.  And
    ``refassist send`` after the deadline (the real clock is past 2025) sends none of them."""
    game, turns = new_game(tmp_path / "game", dovecot, smtp, remind_before_hours=0)
    step = game.step(game.load_state())
    for row in sheet_states(game, step):
        assert write_reminder(game, step, row) is not None
    late = tmp_path / "late"
    shutil.copytree(game.path, late)
    ann = filled_sheet(game, "Ann", tmp_path, name="Ann.xlsx")
    arrived = at(hours=-3)
    deliver(dovecot, turns, make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())]), arrived)
    seen = [0]
    watch(game, at(hours=-2))  # Ann's sheet filed and accepted, then the reminders
    assert reminders_in(new_mail(smtp, seen)) == ["bob@example.com", "cleo@example.com"]
    [aside] = game.path.glob("rolled-back/*/outbox/5001/watch/reminder-Ann.eml")
    assert aside.is_file() and not (game.outbox("5001") / "watch" / "reminder-Ann.eml").exists()
    assert "reminder-Ann.eml no longer true" in status_of(game)

    sent = CliRunner().invoke(main, ["send", str(late)], env=ENV)
    assert sent.exit_code == 0, sent.output
    assert reminders_in(new_mail(smtp, seen)) == []
    assert "set aside" in sent.output
    assert len(list(late.glob("rolled-back/*/outbox/5001/watch/reminder-*.eml"))) == 3


def test_a_clock_without_a_zone_is_local_time_as_game_toml_deadlines_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--now 2025-01-05T21:00`` in Paris is the moment game.toml's ``2025-01-05 21:00``
    falls (20:00 UTC), not 21:00 UTC; a time with a zone keeps it.  The --help says so."""
    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    try:
        assert clock_from("2025-01-05T21:00") == DEADLINE.astimezone()
        assert clock_from("2025-01-05T21:00").astimezone(UTC).hour == 20
        assert clock_from("2025-01-05T21:00+00:00").astimezone(UTC).hour == 21
    finally:
        monkeypatch.undo()
        time.tzset()
    shown = CliRunner().invoke(main, ["watch", "--help"])
    assert "without a zone it is the machine's local time" in " ".join(shown.output.split())


def test_a_reminder_gives_the_refusal_in_the_players_language_and_a_mail_without_a_sheet_as_such(
    tmp_path: Path,
) -> None:
    """An English game, Bob reads French: the reminder of his refused file gives the reason in
    French (as intake's reply did); Cleo's mail without an attachment is said to have carried
    no turn sheet, not named as a file "message.eml"."""
    g = created(
        tmp_path / "game",
        [
            PlayerSetup("Ann", "ann@example.com"),
            PlayerSetup("Bob", "bob@example.com", language="fr"),
            PlayerSetup("Cleo", "cleo@example.com"),
        ],
    )
    write_sheets(g, g.load_state())
    ann = filled_sheet(g, "Ann", tmp_path, name="Ann.xlsx")
    bob = write_mail(
        tmp_path / "bob.eml", make_mail("bob@example.com", [("A.xlsx", ann.read_bytes())])
    )
    cleo = write_mail(tmp_path / "cleo.eml", make_mail("cleo@example.com", []))
    for source in (bob, cleo):
        result = CliRunner().invoke(main, ["intake", str(g.path), str(source), "--accept-late"])
        assert "refused" in result.output, result.output
    step = g.step(g.load_state())
    rows = {row.player: row for row in sheet_states(g, step)}
    assert rows["Bob"].state == rows["Cleo"].state == "refused"
    bob_text = reminder_text(write_reminder(g, step, rows["Bob"]))
    assert "est la feuille d'ordres de Ann, mais elle a été envoyée depuis" in bob_text, bob_text
    assert "is Ann's turn sheet" not in bob_text
    cleo_text = reminder_text(write_reminder(g, step, rows["Cleo"]))
    assert "the last mail you sent carried no turn sheet" in cleo_text, cleo_text
    assert "message.eml" not in cleo_text


def write_mail(path: Path, msg: EmailMessage) -> Path:
    path.write_bytes(msg.as_bytes())
    return path


def reminder_text(path: Path | None) -> str:
    assert path is not None
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return " ".join(text_of(msg).split())


def test_a_deadline_moved_after_the_referees_mail_gets_a_new_one_at_the_new_deadline(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    game, _ = new_game(tmp_path / "game", dovecot, smtp, remind_before_hours=0)
    seen = [0]
    watch(game, at(minutes=1))
    assert [to for to, _ in new_mail(smtp, seen)] == [REFEREE]
    toml = game.path / "game.toml"
    toml.write_text(
        toml.read_text().replace(
            "[schedule.deadlines]\n", '[schedule.deadlines]\n"5001" = 2025-01-07T21:00:00\n'
        )
    )
    assert Game.open(game.path).deadline("5001") == datetime(2025, 1, 7, 21, 0)
    watch(game, at(days=1))  # before the new deadline: nothing
    assert new_mail(smtp, seen) == []
    watch(game, at(days=2, minutes=1))
    [(to, asked)] = new_mail(smtp, seen)
    assert to == REFEREE and "Tue 07 Jan 2025 21:00" in text_of(asked)
    watch(game, at(days=2, minutes=6))  # once per deadline
    assert new_mail(smtp, seen) == []


def test_rollback_sets_watch_decisions_of_the_undone_step_aside_so_it_is_reminded_again(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Watch reminded Ann for 5002; the referee rolls back to 5001 and plays it again: 5002's
    watch/ folder and its send record went to rolled-back/, and Ann's new reminder is due."""
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    game, _ = new_game(tmp_path / "game", dovecot, smtp)
    resolved = CliRunner().invoke(main, ["resolve", str(game.path), "--now"])
    assert resolved.exit_code == 0, resolved.output
    game = Game.open(game.path)
    step = game.step(game.load_state())
    assert step.key == "5002"
    ann = next(row for row in sheet_states(game, step) if row.player == "Ann")
    reminder = write_reminder(game, step, ann)
    assert reminder is not None
    sent = send_waiting(
        game,
        "5002",
        parse_server(smtp.url(), "smtp", "smtp"),
        now=at(days=5),
        ca_file=game.path.parent / "game-ca.pem",
    )
    assert [i.name for i in sent.sent] == ["watch/reminder-Ann.eml"]

    rolled = CliRunner().invoke(main, ["rollback", str(game.path), "--to", "5001"])
    assert rolled.exit_code == 0, rolled.output
    assert not (game.outbox("5002") / "watch").exists()
    [aside] = game.path.glob("rolled-back/*/outbox/5002/watch/reminder-Ann.eml")
    assert (
        "watch/reminder-Ann.eml"
        in json.loads((aside.parent.parent / ".sent.json").read_text())["files"]
    )
    assert "watch/reminder-Ann.eml" not in read_sent(game.outbox("5002"))

    again = CliRunner().invoke(main, ["resolve", str(game.path), "--now"])
    assert again.exit_code == 0, again.output
    game = Game.open(game.path)
    step = game.step(game.load_state())
    assert write_reminder(game, step, ann) is not None
    [due] = [i for i in outgoing(game, "5002") if i.name == "watch/reminder-Ann.eml"]
    assert due.held == ""


def test_the_referees_mail_lists_as_reminded_only_the_reminders_sent(tmp_path: Path) -> None:
    """Reminders written but never sent (the server down until the deadline) reminded
    nobody: the referee's mail does not say they did."""
    g = created(tmp_path / "game")
    step = g.step(g.load_state())
    rows = sheet_states(g, step)
    for row in rows:
        assert write_reminder(g, step, row) is not None
    text = ask_text(g, step, rows, [], ["refassist resolve game"], referee_words(g))
    assert "Reminded before the deadline" not in text, text


def test_watch_resolves_only_the_step_it_decided_and_delivers_only_while_the_game_is_there(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    """Watch resolved 5001 and stopped before its reports; the referee then resolved 5002 by
    hand.  The next round writes and sends nothing (5003's reports would go as 5001's) and
    says so; and a resolve decided for 5001 is refused by a game at 5003."""
    game, _ = new_game(tmp_path / "game", dovecot, smtp, resolve="auto", remind_before_hours=0)
    for _ in range(2):
        resolved = CliRunner().invoke(main, ["resolve", str(game.path), "--now"])
        assert resolved.exit_code == 0, resolved.output
    intent = {"step": "5001", "decided": at(minutes=1).isoformat(), "resolved": True}
    write_intent(game, "5001", {**intent, "next": "5002"})
    seen = [0]
    watch(game, at(minutes=2))
    assert new_mail(smtp, seen) == []
    assert not list(game.outbox("5003").glob("*.pdf"))
    assert "the game moved on to 5003 by hand after watch resolved 5001" in status_of(game)
    with pytest.raises(GameError, match="the game is at 5003, not 5001"):
        resolve_game(Game.open(game.path), now=at(days=20), force=True, expected="5001")
    assert Game.open(game.path).step(Game.open(game.path).load_state()).key == "5003"


def test_watch_sends_only_the_replies_its_own_intake_wrote(
    dovecot: ImapServer, smtp: SmtpServer, tmp_path: Path
) -> None:
    """The referee filed Ann's mail by hand (intake without --send) and kept the reply back:
    watch's first round leaves it unsent and says so; Bob's mail, filed by watch, is
    answered."""
    game, turns = new_game(tmp_path / "game", dovecot, smtp, remind_before_hours=0)
    ann = filled_sheet(game, "Ann", tmp_path, name="Ann.xlsx")
    by_hand = write_mail(
        tmp_path / "ann.eml", make_mail("ann@example.com", [("Ann.xlsx", ann.read_bytes())])
    )
    filed = CliRunner().invoke(main, ["intake", str(game.path), str(by_hand), "--accept-late"])
    assert "Ann" in filed.output, filed.output
    [kept] = [i.name for i in outgoing(game, "5001") if i.name.startswith("replies/")]
    bob = filled_sheet(game, "Bob", tmp_path, name="Bob.xlsx")
    arrived = at(days=-3)
    deliver(dovecot, turns, make_mail("bob@example.com", [("Bob.xlsx", bob.read_bytes())]), arrived)
    seen = [0]
    watch(game, arrived + timedelta(minutes=3))
    assert [to for to, _ in new_mail(smtp, seen)] == ["bob@example.com"]
    assert kept not in read_sent(game.outbox("5001"))
    assert f"replies written before watch are left to you, unsent: {kept}" in status_of(game)
    watch(game, arrived + timedelta(minutes=8))
    assert new_mail(smtp, seen) == []
