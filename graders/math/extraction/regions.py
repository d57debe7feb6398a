"""Where a reply's answer can be: the text before any trailing verification, its final
paragraph, and the reply with asides (calculator notes, worded parentheticals, math) blanked.

Blanking keeps offsets, so a match in a masked copy is a span in the original reply.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graders.math.extraction.spans import Span, math_segments

_CALCULATOR = re.compile(r"<<[^<>\n]*>>")
# A parenthetical after a space that holds a word: an aside, not the answer.
_WORDED_PARENTHETICAL = re.compile(r"(?<=\s)\((?=[^()\n]*[A-Za-z]{2})[^()\n]*\)")
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
# Confirming openers ("Indeed, 20^2 + 21^2 = 29^2") are also connectives ("Indeed, by AM-GM the
# minimum is 4"), so they mark a check only right after a sentence that ends on a stated value.
_CONFIRMING_OPENING = re.compile(
    r"(?i)\W{0,4}(?:indeed\b|sure\s+enough\b|as\s+expected\b|"
    r"(?:this|that)\s+(?:checks\s+out|confirms|agrees|matches)\b)"
)
# How a statement of a value ends: bold, a box, a number, ° or % (a math segment is checked
# for what it holds: `$a = -256$` and `$\frac{7}{11}$` state values, `$x + 4/x$` does not).
_VALUE_END = re.compile(r"(?:\*\*|__|\}|\d|°|%)\Z")
_MATH_END = re.compile(r"(?:\$|\\\)|\\\])\Z")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_ASSIGNMENT = re.compile(r"\s*(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w+\}?)?\s*=[^=]+")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_SENTENCE_START = re.compile(r"(?:(?<=[.!?])\s+|\n)(?=\S)")


@lru_cache(maxsize=8)  # several rules ask for the same reply's region in turn
def answer_region(reply: str) -> Span:
    """The reply without trailing verification paragraphs or a final check sentence."""
    starts = [0] + [m.end() for m in _PARAGRAPH_BREAK.finditer(reply)]
    first_answer = first_answer_like(reply, 0, len(reply))
    end = len(reply)
    # Drop trailing paragraphs that open with a check, once an answer was stated before them.
    while len(starts) > 1 and (
        (_CHECK_OPENING.match(reply, starts[-1])
         and first_answer is not None and first_answer < starts[-1])
        or _confirms_stated_value(reply, starts[-1])
    ):
        end = starts.pop()
    last = starts[-1]
    first_in_last = first_answer_like(reply, last, end)
    if first_in_last is not None:
        for m in _SENTENCE_START.finditer(reply, first_in_last, end):
            if _CHECK_OPENING.match(reply, m.end()) or _confirms_stated_value(reply, m.end()):
                end = m.end()
                break
    return 0, end


def _confirms_stated_value(reply: str, at: int) -> bool:
    """Whether the text at `at` opens with a confirming word right after a stated value."""
    if not _CONFIRMING_OPENING.match(reply, at):
        return False
    # A bounded window keeps a reply of a thousand "Indeed." sentences linear.
    before = mask_asides(reply[max(0, at - 400) : at]).rstrip().rstrip(".,;:!").rstrip()
    if _VALUE_END.search(before):
        return True
    segments = math_segments(before) if _MATH_END.search(before) else []
    if not segments or before[segments[-1][1] :].strip("$\\)]"):
        return False
    inside = before[segments[-1][0] : segments[-1][1]]
    return bool(_ASSIGNMENT.fullmatch(inside)) or not re.search(
        "[A-Za-z]", _LATEX_COMMAND.sub("", inside)
    )


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
    return _WORDED_PARENTHETICAL.sub(lambda m: " " * len(m.group()), masked)


def worded_asides(reply: str, span: Span) -> list[Span]:
    """Worded parentheticals in the prose of reply[span], math inside them included:
    `$a = -256$ (the root is $x = 64$)` has one, `$f(x)$` and `($\frac{1}{2}$)` have none."""
    return [m.span() for m in _WORDED_PARENTHETICAL.finditer(mask_math(reply, span), *span)]


def mask_math(reply: str, span: Span) -> str:
    """The reply with math segments inside span blanked, so prose-level matches skip them."""
    parts, done = [], 0
    for start, end in math_segments(reply, *span):
        parts += [reply[done:start], " " * (end - start)]
        done = end
    return "".join(parts) + reply[done:] if parts else reply
