"""Compare two SymPy numbers without an absolute tolerance: exact values exactly, decimals to
the precision they were written, every comparison within a size budget.

Math-Verify compares numbers by `(a - b).evalf(chop=True) == 0` (SymPy chops anything below
about 2^-49, so `1/10^30` "equals" `2/10^30`) and by rounding both to 6 decimal places when one
is a Float (so `1e-7` "equals" `2e-7`). Here:

- exact numbers (no Float anywhere): a rational value (integers, fractions, integer powers,
  factorials) is computed with Python integers and compared exactly; any other exact number
  (radicals, pi, logs) is equal when the difference evaluates to zero at a working precision
  scaled to the size of the numbers in it (twice their bits plus 256), never at a fixed floor;
- a side written as a decimal (a Float anywhere): equal when both agree after rounding to
  `places` decimal places and to `places` significant figures (Math-Verify's rule alone lets
  every value below 5e-7 match every other);
- sizes are bounded: a value past the budget (`2^{2^{40}}`, `(10^6)!`) is never computed, and
  a comparison that would need it raises `TooLarge`, a timeout.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from sympy import (
    Abs,
    Add,
    Basic,
    Expr,
    Float,
    Mul,
    NumberSymbol,
    Pow,
    Rational,
    UnevaluatedExpr,
    binomial,
    exp,
    factorial,
    nan,
    oo,
    zoo,
)
from sympy.core.evalf import evalf as _evalf

from graders.math.decimal_match import decimal_match
from graders.math.time_limit import CheckTimeout

# Largest integer (or binary exponent) an exact comparison may build: about 30,000 digits.
BUDGET_BITS = 100_000
# Largest working precision of a numerical zero test or decimal rounding (about 12,000 digits).
PRECISION_BUDGET_BITS = 40_000
_GUARD_BITS = 256
_NONZERO_ACCURACY = 10
_NOT_FINITE = (oo, -oo, zoo, nan)


class TooLarge(CheckTimeout):
    """An exact comparison that would build a number past the size budget: a timeout."""


def is_finite_number(value: object) -> bool:
    """A finite SymPy number (no symbols, not a set, relation or matrix)."""
    return (
        isinstance(value, Expr) and bool(value.is_number)
        and not any(value.has(bad) for bad in _NOT_FINITE)
    )


@lru_cache(maxsize=4096)
def numbers_equal(a: Expr, b: Expr, places: int) -> bool | None:
    """Whether two finite numbers are equal (decimals: to `places` places and figures), or None
    when SymPy cannot evaluate them. Raises TooLarge past the budget."""
    if not (is_finite_number(a) and is_finite_number(b)):
        return None
    if a == b:
        return True
    try:
        try:
            if not (a.has(Float) or b.has(Float)):
                ra, rb = rational_value(a), rational_value(b)
                if ra is not None and rb is not None:
                    return ra == rb
                return _exact_zero(a - b, max(size_bits(a), size_bits(b)))
            return _decimal_equal(a, b, places)
        except TooLarge:
            if _clearly_apart(a, b):  # `2^{2^{40}}` against 5 needs no exact value
                return False
            raise
    except (ArithmeticError, NotImplementedError, TypeError, ValueError):
        return None  # SymPy cannot evaluate it: the caller's other tests decide


def _clearly_apart(a: Expr, b: Expr) -> bool:
    """Whether two numbers differ already at double precision (both evaluated accurately)."""
    parts = []
    for value in (a, b):
        re, im, re_acc, im_acc = _evalf(value, 53, {})
        if im is not None or (re is not None and (re_acc is None or re_acc < 40)):
            return False
        parts.append(None if re is None else _mpf_fraction_scaled(re))
    first, second = parts
    if first is None or second is None:  # zero against an accurate non-zero number
        return first is not second
    (sign_a, exp_a, man_a), (sign_b, exp_b, man_b) = first, second
    if sign_a != sign_b or abs(exp_a - exp_b) > 1:
        return True
    return abs(man_a * 2.0 ** (exp_a - exp_b) - man_b) > 2.0 ** -30 * abs(man_b)


def _mpf_fraction_scaled(part: tuple) -> tuple[int, int, float]:
    """(sign, binary exponent, mantissa in [0.5, 1)) of an mpf, whatever its size."""
    sign, mantissa, exponent, bits = part
    return sign, exponent + bits, mantissa / 2.0 ** bits


def rational_value(expr: Basic) -> Fraction | None:
    """The exact value of a rational-valued tree (integers, fractions, integer powers,
    factorials, binomials), or None for anything else. Raises TooLarge past the budget."""
    if isinstance(expr, Rational):
        return Fraction(int(expr.p), int(expr.q))
    if isinstance(expr, (UnevaluatedExpr, Abs)):
        inner = rational_value(expr.args[0])
        return None if inner is None else (abs(inner) if isinstance(expr, Abs) else inner)
    if isinstance(expr, (Add, Mul)):
        values = [rational_value(arg) for arg in expr.args]
        if any(v is None for v in values):
            return None
        total = Fraction(0) if isinstance(expr, Add) else Fraction(1)
        for v in values:
            total = total + v if isinstance(expr, Add) else total * v  # type: ignore[operator]
        return total
    if isinstance(expr, Pow):
        return _rational_power(expr)
    if isinstance(expr, (factorial, binomial)):
        args = [rational_value(arg) for arg in expr.args]
        if any(v is None or v.denominator != 1 or v < 0 for v in args):
            return None
        n = int(args[0])  # type: ignore[arg-type]
        _check_bits(n * max(1.0, math.log2(max(n, 1))))
        if isinstance(expr, factorial):
            return Fraction(math.factorial(n))
        return Fraction(math.comb(n, int(args[1])))  # type: ignore[arg-type]
    return None


def _rational_power(expr: Pow) -> Fraction | None:
    base, power = rational_value(expr.base), rational_value(expr.exp)
    if base is None or power is None or power.denominator != 1:
        return None  # a root: left to the numerical test
    if base == 0:
        return None if power < 0 else Fraction(int(power == 0))
    if abs(base) == 1:
        return base ** int(power % 2)
    _check_bits(_fraction_bits(base) * abs(power))
    return base ** int(power)


def size_bits(expr: Basic) -> float:
    """An upper bound on the bits of the numbers evaluating expr exactly builds (integers,
    binary exponents); raises TooLarge past the budget instead of computing anything big."""
    if isinstance(expr, Rational):
        return _check_bits(max(int(expr.p).bit_length(), int(expr.q).bit_length()))
    if isinstance(expr, Float):
        sign, mantissa, exponent, bits = expr._mpf_
        return _check_bits(abs(exponent) + bits)
    if isinstance(expr, Pow) or (isinstance(expr, exp)):
        base, power = (expr.base, expr.exp) if isinstance(expr, Pow) else (None, expr.args[0])
        base_bits = 2.0 if base is None else size_bits(base)
        return _check_bits(base_bits * max(1.0, _magnitude(power)) + size_bits(power))
    if isinstance(expr, (factorial, binomial)):
        n = _magnitude(expr.args[0])
        return _check_bits(n * max(1.0, math.log2(max(n, 2.0))) + size_bits(expr.args[0]))
    if isinstance(expr, NumberSymbol) or not expr.args:
        return 2.0
    return _check_bits(sum(size_bits(arg) for arg in expr.args) + len(expr.args))


def _magnitude(expr: Basic) -> float:
    """|expr| as a float (after its own size check), for exponents and factorial arguments;
    1 for an expression with symbols (its size is the symbols', unknown and not built)."""
    size_bits(expr)
    if not expr.is_number:
        return 1.0
    exact = rational_value(expr)
    if exact is not None:
        return _check_bits(abs(exact))
    value = _evalf(expr, 53, {})
    re, im = value[0], value[1]
    return _check_bits(math.hypot(_mpf_float(re), _mpf_float(im)))


def _mpf_float(part: tuple | None) -> float:
    if part is None:
        return 0.0
    sign, mantissa, exponent, bits = part
    if exponent + bits > 1024:
        raise TooLarge(f"a number past 2^{BUDGET_BITS} would be needed")
    return math.ldexp(float(mantissa), exponent) * (-1 if sign else 1)


def _check_bits(bits: float | Fraction) -> float:
    if not bits <= BUDGET_BITS:  # also catches nan
        raise TooLarge(f"exact comparison would need a number past 2^{BUDGET_BITS}")
    return float(bits)


def _fraction_bits(x: Fraction) -> int:
    return max(x.numerator.bit_length(), x.denominator.bit_length(), 1)


def _exact_zero(difference: Expr, bits: float) -> bool | None:
    """Whether an exact number is zero: it evaluates to zero at a working precision scaled to
    the size of its numbers (SymPy raises the precision through cancellation up to it)."""
    precision = int(2 * bits) + _GUARD_BITS
    if precision > PRECISION_BUDGET_BITS:
        raise TooLarge(f"a numerical zero test would need {precision} bits of precision")
    try:
        re, im, re_acc, im_acc = _evalf(difference, 53, {"maxprec": precision})
    except (NotImplementedError, ValueError, TypeError):
        return None
    # A part known to some bits of accuracy is not zero (a cancellation SymPy could not
    # resolve within the precision comes back with about one bit, or none).
    return not any(part is not None and acc is not None and acc >= _NONZERO_ACCURACY
                   for part, acc in ((re, re_acc), (im, im_acc)))


def _decimal_equal(a: Expr, b: Expr, places: int) -> bool | None:
    """Equal to `places` places and figures, real and imaginary parts each."""
    parts_a, parts_b = _complex_fraction(a, places), _complex_fraction(b, places)
    if parts_a is None or parts_b is None:
        return None
    return all(decimal_match(x, y, places) for x, y in zip(parts_a, parts_b, strict=True))


def _complex_fraction(value: Expr, places: int) -> tuple[Fraction, Fraction] | None:
    """(real, imaginary) parts, exact for a rational value, else evaluated with enough bits to
    round them to `places` places and figures. A Float counts as the decimal it was written
    as (`6.02`, not the binary 6.0199999999999996), so `6.02 \\times 10^{23}` is exact."""
    value = value.xreplace({f: Rational(str(f)) for f in value.atoms(Float)})
    exact = rational_value(value)
    if exact is not None:
        return exact, Fraction(0)
    try:
        rough = _evalf(value, 53, {})
        magnitude = max(_exponent(rough[0]), _exponent(rough[1]), 0)
        precision = magnitude + int(3.33 * places) + 64 + int(size_bits(value))
        if precision > PRECISION_BUDGET_BITS:
            raise TooLarge(f"rounding would need {precision} bits of precision")
        re, im, _, _ = _evalf(value, precision, {"maxprec": 2 * precision})
    except (NotImplementedError, ValueError, TypeError):
        return None
    return _mpf_fraction(re), _mpf_fraction(im)


def _exponent(part: tuple | None) -> int:
    return 0 if part is None else part[2] + part[3]


def _mpf_fraction(part: tuple | None) -> Fraction:
    if part is None:
        return Fraction(0)
    sign, mantissa, exponent, bits = part
    value = Fraction(mantissa) * (Fraction(2) ** exponent)
    return -value if sign else value
