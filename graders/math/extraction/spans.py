"""Span helpers for extraction: balanced braces, math segments, and narrowing a span in place.

Every helper works on (start, end) offsets into the original reply, so an extraction can always
point at the exact characters it took.
"""

from __future__ import annotations

import re

Span = tuple[int, int]

# Inline and display math delimiters, longest first so `$$` wins over `$`.
_OPENER = re.compile(r"\$\$|\\\[|\\\(|(?<!\\)\$")
_CLOSER = {"$$": "$$", "\\[": "\\]", "\\(": "\\)", "$": "$"}
_WRAPPERS = (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$"), ("**", "**"), ("__", "__"))
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_TRAILING_JUNK = ".,;:!?。"
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_PROSE_RUN = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}[,;:.]?[ \t]+[A-Za-z]{2,}")
_TEXT_GROUP = re.compile(r"\\(?:text|textbf|textrm|mathrm|mbox|operatorname)\{[^{}]*\}")
_WORD = re.compile(r"[A-Za-z]{2,}")
_NUMBER_THEN_WORDS = re.compile(
    r"(?P<num>-?\\?\$?\s*(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|-?\.\d+)"
    r"(?P<words>(?:\s+[A-Za-z][A-Za-z'’-]*)+)\s*$"
)


def brace_pairs(text: str) -> dict[int, int]:
    """Every balanced `{` index mapped to its `}` (escaped braces ignored), in one pass."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            pairs[stack.pop()] = i
        i += 1
    return pairs


def matching_brace(text: str, open_index: int) -> int | None:
    """Index of the `}` closing the `{` at open_index (escaped braces ignored), or None."""
    depth = 0
    i = open_index
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def math_segments(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Spans of the contents of every delimited math segment in text[start:end].

    A linear scan: an opener with no closer anywhere after it disables that delimiter for the
    rest of the text, so hostile input (thousands of unclosed `\\[`) stays cheap.
    """
    end = len(text) if end is None else end
    spans: list[Span] = []
    dead: set[str] = set()
    i = start
    while i < end:
        opener = _OPENER.search(text, i, end)
        if not opener:
            break
        token = opener.group()
        close = None if token in dead else _find_closer(text, opener.end(), end, _CLOSER[token])
        if close is None:
            dead.add(token)
            i = opener.end()
            continue
        if token == "$" and _currency(text, opener.start(), close):
            i = opener.end()  # `$5 and got $3 back`: this `$` is money, not math
            continue
        if close > opener.end():
            spans.append((opener.end(), close))
        i = close + len(_CLOSER[token])
    return spans


def _currency(text: str, opener: int, closer: int) -> bool:
    """Whether a `$...$` pair is two amounts of money with prose between them: the opener
    reads as currency (`$5`, or `400$ ` after a number) and the closer opens the next amount
    (`$5 and $3`) or what it would enclose runs over a line break or holds two words in a row
    (`$5 and got $`, `400$\\nThe total is 1460$`)."""
    inside = text[opener + 1 : closer]
    before = text[max(0, opener - 2) : opener].rstrip(" ")
    prefix = inside[:1].isdigit()
    postfix = before[-1:].isdigit() and inside[:1].isspace()
    if not (prefix or postfix):
        return False
    if prefix and text[closer + 1 : closer + 2].isdigit():  # `$5 and $3`: the next amount
        return True
    return "\n" in inside or bool(_PROSE_RUN.search(_TEXT_GROUP.sub(" ", inside)))


def _find_closer(text: str, start: int, end: int, closer: str) -> int | None:
    """Index of the next unescaped closer in text[start:end], or None."""
    at = text.find(closer, start, end)
    while at > 0 and text[at - 1] == "\\":
        at = text.find(closer, at + 1, end)
    return at if at >= 0 else None


def strip_span(text: str, span: Span) -> Span:
    """Narrow a span past surrounding whitespace, markup wrappers and trailing punctuation."""
    start, end = span
    changed = True
    while changed and start < end:
        changed = False
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        for left, right in _WRAPPERS:
            if (
                end - start > len(left) + len(right)
                and text.startswith(left, start)
                and text.endswith(right, 0, end)
                and not _opens_again(text[start + len(left) : end - len(right)], left)
            ):
                start, end, changed = start + len(left), end - len(right), True
                break
        # An unpaired bold marker left over from "**Answer:** 13**" style lines.
        for marker in ("**", "__"):
            if text.startswith(marker, start) and marker not in text[start + 2 : end]:
                start, changed = start + 2, True
            if text.endswith(marker, 0, end) and marker not in text[start : end - 2]:
                end, changed = end - 2, True
        if end > start and text[end - 1] in _TRAILING_JUNK and not _is_escaped(text, end - 1):
            end, changed = end - 1, True
    return start, end


def _opens_again(inner: str, left: str) -> bool:
    """Whether a wrapper's delimiter occurs (unescaped, for `$`) inside what it wraps."""
    if left == "$":
        return bool(_UNESCAPED_DOLLAR.search(inner))
    return left in inner


def _is_escaped(text: str, index: int) -> bool:
    return index > 0 and text[index - 1] == "\\"


def drop_trailing_parenthetical(text: str, span: Span) -> Span:
    """`160 minutes (2 hours 40 minutes)` -> `160 minutes`: a worded aside after the answer."""
    start, end = span
    if end - start < 3 or text[end - 1] != ")":
        return span
    depth = 0
    for i in range(end - 1, start - 1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                inside = _LATEX_COMMAND.sub("", text[i + 1 : end - 1])
                before = text[start:i]
                if before.strip() and before[-1:].isspace() and _WORD.search(inside):
                    return strip_span(text, (start, i))
                return span
    return span


def drop_trailing_words(text: str, span: Span) -> Span:
    """`18 dollars` -> `18`: a number followed only by words (units, nouns)."""
    start, end = span
    m = _NUMBER_THEN_WORDS.fullmatch(text, start, end)
    if not m:
        return span
    return strip_span(text, (m.start("num"), m.end("num")))


def rhs_of_simple_assignment(text: str, span: Span) -> Span:
    """`a = -256` -> `-256`: drop a single-symbol left-hand side (the MATH `x =` rule)."""
    start, end = span
    m = re.match(r"\s*(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w+\}?)?\s*=(?!=)", text[start:end])
    if not m or "=" in text[start + m.end() : end]:
        return span
    rhs = strip_span(text, (start + m.end(), end))
    return rhs if rhs[1] > rhs[0] else span


def refine(text: str, span: Span) -> Span:
    """The common narrowing every rule applies: trim, drop a worded aside, drop units."""
    span = strip_span(text, span)
    span = drop_trailing_parenthetical(text, span)
    span = drop_trailing_words(text, span)
    return span
