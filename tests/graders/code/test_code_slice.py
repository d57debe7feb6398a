"""A grading job ends on a CPU-time slice, and the rest of its inputs run in a job of their own.

Results are judged only after a job ends (issue 29), so without slices a wrong sample that is
slow on every input ran its whole set: one HumanEval+ sample spent 50 s on the 390 plus inputs
after its first wrong one. A slice is a clock, blind to outputs: the job ends once its process
tree has used that much CPU time and an input is done; the host judges what came back, and a
sample with no failure goes on from the next input in a later pass. These tests check the
sandbox ends a job on its slice, that a failure inside a slice is final, and that verdicts
and first failures are the same with slices as without.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest

from graders.code import CodeGradeConfig, CodeJob, CodeProblem, expected_many, grade_code_many
from graders.code.grade import grade_part
from graders.code.sandbox.records import Segment
from graders.code.sandbox.records import TestSuite as Inputs

if TYPE_CHECKING:
    from graders.code import Sandbox
    from graders.code.expected import ExpectedOutputs

BURN = '''
import time


def burn(seconds):
    began = time.process_time()
    while time.process_time() - began < seconds:
        pass
'''
# right on every input, and 0.06 s of CPU time on each
SLOW_RIGHT = BURN + "\n\ndef double(n):\n    burn(0.06)\n    return 2 * n\n"
# wrong from input 3 on (`wrong_from`), slow on every input
SLOW_WRONG = BURN + "\n\ndef double(n):\n    burn(0.06)\n    return 2 * n if n < {wrong_from} else -1\n"
FAST_WRONG = "def double(n):\n    return n\n"
SLICE_S = 0.15


@pytest.fixture(scope="module")
def problem() -> tuple[CodeProblem, ExpectedOutputs]:
    problem = CodeProblem.from_fields(
        "Slice/0", "def double(n):\n", "    return 2 * n\n", "double",
        {"base_input": [[n] for n in range(6)], "plus_input": [[n] for n in range(6, 12)],
         "atol": 0})
    return problem, dict(expected_many({0: problem}, jobs=1))[0]


def test_a_job_ends_once_it_has_used_its_slice_and_finished_an_input(sandbox: Sandbox) -> None:
    suite = Inputs(f"slice:{uuid.uuid4().hex}", b"[[1], [2], [3], [4], [5], [6], [7], [8]]")
    seen: list[int] = []

    def keep(message: dict[str, Any]) -> bool:
        seen.append(message["i"])
        return False

    def run(slice_s: float | None) -> Any:
        seen.clear()
        return sandbox.run(SLOW_RIGHT, "double", suite, 0, 8, [5.0] * 8, [Segment(0, 8, 40.0)],
                           keep, digests=False, slice_s=slice_s)

    sliced = run(SLICE_S)
    # 0.06 s of CPU time an input: the slice is used up after the third input (the clock is
    # read as each result arrives, a tick late at most); never before the first input is done
    assert sliced.sliced and not sliced.ended
    assert 1 <= sliced.next_index <= 4 and seen == list(range(sliced.next_index))
    whole = run(None)
    assert not whole.sliced and whole.ended and whole.next_index == 8 and seen == list(range(8))


def test_an_input_longer_than_the_slice_still_finishes(sandbox: Sandbox) -> None:
    """The slice never cuts the first input of a job: each job gets at least one input done."""
    suite = Inputs(f"slice:{uuid.uuid4().hex}", b"[[1], [2]]")
    program = BURN + "\n\ndef double(n):\n    burn(0.4)\n    return 2 * n\n"
    result = sandbox.run(program, "double", suite, 0, 2, [5.0] * 2, [Segment(0, 2, 20.0)],
                         lambda message: False, digests=False, slice_s=0.1)
    assert result.sliced and result.next_index == 1


def test_a_failure_inside_a_slice_is_final_and_a_pass_goes_on(
        sandbox: Sandbox, problem: tuple[CodeProblem, ExpectedOutputs]) -> None:
    code_problem, expected = problem
    config = CodeGradeConfig()
    wrong = grade_part(SLOW_WRONG.format(wrong_from=0), code_problem, expected, sandbox, config,
                       slice_s=SLICE_S)
    assert wrong.resume_at is None
    assert wrong.verdicts["base"].outcome == "reject"
    assert wrong.verdicts["base"].evidence["first_failure"]["index"] == 0

    start, jobs = None, 0
    while True:  # the right one: sliced, resumed from where it stopped, until it is judged
        jobs += 1
        right = grade_part(SLOW_RIGHT, code_problem, expected, sandbox, config, start=start,
                           slice_s=SLICE_S)
        if right.resume_at is None:
            break
        assert right.verdicts == {} and right.resume_at > (start or 0)
        start = right.resume_at
    assert jobs >= 2
    assert {name: v.outcome for name, v in right.verdicts.items()} == {"base": "accept",
                                                                     "plus": "accept"}
    assert right.verdicts["plus"].evidence["passed"] == 12


def _outcomes(results: list[Any]) -> dict[str, tuple[tuple[str, Any, Any], ...]]:
    return {result.key: tuple((v.outcome, (v.evidence.get("first_failure") or {}).get("index"),
                               v.evidence["passed"])
                              for _, v in sorted(result.verdicts.items()))
            for result in results}


@pytest.mark.slow
def test_verdicts_and_first_failures_are_the_same_with_slices_as_without(
        problem: tuple[CodeProblem, ExpectedOutputs]) -> None:
    code_problem, expected = problem
    programs = {"slow right": SLOW_RIGHT, "fast wrong": FAST_WRONG,
                "wrong in base": SLOW_WRONG.format(wrong_from=3),
                "wrong in plus": SLOW_WRONG.format(wrong_from=9)}
    jobs = [CodeJob(key, program, code_problem, expected) for key, program in programs.items()]
    sliced_config = CodeGradeConfig(slice_cpu_s=SLICE_S)
    sliced = list(grade_code_many(jobs, jobs=2, config=sliced_config))
    whole = list(grade_code_many(jobs, jobs=2, config=replace(sliced_config, slice_cpu_s=None)))
    assert sorted(result.key for result in sliced) == sorted(programs)  # each once
    assert all(result.resume_at is None for result in sliced)
    assert _outcomes(sliced) == _outcomes(whole)
    assert _outcomes(sliced)["wrong in plus"] == (("accept", None, 6), ("reject", 3, 9))
    assert _outcomes(sliced)["wrong in base"] == (("reject", 3, 3), ("reject", 3, 3))
