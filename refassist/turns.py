"""The turn lifecycle: resolve the current step, archive it, roll back, replay from the archive.

The referee's fear is losing a turn's worth of state, so resolving follows one order that
leaves something whole at every instant:

1. take the game's lock and load the master workbook (checked on load);
2. read each player's accepted sheet (``inbox/<step>/accepted/``, in the order received) and
   check it again against the state, because the referee may have edited the master since the
   intake: an order that no longer passes is cancelled on its own, with an ``order_cancelled``
   event for its player, rather than refusing the whole turn;
3. resolve in memory (the ruleset's pure function, seeded or scripted dice);
4. archive what the turn started from: ``archive/<step>/master.xlsx``, ``sheets/<player>.xlsx``,
   ``game.toml``, ``dice.txt`` (scripted dice only), and ``manifest.json`` last, so an archive
   without a manifest is recognisably incomplete (the next resolve moves it aside, to
   ``rolled-back/<time>-incomplete/``);
5. replace ``master.xlsx`` atomically;
6. write the next step's sheets into ``outbox/<next step>/``.

A crash before step 5 leaves the old master in place and the turn can simply be resolved
again.  `rollback` puts an archived master back and moves the later archives aside (never
deleting them); `replay_step` re-resolves an archived step in memory, which is how a disputed
turn is shown to come out the same.

Nothing here names a game: orders are the ruleset's objects, and the only thing assumed of
them is the convention every ruleset follows (a dataclass whose list fields hold orders that
carry their sheet ``cell``), which is what lets one order be cancelled and the rest kept.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from .atomic import write_bytes, write_text
from .config import load_config
from .dice import Dice
from .errors import GameError, RefassistError, UsageError
from .game import CONFIG_NAME, MASTER_NAME, Game
from .rulesets.base import Event, Ruleset, Step
from .turnsheets import sheet_filename, write_sheets
from .workbook.master import read_master

MANIFEST_NAME = "manifest.json"
DICE_NAME = "dice.txt"
SHEETS_DIR = "sheets"
#: Where archives set aside go (beside ``archive/``, whose every folder is a turn).
ASIDE_DIR = "rolled-back"


@dataclass
class TurnOutcome:
    """What `resolve_game` did, for the command line and the demo."""

    step: str
    label: str
    next_step: str
    summary: str
    archive: Path
    sheets: list[Path]
    with_orders: list[str]
    without_orders: list[str]
    cancelled: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    finished: str = ""
    #: The new state (what ``master.xlsx`` now holds), for callers that summarise it.
    state: Any = None


@dataclass
class SheetOrders:
    """One player's orders as read again at resolve time, and what had to be cancelled."""

    player: str
    orders: Any
    cancelled: list[Event]


# -- reading the filed sheets ---------------------------------------------------------------------


def _turn_number(step: Step, game: Game) -> int:
    return int(step.key) if step.key.isdigit() else game.step_index(step.key)


def drop_orders_at(orders: Any, cells: set[str]) -> tuple[Any, list[tuple[str, Any]]]:
    """A copy of ``orders`` without the orders written in ``cells``; also returns them.

    Scalar orders with a ``<name>_cell`` partner (a set-up choice) are reset to empty.
    """
    if not dataclasses.is_dataclass(orders) or isinstance(orders, type):
        return orders, []
    dropped: list[tuple[str, Any]] = []
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(orders):
        value = getattr(orders, f.name)
        if isinstance(value, list):
            keep = []
            for item in value:
                if getattr(item, "cell", None) in cells:
                    dropped.append((item.cell, item))
                else:
                    keep.append(item)
            if len(keep) != len(value):
                changes[f.name] = keep
        partner = f"{f.name}_cell"
        if hasattr(orders, partner) and getattr(orders, partner) in cells and value:
            dropped.append((getattr(orders, partner), value))
            changes[f.name] = type(value)()
    return (dataclasses.replace(orders, **changes) if changes else orders), dropped


def _order_text(item: Any) -> str:
    text = getattr(item, "text", "")
    return str(text) if text else str(item)


def _cancel_event(turn: int, player: str, text: str, cell: str, reason: str) -> Event:
    return Event(
        turn=turn,
        phase="orders",
        location="",
        kind="order_cancelled",
        text=f"Your order {text!r} was cancelled when the turn was resolved: {reason}.",
        players=(player,),
        visible_to=(player,),
        data={"order": text, "cell": cell, "reason": reason},
    )


def read_orders(
    ruleset: Ruleset,
    state: Any,
    player: str,
    path: Path,
    house_rules: Mapping[str, Any],
    turn: int,
) -> SheetOrders:
    """Read one filed sheet and check it again; orders that fail now are cancelled one by one.

    An error pinned to the cell of an order cancels that order (with an ``order_cancelled``
    event for the player).  An error not tied to one order (a stockpile site that no longer
    exists, say) cancels nothing here: the rules check every order again as they carry it out
    and report what they cannot do.  A sheet that cannot be read at all gives no orders.
    """
    try:
        read = ruleset.read_sheet(path)
    except RefassistError as exc:
        event = _cancel_event(turn, player, path.name, "", f"the sheet could not be read ({exc})")
        return SheetOrders(player, None, [event])
    problems = [
        p
        for p in ruleset.validate(state, player, read.orders, house_rules)
        if p.severity == "error" and p.cell
    ]
    orders, dropped = drop_orders_at(read.orders, {p.cell for p in problems})
    events = []
    for cell, item in dropped:
        reason = "; ".join(dict.fromkeys(p.message for p in problems if p.cell == cell))
        events.append(_cancel_event(turn, player, _order_text(item), cell, reason))
    return SheetOrders(player, orders, events)


def _filed_sheets(game: Game, step: str) -> list[tuple[str, Path]]:
    """Accepted sheets in the order they were received (ties by player name)."""
    from .inbox import accepted_received, accepted_sheets

    sheets = accepted_sheets(game, step)
    received = accepted_received(game, step)
    floor = datetime.min.replace(tzinfo=UTC)
    return sorted(sheets.items(), key=lambda item: (received.get(item[0], floor), item[0]))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- resolving ------------------------------------------------------------------------------------


def _dice_for(game: Game, turn: int, dice_file: Path | None) -> Dice:
    if dice_file is not None:
        return Dice.from_file(Path(dice_file), turn=turn)
    return Dice.for_turn(game.config.seed, turn)


def _add_events(state: Any, events: list[Event]) -> None:
    """Put the lifecycle's cancellations first in the state's event list (for the reports)."""
    if events and hasattr(state, "events"):
        state.events = [*events, *state.events]


def _check_archive_slot(game: Game, step: str) -> None:
    folder = game.archive(step)
    if not folder.exists():
        return
    if (folder / MANIFEST_NAME).exists():
        raise GameError(
            f"{step} was already resolved (archive/{step} exists) but master.xlsx still awaits "
            f"{step}; to resolve it again, run: refassist rollback {game.path} --to {step}"
        )
    aside = _unused(game.path / ASIDE_DIR / f"{_stamp()}-incomplete") / step
    aside.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(folder), str(aside))


def _unused(folder: Path) -> Path:
    """``folder``, or ``folder-2``, ``folder-3``... if it exists (two set-asides in a second)."""
    candidate, n = folder, 1
    while candidate.exists():
        n += 1
        candidate = folder.with_name(f"{folder.name}-{n}")
    return candidate


def _version() -> str:
    try:
        return version("refassist")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def _stamp(now: datetime | None = None) -> str:
    return (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def resolve_game(
    game: Game, *, dice_file: Path | None = None, now: datetime | None = None
) -> TurnOutcome:
    """Resolve the game's current step with the filed sheets; see the module docstring."""
    if dice_file is not None and not Path(dice_file).is_file():
        raise UsageError(f"dice file {dice_file} not found")
    when = now or datetime.now(UTC)
    with game.lock():
        state = game.load_state()
        ruleset = game.ruleset
        over = ruleset.game_over(state)
        if over:
            raise GameError(f"the game is over: {over}")
        step = game.step(state)
        _check_archive_slot(game, step.key)
        turn = _turn_number(step, game)
        rules = game.config.house_rules
        filed = _filed_sheets(game, step.key)
        orders: dict[str, Any] = {}
        cancelled: list[Event] = []
        used: list[tuple[str, Path]] = []
        for player, path in filed:
            if player not in step.expects:
                continue
            got = read_orders(ruleset, state, player, path, rules, turn)
            cancelled.extend(got.cancelled)
            used.append((player, path))
            if got.orders is not None:
                orders[player] = got.orders
        dice = _dice_for(game, turn, dice_file)
        resolution = ruleset.resolve(state, orders, dice, rules)
        new_state = resolution.state
        _add_events(new_state, cancelled)
        archive = write_archive(game, step, used, dice_file, when, list(orders))
        game.save_state(new_state)
        finished = ruleset.game_over(new_state)
        sheets = [] if finished else write_sheets(game, new_state)
        next_step = game.step(new_state)
    return TurnOutcome(
        step=step.key,
        label=step.label,
        next_step=next_step.key,
        summary=resolution.summary,
        archive=archive,
        sheets=sheets,
        with_orders=list(orders),
        without_orders=[p for p in step.expects if p not in orders],
        cancelled=[e.text for e in cancelled],
        events=[*cancelled, *resolution.events],
        finished=finished,
        state=new_state,
    )


def write_archive(
    game: Game,
    step: Step,
    sheets: list[tuple[str, Path]],
    dice_file: Path | None,
    when: datetime,
    with_orders: list[str],
) -> Path:
    """Copy what the step started from into ``archive/<step>/``; the manifest goes last."""
    folder = game.archive(step.key)
    master = game.master_path
    write_bytes(folder / MASTER_NAME, master.read_bytes())
    write_bytes(folder / CONFIG_NAME, (game.path / CONFIG_NAME).read_bytes())
    files: dict[str, dict[str, str]] = {}
    for player, path in sheets:
        target = folder / SHEETS_DIR / sheet_filename(player)
        write_bytes(target, path.read_bytes())
        files[player] = {"file": f"{SHEETS_DIR}/{target.name}", "sha256": _sha256(target)}
    if dice_file is not None:
        write_bytes(folder / DICE_NAME, Path(dice_file).read_bytes())
    earlier = [m for m in _manifests(game) if m.get("step") != step.key]
    manifest = {
        "step": step.key,
        "label": step.label,
        "sequence": len(earlier) + 1,
        "resolved_at": when.astimezone(UTC).replace(microsecond=0).isoformat(),
        "ruleset": game.ruleset.name,
        "refassist_version": _version(),
        "seed": game.config.seed,
        "dice": "file" if dice_file is not None else "seeded",
        "dice_file": Path(dice_file).name if dice_file is not None else "",
        "master_sha256": _sha256(folder / MASTER_NAME),
        "sheets_in_received_order": [player for player, _ in sheets],
        "sheets": files,
        "with_orders": with_orders,
    }
    write_text(folder / MANIFEST_NAME, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return folder


def _manifests(game: Game) -> list[dict[str, Any]]:
    """The manifests of every complete archive, in the order the steps were resolved."""
    out = []
    root = game.path / "archive"
    if not root.is_dir():
        return out
    for folder in root.iterdir():
        path = folder / MANIFEST_NAME
        if not path.is_file():
            continue
        try:
            out.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise GameError(f"{path} cannot be read ({exc}); the archive is damaged") from exc
    return sorted(out, key=lambda m: (int(m.get("sequence", 0)), str(m.get("step", ""))))


def manifest(game: Game, step: str) -> dict[str, Any]:
    """The manifest of an archived step (`GameError` if it is missing or incomplete)."""
    path = game.archive(step) / MANIFEST_NAME
    if not path.is_file():
        steps = ", ".join(m["step"] for m in _manifests(game)) or "none"
        raise GameError(
            f"there is no complete archive of {step} in {game.path / 'archive'}; "
            f"archived steps: {steps}"
        )
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise GameError(f"{path} cannot be read ({exc}); the archive is damaged") from exc


def archived_steps(game: Game) -> list[str]:
    """Every completely archived step, in the order they were resolved."""
    return [str(m["step"]) for m in _manifests(game)]


# -- rollback -------------------------------------------------------------------------------------


@dataclass
class RollbackOutcome:
    step: str
    moved: list[str]
    moved_to: Path | None


def rollback(game: Game, to_step: str, *, now: datetime | None = None) -> RollbackOutcome:
    """Make ``archive/<to_step>/master.xlsx`` the current master again.

    That step and every step resolved after it are moved (whole) to ``rolled-back/<time>/``
    in the game folder, so the step can be resolved again with the same or corrected sheets;
    nothing is deleted.  The sheets filed for it stay in ``inbox/``.
    """
    with game.lock():
        wanted = manifest(game, to_step)
        source = game.archive(to_step) / MASTER_NAME
        if not source.is_file():
            raise GameError(f"archive/{to_step} has no {MASTER_NAME}; it cannot be restored")
        read_master(source, game.ruleset)  # refuse a damaged archive before touching anything
        data = source.read_bytes()
        later = [m for m in _manifests(game) if int(m["sequence"]) >= int(wanted["sequence"])]
        aside = _unused(game.path / ASIDE_DIR / _stamp(now))
        moved = []
        for m in later:
            step = str(m["step"])
            target = aside / step
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(game.archive(step)), str(target))
            moved.append(step)
        write_bytes(game.master_path, data)
    return RollbackOutcome(step=to_step, moved=moved, moved_to=aside if moved else None)


# -- replay ---------------------------------------------------------------------------------------


def replay_step(game: Game, step: str) -> dict[str, Any]:
    """Re-resolve an archived step in memory and return the JSON export of the result.

    Uses only the archive: its master, its sheets in the recorded order, its ``game.toml``
    (seed and house rules as they were) and its dice file, if the turn used one.  Comparing the
    result with the state that followed shows that the turn is reproducible.
    """
    m = manifest(game, step)
    folder = game.archive(step)
    ruleset = game.ruleset
    state = read_master(folder / MASTER_NAME, ruleset)
    config = load_config(folder / CONFIG_NAME)
    rules = config.house_rules
    current = ruleset.current_step(state)
    turn = _turn_number(current, game)
    orders: dict[str, Any] = {}
    cancelled: list[Event] = []
    for player in m.get("sheets_in_received_order", []):
        info = m["sheets"][player]
        got = read_orders(ruleset, state, player, folder / info["file"], rules, turn)
        cancelled.extend(got.cancelled)
        if got.orders is not None:
            orders[player] = got.orders
    if m.get("dice") == "file":
        dice = Dice.from_file(folder / DICE_NAME, turn=turn)
    else:
        dice = Dice.for_turn(int(m.get("seed", config.seed)), turn)
    resolution = ruleset.resolve(state, orders, dice, rules)
    _add_events(resolution.state, cancelled)
    return ruleset.to_json(resolution.state)


def state_after(game: Game, step: str) -> dict[str, Any]:
    """The JSON export of the state that followed ``step``: the next archive's master, or the
    current master when ``step`` was the last one resolved."""
    steps = archived_steps(game)
    if step not in steps:
        manifest(game, step)  # raises with the list of archived steps
    index = steps.index(step)
    if index + 1 < len(steps):
        state = read_master(game.archive(steps[index + 1]) / MASTER_NAME, game.ruleset)
    else:
        state = game.load_state()
    return game.ruleset.to_json(state)
