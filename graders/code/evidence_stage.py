"""The evidence stage's grader side: shrink a stored first failure after the verdicts.

Grading records each failing sample's first failing input (cheap); the minimal form is searched
for only where a person will read it (the queued samples, by default), from that stored record.
Pure: (program, problem, recorded first failure) -> the `minimal` record `minimal.py` builds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graders.code.minimal import Original, Seed, ShrinkLimits, shrink_failure
from graders.code.problem import CodeProblem
from graders.code.reference_oracle import ReferenceOracle
from graders.code.sandbox import Sandbox
from graders.code.shrink_values import input_key

# what a minimal record copies from the first failure when the search could not run at all
_SHOWN = ("call", "expected", "actual", "exception", "time_limit_s", "detail")


@dataclass(frozen=True)
class ShrinkJob:
    """One stored first failure to shrink; `key` is the caller's (the reply's row id)."""

    key: Any
    program: str
    problem: CodeProblem
    first_failure: dict[str, Any]  # as the plus verdict's evidence records it
    seed: Seed | None = None  # where another sample's search for the same timeout ended


def position(problem: CodeProblem, first_failure: dict[str, Any]) -> int | None:
    """The failing input's place in base + plus, or None (a load failure, or out of range)."""
    index, where = first_failure.get("index"), first_failure.get("set")
    if not isinstance(index, int) or where not in ("base", "plus"):
        return None
    at = index + (len(problem.base) if where == "plus" else 0)
    return at if 0 <= at < len(problem.tests) else None


def shrink_recorded(sandbox: Sandbox, job: ShrinkJob, limits: ShrinkLimits,
                    oracle: ReferenceOracle, strict_numbers: bool = False) -> dict[str, Any]:
    """`first_failure.minimal` for a recorded first failure, as grading used to compute it."""
    at = position(job.problem, job.first_failure)
    if at is None:
        return unsearched(job, "the failing input is not in the problem's tests")
    exception = job.first_failure.get("exception")
    original = Original(job.problem.tests[at], str(job.first_failure.get("kind")),
                        str(exception.get("type")) if isinstance(exception, dict) else None,
                        job.first_failure)
    return shrink_failure(sandbox, job.program, job.problem, original, oracle, limits,
                          strict_numbers, job.seed)


def unsearched(job: ShrinkJob, why: str) -> dict[str, Any]:
    """A minimal record saying the search did not run or failed (the first input stands)."""
    first = job.first_failure
    shown: dict[str, Any] = {key: first[key] for key in _SHOWN if key in first}
    at = position(job.problem, first)
    args = job.problem.tests[at].args if at is not None else None
    if args is not None:
        shown["input_key"] = input_key(args)
    return {**shown, "kind": first.get("kind"), "same_as_original": True,
            "search": {"steps": 0, "tries": 0, "timeouts": 0, "cpu_s": 0.0, "elapsed_s": 0.0,
                       "complete": False, "stopped": why[:300], "rejected_by_contract": 0,
                       "contract": None}}
