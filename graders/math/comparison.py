"""Compare parsed answers: Math-Verify's `verify`, fast where the result is certain, exact on
numbers for `symbolic` (`exact_values.py`), Math-Verify's own rounding for `mathverify-full`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from math_verify import verify
from sympy import Basic, Float, Rational, Set
from sympy.logic.boolalg import Boolean

from graders.math.exact_mode import exact_numbers
from graders.math.exact_values import TooLarge, numbers_equal


@dataclass(frozen=True)
class SymbolicConfig:
    """Math-Verify's comparison options, the soft per-check time limit (seconds), and whether
    numbers compare exactly (`exact_values.py`; off: Math-Verify's rounding to 6 places)."""

    float_rounding: int = 6
    numeric_precision: int = 15
    strict: bool = True
    allow_set_relation_comp: bool = True
    timeout_s: float | None = 5.0
    exact_numbers: bool = True


def verify_fast(gold: list, pred: list, config: SymbolicConfig) -> bool:
    """Math-Verify's `verify` (with exact numbers when the config says so), with its result
    computed directly where it is certain.

    `verify` is true when any (gold, pred) pair matches. Two SymPy rationals match exactly when
    equal (Math-Verify compares them symbolically, and rounding applies only to floats); two
    finite numbers, one a Float, match when equal after rounding (its `simplify` fallback on
    two numbers is just their difference); two strings match when equal after trimming; a
    string never matches a SymPy object. Every other pair goes to Math-Verify itself. A pair
    too large to compare exactly raises `TooLarge` only when no other pair matches.
    """
    options = (
        config.float_rounding, config.numeric_precision, config.strict,
        config.allow_set_relation_comp, config.exact_numbers,
    )
    too_large: TooLarge | None = None
    for g in gold:
        for t in pred:
            try:
                same = _pair_matches(g, t, options)
            except TooLarge as exc:
                too_large, same = exc, False
            if same:
                return True
    if too_large is not None:
        raise too_large
    return False


def _pair_matches(g: object, t: object, options: tuple) -> bool:
    rounding, exact = options[0], options[4]
    if isinstance(g, Rational) and isinstance(t, Rational):
        return g == t
    if _finite_number(g) and _finite_number(t):
        if exact:
            return bool(numbers_equal(g, t, rounding))
        return _numbers_match(g, t, rounding)
    if isinstance(g, str) or isinstance(t, str):
        return isinstance(g, str) and isinstance(t, str) and bool(g.strip()) and (
            g.strip() == t.strip()
        )
    # The set/relation flag only acts when gold is (or unwraps from a relation to) a set: drop
    # it otherwise so both graders share memo entries.
    flags = options if isinstance(g, (Set, Boolean)) else (*options[:3], False, exact)
    try:
        return _verify_pair(g, t, flags)
    except TypeError:  # unhashable (a mutable matrix): no memo
        return _verify_pair.__wrapped__(g, t, flags)


@lru_cache(maxsize=4096)
def _verify_pair(gold: Basic, pred: Basic, options: tuple) -> bool:
    """One Math-Verify comparison, memoised: `symbolic` and `mathverify-full` often compare
    structurally identical SymPy trees (hashing a tree never evaluates or prints it)."""
    rounding, precision, strict, set_relation, exact = options
    if not exact:
        return _verify(gold, pred, rounding, precision, strict, set_relation)
    with exact_numbers():
        return _verify(gold, pred, rounding, precision, strict, set_relation)


def _verify(gold: Basic, pred: Basic, rounding: int, precision: int, strict: bool,
            set_relation: bool) -> bool:
    return verify(
        [gold], [pred], float_rounding=rounding, numeric_precision=precision, strict=strict,
        allow_set_relation_comp=set_relation, timeout_seconds=None,
    )


def _finite_number(value: object) -> bool:
    return isinstance(value, (Rational, Float)) and bool(value.is_finite)


def _numbers_match(gold: Basic, pred: Basic, rounding: int) -> bool:
    """Math-Verify's verdict on two numbers, one a Float, without its `simplify`: equal after
    rounding both to `rounding` places, or (its symbolic fallback) a zero difference."""
    try:
        if gold.round(rounding) == pred.round(rounding):
            return True
    except Exception:  # Math-Verify falls through to the symbolic check the same way
        pass
    return bool((gold - pred).is_zero)
