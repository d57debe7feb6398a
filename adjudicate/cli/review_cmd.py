"""`adjudicate review`: open the review app on a database for one reviewer."""

from __future__ import annotations

import getpass
import os
import stat
import sys
from pathlib import Path

import click

from adjudicate.app.filter_language import STATUS_HELP, parse_grader_pattern
from adjudicate.cli.common import db_option
from adjudicate.cli.console import stderr
from adjudicate.cli.sample_options import prepare_sample, sample_options
from db.connection import check_writable, open_store
from db.grading import queue_count
from db.patterns import refresh_patterns
from db.queue import QueueFilter
from db.runs import require_runs
from db.text_match import TextMatch
from graders.labels import LABELS


def _many(values: tuple[str, ...]) -> tuple[str, ...]:
    """Repeated options and comma-separated values alike: --run a --run b == --run a,b."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def _label_keys() -> str:
    """'  math  c correct   x incorrect   k bad key   (1 2 3 work too)', a line per kind."""
    lines = []
    for kind in LABELS.kinds():
        specs = LABELS.for_kind(kind)
        keys = "   ".join(f"{spec.key} {spec.short}" for spec in specs)
        digits = " ".join(str(i) for i in range(1, len(specs) + 1))
        lines.append(f"  {kind:<5} {keys}   ({digits})")
    return "\n".join(lines)


REVIEW_HELP = f"""Read every disputed reply and label it, one keypress each.

Replies you have not labeled come first, identical (answer, key) pairs together, and you
resume where you left off. Every label is committed before the next reply shows; several
reviewers can work on one database at once.

\b
Keys (? in the app lists them all):
{_label_keys()}
  Shift+label  the whole group of identical answer and key, after a confirmation
  p  the queue by dispute pattern: examples side by side, a whole pattern in one decision
  V  label every reply in this view (the filter) in one decision, after a confirmation
  s skip   u undo   n note   / filter   a conflicts   q quit
  v reference solution   o original failing input (code)   i guidelines (--guidelines)
  ←/→ or h/l move (not j/k: k labels a bad key)

With --order sample the queue comes in a seeded random order recorded in the database, and the
report turns what was read in it into an estimate with an interval: label or skip (s) each reply
in turn, since moving past one without either stops the sample there (a decision over many
replies counts only for the one on screen).

\b
Examples:
  adjudicate review --db evals.db --reviewer ann
  adjudicate review --db evals.db --graders 'exact rejects, symbolic accepts' --rule boxed
  adjudicate review --db evals.db --answer '\\.0$' --regex
  adjudicate review --db evals.db --order sample --audit 50
  adjudicate review --db evals.db --guidelines LABELING.md
"""


@click.command(help=REVIEW_HELP)
@db_option
@click.option("--reviewer", envvar="ADJUDICATE_REVIEWER", show_envvar=True,
              default=lambda: getpass.getuser(), show_default="your login name",
              help="Who is labeling; each reviewer's labels are kept apart.")
@click.option("--run", "runs", multiple=True, metavar="NAME", help="Only this run (repeatable).")
@click.option("--benchmark", "benchmarks", multiple=True, metavar="NAME",
              help="Only this benchmark (repeatable).")
@click.option("--problem", "problems", multiple=True, metavar="TASK_ID",
              help="Only this problem; glob patterns work: 'test/algebra/*' (repeatable).")
@click.option("--graders", "graders", metavar="PATTERN", default="",
              help="Only replies where these verdicts hold, e.g. 'exact rejects, symbolic accepts'.")
@click.option("--rule", "rules", multiple=True, metavar="RULE",
              help="Only replies whose extraction rule was RULE, e.g. boxed (repeatable).")
@click.option("--status", type=click.Choice(list(STATUS_HELP)), default=None,
              help="unlabeled: nobody labeled it; labeled: somebody did; skipped: you skipped it; "
                   "mine: you labeled it; conflicting: reviewers disagree.")
@click.option("--answer", metavar="TEXT", default=None,
              help="Only replies whose extracted answer contains TEXT.")
@click.option("--key", metavar="TEXT", default=None, help="Only replies whose key contains TEXT.")
@click.option("--regex", is_flag=True,
              help="--answer and --key are regular expressions (matched anywhere: re.search).")
@click.option("--pattern", "patterns", multiple=True, metavar="ID",
              help="Only this dispute pattern, by the id the export shows (repeatable).")
@sample_options
@click.option("--guidelines", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The team's labeling guidelines (Markdown), shown in a panel: press i.")
def review(db_path: Path, reviewer: str, runs: tuple[str, ...], benchmarks: tuple[str, ...],
           problems: tuple[str, ...], graders: str, rules: tuple[str, ...],
           status: str | None, answer: str | None, key: str | None, regex: bool,
           patterns: tuple[str, ...], order: str, allocation: str | None, seed: int | None,
           reshuffle: bool, audit: int | None, guidelines: Path | None) -> None:
    """Open the review app (help text: REVIEW_HELP, which lists the label keys)."""
    if order != "sample" and (audit is not None or reshuffle or seed is not None
                              or allocation is not None):
        raise click.UsageError(
            "--seed, --reshuffle, --allocation and --audit apply to --order sample")
    guide = read_guidelines(guidelines) if guidelines is not None else None
    try:
        grader_pairs = parse_grader_pattern(graders)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--graders") from None
    try:
        answer_match, key_match = (TextMatch(text, regex) if text else None
                                   for text in (answer, key))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--answer/--key") from None
    flt = QueueFilter(runs=_many(runs), benchmarks=_many(benchmarks), problems=_many(problems),
                      graders=grader_pairs, rules=_many(rules), status=status,
                      answer=answer_match, key=key_match, patterns=patterns)
    db = open_store(db_path)
    try:
        check_writable(db, db_path, "review writes every label to it")
        require_runs(db, flt.runs)
        queued = queue_count(db)
        refresh_patterns(db)  # the patterns read and decided on are this version's
    finally:
        db.close()
    if queued == 0:
        raise click.ClickException(
            f"{db_path}: nothing is queued for review; grade the replies first with "
            f"`adjudicate grade --db {db_path}`")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.ClickException("review needs a terminal (stdin and stdout must be a TTY)")
    db = open_store(db_path)
    try:
        for line in prepare_sample(db, order, seed, reshuffle, audit, allocation):
            stderr.print(line, markup=False, highlight=False)
    finally:
        db.close()
    from adjudicate.app import make_app  # Textual loads only when the app really starts

    make_app(db_path, reviewer.strip() or getpass.getuser(), flt, order, guide).run()


MAX_GUIDELINES = 64 << 10


def read_guidelines(path: Path) -> str:
    """The guidelines file's text; a clear error for one that is not a regular file of UTF-8
    text under MAX_GUIDELINES bytes (a device or a FIFO would read forever or block)."""
    try:
        with open(path, "rb", opener=_open_nonblocking) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise click.BadParameter(f"{path}: not a regular file; pass a Markdown file",
                                         param_hint="--guidelines")
            data = handle.read(MAX_GUIDELINES + 1)
    except OSError as error:
        raise click.BadParameter(f"{path}: cannot read: {error.strerror}",
                                 param_hint="--guidelines") from None
    if len(data) > MAX_GUIDELINES:
        raise click.BadParameter(f"{path}: over {MAX_GUIDELINES:,} bytes; guidelines are a "
                                 "few pages of Markdown", param_hint="--guidelines")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise click.BadParameter(f"{path}: not UTF-8 text (byte {error.start}): save it as "
                                 "UTF-8 Markdown", param_hint="--guidelines") from None


def _open_nonblocking(name: str, flags: int) -> int:
    """Open without waiting: a FIFO with no writer would block open() itself."""
    return os.open(name, flags | os.O_NONBLOCK)
