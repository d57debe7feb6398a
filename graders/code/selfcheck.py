"""Grader self-check: a problem's reference must pass its own tests and a stub must fail them.

Run before a grader's verdicts are trusted. A problem whose reference fails (the Hugging Face
HumanEval+ copy's problem 32) or whose `return None` stub passes is reported, not hidden.
The reference is judged, on the host as a sample would be, on the outputs of the run that made
the expected outputs; it runs again only where that cannot settle it (it failed an input there,
or an output travelled as a digest where a stated value or property must judge it): the
outcome is that of a second run, without paying for one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from graders.code.evidence import build_verdicts
from graders.code.expected import ExpectedOutputs
from graders.code.grade import BASE, PLUS, CodeGradeConfig, grade_sample
from graders.code.judge import Judge
from graders.code.problem import CodeProblem
from graders.code.sandbox import Sandbox
from graders.code.sandbox.inside.tagged import Digest, decode, encode
from graders.registry import GRADERS
from graders.registry import PLUS as PLUS_SUITE
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
    reference = (judged_reference(problem, expected, sandbox, config)
                 or grade_sample(problem.reference_program, problem, expected, sandbox, config,
                                 trusted=True))
    # the stub runs the plus inputs only when it passes the base ones, as a sample would
    stub = grade_sample(problem.stub_program, problem, expected, sandbox, config, trusted=True,
                        part=BASE)
    if PLUS_SUITE.name not in stub:
        stub = grade_sample(problem.stub_program, problem, expected, sandbox, config,
                            trusted=True, part=PLUS)
    return SelfCheckResult(problem.task_id, reference, stub, dict(expected.errors))


def judged_reference(problem: CodeProblem, expected: ExpectedOutputs, sandbox: Sandbox,
                     config: CodeGradeConfig) -> dict[str, Verdict] | None:
    """The reference's verdicts from its expected-output run, when it passes every input
    there; None when only running it again can tell (then it is run)."""
    if expected.errors or expected.task_id != problem.task_id or (
            len(expected.outputs) != len(problem.tests)):
        return None
    began = time.monotonic()
    limits = expected.time_limits(config.time_limits)
    judge = Judge(problem, expected, limits, config.strict_numbers)
    for index, output in enumerate(expected.outputs):
        # a fresh copy, as a run would deliver it (a NaN is not the same object twice)
        message: dict[str, Any] = ({"i": index, "d": [output.sha256, output.size]}
                                   if isinstance(output, Digest) else
                                   {"i": index, "v": decode(encode(output))})
        if judge.take(index, message):
            return None
    verdicts = build_verdicts(None, judge.passed, judge.skipped, len(problem.base),
                              len(problem.tests), (time.monotonic() - began) * 1000)
    return {name: Verdict(v.grader, v.version, v.outcome,
                          {**v.evidence, "sandbox": sandbox.evidence}, v.elapsed_ms)
            for name, v in verdicts.items()}
