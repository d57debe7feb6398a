"""Grading stage: the minimal failing input, only for the failing samples a person will read.

Runs after the verdicts are stored and queued: every failing sample in scope (the queued ones
by default, `--evidence all` for every failing one) whose stored first failure has no minimal
form yet is shrunk from that record, wherever it was queued from (this run's grading, an
imported harness verdict, a requeue, a corrected key). What is found is written into the
stored evidence batch by batch, so Ctrl-C keeps it and the next `grade` does the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlite_utils import Database

from adjudicate.grading.executor import Executor
from adjudicate.grading.probe_stage import reply_program
from db.code_evidence import FailureToShrink, save_minimal
from graders.code import CodeGradeConfig, CodeProblem
from graders.code.copies import Copies
from graders.code.evidence_stage import ShrinkJob
from graders.code.minimal import Seed
from graders.code.sandbox.inside.tagged import decode
from graders.progress import Advance, Stage

SAVE_EVERY = 20  # minimal inputs per transaction


def shrink_failures(db: Database, failures: Sequence[FailureToShrink],
                    problems: Mapping[int, CodeProblem], executor: Executor,
                    config: CodeGradeConfig, on_stage: Stage | None = None,
                    on_progress: Advance | None = None) -> int:
    """Shrink these stored first failures where `executor` runs samples; returns how many
    replies got a minimal input."""
    copies: Copies[Any] = Copies()
    jobs = [ShrinkJob(f.reply_id, program, problems[f.problem_id], f.first_failure)
            for f in failures if f.problem_id in problems
            and (program := reply_program(f.text, f.form, problems[f.problem_id])) is not None
            and copies.runs(f.reply_id, (f.problem_id, _failure_at(f.first_failure)), program)]
    if not jobs:
        return 0
    if on_stage:
        on_stage("Shrinking failing inputs", len(jobs))  # a copy's search is its program's
    first, later = _leaders_first(jobs, {f.reply_id: f.problem_id for f in failures})
    found: dict[Any, dict[str, Any]] = {}
    saved = 0
    batch: list[tuple[Any, dict[str, Any]]] = []
    try:
        for phase in (first, None):
            todo = first if phase is not None else [
                _seeded(job, found.get(leader), leader) for job, leader in later]
            for key, minimal in executor.shrink(todo, config, on_progress):
                found[key] = minimal
                batch += [(same, minimal) for same in (key, *copies.of(key))]
                if len(batch) >= SAVE_EVERY:
                    saved += save_minimal(db, batch)
                    batch = []
    finally:  # also on Ctrl-C: every minimal input found so far is kept
        saved += save_minimal(db, batch)
    return saved


def _leaders_first(jobs: list[ShrinkJob], problem_of: Mapping[Any, int],
                   ) -> tuple[list[ShrinkJob], list[tuple[ShrinkJob, Any]]]:
    """The searches to run first (every one but a later timeout on an input another sample of
    its problem timed out on), then the later ones with the key of the one they follow."""
    leaders: dict[tuple[Any, ...], Any] = {}
    first, later = [], []
    for job in jobs:
        group = (problem_of[job.key], *_failure_at(job.first_failure))
        if job.first_failure.get("kind") != "timeout" or group not in leaders:
            leaders.setdefault(group, job.key)
            first.append(job)
        else:
            later.append((job, leaders[group]))
    return first, later


def _seeded(job: ShrinkJob, leader: dict[str, Any] | None, key: Any) -> ShrinkJob:
    """The job, starting where its leader's search ended if that is a smaller input that
    timed out too (and was kept as data); else as it was."""
    if (leader is None or leader.get("same_as_original", True) or leader.get("kind") != "timeout"
            or "args" not in leader):
        return job
    return replace(job, seed=Seed(decode(leader["args"]), key))



def _failure_at(first_failure: dict[str, Any]) -> tuple[Any, ...]:
    """Where and how a first failure happened: copies that failed alike shrink alike."""
    return tuple(first_failure.get(field) for field in ("set", "index", "kind"))
