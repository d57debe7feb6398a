"""Pieces every command shares: the --db and --out options, clean errors, progress bars."""

from __future__ import annotations

import io
import os
import sqlite3
import sys
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from adjudicate.errors import InputError
from adjudicate.safe_text import visible
from db.errors import StoreError, UnknownName, storage_error
from graders.progress import Advance, Stage

USER_ERRORS = (InputError, StoreError)
DEBUG_VARIABLE = "ADJUDICATE_DEBUG"  # set it to see the traceback of an unexpected error

stderr = Console(stderr=True)

db_option = click.option(
    "--db", "db_path", required=True, envvar="ADJUDICATE_DB", show_envvar=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The adjudicate SQLite database (created on first import).",
)


class OutputPath(click.Path):
    """A file to write: refused while parsing, before any work, when its directory is missing
    or not writable, so a failed command writes nothing (and no bug report is asked for)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        path = Path(os.fsdecode(super().convert(value, param, ctx)))
        folder = path.parent
        if not folder.is_dir():
            what = "not a directory" if folder.exists() else "no directory"
            self.fail(f"cannot write {visible(str(path))}: {what} {visible(str(folder))}", param, ctx)
        if not os.access(folder, os.W_OK | os.X_OK):
            self.fail(f"cannot write {visible(str(path))}: directory {visible(str(folder))} "
                      "is not writable", param, ctx)
        return path


class OutputTarget(OutputPath):
    """A file or a directory to write (export's copies go into a directory): the same check
    of the folder it goes in."""

    def __init__(self) -> None:
        click.Path.__init__(self, path_type=Path)


def out_option(help_text: str = "Write to this file instead of standard output.") -> Any:
    """The --out option every command that writes a file shares."""
    return click.option("--out", type=OutputPath(), help=help_text)


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's commands by name, each command's module imported when it is first looked up,
    so a command starts without the others' modules (`grade` without the report, importers
    and review app: about half of its start-up)."""

    def __init__(self, where: Mapping[str, str]) -> None:
        self._where = dict(where)  # name -> "module:attribute"
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            module, _, attribute = self._where[name].partition(":")
            self._loaded[name] = getattr(import_module(module), attribute)
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._where.setdefault(name, "")
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._where[name]
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


class AdjudicateGroup(click.Group):
    """A group whose commands turn known errors into one line and a non-zero exit."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Commands in workflow order (import, grade, review, report), not alphabetically."""
        return list(self.commands)

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
        except UnknownName as exc:  # a misspelt --run or --benchmark: a bad parameter (exit 2)
            raise click.UsageError(visible(str(exc))) from None
        except USER_ERRORS as exc:
            raise click.ClickException(visible(str(exc))) from None
        except click.ClickException as exc:
            # it may quote a file name or a value; click declares the attribute Final
            exc.message = visible(exc.message)  # type: ignore[misc]
            raise
        except KeyboardInterrupt:
            stderr.print("Interrupted: everything committed so far is kept; rerun to continue.")
            sys.exit(130)
        except (click.exceptions.Abort, click.exceptions.Exit):
            raise
        except BrokenPipeError:
            # whoever read our output went away (`| head`): stop quietly, as other tools do
            _silence_stdout()
            sys.exit(141)
        except sqlite3.OperationalError as exc:  # a read-only file, a full disk: say so
            known = storage_error(exc, "the database (--db)")
            if known is None:
                _unexpected(exc)
            raise click.ClickException(visible(str(known))) from None
        except Exception as exc:
            _unexpected(exc)


def _unexpected(exc: Exception) -> None:
    """A bug of ours: one clear line, never a traceback (unless asked for with DEBUG_VARIABLE);
    the data is safe because every write is a committed transaction."""
    if os.environ.get(DEBUG_VARIABLE):
        raise exc
    stderr.print(
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


@contextmanager
def count_progress(description: str, total: int | None, *,
                   in_bytes: bool = False) -> Iterator[Progress]:
    """A transient progress bar over items, or over bytes read (hidden when stderr is not a
    terminal)."""
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(),
        DownloadColumn() if in_bytes else MofNCompleteColumn(),
        TimeElapsedColumn(), TimeRemainingColumn(), console=stderr, transient=True,
        disable=not stderr.is_terminal,
    )
    with progress:
        progress.add_task(description, total=total)
        yield progress


@contextmanager
def staged_progress(description: str) -> Iterator[tuple[Stage, Advance]]:
    """A progress bar driven by a pipeline's (on_stage, on_progress) callbacks: each stage
    restarts it with its own description and total."""
    with count_progress(description, None) as progress:
        task = progress.task_ids[0]

        def stage(what: str, total: int) -> None:
            progress.reset(task, total=total, description=what)

        yield stage, lambda n: progress.advance(task, n)
