"""`Watcher`: the referee's week run by itself, one round (`Watcher.tick`) at a time.

A round, for each game, in this order (each part the existing command's own code):

1. an auto-resolve a killed round left half-way is finished (reports written, then sent);
2. the turn mail waiting in ``[mail] imap`` is filed (`intake_imap`: each sheet once, each
   message marked once filed) and every reply waiting is sent (`send_waiting`: each once);
3. from ``remind_before_hours`` before the deadline, each player without an accepted sheet
   gets one reminder saying what is missing or wrong (`notices.write_reminder`);
4. at the deadline, ``resolve = "ask"`` mails the referee the step's status and the commands
   to run, once; ``resolve = "auto"`` resolves (`turns.resolve_game`), writes the reports and
   the archive (`write_reports`) and sends the reports, unless something needs the referee
   (`needs_referee`), and then asks, saying why.

What watch decided is a file before anything is sent: a reminder or the referee's mail is an
``.eml`` in ``outbox/<step>/watch/`` (`notices`), an auto-resolve is ``watch/auto.json``
written before resolving (`AUTO_NAME`); what was sent is the step's ``.sent.json``.  A watch
killed anywhere finds them at its next round and carries on: nothing lost, nothing twice.

A mail server that fails is tried again with pauses (`retry.attempts`); a round whose intake
failed does nothing that depends on the mail (no reminder, nothing at the deadline), and the
next round tries again.  An error in one game never stops the others, nor the loop.
"""

from __future__ import annotations

import json
import threading
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from refassist.atomic import read_record, write_text
from refassist.demo import file_computer_orders
from refassist.errors import GameError, RefassistError, UsageError
from refassist.intake.imap_intake import intake_imap
from refassist.mail.mailserver import ServerURL, parse_server
from refassist.mail.sending import (
    SendResult,
    configured_ca_file,
    outgoing,
    read_sent,
    require_referee_address,
    send_waiting,
)
from refassist.report.game_reports import write_reports
from refassist.rulesets.base import SHEETS_WITH_PROBLEMS, Step
from refassist.store.game import Game
from refassist.store.inbox_index import Index, PlayerStatus, sheet_states, waiting_for
from refassist.store.outbox import archived_before, stale_files
from refassist.store.recovery import working
from refassist.text.i18n import again
from refassist.turns import check_ready, resolve_game, sheets_went_out
from refassist.watch.log import WATCH_FOLDER, WatchLog, iso
from refassist.watch.notices import (
    ask_path,
    referee_words,
    watch_folder,
    write_ask,
    write_reminder,
)
from refassist.watch.page import write_watch_page
from refassist.watch.retry import GaveUp, attempts

#: The record of an auto-resolve, written before it starts: ``outbox/<step>/watch/auto.json``.
AUTO_NAME = "auto.json"
#: The replies waiting unsent when watch first watched a step (`Round.note_replies_before`).
BEFORE_NAME = "replies-before.json"
LOCK_NAME = ".watch.lock"
#: Seconds waited before each new attempt at a mail server within one round.
PAUSES = (5.0, 30.0)


def clock_from(text: str) -> datetime:
    """A ``--now`` or ``REFASSIST_NOW`` time (ISO 8601).  One that names no zone is the
    machine's local time, as game.toml's deadlines are: ``--now 2026-12-05T21:05`` is the
    moment a deadline written ``2026-12-05 21:05`` falls."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"{text!r} is not a time; give one such as 2026-12-05T21:05 or 2026-12-05T21:05+01:00"
        ) from None
    return moment if moment.tzinfo else moment.astimezone()


def find_games(paths: Iterable[Path]) -> list[Path]:
    """The game folders named: each path a game (it holds ``game.toml``) or a folder whose
    sub-folders are games (every one of them, by name)."""
    found: list[Path] = []
    for path in paths:
        if (path / "game.toml").is_file():
            found.append(path)
            continue
        if not path.is_dir():
            raise UsageError(f"{path} is not a game folder nor a folder of games")
        inside = sorted(p for p in path.iterdir() if (p / "game.toml").is_file())
        if not inside:
            raise UsageError(f"{path} holds no game (no game.toml in it or in its sub-folders)")
        found += inside
    return list(dict.fromkeys(p.resolve() for p in found))


@dataclass(frozen=True)
class MailPlan:
    """Where a game's mail comes from and goes through (``[mail]`` of ``game.toml``)."""

    imap: ServerURL
    smtp: ServerURL
    ca_file: Path | None
    filed_folder: str


def mail_plan(game: Game) -> MailPlan:
    """The game's servers, checked: a clear error for what is not set, before any round."""
    mail = game.config.mail
    missing = [key for key in ("imap", "smtp") if not getattr(mail, key)]
    if missing:
        raise UsageError(
            f"{game.path.name}: refassist watch needs [mail] {' and '.join(missing)} in "
            "game.toml (the folder turn mail arrives in and the server to send through; "
            "docs/mail.md)"
        )
    require_referee_address(game.config)
    return MailPlan(
        parse_server(mail.imap, "imap", "[mail] imap"),
        parse_server(mail.smtp, "smtp", "[mail] smtp"),
        configured_ca_file(game),
        mail.filed_folder,
    )


# -- what watch decided -----------------------------------------------------------------------


def read_intent(game: Game, step: str) -> dict[str, Any] | None:
    path = watch_folder(game, step) / AUTO_NAME
    if not path.is_file():
        return None
    data = read_record(path, "it records watch's resolve of this step; delete it to decide again")
    return data if isinstance(data, dict) else None


def write_intent(game: Game, step: str, intent: dict[str, Any]) -> None:
    path = watch_folder(game, step) / AUTO_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(intent, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def intents(game: Game) -> list[tuple[str, dict[str, Any]]]:
    """Every auto-resolve watch decided, by step (few: one a step)."""
    root = game.path / "outbox"
    out = []
    for path in sorted(root.glob(f"*/{WATCH_FOLDER}/{AUTO_NAME}")):
        step = path.parent.parent.name
        intent = read_intent(game, step)
        if intent is not None:
            out.append((step, intent))
    return out


# -- the referee's part -----------------------------------------------------------------------


def needs_referee(game: Game, step: Step, state: Any, rows: Sequence[PlayerStatus]) -> list[str]:
    """Why ``resolve = "auto"`` must leave this deadline to the referee, in the referee's
    words (empty: nothing does).  Each is found the way the commands find it: the step waits
    for the referee (a battle fought on the table, `Step.waits_for_referee`); a player without
    an accepted sheet under the ``no-orders`` house rule; a late sheet waiting to be accepted
    or not; ``master.xlsx`` changed by hand since the step's sheets were written
    (`outbox.stale_files`)."""
    w = referee_words(game)
    label = again(step.label, w)
    reasons = []
    if step.waits_for_referee:
        reasons.append(
            w(
                "{step} waits for you: {items} to be settled on the table",
                step=label,
                items=", ".join(step.expects),
            )
        )
    rules = game.ruleset.rules_with_defaults(game.config.house_rules)
    without = [r.player for r in waiting_for(rows) if r.state in ("missing", "problems", "refused")]
    if without and not step.waits_for_referee and rules.get(SHEETS_WITH_PROBLEMS) == "no-orders":
        reasons.append(
            w(
                "under the house rule sheets_with_problems = no-orders, these players have no "
                "orders to carry out: {players}",
                players=", ".join(without),
            )
        )
    late = sorted(Index.of(game, step.key).late)
    if late:
        reasons.append(
            w(
                "a sheet that came after the deadline waits for you to accept it or not: {players}",
                players=", ".join(late),
            )
        )
    if any(item.step == step.key for item in stale_files(game, state)):
        reasons.append(
            w(
                "master.xlsx was changed by hand after the sheets of {step} were written",
                step=label,
            )
        )
    return reasons


def commands_for(game: Game, step: Step, now: datetime) -> list[str]:
    """The commands the referee runs to play the step: accept a late sheet, resolve (with
    ``--now`` when resolve would refuse without it), write and send the reports."""
    where = str(game.path)
    out = []
    if Index.of(game, step.key).late:
        out.append(f"refassist intake {where} --accept-late")
    try:
        check_ready(game, step, now)
        out.append(f"refassist resolve {where}")
    except GameError:
        out.append(f"refassist resolve {where} --now")
    out.append(f"refassist report {where} --smtp")
    return out


# -- one round --------------------------------------------------------------------------------


@dataclass
class Watcher:
    """Watches ``games`` (their folders): `tick` runs one round of each, `run` the loop."""

    games: list[Path]
    stop: threading.Event = field(default_factory=threading.Event)
    pauses: Sequence[float] = PAUSES
    #: Where each line of the log is also shown (the terminal, the systemd journal).
    echo: Callable[[str], None] | None = None
    #: How long to wait for a game's watch lock (another watch on the same game).
    lock_timeout: float = 10.0
    logs: dict[Path, WatchLog] = field(default_factory=dict)
    locks: dict[Path, FileLock] = field(default_factory=dict)
    #: The failure each server gave at its last try, by game and ``imap``/``smtp``, while it
    #: lasts.
    failing: dict[tuple[Path, str], str] = field(default_factory=dict)

    # -- locking ------------------------------------------------------------------------------
    def hold(self, path: Path) -> None:
        """Take the game's watch lock (kept until `release`): two watches of one game would
        each decide the same reminder."""
        if path in self.locks:
            return
        (path / WATCH_FOLDER).mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(path / WATCH_FOLDER / LOCK_NAME))
        try:
            lock.acquire(timeout=self.lock_timeout)
        except Timeout:
            raise UsageError(
                f"another refassist watch is watching {path} (lock {WATCH_FOLDER}/{LOCK_NAME}); "
                "stop it first, or leave the game to it"
            ) from None
        self.locks[path] = lock

    def release(self) -> None:
        for lock in self.locks.values():
            lock.release()
        self.locks.clear()

    def log_of(self, path: Path, now: datetime) -> WatchLog:
        log = self.logs.get(path)
        if log is None:
            log = self.logs[path] = WatchLog.open(path, now)
            log.echo = self._echo(path)
        return log

    def _echo(self, path: Path) -> Callable[[str], None] | None:
        if self.echo is None:
            return None
        echo = self.echo
        return lambda line: echo(f"{path.name}: {line}")

    # -- rounds -------------------------------------------------------------------------------
    def tick(self, now: datetime) -> None:
        """One round of every game at the time ``now``; an error in one is logged and the
        round goes on with the next."""
        for path in self.games:
            if self.stop.is_set():
                return
            log = self.log_of(path, now)
            before = log.lines
            try:
                self.hold(path)
                game = Game.open(path)
                try:
                    Round(self, game, log, now).run()
                finally:
                    if log.lines != before:
                        write_watch_page(game)  # the site's page of the log, as fresh as it
            except RefassistError as exc:
                log.add(now, "", "error", f"{exc}; the next round tries again")
            except Exception as exc:  # a bug must not end weeks of watching: say it, go on
                trace = traceback.format_exception_only(type(exc), exc)[-1].strip()
                log.add(now, "", "error", f"internal error ({trace}); the next round tries again")

    def every(self) -> float:
        """Seconds between rounds: the shortest ``[watch] every_minutes`` of the games."""
        minutes = []
        for path in self.games:
            try:
                minutes.append(Game.open(path).config.watch.every_minutes)
            except RefassistError:
                minutes.append(5)
        return 60.0 * min(minutes or [5])

    def run(self, clock: Callable[[], datetime]) -> None:
        """Round after round until `stop` is set (SIGTERM, SIGINT): a stop during a round
        ends it at the next part (what a part does, it finishes), one between rounds at
        once."""
        now = clock()
        for path in self.games:
            log = self.log_of(path, now)
            if not log.fresh:
                log.add(now, "", "started", f"watch started (every {self.every() / 60:g} min)")
        try:
            while not self.stop.is_set():
                self.tick(clock())
                self.stop.wait(self.every())
        finally:
            now = clock()
            for path in self.games:
                self.log_of(path, now).add(now, "", "stopped", "watch stopped")
            self.release()


class Round:
    """One round of one game (see the module docstring)."""

    def __init__(self, watcher: Watcher, game: Game, log: WatchLog, now: datetime) -> None:
        self.watcher = watcher
        self.game = game
        self.log = log
        self.now = now
        self.plan = mail_plan(game)
        self.settings = game.config.watch

    @property
    def stopping(self) -> bool:
        return self.watcher.stop.is_set()

    def run(self) -> None:
        with working(self.game) as recovered:  # an interrupted resolve or rollback first
            if recovered:
                self.log.add(self.now, "", "recovered", recovered)
        self.deliver_resolved()
        self.note()
        if self.stopping:
            return
        state = self.game.load_state()
        if self.game.ruleset.game_over(state):
            return
        steps = self.reply_steps()
        for key in steps:
            self.note_replies_before(key)
        mail_ok = self.take_mail()
        self.send_due(steps, "replies")
        self.note()
        if not mail_ok or self.stopping:
            return
        state = self.game.load_state()
        step = self.game.step(state)
        self.remind(step)
        self.note()
        if self.stopping:
            return
        self.at_deadline(step, state)
        self.note()

    # -- servers, tried again -----------------------------------------------------------------
    def with_retries(self, server: str, what: str, action: Callable[[], Any]) -> Any:
        """``action()`` tried again with pauses; None when it still fails.  An outage is said
        once: while the same failure comes back round after round, the log holds its first
        round's lines, and a line more when the server (``imap``, ``smtp``) works again."""
        failing = self.watcher.failing
        key = (self.game.path, server)

        def said(exc: BaseException, pause: float) -> None:
            if failing.get(key) != str(exc):
                self.log.add(self.now, "", "retry", f"{what}: {exc}; trying again in {pause:g} s")

        try:
            result = attempts(action, pauses=self.watcher.pauses, said=said, stop=self.watcher.stop)
        except GaveUp as gave:
            if not gave.stopped and failing.get(key) != str(gave.last):
                self.log.add(
                    self.now,
                    "",
                    "error",
                    f"{what}: {gave.last}; each round tries again (said once while it lasts)",
                )
            if not gave.stopped:
                failing[key] = str(gave.last)
            return None
        if failing.pop(key, None) is not None:
            self.log.add(self.now, "", "retry", f"{what}: works again")
        return result

    def take_mail(self) -> bool:
        """File the mail waiting in the IMAP folder; False when the server could not be read."""
        plan = self.plan
        report = self.with_retries(
            "imap",
            f"reading {plan.imap}",
            lambda: intake_imap(
                self.game, plan.imap, ca_file=plan.ca_file, filed_folder=plan.filed_folder
            ),
        )
        return report is not None

    def reply_steps(self) -> list[str]:
        """The steps whose replies may wait: the current one and the one just resolved (a
        round killed after filing, before sending, then the turn resolved)."""
        state = self.game.load_state()
        current = self.game.step(state).key
        return [*archived_before(self.game, current)[-1:], current]

    def note_replies_before(self, step: str) -> None:
        """At watch's first round of ``step``, before its intake: the replies already waiting
        unsent (``outbox/<step>/watch/replies-before.json``).  The referee wrote them (intake
        without ``--send``) and left them unsent on purpose; watch sends only the replies its
        own intake writes.  Written before the intake, so a round killed after filing still
        sends its own replies at the next round."""
        path = watch_folder(self.game, step) / BEFORE_NAME
        if path.is_file():
            return
        waiting = [
            i.name
            for i in outgoing(self.game, step)
            if i.name.startswith("replies/") and not i.held
        ]
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, json.dumps({"replies": waiting}, indent=2) + "\n")
        if waiting:
            self.log.add(
                self.now,
                step,
                "waiting",
                f"replies written before watch are left to you, unsent: {', '.join(waiting)} "
                f"(refassist send {self.game.path} sends them)",
                id=f"replies-before:{step}",
            )

    def replies_before(self, step: str) -> set[str]:
        path = watch_folder(self.game, step) / BEFORE_NAME
        if not path.is_file():
            return set()
        data = read_record(path, "it lists the replies watch leaves to you; delete it to send them")
        names = data.get("replies", []) if isinstance(data, dict) else []
        return {str(n) for n in names} if isinstance(names, list) else set()

    def send_due(self, steps: Iterable[str], folder: str) -> None:
        """Send what waits in ``outbox/<step>/<folder>/`` of each step, each message once
        (of the replies, those watch's intake wrote: not `replies_before`)."""
        plan = self.plan
        for step in steps:
            due = [i for i in outgoing(self.game, step) if i.name.startswith(f"{folder}/")]
            left = self.replies_before(step) if folder == "replies" else set()
            due = [i for i in due if not i.held and i.name not in left]
            if not due:
                continue

            def send(step: str = step, due: list[Any] = due) -> SendResult:
                return send_waiting(
                    self.game,
                    step,
                    plan.smtp,
                    only=[i.path for i in due],
                    ca_file=plan.ca_file,
                    now=self.now,
                )

            result = self.with_retries("smtp", f"sending through {plan.smtp}", send)
            for name in result.set_aside if result is not None else []:
                self.log.add(
                    self.now,
                    step,
                    "set-aside",
                    f"{name} no longer true (sheet accepted or deadline passed): set aside, "
                    "not sent",
                    id=f"set-aside:{step}/{name}",
                )
            for item, why in result.refused if result is not None else []:
                self.log.add(
                    self.now,
                    step,
                    "error",
                    f"the server refused {item.name}: {why} (it waits; sent when the server "
                    "takes it)",
                    id=f"refused:{step}/{item.name}",
                )

    # -- reminders ----------------------------------------------------------------------------
    def remind(self, step: Step) -> None:
        hours = self.settings.remind_before_hours
        deadline = self.game.deadline(step.key)
        if hours > 0 and deadline is not None and not step.waits_for_referee:
            due = deadline.astimezone()
            rows = sheet_states(self.game, step)
            # A step whose sheets never reached the players (none sent, none answered) has
            # nothing to remind of: the referee has not started it (`turns.sheets_went_out`).
            answered = any(row.state not in ("missing", "computer") for row in rows)
            went_out = sheets_went_out(self.game, step.key, answered)
            if went_out and due - timedelta(hours=hours) <= self.now < due:
                for row in waiting_for(rows):
                    write_reminder(self.game, step, row)
        self.send_due([step.key], "watch")

    # -- the deadline -------------------------------------------------------------------------
    def at_deadline(self, step: Step, state: Any) -> None:
        deadline = self.game.deadline(step.key)
        if deadline is None or self.now < deadline.astimezone():
            return
        intent = read_intent(self.game, step.key)
        if intent is not None and intent.get("resolved"):
            # Resolved by watch, and the game is back at it: the referee rolled it back to
            # play it again by hand.  Watch does not resolve it a second time.
            self.log.add(
                self.now,
                step.key,
                "waiting",
                f"{step.key} was rolled back after watch resolved it; it is left to you",
                id=f"rolled-back:{step.key}",
            )
        elif intent is not None and not intent.get("failed"):
            self.resolve(step, intent)  # decided by a round that stopped before it was done
        elif not ask_path(self.game, step.key).is_file():
            rows = sheet_states(self.game, step)
            reasons = []
            if self.settings.resolve == "auto":
                reasons = needs_referee(self.game, step, state, rows)
                if not reasons:
                    self.resolve(step, {"step": step.key, "decided": iso(self.now)})
                    return
            write_ask(
                self.game, step, rows, reasons, commands_for(self.game, step, self.now), self.now
            )
        self.send_due([step.key], "watch")

    def resolve(self, step: Step, intent: dict[str, Any]) -> None:
        """Resolve ``step`` (the decision recorded first), then write and send its reports."""
        write_intent(self.game, step.key, intent)
        file_computer_orders(self.game)
        try:
            outcome = resolve_game(self.game, now=self.now, expected=step.key)
        except RefassistError as exc:
            intent["failed"] = str(exc)
            write_intent(self.game, step.key, intent)
            w = referee_words(self.game)
            rows = sheet_states(self.game, step)
            reason = w("resolving failed: {error}", error=str(exc))
            commands = commands_for(self.game, step, self.now)
            write_ask(self.game, step, rows, [reason], commands, self.now)
            self.send_due([step.key], "watch")
            return
        intent.update(resolved=True, next=outcome.next_step, summary=outcome.summary)
        write_intent(self.game, step.key, intent)
        self.note()
        if not self.stopping:
            self.deliver(step.key, intent)

    def deliver_resolved(self) -> None:
        """Finish each auto-resolve a round left before its reports went out."""
        state = self.game.load_state()
        current = self.game.step(state).key
        for step, intent in intents(self.game):
            if intent.get("delivered") or intent.get("failed") or step == current:
                continue
            if not self.game.archive(step).is_dir():
                continue  # rolled back since: nothing of it to send
            if not intent.get("resolved"):
                intent.update(resolved=True, next=current)
                write_intent(self.game, step, intent)
            if intent.get("next") != current:
                # The referee played on by hand since (resolved the next step too): the
                # reports watch would write now are another step's; they are the referee's.
                self.log.add(
                    self.now,
                    step,
                    "waiting",
                    f"the game moved on to {current} by hand after watch resolved {step} "
                    f"(next {intent.get('next', '')}); its reports are left to you: refassist "
                    f"report {self.game.path} --smtp",
                    id=f"moved-on:{step}",
                )
                continue
            self.deliver(step, intent)

    def deliver(self, step: str, intent: dict[str, Any]) -> None:
        """Write the reports of the resolved ``step`` (and the archive site) once, then send
        their mail; recorded at each stage, so a stop between them picks up from there."""
        if not intent.get("reports"):
            run = write_reports(self.game, mail=True)
            intent.update(reports=True, mail_steps=[r.step for r in [*run.earlier, run]])
            write_intent(self.game, step, intent)
            self.note()
        if self.stopping:
            return
        steps = [str(s) for s in intent.get("mail_steps", [])]
        self.send_due(steps, "mail")
        waiting = [
            i
            for s in steps
            for i in outgoing(self.game, s)
            if i.name.startswith("mail/") and not i.held
        ]
        if not waiting:
            intent["delivered"] = True
            write_intent(self.game, step, intent)

    # -- the log ------------------------------------------------------------------------------
    def note(self) -> None:
        """Log what the records say was done and the log does not hold yet (`log`)."""
        since = _parse(self.log.since)
        state = self.game.load_state()
        current = self.game.step(state).key
        steps = [*archived_before(self.game, current)[-1:], current]
        done = intents(self.game)
        steps += [s for step, intent in done for s in [step, *intent.get("mail_steps", [])]]
        for step in dict.fromkeys(steps):
            self._note_filed(step, since)
            self._note_sent(step, since)
        for step, intent in done:
            if intent.get("resolved"):
                self.log.add(
                    self.now,
                    step,
                    "resolved",
                    f"resolved {step}: {intent.get('summary', '')}; next {intent.get('next', '')}",
                    id=f"resolved:{step}",
                )
            if intent.get("reports"):
                folders = ", ".join(f"outbox/{s}" for s in intent.get("mail_steps", []))
                self.log.add(
                    self.now,
                    step,
                    "reports",
                    f"reports, their mail and the archive site written ({folders})",
                    id=f"reports:{step}",
                )
            if intent.get("failed"):
                self.log.add(
                    self.now,
                    step,
                    "error",
                    f"resolving {step} failed: {intent['failed']}",
                    id=f"failed:{step}",
                )

    def _note_filed(self, step: str, since: datetime) -> None:
        index = Index.of(self.game, step)
        for number, entry in enumerate(index.entries):
            ident = f"filed:{step}:{number}"
            if self.log.known(ident) or _parse(str(entry.get("filed", ""))) < since:
                continue
            source = entry.get("source", {}) if isinstance(entry.get("source"), dict) else {}
            who = entry.get("player") or source.get("sender", "") or "?"
            self.log.add(
                self.now,
                step,
                "fetched",
                f"{who}: {entry.get('name', '')} {entry.get('status', '')} (arrived "
                f"{str(entry.get('received', ''))[:16].replace('T', ' ')})",
                id=ident,
            )

    def _note_sent(self, step: str, since: datetime) -> None:
        for name, record in sorted(
            read_sent(self.game.outbox(step)).items(), key=lambda kv: str(kv[1].get("sent", ""))
        ):
            ident = f"sent:{step}/{name}:{str(record.get('sha256', ''))[:12]}"
            if self.log.known(ident) or _parse(str(record.get("sent", ""))) < since:
                continue
            to = ", ".join(record.get("to", []))
            what, text = "sent", f"report mail {name} to {to}"
            if name.startswith("replies/"):
                what, text = "replied", f"reply {name} to {to}"
            elif name.startswith("watch/reminder-"):
                what, text = "reminded", f"reminder {name} to {to}"
            elif name.startswith("watch/"):
                what, text = "asked", f"the referee's mail {name} to {to}"
            self.log.add(self.now, step, what, text, id=ident)


def _parse(text: str) -> datetime:
    """A record's time; one that cannot be read counts as long ago."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
