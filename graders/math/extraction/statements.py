"""Narrow a stated answer ("Answer: ...", "the answer is ...", a bold phrase) to the answer itself.

A statement keeps one sentence; a choice letter it names after its value wins (see
`choice_mentions.py`); then what follows its last copula; then its math (a list of segments is
one answer), or the last number of a worded sentence. Spans only ever shrink, in place.
"""

from __future__ import annotations

import re

from graders.math.extraction.choice_mentions import named_choices
from graders.math.extraction.regions import NUMBER, mask_asides, mask_math
from graders.math.extraction.spans import Span, math_segments, refine, strip_span

ANSWER_IS = re.compile(r"(?i)\b(?:the\s+)?(?:final\s+)?answer\s+is\s*[:：]?\s*")
# A number, a radical, a choice letter: what an answer looks like (a box beats a worded line).
ANSWER_SHAPED = re.compile(r"[\d\\√π∞]|^\(?[A-E]\)?$")
_SENTENCE_END = re.compile(r"\n|(?<!\\)[.;!?](?=\s|$)(?<!\d\.)|(?<!\\)[.;](?=\s+[A-Z])")
_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])(?!and\b)[A-Za-z]{3,}")
_LIST_SEPARATOR = re.compile(r"(?:\s|[,;\"'“”]|\\[\"']|\band\b|\\text\{\s*and\s*\})*")
_MATH_OPENER = re.compile(r"\$|\\\(|\\\[")
_NOT_AN_ANSWER = re.compile(
    r"(?i)(?:correct|incorrect|right|wrong|reasonable|consistent|valid|plausible|as follows|"
    r"below|above|the following|let(?:'|’)?s)\b"
)
# A choice letter and its option text: `(E) a polygenic score`.
_CHOICE_WITH_TEXT = re.compile(r"\(\s*[A-E]\s*\)\s+\S")
_COPULA = re.compile(r"\s(?:is|are|was|equals)\s")
_ENDS_SENTENCE = re.compile(r"[ \t*_)]*(?:[.!?](?=\s|$)|\n|$)")
_TEXT_COMMAND = re.compile(r"\\(?:text|textbf|mathrm|mbox)\{[^{}]*\}")


def strip_text_commands(text: str) -> str:
    """Text with `\\text{...}`-style groups blanked, so their words are not counted as prose."""
    return _TEXT_COMMAND.sub(" ", text)


def sentence_span(reply: str, start: int, end: int | None = None) -> Span:
    """From start to the end of its sentence (math segments never end a sentence)."""
    end = len(reply) if end is None else end
    stop = _SENTENCE_END.search(mask_math(reply, (start, end)), start, end)
    return start, stop.start() if stop else end


def sentence_after(reply: str, start: int, end: int | None = None) -> Span:
    """From start to the end of its sentence, or the math segment that opens there."""
    end = len(reply) if end is None else end
    if _MATH_OPENER.match(reply, start, end):
        inner = math_segments(reply, start, end)
        if inner and inner[0][0] - start <= 2:
            return inner[0]
    return sentence_span(reply, start, end)


def stated_choice(reply: str, start: int, end: int) -> Span | None:
    """The last choice letter named in reply[start:end], if it ends its sentence and nothing
    answer-like follows it (no math, no number outside asides):
    `$\\frac{7}{11}$, which is choice **(C)**.` -> `(C)`; `cases (A) and (B)` -> None."""
    choices = named_choices(reply, start, end)
    if not choices:
        return None
    span, after = choices[-1]
    if not _ENDS_SENTENCE.match(reply, after, end):
        return None
    if math_segments(reply, after, end) or NUMBER.search(mask_asides(reply), after, end):
        return None
    return span


def narrow_statement(reply: str, span: Span) -> Span:
    """A stated answer: skip 'the answer is', keep one sentence, take a named choice or what
    follows a copula."""
    span = strip_span(reply, span)
    phrase = ANSWER_IS.search(reply, span[0], span[1])
    if phrase and not reply[span[0] : phrase.start()].strip(" *_:"):
        span = strip_span(reply, (phrase.end(), span[1]))
    choice = stated_choice(reply, *sentence_span(reply, *span))
    if choice:
        return choice
    span = strip_span(reply, sentence_after(reply, span[0], span[1]))
    blanked = mask_math(reply, span)
    copulas = list(_COPULA.finditer(blanked, *span))
    if copulas:
        span = strip_span(reply, (copulas[-1].end(), span[1]))
    segments = math_segments(reply, *span)
    if segments:
        last = 1
        while last < len(segments) and _LIST_SEPARATOR.fullmatch(
            reply, segments[last - 1][1] + 1, segments[last][0] - 1
        ):
            last += 1
        if last > 1:  # `$12$ and $13$`: a list of math segments is one answer
            return strip_span(reply, (segments[0][0] - 1, segments[last - 1][1] + 1))
        whole = strip_span(reply, span)
        inner = strip_span(reply, segments[0])
        if len(segments) > 1 or inner != whole:
            return refine(reply, inner)
        return refine(reply, span)
    text = strip_text_commands(reply[span[0] : span[1]])
    if len(_PROSE_WORD.findall(text)) > 2:  # a worded sentence: its last number is the answer
        numbers = list(NUMBER.finditer(mask_asides(reply), *span))
        if numbers:
            return strip_span(reply, (numbers[-1].start(), numbers[-1].end()))
    return refine(reply, span)


def plausible(reply: str, span: Span) -> bool:
    """A stated answer reads like one: math, a number, a choice (with its option text), or a few
    words of text, and not an evaluation ("the answer is correct") or a preamble ("A: Let's
    think step by step")."""
    text = reply[span[0] : span[1]]
    if not text or _NOT_AN_ANSWER.match(text):
        return False
    return (bool(ANSWER_SHAPED.search(text)) or len(text.split()) <= 3
            or bool(_CHOICE_WITH_TEXT.match(text)))
