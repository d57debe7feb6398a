"""The `adjudicate` command: import → grade → review → report, one subcommand each."""

from __future__ import annotations

import click

from adjudicate import __version__
from adjudicate.cli.common import AdjudicateGroup, LazyCommands

# In workflow order; each module is imported only when its command runs (or help lists it).
COMMANDS = LazyCommands({
    "demo": "adjudicate.cli.demo_cmd:demo",
    "import": "adjudicate.cli.import_cmd:import_",
    "grade": "adjudicate.cli.grade_cmd:grade",
    "queue": "adjudicate.cli.queue_cmd:queue",
    "review": "adjudicate.cli.review_cmd:review",
    "labels": "adjudicate.cli.labels_cmd:labels",
    "report": "adjudicate.cli.report_cmd:report",
    "errata": "adjudicate.cli.errata_cmd:errata",
    "explain": "adjudicate.cli.explain:explain",
    "runs": "adjudicate.cli.runs_cmd:runs",
    "export": "adjudicate.cli.export_cmd:export",
})


@click.group(cls=AdjudicateGroup, commands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
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

