"""`adjudicate report`: every score regraded against the reading, with N and intervals."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicate.cli.common import db_option, out_option
from adjudicate.cli.console import stderr
from adjudicate.report import FORMATS, build_report, print_report_here, render
from adjudicate.report.source import (
    allocation_from_db,
    decisions_from_db,
    errata_from_db,
    provenance_from_db,
    records_from_db,
    sample_from_db,
    selfcheck_failures_from_db,
)
from adjudicate.words import plural
from db.connection import open_db
from db.runs import require_runs


@click.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="table for the terminal; markdown for a PR; json for tools; csv is one row "
                   "per run x grader; html is a self-contained page with a chart.")
@out_option()
@click.option("--run", help="Only this run.")
@click.option("--bootstrap", "resamples", type=click.IntRange(min=100), default=1000,
              show_default=True, help="Bootstrap resamples (problems are resampled, not samples).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed for the bootstrap: the same database and seed give the same report.")
@click.option("--edge-cases-pass", is_flag=True,
              help="Code: also report plus with edge cases (not in the spec) counted as passes.")
@click.option("--all-pairs", is_flag=True,
              help="Compare every two graders of a run (grows as the square of the graders); "
                   "by default each grader is compared with the first and with the reading.")
def report(db_path: Path, fmt: str, out: Path | None, run: str | None, resamples: int, seed: int,
           edge_cases_pass: bool, all_pairs: bool) -> None:
    """Regrade every run against the labels: scores by grader and by reading, with intervals.

    A labeled reply counts as its (adjudicated) label; an unlabeled reply outside the queue
    counts as its graders' unanimous verdict. Intervals resample problems (Wilson when there is
    one sample per problem); paired differences come with McNemar's exact test.

    \b
    Examples:
      adjudicate report --db evals.db
      adjudicate report --db evals.db --format markdown --out REPORT.md
      adjudicate report --db evals.db --format html --out report.html
    """
    db = open_db(db_path, readonly=True)  # a reader: it neither migrates nor writes
    require_runs(db, [run] if run else [])
    with stderr.status("Reading replies, verdicts and labels…"):
        records = records_from_db(db, run=run)
    if not records:
        raise click.ClickException(
            f"{db_path}: no replies to report on; import some with `adjudicate import`")
    with stderr.status(f"Computing scores and intervals for {plural(len(records), 'reply')} "
                       f"({resamples:,} bootstrap resamples)…"):
        result = build_report(records, bootstrap=resamples, seed=seed,
                              edge_cases_pass=edge_cases_pass, all_pairs=all_pairs,
                              selfcheck_failures=selfcheck_failures_from_db(db),
                              errata=errata_from_db(db), decisions=decisions_from_db(db),
                              sample=sample_from_db(db), allocation=allocation_from_db(db),
                              source=provenance_from_db(db, run))
    if fmt == "table" and out is None:
        print_report_here(result)
        return
    text = render(result, fmt)
    if out is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"Wrote the {fmt} report to {out}", err=True)
