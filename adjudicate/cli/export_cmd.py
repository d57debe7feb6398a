"""`adjudicate export`: every reply with its verdicts, queue state and labels, for other tools."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from adjudicate.cli.common import count_progress, db_option, out_option
from adjudicate.exporting import write_csv, write_jsonl
from adjudicate.words import plural
from db.connection import open_db
from db.export import export_rows, grader_names, reply_count
from db.runs import require_runs


@click.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), default="jsonl",
              show_default=True, help="jsonl is nested and lossless; csv is flat.")
@out_option()
@click.option("--run", help="Only this run.")
@click.option("--no-text", is_flag=True, help="Leave out the reply text.")
def export(db_path: Path, fmt: str, out: Path | None, run: str | None, no_text: bool) -> None:
    """Export one row per reply: run, problem, sample, extraction, verdicts, queue, labels.

    \b
    Examples:
      adjudicate export --db evals.db --format csv --out evals.csv
      adjudicate export --db evals.db | jq -c 'select(.queued)'

    The JSONL export can be imported into another database that has the same problems
    (`adjudicate import export.jsonl --db other.db`); labels are not imported.
    """
    db = open_db(db_path, create=False)
    require_runs(db, [run] if run else [])
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
