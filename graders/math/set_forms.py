"""Sets of real numbers written three ways, as one SymPy set: set-builder `\\{x \\mid 1 < x < 4\\}`,
intervals and unions `(-\\infty, 2) \\cup (2, 5]`, inequalities `1 < x < 4`, conditions joined by
"or"/"and", and removed points `A \\setminus \\{2\\}`; so any two spellings compare by value."""

from __future__ import annotations

import re
from collections.abc import Callable

from sympy import (
    Complement,
    EmptySet,
    FiniteSet,
    Intersection,
    Interval,
    Reals,
    Set,
    Symbol,
    Union,
)
from sympy.core.relational import Eq, Relational
from sympy.logic.boolalg import And, Boolean, Or

RULE = "set_notation"
Parse = Callable[[str], list]

_BUILDER = re.compile(
    r"\\\{\s*([A-Za-z]|\\[a-z]+)\s*(?:\\in\s*\\mathbb\{R\}\s*)?(?:\\mid|\||:|\\vert)\s*(.+?)\s*\\\}",
    re.S)
_OR = re.compile(r"\\text\{\s*or\s*\}|\\lor\b|\\vee\b|(?<![A-Za-z\\])or(?![A-Za-z])")
_AND = re.compile(r"\\text\{\s*and\s*\}|\\land\b|\\wedge\b|(?<![A-Za-z\\])and(?![A-Za-z])")
_MINUS = re.compile(r"\\setminus|\\backslash")
_MARKERS = re.compile(r"\\mid|\\setminus|\\backslash|\\cup|\\cap|\\mathbb\{R\}|[<>]|\\[lg]eq?\b|"
                      r"\\ne\b|\\neq\b|\\infty|(?<![A-Za-z\\])or(?![A-Za-z])|\\text\{\s*or\s*\}")


def looks_like_set(text: str) -> bool:
    """Written as a set of reals (set-builder, interval union, inequality, removed points)."""
    return bool(_MARKERS.search(text))


def real_set(text: str, parse: Parse) -> Set | None:
    """The set of reals `text` writes, or None when it is not (certainly) one."""
    variables: set[Symbol] = set()
    found = _set(text.strip(), parse, variables)
    return found if found is not None and len(variables) <= 1 else None


def same_set(answer: str, key: str, parse: Parse) -> bool | None:
    """Whether two written sets are one set; None when either is not a set of reals."""
    if not (looks_like_set(answer) or looks_like_set(key)):
        return None
    ours, theirs = real_set(answer, parse), real_set(key, parse)
    if ours is None or theirs is None:
        return None
    if isinstance(ours, FiniteSet) and isinstance(theirs, FiniteSet):
        return None  # two lists of numbers: the ordinary comparison decides
    return bool(ours.symmetric_difference(theirs) == EmptySet)


def _set(text: str, parse: Parse, variables: set[Symbol]) -> Set | None:
    text = text.replace("\\left", "").replace("\\right", "").strip()
    for pattern, combine in ((_MINUS, _complement), (_OR, Union), (re.compile(r"\\cup"), Union),
                             (_AND, Intersection), (re.compile(r"\\cap"), Intersection)):
        parts = _split(text, pattern)
        if len(parts) > 1:
            sets = [_set(part, parse, variables) for part in parts]
            if any(s is None for s in sets):
                return None
            return combine(*sets)
    builder = _BUILDER.fullmatch(text)
    if builder:
        return _set(builder.group(2), parse, variables)
    parsed = parse(text)
    return _as_set(parsed[0], variables) if parsed else None


def _complement(first: Set, *rest: Set) -> Set:
    return Complement(first, Union(*rest))


def _split(text: str, pattern: re.Pattern) -> list[str]:
    """`text` split at matches of `pattern` outside brackets."""
    parts, depth, start, at = [], 0, 0, 0
    while at < len(text):
        char = text[at]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0 and (match := pattern.match(text, at)):
            parts.append(text[start:at])
            start = at = match.end()
            continue
        at += 1
    parts.append(text[start:])
    return [part.strip() for part in parts]


def _as_set(value: object, variables: set[Symbol]) -> Set | None:
    if isinstance(value, Set):
        return value if value.is_subset(Reals) is not False else None
    if isinstance(value, (Relational, And, Or)) and isinstance(value, Boolean):
        symbols = value.free_symbols
        if len(symbols) != 1:
            return None
        (symbol,) = symbols
        if not isinstance(symbol, Symbol):
            return None
        if isinstance(value, Eq) and value.lhs != symbol:
            return None
        variables.add(symbol)
        try:
            found = value.as_set()
        except Exception:  # SymPy cannot solve it: not a set we can compare
            return None
        return found if isinstance(found, Set) else None
    if getattr(value, "is_number", False) and getattr(value, "is_real", False):
        return FiniteSet(value)
    return None


__all__ = ["RULE", "real_set", "same_set", "looks_like_set", "Interval"]
