"""Make Math-Verify compare numbers by `exact_values` while `symbolic` is asking.

Math-Verify decides every leaf of a comparison (a number, an element of a set or tuple, an
interval's end, a relation's two sides) in `sympy_numeric_eq` and then `sympy_symbolic_eq`.
`patches.py` replaces both module attributes with `numeric_eq` and `symbolic_eq`, which behave
exactly as Math-Verify's unless `exact_numbers()` is active (a context variable), so
`mathverify-full` keeps Math-Verify's own verdicts and `symbolic` gets the exact ones:

- two finite numbers: `exact_values.numbers_equal` decides, both functions return its answer;
- expressions whose symbols cancel (`x = 10^{-30}` against `x = 2 \\cdot 10^{-30}` compares
  `x - 10^{-30}` with `x - 2 \\cdot 10^{-30}`): what is left is compared the same way;
- other exact expressions skip the rounded numeric test and go to `simplify` (exact);
- expressions with symbols and a decimal keep Math-Verify's numeric test.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import math_verify.grader as mv_grader
from sympy import Basic, Expr, Float, Integer, MatrixBase

from graders.math import patches
from graders.math.exact_values import TooLarge, is_finite_number, numbers_equal, size_bits

# The decimal places (and figures) decimals are compared to, while exact numbers are on.
_PLACES: ContextVar[int | None] = ContextVar("exact_numbers_places", default=None)
_ORIGINAL_NUMERIC = mv_grader.sympy_numeric_eq
_ORIGINAL_SYMBOLIC = mv_grader.sympy_symbolic_eq


@contextmanager
def exact_numbers(places: int) -> Iterator[None]:
    """Math-Verify compares numbers exactly inside this block, decimals to `places` places
    and figures (a process that compares numbers is a checking process: its patches go in,
    once)."""
    patches.install()
    token = _PLACES.set(places)
    try:
        yield
    finally:
        _PLACES.reset(token)


def numeric_hook(original: object) -> object:
    """What replaces Math-Verify's `sympy_numeric_eq` (`patches.py`)."""
    if original is not _ORIGINAL_NUMERIC:
        raise ValueError("sympy_numeric_eq is no longer Math-Verify's own: not replaced twice")
    return numeric_eq


def symbolic_hook(original: object) -> object:
    """What replaces Math-Verify's `sympy_symbolic_eq` (`patches.py`)."""
    if original is not _ORIGINAL_SYMBOLIC:
        raise ValueError("sympy_symbolic_eq is no longer Math-Verify's own: not replaced twice")
    return symbolic_eq


def numeric_eq(a: Basic, b: Basic, float_rounding: int, numeric_precision: int) -> bool:
    """Math-Verify's `sympy_numeric_eq`, or the exact decision while exact_numbers() is on."""
    places = _PLACES.get()
    if places is None or isinstance(a, MatrixBase) or isinstance(b, MatrixBase):
        return _ORIGINAL_NUMERIC(a, b, float_rounding, numeric_precision)
    if _percent_of_integers(a, b):  # Math-Verify's `9\% == 9`: its rule, kept
        return _ORIGINAL_NUMERIC(a, b, float_rounding, numeric_precision)
    decided = _exact_decision(a, b, places)
    if decided is not None:
        return decided
    if isinstance(a, Expr) and isinstance(b, Expr) and (a.has(Float) or b.has(Float)):
        _within_budget(a, b)
        return _ORIGINAL_NUMERIC(a, b, float_rounding, numeric_precision)
    return False  # exact expressions with symbols: `simplify` decides, exactly


def symbolic_eq(a: Basic, b: Basic) -> bool:
    """Math-Verify's `sympy_symbolic_eq`, except that numbers already decided stay decided."""
    places = _PLACES.get()
    if places is not None and not (isinstance(a, MatrixBase) or isinstance(b, MatrixBase)):
        decided = _exact_decision(a, b, places)
        if decided is not None:
            return decided
        _within_budget(a, b)  # `simplify` would build 2^(2^40) in C code no signal stops
    return _ORIGINAL_SYMBOLIC(a, b)


def _within_budget(*values: Basic) -> None:
    """Raise TooLarge when evaluating a value would build a number past the size budget."""
    for value in values:
        try:
            size_bits(value)
        except TooLarge:
            raise
        except Exception:  # an expression SymPy cannot size is left to `simplify`
            pass


def _exact_decision(a: Basic, b: Basic, places: int) -> bool | None:
    """The exact verdict on two numbers, or on two expressions whose symbols cancel; None when
    neither applies (or SymPy cannot evaluate them)."""
    if is_finite_number(a) and is_finite_number(b):
        return numbers_equal(a, b, places)
    if not (isinstance(a, Expr) and isinstance(b, Expr)):
        return None
    try:
        difference = a - b
    except Exception:
        return None
    if difference == 0:
        return True
    if not is_finite_number(difference):
        return None
    # `x - 10^{-30}` against `x - 2 \cdot 10^{-30}`: compare the constant terms when the rest
    # is the same; otherwise only an exact zero difference is equality.
    symbols = a.free_symbols | b.free_symbols
    const_a, rest_a = a.as_independent(*symbols, as_Add=True)
    const_b, rest_b = b.as_independent(*symbols, as_Add=True)
    if rest_a == rest_b and is_finite_number(const_a) and is_finite_number(const_b):
        return numbers_equal(const_a, const_b, places)
    return numbers_equal(difference, Integer(0), places)


def _percent_of_integers(a: Basic, b: Basic) -> bool:
    integer_like = mv_grader.is_atomic_or_pct_atomic
    percent = mv_grader.get_pct_val
    return (
        integer_like(a, Integer) and integer_like(b, Integer)
        and (percent(a) is not None or percent(b) is not None)
    )
