"""`adjudicate export`: every reply with its verdicts, queue state and labels, for other tools."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from adjudicate.cli.common import OutputTarget, count_progress, db_option
from adjudicate.exporting import write_csv, write_jsonl
from adjudicate.readback.copies import COPY_FORMATS, write_copies
from adjudicate.safe_text import visible
from adjudicate.words import plural
from db.connection import open_db
from db.export import export_rows, grader_names, reply_count
from db.runs import require_runs


@click.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv", *COPY_FORMATS]),
              default="jsonl", show_default=True,
              help="jsonl is nested and lossless; csv is flat; "
              + "; ".join(f"{name}: {about}" for name, (_, about) in COPY_FORMATS.items()) + ".")
@click.option("--out", type=OutputTarget(),
              help="Write to this file instead of standard output (the copy formats: into "
                   "this directory, created if missing).")
@click.option("--run", help="Only this run.")
@click.option("--no-text", is_flag=True, help="Leave out the reply text.")
@click.option("--as-score", "score", default="reading", show_default=True, metavar="NAME",
              help="Copy formats: the name of the added score, column or field.")
@click.option("--edit", metavar="SCORER",
              help="inspect: edit this scorer's scores where a person's reading differs "
                   "(a ScoreEdit with who and why) instead of adding a score.")
def export(db_path: Path, fmt: str, out: Path | None, run: str | None, no_text: bool,
           score: str, edit: str | None) -> None:
    """Export one row per reply: run, problem, sample, extraction, verdicts, queue, labels;
    or put the readings back into a copy of each file the runs were imported from.

    \b
    Examples:
      adjudicate export --db evals.db --format csv --out evals.csv
      adjudicate export --db evals.db | jq -c 'select(.queued)'
      adjudicate export --db evals.db --format inspect --out readings/
      adjudicate export --db evals.db --format inspect --out readings/ --edit match

    The JSONL export can be imported into another database that has the same problems
    (`adjudicate import export.jsonl --db other.db`); labels are not imported. The copy
    formats never write the original file: each copy goes into --out under its file's name.
    """
    db = open_db(db_path, readonly=True)  # a reader: it neither migrates nor writes
    require_runs(db, [run] if run else [])
    if fmt in COPY_FORMATS:
        if out is None:
            raise click.UsageError(f"--format {fmt} writes copies of files: name a directory "
                                   "with --out DIR")
        for copy in write_copies(db, db_path.name, fmt, out, run=run, score=score, edit=edit):
            for line in copy.lines():
                click.echo(visible(line), err=True)
        return
    if out is not None and out.is_dir():
        raise click.BadParameter(f"{visible(str(out))} is a directory; --format {fmt} writes "
                                 "one file", param_hint="'--out'")
    handle = open(out, "w", encoding="utf-8", newline="") if out else sys.stdout
    try:
        with count_progress("Exporting replies", reply_count(db, run)) as progress:
            task = progress.task_ids[0]
            rows = _advancing(export_rows(db, run=run, with_text=not no_text),
                              lambda: progress.advance(task, 1))
            count = write_jsonl(rows, handle) if fmt == "jsonl" else write_csv(
                rows, grader_names(db), handle
            )
    finally:
        if out:
            handle.close()
    if out:
        click.echo(f"Wrote {plural(count, 'reply')} to {out}", err=True)


def _advancing(rows: Iterator[dict[str, Any]], tick: Callable[[], None]) -> Iterator[dict[str, Any]]:
    """Pass rows through, ticking the progress bar for each."""
    for row in rows:
        yield row
        tick()
