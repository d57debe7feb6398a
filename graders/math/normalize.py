"""The MATH repository's answer normalization, written from its documented rule list.

Rules, in order: drop newlines and `\\!`; unescape doubled backslashes; `\\tfrac`/`\\dfrac` ->
`\\frac`; drop `\\left`/`\\right`; drop `^{\\circ}`/`^\\circ`, `\\$`, `\\%`/`%`; drop a trailing
`\\text{ unit}`; give bare decimals a leading `0`; drop a short `x =` left-hand side; brace
`\\sqrt2` -> `\\sqrt{2}`; remove spaces; brace `\\frac12` -> `\\frac{1}{2}`;
`0.5` -> `\\frac{1}{2}`; `a/b` of two integers -> `\\frac{a}{b}`.
"""

from __future__ import annotations

import re
from functools import lru_cache

_SQRT_UNBRACED = re.compile(r"\\sqrt(?![{\[])\s*([0-9A-Za-z])")
_SIMPLE_SLASH = re.compile(r"(-?\d+)/(\d+)")


def _brace_fracs(text: str) -> str:
    """Brace fraction arguments: `\\frac12` -> `\\frac{1}{2}`, `\\frac1{72}` -> `\\frac{1}{72}`."""
    parts = text.split("\\frac")
    out = parts[0]
    for part in parts[1:]:
        out += "\\frac"
        if not part or part[0] == "{":
            head, rest = _take_group(part)
        else:
            head, rest = "{" + part[0] + "}", part[1:]
        if not rest or rest[0] == "{":
            tail, rest = _take_group(rest)
        else:
            tail, rest = "{" + rest[0] + "}", rest[1:]
        out += head + tail + rest
    return out


def _take_group(text: str) -> tuple[str, str]:
    """Split a leading `{...}` group (balanced) from the rest; the whole text if unbalanced."""
    if not text.startswith("{"):
        return "", text
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0:
            return text[: i + 1], text[i + 1 :]
    return text, ""


def _drop_text_units(text: str) -> str:
    """`10\\text{ units}` -> `10`: a `\\text{ ...}` starting with a space marks a unit."""
    head, sep, _ = text.partition("\\text{ ")
    return head if sep else text


@lru_cache(maxsize=65536)  # pure: a key or a common answer is normalized once per process
def normalize_math_answer(answer: str) -> str:
    """The MATH repository's normal form of an answer string (for string equality)."""
    s = answer.replace("\n", "").replace("\\!", "")
    s = s.replace("\\\\", "\\")
    s = s.replace("tfrac", "frac").replace("dfrac", "frac")
    s = s.replace("\\left", "").replace("\\right", "")
    s = s.replace("^{\\circ}", "").replace("^\\circ", "")
    s = s.replace("\\$", "")
    s = _drop_text_units(s)
    s = s.replace("\\%", "").replace("%", "")
    s = s.replace(" .", " 0.").replace("{.", "{0.")
    if s.startswith("."):
        s = "0" + s
    sides = s.split("=")
    if len(sides) == 2 and len(sides[0].strip()) <= 2:
        s = sides[1]
    s = _SQRT_UNBRACED.sub(r"\\sqrt{\1}", s)
    s = s.replace(" ", "")
    s = _brace_fracs(s)
    if s == "0.5":
        s = "\\frac{1}{2}"
    whole = _SIMPLE_SLASH.fullmatch(s)
    if whole:
        s = "\\frac{" + whole.group(1) + "}{" + whole.group(2) + "}"
    return s
