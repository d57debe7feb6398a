"""The `adjudicate` command: import → grade → review → report, one subcommand each."""

from __future__ import annotations

import click

from adjudicate import __version__
from adjudicate.cli.common import AdjudicateGroup
from adjudicate.cli.demo_cmd import demo
from adjudicate.cli.errata_cmd import errata
from adjudicate.cli.explain import explain
from adjudicate.cli.export_cmd import export
from adjudicate.cli.grade_cmd import grade
from adjudicate.cli.import_cmd import import_
from adjudicate.cli.labels_cmd import labels
from adjudicate.cli.queue_cmd import queue
from adjudicate.cli.report_cmd import report
from adjudicate.cli.review_cmd import review
from adjudicate.cli.runs_cmd import runs


@click.group(cls=AdjudicateGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="adjudicate")
def main() -> None:
    """Find the replies your graders get wrong, read them, and regrade every score.

    \b
    A typical session:
      adjudicate demo                                   # the whole loop on bundled data
      adjudicate import math500_test.jsonl --db evals.db
      adjudicate import replies.jsonl --db evals.db --run haiku-thinking-off
      adjudicate grade --db evals.db
      adjudicate review --db evals.db --reviewer ann
      adjudicate report --db evals.db --format markdown --out REPORT.md
      adjudicate errata --db evals.db --out ERRATA.md

    Every command takes --db (or the ADJUDICATE_DB environment variable).
    """


for command in (demo, import_, grade, queue, review, labels, report, errata, explain, runs, export):
    main.add_command(command)
