"""`adjudicate queue --order sample --plan`: each run's effort table before (or while) reading."""

from __future__ import annotations

from collections.abc import Sequence

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text
from sqlite_utils import Database

from adjudicate.report import build_report
from adjudicate.report.model import Report
from adjudicate.report.source import (
    allocation_from_db,
    errata_from_db,
    records_from_db,
    sample_from_db,
)
from adjudicate.safe_text import json_text, visible


def plan_report(db: Database, runs: Sequence[str]) -> Report:
    """The report's reading summaries, as `adjudicate report` computes them (the effort does
    not rest on the bootstrap, so none is drawn)."""
    records = [r for r in records_from_db(db) if not runs or r.run in runs]
    return build_report(records, bootstrap=0, errata=errata_from_db(db),
                        sample=sample_from_db(db), allocation=allocation_from_db(db))


def plan_rows(report: Report) -> list[dict]:
    """One row per run: its allocation, queue, reads so far, the half-width they give (points)
    and `reading_effort`, the reads still needed for each half-width."""
    rows = []
    for run in report.runs:
        s = run.sample
        read = sum(r.read for r in s.strata) if s else run.queue.labeled
        rows.append({
            "run": run.run, "benchmark": run.benchmark,
            "allocation": s.allocation if s else allocation_from_report(report),
            "queued": run.queue.total, "read": read,
            "reading_effort": [{"half_width": e.half_width, "reads": e.reads}
                               for e in s.reading_effort] if s else
            [{"half_width": h, "reads": 0} for h in (5, 2, 1)],
            "reading_half_width": s.reading_half_width if s else 0.0,
        })
    return rows


def allocation_from_report(report: Report) -> str | None:
    """The allocation any partly read run names (a fully read run names none)."""
    return next((r.sample.allocation for r in report.runs if r.sample), None)


def print_plan(db: Database, runs: Sequence[str], fmt: str) -> None:
    """The effort table per run, as a table or one JSON object a run."""
    rows = plan_rows(plan_report(db, runs))
    if not rows:
        raise click.ClickException("no runs to plan: import and grade some first")
    if fmt == "jsonl":
        for row in rows:
            click.echo(json_text(row))
        return
    table = Table(title="Reads for a precision in the sample order (full-read interval, 95%)",
                  title_justify="left")
    for column in ("run", "queued", "read", "now", "±5 points", "±2 points", "±1 point"):
        table.add_column(column, justify="left" if column == "run" else "right")
    for row in rows:
        half = row["reading_half_width"]
        reads = [("–" if e["reads"] is None else f"{e['reads']:,} more")
                 for e in row["reading_effort"]]
        table.add_row(Text(visible(row["run"])), f"{row['queued']:,}", f"{row['read']:,}",
                      "–" if half is None else f"±{half:.1f}", *reads)
    console = Console(highlight=False)
    console.print(table)
    console.print(
        f"Allocation: {rows[0]['allocation'] or 'neyman'}. Before a stratum is read, half its "
        "replies are assumed to pass (p = 1/2, the widest); after, the share its reads show. "
        "'now' is what the reads so far give (before any: the bounds every unread reply "
        "wrong / right). –: out of reach while replies are skipped.", markup=False)
