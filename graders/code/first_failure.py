"""Finish a first failure's evidence once grading found it: the expected output, the minimal input.

The expected output is recorded for every kind of failure (a reviewer judging a timeout or an
exception needs it as much as for a wrong answer); a large one that only travelled as a digest
is fetched by running the reference on that one input. With shrink limits, the input is then
shrunk (`minimal.py`) and stored as `minimal` beside the original.
"""

from __future__ import annotations

from typing import Any

from graders.code.cases import TestCase
from graders.code.evidence import Failure, clip
from graders.code.input_runs import run_inputs
from graders.code.inside.tagged import Digest
from graders.code.minimal import Original, ShrinkLimits, shrink_failure
from graders.code.problem import CodeProblem
from graders.code.reference_oracle import CANDIDATE_TIME_LIMIT_S, ReferenceOracle
from graders.code.sandbox import Sandbox


def complete_failure(failure: Failure, sandbox: Sandbox, program: str, problem: CodeProblem,
                     tests: tuple[TestCase, ...], shrink: ShrinkLimits | None,
                     oracle: ReferenceOracle | None, strict_numbers: bool = False) -> None:
    """Fill in `failure.detail`: a digest's full expected value, then `minimal` if asked."""
    detail = failure.detail
    if isinstance(detail.get("expected"), Digest):
        detail["expected"] = _full_expected(sandbox, problem, tests[failure.index or 0])
    if shrink is None or failure.index is None:
        return
    case = tests[failure.index]
    exception = detail.get("exception") if failure.kind == "exception" else None
    original = Original(case, failure.kind,
                        str(exception.get("type")) if isinstance(exception, dict) else None,
                        detail)
    detail["minimal"] = shrink_failure(sandbox, program, problem, original,
                                       oracle or ReferenceOracle(problem), shrink,
                                       strict_numbers)


def _full_expected(sandbox: Sandbox, problem: CodeProblem, case: TestCase) -> Any:
    """The reference's output on one input in full (grading compared digests only)."""
    if case.args is None:
        return None
    run = run_inputs(sandbox, problem.reference_program, problem.entry_point, [case.args],
                     [CANDIDATE_TIME_LIMIT_S * 6], "expected")
    message = run.messages.get(0) or {}
    return clip(message["v"]) if "v" in message else f"<the reference did not return: {message}>"
