"""Hardening rewrites applied before Math-Verify parses an answer or a key.

Each rewrite turns a spelling Math-Verify 0.9.0 misreads or rejects into plain LaTeX it reads
correctly: Unicode math, thousands separators (including the thin space it reads as a sum),
`\\mathrm{e}`, and multiple-choice letters. Rewrites only ever change notation, never value.
"""

from __future__ import annotations

import re

from graders.math.extraction.number_words import words_to_digits
from graders.math.plain_notation import plain_to_latex

_UNICODE = {
    "−": "-", "–": "-", "×": "\\times ", "·": "\\cdot ", "⋅": "\\cdot ", "÷": "\\div ",
    "≤": "\\le ", "≥": "\\ge ", "≠": "\\ne ", "≦": "\\le ", "≧": "\\ge ",
    "π": "\\pi ", "∞": "\\infty ", "±": "\\pm ", "∓": "\\mp ", "∪": "\\cup ", "∩": "\\cap ",
    "∈": "\\in ", "°": "^\\circ ", "θ": "\\theta ", "α": "\\alpha ", "β": "\\beta ",
    "λ": "\\lambda ", "√": "\\sqrt", "∛": "\\sqrt[3]", "∜": "\\sqrt[4]",
    "∠": "\\angle ", "∡": "\\measuredangle ",
    "½": "\\frac{1}{2}", "⅓": "\\frac{1}{3}", "¼": "\\frac{1}{4}", "¾": "\\frac{3}{4}",
    "\u2009": " ", "\u202f": " ", "\u00a0": " ",
}
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
# A radical's argument: a parenthesised group, a braced group, a number or one symbol.
_RADICAL_ARG = re.compile(
    r"(\\sqrt(?:\[\d\])?)\s*(?:\(([^()]*)\)|(\d+(?:\.\d+)?|[A-Za-z]|\\pi\b))"
)
# Unambiguous LaTeX digit grouping: 10{,}080  10,\!080  1\,234  1\;234  1\ 234  1{\,}234
_LATEX_GROUP_SEP = r"(?:\{,\}|,\\!|\\,|\\;|\\:|\\ |\{\\,\}|~)"
_LATEX_GROUPED = re.compile(
    r"(?<![\d.])\d{1,3}(?:" + _LATEX_GROUP_SEP + r"[ \t]?\d{3})+(?![\d])"
)
# Plain grouping only when it is the whole answer: 1,234,567.5 or 1 234 567
_PLAIN_GROUPED = re.compile(r"-?\d{1,3}(?:(,)\d{3})+(?:\.\d+)?|-?\d{1,3}(?:( )\d{3})+(?:\.\d+)?")
_TEXT_AND = re.compile(r"\\(?:text|mbox|textrm)\{\s*and\s*\}")
# Only the first character of a whitespace run may start a match (keeps the scan linear).
_AND = re.compile(r"(?<![\s,])(?:,\s*|\s+)and\s+")
_MATHRM_E = re.compile(r"\\math(?:rm|it)\{e\}|\\operatorname\{e\}")
_CHOICE = re.compile(
    r"\(?\s*(?:\\text(?:bf|rm)?\{\s*\(?\s*([A-E])\s*\)?\s*\}|\\mathrm\{\(?([A-E])\)?\}|([A-E]))\s*\)?"
)


def unicode_to_latex(text: str) -> str:
    """`2√5` -> `2\\sqrt{5}`, `x²` -> `x^{2}`, `≤` -> `\\le`, `−` -> `-` and the like."""
    if text.isascii():
        return text
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^{" + m.group().translate(_SUPERSCRIPTS) + "}", text)
    for symbol, latex in _UNICODE.items():
        text = text.replace(symbol, latex)
    return text


def brace_radicals(text: str) -> str:
    """`\\sqrt5` -> `\\sqrt{5}`, `\\sqrt[3]8` -> `\\sqrt[3]{8}`, `\\sqrt(x+1)` -> `\\sqrt{x+1}`."""
    if "\\sqrt" not in text:
        return text
    return _RADICAL_ARG.sub(lambda m: f"{m.group(1)}{{{m.group(2) or m.group(3)}}}", text)


def join_thousands(text: str) -> str:
    """`10{,}080`, `10,\\!080`, `1\\,234` anywhere, and `1,234` / `1 234` as a whole -> digits."""
    text = _LATEX_GROUPED.sub(lambda m: re.sub(r"\D", "", m.group()), text)
    if _PLAIN_GROUPED.fullmatch(text.strip()):
        return text.strip().replace(",", "").replace(" ", "")
    return text


def choice_letter(text: str) -> str | None:
    """The letter of a multiple-choice answer: `(C)`, `\\text{(C)}`, `\\textbf{(C)}`, `C`."""
    m = _CHOICE.fullmatch(text.strip())
    if not m:
        return None
    return next(g for g in m.groups() if g)


def and_to_comma(text: str) -> str:
    """`12 and 13`, `12\\text{ and }13` -> `12, 13`: a spelled-out list (outside `\\text{}`)."""
    bare = _TEXT_AND.sub(" and ", text)
    if "\\text" in bare or "\\mbox" in bare:
        return text
    return _AND.sub(", ", bare)


def harden(text: str) -> str:
    """All notation rewrites, in the order they must run."""
    text = brace_radicals(plain_to_latex(unicode_to_latex(words_to_digits(text))))
    text = and_to_comma(text)
    text = _MATHRM_E.sub("e", text)
    return join_thousands(text)
