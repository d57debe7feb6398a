"""MBPP+ specifics: restore the tuples, sets and complex numbers JSON flattened, and the oracles.

The release stores every input as JSON, so a tuple argument arrives as a list. Which task
needs which restoration is a fact about the dataset, documented by EvalPlus
(`evalplus/data/mbpp.py`, `mbpp_deserialize_inputs`; `evalplus/eval/_special_oracle.py`);
these tables reproduce its behaviour so references and samples see the inputs they were
written for. Task numbers absent from the release are harmless.
"""

from __future__ import annotations

from typing import Any, Callable

Args = list[Any]


def _tuples(values: list[Any]) -> list[Any]:
    return [tuple(value) for value in values]


def _deep_tuple(value: Any) -> Any:
    return tuple(_deep_tuple(item) for item in value) if isinstance(value, list) else value


def _first_set_list(args: Args) -> Args:
    # non-empty lists become sets; an empty one becomes {} (a dict), exactly as EvalPlus does
    return [[set(item) if isinstance(item, list) and item else {} for item in args[0]]]


RESTORE: dict[str, tuple[set[int], Callable[[Args], Any]]] = {
    "each argument -> tuple": (
        {2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616,
         630, 726, 740, 744, 809},
        _tuples),
    "lists inside each argument -> tuples": (
        {63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780},
        lambda args: [_tuples(arg) for arg in args]),
    "lists inside the first argument -> tuples": (
        {75, 413, 444, 753},
        lambda args: [_tuples(args[0]), *args[1:]]),
    "second argument -> tuple": (
        {106, 750},
        lambda args: [args[0], tuple(args[1]), *args[2:]]),
    "first argument -> tuple": (
        {250, 405, 446, 617, 720, 763, 808},
        lambda args: [tuple(args[0]), *args[1:]]),
    "lists inside each argument, then each argument -> tuples": (
        {259, 401, 445},
        lambda args: _tuples([_tuples(arg) for arg in args])),
    "lists inside the first argument, then each argument -> tuples": (
        {278},
        lambda args: _tuples([[tuple(i) if isinstance(i, list) else i for i in args[0]]])),
    "first argument -> tuple (three arguments)": (
        {307},
        lambda args: [tuple(args[0]), args[1], args[2]]),
    "dict values -> tuples": (
        {722},
        lambda args: [{key: tuple(value) for key, value in args[0].items()}, *args[1:]]),
    "every list, at any depth -> tuple": (
        {580, 615, 791},
        _deep_tuple),
    "first argument's lists -> sets": ({115}, _first_set_list),
    "(float, complex) from strings": ({124}, lambda args: (float(args[0]), complex(args[1]))),
    "complex from a string": ({252}, lambda args: [complex(args[0])]),
}

_BY_TASK = {number: rule for rule, (numbers, _fn) in RESTORE.items() for number in numbers}

# entry point -> oracle name (see graders.code.compare.ORACLES)
ORACLES = {
    "similar_elements": "set_equal", "find_char_long": "set_equal",
    "common_in_nested_lists": "set_equal", "extract_singly": "set_equal",
    "larg_nnum": "set_equal", "intersection_array": "set_equal",
    "find_dissimilar": "set_equal", "Diff": "set_equal",
    "check_str": "not_none", "text_match_three": "not_none", "text_starta_endb": "not_none",
    "are_equivalent": "any_output", "sum_div": "equal_or_zero",
    "surface_Area": "surface_area", "digit_distance_nums": "digit_distance",
}


def task_number(task_id: str) -> int | None:
    """`Mbpp/123` -> 123; None for anything else."""
    prefix, _, number = task_id.partition("/")
    return int(number) if prefix == "Mbpp" and number.isdigit() else None


def restore_inputs(task_id: str, inputs: list[Args]) -> list[Any]:
    """The arguments each MBPP+ input had before JSON flattened them."""
    number = task_number(task_id)
    rule = _BY_TASK.get(number) if number is not None else None
    if rule is None:
        return inputs
    restore = RESTORE[rule][1]
    return [restore(args) for args in inputs]
