"""Grader self-check: a problem's reference must pass its own tests and a stub must fail them.

Run before a grader's verdicts are trusted. A problem whose reference fails (the Hugging Face
HumanEval+ copy's problem 32) or whose `return None` stub passes is reported, not hidden.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from graders.code.expected import ExpectedOutputs
from graders.code.grade import CodeGradeConfig, grade_sample
from graders.code.problem import CodeProblem
from graders.code.sandbox import Sandbox
from graders.registry import GRADERS
from graders.verdict import ACCEPT, Verdict


@dataclass(frozen=True)
class SelfCheckResult:
    """Verdicts of the reference and of the stub on one problem, and what went wrong."""

    task_id: str
    reference: dict[str, Verdict]
    stub: dict[str, Verdict]
    reference_errors: dict[int, str] = field(default_factory=dict)

    @property
    def issues(self) -> list[str]:
        found = []
        suites = [spec.name for spec in GRADERS.of_kind("code")]
        for name in suites:
            verdict = self.reference[name]
            if verdict.outcome != ACCEPT:
                first = verdict.evidence.get("first_failure") or verdict.evidence.get("error")
                found.append(f"reference {verdict.outcome} on {name} tests: {first}")
        for name in suites:
            if self.stub[name].outcome == ACCEPT:
                found.append(f"a `return None` stub passes the {name} tests")
        if self.reference_errors:
            index, error = next(iter(self.reference_errors.items()))
            found.append(f"the reference failed on {len(self.reference_errors)} input(s) while "
                         f"computing expected outputs, first #{index}: {error}")
        return found

    @property
    def ok(self) -> bool:
        return not self.issues


def selfcheck_problem(problem: CodeProblem, expected: ExpectedOutputs,
                      sandbox: Sandbox | None = None,
                      config: CodeGradeConfig | None = None) -> SelfCheckResult:
    """Grade the reference and a stub returning None against the problem's base+plus tests."""
    config = replace(config or CodeGradeConfig(), shrink=None)  # a stub's failure needs no shrinking
    if sandbox is None:
        with Sandbox(config.sandbox) as own:
            return selfcheck_problem(problem, expected, own, config)
    reference = grade_sample(problem.reference_program, problem, expected, sandbox, config)
    stub = grade_sample(problem.stub_program, problem, expected, sandbox, config)
    return SelfCheckResult(problem.task_id, reference, stub, dict(expected.errors))
