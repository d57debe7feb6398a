"""LaTeX parsed in ANTLR's two stages: SLL prediction first, full LL only when SLL fails.

Math-Verify reads LaTeX with latex2sympy2's ANTLR grammar, whose parser predicts in full LL
mode: every decision the grammar leaves ambiguous to SLL is recomputed with full context on
each parse and never cached, and on MATH-500's answers that was half of all grading time
(about 15 ms a parse). ANTLR's documented guarantee (`PredictionMode.SLL`) is that an SLL
parse "will either return a correct parse tree (i.e. the same parse tree that would be
returned with the LL prediction mode), or it will report a syntax error". latex2sympy2's error
listener raises on every syntax error, so a parse that raises in SLL mode is simply run again
in LL mode, and every tree (and so every SymPy object, verdict and error) is the one LL gives.
The usual two-stage strategy of ANTLR users; 5-7x faster on MATH-500's LaTeX.

Put in by `patches.py` (in the checking processes only, on the latex2sympy2 and ANTLR releases
this was checked against).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from antlr4.atn.PredictionMode import PredictionMode
from latex2sympy2_extended.latex2sympy2 import _Latex2Sympy

_ORIGINAL_CREATE_PARSER = _Latex2Sympy.create_parser


def create_parser(self: _Latex2Sympy, latex_str: str) -> Any:
    """latex2sympy2's parser for `latex_str`, whose `math()` predicts SLL first and falls back
    to a fresh LL parser (the original) when SLL reports a syntax error."""
    parser = _ORIGINAL_CREATE_PARSER(self, latex_str)
    parser._interp.predictionMode = PredictionMode.SLL
    parser.math = _two_stage(parser.math, lambda: _ORIGINAL_CREATE_PARSER(self, latex_str).math())
    return parser


def _two_stage(sll: Callable[[], Any], ll: Callable[[], Any]) -> Callable[[], Any]:
    def math() -> Any:
        try:
            return sll()
        except RecursionError:  # not a syntax error: LL would meet it too
            raise
        except Exception:  # a syntax error in SLL: maybe SLL's weakness, so LL decides
            return ll()

    return math


def installed() -> bool:
    """Whether this process parses LaTeX in two stages."""
    return _Latex2Sympy.create_parser is create_parser


def two_stage(original: Callable[..., Any]) -> Callable[..., Any]:
    """What replaces latex2sympy2's `create_parser`."""
    if original is not _ORIGINAL_CREATE_PARSER:
        raise ValueError("create_parser is no longer latex2sympy2's own: not replaced twice")
    return create_parser
