"""Finish a first failure's evidence once grading found it: the minimal input, when asked.

The expected output is already in the evidence for every kind of failure (a large one read in
full from the reference's run before the sample's, `large_expected.py`: nothing is run again
because a sample failed). With shrink limits, the input is then shrunk (`minimal.py`) and
stored as `minimal` beside the original.
"""

from __future__ import annotations

from graders.code.cases import TestCase
from graders.code.evidence import Failure
from graders.code.minimal import Original, ShrinkLimits, shrink_failure
from graders.code.problem import CodeProblem
from graders.code.reference_oracle import ReferenceOracle
from graders.code.sandbox import Sandbox


def complete_failure(failure: Failure, sandbox: Sandbox, program: str, problem: CodeProblem,
                     tests: tuple[TestCase, ...], shrink: ShrinkLimits | None,
                     oracle: ReferenceOracle | None, strict_numbers: bool = False) -> None:
    """Fill in `failure.detail["minimal"]` if asked (after the sample's verdict is known)."""
    detail = failure.detail
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
