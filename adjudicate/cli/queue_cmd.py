"""`adjudicate queue`: the queue in the order the review app would serve it, for scripts."""

from __future__ import annotations

import getpass
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from adjudicate.cli.common import db_option
from adjudicate.cli.console import stderr
from adjudicate.cli.queue_plan import print_plan
from adjudicate.cli.sample_options import prepare_sample, sample_options
from adjudicate.safe_text import json_text, visible
from adjudicate.sampling.allocation import sample_queue
from adjudicate.words import plural
from db.connection import open_db
from db.queue import QueueFilter, load_queue
from db.queue_listing import list_replies
from db.runs import require_runs
from db.sample_order import sample_slots


@click.command()
@db_option
@click.option("--run", "runs", multiple=True, metavar="NAME", help="Only this run (repeatable).")
@sample_options
@click.option("--reviewer", envvar="ADJUDICATE_REVIEWER", show_envvar=True,
              default=lambda: getpass.getuser(), show_default="your login name",
              help="Whose review order to list (it puts their unlabeled replies first).")
@click.option("--limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="Only the first N replies.")
@click.option("--format", "fmt", type=click.Choice(("table", "jsonl")), default="table",
              show_default=True, help="table for people; jsonl for scripts (one object a line).")
@click.option("--plan", is_flag=True,
              help="Instead of the queue, the effort table of each run: how many more reads "
                   "in the sample order give ±5, ±2 and ±1 points (needs --order sample).")
def queue(db_path: Path, runs: tuple[str, ...], order: str, allocation: str | None,
          seed: int | None, reshuffle: bool, audit: int | None, reviewer: str,
          limit: int | None, fmt: str, plan: bool) -> None:
    """List the queue in the order the review app serves it.

    --order sample records the sample order on first use (as `review --order sample` does), so
    a script can label the first N replies of it with `adjudicate labels import` and the report
    counts them as a random sample. jsonl rows hold position, reply_id, run, benchmark, task_id,
    sample_index, reason, stratum (fixed when the order ranks the reply), stratum_name (as the
    report names it), verdicts, labels and (in sample order) drawn.

    \b
    Examples:
      adjudicate queue --db evals.db --order sample --limit 100 --format jsonl > first100.jsonl
      adjudicate queue --db evals.db --run tora --order sample --audit 50
      adjudicate queue --db evals.db --order sample --plan
    """
    if plan and order != "sample":
        raise click.UsageError("--plan needs --order sample (it plans reading in that order)")
    db = open_db(db_path, create=False)
    try:
        require_runs(db, runs)
        for line in prepare_sample(db, order, seed, reshuffle, audit, allocation):
            stderr.print(line, markup=False, highlight=False)
        if plan:
            print_plan(db, runs, fmt)
            return
        flt = QueueFilter(runs=runs)
        rows = (sample_queue(db, reviewer, flt) if order == "sample"
                else load_queue(db, reviewer, flt))
        rows = rows[:limit] if limit is not None else rows
        listed = list_replies(db, [row.reply_id for row in rows])
        slots = sample_slots(db) if order == "sample" else {}
    finally:
        db.close()
    if fmt == "jsonl":
        for position, item in enumerate(listed):
            record = {
                "position": position, "reply_id": item.reply_id, "run": item.run,
                "benchmark": item.benchmark, "task_id": item.task_id,
                "sample_index": item.sample_index, "reason": item.reason,
                "stratum": item.stratum.text, "stratum_name": item.stratum.name,
                "verdicts": dict(item.verdicts),
                "labels": dict(item.labels),
            }
            if order == "sample":
                slot = slots.get(item.reply_id)
                record["drawn"] = bool(slot and slot.drawn)
            click.echo(json_text(record))
        return
    table = Table(title=f"Queue in {order} order ({plural(len(listed), 'reply')})",
                  title_justify="left")
    for column in ("#", "reply", "run", "problem", "sample", "reason", "accepted by", "labels"):
        table.add_column(column, justify="right" if column in ("#", "reply", "sample") else "left")
    for position, item in enumerate(listed):
        accepted = ", ".join(g for g, o in item.verdicts if o == "accept") or "none"
        labels = ", ".join(f"{who}: {label}" for who, label in item.labels) or "–"
        # names, task ids and reviewers are the user's text: shown inert, never as markup
        table.add_row(*(Text(visible(cell)) for cell in (
            str(position), str(item.reply_id), item.run, item.task_id, str(item.sample_index),
            item.reason, accepted, labels)))
    Console(highlight=False).print(table)
