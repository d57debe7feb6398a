"""Caches Math-Verify and SymPy lack, for the checking processes (`patches.py` puts them in); no
result changes.

Profiling `adjudicate grade` on 5,276 GSM8K replies showed Math-Verify spending half of its
whole-reply parse in SymPy's `parse_expr` rebuilding its namespace (`exec("from sympy import
*")`, about 0.7 ms) for every number it reads, and re-parsing LaTeX it had parsed a moment
before because its own caches hold 20 entries. The replacements made here fix both:

- SymPy's `parse_expr` (and Math-Verify's imported reference to it) gets a fresh copy of the
  namespace built once, exactly the one `parse_expr` would build itself;
- Math-Verify's `parse_latex_cached` / `parse_expr_cached` keep 4,096 entries instead of 20,
  and the `Number(text)` it calls for every number it reads is memoised (small numbers recur).

A test checks patched and unpatched parses agree. SymPy expressions are immutable, so sharing
cached ones is safe (Math-Verify's own cache already shares them).
"""

from __future__ import annotations

import builtins
import types
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import sympy.parsing.sympy_parser as sympy_parser
from sympy import Max, Min

CACHE_SIZE = 4096
_ORIGINAL_PARSE_EXPR = sympy_parser.parse_expr


@lru_cache(maxsize=1)
def _sympy_namespace() -> dict[str, Any]:
    """What `parse_expr` builds when given no global_dict (sympy_parser.py, SymPy 1.14)."""
    namespace: dict[str, Any] = {}
    exec("from sympy import *", namespace)
    for name, obj in vars(builtins).items():
        if isinstance(obj, types.BuiltinFunctionType):
            namespace[name] = obj
    namespace["max"] = Max
    namespace["min"] = Min
    return namespace


def parse_expr(s: str, local_dict: dict | None = None,
               transformations: Any = sympy_parser.standard_transformations,
               global_dict: dict | None = None, evaluate: bool = True) -> Any:
    """SymPy's `parse_expr`, with the default namespace built once (copied per call, since
    evaluating may add to it)."""
    if global_dict is None:
        global_dict = dict(_sympy_namespace())
    return _ORIGINAL_PARSE_EXPR(s, local_dict, transformations, global_dict, evaluate)


def shared_namespace(original: Callable[..., Any]) -> Callable[..., Any]:
    """What replaces SymPy's `parse_expr` (and Math-Verify's reference to it)."""
    if original is not _ORIGINAL_PARSE_EXPR:
        raise ValueError("parse_expr is no longer SymPy's own: not replaced twice")
    return parse_expr


def memoised(original: Callable[[str], Any]) -> Callable[[str], Any]:
    """What replaces Math-Verify's `Number` (only ever called on a str there)."""
    return lru_cache(maxsize=CACHE_SIZE)(original)


def bigger_cache(original: Any) -> Callable[..., Any]:
    """What replaces one of Math-Verify's small `lru_cache`d parsers: the same function,
    CACHE_SIZE entries."""
    return lru_cache(maxsize=CACHE_SIZE)(original.__wrapped__)
