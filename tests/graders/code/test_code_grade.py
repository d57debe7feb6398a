"""grade_sample: base and plus verdicts, the first failing input and its evidence."""

from __future__ import annotations

import dataclasses
import json
import pickle
from typing import TYPE_CHECKING

import pytest

from graders.code import (
    CodeGradeConfig,
    CodeProblem,
    ExpectedOutputs,
    TimeLimits,
    compute_expected,
    grade_reply,
    grade_sample,
)
from graders.verdict import ACCEPT, ERROR, REJECT, TIMEOUT

if TYPE_CHECKING:
    from graders.code import Sandbox
    from graders.verdict import Verdict


FAST = CodeGradeConfig(time_limits=TimeLimits(floor_s=0.5))  # 0.5 s floor: timeouts come quickly

ADD = 'def add(a, b):\n    """Add two numbers."""\n'


def grade(body: str, toy: CodeProblem, toy_expected: ExpectedOutputs, sandbox: Sandbox,
          config: CodeGradeConfig = FAST) -> dict[str, Verdict]:
    return grade_sample(ADD + body, toy, toy_expected, sandbox, config)


def test_reference_passes_base_and_plus(toy: CodeProblem, toy_expected: ExpectedOutputs,
                                        sandbox: Sandbox) -> None:
    verdicts = grade_sample(toy.reference_program, toy, toy_expected, sandbox, FAST)
    assert (verdicts["base"].outcome, verdicts["plus"].outcome) == (ACCEPT, ACCEPT)
    assert verdicts["plus"].evidence["passed"] == verdicts["plus"].evidence["total"] == 3
    assert verdicts["base"].evidence["total"] == 2


@pytest.mark.parametrize("body, base, plus, first", [
    # wrong only on the plus input: the queue's case (base passes, plus fails)
    ("    return a + b if a < 10 else 0\n", ACCEPT, REJECT,
     {"set": "plus", "index": 0, "kind": "wrong_output", "call": "add(10, 20)",
      "expected": "30", "actual": "0"}),
    # wrong on the second base input: plus carries the same first failure
    ("    return 3\n", REJECT, REJECT,
     {"set": "base", "index": 1, "kind": "wrong_output", "call": "add(3, 4)",
      "expected": "7", "actual": "3"}),
    # an exception, with the sample's line
    ("    x = 1\n    return [][a]\n", REJECT, REJECT,
     {"set": "base", "index": 0, "kind": "exception", "call": "add(1, 2)"}),
    # too slow on the plus input only: a timeout, triaged as such
    ("    while a >= 10:\n        pass\n    return a + b\n", ACCEPT, TIMEOUT,
     {"set": "plus", "index": 0, "kind": "timeout", "time_limit_s": 0.5}),
    # the program never loads
    ("    return (\n", REJECT, REJECT, {"set": "load", "index": None, "kind": "load_error"}),
])
def test_first_failing_input(toy: CodeProblem, toy_expected: ExpectedOutputs, sandbox: Sandbox, body: str,
                             base: str, plus: str, first: dict) -> None:
    verdicts = grade(body, toy, toy_expected, sandbox)
    assert (verdicts["base"].outcome, verdicts["plus"].outcome) == (base, plus)
    assert json.loads(json.dumps(verdicts["plus"].evidence)) == verdicts["plus"].evidence
    found = verdicts["plus"].evidence["first_failure"]
    assert {key: found[key] for key in first} == first


def test_counts_and_triage(toy: CodeProblem, toy_expected: ExpectedOutputs, sandbox: Sandbox) -> None:
    verdicts = grade("    while a >= 10:\n        pass\n    return a + b\n", toy, toy_expected,
                     sandbox)
    plus = verdicts["plus"].evidence
    assert (plus["passed"], plus["failed"], plus["not_run"], plus["triage"]) == (2, 1, 0, "timeout")
    assert verdicts["base"].evidence["triage"] is None


def test_exception_and_output_evidence(toy: CodeProblem, toy_expected: ExpectedOutputs,
                                       sandbox: Sandbox) -> None:
    verdicts = grade("    print('thinking', a)\n    raise ValueError(f'bad {a}')\n", toy,
                     toy_expected, sandbox)
    first = verdicts["base"].evidence["first_failure"]
    assert first["exception"] == {"type": "ValueError", "message": "bad 1", "line": 4}
    assert first["stdout"] == "thinking 1\n"


@pytest.mark.parametrize("strict, outcome", [(False, ACCEPT), (True, REJECT)])
def test_float_for_int_follows_strict_numbers(toy: CodeProblem, toy_expected: ExpectedOutputs,
                                              sandbox: Sandbox, strict: bool, outcome: str) -> None:
    config = dataclasses.replace(FAST, strict_numbers=strict)
    verdicts = grade("    return float(a + b)\n", toy, toy_expected, sandbox, config)
    assert verdicts["plus"].outcome == outcome


def test_expected_outputs_of_another_problem_is_an_error(toy: CodeProblem, sandbox: Sandbox) -> None:
    wrong = ExpectedOutputs("other/1", [1, 2, 3], [0.0, 0.0, 0.0])
    verdicts = grade_sample(toy.reference_program, toy, wrong, sandbox, FAST)
    assert verdicts["base"].outcome == verdicts["plus"].outcome == ERROR


def test_expected_outputs_survive_json(toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    again = ExpectedOutputs.from_json(toy_expected.to_json())
    assert again.outputs == toy_expected.outputs and again.seconds == toy_expected.seconds


@pytest.mark.parametrize("seconds, limit", [(0.01, 1.0), (0.5, 2.0)])
def test_time_limit_is_four_times_the_reference_with_a_floor(seconds: float, limit: float) -> None:
    expected = ExpectedOutputs("t", [None], [seconds])
    assert expected.time_limits(TimeLimits()) == [limit]


@pytest.fixture(scope="module")
def big(sandbox: Sandbox) -> tuple[CodeProblem, ExpectedOutputs]:
    """Outputs large enough to travel as digests."""
    problem = CodeProblem.from_fields(
        "toy/big", "def big(n):\n", "    return [i / 3 for i in range(n)]\n", "big",
        {"base_input": [[3]], "plus_input": [[20000], [30000]], "atol": 0})
    return problem, compute_expected(problem, sandbox)


@pytest.mark.parametrize("body, outcome, detail", [
    # identical output: the digests match
    ("    return [i / 3 for i in range(n)]\n", ACCEPT, None),
    # within float tolerance: digests differ, the re-run with full outputs accepts
    ("    return [i / 3 + 1e-9 for i in range(n)]\n", ACCEPT, None),
    # one element wrong in the last input: found, with both values shown
    ("    return [i / 3 for i in range(n - 1)] + [0.0] * (n == 30000) + "
     "[(n - 1) / 3] * (n != 30000)\n", REJECT, {"set": "plus", "index": 1}),
])
def test_large_outputs(big: tuple[CodeProblem, ExpectedOutputs], sandbox: Sandbox, body: str, outcome: str,
                       detail: dict | None) -> None:
    problem, expected = big
    verdicts = grade_sample("def big(n):\n" + body, problem, expected, sandbox, FAST)
    assert verdicts["plus"].outcome == outcome
    if detail:
        first = verdicts["plus"].evidence["first_failure"]
        assert {k: first[k] for k in detail} == detail
        assert first["expected"].startswith("[0.0, 0.3333333333333333")


@pytest.mark.parametrize("where", ["this process", "the cache", "another process"])
def test_the_references_large_outputs_are_read_from_its_own_run_where_it_ran_here(
        big: tuple[CodeProblem, ExpectedOutputs], sandbox: Sandbox, where: str) -> None:
    """Judging a float list within tolerance needs the reference's full value: the references
    stage kept its bytes, so only the sample's job runs; from the database cache (JSON) or
    shipped to another process (pickle: no open files travel) the reference runs once more."""
    problem, kept = big
    expected = {"this process": kept,
                "the cache": ExpectedOutputs.from_json(kept.to_json()),
                "another process": pickle.loads(pickle.dumps(kept))}[where]
    assert bool(expected.large) == (where == "this process")
    before = sandbox.jobs_started
    verdicts = grade_sample("def big(n):\n    return [i / 3 + 1e-9 for i in range(n)]\n",
                            problem, expected, sandbox, FAST)
    assert verdicts["plus"].outcome == ACCEPT
    assert sandbox.jobs_started - before == (1 if where == "this process" else 2)


def test_grade_reply_records_the_extraction(toy: CodeProblem, toy_expected: ExpectedOutputs,
                                            sandbox: Sandbox) -> None:
    reply = "Sure!\n```python\ndef add(a, b):\n    return a + b\n```\n"
    verdicts = grade_reply(reply, toy, toy_expected, sandbox=sandbox, config=FAST)
    assert verdicts["plus"].outcome == ACCEPT
    start = reply.index("def add")
    end = reply.index("```", start)
    assert verdicts["plus"].evidence["extraction"] == {"rule": "fenced_solution", "start": start,
                                                       "end": end}


HUMAN_EVAL_STYLE = CodeProblem.from_fields(
    "toy/check", 'def inc(x):\n    """x + 1"""\n', "    return x + 1\n", "inc",
    {"test": "def check(candidate):\n    assert candidate(1) == 2\n"
             "    for i in range(3):\n        assert candidate(i) == i + 1\n"})


@pytest.mark.parametrize("body, outcome", [
    ("    return x + 1\n", ACCEPT),
    # an always-equal object in a code case: candidate results must be plain data
    ("    class E:\n        def __eq__(self, o):\n            return True\n"
     "    return E() if x != 1 else 2\n", REJECT),
    # silencing AssertionError does not help: the assert is in the check, not the sample
    ("    import builtins\n    builtins.AssertionError = type('Quiet', (Exception,), {})\n"
     "    return 2 if x == 1 else 0\n", REJECT),
])
def test_check_cases_are_strict(sandbox: Sandbox, body: str, outcome: str) -> None:
    expected = compute_expected(HUMAN_EVAL_STYLE, sandbox)
    verdicts = grade_sample('def inc(x):\n    """x + 1"""\n' + body, HUMAN_EVAL_STYLE, expected,
                            sandbox, FAST)
    assert verdicts["base"].outcome == outcome


def test_inputs_the_reference_never_ran_on_are_no_free_pass(toy: CodeProblem, sandbox: Sandbox) -> None:
    # a sandbox failure while computing expected outputs must not turn into "skipped" passes
    from graders.code import ExpectedOutputs
    from graders.code.expected import NOT_RUN

    broken = ExpectedOutputs(toy.task_id, [None] * 3, [0.0] * 3,
                             {index: f"{NOT_RUN}: exit 125" for index in range(3)})
    assert broken.missing and not ExpectedOutputs(toy.task_id, [3, 7, 30], [0.0] * 3).missing
    verdicts = grade_sample('def add(a, b):\n    return "wrong"\n', toy, broken, sandbox, FAST)
    assert verdicts["base"].outcome == verdicts["plus"].outcome == ERROR
    assert "no expected output for input 0" in verdicts["plus"].evidence["error"]


def test_a_reference_that_dies_on_one_input_still_gives_the_others(sandbox: Sandbox) -> None:
    # the reference kills itself on input 1: that input is its own failure (skipped), the
    # inputs after it still get expected outputs
    problem = CodeProblem.from_fields(
        "toy/dies", "def f(x):\n    pass\n",
        "    if x == 1:\n        import ctypes\n        ctypes.CDLL(None)._exit(3)\n    return x\n",
        "f", {"base_input": [[0], [1], [2]], "plus_input": [[3]], "atol": 0})
    expected = compute_expected(problem, sandbox)
    assert expected.outputs[0] == 0 and expected.outputs[2:] == [2, 3]
    assert list(expected.errors) == [1] and not expected.missing
    verdicts = grade_sample("def f(x):\n    return x\n", problem, expected, sandbox, FAST)
    assert verdicts["plus"].outcome == ACCEPT
    assert verdicts["plus"].evidence["skipped_reference_errors"] == 1
