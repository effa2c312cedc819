"""Sending through a real SMTP server on 127.0.0.1 with STARTTLS or implicit TLS and login
(aiosmtpd, `tests.mailservers`): what is sent is recorded, nothing goes twice, a failure midway
is resumed, and the password never shows."""

from __future__ import annotations

import email
import os
import re
import stat
from email import policy
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from refassist.cli import main
from refassist.config import load_config
from refassist.errors import UsageError
from refassist.mail.mailserver import parse_server, password_for
from refassist.mail.sending import outgoing, read_sent
from refassist.report.game_reports import write_reports
from refassist.store.game import Game
from tests.mailservers import PASSWORD, USER, SmtpServer, smtp_server
from tests.test_report_content import YEAR, report_game

REFEREE = "ref@pbm.example.org"


def with_referee(game: Game, **mail: str) -> Game:
    """The game with the referee's own address (and ``[mail]`` settings) in game.toml."""
    path = game.path / "game.toml"
    text = path.read_text().replace(
        'referee_email = "referee@example.invalid"', f'referee_email = "{REFEREE}"'
    )
    for key, value in mail.items():
        text = re.sub(rf'(?m)^{key} = ".*"', f'{key} = "{value}"', text)
    path.write_text(text)
    return Game.open(game.path)


@pytest.fixture
def mailed(tmp_path: Path) -> Game:
    """A game whose three reports are written with their mail, from the referee's address."""
    game, _ = report_game(tmp_path / "game")
    game = with_referee(game)
    write_reports(game, jobs=1, mail=True)
    return game


@pytest.fixture
def starttls(tmp_path: Path):  # type: ignore[no-untyped-def]
    with smtp_server(tmp_path) as server:
        yield server


def run(game: Game, *args: str, password: str | None = PASSWORD) -> Result:
    env = {"REFASSIST_SMTP_PASSWORD": password} if password is not None else {}
    return CliRunner().invoke(main, ["send", str(game.path), *args], env=env)


def received_by(server: SmtpServer) -> list[str]:
    return sorted(rcpt for _, rcpts, _ in server.inbox.received for rcpt in rcpts)


def test_send_logs_in_after_starttls_and_records_each_message(mailed: Game, starttls) -> None:  # type: ignore[no-untyped-def]
    result = run(mailed, "--smtp", starttls.url(), "--ca-file", str(starttls.ca_file))
    assert result.exit_code == 0, result.output
    assert received_by(starttls) == ["ann@example.com", "bob@example.com", "cleo@example.com"]
    assert starttls.inbox.logins == [USER]
    assert "3 sent through smtp://referee@127.0.0.1:" in result.output
    for sender, _, content in starttls.inbox.received:
        assert sender == REFEREE
        message = email.message_from_bytes(content, policy=policy.default)
        assert message["From"] == f"Referee of game <{REFEREE}>"
    record = read_sent(mailed.outbox(str(YEAR)))
    assert sorted(record) == ["mail/Ann.eml", "mail/Bob.eml", "mail/Cleo.eml"]
    assert record["mail/Ann.eml"]["to"] == ["ann@example.com"]
    assert record["mail/Ann.eml"]["server"] == str(parse_server(starttls.url(), "smtp", "x"))
    # A second run sends nothing: everything is recorded.
    again = run(mailed, "--smtp", starttls.url(), "--ca-file", str(starttls.ca_file))
    assert again.exit_code == 0, again.output
    assert "0 sent through" in again.output and "3 sent before" in again.output
    assert len(starttls.inbox.received) == 3
    assert PASSWORD not in result.output + again.output


def test_implicit_tls_and_the_server_from_game_toml(tmp_path: Path) -> None:
    game, _ = report_game(tmp_path / "game")
    with smtp_server(tmp_path, implicit_tls=True) as server:
        game = with_referee(game, smtp=server.url(), ca_file=str(server.ca_file))
        # report --smtp alone takes [mail] smtp, and the CA file, from game.toml.
        result = CliRunner().invoke(
            main,
            ["report", str(game.path), "--smtp", "-q", "--jobs", "1"],
            env={"REFASSIST_SMTP_PASSWORD": PASSWORD},
        )
        assert result.exit_code == 0, result.output
        assert received_by(server) == ["ann@example.com", "bob@example.com", "cleo@example.com"]
        assert "3 sent through smtps://referee@127.0.0.1:" in result.output


def test_wrong_password_is_a_clear_error_and_nothing_is_marked_sent(
    mailed: Game,
    starttls,  # type: ignore[no-untyped-def]
) -> None:
    wrong = "not-the-password-123"
    result = run(
        mailed, "--smtp", starttls.url(), "--ca-file", str(starttls.ca_file), password=wrong
    )
    assert result.exit_code == 2
    assert "refused the login of referee (535" in result.output
    assert wrong not in result.output and PASSWORD not in result.output
    assert starttls.inbox.received == []
    assert read_sent(mailed.outbox(str(YEAR))) == {}
    assert all(not item.held for item in outgoing(mailed, str(YEAR)))


def test_a_refused_recipient_waits_and_the_others_go(mailed: Game, starttls) -> None:  # type: ignore[no-untyped-def]
    starttls.inbox.refuse = {"bob@example.com"}
    args = ("--smtp", starttls.url(), "--ca-file", str(starttls.ca_file))
    result = run(mailed, *args)
    assert result.exit_code == 1, result.output
    assert received_by(starttls) == ["ann@example.com", "cleo@example.com"]
    assert "refused    mail/Bob.eml: bob@example.com: 550 5.1.1 no such user here" in result.output
    assert sorted(read_sent(mailed.outbox(str(YEAR)))) == ["mail/Ann.eml", "mail/Cleo.eml"]
    # Once the address works, the next run sends Bob's message, and only his.
    starttls.inbox.refuse = set()
    again = run(mailed, *args)
    assert again.exit_code == 0, again.output
    assert received_by(starttls) == ["ann@example.com", "bob@example.com", "cleo@example.com"]


def test_a_dropped_connection_is_resumed_without_sending_twice(mailed: Game, starttls) -> None:  # type: ignore[no-untyped-def]
    starttls.inbox.drop_after = 1
    args = ("--smtp", starttls.url(), "--ca-file", str(starttls.ca_file))
    result = run(mailed, *args)
    assert result.exit_code == 2
    assert "stopped at mail/" in result.output
    assert "1 sent and recorded, 2 still waiting: run the same command again" in result.output
    assert len(read_sent(mailed.outbox(str(YEAR)))) == 1
    starttls.inbox.drop_after = None
    again = run(mailed, *args)
    assert again.exit_code == 0, again.output
    assert "2 sent through" in again.output
    assert received_by(starttls) == ["ann@example.com", "bob@example.com", "cleo@example.com"]


def test_dry_run_sends_nothing(mailed: Game, starttls) -> None:  # type: ignore[no-untyped-def]
    result = run(mailed, "--smtp", starttls.url(), "--dry-run", password=None)
    assert result.exit_code == 0, result.output
    assert "would send mail/Ann.eml to ann@example.com" in result.output
    assert "3 would send through" in result.output
    assert starttls.inbox.received == [] and read_sent(mailed.outbox(str(YEAR))) == {}


def test_a_message_written_again_waits_for_resend(mailed: Game, starttls) -> None:  # type: ignore[no-untyped-def]
    args = ("--smtp", starttls.url(), "--ca-file", str(starttls.ca_file))
    assert run(mailed, *args).exit_code == 0
    write_reports(mailed, jobs=1, mail=True)  # the referee writes the mail again
    held = run(mailed, *args)
    assert "0 sent through" in held.output
    assert "held       mail/Ann.eml: written again since it was sent" in held.output
    assert "--resend Ann sends it again" in held.output
    resent = run(mailed, *args, "--resend", "Ann")
    assert resent.exit_code == 0, resent.output
    assert "1 sent through" in resent.output
    assert received_by(starttls).count("ann@example.com") == 2
    assert received_by(starttls).count("bob@example.com") == 1


def test_an_untrusted_certificate_is_refused_with_advice(mailed: Game, starttls) -> None:  # type: ignore[no-untyped-def]
    result = run(mailed, "--smtp", starttls.url())
    assert result.exit_code == 2
    assert "the certificate of 127.0.0.1 is not trusted" in result.output
    assert "--ca-file" in result.output
    assert starttls.inbox.received == []


def test_nothing_is_sent_from_the_placeholder_address(tmp_path: Path, starttls) -> None:  # type: ignore[no-untyped-def]
    game, _ = report_game(tmp_path / "game")
    with pytest.raises(UsageError, match=r"\[game\] referee_email"):
        write_reports(game, jobs=1, smtp=starttls.url())
    write_reports(game, jobs=1, mail=True)
    result = run(game, "--smtp", starttls.url(), "--ca-file", str(starttls.ca_file))
    assert "written from the placeholder address referee@example.invalid" in result.output
    assert starttls.inbox.received == []


def test_a_plain_relay_still_works_without_login(mailed: Game) -> None:
    from aiosmtpd.controller import Controller

    from tests.mailservers import SmtpInbox, free_port

    inbox = SmtpInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        result = run(mailed, "--smtp", f"127.0.0.1:{controller.port}", password=None)
    finally:
        controller.stop()
    assert result.exit_code == 0, result.output
    assert len(inbox.received) == 3


# -- where the password comes from ------------------------------------------------------------


SERVER = parse_server("smtps://referee@mail.example.org", "smtp", "--smtp")


def test_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFASSIST_SMTP_PASSWORD", "from-env")
    assert password_for(SERVER, ask=False) == "from-env"


def test_password_file_must_be_the_referees_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REFASSIST_SMTP_PASSWORD", raising=False)
    path = tmp_path / "smtp-password"
    path.write_text("from-file\n")
    monkeypatch.setenv("REFASSIST_SMTP_PASSWORD_FILE", str(path))
    path.chmod(0o644)
    with pytest.raises(UsageError, match="can be read by others; make it yours alone") as err:
        password_for(SERVER, ask=False)
    assert "from-file" not in str(err.value)
    path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert password_for(SERVER, ask=False) == "from-file"


def test_password_from_the_system_keyring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring
    from keyrings.alt.file import PlaintextKeyring

    class TestKeyring(PlaintextKeyring):  # type: ignore[misc]
        @property
        def file_path(self) -> str:
            return str(tmp_path / "keyring.cfg")

    monkeypatch.delenv("REFASSIST_SMTP_PASSWORD", raising=False)
    monkeypatch.delenv("REFASSIST_SMTP_PASSWORD_FILE", raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(TestKeyring())
    try:
        with pytest.raises(UsageError, match=r"keyring set refassist referee@mail\.example\.org"):
            password_for(SERVER, ask=False)
        keyring.set_password("refassist", "referee@mail.example.org", "from-keyring")
        assert password_for(SERVER, ask=False) == "from-keyring"
    finally:
        keyring.set_keyring(previous)


def test_a_password_in_the_url_or_game_toml_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="leave the password out of the URL") as err:
        parse_server("smtps://referee:hunter2@mail.example.org", "smtp", "--smtp")
    assert "hunter2" not in str(err.value)
    game, _ = report_game(tmp_path / "game")
    path = game.path / "game.toml"
    path.write_text(path.read_text().replace("[mail]\n", '[mail]\npassword = "hunter2"\n'))
    from refassist.errors import GameError

    with pytest.raises(GameError, match=r"passwords never go in game\.toml") as bad:
        load_config(path)
    assert "hunter2" not in str(bad.value)


def test_new_takes_the_referees_identity(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("name,email\nAnn,ann@example.com\nBob,bob@example.com\n")
    result = CliRunner().invoke(
        main,
        [
            "new",
            str(tmp_path / "g"),
            "--players",
            str(players),
            "--generate-sector",
            "3",
            "--assign-homeworlds",
            "--referee-email",
            "ref@pbm.example.org",
            "--referee-name",
            "Jo Referee",
        ],
    )
    assert result.exit_code == 0, result.output
    config = load_config(tmp_path / "g" / "game.toml")
    assert (config.referee_email, config.sender_name) == ("ref@pbm.example.org", "Jo Referee")
    assert os.path.exists(tmp_path / "g" / "master.xlsx")
    bad = CliRunner().invoke(
        main,
        [
            "new",
            str(tmp_path / "h"),
            "--players",
            str(players),
            "--generate-sector",
            "3",
            "--referee-email",
            "nobody",
        ],
    )
    assert bad.exit_code == 2 and "'nobody' is not an e-mail address" in bad.output


def test_status_counts_the_mail_not_yet_sent(mailed: Game, starttls) -> None:  # type: ignore[no-untyped-def]
    before = CliRunner().invoke(main, ["status", str(mailed.path)])
    assert f"Mail not yet sent: 3 messages (refassist send {mailed.path})" in before.output
    assert run(mailed, "--smtp", starttls.url(), "--ca-file", str(starttls.ca_file)).exit_code == 0
    after = CliRunner().invoke(main, ["status", str(mailed.path)])
    assert "Mail not yet sent" not in after.output


def test_new_asks_for_the_address_at_a_terminal(tmp_path: Path) -> None:
    """Run in a pseudo-terminal, as a referee types it: the address is asked for and kept."""
    import pty
    import subprocess
    import sys

    players = tmp_path / "players.csv"
    players.write_text("name,email\nAnn,ann@example.com\nBob,bob@example.com\n")
    command = [
        sys.executable, "-c", "from refassist.cli import main; main()",
        "new", str(tmp_path / "g"), "--players", str(players), "--generate-sector", "3",
        "--assign-homeworlds",
    ]  # fmt: skip
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        command, stdin=follower, stdout=follower, stderr=follower, close_fds=True
    )
    os.close(follower)
    seen = b""

    def read_until(text: bytes) -> None:
        nonlocal seen
        while text not in seen:
            chunk = os.read(leader, 1024)
            assert chunk, seen
            seen += chunk

    read_until(b"Your e-mail address")
    os.write(leader, b"jo@pbm.example.org\n")
    read_until(b"Your name as players see it")
    os.write(leader, b"Jo Referee\n")
    assert process.wait(timeout=120) == 0
    os.close(leader)
    config = load_config(tmp_path / "g" / "game.toml")
    assert (config.referee_email, config.referee_name) == ("jo@pbm.example.org", "Jo Referee")
