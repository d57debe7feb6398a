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
    pending = {job.key: job for job in jobs}
    for result in run([replace(job, part=BASE) for job in pending.values()]):
        if PLUS_SUITE.name in result.verdicts:
            if on_progress:
                on_progress(1)
            yield result
        else:
            held.append(pending[result.key])
    if held:
        for result in run([replace(job, part=PLUS) for job in held]):
            if on_progress:
                on_progress(1)
            yield result
