"""The turn lifecycle: resolve the current step, archive it, roll back, replay from the archive.

The referee's fear is losing a turn's worth of state, so resolving follows one order that
leaves something whole at every instant, even if the process is killed (``kill -9``, a power
cut) or the disk fills up:

1. take the game's lock, finish or undo any command that was interrupted (`recovery.working`),
   and load the master workbook (checked on load);
2. read each player's accepted sheet (``inbox/<step>/accepted/``, in the order received) with
   every check the intake made, again: the file must still be the one the intake accepted
   (its SHA-256), a genuine sheet of this game for this player and step (its token), and pass
   the hostile-file checks; then check the orders again against the state, because the referee
   may have edited the master since the intake: an order that no longer passes is cancelled
   on its own, with an ``order_cancelled`` event for its player, rather than refusing the turn;
3. resolve in memory (the ruleset's pure function, seeded or scripted dice);
4. write the new master in full beside the old one (``.master-next.xlsx``), then the journal
   (``.refassist-journal.json``: the hashes of the old and the new master), then the archive of
   what the turn started from: ``archive/<step>/master.xlsx``, ``sheets/<player>.xlsx``
   (``.ods`` for a sheet sent as one), ``game.toml``, ``dice.txt`` (scripted dice only), and
   ``manifest.json`` last;
5. rename the new master over ``master.xlsx``: the one instant that decides;
6. write the next step's sheets into ``outbox/<next step>/`` and forget the journal.

Killed before step 5, the game is at the old turn and the next command moves the half-written
archive aside; killed after it, the game is at the new turn and the next command writes the
sheets.  A failure the process survives (a full disk, a read-only folder) undoes steps 4-5 at
once and says what happened, so the folder is as it was.

`rollback` puts an archived master back (journalled too, and the master it replaces is kept in
``rolled-back/``); `replay_step` re-resolves an archived step in memory from the archive alone,
which `refassist.verify` uses to show that every turn comes out the same.

Nothing here names a game: orders are the ruleset's objects, and the only thing assumed of
them is the convention every ruleset follows (a dataclass whose list fields hold orders that
carry their sheet ``cell``), which is what lets one order be cancelled and the rest kept.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .atomic import read_record, write_bytes, write_text
from .config import GameConfig, load_config
from .dice import LEGACY_SEED_SCHEME, SEED_SCHEME, Dice, seed_commitment
from .errors import (
    CellProblem,
    GameError,
    MasterWorkbookError,
    NotATurnSheet,
    RefassistError,
    UsageError,
)
from .mail.sending import read_sent
from .rulesets.base import SHEETS_WITH_PROBLEMS, Event, Ruleset, SheetRead, Step
from .store import journal, sheetstore, statestore
from .store.deadlines import settle_deadline
from .store.game import CONFIG_NAME, MASTER_NAME, Game
from .store.inbox_index import (
    Index,
    accepted_received,
    accepted_sheets,
    sheet_states,
    sheets_with_problems,
    waiting_for,
)
from .store.journal import ASIDE_DIR, sha256_file, stamp, unused
from .store.outbox import set_aside_stale
from .store.recovery import move_archives, working
from .store.turn_seed import commitment, game_turn_seed, turn_of
from .store.turnsheets import (
    filed_filename,
    open_genuine,
    orders_as_text,
    verify_identity,
    write_sheets,
)
from .text.i18n import current, said, said_as
from .text.words import N_
from .workbook.celltext import clip
from .workbook.master import read_master, write_master

if TYPE_CHECKING:
    from .workbook.sheetio import TurnSheetFile

MANIFEST_NAME = "manifest.json"
DICE_NAME = "dice.txt"
SHEETS_DIR = "sheets"


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
    #: Players whose sheet with problems was used for its valid orders (``carry-valid``).
    with_problems: list[str] = field(default_factory=list)
    #: Players whose sheet with problems was not used (``no-orders``).
    problems_unused: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    finished: str = ""
    #: The new state (what ``master.xlsx`` now holds), for callers that summarise it.
    state: Any = None
    #: What an interrupted earlier command needed, done first (empty when nothing).
    recovered: str = ""
    #: The turn's seed and its commitment (None / empty when the referee's dice were used).
    seed: int | None = None
    commitment: str = ""
    #: What the referee is told when the next step's deadline was already past and moved
    #: (`deadlines.settle_deadline`); empty when it stands.
    deadline_moved: str = ""


@dataclass
class SheetOrders:
    """One player's orders as read again at resolve time, and what had to be cancelled.

    ``data``: the bytes the orders were read from (the archive keeps exactly those, not a
    later read of a file that could have changed meanwhile); None when the sheet was not
    used."""

    player: str
    orders: Any
    cancelled: list[Event]
    data: bytes | None = None
    #: The sheet's orders as read, one line each, before any was cancelled.
    understood: tuple[str, ...] = ()


@dataclass(frozen=True)
class Filed:
    """A sheet filed for a step: whose, where, and the SHA-256 the intake recorded."""

    player: str
    path: Path
    sha256: str = ""
    #: The bytes resolve read the orders from, once it has read them (what the archive keeps).
    data: bytes | None = field(default=None, repr=False, compare=False)
    #: A sheet the intake found problems in, used under the ``carry-valid`` house rule: its
    #: valid orders are carried out and every line at fault is dropped, with a reason.
    with_problems: bool = False
    #: The orders as resolve understood them (`Ruleset.orders_text`), kept in the manifest so
    #: the reports never read the sheet again; empty when the sheet could not be read.
    understood: tuple[str, ...] = field(default=(), compare=False)


def os_detail(exc: BaseException) -> str:
    """The most useful sentence about a failed write: the OS error and its file if known."""
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 10:
        if isinstance(current, OSError) and current.strerror:
            where = f" ({current.filename})" if current.filename else ""
            return f"{current.strerror}{where}"
        current = current.__cause__ or current.__context__
        seen += 1
    return str(exc).removesuffix("; nothing was changed")


# -- reading the filed sheets ---------------------------------------------------------------------


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
                at = order_cells(item) & cells
                if at:
                    dropped.append((min(at), item))
                else:
                    keep.append(item)
            if len(keep) != len(value):
                changes[f.name] = keep
        partner = f"{f.name}_cell"
        if hasattr(orders, partner) and getattr(orders, partner) in cells and value:
            dropped.append((getattr(orders, partner), value))
            changes[f.name] = type(value)()
    return (dataclasses.replace(orders, **changes) if changes else orders), dropped


def order_cells(item: Any) -> set[str]:
    """Every cell an order was read from: its ``cell`` and, for an order typed one part per
    column, each part's (``cells``), so a problem pinned to the arrival year's cell finds it."""
    out = {str(c) for c in getattr(item, "cells", ()) if c}
    cell = getattr(item, "cell", "")
    if cell:
        out.add(str(cell))
    return out


def typed_line(path: Path, opened: TurnSheetFile | None, cells: list[tuple[str, str]]) -> str:
    """What the player typed in an order's cells (``(sheet, cell)``, in sheet order), as the
    sheet holds it, the parts of a line typed one per column joined by spaces; ``""`` when
    the sheet or a cell cannot be read.  A dropped order is quoted this way, never as the
    program holds it (a player must not read ``Attack(attackers=[...])``)."""
    if not cells:
        return ""
    from .workbook.sheetio import open_turn_sheet

    try:
        sheet = opened if opened is not None else open_turn_sheet(path)
        parts = []
        for title, ref in cells:
            value = sheet.input_value(title, ref).value
            if value is not None and str(value).strip():
                parts.append(clip(str(value).strip()))
    except (RefassistError, KeyError, ValueError, OSError):
        return ""
    return " ".join(parts)


def _order_cells(cells: set[str], problems: list[CellProblem]) -> list[tuple[str, str]]:
    """The ``(sheet, cell)`` pairs an order was read from, in sheet order: a cell written
    ``Sheet!A1`` names its sheet, a bare ``A1`` takes the sheet of the problem pinned to it,
    or to another cell of the order (a line typed one part per column is on one sheet)."""
    from .workbook.sheetkit import cell_rc

    pinned = sorted(p.sheet for p in problems if p.places() & cells and p.sheet)
    out = []
    for cell in cells:
        title, _, ref = cell.rpartition("!")
        title = title or next((p.sheet for p in problems if cell in p.places()), "")
        title = title or (pinned[0] if pinned else "")
        if title and ref:
            out.append((title, ref))
    return sorted(set(out), key=lambda tr: (tr[0], cell_rc(tr[1])))


def _order_text(item: Any, typed: str) -> str:
    """An order as its player wrote it: the sheet's own text, else the text the game kept
    of the line, else a plain word (never the program's form of the order)."""
    if typed:
        return typed
    text = getattr(item, "text", "")
    return str(text) if isinstance(text, str) and text else current().gettext("the line")


def _cancel_event(turn: int, player: str, text: str, cell: str, reason: str) -> Event:
    """Told in the player's language when resolve runs `speaking_to` the player (`read_filed`)."""
    return Event(
        turn=turn,
        phase="orders",
        location="",
        kind="order_cancelled",
        text=str(
            said(
                "Your order “{order}” in cell {cell} was cancelled when the turn was "
                "resolved: {reason}.",
                order=text,
                cell=cell,
                reason=reason,
            )
            if cell
            else said(
                "Your order “{order}” was cancelled when the turn was resolved: {reason}.",
                order=text,
                reason=reason,
            )
        ),
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
    opened: TurnSheetFile | None = None,
    *,
    with_problems: bool = False,
    read: SheetRead | None = None,
) -> SheetOrders:
    """Read one filed sheet and check it again; orders that fail now are cancelled one by one.

    An error pinned to the cell of an order cancels that order (with an ``order_cancelled``
    event for the player).  An error not tied to one order (a stockpile site that no longer
    exists, say) cancels nothing here: the rules check every order again as they carry it out
    and report what they cannot do.  A sheet that cannot be read at all gives no orders.
    ``opened``: the file as `filed_problem` opened it (read once, not twice); ``read``: what
    the intake read from the same bytes (`sheetstore`), taken instead of reading the file.

    ``with_problems``: the intake found problems in this sheet and the ``carry-valid`` house
    rule uses it anyway, so the lines that could not even be read are listed as dropped too
    (an accepted sheet has none) and each dropped line says that it was not carried out.
    """
    try:
        if read is None:
            read = ruleset.read_sheet(path, opened)
    except RefassistError as exc:
        why = str(said("the sheet could not be read ({error})", error=str(exc)))
        event = _cancel_event(turn, player, path.name, "", why)
        return SheetOrders(player, None, [event])
    problems = [
        p
        for p in ruleset.validate(state, player, read.orders, house_rules)
        if p.severity == "error" and p.cell
    ]
    orders, dropped = drop_orders_at(read.orders, {c for p in problems for c in p.places()})
    events = []
    if with_problems:
        unread = [p for p in read.problems if p.severity == "error"]
        for problem in unread:
            text = str(problem.found or "") or current().gettext("the line")
            events.append(_drop_event(turn, player, text, problem.cell, problem.message))
    if dropped and opened is None:  # opened once for all the lines it quotes
        from .workbook.sheetio import open_turn_sheet

        with contextlib.suppress(RefassistError, OSError):
            opened = open_turn_sheet(path)
    for cell, item in dropped:
        at = order_cells(item) or {cell}
        reason = "; ".join(dict.fromkeys(p.message for p in problems if p.places() & at))
        make = _drop_event if with_problems else _cancel_event
        typed = typed_line(path, opened, _order_cells(at, problems))
        events.append(make(turn, player, _order_text(item, typed), cell, reason))
    return SheetOrders(player, orders, events, understood=orders_as_text(ruleset, read.orders))


def _drop_event(turn: int, player: str, text: str, cell: str, reason: str) -> Event:
    """A line of a sheet with problems that was not carried out (``carry-valid``)."""
    told = (
        said(
            "Your line “{line}” in cell {cell} was not carried out: {reason}.",
            line=text,
            cell=cell,
            reason=reason,
        )
        if cell
        else said("Your line “{line}” was not carried out: {reason}.", line=text, reason=reason)
    )
    return Event(
        turn=turn,
        phase="orders",
        location="",
        kind="order_cancelled",
        text=str(told),
        players=(player,),
        visible_to=(player,),
        data={"order": text, "cell": cell, "reason": reason, "sheet_with_problems": True},
    )


def problem_sheet_event(turn: int, player: str, name: str, used: bool) -> Event:
    """What became of a player's sheet with problems that no corrected sheet replaced: used
    for its valid orders (``carry-valid``) or not at all (``no-orders``)."""
    if used:
        template = N_(
            "Your sheet {name} had problems and no corrected sheet arrived in time: its orders "
            "without problems were carried out and each line with a problem was dropped (listed "
            "with its cell and reason)."
        )
    else:
        template = N_(
            "Your sheet {name} had problems and no corrected sheet arrived in time; this game's "
            "house rule (sheets_with_problems = no-orders) uses no orders from such a sheet, so "
            "none of its orders were carried out."
        )
    text = str(said(template, name=name))
    return Event(
        turn=turn,
        phase="orders",
        location="",
        kind="sheet_with_problems",
        text=text,
        players=(player,),
        visible_to=(player,),
        data={"sheet": name, "used": used},
    )


@dataclass(frozen=True)
class FiledSheet:
    """A filed sheet that passed `filed_problem`: its bytes, and either the file opened for
    the check or what the intake read from the same bytes (`sheetstore`)."""

    data: bytes
    opened: TurnSheetFile | None = None
    read: SheetRead | None = None


def filed_problem(game: Game, filed: Filed, step: str) -> tuple[str, FiledSheet | None]:
    """Why a filed sheet must not be used (or ``""``), and the sheet as checked.

    A sheet in ``accepted/`` passed the intake, but the folder may have been touched since (a
    file copied in by hand, a sheet accepted by an older refassist, a disk error), so nothing
    is taken on trust: the bytes must be those the intake recorded, the file must pass the
    hostile-file checks, and its token must prove it is ``filed.player``'s sheet for ``step``.
    Bytes the intake recorded and read (`sheetstore.kept`) passed the hostile-file checks
    there: their read is taken, its hidden data checked again, and the file is not opened.
    """
    name = filed.path.name
    try:
        actual = sha256_file(filed.path)
    except OSError as exc:
        return f"the filed sheet {name} cannot be read ({exc.strerror or exc})", None
    if filed.sha256 and actual != filed.sha256:
        return (
            f"the filed sheet {name} was changed after it was accepted (it is not the file "
            "the intake checked)"
        ), None
    read = sheetstore.kept(game, actual) if filed.sha256 else None
    try:
        if read is not None:
            meta = dict(read.meta)
            verify_identity(game, meta, name)
            checked = FiledSheet(filed.path.read_bytes(), read=read)
        else:
            opened, _rules = open_genuine(filed.path, game)
            meta = opened.meta
            checked = FiledSheet(opened.data, opened=opened)
    except NotATurnSheet as exc:
        return str(exc), None
    except OSError as exc:
        return f"the filed sheet {name} cannot be read ({exc.strerror or exc})", None
    owner, for_step = meta.get("player", ""), meta.get("step", "")
    if owner != filed.player:
        return f"{name} is {owner}'s sheet, but it was filed as {filed.player}'s", None
    if for_step != step:
        return f"{name} is the sheet for {for_step}, not for {step}", None
    if hashlib.sha256(checked.data).hexdigest() != actual:
        # Changed between the two reads: the next resolve sees a stable file.
        return f"the filed sheet {name} changed while it was being read", None
    return "", checked


def read_filed(
    game: Game, state: Any, filed: Filed, step: str, house_rules: Mapping[str, Any], turn: int
) -> SheetOrders:
    """A filed sheet's orders as resolve uses them: `filed_problem`, then `read_orders`; a
    sheet that fails either gives no orders and an ``order_cancelled`` event saying why.
    The checker and the events speak the player's language (`Game.speaking_to`): what is
    cancelled is told to that player alone."""
    with game.speaking_to(filed.player):
        return _read_filed(game, state, filed, step, house_rules, turn)


def _read_filed(
    game: Game, state: Any, filed: Filed, step: str, house_rules: Mapping[str, Any], turn: int
) -> SheetOrders:
    reason, checked = filed_problem(game, filed, step)
    if reason or checked is None:
        why = said("the sheet was not used: {reason}", reason=reason)
        event = _cancel_event(turn, filed.player, filed.path.name, "", str(why))
        return SheetOrders(filed.player, None, [event])
    got = read_orders(
        game.ruleset,
        state,
        filed.player,
        filed.path,
        house_rules,
        turn,
        checked.opened,
        with_problems=filed.with_problems,
        read=checked.read,
    )
    return dataclasses.replace(got, data=checked.data)


def _filed_sheets(game: Game, step: str) -> list[Filed]:
    """Accepted sheets in the order they were received (ties by player name)."""
    sheets = accepted_sheets(game, step)
    received = accepted_received(game, step)
    recorded = Index.of(game, step).accepted
    floor = datetime.min.replace(tzinfo=UTC)
    order = sorted(sheets, key=lambda p: (received.get(p, floor), p))
    return [Filed(p, sheets[p], str(recorded.get(p, {}).get("sha256", ""))) for p in order]


# -- dice -----------------------------------------------------------------------------------------


def _dice_for(game: Game, turn: int, dice_file: Path | None) -> Dice:
    if dice_file is not None:
        return Dice.from_file(Path(dice_file), turn=turn)
    return Dice(seed=game_turn_seed(game.config, turn), turn=turn)


def dice_disclosure(
    game: Game,
    step: str,
    state: Any = None,
    recorded: dict[str, Any] | None = None,
    *,
    unsealed: bool = False,
) -> dict[str, Any]:
    """What a report prints about the dice: the resolved step's seed (now revealed) or the
    referee's dice file, and the commitment to the next step's seed.  ``recorded`` is the
    step's manifest when the caller has read it (the archive site reads every step's).

    A step whose dice drew a secret (its manifest's ``sealed``, `Dice.draws_secret`) keeps
    its seed out of what players read until ``state`` (the game as the reader gets it) has
    made every such secret public (`Ruleset.secret_public`) or is over: with the seed a
    player could replay the draw.  Without ``state`` it stays withheld.  ``unsealed`` adds
    the seeds of earlier steps whose secrets are public now (``published``).

    Keys: ``step``, ``label``, ``source`` (``seeded``/``sealed``/``file``/``""``), ``seed``,
    ``commitment``, ``secrets`` (what a sealed step drew), ``dice_file_sha256``,
    ``next_step``, ``next_label``, ``next_commitment``, ``published``.
    """
    out: dict[str, Any] = {"step": step, "source": ""}
    if step:
        m = recorded
        if m is None:
            try:
                m = manifest(game, step)
            except GameError:
                m = {}
        out["label"] = str(m.get("label") or step)
        if m.get("dice") == "file":
            out.update(source="file", dice_file_sha256=str(m.get("dice_sha256", "")))
        elif m:
            seed = _recorded_seed(game, step, m)
            out.update(source="seeded", seed=str(seed), commitment=seed_commitment(seed))
            secrets = [str(x) for x in m.get("sealed", ())]
            if secrets and not secrets_public(game, state, secrets):
                out.update(source="sealed", secrets=", ".join(secrets))
                del out["seed"]
    if state is not None and not game.ruleset.game_over(state):
        upcoming = commitment(game, state)
        out.update(
            next_step=upcoming.step,
            next_label=game.step(state).label,
            next_commitment=upcoming.sha256,
        )
    if unsealed and state is not None:
        out["published"] = [
            {
                "step": str(m["step"]),
                "label": str(m.get("label") or m["step"]),
                "seed": str(seed),
                "commitment": seed_commitment(seed),
            }
            for m in _manifests(game)
            if m.get("sealed") and m.get("step") != step and m.get("dice") != "file"
            if secrets_public(game, state, [str(x) for x in m["sealed"]])
            for seed in [_recorded_seed(game, str(m["step"]), m)]
        ]
    return out


def secrets_public(game: Game, state: Any, secrets: Iterable[str]) -> bool:
    """Whether every one of ``secrets`` is public in ``state`` (all are once the game is
    over; none is without a state to tell)."""
    if state is None:
        return False
    if game.ruleset.game_over(state):
        return True
    return all(game.ruleset.secret_public(state, s) for s in secrets)


def _recorded_seed(game: Game, step: str, m: Mapping[str, Any]) -> int:
    """The seed a step's dice came from, as its manifest records it (or, for an archive from
    before seeds were recorded, worked out as they were then)."""
    config = _archived_config(game, step)  # a damaged one leaves the dice unsaid
    seed = m.get("turn_seed")
    if seed is not None:
        return int(seed)
    scheme = str(m.get("seed_scheme") or LEGACY_SEED_SCHEME)
    turn = m.get("turn") or (int(step) if step.isdigit() else game.step_index(step))
    return game_turn_seed(config, int(turn), scheme)


def _archived_config(game: Game, step: str) -> GameConfig:
    path = game.archive(step) / CONFIG_NAME
    return load_config(path) if path.is_file() else game.config


# -- resolving ------------------------------------------------------------------------------------


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
    journal.set_aside(game.path, folder, "incomplete")


def _sent_name(game: Game, step: str, filed: Filed) -> str:
    """The name a sheet with problems was sent under (its stored copy has a stamped name)."""

    for entry in Index.of(game, step).entries:
        if entry.get("sha256") == filed.sha256 and entry.get("name"):
            return str(entry["name"])
    return filed.path.name


def sheets_went_out(game: Game, step: str, answered: bool) -> bool:
    """Whether the sheets of ``step`` reached the players: a mail of its outbox was sent by
    ``refassist send``, or (``answered``) a sheet or mail came in for it."""
    return answered or any(name.startswith("mail/") for name in read_sent(game.outbox(step)))


def check_ready(game: Game, step: Step, when: datetime) -> None:
    """Refuse to resolve ``step`` early: before its deadline (or, in a game without one, at
    all) while a player's sheet is missing or has problems.  Computer players never hold a
    turn up.  The refusal says who is missing and how to resolve anyway (``--now``), so a
    resolve typed twice by accident cannot play the next turn with nobody's orders.  Past the
    deadline, a step whose sheets never went out (`sheets_went_out`) is refused too: with the
    calendar behind, every deadline is past and resolve would otherwise play turn after turn
    with no sheets."""

    rows = sheet_states(game, step)
    waiting = waiting_for(rows)
    if not waiting:
        return
    deadline = game.deadline(step.key)
    if deadline is not None and when >= deadline.astimezone():
        answered = any(row.state not in ("missing", "computer") for row in rows)
        if sheets_went_out(game, step.key, answered):
            return
        raise GameError(
            f"{step.label} was not resolved: its deadline, {game.deadline_text(step.key)}, has "
            "passed, but its sheets never went out (no mail for it sent by refassist send, no "
            "sheet received). Nothing was changed; send the sheets (refassist report "
            f"{game.path} --mail, then refassist send {game.path}), or resolve anyway with: "
            f"refassist resolve {game.path} --now"
        )
    why = {
        "missing": "no sheet received",
        "problems": "its sheet has problems",
        "refused": "its sheet was refused",
        "late": "a late sheet waits for --accept-late",
    }
    who = ", ".join(f"{p.player} ({why.get(p.state, p.state)})" for p in waiting)
    anyway = f"refassist resolve {game.path} --now"
    if deadline is None:
        raise GameError(
            f"{step.label} was not resolved: this game has no deadline and the turn still waits "
            f"for {who}. Nothing was changed; to resolve anyway, run: {anyway}"
        )
    raise GameError(
        f"{step.label} was not resolved: its deadline is {game.deadline_text(step.key)} and the "
        f"turn still waits for {who}. Nothing was changed; wait for the deadline, or resolve "
        f"now with: {anyway}"
    )


def _sheets_to_use(
    game: Game, step: Step, rules: Mapping[str, Any]
) -> tuple[list[Filed], dict[str, str]]:
    """The sheets resolve reads, in the order received: every accepted sheet of a player the
    step expects, then (``carry-valid``) the newest sheet with problems of each player who has
    no accepted one.  Also returns, under ``no-orders``, the sheets with problems left unused
    (player -> the name it was sent as), so the player is told why nothing was carried out."""

    filed = [f for f in _filed_sheets(game, step.key) if f.player in step.expects]
    mode = game.ruleset.rules_with_defaults(rules).get(SHEETS_WITH_PROBLEMS, "carry-valid")
    folder = Index.of(game, step.key).folder
    unused: dict[str, str] = {}
    for player, entry in sorted(sheets_with_problems(game, step.key).items()):
        if player not in step.expects:
            continue
        if mode == "no-orders":
            unused[player] = str(entry.get("name", ""))
            continue
        path = folder / str(entry["file"])
        filed.append(Filed(player, path, str(entry.get("sha256", "")), with_problems=True))
    return filed, unused


def _not_used(game: Game, state: Any, turn: int, unused: Mapping[str, str]) -> None:
    """Tell each player whose sheet with problems was not used (``no-orders``) why, in place
    of the rules' "no orders were received" (something was received), in their language."""
    if not unused or not hasattr(state, "events"):
        return
    kept = [e for e in state.events if not (e.kind == "no_orders" and set(e.players) & set(unused))]
    notes = []
    for p, name in unused.items():
        with game.speaking_to(p):
            notes.append(problem_sheet_event(turn, p, name, used=False))
    state.events = [*notes, *kept]


def resolve_game(
    game: Game,
    *,
    dice_file: Path | None = None,
    now: datetime | None = None,
    force: bool = False,
    expected: str | None = None,
) -> TurnOutcome:
    """Resolve the game's current step with the filed sheets; see the module docstring.

    Before the deadline, with a sheet missing or with problems, it refuses (`check_ready`)
    unless ``force`` (the command's ``--now``).  ``expected``: the step the caller decided to
    resolve (`refassist watch`); a game at another step (moved on by hand since) is refused,
    checked under the game's lock."""
    if dice_file is not None and not Path(dice_file).is_file():
        raise UsageError(f"dice file {dice_file} not found")
    when = now or datetime.now(UTC)
    with working(game) as recovered:
        state = game.load_state()
        ruleset = game.ruleset
        over = ruleset.game_over(state)
        if over:
            raise GameError(f"the game is over: {over}")
        step = game.step(state)
        if expected is not None and step.key != expected:
            raise GameError(
                f"the game is at {step.key}, not {expected}: it moved on since {expected} was "
                "to be resolved; nothing was resolved"
            )
        if not force:
            check_ready(game, step, when)
        _check_archive_slot(game, step.key)
        turn = turn_of(game, step)
        rules = game.config.house_rules
        orders: dict[str, Any] = {}
        cancelled: list[Event] = []
        used: list[Filed] = []
        to_read, unused = _sheets_to_use(game, step, rules)
        for filed in to_read:
            got = read_filed(game, state, filed, step.key, rules, turn)
            if filed.with_problems and got.orders is not None:
                name = _sent_name(game, step.key, filed)
                with game.speaking_to(filed.player):
                    cancelled.append(problem_sheet_event(turn, filed.player, name, used=True))
            cancelled.extend(got.cancelled)
            used.append(dataclasses.replace(filed, data=got.data, understood=got.understood))
            if got.orders is not None:
                orders[filed.player] = got.orders
        dice = _dice_for(game, turn, dice_file)
        resolution = ruleset.resolve(state, orders, dice, rules)
        new_state = resolution.state
        _add_events(new_state, cancelled)
        _not_used(game, new_state, turn, unused)
        archive = _commit(
            game, step, new_state, used, dice_file, when, list(orders), turn, unused, dice.secrets
        )
        read_back = statestore.read_back(game)  # for the report run, while the sheets are written
        try:
            finished = ruleset.game_over(new_state)
            moved = "" if finished else settle_deadline(game, game.step(new_state).key, when)
            sheets = [] if finished else _next_sheets(game, step, new_state)
            journal.finish(game.path)
            next_step = game.step(new_state)
        finally:
            read_back()
    seeded = dice_file is None
    return TurnOutcome(
        step=step.key,
        label=step.label,
        next_step=next_step.key,
        summary=resolution.summary,
        archive=archive,
        sheets=sheets,
        with_orders=list(orders),
        without_orders=[p for p in step.expects if p not in orders],
        with_problems=[f.player for f in used if f.with_problems and f.player in orders],
        problems_unused=list(unused),
        cancelled=[e.text for e in cancelled if e.kind == "order_cancelled"],
        events=[*cancelled, *resolution.events],
        finished=finished,
        state=new_state,
        recovered=recovered,
        seed=dice.seed if seeded else None,
        commitment=seed_commitment(dice.seed) if seeded and dice.seed is not None else "",
        deadline_moved=moved,
    )


def _commit(
    game: Game,
    step: Step,
    new_state: Any,
    used: list[Filed],
    dice_file: Path | None,
    when: datetime,
    with_orders: list[str],
    turn: int,
    unused: Mapping[str, str] | None = None,
    sealed: Iterable[str] = (),
) -> Path:
    """Archive the old turn and put the new master in place, all or nothing (module docstring).

    Anything that fails before the new master is in place (a full disk, a read-only folder) is
    undone here, so the game folder is as it was and the turn can be resolved again.
    """
    staged = game.path / journal.STAGED_MASTER_NAME
    journal.clean_temporaries(game.path)  # left by a process killed before it wrote a journal
    try:
        old_sha = sha256_file(game.master_path)
        write_master(staged, game.ruleset, new_state, title=game.config.name)
        read = _check_written(game, step, staged)
        new_sha = sha256_file(staged)
        journal.begin(game.path, "resolve", step.key, old_master=old_sha, new_master=new_sha)
        archive = write_archive(
            game, step, used, dice_file, when, with_orders, turn=turn, unused=unused, sealed=sealed
        )
        journal.replace_file(staged, game.master_path)
    except UnreadableStep:
        _undo_commit(game, step.key)
        raise
    except (OSError, RefassistError) as exc:
        _undo_commit(game, step.key)
        raise GameError(
            f"{step.label} was not resolved: {os_detail(exc)}. Nothing was changed; free some "
            "disk space or make the game folder writable, then run refassist resolve again"
        ) from exc
    with contextlib.suppress(OSError, RefassistError):  # a cache: the next command reads
        statestore.keep_read(game, new_sha, read)
    return archive


class UnreadableStep(GameError):
    """A step resolved to a state whose master workbook the next command would refuse."""


def _check_written(game: Game, step: Step, staged: Path) -> Any:
    """Read the staged master back as the next command will (`statestore.read_written`),
    and ask the game for its next step, before it replaces the old master: a state the
    next command would refuse (a value out of its column's range, a broken reference) is
    a fault of the rules' code, and committing it would lock the game for good.  Returns the
    state read, which `_commit` keeps once the new master is in place, so the next command
    does not read the master again."""
    try:
        state = statestore.read_written(game, staged)
        game.step(state)
        return state
    except MasterWorkbookError as exc:
        cells = "\n".join(f"  - {p}" for p in exc.problems[:20])
        raise UnreadableStep(
            f"{step.label} was not resolved: the master workbook it would leave could not be "
            f"read back, so every later command would refuse the game:\n{cells}\n"
            "Nothing was changed (the old master is in place, nothing was archived). This is "
            f"a fault of the {game.ruleset.title} rules' code: report it with the game folder."
        ) from exc
    except RefassistError as exc:
        raise UnreadableStep(
            f"{step.label} was not resolved: the game it would leave cannot go on ({exc}). "
            "Nothing was changed (the old master is in place, nothing was archived). This is "
            f"a fault of the {game.ruleset.title} rules' code: report it with the game folder."
        ) from exc


def _undo_commit(game: Game, step: str) -> None:
    """Remove what a failed commit wrote (only its own files: the staged master, the new
    archive folder, the journal); best effort, the journal covers what cannot be removed."""
    current = sha256_file(game.master_path) if game.master_path.is_file() else ""
    entry = journal.pending(game.path)
    if entry is not None and current and current == entry.data.get("new_master"):
        return  # the new master is in place: the turn is resolved, keep everything
    with contextlib.suppress(OSError):
        (game.path / journal.STAGED_MASTER_NAME).unlink(missing_ok=True)
    folder = game.archive(step)
    if folder.exists():
        shutil.rmtree(folder, ignore_errors=True)
    journal.clean_temporaries(game.path)
    if not folder.exists():
        with contextlib.suppress(OSError):
            journal.finish(game.path)


def _next_sheets(game: Game, step: Step, state: Any) -> list[Path]:
    """The next step's sheets, written after the new master is in place."""
    try:
        return write_sheets(game, state)
    except (OSError, RefassistError) as exc:
        raise GameError(
            f"{step.label} was resolved and saved, but the next turn's sheets could not be "
            f"written ({os_detail(exc)}); free some disk space, then run: "
            f"refassist sheets {game.path}"
        ) from exc


def write_archive(
    game: Game,
    step: Step,
    sheets: list[Filed],
    dice_file: Path | None,
    when: datetime,
    with_orders: list[str],
    *,
    turn: int | None = None,
    unused: Mapping[str, str] | None = None,
    sealed: Iterable[str] = (),
) -> Path:
    """Copy what the step started from into ``archive/<step>/``; the manifest goes last.

    ``sealed``: the secrets the step's dice drew (`Dice.draws_secret`), whose seed the
    reports withhold until they are public (`dice_disclosure`)."""
    folder = game.archive(step.key)
    master = game.master_path
    write_bytes(folder / MASTER_NAME, master.read_bytes())
    write_bytes(folder / CONFIG_NAME, (game.path / CONFIG_NAME).read_bytes())
    files: dict[str, dict[str, str]] = {}
    for filed in sheets:
        data = filed.data if filed.data is not None else filed.path.read_bytes()
        target = folder / SHEETS_DIR / filed_filename(filed.player, data)
        write_bytes(target, data)
        files[filed.player] = {
            "file": f"{SHEETS_DIR}/{target.name}",
            "sha256": sha256_file(target),
            "filed_sha256": filed.sha256,
        }
        if filed.with_problems:
            files[filed.player]["with_problems"] = _sent_name(game, step.key, filed)
    understood = {f.player: list(f.understood) for f in sheets if f.understood}
    if turn is None:
        turn = turn_of(game, step)
    dice: dict[str, Any]
    if dice_file is not None:
        write_bytes(folder / DICE_NAME, Path(dice_file).read_bytes())
        dice = {
            "dice": "file",
            "dice_file": Path(dice_file).name,
            "dice_sha256": sha256_file(folder / DICE_NAME),
        }
    else:
        seed = game_turn_seed(game.config, turn)
        dice = {
            "dice": "seeded",
            "dice_file": "",
            "seed_scheme": SEED_SCHEME,
            "turn_seed": seed,
            "seed_commitment": seed_commitment(seed),
            "sealed": sorted(set(sealed)),
        }
    earlier = [m for m in _manifests(game) if m.get("step") != step.key]
    manifest = {
        "step": step.key,
        "label": step.label,
        # How a game said the label (`i18n.said`), so each reader reads it in his language.
        "label_say": said_as(step.label),
        # Whom the step waited for: the reports tell a player it did not wait for that no
        # sheet was due, never that none came.
        "expects": list(step.expects),
        "waits_for_referee": step.waits_for_referee,
        "sequence": len(earlier) + 1,
        "resolved_at": when.astimezone(UTC).replace(microsecond=0).isoformat(),
        "ruleset": game.ruleset.name,
        "refassist_version": __version__,
        "seed": game.config.seed,
        "turn": turn,
        **dice,
        "master_sha256": sha256_file(folder / MASTER_NAME),
        "config_sha256": sha256_file(folder / CONFIG_NAME),
        "sheets_in_received_order": [filed.player for filed in sheets],
        "orders_understood": understood,
        "sheets": files,
        "with_orders": with_orders,
        "sheets_with_problems_unused": dict(unused or {}),
    }
    write_text(folder / MANIFEST_NAME, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return folder


def _manifests(game: Game) -> list[dict[str, Any]]:
    """The manifests of every complete archive, in the order the steps were resolved."""
    out: list[dict[str, Any]] = []
    root = game.path / "archive"
    if not root.is_dir():
        return out
    for folder in root.iterdir():
        path = folder / MANIFEST_NAME
        if not path.is_file():
            continue
        out.append(read_record(path, "the archive is damaged"))
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
    return read_record(path, "the archive is damaged")


def manifest_or_empty(game: Game, step: str) -> dict[str, Any]:
    """The manifest of an archived step, or nothing when it is missing or damaged (a step
    archived before there were manifests, a hand-damaged file): for what does without it,
    the reports' sheet details and the archive site's labels."""
    try:
        return manifest(game, step)
    except GameError:
        return {}


def archived_steps(game: Game) -> list[str]:
    """Every completely archived step, in the order they were resolved."""
    return [str(m["step"]) for m in _manifests(game)]


# -- rollback -------------------------------------------------------------------------------------


#: The name, in ``rolled-back/<time>/``, of the master a rollback replaced.
REPLACED_MASTER_NAME = "master-replaced.xlsx"


@dataclass
class RollbackOutcome:
    step: str
    moved: list[str]
    moved_to: Path | None
    recovered: str = ""
    #: Where the outbox files of the undone steps went (None when there were none).
    outbox: Path | None = None


def rollback(game: Game, to_step: str, *, now: datetime | None = None) -> RollbackOutcome:
    """Make ``archive/<to_step>/master.xlsx`` the current master again.

    That step and every step resolved after it are moved (whole) to ``rolled-back/<time>/``
    in the game folder, with the master being replaced (``master-replaced.xlsx``), so the step
    can be resolved again with the same or corrected sheets; nothing is deleted.  The sheets
    filed for it stay in ``inbox/``.
    """
    with working(game) as recovered:
        wanted = manifest(game, to_step)
        source = game.archive(to_step) / MASTER_NAME
        if not source.is_file():
            raise GameError(f"archive/{to_step} has no {MASTER_NAME}; it cannot be restored")
        restored = read_master(source, game.ruleset)  # refuse a damaged archive first
        data = source.read_bytes()
        later = [
            str(m["step"])
            for m in _manifests(game)
            if int(m["sequence"]) >= int(wanted["sequence"])
        ]
        aside = unused(game.path / ASIDE_DIR / stamp(now))
        try:
            aside.mkdir(parents=True)
            if game.master_path.is_file():
                write_bytes(aside / REPLACED_MASTER_NAME, game.master_path.read_bytes())
            journal.begin(
                game.path,
                "rollback",
                to_step,
                master=sha256_file(source),
                moves=later,
                aside=aside.relative_to(game.path).as_posix(),
            )
            write_bytes(game.master_path, data)
        except (OSError, RefassistError) as exc:
            with contextlib.suppress(OSError):
                journal.finish(game.path)
            shutil.rmtree(aside, ignore_errors=True)
            raise GameError(
                f"the rollback to {to_step} failed: {os_detail(exc)}. Nothing was changed; "
                "free some disk space or make the game folder writable and try again"
            ) from exc
        try:
            moved = move_archives(game, later, aside)
        except OSError as exc:
            raise GameError(
                f"the rollback to {to_step} stopped half way ({os_detail(exc)}): master.xlsx is "
                "back, but not every later archive was moved aside; the next refassist command "
                "finishes it"
            ) from exc
        journal.finish(game.path)
        outbox_aside = set_aside_stale(game, restored, into=aside)
    return RollbackOutcome(
        step=to_step, moved=moved, moved_to=aside, recovered=recovered, outbox=outbox_aside
    )


# -- replay ---------------------------------------------------------------------------------------


@dataclass
class Replay:
    """A step resolved again from its archive: the state, and where its dice came from."""

    step: str
    state: Any
    json: dict[str, Any]
    dice: Dice
    source: str  # "seeded" or "file"


def replay(game: Game, step: str) -> Replay:
    """Re-resolve an archived step in memory from the archive alone.

    Uses its master, its sheets in the recorded order (checked again exactly as resolve checked
    them, against the settings of the time), its ``game.toml`` (seed, secret and house rules
    as they were) and its dice file, if the turn used one.
    """
    m = manifest(game, step)
    folder = game.archive(step)
    ruleset = game.ruleset
    state = read_master(folder / MASTER_NAME, ruleset)
    config = load_config(folder / CONFIG_NAME)
    then = Game(game.path, config, ruleset)
    rules = config.house_rules
    current = ruleset.current_step(state)
    turn = int(m["turn"]) if "turn" in m else turn_of(game, current)
    orders: dict[str, Any] = {}
    cancelled: list[Event] = []
    for player in m.get("sheets_in_received_order", []):
        info = m["sheets"][player]
        flagged = "with_problems" in info
        filed = Filed(
            player,
            folder / info["file"],
            str(info.get("filed_sha256") or ""),
            with_problems=flagged,
        )
        got = read_filed(then, state, filed, current.key, rules, turn)
        if flagged and got.orders is not None:
            name = str(info["with_problems"])
            with then.speaking_to(player):
                cancelled.append(problem_sheet_event(turn, player, name, used=True))
        cancelled.extend(got.cancelled)
        if got.orders is not None:
            orders[player] = got.orders
    if m.get("dice") == "file":
        dice = Dice.from_file(folder / DICE_NAME, turn=turn)
        source = "file"
    else:
        scheme = str(m.get("seed_scheme") or LEGACY_SEED_SCHEME)
        config.seed = int(m.get("seed", config.seed))
        dice = Dice(seed=game_turn_seed(config, turn, scheme), turn=turn)
        source = "seeded"
    resolution = ruleset.resolve(state, orders, dice, rules)
    _add_events(resolution.state, cancelled)
    _not_used(then, resolution.state, turn, dict(m.get("sheets_with_problems_unused", {})))
    return Replay(step, resolution.state, ruleset.to_json(resolution.state), dice, source)


def replay_step(game: Game, step: str) -> dict[str, Any]:
    """The JSON export of `replay`'s result; equal to `state_after` for a sound archive."""
    return replay(game, step).json


def after_master(game: Game, step: str) -> Path:
    """The master workbook that followed ``step``: the next archive's, or the current one."""
    steps = archived_steps(game)
    if step not in steps:
        manifest(game, step)  # raises with the list of archived steps
    index = steps.index(step)
    if index + 1 < len(steps):
        return game.archive(steps[index + 1]) / MASTER_NAME
    return game.master_path


def state_after(game: Game, step: str) -> dict[str, Any]:
    """The JSON export of the state that followed ``step``: the next archive's master, or the
    current master when ``step`` was the last one resolved."""
    return game.ruleset.to_json(read_master(after_master(game, step), game.ruleset))
