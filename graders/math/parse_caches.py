"""Caches Math-Verify and SymPy lack, installed in each grading worker; no result changes.

Profiling `adjudicate grade` on 5,276 GSM8K replies showed Math-Verify spending half of its
whole-reply parse in SymPy's `parse_expr` rebuilding its namespace (`exec("from sympy import
*")`, about 0.7 ms) for every number it reads, and re-parsing LaTeX it had parsed a moment
before because its own caches hold 20 entries. `install()` fixes both, in place:

- `sympy.parsing.sympy_parser.parse_expr` (and Math-Verify's imported reference to it) gets a
  fresh copy of the namespace built once, exactly the one `parse_expr` would build itself;
- Math-Verify's `parse_latex_cached` / `parse_expr_cached` keep 4,096 entries instead of 20,
  and the `Number(text)` it calls for every number it reads is memoised (small numbers recur);
- LaTeX is parsed in ANTLR's two stages, SLL first (`two_stage_latex.py`): the same trees.

These are patches of third-party module attributes, so they are explicit and narrow:
`install()` runs only in the engine's grading worker processes (the pool's initializer; the
process that started them is never patched), only on the SymPy and Math-Verify versions they
were written against (elsewhere it does nothing: grading is then slower, never different), and
a test checks patched and unpatched parses agree. SymPy expressions are immutable, so sharing
cached ones is safe (Math-Verify's own cache already shares them).
"""

from __future__ import annotations

import builtins
import types
from functools import lru_cache
from importlib.metadata import version
from typing import Any

import math_verify.parser as mv_parser
import sympy.parsing.sympy_parser as sympy_parser
from sympy import Max, Min, Number

from graders.math import two_stage_latex

CACHE_SIZE = 4096
# The releases whose internals the patches copy (`parse_expr`'s namespace, the names of
# Math-Verify's cached parsers): version prefixes.
WRITTEN_FOR = {"sympy": "1.14.", "math-verify": "0.9.", **two_stage_latex.WRITTEN_FOR}
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


def supported() -> bool:
    """Whether the installed SymPy and Math-Verify are the releases the patches were written for."""
    return all(version(package).startswith(prefix) for package, prefix in WRITTEN_FOR.items())


def install() -> bool:
    """Install the caches in this process, a grading worker (idempotent); False, and nothing
    patched, on other SymPy or Math-Verify versions."""
    if sympy_parser.parse_expr is parse_expr:
        return True
    if not supported():
        return False
    sympy_parser.parse_expr = parse_expr
    mv_parser.parse_expr = parse_expr
    mv_parser.Number = lru_cache(maxsize=CACHE_SIZE)(Number)  # only ever called, on a str
    two_stage_latex.install()
    for name in ("parse_latex_cached", "parse_expr_cached"):
        cached = getattr(mv_parser, name)
        setattr(mv_parser, name, lru_cache(maxsize=CACHE_SIZE)(cached.__wrapped__))
    return True
