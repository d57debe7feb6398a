"""Compare a sample's output with the expected one as plain data, and the per-task oracles.

Values reach this module decoded from the sandbox's tagged JSON, so they are builtin types or
`Opaque`; nothing here runs code from the sample, and an opaque object never matches. Types
must match exactly (a tuple is not a list, "1" is not 1), except that numbers compare by value
across bool/int/float as Python's `==` and EvalPlus do (False == 0 == 0.0); with
`strict_numbers` they must match in type too. Floats match within the task's `atol` (1e-6 when
the task gives none, plus EvalPlus's relative 1e-7), and NaN matches NaN.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from graders.code.sandbox.inside.tagged import Opaque

DEFAULT_FLOAT_ATOL = 1e-6
FLOAT_RTOL = 1e-7


def floats_close(actual: float, expected: float, atol: float) -> bool:
    if actual == expected or (math.isnan(actual) and math.isnan(expected)):
        return True
    if math.isinf(actual) or math.isinf(expected):
        return False
    tolerance = (atol or DEFAULT_FLOAT_ATOL) + FLOAT_RTOL * abs(expected)
    return abs(actual - expected) <= tolerance


_NUMBERS = (bool, int, float)


def plain_equal(actual: Any, expected: Any, atol: float = 0.0,
                strict_numbers: bool = False) -> bool:
    """Same type and value, recursively; floats within tolerance."""
    kind = type(expected)
    if type(actual) is not kind:
        if strict_numbers or kind not in _NUMBERS or type(actual) not in _NUMBERS:
            return False
        return floats_close(float(actual), expected, atol) if kind is float else bool(
            actual == expected)
    if kind is Opaque:
        return False
    if kind is float:
        return floats_close(actual, expected, atol)
    if kind is list or kind is tuple:
        return len(actual) == len(expected) and all(
            plain_equal(a, e, atol, strict_numbers)
            for a, e in zip(actual, expected, strict=True))
    if kind is dict:
        return actual.keys() == expected.keys() and all(
            plain_equal(actual[key], value, atol, strict_numbers)
            for key, value in expected.items())
    if kind is complex:
        return (floats_close(actual.real, expected.real, atol)
                and floats_close(actual.imag, expected.imag, atol))
    return bool(actual == expected)


def _is_number(value: Any) -> bool:
    return type(value) is int or type(value) is float


def poly(coefficients: list[Any], x: float) -> float:
    """HumanEval/32's polynomial, evaluated as its prompt defines it."""
    return sum(coefficient * math.pow(x, power) for power, coefficient in enumerate(coefficients))


def _poly_root(actual: Any, _expected: Any, args: list[Any], atol: float, _strict: bool) -> bool:
    return _is_number(actual) and abs(poly(args[0], actual)) <= atol


def _set_equal(actual: Any, expected: Any, _args: list[Any], _atol: float, _strict: bool) -> bool:
    if type(actual) not in (list, tuple, set, frozenset):
        return False
    return set(actual) == set(expected)


def _not_none(actual: Any, expected: Any, _args: list[Any], _atol: float, _strict: bool) -> bool:
    # EvalPlus keeps only "the reference returned something": a bool output must equal that
    should_exist = expected is not None
    if type(actual) is bool:
        return actual == should_exist
    return should_exist == (actual is not None)


def _surface_area(actual: Any, expected: Any, args: list[Any], atol: float,
                  strict: bool) -> bool:
    if plain_equal(actual, expected, atol, strict):
        return True
    base_edge, height = args
    slant = math.sqrt((base_edge / 2) ** 2 + height**2)
    return _is_number(actual) and abs(actual - round(base_edge**2 + 2 * base_edge * slant)) <= atol


def _digit_distance(actual: Any, expected: Any, args: list[Any], atol: float,
                    strict: bool) -> bool:
    if plain_equal(actual, expected, atol, strict):
        return True
    first, second = (str(number) for number in args)
    width = max(len(first), len(second))
    pairs = zip(first.zfill(width), second.zfill(width), strict=True)
    distance = sum(abs(int(a) - int(b)) for a, b in pairs)
    return type(actual) is int and actual == distance


Oracle = Callable[[Any, Any, list[Any], float, bool], bool]
ORACLES: dict[str, Oracle] = {
    "equal": lambda actual, expected, _args, atol, strict: plain_equal(
        actual, expected, atol, strict),
    "poly_root": _poly_root,  # HumanEval/32: |poly(xs, x)| <= atol, any root will do
    "set_equal": _set_equal,  # MBPP+ tasks whose order is unspecified
    "not_none": _not_none,  # MBPP+ tasks whose outputs are regex matches
    "any_output": lambda *_: True,  # Mbpp/164: EvalPlus accepts any output
    "equal_or_zero": lambda actual, expected, _args, atol, strict: (
        plain_equal(actual, expected, atol, strict) or (_is_number(actual) and actual == 0)),
    "surface_area": _surface_area,  # Mbpp/581: either reading of "height"
    "digit_distance": _digit_distance,  # Mbpp/558: numbers of different lengths
}

COERCIONS: dict[str, Callable[[Any], Any]] = {
    "tuple": tuple, "list": list, "set": set, "sorted": sorted, "float": float,
}


def coerce(name: str, value: Any) -> Any:
    """Apply a HumanEval assert's conversion (`tuple(candidate(...))`) to plain data only."""
    if name == "float":
        if not _is_number(value):
            raise TypeError(f"float() of {type(value).__name__}")
    elif type(value) not in (list, tuple, set, frozenset, str, dict):
        raise TypeError(f"{name}() of {type(value).__name__}")
    return COERCIONS[name](value)


def judge(oracle: str, actual: Any, expected: Any, args: list[Any], atol: float,
          strict_numbers: bool = False) -> bool:
    """Does `actual` pass? Any error while checking counts as a failure."""
    try:
        return bool(ORACLES[oracle](actual, expected, args, atol, strict_numbers))
    except (ArithmeticError, TypeError, ValueError, OverflowError):
        return False
