"""Grade every sample's base inputs before any sample's plus inputs.

A plus verdict needs the base inputs passed (EvalPlus's plus covers base and plus together), so
a sample that fails its base inputs has no plus inputs worth running; running them in the same
job anyway doubles grading's CPU time (a wrong sample computes every expensive plus input).
Which samples go on to their plus inputs is a judgement on their outputs, so it is made only
once every sample of the batch has ended its base job (a batch holds whole problems: every
sample of a problem, copies of one program included): a plus job tells a program its base
outputs were right only when every base verdict of its problem is fixed, and its plus
outputs are judged after it ends like any other's. Nothing tells a program that an output
was wrong: a sample that failed runs nothing more.

A job ended by its CPU-time slice (`grade.py`) comes back without verdicts, with the input to
go on from; it goes on in a pass of its own, after every job of the current pass has ended
(the same rule as the plus pass: what a continuation tells a program, that its outputs so
far were right, reaches it only once every other sample's job of that pass is over).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from graders.code.grade import BASE, PLUS
from graders.progress import Advance
from graders.registry import PLUS as PLUS_SUITE


def base_then_plus(jobs: Iterable[Any], run: Callable[[list[Any]], Iterable[Any]],
                   on_progress: Advance | None = None) -> Iterator[Any]:
    """Results of `run` over the jobs' base parts, then over the plus parts of those whose
    base result holds no plus verdict yet; each job's final result once, progress with it."""
    held: list[Any] = []
    given = {job.key: job for job in jobs}
    for job, result in _passes([replace(job, part=BASE) for job in given.values()], run):
        if PLUS_SUITE.name in result.verdicts:
            if on_progress:
                on_progress(1)
            yield result
        else:
            held.append(given[job.key])
    for _, result in _passes([replace(job, part=PLUS) for job in held], run):
        if on_progress:
            on_progress(1)
        yield result


def _passes(jobs: list[Any], run: Callable[[list[Any]], Iterable[Any]],
            ) -> Iterator[tuple[Any, Any]]:
    """(job, result) for each job whose result is final; a result that says where to resume
    goes on in the next pass, once the whole pass has ended."""
    while jobs:
        pending = {job.key: job for job in jobs}
        jobs = []
        for result in run(list(pending.values())):
            job = pending[result.key]
            if getattr(result, "resume_at", None) is not None:
                jobs.append(replace(job, start=result.resume_at, spent_ms=result.spent_ms))
            else:
                yield job, result
