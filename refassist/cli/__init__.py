"""The ``refassist`` command: a thin layer over the library.

Each command parses its options, calls the library and prints; errors of the `RefassistError`
family become one clear line on stderr and the error's exit code (``--debug`` shows the
traceback as well).  Commands live in modules by area (`game_commands`, ...) and register
themselves on the `main` group; every command's docstring is its help, with an example.
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import Any

import click

from ..errors import RefassistError

#: Spaces French typography puts before « : ; ? ! » and inside guillemets: harmless, printed
#: as they are (Python counts them unprintable, being spaces other than " ").
_TYPOGRAPHIC_SPACES = frozenset("\u00a0\u202f")


def printable(text: str) -> str:
    """Text safe to print on the referee's terminal: control and direction-changing characters
    (which a hostile file name or sheet could carry) are shown escaped, not obeyed."""
    return "".join(
        ch if ch.isprintable() or ch in _TYPOGRAPHIC_SPACES else _escaped(ch) for ch in text
    )


def _escaped(ch: str) -> str:
    return ch.encode("unicode_escape").decode()


def shown(path: Path) -> str:
    """A path as the referee typed it, or relative to the current folder when it is inside
    it (output stays short and can be pasted into the next command)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def error_text(exc: RefassistError) -> str:
    """An error as the CLI prints it: one line, or for a workbook with several problems, a
    headline followed by one line per problem."""
    if getattr(exc, "problems", None):
        return "\n".join(printable(line.rstrip()) for line in str(exc).splitlines() if line.strip())
    return printable(" ".join(str(exc).split()))


def stdout_gone() -> None:
    """Standard output was a pipe that closed: send the rest of the output nowhere, so that
    long work (a demo) can go on and Python does not complain when it exits."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


class _Group(click.Group):
    """Turns library errors into one line and an exit code instead of a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RefassistError as exc:
            if ctx.obj and ctx.obj.get("debug"):
                traceback.print_exc()
            click.echo(f"error: {error_text(exc)}", err=True)
            sys.exit(exc.exit_code)
        except BrokenPipeError:
            # The output went to a pipe that closed (``refassist status GAME | head -1``):
            # the reader wanted no more.  Say nothing; 141 is what a shell reports for a
            # command ended by SIGPIPE (1 and 2 mean problems found here).
            stdout_gone()
            sys.exit(141)
        except OSError as exc:  # a write the library did not expect to fail: say which
            if ctx.obj and ctx.obj.get("debug"):
                traceback.print_exc()
            where = f" ({exc.filename})" if exc.filename else ""
            click.echo(
                printable(
                    f"error: {exc.strerror or exc}{where}; free some disk space or check "
                    "the folder's permissions, then run the command again"
                ),
                err=True,
            )
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("interrupted; nothing half-written was kept", err=True)
            sys.exit(130)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except Exception as exc:  # a bug: say so plainly, show the trace only with --debug
            if ctx.obj and ctx.obj.get("debug"):
                traceback.print_exc()
            else:
                click.echo(
                    f"error: internal error ({type(exc).__name__}: {exc}); "
                    "run again with --debug and report it",
                    err=True,
                )
            sys.exit(3)


#: Which module holds each command: a command's module (and what it imports: the intake and
#: the sheet reader, the report modules) is loaded only when that command runs, so
#: ``refassist report`` does not pay for the intake's imports nor ``refassist check`` for the
#: reports'.  `tests/test_cli_foundation.py` checks it against what the modules register.
COMMAND_MODULES = {
    "new": "game_commands",
    "export": "game_commands",
    "rulesets": "game_commands",
    "sheets": "sheet_commands",
    "check": "sheet_commands",
    "status": "sheet_commands",
    "intake": "intake_commands",
    "resolve": "turn_commands",
    "rollback": "turn_commands",
    "verify": "turn_commands",
    "demo": "turn_commands",
    "report": "report_commands",
    "send": "send_commands",
    "archive": "archive_commands",
    "watch": "watch_commands",
}


class _Commands(_Group):
    """The ``refassist`` group, whose commands are imported when they are looked up.

    ``commands`` is the whole table, every module imported (help, the tests); running one
    command imports its module only."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._known: dict[str, click.Command] = {}
        self._loaded: set[str] = set()
        super().__init__(*args, **kwargs)

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        for module in dict.fromkeys(COMMAND_MODULES.values()):
            self._load(module)
        return self._known

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._known = dict(value)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        name = name or cmd.name
        if name is None:
            raise TypeError("Command has no name.")
        self._known[name] = cmd

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self._known and cmd_name in COMMAND_MODULES:
            self._load(COMMAND_MODULES[cmd_name])
        return self._known.get(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.commands)

    def _load(self, module: str) -> None:
        if module not in self._loaded:
            self._loaded.add(module)
            __import__(f"{__name__}.{module}", fromlist=["register"]).register(self)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show a traceback when something goes wrong.")
@click.version_option(package_name="refassist")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """refassist: a referee's assistant for play-by-mail strategy wargames.

    Players fill in Excel turn sheets; refassist takes them in, checks them, resolves the
    turn with logged dice, keeps the master workbook and writes each player's PDF report.

    Start with:  refassist demo demo-game --players 6 --turns 12
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug
