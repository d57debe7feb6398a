"""LaTeX parsed SLL-first (`two_stage_latex`) gives exactly what latex2sympy2's own LL parse
gives: the same parse tree and the same SymPy object, or the same error, on tricky forms (ones
SLL alone cannot parse among them) and on real MATH-500 keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from latex2sympy2_extended.latex2sympy2 import _Latex2Sympy
from sympy import srepr

from graders.math import two_stage_latex

TRICKY = [
    # SLL alone reports a syntax error on these; LL parses them (the fallback must run)
    "3R^2", "5r^5", "6r^2-4r-24", "8n^2 + 4n + 1", "15\\mbox{ cm}^2", "864 \\mbox{ inches}^2",
    # numbers as Math-Verify passes them on
    "1,000", "1.0", "-0", "01", "1e3", "+3", "-7", "3.", "50\\%", "\\$5", "12345678901234567890",
    "\\frac{1}{2}", "-\\frac{3}{4}", "\\dfrac{14}{3}", "0.\\overline{3}", "2\\sqrt{5}",
    "2 \\sqrt{5}", "\\sqrt[3]{2}", "10^{-3}", "3\\times 10^5", "5\\text{ cm}", "\\text{(C)}",
    "\\pi", "\\frac{\\pi}{3}", "90^\\circ", "\\infty", "-\\infty", "i", "3+4i", "e^{i\\pi}",
    # sets, intervals, relations, tuples, matrices
    "(3,4]", "[-2, 5)", "(-\\infty, 1) \\cup (2, \\infty)", "\\{1, 2, 3\\}", "x = 3",
    "x = -2, 1", "3 < \\lambda \\le 4", "(1, 2)", "(1,-1,2)", "y = 2x + 3", "a \\ge 0",
    "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
    # functions, calculus, odd spacing, words
    "\\sin(2x)", "2\\sin x\\cos x", "\\log_2 8", "\\ln x", "f(x) = x^2", "x^2+2x+1", "p - q",
    "\\frac{11+9a}{20}", "52_8", "204_5", "\\text{Evelyn}", "\\mathrm{e}", "1+1/",
    "\\left( \\frac{1}{2}, 3 \\right)", "\\binom{5}{2}", "5!", "|x|", "\\lfloor 3.7 \\rfloor",
    # syntax errors both ways
    "\\frac{1}{", "x = = 2", "(", "}", "\\sqrt", "",
]


def _result(create: object, latex: str) -> tuple[str, str]:
    """(parse tree, SymPy object or error) for `latex` with `create` as the parser factory."""
    converter = _Latex2Sympy()
    try:
        parser = create(converter, latex)  # type: ignore[operator]
        tree = parser.math().toStringTree(recog=parser)
    except Exception as exc:  # noqa: BLE001 - the error is the result compared
        tree = f"error: {exc}"
    converter.create_parser = lambda text: create(converter, text)  # type: ignore[operator]
    try:
        value = srepr(converter.parse(latex))
    except Exception as exc:  # noqa: BLE001
        value = f"error: {type(exc).__name__}: {exc}"
    return tree, value


def _same_both_ways(latex: str) -> None:
    ll = _result(two_stage_latex._ORIGINAL_CREATE_PARSER, latex)
    assert _result(two_stage_latex.create_parser, latex) == ll, latex


@pytest.mark.parametrize("latex", TRICKY)
def test_two_stage_parse_is_the_ll_parse(latex: str) -> None:
    _same_both_ways(latex)


def test_real_keys_parse_the_same(shared_data: Path) -> None:
    with open(shared_data / "math500_test.jsonl", encoding="utf-8") as fh:
        keys = [json.loads(line)["answer"] for line in fh]
    for key in keys[::4]:  # 125 real keys: every form MATH-500 uses, in reasonable time
        _same_both_ways(key)
