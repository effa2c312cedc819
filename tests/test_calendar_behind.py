"""No turn played by itself when the calendar is behind (issue 53).

A game created with a deadline four weeks ago has every counted deadline in the past: resolve
used to play turn after turn with no sheets.  Now a step whose sheets never went out is not
resolved without ``--now``, and a new step's deadline is counted from when its sheets are
written, with the referee told.  Through the command line, with a real SMTP relay.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from pathlib import Path

from aiosmtpd.controller import Controller
from click.testing import CliRunner, Result

from refassist.cli import main
from refassist.store.game import Game
from tests.mailservers import SmtpInbox, free_port


def _cli(*args: str) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _new_game(tmp_path: Path, deadline: datetime) -> Path:
    players = tmp_path / "players.csv"
    players.write_text(
        "name,email\nAnn,ann@example.com\nBob,bob@example.com\nCleo,cleo@example.com\n"
    )
    folder = tmp_path / "game"
    made = _cli(
        "new", folder, "--players", players, "--generate-sector", "42", "--seed", "11",
        "--assign-homeworlds", "--deadline", deadline.strftime("%Y-%m-%dT%H:%M"),
        "--referee-email", "ref@pbm.example.org",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    return folder


def test_a_step_whose_sheets_never_went_out_waits_for_now(tmp_path: Path) -> None:
    folder = _new_game(tmp_path, datetime.now() - timedelta(weeks=4))
    master = _sha(folder / "master.xlsx")
    refused = _cli("resolve", folder)
    assert refused.exit_code == 1, refused.output
    text = " ".join(refused.output.split())
    assert "Year 5001 was not resolved" in text
    assert "its sheets never went out" in text
    assert f"refassist resolve {folder} --now" in text
    assert _sha(folder / "master.xlsx") == master
    assert not [p for p in (folder / "archive").iterdir() if p.is_dir()]


def test_sent_sheets_resolve_once_and_the_next_deadline_is_not_past(tmp_path: Path) -> None:
    folder = _new_game(tmp_path, datetime.now() - timedelta(weeks=4))
    assert _cli("report", folder, "--mail").exit_code == 0
    relay = Controller(SmtpInbox(), hostname="127.0.0.1", port=free_port())
    relay.start()
    try:
        sent = _cli("send", folder, "--smtp", f"127.0.0.1:{relay.port}")
    finally:
        relay.stop()
    assert sent.exit_code == 0, sent.output
    assert "3 sent" in sent.output

    before = datetime.now()
    first = _cli("resolve", folder)
    assert first.exit_code == 0, first.output
    assert "resolved Year 5001" in first.output
    text = " ".join(first.output.split())
    assert "the calendar is behind: 5002's deadline" in text
    assert "7 days from now" in text
    game = Game.open(folder)
    deadline = game.deadline("5002")
    assert deadline is not None and deadline >= before.replace(second=0, microsecond=0)
    assert deadline - before <= timedelta(days=7, minutes=1)
    assert deadline - before >= timedelta(days=6, hours=23)

    # Typed again: the new step's deadline is a week away and nobody has answered.
    master = _sha(folder / "master.xlsx")
    second = _cli("resolve", folder)
    assert second.exit_code == 1, second.output
    assert "Year 5002 was not resolved" in second.output
    assert f"its deadline is {game.deadline_text('5002')}" in " ".join(second.output.split())
    assert _sha(folder / "master.xlsx") == master
    assert sorted(p.name for p in (folder / "archive").iterdir() if p.is_dir()) == ["5001"]
