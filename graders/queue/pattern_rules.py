"""The text rules dispute patterns are built from: a number's value, the wrappers around an
answer, a choice letter, the items of a list. Each is strict: a text it cannot read is None.
"""

from __future__ import annotations

import re
from fractions import Fraction

_SPACING = re.compile(r"\\[,;:! ]|\\quad|\\qquad|~")
_PLAIN = re.compile(r"\d+(?:\.\d*)?|\.\d+")
_SEPARATED = re.compile(r"\d{1,3}(?:([, ])\d{3})(?:\1\d{3})*(?:\.\d+)?")
_FRACTION = re.compile(r"\\[dt]?frac\{([^{}]+)\}\{([^{}]+)\}|\\[dt]?frac(\d)(\d)")
_SLASH = re.compile(r"([^/]+)/([^/]+)")
TEXT_COMMANDS = ("text", "textbf", "textrm", "mbox", "mathrm", "mathbf", "textit")
_WHOLE_TEXT = re.compile(r"\\(?:%s)\{(.*)\}" % "|".join(TEXT_COMMANDS), re.S)
_ASSIGNMENT = re.compile(r"(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w+\}?)?\s*=(?!=)\s*(.+)", re.S)
_LEADING_DOLLAR = re.compile(r"\\?\$\s*(.+)", re.S)
_TRAILING_UNIT = re.compile(
    r"(.+?)\s*(?:\\%|%|\^\{?\\circ\}?|°|\\(?:text|mbox|mathrm)\{[^{}]*\}"
    r"|(?<=\s)[A-Za-z]{2,}(?:\s+[A-Za-z]{2,})?\.?)", re.S)
WRAPPERS = {"assignment": "x =", "unit": "unit", "text": "\\text{}"}  # kind -> how it is named


def parse_number(text: str) -> Fraction | None:
    """The exact value of a plain number: `160.0`, `6,600`, `-\\frac{1}{2}`, `\\frac12`, `3/4`,
    `0.50`; None for anything else (an expression, a unit, a range)."""
    s = _SPACING.sub("", text.strip().replace("{,}", ",").replace("−", "-"))
    while s.startswith("{") and s.endswith("}"):
        s = s[1:-1].strip()
    sign = 1
    if s and s[0] in "+-":
        sign, s = (-1 if s[0] == "-" else 1), s[1:].strip()
    value = _unsigned(s)
    return None if value is None else sign * value


def _unsigned(s: str) -> Fraction | None:
    if _PLAIN.fullmatch(s):
        return Fraction(int(s)) if s.isdigit() else Fraction(s)  # int(): the same, faster
    if _SEPARATED.fullmatch(s):
        return Fraction(s.replace(",", "").replace(" ", ""))
    fraction = _FRACTION.fullmatch(s) or _SLASH.fullmatch(s)
    if fraction is None:
        return None
    top, bottom = [part for part in fraction.groups() if part is not None]
    numerator, denominator = parse_number(top), parse_number(bottom)
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def unwrap(text: str) -> tuple[str, frozenset[str]]:
    """The answer without an `x =` in front, a unit (`%`, `$`, degrees, `\\text{ cm}`, a unit
    word) or a `\\text{}` around it, and which of those (WRAPPERS kinds) were taken off."""
    core, taken = text.strip(), set()
    for _ in range(6):
        step = _unwrap_once(core)
        if step is None:
            break
        core, kind = step
        taken.add(kind)
    return core, frozenset(taken)


def _unwrap_once(text: str) -> tuple[str, str] | None:
    for pattern, kind in ((_WHOLE_TEXT, "text"), (_ASSIGNMENT, "assignment"),
                          (_LEADING_DOLLAR, "unit"), (_TRAILING_UNIT, "unit")):
        match = pattern.fullmatch(text)
        if match and match.group(1).strip():
            return match.group(1).strip(), kind
    return None


_LETTER = re.compile(
    r"(?:(?:option|choice|answer)\s*:?\s*)?(?:\(([A-Ea-e])\)|\[([A-Ea-e])\]|([A-E])(?:[.):]|\s*$))"
    r"(?:\s+.*)?", re.S | re.I)


def choice_letter(text: str) -> str | None:
    """The multiple-choice letter an answer names, upper case: `(B)`, `B.`, `\\text{(B)}`,
    `(B) 12`, `option B`; None if it names none (a bare lower-case letter is a variable)."""
    core = text.strip()
    while (whole := _WHOLE_TEXT.fullmatch(core)) is not None:
        core = whole.group(1).strip()
    match = _LETTER.fullmatch(core)
    if match is None:
        return None
    letter = next(group for group in match.groups() if group)
    if match.group(3) and not letter.isupper():
        return None
    return letter.upper()


_BRACKETS = {("\\{", "\\}"): "set", ("{", "}"): "set", ("(", ")"): "tuple", ("[", "]"): "tuple"}


def list_items(text: str) -> tuple[str, tuple[str, ...]] | None:
    """(bracket kind: list | set | tuple, the items as compared) for an answer of two or more
    comma- or semicolon-separated items; None otherwise. Numbers compare by value."""
    s = text.strip().replace("\\left", "").replace("\\right", "")
    kind = "list"
    for (opening, closing), name in _BRACKETS.items():
        if s.startswith(opening) and s.endswith(closing):
            s, kind = s[len(opening):len(s) - len(closing)], name
            break
    items = _split_top_level(s)
    if len(items) < 2 or not all(items):
        return None
    return kind, tuple(_item_form(item) for item in items)


def _split_top_level(text: str) -> list[str]:
    items, depth, current = [], 0, ""
    for char in text:
        depth += char in "({["
        depth -= char in ")}]"
        if char in ",;" and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += char
    items.append(current.strip())
    return items


def _item_form(item: str) -> str:
    value = parse_number(item)
    return str(value) if value is not None else re.sub(r"\s+", "", item)
