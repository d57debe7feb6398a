"""Minimal failing inputs: shrunk in the sandbox, valid under the contract, failing the same way."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from graders.code import CodeGradeConfig, CodeProblem, TimeLimits, compute_expected, grade_sample
from graders.code.minimal import ShrinkLimits
from graders.code.reference_oracle import ReferenceOracle

if TYPE_CHECKING:
    from typing import Any

    from graders.code import ExpectedOutputs, Sandbox

PROMPT = 'def total(xs):\n    """Sum of a list of non-negative ints."""\n'
CONTRACT = ('\n    assert type(xs) == list, "invalid inputs" # $_CONTRACT_$\n'
            '    assert all(type(x) == int and x >= 0 for x in xs), "invalid inputs" # $_CONTRACT_$\n')
LONG = [3, 9, 12, 0, 5, 7, 21, 4, 8, 30, 2, 6, 11, 13, 1]


def config(**limits: Any) -> CodeGradeConfig:
    return CodeGradeConfig(time_limits=TimeLimits(floor_s=0.5),
                           shrink=ShrinkLimits(floor_s=0.5, **limits))


@pytest.fixture(scope="module")
def problem() -> CodeProblem:
    return CodeProblem.from_fields(
        "toy/total", PROMPT, "\n    return sum(xs)\n", "total",
        {"base_input": [[[1, 2]]], "plus_input": [[LONG]], "atol": 0, "contract": CONTRACT})


@pytest.fixture(scope="module")
def expected(problem: CodeProblem, sandbox: Sandbox) -> ExpectedOutputs:
    return compute_expected(problem, sandbox)


def first_failure(body: str, problem: CodeProblem, expected: ExpectedOutputs, sandbox: Sandbox,
                  **limits: Any) -> dict:
    verdicts = grade_sample(PROMPT + body, problem, expected, sandbox, config(**limits),
                            ReferenceOracle(problem))
    evidence = verdicts["plus"].evidence
    assert json.loads(json.dumps(evidence)) == evidence  # stored as JSON
    return evidence["first_failure"]


def test_a_wrong_output_shrinks_to_the_element_that_matters(problem: CodeProblem, expected: ExpectedOutputs,
                                                            sandbox: Sandbox) -> None:
    # skips 7s: only a list holding a 7 shows the bug; negative numbers break the contract
    first = first_failure("    return sum(x for x in xs if x != 7)\n", problem, expected, sandbox)
    minimal = first["minimal"]
    assert first["call"].startswith("total([3, 9, 12")
    assert (minimal["call"], minimal["expected"], minimal["actual"]) == ("total([7])", "7", "0")
    assert minimal["kind"] == "wrong_output" and minimal["args"] == [[7]]
    assert minimal["seen_alone"] and not minimal["same_as_original"]
    search = minimal["search"]
    assert search["complete"] and search["stopped"] is None and search["steps"] >= 1
    assert search["rejected_by_contract"] > 0  # e.g. total([-1]) was offered and refused
    assert "contract" in search["contract"]


def test_an_exception_keeps_its_type(problem: CodeProblem, expected: ExpectedOutputs,
                                     sandbox: Sandbox) -> None:
    # a ZeroDivisionError on a 0; an IndexError on lists longer than 12 must not be taken
    body = ("    if len(xs) > 12:\n        raise IndexError('long')\n"
            "    return sum(10 // x for x in xs) * 0 + sum(xs)\n")
    first = first_failure(body, problem, expected, sandbox)
    assert first["kind"] == "exception" and first["expected"] == str(sum(LONG))
    minimal = first["minimal"]
    assert minimal["exception"]["type"] == "IndexError"
    assert minimal["call"].count(",") == 12  # the shortest list that still raises IndexError


def test_a_timeout_shrinks_within_its_timeout_budget(problem: CodeProblem, expected: ExpectedOutputs,
                                                     sandbox: Sandbox) -> None:
    body = "    while len(xs) >= 3:\n        pass\n    return sum(xs)\n"
    first = first_failure(body, problem, expected, sandbox, max_timeouts=8)
    assert first["kind"] == "timeout" and first["expected"] == str(sum(LONG))
    minimal = first["minimal"]
    assert minimal["kind"] == "timeout" and minimal["call"].count(",") == 2  # three elements
    assert minimal["expected"] == str(sum(minimal["args"][0]))
    assert not minimal["seen_alone"]  # a timeout is not paid for twice
    assert minimal["search"]["complete"]


def test_a_spent_budget_is_said(problem: CodeProblem, expected: ExpectedOutputs, sandbox: Sandbox) -> None:
    body = "    while len(xs) >= 3:\n        pass\n    return sum(xs)\n"
    minimal = first_failure(body, problem, expected, sandbox, max_timeouts=1)["minimal"]
    assert not minimal["search"]["complete"]
    assert minimal["search"]["stopped"] == "timeout budget (1 inputs at a time limit) reached"
    minimal = first_failure("    return sum(x for x in xs if x != 7)\n", problem, expected,
                            sandbox, max_tries=1)["minimal"]
    assert "try budget" in minimal["search"]["stopped"]
    assert minimal["call"].startswith("total(")  # still a failing input, just a larger one
    for spent, said in (({"max_cpu_s": -1.0}, "CPU budget"),
                        ({"max_wall_s": -1.0}, "wall-clock limit")):
        minimal = first_failure("    return sum(x for x in xs if x != 7)\n", problem, expected,
                                sandbox, **spent)["minimal"]
        assert said in minimal["search"]["stopped"] and minimal["same_as_original"]


def test_a_failure_that_needs_earlier_calls_is_not_kept(problem: CodeProblem, expected: ExpectedOutputs,
                                                        sandbox: Sandbox) -> None:
    # fails from its second call on, in any process: seen alone, a smaller input passes
    body = ("    global CALLS\n    CALLS = globals().get('CALLS', 0) + 1\n"
            "    return sum(xs) + (CALLS > 1)\n")
    first = first_failure(body, problem, expected, sandbox)
    minimal = first["minimal"]
    assert minimal["same_as_original"] and minimal["call"] == first["call"]
    assert "did not recur on its own" in minimal["search"]["stopped"]


def test_expected_output_is_recorded_for_every_kind_of_failure(problem: CodeProblem,
                                                               expected: ExpectedOutputs,
                                                               sandbox: Sandbox) -> None:
    for body in ("    raise ValueError('no')\n", "    while True:\n        pass\n",
                 "    return None\n"):
        first = first_failure(body, problem, expected, sandbox, max_timeouts=1)
        assert first["expected"] == "3", body  # total([1, 2]), the first base input
        assert first["minimal"]["expected"] is not None


def test_a_timeout_the_host_caught_keeps_the_expected_output(problem: CodeProblem, expected: ExpectedOutputs,
                                                             sandbox: Sandbox) -> None:
    # sleeping spends no CPU, so the harness's CPU-time clock never fires: the host's wall-clock
    # watchdog ends the run, on any machine
    first = first_failure("    import time\n    time.sleep(30)\n    return 0\n", problem,
                          expected, sandbox, max_timeouts=1)
    assert first["kind"] == "timeout" and first["caught_by"].startswith("the host's watchdog")
    assert (first["call"], first["expected"]) == ("total([1, 2])", "3")
    assert first["minimal"]["expected"] is not None


def test_without_shrink_limits_there_is_no_minimal(problem: CodeProblem, expected: ExpectedOutputs,
                                                   sandbox: Sandbox) -> None:
    verdicts = grade_sample(PROMPT + "    return 0\n", problem, expected, sandbox,
                            CodeGradeConfig(time_limits=TimeLimits(floor_s=0.5)))
    first = verdicts["plus"].evidence["first_failure"]
    assert "minimal" not in first and first["expected"] == "3"


def test_without_a_contract_the_reference_must_return(sandbox: Sandbox) -> None:
    # an original HumanEval problem: stated expected values, no contract; the minimal input's
    # expected output is the reference's, and inputs it raises on are not offered
    problem = CodeProblem.from_fields(
        "toy/inverse", "def inverse(x: int):\n", "    return 100 // x\n", "inverse",
        {"test": "def check(candidate):\n    assert candidate(50) == 2\n"
                 "    assert candidate(40) == 2\n"})
    expected = compute_expected(problem, sandbox)
    verdicts = grade_sample("def inverse(x):\n    return 100 // x if x < 30 else 0\n", problem,
                            expected, sandbox, config(), ReferenceOracle(problem))
    first = verdicts["plus"].evidence["first_failure"]
    assert (first["call"], first["expected"]) == ("inverse(50)", "2")
    minimal = first["minimal"]
    assert (minimal["call"], minimal["expected"], minimal["actual"]) == ("inverse(30)", "3", "0")
    assert minimal["search"]["contract"].startswith("the reference must return")
