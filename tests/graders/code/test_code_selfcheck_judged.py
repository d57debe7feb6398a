"""The reference's self-check is judged on the run that made the expected outputs; it runs
again only where that run cannot settle it, with the same outcome a second run gives."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graders.code import (
    CodeGradeConfig,
    CodeProblem,
    Sandbox,
    compute_expected,
    selfcheck_problem,
)
from graders.code.selfcheck import judged_reference
from graders.verdict import ACCEPT, REJECT

if TYPE_CHECKING:
    from graders.code.selfcheck import SelfCheckResult

STATED = 'def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(2, 2) == 5\n'


def jobs_for(problem: CodeProblem) -> tuple[SelfCheckResult, int]:
    """The self-check's result and how many sandbox jobs it started."""
    with Sandbox(slot=6) as box:
        expected = compute_expected(problem, box)
        before = box.jobs_started
        result = selfcheck_problem(problem, expected, box)
        return result, box.jobs_started - before


def test_a_passing_reference_is_judged_without_running_it_again(toy: CodeProblem) -> None:
    result, jobs = jobs_for(toy)
    assert result.ok
    assert all(v.outcome == ACCEPT for v in result.reference.values())
    assert result.reference["plus"].evidence["passed"] == 3
    assert "sandbox" in result.reference["plus"].evidence
    assert jobs == 1  # the stub's run alone


def test_a_reference_failing_a_stated_value_runs_again_and_fails_as_before() -> None:
    # HumanEval's check() values are stated: 2 + 2 is not 5, so the reference fails its test
    problem = CodeProblem.from_fields("toy/stated", "def add(a, b):\n", "    return a + b\n",
                                      "add", {"test": STATED})
    result, jobs = jobs_for(problem)
    assert jobs == 2  # the reference ran again, for the evidence a real run gives
    verdict = result.reference["base"]
    assert verdict.outcome == REJECT
    first = verdict.evidence["first_failure"]
    assert (first["call"], first["expected"], first["actual"]) == ("add(2, 2)", "5", "4")
    assert not result.ok


def test_judging_returns_nothing_where_the_expected_run_recorded_an_error(sandbox: Sandbox) -> None:
    problem = CodeProblem.from_fields(
        "toy/raises", "def inv(x):\n", "    return 1 / x\n", "inv",
        {"base_input": [[1], [0]], "plus_input": [], "atol": 0})
    expected = compute_expected(problem, sandbox)
    assert expected.errors  # 1 / 0
    assert judged_reference(problem, expected, sandbox, CodeGradeConfig()) is None
