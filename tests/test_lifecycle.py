"""The turn lifecycle: resolve (archive, master, next sheets), players without orders,
orders cancelled at resolve time, replay from the archive, rollback, the CLI commands.

Sheets are real files: written by the sheet writer, filled in with `fill_sheet` as a player
would, filed by the intake, read again by resolve.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from refassist.cli import main
from refassist.errors import GameError
from refassist.geometry.hexmap import distance
from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.fifth_millennium.orders import Move, Orders, Purchase
from refassist.rulesets.fifth_millennium.state import Fleet, Relation
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets
from refassist.turns import (
    archived_steps,
    replay_step,
    resolve_game,
    rollback,
    state_after,
)
from tests.conftest import in_new_interpreter, players

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def _game(tmp_path: Path, n: int = 3) -> Game:
    game = Game.create(
        tmp_path / "game",
        find_ruleset("fifth-millennium"),
        players(n),
        seed=11,
        generate_seed=42,
        assign_homeworlds=True,
    )
    write_sheets(game, game.load_state())
    return game


def _file(game: Game, orders: Orders, tmp_path: Path) -> None:
    """Fill the player's sheet as a player would and file it through the intake."""
    state = game.load_state()
    step = game.step(state).key
    sheet = game.outbox(step) / sheet_filename(orders.player)
    filled = tmp_path / "mail" / step / sheet.name
    filled.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(sheet, filled)
    game.ruleset.fill_sheet(filled, orders)
    report = intake(game, [filled])
    assert report.count("accepted") == 1, [o.summary for o in report.outcomes]


def _near(state, home: str) -> str:
    return min(
        (s.hex for s in state.systems if 0 < distance(home, s.hex) <= 4),
        key=lambda h: (distance(home, h), h),
    )


def _ann_orders(game: Game) -> Orders:
    state = game.load_state()
    home = state.player("Ann").homeworld
    return Orders(
        player="Ann",
        year=state.year,
        moves=[Move(state.year, Fleet(F=3), home, _near(state, home))],
        purchases=[Purchase(home, "F", 1)],
    )


def _forces(state, player):
    return sorted((f.hex, f.fleet, f.building) for f in state.forces if f.owner == player)


def test_resolve_archives_then_writes_the_master_and_the_next_sheets(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _file(game, _ann_orders(game), tmp_path)
    before = game.master_path.read_bytes()
    bob_before = _forces(game.load_state(), "Bob")
    outcome = resolve_game(game, now=NOW, force=True)

    archive = game.archive("5001")
    assert (archive / "master.xlsx").read_bytes() == before
    assert (archive / "game.toml").is_file() and (archive / "sheets" / "Ann.xlsx").is_file()
    assert not (archive / "dice.txt").exists()
    manifest = json.loads((archive / "manifest.json").read_text())
    assert manifest["sheets_in_received_order"] == ["Ann"]
    assert manifest["resolved_at"] == "2026-11-29T09:00:00+00:00"
    assert manifest["dice"] == "seeded" and manifest["seed"] == 11

    state = game.load_state()
    assert state.year == 5002
    assert sorted(p.name for p in game.outbox("5002").glob("*.xlsx")) == [
        "Ann.xlsx",
        "Bob.xlsx",
        "Cleo.xlsx",
    ]
    assert (outcome.with_orders, outcome.without_orders) == (["Ann"], ["Bob", "Cleo"])
    ann_flights = [f for f in state.flights if f.owner == "Ann"]
    assert [f.fleet for f in ann_flights] == [Fleet(F=3)]
    # players who sent nothing keep their fleets where they are and are told so
    assert _forces(state, "Bob") == bob_before
    told = [e for e in state.events if e.kind == "no_orders"]
    assert sorted(e.visible_to for e in told) == [("Bob",), ("Cleo",)]


def test_an_order_that_fails_after_a_referees_edit_is_cancelled_alone(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _file(game, _ann_orders(game), tmp_path)
    state = game.load_state()
    home = state.player("Ann").homeworld
    for force in state.forces:
        if force.owner == "Ann" and force.hex == home:
            force.fleet = Fleet(F=2)  # the referee corrects Ann's home fleet by hand
    game.save_state(state)
    outcome = resolve_game(game, force=True)
    new = game.load_state()
    cancelled = [e for e in new.events if e.kind == "order_cancelled"]
    assert len(cancelled) == 1 and cancelled[0].visible_to == ("Ann",)
    assert cancelled[0].data["cell"] == "C11" and "F3" in cancelled[0].data["order"]
    assert outcome.cancelled == [cancelled[0].text]
    assert [f for f in new.flights if f.owner == "Ann"] == []
    bought = [f for f in new.forces if f.owner == "Ann" and f.building]
    assert [f.fleet for f in bought] == [Fleet(F=1)]  # the purchase line still went through


def test_replaying_each_archived_turn_gives_the_identical_state(tmp_path: Path) -> None:
    game = _game(tmp_path)
    state = game.load_state()
    state.relations.append(Relation(kind="trade", a="Ann", b="Bob", since=5000))
    game.save_state(state)  # a trade agreement: two dice every production phase
    _file(game, _ann_orders(game), tmp_path)
    resolve_game(game, force=True)
    dice = tmp_path / "rolls.txt"
    dice.write_text("# the referee's own dice\n3 3\n")
    resolve_game(game, dice_file=dice, force=True)
    resolve_game(game, force=True)
    assert archived_steps(game) == ["5001", "5002", "5003"]
    assert (game.archive("5002") / "dice.txt").read_text().startswith("# the referee")
    for step in archived_steps(game):
        assert replay_step(game, step) == state_after(game, step)
    # the replay reads the archived dice: other rolls (12: trade x3) give another state
    (game.archive("5002") / "dice.txt").write_text("6 6\n")
    assert replay_step(game, "5002") != state_after(game, "5002")


def test_rollback_restores_a_turn_and_keeps_the_later_archives_aside(tmp_path: Path) -> None:
    game = _game(tmp_path)
    resolve_game(game, force=True)
    _file(game, _ann_orders(game), tmp_path)
    resolve_game(game, force=True)
    resolve_game(game, force=True)
    reference = game.ruleset.to_json(game.load_state())
    outcome = rollback(game, "5002", now=NOW)
    assert game.load_state().year == 5002
    assert outcome.moved == ["5002", "5003"]
    assert outcome.moved_to == game.path / "rolled-back" / "20261129T090000Z"
    assert (outcome.moved_to / "5003" / "manifest.json").is_file()
    assert archived_steps(game) == ["5001"]
    resolve_game(game, force=True)  # Ann's sheet for 5002 is still filed in the inbox
    resolve_game(game, force=True)
    assert game.ruleset.to_json(game.load_state()) == reference


def test_a_turn_already_archived_is_not_resolved_twice_and_a_broken_archive_is_set_aside(
    tmp_path: Path,
) -> None:
    game = _game(tmp_path)
    before = game.master_path.read_bytes()
    resolve_game(game, force=True)
    game.master_path.write_bytes(before)  # as if the referee copied the old master back
    with pytest.raises(GameError, match="rollback"):
        resolve_game(game, force=True)
    (game.archive("5001") / "manifest.json").unlink()  # a crash before the manifest
    resolve_game(game, force=True)
    assert (game.archive("5001") / "manifest.json").is_file()
    aside = list((game.path / "rolled-back").iterdir())
    assert len(aside) == 1 and aside[0].name.endswith("-incomplete")
    assert (aside[0] / "5001" / "master.xlsx").is_file()


def test_rollback_to_a_turn_that_was_never_archived_is_refused(tmp_path: Path) -> None:
    game = _game(tmp_path)
    with pytest.raises(GameError, match="no complete archive of 5009"):
        rollback(game, "5009")


def test_the_commands_resolve_and_rollback(tmp_path: Path) -> None:
    game = _game(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["resolve", str(game.path), "--now"])
    assert result.exit_code == 0, result.output
    assert "resolved Year 5001" in result.output
    assert "no orders received from: Ann, Bob, Cleo" in result.output
    result = runner.invoke(main, ["rollback", str(game.path), "--to", "5001"])
    assert result.exit_code == 0, result.output
    assert "back at the start of 5001" in result.output
    result = runner.invoke(main, ["rollback", str(game.path), "--to", "4999"])
    assert result.exit_code == 1 and "no complete archive of 4999" in result.output
    missing = runner.invoke(
        main, ["resolve", str(game.path), "--now", "--dice", str(tmp_path / "no")]
    )
    assert missing.exit_code == 2 and "not found" in missing.output
    short = tmp_path / "short.txt"
    short.write_text("1\n")
    _file(game, _ann_orders(game), tmp_path)
    trade_free = runner.invoke(main, ["resolve", str(game.path), "--now", "--dice", str(short)])
    assert trade_free.exit_code == 0, trade_free.output  # no die was needed this turn
    assert game.load_state().year == 5002


def test_a_dice_file_that_runs_out_changes_nothing(tmp_path: Path) -> None:
    game = _game(tmp_path)
    state = game.load_state()
    state.relations.append(Relation(kind="trade", a="Ann", b="Bob", since=5000))
    game.save_state(state)  # the trade roll needs two dice
    before = game.master_path.read_bytes()
    short = tmp_path / "one-die.txt"
    short.write_text("4\n")
    result = CliRunner().invoke(main, ["resolve", str(game.path), "--now", "--dice", str(short)])
    assert result.exit_code == 1
    assert "ran out after 1 rolls" in result.output and "trade Ann-Bob" in result.output
    assert game.master_path.read_bytes() == before
    assert not game.archive("5001").exists()


def test_the_orders_as_understood_are_archived_and_the_reports_read_them_there(
    tmp_path: Path,
) -> None:
    """Resolve keeps each sheet's orders as it read them in the manifest; the reports take
    them from there, not from a sheet that may since have gone from the inbox."""
    from refassist.report.game_reports import gather_input

    game = _game(tmp_path)
    orders = _ann_orders(game)
    _file(game, orders, tmp_path)
    resolve_game(game, force=True)
    understood = json.loads((game.archive("5001") / "manifest.json").read_text())[
        "orders_understood"
    ]
    assert understood == {"Ann": game.ruleset.orders_text(orders)}
    for sheet in (game.inbox("5001") / "accepted").glob("*.xlsx"):
        sheet.unlink()
    state = game.load_state()
    info = gather_input(game, state, ["Ann", "Bob", "Cleo"])
    assert info.orders == {"Ann": tuple(understood["Ann"])}
    assert info.sheets == {"Ann": "accepted", "Bob": "missing", "Cleo": "missing"}


def test_the_reports_after_a_resolve_import_neither_the_sheet_reader_nor_other_commands(
    tmp_path: Path,
) -> None:
    """`refassist report` after a resolve reads no sheet (the orders as understood are in the
    archive, the next sheets written): openpyxl, numpy (which it brings), xlsxwriter and the
    other commands' modules are never imported, a third of a second of every run (checked
    in a new interpreter, which has imported nothing yet)."""
    game = _game(tmp_path)
    _file(game, _ann_orders(game), tmp_path)
    resolve_game(game, force=True)
    code = (
        "import sys\n"
        "from refassist.cli import main\n"
        "try:\n"
        f"    main(['report', {str(game.path)!r}, '--quiet'])\n"
        "except SystemExit as done:\n"
        "    print('exit', done.code)\n"
        "heavy = {'openpyxl', 'numpy', 'pandas', 'xlsxwriter'}\n"
        "print(sorted(heavy & {name.split('.')[0] for name in sys.modules}))\n"
        "print(sorted(m for m in sys.modules if m.endswith('_commands')))\n"
    )
    done = in_new_interpreter(code)
    lines = done.stdout.splitlines()[-3:]
    assert lines[0] == "exit 0", done.stdout[-2000:] + done.stderr[-2000:]
    assert lines[1] == "[]"
    assert lines[2] == "['refassist.cli.report_commands', 'refassist.cli.send_commands']"
    assert (game.outbox("5002") / "Ann.pdf").is_file()
