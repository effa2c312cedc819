"""Turn sheets at the engine level: writing every player's sheet and checking one sheet.

Nothing here names a game.  `write_sheets` asks the game's ruleset to write one sheet per
player the current step waits for, signed with that player's token for that step, into
``outbox/<step>/``.  `check_sheet` opens a sheet safely (`workbook.sheetio`), finds its
ruleset from the sheet itself when no game is given, proves its identity against the game
(game id, player, step, token), and validates the orders against the game's state, so that
``refassist check``, the intake and the tests all judge a sheet the same way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from refassist.atomic import atomic_path
from refassist.errors import CellProblem, NotATurnSheet, RefassistError, UsageError
from refassist.processes import forked_map
from refassist.rulesets import Ruleset, find_ruleset
from refassist.store.game import Game
from refassist.store.outbox import record, state_mark
from refassist.text.i18n import said, speaking_to

if TYPE_CHECKING:
    from refassist.rulesets.base import SheetRead
    from refassist.workbook.sheetio import TurnSheetFile


def sheet_filename(player: str) -> str:
    """The file name of a player's sheet: the name itself (player names are file-safe)."""
    cleaned = "".join(ch if ch.isalnum() or ch in " .'-_" else "_" for ch in player).strip()
    return (cleaned.lstrip(".") or "player") + ".xlsx"


def filed_filename(player: str, data: bytes) -> str:
    """The name a player's sheet is filed and archived under: `sheet_filename`, ending as the
    format the player sent it in (an ``.ods`` stays ``.ods``: a spreadsheet program opens a file
    by its name, and resolve reads it by its bytes either way)."""
    from refassist.workbook.sheetio import sniff

    name = sheet_filename(player)
    return name.removesuffix(".xlsx") + ".ods" if sniff(data).kind == "ods" else name


def write_sheets(game: Game, state: Any, players: list[str] | None = None) -> list[Path]:
    """Write the pre-filled turn sheet of every player the current step expects.

    ``players`` limits the output to some of them (a player who lost the sheet).  Each file
    is written atomically to ``outbox/<step>/<player>.xlsx``; the caller holds the game lock.
    """
    step = game.step(state)
    wanted = list(step.expects)
    if players is not None:
        unknown = [p for p in players if p not in step.expects]
        if unknown:
            raise UsageError(
                f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not expected to "
                f"send a sheet for {step.key}; players expected: {', '.join(step.expects)}"
            )
        wanted = [p for p in step.expects if p in players]
    out = game.outbox(step.key)

    def write(player: str) -> Path:
        path = out / sheet_filename(player)
        words = game.words_for(player)
        # The sheet speaks its player's language (`i18n.current` in the game's writer).
        with atomic_path(path) as tmp, speaking_to(words.language, words.package):
            game.ruleset.write_sheet(
                state,
                player,
                tmp,
                game.token(player, step.key),
                game.deadline_text(step.key, words),
                game.config.house_rules,
            )
        return path

    # Each sheet is its own file: a turn's are written by two processes (or more) at once,
    # after the first, written here, has loaded what writing a sheet needs for them all.
    written = [write(p) for p in wanted[:1]] + forked_map(write, wanted[1:])
    if written:
        record(out, written, state_mark(game, state))
    return written


@dataclass
class CheckResult:
    """What checking one sheet found: its orders, problems, identity and the exit code.

    ``wrong_step`` is set when the sheet is a genuine sheet of this game for another step
    (``past`` when that step is over); such a sheet is not validated against the state.
    """

    path: Path
    ruleset: Ruleset
    meta: dict[str, str]
    orders: Any
    problems: list[CellProblem] = field(default_factory=list)
    orders_text: list[str] = field(default_factory=list)
    wrong_step: bool = False
    past: bool = False
    #: What the reader returned for a sheet validated against the game, and the SHA-256 of
    #: the bytes it read: the intake keeps them for resolve (`sheetstore`).
    read: SheetRead | None = field(default=None, repr=False)
    sha256: str = ""
    #: The language the checker spoke in: the sheet's player's (`check_sheet`), so whatever
    #: else is written for this result (the annotated copy) speaks it too.
    language: str = ""

    @property
    def player(self) -> str:
        return self.meta.get("player", "")

    @property
    def step(self) -> str:
        return self.meta.get("step", "")

    def __getstate__(self) -> dict[str, Any]:
        """A result sent between processes (the intake's checks made ahead) names its rules:
        the other side takes its own registered ruleset, whatever this one carries."""
        return {**self.__dict__, "ruleset": self.ruleset.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, ruleset=find_ruleset(state["ruleset"]))

    @property
    def errors(self) -> list[CellProblem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[CellProblem]:
        return [p for p in self.problems if p.severity != "error"]

    @property
    def accepted(self) -> bool:
        return not self.errors

    @property
    def exit_code(self) -> int:
        """0 accepted (warnings allowed), 1 problems; 2 is raised as `NotATurnSheet`."""
        return 0 if self.accepted else 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "ruleset": self.ruleset.name,
            "game_id": self.meta.get("game_id", ""),
            "player": self.player,
            "step": self.step,
            "status": "accepted" if self.accepted else "problems",
            "exit_code": self.exit_code,
            "orders": list(self.orders_text),
            "problems": [p.to_dict() for p in self.problems],
        }


def _ruleset_of(meta: dict[str, str], name: str) -> Ruleset:
    try:
        return find_ruleset(meta.get("ruleset", ""))
    except UsageError:
        raise NotATurnSheet(
            said(
                "{name} is a turn sheet for the game rules {rules}, which this refassist does "
                "not know",
                name=name,
                rules=repr(meta.get("ruleset")),
            )
        ) from None


def verify_identity(game: Game, meta: dict[str, str], name: str) -> None:
    """Refuse a sheet that is not this game's, or whose hidden data does not match its token."""
    if meta.get("ruleset") != game.ruleset.name:
        raise NotATurnSheet(
            said(
                "{name} is a sheet for {rules}, but {game} plays {played}; send the sheet of "
                "this game",
                name=name,
                rules=repr(meta.get("ruleset")),
                game=game.config.name,
                played=game.ruleset.name,
            )
        )
    if meta.get("game_id") != game.config.id:
        raise NotATurnSheet(
            said(
                "{name} belongs to another game ({other}), not to {game}; send the sheet of "
                "this game",
                name=name,
                other=repr(meta.get("game_name") or meta.get("game_id")),
                game=game.config.name,
            )
        )
    player = meta.get("player", "")
    signed = game.config.check_token(meta.get("token", ""), player, meta.get("step", ""))
    # A step that waits for the referee expects items, not players (a battle to settle): the
    # game's signature is what makes such a sheet genuine.
    if game.config.player(player) is None and not signed:
        raise NotATurnSheet(
            said(
                "{name} names the player {player}, who is not in {game}; send the sheet you "
                "were sent",
                name=name,
                player=repr(player),
                game=game.config.name,
            )
        )
    if not signed:
        raise NotATurnSheet(
            said(
                "{name} claims to be {player}'s sheet for {step} but its signature does not "
                "match (its hidden data was changed, or it was copied from another sheet); send "
                "the sheet you were sent",
                name=name,
                player=player,
                step=repr(meta.get("step")),
            )
        )


def orders_as_text(ruleset: Ruleset, orders: Any) -> tuple[str, ...]:
    """The orders as the referee understood them, one line each (`Ruleset.orders_text`), for
    the check's answer and the reports; a game failing to word them does not stop either."""
    try:
        return tuple(ruleset.orders_text(orders))
    except RefassistError as exc:
        return (f"(orders could not be shown: {exc})",)


def open_genuine(path: Path, game: Game | None = None) -> tuple[TurnSheetFile, Ruleset]:
    """The sheet at ``path`` opened through the hostile-file checks, the rules it names known
    to this refassist and, with a game, proved to be a genuine sheet of that game
    (`verify_identity`): the first step of every reading of a sheet, at intake, at
    ``refassist check`` and again when a filed sheet is resolved."""
    # The sheet reader (openpyxl) is loaded by the first sheet read, not by every command
    # that names sheets (a `refassist report` reads none).
    from refassist.workbook.sheetio import open_turn_sheet

    opened = open_turn_sheet(Path(path))
    ruleset = _ruleset_of(opened.meta, Path(path).name)
    if game is not None:
        verify_identity(game, opened.meta, Path(path).name)
    return opened, ruleset


def is_past_step(game: Game, step: str, current: str) -> bool:
    """Whether ``step`` is over: archived, or (numeric keys such as years) before ``current``."""
    if step and game.archive(step).is_dir():
        return True
    if step.isdigit() and current.isdigit():
        return int(step) < int(current)
    return False


def check_sheet(path: Path, game: Game | None = None, *, state: Any = None) -> CheckResult:
    """Check one turn sheet: read it and, with a game, prove its identity and validate it.

    Raises `NotATurnSheet` for a file that is not a usable turn sheet (or, with a game, not a
    genuine sheet of that game).  A genuine sheet for another step is reported as an error
    problem, not validated.  ``state`` saves loading the master workbook again when the caller
    has it.
    """
    path = Path(path)
    opened, ruleset = open_genuine(path, game)
    # What the checker says, it says in the sheet's player's language (`i18n.current`).
    player = opened.meta.get("player", "")
    if game is not None and game.config.player(player) is not None:
        language = game.language_of(player)
    else:
        language = opened.meta.get("language", "") or ruleset.language
    with speaking_to(language, ruleset.package):
        result = _check(path, opened, ruleset, game, state)
    result.language = language
    return result


def _check(
    path: Path, opened: TurnSheetFile, ruleset: Ruleset, game: Game | None, state: Any
) -> CheckResult:
    read = ruleset.read_sheet(path, opened)
    meta = dict(read.meta)
    result = CheckResult(
        path=path,
        ruleset=ruleset,
        meta=meta,
        orders=read.orders,
        problems=list(read.problems),
    )
    result.orders_text = list(orders_as_text(ruleset, read.orders))
    if game is None:
        return result
    if state is None:
        state = game.load_state()
    step = game.step(state)
    if result.step != step.key:
        result.wrong_step = True
        result.past = is_past_step(game, result.step, step.key)
        message = (
            said(
                "this is the sheet for {sheet} (an earlier turn); the game is waiting for "
                "orders for {step}",
                sheet=result.step,
                step=step.label,
            )
            if result.past
            else said(
                "this is the sheet for {sheet} (a later step); the game is waiting for orders "
                "for {step}",
                sheet=result.step,
                step=step.label,
            )
        )
        result.problems = [
            CellProblem(
                sheet=path.name,
                cell="",
                found=result.step,
                message=message,
                fix=said(
                    "Fill in the sheet for {step} that came with your last report.",
                    step=step.label,
                ),
            )
        ]
        return result
    if result.player not in step.expects:
        result.problems.insert(
            0,
            CellProblem(
                sheet=path.name,
                cell="",
                found=result.player,
                message=said(
                    "{player} is not expected to send orders for {step}",
                    player=result.player,
                    step=step.key,
                ),
                fix=said("Nothing to send this turn."),
            ),
        )
        return result
    result.read, result.sha256 = read, hashlib.sha256(opened.data).hexdigest()
    result.problems.extend(
        ruleset.validate(state, result.player, read.orders, game.config.house_rules)
    )
    return result
