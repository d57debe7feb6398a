"""The command group: commands loaded on first use, known errors as one line and an exit code.

`adjudicate --help` lists every command from a one-line summary kept beside its module's name,
so it imports none of them; a command imports its module (and only its) when it runs or shows
its own help.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, Mapping, MutableMapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

import click

from adjudicate.safe_text import visible

if TYPE_CHECKING:
    from rich.console import Console

DEBUG_VARIABLE = "ADJUDICATE_DEBUG"  # set it to see the traceback of an unexpected error


class LazyCommand(NamedTuple):
    """Where a command lives ("module:attribute") and the first sentence of its help."""

    where: str
    summary: str


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's commands by name, each command's module imported when it is first looked up,
    so a command starts without the others' modules (`grade` without the report, importers
    and review app: about half of its start-up)."""

    def __init__(self, where: Mapping[str, LazyCommand]) -> None:
        self._where = dict(where)
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            module, _, attribute = self._where[name].where.partition(":")
            self._loaded[name] = getattr(import_module(module), attribute)
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._where.setdefault(name, LazyCommand("", command.help or ""))
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._where[name]
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def listed(self, name: str) -> click.Command:
        """The command as `--help` lists it: itself once loaded, else a stand-in that carries
        only its name and summary (what the list shows), so listing imports nothing."""
        if name in self._loaded:
            return self._loaded[name]
        return click.Command(name, help=self._where[name].summary)


class AdjudicateGroup(click.Group):
    """A group whose commands turn known errors into one line and a non-zero exit."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Commands in workflow order (import, grade, review, report), not alphabetically."""
        return list(self.commands)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `--help`, as click writes it, from the summaries of commands
        not loaded yet (tests/cli/test_lazy_commands.py holds it equal to the loaded list)."""
        if not isinstance(self.commands, LazyCommands):
            super().format_commands(ctx, formatter)
            return
        commands = [(name, self.commands.listed(name)) for name in self.list_commands(ctx)]
        commands = [(name, command) for name, command in commands if not command.hidden]
        if not commands:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in commands)
        with formatter.section("Commands"):
            formatter.write_dl([(name, command.get_short_help_str(limit))
                                for name, command in commands])

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Refuse an argument that is not valid UTF-8 (the OS hands it over as lone surrogates,
        which no database or terminal accepts) before any command sees it."""
        for number, arg in enumerate(args, start=1):
            if any("\ud800" <= ch <= "\udfff" for ch in arg):
                raise click.UsageError(f"argument {number} ({visible(arg)!r}) is not valid UTF-8; "
                                       "rename the file or retype the value")
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            # it may quote a file name or a value; click declares the attribute Final
            exc.message = visible(exc.message)  # type: ignore[misc]
            raise
        except KeyboardInterrupt:
            _stderr().print("Interrupted: everything committed so far is kept; rerun to continue.")
            sys.exit(130)
        except (click.exceptions.Abort, click.exceptions.Exit):
            raise
        except BrokenPipeError:
            # whoever read our output went away (`| head`): stop quietly, as other tools do
            _silence_stdout()
            sys.exit(141)
        except Exception as exc:
            raise _as_click_error(exc) from None


def _as_click_error(exc: Exception) -> click.ClickException:
    """A known error as click's one line (a bad parameter: exit 2; bad input or a refused
    store operation: exit 1); anything else is a bug (`_unexpected` exits).
    The error types load here, after a command failed, not with `--help`."""
    import sqlite3

    from adjudicate.errors import InputError
    from db.errors import StoreError, UnknownName, storage_error

    if isinstance(exc, UnknownName):  # a misspelt --run or --benchmark
        return click.UsageError(visible(str(exc)))
    if isinstance(exc, (InputError, StoreError)):
        return click.ClickException(visible(str(exc)))
    if isinstance(exc, sqlite3.OperationalError):  # a read-only file, a full disk: say so
        known = storage_error(exc, "the database (--db)")
        if known is not None:
            return click.ClickException(visible(str(known)))
    _unexpected(exc)


def _stderr() -> Console:
    """The shared standard-error console (Rich is loaded only when something is said)."""
    from adjudicate.cli.console import stderr

    return stderr


def _unexpected(exc: Exception) -> NoReturn:
    """A bug of ours: one clear line, never a traceback (unless asked for with DEBUG_VARIABLE);
    the data is safe because every write is a committed transaction."""
    if os.environ.get(DEBUG_VARIABLE):
        raise exc
    _stderr().print(
        f"Error: unexpected {type(exc).__name__}: {visible(str(exc)[:300])}\n"
        "Everything committed so far is kept. This is a bug in adjudicate: rerun with "
        f"{DEBUG_VARIABLE}=1 to see the traceback, and report it.",
        markup=False, highlight=False)
    sys.exit(2)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush meets no closed pipe."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # not a real file descriptor (a test runner's capture)
