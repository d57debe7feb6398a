"""A free parameter or function argument named differently: `\\frac{\\pi}{4} + 2m\\pi` against
`\\frac{\\pi}{4} + 2k\\pi`, `g(t) = 3t - 5` against `g(x) = 3x - 5`. Equal up to one consistent
renaming of symbols the question does not give and the other side does not use."""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

from sympy import Basic, Eq, Symbol

RULE = "renamed_parameter"
_MOST = 3  # symbols renamed at once (3! pairings at most)


def renamings(gold: object, pred: object, givens: frozenset[str]) -> list[dict[Symbol, Symbol]]:
    """The consistent renamings of pred's own symbols to gold's that leave the givens alone."""
    if not (isinstance(gold, Basic) and isinstance(pred, Basic)):
        return []
    gold_own = sorted(_symbols(gold) - _symbols(pred), key=str)
    pred_own = sorted(_symbols(pred) - _symbols(gold), key=str)
    if not pred_own or len(pred_own) != len(gold_own) or len(pred_own) > _MOST:
        return []
    if any(s.name in givens for s in (*gold_own, *pred_own)):
        return []
    return [dict(zip(pred_own, order, strict=True)) for order in permutations(gold_own)]


def renamed_match(gold: object, pred: object, givens: frozenset[str],
                  same: Callable[[object, object], bool]) -> dict[str, str] | None:
    """{answer's symbol: key's symbol} of a renaming under which `same(gold, pred)`, or None.
    A `theta =` on one side only is set aside (`\\theta = j\\pi` against `k\\pi`)."""
    gold, pred = _value(gold, pred), _value(pred, gold)
    for renaming in renamings(gold, pred, givens):
        assert isinstance(pred, Basic)
        if same(gold, pred.xreplace(renaming)):
            return {str(a): str(b) for a, b in renaming.items()}
    return None


def _value(one: object, other: object) -> object:
    """`one` without a `symbol =` in front when `other` has none."""
    if isinstance(one, Eq) and isinstance(one.lhs, Symbol) and not isinstance(other, Eq):
        return one.rhs
    return one


def _symbols(value: Basic) -> set[Symbol]:
    return {s for s in value.free_symbols if isinstance(s, Symbol)}
