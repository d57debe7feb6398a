"""Compare parsed answers: Math-Verify's `verify`, fast where the result is certain, exact on
numbers for `symbolic` (`exact_values.py`), Math-Verify's own rounding for `mathverify-full`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from math_verify import verify
from sympy import Abs, Basic, Expr, Float, I, Rational, Set, Symbol, sign
from sympy.logic.boolalg import Boolean

from graders.math.exact_mode import exact_numbers
from graders.math.exact_values import TooLarge, numbers_equal
from graders.math.symbolic_config import SymbolicConfig


def verify_fast(gold: Sequence[Any], pred: Sequence[Any], config: SymbolicConfig) -> bool:
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


def unify_imaginary_unit(parsed: list) -> list:
    """Parsed answers with the symbol `i` read as the imaginary unit: Math-Verify reads `3-i`
    as 3 - I but `3-1i` as 3 - 1*i (a symbol), so the same number would differ from itself."""
    out = []
    for value in parsed:
        if isinstance(value, Basic):
            names = {s: I for s in value.free_symbols if isinstance(s, Symbol) and s.name == "i"}
            value = value.xreplace(names) if names else value
        out.append(value)
    return out


def positive_match(gold: list, pred: list, config: SymbolicConfig) -> list[str]:
    """The symbols, when gold and pred are equal once every symbol is a positive real (the
    values a competition problem implies: `\\frac{1}{\\sqrt{n}}` = `\\sqrt{\\frac{1}{n}}`), else [].

    Only plain expressions qualify (not relations, sets or tuples), and never a key that
    takes absolute values or signs: such a key says its variables may be negative.
    """
    g, t = gold[0], pred[0]
    if not (_plain_expression(g) and _plain_expression(t)) or g.has(Abs) or g.has(sign):
        return []
    symbols = sorted((s for s in g.free_symbols | t.free_symbols if isinstance(s, Symbol)),
                     key=lambda s: s.name)
    if not symbols or all(s.is_positive for s in symbols):
        return []
    positive = {s: Symbol(s.name, positive=True) for s in symbols}
    if verify_fast([g.xreplace(positive)], [t.xreplace(positive)], config):
        return [s.name for s in symbols]
    return []


def _plain_expression(value: object) -> bool:
    return isinstance(value, Expr) and not isinstance(value, Set) and bool(value.free_symbols)


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
    with exact_numbers(rounding):
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
