"""`adjudicate demo`: the whole workflow on the bundled data, in one command."""

from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path
from typing import Any

import click

from adjudicate.cli.grade_cmd import grade_everything
from adjudicate.demo_files import demo_data_dir
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.report import build_report, print_report_here
from adjudicate.report.source import (
    allocation_from_db,
    decisions_from_db,
    errata_from_db,
    provenance_from_db,
    records_from_db,
    sample_from_db,
    selfcheck_failures_from_db,
)
from db.connection import creating_db, open_db
from db.grading import queue_count

# (file under the demo folder, run, model, settings, benchmark)
DEMO_FILES: list[tuple[str, str | None, str | None, dict[str, Any], str]] = [
    ("math/problems.jsonl", None, None, {}, "demo-math"),
    ("math/replies-thinking-off.jsonl", "thinking-off", "demo-model",
     {"thinking": "off", "samples": 2}, "demo-math"),
    ("math/replies-thinking-high.jsonl", "thinking-high", "demo-model",
     {"thinking": "high", "samples": 1}, "demo-math"),
    ("code/problems.jsonl", None, None, {}, "demo-humanevalplus"),
    ("code/samples-demo-large.jsonl", "demo-large", "demo-large-model", {"samples": 4},
     "demo-humanevalplus"),
    ("code/samples-demo-small.jsonl", "demo-small", "demo-small-model", {"samples": 2},
     "demo-humanevalplus"),
]


@click.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("adjudicate-demo.db"), show_default=True,
              help="Where to build the demo database (reused if it exists).")
@click.option("--reviewer", default=lambda: getpass.getuser(), show_default="your login name",
              help="Your name on the labels you give in the review app.")
@click.option("--no-review", is_flag=True,
              help="Grade and print the report without opening the review app.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=os.cpu_count() or 1,
              show_default="all cores", help="Worker processes for grading.")
def demo(db_path: Path, reviewer: str, no_review: bool, jobs: int) -> None:
    """Import the bundled demo data, grade it, review the disputes, and print the report.

    The demo holds 42 math problems answered by one model with thinking off (2 samples) and
    high (1 sample), written in the styles that break graders, and 12 real HumanEval problems
    with extended tests, answered by two models. Grading queues every disputed reply; the
    review app opens on them (unless --no-review, or without a terminal); the report follows.

    \b
    Examples:
      adjudicate demo
      adjudicate demo --no-review --db /tmp/demo.db
    """
    data = demo_data_dir()
    with creating_db(db_path) as db:
        click.echo(f"Building {db_path} from {data}")
        for name, run, model, settings, benchmark in DEMO_FILES:
            summary = import_file(db, str(data / name), ImportOptions(
                run=run, model=model, settings=settings, benchmark=benchmark))
            added = summary.replies_added if run else summary.problems_added
            click.echo(f"  {name}: {added:,} {'replies' if run else 'problems'} added"
                       + (f" to run {run!r}" if run else ""))
    grade_everything(db, jobs=jobs)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if not no_review and interactive and queue_count(db):
        db.close()
        from adjudicate.app import make_app  # Textual loads only when the app really starts
        from db.queue import QueueFilter

        make_app(db_path, reviewer, QueueFilter()).run()
        db = open_db(db_path)
    report = build_report(records_from_db(db), selfcheck_failures=selfcheck_failures_from_db(db),
                          errata=errata_from_db(db), decisions=decisions_from_db(db),
                          sample=sample_from_db(db), allocation=allocation_from_db(db),
                          source=provenance_from_db(db))
    print_report_here(report)
    if report.partial:
        click.echo(f"\nSome disputed replies have no label yet: read them with\n"
                   f"  adjudicate review --db {db_path} --reviewer {reviewer}\n"
                   f"then rerun `adjudicate report --db {db_path}`.")
