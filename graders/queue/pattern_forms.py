"""The dispute kinds of issue 27's answer forms, read from the answer and key text alone (no
SymPy): the same classes `symbolic`'s second look decides (`graders/math/second_look.py`)."""

from __future__ import annotations

import re

from graders.math import angle_units, labeled, rounding_forms, word_forms
from graders.math.answer_pieces import label_words, pieces

_SET_WRITING = re.compile(r"\\mid|\\setminus|\\backslash|\\text\{\s*or\s*\}|\\cup|\\mathbb\{R\}"
                          r"|(?<![A-Za-z\\])or(?![A-Za-z])")
_INEQUALITY = re.compile(r"[<>]|\\[lg]eq?\b|\\neq?\b")
_NOT_VARIABLES = re.compile(r"\\(?:[lg]eq?|neq?|frac|dfrac|sqrt|infty|pi|left|right|cdot|text)\b")
_INTERVAL = re.compile(r"^\s*(?:\\left)?[(\[].*,.*[)\]]\s*$")
_WORD = re.compile(r"[A-Za-z]{2}")  # a label needs a word
_LETTER = re.compile(r"(?<![A-Za-z\\])[A-Za-z](?![A-Za-z])")

# kind -> (title, description), in the order they are checked
FORM_KINDS = {
    "ordinal_or_count": ("ordinal or count word",
                         "an ordinal or a count in words (`7^{th}`, `the seventh`, "
                         "\"infinitely many\") against the number"),
    "percent_fraction": ("percent vs fraction",
                         "a percent against a fraction or decimal (`33.3\\%` vs `\\frac13`)"),
    "rounded_key": ("rounded key",
                    "a key rounded to some places against an exact answer (`3.14` vs "
                    "`\\frac{22}{7}`)"),
    "angle_units": ("degrees vs radians", "an angle in degrees against one in radians"),
    "labeled_tuple": ("labelled values",
                      "labelled values (`p = 3, q = -1`) against a bare list: the question's "
                      "order decides"),
    "partial_parse": ("labelled quantities",
                      "several quantities with words between them (`12 red, 30 blue`), "
                      "compared one by one"),
    "set_notation": ("set written another way",
                     "a set of reals in set-builder, interval or inequality form, with unions, "
                     "removed points or \"or\""),
    "renamed_parameter": ("renamed parameter",
                          "the same expression with a free parameter or argument renamed "
                          "(`2k\\pi` vs `2m\\pi`)"),
}


def classify_forms(answer: str, key: str) -> str | None:
    """The issue-27 kind (a FORM_KINDS name) that explains how the answer differs, or None."""
    if word_forms.as_number(answer) or word_forms.as_number(key):
        return "ordinal_or_count"
    if ("%" in answer) != ("%" in key):
        return "percent_fraction"
    if (rounding_forms.rounded_places(key) is not None
            and not rounding_forms.has_decimal_point(answer)):
        return "rounded_key"
    for one, other in ((answer, key), (key, answer)):
        if angle_units.in_degrees(one) is not None and angle_units.in_radians(other):
            return "angle_units"
    if ("=" in answer or "=" in key) and labeled.applies(answer, key):
        return "labeled_tuple"
    if any(_WORD.search(text) and len(found := pieces(text)) >= 2
           and any(label_words(p.label) for p in found) for text in (answer, key)):
        return "partial_parse"
    if _SET_WRITING.search(answer) or _SET_WRITING.search(key) or any(
            _INEQUALITY.search(one) and re.search(r"[A-Za-z]", _NOT_VARIABLES.sub("", one))
            and (_INTERVAL.match(other) or _INEQUALITY.search(other))
            for one, other in ((answer, key), (key, answer))):
        return "set_notation"
    if _LETTER.search(answer) and _LETTER.search(key) and _renamed(answer, key):
        return "renamed_parameter"
    return None


def _renamed(answer: str, key: str) -> bool:
    """The same text once each single-letter symbol is numbered by first appearance, with
    different letters."""
    def skeleton(text: str) -> tuple[str, tuple[str, ...]]:
        order: list[str] = []

        def number(match: re.Match) -> str:
            if match.group() not in order:
                order.append(match.group())
            return f"#{order.index(match.group())}"

        return "".join(_LETTER.sub(number, text).split()), tuple(order)

    (shape_a, letters_a), (shape_k, letters_k) = skeleton(answer), skeleton(key)
    has_more = bool(re.sub(r"#\d+", "", shape_a))  # not just `b` against `B`
    return has_more and shape_a == shape_k and letters_a != letters_k
