"""A problem and its expected outputs pickled, as Ray ships them to a worker, grade exactly as
the originals (its "no stated value" marker is compared by identity, so it must survive)."""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING

from graders.code import grade_sample
from graders.code.cases import NO_VALUE
from tests.cluster.stored import without_timings

if TYPE_CHECKING:
    from graders.code import CodeProblem, ExpectedOutputs, Sandbox


ADD = 'def add(a, b):\n    """Add two numbers."""\n'


def test_a_shipped_problem_grades_as_the_original(toy: CodeProblem, toy_expected: ExpectedOutputs,
                                                  sandbox: Sandbox) -> None:
    problem, expected = pickle.loads(pickle.dumps((toy, toy_expected)))
    assert all(case.expected is NO_VALUE for case in problem.tests)
    for body in ("    return a + b\n", "    return a + b if a < 5 else 0\n"):
        here = grade_sample(ADD + body, toy, toy_expected, sandbox)
        there = grade_sample(ADD + body, problem, expected, sandbox)
        assert ({name: (v.outcome, without_timings(v.evidence)) for name, v in there.items()}
                == {name: (v.outcome, without_timings(v.evidence)) for name, v in here.items()})
    assert there["plus"].outcome == "reject" and here["base"].outcome == "accept"
