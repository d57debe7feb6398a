"""Strict comparison of plain data, and the per-task oracles of HumanEval+ and MBPP+."""

from __future__ import annotations

import math

import pytest

from graders.code.compare import coerce, judge, plain_equal
from graders.code.sandbox.inside.tagged import Opaque


@pytest.mark.parametrize("actual, expected, atol, equal", [
    # same type and value
    (3, 3, 0, True), ("a", "a", 0, True), ([1, (2,)], [1, (2,)], 0, True), (None, None, 0, True),
    # containers and strings never convert
    ([1, 2], (1, 2), 0, False), ("1", 1, 0, False), ({1: 2}, [(1, 2)], 0, False),
    ({"a": 1}, {"a": 1, "b": 2}, 0, False), ([1], [1, 2], 0, False), (None, 0, 0, False),
    # numbers compare by value across bool/int/float, as Python and EvalPlus do
    (0, False, 0, True), (1.0, 1, 0, True), (0, 0.0, 0, True), (2, 3, 0, False),
    # floats: task atol, else 1e-6, plus relative 1e-7
    (0.1 + 0.2, 0.3, 0, True), (1.00001, 1.0, 0, False), (1.00001, 1.0, 1e-4, True),
    (1e20 + 1e13, 1e20, 0, True), ([0.1 + 0.2], [0.3], 0, True),
    # NaN equals NaN, infinities only themselves
    (math.nan, math.nan, 0, True), (math.inf, math.inf, 0, True), (math.inf, -math.inf, 0, False),
    (math.nan, 0.0, 0, False),
    # opaque objects (an always-equal object, a generator ...) never match
    (Opaque("x.Equal"), Opaque("x.Equal"), 0, False), (Opaque("builtins.map"), [1], 0, False),
])
def test_plain_equal(actual: object, expected: object, atol: float | int, equal: bool) -> None:
    assert plain_equal(actual, expected, atol) is equal


@pytest.mark.parametrize("actual, expected", [(0, False), (1.0, 1), (True, 1), ([0], [0.0])])
def test_strict_numbers_tell_types_apart(actual: bool | float | int | list,
                                         expected: bool | int | list) -> None:
    assert not plain_equal(actual, expected, strict_numbers=True)


@pytest.mark.parametrize("oracle, actual, expected, args, atol, passes", [
    # HumanEval/32: any root within atol passes, whatever the reference found
    ("poly_root", 3.0, 2.0, [[-4, 0, 1, 0]], 1e-4, False),
    ("poly_root", -2.0, 2.0, [[-4, 0, 1, 0]], 1e-4, True),
    ("poly_root", 2.0, -5.0, [[-4, 2]], 1e-4, True),
    ("poly_root", 2.00001, 2.0, [[-4, 2]], 1e-4, True),
    ("poly_root", "2", 2.0, [[-4, 2]], 1e-4, False),
    # MBPP+ set-equality tasks: any order
    ("set_equal", (5, 4), (4, 5), [], 0, True), ("set_equal", [4], (4, 5), [], 0, False),
    ("set_equal", Opaque("x"), (4,), [], 0, False),
    # MBPP+ not-none tasks: only "found something" matters
    ("not_none", Opaque("re.Match"), Opaque("re.Match"), [], 0, True),
    ("not_none", None, Opaque("re.Match"), [], 0, False), ("not_none", True, None, [], 0, False),
    # Mbpp/581 surface_Area: either reading of the height
    ("surface_area", 33, 33, [3, 4], 1e-4, True), ("surface_area", 34, 33, [3, 4], 1e-4, False),
    # Mbpp/295 sum_div: 0 is also accepted
    ("equal_or_zero", 0, 7, [8], 0, True), ("equal_or_zero", 6, 7, [8], 0, False),
])
def test_oracles(oracle: str, actual: object, expected: object, args: list, atol: float | int,
                 passes: bool) -> None:
    assert judge(oracle, actual, expected, args, atol) is passes


@pytest.mark.parametrize("name, value, result", [
    ("tuple", [1, 2], (1, 2)), ("sorted", (3, 1), [1, 3]), ("set", [1, 1], {1}),
])
def test_coerce_plain_values(name: str, value: list | tuple, result: list | set | tuple) -> None:
    assert coerce(name, value) == result


@pytest.mark.parametrize("name, value", [("tuple", Opaque("x")), ("sorted", 3), ("float", "1")])
def test_coerce_refuses_non_plain(name: str, value: object) -> None:
    with pytest.raises(TypeError):
        coerce(name, value)
