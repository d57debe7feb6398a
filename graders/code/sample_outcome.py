"""Judge what a sample reported for a new input against the reference's output on it, on the host.

The same rules as grading (`compare.judge`: the case's conversion, tolerance and oracle), for
inputs that are not the problem's own tests: a shrunk input, or another sample's first failing
input. A sample's message is its claim about what it returned; only the host decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graders.code.cases import TestCase
from graders.code.compare import coerce, judge
from graders.code.evidence import clip
from graders.code.input_runs import KILLED, is_timeout
from graders.code.problem import CodeProblem

PASS = "pass"


@dataclass(frozen=True)
class Outcome:
    """`kind` is "pass" or a failure kind (wrong_output, exception, timeout, crash, ...)."""

    kind: str
    exception_type: str | None = None
    evidence: dict[str, Any] = field(default_factory=dict)  # actual / exception / time limit

    def same_failure(self, kind: str, exception_type: str | None) -> bool:
        """Fails the way the original did: the same kind, and for exceptions the same type."""
        if self.kind != kind:
            return False
        return kind != "exception" or self.exception_type == exception_type


def judge_message(problem: CodeProblem, case: TestCase, args: list[Any], expected: Any,
                  message: dict[str, Any], time_limit: float,
                  strict_numbers: bool = False) -> Outcome:
    """The outcome of one sample result on `args`, whose reference output is `expected`."""
    limit = {"time_limit_s": round(time_limit, 6)}
    if is_timeout(message):  # read the same however it was caught, as grading's timeouts
        return Outcome("timeout", evidence={**limit,
                                            "caught_by": message.get(KILLED, "the harness's clock")})
    if KILLED in message:
        return Outcome("crash", evidence={"detail": f"the process ended: {message[KILLED]}"})
    if "x" in message:
        error = message["x"]
        return Outcome("exception", str(error.get("type")), {"exception": error})
    if "big" in message:
        return Outcome("output_too_large", evidence={"detail": message["big"]})
    actual = message.get("v")
    oracle = case.oracle or problem.oracle
    atol = case.atol if case.atol is not None else problem.atol
    try:
        wanted = coerce(case.coerce, expected) if case.coerce else expected
        shown = coerce(case.coerce, actual) if case.coerce else actual
        if judge(oracle, shown, wanted, args, atol, strict_numbers):
            return Outcome(PASS, evidence={"actual": clip(actual)})
    except (TypeError, ValueError):
        pass
    return Outcome("wrong_output", evidence={"actual": clip(actual)})


def reference_passes(problem: CodeProblem, case: TestCase, args: list[Any], value: Any) -> bool:
    """Does the reference's own output pass the case's oracle on `args`? (A polynomial without a
    root has no right answer to fail on.)"""
    return judge_message(problem, case, args, value, {"v": value}, 0.0).kind == PASS
