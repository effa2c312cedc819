"""Resolving at the right time, and what becomes of a sheet with problems.

`refassist resolve` typed twice by accident must not play the next turn with nobody's orders:
before the deadline (or, without one, at all) it refuses while a sheet is missing or has
problems, and changes nothing; ``--now`` resolves anyway.  A player whose newest sheet had
problems gets its valid orders carried out and each line at fault reported (house rule
``sheets_with_problems``: ``carry-valid``, or ``no-orders`` for the strict reading).

Real files throughout: sheets written by the sheet writer, filled in as a player would, filed
by the intake, resolved, reported as PDFs and read back.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from refassist.cli import main
from refassist.errors import GameError
from refassist.geometry.hexmap import distance
from refassist.intake.inbox import intake
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import SHEETS_WITH_PROBLEMS
from refassist.rulesets.fifth_millennium.orders import Move, Orders, Purchase
from refassist.rulesets.fifth_millennium.state import Fleet
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets
from refassist.turns import replay_step, resolve_game, state_after
from tests.conftest import players, three_player_game

#: A deadline the tests are always before, and one they are always after (local time, as in
#: game.toml).
FUTURE = datetime(2099, 12, 5, 21, 0)
PAST = datetime(2020, 1, 4, 21, 0)


def _game(tmp_path: Path, *, deadline: datetime | None = None, **rules: object) -> Game:
    game = three_player_game(tmp_path / "game", first_deadline=deadline, house_rules=dict(rules))
    write_sheets(game, game.load_state())
    return game


def _file(game: Game, orders: Orders, tmp_path: Path, expect: str = "accepted") -> None:
    """Fill the player's sheet as a player would and file it through the intake."""
    step = game.step(game.load_state()).key
    sheet = game.outbox(step) / sheet_filename(orders.player)
    filled = tmp_path / "mail" / step / orders.player / sheet.name
    filled.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(sheet, filled)
    game.ruleset.fill_sheet(filled, orders)
    report = intake(game, [filled])
    assert report.count(expect) == 1, [o.summary for o in report.outcomes]


def _near(state, home: str) -> str:
    return min(
        (s.hex for s in state.systems if 0 < distance(home, s.hex) <= 4),
        key=lambda h: (distance(home, h), h),
    )


def _orders(game: Game, player: str, *, bad_line: bool = False) -> Orders:
    """A move of three squadrons and one purchase; with ``bad_line``, also a move from a
    system where the player has nothing (an error pinned to that line's cell)."""
    state = game.load_state()
    home = state.player(player).homeworld
    moves = [Move(state.year, Fleet(F=3), home, _near(state, home))]
    if bad_line:
        empty = next(
            s.hex
            for s in sorted(state.systems, key=lambda s: s.hex)
            if not any(f.hex == s.hex and f.owner == player for f in state.forces)
            and distance(s.hex, home) > 6
        )
        moves.append(Move(state.year, Fleet(F=2), empty, _near(state, empty)))
    return Orders(player=player, year=state.year, moves=moves, purchases=[Purchase(home, "F", 1)])


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _forces(state, player: str):
    return sorted((f.hex, f.fleet, f.building) for f in state.forces if f.owner == player)


# -- resolving at the right time --------------------------------------------------------------


def test_before_the_deadline_resolve_refuses_names_who_and_changes_nothing(
    tmp_path: Path,
) -> None:
    game = _game(tmp_path, deadline=FUTURE)
    _file(game, _orders(game, "Ann"), tmp_path)
    _file(game, _orders(game, "Bob", bad_line=True), tmp_path, expect="problems")
    master = _sha(game.master_path)
    outbox = sorted(p.name for p in (game.path / "outbox").iterdir())

    result = CliRunner().invoke(main, ["resolve", str(game.path)])

    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "Year 5001 was not resolved" in text
    assert "its deadline is Sat 05 Dec 2099 21:00" in text
    assert "Bob (its sheet has problems)" in text
    assert "Cleo (no sheet received)" in text
    assert "Ann" not in text.split("waits for", 1)[1]
    assert f"refassist resolve {game.path} --now" in text
    assert _sha(game.master_path) == master
    assert not any((game.path / "archive").iterdir())
    assert sorted(p.name for p in (game.path / "outbox").iterdir()) == outbox

    forced = CliRunner().invoke(main, ["resolve", str(game.path), "--now"])
    assert forced.exit_code == 0, forced.output
    assert "resolved Year 5001" in forced.output
    assert "valid orders carried out from a sheet with problems: Bob" in forced.output
    assert "no orders received from: Cleo" in forced.output


def test_resolve_run_twice_by_accident_refuses_the_second_time(tmp_path: Path) -> None:
    game = _game(tmp_path, deadline=FUTURE)
    for player in ("Ann", "Bob", "Cleo"):
        _file(game, _orders(game, player), tmp_path)
    first = CliRunner().invoke(main, ["resolve", str(game.path)])
    assert first.exit_code == 0, first.output  # every sheet in: no need to wait
    master = _sha(game.master_path)
    second = CliRunner().invoke(main, ["resolve", str(game.path)])
    assert second.exit_code == 1
    assert "Year 5002 was not resolved" in second.output
    assert _sha(game.master_path) == master


def test_after_the_deadline_resolve_goes_ahead_without_now(tmp_path: Path) -> None:
    game = _game(tmp_path, deadline=PAST)
    # Nothing came back and no mail went out: nobody could have answered (issue 53).
    with pytest.raises(GameError, match="its sheets never went out"):
        resolve_game(game)
    # A sheet came back (late, so unused): the sheets went out, and the deadline rules.
    _file(game, _orders(game, "Ann"), tmp_path, expect="late")
    outcome = resolve_game(game)
    assert outcome.step == "5001"
    assert outcome.without_orders == ["Ann", "Bob", "Cleo"]


def test_the_clock_decides_against_the_deadline(tmp_path: Path) -> None:
    game = _game(tmp_path, deadline=datetime(2026, 12, 5, 21, 0))
    _file(game, _orders(game, "Ann"), tmp_path)  # the sheets went out
    deadline = datetime(2026, 12, 5, 21, 0).astimezone()
    with pytest.raises(GameError, match="Cleo"):
        resolve_game(game, now=deadline.replace(hour=20).astimezone(UTC))
    assert resolve_game(game, now=deadline.astimezone(UTC)).step == "5001"


def test_a_game_without_deadline_asks_for_now_only_while_sheets_are_missing(
    tmp_path: Path,
) -> None:
    game = _game(tmp_path)
    _file(game, _orders(game, "Ann"), tmp_path)
    result = CliRunner().invoke(main, ["resolve", str(game.path)])
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "this game has no deadline" in text
    assert "Bob (no sheet received), Cleo (no sheet received)" in text
    for player in ("Bob", "Cleo"):
        _file(game, _orders(game, player), tmp_path)
    done = CliRunner().invoke(main, ["resolve", str(game.path)])
    assert done.exit_code == 0, done.output


def test_computer_players_never_hold_the_turn_up(tmp_path: Path) -> None:
    game = Game.create(
        tmp_path / "game",
        find_ruleset("fifth-millennium"),
        [*players(1), *find_ruleset("fifth-millennium").demo_players(2)],
        seed=11,
        generate_seed=42,
        assign_homeworlds=True,
    )
    write_sheets(game, game.load_state())
    _file(game, _orders(game, "Ann"), tmp_path)
    result = CliRunner().invoke(main, ["resolve", str(game.path)])
    assert result.exit_code == 0, result.output
    computers = [p.name for p in find_ruleset("fifth-millennium").demo_players(2)]
    # docs/intake.md: "the tool writes their orders when the turn is resolved".
    assert f"orders of the computer players filed: {', '.join(computers)}" in result.output
    line = next(x for x in result.output.splitlines() if "orders from:" in x)
    assert all(name in line for name in ["Ann", *computers])
    manifest = json.loads((game.archive("5001") / "manifest.json").read_text())
    assert sorted(manifest["sheets"]) == sorted(["Ann", *computers])


# -- a sheet with problems is not "no orders" -------------------------------------------------


def test_carry_valid_carries_out_the_valid_lines_and_reports_each_dropped_one(
    tmp_path: Path,
) -> None:
    game = _game(tmp_path)
    state = game.load_state()
    home = state.player("Bob").homeworld
    _file(game, _orders(game, "Bob", bad_line=True), tmp_path, expect="problems")
    index = json.loads((game.inbox("5001") / "index.json").read_text())
    [problem] = [p for p in index["entries"][0]["problems"] if p["severity"] == "error"]

    outcome = resolve_game(game, force=True)

    assert outcome.with_problems == ["Bob"]
    assert "Bob" in outcome.with_orders
    after = game.load_state()
    # The valid move left the homeworld (three squadrons fewer there) and the purchase was made.
    assert _forces(after, "Bob") != _forces(state, "Bob")
    bob_home = [f for f in after.forces if f.owner == "Bob" and f.hex == home]
    assert sum(f.fleet.F for f in bob_home) == 15 - 3 + 1
    mine = [e for e in after.events if "Bob" in e.players]
    assert not [e for e in mine if e.kind == "no_orders"]
    [note] = [e for e in mine if e.kind == "sheet_with_problems"]
    assert note.data["used"] is True
    [dropped] = [e for e in mine if e.kind == "order_cancelled"]
    assert dropped.data["cell"] == problem["cell"]
    assert f"in cell {problem['cell']}" in dropped.text
    assert problem["message"] in dropped.text
    manifest = json.loads((game.archive("5001") / "manifest.json").read_text())
    assert manifest["sheets"]["Bob"]["with_problems"] == sheet_filename("Bob")
    # The turn replays from the archive alone to the same result.
    assert replay_step(game, "5001") == state_after(game, "5001")

    run = write_reports(game, state=after)
    pdfs = {r.reader: r.path for r in run.reports}
    bob = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdfs["Bob"]).pages)
    assert "No orders were received" not in bob
    assert "the lines without problems were carried out" in bob
    assert f"cell {problem['cell']}" in bob
    referee = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(pdfs["referee"]).pages
    )
    assert f"in cell {problem['cell']} was not carried out" in referee


def test_no_orders_house_rule_uses_nothing_and_says_why(tmp_path: Path) -> None:
    game = _game(tmp_path, **{SHEETS_WITH_PROBLEMS: "no-orders"})
    state = game.load_state()
    _file(game, _orders(game, "Bob", bad_line=True), tmp_path, expect="problems")

    outcome = resolve_game(game, force=True)

    assert outcome.problems_unused == ["Bob"]
    assert "Bob" in outcome.without_orders
    after = game.load_state()
    assert [(h, f.F) for h, f, _ in _forces(after, "Bob")] == [
        (h, f.F) for h, f, _ in _forces(state, "Bob")
    ]
    mine = [e for e in after.events if "Bob" in e.players]
    assert not [e for e in mine if e.kind == "no_orders"]
    [note] = [e for e in mine if e.kind == "sheet_with_problems"]
    assert note.data["used"] is False
    assert replay_step(game, "5001") == state_after(game, "5001")
    run = write_reports(game, state=after)
    bob = next(r.path for r in run.reports if r.reader == "Bob")
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(bob).pages)
    assert "No orders were received" not in text
    assert "none of its orders were carried out" in text


def test_an_accepted_sheet_stands_over_a_later_one_with_problems(tmp_path: Path) -> None:
    """The problems reply promises it: "Your earlier accepted sheet stands"."""
    game = _game(tmp_path)
    _file(game, _orders(game, "Bob"), tmp_path)
    _file(game, _orders(game, "Bob", bad_line=True), tmp_path, expect="problems")
    outcome = resolve_game(game, force=True)
    assert outcome.with_problems == []
    assert "Bob" in outcome.with_orders
    assert not [e for e in game.load_state().events if e.kind == "sheet_with_problems"]


def test_nothing_received_still_says_no_orders(tmp_path: Path) -> None:
    game = _game(tmp_path)
    resolve_game(game, force=True)
    events = game.load_state().events
    assert [e for e in events if e.kind == "no_orders" and e.players == ("Cleo",)]


def test_the_house_rule_is_checked_and_listed(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="sheets_with_problems must be one of"):
        _game(tmp_path, **{SHEETS_WITH_PROBLEMS: "maybe"})
    listed = CliRunner().invoke(main, ["rulesets"])
    assert "sheets_with_problems = 'carry-valid'" in listed.output
