"""Boxed answers: every well-formed `\\boxed{...}` or `\\fbox{...}`, and the last run of them.

A run of boxes joined only by a short separator (`\\boxed{1}, \\boxed{2} and \\boxed{3}`) is one
answer, a list; a run whose boxes all hold the same answer (`\\boxed{6}\\). \\]\\n\\[\\boxed{6}`)
is that answer once.
"""

from __future__ import annotations

import re

from graders.math.extraction.spans import Span, brace_pairs, strip_span

_BOXED = re.compile(r"\\(?:boxed|fbox)\b")
_SENTENCE_BREAK = re.compile(r"[.!?]\s+[A-Z]")
_BARE_TOKEN = re.compile(r"[^\s$.,;}]+")


def last_box_run(reply: str) -> tuple[Span, int] | None:
    """(the answer's span, the index just past the last box) of the reply's last run of boxes."""
    boxes = _boxes(reply)
    if not boxes:
        return None
    start, content, after = boxes[-1]
    first = len(boxes) - 1
    while first > 0 and _joins(reply, boxes[first - 1][2], boxes[first][0]):
        first -= 1
    same = len({reply[box[1][0] : box[1][1]] for box in boxes[first:]}) == 1
    return (content if same else (boxes[first][0], after)), after


def _box_content(reply: str, m: re.Match, pairs: dict[int, int]) -> tuple[Span, int] | None:
    """The content span of one box and the index just past it."""
    i = m.end()
    while i < len(reply) and reply[i] in " \t":
        i += 1
    if i < len(reply) and reply[i] == "{":
        close = pairs.get(i)
        if close is not None:
            return strip_span(reply, (i + 1, close)), close + 1
    elif i > m.end():  # `\boxed 5`: one token after the space
        token = _BARE_TOKEN.match(reply, i)
        if token:
            return (i, token.end()), token.end()
    return None


def _joins(reply: str, start: int, end: int) -> bool:
    """Whether the text between two boxes is a short list separator, not a new statement."""
    between = reply[start:end]
    words = re.findall(r"(?<![\\A-Za-z])[A-Za-z]{2,}", between)
    return (
        len(between) <= 40
        and len(words) <= 3
        and "\n\n" not in between
        and not _SENTENCE_BREAK.search(between)
    )


def _boxes(reply: str) -> list[tuple[int, Span, int]]:
    """(start of `\boxed`, content span, end) of every well-formed non-empty box."""
    found = []
    pairs = brace_pairs(reply) if "\\boxed" in reply or "\\fbox" in reply else {}
    for m in _BOXED.finditer(reply):
        box = _box_content(reply, m, pairs)
        if box and box[0][1] > box[0][0]:
            found.append((m.start(), box[0], box[1]))
    return found
