"""`write_reports`: everything ``refassist report GAME`` does, as a library call.

For the state in the master workbook (the turn just resolved): each player's PDF in
``outbox/<step>/<player>.pdf`` beside the next turn's sheet, the referee's PDF
``outbox/<step>/referee.pdf``, optionally one ``.eml`` per player (and sending them), and the
archive index.  What the state does not hold comes from the game folder: the deadline
(``game.toml``), and the sheets the resolved turn used, read back through the ruleset so each
player sees the orders as the referee understood them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..archive.history import read_history
from ..archive.mapimage import ImageChild
from ..archive.site import chart_of, map_image_for, write_site
from ..errors import RefassistError
from ..mail.mailserver import parse_server
from ..mail.sending import SendResult, require_referee_address, send_waiting
from ..processes import default_workers
from ..rulesets.base import ReportInput
from ..store.game import MASTER_NAME, Game, step_sort_key
from ..store.outbox import record, set_aside_stale, state_mark, unreported_steps
from ..store.recovery import working
from ..text.i18n import words_for
from ..turns import dice_disclosure, manifest_or_empty
from ..typeset import flow, flowdoc
from ..typeset.render import template_dirs
from .build import (
    CACHE_DIR,
    REFEREE_FILE,
    Job,
    Progress,
    Rendered,
    RenderSettings,
    base_maps_for,
    check_players,
    common_context,
    render_jobs,
    report_filename,
)
from .mailing import Mailing, build_mailings
from .maps import MM_TO_PT, SECTOR_BOX_MM, SUBSECTOR_BOX_MM, page_key


@dataclass
class ReportRun:
    """What one run wrote: the step, its outbox folder, the reports, sheets, mail, index."""

    step: str
    folder: Path
    reports: list[Rendered]
    sheets: dict[str, Path] = field(default_factory=dict)
    mailings: list[Mailing] = field(default_factory=list)
    sent: int = 0
    #: What sending did (``smtp`` given): sent, refused by the server, held back.
    sending: SendResult | None = None
    index: Path | None = None
    #: Where stale outbox files were moved before writing (None when there were none).
    set_aside: Path | None = None
    #: The runs of earlier steps whose reports had never been written, oldest first
    #: (`unreported_steps`).
    earlier: list[ReportRun] = field(default_factory=list)
    #: The step whose results the reports tell, as the game names it (``Week 3``).
    resolved_label: str = ""


def resolved_step(game: Game, current: str) -> str:
    """The step whose events the state holds: the latest archived step before ``current``
    (``""`` before the first resolution)."""
    archive = game.path / "archive"
    now = step_sort_key(current)
    steps = (
        sorted(
            (p.name for p in archive.iterdir() if p.is_dir() and step_sort_key(p.name) < now),
            key=step_sort_key,
        )
        if archive.is_dir()
        else []
    )
    return steps[-1] if steps else ""


def _used_sheets(game: Game, step: str, players: Sequence[str]) -> dict[str, tuple[str, Path]]:
    """Each player's sheet for a resolved step and its status: the copy resolve archived
    (``archive/<step>/sheets/``), else the one filed in the inbox; late sheets the referee did
    not accept are reported as late."""
    from ..store.inbox_index import Index, accepted_sheets
    from ..store.turnsheets import sheet_filename

    out: dict[str, tuple[str, Path]] = {}
    archived = game.archive(step) / "sheets"
    accepted = accepted_sheets(game, step)
    late = Index.of(game, step).late
    recorded = manifest_or_empty(game, step)
    archived_sheets = recorded.get("sheets", {})
    flagged = {p for p, info in archived_sheets.items() if "with_problems" in info}
    unused = recorded.get("sheets_with_problems_unused", {})
    for player in players:
        # The manifest names the archived copy (``.ods`` for a sheet sent as one).
        file = str(archived_sheets.get(player, {}).get("file", "")) or sheet_filename(player)
        kept = archived / Path(file).name
        if kept.is_file():
            out[player] = ("with problems" if player in flagged else "accepted", kept)
        elif player in unused:
            out[player] = ("problems", game.inbox(step))
        elif player in accepted:
            out[player] = ("accepted", accepted[player])
        elif player in late:
            out[player] = ("late", game.inbox(step) / str(late[player].get("file", "")))
    return out


def _expected(game: Game, step: str, recorded: dict[str, Any], players: Sequence[str]) -> set[str]:
    """The players a resolved step waited for: as its archive recorded them, or, for an
    archive from before it did, from the state the step started from (every player when even
    that cannot be read)."""
    if "expects" in recorded:
        return {str(p) for p in recorded["expects"]}
    from ..workbook.master import read_master

    try:
        before = read_master(game.archive(step) / MASTER_NAME, game.ruleset)
        return set(game.ruleset.current_step(before).expects)
    except (RefassistError, OSError):
        return set(players)


def gather_input(game: Game, state: Any, players: Sequence[str]) -> ReportInput:
    """Deadline, orders as understood and sheet status for the reports of ``state``; a
    player the resolved step did not wait for is ``not due`` (never ``missing``)."""
    awaited = game.step(state)
    current = awaited.key
    step = resolved_step(game, current)
    orders: dict[str, tuple[str, ...]] = {}
    sheets: dict[str, str] = {}
    recorded = manifest_or_empty(game, step) if step else {}
    if step:
        # Resolve kept the orders as it understood them; archives from before it did are
        # read again.
        understood = recorded.get("orders_understood", {})
        for player, (status, path) in _used_sheets(game, step, players).items():
            sheets[player] = status
            if status not in ("accepted", "with problems"):
                continue
            if player in understood:
                orders[player] = tuple(understood[player])
                continue
            try:
                read = game.ruleset.read_sheet(path)
            except RefassistError as exc:
                orders[player] = (f"(the sheet {path.name} could not be read again: {exc})",)
                continue
            orders[player] = tuple(game.ruleset.orders_text(read.orders))
        due = _expected(game, step, recorded, players)
        for player in players:
            cfg = game.config.player(player)
            if player not in due:
                sheets.setdefault(player, "not due")
            sheets.setdefault(player, "computer" if cfg and cfg.computer else "missing")
    return ReportInput(
        step=step,
        deadline=game.deadline_text(current),
        orders=orders,
        sheets=sheets,
        house_rules=game.config.house_rules,
        dice=dice_disclosure(game, step, state, unsealed=True),
        languages={p: game.language_of(p) for p in players},
        deadlines={p: game.deadline_text(current, game.words_for(p)) for p in players},
        language=game.config.language or game.ruleset.language,
        step_label=str(recorded.get("label") or step),
        step_say=recorded.get("label_say"),
        step_by_referee=bool(recorded.get("waits_for_referee")),
        package=game.ruleset.package,
        awaited=None if game.ruleset.game_over(state) else awaited,
    )


def next_sheets(game: Game, state: Any, players: Sequence[str]) -> dict[str, Path]:
    """Each player's sheet for the next step beside the report, written if not there yet."""
    from ..store.turnsheets import sheet_filename, write_sheets

    step = game.step(state)
    folder = game.outbox(step.key)
    wanted = [p for p in players if p in step.expects]
    missing = [p for p in wanted if not (folder / sheet_filename(p)).exists()]
    if missing:
        write_sheets(game, state, missing)
    return {p: folder / sheet_filename(p) for p in wanted}


def _archived_state(game: Game, step: str) -> Any:
    """The state the game was in while it waited for ``step``: what that step started from."""
    from ..workbook.master import read_master

    return read_master(game.archive(step) / MASTER_NAME, game.ruleset)


def write_reports(
    game: Game,
    *,
    players: Sequence[str] | None = None,
    referee: bool | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
    mail: bool = False,
    smtp: str | None = None,
    fast: bool = True,
    sheets: bool = True,
    state: Any = None,
) -> ReportRun:
    """Write the reports of the current state (see the module docstring), after those of the
    earlier steps never written (`unreported_steps`: each into its own outbox folder, in
    ``ReportRun.earlier``), so no step's events go untold.

    ``players`` limits the run to some players (then the referee's report is skipped unless
    ``referee=True``); ``jobs`` is the number of processes (default: the machine's cores, at
    most 4); ``smtp`` (a server URL, `mailserver.parse_server`) sends the mail through
    `sending.send_waiting` and implies ``mail``.
    """
    server = parse_server(smtp, "smtp", "--smtp") if smtp else None
    if server is not None:
        require_referee_address(game.config)
    ruleset = game.ruleset
    with working(game):
        if state is None:
            state = game.load_state()
        everyone = ruleset.players(state)
        wanted = list(players) if players else list(everyone)
        check_players(everyone, wanted)
        if referee is None:
            referee = not players
        step = game.step(state).key
        # What the files are made from, worked out once (the whole state as JSON, hashed).
        mark = state_mark(game, state)
        run_aside = set_aside_stale(game, state, mark=mark)
        history = read_history(game, state)
        workers = default_workers() if jobs is None else max(1, jobs)
        # Earlier steps and the current one are written alike; only the state, the readers,
        # the next sheets and the archive's image differ.
        write_one = functools.partial(
            _write_step,
            game,
            referee=referee,
            history=history,
            workers=workers,
            progress=progress,
            mail=mail or bool(smtp),
            fast=fast,
        )
        earlier = []
        for owed in unreported_steps(game, step):
            before = _archived_state(game, owed)
            readers = [p for p in wanted if p in ruleset.players(before)]
            done, _ = write_one(before, readers, sheets=False, image=False)
            earlier.append(done)
        run, child = write_one(state, wanted, sheets=sheets, image=referee, mark=mark)
        run.set_aside = run_aside
        run.earlier = earlier
        run.index = write_site(game, history, started=child)
    if server is not None:
        for done in earlier:
            done.sending = send_waiting(
                game, done.step, server, only=[m.path for m in done.mailings]
            )
            done.sent = len(done.sending.sent)
        run.sending = send_waiting(game, step, server, only=[m.path for m in run.mailings])
        run.sent = len(run.sending.sent)
    return run


def _write_step(
    game: Game,
    state: Any,
    wanted: Sequence[str],
    *,
    referee: bool,
    history: Any,
    workers: int,
    progress: Progress | None,
    mail: bool,
    fast: bool,
    sheets: bool,
    image: bool,
    mark: str | None = None,
) -> tuple[ReportRun, ImageChild | None]:
    """The reports of ``state`` (the current one, or one the game was in while it waited for
    an earlier step) in the outbox folder of the step it waits for, their mail, and the next
    sheets (``sheets``); the child making the archive's image of the map (``image``), for
    `write_site` to wait for."""
    ruleset = game.ruleset
    everyone = ruleset.players(state)
    step = game.step(state).key
    folder = game.outbox(step)
    folder.mkdir(parents=True, exist_ok=True)
    info = gather_input(game, state, everyone)
    public = ruleset.report_map(state)
    dirs = tuple(template_dirs(game.path))
    settings = RenderSettings(dirs, public, game.path / CACHE_DIR, fast)
    report_jobs = [
        Job(p, ruleset.report_content(state, p, info, public), folder / report_filename(p))
        for p in wanted
    ]
    if referee:
        content = ruleset.report_content(state, None, info, public)
        # The standings over the whole game: the referee's alone (a player's report
        # shows only what the fog of war leaves that player).
        # In the referee's language, as the rest of the report.
        words = words_for(content.language, content.package)
        content.context["standings_chart"] = chart_of(history, "", words)
        report_jobs.append(Job(None, content, folder / REFEREE_FILE))
    if fast:
        _prewarm(settings, report_jobs)
    common = common_context(info)
    # The archive's image of the turn's map comes from the referee's report: its child
    # starts now (loading PDFium while the reports are written) and makes the image as
    # soon as that report is written (the first, in a pool), instead of after them all.
    made = map_image_for(game, history, step) if image else None
    child = ImageChild([made], held=True) if made is not None else None

    def written(done: int, total: int, label: str) -> None:
        if child is not None and label == "referee":
            child.release()
        if progress:
            progress(done, total, label)

    try:
        rendered = render_jobs(report_jobs, common, settings, workers=workers, progress=written)
    except BaseException:
        if child is not None:
            child.cancel()
        raise
    # A finished game has no next turn, so no sheet; otherwise resolve wrote them already
    # and only a missing one is written here.
    finished = bool(ruleset.game_over(state))
    written_sheets = next_sheets(game, state, wanted) if sheets and not finished else {}
    run = ReportRun(step, folder, rendered, written_sheets, resolved_label=info.step_label)
    if mail:
        addresses = {p.name: p.email for p in game.config.players}
        run.mailings = build_mailings(
            folder=folder,
            game_name=game.config.name,
            step=step,
            deadline=info.deadline,
            sender=game.config.referee_email,
            sender_name=game.config.sender_name,
            resolved=info.step,
            addresses=addresses,
            reports={r.reader: r.path for r in rendered if r.reader in wanted},
            sheets=written_sheets,
            readers={
                p: (game.words_for(p), game.deadline_text(step, game.words_for(p))) for p in wanted
            },
            names={p: _step_names(info, p) for p in wanted},
        )
    files = [r.path for r in rendered] + [m.path for m in run.mailings]
    record(folder, files, mark or state_mark(game, state))
    return run, child


def _step_names(info: ReportInput, player: str) -> tuple[str, str]:
    """The resolved step and the awaited one as ``player`` reads them, for the report mail
    (the game's names, in the player's language; never the folder keys); no awaited one once
    the game is over."""
    said = info.awaited_context(player)
    awaited = said["awaited"]
    return str(said["resolved_label"] or ""), str(awaited["label"] if awaited else "")


def _prewarm(settings: RenderSettings, jobs: Sequence[Job]) -> None:
    """Draw the shared base pages once, before the reports are split among processes, so
    every worker finds them (in its forked memory, or on disk) instead of drawing them; and
    put a small report together (`flowdoc.warm`) for the same reason."""
    if flow.usable(settings.dirs):
        flowdoc.warm()
    base = base_maps_for(settings)
    if base is None:
        return
    seen = set()
    for job in jobs:
        overlay = job.content.overlay
        if overlay is None:
            continue
        for key, size in [("sector", SECTOR_BOX_MM)] + [
            (page_key(letter), SUBSECTOR_BOX_MM) for letter in overlay.subsectors
        ]:
            marker = (key, overlay.owners)
            if marker not in seen:
                seen.add(marker)
                base.get(key, size[0] * MM_TO_PT, size[1] * MM_TO_PT, overlay.owners)


def report_player_names(game: Game, names: Sequence[str]) -> list[str]:
    """Players named on the command line, matched case-insensitively to the game's names."""
    return game.player_names(names)
