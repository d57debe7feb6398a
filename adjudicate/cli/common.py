"""Pieces every command shares: the --db and --out options, and progress bars."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from adjudicate.safe_text import visible

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn

    from graders.progress import Advance, Stage

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


def _bar(count: ProgressColumn) -> Progress:
    """A transient bar on standard error, its count shown by `count` (hidden off a terminal).
    Rich's progress module is loaded here, by the commands that show one, not at start-up."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from adjudicate.cli.console import stderr

    return Progress(TextColumn("{task.description}"), BarColumn(), count, TimeElapsedColumn(),
                    TimeRemainingColumn(), console=stderr, transient=True,
                    disable=not stderr.is_terminal)


@contextmanager
def count_progress(description: str, total: int | None, *,
                   in_bytes: bool = False) -> Iterator[Progress]:
    """A transient progress bar over items, or over bytes read (hidden when stderr is not a
    terminal)."""
    from rich.progress import DownloadColumn, MofNCompleteColumn

    progress = _bar(DownloadColumn() if in_bytes else MofNCompleteColumn())
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
