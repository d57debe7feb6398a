"""shrink_values: smaller neighbours keep their types, are strictly smaller, and run out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graders.code.shrink_values import candidates, input_key, neighbours, size

if TYPE_CHECKING:
    from collections.abc import Sized
    from typing import Any


@pytest.mark.parametrize("value, wanted", [
    # numbers move towards zero, by fractions first so a threshold is found in a few steps
    (63, {0, 1, -1, 6, 31, 47, 55, 62}),
    (-8, {0, 1, -1, -4, -6, -7, 8}),
    (-2.5, {0.0, 1.0, -1.0, -2.0, -1.25, 2.5}),
    (0, set()),
    (True, {False}),
    (False, set()),
    # floats stay floats (contracts check isinstance(x, float))
    (3.75, {0.0, 1.0, -1.0, 3.0, 1.875}),  # round(3.75, 1) is larger: left out
])
def test_number_neighbours(value: bool | float | int, wanted: set[bool | float | int]) -> None:
    found = set(neighbours(value))
    assert found == wanted
    assert all(type(item) is type(value) for item in found)


@pytest.mark.parametrize("value", [
    [5, 6, 7, 8], (5, 6, 7, 8), "hello", {"a": 1, "b": 2}, {1, 2, 3}, frozenset({1, 2}),
    [[1, 2], [3]],
])
def test_containers_keep_their_type_and_get_shorter(value: Sized) -> None:
    found = list(neighbours(value))
    assert found and all(type(item) is type(value) for item in found)
    assert type(value)() in found  # the empty one is offered
    assert all(len(item) <= len(value) for item in found)


def test_string_neighbours_remove_a_balanced_pair_from_the_middle() -> None:
    # removing "()" from inside keeps a paren string balanced (HumanEval/1's contract)
    assert "(())" in set(neighbours("(()())"))
    assert "aa" in set(neighbours("ab"))  # plainer characters at one length


def test_candidates_are_strictly_smaller_distinct_and_sorted() -> None:
    args: list[Any] = [[True, False, None, 0, -10, "test", [], {}, 3.14]]
    found = candidates(args)
    assert found[0] == [[]]
    sizes = [size(c) for c in found]
    assert sizes == sorted(sizes) and all(s < size(args) for s in sizes)
    assert len({input_key(c) for c in found}) == len(found)


def test_candidates_shorten_equal_length_arguments_together() -> None:
    # compare(game, guess) needs both lists equally long: they shrink in step
    found = candidates([[1, 2, 3, 4, 5], [1, 2, 3, 4, 6]])
    assert [[1, 2, 3], [1, 2, 3]] in found and [[3, 4, 5], [3, 4, 6]] in found
    assert found[0] == [[], []]


def test_long_inputs_are_told_apart_beyond_the_shown_call() -> None:
    # a call shown to people is cut short; keys must still differ for inputs that differ late
    long = list(range(2000))
    assert input_key([long]) != input_key([[*long[:-1], -1]])
    assert all(len(c[0]) < 2000 or c[0] != long for c in candidates([long]))


def test_repeated_shrinking_ends() -> None:
    args: list = [[9, 8, 7, 6, 5, 4, 3, 2, 1, 0], "abcdef", 123.456, {"k": [1, 2]}]
    for _ in range(500):
        found = candidates(args)
        if not found:
            break
        args = found[-1]  # the least ambitious step, the slowest way down
    assert candidates(args) == []
    assert args == [[], "", 0.0, {}]


def test_values_without_neighbours() -> None:
    assert candidates([None, 0, "", []]) == []
