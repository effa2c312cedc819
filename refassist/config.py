"""``game.toml``: a game's settings, players, house rules and schedule.

The referee may edit this file by hand; it is read with the standard library's ``tomllib`` and
checked, and every problem is one sentence naming the key.  It is written once, by
``refassist new``, with tomlkit so that each house rule carries its explanation as a comment.

What lives here and not in the master workbook: things a referee configures rather than
things that happen in play (ruleset, seed, secret for sheet tokens, e-mail addresses, house
rules, deadlines).
"""

from __future__ import annotations

import hmac
import re
import secrets
import tomllib
from dataclasses import dataclass, field, fields
from datetime import date, datetime, time, timedelta
from hashlib import sha256
from pathlib import Path
from typing import Any

import tomlkit

from .atomic import write_text
from .errors import GameError
from .text.i18n import LANGUAGES, language_code

EMAIL_RE = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")
#: The address a game has until the referee gives theirs: nothing is sent from it.
PLACEHOLDER_REFEREE_EMAIL = "referee@example.invalid"


@dataclass
class PlayerConfig:
    """A player's name and the e-mail addresses their sheets may come from."""

    name: str
    email: str
    aliases: list[str] = field(default_factory=list)
    computer: bool = False
    #: The language the player reads (``fr``); empty: the game's (`GameConfig.language`).
    language: str = ""

    def addresses(self) -> list[str]:
        return [a.lower() for a in [self.email, *self.aliases] if a]


@dataclass
class MailSettings:
    """``[mail]``: where the referee's mail is (server URLs without passwords, docs/mail.md)."""

    #: The folder turn mail arrives in, e.g. ``imaps://referee@mail.example.org/Turns``.
    imap: str = ""
    #: The server mail is sent through, e.g. ``smtps://referee@mail.example.org``.
    smtp: str = ""
    #: A certificate to trust for a self-hosted server (PEM), instead of the system's list.
    ca_file: str = ""
    #: IMAP folder filed messages are moved to; "" keeps them where they are, flagged.
    filed_folder: str = ""
    #: Refuse sheets whose sender failed the receiving server's SPF/DKIM/DMARC check
    #: (``Authentication-Results``); by default they are taken in and the result recorded.
    refuse_failed_authentication: bool = False


#: ``[watch] resolve``: what `refassist watch` does at a deadline.
WATCH_RESOLVE = ("ask", "auto")


@dataclass
class WatchSettings:
    """``[watch]``: what `refassist watch` does for this game (docs/watch.md).  Every key has a
    default, so a game without the table is watched the careful way: mail answered, players
    reminded a day ahead, the referee asked at the deadline."""

    #: Minutes between two rounds (mail fetched and answered, reminders, the deadline).
    every_minutes: int = 5
    #: Hours before the deadline each player without an accepted sheet is reminded, once;
    #: 0: no reminders.
    remind_before_hours: float = 24
    #: At the deadline: ``ask`` mails the referee the step's status and the command to run;
    #: ``auto`` resolves, writes the reports and the archive and sends them, unless something
    #: needs the referee (then it asks, saying why).
    resolve: str = "ask"
    #: Where the referee's mail goes; empty: ``[game] referee_email``.
    referee: str = ""


@dataclass
class GameConfig:
    """The contents of ``game.toml``."""

    name: str
    id: str
    ruleset: str
    seed: int
    secret: str
    players: list[PlayerConfig]
    house_rules: dict[str, Any] = field(default_factory=dict)
    map: str = ""
    #: The scenario file the game was created from (starting forces), for the record.
    scenario: str = ""
    first_deadline: datetime | None = None
    days_per_turn: int = 7
    deadlines: dict[str, datetime] = field(default_factory=dict)
    referee_email: str = PLACEHOLDER_REFEREE_EMAIL
    referee_name: str = ""
    mail: MailSettings = field(default_factory=MailSettings)
    watch: WatchSettings = field(default_factory=WatchSettings)
    #: The game's language for players who name none (empty: the ruleset's default).
    language: str = ""

    @property
    def sender_name(self) -> str:
        """The name mail from the referee carries: theirs, else "Referee of <game>"."""
        return self.referee_name or f"Referee of {self.name}"

    # -- tokens -------------------------------------------------------------------------------
    def token(self, player: str, step: str) -> str:
        """The per-player, per-step token written on a sheet (HMAC-SHA256 with the secret).

        A sheet carrying another player's or another turn's token is recognised, and a player
        cannot forge one without the secret, which never leaves ``game.toml``.
        """
        message = f"{self.id}|{player}|{step}".encode()
        return hmac.new(self.secret.encode(), message, sha256).hexdigest()[:32]

    def check_token(self, token: str, player: str, step: str) -> bool:
        return hmac.compare_digest(str(token), self.token(player, step))

    # -- players ------------------------------------------------------------------------------
    def player_for_address(self, address: str) -> PlayerConfig | None:
        address = address.strip().lower()
        for p in self.players:
            if address in p.addresses():
                return p
        return None

    def player(self, name: str) -> PlayerConfig | None:
        for p in self.players:
            if p.name == name:
                return p
        return None

    # -- schedule -----------------------------------------------------------------------------
    def deadline(self, step: str, step_index: int) -> datetime | None:
        """The deadline of a step: an explicit one from ``[schedule.deadlines]``, else the first
        deadline plus ``days_per_turn`` for each step after the first."""
        if step in self.deadlines:
            return self.deadlines[step]
        if self.first_deadline is None:
            return None
        return self.first_deadline + timedelta(days=self.days_per_turn * step_index)


def new_secret() -> str:
    return secrets.token_hex(16)


def _as_datetime(value: Any, key: str) -> datetime:
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, date):
        return datetime.combine(value, time(21, 0))
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    raise GameError(
        f"game.toml: {key} must be a date and time such as 2026-11-28T21:00, not {value!r}"
    )


def load_config(path: Path) -> GameConfig:
    """Read and check ``game.toml``."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GameError(f"{path} not found: is this a refassist game folder?") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError(f"cannot read {path}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise GameError(f"{path} is not valid TOML: {exc}") from exc
    except RecursionError:
        raise GameError(f"{path} is nested too deeply to be a game.toml") from None

    game = data.get("game")
    if not isinstance(game, dict):
        raise GameError(f"{path}: the [game] table is missing")
    for key in ("name", "id", "ruleset", "seed", "secret"):
        if key not in game:
            raise GameError(f"{path}: [game] {key} is missing")
    if not isinstance(game["seed"], int):
        raise GameError(f"{path}: [game] seed must be a whole number")
    players_raw = data.get("players")
    if not isinstance(players_raw, list) or not players_raw:
        raise GameError(f"{path}: no [[players]] entries")
    players = []
    for i, p in enumerate(players_raw, 1):
        if not isinstance(p, dict) or not p.get("name"):
            raise GameError(f"{path}: player {i} has no name")
        aliases = p.get("aliases", [])
        if not isinstance(aliases, list):
            raise GameError(f"{path}: aliases of {p['name']} must be a list of addresses")
        players.append(
            PlayerConfig(
                name=str(p["name"]),
                email=str(p.get("email", "")),
                aliases=[str(a) for a in aliases],
                computer=bool(p.get("computer", False)),
                language=_language(p.get("language", ""), f"{path}: language of {p['name']}"),
            )
        )
    schedule = data.get("schedule", {})
    first = schedule.get("first_deadline")
    deadlines = {
        str(k): _as_datetime(v, f"[schedule.deadlines] {k}")
        for k, v in schedule.get("deadlines", {}).items()
    }
    days = schedule.get("days_per_turn", 7)
    if not isinstance(days, int) or days < 0:
        raise GameError(f"{path}: [schedule] days_per_turn must be a whole number of days")
    house_rules = data.get("house_rules", {})
    if not isinstance(house_rules, dict):
        raise GameError(f"{path}: [house_rules] must be a table")
    return GameConfig(
        name=str(game["name"]),
        id=str(game["id"]),
        ruleset=str(game["ruleset"]),
        seed=int(game["seed"]),
        secret=str(game["secret"]),
        players=players,
        house_rules=dict(house_rules),
        map=str(game.get("map", "")),
        scenario=str(game.get("scenario", "")),
        first_deadline=_as_datetime(first, "[schedule] first_deadline") if first else None,
        days_per_turn=days,
        deadlines=deadlines,
        referee_email=str(game.get("referee_email", PLACEHOLDER_REFEREE_EMAIL)),
        referee_name=str(game.get("referee_name", "")),
        mail=_mail_settings(data.get("mail", {}), path),
        watch=_watch_settings(data.get("watch", {}), path),
        language=_language(game.get("language", ""), f"{path}: [game] language"),
    )


def _language(value: Any, where: str) -> str:
    """A language setting as its code (``fr``), or empty for none."""
    if value in ("", None):
        return ""
    code = language_code(str(value))
    if code is None:
        known = ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items())
        raise GameError(f"{where}: {value!r} is not a language refassist speaks ({known})")
    return code


def _mail_settings(raw: Any, path: Path) -> MailSettings:
    """``[mail]``, checked: strings where strings go, no password anywhere."""
    if not isinstance(raw, dict):
        raise GameError(f"{path}: [mail] must be a table")
    known = {f.name for f in fields(MailSettings)}
    for key, value in raw.items():
        if key not in known:
            hint = (
                "; passwords never go in game.toml (docs/mail.md says where they go)"
                if "pass" in key.lower() or "secret" in key.lower()
                else f"; known keys: {', '.join(sorted(known))}"
            )
            raise GameError(f"{path}: [mail] {key} is not a setting{hint}")
        expected = bool if key == "refuse_failed_authentication" else str
        if not isinstance(value, expected):
            kind = "true or false" if expected is bool else "a string"
            raise GameError(f"{path}: [mail] {key} must be {kind}")
    return MailSettings(**raw)


def _watch_settings(raw: Any, path: Path) -> WatchSettings:
    """``[watch]``, checked: each problem one sentence naming the key and what it takes."""
    if not isinstance(raw, dict):
        raise GameError(f"{path}: [watch] must be a table")
    known = {f.name for f in fields(WatchSettings)}
    for key in raw:
        if key not in known:
            raise GameError(
                f"{path}: [watch] {key} is not a setting; known keys: {', '.join(sorted(known))}"
            )
    every = raw.get("every_minutes", WatchSettings.every_minutes)
    if isinstance(every, bool) or not isinstance(every, int) or not 1 <= every <= 1440:
        raise GameError(
            f"{path}: [watch] every_minutes must be a whole number of minutes from 1 to 1440 "
            f"(a day), not {every!r}"
        )
    hours = raw.get("remind_before_hours", WatchSettings.remind_before_hours)
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 <= hours <= 720:
        raise GameError(
            f"{path}: [watch] remind_before_hours must be a number of hours from 0 (no "
            f"reminders) to 720, not {hours!r}"
        )
    resolve = raw.get("resolve", WatchSettings.resolve)
    if resolve not in WATCH_RESOLVE:
        raise GameError(
            f'{path}: [watch] resolve must be "ask" (mail the referee at the deadline) or '
            f'"auto" (resolve and send the reports), not {resolve!r}'
        )
    referee = raw.get("referee", "")
    if not isinstance(referee, str) or (referee and not EMAIL_RE.match(referee)):
        raise GameError(
            f"{path}: [watch] referee must be an e-mail address (or empty for [game] "
            f"referee_email), not {referee!r}"
        )
    return WatchSettings(int(every), float(hours), str(resolve), referee)


def render_config(config: GameConfig, house_rule_help: dict[str, str]) -> str:
    """``game.toml`` text with a comment on every house rule."""
    doc = tomlkit.document()
    doc.add(tomlkit.comment("refassist game settings. You may edit this file by hand;"))
    doc.add(tomlkit.comment("refassist checks it every time it runs."))
    doc.add(tomlkit.nl())
    game = tomlkit.table()
    game.add("name", config.name)
    game.add("id", config.id)
    game["id"].comment("identifies this game on turn sheets; do not change")
    game.add("ruleset", config.ruleset)
    game.add("seed", config.seed)
    game["seed"].comment("every turn's dice are derived from this seed and the turn")
    game.add("secret", config.secret)
    game["secret"].comment("signs turn sheets; keep it private")
    game.add("map", config.map)
    if config.scenario:
        game.add("scenario", config.scenario)
        game["scenario"].comment("the starting forces came from this file; for the record")
    game.add("referee_email", config.referee_email)
    game["referee_email"].comment("mail to players is sent from this address")
    game.add("referee_name", config.referee_name)
    if config.language:
        game.add("language", config.language)
        game["language"].comment("what players read, unless [[players]] language says otherwise")
    doc.add("game", game)

    mail = tomlkit.table()
    mail.add(tomlkit.comment("Your mail servers (docs/mail.md). No passwords here: they come"))
    mail.add(tomlkit.comment("from REFASSIST_IMAP_PASSWORD / REFASSIST_SMTP_PASSWORD, a file, or"))
    mail.add(tomlkit.comment("the system keyring."))
    settings = config.mail
    mail.add("imap", settings.imap)
    mail["imap"].comment("e.g. imaps://referee@mail.example.org/Turns")
    mail.add("smtp", settings.smtp)
    mail["smtp"].comment("e.g. smtps://referee@mail.example.org")
    mail.add("ca_file", settings.ca_file)
    mail["ca_file"].comment("a self-hosted server's certificate, if the system lacks it")
    mail.add("filed_folder", settings.filed_folder)
    mail["filed_folder"].comment("move filed turn mail to this IMAP folder (else flag it)")
    mail.add(tomlkit.comment("true: refuse sheets whose sender failed SPF/DKIM/DMARC at your"))
    mail.add(tomlkit.comment("server (its Authentication-Results); false: take them, record it"))
    mail.add("refuse_failed_authentication", settings.refuse_failed_authentication)
    doc.add("mail", mail)

    schedule = tomlkit.table()
    if config.first_deadline is not None:
        schedule.add("first_deadline", config.first_deadline)
    schedule.add("days_per_turn", config.days_per_turn)
    deadlines = tomlkit.table()
    for k, v in config.deadlines.items():
        deadlines.add(k, v)
    schedule.add(
        tomlkit.comment(
            "override one turn's deadline: [schedule.deadlines] 5003 = 2026-12-20T21:00:00"
        )
    )
    schedule.add("deadlines", deadlines)
    doc.add("schedule", schedule)

    rules = tomlkit.table()
    for key, value in config.house_rules.items():
        if key in house_rule_help:
            rules.add(tomlkit.comment(house_rule_help[key]))
        rules.add(key, value)
    doc.add("house_rules", rules)

    players = tomlkit.aot()
    for p in config.players:
        t = tomlkit.table()
        t.add("name", p.name)
        t.add("email", p.email)
        if p.aliases:
            t.add("aliases", p.aliases)
        if p.computer:
            t.add("computer", True)
        if p.language:
            t.add("language", p.language)
        players.append(t)
    doc.add("players", players)
    return tomlkit.dumps(doc)


def save_config(path: Path, config: GameConfig, house_rule_help: dict[str, str]) -> None:
    write_text(Path(path), render_config(config, house_rule_help))
