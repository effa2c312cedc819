"""The reads the intake keeps for resolve (`refassist.store.sheetstore`): taken instead of opening
the sheet again, and only when the game signed them, for the same bytes and the same refassist."""

from __future__ import annotations

import hashlib
import hmac
import json
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest

from refassist.geometry.hexmap import distance
from refassist.intake.inbox import intake
from refassist.rulesets.fifth_millennium.orders import Move, Orders, Purchase
from refassist.rulesets.fifth_millennium.state import Fleet
from refassist.store import sheetstore
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename, write_sheets
from refassist.turns import resolve_game
from refassist.workbook import sheetio
from tests.conftest import three_player_game

#: Filled by unpickling `_Planted`: must stay empty.
UNPICKLED: list[int] = []


class _Planted:
    """What someone else might put in the store: unpickling it runs code."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (UNPICKLED.append, (1,))


def _filed_game(folder: Path) -> tuple[Game, list[str], str]:
    """A 3-player game with Ann's sheet filed by the intake: the game, the orders as the
    intake read them and the sheet's SHA-256."""
    game = three_player_game(folder / "game")
    state = game.load_state()
    write_sheets(game, state)
    home = state.player("Ann").homeworld
    near = min(
        (s.hex for s in state.systems if 0 < distance(home, s.hex) <= 4),
        key=lambda h: (distance(home, h), h),
    )
    orders = Orders(
        "Ann",
        state.year,
        moves=[Move(state.year, Fleet(F=3), home, near)],
        purchases=[Purchase(home, "F", 1)],
    )
    filled = folder / "mail" / sheet_filename("Ann")
    filled.parent.mkdir(parents=True)
    shutil.copyfile(game.outbox(str(state.year)) / sheet_filename("Ann"), filled)
    game.ruleset.fill_sheet(filled, orders)
    assert intake(game, [filled]).count("accepted") == 1
    return game, game.ruleset.orders_text(orders), hashlib.sha256(filled.read_bytes()).hexdigest()


def _understood(game: Game) -> dict[str, list[str]]:
    manifest = json.loads((game.archive("5001") / "manifest.json").read_text(encoding="utf-8"))
    return manifest["orders_understood"]


def _opens(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every turn sheet opened from now on."""
    opened: list[Path] = []
    real = sheetio.open_turn_sheet

    def counting(path: Path, **kwargs: Any) -> sheetio.TurnSheetFile:
        opened.append(Path(path))
        return real(path, **kwargs)

    monkeypatch.setattr(sheetio, "open_turn_sheet", counting)
    return opened


def test_resolve_takes_what_the_intake_read_and_opens_no_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, understood, sha = _filed_game(tmp_path / "kept")
    assert (game.path / sheetstore.STORE_DIR / f"{sha}.read").is_file()
    twin, _, _ = _filed_game(tmp_path / "opened")
    shutil.rmtree(twin.path / sheetstore.STORE_DIR)
    opened = _opens(monkeypatch)
    resolve_game(game, force=True)
    assert opened == []
    resolve_game(twin, force=True)
    assert [p.name for p in opened] == ["Ann.xlsx"]
    # The same turn either way: the orders, the archive's copy of the sheet, the new state.
    assert _understood(game) == _understood(twin) == {"Ann": understood}
    kept = game.archive("5001") / "sheets" / "Ann.xlsx"
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == sha
    assert game.ruleset.to_json(game.load_state()) == twin.ruleset.to_json(twin.load_state())


def test_a_read_not_signed_with_the_games_secret_is_never_unpickled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file put in the store by anyone without the game's secret (another game's, a forged
    one) is not unpickled: the sheet is opened and read as before."""
    game, understood, sha = _filed_game(tmp_path)
    payload = pickle.dumps((sheetstore.code_stamp(), sha, _Planted()))
    # Signed with the secret itself (which signs the tokens players see): not the store's key.
    tokens_key = game.config.secret.encode()
    for key in (b"not the secret", tokens_key):
        forged = hmac.new(key, payload, hashlib.sha256).digest() + payload
        (game.path / sheetstore.STORE_DIR / f"{sha}.read").write_bytes(forged)
        assert sheetstore.kept(game, sha) is None
    opened = _opens(monkeypatch)
    resolve_game(game, force=True)
    assert UNPICKLED == []
    assert [p.name for p in opened] == ["Ann.xlsx"]
    assert _understood(game) == {"Ann": understood}


def test_a_read_of_other_bytes_another_refassist_or_damaged_is_not_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _, sha = _filed_game(tmp_path)
    store = game.path / sheetstore.STORE_DIR
    assert sheetstore.kept(game, sha) is not None
    # Signed by this game, but for other bytes (a file renamed): not taken for these.
    other = "0" * 64
    shutil.copyfile(store / f"{sha}.read", store / f"{other}.read")
    assert sheetstore.kept(game, other) is None
    # Read by a refassist changed since.
    monkeypatch.setattr(sheetstore, "code_stamp", lambda: "another refassist")
    assert sheetstore.kept(game, sha) is None
    monkeypatch.undo()
    # Damaged: cut short.
    data = (store / f"{sha}.read").read_bytes()
    (store / f"{sha}.read").write_bytes(data[: len(data) // 2])
    assert sheetstore.kept(game, sha) is None
    # A read that cannot be pickled is simply not kept.
    third = "1" * 64
    sheetstore.keep(game, third, lambda: None)  # type: ignore[arg-type]
    assert not (store / f"{third}.read").exists()


def test_checking_a_sheet_keeps_nothing_only_the_intake_does(tmp_path: Path) -> None:
    """`refassist check --game` changes nothing in the game folder: only the intake keeps the
    read of a sheet, one it files (that it keeps none of a refused one: tests/test_corpus.py)."""
    from refassist.store.turnsheets import check_sheet

    game, _, _ = _filed_game(tmp_path)
    shutil.rmtree(game.path / sheetstore.STORE_DIR)
    sheet = game.inbox("5001") / "accepted" / "Ann.xlsx"
    assert check_sheet(sheet, game).read is not None
    assert not (game.path / sheetstore.STORE_DIR).exists()
