"""`adjudicate labels import|export`: labels in and out without the app."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from adjudicate.cli.common import db_option, out_option
from adjudicate.cli.group import AdjudicateGroup
from adjudicate.csv_safe import spreadsheet_row
from adjudicate.label_files import ReplyIndex, read_label_file
from adjudicate.safe_text import json_text, visible
from adjudicate.words import plural, word
from db.connection import open_db
from db.label_io import (
    CURRENT_FIELDS,
    HISTORY_FIELDS,
    current_labels,
    label_history,
    reply_identities,
    write_labels,
)
from db.sample_order import current_order, in_sample_order
from graders.labels import LABELS


@click.group(cls=AdjudicateGroup)
def labels() -> None:
    """Import labels from a file, or export every reviewer's labels (and their history).

    \b
    Examples:
      adjudicate labels import reading.jsonl --db evals.db --reviewer ann
      adjudicate labels export --db evals.db --format csv > labels.csv
    """


@labels.command(name="import")
@click.argument("file", type=click.Path(path_type=Path))
@db_option
@click.option("--reviewer", help="Who gave the labels, for rows that do not name a reviewer.")
@click.option("--format", "fmt", type=click.Choice(("auto", "jsonl", "csv")), default="auto",
              show_default=True, help="auto: csv for .csv files, jsonl otherwise (.gz too).")
def import_labels(file: Path, db_path: Path, reviewer: str | None, fmt: str) -> None:
    """Record every row of FILE as a label event, all or nothing.

    Each row names a reply by run + task_id + sample_index (plus benchmark if a run answers two
    benchmarks with the same task id) or by reply_id, and gives a label of its kind
    (LABEL_NAMES), optionally a
    note, a reviewer, a status (labeled, skipped, or cleared for a note alone) and adjudicated
    (true for the final label over the reviewers'). The whole file is checked first: one bad row
    changes nothing and the error names its line and field. Labels and skips whose rows come in
    the recorded sample order within their stratum, reviewer by reviewer (as the first rows of
    `adjudicate queue --order sample` do), count as its random sample, as labels taken in the app
    in that order do.

    \b
    Example:
      adjudicate labels import first100.jsonl --db evals.db --reviewer ann
    """
    db = open_db(db_path, create=False)
    try:
        rows = read_label_file(file, ReplyIndex(reply_identities(db)), reviewer, fmt)
        order = current_order(db)
        taken = [(row.reply_id, row.reviewer) for row in rows
                 if not row.adjudicated and row.status in ("labeled", "skipped")]
        drawn = in_sample_order(db, taken) if order else set()
        events = write_labels(db, rows, order_id=order.id if order else None, drawn=drawn)
    finally:
        db.close()
    who = sorted({visible(row.reviewer) for row in rows})
    click.echo(f"Imported {plural(len(rows), 'row')} from {file} as {plural(events, 'label event')} "
               f"(reviewer{'s' if len(who) > 1 else ''} {', '.join(who)}).")
    if order is not None:
        sampled = sum(1 for row in taken if row in drawn)
        click.echo(f"{sampled:,} of the {len(taken):,} labels and skips "
                   f"{word(sampled, 'comes', 'come')} in the sample order "
                   "and count as its random sample"
                   + ("." if sampled == len(taken) else "; the rest (a stratum's rows out of "
                      "order, or replies the order does not rank) count as known labels only."))


# the help names every label of the registry (graders/labels.py), not a copy of the list
import_labels.help = (import_labels.help or "").replace("LABEL_NAMES", "; ".join(
    f"{kind}: {', '.join(LABELS.names_for(kind))}" for kind in LABELS.kinds()))


def _write(records: Iterable[dict[str, Any]], fields: tuple[str, ...], fmt: str) -> str:
    """JSONL (lossless, escapes a terminal could act on written as \\uXXXX) or CSV (text cells
    neutralised for spreadsheets, as every CSV adjudicate writes: adjudicate.csv_safe)."""
    if fmt == "jsonl":
        return "".join(json_text(r) + "\n" for r in records)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(fields)
    for record in records:
        writer.writerow(spreadsheet_row([
            "" if v is None else str(v).lower() if isinstance(v, bool) else v
            for v in (record[f] for f in fields)]))
    return buffer.getvalue()


@labels.command(name="export")
@db_option
@click.option("--format", "fmt", type=click.Choice(("jsonl", "csv")), default="jsonl",
              show_default=True, help="One row a label (jsonl: one object a line).")
@click.option("--history", is_flag=True,
              help="Every label event (label, skip, note, undo, adjudicate), oldest first, "
                   "instead of the current labels.")
@out_option()
def export_labels(db_path: Path, fmt: str, history: bool, out: Path | None) -> None:
    """Write every reviewer's current labels (and every adjudication), by reply.

    Rows carry run, benchmark, task_id and sample_index, so `labels import` reads them back
    into another database holding the same replies.

    \b
    Examples:
      adjudicate labels export --db evals.db > labels.jsonl
      adjudicate labels export --db evals.db --history --format csv --out history.csv
    """
    db = open_db(db_path, create=False)
    try:
        text = (_write(label_history(db), HISTORY_FIELDS, fmt) if history
                else _write(current_labels(db), CURRENT_FIELDS, fmt))
    finally:
        db.close()
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"Wrote {plural(text.count(chr(10)) - (fmt == 'csv'), 'row')} to {out}",
                   err=True)
