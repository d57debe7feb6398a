"""`adjudicate grade`: precompute every grader's verdict, in parallel, and mark the queue."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from adjudicate.cli.common import db_option, staged_progress
from adjudicate.grading.executor import (
    CODE_BATCH,
    EXECUTORS,
    MATH_BATCH,
    Executor,
    LocalExecutor,
)
from adjudicate.safe_text import visible
from adjudicate.words import plural

if TYPE_CHECKING:
    from sqlite_utils import Database

# The graders (SymPy, Math-Verify, the sandbox) load inside the functions that grade, so the
# CLI group and every other command start without them.


@click.command()
@db_option
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              show_default="all cores (of the cluster with --executor ray)",
              help="Worker processes for symbolic checks and sandboxes.")
@click.option("--run", help="Only this run.")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=0.1), default=5.0,
              show_default=True, help="Seconds per symbolic check before it counts as a timeout.")
@click.option("--unsafe-no-isolation", is_flag=True,
              help="Where the kernel refuses the sandbox's namespaces, run code samples anyway "
                   "with only rlimits, a uid and a guard (they can then read your files).")
@click.option("--executor", type=click.Choice(EXECUTORS), default="local", show_default=True,
              help="Where the graders run: this machine, or a Ray cluster (pip install "
                   "'adjudicate[ray]'); either way only this process writes the database.")
@click.option("--address", help="With --executor ray: the cluster's address (default: "
                                "$RAY_ADDRESS, else a Ray instance started for this run).")
@click.option("--batch-size", type=click.IntRange(min=1),
              help=f"With --executor ray: math replies per batch (default {MATH_BATCH}), or "
                   f"samples of one problem per batch (default {CODE_BATCH}).")
@click.option("--evidence", type=click.Choice(("queued", "all", "none")), default="queued",
              show_default=True,
              help="Which failing code samples get their minimal failing input and the other "
                   "samples' outputs on it, in a stage after the verdicts: the queued ones "
                   "(the ones a person reads), every failing one, or none.")
@click.option("--probe-seconds", type=click.FloatRange(min=0, min_open=True), default=2.0,
              show_default=True,
              help="CPU seconds each code sample may spend on its problem's queued failing "
                   "inputs (a time limit counts in full); past it the sample is asked no more "
                   "and the tallies say how many samples ran.")
@click.option("--probe-runs", type=click.IntRange(min=1), default=4096, show_default=True,
              help="Sample-input runs per problem for those tallies in one grade.")
def grade(db_path: Path, jobs: int | None, run: str | None, timeout_s: float,
          unsafe_no_isolation: bool, executor: str, address: str | None,
          batch_size: int | None, evidence: str, probe_seconds: float, probe_runs: int) -> None:
    """Grade every reply not yet graded by the current grader versions, and queue the disputes.

    Code samples have their program extracted and run in a sandbox against the base and the
    extended tests, recording the first failing input; a sample that passes base and fails plus
    is queued. Each problem is self-checked first (its reference must pass its own tests, a
    stub must fail them) and problems that fail are flagged. Each sample runs in its own user,
    pid, IPC, mount and network namespaces on a read-only root holding only Python's standard
    library (and numpy); where the kernel refuses those namespaces no sample runs, unless
    --unsafe-no-isolation is given.

    Math replies get an extraction (the rule that fired and its span) and verdicts from every
    registered math grader (`adjudicate explain` shows each one's); a reply goes to the review
    queue when the graders disagree or all reject. Grading is idempotent and resumable:
    rerun after Ctrl-C or a grader upgrade and only what is missing is graded. Labels are
    never touched.

    With --executor ray, batches of replies (and of one problem's samples) run on a Ray
    cluster's workers, each sandbox on its worker's node; the verdicts are the same.

    \b
    Examples:
      adjudicate grade --db evals.db --jobs 2
      adjudicate grade --db evals.db --executor ray --address head-node:6379
    """
    if executor == "local" and (address or batch_size):
        raise click.UsageError("--address and --batch-size apply to --executor ray")
    with open_executor(executor, jobs, address, batch_size) as where:
        from db.connection import open_db
        from db.runs import require_runs

        db = open_db(db_path, create=False)
        require_runs(db, [run] if run else [])
        grade_everything(db, jobs=jobs or os.cpu_count() or 1, run=run, timeout_s=timeout_s,
                         unsafe_no_isolation=unsafe_no_isolation, executor=where,
                         evidence=evidence, probe=(probe_runs, probe_seconds))
    click.echo(f"Next: adjudicate review --db {db_path} --reviewer YOUR_NAME")


@contextmanager
def open_executor(name: str, jobs: int | None, address: str | None,
                  batch_size: int | None) -> Iterator[Executor]:
    """The executor `name` for one run, closed after it; Ray's problems as clean errors."""
    if name == "local":
        from graders.math.fork_server import start_checking_server
        from graders.math.patches import UnsupportedVersions, check_versions

        try:
            check_versions()  # before the fork server, whose start would fail on them
        except UnsupportedVersions as error:
            raise click.ClickException(str(error)) from None
        local = LocalExecutor(jobs or os.cpu_count() or 1)
        _name_main_module()
        start_checking_server()  # it loads SymPy while this process reads and extracts
        try:
            yield local
        finally:
            local.close()
        return
    from adjudicate.grading.cluster.connect import ClusterError
    from adjudicate.grading.cluster.executor import RayExecutor

    where = RayExecutor(address, jobs, batch_size)  # it reaches the cluster with the first work
    try:
        yield where
    except ClusterError as error:
        raise click.ClickException(str(error)) from None
    finally:
        where.close()


def _name_main_module() -> None:
    """The `adjudicate` console script is `python -m adjudicate`: say so in its module, so the
    processes multiprocessing starts (the checking processes) do not run the script again, as
    they do a script they cannot name: each would import the whole CLI (about 0.3 s apiece)."""
    from adjudicate.cli import main

    script = sys.modules.get("__main__")
    if script is not None and script.__spec__ is None and getattr(script, "main", None) is main:
        script.__spec__ = importlib.util.find_spec("adjudicate.__main__")


def grade_everything(db: Database, *, jobs: int, run: str | None = None,
                     timeout_s: float = 5.0, unsafe_no_isolation: bool = False,
                     executor: Executor | None = None, evidence: str = "queued",
                     probe: tuple[int, float] | None = None) -> None:
    """Grade math then code replies with progress bars, and say what happened; `probe` is
    the probe stage's (runs per problem, CPU seconds per sample), else its defaults."""
    from adjudicate.grading.errata_stage import regrade_errata
    from adjudicate.grading.math_pipeline import grade_math_replies
    from db.patterns import refresh_patterns

    # queued replies whose pattern is of another `graders.queue.patterns.VERSION` (or that were
    # queued before patterns existed) get this version's, as verdicts get their graders' new one
    refresh_patterns(db)
    executor = executor or LocalExecutor(jobs)
    with staged_progress("Grading math replies") as (stage, advance):
        summary = grade_math_replies(db, jobs=jobs, run=run, timeout_s=timeout_s,
                                     on_stage=stage, on_progress=advance, executor=executor)
    if summary.graded:
        suspect = (f", {summary.suspect_key:,} against a suspect key"
                   if summary.suspect_key else "")
        click.echo(
            f"Math: graded {plural(summary.graded, 'reply')}; {summary.queued:,} queued for review "
            f"({summary.disagree:,} where graders disagree, {summary.all_reject:,} all reject"
            f"{suspect})."
        )
    else:
        click.echo("Math: nothing new to grade.")
    with staged_progress("Grading against corrected keys") as (stage, advance):
        corrected = regrade_errata(db, jobs=jobs, timeout_s=timeout_s, on_stage=stage,
                                   on_progress=advance)
    if corrected:
        click.echo(f"Errata: graded {plural(corrected, 'reply')} again against the keys reviewers "
                   "corrected.")
    from db.problems import has_problems
    from graders.math.fork_server import stop_checking_server

    stop_checking_server()  # math is over: the code graders get its memory and CPU
    if has_problems(db, "code"):
        _grade_code(db, jobs=jobs, run=run, unsafe_no_isolation=unsafe_no_isolation,
                    executor=executor, evidence=evidence, probe=probe)
    else:  # nothing to grade, and the code graders need not load
        click.echo("Code: nothing new to grade.")


def _grade_code(db: Database, *, jobs: int, run: str | None, unsafe_no_isolation: bool,
                executor: Executor, evidence: str, probe: tuple[int, float] | None) -> None:
    """The code stage with its progress bars, and what it did."""
    from adjudicate.grading.code_pipeline import grade_code_replies
    from graders.code.probe_budget import DEFAULT_PROBE, ProbeLimits
    from graders.code.sandbox import IsolationUnavailable

    limits = ProbeLimits(*probe) if probe else DEFAULT_PROBE
    with staged_progress("Grading code replies") as (stage, advance):
        try:
            code = grade_code_replies(db, jobs=jobs, run=run, on_stage=stage, on_progress=advance,
                                      unsafe_no_isolation=unsafe_no_isolation,
                                      executor=executor, evidence=evidence,
                                      probe=limits)
        except IsolationUnavailable as refused:
            raise click.ClickException(f"code samples were not graded: {refused}") from None
    if code.graded:
        click.echo(f"Code: graded {plural(code.graded, 'sample')} of "
                   f"{plural(code.problems, 'problem')}; "
                   f"{code.queued:,} queued (pass base, fail plus).")
    else:
        click.echo("Code: nothing new to grade.")
    if code.shrunk:
        click.echo(f"Code: minimal failing inputs for {code.shrunk:,} failing samples "
                   f"({evidence}).")
    if code.probes_stopped:
        click.echo(f"Code: probes stopped at the budget on "
                   f"{plural(code.probes_stopped, 'failing input')} (each sample may spend "
                   f"{limits.sample_cpu_s:g} CPU s on its problem's inputs, each problem "
                   f"{limits.runs:,} runs: --probe-seconds, --probe-runs); the review screen "
                   "says how many samples ran on each.")
    for problem, why in code.unusable:
        click.echo(visible(f"Warning: {problem}: cannot be graded ({why}); its replies stay "
                           "ungraded. Re-import the problem with its tests."), err=True)
    for problem, what, issues in code.selfcheck_failures:
        click.echo(visible(f"Warning: {problem}: {what}, so its verdicts are not to be trusted "
                           f"({'; '.join(issues)[:200]}). The report lists it."), err=True)
