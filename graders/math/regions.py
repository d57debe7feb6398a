"""Where a reply's answer can be: the text before any trailing verification, its final
paragraph, and the reply with asides (calculator notes, worded parentheticals, math) blanked.

Blanking keeps offsets, so a match in a masked copy is a span in the original reply.
"""

from __future__ import annotations

import re

from graders.math.spans import Span, math_segments

_CALCULATOR = re.compile(r"<<[^<>\n]*>>")
NUMBER = re.compile(
    r"(?<![\w.])-?(?:\d+\s*)?[√∛∜]\s*\(?\d+(?:\.\d+)?\)?"  # 2√5, √(12)
    r"|(?<![\w.])-?\d+(?:\.\d+)?\s*π"  # 3π
    r"|(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s*/\s*\d+(?!\d|\.\d))?"  # 1,234.5 3/4
    r"|(?<![\w.])-?\.\d+"
)
_CHECK_OPENING = re.compile(
    r"(?i)\W{0,4}(?:as\s+an?\s+(?:\w+\s+){0,2}check|(?:let(?:'|’)?s|let\s+us|we\s+can|now)\s+"
    r"(?:double[- ]?)?(?:check|verify|confirm)|(?:double[- ]?)?check(?:ing)?\b|verif(?:y|ying|"
    r"ication)\b|sanity\s+check|consistency\s+check|to\s+(?:double[- ]?)?(?:check|verify|confirm)|"
    r"confirm(?:ing|ation)?\b|plugging\s+(?:back|in)|substituting\s+back)"
)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_SENTENCE_START = re.compile(r"(?:(?<=[.!?])\s+|\n)(?=\S)")


def answer_region(reply: str) -> Span:
    """The reply without trailing verification paragraphs or a final check sentence."""
    starts = [0] + [m.end() for m in _PARAGRAPH_BREAK.finditer(reply)]
    first_answer = first_answer_like(reply, 0, len(reply))
    end = len(reply)
    # Drop trailing paragraphs that open with a check, once an answer was stated before them.
    while len(starts) > 1 and _CHECK_OPENING.match(reply, starts[-1]) and (
        first_answer is not None and first_answer < starts[-1]
    ):
        end = starts.pop()
    last = starts[-1]
    first_in_last = first_answer_like(reply, last, end)
    if first_in_last is not None:
        for m in _SENTENCE_START.finditer(reply, first_in_last, end):
            if _CHECK_OPENING.match(reply, m.end()):
                end = m.end()
                break
    return 0, end


def first_answer_like(reply: str, start: int, end: int) -> int | None:
    """Where the first math segment or number in reply[start:end] begins, if any."""
    segments = math_segments(reply, start, end)
    number = NUMBER.search(reply, start, end)
    found = [p for p in (segments[0][0] if segments else None, number and number.start())
             if p is not None]
    return min(found) if found else None


def final_paragraph(reply: str, region: Span) -> Span:
    last_text = len(reply[region[0] : region[1]].rstrip()) + region[0]
    start = region[0]
    for m in _PARAGRAPH_BREAK.finditer(reply, region[0], region[1]):
        if m.end() < last_text:
            start = m.end()
    return start, region[1]


def mask_asides(reply: str) -> str:
    """The reply with calculator annotations and worded parentheticals blanked (same length)."""
    masked = _CALCULATOR.sub(lambda m: " " * len(m.group()), reply)
    return re.sub(
        r"(?<=\s)\((?=[^()\n]*[A-Za-z]{2})[^()\n]*\)",
        lambda m: " " * len(m.group()),
        masked,
    )


def mask_math(reply: str, span: Span) -> str:
    """The reply with math segments inside span blanked, so prose-level matches skip them."""
    chars = list(reply)
    for start, end in math_segments(reply, *span):
        chars[start:end] = " " * (end - start)
    return "".join(chars)
