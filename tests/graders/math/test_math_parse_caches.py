"""The speed-ups in front of Math-Verify change no result: cached parses equal fresh ones, and
the direct number comparison equals Math-Verify's own `verify`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from math_verify import verify
from sympy import Float, Integer, Rational, oo

from graders.math.parse_caches import _ORIGINAL_PARSE_EXPR, parse_expr
from graders.math.symbolic import SymbolicConfig, verify_fast

if TYPE_CHECKING:
    from sympy import Basic


# What SymPy's parser reads: numbers, floats, names it must look up in its namespace, builtins.
@pytest.mark.parametrize(
    "text",
    ["18", "18.50", "0.333333", "1/3", "x**2 + 2*x", "sqrt(8)", "max(2, 3)", "pi/2", "E",
     "Symbol('y') + 1", "sin(x)**2 + cos(x)**2", "3e5", "I*2"],
)
def test_parse_expr_with_namespace_cache_is_unchanged(text: str) -> None:
    fresh = _ORIGINAL_PARSE_EXPR(text)
    cached = parse_expr(text)
    assert cached == fresh and type(cached) is type(fresh)
    assert parse_expr(text, evaluate=False) == _ORIGINAL_PARSE_EXPR(text, evaluate=False)


# Number pairs, one a Float: with Math-Verify's own rounding (`mathverify-full`'s config), the
# direct comparison must give Math-Verify's verdict, both ways.
@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        (Integer(18), Float("18.0")),
        (Integer(18), Float("18.5")),
        (Rational(1, 3), Float("0.333333")),
        (Rational(1, 3), Float("0.33")),
        (Float("0.3333333"), Rational(1, 3)),
        (Integer(2), Float("2.0000004")),
        (Integer(2), Float("2.000004")),
        (Float("1e20"), Integer(10**20)),
        (Float("123456789.123456789", 30), Float("123456789.1234568")),
        (Float("-0.5"), Rational(-1, 2)),
        (Float("0.0"), Integer(0)),
    ],
)
@pytest.mark.parametrize("rounding", [6, 2])
def test_number_fast_path_matches_math_verify(gold: Basic, pred: Basic, rounding: int) -> None:
    config = SymbolicConfig(float_rounding=rounding, exact_numbers=False)
    expected = verify([gold], [pred], float_rounding=rounding, timeout_seconds=None)
    assert verify_fast([gold], [pred], config) is expected
    assert verify_fast([pred], [gold], config) is verify(
        [pred], [gold], float_rounding=rounding, timeout_seconds=None
    )


def test_infinities_still_go_to_math_verify() -> None:
    assert verify_fast([oo], [Float("1e300")], SymbolicConfig()) is False
