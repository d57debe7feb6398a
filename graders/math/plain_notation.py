"""Plain-text and Python notation inside an answer, rewritten as the LaTeX it means.

Replies box what a program printed or what they typed without LaTeX: `pi`, `exp(2)`,
`2*pi*r`, `x**2`, `sqrt(2)/2`, `(3+2j)`, `3.0 + -1.0i`, `1e-30`, and mixed numbers such as
`2 1/4`.
Math-Verify's LaTeX reader takes `pi` for `p*i`, `exp(2)` for `e*x*p(2)` and `2 1/4` for
`(2+1)/4`. Only spellings with one reading are rewritten:

- a name is a function or constant only as a whole word outside LaTeX (`\\pi`, `spin` and
  `\\exp` stay as they are) and, for functions, followed by `(` (balanced) or, for `sqrt`,
  by a number or one letter;
- `j` is the imaginary unit `i` only when the whole answer is one complex number in Python's
  spelling (`2-3j`, `(3+2j)`, `3.0 + -1.0i`); LaTeX's own `6 - 5i` is left as it is;
- `1e-30` is scientific notation only as a whole answer with a decimal point or a two-digit
  exponent (`2e-3` may be 2e - 3);
- `W a/b` is a mixed number only when it is the whole answer and `a/b` a proper fraction:
  inside a product or a list (`3 \\cdot 2 1/4`, `2 1/4, 3`) it stays ambiguous, and the
  caller refuses to parse a space between two digits at all.
"""

from __future__ import annotations

import re

_NUM = r"\d+(?:\.\d*)?|\.\d+"
_COMPLEX = re.compile(
    rf"\(?\s*(?P<re>[-+]?\s*(?:{_NUM}))\s*(?P<sign>[-+])\s*(?P<imsign>[-+]?)\s*"
    rf"(?P<im>{_NUM})?\s*\*?\s*[ij]\s*\)?"
    rf"|\(?\s*(?P<only>[-+]?\s*(?:{_NUM})?)\s*\*?\s*[ij]\s*\)?"
)
# `1e-30`, `1.5E+3`: scientific notation, as a whole answer, when it cannot be `2e - 3`
# (a multiple of Euler's number minus something): a decimal point or a two-digit exponent.
_SCIENTIFIC = re.compile(r"(?P<man>[-+]?\d+(?:\.\d*)?|[-+]?\.\d+)[eE](?P<exp>[-+]?\d+)")
# What only Python writes: `j`, a sign after a sign (`3.0 + -1.0i`), a parenthesised number.
_PYTHON_COMPLEX = re.compile(r"j|[-+]\s*[-+]|^\(")
_MIXED = re.compile(r"(?P<neg>-?)\s*(?P<whole>\d+)\s+(?P<num>\d+)\s*/\s*(?P<den>\d+)")
_WORD_START = r"(?<![\\A-Za-z])"
_CALL = re.compile(_WORD_START + r"(?P<name>sqrt|exp|abs|sin|cos|tan|cot|sec|csc|arcsin|arccos|"
                   r"arctan|sinh|cosh|tanh|log|ln)\s*\(")
_BARE_SQRT = re.compile(_WORD_START + r"sqrt\s*(?P<arg>\d+(?:\.\d+)?|[A-Za-z](?![A-Za-z]))")
_PI = re.compile(_WORD_START + r"pi(?![A-Za-z])")
_POWER = re.compile(r"\*\*\s*")
_POWER_ARG = re.compile(r"[-+]?(?:\d+(?:\.\d+)?|[A-Za-z]\w*)")
_TIMES = re.compile(r"(?<![*^{_])\*(?![*}])")
_PLAIN_HINT = re.compile(r"\*|(?<![\\A-Za-z])(?:pi|sqrt|exp|abs|sin|cos|tan|cot|sec|csc|arc|"
                         r"log|ln)|\d\s+\d|[ij]\s*\)?\s*$|\d[eE][-+]?\d")


def plain_to_latex(text: str) -> str:
    """`2*pi*r` -> `2 \\cdot \\pi r`, `exp(2)` -> `e^{2}`, `sqrt(2)/2` -> `\\sqrt{2}/2`,
    `(3+2j)` -> `3+2i`, `2 1/4` -> `2\\frac{1}{4}`; anything else unchanged."""
    if not _PLAIN_HINT.search(text):
        return text
    stripped = text.strip()
    whole = _whole_answer_forms(stripped)
    if whole is not None:
        return whole
    text = _rewrite_calls(text)
    text = _BARE_SQRT.sub(lambda m: "\\sqrt{" + m.group("arg") + "}", text)
    text = _PI.sub(r"\\pi ", text)
    text = _rewrite_powers(text)
    return _TIMES.sub(r" \\cdot ", text)


def _whole_answer_forms(text: str) -> str | None:
    """A complex number or a mixed number that is the whole answer, as LaTeX."""
    m = _COMPLEX.fullmatch(text) if _PYTHON_COMPLEX.search(text) else None
    if m and re.search(r"\d", text):
        if m.group("re") is not None:
            negative = (m.group("sign") == "-") != (m.group("imsign") == "-")
            real = m.group("re").replace(" ", "")
            return f"{real}{'-' if negative else '+'}{m.group('im') or '1'}i"
        only = m.group("only").replace(" ", "")
        return f"{only if only not in ('', '+', '-') else only + '1'}i"
    m = _SCIENTIFIC.fullmatch(text)
    if m and ("." in m.group("man") or len(m.group("exp").lstrip("+-")) >= 2):
        return f"{m.group('man')}\\times 10^{{{m.group('exp')}}}"
    m = _MIXED.fullmatch(text)
    if m and 0 < int(m.group("num")) < int(m.group("den")):
        return f"{m.group('neg')}{m.group('whole')}\\frac{{{m.group('num')}}}{{{m.group('den')}}}"
    return None


def _rewrite_calls(text: str) -> str:
    """`sqrt(...)` -> `\\sqrt{...}`, `exp(...)` -> `e^{...}`, `abs(...)` -> `|...|`,
    `sin(...)` -> `\\sin(...)`, innermost first, parentheses balanced."""
    for _ in range(20):  # bounded: each pass rewrites one call
        calls = list(_CALL.finditer(text))
        if not calls:
            return text
        m = calls[-1]  # the last call opened holds no other call
        close = _matching_paren(text, m.end() - 1)
        if close is None:
            return text
        inner = text[m.end() : close]
        name = m.group("name")
        if name == "sqrt":
            latex = "\\sqrt{" + inner + "}"
        elif name == "exp":
            latex = "e^{" + inner + "}"
        elif name == "abs":
            latex = "\\left|" + inner + "\\right|"
        else:
            latex = "\\" + name + "\\left(" + inner + "\\right)"
        text = text[: m.start()] + latex + text[close + 1 :]
    return text


def _matching_paren(text: str, open_index: int) -> int | None:
    depth = 0
    for i in range(open_index, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return None


def _rewrite_powers(text: str) -> str:
    """Python's `x**2` -> `x^{2}`, `2**(n+1)` -> `2^{(n+1)}`."""
    out, at = [], 0
    for m in _POWER.finditer(text):
        if m.start() < at:
            continue
        out.append(text[at : m.start()] + "^{")
        if text.startswith("(", m.end()):
            close = _matching_paren(text, m.end())
            end = len(text) - 1 if close is None else close
            out.append(text[m.end() : end + 1] + "}")
            at = end + 1
            continue
        arg = _POWER_ARG.match(text, m.end())
        end = arg.end() if arg else m.end()
        out.append(text[m.end() : end] + "}")
        at = end
    return "".join(out) + text[at:]
