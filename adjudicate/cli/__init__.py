"""The `adjudicate` command: import → grade → review → report, one subcommand each."""

from __future__ import annotations

import click

from adjudicate import __version__
from adjudicate.cli.group import AdjudicateGroup, LazyCommand, LazyCommands

# In workflow order; each module is imported only when its command runs or shows its own help.
# `adjudicate --help` lists the summaries (each its command's first sentence: a test holds it).
LISTING = {
    "demo": LazyCommand("adjudicate.cli.demo_cmd:demo", "Import the bundled demo data, grade it, "
                        "review the disputes, and print the report."),
    "import": LazyCommand("adjudicate.cli.import_cmd:import_", "Import a problem file or a reply "
                          "file (JSONL, optionally .gz), an Inspect AI log (.eval, .json) or "
                          "lighteval details (.parquet)."),
    "grade": LazyCommand("adjudicate.cli.grade_cmd:grade", "Grade every reply not yet graded by "
                         "the current grader versions, and queue the disputes."),
    "queue": LazyCommand("adjudicate.cli.queue_cmd:queue",
                         "List the queue in the order the review app serves it."),
    "review": LazyCommand("adjudicate.cli.review_cmd:review",
                          "Read every disputed reply and label it, one keypress each."),
    "labels": LazyCommand("adjudicate.cli.labels_cmd:labels", "Import labels from a file, or "
                          "export every reviewer's labels (and their history)."),
    "report": LazyCommand("adjudicate.cli.report_cmd:report", "Regrade every run against the "
                          "labels: scores by grader and by reading, with intervals."),
    "errata": LazyCommand("adjudicate.cli.errata_cmd:errata", "Write the errata reviewers found, "
                          "per benchmark and problem, for its maintainers."),
    "explain": LazyCommand("adjudicate.cli.explain:explain", "Show how a reply is graded: the "
                           "extraction rule that fired, the span it took, and each grader's "
                           "normalized forms and verdict."),
    "runs": LazyCommand("adjudicate.cli.runs_cmd:runs", "List runs with their replies, problems, "
                        "graded, queued and labeled counts."),
    "export": LazyCommand("adjudicate.cli.export_cmd:export", "Export one row per reply: run, "
                          "problem, sample, extraction, verdicts, queue, labels; or put the "
                          "readings back into a copy of each file the runs were imported from."),
}
COMMANDS = LazyCommands(LISTING)


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
